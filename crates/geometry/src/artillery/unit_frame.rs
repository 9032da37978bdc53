//! The target unit's frame and flank edges that the enfilade and tandem rules use live
//! in [`crate::frame`] ([`crate::frame::UnitBox`], [`crate::frame::FlankSide`]), shared
//! with the assault rules' flank line; this file keeps the artillery's checks of them.

#[cfg(test)]
mod tests {
    use crate::base::{Base, BaseSize, Pose};
    use crate::frame::{FlankSide, UnitBox};
    use crate::table::Unit;
    use crate::table::UnitKind;
    use crate::vec2::Vec2;
    use approx::assert_abs_diff_eq;

    fn unit(bases: Vec<Base>) -> Unit {
        Unit::new("u", "s", UnitKind::Infantry, bases)
    }

    #[test]
    fn a_line_facing_down_the_table() {
        // Two 30 x 20 bases facing -y at x = 0 and 30, y = 100: their right is -x, so the
        // unit's left flank is the edge at x = 45 and its right flank the edge at x = -15.
        let b = |x: f64| Base::new(BaseSize::new(30.0, 20.0), Pose::new(Vec2::new(x, 100.0), 270.0));
        let f = UnitBox::of(&unit(vec![b(0.0), b(30.0)]).bases).unwrap();
        assert_abs_diff_eq!(f.frame.forward, Vec2::new(0.0, -1.0), epsilon = 1e-12);
        let left = f.flank_edge(FlankSide::Left);
        // Looking out to the unit's left (+x) its rear (y = 110) is on the left hand.
        assert_abs_diff_eq!(left.a, Vec2::new(45.0, 110.0), epsilon = 1e-9);
        assert_abs_diff_eq!(left.b, Vec2::new(45.0, 90.0), epsilon = 1e-9);
        let right = f.flank_edge(FlankSide::Right);
        assert_abs_diff_eq!(right.a, Vec2::new(-15.0, 90.0), epsilon = 1e-9);
        assert_abs_diff_eq!(right.b, Vec2::new(-15.0, 110.0), epsilon = 1e-9);
        assert_abs_diff_eq!(f.outward(FlankSide::Left), Vec2::new(1.0, 0.0), epsilon = 1e-12);
    }
}
