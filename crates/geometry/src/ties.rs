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
//! | "at least 3" apart" | [`at_least`] | at least |
//! | "past the flank line", "inside the rear zone" | [`past`] | not past (touching the line is not crossing it) |
//! | "half or more" (bases, area) | [`half_or_more`] | half counts |
//! | an assault zone, a facing arc, a firing arc | [`ZONE_SLACK_MM`] | closed: touching the boundary is inside |
//! | "greatest contact frontage" | [`same_length`] | equal frontages are all greatest |

use crate::base::CONTACT_TOLERANCE_MM;

/// The tolerance of every length threshold, in mm (a nanometre: rounding noise only).
pub const TIE_MM: f64 = CONTACT_TOLERANCE_MM;

/// The tolerance of fractions ("half or more"): rounding noise of an area ratio.
pub const TIE_FRACTION: f64 = 1e-12;

/// Zones (assault zones, facing arcs, firing arcs, corridors, reaction zones) are
/// closed: each boundary is pushed outward by this much, so a base that exactly touches
/// a zone's side, or stands exactly at its depth, is inside it.
pub const ZONE_SLACK_MM: f64 = CONTACT_TOLERANCE_MM;

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
