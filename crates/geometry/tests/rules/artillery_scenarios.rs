//! Hand-worked artillery scenarios (issue 4), one module per construction. Every expected
//! answer is worked out from the rule text in the comments; each threshold has a case
//! just inside and one just outside it.
//!
//! Unless a test says otherwise: Republique 5.0 at medium scale (1 rule inch = 25.4 mm),
//! France on the French system, Austria on the Prussian one. The French battery "gun"
//! is a 25 x 40 mm base centred on the origin facing +y (heading 90): its front edge runs
//! from (-12.5, 20) to (12.5, 20); at normal frontage the frontage runs from A = (-25, 20)
//! to B = (25, 20) and its middle, where the centre of fire starts, is M = (0, 20).
//! Infantry bases are 30 x 20 mm.

use serde_json::{Value, json};
use vedette_geometry::sight::FullVisibility;
use vedette_geometry::{
    ArtilleryRules, BaseRef, BatteryAssessment, Battlefield, DeepReason, EnfiladeVerdict, FlankSide,
    FrontageMode, FrontageSource, GeometryError, SpatialIndex, StandingExposure, Table, TerrainOutlines,
    UnitsOnly, Vec2, assess_battery, assess_targets, range_bracket,
};

const IN: f64 = 25.4;

fn base(x: f64, y: f64, heading: f64, w: f64, d: f64) -> Value {
    json!({"x": x, "y": y, "heading": heading, "width": w, "depth": d})
}

/// A 30 x 20 infantry base.
fn inf(x: f64, y: f64, heading: f64) -> Value {
    base(x, y, heading, 30.0, 20.0)
}

fn unit(id: &str, side: &str, kind: &str, formation: Option<&str>, bases: Vec<Value>) -> Value {
    let mut u = json!({"id": id, "side": side, "kind": kind, "bases": bases});
    if let Some(f) = formation {
        u["formation"] = json!(f);
    }
    u
}

/// The French battery at the origin facing +y, with extra fields.
fn gun_with(extra: Value) -> Value {
    let mut u =
        unit("gun", "france", "artillery", Some("unlimbered"), vec![base(0.0, 0.0, 90.0, 25.0, 40.0)]);
    if let (Some(obj), Some(more)) = (u.as_object_mut(), extra.as_object()) {
        for (k, v) in more {
            obj.insert(k.clone(), v.clone());
        }
    }
    u
}

fn gun() -> Value {
    gun_with(json!({}))
}

/// An Austrian infantry unit facing the battery (-y), bases given by centre.
fn foe(id: &str, centres: &[(f64, f64)]) -> Value {
    unit(id, "austria", "infantry", Some("line"), centres.iter().map(|&(x, y)| inf(x, y, 270.0)).collect())
}

fn table_from(top: Value, units: Vec<Value>) -> Table {
    let mut t = json!({
        "schema": "vedette/table/1", "rules": "republique5", "scale": "medium",
        "sides": {"france": {"system": "french"}, "austria": {"system": "prussian"}},
        "units": units,
    });
    if let (Some(obj), Some(more)) = (t.as_object_mut(), top.as_object()) {
        for (k, v) in more {
            obj.insert(k.clone(), v.clone());
        }
    }
    Table::from_json_str(&t.to_string()).unwrap_or_else(|e| panic!("{e}"))
}

fn table(units: Vec<Value>) -> Table {
    table_from(json!({}), units)
}

fn assess(t: &Table, battery: &str) -> BatteryAssessment {
    let index = SpatialIndex::new(t);
    let rules = ArtilleryRules::for_table(t).unwrap();
    let los = UnitsOnly::new(&index);
    let field =
        Battlefield { table: t, index: &index, rules: &rules, line_of_sight: &los, ground: &TerrainOutlines };
    let u = t.unit_index(battery).unwrap();
    assess_battery(&field, BaseRef::new(u, 0)).unwrap()
}

fn id_of(t: &Table, unit: usize) -> &str {
    &t.units[unit].id
}

fn main_id(t: &Table, a: &BatteryAssessment) -> Option<String> {
    a.main.as_ref().map(|m| id_of(t, m.unit).to_string())
}

fn target<'a>(t: &Table, a: &'a BatteryAssessment, id: &str) -> &'a vedette_geometry::TargetAssessment {
    a.targets.iter().find(|x| id_of(t, x.unit) == id).unwrap_or_else(|| panic!("{id} is not a candidate"))
}

fn labels(t: &Table, refs: &[BaseRef]) -> Vec<String> {
    refs.iter().map(|&r| t.base_label(r)).collect()
}

mod frontage {
    use super::*;

    // 000 §1.4: "at normal frontage, a battery maintains an open space to both sides
    // equal to half its base width". The gun is 25 mm wide: 12.5 mm each side, so the
    // right strip spans x 12.5..25 and the left one x -25..-12.5, both y -20..20.

    #[test]
    fn just_enough_space_is_normal_frontage() {
        // Infantry centred at x = ±40 spans 25..55 and -55..-25: touching the strips'
        // outer edges, leaving exactly half a base width free each side.
        let t = table(vec![
            gun(),
            unit("r", "france", "infantry", Some("line"), vec![inf(40.0, 0.0, 90.0)]),
            unit("l", "france", "infantry", Some("line"), vec![inf(-40.0, 0.0, 90.0)]),
        ]);
        let a = assess(&t, "gun");
        let f = &a.battery.frontage;
        assert_eq!((f.mode, f.source), (FrontageMode::Normal, FrontageSource::FreeSpace));
        assert!(f.crowded_by.is_empty());
        // Normal frontage: double the base width, centred: (-25, 20) to (25, 20).
        assert!((f.edge.a - Vec2::new(-25.0, 20.0)).length() < 1e-9);
        assert!((f.edge.b - Vec2::new(25.0, 20.0)).length() < 1e-9);
    }

    #[test]
    fn half_a_millimetre_less_is_packed() {
        // Centred at x = 39.5 the right neighbour spans 24.5..54.5: 0.5 mm into the strip.
        let t = table(vec![gun(), unit("r", "france", "infantry", Some("line"), vec![inf(39.5, 0.0, 90.0)])]);
        let a = assess(&t, "gun");
        let f = &a.battery.frontage;
        assert_eq!((f.mode, f.source), (FrontageMode::Packed, FrontageSource::FreeSpace));
        assert_eq!(labels(&t, &f.crowded_by), vec!["r#0"]);
        // Packed frontage is the base's own front edge.
        assert!((f.edge.a - Vec2::new(-12.5, 20.0)).length() < 1e-9);
        assert!((f.edge.length() - 25.0).abs() < 1e-9);
    }

    #[test]
    fn what_crowds_and_what_does_not() {
        // The battery's own limber in the strip, a morale cube beside it and a base just
        // ahead of the strip (its rear edge at y = 20.5, past the gun's front edge) leave
        // the frontage normal; an enemy base in the strip packs it.
        let limber = json!({"id": "lim", "side": "france", "kind": "limber", "parent": "gun",
            "bases": [base(30.0, -5.0, 90.0, 25.0, 25.0)]});
        let ahead = unit("ahead", "france", "infantry", Some("line"), vec![inf(-30.0, 30.5, 90.0)]);
        let mut cube = table(vec![gun(), limber.clone(), ahead.clone()]);
        cube.markers.push(vedette_geometry::Marker {
            kind: vedette_geometry::MarkerKind::Morale,
            colour: Some(vedette_geometry::MarkerColour::White),
            x: -18.0,
            y: 0.0,
            unit: Some("gun".to_string()),
            size: None,
            sigma_mm: None,
        });
        assert_eq!(assess(&cube, "gun").battery.frontage.mode, FrontageMode::Normal);
        let enemy = unit("e", "austria", "infantry", Some("line"), vec![inf(-30.0, 0.0, 270.0)]);
        let t = table(vec![gun(), limber, ahead, enemy]);
        let f = assess(&t, "gun").battery.frontage;
        assert_eq!(f.mode, FrontageMode::Packed);
        assert_eq!(labels(&t, &f.crowded_by), vec!["e#0"]);
    }

    #[test]
    fn the_table_can_force_either_mode() {
        let t = table(vec![gun_with(json!({"frontage": "packed"}))]);
        let f = assess(&t, "gun").battery.frontage;
        assert_eq!((f.mode, f.source), (FrontageMode::Packed, FrontageSource::Table));
        let t = table(vec![
            gun_with(json!({"frontage": "normal"})),
            unit("r", "france", "infantry", Some("line"), vec![inf(30.0, 0.0, 90.0)]),
        ]);
        let f = assess(&t, "gun").battery.frontage;
        assert_eq!((f.mode, f.source), (FrontageMode::Normal, FrontageSource::Table));
        assert_eq!(labels(&t, &f.crowded_by), vec!["r#0"]);
    }
}

mod arc_of_fire {
    use super::*;

    // 000 §4.5: "Half or more of one of a formations bases must lie within a battery's
    // arc-of-fire". The right side of the arc leaves B = (25, 20) turned 30° right of
    // ahead, so at height y it runs through x_r(y) = 25 + (y - 20) tan 30°. A 30 x 20
    // base facing -y centred at (x_c, 150) spans y 140..160; the side ray moves only
    // ±10 tan 30° = ±5.77 mm across it, so the part inside (x <= x_r) has area
    // 20 * (x_r(150) - (x_c - 15)) and the fraction inside is (x_r(150) - x_c + 15) / 30.
    // x_r(150) = 25 + 130 tan 30° = 100.0555 mm. Centred 0.3 mm inside the ray the base
    // is (15.3 / 30) = 51% inside; 0.3 mm outside, 49%.

    fn x_r(y: f64) -> f64 {
        25.0 + (y - 20.0) * 30f64.to_radians().tan()
    }

    #[test]
    fn fifty_one_percent_qualifies_forty_nine_does_not() {
        for (dx, fraction, valid) in [(-0.3, 0.51, true), (0.3, 0.49, false)] {
            let t = table(vec![gun(), foe("f", &[(x_r(150.0) + dx, 150.0)])]);
            let a = assess(&t, "gun");
            let f = target(&t, &a, "f");
            assert!((f.arc_fraction - fraction).abs() < 1e-9, "{} vs {fraction}", f.arc_fraction);
            assert_eq!(f.half_base_in_arc, valid);
            // In range (about 4.7"), in sight, and a clear zone swung 25° right reaches it
            // (its right side then runs along the arc's), so validity is the arc's call.
            assert!(f.line_of_sight && f.zone_clear);
            assert_eq!(f.is_valid(), valid);
            assert_eq!(main_id(&t, &a).is_some(), valid);
        }
    }

    #[test]
    fn exactly_half_is_half_or_more() {
        // Centred on the ray: exactly half inside.
        let t = table(vec![gun(), foe("f", &[(x_r(150.0), 150.0)])]);
        let a = assess(&t, "gun");
        let f = target(&t, &a, "f");
        assert!((f.arc_fraction - 0.5).abs() < 1e-12);
        assert!(f.half_base_in_arc);
    }

    #[test]
    fn packed_frontage_narrows_the_arc() {
        // At packed frontage the ray leaves (12.5, 20) instead, 12.5 mm further left. The
        // 51% base above keeps x >= x_r(150) - 15.3, so the part inside is
        // x_r(y) - 12.5 - (x_r(150) - 15.3) = 2.8 + (y - 150) tan 30° wide: zero 4.85 mm
        // below the base's centre line, 2.8 + 10 tan 30° = 8.57 mm at its far edge. That
        // is a triangle of area 8.57² / (2 tan 30°) = 63.66 mm², 10.6% of the base.
        let t = table(vec![gun_with(json!({"frontage": "packed"})), foe("f", &[(x_r(150.0) - 0.3, 150.0)])]);
        let a = assess(&t, "gun");
        let f = target(&t, &a, "f");
        let tan30 = 30f64.to_radians().tan();
        let area = (2.8 + 10.0 * tan30).powi(2) / (2.0 * tan30);
        assert!((area - 63.66).abs() < 0.01);
        assert!((f.arc_fraction - area / 600.0).abs() < 1e-9, "{}", f.arc_fraction);
        assert!(!f.half_base_in_arc);
    }
}

mod range {
    use super::*;

    // Range is the shortest distance from the frontage (y = 20, x -25..25) to the target's
    // part inside the arc. A base facing -y centred at (0, 20 + r + 10) has its near edge
    // r mm ahead of the frontage. Brackets are 2" wide and named by their far edge (000
    // §4.3: "the first or second range bracket (2" or 4")"), so a range exactly on an edge
    // belongs to the nearer bracket.

    fn at(r_mm: f64) -> Table {
        table(vec![gun(), foe("f", &[(0.0, 20.0 + r_mm + 10.0)])])
    }

    #[test]
    fn a_range_on_a_bracket_edge_is_in_the_nearer_bracket() {
        for (r, bracket) in [(2.0 * IN, 1), (2.0 * IN + 0.5, 2), (4.0 * IN, 2), (4.0 * IN + 0.5, 3), (0.0, 1)]
        {
            let t = at(r);
            let a = assess(&t, "gun");
            let f = target(&t, &a, "f");
            assert!((f.range_mm - r).abs() < 1e-9, "{} vs {r}", f.range_mm);
            assert_eq!(f.bracket, bracket, "range {} in", r / IN);
        }
        // The function itself, at medium scale (brackets of 50.8 mm).
        assert_eq!(range_bracket(50.8, 50.8), 1);
        assert_eq!(range_bracket(50.8 + 1e-3, 50.8), 2);
    }

    #[test]
    fn maximum_range_is_inclusive_and_configurable() {
        // The default maximum range of a medium battery is 14" (a project default: the
        // combat chart is not in the seeds). Exactly 14" is in range, 14" + 0.5 mm is not
        // (no candidate at all).
        let a = assess(&at(14.0 * IN), "gun");
        assert_eq!(a.targets.len(), 1);
        assert!(assess(&at(14.0 * IN + 0.5), "gun").targets.is_empty());
        // The table may set it: 15" for medium guns brings the second one in.
        let t = table_from(
            json!({"artillery": {"max_range_in": {"medium": 15.0}}}),
            vec![gun(), foe("f", &[(0.0, 20.0 + 14.0 * IN + 0.5 + 10.0)])],
        );
        let a = assess(&t, "gun");
        assert!((a.battery.max_range_mm - 15.0 * IN).abs() < 1e-9);
        assert_eq!(a.targets.len(), 1);
    }

    #[test]
    fn large_scale_ranges_are_in_rule_inches() {
        // At large scale every rule distance is x1.5: 3" on the table is 2 rule inches,
        // still the first bracket; 3" + 0.5 mm is the second.
        for (r, bracket) in [(3.0 * IN, 1), (3.0 * IN + 0.5, 2)] {
            let t = table_from(json!({"scale": "large"}), vec![gun(), foe("f", &[(0.0, 20.0 + r + 10.0)])]);
            let a = assess(&t, "gun");
            assert_eq!(target(&t, &a, "f").bracket, bracket);
        }
    }
}

mod firing_zone {
    use super::*;

    // 000 §4.5: the firing zone "is tapered outward 10°" and "must be free of friendly
    // combat bases (or any parts thereof) and markers". Unswung, its right side leaves
    // B = (25, 20) turned 5° right: x_z(y) = 25 + (y - 20) tan 5°. A friendly base facing
    // +y centred at (x_c, 120) spans y 110..130; its left edge x = x_c - 15 comes nearest
    // the side at its far corner (y = 130), where x_z(130) = 25 + 110 tan 5° = 34.6238.
    // With the left edge at 34.6238 - 0.5 a sliver of the base lies in the zone; at
    // 34.6238 + 0.5 none does.
    //
    // Which swings are clear: the zone swung by s (positive to the left) holds the base
    // until its right side, turned s - 5° from ahead, passes left of the base's near-left
    // corner... precisely, the zone touches the base when the right side runs through
    // the corner (x_c - 15, 130) seen from B, at angle -atan((x_c - 15 - 25) / 110) from
    // ahead, i.e. at swing s = 5° - atan((x_c - 40) / 110). Seen from A the base lies far
    // right (its near-right corner at atan((x_c + 40) / 90) ≈ 44.7° right), beyond any
    // swing's reach, so the zone is clear from that swing up to 25° left and blocked for
    // every swing right of it.

    fn friend_at(x_left: f64) -> Table {
        table(vec![
            gun(),
            unit("fr", "france", "infantry", Some("line"), vec![inf(x_left + 15.0, 120.0, 90.0)]),
        ])
    }

    fn x_z(y: f64) -> f64 {
        25.0 + (y - 20.0) * 5f64.to_radians().tan()
    }

    #[test]
    fn a_friendly_base_half_a_millimetre_inside_blocks_and_outside_does_not() {
        for (dx, blocked) in [(-0.5, true), (0.5, false)] {
            let x_left = x_z(130.0) + dx;
            let a = assess(&friend_at(x_left), "gun");
            assert_eq!(!a.clear_swings.contains(0.0), blocked, "left edge at {x_left}");
            let zone = a.battery.zone(&ArtilleryRules::for_table(&friend_at(x_left)).unwrap(), 0.0);
            let t = friend_at(x_left);
            assert_eq!(zone.holds_part_of(&t.units[1].bases[0]), blocked);
            // The clear swings: from 5° - atan((x_left - 25) / 110) up to 25°.
            let from = 5.0 - ((x_left - 25.0) / 110.0).atan().to_degrees();
            let iv = a.clear_swings.intervals();
            assert_eq!(iv.len(), 1);
            assert!((iv[0].from_deg - from).abs() < 1e-9, "{} vs {from}", iv[0].from_deg);
            assert_eq!(iv[0].to_deg, 25.0);
            // Half a millimetre is about a quarter of a degree here: ±0.2587°.
            assert!((from.abs() - 0.2587).abs() < 1e-3);
        }
    }

    #[test]
    fn friendly_markers_block_but_the_batterys_own_and_enemies_do_not() {
        // A friendly morale cube 3/8" (9.525 mm) square at (0, 100) straight ahead blocks
        // the unswung zone; the battery's own saved-fire marker there does not (000 §4.2
        // places it "in front of the battery"); an enemy base there does not either.
        let mut t =
            table(vec![gun(), unit("fr", "france", "infantry", Some("line"), vec![inf(300.0, 0.0, 90.0)])]);
        let cube = |unit: &str| vedette_geometry::Marker {
            kind: vedette_geometry::MarkerKind::SavedFire,
            colour: None,
            x: 0.0,
            y: 100.0,
            unit: Some(unit.to_string()),
            size: None,
            sigma_mm: None,
        };
        t.markers.push(cube("fr"));
        assert!(!assess(&t, "gun").clear_swings.contains(0.0));
        t.markers[0] = cube("gun");
        assert!(assess(&t, "gun").clear_swings.contains(0.0));
        let t = table(vec![gun(), foe("e", &[(0.0, 100.0)])]);
        assert!(assess(&t, "gun").clear_swings.contains(0.0));
    }

    #[test]
    fn a_friendly_line_across_the_front_blocks_every_swing() {
        // A friendly line from x -200 to 200 at y 60..80 covers the whole arc: nothing
        // behind it can be fired on ("Artillery may not fire through or over friendly
        // units", 000 §4.2).
        let line: Vec<Value> = (0..14).map(|i| inf(-195.0 + 30.0 * f64::from(i), 70.0, 90.0)).collect();
        let t = table(vec![
            gun(),
            unit("wall", "france", "infantry", Some("line"), line),
            foe("f", &[(0.0, 200.0)]),
        ]);
        let a = assess(&t, "gun");
        assert!(a.clear_swings.is_empty());
        let f = target(&t, &a, "f");
        assert!(!f.zone_clear && !f.line_of_sight && !f.is_valid());
        assert_eq!(main_id(&t, &a), None);
    }
}

mod targets {
    use super::*;

    #[test]
    fn friendly_units_and_friendly_skirmishers_hide_a_target_enemy_skirmishers_do_not() {
        // The target f at (0, 200) (y 190..210). A screen 60 mm wide at y 100 hides every
        // point of f from the frontage (x -25..25, y 20): lines from the frontage to f stay
        // within x -25..25 at y = 100.
        let screen =
            |side: &str, kind: &str| unit("s", side, kind, None, vec![base(0.0, 100.0, 90.0, 60.0, 20.0)]);
        for (side, kind, seen) in [
            ("france", "infantry", false),
            ("france", "skirmisher", false),
            ("austria", "skirmisher", true),
            // 000 §4.5: "it may not conduct indirect fire over ... enemy units".
            ("austria", "infantry", false),
        ] {
            let mut s = screen(side, kind);
            if kind == "infantry" {
                s["formation"] = json!("line");
            } else {
                s["parent"] = json!(if side == "france" { "gun" } else { "f" });
            }
            let t = table(vec![gun(), foe("f", &[(0.0, 200.0)]), s]);
            let a = assess(&t, "gun");
            let f = target(&t, &a, "f");
            assert_eq!(f.line_of_sight, seen, "{side} {kind}");
        }
    }

    #[test]
    fn one_full_base_in_sight_is_enough() {
        // A three-base line at y 190..210: f#0 at x -15..15, f#1 at 15..45, f#2 at
        // -45..-15, all 170 mm from the frontage. A friendly skirmish marker 32 x 20 at
        // (0, 100) spans x -16..16, y 90..110. A line from a frontage point (p, 20) to f#0's
        // centre (0, 200) crosses y = 90 at x = p (1 - 70/180) = 0.61 p, within ±15.3 for
        // p in -25..25: inside the marker, so f#0 is not wholly visible. Every point of f#1
        // (x >= 15) is seen from the frontage's right end (25, 20): the line to (15, 190),
        // the worst, crosses y = 90 at x = 25 - 10 (70/170) = 20.9 and y = 110 at 19.7,
        // right of the marker. So f#1 is a full base in sight.
        let mut sk = unit("sk", "france", "skirmisher", None, vec![base(0.0, 100.0, 90.0, 32.0, 20.0)]);
        sk["parent"] = json!("gun");
        let t = table(vec![gun(), foe("f", &[(0.0, 200.0), (30.0, 200.0), (-30.0, 200.0)]), sk]);
        let a = assess(&t, "gun");
        let f = target(&t, &a, "f");
        assert!(f.line_of_sight);
        // The bases tie on range, so they are tried in order: f#0 hidden, f#1 seen.
        assert_eq!(f.seen_base, Some(BaseRef::new(1, 1)));
        // The LOS model itself: the middle base is not wholly visible.
        let index = SpatialIndex::new(&t);
        let los = UnitsOnly::new(&index);
        let e = a.battery.eye();
        use vedette_geometry::LineOfSight;
        assert_ne!(los.full_base_visible(&t, 0, &e, BaseRef::new(1, 0)), FullVisibility::Visible);
    }

    #[test]
    fn the_closest_bracket_comes_first() {
        // "the closest combat base(s) occupying the closest artillery range bracket" (000
        // §4.5). "near" is 5" away (bracket 3) but 100 mm off the centreline; "ahead" is
        // straight ahead at 7" (bracket 4). The bracket decides: near.
        let t = table(vec![
            gun(),
            foe("near", &[(100.0, 20.0 + 5.0 * IN + 10.0)]),
            foe("ahead", &[(0.0, 20.0 + 7.0 * IN + 10.0)]),
        ]);
        let a = assess(&t, "gun");
        assert_eq!((target(&t, &a, "near").bracket, target(&t, &a, "ahead").bracket), (3, 4));
        assert_eq!(main_id(&t, &a).as_deref(), Some("near"));
    }

    #[test]
    fn infantry_and_cavalry_before_artillery_in_one_bracket() {
        // An Austrian battery straight ahead at 4.5" and infantry off to the side at 5.5":
        // both bracket 3; "infantry and cavalry targets take priority over artillery
        // targets".
        let enemy_gun = unit(
            "eg",
            "austria",
            "artillery",
            Some("unlimbered"),
            vec![base(0.0, 20.0 + 4.5 * IN + 20.0, 270.0, 25.0, 40.0)],
        );
        let t = table(vec![gun(), enemy_gun, foe("inf", &[(80.0, 20.0 + 5.5 * IN + 10.0)])]);
        let a = assess(&t, "gun");
        assert_eq!(main_id(&t, &a).as_deref(), Some("inf"));
    }

    #[test]
    fn then_the_one_closest_to_the_centreline() {
        // Both bracket 3: "side" at 4.5" but 70 mm off the centreline (its near edge x 55),
        // "centre" at 5.8" straight ahead (offset 0). "closest to the battery's Center of
        // Fire ... measure from the centerline": centre, though it is further away.
        let t = table(vec![
            gun(),
            foe("side", &[(70.0, 20.0 + 4.5 * IN + 10.0)]),
            foe("centre", &[(0.0, 20.0 + 5.8 * IN + 10.0)]),
        ]);
        let a = assess(&t, "gun");
        let side = target(&t, &a, "side");
        // The side base spans x 55..85; the centreline is x = 0: offset 55 mm.
        assert!((side.centre_offset_mm - 55.0).abs() < 1e-9);
        assert_eq!(target(&t, &a, "centre").centre_offset_mm, 0.0);
        assert_eq!(main_id(&t, &a).as_deref(), Some("centre"));
    }

    #[test]
    fn packed_skirmishers_are_targets_deployed_ones_are_not() {
        // 000 §4.5: "Artillery may not fire on fully deployed skirmish markers (markers with
        // at least 3" between bases) ... Artillery may fire on packed skirmish markers."
        // Two Austrian markers 2" apart (packed) at 2": targets, but markers are not combat
        // bases, so the infantry at 7" is the main target. Alone, they are the main target.
        let markers = |gap: f64| {
            let mut u = unit(
                "sk",
                "austria",
                "skirmisher",
                None,
                vec![
                    base(-10.0 - gap / 2.0, 20.0 + 2.0 * IN + 10.0, 270.0, 20.0, 20.0),
                    base(10.0 + gap / 2.0, 20.0 + 2.0 * IN + 10.0, 270.0, 20.0, 20.0),
                ],
            );
            u["parent"] = json!("f");
            u
        };
        let t = table(vec![gun(), markers(2.0 * IN), foe("f", &[(0.0, 20.0 + 7.0 * IN + 10.0)])]);
        let a = assess(&t, "gun");
        assert!(target(&t, &a, "sk").is_valid());
        assert_eq!(main_id(&t, &a).as_deref(), Some("f"));
        let far_foe = foe("f", &[(600.0, 600.0)]);
        let t = table(vec![gun(), markers(2.0 * IN), far_foe.clone()]);
        assert_eq!(main_id(&t, &assess(&t, "gun")).as_deref(), Some("sk"));
        // 3" apart: fully deployed, not even a candidate.
        let t = table(vec![gun(), markers(3.0 * IN), far_foe]);
        assert!(assess(&t, "gun").targets.is_empty());
    }

    #[test]
    fn limbered_batteries_do_not_fire() {
        let t = table(vec![gun_with(json!({"formation": "limbered"})), foe("f", &[(0.0, 150.0)])]);
        let a = assess(&t, "gun");
        assert!(a.battery.limbered && a.targets.is_empty() && a.main.is_none());
    }
}

mod deep {
    use super::*;

    // 000 §4.3 A: deep when "the battery's center of fire passes into or through three or
    // more combat bases as measured from the leading edge of the target base to a depth
    // of 4"". Here the target base, and the bases behind it, stand on the centreline
    // x = 0, facing the battery; the aim runs straight up x = 0 through the target's
    // centre. `column(r, behind)` puts the target's near edge r mm from the frontage and
    // one base of a second and a third unit with their near edges `behind` mm behind the
    // target's near edge.

    fn column(r: f64, behind: [f64; 2]) -> Table {
        let y = |d: f64| 20.0 + r + d + 10.0;
        table(vec![
            gun(),
            foe("a", &[(0.0, y(0.0))]),
            foe("b", &[(0.0, y(behind[0]))]),
            foe("c", &[(0.0, y(behind[1]))]),
        ])
    }

    fn deep_of(t: &Table) -> vedette_geometry::DeepTarget {
        let a = assess(t, "gun");
        let m = a.main.unwrap_or_else(|| panic!("no main target"));
        assert_eq!(id_of(t, m.unit), "a");
        assert_eq!(m.aim_swing_deg, 0.0);
        m.deep
    }

    #[test]
    fn two_bases_in_the_window_are_not_deep_three_are() {
        // Range 6" (bracket 3, no point blank). b's near edge 1" behind a's, c's 3.9":
        // the centre of fire enters c 3.9" into the 4" window: three bases, deep. At 4.1"
        // it reaches c only after the window ends: two bases.
        let d = deep_of(&column(6.0 * IN, [IN, 3.9 * IN]));
        assert!(d.is_deep() && !d.point_blank);
        assert_eq!(d.reasons, vec![DeepReason::Bases]);
        assert_eq!(labels(&column(6.0 * IN, [IN, 3.9 * IN]), &d.deep_bases), vec!["a#0", "b#0", "c#0"]);
        let t = column(6.0 * IN, [IN, 4.1 * IN]);
        let d = deep_of(&t);
        assert!(!d.is_deep());
        assert_eq!(labels(&t, &d.window_bases), vec!["a#0", "b#0"]);
        assert!(d.deep_bases.is_empty());
        // Exactly 4": the centre of fire reaches c's edge at the window's end but does not
        // pass into it.
        assert!(!deep_of(&column(6.0 * IN, [IN, 4.0 * IN])).is_deep());
    }

    #[test]
    fn point_blank_window_at_3_9_and_4_1_inches() {
        // "When firing on a target in the first or second range bracket (2" or 4"), the
        // deep target modifier can only apply to the next range bracket out." At 3.9" the
        // target is in bracket 2, so the window ends at 6" range: c, 3" behind, is entered
        // at 6.9" and does not count. At 4.1" (bracket 3) the full 4" window applies and c,
        // entered 3" into it, counts.
        let d = deep_of(&column(3.9 * IN, [IN, 3.0 * IN]));
        assert!(d.point_blank && !d.is_deep());
        assert_eq!(d.window_bases.len(), 2);
        let window = d.window.unwrap();
        // The window ends where the range reaches 6": y = 20 + 152.4.
        assert!((window.b.y - (20.0 + 6.0 * IN)).abs() < 1e-6);
        let d = deep_of(&column(4.1 * IN, [IN, 3.0 * IN]));
        assert!(!d.point_blank && d.is_deep());
    }

    #[test]
    fn the_rule_texts_own_example() {
        // "If the range to a target's front is 3", the deep target modifier is only applied
        // if the three base depth lines-up at less than 6" range, instead of extending to
        // 7"." The third base lining up at 5.9" counts; at 6.1" it does not.
        assert!(deep_of(&column(3.0 * IN, [IN, 2.9 * IN])).is_deep());
        assert!(!deep_of(&column(3.0 * IN, [IN, 3.1 * IN])).is_deep());
    }

    #[test]
    fn squares_are_always_deep_and_stack_with_the_walk() {
        // 000 §1.4: "Units in square always count as enfilade and deep targets"; §4.3: "a
        // firing battery can stack passing through three bases with firing at square".
        let sq = |id: &str, y: f64| unit(id, "austria", "infantry", Some("square"), vec![inf(0.0, y, 270.0)]);
        let t = table(vec![gun(), sq("a", 200.0)]);
        let d = deep_of(&t);
        assert_eq!(d.reasons, vec![DeepReason::Standing(StandingExposure::Square)]);
        let r = 6.0 * IN;
        let t = table(vec![
            gun(),
            sq("a", 20.0 + r + 10.0),
            foe("b", &[(0.0, 20.0 + r + IN + 10.0)]),
            foe("c", &[(0.0, 20.0 + r + 2.0 * IN + 10.0)]),
        ]);
        assert_eq!(
            deep_of(&t).reasons,
            vec![DeepReason::Bases, DeepReason::Standing(StandingExposure::Square)]
        );
    }

    #[test]
    fn woods_and_obstacles_deny_deep_fire() {
        // "not applicable to targets in woods, buildings or on the far side of obstacles
        // such as redoubts, heavy walls". The deep column of the first test, with the
        // target base inside a medium forest: no longer deep.
        let r = 6.0 * IN;
        let units = |t: &Table| t.units.clone();
        let base_table = column(r, [IN, 2.0 * IN]);
        let y0 = 20.0 + r;
        let wood = json!([{"kind": "medium-forest", "outline": [[-40, y0 - 5.0], [40, y0 - 5.0], [40, y0 + 25.0], [-40, y0 + 25.0]]}]);
        let mut t = table_from(json!({"terrain": wood}), vec![gun()]);
        t.units = units(&base_table);
        let d = deep_of(&t);
        assert!(!d.is_deep());
        assert_eq!(labels(&t, &d.excluded_bases), vec!["a#0"]);
        // A stone wall across the line of fire at y = 100: every base is beyond it.
        let wall = json!([{"kind": "stone-wall", "path": [[-100, 100], [100, 100]]}]);
        let mut t = table_from(json!({"terrain": wall}), vec![gun()]);
        t.units = units(&base_table);
        let d = deep_of(&t);
        assert!(!d.is_deep() && d.window_bases.is_empty() && d.excluded_bases.len() == 3);
        // A hedge is a light obstacle: still deep.
        let hedge = json!([{"kind": "hedge", "path": [[-100, 100], [100, 100]]}]);
        let mut t = table_from(json!({"terrain": hedge}), vec![gun()]);
        t.units = units(&base_table);
        assert!(deep_of(&t).is_deep());
    }
}

mod enfilade {
    use super::*;

    // The target "l" is a line facing +y of two bases at x -15 and 15, y 0..20 (x -30..30).
    // Its right flank edge is x = 30 from (30, 20) (front) to (30, 0) (rear). The enfilade
    // zone of that flank is the 60° arc laid on it (000 §4.3 figure): rays leave (30, 20)
    // turned 30° toward the unit's front and (30, 0) turned 30° toward its rear, so at
    // x = 30 + d it spans y from -d tan 30° to 20 + d tan 30°.
    //
    // A battery facing -x (heading 180) with packed frontage at x = 130 (d = 100): its
    // frontage runs along x = 130 over y from Y - 12.5 to Y + 12.5 (its right is +y). The
    // zone at d = 100 reaches y = 20 + 57.735 = 77.735. With the frontage's upper corner
    // 0.5 mm below that, the whole frontage is inside: enfilade, right flank. 0.5 mm
    // above: only partly inside, "not considered to be firing from enfilade".

    fn line() -> Value {
        unit("l", "austria", "infantry", Some("line"), vec![inf(-15.0, 10.0, 90.0), inf(15.0, 10.0, 90.0)])
    }

    fn flank_battery(y_top: f64) -> Table {
        let y = y_top - 12.5;
        let g = json!({"id": "gun", "side": "france", "kind": "artillery", "formation": "unlimbered",
            "frontage": "packed", "bases": [base(150.0, y, 180.0, 25.0, 40.0)]});
        table(vec![g, line()])
    }

    #[test]
    fn frontage_corner_half_a_millimetre_inside_and_outside_the_zone() {
        let edge = 20.0 + 100.0 * 30f64.to_radians().tan();
        for (dy, verdict) in [(-0.5, EnfiladeVerdict::Flank(FlankSide::Right)), (0.5, EnfiladeVerdict::No)] {
            let t = flank_battery(edge + dy);
            let a = assess(&t, "gun");
            // Check the frontage is where the working says.
            let f = a.battery.frontage.edge;
            assert!((f.a.x - 130.0).abs() < 1e-9 && (f.b.y.max(f.a.y) - (edge + dy)).abs() < 1e-9);
            assert_eq!(vedette_geometry::enfilade(&t.units[1], &f, 30.0), verdict);
            // The line is the battery's main target (4" away, bracket 2), and the report's
            // verdict is the same.
            let m = a.main.unwrap();
            assert_eq!(id_of(&t, m.unit), "l");
            assert_eq!(m.enfilade, verdict);
        }
    }

    #[test]
    fn the_left_flank_mirrors_the_right() {
        // The same battery mirrored to x = -150 facing +x takes the unit's left flank.
        let g = json!({"id": "gun", "side": "france", "kind": "artillery", "formation": "unlimbered",
            "frontage": "packed", "bases": [base(-150.0, 50.0, 0.0, 25.0, 40.0)]});
        let t = table(vec![g, line()]);
        let a = assess(&t, "gun");
        assert_eq!(a.main.unwrap().enfilade, EnfiladeVerdict::Flank(FlankSide::Left));
    }

    #[test]
    fn fire_from_the_front_or_into_the_rear_is_not_enfilade() {
        // In front (facing -y from y = 200) and behind (facing +y from y = -200), centred on
        // the line: the battery is nearer neither flank's zone. "Fire into the rear is not
        // enfilade."
        for (y, heading) in [(200.0, 270.0), (-200.0, 90.0)] {
            let g = json!({"id": "gun", "side": "france", "kind": "artillery", "formation": "unlimbered",
                "bases": [base(0.0, y, heading, 25.0, 40.0)]});
            let t = table(vec![g, line()]);
            let a = assess(&t, "gun");
            let m = a.main.unwrap();
            assert_eq!(m.enfilade, EnfiladeVerdict::No, "battery at y = {y}");
        }
        // Behind and to the right: a packed battery centred at (300, -100) facing 150°
        // (up and to the left, toward the line). Its frontage runs from (276.5, -100.8) to
        // (289.0, -79.2): outside the rear zone (between the rear lines x = -30 and 30) and
        // inside the right flank's zone, which at x = 30 + d reaches down to
        // y = -d tan 30° (-142 at x = 276.5): enfilade, right flank, though the battery
        // stands behind the line's rear edge.
        let g = json!({"id": "gun", "side": "france", "kind": "artillery", "formation": "unlimbered",
            "frontage": "packed", "bases": [base(300.0, -100.0, 150.0, 25.0, 40.0)]});
        let t = table(vec![g, line()]);
        let a = assess(&t, "gun");
        assert_eq!(a.main.unwrap().enfilade, EnfiladeVerdict::Flank(FlankSide::Right));
    }

    #[test]
    fn squares_are_enfiladed_from_everywhere() {
        let sq = unit(
            "l",
            "austria",
            "infantry",
            Some("square"),
            vec![inf(-15.0, 10.0, 90.0), inf(15.0, 10.0, 90.0)],
        );
        let g = json!({"id": "gun", "side": "france", "kind": "artillery", "formation": "unlimbered",
            "bases": [base(0.0, 200.0, 270.0, 25.0, 40.0)]});
        let t = table(vec![g, sq]);
        assert_eq!(
            assess(&t, "gun").main.unwrap().enfilade,
            EnfiladeVerdict::Standing(StandingExposure::Square)
        );
    }
}

mod secondary_targets {
    use super::*;

    // 000 §4.5 figure: "unit A is the main target ... Unit B is a potential adjacent
    // secondary target, and unit C, whose front is ... within 2" of the front of Unit A,
    // is a potential tandem secondary target." A is one base straight ahead at 5"
    // (bracket 3), its front edge at y = 20 + 127 = 147. The aim runs up x = 0; the zone's
    // sides leave (±25, 20) at 5° outward, so at y = 147 it spans x ±36.1.

    fn a_at() -> Value {
        foe("a", &[(0.0, 20.0 + 5.0 * IN + 10.0)])
    }

    fn secondary(t: &Table) -> (Vec<String>, Vec<String>) {
        let a = assess(t, "gun");
        let m = a.main.unwrap();
        assert_eq!(id_of(t, m.unit), "a");
        let names = |v: &[usize]| v.iter().map(|&u| id_of(t, u).to_string()).collect::<Vec<_>>();
        (names(&m.secondary.tandem), names(&m.secondary.adjacent))
    }

    #[test]
    fn the_figure_c_behind_is_tandem_b_beside_is_adjacent() {
        // C straight behind A, its front 2" behind A's; B beside A with a 0.5" gap (x 27.7
        // to 57.7, in the zone up to x 36.1), fronts level.
        let y_a = 20.0 + 5.0 * IN + 10.0;
        let t = table(vec![
            gun(),
            a_at(),
            foe("c", &[(0.0, y_a + 2.0 * IN)]),
            foe("b", &[(15.0 + 0.5 * IN + 15.0, y_a)]),
        ]);
        assert_eq!(secondary(&t), (vec!["c".to_string()], vec!["b".to_string()]));
    }

    #[test]
    fn tandem_within_4_inches_of_the_main_targets_front() {
        // C's front 3.9" behind A's: tandem. 4.1": not.
        let y_a = 20.0 + 5.0 * IN + 10.0;
        for (behind, tandem) in [(3.9, true), (4.1, false)] {
            let t = table(vec![gun(), a_at(), foe("c", &[(0.0, y_a + behind * IN)])]);
            assert_eq!(secondary(&t).0 == vec!["c".to_string()], tandem, "{behind}\"");
        }
        // In a wood C is not in open terrain: not tandem.
        let y_c = y_a + 2.0 * IN;
        let wood = json!([{"kind": "light-forest", "outline": [[-50, y_c - 15.0], [50, y_c - 15.0], [50, y_c + 15.0], [-50, y_c + 15.0]]}]);
        let t = table_from(json!({"terrain": wood}), vec![gun(), a_at(), foe("c", &[(0.0, y_c)])]);
        assert!(secondary(&t).0.is_empty());
    }

    #[test]
    fn adjacent_only_in_the_same_bracket() {
        // B beside A with a 0.5" gap but set back: its near corner (27.7, y) is range
        // hypot(2.7, y - 20) from the frontage end (25, 20). A's range is 5.0" (bracket 3);
        // set back so B's range is 5.95" (bracket 3): adjacent; 6.05" (bracket 4): not.
        let x_b = 15.0 + 0.5 * IN + 15.0;
        for (range_in, adjacent) in [(5.95, true), (6.05, false)] {
            let dy = ((range_in * IN).powi(2) - 2.7f64.powi(2)).sqrt();
            let t = table(vec![gun(), a_at(), foe("b", &[(x_b, 20.0 + dy + 10.0)])]);
            let a = assess(&t, "gun");
            assert_eq!(target(&t, &a, "b").bracket, if adjacent { 3 } else { 4 });
            assert_eq!(secondary(&t).1 == vec!["b".to_string()], adjacent, "{range_in}\"");
        }
    }

    #[test]
    fn next_to_means_within_2_inches() {
        // The reading of "next to" (RuleDistance::AdjacentTarget, 2" edge to edge) only
        // bites when the zone reaches that far aside, so this test hands the classifier a
        // wide zone (30° sides) holding A and B, and moves B: 1.9" from A, adjacent; 2.1",
        // not.
        let y_a = 20.0 + 5.0 * IN + 10.0;
        for (gap, adjacent) in [(1.9, true), (2.1, false)] {
            let t = table(vec![gun(), a_at(), foe("b", &[(15.0 + gap * IN + 15.0, y_a)])]);
            let index = SpatialIndex::new(&t);
            let rules = ArtilleryRules::for_table(&t).unwrap();
            let los = UnitsOnly::new(&index);
            let field = Battlefield {
                table: &t,
                index: &index,
                rules: &rules,
                line_of_sight: &los,
                ground: &TerrainOutlines,
            };
            let battery = vedette_geometry::Battery::new(&field, BaseRef::new(0, 0)).unwrap();
            let targets = assess_targets(&field, &battery, &vedette_geometry::ClearSwings::all(25.0));
            let main = targets.iter().position(|x| id_of(&t, x.unit) == "a").unwrap();
            let wide = vedette_geometry::FiringZone::new(
                battery.frontage.edge,
                battery.forward(),
                0.0,
                30.0,
                battery.max_range_mm,
            );
            let s = vedette_geometry::secondary_targets(&field, &targets, main, &wide);
            assert_eq!(!s.adjacent.is_empty(), adjacent, "{gap}\"");
        }
    }
}

mod unlimber {
    use super::*;

    // 000 §3.6: French-system artillery "may not unlimber any closer than 1½" to enemy
    // units", Prussian "any closer than 3"". An enemy base straight ahead with its near
    // edge d mm from the gun's front edge (y = 20).

    fn at(side_system: &str, d: f64, kind: &str) -> Table {
        let mut e = unit(
            "e",
            "austria",
            kind,
            if kind == "infantry" { Some("line") } else { None },
            vec![inf(0.0, 20.0 + d + 10.0, 270.0)],
        );
        if kind == "skirmisher" {
            e["parent"] = json!("gun");
        }
        table_from(json!({"sides": {"france": {"system": side_system}}}), vec![gun(), e])
    }

    #[test]
    fn french_limit_is_one_and_a_half_inches() {
        assert_eq!(assess(&at("french", 1.49 * IN, "infantry"), "gun").unlimber.too_close(), Some(true));
        assert_eq!(assess(&at("french", 1.51 * IN, "infantry"), "gun").unlimber.too_close(), Some(false));
        // "not any closer than": exactly 1½" is allowed.
        assert_eq!(assess(&at("french", 1.5 * IN, "infantry"), "gun").unlimber.too_close(), Some(false));
    }

    #[test]
    fn prussian_limit_is_three_inches() {
        let u = assess(&at("prussian", 2.99 * IN, "infantry"), "gun").unlimber;
        assert_eq!(u.too_close(), Some(true));
        assert!((u.nearest_enemy.unwrap().1 - 2.99 * IN).abs() < 1e-9);
        assert_eq!(assess(&at("prussian", 3.01 * IN, "infantry"), "gun").unlimber.too_close(), Some(false));
    }

    #[test]
    fn only_enemy_combat_bases_count_and_a_side_needs_a_system() {
        // 000 §3.2 names "enemy combat bases": a skirmish marker at 1" does not count.
        assert_eq!(assess(&at("french", IN, "skirmisher"), "gun").unlimber.too_close(), Some(false));
        let t = table_from(json!({"sides": {}}), vec![gun(), foe("e", &[(0.0, 40.0)])]);
        assert_eq!(assess(&t, "gun").unlimber.too_close(), None);
    }
}

mod republic {
    use super::*;

    #[test]
    fn a_breakthrough_column_is_always_deep_and_enfiladed() {
        // 003 §103: "Breakthrough columns are considered to be deep/enfilade targets for the
        // duration of their existence." One brigade of the column, head-on to the battery.
        let col = unit(
            "bc",
            "austria",
            "infantry",
            Some("breakthrough-column"),
            vec![inf(0.0, 200.0, 270.0), inf(0.0, 220.0, 270.0)],
        );
        let t = table_from(json!({"rules": "republic"}), vec![gun(), col.clone()]);
        let m = assess(&t, "gun").main.unwrap();
        assert_eq!(m.deep.reasons, vec![DeepReason::Standing(StandingExposure::BreakthroughColumn)]);
        assert_eq!(m.enfilade, EnfiladeVerdict::Standing(StandingExposure::BreakthroughColumn));
        // Republique 5.0 has no breakthrough columns.
        let bad =
            json!({"schema": "vedette/table/1", "rules": "republique5", "scale": "medium", "units": [col]});
        let err = Table::from_json_str(&bad.to_string()).unwrap_err();
        assert!(
            matches!(err, GeometryError::InvalidField { .. }) && err.to_string().contains("003 §103"),
            "{err}"
        );
    }

    #[test]
    fn rule_sets_without_republique_artillery_say_so() {
        let t = Table::from_json_str(
            r#"{"schema":"vedette/table/1","rules":"pro-patria","scale":"15mm","units":[]}"#,
        )
        .unwrap();
        assert!(matches!(ArtilleryRules::for_table(&t), Err(GeometryError::NotInRuleSet { .. })));
    }
}
