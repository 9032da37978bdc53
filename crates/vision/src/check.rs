//! `vedette check` (issue 39 item 5): how accurate is a scan with this camera on this
//! table? The check sheet ([`check_sheet`](crate::check_sheet)) lies flat on the table;
//! the photo is scanned as any photo is (fiducials, camera model, self-calibration),
//! its tags measured on the plane of the paper, and every distance between two of its
//! tags compared with the printed one.
//!
//! Each distance has the uncertainty the scan states for it: its two tags' `sigma_mm`
//! added in quadrature (the errors of nearby tags share the camera model's, so this
//! overstates it, if anything). The photo is good enough for disputes when every
//! distance is within [`DISPUTE_MM`] of the printed one and within three of its stated
//! standard uncertainties (plus [`CHECK_FLOOR_MM`]): then close calls are marked
//! honestly, and what is not marked is right to a millimetre.

use crate::camera::Intrinsics;
use crate::check_sheet::{CheckTag, check_tags};
use crate::error::VisionError;
use crate::photo::Photo;
use crate::profile::Profile;
use crate::scan::{CameraReport, ScanIssue, scan_with};
use crate::surface::SurfaceOptions;
use serde::{Deserialize, Serialize};
use vedette_geometry::Vec2;

/// The fewest check-sheet tags a check measures (six distances).
pub const MIN_CHECK_TAGS: usize = 4;
/// The largest distance error, mm, of a photo good enough for disputes: a
/// twenty-fifth of an inch, below what a tape measure settles on the table.
pub const DISPUTE_MM: f64 = 1.0;
/// Errors the stated uncertainty may leave out, mm: the print's own accuracy (a 300 dpi
/// printer places an edge to a tenth of a millimetre).
pub const CHECK_FLOOR_MM: f64 = 0.1;
/// How many standard uncertainties an honest distance error stays within.
pub const CHECK_SIGMAS: f64 = 3.0;

/// One distance between two check-sheet tags.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct CheckPair {
    /// One tag's id.
    pub a: u32,
    /// The other's.
    pub b: u32,
    /// The printed distance between their centres, mm.
    pub printed_mm: f64,
    /// The scanned distance, mm.
    pub measured_mm: f64,
    /// Measured minus printed, mm.
    pub error_mm: f64,
    /// The scan's stated standard uncertainty of the distance, mm.
    pub sigma_mm: f64,
}

impl CheckPair {
    /// True when the error is within [`CHECK_SIGMAS`] stated uncertainties plus
    /// [`CHECK_FLOOR_MM`].
    #[must_use]
    pub fn within_stated(&self) -> bool {
        self.error_mm.abs() <= CHECK_SIGMAS * self.sigma_mm + CHECK_FLOOR_MM
    }
}

/// What `vedette check` reports.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CheckReport {
    /// Photo width, px.
    pub image_width: u32,
    /// Photo height, px.
    pub image_height: u32,
    /// Tags on the sheet.
    pub sheet_tags: usize,
    /// The sheet's tags found, by id.
    pub found: Vec<u32>,
    /// Every distance between two found tags.
    pub pairs: Vec<CheckPair>,
    /// The mean of the distance errors' sizes, mm.
    pub mean_error_mm: f64,
    /// The pair with the largest error.
    pub worst: CheckPair,
    /// The measured distances over the printed ones, fitted over every pair (1 when
    /// the scale is right).
    pub scale: f64,
    /// The median stated standard uncertainty of a distance, mm.
    pub sigma_mm: f64,
    /// Pairs whose error is within their stated uncertainty ([`CheckPair::within_stated`]).
    pub within_stated: usize,
    /// Every error within [`DISPUTE_MM`] and within its stated uncertainty.
    pub good_for_disputes: bool,
    /// The camera model of the scan.
    pub camera: CameraReport,
    /// What the scan said about the photo (marginal size, blur, glare, tags off the
    /// sheet left out).
    pub issues: Vec<ScanIssue>,
}

/// Checks a photo of the check sheet lying on the table (with the profile's fiducials):
/// refused when the sheet is not in it ([`VisionError::CheckSheetMissing`]), or when
/// its tags are too small or too blurred to be read, as a scan refuses them.
pub fn check_photo(
    photo: &Photo,
    profile: &Profile,
    intrinsics: Option<&Intrinsics>,
) -> Result<CheckReport, VisionError> {
    // The sheet's tags lie on paper on the table, not on base tops.
    let mut paper = profile.clone();
    paper.bases.top_height_mm = profile.fiducials.height_mm;
    paper.bases.top_height_sigma_mm = profile.bases.top_height_sigma_mm.min(0.1);
    let scan = scan_with(
        photo,
        &paper,
        None,
        intrinsics,
        SurfaceOptions { markers: false, terrain: false, tags: true },
    )?;
    let sheet = check_tags(profile);
    let mut seen: Vec<(CheckTag, Vec2, f64)> = Vec::new();
    for (_, b) in scan.table.bases() {
        let (Some(tag), Some(sigma)) = (b.meta().tag, b.meta().sigma_mm) else { continue };
        if let Some(t) = sheet.iter().find(|t| t.id == tag) {
            seen.push((*t, b.centre(), sigma));
        }
    }
    seen.sort_by_key(|(t, ..)| t.id);
    if seen.len() < MIN_CHECK_TAGS {
        let (first, last) = (sheet.first().map_or(0, |t| t.id), sheet.last().map_or(0, |t| t.id));
        return Err(VisionError::CheckSheetMissing {
            found: seen.len(),
            expected: sheet.len(),
            needed: MIN_CHECK_TAGS,
            dictionary: profile.tags.dictionary.to_string(),
            ids: format!("{first}-{last}"),
        });
    }
    let mut pairs = Vec::new();
    for (i, (ta, ca, sa)) in seen.iter().enumerate() {
        for (tb, cb, sb) in &seen[i + 1..] {
            let printed_mm = ta.distance_mm(tb);
            let measured_mm = ca.distance(*cb);
            pairs.push(CheckPair {
                a: ta.id,
                b: tb.id,
                printed_mm,
                measured_mm,
                error_mm: measured_mm - printed_mm,
                sigma_mm: sa.hypot(*sb),
            });
        }
    }
    Ok(summarize(&scan, &sheet, seen.iter().map(|(t, ..)| t.id).collect(), pairs))
}

fn summarize(
    scan: &crate::scan::Scan,
    sheet: &[CheckTag],
    found: Vec<u32>,
    pairs: Vec<CheckPair>,
) -> CheckReport {
    let n = pairs.len().max(1) as f64;
    let mean_error_mm = pairs.iter().map(|p| p.error_mm.abs()).sum::<f64>() / n;
    let worst =
        pairs.iter().copied().max_by(|a, b| a.error_mm.abs().total_cmp(&b.error_mm.abs())).unwrap_or(
            CheckPair { a: 0, b: 0, printed_mm: 0.0, measured_mm: 0.0, error_mm: 0.0, sigma_mm: 0.0 },
        );
    let (mp, pp) = pairs.iter().fold((0.0, 0.0), |(mp, pp), p| {
        (mp + p.measured_mm * p.printed_mm, pp + p.printed_mm * p.printed_mm)
    });
    let scale = if pp > 0.0 { mp / pp } else { 1.0 };
    let mut sigmas: Vec<f64> = pairs.iter().map(|p| p.sigma_mm).collect();
    sigmas.sort_by(f64::total_cmp);
    let sigma_mm = sigmas.get(sigmas.len() / 2).copied().unwrap_or(0.0);
    let within_stated = pairs.iter().filter(|p| p.within_stated()).count();
    let good_for_disputes = worst.error_mm.abs() <= DISPUTE_MM && within_stated == pairs.len();
    // The placeholder units of tags not on the sheet are the scan's business only.
    let issues =
        scan.report.issues.iter().filter(|i| !matches!(i, ScanIssue::NoRoster { .. })).cloned().collect();
    CheckReport {
        image_width: scan.report.image_width,
        image_height: scan.report.image_height,
        sheet_tags: sheet.len(),
        found,
        mean_error_mm,
        worst,
        scale,
        sigma_mm,
        within_stated,
        good_for_disputes,
        camera: scan.report.camera.clone(),
        issues,
        pairs,
    }
}

impl CheckReport {
    /// The report in words, one line each.
    #[must_use]
    pub fn lines(&self) -> Vec<String> {
        let mut out = vec![
            format!(
                "check sheet: {} of its {} tags found, {} distances from {:.0} to {:.0} mm",
                self.found.len(),
                self.sheet_tags,
                self.pairs.len(),
                self.pairs.iter().map(|p| p.printed_mm).fold(f64::INFINITY, f64::min),
                self.pairs.iter().map(|p| p.printed_mm).fold(0.0, f64::max),
            ),
            format!(
                "camera: {}, fiducial residual {:.2} px / {:.2} mm",
                self.camera.description, self.camera.residual_px, self.camera.residual_mm
            ),
            format!(
                "distance error: mean {:.2} mm, worst {:+.2} mm ({} to {}, printed {:.1} mm, measured {:.2} mm)",
                self.mean_error_mm,
                self.worst.error_mm,
                self.worst.a,
                self.worst.b,
                self.worst.printed_mm,
                self.worst.measured_mm
            ),
            format!(
                "stated uncertainty of a distance: {:.2} mm (one standard deviation, median); {} of {} errors within {CHECK_SIGMAS} of theirs (+{CHECK_FLOOR_MM} mm)",
                self.sigma_mm,
                self.within_stated,
                self.pairs.len()
            ),
        ];
        let longest = self.pairs.iter().map(|p| p.printed_mm).fold(0.0, f64::max);
        if ((self.scale - 1.0) * longest).abs() > (2.0 * self.sigma_mm).max(0.2) {
            out.push(format!(
                "distances come out {:+.2}% against the printed ones: if the sheet's ruler measures 100 mm, the profile's fiducial positions or size are off by about that much; if it does not, the printer scaled the sheet (print at 100%)",
                (self.scale - 1.0) * 100.0
            ));
        }
        for i in &self.issues {
            out.push(format!("note: {}", i.describe()));
        }
        if self.good_for_disputes {
            out.push(format!(
                "GOOD FOR DISPUTES: every distance within {:.2} mm of the printed one (limit {DISPUTE_MM} mm) and within the scan's stated uncertainty",
                self.worst.error_mm.abs()
            ));
        } else {
            let mut why = Vec::new();
            if self.worst.error_mm.abs() > DISPUTE_MM {
                why.push(format!(
                    "a distance is {:.2} mm off (limit {DISPUTE_MM} mm)",
                    self.worst.error_mm.abs()
                ));
            }
            if self.within_stated < self.pairs.len() {
                why.push(format!(
                    "{} of {} errors exceed the uncertainty the scan states, so its close calls would not be marked honestly",
                    self.pairs.len() - self.within_stated,
                    self.pairs.len()
                ));
            }
            out.push(format!(
                "NOT GOOD ENOUGH FOR DISPUTES: {}. Check the profile's fiducial positions and sizes, the print's scale, and the camera file; a sharper, closer photo helps",
                why.join("; ")
            ));
        }
        out
    }
}
