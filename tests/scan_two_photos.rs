//! Issue 18: several photos of one table. `vedette scan A B ...` scans each photo on
//! its own and merges the bases in the table frame; one overlay per photo; the report
//! says which photos saw each base; `--camera` once or once per photo.

mod common;

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
