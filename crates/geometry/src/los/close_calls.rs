//! Close calls of line-of-sight verdicts (issue 17, [`crate::close_call`]).
//!
//! Sight has no single deciding distance: a sight line grazes a wood's corner, a
//! blocking base's edge, the target's far corner. Its margin is measured by moving the
//! bases against the verdict: every base of the spotter and of the target, and every
//! other base (a possible blocker), is grown or shrunk by the same `k` mm on every side,
//! whichever way makes the verdict harder to keep (a visible target shrinks, its
//! spotter's eye shrinks, blockers grow; a hidden one grows, blockers shrink). A base
//! moved by up to `k` in any direction stays inside its grown rectangle and covers its
//! shrunk one, so a verdict that survives the worst case at `k` survives every move of
//! up to `k`. The margin is the smallest `k` at which it flips (found by bisection to
//! [`PERTURBATION_RESOLUTION_MM`], at most [`PERTURBATION_MAX_MM`]: [`flip_margin`]), and the sigma the
//! largest of the bases' `sigma_mm` plus half diagonal times heading sigma: the verdict
//! is certain when it survives the worst case at two such sigmas. Terrain is exact.
//!
//! Each step decides the verdict on the pair's local table (`local_table.rs`): the bases
//! and terrain within [`crate::los::LOCAL_REACH_MM`] of the pair and what else can
//! decide it, which give the whole table's verdict.

use crate::base::Base;
use crate::close_call::{CloseCall, base_sigma, flip_margin, resized};
#[cfg(doc)]
use crate::close_call::{PERTURBATION_MAX_MM, PERTURBATION_RESOLUTION_MM};
use crate::error::GeometryError;
use crate::los::local_table::LocalTable;
use crate::los::terrain_model::ModelSpare;
use crate::los::{PreparedTerrain, TerrainSight, UnitVerdict};
use crate::table::{BaseRef, Selection, Table};
use std::sync::Arc;

/// The close calls of the two sight verdicts between two selections.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SightCalls {
    /// Of `visible` (some point of the target seen).
    pub visible: CloseCall,
    /// Of `full_base` (some target base seen in full from one spotter base).
    pub full_base: CloseCall,
}

pub(super) fn members(table: &Table, s: Selection) -> Vec<BaseRef> {
    match s {
        Selection::Unit(u) => {
            (0..table.units.get(u).map_or(0, |x| x.bases.len())).map(|b| BaseRef::new(u, b)).collect()
        }
        Selection::Base(r) => vec![r],
    }
}

/// Which verdict a perturbation works against.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Against {
    /// Keep `visible` true: shrink both ends, grow blockers.
    Visible,
    /// Keep `visible` false: grow both ends, shrink blockers.
    Hidden,
    /// Keep a full base seen: shrink the spotter, grow the target and blockers.
    FullBase,
    /// Keep no full base seen: grow the spotter, shrink the target and blockers.
    NoFullBase,
}

impl Against {
    /// Signs for (spotter, target, others).
    pub(super) fn signs(self) -> (f64, f64, f64) {
        match self {
            Against::Visible => (-1.0, -1.0, 1.0),
            Against::Hidden => (1.0, 1.0, -1.0),
            Against::FullBase => (-1.0, 1.0, 1.0),
            Against::NoFullBase => (1.0, -1.0, -1.0),
        }
    }
}

/// The verdict between two selections of a local table (a close call's step), and the
/// allocations its model leaves for the next step's.
fn verdict(
    table: &Table,
    terrain: &Arc<PreparedTerrain>,
    spotter: Selection,
    target: Selection,
    spare: ModelSpare,
) -> Result<(UnitVerdict, ModelSpare), GeometryError> {
    let sight = TerrainSight::scanning(table, terrain, spare)?;
    let v = sight.explain(spotter, target)?.0;
    Ok((v, sight.into_spare()))
}

/// Moves every base of `table` against `against` by `k` mm.
#[cfg(test)]
pub(super) fn perturb(table: &mut Table, spotter: &[BaseRef], target: &[BaseRef], against: Against, k: f64) {
    for (ui, unit) in table.units.iter_mut().enumerate() {
        for (bi, base) in unit.bases.iter_mut().enumerate() {
            *base = moved(BaseRef::new(ui, bi), base, spotter, target, against, k);
        }
    }
}

/// Base `r` (`b`), one of the spotter's bases `spotter`, of the target's `target` or
/// another, moved against `against` by `k` mm.
pub(super) fn moved(
    r: BaseRef,
    b: &Base,
    spotter: &[BaseRef],
    target: &[BaseRef],
    against: Against,
    k: f64,
) -> Base {
    let (s, t, o) = against.signs();
    let sign = if spotter.contains(&r) {
        s
    } else if target.contains(&r) {
        t
    } else {
        o
    };
    resized(b, sign * k)
}

/// The close calls of `visible` and `full_base` between two selections of a table
/// (see the module documentation).
///
/// # Errors
/// When the table's terrain cannot be modelled ([`TerrainSight::try_new`]) or a
/// selection is out of range.
pub fn sight_calls(
    table: &Table,
    spotter: Selection,
    target: Selection,
) -> Result<SightCalls, GeometryError> {
    let (sb, tb) = (members(table, spotter), members(table, target));
    let sigma = table.bases().filter_map(|(_, b)| base_sigma(b)).reduce(f64::max);
    // Growing and shrinking bases keeps their centres, and so the level each stands at:
    // a spotter or target base across a hill's edge changes level when it moves by its
    // level margin, which bounds the verdicts' margins (their levels decide them).
    let ground = crate::los::Ground::new(table);
    let level_margin = sb
        .iter()
        .chain(&tb)
        .filter_map(|&r| table.base(r))
        .filter_map(|b| ground.level_margin(b))
        .reduce(f64::min);
    let nudge_base = tb.first().copied();
    // Decided on the local table, which gives the whole table's verdict at every step
    // (see `local_table`), with its terrain prepared once (it never moves).
    let all: Vec<BaseRef> = sb.iter().chain(&tb).copied().collect();
    let local = LocalTable::around(table, None, &all);
    let (spotter, target) = (local.map_selection(spotter)?, local.map_selection(target)?);
    let (sb, tb) = (local.map_all(&sb), local.map_all(&tb));
    let all = local.map_all(&all);
    let mut narrowing = local.narrowing();
    let terrain = Arc::new(PreparedTerrain::try_new(&local.table)?);
    let (base, mut spare) = verdict(&local.table, &terrain, spotter, target, ModelSpare::default())?;
    let mut calls = Vec::with_capacity(2);
    for (holds, against) in [
        (base.visible, if base.visible { Against::Visible } else { Against::Hidden }),
        (
            base.full_base.is_some(),
            if base.full_base.is_some() { Against::FullBase } else { Against::NoFullBase },
        ),
    ] {
        // Each step on the local table narrowed to what can decide it at `k`.
        let flips = |k: f64| -> Result<bool, GeometryError> {
            local.narrow_moved(&all, k, |r, b| moved(r, b, &sb, &tb, against, k), &mut narrowing);
            let near = &narrowing.local;
            let (spotter, target) = (near.map_selection(spotter)?, near.map_selection(target)?);
            let v;
            (v, spare) = verdict(&near.table, &terrain, spotter, target, std::mem::take(&mut spare))?;
            let now = match against {
                Against::Visible | Against::Hidden => v.visible,
                Against::FullBase | Against::NoFullBase => v.full_base.is_some(),
            };
            Ok(now != holds)
        };
        let margin = flip_margin(flips)?;
        let margin = level_margin.map_or(margin, |l| margin.min(l));
        let call = CloseCall::perturbed(margin, sigma, nudge_base);
        calls.push(call);
    }
    Ok(SightCalls { visible: calls[0], full_base: calls[1] })
}
