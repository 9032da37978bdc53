//! Artillery geometry for Republique 5.0 (000 §1.4, §3.6, §4.2-4.5; Republic 003 §103):
//! one file per construction, each citing the rule it measures.
//!
//! | question | file | entry point |
//! |---|---|---|
//! | every rule distance and angle used here | `artillery_rules.rs` | [`ArtilleryRules`] |
//! | normal or packed frontage? | `frontage.rs` | [`battery_frontage`] |
//! | the battery and what it reads | `battery.rs` | [`Battery`], [`Battlefield`] |
//! | is half a base in the 60° arc? | `arc_of_fire.rs` | [`ArcOfFire::holds_half_of`] |
//! | range and its 2" bracket | `range.rs` | [`range_bracket`], [`range_to_base_mm`] |
//! | the 10° firing zone, its centre of fire, which swings are clear | `firing_zone.rs` | [`FiringZone`], [`clear_swings`] |
//! | valid targets and the main target | `targets.rs` | [`assess_targets`], [`main_target_order`] |
//! | tandem and adjacent targets | `secondary_targets.rs` | [`secondary_targets`] |
//! | deep target and point blank | `deep.rs` | [`deep_target`] |
//! | a unit's facing and flank edges | `../frame.rs` | [`crate::UnitBox`] |
//! | enfilade, and which flank | `enfilade.rs` | [`enfilade`] |
//! | too close to the enemy to unlimber? | `unlimber.rs` | [`unlimber_check`] |
//! | is the target in cover (column modifier)? | `target_cover.rs` | [`target_cover`] |
//! | is the ground open (deep, tandem)? | `open_ground.rs` | [`OpenGround`] |
//! | all of it for a battery, a table | `assessment.rs` | [`assess_battery`], [`assess_artillery`] |
//! | a table's batteries with cover and close calls, or none under other rules | `table_assessment.rs` | [`assess_table_artillery`] |
//!
//! Every choice the rule text leaves open is named once, in the documentation of the
//! file that makes it (the tie rules, "next to", the aim, which bases block the zone,
//! which ground is open).
//!
//! Line of sight comes only through [`crate::LineOfSight`] and terrain only through
//! [`OpenGround`], so a terrain-aware model replaces [`crate::UnitsOnly`] and
//! [`TerrainOutlines`] without touching this module.

pub(crate) mod arc_of_fire;
pub(crate) mod artillery_rules;
pub(crate) mod assessment;
pub(crate) mod battery;
pub mod calls;
pub(crate) mod deep;
pub(crate) mod enfilade;
pub(crate) mod firing_zone;
pub(crate) mod frontage;
pub(crate) mod open_ground;
pub(crate) mod range;
pub(crate) mod secondary_targets;
pub(crate) mod table_assessment;
pub(crate) mod target_cover;
pub(crate) mod targets;
pub(crate) mod unit_frame;
pub(crate) mod unlimber;
pub(crate) mod zone_bounds;
pub(crate) mod zone_calls;

pub use arc_of_fire::{ARC_POLYGON_SAGITTA_MM, ArcOfFire, HALF_BASE_TOLERANCE};
pub use artillery_rules::ArtilleryRules;
pub use assessment::{BatteryAssessment, MainTarget, assess_artillery, assess_battery};
pub use battery::{Battery, Battlefield, batteries};
pub use deep::{DeepReason, DeepTarget, POINT_BLANK_BRACKETS, deep_target, deep_window_end};
pub use enfilade::{EnfiladeVerdict, StandingExposure, enfilade, enfilade_zone, nearest_flanks};
pub use firing_zone::{
    ClearSwings, FiringZone, SwingInterval, ZONE_CONTACT_AREA_MM2, ZoneObstacle, ZoneObstacleSource,
    blocked_swings, centre_of_fire_swings, clear_swings, zone_obstacles,
};
pub use frontage::{
    BatteryFrontage, FrontageSource, battery_frontage, crowding_bases, frontage_edge, side_strips,
};
pub use open_ground::{AllOpen, OpenGround, TerrainOutlines};
pub use range::{
    BRACKET_TIE_MM, bracket_far_edge_mm, range_bracket, range_to_base_mm, ray_parameter_at_range,
    segment_to_convex_mm, within_max_range,
};
pub use secondary_targets::{SecondaryTargets, secondary_targets};
pub use table_assessment::{ArtilleryAssessment, BatteryCalls, TargetCalls, assess_table_artillery};
pub use target_cover::{TargetCover, target_cover};
pub use targets::{
    TargetAssessment, TargetClass, aim_at, assess_targets, is_packed_marker, main_target, main_target_order,
};
pub use unlimber::{UnlimberCheck, unlimber_check};
