//! Secondary targets (000 §4.5): "Tandem Target: A tandem secondary target is any unit
//! which is within the attacking battery's firing zone and within 4" of the main
//! target's front. Tandem secondary targets must also be in open terrain." "Adjacent
//! Target: An adjacent secondary target is any unit within the firing battery's firing
//! zone which is next to, and within the same range bracket as, the main target." The
//! figure: "Unit B is a potential adjacent secondary target, and unit C, whose front is
//! ... within 2" of the front of Unit A, is a potential tandem secondary target" (C
//! stands behind A, B beside it).
//!
//! # The reading
//! Both are enemy units that could be targets ([`crate::TargetClass`]), other than the
//! main target, with part of a base inside the firing zone as aimed at the main target
//! ([`crate::FiringZone::holds_part_of`]).
//! - **In tandem** means one behind the other: in the main target's own frame
//!   ([`crate::UnitBox`]) the unit overlaps the main target across its front (by more
//!   than a micrometre). A tandem target also has its face (the front edges of its front
//!   bases) within 4" of the main target's face, and stands in open terrain
//!   ([`crate::OpenGround::unit_in_open`]).
//! - **Next to** means beside: no overlap across the main target's front, and within
//!   [`crate::RuleDistance::AdjacentTarget`] (2", a project default) of it edge to edge,
//!   with its range in the main target's bracket.
//!
//! A unit is tandem or adjacent, never both. Distances at exactly the limit count as
//! within.

use crate::artillery::battery::Battlefield;
use crate::artillery::firing_zone::FiringZone;
use crate::artillery::range::BRACKET_TIE_MM;
use crate::artillery::targets::TargetAssessment;
use crate::frame::UnitBox;
use crate::table::Unit;
use crate::unit_structure::closest_between;

/// Across-the-front overlaps of at most this (mm) are side by side.
const SIDE_BY_SIDE_MM: f64 = 1e-6;

/// A battery's secondary targets, as unit indices in table order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SecondaryTargets {
    /// Tandem targets.
    pub tandem: Vec<usize>,
    /// Adjacent targets.
    pub adjacent: Vec<usize>,
}

fn face_distance_mm(a: &Unit, b: &Unit) -> f64 {
    let (fa, fb) = (a.face(), b.face());
    fa.iter().flat_map(|x| fb.iter().map(move |y| x.distance_2(y))).fold(f64::INFINITY, f64::min).sqrt()
}

/// The tandem and adjacent targets of fire on `targets[main]` through `zone`.
#[must_use]
pub fn secondary_targets(
    field: &Battlefield<'_>,
    targets: &[TargetAssessment],
    main: usize,
    zone: &FiringZone,
) -> SecondaryTargets {
    let table = field.table;
    let mut out = SecondaryTargets::default();
    let Some(m) = targets.get(main) else { return out };
    let main_unit = &table.units[m.unit];
    let Some(main_box) = UnitBox::of(&main_unit.bases) else { return out };
    let (ml, mh) = main_box.across;
    for (i, t) in targets.iter().enumerate() {
        if i == main {
            continue;
        }
        let u = &table.units[t.unit];
        if !t.bases.iter().any(|&bi| u.bases.get(bi).is_some_and(|b| zone.holds_part_of(b))) {
            continue;
        }
        let (lo, hi) = main_box.frame.across_of(u.bases.iter().flat_map(|b| b.vertices_ccw()));
        let in_tandem = hi.min(mh) - lo.max(ml) > SIDE_BY_SIDE_MM;
        if in_tandem {
            if face_distance_mm(main_unit, u) <= field.rules.tandem_mm + BRACKET_TIE_MM
                && field.ground.unit_in_open(table, t.unit)
            {
                out.tandem.push(t.unit);
            }
        } else if t.bracket == m.bracket
            && closest_between(&main_unit.bases, &u.bases)
                .is_some_and(|c| c.closest.distance_mm <= field.rules.adjacent_mm + BRACKET_TIE_MM)
        {
            out.adjacent.push(t.unit);
        }
    }
    out
}
