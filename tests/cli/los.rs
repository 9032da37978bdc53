//! End to end: `vedette los` on the samples, its JSON against the documented schema,
//! and clear errors (non-zero exit) for bad input.

use crate::common;
use common::{root, sample, stderr, stdout, vedette};

fn los_json(args: &[&str]) -> serde_json::Value {
    let out = vedette(args);
    assert!(out.status.success(), "{}", stderr(&out));
    serde_json::from_str(&stdout(&out)).unwrap()
}

#[test]
fn the_wood_hides_the_only_target_in_the_battery_arc() {
    // samples/woods-block.json: the battery at (400, 100) faces +y; au-1 stands at
    // y 410..430 right behind the wood (y 220..330 across x 240..570). Every sight line
    // from the front edge (x 387.5..412.5, y 120) to au-1 (x 370..430) crosses the wood.
    let p = sample("woods-block.json");
    let j = los_json(&["los", p.to_str().unwrap(), "fr-art-1", "au-1", "--json"]);
    assert_eq!(j["schema"], "vedette/los/1");
    assert_eq!(j["visible"], false);
    assert_eq!(j["full_base_visible"], false);
    assert_eq!(j["method"], "exact");
    let b = &j["blocked_by"][0];
    assert_eq!(b["kind"], "medium-forest");
    assert_eq!(b["feature"], "big-wood");
    assert_eq!(b["rule"], "blocks");
    // The examined line runs from the eye centre (400, 120) to au-1#0's centre (385, 420)
    // and enters the wood's near edge (from (250, 220) to (560, 230)) near y = 224.7.
    let at = b["at"].as_array().unwrap();
    assert!((at[1].as_f64().unwrap() - 224.7).abs() < 0.1, "{at:?}");
    // au-2, off to the side, is seen in full from the battery.
    let j = los_json(&["los", p.to_str().unwrap(), "fr-art-1", "au-2", "--json"]);
    assert_eq!(j["visible"], true);
    assert_eq!(j["full_base_visible"], true);
    assert_eq!(j["sight_lines"].as_array().unwrap().len(), 4);
}

#[test]
fn text_output_names_the_wood() {
    let p = sample("woods-block.json");
    let out = vedette(&["los", p.to_str().unwrap(), "fr-art-1", "au-1"]);
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(text.contains("NOT VISIBLE") && text.contains("big-wood"), "{text}");
}

#[test]
fn los_output_matches_its_schema_on_every_sample() {
    let schema: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(root().join("docs/los.schema.json")).unwrap()).unwrap();
    let v = jsonschema::validator_for(&schema).unwrap();
    for (file, a, b) in [
        ("woods-block.json", "fr-art-1", "au-1"),
        ("woods-block.json", "fr-art-1", "au-2#1"),
        ("brigade-attack.json", "fr-art-1", "au-3"),
        ("brigade-attack.json", "fr-1-2-sk", "au-2"),
        ("skirmish.json", "fr-1", "au-1"),
        ("skirmish.json", "fr-sk", "au-cav"),
    ] {
        let p = sample(file);
        let j = los_json(&["los", p.to_str().unwrap(), a, b, "--json"]);
        let errors: Vec<String> =
            v.iter_errors(&j).map(|e| format!("{e} at {}", e.instance_path())).collect();
        assert!(errors.is_empty(), "{file} {a} {b}: {errors:?}");
    }
}

#[test]
fn bad_input_fails_clearly() {
    let p = sample("woods-block.json");
    let out = vedette(&["los", p.to_str().unwrap(), "fr-art-1", "au-9"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("no unit \"au-9\""), "{}", stderr(&out));
    let out = vedette(&["los", "samples/missing.json", "a", "b"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("cannot read"), "{}", stderr(&out));
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, "{ not json").unwrap();
    let out = vedette(&["los", bad.to_str().unwrap(), "a", "b"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("not valid JSON"), "{}", stderr(&out));
    // A terrain hole outside its outline is refused on load, naming feature and field.
    let holed = dir.path().join("holed.json");
    std::fs::write(
        &holed,
        r#"{"schema":"vedette/table/1","rules":"republique5","scale":"medium","units":[
        {"id":"a","side":"x","kind":"infantry","formation":"line","bases":[{"x":0,"y":0,"heading":90,"width":30,"depth":20}]}],
        "terrain":[{"id":"w","kind":"heavy-forest","outline":[[0,100],[100,100],[100,200],[0,200]],"holes":[[[150,150],[160,150],[160,160]]]}]}"#,
    )
    .unwrap();
    let out = vedette(&["los", holed.to_str().unwrap(), "a", "a"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("terrain[0] \"w\" holes[0]"), "{}", stderr(&out));
    let out = vedette(&["los", p.to_str().unwrap(), "fr-art-1", "fr-art-1"]);
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn a_pro_patria_target_just_past_a_crest_is_seen_as_its_player_declares() {
    // 004 §15.1. The hill x ∈ [-200, 200], y ∈ [100, 400]: its spine runs y = 250 (the
    // crest across, x = 0, is 70 mm from both units). The spotter's front edge is at
    // y = 15, far from the spine; the target's at y = 274 (24 mm past the spine, within
    // 25): seen if declared over the crest, hidden if declared behind. At 276 mm (26 mm
    // past) it is hidden whatever is declared, and `if_declared_behind` is absent.
    let dir = tempfile::tempdir().unwrap();
    for (yt, visible, behind) in [(289.0, true, Some(false)), (291.0, false, None)] {
        let text = format!(
            r#"{{"schema":"vedette/table/1","rules":"pro-patria","scale":"28mm","units":[
            {{"id":"a","side":"fr","kind":"infantry","bases":[{{"x":-100,"y":0,"heading":90,"width":60,"depth":30}}]}},
            {{"id":"b","side":"gb","kind":"infantry","bases":[{{"x":-100,"y":{yt},"heading":270,"width":60,"depth":30}}]}}],
            "terrain":[{{"id":"ridge","kind":"hill","level":1,"outline":[[-200,100],[200,100],[200,400],[-200,400]]}}]}}"#
        );
        let p = dir.path().join(format!("crest-{yt}.json"));
        std::fs::write(&p, text).unwrap();
        let j = los_json(&["los", p.to_str().unwrap(), "a", "b", "--json"]);
        assert_eq!(j["visible"], visible, "{yt}");
        assert_eq!(j["if_declared_behind"].as_object().map(|o| o["visible"] == true), behind, "{yt}");
        if !visible {
            assert_eq!(j["blocked_by"][0]["rule"], "crest", "{j}");
            assert_eq!(j["blocked_by"][0]["feature"], "ridge");
        }
        let out = vedette(&["los", p.to_str().unwrap(), "a", "b"]);
        assert!(out.status.success());
        assert_eq!(stdout(&out).contains("declared behind it: NOT VISIBLE (004 §15.1)"), behind.is_some());
    }
}

/// Issue 41 item 6: skirmisher fr-1-2-sk#0 of the brigade attack stands across the
/// rise's edge (y = 560). Half a millimetre off the hill (centre y = 559.5, 52% of the
/// base off it) it stands at level 0 and sees nothing of fr-1-1 behind it; half a
/// millimetre on, at level 0.5, it sees part of it. Each verdict's margin is at most the
/// half millimetre that flips it (it was 50 mm off the hill): the base's level margin,
/// its centre's distance to the contour.
#[test]
fn a_base_across_a_hill_edge_has_the_margin_of_its_level() {
    let text = std::fs::read_to_string(sample("brigade-attack.json")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    for (dy, visible) in [(-0.5, false), (0.5, true)] {
        let mut t: serde_json::Value = serde_json::from_str(&text).unwrap();
        let sk = t["units"].as_array_mut().unwrap().iter_mut().find(|u| u["id"] == "fr-1-2-sk").unwrap();
        sk["bases"][0]["y"] = serde_json::Value::from(560.0 + dy);
        let p = dir.path().join(format!("sk{dy}.json"));
        std::fs::write(&p, t.to_string()).unwrap();
        let j = los_json(&["los", p.to_str().unwrap(), "fr-1-2-sk#0", "fr-1-1", "--json"]);
        assert_eq!(j["visible"], visible, "{dy}: {j}");
        let m = j["visible_call"]["margin_mm"].as_f64().unwrap();
        assert!((m - 0.5).abs() < 1e-9, "{dy}: visible margin {m}");
        // The level bounds the full-base verdict's margin too (a bound: whether a level
        // change flips that verdict is not asked).
        let m = j["full_base_call"]["margin_mm"].as_f64().unwrap();
        assert!(m <= 0.5 + 1e-9, "{dy}: full-base margin {m}");
    }
}
