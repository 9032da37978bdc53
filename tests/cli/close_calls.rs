//! Close calls (issue 17, item 4): every threshold verdict of `report`, `measure` and
//! `los` carries its margin, and on a table whose bases carry `sigma_mm` it is "too
//! close to call" exactly when the deciding geometry lies within two combined sigmas of
//! the threshold, on either side. Each scene is worked out by hand below, and turned to
//! several headings about the table's middle (a turned table has the same margins).
//!
//! Sigmas are 0.3 mm on every base (no heading sigma), so two bases give a combined
//! sigma of √(0.3² + 0.3²) = 0.4243 mm and two sigmas 0.8485 mm: offsets of 0.5 mm from
//! a threshold are too close to call, offsets of 1.2 mm are certain.

use crate::common;
use common::scene::{base, check, table, turn};
use serde_json::{Value, json};
use vedette::commands::calls::CallEntry;
use vedette::commands::{los, measure, report};
use vedette_geometry::Table;

const SIGMA: f64 = 0.3;
const CLOSE: f64 = 0.5;
const CLEAR: f64 = 1.2;
const HEADINGS: [f64; 4] = [0.0, 37.0, 90.0, 211.0];
fn infantry(id: &str, side: &str, b: Value) -> Value {
    json!({ "id": id, "side": side, "kind": "infantry", "formation": "line", "bases": [b] })
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
        measure::run(
            &measure::Args {
                table: path,
                a: "a".into(),
                b: "d".into(),
                json: false,
                svg: None,
                photo: Default::default(),
            },
            &mut out,
        )
        .unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(text.contains("TOO CLOSE TO CALL"), !certain, "{text}");
    }
}

/// A terrain area `kind` with the rectangle x0..x1, y0..y1, turned by `deg`.
fn area(id: &str, kind: &str, (x0, y0, x1, y1): (f64, f64, f64, f64), deg: f64) -> Value {
    let outline: Vec<Value> = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
        .iter()
        .map(|&(x, y)| {
            let (x, y) = turn(x, y, deg);
            json!([x, y])
        })
        .collect();
    json!({ "id": id, "kind": kind, "level": 0, "outline": outline })
}

/// Spotter base (40 x 20) facing +y with its front edge x 880..920 at y = 410; target
/// base x 880..920, y 690..710; a heavy forest across the line of sight from x = 0 to
/// `wood_right`, y 500..600.
fn sight_scene(wood_right: f64, deg: f64) -> Table {
    table(
        vec![
            infantry("s", "one", base(900.0, 400.0, 90.0, 40.0, 20.0, deg, Some(SIGMA))),
            infantry("t", "two", base(900.0, 700.0, 270.0, 40.0, 20.0, deg, Some(SIGMA))),
        ],
        vec![area("wood", "heavy-forest", (0.0, 500.0, wood_right, 600.0), deg)],
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

/// Offsets from a command threshold: (offset mm, inside, certain). Inside includes
/// exactly at the limit (000: "within"); two sigma is 0.8485 mm.
const COMMAND_OFFSETS: [(f64, bool, bool); 4] =
    [(-CLOSE, true, false), (CLOSE, false, false), (-CLEAR, true, true), (CLEAR, false, true)];

fn unit(id: &str, side: &str, kind: &str, extra: Value, b: Value) -> Value {
    let mut u = json!({ "id": id, "side": side, "kind": kind, "bases": [b] });
    if let (Some(u), Some(e)) = (u.as_object_mut(), extra.as_object()) {
        u.extend(e.clone());
    }
    u
}

/// A division leader (25 x 30 base, centre (900, 500), facing +y: front edge y = 515)
/// and a regiment of its division whose rear edge is `gap` mm ahead of it (40 x 20 base,
/// straight ahead: the closest points are the two edges' middles).
fn leader_scene(gap: f64, deg: f64, sigma: Option<f64>) -> Table {
    table(
        vec![
            unit(
                "l",
                "one",
                "leader",
                json!({ "role": "division", "division": "d" }),
                base(900.0, 500.0, 90.0, 25.0, 30.0, deg, sigma),
            ),
            unit(
                "r",
                "one",
                "infantry",
                json!({ "formation": "line", "division": "d" }),
                base(900.0, 515.0 + gap + 10.0, 90.0, 40.0, 20.0, deg, sigma),
            ),
        ],
        vec![],
    )
}

fn check_limit(call: &CallEntry, limit: f64, offset: f64, certain: bool, what: &str) {
    assert!(call.limit_mm.is_some_and(|l| (l - limit).abs() < 1e-6), "{what}: {call:?}");
    check(call, offset.abs(), 1e-6, certain, what);
}

#[test]
fn leader_reach_just_inside_and_just_outside_three_inches() {
    // 000 §4.7, §5.4: friendly units within 3" (76.2 mm) of an E/P leader. A unit just
    // outside stays out of `units`, but a scanned table lists it among the calls when it
    // is too close to call; a typed table never does.
    for deg in HEADINGS {
        for (offset, inside, certain) in COMMAND_OFFSETS {
            let what = format!("offset {offset} at {deg}°");
            let r = report::build(&leader_scene(76.2 + offset, deg, Some(SIGMA))).unwrap();
            let reach = &r.command.leaders[0].reaches[0];
            assert_eq!(reach.units.contains(&"r".to_string()), inside, "{what}");
            let call = reach.calls.iter().find(|c| c.unit == "r");
            if inside || !certain {
                let c = call.unwrap_or_else(|| panic!("{what}: {:?}", reach.calls));
                assert_eq!(c.inside, inside, "{what}");
                check_limit(&c.call, 76.2, offset, certain, &what);
            } else {
                assert!(call.is_none(), "{what}: a unit clear of the reach is not listed");
            }
            let text = report::render_text(&r);
            assert_eq!(text.contains("Command close calls"), !certain, "{what}:\n{text}");
        }
        // Typed: 0.1 mm outside is simply outside.
        let r = report::build(&leader_scene(76.2 + 0.1, deg, None)).unwrap();
        assert!(r.command.leaders[0].reaches[0].calls.is_empty());
    }
}

#[test]
fn rally_penalty_step_at_eight_inches() {
    // 000 §2.3: one point per full 4" beyond 4": 0 below 8" (203.2 mm), 1 from 8".
    for deg in HEADINGS {
        for (offset, inside, certain) in COMMAND_OFFSETS {
            let what = format!("offset {offset} at {deg}°");
            let r = report::build(&leader_scene(203.2 + offset, deg, Some(SIGMA))).unwrap();
            let rally = &r.command.divisions[0].rally[0];
            assert_eq!(rally.penalty, u32::from(!inside), "{what}");
            check_limit(&rally.call, 203.2, offset, certain, &what);
        }
    }
}

#[test]
fn corps_leader_twelve_inches_and_engagement_eight_inches() {
    // 000 §3.3: the corps leader beyond 12" (304.8 mm); the division in engagement range
    // when an enemy is within 8" (203.2 mm). The corps leader's front edge (25 x 30)
    // stands 304.8 + offset mm behind the division leader's rear edge (y = 485); an
    // enemy regiment's front edge stands 203.2 + offset mm beyond the division's
    // regiment's front edge (y = 510).
    for deg in HEADINGS {
        for (offset, inside, certain) in COMMAND_OFFSETS {
            let what = format!("offset {offset} at {deg}°");
            let corps = table(
                vec![
                    unit(
                        "l",
                        "one",
                        "leader",
                        json!({ "role": "division", "division": "d", "corps": "c" }),
                        base(900.0, 500.0, 90.0, 25.0, 30.0, deg, Some(SIGMA)),
                    ),
                    unit(
                        "k",
                        "one",
                        "leader",
                        json!({ "role": "corps", "corps": "c" }),
                        base(900.0, 500.0 - 30.0 - (304.8 + offset), 90.0, 25.0, 30.0, deg, Some(SIGMA)),
                    ),
                ],
                vec![],
            );
            let r = report::build(&corps).unwrap();
            let d = &r.command.divisions[0];
            assert_eq!(d.corps_leader_beyond_12in, !inside, "{what}");
            check_limit(d.corps_leader_call.as_ref().unwrap(), 304.8, offset, certain, &what);

            let units = vec![
                unit(
                    "l",
                    "one",
                    "leader",
                    json!({ "role": "division", "division": "d" }),
                    base(900.0, 400.0, 90.0, 25.0, 30.0, deg, Some(SIGMA)),
                ),
                unit(
                    "r",
                    "one",
                    "infantry",
                    json!({ "formation": "line", "division": "d" }),
                    base(900.0, 500.0, 90.0, 40.0, 20.0, deg, Some(SIGMA)),
                ),
                unit(
                    "e",
                    "two",
                    "infantry",
                    json!({ "formation": "line" }),
                    base(900.0, 520.0 + 203.2 + offset, 270.0, 40.0, 20.0, deg, Some(SIGMA)),
                ),
            ];
            let r = report::build(&table(units, vec![])).unwrap();
            let d = &r.command.divisions[0];
            assert_eq!(d.engaged, inside, "{what}");
            match &d.engagement_call {
                Some(c) => check_limit(c, 203.2, offset, certain, &what),
                None => assert!(certain && !inside, "{what}: an enemy too close to call is reported"),
            }
        }
    }
}

#[test]
fn divisions_together_at_six_inches_and_adjoining_at_three() {
    // 000 §3.3 (6" = 152.4 mm: together) and §6.2 (3" = 76.2 mm: adjoining, in sight on
    // this open table). Two regiments side by side facing +y, `gap` mm between their
    // flanks.
    for deg in HEADINGS {
        for (limit, adjoining_limit) in [(152.4, false), (76.2, true)] {
            for (offset, inside, certain) in COMMAND_OFFSETS {
                let what = format!("limit {limit} offset {offset} at {deg}°");
                let gap = limit + offset;
                let t = table(
                    vec![
                        unit(
                            "a",
                            "one",
                            "infantry",
                            json!({ "formation": "line", "division": "d1" }),
                            base(900.0, 500.0, 90.0, 40.0, 20.0, deg, Some(SIGMA)),
                        ),
                        unit(
                            "b",
                            "one",
                            "infantry",
                            json!({ "formation": "line", "division": "d2" }),
                            base(940.0 + gap, 500.0, 90.0, 40.0, 20.0, deg, Some(SIGMA)),
                        ),
                    ],
                    vec![],
                );
                let r = report::build(&t).unwrap();
                let pair = r.command.division_pairs.first();
                if adjoining_limit {
                    let p = pair.unwrap();
                    assert!(p.together, "{what}");
                    assert_eq!(p.adjoining, inside, "{what}");
                    check_limit(p.adjoining_call.as_ref().unwrap(), 76.2, offset, certain, &what);
                } else if inside || !certain {
                    let p = pair.unwrap_or_else(|| panic!("{what}: pair missing"));
                    assert_eq!(p.together, inside, "{what}");
                    assert!(!p.adjoining, "{what}");
                    check_limit(p.together_call.as_ref().unwrap(), 152.4, offset, certain, &what);
                } else {
                    assert!(pair.is_none(), "{what}");
                }
            }
        }
    }
}

#[test]
fn cavalry_reaction_and_pass_through_zones() {
    // 000 §3.6: an enemy within 6" (152.4 mm) of a cavalry unit's front, seen; 000 §5.5:
    // a friend within 3" (76.2 mm) to an infantry loser's rear, wholly between its rear
    // lines (same width, straight behind).
    for deg in HEADINGS {
        for (offset, inside, certain) in COMMAND_OFFSETS {
            let what = format!("offset {offset} at {deg}°");
            let t = table(
                vec![
                    unit(
                        "c",
                        "one",
                        "cavalry",
                        json!({ "formation": "line" }),
                        base(900.0, 500.0, 90.0, 40.0, 30.0, deg, Some(SIGMA)),
                    ),
                    unit(
                        "e",
                        "two",
                        "infantry",
                        json!({ "formation": "line" }),
                        base(900.0, 515.0 + 152.4 + offset + 10.0, 270.0, 40.0, 20.0, deg, Some(SIGMA)),
                    ),
                    unit(
                        "i",
                        "one",
                        "infantry",
                        json!({ "formation": "line" }),
                        base(400.0, 500.0, 90.0, 40.0, 20.0, deg, Some(SIGMA)),
                    ),
                    unit(
                        "f",
                        "one",
                        "infantry",
                        json!({ "formation": "line" }),
                        base(400.0, 490.0 - (76.2 + offset) - 10.0, 90.0, 40.0, 20.0, deg, Some(SIGMA)),
                    ),
                ],
                vec![],
            );
            let r = report::build(&t).unwrap();
            for (zones, owner, other, limit) in
                [(&r.command.cavalry_reaction, "c", "e", 152.4), (&r.command.pass_through, "i", "f", 76.2)]
            {
                let z = zones.iter().find(|z| z.unit == owner);
                let c = z.and_then(|z| z.calls.iter().find(|c| c.unit == other));
                assert_eq!(
                    z.is_some_and(|z| z.units.iter().any(|u| u.unit == other)),
                    inside,
                    "{owner} {what}"
                );
                if inside || !certain {
                    let c = c.unwrap_or_else(|| panic!("{owner} {what}: {zones:?}"));
                    assert_eq!(c.inside, inside);
                    check_limit(&c.call, limit, offset, certain, &format!("{owner} {what}"));
                } else {
                    assert!(c.is_none(), "{owner} {what}");
                }
            }
        }
    }
}

/// One defender base (40 x 20, centre (900, 600), facing +y: its flank line is its rear
/// edge y = 590, its rear zone x 880-920 behind y = 590) and one attacker base.
fn aspect_scene(attacker: Value, deg: f64) -> Table {
    table(
        vec![infantry("d", "two", base(900.0, 600.0, 90.0, 40.0, 20.0, deg, Some(SIGMA))), attacker],
        vec![],
    )
}

fn aspect_of(t: &Table) -> (String, CallEntry) {
    let r = report::build(t).unwrap();
    let e = r.assaults.entries.iter().find(|e| e.attacker == "a" && e.defender == "d").unwrap();
    (serde_json::to_value(e.aspect).unwrap().as_str().unwrap().to_string(), e.aspect_call.clone().unwrap())
}

#[test]
fn flank_line_and_rear_zone_just_either_side() {
    // 000 §5.1 "Flank and Rear Examples": past the flank line (the rear edge of the front
    // bases, run on parallel to the front) strikes the flank; inside the rear zone (between
    // the lines run rearward from the outer rear corners) the rear.
    for deg in HEADINGS {
        for (offset, _, certain) in COMMAND_OFFSETS {
            let what = format!("offset {offset} at {deg}°");
            // Flank: an attacker facing +x, front edge 2 mm from the defender's left edge,
            // its lower edge `offset` mm behind the flank line (y-span 590 - offset to
            // 630 - offset).
            let t = aspect_scene(
                infantry("a", "one", base(868.0, 610.0 - offset, 0.0, 40.0, 20.0, deg, Some(SIGMA))),
                deg,
            );
            let (aspect, call) = aspect_of(&t);
            assert_eq!(aspect, if offset > 0.0 { "flank" } else { "front" }, "flank line, {what}");
            assert_eq!(call.limit_mm, None);
            check(&call, offset.abs(), 1e-6, certain, &format!("flank line, {what}"));
            // Rear: an attacker turned 45°, well behind the flank line, whose front-right
            // corner (centre + 10 forward + 20 right: x + 21.213, y - 7.071) lies `offset`
            // mm past the left rear line x = 880.
            let c = 20.0 * std::f64::consts::FRAC_1_SQRT_2 + 10.0 * std::f64::consts::FRAC_1_SQRT_2;
            let t = aspect_scene(
                infantry("a", "one", base(880.0 + offset - c, 570.0, 45.0, 40.0, 20.0, deg, Some(SIGMA))),
                deg,
            );
            let (aspect, call) = aspect_of(&t);
            assert_eq!(aspect, if offset > 0.0 { "rear" } else { "flank" }, "rear line, {what}");
            check(&call, offset.abs(), 1e-6, certain, &format!("rear line, {what}"));
        }
    }
}

#[test]
fn cover_class_half_in_a_wood_either_side() {
    // 000 §5.4: a unit is in cover when half or more of its bases are each half or more
    // within it. The defender (one 40 x 20 base, x 880..920, y 590..610, facing the
    // attacker 20 mm below it: all-out) stands across the left edge of a medium forest
    // at x = 900 - offset: inside (920 - x0) / 40 of it, in Medium cover when offset > 0.
    // The wood's edge crosses the base over its 20 mm depth, so the margin is
    // |f - ½| · 800 / 20 = |offset| mm; one party (sigma 0.3 mm): two sigma 0.6 mm.
    for deg in HEADINGS {
        for (offset, _, certain) in COMMAND_OFFSETS {
            let what = format!("offset {offset} at {deg}°");
            let x0 = 900.0 - offset;
            let wood = area("wood", "medium-forest", (x0, 580.0, 1400.0, 900.0), deg);
            let t = table(
                vec![
                    infantry("a", "one", base(900.0, 560.0, 90.0, 40.0, 20.0, deg, Some(SIGMA))),
                    infantry("d", "two", base(900.0, 600.0, 270.0, 40.0, 20.0, deg, Some(SIGMA))),
                ],
                vec![wood],
            );
            let r = report::build(&t).unwrap();
            let e = r.assaults.entries.iter().find(|e| e.attacker == "a" && e.defender == "d").unwrap();
            assert_eq!(e.defender_cover.is_some(), offset > 0.0, "{what}");
            let call = e.defender_cover_call.as_ref().unwrap();
            check(call, offset.abs(), 1e-6, certain, &format!("defender cover, {what}"));
            assert!((call.sigma_mm.unwrap() - SIGMA).abs() < 1e-9, "{what}");
            // The attacker stands wholly outside, 10 mm short of the wood: at least 10 mm
            // plus half its 20 mm depth.
            check(e.attacker_cover_call.as_ref().unwrap(), 20.0, 1e-6, true, &format!("attacker, {what}"));
        }
    }
}

#[test]
fn battery_frontage_just_inside_and_outside_the_enfilade_zone() {
    // 000 §4.4: the battery's whole frontage within the target's enfilade zone: the arc
    // (sides 30° out) laid on the target's flank edge nearest the battery. The target (40
    // x 20, facing +y) has its left flank edge x = 880, y 590..610. A heavy battery (25 x
    // 40, normal frontage 50 mm) facing +x with its frontage at x = 880 - D, y 575..625:
    // its lower end's distance to the zone's lower side (through (880, 590), running out
    // at 30° below -x) is 15 cos 30° - D sin 30°, zero at D0 = 15 / tan 30° = 25.98 mm.
    // D = D0 + 2·offset puts both ends |offset| mm from the sides: inside for offset > 0.
    let d0 = 15.0 / 30f64.to_radians().tan();
    for deg in HEADINGS {
        for (offset, _, certain) in COMMAND_OFFSETS {
            let what = format!("offset {offset} at {deg}°");
            let x = 880.0 - (d0 + 2.0 * offset) - 20.0;
            let battery = json!({ "id": "gun", "side": "one", "kind": "artillery", "formation": "unlimbered",
                "weight": "heavy", "bases": [base(x, 600.0, 0.0, 25.0, 40.0, deg, Some(SIGMA))] });
            let t = table(
                vec![battery, infantry("t", "two", base(900.0, 600.0, 90.0, 40.0, 20.0, deg, Some(SIGMA)))],
                vec![],
            );
            let r = report::build(&t).unwrap();
            let batteries = r.artillery.as_ref().unwrap();
            let target = batteries[0].targets.iter().find(|e| e.unit == "t").unwrap();
            assert_eq!(target.enfilade, offset > 0.0, "{what}");
            check(target.enfilade_call.as_ref().unwrap(), offset.abs(), 1e-6, certain, &what);
        }
    }
}

fn pro_patria_table(units: Vec<Value>) -> Table {
    let t = json!({
        "schema": "vedette/table/1", "rules": "pro-patria", "scale": "28mm",
        "size": { "width": 1800.0, "depth": 1200.0 }, "units": units,
    });
    Table::from_json_str(&t.to_string()).unwrap()
}

#[test]
fn pro_patria_contact_and_command_radius_either_side() {
    // 004 §17.4.2: in contact with 30 mm or more of edge contact. Two 60 x 20 stands front
    // edge to front edge (y = 510), the second slid sideways so that 30 + offset mm of
    // their edges lie against each other: one pair of stands, margin |offset|.
    // 004 §14.2: a general's command radius of 400 mm; a battalion of its division 400 +
    // offset mm beyond the general's front edge.
    for deg in HEADINGS {
        for (offset, inside, certain) in COMMAND_OFFSETS {
            let what = format!("offset {offset} at {deg}°");
            let c = 30.0 + offset;
            let t = pro_patria_table(vec![
                infantry("a", "one", base(900.0, 500.0, 90.0, 60.0, 20.0, deg, Some(SIGMA))),
                infantry("b", "two", base(960.0 - c, 520.0, 270.0, 60.0, 20.0, deg, Some(SIGMA))),
            ]);
            let r = report::build(&t).unwrap();
            let p = &r.pro_patria.as_ref().unwrap().proximity[0];
            // Contact needs 30 mm or more: `inside` here is "short of it".
            assert_eq!(p.in_contact, !inside, "contact, {what}");
            check_limit(&p.contact_call, 30.0, offset, certain, &format!("contact, {what}"));

            let t = pro_patria_table(vec![
                unit(
                    "g",
                    "one",
                    "leader",
                    json!({ "role": "division", "division": "d" }),
                    base(900.0, 500.0, 90.0, 40.0, 40.0, deg, Some(SIGMA)),
                ),
                unit(
                    "u",
                    "one",
                    "infantry",
                    json!({ "formation": "line", "division": "d" }),
                    base(900.0, 520.0 + 400.0 + offset + 10.0, 90.0, 60.0, 20.0, deg, Some(SIGMA)),
                ),
            ]);
            let r = report::build(&t).unwrap();
            let c = &r.pro_patria.as_ref().unwrap().command[0];
            assert_eq!(c.in_command, inside, "command, {what}");
            check_limit(&c.call, 400.0, offset, certain, &format!("command, {what}"));
        }
    }
}

#[test]
fn an_asset_just_inside_and_just_outside_its_deployment_area() {
    // 000 §2.1: the area lies 3" (76.2 mm) from the primary units' base edges. One
    // regiment (30 x 20, front edge y = 510) draws it: straight ahead its boundary is
    // y = 586.2 between x 885 and 915. An attached battery (20 x 20, x 890..910) whose far
    // edge is at 586.2 + offset is wholly inside for offset < 0, |offset| from flipping;
    // one party, two sigma 0.6 mm.
    for deg in HEADINGS {
        for (offset, inside, certain) in COMMAND_OFFSETS {
            let what = format!("offset {offset} at {deg}°");
            let t = table(
                vec![
                    unit(
                        "r",
                        "one",
                        "infantry",
                        json!({ "formation": "line", "division": "d" }),
                        base(900.0, 500.0, 90.0, 30.0, 20.0, deg, Some(SIGMA)),
                    ),
                    unit(
                        "g",
                        "one",
                        "artillery",
                        json!({ "formation": "unlimbered", "division": "d", "weight": "heavy" }),
                        base(900.0, 586.2 + offset - 10.0, 90.0, 20.0, 20.0, deg, Some(SIGMA)),
                    ),
                ],
                vec![],
            );
            let r = report::build(&t).unwrap();
            let a = &r.command.divisions[0].assets[0];
            assert_eq!(a.inside, inside, "{what}");
            let c = a.call.as_ref().unwrap();
            check(c, offset.abs(), 1e-6, certain, &what);
            assert!((c.sigma_mm.unwrap() - SIGMA).abs() < 1e-9);
        }
    }
}

#[test]
fn artillery_target_half_in_a_wood_either_side() {
    // 000 §4.3: "half or more of the visible portions of the target unit ... within or
    // behind medium or heavy cover". A heavy battery (front edge y = 520) fires up +y at
    // one 40 x 20 base (x 880..920, y 690..710) straddling the left edge of a medium
    // forest at x = 900 - offset (y 680..900): half or more of it inside when offset >
    // 0, |offset| from flipping (the edge crosses its 20 mm depth: |f - 1/2|·800/20).
    for deg in HEADINGS {
        for (offset, _, certain) in COMMAND_OFFSETS {
            let what = format!("offset {offset} at {deg}°");
            let x0 = 900.0 - offset;
            let wood = area("wood", "medium-forest", (x0, 680.0, 1400.0, 900.0), deg);
            let battery = json!({ "id": "gun", "side": "one", "kind": "artillery", "formation": "unlimbered",
                "weight": "heavy", "bases": [base(900.0, 500.0, 90.0, 25.0, 40.0, deg, Some(SIGMA))] });
            let t = table(
                vec![battery, infantry("t", "two", base(900.0, 700.0, 270.0, 40.0, 20.0, deg, Some(SIGMA)))],
                vec![wood],
            );
            let r = report::build(&t).unwrap();
            let b = &r.artillery.as_ref().unwrap()[0];
            let cover = b.target_cover.as_ref().unwrap_or_else(|| panic!("{what}: no main target: {b:?}"));
            assert_eq!(cover.class.is_some(), offset > 0.0, "{what}: {cover:?}");
            check(cover.call.as_ref().unwrap(), offset.abs(), 1e-6, certain, &what);
        }
    }
}
