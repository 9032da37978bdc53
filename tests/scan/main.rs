//! The photo scanner's scenario tests (`scan_*`, `untagged_*`, `photo_*`) as one test
//! binary: each file a module named as the file (`cargo test --test scan scan_untagged::`
//! runs one file's tests). One binary instead of one per file: each of them compiled
//! `tests/common` again and was linked against OpenCV and the workspace on its own,
//! which made most of the suite's build (BENCHMARKS.md, "The test suite"). A new
//! `tests/scan_*.rs` file still runs as a binary of its own until it is moved here.

#[path = "../common/mod.rs"]
mod common;

mod photo_diagnosis;
mod photo_refusals;
mod scan_background;
mod scan_clutter;
mod scan_corrections;
mod scan_errors;
mod scan_hidden_tags;
mod scan_overlay_held;
mod scan_samples;
mod scan_selfcal;
mod scan_shared_renders;
mod scan_surface;
mod scan_tags_not_read;
mod scan_terrain_layer;
mod scan_two_photos;
mod scan_untagged;
mod untagged_assign;
mod untagged_company;
mod untagged_facing;
mod untagged_said;
mod untagged_sample;
mod untagged_waists;
