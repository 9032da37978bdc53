//! Numbers in messages: a value read from a file is echoed as typed when it is of a
//! sensible size, and in exponent form when it is not (`1e300`, not 301 digits).

use std::fmt;

/// Displays an `f64` for an error message.
///
/// ```
/// use vedette_geometry::Shown;
/// assert_eq!(Shown(30.5).to_string(), "30.5");
/// assert_eq!(Shown(-1e300).to_string(), "-1e300");
/// assert_eq!(Shown(f64::NAN).to_string(), "NaN");
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Shown(pub f64);

impl fmt::Display for Shown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v = self.0;
        let a = v.abs();
        if v.is_finite() && v != 0.0 && !(1e-4..1e9).contains(&a) {
            write!(f, "{v:e}")
        } else {
            write!(f, "{v}")
        }
    }
}
