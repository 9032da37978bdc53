//! Scan accuracy and speed against ground truth (issue 3): a seeded set of synthetic
//! photos rendered by vedette-synth (6'x4' table, 100-400 tagged bases in formations
//! with touching bases, tilt 0-30°, random light, 8-24 MP, barrel and pincushion lens
//! distortion up to |k1| = 0.05, the photographer at the near or at the far edge, sensor
//! noise, blur, JPEG), scanned by the same code as `vedette scan` with and without the
//! camera file (self-calibration, issue 17), and compared with the truth: recall,
//! precision, position and heading error, and scan time.
//!
//! ```text
//! cargo bench --bench scan_accuracy            # renders once into target/scan-bench, then scans
//! SCAN_BENCH_PHOTOS=6 cargo bench --bench scan_accuracy   # a quicker subset
//! SCAN_BENCH_ONLY=s1016,s1022 cargo bench --bench scan_accuracy   # photos by name
//! SCAN_BENCH_FAST=1 cargo bench --bench scan_accuracy   # one timed scan, not three
//! TRUTH_VERBOSE=1 cargo bench --bench scan_accuracy   # lists every wrong base
//! SCAN_BENCH_REPEAT=2 cargo bench --bench scan_accuracy   # scans without a camera file twice more, compared
//! SCAN_BENCH_LOOK=ev-1 cargo bench --bench scan_accuracy   # rendered at -1 EV (ev+1, ev+1-flat, warm, cool)
//! ```
//!
//! The report (a Markdown table) is printed and written to
//! `target/scan-bench/report.md`; BENCHMARKS.md quotes it.

#[path = "../tests/common/truth.rs"]
mod truth;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::{Path, PathBuf};
use std::time::Instant;
use truth::{Accuracy, Truth, compare, max, quantile};
use vedette_geometry::{
    Base, BaseSize, Formation, Pose, RuleSet, SCHEMA_ID, Scale, Table, TableSize, Unit, UnitKind, Vec2,
};
use vedette_synth::{
    ArucoDictionary, Camera, Distortion, LookAt, RenderOptions, Resolution, Scene, SensorOptions,
    StandardLayout, render,
};
use vedette_vision::{Dictionary, Photo, Profile, ScanIssue, scan};

const WIDTH: f64 = 1828.8;
const DEPTH: f64 = 1219.2;
/// Bump when the scene recipe changes, so cached renders are not reused.
const RECIPE: u32 = 2;

/// One photo of the set.
#[derive(Debug, Clone, Copy)]
struct Shot {
    seed: u64,
    bases: usize,
    tilt_deg: f64,
    resolution: Resolution,
    /// Where the photographer stands.
    edge: Edge,
    /// Pincushion (k1 > 0) or barrel (k1 < 0) lens.
    pincushion: bool,
    /// A condition beyond the 24 photos' (issue 17 item 7).
    extra: Extra,
}

/// The conditions photographed besides the 24 landscape, four-fiducial photos.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Extra {
    None,
    /// The phone held upright (3000 x 4000), the table's long side along the photo's.
    Portrait,
    /// Six fiducials (calibration/six-fiducials.toml: two more at the long edges'
    /// middles).
    SixFiducials,
}

/// The table edge the photographer stands at: near (the near edge at the photo's
/// bottom) or far (the photo upside down relative to the table).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Edge {
    Near,
    Far,
}

/// 24 photos: 12 at 12 MP (the targets' resolution), 4 each at 8, 16 and 24 MP; barrel
/// and pincushion lenses alternate in fours, near and far edge in pairs (three photos
/// of each at 12 MP). Then four more at 12 MP: two portrait, two with six fiducials.
fn shots() -> Vec<Shot> {
    let mut rng = ChaCha8Rng::seed_from_u64(1805);
    let res = |i: usize| match i % 6 {
        1 => Resolution::MP8,
        3 => Resolution::MP16,
        5 => Resolution::MP24,
        _ => Resolution::MP12,
    };
    let mut shots: Vec<Shot> = (0..24)
        .map(|i| Shot {
            seed: 1000 + i as u64,
            bases: rng.random_range(100..=400),
            tilt_deg: (i % 7) as f64 * 5.0,
            resolution: res(i),
            edge: if (i / 2) % 2 == 1 { Edge::Far } else { Edge::Near },
            pincushion: (i / 4) % 2 == 1,
            extra: Extra::None,
        })
        .collect();
    let extras = [
        (Extra::Portrait, Edge::Near, false, 10.0),
        (Extra::Portrait, Edge::Far, true, 20.0),
        (Extra::SixFiducials, Edge::Far, false, 5.0),
        (Extra::SixFiducials, Edge::Near, true, 25.0),
    ];
    for (k, (extra, edge, pincushion, tilt_deg)) in extras.into_iter().enumerate() {
        shots.push(Shot {
            seed: 1024 + k as u64,
            bases: rng.random_range(100..=400),
            tilt_deg,
            resolution: if extra == Extra::Portrait { Resolution::new(3000, 4000) } else { Resolution::MP12 },
            edge,
            pincushion,
            extra,
        });
    }
    shots
}

/// Bases of one formation around (0, 0) facing +y, before turning and placing.
fn formation(kind: u32, rng: &mut ChaCha8Rng) -> (UnitKind, Option<Formation>, Vec<(Vec2, BaseSize, f64)>) {
    let inf = BaseSize::new(30.0, 20.0);
    let cav = BaseSize::new(40.0, 30.0);
    let line = |n: usize, ranks: usize, s: BaseSize| {
        let mut v = Vec::new();
        for r in 0..ranks {
            for i in 0..n {
                let x = (i as f64 - (n as f64 - 1.0) / 2.0) * s.width;
                let y = ((ranks as f64 - 1.0) / 2.0 - r as f64) * s.depth;
                v.push((Vec2::new(x, y), s, 90.0));
            }
        }
        v
    };
    match kind {
        0..=3 => (UnitKind::Infantry, Some(Formation::Line), line(rng.random_range(3..=6), 1, inf)),
        4 | 5 => (UnitKind::Infantry, Some(Formation::TwoLine), line(rng.random_range(2..=4), 2, inf)),
        6 => (UnitKind::Infantry, Some(Formation::AttackColumn), line(1, rng.random_range(3..=4), inf)),
        7 | 8 => (UnitKind::Cavalry, Some(Formation::Line), line(rng.random_range(2..=4), 1, cav)),
        9 => (
            UnitKind::Artillery,
            Some(Formation::Unlimbered),
            vec![(Vec2::new(0.0, 0.0), BaseSize::new(25.0, 40.0), 90.0)],
        ),
        10 => (UnitKind::Leader, None, vec![(Vec2::new(0.0, 0.0), BaseSize::new(25.0, 30.0), 90.0)]),
        _ => (UnitKind::Skirmisher, None, line(rng.random_range(1..=3), 1, BaseSize::new(20.0, 20.0))),
    }
}

/// A seeded 6'x4' table of about `bases` bases in formations, units at least 6 mm
/// apart, clear of the corner fiducials (and of the long edges' middles for six).
fn table(seed: u64, bases: usize, six_fiducials: bool) -> Table {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut placed: Vec<Base> = Vec::new();
    let mut units: Vec<Unit> = Vec::new();
    let mut attempts = 0;
    while placed.len() < bases && attempts < 20_000 {
        attempts += 1;
        let (kind, form, shape) = formation(rng.random_range(0..12), &mut rng);
        let heading: f64 =
            if rng.random_bool(0.7) { if rng.random_bool(0.5) { 90.0 } else { 270.0 } } else { 0.0 };
        let heading = heading + rng.random_range(-40.0..40.0);
        let centre = Vec2::new(rng.random_range(60.0..WIDTH - 60.0), rng.random_range(60.0..DEPTH - 60.0));
        let turn = heading - 90.0;
        let candidate: Vec<Base> = shape
            .iter()
            .map(|(p, s, h)| Base::new(*s, Pose::new(centre + p.rotated_deg(turn), h + turn)))
            .collect();
        let mut fiducials =
            vec![(60.0, 60.0), (WIDTH - 60.0, 60.0), (WIDTH - 60.0, DEPTH - 60.0), (60.0, DEPTH - 60.0)];
        if six_fiducials {
            fiducials.extend([(WIDTH / 2.0, 60.0), (WIDTH / 2.0, DEPTH - 60.0)]);
        }
        let clear_of_fiducials = candidate.iter().all(|b| {
            let c = b.centre();
            fiducials.iter().all(|&(x, y)| (c.x - x).abs() > 80.0 || (c.y - y).abs() > 80.0)
        });
        let on_table = candidate.iter().all(|b| {
            let c = b.corners();
            [c.front_left, c.front_right, c.rear_left, c.rear_right]
                .iter()
                .all(|p| p.x > 15.0 && p.y > 15.0 && p.x < WIDTH - 15.0 && p.y < DEPTH - 15.0)
        });
        let clear = candidate.iter().all(|b| {
            placed
                .iter()
                .filter(|o| o.centre().distance(b.centre()) < 80.0)
                .all(|o| o.closest_points(b).distance_mm > 6.0 && !o.contains(b.centre()))
        });
        if !(clear_of_fiducials && on_table && clear) {
            continue;
        }
        let n = units.len();
        placed.extend(candidate.iter().copied());
        let mut unit = Unit::new(
            format!("u{n}"),
            if centre.y < DEPTH / 2.0 { "france" } else { "austria" },
            kind,
            candidate,
        );
        unit.formation = form;
        units.push(unit);
    }
    Table {
        schema: SCHEMA_ID.to_string(),
        rules: RuleSet::Republique5,
        scale: Scale::Medium,
        name: Some(format!("scan bench {seed}")),
        size: Some(TableSize { width: WIDTH, depth: DEPTH }),
        sides: Default::default(),
        artillery: Default::default(),
        units,
        markers: Vec::new(),
        terrain: Vec::new(),
    }
}

/// A camera that sees the whole table at `tilt`, from the near side, as low as it can.
fn camera(shot: &Shot, rng: &mut ChaCha8Rng) -> Camera {
    let k1: f64 = rng.random_range(0.01..0.05);
    let distortion = Distortion {
        k1: if shot.pincushion { k1 } else { -k1 },
        k2: rng.random_range(-0.02..0.02),
        p1: rng.random_range(-0.001..0.001),
        p2: rng.random_range(-0.001..0.001),
        k3: 0.0,
    };
    let yaw = rng.random_range(-3.0..3.0)
        + match shot.edge {
            Edge::Near => 0.0,
            Edge::Far => 180.0,
        }
        + if shot.extra == Extra::Portrait { 90.0 } else { 0.0 };
    let target =
        Vec2::new(WIDTH / 2.0 + rng.random_range(-30.0..30.0), DEPTH / 2.0 + rng.random_range(-30.0..30.0));
    let mut height = 900.0;
    loop {
        let cam = Camera::looking_at(&LookAt {
            target_mm: target,
            height_mm: height,
            tilt_deg: shot.tilt_deg,
            yaw_deg: yaw,
            focal_mm: 4.5,
            sensor_width_mm: 6.17,
            resolution: shot.resolution,
        })
        .expect("camera")
        .with_distortion(distortion);
        let margin = 40.0;
        let all_in = [
            (-margin, -margin),
            (WIDTH + margin, -margin),
            (WIDTH + margin, DEPTH + margin),
            (-margin, DEPTH + margin),
        ]
        .iter()
        .all(|&(x, y)| cam.project(&nalgebra_point(x, y)).is_some_and(|p| cam.in_frame(p)));
        if all_in || height > 5000.0 {
            return cam;
        }
        height += 25.0;
    }
}

fn nalgebra_point(x: f64, y: f64) -> nalgebra::Point3<f64> {
    nalgebra::Point3::new(x, y, 0.0)
}

/// DICT_4X4_250 holds 240 tags besides the fiducials; bigger battles use DICT_5X5_1000
/// (issue 3: "DICT_5X5_1000 for big battles").
fn tag_dictionary(shot: &Shot) -> (ArucoDictionary, Dictionary) {
    if shot.bases > 235 {
        (ArucoDictionary::Dict5x5_1000, Dictionary::BIG_BATTLE_TAGS)
    } else {
        (ArucoDictionary::Dict4x4_250, Dictionary::DEFAULT_TAGS)
    }
}

/// Renders a shot into `dir` unless it is already there.
/// The photo's file name (without extension): its recipe, dictionary, seed and shot.
fn shot_name(shot: &Shot) -> String {
    format!(
        "r{RECIPE}-{}-s{}-{}b-{}deg-{}-{}-{}x{}{}",
        tag_dictionary(shot).1,
        shot.seed,
        shot.bases,
        shot.tilt_deg,
        if shot.edge == Edge::Far { "far" } else { "near" },
        if shot.pincushion { "pincushion" } else { "barrel" },
        shot.resolution.width_px,
        shot.resolution.height_px,
        match shot.extra {
            Extra::None => "",
            Extra::Portrait => "-portrait",
            Extra::SixFiducials => "-6fid",
        }
    ) + &look().0
}

/// `SCAN_BENCH_LOOK`: the photos rendered at another exposure or white balance (issue
/// 36), as a suffix of their names, the exposure in stops, the channel gains and
/// whether the lens's vignetting is kept: `ev+1`, `ev-1`, `warm` (indoor light left
/// uncorrected: red 1.15, blue 0.8), `cool` (red 0.85, blue 1.2), `ev+1-flat` (+1 EV
/// without vignetting). Unset or unknown: the scene's own light.
fn look() -> (String, f64, [f64; 3], bool) {
    match std::env::var("SCAN_BENCH_LOOK").as_deref() {
        Ok("ev+1") => ("-ev+1".into(), 1.0, [1.0; 3], true),
        Ok("ev+1-flat") => ("-ev+1-flat".into(), 1.0, [1.0; 3], false),
        Ok("ev-1") => ("-ev-1".into(), -1.0, [1.0; 3], true),
        Ok("warm") => ("-warm".into(), 0.0, [1.15, 1.0, 0.8], true),
        Ok("cool") => ("-cool".into(), 0.0, [0.85, 1.0, 1.2], true),
        _ => (String::new(), 0.0, [1.0; 3], true),
    }
}

fn ensure_rendered(dir: &Path, shot: &Shot) -> String {
    let name = shot_name(shot);
    if dir.join(format!("{name}.camera.json")).exists() && dir.join(format!("{name}.jpg")).exists() {
        return name;
    }
    let mut rng = ChaCha8Rng::seed_from_u64(shot.seed ^ 0x5ca9);
    let table = table(shot.seed, shot.bases, shot.extra == Extra::SixFiducials);
    let mut layout = StandardLayout { tag_dictionary: tag_dictionary(shot).0, ..StandardLayout::default() }
        .build(&table)
        .expect("layout");
    if shot.extra == Extra::SixFiducials {
        // As calibration/six-fiducials.toml places them.
        let template = layout.fiducials[0];
        for (id, y) in [(4, 60.0), (5, DEPTH - 60.0)] {
            let mut f = template;
            f.id = id;
            f.centre_mm = Vec2::new(WIDTH / 2.0, y);
            layout.fiducials.push(f);
        }
    }
    let scene = Scene::new(table, &layout).expect("scene");
    let cam = camera(shot, &mut rng);
    let sensor = SensorOptions {
        blur_sigma_px: rng.random_range(0.5..1.1),
        read_noise: rng.random_range(0.003..0.012),
        shot_noise: rng.random_range(0.0001..0.0004),
        vignetting: rng.random_range(0.1..0.4),
    };
    let (_, exposure_ev, white_balance, vignetting) = look();
    // The random draws stay in order whether the vignetting is kept or not.
    let sensor = SensorOptions { vignetting: if vignetting { sensor.vignetting } else { 0.0 }, ..sensor };
    let options = RenderOptions {
        sensor,
        jpeg_quality: rng.random_range(80..=95),
        exposure_ev,
        white_balance,
        ..RenderOptions::seeded(shot.seed)
    };
    let t = Instant::now();
    let photo = render(&scene, &cam, &options).expect("render");
    photo.write(dir, &name).expect("write render");
    eprintln!("rendered {name} in {:.1} s", t.elapsed().as_secs_f64());
    name
}

struct Row {
    name: String,
    shot: Shot,
    calibrated: Accuracy,
    fallback: Accuracy,
    fallback_model: String,
    /// The lens's k1, from the truth.
    k1: f64,
    load_ms: f64,
    scan_ms: f64,
    /// Scan time without a camera file (one run), ms.
    fallback_ms: f64,
}

fn main() {
    // `cargo bench` passes `--bench`; `cargo test --benches` runs this too: keep that
    // quick by doing nothing unless benchmarking.
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir: PathBuf = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target"))
        .join("scan-bench");
    std::fs::create_dir_all(&dir).expect("bench dir");
    let default_profile = Profile::load(root.join("calibration/default.toml")).expect("default profile");
    let six_profile =
        Profile::load(root.join("calibration/six-fiducials.toml")).expect("six-fiducial profile");
    let limit: usize =
        std::env::var("SCAN_BENCH_PHOTOS").ok().and_then(|v| v.parse().ok()).unwrap_or(usize::MAX);
    let mut rows = Vec::new();
    for shot in shots().into_iter().take(limit) {
        // Photos left out by SCAN_BENCH_ONLY are not rendered either.
        if let Ok(only) = std::env::var("SCAN_BENCH_ONLY")
            && !only.split(',').any(|o| shot_name(&shot).contains(o))
        {
            continue;
        }
        let name = ensure_rendered(&dir, &shot);
        let truth = Truth::load(&dir, &name);
        let mut profile =
            if shot.extra == Extra::SixFiducials { six_profile.clone() } else { default_profile.clone() };
        profile.tags.dictionary = tag_dictionary(&shot).1;
        // The renderer's base tops are all exactly 3 mm high: the profile says so, and
        // sigma_mm is measured against errors that hold no height spread.
        profile.bases.top_height_sigma_mm = 0.0;
        let roster = truth.roster();
        let k = truth.intrinsics();
        let jpg = dir.join(format!("{name}.jpg"));
        // Timing: three runs, the median (load = JPEG decode; scan = everything after).
        let mut loads = Vec::new();
        let mut scans = Vec::new();
        let mut result = None;
        let runs = if std::env::var_os("SCAN_BENCH_FAST").is_some() { 1 } else { 3 };
        for _ in 0..runs {
            let t0 = Instant::now();
            let photo = Photo::load(&jpg).expect("photo");
            let t1 = Instant::now();
            let s = scan(&photo, &profile, Some(&roster), Some(&k)).expect("scan");
            let t2 = Instant::now();
            loads.push((t1 - t0).as_secs_f64() * 1e3);
            scans.push((t2 - t1).as_secs_f64() * 1e3);
            result = Some(s);
        }
        let calibrated = compare(&result.expect("scan").table, &truth);
        // The fallback without a camera file, measured even where the profile's default
        // limits would refuse the photo (the table says which were refused).
        let photo = Photo::load(&jpg).expect("photo");
        let t_fallback = Instant::now();
        let mut lenient = profile.clone();
        lenient.limits.max_residual_px = 1e6;
        lenient.limits.max_residual_mm = 1e6;
        let fallback_scan = scan(&photo, &lenient, Some(&roster), None);
        let fallback_ms = t_fallback.elapsed().as_secs_f64() * 1e3;
        // SCAN_BENCH_REPEAT=n: the scan without a camera file n times more, each
        // compared with the first (the self-calibration must be deterministic).
        let repeat: usize = std::env::var("SCAN_BENCH_REPEAT").ok().and_then(|v| v.parse().ok()).unwrap_or(0);
        for run in 0..repeat {
            let again = scan(&photo, &lenient, Some(&roster), None);
            let same = match (&fallback_scan, &again) {
                (Ok(a), Ok(b)) => {
                    a.table == b.table
                        && a.report.camera == b.report.camera
                        && a.report.issues == b.report.issues
                }
                (Err(a), Err(b)) => a.to_string() == b.to_string(),
                _ => false,
            };
            let focal = |s: &Result<vedette_vision::Scan, _>| {
                s.as_ref().ok().and_then(|s| s.report.camera.focal_px).unwrap_or(f64::NAN)
            };
            eprintln!(
                "{name}: repeat {} without camera file: {} (focal {:.1} px, first {:.1} px)",
                run + 1,
                if same { "identical" } else { "DIFFERENT" },
                focal(&again),
                focal(&fallback_scan)
            );
        }
        let (fallback, fallback_model) = match fallback_scan {
            Ok(s) => {
                let refused = s.fit.check_limits(&profile).is_err();
                let model = format!(
                    "{:?}, residual {:.2} px / {:.2} mm, focal {:.0} px (truth {:.0}), k1 {:.4} k2 {:.4}, p1 {:.5} p2 {:.5} (truth {:.5} {:.5}), tilt {:.1}°{}{}{}",
                    s.report.camera.model,
                    s.report.camera.residual_px,
                    s.report.camera.residual_mm,
                    s.report.camera.focal_px.unwrap_or(f64::NAN),
                    k.fx,
                    s.fit.model.intrinsics().and_then(|i| i.distortion.first().copied()).unwrap_or(f64::NAN),
                    s.fit.model.intrinsics().and_then(|i| i.distortion.get(1).copied()).unwrap_or(f64::NAN),
                    s.fit.model.intrinsics().and_then(|i| i.distortion.get(2).copied()).unwrap_or(f64::NAN),
                    s.fit.model.intrinsics().and_then(|i| i.distortion.get(3).copied()).unwrap_or(f64::NAN),
                    k.distortion.get(2).copied().unwrap_or(f64::NAN),
                    k.distortion.get(3).copied().unwrap_or(f64::NAN),
                    s.report.camera.tilt_deg.unwrap_or(f64::NAN),
                    if refused { " (refused at default limits)" } else { "" },
                    if s.report.issues.is_empty() {
                        String::new()
                    } else {
                        format!(", {} issues", s.report.issues.len())
                    },
                    s.report
                        .issues
                        .iter()
                        .filter_map(|i| match i {
                            ScanIssue::FocalLengthUnknown { focal_px, spread_mm, .. } => Some(format!(
                                " (focal length unknown: {:.0}-{:.0} px fit alike, bases up to {spread_mm:.1} mm apart)",
                                focal_px[0], focal_px[1]
                            )),
                            ScanIssue::OverexposedPaper { fiducials, of, tags, of_tags } => Some(format!(
                                " (overexposed paper: {} of {of} fiducials, {tags} of {of_tags} tags)",
                                fiducials.len()
                            )),
                            _ => None,
                        })
                        .collect::<String>()
                );
                (compare(&s.table, &truth), model)
            }
            Err(e) => (
                Accuracy { truth_bases: truth.camera.tags.len(), ..Accuracy::default() },
                format!("failed: {e}"),
            ),
        };
        let row = Row {
            name,
            shot,
            calibrated,
            fallback,
            fallback_model,
            k1: k.distortion.first().copied().unwrap_or(0.0),
            load_ms: quantile(&loads, 0.5),
            scan_ms: quantile(&scans, 0.5),
            fallback_ms,
        };
        eprintln!(
            "{}: recall {:.4} precision {:.4} pos median {:.3} p95 {:.3} mm, heading median {:.3}°, load {:.0} ms + scan {:.0} ms; without camera file: recall {:.4} pos median {:.3} p95 {:.3} mm, heading median {:.3}°, within 2.45σ {:.1}%, σ median {:.3} mm, scan {:.0} ms, {}",
            row.name,
            row.calibrated.recall(),
            row.calibrated.precision(),
            quantile(&row.calibrated.position_mm, 0.5),
            quantile(&row.calibrated.position_mm, 0.95),
            quantile(&row.calibrated.heading_deg, 0.5),
            row.load_ms,
            row.scan_ms,
            row.fallback.recall(),
            quantile(&row.fallback.position_mm, 0.5),
            quantile(&row.fallback.position_mm, 0.95),
            quantile(&row.fallback.heading_deg, 0.5),
            100.0 * row.fallback.within_sigmas(2.45),
            quantile(&row.fallback.sigma_mm, 0.5),
            row.fallback_ms,
            row.fallback_model
        );
        rows.push(row);
    }
    let report = report(&rows);
    println!("{report}");
    std::fs::write(dir.join("report.md"), &report).expect("write report");
}

fn summary_line(label: &str, a: &Accuracy, times: &[f64]) -> String {
    format!(
        "| {label} | {} | {} | {:.2}% | {:.2}% | {:.3} | {:.3} | {:.3} | {:.3} | {:.3} | {:.1}% | {:.3} / {:.1} | {} |\n",
        a.truth_bases,
        a.scanned_bases,
        100.0 * a.recall(),
        100.0 * a.precision(),
        quantile(&a.position_mm, 0.5),
        quantile(&a.position_mm, 0.95),
        max(&a.position_mm),
        quantile(&a.heading_deg, 0.5),
        quantile(&a.heading_deg, 0.95),
        100.0 * a.within_sigmas(2.45),
        quantile(&a.sigma_mm, 0.5),
        a.sigma_over_error(),
        if times.is_empty() {
            "-".to_string()
        } else {
            format!("{:.0} / {:.0}", quantile(times, 0.5), max(times))
        }
    )
}

/// Selects the photos of one line of the summary.
type Filter = Box<dyn Fn(&Row) -> bool>;

fn report(rows: &[Row]) -> String {
    let header = "| photos | truth bases | scanned | recall | precision | pos median mm | pos p95 mm | pos max mm | heading median ° | heading p95 ° | within 2.45σ | σ median mm / over error median | load+scan ms median / max |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";
    let mut s = String::from("### Calibrated camera (profile + camera file)\n\n");
    s.push_str(header);
    let mp12 = |r: &Row| r.shot.resolution == Resolution::MP12;
    let extra = |r: &Row| r.shot.extra != Extra::None;
    let mp12 = move |r: &Row| mp12(r) && !extra(r);
    let groups: [(&str, Filter); 12] = [
        ("12 MP (targets)", Box::new(mp12)),
        (
            "12 MP, near edge, barrel",
            Box::new(move |r: &Row| mp12(r) && r.shot.edge == Edge::Near && !r.shot.pincushion),
        ),
        (
            "12 MP, near edge, pincushion",
            Box::new(move |r: &Row| mp12(r) && r.shot.edge == Edge::Near && r.shot.pincushion),
        ),
        (
            "12 MP, far edge, barrel",
            Box::new(move |r: &Row| mp12(r) && r.shot.edge == Edge::Far && !r.shot.pincushion),
        ),
        (
            "12 MP, far edge, pincushion",
            Box::new(move |r: &Row| mp12(r) && r.shot.edge == Edge::Far && r.shot.pincushion),
        ),
        ("12 MP, tilt 20-30°", Box::new(move |r: &Row| mp12(r) && r.shot.tilt_deg >= 20.0)),
        ("12 MP portrait", Box::new(|r: &Row| r.shot.extra == Extra::Portrait)),
        ("12 MP, six fiducials", Box::new(|r: &Row| r.shot.extra == Extra::SixFiducials)),
        ("8 MP", Box::new(|r: &Row| r.shot.resolution == Resolution::MP8)),
        ("16 MP", Box::new(|r: &Row| r.shot.resolution == Resolution::MP16)),
        ("24 MP", Box::new(|r: &Row| r.shot.resolution == Resolution::MP24)),
        ("all", Box::new(|_: &Row| true)),
    ];
    for (label, keep) in &groups {
        let sel: Vec<&Row> = rows.iter().filter(|r| keep(r)).collect();
        if sel.is_empty() {
            continue;
        }
        let acc = Accuracy::merge(&sel.iter().map(|r| r.calibrated.clone()).collect::<Vec<_>>());
        let times: Vec<f64> = sel.iter().map(|r| r.load_ms + r.scan_ms).collect();
        s.push_str(&summary_line(&format!("{label}: {}", sel.len()), &acc, &times));
    }
    s.push_str("\n### No camera file (self-calibration; time: scan only, one run)\n\n");
    s.push_str(header);
    for (label, keep) in &groups {
        let sel: Vec<&Row> = rows.iter().filter(|r| keep(r)).collect();
        if sel.is_empty() {
            continue;
        }
        let acc = Accuracy::merge(&sel.iter().map(|r| r.fallback.clone()).collect::<Vec<_>>());
        let times: Vec<f64> = sel.iter().map(|r| r.fallback_ms).collect();
        s.push_str(&summary_line(&format!("{label}: {}", sel.len()), &acc, &times));
    }
    s.push_str("\n### Per photo (calibrated, then without camera file)\n\n| photo | bases | tilt ° | k1 | recall | precision | pos median / p95 / max mm | heading median / p95 ° | load ms | scan ms | without camera file: recall, pos median / p95 mm, scan ms | model |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for r in rows {
        let a = &r.calibrated;
        let f = &r.fallback;
        s.push_str(&format!(
            "| {} | {} | {} | {:+.3} | {:.2}% | {:.2}% | {:.3} / {:.3} / {:.3} | {:.3} / {:.3} | {:.0} | {:.0} | {:.2}%, {:.3} / {:.3}, {:.0} | {} |\n",
            r.name,
            a.truth_bases,
            r.shot.tilt_deg,
            r.k1,
            100.0 * a.recall(),
            100.0 * a.precision(),
            quantile(&a.position_mm, 0.5),
            quantile(&a.position_mm, 0.95),
            max(&a.position_mm),
            quantile(&a.heading_deg, 0.5),
            quantile(&a.heading_deg, 0.95),
            r.load_ms,
            r.scan_ms,
            100.0 * f.recall(),
            quantile(&f.position_mm, 0.5),
            quantile(&f.position_mm, 0.95),
            r.fallback_ms,
            r.fallback_model
        ));
    }
    s
}
