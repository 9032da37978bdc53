//! `vedette init --table 1830x1220 -o my-table.toml [--units units.txt --roster
//! army.toml]`: a calibration profile for a table of any size and a roster from a plain
//! list of units (issue 39; docs/getting-started.md). Files that exist are not replaced
//! without `--force`.

use std::path::Path;
use vedette::CliError;
use vedette::commands::emit;
use vedette::commands::init::{Args, parse_table_size};
use vedette::output::{check_outputs, write_all_or_none};
use vedette_vision::{Game, TablePlan, min_marker_px, photo_plan, roster_from_units, starter_profile};

/// Refuses to replace a file that exists (without `--force`).
fn fresh(path: &Path, what: &str, force: bool) -> Result<(), CliError> {
    if !force && std::fs::symlink_metadata(path).is_ok() {
        return Err(CliError::Usage(format!(
            "{} exists: not replacing a {what} you may have measured and edited (give --force to replace it, or another -o)",
            path.display()
        )));
    }
    Ok(())
}

/// A kebab-case word of the command line as a value (`--rules`, `--scale`).
fn word<T: serde::de::DeserializeOwned>(flag: &str, text: &str, known: &str) -> Result<T, CliError> {
    serde_json::from_value(serde_json::Value::String(text.to_string()))
        .map_err(|_| CliError::Usage(format!("{flag} \"{text}\": give one of {known}")))
}

/// Runs `vedette init`.
pub fn run(args: &Args, out: &mut dyn std::io::Write) -> Result<(), CliError> {
    let (width_mm, depth_mm) = parse_table_size(&args.table)?;
    let mut outputs = vec![("-o", args.output.as_path())];
    outputs.extend(args.roster.iter().map(|r| ("--roster", r.as_path())));
    let inputs: Vec<(&str, &Path)> = args.units.iter().map(|u| ("unit list", u.as_path())).collect();
    check_outputs(&outputs, &inputs)?;
    fresh(&args.output, "profile", args.force)?;
    if let Some(r) = &args.roster {
        fresh(r, "roster", args.force)?;
    }
    let plan = TablePlan {
        width_mm,
        depth_mm,
        fiducials: args.fiducials,
        fiducial_mm: args.fiducial_mm,
        tag_mm: args.tag_mm,
    };
    let origin = args.output.display().to_string();
    let (profile, text) = starter_profile(&plan, &origin).map_err(crate::vision)?;
    let mut files: Vec<(&Path, Vec<u8>)> = vec![(&args.output, text.into_bytes())];
    let mut said = String::new();
    if let (Some(units), Some(roster_path)) = (&args.units, &args.roster) {
        let list = std::fs::read_to_string(units)
            .map_err(|e| CliError::Usage(format!("cannot read the unit list '{}': {e}", units.display())))?;
        let game = Game {
            rules: word("--rules", &args.rules, "republique5, republique-classic, republic, pro-patria")?,
            scale: word("--scale", &args.scale, "small, medium, large, 15mm, 28mm")?,
            name: None,
            near_side: None,
        };
        let (roster, roster_text) =
            roster_from_units(&list, &units.display().to_string(), &profile, game).map_err(crate::vision)?;
        let bases: usize = roster.units.iter().map(|u| u.tags.len()).sum();
        let ids: Vec<u32> = roster.tag_ids().collect();
        said.push_str(&format!(
            "wrote {}: {} units, {bases} bases, tags {}-{}\n",
            roster_path.display(),
            roster.units.len(),
            ids.first().copied().unwrap_or(0),
            ids.last().copied().unwrap_or(0)
        ));
        files.push((roster_path, roster_text.into_bytes()));
    }
    write_all_or_none(&files)?;
    let f = &profile.fiducials;
    let photo = photo_plan(width_mm, depth_mm, profile.tags.size_mm, 4000.0, 3000.0);
    let need = min_marker_px(profile.tags.dictionary);
    let mut text = format!(
        "wrote {}: a {:.0} x {:.0} mm table, {} table fiducials ({} mm {}) centred {:.0} mm in from the corners{}\n",
        args.output.display(),
        width_mm,
        depth_mm,
        f.markers.len(),
        f.size_mm,
        f.dictionary,
        f.markers.first().map_or(0.0, |m| m.x_mm),
        match f.markers.len() {
            6 => " and at the middle of each long edge",
            8 => " and at the thirds of each long edge",
            _ => "",
        }
    );
    text.push_str(&format!(
        "  {} mm tags ({}): a 12 MP photo holding the table (a phone about {:.2} m above it) shows them {:.0} px across{}\n",
        profile.tags.size_mm,
        profile.tags.dictionary,
        photo.camera_height_mm / 1000.0,
        photo.tag_px,
        if photo.tag_px < need {
            format!(": under the {need:.0} px a scan needs; use a camera of more megapixels or bigger tags (--tag-mm)")
        } else {
            String::new()
        }
    ));
    text.push_str(&said);
    text.push_str(&format!(
        "next: vedette sheet {} -o sheets{}  (print at 100%; docs/getting-started.md)\n",
        args.output.display(),
        args.roster.as_ref().map(|r| format!(" --roster {}", r.display())).unwrap_or_default()
    ));
    emit(out, &text)
}
