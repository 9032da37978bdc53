//! Convex queries, one file per query (as parry keeps its queries), written once and
//! used by every construction that needs them; each is checked against `geo` in the
//! property tests beside it (`tests.rs`).
//!
//! Convex shapes are vertex lists, counter-clockwise; one vertex is a point and two are
//! a segment (what clipping leaves of a base that only touches a zone).
//! [`crate::ConvexPolygon`] wraps the same lists.
//!
//! - `area.rs`: [`signed_area`] of a ring (any simple ring, not only convex ones).
//! - `bounds.rs`: the axis-aligned box of points, and whether two boxes meet.
//! - `containment.rs`: [`contains`] (closed: the boundary counts, no tolerance), and
//!   [`Containment`], the named choice between that and a tolerance.
//! - `distance.rs`: [`point_distance_2`], [`segment_distance_mm`], [`distance_mm`],
//!   [`closest_points`].
//! - `hull.rs`: the convex hull ([`crate::ConvexPolygon::hull`]).
//! - `intersection.rs`: where a segment or a polygon meets a convex polygon
//!   ([`segment_inside`], [`segment_meets`], [`polygons_meet`]).
//! - `shrink.rs`: half-planes moved in or out ([`inset`], [`outset`]) and a convex
//!   polygon shrunk or grown by a distance ([`shrink`], [`offset`]).
//!
//! # Units
//! Millimetres (areas mm², squared distances mm² and named so).

mod area;
mod bounds;
mod containment;
mod distance;
mod hull;
mod intersection;
mod shrink;
#[cfg(test)]
mod tests;

pub use area::signed_area;
pub(crate) use bounds::{bases_box, bbox, boxes_meet};
pub use containment::{Containment, contains};
pub use distance::{closest_points, distance_mm, point_distance_2, segment_distance_mm};
pub(crate) use distance::{edge_distance_2, edges as edges_of};
pub(crate) use hull::{HullPoints, hull_points, hull_small};
pub(crate) use intersection::line_in_convex;
pub use intersection::{polygons_meet, segment_inside, segment_meets};
pub use shrink::{inset, offset, outset, shrink};
