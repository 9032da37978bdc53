//! `vedette sheet PROFILE -o DIR [--roster R | --tags 10-99 | --check]`: print-ready
//! pages of the profile's table fiducials and of base tags at exact physical size (A4,
//! PNG at 300 dpi and SVG in mm), each with a 100 mm ruler to check the printer's
//! scale; a roster's tags each labelled with its base; or the check sheet.

use vedette::CliError;
use vedette::commands::emit;
use vedette::commands::sheet::Args;
use vedette::output::write_atomically;
use vedette_vision::{Page, Profile, Roster, check_sheet, check_tags, sheets_sized_with_labels};

/// Parses `10-99,120,130-139`; every id must be below `len` (the dictionary's size),
/// checked before any list is built.
pub fn parse_ids(text: &str, len: u32) -> Result<Vec<u32>, CliError> {
    let bad = || CliError::Usage(format!("--tags \"{text}\": give ids like 10-99 or 10,11,20-29"));
    let too_big = |id: u32| {
        CliError::Usage(format!(
            "--tags \"{text}\": id {id} is outside the tag dictionary (ids 0-{})",
            len.saturating_sub(1)
        ))
    };
    let mut ids = Vec::new();
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        match part.split_once('-') {
            Some((a, b)) => {
                let (a, b): (u32, u32) =
                    (a.trim().parse().map_err(|_| bad())?, b.trim().parse().map_err(|_| bad())?);
                if b < a {
                    return Err(bad());
                }
                if b >= len {
                    return Err(too_big(b));
                }
                ids.extend(a..=b);
            }
            None => {
                let id: u32 = part.parse().map_err(|_| bad())?;
                if id >= len {
                    return Err(too_big(id));
                }
                ids.push(id);
            }
        }
    }
    ids.sort_unstable();
    ids.dedup();
    if ids.is_empty() {
        return Err(bad());
    }
    Ok(ids)
}

/// Runs `vedette sheet`.
pub fn run(args: &Args, out: &mut dyn std::io::Write) -> Result<(), CliError> {
    let profile = Profile::load(&args.profile).map_err(crate::vision)?;
    if args.check {
        let tags = check_tags(&profile);
        let apart: Vec<f64> = tags
            .iter()
            .enumerate()
            .flat_map(|(i, a)| tags[i + 1..].iter().map(|b| a.distance_mm(b)))
            .collect();
        let note = format!(
            "the check sheet: {} tags of {} at {} mm ({}), {:.0} to {:.0} mm apart. Print at 100%, check the 100 mm ruler, lay it flat on the table and run `vedette check PHOTO --profile {}`.\n",
            tags.len(),
            profile.tags.dictionary,
            profile.tags.size_mm,
            ranges_of(&tags.iter().map(|t| t.id).collect::<Vec<_>>()),
            apart.iter().copied().fold(f64::INFINITY, f64::min),
            apart.iter().copied().fold(0.0, f64::max),
            args.profile.display()
        );
        return write_pages(args, &[check_sheet(&profile).map_err(crate::vision)?], out, &note);
    }
    let shared = profile.tags.dictionary.shares_codes_with(profile.fiducials.dictionary);
    let is_fiducial = |id: u32| shared && profile.fiducial(id).is_some();
    // Each tag at its size (a roster unit's `tag_mm`, else the profile's), labelled with
    // the base it goes on when the roster names it.
    let roster = args.roster.as_ref().map(Roster::load).transpose().map_err(crate::vision)?;
    let default_mm = profile.tags.size_mm;
    let tags: Vec<(u32, f64, Option<String>)> = match (&roster, &args.tags) {
        (Some(r), _) => {
            // The same refusal as a scan's: ids out of the dictionary or a fiducial's.
            r.check_for(&profile).map_err(crate::vision)?;
            r.units
                .iter()
                .flat_map(|u| {
                    let size = u.tag_mm.unwrap_or(default_mm);
                    u.tags.iter().enumerate().map(move |(b, &id)| (id, size, Some(format!("{}#{b}", u.id))))
                })
                .collect()
        }
        (None, Some(t)) => parse_ids(t, profile.tags.dictionary.len())?
            .into_iter()
            .map(|id| (id, default_mm, None))
            .collect(),
        (None, None) => (0..profile.tags.dictionary.len())
            .filter(|id| !is_fiducial(*id))
            .map(|id| (id, default_mm, None))
            .collect(),
    };
    let ids: Vec<u32> = tags.iter().map(|t| t.0).collect();
    if let Some(id) = ids.iter().copied().find(|id| is_fiducial(*id)) {
        return Err(CliError::Usage(format!(
            "tag {id} prints the same marker as table fiducial {id} of {} ({}): a base carrying it would be taken for a corner of the table; use ids the profile leaves to bases",
            args.profile.display(),
            profile.fiducials.dictionary
        )));
    }
    let pages = sheets_sized_with_labels(&profile, &tags).map_err(crate::vision)?;
    let mut sizes: Vec<f64> = tags.iter().map(|t| t.1).collect();
    sizes.sort_by(f64::total_cmp);
    sizes.dedup();
    let at = sizes
        .iter()
        .map(|s| format!("{} at {s} mm", tags.iter().filter(|t| t.1 == *s).count()))
        .collect::<Vec<_>>()
        .join(", ");
    let note = format!(
        "{} tag(s) of {} ({at}){}; table fiducials {} mm. Print at 100% and check the 100 mm ruler.\n",
        ids.len(),
        profile.tags.dictionary,
        if roster.is_some() { ", each labelled with its base (unit#base)" } else { "" },
        profile.fiducials.size_mm
    );
    write_pages(args, &pages, out, &note)
}

/// `238-249`: a run of ids.
fn ranges_of(ids: &[u32]) -> String {
    match (ids.first(), ids.last()) {
        (Some(a), Some(b)) if b - a + 1 == ids.len() as u32 => format!("ids {a}-{b}"),
        _ => format!("ids {}", ids.iter().map(u32::to_string).collect::<Vec<_>>().join(", ")),
    }
}

/// Renders and writes the pages, then says what was written and `note`.
fn write_pages(
    args: &Args,
    pages: &[Page],
    out: &mut dyn std::io::Write,
    note: &str,
) -> Result<(), CliError> {
    std::fs::create_dir_all(&args.output)
        .map_err(|source| CliError::Write { path: args.output.display().to_string(), source })?;
    let mut text = String::new();
    for page in pages {
        let r = page.render().map_err(crate::vision)?;
        let png = args.output.join(format!("{}.png", r.name));
        let svg = args.output.join(format!("{}.svg", r.name));
        write_atomically(&png, &r.png)?;
        write_atomically(&svg, r.svg.as_bytes())?;
        text.push_str(&format!("wrote {} and {}\n", png.display(), svg.display()));
    }
    text.push_str(note);
    emit(out, &text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn id_lists() {
        assert_eq!(parse_ids("20,10-12", 250).unwrap(), vec![10, 11, 12, 20]);
        assert!(parse_ids("12-10", 250).is_err());
        assert!(parse_ids("x", 250).is_err());
        assert!(parse_ids("249", 250).is_ok());
        assert!(parse_ids("250", 250).is_err());
        let huge = parse_ids("0-4294967295", 250).map(|v| v.len());
        assert!(matches!(huge, Err(CliError::Usage(m)) if m.contains("outside the tag dictionary")));
    }
}
