//! `vedette move` (issue 16, movement geometry of 000 §3.1-3.4; issue 40, terrain and Pro
//! Patria): scenes worked out by hand, on a turned table and on a scanned one whose
//! uncertainty makes a Hold a close call; the sample pair; a Pro Patria wheel.

use crate::common;
use common::{stderr, vedette};
use serde_json::json;
use vedette::commands::movement::{MoveReport, assess as assess_full};
use vedette_geometry::Table;
use vedette_geometry::movement::MoveQuestions;

/// The `move` answer for `unit` with no further question.
fn assess(before: &Table, after: &Table, unit: &str) -> Result<MoveReport, vedette::CliError> {
    assess_full(before, after, unit, &MoveQuestions::default()).map(|(r, _)| r)
}

/// A Prussian 2-base line (30 x 20) facing `heading`, its centre moved `ahead` mm along
/// its facing and `left` mm to its left, turned `deg` about (600, 400); bases carry
/// `sigma` when given.
fn line(ahead: f64, left: f64, deg: f64, sigma: Option<f64>) -> Table {
    let (s, c) = deg.to_radians().sin_cos();
    let turn = |x: f64, y: f64| {
        (600.0 + c * (x - 600.0) - s * (y - 400.0), 400.0 + s * (x - 600.0) + c * (y - 400.0))
    };
    let bases: Vec<_> = [585.0, 615.0]
        .iter()
        .map(|&x| {
            let (x, y) = turn(x - left, 400.0 + ahead);
            let mut b = json!({ "x": x, "y": y, "heading": 90.0 + deg, "width": 30.0, "depth": 20.0 });
            if let Some(s) = sigma {
                b["sigma_mm"] = json!(s);
            }
            b
        })
        .collect();
    let t = json!({ "schema": "vedette/table/1", "rules": "republique5", "scale": "medium",
        "sides": { "pr": { "system": "prussian" } },
        "units": [ { "id": "u", "side": "pr", "kind": "infantry", "formation": "line", "bases": bases } ] });
    Table::from_json_str(&t.to_string()).unwrap()
}

#[test]
fn hold_advance_and_cost_on_turned_tables() {
    for deg in [0.0, 33.0, 200.0] {
        // 4" = 101.6 mm straight ahead: exactly a Hold (4" or less), not an Advance
        // (more than 4" forward), cost x1.
        let r = assess(&line(0.0, 0.0, deg, None), &line(101.6, 0.0, deg, None), "u").unwrap();
        assert!((r.distance_mm - 101.6).abs() < 1e-6, "{deg}: {}", r.distance_mm);
        assert!(r.hold == Some(true) && r.advancing == Some(false), "{deg}");
        assert_eq!(r.cost_factor, Some(1.0));
        // 0.1 mm more: no longer a Hold, and an Advance.
        let r = assess(&line(0.0, 0.0, deg, None), &line(101.7, 0.0, deg, None), "u").unwrap();
        assert!(r.hold == Some(false) && r.advancing == Some(true), "{deg}");
        // 60 mm straight left: sideways, Prussian x4 = 240 mm = 9.45": within 8" + 4"
        // and uses the charge bonus.
        let r = assess(&line(0.0, 0.0, deg, None), &line(0.0, 60.0, deg, None), "u").unwrap();
        assert_eq!(serde_json::to_value(r.direction).unwrap(), "sideways");
        assert_eq!(r.cost_factor, Some(4.0));
        assert!((r.cost_in.unwrap() - 240.0 / 25.4).abs() < 1e-5);
        assert_eq!((r.within_allowance, r.uses_charge_bonus), (Some(true), Some(true)));
    }
}

#[test]
fn a_scanned_hold_within_two_sigma_is_too_close_to_call() {
    // Sigma 0.3 mm on both positions: the distance's sigma is 0.3·√2 = 0.424 mm, two
    // sigmas 0.85 mm. 0.5 mm either side of 4" is too close; 1.2 mm is certain.
    for (ahead, hold, certain) in
        [(101.1, true, false), (102.1, false, false), (100.4, true, true), (102.8, false, true)]
    {
        let r = assess(&line(0.0, 0.0, 0.0, Some(0.3)), &line(ahead, 0.0, 0.0, Some(0.3)), "u").unwrap();
        assert_eq!(r.hold, Some(hold), "{ahead}");
        let call = r.hold_call.unwrap();
        assert_eq!(call.certain, certain, "{ahead}: {call:?}");
        assert!((call.margin_mm - (ahead - 101.6f64).abs()).abs() < 1e-6);
    }
}

#[test]
fn the_verb_answers_and_refuses_clearly() {
    let dir = tempfile::tempdir().unwrap();
    let (b, a) = (dir.path().join("before.json"), dir.path().join("after.json"));
    std::fs::write(&b, line(0.0, 0.0, 0.0, None).to_json_string()).unwrap();
    std::fs::write(&a, line(-152.4, 0.0, 0.0, None).to_json_string()).unwrap();
    let out = vedette(&["move", b.to_str().unwrap(), a.to_str().unwrap(), "u", "--retrograde", "withdraw"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("withdraw: 6.00\" back of 6.00\" required, facing right: done"), "{text}");
    let out = vedette(&["move", b.to_str().unwrap(), a.to_str().unwrap(), "nobody"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("no unit \"nobody\""), "{}", stderr(&out));
}

/// Writes `before` and `after` to a temporary directory, returns it and the two paths.
fn written(before: &Table, after: &Table) -> (tempfile::TempDir, String, String) {
    let dir = tempfile::tempdir().unwrap();
    let (b, a) = (dir.path().join("before.json"), dir.path().join("after.json"));
    std::fs::write(&b, before.to_json_string()).unwrap();
    std::fs::write(&a, after.to_json_string()).unwrap();
    let (b, a) = (b.to_str().unwrap().to_string(), a.to_str().unwrap().to_string());
    (dir, b, a)
}

/// A Pro Patria line of two 60 x 20 stands facing +y (front edge y = 410, x 540..660)
/// wheeled `deg` left about its left front corner (540, 410).
fn pro_patria_line(deg: f64) -> Table {
    let pivot = (540.0f64, 410.0f64);
    let (s, c) = deg.to_radians().sin_cos();
    let bases: Vec<_> = [570.0, 630.0]
        .iter()
        .map(|&x| {
            let (rx, ry) = (x - pivot.0, 400.0 - pivot.1);
            json!({ "x": pivot.0 + c * rx - s * ry, "y": pivot.1 + s * rx + c * ry, "heading": 90.0 + deg,
                    "width": 60.0, "depth": 20.0 })
        })
        .collect();
    let t = json!({ "schema": "vedette/table/1", "rules": "pro-patria", "scale": "28mm",
        "units": [ { "id": "fr-bn1", "side": "fr", "kind": "infantry", "formation": "line", "bases": bases } ] });
    Table::from_json_str(&t.to_string()).unwrap()
}

#[test]
fn the_verb_charges_a_pro_patria_wheel_double_its_outside_arc() {
    // Issue 40 (004 §17.4.6): the outer front corner is 120 mm from the pivot; a 50 mm
    // arc turns 50/120 rad. Charged 100 mm.
    let (_dir, b, a) = written(&pro_patria_line(0.0), &pro_patria_line((50.0f64 / 120.0).to_degrees()));
    let out = vedette(&["move", &b, &a, "fr-bn1"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("fr-bn1: moved 50.0 mm"), "{text}");
    assert!(text.contains("charged 100.0 mm: the outside arc 50.0 mm costs double (004 §17.4.6)"), "{text}");
    let out = vedette(&["move", &b, &a, "fr-bn1", "--json", "--allowance", "100"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["pro_patria"]["measured"], "outside-arc");
    assert!((v["cost_mm"].as_f64().unwrap() - 100.0).abs() < 1e-6);
    assert_eq!(v["within_allowance"], true);
    assert_eq!(v["hold"], serde_json::Value::Null);
    // Republique questions are refused on a Pro Patria table, and the other way round.
    let out = vedette(&["move", &b, &a, "fr-bn1", "--retrograde", "withdraw"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("has no rule for the retrograde results of 000 §3.4"), "{}", stderr(&out));
}

#[test]
fn the_verb_charges_a_medium_forest_move_double() {
    // Issue 40: 2" moved inside medium forest (rough, 000 §3.5-3.6) is charged 4". The
    // sample pair: fr-1 stands in the copse and advances 2".
    let b = common::sample("move-before.json");
    let a = common::sample("move-after.json");
    let (b, a) = (b.to_str().unwrap(), a.to_str().unwrap());
    let out = vedette(&["move", b, a, "fr-1"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("fr-1: moved 50.8 mm (2.00\") forward"), "{text}");
    assert!(text.contains("in medium-forest \"copse\": rough x2 (000 §3.5-3.6)"), "{text}");
    assert!(text.contains("cost French system: 4.00\" of 8.00\""), "{text}");
    let out = vedette(&["move", b, a, "fr-1", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!((v["cost_in"].as_f64().unwrap() - 4.0).abs() < 1e-6);
    assert_eq!(v["charge"][0]["factor"], 2.0);
    // fr-2 crosses the hedge: 3" + 1"; fr-cav rides into the heavy wood: refused.
    let v: serde_json::Value =
        serde_json::from_slice(&vedette(&["move", b, a, "fr-2", "--json"]).stdout).unwrap();
    assert!((v["cost_in"].as_f64().unwrap() - 4.0).abs() < 1e-6);
    assert_eq!(v["crossings"][0]["feature"], "hedge");
    let out = vedette(&["move", b, a, "fr-cav"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("NOT ALLOWED: horse reaches heavy-forest \"big-wood\""), "{text}");
    // The picture: written atomically, with the path's parts.
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("move.svg");
    let out = vedette(&["move", b, a, "fr-2", "--svg", svg.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let svg = std::fs::read_to_string(svg).unwrap();
    assert!(
        svg.contains("astride hedge &quot;hedge&quot;") || svg.contains("astride hedge \"hedge\""),
        "no part"
    );
}
