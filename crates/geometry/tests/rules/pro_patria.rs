//! Hand-worked Pro Patria! scenarios (issue 5), 28 mm figures unless said (the bracketed
//! 15 mm distances are checked where they differ). Stands: 60 x 20 mm infantry.

use crate::common;
use common::{b, table, unit};
use vedette_geometry::los::TerrainSight;
use vedette_geometry::pro_patria::arcs::{endangered_friends, nearest_in_arc};
use vedette_geometry::pro_patria::bombardment::{bombardment_box, units_in};
use vedette_geometry::pro_patria::charge::{catches_at, is_fast_target};
use vedette_geometry::pro_patria::command::command_radius;
use vedette_geometry::pro_patria::contact::{edge_contact_mm, proximities};
use vedette_geometry::pro_patria::corridor::endangered;
use vedette_geometry::{
    Formation, LeaderRole, RuleSet, Scale, SpatialIndex, Table, TerrainKind, UnitKind, Vec2,
};

fn stand(x: f64, y: f64, h: f64) -> vedette_geometry::Base {
    b(x, y, h, 60.0, 20.0)
}

/// A firing stand at the origin facing +y (front edge y = 10, x -30..30) and an enemy
/// stand whose top-left corner is at (`left`, 130).
fn arc_table(left: f64, skirmish: bool) -> Table {
    let mut f = unit("fr", "fr", UnitKind::Infantry, vec![stand(0.0, 0.0, 90.0)]);
    if skirmish {
        f.formation = Some(Formation::SkirmishOrder);
    }
    table(
        RuleSet::ProPatria,
        vec![f, unit("au", "au", UnitKind::Infantry, vec![stand(left + 30.0, 120.0, 90.0)])],
    )
}

fn target(t: &Table) -> Option<usize> {
    let index = SpatialIndex::new(t);
    let sight = TerrainSight::try_new(&index).unwrap();
    nearest_in_arc(t, &index, &t.rule_book().unwrap(), &sight, 0).unwrap().map(|(u, _)| u)
}

#[test]
fn firing_arcs_are_22_and_a_half_degrees_from_the_front_corners() {
    // The right side of the arc leaves (30, 10) at 22.5°: at y = 130 (120 mm ahead) it is
    // at x = 30 + 120 tan 22.5° = 79.706. The enemy's top-left corner 0.5 mm inside / outside.
    let line = 30.0 + 120.0 * 22.5f64.to_radians().tan();
    assert!((line - 79.7056).abs() < 1e-4);
    assert_eq!(target(&arc_table(line - 0.5, false)), Some(1));
    assert_eq!(target(&arc_table(line + 0.5, false)), None);
    // Skirmishers fire in 180°: the same enemy is in their arc.
    assert_eq!(target(&arc_table(line + 0.5, true)), Some(1));
}

#[test]
fn the_nearest_target_must_be_visible() {
    // 004 §17.3 "the nearest visible eligible enemy unit". Enemy 1 stands 120 mm straight
    // ahead (near edge y = 110); enemy 2 250 mm ahead (near edge y = 240), 40 mm to the
    // right, both in arc. A heavy wood 600 mm wide fills y 40..100 between the firer and
    // enemy 1 only when `wood_at` reaches it; enemy 2 is seen past its end.
    let scene = |wood: Option<(f64, f64)>| {
        let mut t = arc_table(-30.0, false);
        t.units.push(unit("au2", "au", UnitKind::Infantry, vec![stand(40.0, 250.0, 90.0)]));
        if let Some((x0, x1)) = wood {
            t.terrain.push(common::area(TerrainKind::HeavyForest, x0, 40.0, x1, 100.0));
        }
        t
    };
    assert_eq!(target(&scene(None)), Some(1));
    // The wood hides enemy 1 (whose whole front lies behind it, x -30..30) and, being
    // 60 mm deep and 900 mm wide, enemy 2 too: no visible target.
    assert_eq!(target(&scene(Some((-450.0, 450.0)))), None);
    // A wood covering x -450..35 hides enemy 1 (x -30..30); enemy 2 (x 10..70) is seen
    // past its right end (the firer's right corner at x = 30 sees x > 35 straight ahead).
    assert_eq!(target(&scene(Some((-450.0, 35.0)))), Some(2));
}

#[test]
fn a_target_beyond_a_hill_crest_is_not_visible() {
    // 004 §15.1 with §17.3. A hill (level ½) x -450..35, y 40..90: its area spreads most
    // along x, so its spine runs y = 65 from x = -450 to 35; the crest across its widest
    // point (every width is 50 mm: the middle) runs x = -207.5, far from everyone. The
    // firer's front edge (y = 10) is 55 mm short of the spine, enemy 1's near edge
    // (y = 110, x -30..30) 45 mm past it: every line between them crosses the spine, so
    // the crest hides enemy 1; enemy 2 (x 10..70, near edge 240) is seen past the spine's
    // end (the firer's right corner (30, 10) sees x > 35 straight ahead).
    let scene = |enemy_y: f64| {
        let mut t = arc_table(-30.0, false);
        t.units[1].bases[0] = stand(0.0, enemy_y, 90.0);
        t.units.push(unit("au2", "au", UnitKind::Infantry, vec![stand(40.0, 250.0, 90.0)]));
        let mut hill = common::area(TerrainKind::Hill, -450.0, 40.0, 35.0, 90.0);
        hill.level = 0.5;
        t.terrain.push(hill);
        t
    };
    assert_eq!(target(&scene(120.0)), Some(2));
    // Enemy 1 with its near edge 20 mm past the spine (y = 85): within 25 mm of the
    // crest, so seen as declared over it, the verdict every target takes.
    assert_eq!(target(&scene(95.0)), Some(1));
}

#[test]
fn only_skirmishers_may_target_staff() {
    // An enemy general 100 mm straight ahead (§17.3.10).
    let with_general = |skirmish: bool| {
        let mut t = arc_table(1000.0, skirmish);
        let mut g = unit("au-gen", "au", UnitKind::Leader, vec![b(0.0, 130.0, 270.0, 40.0, 40.0)]);
        g.formation = None;
        t.units.push(g);
        t
    };
    assert_eq!(target(&with_general(false)), None);
    assert_eq!(target(&with_general(true)), Some(2));
}

#[test]
fn contact_needs_thirty_millimetres_of_edge() {
    // Face to face, offset sideways by 60 - overlap.
    let pair = |overlap: f64| {
        table(
            RuleSet::ProPatria,
            vec![
                unit("fr", "fr", UnitKind::Infantry, vec![stand(0.0, 0.0, 90.0)]),
                unit("au", "au", UnitKind::Infantry, vec![stand(60.0 - overlap, 20.0, 270.0)]),
            ],
        )
    };
    let p = |t: &Table| proximities(t, &SpatialIndex::new(t), &t.rule_book().unwrap()).unwrap();
    assert!(p(&pair(30.0))[0].in_contact);
    assert!((p(&pair(30.0))[0].contact_mm - 30.0).abs() < 1e-9);
    assert!(!p(&pair(29.9))[0].in_contact);
    // 15 mm figures need only 20 mm.
    let mut t = pair(20.0);
    t.scale = Scale::Figures15mm;
    assert!(p(&t)[0].in_contact);
    // A corner touching a corner is no edge contact.
    assert_eq!(edge_contact_mm(&stand(0.0, 0.0, 90.0), &stand(60.0, 20.0, 90.0)), 0.0);
}

#[test]
fn no_unit_comes_within_25mm_of_an_enemy_it_has_not_charged() {
    let gap = |g: f64| {
        table(
            RuleSet::ProPatria,
            vec![
                unit("fr", "fr", UnitKind::Infantry, vec![stand(0.0, 0.0, 90.0)]),
                unit("au", "au", UnitKind::Infantry, vec![stand(0.0, 20.0 + g, 270.0)]),
            ],
        )
    };
    let too_close = |t: &Table| {
        proximities(t, &SpatialIndex::new(t), &t.rule_book().unwrap())
            .unwrap()
            .iter()
            .any(|p| p.too_close(25.0))
    };
    assert!(too_close(&gap(24.9)));
    assert!(!too_close(&gap(25.1)));
}

#[test]
fn friends_crossing_the_firing_corridor_are_endangered() {
    // Firer at the origin (front x -30..30 at y = 10) shooting straight ahead at a target
    // 300 mm away; a friend beside the corridor's right line x = 30, 0.5 mm across / short.
    let with_friend = |left: f64| {
        table(
            RuleSet::ProPatria,
            vec![
                unit("fr", "fr", UnitKind::Infantry, vec![stand(0.0, 0.0, 90.0)]),
                unit("au", "au", UnitKind::Infantry, vec![stand(0.0, 320.0, 270.0)]),
                unit("fr2", "fr", UnitKind::Infantry, vec![stand(left + 30.0, 150.0, 90.0)]),
            ],
        )
    };
    let e = |t: &Table| endangered(t, &SpatialIndex::new(t), 0, 1, None);
    assert_eq!(e(&with_friend(29.5)), vec![2]);
    assert!(e(&with_friend(30.5)).is_empty());
    // Beyond the target it is not between firer and target.
    let mut t = with_friend(0.0);
    t.units[2].bases[0] = stand(0.0, 400.0, 90.0);
    assert!(e(&t).is_empty());
}

#[test]
fn command_radius_is_400mm() {
    let with_unit_at = |gap: f64| {
        let mut g = unit("gen", "fr", UnitKind::Leader, vec![b(0.0, 0.0, 90.0, 40.0, 40.0)]);
        g.role = Some(LeaderRole::Division);
        g.division = Some("d".into());
        g.formation = None;
        let mut u = unit("bn", "fr", UnitKind::Infantry, vec![stand(0.0, 20.0 + gap + 10.0, 90.0)]);
        u.division = Some("d".into());
        table(RuleSet::ProPatria, vec![g, u])
    };
    let inside = |t: &Table| command_radius(t, &t.rule_book().unwrap(), 0).unwrap()[0].in_command;
    assert!(inside(&with_unit_at(399.0)));
    assert!(inside(&with_unit_at(400.0)));
    assert!(!inside(&with_unit_at(401.0)));
    let mut t = with_unit_at(251.0);
    t.scale = Scale::Figures15mm;
    assert!(!inside(&t));
}

#[test]
fn bombardment_box_reaches_150mm_beyond_the_point() {
    // A two-gun battery (80 mm frontage) facing +y aims at (0, 500): the box is x -40..40,
    // y 500..650. A stand whose near edge is at 649.5 is hit; at 650.5 it is not.
    let battery = unit(
        "bat",
        "fr",
        UnitKind::Artillery,
        vec![b(-20.0, 0.0, 90.0, 40.0, 60.0), b(20.0, 0.0, 90.0, 40.0, 60.0)],
    );
    let with_target = |near: f64| {
        table(
            RuleSet::ProPatria,
            vec![battery.clone(), unit("au", "au", UnitKind::Infantry, vec![stand(0.0, near + 10.0, 270.0)])],
        )
    };
    let hit = |t: &Table| {
        let bx =
            bombardment_box(&t.units[0], Vec2::new(0.0, 500.0), &t.rule_book().unwrap()).unwrap().unwrap();
        units_in(t, &bx).contains(&1)
    };
    assert!(hit(&with_target(649.5)));
    assert!(!hit(&with_target(650.5)));
}

#[test]
fn charges_catch_within_50mm_for_infantry_and_150mm_for_cavalry() {
    let t = table(RuleSet::ProPatria, vec![]);
    let book = t.rule_book().unwrap();
    assert!(catches_at(UnitKind::Infantry, 49.9, &book).unwrap());
    assert!(!catches_at(UnitKind::Infantry, 50.1, &book).unwrap());
    assert!(catches_at(UnitKind::Cavalry, 150.0, &book).unwrap());
    assert!(!catches_at(UnitKind::Cavalry, 150.1, &book).unwrap());
    assert!(!is_fast_target(200.0, &book).unwrap());
    assert!(is_fast_target(200.1, &book).unwrap());
    let mut t15 = t.clone();
    t15.scale = Scale::Figures15mm;
    assert!(!catches_at(UnitKind::Infantry, 30.1, &t15.rule_book().unwrap()).unwrap());
}

#[test]
fn a_target_behind_a_hedge_within_25_mm_is_in_cover() {
    // 004 §15.11: within 25 mm (28 mm figures) and behind light or heavy cover. The enemy
    // stand's near edge is at y = 110 (its centre y = 120); a hedge across the line of
    // fire at y = 110 - 24 is within 25 mm of it, at y = 110 - 26 it is not. A heavy wood
    // holding the whole enemy stand is heavy cover.
    let with = |f: vedette_geometry::TerrainFeature| {
        let mut t = arc_table(-30.0, false);
        t.terrain.push(f);
        t
    };
    let hedge = |y: f64| vedette_geometry::TerrainFeature {
        crests: Vec::new(),
        id: None,
        kind: TerrainKind::Hedge,
        level: 0.0,
        outline: vec![],
        holes: vec![],
        path: vec![Vec2::new(-200.0, y), Vec2::new(200.0, y)],
    };
    let cover = |t: &Table| {
        vedette_geometry::pro_patria::arcs::target_cover_class(t, &t.rule_book().unwrap(), 0, 1).unwrap()
    };
    assert_eq!(cover(&arc_table(-30.0, false)), None);
    assert_eq!(cover(&with(hedge(110.0 - 24.0))), Some(vedette_geometry::CoverClass::Light));
    assert_eq!(cover(&with(hedge(110.0 - 26.0))), None);
    assert_eq!(
        cover(&with(common::area(TerrainKind::HeavyForest, -100.0, 105.0, 100.0, 200.0))),
        Some(vedette_geometry::CoverClass::Heavy)
    );
}

/// A French gun stand (60 x 20) at the origin facing +y (front edge y = 10), an Austrian
/// stand whose near edge is `gap` ahead of it, and hills of `gun_level` under the gun and
/// `target_level` under the target (0: none).
fn hill_table(gap: f64, gun_level: f64, target_level: f64) -> Table {
    let gun = unit("fr-art", "fr", UnitKind::Artillery, vec![stand(0.0, 0.0, 90.0)]);
    let foe = unit("au", "au", UnitKind::Infantry, vec![stand(0.0, 10.0 + gap + 10.0, 270.0)]);
    let mut t = table(RuleSet::ProPatria, vec![gun, foe]);
    let hill = |level: f64, y0: f64, y1: f64| {
        let mut h = common::area(TerrainKind::Hill, -120.0, y0, 120.0, y1);
        h.level = level;
        h
    };
    if gun_level > 0.0 {
        t.terrain.push(hill(gun_level, -60.0, 15.0));
    }
    if target_level > 0.0 {
        t.terrain.push(hill(target_level, 5.0 + gap, 60.0 + gap));
    }
    t
}

#[test]
fn artillery_elevation_limits() {
    // 004 §17.3.7 (28 mm): a gun on a high hill cannot shoot at targets 150 mm or closer.
    assert_eq!(target(&hill_table(149.0, 1.0, 0.0)), None);
    assert_eq!(target(&hill_table(150.0, 1.0, 0.0)), None);
    assert_eq!(target(&hill_table(151.0, 1.0, 0.0)), Some(1));
    // On the table top there is no minimum range.
    assert_eq!(target(&hill_table(100.0, 0.0, 0.0)), Some(1));
    // A target on a high hill: not from the table top, yes from a low hill or a high one.
    assert_eq!(target(&hill_table(300.0, 0.0, 1.0)), None);
    assert_eq!(target(&hill_table(300.0, 0.5, 1.0)), Some(1));
    assert_eq!(target(&hill_table(300.0, 1.0, 1.0)), Some(1));
    // A target on a low hill may be shot from the table top.
    assert_eq!(target(&hill_table(300.0, 0.0, 0.5)), Some(1));
}

#[test]
fn from_a_high_hill_only_friends_near_the_target_are_endangered() {
    // 004 §17.3.7: firing from a high hill, friends between gun and target are endangered
    // only within 100 mm of the target. The target's near edge is 400 mm ahead (y = 410);
    // a friendly stand in the corridor with its far edge 99 mm / 101 mm short of it.
    let scene = |gun_level: f64, short: f64| {
        let mut t = hill_table(400.0, gun_level, 0.0);
        t.units.push(unit("fr-2", "fr", UnitKind::Infantry, vec![stand(0.0, 410.0 - short - 10.0, 90.0)]));
        t
    };
    let e = |t: &Table| {
        let index = SpatialIndex::new(t);
        let sight = TerrainSight::try_new(&index).unwrap();
        endangered_friends(t, &index, &t.rule_book().unwrap(), &sight, 0, 1).unwrap()
    };
    assert_eq!(e(&scene(1.0, 99.0)), vec![2]);
    assert_eq!(e(&scene(1.0, 101.0)), Vec::<usize>::new());
    // From the table top (and a low hill) the whole corridor counts.
    assert_eq!(e(&scene(0.0, 101.0)), vec![2]);
    assert_eq!(e(&scene(0.5, 101.0)), vec![2]);
}
