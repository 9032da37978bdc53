//! Close calls of the sight verdicts inside the report (issue 17): the artillery's line
//! of sight to a full base (000 §4.2), the skirmish marker's sight of its targets
//! (000 §4.1) and the cavalry's sight of an enemy in its reaction zone (000 §3.6).
//!
//! Each is measured as `vedette los` measures its own verdicts
//! ([`crate::los::close_calls`]): every base is grown or shrunk by the same `k` mm
//! against the verdict, and the margin is the smallest `k` that flips it
//! ([`flip_margin`]). A report holds hundreds of such verdicts, so each is decided on
//! the verdict's **local table** (`local_table.rs`: the bases and terrain within
//! [`crate::los::LOCAL_REACH_MM`] of the verdict's own bases, and what else can decide
//! it), as `los` decides its own.
//!
//! The sigma is the largest of the local table's bases' and the table's skirmish
//! markers' `sigma_mm` plus half diagonal times heading sigma, as for `los`; the nudge
//! names the target's first base.

use super::close_calls::{Against, members, moved};
use super::local_table::LocalTable;
use crate::close_call::{CloseCall, PERTURBED_MIN_SIDE_MM, base_sigma, flip_margin};
use crate::error::GeometryError;
use crate::index::{SpatialIndex, regiment_boxes};
use crate::los::terrain_model::ModelSpare;
use crate::los::{PreparedTerrain, TerrainSight};
use crate::sight::FullVisibility;
use crate::table::{BaseRef, Selection, Table};
use crate::vec2::Vec2;
use std::borrow::Cow;
use std::cell::Cell;
use std::sync::Arc;

/// The close call of a sight verdict `holds` between the bases `spotter` and `target`:
/// `full` picks the family (some target base seen in full, or some point seen), and
/// `test` decides the verdict on a perturbed local table, given the spotter's own
/// resize (negative: shrunk), mm.
fn local_call(
    table: &Table,
    index: &SpatialIndex<'_>,
    spotter: &[BaseRef],
    target: &[BaseRef],
    holds: bool,
    full: bool,
    test: impl Fn(&TerrainSight, &Table, &[BaseRef], &[BaseRef], f64) -> bool,
) -> Result<CloseCall, GeometryError> {
    let all: Vec<BaseRef> = spotter.iter().chain(target).copied().collect();
    let local = LocalTable::around(table, Some(index), &all);
    let (sb, tb) = (local.map_all(spotter), local.map_all(target));
    let against = match (full, holds) {
        (false, true) => Against::Visible,
        (false, false) => Against::Hidden,
        (true, true) => Against::FullBase,
        (true, false) => Against::NoFullBase,
    };
    let spotter_sign = against.signs().0;
    // Every skirmish marker counts, kept in the local table or not.
    let regiments = if std::ptr::eq(index.table(), table) {
        Cow::Borrowed(index.regiments())
    } else {
        Cow::Owned(regiment_boxes(table))
    };
    let markers = regiments.iter().filter_map(|&(u, _)| table.units.get(u)).flat_map(|u| &u.bases);
    let sigma = local.table.bases().map(|(_, b)| b).chain(markers).filter_map(base_sigma).reduce(f64::max);
    // Each step on the local table narrowed to what can decide it at `k`, over terrain
    // prepared once (it never moves).
    let terrain = Arc::new(PreparedTerrain::try_new(&local.table)?);
    let all = local.map_all(&all);
    let mut narrowing = local.narrowing();
    let mut spare = ModelSpare::default();
    let margin = flip_margin(|k| {
        local.narrow_moved(&all, k, |r, b| moved(r, b, &sb, &tb, against, k), &mut narrowing);
        let near = &narrowing.local;
        let (nsb, ntb) = (near.map_all(&sb), near.map_all(&tb));
        let sight = TerrainSight::scanning(&near.table, &terrain, std::mem::take(&mut spare))?;
        let flips = test(&sight, &near.table, &nsb, &ntb, spotter_sign * k) != holds;
        spare = sight.into_spare();
        Ok::<bool, GeometryError>(flips)
    })?;
    Ok(CloseCall::perturbed(margin, sigma, target.first().copied()))
}

/// The close call of "spotter base `spotter` sees some point of one of `targets`" (its
/// rule set's eye, [`TerrainSight::base_verdict`]), whose verdict is `visible`: a
/// skirmish marker's sight of an enemy unit's bases within 3" (000 §4.1).
///
/// # Errors
/// When the table's terrain cannot be modelled ([`TerrainSight::try_new`]).
pub fn base_sight_call(
    table: &Table,
    index: &SpatialIndex<'_>,
    spotter: BaseRef,
    targets: &[BaseRef],
    visible: bool,
) -> Result<CloseCall, GeometryError> {
    local_call(table, index, &[spotter], targets, visible, false, |sight, _, sb, tb, _| {
        sb.first().is_some_and(|&s| tb.iter().any(|&t| sight.base_verdict(s, t).is_some_and(|v| v.visible)))
    })
}

/// The close call of "unit `spotter` sees some point of unit `target`"
/// ([`TerrainSight::unit_verdict`]), whose verdict is `visible`: the cavalry's sight of
/// an enemy in its reaction zone (000 §3.6).
///
/// # Errors
/// When the table's terrain cannot be modelled ([`TerrainSight::try_new`]).
pub fn unit_sight_call(
    table: &Table,
    index: &SpatialIndex<'_>,
    spotter: usize,
    target: usize,
    visible: bool,
) -> Result<CloseCall, GeometryError> {
    let (sb, tb) = (members(table, Selection::Unit(spotter)), members(table, Selection::Unit(target)));
    local_call(table, index, &sb, &tb, visible, false, |sight, _, sb, tb, _| match (sb.first(), tb.first()) {
        (Some(s), Some(t)) => sight.unit_verdict(s.unit, t.unit).visible,
        _ => false,
    })
}

/// The close call of "one of `targets` is seen in full from the segment `eye` of base
/// `spotter`" ([`crate::LineOfSight::full_base_visible`]), whose verdict is `seen`: the
/// artillery's line of sight from its frontage (000 §4.2). The eye moves with its base's
/// front edge: a shrunk base's eye steps back and shortens by `k` at each end (a grown
/// one the reverse), and once the base is shrunk to its smallest
/// ([`crate::close_call::resized`]) the eye stays on its front edge. `forward` is the
/// spotter's forward unit vector.
///
/// The eye never steps behind the front of its base: a base shrunk past half its depth
/// to a speck at its centre, with its eye stepped back `k` behind that speck, cast the
/// speck's shadow (an eye and a speck both 0.01 mm wide: a strip whose width was
/// rounding noise) over the target, and the table's turn decided whether that strip
/// closed before the target or hid a sliver of it (issue 41: the grand battle turned
/// 37° moved a margin from 32.81 to 32.42 mm).
///
/// # Errors
/// When the table's terrain cannot be modelled ([`TerrainSight::try_new`]).
pub fn full_base_sight_call(
    table: &Table,
    index: &SpatialIndex<'_>,
    spotter: BaseRef,
    eye: [Vec2; 2],
    forward: Vec2,
    targets: &[BaseRef],
    seen: bool,
) -> Result<CloseCall, GeometryError> {
    let along = (eye[1] - eye[0]).normalized().unwrap_or(forward.perp_right());
    let half = 0.5 * eye[0].distance(eye[1]);
    let mid = eye[0].lerp(eye[1], 0.5);
    let half_depth = 0.5 * table.base(spotter).map_or(0.0, crate::base::Base::depth);
    // The target base seen in full at the last step that saw one is asked first: the
    // verdict (some base seen) is the same in any order, and it is most often that one.
    let last_seen = Cell::new(0);
    local_call(table, index, &[spotter], targets, seen, true, |sight, t, sb, tb, d| {
        let reach = (half + d).max(0.5 * PERTURBED_MIN_SIDE_MM);
        let m = mid + forward * ((half_depth + d).max(0.5 * PERTURBED_MIN_SIDE_MM) - half_depth);
        let eye = [m - along * reach, m + along * reach];
        let (Some(s), false) = (sb.first(), tb.is_empty()) else { return false };
        let first = last_seen.get().min(tb.len() - 1);
        let order = std::iter::once(first).chain((0..tb.len()).filter(|&i| i != first));
        let found = order.into_iter().find(|&i| {
            crate::los::LineOfSight::full_base_visible(sight, t, s.unit, &eye, tb[i])
                == FullVisibility::Visible
        });
        if let Some(i) = found {
            last_seen.set(i);
        }
        found.is_some()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sigma of a full-base sight call counts every skirmish marker of the table, the
    /// far regiment the local table leaves out too, as it counts the local table's bases.
    #[test]
    fn the_sigma_counts_the_markers_of_a_regiment_left_out() {
        for far in [10.0_f64, 0.1] {
            let text = format!(
                r#"{{"schema":"vedette/table/1","rules":"republique5","scale":"medium","units":[
  {{"id":"gun","side":"fr","kind":"artillery","bases":[{{"x":0,"y":0,"heading":90,"width":25,"depth":40,"sigma_mm":0.5}}]}},
  {{"id":"foe","side":"au","kind":"infantry","formation":"line","bases":[{{"x":0,"y":400,"heading":270,"width":30,"depth":20,"sigma_mm":0.3}}]}},
  {{"id":"left","side":"fr","kind":"skirmisher","parent":"reg","bases":[{{"x":1500,"y":900,"heading":90,"width":20,"depth":20,"sigma_mm":{far}}}]}},
  {{"id":"right","side":"fr","kind":"skirmisher","parent":"reg","bases":[{{"x":1700,"y":900,"heading":90,"width":20,"depth":20,"sigma_mm":0.2}}]}},
  {{"id":"reg","side":"fr","kind":"infantry","formation":"line","bases":[{{"x":2000,"y":2000,"heading":90,"width":30,"depth":20,"sigma_mm":20}}]}}]}}"#
            );
            let table = Table::from_json_str(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
            let index = SpatialIndex::new(&table);
            let gun = table.units[0].bases[0];
            let e = gun.front_edge();
            let call = full_base_sight_call(
                &table,
                &index,
                BaseRef::new(0, 0),
                [e.a, e.b],
                gun.forward(),
                &[BaseRef::new(1, 0)],
                true,
            )
            .unwrap_or_else(|e| panic!("{e}"));
            // The far infantry is no marker: left out, it counts for nothing.
            let want = table.units[..4].iter().flat_map(|u| &u.bases).filter_map(base_sigma).reduce(f64::max);
            assert_eq!(call.sigma_mm, want, "far marker sigma {far}");
            assert!(want.is_some_and(|w| w >= far.max(0.5)));
        }
    }
}
