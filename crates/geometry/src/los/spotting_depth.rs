//! Exact bounds for spotting depth (000 §3.6): how far every sight line between two
//! shapes must run inside a piece of cover, found from the cover's outline alone.
//!
//! A sight segment from an eye point `e` to a target point meets the target first at
//! `t'`; spotting depth measures the length of the segment inside the cover from where
//! it leaves the spotter's base to `t'` ([`super::TerrainSight`]). Every such segment
//! lies in the sight hull, the convex hull of eye and target. Two lower bounds on that
//! length hold for **every** segment, so a bound above the depth hides the target
//! exactly (no sampling):
//!
//! - **The last piece** (the target wholly in the cover): the segment reaches `t'`
//!   inside the cover, so its last piece in the cover runs from where it last entered
//!   to `t'`. That entry is a point of the cover's outline, in the sight hull, on an edge
//!   the segment can cross inward (some sight direction points into the cover there),
//!   so the piece is at least as long as the distance from such edges to the target;
//!   or the segment never left the cover after leaving the spotter's base, and the
//!   piece is at least the distance between the two bases.
//! - **The first piece** (the eye wholly in the cover): the segment starts inside the
//!   cover and runs in it until it first leaves it, through an edge some sight
//!   direction points out of, or until it reaches the target.
//!
//! Sight directions are the differences `t - e` of target and eye points: the sign of
//! their component along an edge's outward normal is settled by the differences of
//! vertices (the set of differences is convex, and the component is linear).

use crate::convex::{distance_mm, hull_points, segment_distance_mm, segment_inside, signed_area};
use crate::polygon::{ConvexPolygon, HalfPlane};
use crate::segment::Segment;
use crate::sight::{Blocker, relative_pseudo_angle};
use crate::vec2::Vec2;

/// The edges of every ring of the cover, with outward normals (pointing out of the
/// cover, whatever the rings' stored orientation).
fn edges_out(cover: &Blocker) -> Vec<(Segment, Vec2)> {
    let poly = cover.polygon();
    let mut out = Vec::new();
    let exterior_ccw = signed_area(&poly.exterior) > 0.0;
    let mut ring = |r: &[Vec2], outward_right: bool| {
        let n = r.len();
        for i in 0..n {
            let (a, b) = (r[i], r[(i + 1) % n]);
            let d = b - a;
            let nrm = if outward_right { d.perp_right() } else { d.perp_left() };
            out.push((Segment::new(a, b), nrm));
        }
    };
    // Counter-clockwise exterior: the cover is on the left, outward is right.
    ring(&poly.exterior, exterior_ccw);
    for h in &poly.holes {
        // A counter-clockwise hole has the cover on its right: outward (into the hole)
        // is left.
        ring(h, signed_area(h) < 0.0);
    }
    out
}

/// True when the convex shape (a point, a segment or a polygon, ccw) lies wholly in the
/// closed cover: its outline inside, and no hole inside it.
pub(crate) fn covers(cover: &Blocker, shape: &[Vec2]) -> bool {
    let n = shape.len();
    if n == 0 || !shape.iter().all(|&q| cover.contains(q)) {
        return false;
    }
    let edges = if n == 2 {
        1
    } else if n == 1 {
        0
    } else {
        n
    };
    for i in 0..edges {
        let (a, b) = (shape[i], shape[(i + 1) % n]);
        if cover.inside_intervals(a, b) != [(0.0, 1.0)] {
            return false;
        }
    }
    n < 3
        || !cover.polygon().holes.iter().any(|h| {
            h.iter().any(|&v| (0..n).all(|i| (shape[(i + 1) % n] - shape[i]).cross(v - shape[i]) >= 0.0))
        })
}

/// A lower bound on how far every sight segment from `eye` (a point, a segment, or a
/// convex polygon, ccw: a whole-base eye) to `target` (convex, ccw: a base, or a single
/// point reached from outside the base it belongs to) runs inside `cover`, counted from
/// where it leaves `spotter` (the spotter's base, convex, ccw, holding the eye) to where
/// it first meets the target. Zero when neither bound of the module documentation
/// applies. A whole-base eye is bounded as a front edge is: the directions are the
/// differences of its vertices and the target's, the sight hull is the hull of both,
/// and a segment leaves the base at a point of the eye.
pub(crate) fn run_lower_bound(cover: &Blocker, eye: &[Vec2], spotter: &[Vec2], target: &[Vec2]) -> f64 {
    if eye.is_empty() || target.is_empty() {
        return 0.0;
    }
    let mut pts: Vec<Vec2> = eye.to_vec();
    pts.extend_from_slice(target);
    let sight_hull = hull_points(pts);
    let dirs: Vec<Vec2> = eye.iter().flat_map(|&e| target.iter().map(move |&t| t - e)).collect();
    let edges = edges_out(cover);
    let in_sight_hull = |s: Segment| {
        if sight_hull.len() >= 3 {
            segment_inside(&sight_hull, &s)
        } else {
            // A degenerate sight hull (the eye and the target on one line): the segment
            // only matters where it meets that line; keep it whole (a weaker bound).
            Some(s)
        }
    };
    let mut bound = 0.0f64;
    if covers(cover, target) {
        let mut last = distance_mm(spotter, target);
        for &(e, n) in &edges {
            if dirs.iter().any(|d| d.dot(n) < 0.0)
                && let Some(c) = in_sight_hull(e)
            {
                last = last.min(segment_distance_mm(&c, target));
            }
        }
        bound = bound.max(last);
    }
    if eye.len() >= 2 && covers(cover, eye) {
        let mut first = distance_mm(eye, target);
        for &(e, n) in &edges {
            if dirs.iter().any(|d| d.dot(n) > 0.0)
                && let Some(c) = in_sight_hull(e)
            {
                first = first.min(segment_distance_mm(&c, eye));
            }
        }
        bound = bound.max(first);
    }
    bound
}

/// Where a sight segment from the segment `eye` to a point of `cell` (a point, or a
/// convex part of the convex `target`, ccw) can first meet the target: the part of the
/// target in the hull of the eye and the cell (the segment lies in that hull and meets
/// the target at its end at the latest). Its first meeting with this part is its first
/// meeting with the target, so [`run_lower_bound`] for the part bounds every such
/// segment's run up to the target. `None` when the hull or the part is degenerate.
pub(crate) fn part_toward(eye: &[Vec2], target: &[Vec2], cell: &[Vec2]) -> Option<Vec<Vec2>> {
    if eye.len() != 2 || target.len() < 3 || cell.is_empty() {
        return None;
    }
    let mut pts = eye.to_vec();
    pts.extend_from_slice(cell);
    let hull = hull_points(pts);
    if hull.len() < 3 {
        return None;
    }
    let part = ConvexPolygon::from_ccw_unchecked(target.to_vec())
        .intersection(&ConvexPolygon::from_ccw_unchecked(hull));
    (part.vertices().len() >= 3).then(|| part.vertices().to_vec())
}

/// Slack on the depth when a bound is compared with it, mm: above the slack of the
/// limit itself, so that rounding never turns a seen line into a cut one.
pub(crate) const DEPTH_SLACK_MM: f64 = 1e-6;

/// True when every sight segment from `eye` to `target` (a base standing partly or
/// wholly in `cover`, whose spotting depth is `depth`) is cut by the depth or blocked,
/// given `hidden`, a test that proves every point of a convex shape hidden from the eye
/// by blockers (not counting this cover).
///
/// A segment reaches the target first at `t'`. Where `t'` is outside the cover it lies
/// in the part of the target outside the cover, whose hull must be hidden. Where it is
/// in the cover, the last piece of the segment in the cover (see the module
/// documentation) starts at an edge the segment crosses inward, in the sight hull, at most
/// `depth` from the target: each such "window" must be hidden. The segment cannot have
/// run in the cover all the way from the spotter's base when the bases are more than
/// `depth` apart.
pub(crate) fn hidden_in_cover(
    cover: &Blocker,
    depth: f64,
    eye: &[Vec2],
    spotter: &[Vec2],
    target: &[Vec2],
    hidden: impl Fn(&[Vec2]) -> bool,
) -> bool {
    if eye.is_empty() || eye.len() > 2 || target.len() < 3 {
        return false;
    }
    if distance_mm(spotter, target) <= depth + DEPTH_SLACK_MM {
        return false;
    }
    let outside = outside_part(cover, target);
    if !outside.is_empty() && !hidden(&hull_points(outside)) {
        return false;
    }
    let mut pts: Vec<Vec2> = eye.to_vec();
    pts.extend_from_slice(target);
    let sight_hull = hull_points(pts);
    if sight_hull.len() < 3 {
        return false;
    }
    let dirs: Vec<Vec2> = eye.iter().flat_map(|&e| target.iter().map(move |&t| t - e)).collect();
    for (e, n) in edges_out(cover) {
        if !dirs.iter().any(|d| d.dot(n) <= 0.0) {
            continue;
        }
        let Some(c) = segment_inside(&sight_hull, &e) else { continue };
        if segment_distance_mm(&c, target) <= depth + DEPTH_SLACK_MM && !hidden(&[c.a, c.b]) {
            return false;
        }
    }
    true
}

/// Points whose hull holds the part of the convex `target` outside the cover (empty
/// when the target is wholly inside): its corners not strictly inside, where its edges
/// cross the cover's outline, and the cover's corners inside it.
fn outside_part(cover: &Blocker, target: &[Vec2]) -> Vec<Vec2> {
    let edges = edges_out(cover);
    let on_outline = |q: Vec2| edges.iter().any(|(e, _)| e.distance_2_to_point(q) <= 1e-18);
    let n = target.len();
    let mut out: Vec<Vec2> =
        target.iter().copied().filter(|&q| !cover.contains(q) || on_outline(q)).collect();
    for i in 0..n {
        let s = Segment::new(target[i], target[(i + 1) % n]);
        for (e, _) in &edges {
            if let Some(x) = s.intersection(e) {
                out.push(x);
            }
        }
    }
    let inside = |q: Vec2| (0..n).all(|i| (target[(i + 1) % n] - target[i]).cross(q - target[i]) >= 0.0);
    out.extend(edges.iter().map(|(e, _)| e.a).filter(|&q| inside(q)));
    out
}

/// A convex part of the cover holding the convex `shape` (a segment or a polygon): the
/// cell, around the shape, of the lines through the cover's edges (those that miss the
/// shape), checked to lie in the cover. `None` when the cover has holes or no such cell
/// lies in it.
pub(crate) fn convex_part_around(cover: &Blocker, shape: &[Vec2]) -> Option<Vec<Vec2>> {
    let poly = cover.polygon();
    if !poly.holes.is_empty() || shape.is_empty() {
        return None;
    }
    let ring = &poly.exterior;
    let n = ring.len();
    let mut planes = Vec::new();
    for i in 0..n {
        let (a, b) = (ring[i], ring[(i + 1) % n]);
        let sides: Vec<f64> = shape.iter().map(|&q| (b - a).cross(q - a)).collect();
        if sides.iter().all(|&x| x >= 0.0) {
            planes.push(HalfPlane::left_of(a, b));
        } else if sides.iter().all(|&x| x <= 0.0) {
            planes.push(HalfPlane::left_of(b, a));
        }
    }
    let hull = ConvexPolygon::from_ccw_unchecked(hull_points(ring.clone()));
    let part = ConvexPolygon::from_half_planes(&hull, &planes);
    let k = part.vertices().to_vec();
    if part.area() <= 0.0 || k.len() < 3 {
        return None;
    }
    // No edge of the cover may pass through the part's inside (deeper than rounding,
    // 1e-7 mm: a segment from the eye to a point of a piece of `beyond_depth`, well
    // inside the part, loses a negligible length to such a sliver); then the part is
    // inside the cover or outside it, and its centre tells which.
    let strictly_inside = |q: Vec2| {
        (0..k.len()).all(|i| {
            let e = k[(i + 1) % k.len()] - k[i];
            let l = e.length();
            l == 0.0 || e.cross(q - k[i]) > 1e-7 * l
        })
    };
    for i in 0..n {
        let e = Segment::new(ring[i], ring[(i + 1) % n]);
        if let Some(c) = segment_inside(&k, &e)
            && (strictly_inside(c.midpoint()) || strictly_inside(c.a) || strictly_inside(c.b))
        {
            return None;
        }
    }
    let centre = part.centroid()?;
    cover.contains(centre).then_some(k)
}

/// Convex pieces that together make up the part of the convex `part` farther than
/// `depth` (plus [`DEPTH_SLACK_MM`]) from the convex `around`: `around` grown by a
/// polygon holding the disc of radius `depth`, and `part` cut along each of its edges.
pub(crate) fn beyond_depth(part: &[Vec2], around: &[Vec2], depth: f64) -> Vec<Vec<Vec2>> {
    const SIDES: usize = 16;
    let r = (depth + DEPTH_SLACK_MM) / (std::f64::consts::PI / SIDES as f64).cos();
    let grown = hull_points(
        around
            .iter()
            .flat_map(|&v| {
                (0..SIDES).map(move |k| v + Vec2::from_heading_deg(360.0 * k as f64 / SIDES as f64) * r)
            })
            .collect::<Vec<_>>(),
    );
    let part = ConvexPolygon::from_ccw_unchecked(part.to_vec());
    let m = grown.len();
    (0..m)
        .filter_map(|i| {
            let piece = part.clipped(&HalfPlane::left_of(grown[(i + 1) % m], grown[i]));
            (piece.area() > 0.0 && piece.vertices().len() >= 3).then(|| piece.vertices().to_vec())
        })
        .collect()
}

/// How deep inside a convex part of a cover a point must lie for every line through it
/// to run more than `depth` inside the part (see [`deep_core`]): half the depth, plus
/// [`DEPTH_SLACK_MM`].
pub(crate) fn core_radius(depth: f64) -> f64 {
    depth / 2.0 + DEPTH_SLACK_MM
}

/// The edge line of the convex `own` (ccw) beyond which the vertices of `toward` lie
/// farthest, judged by the nearest of them: the half-plane of points at least `r`
/// beyond that line, and how far beyond it that nearest vertex lies. Every point of the
/// half-plane is at least `r` from `own`.
fn far_side(own: &[Vec2], r: f64, toward: &[Vec2]) -> Option<(HalfPlane, f64)> {
    let m = own.len();
    if m < 3 {
        return None;
    }
    (0..m)
        .filter_map(|i| {
            let (a, b) = (own[i], own[(i + 1) % m]);
            let u = (b - a).normalized()?;
            let n = u.perp_right();
            let nearest = toward.iter().map(|&q| n.dot(q - a)).fold(f64::INFINITY, f64::min);
            let q = a + n * r;
            Some((HalfPlane::left_of(q, q - u), nearest))
        })
        .max_by(|x, y| x.1.total_cmp(&y.1))
}

/// The part of a convex part of a cover, already shrunk by [`core_radius`]`(depth)`
/// (`core`, ccw), that no sight segment between the convex bases `spotter` and `target`
/// (ccw) can pass through within the spotting `depth`: the points of `core` at least
/// `r = core_radius(depth)` beyond an edge of each base, the edge the other base lies
/// beyond. A segment through such a point `p` runs inside the part along a chord that
/// reaches `r` to either side of `p` (the disc of radius `r` about `p` lies in the
/// part), and none of that chord lies inside the spotter's base or reaches the target
/// base (each lies behind its edge, at least `r` from `p`): more than `depth` inside the
/// cover, counted from where the segment leaves the spotter's base to where it first
/// meets the target. `None` when nothing is left.
pub(crate) fn deep_core(core: &[Vec2], depth: f64, spotter: &[Vec2], target: &[Vec2]) -> Option<Vec<Vec2>> {
    if core.len() < 3 {
        return None;
    }
    let r = core_radius(depth);
    let planes = [far_side(spotter, r, target)?.0, far_side(target, r, spotter)?.0];
    let poly = ConvexPolygon::from_half_planes(&ConvexPolygon::from_ccw_unchecked(core.to_vec()), &planes);
    (poly.area() > 0.0 && poly.vertices().len() >= 3).then(|| poly.into_vertices())
}

/// The parts of a piece of a linear obstacle (a thin rectangle, ccw, from
/// [`Blocker::from_path`]: `[a - n, b - n, b + n, a + n]`, `n` across it) where a sight
/// segment from `eye` to `target` that crosses it is counted as crossing at least
/// `reach` from both bases: sub-rectangles of it, each the full width. A crossing is
/// placed at the middle of the segment's chord through the rectangle, which lies
/// within the chord's length `2h / sin θ` of any point of it (`h` the half-width, `θ`
/// the smallest angle between a sight direction and the obstacle), so the parts keep
/// that much more (plus `h`) beyond an edge line of each base. None where some sight
/// direction runs along the obstacle.
pub(crate) fn wall_parts_beyond(
    wall: &[Vec2],
    reach: f64,
    eye: &[Vec2],
    spotter: &[Vec2],
    target: &[Vec2],
) -> Vec<Vec<Vec2>> {
    let &[p0, p1, p2, p3] = wall else { return Vec::new() };
    let (a, b) = (p0.lerp(p3, 0.5), p1.lerp(p2, 0.5));
    let h = p0.distance(p3) / 2.0;
    let (Some(w), false) = ((b - a).normalized(), eye.is_empty() || target.is_empty()) else {
        return Vec::new();
    };
    // The sight directions: the differences of target and eye points, a convex set whose
    // extreme directions are differences of vertices.
    let centre = |s: &[Vec2]| s.iter().fold(Vec2::ZERO, |acc, &q| acc + q) / s.len() as f64;
    let towards = centre(target) - centre(eye);
    let diffs = target.iter().flat_map(|&t| eye.iter().map(move |&e| t - e));
    let keyed = diffs.map(|d| (relative_pseudo_angle(towards, d), d));
    let (lo, hi) = keyed
        .fold(((f64::INFINITY, Vec2::ZERO), (f64::NEG_INFINITY, Vec2::ZERO)), |(lo, hi), k| {
            (if k.0 < lo.0 { k } else { lo }, if k.0 > hi.0 { k } else { hi })
        });
    if hi.0 - lo.0 >= 2.0
        || [w, -w].iter().any(|&u| (lo.0..=hi.0).contains(&relative_pseudo_angle(towards, u)))
    {
        return Vec::new();
    }
    // Outside the range of directions, the sine is smallest at one of its ends.
    let sine = |d: Vec2| d.normalized().map_or(0.0, |u| w.cross(u).abs());
    let sin_min = sine(lo.1).min(sine(hi.1));
    if sin_min <= 1e-9 {
        return Vec::new();
    }
    let r = reach + 2.0 * h / sin_min + h;
    // Along the middle line a + s (b - a), s in [0, 1]: the start and the end of it far
    // beyond some edge line of `own` ([0, p] and [q, 1]), as sorted disjoint spans.
    let far = |own: &[Vec2]| -> Vec<(f64, f64)> {
        let m = own.len();
        let (mut p, mut q) = (f64::NEG_INFINITY, f64::INFINITY);
        for i in 0..m {
            let (u, v) = (own[i], own[(i + 1) % m]);
            let Some(n) = (v - u).normalized().map(Vec2::perp_right) else { continue };
            let (f0, fs) = (n.dot(a - u) - r, n.dot(b - a));
            if fs > 0.0 {
                q = q.min(-f0 / fs);
            } else if fs < 0.0 {
                p = p.max(-f0 / fs);
            } else if f0 >= 0.0 {
                p = f64::INFINITY;
            }
        }
        let (p, q) = (p.min(1.0), q.max(0.0));
        if p >= q {
            vec![(0.0, 1.0)]
        } else {
            [(0.0, p), (q, 1.0)].into_iter().filter(|(u, v)| v > u).collect()
        }
    };
    if spotter.len() < 3 || target.len() < 3 {
        return Vec::new();
    }
    let (fs, ft) = (far(spotter), far(target));
    let across = w.perp_left() * h;
    let mut out: Vec<Vec<Vec2>> = Vec::new();
    // Each list is sorted and disjoint, so their pairwise meets are too.
    let spans = fs.iter().flat_map(|x| ft.iter().map(move |y| (x.0.max(y.0), x.1.min(y.1))));
    for (s0, s1) in spans.filter(|(s0, s1)| s1 > s0) {
        let (q0, q1) = (a.lerp(b, s0), a.lerp(b, s1));
        out.push(vec![q0 - across, q1 - across, q1 + across, q0 + across]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::polygon::Polygon;

    fn rect(x0: f64, y0: f64, x1: f64, y1: f64) -> Vec<Vec2> {
        vec![Vec2::new(x0, y0), Vec2::new(x1, y0), Vec2::new(x1, y1), Vec2::new(x0, y1)]
    }

    #[test]
    fn a_target_deep_in_a_wood_is_at_least_its_depth_from_the_edge_it_is_seen_through() {
        // Wood y ∈ [200, 400]; eye x ∈ [-30, 30] at y = 10; target x ∈ [-15, 15] with its
        // front edge at y = 200 + d.
        let wood = Blocker::new(Polygon::new(rect(-200.0, 200.0, 200.0, 400.0), vec![]));
        let eye = [Vec2::new(-30.0, 10.0), Vec2::new(30.0, 10.0)];
        let spotter = rect(-30.0, -10.0, 30.0, 10.0);
        for d in [22.86, 27.94] {
            let target = rect(-15.0, 200.0 + d, 15.0, 220.0 + d);
            let b = run_lower_bound(&wood, &eye, &spotter, &target);
            assert!((b - d).abs() < 1e-9, "{b}");
        }
        // Seen from the side, through the wood's side edge x = 200: the bound is the
        // distance from the part of that edge inside the sight hull (y from 265.6 to
        // 290) to the target, at least the 185 mm between x = 200 and x = 15; the front
        // edge y = 200 cannot be crossed inward on the way.
        let side_eye = [Vec2::new(400.0, 300.0), Vec2::new(400.0, 330.0)];
        let side_spotter = rect(400.0, 300.0, 420.0, 330.0);
        let target = rect(-15.0, 230.0, 15.0, 250.0);
        let b = run_lower_bound(&wood, &side_eye, &side_spotter, &target);
        let corner = Vec2::new(15.0, 250.0);
        let entry = Vec2::new(200.0, 230.0 + (300.0 - 230.0) * 185.0 / 385.0);
        assert!((b - corner.distance(entry)).abs() < 1e-9, "{b}");
        // Straddling the edge: no bound.
        let target = rect(-15.0, 190.0, 15.0, 210.0);
        assert_eq!(run_lower_bound(&wood, &eye, &spotter, &target), 0.0);
    }

    #[test]
    fn a_whole_base_eye_is_bounded_as_its_front_edge_is() {
        // The scenes of the two tests above with the spotter's whole base as the eye:
        // a target d mm inside the wood, and an eye d mm inside it (its front edge d mm
        // from the wood's edge, the rest of the base deeper).
        let wood = Blocker::new(Polygon::new(rect(-200.0, 200.0, 200.0, 400.0), vec![]));
        let spotter = rect(-30.0, -10.0, 30.0, 10.0);
        for d in [22.86, 27.94] {
            let target = rect(-15.0, 200.0 + d, 15.0, 220.0 + d);
            let b = run_lower_bound(&wood, &spotter, &spotter, &target);
            assert!((b - d).abs() < 1e-9, "{b}");
        }
        let wood = Blocker::new(Polygon::new(rect(-200.0, -400.0, 200.0, 30.0), vec![]));
        for d in [22.86, 27.94] {
            let spotter = rect(-30.0, 10.0 - d, 30.0, 30.0 - d);
            let target = rect(-15.0, 290.0, 15.0, 310.0);
            let b = run_lower_bound(&wood, &spotter, &spotter, &target);
            assert!((b - d).abs() < 1e-9, "{b}");
        }
        // A base straddling the wood's edge bounds nothing.
        let spotter = rect(-30.0, 20.0, 30.0, 40.0);
        let target = rect(-15.0, 290.0, 15.0, 310.0);
        assert_eq!(run_lower_bound(&wood, &spotter, &spotter, &target), 0.0);
    }

    #[test]
    fn a_point_of_the_target_is_bounded_by_the_part_of_the_target_toward_the_eye() {
        // Wood x ∈ [0, 400]; the eye x = -100, y ∈ [-2, 2]; a thin target across the line
        // of sight, x ∈ [20, 30], y ∈ [-50, 50], wholly in the wood. The whole target has
        // bound 20 (its front face, 20 mm in); so has its centre (25, 0), whose lines
        // all meet the target within 0.08 mm of y = 0 on that face: a depth of 20.05 mm
        // leaves it seen, 19.95 mm hides it. A point near its end, (25, 45), is only
        // reached through the face well off the axis: every line runs more than 20 mm in.
        let wood = Blocker::new(Polygon::new(rect(0.0, -400.0, 400.0, 400.0), vec![]));
        let eye = [Vec2::new(-100.0, 2.0), Vec2::new(-100.0, -2.0)];
        let spotter = rect(-120.0, -2.0, -100.0, 2.0);
        let target = rect(20.0, -50.0, 30.0, 50.0);
        assert!((run_lower_bound(&wood, &eye, &spotter, &target) - 20.0).abs() < 1e-9);
        let centre = part_toward(&eye, &target, &[Vec2::new(25.0, 0.0)]).unwrap_or_default();
        let b = run_lower_bound(&wood, &eye, &spotter, &centre);
        assert!((b - 20.0).abs() < 1e-9, "{b}");
        assert!(b > 19.95 && b <= 20.05);
        // Toward (25, 45) the part lies within y ∈ [43.1, 45] at x ≥ 20, and the
        // sight hull crosses x = 0 at y ≤ 36.4: more than 21 mm apart.
        let end = part_toward(&eye, &target, &[Vec2::new(25.0, 45.0)]).unwrap_or_default();
        assert!(end.iter().all(|q| q.y > 42.5 && q.y < 45.5 && q.x >= 20.0 - 1e-9), "{end:?}");
        let b = run_lower_bound(&wood, &eye, &spotter, &end);
        assert!(b > 21.0 && b < 21.2, "{b}");
        // Degenerate: t on the eye's line, or a target of two points.
        assert!(part_toward(&eye, &target, &[Vec2::new(-100.0, 50.0)]).is_none());
        assert!(part_toward(&eye, &target[..2], &[Vec2::new(25.0, 0.0)]).is_none());
    }

    #[test]
    fn an_eye_in_a_wood_sees_out_through_the_near_edge_only() {
        // Wood y ∈ [-400, 30]; the eye at y = 30 - d, the target far in the open.
        let wood = Blocker::new(Polygon::new(rect(-200.0, -400.0, 200.0, 30.0), vec![]));
        for d in [22.86, 27.94] {
            let eye = [Vec2::new(-30.0, 30.0 - d), Vec2::new(30.0, 30.0 - d)];
            let spotter = rect(-30.0, 10.0 - d, 30.0, 30.0 - d);
            let target = rect(-15.0, 290.0, 15.0, 310.0);
            let b = run_lower_bound(&wood, &eye, &spotter, &target);
            assert!((b - d).abs() < 1e-9, "{b}");
        }
    }

    #[test]
    fn a_deep_core_keeps_the_points_half_the_depth_inside_and_beyond_both_bases() {
        // A 200 × 200 part, depth 50: the core is the part shrunk by r = 25 (+ slack).
        // Gun base below it (front edge y = -10), target above it (near edge y = 230):
        // neither cuts the core.
        let part = rect(0.0, 0.0, 200.0, 200.0);
        let r = core_radius(50.0);
        let core = crate::convex::shrink(&part, r).unwrap_or_default();
        let gun = rect(90.0, -50.0, 110.0, -10.0);
        let contains = |c: &[Vec2], q: Vec2| ConvexPolygon::from_ccw_unchecked(c.to_vec()).contains(q);
        let deep = deep_core(&core, 50.0, &gun, &rect(90.0, 230.0, 110.0, 250.0)).unwrap_or_default();
        assert!(contains(&deep, Vec2::new(25.01, 174.99)) && contains(&deep, Vec2::new(174.99, 25.01)));
        assert!(!contains(&deep, Vec2::new(24.99, 100.0)) && !contains(&deep, Vec2::new(100.0, 175.01)));
        // The target's near edge at y = 190: the core stops r short of it, at y = 165.
        let deep = deep_core(&core, 50.0, &gun, &rect(90.0, 190.0, 110.0, 210.0)).unwrap_or_default();
        assert!(contains(&deep, Vec2::new(100.0, 164.99)));
        assert!(!contains(&deep, Vec2::new(100.0, 165.01)));
        // The gun's front edge at y = 10: the core starts r past it, at y = 35.
        let near_gun = rect(90.0, -30.0, 110.0, 10.0);
        let deep = deep_core(&core, 50.0, &near_gun, &rect(90.0, 230.0, 110.0, 250.0)).unwrap_or_default();
        assert!(contains(&deep, Vec2::new(100.0, 35.01)));
        assert!(!contains(&deep, Vec2::new(100.0, 34.99)));
        // A part 50 mm wide has no core for a depth of 50 (every chord may be 50 long).
        let thin = crate::convex::shrink(&rect(0.0, 0.0, 200.0, 50.0), r);
        assert!(thin.is_none());
        let thick = crate::convex::shrink(&rect(0.0, 0.0, 200.0, 50.01), r);
        assert!(thick.is_some());
    }

    #[test]
    fn a_wall_is_cut_where_every_crossing_is_beyond_reach_of_both_bases() {
        let gun = rect(-12.5, -20.0, 12.5, 20.0);
        let eye = [Vec2::new(-12.5, 20.0), Vec2::new(12.5, 20.0)];
        let foe = rect(-15.0, 300.0, 15.0, 320.0);
        let wall = |y: f64| Blocker::from_path(&[Vec2::new(-100.0, y), Vec2::new(100.0, y)]);
        let parts = |y: f64, reach: f64| {
            wall(y)
                .iter()
                .flat_map(|b| wall_parts_beyond(&b.polygon().exterior, reach, &eye, &gun, &foe))
                .collect::<Vec<_>>()
        };
        // A wall across y = 200: 100 from the foe's near side, the sight lines crossing
        // it nearly square (their sine at least 0.99), so a crossing's middle is within
        // 0.02 / 0.99 of any point of its chord, and the wall is 0.01 thick each side:
        // wholly kept up to a reach of about 99.97, and none of it kept from 99.99 on.
        let whole = parts(200.0, 99.96);
        assert_eq!(whole.len(), 1);
        assert!(whole[0].iter().all(|q| (q.x.abs() - 100.01).abs() < 1e-9), "{whole:?}");
        assert!(parts(200.0, 99.99).is_empty());
        // Sight lines run along a wall beside the foe (x = 40): none of it is kept.
        let side = Blocker::from_path(&[Vec2::new(40.0, 100.0), Vec2::new(40.0, 320.0)]);
        assert!(wall_parts_beyond(&side[0].polygon().exterior, 1.0, &eye, &gun, &foe).is_empty());
        // A slanted wall from (-100, 150) to (60, 300), 30.8 from the foe's corner
        // (15, 300) at its nearest, crossed at a sine of at least 0.73 (a margin of
        // 0.037): for a reach of 10 it is kept whole; for 35, two parts, one ending at
        // y = 300 − 35.037 (below the foe's near side) and one starting at x = 15 +
        // 35.037 (right of its right side).
        let slant = Blocker::from_path(&[Vec2::new(-100.0, 150.0), Vec2::new(60.0, 300.0)]);
        let ring = &slant[0].polygon().exterior;
        let kept = wall_parts_beyond(ring, 10.0, &eye, &gun, &foe);
        assert_eq!(kept.len(), 1, "{kept:?}");
        assert!(kept[0].iter().zip(ring).all(|(a, b)| a.distance(*b) < 1e-9), "{kept:?}");
        let kept = wall_parts_beyond(ring, 35.0, &eye, &gun, &foe);
        assert_eq!(kept.len(), 2, "{kept:?}");
        let top = kept[0].iter().map(|q| q.y).fold(f64::NEG_INFINITY, f64::max);
        let left = kept[1].iter().map(|q| q.x).fold(f64::INFINITY, f64::min);
        assert!((top - 264.96).abs() < 0.02 && (left - 50.04).abs() < 0.02, "{top} {left}");
    }
}
