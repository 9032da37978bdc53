//! The report's movement findings drawn and said: Pro Patria units in march column that
//! may or may not force march, with the nearest visible formed enemy (004 §17.4.5); the
//! enemies a Pro Patria charge would catch (004 §17.2.3); Republic road columns and the
//! road they are lined up on (003 303). Every sentence here is the one the report prints.

use crate::findings::movement::{feature_words, forced_march_words};
use crate::findings::outline_bases;
use crate::scene::{Height, LayerId, Scene, Shape, id_part};
use vedette_geometry::Table;
use vedette_geometry::pro_patria::charge::Catch;
use vedette_geometry::pro_patria::forced_march::ForcedMarch;
use vedette_geometry::republic::RoadColumn;

/// A catch in words: `fr-hus would catch au-2 charging now: 120.0 mm, within 150 mm
/// (004 §17.2.3)`.
#[must_use]
pub fn catch_words(table: &Table, c: &Catch) -> String {
    let id = |u: usize| table.units.get(u).map_or("?", |x| x.id.as_str());
    format!(
        "{} would catch {} charging now without a formation change: {:.1} mm, within {:.0} mm (004 §17.2.3)",
        id(c.charger),
        id(c.target),
        c.distance_mm,
        c.reach_mm
    )
}

/// A road column in words (003 303).
#[must_use]
pub fn road_column_words(table: &Table, r: &RoadColumn) -> String {
    let id = table.units.get(r.unit).map_or("?", |x| x.id.as_str());
    match r.road {
        Some(road) => format!(
            "{id} road column lined up on {}: moves double on it (003 303)",
            feature_words(table, road)
        ),
        None => format!("{id} road column not lined up on a road: no road movement (003 303)"),
    }
}

/// A line between the closest stands of two units, labelled `words`.
fn between(scene: &mut Scene, table: &Table, (a, b): (usize, usize), id: &str, class: &str, words: &str) {
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

/// Draws Pro Patria's forced marches and catches.
pub fn draw_pro_patria_marches(scene: &mut Scene, table: &Table, forced: &[ForcedMarch], catches: &[Catch]) {
    for f in forced {
        let Some(u) = table.units.get(f.unit) else { continue };
        let words = forced_march_words(table, f);
        let class = if f.allowed { "spacing" } else { "illegal" };
        outline_bases(scene, table, LayerId::Targets, f.unit, "forced-march", class, &words);
        match f.nearest {
            Some((e, _)) => {
                let id = format!("forced-march-{}-{}", id_part(&u.id), id_part(&table.units[e].id));
                between(scene, table, (f.unit, e), &id, class, &words);
            }
            None => {
                if let Some(b) = u.bases.first() {
                    scene.add(
                        LayerId::Targets,
                        &format!("forced-march-{}-label", id_part(&u.id)),
                        "verdict",
                        Shape::verdict(b.centre(), words),
                        Height::BaseTop,
                        None,
                    );
                }
            }
        }
    }
    if !forced.is_empty() {
        scene.legend("spacing", "may force march (004 §17.4.5)", false);
    }
    for c in catches {
        let (Some(a), Some(b)) = (table.units.get(c.charger), table.units.get(c.target)) else { continue };
        let id = format!("catch-{}-{}", id_part(&a.id), id_part(&b.id));
        between(scene, table, (c.charger, c.target), &id, "target-line", &catch_words(table, c));
    }
}

/// Draws Republic's road columns.
pub fn draw_road_columns(scene: &mut Scene, table: &Table, roads: &[RoadColumn]) {
    for r in roads {
        let Some(u) = table.units.get(r.unit) else { continue };
        let words = road_column_words(table, r);
        let class = if r.road.is_some() { "spacing" } else { "illegal" };
        outline_bases(scene, table, LayerId::Targets, r.unit, "road-column", class, &words);
        if let Some(b) = u.bases.first() {
            scene.add(
                LayerId::Targets,
                &format!("road-column-{}-label", id_part(&u.id)),
                "verdict",
                Shape::verdict(b.centre(), words),
                Height::BaseTop,
                None,
            );
        }
    }
}
