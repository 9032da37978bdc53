//! Low linear obstacles as GEOMETRY.md reads them (issue 40; 000 §3.6: "the cover bonus
//! only applies when the unit is taking cover behind the obstacle"): a unit touching a
//! stone wall, or within its spotting depth behind it, takes its cover; a unit further
//! back stands in the open and is seen over it. Hand-worked, just inside and outside the
//! reach, on turned and moved tables and under scan noise.
//!
//! The French battery "gun" (25 x 40, packed) stands at the origin facing +y, front edge
//! y = 20 from x -12.5 to 12.5. A stone wall runs across the field 2" ahead, at y = 70.8.
//! The Austrian line "au-1" of three 30 x 20 bases faces the battery with its near edge
//! `behind` mm beyond the wall (centres x = -30, 0, 30, y = 70.8 + behind + 10).

use crate::common;

use common::{IN, b};
use proptest::prelude::*;
use vedette_geometry::artillery::target_cover;
use vedette_geometry::los::TerrainSight;
use vedette_geometry::{
    ArtilleryRules, BaseRef, Battlefield, CoverClass, Formation, FrontageMode, RigidMotion, RuleSet,
    SpatialIndex, Table, TerrainFeature, TerrainKind, TerrainOutlines, Unit, UnitKind, Vec2, assess_battery,
    skirmish_fire,
};

const WALL_Y: f64 = 20.0 + 2.0 * IN;

fn wall(kind: TerrainKind, y: f64) -> TerrainFeature {
    TerrainFeature {
        crests: Vec::new(),
        id: Some("wall".into()),
        kind,
        level: 0.0,
        outline: vec![],
        holes: vec![],
        path: vec![Vec2::new(-200.0, y), Vec2::new(200.0, y)],
    }
}

/// The scene, turned by `turn` about the origin and moved by `shift`, each base moved by
/// `noise` (dx, dy, dh).
fn scene(kind: TerrainKind, behind: f64, turn: f64, shift: Vec2, noise: &[(f64, f64, f64)]) -> Table {
    let mut gun = Unit::new("gun", "france", UnitKind::Artillery, vec![b(0.0, 0.0, 90.0, 25.0, 40.0)]);
    gun.formation = Some(Formation::Unlimbered);
    gun.frontage = Some(FrontageMode::Packed);
    let y = WALL_Y + behind + 10.0;
    let mut foe = Unit::new(
        "au-1",
        "austria",
        UnitKind::Infantry,
        [-30.0, 0.0, 30.0].iter().map(|&x| b(x, y, 270.0, 30.0, 20.0)).collect(),
    );
    foe.formation = Some(Formation::Line);
    let mut t = common::table(RuleSet::Republique5, vec![gun, foe]);
    t.terrain = vec![wall(kind, WALL_Y)];
    let mut t = RigidMotion::new(turn, shift).table(&t);
    let mut k = 0;
    for u in &mut t.units {
        for base in &mut u.bases {
            if let Some(&(dx, dy, dh)) = noise.get(k) {
                let c = base.centre() + Vec2::new(dx, dy);
                *base = b(c.x, c.y, base.heading_deg() + dh, base.width(), base.depth());
            }
            k += 1;
        }
    }
    t
}

/// Whether the battery fires on au-1 (its main target), and the target's cover class and
/// columns.
fn fire(t: &Table) -> Option<(Option<CoverClass>, u8)> {
    let index = SpatialIndex::new(t);
    let rules = ArtilleryRules::for_table(t).unwrap_or_else(|e| panic!("{e}"));
    let los = TerrainSight::try_new(&index).unwrap_or_else(|e| panic!("{e}"));
    let field =
        Battlefield { table: t, index: &index, rules: &rules, line_of_sight: &los, ground: &TerrainOutlines };
    let a = assess_battery(&field, BaseRef::new(0, 0)).unwrap_or_else(|e| panic!("{e}"));
    let main = a.main.as_ref().filter(|m| m.unit == 1)?;
    let c = target_cover(t, &t.rule_book().unwrap_or_else(|e| panic!("{e}")), &los, BaseRef::new(0, 0), main)
        .unwrap_or_else(|e| panic!("{e}"));
    Some((c.class, c.columns_right()))
}

const PLACES: [(f64, f64, f64); 4] =
    [(0.0, 0.0, 0.0), (37.0, 600.0, 200.0), (90.0, 900.0, 600.0), (213.5, 1500.0, 1100.0)];

#[test]
fn a_battery_fires_on_a_line_5_inches_behind_a_stone_wall_in_the_open() {
    // Issue 40: the line stands 5" behind the wall, beyond the wall's 1" spotting depth:
    // seen over the wall (the battery sees a whole base), its main target, in the open.
    for (turn, x, y) in PLACES {
        let t = scene(TerrainKind::StoneWall, 5.0 * IN, turn, Vec2::new(x, y), &[]);
        assert_eq!(fire(&t), Some((None, 0)), "turned {turn}");
        let index = SpatialIndex::new(&t);
        let v = TerrainSight::try_new(&index).unwrap_or_else(|e| panic!("{e}")).unit_verdict(0, 1);
        assert!(v.visible && v.full_base.is_some(), "turned {turn}");
    }
}

#[test]
fn a_line_touching_the_walls_far_side_is_in_medium_cover() {
    // Touching the far side: taking cover behind it, medium (000 §3.6), one column right
    // (000 §4.3). Within the wall's 1" (25.4 mm) spotting depth behind it: 25.3 mm still
    // covered, 25.5 mm in the open. A hedge is light cover, which moves no column (the
    // modifier counts medium or better, 000 §4.3). A redoubt
    // (reinforced, ½" = 12.7 mm): 12.6 mm two columns, 12.8 mm none.
    for (turn, x, y) in PLACES {
        let at = |kind, behind| fire(&scene(kind, behind, turn, Vec2::new(x, y), &[]));
        assert_eq!(at(TerrainKind::StoneWall, 0.0), Some((Some(CoverClass::Medium), 1)), "turned {turn}");
        assert_eq!(at(TerrainKind::StoneWall, 25.3), Some((Some(CoverClass::Medium), 1)));
        assert_eq!(at(TerrainKind::StoneWall, 25.5), Some((None, 0)));
        assert_eq!(at(TerrainKind::Hedge, 0.0), Some((None, 0)));
        assert_eq!(at(TerrainKind::Redoubt, 12.6), Some((Some(CoverClass::Reinforced), 2)));
        assert_eq!(at(TerrainKind::Redoubt, 12.8), Some((None, 0)));
    }
}

proptest! {
    #![proptest_config(common::proptest_config(16, 1805))]

    /// Away from the 1" reach (by far more than the noise moves a base), the verdicts hold
    /// under scan noise at any heading: 5" behind in the open, ½" behind in medium cover.
    #[test]
    fn low_obstacle_verdicts_survive_scan_noise(
        turn in 0.0f64..360.0,
        noise in prop::collection::vec((-0.1f64..0.1, -0.1f64..0.1, -0.2f64..0.2), 4),
    ) {
        let t = scene(TerrainKind::StoneWall, 5.0 * IN, turn, Vec2::new(800.0, 500.0), &noise);
        prop_assert_eq!(fire(&t), Some((None, 0)));
        let t = scene(TerrainKind::StoneWall, 0.5 * IN, turn, Vec2::new(800.0, 500.0), &noise);
        prop_assert_eq!(fire(&t), Some((Some(CoverClass::Medium), 1)));
    }
}

#[test]
fn a_skirmish_marker_fires_over_a_hedge_at_a_unit_beyond_its_depth() {
    // A French skirmish marker (20 x 20, front edge y = 10) with a hedge 30.5 mm ahead (y
    // = 40.5) and an Austrian base 2.5" ahead of it (near edge y = 73.5, within the 3"
    // engagement range, 000 §4.1): 33 mm beyond the hedge, more than its 1" depth, and
    // the hedge more than 1" from the marker. The hedge (or a wall) does not hide it: the
    // marker has a target. A treeline (trees) in its place hides it.
    for (kind, seen) in
        [(TerrainKind::Hedge, true), (TerrainKind::StoneWall, true), (TerrainKind::Treeline, false)]
    {
        for (turn, x, y) in PLACES {
            let mut marker =
                Unit::new("fr-sk", "france", UnitKind::Skirmisher, vec![b(0.0, 0.0, 90.0, 20.0, 20.0)]);
            marker.parent = None;
            let mut foe =
                Unit::new("au-1", "austria", UnitKind::Infantry, vec![b(0.0, 83.5, 270.0, 30.0, 20.0)]);
            foe.formation = Some(Formation::Line);
            let mut t = common::table(RuleSet::Republique5, vec![marker, foe]);
            t.terrain = vec![wall(kind, 40.5)];
            let t = RigidMotion::new(turn, Vec2::new(x, y)).table(&t);
            let index = SpatialIndex::new(&t);
            let sight = TerrainSight::try_new(&index).unwrap_or_else(|e| panic!("{e}"));
            let fire = skirmish_fire(&t, &index, &t.rule_book().unwrap_or_else(|e| panic!("{e}")), &sight)
                .unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(!fire[0].targets.is_empty(), seen, "{kind} turned {turn}");
        }
    }
}
