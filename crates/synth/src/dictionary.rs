//! OpenCV's predefined ArUco dictionaries, bit for bit, without linking OpenCV.
//!
//! The bits come from `data/aruco.txt`, written by `tools/dump_aruco.py` from the
//! markers `cv2.aruco.drawMarker` draws (OpenCV 4.6). OpenCV builds its 50-, 100- and
//! 250-marker dictionaries of one marker size from the first markers of the 1000-marker
//! one (the script checks this), so the file holds only `DICT_4X4_1000` and
//! `DICT_5X5_1000`.

use crate::error::SynthError;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;

/// The embedded dump of OpenCV's dictionaries.
const DATA: &str = include_str!("../data/aruco.txt");

/// A predefined ArUco dictionary of OpenCV, by its OpenCV name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ArucoDictionary {
    /// `DICT_4X4_50`.
    #[serde(rename = "DICT_4X4_50")]
    Dict4x4_50,
    /// `DICT_4X4_100`.
    #[serde(rename = "DICT_4X4_100")]
    Dict4x4_100,
    /// `DICT_4X4_250`: the default for table fiducials and base tags.
    #[serde(rename = "DICT_4X4_250")]
    Dict4x4_250,
    /// `DICT_4X4_1000`.
    #[serde(rename = "DICT_4X4_1000")]
    Dict4x4_1000,
    /// `DICT_5X5_50`.
    #[serde(rename = "DICT_5X5_50")]
    Dict5x5_50,
    /// `DICT_5X5_100`.
    #[serde(rename = "DICT_5X5_100")]
    Dict5x5_100,
    /// `DICT_5X5_250`.
    #[serde(rename = "DICT_5X5_250")]
    Dict5x5_250,
    /// `DICT_5X5_1000`: for big battles.
    #[serde(rename = "DICT_5X5_1000")]
    Dict5x5_1000,
}

impl ArucoDictionary {
    /// Every dictionary the crate knows.
    pub const ALL: [ArucoDictionary; 8] = [
        ArucoDictionary::Dict4x4_50,
        ArucoDictionary::Dict4x4_100,
        ArucoDictionary::Dict4x4_250,
        ArucoDictionary::Dict4x4_1000,
        ArucoDictionary::Dict5x5_50,
        ArucoDictionary::Dict5x5_100,
        ArucoDictionary::Dict5x5_250,
        ArucoDictionary::Dict5x5_1000,
    ];

    /// OpenCV's name, e.g. `DICT_4X4_250`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            ArucoDictionary::Dict4x4_50 => "DICT_4X4_50",
            ArucoDictionary::Dict4x4_100 => "DICT_4X4_100",
            ArucoDictionary::Dict4x4_250 => "DICT_4X4_250",
            ArucoDictionary::Dict4x4_1000 => "DICT_4X4_1000",
            ArucoDictionary::Dict5x5_50 => "DICT_5X5_50",
            ArucoDictionary::Dict5x5_100 => "DICT_5X5_100",
            ArucoDictionary::Dict5x5_250 => "DICT_5X5_250",
            ArucoDictionary::Dict5x5_1000 => "DICT_5X5_1000",
        }
    }

    /// Data bits per side (4 or 5); the printed marker is two cells wider, for its
    /// black border.
    #[must_use]
    pub fn bits_per_side(self) -> usize {
        match self {
            ArucoDictionary::Dict4x4_50
            | ArucoDictionary::Dict4x4_100
            | ArucoDictionary::Dict4x4_250
            | ArucoDictionary::Dict4x4_1000 => 4,
            _ => 5,
        }
    }

    /// How many markers the dictionary holds (ids `0..count`).
    #[must_use]
    pub fn count(self) -> u32 {
        match self {
            ArucoDictionary::Dict4x4_50 | ArucoDictionary::Dict5x5_50 => 50,
            ArucoDictionary::Dict4x4_100 | ArucoDictionary::Dict5x5_100 => 100,
            ArucoDictionary::Dict4x4_250 | ArucoDictionary::Dict5x5_250 => 250,
            ArucoDictionary::Dict4x4_1000 | ArucoDictionary::Dict5x5_1000 => 1000,
        }
    }

    /// The bits of marker `id`.
    ///
    /// ```
    /// use vedette_synth::ArucoDictionary;
    /// let m = ArucoDictionary::Dict4x4_250.marker(10)?;
    /// // Row 0 of marker 10 is all white; row 3 is black except its last cell.
    /// assert!((0..4).all(|c| m.is_white(0, c)));
    /// assert!(!m.is_white(3, 0) && m.is_white(3, 3));
    /// # Ok::<(), vedette_synth::SynthError>(())
    /// ```
    pub fn marker(self, id: u32) -> Result<MarkerBits, SynthError> {
        if id >= self.count() {
            return Err(SynthError::UnknownMarkerId { dictionary: self, id, count: self.count() });
        }
        let family = families()?;
        let codes = if self.bits_per_side() == 4 { &family.four } else { &family.five };
        let bits = codes.get(id as usize).copied().ok_or_else(|| SynthError::DictionaryData {
            line: 0,
            reason: format!("{} has no marker {id}", self.name()),
        })?;
        Ok(MarkerBits { bits_per_side: self.bits_per_side(), bits })
    }
}

impl fmt::Display for ArucoDictionary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for ArucoDictionary {
    type Err = SynthError;

    /// Parses OpenCV's name, with or without the `DICT_` prefix, in any case.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let upper = s.trim().to_ascii_uppercase();
        let wanted = if upper.starts_with("DICT_") { upper } else { format!("DICT_{upper}") };
        ArucoDictionary::ALL.into_iter().find(|d| d.name() == wanted).ok_or_else(|| {
            SynthError::UnknownDictionary {
                name: s.to_string(),
                known: ArucoDictionary::ALL.map(ArucoDictionary::name).join(", "),
            }
        })
    }
}

/// The data bits of one marker, in OpenCV's canonical orientation: row 0 is the
/// marker's top row (the edge between its corners 0 and 1 in `detectMarkers` order).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MarkerBits {
    bits_per_side: usize,
    /// Row-major, the most significant used bit is row 0, column 0; 1 is white.
    bits: u32,
}

impl MarkerBits {
    /// Data bits per side.
    #[must_use]
    pub fn bits_per_side(&self) -> usize {
        self.bits_per_side
    }

    /// True when data cell (`row`, `col`) is white; out-of-range cells are black.
    #[must_use]
    pub fn is_white(&self, row: usize, col: usize) -> bool {
        let n = self.bits_per_side;
        if row >= n || col >= n {
            return false;
        }
        let shift = n * n - 1 - (row * n + col);
        (self.bits >> shift) & 1 == 1
    }

    /// True when cell (`row`, `col`) of the printed marker, counting the black border
    /// (cells `0..n+2` each way), is white.
    #[must_use]
    pub fn printed_cell_is_white(&self, row: usize, col: usize) -> bool {
        let n = self.bits_per_side;
        (1..=n).contains(&row) && (1..=n).contains(&col) && self.is_white(row - 1, col - 1)
    }
}

/// The parsed data file: codes of the 1000-marker dictionaries by marker size.
struct Families {
    four: Vec<u32>,
    five: Vec<u32>,
}

fn families() -> Result<&'static Families, SynthError> {
    static PARSED: OnceLock<Result<Families, SynthError>> = OnceLock::new();
    match PARSED.get_or_init(|| parse(DATA)) {
        Ok(f) => Ok(f),
        Err(e) => Err(SynthError::DictionaryData { line: 0, reason: e.to_string() }),
    }
}

fn parse(text: &str) -> Result<Families, SynthError> {
    let mut four = Vec::new();
    let mut five = Vec::new();
    let mut current: Option<(usize, usize)> = None; // (bits per side, remaining)
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        let bad = |reason: String| SynthError::DictionaryData { line: i + 1, reason };
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(rest) = line.strip_prefix("dictionary ") {
            let fields: Vec<&str> = rest.split_whitespace().collect();
            let [_, size, count] = fields.as_slice() else {
                return Err(bad(format!("expected `dictionary NAME SIZE COUNT`, got `{line}`")));
            };
            let size: usize = size.parse().map_err(|_| bad(format!("bad marker size `{size}`")))?;
            let count: usize = count.parse().map_err(|_| bad(format!("bad count `{count}`")))?;
            current = Some((size, count));
            continue;
        }
        let Some((size, remaining)) = current.filter(|(_, r)| *r > 0) else {
            return Err(bad(format!("marker line outside a dictionary: `{line}`")));
        };
        let code = u32::from_str_radix(line, 16).map_err(|_| bad(format!("bad hexadecimal `{line}`")))?;
        if u64::from(code) >> (size * size) != 0 {
            return Err(bad(format!("code `{line}` has more than {} bits", size * size)));
        }
        match size {
            4 => four.push(code),
            5 => five.push(code),
            _ => return Err(bad(format!("unsupported marker size {size}"))),
        }
        current = Some((size, remaining - 1));
    }
    if four.len() < 1000 || five.len() < 1000 {
        return Err(SynthError::DictionaryData {
            line: 0,
            reason: format!("expected 1000 markers of each size, found {} and {}", four.len(), five.len()),
        });
    }
    Ok(Families { four, five })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rows of printed cells (border included) as OpenCV draws them, `1` white.
    fn rows(m: &MarkerBits) -> Vec<String> {
        let n = m.bits_per_side() + 2;
        (0..n)
            .map(|r| (0..n).map(|c| if m.printed_cell_is_white(r, c) { '1' } else { '0' }).collect())
            .collect()
    }

    /// Expected patterns read from `cv2.aruco.drawMarker(dict, id, (n + 2) * k)` in
    /// OpenCV 4.6 by hand, not from the data file.
    #[test]
    fn markers_match_opencv_drawings() {
        let m = ArucoDictionary::Dict4x4_250.marker(10).unwrap();
        assert_eq!(rows(&m), ["000000", "011110", "010010", "010010", "000010", "000000"]);
        // 0xb532 = 1011 0101 0011 0010
        let m = ArucoDictionary::Dict4x4_50.marker(0).unwrap();
        assert_eq!(rows(&m)[1..5], ["010110", "001010", "000110", "000100"]);
        // DICT_5X5_1000 id 999 = 0x1f7921d.
        let m = ArucoDictionary::Dict5x5_1000.marker(999).unwrap();
        assert_eq!(rows(&m), ["0000000", "0111110", "0011110", "0001000", "0100000", "0111010", "0000000"]);
    }

    #[test]
    fn smaller_dictionaries_are_prefixes() {
        for (small, big) in [
            (ArucoDictionary::Dict4x4_250, ArucoDictionary::Dict4x4_1000),
            (ArucoDictionary::Dict5x5_50, ArucoDictionary::Dict5x5_1000),
        ] {
            assert_eq!(small.marker(49).unwrap(), big.marker(49).unwrap());
        }
        assert_ne!(
            ArucoDictionary::Dict4x4_250.marker(1).unwrap(),
            ArucoDictionary::Dict5x5_250.marker(1).unwrap()
        );
    }

    #[test]
    fn ids_beyond_the_dictionary_are_refused() {
        assert!(ArucoDictionary::Dict4x4_250.marker(249).is_ok());
        assert!(matches!(
            ArucoDictionary::Dict4x4_250.marker(250),
            Err(SynthError::UnknownMarkerId { id: 250, count: 250, .. })
        ));
    }

    #[test]
    fn names_round_trip() {
        for d in ArucoDictionary::ALL {
            assert_eq!(d.name().parse::<ArucoDictionary>().unwrap(), d);
            let json = serde_json::to_string(&d).unwrap();
            assert_eq!(json, format!("\"{}\"", d.name()));
        }
        assert_eq!("4x4_250".parse::<ArucoDictionary>().unwrap(), ArucoDictionary::Dict4x4_250);
        assert!("DICT_6X6_250".parse::<ArucoDictionary>().is_err());
    }

    #[test]
    fn malformed_data_is_reported_with_its_line() {
        let err = parse("dictionary X 4 1\nzz\n").err().unwrap();
        assert!(matches!(err, SynthError::DictionaryData { line: 2, .. }), "{err}");
        let err = parse("1234\n").err().unwrap();
        assert!(matches!(err, SynthError::DictionaryData { line: 1, .. }), "{err}");
    }
}
