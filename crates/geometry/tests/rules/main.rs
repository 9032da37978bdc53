//! The geometry crate's scenario and property tests on hand-worked tables, as one test
//! binary: each file a module named as the file (`cargo test -p vedette-geometry --test
//! rules properties::` runs one file's tests). One binary instead of one per file, each
//! linked on its own (BENCHMARKS.md, "The test suite"). A new `tests/*.rs` file still
//! runs as a binary of its own until it is moved here.

#[path = "../common/mod.rs"]
mod common;

mod artillery_properties;
mod artillery_scenarios;
mod artillery_target_cover;
mod assault;
mod assault_properties;
mod command;
mod line_of_sight_scenes;
mod low_obstacles;
mod movement;
mod pro_patria;
mod pro_patria_crest_sight;
mod properties;
mod republic;
mod scanned_verdicts;
mod sight_properties;
mod sight_shortcut_properties;
mod table_assessments;
mod terrain_sight_properties;
