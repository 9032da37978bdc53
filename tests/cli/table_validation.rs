//! Loading a table file: every invalid field gives an error that names the unit and the
//! field, through the library and through the command line (non-zero exit).

use crate::common;
use common::{root, stderr, vedette};
use serde_json::{Value, json};
use vedette_geometry::Table;

fn valid() -> Value {
    json!({
        "schema": "vedette/table/1", "rules": "republique5", "scale": "medium",
        "units": [
            {"id": "fr-1-2", "side": "france", "kind": "infantry", "formation": "line",
             "bases": [{"x": 412.0, "y": 300.5, "heading": 90.0, "width": 30.0, "depth": 20.0},
                       {"x": 442.0, "y": 300.5, "heading": 90.0, "width": 30.0, "depth": 20.0}]},
            {"id": "au-3", "side": "austria", "kind": "artillery", "formation": "unlimbered", "weight": "heavy",
             "bases": [{"x": 412.0, "y": 500.0, "heading": 270.0, "width": 25.0, "depth": 40.0}]},
            {"id": "fr-sk", "side": "france", "kind": "skirmisher", "parent": "fr-1-2",
             "bases": [{"x": 420.0, "y": 350.0, "heading": 90.0, "width": 20.0, "depth": 20.0}]}
        ],
        "markers": [{"kind": "morale", "colour": "yellow", "x": 430.0, "y": 280.0, "unit": "fr-1-2"}],
        "terrain": [{"id": "wood", "kind": "medium-forest", "level": 0, "outline": [[0,0],[100,0],[100,80]]},
                    {"kind": "hedge", "path": [[0,100],[200,100]]}]
    })
}

fn error_of(v: &Value) -> String {
    match Table::from_json_str(&v.to_string()) {
        Ok(_) => panic!("expected an error for {v}"),
        Err(e) => e.to_string(),
    }
}

fn assert_error(mutate: impl FnOnce(&mut Value), needles: &[&str]) {
    let mut v = valid();
    mutate(&mut v);
    let e = error_of(&v);
    for n in needles {
        assert!(e.contains(n), "error {e:?} lacks {n:?}");
    }
}

#[test]
fn the_valid_table_loads() {
    let t = Table::from_json_str(&valid().to_string()).unwrap();
    assert_eq!(t.units.len(), 3);
    assert_eq!(t.base_count(), 4);
    // And survives a round trip through its own serialization.
    assert_eq!(Table::from_json_str(&t.to_json_string()).unwrap(), t);
}

#[test]
fn negative_width() {
    assert_error(
        |v| v["units"][0]["bases"][1]["width"] = json!(-30.0),
        &["units[0] \"fr-1-2\" bases[1].width", "positive", "-30"],
    );
}

#[test]
fn zero_depth() {
    assert_error(
        |v| v["units"][1]["bases"][0]["depth"] = json!(0.0),
        &["units[1] \"au-3\" bases[0].depth", "positive"],
    );
}

#[test]
fn non_finite_numbers() {
    // JSON has no NaN; the nearest a file can come is a literal the parser rejects or a
    // number too large for f64.
    assert_error(
        |v| v["units"][0]["bases"][0]["x"] = json!("NaN"),
        &["units[0] \"fr-1-2\" bases[0].x", "invalid type"],
    );
    let text = valid().to_string().replace("412.0", "1e999");
    let e = Table::from_json_str(&text).unwrap_err().to_string();
    assert!(e.contains("not valid JSON") || e.contains("finite"), "{e}");
}

#[test]
fn non_finite_values_built_in_code() {
    let mut t = Table::from_json_str(&valid().to_string()).unwrap();
    let b = t.units[0].bases[0];
    t.units[0].bases[0] =
        b.with_pose(vedette_geometry::Pose::new(vedette_geometry::Vec2::new(f64::NAN, 0.0), 90.0));
    let e = t.validate("table").unwrap_err().to_string();
    assert!(e.contains("units[0] \"fr-1-2\" bases[0].x") && e.contains("finite"), "{e}");
}

#[test]
fn duplicate_id() {
    assert_error(
        |v| v["units"][2]["id"] = json!("fr-1-2"),
        &["duplicate id \"fr-1-2\"", "units[0]", "units[2]"],
    );
}

#[test]
fn unknown_kind() {
    assert_error(
        |v| v["units"][0]["kind"] = json!("dragoons"),
        &["units[0] \"fr-1-2\" kind", "unknown variant `dragoons`", "infantry"],
    );
}

#[test]
fn unknown_formation() {
    assert_error(
        |v| v["units"][0]["formation"] = json!("blob"),
        &["units[0] \"fr-1-2\" formation", "unknown variant `blob`"],
    );
}

#[test]
fn unknown_field() {
    assert_error(
        |v| v["units"][0]["colour"] = json!("blue"),
        &["units[0] \"fr-1-2\"", "unknown field `colour`"],
    );
    assert_error(
        |v| v["units"][0]["bases"][0]["angle"] = json!(3),
        &["units[0] \"fr-1-2\" bases[0]", "unknown field `angle`"],
    );
}

#[test]
fn missing_field() {
    assert_error(
        |v| {
            v["units"][1].as_object_mut().unwrap().remove("side");
        },
        &["units[1] \"au-3\"", "missing field `side`"],
    );
}

#[test]
fn wrong_schema_rules_and_scale() {
    assert_error(
        |v| v["schema"] = json!("vedette/table/9"),
        &["schema \"vedette/table/9\" is not supported"],
    );
    assert_error(
        |v| v["rules"] = json!("warhammer"),
        &["rules", "unknown variant `warhammer`", "pro-patria"],
    );
    assert_error(|v| v["scale"] = json!("15mm"), &["scale", "does not belong to rule set \"republique5\""]);
}

#[test]
fn kinds_and_formations_that_do_not_fit() {
    assert_error(
        |v| v["units"][1]["formation"] = json!("square"),
        &["units[1] \"au-3\" formation", "limbered or unlimbered"],
    );
    assert_error(
        |v| v["units"][0]["formation"] = json!("limbered"),
        &["units[0] \"fr-1-2\" formation", "infantry cannot be limbered"],
    );
    assert_error(
        |v| {
            v["units"][0]["kind"] = json!("cavalry");
            v["units"][0]["formation"] = json!("square");
        },
        &["only infantry forms square"],
    );
    assert_error(
        |v| v["units"][0]["weight"] = json!("heavy"),
        &["units[0] \"fr-1-2\" weight", "only artillery"],
    );
}

#[test]
fn references_must_resolve() {
    assert_error(
        |v| v["units"][2]["parent"] = json!("fr-9"),
        &["units[2] \"fr-sk\" parent", "no unit with id \"fr-9\""],
    );
    assert_error(|v| v["markers"][0]["unit"] = json!("ghost"), &["markers[0] unit", "\"ghost\""]);
}

#[test]
fn empty_units_and_ids() {
    assert_error(|v| v["units"][0]["bases"] = json!([]), &["units[0] \"fr-1-2\" bases", "at least one base"]);
    assert_error(|v| v["units"][0]["id"] = json!("a#1"), &["must not contain '#'"]);
    assert_error(|v| v["units"][0]["id"] = json!(" "), &["units[0] id", "must not be empty"]);
}

#[test]
fn markers() {
    assert_error(
        |v| v["markers"][0]["colour"] = json!("natural"),
        &["markers[0] colour", "white, yellow, red or black"],
    );
    assert_error(|v| v["markers"][0]["kind"] = json!("flag"), &["markers[0] kind", "unknown variant `flag`"]);
}

#[test]
fn terrain() {
    assert_error(
        |v| v["terrain"][0]["outline"] = json!([[0, 0], [10, 10], [10, 0], [0, 10]]),
        &["terrain[0] \"wood\" outline", "not a simple polygon"],
    );
    assert_error(|v| v["terrain"][0]["level"] = json!(0.3), &["terrain[0] \"wood\" level", "half-level"]);
    assert_error(
        |v| v["terrain"][0]["outline"] = json!([[0, 0], [10, 10]]),
        &["terrain[0] \"wood\" outline", "at least three"],
    );
    assert_error(|v| v["terrain"][1]["path"] = json!([[0, 0]]), &["terrain[1] path", "at least two"]);
    assert_error(
        |v| v["terrain"][0]["kind"] = json!("jungle"),
        &["terrain[0] \"wood\" kind", "unknown variant `jungle`"],
    );
    assert_error(
        |v| v["terrain"][1]["id"] = json!("wood"),
        &["duplicate id \"wood\"", "terrain[0]", "terrain[1]"],
    );
}

#[test]
fn the_command_line_reports_the_same_errors() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("bad.json");
    let mut v = valid();
    v["units"][0]["bases"][1]["width"] = json!(-30.0);
    std::fs::write(&p, v.to_string()).unwrap();
    let out = vedette(&["measure", p.to_str().unwrap(), "fr-1-2", "au-3"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.starts_with("error: "), "{err}");
    assert!(
        err.contains(
            "bad.json: units[0] \"fr-1-2\" bases[1].width: must be a positive number of mm up to 10000, got -30"
        ),
        "{err}"
    );
}

#[test]
fn terrain_holes_and_hills_are_checked() {
    // A hole outside its outline.
    assert_error(
        |v| v["terrain"][0]["holes"] = json!([[[200, 10], [210, 10], [210, 20]]]),
        &["terrain[0] \"wood\" holes[0]", "outside the outline"],
    );
    // A line with holes.
    assert_error(
        |v| v["terrain"][1]["holes"] = json!([[[0, 0], [1, 0], [1, 1]]]),
        &["terrain[1] holes", "no holes"],
    );
    // A hill at level 0.
    assert_error(
        |v| {
            v["terrain"]
                .as_array_mut()
                .unwrap()
                .push(json!({"id": "h", "kind": "hill", "level": 0, "outline": [[0,0],[50,0],[50,50]]}))
        },
        &["terrain[2] \"h\" level", "at least 0.5"],
    );
    // Two hills whose contours cross.
    assert_error(
        |v| {
            let t = v["terrain"].as_array_mut().unwrap();
            t.push(
                json!({"id": "h1", "kind": "hill", "level": 1, "outline": [[0,0],[100,0],[100,100],[0,100]]}),
            );
            t.push(json!({"id": "h2", "kind": "hill", "level": 1, "outline": [[50,50],[150,50],[150,150],[50,150]]}));
        },
        &["terrain[3] \"h2\" outline", "crosses the contour of terrain[2] \"h1\""],
    );
    // A contour inside another must be higher.
    assert_error(
        |v| {
            let t = v["terrain"].as_array_mut().unwrap();
            t.push(
                json!({"id": "h1", "kind": "hill", "level": 1, "outline": [[0,0],[100,0],[100,100],[0,100]]}),
            );
            t.push(json!({"id": "h2", "kind": "hill", "level": 0.5, "outline": [[20,20],[80,20],[80,80],[20,80]]}));
        },
        &["terrain[3] \"h2\" level", "must be higher"],
    );
    // Nested and touching hills are fine.
    let mut v = valid();
    let t = v["terrain"].as_array_mut().unwrap();
    t.push(json!({"id": "h1", "kind": "hill", "level": 0.5, "outline": [[0,0],[100,0],[100,100],[0,100]]}));
    t.push(json!({"id": "h2", "kind": "hill", "level": 1.5, "outline": [[20,20],[80,20],[80,80],[20,80]]}));
    t.push(json!({"id": "h3", "kind": "hill", "level": 1, "outline": [[100,0],[200,0],[200,100],[100,100]]}));
    Table::from_json_str(&v.to_string()).unwrap();
}

#[test]
fn coordinates_sizes_headings_and_outlines_are_bounded() {
    // A base at x = -1e300 used to crash the hull in `report`; headings of 360e15
    // shifted distances by millimetres; sizes of 1e20 made line of sight allocate
    // without end. Each is refused naming the field, and just inside each bound loads.
    assert_error(|v| v["units"][0]["bases"][0]["x"] = json!(-1e300), &["units[0]", "bases[0].x", "within"]);
    assert_error(|v| v["units"][0]["bases"][0]["y"] = json!(1.000001e6), &["bases[0].y"]);
    assert_error(|v| v["units"][0]["bases"][1]["heading"] = json!(360e15), &["bases[1].heading"]);
    assert_error(
        |v| v["units"][2]["bases"][0]["depth"] = json!(1e9),
        &["units[2]", "bases[0].depth", "up to"],
    );
    assert_error(|v| v["units"][0]["bases"][0]["sigma_mm"] = json!(1e300), &["bases[0].sigma_mm"]);
    assert_error(|v| v["markers"][0]["x"] = json!(1e200), &["markers[0] x"]);
    assert_error(
        |v| v["terrain"][0]["outline"][1] = json!([1e200, 0]),
        &["terrain[0] \"wood\" outline", "within"],
    );
    let many: Vec<Value> = (0..10_001)
        .map(|i| {
            let a = f64::from(i) / 10_001.0 * std::f64::consts::TAU;
            json!([500.0 + 100.0 * a.cos(), 500.0 + 100.0 * a.sin()])
        })
        .collect();
    assert_error(
        |v| v["terrain"][0]["outline"] = json!(many),
        &["terrain[0] \"wood\" outline", "10001 points"],
    );
    let mut v = valid();
    v["units"][0]["bases"][0]["x"] = json!(1e6 - 100.0);
    v["units"][0]["bases"][1]["heading"] = json!(-999_990.0);
    v["terrain"][0]["outline"] = json!(many[..10_000]);
    assert!(Table::from_json_str(&v.to_string()).is_ok());
    // Through the command line: exit 1, the field named, no panic.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("far.json");
    let mut v = valid();
    v["units"][0]["bases"][0]["x"] = json!(-1e300);
    std::fs::write(&path, v.to_string()).unwrap();
    let out = vedette(&["report", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("bases[0].x"), "{}", stderr(&out));
}

#[test]
fn a_byte_order_mark_is_skipped_and_a_repeated_key_is_refused() {
    let text = serde_json::to_string_pretty(&valid()).unwrap();
    let with_bom = format!("\u{feff}{text}");
    assert_eq!(Table::from_json_str(&with_bom).unwrap(), Table::from_json_str(&text).unwrap());

    // The same key twice, in the unit's object on the file's fourth line: serde_json would
    // keep the second copy silently.
    let twice = text.replacen("\"id\": \"fr-1-2\"", "\"id\": \"fr-1-2\", \"id\": \"fr-9\"", 1);
    assert_ne!(twice, text);
    let e = Table::parse(&twice, "dup.json").unwrap_err().to_string();
    assert!(e.contains("dup.json") && e.contains("\"id\" is given twice"), "{e}");
    assert!(e.contains("line "), "{e}");
    // Nested objects too: a base's x given twice.
    let nested = text.replacen("\"x\": 412.0", "\"x\": 412.0, \"x\": 1.0", 1);
    let e = Table::parse(&nested, "dup.json").unwrap_err().to_string();
    assert!(e.contains("\"x\" is given twice"), "{e}");
}

#[test]
fn a_repeated_key_is_refused_in_a_large_file_too() {
    // A large file is checked for repeated keys by a pass over its bytes after the typed
    // parse: a key repeated in a map (which the parse alone would take silently) or deep
    // in the file is refused all the same.
    let text = std::fs::read_to_string(root().join("samples/grand-battle.json")).unwrap();
    assert!(Table::parse(&text, "big.json").is_ok());
    let in_map = text.replacen(
        "\"scale\": \"medium\",",
        "\"scale\": \"medium\", \"sides\": {\"france\": {}, \"france\": {\"system\": \"french\"}},",
        1,
    );
    let e = Table::parse(&in_map, "big.json").unwrap_err().to_string();
    assert!(e.contains("big.json") && e.contains("\"france\" is given twice"), "{e}");
    let last = text.rfind("\"depth\": 20.0").unwrap();
    let deep = format!("{}\"depth\": 20.0, \"depth\": 2.0{}", &text[..last], &text[last + 13..]);
    let e = Table::parse(&deep, "big.json").unwrap_err().to_string();
    assert!(e.contains("\"depth\" is given twice"), "{e}");
}

#[test]
fn base_slots_must_increase() {
    // A scan that missed base 1 writes "slot": 2 on the base after it.
    let mut v = valid();
    v["units"][0]["bases"][1]["slot"] = json!(2);
    let t = Table::from_json_str(&v.to_string()).unwrap();
    let Ok(vedette_geometry::Selection::Base(r)) = t.select("fr-1-2#2") else { panic!() };
    assert_eq!((r.base, t.base_label(r)), (1, "fr-1-2#2".to_string()));
    assert!(t.select("fr-1-2#1").is_err());
    assert_error(|v| v["units"][0]["bases"][1]["slot"] = json!(0), &["\"fr-1-2\" bases[1].slot", "increase"]);
    assert_error(|v| v["units"][0]["bases"][0]["slot"] = json!(3), &["\"fr-1-2\" bases[1].slot"]);
}

/// The valid table with a hill (terrain[2] "ridge", 400 x 200 from (500, 500)) whose
/// crest lines are `crests`.
fn with_hill_crests(v: &mut Value, crests: Value) {
    v["terrain"].as_array_mut().unwrap().push(json!({
        "id": "ridge", "kind": "hill", "level": 1,
        "outline": [[500, 500], [900, 500], [900, 700], [500, 700]],
        "crests": crests
    }));
}

#[test]
fn hand_drawn_crest_lines_load_and_round_trip() {
    // Issue 16, 004 §15.1: a crest may end on the outline, or half a millimetre off it.
    let mut v = valid();
    with_hill_crests(&mut v, json!([[[500, 600], [700, 640], [900.4, 600]], [[700, 500], [700, 700]]]));
    let t = Table::from_json_str(&v.to_string()).unwrap();
    assert_eq!(t.terrain[2].crests.len(), 2);
    assert_eq!(Table::from_json_str(&t.to_json_string()).unwrap(), t);
}

#[test]
fn malformed_crest_lines_name_the_hill_and_the_crest() {
    let at = "terrain[2] \"ridge\" crests[1]";
    assert_error(
        |v| with_hill_crests(v, json!([[[600, 600], [800, 600]], [[700, 600]]])),
        &[at, "at least two points", "got 1"],
    );
    assert_error(
        |v| with_hill_crests(v, json!([[[600, 600], [800, 600]], [[700, 600], [700, 600]]])),
        &[at, "two different points"],
    );
    assert_error(
        |v| with_hill_crests(v, json!([[[600, 600], [800, 600]], [[700, 600], [2e6, 600]]])),
        &[at, "finite numbers"],
    );
    assert_error(
        |v| with_hill_crests(v, json!([[[600, 600], [800, 600]], [[700, 600], [901, 600]]])),
        &[at, "(901, 600) lies outside the hill's outline", "1.0 mm"],
    );
    // Only a hill has crest lines.
    assert_error(
        |v| v["terrain"][0]["crests"] = json!([[[10, 10], [50, 10]]]),
        &["terrain[0] \"wood\" crests[0]", "only a hill"],
    );
    assert_error(
        |v| v["terrain"][1]["crests"] = json!([[[10, 100], [50, 100]]]),
        &["terrain[1] crests", "only a hill"],
    );
}
