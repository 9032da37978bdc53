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
}
