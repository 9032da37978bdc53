//! The assault assessment of a whole table, for its rule set: every contact with what
//! the assault phase measures about it, and the outnumbering of each assault group. The
//! report prints this; a viewer or another tool gets the same answers from here.
//!
//! - Republique 5.0 and Republic (000 §5.1-5.4, 003 501): every attacker-defender pair
//!   in the 3" zones ([`assaults`]), with range, contact face, primary or supporting,
//!   aspect, base counts, cover and (Republic) unopposed overlap; and the assault groups
//!   with their outnumbering ([`outnumbering`]).
//! - Classic Republique (001 §4.1, §4.3): every unit facing an enemy within 50 mm of its
//!   facing arc, primary or incidental, with the aspect under the classic exceptions; the
//!   contact face is the unit's front bases.
//! - Pro Patria (004 §17.4): units in contact (30 mm of edge, 20 for 15 mm figures), both
//!   ways; the contact face is the stands with edge contact against the enemy.

use super::aspect::{Aspect, AttackAspect, DefenderStanding, FlankExceptions, aspect_of, is_in_square};
use super::classic::{ClassicContactKind, classic_contacts};
use super::contact::DefenderRole;
use super::cover::{CoverVerdict, in_buildings};
use super::cover_call::cover_call;
use super::flank::FlankGeometry;
use super::outnumbering::Overlap;
use super::zone::AssaultRange;
use super::{AssaultDetail, AssaultGroup, assaults, groups};
use crate::base::Base;
use crate::close_call::{CloseCall, Party};
use crate::error::GeometryError;
use crate::index::SpatialIndex;
use crate::pro_patria::contact::{edge_contact_mm, proximities};
use crate::rules::{RuleBook, RuleDistance, RuleSet};
use crate::table::{BaseRef, Table};
use serde::Serialize;

/// How close a contact is, in the terms of the table's rule set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ContactRange {
    /// Republique 5.0 / Republic: within 1½".
    AllOut,
    /// Republique 5.0 / Republic: within 3".
    General,
    /// Classic: within 25 mm of the facing arc.
    Primary,
    /// Classic: 25-50 mm.
    Incidental,
    /// Pro Patria: 30 mm (20) of edge contact.
    Contact,
}

/// One attacker against one defender.
#[derive(Debug, Clone, PartialEq)]
pub struct AssaultFinding {
    /// The attacking unit's index.
    pub attacker: usize,
    /// The defending unit's index.
    pub defender: usize,
    /// All-out, general, primary, incidental or contact.
    pub range: ContactRange,
    /// Front, flank or rear after the rule set's exceptions; `None` when the defender
    /// has no front to measure from (no bases).
    pub aspect: Option<AttackAspect>,
    /// The attacker's bases on the contact face (indices into its bases).
    pub contact_face: Vec<usize>,
    /// Bases the attacker brings.
    pub attacker_bases: usize,
    /// Bases the defender brings against this attacker.
    pub defender_bases: usize,
    /// Republique 5.0 / Republic: primary or supporting defender.
    pub role: Option<DefenderRole>,
    /// How far apart, table mm (R5 family: ahead of the contact face to the defender;
    /// classic: the defender's part in the facing arc to the front bases; Pro Patria:
    /// closest distance, 0 in contact).
    pub distance_mm: f64,
    /// R5 family: the attacker's contact frontage with the defender; Pro Patria: the
    /// edge contact; mm.
    pub contact_frontage_mm: Option<f64>,
    /// The assault on the attacker's primary defender mixes all-out and general
    /// attackers (000 §5.2).
    pub mixed: bool,
    /// The defender's §5.4 cover (R5 family).
    pub defender_cover: Option<CoverVerdict>,
    /// The attacker's §5.4 cover (R5 family).
    pub attacker_cover: Option<CoverVerdict>,
    /// The close call of the defender's cover class (R5 family, on a table with
    /// terrain; [`cover_call`]).
    pub defender_cover_call: Option<CloseCall>,
    /// The close call of the attacker's cover class.
    pub attacker_cover_call: Option<CloseCall>,
    /// Republic 501: the attacker's overlap of its primary defender.
    pub overlap: Vec<Overlap>,
    /// The close call of the range against the nearer of the rule set's two limits,
    /// with that limit, mm ([`AssaultFinding::range_call`]; `None` for Pro Patria).
    pub range_call: Option<(f64, CloseCall)>,
    /// The close call of the geometric aspect ([`AssaultFinding::aspect_call`]).
    pub aspect_call: Option<CloseCall>,
}

/// Which side of an assault has fewer bases.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum AssaultSide {
    /// The attackers.
    Attacker,
    /// The defenders.
    Defender,
}

/// The outnumbering of one assault group (000 §5.4, 001 §4.3 "Outnumbering Ratio").
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Outnumbering {
    /// The larger base count over the smaller (1.5 = 3:2).
    pub ratio: f64,
    /// The side with fewer bases when the ratio is 3:2 or more.
    pub outnumbered: Option<AssaultSide>,
}

/// "The combatants with the lesser number of bases will subtract from the die roll if
/// the outnumbered ratio is equal to or greater than 3:2" (000 §5.4; 001 §4.3 alike).
pub const OUTNUMBERED_RATIO: (usize, usize) = (3, 2);

/// The outnumbering of `attacker_bases` against `defender_bases`; `None` when a side
/// brings no base. The 3:2 threshold is decided in whole numbers, so exactly 3:2 is
/// outnumbered (the text's "equal to or greater than").
///
/// ```
/// use vedette_geometry::assault::assessment::{AssaultSide, outnumbering};
/// assert_eq!(outnumbering(3, 2).and_then(|o| o.outnumbered), Some(AssaultSide::Defender));
/// assert_eq!(outnumbering(4, 3).and_then(|o| o.outnumbered), None); // 1.33
/// assert_eq!(outnumbering(2, 4).and_then(|o| o.outnumbered), Some(AssaultSide::Attacker));
/// ```
#[must_use]
pub fn outnumbering(attacker_bases: usize, defender_bases: usize) -> Option<Outnumbering> {
    let (lo, hi) = (attacker_bases.min(defender_bases), attacker_bases.max(defender_bases));
    if lo == 0 {
        return None;
    }
    let (n, d) = OUTNUMBERED_RATIO;
    let outnumbered = (hi * d >= lo * n).then_some(if attacker_bases < defender_bases {
        AssaultSide::Attacker
    } else {
        AssaultSide::Defender
    });
    Some(Outnumbering { ratio: hi as f64 / lo as f64, outnumbered })
}

/// Everything the assault phase measures on one table.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct AssaultAssessment {
    /// Every contact, in the order the rule set's search finds them (Pro Patria: by
    /// attacker then defender index).
    pub findings: Vec<AssaultFinding>,
    /// R5 family: the assault groups with their outnumbering.
    pub groups: Vec<(AssaultGroup, Option<Outnumbering>)>,
    /// The findings' indices in the order a list shows them: the search's order, except
    /// under Pro Patria (each contact found both ways) by attacker id, then defender id.
    pub listing: Vec<usize>,
}

impl AssaultAssessment {
    /// The findings in listing order ([`AssaultAssessment::listing`]).
    pub fn listed(&self) -> impl Iterator<Item = &AssaultFinding> {
        self.listing.iter().filter_map(|&i| self.findings.get(i))
    }
}

/// The aspect of `attacker`'s assault on `defender` under `exceptions`; `None` when the
/// defender has no bases.
#[must_use]
pub fn attack_aspect(
    table: &Table,
    attacker: usize,
    defender: usize,
    exceptions: FlankExceptions,
) -> Option<AttackAspect> {
    let d = table.units.get(defender)?;
    let lines = FlankGeometry::of(&d.bases)?;
    let standing = DefenderStanding {
        kind: d.kind,
        in_square: is_in_square(table, defender),
        in_buildings: in_buildings(d, &table.terrain),
    };
    Some(aspect_of(table.units.get(attacker)?, &lines, &standing, exceptions))
}

/// The assault assessment of `table` under its rule set (see the module docs).
pub fn assess_assaults(
    table: &Table,
    index: &SpatialIndex,
    book: &RuleBook,
) -> Result<AssaultAssessment, GeometryError> {
    let mut out = AssaultAssessment::default();
    match book.rules() {
        RuleSet::Republique5 | RuleSet::Republic => {
            let all = assaults(table, index, book, AssaultDetail::WithCoverAndOverlap)?;
            out.groups = groups(table, &all)
                .into_iter()
                .map(|g| {
                    let o = outnumbering(g.attacker_bases, g.defender_bases);
                    (g, o)
                })
                .collect();
            let mut findings = Vec::with_capacity(all.len());
            for a in all {
                let defender_cover_call =
                    cover_call(table, a.contact.defender, &a.contact.defender_bases_met, book)?;
                let attacker_cover_call =
                    cover_call(table, a.contact.attacker, &a.contact.contact_face, book)?;
                findings.push(AssaultFinding {
                    attacker: a.contact.attacker,
                    defender: a.contact.defender,
                    range: match a.contact.range {
                        AssaultRange::AllOut => ContactRange::AllOut,
                        AssaultRange::General => ContactRange::General,
                    },
                    aspect: Some(a.aspect),
                    contact_face: a.contact.contact_face,
                    attacker_bases: a.attacker_bases,
                    defender_bases: a.defender_bases,
                    role: Some(a.contact.role),
                    distance_mm: a.contact.depth_mm,
                    contact_frontage_mm: Some(a.contact.frontage_mm),
                    mixed: a.mixed,
                    defender_cover: a.defender_cover,
                    attacker_cover: a.attacker_cover,
                    defender_cover_call,
                    attacker_cover_call,
                    overlap: a.overlap,
                    range_call: None,
                    aspect_call: None,
                });
            }
            out.findings = findings;
        }
        RuleSet::RepubliqueClassic => {
            for c in classic_contacts(table, index, book)? {
                out.findings.push(AssaultFinding {
                    attacker: c.unit,
                    defender: c.enemy,
                    range: match c.kind {
                        ClassicContactKind::Primary => ContactRange::Primary,
                        ClassicContactKind::Incidental => ContactRange::Incidental,
                    },
                    aspect: attack_aspect(table, c.unit, c.enemy, FlankExceptions::Classic),
                    contact_face: table.units[c.unit].front_bases(),
                    attacker_bases: c.strength,
                    defender_bases: table.units[c.enemy].bases.len(),
                    role: None,
                    distance_mm: c.distance_mm,
                    contact_frontage_mm: None,
                    mixed: false,
                    defender_cover: None,
                    attacker_cover: None,
                    defender_cover_call: None,
                    attacker_cover_call: None,
                    overlap: Vec::new(),
                    range_call: None,
                    aspect_call: None,
                });
            }
        }
        RuleSet::ProPatria => {
            for p in proximities(table, index, book)?.into_iter().filter(|p| p.in_contact) {
                for (a, d) in [(p.a, p.b), (p.b, p.a)] {
                    let (ua, ud) = (&table.units[a], &table.units[d]);
                    out.findings.push(AssaultFinding {
                        attacker: a,
                        defender: d,
                        range: ContactRange::Contact,
                        aspect: attack_aspect(table, a, d, FlankExceptions::ProPatria),
                        contact_face: (0..ua.bases.len())
                            .filter(|&i| ud.bases.iter().any(|o| edge_contact_mm(&ua.bases[i], o) > 0.0))
                            .collect(),
                        attacker_bases: ua.bases.len(),
                        defender_bases: ud.bases.len(),
                        role: None,
                        distance_mm: p.distance_mm,
                        contact_frontage_mm: Some(p.contact_mm),
                        mixed: false,
                        defender_cover: None,
                        attacker_cover: None,
                        defender_cover_call: None,
                        attacker_cover_call: None,
                        overlap: Vec::new(),
                        range_call: None,
                        aspect_call: None,
                    });
                }
            }
            out.findings.sort_by_key(|f| (f.attacker, f.defender));
        }
    }
    for f in &mut out.findings {
        f.range_call = f.range_call(table, book);
        f.aspect_call = f.aspect_call(table);
    }
    out.listing = (0..out.findings.len()).collect();
    if book.rules() == RuleSet::ProPatria {
        let id = |u: usize| table.units.get(u).map(|u| u.id.as_str());
        let key = |i: &usize| out.findings.get(*i).map(|f| (id(f.attacker), id(f.defender)));
        out.listing.sort_by_key(key);
    }
    Ok(out)
}

impl AssaultFinding {
    /// The aspect to show: front, flank or rear after the exceptions; front when the
    /// defender has no bases to measure from.
    #[must_use]
    pub fn shown_aspect(&self) -> Aspect {
        self.aspect.map_or(Aspect::Front, |a| a.aspect)
    }

    /// The distance in rule inches; `None` for Pro Patria, whose contact is measured
    /// in millimetres (004 §17.4), and at scales without rule inches.
    #[must_use]
    pub fn distance_rule_in(&self, book: &RuleBook) -> Option<f64> {
        if book.rules() == RuleSet::ProPatria {
            return None;
        }
        book.mm_to_rule_inches(self.distance_mm)
    }

    /// The close call of the contact's range (issue 17): its distance against the
    /// nearer of the rule set's two limits (Republique 5.0 / Republic: 1½" all-out and
    /// 3" general; classic: 25 and 50 mm), with the limit, mm. The deciding bases are
    /// the first base of the contact face and the defender's base nearest it; the
    /// distance runs along the attacker's advance, so moving the defender along the
    /// attacker's heading flips it. `None` for Pro Patria, whose contact is edge
    /// against edge ([`crate::ties::touching`] decides it).
    #[must_use]
    pub fn range_call(&self, table: &Table, book: &RuleBook) -> Option<(f64, CloseCall)> {
        let names = match book.rules() {
            RuleSet::Republique5 | RuleSet::Republic => {
                [RuleDistance::AllOutAssault, RuleDistance::GeneralAssault]
            }
            RuleSet::RepubliqueClassic => [RuleDistance::PrimaryContact, RuleDistance::IncidentalContact],
            RuleSet::ProPatria => return None,
        };
        let limit = names
            .iter()
            .filter_map(|&n| book.distance_mm(n).ok())
            .min_by(|a, b| (a - self.distance_mm).abs().total_cmp(&(b - self.distance_mm).abs()))?;
        let face = BaseRef::new(self.attacker, *self.contact_face.first()?);
        let fb = table.base(face)?;
        let defender = table.units.get(self.defender)?;
        let (di, db) =
            defender.bases.iter().enumerate().min_by(|a, b| fb.distance(a.1).total_cmp(&fb.distance(b.1)))?;
        let away = if self.distance_mm <= limit { fb.forward() } else { -fb.forward() };
        let parties = [
            Party::anywhere(face, fb, Some(-away)),
            Party::anywhere(BaseRef::new(self.defender, di), db, Some(away)),
        ];
        Some((limit, CloseCall::new(table, self.distance_mm - limit, &parties)))
    }
}

impl AssaultFinding {
    /// The close call of the geometric aspect (front, flank or rear before the rule
    /// set's exceptions, which no move changes), issue 17:
    /// - front: the attacker's base nearest the defender's flank line, its distance to
    ///   it ([`FlankGeometry::past_flank_line_mm`]);
    /// - flank: the nearer of the attacker's deepest base past the flank line (back to
    ///   front) and its base nearest the rear zone ([`FlankGeometry::rear_zone_margin_mm`],
    ///   on to rear);
    /// - rear: the attacker's base deepest in the rear zone (every base must leave it).
    ///
    /// The parties are that attacker base and the defender's base nearest it, each with
    /// its half diagonal as the lever (the deciding point is a corner somewhere on it).
    /// `None` when the defender has no bases or the finding has no aspect.
    #[must_use]
    pub fn aspect_call(&self, table: &Table) -> Option<CloseCall> {
        let aspect = self.aspect?;
        let attacker = table.units.get(self.attacker)?;
        let defender = table.units.get(self.defender)?;
        let lines = FlankGeometry::of(&defender.bases)?;
        let bases = attacker.bases.iter().enumerate();
        let past = |b: &Base| lines.past_flank_line_mm(b);
        let rear = |b: &Base| lines.rear_zone_margin_mm(b);
        let by = |f: &dyn Fn(&Base) -> f64| {
            attacker.bases.iter().enumerate().map(|(i, b)| (i, f(b))).max_by(|a, b| a.1.total_cmp(&b.1))
        };
        let forward = lines.frame.forward;
        let (base, margin, flip) = match aspect.geometric {
            Aspect::Front => {
                let (i, m) = by(&past)?;
                (i, -m, Some(-forward))
            }
            Aspect::Flank => {
                let (i, m) = by(&past)?;
                let (j, r) = bases.map(|(j, b)| (j, rear(b))).max_by(|a, b| a.1.total_cmp(&b.1))?;
                if m <= -r { (i, m, Some(forward)) } else { (j, -r, None) }
            }
            Aspect::Rear => {
                let (i, m) = by(&rear)?;
                (i, m, None)
            }
        };
        let ab = attacker.bases.get(base)?;
        let (di, db) =
            defender.bases.iter().enumerate().min_by(|a, b| ab.distance(a.1).total_cmp(&ab.distance(b.1)))?;
        let parties = [
            Party::anywhere(BaseRef::new(self.attacker, base), ab, flip),
            Party::anywhere(BaseRef::new(self.defender, di), db, flip.map(|f| -f)),
        ];
        Some(CloseCall::new(table, margin, &parties))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outnumbered_at_three_to_two_or_more() {
        // 000 §5.4: "equal to or greater than 3:2". 7:5 = 1.4 is just under, 3:2 at,
        // 8:5 = 1.6 over; the side with fewer bases is the one outnumbered.
        let side = |a, d| outnumbering(a, d).and_then(|o| o.outnumbered);
        assert_eq!(side(7, 5), None);
        assert_eq!(side(5, 7), None);
        assert_eq!(side(3, 2), Some(AssaultSide::Defender));
        assert_eq!(side(2, 3), Some(AssaultSide::Attacker));
        assert_eq!(side(8, 5), Some(AssaultSide::Defender));
        assert_eq!(side(4, 4), None);
        assert_eq!(outnumbering(0, 3), None);
        assert!((outnumbering(8, 5).map_or(0.0, |o| o.ratio) - 1.6).abs() < 1e-12);
    }
}
