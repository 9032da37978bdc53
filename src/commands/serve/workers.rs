//! Rule work off the server's own thread, with a time budget per request (issue 41
//! item 4): a report, a line of sight, a measurement, a correction's recompute run on
//! worker threads, at most [`Workers::slots`] at once. A request that cannot start
//! within its budget is answered 503, one whose work outlasts it 504, each with a
//! message; the work it started runs on to its end holding its slot (a thread cannot be
//! stopped halfway), so abandoned work never takes more than the slots, and a change it
//! was making is dropped rather than kept ([`Ticket::keep`]).
//!
//! Reading requests (`GET /api/bases`, `/api/report`, ...) take no slot: they are
//! answered from the last snapshot, whatever the workers are doing.

use super::routes::Refusal;
use axum::http::StatusCode;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::Semaphore;

/// The default budget of a request, seconds: far above what the 2,000-base grand
/// battle needs (tens of milliseconds, BENCHMARKS.md), well below a user's patience.
pub const DEFAULT_BUDGET_S: f64 = 30.0;

/// The worker threads and the budget of each request.
#[derive(Debug)]
pub struct Workers {
    /// One permit per worker slot.
    slots: Arc<Semaphore>,
    /// How many slots there are.
    count: usize,
    /// How long a request may take.
    budget: Duration,
}

/// Whether a request still wants its work's result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fate {
    /// The request waits.
    Waiting,
    /// The request was answered without it (over budget).
    GivenUp,
    /// The work kept its change.
    Kept,
}

/// What a job is given: lets it keep a change only while its request still waits.
#[derive(Debug, Clone)]
pub struct Ticket(Arc<Mutex<Fate>>);

impl Ticket {
    fn new() -> Ticket {
        Ticket(Arc::new(Mutex::new(Fate::Waiting)))
    }

    /// Runs `keep` (the change made visible: a file written, a snapshot swapped) if the
    /// request still waits for it, and tells it so; `None`, and nothing done, when the
    /// request was answered without it. The request cannot give up while `keep` runs.
    pub fn keep<T>(&self, keep: impl FnOnce() -> T) -> Option<T> {
        let mut fate = super::routes::relock(&self.0);
        if *fate == Fate::GivenUp {
            return None;
        }
        let kept = keep();
        *fate = Fate::Kept;
        Some(kept)
    }

    /// Gives up the work's result; `false` when the work has already kept its change.
    fn give_up(&self) -> bool {
        let mut fate = super::routes::relock(&self.0);
        if *fate == Fate::Kept {
            return false;
        }
        *fate = Fate::GivenUp;
        true
    }
}

impl Workers {
    /// `slots` workers (at least one), each request given `budget`.
    #[must_use]
    pub fn new(slots: usize, budget: Duration) -> Workers {
        let count = slots.max(1);
        Workers { slots: Arc::new(Semaphore::new(count)), count, budget }
    }

    /// As many workers as the machine has cores (two at least, eight at most).
    #[must_use]
    pub fn for_this_machine(budget: Duration) -> Workers {
        let cores = std::thread::available_parallelism().map_or(2, std::num::NonZero::get);
        Workers::new(cores.clamp(2, 8), budget)
    }

    /// How many jobs run at most at once.
    #[must_use]
    pub fn slots(&self) -> usize {
        self.count
    }

    /// The budget of each request.
    #[must_use]
    pub fn budget(&self) -> Duration {
        self.budget
    }

    /// When a request started at `start` must be answered.
    #[must_use]
    pub fn deadline(&self, start: Instant) -> tokio::time::Instant {
        tokio::time::Instant::from_std(start + self.budget)
    }

    /// Runs `job` on a worker, for a request that must be answered by `deadline`
    /// ([`Workers::deadline`]). 503 when no worker frees up in time, 504 when the job
    /// outlasts it (the job runs on, and its [`Ticket::keep`] does nothing), 500 when it
    /// panics.
    pub async fn run<T, F>(&self, deadline: tokio::time::Instant, job: F) -> Result<T, Refusal>
    where
        T: Send + 'static,
        F: FnOnce(&Ticket) -> T + Send + 'static,
    {
        let Ok(Ok(permit)) = tokio::time::timeout_at(deadline, Arc::clone(&self.slots).acquire_owned()).await
        else {
            return Err(self.busy("earlier requests still hold every worker"));
        };
        let ticket = Ticket::new();
        let for_job = ticket.clone();
        let handle = tokio::task::spawn_blocking(move || {
            let _slot = permit;
            job(&for_job)
        });
        tokio::pin!(handle);
        let joined = match tokio::time::timeout_at(deadline, &mut handle).await {
            Ok(joined) => joined,
            // Kept just now: the answer is on its way.
            Err(_) if !ticket.give_up() => handle.await,
            Err(_) => {
                return Err(Refusal(
                    StatusCode::GATEWAY_TIMEOUT,
                    format!(
                        "this took longer than the server's {} budget per request (--time-budget) and was given up; nothing was changed",
                        seconds(self.budget)
                    ),
                ));
            }
        };
        joined.map_err(|e| {
            Refusal(
                StatusCode::INTERNAL_SERVER_ERROR,
                format!("the computation failed (a bug: please report it): {e}"),
            )
        })
    }

    /// 503: `why`, and the budget waited.
    #[must_use]
    pub fn busy(&self, why: &str) -> Refusal {
        Refusal(
            StatusCode::SERVICE_UNAVAILABLE,
            format!(
                "the server is busy ({why}) and could not start this within its {} budget per request: try again in a moment",
                seconds(self.budget)
            ),
        )
    }
}

/// A duration in words: `30 s`, `0.5 s`.
fn seconds(d: Duration) -> String {
    format!("{} s", d.as_secs_f64())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn runtime() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_current_thread().enable_time().build().unwrap()
    }

    #[test]
    fn work_over_budget_is_given_up_and_keeps_nothing() {
        let rt = runtime();
        let workers = Workers::new(1, Duration::from_millis(100));
        let kept = Arc::new(Mutex::new(0));
        let k = Arc::clone(&kept);
        let (tx, rx) = std::sync::mpsc::channel();
        let answer = rt.block_on(workers.run(workers.deadline(Instant::now()), move |ticket| {
            std::thread::sleep(Duration::from_millis(400));
            let _ = tx.send(ticket.keep(|| *super::super::routes::relock(&k) += 1));
        }));
        let Err(Refusal(status, message)) = answer else { panic!("answered though over budget") };
        assert_eq!(status, StatusCode::GATEWAY_TIMEOUT);
        assert!(message.contains("0.1 s budget") && message.contains("nothing was changed"), "{message}");
        // The job ran on, and was not let keep its change.
        assert_eq!(rx.recv_timeout(Duration::from_secs(10)).unwrap(), None);
        assert_eq!(*kept.lock().unwrap(), 0);
    }

    #[test]
    fn abandoned_work_holds_its_slot_so_it_cannot_pile_up() {
        let rt = runtime();
        let workers = Workers::new(2, Duration::from_millis(50));
        let running = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let most = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let mut refused = Vec::new();
        for _ in 0..10 {
            let (r, m) = (Arc::clone(&running), Arc::clone(&most));
            let answer = rt.block_on(workers.run(workers.deadline(Instant::now()), move |_| {
                let now = r.fetch_add(1, std::sync::atomic::Ordering::SeqCst) + 1;
                m.fetch_max(now, std::sync::atomic::Ordering::SeqCst);
                std::thread::sleep(Duration::from_millis(1000));
                r.fetch_sub(1, std::sync::atomic::Ordering::SeqCst);
            }));
            refused.push(answer.unwrap_err().0);
        }
        // Two were started and given up; the others found both workers still busy.
        assert_eq!(refused.iter().filter(|s| **s == StatusCode::GATEWAY_TIMEOUT).count(), 2, "{refused:?}");
        assert_eq!(
            refused.iter().filter(|s| **s == StatusCode::SERVICE_UNAVAILABLE).count(),
            8,
            "{refused:?}"
        );
        // (10 requests of 50 ms: all over before the first job ends.)
        std::thread::sleep(Duration::from_millis(1000));
        assert!(most.load(std::sync::atomic::Ordering::SeqCst) <= 2);
        // Once they end, work runs again.
        assert_eq!(rt.block_on(workers.run(workers.deadline(Instant::now()), |_| 7)).ok(), Some(7));
    }
}
