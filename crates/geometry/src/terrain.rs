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

/// Movement cost inside a terrain area (000 §3.6 "Movement Penalty", §3.5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum MovementCost {
    /// Normal ground.
    Normal,
    /// Rough: double cost.
    Rough,
    /// Double rough: quadruple cost.
    DoubleRough,
}

impl MovementCost {
    /// The cost per distance moved for a mover (000 §3.5): rough 2, double rough 4;
    /// "Artillery and other wheeled transport that are within rough terrain will pay
    /// double the normal rough movement cost, which is quadruple normal cost" (and double
    /// rough, which the terrain table makes impassable to artillery, eight times).
    #[must_use]
    pub fn factor(self, mover: Mover) -> f64 {
        let base = match self {
            MovementCost::Normal => return 1.0,
            MovementCost::Rough => 2.0,
            MovementCost::DoubleRough => 4.0,
        };
        if mover == Mover::Wheeled { 2.0 * base } else { base }
    }

    /// The name used in reports.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            MovementCost::Normal => "normal",
            MovementCost::Rough => "rough",
            MovementCost::DoubleRough => "double rough",
        }
    }
}

/// Who moves, as the terrain table's columns sort them (000 §3.5-3.6): foot (infantry,
/// foot artillery's crews, skirmish markers, engineers), horse (cavalry, mounted
/// leaders) and wheeled ("Artillery and other wheeled transport": batteries, limbers,
/// wagons).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Mover {
    /// On foot.
    Foot,
    /// Mounted.
    Horse,
    /// Artillery and other wheeled transport.
    Wheeled,
}

impl Mover {
    /// The name used in reports.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Mover::Foot => "foot",
            Mover::Horse => "horse",
            Mover::Wheeled => "artillery",
        }
    }
}

/// Who may not enter or cross a terrain feature (000 §3.6 "Impassable to").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Impassable {
    /// Foot (infantry, foot artillery).
    pub foot: bool,
    /// Horse (cavalry).
    pub horse: bool,
    /// Artillery (and other wheeled transport).
    pub artillery: bool,
    /// Foot may cross only by winning an assault against the foot defending it (000
    /// §3.6 note 1, fortress walls): not by a move.
    pub foot_by_assault_only: bool,
}

impl Impassable {
    /// True when `mover` may not enter or cross by a move.
    #[must_use]
    pub fn bars(&self, mover: Mover) -> bool {
        match mover {
            Mover::Foot => self.foot || self.foot_by_assault_only,
            Mover::Horse => self.horse,
            Mover::Wheeled => self.artillery,
        }
    }
}

/// Who may use the assault (charge) move bonus within or across a kind of terrain
/// (000 §3.6 "Assault Move": "N/A means that assault bonus movement is not allowed within
/// or across that terrain type/feature").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AssaultMove {
    /// Not in the table (open ground, hills, roads): everyone.
    All,
    /// "Foot only".
    FootOnly,
    /// "Foot & Horse" (stream banks).
    FootAndHorse,
    /// "N/A": nobody.
    NotAllowed,
}

impl AssaultMove {
    /// True when `mover` may use the assault bonus within or across it.
    #[must_use]
    pub fn allows(self, mover: Mover) -> bool {
        match self {
            AssaultMove::All => true,
            AssaultMove::FootOnly => mover == Mover::Foot,
            AssaultMove::FootAndHorse => mover != Mover::Wheeled,
            AssaultMove::NotAllowed => false,
        }
    }
}

/// The one-time movement distance lost crossing an obstacle (000 §3.6: "For obstacles,
/// the movement penalty is instead a one time movement distance loss to cross the
/// feature"), per mover as the table states it; `None`: no loss (or "-").
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CrossingLoss {
    /// Foot.
    pub foot: Option<Measure>,
    /// Horse.
    pub horse: Option<Measure>,
    /// Artillery.
    pub wheeled: Option<Measure>,
}

impl CrossingLoss {
    /// No loss for anyone.
    pub const NONE: CrossingLoss = CrossingLoss { foot: None, horse: None, wheeled: None };

    /// The loss for `mover`.
    #[must_use]
    pub fn for_mover(&self, mover: Mover) -> Option<Measure> {
        match mover {
            Mover::Foot => self.foot,
            Mover::Horse => self.horse,
            Mover::Wheeled => self.wheeled,
        }
    }
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
    /// Obstacles: the one-time loss to cross, per mover, as the rule states it.
    pub crossing_loss: CrossingLoss,
    /// Who may use the assault (charge) move bonus within or across it.
    pub assault_move: AssaultMove,
    /// Who may not enter or cross.
    pub impassable: Impassable,
    /// The cover class, if any.
    pub cover: Option<CoverClass>,
    /// Within or behind.
    pub cover_position: CoverPosition,
    /// How far into it a unit can be spotted and fired on: the rule-book distance
    /// (scaled with the table; [`crate::los::sight_properties`] builds on it). For a
    /// low obstacle, how far behind it a unit still takes cover behind it
    /// ([`TerrainKind::is_low_obstacle`]).
    pub spotting_depth: Option<RuleDistance>,
    /// Where the values come from.
    pub section: &'static str,
}

#[allow(clippy::too_many_arguments)]
const fn props(
    movement: MovementCost,
    crossing_loss: CrossingLoss,
    assault_move: AssaultMove,
    impassable: Impassable,
    cover: Option<CoverClass>,
    cover_position: CoverPosition,
    spotting_depth: Option<RuleDistance>,
) -> TerrainProperties {
    TerrainProperties {
        movement,
        crossing_loss,
        assault_move,
        impassable,
        cover,
        cover_position,
        spotting_depth,
        section: "000 §3.6",
    }
}

const NONE: Impassable =
    Impassable { foot: false, horse: false, artillery: false, foot_by_assault_only: false };
const ART: Impassable = Impassable { artillery: true, ..NONE };
const HORSE_ART: Impassable = Impassable { horse: true, artillery: true, ..NONE };
const ALL: Impassable = Impassable { foot: true, horse: true, artillery: true, foot_by_assault_only: false };
const FORTRESS: Impassable = Impassable { horse: true, artillery: true, foot_by_assault_only: true, ..NONE };

const TWO: Option<RuleDistance> = Some(RuleDistance::SpottingDepthTwoInches);
const ONE: Option<RuleDistance> = Some(RuleDistance::SpottingDepthOneInch);
const HALF: Option<RuleDistance> = Some(RuleDistance::SpottingDepthHalfInch);

const fn inches(v: f64) -> Option<Measure> {
    Some(Measure::Inches(v))
}

/// The same loss for everyone who may cross.
const fn loss(v: f64) -> CrossingLoss {
    CrossingLoss { foot: inches(v), horse: inches(v), wheeled: inches(v) }
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
        use AssaultMove::{All, FootAndHorse, FootOnly, NotAllowed};
        use CoverClass as C;
        use CoverPosition::{Behind, Within};
        use MovementCost::{DoubleRough, Normal, Rough};
        const NO_LOSS: CrossingLoss = CrossingLoss::NONE;
        match self {
            TerrainKind::LightBuildings => {
                props(Normal, NO_LOSS, FootOnly, NONE, Some(C::Light), Within, TWO)
            }
            TerrainKind::MediumBuildings => {
                props(Rough, NO_LOSS, FootOnly, NONE, Some(C::Medium), Within, ONE)
            }
            TerrainKind::HeavyBuildings => props(Rough, NO_LOSS, FootOnly, NONE, Some(C::Heavy), Within, ONE),
            TerrainKind::ReinforcedBuildings => {
                props(Rough, NO_LOSS, NotAllowed, ALL, Some(C::Reinforced), Within, HALF)
            }
            TerrainKind::LightForest | TerrainKind::Orchard => {
                props(Normal, NO_LOSS, FootOnly, NONE, Some(C::Light), Within, TWO)
            }
            TerrainKind::MediumForest => {
                props(Rough, NO_LOSS, NotAllowed, NONE, Some(C::Medium), Within, ONE)
            }
            TerrainKind::HeavyForest => {
                props(DoubleRough, NO_LOSS, NotAllowed, HORSE_ART, Some(C::Heavy), Within, ONE)
            }
            TerrainKind::Marsh => props(DoubleRough, NO_LOSS, NotAllowed, ART, None, Within, None),
            TerrainKind::Vineyard => props(Rough, NO_LOSS, NotAllowed, ART, Some(C::Light), Within, TWO),
            TerrainKind::SteepGround => props(Rough, NO_LOSS, NotAllowed, NONE, Some(C::Medium), Within, TWO),
            TerrainKind::FortressWall => {
                props(Normal, NO_LOSS, NotAllowed, FORTRESS, Some(C::Fortress), Behind, HALF)
            }
            // "-7" Foot": horse and artillery may not cross at all.
            TerrainKind::RiverBank => props(
                Normal,
                CrossingLoss { foot: inches(7.0), horse: None, wheeled: None },
                NotAllowed,
                HORSE_ART,
                None,
                Behind,
                None,
            ),
            // Stream bank / ravine: "-3" Foot/Horse, -6" Artillery"; medium cover
            // defending at the edge, light standing back within 1" (000 §3.6 note 2; the
            // table's own cover column is "see notes").
            TerrainKind::StreamBank => props(
                Normal,
                CrossingLoss { foot: inches(3.0), horse: inches(3.0), wheeled: inches(6.0) },
                FootAndHorse,
                NONE,
                Some(C::Medium),
                Behind,
                None,
            ),
            TerrainKind::StoneWall => {
                props(Normal, NO_LOSS, FootOnly, HORSE_ART, Some(C::Medium), Behind, ONE)
            }
            TerrainKind::Redoubt => props(Normal, NO_LOSS, FootOnly, ART, Some(C::Reinforced), Behind, HALF),
            TerrainKind::Treeline => props(Normal, loss(1.0), FootOnly, NONE, Some(C::Light), Behind, ONE),
            TerrainKind::Hedge => {
                props(Normal, loss(1.0), NotAllowed, HORSE_ART, Some(C::Light), Behind, ONE)
            }
            TerrainKind::Hill | TerrainKind::Road => props(Normal, NO_LOSS, All, NONE, None, Within, None),
            TerrainKind::Water => props(Normal, NO_LOSS, NotAllowed, ALL, None, Within, None),
        }
    }

    /// True for the low linear obstacles (stone walls, hedges, fortress walls, redoubts
    /// and the like, stream banks): a unit is "in" one only while it takes cover behind
    /// it, and it never hides what stands beyond its spotting depth nor blocks a sight
    /// line by itself (000 §3.6: "the cover bonus only applies when the unit is taking
    /// cover behind the obstacle"; GEOMETRY.md, low linear obstacles). Treelines are
    /// trees, not low obstacles: they block sight like a wood edge. Steep river banks
    /// give no cover and do not hide either.
    #[must_use]
    pub fn is_low_obstacle(self) -> bool {
        matches!(
            self,
            TerrainKind::StoneWall
                | TerrainKind::Hedge
                | TerrainKind::FortressWall
                | TerrainKind::Redoubt
                | TerrainKind::StreamBank
        )
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
