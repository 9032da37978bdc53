//! A unit's own frame: where its front is and which way it faces, for constructions
//! laid out "parallel to the unit's front" (flank line, rear lines, facing arc, overlap).

use crate::base::Base;
use crate::segment::Segment;
use crate::unit_structure::front_bases_of;
use crate::vec2::Vec2;
use serde::{Deserialize, Serialize};

/// Left or right, as the unit in question sees it (facing its front).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum FlankSide {
    /// The unit's left.
    Left,
    /// The unit's right.
    Right,
}

impl FlankSide {
    /// The other side (what a mirror image turns this side into).
    #[must_use]
    pub fn mirrored(self) -> FlankSide {
        match self {
            FlankSide::Left => FlankSide::Right,
            FlankSide::Right => FlankSide::Left,
        }
    }

    /// `"left"` or `"right"`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            FlankSide::Left => "left",
            FlankSide::Right => "right",
        }
    }
}

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

    /// The extent of some points across the unit's front (least and greatest x in the
    /// frame), mm.
    #[must_use]
    pub fn across_of(&self, points: impl IntoIterator<Item = Vec2>) -> (f64, f64) {
        points.into_iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), p| {
            let x = self.to_local(p).x;
            (lo.min(x), hi.max(x))
        })
    }

    /// A base's corners in the frame, counter-clockwise.
    #[must_use]
    pub fn local_corners(&self, b: &Base) -> [Vec2; 4] {
        b.vertices_ccw().map(|v| self.to_local(v))
    }
}

/// A unit's frame with the box its bases occupy in it: what the enfilade and tandem
/// rules need. In the frame (x to the unit's right, y to its front) the unit fills the
/// box from its leftmost to its rightmost base corner and from its rearmost to its
/// foremost one; the **flank edges** are that box's left and right sides, from the
/// unit's front to its rear. For a line they are the outer side edges of its end bases;
/// for a column, its long sides.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct UnitBox {
    /// The unit's frame.
    pub frame: UnitFrame,
    /// Extent across the front in the frame (least and greatest x of the corners), mm.
    pub across: (f64, f64),
    /// Extent front to back in the frame (least and greatest y of the corners), mm.
    pub along: (f64, f64),
}

impl UnitBox {
    /// The box of a set of bases; `None` when there are none.
    #[must_use]
    pub fn of(bases: &[Base]) -> Option<UnitBox> {
        let frame = UnitFrame::of(bases)?;
        let across = frame.across_of(bases.iter().flat_map(|b| b.vertices_ccw()));
        let along = bases.iter().flat_map(|b| b.vertices_ccw()).fold(
            (f64::INFINITY, f64::NEG_INFINITY),
            |(lo, hi), p| {
                let y = frame.to_local(p).y;
                (lo.min(y), hi.max(y))
            },
        );
        Some(UnitBox { frame, across, along })
    }

    /// A flank edge as a frontage facing outward from the unit: from its left end to its
    /// right end as seen looking out from that flank. Looking out to the unit's left,
    /// the unit's rear is on the left hand; looking out to its right, its front is.
    #[must_use]
    pub fn flank_edge(&self, flank: FlankSide) -> Segment {
        let (x0, x1) = self.across;
        let (y0, y1) = self.along;
        let p = |x: f64, y: f64| self.frame.to_table(Vec2::new(x, y));
        match flank {
            FlankSide::Left => Segment::new(p(x0, y0), p(x0, y1)),
            FlankSide::Right => Segment::new(p(x1, y1), p(x1, y0)),
        }
    }

    /// The direction a flank faces (away from the unit).
    #[must_use]
    pub fn outward(&self, flank: FlankSide) -> Vec2 {
        match flank {
            FlankSide::Left => -self.frame.right(),
            FlankSide::Right => self.frame.right(),
        }
    }
}
