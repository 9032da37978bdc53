//! [`UnitsOnly`]: the line-of-sight model with units as the only blockers (no terrain).

use super::blocking::blocks;
use super::line_of_sight::LineOfSight;
use crate::index::SpatialIndex;
use crate::sight::{Blocker, FullVisibility, full_visibility};
use crate::table::{BaseRef, Table};
use crate::vec2::Vec2;

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
