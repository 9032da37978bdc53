//! The tests of the CLI's verbs, their pictures and outputs, and `vedette serve`, as one
//! test binary: each file a module named as the file (`cargo test --test cli serve::`
//! runs one file's tests). One binary instead of one per file: each of them compiled
//! `tests/common` again and was linked against OpenCV and the workspace on its own,
//! which made most of the suite's build (BENCHMARKS.md, "The test suite"). A new
//! `tests/*.rs` file still runs as a binary of its own until it is moved here (the
//! scanner's go to `tests/scan/`).

#[path = "../common/mod.rs"]
mod common;
/// The `vedette serve` tests' client (`serve*`).
#[path = "../common/server.rs"]
mod server;

mod binaries;
mod captions;
mod check_sheet;
mod close_calls;
mod close_calls_sight_zone;
mod drawing;
mod drawing_limits;
mod fuzz_inputs;
mod getting_started;
mod hardening;
mod inches_and_pairs;
mod los;
mod measure;
mod move_verb;
mod outputs;
mod pictures_readable;
mod pro_patria_bombardment;
mod pro_patria_bounce;
mod pro_patria_crests;
mod progress;
mod report_artillery;
mod report_assaults;
mod report_movement;
mod report_noise;
mod schemas;
mod serve;
mod serve_access;
mod serve_limits;
mod serve_page;
mod table_frame;
mod table_validation;
mod terrain_limits;
mod verb_kinds;
