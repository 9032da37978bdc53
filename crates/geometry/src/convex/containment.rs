//! Whether a point lies in a convex polygon: closed and exact, or within a tolerance.

use crate::polygon::HalfPlane;
use crate::vec2::Vec2;

/// True when `p` is inside the convex polygon `poly` (counter-clockwise) or on its
/// boundary, exactly: left of or on the line of every edge. Always false for fewer
/// than three vertices (a point or a segment has no inside).
///
/// ```
/// use vedette_geometry::Vec2;
/// use vedette_geometry::convex::contains;
/// let sq = [Vec2::new(0.0, 0.0), Vec2::new(1.0, 0.0), Vec2::new(1.0, 1.0), Vec2::new(0.0, 1.0)];
/// assert!(contains(&sq, Vec2::new(1.0, 0.5))); // the boundary counts
/// assert!(!contains(&sq, Vec2::new(1.0 + 1e-12, 0.5)));
/// ```
#[must_use]
pub fn contains(poly: &[Vec2], p: Vec2) -> bool {
    let n = poly.len();
    n >= 3 && (0..n).all(|i| HalfPlane::left_of(poly[i], poly[(i + 1) % n]).contains(p))
}

/// How a point on or near the boundary of a convex polygon counts: the way a rule
/// construction measures containment, named rather than a flag.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Containment {
    /// Closed and exact ([`contains`]): the boundary counts, nothing outside it does.
    Closed,
    /// Closed with a tolerance: points up to `tolerance_mm` outside every edge's line
    /// count as inside (contact within a tolerance, e.g.
    /// [`crate::CONTACT_TOLERANCE_MM`]).
    Within {
        /// How far outside an edge's line a point may lie, mm.
        tolerance_mm: f64,
    },
}

impl Containment {
    /// True when `p` counts as inside the convex polygon `poly` (counter-clockwise);
    /// always false for fewer than three vertices.
    #[must_use]
    pub fn contains(self, poly: &[Vec2], p: Vec2) -> bool {
        match self {
            Containment::Closed => contains(poly, p),
            Containment::Within { tolerance_mm } => {
                let n = poly.len();
                n >= 3
                    && (0..n).all(|i| {
                        HalfPlane::left_of(poly[i], poly[(i + 1) % n]).signed_distance(p) >= -tolerance_mm
                    })
            }
        }
    }
}
