//! Skirmish marker findings drawn (000 §3.6): the spacing to the nearest friendly marker
//! (skirmish order, packed, too close) and the reach to the parent, each a line between
//! the closest points with its distance; illegal markers and close calls highlighted.

use crate::findings::artillery::close_call;
use crate::findings::{distance_words, measured_words};
use crate::scene::{Height, LayerId, Scene, Shape, finding_key, id_part};
use vedette_geometry::close_call::distance_sigma_mm;
use vedette_geometry::{MarkerCheck, RuleBook, Spacing, Table};

/// The words of a spacing verdict.
#[must_use]
pub fn spacing_name(s: Spacing) -> &'static str {
    match s {
        Spacing::SkirmishOrder => "skirmish order",
        Spacing::Packed => "packed",
        Spacing::TooClose => "TOO CLOSE",
    }
}

/// Draws every marker's spacing and parent reach, each tagged with its marker's
/// [`finding_key`] (`skirmisher/MARKER`; the spacing line with both markers').
pub fn draw_skirmishers(scene: &mut Scene, table: &Table, book: &RuleBook, checks: &[MarkerCheck]) {
    let mut seen = std::collections::BTreeSet::new();
    let before = scene.set_findings(Vec::new());
    for m in checks {
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
        let calls: Vec<String> = [("spacing", &m.spacing_call), ("parent reach", &m.parent_call)]
            .into_iter()
            .filter_map(|(what, c)| {
                c.as_ref().filter(|(_, c)| !c.certain()).map(|(limit, c)| {
                    format!("{what} {:.2} mm from {}", c.margin_mm, distance_words(book, *limit))
                })
            })
            .collect();
        if !calls.is_empty() {
            close_call(scene, table, m.marker, &format!("{label} skirmisher"), &calls.join("; "));
        }
    }
    scene.set_findings(before);
}
