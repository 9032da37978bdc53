//! `vedette report` end to end on the brigade sample: the artillery section's main
//! targets, deep and enfilade verdicts and unlimber flags, worked out by hand below from
//! the positions in `samples/brigade-attack.json` (medium scale: 1 rule inch = 25.4 mm;
//! France on the French system, Austria on the Prussian).

use crate::common;
use common::{sample, stderr, stdout, vedette};
use serde_json::Value;

fn report() -> Value {
    let out = vedette(&["report", sample("brigade-attack.json").to_str().unwrap(), "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    serde_json::from_str(&stdout(&out)).unwrap()
}

fn battery<'a>(r: &'a Value, id: &str) -> &'a Value {
    r["artillery"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["battery"] == id)
        .unwrap_or_else(|| panic!("no {id}"))
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array().unwrap().iter().map(|s| s.as_str().unwrap().to_string()).collect()
}

#[test]
fn fr_art_1_fires_deep_into_au_3_with_au_4_in_tandem() {
    // The gun (25 x 40 at (625, 440) facing +y) spans x 612.5..637.5, y 420..460. Its
    // left strip (x 600..612.5, y 420..460) holds the column fr-1-1 (x 581..611), bases
    // #0 (y 430..450) and #1 (y 410..430): packed, and the frontage is the front edge,
    // x 612.5..637.5 at y = 460.
    // au-3's front edges are at y = 600; its base #2 (x 610..640) lies straight ahead:
    // range 140 mm = 5.512", bracket 3, closer than any other Austrian unit in the arc
    // (au-4 behind it, au-cav-1 at 12.4"). Lines from the frontage to au-3#2 stay within
    // x 610..640, clear of every friendly base; the zone is clear straight ahead (fr-1-2's
    // nearest corner (700, 536.5) is right of the zone's side, x = 637.5 + 76.5 tan 5° =
    // 644.2 there; the saved-fire marker in front is the battery's own). Main: au-3.
    // The aim runs through au-3#2's centre (625, 610) from M = (625, 460): swing 0.
    // Deep: up x = 625 the centre of fire enters au-3#2 at y = 600, au-4#2 (x 620..650,
    // y 670..690) at 670 and au-4#6 (the second row, y 690..710) at 690, all within the
    // window to y = 600 + 101.6: three bases, deep. Frontal fire: no enfilade.
    // Tandem: au-4 stands behind au-3 (x 590..710 against 580..700), its face 70 mm = 2.76"
    // behind au-3's, in the zone and on open ground (the hill "rise").
    let r = report();
    let b = battery(&r, "fr-art-1");
    assert_eq!(b["frontage"], "packed");
    assert_eq!(b["frontage_source"], "free-space");
    assert_eq!(strings(&b["frontage_crowded_by"]), ["fr-1-1#0", "fr-1-1#1"]);
    assert_eq!(b["main_target"], "au-3");
    let t = b["targets"].as_array().unwrap().iter().find(|t| t["unit"] == "au-3").unwrap();
    assert!((t["range_in"].as_f64().unwrap() - 140.0 / 25.4).abs() < 1e-6);
    assert_eq!(t["bracket"], 3);
    assert_eq!(
        (t["half_base_in_arc"].as_bool(), t["line_of_sight"].as_bool(), t["zone_clear"].as_bool()),
        (Some(true), Some(true), Some(true))
    );
    assert_eq!(b["aim_swing_deg"], 0.0);
    assert_eq!(b["deep"], true);
    assert_eq!(strings(&b["deep_bases"]), ["au-3#2", "au-4#2", "au-4#6"]);
    assert_eq!(strings(&b["deep_reasons"]), ["bases"]);
    assert_eq!(b["point_blank"], false);
    assert_eq!(b["enfilade"], false);
    assert_eq!(b["enfilade_flank"], Value::Null);
    assert_eq!(strings(&b["tandem"]), ["au-4"]);
    assert!(strings(&b["adjacent"]).is_empty());
    // au-4 itself is hidden behind au-3 (000 §4.5: no fire "over ... enemy units").
    let t4 = b["targets"].as_array().unwrap().iter().find(|t| t["unit"] == "au-4").unwrap();
    assert_eq!(t4["line_of_sight"], false);
    assert_eq!(b["unlimber"]["too_close"], false);
}

#[test]
fn fr_art_2_enfilades_the_left_flank_of_au_5() {
    // The gun at (1150, 420) facing +y has free space beside it: normal frontage, x
    // 1125..1175 at y = 440. au-5 is an attack column facing -x (bases x 1070..1130,
    // y 625..655); its right is +y, so its left flank edge is y = 625 from x 1070 (its
    // front) to 1130. Base #2 (x 1110..1130) reaches over the frontage's x-range: range
    // 185 mm = 7.283", bracket 4 (au-art-1 shows only 7% of its base in the arc).
    // Enfilade: the arc laid on the left flank edge, at y = 440 (185 mm out), spans x
    // 1070 - 185 tan 30° = 963.2 to 1130 + 106.8 = 1236.8, holding the whole frontage.
    // Deep: the aim through #2's centre (1120, 640) swings atan(30/200) = 8.53° left; it
    // enters #2 at (1122.25, 625) and leaves through its far edge at (1117.75, 655): one
    // base, not deep.
    let r = report();
    let b = battery(&r, "fr-art-2");
    assert_eq!(b["frontage"], "normal");
    assert_eq!(b["main_target"], "au-5");
    assert!((b["aim_swing_deg"].as_f64().unwrap() - (30.0f64 / 200.0).atan().to_degrees()).abs() < 1e-5);
    assert_eq!(b["enfilade"], true);
    assert_eq!(b["enfilade_flank"], "left");
    assert_eq!(b["enfilade_reason"], "flank");
    assert_eq!(b["deep"], false);
    assert_eq!(strings(&b["deep_window_bases"]), ["au-5#2"]);
}

#[test]
fn au_art_1_at_point_blank_is_still_deep_and_too_close_to_unlimber() {
    // The gun at (1000, 630) facing -y: normal frontage x 975..1025 at y = 610. fr-1-3
    // (three-line, rows at y 549.5, 529.5, 509.5) has base #2 (x 965..995, front edge
    // y = 559.5) 50.5 mm = 1.988" away: bracket 1, point blank, so the deep window ends
    // at 4" range (000 §4.3). The aim through #2's centre (980, 549.5) swings
    // atan(20/60.5) = 18.3° to the right; the centre of fire enters #2 at y = 559.5,
    // #5 at (976.7, 539.5) and #8 at (970.1, 519.5), which is 90.6 mm from the frontage's
    // end (975, 610): inside 4" (101.6 mm). Three bases: deep, even at point blank.
    // Unlimber: Prussian system, 3" = 76.2 mm; fr-1-3#2 is 50.5 mm from the gun: too close.
    let r = report();
    let b = battery(&r, "au-art-1");
    assert_eq!(b["main_target"], "fr-1-3");
    let t = b["targets"].as_array().unwrap().iter().find(|t| t["unit"] == "fr-1-3").unwrap();
    assert_eq!(t["bracket"], 1);
    assert!((b["aim_swing_deg"].as_f64().unwrap() + (20.0f64 / 60.5).atan().to_degrees()).abs() < 1e-5);
    assert_eq!(b["point_blank"], true);
    assert_eq!(b["deep"], true);
    assert_eq!(strings(&b["deep_bases"]), ["fr-1-3#2", "fr-1-3#5", "fr-1-3#8"]);
    assert_eq!(b["enfilade"], false);
    let u = &b["unlimber"];
    assert_eq!(u["system"], "prussian");
    assert_eq!(u["limit_in"], 3.0);
    assert_eq!(u["too_close"], true);
    assert_eq!(u["nearest_enemy"], "fr-1-3#2");
    assert!((u["distance_in"].as_f64().unwrap() - 50.5 / 25.4).abs() < 1e-6);
}

#[test]
fn the_text_report_reads_as_a_table() {
    let out = vedette(&["report", sample("brigade-attack.json").to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let line =
        |id: &str| text.lines().find(|l| l.trim_start().starts_with(id)).unwrap_or_else(|| panic!("{text}"));
    assert!(line("battery").contains("main") && line("battery").contains("enfilade"), "{text}");
    let a = line("fr-art-1 ");
    assert!(
        a.contains("packed") && a.contains("au-3") && a.contains("yes (3 bases)") && a.contains("au-4"),
        "{a}"
    );
    assert!(line("fr-art-2 ").contains("yes, left flank"), "{text}");
    assert!(line("au-art-1 ").contains("TOO CLOSE: fr-1-3#2 at 1.99\""), "{text}");
    assert!(text.contains("fr-art-1 targets:"), "{text}");
}

#[test]
fn other_rule_sets_report_no_artillery() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("pp.json");
    std::fs::write(
        &p,
        r#"{"schema":"vedette/table/1","rules":"pro-patria","scale":"15mm","units":[
        {"id":"g","side":"x","kind":"artillery","bases":[{"x":0,"y":0,"heading":90,"width":40,"depth":40}]}]}"#,
    )
    .unwrap();
    let out = vedette(&["report", p.to_str().unwrap(), "--json"]);
    let r: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(r["artillery"], Value::Null);
    let text = stdout(&vedette(&["report", p.to_str().unwrap()]));
    assert!(text.contains("pro-patria has no Republique artillery rules"), "{text}");
}

#[test]
fn a_battery_whose_only_sight_line_crosses_a_wood_has_no_target() {
    // samples/woods-block.json: fr-art-1's normal frontage runs x 375..425 at y = 120
    // (free space beside it), facing +y. au-1 stands 290 mm = 11.42" ahead (x 370..430,
    // y 410..430), in the arc. The medium forest "big-wood" covers x 240..570, y 220..330:
    // every line from the frontage to au-1 crosses it, and neither base stands in it, so
    // it blocks (000 §3.6: sight reaches into cover only to its spotting depth, and only
    // to a unit inside it). au-2 (x 870..930) is 57° off the battery's front from the
    // frontage's right end: outside the 30° side of the arc.
    let out = vedette(&["report", sample("woods-block.json").to_str().unwrap(), "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let r: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let b = battery(&r, "fr-art-1");
    assert_eq!(b["main_target"], Value::Null);
    let targets = b["targets"].as_array().unwrap();
    let au1 = targets.iter().find(|t| t["unit"] == "au-1").expect("au-1 is listed as a candidate");
    assert_eq!(au1["line_of_sight"], false);
    assert_eq!(au1["half_base_in_arc"], true);
    assert!((au1["range_in"].as_f64().unwrap() - 290.0 / 25.4).abs() < 0.005);
    assert!(targets.iter().all(|t| t["unit"] != "au-2"));
}
