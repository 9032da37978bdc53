//! Republic's advanced rules that measure the table (seed 003): alert infantry's 4"
//! zone (201), the reach of a bluff assault on skirmish markers (301), and the others
//! below.
//!
//! - 201 "Alert Infantry": "if any enemy unit moves into, through or across the alert
//!   unit's 4" assault zone, the alert unit may immediately conduct a pro-rated reaction
//!   move". The zone is the assault zone construction of 000 §5.1 (ahead of each front
//!   base's full front edge, sides flaring 5°) made 4" deep
//!   ([`RuleDistance::AlertZone`]). A unit is alert when an `alert` marker names it.
//!   The table is a snapshot: the report lists the enemy units inside the zone now.
//! - 301 "Dispersing Skirmishers": "Bluffing infantry must move to within 1" of the
//!   nearest targeted skirmish markers, and bluffing cavalry must move to within 3" of
//!   the closest targeted skirmish marker ... the targeted skirmishers must be in the
//!   open." Listed: each infantry or cavalry unit with the enemy skirmish markers in the
//!   open within its bluff reach ([`RuleDistance::BluffInfantry`],
//!   [`RuleDistance::BluffCavalry`]). Reading: "in the open" is no part of the marker
//!   inside a covering terrain area. Troop grades and morale hits, which the text also
//!   asks, are not in the table.
//! - 102 B (grand-tactical inexperience): "Any unit moving to support a friendly unit
//!   that has already moved into assault range against an enemy formation must roll ...
//!   once they approach to within 1" to the rear of the friendly unit." Listed: each
//!   friendly unit within 1" ([`RuleDistance::SupportBehind`]) of a unit that is in
//!   assault range of an enemy (an attacker of some contact, 000 §5.1), with some part
//!   in that unit's rear zone (behind it, between its rear lines, as the assault aspect
//!   measures it). Which sides are inexperienced is the players' agreement; the table
//!   marks only 102 C.
//! - 106 "Sharpshooters": "The sharpshooter base extends the range of the Enemy
//!   Skirmish Marker modifier for the Hors de Combat table from 4" to 6" ... The effect
//!   only applies to leader bases within the extended range of the sharpshooter marker
//!   base". Listed: each leader with the enemy skirmish markers within 4"
//!   ([`RuleDistance::SkirmisherHorsDeCombat`]), or 6" for a marker unit a
//!   `sharpshooter` marker names ([`RuleDistance::SharpshooterHorsDeCombat`]); closed.
//! - 308 "Lost in the woods": "Green or untrained brigades moving within wooded terrain
//!   more than 4" from other friendly formations (of any type) must pass a Maneuver die
//!   roll". Listed: every combat unit with a base in a wood (forest of any density or
//!   orchard) and no other friendly combat unit within 4" ([`RuleDistance::GreenInWoods`];
//!   exactly 4" is not more). Readings: "formations" are combat units (not skirmish
//!   markers or leaders); the troop grade is not in a table, so the players apply the
//!   list to their green and untrained brigades.

//! - 303 "Road Movement": "the unit must be in a road column and must be lined up on a
//!   road. Movement while on the road in road-column is doubled." Listed: every road
//!   column with the road it is lined up on, if any ([`road_under`]). Reading: lined up
//!   on a road is every base with the road (a `road` line) running through it from its
//!   front edge to its rear edge. What it does to a move is `vedette move`'s
//!   ([`crate::movement::ground`]: the parts of the path on the road cost half).
//! - 305 "Artillery Deployment Shadows" needs the cavalry's move: `vedette move`
//!   answers it ([`crate::movement::shadow`]).

use crate::assault::cover::base_cover;
use crate::assault::zone::AssaultZone;
use crate::base::Base;
use crate::error::GeometryError;
use crate::index::SpatialIndex;
use crate::rules::{RuleAngle, RuleBook, RuleDistance, RuleSet};
use crate::table::{MarkerKind, Table, Unit, UnitKind};
use crate::terrain::TerrainKind;
use crate::ties::within;
use std::collections::BTreeMap;

/// True when an `alert` marker names unit `unit` (003 201).
#[must_use]
pub fn is_alert(table: &Table, unit: usize) -> bool {
    table.units.get(unit).is_some_and(|u| {
        table.markers.iter().any(|m| m.kind == MarkerKind::Alert && m.unit.as_deref() == Some(u.id.as_str()))
    })
}

/// The 4" alert zones of a unit (003 201): the assault zone of each front base made 4"
/// deep, with the base's index.
pub fn alert_zones(u: &Unit, book: &RuleBook) -> Result<Vec<(usize, AssaultZone)>, GeometryError> {
    let depth = book.distance_mm(RuleDistance::AlertZone)?;
    let flare = book.angle_deg(RuleAngle::AssaultZoneFlare)?;
    Ok(u.front_bases().into_iter().map(|i| (i, AssaultZone::ahead_of(&u.bases[i], depth, flare))).collect())
}

/// Everything Republic's advanced rules measure on a table (the report's `republic`
/// section).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RepublicAssessment {
    /// Each alert infantry unit with the enemies in its alert zone (unit → mm).
    pub alert: Vec<(usize, BTreeMap<usize, f64>)>,
    /// Bluff assaults that reach.
    pub bluff: Vec<BluffReach>,
    /// Leaders with enemy skirmish markers near.
    pub markers_near_leaders: Vec<MarkerNearLeader>,
    /// Units within 1" behind a unit in assault range.
    pub support_behind: Vec<SupportBehind>,
    /// Combat units lost in the woods.
    pub lost_in_woods: Vec<usize>,
    /// Every road column with the road it is lined up on (003 303).
    pub road_columns: Vec<RoadColumn>,
}

/// A road column and the road it is lined up on (003 303).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RoadColumn {
    /// The unit's index.
    pub unit: usize,
    /// The road (index in `terrain`) every base is lined up on; `None`: not on a road,
    /// no road movement.
    pub road: Option<usize>,
}

/// The first road (index in `table.terrain`) that every one of `bases` is lined up on:
/// the road line runs through each base from its front edge to its rear edge (003 303).
#[must_use]
pub fn road_under(table: &Table, bases: &[Base]) -> Option<usize> {
    if bases.is_empty() {
        return None;
    }
    table.terrain.iter().position(|f| {
        f.kind == TerrainKind::Road
            && f.path.len() >= 2
            && bases.iter().all(|b| crate::movement::sweep::line_runs_through_lengthwise(b, &f.path))
    })
}

/// Every road column on the table with the road it is lined up on (003 303).
#[must_use]
pub fn road_columns(table: &Table) -> Vec<RoadColumn> {
    table
        .units
        .iter()
        .enumerate()
        .filter(|(_, u)| u.formation == Some(crate::table::Formation::RoadColumn))
        .map(|(i, u)| RoadColumn { unit: i, road: road_under(table, &u.bases) })
        .collect()
}

/// Republic's advanced rules over a table (see the module docs).
pub fn assess_republic(
    table: &Table,
    index: &SpatialIndex,
    book: &RuleBook,
) -> Result<RepublicAssessment, GeometryError> {
    let mut alert = Vec::new();
    for (i, u) in table.units.iter().enumerate() {
        if u.kind == UnitKind::Infantry && is_alert(table, i) {
            alert.push((i, alert_zone(table, index, book, i)?));
        }
    }
    Ok(RepublicAssessment {
        alert,
        bluff: bluff_reach(table, index, book)?,
        markers_near_leaders: markers_near_leaders(table, index, book)?,
        support_behind: support_behind(table, index, book)?,
        lost_in_woods: lost_in_woods(table, index, book)?,
        road_columns: road_columns(table),
    })
}

/// Republic's advanced rules over a table played with Republic; `None` under other rule
/// sets.
pub fn assess_republic_if_played(
    table: &Table,
    index: &SpatialIndex,
    book: &RuleBook,
) -> Result<Option<RepublicAssessment>, GeometryError> {
    if book.rules() != RuleSet::Republic {
        return Ok(None);
    }
    assess_republic(table, index, book).map(Some)
}

/// Enemy units inside the 4" alert zone of infantry unit `unit` (003 201), with their
/// closest distance to a front base whose zone they enter, mm; empty for a unit that is
/// not infantry. Whether the unit is alert is [`is_alert`]'s question.
pub fn alert_zone(
    table: &Table,
    index: &SpatialIndex,
    book: &RuleBook,
    unit: usize,
) -> Result<BTreeMap<usize, f64>, GeometryError> {
    let mut out = BTreeMap::new();
    let Some(u) = table.units.get(unit) else { return Ok(out) };
    if u.kind != UnitKind::Infantry {
        return Ok(out);
    }
    let depth = book.distance_mm(RuleDistance::AlertZone)?;
    let flare = book.angle_deg(RuleAngle::AssaultZoneFlare)?;
    let zones = alert_zones(u, book)?;
    // The zone's far corners lie within depth / cos(flare) of the front edge.
    let reach = depth / flare.to_radians().cos() + 1.0;
    for n in index.within_of_unit(unit, reach) {
        let e = &table.units[n.base.unit];
        if !index.are_enemies(unit, n.base.unit) || !(e.is_combat() || e.kind == UnitKind::Skirmisher) {
            continue;
        }
        let Some(b) = table.base(n.base) else { continue };
        for (i, z) in &zones {
            if z.reaches(b) {
                let d = u.bases[*i].closest_points(b).distance_mm;
                let e = out.entry(n.base.unit).or_insert(f64::INFINITY);
                *e = f64::min(*e, d);
            }
        }
    }
    Ok(out)
}

/// One bluff assault that reaches: a unit and an enemy skirmish marker in the open
/// within its reach (003 301).
#[derive(Debug, Clone, PartialEq)]
pub struct BluffReach {
    /// The bluffing unit (infantry or cavalry).
    pub unit: usize,
    /// The skirmish marker unit.
    pub marker: usize,
    /// Closest distance, mm.
    pub distance_mm: f64,
}

/// Every infantry or cavalry unit within bluff reach (1" infantry, 3" cavalry) of an
/// enemy skirmish marker standing in the open (003 301), by unit then marker.
pub fn bluff_reach(
    table: &Table,
    index: &SpatialIndex,
    book: &RuleBook,
) -> Result<Vec<BluffReach>, GeometryError> {
    let infantry = book.distance_mm(RuleDistance::BluffInfantry)?;
    let cavalry = book.distance_mm(RuleDistance::BluffCavalry)?;
    let mut out = Vec::new();
    for (ui, u) in table.units.iter().enumerate() {
        let reach = match u.kind {
            UnitKind::Infantry => infantry,
            UnitKind::Cavalry => cavalry,
            _ => continue,
        };
        let near = index.units_within_of_unit(ui, reach + 1.0, |m| {
            table.units[m].kind == UnitKind::Skirmisher && index.are_enemies(ui, m)
        });
        for (marker, distance_mm) in near.into_iter().filter(|&(_, d)| within(d, reach)) {
            let open = table.units[marker].bases.iter().try_fold(true, |open, b| {
                Ok::<bool, GeometryError>(
                    open && base_cover(b, &table.terrain, book)?
                        .iter()
                        .all(|s| table.terrain[s.terrain].kind.is_linear()),
                )
            })?;
            if open {
                out.push(BluffReach { unit: ui, marker, distance_mm });
            }
        }
    }
    Ok(out)
}

/// True for wooded terrain (003 308): forests of any density and orchards.
fn is_wooded(kind: TerrainKind) -> bool {
    matches!(
        kind,
        TerrainKind::LightForest
            | TerrainKind::MediumForest
            | TerrainKind::HeavyForest
            | TerrainKind::Orchard
    )
}

/// Combat units in a wood with no other friendly combat unit within 4" (003 308), in
/// table order.
pub fn lost_in_woods(
    table: &Table,
    index: &SpatialIndex,
    book: &RuleBook,
) -> Result<Vec<usize>, GeometryError> {
    let reach = book.distance_mm(RuleDistance::GreenInWoods)?;
    let woods: Vec<_> = table
        .terrain
        .iter()
        .filter(|t| is_wooded(t.kind) && t.outline.len() >= 3)
        .map(|t| t.polygon())
        .collect();
    let mut out = Vec::new();
    for (ui, u) in table.units.iter().enumerate() {
        if !u.is_combat() {
            continue;
        }
        let in_wood = u.bases.iter().any(|b| {
            let poly = b.polygon();
            woods.iter().any(|w| w.area_inside(&poly) > 0.0)
        });
        if !in_wood {
            continue;
        }
        let friend_near = index.within_of_unit(ui, reach).into_iter().any(|n| {
            let f = &table.units[n.base.unit];
            f.side == u.side && f.is_combat() && within(n.closest.distance_mm, reach)
        });
        if !friend_near {
            out.push(ui);
        }
    }
    Ok(out)
}

/// A unit within 1" to the rear of a friend in assault range (003 102 B).
#[derive(Debug, Clone, PartialEq)]
pub struct SupportBehind {
    /// The unit in assault range.
    pub supported: usize,
    /// The friendly unit behind it.
    pub supporter: usize,
    /// Closest distance between them, mm.
    pub distance_mm: f64,
}

/// Every friendly unit within 1" to the rear of a unit in assault range (003 102 B), by
/// supported then supporter index.
pub fn support_behind(
    table: &Table,
    index: &SpatialIndex,
    book: &RuleBook,
) -> Result<Vec<SupportBehind>, GeometryError> {
    let reach = book.distance_mm(RuleDistance::SupportBehind)?;
    let mut attacking: Vec<usize> =
        crate::assault::contact::assault_contacts(table, index, book)?.iter().map(|c| c.attacker).collect();
    attacking.sort_unstable();
    attacking.dedup();
    let mut out = Vec::new();
    for a in attacking {
        let u = &table.units[a];
        let Some(lines) = crate::assault::flank::FlankGeometry::of(&u.bases) else { continue };
        let mut best: BTreeMap<usize, f64> = BTreeMap::new();
        for n in index.within_of_unit(a, reach + 1.0) {
            let f = &table.units[n.base.unit];
            if f.side != u.side || !f.is_combat() || !within(n.closest.distance_mm, reach) {
                continue;
            }
            let Some(b) = table.base(n.base) else { continue };
            if lines.reaches_rear_zone(b) {
                let e = best.entry(n.base.unit).or_insert(f64::INFINITY);
                *e = e.min(n.closest.distance_mm);
            }
        }
        out.extend(best.into_iter().map(|(s, d)| SupportBehind {
            supported: a,
            supporter: s,
            distance_mm: d,
        }));
    }
    Ok(out)
}

/// An enemy skirmish marker within hors de combat reach of a leader (003 106).
#[derive(Debug, Clone, PartialEq)]
pub struct MarkerNearLeader {
    /// The leader.
    pub leader: usize,
    /// The skirmish marker unit.
    pub marker: usize,
    /// Closest distance, mm.
    pub distance_mm: f64,
    /// The marker is its side's sharpshooter (reach 6" instead of 4").
    pub sharpshooter: bool,
}

/// True when a `sharpshooter` marker names unit `unit` (003 106).
#[must_use]
pub fn is_sharpshooter(table: &Table, unit: usize) -> bool {
    table.units.get(unit).is_some_and(|u| {
        table
            .markers
            .iter()
            .any(|m| m.kind == MarkerKind::Sharpshooter && m.unit.as_deref() == Some(u.id.as_str()))
    })
}

/// Every leader with enemy skirmish markers within the Enemy Skirmish Marker reach of
/// the hors de combat table (4", 6" for a sharpshooter; 003 106), by leader then marker.
pub fn markers_near_leaders(
    table: &Table,
    index: &SpatialIndex,
    book: &RuleBook,
) -> Result<Vec<MarkerNearLeader>, GeometryError> {
    let normal = book.distance_mm(RuleDistance::SkirmisherHorsDeCombat)?;
    let sharp = book.distance_mm(RuleDistance::SharpshooterHorsDeCombat)?;
    let mut out = Vec::new();
    for li in (0..table.units.len()).filter(|&i| table.units[i].kind == UnitKind::Leader) {
        let near = index.units_within_of_unit(li, normal.max(sharp) + 1.0, |m| {
            table.units[m].kind == UnitKind::Skirmisher && index.are_enemies(li, m)
        });
        for (m, d) in near {
            let sharpshooter = is_sharpshooter(table, m);
            if within(d, if sharpshooter { sharp } else { normal }) {
                out.push(MarkerNearLeader { leader: li, marker: m, distance_mm: d, sharpshooter });
            }
        }
    }
    Ok(out)
}
