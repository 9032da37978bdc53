//! Every base on a crowded table from two photos (issue 18): a 6'x4' table of infantry
//! in line, two-line and column (units in white, dark blue, grey and red by turn, tags
//! at the rear of 20 mm deep bases, figures standing against the tags and overhanging
//! them from a tilted camera), photographed at 12 MP from both long edges at tilts of
//! 0-25°. Each photo is scanned on its own (calibrated camera, the roster), then the
//! two are merged as `vedette scan NEAR FAR` does. Reported: one photo's recall of the
//! tags at least 90% visible, recall of all bases (read or inferred) from one photo and
//! from two, per tilt, per formation and per uniform; precision; position error
//! (inferred bases included); the merge's time per extra photo.
//!
//! ```text
//! cargo bench --bench scan_two_photos       # renders once into target/scan-bench/two-photos
//! TWO_PHOTOS_TILTS=0,25 cargo bench --bench scan_two_photos   # a subset of the tilts
//! TWO_PHOTOS_VERBOSE=1 cargo bench --bench scan_two_photos     # also list the tags missed
//! ```
//!
//! The report (Markdown) is printed and written to
//! `target/scan-bench/two-photos/report.md`.

#[path = "../tests/common/truth.rs"]
mod truth;

#[path = "../tests/common/clutter.rs"]
mod clutter;

use clutter::{TwoEdges, crowded_table, profile, rear_tags, roster_of, shoot_from_both_edges};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;
use truth::{MATCH_DEG, MATCH_MM, Truth, quantile};
use vedette_geometry::{Formation, Table};
use vedette_synth::Resolution;
use vedette_vision::{Photo, ScanIssue, merge_scans, scan};

const WIDTH: f64 = 1828.8;
const DEPTH: f64 = 1219.2;
const FIDUCIAL_MM: f64 = 60.0;
const INSET_MM: f64 = 60.0;
/// Bump when the scene recipe changes, so cached renders are not reused.
const RECIPE: u32 = 1;
const TILTS: [f64; 5] = [0.0, 8.0, 15.0, 20.0, 25.0];

/// How one scanned table (one photo, or the merge) did on each truth tag.
#[derive(Debug, Default, Clone)]
struct Outcome {
    /// Truth tags whose base is in the table within MATCH_MM / MATCH_DEG.
    correct: BTreeSet<u32>,
    /// ... of which inferred.
    inferred: BTreeSet<u32>,
    /// Bases in the table that are not where their tag's base is.
    wrong: usize,
    /// Position error of each correct base, mm.
    errors_mm: Vec<f64>,
}

fn outcome(table: &Table, truth: &Truth) -> Outcome {
    let mut by_tag = BTreeMap::new();
    for t in &truth.camera.tags {
        by_tag.insert(t.marker.id, truth.table.units[t.unit_index].bases[t.base]);
    }
    let mut o = Outcome::default();
    for (_, b) in table.bases() {
        let Some((tag, t)) = b.meta().tag.and_then(|tag| by_tag.get(&tag).map(|t| (tag, t))) else {
            o.wrong += 1;
            continue;
        };
        let e = b.centre().distance(t.centre());
        let h = ((b.heading_deg() - t.heading_deg()) + 540.0).rem_euclid(360.0) - 180.0;
        if e <= MATCH_MM && h.abs() <= MATCH_DEG {
            o.correct.insert(tag);
            o.errors_mm.push(e);
            if b.meta().inferred {
                o.inferred.insert(tag);
            }
        } else {
            o.wrong += 1;
        }
    }
    o
}

/// Found / total, per key.
#[derive(Debug, Default)]
struct Tally(BTreeMap<String, (usize, usize)>);

impl Tally {
    fn add(&mut self, key: &str, found: bool) {
        let e = self.0.entry(key.to_string()).or_default();
        e.0 += usize::from(found);
        e.1 += 1;
    }
    fn get(&self, key: &str) -> (usize, usize) {
        self.0.get(key).copied().unwrap_or_default()
    }
}

fn pct((found, total): (usize, usize)) -> String {
    format!("{:.1}% ({found}/{total})", 100.0 * found as f64 / total.max(1) as f64)
}

fn formation_name(f: Option<Formation>) -> &'static str {
    match f {
        Some(Formation::Line) => "line",
        Some(Formation::TwoLine) => "two-line",
        Some(Formation::AttackColumn) => "column",
        _ => "other",
    }
}

fn main() {
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir: PathBuf = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target"))
        .join("scan-bench/two-photos");
    std::fs::create_dir_all(&dir).expect("bench dir");
    let tilts: Vec<f64> = std::env::var("TWO_PHOTOS_TILTS")
        .ok()
        .map(|v| v.split(',').filter_map(|t| t.trim().parse().ok()).collect())
        .unwrap_or_else(|| TILTS.to_vec());
    // TWO_PHOTOS_VERBOSE=1 lists every tag at least 90% visible that a photo missed.
    let verbose = std::env::var_os("TWO_PHOTOS_VERBOSE").is_some();
    let table = crowded_table(WIDTH, DEPTH, 8, 5);
    let layout = rear_tags(&table, FIDUCIAL_MM, INSET_MM);
    let roster = roster_of(&table, &layout);
    let profile = profile(WIDTH, DEPTH, FIDUCIAL_MM, INSET_MM);

    let (mut one_form, mut two_form, mut one_uni, mut two_uni) =
        (Tally::default(), Tally::default(), Tally::default(), Tally::default());
    let mut one_visible = Tally::default();
    let mut tilt_rows = String::new();
    let (mut two_errors, mut two_wrong, mut one_wrong, mut merge_ms) = (Vec::new(), 0, 0, Vec::new());
    let (mut two_found, mut two_total, mut two_inferred, mut conflicts) = (0, 0, 0, 0);
    let mut scan_ms = Vec::new();
    for (i, &tilt) in tilts.iter().enumerate() {
        let name = format!("r{RECIPE}-crowd-{tilt}deg");
        let shots = TwoEdges { tilt_deg: tilt, resolution: Resolution::MP12, seed: 1800 + 2 * i as u64 };
        let names = [format!("{name}-near"), format!("{name}-far")];
        if !names
            .iter()
            .all(|n| dir.join(format!("{n}.jpg")).exists() && dir.join(format!("{n}.camera.json")).exists())
        {
            let t = Instant::now();
            shoot_from_both_edges(&dir, &name, &table, &layout, &shots);
            eprintln!("rendered {name} (two photos) in {:.1} s", t.elapsed().as_secs_f64());
        }
        let mut scans = Vec::new();
        let mut truths = Vec::new();
        let mut row_one = Vec::new();
        for n in &names {
            let truth = Truth::load(&dir, n);
            let photo = Photo::load(dir.join(format!("{n}.jpg"))).expect("photo");
            let t = Instant::now();
            let s = scan(&photo, &profile, Some(&roster), Some(&truth.intrinsics())).expect("scan");
            scan_ms.push(t.elapsed().as_secs_f64() * 1e3);
            let o = outcome(&s.table, &truth);
            let read: BTreeSet<u32> = s
                .table
                .bases()
                .filter(|(_, b)| !b.meta().inferred)
                .filter_map(|(_, b)| b.meta().tag)
                .collect();
            let mut vis = Tally::default();
            for t in &truth.camera.tags {
                let f = formation_name(truth.table.units[t.unit_index].formation);
                let u = t.uniform.as_deref().unwrap_or("?");
                let found = o.correct.contains(&t.marker.id);
                one_form.add(f, found);
                one_uni.add(u, found);
                if t.marker.visible_fraction >= 0.9 {
                    let ok = read.contains(&t.marker.id) && o.correct.contains(&t.marker.id);
                    if !ok && verbose {
                        eprintln!(
                            "{n}: missed tag {} ({}% visible, {u}, {f}, unit {} base {})",
                            t.marker.id,
                            (100.0 * t.marker.visible_fraction).round(),
                            t.unit,
                            t.base
                        );
                    }
                    vis.add("v", ok);
                    one_visible.add("v", ok);
                }
            }
            if verbose {
                for (_, b) in s.table.bases() {
                    let tag = b.meta().tag.unwrap_or(u32::MAX);
                    let t = truth.camera.tags.iter().find(|t| t.marker.id == tag);
                    let (off_mm, turn_deg) = t.map_or((f64::INFINITY, f64::INFINITY), |t| {
                        let tb = truth.table.units[t.unit_index].bases[t.base];
                        let turn = ((b.heading_deg() - tb.heading_deg()) + 540.0).rem_euclid(360.0) - 180.0;
                        (b.centre().distance(tb.centre()), turn.abs())
                    });
                    if off_mm > MATCH_MM || turn_deg > MATCH_DEG {
                        eprintln!(
                            "{n}: wrong base of tag {tag}{} at ({:.1}, {:.1}) mm: {off_mm:.1} mm, {turn_deg:.1}° from its truth",
                            if b.meta().inferred { " (inferred)" } else { "" },
                            b.centre().x,
                            b.centre().y
                        );
                    }
                }
                for i in &s.report.issues {
                    if !matches!(i, ScanIssue::MissingTag { .. } | ScanIssue::InferredBase { .. }) {
                        eprintln!("{n}: {}", i.describe());
                    }
                }
            }
            one_wrong += o.wrong;
            row_one.push((o.correct.len(), truth.camera.tags.len(), vis.get("v"), o.wrong));
            scans.push(s);
            truths.push(truth);
        }
        // The merge, timed over several runs (median): its cost per extra photo.
        let mut times = Vec::new();
        let mut merged = None;
        for _ in 0..9 {
            let t = Instant::now();
            let m = merge_scans(&scans, &profile, Some(&roster));
            times.push(t.elapsed().as_secs_f64() * 1e3);
            merged = Some(m);
        }
        let merged = merged.expect("merge");
        let t_merge = quantile(&times, 0.5);
        merge_ms.push(t_merge);
        let truth = &truths[0];
        let o = outcome(&merged.table, truth);
        for t in &truth.camera.tags {
            let f = formation_name(truth.table.units[t.unit_index].formation);
            let u = t.uniform.as_deref().unwrap_or("?");
            let found = o.correct.contains(&t.marker.id);
            two_form.add(f, found);
            two_uni.add(u, found);
        }
        let c = merged.report.issues.iter().filter(|i| matches!(i, ScanIssue::ConflictingTag { .. })).count();
        conflicts += c;
        for i in merged.report.issues.iter().filter(|i| matches!(i, ScanIssue::ConflictingTag { .. })) {
            let ScanIssue::ConflictingTag { id, .. } = i else { continue };
            let sig = |k: usize| {
                scans[k].table.bases().find(|(_, b)| b.meta().tag == Some(*id)).map(|(_, b)| {
                    let t = truth.camera.tags.iter().find(|t| t.marker.id == *id).expect("truth");
                    let tb = truth.table.units[t.unit_index].bases[t.base];
                    (
                        b.meta().sigma_mm,
                        b.meta().sigma_heading_deg,
                        b.heading_deg() - tb.heading_deg(),
                        b.centre().distance(tb.centre()),
                        t.marker.visible_fraction,
                    )
                })
            };
            eprintln!("{tilt}°: {} near {:?} far {:?}", i.describe(), sig(0), sig(1));
        }
        two_found += o.correct.len();
        two_total += truth.camera.tags.len();
        two_inferred += o.inferred.len();
        two_wrong += o.wrong;
        two_errors.extend(&o.errors_mm);
        let [(n_c, n_t, n_v, n_w), (f_c, f_t, f_v, f_w)] = [row_one[0], row_one[1]];
        let _ = writeln!(
            tilt_rows,
            "| {tilt}° | {} | {} | {} | {} | {} | {} | {} | {:.2} | {:.2} | {c} | {t_merge:.1} |",
            pct((n_c, n_t)),
            pct((f_c, f_t)),
            pct(n_v),
            pct(f_v),
            pct((o.correct.len(), truth.camera.tags.len())),
            o.inferred.len(),
            n_w + f_w + o.wrong,
            quantile(&o.errors_mm, 0.5),
            quantile(&o.errors_mm, 0.95),
        );
    }

    let mut md = String::new();
    let _ = writeln!(
        md,
        "Crowded 6'x4' table, {} bases in {} units (line of 4, two-line of 3x2, column of 3; white, dark blue, grey, red by turn), tags at the rear, figures against the tags; 12 MP, calibrated camera, roster; photos from the near and the far long edge.\n",
        table.base_count(),
        table.units.len()
    );
    let _ = writeln!(
        md,
        "| tilt | one photo, near: all bases (read or inferred) | far: all bases | near: tags ≥90% visible | far: tags ≥90% visible | two photos: all bases (read or inferred) | of which inferred | wrong bases (near+far+merged) | median error mm | p95 mm | conflicts | merge ms |"
    );
    let _ = writeln!(md, "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    md.push_str(&tilt_rows);
    let _ = writeln!(
        md,
        "\nAll bases found (read or inferred), pooled over the tilts (one photo: near and far each).\n\n| formation | one photo | two photos |\n| --- | --- | --- |"
    );
    for f in ["line", "two-line", "column"] {
        let _ = writeln!(md, "| {f} | {} | {} |", pct(one_form.get(f)), pct(two_form.get(f)));
    }
    let _ = writeln!(md, "\n| uniform | one photo | two photos |\n| --- | --- | --- |");
    for u in vedette_synth::CROWD_UNIFORMS {
        let _ = writeln!(md, "| {u} | {} | {} |", pct(one_uni.get(u)), pct(two_uni.get(u)));
    }
    let _ = writeln!(
        md,
        "\nAll tilts: one photo reads {} of the tags at least 90% visible, {} wrong bases in {} single-photo scans; two photos find {} of all bases ({two_inferred} inferred), {two_wrong} wrong (precision {}), {conflicts} conflicts, position error median {:.3} mm, p95 {:.3} mm, max {:.3} mm (inferred included). Merge time per extra photo: median {:.2} ms, max {:.2} ms; one photo's scan: median {:.0} ms.",
        pct(one_visible.get("v")),
        one_wrong,
        2 * tilts.len(),
        pct((two_found, two_total)),
        if two_found + two_wrong == 0 { 1.0 } else { two_found as f64 / (two_found + two_wrong) as f64 },
        quantile(&two_errors, 0.5),
        quantile(&two_errors, 0.95),
        two_errors.iter().copied().fold(0.0, f64::max),
        quantile(&merge_ms, 0.5),
        merge_ms.iter().copied().fold(0.0, f64::max),
        quantile(&scan_ms, 0.5),
    );
    print!("{md}");
    std::fs::write(dir.join("report.md"), &md).expect("write report");
}
