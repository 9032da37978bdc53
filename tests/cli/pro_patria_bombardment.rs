//! The massed-battery bombardment zone (004 §19.6) cut at a hill's crest, worked by hand:
//! a battery of two 40 mm stands centred on (0, 0) facing +y, aimed at (0, 500): the box
//! is x from -40 to 40, y from 500 to 650 (150 mm deep). A hill 600 x 80 (y 560 to 640)
//! has its spine at y = 600, across the line of fire: the zone stops there (80 x 100).
//! Its other crest, x = 0 from y = 560 to 640, runs along the line of fire and cuts
//! nothing. Units at y = 540 and 590 are inside, at 620 beyond the crest, at 700 beyond
//! the box. The scene is turned to four headings about the origin.

use crate::common;
use serde_json::json;
use vedette_geometry::pro_patria::bombardment::bombardment_zone;
use vedette_geometry::{Table, Vec2};

fn turn(x: f64, y: f64, deg: f64) -> (f64, f64) {
    let (s, c) = deg.to_radians().sin_cos();
    (c * x - s * y, s * x + c * y)
}

fn scene(deg: f64, hill: bool) -> Table {
    let base = |x: f64, y: f64, w: f64, d: f64| {
        let (x, y) = turn(x, y, deg);
        json!({ "x": x, "y": y, "heading": (90.0 + deg).rem_euclid(360.0), "width": w, "depth": d })
    };
    let outline: Vec<_> = [(-300.0, 560.0), (300.0, 560.0), (300.0, 640.0), (-300.0, 640.0)]
        .iter()
        .map(|&(x, y)| {
            let (x, y) = turn(x, y, deg);
            json!([x, y])
        })
        .collect();
    let unit = |id: &str, y: f64| json!({ "id": id, "side": "au", "kind": "infantry", "formation": "line", "bases": [base(0.0, y, 40.0, 20.0)] });
    let t = json!({
        "schema": "vedette/table/1", "rules": "pro-patria", "scale": "28mm",
        "units": [
            { "id": "grand-battery", "side": "fr", "kind": "artillery", "formation": "unlimbered",
              "bases": [base(-20.0, 0.0, 40.0, 60.0), base(20.0, 0.0, 40.0, 60.0)] },
            unit("near", 540.0), unit("below-crest", 590.0), unit("over-crest", 620.0), unit("far", 700.0)
        ],
        "terrain": if hill { json!([{ "id": "ridge", "kind": "hill", "level": 1, "outline": outline }]) } else { json!([]) }
    });
    Table::from_json_str(&t.to_string()).unwrap()
}

#[test]
fn the_zone_stops_at_the_crest_it_would_pass_over() {
    for deg in [0.0, 37.0, 90.0, 211.0] {
        let t = scene(deg, true);
        let (x, y) = turn(0.0, 500.0, deg);
        let z = bombardment_zone(&t, 0, Vec2::new(x, y), &t.rule_book().unwrap()).unwrap().unwrap();
        assert!((z.area.area() - 80.0 * 100.0).abs() < 1e-6, "{deg}°: {}", z.area.area());
        assert_eq!(z.cut_by, vec![0], "{deg}°");
        let ids: Vec<&str> = z.units.iter().map(|&u| t.units[u].id.as_str()).collect();
        assert_eq!(ids, ["near", "below-crest"], "{deg}°");
        // Without the hill: the whole box, and the unit over where the crest was.
        let t = scene(deg, false);
        let z = bombardment_zone(&t, 0, Vec2::new(x, y), &t.rule_book().unwrap()).unwrap().unwrap();
        assert!((z.area.area() - 80.0 * 150.0).abs() < 1e-6, "{deg}°");
        let ids: Vec<&str> = z.units.iter().map(|&u| t.units[u].id.as_str()).collect();
        assert_eq!(ids, ["near", "below-crest", "over-crest"], "{deg}°");
    }
}

#[test]
fn aimed_beyond_the_crest_the_zone_is_empty() {
    let t = scene(0.0, true);
    let z = bombardment_zone(&t, 0, Vec2::new(0.0, 610.0), &t.rule_book().unwrap()).unwrap().unwrap();
    assert!(z.area.is_empty() && z.units.is_empty(), "{z:?}");
}

#[test]
fn the_bombard_verb_names_the_zone_the_crest_and_who_is_inside() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("grand-battery.json");
    std::fs::write(&path, scene(37.0, true).to_json_string()).unwrap();
    let (x, y) = turn(0.0, 500.0, 37.0);
    let at = format!("{x},{y}");
    let o = common::vedette(&["bombard", path.to_str().unwrap(), "grand-battery", "--at", &at, "--json"]);
    assert!(o.status.success(), "{}", common::stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!((v["area_mm2"].as_f64().unwrap() - 8000.0).abs() < 1e-3, "{v}");
    assert_eq!(v["cut_by"], json!(["ridge"]));
    assert_eq!(
        v["units"],
        json!([{ "unit": "near", "side": "au" }, { "unit": "below-crest", "side": "au" }])
    );
    // Not a Pro Patria table, a bad point, an unknown battery: exit 1, said.
    let r5 = common::sample("skirmish.json");
    for (args, needle) in [
        (vec!["bombard", r5.to_str().unwrap(), "fr-1", "--at", "0,0"], "a Pro Patria rule"),
        (vec!["bombard", path.to_str().unwrap(), "grand-battery", "--at", "0;0"], "give the point as X,Y"),
        (vec!["bombard", path.to_str().unwrap(), "grand-batery", "--at", "0,0"], "grand-battery"),
    ] {
        let o = common::vedette(&args);
        assert_ne!(o.status.code(), Some(0), "{args:?}");
        assert!(common::stderr(&o).contains(needle), "{args:?}: {}", common::stderr(&o));
    }
}

/// A unit's near edge 1 mm either side of the crest (y = 600) and of the box's far edge
/// without the hill (y = 650): in, out; the same under scan-sized noise (0.1 mm, 0.2°).
#[test]
fn just_inside_and_just_outside_the_cut_and_the_box_even_with_scan_noise() {
    use rand::{RngExt, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1962);
    for deg in [0.0, 37.0, 90.0, 211.0] {
        for (hill, edge) in [(true, 600.0), (false, 650.0)] {
            for (gap, inside) in [(-1.0, true), (1.0, false)] {
                for trial in 0..8 {
                    let (dx, dy, dh) = if trial == 0 {
                        (0.0, 0.0, 0.0)
                    } else {
                        (
                            rng.random_range(-0.1..0.1),
                            rng.random_range(-0.1..0.1),
                            rng.random_range(-0.2..0.2),
                        )
                    };
                    let t = scene(deg, hill);
                    let mut v: serde_json::Value = serde_json::from_str(&t.to_json_string()).unwrap();
                    // The "far" unit (index 4): its near edge at `edge + gap`.
                    let (x, y) = turn(dx, edge + gap + 10.0 + dy, deg);
                    v["units"][4]["bases"][0]["x"] = json!(x);
                    v["units"][4]["bases"][0]["y"] = json!(y);
                    v["units"][4]["bases"][0]["heading"] = json!((90.0 + deg + dh).rem_euclid(360.0));
                    let t = Table::from_json_str(&v.to_string()).unwrap();
                    let (px, py) = turn(0.0, 500.0, deg);
                    let z =
                        bombardment_zone(&t, 0, Vec2::new(px, py), &t.rule_book().unwrap()).unwrap().unwrap();
                    assert_eq!(z.units.contains(&4), inside, "{deg}° hill {hill} gap {gap} trial {trial}");
                }
            }
        }
    }
}
