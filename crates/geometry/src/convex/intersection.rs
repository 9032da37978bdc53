//! Where a segment or another convex polygon meets a convex polygon (closed: touching
//! counts), by Cyrus–Beck clipping and the separating-axis test.

use crate::segment::Segment;
use crate::vec2::Vec2;

/// The parameters `t` within `range` for which `origin + t·dir` lies in the convex
/// polygon `poly` (counter-clockwise), as `(lo, hi)`; `None` when there are none
/// (Cyrus–Beck clipping). `slack(i)` moves edge `i` (from vertex `i` to `i + 1`) outward
/// by that much in cross-product units (mm × the edge's length); `None` skips the edge
/// (a zero-length edge).
#[inline]
#[must_use]
pub(crate) fn line_in_convex(
    poly: &[Vec2],
    origin: Vec2,
    dir: Vec2,
    range: (f64, f64),
    slack: impl Fn(usize) -> Option<f64>,
) -> Option<(f64, f64)> {
    let (mut lo, mut hi) = range;
    let n = poly.len();
    for i in 0..n {
        let Some(out) = slack(i) else { continue };
        let a = poly[i];
        let e = poly[(i + 1) % n] - a;
        // Inside: e × (x - a) ≥ -out.
        let num = e.cross(origin - a) + out;
        let den = e.cross(dir);
        if den == 0.0 {
            if num < 0.0 {
                return None;
            }
        } else {
            let t = -num / den;
            if den > 0.0 {
                lo = lo.max(t);
            } else {
                hi = hi.min(t);
            }
        }
    }
    (lo <= hi).then_some((lo, hi))
}

/// The part of segment `s` inside or on the convex polygon `poly` (counter-clockwise, at
/// least three vertices), if any.
///
/// ```
/// use vedette_geometry::{Segment, Vec2};
/// use vedette_geometry::convex::segment_inside;
/// let sq = [Vec2::new(0.0, 0.0), Vec2::new(2.0, 0.0), Vec2::new(2.0, 2.0), Vec2::new(0.0, 2.0)];
/// let s = Segment::new(Vec2::new(-1.0, 1.0), Vec2::new(3.0, 1.0));
/// assert_eq!(segment_inside(&sq, &s), Some(Segment::new(Vec2::new(0.0, 1.0), Vec2::new(2.0, 1.0))));
/// ```
#[must_use]
pub fn segment_inside(poly: &[Vec2], s: &Segment) -> Option<Segment> {
    let d = s.b - s.a;
    line_in_convex(poly, s.a, d, (0.0, 1.0), |_| Some(0.0))
        .map(|(lo, hi)| Segment::new(s.a + d * lo, s.a + d * hi))
}

/// True when segment `s` and the convex polygon `poly` (counter-clockwise, at least
/// three vertices) share a point, its boundary included.
#[must_use]
pub fn segment_meets(poly: &[Vec2], s: &Segment) -> bool {
    line_in_convex(poly, s.a, s.b - s.a, (0.0, 1.0), |_| Some(0.0)).is_some()
}

/// True when two convex polygons (counter-clockwise) share a point, their boundaries
/// included: no edge of either has the other wholly strictly outside it.
#[must_use]
pub fn polygons_meet(a: &[Vec2], b: &[Vec2]) -> bool {
    let separated_by = |p: &[Vec2], q: &[Vec2]| {
        let n = p.len();
        (0..n).any(|i| {
            let (u, v) = (p[i], p[(i + 1) % n]);
            let e = v - u;
            q.iter().all(|&w| e.cross(w - u) < 0.0)
        })
    };
    !separated_by(a, b) && !separated_by(b, a)
}
