//! Issue 39 item 5, trust on your own camera: the check sheet (`vedette sheet --check`)
//! rendered lying on a table by vedette-synth, whose truth is known, and measured by
//! `vedette check`: its distance errors agree with the truth within the uncertainty it
//! states; a photo without the sheet, or with tags too small in pixels, is refused.

use std::path::Path;
use vedette_geometry::{RuleSet, Scale, Table, TableSize, Vec2};
use vedette_synth::{
    ArucoDictionary, Camera, LookAt, RenderOptions, Resolution, Scene, StandardLayout, TableFiducial, render,
};
use vedette_vision::{
    CheckTag, Photo, Profile, TablePlan, VisionError, check_photo, check_tags, starter_profile,
};

const WIDTH: f64 = 800.0;
const DEPTH: f64 = 600.0;

/// A small table as `vedette init` lays it out (60 mm fiducials 60 mm in from the
/// corners: StandardLayout's), 12 mm tags.
fn profile() -> Profile {
    let plan = TablePlan { width_mm: WIDTH, depth_mm: DEPTH, fiducials: Some(4), ..TablePlan::default() };
    starter_profile(&plan, "check.toml").unwrap().0
}

/// Where a tag of the sheet lies on the table: the sheet's centre at `centre`, turned
/// `turn_deg` counter-clockwise, printed at `scale` (1 = 100%).
fn on_table(t: &CheckTag, centre: Vec2, turn_deg: f64, scale: f64) -> Vec2 {
    // Page mm: x to the right, y down from the top-left; the page's middle at `centre`.
    let local = Vec2::new(t.x_mm - 105.0, -(t.y_mm - 148.5)) * scale;
    let (s, c) = turn_deg.to_radians().sin_cos();
    centre + Vec2::new(c * local.x - s * local.y, s * local.x + c * local.y)
}

/// Renders the table with the sheet (when `sheet` is `Some((scale, turn))`) at
/// `resolution` into `dir`, and loads it.
fn shoot(dir: &Path, name: &str, sheet: Option<(f64, f64)>, resolution: Resolution) -> Photo {
    let mut table = Table::new(RuleSet::Republique5, Scale::Medium, Vec::new());
    table.size = Some(TableSize { width: WIDTH, depth: DEPTH });
    let mut layout = StandardLayout::default().build(&table).unwrap();
    if let Some((scale, turn)) = sheet {
        for t in check_tags(&profile()) {
            // Each tag on its own square of white paper, the squares nearly touching:
            // the sheet.
            layout.fiducials.push(TableFiducial {
                dictionary: ArucoDictionary::Dict4x4_250,
                id: t.id,
                centre_mm: on_table(&t, Vec2::new(430.0, 290.0), turn, scale),
                side_mm: 12.0 * scale,
                rotation_deg: turn,
                quiet_zone_mm: 20.0,
            });
        }
    }
    let scene = Scene::new(table, &layout).unwrap();
    let camera = Camera::looking_at(&LookAt {
        target_mm: Vec2::new(WIDTH / 2.0, DEPTH / 2.0),
        height_mm: 700.0,
        tilt_deg: 8.0,
        yaw_deg: 1.0,
        focal_mm: 4.5,
        sensor_width_mm: 6.17,
        resolution,
    })
    .unwrap();
    let options = RenderOptions { texel_mm: 2.0, clutter: false, ..RenderOptions::seeded(39) };
    render(&scene, &camera, &options).unwrap().write(dir, name).unwrap();
    Photo::load(dir.join(format!("{name}.jpg"))).unwrap()
}

/// `vedette check PHOTO --profile check.toml` run in `dir`, the profile written there.
fn check_verb(dir: &Path, photo: &str) -> std::process::Output {
    let plan = TablePlan { width_mm: WIDTH, depth_mm: DEPTH, fiducials: Some(4), ..TablePlan::default() };
    std::fs::write(dir.join("check.toml"), starter_profile(&plan, "check.toml").unwrap().1).unwrap();
    std::process::Command::new(env!("CARGO_BIN_EXE_vedette"))
        .args(["check", photo, "--profile", "check.toml"])
        .current_dir(dir)
        .output()
        .unwrap()
}

#[test]
fn the_check_agrees_with_the_truth_within_its_stated_uncertainty() {
    let dir = tempfile::tempdir().unwrap();
    let p = profile();
    // Printed at 100%: the true error of every distance is zero.
    let photo = shoot(dir.path(), "exact", Some((1.0, 23.0)), Resolution::new(1600, 1200));
    let r = check_photo(&photo, &p, None).unwrap();
    assert_eq!(r.found.len(), 12, "{r:?}");
    assert_eq!(r.pairs.len(), 66);
    for pair in &r.pairs {
        assert!(pair.sigma_mm > 0.0 && pair.sigma_mm < 0.5, "{pair:?}");
        assert!(pair.error_mm.abs() <= 3.0 * pair.sigma_mm + 0.1, "{pair:?}");
    }
    assert!(r.worst.error_mm.abs() < 0.5, "{:?}", r.worst);
    assert!((r.scale - 1.0).abs() < 0.001, "{}", r.scale);
    assert!(r.good_for_disputes, "{:#?}", r.lines());
    let text = r.lines().join("\n");
    assert!(text.contains("GOOD FOR DISPUTES") && text.contains("66 distances from 60 to 234 mm"), "{text}");
    // The verb says the same, and exits 0.
    let o = check_verb(dir.path(), "exact.jpg");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let said = String::from_utf8_lossy(&o.stdout);
    assert!(said.contains("GOOD FOR DISPUTES") && !said.contains("NOT GOOD"), "{said}");

    // A printer that scaled the sheet by +0.6%: every distance is truly 0.6% long, and
    // the check says so pair by pair, within what it states.
    let scaled = shoot(dir.path(), "scaled", Some((1.006, -37.0)), Resolution::new(1600, 1200));
    let r = check_photo(&scaled, &p, None).unwrap();
    assert_eq!(r.pairs.len(), 66);
    for pair in &r.pairs {
        let truth = 0.006 * pair.printed_mm;
        assert!((pair.error_mm - truth).abs() <= 3.0 * pair.sigma_mm + 0.1, "{pair:?} vs true {truth}");
    }
    assert!((r.scale - 1.006).abs() < 0.001, "{}", r.scale);
    // 0.6% of 234 mm is 1.4 mm: too much for disputes, and the scale is named.
    assert!(!r.good_for_disputes);
    // The scale named is the one measured (within 0.1% of the truth, above): +0.59% or
    // +0.60% as the self-calibration's biases settle.
    let named = format!("{:+.2}%", (r.scale - 1.0) * 100.0);
    let text = r.lines().join("\n");
    assert!(text.contains(&named) && text.contains("NOT GOOD ENOUGH FOR DISPUTES"), "{text}");
    // The verb exits 1, saying why.
    let o = check_verb(dir.path(), "scaled.jpg");
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stdout).contains(&named));
    assert!(String::from_utf8_lossy(&o.stderr).contains("not good enough for disputes"));
}

#[test]
fn a_photo_without_the_sheet_or_with_tags_too_small_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let p = profile();
    let bare = shoot(dir.path(), "bare", None, Resolution::new(1600, 1200));
    match check_photo(&bare, &p, None) {
        Err(e @ VisionError::CheckSheetMissing { .. }) => {
            let m = e.to_string();
            assert!(
                m.contains("0 of its 12 tags") && m.contains("ids 238-249") && m.contains("sheet"),
                "{m}"
            );
        }
        other => panic!("{other:?}"),
    }
    let o = check_verb(dir.path(), "bare.jpg");
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("bare.jpg: the check sheet is not in this photo"), "{err}");
    // The same sheet at a third of the pixels: 12 mm tags about 7 px across.
    let small = shoot(dir.path(), "small", Some((1.0, 23.0)), Resolution::new(560, 420));
    match check_photo(&small, &p, None) {
        Err(e @ VisionError::TagsTooSmall { .. }) => {
            let m = e.to_string();
            assert!(m.contains("tags are") && m.contains("at least 12 px are needed"), "{m}");
        }
        other => panic!("{other:?}"),
    }
}
