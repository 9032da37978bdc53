//! Progress on stderr (issue 21 item 5): a spinner with the elapsed time while a
//! command works, drawn only when stderr is a terminal and only once the work has run
//! for [`SHOW_AFTER`] (a quick command draws nothing), cleared when the work ends so
//! that what the command prints next starts on a clean line.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::time::Duration;

/// How long work runs before its spinner shows.
pub const SHOW_AFTER: Duration = Duration::from_millis(800);

/// Runs `work`, showing `message` with a spinner on stderr while it runs (see the
/// module documentation).
pub fn working<T>(message: impl Into<String>, work: impl FnOnce() -> T) -> T {
    if !std::io::stderr().is_terminal() {
        return work();
    }
    let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template("{spinner} {msg} ({elapsed})") {
        bar.set_style(style);
    }
    bar.set_message(message.into());
    let shown = bar.clone();
    let (done, wait) = std::sync::mpsc::channel::<()>();
    // The spinner starts ticking only if the work is still running after SHOW_AFTER.
    let starter = std::thread::spawn(move || {
        if wait.recv_timeout(SHOW_AFTER).is_err() {
            shown.enable_steady_tick(Duration::from_millis(120));
        }
    });
    let out = work();
    let _ = done.send(());
    let _ = starter.join();
    bar.finish_and_clear();
    out
}
