//! What a render gives back: the image and its ground truth, and the files they are
//! written to (`NAME.jpg`, `NAME.table.json`, `NAME.camera.json`).

use crate::camera::{Camera, CameraPose, Distortion, Intrinsics, Resolution};
use crate::dictionary::ArucoDictionary;
use crate::error::SynthError;
use crate::raster::World;
use crate::scene::{PrintedMarker, Scene};
use image::RgbImage;
use image::codecs::jpeg::JpegEncoder;
use nalgebra::{Matrix3, Point3, Rotation3, Vector3};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use vedette_geometry::{Table, TableSize, Vec2};

/// The schema id of camera truth files.
pub const CAMERA_SCHEMA_ID: &str = "vedette/synth-camera/1";

/// A rendered photo and its truth.
#[derive(Debug, Clone, PartialEq)]
pub struct Render {
    /// The photo as the sensor gives it, before JPEG compression.
    pub image: RgbImage,
    /// What the photo shows, exactly.
    pub truth: Truth,
    /// The JPEG quality [`Render::encode_jpeg`] and [`Render::write`] use.
    pub jpeg_quality: u8,
}

/// The ground truth of a render.
#[derive(Debug, Clone, PartialEq)]
pub struct Truth {
    /// The table, exactly as given: what a scan should reproduce.
    pub table: Table,
    /// The camera and where every fiducial and tag corner landed in the photo.
    pub camera: CameraTruth,
}

/// The camera truth file (`NAME.camera.json`): intrinsics, distortion, pose, and the
/// exact pixel corners of every fiducial and tag.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CameraTruth {
    /// Always [`CAMERA_SCHEMA_ID`].
    pub schema: String,
    /// The render's seed.
    pub seed: u64,
    /// Camera matrix entries and image size, px.
    pub intrinsics: Intrinsics,
    /// OpenCV's `cameraMatrix`, row-major.
    pub camera_matrix: [[f64; 3]; 3],
    /// Lens distortion.
    pub distortion: Distortion,
    /// OpenCV's `distCoeffs`: `[k1, k2, p1, p2, k3]`.
    pub dist_coeffs: [f64; 5],
    /// Where the camera was.
    pub pose: PoseTruth,
    /// The table's size, mm.
    pub table_size: TableSize,
    /// Height of base tops above the table, mm.
    pub base_height_mm: f64,
    /// How many figures stood on the bases.
    pub figures: usize,
    /// The table fiducials, in layout order.
    pub fiducials: Vec<MarkerTruth>,
    /// The base tags, in layout order.
    pub tags: Vec<TagTruth>,
}

/// The camera pose in OpenCV's and in table terms.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct PoseTruth {
    /// Table frame to camera frame, row-major (OpenCV's `cv2.Rodrigues(rvec)`).
    pub rotation: [[f64; 3]; 3],
    /// OpenCV's `rvec`, radians.
    pub rvec: [f64; 3],
    /// OpenCV's `tvec`, mm.
    pub tvec: [f64; 3],
    /// The camera centre in table mm.
    pub position_mm: [f64; 3],
}

/// A printed marker and where it landed in the photo.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MarkerTruth {
    /// Its dictionary.
    pub dictionary: ArucoDictionary,
    /// Its id.
    pub id: u32,
    /// Centre of the black square, table mm (z is the paper's height).
    pub centre_mm: [f64; 3],
    /// Side of the black square, mm.
    pub side_mm: f64,
    /// Counter-clockwise turn of the marker's up from table +y, degrees.
    pub rotation_deg: f64,
    /// Corners of the black square in OpenCV's order (top-left, top-right,
    /// bottom-right, bottom-left of the marker image), table mm.
    pub corners_mm: [[f64; 3]; 4],
    /// The same corners in the photo, px (`null` behind the camera).
    pub corners_px: [Option<[f64; 2]>; 4],
    /// Per corner: inside the frame and not hidden by any raised object.
    pub corners_visible: [bool; 4],
    /// The share of the black square that is in the frame and not hidden by any raised
    /// object, from a 10 x 10 grid of points over it (files written before issue 18
    /// lack it: their figures kept clear of every tag, so it reads as 1).
    #[serde(default = "fully_visible")]
    pub visible_fraction: f64,
}

fn fully_visible() -> f64 {
    1.0
}

/// A base tag and where it landed in the photo.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TagTruth {
    /// The id of the unit whose base carries the tag.
    pub unit: String,
    /// The unit's index in the table file.
    pub unit_index: usize,
    /// The base's index in the unit.
    pub base: usize,
    /// Tag centre in the base frame (x to the base's right, y to its front), mm.
    pub offset_mm: Vec2,
    /// The coat of the unit's figures when uniforms are chosen per unit
    /// ([`FigureSpacing::AgainstTags`](crate::FigureSpacing::AgainstTags)): one of
    /// [`CROWD_UNIFORMS`](crate::CROWD_UNIFORMS).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uniform: Option<String>,
    /// The printed marker.
    #[serde(flatten)]
    pub marker: MarkerTruth,
}

/// The paths [`Render::write`] wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WrittenFiles {
    /// `NAME.jpg`.
    pub image: PathBuf,
    /// `NAME.table.json`.
    pub table: PathBuf,
    /// `NAME.camera.json`.
    pub camera: PathBuf,
}

impl Truth {
    pub(crate) fn new(
        world: &World<'_>,
        scene: &Scene,
        seed: u64,
        figures: usize,
        uniforms: &[&str],
    ) -> Truth {
        let camera = world.camera;
        let pose = &camera.pose;
        let r = pose.rotation();
        let m = r.matrix();
        let c = pose.position_mm();
        let fiducials = world.fiducials.iter().map(|f| marker_truth(world, f, None)).collect();
        let table = scene.table();
        // Bases are the first solids, in table order.
        let mut first_solid = Vec::with_capacity(table.units.len());
        let mut n = 0;
        for u in &table.units {
            first_solid.push(n);
            n += u.bases.len();
        }
        let tags = scene
            .tags()
            .iter()
            .zip(&world.tags)
            .map(|(t, printed)| {
                let solid = first_solid.get(t.base.unit).map(|s| s + t.base.base);
                TagTruth {
                    unit: table.units.get(t.base.unit).map(|u| u.id.clone()).unwrap_or_default(),
                    unit_index: t.base.unit,
                    base: t.base.base,
                    offset_mm: t.offset_mm,
                    uniform: uniforms.get(t.base.unit).map(|u| (*u).to_string()),
                    marker: marker_truth(world, printed, solid),
                }
            })
            .collect();
        let camera_truth = CameraTruth {
            schema: CAMERA_SCHEMA_ID.to_string(),
            seed,
            intrinsics: camera.intrinsics,
            camera_matrix: camera.intrinsics.matrix(),
            distortion: camera.distortion,
            dist_coeffs: camera.distortion.coefficients(),
            pose: PoseTruth {
                rotation: [0, 1, 2].map(|i| [m[(i, 0)], m[(i, 1)], m[(i, 2)]]),
                rvec: pose.rvec(),
                tvec: pose.tvec(),
                position_mm: [c.x, c.y, c.z],
            },
            table_size: scene.size(),
            base_height_mm: scene.base_height_mm(),
            figures,
            fiducials,
            tags,
        };
        Truth { table: table.clone(), camera: camera_truth }
    }
}

fn marker_truth(world: &World<'_>, m: &PrintedMarker, own_solid: Option<usize>) -> MarkerTruth {
    let corners_mm = m.corners_mm();
    let corners_px = corners_mm.map(|p| world.camera.project(&Point3::new(p[0], p[1], p[2])));
    let mut corners_visible = [false; 4];
    for (k, visible) in corners_visible.iter_mut().enumerate() {
        let p = corners_mm[k];
        *visible = corners_px[k].is_some_and(|px| world.camera.in_frame(px))
            && !world.occluded(&Point3::new(p[0], p[1], p[2]), own_solid);
    }
    // Cell centres of a 10 x 10 grid over the black square.
    let [a, b, _, d] = corners_mm;
    let mut seen = 0;
    for i in 0..10 {
        for j in 0..10 {
            let (s, t) = ((f64::from(i) + 0.5) / 10.0, (f64::from(j) + 0.5) / 10.0);
            let p = Point3::new(
                a[0] + (b[0] - a[0]) * s + (d[0] - a[0]) * t,
                a[1] + (b[1] - a[1]) * s + (d[1] - a[1]) * t,
                a[2] + (b[2] - a[2]) * s + (d[2] - a[2]) * t,
            );
            let in_frame = world.camera.project(&p).is_some_and(|px| world.camera.in_frame(px));
            if in_frame && !world.occluded(&p, own_solid) {
                seen += 1;
            }
        }
    }
    MarkerTruth {
        dictionary: m.dictionary,
        id: m.id,
        centre_mm: [m.centre_mm.x, m.centre_mm.y, m.z_mm],
        side_mm: m.side_mm,
        rotation_deg: m.up.heading_deg() - 90.0,
        corners_mm,
        corners_px,
        corners_visible,
        visible_fraction: f64::from(seen) / 100.0,
    }
}

impl CameraTruth {
    /// Parses a camera truth file's text; `origin` names it in errors.
    pub fn from_json_str(text: &str, origin: &str) -> Result<CameraTruth, SynthError> {
        serde_json::from_str(text).map_err(|source| SynthError::Json { origin: origin.to_string(), source })
    }

    /// Reads a camera truth file.
    pub fn load(path: impl AsRef<Path>) -> Result<CameraTruth, SynthError> {
        let path = path.as_ref();
        let text = std::fs::read_to_string(path).map_err(|source| io(path, source))?;
        CameraTruth::from_json_str(&text, &path.display().to_string())
    }

    /// The file's text (pretty JSON).
    #[must_use]
    pub fn to_json_string(&self) -> String {
        // Plain data with string keys: serializing cannot fail.
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// The camera the photo was taken with.
    pub fn camera(&self) -> Result<Camera, SynthError> {
        let m = Matrix3::from_fn(|i, j| self.pose.rotation[i][j]);
        let rotation = Rotation3::from_matrix_unchecked(m);
        let [x, y, z] = self.pose.position_mm;
        Camera::new(self.intrinsics, self.distortion, CameraPose::new(rotation, Vector3::new(x, y, z)))
    }

    /// The image size.
    #[must_use]
    pub fn resolution(&self) -> Resolution {
        self.intrinsics.resolution
    }
}

fn io(path: &Path, source: std::io::Error) -> SynthError {
    SynthError::Io { path: path.display().to_string(), source }
}

impl Render {
    /// The photo as a JPEG file's bytes, at the render's quality.
    pub fn encode_jpeg(&self) -> Result<Vec<u8>, SynthError> {
        let mut bytes = Vec::new();
        JpegEncoder::new_with_quality(&mut bytes, self.jpeg_quality)
            .encode_image(&self.image)
            .map_err(|source| SynthError::Encode { what: "JPEG", source })?;
        Ok(bytes)
    }

    /// Writes `NAME.jpg`, `NAME.table.json` (the table, with
    /// [`Table::to_json_string`]) and `NAME.camera.json` into `dir`, creating it.
    pub fn write(&self, dir: impl AsRef<Path>, name: &str) -> Result<WrittenFiles, SynthError> {
        let dir = dir.as_ref();
        std::fs::create_dir_all(dir).map_err(|source| io(dir, source))?;
        let files = WrittenFiles {
            image: dir.join(format!("{name}.jpg")),
            table: dir.join(format!("{name}.table.json")),
            camera: dir.join(format!("{name}.camera.json")),
        };
        let jpeg = self.encode_jpeg()?;
        std::fs::write(&files.image, jpeg).map_err(|source| io(&files.image, source))?;
        let table = self.truth.table.to_json_string() + "\n";
        std::fs::write(&files.table, table).map_err(|source| io(&files.table, source))?;
        let camera = self.truth.camera.to_json_string() + "\n";
        std::fs::write(&files.camera, camera).map_err(|source| io(&files.camera, source))?;
        Ok(files)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::camera::LookAt;
    use crate::render::{RenderOptions, render};
    use crate::scene::StandardLayout;

    #[test]
    fn camera_truth_round_trips_and_rebuilds_the_camera() {
        let table = Table::from_json_str(
            r#"{"schema":"vedette/table/1","rules":"republique5","scale":"medium","size":{"width":300,"depth":200},
            "units":[{"id":"a","side":"fr","kind":"infantry","formation":"line","bases":[
              {"x":150,"y":100,"heading":120,"width":30,"depth":20}]}]}"#,
        )
        .unwrap();
        let layout = StandardLayout { inset_mm: 30.0, fiducial_side_mm: 30.0, ..Default::default() }
            .build(&table)
            .unwrap();
        let scene = Scene::new(table, &layout).unwrap();
        let camera = Camera::looking_at(&LookAt {
            target_mm: Vec2::new(150.0, 100.0),
            height_mm: 450.0,
            tilt_deg: 20.0,
            yaw_deg: 35.0,
            focal_mm: 4.0,
            sensor_width_mm: 6.0,
            resolution: Resolution::new(120, 90),
        })
        .unwrap()
        .with_distortion(Distortion { k1: -0.1, ..Distortion::NONE });
        let photo =
            render(&scene, &camera, &RenderOptions { clutter: false, ..RenderOptions::seeded(3) }).unwrap();
        let truth = &photo.truth.camera;
        let text = truth.to_json_string();
        let back = CameraTruth::from_json_str(&text, "truth").unwrap();
        assert_eq!(&back, truth);
        let rebuilt = back.camera().unwrap();
        let tag = &back.tags[0];
        assert_eq!(
            (tag.unit.as_str(), tag.marker.id, tag.marker.dictionary),
            ("a", 10, ArucoDictionary::Dict4x4_250)
        );
        assert!((tag.marker.rotation_deg - 30.0).abs() < 1e-9);
        for (mm, px) in tag.marker.corners_mm.iter().zip(&tag.marker.corners_px) {
            let again = rebuilt.project(&Point3::new(mm[0], mm[1], mm[2])).unwrap();
            let px = px.unwrap();
            assert!((again[0] - px[0]).abs() < 1e-9 && (again[1] - px[1]).abs() < 1e-9);
        }
        // OpenCV's rvec and tvec describe the same pose as the rotation and position.
        let r = Rotation3::from_scaled_axis(Vector3::from(back.pose.rvec));
        let t = Vector3::from(back.pose.tvec);
        let origin_in_camera = rebuilt.pose.to_camera(&Point3::origin());
        assert!((r * Vector3::zeros() + t - origin_in_camera).norm() < 1e-9);
        assert!((r.matrix() - rebuilt.pose.rotation().matrix()).norm() < 1e-12);
        assert!(matches!(CameraTruth::from_json_str("{}", "empty"), Err(SynthError::Json { .. })));
    }
}
