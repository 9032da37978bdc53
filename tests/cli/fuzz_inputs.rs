//! Garbage in, an error out (issue 20): every parser a user's file reaches (table JSON,
//! profile, roster and camera TOML, photo bytes) is fed mutated copies of the bundled
//! files: bytes flipped, cut, repeated, numbers replaced by extremes. Each must give
//! `Ok` or an error, never a panic, an abort or a hang; a table that loads must then
//! survive the geometry every verb starts with.
//!
//! Fixed seeds. `FUZZ_CASES=N` runs N cases per parser instead of the default (the
//! longer runs quoted in BENCHMARKS.md).

use crate::common;
use proptest::prelude::*;
use proptest::test_runner::TestRunner;
use vedette_geometry::los::TerrainSight;
use vedette_geometry::{SpatialIndex, Table};
use vedette_vision::{Intrinsics, Photo, Profile, Roster, check_image};

fn cases(default: u32) -> u32 {
    std::env::var("FUZZ_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

fn runner(default: u32, seed: u64) -> TestRunner {
    TestRunner::new(common::proptest_config(cases(default), seed))
}

/// One edit of a text or byte string.
#[derive(Debug, Clone)]
enum Edit {
    Flip(usize, u8),
    Cut(usize),
    Delete(usize, usize),
    Repeat(usize, usize),
    Insert(usize, &'static str),
    Number(usize, &'static str),
}

const TOKENS: &[&str] = &[
    "{",
    "}",
    "[",
    "]",
    "\"",
    ",",
    ":",
    "=",
    "\n",
    "null",
    "true",
    "-",
    "#",
    "\u{feff}",
    "\\u0000",
    "[[unit]]",
    "\"units\": [",
    "\"x\": ",
    "tags = [",
    "é",
    "\u{202e}",
];
const NUMBERS: &[&str] = &[
    "0",
    "-0",
    "1e300",
    "-1e300",
    "1e-300",
    "NaN",
    "inf",
    "-1",
    "4294967296",
    "18446744073709551616",
    "1e6",
    "999999.9999",
    "360e15",
    "0.0000001",
    "2.5",
];

fn edits() -> impl Strategy<Value = Vec<Edit>> {
    let edit = prop_oneof![
        (any::<usize>(), any::<u8>()).prop_map(|(i, b)| Edit::Flip(i, b)),
        any::<usize>().prop_map(Edit::Cut),
        (any::<usize>(), 1..64usize).prop_map(|(i, n)| Edit::Delete(i, n)),
        (any::<usize>(), 1..256usize).prop_map(|(i, n)| Edit::Repeat(i, n)),
        (any::<usize>(), proptest::sample::select(TOKENS)).prop_map(|(i, t)| Edit::Insert(i, t)),
        (any::<usize>(), proptest::sample::select(NUMBERS)).prop_map(|(i, t)| Edit::Number(i, t)),
    ];
    proptest::collection::vec(edit, 1..6)
}

fn apply(original: &[u8], edits: &[Edit]) -> Vec<u8> {
    let mut v = original.to_vec();
    for e in edits {
        let at = |i: usize, len: usize| if len == 0 { 0 } else { i % len };
        match *e {
            Edit::Flip(i, b) if !v.is_empty() => {
                let k = at(i, v.len());
                v[k] ^= b | 1;
            }
            Edit::Cut(i) => v.truncate(at(i, v.len() + 1)),
            Edit::Delete(i, n) if !v.is_empty() => {
                let k = at(i, v.len());
                v.drain(k..(k + n).min(v.len()));
            }
            Edit::Repeat(i, n) if !v.is_empty() => {
                let k = at(i, v.len());
                let piece: Vec<u8> = v[k..(k + n).min(v.len())].to_vec();
                v.splice(k..k, piece);
            }
            Edit::Insert(i, t) => {
                let k = at(i, v.len() + 1);
                v.splice(k..k, t.bytes());
            }
            Edit::Number(i, t) => {
                // Replace the number starting at or after i, if any.
                let k = at(i, v.len() + 1);
                if let Some(s) = (k..v.len()).find(|&j| v[j].is_ascii_digit()) {
                    let e =
                        (s..v.len()).find(|&j| !(v[j].is_ascii_digit() || v[j] == b'.')).unwrap_or(v.len());
                    v.splice(s..e, t.bytes());
                }
            }
            _ => {}
        }
    }
    v
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn fuzz_text(name: &str, default_cases: u32, seed: u64, check: impl Fn(&str)) {
    let original = std::fs::read(common::root().join(name)).unwrap();
    let mut runner = runner(default_cases, seed);
    runner
        .run(&edits(), |e| {
            check(&text(&apply(&original, &e)));
            Ok(())
        })
        .unwrap();
}

#[test]
fn mutated_tables_load_or_say_why_and_loaded_ones_survive_the_geometry() {
    for (i, name) in ["samples/skirmish.json", "samples/woods-block.json", "samples/pro-patria-charge.json"]
        .into_iter()
        .enumerate()
    {
        fuzz_text(name, 300, 1805 + i as u64, |t| {
            if let Ok(table) = Table::parse(t, "fuzz.json") {
                let index = SpatialIndex::new(&table);
                let _ = TerrainSight::try_new(&index);
                let _ = table.rule_book();
            }
        });
    }
}

#[test]
fn mutated_profiles_rosters_and_camera_files_load_or_say_why() {
    fuzz_text("calibration/default.toml", 400, 7, |t| {
        let _ = Profile::from_toml_str(t, "fuzz.toml");
    });
    fuzz_text("samples/photos/battle.roster.toml", 200, 8, |t| {
        let _ = Roster::from_toml_str(t, "fuzz.toml");
    });
    let dir = tempfile::tempdir().unwrap();
    let camera = dir.path().join("camera.toml");
    fuzz_text("samples/photos/camera.toml", 300, 9, |t| {
        std::fs::write(&camera, t).unwrap();
        let _ = Intrinsics::load(&camera);
    });
}

#[test]
fn mutated_photos_decode_or_say_why() {
    // A small real JPEG and PNG (decoding a 12 MP photo per case would be slow).
    let dir = tempfile::tempdir().unwrap();
    let small = image::open(common::root().join("samples/photos/skirmish.jpg")).unwrap().thumbnail(320, 240);
    let mut jpeg = Vec::new();
    small.write_to(&mut std::io::Cursor::new(&mut jpeg), image::ImageFormat::Jpeg).unwrap();
    let mut png = Vec::new();
    small.write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png).unwrap();
    for (k, original) in [jpeg, png].into_iter().enumerate() {
        let path = dir.path().join(format!("photo{k}"));
        let mut runner = runner(150, 11 + k as u64);
        runner
            .run(&edits(), |e| {
                let bytes = apply(&original, &e);
                let _ = check_image(&bytes);
                std::fs::write(&path, &bytes).unwrap();
                if let Ok(p) = Photo::load(&path) {
                    let (w, h) = p.size().unwrap();
                    prop_assert!(u64::from(w) * u64::from(h) <= vedette_vision::MAX_PIXELS);
                }
                Ok(())
            })
            .unwrap();
    }
}
