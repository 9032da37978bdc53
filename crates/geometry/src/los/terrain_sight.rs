//! What each terrain kind does to sight: the spotting depth column of the Republique 5.0
//! terrain effects table (000 §3.6), the height of a feature for blind zones (003 601:
//! "½ level features: ½" thick hill sections, woods, buildings"), and how Pro Patria
//! classes woods and urban areas (004 §15.7-15.8, §16.3).
//!
//! This table is kept apart from the cover and movement tables on purpose (one concept
//! per file); each row cites the table it comes from.

use crate::rules::RuleDistance;
use crate::terrain::TerrainKind;

/// What a kind of terrain does to a sight line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SightEffect {
    /// No effect on sight (open ground, roads, water, marsh, stream and river banks:
    /// "-" in the spotting depth column of 000 §3.6; and the low obstacles, stone walls,
    /// hedges, fortress walls and redoubts, which a unit is "in" only while it takes
    /// cover behind one: seen over, they never hide what stands beyond their spotting
    /// depth nor block a sight line by themselves, GEOMETRY.md).
    Open,
    /// Sight-limiting cover: an area (woods, buildings, ...) or a treeline (trees: it
    /// blocks sight through it like a wood's edge) with a spotting depth. It blocks sight
    /// through it; a unit in (or behind) it is seen only up to the spotting depth
    /// (000 §3.6: "how far into that cover type that a unit can be spotted").
    Cover {
        /// The spotting depth, as a rule distance (scaled by the rule book).
        spotting_depth: RuleDistance,
    },
    /// A hill contour: its `level` is the height of its top; it hides lower ground
    /// behind it by the blind zones of 003 601.
    Hill,
}

/// Pro Patria's two classes of woods and urban areas (004 §15.7, §15.8).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CoverDensity {
    /// Light woods, or urban areas of mostly wooden buildings.
    Light,
    /// Heavy woods, or urban areas of mostly stone buildings.
    Heavy,
}

/// The sight properties of one terrain kind.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SightProperties {
    /// What the kind does to sight.
    pub effect: SightEffect,
    /// Height of the feature above the ground it stands on, in levels, for blind zones
    /// (003 601 footnote: woods and buildings are ½-level features). Linear obstacles
    /// with a spotting depth count as ½-level features too (project choice: the
    /// footnote does not name them; hedges and treelines stand as tall as a wood).
    /// Zero for open ground; hills use their own `level` instead.
    pub height_levels: f64,
    /// For Pro Patria: the kind is a wood or urban area of this density (004 §16.3
    /// visibility inside it); `None` when Pro Patria gives it no visibility rule.
    pub pro_patria: Option<CoverDensity>,
}

/// Height of woods, buildings and obstacles, in levels (003 601 footnote).
pub const HALF_LEVEL: f64 = 0.5;

impl SightProperties {
    /// The spotting depth, when the kind is cover.
    #[must_use]
    pub fn spotting_depth(&self) -> Option<RuleDistance> {
        match self.effect {
            SightEffect::Cover { spotting_depth } => Some(spotting_depth),
            _ => None,
        }
    }
}

const fn cover(depth: RuleDistance, pro_patria: Option<CoverDensity>) -> SightProperties {
    SightProperties {
        effect: SightEffect::Cover { spotting_depth: depth },
        height_levels: HALF_LEVEL,
        pro_patria,
    }
}

const OPEN: SightProperties =
    SightProperties { effect: SightEffect::Open, height_levels: 0.0, pro_patria: None };

/// The sight properties of a terrain kind: the spotting depth column of the terrain
/// table (000 §3.6, read from [`TerrainKind::properties`], the one place that holds the
/// table), the blind-zone height of 003 601, and Pro Patria's woods and urban classes
/// (004 §15.7-15.8).
///
/// ```
/// use vedette_geometry::TerrainKind;
/// use vedette_geometry::los::{SightEffect, sight_properties};
/// use vedette_geometry::RuleDistance;
/// let p = sight_properties(TerrainKind::MediumForest);
/// assert_eq!(p.effect, SightEffect::Cover { spotting_depth: RuleDistance::SpottingDepthOneInch });
/// assert_eq!(sight_properties(TerrainKind::Marsh).effect, SightEffect::Open);
/// ```
#[must_use]
pub fn sight_properties(kind: TerrainKind) -> SightProperties {
    use CoverDensity::{Heavy, Light};
    if kind == TerrainKind::Hill {
        return SightProperties { effect: SightEffect::Hill, height_levels: 0.0, pro_patria: None };
    }
    // A low obstacle never blocks a sight line by itself nor hides what stands beyond
    // its spotting depth; a unit within it takes cover behind it and is seen
    // (GEOMETRY.md, low linear obstacles; 000 §3.6).
    if kind.is_low_obstacle() {
        return OPEN;
    }
    let pro_patria = match kind {
        TerrainKind::LightBuildings | TerrainKind::LightForest | TerrainKind::Orchard => Some(Light),
        TerrainKind::MediumBuildings
        | TerrainKind::HeavyBuildings
        | TerrainKind::ReinforcedBuildings
        | TerrainKind::MediumForest
        | TerrainKind::HeavyForest => Some(Heavy),
        _ => None,
    };
    match kind.properties().spotting_depth {
        Some(depth) => cover(depth, pro_patria),
        None => OPEN,
    }
}
