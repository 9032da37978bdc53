//! End-to-end: `vedette scan` on the bundled sample photos (`samples/photos/`, rendered
//! by vedette-synth with exact ground truth) reproduces their ground truth within the
//! issue 3 targets, and its output matches the golden files in `tests/golden/`.
//!
//! Refresh the golden files and the samples' rosters and camera file deliberately with
//! `REGENERATE=1 cargo test --test scan scan_samples::`.

use crate::common;

use common::surface::{cube_score, line_score, sight_score, terrain_score};
use common::truth::{Truth, compare, max, quantile};
use common::{golden, golden_json, root, vedette};
use serde_json::Value;
use std::path::PathBuf;
use vedette_vision::Roster;

fn photos() -> PathBuf {
    root().join("samples/photos")
}

/// The samples' roster (from the truth, as a player would write it) and camera file
/// (the renderer's camera, as `calibrate-camera` would measure it).
fn fixtures(name: &str) -> (Truth, PathBuf, PathBuf) {
    fixtures_of(name, name, &format!("samples/photos/{name}.jpg"))
}

/// [`fixtures`] of the photo `name`, the roster written as `roster_name.roster.toml`
/// and its header naming `photos`.
fn fixtures_of(name: &str, roster_name: &str, photos_text: &str) -> (Truth, PathBuf, PathBuf) {
    let truth = Truth::load(&photos(), name);
    let roster_path = photos().join(format!("{roster_name}.roster.toml"));
    let header = format!(
        "# Roster of {photos_text}: every tagged base, from the photo's ground truth.\n# See docs/roster.md. Regenerate: REGENERATE=1 cargo test --test scan scan_samples::\n\n"
    );
    golden(&roster_path, &format!("{header}{}", truth.roster().to_toml_string().unwrap()));
    let camera_path = photos().join("camera.toml");
    golden(&camera_path, &truth.intrinsics().to_toml(None).unwrap());
    (truth, roster_path, camera_path)
}

fn scan_sample(name: &str) {
    let (truth, roster, camera) = fixtures(name);
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("table.json");
    let report = dir.path().join("report.json");
    let photo = photos().join(format!("{name}.jpg"));
    let o = vedette(&[
        "scan",
        photo.to_str().unwrap(),
        "--profile",
        "calibration/default.toml",
        "--camera",
        camera.to_str().unwrap(),
        "--roster",
        roster.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--report",
        report.to_str().unwrap(),
    ]);
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{name}: {}{}", stdout, String::from_utf8_lossy(&o.stderr));
    assert!(stdout.contains("calibrated camera"), "{stdout}");
    let scanned = vedette_geometry::Table::load(&out).unwrap();
    let acc = compare(&scanned, &truth);
    let (p50, p95, pmax) =
        (quantile(&acc.position_mm, 0.5), quantile(&acc.position_mm, 0.95), max(&acc.position_mm));
    let (h50, h95) = (quantile(&acc.heading_deg, 0.5), quantile(&acc.heading_deg, 0.95));
    eprintln!(
        "{name}: {} of {} bases, recall {:.4}, precision {:.4}, position median {p50:.3} p95 {p95:.3} max {pmax:.3} mm, heading median {h50:.3} p95 {h95:.3} deg, within 2 sigma {:.2}",
        acc.correct,
        acc.truth_bases,
        acc.recall(),
        acc.precision(),
        acc.within_two_sigma()
    );
    // Issue 3 targets for tagged bases at 12 MP.
    assert!(acc.recall() >= 0.995, "{name}: recall {}", acc.recall());
    assert!(acc.precision() >= 0.995, "{name}: precision {}", acc.precision());
    assert!(p50 <= 0.5 && p95 <= 1.0, "{name}: position median {p50} p95 {p95} mm");
    assert!(h50 <= 0.5, "{name}: heading median {h50} deg");
    // No issues on a clean photo with its roster.
    let rep: Value = serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    assert_eq!(rep["issues"], Value::Array(vec![]), "{name}: {}", rep["issues"]);

    // What lies on the table (issue 19): every terrain piece of a kind the profile
    // declares, every cube, and the line-of-sight verdicts between enemy units.
    let profile = vedette_vision::Profile::load(root().join("calibration/default.toml")).unwrap();
    let kinds: Vec<_> = profile.terrain.iter().filter(|c| !c.is_linear()).map(|c| c.kind).collect();
    let terrain = terrain_score(&scanned, &truth.table, &kinds, truth.camera.pose.position_mm);
    let boundary: Vec<f64> = terrain.pieces.iter().flat_map(|p| p.boundary_mm.iter().copied()).collect();
    for p in &terrain.pieces {
        eprintln!(
            "{name}: {} {}: IoU {:.3} ({:.3} over what the photo shows), boundary p95 {:.2} mm",
            p.kind,
            p.id,
            p.iou,
            p.iou_seen,
            quantile(&p.boundary_mm, 0.95)
        );
    }
    let line_kinds: Vec<_> = profile.terrain.iter().filter(|c| c.is_linear()).map(|c| c.kind).collect();
    let lines = line_score(&scanned, &truth.table, &line_kinds, 5.0);
    for l in &lines.pieces {
        eprintln!(
            "{name}: {} {}: {} polyline(s), distance p95 {:.2} max {:.2} mm, recovered {:.3}",
            l.kind,
            l.id,
            l.fragments,
            quantile(&l.distance_mm, 0.95),
            max(&l.distance_mm),
            l.recovered
        );
    }
    eprintln!("{name}: invented linear pieces {:?} mm", lines.invented_mm);
    let cubes = cube_score(&scanned, &truth.table, 3.0);
    let sight = sight_score(&scanned, &truth.table, 3.0);
    eprintln!(
        "{name}: boundary p95 {:.2} mm over all pieces, invented pieces {:?} mm2; cubes {cubes:?}; sight {sight:?} ({:.4} agree)",
        quantile(&boundary, 0.95),
        terrain.invented_mm2,
        sight.rate()
    );
    // The skirmish also has a pond and a farm (of the road's colour) of kinds the
    // default profile does not declare: neither may come out as a declared kind.
    surface_targets(name, &terrain, &boundary, &cubes, &sight);
    line_targets(name, &lines);

    // The golden file: the scan output itself.
    let golden_file = root().join(format!("tests/golden/{name}.scan.json"));
    golden_json(&golden_file, &std::fs::read_to_string(&out).unwrap(), 1e-6);
}

#[test]
fn skirmish_sample_reproduces_its_ground_truth() {
    scan_sample("skirmish");
}

#[test]
fn battle_sample_reproduces_its_ground_truth() {
    scan_sample("battle");
}

/// The README's sight verdicts on the scanned battle table (issue 19: terrain read from
/// the photo decides them), on the golden scan (which the test above holds equal to what
/// `vedette scan` writes): fr-0-7-art2 does not see au-0-6 through the scanned town, and
/// fr-0-4-art0 sees no base of au-1-3 in full because au-1-3 stands deeper in the
/// scanned heavy wood than its spotting depth; without that wood it sees a whole base.
#[test]
fn the_readme_sight_verdicts_hold_on_the_scanned_battle() {
    let golden = root().join("tests/golden/battle.scan.json");
    let los = |table: &std::path::Path, a: &str, b: &str| -> serde_json::Value {
        let o = vedette(&["los", table.to_str().unwrap(), a, b, "--json"]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        serde_json::from_slice(&o.stdout).unwrap()
    };
    let town = los(&golden, "fr-0-7-art2", "au-0-6");
    assert_eq!(town["visible"], false);
    assert_eq!(town["blocked_by"][0]["feature"], "heavy-buildings-2", "{town}");
    let wood = los(&golden, "fr-0-4-art0", "au-1-3");
    assert_eq!((wood["visible"].clone(), wood["full_base_visible"].clone()), (true.into(), false.into()));
    assert_eq!(wood["blocked_by"][0]["feature"], "heavy-forest-1", "{wood}");
    assert_eq!(wood["blocked_by"][0]["rule"], "spotting-depth", "{wood}");
    let mut table: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&golden).unwrap()).unwrap();
    table["terrain"].as_array_mut().unwrap().retain(|f| f["id"] != "heavy-forest-1");
    let dir = tempfile::tempdir().unwrap();
    let bare = dir.path().join("no-wood.json");
    std::fs::write(&bare, table.to_string()).unwrap();
    assert_eq!(los(&bare, "fr-0-4-art0", "au-1-3")["full_base_visible"], true);
}

/// Without a camera file the scan falls back to the homography of the table plane; the
/// samples have no lens distortion, so it stays close, but without a known camera the
/// height of base tops is only approximately corrected.
#[test]
fn samples_without_a_camera_file_use_the_fallback_model() {
    for name in ["skirmish", "battle"] {
        let (truth, roster, _) = fixtures(name);
        let profile = vedette_vision::Profile::load(root().join("calibration/default.toml")).unwrap();
        let photo = vedette_vision::Photo::load(photos().join(format!("{name}.jpg"))).unwrap();
        let roster = Roster::load(&roster).unwrap();
        let s = vedette_vision::scan(&photo, &profile, Some(&roster), None).unwrap();
        let acc = compare(&s.table, &truth);
        eprintln!(
            "{name} without camera file: model {:?}, focal {:?}, recall {:.4}, position median {:.3} p95 {:.3} max {:.3} mm, heading median {:.3} deg, within 2 sigma {:.2}",
            s.report.camera.model,
            s.report.camera.focal_px,
            acc.recall(),
            quantile(&acc.position_mm, 0.5),
            quantile(&acc.position_mm, 0.95),
            max(&acc.position_mm),
            quantile(&acc.heading_deg, 0.5),
            acc.within_two_sigma()
        );
        assert!(acc.recall() >= 0.995 && acc.precision() >= 0.995, "{name}");
        assert!(quantile(&acc.position_mm, 0.95) <= 3.0, "{name}");
    }
}

/// The two-photo sample (issue 18): `crowd-near.jpg` and `crowd-far.jpg`, one crowded
/// table (infantry in line, two-line and column, tags at the rear, figures against the
/// tags) from both long edges at 20° tilt. `vedette scan` of both finds at least 99% of
/// the bases (read or inferred), none wrong, position error at most 0.5 mm median;
/// each photo reads tags the other does not (alone, one may still place every base,
/// some inferred from their formation).
#[test]
fn crowd_two_photo_sample_finds_every_base() {
    let (truth, roster, camera) =
        fixtures_of("crowd-near", "crowd", "samples/photos/crowd-near.jpg and crowd-far.jpg");
    let far = Truth::load(&photos(), "crowd-far");
    assert_eq!(far.roster(), truth.roster(), "the two photos show one table");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("table.json");
    let report = dir.path().join("report.json");
    let overlay = dir.path().join("overlay.jpg");
    let (near_jpg, far_jpg) = (photos().join("crowd-near.jpg"), photos().join("crowd-far.jpg"));
    let o = vedette(&[
        "scan",
        near_jpg.to_str().unwrap(),
        far_jpg.to_str().unwrap(),
        "--profile",
        "calibration/default.toml",
        "--camera",
        camera.to_str().unwrap(),
        "--roster",
        roster.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--report",
        report.to_str().unwrap(),
        "--overlay",
        overlay.to_str().unwrap(),
    ]);
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{stdout}{}", String::from_utf8_lossy(&o.stderr));
    eprintln!("{stdout}");
    assert!(dir.path().join("overlay-1.jpg").exists() && dir.path().join("overlay-2.jpg").exists());
    let scanned = vedette_geometry::Table::load(&out).unwrap();
    let acc = compare(&scanned, &truth);
    let p50 = quantile(&acc.position_mm, 0.5);
    eprintln!(
        "crowd, two photos: {} of {} bases ({} inferred), precision {:.4}, position median {p50:.3} p95 {:.3} max {:.3} mm",
        acc.correct,
        acc.truth_bases,
        scanned.bases().filter(|(_, b)| b.meta().inferred).count(),
        acc.precision(),
        quantile(&acc.position_mm, 0.95),
        max(&acc.position_mm)
    );
    assert!(acc.recall() >= 0.99, "recall {}", acc.recall());
    assert_eq!(acc.precision(), 1.0);
    assert!(p50 <= 0.5, "position median {p50} mm");
    let rep: Value = serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    let photos_seen = |k: u64| {
        rep["merge"]["seen_by"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|s| s["photos"] == serde_json::json!([k]))
            .count()
    };
    // Each photo sees bases the other does not.
    assert!(photos_seen(0) > 0 && photos_seen(1) > 0, "{}", rep["merge"]["seen_by"]);
    for k in 0..2 {
        let alone = rep["photos"][k]["bases"].as_u64().unwrap() as usize;
        eprintln!("photo {k} alone: {alone} bases");
        assert!(alone <= scanned.base_count(), "photo {k} alone found more bases than both");
    }

    let golden_file = root().join("tests/golden/crowd.scan.json");
    golden_json(&golden_file, &std::fs::read_to_string(&out).unwrap(), 1e-6);
}

/// What the scan reads of the samples' terrain, cubes and sight lines (issue 19): the
/// issue's targets (IoU 0.9 per piece, boundary p95 3 mm, no invented piece over
/// 20 cm², 99% of cubes, 99% of sight verdicts), and where the samples do better, the
/// level reached, so that it does not slip back. Boundary points where a figure stands
/// on the edge as the camera sees it are left out (`figure_stands_on`). Every piece's
/// IoU is at least 0.91 (the battle's hill 0.92: bases hide its tip; over what the
/// photo shows, the same points left out, at least 0.97), every piece's boundary p95
/// within 3 mm (the battle's heavy town t3 2.7 mm: bases stand on its edge) and the
/// p95 pooled over each sample's pieces within 2 mm (battle 1.95 mm).
fn surface_targets(
    name: &str,
    terrain: &common::surface::TerrainScore,
    boundary: &[f64],
    cubes: &common::surface::CubeScore,
    sight: &common::surface::SightScore,
) {
    for p in &terrain.pieces {
        assert!(p.iou >= 0.91, "{name}: {} {} IoU {}", p.kind, p.id, p.iou);
        assert!(
            p.iou_seen >= 0.97,
            "{name}: {} {} IoU over what the photo shows {}",
            p.kind,
            p.id,
            p.iou_seen
        );
        let p95 = quantile(&p.boundary_mm, 0.95);
        assert!(p95 <= 3.0, "{name}: {} {} boundary p95 {p95} mm", p.kind, p.id);
    }
    assert!(quantile(boundary, 0.95) <= 2.0, "{name}: boundary p95 {} mm", quantile(boundary, 0.95));
    assert!(terrain.invented_mm2.iter().all(|a| *a <= 2000.0), "{name}: invented {:?}", terrain.invented_mm2);
    assert!(cubes.found == cubes.truth && cubes.invented == 0, "{name}: {cubes:?}");
    assert_eq!((cubes.colour_right, cubes.unit_right), (cubes.found, cubes.found), "{name}: {cubes:?}");
    assert!(sight.rate() >= 0.99, "{name}: {sight:?}");
}

/// The issue 19 targets for linear pieces (walls, hedges, streams, roads, where the
/// profile declares them): each true piece found as one polyline, 95% of it (and of
/// the polyline) within 3 mm of the other, no invented line over 10 cm.
fn line_targets(name: &str, lines: &common::surface::LinesScore) {
    for l in &lines.pieces {
        let p95 = quantile(&l.distance_mm, 0.95);
        assert_eq!(l.fragments, 1, "{name}: {} {} in {} polylines", l.kind, l.id, l.fragments);
        assert!(p95 <= 3.0, "{name}: {} {} p95 {p95} mm", l.kind, l.id);
        assert!(l.recovered >= 0.95, "{name}: {} {} recovered {}", l.kind, l.id, l.recovered);
    }
    assert!(lines.invented_mm.iter().all(|l| *l <= 100.0), "{name}: invented {:?} mm", lines.invented_mm);
}
