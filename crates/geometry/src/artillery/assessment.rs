//! The whole artillery finding of a battery, and of a table: frontage, clear swings,
//! every candidate target, the main target with its aim, deep and enfilade verdicts and
//! secondary targets, and the unlimber check. `vedette report` prints exactly this.

use crate::artillery::battery::{Battery, Battlefield, batteries};
use crate::artillery::deep::{DeepTarget, deep_target};
use crate::artillery::enfilade::EnfiladeVerdict;
use crate::artillery::firing_zone::{
    ClearSwings, ZoneObstacle, ZoneObstacleSource, blocked_swings, relative_deg, zone_obstacles,
};
use crate::artillery::range::segment_to_convex_mm;
use crate::artillery::secondary_targets::{SecondaryTargets, secondary_targets};
use crate::artillery::targets::{TargetAssessment, assess_targets_among, main_target};
use crate::artillery::unlimber::{UnlimberCheck, unlimber_check};
use crate::error::GeometryError;
use crate::segment::Segment;
use crate::table::BaseRef;
use crate::ties::same_length;
use crate::vec2::Vec2;

/// The main target of a battery and what fire on it finds.
#[derive(Debug, Clone, PartialEq)]
pub struct MainTarget {
    /// Index into [`BatteryAssessment::targets`].
    pub target: usize,
    /// The unit (index into the table).
    pub unit: usize,
    /// The aim: the firing zone's swing, degrees counter-clockwise from straight ahead.
    pub aim_swing_deg: f64,
    /// The centre of fire along the aim, to maximum range.
    pub centre_of_fire: Segment,
    /// The deep-target verdict.
    pub deep: DeepTarget,
    /// The enfilade verdict.
    pub enfilade: EnfiladeVerdict,
    /// Tandem and adjacent targets.
    pub secondary: SecondaryTargets,
}

/// Everything the artillery rules find for one battery.
#[derive(Debug, Clone, PartialEq)]
pub struct BatteryAssessment {
    /// The battery.
    pub battery: Battery,
    /// The swings at which its firing zone is clear.
    pub clear_swings: ClearSwings,
    /// The friendly bases and markers that block swings of the zone, nearest first;
    /// when every swing is blocked, only the nearest ones that already block them all.
    pub zone_blockers: Vec<ZoneObstacleSource>,
    /// Every candidate target (enemy units with part of a base in the arc within
    /// maximum range), in table order.
    pub targets: Vec<TargetAssessment>,
    /// The main target, when some target is valid.
    pub main: Option<MainTarget>,
    /// The unlimber limit check.
    pub unlimber: UnlimberCheck,
}

/// Assesses battery base `r`.
pub fn assess_battery(field: &Battlefield<'_>, r: BaseRef) -> Result<BatteryAssessment, GeometryError> {
    let battery = Battery::new(field, r)?;
    let unlimber = unlimber_check(field.table, field.index, field.rules, r);
    let max_swing = field.rules.max_swing_deg();
    if battery.limbered {
        return Ok(BatteryAssessment {
            battery,
            clear_swings: ClearSwings::none(max_swing),
            zone_blockers: Vec::new(),
            targets: Vec::new(),
            main: None,
            unlimber,
        });
    }
    let (lo, hi) = battery.arc.bounding_box();
    let near = field.index.bases_in_box(lo, hi);
    let obstacles = zone_obstacles(field.table, field.index, r, &near, lo, hi);
    // Every zone lies inside the arc of fire: what lies wholly outside one of the arc's
    // sides (or behind its frontage) blocks no swing. The rest are taken nearest first,
    // and once every swing is blocked the farther ones cannot change the answer.
    let arc_planes = battery.arc.cone().half_planes();
    let mut in_arc: Vec<(f64, &ZoneObstacle)> = obstacles
        .iter()
        .filter(|o| !arc_planes.iter().any(|h| o.polygon.vertices().iter().all(|&v| h.side(v) <= 0.0)))
        .map(|o| (segment_to_convex_mm(&battery.frontage.edge, o.polygon.vertices()), o))
        .collect();
    in_arc.sort_by(|a, b| a.0.total_cmp(&b.0));
    // Obstacles at the same distance (within rounding: most often touching the
    // frontage) in the order of their direction from the battery, and all of them taken
    // when one blocks the last swing: which of them is named must not depend on rounding
    // where the table lies (issue 41 item 2).
    let mid = battery.frontage.edge.midpoint();
    let bearing = |o: &ZoneObstacle| {
        let v = o.polygon.vertices();
        let c = v.iter().fold(Vec2::ZERO, |a, &p| a + p) / v.len().max(1) as f64;
        relative_deg(battery.forward(), c - mid)
    };
    let mut from = 0;
    while from < in_arc.len() {
        let first = in_arc[from].0;
        let to = from + in_arc[from..].iter().take_while(|p| same_length(p.0, first)).count();
        in_arc[from..to].sort_by(|a, b| bearing(a.1).total_cmp(&bearing(b.1)));
        from = to;
    }
    let mut blocked: Vec<(f64, f64)> = Vec::new();
    let mut zone_blockers = Vec::new();
    let mut closed_at: Option<f64> = None;
    for (d, o) in in_arc {
        if closed_at.is_some_and(|c| !same_length(d, c)) {
            break;
        }
        if let Some(b) = blocked_swings(
            &battery.frontage.edge,
            battery.forward(),
            field.rules.zone_side_deg,
            battery.max_range_mm,
            &o.polygon,
        ) && b.1 > -max_swing
            && b.0 < max_swing
        {
            blocked.push(b);
            zone_blockers.push(o.source);
            if closed_at.is_none() && ClearSwings::without(max_swing, &blocked).is_empty() {
                closed_at = Some(d);
            }
        }
    }
    let clear_swings = ClearSwings::without(max_swing, &blocked);
    let targets = assess_targets_among(field, &battery, &clear_swings, &near);
    let main = main_target(&targets).and_then(|i| {
        let t = &targets[i];
        let aim = t.aim_swing_deg?;
        let zone = battery.zone(field.rules, aim);
        Some(MainTarget {
            target: i,
            unit: t.unit,
            aim_swing_deg: aim,
            centre_of_fire: zone.centre_of_fire(),
            deep: deep_target(field, &battery, t, aim),
            enfilade: t.enfilade,
            secondary: secondary_targets(field, &targets, i, &zone),
        })
    });
    Ok(BatteryAssessment { battery, clear_swings, zone_blockers, targets, main, unlimber })
}

/// Assesses every battery of the table, in table order.
///
/// ```
/// use vedette_geometry::{ArtilleryRules, Battlefield, SpatialIndex, Table, TerrainOutlines, UnitsOnly, assess_artillery};
/// let t = Table::from_json_str(r#"{"schema":"vedette/table/1","rules":"republique5","scale":"medium",
///   "units":[
///     {"id":"gun","side":"fr","kind":"artillery","formation":"unlimbered","bases":[{"x":0,"y":0,"heading":90,"width":25,"depth":40}]},
///     {"id":"foe","side":"au","kind":"infantry","formation":"line","bases":[{"x":0,"y":150,"heading":270,"width":30,"depth":20}]}]}"#)?;
/// let index = SpatialIndex::new(&t);
/// let rules = ArtilleryRules::for_table(&t)?;
/// let los = UnitsOnly::new(&index);
/// let field = Battlefield { table: &t, index: &index, rules: &rules, line_of_sight: &los, ground: &TerrainOutlines };
/// let found = assess_artillery(&field)?;
/// let main = found[0].main.as_ref().unwrap();
/// assert_eq!(t.units[main.unit].id, "foe");
/// // Front edge at y = 20, the foe's at y = 140: 120 mm = 4.72", the third bracket.
/// assert_eq!(found[0].targets[main.target].bracket, 3);
/// # Ok::<(), vedette_geometry::GeometryError>(())
/// ```
pub fn assess_artillery(field: &Battlefield<'_>) -> Result<Vec<BatteryAssessment>, GeometryError> {
    batteries(field.table).into_iter().map(|r| assess_battery(field, r)).collect()
}
