//! Hostile and careless input (issue 20): bounded where it used to crash, hang or write
//! tables the other verbs refuse; each case exits 1 with a message, writes nothing, and
//! just inside each bound works.

use crate::common;
use common::{stderr, vedette};

#[test]
fn generate_bounds_its_counts_and_writes_only_tables_that_load() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("g.json");
    let o = out.to_str().unwrap();
    // Used to panic (capacity overflow) or run out of memory.
    for args in [
        vec!["generate", "--terrain", "18446744073709551615", "-o", o],
        vec!["generate", "--bases", "1000001", "-o", o],
        vec!["generate", "--bases", "0", "-o", o],
    ] {
        let r = vedette(&args);
        assert_eq!(r.status.code(), Some(1), "{args:?}: {}", stderr(&r));
        assert!(stderr(&r).starts_with("error: --"), "{}", stderr(&r));
        assert!(!out.exists(), "{args:?} wrote a file");
    }
    // 2,000 bases with 200 features used to write crossing hill contours that `report`
    // refused; every seed now writes a table that loads.
    for seed in ["7", "1805"] {
        let r = vedette(&["generate", "--bases", "2000", "--terrain", "200", "--seed", seed, "-o", o]);
        assert!(r.status.success(), "{}", stderr(&r));
        let r = vedette(&["report", o, "--json"]);
        assert!(r.status.success(), "seed {seed}: {}", stderr(&r));
    }
}

#[test]
fn sheet_checks_tag_ranges_before_listing_them_and_never_prints_a_fiducial() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("sheets");
    let o = out.to_str().unwrap();
    let profile = common::root().join("calibration/default.toml");
    let p = profile.to_str().unwrap();
    // Used to allocate 16 GiB for the list before looking at the dictionary.
    let r = vedette(&["sheet", p, "--tags", "0-4294967295", "-o", o]);
    assert_eq!(r.status.code(), Some(1), "{}", stderr(&r));
    assert!(stderr(&r).contains("outside the tag dictionary (ids 0-249)"), "{}", stderr(&r));
    // Tags 0-3 print the same markers as the table's corner fiducials.
    let r = vedette(&["sheet", p, "--tags", "2-12", "-o", o]);
    assert_eq!(r.status.code(), Some(1), "{}", stderr(&r));
    assert!(stderr(&r).contains("tag 2 prints the same marker as table fiducial 2"), "{}", stderr(&r));
    assert!(!out.exists());
    // Just inside: the last id of the dictionary and the first free one.
    let r = vedette(&["sheet", p, "--tags", "4,249", "-o", o]);
    assert!(r.status.success(), "{}", stderr(&r));
}

#[test]
fn photos_that_are_empty_cut_short_or_too_large_are_refused_before_decoding() {
    let dir = tempfile::tempdir().unwrap();
    let profile = common::root().join("calibration/default.toml");
    let jpeg = std::fs::read(common::root().join("samples/photos/battle.jpg")).unwrap();
    // A 431-byte PNG claiming 20000x20000 px used to cost 4.3 GB.
    let mut bomb = b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR".to_vec();
    bomb.extend(20_000u32.to_be_bytes());
    bomb.extend(20_000u32.to_be_bytes());
    bomb.extend([8, 2, 0, 0, 0, 0, 0, 0, 0]);
    bomb.extend(b"\0\0\0\0IEND\xaeB`\x82");
    let cases: [(&str, Vec<u8>, &str); 4] = [
        ("empty.jpg", Vec::new(), "the file is empty (0 bytes)"),
        ("cut.jpg", jpeg[..jpeg.len() / 3].to_vec(), "the JPEG file is cut short"),
        ("bomb.png", bomb, "20000x20000 px (400 megapixels)"),
        ("notes.jpg", b"shopping list".to_vec(), "not a JPEG, PNG, TIFF, BMP or WebP image"),
    ];
    for (name, bytes, needle) in cases {
        let photo = dir.path().join(name);
        std::fs::write(&photo, bytes).unwrap();
        let out = dir.path().join("t.json");
        for args in [
            vec![
                "scan",
                photo.to_str().unwrap(),
                "--profile",
                profile.to_str().unwrap(),
                "-o",
                out.to_str().unwrap(),
            ],
            vec!["fiducials", photo.to_str().unwrap(), "--profile", profile.to_str().unwrap()],
        ] {
            let r = vedette(&args);
            assert_eq!(r.status.code(), Some(1), "{name}: {}", stderr(&r));
            let e = stderr(&r);
            assert!(e.contains(name) && e.contains(needle), "{name}: {e}");
            assert!(!e.contains("OpenCV"), "{name}: raw OpenCV text: {e}");
            assert!(!out.exists());
        }
    }
}

#[test]
fn messages_stay_short_and_name_what_is_wrong() {
    let dir = tempfile::tempdir().unwrap();
    // A 200 KB value is not echoed back whole (TOML and JSON).
    let long = "y".repeat(200_000);
    let profile = dir.path().join("long.toml");
    std::fs::write(&profile, format!("[table]\nwidth_mm = \"{long}\"\n")).unwrap();
    let r = vedette(&[
        "sheet",
        profile.to_str().unwrap(),
        "--tags",
        "10",
        "-o",
        dir.path().join("s").to_str().unwrap(),
    ]);
    assert_eq!(r.status.code(), Some(1));
    assert!(stderr(&r).contains("long.toml") && stderr(&r).len() < 2_000, "{} bytes", stderr(&r).len());
    let table = dir.path().join("long.json");
    std::fs::write(&table, format!("{{\"schema\": \"vedette/table/1\", \"rules\": \"{long}\"}}")).unwrap();
    let r = vedette(&["report", table.to_str().unwrap()]);
    assert_eq!(r.status.code(), Some(1));
    assert!(stderr(&r).contains("long.json") && stderr(&r).len() < 2_000, "{} bytes", stderr(&r).len());
    // Huge numbers in exponent form, not 300 digits.
    let mut t: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(common::sample("skirmish.json")).unwrap()).unwrap();
    t["units"][0]["bases"][0]["x"] = serde_json::json!(-1e300);
    std::fs::write(&table, t.to_string()).unwrap();
    let r = vedette(&["report", table.to_str().unwrap()]);
    assert!(
        stderr(&r).contains("bases[0].x: must be a finite number within ±1000000, got -1e300"),
        "{}",
        stderr(&r)
    );
    // Flags out of range are refused by name, not by an OpenCV assertion.
    let photo = common::root().join("samples/photos/battle.jpg");
    for v in ["0", "1e300"] {
        let r = vedette(&["fiducials", photo.to_str().unwrap(), "--min-side-px", v]);
        assert_eq!(r.status.code(), Some(1));
        assert!(stderr(&r).contains("--min-side-px must be between 4 and 10000"), "{}", stderr(&r));
    }
    let r = vedette(&[
        "calibrate-camera",
        photo.to_str().unwrap(),
        "--square-mm",
        "1e300",
        "-o",
        dir.path().join("c.toml").to_str().unwrap(),
    ]);
    assert_eq!(r.status.code(), Some(1));
    assert!(
        stderr(&r).contains("the square size must be a positive number of mm up to 1000, got 1e300"),
        "{}",
        stderr(&r)
    );
}

#[test]
fn one_chessboard_photographed_three_times_is_not_a_calibration() {
    let Some(photos) = vedette_vision::opencv_sample_photos() else {
        eprintln!("SKIPPED: opencv-doc sample chessboards not installed");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let copies: Vec<String> = (0..3)
        .map(|i| {
            let p = dir.path().join(format!("copy{i}.jpg"));
            std::fs::copy(&photos[0], &p).unwrap();
            p.to_str().unwrap().to_string()
        })
        .collect();
    let out = dir.path().join("cam.toml");
    let mut args = vec!["calibrate-camera"];
    args.extend(copies.iter().map(String::as_str));
    args.extend(["-o", out.to_str().unwrap()]);
    let r = vedette(&args);
    assert_eq!(r.status.code(), Some(1), "{}", stderr(&r));
    assert!(
        stderr(&r).contains("only 1 distinct view(s) (photos of the same view count once)"),
        "{}",
        stderr(&r)
    );
    assert!(!out.exists());
    // With two other views it calibrates, and says which copies it left out.
    let mut args = vec!["calibrate-camera"];
    args.extend(copies.iter().map(String::as_str));
    args.extend([photos[1].to_str().unwrap(), photos[2].to_str().unwrap(), "-o", out.to_str().unwrap()]);
    let r = vedette(&args);
    assert!(r.status.success(), "{}", stderr(&r));
    assert!(common::stdout(&r).contains("skipped") && common::stdout(&r).contains("the same view as"));
}

#[test]
fn scan_outputs_that_clash_with_an_input_or_each_other_are_refused_before_any_work() {
    let dir = tempfile::tempdir().unwrap();
    let photo = dir.path().join("battle.jpg");
    std::fs::copy(common::root().join("samples/photos/battle.jpg"), &photo).unwrap();
    let roster = dir.path().join("battle.roster.toml");
    std::fs::copy(common::root().join("samples/photos/battle.roster.toml"), &roster).unwrap();
    let before = (std::fs::read(&photo).unwrap(), std::fs::read(&roster).unwrap());
    let profile = common::root().join("calibration/default.toml");
    let (p, r, f) = (photo.to_str().unwrap(), roster.to_str().unwrap(), profile.to_str().unwrap());
    let x = dir.path().join("x.json");
    let x = x.to_str().unwrap();
    let cases: [(Vec<&str>, &str); 4] = [
        (vec!["-o", x, "--report", x], "--report and -o are both"),
        (vec!["-o", p], "-o"),
        (vec!["-o", r], "is the roster"),
        (vec!["-o", x, "--overlay", p], "is the photo"),
    ];
    for (extra, needle) in cases {
        let mut args = vec!["scan", p, "--profile", f, "--roster", r];
        args.extend(extra.iter().copied());
        let o = vedette(&args);
        assert_eq!(o.status.code(), Some(1), "{extra:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(needle) && stderr(&o).contains("choose"), "{extra:?}: {}", stderr(&o));
    }
    assert_eq!((std::fs::read(&photo).unwrap(), std::fs::read(&roster).unwrap()), before);
    assert!(!std::path::Path::new(x).exists());
}
