//! Criterion bench (issue 5): every assault contact and aspect on the 2,000-base grand
//! battle sample (its front lines stand 0.4-5" apart, so many assaults exist). See
//! BENCHMARKS.md, which also compares `benches/assault_shapely.py` on the same scene.
//!
//! Run: `cargo bench --bench assault`.

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use vedette_geometry::{AssaultDetail, SpatialIndex, Table, assaults};

fn grand_battle() -> Table {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/grand-battle.json");
    Table::load(path).unwrap_or_else(|e| panic!("{e}"))
}

fn bench(c: &mut Criterion) {
    for (name, table) in [("grand-battle", grand_battle())] {
        let book = table.rule_book().unwrap_or_else(|e| panic!("{e}"));
        let index = SpatialIndex::new(&table);
        let all = assaults(&table, &index, &book, AssaultDetail::ContactsAndAspects)
            .unwrap_or_else(|e| panic!("{e}"));
        let mut aspects = std::collections::BTreeMap::new();
        for a in &all {
            *aspects.entry(format!("{:?}", a.aspect.aspect).to_lowercase()).or_insert(0) += 1;
        }
        eprintln!("{name}: {} bases, {} assault contacts {aspects:?}", table.base_count(), all.len());
        c.bench_function(&format!("assault contacts and aspects, {name} (index built)"), |b| {
            b.iter(|| {
                black_box(
                    assaults(black_box(&table), &index, &book, AssaultDetail::ContactsAndAspects)
                        .map(|a| a.len()),
                )
            })
        });
        c.bench_function(&format!("assault contacts and aspects, {name} (with index build)"), |b| {
            b.iter(|| {
                let index = SpatialIndex::new(black_box(&table));
                black_box(assaults(&table, &index, &book, AssaultDetail::ContactsAndAspects).map(|a| a.len()))
            })
        });
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
