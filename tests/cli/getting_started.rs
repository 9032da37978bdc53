//! Issue 39 item 4: docs/getting-started.md is followed as written. Every ```sh block
//! of the guide is run, in order, from an empty directory holding only the bundled
//! sample photo (samples/photos/skirmish.jpg, copied as photo.jpg), each ```text FILE
//! block written to FILE first; every command must succeed, and the scan must produce
//! the sample's table.

use crate::common;

use common::root;
use std::path::Path;
use std::process::Command;

/// A step of the guide: a file to write, or a command line to run.
#[derive(Debug)]
enum Step {
    Write(String, String),
    Run(Vec<String>),
}

/// The guide's steps, in order.
fn steps(guide: &str) -> Vec<Step> {
    let mut steps = Vec::new();
    let mut lines = guide.lines();
    while let Some(line) = lines.next() {
        let Some(info) = line.strip_prefix("```") else { continue };
        let mut words = info.split_whitespace();
        let (kind, file) = (words.next().unwrap_or(""), words.next());
        let body: Vec<&str> = lines.by_ref().take_while(|l| !l.starts_with("```")).collect();
        match (kind, file) {
            ("text", Some(f)) => steps.push(Step::Write(f.to_string(), body.join("\n") + "\n")),
            ("sh", _) => {
                let mut command = String::new();
                for l in body {
                    let l = l.split(" #").next().unwrap_or("").trim_end();
                    if let Some(more) = l.strip_suffix('\\') {
                        command.push_str(more);
                        continue;
                    }
                    command.push_str(l);
                    let words: Vec<String> = command.split_whitespace().map(str::to_string).collect();
                    if !words.is_empty() && !words[0].starts_with('#') {
                        steps.push(Step::Run(words));
                    }
                    command.clear();
                }
            }
            _ => {}
        }
    }
    steps
}

#[test]
fn the_getting_started_guide_runs_as_written_on_the_sample_photo() {
    let guide = std::fs::read_to_string(root().join("docs/getting-started.md")).unwrap();
    let steps = steps(&guide);
    assert!(steps.len() >= 6, "{steps:?}");
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(root().join("samples/photos/skirmish.jpg"), dir.path().join("photo.jpg")).unwrap();
    let mut ran = Vec::new();
    for step in &steps {
        match step {
            Step::Write(file, text) => std::fs::write(dir.path().join(file), text).unwrap(),
            Step::Run(words) => {
                assert_eq!(words[0], "vedette", "the guide runs vedette only: {words:?}");
                let o = Command::new(env!("CARGO_BIN_EXE_vedette"))
                    .args(&words[1..])
                    .current_dir(dir.path())
                    .output()
                    .unwrap();
                assert!(
                    o.status.success(),
                    "`{}` failed:\n{}{}",
                    words.join(" "),
                    String::from_utf8_lossy(&o.stdout),
                    String::from_utf8_lossy(&o.stderr)
                );
                ran.push(words[1].clone());
            }
        }
    }
    for verb in ["init", "sheet", "fiducials", "scan", "report"] {
        assert!(ran.iter().any(|v| v == verb), "the guide runs `vedette {verb}`: {ran:?}");
    }
    // The scanned table is the sample's: every unit, every base, each within its
    // uncertainty of the truth.
    let table = vedette_geometry::Table::load(dir.path().join("table.json")).unwrap();
    let truth = vedette_geometry::Table::load(root().join("samples/photos/skirmish.table.json")).unwrap();
    assert_eq!(table.units.len(), truth.units.len());
    assert_eq!(table.base_count(), truth.base_count());
    for (r, b) in table.bases() {
        let t = truth.unit(&table.units[r.unit].id).and_then(|u| u.bases.get(r.base)).unwrap();
        let sigma = b.meta().sigma_mm.unwrap();
        assert!(
            b.centre().distance(t.centre()) < 3.0 * sigma + 0.2,
            "{} #{}",
            table.units[r.unit].id,
            r.base
        );
    }
    for f in
        ["my-table.toml", "my-army.toml", "sheets/tags-1.png", "sheets/check.png", "found.jpg", "scanned.jpg"]
    {
        assert!(Path::new(&dir.path().join(f)).is_file(), "{f}");
    }
    // Each tag is labelled with the base it goes on.
    let svg = std::fs::read_to_string(dir.path().join("sheets/tags-1.svg")).unwrap();
    for label in [">fr-1#0</text>", ">tag 10</text>", ">gb-cav#1</text>", ">tag 26</text>"] {
        assert!(svg.contains(label), "{label}");
    }
}
