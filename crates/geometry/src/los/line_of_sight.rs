//! Line of sight between units: which bases block whom, as a [`LineOfSight`] model the
//! rule constructions ask ("can this battery see a full base of that unit?").
//!
//! [`UnitsOnly`](super::UnitsOnly) is the model without terrain: units block according
//! to 000 §4.1-4.2 and §4.5 ([`blocks`](super::blocks)).
//! Terrain (woods, buildings, spotting depth, hills) comes from a model that adds to it
//! through the same trait ([`TerrainSight`](super::TerrainSight)), so the artillery and
//! skirmish code never needs to know which model answers.

use crate::sight::FullVisibility;
use crate::table::{BaseRef, Table};
use crate::vec2::Vec2;

/// A model of line of sight on a table.
pub trait LineOfSight {
    /// Whether every point of base `target` can be seen from some point of `eye` (the
    /// spotter's front edge, or its whole outline: convex, counter-clockwise) belonging
    /// to unit `spotter`.
    fn full_base_visible(
        &self,
        table: &Table,
        spotter: usize,
        eye: &[Vec2],
        target: BaseRef,
    ) -> FullVisibility;
}
