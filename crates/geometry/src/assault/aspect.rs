//! The aspect of an attack: front, flank or rear (000 §5.1 "Flank and Rear Examples",
//! §5.4 "Outflanked", "Attacked in Rear"; 001 §4.3 "Hit in Flank", "Hit in Rear").
//!
//! "Units struck in both the flank and rear will only suffer the worst of the two":
//! an attacker with any part of a base inside the rear zone strikes the rear; otherwise
//! with any part past the flank line, the flank. The exceptions differ by rule set and
//! are a strategy value, [`FlankExceptions`], chosen from the rule set.

use crate::assault::flank::{FlankGeometry, FlankSide};
use crate::rules::RuleSet;
use crate::table::{Formation, MarkerKind, Table, Unit, UnitKind};
use crate::ties::past;
use crate::vec2::Vec2;
use serde::{Deserialize, Serialize};

/// Where an attack strikes.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum Aspect {
    /// The front.
    Front,
    /// A flank.
    Flank,
    /// The rear.
    Rear,
}

/// Why the rules turned a geometric flank or rear into something else.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum AspectException {
    /// 000 §5.4: infantry in square has no flank and no rear if assaulted by cavalry.
    SquareAgainstCavalry,
    /// 001 §4.3: infantry squares have no flank and no rear.
    SquareHasNoFlankOrRear,
    /// 000 §5.4: infantry in buildings has no flank if assaulted by infantry (its rear
    /// stays).
    BuildingsAgainstInfantry,
    /// 001 §4.3: units in buildings have no flank (their rear stays).
    BuildingsHaveNoFlank,
    /// 004 §14: staff have no flanks or rear.
    StaffHaveNoFlankOrRear,
    /// 004 §12.3: a square faces outward on four sides (the project's reading: no flank
    /// or rear).
    SquareFacesOutward,
}

/// The rule set's exceptions to flank and rear (a strategy value, not a flag).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FlankExceptions {
    /// Republique 5.0 (and Republic, which shares its core rules): squares have no flank
    /// or rear against cavalry; infantry in buildings no flank against infantry.
    Republique5,
    /// Classic Republique: squares have no flank or rear, units in buildings no flank,
    /// whoever attacks.
    Classic,
    /// Pro Patria!: staff and squares have no flank or rear; units in urban areas keep
    /// theirs (004 §15.7).
    ProPatria,
}

impl FlankExceptions {
    /// The exceptions of a rule set.
    #[must_use]
    pub fn for_rules(rules: RuleSet) -> Self {
        match rules {
            RuleSet::Republique5 | RuleSet::Republic => FlankExceptions::Republique5,
            RuleSet::RepubliqueClassic => FlankExceptions::Classic,
            RuleSet::ProPatria => FlankExceptions::ProPatria,
        }
    }

    /// The exception (if any) that applies, and the aspect it leaves.
    fn apply(
        self,
        geometric: Aspect,
        attacker: UnitKind,
        d: &DefenderStanding,
    ) -> (Aspect, Option<AspectException>) {
        use AspectException as E;
        if geometric == Aspect::Front {
            return (Aspect::Front, None);
        }
        let square = d.in_square && d.kind == UnitKind::Infantry;
        match self {
            FlankExceptions::Republique5 => {
                if square && attacker == UnitKind::Cavalry {
                    return (Aspect::Front, Some(E::SquareAgainstCavalry));
                }
                if geometric == Aspect::Flank
                    && d.in_buildings
                    && d.kind == UnitKind::Infantry
                    && attacker == UnitKind::Infantry
                {
                    return (Aspect::Front, Some(E::BuildingsAgainstInfantry));
                }
            }
            FlankExceptions::Classic => {
                if square {
                    return (Aspect::Front, Some(E::SquareHasNoFlankOrRear));
                }
                if geometric == Aspect::Flank && d.in_buildings {
                    return (Aspect::Front, Some(E::BuildingsHaveNoFlank));
                }
            }
            FlankExceptions::ProPatria => {
                if d.kind == UnitKind::Leader {
                    return (Aspect::Front, Some(E::StaffHaveNoFlankOrRear));
                }
                if square {
                    return (Aspect::Front, Some(E::SquareFacesOutward));
                }
            }
        }
        (geometric, None)
    }
}

/// What the exceptions need to know about the defender.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DefenderStanding {
    /// The defender's kind.
    pub kind: UnitKind,
    /// In square (formation or square marker).
    pub in_square: bool,
    /// In buildings (see [`crate::assault::cover::in_buildings`]).
    pub in_buildings: bool,
}

/// The aspect of one attacker against one defender.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct AttackAspect {
    /// The aspect the rules give (after exceptions).
    pub aspect: Aspect,
    /// For a flank attack, which flank (the defender's left or right).
    pub flank_side: Option<FlankSide>,
    /// The aspect from the lines alone, before exceptions.
    pub geometric: Aspect,
    /// The exception that changed it, if any.
    pub exception: Option<AspectException>,
}

/// The aspect of an attack by `attacker` on the defender whose lines are `lines`.
///
/// Rear beats flank: any part of any attacker base inside the rear zone strikes the
/// rear; otherwise any part past the flank line strikes a flank (the side the attacker's
/// bases stand on, on average).
///
/// ```
/// use vedette_geometry::{Aspect, Base, BaseSize, DefenderStanding, FlankExceptions, FlankGeometry, FlankSide,
///     Formation, Pose, Unit, UnitKind, Vec2, aspect_of};
/// let b = |x: f64, y: f64, h: f64| Base::new(BaseSize::new(30.0, 20.0), Pose::new(Vec2::new(x, y), h));
/// let defender = [b(0.0, 0.0, 90.0), b(30.0, 0.0, 90.0)];
/// let lines = FlankGeometry::of(&defender).unwrap();
/// let mut attacker = Unit::new("a", "x", UnitKind::Infantry, vec![b(-35.0, 0.0, 0.0)]);
/// attacker.formation = Some(Formation::Line);
/// let standing = DefenderStanding { kind: UnitKind::Infantry, in_square: false, in_buildings: false };
/// let a = aspect_of(&attacker, &lines, &standing, FlankExceptions::Republique5);
/// assert_eq!((a.aspect, a.flank_side), (Aspect::Flank, Some(FlankSide::Left)));
/// ```
#[must_use]
pub fn aspect_of(
    attacker: &Unit,
    lines: &FlankGeometry,
    defender: &DefenderStanding,
    exceptions: FlankExceptions,
) -> AttackAspect {
    let geometric = if attacker.bases.iter().any(|b| lines.reaches_rear_zone(b)) {
        Aspect::Rear
    } else if attacker.bases.iter().any(|b| past(lines.past_flank_line_mm(b))) {
        Aspect::Flank
    } else {
        Aspect::Front
    };
    let (aspect, exception) = exceptions.apply(geometric, attacker.kind, defender);
    let flank_side = (aspect == Aspect::Flank).then(|| {
        let past_bases: Vec<Vec2> =
            attacker.bases.iter().filter(|b| past(lines.past_flank_line_mm(b))).map(|b| b.centre()).collect();
        let c = past_bases.iter().fold(Vec2::ZERO, |a, &p| a + p) / past_bases.len().max(1) as f64;
        lines.side_of(c)
    });
    AttackAspect { aspect, flank_side, geometric, exception }
}

/// True when a unit is in square: its formation says so, or a square marker names it
/// (000 §1.2: "markers placed in close proximity to a formation").
#[must_use]
pub fn is_in_square(table: &Table, unit: usize) -> bool {
    let Some(u) = table.units.get(unit) else { return false };
    u.formation == Some(Formation::Square)
        || table
            .markers
            .iter()
            .any(|m| m.kind == MarkerKind::Square && m.unit.as_deref() == Some(u.id.as_str()))
}
