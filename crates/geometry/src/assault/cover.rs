//! Cover (Republique 5.0 §5.4 "Each cover point"): how much of each base lies inside
//! each terrain area, and whether a unit counts as in cover.
//!
//! "To count as in-cover, the unit must either a) Have half or more of its bases
//! individually half or more within the cover in question, or b) Have half or more of
//! the bases whose edges are on the assault contact face within the cover in question
//! (As with "a", the contact face bases must also be individually half or more within
//! the cover)."
//!
//! Fractions are exact: each terrain outline (holes included) is clipped to the base
//! rectangle ([`Polygon::area_inside`]). Choices where the text is silent:
//! - "the cover in question" is a cover class; a base's share of a class counts every
//!   area of that class *or better* (half in heavy forest and half in medium forest is
//!   wholly in at least medium cover). The unit gets the best class that passes.
//! - Shares of separate features add up (capped at the whole base): features of a table
//!   are taken not to overlap one another.
//! - Linear obstacles give cover "when behind" (000 §3.6), which is not an area: they are
//!   not counted here.

use crate::base::Base;
use crate::rules::RuleSet;
use crate::table::Unit;
use crate::terrain::{CoverClass, CoverPosition, TerrainFeature};
use crate::ties::half_or_more;
use serde::Serialize;

/// The share of one base inside one terrain area.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct CoverShare {
    /// Index of the feature in the table's `terrain`.
    pub terrain: usize,
    /// Its cover class under the rule set.
    pub class: CoverClass,
    /// The fraction of the base's area inside it (0 to 1).
    pub fraction: f64,
}

/// The fraction of `base` inside each covering area feature (those with a cover class
/// under `rules`), leaving out features it does not reach.
///
/// ```
/// use vedette_geometry::{Base, BaseSize, Pose, RuleSet, TerrainFeature, TerrainKind, Vec2, base_cover};
/// let wood = TerrainFeature { id: None, kind: TerrainKind::MediumForest, level: 0.0,
///     outline: vec![Vec2::new(0.0, 0.0), Vec2::new(100.0, 0.0), Vec2::new(100.0, 100.0), Vec2::new(0.0, 100.0)],
///     holes: vec![], path: vec![] };
/// // A 30 x 20 base straddling the wood's edge at x = 0, 15.3 mm of its width inside: 51%.
/// let b = Base::new(BaseSize::new(30.0, 20.0), Pose::new(Vec2::new(0.3, 50.0), 90.0));
/// let s = base_cover(&b, &[wood], RuleSet::Republique5);
/// assert!((s[0].fraction - 0.51).abs() < 1e-12);
/// ```
#[must_use]
pub fn base_cover(base: &Base, terrain: &[TerrainFeature], rules: RuleSet) -> Vec<CoverShare> {
    let poly = base.polygon();
    let (lo, hi) = base.aabb();
    terrain
        .iter()
        .enumerate()
        .filter_map(|(i, t)| {
            let class = t.kind.cover_class(rules)?;
            if t.kind.properties().cover_position != CoverPosition::Within && t.kind.is_linear() {
                return None;
            }
            if t.outline.len() < 3 || !overlaps_box(&t.outline, lo, hi) {
                return None;
            }
            let fraction = (t.polygon().area_inside(&poly) / base.area()).clamp(0.0, 1.0);
            (fraction > 0.0).then_some(CoverShare { terrain: i, class, fraction })
        })
        .collect()
}

fn overlaps_box(ring: &[crate::vec2::Vec2], lo: crate::vec2::Vec2, hi: crate::vec2::Vec2) -> bool {
    let (mut a, mut b) = (
        crate::vec2::Vec2::new(f64::INFINITY, f64::INFINITY),
        crate::vec2::Vec2::new(f64::NEG_INFINITY, f64::NEG_INFINITY),
    );
    for p in ring {
        a = crate::vec2::Vec2::new(a.x.min(p.x), a.y.min(p.y));
        b = crate::vec2::Vec2::new(b.x.max(p.x), b.y.max(p.y));
    }
    a.x <= hi.x && b.x >= lo.x && a.y <= hi.y && b.y >= lo.y
}

/// The fraction of `base` inside cover of class `at_least` or better (0 to 1).
#[must_use]
pub fn fraction_in_cover(
    base: &Base,
    terrain: &[TerrainFeature],
    rules: RuleSet,
    at_least: CoverClass,
) -> f64 {
    base_cover(base, terrain, rules)
        .iter()
        .filter(|s| s.class >= at_least)
        .map(|s| s.fraction)
        .sum::<f64>()
        .min(1.0)
}

/// The verdict of the §5.4 in-cover test for one unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct CoverVerdict {
    /// The best cover class the unit counts as in.
    pub class: CoverClass,
    /// Test a) holds: half or more of all its bases are each half or more in it.
    pub by_unit: bool,
    /// Test b) holds: half or more of its contact-face bases are each half or more in it.
    pub by_contact_face: bool,
}

/// How many of `bases` are each half or more inside cover of class `class` or better.
fn count_covered<'a>(
    bases: impl Iterator<Item = &'a Base>,
    terrain: &[TerrainFeature],
    rules: RuleSet,
    class: CoverClass,
) -> (usize, usize) {
    let mut n = 0;
    let mut covered = 0;
    for b in bases {
        n += 1;
        if half_or_more(fraction_in_cover(b, terrain, rules, class)) {
            covered += 1;
        }
    }
    (covered, n)
}

/// The §5.4 in-cover test: the best cover class `unit` counts as in, by its bases or by
/// its contact face (`contact_face`: indices of the unit's bases on the assault contact
/// face; empty when there is none); `None` when it is in no cover.
///
/// "Half or more" of the bases: 2 of 4 is enough, 1 of 3 is not ([`half_or_more`]).
#[must_use]
pub fn unit_cover(
    unit: &Unit,
    contact_face: &[usize],
    terrain: &[TerrainFeature],
    rules: RuleSet,
) -> Option<CoverVerdict> {
    if terrain.is_empty() {
        return None;
    }
    for class in CoverClass::ALL.into_iter().rev() {
        let (c, n) = count_covered(unit.bases.iter(), terrain, rules, class);
        let by_unit = n > 0 && 2 * c >= n;
        let face: Vec<&Base> = contact_face.iter().filter_map(|&i| unit.bases.get(i)).collect();
        let (fc, fnn) = count_covered(face.into_iter(), terrain, rules, class);
        let by_contact_face = fnn > 0 && 2 * fc >= fnn;
        if by_unit || by_contact_face {
            return Some(CoverVerdict { class, by_unit, by_contact_face });
        }
    }
    None
}

/// True when the unit stands in buildings: half or more of its bases are each half or
/// more inside built-up areas (the §5.4 test a), applied to building kinds; used by the
/// flank exceptions of 000 §5.4 and 001 §4.3).
#[must_use]
pub fn in_buildings(unit: &Unit, terrain: &[TerrainFeature]) -> bool {
    let mut covered = 0;
    for b in &unit.bases {
        let poly = b.polygon();
        let (lo, hi) = b.aabb();
        let inside: f64 = terrain
            .iter()
            .filter(|t| t.kind.is_buildings() && t.outline.len() >= 3 && overlaps_box(&t.outline, lo, hi))
            .map(|t| t.polygon().area_inside(&poly))
            .sum::<f64>();
        if half_or_more((inside / b.area()).min(1.0)) {
            covered += 1;
        }
    }
    !unit.bases.is_empty() && 2 * covered >= unit.bases.len()
}
