//! Pictures (issue 21) end to end: the plans of the samples and the pictures of
//! `measure`, `los` and `explain` against golden SVGs compared structurally (elements,
//! ids, coordinates to 0.01 mm; `REGENERATE=1` rewrites them), a group per layer, the
//! drawn geometry being the library's own, hand-worked pairs, and bad outputs refused.

use crate::common;
use common::svg::{compare, flatten, golden_svg};
use common::{root, sample, stderr, stdout, vedette};
use std::path::{Path, PathBuf};
use vedette_draw::explain::{explain_assault, explain_battery};
use vedette_draw::{LayerId, Shape};
use vedette_geometry::assault::assessment::assess_assaults;
use vedette_geometry::los::TerrainSight;
use vedette_geometry::{
    ArtilleryRules, BaseRef, Battlefield, SpatialIndex, Table, TerrainOutlines, assess_battery,
};

fn golden(name: &str) -> PathBuf {
    root().join("tests/golden/pictures").join(name)
}

/// Runs vedette with `args` writing `out` (inside a fresh directory) and returns the SVG.
fn draw(args: &[&str], flag: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.svg");
    let mut all: Vec<&str> = args.to_vec();
    all.extend([flag, out.to_str().unwrap()]);
    let o = vedette(&all);
    assert!(o.status.success(), "{}", stderr(&o));
    std::fs::read_to_string(&out).unwrap()
}

fn load(name: &str) -> Table {
    Table::load(sample(name)).unwrap()
}

const SAMPLES: [&str; 6] =
    ["brigade-attack", "classic-assault", "pro-patria-charge", "republic-overlap", "skirmish", "woods-block"];

#[test]
fn report_plans_of_the_samples_match_their_goldens() {
    for s in SAMPLES {
        let path = sample(&format!("{s}.json"));
        let svg = draw(&["report", path.to_str().unwrap(), "--layers", "all"], "--plan");
        golden_svg(&golden(&format!("{s}.plan.svg")), &svg);
    }
}

#[test]
fn measure_los_and_explain_pictures_match_their_goldens() {
    let cases: [(&str, Vec<&str>, &str); 4] = [
        ("measure-skirmish.svg", vec!["measure", "skirmish.json", "fr-1", "au-1"], "--svg"),
        ("los-woods-block.svg", vec!["los", "woods-block.json", "fr-art-1", "au-1"], "--svg"),
        ("explain-battery.svg", vec!["explain", "brigade-attack.json", "fr-art-1", "au-3"], "--svg"),
        ("explain-assault.svg", vec!["explain", "brigade-attack.json", "fr-1-3", "au-2"], "--svg"),
    ];
    for (name, args, flag) in cases {
        let table = sample(args[1]);
        let mut a = args.clone();
        a[1] = table.to_str().unwrap();
        golden_svg(&golden(name), &draw(&a, flag));
    }
}

#[test]
fn every_plan_has_a_group_per_layer_and_a_polygon_per_base() {
    for s in SAMPLES {
        let path = sample(&format!("{s}.json"));
        let svg = draw(&["report", path.to_str().unwrap(), "--layers", "all"], "--plan");
        let nodes = flatten(&svg).unwrap();
        for layer in LayerId::ALL {
            assert!(
                nodes.iter().any(|n| n.tag == "g" && n.id.as_deref() == Some(layer.name())),
                "{s}: no group \"{}\"",
                layer.name()
            );
        }
        let table = load(&format!("{s}.json"));
        let bases =
            nodes.iter().filter(|n| n.class.as_deref().is_some_and(|c| c.starts_with("base "))).count();
        assert_eq!(bases, table.base_count(), "{s}: one outline per base");
        // Something of each finding the report has: a battery's arc, an assault contact.
        let has = |prefix: &str| nodes.iter().any(|n| n.id.as_deref().is_some_and(|i| i.starts_with(prefix)));
        let expected: &[&str] = match s {
            // Pro Patria: fr-art may not fire on au-bn3 (it endangers fr-bn4, 004
            // §17.3.8), three units are out of fr-gen's command, fr-bn2 is too close.
            "pro-patria-charge" => &[
                "corridor-fr-art-au-bn3",
                "endangered-fr-art-fr-bn4.0",
                "command-radius-fr-gen-0",
                "out-of-command-fr-art.0",
                "proximity-fr-bn2-au-bn2",
                "firing-arc-fr-art.0",
            ],
            // Republic: au-1 is alert and fr-1 is in its 4" zone (003 201).
            "republic-overlap" => &["alert-zone-au-1.0", "alert-au-1-fr-1"],
            _ => &[],
        };
        for p in expected {
            assert!(has(p), "{s}: no element {p}*");
        }
        if s == "brigade-attack" {
            for p in [
                "arc-fr-art-1",
                "zone-fr-art-1",
                "deep-window-fr-art-1",
                "contact-fr-1-3-au-2",
                "flank-line-au-2",
                "deployment-division_fr-d1",
                "reach-fr-ldr-1",
                "enfilade-fr-art-2-au-5-left",
            ] {
                assert!(has(p), "{s}: no element {p}*");
            }
        }
    }
}

#[test]
fn division_engagement_and_rally_penalties_are_drawn_with_the_report_numbers() {
    // samples/brigade-attack.json, as `vedette report` gives it: au-d1 and fr-d1 are
    // engaged at 0.79" (fr-1-2's skirmish marker 20 mm from au-2); au-5 is 12.24" from
    // au-ldr-1 (rally -2: two full 4" steps beyond 4"), au-art-1 9.25" (-1), fr-art-2
    // 13.58" from fr-ldr-1 (-2). Units without a penalty get no line.
    let path = sample("brigade-attack.json");
    let svg = draw(&["report", path.to_str().unwrap(), "--layers", "all"], "--plan");
    for (id, text) in [
        ("engagement-au-2-fr-1-2-sk-label", "au-d1 engaged: fr-1-2-sk at 0.79 rule-in (20.0 mm)"),
        ("engagement-fr-1-2-sk-au-2-label", "fr-d1 engaged: au-2 at 0.79 rule-in (20.0 mm)"),
        ("rally-au-ldr-1-au-5-label", "au-5 rally -2: 12.24 rule-in (310.8 mm) from its leader"),
        ("rally-au-ldr-1-au-art-1-label", "au-art-1 rally -1: 9.25 rule-in (235.1 mm) from its leader"),
        ("rally-fr-ldr-1-fr-art-2-label", "fr-art-2 rally -2: 13.58 rule-in (345.0 mm) from its leader"),
    ] {
        assert_eq!(text_of(&svg, id), Some(text), "{id}");
        let line = id.trim_end_matches("-label");
        assert!(svg.contains(&format!("id=\"{line}\"")), "no {line}");
    }
    // Only units with a penalty: three lines and their three labels.
    assert_eq!(svg.matches("id=\"rally-").count(), 6);
}

#[test]
fn overlaps_outnumbering_and_divisions_together_are_said_on_the_plan() {
    // samples/republic-overlap.json, as the report gives it: fr-1 overlaps au-1 by a base
    // (30 mm) on each side, unopposed on its left only (au-2 faces its right-hand base);
    // fr-2 overlaps au-3 by half a base (15 mm) on both sides, unopposed; the groups:
    // au-1 and au-2 on fr-1 3:4, mixed; au-3 on fr-2 1:2 and fr-2 on au-3 2:1, the
    // side with one base outnumbered 2:1 (000 §5.4).
    let path = sample("republic-overlap.json");
    let svg = draw(&["report", path.to_str().unwrap(), "--layers", "all"], "--plan");
    for text in [
        ">fr-1 overlaps au-1 on its left by 1.18 rule-in (30.0 mm), unopposed (003 501)<",
        ">fr-1 overlaps au-1 on its right by 1.18 rule-in (30.0 mm), opposed (003 501)<",
        ">fr-2 overlaps au-3 on its left by 0.59 rule-in (15.0 mm), unopposed (003 501)<",
        ">fr-2 overlaps au-3 on its right by 0.59 rule-in (15.0 mm), unopposed (003 501)<",
        ">au-1 au-2 on fr-1: 3:4 bases, mixed all-out and general<",
        ">au-3 on fr-2: 1:2 bases, attackers outnumbered (2.00, 000 §5.4)<",
        ">fr-2 on au-3: 2:1 bases, defenders outnumbered (2.00, 000 §5.4)<",
        // Divisions close together: within 6" (000 §3.3), not adjoining.
        ">fr-d1 | fr-d2 together, not adjoining 5.57 rule-in (141.5 mm)<",
    ] {
        assert!(svg.contains(text), "no {text}");
    }
}

/// The text of the plan's label `id`, if any: written on the plan, on hover (a dot with
/// a title) or numbered (a callout, its text in the key) where the plan has no room.
fn text_of<'a>(svg: &'a str, id: &str) -> Option<&'a str> {
    let at = svg.find(&format!("id=\"{id}\""))?;
    // A numbered callout (no room on the plan): its text is its title (and in the key).
    if svg[..at].ends_with("<g ") {
        let open = svg[at..].find("<title>")? + at + "<title>".len();
        let close = svg[open..].find('<')? + open;
        return Some(&svg[open..close]);
    }
    let mut open = svg[at..].find('>')? + at + 1;
    if svg[open..].starts_with("<title>") {
        open += "<title>".len();
    }
    let close = svg[open..].find('<')? + open;
    Some(&svg[open..close])
}

#[test]
fn deployment_areas_assets_outside_and_pass_through_reach_are_said_on_the_plan() {
    // samples/brigade-attack.json, as `vedette report` gives it: au-d1's area 212.46 sq
    // in, au-art-1 outside it with 74.06% of its base inside; fr-art-2 outside fr-d1's
    // (0%); au-4 1.97" from au-3, within its 3" pass-through reach (000 §5.5).
    let path = sample("brigade-attack.json");
    let svg = draw(&["report", path.to_str().unwrap(), "--layers", "all"], "--plan");
    for (id, text) in [
        ("deployment-division_au-d1-label", "division au-d1 area: 212 sq in"),
        ("deployment-division_fr-d1-label", "division fr-d1 area: 188 sq in"),
        ("outside-area-au-art-1-label", "au-art-1 OUTSIDE its area (74% in)"),
        ("outside-area-fr-art-2-label", "fr-art-2 OUTSIDE its area (0% in)"),
        (
            "pass-through-au-3-au-4-label",
            "au-4 within the pass-through reach of au-3: 1.97 rule-in (50.0 mm)",
        ),
    ] {
        assert_eq!(text_of(&svg, id), Some(text), "{id}");
    }
    // Only the two assets outside their areas are labelled so (brigade-attack's other
    // asset, fr-1-2's division's fr-art-1, stands inside).
    let outside_labels = svg
        .match_indices("id=\"outside-area-")
        .filter(|(at, _)| svg[at + 4..].split('"').next().is_some_and(|id| id.ends_with("-label")))
        .count();
    assert_eq!(outside_labels, 2);
}

/// A table (Republique 5.0, medium scale: 1 rule-inch = 25.4 mm) with a French marker
/// fr-sk (20 x 20 mm) at the origin facing +y, its parent fr-1 80 mm behind; Austrian
/// infantry au-1 (30 x 20) with its near edge 2" (50.8 mm) ahead of the marker, and an
/// Austrian marker au-sk 40 mm to the side and 1" ahead (near edge at y = 35.4): the
/// markers' closest points are (10, 10) and (50, 35.4), 47.4 mm apart.
fn skirmish_fire_table(dir: &Path) -> PathBuf {
    use vedette_geometry::{Base, BaseSize, Pose, RuleSet, Scale, Unit, UnitKind, Vec2};
    let b = |x: f64, y: f64, h: f64, w: f64, d: f64| {
        Base::new(BaseSize::new(w, d), Pose::new(Vec2::new(x, y), h))
    };
    let at = Vec2::new(600.0, 400.0);
    let moved = |mut u: Unit| {
        for base in &mut u.bases {
            *base = b(
                base.centre().x + at.x,
                base.centre().y + at.y,
                base.heading_deg(),
                base.width(),
                base.depth(),
            );
        }
        u
    };
    let mut fr_sk = Unit::new("fr-sk", "france", UnitKind::Skirmisher, vec![b(0.0, 0.0, 90.0, 20.0, 20.0)]);
    fr_sk.parent = Some("fr-1".into());
    let mut au_sk =
        Unit::new("au-sk", "austria", UnitKind::Skirmisher, vec![b(60.0, 45.4, 270.0, 20.0, 20.0)]);
    au_sk.parent = Some("au-1".into());
    let units = vec![
        moved(Unit::new("fr-1", "france", UnitKind::Infantry, vec![b(0.0, -80.0, 90.0, 30.0, 20.0)])),
        moved(fr_sk),
        moved(Unit::new("au-1", "austria", UnitKind::Infantry, vec![b(0.0, 70.8, 270.0, 30.0, 20.0)])),
        moved(au_sk),
    ];
    let table = Table::new(RuleSet::Republique5, Scale::Medium, units);
    let path = dir.join("skirmish-fire.json");
    std::fs::write(&path, serde_json::to_string_pretty(&table).unwrap()).unwrap();
    path
}

#[test]
fn skirmish_fire_and_blocking_are_said_on_the_plan() {
    // Hand-worked (000 §4.1): the markers are each other's closest enemy marker within
    // 3" (47.4 mm = 1.87"): each blocks the other. fr-sk sees au-1 2.00" ahead (within 3"),
    // but it is blocked when attacking, and an enemy marker within 3" stops its
    // defensive fire: no fire. au-sk has no French combat base within 3" (fr-1 is 105 mm
    // away), so it has no target.
    let dir = tempfile::tempdir().unwrap();
    let path = skirmish_fire_table(dir.path());
    let report = vedette(&["report", path.to_str().unwrap()]);
    assert!(report.status.success(), "{}", stderr(&report));
    assert!(
        stdout(&report).contains("on au-1 (blocked); blocks au-sk#0; blocked by au-sk#0"),
        "{}",
        stdout(&report)
    );
    let svg = draw(&["report", path.to_str().unwrap(), "--layers", "all"], "--plan");
    assert_eq!(
        text_of(&svg, "blocks-fr-sk_0-label"),
        Some("fr-sk#0 and au-sk#0 block each other 1.87 rule-in (47.4 mm)")
    );
    assert_eq!(
        text_of(&svg, "fire-fr-sk_0-au-1-label"),
        Some("fr-sk#0 blocked: no fire on au-1 2.00 rule-in (50.8 mm)")
    );
    // One line for the pair, none from au-sk.
    assert_eq!(svg.matches("id=\"blocks-").count(), 2, "the line and its label");
    assert!(!svg.contains("id=\"fire-au-sk"));

    // A marker with a target and no enemy marker within 3" fires both ways: on
    // brigade-attack fr-1-2-sk#1 fires on au-2, 20 mm (0.79") ahead.
    let brigade = sample("brigade-attack.json");
    let svg = draw(&["report", brigade.to_str().unwrap(), "--layers", "all"], "--plan");
    assert_eq!(
        text_of(&svg, "fire-fr-1-2-sk_1-au-2-label"),
        Some("fr-1-2-sk#1 fires on au-2 0.79 rule-in (20.0 mm)")
    );
}

#[test]
fn written_verdicts_name_who_does_what_to_whom() {
    // As the samples' descriptions and reports give them: pro-patria-charge's fr-art
    // may not fire at au-bn3 (510 mm) because fr-bn4 stands in its corridor (004
    // §17.3.8), and stands 410 mm from fr-gen, beyond the 400 mm command radius
    // (§14.2); republic-overlap's fr-1 is 1" from au-1, inside its 4" alert zone (003
    // 201); skirmish's marker stands 2.44" from its parent fr-2 (000 §3.6).
    for (name, texts) in [
        (
            "pro-patria-charge.json",
            vec![
                ">fr-art → au-bn3 at 510.0 mm: may not fire, endangers fr-bn4 (004 §17.3.8)<",
                ">fr-art OUT of command: 410.0 mm from fr-gen (400 mm)<",
                ">fr-bn4 → au-bn3 at 280.0 mm<",
            ],
        ),
        (
            "republic-overlap.json",
            vec![">fr-1 in the alert zone of au-1 at 1.00 rule-in (25.4 mm) (003 201)<"],
        ),
        ("skirmish.json", vec![">fr-sk#0 to its parent fr-2: 2.44 rule-in (92.8 mm)<"]),
    ] {
        let path = sample(name);
        let svg = draw(&["report", path.to_str().unwrap(), "--layers", "all"], "--plan");
        for text in texts {
            assert!(svg.contains(text), "{name}: no {text}");
        }
    }
}

#[test]
fn each_main_target_says_the_battery_row_of_the_report() {
    // samples/brigade-attack.json's battery rows, as `vedette report` prints them:
    // fr-art-1 (packed frontage) on au-3 at 5.51" bracket 3, deep with 3 bases, tandem
    // au-4; fr-art-2 on au-5 at 7.28" bracket 4, 1 base in the window (not deep),
    // enfilade on the left flank; au-art-1 on fr-1-3 at 1.99" bracket 1, deep. The
    // leaders' 3" reaches hold fr-1-2 and au-4.
    let path = sample("brigade-attack.json");
    let svg = draw(&["report", path.to_str().unwrap(), "--layers", "all"], "--plan");
    for (id, text) in [
        (
            "range-fr-art-1-au-3-label",
            "fr-art-1 (packed) → au-3 5.51 rule-in (140.0 mm) br 3, DEEP (3 bases), tandem au-4",
        ),
        ("range-fr-art-2-au-5-label", "fr-art-2 → au-5 7.28 rule-in (185.0 mm) br 4, ENFILADE, left flank"),
        ("range-au-art-1-fr-1-3-label", "au-art-1 → fr-1-3 1.99 rule-in (50.5 mm) br 1, DEEP (3 bases)"),
        ("reach-fr-ldr-1-label", "fr-ldr-1 within 3.00 rule-in (76.2 mm): fr-1-2"),
        ("reach-au-ldr-1-label", "au-ldr-1 within 3.00 rule-in (76.2 mm): au-4"),
    ] {
        assert_eq!(text_of(&svg, id), Some(text), "{id}");
    }
    // A packed frontage with a main target is said in its label; normal ones go
    // without saying (and what does not hold, not deep or no enfilade, is not written:
    // the labels above).
    assert!(
        !svg.contains("id=\"frontage-fr-art-1-label\"") && !svg.contains("id=\"frontage-fr-art-2-label\"")
    );
}

#[test]
fn an_aspect_exception_is_said_on_the_contact() {
    // samples/classic-assault.json, as the report gives it: A is past Y's flank line but
    // units in buildings have no flank (001 §4.3): front*; C strikes square S from
    // behind: a square has no flank or rear (front*).
    let path = sample("classic-assault.json");
    let svg = draw(&["report", path.to_str().unwrap(), "--layers", "all"], "--plan");
    for text in [
        ">A → Y primary 0.79 rule-in (20.0 mm), front (buildings: no flank)<",
        ">C → S primary 0.79 rule-in (20.0 mm), front (square)<",
    ] {
        assert!(svg.contains(text), "no {text}");
    }
}

#[test]
fn every_candidate_target_says_why_it_is_not_the_main_one() {
    // The report's target tables (`vedette report`): woods-block's fr-art-1 has au-1 in
    // its arc but sees no base of it whole (the wood); on brigade-attack fr-art-1's au-4
    // is hidden and au-cav-1 valid but not chosen, and each of fr-art-2 and au-art-1 has
    // the other 7% in its arc.
    for (name, expected) in [
        ("woods-block.json", vec!["fr-art-1 → au-1: no base wholly in sight"]),
        (
            "brigade-attack.json",
            vec![
                "fr-art-1 → au-4: no base wholly in sight",
                "fr-art-1 → au-cav-1: valid, not the main target",
                "fr-art-2 → au-art-1: less than half a base in the arc",
                "au-art-1 → fr-art-2: less than half a base in the arc",
            ],
        ),
    ] {
        let path = sample(name);
        let svg = draw(&["report", path.to_str().unwrap(), "--layers", "all"], "--plan");
        let found: Vec<&str> = svg
            .match_indices("id=\"candidate-")
            .filter_map(|(at, _)| {
                let open = svg[at..].find('>')? + at + 1;
                let close = svg[open..].find('<')? + open;
                Some(&svg[open..close])
            })
            .collect();
        assert_eq!(found, expected, "{name}");
    }
}

#[test]
fn a_moved_coordinate_fails_the_structural_comparison() {
    // The comparison can fail: a hundredth of a millimetre passes, two do not.
    let a = r#"<svg xmlns="http://www.w3.org/2000/svg"><g id="bases"><path id="b" class="base" d="M1.00 2.00 L3.00 4.00"/></g></svg>"#;
    let near = a.replace("3.00", "3.01");
    let moved = a.replace("3.00", "3.02");
    let renamed = a.replace("id=\"b\"", "id=\"c\"");
    assert!(compare(a, &near).is_ok());
    assert!(compare(a, &moved).unwrap_err().contains("number 2"));
    assert!(compare(a, &renamed).is_err());
    assert!(compare(a, &a.replace("</g>", "<circle cx=\"1\" cy=\"1\" r=\"1\"/></g>")).is_err());
}

fn battery_pair(table: &Table, battery: &str, target: &str) -> vedette_draw::explain::PairExplanation {
    let index = SpatialIndex::new(table);
    let rules = ArtilleryRules::for_table(table).unwrap();
    let sight = TerrainSight::try_new(&index).unwrap();
    let field =
        Battlefield { table, index: &index, rules: &rules, line_of_sight: &sight, ground: &TerrainOutlines };
    let r = BaseRef::new(table.unit_index(battery).unwrap(), 0);
    let found = assess_battery(&field, r).unwrap();
    explain_battery(table, &index, &rules, &found, table.unit_index(target).unwrap(), None)
}

#[test]
fn battery_and_target_hand_worked() {
    // brigade-attack.json: fr-art-1 at (625, 440) facing +y, 25 x 40, packed: its front
    // edge runs x 612.5-637.5 at y = 460. au-3 faces -y with its front edge at y = 600,
    // x 580-700. Range 600 - 460 = 140 mm = 5.51", bracket 3 (4-6"), 12.4 mm short of
    // 6" (152.4 mm). At y = 600 the arc is 12.5 + 140 tan 30° = 93.3 mm either side of
    // x = 625, so all of au-3 is inside.
    let table = load("brigade-attack.json");
    let e = battery_pair(&table, "fr-art-1", "au-3");
    let text = e.render_text();
    assert!(text.contains("In the arc of fire? yes: at best 100% of one base inside"), "{text}");
    assert!(text.contains("Range? 5.51 rule-in (140.0 mm) from the frontage to au-3#2: bracket 3 (4-6\"); 12.40 mm from the 6.00 rule-in (152.4 mm) limit (000 §4.3)"), "{text}");
    assert!(text.contains("Main target? yes"), "{text}");
    assert!(text.contains("Deep? yes: 3 counted base(s)"), "{text}");
    // The range drawn is the measured one, straight from the frontage (y = 460) to the
    // nearest base (y = 600), within the frontage's width (the edges are parallel: any
    // such pair is a closest pair).
    let Some(Shape::Polyline(line)) = e.scene.element("range-fr-art-1-au-3").map(|x| &x.shape) else {
        panic!("no range line")
    };
    assert!((line[0].y - 460.0).abs() < 1e-9 && (line[1].y - 600.0).abs() < 1e-9, "{line:?}");
    assert!((line[0].x - line[1].x).abs() < 1e-9 && (612.5..=637.5).contains(&line[0].x), "{line:?}");
    // The arc drawn is the library's arc, vertex for vertex.
    let index = SpatialIndex::new(&table);
    let rules = ArtilleryRules::for_table(&table).unwrap();
    let sight = TerrainSight::try_new(&index).unwrap();
    let field = Battlefield {
        table: &table,
        index: &index,
        rules: &rules,
        line_of_sight: &sight,
        ground: &TerrainOutlines,
    };
    let found = assess_battery(&field, BaseRef::new(table.unit_index("fr-art-1").unwrap(), 0)).unwrap();
    let Some(Shape::Polygon { exterior, .. }) = e.scene.element("arc-fr-art-1").map(|x| &x.shape) else {
        panic!("no arc")
    };
    assert_eq!(exterior.as_slice(), found.battery.arc.polygon().vertices());
    let zone = found.battery.zone(&rules, found.main.as_ref().unwrap().aim_swing_deg);
    let Some(Shape::Polygon { exterior, .. }) = e.scene.element("zone-fr-art-1").map(|x| &x.shape) else {
        panic!("no zone")
    };
    assert_eq!(exterior.as_slice(), zone.cone().polygon(zone.reach_mm()).vertices());
}

#[test]
fn enfilade_pair_marks_both_frontage_corners_inside() {
    // fr-art-2 fires on au-5 in enfilade on its left flank (the report's verdict): both
    // corners of its frontage are drawn inside the arc, none outside.
    let table = load("brigade-attack.json");
    let e = battery_pair(&table, "fr-art-2", "au-5");
    assert!(
        e.render_text().contains(
            "Enfilade? yes: the battery's whole frontage lies in the enfilade arc of its left flank"
        )
    );
    let marks: Vec<&str> = ["a", "b"]
        .iter()
        .filter_map(|end| e.scene.element(&format!("enfilade-corner-fr-art-2-au-5-left-{end}")))
        .map(|x| x.class.as_str())
        .collect();
    assert_eq!(marks, vec!["in-test", "in-test"]);
}

#[test]
fn attacker_and_defender_hand_worked() {
    // fr-1-3's front row faces +y with front edges at y = 549.5 + 10 = 559.5 (x 905-995);
    // au-2 faces -y with its front edge at y = 600 - 10 = 590 (x 815-905). fr-1-3#0's
    // zone, flaring 5° from x = 905, meets au-2#0 30.5 mm ahead: 1.20", all-out (1½" =
    // 38.1 mm, 7.6 mm to spare), from the front.
    let table = load("brigade-attack.json");
    let index = SpatialIndex::new(&table);
    let book = table.rule_book().unwrap();
    let found = assess_assaults(&table, &index, &book).unwrap();
    let (a, d) = (table.unit_index("fr-1-3").unwrap(), table.unit_index("au-2").unwrap());
    let f = found.findings.iter().find(|f| f.attacker == a && f.defender == d);
    let e = explain_assault(&table, &book, a, d, f).unwrap();
    let text = e.render_text();
    assert!(text.contains("In assault range? yes, all-out: 1.20 rule-in (30.5 mm) ahead of the contact face (fr-1-3#0); 7.60 mm from the 1.50 rule-in (38.1 mm) limit (000 §5.1)"), "{text}");
    assert!(text.contains("Front, flank or rear? front (000 §5.1)"), "{text}");
    // The contact drawn runs from fr-1-3#0's front edge to au-2's.
    let Some(Shape::Polyline(line)) = e.scene.element("contact-fr-1-3-au-2").map(|x| &x.shape) else {
        panic!("no contact line")
    };
    assert!((line[0].y - 559.5).abs() < 1e-9 && (line[1].y - 590.0).abs() < 1e-9, "{line:?}");
    // Its flank line runs along the rear of au-2's front bases (y = 610) and its rear
    // lines leave the outer rear corners (x 815 and 905 at y = 630).
    let Some(Shape::Polyline(flank)) = e.scene.element("flank-line-au-2").map(|x| &x.shape) else {
        panic!("no flank line")
    };
    assert!(flank.iter().all(|p| (p.y - 610.0).abs() < 1e-9), "{flank:?}");
    let Some(Shape::Polyline(rear)) = e.scene.element("rear-lines-au-2").map(|x| &x.shape) else {
        panic!("no rear lines")
    };
    let xs: Vec<f64> = rear.iter().map(|p| p.x.round()).collect();
    assert_eq!(xs, vec![905.0, 905.0, 815.0, 815.0], "{rear:?}");
    assert!((rear[1].y - 630.0).abs() < 1e-9 && rear[0].y > 630.0, "{rear:?}");
}

#[test]
fn explain_verb_answers_in_words() {
    let t = sample("brigade-attack.json");
    let o = vedette(&["explain", t.to_str().unwrap(), "fr-1-2", "au-5"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("In assault range? no: no front base of fr-1-2 meets au-5"),
        "{}",
        stdout(&o)
    );
    let o = vedette(&["explain", t.to_str().unwrap(), "fr-1-2", "fr-1-2"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("same unit"), "{}", stderr(&o));
}

fn assert_refused(args: &[&str], says: &str, untouched: &Path) {
    let before = std::fs::read(untouched).ok();
    let o = vedette(args);
    assert_eq!(o.status.code(), Some(1), "{args:?}: {}", stdout(&o));
    assert!(stderr(&o).contains(says), "{args:?}: {}", stderr(&o));
    assert_eq!(std::fs::read(untouched).ok(), before, "{args:?} changed {}", untouched.display());
}

#[test]
fn outputs_that_clash_with_the_table_or_cannot_be_written_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let table = dir.path().join("t.json");
    std::fs::copy(sample("brigade-attack.json"), &table).unwrap();
    let t = table.to_str().unwrap();
    for args in [
        vec!["report", t, "--plan", t],
        vec!["measure", t, "fr-1-2", "au-3", "--svg", t],
        vec!["los", t, "fr-art-1", "au-3", "--svg", t],
        vec!["explain", t, "fr-art-1", "au-3", "--svg", t],
    ] {
        assert_refused(&args, "is the table", &table);
    }
    let missing = dir.path().join("no-such-dir").join("plan.svg");
    let m = missing.to_str().unwrap();
    assert_refused(&["report", t, "--plan", m], "cannot write", &missing);
    assert!(!missing.exists());
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1, "no partial file left");
    // A bad table writes no picture.
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, "{").unwrap();
    let out = dir.path().join("plan.svg");
    assert_refused(&["report", bad.to_str().unwrap(), "--plan", out.to_str().unwrap()], "bad.json", &out);
    assert!(!out.exists());
}

/// A synthetic scan report: a calibrated camera 2500 mm above the middle of a 6' x 4'
/// table looking straight down, 0.24 px per mm, with barrel distortion; and a plain
/// grey photo of its size.
fn synthetic_photo(dir: &Path, width: u32, height: u32) -> (PathBuf, PathBuf) {
    let report = serde_json::json!({
        "schema": "vedette/scan-report/1",
        "photo": "photo.png",
        "camera": {
            "model": "calibrated",
            "base_top_mm": 3.0,
            "model_parameters": {
                "kind": "calibrated",
                "image_size": [800, 600],
                "intrinsics": { "image_width": 800, "image_height": 600, "fx": 600.0, "fy": 600.0,
                                "cx": 400.0, "cy": 300.0, "distortion": [-0.2, 0.05, 0.0, 0.0] },
                "rotation": [[1.0, 0.0, 0.0], [0.0, -1.0, 0.0], [0.0, 0.0, -1.0]],
                "translation_mm": [-914.4, 609.6, 2500.0],
                "homography": [[0.24, 0.0, 180.544], [0.0, -0.24, 446.304], [0.0, 0.0, 1.0]],
                "homography_inv": [[4.166667, 0.0, -752.266667], [0.0, -4.166667, 1859.6], [0.0, 0.0, 1.0]],
                "plane_height_mm": 0.0,
                "focal_rel_sigma": 0.0
            }
        }
    });
    let r = dir.join("scan-report.json");
    std::fs::write(&r, serde_json::to_string_pretty(&report).unwrap()).unwrap();
    let p = dir.join("photo.png");
    image::RgbImage::from_pixel(width, height, image::Rgb([90, 110, 80])).save(&p).unwrap();
    (p, r)
}

#[test]
fn explain_draws_over_a_photo_through_the_scan_camera() {
    let dir = tempfile::tempdir().unwrap();
    let (photo, report) = synthetic_photo(dir.path(), 800, 600);
    let out = dir.path().join("why.png");
    let t = sample("brigade-attack.json");
    let o = vedette(&[
        "explain",
        t.to_str().unwrap(),
        "fr-art-1",
        "au-3",
        "--png",
        out.to_str().unwrap(),
        "--photo",
        photo.to_str().unwrap(),
        "--scan-report",
        report.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("Main target? yes"), "{}", stdout(&o));
    let actual = image::open(&out).unwrap().to_rgb8();
    // The whole 800 x 600 photo (smaller than a question's crop) under the caption band:
    // white, with the headline's dark text in it.
    let band = actual.height() - 600;
    assert_eq!(actual.width(), 800);
    assert!(band > 60, "{band}");
    assert_eq!(actual.get_pixel(2, 2).0, [255, 255, 255]);
    assert!(
        (0..band)
            .flat_map(|y| (0..800).map(move |x| (x, y)))
            .filter(|&(x, y)| actual.get_pixel(x, y).0[0] < 60)
            .count()
            > 500
    );
    let golden = golden("explain-battery.photo.png");
    if common::regenerate() {
        std::fs::copy(&out, &golden).unwrap();
        return;
    }
    let expected =
        image::open(&golden).unwrap_or_else(|e| panic!("{}: {e} (REGENERATE=1)", golden.display())).to_rgb8();
    // Raster overlays compare with a tolerance: anti-aliasing may differ by a level or
    // two between builds; a moved line changes hundreds of pixels.
    let far: usize = actual
        .pixels()
        .zip(expected.pixels())
        .filter(|(a, b)| a.0.iter().zip(b.0.iter()).any(|(x, y)| x.abs_diff(*y) > 40))
        .count();
    assert_eq!(actual.dimensions(), expected.dimensions());
    assert!(far < 800 * 600 / 500, "{far} pixels differ from {}", golden.display());
    // Something was drawn: the photo is not plain any more.
    assert!(actual.pixels().skip(800 * band as usize).filter(|p| p.0 != [90, 110, 80]).count() > 2000);
}

#[test]
fn a_photo_that_does_not_match_the_scan_camera_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (photo, report) = synthetic_photo(dir.path(), 640, 480);
    let out = dir.path().join("plan.png");
    let t = sample("brigade-attack.json");
    let (t, o, p, r) =
        (t.to_str().unwrap(), out.to_str().unwrap(), photo.to_str().unwrap(), report.to_str().unwrap());
    assert_refused(&["report", t, "--png", o, "--photo", p, "--scan-report", r], "640 x 480", &out);
    assert!(!out.exists());
    assert_refused(&["report", t, "--png", p, "--photo", p, "--scan-report", r], "is the photo", &photo);
    // --png needs the photo and the scan report (a usage error, status 2).
    let e = vedette(&["report", t, "--png", o]);
    assert_eq!(e.status.code(), Some(2), "{}", stderr(&e));
    let bad = dir.path().join("not-a-report.json");
    std::fs::write(&bad, "{}").unwrap();
    assert_refused(
        &["report", t, "--png", o, "--photo", p, "--scan-report", bad.to_str().unwrap()],
        "vedette scan --report",
        &out,
    );
}

/// The plan's `data-finding` keys (docs/drawing.md): every key names an entry of the
/// report's JSON, and each finding's own geometry carries its key, no other's.
#[test]
fn the_plan_tags_each_finding_s_geometry_with_its_key() {
    let path = sample("brigade-attack.json");
    let svg = draw(&["report", path.to_str().unwrap(), "--layers", "all"], "--plan");
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let mut by_key: std::collections::BTreeMap<String, Vec<String>> = Default::default();
    for n in doc.descendants().filter(|n| n.is_element()) {
        for k in n.attribute("data-finding").unwrap_or("").split_whitespace() {
            by_key.entry(k.to_string()).or_default().push(n.attribute("id").unwrap_or("").to_string());
        }
    }
    let ids = |k: &str| by_key.get(k).cloned().unwrap_or_default();
    let battery = ids("artillery/fr-art-2");
    for id in ["arc-fr-art-2", "zone-fr-art-2", "target-fr-art-2-au-5.0", "enfilade-fr-art-2-au-5-left"] {
        assert!(battery.contains(&id.to_string()), "{id} not in {battery:?}");
    }
    assert!(battery.iter().all(|id| id.contains("fr-art-2")), "{battery:?}");
    let assault = ids("assault/fr-1-3/au-art-1");
    for id in ["contact-fr-1-3-au-art-1", "assault-zone-fr-1-3.2", "flank-line-au-art-1"] {
        assert!(assault.contains(&id.to_string()), "{id} not in {assault:?}");
    }
    assert!(!assault.iter().any(|id| id.starts_with("arc-")), "{assault:?}");
    // The pair's line and, since divisions only together are labelled too, its label.
    assert_eq!(
        ids("division-pair/fr-d1/fr-d2"),
        vec!["together-fr-d1-fr-d2".to_string(), "together-fr-d1-fr-d2-label".to_string()]
    );
    // Bases are the table, no finding's.
    let bases = doc.descendants().find(|n| n.attribute("id") == Some("bases")).unwrap();
    assert!(bases.descendants().all(|n| n.attribute("data-finding").is_none()));
    // Every key is an entry of the report's JSON.
    let o = vedette(&["report", path.to_str().unwrap(), "--json"]);
    let report: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let part = |s: &str| vedette_draw::scene::id_part(s);
    let mut known = std::collections::BTreeSet::new();
    for a in report["artillery"].as_array().unwrap() {
        known.insert(format!("artillery/{}", part(a["battery"].as_str().unwrap())));
    }
    for a in report["assaults"]["entries"].as_array().unwrap() {
        known.insert(format!(
            "assault/{}/{}",
            part(a["attacker"].as_str().unwrap()),
            part(a["defender"].as_str().unwrap())
        ));
    }
    let command = &report["command"];
    for (list, kind, field) in [("divisions", "division", "division"), ("leaders", "leader", "leader")] {
        for d in command[list].as_array().unwrap() {
            known.insert(format!("{kind}/{}", part(d[field].as_str().unwrap())));
        }
    }
    for p in command["division_pairs"].as_array().unwrap() {
        known.insert(format!(
            "division-pair/{}/{}",
            part(p["a"].as_str().unwrap()),
            part(p["b"].as_str().unwrap())
        ));
    }
    for z in command["pass_through"].as_array().unwrap() {
        known.insert(format!("pass-through/{}", part(z["unit"].as_str().unwrap())));
    }
    for m in report["skirmishers"].as_array().unwrap() {
        known.insert(format!("skirmisher/{}", part(m["marker"].as_str().unwrap())));
    }
    let keys: std::collections::BTreeSet<String> = by_key.keys().cloned().collect();
    assert_eq!(keys, known);
}
