//! Exact sight between convex shapes past polygonal blockers.
//!
//! The rules ask two questions: can any part of the spotter see any part of the target
//! (a sight line exists), and can every point of the target be seen from some part of
//! the spotter (the full base is visible). Both are answered exactly, not by sampling:
//!
//! - A clear sight segment, if one exists, can be slid and turned until its line passes
//!   through two "event points" (spotter and target corners, and blocker corners it
//!   grazes), so [`clear_sight_segment`] tries exactly those lines.
//! - Whether a target point is visible can change only across a line through a spotter
//!   corner and a blocker corner, or through two blocker corners, that grazes the
//!   blockers there; [`full_visibility`] cuts the target along those lines and tests
//!   one point inside each piece.
//!
//! # Tie rule
//! Blockers are open sets: a sight line that grazes a corner or runs along an edge is
//! **clear**; one that passes through the interior of the union of blockers is blocked,
//! including along the seam between two touching bases. "Grazing" is decided within
//! [`GRAZE_TOLERANCE_MM`]. Linear obstacles (walls, hedges) are bands
//! [`LINE_HALF_WIDTH_MM`] to each side of their path ([`Blocker::from_path`]): crossing
//! the line blocks, touching its end is grazing. The same rule holds in the terrain
//! model ([`crate::los`]): every distance limit there (spotting depth, blind zone end,
//! maximum visibility) is inclusive, so a target exactly at the limit is seen.
//!
//! # Units
//! Millimetres in the table frame.
//!
//! # Where each part lives
//! - `blocker.rs`: [`Blocker`], the open polygon a sight line may not pass through.
//! - `obstruction.rs`: one segment against the blockers ([`first_obstruction`],
//!   [`segment_is_clear`]).
//! - `sight_hull.rs`: the sight hull of an eye and a target (their convex hull), which
//!   leaves out the blockers no sight segment can meet.
//! - `outline.rs`, `local_blocker.rs`: chords of convex shapes, and blockers prepared
//!   for the segments of one eye and one target (used by [`crate::los`]).
//! - `segment_search.rs`: [`clear_sight_segment`], [`point_sight_segment`].
//! - `full_visibility.rs`: [`full_visibility`] ([`FullVisibility`]).

mod blocker;
mod full_visibility;
mod local_blocker;
mod obstruction;
mod outline;
mod segment_search;
mod sight_hull;
#[cfg(test)]
mod tests;

pub use blocker::Blocker;
pub use full_visibility::{FullVisibility, full_visibility, full_visibility_among};
pub use obstruction::{Obstruction, first_obstruction, first_obstruction_among, segment_is_clear};
pub use segment_search::{
    clear_sight_segment, clear_sight_segment_among, point_sight_segment, point_sight_segment_among,
};

pub(crate) use full_visibility::clear_of;
pub(crate) use local_blocker::LocalBlocker;
pub(crate) use outline::chord;
pub(crate) use segment_search::{point_is_seen, relative_pseudo_angle};
pub(crate) use sight_hull::SightHull;

/// How deep a sight line may cut into a blocker and still count as grazing it, mm.
pub const GRAZE_TOLERANCE_MM: f64 = 1e-6;

/// Half the width given to a linear obstacle (a path) when it is made a blocker, mm: far
/// below anything measurable, far above [`GRAZE_TOLERANCE_MM`], so a sight line that
/// crosses the line is cut and one that passes its end is not.
pub const LINE_HALF_WIDTH_MM: f64 = 0.01;
