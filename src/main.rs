//! The `vedette` command-line tool.

fn main() -> std::process::ExitCode {
    vedette::cli::main()
}
