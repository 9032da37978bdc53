//! Terrain and line of sight (issue 6): what each terrain kind does to sight, ground
//! levels from hill contours, blind zones, each rule set's sight rules, and the
//! terrain-aware [`TerrainSight`] model behind the [`crate::LineOfSight`] trait, with an
//! [`Explanation`] for every verdict.
//!
//! - [`sight_properties`] (000 §3.6 spotting depths from the terrain table in
//!   [`crate::TerrainKind::properties`], 003 601 heights, 004 Pro Patria cover classes).
//! - [`Ground`]: hill contours, the level of a point and of a base.
//! - [`BlindZone`]: the 003 601 chart, as a fraction of the sight line.
//! - [`SightRules`]: per rule set, [`Eye`], [`FieldOfView`], [`CoverVisibility`],
//!   [`UnitScreening`], maximum visibility.
//! - [`TerrainSight`]: verdicts for bases ([`BaseVerdict`]) and units ([`UnitVerdict`]),
//!   exact over blockers and bounded ([`Sampling`], [`Method`]) where limits decide,
//!   with exact shortcuts first ([`Proof`]): an occlusion sweep per spotter, chains of
//!   solid blockers across the corridor between eye and target, and spotting-depth
//!   bounds from the cover's outline.

mod blind_zone;
pub mod close_calls;
mod corridor;
mod crew;
mod explanation;
mod hills;
mod occlusion;
mod sight_rules;
mod solid_block;
mod spotting_depth;
mod terrain_model;
mod terrain_sight;

pub use blind_zone::{BlindZone, chart_multiple, extra_depth_factor};
pub use explanation::{Cut, CutBy, Explanation, SightLine, TerrainRule};
pub use hills::{Contour, Ground};
pub use sight_rules::{CoverVisibility, Eye, FieldOfView, HIGH_HILL_LEVEL, SightRules, UnitScreening};
pub use terrain_model::{BaseVerdict, Method, Proof, Sampling, TerrainSight, UnitVerdict};
pub use terrain_sight::{CoverDensity, HALF_LEVEL, SightEffect, SightProperties, sight_properties};

/// The representative of `i` in a union-find forest (`parent[i] == i` at a root), with
/// path halving; shared by the grouping of touching pieces and of gridded bases.
pub(super) fn union_root(parent: &mut [usize], mut i: usize) -> usize {
    while parent[i] != i {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    i
}
