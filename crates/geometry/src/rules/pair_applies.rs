//! Which rule distances can apply between two units (issue 39 item 7): a measurement
//! between two infantry units in the open is not compared with a stream bank's stand-off
//! or a leader's reach. Each distance is read from its rule: who it is measured between
//! (enemies or friends, and which kinds), whether it is a move's length rather than a
//! distance between two units, and what terrain it needs near the pair.
//!
//! Readings (the project's; the rule of each distance is in [`RuleDistance`]'s docs):
//! - A distance between enemies needs the two units on different sides, one between
//!   friends on the same side; "one of them" kinds are checked on either unit.
//! - Move lengths (a leader's rally move, the retrograde moves, Hold, moving cavalry, a
//!   fast target) are never a distance between two units.
//! - A terrain distance needs a piece of that terrain near the pair: its outline's (or
//!   path's) box within the distance of the box of the two units' bases. The box test
//!   keeps every piece that is near and may keep one that is not (never the reverse).
//! - A distance this module does not know (a new rule's) applies.

use super::{ArtilleryWeight, RuleDistance};
use crate::table::{Table, UnitKind};
use crate::terrain::TerrainKind;
use crate::vec2::Vec2;

/// The two units a measurement is between, and what is near them.
#[derive(Debug, Clone)]
pub struct PairContext {
    /// The two units' kinds.
    pub kinds: [UnitKind; 2],
    /// Their artillery weights, where given.
    pub weights: [Option<ArtilleryWeight>; 2],
    /// On different sides.
    pub enemies: bool,
    /// The terrain pieces near the pair: their kind and the box of their outline or path.
    pub terrain: Vec<(TerrainKind, (Vec2, Vec2))>,
    /// The box of the two units' bases.
    pub pair_box: (Vec2, Vec2),
}

impl PairContext {
    /// The context of units `a` and `b` of `table` (indices; `None` when either is not a
    /// unit of it or has no bases).
    #[must_use]
    pub fn of(table: &Table, a: usize, b: usize) -> Option<PairContext> {
        let (ua, ub) = (table.units.get(a)?, table.units.get(b)?);
        let mut lo = Vec2::new(f64::INFINITY, f64::INFINITY);
        let mut hi = Vec2::new(f64::NEG_INFINITY, f64::NEG_INFINITY);
        for p in ua.bases.iter().chain(&ub.bases).flat_map(|x| x.vertices_ccw()) {
            lo = Vec2::new(lo.x.min(p.x), lo.y.min(p.y));
            hi = Vec2::new(hi.x.max(p.x), hi.y.max(p.y));
        }
        if lo.x > hi.x {
            return None;
        }
        let terrain = table
            .terrain
            .iter()
            .filter_map(|t| {
                let pts = if t.kind.is_linear() { &t.path } else { &t.outline };
                let first = *pts.first()?;
                let b = pts.iter().fold((first, first), |(l, h), p| {
                    (Vec2::new(l.x.min(p.x), l.y.min(p.y)), Vec2::new(h.x.max(p.x), h.y.max(p.y)))
                });
                Some((t.kind, b))
            })
            .collect();
        Some(PairContext {
            kinds: [ua.kind, ub.kind],
            weights: [ua.weight, ub.weight],
            enemies: ua.side != ub.side,
            terrain,
            pair_box: (lo, hi),
        })
    }

    fn either(&self, f: impl Fn(UnitKind) -> bool) -> bool {
        f(self.kinds[0]) || f(self.kinds[1])
    }

    fn both(&self, f: impl Fn(UnitKind) -> bool) -> bool {
        f(self.kinds[0]) && f(self.kinds[1])
    }

    /// A piece of terrain `kind` says yes to lies within `within_mm` of the pair's box.
    fn near(&self, within_mm: f64, kind: impl Fn(TerrainKind) -> bool) -> bool {
        let (lo, hi) = self.pair_box;
        self.terrain.iter().any(|&(k, (a, b))| {
            kind(k)
                && a.x <= hi.x + within_mm
                && b.x >= lo.x - within_mm
                && a.y <= hi.y + within_mm
                && b.y >= lo.y - within_mm
        })
    }
}

/// True when rule distance `name` (of length `limit_mm` on this table) can apply between
/// the two units of `pair` (see the module docs).
#[must_use]
pub fn applies_between(name: RuleDistance, limit_mm: f64, pair: &PairContext) -> bool {
    use RuleDistance as D;
    use UnitKind as K;
    let foot_or_horse = |k: UnitKind| matches!(k, K::Infantry | K::Cavalry);
    let combat = |k: UnitKind| matches!(k, K::Infantry | K::Cavalry | K::Artillery);
    let (enemies, friends) = (pair.enemies, !pair.enemies);
    let leader = pair.either(|k| k == K::Leader);
    match name {
        // Assault and contact (000 §5.1, 001 §4.1, 004 §17.4): an attacker on foot or
        // horse against an enemy.
        D::GeneralAssault
        | D::AllOutAssault
        | D::PrimaryContact
        | D::IncidentalContact
        | D::ContactEdge
        | D::ChargeHalt
        | D::OpportunityCharge => enemies && pair.either(foot_or_horse),
        D::CaughtByInfantry | D::BluffInfantry | D::AlertZone => enemies && pair.either(|k| k == K::Infantry),
        D::CaughtByCavalry | D::BluffCavalry | D::CavalryReaction => {
            enemies && pair.either(|k| k == K::Cavalry)
        }
        D::NoApproach | D::EngagementRange | D::Visibility | D::ForcedMarchClearance => {
            enemies && pair.either(combat)
        }
        D::FormationChangeFrench | D::FormationChangePrussian => enemies && pair.both(combat),
        // Artillery and its targets (000 §3.6, §4.2-4.5, 004 §17.3, §19.6).
        // A battery's maximum range is its weight's (any, when the table does not say).
        D::MaxRange(w) => {
            enemies && (0..2).any(|i| pair.kinds[i] == K::Artillery && pair.weights[i].is_none_or(|x| x == w))
        }
        D::RangeBracket
        | D::UnlimberFrench
        | D::UnlimberPrussian
        | D::BombardmentDepth
        | D::HighHillMinimumRange => enemies && pair.either(|k| k == K::Artillery),
        D::EndangeredNearTarget => enemies && pair.either(combat),
        D::DeepTargetWindow | D::TandemTarget | D::AdjacentTarget => friends && pair.both(combat),
        // Skirmishers (000 §3.6, §4.1, 003 101, 004 §12.4).
        D::SkirmishEngagement => enemies && pair.either(|k| k == K::Skirmisher),
        D::SkirmisherParent | D::CavalrySkirmisherParent => friends && pair.either(|k| k == K::Skirmisher),
        D::SkirmisherSpacing | D::SkirmishGap => friends && pair.both(|k| k == K::Skirmisher),
        D::SkirmisherHorsDeCombat => enemies && leader && pair.either(|k| k == K::Skirmisher),
        D::SharpshooterHorsDeCombat => enemies && leader,
        // Friends: divisions, support, pass-through (000 §2.1, §3.3, §5.5, §6.2, 002 §5.2,
        // 003 102 B).
        D::DivisionsTogether | D::AdjoiningDivisions | D::AdjoiningPanic | D::SupportBehind => {
            friends && pair.both(combat)
        }
        D::DeploymentArea => friends,
        D::PassThroughFoot => friends && pair.either(|k| matches!(k, K::Infantry | K::Artillery)),
        D::PassThroughHorse => friends && pair.either(|k| k == K::Cavalry),
        // Leaders (000 §1.7, §2.2-2.3, §3.3, §4.7, §5.4-5.5, 001 §4.5-4.6, 003 205, 004
        // §14.2).
        D::HorsDeCombat
        | D::RallyStep
        | D::OfficerCarryPosition
        | D::EmergencyRally
        | D::LeaderInjury
        | D::BrigadeReassignment
        | D::Commandeering
        | D::CommandRadius => friends && leader,
        D::LeaderAssaultBonus => leader,
        D::CorpsCommander => friends && pair.both(|k| k == K::Leader),
        // Moves, not distances between two units.
        D::LeaderRallyMove
        | D::HorsDeCombatMove
        | D::HoldMove
        | D::Disengage
        | D::Withdraw
        | D::FallBack
        | D::Retreat
        | D::Rout
        | D::MovingCavalry
        | D::FastTarget
        | D::FootMove
        | D::HorseMove
        | D::FootChargeBonus
        | D::HorseChargeBonus
        | D::LeaderMove
        | D::FormationChangeCostFrench
        | D::FormationChangeCostPrussian => false,
        // Terrain near the pair (000 §3.6, 003 308, 004 §15-16).
        D::StreamBankStandOff => pair.near(limit_mm, |k| k == TerrainKind::StreamBank),
        D::SpottingDepthTwoInches | D::SpottingDepthOneInch | D::SpottingDepthHalfInch => {
            pair.near(limit_mm, |k| k.properties().spotting_depth == Some(name))
        }
        D::GreenInWoods => friends && pair.near(limit_mm, is_woods),
        D::VisibleInHeavyCover | D::VisibleInLightCover | D::SkirmisherVisibleInCover | D::BehindCover => {
            pair.near(limit_mm, |k| is_woods(k) || k.is_buildings())
        }
        D::CrestLine | D::HighHillSeesPast => pair.near(limit_mm, |k| k == TerrainKind::Hill),
        #[allow(unreachable_patterns)] // A distance added later applies until it is read here.
        _ => true,
    }
}

fn is_woods(k: TerrainKind) -> bool {
    matches!(
        k,
        TerrainKind::LightForest
            | TerrainKind::MediumForest
            | TerrainKind::HeavyForest
            | TerrainKind::Orchard
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{RuleBook, RuleSet};
    use crate::scale::Scale;

    /// Two units at medium scale, `a` at (400, 200) facing +y and `b` 30 mm ahead of it,
    /// facing it; everything moved by `shift`; a stream bank `gap` mm beside `a`'s left
    /// edge (its box), when given.
    fn table(a: &str, b: &str, same_side: bool, bank_gap: Option<f64>, shift: f64) -> Table {
        let bank = bank_gap.map_or(String::new(), |g| {
            let x = 380.0 - g + shift;
            format!(
                r#","terrain":[{{"id":"bank","kind":"stream-bank","level":0,"path":[[{x},{}],[{x},{}]]}}]"#,
                100.0 + shift,
                300.0 + shift
            )
        });
        Table::from_json_str(&format!(
            r#"{{"schema":"vedette/table/1","rules":"republique5","scale":"medium","size":{{"width":1800,"depth":1200}},
            "units":[
              {{"id":"a","side":"fr","kind":"{a}","bases":[{{"x":{x},"y":{y0},"heading":90,"width":40,"depth":20}}]}},
              {{"id":"b","side":"{side}","kind":"{b}","bases":[{{"x":{x},"y":{y1},"heading":270,"width":40,"depth":20}}]}}
            ]{bank}}}"#,
            x = 400.0 + shift,
            y0 = 200.0 + shift,
            y1 = 250.0 + shift,
            side = if same_side { "fr" } else { "au" }
        ))
        .unwrap()
    }

    fn applies(t: &Table, name: RuleDistance) -> bool {
        let book = RuleBook::try_new(RuleSet::Republique5, Scale::Medium).unwrap();
        let limit = book.distance_mm(name).unwrap();
        applies_between(name, limit, &PairContext::of(t, 0, 1).unwrap())
    }

    #[test]
    fn two_enemy_infantry_units_in_the_open_meet_only_their_own_distances() {
        for shift in [0.0, 137.5] {
            let t = table("infantry", "infantry", false, None, shift);
            for yes in
                [RuleDistance::GeneralAssault, RuleDistance::AllOutAssault, RuleDistance::EngagementRange]
            {
                assert!(applies(&t, yes), "{yes:?}");
            }
            for no in [
                RuleDistance::StreamBankStandOff,
                RuleDistance::FootMove,
                RuleDistance::SpottingDepthOneInch,
                RuleDistance::CavalryReaction,
                RuleDistance::UnlimberFrench,
                RuleDistance::SkirmisherSpacing,
                RuleDistance::DivisionsTogether,
                RuleDistance::HorsDeCombat,
                RuleDistance::Retreat,
                RuleDistance::MaxRange(ArtilleryWeight::Heavy),
            ] {
                assert!(!applies(&t, no), "{no:?}");
            }
        }
    }

    #[test]
    fn a_stream_bank_applies_just_inside_its_stand_off_and_not_just_outside() {
        // The stand-off is 1" = 25.4 mm at medium scale (000 §3.6 note 2); the bank runs
        // beside a's left edge (x = 380), `gap` mm off it.
        for shift in [0.0, 211.0] {
            assert!(applies(
                &table("infantry", "infantry", false, Some(24.9), shift),
                RuleDistance::StreamBankStandOff
            ));
            assert!(!applies(
                &table("infantry", "infantry", false, Some(25.9), shift),
                RuleDistance::StreamBankStandOff
            ));
        }
    }

    #[test]
    fn kinds_and_sides_choose_the_distances() {
        let cav = table("cavalry", "infantry", false, None, 0.0);
        assert!(applies(&cav, RuleDistance::CavalryReaction));
        let friends = table("infantry", "infantry", true, None, 0.0);
        assert!(applies(&friends, RuleDistance::DivisionsTogether));
        assert!(!applies(&friends, RuleDistance::GeneralAssault));
        let leader = table("leader", "infantry", true, None, 0.0);
        assert!(applies(&leader, RuleDistance::HorsDeCombat));
        let guns = table("artillery", "infantry", false, None, 0.0);
        assert!(applies(&guns, RuleDistance::UnlimberFrench) && applies(&guns, RuleDistance::RangeBracket));
        assert!(applies(&guns, RuleDistance::MaxRange(ArtilleryWeight::Heavy)), "no weight given: any");
        let skirmish = table("skirmisher", "skirmisher", true, None, 0.0);
        assert!(applies(&skirmish, RuleDistance::SkirmisherSpacing));
    }
}
