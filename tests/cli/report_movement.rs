//! The report's movement findings end to end (issue 40): Pro Patria forced marches and the
//! enemies a charge would catch (004 §17.4.5, §17.2.3), Republic road columns (003 303),
//! in the text, the JSON and the plan, each with the one sentence they share.

use crate::common;
use common::{stderr, vedette};
use serde_json::json;

fn base(x: f64, y: f64, heading: f64, w: f64, d: f64) -> serde_json::Value {
    json!({ "x": x, "y": y, "heading": heading, "width": w, "depth": d })
}

/// Writes `table` to a temporary directory and runs `vedette report` on it, as text and
/// as JSON, and with a plan; returns the text, the JSON and the plan.
fn report(table: serde_json::Value) -> (String, serde_json::Value, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.json");
    std::fs::write(&path, table.to_string()).unwrap();
    let p = path.to_str().unwrap();
    let plan = dir.path().join("plan.svg");
    let out = vedette(&["report", p, "--plan", plan.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    let out = vedette(&["report", p, "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    (text, serde_json::from_slice(&out.stdout).unwrap(), std::fs::read_to_string(plan).unwrap())
}

#[test]
fn pro_patria_forced_marches_and_catches_are_reported() {
    // An Austrian line's near edge at y = 600. A French cavalry stand (40 x 40) faces it
    // 120 mm away: within 150 mm, it would catch it charging. Two French march columns
    // (30 x 20 stands) face it 250 mm and 400 mm away (x far enough from the line's
    // ends not to matter): the first may not force march (within 300 mm), the second may.
    let au = json!({ "id": "au-1", "side": "au", "kind": "infantry", "formation": "line",
        "bases": [base(300.0, 610.0, 270.0, 60.0, 20.0), base(360.0, 610.0, 270.0, 60.0, 20.0)] });
    let cav = json!({ "id": "fr-hus", "side": "fr", "kind": "cavalry", "formation": "line",
        "bases": [base(330.0, 600.0 - 120.0 - 20.0, 90.0, 40.0, 40.0)] });
    let column = |id: &str, gap: f64| {
        json!({ "id": id, "side": "fr", "kind": "infantry", "formation": "march-column",
            "bases": [base(330.0, 600.0 - gap - 10.0, 90.0, 30.0, 20.0), base(330.0, 600.0 - gap - 30.0, 90.0, 30.0, 20.0)] })
    };
    let mut near = column("fr-col1", 250.0);
    let mut far = column("fr-col2", 400.0);
    // Move the columns beside the cavalry so that it hides neither.
    for (c, dx) in [(&mut near, -200.0), (&mut far, 200.0)] {
        for b in c["bases"].as_array_mut().unwrap() {
            b["x"] = json!(b["x"].as_f64().unwrap() + dx);
        }
    }
    let t = json!({ "schema": "vedette/table/1", "rules": "pro-patria", "scale": "28mm",
        "units": [au, cav, near, far] });
    let (text, v, plan) = report(t);
    let fm = &v["pro_patria"]["forced_march"];
    assert_eq!(fm.as_array().map(Vec::len), Some(2), "{v}");
    assert_eq!((fm[0]["unit"].as_str(), fm[0]["allowed"].as_bool()), (Some("fr-col1"), Some(false)));
    assert_eq!((fm[1]["unit"].as_str(), fm[1]["allowed"].as_bool()), (Some("fr-col2"), Some(true)));
    let words = fm[0]["words"].as_str().unwrap();
    assert!(
        words.starts_with("fr-col1 may NOT force march: nearest visible formed enemy au-1 at"),
        "{words}"
    );
    assert!(text.contains(words), "{text}");
    assert!(plan.contains(words), "the plan says the same");
    let charges = v["pro_patria"]["charges"].as_array().unwrap();
    let hus: Vec<_> = charges.iter().filter(|c| c["unit"] == "fr-hus").collect();
    assert_eq!(hus.len(), 1, "{charges:?}");
    assert_eq!(hus[0]["target"], "au-1");
    assert!((hus[0]["distance_mm"].as_f64().unwrap() - 120.0).abs() < 1e-6);
    let words = hus[0]["words"].as_str().unwrap();
    assert_eq!(
        words,
        "fr-hus would catch au-1 charging now without a formation change: 120.0 mm, within 150 mm (004 §17.2.3)"
    );
    assert!(text.contains(words) && plan.contains(words));
}

#[test]
fn republic_road_columns_are_reported() {
    // A road along x = 500; one road column on it, one 40 mm beside it.
    let column = |id: &str, x: f64| {
        json!({ "id": id, "side": "us", "kind": "infantry", "formation": "road-column",
            "bases": [base(x, 300.0, 90.0, 30.0, 20.0), base(x, 260.0, 90.0, 30.0, 20.0)] })
    };
    let t = json!({ "schema": "vedette/table/1", "rules": "republic", "scale": "medium",
        "units": [column("us-1", 500.0), column("us-2", 540.0)],
        "terrain": [ { "id": "pike", "kind": "road", "path": [[500.0, 0.0], [500.0, 1000.0]] } ] });
    let (text, v, plan) = report(t);
    let r = &v["republic"]["road_columns"];
    assert_eq!(r[0]["road"], "pike");
    assert_eq!(r[1]["road"], serde_json::Value::Null);
    assert_eq!(r[0]["words"], "us-1 road column lined up on road \"pike\": moves double on it (003 303)");
    assert!(text.contains("us-2 road column not lined up on a road: no road movement (003 303)"), "{text}");
    assert!(
        plan.contains("us-1 road column lined up on road &quot;pike&quot;")
            || plan.contains("us-1 road column lined up on road \"pike\"")
    );
}
