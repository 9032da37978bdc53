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
//! - Linear obstacles give cover "when behind" (000 §3.6: "the cover bonus only applies
//!   when the unit is taking cover behind the obstacle"): a base is wholly in an
//!   obstacle's cover when the obstacle runs across the strip ahead of its front edge, no
//!   further than [`obstacle_cover_reach_mm`]: under the Republique family the
//!   obstacle's spotting depth (a base touching it, or within its spotting depth behind
//!   it: GEOMETRY.md, low linear obstacles; 1" for walls, hedges and treelines, ½" for
//!   fortress walls and redoubts), under Pro Patria "within 25mm (15mm) and behind"
//!   ([`RuleDistance::BehindCover`], 004 §15.11). Touching its front edge counts.
//! - A stream bank or ravine (000 §3.6 note 2) gives Medium cover to a base touching its
//!   edge ([`crate::ties::touching`]: its front edge within half a millimetre of the
//!   bank, or across it) and Light cover to a base standing back from the edge but
//!   facing it within 1" ([`RuleDistance::StreamBankStandOff`]). The note's exception
//!   (no bonus when the leading attackers can mostly cross within assault range) depends
//!   on the attacker's move and is not decided here.

use crate::base::Base;
use crate::convex::{bbox, boxes_meet};
use crate::error::GeometryError;
use crate::rules::{RuleBook, RuleDistance, RuleSet};
use crate::segment::Segment;
use crate::table::Unit;
use crate::terrain::{CoverClass, CoverPosition, TerrainFeature, TerrainKind};
use crate::ties::{TIE_MM, TOUCHING_MM, half_or_more, touching, within};
use crate::vec2::Vec2;
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
///     crests: vec![],
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
    let mut out = Vec::new();
    for (i, t) in terrain.iter().enumerate() {
        let Some(class) = t.kind.cover_class(rules) else { continue };
        if t.kind.is_linear() {
            if t.kind.properties().cover_position != CoverPosition::Behind || t.path.len() < 2 {
                continue;
            }
            if t.kind == TerrainKind::StreamBank && class == CoverClass::Medium {
                // 000 §3.6 note 2: Medium touching the edge, Light standing back within 1".
                let stand_off = book.distance_mm(RuleDistance::StreamBankStandOff)?;
                match gap_ahead(base, &t.path) {
                    Some(g) if touching(g) => out.push(CoverShare { terrain: i, class, fraction: 1.0 }),
                    Some(g) if within(g, stand_off) => {
                        out.push(CoverShare { terrain: i, class: CoverClass::Light, fraction: 1.0 });
                    }
                    _ => {}
                }
            } else if let Some(r) = obstacle_cover_reach_mm(t.kind, book)?
                && behind(base, &t.path, r)
            {
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
pub fn behind(base: &Base, path: &[Vec2], reach_mm: f64) -> bool {
    gap_ahead(base, path).is_some_and(|g| within(g, reach_mm.max(0.0)))
}

/// How far ahead of the base's front edge the polyline `path` first crosses the strip
/// swept forward from that edge, in mm (0 when it touches or crosses the front edge
/// itself); `None` when no part of it lies in the strip ahead. A path that the front
/// edge overlaps by up to [`TOUCHING_MM`] (a scan's noise) counts as touching it.
#[must_use]
pub fn gap_ahead(base: &Base, path: &[Vec2]) -> Option<f64> {
    let (hw, front) = (base.width() / 2.0, base.depth() / 2.0);
    let mut best: Option<f64> = None;
    for w in path.windows(2) {
        let (a, b) = (base.to_local(w[0]), base.to_local(w[1]));
        // Clip the segment to the strip's sides, |x| <= w/2 (closed).
        let (mut t0, mut t1) = (0.0_f64, 1.0_f64);
        let dx = b.x - a.x;
        if dx.abs() < 1e-15 {
            if a.x.abs() > hw + TIE_MM {
                continue;
            }
        } else {
            let (ta, tb) = ((-hw - TIE_MM - a.x) / dx, (hw + TIE_MM - a.x) / dx);
            t0 = t0.max(ta.min(tb));
            t1 = t1.min(ta.max(tb));
            if t0 > t1 {
                continue;
            }
        }
        let (y0, y1) = (a.y + (b.y - a.y) * t0, a.y + (b.y - a.y) * t1);
        if y0.max(y1) < front - TOUCHING_MM {
            continue; // behind the front edge by more than a touch: not ahead of the base
        }
        let g = (y0.min(y1) - front).max(0.0);
        best = Some(best.map_or(g, |bst: f64| bst.min(g)));
    }
    best
}

fn overlaps_box(ring: &[Vec2], lo: Vec2, hi: Vec2) -> bool {
    boxes_meet(bbox(ring.iter().copied()), (lo, hi))
}

/// How far behind a covering linear obstacle a base still takes cover behind it, mm
/// (its front edge's gap to the obstacle, or the obstacle's distance from the base along
/// the line of fire): Republique family, the obstacle's spotting depth (GEOMETRY.md, low
/// linear obstacles: "a base touching it, or within its spotting depth behind it"; 000
/// §3.6 terrain table: 1" stone walls, hedges and treelines, ½" fortress walls and
/// redoubts; a treeline's cover reaches as far, 1"); Pro Patria, 25 mm (15) (004
/// §15.11). `None` for kinds with no such reach (areas, roads, river banks, and stream
/// banks, whose cover is their own note's: [`base_cover`]).
pub fn obstacle_cover_reach_mm(kind: TerrainKind, book: &RuleBook) -> Result<Option<f64>, GeometryError> {
    if !kind.is_linear() || kind.properties().cover_position != CoverPosition::Behind {
        return Ok(None);
    }
    if book.rules() == RuleSet::ProPatria {
        return if kind.cover_class(RuleSet::ProPatria).is_some() {
            book.distance_mm(RuleDistance::BehindCover).map(Some)
        } else {
            Ok(None)
        };
    }
    match kind.properties().spotting_depth {
        Some(depth) if kind != TerrainKind::StreamBank => book.distance_mm(depth).map(Some),
        _ => Ok(None),
    }
}

/// The cover class of `base` against fire from `from` (000 §4.3, 004 §15.11): within
/// (half or more of its area inside covering areas of the class or better) or behind (a
/// covering obstacle crosses the line from `from` to the base's centre within
/// [`obstacle_cover_reach_mm`] of the base: the obstacle's spotting depth under the
/// Republique family, 25 mm / 15 under Pro Patria); the heavier of the two, `None` in the
/// open. A stream bank or ravine gives combat bases "no extra cover benefit against
/// artillery fire" (000 §3.6 note 2): none here.
pub fn cover_against_fire(
    base: &Base,
    terrain: &[TerrainFeature],
    book: &RuleBook,
    from: Vec2,
) -> Result<Option<CoverClass>, GeometryError> {
    let shares = base_cover(base, terrain, book)?;
    let mut best: Option<CoverClass> = None;
    for class in CoverClass::ALL {
        let within: f64 = shares
            .iter()
            .filter(|s| !terrain[s.terrain].kind.is_linear() && s.class >= class)
            .map(|s| s.fraction)
            .sum();
        if half_or_more(within.min(1.0)) {
            best = Some(class);
        }
    }
    let line = Segment::new(from, base.centre());
    for t in terrain.iter().filter(|t| t.kind.is_linear() && t.path.len() >= 2) {
        let Some(class) = t.kind.cover_class(book.rules()) else { continue };
        let Some(reach_mm) = obstacle_cover_reach_mm(t.kind, book)? else { continue };
        let behind = t.path.windows(2).any(|w| {
            line.intersection(&Segment::new(w[0], w[1]))
                .is_some_and(|p| base.distance_to_point(p) <= reach_mm)
        });
        if behind && best.is_none_or(|b| class > b) {
            best = Some(class);
        }
    }
    Ok(best)
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
    let near = near_terrain(unit, terrain, book);
    let terrain = near.as_deref().unwrap_or(terrain);
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

/// Every kind of linear obstacle.
const OBSTACLES: [TerrainKind; 7] = [
    TerrainKind::FortressWall,
    TerrainKind::RiverBank,
    TerrainKind::StreamBank,
    TerrainKind::StoneWall,
    TerrainKind::Redoubt,
    TerrainKind::Treeline,
    TerrainKind::Hedge,
];

/// How far from a base a covering obstacle still counts for [`base_cover`], mm (the
/// farthest reach behind an obstacle, and a stream bank's stand-off), and a millimetre
/// more for ties; `None` when the rule set lacks one (then `base_cover` itself says so).
fn cover_reach_mm(book: &RuleBook) -> Option<f64> {
    let mut reach: f64 = 0.0;
    for k in OBSTACLES {
        reach = reach.max(obstacle_cover_reach_mm(k, book).ok()?.unwrap_or(0.0));
    }
    if book.rules() != RuleSet::ProPatria {
        reach = reach.max(book.distance_mm(RuleDistance::StreamBankStandOff).ok()?);
    }
    Some(reach + 1.0)
}

/// The terrain features that can give any base of `unit` cover ([`base_cover`]): those
/// whose box meets the unit's box grown by [`cover_reach_mm`]. A unit's cover is asked
/// for every class and base, each looking through every feature; on a large table most
/// are metres away. `None` (look through them all) when the reach is not in the rule set.
fn near_terrain(unit: &Unit, terrain: &[TerrainFeature], book: &RuleBook) -> Option<Vec<TerrainFeature>> {
    let grow = cover_reach_mm(book)?;
    let (lo, hi) = bbox(unit.bases.iter().flat_map(Base::vertices_ccw));
    let (lo, hi) = (lo - Vec2::new(grow, grow), hi + Vec2::new(grow, grow));
    Some(
        terrain
            .iter()
            .filter(|t| boxes_meet(bbox(t.outline.iter().chain(&t.path).copied()), (lo, hi)))
            .cloned()
            .collect(),
    )
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Scale;
    use crate::base::{BaseSize, Pose};

    /// A 30 x 20 mm defender facing a stream bank `gap` mm ahead of its front edge, the
    /// whole scene turned by `turn` degrees about (500, 500) and the base moved by
    /// `(dx, dy, dh)` of scan noise; the cover class it gets from the bank.
    fn bank_cover(gap: f64, turn: f64, (dx, dy, dh): (f64, f64, f64)) -> Option<CoverClass> {
        let book = RuleBook::try_new(RuleSet::Republique5, Scale::Medium).unwrap();
        let o = Vec2::new(500.0, 500.0);
        let rot = |p: Vec2| o + (p - o).rotated_deg(turn);
        let bank = TerrainFeature {
            crests: Vec::new(),
            id: Some("brook".into()),
            kind: TerrainKind::StreamBank,
            level: 0.0,
            outline: vec![],
            holes: vec![],
            path: vec![rot(Vec2::new(300.0, 600.0)), rot(Vec2::new(700.0, 600.0))],
        };
        let centre = rot(Vec2::new(500.0 + dx, 600.0 - gap - 10.0 + dy));
        let base = Base::new(BaseSize::new(30.0, 20.0), Pose::new(centre, 90.0 + turn + dh));
        let shares = base_cover(&base, &[bank], &book).unwrap();
        assert!(shares.len() <= 1);
        shares.first().map(|s| s.class)
    }

    #[test]
    fn stream_bank_gives_medium_touching_and_light_standing_back() {
        // 000 §3.6 note 2: Medium for bases touching the edge, Light standing back within
        // 1" (25.4 mm), nothing beyond. Touching is within half a millimetre (ties).
        let cases = [
            (-0.6, None),                     // standing across the bank: not behind it
            (-0.3, Some(CoverClass::Medium)), // front edge just across the bank
            (0.0, Some(CoverClass::Medium)),
            (0.4, Some(CoverClass::Medium)),
            (0.6, Some(CoverClass::Light)),
            (0.4 * 25.4, Some(CoverClass::Light)), // the issue's 0.4" stand-off
            (25.3, Some(CoverClass::Light)),
            (25.4, Some(CoverClass::Light)), // exactly 1": within
            (25.5, None),
        ];
        for turn in [0.0, 37.0, 90.0, 213.5] {
            for (gap, want) in cases {
                assert_eq!(
                    bank_cover(gap, turn, (0.0, 0.0, 0.0)),
                    want,
                    "gap {gap} mm, table turned {turn}°"
                );
            }
        }
    }

    #[test]
    fn stream_bank_cover_survives_scan_noise_away_from_thresholds() {
        // Away from the thresholds (0.5 mm and 25.4 mm) by more than the noise can move
        // the front edge (0.1 mm plus 15 mm x sin 0.2° = 0.15 mm), the class holds.
        let noise = [(0.1, -0.1, 0.2), (-0.1, 0.1, -0.2), (0.07, 0.07, 0.1)];
        for turn in [0.0, 61.0, 180.0] {
            for n in noise {
                assert_eq!(bank_cover(0.0, turn, n), Some(CoverClass::Medium));
                assert_eq!(bank_cover(1.0, turn, n), Some(CoverClass::Light));
                assert_eq!(bank_cover(24.8, turn, n), Some(CoverClass::Light));
                assert_eq!(bank_cover(26.0, turn, n), None);
            }
        }
    }

    #[test]
    fn gap_ahead_ignores_what_lies_beside_or_behind() {
        let base = Base::new(BaseSize::new(30.0, 20.0), Pose::new(Vec2::new(0.0, 0.0), 90.0));
        // Beside the strip (x beyond ±15): nothing.
        assert_eq!(gap_ahead(&base, &[Vec2::new(16.0, 5.0), Vec2::new(16.0, 50.0)]), None);
        // Behind the base: nothing.
        assert_eq!(gap_ahead(&base, &[Vec2::new(-50.0, -20.0), Vec2::new(50.0, -20.0)]), None);
        // A slanted bank entering the strip at its right side, 5 mm ahead of the front.
        let g = gap_ahead(&base, &[Vec2::new(15.0, 15.0), Vec2::new(45.0, 45.0)]).unwrap();
        assert!((g - 5.0).abs() < 1e-9, "{g}");
    }
}
