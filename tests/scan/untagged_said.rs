//! Issue 37 item 3: "where two assignments are equally good, say so in the scan report
//! rather than guess silently". On the bench's near Brown-1.5mm render (`u1-t3705`: 30
//! units, tilt 10°, every fifth tagged, six coats declared) the leader fr-28 was given
//! the skirmisher au-4's base and nothing said it: au-4, of fr-28's coat, was given
//! another skirmisher's place, where a place of fr-28's layout (a leader's 25 x 30 mm
//! base) ranks as high. The report now names fr-28 beside au-4 (`ambiguous-unit`), so
//! that the player swaps them in one tap, and no base stands on another unit's unsaid.

use crate::common;

use common::untagged::{rendered, untagged_shots, wrong_units};
use vedette_vision::{ScanIssue, scan};

#[test]
fn a_place_another_layout_fits_as_well_is_said_ambiguous() {
    let r = rendered(&untagged_shots()[4]);
    let result = scan(&r.photo, &r.profile, Some(&r.roster), Some(&r.k)).unwrap();
    let (wrong, unsaid) = wrong_units(&result.table, &r.truth, &result.report.issues);
    eprintln!("{}: on another unit's bases {wrong}, unsaid {unsaid:?}", r.name);
    assert!(unsaid.is_empty(), "{unsaid:?}");
    let ties = |a: &str, b: &str| {
        result.report.issues.iter().any(|i| {
            matches!(i, ScanIssue::AmbiguousUnit { unit, others, .. }
                if (unit == a && others.iter().any(|o| o == b)) || (unit == b && others.iter().any(|o| o == a)))
        })
    };
    assert!(ties("au-4", "fr-28"), "{:?}", result.report.issues);
    // Said, not moved: the leader still stands where the photo put it, on au-4's base.
    let on = |id: &str| result.table.units.iter().find(|u| u.id == id).map(|u| u.bases[0].centre());
    let truth_of = |id: &str| r.truth.units.iter().find(|u| u.id == id).map(|u| u.bases[0].centre());
    let (fr28, au4) = (on("fr-28").unwrap(), truth_of("au-4").unwrap());
    assert!(fr28.distance(au4) < 5.0, "fr-28 at {fr28:?}, au-4's base at {au4:?}");
}
