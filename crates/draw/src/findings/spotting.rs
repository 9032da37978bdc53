//! Spotting depth and blind zones drawn: where cover hides a unit from every spotter
//! outside it (000 §3.6, [`vedette_geometry::los::spotting_depth_zones`]), and, on a
//! sight line examined, the stretch a limit decided on ([`Cut::stretch`]): its run in
//! cover up to the spotting depth (000 §3.6) or the blind zone behind a blocker
//! (003 601). Each in its own layer ([`LayerId::SpottingDepth`], [`LayerId::BlindZones`]).

use crate::findings::distance_words;
use crate::scene::{Height, LayerId, Scene, Shape, id_part};
use vedette_geometry::los::{Cut, CutBy, SpottingDepthZone, TerrainRule};
use vedette_geometry::{RuleBook, Table};

fn feature_name(table: &Table, feature: usize) -> String {
    table.terrain.get(feature).and_then(|t| t.id.clone()).unwrap_or_else(|| format!("terrain[{feature}]"))
}

/// Draws the part of each cover deeper than its spotting depth (`only`: just these
/// features, by index in the table's `terrain`; `None`: all).
pub fn draw_spotting_depth_zones(
    scene: &mut Scene,
    table: &Table,
    book: &RuleBook,
    zones: &[SpottingDepthZone],
    only: Option<&[usize]>,
) {
    for z in zones.iter().filter(|z| only.is_none_or(|o| o.contains(&z.feature))) {
        let name = feature_name(table, z.feature);
        for (i, p) in z.hidden.iter().enumerate() {
            scene.add(
                LayerId::SpottingDepth,
                &format!("spotting-depth-{}-{i}", id_part(&name)),
                "spotting-depth",
                Shape::Polygon { exterior: p.exterior.clone(), holes: p.holes.clone() },
                Height::Table,
                Some(format!(
                    "{} \"{name}\": deeper than its spotting depth of {}, a unit here cannot be \
                     spotted from outside it (000 §3.6)",
                    z.kind.name(),
                    distance_words(book, z.depth_mm)
                )),
            );
        }
        if !z.hidden.is_empty() {
            scene.legend("spotting-depth", "in cover beyond its spotting depth: unseen (000 §3.6)", false);
        }
    }
}

/// Draws the stretch of the examined line each cut decided on: the run in cover up to
/// the spotting depth, the blind zone behind a blocker. Returns the terrain features
/// whose spotting depth cut the line.
pub fn draw_cut_stretches(scene: &mut Scene, table: &Table, book: &RuleBook, cuts: &[Cut]) -> Vec<usize> {
    let mut depth_features = Vec::new();
    for (i, c) in cuts.iter().enumerate() {
        let (CutBy::Terrain { feature, kind, rule }, Some(s)) = (&c.by, c.stretch) else { continue };
        let name = feature_name(table, *feature);
        match rule {
            TerrainRule::SpottingDepth { depth_mm } => {
                depth_features.push(*feature);
                scene.add(
                    LayerId::SpottingDepth,
                    &format!("depth-run-{i}"),
                    "depth-run",
                    Shape::line(s.a, s.b),
                    Height::Table,
                    Some(format!(
                        "the sight line runs {} into {} \"{name}\" and is cut there: its spotting \
                         depth (000 §3.6)",
                        distance_words(book, *depth_mm),
                        kind.name()
                    )),
                );
                scene.legend("depth-run", "sight line in cover, up to its spotting depth (000 §3.6)", true);
            }
            TerrainRule::BlindZone { multiple } => {
                let behind = s.a.distance(s.b);
                scene.add(
                    LayerId::BlindZones,
                    &format!("blind-zone-{i}"),
                    "blind-zone",
                    Shape::line(s.a, s.b),
                    Height::Table,
                    Some(format!(
                        "blind zone of {} \"{name}\" on this line: {multiple} × the distance from the \
                         spotter to its far edge, {} behind it; the target is in it (003 601)",
                        kind.name(),
                        distance_words(book, behind)
                    )),
                );
                scene.legend("blind-zone", "blind zone behind a blocker (003 601)", true);
            }
            _ => {}
        }
    }
    depth_features
}
