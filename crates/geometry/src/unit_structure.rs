//! A unit's structure (GEOMETRY.md, Bases and units): its front bases, its face, and
//! the closest distance between two units.

use crate::base::Base;
use crate::segment::{ClosestPoints, Segment};
use crate::table::{BaseRef, Selection, Table, Unit};
use crate::ties::{AHEAD_MAX_GAP_DEPTHS, AHEAD_MIN_OVERLAP_OF_WIDTH, TIE_MM};

/// True when `other` stands directly ahead of `base` (GEOMETRY.md, Bases and units):
/// it lies beyond `base`'s front edge, overlaps the strip swept forward from that edge by
/// more than [`AHEAD_MIN_OVERLAP_OF_WIDTH`] of `base`'s width, and its near edge lies
/// within [`AHEAD_MAX_GAP_DEPTHS`] of `base`'s depths of that front edge.
///
/// These are tolerances of a physical table, not rule thresholds ([`crate::ties`]): a
/// neighbour in a straight line, typed to a tenth of a millimetre or scanned with a
/// tenth of a degree of noise, overlaps the strip by micrometres and is never ahead; a
/// base in the next line overlaps it by its width; a road column's one-base spacing
/// (000 §1.4), typed as 20.0003 mm, is well inside one and a half depths.
///
/// ```
/// use vedette_geometry::{Base, BaseSize, Pose, Vec2, is_directly_ahead};
/// let b = |x: f64, y: f64, h: f64| Base::new(BaseSize::new(30.0, 20.0), Pose::new(Vec2::new(x, y), h));
/// // Side by side, overlapping by 0.05 mm and staggered 0.04 mm: not ahead.
/// assert!(!is_directly_ahead(&b(0.0, 0.0, 90.0), &b(29.95, 0.04, 90.1)));
/// // A road column's one-depth gap, typed a little wide: ahead.
/// assert!(is_directly_ahead(&b(0.0, 0.0, 90.0), &b(0.0, 40.0003, 90.0)));
/// ```
#[must_use]
pub fn is_directly_ahead(base: &Base, other: &Base) -> bool {
    let (w, d) = (base.width(), base.depth());
    let front = d / 2.0;
    // Beyond the front edge: `other`'s centre lies ahead of it (in `base`'s frame, x to
    // its right, y forward).
    if base.to_local(other.centre()).y <= front {
        return false;
    }
    let (mut min_x, mut max_x, mut min_y) = (f64::INFINITY, f64::NEG_INFINITY, f64::INFINITY);
    for v in other.vertices_ccw() {
        let c = base.to_local(v);
        min_x = min_x.min(c.x);
        max_x = max_x.max(c.x);
        min_y = min_y.min(c.y);
    }
    let overlap = max_x.min(w / 2.0) - min_x.max(-w / 2.0);
    overlap > AHEAD_MIN_OVERLAP_OF_WIDTH * w && min_y - front <= AHEAD_MAX_GAP_DEPTHS * d + TIE_MM
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

/// The closest approach of two selections of a table (whole units or single bases).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SelectionClosest {
    /// Distance and points.
    pub closest: ClosestPoints,
    /// The base of the first selection that is closest.
    pub from: BaseRef,
    /// The base of the second selection that is closest.
    pub to: BaseRef,
}

/// The bases a selection names, with their references.
fn selected(table: &Table, s: Selection) -> Vec<(BaseRef, &Base)> {
    match s {
        Selection::Unit(u) => table
            .units
            .get(u)
            .map(|unit| unit.bases.iter().enumerate().map(|(i, b)| (BaseRef::new(u, i), b)).collect())
            .unwrap_or_default(),
        Selection::Base(r) => table.base(r).map(|b| vec![(r, b)]).unwrap_or_default(),
    }
}

/// The exact closest edge-to-edge approach between two selections of `table` (what
/// `vedette measure` answers). A base in both selections (a unit and one of its own
/// bases) is never paired with itself; `None` when nothing is left to pair. Ties go to
/// the first pair in base order.
///
/// ```
/// use vedette_geometry::{Base, BaseRef, BaseSize, Pose, RuleSet, Scale, Selection, Table, Unit, UnitKind, Vec2, closest_between_selections};
/// let b = |x: f64| Base::new(BaseSize::new(30.0, 20.0), Pose::new(Vec2::new(x, 0.0), 90.0));
/// let units = vec![Unit::new("a", "fr", UnitKind::Infantry, vec![b(0.0), b(30.0), b(90.0)])];
/// let table = Table::new(RuleSet::Republique5, Scale::Medium, units);
/// // A unit against its own third base: its second base is closest, 30 mm away.
/// let c = closest_between_selections(&table, Selection::Unit(0), Selection::Base(BaseRef::new(0, 2))).unwrap();
/// assert_eq!((c.from, c.closest.distance_mm), (BaseRef::new(0, 1), 30.0));
/// ```
#[must_use]
pub fn closest_between_selections(table: &Table, a: Selection, b: Selection) -> Option<SelectionClosest> {
    let (sa, sb) = (selected(table, a), selected(table, b));
    let mut best: Option<SelectionClosest> = None;
    for &(ra, ba) in &sa {
        for &(rb, bb) in &sb {
            if ra == rb {
                continue;
            }
            let c = ba.closest_points(bb);
            if best.is_none_or(|bst| c.distance_mm < bst.closest.distance_mm) {
                best = Some(SelectionClosest { closest: c, from: ra, to: rb });
            }
        }
    }
    best
}

impl Unit {
    /// The indices of the unit's front bases: those with no base of the unit directly
    /// ahead ([`front_bases_of`]), except that a unit declared in single file (attack,
    /// road or breakthrough column, [`crate::Formation::is_single_file`]) has one front
    /// base, its head: the front base farthest forward along the unit's heading (000
    /// §1.4: "the unit stands are in single file facing the same direction").
    #[must_use]
    pub fn front_bases(&self) -> Vec<usize> {
        let front = front_bases_of(&self.bases);
        if front.len() < 2 || !self.formation.is_some_and(|f| f.is_single_file()) {
            return front;
        }
        let Some(frame) = crate::frame::UnitFrame::of(&self.bases) else { return front };
        let ahead = |i: &&usize| frame.to_local(self.bases[**i].front_midpoint()).y;
        front.iter().max_by(|a, b| ahead(a).total_cmp(&ahead(b))).map_or(front.clone(), |&h| vec![h])
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
    use crate::table::{Formation, UnitKind};
    use crate::vec2::Vec2;
    use proptest::prelude::*;

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
        // Gap of one base depth (000 §1.4), exactly and as typed or scanned: only the
        // head is a front base.
        for gap in [20.0, 20.0003, 20.1] {
            let col = [b(0.0, 0.0, 90.0), b(0.0, -20.0 - gap, 90.0), b(0.0, -40.0 - 2.0 * gap, 90.0)];
            assert_eq!(front_bases_of(&col), vec![0], "gap {gap}");
        }
        // The strip reaches one and a half depths (30 mm), closed: 29.9 and 30 are ahead,
        // 30.5 is a deliberate gap and the base behind is a front base of its own.
        for (gap, front) in [(29.9, vec![0]), (30.0, vec![0]), (30.5, vec![0, 1])] {
            let pair = [b(0.0, 0.0, 90.0), b(0.0, -20.0 - gap, 90.0)];
            assert_eq!(front_bases_of(&pair), front, "gap {gap}");
        }
    }

    #[test]
    fn quarter_width_overlap_decides_ahead() {
        // The base ahead overlaps the strip of the one behind by 7.4 mm (not ahead) and
        // 7.6 mm (ahead): the threshold is a quarter of 30 mm.
        assert!(!is_directly_ahead(&b(0.0, 0.0, 90.0), &b(22.6, 20.0, 90.0)));
        assert!(is_directly_ahead(&b(0.0, 0.0, 90.0), &b(22.4, 20.0, 90.0)));
    }

    #[test]
    fn declared_single_file_has_one_front_base() {
        // A road column spread to 1.6 depths: geometry alone sees three front bases; the
        // declared formation keeps the head (the base farthest along the heading).
        let bases = vec![b(0.0, -104.0, 90.0), b(0.0, 0.0, 90.0), b(0.0, -52.0, 90.0)];
        let mut u = Unit::new("c", "a", UnitKind::Infantry, bases);
        assert_eq!(u.front_bases(), vec![0, 1, 2]);
        u.formation = Some(Formation::RoadColumn);
        assert_eq!(u.front_bases(), vec![1]);
        u.formation = Some(Formation::Line);
        assert_eq!(u.front_bases(), vec![0, 1, 2]);
    }

    proptest! {
        #![proptest_config(crate::test_support::proptest_config(2000, 16))]

        /// Issue 16, touching lines: a straight line of three bases, typed or scanned at
        /// any heading (neighbours overlapping or apart by up to 1 mm, staggered by up to
        /// 1 mm, turned by up to 2°), has every base in front; a second line directly
        /// behind it (touching, with the same noise) is behind it.
        #[test]
        fn a_noisy_line_keeps_every_base_in_front(
            heading in 0.0f64..360.0,
            origin in (0.0f64..1800.0, 0.0f64..1200.0),
            jitter in proptest::collection::vec((-1.0f64..1.0, -1.0f64..1.0, -2.0f64..2.0), 6),
            (w, d) in prop_oneof![Just((30.0, 20.0)), Just((40.0, 20.0)), Just((20.0, 40.0)), Just((60.0, 30.0))],
        ) {
            let f = Vec2::from_heading_deg(heading);
            let r = f.perp_right();
            let o = Vec2::new(origin.0, origin.1);
            let base = |i: usize, row: f64, (dx, dy, dh): (f64, f64, f64)| {
                let c = o + r * (w * (i as f64) + dx) + f * (row * d + dy / 2.0);
                Base::new(BaseSize::new(w, d), Pose::new(c, heading + dh))
            };
            let line: Vec<Base> = (0..3).map(|i| base(i, 0.0, jitter[i])).collect();
            prop_assert_eq!(front_bases_of(&line), vec![0, 1, 2]);
            let mut two: Vec<Base> = line.clone();
            two.extend((0..3).map(|i| base(i, -1.0, jitter[3 + i])));
            prop_assert_eq!(front_bases_of(&two), vec![0, 1, 2]);
        }
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
