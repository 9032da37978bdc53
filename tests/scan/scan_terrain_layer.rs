//! Terrain layers (issue 19): `vedette scan --terrain LAYER` puts a layer's terrain into
//! the scan, `--terrain-only` writes a layer, and a layer of another table is refused
//! without writing anything.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use vedette_geometry::Table;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn sample(name: &str) -> String {
    root().join("samples/photos").join(name).display().to_string()
}

fn vedette(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_vedette")).args(args).current_dir(root()).output().unwrap()
}

fn ok(o: &Output) -> String {
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(o.status.success(), "{out}{}", String::from_utf8_lossy(&o.stderr));
    out
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A hand-typed table lends its terrain to the scan; the scan's layer is that terrain
/// alone, and merging the layer back gives the same terrain again.
#[test]
fn terrain_layer_round_trip() {
    let dir = tempfile::tempdir().unwrap();
    let (full, layer, again) =
        (dir.path().join("full.json"), dir.path().join("layer.json"), dir.path().join("again.json"));
    let truth = Table::load(sample("skirmish.table.json")).unwrap();
    let photo = sample("skirmish.jpg");
    let roster = sample("skirmish.roster.toml");
    let common = ["scan", &photo, "--profile", "calibration/default.toml", "--roster", &roster];
    let out =
        ok(&vedette(&[&common[..], &["--terrain", &sample("skirmish.table.json"), "-o", s(&full)]].concat()));
    assert!(out.contains("9 terrain features from the layer"), "{out}");
    let scanned = Table::load(&full).unwrap();
    assert_eq!(scanned.terrain, truth.terrain);
    assert_eq!(scanned.base_count(), truth.base_count());

    // The layer of the scanned table: a valid table file with the terrain alone.
    let out = ok(&vedette(&[&common[..], &["--terrain", s(&full), "-o", s(&again)]].concat()));
    assert!(out.contains("from the layer"), "{out}");
    assert_eq!(Table::load(&again).unwrap().terrain, truth.terrain);

    let out = ok(&vedette(&[
        "scan",
        &photo,
        "--profile",
        "calibration/default.toml",
        "--terrain-only",
        "-o",
        s(&layer),
    ]));
    assert!(out.contains("terrain layer"), "{out}");
    let l = Table::load(&layer).unwrap();
    assert!(l.units.is_empty() && l.markers.is_empty());
    assert_eq!(l.size, truth.size);
}

#[test]
fn a_layer_of_another_table_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("t.json");
    let o = vedette(&[
        "scan",
        &sample("skirmish.jpg"),
        "--profile",
        "calibration/default.toml",
        "--terrain",
        "samples/woods-block.json",
        "-o",
        s(&out),
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("samples/woods-block.json") && err.contains("1200.0 x 800.0"), "{err}");
    assert!(!out.exists());
    // --terrain and --terrain-only together make no sense.
    let o = vedette(&[
        "scan",
        &sample("skirmish.jpg"),
        "--profile",
        "calibration/default.toml",
        "--terrain",
        "x.json",
        "--terrain-only",
        "-o",
        s(&out),
    ]);
    assert!(!o.status.success());
}
