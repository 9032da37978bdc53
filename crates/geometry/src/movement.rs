//! Movement geometry (000 §3.1-3.4): how far a unit moved between two positions,
//! measured the way the rules measure it, what that move costs under its side's
//! maneuver system, and whether it fits the allowance, a Hold, an Advance or a
//! mandatory retrograde move.
//!
//! # Readings
//! - **The path.** Only the two positions are known, so the move is read as the
//!   shortest one the rules allow between them: a straight move when the unit did not
//!   turn, otherwise one wheel (the rigid rotation that carries the unit's front corners
//!   from where they stood to where they stand, fitted by least squares). "Wheeling
//!   movement is measured along the outermost edge of the wheel (i.e. the longest)"
//!   (000 §3.1): the distance is the longest path of any front corner of the unit, the
//!   arc about the wheel's pivot. A straight move's distance is the displacement of the
//!   front edge ("movement ... measured from the front edge of its bases").
//! - **Direction.** The displacement of the middle of the unit's front corners against
//!   its starting facing: straight ahead within [`crate::ties::ALIGNED_DEG`], oblique up
//!   to 45° ("obliquely (diagonally) up to 45 degrees from perpendicular"), sideways up
//!   to 135°, backwards beyond.
//! - **Cost** (000 §3.2). Prussian: wheels at the normal rate, oblique and backwards
//!   moves double, sideways quadruple, a backward wheel quadruple (the text's example:
//!   "one-quarter its normal speed if it were to wheel backwards"). French: wheels,
//!   oblique and sideways moves at the normal rate, backwards double. Without a system
//!   the cost is not decided.
//! - **Allowance** (000 §3.1). Foot (infantry, artillery, skirmishers) 8" with a 4"
//!   assault bonus, horse (cavalry) 15" with 8", leaders 24" without one. The table
//!   does not say which batteries are horse artillery: batteries move as foot.
//! - **Hold** (000 §3.3): a unit moving 4" or less before movement penalties; **Advance**:
//!   more than half of its allowance (before penalties) forward.
//! - **Retrograde** (000 §3.4): disengage 4", withdraw 6", fall back 8", retreat 10",
//!   rout 12" away from the enemy (horse doubles), the first two facing the enemy, the
//!   others facing away. The enemy is read as ahead of the unit's starting facing: the
//!   distance away is the move's component straight back, and "facing the enemy" is a
//!   final facing within 90° of the starting one.

use crate::close_call::CloseCall;
use crate::error::GeometryError;
use crate::rules::{RuleBook, RuleDistance};
use crate::table::{BaseRef, ManeuverSystem, Table, UnitKind};
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

/// A mandatory retrograde move (000 §3.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Retrograde {
    /// 4" away, facing the enemy.
    Disengage,
    /// 6" away, facing the enemy.
    Withdraw,
    /// 8" away, facing away.
    FallBack,
    /// 10" away, facing away.
    Retreat,
    /// 12" away, facing away.
    Rout,
}

impl Retrograde {
    fn distance(self) -> RuleDistance {
        match self {
            Retrograde::Disengage => RuleDistance::Disengage,
            Retrograde::Withdraw => RuleDistance::Withdraw,
            Retrograde::FallBack => RuleDistance::FallBack,
            Retrograde::Retreat => RuleDistance::Retreat,
            Retrograde::Rout => RuleDistance::Rout,
        }
    }

    /// True when the unit ends facing the enemy (disengage, withdraw).
    #[must_use]
    pub fn faces_enemy(self) -> bool {
        matches!(self, Retrograde::Disengage | Retrograde::Withdraw)
    }
}

/// A retrograde move checked against its result.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RetrogradeCheck {
    /// The result.
    pub kind: Retrograde,
    /// How far it must go, mm (horse: double).
    pub required_mm: f64,
    /// How far it went straight back from its starting facing, mm.
    pub away_mm: f64,
    /// It ends facing the way the result asks.
    pub facing_ok: bool,
    /// Far enough and facing right.
    pub done: bool,
    /// The close call of "far enough".
    pub call: CloseCall,
}

/// One unit's move between two tables.
#[derive(Debug, Clone, PartialEq)]
pub struct MoveAssessment {
    /// The unit's index (the same in both tables).
    pub unit: usize,
    /// The distance moved as the rules measure it (see the module documentation), mm.
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
    /// The maneuver system's cost per mm moved; `None` without a system.
    pub cost_factor: Option<f64>,
    /// The movement allowance the move uses, mm (distance times the cost factor).
    pub cost_mm: Option<f64>,
    /// The normal allowance, mm.
    pub allowance_mm: f64,
    /// The assault (charge) bonus on top, mm.
    pub charge_bonus_mm: f64,
    /// It used some of the charge bonus (one morale hit).
    pub uses_charge_bonus: Option<bool>,
    /// It fits the allowance with the bonus.
    pub within_allowance: Option<bool>,
    /// It is a Hold move: 4" or less before penalties.
    pub hold: bool,
    /// It is an Advance: more than half the allowance forward.
    pub advancing: bool,
    /// Close calls: the hold limit, and the allowance with and without the bonus (the
    /// nearer of the two).
    pub hold_call: CloseCall,
    /// See `hold_call`; `None` without a system.
    pub allowance_call: Option<CloseCall>,
    /// The retrograde check, when asked.
    pub retrograde: Option<RetrogradeCheck>,
}

/// Front corners of every base of a unit, in base order (left, right).
fn front_corners(table: &Table, unit: usize) -> Vec<Vec2> {
    table.units[unit]
        .bases
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
fn facing(table: &Table, unit: usize) -> Vec2 {
    let sum = table.units[unit].bases.iter().fold(Vec2::ZERO, |s, b| s + b.forward());
    sum.normalized().unwrap_or(Vec2::new(1.0, 0.0))
}

/// Assesses the move of unit `id` from table `before` to table `after` (the same unit,
/// with the same number of bases, in both), under `before`'s rules and the unit's side
/// system; `retrograde` checks a mandatory retrograde move.
///
/// # Errors
/// When the unit is missing from either table, or its bases differ in number.
pub fn assess_move(
    before: &Table,
    after: &Table,
    id: &str,
    retrograde: Option<Retrograde>,
) -> Result<MoveAssessment, GeometryError> {
    let unknown =
        |which: &str| GeometryError::UnknownUnit { id: id.to_string(), hint: format!(" ({which} position)") };
    let u = before.unit_index(id).ok_or_else(|| unknown("first"))?;
    let ua = after.unit_index(id).ok_or_else(|| unknown("second"))?;
    let (b0, b1) = (&before.units[u], &after.units[ua]);
    if b0.bases.len() != b1.bases.len() || b0.bases.is_empty() {
        return Err(GeometryError::InvalidField {
            origin: "second position".to_string(),
            location: format!("unit \"{id}\" bases"),
            reason: format!(
                "the unit has {} bases before and {} after; a move keeps its bases",
                b0.bases.len(),
                b1.bases.len()
            ),
        });
    }
    // A move is of one unit: the same side and kind in both tables (issue 41 item 7).
    for (field, was, is) in
        [("side", b0.side.as_str(), b1.side.as_str()), ("kind", b0.kind.name(), b1.kind.name())]
    {
        if was != is {
            return Err(GeometryError::InvalidField {
                origin: "second position".to_string(),
                location: format!("unit \"{id}\" {field}"),
                reason: format!(
                    "the unit's {field} is \"{was}\" before and \"{is}\" after; a move keeps its {field} (is it the same unit?)"
                ),
            });
        }
    }
    let book: RuleBook = before.rule_book()?;
    let from = front_corners(before, u);
    let to = front_corners(after, ua);
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
    let n = from.len() as f64;
    let mid0 = from.iter().fold(Vec2::ZERO, |s, p| s + *p) / n;
    let mid1 = to.iter().fold(Vec2::ZERO, |s, p| s + *p) / n;
    let d = mid1 - mid0;
    let f = facing(before, u);
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
    let system = before.sides.get(&b0.side).and_then(|s| s.system);
    let cost_factor = system.map(|s| match (s, direction, wheel) {
        (ManeuverSystem::Prussian, MoveDirection::Backward, true) => 4.0,
        (ManeuverSystem::Prussian, MoveDirection::Sideways, _) => 4.0,
        (ManeuverSystem::Prussian, MoveDirection::Oblique | MoveDirection::Backward, _) => 2.0,
        (ManeuverSystem::French, MoveDirection::Backward, _) => 2.0,
        _ => 1.0,
    });
    let inch = |x: f64| book.rule_inches_to_mm(x).unwrap_or(x * 25.4);
    let (allowance_mm, charge_bonus_mm) = match b0.kind {
        UnitKind::Cavalry => (inch(15.0), inch(8.0)),
        UnitKind::Leader => (inch(24.0), 0.0),
        _ => (inch(8.0), inch(4.0)),
    };
    let cost_mm = cost_factor.map(|k| k * distance_mm);
    let hold_mm = book.distance_mm(RuleDistance::HoldMove)?;
    // Every base of the unit decides the move; the nudge names its first.
    let first = BaseRef::new(ua, 0);
    let call = |margin: f64, factor: f64| {
        let sigma = b1
            .bases
            .iter()
            .chain(&b0.bases)
            .filter_map(|b| b.meta().sigma_mm)
            .fold(None, |m: Option<f64>, s| Some(m.map_or(s, |m| m.max(s))));
        // Two positions, each uncertain: the distance's sigma is √2 that of one base,
        // and the cost scales with the factor.
        let sigma = sigma.map(|s| s * std::f64::consts::SQRT_2 * factor);
        let mut c = CloseCall { margin_mm: margin.abs(), sigma_mm: sigma, nudge: None };
        if !c.certain() {
            c.nudge = Some(crate::close_call::Nudge { base: first, by_mm: margin.abs(), towards: None });
        }
        c
    };
    let hold_call = call(distance_mm - hold_mm, 1.0);
    let allowance_call = cost_mm.zip(cost_factor).map(|(c, k)| {
        let limit = if (c - allowance_mm).abs() < (c - allowance_mm - charge_bonus_mm).abs() {
            allowance_mm
        } else {
            allowance_mm + charge_bonus_mm
        };
        call(c - limit, k)
    });
    let retrograde = match retrograde {
        None => None,
        Some(kind) => {
            let mut required_mm = book.distance_mm(kind.distance())?;
            if b0.kind == UnitKind::Cavalry {
                required_mm *= 2.0;
            }
            let away_mm = -forward_mm;
            let still_facing = facing(after, ua).dot(f) > 0.0;
            let facing_ok = still_facing == kind.faces_enemy();
            Some(RetrogradeCheck {
                kind,
                required_mm,
                away_mm,
                facing_ok,
                done: facing_ok && away_mm >= required_mm - crate::ties::TIE_MM,
                call: call(away_mm - required_mm, 1.0),
            })
        }
    };
    Ok(MoveAssessment {
        unit: u,
        distance_mm,
        turned_deg,
        wheel,
        pivot: pivot.filter(|_| wheel),
        direction,
        direction_deg,
        forward_mm,
        cost_factor,
        cost_mm,
        allowance_mm,
        charge_bonus_mm,
        uses_charge_bonus: cost_mm.map(|c| c > allowance_mm + crate::ties::TIE_MM),
        within_allowance: cost_mm.map(|c| c <= allowance_mm + charge_bonus_mm + crate::ties::TIE_MM),
        hold: distance_mm <= hold_mm + crate::ties::TIE_MM,
        advancing: forward_mm > allowance_mm / 2.0 + crate::ties::TIE_MM,
        hold_call,
        allowance_call,
        retrograde,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transform::RigidMotion;

    /// A French 3-base line (30 x 20) facing +y, front edge y = 110, x 55..145.
    fn line(dx: f64, dy: f64, turn_deg: f64, pivot: Vec2) -> Table {
        let json = |bases: String| {
            format!(
                r#"{{"schema":"vedette/table/1","rules":"republique5","scale":"medium",
                "sides":{{"fr":{{"system":"french"}},"pr":{{"system":"prussian"}}}},
                "units":[{{"id":"a","side":"fr","kind":"infantry","formation":"line","bases":[{bases}]}},
                         {{"id":"p","side":"pr","kind":"infantry","formation":"line","bases":[{bases}]}}]}}"#
            )
        };
        let (s, c) = turn_deg.to_radians().sin_cos();
        let place = |x: f64, y: f64| {
            let (rx, ry) = (x - pivot.x, y - pivot.y);
            (pivot.x + c * rx - s * ry + dx, pivot.y + s * rx + c * ry + dy)
        };
        let bases: Vec<String> = [70.0, 100.0, 130.0]
            .iter()
            .map(|&x| {
                let (px, py) = place(x, 100.0);
                format!(r#"{{"x":{px},"y":{py},"heading":{},"width":30,"depth":20}}"#, 90.0 + turn_deg)
            })
            .collect();
        Table::from_json_str(&json(bases.join(","))).unwrap_or_else(|e| panic!("{e}"))
    }

    fn assess(after: &Table, id: &str, r: Option<Retrograde>) -> MoveAssessment {
        assess_move(&line(0.0, 0.0, 0.0, Vec2::ZERO), after, id, r).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn straight_and_oblique_moves_by_hand() {
        // 6" = 152.4 mm straight ahead: forward, normal cost, within 8", not a hold, an
        // advance (more than 4").
        let m = assess(&line(0.0, 152.4, 0.0, Vec2::ZERO), "a", None);
        assert!((m.distance_mm - 152.4).abs() < 1e-9);
        assert_eq!(m.direction, MoveDirection::Forward);
        assert_eq!(m.cost_mm, Some(m.distance_mm));
        assert_eq!(
            (m.hold, m.advancing, m.within_allowance, m.uses_charge_bonus),
            (false, true, Some(true), Some(false))
        );
        // 100 mm at 40° right of ahead: oblique; Prussians pay double, French not.
        let (s, c) = 40f64.to_radians().sin_cos();
        let after = line(100.0 * s, 100.0 * c, 0.0, Vec2::ZERO);
        let fr = assess(&after, "a", None);
        let pr = assess(&after, "p", None);
        assert_eq!(fr.direction, MoveDirection::Oblique);
        assert!((fr.direction_deg + 40.0).abs() < 1e-9);
        assert_eq!((fr.cost_factor, pr.cost_factor), (Some(1.0), Some(2.0)));
        // 50° is sideways: Prussians quadruple.
        let (s, c) = 50f64.to_radians().sin_cos();
        let pr = assess(&line(100.0 * s, 100.0 * c, 0.0, Vec2::ZERO), "p", None);
        assert_eq!((pr.direction, pr.cost_factor), (MoveDirection::Sideways, Some(4.0)));
    }

    #[test]
    fn a_wheel_is_measured_on_its_outer_edge() {
        // Wheel 30° left about the left front corner (55, 110): the right front corner
        // (145, 110) is 90 mm out and travels 90·π/6 = 47.12 mm.
        let m = assess(&line(0.0, 0.0, 30.0, Vec2::new(55.0, 110.0)), "a", None);
        assert!(m.wheel);
        assert!((m.turned_deg - 30.0).abs() < 1e-9);
        assert!((m.distance_mm - 90.0 * std::f64::consts::PI / 6.0).abs() < 1e-9, "{}", m.distance_mm);
        let p = m.pivot.unwrap_or(Vec2::ZERO);
        assert!((p - Vec2::new(55.0, 110.0)).length() < 1e-6);
        // A hold allows 4" = 101.6 mm: this wheel holds.
        assert!(m.hold);
        // A turned table gives the same answers.
        let turn = RigidMotion::new(123.0, Vec2::new(300.0, 200.0));
        let b = turn.table(&line(0.0, 0.0, 0.0, Vec2::ZERO));
        let a = turn.table(&line(0.0, 0.0, 30.0, Vec2::new(55.0, 110.0)));
        let t = assess_move(&b, &a, "a", None).unwrap_or_else(|e| panic!("{e}"));
        assert!((t.distance_mm - m.distance_mm).abs() < 1e-9);
    }

    #[test]
    fn hold_limit_just_inside_and_outside() {
        for (dy, hold) in [(101.6 - 0.05, true), (101.6 + 0.05, false)] {
            let m = assess(&line(0.0, dy, 0.0, Vec2::ZERO), "a", None);
            assert_eq!(m.hold, hold, "{dy}");
            assert!((m.hold_call.margin_mm - 0.05).abs() < 1e-6);
            assert!(m.hold_call.certain(), "typed tables are exact");
        }
    }

    #[test]
    fn retrograde_moves_by_hand() {
        // Withdraw 6" = 152.4 mm straight back, facing the enemy: done; 150 mm: short.
        let m = assess(&line(0.0, -152.4, 0.0, Vec2::ZERO), "a", Some(Retrograde::Withdraw));
        let r = m.retrograde.unwrap_or_else(|| panic!("no check"));
        assert!(r.done && r.facing_ok);
        assert_eq!(m.direction, MoveDirection::Backward);
        let short = assess(&line(0.0, -150.0, 0.0, Vec2::ZERO), "a", Some(Retrograde::Withdraw));
        assert!(!short.retrograde.is_some_and(|r| r.done));
        // A fall back must end facing away: the same move facing the enemy fails.
        let fb = assess(&line(0.0, -203.2, 0.0, Vec2::ZERO), "a", Some(Retrograde::FallBack));
        assert!(fb.retrograde.is_some_and(|r| !r.facing_ok && !r.done));
        // Turned about (180° about the line's middle) and 8" back: done.
        let about = line(0.0, -203.2 - 20.0, 180.0, Vec2::new(100.0, 100.0));
        let fb = assess(&about, "a", Some(Retrograde::FallBack));
        let r = fb.retrograde.unwrap_or_else(|| panic!("no check"));
        assert!(r.facing_ok, "{r:?}");
    }
}
