//! The terrain half of the model ([`PreparedTerrain`]): what a table's terrain and the
//! sight rules alone decide, prepared once and shared by every model over tables with
//! that terrain.
//!
//! A close call (issue 17) decides one verdict on a dozen perturbed copies of a table
//! whose bases move and whose terrain never does: preparing the terrain once per call
//! instead of once per copy leaves only the bases' part (levels, shapes, screens) to
//! each copy (issue 20).

use super::sweep_cache::{Shapes, kernel};
use super::{Feature, lock};
use crate::error::GeometryError;
use crate::los::hills::Ground;
use crate::los::sight_rules::{CoverVisibility, HillSight, SightRules};
use crate::los::spotting_depth::core_radius;
use crate::los::terrain_sight::{SightEffect, sight_properties};
use crate::polygon::convex_parts;
use crate::pro_patria::crest::hill_crests;
use crate::sight::Blocker;
use crate::table::Table;
use crate::terrain::TerrainFeature;
use crate::vec2::Vec2;
use std::sync::{Mutex, OnceLock};

/// A table's terrain as the sight model uses it, under one rule set's sight rules: the
/// ground (hill contours), each feature's blockers, box and crest lines, and (built on
/// first use) the convex kernels and deep cores of the covers that the exact shortcuts
/// use. Build a [`super::TerrainSight`] from it with [`super::TerrainSight::with_terrain`]
/// over any table with the same terrain, such as copies whose bases moved.
///
/// ```
/// use std::sync::Arc;
/// use vedette_geometry::{Pose, SpatialIndex, Table, Vec2};
/// use vedette_geometry::los::{PreparedTerrain, TerrainSight};
/// let t = Table::from_json_str(r#"{"schema":"vedette/table/1","rules":"republique5","scale":"medium",
///   "units":[
///     {"id":"gun","side":"fr","kind":"artillery","bases":[{"x":0,"y":0,"heading":90,"width":25,"depth":40}]},
///     {"id":"foe","side":"au","kind":"infantry","formation":"line","bases":[{"x":0,"y":300,"heading":270,"width":30,"depth":20}]}],
///   "terrain":[{"id":"wood","kind":"heavy-forest","outline":[[-100,100],[100,100],[100,200],[-100,200]]}]}"#)?;
/// let terrain = Arc::new(PreparedTerrain::try_new(&t)?);
/// // The foe steps aside, clear of the wood: the same terrain serves the moved table.
/// let mut moved = t.clone();
/// let foe = moved.units[1].bases[0];
/// moved.units[1].bases[0] = foe.with_pose(Pose::new(Vec2::new(500.0, 300.0), foe.pose().heading_deg));
/// for table in [&t, &moved] {
///     let index = SpatialIndex::new(table);
///     let los = TerrainSight::with_terrain(&index, &terrain)?;
///     assert_eq!(los.unit_verdict(0, 1).visible, std::ptr::eq(table, &moved));
/// }
/// # Ok::<(), vedette_geometry::GeometryError>(())
/// ```
pub struct PreparedTerrain {
    /// The terrain it was prepared from: a model is only built over a table with this
    /// terrain.
    terrain: Vec<TerrainFeature>,
    rules: SightRules,
    ground: Ground,
    features: Vec<Feature>,
    /// By feature, an area cover's kernel (a convex part of it).
    kernels: OnceLock<Vec<Option<Vec<Vec2>>>>,
    /// By terrain index, for a cover without holes: the spotting depth and the cover's
    /// convex parts shrunk by [`core_radius`] of it.
    deep: OnceLock<Vec<(f64, Vec<Vec<Vec2>>)>>,
    /// The kernels shrunk for an eye, by the shrink's bits (eyes of one width share it).
    shrunk: Mutex<Vec<(u64, Shapes)>>,
}

impl PreparedTerrain {
    /// The terrain of `table` under its rule set's sight rules ([`SightRules::for_book`]).
    ///
    /// # Errors
    /// When the table's rule set has no rule book or sight rules.
    pub fn try_new(table: &Table) -> Result<Self, GeometryError> {
        let rules = SightRules::for_book(&table.rule_book()?)?;
        Ok(Self::with_rules(table, rules))
    }

    /// The terrain of `table` under explicit sight rules.
    #[must_use]
    pub fn with_rules(table: &Table, rules: SightRules) -> Self {
        let features = table
            .terrain
            .iter()
            .enumerate()
            .filter_map(|(i, f)| {
                let props = sight_properties(f.kind);
                if props.effect == SightEffect::Open {
                    return None;
                }
                let linear = f.kind.is_linear();
                let blockers =
                    if linear { Blocker::from_path(&f.path) } else { vec![Blocker::new(f.polygon())] };
                let (mut lo, mut hi) = (
                    Vec2::new(f64::INFINITY, f64::INFINITY),
                    Vec2::new(f64::NEG_INFINITY, f64::NEG_INFINITY),
                );
                for b in &blockers {
                    let (l, h) = b.bbox();
                    lo = Vec2::new(lo.x.min(l.x), lo.y.min(l.y));
                    hi = Vec2::new(hi.x.max(h.x), hi.y.max(h.y));
                }
                let crests = match rules.hills {
                    HillSight::CrestLines { .. } if props.effect == SightEffect::Hill => hill_crests(f)
                        .into_iter()
                        .map(|c| {
                            let bands = Blocker::from_path(&c.points);
                            (c, bands)
                        })
                        .collect(),
                    _ => Vec::new(),
                };
                Some(Feature {
                    index: i,
                    kind: f.kind,
                    level: f.level,
                    props,
                    blockers,
                    linear,
                    lo,
                    hi,
                    crests,
                })
            })
            .collect();
        PreparedTerrain {
            terrain: table.terrain.clone(),
            rules,
            ground: Ground::new(table),
            features,
            kernels: OnceLock::new(),
            deep: OnceLock::new(),
            shrunk: Mutex::new(Vec::new()),
        }
    }

    /// The sight rules it was prepared under.
    #[must_use]
    pub fn rules(&self) -> &SightRules {
        &self.rules
    }

    /// The ground (hill contours).
    #[must_use]
    pub fn ground(&self) -> &Ground {
        &self.ground
    }

    /// True when `table`'s terrain is the one prepared.
    #[must_use]
    pub fn fits(&self, table: &Table) -> bool {
        self.terrain == table.terrain
    }

    /// The terrain, checked against `table` ([`Self::fits`]).
    pub(super) fn check(&self, table: &Table) -> Result<(), GeometryError> {
        if self.fits(table) {
            Ok(())
        } else {
            Err(GeometryError::TerrainMismatch { prepared: self.terrain.len(), table: table.terrain.len() })
        }
    }

    pub(super) fn features(&self) -> &[Feature] {
        &self.features
    }

    /// By feature, each area cover's kernel (a convex part of it); `None` for linear
    /// features, covers with holes and everything that is not a cover.
    pub(super) fn kernels(&self) -> &[Option<Vec<Vec2>>] {
        self.kernels.get_or_init(|| {
            self.features
                .iter()
                .map(|f| {
                    let poly = f.blockers.first()?.polygon();
                    if f.linear
                        || !poly.holes.is_empty()
                        || !matches!(f.props.effect, SightEffect::Cover { .. })
                    {
                        return None;
                    }
                    kernel(&poly.exterior)
                })
                .collect()
        })
    }

    /// By terrain index, for a cover without holes under [`CoverVisibility::DepthIntoCover`]:
    /// its spotting depth and its deep cores (its convex parts, and its kernel, shrunk by
    /// [`core_radius`] of the depth), through which no sight line passes within the depth.
    pub(super) fn deep(&self) -> &[(f64, Vec<Vec<Vec2>>)] {
        self.deep.get_or_init(|| {
            let kernels = self.kernels();
            let mut deep = vec![(0.0, Vec::new()); self.terrain.len()];
            for (f, kernel) in self.features.iter().zip(kernels) {
                let SightEffect::Cover { spotting_depth } = f.props.effect else { continue };
                let Some(poly) = f.blockers.first().map(Blocker::polygon) else { continue };
                if f.linear || !poly.holes.is_empty() || self.rules.cover != CoverVisibility::DepthIntoCover {
                    continue;
                }
                let depth = self.rules.depth_mm(spotting_depth);
                let mut parts = convex_parts(&poly.exterior);
                // The kernel overlaps the parts: it holds points near their shared edges.
                if parts.len() > 1
                    && let Some(k) = kernel
                {
                    parts.push(k.clone());
                }
                if let Some(d) = deep.get_mut(f.index) {
                    *d = (
                        depth,
                        parts.iter().filter_map(|c| crate::convex::shrink(c, core_radius(depth))).collect(),
                    );
                }
            }
            deep
        })
    }

    /// Every kernel shrunk by `d` rounded up to the micrometre ([`crate::convex::shrink`]),
    /// computed once per distinct rounded `d`.
    pub(super) fn shrunk_kernels(&self, d: f64) -> Shapes {
        // Eyes of one base width differ in the last bits of their length: shrinking by a
        // little more (up to the next micrometre) lets them share one list, and a piece
        // shrunk more still blocks.
        let d = ((d + 1e-9) * 1e6).ceil() / 1e6;
        let shrink = || {
            self.kernels()
                .iter()
                .map(|k| k.as_ref().and_then(|k| crate::convex::shrink(k, d)))
                .collect::<Vec<_>>()
        };
        // A poisoned lock only means another thread panicked; the list is still sound.
        let mut cache = lock(&self.shrunk);
        if let Some((_, v)) = cache.iter().find(|(bits, _)| *bits == d.to_bits()) {
            return v.clone();
        }
        let v = std::sync::Arc::new(shrink());
        cache.push((d.to_bits(), v.clone()));
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::SpatialIndex;
    use crate::los::TerrainSight;
    use crate::los::close_calls::{Against, perturb};
    use crate::table::{BaseRef, Selection};
    use std::sync::Arc;

    /// A battery, a line, two skirmish markers of one regiment, and the enemy's line,
    /// cavalry and battery, among a wood, a hill, a building and a stone wall.
    fn battlefield(rules: &str, scale: &str) -> Table {
        let text = format!(
            r#"{{"schema":"vedette/table/1","rules":"{rules}","scale":"{scale}","units":[
  {{"id":"gun","side":"fr","kind":"artillery","bases":[{{"x":0,"y":0,"heading":90,"width":25,"depth":40}}]}},
  {{"id":"line","side":"fr","kind":"infantry","formation":"line","bases":[
    {{"x":-150,"y":50,"heading":90,"width":30,"depth":20}},{{"x":-120,"y":50,"heading":90,"width":30,"depth":20}}]}},
  {{"id":"sk","side":"fr","kind":"skirmisher","parent":"line","bases":[
    {{"x":100,"y":150,"heading":90,"width":20,"depth":20}},{{"x":160,"y":170,"heading":80,"width":20,"depth":20}}]}},
  {{"id":"foe","side":"au","kind":"infantry","formation":"line","bases":[
    {{"x":-60,"y":400,"heading":270,"width":30,"depth":20}},{{"x":-30,"y":400,"heading":270,"width":30,"depth":20}},
    {{"x":0,"y":400,"heading":272,"width":30,"depth":20}}]}},
  {{"id":"horse","side":"au","kind":"cavalry","bases":[{{"x":300,"y":350,"heading":250,"width":30,"depth":30}}]}},
  {{"id":"guns","side":"au","kind":"artillery","bases":[{{"x":-300,"y":420,"heading":275,"width":25,"depth":40}}]}}],
"terrain":[
  {{"id":"wood","kind":"medium-forest","outline":[[-120,180],[-20,180],[-20,260],[-120,260]]}},
  {{"id":"rise","kind":"hill","level":1,"outline":[[150,250],[450,250],[450,500],[150,500]]}},
  {{"id":"inn","kind":"heavy-buildings","outline":[[30,280],[80,280],[80,320],[30,320]]}},
  {{"id":"wall","kind":"stone-wall","path":[[-250,300],[-150,320]]}}]}}"#
        );
        Table::from_json_str(&text).unwrap_or_else(|e| panic!("{e}\n{text}"))
    }

    /// Every verdict of a model built from scratch and of one over the prepared terrain
    /// of the unmoved table, on perturbed copies (each base grown or shrunk as a close
    /// call moves it): unit pairs, explanations and the battery's full-base sight.
    #[test]
    fn a_model_over_prepared_terrain_decides_as_one_built_from_scratch() {
        for (rules, scale) in [("republique5", "medium"), ("pro-patria", "28mm")] {
            let table = battlefield(rules, scale);
            let terrain = Arc::new(PreparedTerrain::try_new(&table).unwrap_or_else(|e| panic!("{e}")));
            let n = table.units.len();
            let pairs: Vec<(usize, usize)> =
                (0..n).flat_map(|a| (0..n).filter(move |&b| b != a).map(move |b| (a, b))).collect();
            let (spotter, target) = ([BaseRef::new(0, 0)], [BaseRef::new(3, 0), BaseRef::new(3, 1)]);
            let (mut seen, mut hidden) = (0, 0);
            for against in [Against::Visible, Against::Hidden, Against::FullBase, Against::NoFullBase] {
                for k in [0.0, 3.7, 31.0] {
                    let mut moved = table.clone();
                    perturb(&mut moved, &spotter, &target, against, k);
                    let index = SpatialIndex::new(&moved);
                    let scratch = TerrainSight::try_new(&index).unwrap_or_else(|e| panic!("{e}"));
                    let prepared =
                        TerrainSight::with_terrain(&index, &terrain).unwrap_or_else(|e| panic!("{e}"));
                    let want = scratch.unit_verdicts(&pairs, 1);
                    assert_eq!(prepared.unit_verdicts(&pairs, 1), want, "{rules} {against:?} {k}");
                    seen += want.iter().filter(|v| v.visible).count();
                    hidden += want.iter().filter(|v| !v.visible).count();
                    for &(a, b) in &pairs {
                        let (sa, sb) = (Selection::Unit(a), Selection::Unit(b));
                        assert_eq!(
                            prepared.explain(sa, sb).unwrap_or_else(|e| panic!("{e}")),
                            scratch.explain(sa, sb).unwrap_or_else(|e| panic!("{e}")),
                            "{rules} {against:?} {k} {a} {b}"
                        );
                        assert_eq!(
                            prepared.if_declared_behind(sa, sb).unwrap_or_else(|e| panic!("{e}")),
                            scratch.if_declared_behind(sa, sb).unwrap_or_else(|e| panic!("{e}")),
                        );
                    }
                    let e = moved.units[0].bases[0].front_edge();
                    for (r, _) in moved.bases() {
                        assert_eq!(
                            crate::LineOfSight::full_base_visible(&prepared, &moved, 0, &[e.a, e.b], r),
                            crate::LineOfSight::full_base_visible(&scratch, &moved, 0, &[e.a, e.b], r),
                        );
                    }
                }
            }
            // The terrain decides some pairs each way: the comparison is not vacuous.
            assert!(seen > 0 && hidden > 0, "{rules}: {seen} seen, {hidden} hidden");
        }
    }

    #[test]
    fn a_model_over_another_tables_terrain_is_refused() {
        let table = battlefield("republique5", "medium");
        let terrain = Arc::new(PreparedTerrain::try_new(&table).unwrap_or_else(|e| panic!("{e}")));
        let mut other = table.clone();
        other.terrain.pop();
        let index = SpatialIndex::new(&other);
        assert!(matches!(
            TerrainSight::with_terrain(&index, &terrain),
            Err(GeometryError::TerrainMismatch { prepared: 4, table: 3 })
        ));
        assert!(terrain.fits(&table) && !terrain.fits(&other));
    }
}
