//! The check sheet (issue 39 item 5): an A4 page of base tags at known spacings, with
//! the 100 mm ruler every sheet carries. Laid flat on the table and photographed with
//! the fiducials, it lets `vedette check` compare the distances a scan measures with
//! the printed ones: the accuracy of a player's own camera on their own table.
//!
//! Twelve tags of the profile's tag dictionary and size stand in a grid of 3 columns 75
//! mm apart and 4 rows 60 mm apart, so the sheet holds 66 distances from 60 to 234 mm.
//! They use the dictionary's last twelve ids that are not table fiducials (238-249 of
//! `DICT_4X4_250`): rosters should leave those to the sheet.

use crate::error::VisionError;
use crate::profile::Profile;
use crate::sheet::Page;

/// Tags on the check sheet.
pub const CHECK_TAGS: usize = 12;
/// The grid's columns: tag centres, mm from the page's left edge.
const COLUMNS_MM: [f64; 3] = [30.0, 105.0, 180.0];
/// The grid's rows: tag centres, mm from the page's top edge.
const ROWS_MM: [f64; 4] = [52.0, 112.0, 172.0, 232.0];

/// One tag of the check sheet.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CheckTag {
    /// Its id in the profile's tag dictionary.
    pub id: u32,
    /// Its centre, mm from the page's left edge.
    pub x_mm: f64,
    /// Its centre, mm from the page's top edge.
    pub y_mm: f64,
}

impl CheckTag {
    /// The printed distance between two tags' centres, mm.
    #[must_use]
    pub fn distance_mm(&self, other: &CheckTag) -> f64 {
        (self.x_mm - other.x_mm).hypot(self.y_mm - other.y_mm)
    }
}

/// The check sheet's tags for a profile: the last [`CHECK_TAGS`] ids of its tag
/// dictionary that are not table fiducials, row by row from the page's top-left.
#[must_use]
pub fn check_tags(profile: &Profile) -> Vec<CheckTag> {
    let dict = profile.tags.dictionary;
    let shared = dict.shares_codes_with(profile.fiducials.dictionary);
    let mut ids: Vec<u32> = (0..dict.len())
        .rev()
        .filter(|id| !(shared && profile.fiducial(*id).is_some()))
        .take(CHECK_TAGS)
        .collect();
    ids.reverse();
    let places = ROWS_MM.iter().flat_map(|&y| COLUMNS_MM.iter().map(move |&x| (x, y)));
    ids.into_iter().zip(places).map(|(id, (x_mm, y_mm))| CheckTag { id, x_mm, y_mm }).collect()
}

/// The page of the check sheet (`check`), in the profile's tag dictionary and size.
pub fn check_sheet(profile: &Profile) -> Result<Page, VisionError> {
    let t = &profile.tags;
    let quiet = t.size_mm / f64::from(t.dictionary.bits() + 2);
    // Neighbours 60 mm apart: a tag, its quiet zone and its label must fit between.
    if t.size_mm + 2.0 * quiet > 50.0 {
        return Err(VisionError::InvalidField {
            path: profile.origin.clone(),
            field: "tags.size_mm".to_string(),
            reason: format!("{} mm tags do not fit the check sheet's 60 mm grid (at most 37 mm)", t.size_mm),
        });
    }
    let tags = check_tags(profile);
    let mut page = Page::new(
        "check".to_string(),
        &format!("vedette check sheet: {} {} mm tags at known spacings", t.dictionary, t.size_mm),
    );
    page.text(
        12.0,
        28.0,
        2.8,
        "Lay it flat on the table (where disputes happen, or at the far side), photograph the whole table",
    );
    page.text(12.0, 32.0, 2.8, "with its fiducials, and run: vedette check PHOTO --profile PROFILE");
    for tag in &tags {
        let (x, y) = (tag.x_mm - t.size_mm / 2.0, tag.y_mm - t.size_mm / 2.0);
        page.marker(t.dictionary, tag.id, x, y, t.size_mm, quiet)?;
        page.text(x, y + t.size_mm + quiet + 3.0, 2.2, &format!("check {}", tag.id));
    }
    Ok(page)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fiducials::{DetectorSettings, detect_markers};
    use crate::sheet::mm_to_px;

    fn profile() -> Profile {
        let path = format!("{}/../../calibration/default.toml", env!("CARGO_MANIFEST_DIR"));
        Profile::from_toml_str(&std::fs::read_to_string(path).unwrap(), "default.toml").unwrap()
    }

    #[test]
    fn the_sheet_prints_its_tags_where_the_check_expects_them() {
        let p = profile();
        let tags = check_tags(&p);
        assert_eq!(tags.iter().map(|t| t.id).collect::<Vec<_>>(), (238..250).collect::<Vec<u32>>());
        assert_eq!(tags[0].distance_mm(&tags[1]), 75.0);
        assert_eq!(tags[0].distance_mm(&tags[3]), 60.0);
        let r = check_sheet(&p).unwrap().render().unwrap();
        let buf = opencv::core::Vector::<u8>::from_slice(&r.png);
        let img = opencv::imgcodecs::imdecode(&buf, opencv::imgcodecs::IMREAD_GRAYSCALE).unwrap();
        let d = p.tags.dictionary;
        let found =
            detect_markers(&img, d, &DetectorSettings::for_marker_side(mm_to_px(p.tags.size_mm), d.bits()))
                .unwrap();
        assert_eq!(found.len(), CHECK_TAGS);
        for m in &found {
            let t = tags.iter().find(|t| t.id == m.id).unwrap();
            let c = m.centre();
            // Pixel centres at integers: the page's mm x is at px (x * dpi / 25.4) - 0.5.
            assert!((c[0] + 0.5 - mm_to_px(t.x_mm)).abs() < 0.5, "{} at {c:?}", t.id);
            assert!((c[1] + 0.5 - mm_to_px(t.y_mm)).abs() < 0.5, "{} at {c:?}", t.id);
        }
    }

    #[test]
    fn fiducial_ids_are_skipped() {
        let mut p = profile();
        p.fiducials.markers[3].id = 249;
        let ids: Vec<u32> = check_tags(&p).iter().map(|t| t.id).collect();
        assert_eq!(ids, (237..249).collect::<Vec<u32>>());
    }
}
