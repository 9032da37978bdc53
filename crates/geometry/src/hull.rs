//! The convex hull of points (Andrew's monotone chain), for regions "between" shapes.

use crate::polygon::ConvexPolygon;
use crate::vec2::Vec2;

impl ConvexPolygon {
    /// The convex hull of the points, counter-clockwise, collinear points dropped.
    ///
    /// ```
    /// use vedette_geometry::{ConvexPolygon, Vec2};
    /// let h = ConvexPolygon::hull(&[Vec2::new(0.0, 0.0), Vec2::new(2.0, 0.0), Vec2::new(1.0, 1.0),
    ///     Vec2::new(1.0, 0.2), Vec2::new(0.0, 2.0), Vec2::new(2.0, 2.0)]);
    /// assert_eq!(h.vertices().len(), 4);
    /// assert_eq!(h.area(), 4.0);
    /// ```
    #[must_use]
    pub fn hull(points: &[Vec2]) -> ConvexPolygon {
        let mut p: Vec<Vec2> = points.iter().copied().filter(|v| v.is_finite()).collect();
        p.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
        p.dedup();
        if p.len() < 3 {
            return ConvexPolygon::from_ccw_unchecked(p);
        }
        let mut lower: Vec<Vec2> = Vec::new();
        for &v in &p {
            while lower.len() >= 2
                && (lower[lower.len() - 1] - lower[lower.len() - 2]).cross(v - lower[lower.len() - 2]) <= 0.0
            {
                lower.pop();
            }
            lower.push(v);
        }
        let mut upper: Vec<Vec2> = Vec::new();
        for &v in p.iter().rev() {
            while upper.len() >= 2
                && (upper[upper.len() - 1] - upper[upper.len() - 2]).cross(v - upper[upper.len() - 2]) <= 0.0
            {
                upper.pop();
            }
            upper.push(v);
        }
        lower.pop();
        upper.pop();
        lower.extend(upper);
        ConvexPolygon::from_ccw_unchecked(lower)
    }
}

/// The vertices of [`ConvexPolygon::hull`]: counter-clockwise, fewer than three when the
/// points are collinear. For callers that work on plain vertex lists.
pub(crate) fn hull_points(points: impl AsRef<[Vec2]>) -> Vec<Vec2> {
    ConvexPolygon::hull(points.as_ref()).vertices().to_vec()
}
