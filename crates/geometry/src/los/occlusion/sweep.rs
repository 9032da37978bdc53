//! The sweep itself: the table's [`Occluders`] (solid blocks, unit boxes, cells of
//! units, as [`Layout`] places them), taken nearest first from one eye ([`Sweep`]).

use super::horizon::{Horizon, Terrain, UnitSight};
use super::sector::Sector;
use super::span::{Span, span_and_distance_2};
use super::{CELL_MM, JUDGE_REACH_MM, box_corners};
use crate::base::Base;
use crate::convex::{bases_box, point_distance_2};
use crate::los::solid_block::SolidBlock;
use crate::vec2::Vec2;

/// What the sweep uses of a table, prepared once: every unit's solid blocks, a box
/// around each unit, and cells of units.
pub(crate) struct Occluders {
    pub blocks: Vec<Vec<SolidBlock>>,
    pub(super) unit_box: Vec<[Vec2; 4]>,
    pub(super) cells: Vec<([Vec2; 4], Vec<usize>)>,
}

impl Occluders {
    /// `blocks`: each unit's solid blocks ([`crate::los::solid_block::solid_blocks`]);
    /// `layout`: where the units lie.
    pub fn new(blocks: Vec<Vec<SolidBlock>>, layout: Layout) -> Occluders {
        Occluders { blocks, unit_box: layout.unit_box, cells: layout.cells }
    }
}

/// Where a table's units lie, for the sweep: a box round each unit, and cells of units
/// (by the centre of the box) with a box round each cell's units.
pub(crate) struct Layout {
    pub(super) unit_box: Vec<[Vec2; 4]>,
    pub(super) cells: Vec<([Vec2; 4], Vec<usize>)>,
}

impl Layout {
    /// The layout of the units (their bases).
    pub fn new(units: &[&[Base]]) -> Layout {
        let boxes: Vec<Option<(Vec2, Vec2)>> = units.iter().map(|bases| bases_box(*bases)).collect();
        let unit_box =
            boxes.iter().map(|b| b.map_or([Vec2::ZERO; 4], |(lo, hi)| box_corners(lo, hi))).collect();
        let mut cells: std::collections::BTreeMap<(i64, i64), (Vec2, Vec2, Vec<usize>)> = Default::default();
        for (u, b) in boxes.iter().enumerate() {
            let Some((lo, hi)) = b else { continue };
            let c = lo.lerp(*hi, 0.5);
            let key = ((c.x / CELL_MM).floor() as i64, (c.y / CELL_MM).floor() as i64);
            let e = cells.entry(key).or_insert((*lo, *hi, Vec::new()));
            e.0 = Vec2::new(e.0.x.min(lo.x), e.0.y.min(lo.y));
            e.1 = Vec2::new(e.1.x.max(hi.x), e.1.y.max(hi.y));
            e.2.push(u);
        }
        let cells = cells.into_values().map(|(lo, hi, us)| (box_corners(lo, hi), us)).collect();
        Layout { unit_box, cells }
    }
}

/// One sweep over an eye (see the module documentation).
pub(crate) struct Sweep<'a> {
    pub occluders: &'a Occluders,
    pub bases: &'a [&'a [Base]],
    /// The spotter's unit: its bases block (a front-edge eye); it is not judged.
    pub spotter_unit: usize,
    /// Whether a unit's bases block this spotter whatever the target.
    pub blocks: &'a dyn Fn(usize) -> bool,
    /// Whether to judge a unit (the others stay `Unknown`, and blockers that could only
    /// hide them are left out).
    pub judged: &'a dyn Fn(usize) -> bool,
    /// The terrain a check on a unit may use.
    pub terrain_of: &'a dyn Fn(usize) -> Terrain,
    /// A last exact chance for a base the horizon does not hide (unit, base).
    pub rescue: &'a dyn Fn(usize, usize, Terrain, &Horizon) -> bool,
    /// Whether to judge the corners of bases not wholly hidden
    /// ([`UnitSight::Partly`]'s `not_whole`). Only when every blocker in the horizon cuts
    /// the whole sight segment, as unit bases and opaque terrain do; not when some only
    /// bound the run in cover before the target base (a spotter in cover), as a line to
    /// a far corner may pass deep in the cover only inside the target base.
    pub corners: bool,
}

impl Sweep<'_> {
    /// Runs the sweep: units nearest first, with the `terrain` pieces (shrunk, with their
    /// identities) joining the horizon in the same order, each just before the first
    /// shape it could hide is judged.
    pub fn run(
        &self,
        mut horizon: Horizon,
        shrink: f64,
        terrain: &[(Vec<Vec2>, Option<u32>)],
    ) -> Vec<UnitSight> {
        let n = self.bases.len();
        let mut out = vec![UnitSight::Unknown; n];
        let c = horizon.centre();
        let occ = self.occluders;
        let judged = |u: usize| u != self.spotter_unit && (self.judged)(u);
        // The directions that matter: those of the cells holding units to judge. The
        // horizon is only ever asked about them, so terrain wholly outside them is left
        // out.
        // Each cell's distance and range, found once.
        // Each cell's span and squared distance from the eye's centre, and from them its
        // distance and range, found once.
        let spans: Vec<(Span, f64)> = occ.cells.iter().map(|(b, _)| span_and_distance_2(c, b)).collect();
        let cell_at: Vec<(f64, Option<(f64, f64)>)> = occ
            .cells
            .iter()
            .zip(&spans)
            .map(|((b, _), &(sp, d2))| Sector::of_span(c, horizon.half_eye, b, sp, d2))
            .collect();
        let sector = Sector::around(
            occ.cells
                .iter()
                .zip(&cell_at)
                .filter(|((_, m), _)| m.iter().any(|&u| judged(u)))
                .map(|(_, a)| a.1),
        );
        // Terrain joins the horizon nearest first, with the units, just before anything
        // it could hide is judged: a piece no nearer than `reach` beyond the near side of
        // a shape (the eye's width) leaves every bound over that shape as it is. So
        // buckets already bounded by nearer units need no entry for it.
        let mut pending: Vec<(f64, usize)> = terrain
            .iter()
            .enumerate()
            .filter(|(_, (shape, _))| sector.meets(c, horizon.half_eye, shape))
            .map(|(k, (shape, _))| (point_distance_2(c, shape).sqrt(), k))
            .collect();
        pending.sort_unstable_by(|a, b| a.0.total_cmp(&b.0));
        let mut next = 0;
        let reach = 2.0 * horizon.half_eye;
        let mut terrain_within = |horizon: &mut Horizon, r: f64| {
            while let Some(&(dt, k)) = pending.get(next) {
                if dt > r {
                    break;
                }
                horizon.insert(&terrain[k].0, terrain[k].1);
                next += 1;
            }
        };
        let mut cells: Vec<(f64, usize)> = cell_at.iter().enumerate().map(|(k, a)| (a.0, k)).collect();
        cells.sort_unstable_by(|a, b| a.0.total_cmp(&b.0));
        let mut units: Vec<(f64, usize, Span)> = Vec::new();
        for &(cells_d, k) in &cells {
            let (_, members) = &occ.cells[k];
            if !sector.meets_range(cell_at[k].1) {
                continue;
            }
            terrain_within(&mut horizon, cells_d.sqrt() + reach);
            let (sp, d2) = spans[k];
            if horizon.hides_merged_at(sp, d2) {
                for &u in members {
                    if judged(u) {
                        out[u] = UnitSight::Hidden;
                    }
                }
                continue;
            }
            units.clear();
            // Each unit's span and squared distance from the eye's centre, found once.
            units.extend(members.iter().map(|&u| {
                let (sp, d2) = span_and_distance_2(c, &occ.unit_box[u]);
                let d2 = if matches!(sp, Span::Unknown) { point_distance_2(c, &occ.unit_box[u]) } else { d2 };
                (d2, u, sp)
            }));
            units.sort_unstable_by(|a, b| a.0.total_cmp(&b.0));
            for &(d2, u, sp) in &units {
                if judged(u) {
                    // A base's windows into its cover lie within the unit's box grown by
                    // the spotting depth (see `spotting_depth::hidden_in_cover`).
                    let far = occ.unit_box[u].iter().map(|&q| q.distance(c)).fold(0.0, f64::max);
                    terrain_within(&mut horizon, far + reach + JUDGE_REACH_MM);
                    out[u] = self.judge(&horizon, u, sp, d2);
                    if out[u] == UnitSight::Hidden {
                        continue;
                    }
                }
                if (self.blocks)(u)
                    && sector.meets_range(Sector::of_span(c, horizon.half_eye, &occ.unit_box[u], sp, d2).1)
                {
                    self.insert_unit(&mut horizon, u, shrink);
                }
            }
        }
        out
    }

    /// What the horizon hides of unit `u`, whose box has span `sp` and squared distance
    /// `d2` from the eye's centre.
    pub(super) fn judge(&self, horizon: &Horizon, u: usize, sp: Span, d2: f64) -> UnitSight {
        let terrain = (self.terrain_of)(u);
        if horizon.hides_at(&self.occluders.unit_box[u], terrain, sp, d2) {
            return UnitSight::Hidden;
        }
        let bases = self.bases[u];
        let (mut hidden, mut not_whole) = (0u64, 0u64);
        for (i, b) in bases.iter().enumerate().take(64) {
            let corners = b.vertices_ccw();
            if horizon.hides(&corners, terrain) || (self.rescue)(u, i, terrain, horizon) {
                hidden |= 1 << i;
            } else if self.corners && corners.iter().any(|&q| horizon.hides(&[q], terrain)) {
                // A point of the base no eye point sees: the base is not wholly seen.
                not_whole |= 1 << i;
            }
        }
        if bases.len() <= 64 && hidden.count_ones() as usize == bases.len() {
            UnitSight::Hidden
        } else {
            UnitSight::Partly { hidden, not_whole }
        }
    }

    pub(super) fn insert_unit(&self, horizon: &mut Horizon, u: usize, shrink: f64) {
        let eye = horizon.eye;
        for block in &self.occluders.blocks[u] {
            if block.slits.iter().any(|s| s.threaded_from(&eye)) {
                for piece in block.split(self.bases[u]) {
                    if let Some(r) = piece.inner.eroded(shrink) {
                        horizon.insert(&r.corners(), None);
                    }
                }
            } else if let Some(r) = block.inner.eroded(shrink) {
                horizon.insert(&r.corners(), None);
            }
        }
    }
}
