//! `vedette sheet PROFILE -o DIR [--roster R | --tags 10-99]`: print-ready pages of the
//! profile's table fiducials and of base tags at exact physical size (A4, PNG at 300
//! dpi and SVG in mm), each with a 100 mm ruler to check the printer's scale.

use super::emit;
use crate::CliError;
use crate::output::write_atomically;
use std::path::PathBuf;
use vedette_vision::{Profile, Roster, sheets};

/// Arguments of `vedette sheet`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The calibration profile.
    pub profile: PathBuf,
    /// The directory to write the pages into (created if missing).
    #[arg(short, long)]
    pub output: PathBuf,
    /// Print the tags of this roster.
    #[arg(long, conflicts_with = "tags")]
    pub roster: Option<PathBuf>,
    /// Tag ids to print, e.g. `10-99` or `10,11,20-29`. Default: every id of the tag
    /// dictionary that is not a table fiducial.
    #[arg(long)]
    pub tags: Option<String>,
}

/// Parses `10-99,120,130-139`.
pub fn parse_ids(text: &str) -> Result<Vec<u32>, CliError> {
    let bad = || CliError::Usage(format!("--tags \"{text}\": give ids like 10-99 or 10,11,20-29"));
    let mut ids = Vec::new();
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        match part.split_once('-') {
            Some((a, b)) => {
                let (a, b): (u32, u32) =
                    (a.trim().parse().map_err(|_| bad())?, b.trim().parse().map_err(|_| bad())?);
                if b < a {
                    return Err(bad());
                }
                ids.extend(a..=b);
            }
            None => ids.push(part.parse().map_err(|_| bad())?),
        }
    }
    if ids.is_empty() {
        return Err(bad());
    }
    Ok(ids)
}

/// Runs `vedette sheet`.
pub fn run(args: &Args, out: &mut dyn std::io::Write) -> Result<(), CliError> {
    let profile = Profile::load(&args.profile)?;
    let ids: Vec<u32> = match (&args.roster, &args.tags) {
        (Some(r), _) => Roster::load(r)?.tag_ids().collect(),
        (None, Some(t)) => parse_ids(t)?,
        (None, None) => {
            let shared = profile.tags.dictionary.shares_codes_with(profile.fiducials.dictionary);
            (0..profile.tags.dictionary.len())
                .filter(|id| !(shared && profile.fiducial(*id).is_some()))
                .collect()
        }
    };
    let pages = sheets(&profile, &ids)?;
    std::fs::create_dir_all(&args.output)
        .map_err(|source| CliError::Write { path: args.output.display().to_string(), source })?;
    let mut text = String::new();
    for page in &pages {
        let r = page.render()?;
        let png = args.output.join(format!("{}.png", r.name));
        let svg = args.output.join(format!("{}.svg", r.name));
        write_atomically(&png, &r.png)?;
        write_atomically(&svg, r.svg.as_bytes())?;
        text.push_str(&format!("wrote {} and {}\n", png.display(), svg.display()));
    }
    text.push_str(&format!(
        "{} tag(s) of {} at {} mm; table fiducials {} mm. Print at 100% and check the 100 mm ruler.\n",
        ids.len(),
        profile.tags.dictionary,
        profile.tags.size_mm,
        profile.fiducials.size_mm
    ));
    emit(out, &text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn id_lists() {
        assert_eq!(parse_ids("10-12,20").unwrap(), vec![10, 11, 12, 20]);
        assert!(parse_ids("12-10").is_err());
        assert!(parse_ids("x").is_err());
    }
}
