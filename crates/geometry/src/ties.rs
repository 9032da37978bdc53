//! Every tie rule in one place: what happens exactly at a threshold, and what grazing
//! contact counts as.
//!
//! The rules say "within 3"", "at least 3" apart", "past the flank line", "half or
//! more". A table measured from a file or a photo lands exactly on such a threshold more
//! often than one would think (hand-built tables use round numbers), and floating-point
//! rounding of 3 × 25.4 must not decide a verdict. So every comparison with a rule
//! threshold goes through one of these functions, each with a tolerance far below what a
//! player can measure ([`TIE_MM`], a nanometre).
//!
//! | rule wording | function | exactly at the threshold |
//! |---|---|---|
//! | "within 3"", "within 25 mm" | [`within`] | within |
//! | a measurement shown to the user against a rule distance (`vedette measure`) | [`within_shown`] | within, to the printed micrometre ([`SHOWN_TIE_MM`]) |
//! | "at least 3" apart" | [`at_least`] | at least |
//! | "past the flank line", "inside the rear zone" | [`past`] | not past (touching the line is not crossing it) |
//! | "half or more" (bases, area) | [`half_or_more`] | half counts |
//! | an assault zone, a facing arc, a firing arc | [`ZONE_SLACK_MM`] | closed: touching the boundary is inside |
//! | "greatest contact frontage" | [`same_length`] | equal frontages are all greatest |
//!
//! # Relations of a physical table
//! Rule thresholds above are exact. The relations between bases that the rules take for
//! granted ("directly ahead", "side by side", "in column", "touching") are not: a table
//! typed to a tenth of a millimetre, or scanned with about 0.05 mm and 0.1° of noise,
//! never has two bases exactly touching or exactly aligned, and such noise must not
//! change which bases form a unit's front. These tolerances decide those relations
//! (GEOMETRY.md, Bases and units). A tenth of a millimetre and a few tenths of a degree
//! are noise; a millimetre is a real gap, so each tolerance sits between the two.
//!
//! | relation | tolerance | reasoning |
//! |---|---|---|
//! | a base directly ahead overlaps the strip ahead of the other by more than | [`AHEAD_MIN_OVERLAP_OF_WIDTH`] of the other's width | neighbours in a line overlap that strip by a scan's noise (micrometres to a millimetre), a base in a second line by half its width or more |
//! | a base directly ahead has its rear edge within | [`AHEAD_MAX_GAP_DEPTHS`] depths of the other's front edge | a road column's one-base spacing (000 §1.4) is one depth, typed or scanned as 20.0003 mm; a gap of one and a half depths is a deliberate one |
//! | bases touch (a bank, an edge) when their gap is at most | [`TOUCHING_MM`] | a scanned base "touching" a line stands up to a few tenths of a millimetre off or across it; a gap of a millimetre is visible at the table |
//! | edges lie against each other (Pro Patria's base-to-base contact) when parallel within | [`ALIGNED_DEG`] and [`TOUCHING_MM`] apart | as for touching; a scan turns bases by tenths of a degree |
//!
//! Side-by-side neighbours that touch, overlap or stagger by up to 1 mm with headings
//! within 2° are never directly ahead of each other: their overlap of each other's strip
//! is at most a millimetre and the depth times the sine of 2°, far below a quarter of
//! any base's width (property-tested in `unit_structure`).

use crate::base::CONTACT_TOLERANCE_MM;

/// The tolerance of every length threshold, in mm (a nanometre: rounding noise only).
pub const TIE_MM: f64 = CONTACT_TOLERANCE_MM;

/// The tolerance of a measurement shown to the user against a rule distance, in mm: a
/// millionth of a millimetre, the rounding of the numbers `vedette` prints. A
/// measurement shown as equal to a limit (a hand-typed table lands on round numbers) is
/// within it ([`within_shown`]).
pub const SHOWN_TIE_MM: f64 = 1e-6;

/// The tolerance of fractions ("half or more"): rounding noise of an area ratio.
pub const TIE_FRACTION: f64 = 1e-12;

/// Zones (assault zones, facing arcs, firing arcs, corridors, reaction zones) are
/// closed: each boundary is pushed outward by this much, so a base that exactly touches
/// a zone's side, or stands exactly at its depth, is inside it.
pub const ZONE_SLACK_MM: f64 = CONTACT_TOLERANCE_MM;

/// A base is directly ahead of another only when it overlaps the strip swept forward
/// from the other's front edge by more than this fraction of the other's width.
pub const AHEAD_MIN_OVERLAP_OF_WIDTH: f64 = 0.25;

/// A base is directly ahead of another only when its rear edge lies within this many of
/// the other's depths of the other's front edge (a road column's one-depth spacing,
/// 000 §1.4, is inside; closed at the limit).
pub const AHEAD_MAX_GAP_DEPTHS: f64 = 1.5;

/// Two shapes touch (a base and a stream bank, 000 §3.6 note 2) when their gap is at
/// most this, in mm: scan noise is a tenth of a millimetre, a real gap a millimetre.
pub const TOUCHING_MM: f64 = 0.5;

/// Two edges (or bases) count as parallel, for edge contact and lines, when their
/// directions differ by at most this, in degrees: a scan turns a base by a few tenths of
/// a degree, a player lines up bases to about a degree.
pub const ALIGNED_DEG: f64 = 2.0;

/// "Touching" on a physical table: a gap (or overlap, negative) of at most
/// [`TOUCHING_MM`].
///
/// ```
/// use vedette_geometry::ties::touching;
/// assert!(touching(0.3));
/// assert!(touching(-2.0)); // overlapping
/// assert!(!touching(1.0));
/// ```
#[must_use]
pub fn touching(gap_mm: f64) -> bool {
    gap_mm <= TOUCHING_MM
}

/// "Within `limit_mm`": a distance exactly at the limit is within.
///
/// ```
/// use vedette_geometry::ties::within;
/// assert!(within(76.2, 3.0 * 25.4)); // 3 × 25.4 rounds to 76.19999999999999
/// assert!(!within(76.3, 76.2));
/// ```
#[must_use]
pub fn within(distance_mm: f64, limit_mm: f64) -> bool {
    distance_mm <= limit_mm + TIE_MM
}

/// "Within `limit_mm`" for a measurement shown to the user: within [`SHOWN_TIE_MM`] of
/// the limit is on it.
///
/// ```
/// use vedette_geometry::ties::within_shown;
/// assert!(within_shown(38.1 + 5e-7, 38.1));
/// assert!(!within_shown(38.1 + 2e-6, 38.1));
/// ```
#[must_use]
pub fn within_shown(distance_mm: f64, limit_mm: f64) -> bool {
    distance_mm <= limit_mm + SHOWN_TIE_MM
}

/// "At least `limit_mm`": a distance exactly at the limit is at least it.
#[must_use]
pub fn at_least(distance_mm: f64, limit_mm: f64) -> bool {
    distance_mm >= limit_mm - TIE_MM
}

/// "Past a line" given how far beyond it something reaches (positive beyond): touching
/// the line, or crossing it by rounding noise, is not past.
#[must_use]
pub fn past(depth_beyond_mm: f64) -> bool {
    depth_beyond_mm > TIE_MM
}

/// "Half or more": exactly half counts.
#[must_use]
pub fn half_or_more(fraction: f64) -> bool {
    fraction >= 0.5 - TIE_FRACTION
}

/// Two lengths that a rule compares ("the greatest contact frontage") are the same.
#[must_use]
pub fn same_length(a_mm: f64, b_mm: f64) -> bool {
    (a_mm - b_mm).abs() <= TIE_MM
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thresholds_are_inclusive_where_the_rules_say_so() {
        assert!(within(3.0 * 25.4, 76.2));
        assert!(within(76.2, 3.0 * 25.4));
        assert!(!within(76.2 + 1e-6, 76.2));
        assert!(at_least(76.2, 3.0 * 25.4));
        assert!(!at_least(76.2 - 1e-6, 76.2));
        assert!(!past(0.0));
        assert!(!past(1e-12));
        assert!(past(1e-6));
        assert!(half_or_more(0.5));
        assert!(half_or_more(0.5 - 1e-15));
        assert!(!half_or_more(0.49));
        assert!(same_length(30.0, 30.0 + 1e-12));
    }
}
