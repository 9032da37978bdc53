//! The sight hull between an eye and a target, and the chain test: solid pieces that
//! overlap one another from one side of the sight hull to the other hide the target
//! exactly.
//!
//! Every sight segment from a point of the eye (a segment) to a point of the target (a
//! convex base) lies in the sight hull, the convex hull of the two. Its outline is the
//! eye, a side ("bridge") from one end of the eye to the target, the target's near
//! outline, and the other bridge. A connected set inside the sight hull that meets both
//! bridges and neither the eye nor the target separates them (a connected set joining
//! two disjoint arcs of a disc's rim splits the disc between the two other arcs): every
//! sight segment crosses it.
//!
//! The pieces given are convex and **robust**: each is a blocker shrunk by a margin far
//! above the graze tolerance of [`crate::sight`], so a segment through any point of a
//! piece passes through the blocker's inside, and two pieces that meet are blockers
//! overlapping by twice the margin. The union of pieces that meet one another, clipped
//! to the sight hull, is connected; if one such union meets both bridges, the target is
//! hidden.

use super::union_root;
use crate::convex::{bbox, hull_points};
use crate::convex::{polygons_meet, segment_meets};
use crate::polygon::ConvexPolygon;
use crate::segment::Segment;
use crate::vec2::Vec2;

/// True when some chain of the convex `pieces` (ccw, each robust, see the module
/// documentation) crosses the sight hull between `eye` (two points) and `target` (convex,
/// ccw) from side to side, touching neither: then no sight segment gets through.
pub(crate) fn separated(eye: &[Vec2], target: &[Vec2], pieces: &[&[Vec2]]) -> bool {
    if eye.len() != 2 || target.len() < 3 || pieces.is_empty() {
        return false;
    }
    let mut pts: Vec<Vec2> = eye.to_vec();
    pts.extend_from_slice(target);
    let hull = hull_points(pts);
    let n = hull.len();
    if n < 3 {
        return false;
    }
    let on = |set: &[Vec2], p: Vec2| set.contains(&p);
    let mut bridges: Vec<Segment> = Vec::new();
    for i in 0..n {
        let (a, b) = (hull[i], hull[(i + 1) % n]);
        if (on(eye, a) && on(target, b)) || (on(target, a) && on(eye, b)) {
            bridges.push(Segment::new(a, b));
        }
    }
    let [left, right] = bridges[..] else { return false };
    let sight_hull = ConvexPolygon::from_ccw_unchecked(hull);
    let (clo, chi) = bbox(sight_hull.vertices().iter().copied());
    let eye_seg = Segment::new(eye[0], eye[1]);
    // Pieces in the sight hull that may join a chain, with whether each meets a bridge:
    // first unclipped, so that a sight hull no piece crosses from one bridge is settled
    // before any clipping.
    let mut near: Vec<(&[Vec2], bool, bool)> = Vec::new();
    for &p in pieces {
        let (lo, hi) = bbox(p.iter().copied());
        if hi.x < clo.x || lo.x > chi.x || hi.y < clo.y || lo.y > chi.y {
            continue;
        }
        if !polygons_meet(p, sight_hull.vertices()) || segment_meets(p, &eye_seg) || polygons_meet(p, target)
        {
            continue;
        }
        near.push((p, segment_meets(p, &left), segment_meets(p, &right)));
    }
    if !near.iter().any(|k| k.1) || !near.iter().any(|k| k.2) {
        return false;
    }
    // Clipped to the sight hull (pieces may only overlap outside it).
    let mut kept: Vec<(Vec<Vec2>, bool, bool)> = Vec::new();
    for (p, l, r) in near {
        let piece = ConvexPolygon::from_ccw_unchecked(p.to_vec());
        // A piece wholly inside needs no clipping.
        let q =
            if p.iter().all(|&v| sight_hull.contains(v)) { piece } else { sight_hull.intersection(&piece) };
        if q.vertices().len() < 3 || q.area() <= 0.0 {
            continue;
        }
        kept.push((q.into_vertices(), l, r));
    }
    if !kept.iter().any(|k| k.1) || !kept.iter().any(|k| k.2) {
        return false;
    }
    // Union-find over pieces that meet.
    let m = kept.len();
    let mut parent: Vec<usize> = (0..m).collect();
    for i in 0..m {
        for j in i + 1..m {
            if polygons_meet(&kept[i].0, &kept[j].0) {
                let (a, b) = (union_root(&mut parent, i), union_root(&mut parent, j));
                parent[a] = b;
            }
        }
    }
    let mut sides = vec![(false, false); m];
    for (i, k) in kept.iter().enumerate() {
        let r = union_root(&mut parent, i);
        sides[r].0 |= k.1;
        sides[r].1 |= k.2;
        if sides[r].0 && sides[r].1 {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rect(x0: f64, y0: f64, x1: f64, y1: f64) -> Vec<Vec2> {
        vec![Vec2::new(x0, y0), Vec2::new(x1, y0), Vec2::new(x1, y1), Vec2::new(x0, y1)]
    }

    #[test]
    fn overlapping_pieces_across_the_sight_hull_hide_the_target() {
        let eye = [Vec2::new(-10.0, 0.0), Vec2::new(10.0, 0.0)];
        let target = rect(-15.0, 200.0, 15.0, 220.0);
        // One piece across: hidden.
        let wall = rect(-40.0, 100.0, 40.0, 110.0);
        assert!(separated(&eye, &target, &[&wall]));
        // Two overlapping halves: hidden; with a gap between them: not.
        let l = rect(-40.0, 100.0, 1.0, 110.0);
        let r = rect(0.0, 105.0, 40.0, 115.0);
        assert!(separated(&eye, &target, &[&l, &r]));
        let r_gap = rect(2.0, 105.0, 40.0, 115.0);
        assert!(!separated(&eye, &target, &[&l, &r_gap]));
        // A piece touching the target does not count.
        let touching = rect(-40.0, 190.0, 40.0, 200.0);
        assert!(!separated(&eye, &target, &[&touching]));
        // Staggered pieces that do not meet: not proved (even if they hide it).
        let a = rect(-40.0, 80.0, 0.0, 90.0);
        let b = rect(-1.0, 120.0, 40.0, 130.0);
        assert!(!separated(&eye, &target, &[&a, &b]));
    }
}
