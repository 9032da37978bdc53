//! Outnumbering inputs (000 §5.1, §5.2, §5.4 "Outnumbering Ratio"; 003 102 C; 003 501).
//!
//! - Republique 5.0: "Attackers and defenders count all of their bases toward the assault
//!   strength total"; a supporting defender counts "only those supporting bases" that are
//!   in the attacker's zone and not blocked (§5.2).
//! - Republic 102 C (grand-tactical inexperience, per side): "For infantry units, only
//!   individual bases (instead of whole units) are counted toward assault combat, and then
//!   only if they are individually within assault range." An attacker's bases in range
//!   are its contact face; a defender's, the bases met in the attacker's zones.
//! - Republic 501 unopposed overlap: see [`unopposed_overlap`].

use crate::assault::contact::{Contact, DefenderRole};
use crate::assault::flank::FlankSide;
use crate::assault::zone::{AssaultRange, AssaultZone};
use crate::error::GeometryError;
use crate::frame::UnitFrame;
use crate::index::SpatialIndex;
use crate::rules::RuleBook;
use crate::table::{Table, Unit, UnitKind};
use crate::ties::{TIE_MM, at_least};
use serde::{Deserialize, Serialize};

/// How a side counts its bases in an assault (a strategy value).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum BaseCounting {
    /// Every base of every unit in range (000 §5.1).
    #[default]
    WholeUnits,
    /// Republic 102 C: infantry counts only its bases individually within assault range
    /// (cavalry and artillery still count whole units).
    IndividualBases,
}

impl BaseCounting {
    /// The bases an attacker brings against a defender.
    #[must_use]
    pub fn attacker_bases(self, attacker: &Unit, contact: &Contact) -> usize {
        match self {
            BaseCounting::IndividualBases if attacker.kind == UnitKind::Infantry => {
                contact.contact_face.len()
            }
            _ => attacker.bases.len(),
        }
    }

    /// The bases a defender brings against an attacker: all of a primary defender, only
    /// the bases met in the zone of a supporting one.
    #[must_use]
    pub fn defender_bases(self, defender: &Unit, contact: &Contact) -> usize {
        match (contact.role, self) {
            (DefenderRole::Supporting, _) => contact.defender_bases_met.len(),
            (DefenderRole::Primary, BaseCounting::IndividualBases) if defender.kind == UnitKind::Infantry => {
                contact.defender_bases_met.len()
            }
            (DefenderRole::Primary, _) => defender.bases.len(),
        }
    }
}

/// One side of a unit's frontage reaching past its opponent's (003 501).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Overlap {
    /// Which of the overlapping unit's flanks.
    pub side: FlankSide,
    /// How far its face reaches past the opponent's face on that side, mm.
    pub overlap_mm: f64,
    /// No enemy combat base (other than the opponent's) faces any overlapping base within
    /// general assault range.
    pub unopposed: bool,
}

/// Republic 501 "Unopposed Overlap": the sides on which `unit`'s frontage is at least
/// half a base wider than its opponent's, when it is at least as wide on the other side.
///
/// Frontages are the faces' lateral extents in `unit`'s frame (the opponent's face
/// projected onto it); "half a base" is half the width of `unit`'s outermost front base
/// on that side; at exactly half a base the overlap counts ([`at_least`]). The
/// overlapping bases are `unit`'s front bases reaching past the opponent's edge; the
/// side is unopposed when no enemy combat base of another unit has one of them in its
/// general assault zone ("any enemy combat bases facing within general assault range").
/// Empty when neither side qualifies.
pub fn unopposed_overlap(
    table: &Table,
    index: &SpatialIndex,
    book: &RuleBook,
    unit: usize,
    opponent: usize,
) -> Result<Vec<Overlap>, GeometryError> {
    let (Some(u), Some(o)) = (table.units.get(unit), table.units.get(opponent)) else {
        return Ok(Vec::new());
    };
    let Some(frame) = UnitFrame::of(&u.bases) else { return Ok(Vec::new()) };
    let span = |bases: &[crate::base::Base], idx: &[usize]| {
        idx.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), &i| {
            let c = bases[i].corners();
            let a = frame.to_local(c.front_left).x;
            let b = frame.to_local(c.front_right).x;
            (l.min(a.min(b)), h.max(a.max(b)))
        })
    };
    let uf = u.front_bases();
    let of = o.front_bases();
    let (ul, ur) = span(&u.bases, &uf);
    let (ol, or) = span(&o.bases, &of);
    let left = ol - ul;
    let right = ur - or;
    let general = book.distance_mm(crate::rules::RuleDistance::GeneralAssault)?;
    let mut out = Vec::new();
    for (side, over, other) in [(FlankSide::Left, left, right), (FlankSide::Right, right, left)] {
        // The outermost front base on this side.
        let outer = uf.iter().copied().min_by(|&a, &b| {
            let xa = frame.to_local(u.bases[a].centre()).x;
            let xb = frame.to_local(u.bases[b].centre()).x;
            if side == FlankSide::Left { xa.total_cmp(&xb) } else { xb.total_cmp(&xa) }
        });
        let Some(outer) = outer else { continue };
        let half = u.bases[outer].width() / 2.0;
        if !(at_least(over, half) && other >= -TIE_MM) {
            continue;
        }
        let overlapping: Vec<usize> = uf
            .iter()
            .copied()
            .filter(|&i| {
                let c = u.bases[i].corners();
                let a = frame.to_local(c.front_left).x;
                let b = frame.to_local(c.front_right).x;
                match side {
                    FlankSide::Left => a.min(b) < ol - TIE_MM,
                    FlankSide::Right => a.max(b) > or + TIE_MM,
                }
            })
            .collect();
        let mut opposed = false;
        'bases: for &i in &overlapping {
            let b = &u.bases[i];
            for n in index.within_of_base(crate::table::BaseRef::new(unit, i), general * 1.01 + 1.0) {
                let e = &table.units[n.base.unit];
                if n.base.unit == opponent || !index.are_enemies(unit, n.base.unit) || !e.is_combat() {
                    continue;
                }
                if !e.front_bases().contains(&n.base.base) {
                    continue;
                }
                let zone = AssaultZone::of(&e.bases[n.base.base], AssaultRange::General, book)?;
                if zone.reaches(b) {
                    opposed = true;
                    break 'bases;
                }
            }
        }
        out.push(Overlap { side, overlap_mm: over, unopposed: !opposed });
    }
    Ok(out)
}
