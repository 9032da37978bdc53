//! The photo rectified onto a horizontal plane of the table: an orthographic image in
//! table millimetres, for finding what lies on that plane (terrain templates at the
//! table, cube tops at 9.5 mm) where the camera model has already undone perspective,
//! lens distortion and the parallax of the plane's height.

use crate::error::VisionError;
use crate::pose::CameraModel;
use opencv::core::{Mat, Point, Rect, Scalar, Vec2f, Vector};
use opencv::prelude::*;
use vedette_geometry::Vec2;

/// Spacing of the grid nodes projected exactly through the camera model, px of the
/// rectified image; pixels between nodes are interpolated (the model is smooth on this
/// scale: the interpolation error stays far below a pixel).
const GRID_PX: usize = 8;
/// Rows of the rectified image remapped at a time (their maps stay in cache).
const BAND_ROWS: usize = 8 * GRID_PX;

/// A rectified image: pixel `(col, row)` shows the table point
/// `(x0 + (col + 0.5) / px_per_mm, y0 + (row + 0.5) / px_per_mm)` at `height_mm`.
#[derive(Debug)]
pub struct Rectified {
    /// The image (the photo's type: BGR 8-bit for colour photos).
    pub image: Mat,
    /// Pixels per table millimetre.
    pub px_per_mm: f64,
    /// Table mm of the image's near-left corner (the outer corner of pixel (0, 0)).
    pub origin_mm: Vec2,
    /// Height of the plane above the table, mm.
    pub height_mm: f64,
}

impl Rectified {
    /// Projects `image` (a photo the camera `model` took) onto the plane `height_mm`
    /// above the table, over the table rectangle from `min` to `max` (mm), at
    /// `px_per_mm`.
    pub fn new(
        image: &Mat,
        model: &CameraModel,
        height_mm: f64,
        (min, max): (Vec2, Vec2),
        px_per_mm: f64,
    ) -> Result<Rectified, VisionError> {
        let cols = (((max.x - min.x) * px_per_mm).ceil().max(1.0)) as usize;
        let rows = (((max.y - min.y) * px_per_mm).ceil().max(1.0)) as usize;
        let gc = cols.div_ceil(GRID_PX) + 1;
        let gr = rows.div_ceil(GRID_PX) + 1;
        let mut nodes = Vec::with_capacity(gc * gr);
        for j in 0..gr {
            for i in 0..gc {
                let c = (i * GRID_PX) as f64 + 0.5;
                let r = (j * GRID_PX) as f64 + 0.5;
                nodes.push(Vec2::new(min.x + c / px_per_mm, min.y + r / px_per_mm));
            }
        }
        let px = model.project(&nodes, height_mm)?;
        // Bilinear between the nodes: each row of nodes is first interpolated to the
        // image row, then each pixel between two of them. The maps of a whole 12 MP
        // plane are tens of MB: they are made and used a band of rows at a time.
        let mut out =
            Mat::new_rows_cols_with_default(rows as i32, cols as i32, image.typ(), Scalar::all(0.0))?;
        let mut map = Mat::new_rows_cols_with_default(
            BAND_ROWS.min(rows) as i32,
            cols as i32,
            opencv::core::CV_32FC2,
            Scalar::all(0.0),
        )?;
        let mut node_row = vec![[0f64; 2]; gc];
        for band in (0..rows).step_by(BAND_ROWS) {
            let n = BAND_ROWS.min(rows - band);
            let data = map.data_typed_mut::<Vec2f>()?;
            for (dr, line) in data.chunks_mut(cols).take(n).enumerate() {
                let r = band + dr;
                let (j, ty) = (r / GRID_PX, (r % GRID_PX) as f64 / GRID_PX as f64);
                for (i, node) in node_row.iter_mut().enumerate() {
                    let (a, b) = (px[j * gc + i], px[(j + 1) * gc + i]);
                    *node = [a[0] + (b[0] - a[0]) * ty, a[1] + (b[1] - a[1]) * ty];
                }
                for (i, cell) in line.chunks_mut(GRID_PX).enumerate() {
                    let (a, b) = (node_row[i], node_row[i + 1]);
                    let step = [(b[0] - a[0]) / GRID_PX as f64, (b[1] - a[1]) / GRID_PX as f64];
                    for (k, m) in cell.iter_mut().enumerate() {
                        let t = k as f64;
                        *m = Vec2f::from([(a[0] + step[0] * t) as f32, (a[1] + step[1] * t) as f32]);
                    }
                }
            }
            let band_map = map.roi(Rect::new(0, 0, cols as i32, n as i32))?;
            let mut dst = out.roi_mut(Rect::new(0, band as i32, cols as i32, n as i32))?;
            opencv::imgproc::remap(
                image,
                &mut dst,
                &band_map,
                &opencv::core::no_array(),
                opencv::imgproc::INTER_LINEAR,
                opencv::core::BORDER_CONSTANT,
                Scalar::all(0.0),
            )?;
        }
        Ok(Rectified { image: out, px_per_mm, origin_mm: min, height_mm })
    }

    /// The image's width and height, px.
    pub fn size(&self) -> Result<(i32, i32), VisionError> {
        let s = self.image.size()?;
        Ok((s.width, s.height))
    }

    /// Table mm of a (sub)pixel position of the image.
    #[must_use]
    pub fn to_table(&self, px: [f64; 2]) -> Vec2 {
        Vec2::new(
            self.origin_mm.x + (px[0] + 0.5) / self.px_per_mm,
            self.origin_mm.y + (px[1] + 0.5) / self.px_per_mm,
        )
    }

    /// The (sub)pixel position of a table point on the image's plane.
    #[must_use]
    pub fn to_px(&self, p: Vec2) -> [f64; 2] {
        [(p.x - self.origin_mm.x) * self.px_per_mm - 0.5, (p.y - self.origin_mm.y) * self.px_per_mm - 0.5]
    }

    /// Where points at `height_mm` above the table appear on this image's plane: the
    /// photo sees them along rays that meet this plane elsewhere (parallax).
    pub fn seen_at(
        &self,
        model: &CameraModel,
        points: &[Vec2],
        height_mm: f64,
    ) -> Result<Vec<Vec2>, VisionError> {
        if (height_mm - self.height_mm).abs() < 1e-9 {
            return Ok(points.to_vec());
        }
        let px = model.project(points, height_mm)?;
        model.image_to_table(&px, self.height_mm)
    }
}

/// Fills the convex hull of `points` (table mm on the image's plane) with `value` on a
/// single-channel mask the size of `rect`'s image.
pub(crate) fn fill_hull(
    mask: &mut Mat,
    rect: &Rectified,
    points: &[Vec2],
    value: f64,
) -> Result<(), VisionError> {
    let hull = vedette_geometry::ConvexPolygon::hull(points);
    let pts: Vector<Point> = hull
        .vertices()
        .iter()
        .map(|&p| {
            let q = rect.to_px(p);
            Point::new(q[0].round() as i32, q[1].round() as i32)
        })
        .collect();
    if pts.len() >= 3 {
        opencv::imgproc::fill_convex_poly(mask, &pts, Scalar::all(value), opencv::imgproc::LINE_8, 0)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pose::solve_camera;
    use crate::scan::test_scene::{camera, profile, render};

    /// A tilted photo of the flat test scene rectified onto the table: each fiducial's
    /// dark centre lands where the profile puts it.
    #[test]
    fn rectified_table_shows_the_fiducials_in_place() {
        let p = profile();
        let (k, r, t) = camera(20.0);
        let photo = render(&p, &[], &k, r, t);
        let found =
            crate::fiducials::detect_large_markers(&photo.gray, p.fiducials.dictionary, 60.0).unwrap();
        let fit = solve_camera(&p, &found, Some(&k), (2400, 1800)).unwrap();
        let rect = Rectified::new(
            &photo.gray,
            &fit.model,
            0.0,
            (Vec2::new(0.0, 0.0), Vec2::new(p.table.width_mm, p.table.depth_mm)),
            1.0,
        )
        .unwrap();
        assert_eq!(rect.size().unwrap(), (600, 400));
        for f in &p.fiducials.markers {
            // The marker's black border, 2 mm inside its edge, and the paper 2 mm outside.
            let c = Vec2::new(f.x_mm, f.y_mm);
            let at = |p: Vec2| {
                let q = rect.to_px(p);
                f64::from(*rect.image.at_2d::<u8>(q[1].round() as i32, q[0].round() as i32).unwrap())
            };
            let ink = at(c + Vec2::new(18.0, 0.0));
            let paper = at(c + Vec2::new(22.0, 0.0));
            assert!(ink < 60.0 && paper > 180.0, "fiducial {}: ink {ink} paper {paper}", f.id);
        }
        let q = rect.to_px(Vec2::new(12.3, 45.6));
        let back = rect.to_table(q);
        assert!((back - Vec2::new(12.3, 45.6)).length() < 1e-9);
    }
}
