//! Cover of an artillery target (000 §4.3 range column modifiers): "If half or more of
//! the visible portions of the target unit are within or behind medium or heavy cover,
//! move one range column to the right"; reinforced cover, two columns. "If an artillery
//! battery's center of fire is closest to the uncovered base(s) of an otherwise covered
//! unit, the battery may fire without cover modifiers at the uncovered portions."
//!
//! Readings (the text leaves them open; one place each):
//! - **Visible portions** are counted by base: the target's bases of which the battery
//!   sees some part (the terrain line of sight of `vedette los`). Half or more of them,
//!   by count, must be covered ([`crate::ties::half_or_more`]).
//! - **Within** cover: half or more of the base's area inside covering terrain areas of
//!   the class or better (as the §5.4 assault test counts a base). **Behind** cover: a
//!   covering obstacle (wall, hedge, redoubt, ...) crosses the line from the middle of the
//!   battery's front edge to the base's centre within ½" of the base (the
//!   "cover when behind" distance of [`RuleDistance::ObstacleCover`]).
//! - Fortress walls count as reinforced for this modifier (the text names no column for
//!   them; reinforced is the heaviest it names).
//! - **Closest to the centre of fire**: the visible base nearest the centre-of-fire line
//!   (ties to the lower base index). When the unit is covered and that base is not, the
//!   battery fires at the uncovered portions without the modifier.

use crate::artillery::assessment::MainTarget;
use crate::assault::cover::cover_against_fire;
use crate::base::Base;
use crate::error::GeometryError;
use crate::los::TerrainSight;
use crate::rules::{RuleBook, RuleDistance};
use crate::segment::Segment;
use crate::table::{BaseRef, Table};
use crate::terrain::CoverClass;
use crate::ties::half_or_more;

/// The cover verdict on a battery's main target.
#[derive(Debug, Clone, PartialEq)]
pub struct TargetCover {
    /// The target unit's bases of which the battery sees some part.
    pub visible_bases: Vec<usize>,
    /// Each visible base's cover class (within or behind), `None` in the open.
    pub base_classes: Vec<Option<CoverClass>>,
    /// The class the unit counts as in: the heaviest of medium, heavy and reinforced
    /// that half or more of its visible bases are in (or better); `None` otherwise.
    pub class: Option<CoverClass>,
    /// The visible base nearest the centre of fire.
    pub aimed_base: Option<usize>,
    /// The centre of fire is nearest an uncovered base of a covered unit: no modifier.
    pub fires_at_uncovered: bool,
}

impl TargetCover {
    /// Range columns to the right: 1 for medium or heavy cover, 2 for reinforced (and
    /// fortress), 0 in the open or when firing at the uncovered portions.
    #[must_use]
    pub fn columns_right(&self) -> u8 {
        match self.class {
            _ if self.fires_at_uncovered => 0,
            Some(CoverClass::Reinforced | CoverClass::Fortress) => 2,
            Some(CoverClass::Medium | CoverClass::Heavy) => 1,
            _ => 0,
        }
    }
}

/// Distance from a base to a segment (0 when they meet), mm.
fn base_to_segment_mm(b: &Base, s: &Segment) -> f64 {
    if b.contains(s.a) || b.contains(s.b) {
        return 0.0;
    }
    b.edges().iter().map(|e| e.closest_points(s).distance_mm).fold(f64::INFINITY, f64::min)
}

/// The cover of `main`'s target unit against battery base `battery` (see the module docs
/// for the readings).
pub fn target_cover(
    table: &Table,
    book: &RuleBook,
    sight: &TerrainSight,
    battery: BaseRef,
    main: &MainTarget,
) -> Result<TargetCover, GeometryError> {
    let (Some(gun), Some(unit)) = (table.base(battery), table.units.get(main.unit)) else {
        return Ok(TargetCover {
            visible_bases: vec![],
            base_classes: vec![],
            class: None,
            aimed_base: None,
            fires_at_uncovered: false,
        });
    };
    let reach = book.distance_mm(RuleDistance::ObstacleCover)?;
    let from = gun.front_midpoint();
    let mut visible_bases = Vec::new();
    let mut base_classes = Vec::new();
    for (i, b) in unit.bases.iter().enumerate() {
        if sight.base_verdict(battery, BaseRef::new(main.unit, i)).is_some_and(|v| v.visible) {
            visible_bases.push(i);
            base_classes.push(cover_against_fire(b, &table.terrain, book, from, reach)?);
        }
    }
    let n = visible_bases.len();
    let class = [CoverClass::Reinforced, CoverClass::Heavy, CoverClass::Medium].into_iter().find(|&c| {
        let covered = base_classes.iter().filter(|k| k.is_some_and(|k| k >= c)).count();
        n > 0 && half_or_more(covered as f64 / n as f64)
    });
    let aimed = (0..n).min_by(|&a, &b| {
        let d = |k: usize| base_to_segment_mm(&unit.bases[visible_bases[k]], &main.centre_of_fire);
        d(a).total_cmp(&d(b)).then(a.cmp(&b))
    });
    let fires_at_uncovered =
        class.is_some() && aimed.is_some_and(|k| base_classes[k].is_none_or(|c| c < CoverClass::Medium));
    Ok(TargetCover {
        aimed_base: aimed.map(|k| visible_bases[k]),
        visible_bases,
        base_classes,
        class,
        fires_at_uncovered,
    })
}
