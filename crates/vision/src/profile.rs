//! Calibration profiles (`calibration/*.toml`, see `docs/calibration.md`): the table's
//! size, its fiducials, the base tags, the height of base tops and, optionally, the
//! camera.

use crate::camera::Intrinsics;
use crate::cubes::MarkerSpec;
use crate::dictionary::Dictionary;
use crate::error::{VisionError, read_text};
use crate::palette::ColourSpec;
use crate::terrain::TerrainClass;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use vedette_geometry::Shown;
use vedette_geometry::Vec2;

/// A calibration profile, as loaded from TOML.
///
/// ```
/// let p = vedette_vision::Profile::from_toml_str(r#"
/// [table]
/// width_mm = 1828.8
/// depth_mm = 1219.2
/// [fiducials]
/// dictionary = "DICT_4X4_50"
/// size_mm = 80
/// markers = [
///   { id = 0, x_mm = 50, y_mm = 50 }, { id = 1, x_mm = 1778.8, y_mm = 50 },
///   { id = 2, x_mm = 1778.8, y_mm = 1169.2 }, { id = 3, x_mm = 50, y_mm = 1169.2 },
/// ]
/// "#, "example.toml")?;
/// assert_eq!(p.tags.size_mm, 12.0);
/// assert_eq!(p.bases.top_height_mm, 3.0);
/// # Ok::<(), vedette_vision::VisionError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Profile {
    /// A title.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The playing area.
    pub table: TableSpec,
    /// The table fiducials.
    pub fiducials: FiducialSpec,
    /// The base tags.
    #[serde(default)]
    pub tags: TagSpec,
    /// The bases.
    #[serde(default)]
    pub bases: BaseSpec,
    /// The camera, when calibrated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub camera: Option<CameraSpec>,
    /// When a scan refuses the camera model.
    #[serde(default)]
    pub limits: Limits,
    /// Reference colours of the fiducials' paper and ink, for colour correction.
    #[serde(default)]
    pub colours: ColourSpec,
    /// Marker cubes: their size, colours and how they link to units.
    #[serde(default)]
    pub markers: MarkerSpec,
    /// The club's terrain classes (`[[terrain]]`), segmented from the photo.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub terrain: Vec<TerrainClass>,
    /// The directory the profile was loaded from (relative camera files resolve here).
    #[serde(skip)]
    pub dir: PathBuf,
    /// The file the profile was loaded from, for messages.
    #[serde(skip)]
    pub origin: String,
}

/// The playing area, a rectangle from the near-left corner.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableSpec {
    /// Along x (the long edge), mm.
    pub width_mm: f64,
    /// Along y (away from the near edge), mm.
    pub depth_mm: f64,
}

impl TableSpec {
    /// The table's centre, mm.
    #[must_use]
    pub fn centre(&self) -> Vec2 {
        Vec2::new(self.width_mm / 2.0, self.depth_mm / 2.0)
    }
}

/// The table fiducials: printed square markers laid flat at known places.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FiducialSpec {
    /// Their dictionary.
    pub dictionary: Dictionary,
    /// Side of the printed marker's black square (border included), mm.
    pub size_mm: f64,
    /// Height of the printed surface above the table, mm (0 for paper on the mat).
    #[serde(default)]
    pub height_mm: f64,
    /// Each fiducial; four to [`MAX_FIDUCIALS`].
    pub markers: Vec<FiducialPlacement>,
}

/// The most table fiducials a profile may declare: the four corners and up to two more
/// along each edge. Every extra fiducial tightens the camera fit and lets a moved one be
/// found by the others.
pub const MAX_FIDUCIALS: usize = 12;

/// Where one table fiducial lies.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FiducialPlacement {
    /// Its marker id in the fiducial dictionary.
    pub id: u32,
    /// Centre x, table mm.
    pub x_mm: f64,
    /// Centre y, table mm.
    pub y_mm: f64,
    /// Degrees counter-clockwise from "the marker's top edge faces the far edge (+y)".
    #[serde(default)]
    pub rotation_deg: f64,
}

impl FiducialPlacement {
    /// The marker's corners in table mm, in OpenCV's order: top-left, top-right,
    /// bottom-right, bottom-left of the marker as printed.
    #[must_use]
    pub fn corners(&self, size_mm: f64) -> [Vec2; 4] {
        square_corners(Vec2::new(self.x_mm, self.y_mm), size_mm, self.rotation_deg + 90.0)
    }
}

/// Corners (OpenCV order) of a square of side `size` centred at `centre` whose "up"
/// (from the bottom edge to the top edge of the printed marker) points along `up_deg`.
#[must_use]
pub fn square_corners(centre: Vec2, size: f64, up_deg: f64) -> [Vec2; 4] {
    let up = Vec2::from_heading_deg(up_deg) * (size / 2.0);
    // Right of "up", seen from above with the table's y away from the viewer.
    let right = Vec2::new(up.y, -up.x);
    [centre + up - right, centre + up + right, centre - up + right, centre - up - right]
}

/// The base tags: one printed marker flat on each base top, its "up" toward the base
/// front.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TagSpec {
    /// Their dictionary (default `DICT_4X4_250`; `DICT_5X5_1000` for big battles).
    #[serde(default = "default_tag_dictionary")]
    pub dictionary: Dictionary,
    /// Side of the black square, mm (default 12).
    #[serde(default = "default_tag_size")]
    pub size_mm: f64,
}

impl Default for TagSpec {
    fn default() -> Self {
        TagSpec { dictionary: default_tag_dictionary(), size_mm: default_tag_size() }
    }
}

fn default_tag_dictionary() -> Dictionary {
    Dictionary::DEFAULT_TAGS
}
fn default_tag_size() -> f64 {
    12.0
}

/// What the profile says about bases.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BaseSpec {
    /// Height of a base's top (where its tag lies) above the table, mm (default 3).
    #[serde(default = "default_top_height")]
    pub top_height_mm: f64,
    /// How much real base tops vary around that height (one standard deviation), mm;
    /// it enters each base's position uncertainty (default 0.3).
    #[serde(default = "default_top_height_sigma")]
    pub top_height_sigma_mm: f64,
    /// Base size for tags the scan cannot look up in a roster (no roster given), mm.
    #[serde(default = "default_base_size")]
    pub default_size_mm: [f64; 2],
}

impl Default for BaseSpec {
    fn default() -> Self {
        BaseSpec {
            top_height_mm: default_top_height(),
            top_height_sigma_mm: default_top_height_sigma(),
            default_size_mm: default_base_size(),
        }
    }
}

fn default_top_height() -> f64 {
    3.0
}
fn default_top_height_sigma() -> f64 {
    0.3
}
fn default_base_size() -> [f64; 2] {
    [30.0, 20.0]
}

/// The camera: a calibration file written by `vedette calibrate-camera`, or the same
/// numbers inline.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CameraSpec {
    /// A camera file, relative to the profile's directory.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<PathBuf>,
    /// Inline intrinsics.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub intrinsics: Option<Intrinsics>,
}

/// When a scan refuses its camera model.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Limits {
    /// Largest acceptable RMS reprojection residual of the fiducial corners, px.
    #[serde(default = "default_max_px")]
    pub max_residual_px: f64,
    /// Largest acceptable RMS residual of the fiducial corners on the table, mm.
    #[serde(default = "default_max_mm")]
    pub max_residual_mm: f64,
    /// The smallest tag side a scan reads, px, over the middle of the table: a photo
    /// whose tags are smaller is refused. Default: what the scanner reads reliably,
    /// 2 px per cell of the tag dictionary's markers (12 px for 4x4 tags; see
    /// `docs/getting-started.md`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_tag_px: Option<f64>,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { max_residual_px: default_max_px(), max_residual_mm: default_max_mm(), min_tag_px: None }
    }
}

fn default_max_px() -> f64 {
    3.0
}
fn default_max_mm() -> f64 {
    2.0
}

impl Profile {
    /// Loads and checks a profile file.
    pub fn load(path: impl AsRef<Path>) -> Result<Profile, VisionError> {
        let path = path.as_ref();
        let text = read_text(path)?;
        let mut p = Profile::from_toml_str(&text, &path.display().to_string())?;
        p.dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
        Ok(p)
    }

    /// Parses and checks a profile; `origin` names it in errors.
    pub fn from_toml_str(text: &str, origin: &str) -> Result<Profile, VisionError> {
        let mut p: Profile = toml::from_str(text).map_err(|e| crate::error::toml_error(origin, &e))?;
        p.origin = origin.to_string();
        p.validate()?;
        Ok(p)
    }

    fn field(&self, field: impl Into<String>, reason: impl Into<String>) -> VisionError {
        VisionError::InvalidField { path: self.origin.clone(), field: field.into(), reason: reason.into() }
    }

    /// Checks what TOML's types cannot.
    pub fn validate(&self) -> Result<(), VisionError> {
        let positive = |name: &str, v: f64| {
            if v.is_finite() && v > 0.0 {
                Ok(())
            } else {
                Err(self.field(name, format!("must be a positive number of mm, got {}", Shown(v))))
            }
        };
        positive("table.width_mm", self.table.width_mm)?;
        positive("table.depth_mm", self.table.depth_mm)?;
        positive("fiducials.size_mm", self.fiducials.size_mm)?;
        positive("tags.size_mm", self.tags.size_mm)?;
        positive("bases.default_size_mm[0]", self.bases.default_size_mm[0])?;
        positive("bases.default_size_mm[1]", self.bases.default_size_mm[1])?;
        positive("limits.max_residual_px", self.limits.max_residual_px)?;
        positive("limits.max_residual_mm", self.limits.max_residual_mm)?;
        if let Some(v) = self.limits.min_tag_px {
            positive("limits.min_tag_px", v)?;
        }
        for (name, v) in [
            ("bases.top_height_mm", self.bases.top_height_mm),
            ("bases.top_height_sigma_mm", self.bases.top_height_sigma_mm),
            ("fiducials.height_mm", self.fiducials.height_mm),
        ] {
            if !(v.is_finite() && v >= 0.0) {
                return Err(self.field(name, format!("must be a number of mm, 0 or more, got {}", Shown(v))));
            }
        }
        if self.fiducials.markers.len() < 4 {
            return Err(self.field(
                "fiducials.markers",
                format!(
                    "at least four table fiducials are needed to solve the camera, the profile has {}",
                    self.fiducials.markers.len()
                ),
            ));
        }
        if self.fiducials.markers.len() > MAX_FIDUCIALS {
            return Err(self.field(
                "fiducials.markers",
                format!(
                    "at most {MAX_FIDUCIALS} table fiducials are supported (four corners and up to eight along the edges), the profile has {}",
                    self.fiducials.markers.len()
                ),
            ));
        }
        let mut seen = BTreeSet::new();
        let dict = self.fiducials.dictionary;
        for (i, m) in self.fiducials.markers.iter().enumerate() {
            let at = |f: &str| format!("fiducials.markers[{i}].{f}");
            if m.id >= dict.len() {
                return Err(
                    self.field(at("id"), format!("{dict} has ids 0..{}, not {}", dict.len() - 1, m.id))
                );
            }
            if !seen.insert(m.id) {
                return Err(self.field(at("id"), format!("id {} is used by two fiducials", m.id)));
            }
            for (name, v) in [("x_mm", m.x_mm), ("y_mm", m.y_mm), ("rotation_deg", m.rotation_deg)] {
                if !v.is_finite() {
                    return Err(self.field(at(name), format!("must be a finite number, got {}", Shown(v))));
                }
            }
        }
        // Four markers on one line would leave the plane undetermined.
        let pts: Vec<Vec2> = self.fiducials.markers.iter().map(|m| Vec2::new(m.x_mm, m.y_mm)).collect();
        if !spans_plane(&pts, self.fiducials.size_mm) {
            return Err(self.field(
                "fiducials.markers",
                "the fiducials lie on one line; place them around the table (e.g. at the corners)",
            ));
        }
        if self.tags.dictionary == self.fiducials.dictionary {
            // Shared dictionaries work (fiducial ids are not read as tags) but say so.
            let max_tag = self.tags.dictionary.len();
            if seen.iter().any(|&id| id < max_tag) && seen.len() as u32 >= max_tag {
                return Err(
                    self.field("fiducials.markers", "the fiducials use every id of the tag dictionary")
                );
            }
        }
        self.markers.validate(&self.origin)?;
        if !(self.colours.vignetting.is_finite() && (0.0..0.9).contains(&self.colours.vignetting)) {
            return Err(self.field(
                "colours.vignetting",
                format!("must be 0 or more and below 0.9, got {}", self.colours.vignetting),
            ));
        }
        let lamp = self.colours.lamp_height_mm;
        if !(lamp.is_finite() && lamp >= crate::palette::LOWEST_LAMP_MM) {
            return Err(self.field(
                "colours.lamp_height_mm",
                format!("must be at least {} mm above the table, got {lamp}", crate::palette::LOWEST_LAMP_MM),
            ));
        }
        crate::terrain::validate_classes(&self.terrain, &self.origin)?;
        crate::terrain::validate_against_ground(&self.terrain, &self.colours.ground, &self.origin)?;
        if let Some(c) = &self.camera {
            match (&c.file, &c.intrinsics) {
                (Some(_), Some(_)) => {
                    return Err(self.field("camera", "give either `file` or `intrinsics`, not both"));
                }
                (None, None) => {
                    return Err(self
                        .field("camera", "give `file = \"camera.toml\"` or an `[camera.intrinsics]` table"));
                }
                (None, Some(i)) => i.validate(&self.origin, "camera.intrinsics")?,
                (Some(_), None) => {}
            }
        }
        Ok(())
    }

    /// The camera intrinsics the profile names, if any (loading the camera file).
    pub fn intrinsics(&self) -> Result<Option<Intrinsics>, VisionError> {
        match &self.camera {
            None => Ok(None),
            Some(CameraSpec { intrinsics: Some(i), .. }) => Ok(Some(i.clone())),
            Some(CameraSpec { file: Some(f), .. }) => {
                let path = if f.is_absolute() { f.clone() } else { self.dir.join(f) };
                Ok(Some(Intrinsics::load(&path)?))
            }
            Some(_) => Ok(None),
        }
    }

    /// The smallest tag side a scan reads, px: `[limits] min_tag_px`, or what the
    /// scanner reads reliably for the tag dictionary
    /// ([`min_marker_px`](crate::diagnosis::min_marker_px)).
    #[must_use]
    pub fn min_tag_px(&self) -> f64 {
        self.limits.min_tag_px.unwrap_or_else(|| crate::diagnosis::min_marker_px(self.tags.dictionary))
    }

    /// The placement of fiducial `id`, if the profile has one.
    #[must_use]
    pub fn fiducial(&self, id: u32) -> Option<&FiducialPlacement> {
        self.fiducials.markers.iter().find(|m| m.id == id)
    }

    /// True when `p` (table mm) is on the table, allowing `margin_mm` outside.
    #[must_use]
    pub fn on_table(&self, p: Vec2, margin_mm: f64) -> bool {
        p.x >= -margin_mm
            && p.y >= -margin_mm
            && p.x <= self.table.width_mm + margin_mm
            && p.y <= self.table.depth_mm + margin_mm
    }

    /// The profile as TOML text.
    pub fn to_toml_string(&self) -> Result<String, VisionError> {
        toml::to_string_pretty(self)
            .map_err(|e| VisionError::Encode { what: "profile".into(), reason: e.to_string() })
    }
}

/// True when the points are not all within `tolerance` of one line.
fn spans_plane(pts: &[Vec2], tolerance: f64) -> bool {
    let Some(&a) = pts.first() else { return false };
    let Some(&b) = pts.iter().max_by(|p, q| (**p - a).length().total_cmp(&(**q - a).length())) else {
        return false;
    };
    let ab = b - a;
    let len = ab.length();
    if len <= tolerance {
        return false;
    }
    pts.iter().any(|&p| (ab.cross(p - a) / len).abs() > tolerance)
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = r#"
[table]
width_mm = 1828.8
depth_mm = 1219.2
[fiducials]
dictionary = "DICT_4X4_50"
size_mm = 80
markers = [
  { id = 0, x_mm = 50, y_mm = 50 }, { id = 1, x_mm = 1778.8, y_mm = 50 },
  { id = 2, x_mm = 1778.8, y_mm = 1169.2 }, { id = 3, x_mm = 50, y_mm = 1169.2 },
]
"#;

    #[test]
    fn defaults_fill_in() {
        let p = Profile::from_toml_str(GOOD, "p.toml").unwrap();
        assert_eq!(p.tags.dictionary, Dictionary::DEFAULT_TAGS);
        assert_eq!(p.bases.top_height_mm, 3.0);
        assert!(p.camera.is_none());
    }

    #[test]
    fn errors_name_file_and_field() {
        let bad = GOOD.replace("size_mm = 80", "size_mm = -80");
        let e = Profile::from_toml_str(&bad, "p.toml").unwrap_err().to_string();
        assert!(e.contains("p.toml") && e.contains("fiducials.size_mm"), "{e}");

        let bad = GOOD.replace("{ id = 3,", "{ id = 2,");
        let e = Profile::from_toml_str(&bad, "p.toml").unwrap_err().to_string();
        assert!(e.contains("fiducials.markers[3].id") && e.contains("two fiducials"), "{e}");

        let bad = GOOD.replace("{ id = 3,", "{ id = 99,");
        let e = Profile::from_toml_str(&bad, "p.toml").unwrap_err().to_string();
        assert!(e.contains("fiducials.markers[3].id") && e.contains("0..49"), "{e}");

        let bad = GOOD.replace(
            "  { id = 2, x_mm = 1778.8, y_mm = 1169.2 }, { id = 3, x_mm = 50, y_mm = 1169.2 },\n",
            "",
        );
        let e = Profile::from_toml_str(&bad, "p.toml").unwrap_err().to_string();
        assert!(e.contains("at least four"), "{e}");

        let extra: String =
            (4..13).map(|i| format!("  {{ id = {i}, x_mm = {}, y_mm = 50 }},\n", 100 + 150 * i)).collect();
        let many = GOOD.replace("},\n]\n", &format!("}},\n{extra}]\n"));
        let e = Profile::from_toml_str(&many, "p.toml").unwrap_err().to_string();
        assert!(e.contains("fiducials.markers") && e.contains("at most 12") && e.contains("has 13"), "{e}");
        let twelve =
            GOOD.replace("},\n]\n", &format!("}},\n{}]\n", &extra[..extra.rfind("  {").unwrap_or(0)]));
        assert!(Profile::from_toml_str(&twelve, "p.toml").is_ok(), "twelve fiducials are allowed");

        let bad = GOOD.replace("width_mm", "widht_mm");
        let e = Profile::from_toml_str(&bad, "p.toml").unwrap_err().to_string();
        assert!(e.contains("p.toml") && e.contains("widht_mm"), "{e}");

        let bad = GOOD.replace("DICT_4X4_50", "DICT_9X9");
        let e = Profile::from_toml_str(&bad, "p.toml").unwrap_err().to_string();
        assert!(e.contains("p.toml") && e.contains("DICT_9X9"), "{e}");

        // A lamp lower than a desk lamp's head (300 mm) is refused; 300 is taken.
        let lamp = |h: &str| format!("{GOOD}[colours]\nlamp_height_mm = {h}\n");
        let e = Profile::from_toml_str(&lamp("299"), "p.toml").unwrap_err().to_string();
        assert!(e.contains("colours.lamp_height_mm") && e.contains("at least 300"), "{e}");
        assert_eq!(Profile::from_toml_str(&lamp("300"), "p.toml").unwrap().colours.lamp_height_mm, 300.0);
        assert_eq!(Profile::from_toml_str(GOOD, "p.toml").unwrap().colours.lamp_height_mm, 1500.0);
    }

    #[test]
    fn collinear_fiducials_are_refused() {
        let bad = GOOD.replace("y_mm = 1169.2", "y_mm = 50");
        let e = Profile::from_toml_str(&bad, "p.toml").unwrap_err().to_string();
        assert!(e.contains("one line"), "{e}");
    }

    #[test]
    fn corners_follow_opencv_order() {
        let m = FiducialPlacement { id: 0, x_mm: 100.0, y_mm: 100.0, rotation_deg: 0.0 };
        let c = m.corners(10.0);
        // Top-left of an unrotated marker is toward -x and +y (the far edge).
        assert!((c[0] - Vec2::new(95.0, 105.0)).length() < 1e-9);
        assert!((c[1] - Vec2::new(105.0, 105.0)).length() < 1e-9);
        assert!((c[2] - Vec2::new(105.0, 95.0)).length() < 1e-9);
        assert!((c[3] - Vec2::new(95.0, 95.0)).length() < 1e-9);
    }
}
