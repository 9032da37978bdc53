//! `vedette-scanner`: every verb of `vedette`, the photo verbs (which need OpenCV)
//! included. `vedette` hands `scan`, `fiducials`, `sheet` and `calibrate-camera` to this
//! binary so that its other verbs start without loading OpenCV.

fn main() -> std::process::ExitCode {
    vedette::cli::main_scanner()
}
