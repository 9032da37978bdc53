//! Rigid motions of the whole table (rotation, translation, optional mirror), for the
//! invariance tests every rule construction must pass: moving or turning the table
//! changes no verdict, and mirroring it swaps left and right.

use crate::base::{Base, Pose};
use crate::table::Table;
use crate::vec2::Vec2;

/// A rigid motion of the table plane: an optional mirror (x → -x), then a rotation
/// about the origin, then a translation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RigidMotion {
    /// Mirror in the y axis first.
    pub mirror: bool,
    /// Counter-clockwise rotation, degrees.
    pub rotation_deg: f64,
    /// Translation, mm.
    pub translation: Vec2,
}

impl RigidMotion {
    /// A rotation then translation, without mirror.
    #[must_use]
    pub const fn new(rotation_deg: f64, translation: Vec2) -> Self {
        RigidMotion { mirror: false, rotation_deg, translation }
    }

    /// A pure mirror in the line x = `axis_x`.
    #[must_use]
    pub fn mirror_x(axis_x: f64) -> Self {
        RigidMotion { mirror: true, rotation_deg: 0.0, translation: Vec2::new(2.0 * axis_x, 0.0) }
    }

    /// Moves a point.
    #[must_use]
    pub fn point(&self, p: Vec2) -> Vec2 {
        let m = if self.mirror { Vec2::new(-p.x, p.y) } else { p };
        m.rotated_deg(self.rotation_deg) + self.translation
    }

    /// Turns a heading.
    #[must_use]
    pub fn heading_deg(&self, h: f64) -> f64 {
        let m = if self.mirror { 180.0 - h } else { h };
        m + self.rotation_deg
    }

    /// Moves a base (its size is unchanged).
    #[must_use]
    pub fn base(&self, b: &Base) -> Base {
        b.with_pose(Pose::new(self.point(b.centre()), self.heading_deg(b.heading_deg())))
    }

    /// Moves everything on a table. The table's `size` is dropped, since the moved
    /// table no longer starts at the origin.
    #[must_use]
    pub fn table(&self, t: &Table) -> Table {
        let mut out = t.clone();
        out.size = None;
        for u in &mut out.units {
            for b in &mut u.bases {
                *b = self.base(b);
            }
        }
        for m in &mut out.markers {
            let p = self.point(Vec2::new(m.x, m.y));
            m.x = p.x;
            m.y = p.y;
        }
        for f in &mut out.terrain {
            for p in f
                .outline
                .iter_mut()
                .chain(f.path.iter_mut())
                .chain(f.holes.iter_mut().flatten())
                .chain(f.crests.iter_mut().flatten())
            {
                *p = self.point(*p);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::BaseSize;
    use approx::assert_abs_diff_eq;

    #[test]
    fn mirror_swaps_left_and_right_corners() {
        let b = Base::new(BaseSize::new(30.0, 20.0), Pose::new(Vec2::new(10.0, 0.0), 60.0));
        let m = RigidMotion::mirror_x(0.0).base(&b);
        assert_abs_diff_eq!(
            m.corners().front_left,
            RigidMotion::mirror_x(0.0).point(b.corners().front_right),
            epsilon = 1e-9
        );
        assert_abs_diff_eq!(m.heading_deg(), 120.0);
    }

    #[test]
    fn rotation_moves_corners_with_the_base() {
        let b = Base::new(BaseSize::new(30.0, 20.0), Pose::new(Vec2::new(10.0, 5.0), 90.0));
        let t = RigidMotion::new(37.0, Vec2::new(100.0, -50.0));
        let m = t.base(&b);
        assert_abs_diff_eq!(m.corners().front_left, t.point(b.corners().front_left), epsilon = 1e-9);
        assert_abs_diff_eq!(m.corners().rear_right, t.point(b.corners().rear_right), epsilon = 1e-9);
    }
}
