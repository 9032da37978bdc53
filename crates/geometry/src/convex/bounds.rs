//! Axis-aligned boxes: of a set of points, and whether two meet.

use crate::vec2::Vec2;

/// The smallest axis-aligned box `(lo, hi)` holding every point; `lo` is +∞ and `hi`
/// −∞ on both axes for no points (a box that meets nothing).
pub(crate) fn bbox(points: impl IntoIterator<Item = Vec2>) -> (Vec2, Vec2) {
    points.into_iter().fold(
        (Vec2::new(f64::INFINITY, f64::INFINITY), Vec2::new(f64::NEG_INFINITY, f64::NEG_INFINITY)),
        |(lo, hi), p| (Vec2::new(lo.x.min(p.x), lo.y.min(p.y)), Vec2::new(hi.x.max(p.x), hi.y.max(p.y))),
    )
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
