//! Criterion bench (issue 22): what `vedette serve` computes per request on the
//! 2,000-base grand battle sample. Reading the findings (`GET /api/report`,
//! `/api/plan.svg`, `/api/bases`) serves text computed when the table last changed; a
//! correction (`POST /api/corrections`) recomputes it all: the corrected table
//! (validated), its report (JSON and text), its plan and its base list. Measuring and
//! line of sight (`POST /api/measure`, `/api/los`) answer on the current table.
//! Target: at most 50 ms per request.
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
    g.bench_function("a correction, recomputed (POST /api/corrections)", |bench| {
        bench.iter(|| {
            let corrected = apply(black_box(&table), &moved).unwrap_or_else(|e| panic!("{e}"));
            black_box(Derived::of(corrected, None).map(|d| d.report_json.len()))
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
