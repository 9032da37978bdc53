//! Hand-worked line-of-sight scenes (issue 6). Each expected answer is worked out in the
//! comments from the rule text and the coordinates, not read off the code.
//!
//! Frame: mm, y away from the spotter. Unless said otherwise the spotter is a battery
//! (25 × 40 mm, medium scale) at (0, 0) facing +y, so its eye, the front edge, runs
//! x ∈ [-12.5, 12.5] at y = 20; the target is an enemy infantry base 30 × 20 facing
//! the spotter.

use vedette_geometry::los::{CutBy, TerrainSight};
use vedette_geometry::sight::FullVisibility;
use vedette_geometry::{BaseRef, Selection, SpatialIndex, Table};

const IN: f64 = 25.4;

fn table(rules: &str, scale: &str, units: &str, terrain: &str) -> Table {
    let text = format!(
        r#"{{"schema":"vedette/table/1","rules":"{rules}","scale":"{scale}","units":[{units}],"terrain":[{terrain}]}}"#
    );
    Table::from_json_str(&text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

#[allow(clippy::too_many_arguments)]
fn unit(id: &str, side: &str, kind: &str, x: f64, y: f64, heading: f64, w: f64, d: f64) -> String {
    let formation = match kind {
        "infantry" | "cavalry" => r#","formation":"line""#,
        _ => "",
    };
    format!(
        r#"{{"id":"{id}","side":"{side}","kind":"{kind}"{formation},"bases":[{{"x":{x},"y":{y},"heading":{heading},"width":{w},"depth":{d}}}]}}"#
    )
}

fn gun() -> String {
    unit("gun", "fr", "artillery", 0.0, 0.0, 90.0, 25.0, 40.0)
}

fn foe(y: f64) -> String {
    unit("foe", "au", "infantry", 0.0, y, 270.0, 30.0, 20.0)
}

fn rect(kind: &str, x0: f64, y0: f64, x1: f64, y1: f64, level: f64) -> String {
    format!(
        r#"{{"id":"{kind}-{x0}-{y0}","kind":"{kind}","level":{level},"outline":[[{x0},{y0}],[{x1},{y0}],[{x1},{y1}],[{x0},{y1}]]}}"#
    )
}

/// (visible, full base visible) between units `a` and `b` (indices).
fn verdict(t: &Table, a: usize, b: usize) -> (bool, bool) {
    let index = SpatialIndex::new(t);
    let los = TerrainSight::try_new(&index).unwrap();
    let v = los.unit_verdict(a, b);
    (v.visible, v.full_base.is_some())
}

// ---------------------------------------------------------------------------------
// Blockers per spotter kind (000 §4.1, §4.2, §4.5)

#[test]
fn a_friendly_line_blocks_the_battery() {
    // Friendly line x ∈ [-60, 60], y ∈ [90, 110]. Every sight line from the eye
    // (|x| ≤ 12.5, y = 20) to the foe (|x| ≤ 15, y ≥ 290) crosses y = 100 at |x| ≤ 15:
    // inside the line. 000 §4.5 "Friendly units block line of sight for artillery".
    let t = table(
        "republique5",
        "medium",
        &[gun(), unit("friend", "fr", "infantry", 0.0, 100.0, 90.0, 120.0, 20.0), foe(300.0)].join(","),
        "",
    );
    assert_eq!(verdict(&t, 0, 2), (false, false));
}

#[test]
fn an_enemy_unit_blocks_the_battery_but_enemy_skirmishers_do_not() {
    // 000 §4.5: "it may not conduct indirect fire over ... enemy units"; "If fully
    // deployed skirmishers are between an enemy battery and its target, they do not mask
    // or protect the target". Same geometry as above.
    let enemy = unit("other", "au", "infantry", 0.0, 100.0, 270.0, 120.0, 20.0);
    let t = table("republique5", "medium", &[gun(), enemy, foe(300.0)].join(","), "");
    assert_eq!(verdict(&t, 0, 2), (false, false));
    let sk = r#"{"id":"sk","side":"au","kind":"skirmisher","parent":"foe","bases":[{"x":0,"y":100,"heading":270,"width":20,"depth":20}]}"#;
    let t = table("republique5", "medium", &[gun(), sk.to_string(), foe(300.0)].join(","), "");
    // Nothing else between: the whole base is seen.
    assert_eq!(verdict(&t, 0, 2), (true, true));
}

#[test]
fn friendly_skirmishers_block_the_battery_but_not_infantry() {
    // Skirmisher 20 × 20 at (0, 150): x ∈ [-10, 10]. The foe (x ∈ [-15, 15], y 290..310)
    // from the eye x ∈ [-12.5, 12.5]: the line from (12.5, 20) to (15, 300) passes
    // x ≈ 13.7 at y = 150, clear of the marker, so part of the foe is seen, but the foe's
    // centre (0, 300) is hidden: every line to it crosses y = 150 at |x| ≤ 12.5·150/280
    // < 10. Visible, not full. An infantry spotter is not blocked by markers at all.
    let sk = r#"{"id":"sk","side":"fr","kind":"skirmisher","parent":"gun","bases":[{"x":0,"y":150,"heading":90,"width":20,"depth":20}]}"#;
    let t = table("republique5", "medium", &[gun(), sk.to_string(), foe(300.0)].join(","), "");
    assert_eq!(verdict(&t, 0, 2), (true, false));
    let inf = unit("inf", "fr", "infantry", 0.0, 10.0, 90.0, 25.0, 20.0);
    let t =
        table("republique5", "medium", &[inf, sk.replace("\"gun\"", "\"inf\""), foe(300.0)].join(","), "");
    assert_eq!(verdict(&t, 0, 2), (true, true));
}

#[test]
fn every_combat_base_blocks_a_skirmisher() {
    // 000 §4.1: "skirmish marker line-of-sight is blocked by all combat bases both
    // friendly and enemy". A skirmisher (20 × 20 at the origin, eye x ∈ [-10, 10] at
    // y = 10) behind an enemy gun 25 wide at y = 100: lines to the foe cross y = 100 at
    // |x| ≤ 10 + (15 - 10)·90/280 < 12.5. Blocked. Another skirmisher does not block.
    let me = r#"{"id":"me","side":"fr","kind":"skirmisher","bases":[{"x":0,"y":0,"heading":90,"width":20,"depth":20}]}"#;
    let their_gun = unit("g", "au", "artillery", 0.0, 100.0, 270.0, 25.0, 40.0);
    let t = table("republique5", "medium", &[me.to_string(), their_gun, foe(300.0)].join(","), "");
    assert_eq!(verdict(&t, 0, 2), (false, false));
    let their_sk = r#"{"id":"s2","side":"au","kind":"skirmisher","bases":[{"x":0,"y":100,"heading":270,"width":20,"depth":20}]}"#;
    let t = table("republique5", "medium", &[me.to_string(), their_sk.to_string(), foe(300.0)].join(","), "");
    assert_eq!(verdict(&t, 0, 2), (true, true));
}

// ---------------------------------------------------------------------------------
// Terrain kinds (000 §3.6: those with a spotting depth block sight through them)

#[test]
fn woods_and_buildings_block_marsh_does_not() {
    // A feature x ∈ [-100, 100], y ∈ [120, 200] spans every sight line (|x| ≤ 15).
    for (kind, blocks) in [
        ("light-forest", true),
        ("medium-forest", true),
        ("heavy-forest", true),
        ("orchard", true),
        ("light-buildings", true),
        ("medium-buildings", true),
        ("heavy-buildings", true),
        ("reinforced-buildings", true),
        ("vineyard", true),
        ("steep-ground", true),
        ("marsh", false),
        ("water", false),
    ] {
        let t = table(
            "republique5",
            "medium",
            &[gun(), foe(300.0)].join(","),
            &rect(kind, -100.0, 120.0, 100.0, 200.0, 0.0),
        );
        assert_eq!(verdict(&t, 0, 1), (!blocks, !blocks), "{kind}");
    }
}

fn line_obstacle(kind: &str, y: f64) -> String {
    format!(r#"{{"id":"{kind}","kind":"{kind}","path":[[-200,{y}],[200,{y}]]}}"#)
}

#[test]
fn a_treeline_hides_what_is_more_than_its_spotting_depth_behind_it() {
    // A treeline is trees: it blocks sight through it like a wood's edge, with a 1"
    // spotting depth (000 §3.6; GEOMETRY.md). Foe's near edge at y = 290. Treeline at y =
    // 290 - 0.9" (22.86 mm behind it: within 1") -> seen; at y = 290 - 1.1" -> every line
    // crosses it 27.94 mm or more (slant only adds) before the foe's edge: hidden.
    let at = |kind: &str, back: f64| {
        table("republique5", "medium", &[gun(), foe(300.0)].join(","), &line_obstacle(kind, 290.0 - back))
    };
    assert!(verdict(&at("treeline", 0.9 * IN), 0, 1).0);
    assert!(!verdict(&at("treeline", 1.1 * IN), 0, 1).0);
    // The low obstacles (hedge, stone wall, redoubt, fortress wall) never block a sight
    // line by themselves nor hide what stands beyond their spotting depth (1", ½"): the
    // foe is seen whole at 0.9", 1.1" and 5" behind each (GEOMETRY.md, low linear
    // obstacles).
    for kind in ["hedge", "stone-wall", "redoubt", "fortress-wall"] {
        for back in [0.9 * IN, 1.1 * IN, 5.0 * IN] {
            assert_eq!(verdict(&at(kind, back), 0, 1), (true, true), "{kind} {back} mm in front of the foe");
        }
    }
    // Stream banks have no spotting depth: they do not block.
    let t =
        table("republique5", "medium", &[gun(), foe(300.0)].join(","), &line_obstacle("stream-bank", 150.0));
    assert_eq!(verdict(&t, 0, 1), (true, true));
}

// ---------------------------------------------------------------------------------
// Spotting depth (000 §3.6): a target 0.9" and 1.1" inside medium forest (1")

#[test]
fn spotting_depth_into_medium_forest() {
    // Medium forest x ∈ [-200, 200], y ∈ [200, 400]. Spotter: infantry 60 wide at
    // (0, 0), eye x ∈ [-30, 30] at y = 10, so every target point has a sight line
    // straight up (x constant). The foe faces the spotter with its front edge d inside
    // the wood: centre y = 200 + d + 10. Depth is measured along the sight line from
    // where it enters the wood (y = 200) to where it reaches the target base:
    // - d = 0.9" = 22.86 mm: straight lines run 22.86 mm ≤ 25.4 mm in the wood, for
    //   every point of the base: visible, full base.
    // - d = 1.1" = 27.94 mm: every line runs at least 27.94 mm (slant only lengthens
    //   it) in the wood before the base: not visible.
    let spotter = unit("me", "fr", "infantry", 0.0, 0.0, 90.0, 60.0, 20.0);
    let wood = rect("medium-forest", -200.0, 200.0, 200.0, 400.0, 0.0);
    let at =
        |d: f64| table("republique5", "medium", &[spotter.clone(), foe(200.0 + d + 10.0)].join(","), &wood);
    assert_eq!(verdict(&at(0.9 * IN), 0, 1), (true, true));
    assert_eq!(verdict(&at(1.1 * IN), 0, 1), (false, false));
    // Light forest (2") sees the 1.1" target; at large scale the depths grow by 1.5.
    let light = rect("light-forest", -200.0, 200.0, 200.0, 400.0, 0.0);
    let t =
        table("republique5", "medium", &[spotter.clone(), foe(200.0 + 1.1 * IN + 10.0)].join(","), &light);
    assert_eq!(verdict(&t, 0, 1), (true, true));
    let t = table("republique5", "large", &[spotter.clone(), foe(200.0 + 1.1 * IN + 10.0)].join(","), &wood);
    assert_eq!(verdict(&t, 0, 1), (true, true), "1.1\" < 1.5 × 1\" at large scale");
}

#[test]
fn a_unit_in_the_wood_sees_out_as_far_as_it_is_seen() {
    // Symmetric reading: the spotter stands 0.9" (seen, sees out) or 1.1" deep in the
    // wood y ∈ [-400, 30] with its front edge at y = 30 - d; the target is in the open.
    let wood = rect("medium-forest", -200.0, -400.0, 200.0, 30.0, 0.0);
    for (d, seen) in [(0.9 * IN, true), (1.1 * IN, false)] {
        let me = unit("me", "fr", "infantry", 0.0, 30.0 - d - 10.0, 90.0, 60.0, 20.0);
        let t = table("republique5", "medium", &[me, foe(300.0)].join(","), &wood);
        assert_eq!(verdict(&t, 0, 1).0, seen, "{d}");
    }
}

// ---------------------------------------------------------------------------------
// Hills and blind zones (003 601), Republic rules

/// Spotter: infantry 30 × 20 at (0, 0) facing +y, eye x ∈ [-15, 15] at y = 10, on a
/// hill of level `ls` (x, y ∈ [-100, 40]). Blocker: `blocker` spanning x ∈ [-300, 300],
/// y ∈ [100, 200] (far edge y = 200). Foe centred at y = c, 20 deep.
///
/// The blocker's far edge is a straight line across every sight line, so along any line
/// from an eye point the far-edge distance is D·k and a target point's distance is
/// (y - 10)·k for the same k: a point is in the zone exactly when y - 10 < (1 + m)·190,
/// that is y < y_end = 10 + 190·(1 + m).
fn hill_scene(ls: f64, blocker: &str, c: f64) -> Table {
    let me = unit("me", "us", "infantry", 0.0, 0.0, 90.0, 30.0, 20.0);
    let them = unit("foe", "cs", "infantry", 0.0, c, 270.0, 30.0, 20.0);
    let mut terrain = vec![blocker.to_string()];
    if ls > 0.0 {
        terrain.push(rect("hill", -100.0, -100.0, 100.0, 40.0, ls));
    }
    table("republic", "medium", &[me, them].join(","), &terrain.join(","))
}

fn zone_rows() -> Vec<(&'static str, f64, String, f64)> {
    // (row, spotter level, blocker, multiple m)
    vec![
        // Wood (top ½) on the plain, spotter ½ above: chart row "minus ½": m = 1.
        ("-1/2", 1.0, rect("heavy-forest", -300.0, 100.0, 300.0, 200.0, 0.0), 1.0),
        // Spotter 1 above: m = ½.
        ("-1", 1.5, rect("heavy-forest", -300.0, 100.0, 300.0, 200.0, 0.0), 0.5),
        // Spotter 1½ above: m = ¼.
        ("-1 1/2", 2.0, rect("heavy-forest", -300.0, 100.0, 300.0, 200.0, 0.0), 0.25),
        // A 1-level ridge, spotter 1 above, target surface 1 below the ridge top: the
        // chart's ½, +50% for the further half level: m = 0.75.
        ("-1, target +1/2 lower", 2.0, rect("hill", -300.0, 100.0, 300.0, 200.0, 1.0), 0.75),
    ]
}

#[test]
fn blind_zone_rows_just_inside_and_just_outside_the_zone_end() {
    for (row, ls, blocker, m) in zone_rows() {
        let y_end = 10.0 + 190.0 * (1.0 + m);
        // Whole base inside the zone (far edge 1 mm short of its end): not visible.
        assert_eq!(
            verdict(&hill_scene(ls, &blocker, y_end - 1.0 - 10.0), 0, 1),
            (false, false),
            "row {row}: {y_end}"
        );
        // Whole base beyond it (near edge 1 mm past its end): visible, full base.
        assert_eq!(verdict(&hill_scene(ls, &blocker, y_end + 1.0 + 10.0), 0, 1), (true, true), "row {row}");
        // Near edge 1 mm inside: the far part is seen, a 1 mm strip is not.
        assert_eq!(verdict(&hill_scene(ls, &blocker, y_end - 1.0 + 10.0), 0, 1), (true, false), "row {row}");
    }
}

#[test]
fn blind_zone_is_infinite_when_the_blocker_is_as_high_as_the_spotter() {
    // Spotter on the plain (0) or on a ½ hill, behind a wood whose top is ½: "same level
    // or higher": hidden however far behind.
    let wood = rect("heavy-forest", -300.0, 100.0, 300.0, 200.0, 0.0);
    assert!(!verdict(&hill_scene(0.0, &wood, 3000.0), 0, 1).0);
    assert!(!verdict(&hill_scene(0.5, &wood, 3000.0), 0, 1).0);
    // A spotter a full level up sees it (m = ½: zone ends at y = 295).
    assert!(verdict(&hill_scene(1.5, &wood, 3000.0), 0, 1).0);
}

#[test]
fn a_hill_hides_the_plain_behind_it_but_not_its_own_top() {
    // Spotter on the plain; a 1-level hill y ∈ [100, 200]. A target on the plain behind
    // it is hidden (blocker higher than the spotter). A target standing on the hill is
    // not hidden by the ground it stands on.
    let me = unit("me", "us", "infantry", 0.0, 0.0, 90.0, 30.0, 20.0);
    let hill = rect("hill", -300.0, 100.0, 300.0, 200.0, 1.0);
    let t = table("republic", "medium", &[me.clone(), foe(400.0)].join(","), &hill);
    assert!(!verdict(&t, 0, 1).0);
    let t = table("republic", "medium", &[me, foe(150.0)].join(","), &hill);
    assert_eq!(verdict(&t, 0, 1), (true, true));
}

// ---------------------------------------------------------------------------------
// Full base versus part of a base; the tie rule

#[test]
fn a_wood_corner_hides_part_of_the_target() {
    // Wood x ∈ [-300, 0], y ∈ [100, 200]. Gun eye x ∈ [-12.5, 12.5] at y = 20; foe
    // x ∈ [-15, 15], y ∈ [290, 310]. Lines must keep x ≥ 0 across y ∈ [100, 200]: from
    // (12.5, 20) they reach the foe's right half, but the point (-15, 290) would need
    // x(100) = 12.5 - 27.5·80/270 = 4.4 and x(200) = 12.5 - 27.5·180/270 = -5.8 < 0: hidden.
    let t = table(
        "republique5",
        "medium",
        &[gun(), foe(300.0)].join(","),
        &rect("heavy-forest", -300.0, 100.0, 0.0, 200.0, 0.0),
    );
    assert_eq!(verdict(&t, 0, 1), (true, false));
    let index = SpatialIndex::new(&t);
    let los = TerrainSight::try_new(&index).unwrap();
    let (_, ex) = los.explain(Selection::Unit(0), Selection::Unit(1)).unwrap();
    let w = ex.hidden_point.expect("a hidden point");
    assert!(w.x < 0.0, "{w:?}");
    assert!(ex.blocked_by.iter().any(|c| matches!(c.by, CutBy::Terrain { .. })));
    assert_eq!(ex.sight_lines.len(), 1);
}

#[test]
fn a_sight_line_along_a_wood_edge_is_clear() {
    // Spotter eye x ∈ [-30, 0] (a 30 mm base centred at x = -15); wood x ∈ [-300, 0],
    // y ∈ [100, 200]; target x ∈ [-30, 0]. The only sight line keeps x = 0: it runs
    // along the wood's edge from (0, 10) to (0, 290): grazing is clear (tie rule).
    // Moved 0.1 mm left, the target needs lines ending at x ≤ -0.1 from x ≤ 0: they
    // are inside the wood at y ∈ (100, 200): hidden.
    let me = unit("me", "fr", "infantry", -15.0, 0.0, 90.0, 30.0, 20.0);
    let wood = rect("heavy-forest", -300.0, 100.0, 0.0, 200.0, 0.0);
    let t = table(
        "republique5",
        "medium",
        &[me.clone(), unit("foe", "au", "infantry", -15.0, 300.0, 270.0, 30.0, 20.0)].join(","),
        &wood,
    );
    assert_eq!(verdict(&t, 0, 1), (true, false));
    let t = table(
        "republique5",
        "medium",
        &[me, unit("foe", "au", "infantry", -15.1, 300.0, 270.0, 30.0, 20.0)].join(","),
        &wood,
    );
    assert_eq!(verdict(&t, 0, 1), (false, false));
}

// ---------------------------------------------------------------------------------
// Pro Patria (004 §15.7-15.8, §16.3), 28 mm: 1200 mm visibility, 180° field of view,
// 100 / 150 / 50 mm in cover, 200 mm past woods from a high hill

fn pp_unit(id: &str, side: &str, kind: &str, x: f64, y: f64, heading: f64) -> String {
    let (w, d) = if kind == "cavalry" { (50.0, 50.0) } else { (60.0, 30.0) };
    format!(
        r#"{{"id":"{id}","side":"{side}","kind":"{kind}","bases":[{{"x":{x},"y":{y},"heading":{heading},"width":{w},"depth":{d}}}]}}"#
    )
}

#[test]
fn pro_patria_maximum_visibility_and_field_of_view() {
    // Spotter 60 × 30 at the origin: front edge y = 15. Target's near edge 1199 or
    // 1201 mm further: the closest figures are 1199 / 1201 mm apart.
    for (gap, seen) in [(1199.0, true), (1201.0, false)] {
        let t = table(
            "pro-patria",
            "28mm",
            &[
                pp_unit("a", "fr", "infantry", 0.0, 0.0, 90.0),
                pp_unit("b", "gb", "infantry", 0.0, 15.0 + gap + 15.0, 270.0),
            ]
            .join(","),
            "",
        );
        assert_eq!(verdict(&t, 0, 1).0, seen, "{gap}");
    }
    // 720 mm at 15 mm scale.
    let t = table(
        "pro-patria",
        "15mm",
        &[
            pp_unit("a", "fr", "infantry", 0.0, 0.0, 90.0),
            pp_unit("b", "gb", "infantry", 0.0, 15.0 + 730.0 + 15.0, 270.0),
        ]
        .join(","),
        "",
    );
    assert!(!verdict(&t, 0, 1).0);
    // Behind the spotter's front line (its rear is at y = -15): outside 180°.
    let t = table(
        "pro-patria",
        "28mm",
        &[pp_unit("a", "fr", "infantry", 0.0, 0.0, 90.0), pp_unit("b", "gb", "infantry", 0.0, -200.0, 90.0)]
            .join(","),
        "",
    );
    assert!(!verdict(&t, 0, 1).0);
    // Beside it, straddling the front line y = 15: part in view, not the whole base.
    let t = table(
        "pro-patria",
        "28mm",
        &[pp_unit("a", "fr", "infantry", 0.0, 0.0, 90.0), pp_unit("b", "gb", "infantry", 300.0, 15.0, 90.0)]
            .join(","),
        "",
    );
    assert_eq!(verdict(&t, 0, 1), (true, false));
}

#[test]
fn pro_patria_mounted_troops_see_over_foot_and_screens_never_block() {
    // A friendly foot line x ∈ [-150, 150], y ∈ [185, 215] between spotter and target.
    let line = r#"{"id":"line","side":"fr","kind":"infantry","bases":[{"x":0,"y":200,"heading":90,"width":300,"depth":30}]}"#;
    let target = pp_unit("foe", "gb", "infantry", 0.0, 500.0, 270.0);
    let foot = table(
        "pro-patria",
        "28mm",
        &[pp_unit("a", "fr", "infantry", 0.0, 0.0, 90.0), line.to_string(), target.clone()].join(","),
        "",
    );
    assert!(!verdict(&foot, 0, 2).0);
    let horse = table(
        "pro-patria",
        "28mm",
        &[pp_unit("a", "fr", "cavalry", 0.0, 0.0, 90.0), line.to_string(), target.clone()].join(","),
        "",
    );
    assert_eq!(verdict(&horse, 0, 2), (true, true));
    // A mounted target is seen over the foot by a foot spotter too.
    let horse_target = pp_unit("foe", "gb", "cavalry", 0.0, 500.0, 270.0);
    let t = table(
        "pro-patria",
        "28mm",
        &[pp_unit("a", "fr", "infantry", 0.0, 0.0, 90.0), line.to_string(), horse_target].join(","),
        "",
    );
    assert!(verdict(&t, 0, 2).0);
    // A line of cavalry blocks everyone.
    let cav_line = r#"{"id":"line","side":"fr","kind":"cavalry","bases":[{"x":0,"y":200,"heading":90,"width":300,"depth":50}]}"#;
    let t = table(
        "pro-patria",
        "28mm",
        &[pp_unit("a", "fr", "cavalry", 0.0, 0.0, 90.0), cav_line.to_string(), target.clone()].join(","),
        "",
    );
    assert!(!verdict(&t, 0, 2).0);
    // Skirmish screens do not block.
    let screen = r#"{"id":"line","side":"fr","kind":"infantry","formation":"skirmish-order","bases":[{"x":0,"y":200,"heading":90,"width":300,"depth":30}]}"#;
    let t = table(
        "pro-patria",
        "28mm",
        &[pp_unit("a", "fr", "infantry", 0.0, 0.0, 90.0), screen.to_string(), target].join(","),
        "",
    );
    assert_eq!(verdict(&t, 0, 2), (true, true));
}

#[test]
fn pro_patria_units_in_woods_are_seen_only_close_up() {
    // Heavy wood y ∈ [100, 600]; target (60 × 30) inside it with its near edge at
    // y = 15 + g, the spotter's front edge at y = 15: the sight line through the wood
    // from base to base is g long. Heavy: seen at g ≤ 100; light: ≤ 150.
    for (kind, g, seen) in [
        ("heavy-forest", 95.0, true),
        ("heavy-forest", 105.0, false),
        ("light-forest", 145.0, true),
        ("light-forest", 155.0, false),
    ] {
        let wood = rect(kind, -300.0, 100.0, 300.0, 600.0, 0.0);
        let t = table(
            "pro-patria",
            "28mm",
            &[
                pp_unit("a", "fr", "infantry", 0.0, 0.0, 90.0),
                pp_unit("b", "gb", "infantry", 0.0, 15.0 + g + 15.0, 270.0),
            ]
            .join(","),
            &wood,
        );
        assert_eq!(verdict(&t, 0, 1).0, seen, "{kind} at {g}");
    }
    // A wood between, nobody in it: blocks.
    let wood = rect("light-forest", -300.0, 100.0, 300.0, 120.0, 0.0);
    let t = table(
        "pro-patria",
        "28mm",
        &[pp_unit("a", "fr", "infantry", 0.0, 0.0, 90.0), pp_unit("b", "gb", "infantry", 0.0, 500.0, 270.0)]
            .join(","),
        &wood,
    );
    assert!(!verdict(&t, 0, 1).0);
}

#[test]
fn pro_patria_a_high_hill_sees_200_mm_past_a_wood() {
    // Spotter on a level-1 (high) hill; wood y ∈ [100, 200] on the plain; target's near
    // edge 190 or 210 mm past the wood's far edge (lines straight up are the shortest).
    let hill = rect("hill", -300.0, -100.0, 300.0, 40.0, 1.0);
    let wood = rect("heavy-forest", -300.0, 100.0, 300.0, 200.0, 0.0);
    for (past, seen) in [(190.0, true), (210.0, false)] {
        let t = table(
            "pro-patria",
            "28mm",
            &[
                pp_unit("a", "fr", "infantry", 0.0, 0.0, 90.0),
                pp_unit("b", "gb", "infantry", 0.0, 200.0 + past + 15.0, 270.0),
            ]
            .join(","),
            &[hill.clone(), wood.clone()].join(","),
        );
        assert_eq!(verdict(&t, 0, 1).0, seen, "{past}");
    }
}

#[test]
fn the_model_agrees_with_the_line_of_sight_trait() {
    use vedette_geometry::LineOfSight;
    let t = table(
        "republique5",
        "medium",
        &[gun(), foe(300.0)].join(","),
        &rect("heavy-forest", -300.0, 100.0, 0.0, 200.0, 0.0),
    );
    let index = SpatialIndex::new(&t);
    let los = TerrainSight::try_new(&index).unwrap();
    let e = t.units[0].bases[0].front_edge();
    assert_ne!(los.full_base_visible(&t, 0, &[e.a, e.b], BaseRef::new(1, 0)), FullVisibility::Visible);
    let clear = table("republique5", "medium", &[gun(), foe(300.0)].join(","), "");
    let index = SpatialIndex::new(&clear);
    let los = TerrainSight::try_new(&index).unwrap();
    assert_eq!(los.full_base_visible(&clear, 0, &[e.a, e.b], BaseRef::new(1, 0)), FullVisibility::Visible);
}

#[test]
fn the_space_between_friendly_skirmish_markers_blocks_the_battery() {
    // 000 §4.2: "Artillery may not fire through or over friendly units, including skirmish
    // markers and the spaces between friendly skirmish markers of the same regiment".
    // Markers 20 × 20 at (-40, 150) and (40, 150) leave a gap x ∈ (-30, 30); every line
    // from the eye (|x| ≤ 12.5, y = 20) to the foe (|x| ≤ 15, y ≥ 290) crosses y = 150 at
    // |x| ≤ 15: through the gap, never a marker. The gap blocks the friendly battery;
    // markers of two different regiments leave it open; an infantry spotter ignores it.
    let parent = unit("inf", "fr", "infantry", 400.0, 0.0, 90.0, 30.0, 20.0);
    let other = unit("inf2", "fr", "infantry", -400.0, 0.0, 90.0, 30.0, 20.0);
    let sk = |id: &str, parent: &str, x: f64| {
        format!(
            r#"{{"id":"{id}","side":"fr","kind":"skirmisher","parent":"{parent}","bases":[{{"x":{x},"y":150,"heading":90,"width":20,"depth":20}}]}}"#
        )
    };
    let same =
        [gun(), parent.clone(), other.clone(), sk("s1", "inf", -40.0), sk("s2", "inf", 40.0), foe(300.0)]
            .join(",");
    let t = table("republique5", "medium", &same, "");
    assert_eq!(verdict(&t, 0, 5), (false, false));
    let index = SpatialIndex::new(&t);
    let los = TerrainSight::try_new(&index).unwrap();
    let (_, ex) = los.explain(Selection::Unit(0), Selection::Unit(5)).unwrap();
    assert!(ex.blocked_by.iter().any(|c| matches!(c.by, CutBy::SkirmishScreen(..))), "{:?}", ex.blocked_by);
    let two =
        [gun(), parent.clone(), other, sk("s1", "inf", -40.0), sk("s2", "inf2", 40.0), foe(300.0)].join(",");
    assert_eq!(verdict(&table("republique5", "medium", &two, ""), 0, 5), (true, true));
    assert!(verdict(&t, 1, 5).0, "infantry sees through the gap");
}
