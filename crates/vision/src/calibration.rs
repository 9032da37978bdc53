//! Camera calibration from photos of a chessboard or a ChArUco board: intrinsics and
//! lens distortion by OpenCV's `calibrateCamera`.

use crate::camera::{CalibrationRecord, Intrinsics, rows3};
use crate::dictionary::Dictionary;
use crate::error::VisionError;
use crate::photo::Photo;
use opencv::aruco::CharucoBoardTraitConst;
use opencv::core::{Mat, MatTraitConst, Point2f, Point3f, Size, TermCriteria, Vector};
use std::path::{Path, PathBuf};
use vedette_geometry::Shown;

/// The largest board square accepted, mm (a 1 m square would be a board 9 m wide).
pub const MAX_SQUARE_MM: f64 = 1000.0;

/// Two views whose board corners lie within this RMS distance of each other, px, are one
/// view photographed twice: they add no information about the lens.
const SAME_VIEW_PX: f64 = 2.0;

/// Whether two views show the board from (nearly) the same place.
fn same_view(a: &View, b: &View) -> bool {
    if a.object.len() != b.object.len() || a.object.iter().zip(b.object.iter()).any(|(p, q)| p != q) {
        return false;
    }
    let n = a.image.len().max(1) as f64;
    let sum: f64 = a
        .image
        .iter()
        .zip(b.image.iter())
        .map(|(p, q)| f64::from(p.x - q.x).powi(2) + f64::from(p.y - q.y).powi(2))
        .sum();
    (sum / n).sqrt() < SAME_VIEW_PX
}

/// The calibration target.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Pattern {
    /// A chessboard, counted by inner corners (OpenCV's sample board is 9 x 6).
    Chessboard {
        /// Inner corners per row.
        cols: i32,
        /// Inner corners per column.
        rows: i32,
        /// Square side, mm.
        square_mm: f64,
    },
    /// A ChArUco board (chessboard with markers in the white squares), counted by
    /// squares. OpenCV 4.6 changed the layout of boards with an even number of rows, so
    /// only odd row counts are accepted.
    Charuco {
        /// Squares across.
        squares_x: i32,
        /// Squares down (odd).
        squares_y: i32,
        /// Square side, mm.
        square_mm: f64,
        /// Marker side, mm.
        marker_mm: f64,
        /// The markers' dictionary.
        dictionary: Dictionary,
    },
}

impl Pattern {
    /// For the camera file's record.
    #[must_use]
    pub fn describe(&self) -> String {
        match self {
            Pattern::Chessboard { cols, rows, square_mm } => {
                format!("chessboard {cols}x{rows} inner corners, {square_mm} mm squares")
            }
            Pattern::Charuco { squares_x, squares_y, square_mm, marker_mm, dictionary } => format!(
                "ChArUco {squares_x}x{squares_y} squares, {square_mm} mm squares, {marker_mm} mm {dictionary} markers"
            ),
        }
    }

    fn check(&self) -> Result<(), VisionError> {
        let bad = |reason: String| Err(VisionError::Calibration { reason });
        match *self {
            Pattern::Chessboard { cols, rows, square_mm } => {
                if cols < 2 || rows < 2 {
                    return bad(format!("a chessboard needs at least 2x2 inner corners, got {cols}x{rows}"));
                }
                if !(square_mm.is_finite() && square_mm > 0.0 && square_mm <= MAX_SQUARE_MM) {
                    return bad(format!(
                        "the square size must be a positive number of mm up to {MAX_SQUARE_MM}, got {}",
                        Shown(square_mm)
                    ));
                }
            }
            Pattern::Charuco { squares_x, squares_y, square_mm, marker_mm, .. } => {
                if squares_x < 3 || squares_y < 3 {
                    return bad(format!(
                        "a ChArUco board needs at least 3x3 squares, got {squares_x}x{squares_y}"
                    ));
                }
                if squares_y % 2 == 0 {
                    return bad(format!(
                        "use a ChArUco board with an odd number of rows (got {squares_y}): OpenCV 4.6 changed the layout of even-row boards, so boards printed by other versions would be misread"
                    ));
                }
                if !(square_mm.is_finite() && square_mm <= MAX_SQUARE_MM) {
                    return bad(format!(
                        "the square size must be a positive number of mm up to {MAX_SQUARE_MM}, got {}",
                        Shown(square_mm)
                    ));
                }
                if !(marker_mm > 0.0 && square_mm > marker_mm) {
                    return bad(format!(
                        "the marker ({marker_mm} mm) must be smaller than the square ({square_mm} mm)"
                    ));
                }
            }
        }
        Ok(())
    }
}

/// The result of a calibration.
#[derive(Debug, Clone, PartialEq)]
pub struct Calibration {
    /// The camera.
    pub intrinsics: Intrinsics,
    /// RMS reprojection error over every corner of every view, px.
    pub rms_px: f64,
    /// Photos where the pattern was found.
    pub used: Vec<PathBuf>,
    /// Photos skipped, with the reason.
    pub skipped: Vec<(PathBuf, String)>,
    /// What was calibrated against.
    pub pattern: Pattern,
}

impl Calibration {
    /// The record a camera file keeps.
    #[must_use]
    pub fn record(&self) -> CalibrationRecord {
        CalibrationRecord {
            pattern: self.pattern.describe(),
            views: self.used.len(),
            rms_px: self.rms_px,
            photos: self.used.iter().map(|p| p.display().to_string()).collect(),
        }
    }
}

/// Board corners found in one photo: board points (mm, z = 0) and their pixels.
struct View {
    object: Vector<Point3f>,
    image: Vector<Point2f>,
}

/// The longest side, px, a photo is looked for a chessboard at: larger photos are
/// searched on a copy scaled down to it, and the corners found refined on the photo
/// itself. OpenCV's search grows much faster than the pixels where there is no board
/// (FAST_CHECK or not): a 4000x3000 photo without one took over 100 s, 2000x1500 33 s,
/// 1280x960 4.4 s, 1024x768 0.1 s (issue 41 item 6). A board that is to calibrate a lens fills a good
/// part of the photo, so its squares stay tens of pixels wide at this size.
pub const CHESSBOARD_SEARCH_PX: i32 = 1024;

fn chessboard_view(photo: &Photo, cols: i32, rows: i32, square_mm: f64) -> Result<Option<View>, VisionError> {
    let mut corners = Vector::<Point2f>::new();
    // FAST_CHECK rejects some photos without a board quickly.
    let flags = opencv::calib3d::CALIB_CB_ADAPTIVE_THRESH
        | opencv::calib3d::CALIB_CB_NORMALIZE_IMAGE
        | opencv::calib3d::CALIB_CB_FAST_CHECK;
    let size = photo.gray.size()?;
    let longest = size.width.max(size.height);
    let found = if longest > CHESSBOARD_SEARCH_PX {
        let scale = f64::from(CHESSBOARD_SEARCH_PX) / f64::from(longest);
        let mut small = Mat::default();
        opencv::imgproc::resize(
            &photo.gray,
            &mut small,
            Size::new(0, 0),
            scale,
            scale,
            opencv::imgproc::INTER_AREA,
        )?;
        let mut found_small = Vector::<Point2f>::new();
        let found =
            opencv::calib3d::find_chessboard_corners(&small, Size::new(cols, rows), &mut found_small, flags)?;
        // Pixel centres: (x + 0.5) / scale - 0.5 on the photo itself.
        let up = |v: f32| ((f64::from(v) + 0.5) / scale - 0.5) as f32;
        corners = found_small.iter().map(|p| Point2f::new(up(p.x), up(p.y))).collect();
        found
    } else {
        opencv::calib3d::find_chessboard_corners(&photo.gray, Size::new(cols, rows), &mut corners, flags)?
    };
    if !found {
        return Ok(None);
    }
    let criteria =
        TermCriteria::new(opencv::core::TermCriteria_COUNT + opencv::core::TermCriteria_EPS, 30, 1e-3)?;
    // The refinement window must stay inside one square: a quarter of the corner
    // spacing each side (OpenCV's sample uses 11, which on 640x480 photos reaches into
    // the neighbouring squares and doubles the RMS).
    let spacing = (1..corners.len())
        .filter(|i| i % cols as usize != 0)
        .filter_map(|i| Some((corners.get(i - 1).ok()?, corners.get(i).ok()?)))
        .map(|(a, b)| f64::from((a.x - b.x).hypot(a.y - b.y)))
        .sum::<f64>()
        / f64::from((cols - 1) * rows);
    let half = ((spacing * 0.25).round() as i32).clamp(2, 11);
    opencv::imgproc::corner_sub_pix(
        &photo.gray,
        &mut corners,
        Size::new(half, half),
        Size::new(-1, -1),
        criteria,
    )?;
    let mut object = Vector::<Point3f>::new();
    for r in 0..rows {
        for c in 0..cols {
            object.push(Point3f::new(
                (f64::from(c) * square_mm) as f32,
                (f64::from(r) * square_mm) as f32,
                0.0,
            ));
        }
    }
    Ok(Some(View { object, image: corners }))
}

fn charuco_view(
    photo: &Photo,
    board: &opencv::core::Ptr<opencv::aruco::CharucoBoard>,
    dictionary: Dictionary,
) -> Result<Option<View>, VisionError> {
    let mut corners = Vector::<Vector<Point2f>>::new();
    let mut ids = Vector::<i32>::new();
    let mut rejected = Vector::<Vector<Point2f>>::new();
    let params = opencv::aruco::DetectorParameters::create()?;
    opencv::aruco::detect_markers(
        &photo.gray,
        &dictionary.opencv()?,
        &mut corners,
        &mut ids,
        &params,
        &mut rejected,
    )?;
    if ids.len() < 4 {
        return Ok(None);
    }
    let mut ch_corners = Vector::<Point2f>::new();
    let mut ch_ids = Vector::<i32>::new();
    let n = opencv::aruco::interpolate_corners_charuco(
        &corners,
        &ids,
        &photo.gray,
        board,
        &mut ch_corners,
        &mut ch_ids,
        &opencv::core::no_array(),
        &opencv::core::no_array(),
        2,
    )?;
    if n < 6 {
        return Ok(None);
    }
    let all = board.chessboard_corners();
    let mut object = Vector::<Point3f>::new();
    for id in ch_ids.iter() {
        object.push(all.get(id.max(0) as usize)?);
    }
    Ok(Some(View { object, image: ch_corners }))
}

/// Calibrates a camera from photos of `pattern`. Photos where the pattern is not found
/// are skipped (and listed); at least three views are needed.
pub fn calibrate(photos: &[PathBuf], pattern: &Pattern) -> Result<Calibration, VisionError> {
    pattern.check()?;
    let board = match *pattern {
        Pattern::Charuco { squares_x, squares_y, square_mm, marker_mm, dictionary } => {
            Some(opencv::aruco::CharucoBoard::create(
                squares_x,
                squares_y,
                square_mm as f32,
                marker_mm as f32,
                &dictionary.opencv()?,
            )?)
        }
        Pattern::Chessboard { .. } => None,
    };
    let mut views = Vec::new();
    let mut used: Vec<PathBuf> = Vec::new();
    let mut skipped = Vec::new();
    let mut size: Option<Size> = None;
    for path in photos {
        let photo = Photo::load(path)?;
        let s = photo.gray.size()?;
        if let Some(first) = size
            && first != s
        {
            skipped.push((
                path.clone(),
                format!(
                    "{}x{} px, unlike the first photo's {}x{}",
                    s.width, s.height, first.width, first.height
                ),
            ));
            continue;
        }
        let view = match (*pattern, &board) {
            (Pattern::Chessboard { cols, rows, square_mm }, _) => {
                chessboard_view(&photo, cols, rows, square_mm)?
            }
            (Pattern::Charuco { dictionary, .. }, Some(b)) => charuco_view(&photo, b, dictionary)?,
            (Pattern::Charuco { .. }, None) => None,
        };
        match view {
            Some(v) => {
                if let Some(twin) = views.iter().position(|w| same_view(w, &v)) {
                    skipped.push((
                        path.clone(),
                        format!(
                            "the same view as {} (the board must be seen from different angles)",
                            used[twin].display()
                        ),
                    ));
                    continue;
                }
                size = Some(s);
                views.push(v);
                used.push(path.clone());
            }
            None => skipped.push((path.clone(), "pattern not found".to_string())),
        }
    }
    let Some(size) = size else {
        return Err(VisionError::Calibration {
            reason: format!("the {} was not found in any of the {} photos", pattern.describe(), photos.len()),
        });
    };
    if views.len() < 3 {
        return Err(VisionError::Calibration {
            reason: format!(
                "the pattern was found in only {} distinct view(s){}; at least 3 views at different angles are needed",
                views.len(),
                if skipped.iter().any(|(_, why)| why.starts_with("the same view")) {
                    " (photos of the same view count once)"
                } else {
                    ""
                }
            ),
        });
    }
    let object: Vector<Vector<Point3f>> = views.iter().map(|v| v.object.clone()).collect();
    let image: Vector<Vector<Point2f>> = views.iter().map(|v| v.image.clone()).collect();
    let mut k = Mat::default();
    let mut d = Mat::default();
    let mut rvecs = Vector::<Mat>::new();
    let mut tvecs = Vector::<Mat>::new();
    let criteria =
        TermCriteria::new(opencv::core::TermCriteria_COUNT + opencv::core::TermCriteria_EPS, 100, 1e-12)?;
    let rms = opencv::calib3d::calibrate_camera(
        &object, &image, size, &mut k, &mut d, &mut rvecs, &mut tvecs, 0, criteria,
    )?;
    let m = rows3(&k)?;
    let mut distortion = Vec::new();
    for i in 0..d.total() as i32 {
        distortion.push(*d.at::<f64>(i)?);
    }
    let (fx, fy, cx, cy) = (m[0][0], m[1][1], m[0][2], m[1][2]);
    let (w, h) = (f64::from(size.width), f64::from(size.height));
    let diagonal = w.hypot(h);
    let sane = [fx, fy, cx, cy].iter().all(|v| v.is_finite())
        && fx > 0.2 * diagonal
        && fx < 20.0 * diagonal
        && (fx / fy - 1.0).abs() < 0.2
        && (0.0..=w).contains(&cx)
        && (0.0..=h).contains(&cy);
    if !sane {
        return Err(VisionError::Calibration {
            reason: format!(
                "the views do not determine the lens (fx {fx:.0} px, fy {fy:.0} px, centre ({cx:.0}, {cy:.0}) for a {}x{} px photo): photograph the board tilted in different directions and at different places in the frame",
                size.width, size.height
            ),
        });
    }
    let intrinsics = Intrinsics {
        image_width: size.width.max(0) as u32,
        image_height: size.height.max(0) as u32,
        fx: m[0][0],
        fy: m[1][1],
        cx: m[0][2],
        cy: m[1][2],
        distortion,
    };
    Ok(Calibration { intrinsics, rms_px: rms, used, skipped, pattern: *pattern })
}

/// OpenCV's sample chessboard photos (`left01.jpg` ... `left09.jpg`, Debian package
/// `opencv-doc`), when installed.
#[must_use]
pub fn opencv_sample_photos() -> Option<Vec<PathBuf>> {
    let dir = Path::new("/usr/share/doc/opencv-doc/examples/data");
    let photos: Vec<PathBuf> = (1..=9).map(|i| dir.join(format!("left{i:02}.jpg"))).collect();
    photos.iter().all(|p| p.exists()).then_some(photos)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::camera::mat3;
    use opencv::aruco::CharucoBoardTrait;
    use opencv::core::Scalar;

    #[test]
    fn opencv_sample_chessboards_calibrate_below_half_a_pixel() {
        let Some(photos) = opencv_sample_photos() else {
            eprintln!(
                "SKIPPED: /usr/share/doc/opencv-doc/examples/data/left01..09.jpg not found (apt-get install opencv-doc)"
            );
            return;
        };
        let c = calibrate(&photos, &Pattern::Chessboard { cols: 9, rows: 6, square_mm: 25.0 }).unwrap();
        eprintln!("opencv-doc left01..09: RMS {:.4} px, {:?}", c.rms_px, c.intrinsics);
        assert!(c.rms_px < 0.5, "RMS {} px", c.rms_px);
        assert!(c.used.len() >= 8, "{:?}", c.skipped);
        assert!((c.intrinsics.fx - c.intrinsics.fy).abs() / c.intrinsics.fx < 0.02);
    }

    #[test]
    fn charuco_board_views_recover_the_focal_length() {
        let dict: Dictionary = "DICT_5X5_100".parse().unwrap();
        let mut board =
            opencv::aruco::CharucoBoard::create(7, 5, 30.0, 22.0, &dict.opencv().unwrap()).unwrap();
        let mut flat = Mat::default();
        // 7 x 5 squares of 30 mm drawn at 6 px/mm inside a 50 px margin.
        board.draw(Size::new(1360, 1000), &mut flat, 50, 1).unwrap();
        let px_per_mm = 6.0;
        let k = [[900.0, 0.0, 639.5], [0.0, 900.0, 479.5], [0.0, 0.0, 1.0]];
        let dir = tempfile::tempdir().unwrap();
        let mut photos = Vec::new();
        for (i, (ax, ay, z)) in [
            (0.3, 0.0, 450.0),
            (-0.3, 0.1, 420.0),
            (0.0, 0.35, 470.0),
            (0.2, -0.3, 430.0),
            (-0.2, -0.2, 400.0),
        ]
        .iter()
        .enumerate()
        {
            // Board plane (mm, centred) -> camera: rotation about x then y, at depth z.
            let (sx, cx) = f64::sin_cos(*ax);
            let (sy, cy) = f64::sin_cos(*ay);
            let r = [[cy, sx * sy, cx * sy], [0.0, cx, -sx], [-sy, sx * cy, cx * cy]];
            let t = [0.0, 0.0, *z];
            // board px -> board mm (centred): (u - 50) / s - 105, (v - 50) / s - 75.
            let b = [
                [1.0 / px_per_mm, 0.0, -50.0 / px_per_mm - 105.0],
                [0.0, 1.0 / px_per_mm, -50.0 / px_per_mm - 75.0],
                [0.0, 0.0, 1.0],
            ];
            let m = [[r[0][0], r[0][1], t[0]], [r[1][0], r[1][1], t[1]], [r[2][0], r[2][1], t[2]]];
            let mul = |a: [[f64; 3]; 3], b: [[f64; 3]; 3]| {
                let mut o = [[0.0; 3]; 3];
                for i in 0..3 {
                    for j in 0..3 {
                        o[i][j] = (0..3).map(|q| a[i][q] * b[q][j]).sum();
                    }
                }
                o
            };
            let h = mul(mul(k, m), b);
            let mut out = Mat::default();
            opencv::imgproc::warp_perspective(
                &flat,
                &mut out,
                &mat3(h).unwrap(),
                Size::new(1280, 960),
                opencv::imgproc::INTER_AREA,
                opencv::core::BORDER_CONSTANT,
                Scalar::all(255.0),
            )
            .unwrap();
            let p = dir.path().join(format!("view{i}.png"));
            let bytes = crate::photo::encode_image(&out, &p).unwrap();
            std::fs::write(&p, bytes).unwrap();
            photos.push(p);
        }
        let pattern = Pattern::Charuco {
            squares_x: 7,
            squares_y: 5,
            square_mm: 30.0,
            marker_mm: 22.0,
            dictionary: dict,
        };
        let c = calibrate(&photos, &pattern).unwrap();
        assert!(c.rms_px < 0.5, "RMS {}", c.rms_px);
        assert!((c.intrinsics.fx - 900.0).abs() < 20.0, "{:?}", c.intrinsics);
    }

    #[test]
    fn bad_patterns_and_photos_say_why() {
        let even = Pattern::Charuco {
            squares_x: 7,
            squares_y: 6,
            square_mm: 30.0,
            marker_mm: 22.0,
            dictionary: Dictionary::DEFAULT_TAGS,
        };
        let e = calibrate(&[], &even).unwrap_err().to_string();
        assert!(e.contains("odd number of rows"), "{e}");
        let dir = tempfile::tempdir().unwrap();
        let blank = dir.path().join("blank.png");
        let img =
            Mat::new_rows_cols_with_default(100, 100, opencv::core::CV_8UC3, Scalar::all(128.0)).unwrap();
        std::fs::write(&blank, crate::photo::encode_image(&img, &blank).unwrap()).unwrap();
        let e = calibrate(&[blank], &Pattern::Chessboard { cols: 9, rows: 6, square_mm: 25.0 })
            .unwrap_err()
            .to_string();
        assert!(e.contains("not found in any"), "{e}");
    }
}
