//! Half-planes moved in or out by a distance, and a convex polygon shrunk or grown by one.

use super::bbox;
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
    shrink_within(poly, distance_mm, &ConvexPolygon::from_ccw_unchecked(poly.to_vec()))
}

/// Every edge of `poly` moved `distance_mm` inward, clipped to `bound`.
fn shrink_within(poly: &[Vec2], distance_mm: f64, bound: &ConvexPolygon) -> Option<Vec<Vec2>> {
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
    let out = ConvexPolygon::from_half_planes(bound, &planes);
    (out.area() > 0.0).then(|| out.vertices().to_vec())
}

/// The convex polygon `poly` (counter-clockwise) with every edge moved `distance_mm`
/// outward (inward when negative) and the corners mitred: a rectangle stays a
/// rectangle, `2·distance_mm` wider and deeper. `None` when nothing with area is left
/// or `poly` has fewer than three vertices.
///
/// ```
/// use vedette_geometry::Vec2;
/// use vedette_geometry::convex::{offset, signed_area};
/// let sq = [Vec2::new(0.0, 0.0), Vec2::new(4.0, 0.0), Vec2::new(4.0, 4.0), Vec2::new(0.0, 4.0)];
/// assert!((offset(&sq, 1.0).map_or(0.0, |g| signed_area(&g)) - 36.0).abs() < 1e-9);
/// assert!((offset(&sq, -1.0).map_or(0.0, |g| signed_area(&g)) - 4.0).abs() < 1e-9);
/// assert_eq!(offset(&sq, -2.0), None);
/// ```
#[must_use]
pub fn offset(poly: &[Vec2], distance_mm: f64) -> Option<Vec<Vec2>> {
    if distance_mm <= 0.0 {
        return shrink(poly, -distance_mm);
    }
    if poly.len() < 3 {
        return None;
    }
    let (lo, hi) = bbox(poly.iter().copied());
    // A mitred corner reaches `distance / sin(half the turn)` out: far past the box for
    // sharp corners, so the bound leaves generous room.
    let m = 4.0 * distance_mm;
    let bound = ConvexPolygon::from_ccw_unchecked(vec![
        Vec2::new(lo.x - m, lo.y - m),
        Vec2::new(hi.x + m, lo.y - m),
        Vec2::new(hi.x + m, hi.y + m),
        Vec2::new(lo.x - m, hi.y + m),
    ]);
    shrink_within(poly, -distance_mm, &bound)
}
