//! [`Blocker`]: a polygon no sight line may pass through (open: grazing is clear), with
//! the intervals of a segment inside it.

use super::LINE_HALF_WIDTH_MM;
use super::obstruction::SCRATCH;
use super::obstruction::{Scratch, crossing_parameters};
use super::outline::CLEAN_WINDOW;
use crate::base::Base;
use crate::convex::hull_points;
use crate::polygon::{Polygon, ring_contains};
use crate::ring_index::{RingIndex, Run};
use crate::segment::Segment;
use crate::vec2::Vec2;
use std::sync::OnceLock;

/// Something sight cannot pass through: a polygon (with holes) and its bounding box.
#[derive(Debug, Clone, PartialEq)]
pub struct Blocker {
    pub(super) polygon: Polygon,
    pub(super) lo: Vec2,
    pub(super) hi: Vec2,
    /// The convex hull of the outer ring, counter-clockwise, worked out when first asked
    /// ([`Self::hull`]).
    hull: OnceLock<Vec<Vec2>>,
    /// For a long outer ring without holes ([`LONG_RING`] vertices or more), its runs
    /// ([`RingIndex`]), worked out when first asked: the obstruction test reads only the
    /// edges near a segment, and the containment test only the runs at a point's height.
    runs: OnceLock<Option<Vec<Run>>>,
}

/// How far past a segment's box an edge is still read, mm.
const EDGE_BOX_SLACK_MM: f64 = 1e-9;

/// How many vertices make a blocker's ring long enough to be read by runs.
const LONG_RING: usize = 64;

impl Blocker {
    /// A blocker from a polygon.
    #[must_use]
    pub fn new(polygon: Polygon) -> Self {
        let (lo, hi) = ring_box(&polygon.exterior);
        Blocker { polygon, lo, hi, hull: OnceLock::new(), runs: OnceLock::new() }
    }

    /// A blocker the shape of a base.
    #[must_use]
    pub fn from_base(b: &Base) -> Self {
        Blocker::new(Polygon::new(b.vertices_ccw().to_vec(), vec![]))
    }

    /// Makes this blocker the shape of a base, as [`Self::from_base`] does, in the lists
    /// it holds.
    pub(crate) fn set_base(&mut self, b: &Base) {
        self.polygon.exterior.clear();
        self.polygon.exterior.extend_from_slice(&b.vertices_ccw());
        self.polygon.holes.clear();
        (self.lo, self.hi) = ring_box(&self.polygon.exterior);
        self.hull = OnceLock::new();
        self.runs = OnceLock::new();
    }

    /// The index of a long outer ring without holes, `None` for another blocker.
    fn ring_index(&self) -> Option<RingIndex<'_>> {
        let runs = self.runs.get_or_init(|| {
            (self.polygon.holes.is_empty() && self.polygon.exterior.len() >= LONG_RING)
                .then(|| RingIndex::runs_of(&self.polygon.exterior))
        });
        runs.as_deref().map(|r| RingIndex::with_runs(&self.polygon.exterior, r))
    }

    /// Every edge that can meet the box `lo`-`hi` (all of them, for a short ring), in
    /// ring order: the edges of a long ring's runs whose boxes meet it.
    pub(super) fn edges_near(&self, lo: Vec2, hi: Vec2) -> Box<dyn Iterator<Item = Segment> + '_> {
        match self.ring_index() {
            Some(index) => {
                let ring = &self.polygon.exterior;
                let n = ring.len();
                // A millimetre's billionth of slack: an edge that meets the box within the
                // crossing test's tolerance (1e-12 of its length) is read.
                let near: Vec<usize> = index.edges_near(lo, hi, EDGE_BOX_SLACK_MM).collect();
                Box::new(near.into_iter().map(move |i| Segment::new(ring[i], ring[(i + 1) % n])))
            }
            None => Box::new(self.edges()),
        }
    }

    /// The convex hull of the outer ring, counter-clockwise (fewer than three points when
    /// the ring is degenerate), worked out once.
    pub(super) fn hull(&self) -> &[Vec2] {
        self.hull.get_or_init(|| hull_points(&self.polygon.exterior))
    }

    /// Blockers for a linear obstacle (a wall, hedge, treeline): one thin band per leg of
    /// the path, [`LINE_HALF_WIDTH_MM`] to each side and past each end, so that the legs
    /// overlap at the joints and no sight line slips through a joint. A sight line that
    /// crosses the path is blocked; one that passes an end or runs beside the path is
    /// clear (the tie rule for lines).
    #[must_use]
    pub fn from_path(path: &[Vec2]) -> Vec<Blocker> {
        path.windows(2)
            .filter_map(|w| {
                let d = (w[1] - w[0]).normalized()?;
                let n = d.perp_left() * LINE_HALF_WIDTH_MM;
                let (a, b) = (w[0] - d * LINE_HALF_WIDTH_MM, w[1] + d * LINE_HALF_WIDTH_MM);
                Some(Blocker::new(Polygon::new(vec![a - n, b - n, b + n, a + n], vec![])))
            })
            .collect()
    }

    /// The blocking polygon.
    #[must_use]
    pub fn polygon(&self) -> &Polygon {
        &self.polygon
    }

    /// The bounding box, as (lower-left, upper-right).
    #[must_use]
    pub fn bbox(&self) -> (Vec2, Vec2) {
        (self.lo, self.hi)
    }

    /// Every vertex of every ring.
    pub fn vertices(&self) -> impl Iterator<Item = Vec2> + '_ {
        self.rings().flat_map(|r| r.iter().copied())
    }

    /// True when `p` is inside the blocker or on its boundary.
    #[must_use]
    pub fn contains(&self, p: Vec2) -> bool {
        self.contains_closed(p)
    }

    /// The parameter intervals `(t0, t1)` (0 at `a`, 1 at `b`, increasing, of positive
    /// length) over which the segment from `a` to `b` is inside the blocker.
    ///
    /// ```
    /// use vedette_geometry::sight::Blocker;
    /// use vedette_geometry::{Base, BaseSize, Pose, Vec2};
    /// let wood = Blocker::from_base(&Base::new(BaseSize::new(40.0, 20.0), Pose::new(Vec2::new(0.0, 50.0), 90.0)));
    /// let iv = wood.inside_intervals(Vec2::new(0.0, 0.0), Vec2::new(0.0, 100.0));
    /// assert_eq!(iv.len(), 1);
    /// assert!((iv[0].0 - 0.4).abs() < 1e-12 && (iv[0].1 - 0.6).abs() < 1e-12);
    /// ```
    #[must_use]
    pub fn inside_intervals(&self, a: Vec2, b: Vec2) -> Vec<(f64, f64)> {
        let mut out = Vec::new();
        self.inside_intervals_into(a, b, &mut out);
        out
    }

    /// [`Self::inside_intervals`] written into `out` (cleared first), so that a caller
    /// testing many segments reuses one list.
    pub(crate) fn inside_intervals_into(&self, a: Vec2, b: Vec2, out: &mut Vec<(f64, f64)>) {
        self.intervals_over(self.edges(), None, a, b, out);
    }

    /// The inside intervals of the segment from `a` to `b`, crossing only `edges` (every
    /// edge the segment can meet) and, when `start_inside` is given, starting inside or
    /// outside (its start is away from the outline).
    pub(super) fn intervals_over(
        &self,
        edges: impl Iterator<Item = Segment>,
        start_inside: Option<bool>,
        a: Vec2,
        b: Vec2,
        out: &mut Vec<(f64, f64)>,
    ) {
        out.clear();
        let d = b - a;
        if d.length_2() == 0.0
            || !self
                .bbox_overlaps(Vec2::new(a.x.min(b.x), a.y.min(b.y)), Vec2::new(a.x.max(b.x), a.y.max(b.y)))
        {
            return;
        }
        let run = |sc: &mut Scratch, out: &mut Vec<(f64, f64)>| {
            let ts = &mut sc.ts;
            ts.clear();
            ts.extend([0.0, 1.0]);
            // Every crossing clean (through an edge's inside, at an angle): then the
            // windows between crossings alternate inside and outside, and one midpoint
            // test (or the known start) settles them all; otherwise each window's
            // midpoint is tested.
            let mut clean = true;
            for e in edges {
                clean &= crossing_parameters(a, d, &e, ts);
            }
            ts.retain(|t| (0.0..=1.0).contains(t));
            ts.sort_by(f64::total_cmp);
            ts.dedup();
            clean &= ts.windows(2).all(|w| w[1] - w[0] > CLEAN_WINDOW);
            let mut inside = false;
            for (k, w) in ts.windows(2).enumerate() {
                if w[1] - w[0] <= 0.0 {
                    continue;
                }
                inside = match (clean, k, start_inside) {
                    (true, 0, Some(s)) => s,
                    (true, 1.., _) => !inside,
                    _ => self.contains_closed(a + d * ((w[0] + w[1]) / 2.0)),
                };
                if inside {
                    match out.last_mut() {
                        Some(last) if last.1 == w[0] => last.1 = w[1],
                        _ => out.push((w[0], w[1])),
                    }
                }
            }
        };
        SCRATCH.with(|cell| match cell.try_borrow_mut() {
            Ok(mut sc) => run(&mut sc, out),
            Err(_) => run(&mut Scratch::default(), out),
        });
    }

    pub(super) fn rings(&self) -> impl Iterator<Item = &[Vec2]> {
        std::iter::once(self.polygon.exterior.as_slice()).chain(self.polygon.holes.iter().map(Vec::as_slice))
    }

    pub(super) fn edges(&self) -> impl Iterator<Item = Segment> + '_ {
        self.rings().flat_map(|r| (0..r.len()).map(move |i| Segment::new(r[i], r[(i + 1) % r.len()])))
    }

    /// Corners at which a line through them can graze the blocker (all ring vertices;
    /// tangency is checked per line).
    pub(super) fn corners(&self) -> impl Iterator<Item = (Vec2, Vec2, Vec2)> + '_ {
        self.rings().flat_map(|r| {
            let n = r.len();
            (0..n).map(move |i| (r[(i + n - 1) % n], r[i], r[(i + 1) % n]))
        })
    }

    pub(super) fn bbox_overlaps(&self, lo: Vec2, hi: Vec2) -> bool {
        self.lo.x <= hi.x && lo.x <= self.hi.x && self.lo.y <= hi.y && lo.y <= self.hi.y
    }

    pub(super) fn contains_closed(&self, p: Vec2) -> bool {
        p.x >= self.lo.x
            && p.x <= self.hi.x
            && p.y >= self.lo.y
            && p.y <= self.hi.y
            && self.ring_index().map_or_else(|| ring_contains(&self.polygon.exterior, p), |r| r.contains(p))
            && !self.polygon.holes.iter().any(|h| ring_contains(h, p) && !on_ring(h, p))
    }
}

/// The bounding box of a ring, as (lower-left, upper-right).
fn ring_box(ring: &[Vec2]) -> (Vec2, Vec2) {
    let (mut lo, mut hi) =
        (Vec2::new(f64::INFINITY, f64::INFINITY), Vec2::new(f64::NEG_INFINITY, f64::NEG_INFINITY));
    for p in ring {
        lo = Vec2::new(lo.x.min(p.x), lo.y.min(p.y));
        hi = Vec2::new(hi.x.max(p.x), hi.y.max(p.y));
    }
    (lo, hi)
}

pub(super) fn on_ring(ring: &[Vec2], p: Vec2) -> bool {
    let n = ring.len();
    (0..n).any(|i| {
        let (a, b) = (ring[i], ring[(i + 1) % n]);
        p.x >= a.x.min(b.x)
            && p.x <= a.x.max(b.x)
            && p.y >= a.y.min(b.y)
            && p.y <= a.y.max(b.y)
            && (b - a).cross(p - a) == 0.0
    })
}
