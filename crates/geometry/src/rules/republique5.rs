//! Republique 5.0 (2024): seed `000_c088b3984e35cbfe.txt`. Inches at the medium scale.

use super::{AngleEntry, ArtilleryWeight, DistanceEntry, Measure, RuleAngle, RuleDistance, Source};

const fn inches(name: RuleDistance, value: f64, section: &'static str) -> DistanceEntry {
    DistanceEntry { name, measure: Measure::Inches(value), section, source: Source::Rule }
}

const fn default_inches(name: RuleDistance, value: f64, section: &'static str) -> DistanceEntry {
    DistanceEntry { name, measure: Measure::Inches(value), section, source: Source::ProjectDefault }
}

const fn angle(name: RuleAngle, degrees: f64, section: &'static str) -> AngleEntry {
    AngleEntry { name, degrees, section }
}

pub(super) static DISTANCES: &[DistanceEntry] = &[
    inches(RuleDistance::GeneralAssault, 3.0, "000 §5.1"),
    inches(RuleDistance::AllOutAssault, 1.5, "000 §5.1"),
    inches(RuleDistance::RangeBracket, 2.0, "000 §4.3"),
    inches(RuleDistance::DeepTargetWindow, 4.0, "000 §4.3"),
    inches(RuleDistance::TandemTarget, 4.0, "000 §4.5"),
    // 000 §4.5 names adjacent targets "next to" the main target without a distance: the
    // project reads it as within one range bracket (2"), edge to edge.
    default_inches(RuleDistance::AdjacentTarget, 2.0, "000 §4.5 (\"next to\": project reading)"),
    inches(RuleDistance::UnlimberFrench, 1.5, "000 §3.6"),
    inches(RuleDistance::UnlimberPrussian, 3.0, "000 §3.6"),
    inches(RuleDistance::FormationChangeFrench, 1.5, "000 §3.2"),
    inches(RuleDistance::FormationChangePrussian, 3.0, "000 §3.2"),
    inches(RuleDistance::DeploymentArea, 3.0, "000 §2.1"),
    inches(RuleDistance::LeaderRallyMove, 3.0, "000 §1.7"),
    inches(RuleDistance::RallyStep, 4.0, "000 §2.2"),
    inches(RuleDistance::HorsDeCombat, 3.0, "000 §4.7"),
    inches(RuleDistance::HorsDeCombatMove, 12.0, "000 §4.7"),
    inches(RuleDistance::LeaderAssaultBonus, 3.0, "000 §5.4"),
    inches(RuleDistance::OfficerCarryPosition, 2.0, "000 §5.5"),
    inches(RuleDistance::DivisionsTogether, 6.0, "000 §3.3"),
    inches(RuleDistance::CorpsCommander, 12.0, "000 §3.3"),
    inches(RuleDistance::EngagementRange, 8.0, "000 §3.3"),
    inches(RuleDistance::HoldMove, 4.0, "000 §3.3"),
    inches(RuleDistance::FootMove, 8.0, "000 §3.1"),
    inches(RuleDistance::HorseMove, 15.0, "000 §3.1"),
    inches(RuleDistance::FootChargeBonus, 4.0, "000 §3.1"),
    inches(RuleDistance::HorseChargeBonus, 8.0, "000 §3.1"),
    inches(RuleDistance::LeaderMove, 24.0, "000 §3.1"),
    inches(RuleDistance::FormationChangeCostFrench, 2.0, "000 §3.2, §3.5"),
    inches(RuleDistance::FormationChangeCostPrussian, 4.0, "000 §3.2, §3.5"),
    inches(RuleDistance::CavalryReaction, 6.0, "000 §3.6"),
    inches(RuleDistance::SkirmisherParent, 3.0, "000 §3.6"),
    inches(RuleDistance::SkirmisherSpacing, 3.0, "000 §3.6"),
    inches(RuleDistance::SkirmishEngagement, 3.0, "000 §4.1"),
    inches(RuleDistance::PassThroughFoot, 3.0, "000 §5.5"),
    inches(RuleDistance::PassThroughHorse, 6.0, "000 §5.5"),
    inches(RuleDistance::AdjoiningDivisions, 3.0, "000 §6.2"),
    inches(RuleDistance::MovingCavalry, 12.0, "000 §4.3"),
    inches(RuleDistance::Disengage, 4.0, "000 §3.4"),
    inches(RuleDistance::Withdraw, 6.0, "000 §3.4"),
    inches(RuleDistance::FallBack, 8.0, "000 §3.4"),
    inches(RuleDistance::Retreat, 10.0, "000 §3.4"),
    inches(RuleDistance::Rout, 12.0, "000 §3.4"),
    inches(RuleDistance::StreamBankStandOff, 1.0, "000 §3.6 note 2"),
    inches(RuleDistance::SpottingDepthTwoInches, 2.0, "000 §3.6 terrain effects"),
    inches(RuleDistance::SpottingDepthOneInch, 1.0, "000 §3.6 terrain effects"),
    inches(RuleDistance::SpottingDepthHalfInch, 0.5, "000 §3.6 terrain effects"),
    // The combat chart with the real range columns is not in the seeds (000 §4.2 refers
    // to it). These defaults are the project's: 2" brackets up to 16" for heavy guns,
    // one bracket less per weight class. A table file may override them.
    default_inches(RuleDistance::MaxRange(ArtilleryWeight::Heavy), 16.0, "000 §4.2 (chart not in seed)"),
    default_inches(RuleDistance::MaxRange(ArtilleryWeight::Medium), 14.0, "000 §4.2 (chart not in seed)"),
    default_inches(RuleDistance::MaxRange(ArtilleryWeight::Light), 12.0, "000 §4.2 (chart not in seed)"),
    default_inches(RuleDistance::MaxRange(ArtilleryWeight::VeryLight), 10.0, "000 §4.2 (chart not in seed)"),
];

pub(super) static ANGLES: &[AngleEntry] = &[
    angle(RuleAngle::ArcOfFireSide, 30.0, "000 §4.2, §4.5"),
    angle(RuleAngle::FiringZoneSide, 5.0, "000 §4.5"),
    angle(RuleAngle::AssaultZoneFlare, 5.0, "000 §5.1"),
    angle(RuleAngle::ObliqueMove, 45.0, "000 §3.3"),
    angle(RuleAngle::ManeuverTurn, 45.0, "000 §3.3"),
    angle(RuleAngle::ArtilleryReface, 45.0, "000 §5.2"),
];
