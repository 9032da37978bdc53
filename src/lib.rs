//! # vedette
//!
//! The command-line tool over [`vedette_geometry`]: each verb of `vedette` is a module
//! of [`commands`], and [`cli`] ties them together. The library half exists so that the
//! end-to-end tests and the benches can call the same code the binary runs.
//!
//! - [`cli`]: argument parsing and the exit-code policy.
//! - [`commands`]: one module per verb (`measure`, `generate`, ...).
//! - [`generate`]: the seeded generator of sample battles.
//! - [`output`]: writing output files atomically (never a half-written file).
//! - [`error`]: the crate's error type.

#![deny(missing_docs)]

pub mod cli;
pub mod commands;
pub mod error;
pub mod generate;
pub mod output;
pub mod progress;

pub use error::CliError;
