//! The outline of every point within `r` of a set of filled rings (their buffer: the
//! Minkowski sum with a disk of radius `r`), holes filled: deployment areas (000 §2.1)
//! and leaders' reaches (§2.3).
//!
//! Built from its exact pieces rather than by a polygon union. The buffer's boundary
//! lies on the **elements**: each ring edge moved out by `r` (a segment) and, at each
//! convex vertex, the arc of radius `r` joining its two edges' moved copies. A point of
//! an element lies on the boundary exactly when no edge of any ring is nearer than `r`
//! (an element point inside another ring is within `r` of that ring's edges, since no
//! ring lies inside another: nested rings are dropped first, being inside the filled
//! outline anyway). So each element is cut where it crosses another edge's capsule (the
//! points within `r` of the edge), the parts inside a capsule are dropped, and the
//! parts left are joined end to start into loops: counter-clockwise loops are outlines,
//! clockwise ones enclose holes (dropped: holes are filled), and an outline inside
//! another (an island in a hole) is dropped too.
//!
//! Exactness: straight parts and every junction are exact (to rounding); arcs are
//! written as polygons circumscribed about them, lying outside the true arc by at most
//! `arc_excess` and never inside it, so the outline holds the true buffer.
//!
//! Cost: each element meets only the edges within `2r` of it (found through the edges
//! sorted by x), so a division of `n` bases costs about `n` times its neighbours, with no
//! polygon overlay.

use crate::convex::{bbox, signed_area};
use crate::polygon::{Polygon, ring_contains};
use crate::vec2::Vec2;
use std::f64::consts::TAU;

/// How much nearer than `r` an edge must be to a point of an element to drop it, mm:
/// rounding, not geometry (a table's coordinates carry about 1e-13 mm of it). Pieces
/// of an element that only touches another edge's capsule (an exact tie) are kept.
const CUT_TOLERANCE_MM: f64 = 1e-9;

/// One ring edge, from `a` to `b`.
#[derive(Debug, Clone, Copy)]
struct Edge {
    a: Vec2,
    b: Vec2,
}

impl Edge {
    fn distance_2(&self, p: Vec2) -> f64 {
        let d = self.b - self.a;
        let l2 = d.length_2();
        let t = if l2 > 0.0 { ((p - self.a).dot(d) / l2).clamp(0.0, 1.0) } else { 0.0 };
        p.distance_2(self.a + d * t)
    }

    fn box_x(&self) -> (f64, f64) {
        (self.a.x.min(self.b.x), self.a.x.max(self.b.x))
    }

    fn box_y(&self) -> (f64, f64) {
        (self.a.y.min(self.b.y), self.a.y.max(self.b.y))
    }
}

/// A piece of the boundary that may survive: an edge moved out, or a corner's arc.
#[derive(Debug, Clone, Copy)]
enum Element {
    /// From `a` to `b` (edge `edge` moved out by `r`).
    Line { a: Vec2, b: Vec2, edge: usize },
    /// Centre `c`, from unit direction `d0` counter-clockwise to the direction at
    /// pseudo-angle `end` ([`pseudo_angle`] from `d0`, under 2: less than a half turn),
    /// at the vertex between edges `edges`.
    Arc { c: Vec2, d0: Vec2, end: f64, edges: (usize, usize) },
}

impl Element {
    /// The point at parameter `s` (a fraction along a line, a pseudo-angle from the
    /// start of an arc).
    fn at(&self, s: f64, r: f64) -> Vec2 {
        match *self {
            Element::Line { a, b, .. } => a.lerp(b, s),
            Element::Arc { c, d0, .. } => c + from_pseudo_angle(d0, s) * r,
        }
    }

    /// The parameter range.
    fn end(&self) -> f64 {
        match *self {
            Element::Line { .. } => 1.0,
            Element::Arc { end, .. } => end,
        }
    }

    /// True when edge `i` generates this element (it is at exactly `r` from it).
    fn generated_by(&self, i: usize) -> bool {
        match *self {
            Element::Line { edge, .. } => edge == i,
            Element::Arc { edges, .. } => edges.0 == i || edges.1 == i,
        }
    }

    /// Its box, (min, max).
    fn bbox(&self, r: f64) -> (Vec2, Vec2) {
        match *self {
            Element::Line { a, b, .. } => {
                (Vec2::new(a.x.min(b.x), a.y.min(b.y)), Vec2::new(a.x.max(b.x), a.y.max(b.y)))
            }
            Element::Arc { c, .. } => (c - Vec2::new(r, r), c + Vec2::new(r, r)),
        }
    }

    /// When edge `e` may hold some of it within `r`: the squared distance from the
    /// element's middle to the edge (to try the nearest edges first); `None` when the
    /// edge is farther than `r` from all of it.
    fn reach_2(&self, e: &Edge, r: f64) -> Option<f64> {
        match *self {
            Element::Line { a, b, .. } => {
                let d2 = segments_distance_2(a, b, e);
                (d2 < r * r).then(|| e.distance_2(a.lerp(b, 0.5)))
            }
            Element::Arc { c, d0, end, .. } => (e.distance_2(c) < 4.0 * r * r)
                .then(|| e.distance_2(c + from_pseudo_angle(d0, 0.5 * end) * r)),
        }
    }

    /// The parameters of an arc (pseudo-angles strictly inside its range) where it may
    /// cross the boundary of the points within `r` of edge `e`: a superset of the true
    /// crossings is enough, each part between two is tested whole. None for a line
    /// ([`line_held`]).
    fn arc_cuts(&self, e: &Edge, r: f64, out: &mut Vec<f64>) {
        let Element::Arc { c, d0, end, .. } = *self else { return };
        // Each crossing as its direction from the centre: no trigonometry.
        let mut push = |w: Vec2| {
            let s = pseudo_angle(d0, w);
            if s > 0.0 && s < end {
                out.push(s);
            }
        };
        for p in [e.a, e.b] {
            // Two circles of radius r: symmetric about the line of centres.
            let to = p - c;
            let d2 = to.length_2();
            if d2 > 0.0 && d2 <= 4.0 * r * r {
                let h = (r * r - 0.25 * d2).max(0.0).sqrt() / d2.sqrt();
                let mid = to * 0.5;
                push(mid + to.perp_left() * h);
                push(mid - to.perp_left() * h);
            }
        }
        if let Some(u) = (e.b - e.a).normalized() {
            let n = u.perp_left();
            let h = n.dot(c - e.a);
            // The circle meets the lines of the strip's sides (n . (q - e.a) = +-r): `k`
            // along `n`, the rest across. With the two circles these hold every point
            // where the arc crosses the boundary of the capsule (its sides and end
            // circles, each taken whole).
            for k in [r - h, -r - h] {
                if k.abs() <= r {
                    let across = u * (r * r - k * k).max(0.0).sqrt();
                    push(n * k + across);
                    push(n * k - across);
                }
            }
        }
    }
}

/// A pseudo-angle of direction `w` from the unit direction `d0`, counter-clockwise, in
/// [0, 4): a quarter turn is 1, growing with the true angle (so parts of an arc sort
/// and split as by angle) and computed without trigonometry.
fn pseudo_angle(d0: Vec2, w: Vec2) -> f64 {
    let (x, y) = (d0.dot(w), d0.cross(w));
    let p = if y >= 0.0 {
        if x > 0.0 { y / (x + y) } else { 1.0 + (-x) / (y - x) }
    } else if x < 0.0 {
        2.0 + (-y) / (-x - y)
    } else {
        3.0 + x / (x - y)
    };
    if p.is_finite() { p } else { 0.0 }
}

/// The unit direction at pseudo-angle `p` ([`pseudo_angle`]) from `d0`.
fn from_pseudo_angle(d0: Vec2, p: f64) -> Vec2 {
    let quarter = p.floor().clamp(0.0, 3.0);
    let f = p - quarter;
    // Within the quarter: between its first axis and the next, on the diamond.
    let (x, y) = (1.0 - f, f);
    let local = match quarter as u8 {
        0 => Vec2::new(x, y),
        1 => Vec2::new(-y, x),
        2 => Vec2::new(-x, -y),
        _ => Vec2::new(y, -x),
    };
    let v = d0 * local.x + d0.perp_left() * local.y;
    v.normalized().unwrap_or(d0)
}

/// The unit vector at angle `theta`, radians.
fn direction(theta: f64) -> Vec2 {
    let (s, c) = theta.sin_cos();
    Vec2::new(c, s)
}

/// The squared distance between segment `a`-`b` and edge `e`.
fn segments_distance_2(a: Vec2, b: Vec2, e: &Edge) -> f64 {
    let (c, d) = (e.a, e.b);
    let side = |p: Vec2, q: Vec2, x: Vec2| (q - p).cross(x - p);
    let crossing = side(a, b, c) * side(a, b, d) < 0.0 && side(c, d, a) * side(c, d, b) < 0.0;
    if crossing {
        return 0.0;
    }
    let other = Edge { a, b };
    e.distance_2(a).min(e.distance_2(b)).min(other.distance_2(c)).min(other.distance_2(d))
}

/// The parameters `t` in (0, 1) where `a + t (b - a)` is nearer than `r` to edge `e`
/// (one interval: the points within `r` of an edge are convex), or `None`; an
/// interval whose middle is not nearer than `limit_2.sqrt()` (a tangency within rounding)
/// is none.
fn line_held(a: Vec2, b: Vec2, e: &Edge, r: f64, limit_2: f64) -> Option<(f64, f64)> {
    let v = b - a;
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    let mut take = |t0: f64, t1: f64| {
        if t1 > t0 {
            lo = lo.min(t0);
            hi = hi.max(t1);
        }
    };
    // The two end disks.
    for p in [e.a, e.b] {
        if let Some((t0, t1)) = circle_line(a - p, v, r) {
            take(t0, t1);
        }
    }
    // The strip between them: across within r, along between the ends.
    if let Some(u) = (e.b - e.a).normalized() {
        let n = u.perp_left();
        let (mut t0, mut t1) = (f64::NEG_INFINITY, f64::INFINITY);
        for (start, rate, min, max) in
            [(n.dot(a - e.a), n.dot(v), -r, r), (u.dot(a - e.a), u.dot(v), 0.0, e.a.distance(e.b))]
        {
            if rate == 0.0 {
                if !(start > min && start < max) {
                    t1 = f64::NEG_INFINITY;
                }
            } else {
                let (x, y) = ((min - start) / rate, (max - start) / rate);
                t0 = t0.max(x.min(y));
                t1 = t1.min(x.max(y));
            }
        }
        take(t0, t1);
    }
    let (lo, hi) = (lo.max(0.0), hi.min(1.0));
    (hi > lo && e.distance_2(a.lerp(b, 0.5 * (lo + hi))) < limit_2).then_some((lo, hi))
}

/// The parameters `t` (ascending) where `w + t v` is at distance `r` from the origin.
fn circle_line(w: Vec2, v: Vec2, r: f64) -> Option<(f64, f64)> {
    let a = v.length_2();
    if a == 0.0 {
        return None;
    }
    let half_b = w.dot(v);
    let c = w.length_2() - r * r;
    let disc = half_b * half_b - a * c;
    if disc < 0.0 {
        return None;
    }
    let q = disc.sqrt();
    Some(((-half_b - q) / a, (-half_b + q) / a))
}

/// A surviving part of an element: parameters `from` to `to`.
#[derive(Debug, Clone, Copy)]
struct Piece {
    element: usize,
    from: f64,
    to: f64,
}

/// The outlines of the points within `r` of the filled counter-clockwise `rings`, holes
/// filled; round corners circumscribed, at most `arc_excess` outside the true arcs.
/// Each outline is counter-clockwise. Rings of fewer than three points are skipped.
pub(crate) fn buffer_outlines(rings: &[Vec<Vec2>], r: f64, arc_excess: f64) -> Vec<Polygon> {
    let rings: Vec<Vec<Vec2>> = rings.iter().map(|g| cleaned(g)).filter(|g| g.len() >= 3).collect();
    // A ring inside another's filled outline adds nothing.
    let rings: Vec<&Vec<Vec2>> = rings
        .iter()
        .enumerate()
        .filter(|(i, g)| !rings.iter().enumerate().any(|(j, o)| j != *i && nested(g, o, *i < j)))
        .map(|(_, g)| g)
        .collect();
    if r.is_nan() || r <= 0.0 {
        return rings.into_iter().map(|g| Polygon::new(g.clone(), vec![])).collect();
    }
    // The edges, and each ring's elements: its edges moved out, its convex corners' arcs.
    let mut edges: Vec<Edge> = Vec::new();
    let mut elements: Vec<Element> = Vec::new();
    for g in &rings {
        let n = g.len();
        let first = edges.len();
        edges.extend((0..n).map(|i| Edge { a: g[i], b: g[(i + 1) % n] }));
        // Cleaned rings have no edge of no length.
        let normal = |i: usize| (g[(i + 1) % n] - g[i]).normalized().map_or(Vec2::ZERO, Vec2::perp_right);
        for i in 0..n {
            let (m0, m1) = (normal(i), normal((i + 1) % n));
            let (a, b) = (g[i], g[(i + 1) % n]);
            elements.push(Element::Line { a: a + m0 * r, b: b + m0 * r, edge: first + i });
            let turn = m0.cross(m1).atan2(m0.dot(m1));
            if turn > 1e-12 {
                elements.push(Element::Arc {
                    c: b,
                    d0: m0,
                    end: pseudo_angle(m0, m1),
                    edges: (first + i, first + (i + 1) % n),
                });
            }
        }
    }
    let pieces = surviving_pieces(&edges, &elements, r);
    let loops = joined(&pieces, &elements, r);
    // Counter-clockwise loops are outlines; clockwise ones bound holes.
    let outlines: Vec<Vec<Vec2>> = loops
        .iter()
        .map(|l| written(l, &pieces, &elements, r, arc_excess))
        .filter(|ring| ring.len() >= 3 && signed_area(ring) > 0.0)
        .collect();
    let keep: Vec<bool> = (0..outlines.len())
        .map(|i| !outlines.iter().enumerate().any(|(j, o)| j != i && nested(&outlines[i], o, i < j)))
        .collect();
    outlines.into_iter().zip(keep).filter(|(_, k)| *k).map(|(g, _)| Polygon::new(g, vec![])).collect()
}

/// The ring without repeated points (consecutive, or the last equal to the first).
fn cleaned(ring: &[Vec2]) -> Vec<Vec2> {
    let mut out: Vec<Vec2> = Vec::with_capacity(ring.len());
    for &p in ring {
        if out.last() != Some(&p) {
            out.push(p);
        }
    }
    while out.len() > 1 && out.first() == out.last() {
        out.pop();
    }
    out
}

/// True when ring `inner` lies inside ring `outer`'s filled outline (the two rings'
/// insides do not cross: a union's rings, or a buffer's loops; they may touch): no
/// vertex of `inner` lies outside `outer`. Of two equal rings only the later one is
/// nested (`inner_first`: `inner` comes first).
fn nested(inner: &[Vec2], outer: &[Vec2], inner_first: bool) -> bool {
    let (ilo, ihi) = bbox(inner.iter().copied());
    let (olo, ohi) = bbox(outer.iter().copied());
    if ilo.x < olo.x || ilo.y < olo.y || ihi.x > ohi.x || ihi.y > ohi.y {
        return false;
    }
    if inner == outer {
        return !inner_first;
    }
    let n = outer.len();
    let on_boundary = |p: Vec2| {
        (0..n).any(|i| Edge { a: outer[i], b: outer[(i + 1) % n] }.distance_2(p) <= CUT_TOLERANCE_MM.powi(2))
    };
    inner.iter().all(|&p| ring_contains(outer, p) || on_boundary(p))
}

/// Each element's parts farther than `r` (less the tolerance) from every edge, in
/// element order, each part in order along its element.
fn surviving_pieces(edges: &[Edge], elements: &[Element], r: f64) -> Vec<Piece> {
    // Edges by the left of their box, and the widest box: the edges near an element
    // are a run of this order.
    let mut by_x: Vec<usize> = (0..edges.len()).collect();
    by_x.sort_by(|&i, &j| edges[i].box_x().0.total_cmp(&edges[j].box_x().0));
    let lefts: Vec<f64> = by_x.iter().map(|&i| edges[i].box_x().0).collect();
    let widest = edges.iter().map(|e| e.box_x().1 - e.box_x().0).fold(0.0, f64::max);
    let limit_2 = (r - CUT_TOLERANCE_MM).max(0.0).powi(2);
    let mut pieces = Vec::new();
    let mut near: Vec<(f64, usize)> = Vec::new();
    let mut cuts: Vec<f64> = Vec::new();
    let mut culled: Vec<(f64, f64)> = Vec::new();
    // The edge that last held an element whole: the next element along the same ring
    // is most often held by it too, which settles it without a look at its neighbours.
    let mut last_holder: Option<usize> = None;
    for (k, el) in elements.iter().enumerate() {
        if let Some(i) = last_holder.filter(|&i| !el.generated_by(i)) {
            culled.clear();
            held_parts(el, &edges[i], r, limit_2, &mut cuts, &mut culled);
            if culled.len() == 1 && culled[0].0 <= 0.0 && culled[0].1 >= el.end() {
                continue;
            }
        }
        let (lo, hi) = el.bbox(r);
        let first = lefts.partition_point(|&x| x < lo.x - r - widest);
        near.clear();
        for &i in &by_x[first..] {
            let e = &edges[i];
            let (x0, x1) = e.box_x();
            if x0 > hi.x + r {
                break;
            }
            let (y0, y1) = e.box_y();
            if x1 < lo.x - r || y0 > hi.y + r || y1 < lo.y - r || el.generated_by(i) {
                continue;
            }
            if let Some(d2) = el.reach_2(e, r) {
                near.push((d2, i));
            }
        }
        // The nearest first: the edge most likely to hold the element whole.
        if let Some(k) = (0..near.len()).min_by(|&a, &b| near[a].0.total_cmp(&near[b].0)) {
            near.swap(0, k);
        }
        // The parts of the element each near edge holds within `r`: an element held
        // whole by one edge is gone (most arcs, deep inside their neighbours' buffers).
        culled.clear();
        let end = el.end();
        let mut gone = false;
        for &(_, i) in &near {
            let e = &edges[i];
            let first = culled.len();
            held_parts(el, e, r, limit_2, &mut cuts, &mut culled);
            // The parts held so far, merged: the element is gone once they cover it.
            if culled.len() > first {
                let whole = culled.len() == first + 1 && culled[first].0 <= 0.0 && culled[first].1 >= end;
                merge(&mut culled);
                if culled.len() == 1 && culled[0].0 <= 0.0 && culled[0].1 >= end {
                    if whole {
                        last_holder = Some(i);
                    }
                    gone = true;
                    break;
                }
            }
        }
        if gone {
            continue;
        }
        // What no edge holds.
        let mut from = 0.0;
        for &(c0, c1) in culled.iter() {
            if c0 > from {
                pieces.push(Piece { element: k, from, to: c0 });
            }
            from = f64::max(from, c1);
        }
        if from < end {
            pieces.push(Piece { element: k, from, to: end });
        }
    }
    pieces
}

/// Appends to `culled` the parts of element `el` (parameter intervals, in order) that
/// edge `e` holds nearer than `limit_2.sqrt()`; `cuts` is scratch.
fn held_parts(
    el: &Element,
    e: &Edge,
    r: f64,
    limit_2: f64,
    cuts: &mut Vec<f64>,
    culled: &mut Vec<(f64, f64)>,
) {
    match *el {
        Element::Line { a, b, .. } => culled.extend(line_held(a, b, e, r, limit_2)),
        Element::Arc { end, .. } => {
            let first = culled.len();
            cuts.clear();
            cuts.push(0.0);
            cuts.push(end);
            el.arc_cuts(e, r, cuts);
            cuts.sort_by(f64::total_cmp);
            for w in cuts.windows(2) {
                if w[1] > w[0] && e.distance_2(el.at(0.5 * (w[0] + w[1]), r)) < limit_2 {
                    let len = culled.len();
                    match culled.last_mut() {
                        Some(last) if len > first && last.1 >= w[0] => last.1 = w[1],
                        _ => culled.push((w[0], w[1])),
                    }
                }
            }
        }
    }
}

/// Intervals sorted by their start and merged where they overlap or touch.
fn merge(intervals: &mut Vec<(f64, f64)>) {
    intervals.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut out = 0;
    for i in 0..intervals.len() {
        let (a, b) = intervals[i];
        if i > 0 && a <= intervals[out - 1].1 {
            intervals[out - 1].1 = intervals[out - 1].1.max(b);
        } else {
            intervals[out] = (a, b);
            out += 1;
        }
    }
    intervals.truncate(out);
}

/// The pieces joined end to start into loops (indices into `pieces`): each piece's end
/// is joined to the nearest start not yet taken, nearest pairs first (a piece ends where
/// the next begins, up to rounding).
fn joined(pieces: &[Piece], elements: &[Element], r: f64) -> Vec<Vec<usize>> {
    let ends: Vec<Vec2> = pieces.iter().map(|p| elements[p.element].at(p.to, r)).collect();
    let starts: Vec<Vec2> = pieces.iter().map(|p| elements[p.element].at(p.from, r)).collect();
    // Starts by x; each end's nearest starts are found by widening a window.
    let mut by_x: Vec<usize> = (0..starts.len()).collect();
    by_x.sort_by(|&i, &j| starts[i].x.total_cmp(&starts[j].x));
    let xs: Vec<f64> = by_x.iter().map(|&i| starts[i].x).collect();
    let mut pairs: Vec<(f64, usize, usize)> = Vec::new();
    for (i, &e) in ends.iter().enumerate() {
        let mut reach = 1e-6;
        loop {
            let from = xs.partition_point(|&x| x < e.x - reach);
            let found: Vec<(f64, usize, usize)> = by_x[from..]
                .iter()
                .take_while(|&&j| starts[j].x <= e.x + reach)
                .map(|&j| (starts[j].distance(e), i, j))
                .filter(|p| p.0 <= reach)
                .collect();
            if !found.is_empty() || reach > 1e12 {
                pairs.extend(found);
                break;
            }
            reach *= 16.0;
        }
    }
    pairs.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
    let mut next: Vec<Option<usize>> = vec![None; pieces.len()];
    let mut taken = vec![false; pieces.len()];
    for (_, i, j) in pairs {
        if next[i].is_none() && !taken[j] {
            next[i] = Some(j);
            taken[j] = true;
        }
    }
    // Ends left over (their nearest starts taken by nearer ends): the nearest free start.
    for i in 0..pieces.len() {
        if next[i].is_none()
            && let Some(j) = (0..pieces.len())
                .filter(|&j| !taken[j])
                .min_by(|&a, &b| starts[a].distance_2(ends[i]).total_cmp(&starts[b].distance_2(ends[i])))
        {
            next[i] = Some(j);
            taken[j] = true;
        }
    }
    let mut seen = vec![false; pieces.len()];
    let mut loops = Vec::new();
    for s in 0..pieces.len() {
        if seen[s] {
            continue;
        }
        let mut l = Vec::new();
        let mut k = s;
        while !seen[k] {
            seen[k] = true;
            l.push(k);
            match next[k] {
                Some(n) => k = n,
                None => break,
            }
        }
        loops.push(l);
    }
    loops
}

/// A loop of pieces as a ring: each piece's start, and along an arc the vertices of the
/// polygon circumscribed about it (its edges tangent to the arc, at most `arc_excess`
/// outside it).
fn written(l: &[usize], pieces: &[Piece], elements: &[Element], r: f64, arc_excess: f64) -> Vec<Vec2> {
    let step_max = 2.0 * (r / (r + arc_excess)).acos();
    let mut ring = Vec::new();
    for &k in l {
        let p = pieces[k];
        let el = &elements[p.element];
        ring.push(el.at(p.from, r));
        if let Element::Arc { c, d0, .. } = *el {
            let angle = |p: f64| {
                let v = from_pseudo_angle(d0, p);
                v.y.atan2(v.x)
            };
            let start = angle(p.from);
            let sweep = (angle(p.to) - start).rem_euclid(TAU);
            let n = (sweep / step_max).ceil().max(1.0);
            let step = sweep / n;
            let out_r = r / (0.5 * step).cos();
            for i in 0..n as usize {
                ring.push(c + direction(start + (i as f64 + 0.5) * step) * out_r);
            }
        }
    }
    cleaned(&ring)
}

/// A frame 1000 mm square with 100 mm walls and a 50 mm opening in its left wall (from
/// y = 475 to 525 mm), counter-clockwise: a ring whose buffer closes the opening and
/// encloses a gap (tests).
#[cfg(test)]
pub(crate) fn walled_frame() -> Vec<Vec2> {
    [
        (0.0, 0.0),
        (1000.0, 0.0),
        (1000.0, 1000.0),
        (0.0, 1000.0),
        (0.0, 525.0),
        (100.0, 525.0),
        (100.0, 900.0),
        (900.0, 900.0),
        (900.0, 100.0),
        (100.0, 100.0),
        (100.0, 475.0),
        (0.0, 475.0),
    ]
    .map(|(x, y)| Vec2::new(x, y))
    .to_vec()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f64::consts::PI;

    const R: f64 = 76.2;
    const EXCESS: f64 = 0.005;

    fn ring(pts: &[(f64, f64)]) -> Vec<Vec2> {
        pts.iter().map(|&(x, y)| Vec2::new(x, y)).collect()
    }

    fn area(polys: &[Polygon]) -> f64 {
        polys.iter().map(Polygon::area).sum()
    }

    /// The distance from `p` to the filled rings.
    fn distance(rings: &[Vec<Vec2>], p: Vec2) -> f64 {
        rings
            .iter()
            .map(|g| {
                if ring_contains(g, p) {
                    return 0.0;
                }
                (0..g.len())
                    .map(|i| Edge { a: g[i], b: g[(i + 1) % g.len()] }.distance_2(p).sqrt())
                    .fold(f64::INFINITY, f64::min)
            })
            .fold(f64::INFINITY, f64::min)
    }

    #[test]
    fn a_square_gives_its_strips_and_a_whole_circle() {
        let sq = ring(&[(0.0, 0.0), (30.0, 0.0), (30.0, 20.0), (0.0, 20.0)]);
        let out = buffer_outlines(&[sq], R, EXCESS);
        assert_eq!(out.len(), 1);
        let exact = 600.0 + 2.0 * R * 50.0 + PI * R * R;
        let a = area(&out);
        assert!(a >= exact && a <= exact + 2.0 * PI * (R + EXCESS) * EXCESS, "{a} against {exact}");
    }

    /// A division's bases as they stand (30-120 mm wide, turned up to `turn_deg` either
    /// way, 0-60 mm apart in two rows, some touching or overlapping), and their union's
    /// rings as the deployment areas take them.
    fn division(next: &mut impl FnMut() -> f64, turn_deg: f64) -> (Vec<Vec<Vec2>>, Vec<Vec<Vec2>>) {
        let mut rings = Vec::new();
        for row in 0..2 {
            let mut x = 0.0;
            for _ in 0..6 {
                let (w, d) = (30.0 + 90.0 * next(), 15.0 + 25.0 * next());
                let c = Vec2::new(x + w / 2.0, row as f64 * (60.0 + 80.0 * next()) + 10.0 * next());
                let turn = 2.0 * turn_deg * (next() - 0.5);
                let corners = [(-w, -d), (w, -d), (w, d), (-w, d)]
                    .map(|(a, b)| c + Vec2::new(a / 2.0, b / 2.0).rotated_deg(turn));
                rings.push(corners.to_vec());
                x += w + 60.0 * next();
            }
        }
        let geo_rings: Vec<geo::Polygon<f64>> =
            rings.iter().map(|g| crate::command::deployment::geo_polygon(g)).collect();
        let merged = geo::unary_union(geo_rings.iter())
            .0
            .iter()
            .map(|p| crate::command::deployment::ring_of(p.exterior()))
            .collect();
        (rings, merged)
    }

    fn xorshift(mut rng: u64) -> impl FnMut() -> f64 {
        move || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            (rng >> 11) as f64 / (1u64 << 53) as f64
        }
    }

    #[test]
    fn random_divisions_match_the_distance_to_their_bases() {
        // Every point farther than 0.01 mm from the outline's true boundary is inside it
        // exactly when it is within the reach of a base: 3" with bases turned up to 10°,
        // and 5 mm and 400 mm (a Pro Patria command radius) with bases at any heading.
        let mut next = xorshift(0x2545_f491_4f6c_dd1d);
        for (reach, turn) in [(R, 10.0), (5.0, 180.0), (400.0, 180.0)] {
            for _ in 0..6 {
                let (rings, merged) = division(&mut next, turn);
                let out = buffer_outlines(&merged, reach, EXCESS);
                assert!(!out.is_empty());
                let (lo, hi) = bbox(rings.iter().flatten().copied());
                for _ in 0..3000 {
                    let p = Vec2::new(
                        lo.x - reach - 20.0 + (hi.x - lo.x + 2.0 * reach + 40.0) * next(),
                        lo.y - reach - 20.0 + (hi.y - lo.y + 2.0 * reach + 40.0) * next(),
                    );
                    let d = distance(&rings, p);
                    if (d - reach).abs() < 0.01 {
                        continue;
                    }
                    let inside = out.iter().any(|o| o.contains(p));
                    assert_eq!(inside, d < reach, "{p:?} at {d} mm of bases, reach {reach} mm");
                }
            }
        }
    }

    /// Every sampled point farther than 0.01 mm from the true boundary is inside the
    /// outlines exactly when it is within R of the rings (or enclosed: `filled`).
    fn check_by_distance(rings: &[Vec<Vec2>], out: &[Polygon], filled: impl Fn(Vec2) -> bool) {
        let (lo, hi) = bbox(rings.iter().flatten().copied());
        let mut k = 0u64;
        for i in 0..120 {
            for j in 0..120 {
                k += 1;
                let jitter = (k.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 40) as f64 / (1u64 << 24) as f64;
                let p = Vec2::new(
                    lo.x - 100.0 + (hi.x - lo.x + 200.0) * (i as f64 + jitter) / 120.0,
                    lo.y - 100.0 + (hi.y - lo.y + 200.0) * (j as f64 + 0.5) / 120.0,
                );
                let d = distance(rings, p);
                if (d - R).abs() < 0.01 {
                    continue;
                }
                let inside = out.iter().any(|o| o.contains(p));
                assert_eq!(inside, d < R || filled(p), "{p:?} at {d} mm");
            }
        }
    }

    fn square(x: f64, y: f64, side: f64) -> Vec<Vec2> {
        ring(&[(x, y), (x + side, y), (x + side, y + side), (x, y + side)])
    }

    #[test]
    fn exact_ties_between_rings_give_the_right_outline() {
        // Two squares touching at a corner; two squares whose buffers touch along a side
        // (exactly 2R apart) and at a corner; a square exactly 2R from a vertex.
        let scenes = [
            vec![square(0.0, 0.0, 40.0), square(40.0, 40.0, 40.0)],
            vec![square(0.0, 0.0, 40.0), square(40.0 + 2.0 * R, 0.0, 40.0)],
            vec![square(0.0, 0.0, 40.0), square(40.0 + 2.0 * R, 40.0 + 0.0, 40.0)],
            vec![square(0.0, 0.0, 40.0), square(40.0 + 2.0 * R * 0.6, 40.0 + 2.0 * R * 0.8, 40.0)],
        ];
        for rings in &scenes {
            let out = buffer_outlines(rings, R, EXCESS);
            check_by_distance(rings, &out, |_| false);
        }
        // Degenerate input: nothing, a ring of two points, repeated points, no reach.
        assert!(buffer_outlines(&[], R, EXCESS).is_empty());
        assert!(buffer_outlines(&[ring(&[(0.0, 0.0), (10.0, 0.0)])], R, EXCESS).is_empty());
        let sq = square(0.0, 0.0, 40.0);
        let repeated = ring(&[(0.0, 0.0), (0.0, 0.0), (40.0, 0.0), (40.0, 40.0), (0.0, 40.0), (0.0, 0.0)]);
        assert_eq!(
            buffer_outlines(&[repeated], R, EXCESS),
            buffer_outlines(std::slice::from_ref(&sq), R, EXCESS)
        );
        assert_eq!(buffer_outlines(std::slice::from_ref(&sq), 0.0, EXCESS), vec![Polygon::new(sq, vec![])]);
    }

    #[test]
    fn an_island_in_a_filled_hole_and_a_nested_ring_are_dropped() {
        // A frame 1000 mm square with 100 mm walls and a 50 mm opening in its left wall
        // (closed by the buffer), a 20 mm square alone in its middle, and a ring inside
        // a wall (as no union gives, but dropped all the same).
        let frame = walled_frame();
        let rings = vec![frame.clone(), square(490.0, 490.0, 20.0)];
        let out = buffer_outlines(&rings, R, EXCESS);
        assert_eq!(out.len(), 1, "the island is inside the filled frame");
        check_by_distance(&rings, &out, |p| (0.0..=1000.0).contains(&p.x) && (0.0..=1000.0).contains(&p.y));
        let nested = buffer_outlines(&[frame.clone(), square(20.0, 200.0, 30.0)], R, EXCESS);
        assert_eq!(nested, buffer_outlines(&[frame], R, EXCESS));
    }
}
