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
//!   [`Polygon`] (with holes), [`HalfPlane`]; the convex queries ([`convex`]: distance,
//!   containment, hull, area, shrinking), one file each, checked against `geo`.
//! - Bases: [`Base`] = [`BaseSize`] + [`Pose`]; corners, edges, containment, overlap
//!   ([`Base::separation`], the separating-axis test) and the exact closest points
//!   between two bases ([`Base::closest_points`]).
//! - The one cone construction: [`FrontageCone`], for arcs of fire, firing zones,
//!   enfilade zones, assault zones and corridors.
//! - Units: [`front_bases_of`], [`Unit::face`], [`closest_between`],
//!   [`closest_between_selections`]; a measurement between two selections with the
//!   nearest rule distances ([`measure_between`]).
//! - The table model: [`Table`] with [`Unit`], [`Marker`], [`TerrainFeature`]; loading
//!   and validation with errors that name the unit and field ([`GeometryError`]).
//! - Rule sets as data: [`RuleSet`], [`RuleDistance`], [`RuleAngle`], [`RuleBook`].
//! - Spatial queries: [`SpatialIndex`] (R*-tree, bulk loaded) and the brute-force
//!   oracle [`index::brute`].
//! - Exact sight past blockers: [`sight`] (the kernel: blockers, a clear sight segment,
//!   full visibility, the sight hull).
//! - Line of sight models: [`los`] holds the [`LineOfSight`] trait, [`UnitsOnly`]
//!   (units, no terrain; [`blocks`], [`blocks_at_levels`]) and [`los::TerrainSight`],
//!   the terrain-aware model with explanations (terrain sight properties, hill levels,
//!   601 blind zones, per-rule-set sight rules).
//! - Artillery (000 §4.2-4.5): [`artillery`] holds one file per construction:
//!   frontage ([`battery_frontage`]), the arc of fire ([`ArcOfFire`]), the firing zone
//!   and its clear swings ([`FiringZone`], [`clear_swings`]), ranges and brackets
//!   ([`range_bracket`]), targets and the main target ([`assess_targets`]), secondary
//!   targets, deep targets ([`deep_target`]), enfilade ([`enfilade`]), unlimber limits
//!   ([`unlimber_check`]); [`assess_artillery`] runs them all over a table.
//! - Invariance helpers: [`RigidMotion`].
//! - Tie rules, all in one place: [`ties`].
//! - Assault ([`assault`], Republique family): zones ([`AssaultZone`]), contacts with
//!   contact face and primary defender ([`assault_contacts`]), flank line and rear zone
//!   ([`FlankGeometry`]), aspect with the rule sets' exceptions ([`aspect_of`]),
//!   outnumbering inputs ([`BaseCounting`], [`unopposed_overlap`]), cover
//!   ([`base_cover`], [`unit_cover`]), classic facing arc ([`FacingArc`],
//!   [`classic_contacts`]); [`assaults`] for a whole table.
//! - Command and movement ([`command`]): deployment areas as polygons
//!   ([`division_area`], [`corps_area`]), leaders ([`commanded_units`],
//!   [`rally_penalty`]), divisions within reach of each other and of the enemy
//!   ([`division_gaps`]), the cavalry reaction zone ([`reaction_zone`]), pass-through
//!   zones ([`pass_through`]).
//! - Movement ([`movement`], 000 §3.1-3.7, 003 303 and 305, 004 §17.4): a unit's path
//!   between two tables as the rules measure it, swept exactly over the terrain
//!   ([`movement::sweep`]), and what it costs part by part ([`movement::ground`]): rough
//!   ground, wheeled transport, packed batteries, obstacles' losses, roads, impassable
//!   ground, the maneuver system and formation changes; Pro Patria wheels, forced marches
//!   and charges ([`movement::assess_move`]).
//! - Republic's table measures: alert zones and bluff reach ([`republic`], 003 201, 301),
//!   road columns (303).
//! - Skirmish marker legality: [`check_skirmishers`]; skirmish fire, targets and blocks
//!   (000 §4.1): [`skirmish_fire`]; both for a table under its rule set:
//!   [`assess_skirmishers`].
//! - Pro Patria! ([`pro_patria`]): firing arcs, edge contact and no-approach, the
//!   endangered corridor, command radius, bombardment box, charge impulses and catches,
//!   forced marches.
//! - Terrain properties (000 §3.6): [`TerrainKind::properties`], [`CoverClass`],
//!   [`Mover`], the low obstacles ([`TerrainKind::is_low_obstacle`]).

#![deny(missing_docs)]

pub mod artillery;
pub mod assault;
mod base;
mod buffer;
pub mod close_call;
pub mod command;
mod cone;
pub mod convex;
mod error;
mod frame;
pub mod index;
pub mod los;
mod measurement;
pub mod movement;
mod number;
mod polygon;
pub mod pro_patria;
pub mod republic;
mod ring_index;
pub mod rules;
mod scale;
mod segment;
pub mod sight;
mod skirmish_assessment;
mod skirmish_fire;
mod skirmishers;
mod table;
mod terrain;
#[cfg(test)]
pub(crate) mod test_support;
pub mod ties;
mod transform;
mod unit_structure;
mod vec2;

pub use artillery::{
    ARC_POLYGON_SAGITTA_MM, AllOpen, ArcOfFire, ArtilleryRules, BRACKET_TIE_MM, Battery, BatteryAssessment,
    BatteryFrontage, Battlefield, ClearSwings, DeepReason, DeepTarget, EnfiladeVerdict, FiringZone,
    FrontageSource, HALF_BASE_TOLERANCE, MainTarget, OpenGround, POINT_BLANK_BRACKETS, SecondaryTargets,
    StandingExposure, SwingInterval, TargetAssessment, TargetClass, TerrainOutlines, UnlimberCheck,
    ZONE_CONTACT_AREA_MM2, ZoneObstacle, ZoneObstacleSource, aim_at, assess_artillery, assess_battery,
    assess_targets, batteries, battery_frontage, blocked_swings, bracket_far_edge_mm, centre_of_fire_swings,
    clear_swings, crowding_bases, deep_target, deep_window_end, enfilade, enfilade_zone, frontage_edge,
    is_packed_marker, main_target, main_target_order, nearest_flanks, range_bracket, range_to_base_mm,
    ray_parameter_at_range, secondary_targets, segment_to_convex_mm, side_strips, unlimber_check,
    within_max_range, zone_obstacles,
};
pub use assault::aspect::{
    Aspect, AspectException, AttackAspect, DefenderStanding, FlankExceptions, aspect_of, is_in_square,
};
pub use assault::classic::{ClassicContact, ClassicContactKind, FacingArc, classic_contacts};
pub use assault::contact::{Contact, DefenderRole, Sighting, assault_contacts, sightings};
pub use assault::cover::{
    CoverShare, CoverVerdict, base_cover, behind, fraction_in_cover, in_buildings, unit_cover,
};
pub use assault::flank::FlankGeometry;
pub use assault::outnumbering::{BaseCounting, Overlap, unopposed_overlap};
pub use assault::zone::{AssaultRange, AssaultZone};
pub use assault::{Assault, AssaultDetail, AssaultGroup, assaults, counting_of, groups};
pub use base::{Base, BaseMeta, BaseSize, BaseSpec, CONTACT_TOLERANCE_MM, Corners, Facing, Found, Pose};
pub use command::deployment::{
    ARC_EXCESS_MM, AreaOwner, DeploymentArea, corps_area, division_area, primary_units,
};
pub use command::divisions::{
    DivisionGap, division_gaps, nearest_enemies_of_divisions, nearest_enemy_of_divisions,
};
pub use command::leaders::{
    LeaderScope, commanded_units, corps_leader, corps_leader_distance_mm, division_and_corps_leaders,
    division_leader, rally_penalty, rally_step_boundary_mm, unit_distance_mm, units_within_reach,
};
pub use command::pass_through::{pass_through, pass_through_reach_mm, pass_through_within};
pub use command::reaction::{front_cone, reaction_zone, reaction_zone_sighted, reaction_zone_within};
pub use cone::FrontageCone;
pub use convex::signed_area;
pub use error::GeometryError;
pub use frame::{FlankSide, UnitBox, UnitFrame};
pub use index::{BasePair, Neighbour, SpatialIndex};
pub use los::{LineOfSight, UnitLevels, UnitsOnly, blocks, blocks_at_levels};
pub use measurement::{Measurement, Threshold, measure_between};
pub use number::{Shown, clipped};
pub use polygon::{ConvexPolygon, HalfPlane, Polygon, ring_contains};
pub use rules::{
    AngleEntry, ArtilleryWeight, DistanceEntry, Measure, RuleAngle, RuleBook, RuleDistance, RuleSet, Source,
};
pub use scale::{MM_PER_INCH, Scale, inches_to_mm, mm_to_inches};
pub use segment::{ClosestPoints, Segment};
pub use skirmish_assessment::{SkirmisherAssessment, assess_skirmishers, has_skirmish_markers};
pub use skirmish_fire::{SkirmishFire, skirmish_fire};
pub use skirmishers::{MarkerCheck, Spacing, check_skirmishers};
pub use table::{
    ArtilleryOptions, BaseRef, Formation, FrontageMode, LeaderRole, MARKER_CUBE_MM, MAX_COORDINATE_MM,
    MAX_HEADING_DEG, MAX_OUTLINE_POINTS, MAX_SIZE_MM, MAX_TERRAIN_FEATURES, MAX_TERRAIN_POINTS,
    ManeuverSystem, Marker, MarkerColour, MarkerKind, SCHEMA_ID, Selection, SideSettings, Table, TableSize,
    Unit, UnitKind,
};
pub use terrain::{
    AssaultMove, CoverClass, CoverPosition, CrossingLoss, Impassable, MovementCost, Mover, TerrainFeature,
    TerrainKind, TerrainProperties,
};
pub use transform::RigidMotion;
pub use unit_structure::{
    SelectionClosest, UnitClosest, closest_between, closest_between_selections, front_bases_of,
    is_directly_ahead,
};
pub use vec2::Vec2;
