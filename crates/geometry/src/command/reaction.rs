//! The cavalry reaction zone (000 §3.6): "Cavalry units may react to enemy units which
//! advance to within 6" of their front (not flank or rear as defined by the Flank and Rear
//! Examples in Assault modifiers)".
//!
//! The front is what lies ahead of the unit's flank line: a [`FrontageCone`] whose
//! frontage joins the rear corners of the outermost front bases (the flank line) and
//! whose sides turn 90° outward (so they run along the flank line, parallel to the
//! front). An enemy is in the zone when the part of it ahead of that line is within 6" of
//! the cavalry (closest points). The zone is closed: exactly 6" is within.
//!
//! "Reacting cavalry may begin moving as soon as enemy units approach to within line of
//! sight or 6", whichever is less": an enemy in the zone that the cavalry does not see
//! (the terrain line of sight `vedette los` decides, [`TerrainSight`]) does not count.
//! Reading: the enemy unit counts when some part of it is within 6" of the front and
//! some part of it is seen.

use crate::cone::FrontageCone;
use crate::convex::outset;
use crate::error::GeometryError;
use crate::frame::UnitFrame;
use crate::index::SpatialIndex;
use crate::los::TerrainSight;
use crate::polygon::ConvexPolygon;
use crate::rules::{RuleBook, RuleDistance};
use crate::segment::Segment;
use crate::table::{BaseRef, Table, Unit, UnitKind};
use crate::ties::{ZONE_SLACK_MM, within};
use std::collections::BTreeMap;

/// The front of a unit: the cone ahead of its flank line; `None` for no bases.
#[must_use]
pub fn front_cone(unit: &Unit) -> Option<FrontageCone> {
    let frame = UnitFrame::of(&unit.bases)?;
    let front = unit.front_bases();
    let x = |i: &usize| frame.to_local(unit.bases[*i].centre()).x;
    let l = front.iter().min_by(|a, b| x(a).total_cmp(&x(b)))?;
    let r = front.iter().max_by(|a, b| x(a).total_cmp(&x(b)))?;
    let corner = |i: usize, left: bool| {
        let c = unit.bases[i].corners();
        let (p, q) = (c.rear_left, c.rear_right);
        if (frame.to_local(p).x <= frame.to_local(q).x) == left { p } else { q }
    };
    Some(FrontageCone::flared(Segment::new(corner(*l, true), corner(*r, false)), frame.forward, 90.0))
}

/// Enemy units in a cavalry unit's reaction zone that it sees, with the distance of
/// their part ahead of its flank line (unit index → mm). Empty for a unit that is not
/// cavalry.
pub fn reaction_zone(
    table: &Table,
    index: &SpatialIndex,
    book: &RuleBook,
    sight: &TerrainSight,
    cavalry: usize,
) -> Result<BTreeMap<usize, f64>, GeometryError> {
    if table.units.get(cavalry).is_none_or(|u| u.kind != UnitKind::Cavalry) {
        return Ok(BTreeMap::new());
    }
    let reach = book.distance_mm(RuleDistance::CavalryReaction)?;
    Ok(reaction_zone_within(table, index, sight, cavalry, reach)?
        .into_iter()
        .map(|(u, (d, _))| (u, d))
        .collect())
}

/// [`reaction_zone`] with the reach given, mm (the rule's 6" or more, to find enemies
/// just outside it): each enemy unit seen with some part ahead of the flank line within
/// `reach_mm`, with that part's distance and the enemy base that decides it.
pub fn reaction_zone_within(
    table: &Table,
    index: &SpatialIndex,
    sight: &TerrainSight,
    cavalry: usize,
    reach_mm: f64,
) -> Result<BTreeMap<usize, (f64, BaseRef)>, GeometryError> {
    Ok(reaction_zone_sighted(table, index, sight, cavalry, reach_mm)?
        .into_iter()
        .filter(|(_, z)| z.2)
        .map(|(u, z)| (u, (z.0, z.1)))
        .collect())
}

/// [`reaction_zone_within`] keeping the enemies the cavalry does not see: each with the
/// distance, the deciding base and whether it is seen.
pub fn reaction_zone_sighted(
    table: &Table,
    index: &SpatialIndex,
    sight: &TerrainSight,
    cavalry: usize,
    reach_mm: f64,
) -> Result<BTreeMap<usize, (f64, BaseRef, bool)>, GeometryError> {
    let mut out: BTreeMap<usize, (f64, BaseRef, bool)> = BTreeMap::new();
    let Some(u) = table.units.get(cavalry) else { return Ok(out) };
    if u.kind != UnitKind::Cavalry {
        return Ok(out);
    }
    let Some(cone) = front_cone(u) else { return Ok(out) };
    let planes = cone.half_planes().map(|h| outset(h, ZONE_SLACK_MM));
    for n in index.within_of_unit(cavalry, reach_mm + 1.0) {
        let e = &table.units[n.base.unit];
        if !index.are_enemies(cavalry, n.base.unit) || !(e.is_combat() || e.kind == UnitKind::Skirmisher) {
            continue;
        }
        let Some(b) = table.base(n.base) else { continue };
        let part = ConvexPolygon::from_half_planes(&b.polygon(), &planes);
        if part.is_empty() {
            continue;
        }
        if let Some(d) = u.bases.iter().filter_map(|cb| part.distance_to_base(cb)).reduce(f64::min)
            && within(d, reach_mm)
        {
            let e = out.entry(n.base.unit).or_insert((f64::INFINITY, n.base, false));
            if d < e.0 {
                *e = (d, n.base, false);
            }
        }
    }
    for (&e, z) in &mut out {
        z.2 = sight.unit_verdict(cavalry, e).visible;
    }
    Ok(out)
}
