//! Chords of a convex shape along a line ([`Outline`]): where a sight line enters and
//! leaves an eye or a target.

use crate::convex::line_in_convex;
use crate::vec2::Vec2;

/// How far apart (in the segment's parameter) crossings must be, how far from an edge's
/// ends (in the edge's parameter) and at what sine of the angle to it, for the inside of
/// a segment to alternate at its crossings with no midpoint test between: a window's
/// midpoint is then more than 1e-5 / 2 · 1e-4 of the segment's length from the edge it
/// crossed, far above the rounding of a point-in-polygon test.
pub(super) const CLEAN_WINDOW: f64 = 1e-5;

pub(super) const CLEAN_END: f64 = 1e-6;

pub(super) const CLEAN_SINE: f64 = 1e-4;

/// The chord of a convex shape (two or more vertices, counter-clockwise) along the line
/// `p + t dir`, as a parameter interval; `None` when the line misses it.
pub(crate) fn chord(shape: &[Vec2], p: Vec2, dir: Vec2) -> Option<(f64, f64)> {
    let n = shape.len();
    chord_with(shape, p, dir, dir.length(), |i| (shape[(i + 1) % n] - shape[i]).length())
}

/// A convex shape with the lengths of its edges, for many chords.
pub(crate) struct Outline<'a> {
    pub(super) shape: &'a [Vec2],
    /// For a polygon, the length of each edge `i → i+1`; for a segment, its length.
    pub(super) lengths: Vec<f64>,
}

impl<'a> Outline<'a> {
    pub(crate) fn new(shape: &'a [Vec2]) -> Self {
        let n = shape.len();
        let lengths = match n {
            0 | 1 => Vec::new(),
            2 => vec![(shape[1] - shape[0]).length()],
            _ => (0..n).map(|i| (shape[(i + 1) % n] - shape[i]).length()).collect(),
        };
        Outline { shape, lengths }
    }

    /// [`chord`], given `dir_len`, the length of `dir` (mm).
    pub(crate) fn chord(&self, p: Vec2, dir: Vec2, dir_len: f64) -> Option<(f64, f64)> {
        chord_with(self.shape, p, dir, dir_len, |i| self.lengths[i])
    }
}

/// [`chord`], given the length of `dir` and `edge_len(i)`, the length of the edge from
/// vertex `i` to the next (mm).
pub(super) fn chord_with(
    shape: &[Vec2],
    p: Vec2,
    dir: Vec2,
    dir_len: f64,
    edge_len: impl Fn(usize) -> f64,
) -> Option<(f64, f64)> {
    const TOL: f64 = 1e-9;
    match shape.len() {
        0 => None,
        1 => {
            let q = shape[0];
            ((q - p).cross(dir).abs() <= TOL * dir_len).then(|| {
                let t = (q - p).dot(dir) / dir.length_2();
                (t, t)
            })
        }
        2 => {
            let (a, b) = (shape[0], shape[1]);
            let s = b - a;
            let denom = dir.cross(s);
            let qp = a - p;
            if denom.abs() <= 1e-15 * dir_len * edge_len(0) {
                if qp.cross(dir).abs() > TOL * dir_len {
                    return None;
                }
                let t0 = qp.dot(dir) / dir.length_2();
                let t1 = (b - p).dot(dir) / dir.length_2();
                return Some((t0.min(t1), t0.max(t1)));
            }
            let t = qp.cross(s) / denom;
            let u = qp.cross(dir) / denom;
            (-TOL..=1.0 + TOL).contains(&u).then_some((t, t))
        }
        _ => {
            // Inside: e × (x - a) ≥ -TOL·|e|.
            line_in_convex(shape, p, dir, (f64::NEG_INFINITY, f64::INFINITY), |i| {
                let el = edge_len(i);
                (el != 0.0).then_some(TOL * el)
            })
        }
    }
}

/// True when a line through corner `(prev, v, next)` in direction `dir` only touches the
/// blocker there (both neighbours on one side, or on the line).
pub(super) fn grazes(prev: Vec2, v: Vec2, next: Vec2, dir: Vec2) -> bool {
    let a = dir.cross(prev - v);
    let b = dir.cross(next - v);
    a * b >= 0.0
}
