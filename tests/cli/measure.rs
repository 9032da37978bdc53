//! `vedette measure` end to end: hand-worked answers on the samples, and a clear error
//! with a non-zero exit for each bad input.

use crate::common;
use common::{sample, stderr, stdout, vedette};
use serde_json::Value;

fn measure_json(table: &str, a: &str, b: &str) -> Value {
    let path = sample(table);
    let out = vedette(&["measure", path.to_str().unwrap(), a, b, "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    serde_json::from_str(&stdout(&out)).unwrap()
}

#[test]
fn one_and_a_half_inches_at_large_scale_is_one_rule_inch() {
    // skirmish.json: fr-1's front edge is at y = 315, au-1's at y = 353.1, and the lines
    // overlap in x, so the gap is 38.1 mm = 1.5" straight across.
    let m = measure_json("skirmish.json", "fr-1", "au-1");
    assert_eq!(m["mm"], 38.1);
    assert_eq!(m["in"], 1.5);
    assert_eq!(m["rule_in"], 1.0);
    assert_eq!(m["from"][1], 315.0);
    assert_eq!(m["to"][1], 353.1);
    let text = stdout(&vedette(&["measure", sample("skirmish.json").to_str().unwrap(), "fr-1", "au-1"]));
    assert!(text.contains("38.1 mm = 1.500 in"), "{text}");
    assert!(text.contains("1.000 rule-inch "), "{text}");
}

#[test]
fn single_bases_by_index() {
    // fr-1 faces +y, so its right is +x: #0 spans x 440..480, #2 spans 520..560.
    // au-1 faces -y, so its right is -x and #0 is its east end: x 540..580.
    // fr-1#2 and au-1#0 overlap in x over 540..560: a straight gap of 38.1 mm again.
    let m = measure_json("skirmish.json", "fr-1#2", "au-1#0");
    assert_eq!(m["mm"], 38.1);
    assert_eq!(m["from_base"], "fr-1#2");
    assert_eq!(m["to_base"], "au-1#0");
    // fr-1#0 (x 440..480) against au-1#0 (540..580): corner to corner, dx 60, dy 38.1.
    let m = measure_json("skirmish.json", "fr-1#0", "au-1#0");
    let expected = (60.0f64 * 60.0 + 38.1 * 38.1).sqrt();
    assert!((m["mm"].as_f64().unwrap() - expected).abs() < 1e-6, "{m}");
}

#[test]
fn brigade_attack_ranges() {
    // fr-1-2's front edge is at 536.5, au-3's at 600: 63.5 mm = 2.5" (general assault
    // range); fr-1-3 at 559.5 and au-2 at 590: 30.5 mm = 1.2008" (all-out range).
    let m = measure_json("brigade-attack.json", "fr-1-2", "au-3");
    assert_eq!(m["rule_in"], 2.5);
    let m = measure_json("brigade-attack.json", "fr-1-3", "au-2");
    assert_eq!(m["mm"], 30.5);
    assert!((m["rule_in"].as_f64().unwrap() - 30.5 / 25.4).abs() < 1e-6);
}

#[test]
fn grand_battle_agrees_with_the_library() {
    let t = vedette_geometry::Table::load(sample("grand-battle.json")).unwrap();
    let (a, b) = (&t.units[0], &t.units[t.units.len() - 1]);
    let want = a.closest_to(b).unwrap().closest.distance_mm;
    let m = measure_json("grand-battle.json", &a.id, &b.id);
    assert!((m["mm"].as_f64().unwrap() - want).abs() < 1e-6);
}

fn fails_with(args: &[&str], needles: &[&str]) {
    let out = vedette(args);
    assert!(!out.status.success(), "expected failure for {args:?}");
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    for n in needles {
        assert!(err.contains(n), "stderr lacks {n:?}: {err}");
    }
    assert!(stdout(&out).is_empty());
}

#[test]
fn missing_file() {
    fails_with(
        &["measure", "no/such/table.json", "a", "b"],
        &["cannot read table file 'no/such/table.json'", "No such file"],
    );
}

#[test]
fn malformed_json() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("bad.json");
    std::fs::write(
        &p,
        "{\n  \"schema\": \"vedette/table/1\",\n  \"rules\": \"republique5\"\n  \"scale\": 1\n}",
    )
    .unwrap();
    fails_with(&["measure", p.to_str().unwrap(), "a", "b"], &["is not valid JSON", "line 4"]);
}

#[test]
fn unknown_unit_suggests_close_ids() {
    fails_with(
        &["measure", sample("skirmish.json").to_str().unwrap(), "fr-1", "au-2"],
        &["no unit \"au-2\"", "did you mean", "au-1"],
    );
}

#[test]
fn bad_base_index() {
    fails_with(
        &["measure", sample("skirmish.json").to_str().unwrap(), "fr-1#3", "au-1"],
        &["unit \"fr-1\" has 3 base(s); there is no base #3"],
    );
    fails_with(
        &["measure", sample("skirmish.json").to_str().unwrap(), "fr-1#x", "au-1"],
        &["\"fr-1#x\" is not a unit id or unit#index"],
    );
}

#[test]
fn measuring_a_thing_against_itself() {
    fails_with(&["measure", sample("skirmish.json").to_str().unwrap(), "fr-1", "fr-1"], &["the same thing"]);
}

#[test]
fn pro_patria_has_no_rule_inches() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("pp.json");
    std::fs::write(
        &p,
        r#"{"schema":"vedette/table/1","rules":"pro-patria","scale":"15mm","units":[
        {"id":"a","side":"x","kind":"infantry","formation":"line","bases":[{"x":0,"y":0,"heading":90,"width":40,"depth":15}]},
        {"id":"b","side":"y","kind":"infantry","formation":"line","bases":[{"x":0,"y":40,"heading":270,"width":40,"depth":15}]}]}"#,
    )
    .unwrap();
    let out = vedette(&["measure", p.to_str().unwrap(), "a", "b", "--json"]);
    let m: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(m["mm"], 25.0);
    assert_eq!(m["rule_in"], Value::Null);
    let text = stdout(&vedette(&["measure", p.to_str().unwrap(), "a", "b"]));
    assert!(text.contains("compare 25.0 mm directly"), "{text}");
}
