//! Movement geometry (000 §3.1-3.7, 003 303 and 305, 004 §17.4): how far a unit moved
//! between two positions, measured the way the rules measure it, what the ground and its
//! side's maneuver system charge for it part by part, and whether it fits the allowance,
//! a Hold, an Advance or a mandatory retrograde move; under Pro Patria, its wheels,
//! formation changes, forced march and charge.
//!
//! - [`path`]: the path ([`move_path`]): straight or one wheel, and each base's motion.
//! - [`sweep`]: a base swept along its motion, exactly ([`BaseMotion`]).
//! - [`ground`]: the terrain the path is within and crosses, and what it charges
//!   ([`ground::charge`]).
//! - [`shadow`]: Republic's artillery deployment shadow (003 305).
//! - [`pro_patria`]: a Pro Patria move (004 §17.4).
//!
//! # Readings
//! - **The path.** Only the two positions are known, so the move is read as the
//!   shortest one the rules allow between them: a straight move when the unit did not
//!   turn, otherwise one wheel (the rigid rotation that carries the unit's front corners
//!   from where they stood to where they stand, fitted by least squares). "Wheeling
//!   movement is measured along the outermost edge of the wheel (i.e. the longest)"
//!   (000 §3.1): the distance is the longest path of any front corner of the unit, the
//!   arc about the wheel's pivot. A straight move's distance is the displacement of the
//!   front edge ("movement ... measured from the front edge of its bases"). Each base
//!   travels by its own rigid motion from where it stood to where it stands (for a unit
//!   that moved as a body, the unit's own straight move or wheel).
//! - **Direction.** The displacement of the middle of the unit's front corners against
//!   its starting facing: straight ahead within [`crate::ties::ALIGNED_DEG`], oblique up
//!   to 45° ("obliquely (diagonally) up to 45 degrees from perpendicular"), sideways up
//!   to 135°, backwards beyond.
//! - **Maneuver system** (000 §3.2). Prussian: wheels at the normal rate, oblique and
//!   backwards moves double, sideways quadruple, a backward wheel quadruple (the text's
//!   example: "one-quarter its normal speed if it were to wheel backwards"). French:
//!   wheels, oblique and sideways moves at the normal rate, backwards double.
//! - **Ground** ([`ground`]): each part of the path pays the terrain it is within (rough
//!   x2, double rough x4, wheeled x4 in rough, packed batteries as rough, a Republic road
//!   column on its road x½), each obstacle crossed its one-time loss, and impassable
//!   ground refuses the move. "All movement penalties are cumulative" (000 §3.1): a part's
//!   cost is its length times the system's factor times the terrain's.
//! - **Formation change** (000 §1.4, §3.2, §3.5): the unit's `formation` differs between
//!   the two tables (limbering and unlimbering are battery actions, not formation
//!   changes). It costs 2" (French) or 4" (Prussian), doubled "when any of the unit
//!   making the change is in rough terrain": read as in rough terrain over the whole
//!   path, since the change may be made anywhere along it. It may not be made within
//!   1½" (French) or 3" (Prussian) of enemy combat bases: refused when the unit is that
//!   close both where it started and where it ended (checked at the two ends only).
//! - **Cost without a system.** A move whose cost is the same under both systems gets
//!   that cost; only a move whose cost depends on the system leaves it open and gives
//!   both ([`MoveAssessment::costs`]).
//! - **Allowance** (000 §3.1). Foot (infantry, artillery, skirmishers) 8" with a 4"
//!   assault bonus, horse (cavalry) 15" with 8", leaders 24" without one. The table
//!   does not say which batteries are horse artillery: batteries move as foot. Where
//!   the ground bars the assault bonus ("N/A", 000 §3.6) the cost there must come from the
//!   normal allowance.
//! - **Hold** (000 §3.3): a unit moving 4" or less before movement penalties; **Advance**:
//!   more than half of its allowance (before penalties) forward.
//! - **Retrograde** (000 §3.4): disengage 4", withdraw 6", fall back 8", retreat 10",
//!   rout 12" away from the enemy (horse doubles), the first two facing the enemy, the
//!   others facing away. The enemy is read as ahead of the unit's starting facing: the
//!   distance away is the move's component straight back, and "facing the enemy" is a
//!   final facing within 90° of the starting one. Retrograde moves "are not subject to
//!   terrain penalties" (000 §3.4): their check uses the distance alone.
//! - **Pro Patria** ([`pro_patria`]): the allowances and the terrain's and formation
//!   changes' deductions are on the reference sheets, not in the text; a wheel is charged
//!   double (004 §17.4.6).

pub mod ground;
pub mod path;
pub mod pro_patria;
pub mod shadow;
pub mod sweep;

pub use ground::{ChargePart, Crossing, Ground, GroundCharge, Refusal, RefusalReason};
pub use path::{MoveDirection, MovePath, move_path};
pub use pro_patria::{ChargeCheck, Measured, ProPatriaChange, ProPatriaMove};
pub use shadow::DeploymentShadow;
pub use sweep::BaseMotion;

use crate::artillery::battery_frontage;
use crate::close_call::CloseCall;
use crate::error::GeometryError;
use crate::index::SpatialIndex;
use crate::rules::{RuleBook, RuleDistance, RuleSet};
use crate::table::{BaseRef, Formation, FrontageMode, ManeuverSystem, Table, UnitKind};
use crate::terrain::{Mover, TerrainKind};
use crate::ties::within;
use crate::vec2::Vec2;

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

    /// The name used on the command line and in reports.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Retrograde::Disengage => "disengage",
            Retrograde::Withdraw => "withdraw",
            Retrograde::FallBack => "fall-back",
            Retrograde::Retreat => "retreat",
            Retrograde::Rout => "rout",
        }
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

/// What a move is asked besides how far it went and what it cost.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MoveQuestions {
    /// Check a mandatory retrograde result (Republique family).
    pub retrograde: Option<Retrograde>,
    /// Pro Patria: the move was a forced march (004 §17.4.5).
    pub forced_march: bool,
    /// Pro Patria: the move was the 1st impulse of a charge on this unit (its id; 004
    /// §17.2.3).
    pub charge: Option<String>,
    /// Pro Patria: the unit's movement allowance from the reference sheets, mm.
    pub allowance_mm: Option<f64>,
}

/// A formation change under the Republique family (000 §1.4, §3.2, §3.5).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FormationChange {
    /// Before.
    pub from: Formation,
    /// After.
    pub to: Formation,
    /// Rough terrain holds the unit over the whole path: the cost doubles.
    pub in_rough: bool,
    /// The nearest enemy combat base where the unit stood farther from the enemy, the
    /// start or the end, mm; `None` with no enemy on the table.
    pub enemy_mm: Option<f64>,
}

/// A move's cost under one maneuver system.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SystemCost {
    /// The system.
    pub system: ManeuverSystem,
    /// Its factor for the move's direction (000 §3.2).
    pub factor: f64,
    /// The whole cost: the parts, the crossings and the formation change, mm.
    pub cost_mm: f64,
    /// The part of it where the assault bonus may not be used, mm.
    pub bonus_barred_mm: f64,
    /// The formation change's cost, mm (0 without one).
    pub formation_change_mm: f64,
    /// The formation change is allowed this far from the enemy (000 §3.2).
    pub formation_change_allowed: bool,
}

/// One unit's move between two tables.
#[derive(Debug, Clone, PartialEq)]
pub struct MoveAssessment {
    /// The unit's index in the table before (the same id after).
    pub unit: usize,
    /// The unit's index in the table after.
    pub unit_after: usize,
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
    /// Foot, horse or wheeled.
    pub mover: Mover,
    /// The path, with each base's motion.
    pub path: MovePath,
    /// What the ground charges, part by part, the obstacles crossed and the ground
    /// refused.
    pub ground: GroundCharge,
    /// The formation change (Republique family), when the formation differs.
    pub formation_change: Option<FormationChange>,
    /// The cost under the side's system, or under both when the side has none.
    pub costs: Vec<SystemCost>,
    /// The side's maneuver system; `None` when the side has none.
    pub system: Option<ManeuverSystem>,
    /// The cost: under the side's system, or the same under both; `None` when it
    /// depends on a system the side does not have (see `costs`). Under Pro Patria the
    /// distance charged (a wheel double).
    pub cost_mm: Option<f64>,
    /// The system's factor for the direction: the side's, or the same under both.
    pub cost_factor: Option<f64>,
    /// The normal allowance, mm (`None` under Pro Patria unless given).
    pub allowance_mm: Option<f64>,
    /// The assault (charge) bonus on top, mm.
    pub charge_bonus_mm: f64,
    /// The cost paid where the ground bars the assault bonus: it must fit the normal
    /// allowance; `None` when the cost is open.
    pub bonus_barred_mm: Option<f64>,
    /// It used some of the charge bonus (one morale hit).
    pub uses_charge_bonus: Option<bool>,
    /// It fits the allowance with the bonus (and what the ground bars fits without it).
    pub within_allowance: Option<bool>,
    /// It is a Hold move: 4" or less before penalties (Republique family).
    pub hold: Option<bool>,
    /// It is an Advance: more than half the allowance forward (Republique family).
    pub advancing: Option<bool>,
    /// Close call of the hold limit.
    pub hold_call: Option<CloseCall>,
    /// Close call of the allowance: the nearer of the allowance and allowance + bonus.
    pub allowance_call: Option<CloseCall>,
    /// The retrograde check, when asked.
    pub retrograde: Option<RetrogradeCheck>,
    /// Republic: batteries of the side in the bonus path of this cavalry move (003 305),
    /// and where the bonus began, a fraction of the path; `None` when the move used no
    /// bonus, is not a Republic cavalry move, or its cost is open.
    pub shadows: Option<(f64, Vec<DeploymentShadow>)>,
    /// Pro Patria's answers.
    pub pro_patria: Option<ProPatriaMove>,
}

impl MoveAssessment {
    /// True when nothing refuses the move: no impassable ground, the allowance (when
    /// known) holds, the formation change is allowed, and under Pro Patria no change in a
    /// heavy wood and no enemy approached unless charged.
    #[must_use]
    pub fn allowed(&self) -> Option<bool> {
        if !self.ground.refusals.is_empty() {
            return Some(false);
        }
        if let Some(p) = &self.pro_patria {
            if p.change_in_heavy_wood.is_some() || !p.too_close.is_empty() {
                return Some(false);
            }
            return p.allowance.map(|(_, ok)| ok).or(Some(true));
        }
        if self.formation_change.is_some() && self.costs.iter().all(|c| !c.formation_change_allowed) {
            return Some(false);
        }
        self.within_allowance
    }
}

/// The system's cost factor for a move's direction (000 §3.2). Both systems wheel "at
/// normal movement rates" (a wheel's middle moves at half its turn from straight ahead,
/// so its direction is not what costs it); a wheel backwards costs as a backward move,
/// and the Prussian one double that ("one-quarter its normal speed if it were to wheel
/// backwards").
#[must_use]
pub fn system_factor(system: ManeuverSystem, direction: MoveDirection, wheel: bool) -> f64 {
    match (system, direction, wheel) {
        (ManeuverSystem::Prussian, MoveDirection::Backward, true) => 4.0,
        (ManeuverSystem::French, MoveDirection::Backward, _) => 2.0,
        (_, _, true) => 1.0,
        (ManeuverSystem::Prussian, MoveDirection::Sideways, _) => 4.0,
        (ManeuverSystem::Prussian, MoveDirection::Oblique | MoveDirection::Backward, _) => 2.0,
        _ => 1.0,
    }
}

/// Limbering and unlimbering are battery actions (000 §3.6), not formation changes.
fn is_formation_change(from: Formation, to: Formation) -> bool {
    from != to
        && !matches!(
            (from, to),
            (Formation::Limbered, Formation::Unlimbered) | (Formation::Unlimbered, Formation::Limbered)
        )
}

/// Packed batteries of unit `u`'s side (000 §3.6), deployed, other than `u`.
fn packed_batteries(table: &Table, index: &SpatialIndex, u: usize) -> Vec<usize> {
    let side = &table.units[u].side;
    (0..table.units.len())
        .filter(|&i| {
            let b = &table.units[i];
            i != u
                && &b.side == side
                && b.kind == UnitKind::Artillery
                && b.formation != Some(Formation::Limbered)
                && (0..b.bases.len()).any(|k| {
                    battery_frontage(table, index, BaseRef::new(i, k))
                        .is_some_and(|f| f.mode == FrontageMode::Packed)
                })
        })
        .collect()
}

/// The closest enemy combat base to unit `u`, mm.
fn nearest_enemy_mm(table: &Table, u: usize) -> Option<f64> {
    let unit = &table.units[u];
    table
        .units
        .iter()
        .filter(|o| o.side != unit.side && o.is_combat())
        .flat_map(|o| o.bases.iter())
        .flat_map(|ob| unit.bases.iter().map(move |b| b.distance(ob)))
        .reduce(f64::min)
}

/// Assesses the move of unit `id` from table `before` to table `after` (the same unit,
/// with the same number of bases, in both), under `before`'s rules and the unit's side
/// system, answering `questions`.
///
/// # Errors
/// When the unit is missing from either table, or its bases differ in number, or its
/// side or kind; when a
/// question does not belong to the table's rule set (a retrograde result under Pro
/// Patria, a forced march or charge elsewhere), or the charge's target is unknown.
pub fn assess_move(
    before: &Table,
    after: &Table,
    id: &str,
    questions: &MoveQuestions,
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
    // A move is of one unit: the same side and kind in both tables (issue 41 item 7;
    // limbering is a formation, not a kind).
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
    let pro_patria = book.rules() == RuleSet::ProPatria;
    let not_here = |what: &str| GeometryError::NotInRuleSet { rules: book.rules(), what: what.to_string() };
    if !pro_patria {
        if questions.forced_march {
            return Err(not_here("a forced march (a Pro Patria rule, 004 §17.4.5)"));
        }
        if questions.charge.is_some() {
            return Err(not_here("a declared charge's 1st impulse (a Pro Patria rule, 004 §17.2.3)"));
        }
        if questions.allowance_mm.is_some() {
            return Err(not_here("a movement allowance given by hand (the rules state it, 000 §3.1)"));
        }
    }
    let path = move_path(b0, b1);
    let mover = b0.kind.mover();
    let index = SpatialIndex::new(before);
    let packed = if pro_patria { Vec::new() } else { packed_batteries(before, &index, u) };
    let ground = ground::charge(&ground::Mobile {
        table: before,
        book: &book,
        unit: u,
        distance_mm: path.distance_mm,
        motions: &path.motions,
        packed: &packed,
    });
    let mut m = MoveAssessment {
        unit: u,
        unit_after: ua,
        distance_mm: path.distance_mm,
        turned_deg: path.turned_deg,
        wheel: path.wheel,
        pivot: path.pivot,
        direction: path.direction,
        direction_deg: path.direction_deg,
        forward_mm: path.forward_mm,
        mover,
        path: path.clone(),
        ground,
        formation_change: None,
        costs: Vec::new(),
        system: None,
        cost_mm: None,
        cost_factor: None,
        allowance_mm: None,
        charge_bonus_mm: 0.0,
        bonus_barred_mm: None,
        uses_charge_bonus: None,
        within_allowance: None,
        hold: None,
        advancing: None,
        hold_call: None,
        allowance_call: None,
        retrograde: None,
        shadows: None,
        pro_patria: None,
    };
    if pro_patria {
        if questions.retrograde.is_some() {
            return Err(not_here("the retrograde results of 000 §3.4"));
        }
        assess_pro_patria(before, after, (u, ua), &book, questions, &mut m)?;
    } else {
        assess_republique(before, after, (u, ua), &book, questions, &mut m)?;
    }
    Ok(m)
}

/// The close call of a movement threshold: both positions' uncertainties, scaled by the
/// cost factor.
fn move_call(before: &Table, after: &Table, (u, ua): (usize, usize), margin: f64, factor: f64) -> CloseCall {
    let sigma = after.units[ua]
        .bases
        .iter()
        .chain(&before.units[u].bases)
        .filter_map(|b| b.meta().sigma_mm)
        .fold(None, |m: Option<f64>, s| Some(m.map_or(s, |m| m.max(s))));
    // Two positions, each uncertain: the distance's sigma is √2 that of one base, and the
    // cost scales with the factor.
    let sigma = sigma.map(|s| s * std::f64::consts::SQRT_2 * factor);
    let mut c = CloseCall { margin_mm: margin.abs(), sigma_mm: sigma, nudge: None };
    if !c.certain() {
        // Every base of the unit decides the move; the nudge names its first.
        c.nudge =
            Some(crate::close_call::Nudge { base: BaseRef::new(ua, 0), by_mm: margin.abs(), towards: None });
    }
    c
}

fn assess_republique(
    before: &Table,
    after: &Table,
    (u, ua): (usize, usize),
    book: &RuleBook,
    questions: &MoveQuestions,
    m: &mut MoveAssessment,
) -> Result<(), GeometryError> {
    let (b0, b1) = (&before.units[u], &after.units[ua]);
    let g = &m.ground;
    let formation_change = match (b0.formation, b1.formation) {
        (Some(from), Some(to)) if is_formation_change(from, to) => Some(FormationChange {
            from,
            to,
            in_rough: g.rough_throughout,
            enemy_mm: match (nearest_enemy_mm(before, u), nearest_enemy_mm(after, ua)) {
                (Some(a), Some(b)) => Some(a.max(b)),
                (a, b) => a.or(b),
            },
        }),
        _ => None,
    };
    let side_system = before.sides.get(&b0.side).and_then(|s| s.system);
    let systems: Vec<ManeuverSystem> = match side_system {
        Some(s) => vec![s],
        None => vec![ManeuverSystem::French, ManeuverSystem::Prussian],
    };
    let terrain_mm: f64 = g.parts.iter().map(|p| p.length_mm * p.factor.unwrap_or(1.0)).sum();
    let barred_mm: f64 = g
        .parts
        .iter()
        .filter(|p| p.bonus_barred_by.is_some())
        .map(|p| p.length_mm * p.factor.unwrap_or(1.0))
        .sum();
    let losses_mm: f64 = g.crossings.iter().filter_map(|c| c.loss_mm).sum();
    let barred_losses_mm: f64 = g.crossings.iter().filter(|c| c.bars_bonus).filter_map(|c| c.loss_mm).sum();
    let mut costs = Vec::new();
    for system in systems {
        let factor = system_factor(system, m.direction, m.wheel);
        let (fc_mm, fc_allowed) = match &formation_change {
            Some(fc) => {
                let (cost, limit) = match system {
                    ManeuverSystem::French => {
                        (RuleDistance::FormationChangeCostFrench, RuleDistance::FormationChangeFrench)
                    }
                    ManeuverSystem::Prussian => {
                        (RuleDistance::FormationChangeCostPrussian, RuleDistance::FormationChangePrussian)
                    }
                };
                let c = book.distance_mm(cost)? * if fc.in_rough { 2.0 } else { 1.0 };
                let limit = book.distance_mm(limit)?;
                (c, fc.enemy_mm.is_none_or(|d| !within(d, limit)))
            }
            None => (0.0, true),
        };
        costs.push(SystemCost {
            system,
            factor,
            cost_mm: factor * terrain_mm + losses_mm + fc_mm,
            bonus_barred_mm: factor * barred_mm + barred_losses_mm,
            formation_change_mm: fc_mm,
            formation_change_allowed: fc_allowed,
        });
    }
    // One cost when the side has a system or both systems agree.
    let decided = match costs.as_slice() {
        [one] => Some(*one),
        [a, b]
            if (a.cost_mm - b.cost_mm).abs() <= crate::ties::TIE_MM
                && (a.bonus_barred_mm - b.bonus_barred_mm).abs() <= crate::ties::TIE_MM =>
        {
            Some(*a)
        }
        _ => None,
    };
    let kind = b0.kind;
    let (allowance, bonus) = match kind.mover() {
        _ if kind == UnitKind::Leader => (book.distance_mm(RuleDistance::LeaderMove)?, 0.0),
        Mover::Horse => {
            (book.distance_mm(RuleDistance::HorseMove)?, book.distance_mm(RuleDistance::HorseChargeBonus)?)
        }
        _ => (book.distance_mm(RuleDistance::FootMove)?, book.distance_mm(RuleDistance::FootChargeBonus)?),
    };
    let hold_mm = book.distance_mm(RuleDistance::HoldMove)?;
    let tie = crate::ties::TIE_MM;
    m.formation_change = formation_change;
    m.system = side_system;
    m.cost_mm = decided.map(|c| c.cost_mm);
    m.cost_factor = decided.map(|c| c.factor);
    m.allowance_mm = Some(allowance);
    m.charge_bonus_mm = bonus;
    m.bonus_barred_mm = decided.map(|c| c.bonus_barred_mm);
    m.uses_charge_bonus = m.cost_mm.map(|c| c > allowance + tie);
    m.within_allowance =
        decided.map(|c| c.cost_mm <= allowance + bonus + tie && c.bonus_barred_mm <= allowance + tie);
    m.hold = Some(m.distance_mm <= hold_mm + tie);
    m.advancing = Some(m.forward_mm > allowance / 2.0 + tie);
    m.hold_call = Some(move_call(before, after, (u, ua), m.distance_mm - hold_mm, 1.0));
    let worst = m.ground.parts.iter().filter_map(|p| p.factor).fold(1.0, f64::max);
    m.allowance_call = decided.map(|c| {
        let limit = if (c.cost_mm - allowance).abs() < (c.cost_mm - allowance - bonus).abs() {
            allowance
        } else {
            allowance + bonus
        };
        move_call(before, after, (u, ua), c.cost_mm - limit, c.factor * worst)
    });
    m.costs = costs;
    if let Some(kind) = questions.retrograde {
        let mut required_mm = book.distance_mm(kind.distance())?;
        if b0.kind == UnitKind::Cavalry {
            required_mm *= 2.0;
        }
        let away_mm = -m.forward_mm;
        let still_facing = path::facing(b1).dot(m.path.facing) > 0.0;
        let facing_ok = still_facing == kind.faces_enemy();
        m.retrograde = Some(RetrogradeCheck {
            kind,
            required_mm,
            away_mm,
            facing_ok,
            done: facing_ok && away_mm >= required_mm - tie,
            call: move_call(before, after, (u, ua), away_mm - required_mm, 1.0),
        });
    }
    // 003 305: the batteries in a Republic cavalry move's bonus path.
    if book.rules() == RuleSet::Republic
        && b0.kind == UnitKind::Cavalry
        && let Some(c) = decided
        && c.cost_mm > allowance + tie
    {
        let from = bonus_start(&m.ground, m.path.distance_mm, c, allowance);
        m.shadows =
            Some((from, shadow::deployment_shadows(after, ua, &m.path.motions, from, path::facing(b1))));
    }
    Ok(())
}

/// Where on the path the cost passes the allowance, a fraction: the parts are paid in
/// order, each crossing's loss where it is reached, the formation change at the start.
fn bonus_start(g: &GroundCharge, distance_mm: f64, c: SystemCost, allowance: f64) -> f64 {
    let mut paid = c.formation_change_mm;
    for p in &g.parts {
        paid += g
            .crossings
            .iter()
            .filter(|x| x.at >= p.from && x.at < p.to)
            .filter_map(|x| x.loss_mm)
            .sum::<f64>();
        if paid > allowance {
            return p.from;
        }
        let rate = c.factor * p.factor.unwrap_or(1.0) * distance_mm;
        let cost = rate * (p.to - p.from);
        if paid + cost > allowance && rate > 0.0 {
            return p.from + (allowance - paid) / rate;
        }
        paid += cost;
    }
    1.0
}

fn assess_pro_patria(
    before: &Table,
    after: &Table,
    (u, ua): (usize, usize),
    book: &RuleBook,
    questions: &MoveQuestions,
    m: &mut MoveAssessment,
) -> Result<(), GeometryError> {
    let heavy_throughout = {
        let heavy = |p: &ChargePart| {
            p.within.iter().find_map(|g| match g {
                Ground::Terrain { feature, kind: TerrainKind::HeavyForest } => Some(*feature),
                _ => None,
            })
        };
        let all: Vec<Option<usize>> = m.ground.parts.iter().map(heavy).collect();
        if !all.is_empty() && all.iter().all(Option::is_some) { all[0] } else { None }
    };
    let charged_unit = match &questions.charge {
        Some(t) => Some(before.unit_index(t).ok_or_else(|| GeometryError::UnknownUnit {
            id: t.clone(),
            hint: " (the charge's target, first position)".to_string(),
        })?),
        None => None,
    };
    if let Some(t) = charged_unit
        && before.units[t].side == before.units[u].side
    {
        return Err(GeometryError::InvalidField {
            origin: "--charge".to_string(),
            location: format!("unit \"{}\"", before.units[t].id),
            reason: format!("it is on {}'s side; a charge is on an enemy", before.units[u].id),
        });
    }
    let target_after = charged_unit.and_then(|t| after.unit_index(&before.units[t].id));
    let index_after = SpatialIndex::new(after);
    let no_approach = book.distance_mm(RuleDistance::NoApproach)?;
    let mut p = pro_patria::pro_patria_move(
        before,
        &index_after,
        (u, ua),
        &m.path,
        heavy_throughout,
        no_approach,
        target_after,
    );
    if let Some(a) = questions.allowance_mm {
        p.allowance = Some((a, within(p.charged_mm, a)));
    }
    if questions.forced_march {
        let sight = crate::los::TerrainSight::try_new(&index_after)?;
        let mut f = crate::pro_patria::forced_march::forced_march(&index_after, book, &sight, ua)?;
        f.in_march_column = before.units[u].formation == Some(Formation::MarchColumn);
        f.allowed = f.in_march_column && f.nearest.is_none_or(|(_, d)| !within(d, f.clearance_mm));
        p.forced_march = Some(f);
    }
    if let Some(t) = charged_unit {
        let distance = if p.measured == Measured::CommandStand { p.charged_mm } else { m.path.distance_mm };
        p.charge = Some(pro_patria::charge_check(before, u, t, distance, p.change.is_some(), book)?);
    }
    m.distance_mm = if p.measured == Measured::CommandStand { p.charged_mm } else { m.path.distance_mm };
    m.wheel = p.measured == Measured::OutsideArc;
    if !m.wheel {
        m.pivot = None;
    }
    m.cost_mm = Some(p.charged_mm);
    m.cost_factor = Some(if m.wheel { 2.0 } else { 1.0 });
    m.allowance_mm = questions.allowance_mm;
    m.within_allowance = p.allowance.map(|(_, ok)| ok);
    m.allowance_call =
        questions.allowance_mm.map(|a| move_call(before, after, (u, ua), p.charged_mm - a, 1.0));
    m.pro_patria = Some(p);
    Ok(())
}

#[cfg(test)]
mod tests;
