//! The two binaries (issue 20: "the OpenCV libraries should not slow verbs that do not
//! use them"): `vedette` never links OpenCV, whose core library alone, with what it
//! brings (BLAS, LAPACK, X11, ...), adds about 4 ms to the start of every process; the
//! photo verbs run in `vedette-scanner`, built beside it, to which `vedette` hands them.

use std::process::Command;

/// True when `needle` occurs in `hay`.
fn contains(hay: &[u8], needle: &[u8]) -> bool {
    hay.windows(needle.len()).any(|w| w == needle)
}

#[test]
fn vedette_names_no_opencv_library_and_the_scanner_does() {
    // A shared library a binary needs is named in its dynamic section's strings.
    let vedette = std::fs::read(env!("CARGO_BIN_EXE_vedette")).expect("the vedette binary");
    assert!(!contains(&vedette, b"libopencv"), "vedette links an OpenCV library");
    let scanner = std::fs::read(env!("CARGO_BIN_EXE_vedette-scanner")).expect("the scanner binary");
    assert!(contains(&scanner, b"libopencv_core"), "vedette-scanner does not link OpenCV");
}

#[test]
fn vedette_hands_the_photo_verbs_to_the_scanner() {
    // `fiducials` of a missing photo fails in the scanner, with the scanner's message.
    let out = Command::new(env!("CARGO_BIN_EXE_vedette"))
        .args(["fiducials", "no-such-photo.jpg"])
        .output()
        .expect("vedette runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("no-such-photo.jpg"), "{err}");
    assert!(!err.contains("not beside this binary"), "{err}");
}

/// `cargo build --bin vedette` alone leaves an old scanner beside a new `vedette`: the
/// scanner refuses a caller of another build (its id a hash of the sources, `build.rs`)
/// instead of scanning with old code, and says how to mend it.
#[test]
fn the_scanner_refuses_a_vedette_of_other_sources() {
    let out = Command::new(env!("CARGO_BIN_EXE_vedette-scanner"))
        .args(["fiducials", "no-such-photo.jpg"])
        .env(vedette::cli::BUILD_ID_ENV, "0123456789abcdef")
        .output()
        .expect("the scanner runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("built from other sources than the vedette that called it"), "{err}");
    assert!(err.contains("rebuild both"), "{err}");
    assert!(!err.contains("no-such-photo.jpg"), "refused before the verb ran: {err}");
    // Its own build's id, as vedette passes it, runs the verb.
    let ours = include_str!(concat!(env!("OUT_DIR"), "/build_id"));
    assert_eq!(ours.len(), 16);
    let out = Command::new(env!("CARGO_BIN_EXE_vedette-scanner"))
        .args(["fiducials", "no-such-photo.jpg"])
        .env(vedette::cli::BUILD_ID_ENV, ours)
        .output()
        .expect("the scanner runs");
    assert!(String::from_utf8_lossy(&out.stderr).contains("no-such-photo.jpg"));
}
