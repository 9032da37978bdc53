//! A move under Pro Patria (004 §17.4): what it is charged, its formation changes, where
//! it ended against the enemy, and the forced march and charge it was meant to be.
//!
//! # Readings
//! - **Measured** "from the front edge of the command stand" (§17.4). A unit that moved as
//!   a body (its stands kept their places in it and their facing) is measured as under
//!   Republique, on its front edge: a straight move by its largest front corner
//!   displacement; a wheel "measured from the outside arc and cost double movement. So,
//!   if the outside arc is 50mm the total distance moved is regarded as 100mm" (§17.4.6).
//!   A unit whose stands changed places or facing (a formation change) is measured by
//!   its command stand alone: the front base nearest the middle of the unit's front at
//!   the start ("the command base is placed in the centre"), straight from where it
//!   stood to where it stands (its centre: a stand that turned in place has moved
//!   nowhere, though its front edge is another edge now).
//! - **Formation changes** (§17.4.7): the unit's `formation` differs between the two
//!   tables (the unit forms up facing the way its command stand faces: a new facing is
//!   part of the change), or, with the same formation, its stands turned beyond its
//!   wheel by more than the alignment tolerance ("Turning 90° or about 180° ... are
//!   considered formation changes"). One move shows one change at most ("Units can make
//!   only one formation change a turn" spans the turn's moves, which one move does not
//!   see). "Not in a heavy wood": refused when every part of the path has the unit in a
//!   heavy wood (it could change nowhere else). The deduction for a change is on the
//!   reference sheets, not in the text: the move says which change it made and charges
//!   none.
//! - **Terrain** (§17.4.4): the deductions are on the reference sheets; the parts of the
//!   path in woods, urban areas and the like, and the obstacles crossed (disordering,
//!   §15.10), are listed without a factor ([`super::ground`]).
//! - **No approach** (§17.4): "A unit cannot come within 25mm (15mm) of an enemy unit it
//!   has not charged": checked where the move ends (closest stand to stand, closed).
//! - **Forced march** (§17.4.5, asked with `--forced-march`): the unit started in march
//!   column and ends beyond 300 mm (180) of every visible formed enemy
//!   ([`crate::pro_patria::forced_march`]).
//! - **Charge** (§17.2.3, asked with the target): the 1st impulse advances "over a quarter
//!   but up to halfway to the target unit" (the distance moved against the closest
//!   distance at the start); the target is caught when the charge began within 50 mm
//!   (infantry) or 150 mm (cavalry) of it and the unit did not change formation.

use super::path::MovePath;
use crate::close_call::{CloseCall, unit_distance_call};
use crate::error::GeometryError;
use crate::pro_patria::charge::{FirstImpulse, catch_reach_mm, may_charge};
use crate::pro_patria::forced_march::ForcedMarch;
use crate::table::{Formation, Table};
use crate::ties::{ALIGNED_DEG, within};
use crate::vec2::Vec2;

/// One formation change (004 §17.4.7).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ProPatriaChange {
    /// The unit's formation changed.
    Formation {
        /// Before.
        from: Formation,
        /// After.
        to: Formation,
    },
    /// Its stands turned (about 90° or 180°), beyond any wheel, by this many degrees
    /// (counter-clockwise positive).
    Turn {
        /// Degrees.
        deg: f64,
    },
}

/// How the move was measured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Measured {
    /// Straight, on the front edge.
    FrontEdge,
    /// A wheel, on the outside arc, charged double.
    OutsideArc,
    /// A formation change: the command stand's front edge.
    CommandStand,
}

/// The 1st impulse of a declared charge checked (004 §17.2.3).
#[derive(Debug, Clone, PartialEq)]
pub struct ChargeCheck {
    /// The target's unit index (in the table before the move).
    pub target: usize,
    /// The unit may charge the target (004 §17.2.4: infantry not mounted troops,
    /// artillery never).
    pub eligible: bool,
    /// Closest distance to the target at the start, mm.
    pub start_mm: f64,
    /// The 1st impulse's window: over a quarter, up to half that distance.
    pub window: FirstImpulse,
    /// The distance advanced (the move as measured), mm.
    pub advance_mm: f64,
    /// The advance lies in the window.
    pub within_window: bool,
    /// The catching distance, mm (50 infantry, 150 cavalry; 30, 90).
    pub catch_reach_mm: f64,
    /// The charge began within it and changed no formation: the target is caught.
    pub caught: bool,
    /// The close call of the start distance against the catching distance.
    pub catch_call: CloseCall,
}

/// Everything a Pro Patria move answers.
#[derive(Debug, Clone, PartialEq)]
pub struct ProPatriaMove {
    /// How the distance was measured.
    pub measured: Measured,
    /// The distance charged: the distance moved, twice it for a wheel (§17.4.6), mm.
    pub charged_mm: f64,
    /// The formation change made (§17.4.7).
    pub change: Option<ProPatriaChange>,
    /// The change was made in a heavy wood (by index in `terrain`): refused.
    pub change_in_heavy_wood: Option<usize>,
    /// The no-approach distance, mm (25; 15).
    pub no_approach_mm: f64,
    /// Enemy units the move ends within the no-approach distance of, other than the one
    /// it charged (by index in the table after), with the distance and its close call.
    pub too_close: Vec<(usize, f64, CloseCall)>,
    /// The allowance given (the reference sheets'), mm, and whether the charge fits it.
    pub allowance: Option<(f64, bool)>,
    /// The forced march checked where the move ended, when asked.
    pub forced_march: Option<ForcedMarch>,
    /// The charge checked, when asked.
    pub charge: Option<ChargeCheck>,
}

/// The command stand: the front base (no base of the unit ahead of it) nearest the middle
/// of the unit's front corners.
fn command_stand(table: &Table, unit: usize) -> usize {
    let u = &table.units[unit];
    let front = crate::unit_structure::front_bases_of(&u.bases);
    let corners: Vec<Vec2> = u.bases.iter().flat_map(|b| [b.front_edge().a, b.front_edge().b]).collect();
    let mid = corners.iter().fold(Vec2::ZERO, |s, p| s + *p) / (corners.len().max(1) as f64);
    front
        .into_iter()
        .min_by(|&a, &b| {
            let d = |i: usize| u.bases[i].front_midpoint().distance(mid);
            d(a).total_cmp(&d(b)).then(a.cmp(&b))
        })
        .unwrap_or(0)
}

/// What the Pro Patria move of unit `u` (index `ua` in `index_after`'s table) answers,
/// before the optional questions (forced march, charge, allowance) are filled in.
pub(super) fn pro_patria_move(
    before: &Table,
    index_after: &crate::index::SpatialIndex,
    (u, ua): (usize, usize),
    path: &MovePath,
    in_heavy_wood_throughout: Option<usize>,
    no_approach_mm: f64,
    charged_unit: Option<usize>,
) -> ProPatriaMove {
    let after = index_after.table();
    let (b0, b1) = (&before.units[u], &after.units[ua]);
    let change = match (b0.formation, b1.formation) {
        (Some(from), Some(to)) if from != to => Some(ProPatriaChange::Formation { from, to }),
        _ if path.stands_turned_deg.abs() > ALIGNED_DEG => {
            Some(ProPatriaChange::Turn { deg: path.stands_turned_deg })
        }
        _ => None,
    };
    let (measured, distance) = if change.is_some() {
        let k = command_stand(before, u);
        let d = match (b0.bases.get(k), b1.bases.get(k)) {
            (Some(x), Some(y)) => x.centre().distance(y.centre()),
            _ => path.distance_mm,
        };
        (Measured::CommandStand, d)
    } else if path.wheel {
        (Measured::OutsideArc, path.distance_mm)
    } else {
        (Measured::FrontEdge, path.distance_mm)
    };
    let charged_mm = if measured == Measured::OutsideArc { 2.0 * distance } else { distance };
    let mut too_close = Vec::new();
    for (o, _) in index_after.units_within_of_unit(ua, no_approach_mm + crate::ties::TIE_MM, |o| {
        index_after.are_enemies(ua, o) && Some(o) != charged_unit
    }) {
        if let Some((d, call)) = unit_distance_call(after, ua, o, no_approach_mm)
            && within(d, no_approach_mm)
        {
            too_close.push((o, d, call));
        }
    }
    ProPatriaMove {
        measured,
        charged_mm,
        change_in_heavy_wood: change.and(in_heavy_wood_throughout),
        change,
        no_approach_mm,
        too_close,
        allowance: None,
        forced_march: None,
        charge: None,
    }
}

/// The 1st impulse of a charge by unit `u` on unit `target` (both indices in `before`),
/// having advanced `advance_mm`, with or without a formation change.
pub(super) fn charge_check(
    before: &Table,
    u: usize,
    target: usize,
    advance_mm: f64,
    changed_formation: bool,
    book: &crate::rules::RuleBook,
) -> Result<ChargeCheck, GeometryError> {
    let (c, t) = (&before.units[u], &before.units[target]);
    let reach = catch_reach_mm(c.kind, book)?;
    let (start_mm, catch_call) = unit_distance_call(before, u, target, reach)
        .unwrap_or((f64::INFINITY, CloseCall::exact(f64::INFINITY)));
    let window = FirstImpulse::for_distance(start_mm);
    Ok(ChargeCheck {
        target,
        eligible: may_charge(c.kind, t.kind),
        start_mm,
        window,
        advance_mm,
        within_window: window.allows(advance_mm),
        catch_reach_mm: reach,
        caught: within(start_mm, reach) && !changed_formation,
        catch_call,
    })
}
