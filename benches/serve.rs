//! Criterion bench (issue 22): what `vedette serve` computes per request on the
//! 2,000-base grand battle sample. Reading the findings (`GET /api/report`,
//! `/api/bases`) serves text computed when the table last changed; a correction
//! (`POST /api/corrections`) recomputes it: the corrected table (validated), its report
//! (JSON and text), its base list and its JSON; its plan is drawn once it is shown
//! (after the answer), and `GET /api/plan.svg` waits for it. Measuring and line of sight (`POST /api/measure`,
//! `/api/los`) answer on the current table. Target: at most 50 ms per request.
//!
//! Not timed: HTTP and JSON parsing of the request (microseconds), and the corrections
//! file a correction writes (a few hundred bytes, atomically).
//!
//! Applying a corrections file (at every start, and `vedette scan --corrections`):
//! 20,000 and 200,000 flips over the grand battle's bases, and 20,000 and 200,000
//! bases added to one unit (issue 41 item 5: 9.3 s and 87 s for the flips before).
//!
//! Run: `cargo bench --bench serve`.

/// The allocator of the `vedette` binary, whose work this bench times.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::{Duration, Instant};
use vedette::commands::serve::corrections::{Correction, apply, apply_all, long_files};
use vedette::commands::serve::drawing::Drawer;
use vedette::commands::serve::session::Derived;
use vedette::commands::{los, measure};
use vedette_geometry::Table;

fn grand_battle() -> Table {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/grand-battle.json");
    Table::load(path).unwrap_or_else(|e| panic!("{e}"))
}

fn bench(c: &mut Criterion) {
    let table = grand_battle();
    let base = table.base_label(vedette_geometry::BaseRef::new(0, 0));
    let centre = table.units[0].bases[0].centre();
    let moved = Correction::Move { base, x: centre.x + 1.0, y: centre.y };
    let (a, b) = (table.units[0].id.clone(), table.units[table.units.len() - 1].id.clone());
    let mut g = c.benchmark_group("serve, grand battle (2000 bases)");
    g.sample_size(10);
    // A correction is answered once its report is computed; its plan is drawn on a
    // thread of its own once the new findings are shown (here: once it is answered),
    // and waited for by `GET /api/plan.svg`. Each timing waits for the plan before the
    // next correction, so that no drawing runs into the next one's timing.
    let drawer = Drawer::new();
    let correct = || {
        let corrected = apply(black_box(&table), &moved).unwrap_or_else(|e| panic!("{e}"));
        Derived::of(corrected, None).unwrap_or_else(|e| panic!("{e}"))
    };
    let plan_len = |d: &Derived| {
        drawer.start(&d.drawing);
        d.drawing.wait().map(|p| p.plan_svg.len()).unwrap_or_else(|e| panic!("{e}"))
    };
    g.bench_function("a correction, answered (POST /api/corrections)", |bench| {
        bench.iter_custom(|iters| {
            let mut spent = Duration::ZERO;
            for _ in 0..iters {
                let start = Instant::now();
                let d = correct();
                spent += start.elapsed();
                black_box((d.report_json.len(), plan_len(&d)));
            }
            spent
        })
    });
    g.bench_function("its plan, once the correction is answered (GET /api/plan.svg)", |bench| {
        bench.iter_custom(|iters| {
            let mut spent = Duration::ZERO;
            for _ in 0..iters {
                let d = correct();
                let start = Instant::now();
                black_box(plan_len(&d));
                spent += start.elapsed();
            }
            spent
        })
    });
    g.bench_function("a correction and its plan", |bench| {
        bench.iter(|| {
            let d = correct();
            black_box((d.report_json.len(), plan_len(&d)))
        })
    });
    g.bench_function("measure (POST /api/measure)", |bench| {
        bench.iter(|| black_box(measure::measure(black_box(&table), &a, &b).is_ok()))
    });
    g.bench_function("line of sight (POST /api/los)", |bench| {
        bench.iter(|| black_box(los::line_of_sight(black_box(&table), &a, &b).is_ok()))
    });
    g.finish();
}

/// Applying a corrections file: flips over every base in turn, and bases added to one
/// unit.
fn corrections(c: &mut Criterion) {
    let table = grand_battle();
    let file = std::path::Path::new("bench.corrections.json");
    let mut g = c.benchmark_group("corrections applied, grand battle (2000 bases)");
    g.sample_size(10);
    for n in [20_000, 200_000] {
        let (flips, adds) = long_files(&table, n);
        g.bench_function(format!("{n} flips"), |bench| {
            bench.iter(|| black_box(apply_all(&table, black_box(&flips), file).map(|t| t.base_count())))
        });
        g.bench_function(format!("{n} adds to one unit"), |bench| {
            bench.iter(|| black_box(apply_all(&table, black_box(&adds), file).map(|t| t.base_count())))
        });
    }
    g.finish();
}

criterion_group!(benches, bench, corrections);
criterion_main!(benches);
