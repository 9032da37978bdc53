//! A roster unit put on the table by hand (issue 37): where the scan found none of its
//! bases, `vedette serve` offers to lay the unit out where the player shows it, in the
//! layout the fitter looks for ([`Shape`]: a line, two or three lines, a column), its
//! front toward the enemy's table edge as the fitter's prior has it ([`toward_enemy`]).

use super::formation::Shape;
use super::toward_enemy;
use crate::roster::{Roster, RosterUnit};
use vedette_geometry::{Base, BaseMeta, Facing, Pose, Unit, Vec2};

/// `unit` laid out in its formation about `centre` (table mm), its front toward
/// `heading_deg`: its bases in roster order (front rank first, each left to right),
/// touching, their facing assumed (the player turns it round in one tap).
#[must_use]
pub fn laid_out(unit: &RosterUnit, centre: Vec2, heading_deg: f64) -> Unit {
    let shape = Shape::of(0, unit);
    let forward = Vec2::from_heading_deg(heading_deg);
    let right = forward.perp_right();
    let bases = (0..shape.count())
        .map(|i| {
            let s = shape.slot(i);
            Base::new(shape.size, Pose::new(centre + right * s.x + forward * s.y, heading_deg))
                .with_meta(BaseMeta { facing: Some(Facing::Assumed), ..BaseMeta::default() })
        })
        .collect();
    unit.to_unit(bases)
}

/// Whether `unit`, standing in the near half of the table (y below its middle) or not,
/// faces the far edge (y grows toward its front) as the fitter's prior has it: by the
/// roster's `near_side`, else by the half it stands in.
#[must_use]
pub fn faces_far(roster: &Roster, unit: &RosterUnit, in_near_half: bool) -> bool {
    toward_enemy(roster.game.near_side.as_deref(), &unit.side, in_near_half) > 0.0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn roster() -> Roster {
        Roster::from_toml_str(
            "[game]\nnear_side = \"austria\"\n\n[[unit]]\nid = \"au-1\"\nside = \"austria\"\nkind = \"infantry\"\nformation = \"two-line\"\nbase_mm = [40, 20]\nbases = 4\n\n[[unit]]\nid = \"fr-1\"\nside = \"france\"\nkind = \"cavalry\"\nformation = \"column\"\nbase_mm = [40, 30]\nbases = 2\n",
            "test.toml",
        )
        .unwrap()
    }

    /// Two lines of two 40 x 20 mm bases about (500, 300) facing heading 0 (+x): the
    /// front rank's bases stand 10 mm ahead of the centre, 20 mm either side of it.
    #[test]
    fn two_lines_are_laid_out_front_rank_first_left_to_right() {
        let r = roster();
        let u = laid_out(&r.units[0], Vec2::new(500.0, 300.0), 0.0);
        assert_eq!((u.id.as_str(), u.side.as_str(), u.bases.len()), ("au-1", "austria", 4));
        let centres: Vec<(f64, f64)> = u.bases.iter().map(|b| (b.centre().x, b.centre().y)).collect();
        // Facing +x, the unit's right is -y.
        assert_eq!(centres, vec![(510.0, 320.0), (510.0, 280.0), (490.0, 320.0), (490.0, 280.0)]);
        for b in &u.bases {
            assert_eq!((b.width(), b.depth(), b.heading_deg()), (40.0, 20.0, 0.0));
            assert_eq!(b.meta().facing, Some(Facing::Assumed));
            assert_eq!((b.meta().found, b.meta().sigma_mm), (None, None));
        }
    }

    /// A column is one file: its bases one behind the other along its heading.
    #[test]
    fn a_column_is_one_file() {
        let r = roster();
        let u = laid_out(&r.units[1], Vec2::new(0.0, 0.0), 90.0);
        let ys: Vec<f64> = u.bases.iter().map(|b| b.centre().y).collect();
        assert_eq!(ys, vec![15.0, -15.0]);
        assert!(u.bases.iter().all(|b| b.centre().x.abs() < 1e-12));
    }

    /// The near side faces the far edge wherever it stands; the other side the near one.
    #[test]
    fn the_near_side_faces_the_far_edge() {
        let r = roster();
        for half in [true, false] {
            assert!(faces_far(&r, &r.units[0], half));
            assert!(!faces_far(&r, &r.units[1], half));
        }
    }
}
