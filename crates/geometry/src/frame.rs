//! A unit's own frame: where its front is and which way it faces, for constructions
//! laid out "parallel to the unit's front" (flank line, rear lines, facing arc, overlap).

use crate::base::Base;
use crate::unit_structure::front_bases_of;
use crate::vec2::Vec2;

/// A unit's frame: origin at the middle of its face, y along the direction the unit
/// faces, x to its right.
///
/// The facing is the mean of its front bases' headings (bases of one unit normally share
/// one heading; a wheeling column's front decides).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct UnitFrame {
    /// The origin: the mean of the front bases' front-edge midpoints.
    pub origin: Vec2,
    /// Unit vector the unit faces.
    pub forward: Vec2,
}

impl UnitFrame {
    /// The frame of a set of bases; `None` when there are none.
    ///
    /// ```
    /// use vedette_geometry::{Base, BaseSize, Pose, UnitFrame, Vec2};
    /// let b = |x: f64| Base::new(BaseSize::new(30.0, 20.0), Pose::new(Vec2::new(x, 0.0), 90.0));
    /// let f = UnitFrame::of(&[b(0.0), b(30.0)]).unwrap();
    /// assert_eq!(f.to_local(Vec2::new(15.0, 10.0)), Vec2::new(0.0, 0.0));
    /// ```
    #[must_use]
    pub fn of(bases: &[Base]) -> Option<UnitFrame> {
        let front = front_bases_of(bases);
        let first = bases.first()?;
        let picked: Vec<&Base> = if front.is_empty() {
            bases.iter().collect()
        } else {
            front.iter().map(|&i| &bases[i]).collect()
        };
        let sum = picked.iter().fold(Vec2::ZERO, |a, b| a + b.forward());
        let forward = sum.normalized().unwrap_or(first.forward());
        let origin = picked.iter().fold(Vec2::ZERO, |a, b| a + b.front_midpoint()) / picked.len() as f64;
        Some(UnitFrame { origin, forward })
    }

    /// Unit vector to the unit's right.
    #[must_use]
    pub fn right(&self) -> Vec2 {
        self.forward.perp_right()
    }

    /// Table point to the frame (x right, y forward).
    #[must_use]
    pub fn to_local(&self, p: Vec2) -> Vec2 {
        let d = p - self.origin;
        Vec2::new(d.dot(self.right()), d.dot(self.forward))
    }

    /// Frame point to the table.
    #[must_use]
    pub fn to_table(&self, l: Vec2) -> Vec2 {
        self.origin + self.right() * l.x + self.forward * l.y
    }

    /// A base's corners in the frame, counter-clockwise.
    #[must_use]
    pub fn local_corners(&self, b: &Base) -> [Vec2; 4] {
        b.vertices_ccw().map(|v| self.to_local(v))
    }
}
