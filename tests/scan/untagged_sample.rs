//! Issue 37, "Done when": the bundled untagged sample (`samples/photos/untagged.jpg`,
//! rendered by vedette-synth: 35 bases in 12 units, tags on `fr-1` only; its roster and
//! true table beside it) scanned as `scripts/demo` scans it, and the report's findings on
//! the scanned table compared with the same findings on the true table.
//!
//! A finding is one sentence of the report as the viewer lists it
//! ([`vedette::commands::report::sentences`]), keyed as the plan keys its drawing
//! (`artillery/fr-art`, `assault/A/B`, ...); two findings agree when their sentences say
//! the same with the measured numbers (decimals) left out: the same verdicts, names,
//! brackets and counts. A finding of the scanned table that is a close call (its margin
//! within two sigma of the scan's uncertainty, each fitted base's `sigma_mm` and
//! `sigma_heading_deg` included) is excused.
//!
//! Outside close calls the findings agree: the roster declares each unit's coat (as a
//! player would from the paint chart), which decides between units of one layout. The
//! bases themselves are not all right (BENCHMARKS.md "Untagged bases"; docs/roster.md):
//! 32 of 35 within 5 mm and 5°, one unit slid (none of its 3 bases within 2.45
//! sigma), and the test holds that too. It says what holds
//! (the tagged unit to a fraction of a millimetre, every
//! unit placed or reported missing, the bases right and the findings that agree counted,
//! every finding that differs listed with its cause) and fails when any of it changes.

use crate::common;

use common::{root, vedette};
use std::collections::{BTreeMap, BTreeSet};
use vedette::commands::report::build;
use vedette::commands::report::sentences::sentences;
use vedette_geometry::Table;

/// The findings of `t`: key to (sentence without its decimals, close call).
fn findings(t: &Table) -> BTreeMap<String, (String, bool)> {
    let report = build(t).unwrap_or_else(|e| panic!("{e}"));
    let mut out = BTreeMap::new();
    for s in sentences(&report) {
        let mut key = s.key.clone();
        let mut n = 1;
        while out.contains_key(&key) {
            n += 1;
            key = format!("{} ({n})", s.key);
        }
        out.insert(key, (without_decimals(&s.text), s.close_call));
    }
    out
}

/// `text` with every decimal number (a measured value: `5.51"`, `12.3 mm`) replaced by
/// `#`; whole numbers (brackets, counts) stay.
fn without_decimals(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        if chars[i].is_ascii_digit()
            || (chars[i] == '-' && chars.get(i + 1).is_some_and(char::is_ascii_digit))
        {
            let start = i;
            i += 1;
            while i < chars.len() && (chars[i].is_ascii_digit() || chars[i] == '.') {
                i += 1;
            }
            let number: String = chars[start..i].iter().collect();
            let number = number.trim_end_matches('.');
            if number.contains('.') {
                out.push('#');
            } else {
                out.push_str(number);
            }
            out.extend(&chars[start + number.chars().count()..i]);
            continue;
        }
        out.push(chars[i]);
        i += 1;
    }
    out
}

#[test]
fn without_decimals_keeps_whole_numbers() {
    assert_eq!(without_decimals("5.51\" (bracket 3), -0.20 mm, 2 bases."), "#\" (bracket 3), # mm, 2 bases.");
}

/// How the findings of the scanned table compare with the truth's.
#[derive(Debug, Default)]
struct Comparison {
    /// Keys whose sentences agree.
    agree: BTreeSet<String>,
    /// Keys that differ, or are on one table only, but are close calls on the scanned
    /// table: excused.
    close: BTreeSet<String>,
    /// Keys that differ outside close calls: (key, the scanned sentence, the truth's).
    differ: BTreeMap<String, (Option<String>, Option<String>)>,
}

fn compare(scanned: &Table, truth: &Table) -> Comparison {
    let (s, t) = (findings(scanned), findings(truth));
    let mut c = Comparison::default();
    for key in s.keys().chain(t.keys()).collect::<BTreeSet<_>>() {
        match (s.get(key), t.get(key)) {
            (Some(a), Some(b)) if a.0 == b.0 => {
                c.agree.insert(key.clone());
            }
            (Some((scanned, true)), truth) => {
                eprintln!(
                    "close call {key}\n    scanned: {scanned}\n    true:    {}",
                    truth.map_or("-", |x| x.0.as_str())
                );
                c.close.insert(key.clone());
            }
            (a, b) => {
                c.differ.insert(key.clone(), (a.map(|x| x.0.clone()), b.map(|x| x.0.clone())));
            }
        }
    }
    c
}

/// The findings that differ today outside close calls, each with its cause: none. The
/// scan (2026-11-29: the rigid-template fitter of `crates/vision/src/fitting/`, with the
/// coats the roster declares deciding between units of one layout and edges that are a
/// shadow's rather than a base's counting for little) places all 12 units, each on its
/// own bases: fr-1 from its tags (0.0 mm); au-1, au-2, fr-2, fr-3, fr-cav, au-cav,
/// au-art, fr-art, fr-ldr and au-ldr within 5 mm; au-3 slid from where it stands,
/// which changes no verdict outside close calls. Add an entry, with its cause, only
/// when a
/// change of the fitter is worth a finding that differs.
const KNOWN_DIFFERENCES: &[(&str, &str)] = &[];

/// The findings that are close calls on the scanned table (margins within two sigma of
/// its fitted bases' sigmas) and are excused: fr-d1's command distances. au-ldr's
/// reach was one too while au-ldr's base stood turned 90° (au-3, slid 20 mm toward it,
/// within its reach on the scanned table and not on the true one).
const KNOWN_CLOSE: &[&str] = &["division/fr-d1"];

/// How many findings agree today: 11 of the 12 on the true table (both batteries' arcs,
/// the four assaults, both cavalry reactions, au-d1's command, fr-ldr, au-ldr); 10
/// while au-ldr's base stood turned 90°; before the shadow-aware score au-3 stood
/// elsewhere and au-ldr's agreed too.
const AGREE: usize = 11;

#[test]
fn the_untagged_sample_s_findings_against_its_true_table() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("untagged.json");
    let report = dir.path().join("untagged.report.json");
    let o = vedette(&[
        "scan",
        "samples/photos/untagged.jpg",
        "--profile",
        "calibration/default.toml",
        "--roster",
        "samples/photos/untagged.roster.toml",
        "--camera",
        "samples/photos/camera.toml",
        "-o",
        out.to_str().unwrap(),
        "--report",
        report.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let scanned = Table::load(&out).unwrap();
    let truth = Table::load(root().join("samples/photos/untagged.table.json")).unwrap();
    let acc = common::untagged::compare_untagged(&scanned, &truth);
    eprintln!("bases: {}", acc.summary());
    eprintln!("missed: {:?}", common::untagged::missed(&scanned, &truth));
    // 32 of the 35 bases in their own unit within 5 mm and 5°: fr-1 (4, tags), au-1 (4),
    // au-2 (6), fr-2 (3), fr-3 (4), fr-cav (4), au-cav (3), au-art, fr-art, fr-ldr and
    // au-ldr; all 35 scanned. Before an edge under overhanging figures was looked for
    // out to the overhang (`template::Placement::shown`), au-cav stood 7 mm across its
    // line and au-ldr's base was turned a quarter: 28. Before a part of a blob cut at
    // its waists was judged against the best place in it (PART_BEST_SHARE), fr-2,
    // beside the wood, was reported missing: 25 of 32; before the shadow-aware score
    // fr-3 and fr-cav stood on their shadows' outer edges: 17.
    assert_eq!((acc.correct, acc.scanned_bases), (32, 35), "{}", acc.summary());
    assert_eq!(acc.facing_wrong_unmarked, 0, "{}", acc.summary());
    // The unit still off in place: au-3 slid; none of its 3 bases is within 2.45 sigma.
    assert_eq!(acc.slid_within_sigmas(2.45), (3, 0), "{}", acc.summary());

    // The tagged unit anchors: its four bases to a fraction of a millimetre.
    let fr1 = scanned.units.iter().find(|u| u.id == "fr-1").expect("fr-1 scanned");
    let fr1_true = truth.units.iter().find(|u| u.id == "fr-1").unwrap();
    for (b, t) in fr1.bases.iter().zip(&fr1_true.bases) {
        assert!(b.centre().distance(t.centre()) < 0.5, "fr-1: {:?} against {:?}", b.centre(), t.centre());
    }
    // Never invented: every scanned unit is a roster unit, each either in the table or
    // reported missing with the part of the table searched.
    let report: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    for u in &truth.units {
        let found = scanned.units.iter().any(|s| s.id == u.id);
        let missing = report["issues"].as_array().unwrap().iter().any(|i| {
            i["issue"] == "missing-unit" && i["unit"] == u.id.as_str() && i["searched_mm"].is_array()
        });
        assert!(found != missing, "{}: found {found}, reported missing {missing}", u.id);
    }
    assert!(scanned.units.iter().all(|s| truth.units.iter().any(|t| t.id == s.id)));

    let c = compare(&scanned, &truth);
    eprintln!("{} findings agree: {:?}", c.agree.len(), c.agree);
    eprintln!("{} close calls excused: {:?}", c.close.len(), c.close);
    eprintln!("{} differ outside close calls:", c.differ.len());
    for (k, (s, t)) in &c.differ {
        eprintln!(
            "  {k}\n    scanned: {}\n    true:    {}",
            s.as_deref().unwrap_or("-"),
            t.as_deref().unwrap_or("-")
        );
    }
    let differ: Vec<&str> = c.differ.keys().map(String::as_str).collect();
    let known: Vec<&str> = KNOWN_DIFFERENCES.iter().map(|(k, _)| *k).collect();
    assert_eq!(differ, known, "the findings that differ outside close calls changed (see the log above)");
    let close: Vec<&str> = c.close.iter().map(String::as_str).collect();
    assert_eq!(close, KNOWN_CLOSE, "the close calls excused changed");
    assert_eq!(c.agree.len(), AGREE, "the findings that agree changed");
}
