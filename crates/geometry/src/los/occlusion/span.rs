//! How a convex shape lies as seen from a point ([`Span`]: its range of pseudo-angles)
//! and its squared distance, in one pass over its edges.

use super::pseudo_angle;
use crate::convex::edge_distance_2;
use crate::vec2::Vec2;

/// How a convex shape lies as seen from a point.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Span {
    /// The point is inside it.
    Inside,
    /// The point is on its outline (or it is degenerate): no range.
    Unknown,
    /// Pseudo-angles from `lo` to `hi` (`hi - lo < 2`).
    Range(f64, f64),
}

/// How a convex shape (ccw; or a segment, or a point) lies as seen from `p`, and its
/// squared distance from `p` ([`crate::convex::point_distance_2`]), in one pass over its edges: each
/// edge's side test serves both. The distance is only meaningful with a
/// [`Span::Range`].
pub(super) fn span_and_distance_2(p: Vec2, poly: &[Vec2]) -> (Span, f64) {
    let (sp, d2, _) = span_distance_and_ends::<false>(p, poly);
    (sp, d2)
}

/// [`span_and_distance_2`], with the squared distances from `p` of the range's two
/// extreme vertices (the farthest where several share the angle; meaningful with a
/// [`Span::Range`]): what [`Horizon::insert`] needs of a blocker, found in the same pass.
/// Without `ENDS`, the distances are left out (zero) and cost nothing.
pub(super) fn span_distance_and_ends<const ENDS: bool>(p: Vec2, poly: &[Vec2]) -> (Span, f64, (f64, f64)) {
    let n = poly.len();
    if n == 0 || n > 32 {
        return (Span::Unknown, 0.0, (0.0, 0.0));
    }
    let polygon = n >= 3;
    let mut inside = polygon;
    let mut outside = !polygon;
    let mut best = f64::INFINITY;
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    let (mut dlo, mut dhi) = (0.0f64, 0.0f64);
    // Edge (a, b) for each vertex a and the next, b (the first after the last).
    let mut next = poly[0];
    for &a in poly.iter().rev() {
        let b = next;
        next = a;
        let d = a - p;
        if d.x == 0.0 && d.y == 0.0 {
            return (Span::Unknown, 0.0, (0.0, 0.0));
        }
        let ab = b - a;
        let ap = p - a;
        let c = ab.cross(ap);
        // Only edges `p` is not strictly inside of are measured (as in
        // `crate::convex::point_distance_2`).
        if !polygon || c <= 0.0 {
            inside = false;
            if c < 0.0 {
                outside = true;
            }
            let d2 = edge_distance_2(ap, ab);
            if d2 < best {
                best = d2;
            }
        }
        let angle = pseudo_angle(d);
        if ENDS {
            let dv = d.length_2();
            if angle < lo || (angle == lo && dv > dlo) {
                dlo = dv;
            }
            if angle > hi || (angle == hi && dv > dhi) {
                dhi = dv;
            }
        }
        if angle < lo {
            lo = angle;
        }
        if angle > hi {
            hi = angle;
        }
    }
    let d2 = if outside { best } else { 0.0 };
    if inside {
        return (Span::Inside, d2, (0.0, 0.0));
    }
    if hi - lo >= 2.0 {
        // The range wraps through 0: lift the low angles by a turn (the angles found
        // again, rather than kept for this rare case).
        (lo, hi, dlo, dhi) = (f64::INFINITY, f64::NEG_INFINITY, 0.0, 0.0);
        for &v in poly {
            let a = pseudo_angle(v - p);
            let a = if a < 2.0 { a + 4.0 } else { a };
            if ENDS {
                let dv = (v - p).length_2();
                if a < lo || (a == lo && dv > dlo) {
                    dlo = dv;
                }
                if a > hi || (a == hi && dv > dhi) {
                    dhi = dv;
                }
            }
            lo = lo.min(a);
            hi = hi.max(a);
        }
        if hi - lo >= 2.0 {
            return (Span::Unknown, d2, (0.0, 0.0));
        }
    }
    (Span::Range(lo, hi), d2, (dlo, dhi))
}
