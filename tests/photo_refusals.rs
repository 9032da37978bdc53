//! Issue 41 item 3 and issue 39 item 6: photos refused for a measured reason, and a
//! wrong roster said loudly. Each test repeats a finding of the second audit (or of
//! issue 39's trial as a new user), which exited 0 with nonsense before.

mod common;

use common::{root, stderr, stdout, vedette};
use std::path::{Path, PathBuf};

fn photo(name: &str) -> PathBuf {
    root().join("samples/photos").join(name)
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The battle photo shrunk to `percent` (area-averaged, as a camera of fewer pixels
/// would see it), written into `dir`.
fn shrunk(dir: &Path, percent: u32) -> PathBuf {
    let img = image::open(photo("battle.jpg")).unwrap();
    let small = img.thumbnail_exact(img.width() * percent / 100, img.height() * percent / 100);
    let p = dir.join(format!("battle-{percent}.jpg"));
    small.to_rgb8().save(&p).unwrap();
    p
}

/// Issue 41: the battle photo at 35% (tags about 8 px) scanned into 32 of 153 bases
/// and 22 `hedge` features made of unread bases; at 25%, into none and 42 features.
/// Both are refused now, saying how big the tags are and how big they must be, and no
/// table (and so no terrain made of bases) is written.
#[test]
fn a_photo_too_small_for_its_tags_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    for (percent, px) in [(35, 7.9), (25, 5.6)] {
        let p = shrunk(dir.path(), percent);
        let out = dir.path().join("table.json");
        let o = vedette(&[
            "scan",
            s(&p),
            "--profile",
            "calibration/default.toml",
            "--roster",
            s(&photo("battle.roster.toml")),
            "-o",
            s(&out),
        ]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{percent}%: {err}");
        let n: f64 = err
            .split("tags are ")
            .nth(1)
            .and_then(|t| t.split(' ').next())
            .and_then(|t| t.parse().ok())
            .unwrap_or_else(|| panic!("{err}"));
        assert!((n - px).abs() < 0.4, "{percent}%: {n} px: {err}");
        assert!(err.contains("at least 12 px are needed"), "{err}");
        assert!(!out.exists(), "{percent}%: nothing written");
    }
}

/// Issue 41: the 4000x3000 camera file was silently used for a 1000x750 photo.
#[test]
fn a_camera_file_of_another_size_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let p = shrunk(dir.path(), 25);
    let out = dir.path().join("table.json");
    let camera = photo("camera.toml");
    let o = vedette(&[
        "scan",
        s(&p),
        "--profile",
        "calibration/default.toml",
        "--camera",
        s(&camera),
        "-o",
        s(&out),
    ]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("calibrated at 4000x3000 px and this photo is 1000x750 px"), "{err}");
    assert!(err.contains(&format!("camera file {}", camera.display())), "{err}");
    assert!(!out.exists());
}

/// Issue 41: battle.jpg and crowd-far.jpg, two tables, were merged into 9 of 153 bases.
#[test]
fn photos_of_two_tables_are_not_merged() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("table.json");
    let o = vedette(&[
        "scan",
        s(&photo("battle.jpg")),
        s(&photo("crowd-far.jpg")),
        "--profile",
        "calibration/default.toml",
        "--camera",
        s(&photo("camera.toml")),
        "-o",
        s(&out),
    ]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("photos 1 (")
            && err.contains("battle.jpg) and 2 (")
            && err.contains("do not show one table"),
        "{err}"
    );
    let (both, apart) = (
        err.split("of the ").nth(1).and_then(|t| t.split(' ').next()).and_then(|t| t.parse::<usize>().ok()),
        err.split("tags both read, ")
            .nth(1)
            .and_then(|t| t.split(' ').next())
            .and_then(|t| t.parse::<usize>().ok()),
    );
    let (both, apart) = (both.unwrap_or_else(|| panic!("{err}")), apart.unwrap_or_else(|| panic!("{err}")));
    assert!(both > 100 && 2 * apart > both, "{err}");
    assert!(!out.exists());
}

/// Issue 39: battle.jpg scanned with the crowd roster exited 0 with 35 units instead of
/// 68 and no warning. Now it is refused, with the numbers; `--allow-partial` writes what
/// was read and says so.
#[test]
fn a_wrong_roster_is_loud() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("table.json");
    let args = |extra: &[&'static str]| {
        let mut a: Vec<String> = [
            "scan",
            s(&photo("battle.jpg")),
            "--profile",
            "calibration/default.toml",
            "--camera",
            s(&photo("camera.toml")),
            "--roster",
            s(&photo("crowd.roster.toml")),
            "-o",
            s(&out),
        ]
        .iter()
        .map(|x| x.to_string())
        .collect();
        a.extend(extra.iter().map(|x| x.to_string()));
        a
    };
    let run = |a: Vec<String>| {
        let refs: Vec<&str> = a.iter().map(String::as_str).collect();
        vedette(&refs)
    };
    let o = run(args(&[]));
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("this photo does not look like this roster"), "{err}");
    assert!(err.contains("crowd.roster.toml): 153 of its 173 tags were read"), "{err}");
    assert!(err.contains("units with two or more bases read have bases more than 3 base lengths from the rest of their unit"), "{err}");
    assert!(err.contains("--allow-partial"), "{err}");
    assert!(!out.exists());

    let o = run(args(&["--allow-partial"]));
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("--allow-partial: this photo does not look like this roster"),
        "{}",
        stdout(&o)
    );
    assert!(out.exists());
}

/// Issue 41: `scan` accepted roster tags that are table fiducial ids or outside the
/// profile's dictionary. Refused now, naming the unit and the tag, by `scan` and by
/// `sheet --roster`.
#[test]
fn roster_tags_the_profile_cannot_have_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    for (tags, says) in [
        ("[10, 2]", "tag 2 is table fiducial 2 of calibration/default.toml (DICT_4X4_250)"),
        (
            "[10, 300]",
            "tag 300 is not in the tag dictionary of calibration/default.toml (DICT_4X4_250, ids 0-249)",
        ),
    ] {
        let roster = dir.path().join("roster.toml");
        std::fs::write(
            &roster,
            format!("[[unit]]\nid = \"fr-1\"\nside = \"x\"\nkind = \"infantry\"\nbase_mm = [30, 20]\ntags = {tags}\n"),
        )
        .unwrap();
        let out = dir.path().join("table.json");
        let o = vedette(&[
            "scan",
            s(&photo("skirmish.jpg")),
            "--profile",
            "calibration/default.toml",
            "--roster",
            s(&roster),
            "-o",
            s(&out),
        ]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{err}");
        assert!(err.contains("roster.toml: field `unit[0] \"fr-1\" tags[1]`"), "{err}");
        assert!(err.contains(says), "{err}");
        assert!(!out.exists());
        let sheets = dir.path().join("sheets");
        let o = vedette(&["sheet", "calibration/default.toml", "--roster", s(&roster), "-o", s(&sheets)]);
        assert_eq!(o.status.code(), Some(1));
        assert!(stderr(&o).contains(says), "{}", stderr(&o));
    }
}
