//! Line of sight between units: which bases block whom, as a [`LineOfSight`] model the
//! rule constructions ask ("can this battery see a full base of that unit?").
//!
//! [`UnitsOnly`] is the model without terrain: units block according to 000 §4.1-4.2
//! and §4.5 ([`blocks`]).
//! Terrain (woods, buildings, spotting depth, hills) comes from a model that adds to it
//! through the same trait, so the artillery and skirmish code never needs to know which
//! model answers.

use crate::index::SpatialIndex;
use crate::rules::RuleSet;
use crate::sight::{Blocker, FullVisibility, full_visibility};
use crate::table::{BaseRef, Formation, Table, UnitKind};
use crate::vec2::Vec2;

/// A model of line of sight on a table.
pub trait LineOfSight {
    /// Whether every point of base `target` can be seen from some point of `eye` (the
    /// spotter's front edge, or its whole outline: convex, counter-clockwise) belonging
    /// to unit `spotter`.
    fn full_base_visible(
        &self,
        table: &Table,
        spotter: usize,
        eye: &[Vec2],
        target: BaseRef,
    ) -> FullVisibility;
}

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

/// Line of sight with units as the only blockers (open ground everywhere).
pub struct UnitsOnly<'i, 't> {
    index: &'i SpatialIndex<'t>,
}

impl<'i, 't> UnitsOnly<'i, 't> {
    /// A model over an indexed table.
    #[must_use]
    pub fn new(index: &'i SpatialIndex<'t>) -> Self {
        UnitsOnly { index }
    }

    /// The unit blockers between `eye` and `target` for `spotter`.
    #[must_use]
    pub fn blockers(&self, table: &Table, spotter: usize, eye: &[Vec2], target: BaseRef) -> Vec<Blocker> {
        let Some(tb) = table.base(target) else { return Vec::new() };
        let (mut lo, mut hi) = tb.aabb();
        for p in eye {
            lo = Vec2::new(lo.x.min(p.x), lo.y.min(p.y));
            hi = Vec2::new(hi.x.max(p.x), hi.y.max(p.y));
        }
        self.index
            .bases_in_box(lo, hi)
            .into_iter()
            .filter(|r| blocks(table, spotter, r.unit, target.unit))
            .filter_map(|r| table.base(r).map(Blocker::from_base))
            .collect()
    }
}

impl LineOfSight for UnitsOnly<'_, '_> {
    fn full_base_visible(
        &self,
        table: &Table,
        spotter: usize,
        eye: &[Vec2],
        target: BaseRef,
    ) -> FullVisibility {
        let Some(tb) = table.base(target) else { return FullVisibility::Visible };
        let blockers = self.blockers(table, spotter, eye, target);
        full_visibility(eye, &tb.vertices_ccw(), &blockers)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> Table {
        Table::from_json_str(
            r#"{"schema":"vedette/table/1","rules":"republique5","scale":"medium","units":[
            {"id":"gun","side":"fr","kind":"artillery","bases":[{"x":0,"y":0,"heading":90,"width":25,"depth":40}]},
            {"id":"friend","side":"fr","kind":"infantry","formation":"line","bases":[{"x":0,"y":100,"heading":90,"width":120,"depth":20}]},
            {"id":"sk","side":"fr","kind":"skirmisher","parent":"friend","bases":[{"x":100,"y":100,"heading":90,"width":20,"depth":20}]},
            {"id":"foe","side":"au","kind":"infantry","formation":"line","bases":[{"x":0,"y":200,"heading":270,"width":30,"depth":20}]},
            {"id":"foe2","side":"au","kind":"infantry","formation":"line","bases":[{"x":200,"y":200,"heading":270,"width":30,"depth":20}]},
            {"id":"foe-sk","side":"au","kind":"skirmisher","parent":"foe","bases":[{"x":0,"y":150,"heading":270,"width":20,"depth":20}]}]}"#,
        )
        .unwrap()
    }

    #[test]
    fn who_blocks_whom() {
        let t = table();
        // Artillery: friendly units and friendly skirmishers block, and enemy combat units
        // (000 §4.5: no indirect fire over enemy units); enemy skirmishers never do.
        assert!(blocks(&t, 0, 1, 3));
        assert!(blocks(&t, 0, 2, 3));
        assert!(blocks(&t, 0, 4, 3));
        assert!(!blocks(&t, 0, 5, 3));
        assert!(blocks(&t, 0, 4, 3));
        // Skirmishers: every combat base blocks, never other skirmish markers.
        assert!(blocks(&t, 2, 1, 3));
        assert!(blocks(&t, 2, 4, 3));
        assert!(!blocks(&t, 2, 5, 3));
        // Nobody is blocked by itself or by the target.
        assert!(!blocks(&t, 0, 0, 3) && !blocks(&t, 0, 3, 3));
    }

    #[test]
    fn friendly_line_hides_the_target_from_the_gun() {
        let t = table();
        let index = SpatialIndex::new(&t);
        let los = UnitsOnly::new(&index);
        let e = t.units[0].bases[0].front_edge();
        let eye = [e.a, e.b];
        assert_ne!(los.full_base_visible(&t, 0, &eye, BaseRef::new(3, 0)), FullVisibility::Visible);
        // The enemy skirmisher in front of foe does not block the gun.
        assert!(los.blockers(&t, 0, &eye, BaseRef::new(3, 0)).len() == 1);
        // foe2 (x 185..215, y 190..210) past the friendly skirmisher (x 90..110,
        // y 90..110). Every line from the gun's front edge (x -12.5..12.5, y 20) to foe2's
        // corner (185, 190) crosses y = 110 at x between 92.1 and 103.8: inside the
        // skirmisher, so that corner is hidden. The corner (185, 210) is seen from
        // (-12.5, 20) past the skirmisher's left edge (x 81.1 at y 110).
        assert_ne!(los.full_base_visible(&t, 0, &eye, BaseRef::new(4, 0)), FullVisibility::Visible);
        let blockers = los.blockers(&t, 0, &eye, BaseRef::new(4, 0));
        assert!(crate::sight::point_sight_segment(&eye, Vec2::new(185.0, 210.0), &blockers).is_some());
        assert!(crate::sight::point_sight_segment(&eye, Vec2::new(185.0, 190.0), &blockers).is_none());
    }
}
