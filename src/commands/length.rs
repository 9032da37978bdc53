//! Distances given on the command line: a number in table millimetres, or with its unit
//! (`150mm`, `15cm`, `6in`, `6"`), as a player reads it off a tape in either system.

/// The longest distance accepted, mm (100 m: far more than any table).
pub const MAX_MM: f64 = 1e5;

/// A distance on the command line in table mm: `150` (mm), `150mm`, `15cm`, `6in` or
/// `6"` (inches, 25.4 mm each); more than 0 and at most [`MAX_MM`].
///
/// ```
/// use vedette::commands::length::parse_length;
/// assert_eq!(parse_length("150"), Ok(150.0));
/// assert_eq!(parse_length("15cm"), Ok(150.0));
/// let inches = |s| parse_length(s).map(|mm| (mm - 152.4).abs() < 1e-9);
/// assert_eq!(inches("6in"), Ok(true));
/// assert_eq!(inches("6\""), Ok(true));
/// assert!(parse_length("6ft").is_err());
/// ```
pub fn parse_length(s: &str) -> Result<f64, String> {
    let t = s.trim();
    let (number, per) = if let Some(n) = t.strip_suffix("mm") {
        (n, 1.0)
    } else if let Some(n) = t.strip_suffix("cm") {
        (n, 10.0)
    } else if let Some(n) = t.strip_suffix("in").or_else(|| t.strip_suffix('"')) {
        (n, vedette_geometry::MM_PER_INCH)
    } else {
        (t, 1.0)
    };
    match number.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 && v * per <= MAX_MM => Ok(v * per),
        _ => Err(format!(
            "\"{s}\": give a distance in table mm (150), or with its unit (150mm, 15cm, 6in), more than 0 and at most {MAX_MM} mm"
        )),
    }
}
