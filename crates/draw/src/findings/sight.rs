//! Line of sight drawn (000 §3.6, §4.1, 003 601, 004 §16.3): the clear sight lines found
//! (solid), or the line examined (dashed) with a cross where each blocker cuts it and
//! the blocker named (the terrain piece by its id, or the base), and a hidden point of
//! the target. Drawn from [`vedette_geometry::los::Explanation`], the same explanation
//! `vedette los` prints.

use crate::error::DrawError;
use crate::findings::spotting::{draw_cut_stretches, draw_spotting_depth_zones};
use crate::plan::terrain_words;
use crate::scene::{Height, LayerId, Mark, Scene, Shape, id_part};
use vedette_geometry::los::{Cut, CutBy, Explanation, SightRules, TerrainRule, spotting_depth_zones};
use vedette_geometry::{RuleBook, Selection, Table};

/// What cuts a sight line, named: `big-wood (medium-forest)`, `infantry au-2#1`, `skirmish
/// screen fr-sk#0 - fr-sk#1`, `the 180° field of view`, `the visibility limit 1200 mm`.
#[must_use]
pub fn cut_cause(table: &Table, c: &Cut) -> String {
    match &c.by {
        CutBy::Base(r) => {
            format!("{} {}", table.units.get(r.unit).map_or("base", |u| u.kind.name()), table.base_label(*r))
        }
        CutBy::SkirmishScreen(a, b) => {
            format!("skirmish screen {} - {}", table.base_label(*a), table.base_label(*b))
        }
        CutBy::Terrain { feature, .. } => terrain_words(table, *feature),
        CutBy::FieldOfView => "the 180° field of view".to_string(),
        CutBy::MaxVisibility { limit_mm } => format!("the visibility limit {limit_mm:.0} mm"),
    }
}

/// What cuts a sight line and how, in words: `big-wood (medium-forest) blocks`.
#[must_use]
pub fn cut_words(table: &Table, c: &Cut) -> String {
    match &c.by {
        CutBy::Base(_) => format!("{} blocks", cut_cause(table, c)),
        CutBy::SkirmishScreen(..) => format!("{} blocks (000 §4.2)", cut_cause(table, c)),
        CutBy::Terrain { rule, .. } => {
            let why = match rule {
                TerrainRule::Blocks => "blocks".to_string(),
                TerrainRule::BlindZone { multiple } => format!("casts a blind zone x{multiple} (003 601)"),
                TerrainRule::SpottingDepth { depth_mm } => {
                    format!("hides beyond its spotting depth {depth_mm:.1} mm (000 §3.6)")
                }
                TerrainRule::VisibleWithin { limit_mm } => {
                    format!("seen only within {limit_mm:.1} mm (004 §16.3)")
                }
                TerrainRule::SeesPast { limit_mm } => format!("seen past only {limit_mm:.1} mm (004 §15.7)"),
                TerrainRule::Crest { reach_mm } => {
                    format!("crest hides: the spotter is not within {reach_mm:.0} mm of it (004 §15.1)")
                }
            };
            format!("{} {why}", cut_cause(table, c))
        }
        CutBy::FieldOfView => "outside the 180° field of view (004 §16.3)".to_string(),
        CutBy::MaxVisibility { limit_mm } => format!("beyond visibility {limit_mm:.0} mm (004 §16.3)"),
    }
}

/// Highlights every base of a selection.
pub fn highlight(scene: &mut Scene, table: &Table, sel: Selection, layer: LayerId, what: &str) {
    let refs: Vec<vedette_geometry::BaseRef> = match sel {
        Selection::Unit(u) => table
            .units
            .get(u)
            .map(|x| (0..x.bases.len()).map(|i| vedette_geometry::BaseRef::new(u, i)).collect())
            .unwrap_or_default(),
        Selection::Base(r) => vec![r],
    };
    for r in refs {
        if let Some(b) = table.base(r) {
            scene.add(
                layer,
                &format!("highlight-{}", id_part(&table.base_label(r))),
                "highlight",
                Shape::polygon(b.vertices_ccw().to_vec()),
                Height::BaseTop,
                Some(format!("{what}: {}", table.base_label(r))),
            );
        }
    }
}

/// Draws a sight verdict between two selections; where a spotting depth or a blind
/// zone cut the line examined, the stretch it decided on and, for a spotting depth, the
/// part of that cover deeper than it ([`crate::findings::spotting`]).
pub fn draw_sight(
    scene: &mut Scene,
    table: &Table,
    book: &RuleBook,
    (from, to): (Selection, Selection),
    visible: bool,
    ex: &Explanation,
) -> Result<(), DrawError> {
    highlight(scene, table, from, LayerId::Sight, "spotter");
    highlight(scene, table, to, LayerId::Sight, "target");
    for (i, s) in ex.sight_lines.iter().enumerate() {
        scene.add(
            LayerId::Sight,
            &format!("sight-line-{i}"),
            "sight-clear",
            Shape::line(s.segment.a, s.segment.b),
            Height::BaseTop,
            Some(format!(
                "clear sight line {} → {}",
                table.base_label(s.from_base),
                table.base_label(s.to_base)
            )),
        );
    }
    if !ex.sight_lines.is_empty() {
        scene.legend("sight-clear", "clear sight line", true);
    }
    if let Some(e) = ex.examined {
        scene.add(
            LayerId::Sight,
            "sight-examined",
            "sight-blocked",
            Shape::line(e.a, e.b),
            Height::BaseTop,
            Some(format!("{} sight line examined", if visible { "partly hidden:" } else { "NOT VISIBLE:" })),
        );
        scene.legend("sight-blocked", "blocked sight line", true);
    }
    for (i, c) in ex.blocked_by.iter().enumerate() {
        let words = cut_words(table, c);
        scene.add(
            LayerId::Sight,
            &format!("cut-{i}"),
            "cut",
            Shape::Point { at: c.at, mark: Mark::Cross },
            Height::Table,
            Some(format!("cut at ({:.1}, {:.1}): {words}", c.at.x, c.at.y)),
        );
        scene.add(
            LayerId::Sight,
            &format!("cut-{i}-label"),
            "verdict",
            Shape::verdict(c.at, words),
            Height::Table,
            None,
        );
        scene.legend("cut", "where the sight line is cut, and by what", true);
    }
    if let Some(h) = ex.hidden_point {
        scene.add(
            LayerId::Sight,
            "hidden-point",
            "hidden-point",
            Shape::Point { at: h, mark: Mark::Dot },
            Height::BaseTop,
            Some(format!("a point of the target no eye point sees: ({:.1}, {:.1})", h.x, h.y)),
        );
    }
    let depth_features = draw_cut_stretches(scene, table, book, &ex.blocked_by);
    if !depth_features.is_empty() {
        let zones = spotting_depth_zones(table, &SightRules::for_book(book)?);
        draw_spotting_depth_zones(scene, table, book, &zones, Some(&depth_features));
    }
    Ok(())
}
