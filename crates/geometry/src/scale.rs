//! Inches, millimetres and figure scales.
//!
//! Inside vedette every length is f64 millimetres; inches and scales appear only at the
//! edges (reading rule distances, printing results).

use serde::{Deserialize, Serialize};
use std::fmt;

/// Millimetres per inch, exactly.
pub const MM_PER_INCH: f64 = 25.4;

/// Inches to millimetres.
///
/// ```
/// assert!((vedette_geometry::inches_to_mm(3.0) - 76.2).abs() < 1e-12);
/// ```
#[must_use]
pub fn inches_to_mm(inches: f64) -> f64 {
    inches * MM_PER_INCH
}

/// Millimetres to inches.
#[must_use]
pub fn mm_to_inches(mm: f64) -> f64 {
    mm / MM_PER_INCH
}

/// The figure scale a table is played at.
///
/// Republique and Republic are written for 15-18 mm figures and scale every distance by
/// a ratio (000 §1.2); Pro Patria gives every distance twice, for 25/28 mm and 15 mm
/// (004 §3.1), as a table rather than a ratio.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema,
)]
pub enum Scale {
    /// Republique small scale, 6 mm figures (1" = 150 yards), ratio 0.66.
    #[serde(rename = "small")]
    Small,
    /// Republique medium scale, 15-18 mm figures (1" = 100 yards), ratio 1.
    #[serde(rename = "medium")]
    Medium,
    /// Republique large scale, 28 mm figures (1" = 66 yards), ratio 1.5.
    #[serde(rename = "large")]
    Large,
    /// Pro Patria 15 mm figures (the bracketed distances).
    #[serde(rename = "15mm")]
    Figures15mm,
    /// Pro Patria 25/28 mm figures (the main distances).
    #[serde(rename = "28mm")]
    Figures28mm,
}

impl Scale {
    /// Every scale, in table-file order.
    pub const ALL: [Scale; 5] =
        [Scale::Small, Scale::Medium, Scale::Large, Scale::Figures15mm, Scale::Figures28mm];

    /// The Republique scale ratio (000 §1.2) that multiplies every rule distance, or
    /// `None` for the Pro Patria scales, whose distances are a table.
    #[must_use]
    pub fn ratio(self) -> Option<f64> {
        match self {
            Scale::Small => Some(0.66),
            Scale::Medium => Some(1.0),
            Scale::Large => Some(1.5),
            Scale::Figures15mm | Scale::Figures28mm => None,
        }
    }

    /// The name used in table files.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Scale::Small => "small",
            Scale::Medium => "medium",
            Scale::Large => "large",
            Scale::Figures15mm => "15mm",
            Scale::Figures28mm => "28mm",
        }
    }
}

impl fmt::Display for Scale {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inch_conversions() {
        assert_eq!(inches_to_mm(1.0), 25.4);
        assert!((inches_to_mm(1.5) - 38.1).abs() < 1e-12);
        assert!((mm_to_inches(76.2) - 3.0).abs() < 1e-15);
    }

    #[test]
    fn ratios() {
        assert_eq!(Scale::Small.ratio(), Some(0.66));
        assert_eq!(Scale::Medium.ratio(), Some(1.0));
        assert_eq!(Scale::Large.ratio(), Some(1.5));
        assert_eq!(Scale::Figures15mm.ratio(), None);
        assert_eq!(Scale::Figures28mm.ratio(), None);
    }

    #[test]
    fn names_round_trip() {
        for s in Scale::ALL {
            let json = serde_json::to_string(&s).unwrap();
            assert_eq!(json, format!("\"{}\"", s.name()));
            assert_eq!(serde_json::from_str::<Scale>(&json).unwrap(), s);
        }
    }
}
