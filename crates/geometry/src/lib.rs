//! # vedette-geometry
//!
//! Exact rule geometry for grand-tactical miniature wargames (Republique 5.0, classic
//! Republique, Republic, Pro Patria!), with no vision dependencies. Everything is f64
//! millimetres in the table frame (x along the long edge, y away from the near edge,
//! origin at the near-left corner; headings in degrees counter-clockwise from +x).
//! Inches, scales and rule sets appear only through a [`RuleBook`].
//!
//! ## What it offers
//! - Primitives: [`Vec2`], [`Segment`] (with [`ClosestPoints`]), [`ConvexPolygon`],
//!   [`Polygon`] (with holes), [`HalfPlane`].
//! - Bases: [`Base`] = [`BaseSize`] + [`Pose`]; corners, edges, containment, overlap
//!   ([`Base::separation`], the separating-axis test) and the exact closest points
//!   between two bases ([`Base::closest_points`]).
//! - The one cone construction: [`FrontageCone`], for arcs of fire, firing zones,
//!   enfilade zones, assault zones and corridors.
//! - Units: [`front_bases_of`], [`Unit::face`], [`closest_between`].
//! - The table model: [`Table`] with [`Unit`], [`Marker`], [`TerrainFeature`]; loading
//!   and validation with errors that name the unit and field ([`GeometryError`]).
//! - Rule sets as data: [`RuleSet`], [`RuleDistance`], [`RuleAngle`], [`RuleBook`].
//! - Spatial queries: [`SpatialIndex`] (R*-tree, bulk loaded) and the brute-force
//!   oracle [`index::brute`].
//! - Exact sight past blockers: [`sight`] (a clear sight segment; full visibility), and
//!   the [`LineOfSight`] model of who blocks whom ([`UnitsOnly`]: units, no terrain;
//!   [`blocks`], [`blocks_at_levels`]).
//! - Terrain and line of sight: [`los`] (terrain sight properties, hill levels, 601
//!   blind zones, per-rule-set sight rules, and [`los::TerrainSight`], the terrain-aware
//!   [`LineOfSight`] model with explanations).
//! - Invariance helpers: [`RigidMotion`].

#![deny(missing_docs)]

mod base;
mod cone;
mod error;
pub mod index;
mod line_of_sight;
pub mod los;
mod polygon;
pub mod rules;
mod scale;
mod segment;
pub mod sight;
mod table;
mod terrain;
mod transform;
mod unit_structure;
mod vec2;

pub use base::{Base, BaseMeta, BaseSize, BaseSpec, CONTACT_TOLERANCE_MM, Corners, Pose};
pub use cone::FrontageCone;
pub use error::GeometryError;
pub use index::{BasePair, Neighbour, SpatialIndex};
pub use line_of_sight::{LineOfSight, UnitLevels, UnitsOnly, blocks, blocks_at_levels};
pub use polygon::{ConvexPolygon, HalfPlane, Polygon, ring_contains, signed_area};
pub use rules::{
    AngleEntry, ArtilleryWeight, DistanceEntry, Measure, RuleAngle, RuleBook, RuleDistance, RuleSet, Source,
};
pub use scale::{MM_PER_INCH, Scale, inches_to_mm, mm_to_inches};
pub use segment::{ClosestPoints, Segment};
pub use table::{
    ArtilleryOptions, BaseRef, Formation, FrontageMode, LeaderRole, MARKER_CUBE_MM, ManeuverSystem, Marker,
    MarkerColour, MarkerKind, SCHEMA_ID, Selection, SideSettings, Table, TableSize, Unit, UnitKind,
};
pub use terrain::{TerrainFeature, TerrainKind};
pub use transform::RigidMotion;
pub use unit_structure::{UnitClosest, closest_between, front_bases_of, is_directly_ahead};
pub use vec2::Vec2;
