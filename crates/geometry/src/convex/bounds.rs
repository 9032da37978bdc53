//! Axis-aligned boxes: of a set of points, and whether two meet.

use crate::base::Base;
use crate::vec2::Vec2;

/// The smallest axis-aligned box `(lo, hi)` holding every point; `lo` is +∞ and `hi`
/// −∞ on both axes for no points (a box that meets nothing).
pub(crate) fn bbox(points: impl IntoIterator<Item = Vec2>) -> (Vec2, Vec2) {
    points.into_iter().fold(
        (Vec2::new(f64::INFINITY, f64::INFINITY), Vec2::new(f64::NEG_INFINITY, f64::NEG_INFINITY)),
        |(lo, hi), p| (Vec2::new(lo.x.min(p.x), lo.y.min(p.y)), Vec2::new(hi.x.max(p.x), hi.y.max(p.y))),
    )
}

/// The smallest axis-aligned box `(lo, hi)` holding every base of `bases` (a unit's, a
/// regiment's); `None` without bases.
pub(crate) fn bases_box<'a>(bases: impl IntoIterator<Item = &'a Base>) -> Option<(Vec2, Vec2)> {
    bases.into_iter().map(Base::aabb).reduce(|(l0, h0), (l1, h1)| {
        (Vec2::new(l0.x.min(l1.x), l0.y.min(l1.y)), Vec2::new(h0.x.max(h1.x), h0.y.max(h1.y)))
    })
}

/// True when the closed boxes `a` and `b` (each `(lo, hi)`) share a point.
pub(crate) fn boxes_meet(a: (Vec2, Vec2), b: (Vec2, Vec2)) -> bool {
    a.0.x <= b.1.x && b.0.x <= a.1.x && a.0.y <= b.1.y && b.0.y <= a.1.y
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_box_of_points_and_touching_boxes() {
        let b = bbox([Vec2::new(1.0, 5.0), Vec2::new(-2.0, 3.0), Vec2::new(0.0, 7.0)]);
        assert_eq!(b, (Vec2::new(-2.0, 3.0), Vec2::new(1.0, 7.0)));
        assert!(boxes_meet(b, (Vec2::new(1.0, 7.0), Vec2::new(4.0, 9.0))));
        assert!(!boxes_meet(b, (Vec2::new(1.01, 0.0), Vec2::new(4.0, 9.0))));
        assert!(!boxes_meet(bbox([]), b));
    }
}
