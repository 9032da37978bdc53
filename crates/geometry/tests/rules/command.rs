//! Hand-worked command, movement and skirmisher scenarios (issue 5), each just inside and
//! just outside its threshold. Medium scale (1" = 25.4 mm).

use crate::common;
use common::{IN, b, inf, table, unit};
use vedette_geometry::command::assessment::assess_command;
use vedette_geometry::command::deployment::{
    corps_area_among, primary_units, primary_units_among, units_by_division,
};
use vedette_geometry::command::leaders::{commanded_units, commanded_units_among, division_leader};
use vedette_geometry::los::TerrainSight;
use vedette_geometry::{
    LeaderRole, RuleSet, Spacing, SpatialIndex, Table, TerrainKind, UnitKind, check_skirmishers, corps_area,
    division_area, division_gaps, nearest_enemy_of_divisions, pass_through, reaction_zone,
};

fn with_division(mut u: vedette_geometry::Unit, d: &str) -> vedette_geometry::Unit {
    u.division = Some(d.to_string());
    u
}

/// A division of one 30 x 20 regiment at the origin (x -15..15, y -10..10) and an
/// attached battery (25 x 40) whose centre is `at`.
fn division_with_asset(at: (f64, f64)) -> Table {
    let mut art =
        with_division(unit("art", "fr", UnitKind::Artillery, vec![b(at.0, at.1, 90.0, 25.0, 40.0)]), "d1");
    art.attached = true;
    table(
        RuleSet::Republique5,
        vec![with_division(unit("r1", "fr", UnitKind::Infantry, vec![inf(0.0, 0.0, 90.0)]), "d1"), art],
    )
}

fn asset_inside(t: &Table) -> bool {
    division_area(t, "d1", &t.rule_book().unwrap()).unwrap().unwrap().contains_unit(&t.units[1])
}

#[test]
fn an_attached_battery_must_stand_within_three_inches_of_the_primary_bases() {
    // Straight ahead: the battery's far edge (its front, y = cy + 20) at 10 + 2.99" is
    // inside the 3" line y = 10 + 76.2; at 10 + 3.01" it pokes out.
    assert!(asset_inside(&division_with_asset((0.0, 10.0 + 2.99 * IN - 20.0))));
    assert!(!asset_inside(&division_with_asset((0.0, 10.0 + 3.01 * IN - 20.0))));
    // Off the corner: the area's boundary is the 3" arc about the corner (15, 10). Put the
    // battery's far corner on the diagonal at 76.2 -/+ 0.5 mm from it.
    let far = |r: f64| {
        let d = r / std::f64::consts::SQRT_2;
        (15.0 + d - 12.5, 10.0 + d - 20.0)
    };
    assert!(asset_inside(&division_with_asset(far(76.2 - 0.5))));
    assert!(!asset_inside(&division_with_asset(far(76.2 + 0.5))));
    // The battery itself does not draw the line (000 §2.1 figure).
    let t = division_with_asset((0.0, 500.0));
    let a = division_area(&t, "d1", &t.rule_book().unwrap()).unwrap().unwrap();
    assert_eq!(a.outlines.len(), 1);
}

#[test]
fn the_area_inside_a_ring_of_regiments_is_part_of_the_division_area() {
    // Four regiments on the sides of a 400 mm square: the middle is 190 mm (7.5") from
    // every base, beyond 3", but inside the boundary line drawn round them.
    let mut units: Vec<_> =
        [(0.0, 200.0, 0.0), (0.0, -200.0, 180.0), (200.0, 0.0, 270.0), (-200.0, 0.0, 90.0)]
            .iter()
            .enumerate()
            .map(|(i, &(x, y, h))| {
                with_division(
                    unit(&format!("r{i}"), "fr", UnitKind::Infantry, vec![b(x, y, h, 400.0, 20.0)]),
                    "d1",
                )
            })
            .collect();
    let mut art =
        with_division(unit("art", "fr", UnitKind::Artillery, vec![b(0.0, 0.0, 90.0, 25.0, 40.0)]), "d1");
    art.attached = true;
    units.push(art);
    let t = table(RuleSet::Republique5, units);
    let a = division_area(&t, "d1", &t.rule_book().unwrap()).unwrap().unwrap();
    assert!(a.contains_unit(&t.units[4]));
}

#[test]
fn a_corps_area_fills_the_ground_between_its_divisions() {
    // Two divisions 400 mm apart (x = ±200); a corps cavalry brigade midway is 185 mm from
    // both (beyond either division's 3"), but inside the hull of the corps.
    let mut units = vec![
        with_division(unit("a", "fr", UnitKind::Infantry, vec![inf(-200.0, 0.0, 90.0)]), "d1"),
        with_division(unit("b", "fr", UnitKind::Infantry, vec![inf(200.0, 0.0, 90.0)]), "d2"),
    ];
    for u in &mut units {
        u.corps = Some("c1".into());
    }
    let mut cav = unit("cav", "fr", UnitKind::Cavalry, vec![b(0.0, 0.0, 90.0, 40.0, 20.0)]);
    cav.corps = Some("c1".into());
    cav.attached = true;
    units.push(cav);
    let t = table(RuleSet::Republique5, units);
    let book = t.rule_book().unwrap();
    assert!(corps_area(&t, "c1", &book).unwrap().unwrap().contains_unit(&t.units[2]));
    assert!(!division_area(&t, "d1", &book).unwrap().unwrap().contains_unit(&t.units[2]));
}

#[test]
fn looking_among_each_divisions_units_finds_what_the_whole_table_scan_finds() {
    // The command assessment looks among each division's units (`units_by_division`)
    // instead of scanning the table per division: the same primary units, commanded
    // units and corps areas on the 2,000-base sample.
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../samples/grand-battle.json");
    let t = Table::from_json_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let book = t.rule_book().unwrap();
    let by_division = units_by_division(&t);
    assert!(by_division.len() > 10);
    for (d, members) in &by_division {
        assert!(members.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(primary_units_among(&t, d, members.iter().copied()), primary_units(&t, d), "{d}");
        if let Some(l) = division_leader(&t, d) {
            assert_eq!(commanded_units_among(&t, l, members.iter().copied()), commanded_units(&t, l), "{d}");
        }
    }
    let mut corps: Vec<&str> = t.units.iter().filter_map(|u| u.corps.as_deref()).collect();
    corps.sort_unstable();
    corps.dedup();
    for c in corps.into_iter().take(2) {
        assert_eq!(corps_area_among(&t, c, &book, &by_division).unwrap(), corps_area(&t, c, &book).unwrap());
    }
}

#[test]
fn divisions_within_six_inches_and_engagement_at_eight() {
    // Two French divisions, one regiment each, side by side with a gap of 5.99" / 6.01".
    let two = |gap: f64| {
        table(
            RuleSet::Republique5,
            vec![
                with_division(unit("a", "fr", UnitKind::Infantry, vec![inf(0.0, 0.0, 90.0)]), "d1"),
                with_division(unit("b", "fr", UnitKind::Infantry, vec![inf(30.0 + gap, 0.0, 90.0)]), "d2"),
            ],
        )
    };
    let t = two(5.99 * IN);
    assert_eq!(division_gaps(&t, &SpatialIndex::new(&t), 6.0 * IN).len(), 1);
    let t = two(6.01 * IN);
    assert!(division_gaps(&t, &SpatialIndex::new(&t), 6.0 * IN).is_empty());
    // An enemy 7.99" in front of d1 puts it in engagement range; 8.01" does not.
    let engaged = |gap: f64| {
        let mut t = two(20.0 * IN);
        t.units.push(unit("au", "au", UnitKind::Infantry, vec![inf(0.0, 20.0 + gap, 270.0)]));
        nearest_enemy_of_divisions(&t, &SpatialIndex::new(&t), 8.0 * IN).contains_key("d1")
    };
    assert!(engaged(7.99 * IN));
    assert!(!engaged(8.01 * IN));
}

#[test]
fn divisions_adjoin_within_three_inches_and_in_sight() {
    // 000 §6.2: adjoining when the closest units are "within 3" of each other, or within
    // line of sight, whichever is less". Two one-regiment divisions side by side, x gap
    // 2.99" / 3.01"; with a heavy wood 1 m deep filling the gap (x 16..gap-16) they are
    // 2.99" apart but unseen: not adjoining.
    let adjoin = |gap: f64, wood: bool| {
        let mut t = table(
            RuleSet::Republique5,
            vec![
                with_division(unit("a", "fr", UnitKind::Infantry, vec![inf(0.0, 0.0, 90.0)]), "d1"),
                with_division(unit("b", "fr", UnitKind::Infantry, vec![inf(30.0 + gap, 0.0, 90.0)]), "d2"),
            ],
        );
        if wood {
            t.terrain.push(common::area(TerrainKind::HeavyForest, 16.0, -500.0, 14.0 + gap, 500.0));
        }
        let index = SpatialIndex::new(&t);
        let sight = TerrainSight::try_new(&index).unwrap();
        let found = assess_command(&t, &index, &t.rule_book().unwrap(), &sight).unwrap();
        assert_eq!(found.division_pairs.len(), 1, "within 6\": listed");
        found.division_pairs[0].adjoining
    };
    assert!(adjoin(2.99 * IN, false));
    assert!(!adjoin(3.01 * IN, false));
    assert!(!adjoin(2.99 * IN, true));
}

/// A cavalry brigade of two 40 x 30 bases facing +y (x -40..40, y -15..15; flank line
/// y = -15) and an enemy infantry base centred at `at` facing `h`.
fn cavalry_and(at: (f64, f64), h: f64) -> Table {
    table(
        RuleSet::Republique5,
        vec![
            unit(
                "cav",
                "fr",
                UnitKind::Cavalry,
                vec![b(-20.0, 0.0, 90.0, 40.0, 30.0), b(20.0, 0.0, 90.0, 40.0, 30.0)],
            ),
            unit("au", "au", UnitKind::Infantry, vec![inf(at.0, at.1, h)]),
        ],
    )
}

fn reacts(t: &Table) -> bool {
    let index = SpatialIndex::new(t);
    let sight = TerrainSight::try_new(&index).unwrap();
    !reaction_zone(t, &index, &t.rule_book().unwrap(), &sight, 0).unwrap().is_empty()
}

#[test]
fn cavalry_reacts_only_to_enemies_it_sees() {
    // 000 §3.6 "within line of sight or 6", whichever is less": an enemy 5" straight ahead
    // (near edge y = 15 + 5") behind a medium wood (y 40..120, 1 m wide) between them is
    // not seen, so no reaction; with the wood 200 mm to the side, it reacts.
    let with_wood = |x0: f64| {
        let mut t = cavalry_and((0.0, 15.0 + 5.0 * IN + 10.0), 270.0);
        t.terrain.push(common::area(TerrainKind::MediumForest, x0, 40.0, x0 + 1000.0, 120.0));
        t
    };
    assert!(!reacts(&with_wood(-500.0)));
    assert!(reacts(&with_wood(200.0)));
}

#[test]
fn cavalry_reacts_to_enemies_within_six_inches_of_its_front_only() {
    // Straight ahead, front edges 5.99" / 6.01" apart.
    assert!(reacts(&cavalry_and((0.0, 15.0 + 5.99 * IN + 10.0), 270.0)));
    assert!(!reacts(&cavalry_and((0.0, 15.0 + 6.01 * IN + 10.0), 270.0)));
    // Behind it, 1" away: the rear, not the front.
    assert!(!reacts(&cavalry_and((0.0, -15.0 - IN - 10.0), 90.0)));
    // Beside it, 1" off the left end, wholly behind the flank line (y <= -15): flank.
    assert!(!reacts(&cavalry_and((-40.0 - IN - 15.0, -15.0 - 10.5), 90.0)));
    // The same, its top edge 0.5 mm ahead of the flank line: part of it is to the front.
    assert!(reacts(&cavalry_and((-40.0 - IN - 15.0, -15.0 - 9.5), 90.0)));
}

/// An infantry (or cavalry) loser facing +y (x -15..15, y -10..10) and a friendly
/// regiment behind it, `gap` mm behind its rear edge, shifted `dx` sideways.
fn loser_and_friend(kind: UnitKind, gap: f64, dx: f64) -> Table {
    table(
        RuleSet::Republique5,
        vec![
            unit("loser", "fr", kind, vec![inf(0.0, 0.0, 90.0)]),
            unit("friend", "fr", UnitKind::Infantry, vec![inf(dx, -10.0 - gap - 10.0, 90.0)]),
        ],
    )
}

fn passed(t: &Table) -> bool {
    !pass_through(t, &SpatialIndex::new(t), &t.rule_book().unwrap(), 0).unwrap().is_empty()
}

#[test]
fn pass_through_reaches_three_inches_behind_foot_and_six_behind_horse() {
    assert!(passed(&loser_and_friend(UnitKind::Infantry, 2.99 * IN, 0.0)));
    assert!(!passed(&loser_and_friend(UnitKind::Infantry, 3.01 * IN, 0.0)));
    assert!(passed(&loser_and_friend(UnitKind::Cavalry, 5.99 * IN, 0.0)));
    assert!(!passed(&loser_and_friend(UnitKind::Cavalry, 6.01 * IN, 0.0)));
    // "Minimum overlap ... one full combat base": shifted 0.5 mm sideways, the friend's
    // base is no longer wholly between the loser's rear lines.
    assert!(!passed(&loser_and_friend(UnitKind::Infantry, IN, 0.5)));
}

/// A regiment (x -45..45, front y = 10) and two of its skirmish markers (20 x 20) at
/// `y` above it, `gap` mm apart edge to edge.
fn screen(gap: f64, front_gap: f64) -> Table {
    let y = 10.0 + front_gap + 10.0;
    let mut sk = unit(
        "sk",
        "fr",
        UnitKind::Skirmisher,
        vec![b(-10.0 - gap / 2.0, y, 90.0, 20.0, 20.0), b(10.0 + gap / 2.0, y, 90.0, 20.0, 20.0)],
    );
    sk.parent = Some("r".into());
    sk.formation = None;
    table(
        RuleSet::Republique5,
        vec![
            unit(
                "r",
                "fr",
                UnitKind::Infantry,
                vec![inf(-30.0, 0.0, 90.0), inf(0.0, 0.0, 90.0), inf(30.0, 0.0, 90.0)],
            ),
            sk,
        ],
    )
}

fn checks(t: &Table) -> Vec<vedette_geometry::MarkerCheck> {
    check_skirmishers(t, &SpatialIndex::new(t), &t.rule_book().unwrap()).unwrap()
}

#[test]
fn skirmishers_three_inches_apart_are_in_skirmish_order() {
    assert_eq!(checks(&screen(3.1 * IN, IN))[0].spacing, Spacing::SkirmishOrder);
    assert_eq!(checks(&screen(2.9 * IN, IN))[0].spacing, Spacing::Packed);
    // One base width (20 mm) apart is packed and allowed; closer is not.
    let at_width = checks(&screen(20.0, IN));
    assert_eq!(at_width[0].spacing, Spacing::Packed);
    assert!(at_width[0].is_legal());
    let closer = checks(&screen(19.9, IN));
    assert_eq!(closer[0].spacing, Spacing::TooClose);
    assert!(!closer[0].is_legal());
}

#[test]
fn skirmishers_stay_within_three_inches_of_the_parent() {
    assert!(checks(&screen(3.1 * IN, 2.99 * IN)).iter().all(|c| c.near_parent));
    assert!(checks(&screen(3.1 * IN, 3.01 * IN)).iter().all(|c| !c.near_parent));
}

#[test]
fn no_enemy_base_between_a_marker_and_its_parent() {
    // The markers stand 2.5" ahead (y 73.5..93.5); the left one spans x -59.37..-39.37
    // and its parent's closest base is #0 (x -45..-15, y -10..10). A 10 mm enemy base at
    // (-45, 40) lies in the hull of the two: between them.
    let mut t = screen(3.1 * IN, 2.5 * IN);
    t.units.push(unit("au", "au", UnitKind::Cavalry, vec![b(-45.0, 40.0, 0.0, 10.0, 10.0)]));
    let c = checks(&t);
    assert_eq!(c[0].enemy_between.len(), 1);
    assert!(c[1].enemy_between.is_empty());
    // Moved aside, past the marker's outer edge, it is no longer between.
    let mut t = screen(3.1 * IN, 2.5 * IN);
    t.units.push(unit("au", "au", UnitKind::Cavalry, vec![b(-200.0, 40.0, 0.0, 10.0, 10.0)]));
    assert!(checks(&t)[0].enemy_between.is_empty());
    let _ = LeaderRole::Division;
}

/// A division leader (25 x 30, facing +y, top edge y = 15) and a regiment of its
/// division whose rear edge is `gap` above the leader; plus, `corps_gap` to the left of
/// the leader, its corps leader.
fn leaders(gap: f64, corps_gap: f64) -> Table {
    let mut l = unit("ldr", "fr", UnitKind::Leader, vec![b(0.0, 0.0, 90.0, 25.0, 30.0)]);
    l.role = Some(LeaderRole::Division);
    l.division = Some("d1".into());
    l.corps = Some("c1".into());
    let mut c = unit("cc", "fr", UnitKind::Leader, vec![b(-12.5 - corps_gap - 12.5, 0.0, 90.0, 25.0, 30.0)]);
    c.role = Some(LeaderRole::Corps);
    c.corps = Some("c1".into());
    let mut r =
        with_division(unit("r", "fr", UnitKind::Infantry, vec![inf(0.0, 15.0 + gap + 10.0, 90.0)]), "d1");
    r.corps = Some("c1".into());
    table(RuleSet::Republique5, vec![l, c, r])
}

#[test]
fn leaders_within_three_inches_and_corps_commanders_beyond_twelve() {
    use vedette_geometry::{LeaderScope, corps_leader_distance_mm, units_within_reach};
    let near =
        |t: &Table| units_within_reach(t, &SpatialIndex::new(t), 0, 3.0 * IN, LeaderScope::AnyFriendly);
    assert_eq!(near(&leaders(2.99 * IN, 0.0)), vec![2]);
    assert!(near(&leaders(3.01 * IN, 0.0)).is_empty());
    // 000 §3.3: "Corps commander beyond 12"" from the division leader's base.
    let beyond = |g: f64| {
        !vedette_geometry::ties::within(corps_leader_distance_mm(&leaders(IN, g), "d1").unwrap(), 12.0 * IN)
    };
    assert!(!beyond(11.99 * IN));
    assert!(beyond(12.01 * IN));
    // Corps leaders add their rating to units of their own command within 4" (000 §2.3).
    // The corps leader (x -37.5..-12.5, top y = 15) and the regiment (x -15..15) overlap
    // across x -15..-12.5, so their gap is straight up: 3.99" is within, 4.01" is not.
    let own = |g: f64| {
        let t = leaders(g, 0.0);
        units_within_reach(&t, &SpatialIndex::new(&t), 1, 4.0 * IN, LeaderScope::OwnCommand)
    };
    assert_eq!(own(3.99 * IN), vec![2]);
    assert!(own(4.01 * IN).is_empty());
}

#[test]
fn classic_divisions_adjoin_within_8cm() {
    // 002 §5.2: adjoining within 8 cm (medium scale).
    let two = |gap: f64| {
        table(
            RuleSet::RepubliqueClassic,
            vec![
                with_division(unit("a", "fr", UnitKind::Infantry, vec![inf(0.0, 0.0, 90.0)]), "d1"),
                with_division(unit("b", "fr", UnitKind::Infantry, vec![inf(30.0 + gap, 0.0, 90.0)]), "d2"),
            ],
        )
    };
    let reach = |t: &Table| {
        t.rule_book().unwrap().distance_mm(vedette_geometry::RuleDistance::AdjoiningPanic).unwrap()
    };
    let t = two(79.9);
    assert_eq!(division_gaps(&t, &SpatialIndex::new(&t), reach(&t)).len(), 1);
    let t = two(80.1);
    assert!(division_gaps(&t, &SpatialIndex::new(&t), reach(&t)).is_empty());
}

#[test]
fn classic_divisions_adjoin_only_in_sight() {
    // 002 §5.2: "within 8cm of each other, or within line of sight, whichever is less":
    // two one-regiment divisions 79.9 mm apart adjoin; with a heavy wood filling the gap
    // they are as close but unseen: listed, not adjoining.
    let adjoin = |wood: bool| {
        let mut t = table(
            RuleSet::RepubliqueClassic,
            vec![
                with_division(unit("a", "fr", UnitKind::Infantry, vec![inf(0.0, 0.0, 90.0)]), "d1"),
                with_division(unit("b", "fr", UnitKind::Infantry, vec![inf(30.0 + 79.9, 0.0, 90.0)]), "d2"),
            ],
        );
        if wood {
            t.terrain.push(common::area(TerrainKind::HeavyForest, 16.0, -500.0, 14.0 + 79.9, 500.0));
        }
        let index = SpatialIndex::new(&t);
        let sight = TerrainSight::try_new(&index).unwrap();
        let found = assess_command(&t, &index, &t.rule_book().unwrap(), &sight).unwrap();
        assert_eq!(found.division_pairs.len(), 1, "within 8 cm: listed");
        found.division_pairs[0].adjoining
    };
    assert!(adjoin(false));
    assert!(!adjoin(true));
}
