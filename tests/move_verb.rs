//! `vedette move` (issue 16, movement geometry of 000 §3.1-3.4): scenes worked out by
//! hand, on a turned table and on a scanned one whose uncertainty makes a Hold a close
//! call.

mod common;
use common::{stderr, vedette};
use serde_json::json;
use vedette::commands::movement::assess;
use vedette_geometry::Table;

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
        let r = assess(&line(0.0, 0.0, deg, None), &line(101.6, 0.0, deg, None), "u", None).unwrap();
        assert!((r.distance_mm - 101.6).abs() < 1e-6, "{deg}: {}", r.distance_mm);
        assert!(r.hold && !r.advancing, "{deg}");
        assert_eq!(r.cost_factor, Some(1.0));
        // 0.1 mm more: no longer a Hold, and an Advance.
        let r = assess(&line(0.0, 0.0, deg, None), &line(101.7, 0.0, deg, None), "u", None).unwrap();
        assert!(!r.hold && r.advancing, "{deg}");
        // 60 mm straight left: sideways, Prussian x4 = 240 mm = 9.45": within 8" + 4"
        // and uses the charge bonus.
        let r = assess(&line(0.0, 0.0, deg, None), &line(0.0, 60.0, deg, None), "u", None).unwrap();
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
        let r =
            assess(&line(0.0, 0.0, 0.0, Some(0.3)), &line(ahead, 0.0, 0.0, Some(0.3)), "u", None).unwrap();
        assert_eq!(r.hold, hold, "{ahead}");
        assert_eq!(r.hold_call.certain, certain, "{ahead}: {:?}", r.hold_call);
        assert!((r.hold_call.margin_mm - (ahead - 101.6f64).abs()).abs() < 1e-6);
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
