//! The scanner on the second renderer's photos (issue 36): every tagged photo of
//! `../shared/renders/` (or `VEDETTE_SHARED_RENDERS`), scanned with its camera file and
//! without, each scored against its truth with every figure of the issue's table
//! (`tests/common/renders.rs`), the near and far photos of one table merged. The
//! report (Markdown) is printed and written to `target/scan-shared/report.md`;
//! BENCHMARKS.md quotes it beside `scan_accuracy`'s own renders.
//!
//! ```text
//! cargo bench --bench scan_shared                       # every tagged photo
//! SHARED_ONLY=tagged-302,tagged-304 cargo bench --bench scan_shared
//! SHARED_NO_GROUND=1 cargo bench --bench scan_shared    # terrain also without `ground`
//! SHARED_PATH=none cargo bench --bench scan_shared       # only without (or `file`: with) the camera file
//! SHARED_TAGS_DUMP=DIR cargo bench --bench scan_shared   # every tag measured, as DIR/NAME-PATH.csv
//! SHARED_SCAN_DUMP=DIR cargo bench --bench scan_shared   # each whole scan (timing aside), as DIR/NAME-PATH.txt
//! ```
//!
//! Says so and exits 0 when the folder is absent.

#[path = "../tests/common/renders.rs"]
mod renders;
#[allow(dead_code)]
#[path = "../tests/common/surface.rs"]
mod surface;
#[path = "../tests/common/truth.rs"]
mod truth;

use renders::{PhotoScore, RendererScore, SharedRender, pairs, score, score_pair, shared_renders};
use std::fmt::Write as _;
use std::time::Instant;
use vedette_vision::{Scan, merge_scans, scan};

fn cpu_seconds() -> f64 {
    // utime + stime of this process, from /proc (Linux): CPU time, not wall time, since
    // other engineers load the machine.
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else { return f64::NAN };
    let fields: Vec<&str> = stat.rsplit(')').next().unwrap_or("").split_whitespace().collect();
    let ticks = |i: usize| fields.get(i).and_then(|v| v.parse::<f64>().ok()).unwrap_or(f64::NAN);
    (ticks(11) + ticks(12)) / 100.0
}

fn main() {
    let only: Option<Vec<String>> =
        std::env::var("SHARED_ONLY").ok().map(|v| v.split(',').map(str::to_string).collect());
    let renders: Vec<SharedRender> = shared_renders("tagged")
        .into_iter()
        .filter(|r| only.as_ref().is_none_or(|o| o.contains(&r.name)))
        .collect();
    if renders.is_empty() {
        println!(
            "scan_shared: no shared renders (../shared/renders or {}): nothing to measure",
            renders::RENDERS_ENV
        );
        return;
    }
    let no_ground = std::env::var_os("SHARED_NO_GROUND").is_some();
    let path = std::env::var("SHARED_PATH").ok();
    let mut out = String::new();
    let mut scores = [RendererScore::default(), RendererScore::default()];
    let mut ground_free = RendererScore::default();
    let mut scans: Vec<[Option<Scan>; 2]> = Vec::new();
    let mut lines = Vec::new();
    let mut cpu = Vec::new();
    for r in &renders {
        let photo = r.photo();
        let profile = r.terrain_profile(&photo, true);
        let roster = r.roster();
        let k = r.intrinsics();
        let mut pair = [None, None];
        for (m, camera) in [Some(&k), None].into_iter().enumerate() {
            if path.as_deref().is_some_and(|p| p != ["file", "none"][m]) {
                continue;
            }
            let (t0, c0) = (Instant::now(), cpu_seconds());
            let result = scan(&photo, &profile, Some(&roster), camera).map_err(|e| e.to_string());
            let (wall, used) = (t0.elapsed().as_secs_f64(), cpu_seconds() - c0);
            cpu.push(used);
            if let (Ok(sc), Some(dump)) = (&result, std::env::var_os("SHARED_TAGS_DUMP")) {
                let mut text = String::from("id,size_mm,side_mm,fit_rms_mm,side_px,cx,cy,x,y\n");
                for t in &sc.tags {
                    let c =
                        t.corners_px.iter().fold([0.0, 0.0], |a, q| [a[0] + q[0] / 4.0, a[1] + q[1] / 4.0]);
                    let _ = writeln!(
                        text,
                        "{},{},{:.4},{:.4},{:.3},{:.1},{:.1},{:.3},{:.3}",
                        t.id,
                        t.size_mm,
                        t.side_mm,
                        t.fit_rms_mm,
                        t.side_px,
                        c[0],
                        c[1],
                        t.centre.x,
                        t.centre.y
                    );
                }
                let _ = std::fs::write(std::path::Path::new(&dump).join(format!("{}-{m}.csv", r.name)), text);
            }
            // The whole result, every number in full, its timing left out: two builds
            // that scan alike write the same bytes (`diff -r`).
            if std::env::var_os("SHARED_FIT_DETAIL").is_some()
                && let Ok(sc) = &result
            {
                for (unit, n, right, nearest) in renders::fitted_detail(&sc.table, &r.truth) {
                    let near: Vec<String> = nearest.iter().map(|(u, d)| format!("{u} {d:.1}")).collect();
                    println!(
                        "  fitted {} ({m}): {unit} {right}/{n} right; nearest true bases: {}",
                        r.name,
                        near.join(", ")
                    );
                }
            }
            if let Some(dump) = std::env::var_os("SHARED_SCAN_DUMP") {
                let text = match &result {
                    Ok(sc) => {
                        let mut sc = sc.clone();
                        sc.report.timing_ms = vedette_vision::Timing::default();
                        format!("{sc:#?}\n")
                    }
                    Err(e) => format!("refused: {e}\n"),
                };
                let _ = std::fs::write(std::path::Path::new(&dump).join(format!("{}-{m}.txt", r.name)), text);
            }
            // How its edges are placed and how its colours are decoded.
            let tone = result.as_ref().ok().and_then(|sc| {
                let bits = profile.fiducials.dictionary.bits();
                let edges = vedette_vision::measure_tone(&photo.gray, &sc.fiducials, bits).ok()?;
                let colours = vedette_vision::measure_encoding(&photo.gray, &sc.fiducials, bits).ok()?;
                Some((edges, colours))
            });
            let s: PhotoScore = score(r, &result, true);
            lines.push(format!("{} [{tone:?}]", describe(r, &s, m == 0, wall, used)));
            scores[m].add(&s);
            pair[m] = result.ok();
        }
        if no_ground {
            let profile = r.terrain_profile(&photo, false);
            let result = scan(&photo, &profile, Some(&roster), Some(&k)).map_err(|e| e.to_string());
            let s = score(r, &result, true);
            lines.push(format!(
                "  {} without ground: {}terrain IoU {:?}, invented {:?} mm²",
                r.name,
                s.refused.as_ref().map(|e| format!("REFUSED: {e}; ")).unwrap_or_default(),
                s.terrain.as_ref().map(|t| t
                    .pieces
                    .iter()
                    .map(|p| (p.iou * 100.0).round() / 100.0)
                    .collect::<Vec<_>>()),
                s.terrain.as_ref().map(|t| &t.invented_mm2)
            ));
            ground_free.add(&s);
        }
        scans.push(pair);
    }
    for (i, j) in pairs(&renders) {
        for m in 0..2 {
            if let (Some(a), Some(b)) = (&scans[i][m], &scans[j][m]) {
                let merged =
                    merge_scans(&[a.clone(), b.clone()], &renders[i].profile(), Some(&renders[i].roster()));
                let p = score_pair(&renders[i], &renders[j], &merged.table);
                lines.push(format!(
                    "  {} + {} ({}): {}/{} bases, {} merged; cubes {}/{} found, unit {}/{} ({} wrong, {} of units not found), {} invented, {} in the table",
                    p.names[0],
                    p.names[1],
                    if m == 0 { "camera file" } else { "no camera file" },
                    p.correct,
                    p.truth_bases,
                    p.merged_bases,
                    p.cubes.found,
                    p.cubes.truth,
                    p.cubes.unit_right,
                    p.cubes.found,
                    p.cubes.unit_wrong,
                    p.cubes.unit_unfound,
                    p.cubes.invented,
                    p.merged_cubes
                ));
                scores[m].add_pair(&p);
            } else {
                // A refused photo finds none of the table's bases.
                let p = renders::PairScore {
                    truth_bases: renders[i].scene.tags.list.len(),
                    ..Default::default()
                };
                scores[m].add_pair(&p);
            }
        }
    }
    let _ = writeln!(
        out,
        "Shared renders: {} tagged photos ({})\n",
        renders.len(),
        renders.iter().map(|r| r.name.as_str()).collect::<Vec<_>>().join(", ")
    );
    let _ = writeln!(out, "{}", RendererScore::header());
    let _ = writeln!(out, "{}", scores[0].row("shared, camera file"));
    let _ = writeln!(out, "{}", scores[1].row("shared, no camera file"));
    if no_ground {
        let _ = writeln!(out, "{}", ground_free.row("shared, camera file, no `ground`"));
    }
    let _ = writeln!(
        out,
        "\nCPU time per scan, s: median {:.2}, max {:.2}\n",
        truth::quantile(&cpu, 0.5),
        truth::max(&cpu)
    );
    for l in &lines {
        let _ = writeln!(out, "{l}");
    }
    print!("{out}");
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/scan-shared");
    if std::fs::create_dir_all(&dir).is_ok() {
        let _ = std::fs::write(dir.join("report.md"), &out);
    }
}

fn describe(r: &SharedRender, s: &PhotoScore, camera: bool, wall: f64, cpu: f64) -> String {
    let path = if camera { "camera file" } else { "no camera file" };
    if let Some(e) = &s.refused {
        return format!("- {} ({path}): REFUSED: {e}", r.name);
    }
    let mut t = format!(
        "- {} ({path}; tilt {:.0}°, f {:.0} px, k1 {:+.3}, {} mat): bases {}/{} (scanned {}), centre median {:.3} p95 {:.3} mm, 2.45σ {:.1}%, visible tags {}/{}",
        r.name,
        r.scene.camera.tilt_deg,
        r.scene.camera.focal_px,
        r.scene.camera.dist_coeffs.first().copied().unwrap_or(0.0),
        r.scene.table.mat,
        s.correct,
        s.truth_bases,
        s.scanned_bases,
        truth::quantile(&s.centre_mm, 0.5),
        truth::quantile(&s.centre_mm, 0.95),
        100.0 * s.error_over_sigma.iter().filter(|v| **v <= 2.45).count() as f64
            / s.error_over_sigma.len().max(1) as f64,
        s.visible_read,
        s.visible_tags,
    );
    // How the errors spread against their sigmas (a Rayleigh distribution, errors honest
    // per coordinate: 1.18, 2.15 and 3.03 at the median, 90% and 99%).
    let q = |p: f64| truth::quantile(&s.error_over_sigma, p);
    let _ = write!(t, ", error over sigma p50 {:.2} p90 {:.2} p99 {:.2}", q(0.5), q(0.9), q(0.99));
    if !s.visible_missed.is_empty() {
        let _ = write!(t, " (missed {:?})", s.visible_missed);
    }
    if s.fitted > 0 {
        let _ = write!(
            t,
            ", fitted {}/{} right (centre median {:.2} mm)",
            s.fitted_mm.len(),
            s.fitted,
            truth::quantile(&s.fitted_mm, 0.5)
        );
    }
    if let Some((f, k1)) = s.camera {
        let _ = write!(t, ", camera f {f:.0} px k1 {k1:+.4}");
    }
    let _ = write!(t, ", cubes {:?}", s.cubes);
    if let Some(ter) = &s.terrain {
        let _ = write!(
            t,
            ", terrain IoU {:?} invented {:?} mm²",
            ter.pieces.iter().map(|p| format!("{}:{:.2}", p.kind, p.iou)).collect::<Vec<_>>(),
            ter.invented_mm2.iter().map(|v| v.round()).collect::<Vec<_>>()
        );
    }
    if let Some(g) = &s.sight {
        let _ = write!(t, ", sight {}/{}", g.agree, g.pairs - g.close_calls);
    }
    let _ = write!(t, ", scan {:.0} ms (wall {wall:.2} s, CPU {cpu:.2} s)", s.scan_ms);
    t
}
