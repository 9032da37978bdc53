//! The command assessment of a whole table, for its rule set: divisions and corps with
//! their deployment areas and assets, divisions together and adjoining, leaders' reaches,
//! cavalry reaction and pass-through zones. The report prints this.
//!
//! - Republique 5.0 and Republic: per division its leader, primary units, deployment area
//!   (000 §2.1) and the assets that must stand inside it (attached units and artillery),
//!   the nearest enemy within engagement range (8", §3.3), the corps leader beyond 12"
//!   (§3.3), the rally penalty of each combat unit (§2.3); per corps its area and corps
//!   assets (attached, no division); divisions within 6" act together (§3.3) and adjoin
//!   within 3" when their closest units see each other (§6.2, "or within line of sight,
//!   whichever is less"); leaders' 3" (§4.7, §5.4) and corps or army leaders' 4" (§2.3) reaches;
//!   cavalry reaction (§3.6) and pass-through (§5.5).
//! - Classic Republique: divisions adjoining within 8 cm with their closest units in
//!   sight of each other (002 §5.2) and leaders' 8 cm
//!   emergency rally and injury reach (001 §4.5, §4.6).
//! - Pro Patria: nothing here (its command radius is in [`crate::pro_patria::command`]).

use super::deployment::{
    AreaIndex, DeploymentArea, MarkersByParent, corps_area_with, division_area_of, primary_units_with,
    units_by_division,
};
use super::divisions::{DivisionGap, division_gaps, nearest_enemies_of_divisions};
use super::leaders::{
    LeaderScope, commanded_units_among, division_and_corps_leaders, division_leader, rally_penalty,
    rally_step_boundary_mm, units_within_reach,
};
use super::pass_through::{pass_through_reach_mm, pass_through_within};
use super::reaction::reaction_zone_sighted;
use crate::close_call::{CloseCall, Party, distance_call, near_band_mm, unit_distance_call};
use crate::error::GeometryError;
use crate::index::SpatialIndex;
use crate::los::crew::Crew;
use crate::los::local_calls::unit_sight_call;
use crate::los::{Eye, FieldOfView, SightRules, TerrainSight};
use crate::rules::{RuleBook, RuleDistance, RuleSet};
use crate::segment::ClosestPoints;
use crate::table::{BaseRef, LeaderRole, Table, Unit, UnitKind};
use crate::ties::within;
use crate::unit_structure::UnitClosest;
use std::collections::{BTreeMap, BTreeSet};

/// A unit that must stand inside a deployment area, and whether it does.
#[derive(Debug, Clone, PartialEq)]
pub struct AssetFinding {
    /// The unit's index.
    pub unit: usize,
    /// Wholly inside the area.
    pub inside: bool,
    /// The share of its bases' area inside (0 to 1).
    pub fraction_inside: f64,
    /// The close call of `inside`: wholly inside, its base nearest the area's boundary
    /// and its distance to it; not, its base farthest out and how far its farthest corner
    /// lies outside (every base must come in: a lower bound). The area's own uncertainty
    /// (the primary units that draw it) is not carried. `None` without an area.
    pub call: Option<CloseCall>,
}

/// A combat unit's distance from its division leader and its rally penalty (000 §2.3).
#[derive(Debug, Clone, PartialEq)]
pub struct RallyFinding {
    /// The unit's index.
    pub unit: usize,
    /// Closest distance to the leader, mm.
    pub leader_distance_mm: f64,
    /// Rally penalty steps (one per 4" beyond 4").
    pub penalty: u32,
    /// The penalty step boundary nearest the distance (8", 12"...), mm.
    pub boundary_mm: f64,
    /// The distance's close call against that boundary.
    pub call: CloseCall,
}

/// A unit's distance verdict against a reach (a leader's, a zone's): inside, or just
/// outside and too close to call, with its close call (`crate::close_call`).
#[derive(Debug, Clone, PartialEq)]
pub struct UnitCall {
    /// The unit's index.
    pub unit: usize,
    /// Its distance, mm (closest points; for the cavalry reaction zone, of its part ahead
    /// of the flank line).
    pub distance_mm: f64,
    /// Within the reach.
    pub inside: bool,
    /// The distance against the reach.
    pub call: CloseCall,
    /// For the cavalry reaction zone, whose enemies count only when seen (000 §3.6):
    /// the sight verdict and its close call.
    pub sight: Option<SightCall>,
}

/// A sight verdict and its close call ([`crate::los::local_calls`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SightCall {
    /// Seen.
    pub seen: bool,
    /// How far every base must move against it to flip it.
    pub call: CloseCall,
}

/// One division.
#[derive(Debug, Clone, PartialEq)]
pub struct DivisionFinding {
    /// The division's name.
    pub name: String,
    /// Its side (that of its first unit).
    pub side: String,
    /// Its leader's unit index.
    pub leader: Option<usize>,
    /// Its corps.
    pub corps: Option<String>,
    /// Its primary units (those that draw the deployment area).
    pub primary_units: Vec<usize>,
    /// Its deployment area's size, mm² (`None` without primary units).
    pub area_mm2: Option<f64>,
    /// Its deployment area (000 §2.1), as drawn and as the assets are tested against.
    pub area: Option<DeploymentArea>,
    /// Attached units and artillery, which must stand inside the area.
    pub assets: Vec<AssetFinding>,
    /// The nearest enemy within engagement range, mm.
    pub nearest_enemy_mm: Option<f64>,
    /// The division's unit and the enemy unit that are nearest each other (unit indices),
    /// when an enemy is within engagement range.
    pub nearest_enemy_units: Option<(usize, usize)>,
    /// The nearest enemy's distance against engagement range (8"): present when an enemy
    /// is within it, or just outside it and too close to call; with the limit, mm.
    pub engagement_call: Option<(f64, CloseCall)>,
    /// The corps leader's distance from the division leader, mm.
    pub corps_leader_distance_mm: Option<f64>,
    /// The corps leader is beyond 12" (000 §3.3, a maneuver modifier).
    pub corps_leader_beyond: bool,
    /// The corps leader's distance against 12", with the limit, mm.
    pub corps_leader_call: Option<(f64, CloseCall)>,
    /// Each combat unit the leader commands: distance and rally penalty.
    pub rally: Vec<RallyFinding>,
}

impl DivisionFinding {
    /// Within engagement range of the enemy (000 §3.3: 8"): some enemy unit is within
    /// it.
    #[must_use]
    pub fn engaged(&self) -> bool {
        self.nearest_enemy_mm.is_some()
    }
}

/// One corps.
#[derive(Debug, Clone, PartialEq)]
pub struct CorpsFinding {
    /// The corps' name.
    pub name: String,
    /// Its deployment area's size, mm².
    pub area_mm2: Option<f64>,
    /// Its deployment area (000 §2.1).
    pub area: Option<DeploymentArea>,
    /// Corps assets (attached units of no division), which must stand inside.
    pub assets: Vec<AssetFinding>,
}

/// Two divisions close to each other.
#[derive(Debug, Clone, PartialEq)]
pub struct DivisionPairFinding {
    /// The first division (alphabetically).
    pub a: String,
    /// The second.
    pub b: String,
    /// Closest point to closest point, mm.
    pub distance_mm: f64,
    /// Within 6": they act together (R5 family, 000 §3.3).
    pub together: bool,
    /// Adjoining: within 3" (R5 family, 000 §6.2) or 8 cm (classic, 002 §5.2), and the
    /// closest units see each other.
    pub adjoining: bool,
    /// The distance against 6" (R5 family; `None` for classic), with the limit, mm.
    pub together_call: Option<(f64, CloseCall)>,
    /// The distance against the adjoining distance, with the limit, mm.
    pub adjoining_call: Option<(f64, CloseCall)>,
    /// The closest units: one of division `a`, one of division `b` (unit indices), whose
    /// closest points the distance is measured between ([`DivisionPairFinding::line`]).
    pub units: (usize, usize),
}

impl DivisionPairFinding {
    /// The line the two divisions are measured along (000 §3.3, §6.2: "the closest
    /// points of their closest units"): the closest points of [`Self::units`], from
    /// division `a`'s unit to division `b`'s, with their bases; `None` if either unit is
    /// missing from `table` or has no bases.
    #[must_use]
    pub fn line(&self, table: &Table) -> Option<UnitClosest> {
        table.units.get(self.units.0)?.closest_to(table.units.get(self.units.1)?)
    }
}

/// The friendly units within one of a leader's reaches.
#[derive(Debug, Clone, PartialEq)]
pub struct LeaderReachFinding {
    /// The rule, with its sections.
    pub rule: &'static str,
    /// The reach, mm.
    pub reach_mm: f64,
    /// The units within it.
    pub units: Vec<usize>,
    /// Each unit within it and each just outside it that is too close to call.
    pub calls: Vec<UnitCall>,
}

/// One leader's reaches.
#[derive(Debug, Clone, PartialEq)]
pub struct LeaderFinding {
    /// The leader's unit index.
    pub leader: usize,
    /// Each reach that applies to this leader.
    pub reaches: Vec<LeaderReachFinding>,
}

/// A zone around one unit and the units in it (cavalry reaction, pass-through).
#[derive(Debug, Clone, PartialEq)]
pub struct ZoneFinding {
    /// The unit whose zone it is.
    pub unit: usize,
    /// The zone's reach, mm.
    pub reach_mm: f64,
    /// The units in it, with their distance, mm.
    pub units: BTreeMap<usize, f64>,
    /// Each unit in it and each just outside its reach that is too close to call (the
    /// distance only: the flank and rear lines that bound the zone are not carried).
    pub calls: Vec<UnitCall>,
}

/// Everything the command rules measure on one table.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct CommandAssessment {
    /// Divisions, by name.
    pub divisions: Vec<DivisionFinding>,
    /// Corps, by name.
    pub corps: Vec<CorpsFinding>,
    /// Divisions close to each other.
    pub division_pairs: Vec<DivisionPairFinding>,
    /// Every leader's reaches.
    pub leaders: Vec<LeaderFinding>,
    /// Cavalry with enemies in its reaction zone.
    pub cavalry_reaction: Vec<ZoneFinding>,
    /// Units with units in their pass-through zone.
    pub pass_through: Vec<ZoneFinding>,
}

/// A division asset: attached units and artillery of the division (000 §2.1: they
/// operate inside the area without drawing it); leaders are not assets.
#[must_use]
pub fn is_division_asset(u: &Unit) -> bool {
    (u.attached || u.kind == UnitKind::Artillery) && u.kind != UnitKind::Leader
}

/// A corps asset of `corps`: an attached unit of the corps that belongs to no division.
#[must_use]
pub fn is_corps_asset(u: &Unit, corps: &str) -> bool {
    u.corps.as_deref() == Some(corps) && u.division.is_none() && u.attached
}

/// Unit `ui`'s finding against its area (indexed once for all its assets).
fn asset(table: &Table, area: Option<&AreaIndex<'_>>, ui: usize, u: &Unit) -> AssetFinding {
    // Each base's fraction inside, once: the share, the verdict and the margins use it.
    let fractions: Vec<f64> =
        area.map_or(Vec::new(), |a| u.bases.iter().map(|b| a.fraction_of_base(b)).collect());
    let fraction_inside = area.map_or(0.0, |_| {
        u.bases.iter().zip(&fractions).map(|(b, f)| f * b.area()).sum::<f64>()
            / u.bases.iter().map(|b| b.area()).sum::<f64>()
    });
    let inside = area.is_some() && fractions.iter().all(|&f| DeploymentArea::wholly(f));
    let call = area.and_then(|a| {
        let margins = u
            .bases
            .iter()
            .zip(&fractions)
            .enumerate()
            .map(|(i, (b, &f))| (i, a.base_margin_mm_known(b, DeploymentArea::wholly(f))));
        let (i, m) = if inside {
            margins.min_by(|x, y| x.1.total_cmp(&y.1))?
        } else {
            margins.min_by(|x, y| x.1.total_cmp(&y.1)).map(|(i, m)| (i, -m))?
        };
        let r = BaseRef::new(ui, i);
        let parties: Vec<Party> = table.base(r).map(|b| Party::anywhere(r, b, None)).into_iter().collect();
        Some(CloseCall::new(table, m, &parties))
    });
    AssetFinding { unit: ui, inside, fraction_inside, call }
}

/// The closest bases of units `a` and `b`, as [`unit_distance_call`] measures them;
/// `None` when either is missing or has no bases.
fn closest_units(t: &Table, a: usize, b: usize) -> Option<UnitClosest> {
    t.units.get(a)?.closest_to(t.units.get(b)?)
}

/// [`unit_distance_call`]'s close call of units `a` and `b` (closest bases `c`,
/// [`closest_units`]) against `limit_mm`.
fn closest_call(t: &Table, (a, b): (usize, usize), c: &UnitClosest, limit_mm: f64) -> CloseCall {
    distance_call(t, BaseRef::new(a, c.from_base), BaseRef::new(b, c.to_base), &c.closest, limit_mm)
}

/// What the per-division loop of [`assess_command`] reads for every division.
struct DivisionContext<'a> {
    by_division: &'a BTreeMap<&'a str, Vec<usize>>,
    markers: &'a MarkersByParent<'a>,
    enemies: &'a BTreeMap<String, (f64, (usize, usize))>,
    engage: f64,
    corps_reach: f64,
}

/// One division's finding (R5 family): its primary units and deployment area, the
/// assets in it, its leader's rally distances, its corps leader's distance and its
/// nearest enemy.
fn division_finding(
    t: &Table,
    book: &RuleBook,
    cx: &DivisionContext<'_>,
    d: &str,
) -> Result<DivisionFinding, GeometryError> {
    let members: &[usize] = cx.by_division.get(d).map_or(&[], Vec::as_slice);
    let primary = primary_units_with(t, d, members.iter().copied(), cx.markers);
    let area = division_area_of(t, d, &primary, book)?;
    let leader = division_leader(t, d);
    let index = area.as_ref().map(DeploymentArea::index);
    let assets = members
        .iter()
        .filter(|&&i| is_division_asset(&t.units[i]))
        .map(|&i| asset(t, index.as_ref(), i, &t.units[i]))
        .collect();
    drop(index);
    let leaders = division_and_corps_leaders(t, d);
    let corps = leaders.and_then(|(l, c)| unit_distance_call(t, l, c, cx.corps_reach));
    let corps_leader_mm = corps.map(|(mm, _)| mm);
    let corps_leader_call = corps.map(|(_, c)| (cx.corps_reach, c));
    let mut rally = Vec::new();
    if let Some(l) = leader {
        // A division leader commands among its division's units.
        let commanded = commanded_units_among(t, l, members.iter().copied());
        for u in commanded.into_iter().filter(|&u| t.units[u].is_combat()) {
            // The closest bases once, for the distance and its call.
            if let Some(c) = closest_units(t, l, u) {
                let dmm = c.closest.distance_mm;
                let boundary_mm = rally_step_boundary_mm(dmm, book)?;
                let call = closest_call(t, (l, u), &c, boundary_mm);
                rally.push(RallyFinding {
                    unit: u,
                    leader_distance_mm: dmm,
                    penalty: rally_penalty(dmm, book)?,
                    boundary_mm,
                    call,
                });
            }
        }
    }
    let engage = cx.engage;
    let enemy = cx.enemies.get(d).copied();
    Ok(DivisionFinding {
        side: members.first().map(|&i| t.units[i].side.clone()).unwrap_or_default(),
        leader,
        corps: members.iter().find_map(|&i| t.units[i].corps.clone()),
        primary_units: primary,
        area_mm2: area.as_ref().map(DeploymentArea::area_mm2),
        area,
        assets,
        nearest_enemy_mm: enemy.map(|(mm, _)| mm).filter(|&mm| within(mm, engage)),
        nearest_enemy_units: enemy.filter(|&(mm, _)| within(mm, engage)).map(|(_, pair)| pair),
        engagement_call: enemy
            .and_then(|(_, (own, foe))| unit_distance_call(t, own, foe, engage))
            .map(|(_, c)| (engage, c)),
        corps_leader_distance_mm: corps_leader_mm,
        corps_leader_beyond: corps_leader_mm.is_some_and(|mm| !within(mm, cx.corps_reach)),
        corps_leader_call,
        rally,
        name: d.to_string(),
    })
}

fn names<'a>(it: impl Iterator<Item = &'a str>) -> Vec<String> {
    it.collect::<BTreeSet<_>>().into_iter().map(str::to_string).collect()
}

/// Pairs of friendly divisions: together within `together_mm` (R5 family; `None` for
/// classic), adjoining within `adjoining_mm` when their closest units see each other
/// (000 §6.2, 002 §5.2: "or within line of sight, whichever is less"). A pair is listed
/// when within the larger of the two, or just beyond it and too close to call (`band`).
fn division_pairs(
    t: &Table,
    index: &SpatialIndex,
    book: &RuleBook,
    band: f64,
    together_mm: Option<f64>,
    adjoining_mm: f64,
) -> Result<Vec<DivisionPairFinding>, GeometryError> {
    let outer = together_mm.unwrap_or(adjoining_mm);
    // Each gap's closest bases measured once for all its calls (as `unit_distance_call`
    // measures them for each).
    let call = |g: &DivisionGap, c: &UnitClosest, limit: f64| (limit, closest_call(t, g.units, c, limit));
    let gaps: Vec<(DivisionGap, Option<UnitClosest>)> = division_gaps(t, index, outer + band)
        .into_iter()
        .map(|g| {
            let c = closest_units(t, g.units.0, g.units.1);
            (g, c)
        })
        .filter(|(g, c)| {
            within(g.distance_mm, outer) || c.as_ref().is_some_and(|c| !call(g, c, outer).1.certain())
        })
        .collect();
    // Sight between the closest units of the pairs within the adjoining distance, on
    // every core (each is a whole line-of-sight verdict).
    let sighted: Vec<usize> =
        (0..gaps.len()).filter(|&i| within(gaps[i].0.distance_mm, adjoining_mm)).collect();
    let mut seen = vec![false; gaps.len()];
    if !sighted.is_empty() {
        let sight = units_sight(index, book)?;
        let verdicts = Crew::map(0, sighted.len(), |k| {
            let (a, b) = gaps[sighted[k]].0.units;
            sight.unit_verdict(a, b).visible
        });
        for (&i, v) in sighted.iter().zip(verdicts) {
            seen[i] = v;
        }
    }
    Ok(gaps
        .into_iter()
        .zip(seen)
        .map(|((g, c), seen)| DivisionPairFinding {
            together: together_mm.is_some_and(|l| within(g.distance_mm, l)),
            adjoining: within(g.distance_mm, adjoining_mm) && seen,
            together_call: together_mm.and_then(|l| c.as_ref().map(|c| call(&g, c, l))),
            adjoining_call: c.as_ref().map(|c| call(&g, c, adjoining_mm)),
            distance_mm: g.distance_mm,
            units: g.units,
            a: g.a,
            b: g.b,
        })
        .collect())
}

/// A zone's finding from the units found within its reach and the near band beyond it
/// (unit → distance, deciding base): the units within the reach, and a close call for
/// each of them and for each unit outside that is too close to call; `None` when
/// neither.
fn zone_finding(
    table: &Table,
    unit: usize,
    reach_mm: f64,
    near: &BTreeMap<usize, (f64, BaseRef)>,
) -> Option<ZoneFinding> {
    let mut units = BTreeMap::new();
    let mut calls = Vec::new();
    for (&u, &(d, base)) in near {
        let inside = within(d, reach_mm);
        let call = zone_call(table, unit, base, d, reach_mm);
        if inside {
            units.insert(u, d);
        }
        if inside || !call.certain() {
            calls.push(UnitCall { unit: u, distance_mm: d, inside, call, sight: None });
        }
    }
    (!calls.is_empty()).then_some(ZoneFinding { unit, reach_mm, units, calls })
}

/// The cavalry reaction zone's finding (000 §3.6): [`zone_finding`] over the enemies
/// the cavalry sees, each with its sight's close call; and, where bases carry
/// uncertainties (`band > 0`), every enemy within the reach that it does not see but
/// too close to call (listed in `calls` with `seen: false`, not in `units`).
fn reaction_finding(
    table: &Table,
    index: &SpatialIndex,
    sight: &TerrainSight,
    cavalry: usize,
    reach_mm: f64,
    band: f64,
) -> Result<Option<ZoneFinding>, GeometryError> {
    let all = reaction_zone_sighted(table, index, sight, cavalry, reach_mm + band)?;
    let seen: BTreeMap<usize, (f64, BaseRef)> =
        all.iter().filter(|(_, z)| z.2).map(|(&u, z)| (u, (z.0, z.1))).collect();
    let mut finding = zone_finding(table, cavalry, reach_mm, &seen);
    if let Some(z) = finding.as_mut() {
        for c in &mut z.calls {
            let call = unit_sight_call(table, index, cavalry, c.unit, true)?;
            c.sight = Some(SightCall { seen: true, call });
        }
    }
    if band > 0.0 {
        for (&u, &(d, base, _)) in all.iter().filter(|(_, z)| !z.2 && within(z.0, reach_mm)) {
            let call = unit_sight_call(table, index, cavalry, u, false)?;
            if call.certain() {
                continue;
            }
            let z = finding.get_or_insert_with(|| ZoneFinding {
                unit: cavalry,
                reach_mm,
                units: BTreeMap::new(),
                calls: Vec::new(),
            });
            z.calls.push(UnitCall {
                unit: u,
                distance_mm: d,
                inside: true,
                call: zone_call(table, cavalry, base, d, reach_mm),
                sight: Some(SightCall { seen: false, call }),
            });
        }
    }
    Ok(finding)
}

/// The close call of a zone's distance `d` (to `other`, a base of another unit) against
/// its reach: the zone unit's base nearest `other` and the closest points of the two
/// decide (the distance itself is the zone's: for the cavalry reaction zone that of the
/// part of `other` ahead of the flank line).
fn zone_call(table: &Table, unit: usize, other: BaseRef, d: f64, reach_mm: f64) -> CloseCall {
    let (Some(u), Some(ob)) = (table.units.get(unit), table.base(other)) else {
        return CloseCall::exact(d - reach_mm);
    };
    let nearest = u
        .bases
        .iter()
        .enumerate()
        .map(|(i, b)| (i, b.closest_points(ob)))
        .min_by(|a, b| a.1.distance_mm.total_cmp(&b.1.distance_mm));
    let Some((i, c)) = nearest else { return CloseCall::exact(d - reach_mm) };
    distance_call(table, BaseRef::new(unit, i), other, &ClosestPoints { distance_mm: d, ..c }, reach_mm)
}

/// For each leader, the friendly combat units within each reach (`own`: only units the
/// leader commands, and only for corps and army leaders).
fn leader_findings(
    table: &Table,
    index: &SpatialIndex,
    reaches: &[(&'static str, f64, bool)],
) -> Vec<LeaderFinding> {
    let band = near_band_mm(table);
    let mut out = Vec::new();
    for (li, l) in table.units.iter().enumerate().filter(|(_, l)| l.kind == UnitKind::Leader) {
        let mut rs = Vec::new();
        for &(rule, reach_mm, own) in reaches {
            if own && !matches!(l.role, Some(LeaderRole::Corps | LeaderRole::Army)) {
                continue;
            }
            let scope = if own { LeaderScope::OwnCommand } else { LeaderScope::AnyFriendly };
            let units = units_within_reach(table, index, li, reach_mm, scope);
            let calls = units_within_reach(table, index, li, reach_mm + band, scope)
                .into_iter()
                .filter_map(|u| {
                    let (distance_mm, call) = unit_distance_call(table, li, u, reach_mm)?;
                    let inside = units.contains(&u);
                    (inside || !call.certain()).then_some(UnitCall {
                        unit: u,
                        distance_mm,
                        inside,
                        call,
                        sight: None,
                    })
                })
                .collect();
            rs.push(LeaderReachFinding { rule, reach_mm, units, calls });
        }
        out.push(LeaderFinding { leader: li, reaches: rs });
    }
    out
}

/// "Within 3" (8 cm) ... or within line of sight, whichever is less" (000 §6.2, 002
/// §5.2): the closest units of two divisions adjoin only when a clear sight line joins
/// them. Reading: sight between the units themselves, from any point of a base and in
/// any direction ([`Eye::WholeBase`], [`FieldOfView::Unlimited`]), not a spotter's
/// view from its front edge: two divisions side by side adjoin though neither faces the
/// other; terrain and other units still block as the rule set says. The sight model is
/// built only when some pair is close enough to be asked.
fn units_sight<'i, 't>(
    index: &'i SpatialIndex<'t>,
    book: &RuleBook,
) -> Result<TerrainSight<'i, 't>, GeometryError> {
    let rules = SightRules {
        eye: Eye::WholeBase,
        field_of_view: FieldOfView::Unlimited,
        ..SightRules::for_book(book)?
    };
    Ok(TerrainSight::with_rules(index, rules))
}

/// The command assessment of `table` under its rule set (see the module docs); `sight`
/// decides what cavalry sees for its reaction zone; whether divisions adjoin is decided
/// by sight between the units (see `units_sight`).
pub fn assess_command(
    table: &Table,
    index: &SpatialIndex,
    book: &RuleBook,
    sight: &TerrainSight,
) -> Result<CommandAssessment, GeometryError> {
    let mut s = CommandAssessment::default();
    let t = table;
    // How far past a limit a scanned table's verdict can still be too close to call.
    let band = near_band_mm(t);
    match book.rules() {
        RuleSet::Republique5 | RuleSet::Republic => {
            let engage = book.distance_mm(RuleDistance::EngagementRange)?;
            let corps_reach = book.distance_mm(RuleDistance::CorpsCommander)?;
            let enemies = nearest_enemies_of_divisions(t, index, engage + band);
            // Each division's units, once (not a scan of the table per division).
            let by_division = units_by_division(t);
            let markers = MarkersByParent::of(t);
            let divisions = names(t.units.iter().filter_map(|u| u.division.as_deref()));
            // Each division on every core: their deployment areas are the larger part of
            // the command assessment.
            let cx = DivisionContext {
                by_division: &by_division,
                markers: &markers,
                enemies: &enemies,
                engage,
                corps_reach,
            };
            s.divisions = Crew::map(0, divisions.len(), |i| division_finding(t, book, &cx, &divisions[i]))
                .into_iter()
                .collect::<Result<_, _>>()?;
            let corps = names(t.units.iter().filter_map(|u| u.corps.as_deref()));
            s.corps = Crew::map(0, corps.len(), |k| {
                let c = &corps[k];
                let area = corps_area_with(t, c, book, &by_division, &markers)?;
                let index = area.as_ref().map(DeploymentArea::index);
                let assets = (0..t.units.len())
                    .filter(|&i| is_corps_asset(&t.units[i], c))
                    .map(|i| asset(t, index.as_ref(), i, &t.units[i]))
                    .collect();
                drop(index);
                Ok::<_, GeometryError>(CorpsFinding {
                    area_mm2: area.as_ref().map(DeploymentArea::area_mm2),
                    area,
                    assets,
                    name: c.clone(),
                })
            })
            .into_iter()
            .collect::<Result<_, _>>()?;
            let together = book.distance_mm(RuleDistance::DivisionsTogether)?;
            let adjoining = book.distance_mm(RuleDistance::AdjoiningDivisions)?;
            s.division_pairs = division_pairs(t, index, book, band, Some(together), adjoining)?;
            s.leaders = leader_findings(
                t,
                index,
                &[
                    (
                        "E/P assault bonus and hors de combat (000 §4.7, §5.4)",
                        book.distance_mm(RuleDistance::LeaderAssaultBonus)?,
                        false,
                    ),
                    (
                        "corps or army leader adds to rally (000 §2.3)",
                        book.distance_mm(RuleDistance::RallyStep)?,
                        true,
                    ),
                ],
            );
            let reaction = book.distance_mm(RuleDistance::CavalryReaction)?;
            // Each unit's cavalry reaction zone and pass-through zone, on every core.
            let zones = Crew::map(0, t.units.len(), |i| {
                let u = &t.units[i];
                let cavalry = if u.kind == UnitKind::Cavalry {
                    reaction_finding(t, index, sight, i, reaction, band)?
                } else {
                    None
                };
                let pass = match pass_through_reach_mm(u.kind, book)? {
                    Some(reach_mm) => {
                        zone_finding(t, i, reach_mm, &pass_through_within(t, index, i, reach_mm + band))
                    }
                    None => None,
                };
                Ok::<_, GeometryError>((cavalry, pass))
            });
            for z in zones {
                let (cavalry, pass) = z?;
                s.cavalry_reaction.extend(cavalry);
                s.pass_through.extend(pass);
            }
        }
        RuleSet::RepubliqueClassic => {
            let panic = book.distance_mm(RuleDistance::AdjoiningPanic)?;
            s.division_pairs = division_pairs(t, index, book, band, None, panic)?;
            s.leaders = leader_findings(
                t,
                index,
                &[(
                    "emergency rally and leader injury (001 §4.5, §4.6)",
                    book.distance_mm(RuleDistance::EmergencyRally)?,
                    false,
                )],
            );
        }
        RuleSet::ProPatria => {}
    }
    Ok(s)
}
