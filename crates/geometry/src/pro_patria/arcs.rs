//! Pro Patria firing arcs (004 §17.3): "Shooting units and artillery have 22½° firing
//! arcs taken from the front corner of the stand. Skirmishers have 180° firing arcs."
//! And "Units must fire at the nearest visible eligible enemy unit."
//!
//! Each stand's arc is a [`FrontageCone`] from its front edge, sides turned 22½° outward
//! (90° for skirmishers: everything ahead of the front edge). An enemy is in arc when any
//! part of one of its stands is inside (touching counts); its distance is measured from
//! the firing stand to the part inside. "Visible" is the terrain line of sight that
//! `vedette los` decides ([`TerrainSight`]: terrain, intervening troops, Pro Patria's
//! visibility limits): the nearest enemy in arc that the firer does not see is skipped
//! for the next one. Reading: a target is eligible when some part of it is in arc and
//! some part of it is seen (the text does not ask that the seen part be the part in
//! arc). Visibility range (1200 mm / 720) limits the search.

use crate::assault::cover::cover_against_fire;
use crate::base::Base;
use crate::cone::FrontageCone;
use crate::convex::outset;
use crate::error::GeometryError;
use crate::index::SpatialIndex;
use crate::los::HIGH_HILL_LEVEL;
use crate::los::TerrainSight;
use crate::polygon::ConvexPolygon;
use crate::rules::{RuleAngle, RuleBook, RuleDistance};
use crate::table::BaseRef;
use crate::table::{Formation, Table, Unit, UnitKind};
use crate::terrain::CoverClass;
use crate::ties::{ZONE_SLACK_MM, within};

/// True for units that shoot in a 180° arc: skirmish markers and units in skirmish order.
#[must_use]
pub fn shoots_all_round_ahead(u: &Unit) -> bool {
    u.kind == UnitKind::Skirmisher || u.formation == Some(Formation::SkirmishOrder)
}

/// The firing arc of one stand.
///
/// ```
/// use vedette_geometry::{Base, BaseSize, Pose, RuleBook, RuleSet, Scale, Vec2};
/// use vedette_geometry::pro_patria::arcs::firing_arc;
/// let book = RuleBook::try_new(RuleSet::ProPatria, Scale::Figures28mm)?;
/// let stand = Base::new(BaseSize::new(60.0, 20.0), Pose::new(Vec2::new(0.0, 0.0), 90.0));
/// let arc = firing_arc(&stand, false, &book)?;
/// // 100 mm ahead the arc reaches 100 · tan 22.5° = 41.4 mm past the stand's corner.
/// assert!(arc.contains(Vec2::new(30.0 + 41.0, 110.0)));
/// assert!(!arc.contains(Vec2::new(30.0 + 42.0, 110.0)));
/// # Ok::<(), vedette_geometry::GeometryError>(())
/// ```
pub fn firing_arc(stand: &Base, skirmisher: bool, book: &RuleBook) -> Result<FrontageCone, GeometryError> {
    let side =
        book.angle_deg(if skirmisher { RuleAngle::SkirmisherArcSide } else { RuleAngle::FiringArcSide })?;
    Ok(FrontageCone::flared(stand.front_edge(), stand.forward(), side))
}

/// The distance from `stand` to the part of `target` inside `arc`, mm; `None` when no
/// part of it is inside.
#[must_use]
pub fn distance_in_arc(arc: &FrontageCone, stand: &Base, target: &Base) -> Option<f64> {
    let planes = arc.half_planes().map(|h| outset(h, ZONE_SLACK_MM));
    let part = ConvexPolygon::from_half_planes(&target.polygon(), &planes);
    if part.is_empty() { None } else { part.distance_to_base(stand) }
}

/// "The nearest visible eligible enemy unit" (004 §17.3): the nearest enemy unit with a
/// stand in the firing arc of one of `firer`'s stands, within visibility, that `sight`
/// sees: (unit index, distance in mm). Staff and engineers are eligible targets only for
/// skirmishers (§17.3.10). Equal distances go to the lower unit index.
pub fn nearest_in_arc(
    table: &Table,
    index: &SpatialIndex,
    book: &RuleBook,
    sight: &TerrainSight,
    firer: usize,
) -> Result<Option<(usize, f64)>, GeometryError> {
    let Some(u) = table.units.get(firer) else { return Ok(None) };
    let visibility = book.distance_mm(RuleDistance::Visibility)?;
    let all_round = shoots_all_round_ahead(u);
    let arcs: Vec<FrontageCone> =
        u.bases.iter().map(|b| firing_arc(b, all_round, book)).collect::<Result<_, _>>()?;
    // Per enemy unit, its nearest distance in arc.
    let mut in_arc: std::collections::BTreeMap<usize, f64> = std::collections::BTreeMap::new();
    for n in index.within_of_unit(firer, visibility) {
        let e = &table.units[n.base.unit];
        // "Only skirmishing stands may deliberately fire at enemy staff" (§17.3.10); the
        // same for engineers. Limbers are not targets of their own.
        let staff = matches!(e.kind, UnitKind::Leader | UnitKind::Engineer);
        if !index.are_enemies(firer, n.base.unit) || e.kind == UnitKind::Limber || (staff && !all_round) {
            continue;
        }
        let Some(t) = table.base(n.base) else { continue };
        for (stand, arc) in u.bases.iter().zip(&arcs) {
            if let Some(d) = distance_in_arc(arc, stand, t)
                && d <= visibility
            {
                let e = in_arc.entry(n.base.unit).or_insert(f64::INFINITY);
                *e = e.min(d);
            }
        }
    }
    let elevation = Elevation::of(u, firer, sight);
    let min_range = book.distance_mm(RuleDistance::HighHillMinimumRange)?;
    let mut order: Vec<(usize, f64)> = in_arc
        .into_iter()
        .filter(|&(e, d)| {
            u.kind != UnitKind::Artillery
                || elevation.artillery_may_fire(&table.units[e], e, sight, d, min_range)
        })
        .collect();
    order.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
    Ok(order.into_iter().find(|&(e, _)| sight.unit_verdict(firer, e).visible))
}

/// Where a unit stands (004 §15.7-15.8, §17.3.7): on the table top, a low hill (below
/// one full level) or a high hill ([`HIGH_HILL_LEVEL`] or more). Reading: a unit is on
/// the lowest ground any of its stands is on (all its stands must be up the hill).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Elevation {
    /// Level 0.
    TableTop,
    /// Above the table, below a high hill.
    LowHill,
    /// A high hill.
    HighHill,
}

impl Elevation {
    /// The elevation of `unit` (index `ui`) in `sight`'s ground model.
    #[must_use]
    pub fn of(unit: &Unit, ui: usize, sight: &TerrainSight) -> Elevation {
        let level =
            (0..unit.bases.len()).map(|i| sight.level_of(BaseRef::new(ui, i))).fold(f64::INFINITY, f64::min);
        Elevation::at(if level.is_finite() { level } else { 0.0 })
    }

    fn at(level: f64) -> Elevation {
        if level >= HIGH_HILL_LEVEL {
            Elevation::HighHill
        } else if level > 0.0 {
            Elevation::LowHill
        } else {
            Elevation::TableTop
        }
    }

    /// 004 §17.3.7 for artillery at this elevation against `target` (index `ti`) at
    /// `distance_mm`: "Unless using howitzers or sited on a low hill, artillery may not
    /// fire at targets on high hills" (a target is on a high hill when any of its stands
    /// is; "artillery on high hills can engage targets on all terrain", so only guns on
    /// the table top are barred; howitzers are not in a table); "Artillery on high hills
    /// cannot shoot at targets 150mm (90mm) or closer to the front edge of the Artillery
    /// stands" (exactly 150 mm is barred).
    #[must_use]
    pub fn artillery_may_fire(
        self,
        target: &Unit,
        ti: usize,
        sight: &TerrainSight,
        distance_mm: f64,
        min_range_mm: f64,
    ) -> bool {
        let target_high =
            (0..target.bases.len()).any(|i| sight.level_of(BaseRef::new(ti, i)) >= HIGH_HILL_LEVEL);
        match self {
            Elevation::TableTop => !target_high,
            Elevation::LowHill => true,
            Elevation::HighHill => !within(distance_mm, min_range_mm),
        }
    }
}

/// The cover of target unit `target` against fire from unit `firer` (004 §15.11: "If a
/// unit is within 25mm (15mm for 15mm) and behind terrain classified as heavy or light
/// cover, eg a wall or hedge, then it will be classified as a target in heavy or light
/// cover"; a unit inside woods or towns is in their cover). Reading: a stand is covered
/// when half or more of it is inside covering terrain, or a covering obstacle crosses
/// the line from the firer's nearest stand (the middle of its front edge) to the stand's
/// centre within 25 mm (15) of the stand ([`cover_against_fire`]); the unit counts as in
/// the heaviest class that half or more of its stands are in (as the assault test of
/// 000 §5.4 counts); `None` in the open.
pub fn target_cover_class(
    table: &Table,
    book: &RuleBook,
    firer: usize,
    target: usize,
) -> Result<Option<CoverClass>, GeometryError> {
    let (Some(f), Some(t)) = (table.units.get(firer), table.units.get(target)) else { return Ok(None) };
    let Some(from) = f
        .bases
        .iter()
        .min_by(|a, b| {
            let d = |x: &Base| t.bases.iter().map(|y| x.distance(y)).fold(f64::INFINITY, f64::min);
            d(a).total_cmp(&d(b))
        })
        .map(Base::front_midpoint)
    else {
        return Ok(None);
    };
    let classes: Vec<Option<CoverClass>> = t
        .bases
        .iter()
        .map(|b| cover_against_fire(b, &table.terrain, book, from))
        .collect::<Result<_, _>>()?;
    Ok(CoverClass::ALL.into_iter().rev().find(|&c| {
        let n = classes.iter().filter(|k| k.is_some_and(|k| k >= c)).count();
        !classes.is_empty() && 2 * n >= classes.len()
    }))
}

/// Friendly units endangered by `firer` shooting at `target` (004 §17.3.8), with the
/// high-hill exception of §17.3.7: artillery on a high hill endangers only friends within
/// 100 mm (60) of the target ([`crate::pro_patria::corridor::endangered`]).
pub fn endangered_friends(
    table: &Table,
    index: &SpatialIndex,
    book: &RuleBook,
    sight: &TerrainSight,
    firer: usize,
    target: usize,
) -> Result<Vec<usize>, GeometryError> {
    let Some(u) = table.units.get(firer) else { return Ok(Vec::new()) };
    let near_target =
        if u.kind == UnitKind::Artillery && Elevation::of(u, firer, sight) == Elevation::HighHill {
            Some(book.distance_mm(RuleDistance::EndangeredNearTarget)?)
        } else {
            None
        };
    Ok(crate::pro_patria::corridor::endangered(table, index, firer, target, near_target))
}
