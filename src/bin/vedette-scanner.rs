//! `vedette-scanner`: every verb of `vedette`, the photo verbs (which need OpenCV)
//! included. `vedette` hands `scan`, `fiducials`, `sheet` and `calibrate-camera` to this
//! binary so that its other verbs start without loading OpenCV.

/// mimalloc rather than the system's malloc: the report's two threads allocate and free
/// millions of small vectors (BENCHMARKS.md, The whole command).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    vedette::cli::main_scanner()
}
