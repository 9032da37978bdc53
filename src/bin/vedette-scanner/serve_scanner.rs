//! The server's scanner (OpenCV; reached only from `vedette-scanner`): scans photos
//! with the code `vedette scan` runs ([`scan_one`], [`scan_and_merge`]) and shows the
//! first through its camera model ([`paint::photo_projection`], as `report --png`).

use crate::paint;
use crate::scan::{ScanInputs, report_file_text, scan_one};
use crate::scan_many::{self, scan_and_merge};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use vedette::CliError;
use vedette::commands::serve::photo::{
    AbsentUnit, HeldUnit, MissingTag, PhotoView, ScanSummary, Scanned, Scanner,
};
use vedette_draw::{Scene, SvgOptions};
use vedette_geometry::Vec2;
use vedette_vision::{CameraModel, Photo, ScanIssue, encode_image};

/// Whether units `a` and `b` of `table` can stand for each other, so that a swap of
/// their bases leaves each as the roster has it: one kind, as many bases, which a
/// swap accepts (one size, none read from its tag). A unit not on the table can be.
fn stand_for_each_other(table: &vedette_geometry::Table, a: &str, b: &str) -> bool {
    let find = |id: &str| table.units.iter().find(|u| u.id == id);
    match (find(a), find(b)) {
        (Some(x), Some(y)) => {
            x.kind == y.kind
                && x.bases.len() == y.bases.len()
                && vedette::commands::serve::corrector::swap_fault((a, &x.bases), (b, &y.bases)).is_none()
        }
        _ => true,
    }
}

/// The scanner of `vedette serve --profile P [--roster R] [--camera C]`.
struct ProfileScanner {
    inputs: ScanInputs,
}

/// Loads the profile, roster and camera files a server was started with.
pub fn open(args: &vedette::commands::serve::Args) -> Result<Arc<dyn Scanner>, CliError> {
    let Some(profile) = &args.profile else {
        return Err(CliError::Usage("scanning needs a calibration profile: give --profile".to_string()));
    };
    let inputs = ScanInputs::load_files(profile, args.roster.as_deref(), &args.camera, None)?;
    Ok(Arc::new(ProfileScanner { inputs }))
}

impl Scanner for ProfileScanner {
    fn scan(
        &self,
        paths: &[PathBuf],
        backgrounds: &[PathBuf],
        stage: &dyn Fn(String),
    ) -> Result<Scanned, CliError> {
        let n = paths.len();
        if n == 0 || !(self.inputs.cameras.len() <= 1 || self.inputs.cameras.len() == n) {
            return Err(CliError::Usage(format!(
                "{} photos and {} camera files: give --camera once, or once per photo",
                n,
                self.inputs.cameras.len()
            )));
        }
        if !(backgrounds.is_empty() || backgrounds.len() == n) {
            return Err(CliError::Usage(format!(
                "{} photos of the empty table for {n} photo(s): give one per photo, in the order of the photos, or none",
                backgrounds.len()
            )));
        }
        let mut photos = Vec::with_capacity(n);
        for (k, p) in paths.iter().enumerate() {
            stage(format!("reading photo {} of {n}: {}", k + 1, name(p)));
            photos.push(Photo::load(p).map_err(crate::vision)?);
        }
        let mut empty = Vec::with_capacity(backgrounds.len());
        for (k, p) in backgrounds.iter().enumerate() {
            stage(format!("reading the empty table {} of {}: {}", k + 1, backgrounds.len(), name(p)));
            let photo = Photo::load(p)
                .map_err(|e| CliError::Usage(format!("the photo of the empty table {}: {e}", p.display())))?;
            empty.push((photo, p.clone()));
        }
        let with_empty;
        let inputs = if empty.is_empty() {
            &self.inputs
        } else {
            with_empty = self.inputs.with_backgrounds(empty, "the photo of the empty table");
            &with_empty
        };
        if let ([photo], Some(path)) = (photos.as_slice(), paths.first()) {
            stage(format!("scanning {}", name(path)));
            let s = scan_one(path, photo, inputs, false)?;
            let mut summary =
                summarize(paths, backgrounds, &s.table, &[&s], &s.report.issues, s.report.bases, inputs);
            project_held(&mut summary, &s.fit.model, inputs);
            let report_text = report_file_text(path, &s.report)?;
            let view = view_of(&photos, s.fit.model.clone(), inputs, stage)?;
            return Ok(Scanned { photos: paths.to_vec(), table: s.table, report_text, summary, view });
        }
        let (merged, all) = scan_and_merge(paths, &photos, inputs, &|k, p| {
            let text = format!("scanning photo {} of {n}: {}", k + 1, name(p));
            stage(text.clone());
            text
        })?;
        let report_text = scan_many::report_file_text(paths, &all, &merged.report)?;
        let refs: Vec<&vedette_vision::Scan> = all.iter().collect();
        let mut summary = summarize(
            paths,
            backgrounds,
            &merged.table,
            &refs,
            &merged.report.issues,
            merged.report.bases,
            inputs,
        );
        let Some(first) = all.first() else {
            return Err(CliError::Usage("no photo was scanned".to_string()));
        };
        project_held(&mut summary, &first.fit.model, inputs);
        let view = view_of(&photos, first.fit.model.clone(), inputs, stage)?;
        Ok(Scanned { photos: paths.to_vec(), table: merged.table, report_text, summary, view })
    }

    fn check_upload(&self, name: &str, bytes: &[u8]) -> Result<&'static str, String> {
        check_upload(name, bytes)
    }
}

fn name(p: &Path) -> String {
    p.file_name().map_or_else(|| p.display().to_string(), |n| n.to_string_lossy().into_owned())
}

/// The summary of `scans` of `paths` (against `backgrounds`), giving `table` with `bases` and `issues` (those
/// of the merge, for several photos).
fn summarize(
    paths: &[PathBuf],
    backgrounds: &[PathBuf],
    table: &vedette_geometry::Table,
    scans: &[&vedette_vision::Scan],
    issues: &[ScanIssue],
    bases: usize,
    inputs: &ScanInputs,
) -> ScanSummary {
    let missing_tags = issues
        .iter()
        .filter_map(|i| match i {
            ScanIssue::MissingTag { id, unit, base } => {
                Some(MissingTag { id: *id, unit: unit.clone(), base: *base })
            }
            _ => None,
        })
        .collect();
    // The page offers to swap only units that can stand for each other; an
    // `ambiguous-unit` also names units of another layout whose place there fits as
    // well, which its words (in `issues`) tell the player of.
    let twins = issues
        .iter()
        .filter_map(|i| match i {
            ScanIssue::AmbiguousUnit { unit, others, .. } => {
                let alike: Vec<String> =
                    others.iter().filter(|o| stand_for_each_other(table, unit, o)).cloned().collect();
                (!alike.is_empty()).then(|| std::iter::once(unit.clone()).chain(alike).collect())
            }
            _ => None,
        })
        .collect();
    let held = held_units(issues);
    let absent = absent(table, &held, inputs);
    ScanSummary {
        photos: paths.iter().map(|p| p.display().to_string()).collect(),
        backgrounds: backgrounds.iter().map(|p| p.display().to_string()).collect(),
        bases,
        units: table.units.len(),
        tags_seen: scans.iter().map(|s| s.report.tags_seen).sum(),
        missing_tags,
        issues: issues.iter().map(ScanIssue::describe).collect(),
        twins,
        held,
        absent,
        scan_ms: scans.iter().map(|s| s.report.timing_ms.total).sum(),
    }
}

/// The units the scan put on no place but offered places for: held back from a
/// contested place (`missing-unit` with `places`), or put by several photos in places
/// that are not one and that no twin of it takes (`conflicting-unit`, each photo's
/// place).
fn held_units(issues: &[ScanIssue]) -> Vec<HeldUnit> {
    issues
        .iter()
        .filter_map(|i| {
            let why = i.held_reason()?;
            match i {
                ScanIssue::MissingUnit { unit, places, .. } => {
                    Some(HeldUnit::new(unit.clone(), places.clone(), why))
                }
                ScanIssue::ConflictingUnit { unit, places, photos, .. } => {
                    Some(HeldUnit::new(unit.clone(), places.clone(), why).seen_in(photos.clone()))
                }
                _ => None,
            }
        })
        .collect()
}

/// The roster's units on no place: neither on `table` nor `held` back (none without a
/// roster), each laid out about the origin for the page to move where the player shows.
fn absent(table: &vedette_geometry::Table, held: &[HeldUnit], inputs: &ScanInputs) -> Vec<AbsentUnit> {
    let Some(roster) = &inputs.roster else { return Vec::new() };
    roster
        .not_on(table)
        .filter(|u| !held.iter().any(|h| h.unit == u.id))
        .map(|u| {
            let template = vedette_vision::laid_out(u, Vec2::new(0.0, 0.0), 90.0);
            let (low, high) =
                template.bases.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), b| {
                    (lo.min(b.centre().y - b.depth() / 2.0), hi.max(b.centre().y + b.depth() / 2.0))
                });
            AbsentUnit {
                template,
                depth_mm: high - low,
                faces_far: [true, false].map(|near| vedette_vision::faces_far(roster, u, near)),
                table_mm: [inputs.profile.table.width_mm, inputs.profile.table.depth_mm],
            }
        })
        .collect()
}

/// The held units' places in the first photo's pixels (`model`, at the base tops'
/// height), for the photo view.
fn project_held(summary: &mut ScanSummary, model: &CameraModel, inputs: &ScanInputs) {
    let top = inputs.profile.bases.top_height_mm;
    for h in &mut summary.held {
        h.project(|points| {
            let px = model.project(points, top).ok()?;
            Some(px.into_iter().map(|[x, y]| Vec2::new(x, y)).collect())
        });
    }
}

/// The first photo's view.
fn view_of(
    photos: &[Photo],
    model: CameraModel,
    inputs: &ScanInputs,
    stage: &dyn Fn(String),
) -> Result<Arc<dyn PhotoView>, CliError> {
    let Some(photo) = photos.first() else {
        return Err(CliError::Usage("no photo was scanned".to_string()));
    };
    stage("preparing the photo view".to_string());
    let size = photo.size().map_err(crate::vision)?;
    let jpeg = encode_image(&photo.color, Path::new("photo.jpg")).map_err(crate::vision)?;
    Ok(Arc::new(CameraView { model, base_top_mm: inputs.profile.bases.top_height_mm, size, jpeg }))
}

/// A photo and the camera model of its scan.
#[derive(Debug)]
struct CameraView {
    model: CameraModel,
    base_top_mm: f64,
    size: (u32, u32),
    jpeg: Vec<u8>,
}

impl PhotoView for CameraView {
    fn size(&self) -> (u32, u32) {
        self.size
    }

    fn jpeg(&self) -> &[u8] {
        &self.jpeg
    }

    fn overlay_svg(&self, scene: &Scene) -> Result<String, CliError> {
        let (projection, text_scale) = paint::photo_projection(self.model.clone(), self.base_top_mm, scene);
        Ok(vedette_draw::write_svg(scene, &projection, SvgOptions { text_scale, ..SvgOptions::default() })?)
    }

    fn to_table(&self, px: Vec2, height_mm: f64) -> Option<Vec2> {
        let p = self.model.image_to_table(&[[px.x, px.y]], height_mm).ok()?.into_iter().next()?;
        (p.x.is_finite() && p.y.is_finite()).then_some(p)
    }

    fn base_top_mm(&self) -> f64 {
        self.base_top_mm
    }
}

/// An uploaded file's checks before it is kept: an image by its first bytes (not by
/// its name or declared type), of a size a scan can decode
/// ([`vedette_vision::check_image`], the scanner's own limits). Gives the extension
/// it is stored with.
fn check_upload(name: &str, bytes: &[u8]) -> Result<&'static str, String> {
    let header = vedette_vision::check_image(bytes).map_err(|reason| format!("{name}: {reason}"))?;
    Ok(match header.format {
        vedette_vision::ImageFormat::Jpeg => "jpg",
        vedette_vision::ImageFormat::Png => "png",
        vedette_vision::ImageFormat::Tiff => "tif",
        vedette_vision::ImageFormat::Bmp => "bmp",
        vedette_vision::ImageFormat::Webp => "webp",
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The page is offered a swap only between units that can stand for each other:
    /// an `ambiguous-unit` naming a unit of another layout (a 2 x 2 on a 3 x 2's
    /// place, one base size) or kind keeps its words but offers no swap with it.
    #[test]
    fn only_units_of_one_layout_are_offered_as_twins() {
        use vedette_geometry::{Base, BaseSize, Pose, RuleSet, Scale, Table, Unit, UnitKind, Vec2};
        let unit = |id: &str, kind: UnitKind, n: usize, y: f64| {
            let bases = (0..n)
                .map(|i| {
                    Base::new(
                        BaseSize::new(30.0, 20.0),
                        Pose::new(Vec2::new(100.0 + 30.0 * i as f64, y), 90.0),
                    )
                })
                .collect();
            Unit::new(id, "france", kind, bases)
        };
        let table = Table::new(
            RuleSet::Republique5,
            Scale::Medium,
            vec![
                unit("fr-1", UnitKind::Infantry, 4, 100.0),
                unit("fr-2", UnitKind::Infantry, 4, 200.0),
                unit("fr-3", UnitKind::Infantry, 6, 300.0),
                unit("fr-4", UnitKind::Cavalry, 4, 400.0),
            ],
        );
        assert!(stand_for_each_other(&table, "fr-1", "fr-2"));
        assert!(!stand_for_each_other(&table, "fr-1", "fr-3"), "another count");
        assert!(!stand_for_each_other(&table, "fr-1", "fr-4"), "another kind");
        assert!(stand_for_each_other(&table, "fr-1", "fr-9"), "not on the table");
    }

    /// A unit held back from a contested place and one two photos put apart are both
    /// offered with their places (the second with the photo of each); a conflict
    /// without places (an older report) is not.
    #[test]
    fn held_units_are_contested_or_conflicting_units_with_places() {
        use vedette_geometry::{Base, BaseSize, Pose, Unit, UnitKind, Vec2};
        let at = |x: f64| {
            Unit::new(
                "au-2",
                "austria",
                UnitKind::Infantry,
                vec![Base::new(BaseSize::new(40.0, 20.0), Pose::new(Vec2::new(x, 300.0), 90.0))],
            )
        };
        let issues = vec![
            ScanIssue::MissingUnit {
                unit: "au-2".into(),
                bases: 1,
                base_mm: [40.0, 20.0],
                searched_mm: [[0.0, 0.0], [600.0, 400.0]],
                looked: String::new(),
                places: vec![at(100.0), at(103.0)],
            },
            ScanIssue::ConflictingUnit {
                unit: "au-3".into(),
                at_mm: vec![[200.0, 300.0], [400.0, 300.0]],
                photos: vec![0, 1],
                places: vec![at(200.0), at(400.0)],
            },
            ScanIssue::ConflictingUnit {
                unit: "au-4".into(),
                at_mm: vec![[200.0, 300.0], [400.0, 300.0]],
                photos: vec![0, 1],
                places: Vec::new(),
            },
        ];
        let held = held_units(&issues);
        let got: Vec<(&str, usize, &[usize])> =
            held.iter().map(|h| (h.unit.as_str(), h.places.len(), h.photos.as_slice())).collect();
        assert_eq!(got, vec![("au-2", 2, &[][..]), ("au-3", 2, &[0, 1][..])]);
        // Each says why, as the scan report does.
        assert_eq!(held[0].why, "these 2 places fit within 7% as well as each other: not placed on a guess");
        assert_eq!(
            held[1].why,
            "photos 1 and 2 put it in these 2 places, and no twin of it takes the other: the photos contradict each other: not placed on a guess"
        );
        assert_eq!(
            issues[1].describe(),
            "au-3 left out: photos 1 and 2 put it at (200.0, 300.0) mm and (400.0, 300.0) mm, and no twin of it takes the other: the photos contradict each other: not placed on a guess"
        );
    }

    #[test]
    fn uploads_are_known_by_their_bytes() {
        assert!(check_upload("a.jpg", b"GIF89a not ours").unwrap_err().contains("a.jpg: not a JPEG"));
        assert!(check_upload("a.png", b"").unwrap_err().contains("empty"));
        let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
        png.extend_from_slice(&100_000u32.to_be_bytes());
        png.extend_from_slice(&100_000u32.to_be_bytes());
        png.extend_from_slice(b"\x08\x02\0\0\0\0\0\0\0\0\0\0IEND\xaeB`\x82");
        let e = check_upload("big.png", &png).unwrap_err();
        assert!(e.contains("megapixels"), "{e}");
    }
}
