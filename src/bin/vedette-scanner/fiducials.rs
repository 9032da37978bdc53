//! `vedette fiducials PHOTO [--profile P [--overlay OUT.jpg]] [--dictionary D]...
//! [--verbose] [--json]`: the markers found in a photo; with a profile, which table
//! fiducials were found and, for each missing one, where it should be and why it was
//! not found, measured from the photo (issue 39). Exits with status 1 when a table
//! fiducial of the profile is missing.

use serde::Serialize;
use vedette::CliError;
use vedette::commands::emit;
use vedette::commands::fiducials::Args;
use vedette::output::{check_outputs, write_atomically};
use vedette_vision::{
    DetectedMarker, DetectorSettings, Dictionary, FiducialDiagnosis, Photo, Profile, detect_markers,
    diagnose_fiducials, draw_diagnosis, encode_image, find_fiducials, marginal_marker_px, min_marker_px,
};

/// One marker as printed.
#[derive(Debug, Clone, Serialize)]
pub struct Found {
    /// Its dictionary.
    pub dictionary: String,
    /// Its id.
    pub id: u32,
    /// Corners, px, OpenCV order (top-left, top-right, bottom-right, bottom-left).
    pub corners: [[f64; 2]; 4],
    /// Mean side, px.
    pub side_px: f64,
    /// True when the profile lists it as a table fiducial.
    pub table_fiducial: bool,
}

/// The `--json` output.
#[derive(Debug, Clone, Serialize)]
pub struct Listing {
    /// Photo width, px.
    pub image_width: u32,
    /// Photo height, px.
    pub image_height: u32,
    /// Every marker found.
    pub markers: Vec<Found>,
    /// Profile fiducials not found (with `--profile`).
    pub missing_fiducials: Vec<u32>,
    /// Why, and where they should be (with `--profile`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub diagnosis: Option<FiducialDiagnosis>,
}

/// Runs `vedette fiducials`.
pub fn run(args: &Args, out: &mut dyn std::io::Write) -> Result<(), CliError> {
    if let Some(o) = &args.overlay {
        let mut inputs = vec![("photo", args.photo.as_path())];
        inputs.extend(args.profile.iter().map(|p| ("profile", p.as_path())));
        check_outputs(&[("--overlay", o.as_path())], &inputs)?;
    }
    let profile = args.profile.as_ref().map(Profile::load).transpose().map_err(crate::vision)?;
    let mut dicts: Vec<Dictionary> = args
        .dictionaries
        .iter()
        .map(|d| d.parse())
        .collect::<Result<_, vedette_vision::VisionError>>()
        .map_err(crate::vision)?;
    if dicts.is_empty() {
        match &profile {
            Some(p) => {
                dicts.push(p.fiducials.dictionary);
                if !p.tags.dictionary.shares_codes_with(p.fiducials.dictionary) {
                    dicts.push(p.tags.dictionary);
                }
            }
            None => dicts.push(Dictionary::DEFAULT_TAGS),
        }
    }
    if !(args.min_side_px.is_finite() && (4.0..=10_000.0).contains(&args.min_side_px)) {
        return Err(CliError::Usage(format!(
            "--min-side-px must be between 4 and 10000 px (a marker smaller than 4 px cannot be read), got {}",
            vedette_geometry::Shown(args.min_side_px)
        )));
    }
    let photo = Photo::load(&args.photo).map_err(crate::vision)?;
    let (w, h) = photo.size().map_err(crate::vision)?;
    if args.min_side_px > f64::from(w.min(h)) {
        return Err(CliError::Usage(format!(
            "--min-side-px {} is larger than the photo ({w}x{h} px)",
            args.min_side_px
        )));
    }
    let settings = DetectorSettings { min_side_px: args.min_side_px, ..DetectorSettings::default() };
    let mut seen: Vec<(Dictionary, DetectedMarker)> = Vec::new();
    for d in &dicts {
        let found: Vec<DetectedMarker> = detect_markers(&photo.gray, *d, &settings).map_err(crate::vision)?;
        seen.extend(found.into_iter().map(|m| (*d, m)));
    }
    // The table fiducials as a scan finds them, so that this verb and a scan agree.
    let table_fiducials = match &profile {
        Some(p) => find_fiducials(&photo, p).map_err(crate::vision)?,
        None => Vec::new(),
    };
    let is_table_fiducial = |d: Dictionary, m: &DetectedMarker| {
        profile
            .as_ref()
            .is_some_and(|p| p.fiducials.dictionary.shares_codes_with(d) && p.fiducial(m.id).is_some())
    };
    let diagnosis = match &profile {
        Some(p) => {
            let others: Vec<(Dictionary, DetectedMarker)> =
                seen.iter().filter(|(d, m)| !is_table_fiducial(*d, m)).copied().collect();
            Some(diagnose_fiducials(&photo, p, &table_fiducials, &others).map_err(crate::vision)?)
        }
        None => None,
    };
    let mut markers: Vec<Found> = seen
        .iter()
        .map(|(d, m)| Found {
            dictionary: d.to_string(),
            id: m.id,
            corners: m.corners,
            side_px: m.side_px(),
            table_fiducial: is_table_fiducial(*d, m),
        })
        .collect();
    // A table fiducial the scan's search found and this listing's did not.
    if let Some(p) = &profile {
        for f in &table_fiducials {
            if !markers.iter().any(|m| m.table_fiducial && m.id == f.id) {
                markers.push(Found {
                    dictionary: p.fiducials.dictionary.to_string(),
                    id: f.id,
                    corners: f.corners,
                    side_px: f.side_px(),
                    table_fiducial: true,
                });
            }
        }
    }
    let missing_fiducials: Vec<u32> =
        diagnosis.as_ref().map(|d| d.missing.iter().map(|m| m.id).collect()).unwrap_or_default();
    if let (Some(path), Some(d), Some(p)) = (&args.overlay, &diagnosis, &profile) {
        let others: Vec<(Dictionary, DetectedMarker)> =
            seen.iter().filter(|(d, m)| !is_table_fiducial(*d, m)).copied().collect();
        let img = draw_diagnosis(&photo, d, &others, p.fiducials.dictionary).map_err(crate::vision)?;
        write_atomically(path, &encode_image(&img, path).map_err(crate::vision)?)?;
    }
    let listing = Listing { image_width: w, image_height: h, markers, missing_fiducials, diagnosis };
    if args.json {
        let text = serde_json::to_string_pretty(&listing).map_err(|e| CliError::Usage(e.to_string()))?;
        emit(out, &format!("{text}\n"))?;
    } else {
        emit(out, &summary(args, &listing, &dicts, profile.as_ref()))?;
    }
    match (&listing.diagnosis, &profile) {
        (Some(d), Some(p)) if !d.complete() => Err(CliError::Usage(format!(
            "{} of the {} table fiducials of {} {} not found ({}){}",
            d.missing.len(),
            p.fiducials.markers.len(),
            args.profile.as_ref().map_or_else(String::new, |p| p.display().to_string()),
            if d.missing.len() == 1 { "was" } else { "were" },
            d.missing.iter().map(|m| m.id.to_string()).collect::<Vec<_>>().join(", "),
            if d.found.len() >= 4 {
                "; a scan can still solve the camera from the others"
            } else {
                "; a scan needs at least 4"
            }
        ))),
        _ => Ok(()),
    }
}

/// The text output: a short summary (every marker's corners with `--verbose`).
fn summary(args: &Args, listing: &Listing, dicts: &[Dictionary], profile: Option<&Profile>) -> String {
    let names: Vec<String> = dicts.iter().map(ToString::to_string).collect();
    let mut text = format!(
        "{}: {}x{} px, {} marker(s) of {}\n",
        args.photo.display(),
        listing.image_width,
        listing.image_height,
        listing.markers.len(),
        names.join(", ")
    );
    if args.verbose {
        for m in &listing.markers {
            let c = &m.corners;
            text.push_str(&format!(
                "  {} id {:4}{}  side {:6.1} px  corners ({:.1}, {:.1}) ({:.1}, {:.1}) ({:.1}, {:.1}) ({:.1}, {:.1})\n",
                m.dictionary,
                m.id,
                if m.table_fiducial { " [table fiducial]" } else { "" },
                m.side_px,
                c[0][0],
                c[0][1],
                c[1][0],
                c[1][1],
                c[2][0],
                c[2][1],
                c[3][0],
                c[3][1]
            ));
        }
    }
    let others: Vec<&Found> = listing.markers.iter().filter(|m| !m.table_fiducial).collect();
    if !others.is_empty() {
        let mut sides: Vec<f64> = others.iter().map(|m| m.side_px).collect();
        sides.sort_by(f64::total_cmp);
        let median = sides[sides.len() / 2];
        let mut line = format!(
            "  {} other marker(s) (tags): {:.1} to {:.1} px across, median {median:.1}",
            others.len(),
            sides[0],
            sides[sides.len() - 1]
        );
        if let Some(p) = profile {
            let (need, comfortable) =
                (min_marker_px(p.tags.dictionary), marginal_marker_px(p.tags.dictionary));
            line.push_str(&format!(
                " ({}; at least {need:.0} px are needed, {comfortable:.0} are comfortable)",
                if median < need {
                    "too small to scan"
                } else if median < comfortable {
                    "marginal"
                } else {
                    "fine"
                }
            ));
        }
        text.push_str(&line);
        text.push('\n');
        if !args.verbose {
            let mut ids: Vec<u32> = others.iter().map(|m| m.id).collect();
            ids.sort_unstable();
            ids.dedup();
            text.push_str(&format!("    ids {}\n", ranges(&ids)));
        }
    }
    if let (Some(d), Some(p)) = (&listing.diagnosis, profile) {
        for line in d.lines(p.fiducials.dictionary) {
            text.push_str(&format!("  {line}\n"));
        }
        if d.complete() {
            text.push_str("  every table fiducial of the profile was found\n");
        }
        if let Some(o) = &args.overlay {
            text.push_str(&format!("  wrote {}\n", o.display()));
        }
    }
    text
}

/// `10-14, 16, 20-22`.
fn ranges(ids: &[u32]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < ids.len() {
        let start = ids[i];
        let mut end = start;
        while i + 1 < ids.len() && ids[i + 1] == end + 1 {
            i += 1;
            end = ids[i];
        }
        out.push(if end == start { start.to_string() } else { format!("{start}-{end}") });
        i += 1;
    }
    out.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_shown_as_ranges() {
        assert_eq!(ranges(&[10, 11, 12, 14, 20, 21]), "10-12, 14, 20-21");
        assert_eq!(ranges(&[]), "");
    }
}
