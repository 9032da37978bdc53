//! Small things players tripped on (issue 39 item 7): `bombard` and `bounce` take and
//! print inches (mm beside), and `measure` compares a pair only with the rule distances
//! that can apply to its kinds and terrain.

use crate::common;
use common::{sample, stderr, stdout, vedette};
use serde_json::Value;

fn run(args: &[&str]) -> (String, String, bool) {
    let o = vedette(args);
    (stdout(&o), stderr(&o), o.status.success())
}

#[test]
fn bounce_takes_a_distance_in_inches_or_mm_and_prints_both() {
    let t = sample("pro-patria-charge.json");
    let t = t.to_str().unwrap();
    // 6" is 152.4 mm: the same answer as --distance 152.4.
    let json = |d: &str| -> Value {
        let (out, err, ok) =
            run(&["bounce", t, "fr-art", "au-bn1", "--distance", d, "--gun-range", "900", "--json"]);
        assert!(ok, "{err}");
        serde_json::from_str(&out).unwrap()
    };
    let (inches, mm, cm) = (json("6in"), json("152.4"), json("15.24cm"));
    assert_eq!(inches, mm);
    assert_eq!(cm, mm);
    assert_eq!(
        inches["reach_in"],
        inches["reach_mm"].as_f64().map(|m| (m / 25.4 * 1e6).round() / 1e6).unwrap()
    );
    let (out, err, ok) = run(&["bounce", t, "fr-art", "au-bn1", "--distance", "6\"", "--gun-range", "36in"]);
    assert!(ok, "{err}");
    assert!(out.contains(" in (") && out.contains(" mm)"), "{out}");
    let (_, err, ok) = run(&["bounce", t, "fr-art", "au-bn1", "--distance", "6ft"]);
    assert!(!ok && err.contains("\"6ft\"") && err.contains("6in"), "{err}");
}

#[test]
fn bombard_says_its_zone_in_square_inches_and_its_depth_in_inches() {
    let t = sample("pro-patria-charge.json");
    let (out, err, ok) = run(&["bombard", t.to_str().unwrap(), "fr-art", "--at", "1300,620"]);
    assert!(ok, "{err}");
    // The zone is the battery's 40 mm frontage wide and 150 mm deep (004 §19.6, 28 mm
    // figures): 6000 mm² = 9.3 sq in, 5.91 in deep.
    assert!(out.contains("9.3 sq in (6000 mm²), 5.91 in (150.0 mm) deep"), "{out}");
}

/// The names of the rule distances `measure --json` compares `a` and `b` with.
fn threshold_names(table: &str, a: &str, b: &str) -> Vec<String> {
    let (out, err, ok) = run(&["measure", table, a, b, "--json"]);
    assert!(ok, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    v["thresholds"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|t| t["names"].as_array().unwrap().iter().map(|n| n.as_str().unwrap().to_string()))
        .collect()
}

#[test]
fn measure_compares_two_infantry_units_in_the_open_with_assault_distances_only() {
    // skirmish.json (large scale): fr-1 and au-1, enemy infantry 38.1 mm apart in the
    // open. The distances that can apply around 1 rule-inch: the 1½" all-out assault
    // depth and the French formation-change limit (57.15 mm); no stream bank, obstacle or
    // spotting depth (no such terrain near them), no move length.
    let t = sample("skirmish.json");
    let names = threshold_names(t.to_str().unwrap(), "fr-1", "au-1");
    assert_eq!(names, vec!["all-out-assault (000 §5.1)", "formation-change-french (000 §3.2)"], "{names:?}");
    assert!(
        names
            .iter()
            .all(|n| !n.contains("stream-bank") && !n.contains("spotting") && !n.contains("obstacle"))
    );
}
