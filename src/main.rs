//! The `vedette` command-line tool.

/// mimalloc rather than the system's malloc: the report's two threads allocate and free
/// millions of small vectors (BENCHMARKS.md, The whole command).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// This build's id, a hash of the workspace's sources (`build.rs`): handed to
/// `vedette-scanner`, which refuses to run for another build's `vedette`.
const BUILD_ID: &str = include_str!(concat!(env!("OUT_DIR"), "/build_id"));

fn main() -> std::process::ExitCode {
    small_pages();
    vedette::cli::main(BUILD_ID)
}

/// Asks Linux not to back this process's memory with transparent huge pages. mimalloc
/// asks for them, and the kernel then clears 2 MiB at a page's first touch: the report
/// on the 2,000-base sample touched about 55 MB that way (16 MB in 4 KiB pages) and
/// spent about twice the system time (BENCHMARKS.md, The whole command).
#[cfg(target_os = "linux")]
fn small_pages() {
    // SAFETY: PR_SET_THP_DISABLE takes plain integers and reads or writes no memory of
    // this process; its failure (an old kernel) only leaves huge pages allowed.
    unsafe {
        libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
    }
}

#[cfg(not(target_os = "linux"))]
fn small_pages() {}
