//! Issue 37: which unit gets which place. On the bench's second render (`u1-t3702`:
//! 30 units, tilt 15° from the far edge, brown mat, 2 mm overhang, each unit in one of
//! six declared coats) the battery `fr-21`'s 25 x 40 mm layout laid over the leader
//! `fr-13`'s 25 x 30 mm base ranked above the battery's own place (the leader's figures
//! make strong edges), so the greedy order gave the battery the leader's place and left
//! the leader none. The battery's coat does not show there and shows at its own place
//! lower down: the leader's place is skipped for the battery, which takes its own, and
//! the leader takes its own. Since an edge under overhanging figures is looked for out
//! to the overhang (`template::Placement::shown`: the gun's barrel past its front), a
//! second place of the battery's layout 8 mm from the first is kept, both within 5 mm
//! of its true base and ranking within 0.94 of each other: the battery is held back
//! from them (`missing-unit` with both places) rather than put on either.

use crate::common;

use common::untagged::{compare_untagged, offered_places, rendered, untagged_shots};
use vedette_geometry::Table;
use vedette_vision::{ScanIssue, scan};

/// `truth` with only the unit `id`.
fn only(truth: &Table, id: &str) -> Table {
    Table { units: truth.units.iter().filter(|u| u.id == id).cloned().collect(), ..truth.clone() }
}

#[test]
fn a_unit_whose_coat_shows_elsewhere_leaves_a_place_to_the_unit_standing_there() {
    let r = rendered(&untagged_shots()[1]);
    let result = scan(&r.photo, &r.profile, Some(&r.roster), Some(&r.k)).unwrap();
    for id in ["fr-21", "fr-13"] {
        let acc = compare_untagged(&only(&result.table, id), &only(&r.truth, id));
        eprintln!("{id}: {}", acc.summary());
        // The battery, on its own base or held back from places all on its own base.
        let truth = r.truth.units.iter().find(|u| u.id == id).unwrap().bases[0].centre();
        let held_on_its_own = result.report.issues.iter().any(|i| {
            matches!(i, ScanIssue::MissingUnit { unit, .. } if unit == id) && {
                let places = offered_places(i);
                !places.is_empty() && places.iter().all(|p| p.distance(truth) < 5.0)
            }
        });
        assert!(
            (acc.correct, acc.scanned_bases) == (1, 1)
                || (id == "fr-21" && acc.scanned_bases == 0 && held_on_its_own),
            "{id}: {} right of {} written, held back on its own base {held_on_its_own}",
            acc.correct,
            acc.scanned_bases
        );
    }
    // The whole photo: no more wrong bases than before (95 right of 99 written then).
    let acc = compare_untagged(&result.table, &r.truth);
    eprintln!("all: {}", acc.summary());
    assert!(acc.scanned_bases - acc.correct <= 4, "{}", acc.summary());
}
