//! The line-of-sight models (issue 6): who blocks whom, what each terrain kind does to
//! sight, and the models that answer "can this spotter see that target?" on a table.
//! The exact geometry they stand on (blockers, clear sight segments, full visibility)
//! is the kernel in [`crate::sight`].
//!
//! The models:
//! - [`LineOfSight`] (`line_of_sight.rs`): the trait the rule constructions ask.
//! - [`UnitsOnly`] (`units_only.rs`): units as the only blockers; who blocks whom is
//!   [`blocks`] and, with ground levels, [`blocks_at_levels`] (`blocking.rs`).
//! - [`TerrainSight`] (`terrain_model/`): units, terrain, levels and each rule set's
//!   limits; verdicts for bases ([`BaseVerdict`]) and units ([`UnitVerdict`]), exact over
//!   blockers and bounded ([`Sampling`], [`Method`]) where limits decide, with exact
//!   shortcuts first ([`Proof`]). One file per stage: `prepared.rs` (the terrain's part,
//!   [`PreparedTerrain`], once for every table with that terrain), `build.rs` (the model
//!   from the table and its prepared terrain), `sweep_cache.rs` (what the occlusion sweep needs, once per table),
//!   `pairs.rs` (what lies between one spotter base and one target base), `limits.rs`
//!   (blind zones, spotting depths, visibility), `search.rs` (the bounded search),
//!   `full_base.rs` (the full-base decision), `batch.rs` (many pairs over the cores),
//!   `views.rs` (one spotter, many targets), `explain.rs` (the [`Explanation`]).
//!
//! What the terrain model uses:
//! - [`sight_properties`] (000 §3.6 spotting depths from the terrain table in
//!   [`crate::TerrainKind::properties`], 003 601 heights, 004 Pro Patria cover classes).
//! - [`Ground`]: hill contours, the level of a point and of a base.
//! - [`BlindZone`]: the 003 601 chart, as a fraction of the sight line, and the zone on
//!   one sight line ([`blind_zone_on_line`]).
//! - [`spotting_depth_zones`] (`spotting_zone.rs`): the part of each cover deeper than
//!   its spotting depth, hidden from every spotter outside it (000 §3.6), as drawn.
//! - [`SightRules`]: per rule set, [`Eye`], [`FieldOfView`], [`CoverVisibility`],
//!   [`UnitScreening`], maximum visibility.
//! - Its exact shortcuts: the occlusion sweep per spotter (`occlusion/`), chains of
//!   solid blocks (`solid_block.rs`) across the sight hull between eye and target
//!   (`chain.rs`), and spotting-depth bounds from the cover's outline
//!   (`spotting_depth.rs`).
//!
//! Close calls of sight verdicts (issue 17): [`close_calls`] (`vedette los`) and
//! [`local_calls`] (the report's) bisect each verdict on the verdict's local table
//! (`local_table.rs`, reaching [`LOCAL_REACH_MM`]), its terrain prepared once
//! ([`PreparedTerrain`]).

mod blind_zone;
mod blocking;
mod chain;
pub mod close_calls;
pub(crate) mod crew;
mod explanation;
mod hills;
mod line_of_sight;
pub mod local_calls;
mod local_table;
mod occlusion;
mod sight_rules;
mod solid_block;
mod spotting_depth;
mod spotting_zone;
mod terrain_model;
mod terrain_sight;
mod units_only;

pub use blind_zone::{BlindZone, blind_zone_on_line, chart_multiple, extra_depth_factor};
pub use blocking::{UnitLevels, blocks, blocks_at_levels};
pub use explanation::{Cut, CutBy, Explanation, SightLine, TerrainRule};
pub use hills::{Contour, Ground};
pub use line_of_sight::LineOfSight;
pub use local_table::LOCAL_REACH_MM;
pub use sight_rules::{
    CoverVisibility, Eye, FieldOfView, HIGH_HILL_LEVEL, HillSight, SightRules, UnitScreening,
};
pub use spotting_zone::{CORNER_EXCESS_MM, SpottingDepthZone, deeper_than, spotting_depth_zones};
pub use terrain_model::{BaseVerdict, Method, PreparedTerrain, Proof, Sampling, TerrainSight, UnitVerdict};
pub use terrain_sight::{CoverDensity, HALF_LEVEL, SightEffect, SightProperties, sight_properties};
pub use units_only::UnitsOnly;

/// The representative of `i` in a union-find forest (`parent[i] == i` at a root), with
/// path halving; shared by the grouping of touching pieces and of gridded bases.
pub(super) fn union_root(parent: &mut [usize], mut i: usize) -> usize {
    while parent[i] != i {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    i
}
