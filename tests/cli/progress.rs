//! Progress on stderr (issue 21 item 5): a command that works for more than a moment
//! shows a spinner on a terminal, and nothing at all when stderr is not a terminal (a
//! pipe, a file, CI). A 3,000-base report takes a few seconds in a test build.

use crate::common;
use std::process::Command;

fn big_table(dir: &std::path::Path) -> std::path::PathBuf {
    let path = dir.join("big.json");
    let o = common::vedette(&["generate", "--bases", "3000", "-o", path.to_str().unwrap()]);
    assert!(o.status.success(), "{}", common::stderr(&o));
    path
}

#[test]
fn a_long_report_shows_a_spinner_on_a_terminal_and_nothing_in_a_pipe() {
    let dir = tempfile::tempdir().unwrap();
    let table = big_table(dir.path());
    // A pipe: stderr stays empty.
    let o = common::vedette(&["report", table.to_str().unwrap(), "--json"]);
    assert!(o.status.success());
    assert_eq!(common::stderr(&o), "", "no progress drawn into a pipe");
    // A terminal (util-linux `script` gives the command a pseudo-terminal): the spinner
    // shows, and the JSON on stdout is whole.
    if Command::new("script").arg("--version").output().is_err() {
        eprintln!("skipped the terminal half: `script` is not installed");
        return;
    }
    let out = dir.path().join("report.json");
    let log = dir.path().join("tty.log");
    let line =
        format!("{} report {} --json > {}", env!("CARGO_BIN_EXE_vedette"), table.display(), out.display());
    let o = Command::new("script").args(["-q", "-e", "-c", &line]).arg(&log).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let tty = std::fs::read_to_string(&log).unwrap_or_default() + &String::from_utf8_lossy(&o.stdout);
    assert!(tty.contains("reporting ("), "the spinner on the terminal: {tty:?}");
    let json: serde_json::Value = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
    assert_eq!(json["schema"], "vedette/report/1");
}
