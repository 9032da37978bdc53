//! Numbers and quotes in messages: a value read from a file is echoed as typed when it
//! is of a sensible size, and in exponent form when it is not (`1e300`, not 301
//! digits); text quoted from a file is cut to a readable length ([`clipped`]).

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

/// `text` cut after `max_chars` characters, saying how many were left out (a 200 KB
/// line of a file is not echoed to the terminal).
///
/// ```
/// assert_eq!(vedette_geometry::clipped("abcdef", 4), "abcd ... (2 more characters)");
/// assert_eq!(vedette_geometry::clipped("abc", 4), "abc");
/// ```
#[must_use]
pub fn clipped(text: &str, max_chars: usize) -> String {
    match text.char_indices().nth(max_chars) {
        Some((cut, _)) => format!("{} ... ({} more characters)", &text[..cut], text[cut..].chars().count()),
        None => text.to_string(),
    }
}
