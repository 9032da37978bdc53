//! # vedette-synth
//!
//! Synthetic overhead photos of a wargames table with exact ground truth, in pure Rust
//! (no OpenCV), so the scanner's accuracy can be measured against a truth that does
//! not share its code. Every render is seeded: the same inputs give the same photo.
//!
//! ## What it offers
//! - The camera: [`Camera`] (OpenCV's pinhole model with its five-coefficient
//!   [`Distortion`], posed in the table frame by a [`CameraPose`]),
//!   [`Camera::looking_at`] from a [`LookAt`] setup, [`Camera::project`] as the truth
//!   of where a table point appears, [`Resolution`] presets of 8 to 24 MP.
//! - OpenCV's ArUco dictionaries bit for bit: [`ArucoDictionary`], [`MarkerBits`].
//! - The scene: [`Scene`] = a table file's [`Table`](vedette_geometry::Table) plus a
//!   [`Layout`] of [`TableFiducial`]s printed on paper on the table and [`BaseTag`]s
//!   on base tops; [`StandardLayout`] is the layout of the sample photos.
//! - Rendering: [`render`] with [`RenderOptions`] and [`SensorOptions`]: textured mat
//!   and terrain, fiducial sheets, bases as 3 mm boxes with their tags, figures
//!   standing on them (never hiding a tag or fiducial, or crowding the tags with
//!   [`FigureSpacing::AgainstTags`]), marker cubes, light gradient, soft shadows,
//!   vignetting, blur, sensor noise; adaptive supersampling on edges.
//! - Output: [`Render`] (image and [`Truth`]), written as `NAME.jpg`,
//!   `NAME.table.json` and `NAME.camera.json` ([`CameraTruth`]) by [`Render::write`].
//!
//! ## Example
//! ```
//! use vedette_geometry::{Table, Vec2};
//! use vedette_synth::{Camera, Distortion, LookAt, RenderOptions, Resolution, Scene, StandardLayout, render};
//! let table = Table::from_json_str(r#"{"schema":"vedette/table/1","rules":"republique5",
//!   "scale":"medium","size":{"width":400,"depth":300},"units":[{"id":"fr-1",
//!   "side":"fr","kind":"infantry","formation":"line","bases":[
//!   {"x":185,"y":150,"heading":90,"width":30,"depth":20},
//!   {"x":215,"y":150,"heading":90,"width":30,"depth":20}]}]}"#)?;
//! let layout = StandardLayout { fiducial_side_mm: 40.0, inset_mm: 40.0, ..Default::default() }.build(&table)?;
//! let scene = Scene::new(table, &layout)?;
//! let camera = Camera::looking_at(&LookAt {
//!     target_mm: Vec2::new(200.0, 150.0),
//!     height_mm: 500.0,
//!     tilt_deg: 20.0,
//!     yaw_deg: 0.0,
//!     focal_mm: 4.3,
//!     sensor_width_mm: 6.2,
//!     resolution: Resolution::new(320, 240),
//! })?
//! .with_distortion(Distortion { k1: -0.05, ..Distortion::NONE });
//! let photo = render(&scene, &camera, &RenderOptions::seeded(42))?;
//! let dir = tempfile::tempdir().map_err(|e| vedette_synth::SynthError::Io { path: "tmp".into(), source: e })?;
//! let files = photo.write(dir.path(), "demo")?;
//! assert!(files.image.exists() && files.table.exists() && files.camera.exists());
//! // Tag 10 lies on fr-1's first base; its corners are where the camera projects them.
//! let tag = &photo.truth.camera.tags[0];
//! assert_eq!((tag.unit.as_str(), tag.base, tag.marker.id), ("fr-1", 0, 10));
//! assert!(tag.marker.corners_visible.iter().all(|v| *v));
//! # Ok::<(), vedette_synth::SynthError>(())
//! ```

#![deny(missing_docs)]

mod camera;
mod dictionary;
mod error;
mod noise;
mod output;
mod props;
mod raster;
mod render;
mod scene;
mod sensor;
mod shading;
mod solids;
mod texture;

pub use camera::{Camera, CameraPose, Distortion, Intrinsics, LookAt, Ray, Resolution};
pub use dictionary::{ArucoDictionary, MarkerBits};
pub use error::SynthError;
pub use output::{
    CAMERA_SCHEMA_ID, CameraTruth, MarkerTruth, PoseTruth, Render, TagTruth, Truth, WrittenFiles,
};
pub use props::{CROWD_UNIFORMS, FigureSpacing, TAG_CLEAR_MM};
pub use render::{NearbyLamp, RenderOptions, UNIT_COATS, render, render_empty};
pub use scene::{
    BaseTag, DEFAULT_BASE_HEIGHT_MM, DEFAULT_FIDUCIAL_QUIET_ZONE_MM, DEFAULT_TAG_SIDE_MM, Layout,
    PrintedMarker, Scene, StandardLayout, TableFiducial, TagSpec,
};
pub use sensor::SensorOptions;
pub use texture::MatColour;
