//! Photo mode and uploads (issue 22), the part that needs no OpenCV: what a scanner
//! gives the server ([`Scanned`], [`PhotoView`]), where a scanned photo's files go,
//! and the checks an uploaded file passes before it is stored.
//!
//! The scanning itself (OpenCV), and the check of an upload's bytes, are a
//! [`Scanner`]'s, which only `vedette-scanner` has: `vedette serve` hands a command
//! line with `--photo` or `--profile` to it, as it does the photo verbs (see
//! [`crate::cli`]).

use crate::CliError;
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use vedette_draw::Scene;
use vedette_geometry::{Table, Vec2};

/// The largest uploaded photo, bytes: a 50-megapixel phone JPEG is about 25 MB; a PNG
/// of a 12-megapixel photo about 30 MB.
pub const UPLOAD_LIMIT: usize = 64 << 20;

/// The folder, beside the table or photo the server was started with, where uploaded
/// photos and their scanned tables are kept.
pub const UPLOADS_DIR: &str = "vedette-uploads";

/// One photo as the page shows it, with the camera model that maps it to the table.
pub trait PhotoView: Send + Sync + std::fmt::Debug {
    /// Width and height, px.
    fn size(&self) -> (u32, u32);
    /// The photo as JPEG, pixel for pixel the image the camera model was solved on
    /// (EXIF orientation applied).
    fn jpeg(&self) -> &[u8];
    /// `scene` drawn in photo pixels through the camera model, lens distortion
    /// included (SVG).
    fn overlay_svg(&self, scene: &Scene) -> Result<String, CliError>;
    /// The table point (mm) seen at pixel `px`, on the plane `height_mm` above the
    /// table; `None` when that ray misses it.
    fn to_table(&self, px: Vec2, height_mm: f64) -> Option<Vec2>;
    /// The height of base tops above the table, mm (where tags lie).
    fn base_top_mm(&self) -> f64;
}

/// A roster tag the scan did not see.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MissingTag {
    /// The tag id.
    pub id: u32,
    /// Its unit.
    pub unit: String,
    /// Its base index in the roster.
    pub base: usize,
}

/// An untagged unit the scan held back from a contested place (issue 37,
/// `missing-unit` with `places`), or that several photos put in places that are not one
/// and that no twin of it takes (`conflicting-unit`): the page offers to put it on one of them (a `place`
/// correction).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HeldUnit {
    /// The unit's id.
    pub unit: String,
    /// The unit as it would stand on each place, best first.
    pub places: Vec<vedette_geometry::Unit>,
    /// Each place's bases' corners (front left, front right, rear right, rear left),
    /// table mm: what the plan draws.
    pub corners_mm: Vec<Vec<[[f64; 2]; 4]>>,
    /// The same corners in the first photo's pixels, at the base tops' height: what the
    /// photo view draws (empty until [`HeldUnit::project`]).
    pub corners_px: Vec<Vec<[[f64; 2]; 4]>>,
    /// Of several photos that put it apart, the photo (0-based) of each place; empty
    /// for a place the one photo barely preferred (contested).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub photos: Vec<usize>,
    /// Why it was held back, the scan report's clause for the page's panel
    /// (`ScanIssue::held_reason`).
    pub why: String,
}

impl HeldUnit {
    /// `unit` held back between `places`, for the reason `why`.
    #[must_use]
    pub fn new(unit: String, places: Vec<vedette_geometry::Unit>, why: String) -> HeldUnit {
        let corners_mm = places
            .iter()
            .map(|p| {
                p.bases
                    .iter()
                    .map(|b| {
                        let c = b.corners();
                        [c.front_left, c.front_right, c.rear_right, c.rear_left].map(|v| [v.x, v.y])
                    })
                    .collect()
            })
            .collect();
        HeldUnit { unit, places, corners_mm, corners_px: Vec::new(), photos: Vec::new(), why }
    }

    /// The same, each place from the photo of the same rank in `photos`.
    #[must_use]
    pub fn seen_in(mut self, photos: Vec<usize>) -> HeldUnit {
        self.photos = photos;
        self
    }

    /// Fills [`HeldUnit::corners_px`] with `to_photo` (table mm to photo pixels, one
    /// call for every corner); left empty when a corner does not project.
    pub fn project(&mut self, to_photo: impl Fn(&[Vec2]) -> Option<Vec<Vec2>>) {
        let all: Vec<Vec2> =
            self.corners_mm.iter().flatten().flatten().map(|&[x, y]| Vec2::new(x, y)).collect();
        let Some(px) = to_photo(&all).filter(|px| px.len() == all.len()) else { return };
        let mut next = px.into_iter().map(|p| [p.x, p.y]);
        self.corners_px = self
            .corners_mm
            .iter()
            .map(|place| {
                place.iter().map(|_| std::array::from_fn(|_| next.next().unwrap_or([0.0, 0.0]))).collect()
            })
            .collect();
    }
}

/// A roster unit the scan put nowhere and offered no place for (issue 37: an untagged
/// unit whose bases were not found, a tagged unit none of whose tags was seen): the
/// page offers to lay it out where the player shows it (a `place` correction).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AbsentUnit {
    /// The unit as the roster has it, laid out in its formation about the table's
    /// origin, its front toward +y (heading 90°): the page turns and moves it.
    pub template: vedette_geometry::Unit,
    /// The formation's depth, mm: its front edge stands this far ahead of the
    /// template's rear edge.
    pub depth_mm: f64,
    /// Whether it faces the far edge (+y) standing in the near half of the table, and
    /// standing in the far half (the fitter's prior: the roster's `near_side`, else the
    /// half it stands in).
    pub faces_far: [bool; 2],
    /// The table's width and depth, mm: the taps must fall on it, and the near half
    /// ends at half its depth.
    pub table_mm: [f64; 2],
}

/// What a scan found, as the page shows it after an upload.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ScanSummary {
    /// The photos scanned (several are merged into one table), as stored.
    pub photos: Vec<String>,
    /// The photos of the empty table they were scanned against (issue 37,
    /// `--background`): none, or one per photo in order.
    pub backgrounds: Vec<String>,
    /// Bases in the scanned table.
    pub bases: usize,
    /// Units in the scanned table.
    pub units: usize,
    /// Tags seen (fiducials excluded; summed over the photos).
    pub tags_seen: usize,
    /// Roster tags seen in no photo.
    pub missing_tags: Vec<MissingTag>,
    /// Every issue of the scan, in words (missing tags included).
    pub issues: Vec<String>,
    /// Untagged units the photo cannot tell apart (issue 37, `ambiguous-unit`): each
    /// group is the unit a formation was given to, then the units it may be instead
    /// that can stand for it (one kind, as many bases of one size; the issue's words
    /// also name units of another layout). The page offers to swap A's unit with the
    /// others on the table.
    pub twins: Vec<Vec<String>>,
    /// Untagged units held back from contested places, with the places.
    pub held: Vec<HeldUnit>,
    /// Roster units on no place at all (neither on the table nor held), to lay out by
    /// hand.
    pub absent: Vec<AbsentUnit>,
    /// Time the scan took, ms.
    pub scan_ms: f64,
}

/// A scan's result for the server: the table as scanned (no corrections), its scan
/// report file, the summary, and the first photo's view.
#[derive(Debug)]
pub struct Scanned {
    /// The photos, in the order given.
    pub photos: Vec<PathBuf>,
    /// The table as scanned.
    pub table: Table,
    /// The text `vedette scan --report` writes for these photos.
    pub report_text: String,
    /// What the page shows.
    pub summary: ScanSummary,
    /// The first photo and its camera model.
    pub view: Arc<dyn PhotoView>,
}

/// What scans photos for the server: the profile, roster and camera files it was
/// started with, behind OpenCV.
pub trait Scanner: Send + Sync {
    /// Scans `photos` (several: one table, merged as `vedette scan` merges them)
    /// against `backgrounds`, photos of the empty table taken from the same places
    /// (none, or one per photo in order: `vedette scan --background`), calling `stage`
    /// with what it is doing.
    fn scan(
        &self,
        photos: &[PathBuf],
        backgrounds: &[PathBuf],
        stage: &dyn Fn(String),
    ) -> Result<Scanned, CliError>;

    /// An uploaded file's checks before it is kept (`name` as the page gave it): an
    /// image by its first bytes (not by its name or declared type), of a size a scan
    /// can decode. Gives the extension it is stored with, or the reason it is refused
    /// (naming the file).
    fn check_upload(&self, name: &str, bytes: &[u8]) -> Result<&'static str, String>;
}

/// Builds the [`Scanner`] of a server's arguments (in `vedette-scanner`).
pub type OpenScanner<'a> = &'a dyn Fn(&super::Args) -> Result<Arc<dyn Scanner>, CliError>;

/// The file name of `photo` with `suffix` appended, beside it: `battle.jpg` gives
/// `battle.jpg.table.json` (the whole name is kept, so a scan never overwrites a
/// `battle.table.json` that is already there).
fn beside(photo: &Path, suffix: &str) -> PathBuf {
    let name = photo.file_name().map_or_else(|| "photo".into(), |n| n.to_string_lossy().into_owned());
    photo.with_file_name(format!("{name}{suffix}"))
}

/// Where the table scanned from `photo` is written: `PHOTO.table.json` (its
/// corrections go to `PHOTO.table.corrections.json`).
#[must_use]
pub fn table_path(photo: &Path) -> PathBuf {
    beside(photo, ".table.json")
}

/// Where the scan report of `photo` is written: `PHOTO.scan-report.json` (what
/// `vedette report --png --photo PHOTO --scan-report` reads).
#[must_use]
pub fn scan_report_path(photo: &Path) -> PathBuf {
    beside(photo, ".scan-report.json")
}

/// A stored upload's file name: `NNN-name.ext`, numbered after those already in
/// `dir`, the name kept to letters, digits, `-`, `_` and `.` (nothing that could
/// leave the folder), the extension the one its bytes show.
#[must_use]
pub fn upload_name(dir: &Path, name: &str, ext: &str) -> String {
    let stem = Path::new(name).file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let mut clean: String = stem
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') { c } else { '_' })
        .take(60)
        .collect();
    clean = clean.trim_start_matches('.').to_string();
    if clean.is_empty() {
        clean = "photo".to_string();
    }
    let taken = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .filter_map(|e| {
                    e.file_name().to_string_lossy().split('-').next().and_then(|n| n.parse().ok())
                })
                .max()
                .unwrap_or(0u32)
        })
        .unwrap_or(0);
    format!("{:03}-{clean}.{ext}", taken + 1)
}

/// The number of verdicts in a report too close to call: every object holding
/// `"certain": false`, counted in the report's compact JSON (`serde_json::to_string`)
/// without parsing it again. In compact JSON the text `"certain":false` is such a key
/// and value and nothing else: a quote inside a string is escaped (`\"`), so no string
/// holds `"certain":`, and a string's closing quote is never followed by `certain`.
#[must_use]
pub fn close_calls(compact_json: &str) -> usize {
    compact_json.matches("\"certain\":false").count()
}

#[cfg(test)]
mod tests {

    /// Issue 37: a held unit's places are drawn from their bases' corners (front left,
    /// front right, rear right, rear left, table mm), and in the photo from the same
    /// corners projected, in order; a projection that fails leaves the photo without.
    #[test]
    fn a_held_units_places_are_outlined_by_their_corners() {
        let place = |x: f64| -> vedette_geometry::Unit {
            serde_json::from_str(&format!(
                r#"{{"id":"fr-9","side":"fr","kind":"infantry","bases":[{{"x":{x},"y":50,"heading":90,"width":40,"depth":20}}]}}"#
            ))
            .unwrap()
        };
        let mut held = HeldUnit::new("fr-9".into(), vec![place(100.0), place(103.0)], String::new());
        assert_eq!(held.corners_mm[0], vec![[[80.0, 60.0], [120.0, 60.0], [120.0, 40.0], [80.0, 40.0]]]);
        assert_eq!(held.corners_mm[1][0][0], [83.0, 60.0]);
        assert!(held.corners_px.is_empty());
        held.project(|_| None);
        assert!(held.corners_px.is_empty());
        held.project(|p| Some(p.iter().map(|v| Vec2::new(2.0 * v.x, 3.0 * v.y)).collect()));
        assert_eq!(
            held.corners_px[0],
            vec![[[160.0, 180.0], [240.0, 180.0], [240.0, 120.0], [160.0, 120.0]]]
        );
        assert_eq!(held.corners_px[1][0][3], [166.0, 120.0]);
    }
    use super::*;

    #[test]
    fn scanned_files_keep_the_photos_whole_name() {
        assert_eq!(table_path(Path::new("a/battle.jpg")), Path::new("a/battle.jpg.table.json"));
        assert_eq!(scan_report_path(Path::new("battle.jpg")), Path::new("battle.jpg.scan-report.json"));
        assert_eq!(
            super::super::corrections::corrections_path(&table_path(Path::new("a/battle.jpg"))),
            Path::new("a/battle.jpg.table.corrections.json")
        );
    }

    #[test]
    fn upload_names_stay_in_their_folder_and_count_on() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(upload_name(dir.path(), "../../etc/passwd", "jpg"), "001-passwd.jpg");
        assert_eq!(upload_name(dir.path(), "..", "png"), "001-photo.png");
        assert_eq!(upload_name(dir.path(), "mon été 1.JPG", "jpg"), "001-mon__t__1.jpg");
        std::fs::write(dir.path().join("007-x.jpg"), b"").unwrap();
        assert_eq!(upload_name(dir.path(), "x.jpeg", "jpg"), "008-x.jpg");
    }

    #[test]
    fn close_calls_are_counted_wherever_they_are() {
        let r = serde_json::json!({"a": [{"call": {"certain": false}}, {"call": {"certain": true}}],
                                    "b": {"c": {"certain": false, "d": [{"certain": false}]}},
                                    "e": "\"certain\":false", "\"certain\":false": "certain\":false"});
        assert_eq!(close_calls(&serde_json::to_string(&r).unwrap()), 3);
    }
}
