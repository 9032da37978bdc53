//! The pairs of units, and of their bases, that the division searches
//! ([`super::divisions`]) measure: the base pairs the index's pair search
//! ([`crate::SpatialIndex::pairs_within_where`]) would measure, found unit pair by unit
//! pair so that a search can pass over a whole unit pair that cannot hold its answer.
//!
//! A base pair is measured when the box of the lower base grown by the reach meets the
//! other's box and their separation ([`Base::separation`]) is not beyond the reach,
//! exactly as the index decides it. The unit pairs are those whose boxes (of all their
//! bases) come within the reach, listed with the gap between their boxes (a lower bound
//! of every base pair's distance), nearest first.

use crate::base::Base;
use crate::convex::bases_box;
use crate::table::{BaseRef, Table};
use crate::vec2::Vec2;
use rstar::{AABB, RTree, RTreeObject};

/// How much a lower bound of a distance (a separation, a gap between boxes) may exceed
/// the distance measured, mm: rounding only. A pair whose bound is beyond the closest
/// distance so far by more is farther, and is passed over unmeasured.
pub(super) const BOUND_MARGIN_MM: f64 = 1e-6;

/// A unit's box, for the tree of units.
#[derive(Debug, Clone, Copy)]
struct UnitBox {
    envelope: AABB<[f64; 2]>,
    unit: usize,
}

impl RTreeObject for UnitBox {
    type Envelope = AABB<[f64; 2]>;
    fn envelope(&self) -> Self::Envelope {
        self.envelope
    }
}

/// Each pair of units `(a, b)`, `a < b`, among those `take` accepts, that `keep`
/// accepts and whose boxes come within `reach_mm` of each other, with the squared gap
/// between their boxes, mm²: nearest first.
pub(super) fn unit_pairs(
    table: &Table,
    reach_mm: f64,
    take: impl Fn(usize) -> bool,
    keep: impl Fn(usize, usize) -> bool,
) -> Vec<(f64, usize, usize)> {
    let boxes: Vec<Option<(Vec2, Vec2)>> = table
        .units
        .iter()
        .enumerate()
        .map(|(i, u)| if take(i) { bases_box(&u.bases) } else { None })
        .collect();
    let tree = RTree::bulk_load(
        boxes
            .iter()
            .enumerate()
            .filter_map(|(unit, b)| {
                b.map(|(lo, hi)| UnitBox { envelope: AABB::from_corners([lo.x, lo.y], [hi.x, hi.y]), unit })
            })
            .collect(),
    );
    let mut pairs = Vec::new();
    for (a, b) in boxes.iter().enumerate() {
        let Some((lo, hi)) = *b else { continue };
        let grown =
            AABB::from_corners([lo.x - reach_mm, lo.y - reach_mm], [hi.x + reach_mm, hi.y + reach_mm]);
        for e in tree.locate_in_envelope_intersecting(&grown) {
            if e.unit <= a || !keep(a, e.unit) {
                continue;
            }
            let (olo, ohi) = (e.envelope.lower(), e.envelope.upper());
            let gx = (olo[0] - hi.x).max(lo.x - ohi[0]).max(0.0);
            let gy = (olo[1] - hi.y).max(lo.y - ohi[1]).max(0.0);
            pairs.push((gx * gx + gy * gy, a, e.unit));
        }
    }
    pairs.sort_unstable_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)).then(x.2.cmp(&y.2)));
    pairs
}

/// The base pairs of units `a` < `b` that the index's pair search measures for
/// `reach_mm` (see the module docs), each with its separation, mm.
pub(super) fn base_pairs(
    table: &Table,
    a: usize,
    b: usize,
    reach_mm: f64,
) -> impl Iterator<Item = (BaseRef, &Base, BaseRef, &Base, f64)> {
    let (ua, ub) = (&table.units[a], &table.units[b]);
    ua.bases.iter().enumerate().flat_map(move |(i, x)| {
        // The lower base's box grown by the reach, as the index's query builds it.
        let (l, h) = x.aabb();
        let (p, q) = (Vec2::new(l.x - reach_mm, l.y - reach_mm), Vec2::new(h.x + reach_mm, h.y + reach_mm));
        let (lo, hi) = (Vec2::new(p.x.min(q.x), p.y.min(q.y)), Vec2::new(p.x.max(q.x), p.y.max(q.y)));
        ub.bases.iter().enumerate().filter_map(move |(j, y)| {
            let (ylo, yhi) = y.aabb();
            let meets = lo.x <= yhi.x && ylo.x <= hi.x && lo.y <= yhi.y && ylo.y <= hi.y;
            if !meets {
                return None;
            }
            let separation = x.separation(y);
            if separation > reach_mm {
                None
            } else {
                Some((BaseRef::new(a, i), x, BaseRef::new(b, j), y, separation))
            }
        })
    })
}
