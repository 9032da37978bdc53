//! Close calls of the sight verdicts inside the report (issue 17): the artillery's line
//! of sight to a full base (000 §4.2), the skirmish marker's sight of its targets
//! (000 §4.1) and the cavalry's sight of an enemy in its reaction zone (000 §3.6).
//!
//! Each is measured as `vedette los` measures its own verdicts
//! ([`crate::los::close_calls`]): every base is grown or shrunk by the same `k` mm
//! against the verdict, and the margin is the smallest `k` that flips it
//! ([`flip_margin`]). A report holds hundreds of such verdicts, so each is decided on a
//! **local table** instead of the whole one: of the bases, only those whose boxes meet
//! the box around the verdict's own bases grown by [`LOCAL_REACH_MM`], every skirmish
//! marker (the screens between a regiment's
//! markers join each to its nearest, however far: 000 §4.2), and the terrain features
//! whose boxes meet that box, and the units that keep a base (renumbered). A sight line between two bases lies in their convex hull,
//! so what can block it, raise it (a hill) or limit it (the cover a base stands in) meets
//! that box; the reach leaves room for the blockers grown by up to [`PERTURBATION_MAX_MM`]
//! (a rectangle grown by `k` on every side has its box grown by at most `k√2`).
//!
//! The sigma is the largest of the local table's bases' `sigma_mm` plus half diagonal
//! times heading sigma, as for `los`; the nudge names the target's first base.

use super::close_calls::{Against, members, perturb_into};
use crate::close_call::{CloseCall, PERTURBATION_MAX_MM, base_sigma, flip_margin};
use crate::convex::{bbox, boxes_meet};
use crate::error::GeometryError;
use crate::index::SpatialIndex;
use crate::los::{PreparedTerrain, TerrainSight};
use crate::sight::FullVisibility;
use crate::table::{BaseRef, Selection, Table, Unit, UnitKind};
use crate::vec2::Vec2;
use std::sync::Arc;

/// How far beyond the box of a verdict's own bases the local table reaches, mm: the
/// largest perturbation times (1 + √2), rounded up.
pub const LOCAL_REACH_MM: f64 = 2.5 * PERTURBATION_MAX_MM;

/// The shortest eye a shrunk frontage keeps, mm.
const MIN_EYE_MM: f64 = 0.01;

/// A table cut down to the neighbourhood of some bases (see the module documentation),
/// with the place of each kept base.
struct Local {
    table: Table,
    /// For each kept unit (ascending by its index in the whole table): that index, its
    /// index among the kept units and, for each of its bases, its index among the unit's
    /// kept bases.
    index_of: Vec<(usize, usize, Vec<Option<usize>>)>,
}

impl Local {
    /// The local table of `table` (indexed by `index`) around `refs`: the units are
    /// looked for among the index's bases near the region and the skirmish markers, not
    /// by a scan of every base; each is then kept exactly as the module documentation
    /// says.
    fn around(table: &Table, index: &SpatialIndex<'_>, refs: &[BaseRef], reach_mm: f64) -> Local {
        let (lo, hi) =
            bbox(refs.iter().filter_map(|&r| table.base(r)).flat_map(|b| b.vertices_ccw().into_iter()));
        let region = (lo - Vec2::new(reach_mm, reach_mm), hi + Vec2::new(reach_mm, reach_mm));
        // The index's boxes are the bases' own: a millimetre of slack keeps every base whose
        // box meets the region among the candidates whatever the rounding.
        let slack = Vec2::new(1.0, 1.0);
        let mut candidates: Vec<usize> =
            index.bases_in_box(region.0 - slack, region.1 + slack).into_iter().map(|r| r.unit).collect();
        candidates.extend((0..table.units.len()).filter(|&u| table.units[u].kind == UnitKind::Skirmisher));
        candidates.sort_unstable();
        candidates.dedup();
        let mut index_of = Vec::with_capacity(candidates.len());
        let mut units: Vec<Unit> = Vec::new();
        for ui in candidates {
            let Some(u) = table.units.get(ui) else { continue };
            let all = u.kind == UnitKind::Skirmisher;
            let places: Vec<Option<usize>> = u
                .bases
                .iter()
                .scan(0, |kept, b| {
                    Some((all || boxes_meet(b.aabb(), region)).then(|| {
                        *kept += 1;
                        *kept - 1
                    }))
                })
                .collect();
            if places.iter().any(Option::is_some) {
                let bases =
                    u.bases.iter().zip(&places).filter(|(_, p)| p.is_some()).map(|(b, _)| *b).collect();
                index_of.push((ui, units.len(), places));
                units.push(Unit { bases, ..u.clone() });
            }
        }
        let terrain = table
            .terrain
            .iter()
            .filter(|f| boxes_meet(bbox(f.outline.iter().chain(&f.path).copied()), region))
            .cloned()
            .collect();
        let table = Table {
            schema: table.schema.clone(),
            rules: table.rules,
            scale: table.scale,
            name: None,
            size: table.size,
            sides: table.sides.clone(),
            artillery: table.artillery.clone(),
            units,
            markers: table.markers.clone(),
            terrain,
        };
        Local { table, index_of }
    }

    fn map(&self, r: BaseRef) -> Option<BaseRef> {
        let k = self.index_of.binary_search_by_key(&r.unit, |e| e.0).ok()?;
        let (_, u, places) = self.index_of.get(k)?;
        Some(BaseRef::new(*u, (*places.get(r.base)?)?))
    }

    fn map_all(&self, refs: &[BaseRef]) -> Vec<BaseRef> {
        refs.iter().filter_map(|&r| self.map(r)).collect()
    }
}

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
    let local = Local::around(table, index, &all, LOCAL_REACH_MM);
    let (sb, tb) = (local.map_all(spotter), local.map_all(target));
    let against = match (full, holds) {
        (false, true) => Against::Visible,
        (false, false) => Against::Hidden,
        (true, true) => Against::FullBase,
        (true, false) => Against::NoFullBase,
    };
    let spotter_sign = against.signs().0;
    let sigma = local.table.bases().filter_map(|(_, b)| base_sigma(b)).reduce(f64::max);
    // One copy whose bases are set from the local table at each step, over terrain
    // prepared once (it never moves).
    let mut t = local.table.clone();
    let terrain = Arc::new(PreparedTerrain::try_new(&local.table)?);
    let margin = flip_margin(|k| {
        perturb_into(&mut t, &local.table, &sb, &tb, against, k);
        let local_index = SpatialIndex::new(&t);
        let sight = TerrainSight::with_terrain(&local_index, &terrain)?;
        Ok::<bool, GeometryError>(test(&sight, &t, &sb, &tb, spotter_sign * k) != holds)
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
/// artillery's line of sight from its frontage (000 §4.2). The eye moves with its base:
/// a shrunk base's eye steps back and shortens by `k` at each end (a grown one the
/// reverse); `forward` is the spotter's forward unit vector.
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
    local_call(table, index, &[spotter], targets, seen, true, |sight, t, sb, tb, d| {
        let reach = (half + d).max(0.5 * MIN_EYE_MM);
        let m = mid + forward * d;
        let eye = [m - along * reach, m + along * reach];
        sb.first().is_some_and(|s| {
            tb.iter().any(|&r| {
                crate::los::LineOfSight::full_base_visible(sight, t, s.unit, &eye, r)
                    == FullVisibility::Visible
            })
        })
    })
}
