//! Property tests of the terrain-aware sight model on random tables (fixed seeds):
//! verdicts do not change when the whole table is turned and moved; sight is symmetric
//! where the rules make it so; and the bounded search keeps its stated bound.

use crate::common;
use proptest::prelude::*;
use vedette_geometry::los::{Eye, Sampling, SightRules, TerrainSight};
use vedette_geometry::{RigidMotion, RuleBook, RuleSet, Scale, SpatialIndex, Table, Vec2};

const COARSE: Sampling = Sampling { target_step_mm: 2.0, eye_step_mm: 1.0 };

#[derive(Debug, Clone)]
struct Scene {
    a: (f64, f64, f64),
    b: (f64, f64, f64),
    others: Vec<(f64, f64, f64, bool)>,
    woods: Vec<(f64, f64, f64, f64, usize)>,
    hill: Option<(f64, f64, f64)>,
}

const WOODS: [&str; 4] = ["medium-forest", "light-forest", "heavy-buildings", "marsh"];

fn scene() -> impl Strategy<Value = Scene> {
    let pose = |y0: f64, y1: f64| (-150.0..150.0f64, y0..y1, -40.0..40.0f64);
    (
        pose(0.0, 40.0),
        pose(320.0, 400.0),
        prop::collection::vec((-200.0..200.0f64, 80.0..260.0f64, -60.0..60.0f64, any::<bool>()), 0..4),
        prop::collection::vec(
            (-250.0..150.0f64, 40.0..330.0f64, 20.0..150.0f64, 15.0..90.0f64, 0..4usize),
            0..3,
        ),
        prop::option::of((-250.0..0.0f64, 100.0..250.0f64, 0.5..2.0f64)),
    )
        .prop_map(|(a, b, others, woods, hill)| Scene { a, b, others, woods, hill })
}

fn to_table(s: &Scene) -> Table {
    let base = |(x, y, h): (f64, f64, f64), facing: f64| {
        format!(r#"{{"x":{x},"y":{y},"heading":{},"width":30,"depth":20}}"#, facing + h)
    };
    let mut units = vec![
        format!(
            r#"{{"id":"a","side":"fr","kind":"infantry","formation":"line","bases":[{}]}}"#,
            base(s.a, 90.0)
        ),
        format!(
            r#"{{"id":"b","side":"au","kind":"infantry","formation":"line","bases":[{}]}}"#,
            base(s.b, 270.0)
        ),
    ];
    for (i, &(x, y, h, friend)) in s.others.iter().enumerate() {
        // Units may not overlap the two under test; skip those that would.
        let side = if friend { "fr" } else { "au" };
        units.push(format!(
            r#"{{"id":"o{i}","side":"{side}","kind":"infantry","formation":"line","bases":[{}]}}"#,
            base((x, y, h), 90.0)
        ));
    }
    let mut terrain: Vec<String> = s
        .woods
        .iter()
        .map(|&(x, y, w, d, k)| {
            format!(
                r#"{{"kind":"{}","outline":[[{x},{y}],[{},{y}],[{},{}],[{x},{}]]}}"#,
                WOODS[k],
                x + w,
                x + w,
                y + d,
                y + d
            )
        })
        .collect();
    if let Some((x, y, l)) = s.hill {
        let level = (l * 2.0).round() / 2.0;
        terrain.push(format!(
            r#"{{"kind":"hill","level":{level},"outline":[[{x},{y}],[{},{y}],[{},{}],[{x},{}]]}}"#,
            x + 200.0,
            x + 200.0,
            y + 60.0,
            y + 60.0
        ));
    }
    Table::from_json_str(&format!(
        r#"{{"schema":"vedette/table/1","rules":"republic","scale":"medium","units":[{}],"terrain":[{}]}}"#,
        units.join(","),
        terrain.join(",")
    ))
    .unwrap_or_else(|e| panic!("{e}"))
}

fn verdict(t: &Table, rules: Option<SightRules>, a: usize, b: usize) -> (bool, bool) {
    let index = SpatialIndex::new(t);
    let los = match rules {
        Some(r) => TerrainSight::with_rules(&index, r),
        None => TerrainSight::try_new(&index).unwrap(),
    }
    .with_sampling(COARSE);
    let v = los.unit_verdict(a, b);
    (v.visible, v.full_base.is_some())
}

proptest! {
    #![proptest_config(common::proptest_config(48, 6))]

    #[test]
    fn turning_and_moving_the_table_changes_no_verdict(s in scene(), rot in 0.0..360.0f64, tx in -3000.0..3000.0f64) {
        let t = to_table(&s);
        let moved = RigidMotion::new(rot, Vec2::new(tx, -0.7 * tx)).table(&t);
        prop_assert_eq!(verdict(&t, None, 0, 1), verdict(&moved, None, 0, 1));
    }

    #[test]
    fn sight_is_symmetric_with_whole_base_eyes_on_flat_ground(s in scene()) {
        // Republique's blocking (every combat base, both ways) and spotting depth
        // (along the line, from either end) are symmetric; a front-edge eye and 601
        // blind zones are not (a spotter on a hill sees past a wood that hides it from
        // below... and the reverse), so compare whole-base eyes on flat ground.
        let flat = Scene { hill: None, ..s };
        let t = to_table(&flat);
        let mut rules = SightRules::for_book(&RuleBook::try_new(RuleSet::Republic, Scale::Medium).unwrap()).unwrap();
        rules.eye = Eye::WholeBase;
        let ab = verdict(&t, Some(rules), 0, 1).0;
        let ba = verdict(&t, Some(rules), 1, 0).0;
        prop_assert_eq!(ab, ba);
    }
}

/// The bounded search's guarantee (see `Method::Sampled`): with a 1 mm target grid, a
/// hidden part of the base holding a disc of radius ≥ √2/2 mm is always found, and a
/// visible part holding such a disc always gives "visible". The scene is the 601 row
/// "minus ½" (m = 1) whose zone ends exactly at y = 390 (worked in
/// `line_of_sight_scenes.rs`): a target straddling y = 390 by `w` mm on either side.
#[test]
fn the_sampling_bound_holds_at_a_blind_zone_edge() {
    let scene = |c: f64| {
        Table::from_json_str(&format!(
            r#"{{"schema":"vedette/table/1","rules":"republic","scale":"medium","units":[
            {{"id":"me","side":"us","kind":"infantry","formation":"line","bases":[{{"x":0,"y":0,"heading":90,"width":30,"depth":20}}]}},
            {{"id":"foe","side":"cs","kind":"infantry","formation":"line","bases":[{{"x":0,"y":{c},"heading":270,"width":30,"depth":20}}]}}],
            "terrain":[{{"kind":"heavy-forest","outline":[[-300,100],[300,100],[300,200],[-300,200]]}},
                       {{"kind":"hill","level":1,"outline":[[-100,-100],[100,-100],[100,40],[-100,40]]}}]}}"#
        ))
        .unwrap()
    };
    let run = |c: f64| {
        let t = scene(c);
        let index = SpatialIndex::new(&t);
        let los = TerrainSight::try_new(&index).unwrap();
        let v = los.unit_verdict(0, 1);
        (v.visible, v.full_base.is_some())
    };
    // Hidden strip (near edge y_end - w): a 30 × w strip holds a disc of radius w/2.
    for w in [1.5, 2.0, 5.0] {
        assert_eq!(run(390.0 - w + 10.0), (true, false), "hidden strip {w} mm");
    }
    // Visible strip (far edge y_end + w).
    for w in [1.5, 2.0, 5.0] {
        assert_eq!(run(390.0 + w - 10.0), (true, false), "visible strip {w} mm");
    }
}
