//! The camera model of one photo: solved from the table fiducials, it maps image pixels
//! to table millimetres at any height above the table.
//!
//! Three models, from best to weakest (the scan reports which one it used):
//! - [`ModelKind::Calibrated`]: known intrinsics and distortion; the camera pose comes
//!   from `solvePnP` (IPPE, the planar solver, then Levenberg-Marquardt refinement).
//!   Points at any height are back-projected exactly.
//! - [`ModelKind::HomographyFocal`]: no intrinsics, but the fiducials' perspective
//!   fixes the focal length (the camera is tilted enough). The table plane is mapped by
//!   the homography, and the camera pose from the estimated focal length corrects for
//!   the height of base tops. Lens distortion is not modelled.
//! - [`ModelKind::Homography`]: no intrinsics and a camera looking almost straight down,
//!   where one view cannot tell focal length from distance. The table plane is mapped
//!   by the homography; heights above it cannot be corrected and count in each base's
//!   uncertainty instead.

use crate::camera::{Intrinsics, mat3, rows3};
use crate::error::VisionError;
use crate::fiducials::DetectedMarker;
use crate::profile::Profile;
use crate::selfcal;
use crate::tags::TagPose;
use nalgebra::{Matrix3, Vector3};
use opencv::core::{Mat, MatTraitConst, Point2d, Point3d, Vector};
use serde::{Deserialize, Serialize};
use vedette_geometry::Vec2;

/// Which camera model a scan used.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ModelKind {
    /// Known intrinsics and distortion; pose by solvePnP (IPPE + LM).
    Calibrated,
    /// Homography of the table plane with a focal length estimated from it.
    HomographyFocal,
    /// No camera file: focal length, distortion (k1, k2, p1, p2) and pose adjusted to
    /// the fiducials and every base tag together (issue 17).
    SelfCalibrated,
    /// Homography of the table plane only; no height correction.
    Homography,
}

impl ModelKind {
    /// A short description for reports.
    #[must_use]
    pub fn describe(self) -> &'static str {
        match self {
            ModelKind::Calibrated => "calibrated camera, pose by solvePnP (IPPE + LM refinement)",
            ModelKind::SelfCalibrated => {
                "self-calibrated from the fiducials and the base tags (focal length, distortion k1 k2 p1 p2, pose)"
            }
            ModelKind::HomographyFocal => {
                "homography of the table plane, focal length estimated from the fiducials (no lens distortion model)"
            }
            ModelKind::Homography => {
                "homography of the table plane only (camera looks straight down: focal length unobservable, base-top height not corrected)"
            }
        }
    }
}

/// A rigid motion from table frame (mm; z up from the table) to camera frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CameraPose {
    /// Rotation, row-major.
    pub r: [[f64; 3]; 3],
    /// Translation, mm.
    pub t: [f64; 3],
}

impl CameraPose {
    /// The camera centre in table mm.
    #[must_use]
    pub fn centre(&self) -> [f64; 3] {
        let r = &self.r;
        let t = &self.t;
        // -R^T t
        [
            -(r[0][0] * t[0] + r[1][0] * t[1] + r[2][0] * t[2]),
            -(r[0][1] * t[0] + r[1][1] * t[1] + r[2][1] * t[2]),
            -(r[0][2] * t[0] + r[1][2] * t[1] + r[2][2] * t[2]),
        ]
    }

    /// Angle between the optical axis and straight down, degrees.
    #[must_use]
    pub fn tilt_deg(&self) -> f64 {
        // Optical axis in table frame is the third row of R; straight down is -z.
        (-self.r[2][2]).clamp(-1.0, 1.0).acos().to_degrees()
    }

    /// Intersects the ray through normalized image point `n` with the plane z = `h`.
    fn ray_to_plane(&self, n: [f64; 2], h: f64) -> Option<Vec2> {
        let r = &self.r;
        // Ray direction in table frame: R^T (x, y, 1).
        let d = [
            r[0][0] * n[0] + r[1][0] * n[1] + r[2][0],
            r[0][1] * n[0] + r[1][1] * n[1] + r[2][1],
            r[0][2] * n[0] + r[1][2] * n[1] + r[2][2],
        ];
        let c = self.centre();
        if d[2].abs() < 1e-12 {
            return None;
        }
        let s = (h - c[2]) / d[2];
        (s > 0.0).then(|| Vec2::new(c[0] + s * d[0], c[1] + s * d[1]))
    }

    fn camera_frame(self, p: [f64; 3]) -> [f64; 3] {
        let r = &self.r;
        [
            r[0][0] * p[0] + r[0][1] * p[1] + r[0][2] * p[2] + self.t[0],
            r[1][0] * p[0] + r[1][1] * p[1] + r[1][2] * p[2] + self.t[1],
            r[2][0] * p[0] + r[2][1] * p[1] + r[2][2] * p[2] + self.t[2],
        ]
    }
}

/// The camera model of one photo.
#[derive(Debug, Clone, PartialEq)]
pub struct CameraModel {
    kind: ModelKind,
    /// Known (calibrated) or estimated (zero distortion) intrinsics.
    intrinsics: Option<Intrinsics>,
    pose: Option<CameraPose>,
    /// Table plane (at the fiducials' height) to image, for the homography models.
    homography: [[f64; 3]; 3],
    /// Its inverse.
    homography_inv: [[f64; 3]; 3],
    /// Height of the plane the homography maps, mm.
    plane_height_mm: f64,
    /// Relative standard uncertainty of the estimated focal length (homography-focal).
    focal_rel_sigma: f64,
    image_size: (u32, u32),
}

/// How well the model fits one fiducial.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct FiducialFit {
    /// The fiducial's id.
    pub id: u32,
    /// RMS reprojection residual of its corners, px.
    pub residual_px: f64,
    /// RMS residual of its corners back-projected onto the table, mm.
    pub residual_mm: f64,
}

/// A solved camera model and how well it fits the fiducials.
#[derive(Debug, Clone, PartialEq)]
pub struct CameraFit {
    /// The model.
    pub model: CameraModel,
    /// RMS reprojection residual over every fiducial corner, px.
    pub residual_px: f64,
    /// RMS residual of the fiducial corners on the table, mm.
    pub residual_mm: f64,
    /// Degrees of freedom left over: 2 x corners minus the model's parameters (used to
    /// turn the residual into an unbiased noise estimate).
    pub dof: usize,
    /// Each fiducial used.
    pub fiducials: Vec<FiducialFit>,
    /// Ids of the profile's fiducials not found in the photo.
    pub missing: Vec<u32>,
    /// The estimated focal length in px (homography models), or the calibrated one.
    pub focal_px: Option<f64>,
    /// The fiducial the others and the tags disagree with, if one stands out (see
    /// [`Suspect`]); it is then not among `fiducials`.
    pub suspect: Option<Suspect>,
}

/// A fiducial that is not where the profile puts it (self-calibration): leave each
/// fiducial out of the adjustment in turn and see which one, left out, lets the others
/// and the tags agree best. Its corners are then left out of the camera.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Suspect {
    /// The fiducial's id.
    pub id: u32,
    /// RMS distance of its corners from where the camera fitted without it puts them, mm.
    pub offset_mm: f64,
    /// The same in the photo, px.
    pub offset_px: f64,
    /// RMS residual of the other fiducials' corners under that camera, mm.
    pub others_mm: f64,
}

/// Everything a camera model is made of, as a scan report records it (`camera.model_parameters`),
/// so that pictures can be drawn over the photo later ([`CameraModel::from_parameters`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CameraParameters {
    /// Which model.
    pub kind: ModelKind,
    /// The photo's width and height, px.
    pub image_size: [u32; 2],
    /// Intrinsics with their distortion (calibrated, self-calibrated, or estimated with
    /// none).
    pub intrinsics: Option<Intrinsics>,
    /// Rotation from table frame (z up) to camera frame, row-major.
    pub rotation: Option<[[f64; 3]; 3]>,
    /// Translation, mm.
    pub translation_mm: Option<[f64; 3]>,
    /// Table plane to image, for the homography models.
    pub homography: [[f64; 3]; 3],
    /// Image to table plane.
    pub homography_inv: [[f64; 3]; 3],
    /// Height of the plane the homography maps, mm.
    pub plane_height_mm: f64,
    /// Relative standard uncertainty of an estimated focal length.
    pub focal_rel_sigma: f64,
}

impl CameraModel {
    /// The model's parameters, for a scan report.
    #[must_use]
    pub fn parameters(&self) -> CameraParameters {
        CameraParameters {
            kind: self.kind,
            image_size: [self.image_size.0, self.image_size.1],
            intrinsics: self.intrinsics.clone(),
            rotation: self.pose.map(|p| p.r),
            translation_mm: self.pose.map(|p| p.t),
            homography: self.homography,
            homography_inv: self.homography_inv,
            plane_height_mm: self.plane_height_mm,
            focal_rel_sigma: self.focal_rel_sigma,
        }
    }

    /// The model recorded by [`CameraModel::parameters`]; `origin` names the file in
    /// errors. Fails when a number is not finite, or a calibrated model lacks its
    /// intrinsics or pose.
    pub fn from_parameters(p: &CameraParameters, origin: &str) -> Result<CameraModel, VisionError> {
        let bad = |field: &str, reason: &str| VisionError::InvalidField {
            path: origin.to_string(),
            field: format!("camera.model_parameters.{field}"),
            reason: reason.to_string(),
        };
        let finite = |m: &[[f64; 3]; 3]| m.iter().flatten().all(|v| v.is_finite());
        if !finite(&p.homography) || !finite(&p.homography_inv) {
            return Err(bad("homography", "every number must be finite"));
        }
        if p.image_size[0] == 0 || p.image_size[1] == 0 {
            return Err(bad("image_size", "the image size must be positive"));
        }
        if let Some(k) = &p.intrinsics {
            k.validate(origin, "camera.model_parameters.intrinsics")?;
        }
        let pose = match (p.rotation, p.translation_mm) {
            (Some(r), Some(t)) if finite(&r) && t.iter().all(|v| v.is_finite()) => Some(CameraPose { r, t }),
            (None, None) => None,
            _ => return Err(bad("rotation", "rotation and translation_mm go together and must be finite")),
        };
        if matches!(p.kind, ModelKind::Calibrated | ModelKind::SelfCalibrated)
            && (p.intrinsics.is_none() || pose.is_none())
        {
            return Err(bad(
                "intrinsics",
                "a calibrated model needs its intrinsics, rotation and translation_mm",
            ));
        }
        Ok(CameraModel {
            kind: p.kind,
            intrinsics: p.intrinsics.clone(),
            pose,
            homography: p.homography,
            homography_inv: p.homography_inv,
            plane_height_mm: p.plane_height_mm,
            focal_rel_sigma: p.focal_rel_sigma,
            image_size: (p.image_size[0], p.image_size[1]),
        })
    }

    /// Which model this is.
    #[must_use]
    pub fn kind(&self) -> ModelKind {
        self.kind
    }

    /// The camera pose, when the model has one.
    #[must_use]
    pub fn pose(&self) -> Option<&CameraPose> {
        self.pose.as_ref()
    }

    /// The intrinsics in use (estimated ones have no distortion).
    #[must_use]
    pub fn intrinsics(&self) -> Option<&Intrinsics> {
        self.intrinsics.as_ref()
    }

    /// Relative standard uncertainty of the focal length (0 when calibrated).
    #[must_use]
    pub fn focal_rel_sigma(&self) -> f64 {
        self.focal_rel_sigma
    }

    /// The image size the model is for, px.
    #[must_use]
    pub fn image_size(&self) -> (u32, u32) {
        self.image_size
    }

    /// Image pixels to table mm on the plane `height_mm` above the table.
    pub fn image_to_table(&self, pixels: &[[f64; 2]], height_mm: f64) -> Result<Vec<Vec2>, VisionError> {
        match self.kind {
            ModelKind::Calibrated | ModelKind::SelfCalibrated => {
                let (Some(k), Some(pose)) = (&self.intrinsics, &self.pose) else {
                    return Err(VisionError::Calibration { reason: "calibrated model without pose".into() });
                };
                let normalized = k.normalize(pixels)?;
                normalized
                    .iter()
                    .zip(pixels)
                    .map(|(&n, p)| {
                        pose.ray_to_plane(n, height_mm).ok_or_else(|| VisionError::CameraModel {
                            reason: format!(
                                "the ray of pixel ({:.0}, {:.0}) does not meet the plane {height_mm} mm above the table (it would put the camera below the table); check that --camera names this phone's camera file at this photo's resolution, and that the profile's fiducial positions are right",
                                p[0], p[1]
                            ),
                        })
                    })
                    .collect()
            }
            ModelKind::HomographyFocal | ModelKind::Homography => {
                let mut out: Vec<Vec2> = pixels.iter().map(|&p| apply_h(&self.homography_inv, p)).collect();
                if let (ModelKind::HomographyFocal, Some(k), Some(pose)) =
                    (self.kind, &self.intrinsics, &self.pose)
                    && (height_mm - self.plane_height_mm).abs() > 0.0
                {
                    // The homography is exact on its plane; the estimated pose supplies
                    // only the shift between that plane and the wanted height.
                    let normalized = k.normalize(pixels)?;
                    for (o, n) in out.iter_mut().zip(normalized) {
                        if let (Some(a), Some(b)) =
                            (pose.ray_to_plane(n, height_mm), pose.ray_to_plane(n, self.plane_height_mm))
                        {
                            *o += a - b;
                        }
                    }
                }
                Ok(out)
            }
        }
    }

    /// Table mm at `height_mm` to image pixels.
    pub fn project(&self, points: &[Vec2], height_mm: f64) -> Result<Vec<[f64; 2]>, VisionError> {
        if points.is_empty() {
            return Ok(Vec::new());
        }
        match (self.kind, &self.intrinsics, &self.pose) {
            (ModelKind::Calibrated | ModelKind::SelfCalibrated, Some(k), Some(pose)) => {
                let obj: Vector<Point3d> = points.iter().map(|p| Point3d::new(p.x, p.y, height_mm)).collect();
                project_points(&obj, k, pose)
            }
            _ => {
                // Inverse of image_to_table: for the focal model, shift back by the
                // plane-to-height offset, then the homography.
                let mut pts: Vec<Vec2> = points.to_vec();
                if let (ModelKind::HomographyFocal, Some(pose)) = (self.kind, &self.pose)
                    && (height_mm - self.plane_height_mm).abs() > 0.0
                {
                    for p in &mut pts {
                        // The pose sees (p, h) along a ray that meets the homography's
                        // plane at b; the homography images b where the pose images p.
                        let cam = pose.camera_frame([p.x, p.y, height_mm]);
                        if cam[2].abs() > 1e-12
                            && let Some(b) =
                                pose.ray_to_plane([cam[0] / cam[2], cam[1] / cam[2]], self.plane_height_mm)
                        {
                            *p = b;
                        }
                    }
                }
                Ok(pts.iter().map(|&p| apply_h_fwd(&self.homography, p)).collect())
            }
        }
    }

    /// The camera centre in table mm, when the model knows it.
    #[must_use]
    pub fn camera_centre(&self) -> Option<[f64; 3]> {
        self.pose.map(|p| p.centre())
    }

    /// Table mm per image pixel around table point `p` (at the fiducials' plane).
    #[must_use]
    pub fn mm_per_px(&self, p: Vec2) -> f64 {
        let a = apply_h_fwd(&self.homography, p);
        let b = apply_h_fwd(&self.homography, p + Vec2::new(1.0, 0.0));
        let c = apply_h_fwd(&self.homography, p + Vec2::new(0.0, 1.0));
        let dx = (b[0] - a[0]).hypot(b[1] - a[1]);
        let dy = (c[0] - a[0]).hypot(c[1] - a[1]);
        2.0 / (dx + dy).max(1e-12)
    }
}

fn apply_h(h: &[[f64; 3]; 3], p: [f64; 2]) -> Vec2 {
    let w = h[2][0] * p[0] + h[2][1] * p[1] + h[2][2];
    Vec2::new(
        (h[0][0] * p[0] + h[0][1] * p[1] + h[0][2]) / w,
        (h[1][0] * p[0] + h[1][1] * p[1] + h[1][2]) / w,
    )
}

fn apply_h_fwd(h: &[[f64; 3]; 3], p: Vec2) -> [f64; 2] {
    let v = apply_h(h, [p.x, p.y]);
    [v.x, v.y]
}

fn invert3(m: &[[f64; 3]; 3]) -> Option<[[f64; 3]; 3]> {
    let det = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
        - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
        + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
    if det.abs() < 1e-300 || !det.is_finite() {
        return None;
    }
    let inv = 1.0 / det;
    Some([
        [
            (m[1][1] * m[2][2] - m[1][2] * m[2][1]) * inv,
            (m[0][2] * m[2][1] - m[0][1] * m[2][2]) * inv,
            (m[0][1] * m[1][2] - m[0][2] * m[1][1]) * inv,
        ],
        [
            (m[1][2] * m[2][0] - m[1][0] * m[2][2]) * inv,
            (m[0][0] * m[2][2] - m[0][2] * m[2][0]) * inv,
            (m[0][2] * m[1][0] - m[0][0] * m[1][2]) * inv,
        ],
        [
            (m[1][0] * m[2][1] - m[1][1] * m[2][0]) * inv,
            (m[0][1] * m[2][0] - m[0][0] * m[2][1]) * inv,
            (m[0][0] * m[1][1] - m[0][1] * m[1][0]) * inv,
        ],
    ])
}

pub(crate) fn project_points(
    obj: &Vector<Point3d>,
    k: &Intrinsics,
    pose: &CameraPose,
) -> Result<Vec<[f64; 2]>, VisionError> {
    let mut rvec = Mat::default();
    opencv::calib3d::rodrigues_def(&mat3(pose.r)?, &mut rvec)?;
    let tvec = Mat::from_slice(&pose.t)?.try_clone()?;
    let mut img = Vector::<Point2d>::new();
    opencv::calib3d::project_points_def(
        obj,
        &rvec,
        &tvec,
        &k.camera_matrix()?,
        &k.distortion_mat()?,
        &mut img,
    )?;
    Ok(img.iter().map(|p| [p.x, p.y]).collect())
}

/// Fiducial correspondences: table points (mm, 3D) and their detected pixels, by id.
struct Correspondences {
    ids: Vec<u32>,
    table: Vec<[f64; 3]>,
    pixels: Vec<[f64; 2]>,
}

fn correspondences(
    profile: &Profile,
    found: &[DetectedMarker],
) -> Result<(Correspondences, Vec<u32>), VisionError> {
    let mut c = Correspondences { ids: Vec::new(), table: Vec::new(), pixels: Vec::new() };
    let mut found_ids = Vec::new();
    let h = profile.fiducials.height_mm;
    for placement in &profile.fiducials.markers {
        let hits: Vec<&DetectedMarker> = found.iter().filter(|m| m.id == placement.id).collect();
        // A fiducial seen twice is ambiguous (a stray print of the same marker): skip it.
        if hits.len() != 1 {
            continue;
        }
        found_ids.push(placement.id);
        for (t, p) in placement.corners(profile.fiducials.size_mm).iter().zip(hits[0].corners) {
            c.ids.push(placement.id);
            c.table.push([t.x, t.y, h]);
            c.pixels.push(p);
        }
    }
    let missing: Vec<u32> =
        profile.fiducials.markers.iter().map(|m| m.id).filter(|id| !found_ids.contains(id)).collect();
    if found_ids.len() < 4 {
        let list = |v: &[u32]| v.iter().map(u32::to_string).collect::<Vec<_>>().join(", ");
        return Err(VisionError::TooFewFiducials {
            found_count: found_ids.len(),
            found: list(&found_ids),
            missing: list(&missing),
            diagnosis: String::new(),
        });
    }
    Ok((c, missing))
}

fn homography(c: &Correspondences) -> Result<[[f64; 3]; 3], VisionError> {
    let src: Vector<Point2d> = c.table.iter().map(|t| Point2d::new(t[0], t[1])).collect();
    let dst: Vector<Point2d> = c.pixels.iter().map(|p| Point2d::new(p[0], p[1])).collect();
    let mut mask = Mat::default();
    let h = opencv::calib3d::find_homography(&src, &dst, &mut mask, 0, 3.0)?;
    if h.empty() {
        return Err(VisionError::Calibration {
            reason: "the fiducials do not determine a homography".into(),
        });
    }
    rows3(&h)
}

/// Focal length from a plane homography, with the principal point at `centre` and
/// square pixels (Zhang's two constraints, solved together by least squares).
fn focal_from_homography(h: &[[f64; 3]; 3], centre: [f64; 2]) -> Option<f64> {
    // Move the principal point to the origin.
    let g = |r: usize, c: usize| match r {
        0 => h[0][c] - centre[0] * h[2][c],
        1 => h[1][c] - centre[1] * h[2][c],
        _ => h[2][c],
    };
    let (h11, h12, h21, h22, h31, h32) = (g(0, 0), g(0, 1), g(1, 0), g(1, 1), g(2, 0), g(2, 1));
    // a_i / f^2 + b_i = 0
    let a = [h11 * h12 + h21 * h22, h11 * h11 + h21 * h21 - h12 * h12 - h22 * h22];
    let b = [h31 * h32, h31 * h31 - h32 * h32];
    let aa = a[0] * a[0] + a[1] * a[1];
    if aa <= 0.0 {
        return None;
    }
    let w = -(a[0] * b[0] + a[1] * b[1]) / aa;
    (w > 0.0 && w.is_finite()).then(|| 1.0 / w.sqrt())
}

/// A small deterministic normal generator (for the focal-length stability check).
struct Noise(u64);

impl Noise {
    fn uniform(&mut self) -> f64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        ((self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 11) as f64 + 0.5) / (1u64 << 53) as f64
    }
    fn normal(&mut self) -> f64 {
        (-2.0 * self.uniform().ln()).sqrt() * (std::f64::consts::TAU * self.uniform()).cos()
    }
}

fn solve_pnp(c: &Correspondences, k: &Intrinsics) -> Result<CameraPose, VisionError> {
    let obj: Vector<Point3d> = c.table.iter().map(|t| Point3d::new(t[0], t[1], t[2])).collect();
    let img: Vector<Point2d> = c.pixels.iter().map(|p| Point2d::new(p[0], p[1])).collect();
    let km = k.camera_matrix()?;
    let dm = k.distortion_mat()?;
    // IPPE on ideal normalized points, undistorted by our own Newton iteration: OpenCV
    // undistorts inside solvePnP with five fixed-point steps, pixels off at the frame
    // corners of a strong lens (issue 17, far-edge photos).
    let normalized = k.normalize(&c.pixels)?;
    let img_n: Vector<Point2d> = normalized.iter().map(|p| Point2d::new(p[0], p[1])).collect();
    let eye = mat3([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])?;
    let mut rvecs = Vector::<Mat>::new();
    let mut tvecs = Vector::<Mat>::new();
    let mut errors = Mat::default();
    let solutions = opencv::calib3d::solve_pnp_generic(
        &obj,
        &img_n,
        &eye,
        &Mat::default(),
        &mut rvecs,
        &mut tvecs,
        false,
        opencv::calib3d::SolvePnPMethod::SOLVEPNP_IPPE,
        &Mat::default(),
        &Mat::default(),
        &mut errors,
    )?;
    let criteria = opencv::core::TermCriteria::new(
        opencv::core::TermCriteria_COUNT + opencv::core::TermCriteria_EPS,
        100,
        1e-12,
    )?;
    // IPPE gives two poses of a plane; keep the one with the camera above the table that
    // reprojects best after refinement (the mirror pose is below the table).
    let plane_h = c.table.first().map_or(0.0, |t| t[2]);
    let mut best: Option<(f64, CameraPose)> = None;
    for i in 0..solutions.max(0) as usize {
        let mut rvec = rvecs.get(i)?.try_clone()?;
        let mut tvec = tvecs.get(i)?.try_clone()?;
        opencv::calib3d::solve_pnp_refine_lm(&obj, &img, &km, &dm, &mut rvec, &mut tvec, criteria)?;
        let mut rmat = Mat::default();
        opencv::calib3d::rodrigues_def(&rvec, &mut rmat)?;
        let r = rows3(&rmat)?;
        let t = [*tvec.at::<f64>(0)?, *tvec.at::<f64>(1)?, *tvec.at::<f64>(2)?];
        let pose = CameraPose { r, t };
        if pose.centre()[2] <= plane_h {
            continue;
        }
        let reprojected = project_points(&obj, k, &pose)?;
        let ss: f64 = reprojected
            .iter()
            .zip(&c.pixels)
            .map(|(q, p)| (q[0] - p[0]).powi(2) + (q[1] - p[1]).powi(2))
            .sum();
        if best.as_ref().is_none_or(|(e, _)| ss < *e) {
            best = Some((ss, pose));
        }
    }
    best.map(|(_, pose)| pose).ok_or_else(|| VisionError::Calibration {
        reason: "solvePnP found no camera pose above the table for the fiducials".into(),
    })
}

/// Solves the camera model of a photo from the table fiducials found in it.
///
/// `intrinsics` are the profile's camera, if any (already scaled to the photo). Fails
/// with [`VisionError::TooFewFiducials`] when fewer than four of the profile's fiducials
/// were found exactly once.
pub fn solve_camera(
    profile: &Profile,
    found: &[DetectedMarker],
    intrinsics: Option<&Intrinsics>,
    image_size: (u32, u32),
) -> Result<CameraFit, VisionError> {
    let (c, missing) = correspondences(profile, found)?;
    let plane_h = profile.fiducials.height_mm;
    let h = homography(&c)?;
    let h_inv = invert3(&h)
        .ok_or_else(|| VisionError::Calibration { reason: "the fiducial homography is singular".into() })?;
    let model = match intrinsics {
        Some(k) => {
            let pose = solve_pnp(&c, k)?;
            CameraModel {
                kind: ModelKind::Calibrated,
                intrinsics: Some(k.clone()),
                pose: Some(pose),
                homography: h,
                homography_inv: h_inv,
                plane_height_mm: plane_h,
                focal_rel_sigma: 0.0,
                image_size,
            }
        }
        None => {
            let centre = [(f64::from(image_size.0) - 1.0) / 2.0, (f64::from(image_size.1) - 1.0) / 2.0];
            let f = focal_from_homography(&h, centre);
            // How stable is the focal length under the corner noise the fit shows?
            let plane_residual = rms_px_homography(&c, &h);
            let sigma_px = plane_residual.max(0.2);
            let mut rel_sigma = f64::INFINITY;
            if let Some(f0) = f {
                let mut noise = Noise(0x5eed_1234_abcd_0042);
                let mut devs = Vec::new();
                for _ in 0..16 {
                    let jittered = Correspondences {
                        ids: c.ids.clone(),
                        table: c.table.clone(),
                        pixels: c
                            .pixels
                            .iter()
                            .map(|p| [p[0] + sigma_px * noise.normal(), p[1] + sigma_px * noise.normal()])
                            .collect(),
                    };
                    let fj = homography(&jittered).ok().and_then(|hj| focal_from_homography(&hj, centre));
                    devs.push(fj.map_or(f64::INFINITY, |fj| ((fj - f0) / f0).powi(2)));
                }
                rel_sigma = (devs.iter().sum::<f64>() / devs.len() as f64).sqrt();
            }
            let longest = f64::from(image_size.0.max(image_size.1));
            let plausible = f.is_some_and(|f| f > 0.2 * longest && f < 20.0 * longest);
            match f {
                Some(f) if plausible && rel_sigma < 0.1 => {
                    let k = Intrinsics {
                        image_width: image_size.0,
                        image_height: image_size.1,
                        fx: f,
                        fy: f,
                        cx: centre[0],
                        cy: centre[1],
                        distortion: Vec::new(),
                    };
                    let pose = solve_pnp(&c, &k)?;
                    CameraModel {
                        kind: ModelKind::HomographyFocal,
                        intrinsics: Some(k),
                        pose: Some(pose),
                        homography: h,
                        homography_inv: h_inv,
                        plane_height_mm: plane_h,
                        focal_rel_sigma: rel_sigma,
                        image_size,
                    }
                }
                _ => CameraModel {
                    kind: ModelKind::Homography,
                    intrinsics: None,
                    pose: None,
                    homography: h,
                    homography_inv: h_inv,
                    plane_height_mm: plane_h,
                    focal_rel_sigma: f64::INFINITY,
                    image_size,
                },
            }
        }
    };
    fit_of(model, &c, missing)
}

/// The fit of `model` to the fiducial correspondences: residuals per fiducial and overall.
fn fit_of(model: CameraModel, c: &Correspondences, missing: Vec<u32>) -> Result<CameraFit, VisionError> {
    let plane_h = c.table.first().map_or(0.0, |t| t[2]);
    let n = c.pixels.len();
    // Residuals.
    let table_pts: Vec<Vec2> = c.table.iter().map(|t| Vec2::new(t[0], t[1])).collect();
    let reprojected = model.project(&table_pts, plane_h)?;
    let back = model.image_to_table(&c.pixels, plane_h)?;
    let mut fiducials: Vec<FiducialFit> = Vec::new();
    let (mut ss_px, mut ss_mm) = (0.0, 0.0);
    for i in 0..n {
        let dpx = (reprojected[i][0] - c.pixels[i][0]).hypot(reprojected[i][1] - c.pixels[i][1]);
        let dmm = back[i].distance(table_pts[i]);
        ss_px += dpx * dpx;
        ss_mm += dmm * dmm;
        match fiducials.iter_mut().find(|f| f.id == c.ids[i]) {
            Some(f) => {
                f.residual_px += dpx * dpx;
                f.residual_mm += dmm * dmm;
            }
            None => {
                fiducials.push(FiducialFit { id: c.ids[i], residual_px: dpx * dpx, residual_mm: dmm * dmm })
            }
        }
    }
    for f in &mut fiducials {
        f.residual_px = (f.residual_px / 4.0).sqrt();
        f.residual_mm = (f.residual_mm / 4.0).sqrt();
    }
    let params = match model.kind {
        ModelKind::Calibrated => 6,
        ModelKind::SelfCalibrated => 9,
        ModelKind::HomographyFocal | ModelKind::Homography => 8,
    };
    let focal_px = model.intrinsics.as_ref().map(|k| (k.fx + k.fy) / 2.0);
    Ok(CameraFit {
        suspect: None,
        model,
        residual_px: (ss_px / n as f64).sqrt(),
        residual_mm: (ss_mm / n as f64).sqrt(),
        dof: (2 * n).saturating_sub(params),
        fiducials,
        missing,
        focal_px,
    })
}

/// Fewest base tags a photo needs for [`self_calibrate`]: with fewer, the lens is left
/// to the fiducials (today's homography models).
pub const MIN_SELF_CALIBRATION_TAGS: usize = 8;

/// A camera re-solved from the fiducials and the base tags together.
#[derive(Debug, Clone, PartialEq)]
pub struct SelfCalibration {
    /// The self-calibrated model and its fit to the fiducials.
    pub fit: CameraFit,
    /// RMS reprojection residual of each tag's corners under the adjusted camera (the
    /// tag posed at its best on the base-top plane), px, in the order of the tags given.
    pub tag_residual_px: Vec<f64>,
    /// What the adjusted camera's own uncertainty adds to each tag's pose, in the order
    /// of the tags given: the centre's variance per coordinate (mm²) and the heading's
    /// (rad²). Empty when the covariance could not be formed.
    pub tag_model_var: Vec<(f64, f64)>,
    /// Levenberg-Marquardt iterations taken.
    pub iterations: usize,
    /// The focal lengths, px, that fit the photo's corners as well as the one chosen,
    /// least and most (the starts of the adjustment whose robust costs are within
    /// noise of the best): far apart when the photo cannot tell its lens (taken
    /// straight down), about equal otherwise.
    pub focal_range_px: (f64, f64),
    /// How far any tag moves between those equally fitting cameras, mm (the largest
    /// over the tags): what not knowing the focal length can cost a base, already
    /// held by its `sigma_mm`.
    pub focal_spread_mm: f64,
}

/// Each tag's model covariance as (centre variance per coordinate, heading variance).
fn model_var(cov: &[Matrix3<f64>]) -> Vec<(f64, f64)> {
    cov.iter().map(|c| (0.5 * (c[(0, 0)] + c[(1, 1)]).max(0.0), c[(2, 2)].max(0.0))).collect()
}

/// The photo's markers that stand on overexposed paper (issue 36): their squares read
/// small, each by its own amount (paper at the sensor's ceiling around them).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Overexposure {
    /// The fiducials (ids) whose paper is at the sensor's ceiling.
    pub fiducials: Vec<u32>,
    /// How many of the tags' papers are.
    pub tags: usize,
}

impl Overexposure {
    /// Measured on the photo around the fiducials and the tags found.
    pub fn measure(
        gray: &Mat,
        fiducials: &[DetectedMarker],
        fiducial_bits: i32,
        tags: &[TagPose],
        tag_bits: i32,
    ) -> Result<Overexposure, VisionError> {
        let view = crate::fiducials::GrayView::new(gray)?;
        Ok(Overexposure {
            fiducials: fiducials
                .iter()
                .filter(|f| crate::fiducials::paper_clipped(&view, &f.corners, fiducial_bits))
                .map(|f| f.id)
                .collect(),
            tags: tags
                .iter()
                .filter(|t| crate::fiducials::paper_clipped(&view, &t.corners_px, tag_bits))
                .count(),
        })
    }
}

/// Which tags' paper margins are clear of figures, their shadows and their lean, in the
/// order of `tags` ([`crate::fiducials::margin_clear`]): the self-calibration takes the
/// lens from those ([`tag_weights`]).
pub fn clear_margins(gray: &Mat, tags: &[TagPose], tag_bits: i32) -> Result<Vec<bool>, VisionError> {
    let view = crate::fiducials::GrayView::new(gray)?;
    Ok(tags.iter().map(|t| crate::fiducials::margin_clear(&view, &t.corners_px, tag_bits)).collect())
}

/// Each tag's weight in the self-calibration: where at least [`MIN_CLEAR_TAGS`] tags
/// have a clear margin, a tag whose margin is not clear weighs [`UNCLEAR_TAG_WEIGHT`],
/// so that the lens is taken from the clear ones (the others are still placed by
/// their own corners, and their sigma holds the lens's uncertainty as the clear tags
/// leave it); otherwise every tag weighs 1. Figures crowd a tag's margin alike over
/// a table, and the few hundredths of a pixel by which they move its edges bend the
/// lens where the photo barely shows its distortion (issue 36: vedette-synth's
/// renders 5° from straight down, bases 0.41 and 0.61 mm off at the median, 0.11 and
/// 0.13 rendered without figures, 0.31 and 0.42 with the clear tags weighing more).
fn tag_weights(clear: &[bool]) -> Vec<f64> {
    if clear.iter().filter(|&&c| c).count() < MIN_CLEAR_TAGS {
        return Vec::new();
    }
    clear.iter().map(|&c| if c { 1.0 } else { UNCLEAR_TAG_WEIGHT }).collect()
}

/// Clear tags from which the self-calibration takes the lens ([`tag_weights`]): enough
/// to hold the focal length and distortion with the fiducials (at least as many as
/// the self-calibration needs in all, [`MIN_SELF_CALIBRATION_TAGS`]).
const MIN_CLEAR_TAGS: usize = 12;

/// The weight of a tag whose margin is not clear: its corners count as though their
/// noise were 1.8 times the clear tags'. Lower weights take the lens more nearly from
/// the clear tags alone (vedette-synth's 12 MP photos without a camera file: bases
/// 0.166 / 0.675 mm median / p95 at 1, 0.134 / 0.612 at 0.5, 0.132 / 0.549 at 0.3,
/// 0.126 / 0.506 at 0.15, 0.100 / 0.848 at 0.02), but leave fewer corners to tell
/// the focal lengths apart: at 0.15 and below, starts whose lenses the clear tags
/// cannot tell apart widen the sigma of photos whose lens is well seen (σ 0.32-0.67
/// mm on a 20° photo whose bases are 0.04 mm off; 100% within 2.45σ), and at 0.02 a
/// photo straight down, whose focal length no tag tells, settles further from it.
/// 0.3 is the weight within that range where the sigma covers the errors as a sigma
/// should (99.1% within 2.45σ; 90.7% at 1, 100% at 0.15).
const UNCLEAR_TAG_WEIGHT: f64 = 0.3;

/// Self-calibration from the table itself (issue 17): when no camera file is given,
/// adjusts the focal length, distortion k1 k2 p1 p2 and the camera pose to the
/// table fiducials and to every base tag (a square of known side on the base-top plane,
/// its position and heading adjusted with the camera), by robust (Huber)
/// Levenberg-Marquardt. The principal point stays at the image centre.
///
/// Starts from `fit` (the homography models of [`solve_camera`]) and the tags as
/// [`measure_tags`](crate::measure_tags) placed them with it. Returns `None` when `fit`
/// is calibrated (a camera file stays the reference), when fewer than
/// [`MIN_SELF_CALIBRATION_TAGS`] tags were seen, or when the adjustment does not reach
/// a plausible camera (the caller keeps `fit`).
///
/// `overexposed`: the markers on clipped paper; each such fiducial's corner bias and
/// the tags' radial bias widen the tags' sigma. `clear`: which tags' margins are clear
/// ([`clear_margins`]; empty: all alike).
pub fn self_calibrate(
    profile: &Profile,
    found: &[DetectedMarker],
    overexposed: &Overexposure,
    fit: &CameraFit,
    tags: &[TagPose],
    clear: &[bool],
) -> Result<Option<SelfCalibration>, VisionError> {
    if fit.model.kind == ModelKind::Calibrated || tags.len() < MIN_SELF_CALIBRATION_TAGS {
        return Ok(None);
    }
    let (c, missing) = correspondences(profile, found)?;
    let (w, h) = fit.model.image_size;
    let longest = f64::from(w.max(h));
    let centre = [(f64::from(w) - 1.0) / 2.0, (f64::from(h) - 1.0) / 2.0];
    let tag_px: Vec<[[f64; 2]; 4]> = tags.iter().map(|t| t.corners_px).collect();
    // Each tag at its printed size (issue 36: a roster's `tag_mm`).
    let tag_sizes: Vec<f64> =
        tags.iter().map(|t| if t.size_mm > 0.0 { t.size_mm } else { profile.tags.size_mm }).collect();
    let start: Vec<selfcal::TagState> = tags
        .iter()
        .map(|t| selfcal::TagState { centre: t.centre, heading: t.heading_deg.to_radians() })
        .collect();
    let fiducial_table: Vec<Vector3<f64>> = c.table.iter().map(|t| Vector3::new(t[0], t[1], t[2])).collect();
    let weights = tag_weights(clear);
    // A fiducial on clipped paper reads small by an amount of its own: the tags'
    // sigma holds it (issue 36).
    let bias_sigmas = |c: &Correspondences| -> Vec<f64> {
        c.ids
            .iter()
            .map(
                |id| if overexposed.fiducials.contains(id) { selfcal::CLIPPED_FIDUCIAL_BIAS_PX } else { 0.0 },
            )
            .collect()
    };
    let problem = |focal: f64| selfcal::Problem {
        fiducial_table: &fiducial_table,
        fiducial_px: &c.pixels,
        tag_px: &tag_px,
        tag_sizes_mm: &tag_sizes,
        tag_height_mm: profile.bases.top_height_mm,
        free: selfcal::Free::PoseFocalRadial,
        focal_prior: (focal, FOCAL_PRIOR * focal),
        huber_px: HUBER_PX,
        fiducial_bias_sigma_px: &[],
        detector_radial_bias_px: if 2 * overexposed.tags > tags.len() {
            selfcal::CLIPPED_RADIAL_BIAS_PX
        } else {
            selfcal::DETECTOR_RADIAL_BIAS_PX
        },
        tangential: true,
        tag_weights: &weights,
    };
    // Several starts (issue 36): the focal length the fiducials' homography gives (when
    // it gave one), and a spread of lenses from ultra-wide to tele; each posed on the
    // fiducials by solvePnP and adjusted for a few iterations, the one that fits the
    // corners best (robust cost, priors left out) adjusted to the end. One start alone
    // settles in the focal length / distance valley far from the truth when the
    // homography's focal length is off (a distorted lens bends the fiducials' square)
    // or absent.
    let mut focals: Vec<f64> = fit.model.intrinsics.as_ref().map(|k| k.fx).into_iter().collect();
    focals.extend(FOCAL_STARTS.iter().map(|r| r * longest));
    let mut explored: Vec<(f64, selfcal::Camera, Vec<selfcal::TagState>)> = Vec::new();
    for &f in &focals {
        let k = Intrinsics {
            image_width: w,
            image_height: h,
            fx: f,
            fy: f,
            cx: centre[0],
            cy: centre[1],
            distortion: Vec::new(),
        };
        let Ok(pose) = solve_pnp(&c, &k) else { continue };
        let camera = selfcal::Camera {
            lens: selfcal::Lens { fx: f, fy: f, cx: centre[0], cy: centre[1], dist: [0.0; 5] },
            r: Matrix3::from_fn(|i, j| pose.r[i][j]),
            t: Vector3::new(pose.t[0], pose.t[1], pose.t[2]),
            tag_scale: 1.0,
            corner_bias_px: 0.0,
            corner_bias_r2_px: 0.0,
            fiducial_bias_px: 0.0,
        };
        let p = problem(f);
        let Some((cam, placed, cost)) = p.explore(camera, start.clone(), EXPLORE_ITERATIONS) else {
            continue;
        };
        explored.push((cost, cam, placed));
    }
    let equivalent = equally_fitting(&explored, problem(1.0).weighted_corners());
    let Some(&(_, camera, ref start)) = equivalent.first() else { return Ok(None) };
    let (focal, start) = (camera.lens.fx, start.clone());
    let adjust = |c: &Correspondences, camera: selfcal::Camera, start: Vec<selfcal::TagState>| {
        let fiducial_table: Vec<Vector3<f64>> =
            c.table.iter().map(|t| Vector3::new(t[0], t[1], t[2])).collect();
        let sigmas = bias_sigmas(c);
        let problem = selfcal::Problem {
            fiducial_table: &fiducial_table,
            fiducial_px: &c.pixels,
            fiducial_bias_sigma_px: &sigmas,
            ..problem(focal)
        };
        let solution = problem.solve_choosing_tangential(camera, start)?;
        let model = self_calibrated_model(&solution.camera, fit, profile)?;
        Some((solution, model))
    };
    let Some((solution, model)) = adjust(&c, camera, start) else { return Ok(None) };
    let focal_range_px = equivalent
        .iter()
        .fold((f64::INFINITY, 0.0_f64), |(lo, hi), (_, cam, _)| (lo.min(cam.lens.fx), hi.max(cam.lens.fx)));
    let mut result = SelfCalibration {
        fit: fit_of(model, &c, missing.clone())?,
        tag_residual_px: solution.tag_rms_px.clone(),
        tag_model_var: model_var(&solution.tag_model_cov),
        iterations: solution.iterations,
        focal_range_px,
        focal_spread_mm: 0.0,
    };
    // A fiducial the tags disagree with: leave each out in turn; the one whose absence
    // lets the others fit best is suspect when it is far off and they then agree. Its
    // corners are left out of the camera, and the scan says so.
    if result.fit.fiducials.len() >= 4
        && result.fit.fiducials.iter().any(|f| f.residual_mm > LEAVE_ONE_OUT_MM)
    {
        let mut best: Option<(Suspect, SelfCalibration)> = None;
        for f in &result.fit.fiducials {
            let keep: Vec<usize> = (0..c.ids.len()).filter(|&i| c.ids[i] != f.id).collect();
            let reduced = Correspondences {
                ids: keep.iter().map(|&i| c.ids[i]).collect(),
                table: keep.iter().map(|&i| c.table[i]).collect(),
                pixels: keep.iter().map(|&i| c.pixels[i]).collect(),
            };
            let Some((sol, model)) = adjust(&reduced, solution.camera, solution.tags.clone()) else {
                continue;
            };
            // Its offset: the full set of fiducials seen through the reduced camera.
            let all = fit_of(model.clone(), &c, missing.clone())?;
            let left_out = all.fiducials.iter().find(|g| g.id == f.id);
            let offset_mm = left_out.map_or(0.0, |g| g.residual_mm);
            let offset_px = left_out.map_or(0.0, |g| g.residual_px);
            let reduced_fit = fit_of(model, &reduced, missing.clone())?;
            let suspect = Suspect { id: f.id, offset_mm, offset_px, others_mm: reduced_fit.residual_mm };
            if best.as_ref().is_none_or(|(b, _)| suspect.others_mm < b.others_mm) {
                let mut fit = reduced_fit;
                fit.suspect = Some(suspect);
                best = Some((
                    suspect,
                    SelfCalibration {
                        fit,
                        tag_model_var: model_var(&sol.tag_model_cov),
                        tag_residual_px: sol.tag_rms_px,
                        iterations: sol.iterations,
                        focal_range_px,
                        focal_spread_mm: 0.0,
                    },
                ));
            }
        }
        if let Some((s, alt)) = best
            && s.offset_mm > 4.0 * s.others_mm.max(0.05)
            && s.offset_mm > LEAVE_ONE_OUT_MM
        {
            result = alt;
        }
    }
    result.focal_spread_mm = add_focal_spread(&mut result.tag_model_var, &equivalent);
    Ok(Some(result))
}

/// The explored starts `(robust cost, camera, tags)` that fit the photo's corners as
/// well as the best, within noise: their costs differ from the best's by at most
/// [`EQUIVALENT_CHI2`] in units of the corners' variance (estimated from the best
/// cost over `corners` corners, two coordinates each). The one to adjust comes first:
/// of these cameras, the one whose focal length's inverse lies nearest the middle of
/// theirs (a base's parallax error grows with the error in one over the camera's
/// height, that is in one over its focal length, so the middle is the choice that can
/// be least wrong). Where the photo tells its lens, every such start has converged
/// to about the same focal length and the choice does not matter; where it cannot
/// (straight down, the focal length and the height trade freely), the best cost by
/// itself picks an end of the valley by noise (s1000 of the scan bench: 1440 px of
/// starts from 1440 to 5600 px, truth 2917).
fn equally_fitting(
    explored: &[(f64, selfcal::Camera, Vec<selfcal::TagState>)],
    corners: f64,
) -> Vec<(f64, selfcal::Camera, Vec<selfcal::TagState>)> {
    let Some(best) = explored.iter().map(|e| e.0).min_by(f64::total_cmp) else { return Vec::new() };
    let mut equal: Vec<_> = explored
        .iter()
        .filter(|e| selfcal::chi2_over(e.0, best, corners) <= EQUIVALENT_CHI2)
        .cloned()
        .collect();
    let (lo, hi) = equal
        .iter()
        .fold((f64::INFINITY, 0.0_f64), |(lo, hi), e| (lo.min(1.0 / e.1.lens.fx), hi.max(1.0 / e.1.lens.fx)));
    let middle = 0.5 * (lo + hi);
    // Nearest the middle first; ties by cost, then by focal length (the starts' order
    // is fixed, so the choice is deterministic).
    equal.sort_by(|a, b| {
        (1.0 / a.1.lens.fx - middle)
            .abs()
            .total_cmp(&(1.0 / b.1.lens.fx - middle).abs())
            .then(a.0.total_cmp(&b.0))
            .then(a.1.lens.fx.total_cmp(&b.1.lens.fx))
    });
    equal
}

/// Widens each tag's model variance by what the equally fitting cameras disagree on:
/// the furthest any of them places the tag from the first (the start adjusted to the
/// end, each as its exploration left it: compared after as many iterations, so that
/// what a start had yet to converge does not pass for a disagreement; s1017 of the
/// bench moved 3.8 mm between its exploration and the end), half of it as a standard
/// deviation per coordinate (so that 2.45 sigma reach beyond it), and the same for its
/// heading. Returns the largest such distance, mm.
fn add_focal_spread(
    model_var: &mut [(f64, f64)],
    equivalent: &[(f64, selfcal::Camera, Vec<selfcal::TagState>)],
) -> f64 {
    let Some((_, _, reference)) = equivalent.first() else { return 0.0 };
    let mut widest: f64 = 0.0;
    for (i, (var, tag)) in model_var.iter_mut().zip(reference).enumerate() {
        let (mut d, mut h) = (0.0_f64, 0.0_f64);
        for (_, _, tags) in equivalent {
            if let Some(t) = tags.get(i) {
                d = d.max(t.centre.distance(tag.centre));
                h = h.max((t.heading - tag.heading).abs());
            }
        }
        widest = widest.max(d);
        var.0 += (0.5 * d).powi(2);
        var.1 += (0.5 * h).powi(2);
    }
    widest
}

/// How much worse than the best, in χ² of the corners (two coordinates each), a start
/// may fit and still count as fitting as well: 4, two standard deviations of one
/// parameter.
const EQUIVALENT_CHI2: f64 = 4.0;

/// The self-calibration's starting focal lengths over the image's longer side: from
/// an ultra-wide lens (13 mm equivalent over 36 mm: 0.36) through a phone's main
/// camera (26 mm: 0.72) to a short tele (77 mm: 2.1), about 1.3 apart (each start's
/// basin of convergence is wider than that on the bench's photos).
const FOCAL_STARTS: [f64; 7] = [0.36, 0.48, 0.62, 0.8, 1.05, 1.4, 2.1];

/// The weak prior on the focal length, relative to each start's: it only steers the
/// focal length / distance valley of a photo looking almost straight down.
const FOCAL_PRIOR: f64 = 0.25;

/// Iterations each start is adjusted for before the best is chosen.
const EXPLORE_ITERATIONS: usize = 25;

/// A self-calibrated fiducial further off than this, mm RMS, starts the search for a
/// moved fiducial.
const LEAVE_ONE_OUT_MM: f64 = 0.3;

/// The camera model of an adjusted camera; `None` when it is implausible.
fn self_calibrated_model(cam: &selfcal::Camera, fit: &CameraFit, profile: &Profile) -> Option<CameraModel> {
    let (w, h) = fit.model.image_size;
    let longest = f64::from(w.max(h));
    let pose = CameraPose {
        r: [
            [cam.r[(0, 0)], cam.r[(0, 1)], cam.r[(0, 2)]],
            [cam.r[(1, 0)], cam.r[(1, 1)], cam.r[(1, 2)]],
            [cam.r[(2, 0)], cam.r[(2, 1)], cam.r[(2, 2)]],
        ],
        t: [cam.t.x, cam.t.y, cam.t.z],
    };
    let [k1, k2, p1, p2, _] = cam.lens.dist;
    let plausible = cam.lens.fx > 0.2 * longest
        && cam.lens.fx < 20.0 * longest
        && k1.abs() < 0.5
        && k2.abs() < 0.5
        && p1.abs() < 0.05
        && p2.abs() < 0.05
        && pose.centre()[2] > profile.bases.top_height_mm.max(profile.fiducials.height_mm);
    plausible.then(|| CameraModel {
        kind: ModelKind::SelfCalibrated,
        intrinsics: Some(Intrinsics {
            image_width: w,
            image_height: h,
            fx: cam.lens.fx,
            fy: cam.lens.fy,
            cx: cam.lens.cx,
            cy: cam.lens.cy,
            distortion: vec![k1, k2, p1, p2, 0.0],
        }),
        pose: Some(pose),
        homography: fit.model.homography,
        homography_inv: fit.model.homography_inv,
        plane_height_mm: fit.model.plane_height_mm,
        focal_rel_sigma: 0.0,
        image_size: fit.model.image_size,
    })
}

/// Huber threshold of the self-calibration, px: corner noise is a few tenths of a
/// pixel; beyond one pixel a corner counts linearly.
const HUBER_PX: f64 = 1.0;

fn rms_px_homography(c: &Correspondences, h: &[[f64; 3]; 3]) -> f64 {
    let ss: f64 = c
        .table
        .iter()
        .zip(&c.pixels)
        .map(|(t, p)| {
            let q = apply_h_fwd(h, Vec2::new(t[0], t[1]));
            (q[0] - p[0]).powi(2) + (q[1] - p[1]).powi(2)
        })
        .sum();
    (ss / c.pixels.len().max(1) as f64).sqrt()
}

impl CameraFit {
    /// Fails with [`VisionError::ResidualTooLarge`] when the fit, or any one fiducial's
    /// fit, is worse than the profile allows, or when a [`Suspect`] fiducial left out
    /// of the fit is further off than that (a fiducial moved by less is reported by the
    /// scan, not refused).
    pub fn check_limits(&self, profile: &Profile) -> Result<(), VisionError> {
        let l = profile.limits;
        if let Some(s) = self.suspect
            && (s.offset_px > l.max_residual_px || s.offset_mm > l.max_residual_mm)
        {
            return Err(VisionError::ResidualTooLarge {
                residual_px: s.offset_px,
                residual_mm: s.offset_mm,
                limit_px: l.max_residual_px,
                limit_mm: l.max_residual_mm,
                worst_id: i64::from(s.id) as i32,
            });
        }
        // One fiducial far off is refused too, even when the RMS over all of them is
        // within the limits: a moved fiducial bends every position near it.
        let one_off = self
            .fiducials
            .iter()
            .any(|f| f.residual_px > l.max_residual_px || f.residual_mm > l.max_residual_mm);
        if self.residual_px > l.max_residual_px || self.residual_mm > l.max_residual_mm || one_off {
            // The one the others disagree with, else the worst on the table (pixels
            // favour the fiducials nearest the camera).
            let worst = self.fiducials.iter().max_by(|a, b| a.residual_mm.total_cmp(&b.residual_mm));
            let worst = self.suspect.map(|s| s.id).or(worst.map(|w| w.id));
            return Err(VisionError::ResidualTooLarge {
                residual_px: self.residual_px,
                residual_mm: self.residual_mm,
                limit_px: l.max_residual_px,
                limit_mm: l.max_residual_mm,
                worst_id: worst.map_or(-1, |w| i64::from(w) as i32),
            });
        }
        Ok(())
    }

    /// The model's standard uncertainty on the table, mm (per coordinate).
    ///
    /// The fiducial residual with the degrees of freedom the fit used up put back gives
    /// the corners' own noise, `σ_r`. A calibrated camera's pose is fitted to all
    /// `N` corner coordinates with `p` parameters, so its error at a point of the table
    /// is on average `σ_r·√(p/N)` (the mean leverage of a least-squares fit is `p/N`; the
    /// fiducials frame the table, so its points are interpolated, never further out).
    /// The homography models cannot bend with the lens: what they leave unmodelled shows
    /// in the corners' residual as much as anywhere, so their term is `√2·σ_r`. A
    /// self-calibrated camera's term comes from its own covariance, tag by tag
    /// ([`crate::TagPose::model_var`]); this is its fallback.
    #[must_use]
    pub fn model_sigma_mm(&self) -> f64 {
        let n = (self.fiducials.len() * 8) as f64;
        if self.dof == 0 {
            return self.residual_mm;
        }
        let corner_var = self.residual_mm.powi(2) * (n / 2.0) / self.dof as f64;
        match self.model.kind {
            ModelKind::Calibrated => (corner_var * 6.0 / n).sqrt(),
            _ => (2.0 * corner_var).sqrt(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The clear tags give the lens only where there are enough of them.
    #[test]
    fn unclear_tags_weigh_little_where_enough_are_clear() {
        let clear = |n: usize| (0..40).map(|i| i < n).collect::<Vec<bool>>();
        assert!(tag_weights(&clear(MIN_CLEAR_TAGS - 1)).is_empty());
        let w = tag_weights(&clear(MIN_CLEAR_TAGS));
        assert_eq!(w.len(), 40);
        assert!(w[..MIN_CLEAR_TAGS].iter().all(|&x| x == 1.0));
        assert!(w[MIN_CLEAR_TAGS..].iter().all(|&x| x == UNCLEAR_TAG_WEIGHT));
    }

    /// The issue's example: a camera 1.2 m above the table looking straight down; a
    /// base top 3 mm high seen 1 m off-axis appears 2.5 mm further out on the table
    /// plane. The calibrated model back-projects onto the base-top plane instead.
    #[test]
    fn base_tops_are_back_projected_at_their_height() {
        let profile = Profile::from_toml_str(
            r#"
[table]
width_mm = 2400
depth_mm = 1600
[fiducials]
dictionary = "DICT_4X4_50"
size_mm = 60
markers = [
  { id = 0, x_mm = 100, y_mm = 100 }, { id = 1, x_mm = 2300, y_mm = 100 },
  { id = 2, x_mm = 2300, y_mm = 1500 }, { id = 3, x_mm = 100, y_mm = 1500 },
]
"#,
            "t.toml",
        )
        .unwrap();
        let k = Intrinsics {
            image_width: 4000,
            image_height: 3000,
            fx: 1500.0,
            fy: 1500.0,
            cx: 1999.5,
            cy: 1499.5,
            distortion: vec![-0.05, 0.01, 0.0, 0.0, 0.0],
        };
        // Straight down from (1200, 800, 1200): camera x = table x, camera y = -table y.
        let pose = CameraPose {
            r: [[1.0, 0.0, 0.0], [0.0, -1.0, 0.0], [0.0, 0.0, -1.0]],
            t: [-1200.0, 800.0, 1200.0],
        };
        let project = |p: [f64; 3]| {
            let obj: Vector<Point3d> = vec![Point3d::new(p[0], p[1], p[2])].into();
            project_points(&obj, &k, &pose).unwrap()[0]
        };
        let found: Vec<DetectedMarker> = profile
            .fiducials
            .markers
            .iter()
            .map(|m| {
                let c = m.corners(60.0);
                DetectedMarker { id: m.id, corners: c.map(|q| project([q.x, q.y, 0.0])) }
            })
            .collect();
        let fit = solve_camera(&profile, &found, Some(&k), (4000, 3000)).unwrap();
        assert_eq!(fit.model.kind(), ModelKind::Calibrated);
        assert!(fit.residual_px < 1e-3 && fit.residual_mm < 1e-3, "{} {}", fit.residual_px, fit.residual_mm);
        let centre = fit.model.camera_centre().unwrap();
        assert!((centre[2] - 1200.0).abs() < 0.01, "{centre:?}");

        // A base top 1 m off-axis.
        let top = [2200.0, 800.0, 3.0];
        let px = project(top);
        let at_top = fit.model.image_to_table(&[px], 3.0).unwrap()[0];
        let on_table = fit.model.image_to_table(&[px], 0.0).unwrap()[0];
        assert!(at_top.distance(Vec2::new(top[0], top[1])) < 1e-3, "{at_top:?}");
        let shift = on_table.distance(Vec2::new(top[0], top[1]));
        assert!(
            (shift - 1000.0 * 3.0 / 1197.0).abs() < 0.01,
            "ignoring the height would shift it {shift} mm"
        );
        // And projection inverts back-projection.
        let back = fit.model.project(&[at_top], 3.0).unwrap()[0];
        assert!((back[0] - px[0]).abs() < 1e-6 && (back[1] - px[1]).abs() < 1e-6);
        // A plane above the camera: no ray meets it, and the error says which pixel,
        // which plane and what to check (it used to ask "camera below the table?").
        let e = fit.model.image_to_table(&[[2000.0, 1500.0]], 1500.0).unwrap_err().to_string();
        assert!(e.contains("pixel (2000, 1500)") && e.contains("1500 mm above the table"), "{e}");
        assert!(e.contains("--camera") && e.contains("fiducial positions"), "{e}");
    }

    #[test]
    fn focal_length_from_a_tilted_homography() {
        // H = K [r1 r2 t] for a camera tilted 25 degrees about x.
        let f = 2000.0;
        let a = 25f64.to_radians();
        let r = [[1.0, 0.0, 0.0], [0.0, -a.cos(), -a.sin()], [0.0, a.sin(), -a.cos()]];
        let t = [-500.0, 300.0, 1500.0];
        let k = [[f, 0.0, 1000.0], [0.0, f, 750.0], [0.0, 0.0, 1.0]];
        let mut h = [[0.0; 3]; 3];
        for i in 0..3 {
            for j in 0..3 {
                let m = |q: usize| if j < 2 { r[q][j] } else { t[q] };
                h[i][j] = (0..3).map(|q| k[i][q] * m(q)).sum();
            }
        }
        let est = focal_from_homography(&h, [1000.0, 750.0]).unwrap();
        assert!((est - f).abs() < 1e-6 * f, "{est}");
    }
}
