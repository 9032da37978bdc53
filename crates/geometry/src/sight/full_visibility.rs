//! Full visibility ([`FullVisibility`]): whether every point of a target is seen from
//! some point of the spotter, by cutting the target along the critical lines.

use super::GRAZE_TOLERANCE_MM;
use super::blocker::Blocker;
use super::outline::{chord, grazes};
use super::segment_search::point_is_seen;
use super::sight_hull::in_sight_hull;
use crate::convex::hull_small;
use crate::polygon::{ConvexPolygon, ring_contains};
use crate::segment::Segment;
use crate::vec2::Vec2;

/// The answer to "can every point of the target be seen?".
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum FullVisibility {
    /// Every point of the target is seen from some point of the spotter.
    Visible,
    /// Some part of the target cannot be seen; `witness` is a point of it.
    Hidden {
        /// A target point no spotter point can see.
        witness: Vec2,
    },
}

/// Whether every point of `target` can be seen from some point of `spotter` (convex
/// shapes, counter-clockwise; a two-vertex spotter is a segment). Exact: the target is
/// cut along every line where a point's visibility can change, and one point inside
/// each piece is tested.
///
/// ```
/// use vedette_geometry::sight::{Blocker, FullVisibility, full_visibility};
/// use vedette_geometry::{Base, BaseSize, Pose, Vec2};
/// let spotter = [Vec2::new(-50.0, 0.0), Vec2::new(50.0, 0.0)];
/// let target = Base::new(BaseSize::new(20.0, 20.0), Pose::new(Vec2::new(0.0, 200.0), 270.0));
/// // A wall covering the left of the field: the right of the spotter still sees all.
/// let wall = Blocker::from_base(&Base::new(BaseSize::new(180.0, 20.0), Pose::new(Vec2::new(-110.0, 100.0), 90.0)));
/// assert_eq!(full_visibility(&spotter, &target.vertices_ccw(), &[wall]), FullVisibility::Visible);
/// ```
#[must_use]
pub fn full_visibility(spotter: &[Vec2], target: &[Vec2], blockers: &[Blocker]) -> FullVisibility {
    full_visibility_among(spotter, target, &blockers.iter().collect::<Vec<_>>())
}

/// [`full_visibility`] over borrowed blockers.
#[must_use]
pub fn full_visibility_among(spotter: &[Vec2], target: &[Vec2], blockers: &[&Blocker]) -> FullVisibility {
    // Every sight segment from the spotter to a target point lies in the sight hull
    // between them, so blockers outside it change no point's visibility and draw no
    // line along which it changes.
    let (near, _) = in_sight_hull(&[spotter, target], blockers);
    let target_poly = ConvexPolygon::from_ccw_unchecked(target.to_vec());
    // The mean of a cell's vertices lies inside it however thin it is; the area centroid
    // of a sliver (area near the 1e-12 threshold) divides rounding noise by that area
    // and can land far outside the cell, even outside the target.
    let witness = |cell: &ConvexPolygon| {
        let v = cell.vertices();
        (!v.is_empty()).then(|| v.iter().fold(Vec2::ZERO, |a, &p| a + p) / v.len() as f64)
    };
    if near.is_empty() {
        return FullVisibility::Visible;
    }
    if let Some(verdict) = quick_verdict(spotter, target, &near) {
        return verdict;
    }
    // Lines where visibility can change: through a spotter corner and a grazed blocker
    // corner, and through two blocker corners grazed by the line at both.
    let corners: Vec<(Vec2, Vec2, Vec2)> =
        near.iter().flat_map(|b| b.corners().collect::<Vec<_>>()).collect();
    let mut lines: Vec<(Vec2, Vec2)> = Vec::new();
    for &s in spotter {
        for &(prev, v, next) in &corners {
            let dir = v - s;
            if dir.length_2() > 0.0 && grazes(prev, v, next, dir) {
                lines.push((s, dir));
            }
        }
    }
    for i in 0..corners.len() {
        for j in i + 1..corners.len() {
            let (pa, a, na) = corners[i];
            let (pb, b, nb) = corners[j];
            let dir = b - a;
            if dir.length_2() > 0.0 && grazes(pa, a, na, dir) && grazes(pb, b, nb, dir) {
                lines.push((a, dir));
            }
        }
    }
    let mut cells = vec![target_poly];
    for (p, dir) in lines {
        if chord(target, p, dir).is_none() {
            continue;
        }
        let left = crate::polygon::HalfPlane { point: p, direction: dir };
        let right = crate::polygon::HalfPlane { point: p, direction: -dir };
        let mut next = Vec::with_capacity(cells.len() * 2);
        for c in cells {
            // A cell wholly on one side of the line is not cut: skip the clipping.
            let (lo, hi) = c.vertices().iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &v| {
                let d = left.side(v);
                (lo.min(d), hi.max(d))
            });
            if lo >= 0.0 || hi <= 0.0 {
                next.push(c);
                continue;
            }
            let l = c.clipped(&left);
            let r = c.clipped(&right);
            if l.area() > 1e-12 && r.area() > 1e-12 {
                next.push(l);
                next.push(r);
            } else {
                next.push(c);
            }
        }
        cells = next;
    }
    for cell in &cells {
        if let Some(w) = witness(cell)
            && !point_is_seen(spotter, w, &near)
        {
            return FullVisibility::Hidden { witness: w };
        }
    }
    FullVisibility::Visible
}

/// Exact shortcuts tried before the cell decomposition of [`full_visibility`]:
/// - a spotter corner whose convex hull with the target stays more than
///   [`GRAZE_TOLERANCE_MM`] away from every blocker sees each target point along a
///   segment inside that hull: the whole target is visible;
/// - an interior point of the target (its centroid, then the points a quarter of the way
///   from each corner, and from each edge's middle, to it) that no spotter point sees is
///   hidden: the target is not fully visible, and that point is the witness.
///
/// `None` when neither settles it. Both are exact, so the answer never differs from the
/// decomposition's; they only skip it for the common cases of a target in the clear and
/// a target squarely behind a blocker.
pub(super) fn quick_verdict(spotter: &[Vec2], target: &[Vec2], near: &[&Blocker]) -> Option<FullVisibility> {
    for &s in spotter {
        let hull = hull_small(target.iter().copied().chain(std::iter::once(s)));
        if hull.len() >= 3 && near.iter().all(|b| clear_of(b, &hull, GRAZE_TOLERANCE_MM)) {
            return Some(FullVisibility::Visible);
        }
    }
    let c = target.iter().fold(Vec2::ZERO, |a, &p| a + p) / target.len().max(1) as f64;
    // The centroid, then points near each corner and each edge's middle.
    let n = target.len();
    std::iter::once(c)
        .chain(target.iter().map(|&v| v.lerp(c, 0.25)))
        .chain((0..n).map(|i| target[i].lerp(target[(i + 1) % n], 0.5).lerp(c, 0.25)))
        .find(|&p| !point_is_seen(spotter, p, near))
        .map(|witness| FullVisibility::Hidden { witness })
}

/// True when the blocker's outer ring and the convex polygon are more than `gap` apart
/// (a conservative test: a polygon lying in one of the blocker's holes is not clear).
pub(crate) fn clear_of(b: &Blocker, convex: &[Vec2], gap: f64) -> bool {
    let (mut lo, mut hi) =
        (Vec2::new(f64::INFINITY, f64::INFINITY), Vec2::new(f64::NEG_INFINITY, f64::NEG_INFINITY));
    for p in convex {
        lo = Vec2::new(lo.x.min(p.x), lo.y.min(p.y));
        hi = Vec2::new(hi.x.max(p.x), hi.y.max(p.y));
    }
    if !b.bbox_overlaps(Vec2::new(lo.x - gap, lo.y - gap), Vec2::new(hi.x + gap, hi.y + gap)) {
        return true;
    }
    let ring = &b.polygon.exterior;
    let (n, m) = (ring.len(), convex.len());
    let edges_apart = (0..n).all(|i| {
        let e = Segment::new(ring[i], ring[(i + 1) % n]);
        (0..m).all(|j| e.distance_2(&Segment::new(convex[j], convex[(j + 1) % m])) > gap * gap)
    });
    // With every pair of edges apart, the two are disjoint unless one holds the other.
    edges_apart
        && !ring_contains(ring, convex[0])
        && !ConvexPolygon::from_ccw_unchecked(convex.to_vec()).contains(ring[0])
}
