//! The search for a clear sight segment between two convex shapes, or from a shape to a
//! point, through the event lines of their corners and the blockers' corners.

use super::blocker::Blocker;
use super::obstruction::{blocked, blocked_reordering};
use super::outline::{Outline, grazes};
use super::sight_hull::{SightHull, in_sight_hull, in_sight_hull_of};
use crate::polygon::ConvexPolygon;
use crate::segment::Segment;
use crate::vec2::Vec2;

/// A clear sight segment from some point of `spotter` to some point of `target`, or
/// `None` when every such segment is blocked. Shapes are convex with vertices
/// counter-clockwise; a spotter of two vertices is a segment (a base's front edge).
///
/// ```
/// use vedette_geometry::sight::{Blocker, clear_sight_segment};
/// use vedette_geometry::{Base, BaseSize, Pose, Vec2};
/// let spotter = [Vec2::new(-25.0, 0.0), Vec2::new(25.0, 0.0)];
/// let target = Base::new(BaseSize::new(30.0, 20.0), Pose::new(Vec2::new(0.0, 200.0), 270.0));
/// let wall = Blocker::from_base(&Base::new(BaseSize::new(200.0, 10.0), Pose::new(Vec2::new(0.0, 100.0), 90.0)));
/// assert!(clear_sight_segment(&spotter, &target.vertices_ccw(), &[wall]).is_none());
/// let short = Blocker::from_base(&Base::new(BaseSize::new(40.0, 10.0), Pose::new(Vec2::new(0.0, 100.0), 90.0)));
/// let s = clear_sight_segment(&spotter, &target.vertices_ccw(), &[short]).unwrap();
/// assert!(s.a.y.abs() < 1e-9);
/// ```
#[must_use]
pub fn clear_sight_segment(spotter: &[Vec2], target: &[Vec2], blockers: &[Blocker]) -> Option<Segment> {
    clear_sight_segment_among(spotter, target, &blockers.iter().collect::<Vec<_>>())
}

/// [`clear_sight_segment`] over borrowed blockers.
#[must_use]
pub fn clear_sight_segment_among(
    spotter: &[Vec2],
    target: &[Vec2],
    blockers: &[&Blocker],
) -> Option<Segment> {
    let sight_hull = SightHull::new(&[spotter, target]);
    let (near, _) = in_sight_hull_of(sight_hull.as_ref(), &[spotter, target], blockers);
    let centre = |s: &[Vec2]| s.iter().fold(Vec2::ZERO, |a, &p| a + p) / s.len().max(1) as f64;
    let (spotter_outline, target_outline) = (Outline::new(spotter), Outline::new(target));
    let mut order = near.clone();
    let mut try_line = |p: Vec2, dir: Vec2| -> Option<Segment> {
        let dir_len = dir.length();
        let cs = spotter_outline.chord(p, dir, dir_len)?;
        let ct = target_outline.chord(p, dir, dir_len)?;
        let (s, t) = if cs.1 < ct.0 {
            (cs.1, ct.0)
        } else if ct.1 < cs.0 {
            (cs.0, ct.1)
        } else {
            // The shapes overlap along this line: they touch.
            let m = p + dir * (cs.0.max(ct.0));
            return Some(Segment::new(m, m));
        };
        let seg = Segment::new(p + dir * s, p + dir * t);
        (!blocked_reordering(seg.a, seg.b, &mut order)).then_some(seg)
    };
    // The natural line first: centre to centre.
    let (cs, ct) = (centre(spotter), centre(target));
    if cs != ct
        && let Some(s) = try_line(cs, ct - cs)
    {
        return Some(s);
    }
    if near.is_empty() {
        return try_line(cs, ct - cs).or_else(|| try_line(spotter[0], target[0] - spotter[0]));
    }
    // Event points: shape corners (any line through them) and blocker corners (lines
    // that graze there). A clear segment slid until it is stopped touches such points
    // on itself, so inside the sight hull: corners the sight hull excludes are left out.
    let mut points: Vec<(Vec2, Option<(Vec2, Vec2)>)> =
        spotter.iter().chain(target.iter()).map(|&p| (p, None)).collect();
    for bl in &near {
        for (prev, v, next) in bl.corners() {
            if sight_hull.as_ref().is_none_or(|c| !c.excludes(&[v])) {
                points.push((v, Some((prev, next))));
            }
        }
    }
    for i in 0..points.len() {
        for j in i + 1..points.len() {
            let (p, gp) = points[i];
            let (q, gq) = points[j];
            let dir = q - p;
            if dir.length_2() == 0.0 {
                continue;
            }
            if gp.is_some_and(|(a, b)| !grazes(a, p, b, dir))
                || gq.is_some_and(|(a, b)| !grazes(a, q, b, dir))
            {
                continue;
            }
            if let Some(s) = try_line(p, dir) {
                return Some(s);
            }
        }
    }
    None
}

/// A clear sight segment from some point of `spotter` to the point `t`, or `None`.
#[must_use]
pub fn point_sight_segment(spotter: &[Vec2], t: Vec2, blockers: &[Blocker]) -> Option<Segment> {
    point_sight_segment_among(spotter, t, &blockers.iter().collect::<Vec<_>>())
}

/// [`point_sight_segment`] over borrowed blockers.
#[must_use]
pub fn point_sight_segment_among(spotter: &[Vec2], t: Vec2, blockers: &[&Blocker]) -> Option<Segment> {
    let (near, _) = in_sight_hull(&[spotter, &[t]], blockers);
    point_sight(spotter, t, &near)
}

/// True when some point of `spotter` sees the point `t` ([`point_sight_segment_among`]
/// finds a segment): the straight segments from `t` to the spotter's corners are tried
/// first, as they settle most points without the search's set-up (a segment to a corner
/// that is clear is a clear sight segment, or holds one: its part outside the spotter).
/// When both are blocked and one base runs deep across both ([`shaded_by_one`]), `t` is
/// hidden without the search.
pub(crate) fn point_is_seen(spotter: &[Vec2], t: Vec2, blockers: &[&Blocker]) -> bool {
    spotter.iter().any(|&s| !blocked(t, s, blockers))
        || (!shaded_by_one(spotter, t, blockers) && point_sight_segment_among(spotter, t, blockers).is_some())
}

/// True when `spotter` is a segment and one blocker of four corners (a base, a band)
/// runs deep through both segments from `t` to its ends ([`Blocker::runs_deep_through`]:
/// a point [`super::obstruction::DEEP_MM`] inside it on each). Then every segment from `t` to
/// the spotter is blocked: the chord between those two points lies that deep inside
/// the convex blocker and crosses each such segment, whose window between crossings
/// there has its middle at least half that deep inside (the depth is concave along it),
/// so the obstruction test finds it blocked.
fn shaded_by_one(spotter: &[Vec2], t: Vec2, blockers: &[&Blocker]) -> bool {
    let &[e0, e1] = spotter else { return false };
    let (d0, d1) = (e0 - t, e1 - t);
    let (l0, l1) = (d0.length(), d1.length());
    l0 > 0.0
        && l1 > 0.0
        && blockers.iter().any(|b| b.runs_deep_through(t, d0, l0) && b.runs_deep_through(t, d1, l1))
}

pub(super) fn point_sight(spotter: &[Vec2], t: Vec2, near: &[&Blocker]) -> Option<Segment> {
    // Candidate directions from t: to each spotter corner, through each grazing blocker
    // corner, and midway between neighbours (visibility is constant in between).
    let outline = Outline::new(spotter);
    let to_s = |dir: Vec2| -> Option<Segment> {
        let (lo, hi) = outline.chord(t, dir, dir.length())?;
        if hi < 0.0 {
            return None;
        }
        let s = t + dir * lo.max(0.0);
        let seg = Segment::new(s, t);
        (!blocked(t, s, near)).then_some(seg)
    };
    if spotter.len() >= 3 && ConvexPolygon::from_ccw_unchecked(spotter.to_vec()).contains(t) {
        return Some(Segment::new(t, t));
    }
    // The spotter subtends less than a half turn from outside; directions are ordered by
    // a pseudo-angle relative to the direction of its centre (no ±180° cut, no
    // trigonometry), and kept as the exact vectors toward the corners.
    let c = spotter.iter().fold(Vec2::ZERO, |a, &p| a + p) / spotter.len() as f64;
    let towards = c - t;
    let key = |d: Vec2| relative_pseudo_angle(towards, d);
    let mut dirs: Vec<(f64, Vec2)> = spotter.iter().map(|&v| (key(v - t), v - t)).collect();
    let (lo, hi) =
        dirs.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &(k, _)| (lo.min(k), hi.max(k)));
    for bl in near {
        for (prev, v, next) in bl.corners() {
            let dir = v - t;
            if dir.length_2() == 0.0 || !grazes(prev, v, next, dir) {
                continue;
            }
            let k = key(dir);
            if k >= lo && k <= hi {
                dirs.push((k, dir));
            }
        }
    }
    dirs.sort_by(|a, b| a.0.total_cmp(&b.0));
    dirs.dedup_by(|a, b| a.0 == b.0);
    let unit = |d: Vec2| d / d.length();
    let between = dirs.windows(2).map(|w| unit(w[0].1) + unit(w[1].1));
    dirs.iter().map(|&(_, d)| d).chain(between).find_map(to_s)
}

/// A pseudo-angle of direction `d` relative to `towards`, in (-2, 2]: monotone in the
/// angle from `towards` to `d` over (-180°, 180°], 0 along `towards`; no trigonometry.
pub(crate) fn relative_pseudo_angle(towards: Vec2, d: Vec2) -> f64 {
    let (x, y) = (towards.dot(d), towards.cross(d));
    let sum = x.abs() + y.abs();
    if sum == 0.0 {
        return 0.0;
    }
    let r = y / sum;
    if x >= 0.0 {
        r
    } else if y >= 0.0 {
        2.0 - r
    } else {
        -2.0 - r
    }
}
