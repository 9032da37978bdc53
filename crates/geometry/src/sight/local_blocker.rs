//! [`LocalBlocker`]: a blocker prepared for the segments from one eye to one target.

use super::blocker::Blocker;
use crate::convex::hull_small;
use crate::polygon::ConvexPolygon;
use crate::segment::Segment;
use crate::vec2::Vec2;

/// A blocker prepared for many segments from one eye (a segment or a convex polygon)
/// to one target (convex), all inside their hull: only the edges near that hull can be
/// crossed, and the eye's side of the outline is known when the outline stays clear of
/// it. [`Self::inside_intervals_into`] gives what [`Blocker::inside_intervals_into`]
/// gives, with fewer edges and, for clean crossings, no point-in-polygon test.
pub(crate) struct LocalBlocker<'a> {
    pub(super) blocker: &'a Blocker,
    /// The hull of eye and target, as unit outward normals and offsets (`n·q ≤ c`
    /// inside): segments reaching more than half [`LOCAL_MARGIN_MM`] out of it are left
    /// to the whole blocker.
    pub(super) hull: Vec<(Vec2, f64)>,
    pub(super) edges: Vec<Segment>,
    /// Whether every eye point is inside the blocker, when the outline keeps
    /// [`LOCAL_MARGIN_MM`] away from the eye.
    pub(super) eye_inside: Option<bool>,
}

/// How far (mm) the edges a [`LocalBlocker`] leaves out, and the outline from an eye
/// whose side it settles, keep from the segments it is asked about.
pub(super) const LOCAL_MARGIN_MM: f64 = 1.0;

impl<'a> LocalBlocker<'a> {
    /// The blocker as seen by segments from `eye` to `target` (convex, ccw); `None` when
    /// eye and target are collinear.
    pub(crate) fn new(blocker: &'a Blocker, eye: &[Vec2], target: &[Vec2]) -> Option<Self> {
        let hull = hull_small(eye.iter().chain(target).copied());
        let n = hull.len();
        if n < 3 {
            return None;
        }
        let hull: Vec<(Vec2, Vec2, f64)> = (0..n)
            .map(|i| {
                let e = hull[(i + 1) % n] - hull[i];
                (hull[i], e, e.length())
            })
            .collect();
        let outside = |v: &[Vec2]| {
            hull.iter().any(|&(a, e, len)| v.iter().all(|&q| e.cross(q - a) < -LOCAL_MARGIN_MM * len))
        };
        let edges: Vec<Segment> = blocker.edges().filter(|e| !outside(&[e.a, e.b])).collect();
        let hull: Vec<(Vec2, f64)> = hull
            .iter()
            .filter(|h| h.2 > 0.0)
            .map(|&(a, e, len)| {
                let n = e.perp_right() / len;
                (n, n.dot(a))
            })
            .collect();
        // The eye's side: the same for all its points when no edge comes near it and no
        // ring lies inside it.
        let eye_edges: Vec<Segment> = match eye.len() {
            0 => Vec::new(),
            1 => vec![Segment::new(eye[0], eye[0])],
            2 => vec![Segment::new(eye[0], eye[1])],
            m => (0..m).map(|i| Segment::new(eye[i], eye[(i + 1) % m])).collect(),
        };
        let near = blocker
            .edges()
            .any(|e| eye_edges.iter().any(|f| f.distance_2(&e) <= LOCAL_MARGIN_MM * LOCAL_MARGIN_MM));
        let inside_eye =
            |q: Vec2| eye.len() >= 3 && ConvexPolygon::from_ccw_unchecked(eye.to_vec()).contains(q);
        let eye_inside = match eye.first() {
            Some(&e0) if !near && !blocker.vertices().any(inside_eye) => Some(blocker.contains_closed(e0)),
            _ => None,
        };
        Some(LocalBlocker { blocker, hull, edges, eye_inside })
    }

    /// True when every eye point is outside the blocker, its outline at least
    /// [`LOCAL_MARGIN_MM`] away.
    pub(crate) fn eye_outside(&self) -> bool {
        self.eye_inside == Some(false)
    }

    /// True when the segment from `a` to `b` (a part of the eye) lies inside the
    /// blocker, its outline more than a hair away: known for the whole eye when its
    /// side is, else `a` is inside and no edge comes near the part.
    pub(crate) fn holds_eye_part(&self, a: Vec2, b: Vec2) -> bool {
        /// How near (mm) an edge may come to the part.
        const HAIR_MM: f64 = 1e-9;
        match self.eye_inside {
            Some(inside) => inside,
            None => {
                let part = Segment::new(a, b);
                self.blocker.contains_closed(a)
                    && self.edges.iter().all(|e| e.distance_2(&part) > HAIR_MM * HAIR_MM)
            }
        }
    }

    /// The least distance from the segment from `a` to `b` (a part of the eye) to the
    /// blocker's outline within the triangle of `t`, `a` and `b` (grown by a hair
    /// against rounding): a segment from a point of that part of the eye to `t`,
    /// starting inside the blocker, first leaves it no nearer its start. Infinity when
    /// the outline misses the triangle; zero when it is degenerate.
    pub(crate) fn outline_distance_from_eye_in(&self, t: Vec2, a: Vec2, b: Vec2) -> f64 {
        let eye = Segment::new(a, b);
        let mut best = f64::INFINITY;
        if !self.outline_in(t, a, b, |piece| best = best.min(piece.distance_2(&eye))) {
            return 0.0;
        }
        best.sqrt()
    }

    /// The least distance a segment from `t` to a point of the triangle of `t`, `a` and
    /// `b` runs before it first reaches the blocker: none from inside it (or from its
    /// outline), else [`Self::outline_distance_in`]. The side of `t` is the eye's when
    /// that is known, else tested.
    pub(crate) fn distance_before(&self, t: Vec2, a: Vec2, b: Vec2) -> f64 {
        let inside = self.eye_inside.unwrap_or_else(|| self.blocker.contains(t));
        if inside { 0.0 } else { self.outline_distance_in(t, a, b) }
    }

    /// The least distance from `t` to the blocker's outline within the triangle of `t`
    /// and the eye points `a` and `b` (grown by a hair against rounding): a segment from
    /// a point of the eye between `a` and `b` to `t` meets the outline no nearer to `t`.
    /// Infinity when the outline misses the triangle; zero when it is degenerate.
    pub(crate) fn outline_distance_in(&self, t: Vec2, a: Vec2, b: Vec2) -> f64 {
        let mut best = f64::INFINITY;
        if !self.outline_in(t, a, b, |piece| best = best.min(piece.distance_to_point(t))) {
            return 0.0;
        }
        best
    }

    /// The greatest distance from `t` to the blocker's outline within the triangle of
    /// `t`, `a` and `b` (grown by a hair): where a segment from `t` into the triangle
    /// last leaves the blocker is no farther. Infinity when the outline misses the
    /// triangle or it is degenerate.
    pub(crate) fn farthest_outline_in(&self, t: Vec2, a: Vec2, b: Vec2) -> f64 {
        let mut far = f64::NEG_INFINITY;
        let proper = self.outline_in(t, a, b, |piece| {
            far = far.max(piece.a.distance(t)).max(piece.b.distance(t));
        });
        if proper && far.is_finite() { far } else { f64::INFINITY }
    }

    /// Calls `f` with each piece of the kept outline inside the triangle of `t`, `a` and
    /// `b` (grown by a hair against rounding); false when the triangle is degenerate.
    pub(super) fn outline_in(&self, t: Vec2, a: Vec2, b: Vec2, mut f: impl FnMut(Segment)) -> bool {
        let (a, b) = match (a - t).cross(b - t) {
            o if o > 0.0 => (a, b),
            o if o < 0.0 => (b, a),
            _ => return false,
        };
        let tri = [t, a, b];
        for e in &self.edges {
            let (mut lo, mut hi) = (0.0f64, 1.0f64);
            let d = e.b - e.a;
            for i in 0..3 {
                let (u, v) = (tri[i], tri[(i + 1) % 3]);
                let w = v - u;
                let slack = 1e-9 * w.length();
                let f0 = w.cross(e.a - u) + slack;
                let f1 = w.cross(e.b - u) + slack;
                if f0 < 0.0 && f1 < 0.0 {
                    lo = 1.0;
                    hi = 0.0;
                    break;
                }
                if f0 < 0.0 {
                    lo = lo.max(f0 / (f0 - f1));
                } else if f1 < 0.0 {
                    hi = hi.min(f0 / (f0 - f1));
                }
            }
            if lo <= hi {
                f(Segment::new(e.a + d * lo, e.a + d * hi));
            }
        }
        true
    }

    /// [`Blocker::inside_intervals_into`] for a segment from a point of the eye to a point
    /// of the target (any other segment is handed to the whole blocker).
    pub(crate) fn inside_intervals_into(&self, a: Vec2, b: Vec2, out: &mut Vec<(f64, f64)>) {
        let within = |q: Vec2| self.hull.iter().all(|&(n, c)| n.dot(q) <= c + 0.5 * LOCAL_MARGIN_MM);
        if within(a) && within(b) {
            self.blocker.intervals_over(self.edges.iter().copied(), self.eye_inside, a, b, out);
        } else {
            self.blocker.inside_intervals_into(a, b, out);
        }
    }
}
