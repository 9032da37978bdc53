//! Camera intrinsics and lens distortion (OpenCV's pinhole model with the
//! `k1 k2 p1 p2 [k3 [k4 k5 k6]]` distortion coefficients), and the camera files that
//! `vedette calibrate-camera` writes.

use crate::error::{VisionError, read_text};
use opencv::core::{CV_64F, Mat, MatTrait, MatTraitConst, Point2d, Scalar, Vector};
use serde::{Deserialize, Serialize};
use std::path::Path;
use vedette_geometry::Shown;

/// A calibrated camera: focal lengths and principal point in pixels for one image size,
/// and OpenCV's distortion coefficients.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Intrinsics {
    /// Width of the calibration images, px.
    pub image_width: u32,
    /// Height of the calibration images, px.
    pub image_height: u32,
    /// Focal length along x, px.
    pub fx: f64,
    /// Focal length along y, px.
    pub fy: f64,
    /// Principal point x, px.
    pub cx: f64,
    /// Principal point y, px.
    pub cy: f64,
    /// OpenCV's distortion coefficients `k1, k2, p1, p2[, k3[, k4, k5, k6]]`; empty for
    /// none.
    #[serde(default)]
    pub distortion: Vec<f64>,
}

/// A camera file: intrinsics plus a record of how they were obtained.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CameraFile {
    /// The camera.
    pub intrinsics: Intrinsics,
    /// How it was calibrated (for the record; a scan does not read it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub calibration: Option<CalibrationRecord>,
}

/// How a camera file was produced.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CalibrationRecord {
    /// The pattern, e.g. `chessboard 9x6, 25 mm squares`.
    pub pattern: String,
    /// Photos where the pattern was found.
    pub views: usize,
    /// RMS reprojection error over every corner of every view, px.
    pub rms_px: f64,
    /// The photos used.
    #[serde(default)]
    pub photos: Vec<String>,
}

impl Intrinsics {
    /// Loads the `[intrinsics]` of a camera file.
    pub fn load(path: &Path) -> Result<Intrinsics, VisionError> {
        let origin = path.display().to_string();
        let text = read_text(path)?;
        let file: CameraFile = toml::from_str(&text).map_err(|e| crate::error::toml_error(&origin, &e))?;
        file.intrinsics.validate(&origin, "intrinsics")?;
        Ok(file.intrinsics)
    }

    /// Checks the numbers; `origin` and `prefix` name the file and table in errors.
    pub fn validate(&self, origin: &str, prefix: &str) -> Result<(), VisionError> {
        let err = |f: &str, reason: String| VisionError::InvalidField {
            path: origin.to_string(),
            field: format!("{prefix}.{f}"),
            reason,
        };
        if self.image_width == 0 || self.image_height == 0 {
            return Err(err("image_width", "the image size must be positive".into()));
        }
        for (n, v) in [("fx", self.fx), ("fy", self.fy)] {
            if !(v.is_finite() && v > 0.0) {
                return Err(err(n, format!("must be a positive number of pixels, got {}", Shown(v))));
            }
        }
        for (n, v) in [("cx", self.cx), ("cy", self.cy)] {
            if !v.is_finite() {
                return Err(err(n, format!("must be a finite number of pixels, got {}", Shown(v))));
            }
        }
        if !matches!(self.distortion.len(), 0 | 4 | 5 | 8) {
            return Err(err(
                "distortion",
                format!(
                    "OpenCV takes 4, 5 or 8 coefficients (k1 k2 p1 p2 k3 ...), got {}",
                    self.distortion.len()
                ),
            ));
        }
        if self.distortion.iter().any(|v| !v.is_finite()) {
            return Err(err("distortion", "coefficients must be finite numbers".into()));
        }
        Ok(())
    }

    /// The same camera for photos of `width` x `height` px: a camera calibrated at one
    /// resolution serves a photo resized from the same sensor (same aspect ratio).
    pub fn for_image_size(&self, width: u32, height: u32) -> Result<Intrinsics, VisionError> {
        if width == self.image_width && height == self.image_height {
            return Ok(self.clone());
        }
        let sx = f64::from(width) / f64::from(self.image_width);
        let sy = f64::from(height) / f64::from(self.image_height);
        if (sx - sy).abs() > 0.01 * sx {
            return Err(VisionError::InvalidField {
                path: "camera".to_string(),
                field: "intrinsics.image_width".to_string(),
                reason: format!(
                    "the camera was calibrated at {}x{} px but the photo is {width}x{height} px, another aspect ratio; calibrate at the photo's size",
                    self.image_width, self.image_height
                ),
            });
        }
        Ok(Intrinsics {
            image_width: width,
            image_height: height,
            fx: self.fx * sx,
            fy: self.fy * sy,
            // Pixel centres: (c + 0.5) scales, not c.
            cx: (self.cx + 0.5) * sx - 0.5,
            cy: (self.cy + 0.5) * sy - 0.5,
            distortion: self.distortion.clone(),
        })
    }

    /// The 3x3 camera matrix as an OpenCV `Mat` (CV_64F).
    pub fn camera_matrix(&self) -> Result<Mat, VisionError> {
        mat3([[self.fx, 0.0, self.cx], [0.0, self.fy, self.cy], [0.0, 0.0, 1.0]])
    }

    /// The distortion coefficients as an OpenCV row vector (empty for none).
    pub fn distortion_mat(&self) -> Result<Mat, VisionError> {
        Ok(Mat::from_slice(&self.distortion)?.try_clone()?)
    }

    /// Pixel positions to ideal (undistorted) normalized image coordinates
    /// (`x/z, y/z` in the camera frame).
    pub fn normalize(&self, pixels: &[[f64; 2]]) -> Result<Vec<[f64; 2]>, VisionError> {
        if pixels.is_empty() {
            return Ok(Vec::new());
        }
        if self.distortion.iter().all(|&d| d == 0.0) {
            return Ok(pixels
                .iter()
                .map(|p| [(p[0] - self.cx) / self.fx, (p[1] - self.cy) / self.fy])
                .collect());
        }
        if self.distortion.len() <= 5 {
            return pixels
                .iter()
                .map(|p| {
                    self.undistort_newton(*p).ok_or_else(|| VisionError::Calibration {
                        reason: format!(
                            "the lens model cannot undistort pixel ({:.1}, {:.1}): it lies where the distortion folds back (check the camera file's distortion coefficients)",
                            p[0], p[1]
                        ),
                    })
                })
                .collect();
        }
        let src: Vector<Point2d> = pixels.iter().map(|p| Point2d::new(p[0], p[1])).collect();
        let mut dst = Vector::<Point2d>::new();
        // Iterate to convergence rather than OpenCV's default 5 steps: wide lenses need it.
        let criteria = opencv::core::TermCriteria::new(
            opencv::core::TermCriteria_COUNT + opencv::core::TermCriteria_EPS,
            50,
            1e-9,
        )?;
        opencv::calib3d::undistort_points_iter(
            &src,
            &mut dst,
            &self.camera_matrix()?,
            &self.distortion_mat()?,
            &opencv::core::no_array(),
            &opencv::core::no_array(),
            criteria,
        )?;
        Ok(dst.iter().map(|p| [p.x, p.y]).collect())
    }

    /// The five coefficients `k1 k2 p1 p2 k3` (missing ones zero).
    fn coefficients5(&self) -> [f64; 5] {
        let mut d = [0.0; 5];
        for (o, v) in d.iter_mut().zip(&self.distortion) {
            *o = *v;
        }
        d
    }

    /// Undistorts one pixel by Newton's method on the distortion polynomial.
    ///
    /// OpenCV's `undistortPoints` iterates the fixed point `x = (xd - tangential) /
    /// radial(x)`, which converges slowly (and can diverge) where the distortion is
    /// strong; Newton's method with the exact Jacobian converges in a few steps, and the
    /// result is checked by distorting it back, so a point where the lens model folds
    /// back is an error naming the pixel rather than a wrong ray. (Measured: at k1 =
    /// +0.05 both agree to 1e-12 at the frame corners; at k1 = +0.25 OpenCV's default
    /// five steps are 10 px off there, its 50-step iteration agrees.)
    fn undistort_newton(&self, px: [f64; 2]) -> Option<[f64; 2]> {
        let [k1, k2, p1, p2, k3] = self.coefficients5();
        let target = [(px[0] - self.cx) / self.fx, (px[1] - self.cy) / self.fy];
        let distort = |x: f64, y: f64| {
            let r2 = x * x + y * y;
            let radial = 1.0 + r2 * (k1 + r2 * (k2 + r2 * k3));
            [
                x * radial + 2.0 * p1 * x * y + p2 * (r2 + 2.0 * x * x),
                y * radial + p1 * (r2 + 2.0 * y * y) + 2.0 * p2 * x * y,
            ]
        };
        let mut p = target;
        for _ in 0..100 {
            let [x, y] = p;
            let r2 = x * x + y * y;
            let radial = 1.0 + r2 * (k1 + r2 * (k2 + r2 * k3));
            let dr = k1 + r2 * (2.0 * k2 + 3.0 * k3 * r2);
            let cross = 2.0 * x * y * dr;
            let a = radial + 2.0 * x * x * dr + 2.0 * p1 * y + 6.0 * p2 * x;
            let b = cross + 2.0 * p1 * x + 2.0 * p2 * y;
            let e = radial + 2.0 * y * y * dr + 6.0 * p1 * y + 2.0 * p2 * x;
            let det = a * e - b * b;
            if !det.is_finite() || det.abs() <= 1e-12 {
                return None;
            }
            let d = distort(x, y);
            let (rx, ry) = (target[0] - d[0], target[1] - d[1]);
            let mut step = [(e * rx - b * ry) / det, (a * ry - b * rx) / det];
            // Damp long steps: stay on the near branch of the polynomial.
            let len = step[0].hypot(step[1]);
            let cap = 0.25 * (1.0 + x.hypot(y));
            if len > cap {
                step = [step[0] * cap / len, step[1] * cap / len];
            }
            p = [x + step[0], y + step[1]];
            if len < 1e-15 {
                break;
            }
        }
        let back = distort(p[0], p[1]);
        ((back[0] - target[0]).hypot(back[1] - target[1]) < 1e-10 && p[0].is_finite() && p[1].is_finite())
            .then_some(p)
    }

    /// Writes a camera file's text.
    pub fn to_toml(&self, record: Option<CalibrationRecord>) -> Result<String, VisionError> {
        let file = CameraFile { intrinsics: self.clone(), calibration: record };
        let body = toml::to_string_pretty(&file)
            .map_err(|e| VisionError::Encode { what: "camera file".into(), reason: e.to_string() })?;
        Ok(format!(
            "# Camera intrinsics for vedette (OpenCV pinhole model, distortion k1 k2 p1 p2 k3).\n# Written by `vedette calibrate-camera`; see docs/calibration.md.\n\n{body}"
        ))
    }
}

/// A 3x3 CV_64F matrix from rows.
pub(crate) fn mat3(rows: [[f64; 3]; 3]) -> Result<Mat, VisionError> {
    let mut m = Mat::new_rows_cols_with_default(3, 3, CV_64F, Scalar::all(0.0))?;
    for (r, row) in rows.iter().enumerate() {
        for (c, v) in row.iter().enumerate() {
            *m.at_2d_mut::<f64>(r as i32, c as i32)? = *v;
        }
    }
    Ok(m)
}

/// A 3x3 CV_64F matrix's rows.
pub(crate) fn rows3(m: &Mat) -> Result<[[f64; 3]; 3], VisionError> {
    let mut out = [[0.0; 3]; 3];
    for (r, row) in out.iter_mut().enumerate() {
        for (c, v) in row.iter_mut().enumerate() {
            *v = *m.at_2d::<f64>(r as i32, c as i32)?;
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cam() -> Intrinsics {
        Intrinsics {
            image_width: 4000,
            image_height: 3000,
            fx: 3200.0,
            fy: 3200.0,
            cx: 1999.5,
            cy: 1499.5,
            distortion: vec![-0.1, 0.02, 0.0, 0.0, 0.0],
        }
    }

    #[test]
    fn scaling_keeps_the_field_of_view() {
        let c = cam().for_image_size(2000, 1500).unwrap();
        assert!((c.fx - 1600.0).abs() < 1e-9 && (c.cx - 999.5).abs() < 1e-9);
        assert!(cam().for_image_size(3000, 3000).is_err());
    }

    #[test]
    fn normalize_inverts_projection() {
        let c = cam();
        // Project a normalized point through OpenCV, then normalize it back.
        let obj: Vector<opencv::core::Point3d> = vec![opencv::core::Point3d::new(0.3, -0.2, 1.0)].into();
        let mut img = Vector::<opencv::core::Point2d>::new();
        let zero: Vector<f64> = vec![0.0, 0.0, 0.0].into();
        opencv::calib3d::project_points_def(
            &obj,
            &zero,
            &zero,
            &c.camera_matrix().unwrap(),
            &c.distortion_mat().unwrap(),
            &mut img,
        )
        .unwrap();
        let p = img.get(0).unwrap();
        let n = c.normalize(&[[p.x, p.y]]).unwrap();
        assert!((n[0][0] - 0.3).abs() < 1e-5 && (n[0][1] + 0.2).abs() < 1e-5, "{n:?}");
    }

    /// Issue 17: a pincushion lens (k1 = +0.05, with p1 and p2) undistorts exactly up to
    /// the frame corners.
    #[test]
    fn pincushion_frame_corners_undistort() {
        let c = Intrinsics {
            image_width: 4000,
            image_height: 3000,
            fx: 2917.0,
            fy: 2917.0,
            cx: 1999.5,
            cy: 1499.5,
            distortion: vec![0.05, 0.02, 0.0005, -0.0005, 0.0],
        };
        let d = c.coefficients5();
        for n in [[0.68, 0.51], [-0.7, 0.5], [0.69, -0.52], [-0.1, 0.3]] {
            let (x, y) = (n[0], n[1]);
            let r2 = x * x + y * y;
            let radial = 1.0 + r2 * (d[0] + r2 * (d[1] + r2 * d[4]));
            let px = [
                c.fx * (x * radial + 2.0 * d[2] * x * y + d[3] * (r2 + 2.0 * x * x)) + c.cx,
                c.fy * (y * radial + d[2] * (r2 + 2.0 * y * y) + 2.0 * d[3] * x * y) + c.cy,
            ];
            let back = c.normalize(&[px]).unwrap()[0];
            assert!((back[0] - x).abs() < 1e-9 && (back[1] - y).abs() < 1e-9, "{n:?} -> {back:?}");
        }
    }

    #[test]
    fn camera_file_round_trips_and_names_bad_fields() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("camera.toml");
        std::fs::write(&p, cam().to_toml(None).unwrap()).unwrap();
        assert_eq!(Intrinsics::load(&p).unwrap(), cam());
        std::fs::write(&p, cam().to_toml(None).unwrap().replace("fx = 3200.0", "fx = -1.0")).unwrap();
        let e = Intrinsics::load(&p).unwrap_err().to_string();
        assert!(e.contains("camera.toml") && e.contains("intrinsics.fx"), "{e}");
    }
}
