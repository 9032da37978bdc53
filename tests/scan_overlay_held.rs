//! Issue 37: `vedette scan --overlay` draws the places an untagged unit was held back
//! from (orange outlines labelled `UNIT ?1`, `UNIT ?2`), as `vedette serve` outlines
//! them. The bundled untagged sample scanned with `tests/browser/fixtures/
//! untagged-held.roster.toml` (one unit more of au-2's layout) holds au-2 back between
//! two places of six bases; the overlay (PNG, exact colours) then carries the orange of
//! twelve base outlines, which the photo itself never shows.

mod common;

use common::{root, vedette};

/// Pixels of exactly the overlay's orange (RGB 255, 140, 0) in the image at `path`.
fn orange_pixels(path: &std::path::Path) -> usize {
    let img = image::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display())).to_rgb8();
    img.pixels().filter(|p| p.0 == [255, 140, 0]).count()
}

#[test]
fn the_overlay_outlines_the_places_a_unit_was_held_back_from() {
    let dir = tempfile::tempdir().unwrap();
    let photo = root().join("samples/photos/untagged.jpg");
    let (table, overlay, report) =
        (dir.path().join("t.json"), dir.path().join("o.png"), dir.path().join("r.json"));
    let s = |p: &std::path::Path| p.display().to_string();
    let o = vedette(&[
        "scan",
        &s(&photo),
        "--profile",
        &s(&root().join("calibration/default.toml")),
        "--roster",
        &s(&root().join("tests/browser/fixtures/untagged-held.roster.toml")),
        "--camera",
        &s(&root().join("samples/photos/camera.toml")),
        "-o",
        &s(&table),
        "--overlay",
        &s(&overlay),
        "--report",
        &s(&report),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let r: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    let issues = r["issues"].as_array().unwrap();
    let held: Vec<&serde_json::Value> =
        issues.iter().filter(|i| i["places"].as_array().is_some_and(|p| !p.is_empty())).collect();
    assert_eq!(held.len(), 1, "{held:?}");
    assert_eq!(held[0]["unit"], "au-2");
    // Twelve outlines 3 px wide of 30 x 20 mm bases (about 40 x 27 px each here): at
    // least a third of their length in the exact colour (the rest anti-aliased or
    // crossed by others).
    let (drawn, photo_own) = (orange_pixels(&overlay), orange_pixels(&photo));
    assert_eq!(photo_own, 0, "the photo itself has the overlay's orange");
    assert!(drawn >= 12 * 130 * 3 / 3, "{drawn} orange pixels");
}
