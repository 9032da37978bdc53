//! The full-base decision: whether every point of the target base is seen from some
//! point of the eye, exactly where the blockers alone decide, else over a grid of the
//! base with its cells proved from eye points.

use super::limits::{depth_cuts_every_line, enter_param, ring_distance};
use super::search::faces;
use super::{
    BASE_CLEAR_MM, Beyond, CELL_SPLIT, LIMIT_SLACK_MM, Limit, Method, Pair, Proof, Sampling, TerrainSight,
    WHOLE_BASE_TRIES, pieces,
};
use crate::base::Base;
use crate::los::sight_rules::Eye;
use crate::los::spotting_depth::{
    DEPTH_SLACK_MM, beyond_depth, convex_part_around, covers, deep_core, wall_parts_beyond,
};
use crate::polygon::ConvexPolygon;
use crate::sight::{
    Blocker, FullVisibility, SightHull, clear_of, full_visibility_among, point_is_seen, relative_pseudo_angle,
};
use crate::vec2::Vec2;

impl<'i, 't> TerrainSight<'i, 't> {
    /// Whether every point of the target is seen, without first searching for any sight
    /// line: the same [`FullVisibility`] verdict (`Visible` or `Hidden`) as
    /// [`Self::decide`] gives, since "fully visible" implies "visible" and every proof of
    /// "not visible" there is a proof of a hidden point here; only the witness point may
    /// differ. What the artillery asks of each candidate base (000 §4.5), and what a
    /// unit's further bases are asked once one of its bases is known to be visible.
    pub(super) fn decide_full(&self, p: &Pair<'_>) -> (FullVisibility, Method) {
        let tv = p.target.vertices_ccw();
        let hidden = |w: Vec2| (FullVisibility::Hidden { witness: w }, Method::Exact);
        if self.depth_cannot_pass(p) || (self.proof == Proof::Shortcuts && depth_cuts_every_line(p, &tv)) {
            return hidden(p.target.centre());
        }
        let whole_in_view =
            p.field.as_ref().is_none_or(|h| tv.iter().all(|&v| h.signed_distance(v) >= -LIMIT_SLACK_MM));
        self.full_part(p, &p.blockers(), whole_in_view)
    }

    /// The full-visibility part of [`Self::decide`]: the exact test over the blockers,
    /// then, where limits decide, the exact hidden-corner bound and the bounded search
    /// over the grid of target points.
    pub(super) fn full_part(
        &self,
        p: &Pair<'_>,
        blockers: &[&Blocker],
        whole_in_view: bool,
    ) -> (FullVisibility, Method) {
        let tv = p.target.vertices_ccw();
        let hidden = |w: Vec2, m: Method| (FullVisibility::Hidden { witness: w }, m);
        if !whole_in_view {
            let w = tv
                .iter()
                .copied()
                .find(|&v| p.field.as_ref().is_some_and(|h| h.signed_distance(v) < 0.0))
                .unwrap_or(p.target.centre());
            return hidden(w, Method::Exact);
        }
        // Seen whole from one eye point when no blocker reaches the hull of it and the
        // base (the ends of the eye and its middle tried).
        let middle = p.eye.iter().fold(Vec2::ZERO, |a, &q| a + q) / p.eye.len().max(1) as f64;
        let from_one = self.proof == Proof::Shortcuts
            && p.eye.iter().chain(std::iter::once(&middle)).any(|&h| nothing_between(p, h, &tv, blockers));
        // Else a hidden corner or centre settles it cheaply (exact, with a witness), and
        // failing that the exact decomposition.
        if !from_one {
            for q in tv.iter().copied().chain(std::iter::once(p.target.centre())) {
                if !point_is_seen(&p.eye, q, blockers) {
                    return hidden(q, Method::Exact);
                }
            }
        }
        let exact =
            if from_one { FullVisibility::Visible } else { full_visibility_among(&p.eye, &tv, blockers) };
        if exact != FullVisibility::Visible || !p.has_limits() {
            return (exact, Method::Exact);
        }
        if let Some(q) = self.depth_hidden_corner(p).filter(|_| self.proof == Proof::Shortcuts) {
            return hidden(q, Method::Exact);
        }
        let method = Method::Sampled(p.sampling(&self.sampling));
        let mut hint = None;
        // Eye points the whole base has been tried from (a few at most), and the cells of
        // the base proved from them when the whole base was not.
        let mut tried: Vec<Vec2> = Vec::new();
        let mut proved: Vec<ConvexPolygon> = Vec::new();
        for t in self.grid(&tv) {
            if proved.iter().any(|c| c.contains(t)) {
                continue;
            }
            // A checked line toward the last clear eye point settles most points before
            // the exact depth bound, which is kept for the points it does not settle.
            if self.seen_toward_hint(p, t, blockers, &mut hint) {
                continue;
            }
            if self.depth_hides_point(p, t) || !self.point_seen(p, t, blockers, &mut hint) {
                return hidden(t, method);
            }
            // A new eye point: if every point of the base passes the check from it, so
            // does every grid point still to come.
            if let Some(h) = hint
                && tried.len() < WHOLE_BASE_TRIES
                && !tried.contains(&h)
            {
                tried.push(h);
                if self.whole_base_passes_from(p, h, blockers) {
                    return (FullVisibility::Visible, method);
                }
                proved.extend(
                    base_cells(&tv, CELL_SPLIT)
                        .into_iter()
                        .filter(|c| self.region_passes_from(p, h, c, blockers))
                        .map(|c| ConvexPolygon::from_ccw_unchecked(c.to_vec())),
                );
            }
        }
        (FullVisibility::Visible, method)
    }

    /// True when the check passes for the segment from the eye point `h` to every point
    /// of the target base (exact): no blocker reaches the hull of `h` and the base (the
    /// spotter's own base aside, the base lying ahead of its front edge), and every
    /// spotting depth holds, a segment's run in the cover being at most its length to
    /// where it first meets the base (on an edge facing `h`) less its length before it
    /// first reaches the cover (from `h`, outside the cover, to the cover's outline within
    /// the segments' wedge). Only for pairs whose limits are all spotting depths.
    pub(super) fn whole_base_passes_from(&self, p: &Pair<'_>, h: Vec2, blockers: &[&Blocker]) -> bool {
        self.region_passes_from(p, h, &p.target.vertices_ccw(), blockers)
    }

    /// [`Self::whole_base_passes_from`] for a convex part `cell` (ccw) of the target
    /// base: true when the check passes for the segment from `h` to every point of the
    /// cell (exact). No blocker may reach the hull of `h` and the cell, and a segment's
    /// run in cover is bounded as for the whole base, with the farthest a segment toward
    /// the cell runs before it first meets the base: where it enters the base through
    /// the edges facing `h`. Along one edge that distance is convex in the direction, so
    /// over the cell's wedge it is largest where a wedge side enters (a side passes
    /// through a corner of the cell) or at a corner of the base's facing edges inside the
    /// wedge.
    pub(super) fn region_passes_from(
        &self,
        p: &Pair<'_>,
        h: Vec2,
        cell: &[Vec2],
        blockers: &[&Blocker],
    ) -> bool {
        if self.proof == Proof::Exhaustive
            || p.eye.len() != 2
            || self.rules.eye != Eye::FrontEdge
            || p.field.is_some()
            || p.max_mm.is_some()
            || cell.len() < 3
            || !p.limits.iter().all(|(_, l)| matches!(l, Limit::InCover(_)))
        {
            return false;
        }
        let tv = p.target.vertices_ccw();
        // The base wholly ahead of the spotter's front edge (so the cell too).
        let ahead = |q: Vec2| (q - h).dot(p.spotter.forward()) > 1e-6;
        if !tv.iter().all(|&q| ahead(q)) {
            return false;
        }
        let Some(sight_hull) = SightHull::new(&[&[h], cell]) else { return false };
        let own = p.spotter_shape;
        if !blockers.iter().all(|b| std::ptr::eq(*b, own) || sight_hull.excludes(&b.polygon().exterior)) {
            return false;
        }
        // The cell's wedge from `h`.
        let n = cell.len();
        let c = cell.iter().fold(Vec2::ZERO, |a, &q| a + q) / n as f64;
        let key = |q: Vec2| relative_pseudo_angle(c - h, q - h);
        let (Some(&lo), Some(&hi)) = (
            cell.iter().min_by(|a, b| key(**a).total_cmp(&key(**b))),
            cell.iter().max_by(|a, b| key(**a).total_cmp(&key(**b))),
        ) else {
            return false;
        };
        // Where segments toward the cell first meet the base: its entry along the segment
        // to each corner of the cell, and the corners of the facing edges in the wedge
        // (taken with a hair of slack: one too many only loosens the bound).
        let (klo, khi) = (key(lo) - 1e-9, key(hi) + 1e-9);
        let shape = p.target_shape;
        let m = tv.len();
        let facing_corners = (0..m)
            .filter(|&i| (tv[(i + 1) % m] - tv[i]).cross(h - tv[i]) < 0.0)
            .flat_map(|i| [tv[i], tv[(i + 1) % m]])
            .filter(|&q| (klo..=khi).contains(&key(q)));
        let entries = cell.iter().map(|&q| h.lerp(q, enter_param(shape, h, q)));
        let reach = facing_corners.chain(entries).map(|q| q.distance(h)).fold(0.0, f64::max);
        let far = cell.iter().map(|q| q.distance(h)).fold(0.0, f64::max);
        let (Some(ul), Some(uh)) = ((lo - h).normalized(), (hi - h).normalized()) else { return false };
        let cos_half = ((ul.dot(uh) + 1.0) / 2.0).max(0.0).sqrt();
        if cos_half < 0.5 {
            return false;
        }
        let r = 1.01 * far / cos_half;
        let (a, b) = (h + ul * r, h + uh * r);
        let local = p.local();
        p.limits.iter().enumerate().all(|(i, (f, l))| {
            let Limit::InCover(depth) = *l else { return false };
            let allowed = depth + LIMIT_SLACK_MM - DEPTH_SLACK_MM;
            let Some(Some(pieces)) =
                local.get(i).map(|v| v.iter().map(Option::as_ref).collect::<Option<Vec<_>>>())
            else {
                return false;
            };
            if pieces.len() != f.blockers.len() {
                return false;
            }
            let before = pieces.iter().map(|lb| lb.distance_before(h, a, b)).fold(f64::INFINITY, f64::min);
            if reach - before <= allowed {
                return true;
            }
            // With the base clear of the cover, a segment leaves the cover for the last
            // time before it meets the base, at a point of the outline in the wedge: the
            // run ends no farther out (this settles a spotter standing in the cover).
            let far =
                pieces.iter().map(|lb| lb.farthest_outline_in(h, a, b)).fold(f64::NEG_INFINITY, f64::max);
            far - before <= allowed && f.blockers.iter().all(|bl| clear_of(bl, &tv, BASE_CLEAR_MM))
        })
    }

    /// Convex regions a sight line of the pair cannot pass through ([`crate::los::spotting_depth`]):
    /// for a spotting depth, the part of a convex piece of the cover around the eye (or
    /// around the target) farther than the depth from it, and the deep cores of the
    /// cover's convex parts ([`deep_core`]: a line through one runs more than the depth
    /// inside the cover before it meets the target); for a linear obstacle that blocks
    /// where it is crossed far from both bases, the parts of it where every crossing is
    /// ([`wall_parts_beyond`]).
    pub(super) fn depth_cut_sets(&self, p: &Pair<'_>) -> Vec<Vec<Vec2>> {
        let mut out = Vec::new();
        if self.proof == Proof::Exhaustive || p.eye.len() != 2 {
            return out;
        }
        let (sv, tv) = (p.spotter.vertices_ccw(), p.target.vertices_ccw());
        for (f, l) in &p.limits {
            // The pieces of a linear obstacle every crossing of which is farther than the
            // depth from both bases, where such a crossing blocks.
            if let Limit::Line { depth, beyond: Beyond::Blocks } = *l {
                let reach = depth + DEPTH_SLACK_MM;
                for b in &f.blockers {
                    out.extend(wall_parts_beyond(&b.polygon().exterior, reach, &p.eye, &sv, &tv));
                }
                continue;
            }
            let Limit::InCover(depth) = *l else { continue };
            let Some(cover) = f.blockers.first() else { continue };
            for around in [p.eye.as_slice(), tv.as_slice()] {
                if covers(cover, around)
                    && let Some(part) = convex_part_around(cover, around)
                {
                    out.extend(beyond_depth(&part, around, depth));
                }
            }
            // The deep cores of the cover's convex parts.
            let cores =
                self.terrain.deep().get(f.index).filter(|(d, _)| *d == depth).map(|(_, c)| c.as_slice());
            out.extend(cores.unwrap_or_default().iter().filter_map(|c| deep_core(c, depth, &sv, &tv)));
        }
        out
    }

    /// A corner of the target that a spotting depth hides from every eye point (exact,
    /// see [`crate::los::spotting_depth`]): one every sight line reaches from outside the base.
    pub(super) fn depth_hidden_corner(&self, p: &Pair<'_>) -> Option<Vec2> {
        let tv = p.target.vertices_ccw();
        let n = tv.len();
        (0..n)
            .filter(|&i| faces(&p.eye, tv[(i + n - 1) % n], tv[i], tv[(i + 1) % n]))
            .map(|i| tv[i])
            .find(|&q| depth_cuts_every_line(p, &[q]))
    }

    /// True when a spotting depth can never be met: the spotter's (or target's) base lies
    /// wholly inside the cover, further than the depth from its edge and from the other
    /// base, so every sight line runs more than the depth inside it (exact).
    pub(super) fn depth_cannot_pass(&self, p: &Pair<'_>) -> bool {
        // The distance between the bases only when a spotting depth asks for it.
        let apart = std::cell::OnceCell::new();
        p.limits.iter().any(|(f, l)| {
            let Limit::InCover(depth) = *l else { return false };
            if *apart.get_or_init(|| p.spotter.distance(p.target)) <= depth {
                return false;
            }
            let deep = |b: &Base| {
                f.blockers.iter().any(|bl| {
                    b.vertices_ccw().iter().all(|&q| bl.polygon().contains(q)) && ring_distance(bl, b) > depth
                })
            };
            deep(p.spotter) || deep(p.target)
        })
    }

    /// Target points for the bounded search: the corners, then points along the edges,
    /// then a grid inside, all at most `target_step_mm` apart.
    pub(super) fn grid(&self, shape: &[Vec2]) -> Vec<Vec2> {
        let h = self.sampling.target_step_mm;
        let mut out = outline_points(shape, self.sampling);
        let n = shape.len();
        let poly = ConvexPolygon::from_ccw_unchecked(shape.to_vec());
        if n >= 3 {
            // Grid along the first edge's direction.
            let ux = (shape[1] - shape[0]).normalized().unwrap_or(Vec2::new(1.0, 0.0));
            let uy = ux.perp_left();
            let (mut a0, mut a1, mut b0, mut b1) =
                (f64::INFINITY, f64::NEG_INFINITY, f64::INFINITY, f64::NEG_INFINITY);
            for &q in shape {
                let r = q - shape[0];
                a0 = a0.min(r.dot(ux));
                a1 = a1.max(r.dot(ux));
                b0 = b0.min(r.dot(uy));
                b1 = b1.max(r.dot(uy));
            }
            let (na, nb) = (pieces(a1 - a0, h), pieces(b1 - b0, h));
            for i in 1..na {
                for j in 1..nb {
                    let q = shape[0]
                        + ux * (a0 + (a1 - a0) * i as f64 / na as f64)
                        + uy * (b0 + (b1 - b0) * j as f64 / nb as f64);
                    if poly.contains(q) {
                        out.push(q);
                    }
                }
            }
        }
        out
    }
}

/// The convex quadrilateral `shape` (ccw) cut into `k` × `k` cells along its edges
/// (bilinear: for a rectangle, equal rectangles), each ccw; other shapes give none.
pub(super) fn base_cells(shape: &[Vec2], k: usize) -> Vec<[Vec2; 4]> {
    let &[p0, p1, p2, p3] = shape else { return Vec::new() };
    let at = |i: usize, j: usize| {
        let (u, v) = (i as f64 / k as f64, j as f64 / k as f64);
        p0.lerp(p1, u).lerp(p3.lerp(p2, u), v)
    };
    let mut out = Vec::with_capacity(k * k);
    for i in 0..k {
        for j in 0..k {
            out.push([at(i, j), at(i + 1, j), at(i + 1, j + 1), at(i, j + 1)]);
        }
    }
    out
}

/// The outline part of [`TerrainSight::grid`]: the corners, then points along each edge
/// at most `target_step_mm` apart.
pub(super) fn outline_points(shape: &[Vec2], sampling: Sampling) -> Vec<Vec2> {
    let h = sampling.target_step_mm;
    let mut out: Vec<Vec2> = shape.to_vec();
    let n = shape.len();
    for i in 0..n {
        let (a, b) = (shape[i], shape[(i + 1) % n]);
        let k = pieces(a.distance(b), h);
        out.extend((1..k).map(|j| a.lerp(b, j as f64 / k as f64)));
    }
    out
}

/// True when no blocker of the pair reaches the hull of the eye point `h` and the target
/// base `tv` (ccw), leaving each out by more than the graze tolerance: every point of the
/// base is seen from `h`. The spotter's own base may touch the hull at `h` when the base
/// lies wholly ahead of its front edge (no segment from `h` ahead enters it).
pub(super) fn nothing_between(p: &Pair<'_>, h: Vec2, tv: &[Vec2], blockers: &[&Blocker]) -> bool {
    let Some(sight_hull) = SightHull::new(&[&[h], tv]) else { return false };
    let ahead = tv.iter().all(|&q| (q - h).dot(p.spotter.forward()) > 1e-6);
    blockers
        .iter()
        .all(|b| (ahead && std::ptr::eq(*b, p.spotter_shape)) || sight_hull.excludes(&b.polygon().exterior))
}
