//! `vedette fiducials PHOTO [--dictionary D]... [--profile P] [--json]`: every square
//! marker found in a photo, with its id and corners: the diagnostic for "why did
//! calibration fail?".

use serde::Serialize;
use vedette::CliError;
use vedette::commands::emit;
use vedette::commands::fiducials::Args;
use vedette_vision::{DetectedMarker, DetectorSettings, Dictionary, Photo, Profile, detect_markers};

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
}

/// Runs `vedette fiducials`.
pub fn run(args: &Args, out: &mut dyn std::io::Write) -> Result<(), CliError> {
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
    let mut markers = Vec::new();
    for d in &dicts {
        let found: Vec<DetectedMarker> = detect_markers(&photo.gray, *d, &settings).map_err(crate::vision)?;
        for m in found {
            let table_fiducial = profile.as_ref().is_some_and(|p| {
                p.fiducials.dictionary.shares_codes_with(*d)
                    && p.fiducial(m.id).is_some()
                    && m.side_px() > 0.0
            });
            markers.push(Found {
                dictionary: d.to_string(),
                id: m.id,
                corners: m.corners,
                side_px: m.side_px(),
                table_fiducial,
            });
        }
    }
    let missing_fiducials: Vec<u32> = profile
        .as_ref()
        .map(|p| {
            p.fiducials
                .markers
                .iter()
                .map(|f| f.id)
                .filter(|id| !markers.iter().any(|m| m.table_fiducial && m.id == *id))
                .collect()
        })
        .unwrap_or_default();
    let listing = Listing { image_width: w, image_height: h, markers, missing_fiducials };
    if args.json {
        let text = serde_json::to_string_pretty(&listing).map_err(|e| CliError::Usage(e.to_string()))?;
        return emit(out, &format!("{text}\n"));
    }
    let names: Vec<String> = dicts.iter().map(ToString::to_string).collect();
    let mut text = format!(
        "{}: {}x{} px, {} marker(s) of {}\n",
        args.photo.display(),
        w,
        h,
        listing.markers.len(),
        names.join(", ")
    );
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
    if profile.is_some() {
        if listing.missing_fiducials.is_empty() {
            text.push_str("  every table fiducial of the profile was found\n");
        } else {
            let ids: Vec<String> = listing.missing_fiducials.iter().map(u32::to_string).collect();
            text.push_str(&format!("  table fiducials NOT found: {}\n", ids.join(", ")));
        }
    }
    emit(out, &text)
}
