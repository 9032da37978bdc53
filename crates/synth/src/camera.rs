//! The camera that takes the synthetic photo: an OpenCV pinhole model with OpenCV's
//! five-coefficient lens distortion, posed in the table frame.
//!
//! # Conventions
//! - Table frame: millimetres, x to the right along the long edge, y away from the near
//!   edge, z up from the table surface (z = 0), origin at the near-left table corner.
//! - Camera frame (OpenCV): x to the image's right, y down the image, z along the optical
//!   axis. A table point `p` is at `R * p + t` in the camera frame, with `R` and `t` as
//!   OpenCV's `rvec`/`tvec` give them ([`CameraPose::rvec`], [`CameraPose::tvec`]).
//! - Pixels (OpenCV): the centre of the top-left pixel is (0, 0); u to the right, v down.
//!
//! [`Camera::project`] applies exactly what `cv2.projectPoints` applies, so a scanner
//! built on OpenCV can be checked against the same parameters.

use crate::error::SynthError;
use nalgebra::{Matrix3, Point3, Rotation3, Vector3};
use serde::{Deserialize, Serialize};
use vedette_geometry::Vec2;

/// The largest image side the renderer accepts, in pixels.
const MAX_SIDE_PX: u32 = 20_000;

/// An image size in pixels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Resolution {
    /// Width in pixels.
    pub width_px: u32,
    /// Height in pixels.
    pub height_px: u32,
}

impl Resolution {
    /// 8 MP, 4:3 (3264 x 2448 px).
    pub const MP8: Resolution = Resolution::new(3264, 2448);
    /// 12 MP, 4:3 (4000 x 3000 px), the sample photos' size.
    pub const MP12: Resolution = Resolution::new(4000, 3000);
    /// 16 MP, 4:3 (4608 x 3456 px).
    pub const MP16: Resolution = Resolution::new(4608, 3456);
    /// 24 MP, 3:2 (6000 x 4000 px).
    pub const MP24: Resolution = Resolution::new(6000, 4000);

    /// A resolution from width and height in pixels (unchecked; [`Camera::new`] checks).
    #[must_use]
    pub const fn new(width_px: u32, height_px: u32) -> Self {
        Resolution { width_px, height_px }
    }

    /// The number of pixels.
    #[must_use]
    pub fn pixel_count(self) -> u64 {
        u64::from(self.width_px) * u64::from(self.height_px)
    }

    fn check(self) -> Result<Self, SynthError> {
        let ok = |v: u32| (1..=MAX_SIDE_PX).contains(&v);
        if ok(self.width_px) && ok(self.height_px) {
            Ok(self)
        } else {
            Err(SynthError::InvalidResolution { width_px: self.width_px, height_px: self.height_px })
        }
    }
}

/// Pinhole intrinsics: OpenCV's camera matrix `[[fx, 0, cx], [0, fy, cy], [0, 0, 1]]`,
/// in pixels, and the image size it applies to.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Intrinsics {
    /// Focal length along u, px.
    pub fx: f64,
    /// Focal length along v, px.
    pub fy: f64,
    /// Principal point u, px.
    pub cx: f64,
    /// Principal point v, px.
    pub cy: f64,
    /// The image size.
    pub resolution: Resolution,
}

impl Intrinsics {
    /// The camera matrix, row-major, as OpenCV's `cameraMatrix`.
    #[must_use]
    pub fn matrix(&self) -> [[f64; 3]; 3] {
        [[self.fx, 0.0, self.cx], [0.0, self.fy, self.cy], [0.0, 0.0, 1.0]]
    }
}

/// OpenCV's lens distortion `(k1, k2, p1, p2, k3)`: radial `k1, k2, k3` and tangential
/// `p1, p2`, applied to normalized image coordinates.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct Distortion {
    /// Radial, r².
    pub k1: f64,
    /// Radial, r⁴.
    pub k2: f64,
    /// Tangential.
    pub p1: f64,
    /// Tangential.
    pub p2: f64,
    /// Radial, r⁶.
    pub k3: f64,
}

impl Distortion {
    /// No distortion.
    pub const NONE: Distortion = Distortion { k1: 0.0, k2: 0.0, p1: 0.0, p2: 0.0, k3: 0.0 };

    /// The coefficients in OpenCV's order, as `distCoeffs`.
    #[must_use]
    pub fn coefficients(&self) -> [f64; 5] {
        [self.k1, self.k2, self.p1, self.p2, self.k3]
    }

    /// True when every coefficient is zero.
    #[must_use]
    pub fn is_none(&self) -> bool {
        self.coefficients().iter().all(|c| *c == 0.0)
    }

    /// Distorts normalized coordinates `(x/z, y/z)` as OpenCV does.
    #[must_use]
    pub fn distort(&self, [x, y]: [f64; 2]) -> [f64; 2] {
        let r2 = x * x + y * y;
        let radial = 1.0 + r2 * (self.k1 + r2 * (self.k2 + r2 * self.k3));
        [
            x * radial + 2.0 * self.p1 * x * y + self.p2 * (r2 + 2.0 * x * x),
            y * radial + self.p1 * (r2 + 2.0 * y * y) + 2.0 * self.p2 * x * y,
        ]
    }

    /// The Jacobian of [`Distortion::distort`], rows `[dxd/dx, dxd/dy]`, `[dyd/dx, dyd/dy]`.
    fn jacobian(&self, [x, y]: [f64; 2]) -> [[f64; 2]; 2] {
        let r2 = x * x + y * y;
        let radial = 1.0 + r2 * (self.k1 + r2 * (self.k2 + r2 * self.k3));
        // d(radial)/d(r²)
        let dr = self.k1 + r2 * (2.0 * self.k2 + 3.0 * self.k3 * r2);
        let cross = 2.0 * x * y * dr;
        [
            [
                radial + 2.0 * x * x * dr + 2.0 * self.p1 * y + 6.0 * self.p2 * x,
                cross + 2.0 * self.p1 * x + 2.0 * self.p2 * y,
            ],
            [
                cross + 2.0 * self.p1 * x + 2.0 * self.p2 * y,
                radial + 2.0 * y * y * dr + 6.0 * self.p1 * y + 2.0 * self.p2 * x,
            ],
        ]
    }

    /// One Newton step of undistortion: improves `guess` towards the point whose
    /// distortion is `target`. `None` where the distortion is not invertible.
    pub(crate) fn newton_step(&self, target: [f64; 2], guess: [f64; 2]) -> Option<[f64; 2]> {
        let d = self.distort(guess);
        let [[a, b], [c, e]] = self.jacobian(guess);
        let det = a * e - b * c;
        if det.is_nan() || det.abs() <= 1e-12 {
            return None;
        }
        let (rx, ry) = (target[0] - d[0], target[1] - d[1]);
        Some([guess[0] + (e * rx - b * ry) / det, guess[1] + (a * ry - c * rx) / det])
    }

    /// The normalized coordinates whose distortion is `distorted`, by Newton's method to
    /// 1e-14; `None` where it does not converge (far outside the lens's useful field).
    #[must_use]
    pub fn undistort(&self, distorted: [f64; 2]) -> Option<[f64; 2]> {
        let mut p = distorted;
        for _ in 0..50 {
            let next = self.newton_step(distorted, p)?;
            let step = (next[0] - p[0]).hypot(next[1] - p[1]);
            p = next;
            if step < 1e-14 {
                break;
            }
        }
        let back = self.distort(p);
        ((back[0] - distorted[0]).hypot(back[1] - distorted[1]) < 1e-10).then_some(p)
    }
}

/// Where the camera is and where it looks: the rigid transform from the table frame to
/// the camera frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CameraPose {
    /// Table frame to camera frame.
    rotation: Rotation3<f64>,
    /// The camera centre in table mm.
    position_mm: Vector3<f64>,
}

impl CameraPose {
    /// A pose from the table-to-camera rotation and the camera centre in table mm.
    #[must_use]
    pub fn new(rotation: Rotation3<f64>, position_mm: Vector3<f64>) -> Self {
        CameraPose { rotation, position_mm }
    }

    /// The rotation from the table frame to the camera frame.
    #[must_use]
    pub fn rotation(&self) -> Rotation3<f64> {
        self.rotation
    }

    /// The camera centre in table mm.
    #[must_use]
    pub fn position_mm(&self) -> Vector3<f64> {
        self.position_mm
    }

    /// OpenCV's `rvec`: the rotation as an axis times its angle in radians.
    #[must_use]
    pub fn rvec(&self) -> [f64; 3] {
        let v = self.rotation.scaled_axis();
        [v.x, v.y, v.z]
    }

    /// OpenCV's `tvec` in mm: the table origin in the camera frame, `-R * position`.
    #[must_use]
    pub fn tvec(&self) -> [f64; 3] {
        let t = -(self.rotation * self.position_mm);
        [t.x, t.y, t.z]
    }

    /// A table point in the camera frame, mm.
    #[must_use]
    pub fn to_camera(&self, p: &Point3<f64>) -> Vector3<f64> {
        self.rotation * (p.coords - self.position_mm)
    }

    /// A camera-frame direction in the table frame.
    #[must_use]
    pub fn direction_to_table(&self, d: &Vector3<f64>) -> Vector3<f64> {
        self.rotation.inverse() * d
    }
}

/// A realistic overhead setup, for [`Camera::looking_at`].
///
/// With `tilt_deg = 0` the camera looks straight down, the image's right is along the
/// direction `yaw_deg` (0: table +x) and the image's top is 90° counter-clockwise from it
/// (table +y at yaw 0), so at yaw 0 the near edge is at the bottom of the photo. A tilt
/// moves the camera back towards the image's bottom, as a photographer standing at the
/// near edge, keeping the optical axis through `target_mm`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LookAt {
    /// Where the optical axis meets the table, in table mm.
    pub target_mm: Vec2,
    /// Height of the camera centre above the table, mm.
    pub height_mm: f64,
    /// Angle between the optical axis and straight down, degrees, 0..=60.
    pub tilt_deg: f64,
    /// Direction of the image's right, degrees counter-clockwise from table +x.
    pub yaw_deg: f64,
    /// Lens focal length, mm.
    pub focal_mm: f64,
    /// Sensor width, mm (a 1/2.3" phone sensor is about 6.2 mm, APS-C about 23.5 mm).
    pub sensor_width_mm: f64,
    /// The image size; pixels are square.
    pub resolution: Resolution,
}

/// A calibrated, posed camera: the truth a synthetic photo is taken with.
///
/// ```
/// use nalgebra::Point3;
/// use vedette_geometry::Vec2;
/// use vedette_synth::{Camera, LookAt, Resolution};
/// let camera = Camera::looking_at(&LookAt {
///     target_mm: Vec2::new(914.4, 609.6),
///     height_mm: 1500.0,
///     tilt_deg: 0.0,
///     yaw_deg: 0.0,
///     focal_mm: 4.5,
///     sensor_width_mm: 6.2,
///     resolution: Resolution::MP12,
/// })?;
/// // The target lands on the principal point.
/// let [u, v] = camera.project(&Point3::new(914.4, 609.6, 0.0)).ok_or("behind")?;
/// assert!((u - 1999.5).abs() < 1e-9 && (v - 1499.5).abs() < 1e-9);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Camera {
    /// Camera matrix and image size.
    pub intrinsics: Intrinsics,
    /// Lens distortion.
    pub distortion: Distortion,
    /// Position and orientation in the table frame.
    pub pose: CameraPose,
}

/// A ray from the camera centre, in the table frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Ray {
    /// The camera centre, table mm.
    pub origin: Vector3<f64>,
    /// Unit direction.
    pub direction: Vector3<f64>,
}

impl Ray {
    /// The point at distance `t` mm along the ray.
    #[must_use]
    pub fn at(&self, t: f64) -> Vector3<f64> {
        self.origin + self.direction * t
    }

    /// The distance along the ray to the horizontal plane at height `z_mm`, if ahead.
    #[must_use]
    pub fn to_plane_z(&self, z_mm: f64) -> Option<f64> {
        let t = (z_mm - self.origin.z) / self.direction.z;
        (t.is_finite() && t > 0.0).then_some(t)
    }
}

impl Camera {
    /// A camera from its parts; checks the image size and the focal lengths.
    pub fn new(intrinsics: Intrinsics, distortion: Distortion, pose: CameraPose) -> Result<Self, SynthError> {
        intrinsics.resolution.check()?;
        for (parameter, value) in [("fx", intrinsics.fx), ("fy", intrinsics.fy)] {
            if !(value.is_finite() && value > 0.0) {
                return Err(SynthError::InvalidCamera {
                    parameter,
                    value,
                    reason: "must be a positive number of px",
                });
            }
        }
        let finite = [intrinsics.cx, intrinsics.cy].into_iter().chain(distortion.coefficients());
        if let Some(value) = finite.into_iter().find(|v| !v.is_finite()) {
            return Err(SynthError::InvalidCamera {
                parameter: "cx/cy/distortion",
                value,
                reason: "must be finite",
            });
        }
        Ok(Camera { intrinsics, distortion, pose })
    }

    /// A camera set up as [`LookAt`] describes, without distortion (add it with
    /// [`Camera::with_distortion`]). The principal point is the image centre.
    pub fn looking_at(setup: &LookAt) -> Result<Self, SynthError> {
        let resolution = setup.resolution.check()?;
        let positive = [
            ("height_mm", setup.height_mm),
            ("focal_mm", setup.focal_mm),
            ("sensor_width_mm", setup.sensor_width_mm),
        ];
        for (parameter, value) in positive {
            if !(value.is_finite() && value > 0.0) {
                return Err(SynthError::InvalidCamera { parameter, value, reason: "must be positive" });
            }
        }
        if !(0.0..=60.0).contains(&setup.tilt_deg) {
            return Err(SynthError::InvalidCamera {
                parameter: "tilt_deg",
                value: setup.tilt_deg,
                reason: "must be 0..=60 degrees from straight down",
            });
        }
        if !setup.yaw_deg.is_finite() || !setup.target_mm.is_finite() {
            return Err(SynthError::InvalidCamera {
                parameter: "yaw_deg/target_mm",
                value: f64::NAN,
                reason: "must be finite",
            });
        }
        let (sy, cy) = setup.yaw_deg.to_radians().sin_cos();
        let tilt = setup.tilt_deg.to_radians();
        let right = Vector3::new(cy, sy, 0.0);
        let image_up = Vector3::new(-sy, cy, 0.0);
        let target = Vector3::new(setup.target_mm.x, setup.target_mm.y, 0.0);
        let position =
            target - image_up * (setup.height_mm * tilt.tan()) + Vector3::new(0.0, 0.0, setup.height_mm);
        let axis = (target - position).normalize();
        let down = axis.cross(&right);
        let rotation = Rotation3::from_matrix_unchecked(Matrix3::from_rows(&[
            right.transpose(),
            down.transpose(),
            axis.transpose(),
        ]));
        let f_px = setup.focal_mm / setup.sensor_width_mm * f64::from(resolution.width_px);
        let intrinsics = Intrinsics {
            fx: f_px,
            fy: f_px,
            cx: (f64::from(resolution.width_px) - 1.0) / 2.0,
            cy: (f64::from(resolution.height_px) - 1.0) / 2.0,
            resolution,
        };
        Camera::new(intrinsics, Distortion::NONE, CameraPose::new(rotation, position))
    }

    /// The same camera with another lens distortion.
    #[must_use]
    pub fn with_distortion(mut self, distortion: Distortion) -> Self {
        self.distortion = distortion;
        self
    }

    /// The image size.
    #[must_use]
    pub fn resolution(&self) -> Resolution {
        self.intrinsics.resolution
    }

    /// Where a table point (mm) appears in the photo, in pixels, exactly as
    /// `cv2.projectPoints` computes it; `None` for points at or behind the camera plane.
    #[must_use]
    pub fn project(&self, p: &Point3<f64>) -> Option<[f64; 2]> {
        let c = self.pose.to_camera(p);
        if c.z.is_nan() || c.z <= 1e-9 {
            return None;
        }
        let [x, y] = self.distortion.distort([c.x / c.z, c.y / c.z]);
        let k = &self.intrinsics;
        Some([k.fx * x + k.cx, k.fy * y + k.cy])
    }

    /// Normalized distorted coordinates of a pixel (the inverse of the camera matrix).
    pub(crate) fn pixel_to_distorted(&self, [u, v]: [f64; 2]) -> [f64; 2] {
        let k = &self.intrinsics;
        [(u - k.cx) / k.fx, (v - k.cy) / k.fy]
    }

    /// The ray through undistorted normalized coordinates `(x/z, y/z)`.
    pub(crate) fn ray_from_normalized(&self, [x, y]: [f64; 2]) -> Ray {
        let d = self.pose.direction_to_table(&Vector3::new(x, y, 1.0)).normalize();
        Ray { origin: self.pose.position_mm, direction: d }
    }

    /// The ray of table points that appear at pixel `(u, v)`; `None` where the lens
    /// distortion cannot be inverted.
    #[must_use]
    pub fn pixel_ray(&self, pixel: [f64; 2]) -> Option<Ray> {
        let xy = self.distortion.undistort(self.pixel_to_distorted(pixel))?;
        Some(self.ray_from_normalized(xy))
    }

    /// The table point at height `z_mm` seen at pixel `(u, v)`, if that plane is ahead.
    #[must_use]
    pub fn back_project(&self, pixel: [f64; 2], z_mm: f64) -> Option<Point3<f64>> {
        let ray = self.pixel_ray(pixel)?;
        let t = ray.to_plane_z(z_mm)?;
        Some(Point3::from(ray.at(t)))
    }

    /// True when the pixel lies inside the image (pixel centres 0..w-1, 0..h-1, with the
    /// half-pixel border).
    #[must_use]
    pub fn in_frame(&self, [u, v]: [f64; 2]) -> bool {
        let r = self.resolution();
        u >= -0.5 && v >= -0.5 && u <= f64::from(r.width_px) - 0.5 && v <= f64::from(r.height_px) - 0.5
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_relative_eq;

    fn straight_down() -> Camera {
        // fx = 4.5 / 6.0 * 1000 = 750 px; centre (499.5, 374.5).
        Camera::looking_at(&LookAt {
            target_mm: Vec2::new(100.0, 200.0),
            height_mm: 1000.0,
            tilt_deg: 0.0,
            yaw_deg: 0.0,
            focal_mm: 4.5,
            sensor_width_mm: 6.0,
            resolution: Resolution::new(1000, 750),
        })
        .unwrap()
    }

    #[test]
    fn straight_down_projects_by_similar_triangles() {
        let cam = straight_down();
        assert_relative_eq!(cam.intrinsics.fx, 750.0);
        // 50 mm right and 50 mm away from the near edge, 1000 mm below: x' = 0.05,
        // y' = -0.05 (image y points down, towards the near edge).
        let [u, v] = cam.project(&Point3::new(150.0, 250.0, 0.0)).unwrap();
        assert_relative_eq!(u, 499.5 + 37.5, epsilon = 1e-9);
        assert_relative_eq!(v, 374.5 - 37.5, epsilon = 1e-9);
        // A point 100 mm up is 900 mm from the camera: it looks farther from the centre.
        let [u, _] = cam.project(&Point3::new(150.0, 200.0, 100.0)).unwrap();
        assert_relative_eq!(u, 499.5 + 750.0 * 50.0 / 900.0, epsilon = 1e-9);
        // Above the camera: behind its image plane.
        assert!(cam.project(&Point3::new(100.0, 200.0, 1500.0)).is_none());
    }

    #[test]
    fn distortion_matches_hand_computed_values() {
        let d = Distortion { k1: 0.1, k2: 0.0, p1: 0.01, p2: 0.0, k3: 0.0 };
        // r² = 0.005, radial = 1.0005;
        // x'' = 0.05 * 1.0005 + 2 * 0.01 * 0.05 * (-0.05) = 0.050025 - 0.00005
        // y'' = -0.05 * 1.0005 + 0.01 * (0.005 + 2 * 0.0025) = -0.050025 + 0.0001
        let [x, y] = d.distort([0.05, -0.05]);
        assert_relative_eq!(x, 0.049975, epsilon = 1e-15);
        assert_relative_eq!(y, -0.049925, epsilon = 1e-15);
        let back = d.undistort([x, y]).unwrap();
        assert_relative_eq!(back[0], 0.05, epsilon = 1e-13);
        assert_relative_eq!(back[1], -0.05, epsilon = 1e-13);
    }

    /// Values from `cv2.projectPoints` (OpenCV 4.6) for the same rvec, tvec, camera
    /// matrix and distortion: the full model, all five coefficients, oblique pose.
    #[test]
    fn matches_opencv_project_points() {
        let rotation = Rotation3::from_scaled_axis(Vector3::new(2.9, 0.3, -0.2));
        let tvec = Vector3::new(-800.0, 500.0, 1400.0);
        let position = -(rotation.inverse() * tvec);
        let intrinsics =
            Intrinsics { fx: 3100.0, fy: 3090.0, cx: 2010.0, cy: 1490.0, resolution: Resolution::MP12 };
        let distortion = Distortion { k1: -0.12, k2: 0.05, p1: 0.001, p2: -0.0007, k3: -0.01 };
        let cam = Camera::new(intrinsics, distortion, CameraPose::new(rotation, position)).unwrap();
        let t = cam.pose.tvec();
        assert_relative_eq!(t[0], -800.0, epsilon = 1e-9);
        let expected = [
            ([0.0, 0.0, 0.0], [OPENCV_PX[0], OPENCV_PX[1]]),
            ([1828.8, 0.0, 0.0], [OPENCV_PX[2], OPENCV_PX[3]]),
            ([1828.8, 1219.2, 0.0], [OPENCV_PX[4], OPENCV_PX[5]]),
            ([600.0, 700.0, 3.0], [OPENCV_PX[6], OPENCV_PX[7]]),
        ];
        for (p, [u, v]) in expected {
            let got = cam.project(&Point3::new(p[0], p[1], p[2])).unwrap();
            assert_relative_eq!(got[0], u, epsilon = 1e-6);
            assert_relative_eq!(got[1], v, epsilon = 1e-6);
            // And back again, at the point's own height.
            let q = cam.back_project(got, p[2]).unwrap();
            assert_relative_eq!(q.x, p[0], epsilon = 1e-6);
            assert_relative_eq!(q.y, p[1], epsilon = 1e-6);
        }
    }

    /// `cv2.projectPoints` output for the four points above.
    const OPENCV_PX: [f64; 8] = [
        314.82438759,
        2546.85631563,
        4461.23174118,
        3606.58182944,
        4615.13748382,
        812.93785001,
        1866.17421828,
        1367.07426246,
    ];

    #[test]
    fn tilt_moves_the_camera_towards_the_image_bottom() {
        let cam = Camera::looking_at(&LookAt {
            target_mm: Vec2::new(900.0, 600.0),
            height_mm: 1200.0,
            tilt_deg: 30.0,
            yaw_deg: 90.0,
            focal_mm: 26.0,
            sensor_width_mm: 36.0,
            resolution: Resolution::new(600, 400),
        })
        .unwrap();
        // Yaw 90: the image's right is table +y, its top is table -x, so the camera
        // stands back along +x.
        let c = cam.pose.position_mm();
        assert_relative_eq!(c.x, 900.0 + 1200.0 * 30f64.to_radians().tan(), epsilon = 1e-9);
        assert_relative_eq!(c.y, 600.0, epsilon = 1e-9);
        let [u, v] = cam.project(&Point3::new(900.0, 600.0, 0.0)).unwrap();
        assert_relative_eq!(u, 299.5, epsilon = 1e-9);
        assert_relative_eq!(v, 199.5, epsilon = 1e-9);
        // A point further along +y appears to the right of the centre.
        assert!(cam.project(&Point3::new(900.0, 700.0, 0.0)).unwrap()[0] > 299.5);
        // A point towards -x (the image top) appears above the centre.
        assert!(cam.project(&Point3::new(800.0, 600.0, 0.0)).unwrap()[1] < 199.5);
    }

    #[test]
    fn rejects_bad_setups() {
        let mut setup = LookAt {
            target_mm: Vec2::new(0.0, 0.0),
            height_mm: 1000.0,
            tilt_deg: 75.0,
            yaw_deg: 0.0,
            focal_mm: 4.0,
            sensor_width_mm: 6.0,
            resolution: Resolution::new(100, 100),
        };
        assert!(matches!(
            Camera::looking_at(&setup),
            Err(SynthError::InvalidCamera { parameter: "tilt_deg", .. })
        ));
        setup.tilt_deg = 10.0;
        setup.resolution = Resolution::new(0, 100);
        assert!(matches!(Camera::looking_at(&setup), Err(SynthError::InvalidResolution { .. })));
    }
}
