//! Spatial index benches (issue 2): "all base pairs within 1 inch" and "nearest enemy
//! for every base" on the 2,000-base sample, each beside a brute-force O(n²) baseline run
//! in the same bench, and the index at 20,000 and 100,000 bases to show near-linear
//! growth (generated at the sample's density with the same generator).
//!
//! Run: `cargo bench --bench index`. Results are written up in BENCHMARKS.md.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use vedette::generate::{BattleSpec, grand_battle};
use vedette_geometry::index::brute;
use vedette_geometry::{MM_PER_INCH, SpatialIndex, Table};

fn sample() -> Table {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/grand-battle.json");
    match Table::load(&path) {
        Ok(t) => t,
        Err(e) => panic!("cannot load {}: {e}", path.display()),
    }
}

fn pairs_within_inch(c: &mut Criterion) {
    let mut g = c.benchmark_group("pairs_within_1in");
    let table = sample();
    let n = table.base_count();
    g.throughput(Throughput::Elements(n as u64));
    let index = SpatialIndex::new(&table);
    g.bench_with_input(BenchmarkId::new("index_query", n), &index, |b, index| {
        b.iter(|| black_box(index.pairs_within(MM_PER_INCH)).len())
    });
    g.bench_with_input(BenchmarkId::new("index_build_and_query", n), &table, |b, t| {
        b.iter(|| black_box(SpatialIndex::new(t).pairs_within(MM_PER_INCH)).len())
    });
    g.sample_size(10);
    g.bench_with_input(BenchmarkId::new("brute_force", n), &table, |b, t| {
        b.iter(|| black_box(brute::pairs_within(t, MM_PER_INCH)).len())
    });
    g.finish();
}

fn nearest_enemy_all(c: &mut Criterion) {
    let mut g = c.benchmark_group("nearest_enemy_every_base");
    let table = sample();
    let n = table.base_count();
    g.throughput(Throughput::Elements(n as u64));
    let refs: Vec<_> = table.bases().map(|(r, _)| r).collect();
    let index = SpatialIndex::new(&table);
    g.bench_function(BenchmarkId::new("index", n), |b| {
        b.iter(|| refs.iter().filter_map(|&r| index.nearest_enemy(r)).count())
    });
    g.sample_size(10);
    g.bench_function(BenchmarkId::new("brute_force", n), |b| {
        b.iter(|| refs.iter().filter_map(|&r| brute::nearest_enemy(&table, r)).count())
    });
    g.finish();
}

fn growth(c: &mut Criterion) {
    let mut g = c.benchmark_group("growth");
    g.sample_size(10);
    for n in [2_000usize, 20_000, 100_000] {
        let table = grand_battle(&BattleSpec::with_bases(n, 1805));
        let bases = table.base_count();
        g.throughput(Throughput::Elements(bases as u64));
        g.bench_with_input(BenchmarkId::new("pairs_within_1in_build_and_query", bases), &table, |b, t| {
            b.iter(|| black_box(SpatialIndex::new(t).pairs_within(MM_PER_INCH)).len())
        });
        let index = SpatialIndex::new(&table);
        let refs: Vec<_> = table.bases().map(|(r, _)| r).collect();
        g.bench_with_input(BenchmarkId::new("nearest_enemy_every_base", bases), &refs, |b, refs| {
            b.iter(|| refs.iter().filter_map(|&r| index.nearest_enemy(r)).count())
        });
    }
    g.finish();
}

criterion_group!(benches, pairs_within_inch, nearest_enemy_all, growth);
criterion_main!(benches);
