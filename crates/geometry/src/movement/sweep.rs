//! A base swept along its move, exactly: where on the path (a fraction `s` from 0 at the
//! start to 1 at the end) it meets a terrain area, an obstacle line, a road or another
//! base.
//!
//! Each base moves by its own rigid motion from where it stood to where it stands: carried
//! straight, or turned about one pivot at an even rate (a wheel: every base of a unit
//! that wheels as a whole turns about the unit's pivot, since a rigid motion of the plane
//! is fixed by the move of any one body in it). Along such a motion a corner of the base
//! runs along a line or a circle, and a fixed point, seen from the base, along a line or
//! a circle too; so the fractions at which a corner of the base lies on a fixed segment,
//! or an end of a fixed segment on an edge of the base, are roots of linear or quadratic
//! equations. Between two such events nothing about how the base and the fixed segments
//! cross changes, so whether the base meets a shape is decided once per gap, at its
//! middle: exact, with no sampling ([`path_parts`]).

use crate::base::{Base, BaseSize, Pose};
use crate::segment::Segment;
use crate::vec2::Vec2;

/// Turns smaller than this (radians) are carried straight: a scan turns a base that
/// moved straight by tenths of a degree, whose arc of some tens of metres radius is a
/// straight line to a nanometre.
const STRAIGHT_TURN_RAD: f64 = 1e-9;

/// Events this close (path fraction) are one.
const SAME_EVENT: f64 = 1e-12;

/// One base's motion over a move.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum BaseMotion {
    /// Carried straight by `by`, mm.
    Straight {
        /// Where it starts.
        start: Base,
        /// Its displacement, mm.
        by: Vec2,
    },
    /// Turned by `turn_rad` (counter-clockwise positive) about `pivot` at an even rate.
    Turn {
        /// Where it starts.
        start: Base,
        /// The fixed point of the turn, table mm.
        pivot: Vec2,
        /// The whole turn, radians, at most π either way.
        turn_rad: f64,
    },
}

/// The rotation taking heading `from_deg` to `to_deg`, radians in (-π, π].
fn turn_between(from_deg: f64, to_deg: f64) -> f64 {
    let mut d = (to_deg - from_deg).rem_euclid(360.0);
    if d > 180.0 {
        d -= 360.0;
    }
    d.to_radians()
}

/// The fixed point of the rotation by `turn_rad` that carries `from` to `to`.
fn pivot_of(from: Vec2, to: Vec2, turn_rad: f64) -> Option<Vec2> {
    // to = c + R (from - c): (I - R) c = to - R from.
    let (s, c) = turn_rad.sin_cos();
    let rf = Vec2::new(c * from.x - s * from.y, s * from.x + c * from.y);
    let t = to - rf;
    let (a, b, cc, d) = (1.0 - c, s, -s, 1.0 - c);
    let det = a * d - b * cc;
    (det.abs() > 1e-18).then(|| Vec2::new((d * t.x - b * t.y) / det, (-cc * t.x + a * t.y) / det))
}

impl BaseMotion {
    /// The motion carrying `before` to where `after` stands (the size of `before`).
    #[must_use]
    pub fn between(before: &Base, after: &Base) -> BaseMotion {
        let turn_rad = turn_between(before.heading_deg(), after.heading_deg());
        if turn_rad.abs() > STRAIGHT_TURN_RAD
            && let Some(pivot) = pivot_of(before.centre(), after.centre(), turn_rad)
        {
            return BaseMotion::Turn { start: *before, pivot, turn_rad };
        }
        BaseMotion::Straight { start: *before, by: after.centre() - before.centre() }
    }

    /// Where the base starts.
    #[must_use]
    pub fn start(&self) -> &Base {
        match self {
            BaseMotion::Straight { start, .. } | BaseMotion::Turn { start, .. } => start,
        }
    }

    /// The same motion of the base shrunk by `by_mm` on every side (its middle part: a
    /// shape reaches more than `by_mm` into the base exactly when it meets this one).
    #[must_use]
    pub fn inset(&self, by_mm: f64) -> BaseMotion {
        let b = self.start();
        let size = BaseSize::new((b.width() - 2.0 * by_mm).max(0.0), (b.depth() - 2.0 * by_mm).max(0.0));
        let start = Base::new(size, b.pose());
        match *self {
            BaseMotion::Straight { by, .. } => BaseMotion::Straight { start, by },
            BaseMotion::Turn { pivot, turn_rad, .. } => BaseMotion::Turn { start, pivot, turn_rad },
        }
    }

    /// Where a point of the table that sits on the base at the start is at `s`.
    #[must_use]
    pub fn carry(&self, p: Vec2, s: f64) -> Vec2 {
        match *self {
            BaseMotion::Straight { by, .. } => p + by * s,
            BaseMotion::Turn { pivot, turn_rad, .. } => {
                pivot + (p - pivot).rotated_deg((turn_rad * s).to_degrees())
            }
        }
    }

    /// The base at fraction `s` of the move.
    #[must_use]
    pub fn at(&self, s: f64) -> Base {
        let b = self.start();
        let heading = match *self {
            BaseMotion::Straight { .. } => b.heading_deg(),
            BaseMotion::Turn { turn_rad, .. } => b.heading_deg() + (turn_rad * s).to_degrees(),
        };
        Base::new(b.size(), Pose::new(self.carry(b.centre(), s), heading)).with_meta(b.meta())
    }

    /// The track of a point riding on the base.
    fn track(&self, p: Vec2) -> Track {
        match *self {
            BaseMotion::Straight { by, .. } => Track::Line { from: p, by },
            BaseMotion::Turn { pivot, turn_rad, .. } => Track::Arc { centre: pivot, from: p, turn: turn_rad },
        }
    }

    /// The track, seen from the base (in its starting place), of a fixed point of the
    /// table: the inverse motion.
    fn inverse_track(&self, p: Vec2) -> Track {
        match *self {
            BaseMotion::Straight { by, .. } => Track::Line { from: p, by: -by },
            BaseMotion::Turn { pivot, turn_rad, .. } => {
                Track::Arc { centre: pivot, from: p, turn: -turn_rad }
            }
        }
    }

    /// A box holding the base at every point of the move.
    #[must_use]
    pub fn swept_box(&self) -> (Vec2, Vec2) {
        let (lo0, hi0) = self.start().aabb();
        match *self {
            BaseMotion::Straight { by, .. } => {
                (Vec2::new(lo0.x.min(lo0.x + by.x), lo0.y.min(lo0.y + by.y)), {
                    Vec2::new(hi0.x.max(hi0.x + by.x), hi0.y.max(hi0.y + by.y))
                })
            }
            BaseMotion::Turn { pivot, .. } => {
                let r = self.start().vertices_ccw().iter().map(|v| v.distance(pivot)).fold(0.0, f64::max);
                (pivot - Vec2::new(r, r), pivot + Vec2::new(r, r))
            }
        }
    }

    /// Every fraction in [0, 1] at which a corner of the base lies on one of `segments`,
    /// or an end of one of them lies on an edge of the base, appended to `out`.
    pub fn events(&self, segments: &[Segment], out: &mut Vec<f64>) {
        let start = *self.start();
        let corners = start.vertices_ccw();
        let edges = start.edges();
        for seg in segments {
            for c in corners {
                self.track(c).crossings(seg, out);
            }
            for end in [seg.a, seg.b] {
                let t = self.inverse_track(end);
                for e in &edges {
                    t.crossings(e, out);
                }
            }
        }
    }
}

/// The path of a point: a line or an arc, over fractions 0 to 1.
#[derive(Debug, Clone, Copy)]
enum Track {
    /// `from + s·by`.
    Line { from: Vec2, by: Vec2 },
    /// `from` turned by `s·turn` radians about `centre`.
    Arc { centre: Vec2, from: Vec2, turn: f64 },
}

impl Track {
    /// The fractions in [0, 1] at which the point lies on `seg`, appended to `out`.
    fn crossings(&self, seg: &Segment, out: &mut Vec<f64>) {
        let e = seg.b - seg.a;
        let ee = e.dot(e);
        if ee <= 0.0 {
            return;
        }
        let scale = ee.sqrt();
        let mut push = |s: f64| {
            if (-SAME_EVENT..=1.0 + SAME_EVENT).contains(&s) {
                out.push(s.clamp(0.0, 1.0));
            }
        };
        match *self {
            Track::Line { from, by } => {
                let w = seg.a - from;
                let denom = by.cross(e);
                let bl = by.length();
                if bl == 0.0 {
                    return;
                }
                if denom.abs() <= 1e-12 * bl * scale {
                    // Parallel: on the segment's line only if collinear; then at its ends.
                    if w.cross(by).abs() <= 1e-9 * bl {
                        for end in [seg.a, seg.b] {
                            push((end - from).dot(by) / (bl * bl));
                        }
                    }
                    return;
                }
                let s = w.cross(e) / denom;
                let u = w.cross(by) / denom;
                if (-1e-12..=1.0 + 1e-12).contains(&u) {
                    push(s);
                }
            }
            Track::Arc { centre, from, turn } => {
                let r2 = from.distance_2(centre);
                let ac = seg.a - centre;
                // |a + u e - c|² = r²: ee u² + 2 (e·ac) u + |ac|² - r² = 0.
                let (qa, qb, qc) = (ee, 2.0 * e.dot(ac), ac.dot(ac) - r2);
                let disc = qb * qb - 4.0 * qa * qc;
                if disc < -1e-12 * qb.abs().max(qa * r2).max(1.0) {
                    return;
                }
                let root = disc.max(0.0).sqrt();
                let a0 = (from - centre).heading_deg().to_radians();
                for u in [(-qb - root) / (2.0 * qa), (-qb + root) / (2.0 * qa)] {
                    if !(-1e-12..=1.0 + 1e-12).contains(&u) {
                        continue;
                    }
                    let h = seg.a + e * u;
                    let a = (h - centre).heading_deg().to_radians();
                    let tau = std::f64::consts::TAU;
                    // The angle swept from the start to h, in the turn's own direction.
                    let mut phi =
                        if turn >= 0.0 { (a - a0).rem_euclid(tau) } else { -(a0 - a).rem_euclid(tau) };
                    if phi.abs() > tau - 1e-12 {
                        phi = 0.0;
                    }
                    if turn != 0.0 {
                        push(phi / turn);
                    }
                }
            }
        }
    }
}

/// The fractions that split a move into parts over which nothing changes: 0, the
/// events in between, 1; sorted, with events closer than 10⁻¹² of the path merged.
#[must_use]
pub fn cut_points(mut events: Vec<f64>) -> Vec<f64> {
    events.push(0.0);
    events.push(1.0);
    events.retain(|s| s.is_finite());
    events.sort_by(f64::total_cmp);
    events.dedup_by(|a, b| (*a - *b).abs() <= SAME_EVENT);
    if let Some(last) = events.last_mut() {
        *last = 1.0;
    }
    if let Some(first) = events.first_mut() {
        *first = 0.0;
    }
    events
}

/// The parts of a move between cut points: `(from, to)` fractions, each longer than
/// 10⁻¹² of the path; one part `(0, 1)` for a move with no events, none for no cut
/// points.
#[must_use]
pub fn path_parts(cuts: &[f64]) -> Vec<(f64, f64)> {
    cuts.windows(2).filter(|w| w[1] - w[0] > SAME_EVENT).map(|w| (w[0], w[1])).collect()
}

/// The segments of a closed ring.
#[must_use]
pub fn ring_segments(ring: &[Vec2]) -> Vec<Segment> {
    (0..ring.len()).map(|i| Segment::new(ring[i], ring[(i + 1) % ring.len()])).collect()
}

/// The segments of an open polyline.
#[must_use]
pub fn line_segments(path: &[Vec2]) -> Vec<Segment> {
    path.windows(2).map(|w| Segment::new(w[0], w[1])).collect()
}

/// True when the polyline `path` runs through the inside of `base` (some positive length
/// of it strictly inside the rectangle).
#[must_use]
pub fn line_runs_inside(base: &Base, path: &[Vec2]) -> bool {
    let (hw, hd) = (base.width() / 2.0, base.depth() / 2.0);
    if hw <= 0.0 || hd <= 0.0 {
        return false;
    }
    path.windows(2).any(|w| {
        // Clip the leg to the rectangle in the base's frame (x across, y ahead).
        let (a, b) = (base.to_local(w[0]), base.to_local(w[1]));
        let d = b - a;
        let (mut t0, mut t1) = (0.0_f64, 1.0_f64);
        for (p, q, h) in [(a.x, d.x, hw), (a.y, d.y, hd)] {
            if q.abs() < 1e-15 {
                if p.abs() >= h {
                    return false;
                }
            } else {
                let (ta, tb) = ((-h - p) / q, (h - p) / q);
                t0 = t0.max(ta.min(tb));
                t1 = t1.min(ta.max(tb));
            }
        }
        if t1 - t0 <= 1e-12 {
            return false;
        }
        let m = a + d * ((t0 + t1) / 2.0);
        m.x.abs() < hw - 1e-12 && m.y.abs() < hd - 1e-12
    })
}

/// True when the polyline `path` crosses both the front and the rear edge of `base`: it
/// runs through the base from front to back (a base "lined up on a road", 003 303).
#[must_use]
pub fn line_runs_through_lengthwise(base: &Base, path: &[Vec2]) -> bool {
    let legs = line_segments(path);
    let (front, rear) = (base.front_edge(), base.rear_edge());
    legs.iter().any(|l| l.intersection(&front).is_some())
        && legs.iter().any(|l| l.intersection(&rear).is_some())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn base(x: f64, y: f64, heading: f64) -> Base {
        Base::new(BaseSize::new(30.0, 20.0), Pose::new(Vec2::new(x, y), heading))
    }

    #[test]
    fn a_straight_move_meets_a_line_where_its_front_corners_reach_it() {
        // A 30 x 20 base facing +y, front edge at y = 10, moved 100 mm ahead; a line
        // across at y = 50 meets the front corners at s = 0.4 and leaves the rear
        // corners (y = -10) at s = 0.6.
        let m = BaseMotion::between(&base(0.0, 0.0, 90.0), &base(0.0, 100.0, 90.0));
        let mut ev = Vec::new();
        m.events(&[Segment::new(Vec2::new(-100.0, 50.0), Vec2::new(100.0, 50.0))], &mut ev);
        let cuts = cut_points(ev);
        assert_eq!(cuts.len(), 4, "{cuts:?}");
        assert!((cuts[1] - 0.4).abs() < 1e-12 && (cuts[2] - 0.6).abs() < 1e-12, "{cuts:?}");
        let line = [Vec2::new(-100.0, 50.0), Vec2::new(100.0, 50.0)];
        let inside: Vec<bool> =
            path_parts(&cuts).iter().map(|(a, b)| line_runs_inside(&m.at((a + b) / 2.0), &line)).collect();
        assert_eq!(inside, vec![false, true, false]);
    }

    #[test]
    fn a_turn_meets_a_line_where_its_arc_does() {
        // The same base turned 90° left about its front-left corner (-15, 10): its
        // front-right corner (15, 10), 30 mm out, runs on the circle of radius 30 and
        // meets the vertical line x = -15 + 30 cos 60° = 0 at 60° of the turn: s = 2/3.
        let b = base(0.0, 0.0, 90.0);
        let pivot = Vec2::new(-15.0, 10.0);
        let after = b.with_pose(Pose::new(pivot + (b.centre() - pivot).rotated_deg(90.0), 180.0));
        let m = BaseMotion::between(&b, &after);
        let BaseMotion::Turn { pivot: p, turn_rad, .. } = m else { panic!("not a turn") };
        assert!((p - pivot).length() < 1e-9 && (turn_rad - std::f64::consts::FRAC_PI_2).abs() < 1e-12);
        let mut ev = Vec::new();
        let seg = Segment::new(Vec2::new(0.0, 30.0), Vec2::new(0.0, 45.0));
        m.events(&[seg], &mut ev);
        assert!(ev.iter().any(|s| (s - 2.0 / 3.0).abs() < 1e-9), "{ev:?}");
        // Halfway, the base is turned 45°.
        assert!((m.at(0.5).heading_deg() - 135.0).abs() < 1e-9);
    }

    #[test]
    fn a_line_touching_an_edge_does_not_run_inside() {
        let b = base(0.0, 0.0, 90.0);
        assert!(!line_runs_inside(&b, &[Vec2::new(-50.0, 10.0), Vec2::new(50.0, 10.0)]));
        assert!(line_runs_inside(&b, &[Vec2::new(-50.0, 9.9), Vec2::new(50.0, 9.9)]));
        assert!(!line_runs_inside(&b, &[Vec2::new(-50.0, 30.0), Vec2::new(50.0, 30.0)]));
        assert!(line_runs_through_lengthwise(&b, &[Vec2::new(0.0, -50.0), Vec2::new(3.0, 50.0)]));
        assert!(!line_runs_through_lengthwise(&b, &[Vec2::new(-50.0, 0.0), Vec2::new(50.0, 3.0)]));
    }
}
