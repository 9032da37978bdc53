//! Blockers along one segment: where it is first obstructed ([`Obstruction`]), and
//! whether it is clear.

use super::GRAZE_TOLERANCE_MM;
use super::blocker::Blocker;
use super::outline::{CLEAN_END, CLEAN_SINE};
use crate::segment::Segment;
use crate::vec2::Vec2;

/// Where a sight segment first enters a blocker.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Obstruction {
    /// Index of the blocker in the slice given.
    pub blocker: usize,
    /// The point where the segment enters it, mm.
    pub at: Vec2,
}

/// The blocker (if any, as an index into `blockers`) among those listed in `near`
/// whose interior, or the seam between touching blockers, holds the point `m` of a sight
/// line with unit normal `n`.
pub(super) fn blocking_at(m: Vec2, n: Vec2, blockers: &[&Blocker], near: &[usize]) -> Option<usize> {
    let a = m + n * GRAZE_TOLERANCE_MM;
    let b = m - n * GRAZE_TOLERANCE_MM;
    let first = near.iter().copied().find(|&k| blockers[k].contains_closed(a))?;
    near.iter().any(|&k| blockers[k].contains_closed(b)).then_some(first)
}

/// Where the segment from `a` to `b` first passes through a blocker, or `None` when
/// it is clear (grazing counts as clear).
///
/// ```
/// use vedette_geometry::sight::{Blocker, first_obstruction};
/// use vedette_geometry::{Base, BaseSize, Pose, Vec2};
/// let wall = Blocker::from_base(&Base::new(BaseSize::new(40.0, 10.0), Pose::new(Vec2::new(0.0, 50.0), 90.0)));
/// let hit = first_obstruction(Vec2::new(0.0, 0.0), Vec2::new(0.0, 100.0), &[wall.clone()]).unwrap();
/// assert!((hit.at.y - 45.0).abs() < 1e-9);
/// // Past the wall's end: clear. Exactly along its corner: grazing, clear.
/// assert!(first_obstruction(Vec2::new(21.0, 0.0), Vec2::new(21.0, 100.0), &[wall.clone()]).is_none());
/// assert!(first_obstruction(Vec2::new(20.0, 0.0), Vec2::new(20.0, 100.0), &[wall]).is_none());
/// ```
#[must_use]
pub fn first_obstruction(a: Vec2, b: Vec2, blockers: &[Blocker]) -> Option<Obstruction> {
    first_obstruction_among(a, b, &blockers.iter().collect::<Vec<_>>())
}

/// [`first_obstruction`] over borrowed blockers (`blocker` indexes this slice).
#[must_use]
pub fn first_obstruction_among(a: Vec2, b: Vec2, blockers: &[&Blocker]) -> Option<Obstruction> {
    obstruction(a, b, blockers, None)
}

/// True when the segment from `a` to `b` is clear of every blocker.
#[must_use]
pub fn segment_is_clear(a: Vec2, b: Vec2, blockers: &[Blocker]) -> bool {
    first_obstruction(a, b, blockers).is_none()
}

/// Working lists of [`obstruction`] and [`Blocker::inside_intervals`], kept per thread
/// so that the many segments a search tries allocate (almost) nothing.
#[derive(Default)]
pub(super) struct Scratch {
    pub(super) near: Vec<usize>,
    pub(super) ts: Vec<f64>,
}

thread_local! {
    pub(super) static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::new(Scratch::default());
}

/// Where the segment from `a` to `b` first passes through one of `blockers` (reported
/// as `index[k]` for blocker `k`, or `k` without `index`).
/// True when [`obstruction`] finds the segment from `a` to `b` blocked, found first, where
/// it can be, by a blocker of four corners (a base, a band) that the segment runs
/// through deep inside: [`DEEP_MM`] or more from its outline over [`DEEP_RUN_MM`] of its
/// length. Some window between crossings there is longer than the graze tolerance, and
/// both points beside its middle are inside that blocker, so [`obstruction`] reports it.
pub(crate) fn blocked(a: Vec2, b: Vec2, blockers: &[&Blocker]) -> bool {
    let Some((d, len, lo, hi)) = segment_frame(a, b) else { return false };
    blockers.iter().any(|bl| bl.bbox_overlaps(lo, hi) && bl.runs_deep_through(a, d, len))
        || obstruction(a, b, blockers, None).is_some()
}

/// [`blocked`] for one of many segments tried against the same blockers: a blocker the
/// segment runs deep through moves to the front of `blockers`, where the next segment,
/// likely cut by the same one, meets it first. The answer does not depend on the order.
pub(super) fn blocked_reordering(a: Vec2, b: Vec2, blockers: &mut [&Blocker]) -> bool {
    let Some((d, len, lo, hi)) = segment_frame(a, b) else { return false };
    if let Some(k) =
        blockers.iter().position(|bl| bl.bbox_overlaps(lo, hi) && bl.runs_deep_through(a, d, len))
    {
        blockers[..=k].rotate_right(1);
        return true;
    }
    obstruction(a, b, blockers, None).is_some()
}

/// Depth inside a blocker, and length of the run there, that make a segment blocked
/// outright ([`blocked`]), mm: far above [`GRAZE_TOLERANCE_MM`].
pub(super) const DEEP_MM: f64 = 1e-3;

pub(super) const DEEP_RUN_MM: f64 = 1e-2;

impl Blocker {
    /// True when the blocker is a convex quadrilateral and the segment `a + t·d`
    /// (`t ∈ [0, 1]`, `len = |d|`) runs at least [`DEEP_MM`] inside it over more than
    /// [`DEEP_RUN_MM`].
    pub(super) fn runs_deep_through(&self, a: Vec2, d: Vec2, len: f64) -> bool {
        let ring = &self.polygon.exterior;
        if ring.len() != 4 || !self.polygon.holes.is_empty() {
            return false;
        }
        // Convex, and which way round: every corner turns the same way.
        let turn = |i: usize| (ring[(i + 1) % 4] - ring[i]).cross(ring[(i + 2) % 4] - ring[(i + 1) % 4]);
        let sign = if (0..4).all(|i| turn(i) > 0.0) {
            1.0
        } else if (0..4).all(|i| turn(i) < 0.0) {
            -1.0
        } else {
            return false;
        };
        let (mut lo, mut hi) = (0.0f64, 1.0f64);
        for i in 0..4 {
            let (ea, eb) = (ring[i], ring[(i + 1) % 4]);
            let s = eb - ea;
            // At least DEEP_MM inside this edge where c0 + t·c1 ≥ 0.
            let c0 = sign * s.cross(a - ea) - DEEP_MM * s.length();
            let c1 = sign * s.cross(d);
            if c1 == 0.0 {
                if c0 < 0.0 {
                    return false;
                }
            } else if c1 > 0.0 {
                lo = lo.max(-c0 / c1);
            } else {
                hi = hi.min(-c0 / c1);
            }
        }
        (hi - lo) * len > DEEP_RUN_MM
    }
}

/// The segment from `a` to `b` as its vector, length and box (lower-left, upper-right);
/// `None` when it is a point.
pub(super) fn segment_frame(a: Vec2, b: Vec2) -> Option<(Vec2, f64, Vec2, Vec2)> {
    let d = b - a;
    let len = d.length();
    (len != 0.0)
        .then(|| (d, len, Vec2::new(a.x.min(b.x), a.y.min(b.y)), Vec2::new(a.x.max(b.x), a.y.max(b.y))))
}

pub(super) fn obstruction(
    a: Vec2,
    b: Vec2,
    blockers: &[&Blocker],
    index: Option<&[usize]>,
) -> Option<Obstruction> {
    let (d, len, lo, hi) = segment_frame(a, b)?;
    let first = blockers.iter().position(|bl| bl.bbox_overlaps(lo, hi))?;
    let run = |sc: &mut Scratch| {
        let n = d.perp_left() / len;
        sc.near.clear();
        sc.ts.clear();
        sc.ts.extend([0.0, 1.0]);
        for (k, bl) in blockers.iter().enumerate().skip(first) {
            if !bl.bbox_overlaps(lo, hi) {
                continue;
            }
            sc.near.push(k);
            // Edges away from the segment's box cross its line outside the segment, at
            // parameters the clamping below folds onto its ends: left unread.
            for e in bl.edges_near(lo, hi) {
                crossing_parameters(a, d, &e, &mut sc.ts);
            }
        }
        sc.ts.sort_by(f64::total_cmp);
        sc.ts.dedup();
        for w in sc.ts.windows(2) {
            let (t0, t1) = (w[0].clamp(0.0, 1.0), w[1].clamp(0.0, 1.0));
            if (t1 - t0) * len <= GRAZE_TOLERANCE_MM {
                continue;
            }
            let m = a + d * ((t0 + t1) / 2.0);
            if let Some(k) = blocking_at(m, n, blockers, &sc.near) {
                return Some(Obstruction { blocker: index.map_or(k, |ix| ix[k]), at: a + d * t0 });
            }
        }
        None
    };
    SCRATCH.with(|cell| match cell.try_borrow_mut() {
        Ok(mut sc) => run(&mut sc),
        Err(_) => run(&mut Scratch::default()),
    })
}

/// Pushes the parameters along `a + t·d` where the line meets the edge `e`; returns
/// false unless the meeting is clean: a single crossing through the edge's inside, away
/// from its ends and at an angle (see [`CLEAN_WINDOW`]).
pub(super) fn crossing_parameters(a: Vec2, d: Vec2, e: &Segment, out: &mut Vec<f64>) -> bool {
    let s = e.b - e.a;
    let denom = d.cross(s);
    let qp = e.a - a;
    if denom == 0.0 {
        if qp.cross(d) == 0.0 {
            let dd = d.length_2();
            out.push(qp.dot(d) / dd);
            out.push((e.b - a).dot(d) / dd);
            return false;
        }
        return true;
    }
    let t = qp.cross(s) / denom;
    let u = qp.cross(d) / denom;
    if (-1e-12..=1.0 + 1e-12).contains(&u) {
        out.push(t);
        // Near an end, or nearly along the edge: not clean.
        return u > CLEAN_END
            && u < 1.0 - CLEAN_END
            && denom * denom > CLEAN_SINE * CLEAN_SINE * (d.length_2() * s.length_2());
    }
    // A line missing the edge only just: the midpoint tests decide.
    !(-CLEAN_END..=1.0 + CLEAN_END).contains(&u)
}
