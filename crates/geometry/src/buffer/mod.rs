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
//! Cost: each element is cut by only the edges that come within `r` of it, found through
//! a grid of the edges, and most elements (deep inside their neighbours' buffers) are
//! dropped as soon as one edge is seen to hold them whole ([`cutting`]); so a division
//! of `n` bases costs about `n` times its neighbours, with no polygon overlay.
//!
//! - [`element`]: the edges and elements, and the parts of an element an edge holds.
//! - [`cutting`]: each element's surviving pieces.

use crate::convex::{bbox, signed_area};
use crate::polygon::{Polygon, ring_contains};
use crate::vec2::Vec2;
use std::f64::consts::TAU;

mod cutting;
mod element;

use cutting::{Piece, surviving_pieces};
use element::{CUT_TOLERANCE_MM, Edge, Element, from_pseudo_angle, pseudo_angle};
#[cfg(test)]
mod reference;
#[cfg(test)]
mod tests;

/// The unit vector at angle `theta`, radians.
fn direction(theta: f64) -> Vec2 {
    let (s, c) = theta.sin_cos();
    Vec2::new(c, s)
}

/// The outlines of the points within `r` of the filled counter-clockwise `rings`, holes
/// filled; round corners circumscribed, at most `arc_excess` outside the true arcs.
/// Each outline is counter-clockwise. Rings of fewer than three points are skipped.
pub(crate) fn buffer_outlines(rings: &[Vec<Vec2>], r: f64, arc_excess: f64) -> Vec<Polygon> {
    let rings: Vec<Vec<Vec2>> = rings.iter().map(|g| cleaned(g)).filter(|g| g.len() >= 3).collect();
    // A ring inside another's filled outline adds nothing.
    let rings: Vec<Vec<Vec2>> = outermost(rings);
    if r.is_nan() || r <= 0.0 {
        return rings.into_iter().map(|g| Polygon::new(g, vec![])).collect();
    }
    let (edges, elements) = edges_and_elements(&rings, r);
    let pieces = surviving_pieces(&edges, &elements, r);
    let loops = joined(&pieces, &elements, r);
    // Counter-clockwise loops are outlines; clockwise ones bound holes.
    let outlines: Vec<Vec<Vec2>> = loops
        .iter()
        .map(|l| written(l, &pieces, &elements, r, arc_excess))
        .filter(|ring| ring.len() >= 3 && signed_area(ring) > 0.0)
        .collect();
    outermost(outlines).into_iter().map(|g| Polygon::new(g, vec![])).collect()
}

/// The edges of `rings`, and each ring's elements: its edges moved out by `r`, its
/// convex corners' arcs.
fn edges_and_elements(rings: &[Vec<Vec2>], r: f64) -> (Vec<Edge>, Vec<Element>) {
    let mut edges: Vec<Edge> = Vec::new();
    let mut elements: Vec<Element> = Vec::new();
    for g in rings {
        let n = g.len();
        let first = edges.len();
        edges.extend((0..n).map(|i| Edge::new(g[i], g[(i + 1) % n])));
        // Cleaned rings have no edge of no length.
        let normal = |i: usize| (g[(i + 1) % n] - g[i]).normalized().map_or(Vec2::ZERO, Vec2::perp_right);
        for i in 0..n {
            let (m0, m1) = (normal(i), normal((i + 1) % n));
            let (a, b) = (g[i], g[(i + 1) % n]);
            elements.push(Element::Line { a: a + m0 * r, b: b + m0 * r, edge: first + i });
            if turns_left(m0, m1) {
                elements.push(Element::Arc {
                    c: b,
                    d0: m0,
                    end: pseudo_angle(m0, m1),
                    edges: (first + i, first + (i + 1) % n),
                });
            }
        }
    }
    (edges, elements)
}

/// True when the unit normal `m1` turns left of `m0` by more than 1e-12 radians (a
/// convex corner, given its arc). A turn whose sine is past a millionth is surely so,
/// with no arctangent (the angle of a sine past 1e-6 between vectors no longer than
/// one, and a hair, is past 1e-6 radians).
fn turns_left(m0: Vec2, m1: Vec2) -> bool {
    let sine = m0.cross(m1);
    sine > 1e-6 || sine.atan2(m0.dot(m1)) > 1e-12
}

/// The rings that lie inside no other's filled outline ([`nested`]), in order.
fn outermost(rings: Vec<Vec<Vec2>>) -> Vec<Vec<Vec2>> {
    let boxes: Vec<(Vec2, Vec2)> = rings.iter().map(|g| bbox(g.iter().copied())).collect();
    let keep: Vec<bool> = (0..rings.len())
        .map(|i| {
            !(0..rings.len()).any(|j| j != i && nested((&rings[i], boxes[i]), (&rings[j], boxes[j]), i < j))
        })
        .collect();
    rings.into_iter().zip(keep).filter(|(_, k)| *k).map(|(g, _)| g).collect()
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
/// Each ring comes with its box.
fn nested(
    (inner, (ilo, ihi)): (&[Vec2], (Vec2, Vec2)),
    (outer, (olo, ohi)): (&[Vec2], (Vec2, Vec2)),
    inner_first: bool,
) -> bool {
    if ilo.x < olo.x || ilo.y < olo.y || ihi.x > ohi.x || ihi.y > ohi.y {
        return false;
    }
    if inner == outer {
        return !inner_first;
    }
    let n = outer.len();
    let on_boundary = |p: Vec2| {
        (0..n).any(|i| Edge::new(outer[i], outer[(i + 1) % n]).distance_2(p) <= CUT_TOLERANCE_MM.powi(2))
    };
    inner.iter().all(|&p| ring_contains(outer, p) || on_boundary(p))
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
            let before = pairs.len();
            pairs.extend(
                by_x[from..]
                    .iter()
                    .take_while(|&&j| starts[j].x <= e.x + reach)
                    .map(|&j| (starts[j].distance(e), i, j))
                    .filter(|p| p.0 <= reach),
            );
            if pairs.len() > before || reach > 1e12 {
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
    // Room for every point (an arc's true turn is at most twice its pseudo-angle).
    let room = l
        .iter()
        .map(|&k| match elements[pieces[k].element] {
            Element::Arc { .. } => 2 + (2.0 * (pieces[k].to - pieces[k].from) / step_max) as usize,
            Element::Line { .. } => 1,
        })
        .sum();
    let mut ring = Vec::with_capacity(room);
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
    // As [`cleaned`], in place.
    ring.dedup();
    while ring.len() > 1 && ring.first() == ring.last() {
        ring.pop();
    }
    ring
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
