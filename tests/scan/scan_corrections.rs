//! `vedette scan ... --corrections FILE` (issue 22): the corrections `vedette serve`
//! writes beside a table are applied to a new scan of the same photo, so a base moved
//! or deleted by hand stays so; a correction that no longer applies is named, and no
//! table is written.

use crate::common;
use serde_json::json;

fn scan(out: &std::path::Path, corrections: &std::path::Path) -> std::process::Output {
    common::vedette(&[
        "scan",
        "samples/photos/skirmish.jpg",
        "--profile",
        "calibration/default.toml",
        "--camera",
        "samples/photos/camera.toml",
        "--roster",
        "samples/photos/skirmish.roster.toml",
        "-o",
        out.to_str().unwrap(),
        "--corrections",
        corrections.to_str().unwrap(),
    ])
}

#[test]
fn a_rescan_keeps_the_corrections_and_names_one_that_no_longer_applies() {
    let dir = tempfile::tempdir().unwrap();
    let truth = vedette_geometry::Table::load(common::sample("photos/skirmish.table.json")).unwrap();
    // The first unit's first base moved 5 mm along x and turned by 10°; its last base
    // deleted when it has more than one.
    let u = &truth.units[0];
    let b = &u.bases[0];
    let (x, y, h) = (b.centre().x + 5.0, b.centre().y, (b.heading_deg() + 10.0).rem_euclid(360.0));
    let mut corrections = vec![
        json!({ "op": "move", "base": format!("{}#0", u.id), "x": x, "y": y }),
        json!({ "op": "rotate", "base": format!("{}#0", u.id), "heading": h }),
    ];
    if u.bases.len() > 1 {
        corrections.push(json!({ "op": "delete", "base": format!("{}#{}", u.id, u.bases.len() - 1) }));
    }
    let file = dir.path().join("skirmish.corrections.json");
    std::fs::write(
        &file,
        json!({ "schema": "vedette/corrections/1", "corrections": corrections }).to_string(),
    )
    .unwrap();
    let out = dir.path().join("table.json");
    let o = scan(&out, &file);
    assert!(o.status.success(), "{}", common::stderr(&o));
    assert!(common::stdout(&o).contains(&format!("{} correction(s) applied", corrections.len())));
    let t = vedette_geometry::Table::load(&out).unwrap();
    let su = t.units.iter().find(|s| s.id == u.id).unwrap();
    let sb = &su.bases[0];
    assert!((sb.centre().x - x).abs() < 1e-9 && (sb.centre().y - y).abs() < 1e-9, "{:?}", sb.centre());
    assert!((sb.heading_deg() - h).abs() < 1e-9);
    assert_eq!(su.bases.len(), u.bases.len() - usize::from(u.bases.len() > 1));

    // A correction naming a base the scan does not have: the file and the number are
    // named, exit non-zero, no table written.
    std::fs::write(
        &file,
        json!({ "schema": "vedette/corrections/1", "corrections": [
            { "op": "move", "base": format!("{}#0", u.id), "x": x, "y": y },
            { "op": "delete", "base": "no-such-unit#0" } ] })
        .to_string(),
    )
    .unwrap();
    let out2 = dir.path().join("table2.json");
    let o = scan(&out2, &file);
    assert_ne!(o.status.code(), Some(0));
    let err = common::stderr(&o);
    assert!(err.contains("skirmish.corrections.json") && err.contains("correction 2"), "{err}");
    assert!(!out2.exists(), "no table written");
    // A missing file is said.
    let o = scan(&out2, &dir.path().join("nope.json"));
    assert!(common::stderr(&o).contains("no such corrections file"), "{}", common::stderr(&o));
}
