//! Who blocks whom: which units' bases block a spotter's sight to a target, per rule
//! set, with ground levels for Pro Patria (000 §4.1-4.2, §4.5; 004 §16.3).

use crate::rules::RuleSet;
use crate::table::{Formation, Table, UnitKind};

/// Which other units' bases block a spotter of the given kind, in Republique terms
/// (000 §4.1: "Skirmish markers block line-of-sight for friendly artillery, and skirmish
/// marker line-of-sight is blocked by all combat bases both friendly and enemy"; §4.2:
/// "Artillery may not fire through or over friendly units, including skirmish markers";
/// §4.5: a battery "may not conduct indirect fire over obstacles, friendly units or enemy
/// units", and fully deployed enemy skirmishers "do not mask or protect the target").
///
/// - Artillery: every combat base (friendly or enemy) and friendly skirmish markers;
///   enemy skirmish markers never.
/// - Skirmish markers: every combat base, friendly or enemy; no marker.
/// - Spotters the texts do not address (infantry, cavalry, leaders, ...): every combat
///   base, friendly or enemy (a formed body of troops hides what is behind it).
///
/// Leaders, limbers and other markers never block. Neither the spotter's unit nor the
/// target's unit blocks here (a unit does not hide its own bases from a spotter; a
/// front-edge spotter's own bases are handled by the terrain model, see
/// [`crate::los::Eye::FrontEdge`]). Pro Patria's rules depend on levels: see
/// [`blocks_at_levels`].
#[must_use]
pub fn blocks(table: &Table, spotter: usize, blocker_unit: usize, target_unit: usize) -> bool {
    if blocker_unit == spotter || blocker_unit == target_unit {
        return false;
    }
    let s = &table.units[spotter];
    let b = &table.units[blocker_unit];
    let friendly = s.side == b.side;
    match s.kind {
        UnitKind::Artillery => b.is_combat() || (friendly && b.kind == UnitKind::Skirmisher),
        _ => b.is_combat(),
    }
}

/// The ground levels of the spotter's, the blocker's and the target's bases, in
/// half-level steps (see [`crate::los::Ground::base_level`]).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct UnitLevels {
    /// The spotter's level.
    pub spotter: f64,
    /// The would-be blocker's level.
    pub blocker: f64,
    /// The target's level.
    pub target: f64,
}

/// Which units block whom, per rule set, with levels.
///
/// Republique 5.0, classic and Republic: [`blocks`] (levels do not matter).
///
/// Pro Patria (004 §16.3): troops block sight, except that skirmish screens (skirmisher
/// units or units in skirmish order) never do, staff (leaders) never do, and "mounted
/// units and staff can see and be seen over foot troops on the same or lower
/// elevation": a foot blocker (infantry, artillery, engineers) does not block when the
/// spotter, or the target, is mounted (cavalry) or staff (a leader) and stands at least
/// as high as the blocker. Limbers and wagons block as vehicles nobody sees over.
///
/// ```
/// use vedette_geometry::{Table, UnitLevels, blocks_at_levels};
/// let t = Table::from_json_str(r#"{"schema":"vedette/table/1","rules":"pro-patria","scale":"28mm","units":[
///   {"id":"hussars","side":"fr","kind":"cavalry","bases":[{"x":0,"y":0,"heading":90,"width":50,"depth":50}]},
///   {"id":"line","side":"fr","kind":"infantry","bases":[{"x":0,"y":100,"heading":90,"width":80,"depth":25}]},
///   {"id":"foe","side":"gb","kind":"infantry","bases":[{"x":0,"y":300,"heading":270,"width":80,"depth":25}]}]}"#)?;
/// let flat = UnitLevels::default();
/// assert!(!blocks_at_levels(&t, 0, 1, 2, flat)); // the hussars see over the foot
/// assert!(blocks_at_levels(&t, 2, 1, 0, UnitLevels { spotter: 0.0, blocker: 0.5, target: 0.0 }));
/// # Ok::<(), vedette_geometry::GeometryError>(())
/// ```
#[must_use]
pub fn blocks_at_levels(
    table: &Table,
    spotter: usize,
    blocker_unit: usize,
    target_unit: usize,
    levels: UnitLevels,
) -> bool {
    if table.rules != RuleSet::ProPatria {
        return blocks(table, spotter, blocker_unit, target_unit);
    }
    if blocker_unit == spotter || blocker_unit == target_unit {
        return false;
    }
    let b = &table.units[blocker_unit];
    if matches!(b.kind, UnitKind::Skirmisher | UnitKind::Leader)
        || b.formation == Some(Formation::SkirmishOrder)
    {
        return false;
    }
    let foot = matches!(b.kind, UnitKind::Infantry | UnitKind::Artillery | UnitKind::Engineer);
    let tall = |u: usize| matches!(table.units[u].kind, UnitKind::Cavalry | UnitKind::Leader);
    if foot
        && ((tall(spotter) && levels.blocker <= levels.spotter)
            || (tall(target_unit) && levels.blocker <= levels.target))
    {
        return false;
    }
    true
}
