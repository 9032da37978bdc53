//! A large ring (a deployment area's outline: thousands of vertices, its round corners
//! written as many short edges) asked about small shapes (bases), answered exactly as
//! the plain scans over every edge answer (the same numbers to the last bit), but with
//! most of the ring passed over unread.
//!
//! The ring is cut into **runs** of consecutive vertices, each with the box of its
//! vertices and of the vertex after its last, so that every edge from a vertex of the
//! run lies in the run's box. A run whose box settles a question is passed over whole:
//! - whether an edge meets a box, and whether a point lies on an edge, or has a
//!   crossing of the ray to its right (parity): a run whose box misses the box, the
//!   point, or the point's height holds no such edge;
//! - the nearest edge to a point or a base, as the plain scans find it: they take the
//!   edges in ring order and measure an edge only when its box is nearer than the
//!   nearest so far. A run whose box is no nearer than that holds only edges the plain
//!   scan passes over, and the nearest so far does not change while it does; so the
//!   edges measured, and the answer, are the same;
//! - the area of the ring inside a convex polygon, by Sutherland–Hodgman clipping
//!   against the polygon's sides in turn ([`crate::polygon`]): a run of vertices inside
//!   the first `j` sides and outside side `j + 1` (all of it, its box being so) goes
//!   through the first `j` clips unchanged and is dropped by the next with nothing
//!   written between its first and last vertices. Its vertices between those two change
//!   nothing, so they are left out before clipping, and the clipped ring is the same,
//!   vertex for vertex (the ring's first and last vertices, where each clip starts, are
//!   always kept).

use crate::convex::signed_area;
use crate::polygon::{ConvexPolygon, HalfPlane, clip_ring_into};
use crate::segment::Segment;
use crate::vec2::Vec2;
use std::borrow::Cow;

/// Vertices per run.
const RUN: usize = 16;

/// How surely a run's box corner must lie on one side of a clipping line to count as
/// there, mm: far more than the rounding of a side test on a table (about 1e-10 mm of a
/// side's length), so that every vertex in the box is on that side as the clip reckons.
const SIDE_MARGIN_MM: f64 = 1e-6;

/// How much nearer than its box's gap a measured distance may come, mm: rounding only
/// (about 1e-10 mm on a table), for the search of the nearest edge in any order.
const LEAST_MARGIN_MM: f64 = 1e-6;

/// Consecutive vertices `start..end` and the box of them and of the vertex after.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Run {
    start: usize,
    end: usize,
    lo: Vec2,
    hi: Vec2,
}

impl Run {
    /// The run's box's gap to the box (`lo`, `hi`) along x and y (zero where they
    /// overlap), as the plain scans reckon an edge's.
    fn gap(&self, lo: Vec2, hi: Vec2) -> (f64, f64) {
        ((self.lo.x - hi.x).max(lo.x - self.hi.x).max(0.0), (self.lo.y - hi.y).max(lo.y - self.hi.y).max(0.0))
    }

    /// True when no edge from a vertex of the run crosses the height of `p` (as
    /// [`crate::polygon::ring_contains`] counts crossings).
    fn misses_height(&self, p: Vec2) -> bool {
        self.hi.y <= p.y || self.lo.y > p.y
    }
}

/// A ring cut into runs ([`Run`]).
#[derive(Debug, Clone)]
pub(crate) struct RingIndex<'a> {
    ring: &'a [Vec2],
    runs: Cow<'a, [Run]>,
}

impl<'a> RingIndex<'a> {
    /// The index of `ring` (closed implicitly: the last vertex joins the first).
    pub(crate) fn new(ring: &'a [Vec2]) -> Self {
        RingIndex { ring, runs: Cow::Owned(Self::runs_of(ring)) }
    }

    /// The index of `ring` over its runs worked out before ([`Self::runs_of`]), kept
    /// by a caller that asks about the ring many times.
    pub(crate) fn with_runs(ring: &'a [Vec2], runs: &'a [Run]) -> Self {
        RingIndex { ring, runs: Cow::Borrowed(runs) }
    }

    /// The edges (by their first vertex) that may meet the box `lo`-`hi`: those of the
    /// runs whose boxes meet it grown by `pad` mm, in ring order. Every edge that meets
    /// the box is among them.
    pub(crate) fn edges_near(&self, lo: Vec2, hi: Vec2, pad: f64) -> impl Iterator<Item = usize> + '_ {
        let pad = Vec2::new(pad, pad);
        let (lo, hi) = (lo - pad, hi + pad);
        self.runs.iter().filter(move |run| run.gap(lo, hi) == (0.0, 0.0)).flat_map(|run| run.start..run.end)
    }

    /// The runs of `ring` ([`Run`]).
    pub(crate) fn runs_of(ring: &[Vec2]) -> Vec<Run> {
        let n = ring.len();
        (0..n)
            .step_by(RUN)
            .map(|start| {
                let end = (start + RUN).min(n);
                let (mut lo, mut hi) = (ring[start], ring[start]);
                for k in start + 1..=end {
                    let p = ring[k % n];
                    lo = Vec2::new(lo.x.min(p.x), lo.y.min(p.y));
                    hi = Vec2::new(hi.x.max(p.x), hi.y.max(p.y));
                }
                Run { start, end, lo, hi }
            })
            .collect()
    }

    /// The edge from vertex `i`.
    fn edge(&self, i: usize) -> (Vec2, Vec2) {
        (self.ring[i], self.ring[(i + 1) % self.ring.len()])
    }

    /// True when some edge's box meets the box `lo`-`hi` (as `ring_meets_box`).
    pub(crate) fn meets_box(&self, lo: Vec2, hi: Vec2) -> bool {
        self.runs.iter().any(|run| {
            run.gap(lo, hi) == (0.0, 0.0)
                && (run.start..run.end).any(|i| {
                    let (a, b) = self.edge(i);
                    a.x.max(b.x) >= lo.x
                        && a.x.min(b.x) <= hi.x
                        && a.y.max(b.y) >= lo.y
                        && a.y.min(b.y) <= hi.y
                })
        })
    }

    /// [`crate::polygon::ring_contains`]: inside by the even-odd rule, or on the ring.
    pub(crate) fn contains(&self, p: Vec2) -> bool {
        // On an edge (in a run whose box holds the point)?
        let on = self.runs.iter().any(|run| {
            run.gap(p, p) == (0.0, 0.0)
                && (run.start..run.end).any(|i| {
                    let (a, b) = self.edge(i);
                    !(p.x < a.x.min(b.x) || p.x > a.x.max(b.x) || p.y < a.y.min(b.y) || p.y > a.y.max(b.y))
                        && (b - a).cross(p - a) == 0.0
                })
        });
        // Else the parity of the crossings of the ray to its right (in runs that span
        // its height).
        on || {
            let mut inside = false;
            for run in self.runs.iter().filter(|run| !run.misses_height(p)) {
                for i in run.start..run.end {
                    let (a, b) = self.edge(i);
                    if (a.y > p.y) != (b.y > p.y) {
                        let x = a.x + (p.y - a.y) / (b.y - a.y) * (b.x - a.x);
                        if p.x < x {
                            inside = !inside;
                        }
                    }
                }
            }
            inside
        }
    }

    /// The area of the ring (either orientation) inside the convex polygon `clip`, mm²,
    /// as `Polygon::area_inside` reckons each of its rings: `planes` are the clip's
    /// half-planes and (`lo`, `hi`) its box.
    pub(crate) fn area_inside(&self, clip: &ConvexPolygon, planes: &[HalfPlane], lo: Vec2, hi: Vec2) -> f64 {
        if !self.meets_box(lo, hi) {
            return match clip.vertices().first() {
                Some(&v) if self.contains(v) => clip.area(),
                _ => 0.0,
            };
        }
        // The ring less the middle of each run that the clips drop whole.
        let mut cur: Vec<Vec2> = Vec::with_capacity(2 * self.runs.len() + 64);
        for run in self.runs.iter() {
            if run.end - run.start > 2 && dropped_by(planes, run).is_some() {
                cur.push(self.ring[run.start]);
                cur.push(self.ring[run.end - 1]);
            } else {
                cur.extend_from_slice(&self.ring[run.start..run.end]);
            }
        }
        let mut next = Vec::with_capacity(cur.len() + planes.len());
        for h in planes {
            clip_ring_into(&cur, h, &mut next);
            std::mem::swap(&mut cur, &mut next);
        }
        signed_area(&cur).abs()
    }

    /// Each of `points` against the ring (as `ring_scan`): whether the ring contains it
    /// and its squared distance to the ring, mm².
    pub(crate) fn scan(&self, points: &[Vec2]) -> Vec<(bool, f64)> {
        points.iter().map(|&p| (self.contains(p), self.distance_2(p))).collect()
    }

    /// The squared distance from `p` to the nearest edge, mm², as `ring_scan` finds it
    /// (infinite for no edge).
    fn distance_2(&self, p: Vec2) -> f64 {
        let n = self.ring.len();
        if n == 0 {
            return f64::INFINITY;
        }
        let gap_2 = |(gx, gy): (f64, f64)| gx * gx + gy * gy;
        let measure = |i: usize| {
            let (a, b) = self.edge(i);
            Segment::new(a, b).distance_2_to_point(p)
        };
        // The plain scan takes the edge into the first vertex first.
        let rank = |i: usize| (i + 1) % n;
        let beyond = |best_2: f64| (best_2.sqrt() + LEAST_MARGIN_MM).powi(2);
        let least = self.least(
            |run| gap_2(run.gap(p, p)),
            |i| gap_2(edge_gap(self.edge(i), p, p)),
            measure,
            beyond,
            rank,
        );
        if let Some((m, i)) = least
            && gap_2(edge_gap(self.edge(i), p, p)) <= m
        {
            return m;
        }
        self.scanned_distance_2(p)
    }

    /// [`Self::distance_2`] by the plain scan itself, each run passed over that it would
    /// pass over.
    fn scanned_distance_2(&self, p: Vec2) -> f64 {
        let n = self.ring.len();
        if n == 0 {
            return f64::INFINITY;
        }
        let mut scan = PointScan { p, on: false, parity: false, best_2: f64::INFINITY };
        scan.edge(self.edge(n - 1));
        for run in self.runs.iter() {
            let (gx, gy) = run.gap(p, p);
            if gx * gx + gy * gy >= scan.best_2 {
                continue;
            }
            for i in run.start..run.end.min(n - 1) {
                scan.edge(self.edge(i));
            }
        }
        scan.best_2
    }

    /// The distance from the convex polygon `poly` (box `lo`, `hi`) to this ring's
    /// nearest edge, mm, and that edge (the first in ring order of those as near):
    /// `None` for no edge, or no distance that is a number.
    pub(crate) fn nearest_edge(&self, poly: &[Vec2], lo: Vec2, hi: Vec2) -> Option<(f64, usize)> {
        let gap_2 = |(gx, gy): (f64, f64)| gx * gx + gy * gy;
        let measure = |i: usize| {
            let (a, b) = self.edge(i);
            crate::convex::segment_distance_mm(&Segment::new(a, b), poly)
        };
        let beyond = |best: f64| (best + LEAST_MARGIN_MM).powi(2);
        self.least(
            |run| gap_2(run.gap(lo, hi)),
            |i| gap_2(edge_gap(self.edge(i), lo, hi)),
            measure,
            beyond,
            |i| i,
        )
    }

    /// The box gap, along x and y, of the edge from vertex `i` to the box (`lo`, `hi`),
    /// as the plain scans reckon it.
    pub(crate) fn edge_gap(&self, i: usize, lo: Vec2, hi: Vec2) -> (f64, f64) {
        edge_gap(self.edge(i), lo, hi)
    }

    /// The least `measure` of an edge, and the first edge in `rank` order to have it;
    /// `None` when no edge has a measure that is a number. `run_bound` and `edge_bound`
    /// are lower bounds of the measures of a run's and of an edge's edges, less the
    /// rounding of both: a run or edge whose bound is beyond `beyond(least so far)` holds
    /// no edge as small, and is passed over. The run of the least bound is taken first.
    fn least(
        &self,
        run_bound: impl Fn(&Run) -> f64,
        edge_bound: impl Fn(usize) -> f64,
        measure: impl Fn(usize) -> f64,
        beyond: impl Fn(f64) -> f64,
        rank: impl Fn(usize) -> usize,
    ) -> Option<(f64, usize)> {
        let bounds: Vec<f64> = self.runs.iter().map(run_bound).collect();
        let first = (0..bounds.len()).min_by(|&a, &b| bounds[a].total_cmp(&bounds[b]))?;
        let mut best: Option<(f64, usize)> = None;
        let mut limit = f64::INFINITY;
        for k in std::iter::once(first).chain((0..self.runs.len()).filter(|&k| k != first)) {
            let run = self.runs[k];
            if bounds[k] > limit {
                continue;
            }
            for i in run.start..run.end {
                if edge_bound(i) > limit {
                    continue;
                }
                let m = measure(i);
                let better = match best {
                    None => !m.is_nan(),
                    Some((b, j)) => m < b || (m == b && rank(i) < rank(j)),
                };
                if better {
                    best = Some((m, i));
                    limit = beyond(m);
                }
            }
        }
        best
    }

    /// The nearest edge to the convex polygon `poly` (box `lo`, `hi`) continued from
    /// `best`, mm, as the plain fold over the edges in ring order finds it: an edge whose
    /// box is no nearer than the nearest so far is not measured.
    pub(crate) fn nearest_from(&self, best: f64, poly: &[Vec2], lo: Vec2, hi: Vec2) -> f64 {
        let mut best = best;
        for run in self.runs.iter() {
            // Every edge of the run has a box at least this far (a hair more than
            // `best`: the plain fold's `hypot` rounds), so the fold passes them all over.
            let (gx, gy) = run.gap(lo, hi);
            if gx * gx + gy * gy >= best * best * (1.0 + 1e-9) {
                continue;
            }
            for i in run.start..run.end {
                let (gap_x, gap_y) = self.edge_gap(i, lo, hi);
                // (As the plain fold: measured unless its box is surely no nearer.)
                if gap_x.hypot(gap_y) >= best {
                    continue;
                }
                let (a, b) = self.edge(i);
                best = best.min(crate::convex::segment_distance_mm(&Segment::new(a, b), poly));
            }
        }
        best
    }
}

/// The box gap, along x and y, of the edge (`a`, `b`) to the box (`lo`, `hi`) (zero
/// where they overlap), reckoned as the plain scans reckon it.
fn edge_gap((a, b): (Vec2, Vec2), lo: Vec2, hi: Vec2) -> (f64, f64) {
    let (x0, x1, y0, y1) = (a.x.min(b.x), a.x.max(b.x), a.y.min(b.y), a.y.max(b.y));
    ((x0 - hi.x).max(lo.x - x1).max(0.0), (y0 - hi.y).max(lo.y - y1).max(0.0))
}

/// One point's scan of the edges ([`RingIndex::scan`]): on an edge, the crossing parity
/// of the ray to its right, and the squared distance to the nearest edge so far.
struct PointScan {
    p: Vec2,
    on: bool,
    parity: bool,
    best_2: f64,
}

impl PointScan {
    /// Takes the edge from `a` to `b` into account, as `ring_scan` does.
    fn edge(&mut self, (a, b): (Vec2, Vec2)) {
        let p = self.p;
        let (x0, x1, y0, y1) = (a.x.min(b.x), a.x.max(b.x), a.y.min(b.y), a.y.max(b.y));
        let (gx, gy) = ((x0 - p.x).max(p.x - x1).max(0.0), (y0 - p.y).max(p.y - y1).max(0.0));
        if gx * gx + gy * gy < self.best_2 {
            self.best_2 = self.best_2.min(Segment::new(a, b).distance_2_to_point(p));
        }
        if gx == 0.0 && gy == 0.0 && (b - a).cross(p - a) == 0.0 {
            self.on = true;
        }
        if (a.y > p.y) != (b.y > p.y) {
            let x = a.x + (p.y - a.y) / (b.y - a.y) * (b.x - a.x);
            if p.x < x {
                self.parity = !self.parity;
            }
        }
    }
}

/// For a run whose whole box lies inside the first `j` of `planes` and outside plane
/// `j` (each by [`SIDE_MARGIN_MM`] at least), `Some(j)`: the clips keep it through the
/// first `j` and drop it at plane `j`. `None` for any other run.
fn dropped_by(planes: &[HalfPlane], run: &Run) -> Option<usize> {
    let corners = [run.lo, Vec2::new(run.hi.x, run.lo.y), run.hi, Vec2::new(run.lo.x, run.hi.y)];
    let mut first: Option<usize> = None;
    for q in corners {
        // The first plane this corner is surely outside, all before it surely inside.
        let mut out = None;
        for (j, h) in planes.iter().enumerate() {
            let side = h.side(q);
            let margin = SIDE_MARGIN_MM * h.direction.length();
            if side < -margin {
                out = Some(j);
                break;
            }
            if side <= margin {
                return None;
            }
        }
        let j = out?;
        if first.is_some_and(|f| f != j) {
            return None;
        }
        first = Some(j);
    }
    first
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::polygon::{Polygon, ring_contains, ring_scan};

    /// A wavy ring of `n` vertices about (500, 500), star-shaped, with a stretch of
    /// vertices in line (its bottom side).
    fn star(n: u32, waves: f64) -> Vec<Vec2> {
        (0..n)
            .map(|k| {
                let t = f64::from(k) / f64::from(n) * std::f64::consts::TAU;
                let r = if t > 4.0 && t < 5.4 {
                    300.0 / (t - 1.5 * std::f64::consts::PI).cos()
                } else {
                    300.0 + 40.0 * (waves * t).sin()
                };
                Vec2::new(500.0 + r * t.cos(), 500.0 + r * t.sin())
            })
            .collect()
    }

    /// The plain nearest-edge fold (`DeploymentArea::base_margin_mm_known` inside).
    fn plain_nearest(ring: &[Vec2], poly: &[Vec2], lo: Vec2, hi: Vec2) -> f64 {
        let n = ring.len();
        (0..n).map(|i| Segment::new(ring[i], ring[(i + 1) % n])).fold(f64::INFINITY, |best, e| {
            let gap_x = (e.a.x.min(e.b.x) - hi.x).max(lo.x - e.a.x.max(e.b.x)).max(0.0);
            let gap_y = (e.a.y.min(e.b.y) - hi.y).max(lo.y - e.a.y.max(e.b.y)).max(0.0);
            if gap_x.hypot(gap_y) >= best {
                best
            } else {
                best.min(crate::convex::segment_distance_mm(&e, poly))
            }
        })
    }

    /// Every query of the index against the plain scans, to the bit, for rectangles
    /// `w` x `d` turned `turn` degrees at each of `centres`.
    fn check(ring: &[Vec2], centres: &[Vec2], (w, d, turn): (f64, f64, f64)) {
        let index = RingIndex::new(ring);
        let polygon = Polygon::new(ring.to_vec(), vec![]);
        for &c in centres {
            let corners: Vec<Vec2> = [(-w, -d), (w, -d), (w, d), (-w, d)]
                .iter()
                .map(|&(x, y)| c + Vec2::new(x / 2.0, y / 2.0).rotated_deg(turn))
                .collect();
            let clip = ConvexPolygon::from_ccw_unchecked(corners.clone());
            let (lo, hi) = crate::convex::bbox(corners.iter().copied());
            let planes = clip.half_planes();
            let area = index.area_inside(&clip, &planes, lo, hi);
            assert_eq!(area.to_bits(), polygon.area_inside(&clip).to_bits(), "{c:?}");
            let scanned = ring_scan(ring, &corners);
            for (k, &q) in corners.iter().enumerate() {
                assert_eq!(index.contains(q), ring_contains(ring, q));
                let (inside, d2) = index.scan(&[q])[0];
                assert_eq!((inside, d2.to_bits()), (scanned[k].0, scanned[k].1.to_bits()), "{q:?}");
                assert_eq!(index.scanned_distance_2(q).to_bits(), scanned[k].1.to_bits(), "{q:?}");
            }
            let plain = plain_nearest(ring, &corners, lo, hi);
            assert_eq!(index.nearest_from(f64::INFINITY, &corners, lo, hi).to_bits(), plain.to_bits());
            let (m, i) = index.nearest_edge(&corners, lo, hi).expect("a ring of edges");
            let (gx, gy) = index.edge_gap(i, lo, hi);
            if gx.hypot(gy) <= m {
                assert_eq!(m.to_bits(), plain.to_bits(), "{c:?}");
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(crate::test_support::proptest_config(200, 59))]
        /// Rectangles of any size and heading anywhere on and about wavy rings of 3 to
        /// 900 vertices, either orientation.
        #[test]
        fn the_index_answers_as_the_plain_scans(
            n in 3u32..900,
            waves in 0.0f64..12.0,
            reversed in proptest::bool::ANY,
            shape in (1.0f64..200.0, 1.0f64..100.0, -180.0f64..180.0),
            centres in proptest::collection::vec((0.0f64..1000.0, 0.0f64..1000.0), 20),
        ) {
            let mut ring = star(n, waves);
            if reversed {
                ring.reverse();
            }
            let centres: Vec<Vec2> = centres.iter().map(|&(x, y)| Vec2::new(x, y)).collect();
            check(&ring, &centres, shape);
        }
    }

    #[test]
    fn ties_on_a_lattice_answer_as_the_plain_scans() {
        // A square ring with a vertex every 10 mm (runs in line) and rectangles on a 5 mm
        // lattice square to it: sides along its edges, corners on its vertices, boxes as
        // far from two edges, clips dropping runs that touch their lines.
        let side = |k: i32| f64::from(k) * 10.0;
        let ring: Vec<Vec2> = (0..40)
            .map(|k| Vec2::new(side(k), 0.0))
            .chain((0..40).map(|k| Vec2::new(400.0, side(k))))
            .chain((0..40).map(|k| Vec2::new(400.0 - side(k), 400.0)))
            .chain((0..40).map(|k| Vec2::new(0.0, 400.0 - side(k))))
            .collect();
        let centres: Vec<Vec2> = (0..100)
            .flat_map(|i| {
                (0..100).map(move |j| Vec2::new(-50.0 + 5.0 * f64::from(i), -50.0 + 5.0 * f64::from(j)))
            })
            .collect();
        for shape in [(20.0, 20.0, 0.0), (40.0, 10.0, 90.0), (30.0, 30.0, 45.0)] {
            check(&ring, &centres, shape);
        }
        // Rings of one, two and three vertices.
        for n in 1..=3 {
            let tiny: Vec<Vec2> = (0..n).map(|k| Vec2::new(f64::from(k) * 10.0, f64::from(k * k))).collect();
            let index = RingIndex::new(&tiny);
            for &q in &centres[..200] {
                assert_eq!(index.contains(q), ring_contains(&tiny, q));
                assert_eq!(index.scan(&[q])[0].1.to_bits(), ring_scan(&tiny, &[q])[0].1.to_bits());
            }
        }
    }
}
