//! Every question the rules ask about one pair, answered in words with the rule section
//! and the numbers, and a picture of why: a battery and a target (000 §4.2-4.5), or an
//! attacker and a defender (000 §5.1-5.4, 001 §4.1-4.3, 004 §17.4). The answers are
//! read from the library's verdicts ([`BatteryAssessment`], [`AssaultFinding`],
//! [`TargetCover`]); nothing is decided here. They are the lines of the pair's
//! [`Caption`], whose headline the picture starts with.

use crate::caption::{Caption, CaptionLine, Topic, close_words, pair_words, unit_of};
use crate::error::DrawError;
use crate::findings::artillery::{
    BatteryDetail, battery_label, cover_words, draw_battery, enfilade_words, flank_name, not_main_words,
};
use crate::findings::assault::{aspect_words, draw_assault, exception_words, range_name};
use crate::findings::sight::highlight;
use crate::findings::{Words, distance_words, inches_sigma_words, inches_words};
use crate::plan::table_scene;
use crate::scene::{LayerId, Scene};
use vedette_geometry::artillery::calls::{arc_call, range_call, unlimber_call};
use vedette_geometry::artillery::{TargetCover, target_cover};
use vedette_geometry::assault::assessment::{AssaultFinding, ContactRange, assess_assaults};
use vedette_geometry::close_call::{distance_sigma_mm, segment_to_base};
use vedette_geometry::los::TerrainSight;
use vedette_geometry::{
    ArtilleryRules, BaseRef, BatteryAssessment, Battlefield, DeepReason, EnfiladeVerdict, GeometryError,
    RuleBook, RuleSet, Selection, SpatialIndex, StandingExposure, Table, TerrainOutlines, UnitBox, UnitKind,
    Vec2, assess_battery, enfilade_zone, nearest_flanks,
};

/// The answers about a pair, and the picture of why.
#[derive(Debug, Clone)]
pub struct PairExplanation {
    /// What pair, under which rules.
    pub title: String,
    /// The answer in short and the questions answered, in the order the rules ask (the
    /// caption the picture starts with).
    pub caption: Caption,
    /// The picture.
    pub scene: Scene,
}

impl PairExplanation {
    /// The answers as text: the title, the verdict, then one question a line.
    #[must_use]
    pub fn render_text(&self) -> String {
        let mut s = format!("{}\n  Verdict: {}\n", self.title, self.caption.verdict);
        for a in &self.caption.lines {
            s.push_str(&format!("  {}\n", a.text()));
        }
        s
    }
}

fn yes(b: bool) -> &'static str {
    if b { "yes" } else { "no" }
}

/// Grows the scene's focus to hold `points`.
fn grow_focus(scene: &mut Scene, points: impl IntoIterator<Item = Vec2>) {
    for p in points {
        scene.focus = Some(match scene.focus {
            Some((lo, hi)) => {
                (Vec2::new(lo.x.min(p.x), lo.y.min(p.y)), Vec2::new(hi.x.max(p.x), hi.y.max(p.y)))
            }
            None => (p, p),
        });
    }
}

/// What a battery's rules find about one unit (`target`, a unit index); `cover`: the
/// main target's cover (000 §4.3), when `target` is the main target.
#[must_use]
pub fn explain_battery(
    table: &Table,
    index: &SpatialIndex,
    rules: &ArtilleryRules,
    a: &BatteryAssessment,
    target: usize,
    cover: Option<&TargetCover>,
) -> PairExplanation {
    let w = Words::new(table);
    let b = &a.battery;
    let label = battery_label(table, b.base_ref);
    let tid = table.units.get(target).map_or("?".to_string(), |u| u.id.clone());
    let inches = |mm: f64| inches_words(rules.rule_inches(mm), mm);
    let line = |question: &str, answer: String, section: &str| {
        CaptionLine::new(Topic::Artillery, question, answer, Some(section))
    };
    let title = format!("{label} -> {tid} ({} at {} scale): artillery", table.rules, table.scale);
    let mut answers = Vec::new();
    // The verdict in short, in the order a player asks: may it fire, is it a target, the
    // main one, deep, enfilade, covered, how far.
    let mut verdict: Vec<String> = Vec::new();
    if b.limbered {
        verdict.push("LIMBERED: it may not fire".to_string());
    }
    answers.push(line(
        "Battery?",
        format!(
            "{} {} frontage, {}; maximum range {}{}",
            w.frontage(b.frontage.mode),
            b.weight.name(),
            inches(b.frontage.edge.length()),
            inches(b.max_range_mm),
            if b.limbered { "; LIMBERED: it may not fire" } else { "" }
        ),
        "000 §1.4, §4.2",
    ));
    let t = a.targets.iter().find(|t| t.unit == target);
    match t {
        None => {
            verdict.push("NOT A TARGET: not in the arc of fire within range".to_string());
            answers.push(line(
                "In the arc of fire?",
                format!(
                    "no: no part of {tid}'s bases lies inside the 60° arc within maximum range, so it is not a candidate target"
                ),
                "000 §4.2, §4.5",
            ))
        }
        Some(t) => {
            let arc = arc_call(table, b, t);
            let arc_margin = arc.as_ref().map_or(String::new(), |c| {
                format!(
                    "; the deciding base's centre is {} from the arc side{}",
                    w.margin(c.margin_mm),
                    close_words(table, c)
                )
            });
            let arc_close = arc.as_ref().is_some_and(|c| !c.certain());
            answers.push(
                line(
                    "In the arc of fire?",
                    format!(
                        "{}: at best {:.0}% of one base inside the arc, half or more is needed{arc_margin}",
                        yes(t.half_base_in_arc),
                        t.arc_fraction * 100.0
                    ),
                    "000 §4.2, §4.5",
                )
                .close(arc_close),
            );
            let range = range_call(table, b, rules.bracket_mm, t);
            let range_margin = range.as_ref().map_or(String::new(), |(limit, c)| {
                format!(
                    "; {} from the {} limit{}",
                    w.margin(c.margin_mm),
                    inches(*limit),
                    close_words(table, c)
                )
            });
            let range_close = range.as_ref().is_some_and(|(_, c)| !c.certain());
            answers.push(
                line(
                    "Range?",
                    format!(
                        "{} from the frontage to {}: bracket {} ({}-{}\"){range_margin}",
                        inches(t.range_mm),
                        table.base_label(t.nearest_base),
                        t.bracket,
                        2 * t.bracket.saturating_sub(1),
                        2 * t.bracket
                    ),
                    "000 §4.3",
                )
                .close(range_close),
            );
            answers.push(line(
                "Sees a full base?",
                match t.seen_base {
                    Some(r) => {
                        format!("yes: every point of {} is seen from the frontage", table.base_label(r))
                    }
                    None => "no: no base of it is seen in full from the frontage".to_string(),
                },
                "000 §4.5",
            ));
            answers.push(line(
                "Firing zone clear?",
                match t.aim_swing_deg {
                    Some(s) if t.zone_clear => {
                        format!("yes: aimed at it, the 10° zone swings {s:+.1}° and holds no friend")
                    }
                    _ if t.zone_clear => "yes".to_string(),
                    _ => format!(
                        "no: every swing that reaches it holds a friendly base or marker{}",
                        if a.zone_blockers.is_empty() {
                            String::new()
                        } else {
                            format!(" ({} blocking)", a.zone_blockers.len())
                        }
                    ),
                },
                "000 §4.2",
            ));
            answers.push(
                line(
                    "Valid target?",
                    format!(
                        "{}: half a base in arc, in range, a full base seen and a clear zone are all needed",
                        yes(t.is_valid())
                    ),
                    "000 §4.5",
                )
                .close(arc_close || range_close),
            );
            let main = a.main.as_ref();
            answers.push(line(
                "Main target?",
                match main {
                    Some(m) if m.unit == target => {
                        "yes: the closest combat bases in the closest bracket, then nearest the centreline"
                            .to_string()
                    }
                    Some(m) => {
                        let kind = if m.secondary.tandem.contains(&target) {
                            "; it is a tandem target"
                        } else if m.secondary.adjacent.contains(&target) {
                            "; it is an adjacent target"
                        } else {
                            ""
                        };
                        format!("no: the main target is {}{kind}", table.units[m.unit].id)
                    }
                    None => "no: the battery has no valid target".to_string(),
                },
                "000 §4.5",
            ));
            let is_main = main.is_some_and(|m| m.unit == target);
            if !t.is_valid() {
                verdict.push(format!("NOT A VALID TARGET: {}", not_main_words(t)));
            } else if let Some(m) = main.filter(|_| !is_main) {
                let kind = if m.secondary.tandem.contains(&target) {
                    "TANDEM TARGET"
                } else if m.secondary.adjacent.contains(&target) {
                    "ADJACENT TARGET"
                } else {
                    "VALID, NOT THE MAIN TARGET"
                };
                verdict.push(format!("{kind} (main: {})", table.units[m.unit].id));
            } else {
                verdict.push("VALID MAIN TARGET".to_string());
            }
            answers.push(line(
                "Enfilade?",
                match t.enfilade {
                    EnfiladeVerdict::Flank(f) => format!(
                        "yes: the battery's whole frontage lies in the enfilade arc of its {} flank",
                        flank_name(f)
                    ),
                    EnfiladeVerdict::Standing(StandingExposure::Square) => "yes: it is in square".to_string(),
                    EnfiladeVerdict::Standing(StandingExposure::BreakthroughColumn) => {
                        "yes: a breakthrough column (003 §103)".to_string()
                    }
                    EnfiladeVerdict::No => {
                        let out = table
                            .units
                            .get(target)
                            .and_then(|u| UnitBox::of(&u.bases))
                            .map(|frame| {
                                nearest_flanks(&frame, &b.frontage.edge)
                                    .into_iter()
                                    .map(|f| {
                                        let z = enfilade_zone(&frame, f, rules.arc_side_deg);
                                        let n = [b.frontage.edge.a, b.frontage.edge.b]
                                            .iter()
                                            .filter(|&&p| !z.contains(p))
                                            .count();
                                        format!(
                                            "{n} of 2 frontage corners outside the {} flank's arc",
                                            flank_name(f)
                                        )
                                    })
                                    .collect::<Vec<_>>()
                                    .join(", ")
                            })
                            .unwrap_or_default();
                        format!("no: {out}")
                    }
                },
                "000 §4.4",
            ));
            if let Some(m) = main.filter(|m| m.unit == target) {
                let reasons: Vec<&str> = m
                    .deep
                    .reasons
                    .iter()
                    .map(|r| match r {
                        DeepReason::Bases => "three or more bases on the centre of fire",
                        DeepReason::Standing(StandingExposure::Square) => "in square",
                        DeepReason::Standing(StandingExposure::BreakthroughColumn) => "breakthrough column",
                    })
                    .collect();
                answers.push(line(
                    "Deep?",
                    format!(
                        "{}: {} counted base(s) within the window{}{}{}",
                        yes(m.deep.is_deep()),
                        m.deep.window_bases.len(),
                        m.deep.window.map_or(String::new(), |s| format!(" of {}", inches(s.length()))),
                        if m.deep.point_blank { ", cut short at point blank" } else { "" },
                        if reasons.is_empty() { String::new() } else { format!(" ({})", reasons.join(", ")) }
                    ),
                    "000 §4.3 A",
                ));
                verdict.push(if m.deep.is_deep() { "DEEP" } else { "not deep" }.to_string());
                verdict.push(enfilade_words(m.enfilade).unwrap_or_else(|| "no enfilade".to_string()));
                answers.push(line(
                    "In cover?",
                    match cover {
                        Some(c) if c.fires_at_uncovered => {
                            "no modifier: the centre of fire is nearest an uncovered base".to_string()
                        }
                        Some(c) => match c.class {
                            Some(k) => format!(
                                "yes, {}: {} of {} visible bases covered, {} column(s) right",
                                k.name(),
                                c.base_classes.iter().filter(|x| x.is_some()).count(),
                                c.visible_bases.len(),
                                c.columns_right()
                            ),
                            None => format!(
                                "no: {} visible base(s), fewer than half covered",
                                c.visible_bases.len()
                            ),
                        },
                        None => "not judged".to_string(),
                    },
                    "000 §4.3",
                ));
                if let Some(words) =
                    cover.and_then(cover_words).filter(|_| cover.is_some_and(|c| !c.fires_at_uncovered))
                {
                    verdict.push(words);
                }
            }
            // The range in short, with its uncertainty on a scanned table.
            let sigma = table.base(t.nearest_base).and_then(|base| {
                distance_sigma_mm(table, b.base_ref, t.nearest_base, &segment_to_base(&b.frontage.edge, base))
            });
            verdict.push(format!(
                "{} (bracket {})",
                inches_sigma_words(rules.rule_inches(1.0), t.range_mm, sigma)
                    .split(" (")
                    .next()
                    .unwrap_or_default(),
                t.bracket
            ));
        }
    }
    let unlimber = unlimber_call(table, index, b.base_ref, &a.unlimber);
    let unlimber_close = unlimber.as_ref().is_some_and(|(_, c)| !c.certain());
    answers.push(
        line(
            "Unlimber limit?",
            match (a.unlimber.too_close(), a.unlimber.nearest_enemy) {
                (Some(true), Some((r, d))) => format!("TOO CLOSE: {} at {}", table.base_label(r), inches(d)),
                (Some(_), _) => {
                    format!(
                        "ok: no enemy combat base within {}",
                        a.unlimber.limit_mm.map_or("-".into(), inches)
                    )
                }
                (None, _) => "the side has no maneuver system in the table".to_string(),
            } + &unlimber.as_ref().map_or(String::new(), |(_, c)| close_words(table, c)),
            "000 §3.6",
        )
        .close(unlimber_close),
    );
    if a.unlimber.too_close() == Some(true) {
        verdict.push("TOO CLOSE to unlimber".to_string());
    }
    let caption = Caption::new(pair_words(&label, &tid), &verdict, answers);
    let mut scene = table_scene(table, &title);
    draw_battery(&mut scene, table, index, rules, a, BatteryDetail::Target(target), cover);
    highlight(&mut scene, table, Selection::Base(b.base_ref), LayerId::Targets, "battery");
    scene.focus_on(&[LayerId::Targets]);
    grow_focus(&mut scene, b.base.vertices_ccw());
    if let Some(u) = table.units.get(target) {
        grow_focus(&mut scene, u.bases.iter().flat_map(|x| x.vertices_ccw()));
    }
    scene.caption = Some(caption.clone());
    PairExplanation { title, caption, scene }
}

/// The battery `a` (an artillery unit, whose bases are each a battery when it is massed,
/// or one base of it) explained against unit `target`: for a massed battery named as a
/// unit, the first of its bases with the target in its arc. The table's rule set must
/// have Republique artillery rules (`rules`).
pub fn battery_explanation(
    table: &Table,
    index: &SpatialIndex,
    book: &RuleBook,
    rules: &ArtilleryRules,
    a: Selection,
    target: usize,
) -> Result<PairExplanation, DrawError> {
    let sight = TerrainSight::try_new(index)?;
    let field = Battlefield { table, index, rules, line_of_sight: &sight, ground: &TerrainOutlines };
    let candidates: Vec<BaseRef> = match a {
        Selection::Base(r) => vec![r],
        Selection::Unit(u) => {
            (0..table.units.get(u).map_or(0, |x| x.bases.len())).map(|i| BaseRef::new(u, i)).collect()
        }
    };
    let mut chosen = None;
    for r in candidates {
        let found = assess_battery(&field, r)?;
        let holds = found.targets.iter().any(|t| t.unit == target);
        if chosen.is_none() || holds {
            chosen = Some(found);
        }
        if holds {
            break;
        }
    }
    let found = chosen.ok_or_else(|| DrawError::NoBases {
        unit: table.units.get(unit_of(a)).map_or(String::new(), |u| u.id.clone()),
    })?;
    let cover = match &found.main {
        Some(m) if m.unit == target => Some(target_cover(table, book, &sight, found.battery.base_ref, m)?),
        _ => None,
    };
    Ok(explain_battery(table, index, rules, &found, target, cover.as_ref()))
}

/// Every question the rules ask about `a` then `b` (named as the table names them: a
/// unit id, or `unit#index`): a battery and a target when `a` is artillery under a rule
/// set with Republique artillery (000 §4.2-4.5), otherwise an attacker and a defender
/// (000 §5.1-5.4, 001 §4.1-4.3, 004 §17.4). What `vedette explain` prints and draws.
pub fn explain_pair(table: &Table, a: &str, b: &str) -> Result<PairExplanation, DrawError> {
    let sa = table.select(a)?;
    let (ua, ub) = (unit_of(sa), unit_of(table.select(b)?));
    if ua == ub {
        return Err(DrawError::SamePair { a: a.to_string(), b: b.to_string() });
    }
    let index = SpatialIndex::new(table);
    let book = table.rule_book()?;
    if table.units[ua].kind == UnitKind::Artillery
        && let Ok(rules) = ArtilleryRules::for_table(table)
    {
        return battery_explanation(table, &index, &book, &rules, sa, ub);
    }
    if let Some(why) = vedette_geometry::assault::contact::assault_pair_refusal(table, ua, ub) {
        return Err(DrawError::NoAssault(why));
    }
    let found = assess_assaults(table, &index, &book)?;
    let finding = found.findings.iter().find(|f| f.attacker == ua && f.defender == ub);
    Ok(explain_assault(table, &book, ua, ub, finding)?)
}

/// The sections that ask each assault question, for a rule set: (range, aspect,
/// cover, bases).
fn assault_sections(rules: RuleSet) -> (&'static str, &'static str, &'static str, &'static str) {
    match rules {
        RuleSet::RepubliqueClassic => ("001 §4.1", "001 §4.3", "001 §4.4", "001 §4.1"),
        RuleSet::ProPatria => ("004 §17.4.2", "004 §17.4", "004 §15.11", "004 §17.4"),
        RuleSet::Republic => ("000 §5.1, 003 501", "000 §5.1", "000 §5.4", "000 §5.2, 003 102 C"),
        RuleSet::Republique5 => ("000 §5.1", "000 §5.1", "000 §5.4", "000 §5.2"),
    }
}

/// What the assault rules find about `attacker` against `defender` (unit indices);
/// `finding`: the assessment's entry for the pair, `None` when they are not in contact.
pub fn explain_assault(
    table: &Table,
    book: &RuleBook,
    attacker: usize,
    defender: usize,
    finding: Option<&AssaultFinding>,
) -> Result<PairExplanation, GeometryError> {
    let answer = |question: &str, answer: String, section: &str| {
        CaptionLine::new(Topic::Assault, question, answer, Some(section))
    };
    let mut verdict: Vec<String> = Vec::new();
    let (aid, did) = (
        table.units.get(attacker).map_or("?".to_string(), |u| u.id.clone()),
        table.units.get(defender).map_or("?".to_string(), |u| u.id.clone()),
    );
    let title = format!("{aid} -> {did} ({} at {} scale): assault", table.rules, table.scale);
    let (s_range, s_aspect, s_cover, s_bases) = assault_sections(book.rules());
    let mut answers = Vec::new();
    let mut scene = table_scene(table, &title);
    match finding {
        None => {
            let d = vedette_geometry::unit_distance_mm(table, attacker, defender);
            verdict.push("NOT IN ASSAULT RANGE".to_string());
            answers.push(answer(
                "In assault range?",
                format!(
                    "no: no front base of {aid} meets {did} in its zones{}",
                    d.map_or(String::new(), |d| format!(" (closest {})", distance_words(book, d)))
                ),
                s_range,
            ));
        }
        Some(f) => {
            let face: Vec<String> =
                f.contact_face.iter().map(|&i| table.base_label(BaseRef::new(attacker, i))).collect();
            let range_call = f.range_call(table, book);
            let call = range_call.as_ref().map_or(String::new(), |(limit, c)| {
                format!(
                    "; {:.2} mm from the {} limit{}",
                    c.margin_mm,
                    distance_words(book, *limit),
                    close_words(table, c)
                )
            });
            let close = range_call.as_ref().is_some_and(|(_, c)| !c.certain());
            verdict.push(match f.range {
                ContactRange::Contact => "IN CONTACT".to_string(),
                r => format!("IN ASSAULT RANGE ({})", range_name(r)),
            });
            verdict.push(match f.aspect.map(|a| a.aspect) {
                Some(vedette_geometry::Aspect::Front) | None => "front".to_string(),
                Some(_) => {
                    let words = aspect_words(f);
                    match words.split_once(' ') {
                        Some((head, rest)) => format!("{} {rest}", head.to_uppercase()),
                        None => words.to_uppercase(),
                    }
                }
            });
            verdict.push(format!("{}:{} bases", f.attacker_bases, f.defender_bases));
            if f.range != ContactRange::Contact {
                verdict.push(distance_words(book, f.distance_mm));
            }
            answers.push(
                answer(
                    "In assault range?",
                    match f.range {
                        ContactRange::Contact => format!(
                            "yes, in contact: {:.1} mm of edge against edge ({})",
                            f.contact_frontage_mm.unwrap_or(0.0),
                            face.join(", ")
                        ),
                        _ => format!(
                            "yes, {}: {} ahead of the contact face ({}){call}",
                            range_name(f.range),
                            distance_words(book, f.distance_mm),
                            face.join(", ")
                        ),
                    },
                    s_range,
                )
                .close(close),
            );
            if let Some(role) = f.role {
                answers.push(answer(
                    "Primary defender?",
                    format!(
                        "{:?}{}",
                        role,
                        f.contact_frontage_mm
                            .map_or(String::new(), |mm| format!(", contact frontage {mm:.1} mm"))
                    )
                    .to_lowercase(),
                    "000 §5.1",
                ));
            }
            answers.push(answer(
                "Front, flank or rear?",
                match f.aspect {
                    Some(a) => format!(
                        "{}{}",
                        aspect_words(f),
                        match a.exception {
                            Some(e) => format!(
                                " ({} by the geometry, but {})",
                                format!("{:?}", a.geometric).to_lowercase(),
                                exception_words(e)
                            ),
                            None => String::new(),
                        }
                    ),
                    None => "front".to_string(),
                },
                s_aspect,
            ));
            answers.push(answer(
                "Bases each side?",
                format!(
                    "{} attacking, {} defending{}",
                    f.attacker_bases,
                    f.defender_bases,
                    if f.mixed { "; a mixed assault (all-out and general)" } else { "" }
                ),
                s_bases,
            ));
            let cover = |c: Option<vedette_geometry::CoverVerdict>| match c {
                Some(c) => format!(
                    "{} cover ({} point(s); by {})",
                    c.class.name(),
                    c.class.assault_points(),
                    if c.by_unit { "the unit" } else { "the contact face" }
                ),
                None => "none".to_string(),
            };
            if matches!(book.rules(), RuleSet::Republique5 | RuleSet::Republic) {
                answers.push(answer(
                    "In cover?",
                    format!("defender {}; attacker {}", cover(f.defender_cover), cover(f.attacker_cover)),
                    s_cover,
                ));
            }
            draw_assault(&mut scene, table, book, f, true)?;
        }
    }
    if finding.is_none() {
        crate::findings::assault::flank_lines(&mut scene, table, book, defender)?;
    }
    highlight(&mut scene, table, Selection::Unit(attacker), LayerId::Contacts, "attacker");
    highlight(&mut scene, table, Selection::Unit(defender), LayerId::Contacts, "defender");
    scene.focus_on(&[LayerId::Contacts, LayerId::Zones]);
    let caption = Caption::new(pair_words(&aid, &did), &verdict, answers);
    scene.caption = Some(caption.clone());
    Ok(PairExplanation { title, caption, scene })
}
