//! Hand-built rule scenes for the close-call tests: a 6'x4' Republique 5.0 table whose
//! bases are given about its middle and turned as a whole by `deg`.

use serde_json::{Value, json};
use vedette::commands::calls::CallEntry;
use vedette_geometry::Table;

/// The point the scenes are turned about, table mm.
pub const MIDDLE: (f64, f64) = (900.0, 600.0);

/// Turns a point `deg` counter-clockwise about the table's middle.
pub fn turn(x: f64, y: f64, deg: f64) -> (f64, f64) {
    let (s, c) = deg.to_radians().sin_cos();
    let (dx, dy) = (x - MIDDLE.0, y - MIDDLE.1);
    (MIDDLE.0 + c * dx - s * dy, MIDDLE.1 + s * dx + c * dy)
}

/// A base `{x, y, heading, width, depth}` turned by `deg`, with `sigma_mm` when given.
pub fn base(x: f64, y: f64, heading: f64, w: f64, d: f64, deg: f64, sigma: Option<f64>) -> Value {
    let (x, y) = turn(x, y, deg);
    let mut b =
        json!({ "x": x, "y": y, "heading": (heading + deg).rem_euclid(360.0), "width": w, "depth": d });
    if let Some(s) = sigma {
        b["sigma_mm"] = json!(s);
        b["sigma_heading_deg"] = json!(0.0);
    }
    b
}

/// A Republique 5.0, medium-scale table of these units and terrain.
pub fn table(units: Vec<Value>, terrain: Vec<Value>) -> Table {
    let t = json!({
        "schema": "vedette/table/1", "rules": "republique5", "scale": "medium",
        "size": { "width": 1800.0, "depth": 1200.0 }, "units": units, "terrain": terrain,
    });
    Table::from_json_str(&t.to_string()).unwrap()
}

/// Asserts a call's margin (to `tol`) and certainty.
pub fn check(call: &CallEntry, margin: f64, tol: f64, certain: bool, what: &str) {
    assert!((call.margin_mm - margin).abs() <= tol, "{what}: margin {} mm, want {margin}", call.margin_mm);
    assert_eq!(call.certain, certain, "{what}: {call:?}");
    assert_eq!(call.nudge.is_some(), !certain, "{what}: a close call names its nudge: {call:?}");
}
