//! `vedette scan PHOTO PHOTO... --profile PROFILE [--roster R] [--camera FILE...] -o
//! TABLE.json [--overlay OUT.jpg] [--report REPORT.json]` (issue 18): several photos of
//! one table, each solved on its own from the fiducials, merged in the table frame
//! ([`vedette_vision::merge_scans`]). The report says which photos saw each base; a
//! tag that lands in different places beyond the photos' joint uncertainty is reported
//! as a conflict and left out; one overlay is written per photo.

use crate::scan::{ScanInputs, push_issues, shown, summary};
use serde::Serialize;
use std::path::{Path, PathBuf};
use vedette::CliError;
use vedette::commands::scan::Args;
use vedette::output::{is_stdout, write_all_or_none, write_to};
use vedette_vision::{
    MIN_SHARED_TAGS, MergeReport, MergedScan, Photo, Scan, ScanIssue, ScanReport, SurfaceOptions,
    draw_overlay, encode_image, merge_scans, photos_disagree, scan_with_background,
};

/// The report file of several photos.
#[derive(Debug, Serialize)]
struct ReportFile<'a> {
    schema: &'static str,
    /// Each photo's own scan report.
    photos: Vec<PhotoReport<'a>>,
    /// The merge.
    merge: &'a MergeReport,
}

#[derive(Debug, Serialize)]
struct PhotoReport<'a> {
    photo: String,
    #[serde(flatten)]
    report: &'a ScanReport,
}

/// `OUT.jpg` for photo `k` (0-based): `OUT-{k+1}.jpg`.
pub(super) fn numbered(path: &Path, k: usize) -> PathBuf {
    let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let name = match path.extension() {
        Some(ext) => format!("{stem}-{}.{}", k + 1, ext.to_string_lossy()),
        None => format!("{stem}-{}", k + 1),
    };
    path.with_file_name(name)
}

/// Scans several photos of one table, each on its own (`vedette scan` shows `stage(k,
/// photo)` while photo `k` is scanned), and merges them: markers and terrain from the
/// first photo (or the layer). Gives the merged table with each photo's scan.
pub fn scan_and_merge(
    paths: &[PathBuf],
    photos: &[Photo],
    inputs: &ScanInputs,
    stage: &dyn Fn(usize, &Path) -> String,
) -> Result<(MergedScan, Vec<Scan>), CliError> {
    let n = paths.len();
    let mut scans = Vec::with_capacity(n);
    for (k, (path, photo)) in paths.iter().zip(photos).enumerate() {
        let camera = inputs.camera_for(k, n);
        // Markers and terrain are read from the first photo (or the layer).
        let surface =
            SurfaceOptions { markers: k == 0, terrain: k == 0 && inputs.layer.is_none(), tags: true };
        let s = vedette::progress::working(stage(k, path), || {
            scan_with_background(
                photo,
                &inputs.profile,
                inputs.roster.as_ref(),
                camera,
                surface,
                inputs.background_for(k, n),
            )
        })
        .map_err(|e| inputs.scan_error(path, k, n, e))?;
        scans.push(s);
    }
    // Photos of two tables are not merged (issue 41).
    if let Some(d) = photos_disagree(&scans) {
        let name = |k: usize| paths.get(k).map_or_else(String::new, |p| p.display().to_string());
        return Err(CliError::Usage(format!(
            "photos {} ({}) and {} ({}) do not show one table: of the {} tags both read, {} stand in different places (beyond their joint uncertainty) and {} agree; two photos of one table agree on most tags, and on at least {MIN_SHARED_TAGS}. Scan each photo on its own, or photograph the table again without moving anything between the photos",
            d.first + 1,
            name(d.first),
            d.second + 1,
            name(d.second),
            d.both,
            d.disagree(),
            d.agree
        )));
    }
    let mut merged = merge_scans(&scans, &inputs.profile, inputs.roster.as_ref());
    // Tags read that the roster does not list, once each over the photos.
    let unknown: std::collections::BTreeSet<u32> = scans
        .iter()
        .flat_map(|s| &s.report.issues)
        .filter_map(|i| match i {
            ScanIssue::UnknownTag { id, .. } => Some(*id),
            _ => None,
        })
        .collect();
    let what = format!("{} photos", paths.len());
    inputs.check_roster_fit(&what, &merged.table, unknown.len(), &mut merged.report.issues)?;
    // The terrain is the first photo's (the merge measures bases and cubes).
    if let Some(first) = scans.first() {
        merged.table.terrain = first.table.terrain.clone();
    }
    if let Some((layer, path)) = &inputs.layer {
        vedette_vision::merge_terrain(&mut merged.table, layer, &path.display().to_string())
            .map_err(crate::vision)?;
    }
    // Only tables the other verbs load (the terrain limits included).
    merged.table.validate(&format!("the table scanned from {n} photos"))?;
    Ok((merged, scans))
}

/// The text of the report of several photos (`--report`,
/// `vedette/multi-scan-report/1`).
pub fn report_file_text(paths: &[PathBuf], scans: &[Scan], merge: &MergeReport) -> Result<String, CliError> {
    let file = ReportFile {
        schema: "vedette/multi-scan-report/1",
        photos: paths
            .iter()
            .zip(scans)
            .map(|(p, s)| PhotoReport { photo: p.display().to_string(), report: &s.report })
            .collect(),
        merge,
    };
    let mut text = serde_json::to_string_pretty(&file).map_err(|e| CliError::Usage(e.to_string()))?;
    text.push('\n');
    Ok(text)
}

/// Runs `vedette scan` on several photos.
pub fn run(args: &Args, out: &mut dyn std::io::Write) -> Result<(), CliError> {
    let n = args.photos.len();
    if !(args.camera.len() <= 1 || args.camera.len() == n) {
        return Err(CliError::Usage(format!(
            "{} camera files for {n} photos: give --camera once (every photo) or once per photo, in order",
            args.camera.len()
        )));
    }
    let inputs = ScanInputs::load(args)?;
    let photos: Vec<Photo> =
        args.photos.iter().map(Photo::load).collect::<Result<_, _>>().map_err(crate::vision)?;
    let (mut merged, scans) = scan_and_merge(&args.photos, &photos, &inputs, &|k, path| {
        format!("scanning photo {} of {n}: {}", k + 1, path.display())
    })?;
    let profile = &inputs.profile;

    let mut files: Vec<(PathBuf, Vec<u8>)> = Vec::new();
    if let Some(path) = &args.corrections {
        merged.table = vedette::commands::serve::corrections::apply_file(&merged.table, path)?.0;
    }
    let mut table_text = merged.table.to_json_string();
    table_text.push('\n');
    if !is_stdout(&args.output) {
        files.push((args.output.clone(), table_text.clone().into_bytes()));
    }
    if let Some(path) = &args.overlay {
        for (k, (photo, s)) in photos.iter().zip(&scans).enumerate() {
            let img = draw_overlay(photo, s, profile).map_err(crate::vision)?;
            let p = numbered(path, k);
            let bytes = encode_image(&img, &p).map_err(crate::vision)?;
            files.push((p, bytes));
        }
    }
    if let Some(path) = &args.report {
        files.push((path.clone(), report_file_text(&args.photos, &scans, &merged.report)?.into_bytes()));
    }
    let refs: Vec<(&Path, Vec<u8>)> = files.iter().map(|(p, b)| (p.as_path(), b.clone())).collect();
    write_all_or_none(&refs)?;
    if is_stdout(&args.output) {
        write_to(&args.output, table_text.as_bytes(), out)?;
    }

    let r = &merged.report;
    let mut text = format!(
        "wrote {} ({} bases of {} units from {n} photos, merged in {:.1} ms)\n",
        shown(&args.output),
        r.bases,
        merged.table.units.len(),
        r.merge_ms
    );
    for (k, (path, s)) in args.photos.iter().zip(&scans).enumerate() {
        let c = &s.report.camera;
        let alone = r.seen_by.iter().filter(|b| b.photos == [k]).count();
        text.push_str(&format!(
            "  photo {} ({}): {} tags, {} seen in no other photo; {}, fiducial residual {:.2} px / {:.2} mm; scan {:.0} ms\n",
            k + 1,
            path.display(),
            s.report.tags_seen,
            alone,
            c.description,
            c.residual_px,
            c.residual_mm,
            s.report.timing_ms.total
        ));
        for i in s.report.issues.iter().filter(|i| i.about_photo()) {
            text.push_str(&format!("    - {}\n", i.describe()));
        }
    }
    let several = r.seen_by.iter().filter(|b| b.photos.len() > 1).count();
    text.push_str(&format!("  {several} bases seen in more than one photo, merged by their uncertainty\n"));
    push_issues(&mut text, &r.issues);
    summary(args, out, &text)
}
