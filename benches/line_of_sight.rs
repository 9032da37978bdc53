//! Line of sight from every battery to every enemy unit on the 2,000-base sample
//! (issue 6): the terrain-aware model, with units, 40 terrain features and the
//! Republique 5.0 rules. Target: under 20 ms for the whole table.

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::path::PathBuf;
use vedette_geometry::los::TerrainSight;
use vedette_geometry::{SpatialIndex, Table, UnitKind};

fn grand_battle() -> Table {
    Table::load(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("samples/grand-battle.json")).unwrap()
}

/// The skirmish sample with its terrain replaced by ten wavy round woods of 5,000 points
/// each (radius 25 mm, waves of 5%, 60 mm apart along y = 400, between the two sides):
/// long outlines within the terrain limits (issue 41 item 5). Built in code, no
/// randomness.
fn long_woods() -> Table {
    let mut t = Table::load(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("samples/skirmish.json")).unwrap();
    let woods: Vec<String> = (0..10)
        .map(|i| {
            let (x, y) = (100.0 + 60.0 * f64::from(i), 400.0);
            let ring: Vec<String> = (0..5000)
                .map(|k| {
                    let a = std::f64::consts::TAU * f64::from(k) / 5000.0;
                    let r = 25.0 * (1.0 + 0.05 * (7.0 * a).sin());
                    format!("[{},{}]", x + r * a.cos(), y + r * a.sin())
                })
                .collect();
            format!(r#"{{"id":"w{i}","kind":"light-forest","level":0,"outline":[{}]}}"#, ring.join(","))
        })
        .collect();
    let terrain: Table = Table::from_json_str(&format!(
        r#"{{"schema":"vedette/table/1","rules":"republique5","scale":"large","units":[],"terrain":[{}]}}"#,
        woods.join(",")
    ))
    .unwrap();
    t.terrain = terrain.terrain;
    t
}

/// Every unit against every unit of the other side.
fn enemy_pairs(t: &Table) -> Vec<(usize, usize)> {
    let n = t.units.len();
    (0..n)
        .flat_map(|a| (0..n).map(move |b| (a, b)))
        .filter(|&(a, b)| t.units[a].side != t.units[b].side)
        .collect()
}

/// (battery, enemy unit) pairs: every battery against every enemy combat unit and
/// skirmish screen.
fn pairs(t: &Table) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for (a, u) in t.units.iter().enumerate().filter(|(_, u)| u.kind == UnitKind::Artillery) {
        for (b, v) in t.units.iter().enumerate() {
            if v.side != u.side && (v.is_combat() || v.kind == UnitKind::Skirmisher) {
                out.push((a, b));
            }
        }
    }
    out
}

/// Every pair, one view (angular buckets of the table from its eye) per battery, on at
/// most `threads` threads (0: every core): (visible, with a full base).
fn all_batteries(los: &TerrainSight<'_, '_>, pairs: &[(usize, usize)], threads: usize) -> (usize, usize) {
    let v = los.unit_verdicts(pairs, threads);
    (v.iter().filter(|v| v.visible).count(), v.iter().filter(|v| v.full_base.is_some()).count())
}

/// With VEDETTE_LOS_ONCE=1: every pair once on one thread (for an instruction count:
/// `valgrind --tool=callgrind --toggle-collect='*measured_once*'`), then stop.
#[inline(never)]
fn measured_once(los: &TerrainSight<'_, '_>, pairs: &[(usize, usize)]) -> (usize, usize) {
    all_batteries(los, pairs, 1)
}

/// With VEDETTE_LOS_DIAG=1: time every pair once and print the slowest, then stop.
fn diagnose(t: &Table, index: &SpatialIndex<'_>, p: &[(usize, usize)]) {
    let los = TerrainSight::try_new(index).unwrap();
    let mut times: Vec<(f64, usize, usize, bool, bool, bool)> = Vec::new();
    let start = std::time::Instant::now();
    let mut views = std::collections::HashMap::new();
    for &(a, b) in p {
        let view = views.entry(a).or_insert_with(|| los.spotter(a));
        let s = std::time::Instant::now();
        let v = view.unit_verdict(b);
        times.push((
            s.elapsed().as_secs_f64(),
            a,
            b,
            v.visible,
            v.full_base.is_some(),
            v.method != vedette_geometry::los::Method::Exact,
        ));
    }
    let total = start.elapsed().as_secs_f64();
    println!("all at once: {:?}", {
        let s = std::time::Instant::now();
        let r = all_batteries(&los, p, 1);
        (s.elapsed(), r)
    });
    times.sort_by(|x, y| y.0.total_cmp(&x.0));
    let visible = times.iter().filter(|x| x.3).count();
    let sampled = times.iter().filter(|x| x.5).count();
    let sampled_time: f64 = times.iter().filter(|x| x.5).map(|x| x.0).sum();

    println!("pairs {} total {total:.3}s visible {visible} sampled {sampled} ({sampled_time:.3}s)", p.len());
    for x in times.iter().take(25) {
        println!(
            "{:.4}s {} -> {} visible {} full {} sampled {}",
            x.0, t.units[x.1].id, t.units[x.2].id, x.3, x.4, x.5
        );
    }
    // A digest of every answer, sight segments included: equal before and after a change
    // that should not move any.
    let mut digest = std::collections::hash_map::DefaultHasher::new();
    for &(a, b) in p {
        let v = views.entry(a).or_insert_with(|| los.spotter(a)).unit_verdict(b);
        if std::env::var("VEDETTE_LOS_DUMP").is_ok() {
            eprintln!("{} {} {} {:?} {:?}", a, b, v.visible, v.full_base, v.sight.map(|s| s.segment));
        }
        std::hash::Hash::hash(
            &(v.visible, v.full_base.map(|(x, y)| (x.unit, x.base, y.unit, y.base))),
            &mut digest,
        );
        if let Some(s) = v.sight {
            std::hash::Hash::hash(
                &[s.segment.a.x, s.segment.a.y, s.segment.b.x, s.segment.b.y].map(f64::to_bits),
                &mut digest,
            );
        }
    }
    println!("answers digest {:016x}", std::hash::Hasher::finish(&digest));
    let in_pairs: f64 = times.iter().map(|x| x.0).sum();
    println!("views (occlusion sweeps) {:.3}s; pairs {in_pairs:.3}s", total - in_pairs);
    for (lo, hi, name) in
        [(0.0, 2e-6, "under 2 µs"), (2e-6, 1e-3, "2 µs to 1 ms"), (1e-3, f64::INFINITY, "over 1 ms")]
    {
        let bucket: Vec<f64> = times.iter().map(|x| x.0).filter(|&d| d >= lo && d < hi).collect();
        println!("pairs {name}: {} taking {:.4}s", bucket.len(), bucket.iter().sum::<f64>());
    }
    // The searched pairs by answer: where the exact work goes.
    for (visible, full) in [(false, false), (true, false), (true, true)] {
        let kind: Vec<f64> =
            times.iter().filter(|x| x.0 >= 2e-6 && x.3 == visible && x.4 == full).map(|x| x.0).collect();
        println!(
            "searched pairs visible {visible} full base {full}: {} taking {:.4}s",
            kind.len(),
            kind.iter().sum::<f64>()
        );
    }
}

fn bench(c: &mut Criterion) {
    let t = grand_battle();
    let index = SpatialIndex::new(&t);
    let p = pairs(&t);
    if std::env::var("VEDETTE_LOS_ONCE").is_ok() {
        let los = TerrainSight::try_new(&index).unwrap();
        println!("once {:?}", measured_once(&los, &p));
        return;
    }
    // With VEDETTE_LOS_REPS=n (and VEDETTE_LOS_THREADS, 0 for every core): n passes,
    // timed apart, their fastest and median; short runs of two builds taking turns
    // compare them on a machine whose speed drifts.
    if let Ok(n) = std::env::var("VEDETTE_LOS_REPS") {
        let n: usize = n.parse().unwrap();
        let threads: usize = std::env::var("VEDETTE_LOS_THREADS").map_or(0, |t| t.parse().unwrap());
        let mut times: Vec<f64> = (0..n)
            .map(|_| {
                let s = std::time::Instant::now();
                let los = TerrainSight::try_new(&index).unwrap();
                black_box(all_batteries(&los, &p, threads));
                drop(los);
                s.elapsed().as_secs_f64() * 1e3
            })
            .collect();
        times.sort_by(f64::total_cmp);
        println!("reps {n} min {:.3} median {:.3} ms", times[0], times[n / 2]);
        return;
    }
    if std::env::var("VEDETTE_LOS_DIAG").is_ok() {
        diagnose(&t, &index, &p);
        return;
    }
    let mut g = c.benchmark_group("line_of_sight");
    g.sample_size(10);
    // On every core of the machine (the spotters shared out), then on one.
    for (name, threads) in [
        ("grand_battle_every_battery_to_every_enemy_unit", 0),
        ("grand_battle_every_battery_to_every_enemy_unit_one_thread", 1),
    ] {
        g.bench_function(name, |b| {
            b.iter(|| {
                let los = TerrainSight::try_new(&index).unwrap();
                black_box(all_batteries(&los, &p, threads))
            })
        });
    }
    // Long woods outlines (issue 41 item 5): every unit to every enemy unit, each pair's
    // full-base verdict cut along the lines its woods can change.
    let woods = long_woods();
    let woods_index = SpatialIndex::new(&woods);
    let woods_pairs = enemy_pairs(&woods);
    g.bench_function("skirmish_ten_woods_of_5000_points_every_unit_to_every_enemy", |b| {
        b.iter(|| {
            let los = TerrainSight::try_new(&woods_index).unwrap();
            black_box(all_batteries(&los, &woods_pairs, 0))
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
