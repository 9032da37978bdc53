//! `vedette los TABLE A B [--json]`: line of sight from A (a unit, or `unit#index`) to B,
//! with units, terrain, hills and the table's rule set: the verdict (`visible`,
//! `full_base_visible`), the closest distance, and the explanation an overlay can draw
//! (the clear sight lines, or what cuts the line examined and where).

use super::calls::{self, CallEntry};
use super::emit;
use super::measure::{measure, micro};
use super::overlay::{Painter, PhotoArgs};
use crate::CliError;
use schemars::JsonSchema;
use serde::Serialize;
use std::path::PathBuf;
use vedette_draw::caption::{decide_sight, sight_caption, sight_verdict_words};
use vedette_geometry::los::close_calls::SightCalls;
use vedette_geometry::los::{Cut, CutBy, Explanation, Method, TerrainRule, UnitVerdict};
use vedette_geometry::{BaseRef, RuleSet, Scale, SpatialIndex, Table, Vec2};

/// The schema id of `vedette los --json` output.
pub const LOS_SCHEMA_ID: &str = "vedette/los/1";

/// Arguments of `vedette los`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  vedette los samples/woods-block.json fr-art-1 au-1\n  vedette los samples/woods-block.json fr-art-1 au-1 --svg los.svg"
)]
pub struct Args {
    /// The table file (vedette/table/1 JSON).
    pub table: PathBuf,
    /// The spotter: a unit id, or `unit#index` for one of its bases.
    pub a: String,
    /// The target: a unit id, or `unit#index`.
    pub b: String,
    /// Print JSON (see docs/report-format.md, `los`).
    #[arg(long)]
    pub json: bool,
    /// Also write a picture: the clear sight lines, or the line examined with where and
    /// by what it is cut (docs/drawing.md).
    #[arg(long, value_name = "OUT.svg")]
    pub svg: Option<PathBuf>,
    /// Drawing over the scanned photo.
    #[command(flatten)]
    pub photo: PhotoArgs,
}

/// The answer of `los`, as `--json` prints it.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct LosReport {
    /// Always `"vedette/los/1"`.
    pub schema: String,
    /// The spotter, as given.
    pub from: String,
    /// The target, as given.
    pub to: String,
    /// The rule set whose sight rules apply.
    pub rules: RuleSet,
    /// The scale.
    pub scale: Scale,
    /// Some point of the target is seen from some point of the spotter.
    pub visible: bool,
    /// Some base of the target is seen in full (every point of it) from one spotter base:
    /// what artillery needs (000 §4.5).
    pub full_base_visible: bool,
    /// The base pair that makes `full_base_visible` true.
    pub full_base: Option<BasePair>,
    /// Closest edge-to-edge distance between the two.
    pub distance: Distance,
    /// `"exact"`, or `"sampled"` when spotting depth, blind zones or Pro Patria limits
    /// decided (see `sampling`).
    pub method: String,
    /// For `"sampled"`: the target grid and eye spacing, mm.
    pub sampling: Option<SamplingMm>,
    /// Clear sight segments found: one when visible, one to each corner of the fully
    /// seen base.
    pub sight_lines: Vec<SightSegment>,
    /// When not fully visible: the sight line examined (to the hidden point, or centre
    /// line between the closest bases).
    pub examined: Option<Line>,
    /// What cuts the examined line, nearest the spotter first.
    pub blocked_by: Vec<Blocking>,
    /// A point of the target no spotter point sees (when visible but not in full).
    pub hidden_point: Option<[f64; 2]>,
    /// The close call of `visible`: how far every base may move against the verdict
    /// before it flips (see "Close calls" in docs/report-format.md).
    pub visible_call: CallEntry,
    /// The close call of `full_base_visible`.
    pub full_base_call: CallEntry,
    /// Pro Patria (004 §15.1): the target stands within 25 mm (15) of a hill's crest
    /// line that the spotter is not within reach of, so its player declares it over the
    /// crest (the verdict above) or behind it (this one). Absent where the declaration
    /// changes nothing.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub if_declared_behind: Option<DeclaredBehind>,
}

/// The verdict of `los` when the target's player declares it behind a crest (004 §15.1).
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct DeclaredBehind {
    /// Some point of the target is seen.
    pub visible: bool,
    /// Some base of the target is seen in full from one spotter base.
    pub full_base_visible: bool,
}

/// Two bases, `unit#index`.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct BasePair {
    /// The spotter's base.
    pub from_base: String,
    /// The target's base.
    pub to_base: String,
}

/// A distance in table millimetres, inches and rule inches.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct Distance {
    /// Table millimetres.
    pub mm: f64,
    /// Inches.
    #[serde(rename = "in")]
    pub inches: f64,
    /// Rule inches (scale applied); null for Pro Patria.
    pub rule_in: Option<f64>,
}

/// The bounded search's spacing.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct SamplingMm {
    /// Target grid spacing, mm.
    pub target_step_mm: f64,
    /// Largest gap between eye points tried, mm.
    pub eye_step_mm: f64,
}

/// A clear sight segment.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct SightSegment {
    /// Eye point, mm.
    pub from: [f64; 2],
    /// Target point, mm.
    pub to: [f64; 2],
    /// The spotter's base.
    pub from_base: String,
    /// The target's base.
    pub to_base: String,
}

/// A segment.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct Line {
    /// Start, mm.
    pub from: [f64; 2],
    /// End, mm.
    pub to: [f64; 2],
}

/// Something that cuts the sight line.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct Blocking {
    /// The terrain kind (`heavy-forest`, `hill`, ...), the blocking unit's kind
    /// (`infantry`, ...), `skirmish-screen`, `field-of-view` or `max-visibility`.
    pub kind: String,
    /// The terrain feature: its id, or `terrain[i]`.
    pub feature: Option<String>,
    /// The blocking base, `unit#index` (for a skirmish screen, the first marker).
    pub base: Option<String>,
    /// Why: `blocks`, `blind-zone`, `spotting-depth`, `visible-within`, `sees-past`,
    /// `field-of-view`, `max-visibility`.
    pub rule: String,
    /// The blind zone multiple (003 601), for `blind-zone`.
    pub multiple: Option<f64>,
    /// The distance limit, mm, for `spotting-depth`, `visible-within`, `sees-past`,
    /// `max-visibility`.
    pub limit_mm: Option<f64>,
    /// Where it cuts the line, mm.
    pub at: [f64; 2],
}

fn pt(v: Vec2) -> [f64; 2] {
    [micro(v.x), micro(v.y)]
}

fn blocking(table: &Table, c: &Cut) -> Blocking {
    let mut b = Blocking {
        kind: String::new(),
        feature: None,
        base: None,
        rule: "blocks".to_string(),
        multiple: None,
        limit_mm: None,
        at: pt(c.at),
    };
    match &c.by {
        CutBy::Base(r) => {
            b.kind = table.units[r.unit].kind.to_string();
            b.base = Some(table.base_label(*r));
        }
        CutBy::SkirmishScreen(r, _) => {
            b.kind = "skirmish-screen".to_string();
            b.base = Some(table.base_label(*r));
        }
        CutBy::Terrain { feature, kind, rule } => {
            b.kind = kind.to_string();
            b.feature =
                Some(table.terrain[*feature].id.clone().unwrap_or_else(|| format!("terrain[{feature}]")));
            match *rule {
                TerrainRule::Blocks => {}
                TerrainRule::BlindZone { multiple } => {
                    b.rule = "blind-zone".to_string();
                    b.multiple = Some(micro(multiple));
                }
                TerrainRule::SpottingDepth { depth_mm } => {
                    b.rule = "spotting-depth".to_string();
                    b.limit_mm = Some(micro(depth_mm));
                }
                TerrainRule::VisibleWithin { limit_mm } => {
                    b.rule = "visible-within".to_string();
                    b.limit_mm = Some(micro(limit_mm));
                }
                TerrainRule::SeesPast { limit_mm } => {
                    b.rule = "sees-past".to_string();
                    b.limit_mm = Some(micro(limit_mm));
                }
                TerrainRule::Crest { reach_mm } => {
                    b.rule = "crest".to_string();
                    b.limit_mm = Some(micro(reach_mm));
                }
            }
        }
        CutBy::FieldOfView => {
            b.kind = "field-of-view".to_string();
            b.rule = "field-of-view".to_string();
        }
        CutBy::MaxVisibility { limit_mm } => {
            b.kind = "max-visibility".to_string();
            b.rule = "max-visibility".to_string();
            b.limit_mm = Some(micro(*limit_mm));
        }
    }
    b
}

/// Line of sight between two selections of a table.
pub fn line_of_sight(table: &Table, a: &str, b: &str) -> Result<LosReport, CliError> {
    line_of_sight_explained(table, a, b).map(|(r, _)| r)
}

/// The picture of a sight verdict, with its caption.
pub fn sight_scene(
    table: &Table,
    a: &str,
    b: &str,
    r: &LosReport,
    seen: &Seen,
) -> Result<vedette_draw::Scene, CliError> {
    let caption =
        sight_caption(table, (a, b), &seen.verdict, &seen.explanation, &seen.calls, seen.behind.as_ref());
    let mut scene = vedette_draw::table_scene(table, &caption.headline);
    vedette_draw::findings::sight::draw_sight(
        &mut scene,
        table,
        &table.rule_book()?,
        (table.select(a)?, table.select(b)?),
        r.visible,
        &seen.explanation,
    )?;
    scene.focus_on(&[vedette_draw::LayerId::Sight, vedette_draw::LayerId::BlindZones]);
    scene.caption = Some(caption);
    Ok(scene)
}

/// What the library decided about a sight line: the verdict, its explanation, its close
/// calls, and under Pro Patria the verdict if the target is declared behind a crest.
#[derive(Debug, Clone)]
pub struct Seen {
    /// The verdict.
    pub verdict: UnitVerdict,
    /// Why.
    pub explanation: Explanation,
    /// How close a call each half of the verdict is.
    pub calls: SightCalls,
    /// Declared behind a crest (004 §15.1), where that changes anything.
    pub behind: Option<UnitVerdict>,
}

/// [`line_of_sight`] with what the library decided (what a picture draws).
pub fn line_of_sight_explained(table: &Table, a: &str, b: &str) -> Result<(LosReport, Seen), CliError> {
    let sa = table.select(a)?;
    let sb = table.select(b)?;
    let m = measure(table, a, b)?;
    let index = SpatialIndex::new(table);
    let (v, ex, sight_calls, behind) = decide_sight(table, &index, sa, sb)?;
    let label = |r: BaseRef| table.base_label(r);
    let (method, sampling) = match v.method {
        Method::Exact => ("exact".to_string(), None),
        Method::Sampled(s) => (
            "sampled".to_string(),
            Some(SamplingMm { target_step_mm: s.target_step_mm, eye_step_mm: s.eye_step_mm }),
        ),
    };
    let report = LosReport {
        schema: LOS_SCHEMA_ID.to_string(),
        from: a.to_string(),
        to: b.to_string(),
        rules: table.rules,
        scale: table.scale,
        visible: v.visible,
        full_base_visible: v.full_base.is_some(),
        full_base: v.full_base.map(|(s, t)| BasePair { from_base: label(s), to_base: label(t) }),
        distance: Distance { mm: m.mm, inches: m.inches, rule_in: m.rule_in },
        method,
        sampling,
        sight_lines: ex
            .sight_lines
            .iter()
            .map(|s| SightSegment {
                from: pt(s.segment.a),
                to: pt(s.segment.b),
                from_base: label(s.from_base),
                to_base: label(s.to_base),
            })
            .collect(),
        examined: ex.examined.map(|s| Line { from: pt(s.a), to: pt(s.b) }),
        blocked_by: ex.blocked_by.iter().map(|c| blocking(table, c)).collect(),
        hidden_point: ex.hidden_point.map(pt),
        visible_call: calls::entry(table, &sight_calls.visible, None),
        full_base_call: calls::entry(table, &sight_calls.full_base, None),
        if_declared_behind: behind
            .as_ref()
            .map(|v| DeclaredBehind { visible: v.visible, full_base_visible: v.full_base.is_some() }),
    };
    Ok((report, Seen { verdict: v, explanation: ex, calls: sight_calls, behind }))
}

/// The human-readable answer.
#[must_use]
pub fn render_text(r: &LosReport) -> String {
    let mut s = format!("{} -> {} ({} at {} scale): ", r.from, r.to, r.rules, r.scale);
    s.push_str(sight_verdict_words(r.visible, r.full_base_visible));
    s.push('\n');
    let (vc, fc) = (&r.visible_call, &r.full_base_call);
    s.push_str(&format!(
        "  margin: {:.2} mm for \"{}\", {:.2} mm for \"{}\" (every base moved against the verdict){}{}\n",
        vc.margin_mm,
        if r.visible { "visible" } else { "not visible" },
        fc.margin_mm,
        if r.full_base_visible { "a full base seen" } else { "no full base seen" },
        calls::mark(vc),
        calls::mark(fc)
    ));
    if let Some(d) = &r.if_declared_behind {
        s.push_str(&format!(
            "  the target is within reach of a hill's crest: that is if its player declares it over the crest; declared behind it: {} (004 §15.1)\n",
            sight_verdict_words(d.visible, d.full_base_visible)
        ));
    }
    let rule = r.distance.rule_in.map(|x| format!(", {x:.3} rule-in")).unwrap_or_default();
    s.push_str(&format!("  closest distance: {:.1} mm = {:.3} in{rule}\n", r.distance.mm, r.distance.inches));
    if let Some(fb) = &r.full_base {
        s.push_str(&format!("  {} sees all of {}\n", fb.from_base, fb.to_base));
    }
    for l in &r.sight_lines {
        s.push_str(&format!(
            "  clear sight line {} ({:.1}, {:.1}) -> {} ({:.1}, {:.1})\n",
            l.from_base, l.from[0], l.from[1], l.to_base, l.to[0], l.to[1]
        ));
    }
    if let Some(h) = r.hidden_point {
        s.push_str(&format!("  hidden point of the target: ({:.1}, {:.1})\n", h[0], h[1]));
    }
    if let Some(e) = &r.examined {
        s.push_str(&format!(
            "  line examined ({:.1}, {:.1}) -> ({:.1}, {:.1}):\n",
            e.from[0], e.from[1], e.to[0], e.to[1]
        ));
        for b in &r.blocked_by {
            let what = match (&b.feature, &b.base) {
                (Some(f), _) => format!("{} \"{f}\"", b.kind),
                (None, Some(base)) => format!("{} {base}", b.kind),
                _ => b.kind.clone(),
            };
            let extra = match (b.multiple, b.limit_mm) {
                (Some(m), _) => format!(" (multiple {m})"),
                (None, Some(l)) => format!(" (limit {l:.1} mm)"),
                _ => String::new(),
            };
            s.push_str(&format!(
                "    cut by {what}: {}{extra} at ({:.1}, {:.1})\n",
                b.rule, b.at[0], b.at[1]
            ));
        }
    }
    if r.method == "sampled"
        && let Some(sm) = &r.sampling
    {
        s.push_str(&format!(
            "  decided by the bounded search: target grid {} mm, eye points {} mm apart\n",
            sm.target_step_mm, sm.eye_step_mm
        ));
    }
    s
}

/// Runs `vedette los`.
pub fn run(args: &Args, out: &mut dyn std::io::Write) -> Result<(), CliError> {
    run_with(args, out, None)
}

/// Runs `vedette los`, drawing over the photo with `painter`.
pub fn run_with(
    args: &Args,
    out: &mut dyn std::io::Write,
    painter: Option<Painter<'_>>,
) -> Result<(), CliError> {
    args.photo.check(args.svg.as_deref().map(|p| ("--svg", p)), &args.table)?;
    let table = Table::load(&args.table)?;
    let (r, seen) = crate::progress::working("deciding line of sight", || {
        line_of_sight_explained(&table, &args.a, &args.b)
    })?;
    args.photo
        .draw(args.svg.as_deref(), painter, &table, || sight_scene(&table, &args.a, &args.b, &r, &seen))?;
    if args.json {
        let text = serde_json::to_string_pretty(&r).map_err(|e| CliError::Usage(e.to_string()))?;
        return emit(out, &format!("{text}\n"));
    }
    emit(out, &render_text(&r))
}
