//! A move drawn and said (000 §3.1-3.7, 003 303 and 305, 004 §17.4): where the unit
//! stood, the path of its front corner that the move is measured on, split into the
//! parts the ground charges (open, rough, double rough, a packed battery, a road), the
//! obstacles it crosses, the ground that refuses it, the batteries in a Republic cavalry
//! move's bonus path, and under Pro Patria the charge's target and the enemies
//! approached. Every sentence here is the one `vedette move` prints.

use crate::findings::distance_words;
use crate::scene::{Height, LayerId, Mark, Scene, Shape, id_part};
use vedette_geometry::movement::{
    BaseMotion, ChargeCheck, ChargePart, Crossing, DeploymentShadow, FormationChange, Ground, Measured,
    MoveAssessment, ProPatriaChange, ProPatriaMove, Refusal, RefusalReason, SystemCost,
};
use vedette_geometry::pro_patria::forced_march::ForcedMarch;
use vedette_geometry::{ManeuverSystem, Mover, RuleBook, Table, Vec2};

/// A terrain feature in words: `medium-forest "big-wood"` (or `terrain[K]`).
#[must_use]
pub fn feature_words(table: &Table, feature: usize) -> String {
    match table.terrain.get(feature) {
        Some(f) => {
            format!("{} \"{}\"", f.kind.name(), f.id.clone().unwrap_or_else(|| format!("terrain[{feature}]")))
        }
        None => format!("terrain[{feature}]"),
    }
}

/// A unit's id, or `unit[K]`.
fn unit_id(table: &Table, u: usize) -> String {
    table.units.get(u).map_or_else(|| format!("unit[{u}]"), |x| x.id.clone())
}

/// A cost factor in words: `x2`, `x½`.
#[must_use]
pub fn factor_words(f: f64) -> String {
    if (f - 0.5).abs() < 1e-12 {
        "x½".to_string()
    } else if (f - 0.25).abs() < 1e-12 {
        "x¼".to_string()
    } else if (f - f.round()).abs() < 1e-12 {
        format!("x{f:.0}")
    } else {
        format!("x{f}")
    }
}

/// A maneuver system's name.
#[must_use]
pub fn system_name(s: ManeuverSystem) -> &'static str {
    match s {
        ManeuverSystem::French => "French",
        ManeuverSystem::Prussian => "Prussian",
    }
}

/// What a part of the path is within, in words: `in medium-forest "big-wood"`,
/// `through packed battery fr-art-1`, `astride hedge "h1"`, `on road "pike" in road
/// column`; `in the open` when nothing.
#[must_use]
pub fn within_words(table: &Table, part: &ChargePart) -> String {
    if part.within.is_empty() {
        return "in the open".to_string();
    }
    let words: Vec<String> = part
        .within
        .iter()
        .map(|g| match *g {
            Ground::Terrain { feature, .. } => format!("in {}", feature_words(table, feature)),
            Ground::PackedBattery { unit } => format!("through packed battery {}", unit_id(table, unit)),
            Ground::Obstacle { feature, .. } => format!("astride {}", feature_words(table, feature)),
            Ground::Road { feature } => format!("on {} in road column", feature_words(table, feature)),
        })
        .collect();
    words.join(", ")
}

/// One part of a move's charge in words, with its rule sections:
/// `1.20-3.20 rule-in: 2.00 rule-in (50.8 mm) in medium-forest "big-wood": rough x2 (000
/// §3.5-3.6)`; under Pro Patria the deduction is the reference sheets'.
#[must_use]
pub fn part_words(
    table: &Table,
    book: &RuleBook,
    mover: Mover,
    distance_mm: f64,
    part: &ChargePart,
) -> String {
    let span = |mm: f64| match book.mm_to_rule_inches(mm) {
        Some(i) => format!("{i:.2}"),
        None => format!("{mm:.1}"),
    };
    let unit = if book.mm_to_rule_inches(1.0).is_some() { "rule-in" } else { "mm" };
    let head = format!(
        "{}-{} {unit}: {} {}",
        span(part.from * distance_mm),
        span(part.to * distance_mm),
        distance_words(book, part.length_mm),
        within_words(table, part)
    );
    let terrain = |g: &Ground| matches!(g, Ground::Terrain { .. } | Ground::PackedBattery { .. });
    let Some(f) = part.factor else {
        if !part.within.iter().any(terrain) {
            return format!("{head}: its own distance (004 §17.4)");
        }
        return format!("{head}: its deduction is on the reference sheets (004 §17.4.4)");
    };
    let road = part.within.iter().any(|g| matches!(g, Ground::Road { .. }));
    let base = if road { f * 2.0 } else { f };
    let only_batteries = !part.within.iter().any(|g| matches!(g, Ground::Terrain { .. }));
    let mut what: Vec<String> = Vec::new();
    if base > 1.0 {
        what.push(match mover {
            Mover::Wheeled => {
                format!("rough for artillery and wheeled transport {} (000 §3.5)", factor_words(base))
            }
            _ if base >= 4.0 => format!("double rough {} (000 §3.5-3.6)", factor_words(base)),
            _ if only_batteries => {
                format!("a packed battery counts as rough, {} (000 §3.6)", factor_words(base))
            }
            _ => format!("rough {} (000 §3.5-3.6)", factor_words(base)),
        });
    }
    if road {
        what.push("road movement doubled, x½ (003 303)".to_string());
    }
    let mut s = if what.is_empty() {
        format!("{head}: x1")
    } else if what.len() == 1 {
        format!("{head}: {}", what[0])
    } else {
        format!("{head}: {}: {}", what.join(", "), factor_words(f))
    };
    if let Some(b) = part.bonus_barred_by {
        s.push_str(&format!("; no assault bonus here ({}, 000 §3.6)", feature_words(table, b)));
    }
    s
}

/// An obstacle crossed, in words: `crosses hedge "h1" at 1.20 rule-in: loses 1.00 rule-in
/// (25.4 mm) (000 §3.6)`.
#[must_use]
pub fn crossing_words(table: &Table, book: &RuleBook, distance_mm: f64, c: &Crossing) -> String {
    let at = distance_words(book, c.at * distance_mm);
    let what = feature_words(table, c.feature);
    match (book.mm_to_rule_inches(1.0), c.loss_mm) {
        (None, _) => {
            format!(
                "crosses {what} at {at}: disordered; its deduction is on the reference sheets (004 §15.10, §17.4.4)"
            )
        }
        (Some(_), Some(loss)) => format!(
            "crosses {what} at {at}: loses {} once (000 §3.6-3.7){}",
            distance_words(book, loss),
            if c.bars_bonus { "; no assault bonus across it" } else { "" }
        ),
        (Some(_), None) => format!(
            "crosses {what} at {at}: no loss (000 §3.6){}",
            if c.bars_bonus { "; no assault bonus across it" } else { "" }
        ),
    }
}

/// Ground refusing the move, in words: `NOT ALLOWED: horse may not enter heavy-forest
/// "w" (impassable, 000 §3.6)`.
#[must_use]
pub fn refusal_words(table: &Table, book: &RuleBook, mover: Mover, distance_mm: f64, r: &Refusal) -> String {
    let what = feature_words(table, r.feature);
    let at = distance_words(book, r.at * distance_mm);
    let why = match r.reason {
        RefusalReason::Impassable => format!("impassable to {}", mover.name()),
        RefusalReason::AssaultOnly => "only foot winning an assault passes it".to_string(),
        RefusalReason::HeavyWoodsOnFoot => {
            "only units on foot pass heavy woods, unless on a road".to_string()
        }
        RefusalReason::SwampInfantryOnly => "only infantry pass swamps".to_string(),
        RefusalReason::River => "no crossing but at a ford".to_string(),
    };
    format!("NOT ALLOWED: {} reaches {what} at {at}: {why} ({})", mover.name(), r.reason.section())
}

/// A formation change in words, with its cost per system.
#[must_use]
pub fn formation_change_words(book: &RuleBook, fc: &FormationChange, costs: &[SystemCost]) -> String {
    let mut s = format!("formation change {} -> {}", fc.from.name(), fc.to.name());
    let parts: Vec<String> = costs
        .iter()
        .map(|c| {
            let mut p = format!("{} {}", system_name(c.system), distance_words(book, c.formation_change_mm));
            if !c.formation_change_allowed {
                p.push_str(" NOT ALLOWED this close to the enemy (000 §3.2)");
            }
            p
        })
        .collect();
    s.push_str(&format!(": {} (000 §3.2, §3.5)", parts.join(", ")));
    if fc.in_rough {
        s.push_str("; doubled: in rough terrain all the way");
    }
    s
}

/// A battery in a Republic cavalry move's bonus path, in words (003 305).
#[must_use]
pub fn shadow_words(table: &Table, cavalry: usize, s: &DeploymentShadow) -> String {
    let (b, c) = (unit_id(table, s.battery), unit_id(table, cavalry));
    if s.fires_forward {
        format!("{b} in {c}'s bonus path fires forward in support: not limited (003 305)")
    } else {
        format!(
            "{b} in {c}'s bonus path: may unlimber there but not fire this turn if horse artillery (003 305)"
        )
    }
}

/// A Pro Patria formation change in words.
#[must_use]
pub fn pro_patria_change_words(c: &ProPatriaChange) -> String {
    match c {
        ProPatriaChange::Formation { from, to } => {
            format!("formation change {} -> {}", from.name(), to.name())
        }
        ProPatriaChange::Turn { deg } => format!("stands turned {deg:+.0}°"),
    }
}

/// What a Pro Patria move is charged, in words.
#[must_use]
pub fn pro_patria_charge_words(p: &ProPatriaMove, distance_mm: f64) -> String {
    match p.measured {
        Measured::OutsideArc => format!(
            "charged {:.1} mm: the outside arc {distance_mm:.1} mm costs double (004 §17.4.6)",
            p.charged_mm
        ),
        Measured::FrontEdge => format!("charged {:.1} mm (004 §17.4)", p.charged_mm),
        Measured::CommandStand => format!(
            "charged {:.1} mm, the command stand's move (004 §17.4); the formation change's deduction is on the reference sheets (004 §17.4.7)",
            p.charged_mm
        ),
    }
}

/// The formation change of a Pro Patria move in words, with what refuses it.
#[must_use]
pub fn pro_patria_changes_words(table: &Table, p: &ProPatriaMove) -> Option<String> {
    let c = p.change.as_ref()?;
    let mut s = format!("{} (004 §17.4.7; one a turn)", pro_patria_change_words(c));
    if let Some(w) = p.change_in_heavy_wood {
        s.push_str(&format!(": NOT ALLOWED in a heavy wood ({})", feature_words(table, w)));
    }
    Some(s)
}

/// An enemy approached too close, in words (004 §17.4).
#[must_use]
pub fn too_close_words(table: &Table, unit: usize, enemy: usize, d: f64, limit: f64) -> String {
    format!(
        "NOT ALLOWED: {} ends {d:.1} mm from {}, within {limit:.0} mm of an enemy it did not charge (004 §17.4)",
        unit_id(table, unit),
        unit_id(table, enemy)
    )
}

/// A forced march checked, in words (004 §17.4.5).
#[must_use]
pub fn forced_march_words(table: &Table, f: &ForcedMarch) -> String {
    let who = unit_id(table, f.unit);
    let near = match f.nearest {
        Some((e, d)) => format!("nearest visible formed enemy {} at {d:.1} mm", unit_id(table, e)),
        None => format!("no visible formed enemy within {:.0} mm", 2.0 * f.clearance_mm),
    };
    let verdict = if !f.in_march_column {
        "may NOT force march: not in march column".to_string()
    } else if f.allowed {
        format!("may force march: {near}, beyond {:.0} mm", f.clearance_mm)
    } else {
        format!("may NOT force march: {near}, within {:.0} mm", f.clearance_mm)
    };
    format!("{who} {verdict} (004 §17.4.5)")
}

/// A declared charge's 1st impulse, in words (004 §17.2.3).
#[must_use]
pub fn charge_words(table: &Table, before: &Table, unit: usize, c: &ChargeCheck) -> String {
    let who = unit_id(table, unit);
    let target = unit_id(before, c.target);
    let mut s = format!(
        "charge on {target}: {:.1} mm away at the start; 1st impulse over {:.1} up to {:.1} mm: advanced {:.1} mm, {}",
        c.start_mm,
        c.window.over_mm,
        c.window.up_to_mm,
        c.advance_mm,
        if c.within_window { "within" } else { "OUTSIDE the window" }
    );
    if !c.eligible {
        s.push_str(&format!("; NOT ALLOWED: {who} may not charge {target} (004 §17.2.4)"));
    }
    s.push_str(&if c.caught {
        format!("; {target} is caught: the charge began within {:.0} mm (004 §17.2.3)", c.catch_reach_mm)
    } else {
        format!("; {target} is not caught (004 §17.2.3)")
    });
    s
}

/// The front corner whose path the move is measured on: the one with the longest path.
fn measured_corner(m: &MoveAssessment) -> Option<(BaseMotion, Vec2)> {
    let mut best: Option<(f64, BaseMotion, Vec2)> = None;
    for mo in &m.path.motions {
        let e = mo.start().front_edge();
        for c in [e.a, e.b] {
            let len = mo.carry(c, 1.0).distance(c);
            let len = match *mo {
                BaseMotion::Turn { pivot, turn_rad, .. } => turn_rad.abs() * c.distance(pivot),
                BaseMotion::Straight { .. } => len,
            };
            if best.as_ref().is_none_or(|b| len > b.0) {
                best = Some((len, *mo, c));
            }
        }
    }
    best.map(|(_, mo, c)| (mo, c))
}

/// The measured corner's path from fraction `a` to `b`, as points (arcs every 2°).
fn corner_path(mo: &BaseMotion, c: Vec2, a: f64, b: f64) -> Vec<Vec2> {
    let steps = match *mo {
        BaseMotion::Straight { .. } => 1,
        BaseMotion::Turn { turn_rad, .. } => {
            ((turn_rad.abs() * (b - a)).to_degrees() / 2.0).ceil().max(1.0) as usize
        }
    };
    (0..=steps).map(|k| mo.carry(c, a + (b - a) * k as f64 / steps as f64)).collect()
}

/// The style class of a part: the measurement's line at normal cost, the thick run of
/// a line in cover where the ground costs more, the road's where it costs less.
fn part_class(p: &ChargePart) -> &'static str {
    match p.factor {
        Some(f) if f < 1.0 => ROAD,
        Some(f) if f > 1.0 => ROUGH,
        None if !p.within.is_empty() => ROUGH,
        _ => OPEN,
    }
}

/// Where the unit stood: a thin dashed outline.
const START: &str = "reach";
/// The path at normal cost.
const OPEN: &str = "measure";
/// The path through ground that costs more.
const ROUGH: &str = "depth-run";
/// The path on a road.
const ROAD: &str = "t-road";

/// Draws the move `m` of a unit (indices in `before` and `after`) on `scene`, a plan of
/// the table after the move.
pub fn draw_move(scene: &mut Scene, before: &Table, after: &Table, book: &RuleBook, m: &MoveAssessment) {
    let Some(u0) = before.units.get(m.unit) else { return };
    let uid = id_part(&u0.id);
    let layer = LayerId::Measurements;
    for (i, b) in u0.bases.iter().enumerate() {
        scene.add(
            layer,
            &format!("move-start-{uid}.{i}"),
            START,
            Shape::polygon(b.vertices_ccw().to_vec()),
            Height::BaseTop,
            Some(format!("{}#{i} before the move", u0.id)),
        );
    }
    scene.legend(START, "where the unit stood", false);
    let Some((mo, corner)) = measured_corner(m) else { return };
    for (k, p) in m.ground.parts.iter().enumerate() {
        let words = part_words(before, book, m.mover, m.distance_mm, p);
        let class = part_class(p);
        let points = corner_path(&mo, corner, p.from, p.to);
        let mid = mo.carry(corner, (p.from + p.to) / 2.0);
        scene.add(
            layer,
            &format!("move-part-{uid}-{k}"),
            class,
            Shape::Polyline(points),
            Height::Table,
            Some(words.clone()),
        );
        scene.add(
            layer,
            &format!("move-part-{uid}-{k}-label"),
            "verdict",
            Shape::verdict(mid, words),
            Height::Table,
            None,
        );
    }
    scene.legend(OPEN, "the path measured, at normal cost", true);
    if m.ground.parts.iter().any(|p| part_class(p) == ROUGH) {
        scene.legend(ROUGH, "the path through ground that costs more", true);
    }
    if m.ground.parts.iter().any(|p| part_class(p) == ROAD) {
        scene.legend(ROAD, "the path on the road (003 303)", true);
    }
    for (k, c) in m.ground.crossings.iter().enumerate() {
        let at = mo.carry(corner, c.at);
        let words = crossing_words(before, book, m.distance_mm, c);
        scene.add(
            layer,
            &format!("move-cross-{uid}-{k}"),
            "measure-end",
            Shape::Point { at, mark: Mark::Dot },
            Height::Table,
            Some(words.clone()),
        );
        scene.add(
            layer,
            &format!("move-cross-{uid}-{k}-label"),
            "verdict",
            Shape::verdict(at, words),
            Height::Table,
            None,
        );
    }
    for (k, r) in m.ground.refusals.iter().enumerate() {
        let words = refusal_words(before, book, m.mover, m.distance_mm, r);
        for (i, bm) in m.path.motions.iter().enumerate() {
            scene.add(
                LayerId::Targets,
                &format!("move-refused-{uid}-{k}.{i}"),
                "illegal",
                Shape::polygon(bm.at(r.at).vertices_ccw().to_vec()),
                Height::BaseTop,
                Some(words.clone()),
            );
        }
        let at = mo.carry(corner, r.at);
        scene.add(
            LayerId::Targets,
            &format!("move-refused-{uid}-{k}-label"),
            "verdict",
            Shape::verdict(at, words),
            Height::Table,
            None,
        );
    }
    if let Some((_, shadows)) = &m.shadows {
        for s in shadows {
            let words = shadow_words(after, m.unit_after, s);
            let class = if s.fires_forward { "secondary-target" } else { "illegal" };
            crate::findings::outline_and_say(
                scene,
                after,
                LayerId::Targets,
                s.battery,
                ("shadow", class),
                &words,
            );
        }
    }
    if let Some(p) = &m.pro_patria {
        for (o, d, _) in &p.too_close {
            let words = too_close_words(after, m.unit_after, *o, *d, p.no_approach_mm);
            crate::findings::outline_bases(
                scene,
                after,
                LayerId::Targets,
                *o,
                "too-close",
                "illegal",
                &words,
            );
        }
        if let Some(c) = &p.charge {
            let words = charge_words(after, before, m.unit_after, c);
            let (Some(cu), Some(tu)) = (before.units.get(m.unit), before.units.get(c.target)) else { return };
            if let Some(cp) = cu
                .bases
                .iter()
                .flat_map(|x| tu.bases.iter().map(move |y| x.closest_points(y)))
                .min_by(|a, b| a.distance_mm.total_cmp(&b.distance_mm))
            {
                scene.add(
                    layer,
                    &format!("charge-{uid}"),
                    "target-line",
                    Shape::line(cp.from, cp.to),
                    Height::Table,
                    Some(words.clone()),
                );
                scene.add(
                    layer,
                    &format!("charge-{uid}-label"),
                    "verdict",
                    Shape::verdict(cp.from.lerp(cp.to, 0.5), words),
                    Height::Table,
                    None,
                );
            }
        }
    }
}
