//! Issue 18: tags beside figures. Figures of every uniform colour stand against the
//! tags (on their quiet zone, touching the black border, overhanging them from a
//! tilted camera); a tag that shows at least 90% of its black square must be read, and
//! nothing may be read that is not there.
//!
//! The photos are 2.4 MP of an 800 x 560 mm table: the tags have about the size in
//! pixels they have at 12 MP of a 6'x4' table (25 px).

use crate::common;

use common::clutter::{camera, crowded_table, profile, rear_tags, shoot};
use common::truth::{Truth, compare};
use std::collections::BTreeSet;
use vedette_synth::Resolution;
use vedette_vision::{Photo, ScanIssue, scan};

const WIDTH: f64 = 800.0;
const DEPTH: f64 = 560.0;
const FIDUCIAL_MM: f64 = 50.0;
const INSET_MM: f64 = 45.0;

/// Tags of the truth at least `fraction` visible.
fn visible_tags(truth: &Truth, fraction: f64) -> BTreeSet<u32> {
    truth.camera.tags.iter().filter(|t| t.marker.visible_fraction >= fraction).map(|t| t.marker.id).collect()
}

/// Regression test of issue 18 ("9 of 102 fully visible tags missed, all beside
/// white-coated two-line infantry"): a tilted photo of crowded units, every tag at
/// least 90% visible is read, precision stays 100%.
#[test]
fn tags_beside_figures_are_read() {
    let tmp = tempfile::tempdir().unwrap();
    // SCAN_CLUTTER_DIR keeps the render between runs (for work on the detector).
    let kept = std::env::var_os("SCAN_CLUTTER_DIR").map(std::path::PathBuf::from);
    let dir = kept.as_deref().unwrap_or(tmp.path());
    let table = crowded_table(WIDTH, DEPTH, 3, 4);
    let layout = rear_tags(&table, FIDUCIAL_MM, INSET_MM);
    let cam = camera(WIDTH, DEPTH, 22.0, 0.0, Resolution::new(1800, 1350));
    if kept.is_none() || !dir.join("crowd.jpg").exists() {
        shoot(dir, "crowd", &table, &layout, &cam, 18);
    }
    let truth = Truth::load(dir, "crowd");
    let p = profile(WIDTH, DEPTH, FIDUCIAL_MM, INSET_MM);
    let photo = Photo::load(dir.join("crowd.jpg")).unwrap();
    let s = scan(&photo, &p, Some(&truth.roster()), Some(&truth.intrinsics())).unwrap();
    let found: BTreeSet<u32> =
        s.table.bases().filter(|(_, b)| !b.meta().inferred).filter_map(|(_, b)| b.meta().tag).collect();
    let visible = visible_tags(&truth, 0.9);
    let partly: usize = truth.camera.tags.iter().filter(|t| t.marker.visible_fraction < 1.0).count();
    let missed: Vec<u32> = visible.difference(&found).copied().collect();
    let acc = compare(&s.table, &truth);
    eprintln!(
        "{} tags, {} at least 90% visible, {} partly hidden; found {}; missed {missed:?}; issues {:?}",
        truth.camera.tags.len(),
        visible.len(),
        partly,
        found.len(),
        s.report.issues.iter().map(ScanIssue::describe).collect::<Vec<_>>()
    );
    // The scene is the hard case: figures do hide some tags, partly.
    assert!(partly >= 5, "only {partly} tags partly hidden: the scene is not crowded");
    assert!(missed.is_empty(), "missed {} of {} visible tags: {missed:?}", missed.len(), visible.len());
    assert_eq!(acc.precision(), 1.0, "a base was read that is not there");
    // Bases inferred from their formation (issue 18 item 3) are flagged, listed and
    // where the truth has them.
    let truth_of = |tag: u32| {
        let t = truth.camera.tags.iter().find(|t| t.marker.id == tag).unwrap();
        truth.table.units[t.unit_index].bases[t.base]
    };
    let inferred: Vec<_> = s.table.bases().map(|(_, b)| *b).filter(|b| b.meta().inferred).collect();
    for b in &inferred {
        let tag = b.meta().tag.unwrap();
        let err = b.centre().distance(truth_of(tag).centre());
        eprintln!("inferred tag {tag}: {err:.2} mm off, sigma {:?}", b.meta().sigma_mm);
        assert!(err < 3.0 * b.meta().sigma_mm.unwrap(), "inferred tag {tag} is {err:.2} mm off");
        assert!(!visible.contains(&tag) || found.contains(&tag));
        let listed =
            s.report.issues.iter().any(|i| matches!(i, ScanIssue::InferredBase { id, .. } if *id == tag));
        assert!(listed, "inferred tag {tag} not listed");
    }
}

/// Issue 18, one photo: straight down (0°) and at 8°, white coats stand on the tags'
/// white quiet zone and dark hats on their black border, so the outline of the black
/// square runs into the figures' and the table's (the table is dark). The marker
/// detector and an outline search miss such tags; squares proposed from their
/// untouched straight sides read them. At least 98.5% of the tags at least 90% visible
/// are read (the outline search alone read 134 of 138: 97.1%), none turned or placed
/// wrongly.
#[test]
fn tags_whose_outline_runs_into_the_figures_are_read() {
    let table = crowded_table(WIDTH, DEPTH, 4, 4);
    let layout = rear_tags(&table, FIDUCIAL_MM, INSET_MM);
    let p = profile(WIDTH, DEPTH, FIDUCIAL_MM, INSET_MM);
    let mut missed = Vec::new();
    let mut visible_count = 0;
    for (tilt, seed) in [(0.0, 31), (8.0, 32)] {
        let tmp = tempfile::tempdir().unwrap();
        let cam = camera(WIDTH, DEPTH, tilt, 0.0, Resolution::new(1800, 1350));
        shoot(tmp.path(), "crowd", &table, &layout, &cam, seed);
        let truth = Truth::load(tmp.path(), "crowd");
        let photo = Photo::load(tmp.path().join("crowd.jpg")).unwrap();
        let s = scan(&photo, &p, Some(&truth.roster()), Some(&truth.intrinsics())).unwrap();
        let found: BTreeSet<u32> =
            s.table.bases().filter(|(_, b)| !b.meta().inferred).filter_map(|(_, b)| b.meta().tag).collect();
        let visible = visible_tags(&truth, 0.9);
        visible_count += visible.len();
        missed.extend(visible.difference(&found).map(|id| (tilt, *id)));
        let acc = compare(&s.table, &truth);
        assert_eq!(acc.precision(), 1.0, "{tilt}°: a base was read that is not there");
    }
    assert!(visible_count >= 100, "only {visible_count} tags at least 90% visible");
    let recall = 1.0 - missed.len() as f64 / visible_count as f64;
    assert!(
        recall >= 0.985,
        "missed {} of {visible_count} visible tags (tilt, id): {missed:?}",
        missed.len()
    );
}
