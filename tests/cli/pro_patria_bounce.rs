//! Pro Patria artillery bounce-through (004 §17.3.9), worked by hand: a gun (40 x 40
//! stand at the origin facing +y: its muzzle, the middle of its front edge, at (0, 20))
//! fires at a battalion whose front edge is y = 400 (60 x 20 stand): the line of fire is
//! 380 mm. With a 150 mm bounce-through distance the ball runs on to y = 550. A unit
//! behind whose near edge is 1 mm short of that is reached, 1 mm beyond is not; the same
//! under scan-sized noise (0.1 mm, 0.2°) and at four headings. A hill under the target
//! (the gun lower: uphill) or under the gun (a high hill firing at the table top) stops
//! the bounce; a wood between stops it where the line enters the wood.

use crate::common;
use serde_json::{Value, json};
use vedette_geometry::los::TerrainSight;
use vedette_geometry::pro_patria::bounce::{NoBounce, bounce_through};
use vedette_geometry::{SpatialIndex, Table, TerrainKind};

const HEADINGS: [f64; 4] = [0.0, 37.0, 90.0, 211.0];

fn turn(x: f64, y: f64, deg: f64) -> (f64, f64) {
    let (s, c) = deg.to_radians().sin_cos();
    (c * x - s * y, s * x + c * y)
}

fn stand(x: f64, y: f64, heading: f64, w: f64, d: f64, deg: f64, noise: (f64, f64, f64)) -> Value {
    let (x, y) = turn(x + noise.0, y + noise.1, deg);
    json!({ "x": x, "y": y, "heading": (heading + deg + noise.2).rem_euclid(360.0), "width": w, "depth": d })
}

fn area(id: &str, kind: &str, level: f64, (x0, y0, x1, y1): (f64, f64, f64, f64), deg: f64) -> Value {
    let outline: Vec<Value> = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
        .iter()
        .map(|&(x, y)| {
            let (x, y) = turn(x, y, deg);
            json!([x, y])
        })
        .collect();
    json!({ "id": id, "kind": kind, "level": level, "outline": outline })
}

/// The scene; `behind_edge` is the near edge of the unit behind (y), `noise` moves it.
fn scene(deg: f64, behind_edge: f64, noise: (f64, f64, f64), terrain: Vec<Value>) -> Table {
    let z = (0.0, 0.0, 0.0);
    let t = json!({
        "schema": "vedette/table/1", "rules": "pro-patria", "scale": "28mm",
        "units": [
            { "id": "gun", "side": "fr", "kind": "artillery", "formation": "unlimbered",
              "bases": [stand(0.0, 0.0, 90.0, 40.0, 40.0, deg, z)] },
            { "id": "target", "side": "au", "kind": "infantry", "formation": "line",
              "bases": [stand(0.0, 410.0, 270.0, 60.0, 20.0, deg, z)] },
            { "id": "behind", "side": "au", "kind": "infantry", "formation": "line",
              "bases": [stand(0.0, behind_edge + 10.0, 270.0, 60.0, 20.0, deg, noise)] },
        ],
        "terrain": terrain,
    });
    Table::from_json_str(&t.to_string()).unwrap()
}

fn bounce(t: &Table, mm: f64) -> vedette_geometry::pro_patria::bounce::BounceThrough {
    let index = SpatialIndex::new(t);
    let sight = TerrainSight::try_new(&index).unwrap();
    bounce_through(t, &sight, 0, 1, mm, None).unwrap().unwrap()
}

#[test]
fn a_unit_just_within_and_just_beyond_the_bounce_distance() {
    use rand::{RngExt, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(17_039);
    for deg in HEADINGS {
        for (gap, reached) in [(-1.0, true), (1.0, false)] {
            for trial in 0..8 {
                let noise = if trial == 0 {
                    (0.0, 0.0, 0.0)
                } else {
                    (rng.random_range(-0.1..0.1), rng.random_range(-0.1..0.1), rng.random_range(-0.2..0.2))
                };
                let b = bounce(&scene(deg, 550.0 + gap, noise, vec![]), 150.0);
                let what = format!("{deg}° gap {gap} trial {trial}");
                assert!((b.range_mm - 380.0).abs() < 1e-6, "{what}: {}", b.range_mm);
                assert!((b.reach_mm - 150.0).abs() < 1e-9 && b.none.is_none() && b.stop.is_none(), "{what}");
                assert_eq!(b.hits.iter().any(|h| h.unit == 2), reached, "{what}: {:?}", b.hits);
                if let Some(h) = b.hits.first() {
                    assert!((h.at_mm - (150.0 + gap)).abs() < 0.2, "{what}: at {}", h.at_mm);
                    assert!(!h.friendly);
                }
            }
        }
    }
}

#[test]
fn elevation_and_terrain_stop_it() {
    for deg in HEADINGS {
        // The target on a low hill, the gun on the table top: uphill, no bounce.
        let hill = area("rise", "hill", 0.5, (-100.0, 380.0, 100.0, 470.0), deg);
        let b = bounce(&scene(deg, 500.0, (0.0, 0.0, 0.0), vec![hill]), 150.0);
        assert_eq!(b.none, Some(NoBounce::Uphill), "{deg}°");
        assert!(b.hits.is_empty() && b.reach_mm == 0.0);
        // The gun on a high hill, everything else on the table top.
        let hill = area("height", "hill", 1.0, (-100.0, -100.0, 100.0, 100.0), deg);
        let b = bounce(&scene(deg, 500.0, (0.0, 0.0, 0.0), vec![hill]), 150.0);
        assert_eq!(b.none, Some(NoBounce::HighHillToTableTop), "{deg}°");
        // A wood from y = 480: the ball stops 80 mm beyond the target's front edge, short
        // of the unit behind at y = 500.
        let wood = area("copse", "light-forest", 0.0, (-100.0, 480.0, 100.0, 700.0), deg);
        let b = bounce(&scene(deg, 500.0, (0.0, 0.0, 0.0), vec![wood]), 150.0);
        let stop = b.stop.unwrap();
        assert_eq!(stop.kind, TerrainKind::LightForest);
        assert!((stop.at_mm - 80.0).abs() < 1e-6 && b.hits.is_empty(), "{deg}°: {b:?}");
    }
}

#[test]
fn the_bounce_verb_answers_and_refuses_what_it_cannot() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bounce.json");
    std::fs::write(&path, scene(37.0, 500.0, (0.0, 0.0, 0.0), vec![]).to_json_string()).unwrap();
    let p = path.to_str().unwrap();
    let o =
        common::vedette(&["bounce", p, "gun", "target", "--distance", "150", "--gun-range", "600", "--json"]);
    assert!(o.status.success(), "{}", common::stderr(&o));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    // 600 - 380 leaves 220 mm: the whole 150 mm bounce; the unit behind at 100 mm.
    assert_eq!(v["reach_mm"], json!(150.0), "{v}");
    assert_eq!(v["hits"][0]["unit"], json!("behind"));
    assert_eq!(v["hits"][0]["at_mm"], json!(100.0));
    // A 450 mm gun leaves 70 mm: cut by its range, nothing reached.
    let o =
        common::vedette(&["bounce", p, "gun", "target", "--distance", "150", "--gun-range", "450", "--json"]);
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!((v["range_limited"].clone(), v["hits"].clone()), (json!(true), json!([])), "{v}");
    let r5 = common::sample("skirmish.json");
    for (args, needle) in [
        (vec!["bounce", r5.to_str().unwrap(), "fr-1", "au-1", "--distance", "150"], "a Pro Patria rule"),
        (vec!["bounce", p, "gun", "target", "--distance", "-3"], "more than 0"),
        (vec!["bounce", p, "gun", "target", "--distance", "nan"], "more than 0"),
        (vec!["bounce", p, "gun", "gun", "--distance", "150"], "its own target"),
        (vec!["bounce", p, "gun", "tagret", "--distance", "150"], "tagret"),
    ] {
        let o = common::vedette(&args);
        assert_ne!(o.status.code(), Some(0), "{args:?}");
        assert!(common::stderr(&o).contains(needle), "{args:?}: {}", common::stderr(&o));
    }
}
