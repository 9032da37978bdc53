//! Distances between convex shapes (points, segments, polygons), exact, zero when
//! they meet.

use super::containment::{Containment, contains};
use crate::segment::{ClosestPoints, Segment};
use crate::vec2::Vec2;

/// The edges of a convex shape, counter-clockwise: none for no vertex, one degenerate
/// edge for a point, one edge for a segment.
pub(crate) fn edges(poly: &[Vec2]) -> impl Iterator<Item = Segment> + '_ {
    let n = poly.len();
    let count = if n <= 2 { n.min(1) } else { n };
    (0..count).map(move |i| Segment::new(poly[i], poly[(i + 1) % n]))
}

/// Squared distance from `p` to a convex polygon (counter-clockwise; zero inside or on
/// it), or to a segment or a point; infinite for no vertex. Only edges `p` is not
/// strictly inside of are measured: the nearest point lies on one of them (of the two
/// edges at a vertex, `p` is on the outer side of, or on the line of, at least one).
///
/// ```
/// use vedette_geometry::Vec2;
/// use vedette_geometry::convex::point_distance_2;
/// let sq = [Vec2::new(0.0, 0.0), Vec2::new(1.0, 0.0), Vec2::new(1.0, 1.0), Vec2::new(0.0, 1.0)];
/// assert_eq!(point_distance_2(Vec2::new(4.0, 5.0), &sq), 25.0);
/// assert_eq!(point_distance_2(Vec2::new(0.5, 0.5), &sq), 0.0);
/// ```
#[must_use]
pub fn point_distance_2(p: Vec2, poly: &[Vec2]) -> f64 {
    let n = poly.len();
    let mut best = f64::INFINITY;
    let mut outside = n < 3;
    let Some(&first) = poly.first() else { return best };
    // Edge (a, b) for each vertex a and the next, b (the first after the last).
    let mut next = first;
    for &a in poly.iter().rev() {
        let b = next;
        next = a;
        let ab = b - a;
        let ap = p - a;
        if n >= 3 {
            let c = ab.cross(ap);
            if c > 0.0 {
                continue;
            }
            if c < 0.0 {
                outside = true;
            }
        }
        let d2 = edge_distance_2(ap, ab);
        if d2 < best {
            best = d2;
        }
    }
    if outside { best } else { 0.0 }
}

/// Squared distance from a point to an edge, the point at `ap` from the edge's start and
/// the edge `ab` long (a point when it has no length).
pub(crate) fn edge_distance_2(ap: Vec2, ab: Vec2) -> f64 {
    let l2 = ab.length_2();
    let along = ap.dot(ab);
    // As `(ap - ab * (along / l2).clamp(0, 1)).length_2()`, without the division at
    // either end.
    if l2 > 0.0 && along > 0.0 {
        if along >= l2 { (ap - ab).length_2() } else { (ap - ab * (along / l2)).length_2() }
    } else {
        ap.length_2()
    }
}

/// The exact shortest distance between a segment and a convex shape (counter-clockwise;
/// one or two vertices are a point or a segment), in mm: zero when an end of the segment
/// is inside or on the polygon ([`contains`]) or the segment crosses its outline;
/// infinite for no vertex.
///
/// ```
/// use vedette_geometry::{Segment, Vec2};
/// use vedette_geometry::convex::segment_distance_mm;
/// let sq = [Vec2::new(0.0, 0.0), Vec2::new(1.0, 0.0), Vec2::new(1.0, 1.0), Vec2::new(0.0, 1.0)];
/// let s = Segment::new(Vec2::new(3.0, -5.0), Vec2::new(3.0, 5.0));
/// assert_eq!(segment_distance_mm(&s, &sq), 2.0);
/// ```
#[must_use]
pub fn segment_distance_mm(s: &Segment, poly: &[Vec2]) -> f64 {
    match poly {
        [] => return f64::INFINITY,
        // A point is measured as a point (not as an edge of no length: the two differ
        // in the last bit).
        [p] => return s.distance_to_point(*p),
        _ => {}
    }
    if contains(poly, s.a) || contains(poly, s.b) {
        return 0.0;
    }
    edges(poly).map(|e| s.distance_2(&e)).fold(f64::INFINITY, f64::min).sqrt()
}

/// The exact shortest distance between two convex shapes (counter-clockwise; one or two
/// vertices are a point or a segment), in mm: zero when a vertex of either is inside or
/// on the other ([`contains`]) or their outlines cross; infinite when either has no
/// vertex.
///
/// ```
/// use vedette_geometry::Vec2;
/// use vedette_geometry::convex::distance_mm;
/// let sq = |x: f64| [Vec2::new(x, 0.0), Vec2::new(x + 1.0, 0.0), Vec2::new(x + 1.0, 1.0), Vec2::new(x, 1.0)];
/// assert_eq!(distance_mm(&sq(0.0), &sq(3.0)), 2.0);
/// assert_eq!(distance_mm(&sq(0.0), &sq(0.5)), 0.0);
/// ```
#[must_use]
pub fn distance_mm(a: &[Vec2], b: &[Vec2]) -> f64 {
    if a.iter().any(|&p| contains(b, p)) || b.iter().any(|&p| contains(a, p)) {
        return 0.0;
    }
    let mut best = f64::INFINITY;
    for ea in edges(a) {
        for eb in edges(b) {
            best = best.min(ea.distance_2(&eb));
        }
    }
    best.sqrt()
}

/// The closest points between two convex shapes (`from` on `a`), with a vertex of
/// either that counts as inside the other under `containment` closest at distance
/// zero; `None` when either has no vertex. Degenerate shapes (a point, a segment) are
/// measured as what they are.
///
/// ```
/// use vedette_geometry::Vec2;
/// use vedette_geometry::convex::{Containment, closest_points};
/// let sq = |x: f64| [Vec2::new(x, 0.0), Vec2::new(x + 1.0, 0.0), Vec2::new(x + 1.0, 1.0), Vec2::new(x, 1.0)];
/// let c = closest_points(&sq(0.0), &sq(3.0), Containment::Closed).unwrap();
/// assert_eq!((c.distance_mm, c.from, c.to), (2.0, Vec2::new(1.0, 0.0), Vec2::new(3.0, 0.0)));
/// ```
#[must_use]
pub fn closest_points(a: &[Vec2], b: &[Vec2], containment: Containment) -> Option<ClosestPoints> {
    if a.is_empty() || b.is_empty() {
        return None;
    }
    if let Some(&p) = a.iter().find(|&&p| containment.contains(b, p)) {
        return Some(ClosestPoints { distance_mm: 0.0, from: p, to: p });
    }
    if let Some(&p) = b.iter().find(|&&p| containment.contains(a, p)) {
        return Some(ClosestPoints { distance_mm: 0.0, from: p, to: p });
    }
    let mut best: Option<ClosestPoints> = None;
    for e in edges(a) {
        for f in edges(b) {
            let c = e.closest_points(&f);
            if best.is_none_or(|b| c.distance_mm < b.distance_mm) {
                best = Some(c);
            }
        }
    }
    best
}
