//! Issue 18: several photos of one table. `vedette scan A B ...` scans each photo on
//! its own and merges the bases in the table frame; one overlay per photo; the report
//! says which photos saw each base; `--camera` once or once per photo.

use crate::common;

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn sample(name: &str) -> PathBuf {
    root().join("samples/photos").join(name)
}

fn vedette(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_vedette")).args(args).current_dir(root()).output().unwrap()
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn files_in(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// Two photos and two camera files is fine; three camera files for two photos is an
/// error that says so, before anything is read or written.
#[test]
fn camera_files_must_be_one_or_one_per_photo() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("table.json");
    let photo = sample("skirmish.jpg");
    let camera = sample("camera.toml");
    let o = vedette(&[
        "scan",
        s(&photo),
        s(&photo),
        "--profile",
        "calibration/default.toml",
        "--camera",
        s(&camera),
        "--camera",
        s(&camera),
        "--camera",
        s(&camera),
        "-o",
        s(&out),
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("3 camera files for 2 photos"), "{err}");
    assert!(err.contains("once per photo"), "{err}");
    assert!(files_in(dir.path()).is_empty(), "files left behind");

    // One photo, two camera files.
    let o = vedette(&[
        "scan",
        s(&photo),
        "--profile",
        "calibration/default.toml",
        "--camera",
        s(&camera),
        "--camera",
        s(&camera),
        "-o",
        s(&out),
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("2 camera files for one photo"), "{err}");
    assert!(files_in(dir.path()).is_empty(), "files left behind");
}

/// The same photo twice, one camera file per photo: every base seen by both photos,
/// merged at the same place with a smaller sigma; one overlay per photo, numbered.
#[test]
fn two_photos_write_one_overlay_each_and_say_who_saw_each_base() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("table.json");
    let overlay = dir.path().join("overlay.jpg");
    let report = dir.path().join("report.json");
    let photo = sample("skirmish.jpg");
    let camera = sample("camera.toml");
    let roster = sample("skirmish.roster.toml");
    let o = vedette(&[
        "scan",
        s(&photo),
        s(&photo),
        "--profile",
        "calibration/default.toml",
        "--camera",
        s(&camera),
        "--camera",
        s(&camera),
        "--roster",
        s(&roster),
        "-o",
        s(&out),
        "--overlay",
        s(&overlay),
        "--report",
        s(&report),
    ]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{text}{}", String::from_utf8_lossy(&o.stderr));
    assert!(text.contains("from 2 photos"), "{text}");
    assert_eq!(files_in(dir.path()), ["overlay-1.jpg", "overlay-2.jpg", "report.json", "table.json"]);
    for k in 1..=2 {
        assert!(image::open(dir.path().join(format!("overlay-{k}.jpg"))).is_ok());
    }
    let rep: Value = serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    assert_eq!(rep["schema"], "vedette/multi-scan-report/1");
    let photos = rep["photos"].as_array().unwrap();
    assert_eq!(photos.len(), 2);
    assert_eq!(photos[0]["photo"], s(&photo));
    let merged = vedette_geometry::Table::load(&out).unwrap();
    // Each cube once, though both photos found it, and linked to its unit (issue 36).
    let truth = vedette_geometry::Table::load(sample("skirmish.table.json")).unwrap();
    let cubes = |t: &vedette_geometry::Table| {
        let mut v: Vec<String> = t.markers.iter().map(|m| format!("{:?} {:?}", m.colour, m.unit)).collect();
        v.sort();
        v
    };
    assert_eq!(cubes(&merged), cubes(&truth));
    let seen_by = rep["merge"]["seen_by"].as_array().unwrap();
    assert_eq!(seen_by.len(), merged.base_count());
    assert!(merged.base_count() >= 17, "{}", merged.base_count());
    for b in seen_by {
        assert_eq!(b["photos"], serde_json::json!([0, 1]), "{b}");
    }
    assert_eq!(rep["merge"]["issues"], serde_json::json!([]));

    // The single-photo scan of the same photo: same places, sigma smaller by sqrt 2.
    let single = dir.path().join("single.json");
    let o = vedette(&[
        "scan",
        s(&photo),
        "--profile",
        "calibration/default.toml",
        "--camera",
        s(&camera),
        "--roster",
        s(&roster),
        "-o",
        s(&single),
    ]);
    assert!(o.status.success());
    let single = vedette_geometry::Table::load(&single).unwrap();
    for (_, b) in merged.bases() {
        let (_, one) = single.bases().find(|(_, x)| x.meta().tag == b.meta().tag).unwrap();
        assert!(b.centre().distance(one.centre()) < 1e-6);
        let (sm, s1) = (b.meta().sigma_mm.unwrap(), one.meta().sigma_mm.unwrap());
        assert!((sm - s1 / 2f64.sqrt()).abs() <= 1e-3, "tag {:?}: {sm} vs {s1}", b.meta().tag);
    }
}

/// The crowded scene of `tests/scan/scan_clutter.rs` (800 x 560 mm, 2.4 MP: tags of the size
/// in pixels they have at 12 MP of a 6'x4' table), photographed from both long edges.
mod scene {
    pub const WIDTH: f64 = 800.0;
    pub const DEPTH: f64 = 560.0;
    pub const FIDUCIAL_MM: f64 = 50.0;
    pub const INSET_MM: f64 = 45.0;
    pub const TILT_DEG: f64 = 22.0;
    /// A line of 4 (formation `line`) whose base 1 has no tag: inferred from bases 0
    /// and 2.
    pub const INFERRED_UNIT: usize = 3;
    /// A line of 4 with only base 0 tagged: one base does not show whether the line is
    /// straight and touching, so bases 1-3 are placed only where a photo shows them
    /// (issue 36, `infer_seen`): here it does, and the merge keeps them.
    pub const LONE_UNIT: usize = 6;
    /// A line of 4 whose roster gives no formation, base 1 untagged: not inferred.
    pub const NO_FORMATION_UNIT: usize = 9;
}

/// Issue 18: two photos of one crowded table from opposite long edges. Tags seen in
/// both are merged (sigma smaller, place between the two); a base whose tag neither
/// photo saw is inferred from its line, flagged and listed; so are the bases beside a
/// lone found one that a photo shows; a base whose unit gives no formation is not
/// inferred; a base moved between the photos is a conflict, left out and not inferred
/// either.
#[test]
fn two_photos_of_a_crowded_table_merge_infer_and_conflict() {
    use common::clutter::{
        TwoEdges, crowded_table, profile, rear_tags, roster_of, shoot, shoot_from_both_edges,
    };
    use common::truth::Truth;
    use scene::*;
    use std::collections::BTreeSet;
    use vedette_geometry::{Pose, Vec2};
    use vedette_synth::Resolution;
    use vedette_vision::{Photo, ScanIssue, merge_scans, scan};

    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let mut table = crowded_table(WIDTH, DEPTH, 3, 4);
    let full = rear_tags(&table, FIDUCIAL_MM, INSET_MM);
    let roster_table = {
        let mut t = table.clone();
        t.units[NO_FORMATION_UNIT].formation = None;
        t
    };
    let roster = roster_of(&roster_table, &full);
    let id = |unit: usize, base: usize| {
        full.tags.iter().find(|t| t.unit == table.units[unit].id && t.base == base).unwrap().id
    };
    let untagged: Vec<(usize, usize)> =
        vec![(INFERRED_UNIT, 1), (LONE_UNIT, 1), (LONE_UNIT, 2), (LONE_UNIT, 3), (NO_FORMATION_UNIT, 1)];
    let untagged_ids: BTreeSet<u32> = untagged.iter().map(|&(u, b)| id(u, b)).collect();
    let mut layout = full.clone();
    layout.tags.retain(|t| !untagged_ids.contains(&t.id));
    let shots = TwoEdges { tilt_deg: TILT_DEG, resolution: Resolution::new(1800, 1350), seed: 180 };
    let names = shoot_from_both_edges(dir, "crowd", &table, &layout, &shots);
    let p = profile(WIDTH, DEPTH, FIDUCIAL_MM, INSET_MM);
    let scans: Vec<_> = names
        .iter()
        .map(|n| {
            let t = Truth::load(dir, n);
            scan(
                &Photo::load(dir.join(format!("{n}.jpg"))).unwrap(),
                &p,
                Some(&roster),
                Some(&t.intrinsics()),
            )
            .unwrap()
        })
        .collect();
    let merged = merge_scans(&scans, &p, Some(&roster));
    let issues: Vec<String> = merged.report.issues.iter().map(ScanIssue::describe).collect();
    eprintln!("merge: {} bases, issues {issues:#?}", merged.table.base_count());
    let truth_base = |tag: u32| {
        let e = roster.lookup(tag).unwrap();
        table.units[e.unit].bases[e.base]
    };
    let read_in = |k: usize| -> BTreeSet<u32> {
        scans[k].table.bases().filter(|(_, b)| !b.meta().inferred).filter_map(|(_, b)| b.meta().tag).collect()
    };
    let (near, far) = (read_in(0), read_in(1));
    assert!(
        !merged.report.issues.iter().any(|i| matches!(i, ScanIssue::ConflictingTag { .. })),
        "{issues:?}"
    );

    // Every base read in either photo is in the merged table, where the truth has it.
    let merged_tags: BTreeSet<u32> = merged.table.bases().filter_map(|(_, b)| b.meta().tag).collect();
    assert!(near.union(&far).all(|t| merged_tags.contains(t)));
    for (_, b) in merged.table.bases() {
        let tag = b.meta().tag.unwrap();
        let e = b.centre().distance(truth_base(tag).centre());
        assert!(e < 2.0, "tag {tag} is {e:.2} mm off (inferred: {})", b.meta().inferred);
    }
    // Tags read in both photos: merged between the two places, sigma below either.
    let both: Vec<u32> = near.intersection(&far).copied().collect();
    assert!(both.len() >= 20, "only {} tags read in both photos", both.len());
    let (mut sum_merged, mut sum_single) = (0.0, 0.0);
    for &tag in &both {
        let base_of =
            |t: &vedette_geometry::Table| *t.bases().find(|(_, b)| b.meta().tag == Some(tag)).unwrap().1;
        let (m, a, b) = (base_of(&merged.table), base_of(&scans[0].table), base_of(&scans[1].table));
        let truth_c = truth_base(tag).centre();
        let (em, ea, eb) =
            (m.centre().distance(truth_c), a.centre().distance(truth_c), b.centre().distance(truth_c));
        assert!(em <= ea.max(eb) + 1e-9, "tag {tag}: merged {em} vs {ea}, {eb}");
        let sm = m.meta().sigma_mm.unwrap();
        assert!(sm < a.meta().sigma_mm.unwrap().min(b.meta().sigma_mm.unwrap()), "tag {tag}: sigma {sm}");
        let seen = merged.report.seen_by.iter().find(|s| s.tag == tag).unwrap();
        assert_eq!(seen.photos, vec![0, 1]);
        sum_merged += em;
        sum_single += (ea + eb) / 2.0;
    }
    eprintln!(
        "{} tags in both photos: mean error merged {:.3} mm, single photos {:.3} mm",
        both.len(),
        sum_merged / both.len() as f64,
        sum_single / both.len() as f64
    );
    assert!(sum_merged <= sum_single, "merging made the places worse");

    // The untagged base of a line, between found ones: inferred, flagged, listed.
    let inferred_id = id(INFERRED_UNIT, 1);
    let (_, b) =
        merged.table.bases().find(|(_, b)| b.meta().tag == Some(inferred_id)).expect("inferred base");
    assert!(b.meta().inferred);
    let err = b.centre().distance(truth_base(inferred_id).centre());
    assert!(err <= 3.0 * b.meta().sigma_mm.unwrap(), "inferred base {err:.2} mm off");
    assert!(merged.report.seen_by.iter().any(|s| s.tag == inferred_id && s.photos.is_empty()));
    assert!(
        merged
            .report
            .issues
            .iter()
            .any(|i| matches!(i, ScanIssue::InferredBase { id, .. } if *id == inferred_id))
    );
    // Beside the lone found base: placed where the photos show them, flagged, within
    // their sigma (every merged base is within 2 mm of its truth, above).
    for bi in 1..4 {
        let tag = id(LONE_UNIT, bi);
        let (_, b) =
            merged.table.bases().find(|(_, b)| b.meta().tag == Some(tag)).expect("a lone unit's base");
        assert!(b.meta().inferred, "tag {tag}");
        let err = b.centre().distance(truth_base(tag).centre());
        assert!(err <= 2.45 * b.meta().sigma_mm.unwrap(), "tag {tag}: {err:.2} mm off");
    }
    // A place the unit leaves open (no formation): not inferred, reported missing.
    for &(u, bi) in &untagged[4..] {
        let tag = id(u, bi);
        assert!(!merged_tags.contains(&tag), "tag {tag} of unit {u} was placed");
        assert!(
            merged.report.issues.iter().any(|i| matches!(i, ScanIssue::MissingTag { id, .. } if *id == tag)),
            "tag {tag} not reported missing"
        );
    }

    // The front base of a column read in both photos moves 5 mm forward before the far
    // photo: a conflict, left out, and not inferred from its column either.
    let (cu, moved_id) = (0..table.units.len())
        .filter(|&u| table.units[u].formation == Some(vedette_geometry::Formation::AttackColumn))
        .map(|u| (u, id(u, 0)))
        .find(|(_, t)| both.contains(t))
        .expect("a column's front tag read in both photos");
    let b0 = table.units[cu].bases[0];
    let forward = Vec2::from_heading_deg(b0.heading_deg());
    table.units[cu].bases[0] = b0.with_pose(Pose::new(b0.centre() + forward * 5.0, b0.heading_deg()));
    let size = table.size.unwrap();
    let cam = common::clutter::camera(size.width, size.depth, TILT_DEG, 180.0, shots.resolution);
    shoot(dir, "moved-far", &table, &layout, &cam, shots.seed + 1);
    let t = Truth::load(dir, "moved-far");
    let moved_scan =
        scan(&Photo::load(dir.join("moved-far.jpg")).unwrap(), &p, Some(&roster), Some(&t.intrinsics()))
            .unwrap();
    let merged = merge_scans(&[scans[0].clone(), moved_scan], &p, Some(&roster));
    let conflict = merged.report.issues.iter().find_map(|i| match i {
        ScanIssue::ConflictingTag { id, at_mm, photos } if *id == moved_id => {
            Some((at_mm.clone(), photos.clone()))
        }
        _ => None,
    });
    let (at_mm, photos) =
        conflict.unwrap_or_else(|| panic!("no conflict for tag {moved_id}: {:?}", merged.report.issues));
    assert_eq!(photos, vec![0, 1]);
    let apart = Vec2::new(at_mm[0][0], at_mm[0][1]).distance(Vec2::new(at_mm[1][0], at_mm[1][1]));
    assert!((apart - 5.0).abs() < 1.0, "{at_mm:?}");
    assert!(!merged.table.bases().any(|(_, b)| b.meta().tag == Some(moved_id)), "the moved base was placed");
    assert!(
        !merged
            .report
            .issues
            .iter()
            .any(|i| matches!(i, ScanIssue::MissingTag { id, .. } if *id == moved_id))
    );
}
