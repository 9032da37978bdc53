//! Checking a sight segment against the pair's limits (blind zones, spotting depths,
//! Pro Patria's visibility rules, maximum visibility, field of view), with the cut
//! that refutes it.

use super::{Beyond, BlockerOrigin, LIMIT_SLACK_MM, Limit, Pair, TerrainSight};
use crate::base::Base;
use crate::los::blind_zone_on_line;
use crate::los::explanation::{Cut, CutBy, TerrainRule};
use crate::los::sight_rules::HillSight;
use crate::los::spotting_depth::run_lower_bound;
use crate::segment::Segment;
use crate::sight::{Blocker, first_obstruction_among};
use crate::terrain::TerrainKind;
use crate::vec2::Vec2;

impl<'i, 't> TerrainSight<'i, 't> {
    /// Checks one sight segment from eye point `e` to target point `t` against every
    /// limit (blockers included). With `all`, collects every cut; otherwise stops at the
    /// first. Returns true when clear.
    pub(super) fn check(
        &self,
        p: &Pair<'_>,
        e: Vec2,
        t: Vec2,
        blockers: &[&Blocker],
        all: bool,
        cuts: &mut Vec<Cut>,
    ) -> bool {
        let d = t - e;
        let len = d.length();
        let mut clear = true;
        if let Some(h) = &p.field
            && h.signed_distance(t) < -LIMIT_SLACK_MM
        {
            cuts.push(Cut { by: CutBy::FieldOfView, at: t, stretch: None });
            if !all {
                return false;
            }
            clear = false;
        }
        if let Some(m) = p.max_mm
            && len > m + LIMIT_SLACK_MM
        {
            cuts.push(Cut { by: CutBy::MaxVisibility { limit_mm: m }, at: e + d * (m / len), stretch: None });
            if !all {
                return false;
            }
            clear = false;
        }
        if len == 0.0 {
            return clear;
        }
        // Stopping at the first cut, the limits go first: they are cheaper than the
        // blockers and, in the bounded search, cut most lines (the verdict is the same).
        let blockers_last = !all && !p.limits.is_empty();
        if all {
            // Every blocker that cuts on its own, then the union (seams).
            let mut any = false;
            for (i, b) in blockers.iter().enumerate() {
                if let Some(o) = first_obstruction_among(e, t, &[*b]) {
                    cuts.push(Cut { by: self.cut_by(p.origin(i)), at: o.at, stretch: None });
                    any = true;
                }
            }
            if !any && let Some(o) = first_obstruction_among(e, t, blockers) {
                cuts.push(Cut { by: self.cut_by(p.origin(o.blocker)), at: o.at, stretch: None });
                any = true;
            }
            clear &= !any;
        } else if !blockers_last && let Some(o) = first_obstruction_among(e, t, blockers) {
            cuts.push(Cut { by: self.cut_by(p.origin(o.blocker)), at: o.at, stretch: None });
            return false;
        }
        if p.limits.is_empty() {
            return clear;
        }
        // One list of intervals, reused for every shape the segment is clipped to (and
        // by every check on this thread).
        let mut reused = ReusedIntervals::take();
        let ivs = &mut reused.0;
        let s_exit = leave_param(p.spotter_shape, e, t);
        let t_entry = enter_param(p.target_shape, e, t);
        for (li, (f, limit)) in p.limits.iter().enumerate() {
            let cut = |rule: TerrainRule, at: Vec2| Cut {
                by: CutBy::Terrain { feature: f.index, kind: f.kind, rule },
                at,
                stretch: None,
            };
            let mut fail: Option<Cut> = None;
            match *limit {
                Limit::Fraction { fraction, multiple } => {
                    let from = e + d * (1.0 - fraction);
                    if let Some(o) = first_obstruction_among(from, t, &f.blockers.iter().collect::<Vec<_>>())
                    {
                        let mut c = cut(TerrainRule::BlindZone { multiple }, o.at);
                        if all {
                            // Explaining: the zone on this line, from the blocker's far
                            // edge along it (before the target).
                            let far = f
                                .blockers
                                .iter()
                                .flat_map(|b| clipped(b.inside_intervals(e, t), 0.0, t_entry))
                                .map(|iv| iv.1)
                                .fold(f64::NEG_INFINITY, f64::max);
                            if far.is_finite() {
                                c.stretch = Some(blind_zone_on_line(e, e + d * far, multiple));
                            }
                        }
                        fail = Some(c);
                    }
                }
                Limit::InCover(depth) => {
                    let mut run = 0.0;
                    let mut first: Option<f64> = None;
                    'outer: for k in 0..f.blockers.len() {
                        p.limit_intervals(li, k, e, t, ivs);
                        for (a, z) in clipped_in(ivs, s_exit, t_entry) {
                            let piece = (z - a) * len;
                            let start = *first.get_or_insert(a);
                            if run + piece > depth + LIMIT_SLACK_MM {
                                let at = e + d * (a + (depth - run).max(0.0) / len);
                                let mut c = cut(TerrainRule::SpottingDepth { depth_mm: depth }, at);
                                if all {
                                    c.stretch = Some(Segment::new(e + d * start, at));
                                }
                                fail = Some(c);
                                break 'outer;
                            }
                            run += piece;
                        }
                    }
                }
                Limit::Within(limit) => {
                    let ivs: Vec<(f64, f64)> = f
                        .blockers
                        .iter()
                        .flat_map(|b| clipped(b.inside_intervals(e, t), s_exit, t_entry))
                        .collect();
                    if let Some(first) = ivs.first()
                        && (t_entry - s_exit) * len > limit + LIMIT_SLACK_MM
                    {
                        fail = Some(cut(TerrainRule::VisibleWithin { limit_mm: limit }, e + d * first.0));
                    }
                }
                Limit::SeesPast(limit) => {
                    let last = f
                        .blockers
                        .iter()
                        .flat_map(|b| clipped(b.inside_intervals(e, t), s_exit, t_entry))
                        .map(|iv| iv.1)
                        .fold(f64::NEG_INFINITY, f64::max);
                    if last.is_finite() && (t_entry - last) * len > limit + LIMIT_SLACK_MM {
                        fail = Some(cut(TerrainRule::SeesPast { limit_mm: limit }, e + d * last));
                    }
                }
                Limit::Line { depth, beyond } => {
                    'line: for k in 0..f.blockers.len() {
                        p.limit_intervals(li, k, e, t, ivs);
                        for (a, z) in clipped_in(ivs, s_exit, t_entry) {
                            let c = (a + z) / 2.0;
                            if (t_entry - c) * len <= depth + LIMIT_SLACK_MM
                                || (c - s_exit) * len <= depth + LIMIT_SLACK_MM
                            {
                                continue;
                            }
                            let rule = match beyond {
                                Beyond::Clear => continue,
                                Beyond::Blocks => TerrainRule::Blocks,
                                Beyond::Fraction { fraction, multiple } => {
                                    if c < 1.0 - fraction {
                                        continue;
                                    }
                                    TerrainRule::BlindZone { multiple }
                                }
                            };
                            fail = Some(cut(rule, e + d * a));
                            break 'line;
                        }
                    }
                }
            }
            if let Some(c) = fail {
                cuts.push(c);
                if !all {
                    return false;
                }
                clear = false;
            }
        }
        if blockers_last && let Some(o) = first_obstruction_among(e, t, blockers) {
            cuts.push(Cut { by: self.cut_by(p.origin(o.blocker)), at: o.at, stretch: None });
            return false;
        }
        clear
    }

    pub(super) fn cut_by(&self, s: BlockerOrigin) -> CutBy {
        match s {
            BlockerOrigin::Base(r) => CutBy::Base(r),
            BlockerOrigin::Screen(a, b) => CutBy::SkirmishScreen(a, b),
            BlockerOrigin::Terrain(i) => {
                let kind = self.table.terrain[i].kind;
                // Under the crest reading a hill blocks by its crests alone.
                let rule = match self.rules.hills {
                    HillSight::CrestLines { reach_mm } if kind == TerrainKind::Hill => {
                        TerrainRule::Crest { reach_mm }
                    }
                    _ => TerrainRule::Blocks,
                };
                CutBy::Terrain { feature: i, kind, rule }
            }
        }
    }
}

/// The distance from a base to the rings (outline and holes) of a polygon blocker, mm.
pub(super) fn ring_distance(bl: &Blocker, b: &Base) -> f64 {
    let poly = bl.polygon();
    let mut best = f64::INFINITY;
    for ring in std::iter::once(&poly.exterior).chain(poly.holes.iter()) {
        let n = ring.len();
        for i in 0..n {
            let s = Segment::new(ring[i], ring[(i + 1) % n]);
            for e in b.edges() {
                best = best.min(s.closest_points(&e).distance_mm);
            }
        }
    }
    best
}

thread_local! {
    /// This thread's spare list for [`ReusedIntervals`].
    static INTERVALS: std::cell::Cell<Vec<(f64, f64)>> = const { std::cell::Cell::new(Vec::new()) };
}

/// A list of intervals borrowed from this thread's spare one (no allocation per
/// segment checked), handed back when dropped.
pub(super) struct ReusedIntervals(Vec<(f64, f64)>);

impl ReusedIntervals {
    pub(super) fn take() -> Self {
        ReusedIntervals(INTERVALS.with(std::cell::Cell::take))
    }
}

impl Drop for ReusedIntervals {
    fn drop(&mut self) {
        let v = std::mem::take(&mut self.0);
        INTERVALS.with(|c| c.set(v));
    }
}

/// True when the intervals (in any order) cover all of `[0, 1]`.
pub(super) fn covers_unit(ivs: &[(f64, f64)]) -> bool {
    let mut sorted = ivs.to_vec();
    sorted.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut reach = 0.0;
    for (lo, hi) in sorted {
        if lo > reach {
            return false;
        }
        reach = f64::max(reach, hi);
    }
    reach >= 1.0
}

/// The intervals clipped to `[lo, hi]`, keeping those of positive length.
pub(super) fn clipped(ivs: Vec<(f64, f64)>, lo: f64, hi: f64) -> Vec<(f64, f64)> {
    clipped_in(&ivs, lo, hi).collect()
}

/// [`clipped`] over borrowed intervals.
pub(super) fn clipped_in(ivs: &[(f64, f64)], lo: f64, hi: f64) -> impl Iterator<Item = (f64, f64)> + '_ {
    ivs.iter().map(move |&(a, b)| (a.max(lo), b.min(hi))).filter(|(a, b)| b > a)
}

/// The closed part of the segment from `a` to `b` inside the convex blocker `c` (a
/// base), as a parameter interval of positive length. The crossing parameters are those
/// [`Blocker::inside_intervals`] finds, but the one interval of a convex shape is cut
/// from the edges' half-planes at once (no point-in-polygon test per window).
pub(super) fn convex_inside(c: &Blocker, a: Vec2, b: Vec2) -> Option<(f64, f64)> {
    let ring = &c.polygon().exterior;
    let n = ring.len();
    if n < 3 {
        return None;
    }
    // Inside is left of each edge for a counter-clockwise ring, right for a clockwise one.
    let ccw = crate::convex::signed_area(ring) > 0.0;
    let d = b - a;
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    for i in 0..n {
        let (ea, eb) = (ring[i], ring[(i + 1) % n]);
        let s = eb - ea;
        let denom = d.cross(s);
        let qp = ea - a;
        let side = qp.cross(s);
        if denom == 0.0 {
            // Parallel: inside along the whole line, or nowhere.
            if (ccw && side < 0.0) || (!ccw && side > 0.0) {
                return None;
            }
            continue;
        }
        let t = side / denom;
        if (denom < 0.0) == ccw {
            if t > lo {
                lo = t;
            }
        } else if t < hi {
            hi = t;
        }
    }
    (hi + 1e-12 >= lo).then_some((lo, hi))
}

/// Where the segment from `e` to `t` leaves the base it starts in (0 when it starts
/// outside or on its edge going out).
pub(super) fn leave_param(b: &Blocker, e: Vec2, t: Vec2) -> f64 {
    convex_inside(b, e, t).filter(|iv| iv.0 <= 1e-12 && iv.1 > 0.0).map_or(0.0, |iv| iv.1)
}

/// Where the segment from `e` to `t` enters the base it ends in (1 when it ends on its
/// edge).
pub(super) fn enter_param(b: &Blocker, e: Vec2, t: Vec2) -> f64 {
    convex_inside(b, e, t).filter(|iv| iv.1 >= 1.0 - 1e-12 && iv.0 < 1.0).map_or(1.0, |iv| iv.0)
}

/// True when a spotting depth cuts every sight line from the pair's eye to `target` (the
/// target base, or one of its corners that every line reaches from outside the base).
pub(super) fn depth_cuts_every_line(p: &Pair<'_>, target: &[Vec2]) -> bool {
    depth_cuts_every_line_from(p, &p.eye, target)
}

/// [`depth_cuts_every_line`] from a part of the pair's eye.
pub(super) fn depth_cuts_every_line_from(p: &Pair<'_>, eye: &[Vec2], target: &[Vec2]) -> bool {
    let sv = p.spotter.vertices_ccw();
    p.limits.iter().any(|(f, l)| {
        let Limit::InCover(depth) = *l else { return false };
        f.blockers.iter().any(|b| run_lower_bound(b, eye, &sv, target) > depth + 2.0 * LIMIT_SLACK_MM)
    })
}
