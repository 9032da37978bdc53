//! Fixture helpers shared by the end-to-end tests: paths from CARGO_MANIFEST_DIR (never
//! the working directory) and a runner for the real `vedette` binary.
#![allow(dead_code)]

pub mod clutter;
pub mod goldens;
pub mod renders;
pub mod scene;
pub mod surface;
pub mod svg;
#[path = "../../crates/geometry/src/test_support.rs"]
mod test_support;
pub mod truth;
pub mod untagged;
#[allow(unused_imports)] // Not every test uses each helper.
pub use test_support::proptest_config;

#[allow(unused_imports)]
pub use goldens::{golden, golden_json, regenerate};

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
