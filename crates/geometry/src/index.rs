//! A spatial index over every base of a table (an R*-tree, bulk loaded), with exact
//! edge-to-edge queries: bases within a distance of a point, base or unit; the nearest
//! enemy base; all pairs within a distance.
//!
//! The tree only proposes candidates (bounding boxes grown by the query distance); every
//! answer is then decided with the exact base distance, so the index returns exactly
//! what a brute-force scan returns ([`brute`] holds those scans, for tests and benches).

use crate::base::Base;
use crate::convex::{bases_box, bbox};
use crate::segment::ClosestPoints;
use crate::table::{BaseRef, Table, UnitKind};
use crate::terrain::TerrainFeature;
use crate::vec2::Vec2;
use rstar::{AABB, PointDistance, RTree, RTreeObject};
use std::collections::{BTreeMap, HashMap};

/// An entry of the main tree: a base's bounding box and reference (kept small: range
/// queries look the base up in the table only for candidates).
#[derive(Debug, Clone, Copy)]
struct Entry {
    envelope: AABB<[f64; 2]>,
    r: BaseRef,
}

impl RTreeObject for Entry {
    type Envelope = AABB<[f64; 2]>;
    fn envelope(&self) -> Self::Envelope {
        self.envelope
    }
}

/// An entry of a per-side tree, which lists bases in order of distance from a point and
/// so needs the base itself.
#[derive(Debug, Clone, Copy)]
struct SideEntry {
    envelope: AABB<[f64; 2]>,
    r: BaseRef,
    base: Base,
}

impl RTreeObject for SideEntry {
    type Envelope = AABB<[f64; 2]>;
    fn envelope(&self) -> Self::Envelope {
        self.envelope
    }
}

/// Point-to-base distance, so the tree can list bases by distance from a point (the
/// base lies inside its envelope, so envelope distances never exceed it, as rstar needs).
impl PointDistance for SideEntry {
    fn distance_2(&self, p: &[f64; 2]) -> f64 {
        let d = self.base.distance_to_point(Vec2::new(p[0], p[1]));
        d * d
    }

    fn contains_point(&self, p: &[f64; 2]) -> bool {
        self.base.contains(Vec2::new(p[0], p[1]))
    }
}

/// A base found by a query, with the closest points from the query shape to it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Neighbour {
    /// The base found.
    pub base: BaseRef,
    /// Closest points: `from` on the query shape, `to` on the base found.
    pub closest: ClosestPoints,
}

/// Two bases within a distance of each other (`a < b`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BasePair {
    /// The first base (the lower reference).
    pub a: BaseRef,
    /// The second base.
    pub b: BaseRef,
    /// Edge-to-edge distance, mm.
    pub distance_mm: f64,
}

fn grown(b: &Base, d: f64) -> AABB<[f64; 2]> {
    let (lo, hi) = b.aabb();
    AABB::from_corners([lo.x - d, lo.y - d], [hi.x + d, hi.y + d])
}

/// Side ids per unit: equal numbers for units of the same side.
fn side_ids(table: &Table) -> Vec<u32> {
    let mut names: HashMap<&str, u32> = HashMap::new();
    table
        .units
        .iter()
        .map(|u| {
            let next = names.len() as u32;
            *names.entry(u.side.as_str()).or_insert(next)
        })
        .collect()
}

/// The spatial index of one table.
///
/// ```
/// use vedette_geometry::{SpatialIndex, Table, BaseRef};
/// let t = Table::from_json_str(r#"{"schema":"vedette/table/1","rules":"republique5","scale":"medium",
///   "units":[
///     {"id":"a","side":"fr","kind":"infantry","formation":"line","bases":[{"x":0,"y":0,"heading":90,"width":30,"depth":20}]},
///     {"id":"b","side":"au","kind":"infantry","formation":"line","bases":[{"x":0,"y":50,"heading":270,"width":30,"depth":20}]}]}"#)?;
/// let index = SpatialIndex::new(&t);
/// let n = index.nearest_enemy(BaseRef::new(0, 0)).unwrap();
/// assert_eq!(n.base, BaseRef::new(1, 0));
/// assert!((n.closest.distance_mm - 30.0).abs() < 1e-9);
/// assert_eq!(index.pairs_within(25.4).len(), 0);
/// # Ok::<(), vedette_geometry::GeometryError>(())
/// ```
pub struct SpatialIndex<'t> {
    table: &'t Table,
    tree: RTree<Entry>,
    /// One tree per side, for nearest-enemy searches; built on first use.
    side_trees: std::sync::OnceLock<Vec<RTree<SideEntry>>>,
    sides: Vec<u32>,
    /// Each unit id's index (the first unit with it); built on first use.
    /// (Owned ids: a borrowed key would tie the index's lifetime.)
    unit_ids: std::sync::OnceLock<HashMap<String, usize>>,
    /// Each terrain feature's box ([`terrain_box`]); built on first use.
    terrain_boxes: std::sync::OnceLock<Vec<(Vec2, Vec2)>>,
    /// The skirmisher units with their regiments' boxes ([`regiment_boxes`]); built on
    /// first use.
    regiments: std::sync::OnceLock<Vec<(usize, (Vec2, Vec2))>>,
}

impl<'t> SpatialIndex<'t> {
    /// Bulk-loads the index over every base of the table.
    #[must_use]
    pub fn new(table: &'t Table) -> Self {
        let sides = side_ids(table);
        let entries: Vec<Entry> = table.bases().map(|(r, b)| Entry { envelope: grown(b, 0.0), r }).collect();
        SpatialIndex {
            table,
            tree: RTree::bulk_load(entries),
            side_trees: std::sync::OnceLock::new(),
            sides,
            unit_ids: std::sync::OnceLock::new(),
            terrain_boxes: std::sync::OnceLock::new(),
            regiments: std::sync::OnceLock::new(),
        }
    }

    /// [`terrain_box`] of each terrain feature of the table, in its order, worked out
    /// once (a sight verdict's close call asks for them all).
    pub(crate) fn terrain_boxes(&self) -> &[(Vec2, Vec2)] {
        self.terrain_boxes.get_or_init(|| self.table.terrain.iter().map(terrain_box).collect())
    }

    /// [`regiment_boxes`] of the table, worked out once.
    pub(crate) fn regiments(&self) -> &[(usize, (Vec2, Vec2))] {
        self.regiments.get_or_init(|| regiment_boxes(self.table))
    }

    fn side_trees(&self) -> &[RTree<SideEntry>] {
        self.side_trees.get_or_init(|| {
            let side_count = self.sides.iter().max().map_or(0, |m| *m as usize + 1);
            let mut per_side: Vec<Vec<SideEntry>> = vec![Vec::new(); side_count];
            for (r, b) in self.table.bases() {
                per_side[self.sides[r.unit] as usize].push(SideEntry {
                    envelope: grown(b, 0.0),
                    r,
                    base: *b,
                });
            }
            per_side.into_iter().map(RTree::bulk_load).collect()
        })
    }

    /// The table indexed.
    #[must_use]
    pub fn table(&self) -> &'t Table {
        self.table
    }

    /// [`Table::unit_index`] by a map built once (the table's own looks through every
    /// unit).
    #[must_use]
    pub fn unit_index(&self, id: &str) -> Option<usize> {
        self.unit_ids
            .get_or_init(|| {
                let mut ids = HashMap::with_capacity(self.table.units.len());
                for (i, u) in self.table.units.iter().enumerate() {
                    ids.entry(u.id.clone()).or_insert(i);
                }
                ids
            })
            .get(id)
            .copied()
    }

    fn base(&self, r: BaseRef) -> &'t Base {
        &self.table.units[r.unit].bases[r.base]
    }

    /// True when the two units fight for different sides.
    #[must_use]
    pub fn are_enemies(&self, unit_a: usize, unit_b: usize) -> bool {
        self.sides[unit_a] != self.sides[unit_b]
    }

    /// Every base whose bounding box meets the box from `lo` to `hi`, sorted by
    /// reference (a candidate list: callers decide exactly).
    #[must_use]
    pub fn bases_in_box(&self, lo: Vec2, hi: Vec2) -> Vec<BaseRef> {
        let mut out: Vec<BaseRef> = self.candidates_in_box(lo, hi).collect();
        out.sort();
        out
    }

    /// Every base whose bounding box (`lo`, `hi`) `keep` accepts, sorted by reference.
    /// `keep` is also asked about the boxes of the tree's nodes, so it must accept every
    /// box that holds a box it accepts (as "some region meets the box" does).
    pub fn bases_where(&self, keep: impl Fn(Vec2, Vec2) -> bool) -> Vec<BaseRef> {
        struct Select<F>(F);
        impl<F: Fn(Vec2, Vec2) -> bool> rstar::SelectionFunction<Entry> for Select<F> {
            fn should_unpack_parent(&self, e: &AABB<[f64; 2]>) -> bool {
                let (lo, hi) = (e.lower(), e.upper());
                (self.0)(Vec2::new(lo[0], lo[1]), Vec2::new(hi[0], hi[1]))
            }
            fn should_unpack_leaf(&self, leaf: &Entry) -> bool {
                self.should_unpack_parent(&leaf.envelope)
            }
        }
        let mut out: Vec<BaseRef> =
            self.tree.locate_with_selection_function(Select(keep)).map(|e| e.r).collect();
        out.sort();
        out
    }

    /// Every base whose bounding box meets the axis-aligned box from `lo` to `hi`: the
    /// candidates for a query over a region (a zone, an arc), to be decided exactly by
    /// the caller. Unsorted.
    pub fn candidates_in_box(&self, lo: Vec2, hi: Vec2) -> impl Iterator<Item = BaseRef> + '_ {
        self.tree
            .locate_in_envelope_intersecting(&AABB::from_corners([lo.x, lo.y], [hi.x, hi.y]))
            .map(|e| e.r)
    }

    /// Every base within `distance_mm` of the point (edge distance; zero inside), sorted
    /// by reference.
    #[must_use]
    pub fn within_of_point(&self, p: Vec2, distance_mm: f64) -> Vec<Neighbour> {
        let env = AABB::from_corners(
            [p.x - distance_mm, p.y - distance_mm],
            [p.x + distance_mm, p.y + distance_mm],
        );
        let mut out: Vec<Neighbour> = self
            .tree
            .locate_in_envelope_intersecting(&env)
            .filter_map(|e| {
                let b = self.base(e.r);
                let q = b.closest_point(p);
                let d = p.distance(q);
                (d <= distance_mm).then_some(Neighbour {
                    base: e.r,
                    closest: ClosestPoints { distance_mm: d, from: p, to: q },
                })
            })
            .collect();
        out.sort_by_key(|n| n.base);
        out
    }

    /// Every other base within `distance_mm` of base `r`, edge to edge, sorted by reference.
    #[must_use]
    pub fn within_of_base(&self, r: BaseRef, distance_mm: f64) -> Vec<Neighbour> {
        let b = self.base(r);
        let mut out: Vec<Neighbour> = self
            .tree
            .locate_in_envelope_intersecting(&grown(b, distance_mm))
            .filter(|e| e.r != r)
            .filter_map(|e| {
                let o = self.base(e.r);
                if b.separation(o) > distance_mm {
                    return None;
                }
                let c = b.closest_points(o);
                (c.distance_mm <= distance_mm).then_some(Neighbour { base: e.r, closest: c })
            })
            .collect();
        out.sort_by_key(|n| n.base);
        out
    }

    /// Every base of other units within `distance_mm` of the unit (the closest of the
    /// unit's bases to each), sorted by reference.
    #[must_use]
    pub fn within_of_unit(&self, unit: usize, distance_mm: f64) -> Vec<Neighbour> {
        let mut best: HashMap<BaseRef, Neighbour> = HashMap::new();
        for bi in 0..self.table.units[unit].bases.len() {
            for n in self.within_of_base(BaseRef::new(unit, bi), distance_mm) {
                if n.base.unit == unit {
                    continue;
                }
                best.entry(n.base)
                    .and_modify(|cur| {
                        if n.closest.distance_mm < cur.closest.distance_mm {
                            *cur = n;
                        }
                    })
                    .or_insert(n);
            }
        }
        let mut out: Vec<Neighbour> = best.into_values().collect();
        out.sort_by_key(|n| n.base);
        out
    }

    /// The closest distance from `unit` to each other unit with a base within
    /// `distance_mm` that `keep` accepts (unit index → mm, edge to edge).
    #[must_use]
    pub fn units_within_of_unit(
        &self,
        unit: usize,
        distance_mm: f64,
        keep: impl Fn(usize) -> bool,
    ) -> BTreeMap<usize, f64> {
        let mut best: BTreeMap<usize, f64> = BTreeMap::new();
        for n in self.within_of_unit(unit, distance_mm) {
            if keep(n.base.unit) {
                let e = best.entry(n.base.unit).or_insert(f64::INFINITY);
                *e = e.min(n.closest.distance_mm);
            }
        }
        best
    }

    /// The closest base of an enemy unit to base `r` (ties: the lowest reference);
    /// `None` when the table has no enemy base.
    #[must_use]
    pub fn nearest_enemy(&self, r: BaseRef) -> Option<Neighbour> {
        let b = self.base(r);
        let c = b.centre();
        // Every point of the base is within this of its centre, so a base at point
        // distance p from the centre is at least p - reach from the base.
        let reach = b.width().hypot(b.depth()) / 2.0;
        let own = self.sides[r.unit] as usize;
        let mut best: Option<Neighbour> = None;
        for (side, tree) in self.side_trees().iter().enumerate() {
            if side == own {
                continue;
            }
            for (e, d2) in tree.nearest_neighbor_iter_with_distance_2(&[c.x, c.y]) {
                if best.is_some_and(|n| d2.sqrt() - reach > n.closest.distance_mm) {
                    break;
                }
                let cp = b.closest_points(&e.base);
                let better = match best {
                    None => true,
                    Some(cur) => {
                        cp.distance_mm < cur.closest.distance_mm
                            || (cp.distance_mm == cur.closest.distance_mm && e.r < cur.base)
                    }
                };
                if better {
                    best = Some(Neighbour { base: e.r, closest: cp });
                }
            }
        }
        best
    }

    /// Every pair of bases (of any units) within `distance_mm` edge to edge, sorted.
    #[must_use]
    pub fn pairs_within(&self, distance_mm: f64) -> Vec<BasePair> {
        self.pairs_within_where(distance_mm, |_, _| true)
    }

    /// [`Self::pairs_within`] of the pairs of units `keep` accepts (asked before any
    /// distance is measured, with the lower base's unit first).
    #[must_use]
    pub fn pairs_within_where(&self, distance_mm: f64, keep: impl Fn(usize, usize) -> bool) -> Vec<BasePair> {
        let mut out = Vec::new();
        for (r, b) in self.table.bases() {
            for e in self.tree.locate_in_envelope_intersecting(&grown(b, distance_mm)) {
                if e.r <= r || !keep(r.unit, e.r.unit) {
                    continue;
                }
                let o = self.base(e.r);
                if b.separation(o) > distance_mm {
                    continue;
                }
                let d = b.distance(o);
                if d <= distance_mm {
                    out.push(BasePair { a: r, b: e.r, distance_mm: d });
                }
            }
        }
        out.sort_by_key(|p| (p.a, p.b));
        out
    }
}

/// The box around a terrain feature's outline and path.
pub(crate) fn terrain_box(f: &TerrainFeature) -> (Vec2, Vec2) {
    bbox(f.outline.iter().chain(&f.path).copied())
}

/// The skirmisher units of `table`, each with the box of its regiment's markers (the
/// bases of every skirmisher unit of its parent, or of itself without one), in no
/// particular order: the screens joining a regiment's markers lie in that box.
pub(crate) fn regiment_boxes(table: &Table) -> Vec<(usize, (Vec2, Vec2))> {
    let mut skirmishers: Vec<(&str, usize)> = table
        .units
        .iter()
        .enumerate()
        .filter(|(_, u)| u.kind == UnitKind::Skirmisher)
        .map(|(i, u)| (u.parent.as_deref().unwrap_or(u.id.as_str()), i))
        .collect();
    // Sorted by regiment, each run of one regiment shares the box of its markers.
    skirmishers.sort_unstable();
    let mut out = Vec::with_capacity(skirmishers.len());
    for run in skirmishers.chunk_by(|a, b| a.0 == b.0) {
        let markers = run.iter().flat_map(|s| &table.units[s.1].bases);
        // A regiment without markers: the empty box, which meets nothing.
        let b = bases_box(markers).unwrap_or_else(|| bbox([]));
        out.extend(run.iter().map(|s| (s.1, b)));
    }
    out
}

/// Brute-force scans with the same answers as [`SpatialIndex`]: the oracle in tests and
/// the baseline in benches.
pub mod brute {
    use super::*;

    /// Every base within `distance_mm` of a point.
    #[must_use]
    pub fn within_of_point(table: &Table, p: Vec2, distance_mm: f64) -> Vec<Neighbour> {
        table
            .bases()
            .filter_map(|(r, b)| {
                let q = b.closest_point(p);
                let d = p.distance(q);
                (d <= distance_mm).then_some(Neighbour {
                    base: r,
                    closest: ClosestPoints { distance_mm: d, from: p, to: q },
                })
            })
            .collect()
    }

    /// Every other base within `distance_mm` of base `r`.
    #[must_use]
    pub fn within_of_base(table: &Table, r: BaseRef, distance_mm: f64) -> Vec<Neighbour> {
        let Some(b) = table.base(r) else { return Vec::new() };
        table
            .bases()
            .filter(|(o, _)| *o != r)
            .filter_map(|(o, ob)| {
                let c = b.closest_points(ob);
                (c.distance_mm <= distance_mm).then_some(Neighbour { base: o, closest: c })
            })
            .collect()
    }

    /// The nearest enemy base of base `r` (ties: the lowest reference).
    #[must_use]
    pub fn nearest_enemy(table: &Table, r: BaseRef) -> Option<Neighbour> {
        let b = table.base(r)?;
        let side = &table.units[r.unit].side;
        let mut best: Option<Neighbour> = None;
        for (o, ob) in table.bases() {
            if &table.units[o.unit].side == side {
                continue;
            }
            let c = b.closest_points(ob);
            if best.is_none_or(|cur| c.distance_mm < cur.closest.distance_mm) {
                best = Some(Neighbour { base: o, closest: c });
            }
        }
        best
    }

    /// Every pair within `distance_mm`, by checking all n(n-1)/2 pairs exactly.
    #[must_use]
    pub fn pairs_within(table: &Table, distance_mm: f64) -> Vec<BasePair> {
        let all: Vec<(BaseRef, &Base)> = table.bases().collect();
        let mut out = Vec::new();
        for (i, (ra, a)) in all.iter().enumerate() {
            for (rb, b) in &all[i + 1..] {
                let d = a.distance(b);
                if d <= distance_mm {
                    out.push(BasePair { a: *ra, b: *rb, distance_mm: d });
                }
            }
        }
        out
    }
}
