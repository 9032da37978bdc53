//! Targets (000 §4.5): every enemy unit a battery might fire on, whether it is a valid
//! target, and which one is the main target.
//!
//! # Who can be a target
//! Enemy combat units (infantry, cavalry, artillery, limbered or not), and enemy skirmish
//! markers that are packed: "Artillery may not fire on fully deployed skirmish markers
//! (markers with at least 3" between bases) ... Artillery may fire on packed skirmish
//! markers". A marker is packed when another skirmish marker of its side lies closer
//! than 3" to it, edge to edge (000 §3.6); only its packed markers count for a skirmisher
//! unit. Leaders, limbers and status markers are never targets.
//!
//! # The candidates and their tests
//! A candidate is an enemy unit with part of one of its bases inside the arc of fire
//! within maximum range. For each:
//! - **range**: the shortest distance from the battery frontage to the part of its bases
//!   inside the arc (the part the battery can fire at), and its bracket;
//! - **half a base in the arc**: half or more of one of its bases inside the arc, that
//!   base within maximum range ([`crate::ArcOfFire::holds_half_of`]);
//! - **line of sight**: "direct line-of-sight to at least one full base of its target":
//!   some base of the unit with part inside the arc within range is wholly visible from
//!   the battery frontage, asked of the [`crate::LineOfSight`] seam;
//! - **zone clear**: some clear swing of the firing zone holds part of one of those
//!   bases ("the firing zone ... may be swung throughout a battery's 60° degree
//!   arc-of-fire": a base half inside the arc near its side lies beyond where the centre
//!   of fire can reach, but the swung zone's side runs along the arc's).
//!
//! A target is valid when all four hold.
//!
//! # The main target
//! "Each artillery battery must fire at the unit which is; 1) the closest infantry/
//! cavalry or artillery threat, i.e. - the closest combat base(s) occupying the closest
//! artillery range bracket to the battery (infantry and cavalry targets take priority
//! over artillery targets) and; 2) closest to the battery's Center of Fire ... (measure
//! from the centerline of each joint battery group to establish main target)."
//! [`main_target_order`] ranks valid targets by, in turn:
//! 1. combat units before packed skirmish markers (markers are not combat bases, so they
//!    are the main target only when no combat unit is a valid target);
//! 2. the closest range bracket;
//! 3. infantry and cavalry before artillery;
//! 4. the closest to the battery's centreline: the shortest distance from the unswung
//!    centre of fire (straight ahead from the middle of the frontage) to the part of the
//!    unit inside the arc ("measure from the centerline");
//! 5. then the shorter range, then table order.
//!
//! # The aim
//! The battery lays its centre of fire through the centre of the target's nearest base
//! (the base that sets its range: "the target base" of 000 §4.3); when that line is not
//! clear, or leaves the arc, through the clear swing nearest it whose centre of fire
//! still passes into the target; when no clear centre of fire reaches the target, the
//! clear swing nearest it whose zone holds part of the target ([`aim_at`]). Deep fire,
//! tandem and adjacent targets are measured along that aim.

use crate::artillery::battery::{Battery, Battlefield};
use crate::artillery::enfilade::{EnfiladeVerdict, enfilade};
use crate::artillery::firing_zone::{ClearSwings, blocked_swings, centre_of_fire_swings, relative_deg};
use crate::artillery::range::{range_bracket, segment_to_convex_mm, within_max_range};
use crate::base::Base;
use crate::sight::FullVisibility;
use crate::table::{BaseRef, Table, UnitKind};
use crate::ties::same_length;
use std::cmp::Ordering;
use std::collections::BTreeMap;

/// Fractions of a base's area at most this are "no part inside".
const NO_AREA: f64 = 1e-12;

/// A target's class in the 000 §4.5 priority.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TargetClass {
    /// Infantry or cavalry: first.
    InfantryOrCavalry,
    /// Artillery: after infantry and cavalry in the same bracket.
    Artillery,
    /// Packed skirmish markers: not combat bases, last.
    PackedSkirmishers,
}

impl TargetClass {
    /// The class of a unit kind, or `None` when artillery cannot fire on it.
    #[must_use]
    pub fn of(kind: UnitKind) -> Option<TargetClass> {
        match kind {
            UnitKind::Infantry | UnitKind::Cavalry => Some(TargetClass::InfantryOrCavalry),
            UnitKind::Artillery => Some(TargetClass::Artillery),
            UnitKind::Skirmisher => Some(TargetClass::PackedSkirmishers),
            _ => None,
        }
    }
}

/// One candidate target of a battery and the verdict of each test.
#[derive(Debug, Clone, PartialEq)]
pub struct TargetAssessment {
    /// The unit (index into the table).
    pub unit: usize,
    /// Its priority class.
    pub class: TargetClass,
    /// Its bases with part inside the arc within maximum range (for skirmishers, packed
    /// markers only), by index.
    pub bases: Vec<usize>,
    /// Range to the part of the unit inside the arc, mm.
    pub range_mm: f64,
    /// The range bracket (1 for 0-2", ...).
    pub bracket: u32,
    /// The base that sets the range.
    pub nearest_base: BaseRef,
    /// The largest fraction of one of its bases inside the arc (0 to 1).
    pub arc_fraction: f64,
    /// Half or more of one of its bases inside the arc.
    pub half_base_in_arc: bool,
    /// The battery sees at least one full base of it.
    pub line_of_sight: bool,
    /// The first base found wholly visible.
    pub seen_base: Option<BaseRef>,
    /// A clear firing zone can be laid on it.
    pub zone_clear: bool,
    /// The swing of the aim (see the module documentation), when the zone is clear.
    pub aim_swing_deg: Option<f64>,
    /// Shortest distance from the battery's centreline to its part inside the arc, mm.
    pub centre_offset_mm: f64,
    /// Whether fire on it would be in enfilade.
    pub enfilade: EnfiladeVerdict,
}

impl TargetAssessment {
    /// A valid target: half a base in the arc, in range, in sight, zone clear.
    #[must_use]
    pub fn is_valid(&self) -> bool {
        self.half_base_in_arc && self.line_of_sight && self.zone_clear
    }
}

/// The 000 §4.5 main-target priority between two targets (see the module
/// documentation): `Less` when `a` comes first.
#[must_use]
pub fn main_target_order(a: &TargetAssessment, b: &TargetAssessment) -> Ordering {
    let marker = |t: &TargetAssessment| t.class == TargetClass::PackedSkirmishers;
    marker(a)
        .cmp(&marker(b))
        .then(a.bracket.cmp(&b.bracket))
        .then(a.class.cmp(&b.class))
        .then(a.centre_offset_mm.total_cmp(&b.centre_offset_mm))
        .then(a.range_mm.total_cmp(&b.range_mm))
        .then(a.unit.cmp(&b.unit))
}

/// The main target among assessed targets: the first valid one in
/// [`main_target_order`]; `None` when no target is valid.
#[must_use]
pub fn main_target(targets: &[TargetAssessment]) -> Option<usize> {
    (0..targets.len())
        .filter(|&i| targets[i].is_valid())
        .min_by(|&i, &j| main_target_order(&targets[i], &targets[j]))
}

/// True when skirmish marker base `r` is packed: another skirmish marker of its side lies
/// closer than the skirmisher spacing (3"), edge to edge.
#[must_use]
pub fn is_packed_marker(field: &Battlefield<'_>, r: BaseRef) -> bool {
    let table = field.table;
    let side = &table.units[r.unit].side;
    let spacing = field.rules.skirmisher_spacing_mm;
    field.index.within_of_base(r, spacing).iter().any(|n| {
        let u = &table.units[n.base.unit];
        u.kind == UnitKind::Skirmisher
            && &u.side == side
            && n.closest.distance_mm < spacing - crate::artillery::range::BRACKET_TIE_MM
    })
}

/// Every candidate target of a battery, assessed, in table order. Limbered batteries
/// have none.
#[must_use]
pub fn assess_targets(
    field: &Battlefield<'_>,
    battery: &Battery,
    clear: &ClearSwings,
) -> Vec<TargetAssessment> {
    let (lo, hi) = battery.arc.bounding_box();
    assess_targets_among(field, battery, clear, &field.index.bases_in_box(lo, hi))
}

/// [`assess_targets`] among the bases `near` (those whose boxes meet the arc's box).
pub(crate) fn assess_targets_among(
    field: &Battlefield<'_>,
    battery: &Battery,
    clear: &ClearSwings,
    near: &[BaseRef],
) -> Vec<TargetAssessment> {
    if battery.limbered {
        return Vec::new();
    }
    let table = field.table;
    let mut per_unit: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for &r in near {
        let unit = &table.units[r.unit];
        if !field.index.are_enemies(battery.base_ref.unit, r.unit) {
            continue;
        }
        let Some(class) = TargetClass::of(unit.kind) else { continue };
        if class == TargetClass::PackedSkirmishers && !is_packed_marker(field, r) {
            continue;
        }
        per_unit.entry(r.unit).or_default().push(r.base);
    }
    per_unit
        .into_iter()
        .filter_map(|(unit, bases)| assess_candidate(field, battery, clear, unit, &bases))
        .collect()
}

fn assess_candidate(
    field: &Battlefield<'_>,
    battery: &Battery,
    clear: &ClearSwings,
    unit: usize,
    bases: &[usize],
) -> Option<TargetAssessment> {
    let table: &Table = field.table;
    let u = &table.units[unit];
    let class = TargetClass::of(u.kind)?;
    let arc = &battery.arc;
    let front = battery.frontage.edge;
    let centreline = battery.centreline();
    // (base, fraction inside, range to its part inside, centreline offset)
    let mut parts: Vec<(usize, f64, f64, f64)> = Vec::new();
    for &bi in bases {
        let b = &u.bases[bi];
        let fraction = arc.fraction_of_base_inside(b);
        if fraction <= NO_AREA {
            continue;
        }
        let part = arc.part_of_base_inside(b);
        let range = segment_to_convex_mm(&front, part.vertices());
        if !within_max_range(range, battery.max_range_mm) {
            continue;
        }
        parts.push((bi, fraction, range, segment_to_convex_mm(&centreline, part.vertices())));
    }
    // The nearest base; bases at the same range (within rounding, `same_length`) go by
    // their order in the unit, so that rounding where the table lies never picks one
    // (issue 41 item 2: the aim follows this base).
    let least = parts.iter().map(|p| p.2).fold(f64::INFINITY, f64::min);
    let &(nearest, _, _, _) = parts.iter().filter(|p| same_length(p.2, least)).min_by_key(|p| p.0)?;
    let range_mm = least;
    let arc_fraction = parts.iter().map(|p| p.1).fold(0.0, f64::max);
    let centre_offset_mm = parts.iter().map(|p| p.3).fold(f64::INFINITY, f64::min);
    let kept: Vec<usize> = parts.iter().map(|p| p.0).collect();

    // Line of sight: nearest bases first, stop at the first wholly visible one.
    let mut by_range = parts.clone();
    by_range.sort_by(|a, b| a.2.total_cmp(&b.2));
    // Bases at the same range (within rounding) by their order in the unit.
    let mut from = 0;
    while from < by_range.len() {
        let first = by_range[from].2;
        let to = from + by_range[from..].iter().take_while(|p| same_length(p.2, first)).count();
        by_range[from..to].sort_by_key(|p| p.0);
        from = to;
    }
    let eye = battery.eye();
    let seen_base = by_range.iter().map(|p| BaseRef::new(unit, p.0)).find(|&r| {
        field.line_of_sight.full_base_visible(table, battery.base_ref.unit, &eye, r)
            == FullVisibility::Visible
    });

    let aim_swing_deg = aim_at(battery, field.rules.zone_side_deg, clear, table, unit, &kept, nearest);
    Some(TargetAssessment {
        unit,
        class,
        bases: kept,
        range_mm,
        bracket: range_bracket(range_mm, field.rules.bracket_mm),
        nearest_base: BaseRef::new(unit, nearest),
        half_base_in_arc: arc_fraction >= 0.5 - crate::artillery::arc_of_fire::HALF_BASE_TOLERANCE,
        arc_fraction,
        line_of_sight: seen_base.is_some(),
        seen_base,
        zone_clear: aim_swing_deg.is_some(),
        aim_swing_deg,
        centre_offset_mm,
        enfilade: enfilade(u, &front, field.rules.arc_side_deg),
    })
}

/// The aim at a unit (see the module documentation): among the clear swings, the one
/// nearest the line through the centre of its base `nearest` whose centre of fire
/// passes into one of `bases`, or failing that whose zone (sides `zone_side_deg`) holds
/// part of one; `None` when no clear swing does either.
#[must_use]
pub fn aim_at(
    battery: &Battery,
    zone_side_deg: f64,
    clear: &ClearSwings,
    table: &Table,
    unit: usize,
    bases: &[usize],
    nearest: usize,
) -> Option<f64> {
    let u = table.units.get(unit)?;
    let chosen: Vec<Base> = bases.iter().filter_map(|&bi| u.bases.get(bi)).copied().collect();
    aim_among(battery, zone_side_deg, clear, &chosen, u.bases.get(nearest))
}

/// [`aim_at`] given the target's bases themselves (`chosen`) and the base whose centre
/// the aim starts from (`nearest`; straight ahead when `None`).
#[must_use]
pub(crate) fn aim_among(
    battery: &Battery,
    zone_side_deg: f64,
    clear: &ClearSwings,
    chosen: &[Base],
    nearest: Option<&Base>,
) -> Option<f64> {
    let m = battery.muzzle();
    let f = battery.forward();
    let desired = nearest.map_or(0.0, |b| relative_deg(f, b.centre() - m));
    let through: Vec<(f64, f64)> = chosen.iter().filter_map(|b| centre_of_fire_swings(m, f, b)).collect();
    clear.closest_within(&through, desired).or_else(|| {
        // The swings at which the zone holds part of a base are those at which the base
        // would block it, were it an obstacle.
        let edge = battery.frontage.edge;
        let holding: Vec<(f64, f64)> = chosen
            .iter()
            .filter_map(|b| blocked_swings(&edge, f, zone_side_deg, battery.max_range_mm, &b.polygon()))
            .collect();
        clear.closest_within(&holding, desired)
    })
}
