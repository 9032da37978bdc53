//! Terrain features as the table file describes them: areas (polygons with holes),
//! linear obstacles (polylines) and hills (contour polygons with a level).
//!
//! The kinds are those of the Republique 5.0 terrain table (000 §3.6) plus hills,
//! roads and water; Pro Patria's light and heavy woods and urban areas map onto the
//! forest and building kinds.

use crate::polygon::Polygon;
use crate::rules::{Measure, RuleDistance, RuleSet};
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

/// A cover class (000 §3.6 "Cover", with the assault cover points of §5.2).
///
/// Ordered from light to fortress, so "at least medium cover" is `class >= Medium`.
/// Classic Republique's tactical bonus classes (001 §4.3: C soft, B solid, A heavy) and
/// Pro Patria's light and heavy cover (004 §13.5-13.6) map onto Light, Medium, Heavy.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum CoverClass {
    /// Light cover: 1 assault cover point.
    Light,
    /// Medium cover: 2 points.
    Medium,
    /// Heavy cover: 3 points.
    Heavy,
    /// Reinforced cover: 4 points.
    Reinforced,
    /// Fortress walls: 7 points.
    Fortress,
}

impl CoverClass {
    /// Every class, lightest first.
    pub const ALL: [CoverClass; 5] = [
        CoverClass::Light,
        CoverClass::Medium,
        CoverClass::Heavy,
        CoverClass::Reinforced,
        CoverClass::Fortress,
    ];

    /// Assault cover points (000 §5.2 table: 1, 2, 3, 4, 7).
    #[must_use]
    pub fn assault_points(self) -> u8 {
        match self {
            CoverClass::Light => 1,
            CoverClass::Medium => 2,
            CoverClass::Heavy => 3,
            CoverClass::Reinforced => 4,
            CoverClass::Fortress => 7,
        }
    }

    /// The name used in reports.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            CoverClass::Light => "light",
            CoverClass::Medium => "medium",
            CoverClass::Heavy => "heavy",
            CoverClass::Reinforced => "reinforced",
            CoverClass::Fortress => "fortress",
        }
    }
}

/// Movement cost inside a terrain area (000 §3.6 "Movement Penalty").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MovementCost {
    /// Normal ground.
    Normal,
    /// Rough: double cost.
    Rough,
    /// Double rough: quadruple cost.
    DoubleRough,
}

/// Who may not enter or cross a terrain feature (000 §3.6 "Impassable to").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Impassable {
    /// Foot (infantry, foot artillery).
    pub foot: bool,
    /// Horse (cavalry).
    pub horse: bool,
    /// Artillery.
    pub artillery: bool,
}

/// Where a feature gives its cover (000 §3.6: areas "when within", obstacles "when
/// behind").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CoverPosition {
    /// Inside the area.
    Within,
    /// Behind the obstacle.
    Behind,
}

/// The Republique 5.0 terrain table (000 §3.6) for one kind: the one place that says
/// what a kind of terrain does. Kinds the table does not list (hills, roads, water)
/// have no cover and no spotting depth.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TerrainProperties {
    /// Movement cost inside (areas); obstacles are crossed, not occupied.
    pub movement: MovementCost,
    /// Obstacles: the one-time cost to cross, for foot, as the rule states it.
    pub crossing_penalty: Option<Measure>,
    /// Whether the assault (charge) move bonus is allowed within or across ("N/A" in the
    /// table is `false`).
    pub assault_move: bool,
    /// Who may not enter or cross.
    pub impassable: Impassable,
    /// The cover class, if any.
    pub cover: Option<CoverClass>,
    /// Within or behind.
    pub cover_position: CoverPosition,
    /// How far into it a unit can be spotted and fired on: the rule-book distance
    /// (scaled with the table; [`crate::los::sight_properties`] builds on it).
    pub spotting_depth: Option<RuleDistance>,
    /// Where the values come from.
    pub section: &'static str,
}

const fn props(
    movement: MovementCost,
    crossing_penalty: Option<Measure>,
    assault_move: bool,
    impassable: Impassable,
    cover: Option<CoverClass>,
    cover_position: CoverPosition,
    spotting_depth: Option<RuleDistance>,
) -> TerrainProperties {
    TerrainProperties {
        movement,
        crossing_penalty,
        assault_move,
        impassable,
        cover,
        cover_position,
        spotting_depth,
        section: "000 §3.6",
    }
}

const NONE: Impassable = Impassable { foot: false, horse: false, artillery: false };
const ART: Impassable = Impassable { foot: false, horse: false, artillery: true };
const HORSE_ART: Impassable = Impassable { foot: false, horse: true, artillery: true };
const ALL: Impassable = Impassable { foot: true, horse: true, artillery: true };

const TWO: Option<RuleDistance> = Some(RuleDistance::SpottingDepthTwoInches);
const ONE: Option<RuleDistance> = Some(RuleDistance::SpottingDepthOneInch);
const HALF: Option<RuleDistance> = Some(RuleDistance::SpottingDepthHalfInch);

const fn inches(v: f64) -> Option<Measure> {
    Some(Measure::Inches(v))
}

impl TerrainKind {
    /// The kind's row of the Republique 5.0 terrain table (000 §3.6).
    ///
    /// ```
    /// use vedette_geometry::{CoverClass, RuleDistance, TerrainKind};
    /// let p = TerrainKind::MediumForest.properties();
    /// assert_eq!(p.cover, Some(CoverClass::Medium));
    /// assert_eq!(p.spotting_depth, Some(RuleDistance::SpottingDepthOneInch));
    /// ```
    #[must_use]
    pub fn properties(self) -> TerrainProperties {
        use CoverClass as C;
        use CoverPosition::{Behind, Within};
        use MovementCost::{DoubleRough, Normal, Rough};
        match self {
            TerrainKind::LightBuildings => props(Normal, None, true, NONE, Some(C::Light), Within, TWO),
            TerrainKind::MediumBuildings => props(Rough, None, true, NONE, Some(C::Medium), Within, ONE),
            TerrainKind::HeavyBuildings => props(Rough, None, true, NONE, Some(C::Heavy), Within, ONE),
            TerrainKind::ReinforcedBuildings => {
                props(Rough, None, false, ALL, Some(C::Reinforced), Within, HALF)
            }
            TerrainKind::LightForest | TerrainKind::Orchard => {
                props(Normal, None, true, NONE, Some(C::Light), Within, TWO)
            }
            TerrainKind::MediumForest => props(Rough, None, false, NONE, Some(C::Medium), Within, ONE),
            TerrainKind::HeavyForest => {
                props(DoubleRough, None, false, HORSE_ART, Some(C::Heavy), Within, ONE)
            }
            TerrainKind::Marsh => props(DoubleRough, None, false, ART, None, Within, None),
            TerrainKind::Vineyard => props(Rough, None, false, ART, Some(C::Light), Within, TWO),
            TerrainKind::SteepGround => props(Rough, None, false, NONE, Some(C::Medium), Within, TWO),
            TerrainKind::FortressWall => {
                props(Normal, None, false, HORSE_ART, Some(C::Fortress), Behind, HALF)
            }
            TerrainKind::RiverBank => props(Normal, inches(7.0), false, HORSE_ART, None, Behind, None),
            // Stream bank / ravine: medium cover defending at the edge, light standing
            // back within 1" (000 §3.6 note 2); the table's own cover column is "see notes".
            TerrainKind::StreamBank => props(Normal, inches(3.0), false, NONE, Some(C::Medium), Behind, None),
            TerrainKind::StoneWall => props(Normal, None, true, HORSE_ART, Some(C::Medium), Behind, ONE),
            TerrainKind::Redoubt => props(Normal, None, true, ART, Some(C::Reinforced), Behind, HALF),
            TerrainKind::Treeline => props(Normal, inches(1.0), true, NONE, Some(C::Light), Behind, ONE),
            TerrainKind::Hedge => props(Normal, inches(1.0), false, HORSE_ART, Some(C::Light), Behind, ONE),
            TerrainKind::Hill | TerrainKind::Road => props(Normal, None, true, NONE, None, Within, None),
            TerrainKind::Water => props(Normal, None, false, ALL, None, Within, None),
        }
    }

    /// The cover class a rule set gives this kind: Republique 5.0 and Republic use the
    /// terrain table (000 §3.6); classic Republique its tactical bonus classes (001 §4.3:
    /// A heavy, B solid = medium, C soft = light); Pro Patria light or heavy cover (004
    /// §13.5-13.6, with wooden buildings and lighter woods light, stone buildings and
    /// heavy woods heavy: "players should agree" and this is the project's agreement).
    #[must_use]
    pub fn cover_class(self, rules: RuleSet) -> Option<CoverClass> {
        use CoverClass as C;
        use TerrainKind as T;
        match rules {
            RuleSet::Republique5 | RuleSet::Republic => self.properties().cover,
            RuleSet::RepubliqueClassic => match self {
                T::HeavyBuildings | T::ReinforcedBuildings | T::Redoubt => Some(C::Heavy),
                T::StoneWall | T::FortressWall | T::HeavyForest => Some(C::Heavy),
                T::MediumForest | T::MediumBuildings => Some(C::Medium),
                T::LightBuildings | T::Orchard | T::LightForest | T::Hedge | T::Treeline => Some(C::Light),
                _ => None,
            },
            RuleSet::ProPatria => match self {
                T::HeavyBuildings
                | T::ReinforcedBuildings
                | T::HeavyForest
                | T::FortressWall
                | T::Redoubt => Some(C::Heavy),
                T::LightBuildings | T::MediumBuildings | T::LightForest | T::Orchard | T::MediumForest => {
                    Some(C::Light)
                }
                T::Hedge | T::StoneWall | T::Treeline => Some(C::Light),
                _ => None,
            },
        }
    }

    /// True for built-up areas (the "buildings" of the flank exceptions, 000 §5.4, 001
    /// §4.3; Pro Patria's urban areas).
    #[must_use]
    pub fn is_buildings(self) -> bool {
        matches!(
            self,
            TerrainKind::LightBuildings
                | TerrainKind::MediumBuildings
                | TerrainKind::HeavyBuildings
                | TerrainKind::ReinforcedBuildings
        )
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
    /// Hills only: the crest lines as the players drew them (004 §15.1), each a polyline
    /// of at least two points lying on or inside the outline, table mm. When given, they
    /// replace the two crest lines derived from the outline (the spine and the line
    /// across its widest point).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(with = "Vec<Vec<[f64; 2]>>")]
    pub crests: Vec<Vec<Vec2>>,
}

impl TerrainFeature {
    /// The feature's area as a polygon (empty for linear obstacles).
    #[must_use]
    pub fn polygon(&self) -> Polygon {
        Polygon::new(self.outline.clone(), self.holes.clone())
    }
}
