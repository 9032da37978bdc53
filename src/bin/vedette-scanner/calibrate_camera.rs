//! `vedette calibrate-camera PHOTOS... -o calibration/camera.toml [--chessboard 9x6 |
//! --charuco 7x5] [--square-mm S] [--marker-mm M] [--dictionary D]`: intrinsics and
//! lens distortion from photos of a calibration board.

use vedette::CliError;
use vedette::commands::calibrate_camera::Args;
use vedette::commands::emit;
use vedette::output::{check_outputs, is_stdout, write_to};
use vedette_vision::{Dictionary, Pattern, calibrate};

fn grid(text: &str, flag: &str) -> Result<(i32, i32), CliError> {
    let bad = || CliError::Usage(format!("--{flag} \"{text}\": give COLSxROWS, e.g. 9x6"));
    let (a, b) = text
        .to_ascii_lowercase()
        .split_once('x')
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .ok_or_else(bad)?;
    Ok((a.trim().parse().map_err(|_| bad())?, b.trim().parse().map_err(|_| bad())?))
}

/// Runs `vedette calibrate-camera`.
pub fn run(args: &Args, out: &mut dyn std::io::Write) -> Result<(), CliError> {
    let inputs: Vec<(&str, &std::path::Path)> = args.photos.iter().map(|p| ("photo", p.as_path())).collect();
    let to_stdout = is_stdout(&args.output);
    if !to_stdout {
        check_outputs(&[("-o", &args.output)], &inputs)?;
    }
    let pattern = match (&args.chessboard, &args.charuco) {
        (_, Some(c)) => {
            let (squares_x, squares_y) = grid(c, "charuco")?;
            let dictionary: Dictionary = args.dictionary.parse().map_err(crate::vision)?;
            Pattern::Charuco {
                squares_x,
                squares_y,
                square_mm: args.square_mm,
                marker_mm: args.marker_mm.unwrap_or(args.square_mm * 0.75),
                dictionary,
            }
        }
        (Some(c), None) => {
            let (cols, rows) = grid(c, "chessboard")?;
            Pattern::Chessboard { cols, rows, square_mm: args.square_mm }
        }
        (None, None) => Pattern::Chessboard { cols: 9, rows: 6, square_mm: args.square_mm },
    };
    let c = vedette::progress::working(format!("calibrating from {} photos", args.photos.len()), || {
        calibrate(&args.photos, &pattern)
    })
    .map_err(crate::vision)?;
    let text = c.intrinsics.to_toml(Some(c.record())).map_err(crate::vision)?;
    write_to(&args.output, text.as_bytes(), out)?;
    let k = &c.intrinsics;
    let mut msg = format!(
        "wrote {}: {} of {} photos used, RMS reprojection error {:.3} px\n  {}x{} px, fx {:.1} fy {:.1} cx {:.1} cy {:.1}, distortion {:?}\n",
        args.output.display(),
        c.used.len(),
        args.photos.len(),
        c.rms_px,
        k.image_width,
        k.image_height,
        k.fx,
        k.fy,
        k.cx,
        k.cy,
        k.distortion.iter().map(|d| (d * 1e5).round() / 1e5).collect::<Vec<_>>()
    );
    for (p, why) in &c.skipped {
        msg.push_str(&format!("  skipped {}: {why}\n", p.display()));
    }
    if c.rms_px > 1.0 {
        msg.push_str("  warning: RMS above 1 px; check the board size arguments and photo sharpness\n");
    }
    if to_stdout {
        // Standard output carries the camera file: the summary goes to stderr.
        eprint!("{msg}");
        return Ok(());
    }
    emit(out, &msg)
}
