//! Issue 37: untagged bases found by fitting rectangles of their roster size, against
//! the truth, per renderer: the second renderer's untagged photos
//! (`../shared/renders/untagged-*`, when present) and vedette-synth's untagged renders.
//!
//! ```text
//! cargo bench --bench scan_untagged                  # every photo
//! UNTAGGED_ONLY=305 cargo bench --bench scan_untagged   # photos whose name holds 305
//! UNTAGGED_CRITERION=1 UNTAGGED_ONLY=306 cargo bench --bench scan_untagged
//!     # criterion: the whole scan of each chosen second-renderer photo, 10 samples
//! UNTAGGED_UNPAINTED=1 cargo bench --bench scan_untagged
//!     # each photo scanned again with the roster's paints left out (issue 37)
//! UNTAGGED_BACKGROUND=1 cargo bench --bench scan_untagged
//!     # each vedette-synth photo scanned again with its empty table's photo
//!     # (`--background`; rendered once into NAME-empty.jpg beside it; the second
//!     # renderer has no photos of its empty tables)
//! UNTAGGED_TRAIN=1 VEDETTE_FIT_DEBUG=1 cargo bench --bench scan_untagged 2> train.log
//!     # the training shots instead (`untagged::training_shots`, disjoint from the
//!     # bench's; no second-renderer photo), read by `benches/untagged_ranker.py`
//! ```
//!
//! Each photo's line gives the scorer's summary and where its true bases went
//! (`losses`: right / given to a twin / under another unit's formation / its unit
//! found elsewhere or more than 5 mm or 5° off / nothing fitted).

#[path = "../tests/common/renders.rs"]
mod renders;
#[allow(dead_code)]
#[path = "../tests/common/surface.rs"]
mod surface;
#[path = "../tests/common/truth.rs"]
mod truth;
#[path = "../tests/common/untagged.rs"]
mod untagged;

use std::path::{Path, PathBuf};
use std::time::Instant;
use untagged::{UntaggedAccuracy, compare_untagged, losses, missed, shared_untagged, unpainted, wrong_units};
use vedette_vision::{Photo, draw_overlay, encode_image, scan};

fn main() {
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out: PathBuf = root.join("target/untagged-bench");
    std::fs::create_dir_all(&out).expect("bench dir");
    let only = std::env::var("UNTAGGED_ONLY").ok();
    if std::env::var_os("UNTAGGED_CRITERION").is_some() {
        let mut c = criterion::Criterion::default()
            .sample_size(10)
            .measurement_time(std::time::Duration::from_secs(60));
        let mut g = c.benchmark_group("untagged scan, 12 MP, camera known");
        for s in shared_untagged() {
            if only.as_ref().is_some_and(|o| !s.name.contains(o.as_str())) {
                continue;
            }
            let (photo, profile, roster, k) = (s.photo(), s.profile(), s.roster(), s.intrinsics());
            g.bench_function(&s.name, |b| {
                b.iter(|| {
                    std::hint::black_box(
                        scan(&photo, &profile, Some(&roster), Some(&k)).map(|r| r.table.base_count()),
                    )
                })
            });
        }
        g.finish();
        c.final_summary();
        return;
    }
    let unpainted_too = std::env::var_os("UNTAGGED_UNPAINTED").is_some();
    let background_too = std::env::var_os("UNTAGGED_BACKGROUND").is_some();
    let (mut own_empty, mut own_empty_lost) = (Vec::new(), [0; 5]);
    let add = |to: &mut [usize; 5], l: [usize; 5]| to.iter_mut().zip(l).for_each(|(a, b)| *a += b);
    let (mut shared_lost, mut shared_bare_lost, mut own_lost, mut own_bare_lost) =
        ([0; 5], [0; 5], [0; 5], [0; 5]);
    let (mut shared_bare, mut own_bare) = (Vec::new(), Vec::new());
    let mut shared = Vec::new();
    let (mut shared_wrong, mut own_wrong) = ((0, 0), (0, 0));
    let train = std::env::var_os("UNTAGGED_TRAIN").is_some();
    for s in shared_untagged() {
        if train {
            break;
        }
        if only.as_ref().is_some_and(|o| !s.name.contains(o.as_str())) {
            continue;
        }
        let photo = s.photo();
        let profile = s.profile();
        let t = Instant::now();
        let result = scan(&photo, &profile, Some(&s.roster()), Some(&s.intrinsics())).expect("scan");
        let ms = t.elapsed().as_secs_f64() * 1e3;
        let acc = compare_untagged(&result.table, &s.truth);
        let lost = losses(&result.table, &s.truth);
        eprintln!(
            "{}: {} in {ms:.0} ms (fitting {:.0} ms); losses {lost:?}",
            s.name,
            acc.summary(),
            result.report.timing_ms.fitting
        );
        add(&mut shared_lost, lost);
        if unpainted_too {
            let bare =
                scan(&photo, &profile, Some(&unpainted(&s.roster())), Some(&s.intrinsics())).expect("scan");
            let (a, l) = (compare_untagged(&bare.table, &s.truth), losses(&bare.table, &s.truth));
            eprintln!("  paints left out: {}; losses {l:?}", a.summary());
            add(&mut shared_bare_lost, l);
            shared_bare.push(a);
        }
        eprintln!("  missed: {}", missed(&result.table, &s.truth).join(", "));
        let (wrong, unsaid) = wrong_units(&result.table, &s.truth, &result.report.issues);
        eprintln!("  on another unit's bases: {wrong}, not reported ambiguous: {unsaid:?}");
        shared_wrong = (shared_wrong.0 + wrong, shared_wrong.1 + unsaid.len());
        for i in &result.report.issues {
            if !matches!(i, vedette_vision::ScanIssue::AssumedFacing { .. }) {
                eprintln!("  {}", i.describe());
            }
        }
        std::fs::write(out.join(format!("{}.scan.json", s.name)), result.table.to_json_string())
            .expect("write scan");
        let overlay = draw_overlay(&photo, &result, &profile).expect("overlay");
        std::fs::write(
            out.join(format!("{}-overlay.jpg", s.name)),
            encode_image(&overlay, Path::new("overlay.jpg")).expect("jpg"),
        )
        .expect("write overlay");
        shared.push(acc);
    }
    if !shared.is_empty() {
        eprintln!(
            "second renderer, all: {}; losses {shared_lost:?}; on another unit's bases {} (not reported ambiguous {})",
            UntaggedAccuracy::merge(&shared).summary(),
            shared_wrong.0,
            shared_wrong.1
        );
    }
    if !shared_bare.is_empty() {
        eprintln!(
            "second renderer, paints left out: {}; losses {shared_bare_lost:?}",
            UntaggedAccuracy::merge(&shared_bare).summary()
        );
    }
    let default = vedette_vision::Profile::load(root.join("calibration/default.toml")).expect("profile");
    let mut own = Vec::new();
    let shots = if train { untagged::training_shots() } else { untagged::untagged_shots() };
    for shot in shots {
        let name = shot.name();
        if only.as_ref().is_some_and(|o| !name.contains(o.as_str())) {
            continue;
        }
        let t = Instant::now();
        let name = shot.ensure_rendered(&out);
        eprintln!("{name}: rendered in {:.0} s", t.elapsed().as_secs_f64());
        let roster = shot.roster(&out, &name);
        let k = truth::Truth::load(&out, &name).intrinsics();
        let truth = vedette_geometry::Table::load(out.join(format!("{name}.table.json"))).expect("truth");
        let mut profile = default.clone();
        profile.terrain.clear();
        profile.markers.find = false;
        let photo = Photo::load(out.join(format!("{name}.jpg"))).expect("photo");
        let t = Instant::now();
        let result = scan(&photo, &profile, Some(&roster), Some(&k)).expect("scan");
        let ms = t.elapsed().as_secs_f64() * 1e3;
        let acc = compare_untagged(&result.table, &truth);
        let lost = losses(&result.table, &truth);
        eprintln!(
            "{name}: {} in {ms:.0} ms (fitting {:.0} ms); losses {lost:?}",
            acc.summary(),
            result.report.timing_ms.fitting
        );
        add(&mut own_lost, lost);
        if unpainted_too {
            let bare = scan(&photo, &profile, Some(&unpainted(&roster)), Some(&k)).expect("scan");
            let (a, l) = (compare_untagged(&bare.table, &truth), losses(&bare.table, &truth));
            eprintln!("  paints left out: {}; losses {l:?}", a.summary());
            add(&mut own_bare_lost, l);
            own_bare.push(a);
        }
        if background_too {
            let t = Instant::now();
            let empty = Photo::load(shot.ensure_empty_rendered(&out)).expect("empty photo");
            eprintln!("  empty table rendered in {:.0} s", t.elapsed().as_secs_f64());
            let t = Instant::now();
            let with = untagged::scan_against_empty(&photo, &profile, &roster, &k, Some(&empty));
            let ms = t.elapsed().as_secs_f64() * 1e3;
            let (a, l) = (compare_untagged(&with.table, &truth), losses(&with.table, &truth));
            eprintln!("  with the empty table: {} in {ms:.0} ms; losses {l:?}", a.summary());
            eprintln!("  missed with the empty table: {}", missed(&with.table, &truth).join(", "));
            add(&mut own_empty_lost, l);
            own_empty.push(a);
        }
        eprintln!("  missed: {}", missed(&result.table, &truth).join(", "));
        let (wrong, unsaid) = wrong_units(&result.table, &truth, &result.report.issues);
        eprintln!("  on another unit's bases: {wrong}, not reported ambiguous: {unsaid:?}");
        own_wrong = (own_wrong.0 + wrong, own_wrong.1 + unsaid.len());
        std::fs::write(out.join(format!("{name}.scan.json")), result.table.to_json_string())
            .expect("write scan");
        let overlay = draw_overlay(&photo, &result, &profile).expect("overlay");
        std::fs::write(
            out.join(format!("{name}-overlay.jpg")),
            encode_image(&overlay, Path::new("o.jpg")).expect("jpg"),
        )
        .expect("write overlay");
        own.push(acc);
    }
    if !own.is_empty() {
        eprintln!(
            "vedette-synth, all: {}; losses {own_lost:?}; on another unit's bases {} (not reported ambiguous {})",
            UntaggedAccuracy::merge(&own).summary(),
            own_wrong.0,
            own_wrong.1
        );
    }
    if !own_bare.is_empty() {
        eprintln!(
            "vedette-synth, paints left out: {}; losses {own_bare_lost:?}",
            UntaggedAccuracy::merge(&own_bare).summary()
        );
    }
    if !own_empty.is_empty() {
        eprintln!(
            "vedette-synth, with the empty table: {}; losses {own_empty_lost:?}",
            UntaggedAccuracy::merge(&own_empty).summary()
        );
    }
}
