//! Issue 37: `vedette scan --overlay` draws the places an untagged unit was held back
//! from (orange outlines labelled `UNIT ?1`, `UNIT ?2`), as `vedette serve` outlines
//! them. The bundled untagged sample scanned with `tests/browser/fixtures/
//! untagged-held.roster.toml` (one unit more of au-2's layout, neither declaring a
//! coat) holds au-2 back between two places of six bases; the overlay (PNG, exact
//! colours) then carries the orange of twelve base outlines, which the photo itself
//! never shows. `vedette report --png`
//! over that scan draws them too, dashed in the plan's orange, names in its legend the
//! units found nowhere, and says on stderr that no verdict covers them (a picture of
//! one question says it too).

use crate::common;

use common::{root, vedette};

/// Pixels of exactly `rgb` in the image at `path`.
fn pixels_of(path: &std::path::Path, rgb: [u8; 3]) -> usize {
    let img = image::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display())).to_rgb8();
    img.pixels().filter(|p| p.0 == rgb).count()
}

/// Pixels of exactly the overlay's orange (RGB 255, 140, 0) in the image at `path`.
fn orange_pixels(path: &std::path::Path) -> usize {
    pixels_of(path, [255, 140, 0])
}

/// The plan's orange (Okabe-Ito, `#E69F00`), which outlines held places in pictures.
const PLAN_ORANGE: [u8; 3] = [0xE6, 0x9F, 0x00];

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

    // The report's picture over the photo, from this scan report and from the same
    // report with its issues left out (nothing held, nothing missing).
    let bare = dir.path().join("bare.json");
    let mut r0 = r.clone();
    r0["issues"] = serde_json::json!([]);
    std::fs::write(&bare, serde_json::to_string(&r0).unwrap()).unwrap();
    let picture = |report: &std::path::Path, png: &std::path::Path| {
        let o = vedette(&[
            "report",
            &s(&table),
            "--png",
            &s(png),
            "--photo",
            &s(&photo),
            "--scan-report",
            &s(report),
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8_lossy(&o.stderr).into_owned()
    };
    let (with, without) = (dir.path().join("with.png"), dir.path().join("without.png"));
    let said = picture(&report, &with);
    let said_bare = picture(&bare, &without);
    assert!(
        said.contains("units of the roster are not on the table, so no verdict covers them: au-2 (held back: 2 places fit as well, outlined ?1, ?2; put it on one in vedette serve);"),
        "{said}"
    );
    assert!(said.contains("au-cav (not found in the photo)"), "{said}");
    assert!(!said_bare.contains("not on the table"), "{said_bare}");
    // Twelve dashed outlines (two thirds drawn) about 24 x 16 px at the picture's 2400
    // px, 2 px wide: at least a third of that in the exact colour.
    let (held, bare_orange) = (pixels_of(&with, PLAN_ORANGE), pixels_of(&without, PLAN_ORANGE));
    assert!(held >= bare_orange + 12 * 80 * 2 * 2 / 3 / 3, "{held} against {bare_orange} without");

    // A picture of one question is cropped to its pair and draws none of them, but its
    // verdict may miss them too (a unit held back may stand on the sight line): stderr
    // says so.
    let why = dir.path().join("why.png");
    let o = vedette(&[
        "los",
        &s(&table),
        "fr-1",
        "au-1",
        "--png",
        &s(&why),
        "--photo",
        &s(&photo),
        "--scan-report",
        &s(&report),
    ]);
    let said = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{said}");
    assert!(said.contains("not on the table, so no verdict covers them: au-2 (held back"), "{said}");
}
