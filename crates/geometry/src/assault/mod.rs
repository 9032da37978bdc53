//! Assault geometry for the Republique family: zones and contacts, flank and rear,
//! outnumbering inputs, cover, and classic Republique's facing arc.
//!
//! - [`zone`]: the general and all-out zones of one front base.
//! - [`contact`]: who is in range of whom, the contact face, the primary defender.
//! - [`flank`]: a unit's flank line and rear zone.
//! - [`aspect`]: front, flank or rear, with each rule set's exceptions.
//! - [`outnumbering`]: bases each side brings; Republic's unopposed overlap.
//! - [`cover`]: cover fractions and the §5.4 in-cover test.
//! - [`classic`]: classic Republique's facing arc, primary and incidental contact.
//! - [`assessment`]: the whole table's assault findings per rule set, with the
//!   outnumbering of each group ([`assessment::assess_assaults`]).
//!
//! [`assaults`] puts the first five together for a whole table.

pub mod aspect;
pub mod assessment;
pub mod classic;
pub mod contact;
pub mod cover;
pub mod cover_call;
pub mod flank;
pub mod outnumbering;
pub mod zone;

use crate::error::GeometryError;
use crate::index::SpatialIndex;
use crate::rules::{RuleBook, RuleSet};
use crate::table::Table;
use aspect::{AttackAspect, DefenderStanding, FlankExceptions, aspect_of, is_in_square};
use contact::{Contact, DefenderRole, assault_contacts};
use cover::{CoverVerdict, in_buildings, unit_cover};
use flank::FlankGeometry;
use outnumbering::{BaseCounting, Overlap, unopposed_overlap};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use zone::AssaultRange;

/// One attacker against one defender, with everything the assault phase measures.
#[derive(Debug, Clone, PartialEq)]
pub struct Assault {
    /// Range, contact face, primary or supporting.
    pub contact: Contact,
    /// Front, flank or rear.
    pub aspect: AttackAspect,
    /// The assault on the attacker's primary defender mixes all-out and general attackers
    /// (000 §5.2 "Mixed Assaults").
    pub mixed: bool,
    /// Bases the attacker brings (its side's [`BaseCounting`]).
    pub attacker_bases: usize,
    /// Bases the defender brings against this attacker.
    pub defender_bases: usize,
    /// The defender's §5.4 cover, by its bases or by the bases met (its contact face).
    pub defender_cover: Option<CoverVerdict>,
    /// The attacker's §5.4 cover, by its bases or its contact face.
    pub attacker_cover: Option<CoverVerdict>,
    /// Republic only, primary defenders only: the attacker's unopposed overlap (003 501).
    pub overlap: Vec<Overlap>,
}

/// Everyone assaulting one primary defender: the outnumbering inputs of one assault.
#[derive(Debug, Clone, PartialEq)]
pub struct AssaultGroup {
    /// The primary defender's unit index.
    pub defender: usize,
    /// Attackers whose primary defender it is (unit indices).
    pub attackers: Vec<usize>,
    /// Supporting defenders met by those attackers (unit indices).
    pub supporting: Vec<usize>,
    /// Some attackers all-out, others general.
    pub mixed: bool,
    /// Total attacker bases.
    pub attacker_bases: usize,
    /// Total defender bases: the primary defender's, plus the supporting bases met.
    pub defender_bases: usize,
}

/// How a side counts bases, from the table's side settings (whole units unless the
/// side is marked with Republic 102 C).
#[must_use]
pub fn counting_of(table: &Table, side: &str) -> BaseCounting {
    table.sides.get(side).and_then(|s| s.base_counting).unwrap_or_default()
}

/// How much [`assaults`] measures beyond contacts, aspects, mixed flags and base counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AssaultDetail {
    /// Contacts and aspects only: cover and overlap are left empty (the benchmark's "all
    /// contacts and aspects").
    ContactsAndAspects,
    /// Also both sides' §5.4 cover and, for Republic, unopposed overlap.
    WithCoverAndOverlap,
}

/// Every assault on the table: contacts with aspect, mixed flag, base counts and (at
/// [`AssaultDetail::WithCoverAndOverlap`]) cover and overlap.
pub fn assaults(
    table: &Table,
    index: &SpatialIndex,
    book: &RuleBook,
    detail: AssaultDetail,
) -> Result<Vec<Assault>, GeometryError> {
    let contacts = assault_contacts(table, index, book)?;
    let exceptions = FlankExceptions::for_rules(book.rules());
    // Mixed: per primary defender, the ranges of its primary attackers.
    let mut ranges: HashMap<usize, BTreeSet<AssaultRange>> = HashMap::new();
    for c in contacts.iter().filter(|c| c.role == DefenderRole::Primary) {
        ranges.entry(c.defender).or_default().insert(c.range);
    }
    let primaries: HashMap<usize, Vec<usize>> =
        contacts.iter().filter(|c| c.role == DefenderRole::Primary).fold(HashMap::new(), |mut m, c| {
            m.entry(c.attacker).or_insert_with(Vec::new).push(c.defender);
            m
        });
    let mut lines: HashMap<usize, Option<FlankGeometry>> = HashMap::new();
    let mut standing: HashMap<usize, DefenderStanding> = HashMap::new();
    let mut out = Vec::with_capacity(contacts.len());
    for c in contacts {
        let a = &table.units[c.attacker];
        let d = &table.units[c.defender];
        let l = lines.entry(c.defender).or_insert_with(|| FlankGeometry::of(&d.bases));
        let s = *standing.entry(c.defender).or_insert_with(|| DefenderStanding {
            kind: d.kind,
            in_square: is_in_square(table, c.defender),
            in_buildings: in_buildings(d, &table.terrain),
        });
        let aspect = match l {
            Some(l) => aspect_of(a, l, &s, exceptions),
            None => continue,
        };
        let mixed = primaries
            .get(&c.attacker)
            .is_some_and(|ds| ds.iter().any(|d| ranges.get(d).is_some_and(|r| r.len() > 1)));
        let attacker_bases = counting_of(table, &a.side).attacker_bases(a, &c);
        let defender_bases = counting_of(table, &d.side).defender_bases(d, &c);
        let (defender_cover, attacker_cover, overlap) = if detail == AssaultDetail::WithCoverAndOverlap {
            (
                unit_cover(d, &c.defender_bases_met, &table.terrain, book)?,
                unit_cover(a, &c.contact_face, &table.terrain, book)?,
                if book.rules() == RuleSet::Republic && c.role == DefenderRole::Primary {
                    unopposed_overlap(table, index, book, c.attacker, c.defender)?
                } else {
                    Vec::new()
                },
            )
        } else {
            (None, None, Vec::new())
        };
        out.push(Assault {
            contact: c,
            aspect,
            mixed,
            attacker_bases,
            defender_bases,
            defender_cover,
            attacker_cover,
            overlap,
        });
    }
    Ok(out)
}

/// The assaults grouped by primary defender, with the outnumbering totals.
#[must_use]
pub fn groups(table: &Table, assaults: &[Assault]) -> Vec<AssaultGroup> {
    let mut by_defender: BTreeMap<usize, Vec<&Assault>> = BTreeMap::new();
    for a in assaults.iter().filter(|a| a.contact.role == DefenderRole::Primary) {
        by_defender.entry(a.contact.defender).or_default().push(a);
    }
    by_defender
        .into_iter()
        .map(|(d, primary)| {
            let attackers: Vec<usize> = primary.iter().map(|a| a.contact.attacker).collect();
            let ranges: BTreeSet<AssaultRange> = primary.iter().map(|a| a.contact.range).collect();
            let attacker_bases = primary.iter().map(|a| a.attacker_bases).sum();
            let defender = &table.units[d];
            let primary_bases =
                primary.iter().map(|a| a.defender_bases).max().unwrap_or(defender.bases.len());
            // Supporting bases met by any of these attackers, each base once.
            let mut met: BTreeMap<usize, BTreeSet<usize>> = BTreeMap::new();
            for s in assaults.iter().filter(|s| {
                s.contact.role == DefenderRole::Supporting && attackers.contains(&s.contact.attacker)
            }) {
                met.entry(s.contact.defender)
                    .or_default()
                    .extend(s.contact.defender_bases_met.iter().copied());
            }
            met.remove(&d);
            AssaultGroup {
                defender: d,
                attackers,
                supporting: met.keys().copied().collect(),
                mixed: ranges.len() > 1,
                attacker_bases,
                defender_bases: primary_bases + met.values().map(BTreeSet::len).sum::<usize>(),
            }
        })
        .collect()
}
