//! Pro Patria artillery bounce-through (004 §17.3.9): "Each gun model that hits its
//! target rolls again for each unit behind the target up to the bounce-through distance
//! specified on the Artillery Chart. The total range of the gun firing including the
//! bounce through range cannot exceed the range of the calibre of the gun that fired ...
//! Bounce through range is calculated from the front edge of the original target unit
//! and any units within this distance are rolled for ... Bounce through ceases when the
//! limit of the range is reached, there are no more eligible targets, or the shot
//! encounters an obstacle, urban area, wood or hill. Bounce through will not occur when
//! shooting from a lower elevation to a higher elevation or when firing from a high hill
//! to the table top."
//!
//! The Artillery Chart (the bounce-through distance and each calibre's range) is not in
//! the rule text this project reads, so both are the caller's to give. Readings:
//! - **The line of fire** runs from the middle of the front edge of the firing stand
//!   nearest the target to the target's nearest point (on its front edge, the edge facing
//!   the gun); the bounce runs on along that line from that point for the distance.
//! - **Units within this distance** are those with a stand the bounce line crosses before
//!   it ends (closed: a stand it reaches exactly at the end counts), friend or foe (a
//!   friendly unit hit is "friendly fire", §17.3.6), the target and the firer excepted.
//! - **Encounters** a wood (forest, orchard), urban area (buildings) or hill: the line
//!   enters one of their outlines, or starts inside one (a target standing in a wood
//!   stops the ball at once); an **obstacle**: it crosses a linear obstacle (every linear
//!   feature but a road).
//! - **Range**: the line of fire's length plus the bounce never exceeds the gun's range,
//!   when given.
//! - **Elevation** (the ground model of the terrain line of sight): no bounce when the
//!   firer stands lower than the target, or on a high hill with the target on the table
//!   top (each unit on the lowest ground any of its stands is on).

use crate::base::Base;
use crate::convex::segment_inside;
use crate::error::GeometryError;
use crate::los::TerrainSight;
use crate::pro_patria::arcs::Elevation;
use crate::segment::Segment;
use crate::table::{BaseRef, Table};
use crate::terrain::TerrainKind;
use crate::ties::within;
use crate::vec2::Vec2;

/// Why a bounce did not happen at all.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoBounce {
    /// The firer stands lower than the target.
    Uphill,
    /// The firer is on a high hill and the target on the table top.
    HighHillToTableTop,
    /// The target lies at or beyond the gun's range: nothing is left for the bounce.
    OutOfRange,
}

/// Where a bounce ended early: the terrain feature it met and how far along, mm.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BounceStop {
    /// The feature's index in the table's `terrain`.
    pub terrain: usize,
    /// Its kind.
    pub kind: TerrainKind,
    /// How far beyond the target's front edge, mm (0: the ball starts inside it).
    pub at_mm: f64,
}

/// A unit the bounce reaches.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BounceHit {
    /// The unit.
    pub unit: usize,
    /// Its first stand the line crosses.
    pub base: BaseRef,
    /// How far beyond the target's front edge the line enters it, mm.
    pub at_mm: f64,
    /// On the firer's side (friendly fire).
    pub friendly: bool,
}

/// One bounce-through.
#[derive(Debug, Clone, PartialEq)]
pub struct BounceThrough {
    /// The firing stand.
    pub firer_base: BaseRef,
    /// Where the line of fire leaves the gun (the middle of its front edge), mm.
    pub muzzle: Vec2,
    /// Where the bounce starts: the target's nearest point, mm.
    pub start: Vec2,
    /// The unit direction of the bounce.
    pub direction: Vec2,
    /// The line of fire's length, mm.
    pub range_mm: f64,
    /// The bounce's reach, mm: the chart's distance, cut to what the gun's range leaves
    /// and to where it meets terrain.
    pub reach_mm: f64,
    /// It was cut by the gun's range.
    pub range_limited: bool,
    /// The terrain that stopped it early.
    pub stop: Option<BounceStop>,
    /// No bounce at all, and why.
    pub none: Option<NoBounce>,
    /// The units it reaches, nearest first.
    pub hits: Vec<BounceHit>,
}

/// The bounce-through of `firer`'s shot at `target` (unit indices): `bounce_mm` from the
/// Artillery Chart, `gun_range_mm` the calibre's range when known. `None` when either
/// unit has no stands.
///
/// # Errors
/// [`GeometryError::WrongKind`] when `firer` is no artillery (issue 41 item 7).
pub fn bounce_through(
    table: &Table,
    sight: &TerrainSight,
    firer: usize,
    target: usize,
    bounce_mm: f64,
    gun_range_mm: Option<f64>,
) -> Result<Option<BounceThrough>, GeometryError> {
    let (Some(f), Some(t)) = (table.units.get(firer), table.units.get(target)) else { return Ok(None) };
    crate::pro_patria::bombardment::artillery_only(f, "bounce-through (004 §17.3.9) is an artillery shot")?;
    // The firing stand nearest the target, and the target's point nearest its muzzle.
    let Some((fi, muzzle, start)) = f
        .bases
        .iter()
        .enumerate()
        .filter_map(|(i, b)| {
            let m = b.front_edge().midpoint();
            let nearest = t
                .bases
                .iter()
                .map(|tb| tb.closest_point(m))
                .min_by(|a, b| a.distance(m).total_cmp(&b.distance(m)))?;
            Some((i, m, nearest))
        })
        .min_by(|a, b| a.1.distance(a.2).total_cmp(&b.1.distance(b.2)))
    else {
        return Ok(None);
    };
    let range_mm = muzzle.distance(start);
    let direction = (start - muzzle).normalized().unwrap_or(f.bases[fi].forward());
    let mut out = BounceThrough {
        firer_base: BaseRef::new(firer, fi),
        muzzle,
        start,
        direction,
        range_mm,
        reach_mm: bounce_mm.max(0.0),
        range_limited: false,
        stop: None,
        none: None,
        hits: Vec::new(),
    };
    let level =
        |u: usize, n: usize| (0..n).map(|i| sight.level_of(BaseRef::new(u, i))).fold(f64::INFINITY, f64::min);
    let (fl, tl) = (level(firer, f.bases.len()), level(target, t.bases.len()));
    if fl < tl {
        out.none = Some(NoBounce::Uphill);
    } else if Elevation::of(f, firer, sight) == Elevation::HighHill
        && Elevation::of(t, target, sight) == Elevation::TableTop
    {
        out.none = Some(NoBounce::HighHillToTableTop);
    }
    if let Some(g) = gun_range_mm {
        let left = g - range_mm;
        if left <= 0.0 {
            out.none = out.none.or(Some(NoBounce::OutOfRange));
        } else if left < out.reach_mm {
            out.reach_mm = left;
            out.range_limited = true;
        }
    }
    if out.none.is_some() {
        out.reach_mm = 0.0;
        return Ok(Some(out));
    }
    // The first terrain the line meets.
    for (k, feature) in table.terrain.iter().enumerate() {
        let kind = feature.kind;
        let stops_area = kind == TerrainKind::Hill
            || kind.is_buildings()
            || matches!(
                kind,
                TerrainKind::LightForest
                    | TerrainKind::Orchard
                    | TerrainKind::MediumForest
                    | TerrainKind::HeavyForest
            );
        let at = if kind.is_linear() {
            if kind == TerrainKind::Road {
                continue;
            }
            first_crossing(start, direction, out.reach_mm, feature.path.windows(2).map(|w| (w[0], w[1])))
        } else if stops_area && feature.outline.len() >= 3 {
            if feature.polygon().contains(start) {
                Some(0.0)
            } else {
                let rings = std::iter::once(&feature.outline).chain(feature.holes.iter());
                first_crossing(
                    start,
                    direction,
                    out.reach_mm,
                    rings.flat_map(|r| (0..r.len()).map(move |i| (r[i], r[(i + 1) % r.len()]))),
                )
            }
        } else {
            None
        };
        if let Some(at) = at
            && out.stop.is_none_or(|s| at < s.at_mm)
        {
            out.stop = Some(BounceStop { terrain: k, kind, at_mm: at });
        }
    }
    if let Some(s) = out.stop {
        out.reach_mm = s.at_mm;
    }
    // The units whose stands the line reaches.
    let mut hits: Vec<BounceHit> = Vec::new();
    for (ui, u) in table.units.iter().enumerate() {
        if ui == firer || ui == target {
            continue;
        }
        let entry = u
            .bases
            .iter()
            .enumerate()
            .filter_map(|(bi, b)| entry_mm(b, start, direction, out.reach_mm).map(|at| (bi, at)))
            .min_by(|a, b| a.1.total_cmp(&b.1));
        if let Some((bi, at_mm)) = entry {
            hits.push(BounceHit { unit: ui, base: BaseRef::new(ui, bi), at_mm, friendly: u.side == f.side });
        }
    }
    hits.sort_by(|a, b| a.at_mm.total_cmp(&b.at_mm).then(a.unit.cmp(&b.unit)));
    out.hits = hits;
    Ok(Some(out))
}

/// How far along the ray from `start` in `dir` it first crosses one of `edges`, within
/// `reach` (closed); `None` when it does not.
fn first_crossing(
    start: Vec2,
    dir: Vec2,
    reach: f64,
    edges: impl Iterator<Item = (Vec2, Vec2)>,
) -> Option<f64> {
    let ray = Segment::new(start, start + dir * reach);
    edges
        .filter_map(|(a, b)| ray.intersection(&Segment::new(a, b)))
        .map(|p| (p - start).dot(dir).max(0.0))
        .filter(|&at| within(at, reach))
        .min_by(|a, b| a.total_cmp(b))
}

/// How far along the ray from `start` in `dir` it enters stand `b`, within `reach`
/// (closed); `None` when it misses it.
fn entry_mm(b: &Base, start: Vec2, dir: Vec2, reach: f64) -> Option<f64> {
    let poly = b.polygon();
    segment_inside(poly.vertices(), &Segment::new(start, start + dir * reach))
        .map(|s| (s.a - start).dot(dir).max(0.0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SpatialIndex;
    use crate::base::{BaseSize, Pose};
    use crate::table::{Unit, UnitKind};
    use crate::terrain::TerrainFeature;
    use crate::{RuleSet, Scale};

    fn stand(x: f64, y: f64, heading: f64, w: f64, d: f64) -> Base {
        Base::new(BaseSize::new(w, d), Pose::new(Vec2::new(x, y), heading))
    }

    /// A gun (40 x 40, front edge y = 120) firing straight up +y at a battalion whose
    /// front edge is y = 500 (60 x 20 stand), a second enemy 100 mm behind that edge
    /// (front edge y = 600) and a friend 180 mm behind (y = 680).
    fn scene(terrain: Vec<TerrainFeature>) -> Table {
        let mut t = Table::new(
            RuleSet::ProPatria,
            Scale::Figures28mm,
            vec![
                Unit::new("gun", "fr", UnitKind::Artillery, vec![stand(900.0, 100.0, 90.0, 40.0, 40.0)]),
                Unit::new("t", "au", UnitKind::Infantry, vec![stand(900.0, 510.0, 270.0, 60.0, 20.0)]),
                Unit::new("e", "au", UnitKind::Infantry, vec![stand(900.0, 610.0, 270.0, 60.0, 20.0)]),
                Unit::new("f", "fr", UnitKind::Infantry, vec![stand(900.0, 690.0, 90.0, 60.0, 20.0)]),
            ],
        );
        t.terrain = terrain;
        t
    }

    fn bounce(t: &Table, mm: f64, range: Option<f64>) -> BounceThrough {
        let index = SpatialIndex::new(t);
        let sight = TerrainSight::try_new(&index).unwrap_or_else(|_| unreachable!());
        bounce_through(t, &sight, 0, 1, mm, range).ok().flatten().unwrap_or_else(|| unreachable!())
    }

    #[test]
    fn units_behind_within_the_distance_by_hand() {
        // Line of fire (900, 120) -> (900, 500): 380 mm. The enemy enters at 100 mm, the
        // friend at 180 mm.
        let t = scene(vec![]);
        let b = bounce(&t, 180.0, None);
        assert!((b.range_mm - 380.0).abs() < 1e-9);
        let hits: Vec<(usize, f64, bool)> = b.hits.iter().map(|h| (h.unit, h.at_mm, h.friendly)).collect();
        assert_eq!(hits.len(), 2, "{hits:?}");
        assert!((hits[0].1 - 100.0).abs() < 1e-9 && !hits[0].2);
        assert!((hits[1].1 - 180.0).abs() < 1e-9 && hits[1].2, "exactly at the distance counts");
        assert_eq!(bounce(&t, 179.9, None).hits.len(), 1);
        // A gun range of 480 mm leaves 100 mm: the enemy (exactly at it) only.
        let b = bounce(&t, 180.0, Some(480.0));
        assert!(b.range_limited && (b.reach_mm - 100.0).abs() < 1e-9 && b.hits.len() == 1);
        assert_eq!(bounce(&t, 180.0, Some(380.0)).none, Some(NoBounce::OutOfRange));
    }

    #[test]
    fn a_hedge_or_a_wood_stops_it() {
        let hedge = TerrainFeature {
            crests: Vec::new(),
            id: None,
            kind: TerrainKind::Hedge,
            level: 0.0,
            outline: vec![],
            holes: vec![],
            path: vec![Vec2::new(800.0, 550.0), Vec2::new(1000.0, 550.0)],
        };
        let b = bounce(&scene(vec![hedge]), 180.0, None);
        assert!(b.stop.is_some_and(|s| (s.at_mm - 50.0).abs() < 1e-9) && b.hits.is_empty());
        let wood = TerrainFeature {
            crests: Vec::new(),
            id: None,
            kind: TerrainKind::LightForest,
            level: 0.0,
            outline: vec![
                Vec2::new(800.0, 640.0),
                Vec2::new(1000.0, 640.0),
                Vec2::new(1000.0, 900.0),
                Vec2::new(800.0, 900.0),
            ],
            holes: vec![],
            path: vec![],
        };
        // The enemy (100 mm) is hit; the wood at 140 mm stops it before the friend.
        let b = bounce(&scene(vec![wood]), 180.0, None);
        assert_eq!(b.hits.iter().map(|h| h.unit).collect::<Vec<_>>(), vec![2]);
        assert_eq!(b.stop.map(|s| s.kind), Some(TerrainKind::LightForest));
    }
}
