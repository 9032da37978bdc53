//! The full artillery report for the 2,000-base grand battle (issue 4): every battery's
//! frontage, clear swings, targets with line of sight, main target, deep, enfilade,
//! secondary targets and unlimber check. Target: under 5 ms.
//!
//! Line of sight is the terrain-aware model the report uses ([`TerrainSight`]).
//! `assess_artillery` is the geometry alone (the spatial index built outside the timed
//! loop, as a report builds it once for every section); `report_section` is what
//! `vedette report` runs for the section, index and JSON-ready entries included.

/// The allocator of the `vedette` binary, whose work this bench times.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::path::PathBuf;
use vedette::commands::report::artillery::artillery_section;
use vedette_geometry::los::TerrainSight;
use vedette_geometry::{ArtilleryRules, Battlefield, SpatialIndex, Table, TerrainOutlines, assess_artillery};

fn grand_battle() -> Table {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("samples/grand-battle.json");
    Table::load(&path).unwrap_or_else(|e| panic!("{e}"))
}

fn artillery(c: &mut Criterion) {
    let table = grand_battle();
    let index = SpatialIndex::new(&table);
    let rules = ArtilleryRules::for_table(&table).unwrap_or_else(|e| panic!("{e}"));
    let los = TerrainSight::try_new(&index).unwrap_or_else(|e| panic!("{e}"));
    let field = Battlefield {
        table: &table,
        index: &index,
        rules: &rules,
        line_of_sight: &los,
        ground: &TerrainOutlines,
    };
    let mut g = c.benchmark_group("artillery grand battle (2000 bases, 125 batteries, 40 terrain features)");
    g.bench_function("assess_artillery", |b| b.iter(|| black_box(assess_artillery(black_box(&field)))));
    // The report section as `vedette report` runs it: the index and the sight model built,
    // then the section.
    g.bench_function("report_section", |b| {
        b.iter(|| {
            let t = black_box(&table);
            let index = SpatialIndex::new(t);
            let los = TerrainSight::try_new(&index).unwrap_or_else(|e| panic!("{e}"));
            black_box(artillery_section(t, &index, &los).map(|s| s.map(|v| v.len())))
        })
    });
    g.finish();
}

criterion_group!(benches, artillery);
criterion_main!(benches);
