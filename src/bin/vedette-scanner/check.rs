//! `vedette check PHOTO --profile P [--camera C] [--json]`: the check sheet measured in
//! a photo of the table (issue 39): mean and worst distance error against the printed
//! distances, with the scan's stated uncertainty, and whether the photo is good enough
//! for disputes (exit status 1 when it is not).

use vedette::CliError;
use vedette::commands::check::Args;
use vedette::commands::emit;
use vedette_vision::{Intrinsics, Photo, Profile, check_photo};

/// Runs `vedette check`.
pub fn run(args: &Args, out: &mut dyn std::io::Write) -> Result<(), CliError> {
    let profile = Profile::load(&args.profile).map_err(crate::vision)?;
    let camera = args.camera.as_ref().map(|p| Intrinsics::load(p)).transpose().map_err(crate::vision)?;
    let photo = Photo::load(&args.photo).map_err(crate::vision)?;
    let report = vedette::progress::working(format!("checking {}", args.photo.display()), || {
        check_photo(&photo, &profile, camera.as_ref())
    })
    .map_err(|e| CliError::Usage(format!("{}: {e}", args.photo.display())))?;
    if args.json {
        let text = serde_json::to_string_pretty(&report).map_err(|e| CliError::Usage(e.to_string()))?;
        emit(out, &format!("{text}\n"))?;
    } else {
        let mut text =
            format!("{}: {}x{} px\n", args.photo.display(), report.image_width, report.image_height);
        for line in report.lines() {
            text.push_str(&format!("  {line}\n"));
        }
        emit(out, &text)?;
    }
    if report.good_for_disputes {
        Ok(())
    } else {
        Err(CliError::Usage(format!(
            "{}: not good enough for disputes (above: what to check)",
            args.photo.display()
        )))
    }
}
