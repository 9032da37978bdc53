//! Ground levels from hill contours (003 601; 004 §15.1).
//!
//! Hills are nested contour polygons, each with the level of its top in half-level
//! steps. A point's ground level is that of the innermost (highest) hill containing it,
//! 0 on the plain; a point on a contour line is on the hill.
//!
//! A base stands at one level: the highest level whose ground holds half or more of the
//! base's area (the half-the-base convention of 000 §5.4 for cover). A base straddling a
//! contour is therefore on the hill when at least half of it is.

use crate::base::Base;
use crate::convex::bbox;
use crate::polygon::Polygon;
use crate::table::Table;
use crate::terrain::TerrainKind;
use crate::vec2::Vec2;

/// One hill contour.
#[derive(Debug, Clone)]
pub struct Contour {
    /// Index of the feature in the table's `terrain`.
    pub feature: usize,
    /// The contour (with holes, if any).
    pub polygon: Polygon,
    /// Level of its top.
    pub level: f64,
    lo: Vec2,
    hi: Vec2,
}

impl Contour {
    fn bbox_overlaps(&self, lo: Vec2, hi: Vec2) -> bool {
        self.lo.x <= hi.x && lo.x <= self.hi.x && self.lo.y <= hi.y && lo.y <= self.hi.y
    }

    /// True when `p` is on the hill (boundary included).
    #[must_use]
    pub fn contains(&self, p: Vec2) -> bool {
        p.x >= self.lo.x
            && p.x <= self.hi.x
            && p.y >= self.lo.y
            && p.y <= self.hi.y
            && self.polygon.contains(p)
    }
}

/// The ground of a table: its hill contours.
///
/// ```
/// use vedette_geometry::Table;
/// use vedette_geometry::los::Ground;
/// use vedette_geometry::Vec2;
/// let t = Table::from_json_str(r#"{"schema":"vedette/table/1","rules":"republic","scale":"medium","units":[
///   {"id":"a","side":"x","kind":"infantry","formation":"line","bases":[{"x":50,"y":50,"heading":90,"width":30,"depth":20}]}],
///   "terrain":[{"kind":"hill","level":0.5,"outline":[[0,0],[400,0],[400,400],[0,400]]},
///              {"kind":"hill","level":1.5,"outline":[[100,100],[300,100],[300,300],[100,300]]}]}"#)?;
/// let g = Ground::new(&t);
/// assert_eq!(g.level_at(Vec2::new(50.0, 50.0)), 0.5);
/// assert_eq!(g.level_at(Vec2::new(200.0, 200.0)), 1.5);
/// assert_eq!(g.level_at(Vec2::new(500.0, 50.0)), 0.0);
/// # Ok::<(), vedette_geometry::GeometryError>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct Ground {
    contours: Vec<Contour>,
}

impl Ground {
    /// The hill contours of a table.
    #[must_use]
    pub fn new(table: &Table) -> Self {
        let contours = table
            .terrain
            .iter()
            .enumerate()
            .filter(|(_, f)| f.kind == TerrainKind::Hill && f.outline.len() >= 3)
            .map(|(i, f)| {
                let (lo, hi) = bbox(f.outline.iter().copied());
                Contour { feature: i, polygon: f.polygon(), level: f.level, lo, hi }
            })
            .collect();
        Ground { contours }
    }

    /// The contours.
    #[must_use]
    pub fn contours(&self) -> &[Contour] {
        &self.contours
    }

    /// True when the table has no hills.
    #[must_use]
    pub fn is_flat(&self) -> bool {
        self.contours.is_empty()
    }

    /// The ground level at a point: the highest hill containing it, or 0.
    #[must_use]
    pub fn level_at(&self, p: Vec2) -> f64 {
        self.contours.iter().filter(|c| c.contains(p)).map(|c| c.level).fold(0.0, f64::max)
    }

    /// The level a base stands at: the highest level whose ground holds half or more of
    /// the base's area, or 0.
    #[must_use]
    pub fn base_level(&self, base: &Base) -> f64 {
        if self.contours.is_empty() {
            return 0.0;
        }
        let (lo, hi) = base.aabb();
        // Most bases stand clear of every hill's box: no outline needed.
        if !self.contours.iter().any(|c| c.bbox_overlaps(lo, hi)) {
            return 0.0;
        }
        let poly = base.polygon();
        let under: Vec<(&Contour, f64)> = self
            .contours
            .iter()
            .filter(|c| c.bbox_overlaps(lo, hi))
            .map(|c| (c, c.polygon.area_inside(&poly)))
            .filter(|(_, a)| *a > 0.0)
            .collect();
        let half = base.area() / 2.0;
        let mut levels: Vec<f64> = under.iter().map(|(c, _)| c.level).collect();
        levels.sort_by(|a, b| b.total_cmp(a));
        levels.dedup();
        for l in levels {
            // Ground at level ≥ l: the union of contours of level ≥ l. Contours do not
            // cross (validated), so the union is the outermost of them; add up those not
            // inside another of level ≥ l.
            let high: Vec<&(&Contour, f64)> = under.iter().filter(|(c, _)| c.level >= l).collect();
            let area: f64 = high
                .iter()
                .filter(|(c, _)| !high.iter().any(|(o, _)| o.feature != c.feature && contour_inside(c, o)))
                .map(|(_, a)| a)
                .sum();
            if area >= half {
                return l;
            }
        }
        0.0
    }
}

impl Ground {
    /// How far `base` can move before the level it stands at ([`Ground::base_level`])
    /// can change: its centre's distance to the nearest hill contour that crosses it;
    /// `None` when no contour crosses it. A straight contour edge holds exactly half of a
    /// rectangle when it passes through the rectangle's centre, so across a straight edge
    /// this is where the level changes (issue 41 item 6: a skirmisher half a millimetre
    /// off a hill's edge saw nothing behind it, with a margin of 50 mm; moved back, it
    /// saw).
    #[must_use]
    pub fn level_margin(&self, base: &Base) -> Option<f64> {
        let (lo, hi) = base.aabb();
        let poly = base.polygon();
        let (c, area) = (base.centre(), base.area());
        let ring = |r: &[Vec2]| {
            (0..r.len())
                .map(|i| crate::segment::Segment::new(r[i], r[(i + 1) % r.len()]).distance_to_point(c))
                .fold(f64::INFINITY, f64::min)
        };
        self.contours
            .iter()
            .filter(|k| k.bbox_overlaps(lo, hi))
            .filter(|k| {
                let inside = k.polygon.area_inside(&poly);
                inside > 0.0 && inside < area
            })
            .map(|k| k.polygon.holes.iter().map(|h| ring(h)).fold(ring(&k.polygon.exterior), f64::min))
            .reduce(f64::min)
    }
}

/// True when contour `inner` lies inside `outer` (contours never cross, so one vertex
/// decides, unless it sits on the outer line: then try the others).
fn contour_inside(inner: &Contour, outer: &Contour) -> bool {
    if !(outer.lo.x <= inner.lo.x
        && outer.lo.y <= inner.lo.y
        && outer.hi.x >= inner.hi.x
        && outer.hi.y >= inner.hi.y)
    {
        return false;
    }
    inner.polygon.exterior.iter().all(|&p| outer.polygon.contains(p))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::{BaseSize, Pose};

    fn table() -> Table {
        Table::from_json_str(
            r#"{"schema":"vedette/table/1","rules":"republic","scale":"medium","units":[
            {"id":"a","side":"x","kind":"infantry","formation":"line","bases":[{"x":50,"y":50,"heading":90,"width":30,"depth":20}]}],
            "terrain":[{"kind":"hill","level":0.5,"outline":[[0,0],[400,0],[400,400],[0,400]]},
                       {"kind":"hill","level":1.5,"outline":[[100,100],[300,100],[300,300],[100,300]]}]}"#,
        )
        .unwrap()
    }

    #[test]
    fn a_base_is_on_the_level_under_half_its_area() {
        let g = Ground::new(&table());
        let at = |x: f64, y: f64| Base::new(BaseSize::new(30.0, 20.0), Pose::new(Vec2::new(x, y), 90.0));
        // Base x ∈ [85, 115]: 15 of its 30 mm width on the 1.5 contour (x ≥ 100): half.
        assert_eq!(g.base_level(&at(100.0, 200.0)), 1.5);
        // x ∈ [84, 114]: 14/30 on it: under half, so the 0.5 hill.
        assert_eq!(g.base_level(&at(99.0, 200.0)), 0.5);
        // Straddling the outer contour x = 400: 16/30 on the hill.
        assert_eq!(g.base_level(&at(399.0, 200.0)), 0.5);
        assert_eq!(g.base_level(&at(401.0, 200.0)), 0.0);
        // A point on a contour line is on the hill.
        assert_eq!(g.level_at(Vec2::new(100.0, 200.0)), 1.5);
    }
}
