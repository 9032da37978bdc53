//! The `vedette` command-line tool.

/// mimalloc rather than the system's malloc: the report's two threads allocate and free
/// millions of small vectors (BENCHMARKS.md, The whole command).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    vedette::cli::main()
}
