//! The report's movement findings drawn and said: Pro Patria units in march column that
//! may or may not force march, with the nearest visible formed enemy (004 §17.4.5); the
//! enemies a Pro Patria charge would catch (004 §17.2.3); Republic road columns and the
//! road they are lined up on (003 303). Every sentence here is the one the report prints.

use crate::findings::movement::{feature_words, forced_march_words};
use crate::findings::republic::between;
use crate::findings::{outline_and_say, outline_bases};
use crate::scene::{LayerId, Scene, id_part};
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

/// Draws Pro Patria's forced marches and catches.
pub fn draw_pro_patria_marches(scene: &mut Scene, table: &Table, forced: &[ForcedMarch], catches: &[Catch]) {
    for f in forced {
        let Some(u) = table.units.get(f.unit) else { continue };
        let words = forced_march_words(table, f);
        let class = if f.allowed { "spacing" } else { "illegal" };
        match f.nearest {
            Some((e, _)) => {
                outline_bases(scene, table, LayerId::Targets, f.unit, "forced-march", class, &words);
                let id = format!("forced-march-{}-{}", id_part(&u.id), id_part(&table.units[e].id));
                between(scene, table, (f.unit, e), &id, class, &words);
            }
            None => outline_and_say(scene, table, LayerId::Targets, f.unit, ("forced-march", class), &words),
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
        let class = if r.road.is_some() { "spacing" } else { "illegal" };
        outline_and_say(
            scene,
            table,
            LayerId::Targets,
            r.unit,
            ("road-column", class),
            &road_column_words(table, r),
        );
    }
}
