//! Criterion bench (issue 22): what `vedette serve` computes per request on the
//! 2,000-base grand battle sample. Reading the findings (`GET /api/report`,
//! `/api/bases`) serves text computed when the table last changed; a correction
//! (`POST /api/corrections`) recomputes it: the corrected table (validated), its report
//! (JSON and text) and its base list, and starts drawing its plan, which
//! `GET /api/plan.svg` waits for. Measuring and line of sight (`POST /api/measure`,
//! `/api/los`) answer on the current table. Target: at most 50 ms per request.
//!
//! Not timed: HTTP and JSON parsing of the request (microseconds), and the corrections
//! file a correction writes (a few hundred bytes, atomically).
//!
//! Run: `cargo bench --bench serve`.

/// The allocator of the `vedette` binary, whose work this bench times.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::{Duration, Instant};
use vedette::commands::serve::corrections::{Correction, apply};
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
    // thread of its own, beside the report's texts and after them, and waited for by
    // `GET /api/plan.svg`. Each timing waits for the plan before the next correction,
    // so that no drawing runs into the next one's timing.
    let correct = || {
        let corrected = apply(black_box(&table), &moved).unwrap_or_else(|e| panic!("{e}"));
        Derived::of(corrected, None).unwrap_or_else(|e| panic!("{e}"))
    };
    let plan_len = |d: &Derived| d.drawing.wait().map(|p| p.plan_svg.len()).unwrap_or_else(|e| panic!("{e}"));
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

criterion_group!(benches, bench);
criterion_main!(benches);
