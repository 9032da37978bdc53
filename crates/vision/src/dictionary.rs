//! Square marker dictionaries (ArUco and AprilTag families), by the names OpenCV gives
//! them (`DICT_4X4_250`).

use crate::error::VisionError;
use opencv::aruco::PREDEFINED_DICTIONARY_NAME as Cv;
use opencv::core::{Mat, MatTraitConst, Ptr};
use serde::{Deserialize, Serialize};
use std::fmt;

/// One of OpenCV's predefined marker dictionaries.
///
/// ```
/// use vedette_vision::Dictionary;
/// let d: Dictionary = "DICT_4X4_250".parse()?;
/// assert_eq!(d.bits(), 4);
/// assert_eq!(d.len(), 250);
/// assert_eq!(d.to_string(), "DICT_4X4_250");
/// # Ok::<(), vedette_vision::VisionError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Dictionary {
    /// Row of [`TABLE`].
    index: usize,
}

/// Name, OpenCV id, bits per side, number of markers.
const TABLE: [(&str, Cv, i32, u32); 21] = [
    ("DICT_4X4_50", Cv::DICT_4X4_50, 4, 50),
    ("DICT_4X4_100", Cv::DICT_4X4_100, 4, 100),
    ("DICT_4X4_250", Cv::DICT_4X4_250, 4, 250),
    ("DICT_4X4_1000", Cv::DICT_4X4_1000, 4, 1000),
    ("DICT_5X5_50", Cv::DICT_5X5_50, 5, 50),
    ("DICT_5X5_100", Cv::DICT_5X5_100, 5, 100),
    ("DICT_5X5_250", Cv::DICT_5X5_250, 5, 250),
    ("DICT_5X5_1000", Cv::DICT_5X5_1000, 5, 1000),
    ("DICT_6X6_50", Cv::DICT_6X6_50, 6, 50),
    ("DICT_6X6_100", Cv::DICT_6X6_100, 6, 100),
    ("DICT_6X6_250", Cv::DICT_6X6_250, 6, 250),
    ("DICT_6X6_1000", Cv::DICT_6X6_1000, 6, 1000),
    ("DICT_7X7_50", Cv::DICT_7X7_50, 7, 50),
    ("DICT_7X7_100", Cv::DICT_7X7_100, 7, 100),
    ("DICT_7X7_250", Cv::DICT_7X7_250, 7, 250),
    ("DICT_7X7_1000", Cv::DICT_7X7_1000, 7, 1000),
    ("DICT_ARUCO_ORIGINAL", Cv::DICT_ARUCO_ORIGINAL, 5, 1024),
    ("DICT_APRILTAG_16h5", Cv::DICT_APRILTAG_16h5, 4, 30),
    ("DICT_APRILTAG_25h9", Cv::DICT_APRILTAG_25h9, 5, 35),
    ("DICT_APRILTAG_36h10", Cv::DICT_APRILTAG_36h10, 6, 2320),
    ("DICT_APRILTAG_36h11", Cv::DICT_APRILTAG_36h11, 6, 587),
];

impl Dictionary {
    /// The default dictionary of base tags: 4x4 bits, 250 ids.
    pub const DEFAULT_TAGS: Dictionary = Dictionary { index: 2 };
    /// The dictionary for big battles: 5x5 bits, 1000 ids.
    pub const BIG_BATTLE_TAGS: Dictionary = Dictionary { index: 7 };

    fn entry(self) -> (&'static str, Cv, i32, u32) {
        // Every `Dictionary` is built from a row of TABLE, so the index is in range.
        TABLE[self.index.min(TABLE.len() - 1)]
    }

    /// OpenCV's name, e.g. `DICT_4X4_250`.
    #[must_use]
    pub fn name(self) -> &'static str {
        self.entry().0
    }

    /// Bits per side of the marker's inner grid (4 for `DICT_4X4_*`).
    #[must_use]
    pub fn bits(self) -> i32 {
        self.entry().2
    }

    /// How many marker ids the dictionary has (ids are `0..len`).
    #[must_use]
    pub fn len(self) -> u32 {
        self.entry().3
    }

    /// Always false: every dictionary has markers.
    #[must_use]
    pub fn is_empty(self) -> bool {
        false
    }

    /// True when the two dictionaries share marker codes: OpenCV's `DICT_NXN_*`
    /// dictionaries of one size are prefixes of each other (id 3 of `DICT_4X4_50` is
    /// id 3 of `DICT_4X4_250`), so a photo cannot tell their markers apart.
    #[must_use]
    pub fn shares_codes_with(self, other: Dictionary) -> bool {
        let family = |d: Dictionary| {
            let n = d.name();
            if n.starts_with("DICT_APRILTAG") || n == "DICT_ARUCO_ORIGINAL" {
                n.to_string()
            } else {
                n.rsplit_once('_').map_or(n, |(f, _)| f).to_string()
            }
        };
        family(self) == family(other)
    }

    /// The names of every known dictionary, comma separated.
    #[must_use]
    pub fn known_names() -> String {
        TABLE.iter().map(|e| e.0).collect::<Vec<_>>().join(", ")
    }

    /// OpenCV's dictionary object.
    pub fn opencv(self) -> Result<Ptr<opencv::aruco::Dictionary>, VisionError> {
        Ok(opencv::aruco::get_predefined_dictionary(self.entry().1)?)
    }

    /// The cells of marker `id` including its one-cell black border, row by row from
    /// the marker's top-left, `true` for white: a `(bits + 2)`-square grid.
    pub fn cells(self, id: u32) -> Result<Vec<Vec<bool>>, VisionError> {
        if id >= self.len() {
            return Err(VisionError::InvalidField {
                path: "marker".to_string(),
                field: "id".to_string(),
                reason: format!("{} has ids 0..{}, not {id}", self.name(), self.len() - 1),
            });
        }
        let side = self.bits() + 2;
        let mut img = Mat::default();
        // `id < len <= 2320`, so the cast is lossless.
        opencv::aruco::draw_marker(&self.opencv()?, id as i32, side, &mut img, 1)?;
        let mut rows = Vec::with_capacity(side as usize);
        for r in 0..side {
            let mut row = Vec::with_capacity(side as usize);
            for c in 0..side {
                row.push(*img.at_2d::<u8>(r, c)? > 127);
            }
            rows.push(row);
        }
        Ok(rows)
    }
}

impl std::str::FromStr for Dictionary {
    type Err = VisionError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let wanted = s.trim();
        // Accept `4x4_250` and `dict_4x4_250` as well as OpenCV's spelling.
        let canonical = |n: &str| n.to_ascii_uppercase().trim_start_matches("DICT_").to_string();
        TABLE
            .iter()
            .position(|e| canonical(e.0) == canonical(wanted))
            .map(|index| Dictionary { index })
            .ok_or_else(|| VisionError::UnknownDictionary {
                name: s.to_string(),
                known: Dictionary::known_names(),
            })
    }
}

impl TryFrom<String> for Dictionary {
    type Error = VisionError;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        s.parse()
    }
}

impl From<Dictionary> for String {
    fn from(d: Dictionary) -> String {
        d.name().to_string()
    }
}

impl fmt::Display for Dictionary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_lenient_spelling() {
        for e in TABLE {
            let d: Dictionary = e.0.parse().unwrap();
            assert_eq!(d.name(), e.0);
        }
        assert_eq!("4x4_250".parse::<Dictionary>().unwrap(), Dictionary::DEFAULT_TAGS);
        assert_eq!("dict_5x5_1000".parse::<Dictionary>().unwrap(), Dictionary::BIG_BATTLE_TAGS);
        let e = "DICT_3X3_9".parse::<Dictionary>().unwrap_err().to_string();
        assert!(e.contains("DICT_3X3_9") && e.contains("DICT_4X4_50"), "{e}");
    }

    #[test]
    fn families_share_codes() {
        let d50: Dictionary = "DICT_4X4_50".parse().unwrap();
        assert!(d50.shares_codes_with(Dictionary::DEFAULT_TAGS));
        assert!(!d50.shares_codes_with(Dictionary::BIG_BATTLE_TAGS));
        // And OpenCV agrees: the first 50 codes are the same.
        use opencv::aruco::DictionaryTraitConst;
        let a = d50.opencv().unwrap().bytes_list();
        let b = Dictionary::DEFAULT_TAGS.opencv().unwrap().bytes_list();
        for r in 0..50 {
            for c in 0..opencv::core::MatTraitConst::cols(&a) {
                assert_eq!(
                    a.at_2d::<opencv::core::Vec4b>(r, c).unwrap(),
                    b.at_2d::<opencv::core::Vec4b>(r, c).unwrap()
                );
            }
        }
    }

    #[test]
    fn cells_have_a_black_border_and_match_bits() {
        let d = Dictionary::DEFAULT_TAGS;
        let c = d.cells(7).unwrap();
        assert_eq!(c.len(), 6);
        assert!(c[0].iter().all(|w| !w) && c[5].iter().all(|w| !w));
        assert!(c.iter().all(|r| !r[0] && !r[5]));
        assert!(d.cells(250).is_err());
    }

    #[test]
    fn dictionary_sizes_agree_with_opencv() {
        for e in TABLE {
            let d: Dictionary = e.0.parse().unwrap();
            let cv = d.opencv().unwrap();
            use opencv::aruco::DictionaryTraitConst;
            assert_eq!(cv.marker_size(), d.bits(), "{}", e.0);
            assert_eq!(cv.bytes_list().rows() as u32, d.len(), "{}", e.0);
        }
    }
}
