//! `vedette scan PHOTO --profile PROFILE [--roster ROSTER] -o TABLE.json
//! [--overlay OUT.png] [--report REPORT.json]`: finds the table fiducials, solves the
//! camera, finds every tagged base and writes the table file. Everything the scan saw
//! but left out (unknown, duplicate or off-table tags) and every roster tag it did not
//! see is printed, and written to the report when asked.
//!
//! Terrain layers (issue 19): `--terrain LAYER.json` puts the terrain of a table file
//! (a layer made with `--terrain-only`, or any hand-typed table) into the scan instead
//! of segmenting the photo; `--terrain-only` writes the terrain alone (a table file
//! without units or markers), from a photo of the empty table.

use super::emit;
use crate::CliError;
use crate::output::write_atomically;
use serde::Serialize;
use std::path::{Path, PathBuf};
use vedette_geometry::Table;
use vedette_vision::{
    Intrinsics, Photo, Profile, Roster, ScanReport, SurfaceOptions, draw_overlay, encode_image,
    merge_terrain, scan_with, stand_on_templates, terrain_layer,
};

/// Arguments of `vedette scan`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The photo (JPEG, PNG, ...).
    pub photo: PathBuf,
    /// The calibration profile (e.g. `calibration/default.toml`).
    #[arg(long)]
    pub profile: PathBuf,
    /// The roster: which tag is on which unit's base. Without it each tag becomes a
    /// placeholder unit `tag-ID` of the profile's default base size.
    #[arg(long)]
    pub roster: Option<PathBuf>,
    /// A camera file, overriding the profile's `[camera]`.
    #[arg(long)]
    pub camera: Option<PathBuf>,
    /// Where to write the table (`vedette/table/1` JSON).
    #[arg(short, long)]
    pub output: PathBuf,
    /// Also write the photo with what was found drawn over it (.png or .jpg).
    #[arg(long)]
    pub overlay: Option<PathBuf>,
    /// Also write the scan report (camera model, residuals, issues) as JSON.
    #[arg(long)]
    pub report: Option<PathBuf>,
    /// Take the terrain from this table file (a layer written by `--terrain-only`, or
    /// any table file of the same table) instead of from the photo.
    #[arg(long, value_name = "FILE", conflicts_with = "terrain_only")]
    pub terrain: Option<PathBuf>,
    /// Write only the terrain (a table file without units or markers): a layer for
    /// later scans' `--terrain`, best made from a photo of the empty table.
    #[arg(long)]
    pub terrain_only: bool,
}

/// The report file: what the scan says beside the table.
#[derive(Debug, Serialize)]
struct ReportFile<'a> {
    schema: &'static str,
    photo: String,
    #[serde(flatten)]
    report: &'a ScanReport,
}

/// Runs `vedette scan`.
pub fn run(args: &Args, out: &mut dyn std::io::Write) -> Result<(), CliError> {
    let profile = Profile::load(&args.profile)?;
    let roster = args.roster.as_ref().map(Roster::load).transpose()?;
    let camera = args.camera.as_ref().map(|p| Intrinsics::load(p)).transpose()?;
    let layer = args.terrain.as_ref().map(Table::load).transpose()?;
    let photo = Photo::load(&args.photo)?;
    // A layer replaces the segmentation; a layer of the empty table needs no cubes.
    let surface = SurfaceOptions { markers: !args.terrain_only, terrain: layer.is_none() };
    let mut result = scan_with(&photo, &profile, roster.as_ref(), camera.as_ref(), surface)?;
    if let (Some(layer), Some(path)) = (&layer, &args.terrain) {
        merge_terrain(&mut result.table, layer, &path.display().to_string())?;
        // The layer's templates raise what stands on them, as segmented ones do.
        stand_on_templates(&mut result.table, &result.fit.model, &profile)?;
    }
    let written = if args.terrain_only { terrain_layer(&result.table) } else { result.table.clone() };

    // Everything is produced in memory first, so that a failure leaves no file behind.
    let mut files: Vec<(&Path, Vec<u8>)> = Vec::new();
    let mut table_text = written.to_json_string();
    table_text.push('\n');
    files.push((&args.output, table_text.into_bytes()));
    if let Some(path) = &args.overlay {
        let img = draw_overlay(&photo, &result, &profile)?;
        files.push((path, encode_image(&img, path)?));
    }
    if let Some(path) = &args.report {
        let file = ReportFile {
            schema: "vedette/scan-report/1",
            photo: args.photo.display().to_string(),
            report: &result.report,
        };
        let mut text = serde_json::to_string_pretty(&file).map_err(|e| CliError::Usage(e.to_string()))?;
        text.push('\n');
        files.push((path, text.into_bytes()));
    }
    write_all_or_none(&files)?;

    let r = &result.report;
    let c = &r.camera;
    let mut text = if args.terrain_only {
        format!("wrote {} (terrain layer: {} features)\n", args.output.display(), written.terrain.len())
    } else {
        format!(
            "wrote {} ({} bases of {} units from {} tags, {} markers, {} terrain features{})\n",
            args.output.display(),
            r.bases,
            result.table.units.len(),
            r.tags_seen,
            written.markers.len(),
            written.terrain.len(),
            if layer.is_some() { " from the layer" } else { "" },
        )
    };
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
    if r.issues.is_empty() {
        text.push_str("  no issues\n");
    } else {
        text.push_str(&format!("  {} issue(s):\n", r.issues.len()));
        for i in &r.issues {
            text.push_str(&format!("    - {}\n", i.describe()));
        }
    }
    text.push_str(&format!("  scan time: {:.0} ms\n", r.timing_ms.total));
    emit(out, &text)
}

/// Writes every file, or none: when one fails, the ones already written by this call
/// are removed again.
fn write_all_or_none(files: &[(&Path, Vec<u8>)]) -> Result<(), CliError> {
    let mut written: Vec<&Path> = Vec::new();
    for (path, bytes) in files {
        if let Err(e) = write_atomically(path, bytes) {
            for p in written {
                let _ = std::fs::remove_file(p);
            }
            return Err(e);
        }
        written.push(path);
    }
    Ok(())
}
