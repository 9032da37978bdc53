//! Issue 37: armies without tags. A roster unit with neither `tags` nor `bases` is
//! refused through the CLI, naming it, before any file is written; the second
//! renderer's untagged photos (`../shared/renders/untagged-*`, where present) scan with
//! their camera files and hold the fitter's present floor (BENCHMARKS.md, "Untagged
//! bases": the issue's targets are not met yet).

use crate::common;

use common::untagged::{
    Rendered, UntaggedAccuracy, bench_scanned, compare_untagged, every_unit_found_or_missing, quantile,
    rendered, shared_untagged, training_shots, wrong_units,
};
use std::path::{Path, PathBuf};
use std::process::Command;
use vedette_vision::{ScanIssue, scan};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// `vedette scan` of the skirmish sample photo with `roster`, to `out`, and `extra`.
fn scan_skirmish(roster: &Path, out: &Path, extra: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_vedette"))
        .args([
            "scan",
            s(&root().join("samples/photos/skirmish.jpg")),
            "--profile",
            "calibration/default.toml",
        ])
        .args(["--roster", s(roster), "-o", s(out)])
        .args(extra)
        .current_dir(root())
        .output()
        .unwrap()
}

/// A unit with neither `tags` nor `bases`: `vedette scan` exits 1 naming the roster
/// file and the unit, and writes nothing.
#[test]
fn a_unit_without_tags_or_bases_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let roster = dir.path().join("r.toml");
    std::fs::write(
        &roster,
        "[[unit]]\nid = \"au-7\"\nside = \"austria\"\nkind = \"infantry\"\nformation = \"line\"\nbase_mm = [30, 20]\n",
    )
    .unwrap();
    let out = dir.path().join("table.json");
    let o = scan_skirmish(&roster, &out, &[]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("r.toml") && err.contains("unit[0] \"au-7\"") && err.contains("neither"), "{err}");
    assert!(!out.exists(), "a table was written");
}

/// The second renderer's untagged photos with their camera files and each unit's
/// declared paints, divisions and parents: the fitter's present floor on them (about 92%
/// of bases in a unit the photo cannot tell from theirs, 96% of the bases it writes, 78%
/// in their own unit;
/// centres to a median of 0.55 mm where found), no facing wrong
/// without `assumed`, every unit found or reported missing, and no formation given to
/// another unit's bases without the report saying the two are alike. It runs wherever
/// the folder is present (CI has it; the fitter is built optimised in the test profile:
/// about 25 s on an idle 2-core machine).
#[test]
fn shared_untagged_photos_hold_the_floor() {
    let photos = shared_untagged();
    if photos.is_empty() {
        eprintln!("../shared/renders/untagged-* not present: nothing to check");
        return;
    }
    let mut all = Vec::new();
    for p in &photos {
        let roster = p.roster();
        let result = scan(&p.photo(), &p.profile(), Some(&roster), Some(&p.intrinsics())).unwrap();
        let acc = compare_untagged(&result.table, &p.truth);
        eprintln!("{}: {}", p.name, acc.summary());
        every_unit_found_or_missing(&p.name, &roster, &result);
        // A formation given to a unit that is not its own: the report says the units
        // are alike (`ambiguous-unit`), never silently (42 of the 294 bases stand on
        // another unit's true base, every one of them said; 91 before the twins were
        // shared out by their divisions).
        let (wrong, unsaid) = wrong_units(&result.table, &p.truth, &result.report.issues);
        eprintln!("{}: on another unit's bases {wrong}, unsaid {unsaid:?}", p.name);
        assert!(unsaid.is_empty(), "{}: {unsaid:?}", p.name);
        all.push(acc);
    }
    let acc = UntaggedAccuracy::merge(&all);
    eprintln!("all: {}", acc.summary());
    assert!(acc.recall_up_to_twins() >= 0.92, "{}", acc.summary());
    assert!(acc.precision_up_to_twins() >= 0.96, "{}", acc.summary());
    // The declared paints (scene.json's coats and flocks, through the converter) tell
    // some twins apart, and the declared divisions and parents put more where they
    // stand (`fitting::company`): 78.6% / 81.9% strictly, up to twins 92.9% / 96.8%
    // (76.2% / 79.4% before a blob's direction was found on linearly shared profile
    // bins, `fitting::edges`; 75.5% / 78.7% before a
    // one-base place among another formation's figures was skipped, `fitting::crowded`;
    // 59.2% / 61.7% with the paints alone, 55.8% / 56.2% without either); up to twins
    // 90.8% / 94.7% (90.1% / 91.7% before a unit was held back from a contested place;
    // 89.1% / 91.0% before the band beyond an edge had to be the mat's colour as well
    // as flat to count as clear).
    assert!(acc.recall() >= 0.78, "{}", acc.summary());
    assert!(acc.precision() >= 0.81, "{}", acc.summary());
    assert!(quantile(&acc.centre_mm, 0.5) <= 1.0, "{}", acc.summary());
    assert_eq!(acc.facing_wrong_unmarked, 0, "{}", acc.summary());
}

/// vedette-synth's untagged renders (fixed seeds, 12 MP, cached in
/// `target/untagged-test/`): the rigid-template fitter's present floor on a 12-unit
/// table seen from the near edge at 10° on a brown mat (every fourth unit flocked like
/// the mat, figures 1.5 mm past their bases' edges), no tags: the share of bases found
/// in their unit or a twin and of the bases written that are right, the centre error
/// where right, no facing wrong without `assumed`, and every unit found or reported
/// missing. Measured: 73.0% of the 37 bases right (no twins among them), 90.0% of the 30
/// written, centre median 1.30 mm (70.3% and 86.7% while a flat band beyond an edge
/// counted as the mat whatever its colour; 75.7% of 37 and 84.8% of 33 before the
/// shadow-aware score). BENCHMARKS.md "Untagged bases" holds the figures on
/// the bench's six photos.
#[test]
fn own_untagged_render_holds_the_floor() {
    const RECALL_FLOOR: f64 = 0.72;
    const PRECISION_FLOOR: f64 = 0.89;
    let Rendered { name, roster, truth, k, profile, photo } = rendered(&twelve_units(3711, false));
    let result = scan(&photo, &profile, Some(&roster), Some(&k)).unwrap();
    let acc = compare_untagged(&result.table, &truth);
    eprintln!("{name}: {}", acc.summary());
    every_unit_found_or_missing(&name, &roster, &result);
    let (wrong, unsaid) = wrong_units(&result.table, &truth, &result.report.issues);
    assert!(unsaid.is_empty(), "{wrong} bases on another unit's, unsaid: {unsaid:?}");
    assert!(acc.recall_up_to_twins() >= RECALL_FLOOR, "{}", acc.summary());
    assert!(acc.precision_up_to_twins() >= PRECISION_FLOOR, "{}", acc.summary());
    assert!(quantile(&acc.centre_mm, 0.5) <= 1.5, "{}", acc.summary());
    assert_eq!(acc.facing_wrong_unmarked, 0, "{}", acc.summary());
}

/// The 12-unit table of [`own_untagged_render_holds_the_floor`].
fn twelve_units(seed: u64, far: bool) -> common::untagged::UntaggedShot {
    common::untagged::UntaggedShot {
        table_seed: 3711,
        seed,
        units: 12,
        tilt_deg: 10.0,
        far,
        mat: vedette_synth::MatColour::Brown,
        overhang_mm: 1.5,
        tagged_every: 0,
        coats: 0,
        twins: false,
    }
}

/// Each of `shots` rendered and scanned alone with its roster and camera file: the
/// photos of one table that a test then merges.
fn each_scanned(shots: &[common::untagged::UntaggedShot]) -> (Vec<Rendered>, Vec<vedette_vision::Scan>) {
    let photos: Vec<Rendered> = shots.iter().map(rendered).collect();
    let scans =
        photos.iter().map(|r| scan(&r.photo, &r.profile, Some(&r.roster), Some(&r.k)).unwrap()).collect();
    (photos, scans)
}

/// Several photos (issue 37 item 6): `shots` of one table, each scanned alone and
/// merged (`merge_scans`, as `vedette scan NEAR.jpg FAR.jpg` does), each photo's and
/// the merge's figures printed. In the merged table every roster unit is placed or
/// reported once (`missing-unit` or `conflicting-unit`, or a tag of it missing), no
/// base stands on another unit's without an `ambiguous-unit` saying so (the photos'
/// ties and the merge's own carried into the report), a conflicting unit's offered
/// places are its photos' fitted places, a place both photos saw is at least as sure
/// as either photo's, and no facing is wrong unmarked. Gives the merge's accuracy.
fn merged_pair(shots: &[common::untagged::UntaggedShot]) -> UntaggedAccuracy {
    use vedette_vision::merge_scans;
    let (photos, scans) = each_scanned(shots);
    let (roster, truth) = (&photos[0].roster, &photos[0].truth);
    for (r, s) in photos.iter().zip(&scans) {
        eprintln!("{}: {}", r.name, compare_untagged(&s.table, truth).summary());
    }
    let merged = merge_scans(&scans, &photos[0].profile, Some(roster));
    let issues = &merged.report.issues;
    let acc = compare_untagged(&merged.table, truth);
    eprintln!("merged: {}", acc.summary());
    for u in &roster.units {
        let placed = merged.table.units.iter().filter(|t| t.id == u.id).count();
        let said = issues
            .iter()
            .filter(|i| {
                matches!(i, ScanIssue::MissingUnit { unit, .. } | ScanIssue::ConflictingUnit { unit, .. } if *unit == u.id)
            })
            .count();
        let tag_missing = u
            .tags
            .iter()
            .any(|t| issues.iter().any(|i| matches!(i, ScanIssue::MissingTag { id, .. } if id == t)));
        assert!(
            placed + said == 1 || (placed + said == 0 && tag_missing),
            "{}: placed {placed}, reported {said}: {issues:?}",
            u.id
        );
    }
    // The merge says what it gives another unit's bases; what a photo put there unsaid
    // (its own fitter's mistake) it may carry, never add to.
    let photos_unsaid: Vec<String> =
        scans.iter().flat_map(|s| wrong_units(&s.table, truth, &s.report.issues).1).collect();
    let (wrong, unsaid) = wrong_units(&merged.table, truth, issues);
    let added: Vec<&String> = unsaid.iter().filter(|u| !photos_unsaid.contains(u)).collect();
    assert!(
        added.is_empty(),
        "{wrong} bases on another unit's, unsaid: {unsaid:?}, the photos' {photos_unsaid:?}"
    );
    // A unit left out between photos comes with each photo's place that no merged unit
    // stands on, for the page to offer (the unit as that photo fitted it).
    for i in issues {
        if let ScanIssue::ConflictingUnit { unit, photos, places, .. } = i {
            assert!(places.is_empty() || places.len() == photos.len(), "{i:?}");
            for (k, p) in photos.iter().zip(places) {
                let fitted = scans[*k].table.units.iter().find(|u| u.id == *unit).unwrap();
                assert_eq!(p, fitted, "{unit}: photo {k}'s place");
            }
        }
    }
    // A place both photos saw (a fitted formation of its layout within 5 mm in each,
    // whichever unit each gave it): each merged base's sigma at most either photo's.
    let centre = |u: &vedette_geometry::Unit| {
        u.bases.iter().fold(vedette_geometry::Vec2::ZERO, |a, b| a + b.centre())
            * (1.0 / u.bases.len() as f64)
    };
    let fitted = |u: &vedette_geometry::Unit| {
        u.bases.iter().all(|b| b.meta().found == Some(vedette_geometry::Found::Fitted))
    };
    let mut both = 0;
    for u in merged.table.units.iter().filter(|u| fitted(u)) {
        let single: Vec<&vedette_geometry::Unit> = scans
            .iter()
            .filter_map(|s| {
                s.table.units.iter().find(|t| {
                    fitted(t) && t.bases.len() == u.bases.len() && centre(t).distance(centre(u)) < 5.0
                })
            })
            .collect();
        if single.len() < 2 {
            continue;
        }
        both += 1;
        let sigma =
            |x: &vedette_geometry::Unit| x.bases.iter().filter_map(|b| b.meta().sigma_mm).fold(0.0, f64::max);
        assert!(sigma(u) <= single.iter().map(|x| sigma(x)).fold(f64::INFINITY, f64::min) + 1e-9, "{}", u.id);
    }
    eprintln!("merged: {both} fitted units on places both photos saw");
    for i in issues.iter().filter(|i| {
        matches!(
            i,
            ScanIssue::MissingUnit { .. }
                | ScanIssue::ConflictingUnit { .. }
                | ScanIssue::AmbiguousUnit { .. }
        )
    }) {
        eprintln!("merged: {}", i.describe());
    }
    assert_eq!(acc.facing_wrong_unmarked, 0, "{}", acc.summary());
    acc
}

/// The 12-unit table of [`own_untagged_render_holds_the_floor`] from the near and the
/// far edge (another render seed), merged ([`merged_pair`]). Measured: near 27 of 37
/// right of 30 written (73.0% / 90.0%), far 22 of 37 of 29 (59.5% / 75.9%), merged 27
/// of 37 of 29 (73.0% / 93.1%), centre median 1.23 mm (1.30 and 1.89 alone): merged
/// place first, fr-1 and fr-6 (which the far photo put on each other's and another
/// unit's places) are placed; au-10, which each photo put on a different place on
/// au-4's bases (missing in both), is left out (`conflicting-unit`); au-7 and au-9
/// stand on au-11's bases (missing in both), as the near photo put them. Before the
/// merge of places: 22 of 37 of 23 (59.5% / 95.7%), fr-1, fr-6, au-9 and au-10 left
/// out.
#[test]
fn two_photos_of_an_untagged_table_merge() {
    let acc = merged_pair(&[twelve_units(3711, false), twelve_units(3712, true)]);
    assert!(acc.recall_up_to_twins() >= 0.72, "{}", acc.summary());
    assert!(acc.precision_up_to_twins() >= 0.93, "{}", acc.summary());
    assert!(quantile(&acc.centre_mm, 0.5) <= 1.3, "{}", acc.summary());
}

/// The bench's Brown-1.5mm pair (`common::untagged::untagged_shots`: 30 units, every
/// fifth tagged, six coats declared; near at 10°, far at 22°), merged
/// ([`merged_pair`]): a second table, so the first's figures are not one render's
/// luck. Measured: near 76 of 91 right of 85 written (83.5% / 89.4%), far 69 of 83
/// (75.8% / 83.1%), merged 79 of 91 of 91 (86.8% / 86.8%), centre median 0.91 mm;
/// before the merge of places 73 of 85 (80.2% / 85.9%), fr-8, fr-14 and fr-21 left out.
/// The near photo's own mistakes (fr-28 on au-4's base, said since the units of other
/// layouts fitting a place as well are named, `untagged_said.rs`) are carried, not added
/// to.
#[test]
fn two_photos_of_the_bench_brown_table_merge() {
    let shots: Vec<_> = common::untagged::untagged_shots().into_iter().skip(4).collect();
    assert!(shots.len() == 2 && shots.iter().all(|s| s.table_seed == 3705), "{shots:?}");
    let acc = merged_pair(&shots);
    assert!(acc.recall_up_to_twins() >= 0.86, "{}", acc.summary());
    assert!(acc.precision_up_to_twins() >= 0.86, "{}", acc.summary());
    assert!(quantile(&acc.centre_mm, 0.5) <= 1.0, "{}", acc.summary());
}

/// vedette-synth's first bench render (`u1-t3701`: 30 units, tilt 5°, a green mat,
/// figures 1 mm past their bases, six coats; cached in `target/untagged-test/`): no
/// one-base unit (leader, skirmishers, gun) is fitted with its base's centre on another
/// unit's true bases. A gun's place inside fr-12's line used to be given to fr-27 (and
/// fr-12 lost), ranking above the line's own place: a one-base place lying inside a
/// still free place of a larger layout in its blob, which shows the coat of a unit of
/// that layout, is now that layout's (`fitting::swallowed`). Measured: 71 of 94 bases
/// right, 71 of 73 written (66 of 94 and 66 of 73 before); since, 87 of 89 written, and
/// with a blob's direction found on linearly shared profile bins (`fitting::edges`) 86
/// of 89: au-29's lone base more than 5 mm off (the bench as a whole 478 of 590 right
/// at 90.7% precision, against 480 at 90.6%).
#[test]
fn a_one_base_unit_is_not_fitted_inside_a_larger_unit() {
    let (Rendered { name, roster, truth, .. }, result) = bench_scanned(0, "u1-t3701-s3701");
    let acc = compare_untagged(&result.table, &truth);
    eprintln!("{name}: {}", acc.summary());
    every_unit_found_or_missing(&name, &roster, &result);
    let on_others: Vec<String> = result
        .table
        .units
        .iter()
        .filter(|u| u.bases.len() == 1)
        .flat_map(|u| {
            let b = u.bases[0];
            truth
                .units
                .iter()
                .filter(|o| o.id != u.id && o.bases.iter().any(|t| t.contains(b.centre())))
                .map(|o| format!("{} on {}", u.id, o.id))
                .collect::<Vec<_>>()
        })
        .collect();
    assert!(on_others.is_empty(), "{on_others:?}");
    assert!(acc.recall() >= 0.75, "{}", acc.summary());
    assert!(acc.precision() >= 0.96, "{}", acc.summary());
}

/// Issue 37: cavalry found on its own bases under its horses. vedette-synth's horses
/// cover a cavalry base in two ranks, the front rank's heads past its front edge by the
/// overhang: along that edge the photo shows horse against horse, and the edge shows
/// as the horses' outline against the mat up to the overhang outward
/// (`template::Placement::shown`). On the bench's far brown photo (2 mm overhang, 15°)
/// all 14 cavalry bases are right; 12 before, when the true place of fr-29 (a line of
/// two) was thrown away for the step at its front edge and a place 6 mm off kept.
#[test]
fn cavalry_is_found_on_its_bases_under_its_overhanging_horses() {
    let (Rendered { name, truth, .. }, result) = bench_scanned(1, "u1-t3702-s3702");
    let cavalry = |t: &vedette_geometry::Table| {
        let mut t = t.clone();
        t.units.retain(|u| {
            truth.units.iter().any(|o| o.id == u.id && o.kind == vedette_geometry::UnitKind::Cavalry)
        });
        t
    };
    let acc = compare_untagged(&cavalry(&result.table), &cavalry(&truth));
    eprintln!("{name}, cavalry: {}", acc.summary());
    assert_eq!(acc.truth_bases, 14, "{}", acc.summary());
    assert_eq!(acc.correct, 14, "{}", acc.summary());
}

/// vedette-synth's far Brown-2mm bench render (`u1-t3702-s3702`: 30 units, tilt 15°):
/// the line of five au-10 stands where its near long edge lies. The same line 8 mm
/// toward the far side, laid on the figures leaning over its far edge, ranked first,
/// its true place at 0.93 of it, and the unit was held back as contested; laid on
/// their near edges (`formation::near_edge`) as a unit is given them, they are one
/// place (`fitting::rivals`). Measured: 478 of 590 bases right on the bench before,
/// 483 now.
#[test]
fn a_line_is_not_held_back_between_its_place_and_the_same_place_laid_on_its_figures() {
    let (Rendered { name, truth, .. }, result) = bench_scanned(1, "u1-t3702-s3702");
    assert_placed_on_its_bases(&name, &result.table, &truth, "au-10", 5);
}

/// vedette-synth's first bench render (`u1-t3701`: tilt 5°): the cavalry line au-24
/// (two 40 x 30 mm bases) stands where its near end lies. The same line 6.8 mm along
/// its rank toward the far side, its rank running along the figures' lean, ranked
/// within 0.98 of it and the unit was held back as contested; laid on their near ends
/// (`formation::near_edge`, where the end steps in the base tops' colours,
/// `steps_as_an_end`) they are one place (`fitting::rivals`). Measured: 483 of 590
/// bases right on the bench before, 487 now.
#[test]
fn a_line_is_not_held_back_between_its_place_and_the_same_place_slid_along_its_rank() {
    let (Rendered { name, truth, .. }, result) = bench_scanned(0, "u1-t3701-s3701");
    assert_placed_on_its_bases(&name, &result.table, &truth, "au-24", 2);
}

/// Unit `id` of `found` has `n` bases, and each of its true bases lies within 5 mm of
/// one of them.
fn assert_placed_on_its_bases(
    name: &str,
    found: &vedette_geometry::Table,
    truth: &vedette_geometry::Table,
    id: &str,
    n: usize,
) {
    let bases = |t: &vedette_geometry::Table| {
        t.units.iter().find(|u| u.id == id).map(|u| u.bases.clone()).unwrap_or_default()
    };
    let (placed, true_bases) = (bases(found), bases(truth));
    assert_eq!(placed.len(), n, "{name}: {id} has {} bases placed", placed.len());
    assert_eq!(true_bases.len(), n, "{name}: {id} has {} true bases", true_bases.len());
    for t in &true_bases {
        let off = placed.iter().map(|b| b.centre().distance(t.centre())).fold(f64::INFINITY, f64::min);
        assert!(off < 5.0, "{name}: {id}'s base at {:?} {off:.1} mm from the nearest placed", t.centre());
    }
}

/// vedette-synth's far Brown-1.5mm bench render (`u1-t3705-s3706`: 30 units, tilt 22°,
/// every fifth tagged, six coats): the skirmishers fr-8 and fr-21 stand on their own
/// bases. Each was given a place among another formation's figures first (fr-8 on
/// fr-2's line, fr-21 on fr-14's), ranking above its own: a one-base place in a blob
/// larger than its base with its whole halo is not a unit's own (`fitting::crowded`).
/// Measured: 69 of 91 bases right before, 71 now.
#[test]
fn a_one_base_place_among_another_formation_s_figures_is_not_given() {
    let (Rendered { name, roster, truth, .. }, result) = bench_scanned(5, "u1-t3705-s3706");
    let acc = compare_untagged(&result.table, &truth);
    eprintln!("{name}: {}", acc.summary());
    every_unit_found_or_missing(&name, &roster, &result);
    for id in ["fr-8", "fr-21"] {
        let base = |t: &vedette_geometry::Table| {
            t.units.iter().find(|u| u.id == id).and_then(|u| u.bases.first().copied())
        };
        let (Some(found), Some(true_base)) = (base(&result.table), base(&truth)) else {
            panic!("{id} not placed");
        };
        let off = found.centre().distance(true_base.centre());
        assert!(off < 5.0, "{id} at {:?}, {off:.1} mm from its own base", found.centre());
    }
    assert!(acc.recall() >= 0.77, "{}", acc.summary());
    assert!(acc.precision() >= 0.85, "{}", acc.summary());
}

/// vedette-synth's held-out shot `u1-t3804` (`training_shots()`: 30 units, tilt 12° from
/// the far edge, green mat, figures 3 mm past their bases, six coats): the gun au-26
/// stands alone, and its place, the best of its blob, lay inside a 2 x 2 infantry place
/// laid over the gun and its crew's lean, on whose figures the free 2 x 2 units' coats
/// showed only barely (under `paint::ELSEWHERE_ABSENT`, as other units' places do). The
/// gun's place was taken for that layout's bases and skipped (`fitting::swallowed`), the
/// 2 x 2 place went to no unit, and the gun was missing; a place swallows only where
/// such a coat shows more than barely (`paint::shows_a_coat`), and the gun stands on its
/// base. Measured: held-out 784 -> 785 of 1153 bases right, the bench and the second
/// renderer the same.
#[test]
fn a_gun_is_not_swallowed_by_a_larger_layout_whose_coat_barely_shows_there() {
    let Rendered { name, roster, truth, k, profile, photo } = rendered(&training_shots()[3]);
    assert!(name.starts_with("u1-t3804"), "{name}");
    let result = scan(&photo, &profile, Some(&roster), Some(&k)).unwrap();
    every_unit_found_or_missing(&name, &roster, &result);
    let base = |t: &vedette_geometry::Table| {
        t.units.iter().find(|u| u.id == "au-26").and_then(|u| u.bases.first().copied())
    };
    let (Some(found), Some(true_base)) = (base(&result.table), base(&truth)) else {
        panic!("{name}: au-26 not placed");
    };
    let off = found.centre().distance(true_base.centre());
    assert!(off < 5.0, "{name}: au-26 at {:?}, {off:.1} mm from its base", found.centre());
}

/// An untagged unit whose bases are not in the photo (issue 37, "Done when"): the skirmish
/// sample's roster plus `ghost`, three 60 x 60 mm bases that nothing on the table has.
/// The scan leaves it out (no base of it in the table, never invented) and the report's
/// `missing-unit` says where it was looked for: the whole table, which the photo shows,
/// in table mm, in the text and in the JSON.
#[test]
fn a_unit_that_is_not_there_is_reported_missing_with_where_it_was_looked_for() {
    let dir = tempfile::tempdir().unwrap();
    let roster = dir.path().join("r.toml");
    let mut text = std::fs::read_to_string(root().join("samples/photos/skirmish.roster.toml")).unwrap();
    text.push_str(
        "\n[[unit]]\nid = \"ghost\"\nside = \"france\"\nkind = \"infantry\"\nformation = \"line\"\nbase_mm = [60, 60]\nbases = 3\n",
    );
    std::fs::write(&roster, text).unwrap();
    let (out, report) = (dir.path().join("t.json"), dir.path().join("r.json"));
    let o = scan_skirmish(&roster, &out, &["--camera", "samples/photos/camera.toml", "--report", s(&report)]);
    let err = String::from_utf8_lossy(&o.stderr);
    let said = format!("{err}{}", String::from_utf8_lossy(&o.stdout));
    assert!(o.status.success(), "{said}");
    assert!(
        said.contains(
            "ghost (3 untagged bases of 60 x 60 mm) was not found, none invented: looked over the table from (0.0, 0.0) mm to (1828.8, 1219.2) mm"
        ),
        "{said}"
    );
    let table: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert!(table["units"].as_array().unwrap().iter().all(|u| u["id"] != "ghost"), "ghost invented");
    let report: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    let issue = report["issues"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["unit"] == "ghost")
        .unwrap_or_else(|| panic!("no issue names ghost: {report:#}"));
    assert_eq!(issue["searched_mm"], serde_json::json!([[0.0, 0.0], [1828.8, 1219.2]]), "{issue:#}");
}

/// The same over two photos (the crowd sample, from both long edges): the merged scan
/// reports `ghost` missing once, searched over the box around what both photos show.
#[test]
fn a_unit_no_photo_finds_is_reported_once_with_where_the_photos_looked() {
    let dir = tempfile::tempdir().unwrap();
    let roster = dir.path().join("r.toml");
    let mut text = std::fs::read_to_string(root().join("samples/photos/crowd.roster.toml")).unwrap();
    text.push_str(
        "\n[[unit]]\nid = \"ghost\"\nside = \"fr\"\nkind = \"infantry\"\nformation = \"line\"\nbase_mm = [60, 60]\nbases = 3\n",
    );
    std::fs::write(&roster, text).unwrap();
    let (out, report) = (dir.path().join("t.json"), dir.path().join("r.json"));
    let o = Command::new(env!("CARGO_BIN_EXE_vedette"))
        .args(["scan", "samples/photos/crowd-near.jpg", "samples/photos/crowd-far.jpg"])
        .args(["--profile", "calibration/default.toml", "--camera", "samples/photos/camera.toml"])
        .args(["--roster", s(&roster), "-o", s(&out), "--report", s(&report)])
        .current_dir(root())
        .output()
        .unwrap();
    let said = format!("{}{}", String::from_utf8_lossy(&o.stderr), String::from_utf8_lossy(&o.stdout));
    assert!(o.status.success(), "{said}");
    let report: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    // Each photo's report says so, and the merge once.
    for photo in report["photos"].as_array().unwrap() {
        assert!(photo["issues"].as_array().unwrap().iter().any(|i| i["unit"] == "ghost"), "{photo:#}");
    }
    let ghosts: Vec<&serde_json::Value> =
        report["merge"]["issues"].as_array().unwrap().iter().filter(|i| i["unit"] == "ghost").collect();
    assert_eq!(ghosts.len(), 1, "{ghosts:?}");
    assert_eq!(ghosts[0]["issue"], "missing-unit");
    assert_eq!(
        ghosts[0]["searched_mm"],
        serde_json::json!([[0.0, 0.0], [1828.8, 1219.2]]),
        "{:#}",
        ghosts[0]
    );
    assert!(ghosts[0]["looked"].as_str().unwrap().contains("in each of the 2 photos"), "{:#}", ghosts[0]);
    let table: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert!(table["units"].as_array().unwrap().iter().all(|u| u["id"] != "ghost"), "ghost invented");
}

/// [`common::untagged::twin_table`] with three coats, from the near or the far edge.
fn four_twins(seed: u64, far: bool) -> common::untagged::UntaggedShot {
    common::untagged::UntaggedShot {
        table_seed: 0,
        seed,
        units: 4,
        tilt_deg: 12.0,
        far,
        mat: vedette_synth::MatColour::Brown,
        overhang_mm: 1.5,
        tagged_every: 0,
        coats: 3,
        twins: true,
    }
}

/// Issue 37 item 3: four twin units (Austrian cavalry lines of three 40 x 30 mm bases,
/// [`common::untagged::twin_table`]) rendered by vedette-synth, the middle two painted
/// each in their own coat (red, green), the outer two alike (blue), every coat declared
/// in the roster: the middle two are each found as themselves and in no
/// `ambiguous-unit`; the outer two, which the photo cannot tell apart, are reported
/// `ambiguous-unit` with each other. With the same roster's paints left out, the four
/// are twins and the scan says so for the middle two as well (what the paints remove).
#[test]
fn twins_are_told_apart_by_their_declared_paint() {
    use common::untagged::unpainted;
    let Rendered { name, roster, truth, k, profile, photo } = rendered(&four_twins(3790, false));
    assert_eq!(roster.units[1].coat.as_deref(), Some("#b41e23"));
    assert_eq!(roster.units[0].coat, roster.units[3].coat);
    let ambiguous = |s: &vedette_vision::Scan, id: &str| {
        s.report.issues.iter().any(
            |i| matches!(i, ScanIssue::AmbiguousUnit { unit, others, .. } if unit == id || others.iter().any(|o| o == id)),
        )
    };
    // Found as itself: its formation's centre nearer its own than any twin's (180 mm
    // apart; how well it is placed is the other tests' concern).
    let centre = |u: &vedette_geometry::Unit| {
        u.bases.iter().fold(vedette_geometry::Vec2::ZERO, |a, b| a + b.centre())
            * (1.0 / u.bases.len() as f64)
    };
    let found_as_itself = |s: &vedette_vision::Scan, id: &str| {
        let (Some(got), Some(want)) =
            (s.table.units.iter().find(|u| u.id == id), truth.units.iter().find(|u| u.id == id))
        else {
            return false;
        };
        centre(got).distance(centre(want)) < 20.0
    };
    // Or held back as itself: its paint chose it for a place that another place of its
    // layout overlapping it fits nearly as well (`fitting::contested`), reported missing
    // with the places it was held back between, one within 20 mm of its own centre (au-2 since the contested rule: its
    // best place is 19 mm off, slid along its line, and ranks 0.96 of it).
    let held_as_itself = |s: &vedette_vision::Scan, id: &str| {
        let Some(want) = truth.units.iter().find(|u| u.id == id) else { return false };
        s.report.issues.iter().any(|i| match i {
            ScanIssue::MissingUnit { unit, .. } if unit == id => {
                common::untagged::offered_places(i).iter().any(|at| at.distance(centre(want)) < 20.0)
            }
            _ => false,
        })
    };
    let painted = scan(&photo, &profile, Some(&roster), Some(&k)).unwrap();
    every_unit_found_or_missing(&name, &roster, &painted);
    assert!(found_as_itself(&painted, "au-3"), "{:?}", painted.report.issues);
    for id in ["au-2", "au-3"] {
        assert!(
            found_as_itself(&painted, id) || held_as_itself(&painted, id),
            "{id}: {:?}",
            painted.report.issues
        );
        assert!(!ambiguous(&painted, id), "{id}: {:?}", painted.report.issues);
    }
    assert!(
        painted.report.issues.iter().any(|i| matches!(i, ScanIssue::AmbiguousUnit { unit, others, .. }
            if (unit == "au-1" && others == &["au-4"]) || (unit == "au-4" && others == &["au-1"]))),
        "{:?}",
        painted.report.issues
    );
    let bare = scan(&photo, &profile, Some(&unpainted(&roster)), Some(&k)).unwrap();
    assert!(ambiguous(&bare, "au-2") && ambiguous(&bare, "au-3"), "{:?}", bare.report.issues);
}

/// The same twins from the near and the far edge, merged (`vedette scan NEAR.jpg
/// FAR.jpg`): the outer two, which neither photo can tell apart, are still reported
/// `ambiguous-unit` with each other by the merge, which the page reads to offer the
/// swap (before, the merge dropped the photos' `ambiguous-unit` issues); no base of
/// the merged table stands on another unit's unsaid.
#[test]
fn twins_stay_ambiguous_over_two_photos() {
    let (photos, scans) = each_scanned(&[four_twins(3790, false), four_twins(3791, true)]);
    let merged = vedette_vision::merge_scans(&scans, &photos[0].profile, Some(&photos[0].roster));
    let issues = &merged.report.issues;
    let outer = |unit: &str, others: &[String]| {
        (unit == "au-1" && others.iter().any(|o| o == "au-4"))
            || (unit == "au-4" && others.iter().any(|o| o == "au-1"))
    };
    let said: Vec<&ScanIssue> = issues
        .iter()
        .filter(|i| matches!(i, ScanIssue::AmbiguousUnit { unit, others, .. } if outer(unit, others)))
        .collect();
    assert!(!said.is_empty(), "{issues:?}");
    let (wrong, unsaid) = wrong_units(&merged.table, &photos[0].truth, issues);
    assert!(unsaid.is_empty(), "{wrong} bases on another unit's, unsaid: {unsaid:?}");
}
