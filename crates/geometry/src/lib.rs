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
//!   the [`LineOfSight`] model of who blocks whom ([`UnitsOnly`]: units, no terrain).
//! - Artillery (000 §4.2-4.5): [`artillery`] holds one file per construction:
//!   frontage ([`battery_frontage`]), the arc of fire ([`ArcOfFire`]), the firing zone
//!   and its clear swings ([`FiringZone`], [`clear_swings`]), ranges and brackets
//!   ([`range_bracket`]), targets and the main target ([`assess_targets`]), secondary
//!   targets, deep targets ([`deep_target`]), enfilade ([`enfilade`]), unlimber limits
//!   ([`unlimber_check`]); [`assess_artillery`] runs them all over a table.
//! - Invariance helpers: [`RigidMotion`].

#![deny(missing_docs)]

pub mod artillery;
mod base;
mod cone;
mod error;
pub mod index;
mod line_of_sight;
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

pub use artillery::{
    ARC_POLYGON_SAGITTA_MM, AllOpen, ArcOfFire, ArtilleryRules, BRACKET_TIE_MM, Battery, BatteryAssessment,
    BatteryFrontage, Battlefield, ClearSwings, DeepReason, DeepTarget, EnfiladeVerdict, FiringZone, Flank,
    FrontageSource, HALF_BASE_TOLERANCE, MainTarget, OpenGround, POINT_BLANK_BRACKETS, SecondaryTargets,
    StandingExposure, SwingInterval, TargetAssessment, TargetClass, TerrainOutlines, UnitFrame,
    UnlimberCheck, ZONE_CONTACT_AREA_MM2, ZoneObstacle, ZoneObstacleSource, aim_at, assess_artillery,
    assess_battery, assess_targets, batteries, battery_frontage, blocked_swings, bracket_far_edge_mm,
    centre_of_fire_swings, clear_swings, crowding_bases, deep_target, deep_window_end, enfilade,
    enfilade_zone, frontage_edge, is_packed_marker, main_target, main_target_order, nearest_flanks,
    range_bracket, range_to_base_mm, ray_parameter_at_range, secondary_targets, segment_to_convex_mm,
    side_strips, unlimber_check, within_max_range, zone_obstacles,
};
pub use base::{Base, BaseMeta, BaseSize, BaseSpec, CONTACT_TOLERANCE_MM, Corners, Pose};
pub use cone::FrontageCone;
pub use error::GeometryError;
pub use index::{BasePair, Neighbour, SpatialIndex};
pub use line_of_sight::{LineOfSight, UnitsOnly, blocks};
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
