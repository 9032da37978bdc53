//! `vedette report` end to end on the samples (issue 5): the assaults, command and
//! skirmisher findings a player would agree with, for each rule set. Each expectation
//! is worked out from the sample's coordinates in the comment above it.

use crate::common;
use common::{sample, stderr, stdout, vedette};
use serde_json::Value;

fn report(name: &str) -> Value {
    let out = vedette(&["report", sample(name).to_str().unwrap(), "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    serde_json::from_str(&stdout(&out)).unwrap()
}

fn entry<'a>(r: &'a Value, attacker: &str, defender: &str) -> &'a Value {
    r["assaults"]["entries"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["attacker"] == attacker && e["defender"] == defender)
        .unwrap_or_else(|| panic!("no assault {attacker} -> {defender}"))
}

fn pairs(r: &Value) -> Vec<(String, String)> {
    r["assaults"]["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["attacker"].as_str().unwrap().to_string(), e["defender"].as_str().unwrap().to_string()))
        .collect()
}

#[test]
fn skirmish_lines_one_and_a_half_inches_apart_at_large_scale_are_all_out() {
    // fr-1's front edge y = 315, au-1's y = 353.1: 38.1 mm = 1.0 rule inch at large scale,
    // inside the 1.5 rule-inch all-out zone, straight ahead across all three bases.
    let r = report("skirmish.json");
    assert_eq!(pairs(&r), vec![("fr-1".into(), "au-1".into()), ("au-1".into(), "fr-1".into())]);
    let e = entry(&r, "fr-1", "au-1");
    assert_eq!(e["range"], "all-out");
    assert_eq!(e["aspect"], "front");
    assert_eq!(e["distance_in"], 1.0);
    assert_eq!(e["contact_face"], serde_json::json!(["fr-1#0", "fr-1#1", "fr-1#2"]));
    assert_eq!((e["attacker_bases"].as_u64(), e["defender_bases"].as_u64()), (Some(3), Some(3)));
    // fr-sk is 62 mm (2.44 rule inches) from fr-2 and alone: legal, in skirmish order.
    let sk = &r["skirmishers"][0];
    assert_eq!(sk["marker"], "fr-sk#0");
    assert_eq!(sk["spacing"], "skirmish-order");
    assert_eq!(sk["legal"], true);
}

#[test]
fn brigade_attack_assaults() {
    // Fronts: fr-1-2 y = 536.5 (x 700..820), fr-1-3 y = 559.5 (x 905..995); au-3 y = 600
    // (x 580..700), au-2 y = 590 (x 815..905). fr-1-3 -> au-2: 30.5 mm = 1.20", all-out.
    // fr-1-2 -> au-2: 53.5 mm = 2.11" through its right base (x 790..820 overlaps
    // 815..820); -> au-3: 63.5 mm = 2.5" only through the 5° flare of its left base, a
    // smaller frontage: au-2 is its primary defender, au-3 supporting. fr-1-1's column
    // front (y = 510) is 3.54" from au-3: out of range. au-4 stands behind au-3: blocked.
    let r = report("brigade-attack.json");
    let mut p = pairs(&r);
    p.sort();
    // The battery au-art-1 (x 987.5..1012.5, front edge y = 610 facing -y) and fr-1-3's
    // right front base #2 (x 965..995, front y = 559.5) are 50.5 mm = 1.99" apart:
    // fr-1-3#2's zone at that depth reaches x = 995 + 50.5 tan 5° = 999.4, over the
    // battery's 987.5; the battery's zone reaches back to x 983.1, over 965..995. Both
    // general. The battery counts as an attacker because au-2 (infantry, same side) is
    // in range of fr-1-3 too (000 §5.1: solo artillery does not trigger an assault).
    let mut want: Vec<(String, String)> = [
        ("fr-1-2", "au-3"),
        ("fr-1-2", "au-2"),
        ("fr-1-3", "au-2"),
        ("fr-1-3", "au-art-1"),
        ("au-3", "fr-1-2"),
        ("au-2", "fr-1-2"),
        ("au-2", "fr-1-3"),
        ("au-art-1", "fr-1-3"),
    ]
    .iter()
    .map(|(a, b)| (a.to_string(), b.to_string()))
    .collect();
    want.sort();
    assert_eq!(p, want);
    // fr-1-3's primary defender is the one it meets over the greater frontage. A line of
    // advance leaving base #0's edge (x 905..935) at u ∈ [-1, 1] from its middle stands at
    // x = 920 + u·(15 + D tan 5°) at depth D. au-2 (x <= 905) fills depths 30.5..70.5 (its
    // two ranks), so lines with 920 + u·(15 + 70.5 tan 5°) <= 905, u <= -0.7086, meet it
    // (on its front or its right side): (1 - 0.7086)/2 · 30 = 4.37 mm of edge. From base
    // #2 (x 965..995) lines reach the battery (x >= 987.5, depths 50.5..90.5, cut by the
    // 3" zone at 76.2) when 980 + u·(15 + 76.2 tan 5°) >= 987.5, u >= 0.3461:
    // (1 - 0.3461)/2 · 30 = 9.81 mm. So au-art-1 is primary (general) and au-2 supporting
    // (all-out).
    let e = entry(&r, "fr-1-3", "au-2");
    assert_eq!(
        (e["range"].as_str(), e["role"].as_str(), e["aspect"].as_str()),
        (Some("all-out"), Some("supporting"), Some("front"))
    );
    assert!((e["distance_in"].as_f64().unwrap() - 30.5 / 25.4).abs() < 1e-6);
    assert!((e["contact_frontage_mm"].as_f64().unwrap() - 4.37).abs() < 0.01, "{e}");
    let e = entry(&r, "fr-1-3", "au-art-1");
    assert_eq!((e["range"].as_str(), e["role"].as_str()), (Some("general"), Some("primary")));
    assert!((e["contact_frontage_mm"].as_f64().unwrap() - 9.81).abs() < 0.01, "{e}");
    let e = entry(&r, "fr-1-2", "au-2");
    assert_eq!((e["range"].as_str(), e["role"].as_str()), (Some("general"), Some("primary")));
    assert_eq!(e["contact_face"], serde_json::json!(["fr-1-2#3"]));
    // "Mixed" is judged per primary defender: au-2 is primary only for fr-1-2 (general);
    // fr-1-3 meets it all-out but as a supporting defender of its assault on the
    // battery, so au-2's own assault is not mixed.
    assert_eq!(e["mixed"], false);
    let e = entry(&r, "fr-1-2", "au-3");
    assert_eq!((e["range"].as_str(), e["role"].as_str()), (Some("general"), Some("supporting")));
    // Supporting au-3 brings only the one base fr-1-2's zone reaches.
    assert_eq!(e["defender_bases"], 1);
    // The skirmish markers of fr-1-2 are 80 mm (3.15") apart: skirmish order.
    assert!(r["skirmishers"].as_array().unwrap().iter().all(|m| m["spacing"] == "skirmish-order"));
}

#[test]
fn classic_facing_arcs_primary_and_incidental() {
    // A's front edge (x = 460) is 20 mm from Y's left side (x = 480): primary. A reaches
    // past Y's flank line (Y faces -y, rear edge y = 410; A spans y 380..440), but Y is in
    // the village (heavy buildings): classic units in buildings have no flank (001 §4.3).
    // Z's front (y = 340) is 40 mm below A (y = 380): incidental, half of 4 bases = 2.
    // C's front (y = 440) is 20 mm behind square S (rear y = 420): primary, and squares
    // have no rear.
    let r = report("classic-assault.json");
    let e = entry(&r, "A", "Y");
    assert_eq!((e["range"].as_str(), e["aspect"].as_str()), (Some("primary"), Some("front")));
    assert_eq!(e["aspect_exception"], "buildings-have-no-flank");
    let z = entry(&r, "Z", "A");
    assert_eq!(z["range"], "incidental");
    assert_eq!(z["attacker_bases"], 2);
    assert!((z["distance_in"].as_f64().unwrap() - 40.0 / 25.4).abs() < 1e-6);
    let c = entry(&r, "C", "S");
    assert_eq!((c["range"].as_str(), c["aspect"].as_str()), (Some("primary"), Some("front")));
    assert_eq!(c["aspect_exception"], "square-has-no-flank-or-rear");
    // The classic seeds hold no skirmisher chapter.
    assert_eq!(r["skirmishers"], serde_json::json!([]));
}

#[test]
fn republic_overlap_and_individual_bases() {
    // fr-1 (x 400..520) and au-1 (x 430..490), 1" apart: 30 mm over on each side, half a
    // base is 15: both qualify, but au-2 (x 515..545, 2" away) faces fr-1's right-hand base
    // (x 490..520) within 3": only the left overlap is unopposed (003 501).
    let r = report("republic-overlap.json");
    let e = entry(&r, "fr-1", "au-1");
    let o = e["unopposed_overlap"].as_array().unwrap();
    let side = |s: &str| o.iter().find(|x| x["side"] == s).unwrap()["unopposed"].as_bool().unwrap();
    assert!(side("left"));
    assert!(!side("right"));
    assert!((o[0]["overlap_in"].as_f64().unwrap() - 30.0 / 25.4).abs() < 1e-6);
    // France counts individual bases (003 102 C): fr-2 brings its two front bases of four.
    assert_eq!(entry(&r, "fr-2", "au-3")["attacker_bases"], 2);
    // Austria counts whole units: au-1 brings both its bases.
    assert_eq!(entry(&r, "au-1", "fr-1")["attacker_bases"], 2);
    // fr-cav-sk is 5" from its cavalry parent: legal under Republic 101 (6").
    let sk: Vec<&Value> = r["skirmishers"].as_array().unwrap().iter().collect();
    let cav = sk.iter().find(|m| m["marker"] == "fr-cav-sk#0").unwrap();
    assert_eq!((cav["near_parent"].as_bool(), cav["legal"].as_bool()), (Some(true), Some(true)));
    // fr-sk's markers are 2.9" apart: packed, still legal.
    let pair: Vec<&&Value> = sk.iter().filter(|m| m["parent"] == "fr-3").collect();
    assert!(pair.iter().all(|m| m["spacing"] == "packed" && m["legal"] == true));
    // au-1 is alert (003 201): fr-1's front edge is 1" from au-1's, inside its 4" zone.
    let alert = &r["republic"]["alert"][0];
    assert_eq!((alert["unit"].as_str(), alert["enemies"][0].as_str()), (Some("au-1"), Some("fr-1")));
    assert!((alert["distances_in"][0].as_f64().unwrap() - 1.0).abs() < 1e-6);
}

#[test]
fn pro_patria_contact_approach_corridor_and_command() {
    // fr-bn1 (x 400..580) and au-bn1 (x 430..610) touch front to front along y = 310:
    // 150 mm of edge contact, in contact both ways.
    let r = report("pro-patria-charge.json");
    assert_eq!(pairs(&r), vec![("au-bn1".into(), "fr-bn1".into()), ("fr-bn1".into(), "au-bn1".into())]);
    assert_eq!(entry(&r, "fr-bn1", "au-bn1")["contact_frontage_mm"], 150.0);
    let pp = &r["pro_patria"];
    let prox = pp["proximity"].as_array().unwrap();
    let close = prox.iter().find(|p| p["a"] == "fr-bn2").unwrap();
    // au-bn2's front (y = 332) is 22 mm from fr-bn2's (y = 310): inside 25 mm, no contact.
    assert_eq!((close["distance_mm"].as_f64(), close["too_close"].as_bool()), (Some(22.0), Some(true)));
    // fr-art (x 1280..1320) fires straight up at au-bn3; fr-bn4 (x 1280..1340, y 390..410)
    // stands across its corridor.
    let t = pp["targets"].as_array().unwrap().iter().find(|t| t["unit"] == "fr-art").unwrap();
    assert_eq!(t["target"], "au-bn3");
    assert_eq!(t["endangered"], serde_json::json!(["fr-bn4"]));
    // fr-lt in skirmish order sees au-sk beside it (180°): 55 mm from x = 275 to x = 330.
    let t = pp["targets"].as_array().unwrap().iter().find(|t| t["unit"] == "fr-lt").unwrap();
    assert_eq!((t["target"].as_str(), t["distance_mm"].as_f64()), (Some("au-sk"), Some(55.0)));
    // fr-gen (x 830..870) to fr-art (x 1280..1320): 410 mm, beyond the 400 mm radius.
    let c = pp["command"].as_array().unwrap().iter().find(|c| c["unit"] == "fr-art").unwrap();
    assert_eq!((c["distance_mm"].as_f64(), c["in_command"].as_bool()), (Some(410.0), Some(false)));
}

#[test]
fn the_human_report_shows_the_sections_as_tables() {
    let out = vedette(&["report", sample("brigade-attack.json").to_str().unwrap()]);
    let text = stdout(&out);
    assert!(text.contains("Assaults\n  attacker  defender  range"), "{text}");
    assert!(
        text.lines().any(|l| l.split_whitespace().take(5).eq([
            "fr-1-3",
            "au-2",
            "all-out",
            "front",
            "supporting"
        ])),
        "{text}"
    );
    assert!(text.contains("Divisions\n"), "{text}");
    assert!(text.contains("Skirmishers\n"), "{text}");
}
