//! `vedette scan PHOTO [PHOTO...] --profile PROFILE [--roster ROSTER] -o TABLE.json
//! [--overlay OUT.png] [--report REPORT.json]`: finds the table fiducials, solves the
//! camera, finds every tagged base and writes the table file. Several photos of one
//! table are scanned each on its own and merged (`scan_many.rs`, issue 18). Everything the scan saw
//! but left out (unknown, duplicate or off-table tags) and every roster tag it did not
//! see is printed, and written to the report when asked.
//!
//! Terrain layers (issue 19): `--terrain LAYER.json` puts the terrain of a table file
//! (a layer made with `--terrain-only`, or any hand-typed table) into the scan instead
//! of segmenting the photo; `--terrain-only` writes the terrain alone (a table file
//! without units or markers), from a photo of the empty table.

use serde::Serialize;
use std::path::{Path, PathBuf};
use vedette::CliError;
use vedette::commands::emit;
use vedette::commands::scan::Args;
use vedette::output::{is_stdout, write_all_or_none, write_to};
use vedette_geometry::Table;
use vedette_vision::{
    Intrinsics, Photo, Profile, Roster, RosterFit, Scan, ScanIssue, ScanReport, SurfaceOptions, VisionError,
    draw_overlay, encode_image, merge_terrain, scan_with_background, stand_on_templates, terrain_layer,
};

/// The report file: what the scan says beside the table.
#[derive(Debug, Serialize)]
struct ReportFile<'a> {
    schema: &'static str,
    photo: String,
    #[serde(flatten)]
    report: &'a ScanReport,
}

/// What a scan reads besides the photos: the profile, the roster, the camera files and
/// a terrain layer (`vedette scan` and `vedette serve` load them alike).
#[derive(Debug)]
pub struct ScanInputs {
    /// The calibration profile.
    pub profile: Profile,
    /// The roster, when given.
    pub roster: Option<Roster>,
    /// Camera files: none, one for every photo, or one per photo.
    pub cameras: Vec<Intrinsics>,
    /// A terrain layer and its file, replacing the photo's terrain.
    pub layer: Option<(Table, PathBuf)>,
    /// The camera files, in the order of `cameras`.
    pub camera_files: Vec<PathBuf>,
    /// Write the table even when the photos do not look like the roster
    /// (`--allow-partial`; `vedette serve` refuses such a scan).
    pub allow_partial: bool,
    /// Photos of the empty table (`--background`): none, or one per photo in order,
    /// with their files.
    pub backgrounds: Vec<(Photo, PathBuf)>,
    /// How errors name a background: `--background` on the command line, in words in
    /// `vedette serve`.
    pub background_label: &'static str,
}

impl ScanInputs {
    /// Loads what `args` names.
    pub fn load(args: &Args) -> Result<ScanInputs, CliError> {
        let mut inputs = ScanInputs::load_files(
            &args.profile,
            args.roster.as_deref(),
            &args.camera,
            args.terrain.as_deref(),
        )?;
        inputs.allow_partial = args.allow_partial;
        let n = args.photos.len();
        if !args.background.is_empty() && args.background.len() != n {
            return Err(CliError::Usage(format!(
                "{} --background photos for {n} photo(s): give one photo of the empty table per photo, in the order of the photos",
                args.background.len()
            )));
        }
        inputs.backgrounds = args
            .background
            .iter()
            .map(|p| match Photo::load(p) {
                Ok(photo) => Ok((photo, p.clone())),
                Err(e) => Err(CliError::Usage(format!("--background {}: {e}", p.display()))),
            })
            .collect::<Result<_, _>>()?;
        Ok(inputs)
    }

    /// Loads a profile, a roster, camera files and a terrain layer.
    pub fn load_files(
        profile: &Path,
        roster: Option<&Path>,
        cameras: &[PathBuf],
        terrain: Option<&Path>,
    ) -> Result<ScanInputs, CliError> {
        let inputs = ScanInputs {
            profile: Profile::load(profile).map_err(crate::vision)?,
            roster: roster.map(Roster::load).transpose().map_err(crate::vision)?,
            cameras: cameras
                .iter()
                .map(|p| Intrinsics::load(p))
                .collect::<Result<_, _>>()
                .map_err(crate::vision)?,
            layer: terrain.map(|p| Table::load(p).map(|t| (t, p.to_path_buf()))).transpose()?,
            camera_files: cameras.to_vec(),
            allow_partial: false,
            backgrounds: Vec::new(),
            background_label: "--background",
        };
        // A roster tag the profile cannot have is refused before any photo is read.
        if let Some(r) = &inputs.roster {
            r.check_for(&inputs.profile).map_err(crate::vision)?;
        }
        Ok(inputs)
    }

    /// The scanner's error for photo `path` (`k` of `n`), naming the camera file when
    /// it is the camera that does not fit.
    pub fn scan_error(&self, path: &Path, k: usize, n: usize, e: VisionError) -> CliError {
        let camera =
            if self.camera_files.len() == n { self.camera_files.get(k) } else { self.camera_files.first() };
        match (&e, camera) {
            (VisionError::CameraSize { .. }, Some(file)) => {
                CliError::Usage(format!("{}: {e} (camera file {})", path.display(), file.display()))
            }
            (VisionError::Background { .. }, _) if self.backgrounds.len() == n => CliError::Usage(format!(
                "{}: {} {}: {e}",
                path.display(),
                self.background_label,
                self.backgrounds[k].1.display()
            )),
            _ => CliError::Usage(format!("{}: {e}", path.display())),
        }
    }

    /// Refuses a scanned table that does not look like the roster (issue 39), or, with
    /// `--allow-partial`, says so among `issues`. `unknown` tags were read that the
    /// roster does not list.
    pub fn check_roster_fit(
        &self,
        what: &str,
        table: &Table,
        unknown: usize,
        issues: &mut Vec<ScanIssue>,
    ) -> Result<(), CliError> {
        let Some(roster) = &self.roster else { return Ok(()) };
        let fit = RosterFit::of(table, unknown, roster);
        if !fit.looks_wrong() {
            return Ok(());
        }
        let reason = fit.describe(roster.origin());
        if self.allow_partial {
            issues.insert(0, ScanIssue::RosterMismatch { reason });
            return Ok(());
        }
        Err(CliError::Usage(format!(
            "{what}: {reason}. Scan with the roster of this table (`vedette scan --allow-partial` writes what was read all the same)"
        )))
    }

    /// These inputs with `backgrounds` (one per photo of the scan, in order) named in
    /// errors as `label`.
    #[must_use]
    pub fn with_backgrounds(&self, backgrounds: Vec<(Photo, PathBuf)>, label: &'static str) -> ScanInputs {
        ScanInputs {
            profile: self.profile.clone(),
            roster: self.roster.clone(),
            cameras: self.cameras.clone(),
            layer: self.layer.clone(),
            camera_files: self.camera_files.clone(),
            allow_partial: self.allow_partial,
            backgrounds,
            background_label: label,
        }
    }

    /// The photo of the empty table for photo `k` of `n`, when given.
    #[must_use]
    pub fn background_for(&self, k: usize, n: usize) -> Option<&Photo> {
        if self.backgrounds.len() == n { self.backgrounds.get(k).map(|(p, _)| p) } else { None }
    }

    /// The camera file for photo `k` of `n`.
    #[must_use]
    pub fn camera_for(&self, k: usize, n: usize) -> Option<&Intrinsics> {
        if self.cameras.len() == n { self.cameras.get(k) } else { self.cameras.first() }
    }
}

/// Scans one photo as `vedette scan` does: markers and terrain read from it, or the
/// terrain taken from the layer; with `terrain_only`, no markers (a photo of the empty
/// table). Errors name the photo.
pub fn scan_one(
    path: &Path,
    photo: &Photo,
    inputs: &ScanInputs,
    terrain_only: bool,
) -> Result<Scan, CliError> {
    // A layer replaces the segmentation; a layer of the empty table needs no cubes and
    // has no tags to read.
    let surface =
        SurfaceOptions { markers: !terrain_only, terrain: inputs.layer.is_none(), tags: !terrain_only };
    let mut result = scan_with_background(
        photo,
        &inputs.profile,
        inputs.roster.as_ref(),
        inputs.camera_for(0, 1),
        surface,
        inputs.background_for(0, 1),
    )
    .map_err(|e| inputs.scan_error(path, 0, 1, e))?;
    if !terrain_only {
        let unknown =
            result.report.issues.iter().filter(|i| matches!(i, ScanIssue::UnknownTag { .. })).count();
        inputs.check_roster_fit(
            &path.display().to_string(),
            &result.table,
            unknown,
            &mut result.report.issues,
        )?;
    }
    if let Some((layer, layer_path)) = &inputs.layer {
        merge_terrain(&mut result.table, layer, &layer_path.display().to_string()).map_err(crate::vision)?;
        // The layer's templates raise what stands on them, as segmented ones do.
        stand_on_templates(&mut result.table, &result.fit.model, &inputs.profile).map_err(crate::vision)?;
    }
    // Only tables the other verbs load (the terrain limits included).
    result.table.validate(&format!("the table scanned from {}", path.display()))?;
    Ok(result)
}

/// The text of the scan report of one photo (`--report`, `vedette/scan-report/1`).
pub fn report_file_text(photo: &Path, report: &ScanReport) -> Result<String, CliError> {
    let file = ReportFile { schema: "vedette/scan-report/1", photo: photo.display().to_string(), report };
    let mut text = serde_json::to_string_pretty(&file).map_err(|e| CliError::Usage(e.to_string()))?;
    text.push('\n');
    Ok(text)
}

/// Runs `vedette scan`.
pub fn run(args: &Args, out: &mut dyn std::io::Write) -> Result<(), CliError> {
    check_scan_outputs(args)?;
    if args.photos.len() > 1 && args.terrain_only {
        return Err(CliError::Usage(
            "--terrain-only makes a layer from one photo of the empty table: give one photo".into(),
        ));
    }
    if args.photos.len() > 1 {
        return crate::scan_many::run(args, out);
    }
    let Some(photo_path) = args.photos.first() else {
        return Err(CliError::Usage("vedette scan needs a photo".into()));
    };
    if args.camera.len() > 1 {
        return Err(CliError::Usage(format!("{} camera files for one photo: give one", args.camera.len())));
    }
    let inputs = ScanInputs::load(args)?;
    let photo = Photo::load(photo_path).map_err(crate::vision)?;
    let result = vedette::progress::working(format!("scanning {}", photo_path.display()), || {
        scan_one(photo_path, &photo, &inputs, args.terrain_only)
    })?;
    let (profile, layer) = (&inputs.profile, &inputs.layer);
    let corrected = match &args.corrections {
        Some(path) => Some(vedette::commands::serve::corrections::apply_file(&result.table, path)?),
        None => None,
    };
    let written = if args.terrain_only {
        terrain_layer(&result.table)
    } else {
        corrected.as_ref().map_or_else(|| result.table.clone(), |(t, _)| t.clone())
    };

    // Everything is produced in memory first, so that a failure leaves no file behind.
    let mut files: Vec<(&Path, Vec<u8>)> = Vec::new();
    let mut table_text = written.to_json_string();
    table_text.push('\n');
    if !is_stdout(&args.output) {
        files.push((&args.output, table_text.clone().into_bytes()));
    }
    if let Some(path) = &args.overlay {
        let img = draw_overlay(&photo, &result, profile).map_err(crate::vision)?;
        files.push((path, encode_image(&img, path).map_err(crate::vision)?));
    }
    if let Some(path) = &args.report {
        files.push((path, report_file_text(photo_path, &result.report)?.into_bytes()));
    }
    write_all_or_none(&files)?;
    if is_stdout(&args.output) {
        write_to(&args.output, table_text.as_bytes(), out)?;
    }

    let r = &result.report;
    let c = &r.camera;
    let mut text = if args.terrain_only {
        format!("wrote {} (terrain layer: {} features)\n", shown(&args.output), written.terrain.len())
    } else {
        format!(
            "wrote {} ({} bases of {} units from {} tags, {} markers, {} terrain features{})\n",
            shown(&args.output),
            r.bases,
            result.table.units.len(),
            r.tags_seen,
            written.markers.len(),
            written.terrain.len(),
            if layer.is_some() { " from the layer" } else { "" },
        )
    };
    if let (Some((_, n)), Some(path)) = (&corrected, &args.corrections) {
        text.push_str(&format!("  {n} correction(s) applied from {}\n", path.display()));
    }
    text.push_str(&format!(
        "  camera: {}\n  fiducial residual: {:.2} px RMS, {:.2} mm on the table ({} of {} fiducials)\n",
        c.description,
        c.residual_px,
        c.residual_mm,
        c.fiducials.len(),
        profile.fiducials.markers.len(),
    ));
    if let Some(f) = c.focal_px {
        text.push_str(&format!("  focal length: {f:.0} px"));
        if let (Some(t), Some(p)) = (c.tilt_deg, c.camera_mm) {
            text.push_str(&format!(", camera {:.0} mm above the table, tilted {t:.1} deg", p[2]));
        }
        text.push('\n');
    }
    text.push_str(&format!(
        "  uncertainty: corner noise {:.3} mm, camera model {:.3} mm, base-top heights {:.3} mm\n",
        r.budget.corner_sigma_mm, r.budget.model_sigma_mm, r.budget.height_sigma_mm
    ));
    push_issues(&mut text, &r.issues);
    text.push_str(&format!(
        "  scan time: {:.0} ms (of which {:.0} ms searching among figures)\n",
        r.timing_ms.total, r.timing_ms.clutter
    ));
    summary(args, out, &text)
}

/// How the summary names the table's destination.
pub(crate) fn shown(path: &Path) -> String {
    if is_stdout(path) { "the table to standard output".to_string() } else { path.display().to_string() }
}

/// Prints the scan's summary: on standard output, or on stderr when the table went
/// there (`-o -`).
pub(crate) fn summary(args: &Args, out: &mut dyn std::io::Write, text: &str) -> Result<(), CliError> {
    if is_stdout(&args.output) {
        eprint!("{text}");
        return Ok(());
    }
    emit(out, text)
}

/// The scan summary's list of issues (`vedette scan`, one photo or several).
pub(crate) fn push_issues(text: &mut String, issues: &[ScanIssue]) {
    if issues.is_empty() {
        text.push_str("  no issues\n");
    } else {
        text.push_str(&format!("  {} issue(s):\n", issues.len()));
        for i in issues {
            text.push_str(&format!("    - {}\n", i.describe()));
        }
    }
}

/// Refuses, before any work, outputs that would overwrite an input (a photo, the
/// profile, the roster, a camera file) or each other (`-o X --report X`).
fn check_scan_outputs(args: &Args) -> Result<(), CliError> {
    let mut inputs: Vec<(&str, &Path)> = args.photos.iter().map(|p| ("photo", p.as_path())).collect();
    inputs.push(("profile", &args.profile));
    inputs.extend(args.roster.iter().map(|p| ("roster", p.as_path())));
    inputs.extend(args.camera.iter().map(|p| ("camera file", p.as_path())));
    inputs.extend(args.terrain.iter().map(|p| ("terrain layer", p.as_path())));
    inputs.extend(args.background.iter().map(|p| ("photo of the empty table", p.as_path())));
    inputs.extend(args.corrections.iter().map(|p| ("corrections file", p.as_path())));
    let overlays: Vec<PathBuf> = match &args.overlay {
        Some(o) if args.photos.len() > 1 => {
            (0..args.photos.len()).map(|k| crate::scan_many::numbered(o, k)).collect()
        }
        Some(o) => vec![o.clone()],
        None => Vec::new(),
    };
    let mut outputs: Vec<(&str, &Path)> =
        if is_stdout(&args.output) { Vec::new() } else { vec![("-o", args.output.as_path())] };
    outputs.extend(overlays.iter().map(|p| ("--overlay", p.as_path())));
    outputs.extend(args.report.iter().map(|p| ("--report", p.as_path())));
    vedette::output::check_outputs(&outputs, &inputs)
}
