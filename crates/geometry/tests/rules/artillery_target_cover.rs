//! The cover of an artillery target (000 §4.3 range column modifier), hand-worked, at
//! several table headings.
//!
//! The French battery "gun" (25 x 40, packed frontage) stands at the origin facing +y:
//! its front edge runs from (-12.5, 20) to (12.5, 20). The Austrian line "au-1" of three
//! 30 x 20 bases faces it 5" away: centres x = -30, 0, 30 at y = 20 + 127 + 10 = 157
//! (near edges y = 147). Base #1 alone lies straight ahead of the packed frontage, so it
//! is nearest and the centre of fire runs straight up x = 0 through it.

use crate::common;

use common::area;
use vedette_geometry::artillery::target_cover;
use vedette_geometry::los::TerrainSight;
use vedette_geometry::{
    ArtilleryRules, BaseRef, Battlefield, CoverClass, Formation, FrontageMode, SpatialIndex, Table,
    TerrainFeature, TerrainKind, TerrainOutlines, Unit, UnitKind, Vec2, assess_battery,
};

fn scene(terrain: Vec<TerrainFeature>, turn: f64) -> Table {
    let at = |p: Vec2| Vec2::new(900.0, 600.0) + p.rotated_deg(turn);
    let base = |x: f64, y: f64, h: f64, w: f64, d: f64| {
        common::b(at(Vec2::new(x, y)).x, at(Vec2::new(x, y)).y, h + turn, w, d)
    };
    let mut gun = Unit::new("gun", "france", UnitKind::Artillery, vec![base(0.0, 0.0, 90.0, 25.0, 40.0)]);
    gun.formation = Some(Formation::Unlimbered);
    gun.frontage = Some(FrontageMode::Packed);
    let mut foe = Unit::new(
        "au-1",
        "austria",
        UnitKind::Infantry,
        [-30.0, 0.0, 30.0].iter().map(|&x| base(x, 157.0, 270.0, 30.0, 20.0)).collect(),
    );
    foe.formation = Some(Formation::Line);
    let mut t = common::table(vedette_geometry::RuleSet::Republique5, vec![gun, foe]);
    t.terrain = terrain
        .into_iter()
        .map(|mut f| {
            f.outline = f.outline.iter().map(|&p| at(p)).collect();
            f.path = f.path.iter().map(|&p| at(p)).collect();
            f
        })
        .collect();
    t
}

fn wall(kind: TerrainKind, y: f64) -> TerrainFeature {
    TerrainFeature {
        crests: Vec::new(),
        id: None,
        kind,
        level: 0.0,
        outline: vec![],
        holes: vec![],
        path: vec![Vec2::new(-80.0, y), Vec2::new(80.0, y)],
    }
}

/// (class, columns right, fires at uncovered), or `None` when au-1 is not the main target.
fn cover(terrain: Vec<TerrainFeature>, turn: f64) -> Option<(Option<CoverClass>, u8, bool)> {
    let t = scene(terrain, turn);
    let index = SpatialIndex::new(&t);
    let rules = ArtilleryRules::for_table(&t).unwrap();
    let los = TerrainSight::try_new(&index).unwrap();
    let field = Battlefield {
        table: &t,
        index: &index,
        rules: &rules,
        line_of_sight: &los,
        ground: &TerrainOutlines,
    };
    let a = assess_battery(&field, BaseRef::new(0, 0)).unwrap();
    let main = a.main.as_ref().filter(|m| m.unit == 1)?;
    let c = target_cover(&t, &t.rule_book().unwrap(), &los, BaseRef::new(0, 0), main).unwrap();
    assert_eq!(c.aimed_base, Some(1), "the centre of fire runs through base #1");
    Some((c.class, c.columns_right(), c.fires_at_uncovered))
}

#[test]
fn half_or_more_of_the_visible_bases_in_medium_cover_is_one_column() {
    for turn in [0.0, 40.0, 190.0] {
        // In the open.
        assert_eq!(cover(vec![], turn), Some((None, 0, false)), "{turn}");
        // A medium wood over bases #0 and #1 (x -45..15, and 1 mm of #2): 2 of 3 covered,
        // the centre of fire on a covered base: one column.
        let wood = area(TerrainKind::MediumForest, -60.0, 140.0, 16.0, 175.0);
        assert_eq!(cover(vec![wood], turn), Some((Some(CoverClass::Medium), 1, false)), "{turn}");
        // Only #0 covered: 1 of 3 is under half.
        let wood = area(TerrainKind::MediumForest, -60.0, 140.0, -15.0, 175.0);
        assert_eq!(cover(vec![wood], turn), Some((None, 0, false)), "{turn}");
        // #0 and #2 covered, #1 (where the centre of fire passes) in the open: the battery
        // fires at the uncovered portions without the modifier.
        let woods = vec![
            area(TerrainKind::MediumForest, -60.0, 140.0, -15.0, 175.0),
            area(TerrainKind::MediumForest, 15.0, 140.0, 60.0, 175.0),
        ];
        assert_eq!(cover(woods, turn), Some((Some(CoverClass::Medium), 0, true)), "{turn}");
    }
}

#[test]
fn behind_an_obstacle_within_its_spotting_depth() {
    // A unit takes cover behind a low obstacle when it touches it or stands within its
    // spotting depth behind it (000 §3.6; GEOMETRY.md, low linear obstacles).
    for turn in [0.0, 115.0] {
        // A stone wall (medium, 1" = 25.4 mm) across the line of fire 25.3 mm in front of
        // the line's near edge (y = 147): behind it; 25.5 mm: in the open, and seen over
        // the wall.
        assert_eq!(
            cover(vec![wall(TerrainKind::StoneWall, 147.0 - 25.3)], turn),
            Some((Some(CoverClass::Medium), 1, false)),
            "{turn}"
        );
        assert_eq!(
            cover(vec![wall(TerrainKind::StoneWall, 147.0 - 25.5)], turn),
            Some((None, 0, false)),
            "{turn}"
        );
        // A redoubt (reinforced, ½" = 12.7 mm): 12.6 mm, two columns; 12.8 mm, none.
        assert_eq!(
            cover(vec![wall(TerrainKind::Redoubt, 147.0 - 12.6)], turn),
            Some((Some(CoverClass::Reinforced), 2, false)),
            "{turn}"
        );
        assert_eq!(
            cover(vec![wall(TerrainKind::Redoubt, 147.0 - 12.8)], turn),
            Some((None, 0, false)),
            "{turn}"
        );
        // A stream bank gives combat bases no cover against artillery (000 §3.6 note 2).
        assert_eq!(cover(vec![wall(TerrainKind::StreamBank, 147.0)], turn), Some((None, 0, false)), "{turn}");
    }
}
