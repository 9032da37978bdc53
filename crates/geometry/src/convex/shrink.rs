//! Half-planes moved in or out by a distance, and a convex polygon shrunk by one.

use crate::polygon::{ConvexPolygon, HalfPlane};
use crate::vec2::Vec2;

/// The half-plane with its boundary moved `distance_mm` inward (to its left), its
/// direction kept; unchanged when the direction has no length. Used to keep what is
/// strictly inside by a tie tolerance.
///
/// ```
/// use vedette_geometry::{HalfPlane, Vec2};
/// use vedette_geometry::convex::inset;
/// let h = inset(HalfPlane::left_of(Vec2::new(0.0, 0.0), Vec2::new(2.0, 0.0)), 0.5);
/// assert_eq!(h.point, Vec2::new(0.0, 0.5));
/// ```
#[must_use]
pub fn inset(h: HalfPlane, distance_mm: f64) -> HalfPlane {
    match h.direction.normalized() {
        Some(d) => HalfPlane { point: h.point + d.perp_left() * distance_mm, direction: h.direction },
        None => h,
    }
}

/// The half-plane with its boundary pushed `distance_mm` outward (to its right), its
/// direction kept; unchanged when the direction has no length. Used to let what
/// touches within a slack count.
#[must_use]
pub fn outset(h: HalfPlane, distance_mm: f64) -> HalfPlane {
    match h.direction.normalized() {
        Some(d) => HalfPlane { point: h.point + d.perp_right() * distance_mm, direction: h.direction },
        None => h,
    }
}

/// The convex polygon `poly` (counter-clockwise) shrunk by `distance_mm`: the points at
/// least that far inside every edge's line; `None` when nothing with area is left or
/// `poly` has fewer than three vertices.
///
/// ```
/// use vedette_geometry::Vec2;
/// use vedette_geometry::convex::shrink;
/// let sq = [Vec2::new(0.0, 0.0), Vec2::new(4.0, 0.0), Vec2::new(4.0, 4.0), Vec2::new(0.0, 4.0)];
/// assert_eq!(shrink(&sq, 1.0).map(|s| s.len()), Some(4));
/// assert_eq!(shrink(&sq, 2.0), None);
/// ```
#[must_use]
pub fn shrink(poly: &[Vec2], distance_mm: f64) -> Option<Vec<Vec2>> {
    let n = poly.len();
    if n < 3 {
        return None;
    }
    // Unit directions (not `inset` of the edges' own half-planes): the clipping then
    // works on unit-length lines.
    let planes: Vec<HalfPlane> = (0..n)
        .filter_map(|i| {
            let (a, b) = (poly[i], poly[(i + 1) % n]);
            let u = (b - a).normalized()?;
            Some(HalfPlane { point: a + u.perp_left() * distance_mm, direction: u })
        })
        .collect();
    let out = ConvexPolygon::from_half_planes(&ConvexPolygon::from_ccw_unchecked(poly.to_vec()), &planes);
    (out.area() > 0.0).then(|| out.vertices().to_vec())
}
