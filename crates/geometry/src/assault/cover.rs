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
//! rectangle ([`crate::Polygon::area_inside`]). Choices where the text is silent:
//! - "the cover in question" is a cover class; a base's share of a class counts every
//!   area of that class *or better* (half in heavy forest and half in medium forest is
//!   wholly in at least medium cover). The unit gets the best class that passes.
//! - Shares of separate features add up (capped at the whole base): features of a table
//!   are taken not to overlap one another.
//! - Linear obstacles give cover "when behind" (000 §3.6): a base is wholly in an
//!   obstacle's cover when the obstacle runs across the strip ahead of its front edge,
//!   no further than [`RuleDistance::ObstacleCover`] (Republique family: ½", a project
//!   default, since the text states no distance) or Pro Patria's "within 25mm (15mm) and
//!   behind" ([`RuleDistance::BehindCover`], 004 §15.11). Touching its front edge counts.

use crate::base::{Base, BaseSize, Pose};
use crate::error::GeometryError;
use crate::rules::{RuleBook, RuleDistance, RuleSet};
use crate::segment::Segment;
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

/// The fraction of `base` in each covering feature under the book's rule set: areas by
/// exact area, obstacles wholly (1.0) when the base stands behind them; features it does
/// not reach are left out.
///
/// ```
/// use vedette_geometry::{Base, BaseSize, Pose, RuleBook, RuleSet, Scale, TerrainFeature, TerrainKind, Vec2, base_cover};
/// let book = RuleBook::try_new(RuleSet::Republique5, Scale::Medium)?;
/// let wood = TerrainFeature { id: None, kind: TerrainKind::MediumForest, level: 0.0,
///     outline: vec![Vec2::new(0.0, 0.0), Vec2::new(100.0, 0.0), Vec2::new(100.0, 100.0), Vec2::new(0.0, 100.0)],
///     holes: vec![], path: vec![] };
/// // A 30 x 20 base straddling the wood's edge at x = 0, 15.3 mm of its width inside: 51%.
/// let b = Base::new(BaseSize::new(30.0, 20.0), Pose::new(Vec2::new(0.3, 50.0), 90.0));
/// let s = base_cover(&b, &[wood], &book)?;
/// assert!((s[0].fraction - 0.51).abs() < 1e-12);
/// # Ok::<(), vedette_geometry::GeometryError>(())
/// ```
pub fn base_cover(
    base: &Base,
    terrain: &[TerrainFeature],
    book: &RuleBook,
) -> Result<Vec<CoverShare>, GeometryError> {
    let rules = book.rules();
    let poly = base.polygon();
    let (lo, hi) = base.aabb();
    let mut reach: Option<f64> = None;
    let mut out = Vec::new();
    for (i, t) in terrain.iter().enumerate() {
        let Some(class) = t.kind.cover_class(rules) else { continue };
        if t.kind.is_linear() {
            if t.kind.properties().cover_position != CoverPosition::Behind || t.path.len() < 2 {
                continue;
            }
            let r = match reach {
                Some(r) => r,
                None => {
                    let r = book.distance_mm(if rules == RuleSet::ProPatria {
                        RuleDistance::BehindCover
                    } else {
                        RuleDistance::ObstacleCover
                    })?;
                    reach = Some(r);
                    r
                }
            };
            if behind(base, &t.path, r) {
                out.push(CoverShare { terrain: i, class, fraction: 1.0 });
            }
            continue;
        }
        if t.outline.len() < 3 || !overlaps_box(&t.outline, lo, hi) {
            continue;
        }
        let fraction = (t.polygon().area_inside(&poly) / base.area()).clamp(0.0, 1.0);
        if fraction > 0.0 {
            out.push(CoverShare { terrain: i, class, fraction });
        }
    }
    Ok(out)
}

/// True when the polyline `path` crosses the strip `reach_mm` deep ahead of the base's
/// front edge (closed: touching the front edge counts).
#[must_use]
pub fn behind(base: &Base, path: &[crate::vec2::Vec2], reach_mm: f64) -> bool {
    // Closed: the strip reaches a tie tolerance behind the front edge and past the reach.
    let depth = reach_mm.max(0.0) + 2.0 * crate::ties::TIE_MM;
    let strip = Base::new(
        BaseSize::new(base.width(), depth),
        Pose::new(base.front_midpoint() + base.forward() * (reach_mm.max(0.0) / 2.0), base.heading_deg()),
    );
    let edges = strip.edges();
    path.windows(2).any(|w| {
        let s = Segment::new(w[0], w[1]);
        strip.contains(s.a) || strip.contains(s.b) || edges.iter().any(|e| e.intersection(&s).is_some())
    })
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
pub fn fraction_in_cover(
    base: &Base,
    terrain: &[TerrainFeature],
    book: &RuleBook,
    at_least: CoverClass,
) -> Result<f64, GeometryError> {
    Ok(base_cover(base, terrain, book)?
        .iter()
        .filter(|s| s.class >= at_least)
        .map(|s| s.fraction)
        .sum::<f64>()
        .min(1.0))
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
    book: &RuleBook,
    class: CoverClass,
) -> Result<(usize, usize), GeometryError> {
    let mut n = 0;
    let mut covered = 0;
    for b in bases {
        n += 1;
        if half_or_more(fraction_in_cover(b, terrain, book, class)?) {
            covered += 1;
        }
    }
    Ok((covered, n))
}

/// The §5.4 in-cover test: the best cover class `unit` counts as in, by its bases or by
/// its contact face (`contact_face`: indices of the unit's bases on the assault contact
/// face; empty when there is none); `None` when it is in no cover.
///
/// "Half or more" of the bases: 2 of 4 is enough, 1 of 3 is not ([`half_or_more`]).
pub fn unit_cover(
    unit: &Unit,
    contact_face: &[usize],
    terrain: &[TerrainFeature],
    book: &RuleBook,
) -> Result<Option<CoverVerdict>, GeometryError> {
    if terrain.is_empty() {
        return Ok(None);
    }
    for class in CoverClass::ALL.into_iter().rev() {
        let (c, n) = count_covered(unit.bases.iter(), terrain, book, class)?;
        let by_unit = n > 0 && 2 * c >= n;
        let face: Vec<&Base> = contact_face.iter().filter_map(|&i| unit.bases.get(i)).collect();
        let (fc, fnn) = count_covered(face.into_iter(), terrain, book, class)?;
        let by_contact_face = fnn > 0 && 2 * fc >= fnn;
        if by_unit || by_contact_face {
            return Ok(Some(CoverVerdict { class, by_unit, by_contact_face }));
        }
    }
    Ok(None)
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
