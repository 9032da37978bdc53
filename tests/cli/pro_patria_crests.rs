//! Pro Patria crest lines (004 §15.1): a unit within 25 mm (15 mm for 15 mm figures) of a
//! hill's crest line must be declared behind or over it; `vedette report` lists it.
//!
//! The scene, worked by hand: a hill 400 x 200 mm centred on (900, 600) with its length
//! along x. Its spine (along its length through its centre) is y = 600 from x = 700 to
//! 1100; the line across its widest point (every x is as wide: the middle) is x = 900
//! from y = 500 to 700. An infantry base 40 x 20 facing +y with its centre at
//! (800, 600 - d - 10) has its front edge d mm short of the spine, and lies 80 mm from
//! the line across. It is within reach for d <= 25 (28 mm figures), not beyond; at 15 mm
//! scale the reach is 15. The whole scene is turned about the hill's centre to four
//! headings, and jittered by 0.1 mm / 0.2° away from the threshold.

use crate::common;
use proptest::prelude::*;
use serde_json::{Value, json};
use vedette::commands::report;
use vedette_geometry::Table;

const CENTRE: (f64, f64) = (900.0, 600.0);
const HEADINGS: [f64; 4] = [0.0, 37.0, 90.0, 211.0];

fn turn(x: f64, y: f64, deg: f64) -> (f64, f64) {
    let (s, c) = deg.to_radians().sin_cos();
    let (dx, dy) = (x - CENTRE.0, y - CENTRE.1);
    (CENTRE.0 + c * dx - s * dy, CENTRE.1 + s * dx + c * dy)
}

/// The scene with the unit's front edge `d` mm short of the spine, turned by `deg`,
/// the base then moved by `jitter` (dx, dy, dheading).
fn scene(d: f64, deg: f64, scale: &str, jitter: (f64, f64, f64)) -> Table {
    let hill: Vec<Value> = [(700.0, 500.0), (1100.0, 500.0), (1100.0, 700.0), (700.0, 700.0)]
        .iter()
        .map(|&(x, y)| {
            let (x, y) = turn(x, y, deg);
            json!([x, y])
        })
        .collect();
    let (x, y) = turn(800.0, 600.0 - d - 10.0, deg);
    let far = turn(300.0, 200.0, deg);
    let t = json!({
        "schema": "vedette/table/1", "rules": "pro-patria", "scale": scale,
        "size": { "width": 1800.0, "depth": 1200.0 },
        "units": [
            { "id": "fr-1", "side": "fr", "kind": "infantry", "formation": "line",
              "bases": [{ "x": x + jitter.0, "y": y + jitter.1, "heading": (90.0 + deg + jitter.2).rem_euclid(360.0), "width": 40.0, "depth": 20.0 }] },
            { "id": "au-1", "side": "au", "kind": "infantry", "formation": "line",
              "bases": [{ "x": far.0, "y": far.1, "heading": 0.0, "width": 40.0, "depth": 20.0 }] }
        ],
        "terrain": [{ "id": "ridge", "kind": "hill", "level": 1, "outline": hill }]
    });
    Table::from_json_str(&t.to_string()).unwrap()
}

/// The crest entries of the report: (unit, crest, distance).
fn crests(t: &Table) -> Vec<(String, String, f64)> {
    let r = report::build(t).unwrap();
    let v = serde_json::to_value(&r).unwrap();
    v["pro_patria"]["crests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["unit"].as_str().unwrap().to_string(),
                c["crest"].as_str().unwrap().to_string(),
                c["distance_mm"].as_f64().unwrap(),
            )
        })
        .collect()
}

#[test]
fn within_25_mm_of_the_spine_at_every_heading() {
    for deg in HEADINGS {
        for (d, within) in [(0.0, true), (24.9, true), (25.0, true), (25.1, false), (60.0, false)] {
            let c = crests(&scene(d, deg, "28mm", (0.0, 0.0, 0.0)));
            if within {
                assert_eq!(c.len(), 1, "d {d} at {deg}°: {c:?}");
                assert_eq!((c[0].0.as_str(), c[0].1.as_str()), ("fr-1", "spine"), "d {d} at {deg}°");
                assert!((c[0].2 - d).abs() < 1e-6, "d {d} at {deg}°: {}", c[0].2);
            } else {
                assert!(c.is_empty(), "d {d} at {deg}°: {c:?}");
            }
        }
    }
}

#[test]
fn the_line_across_the_widest_point_counts_too_and_15_mm_figures_reach_15() {
    // 15 mm figures: 14.9 within, 15.1 not.
    for deg in HEADINGS {
        assert_eq!(crests(&scene(14.9, deg, "15mm", (0.0, 0.0, 0.0))).len(), 1, "{deg}°");
        assert!(crests(&scene(15.1, deg, "15mm", (0.0, 0.0, 0.0))).is_empty(), "{deg}°");
    }
    // A base beyond the hill's long edge y = 700, centred on x = 900, its near edge `out`
    // mm beyond: `out` from the end (900, 700) of the line across, 100 + `out` from the
    // spine. Within at 20 mm (on the line across), not at 30.
    for (out, within) in [(20.0, true), (30.0, false)] {
        let t = scene(60.0, 0.0, "28mm", (0.0, 0.0, 0.0));
        let mut v: Value = serde_json::from_str(&t.to_json_string()).unwrap();
        v["units"][0]["bases"][0]["x"] = json!(900.0);
        v["units"][0]["bases"][0]["y"] = json!(700.0 + out + 10.0);
        let c = crests(&Table::from_json_str(&v.to_string()).unwrap());
        if within {
            assert_eq!(c.len(), 1, "{c:?}");
            assert_eq!(c[0].1, "across");
            assert!((c[0].2 - out).abs() < 1e-6, "{c:?}");
        } else {
            assert!(c.is_empty(), "{c:?}");
        }
    }
}

/// The hill of [`scene`] with one hand-drawn crest (004 §15.1), turned by `deg`: a
/// polyline from (720, 640) along y = 640 to (800, 640), then up to (880, 680), where the
/// players' hill has its crest off the derived spine (y = 600). A second French unit,
/// "fr-2", straddles the derived spine at x = 1000, about 120 mm from the drawn crest.
fn drawn_scene(d: f64, deg: f64, scale: &str, drawn: bool) -> Table {
    let t = scene(60.0, deg, scale, (0.0, 0.0, 0.0));
    let mut v: Value = serde_json::from_str(&t.to_json_string()).unwrap();
    let at = |x: f64, y: f64| {
        let (x, y) = turn(x, y, deg);
        json!([x, y])
    };
    if drawn {
        v["terrain"][0]["crests"] = json!([[at(720.0, 640.0), at(800.0, 640.0), at(880.0, 680.0)]]);
    }
    // fr-1's front edge `d` mm short of the drawn crest's straight part: its base spans
    // y = 620 - d .. 640 - d, across the derived spine for d near 25.
    let (x, y) = turn(800.0, 640.0 - d - 10.0, deg);
    v["units"][0]["bases"][0]["x"] = json!(x);
    v["units"][0]["bases"][0]["y"] = json!(y);
    let (x2, y2) = turn(1000.0, 600.0, deg);
    let heading = (90.0 + deg).rem_euclid(360.0);
    v["units"].as_array_mut().unwrap().push(json!({
        "id": "fr-2", "side": "fr", "kind": "infantry", "formation": "line",
        "bases": [{ "x": x2, "y": y2, "heading": heading, "width": 40.0, "depth": 20.0 }]
    }));
    Table::from_json_str(&v.to_string()).unwrap()
}

#[test]
fn hand_drawn_crests_replace_the_derived_ones() {
    // Issue 16: fr-1 is 24.9 / 25.1 mm from the drawn crest (14.9 / 15.1 for 15 mm
    // figures) and near the derived spine; fr-2 astride the derived spine and about
    // 120 mm from the drawn crest. With the drawn crest only fr-1 at 24.9 is within; without
    // it, both units are (fr-2 on the spine, fr-1 within 5.1 mm of it).
    for deg in HEADINGS {
        for (scale, reach) in [("28mm", 25.0), ("15mm", 15.0)] {
            for (d, within) in [(reach - 0.1, true), (reach + 0.1, false)] {
                let c = crests(&drawn_scene(d, deg, scale, true));
                if within {
                    assert_eq!(c.len(), 1, "{scale} d {d} at {deg}°: {c:?}");
                    assert_eq!((c[0].0.as_str(), c[0].1.as_str()), ("fr-1", "drawn"), "{deg}°");
                    assert!((c[0].2 - d).abs() < 1e-6, "{scale} d {d} at {deg}°: {c:?}");
                } else {
                    assert!(c.is_empty(), "{scale} d {d} at {deg}°: {c:?}");
                }
                let derived = crests(&drawn_scene(d, deg, scale, false));
                let names: Vec<(&str, &str)> = derived.iter().map(|c| (c.0.as_str(), c.1.as_str())).collect();
                assert_eq!(names, vec![("fr-1", "spine"), ("fr-2", "spine")], "{scale} d {d} at {deg}°");
                assert!(derived[1].2 < 1e-6, "{derived:?}");
            }
        }
    }
    // The report names the drawn crest by its index; the text says `drawn[0]`.
    let t = drawn_scene(10.0, 37.0, "28mm", true);
    let v = serde_json::to_value(report::build(&t).unwrap()).unwrap();
    assert_eq!(v["pro_patria"]["crests"][0]["drawn"], json!(0));
    let text = report::render_text(&report::build(&t).unwrap());
    assert!(text.contains("ridge drawn[0]"), "{text}");
    // The plan draws the drawn crest, not the derived ones.
    let (_, findings) = report::build_timed(&t, &mut report::Stages::default()).unwrap();
    let scene = report::plan_scene(&t, &findings).unwrap();
    assert!(scene.element("crest-ridge-drawn-0").is_some());
    assert!(scene.element("crest-ridge-spine").is_none() && scene.element("crest-ridge-across").is_none());
    // A derived crest carries no index, and the plan draws both derived lines.
    let t = drawn_scene(10.0, 37.0, "28mm", false);
    let v = serde_json::to_value(report::build(&t).unwrap()).unwrap();
    assert!(v["pro_patria"]["crests"][0].get("drawn").is_none(), "{v}");
    let (_, findings) = report::build_timed(&t, &mut report::Stages::default()).unwrap();
    let scene = report::plan_scene(&t, &findings).unwrap();
    assert!(scene.element("crest-ridge-spine").is_some() && scene.element("crest-ridge-across").is_some());
}

proptest! {
    #![proptest_config(common::proptest_config(64, 1511))]
    /// Scan-sized noise (0.1 mm, 0.2°) away from the threshold does not change the verdict.
    #[test]
    fn scan_noise_away_from_the_threshold_keeps_the_verdict(
        deg in 0.0..360.0f64,
        dx in -0.1..0.1f64, dy in -0.1..0.1f64, dh in -0.2..0.2f64,
    ) {
        prop_assert_eq!(crests(&scene(22.0, deg, "28mm", (dx, dy, dh))).len(), 1);
        prop_assert!(crests(&scene(28.0, deg, "28mm", (dx, dy, dh))).is_empty());
    }
}
