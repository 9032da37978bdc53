//! The sight hull ([`SightHull`]): the convex hull of an eye and a target, which holds
//! every sight segment between them, and the blockers it keeps.

use super::GRAZE_TOLERANCE_MM;
use super::blocker::Blocker;
use crate::convex::{HullPoints, hull_small};
use crate::vec2::Vec2;

/// The blockers whose boxes meet the box of both shapes, and their indices.
pub(super) fn relevant<'a>(shapes: &[&[Vec2]], blockers: &[&'a Blocker]) -> (Vec<&'a Blocker>, Vec<usize>) {
    let mut lo = Vec2::new(f64::INFINITY, f64::INFINITY);
    let mut hi = Vec2::new(f64::NEG_INFINITY, f64::NEG_INFINITY);
    for p in shapes.iter().flat_map(|s| s.iter()) {
        lo = Vec2::new(lo.x.min(p.x), lo.y.min(p.y));
        hi = Vec2::new(hi.x.max(p.x), hi.y.max(p.y));
    }
    blockers.iter().enumerate().filter(|(_, b)| b.bbox_overlaps(lo, hi)).map(|(i, b)| (*b, i)).unzip()
}

/// The sight hull between shapes: their convex hull, which holds every sight segment from
/// one to the other, with the lines of its edges. Anything wholly beyond one of those
/// lines by more than twice [`GRAZE_TOLERANCE_MM`] can neither block such a segment nor
/// hold a point the seam test probes beside it, so leaving it out changes no segment's
/// verdict.
pub(crate) struct SightHull {
    /// Each hull edge: its start, its vector and its length (mm).
    pub(super) edges: Vec<(Vec2, Vec2, f64)>,
}

impl SightHull {
    /// The sight hull of the points of `shapes`; `None` when they are collinear (no hull
    /// to cull by).
    pub(crate) fn new(shapes: &[&[Vec2]]) -> Option<SightHull> {
        let points = shapes.iter().flat_map(|s| s.iter().copied());
        let hull: HullPoints = if shapes.iter().map(|s| s.len()).sum::<usize>() == 3 {
            // A segment and a point (the common case): the triangle, counter-clockwise.
            let mut t: HullPoints = points.collect();
            let (a, b, c) = (t[0], t[1], t[2]);
            match (b - a).cross(c - a) {
                o if o > 0.0 => {}
                o if o < 0.0 => t.swap(1, 2),
                _ => t.clear(),
            }
            t
        } else {
            hull_small(points)
        };
        let n = hull.len();
        (n >= 3).then(|| SightHull {
            edges: (0..n)
                .map(|i| {
                    let e = hull[(i + 1) % n] - hull[i];
                    (hull[i], e, e.length())
                })
                .collect(),
        })
    }

    /// The sight hull with only its `k` longest edges (for two far apart shapes, the sides
    /// from one to the other): it excludes less, with fewer tests.
    pub(crate) fn longest_edges(&self, k: usize) -> SightHull {
        let mut edges: Vec<(Vec2, Vec2, f64)> = Vec::with_capacity(k + 1);
        for &e in &self.edges {
            let at = edges.iter().position(|x| x.2 < e.2).unwrap_or(edges.len());
            if at < k {
                edges.insert(at, e);
                edges.truncate(k);
            }
        }
        SightHull { edges }
    }

    /// True when the ring lies wholly outside the sight hull, beyond the line of one of its
    /// edges by more than the gap.
    pub(crate) fn excludes(&self, ring: &[Vec2]) -> bool {
        let gap = 2.0 * GRAZE_TOLERANCE_MM;
        self.edges.iter().any(|&(a, e, len)| ring.iter().all(|&v| e.cross(v - a) < -gap * len))
    }
}

/// The blockers that may block a sight segment between the shapes (those the
/// [`SightHull`] does not exclude, among those whose boxes meet the shapes' box), and
/// their indices.
pub(super) fn in_sight_hull<'a>(
    shapes: &[&[Vec2]],
    blockers: &[&'a Blocker],
) -> (Vec<&'a Blocker>, Vec<usize>) {
    in_sight_hull_of(SightHull::new(shapes).as_ref(), shapes, blockers)
}

/// [`in_sight hull`] with the shapes' sight hull already built.
pub(super) fn in_sight_hull_of<'a>(
    sight_hull: Option<&SightHull>,
    shapes: &[&[Vec2]],
    blockers: &[&'a Blocker],
) -> (Vec<&'a Blocker>, Vec<usize>) {
    let (near, index) = relevant(shapes, blockers);
    match sight_hull {
        Some(c) => near.into_iter().zip(index).filter(|(b, _)| !c.excludes(&b.polygon.exterior)).unzip(),
        None => (near, index),
    }
}
