//! The close call of a unit's §5.4 cover verdict (issue 17, [`crate::close_call`]): how
//! far its bases must move for the unit's cover class to change.
//!
//! A unit's class is the best class for which half or more of its bases (or of its
//! contact-face bases) are each half or more within cover of that class or better
//! ([`unit_cover`]). It changes when enough bases cross "half in": the class is lost
//! when every route that grants it fails, and the next class is gained when either
//! route succeeds.
//!
//! Each base's margin against "half in cover of class C or better" is:
//! - **straddling an area's edge** (a fraction strictly between 0 and 1): `|f - ½|·A / L`,
//!   the base's area `A` times its fraction's distance from one half over the length `L`
//!   of the covering outlines inside the base: moving the base by `δ` across those edges
//!   changes the area inside by at most `L·δ`, so this is the first-order move (exact for
//!   one straight edge crossing the base);
//! - **wholly inside or wholly outside**: the distance from the base to the covering
//!   outlines plus half its smaller side, a lower bound (it must first reach the edge,
//!   then move half of itself across);
//! - **behind a linear obstacle** (000 §3.6, 004 §15.11): the gap ahead of its front edge
//!   against the reach (for a stream bank, against touching for Medium and 1" for
//!   Light); a sideways move that takes the obstacle out of the strip ahead is not
//!   counted.
//!
//! Where a base has several of these, the least is taken (a lower bound). A route that
//! needs `k` bases to flip has the `k`-th least margin among them. The party is that
//! base, with its half diagonal as the lever.

use super::cover::{fraction_in_cover, gap_ahead, unit_cover};
use crate::base::Base;
use crate::close_call::{CloseCall, Party};
use crate::convex::{segment_distance_mm, segment_inside};
use crate::error::GeometryError;
use crate::rules::{RuleBook, RuleDistance};
use crate::segment::Segment;
use crate::table::{BaseRef, Table};
use crate::terrain::{CoverClass, CoverPosition, TerrainFeature, TerrainKind};
use crate::ties::{TOUCHING_MM, half_or_more};
use crate::vec2::Vec2;

/// How far from a unit's bases covering terrain is looked for, mm: a unit with no
/// terrain feature this close has no cover call (its class cannot change by a smaller
/// move).
pub const COVER_CALL_REACH_MM: f64 = 25.4;

/// The close call of the cover class of `unit` (contact face `contact_face`), `None`
/// when the table has no terrain (no cover verdict), no feature within
/// [`COVER_CALL_REACH_MM`] of the unit's bases, or the unit is missing.
pub fn cover_call(
    table: &Table,
    unit: usize,
    contact_face: &[usize],
    book: &RuleBook,
) -> Result<Option<CloseCall>, GeometryError> {
    let Some(u) = table.units.get(unit) else { return Ok(None) };
    let terrain = &table.terrain;
    if terrain.is_empty() || u.bases.is_empty() {
        return Ok(None);
    }
    // Only features near the unit can change its class by a small move.
    let near = terrain_near(terrain, &u.bases, COVER_CALL_REACH_MM);
    if near.is_empty() {
        return Ok(None);
    }
    let terrain = near.as_slice();
    let current = unit_cover(u, contact_face, terrain, book)?.map(|v| v.class);
    let face: Vec<usize> = contact_face.iter().copied().filter(|&i| i < u.bases.len()).collect();
    let all: Vec<usize> = (0..u.bases.len()).collect();
    let routes: Vec<&[usize]> = if face.is_empty() { vec![&all] } else { vec![&all, &face] };
    // (margin, base) of the nearest flip, over losing the current class and gaining the
    // next one.
    let mut best: Option<(f64, usize)> = None;
    let mut consider = |c: Option<(f64, usize)>| {
        if let Some(c) = c
            && best.is_none_or(|b| c.0 < b.0)
        {
            best = Some(c);
        }
    };
    if let Some(class) = current {
        // Lose it: every route that grants it must fail (the largest of their margins).
        let mut lose: Option<(f64, usize)> = None;
        for r in &routes {
            let m = route_margin(u.bases.as_slice(), r, terrain, book, class, true)?;
            if let Some(m) = m
                && lose.is_none_or(|l| m.0 > l.0)
            {
                lose = Some(m);
            }
        }
        consider(lose);
    }
    let next = match current {
        None => Some(CoverClass::Light),
        Some(c) => CoverClass::ALL.into_iter().find(|&n| n > c),
    };
    if let Some(next) = next {
        for r in &routes {
            consider(route_margin(u.bases.as_slice(), r, terrain, book, next, false)?);
        }
    }
    let Some((margin, base)) = best else { return Ok(None) };
    let r = BaseRef::new(unit, base);
    let parties: Vec<Party> = table.base(r).map(|b| Party::anywhere(r, b, None)).into_iter().collect();
    Ok(Some(CloseCall::new(table, margin, &parties)))
}

/// The terrain features whose outline, holes or path come within `reach_mm` of one of
/// `bases`, or that hold a base's centre: measured edge to edge, so that which features
/// count does not depend on how the table is turned (issue 41 item 2: by bounding boxes,
/// a table turned 37° gained and lost cover calls). Bounding boxes only rule out the far
/// ones first.
#[must_use]
pub fn terrain_near(terrain: &[TerrainFeature], bases: &[Base], reach_mm: f64) -> Vec<TerrainFeature> {
    let grow = Vec2::new(reach_mm, reach_mm);
    let corners: Vec<([Vec2; 4], (Vec2, Vec2))> = bases
        .iter()
        .map(|b| {
            let (lo, hi) = b.aabb();
            (b.vertices_ccw(), (lo - grow, hi + grow))
        })
        .collect();
    terrain
        .iter()
        .filter(|t| {
            let Some(fbox) = feature_box(t) else { return false };
            corners
                .iter()
                .any(|(c, near)| crate::convex::boxes_meet(*near, fbox) && within_reach(t, c, reach_mm))
        })
        .cloned()
        .collect()
}

/// The bounding box of a feature's outline and path; `None` without points.
fn feature_box(t: &TerrainFeature) -> Option<(Vec2, Vec2)> {
    let mut pts = t.outline.iter().chain(t.path.iter());
    let first = *pts.next()?;
    Some(pts.fold((first, first), |(a, b), p| {
        (Vec2::new(a.x.min(p.x), a.y.min(p.y)), Vec2::new(b.x.max(p.x), b.y.max(p.y)))
    }))
}

/// True when a line of `t` (outline, hole or path) comes within `reach_mm` of the base
/// with corners `corners`, or the base's centre lies in `t`'s area.
fn within_reach(t: &TerrainFeature, corners: &[Vec2; 4], reach_mm: f64) -> bool {
    let ring = |r: &[Vec2]| -> Vec<Segment> {
        (0..r.len()).map(|i| Segment::new(r[i], r[(i + 1) % r.len()])).collect()
    };
    let mut lines: Vec<Segment> = ring(&t.outline);
    lines.extend(t.holes.iter().flat_map(|h| ring(h)));
    lines.extend(t.path.windows(2).map(|w| Segment::new(w[0], w[1])));
    if lines.iter().any(|s| segment_distance_mm(s, corners) <= reach_mm) {
        return true;
    }
    let centre = corners.iter().fold(Vec2::ZERO, |a, &p| a + p) / 4.0;
    t.outline.len() >= 3 && t.polygon().contains(centre)
}

/// The margin of one route (the unit's bases, or its contact face) against class
/// `class`: when `holds`, how far until it no longer grants the class; otherwise how far
/// until it does ([`half_flip`]). `None` when the route is not in the state `holds` says
/// or cannot change.
fn route_margin(
    bases: &[Base],
    route: &[usize],
    terrain: &[TerrainFeature],
    book: &RuleBook,
    class: CoverClass,
    holds: bool,
) -> Result<Option<(f64, usize)>, GeometryError> {
    let mut items = Vec::with_capacity(route.len());
    for &i in route {
        let Some(b) = bases.get(i) else { continue };
        let covered = half_or_more(fraction_in_cover(b, terrain, book, class)?);
        items.push((base_margin(b, terrain, book, class)?, covered, i));
    }
    Ok(half_flip(&items, holds))
}

/// The nearest flip of a "half or more of these bases are covered" verdict, from each
/// base's `(margin, covered, index)`: when the verdict `holds`, the bases that must stop
/// being covered are the surplus over half plus one, and the `k`-th least margin among
/// the covered bases is the verdict's; otherwise the shortfall, among the uncovered
/// ones. `None` when the verdict is not in the state `holds` says, or no base can flip.
#[must_use]
pub fn half_flip(items: &[(f64, bool, usize)], holds: bool) -> Option<(f64, usize)> {
    let n = items.len();
    let c = items.iter().filter(|m| m.1).count();
    if (n > 0 && 2 * c >= n) != holds {
        return None;
    }
    let k = if holds { c + 1 - n.div_ceil(2) } else { n.div_ceil(2) - c };
    let mut pool: Vec<(f64, usize)> =
        items.iter().filter(|m| m.1 == holds && m.0.is_finite()).map(|m| (m.0, m.2)).collect();
    pool.sort_by(|a, b| a.0.total_cmp(&b.0));
    k.checked_sub(1).and_then(|k| pool.get(k)).copied()
}

/// One base's margin against "half or more within covering areas of `class` or better"
/// (the areas part of [`base_margin`]), mm; infinite when no such area is near.
pub fn area_margin(base: &Base, terrain: &[TerrainFeature], book: &RuleBook, class: CoverClass) -> f64 {
    let rules = book.rules();
    let poly = base.polygon();
    let areas: Vec<&TerrainFeature> = terrain
        .iter()
        .filter(|t| !t.kind.is_linear() && t.outline.len() >= 3)
        .filter(|t| t.kind.cover_class(rules).is_some_and(|c| c >= class))
        .collect();
    if areas.is_empty() {
        return f64::INFINITY;
    }
    let fraction: f64 =
        (areas.iter().map(|t| t.polygon().area_inside(&poly)).sum::<f64>() / base.area()).clamp(0.0, 1.0);
    let edges = || {
        areas.iter().flat_map(|t| {
            std::iter::once(&t.outline).chain(t.holes.iter()).flat_map(|ring| {
                (0..ring.len()).map(move |i| Segment::new(ring[i], ring[(i + 1) % ring.len()]))
            })
        })
    };
    let inside_length: f64 =
        edges().filter_map(|s| segment_inside(poly.vertices(), &s).map(|x| x.length())).sum();
    if fraction > 0.0 && fraction < 1.0 && inside_length > 0.0 {
        (fraction - 0.5).abs() * base.area() / inside_length
    } else {
        let reach = edges().map(|s| segment_distance_mm(&s, poly.vertices())).fold(f64::INFINITY, f64::min);
        reach + 0.5 * base.width().min(base.depth())
    }
}

/// One base's margin against "half or more within cover of `class` or better" (see the
/// module documentation), mm; infinite when no covering feature is near enough to count.
fn base_margin(
    base: &Base,
    terrain: &[TerrainFeature],
    book: &RuleBook,
    class: CoverClass,
) -> Result<f64, GeometryError> {
    let rules = book.rules();
    let mut margin = area_margin(base, terrain, book, class);
    // Linear obstacles the base may stand behind.
    for t in terrain.iter().filter(|t| t.kind.is_linear() && t.path.len() >= 2) {
        let Some(tc) = t.kind.cover_class(rules) else { continue };
        if t.kind.properties().cover_position != CoverPosition::Behind {
            continue;
        }
        let limit = if t.kind == TerrainKind::StreamBank && tc == CoverClass::Medium {
            match class {
                CoverClass::Light => Some(book.distance_mm(RuleDistance::StreamBankStandOff)?),
                CoverClass::Medium => Some(TOUCHING_MM),
                _ => None,
            }
        } else if tc >= class {
            super::cover::obstacle_cover_reach_mm(t.kind, book)?
        } else {
            None
        };
        if let (Some(limit), Some(g)) = (limit, gap_ahead(base, &t.path)) {
            margin = margin.min((g - limit).abs());
        }
    }
    Ok(margin)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::{BaseSize, Pose};
    use crate::table::{Unit, UnitKind};
    use crate::vec2::Vec2;
    use crate::{RuleSet, Scale};

    fn wood(x0: f64) -> TerrainFeature {
        TerrainFeature {
            crests: Vec::new(),
            id: None,
            kind: TerrainKind::MediumForest,
            level: 0.0,
            outline: vec![
                Vec2::new(x0, 0.0),
                Vec2::new(x0 + 500.0, 0.0),
                Vec2::new(x0 + 500.0, 500.0),
                Vec2::new(x0, 500.0),
            ],
            holes: vec![],
            path: vec![],
        }
    }

    fn one_base_table(x: f64, wood_x: f64) -> Table {
        let b = Base::new(BaseSize::new(30.0, 20.0), Pose::new(Vec2::new(x, 100.0), 90.0));
        let mut t = Table::new(
            RuleSet::Republique5,
            Scale::Medium,
            vec![Unit::new("a", "one", UnitKind::Infantry, vec![b])],
        );
        t.terrain = vec![wood(wood_x)];
        t
    }

    #[test]
    fn a_base_straddling_a_wood_edge_by_hand() {
        // A 30 x 20 base (x from x - 15 to x + 15) and a wood from x = 0: with x = 3 the
        // base has 18 of its 30 mm inside: 60%, in Medium cover. The wood's edge crosses
        // it over its 20 mm depth: margin (0.6 - 0.5) · 600 / 20 = 3 mm (move 3 mm left
        // and exactly half is in, still cover; one more hair and it is not). Gaining
        // Heavy is impossible (no heavy terrain): the call is losing Medium.
        let book = RuleBook::try_new(RuleSet::Republique5, Scale::Medium).unwrap_or_else(|_| unreachable!());
        for (x, margin) in [(3.0, 3.0), (-2.0, 2.0), (0.5, 0.5)] {
            let t = one_base_table(x, 0.0);
            let c = cover_call(&t, 0, &[], &book).ok().flatten().map(|c| c.margin_mm);
            assert!(c.is_some_and(|m| (m - margin).abs() < 1e-9), "x = {x}: {c:?}");
        }
        // Wholly outside, 10 mm short of the wood: at least 10 + 10 (half its depth).
        let t = one_base_table(-25.0, 0.0);
        let c = cover_call(&t, 0, &[], &book).ok().flatten().map(|c| c.margin_mm);
        assert!(c.is_some_and(|m| (m - 20.0).abs() < 1e-9), "{c:?}");
    }
}
