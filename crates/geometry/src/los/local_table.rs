//! The local table of a sight verdict's close call (issue 17, issue 20): the whole table
//! cut down to what can decide sight between some bases when every base grows or
//! shrinks by up to [`PERTURBATION_MAX_MM`], renumbered.
//!
//! A sight line between two bases lies in their convex hull, so what can block it, raise
//! it (a hill) or limit it (the cover a base stands in) meets that hull. Grown by `k` on
//! every side, a rectangle's box grows by at most `k√2` (at a corner of a base turned
//! 45°): the verdict's own bases by `k√2` and a would-be blocker by `k√2`, so a blocker
//! whose box is more than `2√2·k` from the box of the verdict's bases meets no sight line
//! at `k`. The local table keeps, of the bases, those whose boxes meet the box around
//! the verdict's own bases grown by the reach ([`LOCAL_REACH_MM`], past `2√2` times the
//! largest perturbation), the whole units of the verdict's bases (a unit near a crest
//! line counts by all its bases: 004 §15.1), and every skirmish marker of each regiment
//! whose markers' boxes together meet that box (the screens between a regiment's markers
//! join each to its nearest, however far, so they lie in the box of all its markers,
//! which grows as a base's does: 000 §4.2); of the terrain, the features whose boxes
//! meet that box, and the hills whose boxes meet a kept base's (the level a base stands
//! at: 003 601); the units that keep a base.
//!
//! A step of the bisection at `k` needs only the reach `2√2·k` ([`reach_at`]): it
//! narrows the local table to that and moves each base it keeps as the step asks, in
//! one pass ([`LocalTable::narrow_moved`]), keeping all of its terrain so that one
//! prepared terrain serves every step, and lending its units so that a step allocates
//! little. The step's model finds the bases near a pair by scanning its few dozen
//! bases, with no index to build, and refills the lists the last step's model left
//! ([`crate::los::TerrainSight`]'s `scanning`).

use crate::base::Base;
use crate::close_call::PERTURBATION_MAX_MM;
use crate::convex::{bbox, boxes_meet};
use crate::error::GeometryError;
use crate::index::{SpatialIndex, regiment_boxes, terrain_box};
use crate::table::{BaseRef, Selection, Table, Unit, UnitKind};
use crate::terrain::TerrainKind;
use crate::vec2::Vec2;
use std::borrow::Cow;

/// How far beyond the box of a verdict's own bases the local table of a sight verdict's
/// close call reaches, mm: past `2√2` times the largest perturbation, rounded up. Grown
/// by `k` on every side, a rectangle's box grows by at most `k√2` (a base turned 45°):
/// the verdict's own bases and a would-be blocker each by that much, so a blocker whose
/// box is farther than `2√2·k` from the box of the verdict's bases meets none of its
/// sight lines.
pub const LOCAL_REACH_MM: f64 = 3.0 * PERTURBATION_MAX_MM;

/// A table cut down to the neighbourhood of some bases (see the module documentation),
/// with the place of each kept base.
pub(super) struct LocalTable {
    /// The cut table.
    pub(super) table: Table,
    /// For each kept unit (ascending by its index in the whole table): that index, its
    /// index among the kept units and, for each of its bases, its index among the unit's
    /// kept bases.
    index_of: Vec<UnitPlace>,
}

/// A kept unit's index in the table cut, its index among the kept units, and for each of
/// its bases, its index among the unit's kept bases.
type UnitPlace = (usize, usize, Vec<Option<usize>>);

/// A local table narrowed for one step of a close call ([`LocalTable::narrow`]), with
/// the units of the table it narrows that it does not hold, by index.
pub(super) struct Narrowed {
    /// The narrowed table and the place of each of its bases in the table it narrows.
    pub(super) local: LocalTable,
    pool: Vec<Option<Unit>>,
    /// The box of each base of the table it narrows, by unit and base.
    boxes: Vec<Vec<(Vec2, Vec2)>>,
    /// Lists of places no kept unit holds, for the next narrowing's units.
    spare: Vec<Vec<Option<usize>>>,
    /// For each skirmisher unit of the table it narrows, the box of its regiment's
    /// markers ([`regiment_boxes`]).
    regiments: Vec<Option<(Vec2, Vec2)>>,
}

impl LocalTable {
    /// The local table of `table` around `refs`. The units are looked for among the
    /// bases `index` (of `table`) finds near the region, or among every base without
    /// one, then kept exactly as the module documentation says.
    pub(super) fn around(table: &Table, index: Option<&SpatialIndex<'_>>, refs: &[BaseRef]) -> LocalTable {
        let region = region(table, refs, LOCAL_REACH_MM);
        let candidates: Vec<usize> = match index {
            // The index's boxes are the bases' own: a millimetre of slack keeps every base
            // whose box meets the region among the candidates whatever the rounding.
            Some(index) => {
                let slack = Vec2::new(1.0, 1.0);
                index.bases_in_box(region.0 - slack, region.1 + slack).into_iter().map(|r| r.unit).collect()
            }
            None => (0..table.units.len())
                .filter(|&u| table.units[u].bases.iter().any(|b| boxes_meet(b.aabb(), region)))
                .collect(),
        };
        // The regiments' and the features' boxes, worked out once for the table when it
        // is indexed.
        let own = index.filter(|i| std::ptr::eq(i.table(), table));
        let regiments = match own {
            Some(i) => Cow::Borrowed(i.regiments()),
            None => Cow::Owned(regiment_boxes(table)),
        };
        let (units, index_of) = kept_units(table, candidates, refs, &regiments, region);
        let feature_boxes = own.map(SpatialIndex::terrain_boxes);
        // A hill meets a kept base's box only if it meets the box around them all (the
        // test that leaves out most of a large table's hills at once).
        let kept_boxes: Vec<(Vec2, Vec2)> = units.iter().flat_map(|u| &u.bases).map(Base::aabb).collect();
        let around_kept = bbox(kept_boxes.iter().flat_map(|&(lo, hi)| [lo, hi]));
        let under_kept =
            |f: (Vec2, Vec2)| boxes_meet(around_kept, f) && kept_boxes.iter().any(|&b| boxes_meet(b, f));
        let terrain = table
            .terrain
            .iter()
            .enumerate()
            .filter(|&(i, f)| {
                let fbox = feature_boxes.and_then(|b| b.get(i).copied()).unwrap_or_else(|| terrain_box(f));
                boxes_meet(fbox, region) || (f.kind == TerrainKind::Hill && under_kept(fbox))
            })
            .map(|(_, f)| f.clone())
            .collect();
        // The markers (cubes) within the region: no sight verdict asks for them, and
        // copying a large table's every marker into each local table cost as much as
        // the verdicts.
        let markers = table.markers.iter().filter(|m| boxes_meet(m.aabb(), region)).cloned().collect();
        LocalTable { table: Table { units, terrain, markers, ..empty_like(table) }, index_of }
    }

    /// An empty narrowing of this table, for [`Self::narrow`]: this table's units are
    /// lent from it, so that a close call's steps allocate little.
    pub(super) fn narrowing(&self) -> Narrowed {
        Narrowed {
            local: LocalTable {
                table: Table {
                    terrain: self.table.terrain.clone(),
                    markers: self.table.markers.clone(),
                    ..empty_like(&self.table)
                },
                index_of: Vec::new(),
            },
            pool: self.table.units.iter().cloned().map(Some).collect(),
            boxes: self.table.units.iter().map(|u| u.bases.iter().map(Base::aabb).collect()).collect(),
            spare: Vec::new(),
            regiments: {
                let mut by_unit = vec![None; self.table.units.len()];
                for (u, b) in regiment_boxes(&self.table) {
                    by_unit[u] = Some(b);
                }
                by_unit
            },
        }
    }

    /// Sets `into` (a narrowing of this table) to this table narrowed to what decides the
    /// verdict of `refs` (bases of this table) at perturbation `k` mm: the bases within
    /// [`reach_at`] of them, kept as [`Self::around`] keeps them. Every terrain feature
    /// of this table is kept, so that its prepared terrain serves every narrowing.
    #[cfg(test)]
    pub(super) fn narrow(&self, refs: &[BaseRef], k: f64, into: &mut Narrowed) {
        self.narrow_moved(refs, k, |_, b| *b, into);
    }

    /// [`Self::narrow`], each kept base `r` (of this table) replaced by `moved(r, base)`
    /// (a close call's perturbation of it): a step's table in one pass, reusing the
    /// units and lists of the last.
    pub(super) fn narrow_moved(
        &self,
        refs: &[BaseRef],
        k: f64,
        moved: impl Fn(BaseRef, &Base) -> Base,
        into: &mut Narrowed,
    ) {
        let out = &mut into.local;
        for ((ui, _, places), unit) in out.index_of.drain(..).zip(out.table.units.drain(..)) {
            if let Some(slot) = into.pool.get_mut(ui) {
                *slot = Some(unit);
            }
            into.spare.push(places);
        }
        let region = region(&self.table, refs, reach_at(k));
        for (((ui, u), boxes), regiment) in
            self.table.units.iter().enumerate().zip(&into.boxes).zip(&into.regiments)
        {
            let whole = refs.iter().any(|r| r.unit == ui);
            // A regiment's markers are kept whole, when their box meets the region.
            let markers = regiment.is_some_and(|b| boxes_meet(b, region));
            let all = whole || markers;
            if !boxes.iter().any(|&b| all || (regiment.is_none() && boxes_meet(b, region))) {
                continue;
            }
            let Some(mut unit) = into.pool.get_mut(ui).and_then(Option::take) else { continue };
            let mut places = into.spare.pop().unwrap_or_default();
            places.clear();
            unit.bases.clear();
            for (bi, (b, &bbox)) in u.bases.iter().zip(boxes).enumerate() {
                if all || (regiment.is_none() && boxes_meet(bbox, region)) {
                    places.push(Some(unit.bases.len()));
                    unit.bases.push(moved(BaseRef::new(ui, bi), b));
                } else {
                    places.push(None);
                }
            }
            out.index_of.push((ui, out.table.units.len(), places));
            out.table.units.push(unit);
        }
    }

    /// Where a base of the whole table is in the local one, if kept.
    pub(super) fn map(&self, r: BaseRef) -> Option<BaseRef> {
        let k = self.index_of.binary_search_by_key(&r.unit, |e| e.0).ok()?;
        let (_, u, places) = self.index_of.get(k)?;
        Some(BaseRef::new(*u, (*places.get(r.base)?)?))
    }

    /// Where the kept ones of `refs` are in the local table.
    pub(super) fn map_all(&self, refs: &[BaseRef]) -> Vec<BaseRef> {
        refs.iter().filter_map(|&r| self.map(r)).collect()
    }

    /// Where a selection of the whole table is in the local one: a unit whole (kept whole
    /// when it is one of the verdict's), or one base.
    ///
    /// # Errors
    /// [`GeometryError::UnknownUnit`] when the selection was not kept (it is not one of
    /// the verdict's, or out of range).
    pub(super) fn map_selection(&self, s: Selection) -> Result<Selection, GeometryError> {
        let missing =
            |unit: usize| GeometryError::UnknownUnit { id: format!("#{unit}"), hint: String::new() };
        match s {
            Selection::Unit(u) => {
                let k = self.index_of.binary_search_by_key(&u, |e| e.0).map_err(|_| missing(u))?;
                Ok(Selection::Unit(self.index_of[k].1))
            }
            Selection::Base(r) => self.map(r).map(Selection::Base).ok_or_else(|| missing(r.unit)),
        }
    }
}

/// How far a local table must reach for a verdict perturbed by `k` mm: `2√2·k` (see
/// [`LOCAL_REACH_MM`]) and a millimetre for rounding, at most [`LOCAL_REACH_MM`].
pub(super) fn reach_at(k: f64) -> f64 {
    (2.0 * std::f64::consts::SQRT_2 * k + 1.0).min(LOCAL_REACH_MM)
}

/// The box around the bases `refs` of `table` grown by `reach_mm`.
fn region(table: &Table, refs: &[BaseRef], reach_mm: f64) -> (Vec2, Vec2) {
    let (lo, hi) =
        bbox(refs.iter().filter_map(|&r| table.base(r)).flat_map(|b| b.vertices_ccw().into_iter()));
    (lo - Vec2::new(reach_mm, reach_mm), hi + Vec2::new(reach_mm, reach_mm))
}

/// The units of a local table, from `candidates` (units of `table` with a base near
/// `region`): of each, the bases whose boxes meet the region, all of a skirmisher's and
/// of a unit of `refs`; the skirmisher units kept are those whose regiment's markers'
/// box (of `regiments`: [`regiment_boxes`]) meets the region, with every unit of `refs`. With, for each kept
/// unit, its place (see [`LocalTable`]).
fn kept_units(
    table: &Table,
    mut candidates: Vec<usize>,
    refs: &[BaseRef],
    regiments: &[(usize, (Vec2, Vec2))],
    region: (Vec2, Vec2),
) -> (Vec<Unit>, Vec<UnitPlace>) {
    // A regiment's markers are kept whole when their box meets the region, else none.
    candidates.retain(|&u| table.units.get(u).is_some_and(|u| u.kind != UnitKind::Skirmisher));
    candidates.extend(regiments.iter().filter(|r| boxes_meet(r.1, region)).map(|r| r.0));
    let whole: Vec<usize> = refs.iter().map(|r| r.unit).collect();
    candidates.extend(whole.iter().copied());
    candidates.sort_unstable();
    candidates.dedup();
    let mut index_of = Vec::with_capacity(candidates.len());
    let mut units: Vec<Unit> = Vec::new();
    for ui in candidates {
        let Some(u) = table.units.get(ui) else { continue };
        let all = u.kind == UnitKind::Skirmisher || whole.contains(&ui);
        let places = places(u, all, region);
        if places.iter().any(Option::is_some) {
            let bases = u.bases.iter().zip(&places).filter(|(_, p)| p.is_some()).map(|(b, _)| *b).collect();
            index_of.push((ui, units.len(), places));
            units.push(Unit { bases, ..u.clone() });
        }
    }
    (units, index_of)
}

/// For each base of `u`, its index among the bases kept: all of them, or those whose
/// boxes meet `region`.
fn places(u: &Unit, all: bool, region: (Vec2, Vec2)) -> Vec<Option<usize>> {
    u.bases
        .iter()
        .scan(0, |kept, b| {
            Some((all || boxes_meet(b.aabb(), region)).then(|| {
                *kept += 1;
                *kept - 1
            }))
        })
        .collect()
}

/// `table` without units, terrain or markers (and without its name).
fn empty_like(table: &Table) -> Table {
    Table {
        schema: table.schema.clone(),
        rules: table.rules,
        scale: table.scale,
        name: None,
        size: table.size,
        sides: table.sides.clone(),
        artillery: table.artillery.clone(),
        units: Vec::new(),
        markers: Vec::new(),
        terrain: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::los::TerrainSight;
    use crate::los::close_calls::{Against, perturb};

    /// A fixed sequence of numbers in [0, 1) (a linear congruential generator: the test
    /// needs variety, not quality).
    struct Numbers(u64);
    impl Numbers {
        fn next(&mut self) -> f64 {
            self.0 = self.0.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            (self.0 >> 11) as f64 / (1u64 << 53) as f64
        }
    }

    /// A hundred units of one or two bases turned every way (45° included) over a metre,
    /// with a regiment's two skirmish markers, two woods, a hill and a building.
    fn crowded_table() -> Table {
        let mut n = Numbers(20);
        let mut units = Vec::new();
        for i in 0..100 {
            let (x, y) = (1000.0 * n.next(), 1000.0 * n.next());
            let heading = if i % 5 == 0 { 45.0 } else { 360.0 * n.next() };
            let side = if n.next() < 0.5 { "fr" } else { "au" };
            let kind = if i % 7 == 0 { "artillery" } else { "infantry" };
            let formation = if kind == "infantry" { r#","formation":"line""# } else { "" };
            let second = if i % 3 == 0 {
                format!(r#",{{"x":{},"y":{},"heading":{heading},"width":30,"depth":20}}"#, x + 2.0, y + 31.0)
            } else {
                String::new()
            };
            units.push(format!(
                r#"{{"id":"u{i}","side":"{side}","kind":"{kind}"{formation},"bases":[{{"x":{x},"y":{y},"heading":{heading},"width":30,"depth":20}}{second}]}}"#
            ));
        }
        units.push(
            r#"{"id":"sk","side":"fr","kind":"skirmisher","parent":"u1","bases":[
              {"x":200,"y":1500,"heading":90,"width":20,"depth":20},{"x":1400,"y":100,"heading":90,"width":20,"depth":20}]}"#
                .to_string(),
        );
        // A regiment of three markers in two units, off the field to the right (its
        // screens stay there), and one of a marker alone.
        units.push(
            r#"{"id":"sk2","side":"au","kind":"skirmisher","parent":"u2","bases":[
              {"x":1300,"y":600,"heading":90,"width":20,"depth":20},{"x":1350,"y":900,"heading":45,"width":20,"depth":20}]}"#
                .to_string(),
        );
        units.push(
            r#"{"id":"sk3","side":"au","kind":"skirmisher","parent":"u2","bases":[{"x":1250,"y":300,"heading":90,"width":20,"depth":20}]}"#
                .to_string(),
        );
        units.push(
            r#"{"id":"sk4","side":"fr","kind":"skirmisher","bases":[{"x":500,"y":-200,"heading":90,"width":20,"depth":20}]}"#
                .to_string(),
        );
        let text = format!(
            r#"{{"schema":"vedette/table/1","rules":"republique5","scale":"medium","units":[{}],"terrain":[
  {{"id":"w1","kind":"medium-forest","outline":[[200,200],[350,200],[360,300],[200,320]]}},
  {{"id":"w2","kind":"heavy-forest","outline":[[700,600],[800,600],[800,680],[700,680]]}},
  {{"id":"rise","kind":"hill","level":1,"outline":[[400,650],[600,650],[600,850],[400,850]]}},
  {{"id":"inn","kind":"heavy-buildings","outline":[[550,250],[600,250],[600,290],[550,290]]}}]}}"#,
            units.join(",")
        );
        Table::from_json_str(&text).unwrap_or_else(|e| panic!("{e}\n{text}"))
    }

    fn verdict(table: &Table, spotter: Selection, target: Selection) -> (bool, bool) {
        let index = SpatialIndex::new(table);
        let sight = TerrainSight::try_new(&index).unwrap_or_else(|e| panic!("{e}"));
        let v = sight.explain(spotter, target).unwrap_or_else(|e| panic!("{e}")).0;
        (v.visible, v.full_base.is_some())
    }

    /// The local table's verdict is the whole table's at every perturbation a close call
    /// tries, for every way it moves the bases (regression for issue 20: `los` moved to
    /// local tables).
    #[test]
    fn the_local_table_decides_as_the_whole_one_at_every_perturbation() {
        let table = crowded_table();
        let index = SpatialIndex::new(&table);
        let (mut dropped, mut narrowed, mut seen, mut hidden) = (false, false, 0, 0);
        let mut regiment_dropped = false;
        // Pairs 150-350 mm apart: most of the table lies beyond their local tables.
        let centre = |u: usize| table.units[u].bases[0].centre();
        let pairs: Vec<(usize, usize)> = (0..100)
            .step_by(7)
            .filter_map(|a| {
                (0..100).find(|&b| (150.0..350.0).contains(&centre(a).distance(centre(b)))).map(|b| (a, b))
            })
            .collect();
        assert!(pairs.len() > 10);
        for (a, b) in pairs {
            let (sb, tb): (Vec<BaseRef>, Vec<BaseRef>) = (
                (0..table.units[a].bases.len()).map(|i| BaseRef::new(a, i)).collect(),
                (0..table.units[b].bases.len()).map(|i| BaseRef::new(b, i)).collect(),
            );
            let all: Vec<BaseRef> = sb.iter().chain(&tb).copied().collect();
            let local = LocalTable::around(&table, Some(&index), &all);
            assert_eq!(
                LocalTable::around(&table, None, &all).index_of,
                local.index_of,
                "the index finds what a scan finds"
            );
            let ids = |t: &Table| t.terrain.iter().map(|f| f.id.clone()).collect::<Vec<_>>();
            assert_eq!(ids(&LocalTable::around(&table, None, &all).table), ids(&local.table));
            dropped |= local.table.bases().count() < table.bases().count();
            // The far regiment (units 101 and 102, one box) is kept or left out whole.
            let far = [101, 102].map(|u| local.map_selection(Selection::Unit(u)).is_ok());
            assert_eq!(far[0], far[1]);
            regiment_dropped |= !far[0];
            let (ls, lt) = (
                local.map_selection(Selection::Unit(a)).unwrap_or_else(|e| panic!("{e}")),
                local.map_selection(Selection::Unit(b)).unwrap_or_else(|e| panic!("{e}")),
            );
            let (lsb, ltb, lall) = (local.map_all(&sb), local.map_all(&tb), local.map_all(&all));
            let mut narrowing = local.narrowing();
            for against in [Against::Visible, Against::Hidden, Against::FullBase, Against::NoFullBase] {
                for k in [0.0, 2.0, 10.0, 30.0, 50.0] {
                    let mut whole = table.clone();
                    perturb(&mut whole, &sb, &tb, against, k);
                    let want = verdict(&whole, Selection::Unit(a), Selection::Unit(b));
                    let mut cut = local.table.clone();
                    perturb(&mut cut, &lsb, &ltb, against, k);
                    assert_eq!(verdict(&cut, ls, lt), want, "{a} -> {b}, {against:?} at {k} mm");
                    // Narrowed to the reach at k.
                    local.narrow(&lall, k, &mut narrowing);
                    let near = &mut narrowing.local;
                    narrowed |= near.table.bases().count() < cut.bases().count();
                    let (ns, nt) = (
                        near.map_selection(ls).unwrap_or_else(|e| panic!("{e}")),
                        near.map_selection(lt).unwrap_or_else(|e| panic!("{e}")),
                    );
                    let (nsb, ntb) = (near.map_all(&lsb), near.map_all(&ltb));
                    perturb(&mut near.table, &nsb, &ntb, against, k);
                    assert_eq!(
                        verdict(&near.table, ns, nt),
                        want,
                        "{a} -> {b}, {against:?} at {k} mm, narrowed"
                    );
                    if want.0 { seen += 1 } else { hidden += 1 }
                }
            }
        }
        assert!(narrowed, "some narrowed table leaves bases out");
        assert!(dropped, "some local table leaves bases out");
        assert!(regiment_dropped, "some local table leaves the far regiment out");
        assert!(seen > 0 && hidden > 0, "{seen} seen, {hidden} hidden");
    }

    /// A step's table and model as a close call builds them (narrowed and moved in one
    /// pass, the model scanning the bases and refilling the last step's allocations)
    /// are those of narrowing, then perturbing, then indexing: the same bases, and the
    /// same verdicts, sight lines and witnesses, step after step.
    #[test]
    fn a_step_narrowed_moved_and_scanned_is_the_step_indexed() {
        use crate::LineOfSight;
        use crate::los::PreparedTerrain;
        use crate::los::close_calls::moved;
        use crate::los::terrain_model::ModelSpare;
        use std::sync::Arc;
        let table = crowded_table();
        let index = SpatialIndex::new(&table);
        let centre = |u: usize| table.units[u].bases[0].centre();
        let (mut compared, mut spare) = (0, ModelSpare::default());
        for a in (0..100).step_by(3) {
            let Some(b) = (0..100).find(|&b| (100.0..400.0).contains(&centre(a).distance(centre(b)))) else {
                continue;
            };
            let (sb, tb): (Vec<BaseRef>, Vec<BaseRef>) = (
                (0..table.units[a].bases.len()).map(|i| BaseRef::new(a, i)).collect(),
                (0..table.units[b].bases.len()).map(|i| BaseRef::new(b, i)).collect(),
            );
            let all: Vec<BaseRef> = sb.iter().chain(&tb).copied().collect();
            let local = LocalTable::around(&table, Some(&index), &all);
            let terrain = Arc::new(PreparedTerrain::try_new(&local.table).unwrap_or_else(|e| panic!("{e}")));
            let (lsb, ltb, lall) = (local.map_all(&sb), local.map_all(&tb), local.map_all(&all));
            let (mut old, mut new) = (local.narrowing(), local.narrowing());
            for against in [Against::Visible, Against::Hidden, Against::FullBase, Against::NoFullBase] {
                // Up and down, as a bisection goes (the lists shrink and grow).
                for k in [3.125, 50.0, 0.0, 25.0, 12.5, 18.75, 1.0, 45.0] {
                    local.narrow(&lall, k, &mut old);
                    let near = &mut old.local;
                    let (nsb, ntb) = (near.map_all(&lsb), near.map_all(&ltb));
                    perturb(&mut near.table, &nsb, &ntb, against, k);
                    local.narrow_moved(&lall, k, |r, b| moved(r, b, &lsb, &ltb, against, k), &mut new);
                    assert_eq!(old.local.index_of, new.local.index_of);
                    assert_eq!(
                        old.local.table.units, new.local.table.units,
                        "{a} -> {b}, {against:?} at {k}"
                    );
                    let t = &new.local.table;
                    let near_index = SpatialIndex::new(&old.local.table);
                    let indexed =
                        TerrainSight::with_terrain(&near_index, &terrain).unwrap_or_else(|e| panic!("{e}"));
                    let scanned = TerrainSight::scanning(t, &terrain, std::mem::take(&mut spare))
                        .unwrap_or_else(|e| panic!("{e}"));
                    let unit = |u: usize| {
                        local.map_selection(Selection::Unit(u)).and_then(|l| new.local.map_selection(l))
                    };
                    let (s, g) = (
                        unit(a).unwrap_or_else(|e| panic!("{e}")),
                        unit(b).unwrap_or_else(|e| panic!("{e}")),
                    );
                    let want = indexed.explain(s, g).unwrap_or_else(|e| panic!("{e}")).0;
                    assert_eq!(scanned.explain(s, g).unwrap_or_else(|e| panic!("{e}")).0, want);
                    let (Selection::Unit(su), Selection::Unit(gu)) = (s, g) else { continue };
                    let eye = t.units[su].bases[0].front_edge();
                    for gb in 0..t.units[gu].bases.len() {
                        let r = BaseRef::new(gu, gb);
                        assert_eq!(
                            scanned.full_base_visible(t, su, &[eye.a, eye.b], r),
                            indexed.full_base_visible(t, su, &[eye.a, eye.b], r)
                        );
                    }
                    spare = scanned.into_spare();
                    compared += 1;
                }
            }
        }
        assert!(compared > 200, "{compared}");
    }

    /// Each skirmisher unit's regiment box is the box of every marker base of the units
    /// sharing its parent (or its own id without one), as a scan of them finds it.
    #[test]
    fn a_regiment_box_holds_every_marker_of_its_parent() {
        let table = crowded_table();
        let key = |u: &Unit| u.parent.clone().unwrap_or_else(|| u.id.clone());
        let mut got = regiment_boxes(&table);
        got.sort_unstable_by_key(|r| r.0);
        let want: Vec<(usize, (Vec2, Vec2))> = (0..table.units.len())
            .filter(|&i| table.units[i].kind == UnitKind::Skirmisher)
            .map(|i| {
                let same = table
                    .units
                    .iter()
                    .filter(|u| u.kind == UnitKind::Skirmisher && key(u) == key(&table.units[i]));
                (i, bbox(same.flat_map(|u| &u.bases).flat_map(|b| <[Vec2; 2]>::from(b.aabb()))))
            })
            .collect();
        assert_eq!(got.len(), 4);
        assert_eq!(got, want);
        assert_eq!(SpatialIndex::new(&table).regiments().len(), 4);
    }

    /// A regiment's markers far to either side of a battery's sight line, joined by the
    /// screen between them across it (000 §4.2), are kept in the local table, whose
    /// verdict is the whole table's (hidden); a regiment whose markers' box lies beyond
    /// the reach is left out, and the foe is seen.
    #[test]
    fn a_screen_across_the_sight_line_keeps_its_far_markers() {
        for (y, hidden) in [(200.0, true), (900.0, false)] {
            let text = format!(
                r#"{{"schema":"vedette/table/1","rules":"republique5","scale":"medium","units":[
  {{"id":"gun","side":"fr","kind":"artillery","bases":[{{"x":0,"y":0,"heading":90,"width":25,"depth":40}}]}},
  {{"id":"foe","side":"au","kind":"infantry","formation":"line","bases":[{{"x":0,"y":400,"heading":270,"width":30,"depth":20}}]}},
  {{"id":"left","side":"fr","kind":"skirmisher","parent":"reg","bases":[{{"x":-400,"y":{y},"heading":90,"width":20,"depth":20}}]}},
  {{"id":"right","side":"fr","kind":"skirmisher","parent":"reg","bases":[{{"x":400,"y":{y},"heading":90,"width":20,"depth":20}}]}},
  {{"id":"reg","side":"fr","kind":"infantry","formation":"line","bases":[{{"x":2000,"y":2000,"heading":90,"width":30,"depth":20}}]}}]}}"#
            );
            let table = Table::from_json_str(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
            let index = SpatialIndex::new(&table);
            let all = [BaseRef::new(0, 0), BaseRef::new(1, 0)];
            let local = LocalTable::around(&table, Some(&index), &all);
            assert_eq!(local.table.units.len(), if hidden { 4 } else { 2 }, "markers at y = {y}");
            let want = verdict(&table, Selection::Unit(0), Selection::Unit(1));
            assert_eq!(want, (!hidden, !hidden), "markers at y = {y}");
            assert_eq!(verdict(&local.table, Selection::Unit(0), Selection::Unit(1)), want);
            // Narrowed to a step's reach, the screen stays while the regiment's box meets it.
            let mut narrowing = local.narrowing();
            local.narrow(&local.map_all(&all), 1.0, &mut narrowing);
            assert_eq!(narrowing.local.table.units.len(), local.table.units.len());
        }
    }

    /// Regression (issue 20): a blocker whose box is 135 mm from the target's, both
    /// turned 45° (their corners point at each other), grown with the target by `k`
    /// closes the gap at `k` = 135 / 2√2 = 47.7 mm and hides a corner of it: the full
    /// base flips there. A local table reaching only 125 mm left the blocker out and
    /// gave 50 mm.
    #[test]
    fn a_blocker_both_grown_corners_reach_decides_the_full_base_call() {
        let half = 15.0 * std::f64::consts::SQRT_2;
        let x = half + 135.0 + half;
        let text = format!(
            r#"{{"schema":"vedette/table/1","rules":"republique5","scale":"medium","units":[
  {{"id":"gun","side":"fr","kind":"artillery","bases":[{{"x":0,"y":0,"heading":90,"width":25,"depth":40}}]}},
  {{"id":"foe","side":"au","kind":"infantry","formation":"line","bases":[{{"x":0,"y":400,"heading":45,"width":30,"depth":30}}]}},
  {{"id":"block","side":"au","kind":"infantry","formation":"line","bases":[{{"x":{x},"y":400,"heading":45,"width":30,"depth":30}}]}}]}}"#
        );
        let table = Table::from_json_str(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let calls = crate::los::close_calls::sight_calls(&table, Selection::Unit(0), Selection::Unit(1))
            .unwrap_or_else(|e| panic!("{e}"));
        let flip = 135.0 / (2.0 * std::f64::consts::SQRT_2);
        assert!(
            (flip - 0.5..=flip).contains(&calls.full_base.margin_mm),
            "full base margin {} mm, want just under {flip:.2}",
            calls.full_base.margin_mm
        );
    }
}
