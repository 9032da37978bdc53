//! The path a move is measured on: only the two positions are known, so the move is read
//! as the shortest one the rules allow between them (see the module documentation of
//! [`super`]): straight, or one wheel of the whole unit, and each base's own motion
//! along it ([`BaseMotion`]).

use super::sweep::BaseMotion;
use crate::table::Unit;
use crate::ties::ALIGNED_DEG;
use crate::vec2::Vec2;

/// Which way a move went, against the unit's starting facing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum MoveDirection {
    /// Straight ahead (within the alignment tolerance), or no move.
    Forward,
    /// Up to 45° from straight ahead.
    Oblique,
    /// Between 45° and 135°.
    Sideways,
    /// More than 135° from straight ahead.
    Backward,
}

impl MoveDirection {
    /// The name used in reports.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            MoveDirection::Forward => "forward",
            MoveDirection::Oblique => "oblique",
            MoveDirection::Sideways => "sideways",
            MoveDirection::Backward => "backward",
        }
    }
}

/// The measured path of one unit between two positions.
#[derive(Debug, Clone, PartialEq)]
pub struct MovePath {
    /// The distance moved as the rules measure it: a straight move's largest front
    /// corner displacement, or the longest arc of a front corner about the wheel's
    /// pivot (the outer edge), mm.
    pub distance_mm: f64,
    /// The wheel's turn, degrees counter-clockwise (0 for a straight move).
    pub turned_deg: f64,
    /// The unit wheeled (turned by more than the alignment tolerance).
    pub wheel: bool,
    /// The wheel's pivot, table mm.
    pub pivot: Option<Vec2>,
    /// Which way it went.
    pub direction: MoveDirection,
    /// The displacement's angle from straight ahead, degrees (positive to the left).
    pub direction_deg: f64,
    /// The displacement's component along the starting facing, mm (negative: back).
    pub forward_mm: f64,
    /// The mean facing at the start, a unit vector.
    pub facing: Vec2,
    /// How far the stands' own facing turned beyond the unit's wheel, degrees (their
    /// heading change less the turn of their positions): about 0 when the unit moved as
    /// a body, about ±90 or 180 when its stands turned (Pro Patria's "turning 90° or
    /// about 180°", 004 §17.4.7).
    pub stands_turned_deg: f64,
    /// Each base's own motion from where it stood to where it stands, in base order.
    pub motions: Vec<BaseMotion>,
}

/// Front corners of every base of a unit, in base order (left, right).
fn front_corners(unit: &Unit) -> Vec<Vec2> {
    unit.bases
        .iter()
        .flat_map(|b| {
            let e = b.front_edge();
            [e.a, e.b]
        })
        .collect()
}

/// The least-squares rigid motion taking `from` onto `to`: turn (radians, ccw) and
/// translation, `to ≈ R from + t`.
fn rigid_fit(from: &[Vec2], to: &[Vec2]) -> (f64, Vec2) {
    let n = from.len().max(1) as f64;
    let cf = from.iter().fold(Vec2::ZERO, |s, p| s + *p) / n;
    let ct = to.iter().fold(Vec2::ZERO, |s, p| s + *p) / n;
    let (mut s, mut c) = (0.0, 0.0);
    for (p, q) in from.iter().zip(to) {
        let (a, b) = (*p - cf, *q - ct);
        s += a.cross(b);
        c += a.dot(b);
    }
    let theta = s.atan2(c);
    let t = ct - cf.rotated_deg(theta.to_degrees());
    (theta, t)
}

/// The mean heading of a unit's bases, as a unit vector.
#[must_use]
pub fn facing(unit: &Unit) -> Vec2 {
    let sum = unit.bases.iter().fold(Vec2::ZERO, |s, b| s + b.forward());
    sum.normalized().unwrap_or(Vec2::new(1.0, 0.0))
}

/// An angle brought into (-180, 180] degrees.
fn wrap_deg(d: f64) -> f64 {
    let r = d.rem_euclid(360.0);
    if r > 180.0 { r - 360.0 } else { r }
}

/// The path of `before` moved to `after` (the same unit with the same bases).
#[must_use]
pub fn move_path(before: &Unit, after: &Unit) -> MovePath {
    let from = front_corners(before);
    let to = front_corners(after);
    let (theta, t) = rigid_fit(&from, &to);
    let turned_deg = theta.to_degrees();
    let wheel = turned_deg.abs() > ALIGNED_DEG;
    let pivot = if theta.abs() > 1e-9 {
        // c = R c + t: (I - R) c = t.
        let (s, c) = theta.sin_cos();
        let (a, b, cc, d) = (1.0 - c, s, -s, 1.0 - c);
        let det = a * d - b * cc;
        (det.abs() > 1e-18).then(|| Vec2::new((d * t.x - b * t.y) / det, (-cc * t.x + a * t.y) / det))
    } else {
        None
    };
    let distance_mm = match pivot {
        Some(c) if wheel => from.iter().map(|p| theta.abs() * p.distance(c)).fold(0.0, f64::max),
        _ => from.iter().zip(&to).map(|(p, q)| p.distance(*q)).fold(0.0, f64::max),
    };
    let n = from.len().max(1) as f64;
    let mid0 = from.iter().fold(Vec2::ZERO, |s, p| s + *p) / n;
    let mid1 = to.iter().fold(Vec2::ZERO, |s, p| s + *p) / n;
    let d = mid1 - mid0;
    let f = facing(before);
    let forward_mm = d.dot(f);
    let direction_deg = if d.length() < 1e-9 { 0.0 } else { f.cross(d).atan2(f.dot(d)).to_degrees() };
    let a = direction_deg.abs();
    let direction = if d.length() < 1e-9 || a <= ALIGNED_DEG {
        MoveDirection::Forward
    } else if a <= 45.0 {
        MoveDirection::Oblique
    } else if a < 135.0 {
        MoveDirection::Sideways
    } else {
        MoveDirection::Backward
    };
    // The stands' own turn: their mean heading change less the turn of their centres.
    let centres0: Vec<Vec2> = before.bases.iter().map(|b| b.centre()).collect();
    let centres1: Vec<Vec2> = after.bases.iter().map(|b| b.centre()).collect();
    // One stand has no positions to turn: its own turn is the unit's.
    let positions_deg =
        if centres0.len() > 1 { rigid_fit(&centres0, &centres1).0.to_degrees() } else { turned_deg };
    let heading_deg = {
        let (s, c) = before.bases.iter().zip(&after.bases).fold((0.0, 0.0), |(s, c), (b0, b1)| {
            let d = (b1.heading_deg() - b0.heading_deg()).to_radians();
            (s + d.sin(), c + d.cos())
        });
        f64::atan2(s, c).to_degrees()
    };
    let stands_turned_deg = wrap_deg(heading_deg - positions_deg);
    let motions = before.bases.iter().zip(&after.bases).map(|(b0, b1)| BaseMotion::between(b0, b1)).collect();
    MovePath {
        distance_mm,
        turned_deg,
        wheel,
        pivot: pivot.filter(|_| wheel),
        direction,
        direction_deg,
        forward_mm,
        facing: f,
        stands_turned_deg,
        motions,
    }
}
