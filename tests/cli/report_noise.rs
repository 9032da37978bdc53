//! Every report verdict survives scan noise (issue 16): a table whose every decision is
//! built with a clearance from its threshold far larger than the noise, reported on all
//! four rule sets, gives the same verdicts (every boolean, name, list and count of
//! `vedette report --json`; measured numbers aside) when the whole table is turned to any
//! heading and every base is moved by up to 0.1 mm and turned by up to 0.2°.
//!
//! The scene, hand-worked (medium scale unless Pro Patria, 28 mm; 1" = 25.4 mm):
//! - `fr-1` and `au-1`, three 30 x 20 bases each, head-on with 10 mm between their front
//!   edges: all-out (R5, Republic: 10 < 38.1 mm by 28 mm), primary (classic: 10 < 25
//!   mm by 15 mm), too close without contact (Pro Patria: 10 mm is 9.5 mm from touching
//!   and 15 mm inside the 25 mm no-approach distance); three-base faces, frontal.
//! - `fr-art` (one 25 x 40 gun, heavy) 400 mm to the right, facing `au-2` (one base)
//!   whose front edge is 140 mm (5.5") ahead: in arc with room to spare, range 12 mm from
//!   the 4-6" bracket's ends, nothing else within its 16" (406 mm) range by 40 mm or more.
//! - `fr-cav` (two 40 x 30 bases) 400 mm to the left with `au-3` 4" ahead: in its 6"
//!   reaction zone by 2", outside every assault zone (3" = 76.2 mm) by 25 mm.

use crate::common;
use proptest::prelude::*;
use serde_json::Value;
use vedette::commands::report::build;
use vedette_geometry::{
    ArtilleryWeight, Base, BaseSize, Formation, Pose, RuleSet, Scale, Table, Unit, UnitKind, Vec2,
};

fn base(x: f64, y: f64, h: f64, w: f64, d: f64) -> Base {
    Base::new(BaseSize::new(w, d), Pose::new(Vec2::new(x, y), h))
}

fn line(id: &str, side: &str, x0: f64, y: f64, h: f64, n: usize) -> Unit {
    let mut u = Unit::new(
        id,
        side,
        UnitKind::Infantry,
        (0..n).map(|i| base(x0 + 30.0 * i as f64, y, h, 30.0, 20.0)).collect(),
    );
    u.formation = Some(Formation::Line);
    u
}

fn scene(rules: RuleSet) -> Table {
    let mut gun = Unit::new("fr-art", "fr", UnitKind::Artillery, vec![base(400.0, -20.0, 90.0, 25.0, 40.0)]);
    gun.formation = Some(Formation::Unlimbered);
    gun.weight = Some(ArtilleryWeight::Heavy);
    let mut cav = Unit::new(
        "fr-cav",
        "fr",
        UnitKind::Cavalry,
        vec![base(-420.0, -15.0, 90.0, 40.0, 30.0), base(-380.0, -15.0, 90.0, 40.0, 30.0)],
    );
    cav.formation = Some(Formation::Line);
    Table::new(
        rules,
        if rules == RuleSet::ProPatria { Scale::Figures28mm } else { Scale::Medium },
        vec![
            line("fr-1", "fr", -30.0, -10.0, 90.0, 3),
            line("au-1", "au", -30.0, 20.0, 270.0, 3),
            gun,
            line("au-2", "au", 400.0, 150.0, 270.0, 1),
            cav,
            line("au-3", "au", -400.0, 4.0 * 25.4 + 10.0, 270.0, 1),
        ],
    )
}

/// Every verdict of the report: the JSON with its measured numbers (floats) removed, and
/// the verdicts' sentences (`words`, which say those numbers); names, booleans, lists and
/// whole-number counts stay.
fn verdicts(t: &Table) -> Value {
    fn strip(v: &mut Value) {
        match v {
            Value::Number(n) if n.is_f64() => *v = Value::Null,
            Value::Array(a) => a.iter_mut().for_each(strip),
            Value::Object(o) => {
                o.remove("words");
                o.values_mut().for_each(strip);
            }
            _ => {}
        }
    }
    let mut v = serde_json::to_value(build(t).unwrap_or_else(|e| panic!("{e}"))).unwrap();
    strip(&mut v);
    v
}

/// The table turned by `turn` degrees about the origin, moved to the table's middle, and
/// every base moved and turned by its noise.
fn placed(t: &Table, turn: f64, noise: &[(f64, f64, f64)]) -> Table {
    let mut t = t.clone();
    let mut k = 0;
    for u in &mut t.units {
        for b in &mut u.bases {
            let (dx, dy, dh) = noise[k % noise.len()];
            k += 1;
            let c = Vec2::new(900.0, 600.0) + b.centre().rotated_deg(turn) + Vec2::new(dx, dy);
            *b = base(c.x, c.y, b.heading_deg() + turn + dh, b.width(), b.depth());
        }
    }
    t
}

const RULE_SETS: [RuleSet; 4] =
    [RuleSet::Republique5, RuleSet::RepubliqueClassic, RuleSet::Republic, RuleSet::ProPatria];

#[test]
fn the_scene_says_what_was_worked_out_by_hand() {
    let r5 =
        serde_json::to_value(build(&placed(&scene(RuleSet::Republique5), 0.0, &[(0.0, 0.0, 0.0)])).unwrap())
            .unwrap();
    let entries = r5["assaults"]["entries"].as_array().unwrap();
    let e = entries.iter().find(|e| e["attacker"] == "fr-1" && e["defender"] == "au-1").unwrap();
    assert_eq!((e["range"].as_str(), e["aspect"].as_str()), (Some("all-out"), Some("front")));
    assert_eq!(e["contact_face"].as_array().unwrap().len(), 3);
    // No other assault than the head-on pair, both ways.
    assert_eq!(entries.len(), 2);
    let battery = &r5["artillery"][0];
    assert_eq!(battery["battery"], "fr-art");
    assert_eq!(battery["main_target"], "au-2", "{battery:#}");
    let reaction = &r5["command"]["cavalry_reaction"];
    assert_eq!(reaction[0]["unit"], "fr-cav");
    assert_eq!(reaction[0]["units"][0]["unit"], "au-3");
    let classic = verdicts(&scene(RuleSet::RepubliqueClassic));
    assert!(classic["assaults"]["entries"].as_array().unwrap().iter().all(|e| e["range"] == "primary"));
    let pp = serde_json::to_value(build(&scene(RuleSet::ProPatria)).unwrap()).unwrap();
    let p = &pp["pro_patria"]["proximity"][0];
    assert_eq!((p["in_contact"].as_bool(), p["too_close"].as_bool()), (Some(false), Some(true)));
}

proptest! {
    #![proptest_config(common::proptest_config(400, 1601))]

    #[test]
    fn every_verdict_survives_scan_noise_on_every_rule_set(
        turn in 0.0f64..360.0,
        rules in 0usize..4,
        noise in proptest::collection::vec((-0.1f64..0.1, -0.1f64..0.1, -0.2f64..0.2), 13),
    ) {
        let t = scene(RULE_SETS[rules]);
        let exact = verdicts(&placed(&t, 0.0, &[(0.0, 0.0, 0.0)]));
        prop_assert_eq!(verdicts(&placed(&t, turn, &noise)), exact);
    }
}
