//! Criterion bench (issue 21): drawing the full report plan of the 2,000-base grand
//! battle sample: the scene of every finding (arcs, zones, targets, deep windows,
//! enfilade, assault zones and contacts, flank and rear lines, deployment areas,
//! leaders' reaches, skirmisher spacing, close calls) and its SVG document, from the
//! report's assessments (computed once outside the timed loop, as `vedette report
//! --plan` computes them once for the text and the plan); and what `vedette report
//! --plan` writes by default (issue 39): the scene kept to the decisive findings, with
//! its numbered callouts and key. Target: at most 100 ms.
//!
//! Run: `cargo bench --bench draw_plan`.

/// The allocator of the `vedette` binary, whose work this bench times.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use vedette::commands::report::{Stages, build_timed, plan_scene, plan_svg};
use vedette_geometry::{SpatialIndex, Table};

fn grand_battle() -> Table {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/grand-battle.json");
    Table::load(path).unwrap_or_else(|e| panic!("{e}"))
}

fn bench(c: &mut Criterion) {
    let table = grand_battle();
    let (_, findings) = build_timed(&table, &mut Stages::default()).unwrap_or_else(|e| panic!("{e}"));
    let svg = plan_svg(&table, &findings).unwrap_or_else(|e| panic!("{e}"));
    let book = table.rule_book().unwrap_or_else(|e| panic!("{e}"));
    let index = SpatialIndex::new(&table);
    let scene = vedette_draw::report_scene(&table, &index, &book, &findings.for_drawing())
        .unwrap_or_else(|e| panic!("{e}"));
    let elements: usize = scene.layers().iter().map(|l| l.elements.len()).sum();
    eprintln!("grand-battle: {} bases, {elements} elements, {} bytes of SVG", table.base_count(), svg.len());
    let mut g = c.benchmark_group("draw plan, grand battle (2000 bases)");
    g.bench_function("report plan, decisive findings (report --plan)", |b| {
        b.iter(|| {
            let mut scene = plan_scene(black_box(&table), &findings).unwrap_or_else(|e| panic!("{e}"));
            vedette_draw::choose_layers(
                &mut scene,
                &table,
                &findings.for_drawing(),
                &vedette_draw::LayerChoice::Decisive,
            );
            black_box(vedette_draw::plan_svg(&scene).map(|s| s.len()))
        })
    });
    g.bench_function("report plan, every finding (--layers all: scene + SVG)", |b| {
        b.iter(|| black_box(plan_svg(black_box(&table), &findings).map(|s| s.len())))
    });
    g.bench_function("scene only", |b| {
        b.iter(|| {
            black_box(
                vedette_draw::report_scene(black_box(&table), &index, &book, &findings.for_drawing())
                    .map(|s| s.layers().len()),
            )
        })
    });
    g.bench_function("SVG of the scene", |b| {
        b.iter(|| black_box(vedette_draw::plan_svg(black_box(&scene)).map(|s| s.len())))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
