//! `vedette init --table 1830x1220 -o my-table.toml [--units units.txt --roster
//! army.toml]`: a calibration profile for a table of any size, its fiducials placed for
//! that size, and a roster from a plain list of units (issue 39; docs/getting-started.md).

use crate::CliError;
use std::path::PathBuf;

/// Arguments of `vedette init`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Example:\n  vedette init --table 6x4ft -o my-table.toml --units units.txt --roster my-army.toml"
)]
pub struct Args {
    /// The table's size, long edge first: 1830x1220 (mm), 183x122cm, 6x4ft, 72x48in.
    #[arg(long)]
    pub table: String,
    /// Where to write the profile.
    #[arg(short, long)]
    pub output: PathBuf,
    /// How many table fiducials: 4 (the corners), 6 (and the middles of the long
    /// edges) or 8 (and their thirds). Default: 4 up to 2 m long, 6 beyond.
    #[arg(long)]
    pub fiducials: Option<usize>,
    /// The table fiducials' side, mm.
    #[arg(long, default_value_t = 60.0)]
    pub fiducial_mm: f64,
    /// The base tags' side, mm.
    #[arg(long, default_value_t = 12.0)]
    pub tag_mm: f64,
    /// A list of units, one a line: `ID SIDE KIND BASES [WxD] [FORMATION] [key=value ...]`
    /// (docs/getting-started.md); each base gets the next free tag.
    #[arg(long, requires = "roster")]
    pub units: Option<PathBuf>,
    /// Where to write the roster made from `--units`.
    #[arg(long, requires = "units")]
    pub roster: Option<PathBuf>,
    /// The roster's rule set: republique5, republique-classic, republic, pro-patria.
    #[arg(long, default_value = "republique5")]
    pub rules: String,
    /// The roster's figure scale: small, medium, large, 15mm, 28mm.
    #[arg(long, default_value = "medium")]
    pub scale: String,
    /// Replace the profile or roster if the file exists (otherwise refused: a profile
    /// you have measured and edited is not replaced by accident).
    #[arg(long)]
    pub force: bool,
}

/// A table size as `--table` gives it, in mm: `WxD` with an optional unit (mm, cm, m,
/// in or ", ft or ') after either number, applying to both when given once.
pub fn parse_table_size(text: &str) -> Result<(f64, f64), CliError> {
    let bad = |why: &str| {
        CliError::Usage(format!(
            "--table \"{text}\": {why}; give the long edge first, e.g. 1830x1220 (mm), 183x122cm, 6x4ft or 72x48in"
        ))
    };
    let t = text.trim().to_ascii_lowercase().replace('×', "x");
    let (a, b) = t.split_once('x').ok_or_else(|| bad("no 'x' between the two sides"))?;
    let split = |s: &str| -> Result<(f64, Option<f64>), CliError> {
        let s = s.trim();
        let end = s.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(s.len());
        let (num, unit) = s.split_at(end);
        let v: f64 = num.parse().map_err(|_| bad(&format!("\"{s}\" is not a length")))?;
        let per = match unit.trim() {
            "" => None,
            "mm" => Some(1.0),
            "cm" => Some(10.0),
            "m" => Some(1000.0),
            "in" | "\"" | "inch" | "inches" => Some(25.4),
            "ft" | "'" | "feet" | "foot" => Some(304.8),
            u => return Err(bad(&format!("unknown unit \"{u}\" (mm, cm, m, in, ft)"))),
        };
        Ok((v, per))
    };
    let ((w, uw), (d, ud)) = (split(a)?, split(b)?);
    let (uw, ud) = match (uw, ud) {
        (None, None) => (1.0, 1.0),
        (Some(u), None) | (None, Some(u)) => (u, u),
        (Some(x), Some(y)) => (x, y),
    };
    Ok((w * uw, d * ud))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_sizes_in_any_unit() {
        assert_eq!(parse_table_size("1830x1220").unwrap(), (1830.0, 1220.0));
        let (w, d) = parse_table_size("6x4ft").unwrap();
        assert!((w - 1828.8).abs() < 1e-9 && (d - 1219.2).abs() < 1e-9);
        assert_eq!(parse_table_size("6'x4'").unwrap(), parse_table_size("6x4 ft").unwrap());
        let (a, b) = (parse_table_size("72x48in").unwrap(), parse_table_size("6ftx4ft").unwrap());
        assert!((a.0 - b.0).abs() < 1e-9 && (a.1 - b.1).abs() < 1e-9, "{a:?} {b:?}");
        assert_eq!(parse_table_size("183 X 122 cm").unwrap(), (1830.0, 1220.0));
        assert_eq!(parse_table_size("1.8x1.2m").unwrap(), (1800.0, 1200.0));
        for bad in ["1830", "axb", "6x4yd", "-6x4", "x"] {
            assert!(parse_table_size(bad).is_err(), "{bad}");
        }
    }
}
