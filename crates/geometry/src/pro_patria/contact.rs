//! Pro Patria contact and approach (004 §17.4, §17.4.2, §17.4.14).
//!
//! "A unit needs to make base-to-base contact with 30mm (20mm for 15mm gaming) or more of
//! an enemy unit to be 'in contact'." "A unit cannot come within 25mm (15mm for 15mm
//! gaming) of an enemy unit it has not charged."
//!
//! Edge contact is the length of base edges lying against each other: edges parallel
//! within [`ALIGNED_DEG`] whose overlap's middle lies within [`TOUCHING_MM`] of the other
//! edge (a physical table's "touching", [`crate::ties`]: scanned stands never touch
//! exactly), measured along their overlap, summed over every pair of stands of the two
//! units. Bases touching only at a corner, or at an angle, have no edge contact. At
//! exactly 30 mm the units are in contact; at exactly 25 mm a unit is within the
//! no-approach distance.

use crate::base::Base;
use crate::close_call::{CloseCall, Party, unit_distance_call};
use crate::error::GeometryError;
use crate::index::SpatialIndex;
use crate::rules::{RuleBook, RuleDistance};
use crate::table::{BaseRef, Table};
use crate::ties::{ALIGNED_DEG, TOUCHING_MM, at_least, touching, within};
use std::collections::BTreeMap;

/// The length of edge contact between two stands, mm.
///
/// ```
/// use vedette_geometry::{Base, BaseSize, Pose, Vec2};
/// use vedette_geometry::pro_patria::contact::edge_contact_mm;
/// let a = Base::new(BaseSize::new(60.0, 20.0), Pose::new(Vec2::new(0.0, 0.0), 90.0));
/// // Face to face, offset 25 mm sideways: 35 mm of front edge against front edge.
/// let b = Base::new(BaseSize::new(60.0, 20.0), Pose::new(Vec2::new(25.0, 20.0), 270.0));
/// assert!((edge_contact_mm(&a, &b) - 35.0).abs() < 1e-9);
/// ```
#[must_use]
pub fn edge_contact_mm(a: &Base, b: &Base) -> f64 {
    if a.separation(b) > TOUCHING_MM {
        return 0.0;
    }
    let max_cross = ALIGNED_DEG.to_radians().sin();
    let mut total = 0.0;
    for e in a.edges() {
        let Some(d) = (e.b - e.a).normalized() else { continue };
        for f in b.edges() {
            let Some(g) = (f.b - f.a).normalized() else { continue };
            // Parallel (either way) within the alignment tolerance.
            if d.cross(g).abs() > max_cross {
                continue;
            }
            let (e0, e1) = (0.0f64, (e.b - e.a).dot(d));
            let (f0, f1) = ((f.a - e.a).dot(d), (f.b - e.a).dot(d));
            let (lo, hi) = (e0.max(f0.min(f1)), e1.min(f0.max(f1)));
            // Lying against each other: the overlap's middle within touching distance of f.
            let mid = e.a + d * ((lo + hi) / 2.0);
            if hi > lo && touching(g.cross(mid - f.a).abs()) {
                total += hi - lo;
            }
        }
    }
    total
}

/// Edge contact between two units (all pairs of stands), mm.
#[must_use]
pub fn unit_contact_mm(table: &Table, a: usize, b: usize) -> f64 {
    let (Some(ua), Some(ub)) = (table.units.get(a), table.units.get(b)) else { return 0.0 };
    ua.bases.iter().flat_map(|x| ub.bases.iter().map(move |y| edge_contact_mm(x, y))).sum()
}

/// Two enemy units close to each other.
#[derive(Debug, Clone, PartialEq)]
pub struct Proximity {
    /// The first unit (lower index).
    pub a: usize,
    /// The second.
    pub b: usize,
    /// Closest distance, mm.
    pub distance_mm: f64,
    /// Edge contact, mm.
    pub contact_mm: f64,
    /// In contact: at least 30 mm (20) of edge contact.
    pub in_contact: bool,
}

impl Proximity {
    /// The close call of `in_contact` (edge contact against `needed_mm`, 30 mm or 20):
    /// sliding one unit along the other by `δ` changes each stand pair's edge contact by
    /// at most `δ`, so the margin is `|contact - needed| / n` for the `n` stand pairs in
    /// edge contact (a lower bound; at least one pair). Whether a pair's gap stays within
    /// the touching tolerance is not carried. Parties: the first pair in edge contact (or
    /// the closest pair), half diagonal as lever.
    #[must_use]
    pub fn contact_call(&self, table: &Table, needed_mm: f64) -> CloseCall {
        let (Some(ua), Some(ub)) = (table.units.get(self.a), table.units.get(self.b)) else {
            return CloseCall::exact(self.contact_mm - needed_mm);
        };
        let pairs: Vec<(usize, usize)> = (0..ua.bases.len())
            .flat_map(|i| (0..ub.bases.len()).map(move |j| (i, j)))
            .filter(|&(i, j)| edge_contact_mm(&ua.bases[i], &ub.bases[j]) > 0.0)
            .collect();
        let deciding = pairs.first().copied().or_else(|| ua.closest_to(ub).map(|c| (c.from_base, c.to_base)));
        let parties: Vec<Party> = deciding
            .into_iter()
            .flat_map(|(i, j)| {
                [
                    Party::anywhere(BaseRef::new(self.a, i), &ua.bases[i], None),
                    Party::anywhere(BaseRef::new(self.b, j), &ub.bases[j], None),
                ]
            })
            .collect();
        CloseCall::new(table, (self.contact_mm - needed_mm) / pairs.len().max(1) as f64, &parties)
    }

    /// The close call of `too_close`'s distance (closest stands) against the no-approach
    /// distance, mm; `None` when a unit is missing.
    #[must_use]
    pub fn approach_call(&self, table: &Table, no_approach_mm: f64) -> Option<CloseCall> {
        unit_distance_call(table, self.a, self.b, no_approach_mm).map(|(_, c)| c)
    }

    /// Closer than the no-approach distance without being in contact: allowed only to a
    /// unit charging the other.
    #[must_use]
    pub fn too_close(&self, no_approach_mm: f64) -> bool {
        !self.in_contact && within(self.distance_mm, no_approach_mm)
    }
}

/// Every pair of enemy units within the no-approach distance of each other, with their
/// edge contact.
pub fn proximities(
    table: &Table,
    index: &SpatialIndex,
    book: &RuleBook,
) -> Result<Vec<Proximity>, GeometryError> {
    let no_approach = book.distance_mm(RuleDistance::NoApproach)?;
    let needed = book.distance_mm(RuleDistance::ContactEdge)?;
    let mut best: BTreeMap<(usize, usize), f64> = BTreeMap::new();
    for p in index.pairs_within(no_approach) {
        if p.a.unit == p.b.unit || !index.are_enemies(p.a.unit, p.b.unit) {
            continue;
        }
        let key = (p.a.unit.min(p.b.unit), p.a.unit.max(p.b.unit));
        let e = best.entry(key).or_insert(f64::INFINITY);
        *e = e.min(p.distance_mm);
    }
    Ok(best
        .into_iter()
        .map(|((a, b), distance_mm)| {
            let contact_mm = unit_contact_mm(table, a, b);
            Proximity { a, b, distance_mm, contact_mm, in_contact: at_least(contact_mm, needed) }
        })
        .collect())
}
