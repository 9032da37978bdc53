//! The bounded search for a sight line ([`Sampling`]): critical directions from each
//! target point, the eye parts a spotting depth or a friendly base cuts, the cells of
//! the target proved hidden, and the decision of one pair ([`BaseVerdict`]).

use super::limits::{covers_unit, depth_cuts_every_line, depth_cuts_every_line_from};
use super::{
    BaseVerdict, Beyond, BlockerOrigin, LIMIT_SLACK_MM, Limit, Method, Pair, Proof, SEARCH_BEFORE_CELLS,
    Sampling, TerrainSight, pieces,
};
use crate::convex::segment_distance_mm;
use crate::los::chain::separated;
use crate::los::explanation::Cut;
use crate::los::sight_rules::Eye;
use crate::los::solid_block::SOLID_MARGIN_MM;
use crate::los::spotting_depth::{DEPTH_SLACK_MM, part_toward};
use crate::polygon::{ConvexPolygon, HalfPlane, Polygon};
use crate::segment::Segment;
use crate::sight::{Blocker, FullVisibility, LocalBlocker, chord, clear_sight_segment_among, point_is_seen};
use crate::vec2::Vec2;

impl<'i, 't> TerrainSight<'i, 't> {
    /// The directions the bounded search tries from target point `t`, as (the heading of
    /// the eye's centre from `t`, degrees; the angles relative to it, degrees): every
    /// critical direction, and directions whose eye points are at most `eye_step_mm`
    /// apart, then the middles between each critical direction and its neighbours.
    /// `None` when `t` is inside the eye.
    pub(super) fn search_angles(&self, p: &Pair<'_>, t: Vec2) -> Option<(f64, Vec<f64>)> {
        let eye = &p.eye;
        if eye.len() >= 3 && ConvexPolygon::from_ccw_unchecked(eye.clone()).contains(t) {
            return None;
        }
        let c = eye.iter().fold(Vec2::ZERO, |a, &q| a + q) / eye.len() as f64;
        let base = (c - t).heading_deg();
        let rel = |q: Vec2| ((q - t).heading_deg() - base + 540.0).rem_euclid(360.0) - 180.0;
        let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
        let mut far: f64 = 0.0;
        for &q in eye {
            let a = rel(q);
            lo = lo.min(a);
            hi = hi.max(a);
            far = far.max(q.distance(t));
        }
        let mut angles: Vec<f64> = eye.iter().map(|&q| rel(q)).collect();
        angles.push(0.0);
        let mut corner = |q: Vec2| {
            if q != t {
                let a = rel(q);
                if a > lo && a < hi {
                    angles.push(a);
                }
            }
        };
        for (b, _) in &p.owned {
            b.vertices().for_each(&mut corner);
        }
        for (b, _) in &p.opaque {
            b.vertices().for_each(&mut corner);
        }
        for (f, _) in &p.limits {
            for b in &f.blockers {
                b.vertices().for_each(&mut corner);
            }
        }
        p.spotter.vertices_ccw().into_iter().for_each(&mut corner);
        p.target.vertices_ccw().into_iter().for_each(&mut corner);
        // Where a blind-zone blocker meets the eye scaled toward t: the zone's end.
        let eye_edges: Vec<Segment> = if eye.len() == 2 {
            vec![Segment::new(eye[0], eye[1])]
        } else {
            (0..eye.len()).map(|i| Segment::new(eye[i], eye[(i + 1) % eye.len()])).collect()
        };
        for (f, l) in &p.limits {
            let fraction = match *l {
                Limit::Fraction { fraction, .. }
                | Limit::Line { beyond: Beyond::Fraction { fraction, .. }, .. } => fraction,
                _ => continue,
            };
            for ee in &eye_edges {
                let scaled = Segment::new(t + (ee.a - t) * fraction, t + (ee.b - t) * fraction);
                for b in &f.blockers {
                    let v: Vec<Vec2> = b.vertices().collect();
                    for i in 0..v.len() {
                        if let Some(x) = scaled.intersection(&Segment::new(v[i], v[(i + 1) % v.len()])) {
                            corner(x);
                        }
                    }
                }
            }
        }
        // Uniform directions: eye points at most eye_step_mm apart (angle step · range),
        // and at most MAX_POINTS_PER_SIDE of them, as along a target's side: past that
        // the spacing grows with the eye instead of the work (an eye of metres, a table
        // scaled by 100, asked 20,000 directions of every target point: issue 41 item 6).
        let span = (hi - lo).to_radians();
        let n = pieces(span * far, self.sampling.eye_step_mm);
        // Critical directions are marked: a line just beside one (in the open interval to
        // its neighbour, where nothing changes) is tried too. Between two uniform
        // directions the step already bounds the gap.
        let mut all: Vec<(f64, bool)> = angles.into_iter().map(|a| (a, true)).collect();
        all.extend((0..=n).map(|i| (lo + (hi - lo) * i as f64 / n as f64, false)));
        all.sort_by(|a, b| a.0.total_cmp(&b.0));
        all.dedup_by(|later, kept| {
            let same = later.0 == kept.0;
            kept.1 |= same && later.1;
            same
        });
        let mids: Vec<f64> =
            all.windows(2).filter(|w| w[0].1 || w[1].1).map(|w| (w[0].0 + w[1].0) / 2.0).collect();
        let mut angles: Vec<f64> = all.into_iter().map(|a| a.0).collect();
        angles.extend(mids);
        Some((base, angles))
    }

    /// The segment from the eye to `t` along direction `dir` (from `t`, any length), when
    /// the line meets the eye on `t`'s side and the segment passes every limit.
    pub(super) fn try_direction(
        &self,
        p: &Pair<'_>,
        t: Vec2,
        dir: Vec2,
        blockers: &[&Blocker],
        cuts: &mut Vec<Cut>,
    ) -> Option<Segment> {
        let (s0, s1) = chord(&p.eye, t, dir)?;
        if s1 < 0.0 {
            return None;
        }
        let e = t + dir * s0.max(0.0);
        cuts.clear();
        self.check(p, e, t, blockers, false, cuts).then(|| Segment::new(e, t))
    }

    /// Parts of the eye (as intervals of its parameter, 0 at its first point) from which
    /// every segment to the target point `t` runs deeper into cover than its spotting
    /// depth (exact). Such a segment leaves the spotter's base at once when `t` is ahead
    /// of the front edge, and its run is counted from there:
    /// - where `t` stands in the cover and the eye outside it, the segment's last piece
    ///   in the cover runs from where it crosses the cover's outline, inside the triangle
    ///   of `t` and the part of the eye, to `t` (or to where it first meets the target,
    ///   which is `t` when the part of the eye is outside the target's edge through `t`);
    /// - where the part of the eye stands in the cover, the segment's first piece runs
    ///   from it until it first crosses the outline, inside that triangle, or until it
    ///   meets the target.
    ///
    /// Halving the eye up to [`DEPTH_CUT_LEVELS`] times.
    pub(super) fn depth_cut_eye(&self, p: &Pair<'_>, t: Vec2) -> Vec<(f64, f64)> {
        /// Halvings of the eye.
        const DEPTH_CUT_LEVELS: usize = 5;
        let mut out = Vec::new();
        if self.proof == Proof::Exhaustive || p.eye.len() != 2 || self.rules.eye != Eye::FrontEdge {
            return out;
        }
        let (e0, e1) = (p.eye[0], p.eye[1]);
        if (t - e0).dot(p.spotter.forward()) <= 1e-9 {
            return out;
        }
        // The target's edges through t: a part of the eye outside one of them reaches t
        // before any other point of the target.
        let tv = p.target.vertices_ccw();
        let through: Vec<(Vec2, Vec2, f64)> = (0..4)
            .map(|i| (tv[i], tv[(i + 1) % 4]))
            .filter_map(|(a, b)| {
                let l = a.distance(b);
                let on =
                    (b - a).cross(t - a).abs() <= 1e-7 * l && Segment::new(a, b).distance_to_point(t) <= 1e-7;
                (on && l > 0.0).then_some((a, b, l))
            })
            .collect();
        let local = p.local();
        // The covers t stands in with the eye outside (when t is on the target's
        // outline), and those the whole eye stands in.
        let mut in_cover: Vec<(&LocalBlocker<'_>, f64)> = Vec::new();
        let mut eye_in: Vec<(&LocalBlocker<'_>, f64)> = Vec::new();
        for (i, (f, l)) in p.limits.iter().enumerate() {
            let Limit::InCover(depth) = *l else { continue };
            let beyond = depth + LIMIT_SLACK_MM + DEPTH_SLACK_MM;
            for (k, b) in f.blockers.iter().enumerate() {
                let Some(Some(lb)) = local.get(i).and_then(|v| v.get(k)) else { continue };
                if lb.eye_outside() {
                    if !through.is_empty() && b.contains(t) {
                        in_cover.push((lb, beyond));
                    }
                } else {
                    eye_in.push((lb, beyond));
                }
            }
        }
        if in_cover.is_empty() && eye_in.is_empty() {
            return out;
        }
        let outside = |q: Vec2, &(a, b, l): &(Vec2, Vec2, f64)| (b - a).cross(q - a) < -1e-9 * l;
        let step = self.sampling.eye_step_mm / e0.distance(e1).max(1e-9);
        let mut todo = vec![(0.0f64, 1.0f64, DEPTH_CUT_LEVELS)];
        while let Some((lo, hi, level)) = todo.pop() {
            let (a, b) = (e0.lerp(e1, lo), e0.lerp(e1, hi));
            let last_piece = || {
                through.iter().any(|line| outside(a, line) && outside(b, line))
                    && in_cover.iter().any(|&(lb, beyond)| lb.outline_distance_in(t, a, b) > beyond)
            };
            let first_piece = || {
                !eye_in.is_empty() && {
                    let to_target = segment_distance_mm(&Segment::new(a, b), &tv);
                    eye_in.iter().any(|&(lb, beyond)| {
                        to_target > beyond
                            && lb.holds_eye_part(a, b)
                            && lb.outline_distance_from_eye_in(t, a, b) > beyond
                    })
                }
            };
            if last_piece() || first_piece() {
                out.push((lo, hi));
            } else if level > 0 && hi - lo > step {
                let m = (lo + hi) / 2.0;
                todo.push((lo, m, level - 1));
                todo.push((m, hi, level - 1));
            }
        }
        out
    }

    /// Parts of the eye (as in [`Self::depth_cut_eye`]) from which every segment to the
    /// target point `t` passes through a unit base that blocks the pair (exact): a base
    /// shrunk by [`SOLID_MARGIN_MM`] lying wholly between `t` and the eye's line shades,
    /// from `t`, the part of the eye between the lines through its corners, and a segment
    /// to a point strictly inside that part passes through the shrunk base, so deep
    /// inside the base.
    pub(super) fn shaded_eye(&self, p: &Pair<'_>, t: Vec2) -> Vec<(f64, f64)> {
        let mut out = Vec::new();
        if self.proof == Proof::Exhaustive || p.eye.len() != 2 {
            return out;
        }
        let (e0, d) = (p.eye[0], p.eye[1] - p.eye[0]);
        let ht = d.cross(t - e0);
        if ht == 0.0 {
            return out;
        }
        for (b, src) in &p.owned {
            let BlockerOrigin::Base(_) = src else { continue };
            let ring = &b.polygon().exterior;
            if ring.len() != 4 {
                continue;
            }
            let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
            let mut between = true;
            for i in 0..4 {
                let v = ring[i];
                let (Some(a), Some(c)) =
                    ((ring[(i + 1) % 4] - v).normalized(), (ring[(i + 3) % 4] - v).normalized())
                else {
                    between = false;
                    break;
                };
                // The corner of the rectangle shrunk by the margin.
                let q = v + (a + c) * SOLID_MARGIN_MM;
                let hq = d.cross(q - e0);
                if !(hq * ht > 0.0 && hq.abs() < ht.abs()) {
                    between = false;
                    break;
                }
                let k = (t - e0).cross(q - t) / d.cross(q - t);
                lo = lo.min(k);
                hi = hi.max(k);
            }
            if between && hi - lo > 2e-9 {
                out.push((lo + 1e-9, hi - 1e-9));
            }
        }
        out
    }

    /// A clear sight segment from some eye point to the target point `t`: the first of
    /// [`Self::search_angles`] that passes, in their order.
    pub(super) fn point_search(&self, p: &Pair<'_>, t: Vec2, blockers: &[&Blocker]) -> Option<Segment> {
        self.point_search_past(p, t, blockers, &self.depth_cut_eye(p, t))
    }

    /// [`Self::point_search`], leaving out the directions from the parts of the eye in
    /// `cut` ([`Self::depth_cut_eye`], [`Self::shaded_eye`]): they would fail.
    pub(super) fn point_search_past(
        &self,
        p: &Pair<'_>,
        t: Vec2,
        blockers: &[&Blocker],
        cut: &[(f64, f64)],
    ) -> Option<Segment> {
        let Some((base, angles)) = self.search_angles(p, t) else { return Some(Segment::new(t, t)) };
        let mut cuts = Vec::new();
        angles.iter().find_map(|a| {
            let dir = Vec2::from_heading_deg(base + a);
            if from_cut_eye(p, t, dir, cut) {
                return None;
            }
            self.try_direction(p, t, dir, blockers, &mut cuts)
        })
    }

    /// Whether [`Self::point_search`] finds a segment, trying first the line toward
    /// `hint` (an eye point that saw a neighbouring target point), then the same
    /// directions nearest it first; `hint` becomes the eye end of the segment found.
    /// The line toward the hint is checked like every other, so a point it sees is seen;
    /// it only spares building the directions for the many points it settles. Past the
    /// first [`SEARCH_BEFORE_CUTS`] directions, those from the parts of the eye that a
    /// spotting depth or a blocking base cuts off ([`Self::depth_cut_eye`],
    /// [`Self::shaded_eye`]) are left out: they would fail, so the segment found is the
    /// same, and a point hidden from the whole eye is known hidden without trying them.
    pub(super) fn point_seen(
        &self,
        p: &Pair<'_>,
        t: Vec2,
        blockers: &[&Blocker],
        hint: &mut Option<Vec2>,
    ) -> bool {
        if self.seen_toward_hint(p, t, blockers, hint) {
            return true;
        }
        let Some((base, mut angles)) = self.search_angles(p, t) else { return true };
        if let Some(h) = *hint
            && h != t
        {
            let want = ((h - t).heading_deg() - base + 540.0).rem_euclid(360.0) - 180.0;
            angles.sort_by(|a, b| (a - want).abs().total_cmp(&(b - want).abs()));
        }
        let mut cuts = Vec::new();
        let (first, rest) = angles.split_at(angles.len().min(SEARCH_BEFORE_CUTS));
        let found = first
            .iter()
            .find_map(|a| self.try_direction(p, t, Vec2::from_heading_deg(base + a), blockers, &mut cuts))
            .or_else(|| {
                if rest.is_empty() {
                    return None;
                }
                let mut cut = self.depth_cut_eye(p, t);
                cut.extend(self.shaded_eye(p, t));
                if covers_unit(&cut) {
                    return None;
                }
                rest.iter().find_map(|a| {
                    let dir = Vec2::from_heading_deg(base + a);
                    if from_cut_eye(p, t, dir, &cut) {
                        return None;
                    }
                    self.try_direction(p, t, dir, blockers, &mut cuts)
                })
            });
        match found {
            Some(s) => {
                *hint = Some(s.a);
                true
            }
            None => false,
        }
    }

    /// True when the line from the target point `t` toward `hint` (an eye point) meets
    /// the eye and passes every blocker and limit; `hint` becomes the eye end found.
    pub(super) fn seen_toward_hint(
        &self,
        p: &Pair<'_>,
        t: Vec2,
        blockers: &[&Blocker],
        hint: &mut Option<Vec2>,
    ) -> bool {
        let Some(h) = *hint else { return false };
        let seen = (h != t).then(|| self.try_direction(p, t, h - t, blockers, &mut Vec::new())).flatten();
        if let Some(s) = seen {
            *hint = Some(s.a);
        }
        seen.is_some()
    }

    /// False when the blockers alone leave no clear segment from the eye to the target
    /// point `t` (the exact search of [`crate::sight`]): then no direction the bounded
    /// search tries can pass, as each is checked against the same blockers first.
    pub(super) fn blockers_may_pass(&self, p: &Pair<'_>, t: Vec2, blockers: &[&Blocker]) -> bool {
        self.proof == Proof::Exhaustive || point_is_seen(&p.eye, t, blockers)
    }

    /// Convex cells of `shape` (a part of the target) that no sight line of the pair
    /// reaches (exact): each proved hidden from every part of the eye by
    /// [`Self::hidden_from`], halving the cell up to `CELL_LEVELS` times where the whole
    /// is not. Empty when the pair has no spotting depth (the blockers alone were
    /// already searched exactly).
    pub(super) fn hidden_cells(&self, p: &Pair<'_>, shape: &[Vec2]) -> Vec<ConvexPolygon> {
        /// Halvings of a cell, and of the eye for one cell.
        const CELL_LEVELS: usize = 6;
        const EYE_LEVELS: usize = 3;
        let mut out = Vec::new();
        if self.proof == Proof::Exhaustive
            || p.eye.len() != 2
            || !p.limits.iter().any(|(_, l)| matches!(l, Limit::InCover(_)))
        {
            return out;
        }
        let pieces = self.chain_pieces(p);
        let refs: Vec<&[Vec2]> = pieces.iter().map(Vec::as_slice).collect();
        let tv = p.target.vertices_ccw();
        let mut todo = vec![(ConvexPolygon::from_ccw_unchecked(shape.to_vec()), CELL_LEVELS)];
        while let Some((cell, level)) = todo.pop() {
            if cell.vertices().len() < 3 {
                continue;
            }
            if self.hidden_from(p, &refs, &tv, cell.vertices(), [p.eye[0], p.eye[1]], EYE_LEVELS) {
                out.push(cell);
            } else if level > 0 {
                let [a, b] = halves(&cell);
                todo.push((a, level - 1));
                todo.push((b, level - 1));
            }
        }
        out
    }

    /// True when no sight segment from the part `eye` of the pair's eye to a point of
    /// `cell` (convex, inside the target `tv`) passes (exact): each first meets the
    /// target in [`part_toward`] of the cell, and there a spotting depth cuts every
    /// such line ([`depth_cuts_every_line`]) or a chain of solid pieces crosses the
    /// sight hull ([`separated`]); or, halving the eye up to `levels` times, both halves
    /// are hidden so.
    pub(super) fn hidden_from(
        &self,
        p: &Pair<'_>,
        pieces: &[&[Vec2]],
        tv: &[Vec2],
        cell: &[Vec2],
        eye: [Vec2; 2],
        levels: usize,
    ) -> bool {
        let Some(part) = part_toward(&eye, tv, cell) else { return false };
        if depth_cuts_every_line_from(p, &eye, &part) || separated(&eye, &part, pieces) {
            return true;
        }
        let m = eye[0].lerp(eye[1], 0.5);
        levels > 0
            && self.hidden_from(p, pieces, tv, cell, [eye[0], m], levels - 1)
            && self.hidden_from(p, pieces, tv, cell, [m, eye[1]], levels - 1)
    }

    /// True when a spotting depth cuts every sight line from the eye to the target point
    /// `t` (exact): such a line first meets the target base in [`part_toward`], so the
    /// bound of [`depth_cuts_every_line`] for that part holds for it.
    pub(super) fn depth_hides_point(&self, p: &Pair<'_>, t: Vec2) -> bool {
        if self.proof == Proof::Exhaustive || p.eye.len() != 2 {
            return false;
        }
        if !p.limits.iter().any(|(_, l)| matches!(l, Limit::InCover(_))) {
            return false;
        }
        part_toward(&p.eye, &p.target.vertices_ccw(), &[t])
            .is_some_and(|part| depth_cuts_every_line(p, &part))
    }

    /// The verdict for one spotter base (seeing from `eye`) and one target base.
    pub(super) fn decide(&self, p: &Pair<'_>, want_full: bool) -> BaseVerdict {
        let blockers = p.blockers();
        let tv = p.target.vertices_ccw();
        // The part of the target inside the field of view.
        let target_poly = match &p.field {
            Some(h) => ConvexPolygon::from_ccw_unchecked(tv.to_vec()).clipped(h),
            None => ConvexPolygon::from_ccw_unchecked(tv.to_vec()),
        };
        let whole_in_view =
            p.field.as_ref().is_none_or(|h| tv.iter().all(|&v| h.signed_distance(v) >= -LIMIT_SLACK_MM));
        let hidden_all = |w: Vec2| BaseVerdict {
            visible: false,
            full: FullVisibility::Hidden { witness: w },
            method: Method::Exact,
            sight: None,
        };
        if target_poly.vertices().len() < 3 && !whole_in_view {
            return hidden_all(p.target.centre());
        }
        let visible_shape: Vec<Vec2> =
            if whole_in_view { tv.to_vec() } else { target_poly.vertices().to_vec() };
        // What a spotting depth cuts, as blockers: only for proving a target hidden, and
        // for finding a first sight line worth checking against every limit.
        let cut_sets: Vec<Blocker> =
            self.depth_cut_sets(p).into_iter().map(|v| Blocker::new(Polygon::new(v, vec![]))).collect();
        let mut with_cuts = blockers.clone();
        with_cuts.extend(cut_sets.iter());
        let Some(first) = clear_sight_segment_among(&p.eye, &visible_shape, &with_cuts) else {
            return hidden_all(p.target.centre());
        };
        if self.depth_cannot_pass(p)
            || (self.proof == Proof::Shortcuts && depth_cuts_every_line(p, &visible_shape))
        {
            return hidden_all(p.target.centre());
        }
        let mut cuts = Vec::new();
        let first_ok = !p.has_limits() || self.check(p, first.a, first.b, &blockers, false, &mut cuts);
        let mut method = Method::Exact;
        let sight = if first_ok {
            Some(first)
        } else {
            method = Method::Sampled(p.sampling(&self.sampling));
            // The first points (corners, then along the edges) are searched at once, as
            // most targets are seen there; then the cells proved hidden are skipped.
            // Where the line's far end does not matter to any limit, a target seen at all
            // is seen where a sight line first meets it: only the outline it turns
            // toward the eye is searched.
            if outline_decides(p) {
                self.outline_search(p, &visible_shape, &blockers)
            } else {
                let grid = self.grid(&visible_shape);
                self.grid_search(p, &visible_shape, &grid, &blockers)
            }
        };
        if sight.is_none() {
            return BaseVerdict {
                visible: false,
                full: FullVisibility::Hidden { witness: p.target.centre() },
                method,
                sight,
            };
        }
        if !want_full {
            return BaseVerdict {
                visible: true,
                full: FullVisibility::Hidden { witness: p.target.centre() },
                method,
                sight,
            };
        }
        let (full, full_method) = self.full_part(p, &blockers, whole_in_view);
        let method = if full_method == Method::Exact { method } else { full_method };
        BaseVerdict { visible: true, full, method, sight }
    }

    /// The bounded search for a sight line to the grid points of `shape` (the visible
    /// part of the target): the first [`SEARCH_BEFORE_CELLS`] points at once, then the
    /// rest outside the cells proved hidden ([`Self::hidden_cells`]).
    pub(super) fn grid_search(
        &self,
        p: &Pair<'_>,
        shape: &[Vec2],
        grid: &[Vec2],
        blockers: &[&Blocker],
    ) -> Option<Segment> {
        let head = grid.len().min(SEARCH_BEFORE_CELLS);
        let seen = |t: &Vec2| !self.depth_hides_point(p, *t) && self.blockers_may_pass(p, *t, blockers);
        grid[..head].iter().filter(|t| seen(t)).find_map(|&t| self.point_search(p, t, blockers)).or_else(
            || {
                let cells = self.hidden_cells(p, shape);
                grid[head..]
                    .iter()
                    .filter(|t| !cells.iter().any(|c| c.contains(**t)) && seen(t))
                    .find_map(|&t| self.point_search(p, t, blockers))
            },
        )
    }

    /// The bounded search over the outline of `shape` (the visible part of the target)
    /// that some eye point faces ([`faced_edges`]): a sight segment reaching the shape
    /// first meets it there, and where [`outline_decides`], that first part of it passes
    /// whenever the whole does. Unlike the whole grid, no cells are proved hidden first:
    /// on the outline that costs more than searching the points it would skip.
    pub(super) fn outline_search(
        &self,
        p: &Pair<'_>,
        shape: &[Vec2],
        blockers: &[&Blocker],
    ) -> Option<Segment> {
        let edges = faced_edges(&p.eye, shape);
        edge_points(&edges, self.sampling).into_iter().find_map(|t| {
            let mut cut = self.depth_cut_eye(p, t);
            if covers_unit(&cut) {
                return None;
            }
            cut.extend(self.shaded_eye(p, t));
            if covers_unit(&cut) || self.depth_hides_point(p, t) || !self.blockers_may_pass(p, t, blockers) {
                return None;
            }
            self.point_search_past(p, t, blockers, &cut)
        })
    }
}

/// How many directions [`TerrainSight::point_seen`] tries before it works out the parts
/// of the eye it may leave out: most points it searches are seen along one of the first.
const SEARCH_BEFORE_CUTS: usize = 16;

/// True when the line from the target point `t` along `dir` meets the eye (on `t`'s
/// side) in one of the parts `cut` (intervals of the eye's parameter, 0 at its first
/// point).
fn from_cut_eye(p: &Pair<'_>, t: Vec2, dir: Vec2, cut: &[(f64, f64)]) -> bool {
    if cut.is_empty() {
        return false;
    }
    let (e0, d) = (p.eye[0], p.eye[p.eye.len() - 1] - p.eye[0]);
    chord(&p.eye, t, dir).is_some_and(|(s0, s1)| {
        let k = (t + dir * s0.max(0.0) - e0).dot(d) / d.length_2();
        s1 >= 0.0 && cut.iter().any(|&(lo, hi)| k >= lo && k <= hi)
    })
}

/// The edges of the convex `shape` (ccw) that some point of the eye faces (lies on the
/// outer side of, or on the line of): a segment from the eye first meets the shape on
/// one of them.
pub(super) fn faced_edges(eye: &[Vec2], shape: &[Vec2]) -> Vec<[Vec2; 2]> {
    let n = shape.len();
    (0..n)
        .map(|i| [shape[i], shape[(i + 1) % n]])
        .filter(|&[a, b]| eye.iter().any(|&e| (b - a).cross(e - a) <= 0.0))
        .collect()
}

/// Points of `edges` for the bounded search: the ends of the edges, then points along
/// each at most `target_step_mm` apart.
pub(super) fn edge_points(edges: &[[Vec2; 2]], sampling: Sampling) -> Vec<Vec2> {
    let mut out: Vec<Vec2> = Vec::new();
    for (k, &[a, b]) in edges.iter().enumerate() {
        out.push(a);
        if edges.get(k + 1).is_none_or(|next| next[0] != b) && edges.first().is_none_or(|first| first[0] != b)
        {
            out.push(b);
        }
    }
    for &[a, b] in edges {
        let n = pieces(a.distance(b), sampling.target_step_mm);
        out.extend((1..n).map(|j| a.lerp(b, j as f64 / n as f64)));
    }
    out
}

/// True when whether a sight line passes does not depend on how far past the point where
/// it first meets the target it runs: then a line to any point of the target, cut back
/// to that first point (on the outline), passes too. It passes the same blockers (a part
/// of a clear segment is clear), the field of view (the eye and the target point are in
/// it, so is all between), the maximum visibility (it is shorter), and the spotting
/// depths, visibility inside cover and distances past cover, which are all measured up
/// to where the line enters the target. Not so for a blind zone, whose end is a fraction
/// of the whole line (003 601).
pub(super) fn outline_decides(p: &Pair<'_>) -> bool {
    !p.limits.iter().any(|(_, l)| {
        matches!(l, Limit::Fraction { .. } | Limit::Line { beyond: Beyond::Fraction { .. }, .. })
    })
}

/// True when no segment from a point of `eye` to the corner `v` (between `prev` and
/// `next`, counter-clockwise) passes through the inside of the base first: the eye
/// stays out of the open cone the base fills at `v`.
pub(super) fn faces(eye: &[Vec2], prev: Vec2, v: Vec2, next: Vec2) -> bool {
    let inside = |e: Vec2| (next - v).cross(e - v) > 0.0 && (prev - v).cross(e - v) < 0.0;
    if eye.iter().any(|&e| inside(e)) {
        return false;
    }
    // A segment eye could still cross the cone between its ends: then it meets one of
    // the cone's two sides.
    if eye.len() == 2 {
        let s = Segment::new(eye[0], eye[1]);
        let side = |w: Vec2| Segment::new(v, v + (w - v) * 1e6);
        if s.intersection(&side(next)).is_some() || s.intersection(&side(prev)).is_some() {
            return false;
        }
    }
    true
}

/// The two halves of a convex polygon, cut through the mean of its vertices across its
/// longest extent (along the longest edge's direction).
pub(super) fn halves(cell: &ConvexPolygon) -> [ConvexPolygon; 2] {
    let v = cell.vertices();
    let n = v.len();
    let c = v.iter().fold(Vec2::ZERO, |a, &q| a + q) / n.max(1) as f64;
    let along = (0..n)
        .map(|i| v[(i + 1) % n] - v[i])
        .max_by(|a, b| a.length_2().total_cmp(&b.length_2()))
        .unwrap_or(Vec2::new(1.0, 0.0));
    let across = along.perp_left();
    [
        cell.clipped(&HalfPlane { point: c, direction: across }),
        cell.clipped(&HalfPlane { point: c, direction: -across }),
    ]
}
