//! The arc of fire (000 §4.2, §4.5): "an effective arc-of-fire totalling 60 degrees
//! measured from the outer front edges of its base ... locked in a stationary position
//! onto the battery front". Two rays leave the outer corners of the battery frontage
//! (normal or packed), each turned 30° outward from the heading; the arc reaches to the
//! battery's maximum range.
//!
//! # The half-a-base rule
//! "Half or more of one of a formation's bases must lie within a battery's arc-of-fire
//! in order to qualify as a valid target." The base rectangle is clipped exactly
//! against the arc's three half-planes and the areas compared
//! ([`ArcOfFire::fraction_of_base_inside`]). Tie rule: exactly half counts ("half or
//! more"); a fraction within [`HALF_BASE_TOLERANCE`] of one half is exactly half.
//!
//! The half-a-base test uses the arc's sides only; how far away the base is, is the
//! range test's business ([`crate::within_max_range`]): a base more than half inside
//! the sides and whose nearest point is in range qualifies, even if its far part lies
//! past the maximum range.

use crate::base::Base;
use crate::cone::FrontageCone;
use crate::polygon::ConvexPolygon;
use crate::segment::Segment;
use crate::vec2::Vec2;

/// Fractions of a base's area this close to one half count as exactly half.
pub const HALF_BASE_TOLERANCE: f64 = 1e-9;

/// The largest gap, in mm, between the true round far boundary of the arc (points at
/// maximum range from a frontage corner) and the straight chords of
/// [`ArcOfFire::polygon`], which has its vertices on the true boundary.
pub const ARC_POLYGON_SAGITTA_MM: f64 = 0.01;

/// A battery's arc of fire: a [`FrontageCone`] with 30° sides, bounded by the maximum
/// range measured from the frontage.
///
/// ```
/// use vedette_geometry::{ArcOfFire, Base, BaseSize, Pose, Segment, Vec2};
/// // A 50 mm normal frontage facing +y, 16" (406.4 mm) maximum range.
/// let front = Segment::new(Vec2::new(-25.0, 0.0), Vec2::new(25.0, 0.0));
/// let arc = ArcOfFire::new(front, Vec2::new(0.0, 1.0), 30.0, 406.4);
/// // A 30 x 20 base straddling the right side ray, its centre 0.3 mm inside the ray:
/// // (15 + 0.3) / 30 = 51% of its area is inside.
/// let ray_x = 25.0 + 100.0 * 30f64.to_radians().tan(); // the right ray at y = 100
/// let b = Base::new(BaseSize::new(30.0, 20.0), Pose::new(Vec2::new(ray_x - 0.3, 100.0), 270.0));
/// assert!((arc.fraction_of_base_inside(&b) - 0.51).abs() < 1e-9);
/// assert!(arc.holds_half_of(&b));
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ArcOfFire {
    cone: FrontageCone,
    max_range_mm: f64,
}

impl ArcOfFire {
    /// The arc from a frontage (left end to right end as the battery faces), the
    /// battery's unit forward vector, the side angle (30°) and the maximum range (mm).
    #[must_use]
    pub fn new(frontage: Segment, forward: Vec2, side_deg: f64, max_range_mm: f64) -> Self {
        ArcOfFire { cone: FrontageCone::flared(frontage, forward, side_deg), max_range_mm }
    }

    /// The cone of the arc (unbounded in depth).
    #[must_use]
    pub fn cone(&self) -> &FrontageCone {
        &self.cone
    }

    /// The frontage it starts from.
    #[must_use]
    pub fn frontage(&self) -> Segment {
        self.cone.frontage
    }

    /// The maximum range, mm.
    #[must_use]
    pub fn max_range_mm(&self) -> f64 {
        self.max_range_mm
    }

    /// The fraction (0 to 1) of the base's area between the arc's sides and ahead of
    /// its frontage. Exact up to rounding.
    #[must_use]
    pub fn fraction_of_base_inside(&self, base: &Base) -> f64 {
        self.cone.fraction_of_base_inside(base, None)
    }

    /// True when half or more of the base's area lies inside the arc (see the module
    /// documentation for the tie rule).
    #[must_use]
    pub fn holds_half_of(&self, base: &Base) -> bool {
        self.fraction_of_base_inside(base) >= 0.5 - HALF_BASE_TOLERANCE
    }

    /// The part of the base inside the arc's sides (empty when none is).
    #[must_use]
    pub fn part_of_base_inside(&self, base: &Base) -> ConvexPolygon {
        ConvexPolygon::from_half_planes(&base.polygon(), &self.cone.half_planes())
    }

    /// True when `p` lies inside the arc and within maximum range of the frontage.
    #[must_use]
    pub fn contains(&self, p: Vec2) -> bool {
        self.cone.contains(p) && self.cone.frontage.distance_to_point(p) <= self.max_range_mm
    }

    /// The arc bounded by the maximum range, as a convex polygon: the frontage, the two
    /// side rays out to maximum range, the round boundary about each frontage corner
    /// (vertices on it, chords at most [`ARC_POLYGON_SAGITTA_MM`] inside it) and the
    /// straight boundary ahead of the frontage. For drawing and for bounding boxes; the
    /// tests themselves are exact.
    #[must_use]
    pub fn polygon(&self) -> ConvexPolygon {
        let a = self.cone.frontage.a;
        let b = self.cone.frontage.b;
        let r = self.max_range_mm;
        let forward = self.cone.axis();
        let side = forward.cross(self.cone.left_direction).atan2(forward.dot(self.cone.left_direction));
        // Chord step so that the sagitta r(1 - cos(step / 2)) stays within the bound.
        let step =
            if r > ARC_POLYGON_SAGITTA_MM { 2.0 * (1.0 - ARC_POLYGON_SAGITTA_MM / r).acos() } else { side };
        let pieces = ((side / step).ceil() as usize).max(1);
        let mut v = vec![a, b];
        // About b: from the right ray round to straight ahead (counter-clockwise).
        for i in 0..=pieces {
            let ang = -side + side * i as f64 / pieces as f64;
            v.push(b + forward.rotated_deg(ang.to_degrees()) * r);
        }
        // About a: from straight ahead round to the left ray.
        for i in 0..=pieces {
            let ang = side * i as f64 / pieces as f64;
            v.push(a + forward.rotated_deg(ang.to_degrees()) * r);
        }
        ConvexPolygon::from_ccw_unchecked(v)
    }

    /// The smallest axis-aligned box holding the whole arc out to maximum range (min
    /// corner, max corner): the frontage ends, the ends of the round boundary about each
    /// corner, and the points of those round parts that face along an axis.
    #[must_use]
    pub fn bounding_box(&self) -> (Vec2, Vec2) {
        let a = self.cone.frontage.a;
        let b = self.cone.frontage.b;
        let r = self.max_range_mm;
        let forward = self.cone.axis();
        let mut pts = vec![a, b, a + forward * r, b + forward * r];
        pts.push(a + self.cone.left_direction * r);
        pts.push(b + self.cone.right_direction * r);
        // An axis direction (±x, ±y) lying within the round part about a corner makes
        // that part reach furthest along it.
        for axis in [Vec2::new(1.0, 0.0), Vec2::new(-1.0, 0.0), Vec2::new(0.0, 1.0), Vec2::new(0.0, -1.0)] {
            if forward.dot(axis) >= 0.0
                && forward.cross(axis) >= 0.0
                && self.cone.left_direction.cross(axis) <= 0.0
            {
                pts.push(a + axis * r);
            }
            if forward.dot(axis) >= 0.0
                && forward.cross(axis) <= 0.0
                && self.cone.right_direction.cross(axis) >= 0.0
            {
                pts.push(b + axis * r);
            }
        }
        let mut lo = Vec2::new(f64::INFINITY, f64::INFINITY);
        let mut hi = Vec2::new(f64::NEG_INFINITY, f64::NEG_INFINITY);
        for p in pts {
            lo = Vec2::new(lo.x.min(p.x), lo.y.min(p.y));
            hi = Vec2::new(hi.x.max(p.x), hi.y.max(p.y));
        }
        let m = 1e-6;
        (Vec2::new(lo.x - m, lo.y - m), Vec2::new(hi.x + m, hi.y + m))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_abs_diff_eq;

    fn arc() -> ArcOfFire {
        let front = Segment::new(Vec2::new(-25.0, 0.0), Vec2::new(25.0, 0.0));
        ArcOfFire::new(front, Vec2::new(0.0, 1.0), 30.0, 400.0)
    }

    #[test]
    fn polygon_vertices_lie_on_the_true_boundary() {
        let a = arc();
        let p = a.polygon();
        // Every vertex past the frontage is exactly at maximum range from it.
        for v in &p.vertices()[2..] {
            assert_abs_diff_eq!(a.frontage().distance_to_point(*v), 400.0, epsilon = 1e-9);
            assert!(a.cone().contains(*v + (a.frontage().midpoint() - *v) * 1e-9));
        }
        // The exact area: rectangle 50 x 400 plus two 30° sectors of radius 400 and the
        // two triangles between the side rays and the sectors... the region is the
        // rectangle plus two sectors of 30° about the corners.
        let exact = 50.0 * 400.0 + 2.0 * (std::f64::consts::PI / 12.0) * 400.0 * 400.0;
        assert!(p.area() < exact && p.area() > exact - 2.0 * 400.0 * 0.01 * 2.0, "{} vs {exact}", p.area());
        // The box: x from -25 - 400 sin 30° to 25 + 400 sin 30°, y from 0 to 400.
        let (lo, hi) = a.bounding_box();
        assert_abs_diff_eq!(lo, Vec2::new(-225.0, 0.0), epsilon = 1e-5);
        assert_abs_diff_eq!(hi, Vec2::new(225.0, 400.0), epsilon = 1e-5);
        // Facing 160°: the round part about the left corner (-25, 0) runs from 160° to
        // 190° and so passes due -x (180°): the box reaches x = -25 - 400.
        let t = ArcOfFire::new(
            Segment::new(Vec2::new(-25.0, 0.0), Vec2::new(25.0, 0.0)),
            Vec2::from_heading_deg(160.0),
            30.0,
            400.0,
        );
        let (lo, hi) = t.bounding_box();
        assert_abs_diff_eq!(lo.x, -425.0, epsilon = 1e-5);
        // Every vertex of the drawn polygon (all on the true boundary) is in the box.
        for v in t.polygon().vertices() {
            assert!(v.x >= lo.x && v.y >= lo.y && v.x <= hi.x && v.y <= hi.y);
        }
    }

    #[test]
    fn contains_is_bounded_by_range_from_the_frontage() {
        let a = arc();
        assert!(a.contains(Vec2::new(0.0, 399.9)));
        assert!(!a.contains(Vec2::new(0.0, 400.1)));
        // Past the right corner the bound is round: 400 from (25, 0).
        let p = Vec2::new(25.0, 0.0) + Vec2::from_heading_deg(75.0) * 399.9;
        assert!(a.contains(p));
        assert!(!a.contains(Vec2::new(25.0, 0.0) + Vec2::from_heading_deg(75.0) * 400.1));
    }
}
