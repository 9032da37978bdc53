//! Issue 37 item 4: the facing of untagged bases seen in the photo. A vedette-synth
//! render (fixed seed, camera at the near edge, tilt 12°) of batteries, some turned
//! away from the enemy, and an infantry line turned away too. The batteries whose crew
//! stands on the camera's side of the gun are found facing their true way, marked
//! `seen`, with no `assumed-facing` issue: one facing its enemy, one turned away. The
//! two turned to face the camera (their crew beyond the gun, seen over it) show too
//! little of the crew: they may be `seen` only facing their true way, else `assumed`.
//! The line, whose figures show no front, keeps the prior's front (toward the enemy,
//! here wrong), marked `assumed` with the issue. A battery whose place the photo barely
//! prefers to an overlapping one may be held back (reported missing at its place), one
//! at most: the one at (1300, 850) is.
//!
//! And where the prior decides: two units standing along the table, each with the
//! other's side beyond its end, face each other (the nearest enemy formation found),
//! not the enemy's table edge on their flank; the units facing across the table keep
//! the edge's front. All are `assumed`.

use crate::common;

use common::untagged::{Rendered, UntaggedShot, offered_places, rendered_table};
use vedette_geometry::{Base, Facing, Table, UnitKind};
use vedette_vision::{ScanIssue, scan};

/// What the scan must say of a unit's facing.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Want {
    /// Its true front, `seen`.
    Seen,
    /// Its true front `seen`, or the prior's `assumed`: never a wrong `seen`.
    SeenOrAssumed,
    /// The prior's front (here the wrong one), `assumed`.
    Assumed,
    /// Its true front, from the prior, `assumed`.
    Prior,
}

/// A unit of the scene: `(id, kind, centre, heading, bases, want)`.
type Placed = (&'static str, UnitKind, (f64, f64), f64, usize, Want);

/// Austria stands in the near half and its enemy is at the far edge (heading 90°);
/// France the other way round.
const UNITS: [Placed; 6] = [
    ("au-1", UnitKind::Artillery, (500.0, 400.0), 96.0, 1, Want::Seen),
    ("au-2", UnitKind::Artillery, (800.0, 430.0), 262.0, 1, Want::SeenOrAssumed),
    ("au-3", UnitKind::Artillery, (1100.0, 360.0), 243.0, 1, Want::SeenOrAssumed),
    ("au-4", UnitKind::Infantry, (1400.0, 420.0), 277.0, 3, Want::Assumed),
    ("fr-1", UnitKind::Artillery, (1300.0, 850.0), 275.0, 1, Want::Seen),
    ("fr-2", UnitKind::Artillery, (620.0, 820.0), 71.0, 1, Want::Seen),
];

fn batteries() -> Table {
    table_of("batteries", &UNITS)
}

/// The twin table with `units` on it instead ([`common::untagged::scene_table`]).
fn table_of(name: &str, units: &[Placed]) -> Table {
    let units: Vec<common::untagged::SceneUnit> =
        units.iter().map(|&(id, kind, centre, heading, n, _)| (id, kind, centre, heading, n)).collect();
    common::untagged::scene_table(name, &units)
}

#[test]
fn a_battery_turned_away_from_the_enemy_is_seen_facing_its_true_way() {
    let shot = UntaggedShot::of_scene(3795, UNITS.len());
    let Rendered { roster, truth, k, profile, photo, .. } =
        rendered_table(&shot, batteries(), "u1-batteries-s3795-12deg-near-Brown-1.5mm");
    let result = scan(&photo, &profile, Some(&roster), Some(&k)).unwrap();
    let assumed = |id: &str| {
        result.report.issues.iter().any(|i| matches!(i, ScanIssue::AssumedFacing { unit } if unit == id))
    };
    // The batteries of one side are twins the photo cannot tell apart: each true
    // unit's bases are looked for where they stand, whatever the unit they went to
    // (within 10 mm: how well they are placed is tests/scan/scan_untagged.rs's concern;
    // the battery at (1300, 850) is fitted 7.4 mm off).
    let scanned: Vec<(&str, &Base)> =
        result.table.units.iter().flat_map(|u| u.bases.iter().map(move |b| (u.id.as_str(), b))).collect();
    let (mut seen, mut held) = (0, 0);
    for (id, .., want) in UNITS {
        let truly = truth.units.iter().find(|u| u.id == id).unwrap();
        for w in &truly.bases {
            let Some(&(unit, g)) = scanned.iter().find(|(_, g)| g.centre().distance(w.centre()) < 10.0)
            else {
                // Or held back from a place another overlapping one fits nearly as well
                // (`fitting::contested`): reported missing, never guessed, with the two
                // places it was held back between, one of them on it.
                let at_place = |i: &ScanIssue| {
                    matches!(i, ScanIssue::MissingUnit { places, .. }
                        if places.iter().flat_map(|u| &u.bases).any(|b| b.centre().distance(w.centre()) < 10.0))
                        && !offered_places(i).is_empty()
                };
                assert!(
                    result.report.issues.iter().any(at_place),
                    "{id}: no base found at {:?}: {:?}",
                    w.centre(),
                    result.report.issues
                );
                held += 1;
                continue;
            };
            let turn = (g.pose().heading_deg - w.pose().heading_deg + 180.0).rem_euclid(360.0) - 180.0;
            let right = turn.abs() < 5.0;
            assert!(right || (turn.abs() - 180.0).abs() < 5.0, "{id}: faces {:.1}°", g.pose().heading_deg);
            let facing = g.meta().facing;
            let said = format!(
                "{id} ({unit}): faces {:.1}° ({facing:?}), truly {:.1}°",
                g.pose().heading_deg,
                w.pose().heading_deg
            );
            match want {
                Want::Seen => assert!(right && facing == Some(Facing::Seen), "{said}"),
                Want::SeenOrAssumed => assert!(
                    (right && facing == Some(Facing::Seen)) || facing == Some(Facing::Assumed),
                    "{said}"
                ),
                // The line's figures show no front: the prior's (toward the enemy's
                // edge) is kept and said to be assumed.
                Want::Assumed => assert!(!right && facing == Some(Facing::Assumed), "{said}"),
                Want::Prior => assert!(right && facing == Some(Facing::Assumed), "{said}"),
            }
            seen += usize::from(facing == Some(Facing::Seen));
            assert_eq!(assumed(unit), facing == Some(Facing::Assumed), "{said}: {:?}", result.report.issues);
        }
    }
    eprintln!("{seen} of {} bases seen, {held} held back", UNITS.iter().map(|u| u.4).sum::<usize>());
    // The battery at (1300, 850), fitted 7.4 mm off before, is held back since a place
    // the photo barely prefers to an overlapping one is not given; the others stand.
    assert!(held <= 1, "{held} bases held back");
}

/// Two units standing along the table (heading near 0° or 180°), each a few degrees
/// toward its own table edge, the other beyond its end, and two facing across it.
/// Every front is assumed: its figures show none.
const FLANK: [Placed; 4] = [
    ("au-1", UnitKind::Infantry, (760.0, 520.0), 183.0, 4, Want::Prior),
    ("fr-1", UnitKind::Cavalry, (480.0, 560.0), 3.0, 2, Want::Prior),
    ("au-2", UnitKind::Infantry, (1250.0, 380.0), 95.0, 3, Want::Prior),
    ("fr-2", UnitKind::Infantry, (1250.0, 820.0), 262.0, 3, Want::Prior),
];

/// Where the prior decides (issue 37 item 4): a vedette-synth render (fixed seed,
/// camera at the near edge, tilt 12°) of [`FLANK`]. Austria's line au-1 stands along
/// the table facing 183° (3° toward its own, near edge), France's cavalry fr-1 280 mm
/// beyond its front facing 3° back at it: the enemy's edge (the far one for Austria)
/// would turn au-1 to 3° and fr-1 to 183°, each with its enemy at its back, as it did
/// before `fitting::toward_nearest_enemy`. Each is found facing its true way, toward
/// the nearest enemy formation; au-2 and fr-2, facing across the table, keep the
/// edge's front. All four are `assumed`, each with its `assumed-facing` issue (a prior
/// never makes `seen`).
#[test]
fn a_unit_with_the_enemy_beyond_its_end_faces_it() {
    let shot = UntaggedShot::of_scene(3796, FLANK.len());
    let Rendered { roster, truth, k, profile, photo, .. } =
        rendered_table(&shot, table_of("flank", &FLANK), "u1-flank-s3796-12deg-near-Brown-1.5mm");
    let result = scan(&photo, &profile, Some(&roster), Some(&k)).unwrap();
    for (id, .., want) in FLANK {
        assert_eq!(want, Want::Prior, "{id}");
        let truly = truth.units.iter().find(|u| u.id == id).unwrap();
        let scanned = result.table.units.iter().find(|u| u.id == id);
        let scanned = scanned.unwrap_or_else(|| panic!("{id} not found: {:?}", result.report.issues));
        assert_eq!(scanned.bases.len(), truly.bases.len(), "{id}");
        for (g, w) in scanned.bases.iter().zip(&truly.bases) {
            let turn = (g.pose().heading_deg - w.pose().heading_deg + 180.0).rem_euclid(360.0) - 180.0;
            let said = format!(
                "{id}: faces {:.1}° ({:?}), truly {:.1}°",
                g.pose().heading_deg,
                g.meta().facing,
                w.pose().heading_deg
            );
            assert!(turn.abs() < 5.0, "{said}");
            assert_eq!(g.meta().facing, Some(Facing::Assumed), "{said}");
        }
        assert!(
            result.report.issues.iter().any(|i| matches!(i, ScanIssue::AssumedFacing { unit } if unit == id)),
            "{id}: {:?}",
            result.report.issues
        );
    }
}
