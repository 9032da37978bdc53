//! Pictures of issue 21's second round: spotting depth and blind zones (000 §3.6,
//! 003 601), adjoining divisions (000 §6.2) and the uncertainty of drawn distances on
//! scanned tables. Hand-worked tables; the drawn shapes are the library's own (the
//! same function, vertex for vertex); golden SVGs of the two sight pictures
//! (`REGENERATE=1` rewrites them).

use crate::common;
use common::svg::{flatten, golden_svg};
use common::{root, stderr, vedette};
use vedette_draw::findings::command::draw_command;
use vedette_draw::findings::measure::draw_measurement;
use vedette_draw::findings::sight::draw_sight;
use vedette_draw::{Shape, table_scene};
use vedette_geometry::command::assessment::assess_command;
use vedette_geometry::los::{
    CutBy, SightRules, TerrainRule, TerrainSight, deeper_than, spotting_depth_zones,
};
use vedette_geometry::{SpatialIndex, Table, Vec2, measure_between};

/// A battery 100 mm in front of a medium wood (spotting depth 1", 25.4 mm at medium
/// scale), its target 110 mm inside it.
const DEEP_WOOD: &str = r#"{"schema":"vedette/table/1","name":"deep wood","rules":"republique5","scale":"medium",
 "size":[600,500],
 "units":[
  {"id":"fr-art","side":"fr","kind":"artillery","formation":"unlimbered",
   "bases":[{"x":300,"y":80,"heading":90,"width":40,"depth":40}]},
  {"id":"au-1","side":"au","kind":"infantry","formation":"line",
   "bases":[{"x":300,"y":320,"heading":270,"width":40,"depth":20}]}],
 "terrain":[{"id":"big-wood","kind":"medium-forest","level":0,
   "outline":[[100,200],[500,200],[500,450],[100,450]]}]}"#;

/// Republic: a spotter on a 1-level ridge, a copse (top ½) on the plain between it and
/// its target: a blind zone of multiple 1 (003 601).
const BLIND_ZONE: &str = r#"{"schema":"vedette/table/1","name":"blind zone","rules":"republic","scale":"medium",
 "size":[600,700],
 "units":[
  {"id":"us-1","side":"us","kind":"infantry","formation":"line",
   "bases":[{"x":300,"y":80,"heading":90,"width":40,"depth":20}]},
  {"id":"cs-1","side":"cs","kind":"infantry","formation":"line",
   "bases":[{"x":300,"y":330,"heading":270,"width":40,"depth":20}]}],
 "terrain":[{"id":"ridge","kind":"hill","level":1,"outline":[[100,20],[500,20],[500,140],[100,140]]},
   {"id":"copse","kind":"medium-forest","level":0,"outline":[[200,200],[400,200],[400,240],[200,240]]}]}"#;

/// Two French divisions whose closest units stand 40 mm apart, in the open (within 3",
/// 76.2 mm at medium scale: they adjoin, 000 §6.2), and a third 120 mm beyond (within
/// 6": together only). `sigma` is spliced into every base (a scanned table).
fn divisions(sigma: &str) -> String {
    let base = |x: f64, y: f64| format!(r#"{{"x":{x},"y":{y},"heading":90,"width":40,"depth":20{sigma}}}"#);
    format!(
        r#"{{"schema":"vedette/table/1","rules":"republique5","scale":"medium","size":[800,400],
 "units":[
  {{"id":"fr-1","side":"fr","kind":"infantry","formation":"line","division":"d1","bases":[{}]}},
  {{"id":"fr-2","side":"fr","kind":"infantry","formation":"line","division":"d2","bases":[{}]}},
  {{"id":"fr-3","side":"fr","kind":"infantry","formation":"line","division":"d3","bases":[{}]}},
  {{"id":"au-1","side":"au","kind":"infantry","formation":"line","bases":[{}]}}]}}"#,
        base(100.0, 100.0),
        base(180.0, 100.0),
        base(340.0, 100.0),
        base(700.0, 350.0)
    )
}

fn polyline(scene: &vedette_draw::Scene, id: &str) -> Vec<Vec2> {
    match scene.element(id).map(|e| &e.shape) {
        Some(Shape::Polyline(p)) => p.clone(),
        other => panic!("{id}: {other:?}"),
    }
}

fn sight_picture(
    json: &str,
    a: &str,
    b: &str,
) -> (Table, vedette_draw::Scene, vedette_geometry::los::Explanation) {
    let table = Table::from_json_str(json).unwrap();
    let index = SpatialIndex::new(&table);
    let sight = TerrainSight::try_new(&index).unwrap();
    let (sa, sb) = (table.select(a).unwrap(), table.select(b).unwrap());
    let (v, ex) = sight.explain(sa, sb).unwrap();
    let mut scene = table_scene(&table, "t");
    draw_sight(&mut scene, &table, &table.rule_book().unwrap(), (sa, sb), v.visible, &ex).unwrap();
    (table, scene, ex)
}

#[test]
fn a_spotting_depth_cut_draws_the_run_in_cover_and_the_library_s_deep_part() {
    // The line examined runs up x = 300 from the battery's front edge (y = 100) to the
    // target's centre (y = 320); it enters the wood at y = 200 and has run the depth,
    // 25.4 mm, at y = 225.4: the cut, and the end of the drawn run.
    let (table, scene, ex) = sight_picture(DEEP_WOOD, "fr-art", "au-1");
    let cut = ex
        .blocked_by
        .iter()
        .find(|c| matches!(c.by, CutBy::Terrain { rule: TerrainRule::SpottingDepth { .. }, .. }))
        .expect("a spotting-depth cut");
    let s = cut.stretch.expect("its stretch");
    assert!(
        s.a.distance(Vec2::new(300.0, 200.0)) < 1e-9 && s.b.distance(Vec2::new(300.0, 225.4)) < 1e-9,
        "{s:?}"
    );
    let k = ex.blocked_by.iter().position(|c| c == cut).unwrap();
    assert_eq!(polyline(&scene, &format!("depth-run-{k}")), vec![s.a, s.b]);
    // The wood deeper than 25.4 mm: the rectangle 125.4..474.6 x 225.4..424.6, drawn as
    // the library's polygon vertex for vertex.
    let depth = SightRules::for_book(&table.rule_book().unwrap()).unwrap().spotting_depth_mm[1];
    assert!((depth - 25.4).abs() < 1e-9);
    let core = deeper_than(&table.terrain[0].polygon(), depth);
    assert_eq!(core.len(), 1);
    let Some(Shape::Polygon { exterior, holes }) =
        scene.element("spotting-depth-big-wood-0").map(|e| &e.shape)
    else {
        panic!("no spotting-depth-big-wood-0")
    };
    assert_eq!((exterior, holes), (&core[0].exterior, &core[0].holes));
    let (lo, hi) = exterior.iter().fold(
        (Vec2::new(f64::INFINITY, f64::INFINITY), Vec2::new(f64::NEG_INFINITY, f64::NEG_INFINITY)),
        |(lo, hi), q| (Vec2::new(lo.x.min(q.x), lo.y.min(q.y)), Vec2::new(hi.x.max(q.x), hi.y.max(q.y))),
    );
    assert!(lo.distance(Vec2::new(125.4, 225.4)) < 1e-5 && hi.distance(Vec2::new(474.6, 424.6)) < 1e-5);
    assert!((core[0].area() - 349.2 * 199.2).abs() < 1e-3);
    // The same function draws the plan's layer.
    let zones = spotting_depth_zones(&table, &SightRules::for_book(&table.rule_book().unwrap()).unwrap());
    assert_eq!(zones.len(), 1);
    assert_eq!(zones[0].hidden, core);
}

#[test]
fn a_blind_zone_cut_draws_the_zone_on_the_line() {
    // The line examined runs from (300, 90) to (300, 330). The copse's far edge is at
    // y = 240, D = 150 mm from the eye; multiple 1 (the spotter 1 level up, the copse's
    // top ½): the zone runs 150 mm behind it, to y = 390, and the target (y = 330) is in it.
    let (_, scene, ex) = sight_picture(BLIND_ZONE, "us-1", "cs-1");
    let k = ex
        .blocked_by
        .iter()
        .position(|c| matches!(c.by, CutBy::Terrain { rule: TerrainRule::BlindZone { .. }, .. }))
        .expect("a blind-zone cut");
    let s = ex.blocked_by[k].stretch.expect("its zone");
    assert!(
        s.a.distance(Vec2::new(300.0, 240.0)) < 1e-9 && s.b.distance(Vec2::new(300.0, 390.0)) < 1e-9,
        "{s:?}"
    );
    assert_eq!(polyline(&scene, &format!("blind-zone-{k}")), vec![s.a, s.b]);
    let title = scene.element(&format!("blind-zone-{k}")).and_then(|e| e.title.clone()).unwrap();
    assert!(title.contains("003 601") && title.contains("150.0 mm"), "{title}");
}

#[test]
fn adjoining_divisions_are_joined_at_the_library_s_closest_points() {
    let table = Table::from_json_str(&divisions("")).unwrap();
    let index = SpatialIndex::new(&table);
    let sight = TerrainSight::try_new(&index).unwrap();
    let book = table.rule_book().unwrap();
    let found = assess_command(&table, &index, &book, &sight).unwrap();
    let mut scene = table_scene(&table, "t");
    draw_command(&mut scene, &table, &book, &found);
    let d12 = found.division_pairs.iter().find(|p| p.a == "d1" && p.b == "d2").unwrap();
    assert!(d12.adjoining);
    let line = d12.line(&table).unwrap();
    // Hand-worked: the bases face +y, 40 wide along x: fr-1 spans x 80-120, fr-2 x
    // 160-200: 40 mm apart, at y anywhere along their shared 20 mm of depth.
    assert!((line.closest.distance_mm - 40.0).abs() < 1e-9);
    assert!((line.closest.from.x - 120.0).abs() < 1e-9 && (line.closest.to.x - 160.0).abs() < 1e-9);
    let drawn = polyline(&scene, "adjoining-d1-d2");
    assert_eq!(drawn, vec![line.closest.from, line.closest.to]);
    // d2 and d3: 120 mm (within 6", 152.4 mm, but not 3"): together, not adjoining.
    let d23 = found.division_pairs.iter().find(|p| p.a == "d2" && p.b == "d3").unwrap();
    assert!(d23.together && !d23.adjoining);
    let line = d23.line(&table).unwrap();
    assert_eq!(polyline(&scene, "together-d2-d3"), vec![line.closest.from, line.closest.to]);
    // No ± on a hand-typed table.
    let title = scene.element("adjoining-d1-d2").and_then(|e| e.title.clone()).unwrap();
    assert!(title.contains("1.57 rule-in (40.0 mm)") && !title.contains('±'), "{title}");
}

#[test]
fn drawn_distances_carry_their_uncertainty_on_a_scanned_table_only() {
    // sigma 0.3 mm per base, no heading sigma: the distance's sigma is the two combined,
    // 0.3 √2 = 0.42 mm = 0.02 rule-in. At 0.05 mm per base, 0.071 mm = 0.003 rule-in,
    // which would read "± 0.00": the inches go without it. At 0.02 mm, 0.028 mm: the mm
    // to 0.01.
    for (sigma, expected) in [
        (r#","sigma_mm":0.3"#, "1.57 ± 0.02 rule-in (40.0 ± 0.4 mm)"),
        (r#","sigma_mm":0.05"#, "1.57 rule-in (40.0 ± 0.1 mm)"),
        (r#","sigma_mm":0.02"#, "1.57 rule-in (40.00 ± 0.03 mm)"),
        ("", "1.57 rule-in (40.0 mm)"),
    ] {
        let table = Table::from_json_str(&divisions(sigma)).unwrap();
        let book = table.rule_book().unwrap();
        let (sa, sb) = (table.select("fr-1").unwrap(), table.select("fr-2").unwrap());
        let m = measure_between(&table, &book, sa, sb).unwrap();
        let mut scene = table_scene(&table, "t");
        draw_measurement(&mut scene, &table, &book, (sa, sb), &m.found.closest, m.sigma_mm);
        let Some(Shape::Text { text, .. }) = scene.element("measure-label").map(|e| &e.shape) else {
            panic!("no label")
        };
        assert_eq!(text, expected);
        // The plan's adjoining line says the same.
        let index = SpatialIndex::new(&table);
        let sight = TerrainSight::try_new(&index).unwrap();
        let found = assess_command(&table, &index, &book, &sight).unwrap();
        let mut plan = table_scene(&table, "t");
        draw_command(&mut plan, &table, &book, &found);
        let Some(Shape::Text { text, .. }) = plan.element("adjoining-d1-d2-label").map(|e| &e.shape) else {
            panic!("no adjoining label")
        };
        assert!(text.ends_with(expected), "{text}");
        assert_eq!(text.contains('±'), !sigma.is_empty());
    }
}

#[test]
fn the_sight_pictures_of_a_spotting_depth_and_a_blind_zone_match_their_goldens() {
    let dir = tempfile::tempdir().unwrap();
    for (name, json, a, b) in [
        ("los-spotting-depth.svg", DEEP_WOOD, "fr-art", "au-1"),
        ("los-blind-zone.svg", BLIND_ZONE, "us-1", "cs-1"),
    ] {
        let table = dir.path().join(name.replace(".svg", ".json"));
        std::fs::write(&table, json).unwrap();
        let out = dir.path().join(name);
        let o = vedette(&["los", table.to_str().unwrap(), a, b, "--svg", out.to_str().unwrap()]);
        assert!(o.status.success(), "{}", stderr(&o));
        let svg = std::fs::read_to_string(&out).unwrap();
        golden_svg(&root().join("tests/golden/pictures").join(name), &svg);
        let nodes = flatten(&svg).unwrap();
        let has = |p: &str| nodes.iter().any(|n| n.id.as_deref().is_some_and(|i| i.starts_with(p)));
        assert!(has(if a == "fr-art" { "depth-run-" } else { "blind-zone-" }), "{name}");
    }
    // The plan of the wood with every finding shows its deep part in its own layer.
    let table = dir.path().join("deep.json");
    std::fs::write(&table, DEEP_WOOD).unwrap();
    let out = dir.path().join("plan.svg");
    let o = vedette(&["report", table.to_str().unwrap(), "--plan", out.to_str().unwrap(), "--layers", "all"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let svg = std::fs::read_to_string(&out).unwrap();
    assert!(svg.contains(r#"<path id="spotting-depth-big-wood-0" class="spotting-depth""#), "{svg}");
}

/// The boxes of the visible labels of a plan (not the legend's), estimated as the
/// placer does (0.55 em a character, the baseline 0.22 em above the bottom).
fn label_boxes(svg: &str) -> Vec<(String, [f64; 4])> {
    let doc = roxmltree::Document::parse(svg).unwrap();
    let drawing = doc.descendants().find(|n| n.attribute("id") == Some("drawing")).unwrap();
    drawing
        .descendants()
        .filter(|n| n.has_tag_name("text"))
        // A numbered callout's number marks an anchor; its text is in the key.
        .filter(|n| n.parent().and_then(|p| p.attribute("class")) != Some("callout"))
        .map(|n| {
            let f = |a: &str| n.attribute(a).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
            let (x, y, h) = (f("x"), f("y"), f("font-size"));
            let text: String = n.children().filter(|c| c.is_text()).filter_map(|c| c.text()).collect();
            let w = text.chars().count() as f64 * vedette_draw::labels::CHAR_EM * h;
            let x0 = match n.attribute("text-anchor") {
                Some("middle") => x - w / 2.0,
                Some("end") => x - w,
                _ => x,
            };
            (text, [x0, y + 0.22 * h - h, x0 + w, y + 0.22 * h])
        })
        .collect()
}

/// Pairs of visible labels whose boxes overlap by more than the rounding of the
/// coordinates written (0.01).
fn overlapping_pairs(boxes: &[(String, [f64; 4])]) -> usize {
    let e = 0.02;
    let mut n = 0;
    for (i, (_, a)) in boxes.iter().enumerate() {
        for (_, b) in &boxes[i + 1..] {
            if a[0] + e < b[2] && b[0] + e < a[2] && a[1] + e < b[3] && b[1] + e < a[3] {
                n += 1;
            }
        }
    }
    n
}

#[test]
fn no_two_visible_labels_of_the_grand_battle_plan_overlap() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("plan.svg");
    let table = common::sample("grand-battle.json");
    let o = vedette(&["report", table.to_str().unwrap(), "--plan", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let svg = std::fs::read_to_string(&out).unwrap();
    let boxes = label_boxes(&svg);
    let n = overlapping_pairs(&boxes);
    eprintln!("grand-battle plan: {} visible labels, {n} overlapping pairs", boxes.len());
    assert_eq!(n, 0, "{} labels", boxes.len());
}
