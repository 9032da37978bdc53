//! Movement through terrain, costs without a maneuver system, Republic road movement and
//! deployment shadows, and Pro Patria movement (issue 40): scenes worked out by hand from
//! the rule texts (000 §3.1-3.7, 003 303 and 305, 004 §17.2-17.4), each just inside and
//! just outside its thresholds, on turned and moved tables, and under scan noise (every
//! base moved up to 0.1 mm and turned up to 0.2°, independently in the two positions)
//! away from the thresholds.

use crate::common;

use common::{IN, area, b, inf, unit};
use proptest::prelude::*;
use vedette_geometry::los::TerrainSight;
use vedette_geometry::movement::{
    Ground, Measured, MoveAssessment, MoveQuestions, ProPatriaChange, assess_move,
};
use vedette_geometry::pro_patria::assessment::assess_pro_patria;
use vedette_geometry::republic::road_columns;
use vedette_geometry::{
    Base, Formation, FrontageMode, ManeuverSystem, RigidMotion, RuleSet, SideSettings, SpatialIndex, Table,
    TerrainFeature, TerrainKind, Unit, UnitKind, Vec2,
};

/// Where a scene is put: turned by `turn` degrees about the origin and moved by
/// `shift`; each base then moved by its `noise` (dx, dy in mm, dh in degrees).
#[derive(Debug, Clone, Default)]
struct Place {
    turn: f64,
    shift: Vec2,
    noise: Vec<(f64, f64, f64)>,
}

impl Place {
    fn at(turn: f64, x: f64, y: f64) -> Place {
        Place { turn, shift: Vec2::new(x, y), noise: vec![] }
    }

    /// The table placed; `offset` picks which noise the bases take (the two positions
    /// of a move are two scans: independent noise).
    fn table(&self, t: &Table, offset: usize) -> Table {
        let mut t = RigidMotion::new(self.turn, self.shift).table(t);
        let mut k = offset;
        for u in &mut t.units {
            for base in &mut u.bases {
                if let Some(&(dx, dy, dh)) = self.noise.get(k % self.noise.len().max(1)) {
                    let c = base.centre() + Vec2::new(dx, dy);
                    *base = b(c.x, c.y, base.heading_deg() + dh, base.width(), base.depth());
                }
                k += 1;
            }
        }
        t
    }
}

/// The placements every scene is checked at.
fn places() -> Vec<Place> {
    vec![
        Place::at(0.0, 0.0, 0.0),
        Place::at(37.0, 600.0, 200.0),
        Place::at(90.0, 900.0, 600.0),
        Place::at(213.5, 1500.0, 1100.0),
    ]
}

/// A side with a maneuver system.
fn with_system(mut t: Table, side: &str, system: Option<ManeuverSystem>) -> Table {
    t.sides.insert(side.to_string(), SideSettings { system, base_counting: None });
    t
}

/// A line obstacle across x from -200 to 200 at `y`.
fn across(kind: TerrainKind, y: f64) -> TerrainFeature {
    TerrainFeature {
        crests: Vec::new(),
        id: Some(kind.name().to_string()),
        kind,
        level: 0.0,
        outline: vec![],
        holes: vec![],
        path: vec![Vec2::new(-200.0, y), Vec2::new(200.0, y)],
    }
}

/// The French line "fr" of two 30 x 20 infantry bases facing +y (front edge y = 10, x
/// -30..30), moved `ahead` mm straight ahead; `kind` and its base size chosen by kind.
fn line_at(ahead: f64, kind: UnitKind, rules: RuleSet, terrain: &[TerrainFeature]) -> Table {
    let (w, d) = match kind {
        UnitKind::Artillery => (25.0, 40.0),
        UnitKind::Cavalry => (40.0, 30.0),
        _ => (30.0, 20.0),
    };
    // Every kind's front edge at y = 10 + ahead.
    let y = 10.0 + ahead - d / 2.0;
    let bases = if kind == UnitKind::Artillery {
        vec![b(0.0, y, 90.0, w, d)]
    } else {
        vec![b(-w / 2.0, y, 90.0, w, d), b(w / 2.0, y, 90.0, w, d)]
    };
    let mut u = unit("fr", "fr", kind, bases);
    if kind == UnitKind::Artillery {
        u.formation = Some(Formation::Limbered);
    }
    let mut t = common::table(rules, vec![u]);
    t.terrain = terrain.to_vec();
    with_system(t, "fr", Some(ManeuverSystem::French))
}

fn moved(before: &Table, after: &Table, q: &MoveQuestions) -> MoveAssessment {
    assess_move(before, after, "fr", q).unwrap_or_else(|e| panic!("{e}"))
}

/// The move of "fr" between `before` and `after`, at every placement.
fn at_every_place(
    before: &Table,
    after: &Table,
    q: &MoveQuestions,
    mut check: impl FnMut(&MoveAssessment, &Place),
) {
    for p in places() {
        check(&moved(&p.table(before, 0), &p.table(after, 0), q), &p);
    }
}

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

#[test]
fn a_medium_forest_move_costs_double() {
    // Issue 40: a unit in medium forest (rough, 000 §3.5-3.6) moving 2" is charged 4". The
    // wood (x -100..100, y -50..300) holds the whole line all the way: one part, x2.
    let wood = area(TerrainKind::MediumForest, -100.0, -50.0, 100.0, 300.0);
    let q = MoveQuestions::default();
    let before = line_at(0.0, UnitKind::Infantry, RuleSet::Republique5, std::slice::from_ref(&wood));
    let after = line_at(2.0 * IN, UnitKind::Infantry, RuleSet::Republique5, std::slice::from_ref(&wood));
    at_every_place(&before, &after, &q, |m, p| {
        assert!(close(m.distance_mm, 2.0 * IN, 1e-9), "{p:?}");
        assert_eq!(m.ground.parts.len(), 1, "{p:?}");
        assert_eq!(m.ground.parts[0].factor, Some(2.0));
        assert!(matches!(
            m.ground.parts[0].within[..],
            [Ground::Terrain { kind: TerrainKind::MediumForest, .. }]
        ));
        assert!(close(m.cost_mm.unwrap_or(0.0), 4.0 * IN, 1e-9), "{p:?}: {:?}", m.cost_mm);
        assert_eq!((m.within_allowance, m.uses_charge_bonus), (Some(true), Some(false)));
    });
    // The allowance: 8" (000 §3.1), and medium forest bars the assault bonus ("N/A", 000
    // §3.6): 3.99" in the wood costs 7.98", within; 4.01" costs 8.02", beyond, for the 4"
    // bonus may not be spent in the wood.
    for (inches, within) in [(3.99, true), (4.01, false)] {
        let after =
            line_at(inches * IN, UnitKind::Infantry, RuleSet::Republique5, std::slice::from_ref(&wood));
        at_every_place(&before, &after, &q, |m, p| {
            assert!(close(m.cost_mm.unwrap_or(0.0), 2.0 * inches * IN, 1e-9));
            assert!(close(m.bonus_barred_mm.unwrap_or(0.0), 2.0 * inches * IN, 1e-9));
            assert_eq!(m.within_allowance, Some(within), "{inches}\" {p:?}");
        });
    }
    // In light forest (normal, "Foot only" bonus) 4.01" is normal cost and within.
    let light = area(TerrainKind::LightForest, -100.0, -50.0, 100.0, 300.0);
    let m = moved(
        &line_at(0.0, UnitKind::Infantry, RuleSet::Republique5, std::slice::from_ref(&light)),
        &line_at(4.01 * IN, UnitKind::Infantry, RuleSet::Republique5, std::slice::from_ref(&light)),
        &q,
    );
    assert!(close(m.cost_mm.unwrap_or(0.0), 4.01 * IN, 1e-9) && m.within_allowance == Some(true));
}

#[test]
fn a_wood_ahead_is_charged_from_where_a_base_reaches_in() {
    // Medium forest from y = 60, 50 mm ahead of the front edge (y = 10). A base is within
    // it once it reaches 0.5 mm in (ties::TOUCHING_MM): moved 100 mm, the first 50.5 mm are
    // open, the other 49.5 mm rough: 50.5 + 2 x 49.5 = 149.5 mm.
    let wood = area(TerrainKind::MediumForest, -100.0, 60.0, 100.0, 400.0);
    let w = std::slice::from_ref(&wood);
    let before = line_at(0.0, UnitKind::Infantry, RuleSet::Republique5, w);
    let q = MoveQuestions::default();
    at_every_place(&before, &line_at(100.0, UnitKind::Infantry, RuleSet::Republique5, w), &q, |m, p| {
        assert!(close(m.cost_mm.unwrap_or(0.0), 149.5, 1e-9), "{p:?}: {:?}", m.cost_mm);
        assert_eq!(m.ground.parts.len(), 2);
        assert!(close(m.ground.parts[0].length_mm, 50.5, 1e-9));
    });
    // Stopping 0.4 mm into the wood is touching it: all open. 0.6 mm: 0.1 mm rough.
    at_every_place(&before, &line_at(50.4, UnitKind::Infantry, RuleSet::Republique5, w), &q, |m, _| {
        assert!(close(m.cost_mm.unwrap_or(0.0), 50.4, 1e-9) && m.ground.parts.len() == 1);
    });
    at_every_place(&before, &line_at(50.6, UnitKind::Infantry, RuleSet::Republique5, w), &q, |m, _| {
        assert!(close(m.cost_mm.unwrap_or(0.0), 50.7, 1e-9), "{:?}", m.cost_mm);
    });
}

#[test]
fn double_rough_wheeled_and_impassable_ground() {
    let q = MoveQuestions::default();
    let run = |kind: UnitKind, terrain: TerrainKind| {
        let t = [area(terrain, -100.0, -60.0, 100.0, 300.0)];
        moved(&line_at(0.0, kind, RuleSet::Republique5, &t), &line_at(IN, kind, RuleSet::Republique5, &t), &q)
    };
    // Heavy forest, double rough: 1" costs 4" on foot (000 §3.5).
    let m = run(UnitKind::Infantry, TerrainKind::HeavyForest);
    assert!(close(m.cost_mm.unwrap_or(0.0), 4.0 * IN, 1e-9) && m.ground.refusals.is_empty());
    // Artillery in rough (medium forest): "double the normal rough movement cost, which is
    // quadruple normal cost".
    let m = run(UnitKind::Artillery, TerrainKind::MediumForest);
    assert!(close(m.cost_mm.unwrap_or(0.0), 4.0 * IN, 1e-9), "{:?}", m.cost_mm);
    // Impassable (000 §3.6): horse and artillery in heavy forest, artillery in marsh and
    // vineyards, everyone in water.
    for (kind, terrain) in [
        (UnitKind::Cavalry, TerrainKind::HeavyForest),
        (UnitKind::Artillery, TerrainKind::HeavyForest),
        (UnitKind::Artillery, TerrainKind::Marsh),
        (UnitKind::Artillery, TerrainKind::Vineyard),
        (UnitKind::Infantry, TerrainKind::Water),
        (UnitKind::Infantry, TerrainKind::ReinforcedBuildings),
    ] {
        let m = run(kind, terrain);
        assert_eq!(m.ground.refusals.len(), 1, "{kind} in {terrain}");
        assert_eq!(m.allowed(), Some(false));
    }
    // Marsh is passable on foot, at x4.
    let m = run(UnitKind::Infantry, TerrainKind::Marsh);
    assert!(m.ground.refusals.is_empty() && close(m.cost_mm.unwrap_or(0.0), 4.0 * IN, 1e-9));
}

#[test]
fn obstacles_cost_their_one_time_loss() {
    // An obstacle across y = 40, 30 mm ahead of the front edge (y = 10). Moving 3" = 76.2
    // mm crosses it (the front reaches 0.5 mm past it after 30.5 mm).
    let q = MoveQuestions::default();
    let cross = |kind: UnitKind, obstacle: TerrainKind, ahead: f64| {
        let t = [across(obstacle, 40.0)];
        let before = line_at(0.0, kind, RuleSet::Republique5, &t);
        let after = line_at(ahead, kind, RuleSet::Republique5, &t);
        let mut out = Vec::new();
        at_every_place(&before, &after, &q, |m, _| out.push(m.clone()));
        out
    };
    for (kind, obstacle, loss_in) in [
        (UnitKind::Infantry, TerrainKind::Hedge, 1.0),
        (UnitKind::Infantry, TerrainKind::Treeline, 1.0),
        (UnitKind::Cavalry, TerrainKind::Treeline, 1.0),
        (UnitKind::Infantry, TerrainKind::StreamBank, 3.0),
        (UnitKind::Cavalry, TerrainKind::StreamBank, 3.0),
        (UnitKind::Artillery, TerrainKind::StreamBank, 6.0),
        (UnitKind::Infantry, TerrainKind::RiverBank, 7.0),
        (UnitKind::Infantry, TerrainKind::StoneWall, 0.0),
    ] {
        for m in cross(kind, obstacle, 3.0 * IN) {
            assert_eq!(m.ground.crossings.len(), 1, "{kind} over {obstacle}");
            assert!(close(m.ground.crossings[0].at * m.distance_mm, 30.5, 1e-6));
            // 3" + the loss.
            assert!(
                close(m.cost_mm.unwrap_or(0.0), (3.0 + loss_in) * IN, 1e-9),
                "{kind} over {obstacle}: {:?}",
                m.cost_mm
            );
            assert!(m.ground.refusals.is_empty());
        }
    }
    // Stopping with the front 0.4 mm past the hedge is touching it, not crossing; 0.6 mm
    // is crossing: 30.6 + 25.4 = 56.0 mm.
    for m in cross(UnitKind::Infantry, TerrainKind::Hedge, 30.4) {
        assert!(m.ground.crossings.is_empty() && close(m.cost_mm.unwrap_or(0.0), 30.4, 1e-9));
    }
    for m in cross(UnitKind::Infantry, TerrainKind::Hedge, 30.6) {
        assert!(close(m.cost_mm.unwrap_or(0.0), 56.0, 1e-9), "{:?}", m.cost_mm);
    }
    // Impassable crossings are refused: horse over hedges, walls and steep river banks,
    // artillery over hedges; fortress walls only by foot winning an assault (note 1).
    for (kind, obstacle) in [
        (UnitKind::Cavalry, TerrainKind::Hedge),
        (UnitKind::Cavalry, TerrainKind::StoneWall),
        (UnitKind::Cavalry, TerrainKind::RiverBank),
        (UnitKind::Artillery, TerrainKind::Hedge),
        (UnitKind::Infantry, TerrainKind::FortressWall),
    ] {
        for m in cross(kind, obstacle, 3.0 * IN) {
            assert_eq!(m.ground.refusals.len(), 1, "{kind} over {obstacle}");
            assert_eq!(m.allowed(), Some(false));
        }
    }
}

#[test]
fn a_packed_battery_is_rough_for_friends_passing_through() {
    // A French battery (25 x 40, centre (0, 80): x -12.5..12.5, y 60..100), packed. The
    // line (x -30..30) moves 150 mm through it: its bases reach 0.5 mm into the battery
    // from 50.5 mm (front edge at 60.5) until 109.5 mm (rear edge at 99.5): 59 mm rough.
    // 150 + 59 = 209 mm. At normal frontage the battery costs nothing more (000 §3.6).
    let q = MoveQuestions::default();
    let with_battery = |t: Table, mode: FrontageMode| {
        let mut t = t;
        let mut gun = unit("fr-art", "fr", UnitKind::Artillery, vec![b(0.0, 80.0, 90.0, 25.0, 40.0)]);
        gun.frontage = Some(mode);
        t.units.push(gun);
        t
    };
    for (mode, cost) in [(FrontageMode::Packed, 209.0), (FrontageMode::Normal, 150.0)] {
        let before = with_battery(line_at(0.0, UnitKind::Infantry, RuleSet::Republique5, &[]), mode);
        let after = with_battery(line_at(150.0, UnitKind::Infantry, RuleSet::Republique5, &[]), mode);
        at_every_place(&before, &after, &q, |m, p| {
            assert!(close(m.cost_mm.unwrap_or(0.0), cost, 1e-9), "{mode:?} {p:?}: {:?}", m.cost_mm);
        });
    }
}

#[test]
fn a_move_through_several_terrains_is_charged_part_by_part() {
    // Open 1", then medium forest y 35.4..106.2 (70.8 deep), then a treeline at y = 130.
    // Moved 5" = 127 mm: the line (bases 20 deep) is within the wood from 25.9 mm (front
    // edge 0.5 mm in) to 115.7 mm (rear edge 0.5 mm from leaving): 89.8 mm rough; it
    // crosses the treeline at 120.5 mm (-1") and stands astride it to the end. Cost: 127 +
    // 89.8 + 25.4 = 242.2 mm
    // (9.535"): within 8" + 4" and using the bonus; the wood's 2 x 89.8 = 179.6 mm where
    // the bonus is barred fit the 8" (203.2 mm), and a treeline allows foot the bonus.
    let terrain =
        [area(TerrainKind::MediumForest, -100.0, 35.4, 100.0, 106.2), across(TerrainKind::Treeline, 130.0)];
    let before = line_at(0.0, UnitKind::Infantry, RuleSet::Republique5, &terrain);
    let after = line_at(5.0 * IN, UnitKind::Infantry, RuleSet::Republique5, &terrain);
    at_every_place(&before, &after, &MoveQuestions::default(), |m, p| {
        let lengths: Vec<f64> = m.ground.parts.iter().map(|x| x.length_mm).collect();
        let factors: Vec<Option<f64>> = m.ground.parts.iter().map(|x| x.factor).collect();
        // The last 6.5 mm the line is astride the treeline (its own part, at x1).
        assert_eq!(factors, vec![Some(1.0), Some(2.0), Some(1.0), Some(1.0)], "{p:?}");
        for (l, want) in lengths.iter().zip([25.9, 89.8, 4.8, 6.5]) {
            assert!(close(*l, want, 1e-6), "{lengths:?}");
        }
        assert!(matches!(
            m.ground.parts[3].within[..],
            [Ground::Obstacle { kind: TerrainKind::Treeline, .. }]
        ));
        assert!(close(m.cost_mm.unwrap_or(0.0), 242.2, 1e-6), "{:?}", m.cost_mm);
        assert!(close(m.bonus_barred_mm.unwrap_or(0.0), 179.6, 1e-6));
        assert_eq!((m.within_allowance, m.uses_charge_bonus), (Some(true), Some(true)));
    });
}

#[test]
fn a_move_costing_the_same_under_both_systems_needs_no_system() {
    // No maneuver system on the side. Straight ahead (x1 both), straight in a wood (x2
    // both) and straight back (x2 both, 000 §3.2) cost the same under both systems: the
    // cost is given. 40° oblique (x1 French, x2 Prussian) and a formation change (2" or
    // 4") depend on the system: open, both given.
    let q = MoveQuestions::default();
    let bare = |t: Table| with_system(t, "fr", None);
    let wood = [area(TerrainKind::MediumForest, -100.0, -300.0, 100.0, 300.0)];
    let before = bare(line_at(0.0, UnitKind::Infantry, RuleSet::Republique5, &[]));
    for (after, cost) in [
        (bare(line_at(100.0, UnitKind::Infantry, RuleSet::Republique5, &[])), 100.0),
        (bare(line_at(-100.0, UnitKind::Infantry, RuleSet::Republique5, &[])), 200.0),
    ] {
        at_every_place(&before, &after, &q, |m, _| {
            assert_eq!(m.system, None);
            assert!(close(m.cost_mm.unwrap_or(0.0), cost, 1e-9), "{:?}", m.cost_mm);
            assert_eq!(m.costs.len(), 2);
        });
    }
    let in_wood = |a: f64| bare(line_at(a, UnitKind::Infantry, RuleSet::Republique5, &wood));
    at_every_place(&in_wood(0.0), &in_wood(IN), &q, |m, _| {
        assert!(close(m.cost_mm.unwrap_or(0.0), 2.0 * IN, 1e-9))
    });
    // 40° oblique: French 100, Prussian 200.
    let (s, c) = 40f64.to_radians().sin_cos();
    let mut oblique = before.clone();
    for base in &mut oblique.units[0].bases {
        *base = RigidMotion::new(0.0, Vec2::new(100.0 * s, 100.0 * c)).base(base);
    }
    at_every_place(&before, &oblique, &q, |m, _| {
        assert_eq!(m.cost_mm, None);
        assert!(close(m.costs[0].cost_mm, 100.0, 1e-9) && close(m.costs[1].cost_mm, 200.0, 1e-9));
    });
    // A formation change with a 1" move: 1" + 2" French, 1" + 4" Prussian.
    let mut column = bare(line_at(IN, UnitKind::Infantry, RuleSet::Republique5, &[]));
    column.units[0].formation = Some(Formation::AttackColumn);
    at_every_place(&before, &column, &q, |m, _| {
        assert_eq!(m.cost_mm, None);
        assert!(close(m.costs[0].cost_mm, 3.0 * IN, 1e-9) && close(m.costs[1].cost_mm, 5.0 * IN, 1e-9));
        assert!(m.formation_change.is_some_and(|f| !f.in_rough));
    });
    // In a wood all the way the change costs double: 2 x 1" + 2 x 4" Prussian.
    let mut column = in_wood(IN);
    column.units[0].formation = Some(Formation::AttackColumn);
    let column = with_system(column, "fr", Some(ManeuverSystem::Prussian));
    let m = moved(&with_system(in_wood(0.0), "fr", Some(ManeuverSystem::Prussian)), &column, &q);
    assert!(close(m.cost_mm.unwrap_or(0.0), 10.0 * IN, 1e-9), "{:?}", m.cost_mm);
}

/// A Republic road column "fr" of three bases (30 x 20) on x = 0 facing +y, moved
/// `ahead`, and a road along x = `road_x`.
fn road_scene(ahead: f64, road_x: f64, formation: Formation) -> Table {
    let bases = (0..3).map(|k| inf(0.0, ahead - 40.0 * k as f64, 90.0)).collect();
    let mut u = unit("fr", "fr", UnitKind::Infantry, bases);
    u.formation = Some(formation);
    let mut t = common::table(RuleSet::Republic, vec![u]);
    t.terrain.push(TerrainFeature {
        crests: Vec::new(),
        id: Some("pike".into()),
        kind: TerrainKind::Road,
        level: 0.0,
        outline: vec![],
        holes: vec![],
        path: vec![Vec2::new(road_x, -500.0), Vec2::new(road_x, 1000.0)],
    });
    with_system(t, "fr", Some(ManeuverSystem::French))
}

#[test]
fn a_road_column_on_its_road_moves_double() {
    // 003 303: in road column and lined up on a road (the road runs through every base
    // from front edge to rear edge), movement on it is doubled: 200 mm cost 100 mm. The
    // bases span x -15..15: a road at x = 14.9 runs through them, at 15.1 it does not.
    let q = MoveQuestions::default();
    for (road_x, cost) in [(0.0, 100.0), (14.9, 100.0), (15.1, 200.0)] {
        let before = road_scene(0.0, road_x, Formation::RoadColumn);
        at_every_place(&before, &road_scene(200.0, road_x, Formation::RoadColumn), &q, |m, p| {
            assert!(close(m.cost_mm.unwrap_or(0.0), cost, 1e-9), "road at {road_x} {p:?}: {:?}", m.cost_mm);
        });
        let lined = road_columns(&before)[0].road.is_some();
        assert_eq!(lined, cost == 100.0);
    }
    // A line on the road is no road column: full cost.
    let m = moved(
        &road_scene(0.0, 0.0, Formation::AttackColumn),
        &road_scene(200.0, 0.0, Formation::AttackColumn),
        &q,
    );
    assert!(close(m.cost_mm.unwrap_or(0.0), 200.0, 1e-9));
}

/// The Republic cavalry "fr" (one 40 x 30 base facing +y, front edge y = 15) moved
/// `ahead`, with French batteries at the given (x, y, heading).
fn cavalry_scene(ahead: f64, batteries: &[(f64, f64, f64)]) -> Table {
    let mut t = common::table(
        RuleSet::Republic,
        vec![unit("fr", "fr", UnitKind::Cavalry, vec![b(0.0, ahead, 90.0, 40.0, 30.0)])],
    );
    for (k, &(x, y, h)) in batteries.iter().enumerate() {
        let mut gun = unit(&format!("gun-{k}"), "fr", UnitKind::Artillery, vec![b(x, y, h, 25.0, 40.0)]);
        gun.frontage = Some(FrontageMode::Normal);
        t.units.push(gun);
    }
    with_system(t, "fr", Some(ManeuverSystem::French))
}

#[test]
fn a_cavalry_bonus_path_casts_a_deployment_shadow() {
    // 003 305. The cavalry moves 20" = 508 mm straight ahead: its normal 15" = 381 mm is
    // spent first, the bonus from 381 mm on. Batteries 25 x 40 centred at x = 30 reach 10
    // mm into the cavalry's path (x -20..20). At y = 450 (reached from about 422 mm of the
    // path on) each is in the bonus path: facing across (0°) it may not fire; facing
    // forward (90°, or 90 + 44°) it fires forward in support; 90 + 46° is across. At y =
    // 200 (reached between 172.5 and 227.5 mm) a battery is in the normal part: not
    // named.
    let guns = [
        (30.0, 450.0, 0.0),
        (30.0, 450.0, 90.0),
        (30.0, 450.0, 134.0),
        (30.0, 450.0, 136.0),
        (30.0, 200.0, 0.0),
    ];
    let before = cavalry_scene(0.0, &guns);
    let after = cavalry_scene(20.0 * IN, &guns);
    at_every_place(&before, &after, &MoveQuestions::default(), |m, p| {
        let (from, shadows) = m.shadows.clone().unwrap_or_else(|| panic!("no shadows {p:?}"));
        assert!(close(from * m.distance_mm, 15.0 * IN, 1e-9));
        let named: Vec<(usize, bool)> = shadows.iter().map(|s| (s.battery, s.fires_forward)).collect();
        assert_eq!(named, vec![(1, false), (2, true), (3, true), (4, false)], "{p:?}");
    });
    // 15" uses no bonus: no shadow.
    let m = moved(&before, &cavalry_scene(15.0 * IN, &guns), &MoveQuestions::default());
    assert!(m.shadows.is_none());
}

// ---------------------------------------------------------------------------------
// Pro Patria (004 §17.2-17.4)

/// A Pro Patria table (28 mm) with the French unit "fr" of `kind` and its stands, and
/// the enemies.
fn pp_table(fr: Vec<Base>, kind: UnitKind, formation: Formation, enemies: Vec<Unit>) -> Table {
    let mut u = unit("fr", "fr", kind, fr);
    u.formation = Some(formation);
    let mut units = vec![u];
    units.extend(enemies);
    common::table(RuleSet::ProPatria, units)
}

/// Two 60 x 20 stands in line facing +y (front edge y = 10, x -60..60), wheeled by `deg`
/// about the left front corner (-60, 10).
fn pp_line(deg: f64) -> Vec<Base> {
    let pivot = Vec2::new(-60.0, 10.0);
    [-30.0, 30.0]
        .iter()
        .map(|&x| {
            let c = pivot + (Vec2::new(x, 0.0) - pivot).rotated_deg(deg);
            b(c.x, c.y, 90.0 + deg, 60.0, 20.0)
        })
        .collect()
}

#[test]
fn a_pro_patria_wheel_costs_double_its_outside_arc() {
    // 004 §17.4.6: "if the outside arc is 50mm the total distance moved is regarded as
    // 100mm". The outer front corner is 120 mm from the pivot: a 50 mm arc turns 50/120 rad
    // (23.87°).
    let deg = (50.0f64 / 120.0).to_degrees();
    let before = pp_table(pp_line(0.0), UnitKind::Infantry, Formation::Line, vec![]);
    let after = pp_table(pp_line(deg), UnitKind::Infantry, Formation::Line, vec![]);
    at_every_place(&before, &after, &MoveQuestions::default(), |m, p| {
        let pp = m.pro_patria.as_ref().unwrap_or_else(|| panic!("no Pro Patria answer"));
        assert_eq!(pp.measured, Measured::OutsideArc, "{p:?}");
        assert!(close(m.distance_mm, 50.0, 1e-9) && close(pp.charged_mm, 100.0, 1e-9), "{p:?}");
        assert!(pp.change.is_none() && m.hold.is_none());
    });
    // The reference sheets' allowance, given by hand: 100 mm fits 100, not 99.9.
    for (allowance, ok) in [(100.0, true), (99.9, false)] {
        let q = MoveQuestions { allowance_mm: Some(allowance), ..Default::default() };
        assert_eq!(moved(&before, &after, &q).within_allowance, Some(ok));
    }
}

proptest! {
    #![proptest_config(common::proptest_config(24, 1805))]

    /// Away from every threshold, scan noise changes no verdict and moves the charge by
    /// less than it moves the bases: the medium-forest move (4" charged) and the Pro
    /// Patria wheel (100 mm charged).
    #[test]
    fn charges_survive_scan_noise(
        turn in 0.0f64..360.0,
        noise in prop::collection::vec((-0.1f64..0.1, -0.1f64..0.1, -0.2f64..0.2), 8),
    ) {
        let wood = area(TerrainKind::MediumForest, -100.0, -50.0, 100.0, 300.0);
        let w = std::slice::from_ref(&wood);
        let p = Place { turn, shift: Vec2::new(700.0, 500.0), noise };
        let m = moved(
            &p.table(&line_at(0.0, UnitKind::Infantry, RuleSet::Republique5, w), 0),
            &p.table(&line_at(2.0 * IN, UnitKind::Infantry, RuleSet::Republique5, w), 4),
            &MoveQuestions::default(),
        );
        prop_assert_eq!(m.ground.parts.len(), 1);
        prop_assert!(close(m.cost_mm.unwrap_or(0.0), 4.0 * IN, 2.0));
        prop_assert_eq!(m.within_allowance, Some(true));
        let deg = (50.0f64 / 120.0).to_degrees();
        let m = moved(
            &p.table(&pp_table(pp_line(0.0), UnitKind::Infantry, Formation::Line, vec![]), 0),
            &p.table(&pp_table(pp_line(deg), UnitKind::Infantry, Formation::Line, vec![]), 4),
            &MoveQuestions::default(),
        );
        let pp = m.pro_patria.unwrap();
        prop_assert_eq!(pp.measured, Measured::OutsideArc);
        prop_assert!(close(pp.charged_mm, 100.0, 2.0), "{}", pp.charged_mm);
    }
}

proptest! {
    #![proptest_config(common::proptest_config(16, 1940))]

    /// Obstacles, packed batteries, road columns and deployment shadows under scan noise,
    /// away from their thresholds: the same crossings, the same parts' factors, the same
    /// batteries named, and costs within what the noise moves the bases.
    #[test]
    fn ground_verdicts_survive_scan_noise(
        turn in 0.0f64..360.0,
        noise in prop::collection::vec((-0.1f64..0.1, -0.1f64..0.1, -0.2f64..0.2), 12),
    ) {
        let p = Place { turn, shift: Vec2::new(700.0, 500.0), noise };
        let q = MoveQuestions::default();
        // The hedge 30 mm ahead, crossed by 3": 4" charged.
        let hedge = [across(TerrainKind::Hedge, 40.0)];
        let m = moved(
            &p.table(&line_at(0.0, UnitKind::Infantry, RuleSet::Republique5, &hedge), 0),
            &p.table(&line_at(3.0 * IN, UnitKind::Infantry, RuleSet::Republique5, &hedge), 6),
            &q,
        );
        prop_assert_eq!(m.ground.crossings.len(), 1);
        prop_assert!(close(m.cost_mm.unwrap_or(0.0), 4.0 * IN, 1.0), "{:?}", m.cost_mm);
        // The road column on its road (x = 0, 15 mm inside its bases' sides): x½.
        let m = moved(
            &p.table(&road_scene(0.0, 0.0, Formation::RoadColumn), 0),
            &p.table(&road_scene(200.0, 0.0, Formation::RoadColumn), 6),
            &q,
        );
        prop_assert!(m.ground.parts.iter().all(|x| x.factor == Some(0.5)));
        prop_assert!(close(m.cost_mm.unwrap_or(0.0), 100.0, 1.0));
        // The deployment shadows: the same batteries, fires forward or not (their facings
        // 44° and 46° from the cavalry's stay so: the noise turns bases by 0.2°).
        let guns = [(30.0, 450.0, 0.0), (30.0, 450.0, 90.0), (30.0, 450.0, 134.0), (30.0, 450.0, 136.0), (30.0, 200.0, 0.0)];
        let m = moved(&p.table(&cavalry_scene(0.0, &guns), 0), &p.table(&cavalry_scene(20.0 * IN, &guns), 6), &q);
        let named: Vec<(usize, bool)> =
            m.shadows.map(|(_, s)| s.iter().map(|x| (x.battery, x.fires_forward)).collect()).unwrap_or_default();
        prop_assert_eq!(named, vec![(1, false), (2, true), (3, true), (4, false)]);
    }

    /// Pro Patria's distances under scan noise, away from their thresholds: a forced march
    /// ending 250 or 350 mm from the enemy (300), a charge from 40 or 60 mm (50), a move
    /// ending 20 or 30 mm from an enemy (25).
    #[test]
    fn pro_patria_verdicts_survive_scan_noise(
        turn in 0.0f64..360.0,
        noise in prop::collection::vec((-0.1f64..0.1, -0.1f64..0.1, -0.2f64..0.2), 6),
    ) {
        let p = Place { turn, shift: Vec2::new(700.0, 500.0), noise };
        let enemy = || vec![pp_enemy("au", 0.0, 500.0, UnitKind::Infantry)];
        let column = |ahead: f64| {
            pp_table(vec![b(0.0, ahead, 90.0, 30.0, 20.0), b(0.0, ahead - 20.0, 90.0, 30.0, 20.0)], UnitKind::Infantry, Formation::MarchColumn, enemy())
        };
        let q = MoveQuestions { forced_march: true, ..Default::default() };
        for (gap, allowed) in [(250.0, false), (350.0, true)] {
            let m = moved(&p.table(&column(0.0), 0), &p.table(&column(490.0 - gap), 3), &q);
            prop_assert_eq!(m.pro_patria.and_then(|x| x.forced_march).map(|f| f.allowed), Some(allowed));
        }
        let scene = |gap: f64, ahead: f64| {
            pp_table(vec![b(0.0, ahead, 90.0, 60.0, 20.0)], UnitKind::Infantry, Formation::Line, vec![pp_enemy("au", 0.0, 10.0 + gap, UnitKind::Infantry)])
        };
        let q = MoveQuestions { charge: Some("au".into()), ..Default::default() };
        for (gap, caught) in [(40.0, true), (60.0, false)] {
            let m = moved(&p.table(&scene(gap, 0.0), 0), &p.table(&scene(gap, gap / 3.0), 3), &q);
            prop_assert_eq!(m.pro_patria.and_then(|x| x.charge).map(|c| (c.caught, c.within_window)), Some((caught, true)));
        }
        for (end, too_close) in [(20.0, true), (30.0, false)] {
            let m = moved(&p.table(&scene(100.0, 0.0), 0), &p.table(&scene(100.0, 100.0 - end), 3), &MoveQuestions::default());
            prop_assert_eq!(m.pro_patria.map(|x| !x.too_close.is_empty()), Some(too_close));
        }
    }
}

#[test]
fn pro_patria_formation_changes() {
    let q = MoveQuestions::default();
    let line = pp_line(0.0);
    // Line to march column: the second stand behind the first (x -30, y -30). Measured
    // on the command stand (#0, nearest the middle of the front at the start; ties to
    // the first), which did not move: 0 mm, one change.
    let column = vec![line[0], b(-30.0, -30.0, 90.0, 60.0, 20.0)];
    let before = pp_table(line.clone(), UnitKind::Infantry, Formation::Line, vec![]);
    let after = pp_table(column, UnitKind::Infantry, Formation::MarchColumn, vec![]);
    at_every_place(&before, &after, &q, |m, _| {
        let pp = m.pro_patria.as_ref().unwrap_or_else(|| panic!("none"));
        assert_eq!(pp.measured, Measured::CommandStand);
        assert!(matches!(
            pp.change,
            Some(ProPatriaChange::Formation { from: Formation::Line, to: Formation::MarchColumn })
        ));
        assert!(close(pp.charged_mm, 0.0, 1e-9));
    });
    // Every stand turned 90° in place, the formation kept: a turn (§17.4.7), measured on
    // the command stand's centre, which did not move.
    let turned: Vec<Base> = line.iter().map(|x| b(x.centre().x, x.centre().y, 180.0, 60.0, 20.0)).collect();
    let after = pp_table(turned, UnitKind::Infantry, Formation::Line, vec![]);
    at_every_place(&before, &after, &q, |m, _| {
        let pp = m.pro_patria.as_ref().unwrap_or_else(|| panic!("none"));
        assert!(matches!(pp.change, Some(ProPatriaChange::Turn { deg }) if close(deg, 90.0, 1e-6)));
        assert!(close(pp.charged_mm, 0.0, 1e-9));
    });
    // Not in a heavy wood: a change made with the unit in a heavy wood all the way is
    // refused; in a light one it stands.
    for (wood, refused) in [(TerrainKind::HeavyForest, true), (TerrainKind::LightForest, false)] {
        let mut before = pp_table(line.clone(), UnitKind::Infantry, Formation::Line, vec![]);
        before.terrain.push(area(wood, -200.0, -200.0, 200.0, 200.0));
        let mut after = pp_table(
            vec![line[0], b(-30.0, -30.0, 90.0, 60.0, 20.0)],
            UnitKind::Infantry,
            Formation::MarchColumn,
            vec![],
        );
        after.terrain = before.terrain.clone();
        let m = moved(&before, &after, &q);
        assert_eq!(m.pro_patria.as_ref().and_then(|p| p.change_in_heavy_wood).is_some(), refused, "{wood}");
    }
}

/// An Austrian formed infantry stand (60 x 20, facing -y) with its near edge at `y`.
fn pp_enemy(id: &str, x: f64, y: f64, kind: UnitKind) -> Unit {
    let mut u = unit(id, "au", kind, vec![b(x, y + 10.0, 270.0, 60.0, 20.0)]);
    u.formation = Some(Formation::Line);
    u
}

#[test]
fn pro_patria_forced_march_keeps_300_mm_from_a_visible_formed_enemy() {
    // 004 §17.4.5. A march column of two stands (30 x 20) facing +y, its head's front edge
    // at y = 10 + ahead after moving `ahead`; an enemy stand's near edge at y = 500. The
    // clearance is 300 mm: ending 299.9 mm from it, no forced march; 300.1 mm, allowed.
    let column = |ahead: f64, enemies: Vec<Unit>, terrain: Vec<TerrainFeature>| {
        let mut t = pp_table(
            vec![b(0.0, ahead, 90.0, 30.0, 20.0), b(0.0, ahead - 20.0, 90.0, 30.0, 20.0)],
            UnitKind::Infantry,
            Formation::MarchColumn,
            enemies,
        );
        t.terrain = terrain;
        t
    };
    let q = MoveQuestions { forced_march: true, ..Default::default() };
    let enemy = || vec![pp_enemy("au", 0.0, 500.0, UnitKind::Infantry)];
    for (gap, allowed) in [(299.9, false), (300.1, true)] {
        let before = column(0.0, enemy(), vec![]);
        let after = column(490.0 - gap, enemy(), vec![]);
        at_every_place(&before, &after, &q, |m, p| {
            let f =
                m.pro_patria.as_ref().and_then(|x| x.forced_march.clone()).unwrap_or_else(|| panic!("none"));
            assert_eq!(f.allowed, allowed, "{gap} {p:?}");
            assert!(f.nearest.is_some_and(|(_, d)| close(d, gap, 1e-6)));
        });
    }
    // A heavy wood between (woods block sight, §15.8): the enemy 200 mm away is not
    // visible, the march may go on. An enemy in skirmish order is no formed unit.
    let wood = vec![area(TerrainKind::HeavyForest, -200.0, 350.0, 200.0, 450.0)];
    let m = moved(&column(0.0, enemy(), wood.clone()), &column(290.0, enemy(), wood), &q);
    assert!(m.pro_patria.as_ref().and_then(|p| p.forced_march.clone()).is_some_and(|f| f.allowed));
    let mut screen = enemy();
    screen[0].formation = Some(Formation::SkirmishOrder);
    let m = moved(&column(0.0, screen.clone(), vec![]), &column(290.0, screen, vec![]), &q);
    assert!(
        m.pro_patria
            .as_ref()
            .and_then(|p| p.forced_march.clone())
            .is_some_and(|f| f.allowed && f.nearest.is_none())
    );
    // A column that was not in march column may not force march.
    let mut before = column(0.0, enemy(), vec![]);
    before.units[0].formation = Some(Formation::Column);
    let m = moved(&before, &column(50.0, enemy(), vec![]), &q);
    assert!(m.pro_patria.as_ref().and_then(|p| p.forced_march.clone()).is_some_and(|f| !f.allowed));
}

#[test]
fn pro_patria_charges_catch_within_50_and_150_mm() {
    // 004 §17.2.3. The charger's front edge at y = 10; the target's near edge `gap` ahead.
    let q = |target: &str| MoveQuestions { charge: Some(target.to_string()), ..Default::default() };
    let scene = |kind: UnitKind, gap: f64, ahead: f64, target: UnitKind| {
        pp_table(
            vec![b(0.0, ahead, 90.0, 60.0, 20.0)],
            kind,
            Formation::Line,
            vec![pp_enemy("au", 0.0, 10.0 + gap, target)],
        )
    };
    for (kind, gap, caught) in [
        (UnitKind::Infantry, 49.9, true),
        (UnitKind::Infantry, 50.1, false),
        (UnitKind::Cavalry, 149.9, true),
        (UnitKind::Cavalry, 150.1, false),
    ] {
        // The 1st impulse advances a third of the way: in the window.
        let before = scene(kind, gap, 0.0, UnitKind::Infantry);
        let after = scene(kind, gap, gap / 3.0, UnitKind::Infantry);
        at_every_place(&before, &after, &q("au"), |m, p| {
            let c = m.pro_patria.as_ref().and_then(|x| x.charge.clone()).unwrap_or_else(|| panic!("none"));
            assert_eq!(c.caught, caught, "{kind} at {gap} {p:?}");
            assert!(c.within_window && c.eligible);
            // The target is the one enemy it may come within 25 mm of.
            assert!(m.pro_patria.as_ref().is_some_and(|x| x.too_close.is_empty()));
        });
    }
    // The window: from 120 mm, over 30 mm and up to 60 mm.
    for (advance, within) in [(30.0, false), (30.2, true), (60.0, true), (60.2, false)] {
        let m = moved(
            &scene(UnitKind::Infantry, 120.0, 0.0, UnitKind::Infantry),
            &scene(UnitKind::Infantry, 120.0, advance, UnitKind::Infantry),
            &q("au"),
        );
        assert_eq!(
            m.pro_patria.as_ref().and_then(|x| x.charge.clone()).map(|c| c.within_window),
            Some(within),
            "{advance}"
        );
    }
    // Infantry cannot charge mounted troops (§17.2.4).
    let m = moved(
        &scene(UnitKind::Infantry, 40.0, 0.0, UnitKind::Cavalry),
        &scene(UnitKind::Infantry, 40.0, 15.0, UnitKind::Cavalry),
        &q("au"),
    );
    assert!(m.pro_patria.as_ref().and_then(|x| x.charge.clone()).is_some_and(|c| !c.eligible));
    // Without the charge, ending 24.9 mm from the enemy is too close (§17.4); 25.1 is not.
    for (end_gap, too_close) in [(24.9, true), (25.1, false)] {
        let before = scene(UnitKind::Infantry, 100.0, 0.0, UnitKind::Infantry);
        let after = scene(UnitKind::Infantry, 100.0, 100.0 - end_gap, UnitKind::Infantry);
        at_every_place(&before, &after, &MoveQuestions::default(), |m, _| {
            assert_eq!(
                m.pro_patria.as_ref().is_some_and(|x| !x.too_close.is_empty()),
                too_close,
                "{end_gap}"
            );
            assert_eq!(m.allowed(), Some(!too_close));
        });
    }
}

#[test]
fn the_pro_patria_report_lists_forced_marches_and_catches() {
    // A French cavalry stand 149.9 mm from an Austrian line it sees: a catch; a French
    // march column 250 mm from the same line: no forced march there.
    let mut t = pp_table(
        vec![b(0.0, 0.0, 90.0, 40.0, 40.0)],
        UnitKind::Cavalry,
        Formation::Line,
        vec![pp_enemy("au", 0.0, 20.0 + 149.9, UnitKind::Infantry)],
    );
    let mut col = unit(
        "fr-col",
        "fr",
        UnitKind::Infantry,
        vec![b(200.0, -80.0, 90.0, 30.0, 20.0), b(200.0, -100.0, 90.0, 30.0, 20.0)],
    );
    col.formation = Some(Formation::MarchColumn);
    t.units.push(col);
    for p in places() {
        let t = p.table(&t, 0);
        let index = SpatialIndex::new(&t);
        let sight = TerrainSight::try_new(&index).unwrap_or_else(|e| panic!("{e}"));
        let a = assess_pro_patria(&t, &index, &t.rule_book().unwrap_or_else(|e| panic!("{e}")), &sight)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            a.catches.iter().map(|c| (c.charger, c.target)).collect::<Vec<_>>(),
            vec![(0, 1)],
            "{p:?}"
        );
        assert_eq!(a.forced_marches.len(), 1);
        assert!(!a.forced_marches[0].allowed);
    }
}
