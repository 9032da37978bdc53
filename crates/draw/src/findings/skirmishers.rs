//! Skirmish marker findings drawn (000 §3.6, §4.1): the spacing to the nearest friendly
//! marker (skirmish order, packed, too close) and the reach to the parent, each a line
//! between the closest points with its distance; each enemy unit a marker may fire on,
//! joined at its nearest seen base within 3", with whether the marker fires attacking,
//! defending or is blocked; the enemy marker it blocks; illegal markers and close calls
//! highlighted.

use crate::findings::artillery::close_call;
use crate::findings::{distance_words, measured_words};
use crate::scene::{Height, LayerId, Scene, Shape, finding_key, id_part};
use vedette_geometry::close_call::distance_sigma_mm;
use vedette_geometry::{BaseRef, RuleBook, SkirmishFire, SkirmisherAssessment, Spacing, Table};

/// The words of a spacing verdict.
#[must_use]
pub fn spacing_name(s: Spacing) -> &'static str {
    match s {
        Spacing::SkirmishOrder => "skirmish order",
        Spacing::Packed => "packed",
        Spacing::TooClose => "TOO CLOSE",
    }
}

/// Draws every marker's spacing, parent reach and fire, each tagged with its marker's
/// [`finding_key`] (`skirmisher/MARKER`; the spacing and blocking lines with both
/// markers').
pub fn draw_skirmishers(scene: &mut Scene, table: &Table, book: &RuleBook, found: &SkirmisherAssessment) {
    let mut seen = std::collections::BTreeSet::new();
    let before = scene.set_findings(Vec::new());
    for m in &found.checks {
        let Some(mb) = table.base(m.marker) else { continue };
        let label = table.base_label(m.marker);
        let key = id_part(&label);
        let own = finding_key("skirmisher", &[&label]);
        scene.set_findings(vec![own.clone()]);
        if let Some((f, d)) = m.nearest_friend
            && let Some(fb) = table.base(f)
            && seen.insert((m.marker.min(f), m.marker.max(f)))
        {
            scene.set_findings(vec![own.clone(), finding_key("skirmisher", &[&table.base_label(f)])]);
            let c = mb.closest_points(fb);
            let class = if m.spacing == Spacing::TooClose { "illegal" } else { "spacing" };
            let sigma = distance_sigma_mm(table, m.marker, f, &c);
            let words = format!("{} {}", spacing_name(m.spacing), measured_words(book, d, sigma));
            scene.add(
                LayerId::Skirmishers,
                &format!("spacing-{key}"),
                class,
                Shape::line(c.from, c.to),
                Height::Table,
                Some(format!(
                    "{label} to {}: {words} (000 §3.6: 3\" apart, packed closer)",
                    table.base_label(f)
                )),
            );
            scene.add(
                LayerId::Skirmishers,
                &format!("spacing-{key}-label"),
                "verdict",
                Shape::verdict(c.from.lerp(c.to, 0.5), words),
                Height::Table,
                None,
            );
            scene.legend("spacing", "skirmisher spacing (000 §3.6)", true);
            scene.set_findings(vec![own.clone()]);
        }
        if let (Some(p), Some(d)) = (m.parent, m.parent_distance_mm)
            && let Some(pu) = table.units.get(p)
            && let Some(c) = pu
                .bases
                .iter()
                .map(|b| mb.closest_points(b))
                .min_by(|a, b| a.distance_mm.total_cmp(&b.distance_mm))
        {
            let ok = m.near_parent && m.enemy_between.is_empty();
            let verdict = format!(
                "{label} to its parent {}: {}{}{}",
                pu.id,
                distance_words(book, d),
                if m.near_parent { "" } else { ", BEYOND reach" },
                if m.enemy_between.is_empty() { "" } else { ", enemy between" }
            );
            scene.add(
                LayerId::Skirmishers,
                &format!("parent-{key}-label"),
                "verdict",
                Shape::verdict(c.from.lerp(c.to, 0.5), verdict),
                Height::Table,
                None,
            );
            scene.add(
                LayerId::Skirmishers,
                &format!("parent-{key}"),
                if ok { "parent-line" } else { "illegal" },
                Shape::line(c.from, c.to),
                Height::Table,
                Some(format!(
                    "{label} to its parent {}: {}{}{} (000 §3.6)",
                    pu.id,
                    distance_words(book, d),
                    if m.near_parent { ", within reach" } else { ", BEYOND its reach" },
                    if m.enemy_between.is_empty() { "" } else { ", enemy bases between" }
                )),
            );
            scene.legend("parent-line", "skirmisher to its parent", true);
        }
        let mut calls: Vec<String> = [("spacing", &m.spacing_call), ("parent reach", &m.parent_call)]
            .into_iter()
            .filter_map(|(what, c)| {
                c.as_ref().filter(|(_, c)| !c.certain()).map(|(limit, c)| {
                    format!("{what} {:.2} mm from {}", c.margin_mm, distance_words(book, *limit))
                })
            })
            .collect();
        if let Some(f) = found.fire_of(m.marker) {
            calls.extend(fire(scene, table, book, f, &label, &mut seen));
            scene.set_findings(vec![own.clone()]);
        }
        if !calls.is_empty() {
            close_call(scene, table, m.marker, &format!("{label} skirmisher"), &calls.join("; "));
        }
    }
    scene.set_findings(before);
}

/// How a marker with targets fires: both ways, only attacking (an enemy marker within
/// 3" takes its defensive fire), only defending (an enemy marker blocks it) or neither.
fn fire_when(f: &SkirmishFire) -> &'static str {
    match (f.may_fire_attacking(), f.defensive_fire()) {
        (true, true) => "attacking or defending",
        (true, false) => "attacking only",
        (false, true) => "defensive fire only",
        (false, false) => "blocked",
    }
}

/// A marker's fire on one target in a few words: `M fires on U 1.24 rule-in (31.6 mm)`,
/// with `attacking only` or `defending only` where it fires one way only, or
/// `M blocked: no fire on U ...`.
fn fire_words(f: &SkirmishFire, marker: &str, unit: &str, distance: &str) -> String {
    match (f.may_fire_attacking(), f.defensive_fire()) {
        (true, true) => format!("{marker} fires on {unit} {distance}"),
        (true, false) => format!("{marker} fires on {unit} attacking only {distance}"),
        (false, true) => format!("{marker} fires on {unit} defending only {distance}"),
        (false, false) => format!("{marker} blocked: no fire on {unit} {distance}"),
    }
}

/// Draws a marker's fire (000 §4.1): a line to each enemy unit it may fire on, at the
/// unit's nearest seen base within 3", and a line to the enemy marker it blocks (one
/// line for two markers that block each other); returns its sight verdicts that are
/// too close to call, in words.
fn fire(
    scene: &mut Scene,
    table: &Table,
    book: &RuleBook,
    f: &SkirmishFire,
    label: &str,
    seen: &mut std::collections::BTreeSet<(BaseRef, BaseRef)>,
) -> Vec<String> {
    let Some(mb) = table.base(f.marker) else { return Vec::new() };
    let own = finding_key("skirmisher", &[label]);
    let key = id_part(label);
    let when = fire_when(f);
    for &(u, d) in &f.targets {
        let Some(unit) = table.units.get(u) else { continue };
        // The target's distance is that of its nearest seen base within 3": the base at
        // that distance (the nearest base of the unit if rounding hides it).
        let Some((bi, c)) = unit
            .bases
            .iter()
            .map(|b| mb.closest_points(b))
            .enumerate()
            .min_by(|(_, a), (_, b)| (a.distance_mm - d).abs().total_cmp(&(b.distance_mm - d).abs()))
        else {
            continue;
        };
        let sigma = distance_sigma_mm(table, f.marker, BaseRef::new(u, bi), &c);
        let words = measured_words(book, d, sigma);
        scene.add(
            LayerId::Skirmishers,
            &format!("fire-{key}-{}", id_part(&unit.id)),
            "skirmish-fire",
            Shape::line(c.from, c.to),
            Height::Table,
            Some(format!(
                "{label} may fire on {} ({when}): {words}, within 3\" and in sight (000 §4.1)",
                unit.id
            )),
        );
        scene.add(
            LayerId::Skirmishers,
            &format!("fire-{key}-{}-label", id_part(&unit.id)),
            "verdict",
            Shape::verdict(c.from.lerp(c.to, 0.5), fire_words(f, label, &unit.id, &words)),
            Height::Table,
            None,
        );
        scene.legend("skirmish-fire", "skirmish fire: an enemy unit within 3\" in sight (000 §4.1)", true);
    }
    if let Some((b, d)) = f.blocks
        && let Some(bb) = table.base(b)
        && seen.insert((f.marker.min(b), f.marker.max(b)))
    {
        let other = table.base_label(b);
        scene.set_findings(vec![own.clone(), finding_key("skirmisher", &[&other])]);
        let c = mb.closest_points(bb);
        let words = measured_words(book, d, distance_sigma_mm(table, f.marker, b, &c));
        let mutual = f.blocked_by.contains(&b);
        let verdict = if mutual {
            format!("{label} and {other} block each other {words}")
        } else {
            format!("{label} blocks {other} {words}")
        };
        scene.add(
            LayerId::Skirmishers,
            &format!("blocks-{key}"),
            "skirmish-block",
            Shape::line(c.from, c.to),
            Height::Table,
            Some(format!(
                "{verdict}: the closest enemy marker within 3\" (000 §4.1: a blocked marker may not fire on combat bases)"
            )),
        );
        scene.add(
            LayerId::Skirmishers,
            &format!("blocks-{key}-label"),
            "verdict",
            Shape::verdict(c.from.lerp(c.to, 0.5), verdict),
            Height::Table,
            None,
        );
        scene.legend(
            "skirmish-block",
            "skirmisher blocks the closest enemy marker within 3\" (000 §4.1)",
            true,
        );
    }
    let unit_id = |u: usize| table.units.get(u).map_or("", |x| x.id.as_str());
    let mut calls: Vec<String> = f
        .targets
        .iter()
        .zip(&f.target_calls)
        .filter(|(_, c)| !c.certain())
        .map(|(&(u, _), c)| format!("sight of {} {:.2} mm from hidden", unit_id(u), c.margin_mm))
        .collect();
    calls.extend(
        f.unseen
            .iter()
            .filter(|(_, _, c)| !c.certain())
            .map(|(u, _, c)| format!("{} unseen, {:.2} mm from seen", unit_id(*u), c.margin_mm)),
    );
    calls
}
