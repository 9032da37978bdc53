//! Republique classic (1996-2003): seeds `001_068d9e9635d6c05e.txt` (assault) and
//! `002_1c04896a92ce3187.txt` (panic test). Metric distances at the medium scale.
//!
//! The seeds hold only the assault and panic chapters, so only their distances are
//! here; asking classic for an artillery distance is an error, not a guess.

use super::{AngleEntry, DistanceEntry, Measure, RuleAngle, RuleDistance, Source};

const fn mm(name: RuleDistance, value: f64, section: &'static str) -> DistanceEntry {
    DistanceEntry { name, measure: Measure::Millimetres(value), section, source: Source::Rule }
}

pub(super) static DISTANCES: &[DistanceEntry] = &[
    mm(RuleDistance::PrimaryContact, 25.0, "001 §4.1"),
    mm(RuleDistance::IncidentalContact, 50.0, "001 §4.1"),
    mm(RuleDistance::EmergencyRally, 80.0, "001 §4.5"),
    mm(RuleDistance::LeaderInjury, 80.0, "001 §4.6"),
    mm(RuleDistance::AdjoiningPanic, 80.0, "002 §5.2"),
    DistanceEntry {
        name: RuleDistance::ObstacleCover,
        measure: Measure::Millimetres(12.7),
        section: "001 §4.3 tactical bonus cover (distance not stated)",
        source: Source::ProjectDefault,
    },
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
