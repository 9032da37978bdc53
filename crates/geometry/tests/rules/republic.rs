//! Republic's table measures (seed 003): the alert zone (201) and bluff reach (301),
//! hand-worked, each just inside and just outside its threshold, at several headings.

use crate::common;

use common::{IN, area, b, inf, table, unit};
use vedette_geometry::republic::{
    alert_zone, bluff_reach, is_alert, lost_in_woods, markers_near_leaders, support_behind,
};
use vedette_geometry::{Marker, MarkerKind, RuleSet, SpatialIndex, Table, TerrainKind, Unit, UnitKind, Vec2};

/// Every base and terrain point turned by `turn` degrees about the origin and moved to
/// the table's middle.
fn turned(mut t: Table, turn: f64) -> Table {
    let at = |p: Vec2| Vec2::new(900.0, 600.0) + p.rotated_deg(turn);
    for u in &mut t.units {
        for base in &mut u.bases {
            let c = at(base.centre());
            *base = b(c.x, c.y, base.heading_deg() + turn, base.width(), base.depth());
        }
    }
    for f in &mut t.terrain {
        f.outline = f.outline.iter().map(|&p| at(p)).collect();
    }
    t
}

/// A French line of three bases (x -45..45, front edge y = 10) facing +y, on alert, and
/// an Austrian base (30 x 20, facing -y) with its near edge `ahead` in front of the
/// line's front and its near side `beside` mm right of the line's right end (negative:
/// overlapping the frontage).
fn alert_scene(ahead: f64, beside: f64) -> Table {
    let line = unit(
        "fr-1",
        "fr",
        UnitKind::Infantry,
        vec![inf(-30.0, 0.0, 90.0), inf(0.0, 0.0, 90.0), inf(30.0, 0.0, 90.0)],
    );
    let enemy =
        unit("au-1", "au", UnitKind::Infantry, vec![inf(45.0 + beside + 15.0, 10.0 + ahead + 10.0, 270.0)]);
    let mut t = table(RuleSet::Republic, vec![line, enemy]);
    t.markers.push(Marker {
        kind: MarkerKind::Alert,
        colour: None,
        x: 0.0,
        y: -20.0,
        unit: Some("fr-1".into()),
        size: None,
        sigma_mm: None,
    });
    t
}

fn in_alert_zone(t: &Table) -> bool {
    assert!(is_alert(t, 0));
    let index = SpatialIndex::new(t);
    alert_zone(t, &index, &t.rule_book().unwrap(), 0).unwrap().contains_key(&1)
}

#[test]
fn alert_infantry_zone_is_four_inches_with_the_assault_flare() {
    for turn in [0.0, 72.0, 200.0] {
        // Straight ahead (overlapping the right base's frontage by 10 mm): 3.99" in, 4.01" out.
        assert!(in_alert_zone(&turned(alert_scene(3.99 * IN, -10.0), turn)), "{turn}");
        assert!(!in_alert_zone(&turned(alert_scene(4.01 * IN, -10.0), turn)), "{turn}");
        // Beside the frontage, its near edge 3" ahead: the side flares 5°, and the enemy's
        // far edge lies 76.2 + 20 = 96.2 mm ahead, where the zone reaches
        // 96.2 x tan 5° = 8.42 mm past the line's right end: 7.9 mm in, 8.9 mm out.
        assert!(in_alert_zone(&turned(alert_scene(3.0 * IN, 7.9), turn)), "{turn}");
        assert!(!in_alert_zone(&turned(alert_scene(3.0 * IN, 8.9), turn)), "{turn}");
    }
}

/// A French unit of `kind` (one base facing +y, front edge y = 10 for infantry 30 x 20,
/// y = 15 for cavalry 40 x 30) and an Austrian skirmish marker (20 x 20) `gap` ahead.
fn bluff_scene(kind: UnitKind, gap: f64, wood: bool) -> Table {
    let (bw, bd) = if kind == UnitKind::Cavalry { (40.0, 30.0) } else { (30.0, 20.0) };
    let u = unit("fr-1", "fr", kind, vec![b(0.0, 0.0, 90.0, bw, bd)]);
    let mut sk: Unit =
        unit("au-sk", "au", UnitKind::Skirmisher, vec![b(0.0, bd / 2.0 + gap + 10.0, 270.0, 20.0, 20.0)]);
    sk.formation = None;
    let mut t = table(RuleSet::Republic, vec![u, sk]);
    if wood {
        let y = bd / 2.0 + gap;
        t.terrain.push(area(TerrainKind::LightForest, -50.0, y + 5.0, 50.0, y + 100.0));
    }
    t
}

fn bluffs(t: &Table) -> bool {
    let index = SpatialIndex::new(t);
    bluff_reach(t, &index, &t.rule_book().unwrap()).unwrap().iter().any(|r| r.unit == 0 && r.marker == 1)
}

#[test]
fn bluff_reaches_markers_in_the_open_within_one_or_three_inches() {
    for turn in [0.0, 135.0] {
        assert!(bluffs(&turned(bluff_scene(UnitKind::Infantry, 0.99 * IN, false), turn)));
        assert!(!bluffs(&turned(bluff_scene(UnitKind::Infantry, 1.01 * IN, false), turn)));
        assert!(bluffs(&turned(bluff_scene(UnitKind::Cavalry, 2.99 * IN, false), turn)));
        assert!(!bluffs(&turned(bluff_scene(UnitKind::Cavalry, 3.01 * IN, false), turn)));
        // A marker partly in a wood is not in the open.
        assert!(!bluffs(&turned(bluff_scene(UnitKind::Infantry, 0.5 * IN, true), turn)));
    }
}

#[test]
fn lost_in_the_woods_beyond_four_inches_of_friends() {
    // 003 308: a brigade in a wood (x -100..100, y -100..100) and a friendly brigade
    // outside it, `gap` beyond its right-hand base (x 15 + gap).
    let scene = |gap: f64, wooded: bool| {
        let mut t = table(
            RuleSet::Republic,
            vec![
                unit("fr-1", "fr", UnitKind::Infantry, vec![inf(0.0, 0.0, 90.0)]),
                unit("fr-2", "fr", UnitKind::Infantry, vec![inf(15.0 + gap + 15.0, 0.0, 90.0)]),
                unit("au-1", "au", UnitKind::Infantry, vec![inf(0.0, 30.0, 270.0)]),
            ],
        );
        t.terrain.push(area(
            if wooded { TerrainKind::MediumForest } else { TerrainKind::Marsh },
            -100.0,
            -100.0,
            16.0,
            100.0,
        ));
        t
    };
    let lost = |t: &Table| lost_in_woods(t, &SpatialIndex::new(t), &t.rule_book().unwrap()).unwrap();
    for turn in [0.0, 250.0] {
        // fr-1 in the wood; fr-2 just outside it; the enemy au-1 does not count as a friend
        // (and is in the wood too, with no friend at all).
        assert_eq!(lost(&turned(scene(4.01 * IN, true), turn)), vec![0, 2], "{turn}");
        assert_eq!(lost(&turned(scene(3.99 * IN, true), turn)), vec![2], "{turn}");
        assert_eq!(lost(&turned(scene(4.01 * IN, false), turn)), Vec::<usize>::new(), "{turn}");
    }
}

#[test]
fn support_within_one_inch_to_the_rear_of_a_unit_in_assault_range() {
    // 003 102 B: fr-1 (front edge y = 10) is 2" from au-1 (in general assault range);
    // fr-2 stands behind fr-1 (rear edge y = -10) with `gap` between them.
    let scene = |gap: f64, enemy_gap: f64| {
        table(
            RuleSet::Republic,
            vec![
                unit("fr-1", "fr", UnitKind::Infantry, vec![inf(0.0, 0.0, 90.0)]),
                unit("fr-2", "fr", UnitKind::Infantry, vec![inf(0.0, -10.0 - gap - 10.0, 90.0)]),
                unit("au-1", "au", UnitKind::Infantry, vec![inf(0.0, 10.0 + enemy_gap + 10.0, 270.0)]),
            ],
        )
    };
    let pairs = |t: &Table| {
        support_behind(t, &SpatialIndex::new(t), &t.rule_book().unwrap())
            .unwrap()
            .iter()
            .map(|s| (s.supported, s.supporter))
            .collect::<Vec<_>>()
    };
    for turn in [0.0, 300.0] {
        assert_eq!(pairs(&turned(scene(0.99 * IN, 2.0 * IN), turn)), vec![(0, 1)], "{turn}");
        assert_eq!(pairs(&turned(scene(1.01 * IN, 2.0 * IN), turn)), vec![], "{turn}");
        // fr-1 out of assault range (3.1"): no support test.
        assert_eq!(pairs(&turned(scene(0.5 * IN, 3.1 * IN), turn)), vec![], "{turn}");
    }
}

#[test]
fn sharpshooters_reach_leaders_at_six_inches() {
    // 003 106: an enemy skirmish marker counts for the hors de combat table within 4" of
    // a leader, the side's sharpshooter within 6". A French leader (40 x 40) at the
    // origin and an Austrian marker (20 x 20) `gap` to its right.
    let scene = |gap: f64, sharpshooter: bool| {
        let mut leader = unit("fr-gen", "fr", UnitKind::Leader, vec![b(0.0, 0.0, 90.0, 40.0, 40.0)]);
        leader.formation = None;
        let mut sk =
            unit("au-sk", "au", UnitKind::Skirmisher, vec![b(20.0 + gap + 10.0, 0.0, 90.0, 20.0, 20.0)]);
        sk.formation = None;
        let mut t = table(RuleSet::Republic, vec![leader, sk]);
        if sharpshooter {
            t.markers.push(Marker {
                kind: MarkerKind::Sharpshooter,
                colour: None,
                x: 0.0,
                y: 0.0,
                unit: Some("au-sk".into()),
                size: None,
                sigma_mm: None,
            });
        }
        t
    };
    let near = |t: &Table| {
        !markers_near_leaders(t, &SpatialIndex::new(t), &t.rule_book().unwrap()).unwrap().is_empty()
    };
    for turn in [0.0, 160.0] {
        assert!(near(&turned(scene(3.99 * IN, false), turn)));
        assert!(!near(&turned(scene(4.01 * IN, false), turn)));
        assert!(near(&turned(scene(5.99 * IN, true), turn)));
        assert!(!near(&turned(scene(6.01 * IN, true), turn)));
    }
}
