//! Artillery range (000 §4.2-4.3): the shortest distance from the battery frontage to
//! the target, and the 2" range brackets it falls in.
//!
//! # Brackets and their boundaries
//! The rules name brackets by their far edge ("the first or second range bracket (2" or
//! 4")", 000 §4.3), so bracket *n* holds the ranges above `2(n-1)"` up to and
//! **including** `2n"`: a target exactly 2" away is in the first bracket, one at 2.001"
//! in the second, and a base touching the frontage (range 0) in the first. A range
//! within [`BRACKET_TIE_MM`] of a far edge counts as on it (floating-point noise from
//! rotated bases is far smaller; a millionth of a millimetre is far below what anyone
//! can measure).
//!
//! The maximum range is inclusive too: a target exactly at maximum range is in range.
//!
//! # Units
//! Millimetres on the table; [`ArtilleryRules::rule_inches`] gives the rule inches.
//!
//! [`ArtilleryRules::rule_inches`]: crate::ArtilleryRules::rule_inches

use crate::base::Base;
use crate::segment::Segment;
use crate::vec2::Vec2;

/// Distances this close to a bracket's far edge (or to the maximum range) count as on
/// it, mm.
pub const BRACKET_TIE_MM: f64 = 1e-6;

/// The range bracket (1 for 0-2", 2 for 2-4", ...) of a range, both in mm; see the
/// module documentation for the boundary rule.
///
/// ```
/// use vedette_geometry::range_bracket;
/// let b = 50.8; // 2" brackets at medium scale
/// assert_eq!(range_bracket(0.0, b), 1);
/// assert_eq!(range_bracket(50.8, b), 1);        // exactly 2": the first bracket
/// assert_eq!(range_bracket(50.9, b), 2);
/// assert_eq!(range_bracket(3.0 * 25.4, b), 2);  // 3": the second
/// ```
#[must_use]
pub fn range_bracket(range_mm: f64, bracket_mm: f64) -> u32 {
    if !(range_mm.is_finite() && bracket_mm > 0.0) {
        return 1;
    }
    let n = ((range_mm - BRACKET_TIE_MM) / bracket_mm).ceil();
    n.max(1.0) as u32
}

/// The far edge of a bracket, mm.
#[must_use]
pub fn bracket_far_edge_mm(bracket: u32, bracket_mm: f64) -> f64 {
    f64::from(bracket) * bracket_mm
}

/// True when a range is within the maximum range (inclusive, see the module docs).
#[must_use]
pub fn within_max_range(range_mm: f64, max_range_mm: f64) -> bool {
    range_mm <= max_range_mm + BRACKET_TIE_MM
}

/// The exact shortest distance between a segment and a convex polygon (vertices
/// counter-clockwise; one or two vertices are a point or a segment), zero when they
/// meet; `f64::INFINITY` for an empty polygon ([`crate::convex::segment_distance_mm`]).
#[must_use]
pub fn segment_to_convex_mm(s: &Segment, polygon: &[Vec2]) -> f64 {
    crate::convex::segment_distance_mm(s, polygon)
}

/// The range from a frontage to a base: the shortest distance between them, mm.
#[must_use]
pub fn range_to_base_mm(frontage: &Segment, base: &Base) -> f64 {
    segment_to_convex_mm(frontage, &base.vertices_ccw())
}

/// The parameter `t` at which the ray `origin + t * direction` (`direction` a unit
/// vector, `origin` on the frontage) reaches `range_mm` from the frontage.
///
/// The distance from a segment grows without bound and never decreases along a ray
/// that leaves the segment's own line, so the crossing is unique; it is found by
/// bisection to below a nanometre.
#[must_use]
pub fn ray_parameter_at_range(frontage: &Segment, origin: Vec2, direction: Vec2, range_mm: f64) -> f64 {
    let r2 = range_mm * range_mm;
    let short = |t: f64| frontage.distance_2_to_point(origin + direction * t) < r2;
    let (mut lo, mut hi) = (0.0, range_mm.max(1.0));
    let mut guard = 0;
    while short(hi) && guard < 64 {
        lo = hi;
        hi *= 2.0;
        guard += 1;
    }
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if short(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
        if hi - lo < 1e-10 {
            break;
        }
    }
    hi
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::{BaseSize, Pose};

    #[test]
    fn bracket_boundaries_belong_to_the_nearer_bracket() {
        let b = 50.8;
        assert_eq!(range_bracket(101.6, b), 2); // exactly 4"
        assert_eq!(range_bracket(101.6 + 1e-9, b), 2); // noise on the edge
        assert_eq!(range_bracket(101.6 + 1e-3, b), 3);
        assert_eq!(range_bracket(-0.5, b), 1);
        assert!((bracket_far_edge_mm(3, b) - 152.4).abs() < 1e-9);
    }

    #[test]
    fn segment_to_rectangle() {
        let front = Segment::new(Vec2::new(-25.0, 0.0), Vec2::new(25.0, 0.0));
        let ahead = Base::new(BaseSize::new(30.0, 20.0), Pose::new(Vec2::new(0.0, 60.0), 270.0));
        assert!((range_to_base_mm(&front, &ahead) - 50.0).abs() < 1e-12);
        // Off to the side: corner (40, 50) to the end (25, 0).
        let aside = Base::new(BaseSize::new(30.0, 20.0), Pose::new(Vec2::new(55.0, 60.0), 270.0));
        assert!((range_to_base_mm(&front, &aside) - (15.0f64.hypot(50.0))).abs() < 1e-12);
        // Overlapping: zero.
        let over = Base::new(BaseSize::new(30.0, 20.0), Pose::new(Vec2::new(0.0, 5.0), 270.0));
        assert_eq!(range_to_base_mm(&front, &over), 0.0);
    }

    #[test]
    fn ray_reaches_a_range() {
        let front = Segment::new(Vec2::new(-25.0, 0.0), Vec2::new(25.0, 0.0));
        // Straight ahead: the range is the depth.
        let t = ray_parameter_at_range(&front, Vec2::ZERO, Vec2::new(0.0, 1.0), 152.4);
        assert!((t - 152.4).abs() < 1e-8);
        // At 30° the foot of the perpendicular leaves the frontage past t·sin 30° = 25,
        // i.e. t = 50: at t = 100 the point (50, 86.6) is 86.6 from the line and
        // hypot(25, 86.6) = 90.14 from the end (25, 0).
        let d = Vec2::from_heading_deg(60.0);
        let t = ray_parameter_at_range(&front, Vec2::ZERO, d, 25.0f64.hypot(100.0 * 0.75f64.sqrt()));
        assert!((t - 100.0).abs() < 1e-7, "{t}");
    }
}
