//! Republic (American Civil War) advanced rules: seed `003_876c0f8a074e4dc7.txt`.
//! Inches at the medium scale; everything the seed does not name comes from Republique
//! 5.0 (see [`super::RuleSet::inherits`]).

use super::{AngleEntry, DistanceEntry, Measure, RuleDistance, Source};

const fn inches(name: RuleDistance, value: f64, section: &'static str) -> DistanceEntry {
    DistanceEntry { name, measure: Measure::Inches(value), section, source: Source::Rule }
}

pub(super) static DISTANCES: &[DistanceEntry] = &[
    inches(RuleDistance::CavalrySkirmisherParent, 6.0, "003 101"),
    inches(RuleDistance::SupportBehind, 1.0, "003 102 B"),
    inches(RuleDistance::AlertZone, 4.0, "003 201"),
    inches(RuleDistance::BrigadeReassignment, 12.0, "003 205A"),
    inches(RuleDistance::Commandeering, 6.0, "003 205B"),
    inches(RuleDistance::BluffInfantry, 1.0, "003 301"),
    inches(RuleDistance::BluffCavalry, 3.0, "003 301"),
    inches(RuleDistance::GreenInWoods, 4.0, "003 308"),
    inches(RuleDistance::SkirmisherHorsDeCombat, 4.0, "003 106"),
    inches(RuleDistance::SharpshooterHorsDeCombat, 6.0, "003 106"),
    inches(RuleDistance::EmergencyRally, 3.0, "003 508"),
];

pub(super) static ANGLES: &[AngleEntry] = &[];
