//! Close calls (issue 17, item 4): every threshold verdict of `report`, `measure` and
//! `los` carries its margin, and on a table whose bases carry `sigma_mm` it is "too
//! close to call" exactly when the deciding geometry lies within two combined sigmas of
//! the threshold, on either side. Each scene is worked out by hand below, and turned to
//! several headings about the table's middle (a turned table has the same margins).
//!
//! Sigmas are 0.3 mm on every base (no heading sigma), so two bases give a combined
//! sigma of √(0.3² + 0.3²) = 0.4243 mm and two sigmas 0.8485 mm: offsets of 0.5 mm from
//! a threshold are too close to call, offsets of 1.2 mm are certain.

mod common;
use serde_json::{Value, json};
use vedette::commands::calls::CallEntry;
use vedette::commands::{los, measure, report};
use vedette_geometry::Table;

const SIGMA: f64 = 0.3;
const CLOSE: f64 = 0.5;
const CLEAR: f64 = 1.2;
const HEADINGS: [f64; 4] = [0.0, 37.0, 90.0, 211.0];
const MIDDLE: (f64, f64) = (900.0, 600.0);

/// Turns a point `deg` counter-clockwise about the table's middle.
fn turn(x: f64, y: f64, deg: f64) -> (f64, f64) {
    let (s, c) = deg.to_radians().sin_cos();
    let (dx, dy) = (x - MIDDLE.0, y - MIDDLE.1);
    (MIDDLE.0 + c * dx - s * dy, MIDDLE.1 + s * dx + c * dy)
}

/// A base `{x, y, heading, width, depth}` turned by `deg`, with `sigma_mm` when given.
fn base(x: f64, y: f64, heading: f64, w: f64, d: f64, deg: f64, sigma: Option<f64>) -> Value {
    let (x, y) = turn(x, y, deg);
    let mut b =
        json!({ "x": x, "y": y, "heading": (heading + deg).rem_euclid(360.0), "width": w, "depth": d });
    if let Some(s) = sigma {
        b["sigma_mm"] = json!(s);
        b["sigma_heading_deg"] = json!(0.0);
    }
    b
}

fn table(units: Vec<Value>, terrain: Vec<Value>) -> Table {
    let t = json!({
        "schema": "vedette/table/1", "rules": "republique5", "scale": "medium",
        "size": { "width": 1800.0, "depth": 1200.0 }, "units": units, "terrain": terrain,
    });
    Table::from_json_str(&t.to_string()).unwrap()
}

fn infantry(id: &str, side: &str, b: Value) -> Value {
    json!({ "id": id, "side": side, "kind": "infantry", "formation": "line", "bases": [b] })
}

/// Asserts a call's margin (to `tol`) and certainty.
fn check(call: &CallEntry, margin: f64, tol: f64, certain: bool, what: &str) {
    assert!((call.margin_mm - margin).abs() <= tol, "{what}: margin {} mm, want {margin}", call.margin_mm);
    assert_eq!(call.certain, certain, "{what}: {call:?}");
    assert_eq!(call.nudge.is_some(), !certain, "{what}: a close call names its nudge: {call:?}");
}

/// Two bases face to face, the defender's front edge `gap` mm ahead of the attacker's.
fn face_to_face(gap: f64, deg: f64, sigma: Option<f64>) -> Table {
    table(
        vec![
            infantry("a", "one", base(900.0, 500.0, 90.0, 40.0, 20.0, deg, sigma)),
            infantry("d", "two", base(900.0, 510.0 + gap + 10.0, 270.0, 40.0, 20.0, deg, sigma)),
        ],
        vec![],
    )
}

#[test]
fn assault_range_is_too_close_to_call_within_two_sigma_of_one_and_a_half_inches() {
    // The all-out limit is 1½" = 38.1 mm (000 §5.1, medium scale). The attacker's face is
    // its one base; the distance runs straight ahead.
    for deg in HEADINGS {
        for (offset, range, certain) in [
            (-CLOSE, "all-out", false),
            (CLOSE, "general", false),
            (-CLEAR, "all-out", true),
            (CLEAR, "general", true),
        ] {
            let t = face_to_face(38.1 + offset, deg, Some(SIGMA));
            let r = report::build(&t).unwrap();
            let e = r.assaults.entries.iter().find(|e| e.attacker == "a" && e.defender == "d").unwrap();
            let what = format!("offset {offset} at {deg}°");
            assert_eq!(serde_json::to_value(e.range).unwrap(), range, "{what}");
            let call = e.range_call.as_ref().unwrap();
            assert_eq!(call.limit_mm, Some(38.1), "{what}");
            check(call, offset.abs(), 1e-6, certain, &what);
            assert!((call.sigma_mm.unwrap() - 0.18f64.sqrt()).abs() < 1e-6, "{what}");
            if let Some(n) = &call.nudge {
                // Equal sigmas: the defender (the later party) is nudged, along the
                // attacker's heading (away when inside, towards when outside).
                assert_eq!(n.base, "d#0", "{what}");
                assert!((n.by_mm - CLOSE).abs() < 1e-6);
                let away = (90.0 + deg).to_radians();
                let sign = if offset < 0.0 { 1.0 } else { -1.0 };
                let t = n.towards.unwrap();
                assert!(
                    (t[0] - sign * away.cos()).abs() < 1e-6 && (t[1] - sign * away.sin()).abs() < 1e-6,
                    "{what}"
                );
            }
            // The text report marks exactly the close calls.
            let text = report::render_text(&r);
            assert_eq!(text.contains("TOO CLOSE TO CALL"), !certain, "{what}:\n{text}");
        }
    }
}

#[test]
fn a_typed_table_is_exact_whatever_the_margin() {
    let t = face_to_face(38.1 - 0.001, 0.0, None);
    let r = report::build(&t).unwrap();
    let call = r.assaults.entries[0].range_call.as_ref().unwrap();
    assert_eq!(call.sigma_mm, None);
    check(call, 0.001, 1e-6, true, "typed");
}

/// A heavy battery (25 x 40 base, normal frontage 50 mm) at the middle facing +y (turned
/// by `deg`), and one infantry base ahead: its centre `ahead` mm beyond the frontage
/// and `right` mm to the right of the battery's centreline.
fn battery_scene(ahead: f64, right: f64, heading: f64, deg: f64) -> Table {
    let battery = json!({ "id": "gun", "side": "one", "kind": "artillery", "formation": "unlimbered",
        "weight": "heavy", "bases": [base(900.0, 600.0, 90.0, 25.0, 40.0, deg, Some(SIGMA))] });
    let target =
        infantry("t", "two", base(900.0 + right, 620.0 + ahead, heading, 40.0, 20.0, deg, Some(SIGMA)));
    table(vec![battery, target], vec![])
}

#[test]
fn artillery_range_close_to_a_bracket_edge() {
    // Front edge y = 620; the target's near edge `range` ahead: its centre 10 mm further.
    // The 2"/4" bracket edge is 101.6 mm ("up to and including").
    for deg in HEADINGS {
        for (offset, bracket, certain) in
            [(-CLOSE, 2, false), (CLOSE, 3, false), (-CLEAR, 2, true), (CLEAR, 3, true)]
        {
            let t = battery_scene(101.6 + offset + 10.0, 0.0, 270.0, deg);
            let r = report::build(&t).unwrap();
            let b = &r.artillery.as_ref().unwrap()[0];
            let what = format!("offset {offset} at {deg}°");
            let target =
                b.targets.iter().find(|x| x.unit == "t").unwrap_or_else(|| panic!("{what}: no target"));
            assert_eq!(target.bracket, bracket, "{what}");
            let call = target.range_call.as_ref().unwrap();
            assert_eq!(call.limit_mm, Some(101.6), "{what}");
            check(call, offset.abs(), 1e-6, certain, &what);
        }
    }
}

#[test]
fn half_a_base_in_the_arc_close_to_the_arc_side() {
    // Normal frontage: double the 25 mm base width, x from -25 to +25 of the centreline
    // at y = 620. The right side leaves (25, 0) at 30° right of ahead: direction
    // (sin 30°, cos 30°). A target 150 mm along that side, its centre moved `inside`
    // mm towards the arc's inside (the side's left normal), facing the battery along
    // the side: half its area is inside exactly when its centre is on the side.
    let (s, c) = 30f64.to_radians().sin_cos();
    for deg in HEADINGS {
        for (inside, half, certain) in
            [(CLOSE, true, false), (-CLOSE, false, false), (CLEAR, true, true), (-CLEAR, false, true)]
        {
            let (along_x, along_y) = (25.0 + 150.0 * s, 150.0 * c);
            // Left normal of (s, c) is (-c, s).
            let (x, y) = (along_x - c * inside, along_y + s * inside);
            let heading = 270.0 - 30.0;
            let t = battery_scene(y, x, heading, deg);
            let r = report::build(&t).unwrap();
            let b = &r.artillery.as_ref().unwrap()[0];
            let what = format!("inside {inside} at {deg}°");
            assert_eq!(serde_json::to_value(b.frontage).unwrap(), "normal", "{what}");
            let target =
                b.targets.iter().find(|x| x.unit == "t").unwrap_or_else(|| panic!("{what}: no target"));
            assert_eq!(target.half_base_in_arc, half, "{what}: fraction {}", target.arc_fraction);
            check(target.arc_call.as_ref().unwrap(), inside.abs(), 1e-6, certain, &what);
        }
    }
}

#[test]
fn measure_gives_the_margin_to_the_nearest_rule_distances() {
    // 38.1 - 0.5 mm: within 1½" (all-out, 000 §5.1) by 0.5 mm, too close to call.
    let dir = tempfile::tempdir().unwrap();
    for (offset, certain) in [(-CLOSE, false), (CLOSE, false), (-CLEAR, true), (CLEAR, true)] {
        let t = face_to_face(38.1 + offset, 37.0, Some(SIGMA));
        let m = measure::measure(&t, "a", "d").unwrap();
        assert!((m.sigma_mm.unwrap() - 0.18f64.sqrt()).abs() < 1e-6);
        let th = m.thresholds.iter().find(|x| (x.limit_mm - 38.1).abs() < 1e-6).unwrap();
        assert_eq!(th.within, offset < 0.0);
        assert!(th.names.iter().any(|n| n.starts_with("all-out-assault (000 §5.1)")), "{:?}", th.names);
        check(&th.call, offset.abs(), 1e-6, certain, &format!("measure {offset}"));
        // The text output of the verb marks it.
        let path = dir.path().join("t.json");
        std::fs::write(&path, t.to_json_string()).unwrap();
        let mut out = Vec::new();
        measure::run(&measure::Args { table: path, a: "a".into(), b: "d".into(), json: false }, &mut out)
            .unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(text.contains("TOO CLOSE TO CALL"), !certain, "{text}");
    }
}

/// Spotter base (40 x 20) facing +y with its front edge x 880..920 at y = 410; target
/// base x 880..920, y 690..710; a heavy forest across the line of sight from x = 0 to
/// `wood_right`, y 500..600.
fn sight_scene(wood_right: f64, deg: f64) -> Table {
    let wood: Vec<Value> = [(0.0, 500.0), (wood_right, 500.0), (wood_right, 600.0), (0.0, 600.0)]
        .iter()
        .map(|&(x, y)| {
            let (x, y) = turn(x, y, deg);
            json!([x, y])
        })
        .collect();
    table(
        vec![
            infantry("s", "one", base(900.0, 400.0, 90.0, 40.0, 20.0, deg, Some(SIGMA))),
            infantry("t", "two", base(900.0, 700.0, 270.0, 40.0, 20.0, deg, Some(SIGMA))),
        ],
        vec![json!({ "id": "wood", "kind": "heavy-forest", "level": 0, "outline": wood })],
    )
}

#[test]
fn sight_past_a_wood_corner() {
    // The wood ends `gap` mm short of the bases' right edges (x = 920): a strip `gap`
    // wide is clear, and both ends shrunk by `gap` close it: the margin of "visible" is
    // the gap. A wood reaching `gap` past x = 920 hides the target until both ends grow
    // by `gap`. Resolution of the bisection: 0.005 mm. Sigmas: 0.3 mm each, two sigmas
    // 0.6 mm (the largest base sigma).
    for deg in [0.0, 37.0] {
        for (gap, visible, certain) in
            [(CLOSE, true, false), (-CLOSE, false, false), (CLEAR, true, true), (-CLEAR, false, true)]
        {
            let t = sight_scene(920.0 - gap, deg);
            let r = los::line_of_sight(&t, "s", "t").unwrap();
            let what = format!("gap {gap} at {deg}°");
            assert_eq!(r.visible, visible, "{what}");
            check(&r.visible_call, gap.abs(), 0.01, certain, &what);
            assert_eq!(
                los::render_text(&r).contains("TOO CLOSE TO CALL"),
                !certain || !r.full_base_call.certain,
                "{what}"
            );
        }
    }
}

#[test]
fn skirmisher_spacing_and_parent_reach() {
    // Two markers of one side (25 x 10 mm) side by side, `gap` mm between their edges:
    // skirmish order at 3" = 76.2 mm or more. Their parent line stands behind, its front
    // edge 76.2 + offset mm from the first marker's rear edge: within reach at 3".
    for deg in HEADINGS {
        for (offset, certain) in [(-CLOSE, false), (CLOSE, false), (-CLEAR, true), (CLEAR, true)] {
            let gap = 76.2 + offset;
            let parent = infantry(
                "p",
                "one",
                base(900.0, 500.0 - 5.0 - (76.2 + offset) - 10.0, 90.0, 40.0, 20.0, deg, Some(SIGMA)),
            );
            let markers = json!({ "id": "sk", "side": "one", "kind": "skirmisher", "parent": "p", "bases": [
                base(900.0, 500.0, 90.0, 25.0, 10.0, deg, Some(SIGMA)),
                base(900.0 + 25.0 + gap, 500.0, 90.0, 25.0, 10.0, deg, Some(SIGMA)),
            ]});
            let t = table(vec![parent, markers], vec![]);
            let r = report::build(&t).unwrap();
            let m = &r.skirmishers[0];
            let what = format!("offset {offset} at {deg}°");
            assert_eq!(
                serde_json::to_value(m.spacing).unwrap(),
                if offset < 0.0 { "packed" } else { "skirmish-order" },
                "{what}"
            );
            let spacing = m.spacing_call.as_ref().unwrap();
            assert_eq!(spacing.limit_mm, Some(76.2));
            check(spacing, offset.abs(), 1e-6, certain, &format!("spacing {what}"));
            assert_eq!(m.near_parent, offset <= 0.0, "{what}");
            check(m.parent_call.as_ref().unwrap(), offset.abs(), 1e-6, certain, &format!("parent {what}"));
        }
    }
}

#[test]
fn unlimber_limit() {
    // French: 1½" = 38.1 mm (000 §3.6). An enemy base ahead of the battery's front edge
    // (y = 620) by 38.1 + offset.
    for deg in HEADINGS {
        for (offset, too_close, certain) in
            [(-CLOSE, true, false), (CLOSE, false, false), (-CLEAR, true, true), (CLEAR, false, true)]
        {
            let mut t = battery_scene(38.1 + offset + 10.0, 0.0, 270.0, deg);
            t.sides.insert("one".into(), serde_json::from_value(json!({ "system": "french" })).unwrap());
            let r = report::build(&t).unwrap();
            let u = &r.artillery.as_ref().unwrap()[0].unlimber;
            let what = format!("offset {offset} at {deg}°");
            assert_eq!(u.too_close, Some(too_close), "{what}");
            let call = u.call.as_ref().unwrap();
            assert_eq!(call.limit_mm, Some(38.1));
            check(call, offset.abs(), 1e-6, certain, &what);
        }
    }
}

mod noise {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(common::proptest_config(64, 1717))]

        /// Away from the threshold (2 mm or more), scan-sized noise (0.1 mm, 0.2°) on both
        /// bases changes neither the verdict nor its certainty, at any heading.
        #[test]
        fn far_from_the_threshold_noise_keeps_the_verdict_certain(
            offset in prop_oneof![-8.0..-2.0f64, 2.0..8.0f64],
            deg in 0.0..360.0f64,
            n in proptest::array::uniform6(-1.0..1.0f64),
        ) {
            let t = face_to_face(38.1 + offset, deg, Some(SIGMA));
            let mut v: Value = serde_json::from_str(&t.to_json_string()).unwrap();
            for (i, unit) in v["units"].as_array_mut().unwrap().iter_mut().enumerate() {
                let b = &mut unit["bases"][0];
                b["x"] = json!(b["x"].as_f64().unwrap() + 0.1 * n[3 * i]);
                b["y"] = json!(b["y"].as_f64().unwrap() + 0.1 * n[3 * i + 1]);
                b["heading"] = json!(b["heading"].as_f64().unwrap() + 0.2 * n[3 * i + 2]);
            }
            let noisy = Table::from_json_str(&v.to_string()).unwrap();
            let r = report::build(&noisy).unwrap();
            let e = r.assaults.entries.iter().find(|e| e.attacker == "a" && e.defender == "d").unwrap();
            prop_assert_eq!(serde_json::to_value(e.range).unwrap(), if offset < 0.0 { "all-out" } else { "general" });
            let call = e.range_call.as_ref().unwrap();
            prop_assert!(call.certain, "{:?}", call);
            prop_assert!((call.margin_mm - offset.abs()).abs() < 0.5, "{:?}", call);
        }
    }
}
