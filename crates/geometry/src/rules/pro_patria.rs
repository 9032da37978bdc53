//! Pro Patria! (2005): seed `004_dda743fb3709e8ce.txt`. Every distance is given twice,
//! for 25/28 mm figures and (in brackets) for 15 mm figures; the pairs are not one ratio
//! (400→250 but 1200→720), so each is stored as the rule states it.

use super::{AngleEntry, DistanceEntry, Measure, RuleAngle, RuleDistance, Source};

const fn pair(name: RuleDistance, large_mm: f64, small_mm: f64, section: &'static str) -> DistanceEntry {
    DistanceEntry { name, measure: Measure::Paired { large_mm, small_mm }, section, source: Source::Rule }
}

const fn angle(name: RuleAngle, degrees: f64, section: &'static str) -> AngleEntry {
    AngleEntry { name, degrees, section }
}

pub(super) static DISTANCES: &[DistanceEntry] = &[
    pair(RuleDistance::CommandRadius, 400.0, 250.0, "004 §14.2"),
    pair(RuleDistance::Visibility, 1200.0, 720.0, "004 §16.3"),
    pair(RuleDistance::VisibleInHeavyCover, 100.0, 60.0, "004 §16.3"),
    pair(RuleDistance::VisibleInLightCover, 150.0, 90.0, "004 §16.3"),
    pair(RuleDistance::SkirmisherVisibleInCover, 50.0, 30.0, "004 §16.3"),
    pair(RuleDistance::CrestLine, 25.0, 15.0, "004 §15.1"),
    pair(RuleDistance::HighHillSeesPast, 200.0, 120.0, "004 §15.7-15.8"),
    pair(RuleDistance::ContactEdge, 30.0, 20.0, "004 §17.4.2"),
    pair(RuleDistance::NoApproach, 25.0, 15.0, "004 §17.4"),
    pair(RuleDistance::BombardmentDepth, 150.0, 90.0, "004 §19.6"),
    pair(RuleDistance::EndangeredNearTarget, 100.0, 60.0, "004 §17.3.7"),
    pair(RuleDistance::HighHillMinimumRange, 150.0, 90.0, "004 §17.3.7"),
    pair(RuleDistance::ChargeHalt, 50.0, 30.0, "004 §17.4.9"),
    pair(RuleDistance::OpportunityCharge, 50.0, 30.0, "004 §17.4.10"),
    pair(RuleDistance::ForcedMarchClearance, 300.0, 180.0, "004 §17.4.5"),
    pair(RuleDistance::SkirmishGap, 30.0, 20.0, "004 §12.4"),
    pair(RuleDistance::BehindCover, 25.0, 15.0, "004 §15.11"),
    pair(RuleDistance::CaughtByInfantry, 50.0, 30.0, "004 §17.2.3"),
    pair(RuleDistance::CaughtByCavalry, 150.0, 90.0, "004 §17.2.3"),
    pair(RuleDistance::FastTarget, 200.0, 120.0, "004 §13.4"),
];

pub(super) static ANGLES: &[AngleEntry] = &[
    angle(RuleAngle::FiringArcSide, 22.5, "004 §17.3"),
    angle(RuleAngle::SkirmisherArcSide, 90.0, "004 §17.3"),
    angle(RuleAngle::FieldOfViewSide, 90.0, "004 §16.3"),
];
