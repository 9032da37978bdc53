//! Verbs check the kinds of the units they are given (issue 41 item 7): `bombard` and
//! `bounce` fire a battery, `explain` explains an assault only between units that take
//! part in assaults on opposite sides, and `move` follows one unit that keeps its side
//! and kind. Each used to answer with exit 0.

use crate::common;

use common::{sample, stderr, vedette};
use serde_json::Value;

fn refused(args: &[&str], needle: &str) {
    let o = vedette(args);
    assert_eq!(o.status.code(), Some(1), "{args:?}: {}", stderr(&o));
    assert!(stderr(&o).contains(needle), "{args:?}: {}", stderr(&o));
}

#[test]
fn bombard_and_bounce_take_a_battery() {
    let pp = sample("pro-patria-charge.json");
    let p = pp.to_str().unwrap();
    // An infantry battalion as the battery.
    refused(
        &["bombard", p, "fr-bn1", "--at", "500,500"],
        "\"fr-bn1\" is infantry, not artillery: the massed-battery bombardment (004 §19.6) is fired by artillery",
    );
    refused(
        &["bounce", p, "fr-bn1", "au-bn1", "--distance", "150"],
        "\"fr-bn1\" is infantry, not artillery: bounce-through (004 §17.3.9) is an artillery shot",
    );
    // The battery itself is answered.
    let o = vedette(&["bounce", p, "fr-art", "au-bn1", "--distance", "150"]);
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn explain_asks_for_an_assault_between_enemies_that_take_part_in_one() {
    let b = sample("brigade-attack.json");
    let p = b.to_str().unwrap();
    for (attacker, defender, needle) in [
        (
            "fr-ldr-1",
            "au-2",
            "\"fr-ldr-1\" is a leader: only infantry, cavalry and artillery take part in an assault, so none assaults",
        ),
        ("fr-lim-1", "au-2", "\"fr-lim-1\" is a limber"),
        (
            "fr-1-3",
            "au-ldr-1",
            "\"au-ldr-1\" is a leader: only infantry, cavalry and artillery take part in an assault, so none is assaulted",
        ),
        (
            "fr-1-3",
            "fr-1-1",
            "\"fr-1-3\" and \"fr-1-1\" are on the same side (france): an assault is made on an enemy",
        ),
    ] {
        refused(&["explain", p, attacker, defender], &format!("no assault to explain: {needle}"));
    }
    let o = vedette(&["explain", p, "fr-1-3", "au-2"]);
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn move_follows_one_unit_that_keeps_its_side_and_kind() {
    let dir = tempfile::tempdir().unwrap();
    let before = sample("brigade-attack.json");
    let mut t: Value = serde_json::from_str(&std::fs::read_to_string(&before).unwrap()).unwrap();
    let units = t["units"].as_array_mut().unwrap();
    let k = units.iter().position(|u| u["id"] == "fr-1-1").unwrap();
    for b in units[k]["bases"].as_array_mut().unwrap() {
        b["y"] = Value::from(b["y"].as_f64().unwrap() - 20.0);
    }
    let moved = dir.path().join("moved.json");
    std::fs::write(&moved, t.to_string()).unwrap();
    let o = vedette(&["move", before.to_str().unwrap(), moved.to_str().unwrap(), "fr-1-1"]);
    assert!(o.status.success(), "{}", stderr(&o));
    t["units"][k]["side"] = Value::from("austria");
    std::fs::write(&moved, t.to_string()).unwrap();
    refused(
        &["move", before.to_str().unwrap(), moved.to_str().unwrap(), "fr-1-1"],
        "the unit's side is \"france\" before and \"austria\" after; a move keeps its side (is it the same unit?)",
    );
    t["units"][k]["side"] = Value::from("france");
    t["units"][k]["kind"] = Value::from("cavalry");
    std::fs::write(&moved, t.to_string()).unwrap();
    refused(
        &["move", before.to_str().unwrap(), moved.to_str().unwrap(), "fr-1-1"],
        "the unit's kind is \"infantry\" before and \"cavalry\" after",
    );
}
