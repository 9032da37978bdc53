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

use crate::common;

use common::untagged::{Rendered, UntaggedShot, offered_places, rendered_table};
use vedette_geometry::{Base, BaseSize, Facing, Formation, Pose, Table, Unit, UnitKind, Vec2};
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
    let units = UNITS
        .iter()
        .map(|&(id, kind, (x, y), heading, n, _)| {
            let size = if kind == UnitKind::Artillery {
                BaseSize::new(25.0, 40.0)
            } else {
                BaseSize::new(30.0, 20.0)
            };
            let f = Vec2::from_heading_deg(heading);
            let bases = (0..n)
                .map(|k| {
                    let across = size.width * (k as f64 - (n as f64 - 1.0) / 2.0);
                    Base::new(size, Pose::new(Vec2::new(x, y) + f.perp_right() * across, heading))
                })
                .collect();
            let side = if id.starts_with("au") { "austria" } else { "france" };
            let mut u = Unit::new(id, side, kind, bases);
            u.formation =
                Some(if kind == UnitKind::Artillery { Formation::Unlimbered } else { Formation::Line });
            u
        })
        .collect();
    let mut table = common::untagged::twin_table();
    table.name = Some("batteries".into());
    table.units = units;
    table
}

#[test]
fn a_battery_turned_away_from_the_enemy_is_seen_facing_its_true_way() {
    let shot = UntaggedShot {
        table_seed: 0,
        seed: 3795,
        units: UNITS.len(),
        tilt_deg: 12.0,
        far: false,
        mat: vedette_synth::MatColour::Brown,
        overhang_mm: 1.5,
        tagged_every: 0,
        coats: 0,
        twins: false,
    };
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
