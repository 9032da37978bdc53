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
//!   battery's front edge to the base's centre within its spotting depth of the base (a
//!   unit taking cover behind it: touching it, or within its spotting depth behind it;
//!   [`crate::assault::cover::obstacle_cover_reach_mm`]). A unit standing further back is
//!   in the open, and seen over the obstacle (GEOMETRY.md, low linear obstacles). A stream
//!   bank gives combat bases no cover against artillery (000 §3.6 note 2).
//! - Fortress walls count as reinforced for this modifier (the text names no column for
//!   them; reinforced is the heaviest it names).
//! - **Closest to the centre of fire**: the visible base nearest the centre-of-fire line
//!   (ties to the lower base index). When the unit is covered and that base is not, the
//!   battery fires at the uncovered portions without the modifier.

use crate::artillery::assessment::MainTarget;
use crate::assault::cover::{cover_against_fire, obstacle_cover_reach_mm};
use crate::assault::cover_call::{COVER_CALL_REACH_MM, area_margin, half_flip, terrain_near};
use crate::close_call::{CloseCall, Party};
use crate::convex::segment_distance_mm;
use crate::error::GeometryError;
use crate::los::TerrainSight;
use crate::rules::RuleBook;
use crate::segment::Segment;
use crate::table::{BaseRef, Table};
use crate::terrain::CoverClass;
use crate::ties::half_or_more;
use crate::vec2::Vec2;

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
    /// The close call of `class` ([`class_call`]); `None` when no visible base can flip
    /// it (no covering terrain near).
    pub call: Option<CloseCall>,
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

    /// The visible bases (indices into the target unit's bases) within or behind
    /// medium or better cover: the ones that count toward "half or more of the visible
    /// portions" (000 §4.3).
    #[must_use]
    pub fn covered_bases(&self) -> Vec<usize> {
        self.visible_bases
            .iter()
            .zip(&self.base_classes)
            .filter(|(_, k)| k.is_some_and(|k| k >= CoverClass::Medium))
            .map(|(&i, _)| i)
            .collect()
    }
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
            call: None,
        });
    };
    let from = gun.front_midpoint();
    let mut visible_bases = Vec::new();
    let mut base_classes = Vec::new();
    for (i, b) in unit.bases.iter().enumerate() {
        if sight.base_verdict(battery, BaseRef::new(main.unit, i)).is_some_and(|v| v.visible) {
            visible_bases.push(i);
            base_classes.push(cover_against_fire(b, &table.terrain, book, from)?);
        }
    }
    let n = visible_bases.len();
    let class = [CoverClass::Reinforced, CoverClass::Heavy, CoverClass::Medium].into_iter().find(|&c| {
        let covered = base_classes.iter().filter(|k| k.is_some_and(|k| k >= c)).count();
        n > 0 && half_or_more(covered as f64 / n as f64)
    });
    let aimed = (0..n).min_by(|&a, &b| {
        let d = |k: usize| {
            segment_distance_mm(&main.centre_of_fire, unit.bases[visible_bases[k]].polygon().vertices())
        };
        d(a).total_cmp(&d(b)).then(a.cmp(&b))
    });
    let fires_at_uncovered =
        class.is_some() && aimed.is_some_and(|k| base_classes[k].is_none_or(|c| c < CoverClass::Medium));
    let call = class_call(table, book, from, main.unit, &visible_bases, &base_classes, class);
    Ok(TargetCover {
        call,
        aimed_base: aimed.map(|k| visible_bases[k]),
        visible_bases,
        base_classes,
        class,
        fires_at_uncovered,
    })
}

/// The classes the modifier knows, lightest first (fortress walls count as reinforced).
const FIRE_COVER: [CoverClass; 3] = [CoverClass::Medium, CoverClass::Heavy, CoverClass::Reinforced];

/// The close call of a target's cover class (issue 17): the nearest of losing its class
/// (half or more of its visible bases must stay covered) and gaining the next one, each
/// from the visible bases' own margins ([`half_flip`]):
/// - within an area: as the assault test's ([`area_margin`]: first order across an edge,
///   a lower bound when wholly in or out);
/// - behind an obstacle: where the line of fire to the base's centre crosses it, its
///   distance from the base against the obstacle's reach (its spotting depth; a
///   sideways move that takes the line off the obstacle is not counted).
///
/// Which bases the battery sees, and the centre-of-fire exception, are not carried. The
/// party is the deciding base, half diagonal as lever. `None` when no terrain lies within
/// [`COVER_CALL_REACH_MM`] of the target.
#[allow(clippy::too_many_arguments)]
fn class_call(
    table: &Table,
    book: &RuleBook,
    from: Vec2,
    unit: usize,
    visible: &[usize],
    classes: &[Option<CoverClass>],
    class: Option<CoverClass>,
) -> Option<CloseCall> {
    let u = table.units.get(unit)?;
    // Only terrain near the target can change its class by a small move.
    let near = terrain_near(&table.terrain, &u.bases, COVER_CALL_REACH_MM);
    if near.is_empty() {
        return None;
    }
    let margins = |c: CoverClass| -> Vec<(f64, bool, usize)> {
        visible
            .iter()
            .zip(classes)
            .filter_map(|(&i, k)| {
                let b = u.bases.get(i)?;
                let line = Segment::new(from, b.centre());
                let behind = near
                    .iter()
                    .filter(|t| {
                        t.kind.is_linear() && t.kind.cover_class(book.rules()).is_some_and(|tc| tc >= c)
                    })
                    .filter_map(|t| Some((t, obstacle_cover_reach_mm(t.kind, book).ok()??)))
                    .flat_map(|(t, reach_mm)| {
                        t.path
                            .windows(2)
                            .filter_map(|w| line.intersection(&Segment::new(w[0], w[1])))
                            .map(move |p| (b.distance_to_point(p) - reach_mm).abs())
                    })
                    .fold(f64::INFINITY, f64::min);
                let m = area_margin(b, &near, book, c).min(behind);
                Some((m, k.is_some_and(|k| k >= c), i))
            })
            .collect()
    };
    let lose = class.and_then(|c| half_flip(&margins(c.min(CoverClass::Reinforced)), true));
    let next = FIRE_COVER.into_iter().find(|&n| class.is_none_or(|c| n > c));
    let gain = next.and_then(|n| half_flip(&margins(n), false));
    let (margin, base) = [lose, gain].into_iter().flatten().min_by(|a, b| a.0.total_cmp(&b.0))?;
    let r = BaseRef::new(unit, base);
    let parties: Vec<Party> = table.base(r).map(|b| Party::anywhere(r, b, None)).into_iter().collect();
    Some(CloseCall::new(table, margin, &parties))
}
