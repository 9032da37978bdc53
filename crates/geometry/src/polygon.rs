//! Polygons: convex ones (bases, cones, zones) and simple ones with holes (terrain).
//!
//! Areas are exact up to floating-point rounding: a convex clip of a polygon is computed
//! with Sutherland–Hodgman against half-planes, which gives the exact intersection for
//! a convex clipper whatever the shape of the subject.
//!
//! # Units
//! Millimetres and mm².

use crate::base::{Base, CONTACT_TOLERANCE_MM};
use crate::convex::{Containment, closest_points, contains, signed_area};
use crate::segment::{ClosestPoints, Segment};
use crate::vec2::Vec2;
use serde::{Deserialize, Serialize};

/// The closed half-plane on the left of the directed line through `point` along
/// `direction` (the side a counter-clockwise polygon keeps its interior on).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HalfPlane {
    /// A point on the boundary line.
    pub point: Vec2,
    /// The direction of the boundary line; the half-plane lies to its left.
    pub direction: Vec2,
}

impl HalfPlane {
    /// The half-plane left of the directed line from `a` to `b`.
    #[must_use]
    pub fn left_of(a: Vec2, b: Vec2) -> Self {
        HalfPlane { point: a, direction: b - a }
    }

    /// Positive inside, negative outside, zero on the boundary; scaled by the length of
    /// `direction` (mm when it is a unit vector).
    #[must_use]
    pub fn side(&self, p: Vec2) -> f64 {
        self.direction.cross(p - self.point)
    }

    /// Signed distance in mm: positive inside.
    #[must_use]
    pub fn signed_distance(&self, p: Vec2) -> f64 {
        let l = self.direction.length();
        if l == 0.0 { 0.0 } else { self.side(p) / l }
    }

    /// True when `p` is inside or on the boundary.
    #[must_use]
    pub fn contains(&self, p: Vec2) -> bool {
        self.side(p) >= 0.0
    }
}

/// Clips a closed ring (any simple polygon, either orientation) to a half-plane.
fn clip_ring(ring: &[Vec2], h: &HalfPlane) -> Vec<Vec2> {
    let mut out = Vec::with_capacity(ring.len() + 2);
    clip_ring_into(ring, h, &mut out);
    out
}

/// [`clip_ring`], written into `out` (cleared first).
pub(crate) fn clip_ring_into(ring: &[Vec2], h: &HalfPlane, out: &mut Vec<Vec2>) {
    out.clear();
    let n = ring.len();
    for i in 0..n {
        let cur = ring[i];
        let prev = ring[(i + n - 1) % n];
        let sc = h.side(cur);
        let sp = h.side(prev);
        if sc >= 0.0 {
            if sp < 0.0 {
                out.push(prev.lerp(cur, sp / (sp - sc)));
            }
            out.push(cur);
        } else if sp >= 0.0 {
            out.push(prev.lerp(cur, sp / (sp - sc)));
        }
    }
}

/// A convex polygon with its vertices in counter-clockwise order.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ConvexPolygon {
    vertices: Vec<Vec2>,
}

impl ConvexPolygon {
    /// A polygon from vertices already known to be convex and counter-clockwise.
    #[must_use]
    pub fn from_ccw_unchecked(vertices: Vec<Vec2>) -> Self {
        ConvexPolygon { vertices }
    }

    /// A polygon from the intersection of half-planes, starting from a bounding ring
    /// (which must be convex and counter-clockwise).
    #[must_use]
    pub fn from_half_planes(bound: &ConvexPolygon, planes: &[HalfPlane]) -> Self {
        let mut cur = bound.vertices.clone();
        let mut next = Vec::with_capacity(cur.len() + planes.len());
        for h in planes {
            clip_ring_into(&cur, h, &mut next);
            std::mem::swap(&mut cur, &mut next);
        }
        ConvexPolygon { vertices: cur }
    }

    /// The vertices, counter-clockwise.
    #[must_use]
    pub fn vertices(&self) -> &[Vec2] {
        &self.vertices
    }

    /// The vertices, counter-clockwise, as an owned list.
    #[must_use]
    pub fn into_vertices(self) -> Vec<Vec2> {
        self.vertices
    }

    /// True when the polygon has no area (fewer than three vertices).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.vertices.len() < 3
    }

    /// Area in mm².
    #[must_use]
    pub fn area(&self) -> f64 {
        signed_area(&self.vertices).max(0.0)
    }

    /// The part of the polygon inside the half-plane.
    #[must_use]
    pub fn clipped(&self, h: &HalfPlane) -> ConvexPolygon {
        ConvexPolygon { vertices: clip_ring(&self.vertices, h) }
    }

    /// The half-planes whose intersection is this polygon (one per edge).
    #[must_use]
    pub fn half_planes(&self) -> Vec<HalfPlane> {
        let n = self.vertices.len();
        (0..n).map(|i| HalfPlane::left_of(self.vertices[i], self.vertices[(i + 1) % n])).collect()
    }

    /// The intersection of two convex polygons.
    #[must_use]
    pub fn intersection(&self, o: &ConvexPolygon) -> ConvexPolygon {
        // Clipped by each of `o`'s half-planes in turn, between two lists.
        let n = o.vertices.len();
        let mut cur = self.vertices.clone();
        let mut next = Vec::with_capacity(cur.len() + n);
        for i in 0..n {
            clip_ring_into(&cur, &HalfPlane::left_of(o.vertices[i], o.vertices[(i + 1) % n]), &mut next);
            std::mem::swap(&mut cur, &mut next);
        }
        ConvexPolygon { vertices: cur }
    }

    /// True when `p` is inside or on the boundary.
    #[must_use]
    pub fn contains(&self, p: Vec2) -> bool {
        contains(&self.vertices, p)
    }

    /// The edges, counter-clockwise (a single segment for a two-point polygon).
    #[must_use]
    pub fn edges(&self) -> Vec<Segment> {
        crate::convex::edges_of(&self.vertices).collect()
    }

    /// True when `p` lies inside or on the boundary, within [`CONTACT_TOLERANCE_MM`].
    #[must_use]
    pub fn contains_with_tolerance(&self, p: Vec2) -> bool {
        Containment::Within { tolerance_mm: CONTACT_TOLERANCE_MM }.contains(&self.vertices, p)
    }

    /// The exact closest points between two convex polygons (`from` on `self`); zero
    /// when they touch or overlap within [`CONTACT_TOLERANCE_MM`]
    /// ([`crate::convex::closest_points`]). `None` when either has no vertices.
    ///
    /// Degenerate polygons (a point, a segment: what clipping leaves of a base that only
    /// touches a zone) are measured as what they are.
    ///
    /// ```
    /// use vedette_geometry::{ConvexPolygon, Vec2};
    /// let sq = |x: f64| ConvexPolygon::from_ccw_unchecked(vec![
    ///     Vec2::new(x, 0.0), Vec2::new(x + 1.0, 0.0), Vec2::new(x + 1.0, 1.0), Vec2::new(x, 1.0)]);
    /// let c = sq(0.0).closest_points(&sq(3.0)).unwrap();
    /// assert_eq!(c.distance_mm, 2.0);
    /// ```
    #[must_use]
    pub fn closest_points(&self, o: &ConvexPolygon) -> Option<ClosestPoints> {
        closest_points(
            &self.vertices,
            &o.vertices,
            Containment::Within { tolerance_mm: CONTACT_TOLERANCE_MM },
        )
    }

    /// Edge-to-edge distance to a base, in mm; `None` for an empty polygon.
    #[must_use]
    pub fn distance_to_base(&self, b: &Base) -> Option<f64> {
        self.closest_points(&b.polygon()).map(|c| c.distance_mm)
    }

    /// The centroid (area-weighted); `None` for an empty polygon.
    #[must_use]
    pub fn centroid(&self) -> Option<Vec2> {
        let a = signed_area(&self.vertices);
        if a <= 0.0 {
            return None;
        }
        let n = self.vertices.len();
        let mut c = Vec2::ZERO;
        for i in 0..n {
            let p = self.vertices[i];
            let q = self.vertices[(i + 1) % n];
            c += (p + q) * p.cross(q);
        }
        Some(c / (6.0 * a))
    }
}

/// A simple polygon with optional holes, as terrain outlines are drawn.
///
/// Rings may be given in either orientation; areas are taken as absolute values.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Polygon {
    /// The outer boundary.
    pub exterior: Vec<Vec2>,
    /// Holes inside it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub holes: Vec<Vec<Vec2>>,
}

impl Polygon {
    /// A polygon from its outer ring and holes.
    #[must_use]
    pub fn new(exterior: Vec<Vec2>, holes: Vec<Vec<Vec2>>) -> Self {
        Polygon { exterior, holes }
    }

    /// Area in mm² (outer ring minus holes).
    #[must_use]
    pub fn area(&self) -> f64 {
        signed_area(&self.exterior).abs() - self.holes.iter().map(|h| signed_area(h).abs()).sum::<f64>()
    }

    /// True when `p` is inside the outer ring and not strictly inside a hole (even-odd
    /// rule per ring; boundary points count as inside the outer ring).
    #[must_use]
    pub fn contains(&self, p: Vec2) -> bool {
        ring_contains(&self.exterior, p) && !self.holes.iter().any(|h| ring_strictly_contains(h, p))
    }

    /// The area of this polygon inside a convex polygon, in mm².
    #[must_use]
    pub fn area_inside(&self, clip: &ConvexPolygon) -> f64 {
        let planes = clip.half_planes();
        let (lo, hi) = crate::convex::bbox(clip.vertices().iter().copied());
        let clipped = |ring: &[Vec2]| -> f64 {
            // A ring none of whose edges meets the clip's box has the clip wholly inside
            // or wholly outside it: most of a large outline's clips, answered without
            // clipping it.
            if !ring_meets_box(ring, lo, hi) {
                return match clip.vertices().first() {
                    Some(&v) if ring_contains(ring, v) => clip.area(),
                    _ => 0.0,
                };
            }
            let mut cur = ring.to_vec();
            let mut next = Vec::with_capacity(cur.len() + planes.len());
            for h in &planes {
                clip_ring_into(&cur, h, &mut next);
                std::mem::swap(&mut cur, &mut next);
            }
            signed_area(&cur).abs()
        };
        (clipped(&self.exterior) - self.holes.iter().map(|h| clipped(h)).sum::<f64>()).max(0.0)
    }

    /// The pairs of edges that cross (by index of their first vertex, ring 0 being the
    /// exterior and ring k the hole k-1); empty for a simple polygon. Edges that share a
    /// vertex do not count.
    #[must_use]
    pub fn self_intersections(&self) -> Vec<((usize, usize), (usize, usize))> {
        let rings: Vec<&[Vec2]> =
            std::iter::once(self.exterior.as_slice()).chain(self.holes.iter().map(Vec::as_slice)).collect();
        let mut edges = Vec::new();
        for (r, ring) in rings.iter().enumerate() {
            let n = ring.len();
            for i in 0..n {
                edges.push((r, i, crate::segment::Segment::new(ring[i], ring[(i + 1) % n]), n));
            }
        }
        let segments: Vec<crate::segment::Segment> = edges.iter().map(|e| e.2).collect();
        let mut pairs = Vec::new();
        box_pairs(&segments, |ai, bi| {
            let (a, b) = (&edges[ai], &edges[bi]);
            if a.0 == b.0 {
                let n = a.3;
                let adjacent = (a.1 + 1) % n == b.1 || (b.1 + 1) % n == a.1;
                if adjacent {
                    return;
                }
            }
            if a.2.intersection(&b.2).is_some() {
                pairs.push((ai, bi));
            }
        });
        // In the order of the edges, as a check of every pair would find them.
        pairs.sort_unstable();
        pairs.into_iter().map(|(ai, bi)| ((edges[ai].0, edges[ai].1), (edges[bi].0, edges[bi].1))).collect()
    }
}

/// Calls `visit(i, j)` (`i < j`, indices into `segments`) for every pair of segments
/// whose bounding boxes meet, and no other: a sweep along x over the segments sorted by
/// their left ends, so that an outline of 10,000 points is checked in milliseconds
/// rather than by its 50 million pairs (issue 41 item 5).
pub(crate) fn box_pairs(segments: &[crate::segment::Segment], mut visit: impl FnMut(usize, usize)) {
    let boxes: Vec<(Vec2, Vec2)> = segments
        .iter()
        .map(|s| {
            (Vec2::new(s.a.x.min(s.b.x), s.a.y.min(s.b.y)), Vec2::new(s.a.x.max(s.b.x), s.a.y.max(s.b.y)))
        })
        .collect();
    let mut order: Vec<usize> = (0..segments.len()).collect();
    order.sort_unstable_by(|&i, &j| boxes[i].0.x.total_cmp(&boxes[j].0.x));
    for (k, &i) in order.iter().enumerate() {
        let (lo, hi) = boxes[i];
        for &j in &order[k + 1..] {
            let (l, h) = boxes[j];
            if l.x > hi.x {
                break;
            }
            if l.y <= hi.y && h.y >= lo.y {
                visit(i.min(j), i.max(j));
            }
        }
    }
}

/// Convex pieces (each counter-clockwise) that together make up the simple polygon
/// `ring` (either orientation, no self-intersection): an ear-clipping triangulation,
/// then neighbouring pieces merged across their shared diagonal while the union stays
/// convex (Hertel–Mehlhorn: at most four times the fewest convex pieces). Each piece
/// lies in the polygon. Empty when the ring has fewer than three vertices or no ear is
/// found (a degenerate ring).
#[must_use]
pub(crate) fn convex_parts(ring: &[Vec2]) -> Vec<Vec<Vec2>> {
    let mut pts = ring.to_vec();
    if pts.len() < 3 {
        return Vec::new();
    }
    if signed_area(&pts) < 0.0 {
        pts.reverse();
    }
    let turn = |a: Vec2, b: Vec2, c: Vec2| (b - a).cross(c - b);
    let n = pts.len();
    if (0..n).all(|i| turn(pts[(i + n - 1) % n], pts[i], pts[(i + 1) % n]) >= 0.0) {
        // Already convex: one piece (a 10,000-point round wood in one step).
        return vec![pts];
    }
    // Ear clipping over vertex indices.
    let mut left: Vec<usize> = (0..pts.len()).collect();
    let mut parts: Vec<Vec<usize>> = Vec::new();
    while left.len() > 3 {
        let m = left.len();
        let ear = (0..m).find(|&i| {
            let (a, b, c) = (left[(i + m - 1) % m], left[i], left[(i + 1) % m]);
            let (pa, pb, pc) = (pts[a], pts[b], pts[c]);
            turn(pa, pb, pc) > 0.0
                && left.iter().all(|&j| {
                    j == a || j == b || j == c || {
                        let q = pts[j];
                        // Outside the closed triangle (strictly beyond some edge).
                        (pb - pa).cross(q - pa) < 0.0
                            || (pc - pb).cross(q - pb) < 0.0
                            || (pa - pc).cross(q - pc) < 0.0
                    }
                })
        });
        let Some(i) = ear else { return Vec::new() };
        let m = left.len();
        parts.push(vec![left[(i + m - 1) % m], left[i], left[(i + 1) % m]]);
        left.remove(i);
    }
    parts.push(left);
    // Merge pieces across a shared diagonal (u → v in one, v → u in the other) while the
    // union stays convex: both pieces are convex, so only the turns at u and v can fail.
    // Each directed edge knows its piece, so a merge costs the size of the union.
    let mut parts: Vec<Option<Vec<usize>>> = parts.into_iter().map(Some).collect();
    let mut owner: std::collections::HashMap<(usize, usize), usize> = std::collections::HashMap::new();
    for (k, p) in parts.iter().enumerate() {
        if let Some(p) = p {
            for i in 0..p.len() {
                owner.insert((p[i], p[(i + 1) % p.len()]), k);
            }
        }
    }
    for a in 0..parts.len() {
        let mut i = 0;
        while let Some(pa) = parts[a].as_ref() {
            let na = pa.len();
            if i >= na {
                break;
            }
            let (u, v) = (pa[i], pa[(i + 1) % na]);
            let Some(&b) = owner.get(&(v, u)) else {
                i += 1;
                continue;
            };
            let Some(pb) = parts.get(b).and_then(Option::as_ref).filter(|_| b != a) else {
                i += 1;
                continue;
            };
            let nb = pb.len();
            let Some(j) = (0..nb).find(|&j| pb[j] == v && pb[(j + 1) % nb] == u) else {
                i += 1;
                continue;
            };
            // At u: a's vertex before u, u, then b's vertex after u; at v likewise.
            let (a_before_u, b_after_u) = (pa[(i + na - 1) % na], pb[(j + 2) % nb]);
            let (b_before_v, a_after_v) = (pb[(j + nb - 1) % nb], pa[(i + 2) % na]);
            if turn(pts[a_before_u], pts[u], pts[b_after_u]) < 0.0
                || turn(pts[b_before_v], pts[v], pts[a_after_v]) < 0.0
            {
                i += 1;
                continue;
            }
            // `a` from v round to u, then `b` from u (exclusive) round to v (exclusive).
            let mut union: Vec<usize> = (0..na).map(|k| pa[(i + 1 + k) % na]).collect();
            union.extend((1..nb - 1).map(|k| pb[(j + 1 + k) % nb]));
            owner.remove(&(u, v));
            owner.remove(&(v, u));
            for k in 0..union.len() {
                owner.insert((union[k], union[(k + 1) % union.len()]), a);
            }
            parts[a] = Some(union);
            parts[b] = None;
            i = 0;
        }
    }
    let parts: Vec<Vec<usize>> = parts.into_iter().flatten().collect();
    parts.into_iter().map(|ix| ix.into_iter().map(|i| pts[i]).collect()).collect()
}

/// Even-odd point-in-ring test with the boundary counted as inside.
#[must_use]
pub fn ring_contains(ring: &[Vec2], p: Vec2) -> bool {
    on_ring_boundary(ring, p) || parity_inside(ring, p)
}

/// Each point of `points` against a ring, in one pass over its edges: whether the ring
/// contains it ([`ring_contains`]: the boundary counts as inside) and its squared
/// distance to the ring's boundary, mm². An edge whose box is farther from a point
/// than its nearest edge so far is not measured for it.
pub(crate) fn ring_scan(ring: &[Vec2], points: &[Vec2]) -> Vec<(bool, f64)> {
    let mut on = vec![false; points.len()];
    let mut parity = vec![false; points.len()];
    let mut best_2 = vec![f64::INFINITY; points.len()];
    let Some(&last) = ring.last() else {
        return points.iter().map(|_| (false, f64::INFINITY)).collect();
    };
    let mut a = last;
    for &b in ring {
        let (x0, x1, y0, y1) = (a.x.min(b.x), a.x.max(b.x), a.y.min(b.y), a.y.max(b.y));
        for (k, &p) in points.iter().enumerate() {
            let (gx, gy) = ((x0 - p.x).max(p.x - x1).max(0.0), (y0 - p.y).max(p.y - y1).max(0.0));
            if gx * gx + gy * gy < best_2[k] {
                best_2[k] = best_2[k].min(crate::segment::Segment::new(a, b).distance_2_to_point(p));
            }
            if gx == 0.0 && gy == 0.0 && (b - a).cross(p - a) == 0.0 {
                on[k] = true;
            }
            if (a.y > p.y) != (b.y > p.y) {
                let x = a.x + (p.y - a.y) / (b.y - a.y) * (b.x - a.x);
                if p.x < x {
                    parity[k] = !parity[k];
                }
            }
        }
        a = b;
    }
    (0..points.len()).map(|k| (on[k] || parity[k], best_2[k])).collect()
}

/// True when some edge of the ring meets the box `lo`-`hi` (their boxes overlap: a
/// superset of the edges that cross it).
fn ring_meets_box(ring: &[Vec2], lo: Vec2, hi: Vec2) -> bool {
    let n = ring.len();
    (0..n).any(|i| {
        let (a, b) = (ring[i], ring[(i + 1) % n]);
        a.x.max(b.x) >= lo.x && a.x.min(b.x) <= hi.x && a.y.max(b.y) >= lo.y && a.y.min(b.y) <= hi.y
    })
}

/// True when `p` lies exactly on an edge of the ring (collinear and between the ends;
/// no square roots, so it is cheap in the inner loops of sight tests).
fn on_ring_boundary(ring: &[Vec2], p: Vec2) -> bool {
    let n = ring.len();
    (0..n).any(|i| {
        let (a, b) = (ring[i], ring[(i + 1) % n]);
        if p.x < a.x.min(b.x) || p.x > a.x.max(b.x) || p.y < a.y.min(b.y) || p.y > a.y.max(b.y) {
            return false;
        }
        (b - a).cross(p - a) == 0.0
    })
}

/// A ring prepared for many point questions ([`ring_contains`], [`on_ring_boundary`]):
/// its edges in bands of y, so that a point meets only the edges of its band rather
/// than all of a 10,000-point outline (issue 41 item 5). The answers are those of the
/// functions, bit for bit: the same edges decide.
pub(crate) struct RingLookup<'a> {
    ring: &'a [Vec2],
    /// The ring's lowest and highest y.
    y0: f64,
    y1: f64,
    band: f64,
    /// The edges (by first vertex) whose y-range meets each band.
    bands: Vec<Vec<usize>>,
}

impl<'a> RingLookup<'a> {
    pub(crate) fn new(ring: &'a [Vec2]) -> Self {
        let n = ring.len();
        let (lo, hi) = crate::convex::bbox(ring.iter().copied());
        let count = ((n as f64).sqrt().ceil() as usize).clamp(1, 1024);
        let band = ((hi.y - lo.y) / count as f64).max(f64::MIN_POSITIVE);
        let mut bands = vec![Vec::new(); count];
        if n > 0 && lo.y.is_finite() {
            for i in 0..n {
                let (a, b) = (ring[i], ring[(i + 1) % n]);
                let (first, last) =
                    (Self::at(lo.y, band, count, a.y.min(b.y)), Self::at(lo.y, band, count, a.y.max(b.y)));
                for edges in &mut bands[first..=last] {
                    edges.push(i);
                }
            }
        }
        RingLookup { ring, y0: lo.y, y1: hi.y, band, bands }
    }

    fn at(y0: f64, band: f64, count: usize, y: f64) -> usize {
        (((y - y0) / band).floor().max(0.0) as usize).min(count - 1)
    }

    /// The edges a horizontal line through `p` can meet (none outside the ring's band).
    fn edges(&self, p: Vec2) -> impl Iterator<Item = (Vec2, Vec2)> + '_ {
        let n = self.ring.len();
        let k = (!self.bands.is_empty() && p.y >= self.y0 && p.y <= self.y1)
            .then(|| Self::at(self.y0, self.band, self.bands.len(), p.y));
        k.into_iter()
            .flat_map(move |k| self.bands[k].iter().map(move |&i| (self.ring[i], self.ring[(i + 1) % n])))
    }

    /// [`on_ring_boundary`].
    pub(crate) fn on_boundary(&self, p: Vec2) -> bool {
        self.edges(p).any(|(a, b)| {
            !(p.x < a.x.min(b.x) || p.x > a.x.max(b.x) || p.y < a.y.min(b.y) || p.y > a.y.max(b.y))
                && (b - a).cross(p - a) == 0.0
        })
    }

    /// [`ring_contains`]: the boundary counts as inside.
    pub(crate) fn contains(&self, p: Vec2) -> bool {
        if self.on_boundary(p) {
            return true;
        }
        let mut inside = false;
        for (a, b) in self.edges(p) {
            if (a.y > p.y) != (b.y > p.y) {
                let x = a.x + (p.y - a.y) / (b.y - a.y) * (b.x - a.x);
                if p.x < x {
                    inside = !inside;
                }
            }
        }
        inside
    }
}

fn ring_strictly_contains(ring: &[Vec2], p: Vec2) -> bool {
    !on_ring_boundary(ring, p) && parity_inside(ring, p)
}

/// Even-odd crossing parity (boundary points are not special-cased).
fn parity_inside(ring: &[Vec2], p: Vec2) -> bool {
    let n = ring.len();
    let mut inside = false;
    for i in 0..n {
        let a = ring[i];
        let b = ring[(i + 1) % n];
        if (a.y > p.y) != (b.y > p.y) {
            let x = a.x + (p.y - a.y) / (b.y - a.y) * (b.x - a.x);
            if p.x < x {
                inside = !inside;
            }
        }
    }
    inside
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_abs_diff_eq;

    fn square(x0: f64, y0: f64, s: f64) -> ConvexPolygon {
        ConvexPolygon::from_ccw_unchecked(vec![
            Vec2::new(x0, y0),
            Vec2::new(x0 + s, y0),
            Vec2::new(x0 + s, y0 + s),
            Vec2::new(x0, y0 + s),
        ])
    }

    #[test]
    fn clip_square_by_diagonal() {
        let s = square(0.0, 0.0, 10.0);
        let h = HalfPlane::left_of(Vec2::new(0.0, 0.0), Vec2::new(10.0, 10.0));
        assert_abs_diff_eq!(s.clipped(&h).area(), 50.0, epsilon = 1e-9);
        assert!(h.contains(Vec2::new(0.0, 5.0)));
        assert!(!h.contains(Vec2::new(5.0, 0.0)));
    }

    #[test]
    fn convex_intersection_area() {
        let i = square(0.0, 0.0, 10.0).intersection(&square(5.0, 5.0, 10.0));
        assert_abs_diff_eq!(i.area(), 25.0, epsilon = 1e-9);
        assert_abs_diff_eq!(i.centroid().unwrap(), Vec2::new(7.5, 7.5), epsilon = 1e-9);
        assert!(square(0.0, 0.0, 1.0).intersection(&square(3.0, 3.0, 1.0)).is_empty());
    }

    #[test]
    fn nonconvex_polygon_with_hole_inside_convex_clip() {
        // An L-shape (area 300) with a 2x2 hole, clipped by a square covering its corner.
        let l = Polygon::new(
            vec![
                Vec2::new(0.0, 0.0),
                Vec2::new(20.0, 0.0),
                Vec2::new(20.0, 10.0),
                Vec2::new(10.0, 10.0),
                Vec2::new(10.0, 20.0),
                Vec2::new(0.0, 20.0),
            ],
            vec![vec![Vec2::new(2.0, 2.0), Vec2::new(4.0, 2.0), Vec2::new(4.0, 4.0), Vec2::new(2.0, 4.0)]],
        );
        assert_abs_diff_eq!(l.area(), 296.0, epsilon = 1e-9);
        // Clip 5..15 x 5..15 meets the L in 5..15x5..10 (50) plus 5..10x10..15 (25).
        assert_abs_diff_eq!(l.area_inside(&square(5.0, 5.0, 10.0)), 75.0, epsilon = 1e-9);
        // Clip 0..5 x 0..5 contains the hole.
        assert_abs_diff_eq!(l.area_inside(&square(0.0, 0.0, 5.0)), 21.0, epsilon = 1e-9);
        // Clips no edge meets (answered without clipping): inside the L clear of the
        // hole, inside the hole, beyond the L in its notch, and far away.
        assert_eq!(l.area_inside(&square(5.0, 5.0, 2.0)), 4.0);
        assert_eq!(l.area_inside(&square(2.5, 2.5, 1.0)), 0.0);
        assert_eq!(l.area_inside(&square(12.0, 12.0, 3.0)), 0.0);
        assert_eq!(l.area_inside(&square(50.0, 50.0, 3.0)), 0.0);
        // A clip whose box touches an edge is clipped: 1 x 1 inside along x = 0.
        assert_abs_diff_eq!(l.area_inside(&square(0.0, 12.0, 1.0)), 1.0, epsilon = 1e-12);
        assert!(l.contains(Vec2::new(15.0, 5.0)));
        assert!(!l.contains(Vec2::new(15.0, 15.0)));
        assert!(!l.contains(Vec2::new(3.0, 3.0)));
        assert!(l.contains(Vec2::new(2.0, 3.0)));
        assert!(l.self_intersections().is_empty());
    }

    #[test]
    fn ring_scan_agrees_with_containment_and_the_nearest_edge() {
        // A notched, comb-like ring; points on its vertices, on its edges, either side
        // of them and scattered.
        let ring: Vec<Vec2> = [
            (0.0, 0.0),
            (100.0, 0.0),
            (100.0, 60.0),
            (80.0, 60.0),
            (80.0, 20.0),
            (60.0, 20.0),
            (60.0, 60.0),
            (0.0, 60.0),
        ]
        .iter()
        .map(|&(x, y)| Vec2::new(x, y))
        .collect();
        let mut points: Vec<Vec2> = ring.clone();
        points.extend([
            Vec2::new(50.0, 0.0),
            Vec2::new(80.0, 40.0),
            Vec2::new(70.0, 20.0),
            Vec2::new(70.0, 20.000001),
            Vec2::new(70.0, 19.999999),
            Vec2::new(70.0, 40.0),
            Vec2::new(-5.0, 30.0),
            Vec2::new(50.0, 30.0),
        ]);
        let mut rng = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..400 {
            let mut next = || {
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                (rng >> 11) as f64 / (1u64 << 53) as f64 * 140.0 - 20.0
            };
            points.push(Vec2::new(next(), next()));
        }
        let scan = ring_scan(&ring, &points);
        let n = ring.len();
        for (p, (inside, d2)) in points.iter().zip(scan) {
            assert_eq!(inside, ring_contains(&ring, *p), "{p:?}");
            let want = (0..n)
                .map(|i| crate::segment::Segment::new(ring[i], ring[(i + 1) % n]).distance_2_to_point(*p))
                .fold(f64::INFINITY, f64::min);
            assert_eq!(d2, want, "{p:?}");
        }
        assert!(ring_scan(&[], &points[..1]) == vec![(false, f64::INFINITY)]);
    }

    #[test]
    fn bow_tie_is_not_simple() {
        let p = Polygon::new(
            vec![Vec2::new(0.0, 0.0), Vec2::new(10.0, 10.0), Vec2::new(10.0, 0.0), Vec2::new(0.0, 10.0)],
            vec![],
        );
        assert_eq!(p.self_intersections().len(), 1);
    }

    /// Checks `convex_parts` of a ring: each part convex and counter-clockwise, inside
    /// the ring (its centroid, and the midpoints of its edges pulled toward the centroid),
    /// and the parts' areas adding up to the ring's.
    fn check_parts(ring: &[Vec2]) -> usize {
        let parts = convex_parts(ring);
        let poly = Polygon::new(ring.to_vec(), vec![]);
        let mut total = 0.0;
        for part in &parts {
            let n = part.len();
            assert!(n >= 3, "{part:?}");
            for i in 0..n {
                let (a, b, c) = (part[i], part[(i + 1) % n], part[(i + 2) % n]);
                assert!((b - a).cross(c - b) >= -1e-9, "not convex: {part:?}");
            }
            let area = signed_area(part);
            assert!(area > 0.0, "{part:?}");
            total += area;
            let c = part.iter().fold(Vec2::ZERO, |a, &q| a + q) / n as f64;
            assert!(poly.contains(c), "{c:?} of {part:?}");
            for i in 0..n {
                let m = part[i].lerp(part[(i + 1) % n], 0.5).lerp(c, 1e-6);
                assert!(poly.contains(m), "{m:?} of {part:?}");
            }
        }
        assert_abs_diff_eq!(total, signed_area(ring).abs(), epsilon = 1e-6 * (1.0 + total));
        parts.len()
    }

    #[test]
    fn convex_parts_of_long_outlines_tile_them() {
        // A 10,000-point round wood is one part; a 2,000-point star (every other point
        // pulled in) is decomposed into parts whose areas add up to its own. The merge
        // used to rescan every pair of parts after each merge: 17 minutes for a
        // 10,000-point outline in `vedette los`.
        let round: Vec<Vec2> = (0..10_000)
            .map(|i| Vec2::from_heading_deg(f64::from(i) * 0.036) * 300.0 + Vec2::new(500.0, 500.0))
            .collect();
        assert_eq!(convex_parts(&round).len(), 1);
        let star: Vec<Vec2> = (0..2_000)
            .map(|i| Vec2::from_heading_deg(f64::from(i) * 0.18) * if i % 2 == 0 { 300.0 } else { 280.0 })
            .collect();
        let parts = convex_parts(&star);
        let total: f64 = parts.iter().map(|p| signed_area(p)).sum();
        assert!((total - signed_area(&star)).abs() < 1e-6 * signed_area(&star), "{total}");
        assert!(parts.len() >= 1000 && parts.len() <= 4 * 1000, "{}", parts.len());
    }

    #[test]
    fn convex_parts_of_an_l_and_a_notched_square_are_few() {
        // The L (reflex corner at (10, 10)): two pieces; clockwise, the same.
        let ring = |pts: &[(f64, f64)]| pts.iter().map(|&(x, y)| Vec2::new(x, y)).collect::<Vec<_>>();
        let l = ring(&[(0.0, 0.0), (20.0, 0.0), (20.0, 10.0), (10.0, 10.0), (10.0, 20.0), (0.0, 20.0)]);
        assert_eq!(check_parts(&l), 2);
        let mut cw = l.clone();
        cw.reverse();
        assert_eq!(check_parts(&cw), 2);
        // A convex ring is one piece; a square with a notch in one side, three at most.
        assert_eq!(check_parts(&l[..3]), 1);
        let notched =
            ring(&[(0.0, 0.0), (10.0, 0.0), (10.0, 10.0), (6.0, 10.0), (5.0, 5.0), (4.0, 10.0), (0.0, 10.0)]);
        let n = check_parts(&notched);
        assert!((2..=3).contains(&n), "{n}");
        // Fewer than three vertices: nothing.
        assert!(convex_parts(&l[..2]).is_empty());
    }

    proptest::proptest! {
        #![proptest_config(crate::test_support::proptest_config(300, 31))]
        /// Star-shaped rings (radii at increasing angles) of 3 to 14 vertices: the parts
        /// tile the ring.
        #[test]
        fn convex_parts_tile_any_star_shaped_ring(
            radii in proptest::collection::vec((0.2f64..1.0, 5.0f64..200.0), 3..15),
        ) {
            let total: f64 = radii.iter().map(|r| r.0).sum();
            let mut turn = 0.0;
            let ring: Vec<Vec2> = radii
                .iter()
                .map(|&(step, r)| {
                    turn += step / total * std::f64::consts::TAU;
                    Vec2::new(r * turn.cos(), r * turn.sin())
                })
                .collect();
            check_parts(&ring);
        }
    }
}
