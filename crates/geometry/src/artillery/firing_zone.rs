//! The firing zone (000 §4.5): "a cone-shaped area beginning at an artillery battery's
//! front through which battery fire is directed at targets. The firing zone is tapered
//! outward 10° and may be swung throughout a battery's 60° degree arc-of-fire ... It
//! must be free of friendly combat bases (or any parts thereof) and markers in order for
//! the battery to be able to fire ... The width of a battery's firing zone will match its
//! current frontage".
//!
//! A zone is the [`FrontageCone`] of the battery frontage with 5° sides, swung by an
//! angle `swing` (degrees, counter-clockwise from straight ahead: positive swings to the
//! battery's left). Its sides may not leave the arc, so `|swing| <= 30° - 5° = 25°`. Its
//! centre line from the middle of the frontage is the **centre of fire**.
//!
//! # How far the zone reaches
//! The zone reaches to the battery's maximum range, measured from the frontage like
//! every range: a friendly base beyond maximum range does not stop the battery firing.
//!
//! # What blocks it
//! "Free of friendly combat bases (or any parts thereof) and markers": every base of a
//! friendly unit of any kind (combat bases, skirmish markers, leaders, limbers) and
//! every status marker of a friendly unit, except the firing battery itself and its own
//! status markers (000 §4.2 places a saved-fire marker "in front of the battery").
//! Tie rule: a base that only touches the zone's boundary leaves it clear; any overlap
//! of positive area blocks.
//!
//! # Which swings are clear
//! A point `p` ahead of the frontage lies in the zone swung by `s` exactly when, seen
//! from the left frontage end `A`, it is no further left than `s + 5°`, and seen from
//! the right end `B`, no further right than `s - 5°`. So an obstacle `K` (its part ahead
//! of the frontage and within reach) blocks exactly the open interval of swings
//! `(min_K angle_A - 5°, max_K angle_B + 5°)`: the union of the per-point intervals over
//! a connected set is an interval. The extremes lie at corners of `K`: vertices of the
//! obstacle, the points where its edges cross the reach boundary, and the corners of
//! the reach boundary itself ([`blocked_swings`]). The clear swings are `[-25°, 25°]`
//! minus those open intervals: closed intervals ([`ClearSwings`]). The property tests
//! check this against clipping the swung cone directly ([`FiringZone::overlaps`]).

use crate::artillery::range::segment_to_convex_mm;
use crate::base::{Base, BaseSize, Pose};
use crate::cone::FrontageCone;
use crate::convex::boxes_meet;
use crate::index::SpatialIndex;
use crate::polygon::{ConvexPolygon, HalfPlane};
use crate::segment::Segment;
use crate::table::{BaseRef, MARKER_CUBE_MM, Marker, Table, Unit};
use crate::vec2::Vec2;

/// Overlaps of at most this area (mm²) are contact, not overlap.
pub const ZONE_CONTACT_AREA_MM2: f64 = 1e-9;

/// A point of an obstacle within this distance (mm) of a frontage end is at that end: its
/// direction from there is none ([`blocked_swings`]).
pub(crate) const AT_APEX_MM: f64 = 1e-9;

/// The signed angle in degrees from `forward` to `v`, counter-clockwise positive.
#[must_use]
pub(crate) fn relative_deg(forward: Vec2, v: Vec2) -> f64 {
    forward.cross(v).atan2(forward.dot(v)).to_degrees()
}

/// A firing zone: the battery frontage's 10° cone swung inside the arc of fire,
/// reaching to maximum range.
///
/// ```
/// use vedette_geometry::{FiringZone, Segment, Vec2};
/// let front = Segment::new(Vec2::new(-25.0, 0.0), Vec2::new(25.0, 0.0));
/// let zone = FiringZone::new(front, Vec2::new(0.0, 1.0), 10.0, 5.0, 406.4);
/// let cof = zone.centre_of_fire();
/// assert!(((cof.b - cof.a).heading_deg() - 100.0).abs() < 1e-9); // swung 10° left of +y
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FiringZone {
    cone: FrontageCone,
    forward: Vec2,
    swing_deg: f64,
    reach_mm: f64,
}

impl FiringZone {
    /// The zone of a frontage (left end to right end), the battery's unit forward
    /// vector, a swing (degrees, positive to the left), the side angle (5°) and the
    /// reach (the maximum range, mm).
    #[must_use]
    pub fn new(frontage: Segment, forward: Vec2, swing_deg: f64, side_deg: f64, reach_mm: f64) -> Self {
        FiringZone {
            cone: FrontageCone::swung(frontage, forward, swing_deg, side_deg),
            forward,
            swing_deg,
            reach_mm,
        }
    }

    /// The cone (unbounded in depth).
    #[must_use]
    pub fn cone(&self) -> &FrontageCone {
        &self.cone
    }

    /// The swing, degrees counter-clockwise from straight ahead.
    #[must_use]
    pub fn swing_deg(&self) -> f64 {
        self.swing_deg
    }

    /// The reach (maximum range), mm.
    #[must_use]
    pub fn reach_mm(&self) -> f64 {
        self.reach_mm
    }

    /// The centre of fire: from the middle of the frontage along the zone's axis to the
    /// point at maximum range.
    #[must_use]
    pub fn centre_of_fire(&self) -> Segment {
        let m = self.cone.frontage.midpoint();
        let d = self.cone.axis();
        let t = crate::artillery::range::ray_parameter_at_range(&self.cone.frontage, m, d, self.reach_mm);
        Segment::new(m, m + d * t)
    }

    /// True when the zone and the convex polygon share interior within reach (more than
    /// [`ZONE_CONTACT_AREA_MM2`] of the polygon lies inside the cone, and some of that
    /// part is closer than the reach to the frontage).
    #[must_use]
    pub fn overlaps(&self, polygon: &ConvexPolygon) -> bool {
        let inside = ConvexPolygon::from_half_planes(polygon, &self.cone.half_planes());
        inside.area() > ZONE_CONTACT_AREA_MM2
            && segment_to_convex_mm(&self.cone.frontage, inside.vertices()) < self.reach_mm
    }

    /// True when part of the base lies inside the zone (see [`FiringZone::overlaps`]).
    #[must_use]
    pub fn holds_part_of(&self, base: &Base) -> bool {
        self.overlaps(&base.polygon())
    }

    /// True when none of the obstacles overlaps the zone.
    #[must_use]
    pub fn is_clear(&self, obstacles: &[ZoneObstacle]) -> bool {
        !obstacles.iter().any(|o| self.overlaps(&o.polygon))
    }

    /// The battery's forward vector (the zone's axis when unswung).
    #[must_use]
    pub fn forward(&self) -> Vec2 {
        self.forward
    }
}

/// A closed interval of swings, degrees.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SwingInterval {
    /// The rightmost swing (most negative).
    pub from_deg: f64,
    /// The leftmost swing.
    pub to_deg: f64,
}

impl SwingInterval {
    /// True when `s` lies in the closed interval.
    #[must_use]
    pub fn contains(&self, s: f64) -> bool {
        self.from_deg <= s && s <= self.to_deg
    }
}

/// The swings at which a battery's firing zone is clear: sorted, disjoint closed
/// intervals inside `[-max, max]`.
#[derive(Debug, Clone, PartialEq)]
pub struct ClearSwings {
    intervals: Vec<SwingInterval>,
    max_swing_deg: f64,
}

impl ClearSwings {
    /// Every swing from `-max_swing_deg` to `max_swing_deg` is clear.
    #[must_use]
    pub fn all(max_swing_deg: f64) -> Self {
        ClearSwings {
            intervals: vec![SwingInterval { from_deg: -max_swing_deg, to_deg: max_swing_deg }],
            max_swing_deg,
        }
    }

    /// No swing is clear.
    #[must_use]
    pub fn none(max_swing_deg: f64) -> Self {
        ClearSwings { intervals: Vec::new(), max_swing_deg }
    }

    /// `[-max, max]` minus the given open intervals.
    #[must_use]
    pub fn without(max_swing_deg: f64, blocked: &[(f64, f64)]) -> Self {
        let mut b: Vec<(f64, f64)> =
            blocked.iter().copied().filter(|&(lo, hi)| hi > -max_swing_deg && lo < max_swing_deg).collect();
        b.sort_by(|x, y| x.0.total_cmp(&y.0));
        let mut intervals = Vec::new();
        // Every swing from `cursor` up to the next blocked interval is clear (the end of
        // an open interval is itself clear).
        let mut cursor = -max_swing_deg;
        for (lo, hi) in b {
            if lo >= cursor {
                intervals.push(SwingInterval { from_deg: cursor, to_deg: lo });
                cursor = hi;
            } else {
                cursor = cursor.max(hi);
            }
            if cursor > max_swing_deg {
                break;
            }
        }
        if cursor <= max_swing_deg {
            intervals.push(SwingInterval { from_deg: cursor, to_deg: max_swing_deg });
        }
        ClearSwings { intervals, max_swing_deg }
    }

    /// The clear intervals, from the right (negative swings) to the left.
    #[must_use]
    pub fn intervals(&self) -> &[SwingInterval] {
        &self.intervals
    }

    /// The largest swing either way.
    #[must_use]
    pub fn max_swing_deg(&self) -> f64 {
        self.max_swing_deg
    }

    /// True when no swing is clear.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.intervals.is_empty()
    }

    /// True when the zone is clear at swing `s`.
    #[must_use]
    pub fn contains(&self, s: f64) -> bool {
        self.intervals.iter().any(|i| i.contains(s))
    }

    /// The clear swing closest to `desired` that also lies strictly inside one of the
    /// open intervals `wanted` (the swings whose centre of fire passes into a target);
    /// `None` when there is none. Ties go to the swing nearer straight ahead.
    #[must_use]
    pub fn closest_within(&self, wanted: &[(f64, f64)], desired: f64) -> Option<f64> {
        let mut best: Option<f64> = None;
        let better = |s: f64, cur: Option<f64>| match cur {
            None => true,
            Some(c) => {
                let (ds, dc) = ((s - desired).abs(), (c - desired).abs());
                ds < dc || (ds == dc && s.abs() < c.abs())
            }
        };
        for c in &self.intervals {
            for &(wl, wh) in wanted {
                let lo = c.from_deg.max(wl);
                let hi = c.to_deg.min(wh);
                // Points strictly inside (wl, wh) and inside [from, to].
                let nonempty = lo < hi || (lo == hi && wl < lo && lo < wh);
                if !nonempty {
                    continue;
                }
                let mut s = desired.clamp(lo, hi);
                if s <= wl || s >= wh {
                    // Landed on an open end of the wanted interval: step inside.
                    s = 0.5 * (lo + hi);
                }
                if better(s, best) {
                    best = Some(s);
                }
            }
        }
        best
    }
}

/// The open interval of swings (degrees) at which a zone of the given frontage,
/// forward vector, side angle and reach overlaps the convex obstacle, or `None` when
/// no swing makes it overlap (see the module documentation for the derivation). The
/// forward vector is the battery's: a unit vector perpendicular to the frontage.
///
/// The same interval is the set of swings at which the zone holds part of a target base
/// (the aim's last resort in [`crate::aim_at`]).
#[must_use]
pub fn blocked_swings(
    frontage: &Segment,
    forward: Vec2,
    side_deg: f64,
    reach_mm: f64,
    obstacle: &ConvexPolygon,
) -> Option<(f64, f64)> {
    let (a, b) = (frontage.a, frontage.b);
    let ahead = obstacle.clipped(&HalfPlane::left_of(a, b));
    if ahead.area() <= ZONE_CONTACT_AREA_MM2 || segment_to_convex_mm(frontage, ahead.vertices()) >= reach_mm {
        return None;
    }
    let points = reach_corners(frontage, forward, reach_mm, &ahead);
    let lo = extreme_angle(forward, a, &points, &ahead, f64::min)? - side_deg;
    let hi = extreme_angle(forward, b, &points, &ahead, f64::max)? + side_deg;
    Some((lo, hi))
}

/// The points where the angle seen from a frontage end can be extreme over the part of
/// `ahead` within reach: its vertices within reach, the crossings of its edges with the
/// reach boundary, and the reach boundary's own corners that lie in it.
fn reach_corners(frontage: &Segment, forward: Vec2, reach_mm: f64, ahead: &ConvexPolygon) -> Vec<Vec2> {
    let (a, b) = (frontage.a, frontage.b);
    let v = ahead.vertices();
    let n = v.len();
    let reach_2 = reach_mm * reach_mm;
    let inside: Vec<bool> = v.iter().map(|&p| frontage.distance_2_to_point(p) <= reach_2).collect();
    let mut out: Vec<Vec2> = v.iter().zip(&inside).filter(|(_, i)| **i).map(|(p, _)| *p).collect();
    if out.len() == n {
        // Distance from the frontage is convex along an edge: with every vertex within
        // reach, the whole polygon is, and the reach boundary plays no part.
        return out;
    }
    for i in 0..n {
        let (p, q) = (v[i], v[(i + 1) % n]);
        for t in reach_crossings(frontage, p, q, reach_mm) {
            out.push(p.lerp(q, t));
        }
    }
    let along = (b - a).normalized().unwrap_or(forward.perp_right());
    for c in [a + forward * reach_mm, b + forward * reach_mm, a - along * reach_mm, b + along * reach_mm] {
        if segment_to_convex_mm(&Segment::new(c, c), v) <= 1e-9 {
            out.push(c);
        }
    }
    out
}

/// The parameters `t` in [0, 1] where the point `p + t (q - p)` is exactly `reach_mm`
/// from the frontage, solved piece by piece: where the nearest frontage point is an end
/// (a circle about it) or inside the frontage (two lines parallel to it).
fn reach_crossings(frontage: &Segment, p: Vec2, q: Vec2, reach_mm: f64) -> Vec<f64> {
    let (a, b) = (frontage.a, frontage.b);
    let s = b - a;
    let l2 = s.length_2();
    let d = q - p;
    let mut out = Vec::new();
    // The frontage parameter of the foot of the perpendicular, linear in t.
    let foot = |t: f64| if l2 > 0.0 { (p + d * t - a).dot(s) / l2 } else { 0.0 };
    let mut keep = |t: f64, piece: fn(f64) -> bool| {
        if (-1e-12..=1.0 + 1e-12).contains(&t) && piece(foot(t)) {
            out.push(t.clamp(0.0, 1.0));
        }
    };
    // Circles about the two ends: |p + t d - c|² = r².
    for (c, piece) in [(a, (|u: f64| u <= 0.0) as fn(f64) -> bool), (b, |u: f64| u >= 1.0)] {
        let w = p - c;
        let (qa, qb, qc) = (d.length_2(), 2.0 * w.dot(d), w.length_2() - reach_mm * reach_mm);
        if qa == 0.0 {
            continue;
        }
        let disc = qb * qb - 4.0 * qa * qc;
        if disc >= 0.0 {
            let r = disc.sqrt();
            keep((-qb - r) / (2.0 * qa), piece);
            keep((-qb + r) / (2.0 * qa), piece);
        }
    }
    // The two lines at distance r from the frontage's line: n · (p + t d - a) = ±r.
    if l2 > 0.0 {
        let nrm = s.perp_left() / l2.sqrt();
        let (h0, dh) = (nrm.dot(p - a), nrm.dot(d));
        if dh != 0.0 {
            for target in [reach_mm, -reach_mm] {
                keep((target - h0) / dh, |u: f64| (0.0..=1.0).contains(&u));
            }
        }
    }
    out
}

/// The smallest (`pick = min`) or largest angle, relative to `forward`, of the
/// directions from `apex` into the obstacle part: over the candidate points, and, when
/// the apex lies on the part's boundary, along the part's boundary edges at the apex.
fn extreme_angle(
    forward: Vec2,
    apex: Vec2,
    points: &[Vec2],
    ahead: &ConvexPolygon,
    pick: fn(f64, f64) -> f64,
) -> Option<f64> {
    let mut dirs: Vec<Vec2> =
        points.iter().filter(|p| p.distance(apex) > AT_APEX_MM).map(|&p| p - apex).collect();
    let v = ahead.vertices();
    let n = v.len();
    for i in 0..n {
        let (p, q) = (v[i], v[(i + 1) % n]);
        if Segment::new(p, q).distance_to_point(apex) <= AT_APEX_MM {
            for e in [p, q] {
                if e.distance(apex) > AT_APEX_MM {
                    dirs.push(e - apex);
                }
            }
            // The neighbours of a vertex at the apex.
            if p.distance(apex) <= AT_APEX_MM {
                dirs.push(v[(i + n - 1) % n] - apex);
            }
        }
    }
    dirs.into_iter().map(|d| relative_deg(forward, d)).reduce(pick)
}

/// The clear swings of a zone among convex obstacles (see the module documentation).
///
/// ```
/// use vedette_geometry::{Base, BaseSize, Pose, Segment, Vec2, clear_swings};
/// // A 50 mm frontage facing +y and a friendly base straight ahead at 100 mm.
/// let front = Segment::new(Vec2::new(-25.0, 0.0), Vec2::new(25.0, 0.0));
/// let friend = Base::new(BaseSize::new(30.0, 20.0), Pose::new(Vec2::new(0.0, 110.0), 90.0));
/// let clear = clear_swings(&front, Vec2::new(0.0, 1.0), 5.0, 25.0, 406.4, &[friend.polygon()]);
/// // Seen from the left end (-25, 0) the base's near right corner (15, 100) lies
/// // furthest right, atan(40/100) = 21.8° right of ahead; seen from the right end its
/// // near left corner lies 21.8° left. Every swing in (-21.8 - 5, 21.8 + 5) overlaps
/// // it, which covers the whole arc (±25°).
/// assert!(clear.is_empty());
/// ```
#[must_use]
pub fn clear_swings(
    frontage: &Segment,
    forward: Vec2,
    side_deg: f64,
    max_swing_deg: f64,
    reach_mm: f64,
    obstacles: &[ConvexPolygon],
) -> ClearSwings {
    let blocked: Vec<(f64, f64)> =
        obstacles.iter().filter_map(|o| blocked_swings(frontage, forward, side_deg, reach_mm, o)).collect();
    ClearSwings::without(max_swing_deg, &blocked)
}

/// What stands in a firing zone's way.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ZoneObstacleSource {
    /// A base of a friendly unit.
    Base(BaseRef),
    /// A status marker of a friendly unit (index into [`Table::markers`]).
    Marker(usize),
}

/// A friendly base or marker that may block a battery's firing zone.
#[derive(Debug, Clone, PartialEq)]
pub struct ZoneObstacle {
    /// Which base or marker.
    pub source: ZoneObstacleSource,
    /// Its outline.
    pub polygon: ConvexPolygon,
}

/// The friendly bases and markers that can block the firing zone of battery base `r`:
/// the friendly bases among `near`, and the friendly status markers that meet the box
/// from `lo` to `hi`. Pass the arc of fire's bounding box and the bases whose boxes meet
/// it ([`SpatialIndex::bases_in_box`]): every zone lies inside the arc. See the module
/// documentation for which count.
#[must_use]
pub fn zone_obstacles(
    table: &Table,
    index: &SpatialIndex<'_>,
    r: BaseRef,
    near: &[BaseRef],
    lo: Vec2,
    hi: Vec2,
) -> Vec<ZoneObstacle> {
    let side = &table.units[r.unit].side;
    let mut out: Vec<ZoneObstacle> = near
        .iter()
        .copied()
        .filter(|o| *o != r && !index.are_enemies(r.unit, o.unit))
        .filter_map(|o| {
            table.base(o).map(|b| ZoneObstacle { source: ZoneObstacleSource::Base(o), polygon: b.polygon() })
        })
        .collect();
    for (i, m) in table.markers.iter().enumerate() {
        // The turned square lies within the box of its circumscribed circle.
        let reach = m.aabb().1 - Vec2::new(m.x, m.y);
        let reach = Vec2::new(reach.length(), reach.length());
        let centre = Vec2::new(m.x, m.y);
        if !boxes_meet((centre - reach, centre + reach), (lo, hi)) {
            continue;
        }
        let Some(owner) = m.unit.as_deref().and_then(|id| index.unit_index(id)) else { continue };
        if owner == r.unit || &table.units[owner].side != side {
            continue;
        }
        let polygon = marker_square(m, &table.units[owner]);
        out.push(ZoneObstacle { source: ZoneObstacleSource::Marker(i), polygon });
    }
    out
}

/// The square a status marker of unit `owner` covers: a cube of its side, square to the
/// owner's first base (a marker is placed beside its unit and a table gives it no heading
/// of its own). Squared to the table's axes, a marker blocked a different part of a
/// zone when the table was turned (issue 41: the grand battle turned 37° moved a
/// clear-zone margin from 4.30 to 4.32 mm and changed a closed zone's obstacles).
fn marker_square(m: &Marker, owner: &Unit) -> ConvexPolygon {
    let side = m.size.unwrap_or(MARKER_CUBE_MM);
    let heading = owner.bases.first().map_or(0.0, Base::heading_deg);
    Base::new(BaseSize::new(side, side), Pose::new(Vec2::new(m.x, m.y), heading)).polygon()
}

/// The open interval of swings whose centre of fire (the ray from `origin`, the middle
/// of the frontage) passes into the base's interior, or `None` when the base is not
/// ahead of the origin.
#[must_use]
pub fn centre_of_fire_swings(origin: Vec2, forward: Vec2, base: &Base) -> Option<(f64, f64)> {
    if base.contains(origin) {
        return None;
    }
    let angles: Vec<f64> = base.vertices_ccw().iter().map(|&c| relative_deg(forward, c - origin)).collect();
    let lo = angles.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = angles.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    (hi - lo < 180.0 && hi > -90.0 && lo < 90.0).then_some((lo, hi))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::{BaseSize, Pose};

    #[test]
    fn subtracting_open_intervals_leaves_closed_ones() {
        let c = ClearSwings::without(25.0, &[(-10.0, 0.0), (5.0, 30.0)]);
        let got: Vec<(f64, f64)> = c.intervals().iter().map(|i| (i.from_deg, i.to_deg)).collect();
        assert_eq!(got, vec![(-25.0, -10.0), (0.0, 5.0)]);
        // Touching blocked intervals leave the single swing between them clear.
        let c = ClearSwings::without(25.0, &[(-30.0, 0.0), (0.0, 30.0)]);
        let got: Vec<(f64, f64)> = c.intervals().iter().map(|i| (i.from_deg, i.to_deg)).collect();
        assert_eq!(got, vec![(0.0, 0.0)]);
        // Overlapping and nested ones merge.
        let c = ClearSwings::without(25.0, &[(-20.0, 10.0), (-5.0, 0.0), (8.0, 12.0)]);
        let got: Vec<(f64, f64)> = c.intervals().iter().map(|i| (i.from_deg, i.to_deg)).collect();
        assert_eq!(got, vec![(-25.0, -20.0), (12.0, 25.0)]);
        assert!(ClearSwings::without(25.0, &[(-40.0, 40.0)]).is_empty());
        assert_eq!(ClearSwings::without(25.0, &[]), ClearSwings::all(25.0));
    }

    #[test]
    fn closest_clear_aim_inside_a_target() {
        let c = ClearSwings::without(25.0, &[(-3.0, 4.0)]);
        // Desired straight ahead, target spans (-10, 5), clear [-25, -3] and [4, 25]:
        // both -3 and 4 aim into the target; -3 is nearer.
        assert_eq!(c.closest_within(&[(-10.0, 5.0)], 0.0), Some(-3.0));
        // The target only reaches into the blocked part: no aim.
        assert_eq!(c.closest_within(&[(-2.0, 3.0)], 0.0), None);
        // A target whose open interval ends exactly where the clear part starts.
        assert_eq!(c.closest_within(&[(4.0, 9.0)], 0.0), Some(6.5));
    }

    #[test]
    fn centre_of_fire_swings_of_a_base_ahead() {
        let b = Base::new(BaseSize::new(20.0, 20.0), Pose::new(Vec2::new(0.0, 110.0), 270.0));
        let (lo, hi) = centre_of_fire_swings(Vec2::ZERO, Vec2::new(0.0, 1.0), &b).unwrap();
        // Corners (±10, 100): atan(10/100) = 5.71° either way.
        assert!((hi - 10f64.atan2(100.0).to_degrees()).abs() < 1e-12 && (lo + hi).abs() < 1e-12);
        let behind = Base::new(BaseSize::new(20.0, 20.0), Pose::new(Vec2::new(0.0, -50.0), 270.0));
        assert_eq!(centre_of_fire_swings(Vec2::ZERO, Vec2::new(0.0, 1.0), &behind), None);
    }
}
