//! A unit's structure (GEOMETRY.md, Bases and units): its front bases, its face, and
//! the closest distance between two units.

use crate::base::{Base, CONTACT_TOLERANCE_MM};
use crate::segment::{ClosestPoints, Segment};
use crate::table::Unit;
use crate::vec2::Vec2;

/// True when `other` stands directly ahead of `base`: it reaches into the strip swept
/// forward from `base`'s front edge by one base depth.
///
/// Tie rules: the strip's far end is closed (a base whose rear edge lies exactly one
/// depth ahead, as in a road column with one-base spacing, is ahead); its sides are open
/// (a neighbour in line that only touches the strip's side is not ahead).
#[must_use]
pub fn is_directly_ahead(base: &Base, other: &Base) -> bool {
    // The strip in `base`'s frame: x in (-w/2, w/2), y in [d/2, d/2 + d].
    let hw = base.width() / 2.0 - CONTACT_TOLERANCE_MM;
    let y0 = base.depth() / 2.0;
    let y1 = y0 + base.depth() + CONTACT_TOLERANCE_MM;
    // Separating-axis test of the strip (a rectangle in base's frame) against `other`.
    let corners: Vec<Vec2> = other.vertices_ccw().iter().map(|&v| base.to_local(v)).collect();
    let (mut min_x, mut max_x, mut min_y, mut max_y) =
        (f64::INFINITY, f64::NEG_INFINITY, f64::INFINITY, f64::NEG_INFINITY);
    for c in &corners {
        min_x = min_x.min(c.x);
        max_x = max_x.max(c.x);
        min_y = min_y.min(c.y);
        max_y = max_y.max(c.y);
    }
    // Axes of the strip: open in x (strict), the front edge must be strictly passed (the
    // other base must reach beyond `base`'s own front edge), the far end closed.
    if max_x <= -hw || min_x >= hw || max_y <= y0 + CONTACT_TOLERANCE_MM || min_y > y1 {
        return false;
    }
    // Axes of `other`.
    let strip = [Vec2::new(-hw, y0), Vec2::new(hw, y0), Vec2::new(hw, y1), Vec2::new(-hw, y1)];
    let f = base.to_local(base.centre() + other.forward());
    let r = f.perp_right();
    for axis in [f, r] {
        let (lo_o, hi_o) = extent(&corners, axis);
        let (lo_s, hi_s) = extent(&strip, axis);
        if hi_o < lo_s - CONTACT_TOLERANCE_MM || hi_s < lo_o - CONTACT_TOLERANCE_MM {
            return false;
        }
    }
    true
}

fn extent(points: &[Vec2], axis: Vec2) -> (f64, f64) {
    points.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), p| {
        let d = p.dot(axis);
        (lo.min(d), hi.max(d))
    })
}

/// The indices of a unit's front bases: those with no base of the same unit directly
/// ahead of them (see [`is_directly_ahead`]).
///
/// ```
/// use vedette_geometry::{Base, BaseSize, Pose, Vec2, front_bases_of};
/// // A two-line unit facing +y: two bases in front, two behind them.
/// let b = |x: f64, y: f64| Base::new(BaseSize::new(30.0, 20.0), Pose::new(Vec2::new(x, y), 90.0));
/// let bases = [b(0.0, 20.0), b(30.0, 20.0), b(0.0, 0.0), b(30.0, 0.0)];
/// assert_eq!(front_bases_of(&bases), vec![0, 1]);
/// ```
#[must_use]
pub fn front_bases_of(bases: &[Base]) -> Vec<usize> {
    (0..bases.len())
        .filter(|&i| !bases.iter().enumerate().any(|(j, o)| j != i && is_directly_ahead(&bases[i], o)))
        .collect()
}

/// The closest approach of two units, and which bases make it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct UnitClosest {
    /// Distance and points.
    pub closest: ClosestPoints,
    /// Index (in the first unit) of the base that is closest.
    pub from_base: usize,
    /// Index (in the second unit) of the base that is closest.
    pub to_base: usize,
}

/// The exact closest edge-to-edge approach between two sets of bases; `None` when
/// either is empty. Ties go to the lowest base indices.
#[must_use]
pub fn closest_between(a: &[Base], b: &[Base]) -> Option<UnitClosest> {
    let mut best: Option<UnitClosest> = None;
    for (i, x) in a.iter().enumerate() {
        for (j, y) in b.iter().enumerate() {
            let c = x.closest_points(y);
            if best.is_none_or(|bst| c.distance_mm < bst.closest.distance_mm) {
                best = Some(UnitClosest { closest: c, from_base: i, to_base: j });
            }
        }
    }
    best
}

impl Unit {
    /// The indices of the unit's front bases.
    #[must_use]
    pub fn front_bases(&self) -> Vec<usize> {
        front_bases_of(&self.bases)
    }

    /// The unit's face: the front edges of its front bases (left to right as each base
    /// sees it), in base order.
    #[must_use]
    pub fn face(&self) -> Vec<Segment> {
        self.front_bases().into_iter().map(|i| self.bases[i].front_edge()).collect()
    }

    /// The exact closest approach to another unit.
    #[must_use]
    pub fn closest_to(&self, other: &Unit) -> Option<UnitClosest> {
        closest_between(&self.bases, &other.bases)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::{BaseSize, Pose};

    fn b(x: f64, y: f64, h: f64) -> Base {
        Base::new(BaseSize::new(30.0, 20.0), Pose::new(Vec2::new(x, y), h))
    }

    #[test]
    fn line_has_every_base_in_front() {
        let line = [b(0.0, 0.0, 90.0), b(30.0, 0.0, 90.0), b(60.0, 0.0, 90.0)];
        assert_eq!(front_bases_of(&line), vec![0, 1, 2]);
    }

    #[test]
    fn attack_column_has_one_front_base() {
        let col = [b(0.0, 0.0, 90.0), b(0.0, -20.0, 90.0), b(0.0, -40.0, 90.0)];
        assert_eq!(front_bases_of(&col), vec![0]);
    }

    #[test]
    fn road_column_with_one_base_spacing() {
        // Gap of exactly one base depth: the far end of the strip is closed.
        let col = [b(0.0, 0.0, 90.0), b(0.0, -40.0, 90.0), b(0.0, -80.0, 90.0)];
        assert_eq!(front_bases_of(&col), vec![0]);
        // Just over one depth: the base behind is a front base of its own.
        let loose = [b(0.0, 0.0, 90.0), b(0.0, -40.01, 90.0)];
        assert_eq!(front_bases_of(&loose), vec![0, 1]);
    }

    #[test]
    fn staggered_base_half_ahead_blocks() {
        // The rear base is covered over half its frontage: something is directly ahead.
        let units = [b(15.0, 20.0, 90.0), b(0.0, 0.0, 90.0)];
        assert_eq!(front_bases_of(&units), vec![0]);
        // Offset by a full width: only corner contact with the strip's side, still front.
        let side = [b(30.0, 20.0, 90.0), b(0.0, 0.0, 90.0)];
        assert_eq!(front_bases_of(&side), vec![0, 1]);
    }

    #[test]
    fn a_base_behind_does_not_hide_the_front() {
        let pair = [b(0.0, 0.0, 90.0), b(0.0, -25.0, 90.0)];
        assert!(!is_directly_ahead(&pair[0], &pair[1]));
        assert!(is_directly_ahead(&pair[1], &pair[0]));
    }

    #[test]
    fn closest_between_units_names_the_bases() {
        let a = [b(0.0, 0.0, 90.0), b(30.0, 0.0, 90.0)];
        let e = [b(100.0, 0.0, 90.0), b(130.0, 0.0, 90.0)];
        let c = closest_between(&a, &e).unwrap();
        assert_eq!((c.from_base, c.to_base), (1, 0));
        assert_eq!(c.closest.distance_mm, 40.0);
    }
}
