//! Terrain features as the table file describes them: areas (polygons with holes),
//! linear obstacles (polylines) and hills (contour polygons with a level).
//!
//! The kinds are those of the Republique 5.0 terrain table (000 §3.6) plus hills,
//! roads and water; Pro Patria's light and heavy woods and urban areas map onto the
//! forest and building kinds.

use crate::polygon::Polygon;
use crate::vec2::Vec2;
use serde::{Deserialize, Serialize};
use std::fmt;

/// A kind of terrain.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum TerrainKind {
    /// Light buildings (light wood).
    LightBuildings,
    /// Medium buildings (light stone, medium wood).
    MediumBuildings,
    /// Heavy buildings (medium stone, heavy wood).
    HeavyBuildings,
    /// Reinforced buildings (heavy stone, reinforced masonry).
    ReinforcedBuildings,
    /// Light forest.
    LightForest,
    /// Orchard or grove.
    Orchard,
    /// Medium forest.
    MediumForest,
    /// Heavy forest.
    HeavyForest,
    /// Marshland.
    Marsh,
    /// Vineyard.
    Vineyard,
    /// Steep, rocky ground.
    SteepGround,
    /// A hill: a contour polygon whose `level` is the height of its top.
    Hill,
    /// A road (no effect on sight).
    Road,
    /// A river or lake (impassable water).
    Water,
    /// Fortress walls (obstacle).
    FortressWall,
    /// Steep river bank (obstacle).
    RiverBank,
    /// Stream bank or ravine (obstacle).
    StreamBank,
    /// Stone wall (obstacle).
    StoneWall,
    /// Redoubt, fleche, embankment or breach (obstacle).
    Redoubt,
    /// Treeline (obstacle).
    Treeline,
    /// Hedge (obstacle).
    Hedge,
}

impl TerrainKind {
    /// True for obstacles drawn as lines (`path`) rather than areas (`outline`).
    #[must_use]
    pub fn is_linear(self) -> bool {
        matches!(
            self,
            TerrainKind::FortressWall
                | TerrainKind::RiverBank
                | TerrainKind::StreamBank
                | TerrainKind::StoneWall
                | TerrainKind::Redoubt
                | TerrainKind::Treeline
                | TerrainKind::Hedge
                | TerrainKind::Road
        )
    }

    /// The name used in table files.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            TerrainKind::LightBuildings => "light-buildings",
            TerrainKind::MediumBuildings => "medium-buildings",
            TerrainKind::HeavyBuildings => "heavy-buildings",
            TerrainKind::ReinforcedBuildings => "reinforced-buildings",
            TerrainKind::LightForest => "light-forest",
            TerrainKind::Orchard => "orchard",
            TerrainKind::MediumForest => "medium-forest",
            TerrainKind::HeavyForest => "heavy-forest",
            TerrainKind::Marsh => "marsh",
            TerrainKind::Vineyard => "vineyard",
            TerrainKind::SteepGround => "steep-ground",
            TerrainKind::Hill => "hill",
            TerrainKind::Road => "road",
            TerrainKind::Water => "water",
            TerrainKind::FortressWall => "fortress-wall",
            TerrainKind::RiverBank => "river-bank",
            TerrainKind::StreamBank => "stream-bank",
            TerrainKind::StoneWall => "stone-wall",
            TerrainKind::Redoubt => "redoubt",
            TerrainKind::Treeline => "treeline",
            TerrainKind::Hedge => "hedge",
        }
    }
}

impl fmt::Display for TerrainKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One terrain feature.
///
/// Areas give `outline` (and optional `holes`); linear obstacles give `path`. `level`
/// is in half-level steps (003 601: a ½" hill section is half a level): for a hill, the
/// level of its top; for other features, the ground level they stand on.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TerrainFeature {
    /// Optional unique id, for reports.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// What it is.
    pub kind: TerrainKind,
    /// Level in half-level steps (0, 0.5, 1, ...).
    #[serde(default)]
    pub level: f64,
    /// Area features: the outer boundary, at least three points.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(with = "Vec<[f64; 2]>")]
    pub outline: Vec<Vec2>,
    /// Area features: holes inside the outline.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(with = "Vec<Vec<[f64; 2]>>")]
    pub holes: Vec<Vec<Vec2>>,
    /// Linear obstacles: the line, at least two points.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(with = "Vec<[f64; 2]>")]
    pub path: Vec<Vec2>,
}

impl TerrainFeature {
    /// The feature's area as a polygon (empty for linear obstacles).
    #[must_use]
    pub fn polygon(&self) -> Polygon {
        Polygon::new(self.outline.clone(), self.holes.clone())
    }
}
