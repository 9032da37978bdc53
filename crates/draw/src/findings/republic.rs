//! Republic's advanced rules drawn (003): alert infantry's 4" zones ([`alert_zones`],
//! 201) with the enemies inside, bluff assaults that reach a skirmish marker (301),
//! enemy skirmish markers near leaders (106), supports within 1" behind a unit in
//! assault range (102 B) and units lost in the woods (308).

use crate::findings::{distance_words, outline_bases};
use crate::scene::{Height, LayerId, Scene, Shape, id_part};
use vedette_geometry::republic::{RepublicAssessment, alert_zones};
use vedette_geometry::{GeometryError, RuleBook, Table};

/// A line between the closest points of two units, labelled with `words` (which name
/// both).
pub(crate) fn between(
    scene: &mut Scene,
    table: &Table,
    (a, b): (usize, usize),
    id: &str,
    class: &str,
    words: &str,
) {
    let (Some(ua), Some(ub)) = (table.units.get(a), table.units.get(b)) else { return };
    let Some(c) = ua
        .bases
        .iter()
        .flat_map(|x| ub.bases.iter().map(move |y| x.closest_points(y)))
        .min_by(|p, q| p.distance_mm.total_cmp(&q.distance_mm))
    else {
        return;
    };
    scene.add(
        LayerId::Contacts,
        id,
        class,
        Shape::line(c.from, c.to),
        Height::Table,
        Some(words.to_string()),
    );
    scene.add(
        LayerId::Contacts,
        &format!("{id}-label"),
        "verdict",
        Shape::verdict(c.from.lerp(c.to, 0.5), words),
        Height::Table,
        None,
    );
}

/// Draws the Republic findings.
pub fn draw_republic(
    scene: &mut Scene,
    table: &Table,
    book: &RuleBook,
    found: &RepublicAssessment,
) -> Result<(), GeometryError> {
    for (u, enemies) in &found.alert {
        let Some(unit) = table.units.get(*u) else { continue };
        for (i, z) in alert_zones(unit, book)? {
            scene.add(
                LayerId::Zones,
                &format!("alert-zone-{}.{i}", id_part(&unit.id)),
                "alert-zone",
                Shape::polygon(z.polygon().into_vertices()),
                Height::Table,
                Some(format!("{}#{i}: alert zone, 4\" (003 201)", unit.id)),
            );
        }
        scene.legend("alert-zone", "alert zone, 4\" (003 201)", false);
        for (&e, &d) in enemies {
            let Some(enemy) = table.units.get(e) else { continue };
            let id = format!("alert-{}-{}", id_part(&unit.id), id_part(&enemy.id));
            let words = format!(
                "{} in the alert zone of {} at {} (003 201)",
                enemy.id,
                unit.id,
                distance_words(book, d)
            );
            between(scene, table, (*u, e), &id, "illegal", &words);
        }
    }
    for r in &found.bluff {
        let id = format!("bluff-{}-{}", id_part(&table.units[r.unit].id), id_part(&table.units[r.marker].id));
        between(
            scene,
            table,
            (r.unit, r.marker),
            &id,
            "spacing",
            &format!(
                "{}'s bluff reaches {}, {} (003 301)",
                table.units[r.unit].id,
                table.units[r.marker].id,
                distance_words(book, r.distance_mm)
            ),
        );
    }
    for m in &found.markers_near_leaders {
        let id = format!(
            "near-leader-{}-{}",
            id_part(&table.units[m.leader].id),
            id_part(&table.units[m.marker].id)
        );
        let words = format!(
            "enemy {}skirmisher {} at {} from {} (003 106)",
            if m.sharpshooter { "sharpshooter " } else { "" },
            table.units[m.marker].id,
            distance_words(book, m.distance_mm),
            table.units[m.leader].id
        );
        between(scene, table, (m.leader, m.marker), &id, "target-line", &words);
    }
    for s in &found.support_behind {
        let id = format!(
            "support-{}-{}",
            id_part(&table.units[s.supporter].id),
            id_part(&table.units[s.supported].id)
        );
        between(
            scene,
            table,
            (s.supporter, s.supported),
            &id,
            "contact",
            &format!(
                "{} supports {} from behind at {} (003 102 B)",
                table.units[s.supporter].id,
                table.units[s.supported].id,
                distance_words(book, s.distance_mm)
            ),
        );
    }
    for &u in &found.lost_in_woods {
        let Some(unit) = table.units.get(u) else { continue };
        let words = format!("{} lost in the woods: no friend within 4\" (003 308)", unit.id);
        outline_bases(scene, table, LayerId::Targets, u, "lost-in-woods", "illegal", &words);
        if let Some(b) = unit.bases.first() {
            scene.add(
                LayerId::Targets,
                &format!("lost-in-woods-{}-label", id_part(&unit.id)),
                "verdict",
                Shape::verdict(b.centre(), words),
                Height::BaseTop,
                None,
            );
        }
    }
    Ok(())
}
