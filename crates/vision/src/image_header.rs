//! What a photo file claims to be, read from its first bytes before anything is decoded:
//! the format, the pixel dimensions and whether the file is complete. A file that is
//! empty, not an image, too large to hold in memory, or cut short is refused with a
//! reason a player can act on, instead of an OpenCV assertion or a decoder that
//! allocates what the header claims.

/// The most pixels a photo may have: 200 megapixels (a 16-bit-per-channel 200 MP photo
/// already needs 1.2 GB; phone photos are 12-50 MP).
pub const MAX_PIXELS: u64 = 200_000_000;

/// The image formats vedette reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImageFormat {
    /// JPEG (JFIF or EXIF).
    Jpeg,
    /// PNG.
    Png,
    /// TIFF (either byte order).
    Tiff,
    /// Windows bitmap.
    Bmp,
    /// WebP.
    Webp,
}

/// What the header says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ImageHeader {
    /// The format.
    pub format: ImageFormat,
    /// Width and height in px, when the header gives them (TIFF: left to the decoder).
    pub size: Option<(u64, u64)>,
}

/// Reads the format and size of an image file's bytes and checks that it can be decoded
/// safely; the error is the reason, for [`crate::VisionError::UnreadableImage`].
pub fn check_image(bytes: &[u8]) -> Result<ImageHeader, String> {
    if bytes.is_empty() {
        return Err("the file is empty (0 bytes)".to_string());
    }
    let header = if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
        ImageHeader { format: ImageFormat::Jpeg, size: Some(jpeg(bytes)?) }
    } else if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        ImageHeader { format: ImageFormat::Png, size: Some(png(bytes)?) }
    } else if bytes.starts_with(b"II*\0") || bytes.starts_with(b"MM\0*") {
        ImageHeader { format: ImageFormat::Tiff, size: None }
    } else if bytes.starts_with(b"BM") && bytes.len() >= 26 {
        let w = i32::from_le_bytes([bytes[18], bytes[19], bytes[20], bytes[21]]).unsigned_abs();
        let h = i32::from_le_bytes([bytes[22], bytes[23], bytes[24], bytes[25]]).unsigned_abs();
        ImageHeader { format: ImageFormat::Bmp, size: Some((u64::from(w), u64::from(h))) }
    } else if bytes.len() >= 12 && &bytes[..4] == b"RIFF" && &bytes[8..12] == b"WEBP" {
        ImageHeader { format: ImageFormat::Webp, size: webp(bytes) }
    } else {
        return Err(format!(
            "not a JPEG, PNG, TIFF, BMP or WebP image ({} bytes starting {})",
            bytes.len(),
            bytes.iter().take(8).map(|b| format!("{b:02x}")).collect::<Vec<_>>().join(" ")
        ));
    };
    if let Some((w, h)) = header.size {
        if w == 0 || h == 0 {
            return Err(format!("the header claims a {w}x{h} px image"));
        }
        let pixels = w.saturating_mul(h);
        if pixels > MAX_PIXELS {
            return Err(format!(
                "the image is {w}x{h} px ({:.0} megapixels); a photo may have at most {} megapixels (scale it down)",
                pixels as f64 / 1e6,
                MAX_PIXELS / 1_000_000
            ));
        }
    }
    Ok(header)
}

/// PNG: the IHDR chunk gives the size; a complete file ends with an IEND chunk.
fn png(bytes: &[u8]) -> Result<(u64, u64), String> {
    if bytes.len() < 24 || &bytes[12..16] != b"IHDR" {
        return Err("a PNG file without its header chunk (damaged or cut short)".to_string());
    }
    let w = u32::from_be_bytes([bytes[16], bytes[17], bytes[18], bytes[19]]);
    let h = u32::from_be_bytes([bytes[20], bytes[21], bytes[22], bytes[23]]);
    let tail = &bytes[bytes.len().saturating_sub(64)..];
    if !tail.windows(4).any(|w| w == b"IEND") {
        return Err(format!(
            "the PNG file is cut short ({} bytes, no end chunk): copy it again",
            bytes.len()
        ));
    }
    Ok((u64::from(w), u64::from(h)))
}

/// JPEG: walks the marker segments to the frame header (SOFn) for the size and to the
/// first scan; the scan's entropy-coded data cannot contain an end-of-image marker
/// (0xFFD9) except the real one, so a file without one after its first scan is cut short.
fn jpeg(bytes: &[u8]) -> Result<(u64, u64), String> {
    let cut =
        || format!("the JPEG file is cut short ({} bytes, no end of image): copy it again", bytes.len());
    let mut i = 2;
    let mut size = None;
    loop {
        // Markers may be preceded by fill bytes 0xFF.
        while i < bytes.len() && bytes[i] == 0xFF && bytes.get(i + 1) == Some(&0xFF) {
            i += 1;
        }
        if i + 4 > bytes.len() {
            return Err(cut());
        }
        if bytes[i] != 0xFF {
            return Err("a damaged JPEG file (no marker where one should be)".to_string());
        }
        let marker = bytes[i + 1];
        if marker == 0xD8 || (0xD0..=0xD7).contains(&marker) || marker == 0x01 {
            i += 2;
            continue;
        }
        let len = usize::from(u16::from_be_bytes([bytes[i + 2], bytes[i + 3]]));
        if len < 2 {
            return Err("a damaged JPEG file (a segment of impossible length)".to_string());
        }
        let is_frame = matches!(marker, 0xC0..=0xCF) && !matches!(marker, 0xC4 | 0xC8 | 0xCC);
        if is_frame {
            if i + 9 > bytes.len() {
                return Err(cut());
            }
            let h = u16::from_be_bytes([bytes[i + 5], bytes[i + 6]]);
            let w = u16::from_be_bytes([bytes[i + 7], bytes[i + 8]]);
            size = Some((u64::from(w), u64::from(h)));
        }
        if marker == 0xDA {
            let Some(size) = size else {
                return Err("a damaged JPEG file (image data before the frame header)".to_string());
            };
            let data = bytes.get(i + 2 + len..).unwrap_or(&[]);
            if !data.windows(2).any(|w| w == [0xFF, 0xD9]) {
                return Err(cut());
            }
            return Ok(size);
        }
        if marker == 0xD9 {
            return Err("a JPEG file that ends before its image data".to_string());
        }
        i += 2 + len;
    }
}

/// WebP: the size of a simple lossy (VP8), lossless (VP8L) or extended (VP8X) file.
fn webp(bytes: &[u8]) -> Option<(u64, u64)> {
    let chunk = bytes.get(12..16)?;
    let b = |i: usize| bytes.get(i).copied().map(u64::from);
    match chunk {
        b"VP8 " => {
            let w = (b(26)? | b(27)? << 8) & 0x3FFF;
            let h = (b(28)? | b(29)? << 8) & 0x3FFF;
            Some((w, h))
        }
        b"VP8L" => {
            let bits = b(21)? | b(22)? << 8 | b(23)? << 16 | b(24)? << 24;
            Some(((bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1))
        }
        b"VP8X" => {
            let w = (b(24)? | b(25)? << 8 | b(26)? << 16) + 1;
            let h = (b(27)? | b(28)? << 8 | b(29)? << 16) + 1;
            Some((w, h))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A PNG header claiming `w`x`h` px, with an end chunk.
    fn png_claiming(w: u32, h: u32) -> Vec<u8> {
        let mut v = b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR".to_vec();
        v.extend(w.to_be_bytes());
        v.extend(h.to_be_bytes());
        v.extend([8, 2, 0, 0, 0, 0, 0, 0, 0]);
        v.extend(b"\0\0\0\0IEND\xaeB`\x82");
        v
    }

    /// A minimal JPEG skeleton: SOI, an APP1 holding a thumbnail's own EOI, SOF0, SOS,
    /// entropy data, and (when `complete`) EOI.
    fn jpeg_claiming(w: u16, h: u16, complete: bool) -> Vec<u8> {
        let mut v = vec![0xFF, 0xD8];
        v.extend([0xFF, 0xE1, 0x00, 0x06, 0xFF, 0xD8, 0xFF, 0xD9]);
        v.extend([0xFF, 0xC0, 0x00, 0x0B, 8]);
        v.extend(h.to_be_bytes());
        v.extend(w.to_be_bytes());
        v.extend([1, 1, 0x11, 0]);
        v.extend([0xFF, 0xDA, 0x00, 0x08, 1, 1, 0, 0, 63, 0]);
        v.extend([0x12, 0xFF, 0x00, 0x34, 0xFF, 0xD0, 0x56]);
        if complete {
            v.extend([0xFF, 0xD9]);
        }
        v
    }

    #[test]
    fn sizes_are_read_from_headers() {
        assert_eq!(check_image(&png_claiming(4000, 3000)).unwrap().size, Some((4000, 3000)));
        let j = check_image(&jpeg_claiming(4032, 3024, true)).unwrap();
        assert_eq!((j.format, j.size), (ImageFormat::Jpeg, Some((4032, 3024))));
    }

    #[test]
    fn a_pixel_bomb_is_refused_before_decoding() {
        let e = check_image(&png_claiming(20_000, 20_000)).unwrap_err();
        assert!(e.contains("20000x20000") && e.contains("400 megapixels"), "{e}");
        // Just inside the limit.
        assert!(check_image(&png_claiming(20_000, 10_000)).is_ok());
        assert!(check_image(&png_claiming(20_000, 10_001)).is_err());
        assert!(check_image(&jpeg_claiming(65_535, 65_535, true)).is_err());
    }

    #[test]
    fn empty_foreign_and_cut_files_say_so() {
        assert!(check_image(&[]).unwrap_err().contains("empty"));
        assert!(check_image(b"GIF89a....").unwrap_err().contains("not a JPEG, PNG"));
        // The thumbnail's end marker inside APP1 does not count: the main scan has none.
        assert!(check_image(&jpeg_claiming(100, 100, false)).unwrap_err().contains("cut short"));
        let mut png = png_claiming(100, 100);
        png.truncate(30);
        assert!(check_image(&png).unwrap_err().contains("cut short"));
        let full = jpeg_claiming(100, 100, true);
        for n in [3, 10, 20] {
            assert!(check_image(&full[..n]).is_err(), "{n} bytes");
        }
    }
}
