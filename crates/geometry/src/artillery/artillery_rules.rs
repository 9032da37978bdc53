//! Every rule distance and angle the artillery constructions use, read once from a
//! table's [`RuleBook`] (with the table's own maximum-range overrides) and held in
//! millimetres and degrees.
//!
//! Nothing in `artillery/` writes a rule distance as a literal: it asks this struct,
//! which asks the rule book, which cites the section.

use crate::error::GeometryError;
use crate::rules::{ArtilleryWeight, RuleAngle, RuleBook, RuleDistance};
use crate::table::{ManeuverSystem, Table};

/// The artillery rules of one table, in table millimetres and degrees.
///
/// ```
/// use vedette_geometry::{ArtilleryRules, ArtilleryWeight, Table};
/// let t = Table::from_json_str(r#"{"schema":"vedette/table/1","rules":"republique5","scale":"large",
///   "artillery":{"max_range_in":{"heavy":18}},"units":[]}"#)?;
/// let r = ArtilleryRules::for_table(&t)?;
/// assert!((r.bracket_mm - 2.0 * 25.4 * 1.5).abs() < 1e-9);           // 2" brackets, x1.5
/// assert!((r.max_range_mm(ArtilleryWeight::Heavy) - 18.0 * 25.4 * 1.5).abs() < 1e-9);
/// assert_eq!(r.max_swing_deg(), 25.0);                                 // 30° arc side - 5° zone side
/// # Ok::<(), vedette_geometry::GeometryError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct ArtilleryRules {
    book: RuleBook,
    /// Each side of the arc of fire turns this far outward (000 §4.2: 60° in all).
    pub arc_side_deg: f64,
    /// Each side of the firing zone turns this far outward (000 §4.5: 10° in all).
    pub zone_side_deg: f64,
    /// Width of one range bracket, mm (000 §4.3: 2").
    pub bracket_mm: f64,
    /// Deep-target window behind the target's leading edge, mm (000 §4.3 A: 4").
    pub deep_window_mm: f64,
    /// Tandem targets lie within this of the main target's front, mm (000 §4.5: 4").
    pub tandem_mm: f64,
    /// Adjacent targets lie within this of the main target, mm (000 §4.5 "next to":
    /// project default, see [`RuleDistance::AdjacentTarget`]).
    pub adjacent_mm: f64,
    /// Skirmish markers closer than this to a friendly marker are packed, mm (000 §3.6: 3").
    pub skirmisher_spacing_mm: f64,
    /// French-system batteries may not unlimber closer to enemy combat bases, mm (000 §3.6).
    pub unlimber_french_mm: f64,
    /// Prussian-system batteries may not unlimber closer, mm (000 §3.6).
    pub unlimber_prussian_mm: f64,
    /// Maximum range per weight, heaviest first (the order of [`ArtilleryWeight::ALL`]).
    max_range_mm: [f64; 4],
}

impl ArtilleryRules {
    /// The artillery rules of a table: its rule set at its scale, with the table's
    /// `artillery.max_range_in` overrides (rule inches) in place of the defaults.
    ///
    /// Fails with [`GeometryError::NotInRuleSet`] for rule sets without Republique
    /// artillery rules (classic Republique's seeds hold no artillery chapter; Pro Patria
    /// fires differently).
    pub fn for_table(table: &Table) -> Result<Self, GeometryError> {
        let book = table.rule_book()?;
        let mut max_range_mm = [0.0; 4];
        for (slot, weight) in max_range_mm.iter_mut().zip(ArtilleryWeight::ALL) {
            *slot = match table.artillery.max_range_in.get(&weight) {
                Some(&inches) => book.rule_inches_to_mm(inches).ok_or(GeometryError::NotInRuleSet {
                    rules: book.rules(),
                    what: "artillery ranges in rule inches".to_string(),
                })?,
                None => book.distance_mm(RuleDistance::MaxRange(weight))?,
            };
        }
        Ok(ArtilleryRules {
            book,
            arc_side_deg: book.angle_deg(RuleAngle::ArcOfFireSide)?,
            zone_side_deg: book.angle_deg(RuleAngle::FiringZoneSide)?,
            bracket_mm: book.distance_mm(RuleDistance::RangeBracket)?,
            deep_window_mm: book.distance_mm(RuleDistance::DeepTargetWindow)?,
            tandem_mm: book.distance_mm(RuleDistance::TandemTarget)?,
            adjacent_mm: book.distance_mm(RuleDistance::AdjacentTarget)?,
            skirmisher_spacing_mm: book.distance_mm(RuleDistance::SkirmisherSpacing)?,
            unlimber_french_mm: book.distance_mm(RuleDistance::UnlimberFrench)?,
            unlimber_prussian_mm: book.distance_mm(RuleDistance::UnlimberPrussian)?,
            max_range_mm,
        })
    }

    /// The rule book the values came from.
    #[must_use]
    pub fn book(&self) -> RuleBook {
        self.book
    }

    /// The maximum range of a battery of this weight, mm.
    #[must_use]
    pub fn max_range_mm(&self, weight: ArtilleryWeight) -> f64 {
        let i = ArtilleryWeight::ALL.iter().position(|w| *w == weight).unwrap_or(0);
        self.max_range_mm[i]
    }

    /// How far the firing zone's centre of fire may swing either way from straight
    /// ahead, in degrees: its sides may not leave the arc of fire (000 §4.5: "may be
    /// swung throughout a battery's 60° arc-of-fire"), so 30° - 5° = 25°.
    #[must_use]
    pub fn max_swing_deg(&self) -> f64 {
        self.arc_side_deg - self.zone_side_deg
    }

    /// The unlimber limit of a maneuver system, mm (000 §3.6).
    #[must_use]
    pub fn unlimber_limit_mm(&self, system: ManeuverSystem) -> f64 {
        match system {
            ManeuverSystem::French => self.unlimber_french_mm,
            ManeuverSystem::Prussian => self.unlimber_prussian_mm,
        }
    }

    /// Table millimetres as rule inches (scale ratio applied).
    #[must_use]
    pub fn rule_inches(&self, mm: f64) -> f64 {
        self.book.mm_to_rule_inches(mm).unwrap_or(mm / crate::scale::MM_PER_INCH)
    }
}
