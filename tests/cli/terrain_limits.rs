//! Terrain limits (issue 41 item 5): a table holds at most
//! `vedette_geometry::MAX_TERRAIN_FEATURES` terrain features and
//! `vedette_geometry::MAX_TERRAIN_POINTS` terrain points in all; beyond either, every
//! verb that reads it (`report`, `scan --terrain`) refuses it at once, naming the limit.
//! A layer of 300 outlines of 10,000 points each (each within the per-outline limit) used
//! to make `scan` take 75 s and 800 MB and `report` over two minutes.

use crate::common;

use common::{root, sample, stderr, vedette};
use serde_json::{Value, json};
use vedette_geometry::{MAX_OUTLINE_POINTS, MAX_TERRAIN_FEATURES, MAX_TERRAIN_POINTS};

/// A wavy round wood of `n` points about (`x`, `y`), radius `r` (a simple polygon).
fn wood(id: &str, x: f64, y: f64, r: f64, n: usize) -> Value {
    let ring: Vec<[f64; 2]> = (0..n)
        .map(|k| {
            let a = std::f64::consts::TAU * k as f64 / n as f64;
            let rr = r * (1.0 + 0.05 * (7.0 * a).sin());
            [x + rr * a.cos(), y + rr * a.sin()]
        })
        .collect();
    json!({"id": id, "kind": "light-forest", "level": 0, "outline": ring})
}

/// The skirmish sample with `terrain` instead of its own, written into `dir`.
fn with_terrain(dir: &std::path::Path, terrain: Vec<Value>) -> std::path::PathBuf {
    let mut t: Value =
        serde_json::from_str(&std::fs::read_to_string(sample("skirmish.json")).unwrap()).unwrap();
    t["terrain"] = Value::Array(terrain);
    let p = dir.join("table.json");
    std::fs::write(&p, t.to_string()).unwrap();
    p
}

#[test]
fn too_many_terrain_points_in_all_are_refused_naming_the_limit() {
    let dir = tempfile::tempdir().unwrap();
    // Each outline within its own limit; together one outline past the table's.
    let n = MAX_TERRAIN_POINTS / MAX_OUTLINE_POINTS + 1;
    let terrain = (0..n)
        .map(|i| wood(&format!("w{i}"), 100.0 + 60.0 * i as f64, 1000.0, 25.0, MAX_OUTLINE_POINTS))
        .collect();
    let table = with_terrain(dir.path(), terrain);
    let o = vedette(&["report", table.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let want = format!(
        "terrain: has {} points in all (outlines, holes, paths, crest lines); at most {MAX_TERRAIN_POINTS} (MAX_TERRAIN_POINTS)",
        n * MAX_OUTLINE_POINTS
    );
    assert!(stderr(&o).contains(&want), "{}", stderr(&o));
    // The same as a scan's terrain layer: refused before the photo is read.
    let o = vedette(&[
        "scan",
        root().join("samples/photos/skirmish.jpg").to_str().unwrap(),
        "--profile",
        "calibration/default.toml",
        "--terrain",
        table.to_str().unwrap(),
        "-o",
        dir.path().join("out.json").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains(&want), "{}", stderr(&o));
    assert!(!dir.path().join("out.json").exists());
}

#[test]
fn too_many_terrain_features_are_refused_and_just_inside_loads() {
    let dir = tempfile::tempdir().unwrap();
    let tri = |i: usize| {
        let (x, y) = (5000.0 + (i % 200) as f64 * 10.0, 5000.0 + (i / 200) as f64 * 10.0);
        json!({"kind": "marsh", "level": 0, "outline": [[x, y], [x + 5.0, y], [x, y + 5.0]]})
    };
    let table = with_terrain(dir.path(), (0..=MAX_TERRAIN_FEATURES).map(tri).collect());
    let t = vedette_geometry::Table::load(&table);
    let e = t.err().map(|e| e.to_string()).unwrap_or_default();
    assert!(
        e.contains(&format!(
            "terrain: has {} features; at most {MAX_TERRAIN_FEATURES} (MAX_TERRAIN_FEATURES)",
            MAX_TERRAIN_FEATURES + 1
        )),
        "{e}"
    );
    let table = with_terrain(dir.path(), (0..MAX_TERRAIN_FEATURES).map(tri).collect());
    let t = vedette_geometry::Table::load(&table).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(t.terrain.len(), MAX_TERRAIN_FEATURES);
}

/// Outlines at the per-outline limit are checked in a sweep, not pair by pair: two
/// nested 10,000-point hills load, and crossing ones are named.
#[test]
fn long_hill_contours_are_checked_exactly() {
    let dir = tempfile::tempdir().unwrap();
    let hill = |r: f64, level: f64, dx: f64| {
        let mut h = wood("", 900.0 + dx, 600.0, r, MAX_OUTLINE_POINTS);
        h["kind"] = json!("hill");
        h["level"] = json!(level);
        h.as_object_mut().unwrap().remove("id");
        h
    };
    let table = with_terrain(dir.path(), vec![hill(300.0, 1.0, 0.0), hill(150.0, 2.0, 0.0)]);
    vedette_geometry::Table::load(&table).unwrap_or_else(|e| panic!("{e}"));
    // The inner hill lower than the outer one.
    let table = with_terrain(dir.path(), vec![hill(300.0, 1.0, 0.0), hill(150.0, 1.0, 0.0)]);
    let e = vedette_geometry::Table::load(&table).err().map(|e| e.to_string()).unwrap_or_default();
    assert!(e.contains("must be higher"), "{e}");
    // Crossing contours.
    let table = with_terrain(dir.path(), vec![hill(300.0, 1.0, 0.0), hill(150.0, 2.0, 250.0)]);
    let e = vedette_geometry::Table::load(&table).err().map(|e| e.to_string()).unwrap_or_default();
    assert!(e.contains("hill contour crosses the contour of terrain[0]"), "{e}");
}
