//! A target unit's own frame, as the enfilade and tandem rules need it: which way the
//! unit faces, its two flank edges, and where it lies across its front.
//!
//! The unit faces the mean direction of its front bases (their unit forward vectors
//! summed; all bases share one heading in a formed unit, and a wheeling column takes
//! the mean of its head). In that frame (x to the unit's right, y to its front) the unit
//! occupies the box from its leftmost to its rightmost base corner and from its
//! rearmost to its foremost one; the **flank edges** are that box's left and right
//! sides, from the unit's front to its rear. For a line they are the outer side edges
//! of its end bases; for a column, its long sides.

use crate::segment::Segment;
use crate::table::Unit;
use crate::vec2::Vec2;

/// Which flank of a unit, from the unit's own point of view.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Flank {
    /// The unit's left.
    Left,
    /// The unit's right.
    Right,
}

impl Flank {
    /// `"left"` or `"right"`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Flank::Left => "left",
            Flank::Right => "right",
        }
    }
}

/// A unit's own frame and extent.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct UnitFrame {
    /// Unit vector the unit faces.
    pub forward: Vec2,
    /// Unit vector to its right.
    pub right: Vec2,
    /// Extent across the front: the least and greatest `p · right` of its corners, mm.
    pub across: (f64, f64),
    /// Extent front to back: the least and greatest `p · forward` of its corners, mm.
    pub along: (f64, f64),
}

impl UnitFrame {
    /// The frame of a unit; `None` for a unit without bases.
    #[must_use]
    pub fn of(unit: &Unit) -> Option<UnitFrame> {
        let front = unit.front_bases();
        let sum = front.iter().fold(Vec2::ZERO, |s, &i| s + unit.bases[i].forward());
        let forward = sum.normalized().or_else(|| unit.bases.first().map(|b| b.forward()))?;
        let right = forward.perp_right();
        let mut across = (f64::INFINITY, f64::NEG_INFINITY);
        let mut along = (f64::INFINITY, f64::NEG_INFINITY);
        for b in &unit.bases {
            for c in b.vertices_ccw() {
                let (x, y) = (c.dot(right), c.dot(forward));
                across = (across.0.min(x), across.1.max(x));
                along = (along.0.min(y), along.1.max(y));
            }
        }
        Some(UnitFrame { forward, right, across, along })
    }

    fn point(&self, x: f64, y: f64) -> Vec2 {
        self.right * x + self.forward * y
    }

    /// A flank edge as a frontage facing outward from the unit: from its left end to its
    /// right end as seen looking out from that flank. Looking out to the unit's left,
    /// the unit's rear is on the left hand; looking out to its right, its front is.
    #[must_use]
    pub fn flank_edge(&self, flank: Flank) -> Segment {
        let (x0, x1) = self.across;
        let (y0, y1) = self.along;
        match flank {
            Flank::Left => Segment::new(self.point(x0, y0), self.point(x0, y1)),
            Flank::Right => Segment::new(self.point(x1, y1), self.point(x1, y0)),
        }
    }

    /// The direction a flank faces (away from the unit).
    #[must_use]
    pub fn outward(&self, flank: Flank) -> Vec2 {
        match flank {
            Flank::Left => -self.right,
            Flank::Right => self.right,
        }
    }

    /// The extent of some points across this unit's front (least and greatest
    /// `p · right`).
    #[must_use]
    pub fn across_of(&self, points: impl IntoIterator<Item = Vec2>) -> (f64, f64) {
        points.into_iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), p| {
            let x = p.dot(self.right);
            (lo.min(x), hi.max(x))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::{Base, BaseSize, Pose};
    use crate::table::UnitKind;
    use approx::assert_abs_diff_eq;

    fn unit(bases: Vec<Base>) -> Unit {
        Unit {
            id: "u".to_string(),
            side: "s".to_string(),
            kind: UnitKind::Infantry,
            formation: None,
            bases,
            division: None,
            corps: None,
            parent: None,
            weight: None,
            frontage: None,
            role: None,
            attached: false,
        }
    }

    #[test]
    fn a_line_facing_down_the_table() {
        // Two 30 x 20 bases facing -y at x = 0 and 30, y = 100: their right is -x, so the
        // unit's left flank is the edge at x = 45 and its right flank the edge at x = -15.
        let b = |x: f64| Base::new(BaseSize::new(30.0, 20.0), Pose::new(Vec2::new(x, 100.0), 270.0));
        let f = UnitFrame::of(&unit(vec![b(0.0), b(30.0)])).unwrap();
        assert_abs_diff_eq!(f.forward, Vec2::new(0.0, -1.0), epsilon = 1e-12);
        let left = f.flank_edge(Flank::Left);
        // Looking out to the unit's left (+x) its rear (y = 110) is on the left hand.
        assert_abs_diff_eq!(left.a, Vec2::new(45.0, 110.0), epsilon = 1e-9);
        assert_abs_diff_eq!(left.b, Vec2::new(45.0, 90.0), epsilon = 1e-9);
        let right = f.flank_edge(Flank::Right);
        assert_abs_diff_eq!(right.a, Vec2::new(-15.0, 90.0), epsilon = 1e-9);
        assert_abs_diff_eq!(right.b, Vec2::new(-15.0, 110.0), epsilon = 1e-9);
        assert_abs_diff_eq!(f.outward(Flank::Left), Vec2::new(1.0, 0.0), epsilon = 1e-12);
    }
}
