//! Fixture helpers shared by the end-to-end tests: paths from CARGO_MANIFEST_DIR (never
//! the working directory) and a runner for the real `vedette` binary.
#![allow(dead_code)]

pub mod clutter;
pub mod surface;
pub mod svg;
pub mod truth;

use std::path::PathBuf;
use std::process::{Command, Output};

/// The repository root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A file under `samples/`.
pub fn sample(name: &str) -> PathBuf {
    root().join("samples").join(name)
}

/// Runs the `vedette` binary built for these tests.
pub fn vedette(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_vedette"))
        .args(args)
        .current_dir(root())
        .output()
        .unwrap_or_else(|e| panic!("cannot run vedette: {e}"))
}

/// Stdout as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Stderr as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// True when REGENERATE=1: golden files are rewritten instead of compared.
pub fn regenerate() -> bool {
    std::env::var("REGENERATE").is_ok_and(|v| v == "1")
}

/// Compares `actual` with the committed golden file, or rewrites it under REGENERATE=1.
pub fn golden(path: &std::path::Path, actual: &str) {
    if regenerate() {
        std::fs::write(path, actual).unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
        return;
    }
    let expected =
        std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    assert!(
        expected == actual,
        "{} differs from what the code produces; if the change is intended, run with REGENERATE=1 and review the diff",
        path.display()
    );
}
