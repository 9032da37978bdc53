//! The table model: units of oriented bases, markers and terrain, in table millimetres,
//! as read from and written to table files (`vedette/table/1`, see
//! `docs/table-format.md`).
//!
//! [`Table::from_json_str`] and [`Table::load`] parse and validate; every error names
//! the unit and the field.

mod load;
mod unique_keys;
mod validate;

pub use load::SCHEMA_ID;
pub use validate::{
    MAX_COORDINATE_MM, MAX_HEADING_DEG, MAX_OUTLINE_POINTS, MAX_SIZE_MM, MAX_TERRAIN_FEATURES,
    MAX_TERRAIN_POINTS,
};

use crate::base::Base;
use crate::error::GeometryError;
use crate::rules::{ArtilleryWeight, RuleBook, RuleSet};
use crate::scale::Scale;
use crate::terrain::{Mover, TerrainFeature};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

/// A whole table: what is on it and which rules measure it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Table {
    /// Always `"vedette/table/1"`.
    pub schema: String,
    /// The rule set the table is played with.
    pub rules: RuleSet,
    /// The figure scale.
    pub scale: Scale,
    /// A title for the table.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The playing area, when known (a scan always knows it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<TableSize>,
    /// Per-side settings, keyed by side name.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub sides: BTreeMap<String, SideSettings>,
    /// Artillery parameters that the rule texts leave to the combat chart.
    #[serde(default, skip_serializing_if = "ArtilleryOptions::is_default")]
    pub artillery: ArtilleryOptions,
    /// Every unit and marker base.
    pub units: Vec<Unit>,
    /// Status markers (cubes and the like) placed by units.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub markers: Vec<Marker>,
    /// Terrain features.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub terrain: Vec<TerrainFeature>,
}

/// The playing area: a rectangle from the origin, in mm.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TableSize {
    /// Along x (the long edge), mm.
    pub width: f64,
    /// Along y, mm.
    pub depth: f64,
}

/// Settings of one side.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SideSettings {
    /// The side's maneuver system (000 §3.2), which sets unlimber and formation-change
    /// limits.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub system: Option<ManeuverSystem>,
    /// How the side counts its bases in assaults: `whole-units` (the default) or, for
    /// Republic's optional grand-tactical inexperience (003 102 C), `individual-bases`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base_counting: Option<crate::assault::outnumbering::BaseCounting>,
}

/// A maneuver system (000 §3.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ManeuverSystem {
    /// French system: 1½" limits.
    French,
    /// Prussian system: 3" limits.
    Prussian,
}

/// Artillery parameters a table may set.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ArtilleryOptions {
    /// Maximum range per battery weight, in rule inches, replacing the rule set's
    /// defaults.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub max_range_in: BTreeMap<ArtilleryWeight, f64>,
}

impl ArtilleryOptions {
    fn is_default(&self) -> bool {
        self.max_range_in.is_empty()
    }
}

/// What a unit is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum UnitKind {
    /// Infantry combat bases.
    Infantry,
    /// Cavalry combat bases.
    Cavalry,
    /// Artillery batteries (one base per battery in Republique).
    Artillery,
    /// A leader (general) base.
    Leader,
    /// Skirmish marker bases deployed by a parent unit.
    Skirmisher,
    /// A limber marker of a battery.
    Limber,
    /// Engineers or pioneers (Pro Patria).
    Engineer,
    /// Wagons and the like (Pro Patria).
    Wagon,
}

impl UnitKind {
    /// Combat bases: infantry, cavalry and artillery (000 §1.2).
    #[must_use]
    pub fn is_combat(self) -> bool {
        matches!(self, UnitKind::Infantry | UnitKind::Cavalry | UnitKind::Artillery)
    }

    /// Who moves, as the terrain table sorts movers (000 §3.5-3.6): infantry, skirmish
    /// markers and engineers on foot; cavalry and leaders mounted; batteries, limbers
    /// and wagons wheeled.
    #[must_use]
    pub fn mover(self) -> Mover {
        match self {
            UnitKind::Infantry | UnitKind::Skirmisher | UnitKind::Engineer => Mover::Foot,
            UnitKind::Cavalry | UnitKind::Leader => Mover::Horse,
            UnitKind::Artillery | UnitKind::Limber | UnitKind::Wagon => Mover::Wheeled,
        }
    }

    /// The name used in table files.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            UnitKind::Infantry => "infantry",
            UnitKind::Cavalry => "cavalry",
            UnitKind::Artillery => "artillery",
            UnitKind::Leader => "leader",
            UnitKind::Skirmisher => "skirmisher",
            UnitKind::Limber => "limber",
            UnitKind::Engineer => "engineer",
            UnitKind::Wagon => "wagon",
        }
    }
}

impl fmt::Display for UnitKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A unit's formation (000 §1.4; Pro Patria §12).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Formation {
    /// Single line.
    Line,
    /// Two bases deep.
    TwoLine,
    /// Three bases deep.
    ThreeLine,
    /// Echelon (a single line with its flank angled back).
    Echelon,
    /// Column of attack: bases in single file.
    AttackColumn,
    /// Road column: single file with one-base spacing.
    RoadColumn,
    /// In square (a square marker on a line formation; always deep and enfiladed).
    Square,
    /// A Republic breakthrough column (003 §103): up to three brigades in attack column in
    /// tandem base-to-base contact, declared at the start of the move; always deep and
    /// enfilade targets for artillery. Each brigade of the column carries this formation.
    BreakthroughColumn,
    /// Artillery hooked to its limbers.
    Limbered,
    /// Artillery deployed to fire.
    Unlimbered,
    /// A column not otherwise named (Pro Patria manoeuvre column).
    Column,
    /// Pro Patria march column.
    MarchColumn,
    /// Skirmish order (Pro Patria skirmish screen).
    SkirmishOrder,
}

impl Formation {
    /// True for the formations in single file, whose only front base is the head: the
    /// attack column, the road column (000 §1.4) and the Republic breakthrough column
    /// (003 §103, brigades in attack column).
    #[must_use]
    pub fn is_single_file(self) -> bool {
        matches!(self, Formation::AttackColumn | Formation::RoadColumn | Formation::BreakthroughColumn)
    }

    /// The name used in table files.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Formation::Line => "line",
            Formation::TwoLine => "two-line",
            Formation::ThreeLine => "three-line",
            Formation::Echelon => "echelon",
            Formation::AttackColumn => "attack-column",
            Formation::RoadColumn => "road-column",
            Formation::Square => "square",
            Formation::BreakthroughColumn => "breakthrough-column",
            Formation::Limbered => "limbered",
            Formation::Unlimbered => "unlimbered",
            Formation::Column => "column",
            Formation::MarchColumn => "march-column",
            Formation::SkirmishOrder => "skirmish-order",
        }
    }
}

/// Artillery frontage (000 §1.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum FrontageMode {
    /// Double the base width, centred on the base.
    Normal,
    /// The base width.
    Packed,
}

/// The command level of a leader.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum LeaderRole {
    /// Commands the division named in its `division` field.
    Division,
    /// Commands the corps (or column, or wing) named in its `corps` field.
    Corps,
    /// Commands the side's army.
    Army,
}

/// A unit: bases of one side that act together, or a set of marker bases.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Unit {
    /// Unique id, e.g. `"fr-1-2"`.
    pub id: String,
    /// The side it fights for; units of other sides are enemies.
    pub side: String,
    /// What it is.
    pub kind: UnitKind,
    /// Its formation; optional for leaders, skirmishers, limbers and the like.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub formation: Option<Formation>,
    /// Its bases, at least one.
    #[schemars(with = "Vec<crate::base::BaseSpec>")]
    pub bases: Vec<Base>,
    /// The division it belongs to (or, for a division leader, commands).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub division: Option<String>,
    /// The corps it belongs to (or, for a corps leader, commands).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub corps: Option<String>,
    /// For skirmishers and limbers: the id of the unit they belong to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent: Option<String>,
    /// Artillery only: the battery's weight (default medium).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weight: Option<ArtilleryWeight>,
    /// Artillery only: force normal or packed frontage instead of deciding it from the
    /// free space beside the battery.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub frontage: Option<FrontageMode>,
    /// Leaders only: what they command.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<LeaderRole>,
    /// True for a division or corps asset (attached artillery or cavalry) that operates
    /// inside a deployment area without drawing its boundary (000 §2.1).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub attached: bool,
}

impl Unit {
    /// A unit with its id, side, kind and bases, and nothing else declared (no
    /// formation, division, corps, parent, weight, frontage or role; not attached).
    ///
    /// ```
    /// use vedette_geometry::{Base, BaseSize, Pose, Unit, UnitKind, Vec2};
    /// let b = Base::new(BaseSize::new(30.0, 20.0), Pose::new(Vec2::new(100.0, 100.0), 90.0));
    /// let u = Unit::new("fr-1", "french", UnitKind::Infantry, vec![b]);
    /// assert!(u.is_combat() && u.formation.is_none());
    /// ```
    #[must_use]
    pub fn new(id: impl Into<String>, side: impl Into<String>, kind: UnitKind, bases: Vec<Base>) -> Unit {
        Unit {
            id: id.into(),
            side: side.into(),
            kind,
            formation: None,
            bases,
            division: None,
            corps: None,
            parent: None,
            weight: None,
            frontage: None,
            role: None,
            attached: false,
        }
    }

    /// Combat units are made of infantry, cavalry or artillery bases.
    #[must_use]
    pub fn is_combat(&self) -> bool {
        self.kind.is_combat()
    }

    /// True when the unit is formed in square.
    #[must_use]
    pub fn in_square(&self) -> bool {
        self.formation == Some(Formation::Square)
    }
}

/// A status marker: a cube or token placed beside a unit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Marker {
    /// What it marks.
    pub kind: MarkerKind,
    /// Its colour (morale markers: white, yellow, red or black).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub colour: Option<MarkerColour>,
    /// Centre x, mm.
    pub x: f64,
    /// Centre y, mm.
    pub y: f64,
    /// The unit it belongs to, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unit: Option<String>,
    /// Side length in mm (default: a 3/8" cube, 9.525 mm).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<f64>,
    /// Standard uncertainty of the position in mm, when it was measured from a photo.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sigma_mm: Option<f64>,
}

/// Side of a standard 3/8" marker cube, mm (000 §1.2).
pub const MARKER_CUBE_MM: f64 = 9.525;

impl Marker {
    /// Its square's corners nearest and farthest from the origin, (min, max), mm: its
    /// centre less and plus half its side ([`MARKER_CUBE_MM`] unless it says).
    #[must_use]
    pub fn aabb(&self) -> (crate::vec2::Vec2, crate::vec2::Vec2) {
        let h = self.size.unwrap_or(MARKER_CUBE_MM) / 2.0;
        (crate::vec2::Vec2::new(self.x - h, self.y - h), crate::vec2::Vec2::new(self.x + h, self.y + h))
    }
}

/// What a marker marks (000 §1.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum MarkerKind {
    /// Morale hits, by colour.
    Morale,
    /// The unit is in square.
    Square,
    /// The battery saved its fire.
    SavedFire,
    /// A division suffered a panic 5 event.
    Panic5,
    /// Republic alert infantry (003 201).
    Alert,
    /// Republic sharpshooter (003 106): names the skirmish marker unit designated as
    /// the side's sharpshooter.
    Sharpshooter,
    /// Republic attached artillery (003 402).
    AttachedArtillery,
    /// A leader is hors de combat.
    HorsDeCombat,
    /// A blank block (003 506 E) or any other token.
    Blank,
}

/// Marker colours. Morale markers are white, yellow, red and black for unformed,
/// rattled, shaken and demoralized (000 §1.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum MarkerColour {
    /// Unformed (one morale hit).
    White,
    /// Rattled.
    Yellow,
    /// Shaken.
    Red,
    /// Demoralized.
    Black,
    /// Unpainted wood (square, P5 and other markers).
    Natural,
}

/// A base of a table, by unit and base index.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BaseRef {
    /// Index of the unit in [`Table::units`].
    pub unit: usize,
    /// Index of the base in the unit's `bases`.
    pub base: usize,
}

impl BaseRef {
    /// A reference from unit and base indices.
    #[must_use]
    pub const fn new(unit: usize, base: usize) -> Self {
        BaseRef { unit, base }
    }
}

/// What a command-line selector names: a whole unit, or one base of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Selection {
    /// A whole unit, by index.
    Unit(usize),
    /// One base.
    Base(BaseRef),
}

impl Table {
    /// A table of `units` under `rules` at `scale`, with nothing else (no name, size,
    /// side or artillery settings, markers or terrain).
    ///
    /// ```
    /// use vedette_geometry::{RuleSet, Scale, Table};
    /// let t = Table::new(RuleSet::Republique5, Scale::Medium, vec![]);
    /// assert!(t.rule_book().is_ok());
    /// ```
    #[must_use]
    pub fn new(rules: RuleSet, scale: Scale, units: Vec<Unit>) -> Table {
        Table {
            schema: SCHEMA_ID.to_string(),
            rules,
            scale,
            name: None,
            size: None,
            sides: BTreeMap::new(),
            artillery: ArtilleryOptions::default(),
            units,
            markers: vec![],
            terrain: vec![],
        }
    }

    /// The rule book of this table (its rule set at its scale).
    pub fn rule_book(&self) -> Result<RuleBook, GeometryError> {
        RuleBook::try_new(self.rules, self.scale)
    }

    /// The index of the unit with this id.
    #[must_use]
    pub fn unit_index(&self, id: &str) -> Option<usize> {
        self.units.iter().position(|u| u.id == id)
    }

    /// The unit with this id.
    #[must_use]
    pub fn unit(&self, id: &str) -> Option<&Unit> {
        self.units.iter().find(|u| u.id == id)
    }

    /// The base a reference points at, if it exists.
    #[must_use]
    pub fn base(&self, r: BaseRef) -> Option<&Base> {
        self.units.get(r.unit).and_then(|u| u.bases.get(r.base))
    }

    /// Every base with its reference, in unit order.
    pub fn bases(&self) -> impl Iterator<Item = (BaseRef, &Base)> {
        self.units
            .iter()
            .enumerate()
            .flat_map(|(ui, u)| u.bases.iter().enumerate().map(move |(bi, b)| (BaseRef::new(ui, bi), b)))
    }

    /// The number of bases on the table.
    #[must_use]
    pub fn base_count(&self) -> usize {
        self.units.iter().map(|u| u.bases.len()).sum()
    }

    /// `unit#index` for a base, as the command line and reports write it.
    #[must_use]
    pub fn base_label(&self, r: BaseRef) -> String {
        match self.units.get(r.unit) {
            Some(u) => {
                format!("{}#{}", u.id, u.bases.get(r.base).map_or(r.base, |b| b.number_at(r.base)))
            }
            None => format!("?#{}", r.base),
        }
    }

    /// Resolves `unit` or `unit#index`.
    ///
    /// ```
    /// use vedette_geometry::{Selection, Table};
    /// let t = Table::from_json_str(r#"{"schema":"vedette/table/1","rules":"republique5",
    ///   "scale":"medium","units":[{"id":"a","side":"x","kind":"infantry","formation":"line",
    ///   "bases":[{"x":0,"y":0,"heading":90,"width":30,"depth":20}]}]}"#)?;
    /// assert_eq!(t.select("a")?, Selection::Unit(0));
    /// assert!(t.select("a#1").is_err());
    /// # Ok::<(), vedette_geometry::GeometryError>(())
    /// ```
    pub fn select(&self, text: &str) -> Result<Selection, GeometryError> {
        let (id, index) = match text.rsplit_once('#') {
            Some((id, idx)) => {
                let i = idx
                    .parse::<usize>()
                    .map_err(|_| GeometryError::BadSelector { text: text.to_string() })?;
                (id, Some(i))
            }
            None => (text, None),
        };
        let ui = self
            .unit_index(id)
            .ok_or_else(|| GeometryError::UnknownUnit { id: id.to_string(), hint: self.suggest(id) })?;
        match index {
            None => Ok(Selection::Unit(ui)),
            Some(number) => {
                // A scan that missed some bases numbers the rest as the roster does.
                let bases = &self.units[ui].bases;
                let count = bases.len();
                let found = if bases.iter().any(|b| b.meta().slot.is_some()) {
                    bases.iter().enumerate().position(|(i, b)| b.number_at(i) == number)
                } else {
                    (number < count).then_some(number)
                };
                match found {
                    Some(bi) => Ok(Selection::Base(BaseRef::new(ui, bi))),
                    None => Err(GeometryError::BadBaseIndex { unit: id.to_string(), index: number, count }),
                }
            }
        }
    }

    /// A " (did you mean ...?)" hint naming the closest unit ids, or "".
    fn suggest(&self, id: &str) -> String {
        let mut scored: Vec<(usize, &str)> =
            self.units.iter().map(|u| (edit_distance(id, &u.id), u.id.as_str())).collect();
        scored.sort();
        let best: Vec<&str> =
            scored.iter().take_while(|(d, _)| *d <= 2.max(id.len() / 3)).take(3).map(|(_, s)| *s).collect();
        if best.is_empty() { String::new() } else { format!(" (did you mean {}?)", best.join(", ")) }
    }
}

/// Levenshtein distance, for suggestions.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            cur[j + 1] = (prev[j] + usize::from(ca != *cb)).min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edit_distances() {
        assert_eq!(edit_distance("fr-1-2", "fr-1-2"), 0);
        assert_eq!(edit_distance("fr-1-2", "fr-1-3"), 1);
        assert_eq!(edit_distance("", "abc"), 3);
    }
}
