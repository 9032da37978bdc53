//! Skirmish fire (Republique 5.0 §4.1; Republic alike): which enemy bases a skirmish
//! marker may fire on, and which enemy marker it blocks.
//!
//! "Attacking skirmish markers not blocked by defending enemy skirmishers may fire on
//! enemy combat bases within 3". The attacking skirmish markers must have line-of-sight
//! to their target." "Skirmish bases cannot score M hits on other skirmish markers."
//! "A defending skirmish marker may attempt to block the closest enemy skirmish marker
//! that is within 3" of it. A blocked skirmish marker may not attack enemy combat bases
//! that turn." "Defending skirmish markers that are opposed (within 3") by enemy combat
//! bases during the enemy player turn, may fire on those bases ... if there are no enemy
//! skirmish markers within the standard 3" engagement range for blocking actions."
//!
//! Readings:
//! - Distances are marker base edge to target base edge; exactly 3" is within
//!   ([`crate::ties::within`]). The target is the unit ("M hits on the defending unit"):
//!   a unit is a target when some base of it within 3" is seen.
//! - Line of sight is the terrain line of sight `vedette los` decides for a skirmish
//!   marker spotting from its base ([`TerrainSight::base_verdict`]): every combat base,
//!   friendly or enemy, blocks it (000 §4.1), and so do terrain and spotting depth.
//! - Who attacks and who defends changes with the player turn, so each marker is
//!   assessed both ways: whom it blocks when defending, who may block it when attacking
//!   (every enemy marker whose closest enemy marker within 3" it is), whether it may fire
//!   when attacking (unblocked, with a target) and whether it may return defensive fire
//!   (a target and no enemy marker within 3").
//! - The closest enemy marker: ties go to the lower base reference.

use crate::close_call::{CloseCall, near_band_mm};
use crate::error::GeometryError;
use crate::index::SpatialIndex;
use crate::los::TerrainSight;
use crate::los::local_calls::base_sight_call;
use crate::rules::{RuleBook, RuleDistance};
use crate::table::{BaseRef, Table, UnitKind};
use crate::ties::within;
use std::collections::BTreeMap;

/// What one skirmish marker may do in the fire phase.
#[derive(Debug, Clone, PartialEq)]
pub struct SkirmishFire {
    /// The marker base.
    pub marker: BaseRef,
    /// Enemy combat units with a base within 3" that it sees (the unit takes the hits),
    /// nearest first, with the distance of that nearest seen base, mm.
    pub targets: Vec<(usize, f64)>,
    /// When defending: the closest enemy marker within 3", which it blocks.
    pub blocks: Option<(BaseRef, f64)>,
    /// When attacking: the enemy markers that block it (their closest enemy marker within
    /// 3" is this one).
    pub blocked_by: Vec<BaseRef>,
    /// Some enemy marker stands within 3".
    pub opposed_by_markers: bool,
    /// The close call of each target's sight (in the order of `targets`): every base
    /// grown or shrunk against "some base within 3" seen" ([`base_sight_call`]).
    pub target_calls: Vec<CloseCall>,
    /// Enemy combat units with a base within 3" that the marker does not see, but too
    /// close to call (only on a table whose bases carry uncertainties), with the
    /// distance of their nearest base within 3", mm, and the call.
    pub unseen: Vec<(usize, f64, CloseCall)>,
}

impl SkirmishFire {
    /// As the attacker: it has a target and no enemy marker blocks it.
    #[must_use]
    pub fn may_fire_attacking(&self) -> bool {
        !self.targets.is_empty() && self.blocked_by.is_empty()
    }

    /// As the defender: enemy combat bases within 3" and seen, and no enemy marker within
    /// 3" (defensive fire).
    #[must_use]
    pub fn defensive_fire(&self) -> bool {
        !self.targets.is_empty() && !self.opposed_by_markers
    }
}

/// Every skirmish marker base's fire options on the table, in base order.
pub fn skirmish_fire(
    table: &Table,
    index: &SpatialIndex,
    book: &RuleBook,
    sight: &TerrainSight,
) -> Result<Vec<SkirmishFire>, GeometryError> {
    let reach = book.distance_mm(RuleDistance::SkirmishEngagement)?;
    let markers: Vec<BaseRef> = table
        .units
        .iter()
        .enumerate()
        .filter(|(_, u)| u.kind == UnitKind::Skirmisher)
        .flat_map(|(ui, u)| (0..u.bases.len()).map(move |bi| BaseRef::new(ui, bi)))
        .collect();
    // Sight verdicts just hidden are looked for only where bases carry uncertainties.
    let scanned = near_band_mm(table) > 0.0;
    // `markers` is in base order, so a marker's place is found by binary search.
    let mut out: Vec<SkirmishFire> = Vec::with_capacity(markers.len());
    for &m in &markers {
        let mut targets = Vec::new();
        let mut blocks: Option<(BaseRef, f64)> = None;
        let mut opposed_by_markers = false;
        // Every enemy combat unit with bases within 3": those bases, nearest first.
        let mut within_reach: BTreeMap<usize, Vec<(f64, BaseRef)>> = BTreeMap::new();
        for n in index.within_of_base(m, reach + 1.0) {
            let d = n.closest.distance_mm;
            if !within(d, reach) || !index.are_enemies(m.unit, n.base.unit) {
                continue;
            }
            let e = &table.units[n.base.unit];
            if e.kind == UnitKind::Skirmisher {
                opposed_by_markers = true;
                if blocks.is_none_or(|(br, bd)| d < bd || (d == bd && n.base < br)) {
                    blocks = Some((n.base, d));
                }
                continue;
            }
            if !e.is_combat() {
                continue;
            }
            within_reach.entry(n.base.unit).or_default().push((d, n.base));
            if targets.iter().all(|&(u, td)| u != n.base.unit || d < td)
                && sight.base_verdict(m, n.base).is_some_and(|v| v.visible)
            {
                targets.retain(|&(u, _)| u != n.base.unit);
                targets.push((n.base.unit, d));
            }
        }
        targets.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
        let bases_of = |u: usize| -> Vec<BaseRef> {
            let mut v = within_reach.get(&u).cloned().unwrap_or_default();
            v.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            v.into_iter().map(|(_, r)| r).collect()
        };
        let target_calls = targets
            .iter()
            .map(|&(u, _)| base_sight_call(table, index, m, &bases_of(u), true))
            .collect::<Result<_, _>>()?;
        let mut unseen = Vec::new();
        if scanned {
            for (&u, bases) in &within_reach {
                if targets.iter().any(|&(t, _)| t == u) {
                    continue;
                }
                let call = base_sight_call(table, index, m, &bases_of(u), false)?;
                if !call.certain() {
                    let d = bases.iter().map(|b| b.0).fold(f64::INFINITY, f64::min);
                    unseen.push((u, d, call));
                }
            }
        }
        out.push(SkirmishFire {
            marker: m,
            targets,
            blocks,
            blocked_by: Vec::new(),
            opposed_by_markers,
            target_calls,
            unseen,
        });
    }
    for i in 0..out.len() {
        if let Some((b, _)) = out[i].blocks
            && let Ok(j) = markers.binary_search(&b)
        {
            let by = out[i].marker;
            out[j].blocked_by.push(by);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::{Base, BaseSize, Pose};
    use crate::table::Unit;
    use crate::vec2::Vec2;
    use crate::{RuleSet, Scale};

    const IN: f64 = 25.4;

    fn b(x: f64, y: f64, h: f64, w: f64, d: f64) -> Base {
        Base::new(BaseSize::new(w, d), Pose::new(Vec2::new(x, y), h))
    }

    /// A French marker (20 x 20, front edge y = 10) at the origin facing +y, and `others`.
    fn fire(others: Vec<Unit>, turn: f64) -> Vec<SkirmishFire> {
        let mut units =
            vec![Unit::new("fr-sk", "fr", UnitKind::Skirmisher, vec![b(0.0, 0.0, 90.0, 20.0, 20.0)])];
        units.extend(others);
        for u in &mut units {
            for base in &mut u.bases {
                let c = Vec2::new(900.0, 600.0) + base.centre().rotated_deg(turn);
                *base = b(c.x, c.y, base.heading_deg() + turn, base.width(), base.depth());
            }
        }
        let table = Table::new(RuleSet::Republique5, Scale::Medium, units);
        let index = SpatialIndex::new(&table);
        let sight = TerrainSight::try_new(&index).unwrap();
        skirmish_fire(&table, &index, &table.rule_book().unwrap(), &sight).unwrap()
    }

    /// An Austrian 30 x 20 infantry base whose near edge is `gap` ahead of the marker.
    fn enemy_at(id: &str, x: f64, gap: f64) -> Unit {
        Unit::new(id, "au", UnitKind::Infantry, vec![b(x, 10.0 + gap + 10.0, 270.0, 30.0, 20.0)])
    }

    #[test]
    fn fires_on_enemy_combat_bases_within_three_inches_that_it_sees() {
        for turn in [0.0, 47.0, 180.0] {
            // 2.99" and 3.01" (the tie rule: exactly 3" is within).
            let f = fire(vec![enemy_at("au-1", 0.0, 2.99 * IN), enemy_at("au-2", 50.0, 0.0)], turn);
            assert_eq!(f[0].targets.iter().map(|t| t.0).collect::<Vec<_>>(), vec![2, 1], "{turn}");
            let f = fire(vec![enemy_at("au-1", 0.0, 3.01 * IN)], turn);
            assert!(f[0].targets.is_empty());
            // A friendly infantry line (90 mm wide) between them blocks the marker's sight.
            let screen = Unit::new(
                "fr-1",
                "fr",
                UnitKind::Infantry,
                (0..3).map(|i| b(-30.0 + 30.0 * f64::from(i), 35.0, 90.0, 30.0, 20.0)).collect(),
            );
            let f = fire(vec![enemy_at("au-1", 0.0, 2.5 * IN), screen], turn);
            assert!(f[0].targets.is_empty(), "{turn}: the friendly line hides the target");
        }
    }

    #[test]
    fn blocks_the_closest_enemy_marker_within_three_inches() {
        let marker = |id: &str, x: f64, gap: f64| {
            Unit::new(id, "au", UnitKind::Skirmisher, vec![b(x, 10.0 + gap + 10.0, 270.0, 20.0, 20.0)])
        };
        // Enemy markers 2" and 2.5" ahead, a third 3.1" away; an enemy base 1" ahead.
        let f = fire(
            vec![
                marker("au-sk1", -40.0, 2.0 * IN),
                marker("au-sk2", 40.0, 2.5 * IN),
                marker("au-sk3", 0.0, 3.1 * IN + 30.0),
                enemy_at("au-1", 0.0, 1.0 * IN),
            ],
            30.0,
        );
        assert_eq!(f[0].blocks.map(|b| b.0.unit), Some(1), "the closer of the two within 3\"");
        // Both enemy markers within 3" of it block it (it is the closest enemy marker of each).
        assert_eq!(f[0].blocked_by.iter().map(|r| r.unit).collect::<Vec<_>>(), vec![1, 2]);
        assert!(!f[0].may_fire_attacking(), "blocked");
        assert!(!f[0].defensive_fire(), "enemy markers within 3\"");
        // The enemy markers do not count as targets; the base 1" ahead does.
        assert_eq!(f[0].targets.iter().map(|t| t.0).collect::<Vec<_>>(), vec![4]);
        // Without the enemy markers: unblocked, it may fire both ways.
        let f = fire(vec![enemy_at("au-1", 0.0, 1.0 * IN)], 0.0);
        assert!(f[0].may_fire_attacking() && f[0].defensive_fire());
    }
}
