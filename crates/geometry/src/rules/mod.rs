//! Rule sets as data: every named distance and angle of each supported rule set, with
//! the section it comes from, and how the table's scale turns it into millimetres.
//!
//! A caller asks a [`RuleBook`] (a rule set at a scale) for a [`RuleDistance`] and gets
//! millimetres:
//!
//! ```
//! use vedette_geometry::{RuleBook, RuleDistance, RuleSet, Scale};
//! let book = RuleBook::try_new(RuleSet::Republique5, Scale::Large)?;
//! // General assault depth: 3" × 1.5 at large scale.
//! let mm = book.distance_mm(RuleDistance::GeneralAssault)?;
//! assert!((mm - 114.3).abs() < 1e-9);
//! let pp = RuleBook::try_new(RuleSet::ProPatria, Scale::Figures15mm)?;
//! assert_eq!(pp.distance_mm(RuleDistance::CommandRadius)?, 250.0);
//! # Ok::<(), vedette_geometry::GeometryError>(())
//! ```

mod pair_applies;
mod pro_patria;
mod republic;
mod republique5;
mod republique_classic;

pub use pair_applies::{PairContext, applies_between};

use crate::error::GeometryError;
use crate::scale::{MM_PER_INCH, Scale};
use serde::{Deserialize, Serialize};
use std::fmt;

/// A supported rule set.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema,
)]
pub enum RuleSet {
    /// Republique 5.0 (2024), Napoleonic, inches: seed 000, the main rule set.
    #[serde(rename = "republique5")]
    Republique5,
    /// Republique classic (1996-2003), metric contact distances: seeds 001 and 002.
    #[serde(rename = "republique-classic")]
    RepubliqueClassic,
    /// Republic, American Civil War, advanced rules: seed 003.
    #[serde(rename = "republic")]
    Republic,
    /// Pro Patria! (2005), metric, paired 25/28 mm and 15 mm distances: seed 004.
    #[serde(rename = "pro-patria")]
    ProPatria,
}

impl RuleSet {
    /// Every rule set, in table-file order.
    pub const ALL: [RuleSet; 4] =
        [RuleSet::Republique5, RuleSet::RepubliqueClassic, RuleSet::Republic, RuleSet::ProPatria];

    /// The name used in table files.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            RuleSet::Republique5 => "republique5",
            RuleSet::RepubliqueClassic => "republique-classic",
            RuleSet::Republic => "republic",
            RuleSet::ProPatria => "pro-patria",
        }
    }

    /// True when the scale is one this rule set is played at.
    #[must_use]
    pub fn accepts_scale(self, scale: Scale) -> bool {
        match self {
            RuleSet::ProPatria => matches!(scale, Scale::Figures15mm | Scale::Figures28mm),
            _ => matches!(scale, Scale::Small | Scale::Medium | Scale::Large),
        }
    }

    /// The rule set whose entries this one falls back on for names it does not define.
    ///
    /// Republic's seed holds only its advanced rules; its core measuring rules are those
    /// of the Republique system it shares, so it inherits Republique 5.0's entries.
    #[must_use]
    pub fn inherits(self) -> Option<RuleSet> {
        match self {
            RuleSet::Republic => Some(RuleSet::Republique5),
            _ => None,
        }
    }

    fn own_distances(self) -> &'static [DistanceEntry] {
        match self {
            RuleSet::Republique5 => republique5::DISTANCES,
            RuleSet::RepubliqueClassic => republique_classic::DISTANCES,
            RuleSet::Republic => republic::DISTANCES,
            RuleSet::ProPatria => pro_patria::DISTANCES,
        }
    }

    fn own_angles(self) -> &'static [AngleEntry] {
        match self {
            RuleSet::Republique5 => republique5::ANGLES,
            RuleSet::RepubliqueClassic => republique_classic::ANGLES,
            RuleSet::Republic => republic::ANGLES,
            RuleSet::ProPatria => pro_patria::ANGLES,
        }
    }

    /// The entry for a named distance, searching inherited rule sets too.
    #[must_use]
    pub fn distance_entry(self, name: RuleDistance) -> Option<&'static DistanceEntry> {
        self.own_distances()
            .iter()
            .find(|e| e.name == name)
            .or_else(|| self.inherits().and_then(|r| r.distance_entry(name)))
    }

    /// The entry for a named angle, searching inherited rule sets too.
    #[must_use]
    pub fn angle_entry(self, name: RuleAngle) -> Option<&'static AngleEntry> {
        self.own_angles()
            .iter()
            .find(|e| e.name == name)
            .or_else(|| self.inherits().and_then(|r| r.angle_entry(name)))
    }

    /// Every distance this rule set names (its own first, then inherited ones it does not
    /// override).
    #[must_use]
    pub fn distances(self) -> Vec<&'static DistanceEntry> {
        let mut out: Vec<&'static DistanceEntry> = self.own_distances().iter().collect();
        if let Some(parent) = self.inherits() {
            for e in parent.distances() {
                if !out.iter().any(|o| o.name == e.name) {
                    out.push(e);
                }
            }
        }
        out
    }

    /// Every angle this rule set names.
    #[must_use]
    pub fn angles(self) -> Vec<&'static AngleEntry> {
        let mut out: Vec<&'static AngleEntry> = self.own_angles().iter().collect();
        if let Some(parent) = self.inherits() {
            for e in parent.angles() {
                if !out.iter().any(|o| o.name == e.name) {
                    out.push(e);
                }
            }
        }
        out
    }
}

impl fmt::Display for RuleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The weight class of an artillery battery (000 §1.3).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum ArtilleryWeight {
    /// 12 pounders and their howitzers (H).
    Heavy,
    /// 8 or 9 pounders (M).
    Medium,
    /// 6 pounders (L).
    Light,
    /// 4 pounders (VL).
    VeryLight,
}

impl ArtilleryWeight {
    /// Every weight, heaviest first.
    pub const ALL: [ArtilleryWeight; 4] =
        [ArtilleryWeight::Heavy, ArtilleryWeight::Medium, ArtilleryWeight::Light, ArtilleryWeight::VeryLight];

    /// The name used in table files.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            ArtilleryWeight::Heavy => "heavy",
            ArtilleryWeight::Medium => "medium",
            ArtilleryWeight::Light => "light",
            ArtilleryWeight::VeryLight => "very-light",
        }
    }
}

/// How a rule states a distance.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Measure {
    /// Inches at the medium (15-18 mm) scale; multiplied by the scale ratio.
    Inches(f64),
    /// Millimetres at the medium scale (classic Republique's metric distances); multiplied
    /// by the scale ratio like the inch distances of the same system.
    Millimetres(f64),
    /// Pro Patria's pair: millimetres for 25/28 mm figures and for 15 mm figures.
    Paired {
        /// The 25/28 mm distance.
        large_mm: f64,
        /// The 15 mm distance (the bracketed figure).
        small_mm: f64,
    },
}

/// Where a rule distance's value comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// Stated by the rule text.
    Rule,
    /// A project default where the rule text is silent (the club may change it).
    ProjectDefault,
}

/// One named distance of a rule set.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DistanceEntry {
    /// Which distance.
    pub name: RuleDistance,
    /// Its value as the rule states it.
    pub measure: Measure,
    /// The seed file and section it comes from, e.g. `"000 §5.1"`.
    pub section: &'static str,
    /// Whether the text states it or the project chose it.
    pub source: Source,
}

/// One named angle of a rule set, in degrees (angles do not scale).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AngleEntry {
    /// Which angle.
    pub name: RuleAngle,
    /// Degrees.
    pub degrees: f64,
    /// The seed file and section it comes from.
    pub section: &'static str,
}

/// A distance that a rule names. Each rule set defines the ones its text uses; asking a
/// rule set for one it does not define is an error
/// ([`GeometryError::NotInRuleSet`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RuleDistance {
    /// General assault zone depth ahead of the face (000 §5.1: 3").
    GeneralAssault,
    /// All-out assault zone depth (000 §5.1: 1½").
    AllOutAssault,
    /// Width of one artillery range bracket (000 §4.3: 2").
    RangeBracket,
    /// Deep-target window behind the target's leading edge (000 §4.3 A: 4").
    DeepTargetWindow,
    /// Tandem secondary target: within this of the main target's front (000 §4.5: 4").
    TandemTarget,
    /// Adjacent secondary target: "next to" the main target means within this, edge to
    /// edge (000 §4.5 does not say how near "next to" is: a project default of one range
    /// bracket, 2").
    AdjacentTarget,
    /// French-system batteries may not unlimber closer to enemy units (000 §3.6: 1½").
    UnlimberFrench,
    /// Prussian-system batteries may not unlimber closer to enemy units (000 §3.6: 3").
    UnlimberPrussian,
    /// French-system units may not change formation this close to enemy combat bases
    /// (000 §3.2: 1½").
    FormationChangeFrench,
    /// Prussian-system units may not change formation this close (000 §3.2: 3").
    FormationChangePrussian,
    /// Deployment area boundary around a division's primary bases (000 §2.1: 3").
    DeploymentArea,
    /// Leaders may move this far in the rally step (000 §1.7: 3").
    LeaderRallyMove,
    /// Leader rally effect falls off in steps of this (000 §2.2-2.3: 4").
    RallyStep,
    /// Leaders within this of a unit that lost bases roll for hors de combat (000 §4.7,
    /// §5.6: 3").
    HorsDeCombat,
    /// Hors de combat leaders are moved this far to the rear (000 §4.7: 12").
    HorsDeCombatMove,
    /// E or P leaders within this add to the assault roll (000 §5.4: 3").
    LeaderAssaultBonus,
    /// Officers within this of an assault may follow a carry-position move (000 §5.5: 2").
    OfficerCarryPosition,
    /// Divisions within this act together for the maneuver test (000 §3.3: 6").
    DivisionsTogether,
    /// Corps commander beyond this from the division leader: -1 (000 §3.3: 12").
    CorpsCommander,
    /// Engagement range (000 §3.3: 8").
    EngagementRange,
    /// A division moving no more than this is on Hold (000 §3.3: 4").
    HoldMove,
    /// Normal movement allowance of foot: infantry and foot artillery (000 §3.1: 8").
    FootMove,
    /// Normal movement allowance of horse: cavalry and horse artillery (000 §3.1: 15").
    HorseMove,
    /// Assault (charge) movement bonus of foot (000 §3.1: 4").
    FootChargeBonus,
    /// Assault (charge) movement bonus of horse (000 §3.1: 8").
    HorseChargeBonus,
    /// Leaders move at the speed of charging cavalry (000 §3.1: 24").
    LeaderMove,
    /// A formation change on the French system costs this much of the movement (000
    /// §3.2, §3.5: 2"; doubled in rough terrain).
    FormationChangeCostFrench,
    /// A formation change on the Prussian system costs this much (000 §3.2, §3.5: 4").
    FormationChangeCostPrussian,
    /// Cavalry may react to enemies this close to its front (000 §3.6: 6").
    CavalryReaction,
    /// Skirmish markers stay within this of their parent unit (000 §3.6: 3").
    SkirmisherParent,
    /// Skirmish markers at least this far apart are in skirmish order (000 §3.6: 3").
    SkirmisherSpacing,
    /// Skirmish engagement range for attack and block (000 §4.1: 3").
    SkirmishEngagement,
    /// Pass-through hits from infantry and artillery losers (000 §5.5: 3" to the rear).
    PassThroughFoot,
    /// Pass-through hits from cavalry losers (000 §5.5: 6" to the rear).
    PassThroughHorse,
    /// Adjoining divisions for panic (000 §6.2: 3", or line of sight if less).
    AdjoiningDivisions,
    /// Cavalry that moved at least this counts as moving for artillery (000 §4.3: 12").
    MovingCavalry,
    /// Retrograde move: disengage (000 §3.4: 4" foot; horse doubles).
    Disengage,
    /// Retrograde move: withdraw (000 §3.4: 6").
    Withdraw,
    /// Retrograde move: fall back (000 §3.4: 8").
    FallBack,
    /// Retrograde move: retreat (000 §3.4: 10").
    Retreat,
    /// Retrograde move: rout (000 §3.4: 12").
    Rout,
    /// Maximum artillery range for a battery weight. The combat chart is not in the
    /// seeds: these are project defaults, overridable per table.
    MaxRange(ArtilleryWeight),
    /// Classic primary assault contact (001 §4.1: 25 mm).
    PrimaryContact,
    /// Classic incidental assault contact (001 §4.1: 50 mm).
    IncidentalContact,
    /// Classic emergency rally reach (001 §4.5: 8 cm).
    EmergencyRally,
    /// Classic leader injury reach (001 §4.6: 8 cm).
    LeaderInjury,
    /// Classic adjoining panic (002 §5.2: 8 cm).
    AdjoiningPanic,
    /// Republic cavalry skirmish markers stay within this of the parent (003 101: 6").
    CavalrySkirmisherParent,
    /// Republic supporting unit test within this to the rear of a friend (003 102 B: 1").
    SupportBehind,
    /// Republic alert infantry reaction zone (003 201: 4").
    AlertZone,
    /// Republic brigade reassignment: commander within this (003 205A: 12").
    BrigadeReassignment,
    /// Republic commandeering reach (003 205B: 6").
    Commandeering,
    /// Republic bluff charge: infantry must close to this (003 301: 1").
    BluffInfantry,
    /// Republic bluff charge: cavalry must close to this (003 301: 3").
    BluffCavalry,
    /// Republic green troops in woods beyond this from friends test (003 308: 4").
    GreenInWoods,
    /// Republic enemy skirmish marker reach for hors de combat (003 106: 4").
    SkirmisherHorsDeCombat,
    /// Republic sharpshooter reach for hors de combat (003 106: 6").
    SharpshooterHorsDeCombat,
    /// Pro Patria command radius (004 §14.2: 400 mm / 250 mm).
    CommandRadius,
    /// Pro Patria maximum visibility (004 §16.3: 1200 / 720).
    Visibility,
    /// Pro Patria formed units seen this far into heavy woods or towns (004 §16.3: 100 / 60).
    VisibleInHeavyCover,
    /// Pro Patria formed units seen this far into light woods or towns (004 §16.3: 150 / 90).
    VisibleInLightCover,
    /// Pro Patria skirmishers seen this far into woods or towns (004 §16.3: 50 / 30).
    SkirmisherVisibleInCover,
    /// Pro Patria crest line reach (004 §15.1: 25 / 15).
    CrestLine,
    /// Pro Patria: a high hill sees this far past woods and towns (004 §15.7-15.8: 200 / 120).
    HighHillSeesPast,
    /// Pro Patria edge contact needed to be in contact (004 §17.4.2: 30 / 20).
    ContactEdge,
    /// Pro Patria: no unit comes this close to an enemy it has not charged (004 §17.4: 25 / 15).
    NoApproach,
    /// Pro Patria bombardment box depth (004 §19.6: 150 / 90).
    BombardmentDepth,
    /// Pro Patria friendly troops this close to the target are endangered (004 §17.3.7: 100 / 60).
    EndangeredNearTarget,
    /// Pro Patria artillery on high hills cannot shoot this close (004 §17.3.7: 150 / 90).
    HighHillMinimumRange,
    /// Pro Patria failed charge halts this far short (004 §17.4.9: 50 / 30).
    ChargeHalt,
    /// Pro Patria opportunity charge reach after shooting (004 §17.4.10: 50 / 30).
    OpportunityCharge,
    /// Pro Patria forced marches keep this far from visible enemy (004 §17.4.5: 300 / 180).
    ForcedMarchClearance,
    /// Pro Patria skirmish screen gap between figures (004 §12.4: 30 / 20).
    SkirmishGap,
    /// Pro Patria: cover counts when within this behind it (004 §15.11: 25 / 15).
    BehindCover,
    /// Stream bank or ravine: a defender standing back from the edge but facing it within
    /// this gets Light cover; touching it, Medium (000 §3.6 note 2, "within 1"").
    StreamBankStandOff,
    /// Pro Patria: an infantry charge this close catches its target (004 §17.2.3: 50 / 30).
    CaughtByInfantry,
    /// Pro Patria: a cavalry charge this close catches its target (004 §17.2.3: 150 / 90).
    CaughtByCavalry,
    /// Pro Patria: charging cavalry moving over this is a fast target (004 §13.4: 200 / 120).
    FastTarget,
    /// Spotting depth of light cover: light buildings, light forest, orchards, vineyards,
    /// steep rocky ground (000 §3.6 terrain effects table: 2").
    SpottingDepthTwoInches,
    /// Spotting depth of medium and heavy cover: medium and heavy buildings, medium and
    /// heavy forest, stone walls, treelines, hedges (000 §3.6 terrain effects table: 1").
    SpottingDepthOneInch,
    /// Spotting depth of reinforced cover: reinforced buildings, fortress walls,
    /// redoubts (000 §3.6 terrain effects table: ½").
    SpottingDepthHalfInch,
}

/// An angle that a rule names, in degrees.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RuleAngle {
    /// Each side of the artillery arc of fire turns this far outward (000 §4.2, §4.5:
    /// 60° in all, 30° per side).
    ArcOfFireSide,
    /// Each side of the firing zone turns this far outward (000 §4.5: 10° in all).
    FiringZoneSide,
    /// Assault zone sides flare this far outward (000 §5.1: 5°).
    AssaultZoneFlare,
    /// Oblique moves at most this far from straight ahead (000 §3.3: 45°).
    ObliqueMove,
    /// A change of direction of this or more is a Maneuver (000 §3.3: 45°).
    ManeuverTurn,
    /// A single battery may re-face this far against a breakthrough (000 §5.2: 45°).
    ArtilleryReface,
    /// Classic facing arc: from the rear corners, this far outward (001 §4.1: 45°).
    FacingArcSide,
    /// Pro Patria firing arc from each front corner (004 §17.3: 22½°).
    FiringArcSide,
    /// Pro Patria skirmisher firing arc per side (004 §17.3: 180° in all).
    SkirmisherArcSide,
    /// Pro Patria field of vision per side (004 §16.3: 180° in all).
    FieldOfViewSide,
}

/// A rule set played at a scale: the thing that turns rule distances into millimetres.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RuleBook {
    rules: RuleSet,
    scale: Scale,
}

impl RuleBook {
    /// A rule book, checking that the scale belongs to the rule set (Pro Patria is played
    /// at `15mm` or `28mm`, the others at `small`, `medium` or `large`).
    pub fn try_new(rules: RuleSet, scale: Scale) -> Result<Self, GeometryError> {
        if rules.accepts_scale(scale) {
            Ok(RuleBook { rules, scale })
        } else {
            Err(GeometryError::ScaleNotForRules { rules, scale })
        }
    }

    /// The rule set.
    #[must_use]
    pub fn rules(&self) -> RuleSet {
        self.rules
    }

    /// The scale.
    #[must_use]
    pub fn scale(&self) -> Scale {
        self.scale
    }

    /// The Republique scale ratio, `None` for Pro Patria.
    #[must_use]
    pub fn ratio(&self) -> Option<f64> {
        self.scale.ratio()
    }

    /// A measure turned into table millimetres at this book's scale.
    #[must_use]
    pub fn measure_mm(&self, m: Measure) -> f64 {
        let ratio = self.scale.ratio().unwrap_or(1.0);
        match m {
            Measure::Inches(i) => i * MM_PER_INCH * ratio,
            Measure::Millimetres(mm) => mm * ratio,
            Measure::Paired { large_mm, small_mm } => match self.scale {
                Scale::Figures15mm | Scale::Small => small_mm,
                _ => large_mm,
            },
        }
    }

    /// A named distance in table millimetres.
    pub fn distance_mm(&self, name: RuleDistance) -> Result<f64, GeometryError> {
        self.rules
            .distance_entry(name)
            .map(|e| self.measure_mm(e.measure))
            .ok_or_else(|| GeometryError::NotInRuleSet { rules: self.rules, what: format!("{name:?}") })
    }

    /// A named angle in degrees.
    pub fn angle_deg(&self, name: RuleAngle) -> Result<f64, GeometryError> {
        self.rules
            .angle_entry(name)
            .map(|e| e.degrees)
            .ok_or_else(|| GeometryError::NotInRuleSet { rules: self.rules, what: format!("{name:?}") })
    }

    /// Table millimetres as rule inches (the inches the rule text means at this scale),
    /// or `None` for Pro Patria, whose distances are stated per scale in millimetres.
    ///
    /// ```
    /// use vedette_geometry::{RuleBook, RuleSet, Scale};
    /// let large = RuleBook::try_new(RuleSet::Republique5, Scale::Large)?;
    /// let rule_in = large.mm_to_rule_inches(38.1).unwrap_or(f64::NAN); // 1.5" on the table
    /// assert!((rule_in - 1.0).abs() < 1e-12);
    /// # Ok::<(), vedette_geometry::GeometryError>(())
    /// ```
    #[must_use]
    pub fn mm_to_rule_inches(&self, mm: f64) -> Option<f64> {
        self.scale.ratio().map(|r| mm / MM_PER_INCH / r)
    }

    /// Rule inches as table millimetres, or `None` for Pro Patria.
    #[must_use]
    pub fn rule_inches_to_mm(&self, inches: f64) -> Option<f64> {
        self.scale.ratio().map(|r| inches * MM_PER_INCH * r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_relative_eq as are;

    macro_rules! assert_relative_eq {
        ($a:expr, $b:expr) => {
            are!($a, $b, max_relative = 1e-12)
        };
    }

    fn book(r: RuleSet, s: Scale) -> RuleBook {
        RuleBook::try_new(r, s).unwrap()
    }

    #[test]
    fn republique_distances_scale_by_ratio() {
        for (scale, ratio) in [(Scale::Small, 0.66), (Scale::Medium, 1.0), (Scale::Large, 1.5)] {
            let b = book(RuleSet::Republique5, scale);
            assert_relative_eq!(b.distance_mm(RuleDistance::GeneralAssault).unwrap(), 76.2 * ratio);
            assert_relative_eq!(b.distance_mm(RuleDistance::AllOutAssault).unwrap(), 38.1 * ratio);
            assert_relative_eq!(b.distance_mm(RuleDistance::RangeBracket).unwrap(), 50.8 * ratio);
            assert_relative_eq!(b.distance_mm(RuleDistance::EngagementRange).unwrap(), 8.0 * 25.4 * ratio);
            assert_relative_eq!(b.mm_to_rule_inches(25.4 * ratio).unwrap(), 1.0);
            assert_relative_eq!(b.rule_inches_to_mm(2.0).unwrap(), 50.8 * ratio);
            assert_eq!(b.angle_deg(RuleAngle::ArcOfFireSide).unwrap(), 30.0);
        }
    }

    #[test]
    fn classic_metric_distances() {
        let m = book(RuleSet::RepubliqueClassic, Scale::Medium);
        assert_eq!(m.distance_mm(RuleDistance::PrimaryContact).unwrap(), 25.0);
        assert_eq!(m.distance_mm(RuleDistance::IncidentalContact).unwrap(), 50.0);
        assert_eq!(m.distance_mm(RuleDistance::AdjoiningPanic).unwrap(), 80.0);
        let l = book(RuleSet::RepubliqueClassic, Scale::Large);
        assert_relative_eq!(l.distance_mm(RuleDistance::PrimaryContact).unwrap(), 37.5);
        assert_eq!(m.angle_deg(RuleAngle::FacingArcSide).unwrap(), 45.0);
        assert!(matches!(
            m.distance_mm(RuleDistance::GeneralAssault),
            Err(GeometryError::NotInRuleSet { rules: RuleSet::RepubliqueClassic, .. })
        ));
    }

    #[test]
    fn republic_inherits_the_core_and_adds_its_own() {
        let r = book(RuleSet::Republic, Scale::Medium);
        assert_relative_eq!(r.distance_mm(RuleDistance::GeneralAssault).unwrap(), 76.2);
        assert_relative_eq!(r.distance_mm(RuleDistance::CavalrySkirmisherParent).unwrap(), 6.0 * 25.4);
        // 003 106: "from 4" to 6" (Or from 6" to 9" for the 28mm combat chart)" - the
        // large ratio reproduces the text's own 28 mm figures.
        let l = book(RuleSet::Republic, Scale::Large);
        assert_relative_eq!(
            l.mm_to_rule_inches(l.distance_mm(RuleDistance::SharpshooterHorsDeCombat).unwrap()).unwrap(),
            6.0
        );
        assert_relative_eq!(l.distance_mm(RuleDistance::SharpshooterHorsDeCombat).unwrap(), 9.0 * 25.4);
        assert!(RuleSet::Republic.distances().len() > RuleSet::Republique5.distances().len());
    }

    #[test]
    fn pro_patria_is_a_table_not_a_ratio() {
        let big = book(RuleSet::ProPatria, Scale::Figures28mm);
        let small = book(RuleSet::ProPatria, Scale::Figures15mm);
        for (d, l, s) in [
            (RuleDistance::CommandRadius, 400.0, 250.0),
            (RuleDistance::Visibility, 1200.0, 720.0),
            (RuleDistance::NoApproach, 25.0, 15.0),
            (RuleDistance::ContactEdge, 30.0, 20.0),
            (RuleDistance::BombardmentDepth, 150.0, 90.0),
            (RuleDistance::HighHillSeesPast, 200.0, 120.0),
        ] {
            assert_eq!(big.distance_mm(d).unwrap(), l);
            assert_eq!(small.distance_mm(d).unwrap(), s);
        }
        assert_eq!(big.mm_to_rule_inches(100.0), None);
        assert_eq!(big.angle_deg(RuleAngle::FiringArcSide).unwrap(), 22.5);
        assert!(big.distance_mm(RuleDistance::GeneralAssault).is_err());
    }

    #[test]
    fn scales_must_match_the_rule_set() {
        assert!(RuleBook::try_new(RuleSet::ProPatria, Scale::Medium).is_err());
        assert!(RuleBook::try_new(RuleSet::Republique5, Scale::Figures28mm).is_err());
        for r in RuleSet::ALL {
            for s in Scale::ALL {
                assert_eq!(RuleBook::try_new(r, s).is_ok(), r.accepts_scale(s));
            }
        }
    }

    #[test]
    fn every_entry_cites_a_section_and_names_are_unique() {
        for r in RuleSet::ALL {
            let own = r.own_distances();
            for (i, e) in own.iter().enumerate() {
                assert!(!e.section.is_empty(), "{r}: {:?}", e.name);
                assert!(own[i + 1..].iter().all(|o| o.name != e.name), "{r}: {:?} twice", e.name);
            }
            for e in r.own_angles() {
                assert!(!e.section.is_empty());
            }
        }
    }

    #[test]
    fn max_ranges_are_project_defaults_per_weight() {
        let b = book(RuleSet::Republique5, Scale::Medium);
        let mut last = f64::INFINITY;
        for w in ArtilleryWeight::ALL {
            let e = RuleSet::Republique5.distance_entry(RuleDistance::MaxRange(w)).unwrap();
            assert_eq!(e.source, Source::ProjectDefault);
            let mm = b.distance_mm(RuleDistance::MaxRange(w)).unwrap();
            assert!(mm < last, "heavier guns reach further");
            last = mm;
        }
    }
}
