//! Reading photos and writing images.

use crate::error::VisionError;
use crate::image_header::{MAX_PIXELS, check_image};
use opencv::core::{Mat, MatTraitConst, Vector, VectorToVec};
use std::path::Path;

/// A photo in memory: the colour image (BGR, as OpenCV keeps it) and its grey version.
#[derive(Debug)]
pub struct Photo {
    /// The colour image, BGR 8-bit.
    pub color: Mat,
    /// The grey image the detectors work on.
    pub gray: Mat,
}

impl Photo {
    /// Reads a photo (JPEG, PNG, TIFF, ... whatever OpenCV reads).
    pub fn load(path: impl AsRef<Path>) -> Result<Photo, VisionError> {
        let path = path.as_ref();
        let unreadable =
            |reason: String| VisionError::UnreadableImage { path: path.display().to_string(), reason };
        let bytes = std::fs::read(path).map_err(|e| unreadable(e.to_string()))?;
        let header = check_image(&bytes).map_err(unreadable)?;
        let buf: Vector<u8> = Vector::from_slice(&bytes);
        let damaged = || {
            unreadable(format!(
                "a {:?} file of {} bytes that cannot be decoded (damaged?)",
                header.format,
                bytes.len()
            ))
        };
        let color =
            opencv::imgcodecs::imdecode(&buf, opencv::imgcodecs::IMREAD_COLOR).map_err(|_| damaged())?;
        if color.empty() {
            return Err(damaged());
        }
        let decoded = (color.cols().max(0) as u64).saturating_mul(color.rows().max(0) as u64);
        if decoded > MAX_PIXELS {
            return Err(unreadable(format!(
                "the image has {decoded} px; a photo may have at most {MAX_PIXELS}"
            )));
        }
        Photo::from_color(color)
    }

    /// A photo from a BGR image.
    pub fn from_color(color: Mat) -> Result<Photo, VisionError> {
        let mut gray = Mat::default();
        opencv::imgproc::cvt_color_def(&color, &mut gray, opencv::imgproc::COLOR_BGR2GRAY)?;
        Ok(Photo { color, gray })
    }

    /// Width and height, px.
    pub fn size(&self) -> Result<(u32, u32), VisionError> {
        let s = self.gray.size()?;
        Ok((s.width.max(0) as u32, s.height.max(0) as u32))
    }
}

/// The JPEG quality the pictures are written at (OpenCV's scale, 0-100).
pub const JPEG_QUALITY: i32 = 85;

/// Encodes an image for a file name's extension: PNG, JPEG (quality [`JPEG_QUALITY`]),
/// TIFF or BMP, for writing atomically by the caller.
pub fn encode_image(img: &Mat, file_name: &Path) -> Result<Vec<u8>, VisionError> {
    let ext = file_name.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase).unwrap_or_default();
    let ext = match ext.as_str() {
        "jpg" | "jpeg" => ".jpg",
        "png" | "" => ".png",
        "tif" | "tiff" => ".tif",
        "bmp" => ".bmp",
        other => {
            return Err(VisionError::Encode {
                what: file_name.display().to_string(),
                reason: format!("unknown image type '.{other}' (use .png or .jpg)"),
            });
        }
    };
    let mut buf = Vector::<u8>::new();
    let params: Vector<i32> = match ext {
        // Fast compression: overlays are large and only looked at.
        ".png" => vec![opencv::imgcodecs::IMWRITE_PNG_COMPRESSION, 1].into(),
        // Quality 85 (OpenCV's default is 95): a third of the bytes, and the pictures
        // are shared in chats and forums (issue 39).
        ".jpg" => vec![opencv::imgcodecs::IMWRITE_JPEG_QUALITY, JPEG_QUALITY].into(),
        _ => Vector::new(),
    };
    let ok = opencv::imgcodecs::imencode(ext, img, &mut buf, &params)?;
    if !ok {
        return Err(VisionError::Encode {
            what: file_name.display().to_string(),
            reason: "OpenCV refused".into(),
        });
    }
    Ok(buf.to_vec())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unreadable_images_say_why() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("nope.jpg");
        let e = Photo::load(&missing).unwrap_err().to_string();
        assert!(e.contains("nope.jpg"), "{e}");
        let junk = dir.path().join("junk.jpg");
        std::fs::write(&junk, b"this is not a jpeg").unwrap();
        let e = Photo::load(&junk).unwrap_err().to_string();
        assert!(e.contains("junk.jpg") && e.contains("not a JPEG, PNG"), "{e}");
    }

    /// A JPEG's bytes with an Exif segment holding only `orientation` (TIFF tag 0x0112)
    /// put right after its start marker, as a phone's camera writes it.
    fn with_orientation(jpeg: &[u8], orientation: u16) -> Vec<u8> {
        // "Exif\0\0", then a big-endian TIFF header, one IFD with one SHORT entry.
        let mut tiff = b"MM\0\x2a\0\0\0\x08\0\x01\x01\x12\0\x03\0\0\0\x01".to_vec();
        tiff.extend(orientation.to_be_bytes());
        tiff.extend([0, 0, 0, 0, 0, 0]);
        let mut app1 = b"Exif\0\0".to_vec();
        app1.extend(tiff);
        let len = u16::try_from(app1.len() + 2).unwrap().to_be_bytes();
        let mut out = jpeg[..2].to_vec();
        out.extend([0xFF, 0xE1, len[0], len[1]]);
        out.extend(app1);
        out.extend(&jpeg[2..]);
        out
    }

    /// Mean absolute difference of two grey images of one size, grey levels.
    fn mean_difference(a: &Mat, b: &Mat) -> f64 {
        let mut d = Mat::default();
        opencv::core::absdiff(a, b, &mut d).unwrap();
        opencv::core::mean_def(&d).unwrap()[0]
    }

    #[test]
    fn a_photo_stored_sideways_with_its_exif_orientation_reads_upright() {
        // A phone held upright stores its pixels sideways and says so in the Exif
        // orientation tag; the scan must see the photo as it was taken. The sample
        // photo turned by each orientation's inverse, then tagged: read back upright.
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples/photos");
        let upright = Photo::load(root.join("skirmish.jpg")).unwrap();
        let dir = tempfile::tempdir().unwrap();
        // Orientation 6: shown turned 90° clockwise, so stored turned 90° counter-clockwise;
        // 8 the other way; 3 upside down.
        for (orientation, stored_as) in [
            (6, opencv::core::ROTATE_90_COUNTERCLOCKWISE),
            (8, opencv::core::ROTATE_90_CLOCKWISE),
            (3, opencv::core::ROTATE_180),
        ] {
            let mut turned = Mat::default();
            opencv::core::rotate(&upright.color, &mut turned, stored_as).unwrap();
            let jpeg = encode_image(&turned, Path::new("x.jpg")).unwrap();
            let path = dir.path().join(format!("sideways-{orientation}.jpg"));
            std::fs::write(&path, with_orientation(&jpeg, orientation)).unwrap();
            let read = Photo::load(&path).unwrap();
            assert_eq!(read.size().unwrap(), upright.size().unwrap(), "orientation {orientation}");
            // Equal up to the JPEG re-encoding's noise; a photo read sideways or upside
            // down differs by tens of grey levels.
            let d = mean_difference(&read.gray, &upright.gray);
            assert!(d < 2.0, "orientation {orientation}: mean difference {d:.2} grey levels");
        }
        // The sample shipped for the browser test (samples/photos/skirmish-sideways.jpg,
        // REGENERATE=1 writes it again) is such a photo.
        let shipped = root.join("skirmish-sideways.jpg");
        if std::env::var("REGENERATE").is_ok_and(|v| v == "1") {
            let mut turned = Mat::default();
            opencv::core::rotate(&upright.color, &mut turned, opencv::core::ROTATE_90_COUNTERCLOCKWISE)
                .unwrap();
            let jpeg = encode_image(&turned, Path::new("x.jpg")).unwrap();
            std::fs::write(&shipped, with_orientation(&jpeg, 6)).unwrap();
        }
        let bytes = std::fs::read(&shipped).unwrap();
        assert_eq!(
            crate::image_header::check_image(&bytes).unwrap().size,
            Some((3000, 4000)),
            "stored sideways"
        );
        let read = Photo::load(&shipped).unwrap();
        assert_eq!(read.size().unwrap(), (4000, 3000));
        assert!(mean_difference(&read.gray, &upright.gray) < 2.0);
    }
}
