//! vedette-vision (work in progress)
#![deny(missing_docs)]
mod calibration;
mod camera;
mod decode;
mod dictionary;
mod error;
mod fiducials;
mod photo;
mod pose;
mod profile;
mod roster;
mod scan;
mod sheet;
mod tags;
pub use calibration::{Calibration, Pattern, calibrate, opencv_sample_photos};
pub use camera::{CalibrationRecord, CameraFile, Intrinsics};
pub use dictionary::Dictionary;
pub use error::VisionError;
pub use fiducials::{
    DetectedMarker, DetectorSettings, Refinement, detect_large_markers, detect_markers, refine_corners,
    refine_edges,
};
pub use photo::{Photo, encode_image};
pub use pose::{CameraFit, CameraModel, CameraPose, FiducialFit, ModelKind, solve_camera};
pub use profile::{
    BaseSpec, CameraSpec, FiducialPlacement, FiducialSpec, Limits, Profile, TableSpec, TagSpec,
    square_corners,
};
pub use roster::{Game, Roster, RosterUnit, TagEntry};
pub use scan::{CameraReport, Scan, ScanIssue, ScanReport, Timing, draw_overlay, scan};
pub use sheet::{DPI, PAGE_MM, Page, RULER_MM, RenderedPage, mm_to_px, sheets};
pub use tags::{ErrorBudget, TagPose, measure_tags, normalize_deg};
