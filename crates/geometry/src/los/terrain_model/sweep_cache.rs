//! The sweep cache (what the occlusion sweep needs of a table, built once, in parts
//! the cores can share out), the sweep from one spotter's eye, and the solid pieces
//! of a pair for the chain test.

use super::{BlockerOrigin, Pair, Proof, TerrainSight};
use crate::base::Base;
use crate::convex::hull_points;
use crate::los::occlusion::{self, Horizon, Sweep, Terrain, UnitSight};
use crate::los::sight_rules::{CoverVisibility, Eye};
use crate::los::solid_block::SOLID_MARGIN_MM;
use crate::los::spotting_depth::{beyond_depth, convex_part_around, covers, hidden_in_cover};
use crate::los::terrain_sight::SightEffect;
use crate::polygon::{ConvexPolygon, HalfPlane};
use crate::table::{BaseRef, UnitKind};
use crate::vec2::Vec2;

/// Convex shapes by feature, shared (`None`: the feature has none).
pub(super) type Shapes = std::sync::Arc<Vec<Option<Vec<Vec2>>>>;

/// The sweep cache: what the occlusion sweep uses, prepared once per table (the sweep's
/// own [`occlusion::Occluders`] are one part of it): the units' blocks and cells,
/// the cover each unit stands in, and each unit's highest base level. (The covers'
/// kernels and deep cores depend on the terrain alone: [`super::PreparedTerrain`].)
pub(super) struct SweepCache {
    pub(super) sweep: occlusion::Occluders,
    pub(super) unit_cover: Vec<Vec<usize>>,
    pub(super) unit_top: Vec<f64>,
}

/// One unit's part of [`SweepCache`]: its solid blocks and the covers it stands in.
pub(super) type UnitSweepPart = (Vec<crate::los::solid_block::SolidBlock>, Vec<usize>);

/// The table-wide part of [`SweepCache`]: where the units lie.
pub(super) struct TableSweepPart {
    pub(super) layout: occlusion::Layout,
}

/// A part of [`SweepCache`], as the cores make them.
pub(super) enum SweepPart {
    Unit(UnitSweepPart),
    Table(TableSweepPart),
}

impl<'i, 't> TerrainSight<'i, 't> {
    pub(super) fn sweep_cache(&self) -> &SweepCache {
        self.sweep_cache.get_or_init(|| {
            let units = (0..self.table.units.len()).map(|u| self.unit_sweep_part(u)).collect();
            self.sweep_cache_of(units, self.table_sweep_part())
        })
    }

    /// One unit's part of [`Self::sweep_cache`]: its solid blocks, and the covers it
    /// stands in.
    pub(super) fn unit_sweep_part(&self, u: usize) -> UnitSweepPart {
        let Some(unit) = self.table.units.get(u) else { return (Vec::new(), Vec::new()) };
        let bases = unit.bases.as_slice();
        // The box round the unit first: most covers are far from most units.
        let (lo, hi) = bases.iter().map(Base::aabb).fold(
            (Vec2::new(f64::INFINITY, f64::INFINITY), Vec2::new(f64::NEG_INFINITY, f64::NEG_INFINITY)),
            |(l, h), (bl, bh)| {
                (Vec2::new(l.x.min(bl.x), l.y.min(bl.y)), Vec2::new(h.x.max(bh.x), h.y.max(bh.y)))
            },
        );
        let features = self.terrain.features();
        let cover = (0..features.len())
            .filter(|&k| matches!(features[k].props.effect, SightEffect::Cover { .. }))
            .filter(|&k| features[k].bbox_overlaps(lo, hi))
            .filter(|&k| bases.iter().any(|b| features[k].overlaps_base(b)))
            .collect();
        (crate::los::solid_block::solid_blocks(u, bases), cover)
    }

    /// The table-wide part of [`Self::sweep_cache`]: where the units lie. It also makes
    /// sure the terrain's kernels and deep cores are built (once per terrain), so that
    /// the core building this part builds them.
    pub(super) fn table_sweep_part(&self) -> TableSweepPart {
        let _ = self.terrain.deep();
        let bases: Vec<&[Base]> = self.table.units.iter().map(|u| u.bases.as_slice()).collect();
        TableSweepPart { layout: occlusion::Layout::new(&bases) }
    }

    /// What [`Self::sweep_cache`] holds, from its parts: every unit's, in unit order, and
    /// the table's.
    pub(super) fn sweep_cache_of(&self, units: Vec<UnitSweepPart>, table: TableSweepPart) -> SweepCache {
        let TableSweepPart { layout } = table;
        let (blocks, unit_cover): (Vec<_>, Vec<_>) = units.into_iter().unzip();
        let sweep = occlusion::Occluders::new(blocks, layout);
        let unit_top =
            self.levels.iter().map(|l| l.iter().copied().fold(f64::NEG_INFINITY, f64::max)).collect();
        SweepCache { sweep, unit_cover, unit_top }
    }

    /// Which units the eye of spotter base `spotter` cannot see at all, and which of
    /// their bases it cannot see ([`crate::los::occlusion`]); every unit `Unknown` when the
    /// rules are not ones the sweep knows (Pro Patria's screening, a whole-base eye).
    pub(super) fn occlusion(&self, spotter: BaseRef, eye: &[Vec2]) -> Vec<UnitSight> {
        let table = self.table;
        let n = table.units.len();
        let Some(sb) = table.base(spotter) else { return vec![UnitSight::Unknown; n] };
        if self.proof == Proof::Exhaustive
            || table.rules == crate::rules::RuleSet::ProPatria
            || self.rules.screening != crate::los::sight_rules::UnitScreening::Republique
            || self.rules.eye != Eye::FrontEdge
            || eye.len() != 2
        {
            return vec![UnitSight::Unknown; n];
        }
        let occ = self.sweep_cache();
        let (horizon, shrink) = Horizon::new([eye[0], eye[1]]);
        let su = spotter.unit;
        let spotter_unit = &table.units[su];
        let mut terrain: Vec<(Vec<Vec2>, Option<u32>)> = Vec::new();
        // Friendly skirmish screens block artillery (000 §4.2).
        if spotter_unit.kind == UnitKind::Artillery {
            for (bl, a, _) in &self.screens {
                if table.units[a.unit].side == spotter_unit.side
                    && let Some(s) = crate::convex::shrink(&bl.polygon().exterior, shrink)
                {
                    terrain.push((s, None));
                }
            }
        }
        // Woods and built-up areas as high as the spotter or higher hide what is behind
        // them (003 601: an infinite blind zone) from a target lower than their top; a
        // target standing in one is judged without it (its spotting depth decides).
        let ls = self.level_of(spotter);
        let mut cover_top = f64::INFINITY;
        let mut spotter_in_cover = false;
        if self.rules.cover == CoverVisibility::DepthIntoCover {
            let shrunk = self.terrain.shrunk_kernels(shrink);
            for (k, f) in self.terrain.features().iter().enumerate() {
                let Some(s) = &shrunk[k] else { continue };
                let top = f.level + f.props.height_levels;
                if top < ls || f.overlaps_base(sb) {
                    continue;
                }
                cover_top = cover_top.min(top);
                terrain.push((s.clone(), Some(k as u32)));
            }
            // A spotter standing in cover sees out of it only along lines that leave it
            // within the spotting depth: the rest of a convex part of the cover around
            // the eye blocks (see `spotting_depth`).
            for f in self.terrain.features().iter().filter(|f| !f.linear && f.overlaps_base(sb)) {
                let SightEffect::Cover { spotting_depth } = f.props.effect else { continue };
                let Some(cover) = f.blockers.first() else { continue };
                if !covers(cover, eye) {
                    continue;
                }
                let Some(part) = convex_part_around(cover, eye) else { continue };
                spotter_in_cover = true;
                for piece in beyond_depth(&part, eye, self.rules.depth_mm(spotting_depth)) {
                    if let Some(s) = crate::convex::shrink(&piece, shrink) {
                        terrain.push((s, None));
                    }
                }
            }
        }
        let terrain_of = |u: usize| {
            if occ.unit_top[u] >= cover_top {
                return Terrain::None;
            }
            match occ.unit_cover[u].as_slice() {
                [] => Terrain::All,
                [k] => Terrain::AllBut(*k as u32),
                _ => Terrain::None,
            }
        };
        let sv = sb.vertices_ccw();
        let rescue = |u: usize, bi: usize, t: Terrain, h: &Horizon| -> bool {
            let [k] = occ.unit_cover[u][..] else { return false };
            let f = &self.terrain.features()[k];
            let SightEffect::Cover { spotting_depth } = f.props.effect else { return false };
            let Some(b) = table.units[u].bases.get(bi) else { return false };
            if self.rules.cover != CoverVisibility::DepthIntoCover || !f.overlaps_base(b) {
                return false;
            }
            let Some(cover) = f.blockers.first() else { return false };
            let d = self.rules.depth_mm(spotting_depth);
            hidden_in_cover(cover, d, eye, &sv, &b.vertices_ccw(), |shape| h.hides(shape, t))
        };
        let blocks = |u: usize| u == su || crate::los::blocks(table, su, u, usize::MAX);
        // Sight is asked of enemies: friendly units are left to the exact search. (Found
        // once per unit: the sweep asks about every unit of a cell.)
        let enemy: Vec<bool> = table.units.iter().map(|u| u.side != spotter_unit.side).collect();
        let judged = |u: usize| enemy[u];
        let units: Vec<&[Base]> = table.units.iter().map(|u| u.bases.as_slice()).collect();
        let sweep = Sweep {
            occluders: &occ.sweep,
            bases: &units,
            spotter_unit: su,
            blocks: &blocks,
            judged: &judged,
            terrain_of: &terrain_of,
            rescue: &rescue,
            corners: !spotter_in_cover,
        };
        sweep.run(horizon, shrink, &terrain)
    }

    /// The solid pieces of what blocks the pair for [`crate::los::chain::separated`]: its
    /// units' blocks (split where a slit is threaded from the pair's eye, so also from
    /// any part of it), screens and opaque terrain, shrunk by [`SOLID_MARGIN_MM`].
    pub(super) fn chain_pieces(&self, p: &Pair<'_>) -> Vec<Vec<Vec2>> {
        let occ = self.sweep_cache();
        let eye = [p.eye[0], p.eye[1]];
        let mut pieces: Vec<Vec<Vec2>> = Vec::new();
        let mut units: Vec<usize> = Vec::new();
        for (_, src) in &p.owned {
            match *src {
                BlockerOrigin::Base(r) => {
                    if !units.contains(&r.unit) {
                        units.push(r.unit);
                    }
                }
                BlockerOrigin::Screen(..) | BlockerOrigin::Terrain(_) => {}
            }
        }
        for u in units {
            let bases = &self.table.units[u].bases;
            for block in &occ.sweep.blocks[u] {
                if block.slits.iter().any(|s| s.threaded_from(&eye)) {
                    pieces.extend(
                        block
                            .split(bases)
                            .iter()
                            .filter_map(|b| b.inner.eroded(SOLID_MARGIN_MM))
                            .map(|r| r.corners().to_vec()),
                    );
                } else if let Some(r) = block.inner.eroded(SOLID_MARGIN_MM) {
                    pieces.push(r.corners().to_vec());
                }
            }
        }
        for (bl, src) in &p.owned {
            if let BlockerOrigin::Screen(..) = src
                && let Some(s) = crate::convex::shrink(&bl.polygon().exterior, SOLID_MARGIN_MM)
            {
                pieces.push(s);
            }
        }
        let mut seen_features: Vec<usize> = Vec::new();
        let solid_kernels = (!p.opaque.is_empty()).then(|| self.terrain.shrunk_kernels(SOLID_MARGIN_MM));
        for &(_, fi) in &p.opaque {
            if seen_features.contains(&fi) {
                continue;
            }
            seen_features.push(fi);
            if let Some(k) = self.terrain.features().iter().position(|f| f.index == fi)
                && let Some(Some(s)) = solid_kernels.as_ref().and_then(|sk| sk.get(k))
            {
                pieces.push(s.clone());
            }
        }
        pieces
    }
}

/// The kernel of a simple ring: the points that see all of it, a convex part of it (the
/// intersection of the inner sides of its edges), counter-clockwise; `None` when empty.
pub(super) fn kernel(ring: &[Vec2]) -> Option<Vec<Vec2>> {
    let mut r = ring.to_vec();
    if crate::convex::signed_area(&r) < 0.0 {
        r.reverse();
    }
    let n = r.len();
    let planes: Vec<HalfPlane> = (0..n).map(|i| HalfPlane::left_of(r[i], r[(i + 1) % n])).collect();
    let hull = ConvexPolygon::from_ccw_unchecked(hull_points(r));
    let k = ConvexPolygon::from_half_planes(&hull, &planes);
    (k.area() > 0.0).then(|| k.vertices().to_vec())
}
