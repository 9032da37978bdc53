//! Verdict captions (issue 39): the answer to one question about a pair, in words, as
//! every picture of that question starts with it and as the phone page's verdict card
//! shows it. A [`Caption`] is a headline that answers the question ("fr-art-1 → au-3:
//! VALID MAIN TARGET · DEEP · no enfilade · 5.51 rule-in (bracket 3)", "fr-art-1 → au-1:
//! NOT VISIBLE: cut by big-wood (medium-forest)", "fr-1 → au-1: 38.1 mm = 1.50 in = 1.00
//! rule-in") and lines, each a question with its answer, its rule section and whether it is
//! too close to call on a scanned table. It serialises with serde (the page fetches it as
//! JSON) and draws as the band at the top of a picture ([`band_layout`]).
//!
//! Captions are built from the library's verdict structures, with the same words as the
//! pictures' labels and `explain`'s text ([`crate::explain`], [`crate::findings`]):
//! - [`measure_caption`]: the closest distance and the rule distances around it;
//! - [`sight_caption`]: line of sight and what cuts it;
//! - [`crate::explain::explain_battery`] and [`crate::explain::explain_assault`] give theirs
//!   in [`crate::explain::PairExplanation::caption`];
//! - [`pair_verdict`]: what the phone card shows for two units in one call: the distance,
//!   the sight, and the battery's or the assault's answers where they apply.

use crate::error::DrawError;
use crate::explain::{battery_explanation, explain_assault};
use crate::findings::measure::distance_name;
use crate::findings::sight::{cut_cause, cut_words};
use crate::findings::sigma_mm_words;
use crate::labels::text_width;
use serde::Serialize;
use vedette_geometry::close_call::CloseCall;
use vedette_geometry::los::close_calls::{SightCalls, sight_calls};
use vedette_geometry::los::{Explanation, TerrainSight, UnitVerdict};
use vedette_geometry::{
    ArtilleryRules, Measurement, RuleBook, RuleSet, Selection, SpatialIndex, Table, UnitKind,
    measure_between, mm_to_inches,
};

/// The mark of a verdict that a scan's uncertainty could flip.
pub const CLOSE_CALL: &str = "CLOSE CALL";

/// What a caption line is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Topic {
    /// The closest edge-to-edge distance and the rule distances around it.
    Distance,
    /// Line of sight.
    Sight,
    /// A battery and its target (000 §4.2-4.5).
    Artillery,
    /// An attacker and a defender (000 §5.1-5.4, 001 §4.1-4.3, 004 §17.4).
    Assault,
}

/// One question about a pair and its answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CaptionLine {
    /// What it is about.
    pub topic: Topic,
    /// The question, as a player asks it ("Range?").
    pub question: String,
    /// The answer with its numbers.
    pub answer: String,
    /// The rule section that asks it (`000 §4.3`), when a rule asks it.
    pub section: Option<String>,
    /// The answer is too close to call on this scanned table: its margin is within two
    /// standard uncertainties of the scan ([`CloseCall::certain`]).
    pub close_call: bool,
}

impl CaptionLine {
    /// A line.
    #[must_use]
    pub fn new(topic: Topic, question: &str, answer: String, section: Option<&str>) -> CaptionLine {
        CaptionLine {
            topic,
            question: question.to_string(),
            answer,
            section: section.map(str::to_string),
            close_call: false,
        }
    }

    /// The same, marked too close to call when `close`.
    #[must_use]
    pub fn close(mut self, close: bool) -> CaptionLine {
        self.close_call |= close;
        self
    }

    /// The line as text: `Range? 5.51 rule-in ... (000 §4.3)`, with `[CLOSE CALL]` after it
    /// when it is one.
    #[must_use]
    pub fn text(&self) -> String {
        let mut s = format!("{} {}", self.question, self.answer);
        if let Some(section) = &self.section {
            s.push_str(&format!(" ({section})"));
        }
        if self.close_call {
            s.push_str(&format!(" [{CLOSE_CALL}]"));
        }
        s
    }
}

/// The answer to one question about a pair, in words.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Caption {
    /// The pair: `fr-art-1 → au-3`.
    pub pair: String,
    /// The verdict in short: `VALID MAIN TARGET · DEEP · no enfilade · 5.51 rule-in (bracket 3)`.
    pub verdict: String,
    /// The first line of the picture and of the card: `PAIR: VERDICT`, and ` · CLOSE CALL`
    /// when any line is one.
    pub headline: String,
    /// Some line is too close to call.
    pub close_call: bool,
    /// The questions and answers, in the order the rules ask them.
    pub lines: Vec<CaptionLine>,
}

impl Caption {
    /// A caption for `pair` whose verdict is `parts` joined by ` · `.
    #[must_use]
    pub fn new(pair: String, parts: &[String], lines: Vec<CaptionLine>) -> Caption {
        let verdict = parts.join(" · ");
        let close_call = lines.iter().any(|l| l.close_call);
        let mut headline = format!("{pair}: {verdict}");
        if close_call {
            headline.push_str(&format!(" · {CLOSE_CALL}"));
        }
        Caption { pair, verdict, headline, close_call, lines }
    }

    /// The caption as text: the headline, then a line per answer, indented.
    #[must_use]
    pub fn render_text(&self) -> String {
        let mut s = format!("{}\n", self.headline);
        for l in &self.lines {
            s.push_str(&format!("  {}\n", l.text()));
        }
        s
    }
}

/// `A → B`.
#[must_use]
pub fn pair_words(a: &str, b: &str) -> String {
    format!("{a} → {b}")
}

/// A distance as a player reads it off a tape: `38.1 mm = 1.50 in = 1.00 rule-in`, with
/// the standard uncertainty on a scanned table (`38.1 ± 0.7 mm = 1.50 ± 0.03 in = ...`),
/// without rule inches under Pro Patria (distances stated in mm).
#[must_use]
pub fn tape_words(book: &RuleBook, mm: f64, sigma_mm: Option<f64>) -> String {
    let sigma = sigma_mm.filter(|s| s.is_finite());
    let inches = |v: f64, per_mm: f64| match sigma {
        Some(s) if s * per_mm >= 0.005 => format!("{v:.2} ± {:.2}", s * per_mm),
        _ => format!("{v:.2}"),
    };
    let mut s = match sigma {
        Some(sg) => sigma_mm_words(mm, sg),
        None => format!("{mm:.1} mm"),
    };
    s.push_str(&format!(" = {} in", inches(mm_to_inches(mm), mm_to_inches(1.0))));
    if let Some(per_mm) = book.mm_to_rule_inches(1.0) {
        s.push_str(&format!(" = {} rule-in", inches(mm * per_mm, per_mm)));
    }
    s
}

/// A close call's words after an answer: empty when it is certain, else
/// `; TOO CLOSE TO CALL: margin 0.12 mm, 2 sigma 0.40 mm, check fr-1#0`.
#[must_use]
pub fn close_words(table: &Table, call: &CloseCall) -> String {
    if call.certain() {
        return String::new();
    }
    let sigma = call.sigma_mm.unwrap_or(0.0);
    let check = call.nudge.map_or(String::new(), |n| format!(", check {}", table.base_label(n.base)));
    format!(
        "; TOO CLOSE TO CALL: margin {:.2} mm, {} sigma {:.2} mm{check}",
        call.margin_mm,
        vedette_geometry::close_call::CERTAIN_AT_SIGMAS,
        vedette_geometry::close_call::CERTAIN_AT_SIGMAS * sigma
    )
}

/// The caption of a measurement between `a` and `b` (as the player named them): the
/// distance on the tape, then the nearest rule distances below and above it, each with
/// its names, sections and close call.
#[must_use]
pub fn measure_caption(table: &Table, book: &RuleBook, a: &str, b: &str, m: &Measurement) -> Caption {
    let c = &m.found.closest;
    let tape = tape_words(book, c.distance_mm, m.sigma_mm);
    let mut lines = vec![CaptionLine::new(
        Topic::Distance,
        "Edge to edge?",
        format!("{tape}, between {} and {}", table.base_label(m.found.from), table.base_label(m.found.to)),
        None,
    )];
    for t in &m.thresholds {
        let names: Vec<String> = t.distances.iter().map(|e| distance_name(e.name)).collect();
        let mut sections: Vec<&str> = t.distances.iter().map(|e| e.section).collect();
        sections.dedup();
        lines.push(
            CaptionLine::new(
                Topic::Distance,
                &format!("Within {}?", crate::findings::distance_words(book, t.limit_mm)),
                format!(
                    "{} by {:.2} mm: {}{}",
                    if t.within { "yes, within" } else { "no, beyond" },
                    t.call.margin_mm,
                    names.join(", "),
                    close_words(table, &t.call)
                ),
                Some(&sections.join("; ")),
            )
            .close(!t.call.certain()),
        );
    }
    Caption::new(pair_words(a, b), &[tape], lines)
}

/// The sections that ask whether a unit is seen, for a rule set.
#[must_use]
pub fn sight_section(rules: RuleSet) -> &'static str {
    match rules {
        RuleSet::Republique5 | RuleSet::RepubliqueClassic => "000 §3.6",
        RuleSet::Republic => "000 §3.6, 003 601",
        RuleSet::ProPatria => "004 §16.3",
    }
}

/// A sight verdict in words, as `los` prints it and every picture says it.
#[must_use]
pub fn sight_verdict_words(visible: bool, full_base: bool) -> &'static str {
    match (visible, full_base) {
        (true, true) => "VISIBLE, a full base is seen",
        (true, false) => "VISIBLE in part, no base is seen in full",
        _ => "NOT VISIBLE",
    }
}

/// The caption of a sight verdict from `a` to `b` (as the player named them): the
/// verdict with what cuts the line, then whether it is seen and seen in full, with their
/// margins, each cut, and under Pro Patria the verdict if the target is declared behind
/// a crest (`behind`).
#[must_use]
pub fn sight_caption(
    table: &Table,
    (a, b): (&str, &str),
    v: &UnitVerdict,
    ex: &Explanation,
    calls: &SightCalls,
    behind: Option<&UnitVerdict>,
) -> Caption {
    let section = sight_section(table.rules);
    let full = v.full_base.is_some();
    let mut verdict = sight_verdict_words(v.visible, full).to_string();
    if !(ex.blocked_by.is_empty() || v.visible && full) {
        let mut causes: Vec<String> = ex.blocked_by.iter().map(|c| cut_cause(table, c)).collect();
        causes.dedup();
        verdict.push_str(&format!(": cut by {}", causes.join(", ")));
    }
    let mut lines = vec![
        CaptionLine::new(
            Topic::Sight,
            "Visible?",
            format!(
                "{}: {:.2} mm from flipping (every base moved against the verdict){}",
                if v.visible { "yes" } else { "no" },
                calls.visible.margin_mm,
                close_words(table, &calls.visible)
            ),
            Some(section),
        )
        .close(!calls.visible.certain()),
        CaptionLine::new(
            Topic::Sight,
            "A full base seen?",
            format!(
                "{}: {:.2} mm from flipping{}",
                match v.full_base {
                    Some((s, t)) =>
                        format!("yes, {} sees all of {}", table.base_label(s), table.base_label(t)),
                    None => "no".to_string(),
                },
                calls.full_base.margin_mm,
                close_words(table, &calls.full_base)
            ),
            Some(section),
        )
        .close(!calls.full_base.certain()),
    ];
    for c in &ex.blocked_by {
        lines.push(CaptionLine::new(
            Topic::Sight,
            "Cut by?",
            format!("{} at ({:.1}, {:.1})", cut_words(table, c), c.at.x, c.at.y),
            Some(section),
        ));
    }
    if let Some(d) = behind {
        lines.push(CaptionLine::new(
            Topic::Sight,
            "Declared behind the crest?",
            sight_verdict_words(d.visible, d.full_base.is_some()).to_string(),
            Some("004 §15.1"),
        ));
    }
    Caption::new(pair_words(a, b), &[verdict], lines)
}

/// The sight verdict and its explanation between two selections, with its close calls
/// and, under Pro Patria, the verdict if the target is declared behind a crest: what
/// [`sight_caption`] and `vedette los` say.
pub fn decide_sight(
    table: &Table,
    index: &SpatialIndex,
    a: Selection,
    b: Selection,
) -> Result<(UnitVerdict, Explanation, SightCalls, Option<UnitVerdict>), DrawError> {
    let los = TerrainSight::try_new(index)?;
    let (v, ex) = los.explain(a, b)?;
    let calls = sight_calls(table, a, b)?;
    let behind = los.if_declared_behind(a, b)?;
    Ok((v, ex, calls, behind))
}

/// What the phone's verdict card shows for units (or bases) `a` then `b`, named as the
/// table names them (`fr-art-1`, `au-3#2`), in one call: the closest distance and the
/// rule distances around it, the line of sight, and, when `a` is a battery (under a rule
/// set with Republique artillery) and `b` an enemy, the battery's answers; when an
/// assault of one on the other is in range, the assault's answers. The headline gives
/// the distance, the sight verdict and the battery's or assault's verdict.
///
/// ```
/// # use vedette_geometry::Table;
/// let table = Table::from_json_str(r#"{"schema":"vedette/table/1","rules":"republique5","scale":"medium",
///   "size":{"width":600,"depth":400},"units":[
///   {"id":"fr-1","side":"france","kind":"infantry","bases":[{"x":100,"y":100,"heading":90,"width":40,"depth":20}]},
///   {"id":"au-1","side":"austria","kind":"infantry","bases":[{"x":100,"y":170.8,"heading":270,"width":40,"depth":20}]}]}"#)?;
/// let card = vedette_draw::pair_verdict(&table, "fr-1", "au-1")?;
/// // Front edges at y 110 and 160.8: 50.8 mm, 2" at medium scale, inside the 3" general
/// // assault zone and outside the 1½" all-out one (000 §5.1); one base each side.
/// assert_eq!(
///     card.headline,
///     "fr-1 → au-1: 50.8 mm = 2.00 in = 2.00 rule-in · VISIBLE, a full base is seen \
///      · IN ASSAULT RANGE (general) · front · 1:1 bases · 2.00 rule-in (50.8 mm)"
/// );
/// let json = serde_json::to_string(&card)?;
/// assert!(json.contains(r#""topic":"sight""#));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn pair_verdict(table: &Table, a: &str, b: &str) -> Result<Caption, DrawError> {
    let (sa, sb) = (table.select(a)?, table.select(b)?);
    let (ua, ub) = (unit_of(sa), unit_of(sb));
    if sa == sb {
        return Err(DrawError::SamePair { a: a.to_string(), b: b.to_string() });
    }
    let book = table.rule_book()?;
    let index = SpatialIndex::new(table);
    let m = measure_between(table, &book, sa, sb)
        .ok_or_else(|| DrawError::SamePair { a: a.to_string(), b: b.to_string() })?;
    let distance = measure_caption(table, &book, a, b, &m);
    let (v, ex, calls, behind) = decide_sight(table, &index, sa, sb)?;
    let sight = sight_caption(table, (a, b), &v, &ex, &calls, behind.as_ref());
    let mut parts =
        vec![distance.verdict.clone(), sight_verdict_words(v.visible, v.full_base.is_some()).to_string()];
    let mut lines = distance.lines;
    lines.extend(sight.lines);
    let enemies = ua != ub && table.units[ua].side != table.units[ub].side;
    if enemies
        && table.units[ua].kind == UnitKind::Artillery
        && let Ok(rules) = ArtilleryRules::for_table(table)
    {
        let e = battery_explanation(table, &index, &book, &rules, sa, ub)?;
        parts.push(e.caption.verdict.clone());
        lines.extend(e.caption.lines);
    } else if enemies {
        let found = vedette_geometry::assault::assessment::assess_assaults(table, &index, &book)?;
        let pair = |x: usize, y: usize| found.findings.iter().find(|f| f.attacker == x && f.defender == y);
        if let Some((f, x, y)) =
            pair(ua, ub).map(|f| (f, ua, ub)).or_else(|| pair(ub, ua).map(|f| (f, ub, ua)))
        {
            let e = explain_assault(table, &book, x, y, Some(f))?;
            parts.push(if x == ua {
                e.caption.verdict.clone()
            } else {
                format!("{} assaults it: {}", table.units[x].id, e.caption.verdict)
            });
            lines.extend(e.caption.lines);
        }
    }
    Ok(Caption::new(pair_words(a, b), &parts, lines))
}

/// The unit of a selection.
#[must_use]
pub fn unit_of(s: Selection) -> usize {
    match s {
        Selection::Unit(u) => u,
        Selection::Base(r) => r.unit,
    }
}

/// One row of a caption band: its text, font size and look (output units).
#[derive(Debug, Clone, PartialEq)]
pub struct BandRow {
    /// The text.
    pub text: String,
    /// Font size.
    pub size: f64,
    /// Baseline, from the band's top.
    pub baseline: f64,
    /// Bold (the headline).
    pub bold: bool,
    /// Drawn in the close-call colour.
    pub close_call: bool,
}

/// A caption laid out as a band across the top of a picture ([`band_layout`]).
#[derive(Debug, Clone, PartialEq)]
pub struct BandLayout {
    /// The rows, top to bottom.
    pub rows: Vec<BandRow>,
    /// The band's height.
    pub height: f64,
    /// The left margin of every row.
    pub left: f64,
}

/// The caption band's headline size: the picture's width over this (a 600 mm picture gets
/// 15 mm type, about a 50-character line).
pub const HEADLINE_PER_WIDTH: f64 = 40.0;
/// The caption band's line size over the headline's.
pub const LINE_PER_HEADLINE: f64 = 0.6;
/// Average advance of a bold character, in ems (the labels' estimate is for regular).
pub const BOLD_CHAR_EM: f64 = 0.62;

/// Splits `text` into rows no wider than `width` at font size `size` (`em`: the
/// character advance), breaking at ` · ` between the verdict's parts where it can (a
/// part such as `5.51 rule-in (bracket 3)` stays on one row; a row ends with ` ·` when
/// the next part goes below), else at spaces; a word longer than a row stands alone.
fn wrap(text: &str, width: f64, size: f64, em: f64) -> Vec<String> {
    wrap_at(text, " · ", " ·", width, size, em)
}

/// [`wrap`] at separator `sep`, a row broken there ending with `mark`; a part wider than
/// a row wrapped at spaces.
fn wrap_at(text: &str, sep: &str, mark: &str, width: f64, size: f64, em: f64) -> Vec<String> {
    let fits = |s: &str| (s.chars().count() + mark.chars().count()) as f64 * em * size <= width;
    let mut rows: Vec<String> = Vec::new();
    let mut row = String::new();
    for part in text.split(sep) {
        let candidate = if row.is_empty() { part.to_string() } else { format!("{row}{sep}{part}") };
        if fits(&candidate) {
            row = candidate;
            continue;
        }
        if !row.is_empty() {
            rows.push(format!("{row}{mark}"));
        }
        if fits(part) || sep == " " {
            row = part.to_string();
        } else {
            let mut pieces = wrap_at(part, " ", "", width, size, em);
            row = pieces.pop().unwrap_or_default();
            rows.extend(pieces);
        }
    }
    if !row.is_empty() {
        rows.push(row);
    }
    rows
}

/// Lays out `caption` as a band `width` wide (output units): the headline in large bold
/// type ([`HEADLINE_PER_WIDTH`]), then every line, smaller ([`LINE_PER_HEADLINE`]), close
/// calls marked; each wrapped to the width. `min_line`: the smallest line size (a photo's
/// pixels: text stays readable on a narrow crop).
#[must_use]
pub fn band_layout(caption: &Caption, width: f64, min_line: f64) -> BandLayout {
    let line = (width / HEADLINE_PER_WIDTH * LINE_PER_HEADLINE).max(min_line);
    let head = line / LINE_PER_HEADLINE;
    let pad = 0.8 * line;
    let room = (width - 2.0 * pad).max(line);
    let mut rows = Vec::new();
    let mut y = pad;
    for text in wrap(&caption.headline, room, head, BOLD_CHAR_EM) {
        y += 1.05 * head;
        rows.push(BandRow { text, size: head, baseline: y, bold: true, close_call: false });
        y += 0.2 * head;
    }
    y += 0.3 * line;
    for l in &caption.lines {
        let text = if l.close_call { format!("{CLOSE_CALL} · {}", l.text()) } else { l.text() };
        for (i, t) in wrap_at(&text, " ", "", room, line, crate::labels::CHAR_EM).into_iter().enumerate() {
            y += 1.25 * line;
            let t = if i == 0 { t } else { format!("    {t}") };
            rows.push(BandRow { text: t, size: line, baseline: y, bold: false, close_call: l.close_call });
        }
    }
    BandLayout { rows, height: y + pad, left: pad }
}

impl BandLayout {
    /// The widest row's estimated width, output units (for tests: no row overflows).
    #[must_use]
    pub fn widest(&self) -> f64 {
        self.rows
            .iter()
            .map(|r| {
                if r.bold {
                    r.text.chars().count() as f64 * BOLD_CHAR_EM * r.size
                } else {
                    text_width(&r.text, r.size)
                }
            })
            .fold(0.0, f64::max)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn caption() -> Caption {
        Caption::new(
            "a → b".into(),
            &["ONE".into(), "two".into()],
            vec![
                CaptionLine::new(Topic::Distance, "Far?", "1 mm".into(), Some("000 §1")),
                CaptionLine::new(Topic::Sight, "Seen?", "yes".into(), None).close(true),
            ],
        )
    }

    #[test]
    fn the_headline_joins_the_verdict_and_marks_a_close_call() {
        let c = caption();
        assert_eq!(c.verdict, "ONE · two");
        assert_eq!(c.headline, "a → b: ONE · two · CLOSE CALL");
        assert_eq!(
            c.render_text(),
            "a → b: ONE · two · CLOSE CALL\n  Far? 1 mm (000 §1)\n  Seen? yes [CLOSE CALL]\n"
        );
        let json = serde_json::to_value(&c).unwrap();
        assert_eq!(json["lines"][1]["topic"], "sight");
        assert_eq!(json["lines"][1]["close_call"], true);
        assert_eq!(json["lines"][1]["section"], serde_json::Value::Null);
    }

    #[test]
    fn a_band_wraps_every_row_inside_its_width() {
        let mut c = caption();
        c.headline = "word ".repeat(60);
        for width in [200.0, 600.0, 1500.0] {
            let band = band_layout(&c, width, 0.0);
            assert!(band.rows.len() >= 3, "{band:?}");
            assert!(band.left + band.widest() <= width - band.left + 1e-9, "{width}: {band:?}");
            let last = band.rows.last().unwrap();
            assert!(last.baseline < band.height);
            assert!(band.rows.windows(2).all(|w| w[0].baseline < w[1].baseline));
        }
    }

    #[test]
    fn tape_words_give_mm_inches_and_rule_inches() {
        let book = RuleBook::try_new(RuleSet::Republique5, vedette_geometry::Scale::Large).unwrap();
        assert_eq!(tape_words(&book, 38.1, None), "38.1 mm = 1.50 in = 1.00 rule-in");
        assert_eq!(
            tape_words(&book, 38.1, Some(0.7)),
            "38.1 ± 0.7 mm = 1.50 ± 0.03 in = 1.00 ± 0.02 rule-in"
        );
        assert_eq!(tape_words(&book, 38.1, Some(0.01)), "38.10 ± 0.01 mm = 1.50 in = 1.00 rule-in");
        let pp = RuleBook::try_new(RuleSet::ProPatria, vedette_geometry::Scale::Figures28mm).unwrap();
        assert_eq!(tape_words(&pp, 38.1, None), "38.1 mm = 1.50 in");
    }
}
