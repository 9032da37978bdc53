//! Full visibility ([`FullVisibility`]): whether every point of a target is seen from
//! some point of the spotter, by cutting the target along the critical lines.

use super::GRAZE_TOLERANCE_MM;
use super::blocker::Blocker;
use super::outline::{chord, grazes};
use super::segment_search::point_is_seen;
use super::sight_hull::{SightHull, in_sight_hull_of};
use crate::convex::hull_small;
use crate::polygon::{ConvexPolygon, Polygon, ring_contains};
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
///
/// # Which lines cut the target
/// A target point's visibility changes only where a sight segment from it to the spotter
/// grazes two things at once: a spotter corner and a blocker corner, or two blocker
/// corners. Three facts keep those lines few, however long the blockers' outlines:
/// 1. **Corners in the sight hull.** Every sight segment lies in the sight hull (the
///    convex hull of spotter and target), so a corner outside it (by more than the
///    graze tolerance) lies on no sight segment and draws no line.
/// 2. **Each blocker clear of both shapes is its convex hull.** Let `H` be the convex
///    hull of a blocker `B`, with the target and the spotter outside `H`. A segment from
///    a target point `t` to a spotter point `s` that meets the interior of `H` crosses it
///    in a chord, entering and leaving through `H`'s boundary. `H \ B` is a union of
///    pockets, each bounded by one hull edge (its lid) and a chain of `B`; pockets meet
///    only at points of `B` on `H`'s boundary. A chord through the interior cannot go
///    from one pocket to another without crossing `B`, and cannot enter and leave one
///    pocket, since a line crosses the lid's line once. So `[t, s]` meets `B`'s interior
///    exactly when it meets `H`'s: for every question asked here (each a segment from a
///    target point to a spotter point), `B` blocks what `H` blocks, and `H` replaces it
///    (its corners are the hull's few, and holes drop out). The one difference lies in
///    the tie rule's degenerate case: a sight line running exactly along a lid that
///    another blocker touches along that same line is a seam of the union for `H`, and
///    not for `B`.
/// 3. **Two corners of one convex blocker draw no line.** A line through two corners of
///    a convex blocker grazing both is one of its edges' lines; along it the blocker's
///    shadow from `t` only passes from one corner to the next and nothing changes. (The
///    blockers left as they are keep the pairs of their own corners.)
///
/// A line through two blocker corners must also meet the spotter, where the sight
/// segment it carries ends. Every other line of the exhaustive construction
/// ([`tests::all_corner_pairs`], kept as the property test's oracle) changes no point's
/// visibility, so the pieces cut by these lines are each seen or hidden whole, and the
/// verdict is the same.
#[must_use]
pub fn full_visibility_among(spotter: &[Vec2], target: &[Vec2], blockers: &[&Blocker]) -> FullVisibility {
    // Every sight segment from the spotter to a target point lies in the sight hull
    // between them, so blockers outside it change no point's visibility and draw no
    // line along which it changes.
    let sight_hull = SightHull::new(&[spotter, target]);
    let (near, _) = in_sight_hull_of(sight_hull.as_ref(), &[spotter, target], blockers);
    if near.is_empty() {
        return FullVisibility::Visible;
    }
    // Fact 2: a blocker clear of both shapes is replaced by its convex hull.
    let hulls: Vec<Option<Blocker>> = near.iter().map(|b| hull_in_place_of(b, spotter, target)).collect();
    let near: Vec<(&Blocker, bool)> =
        near.iter().zip(&hulls).map(|(&b, h)| h.as_ref().map_or((b, false), |h| (h, true))).collect();
    let blockers: Vec<&Blocker> = near.iter().map(|&(b, _)| b).collect();
    if let Some(verdict) = quick_verdict(spotter, target, &blockers) {
        return verdict;
    }
    // Fact 1: the corners in the sight hull, each with its blocker's place and whether
    // that blocker is a hull (fact 3).
    let inside = |v: Vec2| sight_hull.as_ref().is_none_or(|h| !h.excludes(&[v]));
    let corners: Vec<(Vec2, Vec2, Vec2, usize, bool)> = near
        .iter()
        .enumerate()
        .flat_map(|(k, &(b, hull))| b.corners().map(move |(p, v, n)| (p, v, n, k, hull)))
        .filter(|c| inside(c.1))
        .collect();
    let mut lines: Vec<(Vec2, Vec2)> = Vec::new();
    for &s in spotter {
        for &(prev, v, next, _, _) in &corners {
            let dir = v - s;
            if dir.length_2() > 0.0 && grazes(prev, v, next, dir) {
                lines.push((s, dir));
            }
        }
    }
    for i in 0..corners.len() {
        let (pa, a, na, ka, hull) = corners[i];
        for &(pb, b, nb, kb, _) in &corners[i + 1..] {
            if hull && ka == kb {
                continue;
            }
            let dir = b - a;
            if dir.length_2() > 0.0
                && grazes(pa, a, na, dir)
                && grazes(pb, b, nb, dir)
                && chord(spotter, a, dir).is_some()
            {
                lines.push((a, dir));
            }
        }
    }
    cut_and_test(spotter, target, &blockers, lines)
}

/// The convex hull of blocker `b` as a blocker, when it stands in for `b` in
/// [`full_visibility_among`] (fact 2): `b` is not already convex, and its hull keeps
/// clear of the spotter and the target. `None` otherwise.
fn hull_in_place_of(b: &Blocker, spotter: &[Vec2], target: &[Vec2]) -> Option<Blocker> {
    let ring = &b.polygon.exterior;
    if ring.len() <= 3 && b.polygon.holes.is_empty() {
        return None;
    }
    let hull = b.hull();
    if hull.len() < 3 || (hull.len() == ring.len() && b.polygon.holes.is_empty()) {
        return None;
    }
    let h = Blocker::new(Polygon::new(hull.to_vec(), vec![]));
    (clear_of(&h, target, HULL_CLEARANCE_MM) && clear_of(&h, spotter, HULL_CLEARANCE_MM)).then_some(h)
}

/// How far the spotter and the target must keep from a blocker's convex hull for the
/// hull to stand in for it, mm: well past the tolerances of the obstruction test, so that
/// no segment's verdict near an end is decided within them.
const HULL_CLEARANCE_MM: f64 = 0.01;

/// The target cut along `lines` (each a point and a direction; those that miss the
/// target are skipped), and one point inside each piece tested against `near`: the
/// first piece's point no spotter point sees is the witness.
fn cut_and_test(
    spotter: &[Vec2],
    target: &[Vec2],
    near: &[&Blocker],
    lines: Vec<(Vec2, Vec2)>,
) -> FullVisibility {
    let target_poly = ConvexPolygon::from_ccw_unchecked(target.to_vec());
    // The mean of a cell's vertices lies inside it however thin it is; the area centroid
    // of a sliver (area near the 1e-12 threshold) divides rounding noise by that area
    // and can land far outside the cell, even outside the target.
    let witness = |cell: &ConvexPolygon| {
        let v = cell.vertices();
        (!v.is_empty()).then(|| v.iter().fold(Vec2::ZERO, |a, &p| a + p) / v.len() as f64)
    };
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
            && !point_is_seen(spotter, w, near)
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

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::base::{Base, BaseSize, Pose};
    use crate::sight::sight_hull::in_sight_hull;
    use proptest::prelude::*;

    /// [`full_visibility_among`] as it was before the lines were narrowed (issue 41): every
    /// pair of corners of the blockers in the sight hull, grazed at both, draws a line.
    /// Exact and quadratic in the corners: the oracle of the narrowed construction.
    pub(in crate::sight) fn all_corner_pairs(
        spotter: &[Vec2],
        target: &[Vec2],
        blockers: &[&Blocker],
    ) -> FullVisibility {
        let (near, _) = in_sight_hull(&[spotter, target], blockers);
        if near.is_empty() {
            return FullVisibility::Visible;
        }
        if let Some(verdict) = quick_verdict(spotter, target, &near) {
            return verdict;
        }
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
        cut_and_test(spotter, target, &near, lines)
    }

    /// A star-shaped outline of `n` corners about `c`, each at `r` times its factor.
    fn star(c: Vec2, r: f64, factors: &[f64], turn: f64) -> Vec<Vec2> {
        let n = factors.len();
        (0..n)
            .map(|i| {
                let a = turn + std::f64::consts::TAU * i as f64 / n as f64;
                c + Vec2::new(a.cos(), a.sin()) * (r * factors[i])
            })
            .collect()
    }

    /// A scene: a spotter (a base's front edge, or the base), a target base, and a few
    /// blockers, rectangles and star-shaped woods, across the space between them.
    fn scene() -> impl Strategy<Value = (Vec<Vec2>, Vec<Vec2>, Vec<Blocker>)> {
        let base = (-20.0..20.0f64, 0.0..360.0f64, 20.0..80.0f64, 10.0..40.0f64);
        let wood = (
            -40.0..40.0f64,
            60.0..140.0f64,
            3.0..15.0f64,
            proptest::collection::vec(0.3..1.0f64, 5..24),
            0.0..6.3f64,
        );
        let rect = (-40.0..40.0f64, 60.0..140.0f64, 0.0..360.0f64, 2.0..15.0f64, 2.0..10.0f64);
        (
            base.clone(),
            base,
            any::<bool>(),
            proptest::collection::vec(wood, 0..4),
            proptest::collection::vec(rect, 0..3),
        )
            .prop_map(|((sx, sh, sw, sd), (tx, th, tw, td), edge, woods, rects)| {
                let s = Base::new(BaseSize::new(sw, sd), Pose::new(Vec2::new(sx, 0.0), sh));
                let t = Base::new(BaseSize::new(tw, 0.5 * td), Pose::new(Vec2::new(tx, 200.0), th));
                let spotter = if edge {
                    let e = s.front_edge();
                    vec![e.a, e.b]
                } else {
                    s.vertices_ccw().to_vec()
                };
                let mut blockers: Vec<Blocker> = woods
                    .into_iter()
                    .map(|(x, y, r, f, turn)| {
                        Blocker::new(Polygon::new(star(Vec2::new(x, y), r, &f, turn), vec![]))
                    })
                    .collect();
                blockers.extend(rects.into_iter().map(|(x, y, h, w, d)| {
                    Blocker::from_base(&Base::new(BaseSize::new(w, d), Pose::new(Vec2::new(x, y), h)))
                }));
                (spotter, t.vertices_ccw().to_vec(), blockers)
            })
    }

    proptest! {
        #![proptest_config(crate::test_support::proptest_config(1500, 41))]
        /// The narrowed lines give every verdict the exhaustive ones give, and a hidden
        /// witness no spotter point sees past the blockers as given.
        #[test]
        fn the_narrowed_lines_agree_with_every_pair((spotter, target, blockers) in scene()) {
            let refs: Vec<&Blocker> = blockers.iter().collect();
            let fast = full_visibility_among(&spotter, &target, &refs);
            let slow = all_corner_pairs(&spotter, &target, &refs);
            prop_assert_eq!(
                matches!(fast, FullVisibility::Visible),
                matches!(slow, FullVisibility::Visible),
                "fast {:?}, every pair {:?}", fast, slow
            );
            if let FullVisibility::Hidden { witness } = fast {
                prop_assert!(!point_is_seen(&spotter, witness, &refs));
            }
        }
    }

    /// A wavy wood of many corners between a spotter and a target that it hides in part:
    /// the narrowed construction answers as every pair does, with far fewer lines.
    #[test]
    fn a_long_wavy_outline_hides_what_every_pair_hides() {
        let n = 400;
        let f: Vec<f64> =
            (0..n).map(|i| 1.0 + 0.08 * (12.0 * std::f64::consts::TAU * i as f64 / n as f64).sin()).collect();
        let wood = Blocker::new(Polygon::new(star(Vec2::new(-10.0, 100.0), 20.0, &f, 0.0), vec![]));
        let spotter = [Vec2::new(-15.0, 0.0), Vec2::new(15.0, 0.0)];
        for tx in [-40.0, -20.0, 0.0, 20.0, 40.0] {
            let target = Base::new(BaseSize::new(30.0, 20.0), Pose::new(Vec2::new(tx, 200.0), 270.0));
            let t = target.vertices_ccw();
            let fast = full_visibility_among(&spotter, &t, &[&wood]);
            let slow = all_corner_pairs(&spotter, &t, &[&wood]);
            assert_eq!(
                matches!(fast, FullVisibility::Visible),
                matches!(slow, FullVisibility::Visible),
                "{tx}"
            );
        }
    }
}
