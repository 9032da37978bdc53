//! Work shared among the machine's cores for one batch of questions
//! ([`super::TerrainSight::unit_verdicts`]).
//!
//! The calling thread and `workers - 1` more run the same work at once, each taking the
//! next item from shared counters until none is left, phase after phase. No thread is
//! started or joined between phases: a phase that needs what an earlier one makes waits
//! for that one thing ([`Crew::wait`]), not for the whole phase. Starting and joining
//! threads per phase cost about 0.1 ms a phase on the benchmark machine (a thread starts
//! 30-100 µs after it is asked for), a few per cent of a batch.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// The workers of one batch.
pub(crate) struct Crew {
    /// Set when a worker panics: the others stop waiting for what it would have made.
    failed: AtomicBool,
}

/// Sets the crew's flag if the worker holding it unwinds.
struct FailOnPanic<'a>(&'a AtomicBool);

impl Drop for FailOnPanic<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.store(true, Ordering::Release);
        }
    }
}

impl Crew {
    /// Runs `work` on `workers` threads at once, the calling thread one of them, and
    /// returns what each returned, the calling thread's first. A panic in any worker is
    /// raised again here once all have stopped.
    pub(crate) fn run<R: Send>(workers: usize, work: impl Fn(&Crew) -> R + Sync) -> Vec<R> {
        let crew = Crew { failed: AtomicBool::new(false) };
        let work = |crew: &Crew| {
            let _flag = FailOnPanic(&crew.failed);
            work(crew)
        };
        if workers <= 1 {
            return vec![work(&crew)];
        }
        std::thread::scope(|scope| {
            let helpers: Vec<_> = (1..workers).map(|_| scope.spawn(|| work(&crew))).collect();
            let mut out = vec![work(&crew)];
            for h in helpers {
                out.push(h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)));
            }
            out
        })
    }

    /// `f` of each of `0..count`, in order, the items shared among `threads` workers (0:
    /// one per core), each taking the next item in turn.
    pub(crate) fn map<R: Send>(threads: usize, count: usize, f: impl Fn(usize) -> R + Sync) -> Vec<R> {
        let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
        let workers = if threads == 0 { cores } else { threads };
        let next = AtomicUsize::new(0);
        let done = Crew::run(workers.min(count).max(1), |_| {
            let mut mine = Vec::new();
            Crew::take(&next, count, |i| mine.push((i, f(i))));
            mine
        });
        let mut all: Vec<(usize, R)> = done.into_iter().flatten().collect();
        all.sort_by_key(|(i, _)| *i);
        all.into_iter().map(|(_, r)| r).collect()
    }

    /// Runs `f` on each item this worker takes from `next` (shared by the crew), one
    /// at a time, until all `count` are taken.
    pub(crate) fn take(next: &AtomicUsize, count: usize, mut f: impl FnMut(usize)) {
        loop {
            let k = next.fetch_add(1, Ordering::Relaxed);
            if k >= count {
                return;
            }
            f(k);
        }
    }

    /// What `cell` holds once some worker has set it; `None` if a worker panicked
    /// (what it was making may never come).
    pub(crate) fn wait<'a, T>(&self, cell: &'a OnceLock<T>) -> Option<&'a T> {
        loop {
            if let Some(v) = cell.get() {
                return Some(v);
            }
            if self.failed.load(Ordering::Acquire) {
                return None;
            }
            std::thread::yield_now();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_item_is_taken_once_whatever_the_number_of_workers() {
        for workers in [1, 2, 3, 8] {
            let next = AtomicUsize::new(0);
            let mut got: Vec<usize> = Crew::run(workers, |_| {
                let mut mine = Vec::new();
                Crew::take(&next, 1000, |k| mine.push(k));
                mine
            })
            .into_iter()
            .flatten()
            .collect();
            got.sort_unstable();
            assert_eq!(got, (0..1000).collect::<Vec<_>>(), "{workers} workers");
        }
    }

    #[test]
    fn a_worker_waits_for_what_another_makes() {
        let cell = OnceLock::new();
        let next = AtomicUsize::new(0);
        let out = Crew::run(2, |crew| {
            // Whoever takes the item makes the value; both then read it.
            Crew::take(&next, 1, |_| {
                let _ = cell.set(42);
            });
            crew.wait(&cell).copied()
        });
        assert_eq!(out, vec![Some(42), Some(42)]);
    }

    #[test]
    fn a_panic_in_one_worker_stops_the_others_waiting_and_is_raised() {
        let cell: OnceLock<u32> = OnceLock::new();
        let next = AtomicUsize::new(0);
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            Crew::run(2, |crew| {
                // The worker taking the item panics before it sets the cell.
                Crew::take(&next, 1, |_| panic!("no value"));
                crew.wait(&cell).copied()
            })
        }));
        assert!(r.is_err());
        assert!(cell.get().is_none());
    }
}
