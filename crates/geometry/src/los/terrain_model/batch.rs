//! Verdicts for bases and units, one at a time or many pairs shared out over the
//! cores, and the [`LineOfSight`] trait for the model.

use super::sweep_cache::SweepPart;
use super::views::UnitView;
use super::{BaseVerdict, PAIRS_PER_RUN, Proof, TerrainSight, UnitVerdict, lock};
use crate::los::LineOfSight;
use crate::los::crew::Crew;
use crate::sight::FullVisibility;
use crate::table::{BaseRef, Table};
use crate::vec2::Vec2;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};

impl<'i, 't> TerrainSight<'i, 't> {
    /// The verdict for one spotter base and one target base, the spotter seeing from its
    /// rule set's eye.
    #[must_use]
    pub fn base_verdict(&self, spotter: BaseRef, target: BaseRef) -> Option<BaseVerdict> {
        let sb = self.table.base(spotter)?;
        let eye = self.eye_of(sb);
        let p = self.pair(spotter, &eye, target)?;
        Some(self.decide(&p, true))
    }

    /// The verdict for a spotter unit and a target unit: visible when some base sees some
    /// base; a full base when some spotter base sees all of some target base.
    #[must_use]
    pub fn unit_verdict(&self, spotter: usize, target: usize) -> UnitVerdict {
        self.spotter(spotter).unit_verdict(target)
    }

    /// The verdicts for many (spotter unit, target unit) pairs, in their order, as
    /// [`Self::unit_verdict`] gives them: one [`Self::spotter`] view per distinct
    /// spotter, shared by all its pairs. The machine's cores (`threads`: how many at
    /// most; 0 for as many as it has) prepare what the sweeps use, then the views, then
    /// answer the pairs in small runs (so that no core idles at the end), with no pause
    /// between the phases: a pair waits only for its own spotter's view
    /// (the crew of `los/crew.rs`). The answers do not depend on the number of threads.
    #[must_use]
    pub fn unit_verdicts(&self, pairs: &[(usize, usize)], threads: usize) -> Vec<UnitVerdict> {
        let mut spotters: Vec<usize> = Vec::new();
        // Per unit, its spotter's place in `spotters` (a unit index past the table's
        // units has none, and is answered as `unit_verdict` answers it).
        let mut slot: Vec<Option<usize>> = vec![None; self.table.units.len()];
        for &(a, _) in pairs {
            if let Some(s) = slot.get_mut(a)
                && s.is_none()
            {
                spotters.push(a);
                *s = Some(spotters.len() - 1);
            }
        }
        let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
        let workers = if threads == 0 { cores } else { threads };
        let n_units = self.table.units.len();
        // What every view's sweep uses, built first on every core (else the first view
        // builds it while the other cores wait): item 0 is the table-wide part (where
        // the units lie, the covers' kernels and cores: the longest, taken first), item
        // `u + 1` unit `u`'s; whoever finishes the last item puts them together.
        let build = self.proof != Proof::Exhaustive && self.sweep_cache.get().is_none();
        let (next_part, parts_done) = (AtomicUsize::new(0), AtomicUsize::new(0));
        let parts: Mutex<Vec<(usize, SweepPart)>> = Mutex::new(Vec::new());
        // One view per spotter, made by whoever takes it, waited for by whoever needs it.
        let next_view = AtomicUsize::new(0);
        let views: Vec<OnceLock<UnitView<'_, 'i, 't>>> = spotters.iter().map(|_| OnceLock::new()).collect();
        // The pairs shared out in runs of a few: most are settled at once (the sweep hid
        // the target) and left unseen; the others, whose costs differ a thousandfold,
        // are searched. Short runs keep the cores busy to the end.
        let next_run = AtomicUsize::new(0);
        let runs = pairs.len().div_ceil(PAIRS_PER_RUN);
        // The answers, every pair unseen, made by the first worker done with the views.
        let (unseen_taken, unseen) = (AtomicBool::new(false), OnceLock::new());
        let found = Crew::run(workers, |crew| {
            if build {
                let mut mine = Vec::new();
                Crew::take(&next_part, n_units + 1, |k| {
                    mine.push(match k.checked_sub(1) {
                        Some(u) => (k, SweepPart::Unit(self.unit_sweep_part(u))),
                        None => (k, SweepPart::Table(self.table_sweep_part())),
                    });
                });
                let count = mine.len();
                lock(&parts).extend(mine);
                // Exactly one worker puts them together: the one whose parts complete the
                // set. A worker that took no part must not (when it comes last it would
                // find the count complete and the parts already taken, and could set
                // occluders without any unit's blocks first).
                if count > 0 && parts_done.fetch_add(count, Ordering::AcqRel) + count == n_units + 1 {
                    let mut all = std::mem::take(&mut *lock(&parts));
                    all.sort_unstable_by_key(|(k, _)| *k);
                    let (mut units, mut table) = (Vec::with_capacity(n_units), None);
                    for (_, part) in all {
                        match part {
                            SweepPart::Unit(u) => units.push(u),
                            SweepPart::Table(t) => table = Some(t),
                        }
                    }
                    let table = table.unwrap_or_else(|| self.table_sweep_part());
                    self.sweep_cache.get_or_init(|| self.sweep_cache_of(units, table));
                } else if crew.wait(&self.sweep_cache).is_none() {
                    return Vec::new();
                }
            }
            Crew::take(&next_view, spotters.len(), |k| {
                // Only this worker took item k.
                let _ = views[k].set(self.spotter(spotters[k]));
            });
            if !unseen_taken.swap(true, Ordering::AcqRel) {
                let _ = unseen.set(vec![UnitVerdict::unseen(); pairs.len()]);
            }
            let mut mine = Vec::new();
            Crew::take(&next_run, runs, |r| {
                for (i, &(a, b)) in pairs.iter().enumerate().skip(r * PAIRS_PER_RUN).take(PAIRS_PER_RUN) {
                    let verdict = match slot.get(a) {
                        Some(&Some(k)) => {
                            // Made by another worker if not yet made; none if that one
                            // panicked (and the crew raises the panic).
                            let Some(view) = crew.wait(&views[k]) else { return };
                            if view.settled_at_once(b) {
                                continue;
                            }
                            view.unit_verdict(b)
                        }
                        _ => self.unit_verdict(a, b),
                    };
                    mine.push((i, verdict));
                }
            });
            mine
        });
        // Every pair unseen, then the answers of those searched.
        let mut out = unseen.into_inner().unwrap_or_else(|| vec![UnitVerdict::unseen(); pairs.len()]);
        for (i, v) in found.into_iter().flatten() {
            out[i] = v;
        }
        out
    }
}

impl LineOfSight for TerrainSight<'_, '_> {
    /// Whether every point of `target` is seen from some point of `eye`, with units,
    /// terrain, levels and the rule set's limits. The spotter base is the base of unit
    /// `spotter` nearest the eye (for spotting depth and levels).
    fn full_base_visible(
        &self,
        table: &Table,
        spotter: usize,
        eye: &[Vec2],
        target: BaseRef,
    ) -> FullVisibility {
        let Some(tb) = table.base(target) else { return FullVisibility::Visible };
        let Some(unit) = table.units.get(spotter) else {
            return FullVisibility::Hidden { witness: tb.centre() };
        };
        let c = eye.iter().fold(Vec2::ZERO, |a, &q| a + q) / eye.len().max(1) as f64;
        let Some(si) = (0..unit.bases.len()).min_by(|&a, &b| {
            unit.bases[a].distance_to_point(c).total_cmp(&unit.bases[b].distance_to_point(c))
        }) else {
            return FullVisibility::Hidden { witness: tb.centre() };
        };
        // No chain test first: a chain of solid pieces hides the target from the blockers
        // alone, which the exact tests of `decide_full` find as cheaply.
        match self.pair(BaseRef::new(spotter, si), eye, target) {
            Some(p) => self.decide_full(&p).0,
            None => FullVisibility::Hidden { witness: tb.centre() },
        }
    }
}
