//! Readable pictures (issue 39 items 2 and 3): on every sample's plan (the grand battle's
//! 2,000 bases included), with the decisive findings and with every finding, on the
//! pictures of one question and over the scanned battle photo, no label box lies outside
//! the picture and no two overlap, tested from the drawing's own label layout; the plan
//! keeps what breaks or decides something by default and the rest under `--layers all`;
//! the pictures over the photo stay within shareable sizes.

use crate::common;
use common::{root, sample, stderr, vedette};
use std::collections::HashSet;
use vedette::commands::report::{Stages, build_timed, plan_scene};
use vedette_draw::labels::{LabelBox, LabelLayout};
use vedette_draw::{LayerChoice, LayerId, Scene, choose_layers};
use vedette_geometry::Table;

const SAMPLES: [&str; 7] = [
    "brigade-attack",
    "classic-assault",
    "pro-patria-charge",
    "republic-overlap",
    "skirmish",
    "woods-block",
    "grand-battle",
];

/// The report's plan scene of a table, with `choice`.
fn plan(table: &Table, choice: &LayerChoice) -> Scene {
    let (_, findings) = build_timed(table, &mut Stages::default()).unwrap();
    let mut scene = plan_scene(table, &findings).unwrap();
    choose_layers(&mut scene, table, &findings.for_drawing(), choice);
    scene
}

/// Every written label inside `bounds` and no two overlapping; the number written.
fn assert_readable(what: &str, layout: &LabelLayout, bounds: LabelBox, reserved: &[LabelBox]) -> usize {
    let boxes: Vec<(&(usize, usize), &LabelBox)> = layout.boxes.iter().collect();
    assert_eq!(boxes.len(), layout.placed.len(), "{what}: every written label has its box");
    let e = 1e-9;
    for (k, b) in &boxes {
        assert!(
            b.x0 >= bounds.x0 - e && b.y0 >= bounds.y0 - e && b.x1 <= bounds.x1 + e && b.y1 <= bounds.y1 + e,
            "{what}: label {k:?} at {b:?} is outside the picture {bounds:?}"
        );
        for r in reserved {
            assert!(!b.overlaps(r), "{what}: label {k:?} at {b:?} under {r:?}");
        }
    }
    // A grid keeps the pairwise check fast on the grand battle.
    let cell = 40.0;
    let mut grid: std::collections::HashMap<(i64, i64), Vec<usize>> = std::collections::HashMap::new();
    for (i, (_, b)) in boxes.iter().enumerate() {
        for x in (b.x0 / cell).floor() as i64..=(b.x1 / cell).floor() as i64 {
            for y in (b.y0 / cell).floor() as i64..=(b.y1 / cell).floor() as i64 {
                grid.entry((x, y)).or_default().push(i);
            }
        }
    }
    let mut seen = HashSet::new();
    for list in grid.values() {
        for (n, &i) in list.iter().enumerate() {
            for &j in &list[n + 1..] {
                if seen.insert((i.min(j), i.max(j))) {
                    assert!(
                        !boxes[i].1.overlaps(boxes[j].1),
                        "{what}: labels {:?} {:?} and {:?} {:?} overlap",
                        boxes[i].0,
                        boxes[i].1,
                        boxes[j].0,
                        boxes[j].1
                    );
                }
            }
        }
    }
    boxes.len()
}

#[test]
fn no_label_of_a_plan_leaves_the_picture_or_overlaps_another() {
    for s in SAMPLES {
        let table = Table::load(sample(&format!("{s}.json"))).unwrap();
        for choice in [LayerChoice::Decisive, LayerChoice::All] {
            let scene = plan(&table, &choice);
            let layout = vedette_draw::plan::plan_label_layout(&scene);
            let bounds = layout.bounds.unwrap();
            let n = assert_readable(&format!("{s} {choice:?}"), &layout, bounds, &[]);
            eprintln!("{s} {choice:?}: {n} labels written, {} numbered or on hover", layout.hidden.len());
        }
    }
}

#[test]
fn pictures_of_one_question_keep_their_labels_inside_and_apart() {
    let cases = [
        ("brigade-attack.json", "fr-art-1", "au-3"),
        ("brigade-attack.json", "fr-art-2", "au-5"),
        ("brigade-attack.json", "fr-1-3", "au-2"),
        ("woods-block.json", "fr-art-1", "au-1"),
    ];
    for (file, a, b) in cases {
        let table = Table::load(sample(file)).unwrap();
        let e = vedette_draw::explain::explain_pair(&table, a, b).unwrap();
        let layout = vedette_draw::plan::plan_label_layout(&e.scene);
        assert_readable(&format!("{file} {a} {b}"), &layout, layout.bounds.unwrap(), &[]);
        // The bounds are the drawing under the caption band.
        let (_, options) = vedette_draw::plan_view(&e.scene);
        assert!(layout.bounds.unwrap().y0 >= options.band.unwrap().height - 1e-9);
    }
}

#[test]
fn the_decisive_plan_keeps_what_decides_and_all_gives_the_rest() {
    let table = Table::load(sample("brigade-attack.json")).unwrap();
    let decisive = plan(&table, &LayerChoice::Decisive);
    let all = plan(&table, &LayerChoice::All);
    let ids = |s: &Scene| -> HashSet<String> {
        s.layers().iter().flat_map(|l| l.elements.iter().map(|e| e.id.clone())).collect()
    };
    let (d, a) = (ids(&decisive), ids(&all));
    assert!(d.is_subset(&a));
    // Kept: every base, main targets and their range, the deep window, contacts, the
    // assets outside their areas, the rally penalties (as the report finds them).
    for id in [
        "base-fr-art-1.0",
        "unit-fr-art-1-label",
        "target-fr-art-1-au-3.0",
        "range-fr-art-1-au-3",
        "range-fr-art-1-au-3-label",
        "deep-window-fr-art-1",
        "contact-fr-1-3-au-2",
        "contact-fr-1-3-au-2-label",
        "outside-area-au-art-1-label",
        "rally-au-ldr-1-au-5-label",
    ] {
        assert!(d.contains(id), "the decisive plan has no {id}");
    }
    // Left to --layers all: the arcs, zones, deployment areas and leaders' reaches, and
    // the candidates that are not the main target.
    for id in ["arc-fr-art-1", "zone-fr-art-1", "deployment-division_fr-d1-0", "reach-fr-ldr-1-0-0"] {
        assert!(!d.contains(id) && a.contains(id), "{id}");
    }
    assert!(d.iter().all(|i| !i.starts_with("candidate-")));
    assert!(a.iter().any(|i| i.starts_with("candidate-")));
    // The legend says only what is drawn.
    assert!(decisive.legend_entries().iter().all(|e| e.class != "arc"));
    assert!(all.legend_entries().iter().any(|e| e.class == "arc"));
    // A named list: those layers in full, with the table, terrain and bases.
    let named = plan(&table, &"zones,arcs".parse::<LayerChoice>().unwrap());
    let layers: HashSet<LayerId> = named.layers().iter().map(|l| l.id).collect();
    assert!(layers.contains(&LayerId::Zones) && layers.contains(&LayerId::Bases));
    assert!(!layers.contains(&LayerId::Targets) && !layers.contains(&LayerId::Contacts));
}

#[test]
fn the_page_marks_as_detail_exactly_what_the_decisive_plan_leaves_out() {
    // vedette serve draws every finding and marks the rest (vedette_draw::mark_details);
    // the page's clean plan hides the marked ones: the same choice as `--layers decisive`.
    for name in ["brigade-attack", "classic-assault", "pro-patria-charge"] {
        let table = Table::load(sample(&format!("{name}.json"))).unwrap();
        let (_, findings) = build_timed(&table, &mut Stages::default()).unwrap();
        let mut marked = plan_scene(&table, &findings).unwrap();
        vedette_draw::mark_details(&mut marked, &table, &findings.for_drawing());
        let decisive = plan(&table, &LayerChoice::Decisive);
        let kept: HashSet<String> =
            decisive.layers().iter().flat_map(|l| l.elements.iter().map(|e| e.id.clone())).collect();
        let mut details = 0;
        for e in marked.layers().iter().flat_map(|l| &l.elements) {
            let detail = e.class.split_whitespace().any(|c| c == "detail");
            details += usize::from(detail);
            assert_eq!(detail, !kept.contains(&e.id), "{name}: {} ({})", e.id, e.class);
        }
        assert!(details > 0, "{name}: nothing marked");
    }
    let table = Table::load(sample("brigade-attack.json")).unwrap();
    let (_, findings) = build_timed(&table, &mut Stages::default()).unwrap();
    let mut marked = plan_scene(&table, &findings).unwrap();
    vedette_draw::mark_details(&mut marked, &table, &findings.for_drawing());
    let class = |id: &str| marked.element(id).map(|e| e.class.clone()).unwrap_or_default();
    assert!(class("arc-fr-art-1").contains("detail"));
    assert!(!class("target-fr-art-1-au-3.0").contains("detail"));
}

#[test]
fn report_says_which_file_it_wrote_and_refuses_an_unknown_layer() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("plan.svg");
    let t = sample("brigade-attack.json");
    let o = vedette(&["report", t.to_str().unwrap(), "--plan", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains(&format!("plan written to {} (the decisive findings", out.display())),
        "{}",
        stderr(&o)
    );
    let o = vedette(&["report", t.to_str().unwrap(), "--plan", out.to_str().unwrap(), "--layers", "all"]);
    assert!(stderr(&o).contains("(every finding)"), "{}", stderr(&o));
    let o =
        vedette(&["report", t.to_str().unwrap(), "--plan", out.to_str().unwrap(), "--layers", "zones,wings"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("unknown layer \"wings\""), "{}", stderr(&o));
}

/// The scanned battle photo, its table and scan report (tests/golden: the scan of
/// samples/photos/battle.jpg, as tests/scan/scan_samples.rs checks it).
fn battle() -> (String, String, String) {
    let s = |p: std::path::PathBuf| p.to_str().unwrap().to_string();
    (
        s(root().join("tests/golden/battle.scan.json")),
        s(sample("photos/battle.jpg")),
        s(root().join("tests/golden/battle.scan-report.json")),
    )
}

#[test]
fn the_battle_photo_picture_keeps_its_labels_inside_and_apart() {
    let (t, photo, report) = battle();
    let table = Table::load(&t).unwrap();
    let (model, base_top) = vedette_vision::load_scan_camera(report.as_ref(), photo.as_ref()).unwrap();
    for choice in [LayerChoice::Decisive, LayerChoice::All] {
        let scene = plan(&table, &choice);
        let (lo, hi) = scene.bounds().unwrap();
        let full = vedette_vision::PhotoProjection::new(model.clone(), base_top, lo.lerp(hi, 0.5));
        let frame = vedette_vision::photo_frame(&full, &scene, 2400, 12.0);
        let proj = frame.projection(&full);
        let layout = vedette_vision::picture_layout(&scene, &proj, frame.text_scale);
        let (w, h) = vedette_draw::Projection::output_size(&proj);
        let picture = LabelBox { x0: 0.0, y0: 0.0, x1: w, y1: h };
        let reserved: Vec<LabelBox> = layout.legend.into_iter().chain(layout.notes).collect();
        for r in &reserved {
            assert!(
                r.x0 >= 0.0 && r.y0 >= 0.0 && r.x1 <= w && r.y1 <= h,
                "{choice:?}: {r:?} off the picture"
            );
        }
        let n = assert_readable(&format!("battle photo {choice:?}"), &layout.labels, picture, &reserved);
        eprintln!(
            "battle photo {choice:?}: {n} labels written, {} numbered in the notes",
            layout.notes_text.len()
        );
    }
}

#[test]
fn pictures_over_the_photo_are_shareable_sizes() {
    let (t, photo, report) = battle();
    let dir = tempfile::tempdir().unwrap();
    let size = |p: &std::path::Path| std::fs::metadata(p).unwrap().len();
    // One question: the pair cropped, its caption on top; at most 600 KB as JPEG.
    let why = dir.path().join("why.jpg");
    let o = vedette(&[
        "explain",
        &t,
        "fr-0-4-art0",
        "au-0-3",
        "--png",
        why.to_str().unwrap(),
        "--photo",
        &photo,
        "--scan-report",
        &report,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let img = image::open(&why).unwrap();
    assert!(img.width() <= 1600 && img.width() >= 1200, "{}", img.width());
    assert!(size(&why) <= 600_000, "{} bytes", size(&why));
    // The whole table's findings: at most 1.5 MB as JPEG, 2400 px wide.
    let all = dir.path().join("findings.jpg");
    let o =
        vedette(&["report", &t, "--png", all.to_str().unwrap(), "--photo", &photo, "--scan-report", &report]);
    assert!(o.status.success(), "{}", stderr(&o));
    let img = image::open(&all).unwrap();
    assert_eq!(img.width(), 2400);
    assert!(size(&all) <= 1_500_000, "{} bytes", size(&all));
    // --max-width is kept; a PNG over the limit says how to share it.
    let small = dir.path().join("small.png");
    let o = vedette(&[
        "report",
        &t,
        "--png",
        small.to_str().unwrap(),
        "--photo",
        &photo,
        "--scan-report",
        &report,
        "--max-width",
        "1000",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(image::open(&small).unwrap().width(), 1000);
    let big = dir.path().join("big.png");
    let o =
        vedette(&["report", &t, "--png", big.to_str().unwrap(), "--photo", &photo, "--scan-report", &report]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(size(&big) <= 1_500_000 || stderr(&o).contains("name it .jpg"), "{}", stderr(&o));
    // An unknown picture type is refused before anything is drawn.
    let gif = dir.path().join("x.gif");
    let o =
        vedette(&["report", &t, "--png", gif.to_str().unwrap(), "--photo", &photo, "--scan-report", &report]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("name it .png or .jpg"), "{}", stderr(&o));
    assert!(!gif.exists());
}
