//! Where a piece of cover hides a unit from every spotter outside it (000 §3.6): the
//! part of the cover deeper than its spotting depth.
//!
//! > Spotting Depth is how far into that cover type that a unit can be spotted and
//! > attacked with skirmish or artillery fire. (000 §3.6, terrain effects table)
//!
//! A sight segment from a spotter outside the cover to a target point `t` inside it runs
//! in the cover at least from where it last entered it to `t`, and that entry is a point
//! of the cover's outline: at least the distance from `t` to the outline. So every point
//! farther than the spotting depth from the outline (the cover's rings, holes included)
//! is hidden from every spotter outside the cover, whatever the direction; a point
//! nearer may still be hidden along some directions (the line-of-sight verdicts decide
//! those exactly, [`super::TerrainSight`]). This is the shape a plan draws for the
//! spotting depth; the verdicts never test against it.
//!
//! Construction: the cover minus the points within the depth of its outline (a band of
//! a rectangle on each edge and a disc at each reflex corner: near a convex corner every
//! point inside is within the depth of one of the two edges). The discs are polygons
//! circumscribed about the true circles, so the drawn part lies inside the true one:
//! every point of it is hidden, and the true part is larger by at most
//! [`CORNER_EXCESS_MM`] near the corners.

use crate::command::deployment::{geo_polygon, ring_of};
use crate::convex::signed_area;
use crate::los::sight_rules::{CoverVisibility, SightRules};
use crate::los::terrain_sight::sight_properties;
use crate::polygon::Polygon;
use crate::rules::RuleDistance;
use crate::table::Table;
use crate::terrain::TerrainKind;
use crate::vec2::Vec2;
use geo::BooleanOps;

/// How far the circumscribed corner discs may reach beyond the true circles, mm.
pub const CORNER_EXCESS_MM: f64 = 0.01;

/// The part of one piece of cover deeper than its spotting depth.
#[derive(Debug, Clone, PartialEq)]
pub struct SpottingDepthZone {
    /// The feature's index in the table's `terrain`.
    pub feature: usize,
    /// Its kind.
    pub kind: TerrainKind,
    /// The spotting depth row of 000 §3.6 (2", 1" or ½").
    pub depth: RuleDistance,
    /// The spotting depth, mm.
    pub depth_mm: f64,
    /// Where a unit is hidden from every spotter outside the cover: the points farther
    /// than the depth from the cover's outline (empty when the cover is too thin).
    pub hidden: Vec<Polygon>,
}

/// The points of `cover` farther than `depth_mm` from its rings (see the module docs),
/// counter-clockwise outlines with their holes.
///
/// ```
/// use vedette_geometry::{Polygon, Vec2};
/// use vedette_geometry::los::deeper_than;
/// // A 200 x 100 wood, spotting depth 1" (25.4 mm): a 149.2 x 49.2 core.
/// let wood = Polygon::new(
///     vec![Vec2::new(0.0, 0.0), Vec2::new(200.0, 0.0), Vec2::new(200.0, 100.0), Vec2::new(0.0, 100.0)],
///     vec![],
/// );
/// let core = deeper_than(&wood, 25.4);
/// assert_eq!(core.len(), 1);
/// assert!((core[0].area() - 149.2 * 49.2).abs() < 1e-3);
/// assert!(deeper_than(&wood, 50.0).is_empty());
/// ```
#[must_use]
pub fn deeper_than(cover: &Polygon, depth_mm: f64) -> Vec<Polygon> {
    if cover.exterior.len() < 3 || !depth_mm.is_finite() || depth_mm < 0.0 {
        return Vec::new();
    }
    let mut band: Vec<geo::Polygon<f64>> = Vec::new();
    let r = depth_mm;
    // Corner discs: n sides circumscribed, lying at most CORNER_EXCESS_MM outside.
    let n = if r > 0.0 {
        let step_max = 2.0 * (r / (r + CORNER_EXCESS_MM)).acos();
        ((std::f64::consts::TAU / step_max).ceil() as usize).clamp(8, 720)
    } else {
        0
    };
    let out_r = if n > 0 { r / (std::f64::consts::PI / n as f64).cos() } else { 0.0 };
    let rings = std::iter::once((&cover.exterior, 1.0)).chain(cover.holes.iter().map(|h| (h, -1.0)));
    for (ring, side) in rings {
        let m = ring.len();
        // +1 where the cover lies left of the ring (a counter-clockwise outline, a
        // clockwise hole).
        let cover_left = side * signed_area(ring).signum();
        for i in 0..m {
            let (z, a, b) = (ring[(i + m - 1) % m], ring[i], ring[(i + 1) % m]);
            if let Some(u) = (b - a).normalized() {
                let nrm = u.perp_left() * r;
                band.push(geo_polygon(&[a - nrm, b - nrm, b + nrm, a + nrm]));
            }
            // Near a convex corner of the cover every inner point is within the depth
            // of one of its two edges (the strips hold it); only a reflex corner needs
            // its disc (the points nearest the corner itself).
            let reflex = (a - z).cross(b - a) * cover_left < 0.0;
            if n > 0 && reflex {
                let disc: Vec<Vec2> = (0..n)
                    .map(|k| a + Vec2::from_heading_deg(360.0 * (k as f64 + 0.5) / n as f64) * out_r)
                    .collect();
                band.push(geo_polygon(&disc));
            }
        }
    }
    let geo_cover = geo::Polygon::new(
        geo_polygon(&cover.exterior).exterior().clone(),
        cover.holes.iter().map(|h| geo_polygon(h).exterior().clone()).collect(),
    );
    let near = geo::unary_union(band.iter());
    geo_cover
        .difference(&near)
        .0
        .iter()
        .map(|p| Polygon::new(ring_of(p.exterior()), p.interiors().iter().map(ring_of).collect()))
        .filter(|p| p.area() > 0.0)
        .collect()
}

/// Every area cover on the table under rules that limit sight by spotting depth
/// (000 §3.6; Republique family, Republic), with the part of it deeper than its depth;
/// none under other rules (Pro Patria limits sight in cover by distance, 004 §16.3).
#[must_use]
pub fn spotting_depth_zones(table: &Table, rules: &SightRules) -> Vec<SpottingDepthZone> {
    if rules.cover != CoverVisibility::DepthIntoCover {
        return Vec::new();
    }
    table
        .terrain
        .iter()
        .enumerate()
        .filter(|(_, f)| !f.kind.is_linear() && f.outline.len() >= 3)
        .filter_map(|(i, f)| {
            let depth = sight_properties(f.kind).spotting_depth()?;
            let depth_mm = rules.depth_mm(depth);
            Some(SpottingDepthZone {
                feature: i,
                kind: f.kind,
                depth,
                depth_mm,
                hidden: deeper_than(&f.polygon(), depth_mm),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rect(x0: f64, y0: f64, x1: f64, y1: f64) -> Vec<Vec2> {
        vec![Vec2::new(x0, y0), Vec2::new(x1, y0), Vec2::new(x1, y1), Vec2::new(x0, y1)]
    }

    #[test]
    fn an_l_shaped_wood_keeps_its_core_and_a_hole_pushes_it_back() {
        // An L of two arms 100 wide: depth 20 leaves the arms' cores [20, 280] x [20, 80]
        // and [20, 80] x [80, 280], and of the square [80, 100]² by the reflex corner
        // (100, 100) the points more than 20 from that corner (the edges meeting there
        // end at it): 15600 + 12000 + 400 - π 20² / 4.
        let l = Polygon::new(
            vec![
                Vec2::new(0.0, 0.0),
                Vec2::new(300.0, 0.0),
                Vec2::new(300.0, 100.0),
                Vec2::new(100.0, 100.0),
                Vec2::new(100.0, 300.0),
                Vec2::new(0.0, 300.0),
            ],
            vec![],
        );
        let core = deeper_than(&l, 20.0);
        assert_eq!(core.len(), 1);
        let exact = 15600.0 + 12000.0 + 400.0 - std::f64::consts::PI * 400.0 / 4.0;
        // The circumscribed corner disc takes at most 2π r 0.01 more.
        let area = core[0].area();
        assert!(
            area <= exact + 1e-6 && area > exact - 2.0 * std::f64::consts::PI * 20.0 * 0.011,
            "{area} {exact}"
        );
        assert!(core[0].exterior.iter().all(|q| q.x >= 20.0 - 1e-9 && q.y >= 20.0 - 1e-9));
        // A clearing in a wood: the core keeps 20 from the clearing too.
        let wood = Polygon::new(rect(0.0, 0.0, 300.0, 300.0), vec![rect(100.0, 100.0, 200.0, 200.0)]);
        let core = deeper_than(&wood, 20.0);
        assert_eq!(core.len(), 1);
        assert_eq!(core[0].holes.len(), 1);
        let hole = &core[0].holes[0];
        assert!(hole.iter().all(|q| q.x > 79.9 && q.x < 220.1 && q.y > 79.9 && q.y < 220.1), "{hole:?}");
    }
}
