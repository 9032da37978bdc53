//! A battery's findings drawn (000 §4.2-4.5): its frontage and arc of fire, the firing
//! zone as aimed with the limits of its clear swings and the centre of fire, the main
//! target with its range, tandem and adjacent targets, the deep window and the bases it
//! counts, the enfilade arc on the target's nearest flank with the two frontage corners
//! it tests, unlimber limits, and close calls. Every shape is the library's own:
//! [`ArcOfFire::polygon`], [`Battery::zone`], [`FiringZone::centre_of_fire`],
//! [`enfilade_zone`], [`vedette_geometry::DeepTarget::window`].

use crate::findings::{Words, inches_sigma_words, inches_words, outline_bases, unit_ids};
use crate::plan::base_outline;
use crate::scene::{Height, LayerId, Mark, Scene, Shape, id_part};
use vedette_geometry::artillery::TargetCover;
use vedette_geometry::artillery::calls::{arc_call, range_call, unlimber_call};
use vedette_geometry::close_call::{distance_sigma_mm, segment_to_base};
use vedette_geometry::{
    ArcOfFire, ArtilleryRules, BaseRef, BatteryAssessment, EnfiladeVerdict, FlankSide, FrontageMode,
    MainTarget, SpatialIndex, StandingExposure, Table, TargetAssessment, UnitBox, Vec2, enfilade_zone,
    nearest_flanks,
};

/// How much of a battery to draw.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BatteryDetail {
    /// What the report found: arc, aimed zone, main and secondary targets, deep window,
    /// enfilade when it holds, close calls.
    Findings,
    /// Everything about one target (a unit index): the range brackets, the zone aimed at
    /// it, the enfilade arc of its nearest flank whatever the verdict, with the frontage
    /// corners it tests.
    Target(usize),
}

/// The label of a battery: its unit id, or `unit#index` for a base of a massed battery.
#[must_use]
pub fn battery_label(table: &Table, r: BaseRef) -> String {
    if table.units.get(r.unit).is_some_and(|u| u.bases.len() == 1) {
        table.units[r.unit].id.clone()
    } else {
        table.base_label(r)
    }
}

/// The main target's cover in words, when it is covered or the battery aims at its
/// uncovered part.
#[must_use]
pub fn cover_words(c: &TargetCover) -> Option<String> {
    if c.fires_at_uncovered {
        return Some("aims at its uncovered bases: no cover".to_string());
    }
    c.class.map(|k| format!("in {} cover, {} column(s) right", k.name(), c.columns_right()))
}

/// A name for a flank.
#[must_use]
pub fn flank_name(f: FlankSide) -> &'static str {
    match f {
        FlankSide::Left => "left",
        FlankSide::Right => "right",
    }
}

/// A name for a formation that is always enfiladed and deep (000 §4.3-4.4).
#[must_use]
pub fn standing_name(s: StandingExposure) -> &'static str {
    match s {
        StandingExposure::Square => "square",
        StandingExposure::BreakthroughColumn => "breakthrough column",
    }
}

/// Draws one battery's findings.
pub fn draw_battery(
    scene: &mut Scene,
    table: &Table,
    index: &SpatialIndex,
    rules: &ArtilleryRules,
    a: &BatteryAssessment,
    detail: BatteryDetail,
    cover: Option<&TargetCover>,
) {
    let w = Words::new(table);
    let b = &a.battery;
    let label = battery_label(table, b.base_ref);
    let key = id_part(&label);
    let inches = |mm: f64| inches_words(rules.rule_inches(mm), mm);
    let edge = b.frontage.edge;
    scene.add(
        LayerId::Arcs,
        &format!("arc-{key}"),
        "arc",
        Shape::polygon(b.arc.polygon().into_vertices()),
        Height::Table,
        Some(format!(
            "{label}: arc of fire, 30° each side of the {} frontage, to maximum range {} (000 §4.2)",
            w.frontage(b.frontage.mode),
            inches(b.max_range_mm)
        )),
    );
    scene.legend("arc", "arc of fire (000 §4.2)", false);
    scene.add(
        LayerId::Arcs,
        &format!("frontage-{key}"),
        "frontage",
        Shape::line(edge.a, edge.b),
        Height::BaseTop,
        Some(format!(
            "{label}: {} frontage, {} (000 §1.4)",
            w.frontage(b.frontage.mode),
            inches(edge.length())
        )),
    );
    // A packed frontage (too little free space beside the battery, 000 §1.4) changes its
    // arc: said on the plan, in the main target's label when there is one; a normal one
    // goes without saying.
    let packed = b.frontage.mode == FrontageMode::Packed;
    if packed && a.main.is_none() {
        scene.add(
            LayerId::Arcs,
            &format!("frontage-{key}-label"),
            "verdict",
            Shape::verdict(
                edge.a.lerp(edge.b, 0.5),
                format!("{label} packed frontage {}", inches(edge.length())),
            ),
            Height::BaseTop,
            None,
        );
    }
    if b.limbered {
        scene.add(
            LayerId::Arcs,
            &format!("limbered-{key}"),
            "verdict",
            Shape::verdict(b.muzzle(), format!("{label} limbered: may not fire")),
            Height::BaseTop,
            None,
        );
        return;
    }
    let focus = match detail {
        BatteryDetail::Findings => None,
        BatteryDetail::Target(u) => a.targets.iter().find(|t| t.unit == u),
    };
    if matches!(detail, BatteryDetail::Target(_)) {
        // Range brackets: the arc bounded at each bracket's far edge, its far boundary.
        let mut k = 1;
        while k as f64 * rules.bracket_mm < b.max_range_mm - 1e-9 && k < 64 {
            let r = k as f64 * rules.bracket_mm;
            let arc = ArcOfFire::new(edge, b.forward(), rules.arc_side_deg, r).polygon().into_vertices();
            let far: Vec<Vec2> = arc.iter().skip(2).copied().collect();
            scene.add(
                LayerId::Arcs,
                &format!("bracket-{key}-{k}"),
                "bracket",
                Shape::Polyline(far),
                Height::Table,
                Some(format!("range bracket {k} ends at {} (000 §4.3: 2\" brackets)", inches(r))),
            );
            k += 1;
        }
        scene.legend("bracket", "range bracket edges (2\")", true);
    }
    // Clear swings: the centre of fire at each end of each clear interval.
    for (i, s) in a.clear_swings.intervals().iter().enumerate() {
        for (end, deg) in [("from", s.from_deg), ("to", s.to_deg)] {
            let c = b.zone(rules, deg).centre_of_fire();
            scene.add(
                LayerId::Zones,
                &format!("clear-swing-{key}-{i}-{end}"),
                "clear-swing",
                Shape::line(c.a, c.b),
                Height::Table,
                Some(format!(
                    "{label}: the firing zone is clear from {:+.1}° to {:+.1}° (+ = left, 000 §4.2)",
                    s.from_deg, s.to_deg
                )),
            );
        }
    }
    if !a.clear_swings.intervals().is_empty() {
        scene.legend("clear-swing", "limits of the clear swings", true);
    }
    let aim = match (detail, &a.main, focus) {
        (BatteryDetail::Target(_), _, Some(t)) => t.aim_swing_deg,
        (_, Some(m), _) => Some(m.aim_swing_deg),
        _ => None,
    };
    if let Some(aim) = aim {
        let zone = b.zone(rules, aim);
        scene.add(
            LayerId::Zones,
            &format!("zone-{key}"),
            "firing-zone",
            Shape::polygon(zone.cone().polygon(zone.reach_mm()).into_vertices()),
            Height::Table,
            Some(format!("{label}: firing zone, 5° each side, swung {aim:+.1}° (000 §4.2)")),
        );
        let c = zone.centre_of_fire();
        scene.add(
            LayerId::Zones,
            &format!("centre-of-fire-{key}"),
            "centre-of-fire",
            Shape::line(c.a, c.b),
            Height::Table,
            Some(format!("{label}: centre of fire, swung {aim:+.1}°")),
        );
        scene.legend("firing-zone", "firing zone as aimed (000 §4.2)", false);
        scene.legend("centre-of-fire", "centre of fire", true);
    }
    if let Some(m) = &a.main {
        let t = &a.targets[m.target];
        if focus.is_none_or(|f| f.unit == m.unit) {
            let shooter = match detail {
                BatteryDetail::Target(_) => String::new(),
                BatteryDetail::Findings if packed => format!("{label} (packed)"),
                BatteryDetail::Findings => label.clone(),
            };
            target(
                scene,
                table,
                rules,
                a,
                t,
                "main-target",
                &format!("main target of {label}"),
                &shooter,
                &main_words(table, m),
            );
            if let Some(c) = cover
                && let Some(words) = cover_words(c)
                && let Some(b) = table.base(t.nearest_base)
            {
                scene.add(
                    LayerId::Targets,
                    &format!("target-cover-{key}"),
                    "verdict",
                    Shape::verdict(b.centre(), words.clone()),
                    Height::BaseTop,
                    Some(format!("{}: {words} (000 §4.3)", table.units[m.unit].id)),
                );
            }
            let window = m.deep.window;
            if let Some(win) = window {
                scene.add(
                    LayerId::Targets,
                    &format!("deep-window-{key}"),
                    "deep-window",
                    Shape::line(win.a, win.b),
                    Height::Table,
                    Some(format!(
                        "{label}: deep window {} along the centre of fire{}: {} counted base(s), {} (000 §4.3 A)",
                        inches(win.length()),
                        if m.deep.point_blank { ", cut short at point blank" } else { "" },
                        m.deep.window_bases.len(),
                        if m.deep.is_deep() { "DEEP" } else { "not deep" }
                    )),
                );
                scene.legend("deep-window", "deep-target window (000 §4.3 A)", true);
            }
            for &r in &m.deep.window_bases {
                if let Some(base) = table.base(r) {
                    scene.add(
                        LayerId::Targets,
                        &format!("deep-base-{key}-{}", id_part(&table.base_label(r))),
                        "deep-base",
                        Shape::polygon(base_outline(base)),
                        Height::BaseTop,
                        Some(format!("{} counts for the deep walk of {label}", table.base_label(r))),
                    );
                }
            }
            for (ids, kind) in [(&m.secondary.tandem, "tandem"), (&m.secondary.adjacent, "adjacent")] {
                for &u in ids {
                    outline_bases(
                        scene,
                        table,
                        LayerId::Targets,
                        u,
                        &format!("{kind}-{key}"),
                        "secondary-target",
                        &format!("{kind} target of {label} (000 §4.5)"),
                    );
                }
            }
            if !m.secondary.tandem.is_empty() || !m.secondary.adjacent.is_empty() {
                scene.legend("secondary-target", "tandem / adjacent target (000 §4.5)", false);
            }
        }
    }
    if let Some(t) = focus.filter(|t| a.main.as_ref().is_none_or(|m| m.unit != t.unit)) {
        target(scene, table, rules, a, t, "main-target", &format!("candidate target of {label}"), "", "");
    }
    // Enfilade: the arc laid on the target's nearest flank and the frontage corners it tests.
    let enfilade_target = match (detail, &a.main) {
        (BatteryDetail::Target(u), _) => Some(u),
        (BatteryDetail::Findings, Some(m)) if matches!(m.enfilade, EnfiladeVerdict::Flank(_)) => Some(m.unit),
        _ => None,
    };
    if let Some(u) = enfilade_target {
        enfilade(scene, table, rules, a, u, &label);
    }
    // Close calls and the unlimber limit.
    for t in &a.targets {
        if focus.is_some_and(|f| f.unit != t.unit) {
            continue;
        }
        let range = range_call(table, b, rules.bracket_mm, t).filter(|(_, c)| !c.certain());
        let arc = arc_call(table, b, t).filter(|c| !c.certain());
        let mut why = Vec::new();
        if let Some((limit, c)) = range {
            why.push(format!("range {} from the {} limit", w.margin(c.margin_mm), inches(limit)));
        }
        if let Some(c) = arc {
            why.push(format!("half a base in the arc by {}", w.margin(c.margin_mm)));
        }
        if !why.is_empty() {
            close_call(
                scene,
                table,
                t.nearest_base,
                &format!("{label} → {}", table.units[t.unit].id),
                &why.join("; "),
            );
        }
    }
    // Every other candidate in the arc, with why it is not the main target (000 §4.5):
    // what the report's target table says of it, read on the plan.
    if detail == BatteryDetail::Findings {
        for (i, t) in a.targets.iter().enumerate() {
            if a.main.as_ref().is_some_and(|m| m.target == i) {
                continue;
            }
            let Some(near) = table.base(t.nearest_base) else { continue };
            let why = not_main_words(t);
            let unit = &table.units[t.unit].id;
            scene.add(
                LayerId::Targets,
                &format!("candidate-{key}-{}", id_part(unit)),
                "verdict",
                Shape::verdict(near.centre(), format!("{label} → {unit}: {why}")),
                Height::BaseTop,
                Some(format!("{label} → {unit}: in the arc at {}, {why} (000 §4.5)", inches(t.range_mm))),
            );
        }
    }
    if let Some((limit, c)) = unlimber_call(table, index, b.base_ref, &a.unlimber)
        && !c.certain()
    {
        close_call(
            scene,
            table,
            b.base_ref,
            &format!("{label} unlimber limit"),
            &format!("{} from {}", w.margin(c.margin_mm), inches(limit)),
        );
    }
    if a.unlimber.too_close() == Some(true)
        && let Some((r, d)) = a.unlimber.nearest_enemy
        && let Some(enemy) = table.base(r)
    {
        let c = b.base.closest_points(enemy);
        scene.add(
            LayerId::Targets,
            &format!("unlimber-{key}"),
            "illegal",
            Shape::line(c.from, c.to),
            Height::Table,
            Some(format!(
                "{label}: {} is {} away, closer than the unlimber limit (000 §3.6)",
                table.base_label(r),
                inches(d)
            )),
        );
        scene.add(
            LayerId::Targets,
            &format!("unlimber-{key}-label"),
            "verdict",
            Shape::verdict(c.from.lerp(c.to, 0.5), format!("TOO CLOSE to unlimber: {}", inches(d))),
            Height::Table,
            None,
        );
    }
}

/// Why a candidate in the arc is not the main target (000 §4.5), as the report's target
/// table says it: the first test it fails, or valid but not chosen.
#[must_use]
pub fn not_main_words(t: &TargetAssessment) -> &'static str {
    if !t.half_base_in_arc {
        "less than half a base in the arc"
    } else if !t.line_of_sight {
        "no base wholly in sight"
    } else if !t.zone_clear {
        "no clear firing zone"
    } else {
        "valid, not the main target"
    }
}

/// An enfilade verdict in short (000 §4.4): `ENFILADE, left flank`, `ENFILADE (square)`,
/// or `None` when it does not hold.
#[must_use]
pub fn enfilade_words(e: EnfiladeVerdict) -> Option<String> {
    match e {
        EnfiladeVerdict::Flank(f) => Some(format!("ENFILADE, {} flank", flank_name(f))),
        EnfiladeVerdict::Standing(s) => Some(format!("ENFILADE ({})", standing_name(s))),
        EnfiladeVerdict::No => None,
    }
}

/// The main target's verdicts beyond its range, as the report's battery row gives them
/// (000 §4.3-4.5): deep with its window's bases, enfilade and its flank or formation,
/// tandem and adjacent targets; each after a comma, and only those that hold (the aim
/// is the drawn zone's swing, in its title), so that the label stays short on a
/// crowded plan.
fn main_words(table: &Table, m: &MainTarget) -> String {
    let mut words = Vec::new();
    if m.deep.is_deep() {
        words.push(format!("DEEP ({} bases)", m.deep.window_bases.len()));
    }
    words.extend(enfilade_words(m.enfilade));
    for (kind, v) in [("tandem", &m.secondary.tandem), ("adjacent", &m.secondary.adjacent)] {
        if !v.is_empty() {
            words.push(format!("{kind} {}", unit_ids(table, v).join(" ")));
        }
    }
    words.iter().map(|w| format!(", {w}")).collect()
}

/// A target's bases outlined, and its range drawn from the frontage to its nearest base,
/// labelled `SHOOTER → TARGET range, bracket` and `extra` (the main target's further
/// verdicts, [`main_words`]); `shooter` is the battery's label, `(packed)` after it for
/// a packed frontage; an empty `shooter`: the range and bracket alone (a picture of one
/// question, whose caption says the rest).
#[allow(clippy::too_many_arguments)]
fn target(
    scene: &mut Scene,
    table: &Table,
    rules: &ArtilleryRules,
    a: &BatteryAssessment,
    t: &TargetAssessment,
    class: &str,
    what: &str,
    shooter: &str,
    extra: &str,
) {
    let label = battery_label(table, a.battery.base_ref);
    let key = id_part(&label);
    let id = &table.units[t.unit].id;
    outline_bases(
        scene,
        table,
        LayerId::Targets,
        t.unit,
        &format!("target-{key}"),
        class,
        &format!("{id}: {what}"),
    );
    scene.legend(class, "main target (000 §4.5)", false);
    if let Some(base) = table.base(t.nearest_base) {
        let c = segment_to_base(&a.battery.frontage.edge, base);
        let sigma = distance_sigma_mm(table, a.battery.base_ref, t.nearest_base, &c);
        let range = inches_sigma_words(rules.rule_inches(1.0), t.range_mm, sigma);
        scene.add(
            LayerId::Targets,
            &format!("range-{key}-{}", id_part(id)),
            "target-line",
            Shape::line(c.from, c.to),
            Height::Table,
            Some(format!("{label} → {id}: range {range}, bracket {} (000 §4.3)", t.bracket)),
        );
        scene.add(
            LayerId::Targets,
            &format!("range-{key}-{}-label", id_part(id)),
            "verdict",
            Shape::verdict(
                c.from.lerp(c.to, 0.5),
                if shooter.is_empty() {
                    format!("{range}, bracket {}", t.bracket)
                } else {
                    format!("{shooter} → {id} {range} br {}{extra}", t.bracket)
                },
            ),
            Height::Table,
            None,
        );
    }
}

/// The enfilade arc of the target's flank nearest the battery, and the battery's two
/// frontage corners marked in or out of it (000 §4.4).
fn enfilade(
    scene: &mut Scene,
    table: &Table,
    rules: &ArtilleryRules,
    a: &BatteryAssessment,
    unit: usize,
    label: &str,
) {
    let Some(u) = table.units.get(unit) else { return };
    let Some(frame) = UnitBox::of(&u.bases) else { return };
    let edge = a.battery.frontage.edge;
    let key = format!("{}-{}", id_part(label), id_part(&u.id));
    for flank in nearest_flanks(&frame, &edge) {
        let zone = enfilade_zone(&frame, flank, rules.arc_side_deg);
        let reach = zone.frontage.distance_2(&edge).sqrt() + 60.0;
        let holds = zone.contains_segment(&edge);
        scene.add(
            LayerId::Arcs,
            &format!("enfilade-{key}-{}", flank_name(flank)),
            "enfilade-zone",
            Shape::polygon(zone.polygon(reach).into_vertices()),
            Height::Table,
            Some(format!(
                "enfilade arc on the {} flank of {}: the battery's whole frontage {} inside it (000 §4.4)",
                flank_name(flank),
                u.id,
                if holds { "is" } else { "is not" }
            )),
        );
        scene.legend("enfilade-zone", "enfilade arc on the nearest flank (000 §4.4)", false);
        for (end, p) in [("a", edge.a), ("b", edge.b)] {
            let inside = zone.contains(p);
            scene.add(
                LayerId::Arcs,
                &format!("enfilade-corner-{key}-{}-{end}", flank_name(flank)),
                if inside { "in-test" } else { "out-test" },
                Shape::Point { at: p, mark: if inside { Mark::Dot } else { Mark::Cross } },
                Height::BaseTop,
                Some(format!(
                    "frontage corner ({:.1}, {:.1}) {} the enfilade arc",
                    p.x,
                    p.y,
                    if inside { "inside" } else { "outside" }
                )),
            );
        }
    }
}

/// A verdict too close to call: the deciding base circled, with why.
pub fn close_call(scene: &mut Scene, table: &Table, r: BaseRef, what: &str, why: &str) {
    let Some(base) = table.base(r) else { return };
    let radius = base.width().hypot(base.depth()) / 2.0 + 3.0;
    let id = format!("close-call-{}", id_part(what));
    scene.add(
        LayerId::CloseCalls,
        &id,
        "close-call",
        Shape::Circle { centre: base.centre(), radius_mm: radius },
        Height::BaseTop,
        Some(format!("TOO CLOSE TO CALL: {what}: {why}; check {}", table.base_label(r))),
    );
    scene.add(
        LayerId::CloseCalls,
        &format!("{id}-label"),
        "verdict",
        Shape::verdict(base.centre() + Vec2::new(0.0, radius), format!("TOO CLOSE: {what}")),
        Height::BaseTop,
        None,
    );
    scene.legend("close-call", "too close to call: check by hand", true);
}

#[cfg(test)]
mod tests {
    use super::*;
    use vedette_geometry::CoverClass;

    #[test]
    fn cover_is_worded_with_its_columns() {
        let c = |class: Option<CoverClass>, uncovered: bool| TargetCover {
            visible_bases: vec![0, 1],
            base_classes: vec![class, class],
            class,
            aimed_base: Some(0),
            fires_at_uncovered: uncovered,
            call: None,
        };
        assert_eq!(cover_words(&c(None, false)), None);
        assert_eq!(
            cover_words(&c(Some(CoverClass::Medium), false)).as_deref(),
            Some("in medium cover, 1 column(s) right")
        );
        assert_eq!(
            cover_words(&c(Some(CoverClass::Reinforced), false)).as_deref(),
            Some("in reinforced cover, 2 column(s) right")
        );
        assert_eq!(
            cover_words(&c(Some(CoverClass::Heavy), true)).as_deref(),
            Some("aims at its uncovered bases: no cover")
        );
    }
}
