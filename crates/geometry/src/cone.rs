//! The one cone construction the rules use everywhere: a region that starts on a
//! frontage (a straight edge) and is bounded by two rays leaving the ends of that edge.
//!
//! Artillery arcs of fire (30° per side), firing zones (5° per side, swung inside the
//! arc), enfilade zones (an arc laid on a flank edge), assault zones (5° flare), Pro
//! Patria firing arcs (22½°) and corridors (0°) are all this construction with different
//! angles and depths.

use crate::base::Base;
use crate::polygon::{ConvexPolygon, HalfPlane};
use crate::segment::Segment;
use crate::vec2::Vec2;

/// A cone from a frontage: the points ahead of the frontage edge and between the two
/// side rays. Unbounded in depth; [`FrontageCone::polygon`] truncates it.
///
/// The frontage runs from its left end to its right end as seen looking forward.
///
/// ```
/// use vedette_geometry::{FrontageCone, Segment, Vec2};
/// // A 50 mm frontage facing +y with sides flaring 30° outward (an arc of fire).
/// let front = Segment::new(Vec2::new(-25.0, 0.0), Vec2::new(25.0, 0.0));
/// let arc = FrontageCone::flared(front, Vec2::new(0.0, 1.0), 30.0);
/// assert!(arc.contains(Vec2::new(80.0, 100.0)));   // tan 30° · 100 = 57.7 beyond the end
/// assert!(!arc.contains(Vec2::new(85.0, 100.0)));
/// assert!(!arc.contains(Vec2::new(0.0, -1.0)));     // behind the frontage
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FrontageCone {
    /// The starting edge, from its left end to its right end.
    pub frontage: Segment,
    /// The unit direction of the ray that leaves the left end.
    pub left_direction: Vec2,
    /// The unit direction of the ray that leaves the right end.
    pub right_direction: Vec2,
}

impl FrontageCone {
    /// A cone whose sides turn `flare_deg` outward from `forward` (0° gives a straight
    /// corridor, 30° an artillery arc of fire, 5° an assault zone).
    #[must_use]
    pub fn flared(frontage: Segment, forward: Vec2, flare_deg: f64) -> Self {
        Self::swung(frontage, forward, 0.0, flare_deg)
    }

    /// A cone with sides flaring `flare_deg` outward about an axis turned `swing_deg`
    /// counter-clockwise from `forward` (the artillery firing zone swung inside its arc).
    #[must_use]
    pub fn swung(frontage: Segment, forward: Vec2, swing_deg: f64, flare_deg: f64) -> Self {
        let axis = forward.rotated_deg(swing_deg);
        FrontageCone {
            frontage,
            left_direction: axis.rotated_deg(flare_deg),
            right_direction: axis.rotated_deg(-flare_deg),
        }
    }

    /// The cone's axis: the unit bisector of its two side directions.
    #[must_use]
    pub fn axis(&self) -> Vec2 {
        (self.left_direction + self.right_direction).normalized().unwrap_or(self.left_direction)
    }

    /// The centre line: from the frontage midpoint along the axis, `length_mm` long
    /// (for a firing zone, the centre of fire).
    #[must_use]
    pub fn centre_line(&self, length_mm: f64) -> Segment {
        let m = self.frontage.midpoint();
        Segment::new(m, m + self.axis() * length_mm)
    }

    /// The three half-planes whose intersection is the cone: ahead of the frontage,
    /// right of the left ray, left of the right ray.
    #[must_use]
    pub fn half_planes(&self) -> [HalfPlane; 3] {
        let a = self.frontage.a;
        let b = self.frontage.b;
        [
            HalfPlane::left_of(a, b),
            HalfPlane::left_of(a + self.left_direction, a),
            HalfPlane::left_of(b, b + self.right_direction),
        ]
    }

    /// True when `p` is inside the cone or on its boundary.
    #[must_use]
    pub fn contains(&self, p: Vec2) -> bool {
        self.half_planes().iter().all(|h| h.contains(p))
    }

    /// The half-plane of points at most `depth_mm` ahead of the frontage midpoint
    /// along the axis.
    #[must_use]
    pub fn depth_limit(&self, depth_mm: f64) -> HalfPlane {
        let axis = self.axis();
        let p = self.frontage.midpoint() + axis * depth_mm;
        HalfPlane { point: p, direction: axis.perp_left() }
    }

    /// The cone cut off `depth_mm` ahead of its frontage (measured along the axis from
    /// the frontage midpoint), as a convex polygon.
    #[must_use]
    pub fn polygon(&self, depth_mm: f64) -> ConvexPolygon {
        let axis = self.axis();
        let m = self.frontage.midpoint();
        let a = self.frontage.a;
        let b = self.frontage.b;
        let reach = |p: Vec2, dir: Vec2| -> Vec2 {
            let along = dir.dot(axis);
            let t = if along > 0.0 { (depth_mm - (p - m).dot(axis)) / along } else { 0.0 };
            p + dir * t.max(0.0)
        };
        ConvexPolygon::from_ccw_unchecked(vec![
            a,
            b,
            reach(b, self.right_direction),
            reach(a, self.left_direction),
        ])
    }

    /// The fraction (0 to 1) of a base's area inside the cone, optionally limited to
    /// `depth_mm` ahead of the frontage. Exact: the base rectangle is clipped against
    /// the half-planes and the areas compared.
    #[must_use]
    pub fn fraction_of_base_inside(&self, base: &Base, depth_mm: Option<f64>) -> f64 {
        let mut planes = self.half_planes().to_vec();
        if let Some(d) = depth_mm {
            planes.push(self.depth_limit(d));
        }
        let inside = ConvexPolygon::from_half_planes(&base.polygon(), &planes).area();
        (inside / base.area()).clamp(0.0, 1.0)
    }

    /// True when every point of the base is inside the cone.
    #[must_use]
    pub fn contains_base(&self, base: &Base) -> bool {
        base.vertices_ccw().iter().all(|&v| self.contains(v))
    }

    /// True when every point of the segment is inside the cone.
    #[must_use]
    pub fn contains_segment(&self, s: &Segment) -> bool {
        self.contains(s.a) && self.contains(s.b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::{BaseSize, Pose};
    use approx::assert_abs_diff_eq;

    fn front() -> Segment {
        Segment::new(Vec2::new(-25.0, 0.0), Vec2::new(25.0, 0.0))
    }

    #[test]
    fn straight_corridor() {
        let c = FrontageCone::flared(front(), Vec2::new(0.0, 1.0), 0.0);
        assert!(c.contains(Vec2::new(25.0, 1000.0)));
        assert!(!c.contains(Vec2::new(25.001, 1000.0)));
        assert_abs_diff_eq!(c.polygon(100.0).area(), 5000.0, epsilon = 1e-9);
    }

    #[test]
    fn flared_polygon_area() {
        // Trapezoid: parallel sides 50 and 50 + 2·100·tan 30°, height 100.
        let c = FrontageCone::flared(front(), Vec2::new(0.0, 1.0), 30.0);
        let t = 30f64.to_radians().tan();
        assert_abs_diff_eq!(c.polygon(100.0).area(), (50.0 + 50.0 + 200.0 * t) / 2.0 * 100.0, epsilon = 1e-9);
        assert_abs_diff_eq!(c.axis(), Vec2::new(0.0, 1.0), epsilon = 1e-12);
    }

    #[test]
    fn swung_cone_turns_its_axis() {
        let c = FrontageCone::swung(front(), Vec2::new(0.0, 1.0), 25.0, 5.0);
        assert_abs_diff_eq!(c.axis().heading_deg(), 115.0, epsilon = 1e-9);
        assert_abs_diff_eq!(c.left_direction.heading_deg(), 120.0, epsilon = 1e-9);
        assert_abs_diff_eq!(c.right_direction.heading_deg(), 110.0, epsilon = 1e-9);
        let cl = c.centre_line(100.0);
        assert_abs_diff_eq!(cl.b.heading_deg(), 115.0, epsilon = 1e-9);
    }

    #[test]
    fn fraction_of_base_on_the_side_ray() {
        // Straight corridor; a 20x20 base centred on its right side line is half inside.
        let c = FrontageCone::flared(front(), Vec2::new(0.0, 1.0), 0.0);
        let b = Base::new(BaseSize::new(20.0, 20.0), Pose::new(Vec2::new(25.0, 50.0), 90.0));
        assert_abs_diff_eq!(c.fraction_of_base_inside(&b, None), 0.5, epsilon = 1e-12);
        // Depth limit through its middle leaves a quarter.
        assert_abs_diff_eq!(c.fraction_of_base_inside(&b, Some(50.0)), 0.25, epsilon = 1e-12);
        assert!(!c.contains_base(&b));
        let inner = Base::new(BaseSize::new(20.0, 20.0), Pose::new(Vec2::new(15.0, 50.0), 90.0));
        assert!(c.contains_base(&inner));
    }
}
