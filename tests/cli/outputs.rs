//! Outputs replace only regular files (issue 41 item 1): a named pipe, a device node, a
//! socket or a directory named as an output is refused with a message and left as it
//! was; `-o -` writes to standard output where a verb takes it; a write stopped by the
//! file-size limit leaves no `.NAME.partial-PID` behind.
//!
//! The device node is one this test makes (a copy of /dev/null's numbers, when the test
//! may make one); real device nodes are never touched.

use crate::common;

use common::{root, stderr, stdout, vedette};
use std::path::Path;
use std::process::Command;

/// The names in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

#[cfg(unix)]
fn file_type(p: &Path) -> std::fs::FileType {
    std::fs::symlink_metadata(p).unwrap().file_type()
}

/// Every verb that writes a table-derived file, with `out` as its output.
fn writers(out: &str) -> Vec<Vec<String>> {
    let sample = |s: &str| root().join("samples").join(s).display().to_string();
    let brigade = sample("brigade-attack.json");
    let photo = sample("photos/skirmish.jpg");
    let profile = root().join("calibration/default.toml").display().to_string();
    // A file beside `out` for the scans' table when `out` is another of their outputs.
    let elsewhere = format!("{out}.table.json");
    [
        vec!["generate", "--bases", "50", "-o", out],
        vec!["report", &brigade, "--plan", out],
        vec!["measure", &sample("skirmish.json"), "fr-1", "au-1", "--svg", out],
        vec!["los", &sample("woods-block.json"), "fr-art-1", "au-1", "--svg", out],
        vec!["explain", &brigade, "fr-art-1", "au-3", "--svg", out],
        // The scanner's writers refuse before reading a photo.
        vec!["scan", &photo, "--profile", &profile, "-o", out],
        vec!["scan", &photo, "--profile", &profile, "-o", &elsewhere, "--overlay", out],
        vec!["scan", &photo, "--profile", &profile, "-o", &elsewhere, "--report", out],
        vec![
            "calibrate-camera",
            &photo,
            &photo,
            &photo,
            "--chessboard",
            "9x6",
            "--square-mm",
            "25",
            "-o",
            out,
        ],
    ]
    .into_iter()
    .map(|v| v.into_iter().map(str::to_string).collect())
    .collect()
}

fn run(args: &[String]) -> std::process::Output {
    vedette(&args.iter().map(String::as_str).collect::<Vec<_>>())
}

#[cfg(unix)]
#[test]
fn a_named_pipe_or_a_device_node_is_refused_and_left_alone() {
    use std::os::unix::fs::FileTypeExt;
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("pipe");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success(), "mkfifo");
    // A device node of our own, when this process may make one (root in a sandbox).
    let dev = dir.path().join("null-like");
    let have_dev = Command::new("mknod")
        .arg(&dev)
        .args(["c", "1", "3"])
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !have_dev {
        eprintln!("SKIPPED the device-node half: mknod is not allowed here");
    }
    let mut targets = vec![(fifo.clone(), "a named pipe (FIFO)")];
    if have_dev {
        targets.push((dev.clone(), "a character device"));
    }
    for (target, kind) in &targets {
        for args in writers(target.to_str().unwrap()) {
            let o = run(&args);
            assert_eq!(o.status.code(), Some(1), "{args:?}: {}", stderr(&o));
            assert!(
                stderr(&o).contains(&format!("it is {kind}, not a regular file")),
                "{args:?}: {}",
                stderr(&o)
            );
        }
    }
    assert!(file_type(&fifo).is_fifo(), "the pipe is still a pipe");
    if have_dev {
        assert!(file_type(&dev).is_char_device(), "the device is still a device");
    }
    let mut want = vec!["pipe".to_string()];
    if have_dev {
        want.push("null-like".to_string());
    }
    want.sort();
    assert_eq!(names(dir.path()), want, "nothing left beside them");
}

#[cfg(unix)]
#[test]
fn a_directory_or_a_socket_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let sub = dir.path().join("plans");
    std::fs::create_dir(&sub).unwrap();
    let sock = dir.path().join("server.sock");
    let _listener = std::os::unix::net::UnixListener::bind(&sock).unwrap();
    for (target, kind) in [(&sub, "a directory"), (&sock, "a socket")] {
        for args in writers(target.to_str().unwrap()) {
            let o = run(&args);
            assert_eq!(o.status.code(), Some(1), "{args:?}: {}", stderr(&o));
            assert!(stderr(&o).contains(&format!("it is {kind}")), "{args:?}: {}", stderr(&o));
        }
    }
    assert!(sub.is_dir() && names(&sub).is_empty());
    assert_eq!(names(dir.path()), ["plans", "server.sock"]);
}

#[test]
fn dash_is_standard_output_where_a_verb_takes_it_and_refused_elsewhere() {
    // `generate -o -`: the table alone on standard output.
    let o = vedette(&["generate", "--bases", "50", "--seed", "3", "-o", "-"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("t.json");
    let w = vedette(&["generate", "--bases", "50", "--seed", "3", "-o", file.to_str().unwrap()]);
    assert!(w.status.success(), "{}", stderr(&w));
    assert_eq!(stdout(&o), std::fs::read_to_string(&file).unwrap(), "the same table");
    // Where standard output carries the verb's own text, `-` is refused, not a file.
    let brigade = root().join("samples/brigade-attack.json");
    let o = vedette(&["report", brigade.to_str().unwrap(), "--plan", "-"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("--plan -: standard output carries"), "{}", stderr(&o));
    assert!(!root().join("-").exists());
}

/// Issue 41 item 1: a write stopped by the file-size limit used to be killed by SIGXFSZ
/// and leave `.NAME.partial-PID`; it now fails with a message and leaves nothing.
#[cfg(unix)]
#[test]
fn a_write_past_the_file_size_limit_fails_cleanly() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("big.json");
    // One block of file size: the 400 KB table cannot be written.
    let o = Command::new("sh")
        .arg("-c")
        .arg("ulimit -f 1 && exec \"$0\" \"$@\"")
        .arg(env!("CARGO_BIN_EXE_vedette"))
        .args(["generate", "--bases", "2000", "-o", out.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1), "killed by a signal? {:?} {}", o.status, stderr(&o));
    assert!(stderr(&o).contains("big.json") && stderr(&o).contains("File too large"), "{}", stderr(&o));
    assert!(names(dir.path()).is_empty(), "left behind: {:?}", names(dir.path()));
}
