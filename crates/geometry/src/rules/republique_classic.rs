//! Republique classic (1996-2003): seeds `001_068d9e9635d6c05e.txt` (assault) and
//! `002_1c04896a92ce3187.txt` (panic test). Metric distances at the medium scale.
//!
//! The seeds hold only the assault and panic chapters, so only their distances are
//! here; asking classic for an artillery distance is an error, not a guess.

use super::{AngleEntry, DistanceEntry, Measure, RuleAngle, RuleDistance, Source};

const fn mm(name: RuleDistance, value: f64, section: &'static str) -> DistanceEntry {
    DistanceEntry { name, measure: Measure::Millimetres(value), section, source: Source::Rule }
}

/// A Republique 5.0 movement distance borrowed for classic tables: the classic seeds hold
/// no movement chapter, so `vedette move` measures classic moves by the 5.0 rules (000
/// §3.1-3.5), a project default a club may change.
const fn borrowed(name: RuleDistance, inches: f64, section: &'static str) -> DistanceEntry {
    DistanceEntry { name, measure: Measure::Inches(inches), section, source: Source::ProjectDefault }
}

pub(super) static DISTANCES: &[DistanceEntry] = &[
    borrowed(RuleDistance::HoldMove, 4.0, "000 §3.3 (classic seeds have no movement chapter)"),
    borrowed(RuleDistance::FootMove, 8.0, "000 §3.1 (classic seeds have no movement chapter)"),
    borrowed(RuleDistance::HorseMove, 15.0, "000 §3.1 (classic seeds have no movement chapter)"),
    borrowed(RuleDistance::FootChargeBonus, 4.0, "000 §3.1 (classic seeds have no movement chapter)"),
    borrowed(RuleDistance::HorseChargeBonus, 8.0, "000 §3.1 (classic seeds have no movement chapter)"),
    borrowed(RuleDistance::LeaderMove, 24.0, "000 §3.1 (classic seeds have no movement chapter)"),
    borrowed(
        RuleDistance::FormationChangeCostFrench,
        2.0,
        "000 §3.2 (classic seeds have no movement chapter)",
    ),
    borrowed(
        RuleDistance::FormationChangeCostPrussian,
        4.0,
        "000 §3.2 (classic seeds have no movement chapter)",
    ),
    borrowed(RuleDistance::FormationChangeFrench, 1.5, "000 §3.2 (classic seeds have no movement chapter)"),
    borrowed(RuleDistance::FormationChangePrussian, 3.0, "000 §3.2 (classic seeds have no movement chapter)"),
    borrowed(RuleDistance::Disengage, 4.0, "000 §3.4 (classic seeds have no movement chapter)"),
    borrowed(RuleDistance::Withdraw, 6.0, "000 §3.4 (classic seeds have no movement chapter)"),
    borrowed(RuleDistance::FallBack, 8.0, "000 §3.4 (classic seeds have no movement chapter)"),
    borrowed(RuleDistance::Retreat, 10.0, "000 §3.4 (classic seeds have no movement chapter)"),
    borrowed(RuleDistance::Rout, 12.0, "000 §3.4 (classic seeds have no movement chapter)"),
    mm(RuleDistance::PrimaryContact, 25.0, "001 §4.1"),
    mm(RuleDistance::IncidentalContact, 50.0, "001 §4.1"),
    mm(RuleDistance::EmergencyRally, 80.0, "001 §4.5"),
    mm(RuleDistance::LeaderInjury, 80.0, "001 §4.6"),
    mm(RuleDistance::AdjoiningPanic, 80.0, "002 §5.2"),
    // The classic seeds hold no terrain table: line of sight borrows Republique 5.0's
    // spotting depths (a project default a club may change).
    DistanceEntry {
        name: RuleDistance::SpottingDepthTwoInches,
        measure: Measure::Inches(2.0),
        section: "000 §3.6 (classic seeds have no terrain table)",
        source: Source::ProjectDefault,
    },
    DistanceEntry {
        name: RuleDistance::SpottingDepthOneInch,
        measure: Measure::Inches(1.0),
        section: "000 §3.6 (classic seeds have no terrain table)",
        source: Source::ProjectDefault,
    },
    DistanceEntry {
        name: RuleDistance::SpottingDepthHalfInch,
        measure: Measure::Inches(0.5),
        section: "000 §3.6 (classic seeds have no terrain table)",
        source: Source::ProjectDefault,
    },
];

pub(super) static ANGLES: &[AngleEntry] =
    &[AngleEntry { name: RuleAngle::FacingArcSide, degrees: 45.0, section: "001 §4.1" }];
