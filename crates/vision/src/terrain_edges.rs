//! Terrain edges placed where the colours are half and half (issue 19). A pixel's
//! label comes from the profile's reference colours, but a template is rarely its
//! reference colour under the photo's light (the battle sample's hill is 10-15 sRGB
//! units darker), and the bare table's two colours lie between the hill's and each
//! other's: across an edge blurred by the smoothing, the colour is nearer the other
//! side's reference until well past the edge, and the edge moves by a few mm. Near a
//! change of label each pixel here takes, of the labels on either side, the one whose
//! local colour (the mean over the nearby pixels of that label well away from any
//! edge) is nearest its own: the smoothing is symmetric, so that is the side of the
//! point where the colours are half and half, the true edge. Rims of blended colour
//! (a wood against the mat reads as a lighter wood) are no side: they have no pixels
//! away from an edge. Beside what stands on the table, where shadows darken a town
//! or a hill toward the mat's colour, a label a shadow is told from (see
//! `terrain_labels::Shade`) is not given away to one it is not.

use crate::error::VisionError;
use crate::terrain_labels::{MIN_FREE, half_res_neighbours};
use opencv::core::{Mat, Point, Rect, Scalar, Size, Vec4f};
use opencv::prelude::*;

/// How the edges are refined, in px of the rectified image.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct EdgeSettings {
    /// Pixels within this distance of a change of label are looked at again; pixels
    /// farther from every change give their label's local colour.
    pub band_px: f32,
    /// A label is a candidate for a pixel when some of its pixels that give its
    /// local colour lie within this distance (a square's half side).
    pub reach_px: i32,
    /// Local colours are means over a square of this half side.
    pub window_px: i32,
}

/// Where shadows may fall and the labels they are told from there.
pub(crate) struct Shadows<'a> {
    /// 255 within the reach of the shadows of what stands on the table.
    pub beside: &'a Mat,
    /// Per label (0 to the number of classes): true for the classes whose colour a
    /// shadow is told from.
    pub labels: &'a [bool],
}

/// A label's local colours over the part `roi` (cells) of the half-resolution grid.
struct Local {
    roi: Rect,
    /// Sums of B, G, R and the count of the label's pure cells over the window.
    mean: Mat,
    /// The count of its pure cells within reach.
    near: Mat,
}

/// One row of a label's [`Local`] colours.
struct LocalRow<'a> {
    label: u8,
    /// The first cell of the row.
    x0: i32,
    mean: &'a [Vec4f],
    near: &'a [f32],
}

/// Local colours are read only where at least this share of the smoothing kernel's
/// weight fell on free pixels (most of it: near what stands on the table the
/// smoothed colour is that of the few free pixels around).
const PURE_MIN_FREE: f32 = 0.6;
/// A label's local colour needs at least this many of its cells (2 x 2 px) in the
/// window.
const MIN_CELLS: f32 = 8.0;

/// Relabels the free pixels (`occupied` 0) of `area` near a change of label with the
/// label, of those whose pixels away from every change lie within `reach_px`, whose
/// local colour is nearest the pixel's smoothed colour (`coarse`: the half-resolution
/// sums of B, G, R and the count of free pixels, as `terrain_labels` smooths them).
/// Beside what stands on the table (`shadows`) a label a shadow is told from stays.
/// Returns the pixels relabelled or confirmed so (one flag per pixel in raster
/// order): their label is decided by their colour, not by those around them.
pub(crate) fn refine_edges(
    area: &mut Mat,
    coarse: &Mat,
    occupied: &Mat,
    shadows: &Shadows,
    settings: EdgeSettings,
) -> Result<Vec<bool>, VisionError> {
    let size = area.size()?;
    let (w, h) = (size.width, size.height);
    let n_labels = shadows.labels.len().saturating_sub(1);
    let (hw, hh) = (coarse.cols(), coarse.rows());
    let mut decided = vec![false; (w * h) as usize];
    // On the half-resolution grid (each cell labelled as its first pixel): 0 on each
    // cell next to one of another label, 255 elsewhere, and the distance to the
    // nearest 0, px.
    let mut apart = Mat::new_rows_cols_with_default(hh, hw, opencv::core::CV_8U, Scalar::all(255.0))?;
    {
        let mut grid = vec![0u8; (hw * hh) as usize];
        for (j, row) in grid.chunks_mut(hw as usize).enumerate() {
            let labels = area.at_row::<u8>((2 * j as i32).min(h - 1))?;
            for (i, v) in row.iter_mut().enumerate() {
                *v = labels[(2 * i).min(w as usize - 1)];
            }
        }
        let out = apart.data_bytes_mut()?;
        let (wu, n) = (hw as usize, grid.len());
        for i in 0..n {
            if i % wu + 1 < wu && grid[i + 1] != grid[i] {
                out[i] = 0;
                out[i + 1] = 0;
            }
            if i + wu < n && grid[i + wu] != grid[i] {
                out[i] = 0;
                out[i + wu] = 0;
            }
        }
    }
    let mut to_change = Mat::default();
    opencv::imgproc::distance_transform_def(&apart, &mut to_change, opencv::imgproc::DIST_L2, 3)?;
    // Cells are 2 px apart, and a cell stands for the 2 x 2 px it covers.
    let to_change_px = {
        let mut px = Mat::default();
        opencv::core::multiply_def(&to_change, &Scalar::all(2.0), &mut px)?;
        px
    };
    // The cells (2 x 2 px, as `coarse`) that give their label's local colour: every
    // pixel of the cell free, the cell beyond the band, the smoothing mostly on free
    // pixels.
    let mut pure: Vec<Option<(u8, [f32; 3])>> = vec![None; (hw * hh) as usize];
    // Per label, the box of its pure cells (x0, y0, x1, y1), cells.
    let mut boxes: Vec<Option<(i32, i32, i32, i32)>> = vec![None; n_labels + 1];
    for j in 0..hh {
        let sums = coarse.at_row::<Vec4f>(j)?;
        let d = to_change_px.at_row::<f32>(j)?;
        let rows = [(2 * j).min(h - 1), (2 * j + 1).min(h - 1)];
        let (l0, o0, o1) =
            (area.at_row::<u8>(rows[0])?, occupied.at_row::<u8>(rows[0])?, occupied.at_row::<u8>(rows[1])?);
        for i in 0..hw {
            let cols = [(2 * i).min(w - 1) as usize, (2 * i + 1).min(w - 1) as usize];
            let v = sums[i as usize];
            let clear = d[i as usize] > settings.band_px && cols.iter().all(|&c| o0[c] == 0 && o1[c] == 0);
            let label = l0[cols[0]];
            if clear && v[3] / 4.0 >= PURE_MIN_FREE && usize::from(label) <= n_labels {
                pure[(j * hw + i) as usize] = Some((label, [v[0] / v[3], v[1] / v[3], v[2] / v[3]]));
                let b = &mut boxes[usize::from(label)];
                *b = Some(match *b {
                    None => (i, j, i + 1, j + 1),
                    Some((x0, y0, x1, y1)) => (x0.min(i), y0.min(j), x1.max(i + 1), y1.max(j + 1)),
                });
            }
        }
    }
    // Per label, over the box of its pure cells and the window around it: the sums of
    // its pure cells' colours and their count over the window, and their count within
    // reach.
    let cells = |px: i32| (px + 1) / 2;
    let margin = cells(settings.window_px.max(settings.reach_px));
    let mut local: Vec<Option<Local>> = Vec::with_capacity(n_labels + 1);
    for (label, found) in boxes.iter().enumerate() {
        let Some((x0, y0, x1, y1)) = *found else {
            local.push(None);
            continue;
        };
        let roi = Rect::new(
            (x0 - margin).max(0),
            (y0 - margin).max(0),
            (x1 + margin).min(hw) - (x0 - margin).max(0),
            (y1 + margin).min(hh) - (y0 - margin).max(0),
        );
        let mut one =
            Mat::new_rows_cols_with_default(roi.height, roi.width, opencv::core::CV_32FC4, Scalar::all(0.0))?;
        for j in 0..roi.height {
            let row = one.at_row_mut::<Vec4f>(j)?;
            let src = &pure[((roi.y + j) * hw + roi.x) as usize..][..roi.width as usize];
            for (v, p) in row.iter_mut().zip(src) {
                if let Some((l, c)) = p
                    && usize::from(*l) == label
                {
                    *v = Vec4f::from([c[0], c[1], c[2], 1.0]);
                }
            }
        }
        let square = |half: i32| Size::new(2 * cells(half) + 1, 2 * cells(half) + 1);
        let mut mean = Mat::default();
        opencv::imgproc::box_filter(
            &one,
            &mut mean,
            -1,
            square(settings.window_px),
            Point::new(-1, -1),
            false,
            opencv::core::BORDER_CONSTANT,
        )?;
        let mut count = Mat::default();
        opencv::core::extract_channel(&one, &mut count, 3)?;
        let mut near = Mat::default();
        opencv::imgproc::box_filter(
            &count,
            &mut near,
            -1,
            square(settings.reach_px),
            Point::new(-1, -1),
            false,
            opencv::core::BORDER_CONSTANT,
        )?;
        local.push(Some(Local { roi, mean, near }));
    }
    for r in 0..h {
        let (j0, j1, t) = half_res_neighbours(r, hh);
        let (c0, c1) = (coarse.at_row::<Vec4f>(j0)?, coarse.at_row::<Vec4f>(j1)?);
        let d = to_change_px.at_row::<f32>((r / 2).min(hh - 1))?.to_vec();
        let occ = occupied.at_row::<u8>(r)?.to_vec();
        let beside = shadows.beside.at_row::<u8>(r)?.to_vec();
        let cell_row = (r / 2).min(hh - 1);
        // The labels whose box holds this row: their rows of means and counts.
        let mut rows: Vec<LocalRow> = Vec::new();
        for (l, found) in local.iter().enumerate() {
            if let Some(lc) = found
                && (lc.roi.y..lc.roi.y + lc.roi.height).contains(&cell_row)
            {
                let jr = cell_row - lc.roi.y;
                rows.push(LocalRow {
                    label: l as u8,
                    x0: lc.roi.x,
                    mean: lc.mean.at_row::<Vec4f>(jr)?,
                    near: lc.near.at_row::<f32>(jr)?,
                });
            }
        }
        if rows.len() < 2 {
            continue;
        }
        let out = area.at_row_mut::<u8>(r)?;
        for c in 0..w {
            let cu = c as usize;
            if d[(cu / 2).min(hw as usize - 1)] > settings.band_px || occ[cu] != 0 {
                continue;
            }
            let (i0, i1, s) = half_res_neighbours(c, hw);
            let (a0, a1, b0, b1) = (c0[i0 as usize], c0[i1 as usize], c1[i0 as usize], c1[i1 as usize]);
            let v: [f32; 4] = std::array::from_fn(|k| {
                let top = a0[k] + (a1[k] - a0[k]) * s;
                let bottom = b0[k] + (b1[k] - b0[k]) * s;
                top + (bottom - top) * t
            });
            // Beside what stands on the table the smoothed colour is that of fewer
            // free pixels, but of those nearest the pixel: it is read wherever
            // `classify` reads one (the notches a base's mask left in a town's edge
            // beside it are where the edge is decided).
            if v[3] / 4.0 < MIN_FREE {
                continue;
            }
            let colour = [v[0] / v[3], v[1] / v[3], v[2] / v[3]];
            let cell = (c / 2).min(hw - 1);
            let mut best: Option<(u8, f32)> = None;
            let mut candidates = 0;
            for lr in &rows {
                let Some(k) = usize::try_from(cell - lr.x0).ok().filter(|&k| k < lr.mean.len()) else {
                    continue;
                };
                let m = lr.mean[k];
                if lr.near[k] < 1.0 || m[3] < MIN_CELLS {
                    continue;
                }
                candidates += 1;
                let d2: f32 = (0..3).map(|q| (colour[q] - m[q] / m[3]).powi(2)).sum();
                if best.is_none_or(|(_, b)| d2 < b) {
                    best = Some((lr.label, d2));
                }
            }
            let Some((l, _)) = best else { continue };
            // A shadow darkens a town or a hill toward the mat's colour, never the
            // mat toward theirs: beside what stands on the table such a label is not
            // given away to one a shadow is not told from.
            let told = |label: u8| shadows.labels.get(usize::from(label)).copied().unwrap_or(false);
            if candidates >= 2 && !(beside[cu] != 0 && told(out[cu]) && !told(l)) {
                out[cu] = l;
                decided[r as usize * w as usize + cu] = true;
            }
        }
    }
    Ok(decided)
}
