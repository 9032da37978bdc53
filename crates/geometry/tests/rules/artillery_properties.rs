//! Property tests of the artillery constructions on random scenes (fixed seeds): every
//! finding is unchanged when the whole table is turned or moved; mirroring the table
//! swaps left and right (enfilade flanks) and turns every swing the other way; and the
//! exact intervals of clear swings agree with clipping the swung zone directly.

use crate::common;
use proptest::prelude::*;
use serde_json::{Value, json};
use vedette_geometry::{
    ArtilleryRules, BaseRef, BatteryAssessment, Battlefield, ConvexPolygon, EnfiladeVerdict, FiringZone,
    FlankSide, RigidMotion, Segment, SpatialIndex, Table, TerrainOutlines, UnitsOnly, Vec2, assess_battery,
    clear_swings,
};

/// A unit placed in polar terms from the battery: distance, bearing off its heading,
/// own heading, number of bases, and column (true) or line.
#[derive(Debug, Clone)]
struct Placed {
    distance: f64,
    bearing: f64,
    heading: f64,
    bases: usize,
    column: bool,
}

#[derive(Debug, Clone)]
struct Scene {
    gun_heading: f64,
    packed: bool,
    foes: Vec<Placed>,
    friends: Vec<Placed>,
    square: bool,
}

fn placed(distance: std::ops::Range<f64>) -> impl Strategy<Value = Placed> {
    (distance, -55.0..55.0f64, 0.0..360.0f64, 1..5usize, any::<bool>()).prop_map(
        |(distance, bearing, heading, bases, column)| Placed { distance, bearing, heading, bases, column },
    )
}

fn scene() -> impl Strategy<Value = Scene> {
    (
        0.0..360.0f64,
        any::<bool>(),
        prop::collection::vec(placed(40.0..380.0), 1..6),
        prop::collection::vec(placed(60.0..300.0), 0..3),
        any::<bool>(),
    )
        .prop_map(|(gun_heading, packed, foes, friends, square)| Scene {
            gun_heading,
            packed,
            foes,
            friends,
            square,
        })
}

fn unit_json(id: &str, side: &str, formation: &str, gun_heading: f64, p: &Placed) -> Value {
    let centre = Vec2::from_heading_deg(gun_heading + p.bearing) * p.distance + Vec2::new(500.0, 400.0);
    let forward = Vec2::from_heading_deg(p.heading);
    let step = if p.column { -forward * 20.0 } else { forward.perp_right() * 30.0 };
    let bases: Vec<Value> = (0..p.bases)
        .map(|i| {
            let c = centre + step * i as f64;
            json!({"x": c.x, "y": c.y, "heading": p.heading, "width": 30.0, "depth": 20.0})
        })
        .collect();
    json!({"id": id, "side": side, "kind": "infantry", "formation": formation, "bases": bases})
}

fn table(s: &Scene) -> Table {
    let mut units = vec![json!({
        "id": "gun", "side": "france", "kind": "artillery", "formation": "unlimbered", "weight": "heavy",
        "frontage": if s.packed { "packed" } else { "normal" },
        "bases": [{"x": 500.0, "y": 400.0, "heading": s.gun_heading, "width": 25.0, "depth": 40.0}]
    })];
    for (i, p) in s.foes.iter().enumerate() {
        let formation = if i == 0 && s.square {
            "square"
        } else if p.column {
            "attack-column"
        } else {
            "line"
        };
        units.push(unit_json(&format!("foe{i}"), "austria", formation, s.gun_heading, p));
    }
    for (i, p) in s.friends.iter().enumerate() {
        units.push(unit_json(&format!("friend{i}"), "france", "line", s.gun_heading, p));
    }
    let t = json!({
        "schema": "vedette/table/1", "rules": "republique5", "scale": "medium",
        "sides": {"france": {"system": "french"}, "austria": {"system": "prussian"}},
        "units": units,
    });
    Table::from_json_str(&t.to_string()).unwrap_or_else(|e| panic!("{e}"))
}

fn assess(t: &Table) -> BatteryAssessment {
    let index = SpatialIndex::new(t);
    let rules = ArtilleryRules::for_table(t).unwrap();
    let los = UnitsOnly::new(&index);
    let field =
        Battlefield { table: t, index: &index, rules: &rules, line_of_sight: &los, ground: &TerrainOutlines };
    assess_battery(&field, BaseRef::new(0, 0)).unwrap()
}

/// Everything the report says about the battery, with swings and flanks put through
/// the mirror's swap when asked.
#[derive(Debug, Clone, PartialEq)]
struct Digest {
    frontage: String,
    crowded: Vec<BaseRef>,
    clear: Vec<(i64, i64)>,
    targets: Vec<TargetDigest>,
    main: Option<MainDigest>,
    unlimber: Option<bool>,
}

/// One target's verdicts (ranges and swings in micro-units).
#[derive(Debug, Clone, PartialEq)]
struct TargetDigest {
    unit: usize,
    bracket: u32,
    half_base_in_arc: bool,
    line_of_sight: bool,
    zone_clear: bool,
    range: i64,
    aim: Option<i64>,
    enfilade: String,
}

/// The main target's findings.
#[derive(Debug, Clone, PartialEq)]
struct MainDigest {
    unit: usize,
    aim: i64,
    deep_bases: Vec<BaseRef>,
    window_bases: Vec<BaseRef>,
    point_blank: bool,
    enfilade: String,
    tandem: Vec<usize>,
    adjacent: Vec<usize>,
}

/// Rounded to a micro-unit so that two measurements that agree to rounding compare equal.
fn q(v: f64) -> i64 {
    (v * 1e6).round() as i64
}

fn flank_name(v: EnfiladeVerdict, mirror: bool) -> String {
    match (v, mirror) {
        (EnfiladeVerdict::Flank(FlankSide::Left), false)
        | (EnfiladeVerdict::Flank(FlankSide::Right), true) => "left".into(),
        (EnfiladeVerdict::Flank(_), _) => "right".into(),
        (other, _) => format!("{other:?}"),
    }
}

fn digest(a: &BatteryAssessment, mirror: bool) -> Digest {
    let sign = if mirror { -1.0 } else { 1.0 };
    let mut clear: Vec<(i64, i64)> = a
        .clear_swings
        .intervals()
        .iter()
        .map(|i| if mirror { (q(-i.to_deg), q(-i.from_deg)) } else { (q(i.from_deg), q(i.to_deg)) })
        .collect();
    clear.sort();
    Digest {
        frontage: format!("{:?}", a.battery.frontage.mode),
        crowded: a.battery.frontage.crowded_by.clone(),
        clear,
        targets: a
            .targets
            .iter()
            .map(|t| TargetDigest {
                unit: t.unit,
                bracket: t.bracket,
                half_base_in_arc: t.half_base_in_arc,
                line_of_sight: t.line_of_sight,
                zone_clear: t.zone_clear,
                range: q(t.range_mm),
                aim: t.aim_swing_deg.map(|s| q(sign * s)),
                enfilade: flank_name(t.enfilade, mirror),
            })
            .collect(),
        main: a.main.as_ref().map(|m| MainDigest {
            unit: m.unit,
            aim: q(sign * m.aim_swing_deg),
            deep_bases: m.deep.deep_bases.clone(),
            window_bases: m.deep.window_bases.clone(),
            point_blank: m.deep.point_blank,
            enfilade: flank_name(m.enfilade, mirror),
            tandem: m.secondary.tandem.clone(),
            adjacent: m.secondary.adjacent.clone(),
        }),
        unlimber: a.unlimber.too_close(),
    }
}

proptest! {
    #![proptest_config(common::proptest_config(300, 1809))]

    #[test]
    fn findings_survive_turning_and_moving_the_table(
        s in scene(), rot in -360.0..360.0f64, tx in -3000.0..3000.0f64, ty in -3000.0..3000.0f64,
    ) {
        let t = table(&s);
        let moved = RigidMotion::new(rot, Vec2::new(tx, ty)).table(&t);
        prop_assert_eq!(digest(&assess(&t), false), digest(&assess(&moved), false));
    }

    #[test]
    fn mirroring_swaps_left_and_right(s in scene(), axis in -500.0..1500.0f64) {
        let t = table(&s);
        let mirrored = RigidMotion::mirror_x(axis).table(&t);
        prop_assert_eq!(digest(&assess(&t), false), digest(&assess(&mirrored), true));
    }
}

/// A random convex obstacle ahead of a 50 mm frontage facing +y: a rectangle.
fn obstacle() -> impl Strategy<Value = ConvexPolygon> {
    (-250.0..250.0f64, -20.0..420.0f64, 0.0..180.0f64, 3.0..60.0f64, 3.0..40.0f64).prop_map(
        |(x, y, h, w, d)| {
            vedette_geometry::Base::new(
                vedette_geometry::BaseSize::new(w, d),
                vedette_geometry::Pose::new(Vec2::new(x, y), h),
            )
            .polygon()
        },
    )
}

proptest! {
    #![proptest_config(common::proptest_config(1000, 1813))]

    #[test]
    fn clear_swing_intervals_agree_with_clipping_the_zone(
        obstacles in prop::collection::vec(obstacle(), 1..4),
        swings in prop::collection::vec(-25.0..25.0f64, 8),
        reach in 150.0..450.0f64,
        packed in any::<bool>(),
    ) {
        let half = if packed { 12.5 } else { 25.0 };
        let front = Segment::new(Vec2::new(-half, 0.0), Vec2::new(half, 0.0));
        let forward = Vec2::new(0.0, 1.0);
        let clear = clear_swings(&front, forward, 5.0, 25.0, reach, &obstacles);
        let ends: Vec<f64> = clear.intervals().iter().flat_map(|i| [i.from_deg, i.to_deg]).collect();
        for s in swings {
            // Right on an interval's end the zone only touches an obstacle: skip the
            // micro-degree around each end where rounding decides.
            if ends.iter().any(|e| (e - s).abs() < 1e-6) {
                continue;
            }
            let zone = FiringZone::new(front, forward, s, 5.0, reach);
            let direct = obstacles.iter().all(|o| !zone.overlaps(o));
            prop_assert_eq!(clear.contains(s), direct, "swing {} clear {:?}", s, clear.intervals());
        }
    }
}
