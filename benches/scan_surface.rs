//! Criterion bench (issue 19): what a scan reads besides the bases, on the 12 MP battle
//! sample: the marker cubes and the terrain segmentation (`timing_ms.surface` of the
//! scan report), each alone and both, with the camera solved and the bases found once
//! outside the timed loop. Target: at most 0.5 s for both on a 2-core machine.
//!
//! Run: `cargo bench --bench scan_surface`.

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::path::Path;
use std::time::Duration;
use vedette_vision::{Intrinsics, Photo, Profile, Roster, SurfaceOptions, read_surface, scan_with};

fn bench(c: &mut Criterion) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let fail = |e: vedette_vision::VisionError| -> ! { panic!("{e}") };
    let profile = Profile::load(root.join("calibration/default.toml")).unwrap_or_else(|e| fail(e));
    let roster = Roster::load(root.join("samples/photos/battle.roster.toml")).unwrap_or_else(|e| fail(e));
    let camera = Intrinsics::load(&root.join("samples/photos/camera.toml")).unwrap_or_else(|e| fail(e));
    let photo = Photo::load(root.join("samples/photos/battle.jpg")).unwrap_or_else(|e| fail(e));
    let bare = SurfaceOptions { markers: false, terrain: false, tags: true };
    let scan = scan_with(&photo, &profile, Some(&roster), Some(&camera), bare).unwrap_or_else(|e| fail(e));
    let mut g = c.benchmark_group("scan surface, battle sample (12 MP)");
    g.sample_size(10).measurement_time(Duration::from_secs(15));
    for (name, options) in [
        ("cubes and terrain", SurfaceOptions::default()),
        ("cubes", SurfaceOptions { markers: true, terrain: false, tags: true }),
        ("terrain", SurfaceOptions { markers: false, terrain: true, tags: true }),
    ] {
        g.bench_function(name, |b| {
            b.iter(|| {
                let mut table = scan.table.clone();
                let read = read_surface(
                    &photo,
                    &profile,
                    &scan.fit,
                    &scan.fiducials,
                    &mut table,
                    &scan.tags,
                    options,
                    &[],
                    &[],
                );
                black_box(read.map(|_| (table.terrain.len(), table.markers.len())))
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
