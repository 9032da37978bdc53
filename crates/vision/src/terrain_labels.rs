//! The terrain label images (issue 19): each pixel of the rectified, colour-corrected
//! table image takes the terrain class whose colour it has. Areas are decided on
//! colours smoothed over a few mm (templates are blotchy), then a majority vote over a
//! few mm more removes what is left of the blotches; lines (walls, hedges, streams,
//! roads) are looked for on lightly smoothed colours, apart, so that a light blotch of
//! a grey town does not become a wall and leave a hole in the town. What stands on the
//! table takes the labels of the nearest free pixels (a wood under a battalion is
//! still one wood). Near a change of label the area labels are then decided by the
//! colours of either side nearby (`terrain_edges`).

use crate::error::VisionError;
use crate::palette::blank_mask;
use crate::rectify::Rectified;
use crate::terrain::TerrainClass;
use crate::terrain_edges::{EdgeSettings, Shadows, refine_edges};
use opencv::core::{Mat, Point, Scalar, Size, Vec3b, Vec4f};
use opencv::prelude::*;

/// Label 0 is the bare table; label `k + 1` the class `k` of the profile.
#[derive(Debug)]
pub(crate) struct Labels {
    /// The area classes (linear classes never appear here).
    pub area: Mat,
    /// The linear classes (0 elsewhere).
    pub line: Mat,
}

/// How the colours are smoothed, shadows told from templates and the labels voted,
/// in px of the rectified image.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct LabelSettings {
    /// Standard deviation of the Gaussian the area colours are smoothed with.
    pub area_px: f64,
    /// The same for the linear classes' colours.
    pub line_px: f64,
    /// Half side of the square over which area labels are voted (0: no vote).
    pub vote_px: i32,
    /// The ring beside what stands on the table where its shadows fall: its width.
    pub shadow_reach_px: i32,
    /// A patch of an area class smaller than this (px²) with more than
    /// `shadow_share` of it in that ring is a shadow (or the lit ground between
    /// figures), not a template: it takes the labels around it.
    pub shadow_max_px2: f64,
    /// See `shadow_max_px2`.
    pub shadow_share: f64,
    /// Parts of an area class, or of bare table, narrower than twice this (a disc
    /// of this radius does not fit in them) are the blend of the colours on either
    /// side of an edge, not a template: they take the labels around them (0: kept).
    pub rim_px: i32,
    /// Edges placed where the colours are half and half (`None`: where the labels
    /// put them).
    pub edges: Option<EdgeSettings>,
}

/// Smoothed colours are only trusted where at least this share of the kernel's
/// weight fell on free pixels.
pub(crate) const MIN_FREE: f32 = 0.05;
/// A half-resolution cell with too few free pixels to be labelled.
const UNSURE: u8 = u8::MAX;

/// Labels the image `rect` outside `occupied` with `classes` (nearest colour within
/// each class's tolerance) against the bare table's `ground` colours (nearest colour
/// at any distance gives label 0). Linear classes are looked for on `line_image`
/// (`rect`'s pixels as the colour correction left them, before the light learned from
/// the mat is divided out: see `terrain_light`).
pub(crate) fn classify(
    rect: &Rectified,
    line_image: &Mat,
    occupied: &Mat,
    classes: &[TerrainClass],
    ground: &[[u8; 3]],
    settings: LabelSettings,
) -> Result<Labels, VisionError> {
    let (w, h) = rect.size()?;
    let coarse = coarse_colours(rect, occupied, settings.area_px)?;
    // Within the reach of an occupied pixel: the distance to the nearest one (a
    // distance transform, where a dilation by a disc that large is slow).
    let mut free = Mat::default();
    opencv::core::compare(occupied, &Scalar::all(0.0), &mut free, opencv::core::CMP_EQ)?;
    let mut to_occupied = Mat::default();
    opencv::imgproc::distance_transform_def(&free, &mut to_occupied, opencv::imgproc::DIST_L2, 5)?;
    let mut beside = Mat::default();
    opencv::core::compare(
        &to_occupied,
        &Scalar::all(f64::from(settings.shadow_reach_px) + 0.5),
        &mut beside,
        opencv::core::CMP_LE,
    )?;
    let shade = Shade::new(classes, ground);
    let any_linear = classes.iter().any(TerrainClass::is_linear);
    let fine = if any_linear { Some(fine_colours(line_image, occupied, settings.line_px)?) } else { None };
    // References in B, G, R as the image.
    let bgr = |c: [u8; 3]| [f32::from(c[2]), f32::from(c[1]), f32::from(c[0])];
    let areas: Vec<Reference> = classes
        .iter()
        .enumerate()
        .filter(|(_, c)| !c.is_linear())
        .map(|(k, c)| Reference {
            label: k as u8 + 1,
            bgr: bgr(c.colour),
            tol2: (c.tolerance * c.tolerance) as f32,
        })
        .chain(ground.iter().map(|g| Reference { label: 0, bgr: bgr(*g), tol2: f32::INFINITY }))
        .collect();
    let lines: Vec<Reference> = classes
        .iter()
        .enumerate()
        .filter(|(_, c)| c.is_linear())
        .map(|(k, c)| Reference {
            label: k as u8 + 1,
            bgr: bgr(c.colour),
            tol2: (c.tolerance * c.tolerance) as f32,
        })
        .collect();
    // Lines are told from the bare table by colour, from area classes by shape (the
    // templates of area classes of a colour near theirs are no place for them, see
    // `terrain::segment`): a road's blotches stray towards a hill's colour.
    let everything: Vec<Reference> = areas.iter().filter(|a| a.label == 0).chain(&lines).copied().collect();
    let mut is_line = [false; 256];
    for l in &lines {
        is_line[usize::from(l.label)] = true;
    }
    let mut area = blank_mask(h, w)?;
    let mut line = blank_mask(h, w)?;
    let n = (w * h) as usize;
    let mut assigned = vec![false; n];
    let (hw, hh) = (coarse.cols(), coarse.rows());
    // Each cell of the half-resolution grid labelled first: a pixel between four cells
    // of one label has it too (a class's colours within its tolerance and nearer it
    // than any other are a convex set, and the pixel's colour is a weighted mean of
    // the four cells'; the bare table's colours are not a convex set, but a pixel
    // between four bare cells would have to fall into a class's set narrower than the
    // cells' spread), so only pixels near a change of label are labelled one by one.
    // Cells in the shadows' reach are labelled as such pixels are (see `Shade`), and
    // a pixel is taken from four cells only when it and they are all in it or all
    // out of it.
    let mut cells = vec![UNSURE; (hw * hh) as usize];
    let mut cells_shaded = vec![false; (hw * hh) as usize];
    for (j, (row, shaded_row)) in
        cells.chunks_mut(hw as usize).zip(cells_shaded.chunks_mut(hw as usize)).enumerate()
    {
        let band = beside.at_row::<u8>((2 * j as i32).min(h - 1))?;
        for (i, (cell, v)) in row.iter_mut().zip(coarse.at_row::<Vec4f>(j as i32)?).enumerate() {
            let in_shade = shade.active && band[(2 * i).min(w as usize - 1)] != 0;
            shaded_row[i] = in_shade;
            if v[3] / 4.0 >= MIN_FREE {
                let colour = [v[0] / v[3], v[1] / v[3], v[2] / v[3]];
                let area_here = nearest(&areas, colour);
                // Where the smoothed colour is a line's, each pixel is looked at.
                *cell = match nearest(&everything, colour) {
                    Some((l, _)) if is_line[usize::from(l)] => UNSURE,
                    _ => area_here.map_or(0, |(l, _)| l),
                };
                if in_shade && *cell != UNSURE && v[3] / 4.0 >= SHADE_MIN_FREE {
                    *cell = shade.relabel(colour, *cell);
                }
            }
        }
    }
    let line_tol: Vec<f32> = lines.iter().map(|l| l.tol2.sqrt()).collect();
    let mut row_buf = vec![Vec4f::default(); hw as usize];
    for r in 0..h {
        // The coarse colours are on a grid of half the resolution: interpolated
        // between its rows, then between its columns.
        let (j0, j1, t) = half_res_neighbours(r, hh);
        let (c0, c1) = (coarse.at_row::<Vec4f>(j0)?, coarse.at_row::<Vec4f>(j1)?);
        for (b, (a, z)) in row_buf.iter_mut().zip(c0.iter().zip(c1)) {
            *b = Vec4f::from(std::array::from_fn(|k| a[k] + (z[k] - a[k]) * t));
        }
        let (cells0, cells1) =
            (&cells[(j0 * hw) as usize..][..hw as usize], &cells[(j1 * hw) as usize..][..hw as usize]);
        let (shaded0, shaded1) = (
            &cells_shaded[(j0 * hw) as usize..][..hw as usize],
            &cells_shaded[(j1 * hw) as usize..][..hw as usize],
        );
        let occ = occupied.at_row::<u8>(r)?;
        let shaded = beside.at_row::<u8>(r)?;
        let fine_rows = match &fine {
            Some((num, den)) => Some((num.at_row::<Vec3b>(r)?, den.at_row::<u8>(r)?)),
            None => None,
        };
        let mut line_here: Vec<(usize, u8)> = Vec::new();
        let area_row = area.at_row_mut::<u8>(r)?;
        for c in 0..w {
            let cu = c as usize;
            if occ[cu] != 0 {
                continue;
            }
            let (i0, i1, s) = half_res_neighbours(c, hw);
            // Where the lightly smoothed colour may be a line's, see below.
            let fine_here = fine_rows.and_then(|(num, den)| {
                let d = f32::from(den[cu]) / 255.0;
                let near_line = d >= MIN_FREE
                    && lines.iter().zip(&line_tol).any(|(l, tol)| {
                        (0..3).all(|k| (f32::from(num[cu][k]) - l.bgr[k] * d).abs() <= tol * d)
                    });
                near_line.then(|| [0, 1, 2].map(|k| f32::from(num[cu][k]) / d))
            });
            let (i0u, i1u) = (i0 as usize, i1 as usize);
            let same = cells0[i0u];
            // Beside what stands on the table a label that a shadow may have given
            // is looked at again (see `Shade`).
            let in_shade = shade.active && shaded[cu] != 0;
            if fine_here.is_none()
                && same != UNSURE
                && [shaded0[i0u], shaded0[i1u], shaded1[i0u], shaded1[i1u]] == [in_shade; 4]
                && cells0[i1u] == same
                && cells1[i0u] == same
                && cells1[i1u] == same
            {
                area_row[cu] = same;
                assigned[r as usize * w as usize + cu] = true;
                continue;
            }
            let (a, z) = (row_buf[i0u], row_buf[i1u]);
            let v: [f32; 4] = std::array::from_fn(|k| a[k] + (z[k] - a[k]) * s);
            // The fourth channel counts the free pixels of each 2 x 2 cell.
            if v[3] / 4.0 < MIN_FREE {
                continue;
            }
            let colour = [v[0] / v[3], v[1] / v[3], v[2] / v[3]];
            let area_here = nearest(&areas, colour);
            if let Some((label, _)) = area_here {
                // Squeezed between what stands on the table the colour is mostly the
                // blur of its edges: no shade is read there.
                let open = v[3] / 4.0 >= SHADE_MIN_FREE;
                area_row[cu] = if in_shade && open { shade.relabel(colour, label) } else { label };
            }
            assigned[r as usize * w as usize + cu] = true;
            // A line where the lightly smoothed colour (a thin wall's own) or the
            // smoothed one (a blotchy road's) is nearer a linear class than the other
            // linear classes and the bare table.
            let line_colour = [fine_here, Some(colour)]
                .into_iter()
                .flatten()
                .filter_map(|c| nearest(&everything, c))
                .filter(|(l, _)| is_line[usize::from(*l)])
                .min_by(|a, b| a.1.total_cmp(&b.1));
            if let Some((label, _)) = line_colour {
                line_here.push((cu, label));
            }
        }
        let line_row = line.at_row_mut::<u8>(r)?;
        for (cu, label) in line_here {
            line_row[cu] = label;
        }
    }
    fill_from_free(&mut area, &mut line, &assigned, w as usize)?;
    // Shadows: patches of a class lying mostly beside what stands on the table are
    // given the labels around them.
    let shadows = shadow_patches(&area, &beside, classes.len(), &settings)?;
    if shadows.iter().any(|s| *s) {
        for (a, s) in assigned.iter_mut().zip(&shadows) {
            *a &= !*s;
        }
        fill_from_free(&mut area, &mut line, &assigned, w as usize)?;
    }
    // Rims: the area labels alone are given again (a wall's line labels are its own).
    if settings.rim_px > 0 {
        let thin = thin_parts(&area, occupied, classes.len(), settings.rim_px)?;
        if thin.iter().any(|t| *t) {
            for (a, t) in assigned.iter_mut().zip(&thin) {
                *a &= !*t;
            }
            let mut scratch = line.try_clone()?;
            fill_from_free(&mut area, &mut scratch, &assigned, w as usize)?;
        }
    }
    // Edges where the colours are half and half; the pixels under what stands on the
    // table then take the labels of the nearest free pixels again.
    if let Some(edges) = settings.edges {
        // Beside what stands on the table a shadow darkens a town or a hill toward
        // the mat's colour (see `Shade`): a label a shadow is told from is not given
        // away there to one it is not.
        let mut shaded = vec![false; classes.len() + 1];
        if shade.active {
            for &(k, _, _) in &shade.targets {
                shaded[usize::from(k)] = true;
            }
        }
        let shadows = Shadows { beside: &beside, labels: &shaded };
        let decided = refine_edges(&mut area, &coarse, occupied, &shadows, edges)?;
        for (a, d) in assigned.iter_mut().zip(&decided) {
            *a |= *d;
        }
        let mut scratch = line.try_clone()?;
        fill_from_free(&mut area, &mut scratch, &assigned, w as usize)?;
    }
    if settings.vote_px > 0 {
        area = vote(&area, classes.len(), settings.vote_px)?;
    }
    Ok(Labels { area, line })
}

/// The pixels of area labels (the bare table, 0, and the classes 1 to `n_classes`)
/// in parts of their label narrower than `2 radius + 1` px (what a morphological
/// opening by a disc of that radius removes), in pieces of the label mostly that
/// thin, one flag per pixel in raster order. Where a dark wood meets the mat, their
/// colours blended over the smoothing's width are a lighter wood's; where it meets a
/// grey town, a marsh's or the mat's: a rim a few pixels wide between them, of
/// another label, which no template (and no stretch of bare table) is. What stands
/// on the table (`occupied`) may be of any label: a part is thin only where the
/// label with the occupied pixels is (a strip of a town between a base and the
/// town's edge, or squeezed between two bases, is as wide as it shows, and the
/// figures' reach as the camera sees it is in `occupied`).
fn thin_parts(area: &Mat, occupied: &Mat, n_classes: usize, radius: i32) -> Result<Vec<bool>, VisionError> {
    let size = area.size()?;
    let (w, h) = (size.width, size.height);
    let mut out = vec![false; (w * h) as usize];
    let kernel = opencv::imgproc::get_structuring_element_def(
        opencv::imgproc::MORPH_ELLIPSE,
        Size::new(2 * radius + 1, 2 * radius + 1),
    )?;
    for label in 0..=n_classes {
        let mut whole = Mat::default();
        opencv::core::compare(area, &Scalar::all(label as f64), &mut whole, opencv::core::CMP_EQ)?;
        let found = opencv::imgproc::bounding_rect(&whole)?;
        if found.width == 0 || found.height == 0 {
            continue;
        }
        // The class's box and a margin of empty pixels, so the opening's border
        // handling does not keep what touches the box's edge.
        let grow = radius + 1;
        let (x0, y0) = ((found.x - grow).max(0), (found.y - grow).max(0));
        let (x1, y1) = ((found.x + found.width + grow).min(w), (found.y + found.height + grow).min(h));
        let roi = opencv::core::Rect::new(x0, y0, x1 - x0, y1 - y0);
        let mask = whole.roi(roi)?.try_clone()?;
        let occ = occupied.roi(roi)?;
        let mut wide = Mat::default();
        opencv::core::bitwise_or_def(&mask, &occ, &mut wide)?;
        let mut opened = Mat::default();
        opencv::imgproc::morphology_ex(
            &wide,
            &mut opened,
            opencv::imgproc::MORPH_OPEN,
            &kernel,
            Point::new(-1, -1),
            1,
            opencv::core::BORDER_CONSTANT,
            Scalar::all(0.0),
        )?;
        // A piece of the class with a core (what the opening keeps) of at least half
        // its pixels is a template, blotchy at its edge: its thin parts stay.
        let mut comp = Mat::default();
        let n = opencv::imgproc::connected_components(&mask, &mut comp, 8, opencv::core::CV_32S)?;
        let (mut all, mut core) = (vec![0usize; n as usize], vec![0usize; n as usize]);
        for r in 0..roi.height {
            let (c, o) = (comp.at_row::<i32>(r)?, opened.at_row::<u8>(r)?);
            for (k, b) in c.iter().zip(o) {
                all[*k as usize] += 1;
                core[*k as usize] += usize::from(*b != 0);
            }
        }
        let rim: Vec<bool> = all.iter().zip(&core).map(|(a, c)| 2 * c < *a).collect();
        for r in 0..roi.height {
            let (c, o) = (comp.at_row::<i32>(r)?, opened.at_row::<u8>(r)?);
            let start = ((roi.y + r) * w + roi.x) as usize;
            for ((t, k), b) in out[start..start + roi.width as usize].iter_mut().zip(c).zip(o) {
                *t |= *k > 0 && rim[*k as usize] && *b == 0;
            }
        }
    }
    Ok(out)
}

/// The pixels of the area patches that are shadows (see [`LabelSettings`]), one flag
/// per pixel in raster order; `beside` is 255 within the reach of shadows of what
/// stands on the table.
fn shadow_patches(
    area: &Mat,
    beside: &Mat,
    n_classes: usize,
    settings: &LabelSettings,
) -> Result<Vec<bool>, VisionError> {
    let size = area.size()?;
    let (w, h) = (size.width, size.height);
    let mut out = vec![false; (w * h) as usize];
    for label in 1..=n_classes {
        let mut whole = Mat::default();
        opencv::core::compare(area, &Scalar::all(label as f64), &mut whole, opencv::core::CMP_EQ)?;
        let found = opencv::imgproc::bounding_rect(&whole)?;
        if found.width == 0 || found.height == 0 {
            continue;
        }
        let mask = whole.roi(found)?.try_clone()?;
        let (mut comp, mut stats, mut cents) = (Mat::default(), Mat::default(), Mat::default());
        let n =
            opencv::imgproc::connected_components_with_stats_def(&mask, &mut comp, &mut stats, &mut cents)?;
        let mut near = vec![0usize; n as usize];
        for r in 0..found.height {
            let cr = comp.at_row::<i32>(r)?;
            let br = &beside.at_row::<u8>(found.y + r)?[found.x as usize..][..found.width as usize];
            for (c, b) in cr.iter().zip(br) {
                if *c > 0 && *b != 0 {
                    near[*c as usize] += 1;
                }
            }
        }
        let shadow: Vec<bool> = (0..n)
            .map(|i| {
                let a = stats.at_2d::<i32>(i, opencv::imgproc::CC_STAT_AREA).map_or(0, |a| *a);
                i > 0
                    && f64::from(a) < settings.shadow_max_px2
                    && near[i as usize] as f64 > settings.shadow_share * f64::from(a.max(1))
            })
            .collect();
        if !shadow.iter().any(|s| *s) {
            continue;
        }
        for r in 0..found.height {
            let cr = comp.at_row::<i32>(r)?;
            let start = ((found.y + r) * w + found.x) as usize;
            for (o, c) in out[start..start + found.width as usize].iter_mut().zip(cr) {
                *o |= shadow[*c as usize];
            }
        }
    }
    Ok(out)
}

/// Shadow-proof labels beside what stands on the table (issue 19). A shadow scales a
/// surface's colour down (the renderer's and, to first order, a lamp's), so a town
/// or a hill in a base's shadow is darker, nearer the mat's colour than its own, and
/// its edge there recedes. Within the shadows' reach a pixel takes a template class
/// whose colour scaled by `[SHADE_MIN, 1]` matches its colour within half the
/// class's tolerance and better, by [`SHADE_MARGIN`], than the label it has does
/// (scaled alike; the bare table's colours as any mix of them at any brightness). Only classes whose colour no
/// shading of the bare table's colours comes near ([`SHADE_APART`]) are given so:
/// the mat in shadow is as dark as a wood and as green, it must stay the mat.
#[derive(Debug, Clone)]
struct Shade {
    /// Area classes as (label, B G R, tolerance); those that a shadow is told from.
    targets: Vec<(u8, [f32; 3], f32)>,
    /// Every area class by label (index `label - 1`; `None` for linear classes).
    classes: Vec<Option<[f32; 3]>>,
    /// The bare table's colours, B G R.
    ground: Vec<[f32; 3]>,
    /// False when the profile declares no bare table colours (a dark pixel could
    /// then be anything).
    active: bool,
}

/// Shade is read only where at least this share of the smoothing kernel's weight
/// fell on free pixels.
const SHADE_MIN_FREE: f32 = 0.6;
/// The darkest a shadow makes a surface, as a share of its light.
const SHADE_MIN: f32 = 0.4;
/// How much nearer (sRGB units) a class's shaded colour must be than the label's.
const SHADE_MARGIN: f32 = 6.0;
/// A class is given to shaded pixels only when its colour is at least this far
/// (sRGB units) from every shading and mix of the bare table's colours.
const SHADE_APART: f32 = 20.0;

impl Shade {
    fn new(classes: &[TerrainClass], ground: &[[u8; 3]]) -> Shade {
        let bgr = |c: [u8; 3]| [f32::from(c[2]), f32::from(c[1]), f32::from(c[0])];
        let ground: Vec<[f32; 3]> = ground.iter().map(|g| bgr(*g)).collect();
        let all: Vec<Option<[f32; 3]>> =
            classes.iter().map(|c| (!c.is_linear()).then(|| bgr(c.colour))).collect();
        let mut shade = Shade { targets: Vec::new(), classes: all, active: !ground.is_empty(), ground };
        shade.targets = classes
            .iter()
            .enumerate()
            .filter(|(_, c)| !c.is_linear())
            .map(|(k, c)| (k as u8 + 1, bgr(c.colour), c.tolerance as f32))
            .filter(|(_, c, _)| shade.to_ground(*c) >= SHADE_APART)
            .collect();
        shade.active &= !shade.targets.is_empty();
        shade
    }

    /// The label of a pixel of `colour` (B G R) beside what stands on the table,
    /// labelled `label` by its colour alone.
    fn relabel(&self, colour: [f32; 3], label: u8) -> u8 {
        let own = if label == 0 {
            self.to_ground(colour)
        } else {
            match self.classes.get(usize::from(label) - 1).copied().flatten() {
                Some(c) => shaded_distance(colour, c),
                None => return label,
            }
        };
        // Nothing is nearer than 0: most shaded pixels are their own label's.
        if own <= SHADE_MARGIN {
            return label;
        }
        let mut best = (label, own - SHADE_MARGIN);
        for &(k, c, tol) in &self.targets {
            let d = shaded_distance(colour, c);
            if d < best.1 && d <= 0.5 * tol {
                best = (k, d);
            }
        }
        best.0
    }

    /// The distance from `colour` to the nearest non-negative mix of the bare
    /// table's colours (of one or two of them).
    fn to_ground(&self, colour: [f32; 3]) -> f32 {
        let mut best = f32::INFINITY;
        for (i, a) in self.ground.iter().enumerate() {
            let s = (dot(colour, *a) / dot(*a, *a).max(1e-6)).max(0.0);
            best = best.min(dist(colour, a.map(|v| v * s)));
            for b in &self.ground[i + 1..] {
                // Least squares colour = x a + y b, kept when both are positive (on
                // the cone's face; otherwise an edge, done above).
                let (aa, ab, bb) = (dot(*a, *a), dot(*a, *b), dot(*b, *b));
                let (ca, cb) = (dot(colour, *a), dot(colour, *b));
                let det = aa * bb - ab * ab;
                if det.abs() < 1e-6 {
                    continue;
                }
                let (x, y) = ((ca * bb - cb * ab) / det, (cb * aa - ca * ab) / det);
                if x >= 0.0 && y >= 0.0 {
                    best = best.min(dist(colour, std::array::from_fn(|k| x * a[k] + y * b[k])));
                }
            }
        }
        best
    }
}

fn dot(a: [f32; 3], b: [f32; 3]) -> f32 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn dist(a: [f32; 3], b: [f32; 3]) -> f32 {
    dot(std::array::from_fn(|k| a[k] - b[k]), std::array::from_fn(|k| a[k] - b[k])).sqrt()
}

/// The distance from `colour` to `reference` scaled by the best light in
/// `[SHADE_MIN, 1]`.
fn shaded_distance(colour: [f32; 3], reference: [f32; 3]) -> f32 {
    let s = (dot(colour, reference) / dot(reference, reference).max(1e-6)).clamp(SHADE_MIN, 1.0);
    dist(colour, reference.map(|v| v * s))
}

/// A reference colour and the label it gives.
#[derive(Debug, Clone, Copy)]
struct Reference {
    label: u8,
    bgr: [f32; 3],
    tol2: f32,
}

/// The label and squared distance of the reference nearest `colour` (first on ties),
/// when it is within its tolerance.
fn nearest(refs: &[Reference], colour: [f32; 3]) -> Option<(u8, f32)> {
    let mut best: Option<(usize, f32)> = None;
    for (i, rf) in refs.iter().enumerate() {
        let d2 = (0..3).map(|k| (colour[k] - rf.bgr[k]).powi(2)).sum::<f32>();
        if best.is_none_or(|(_, b)| d2 < b) {
            best = Some((i, d2));
        }
    }
    best.filter(|&(i, d2)| d2 <= refs[i].tol2).map(|(i, d2)| (refs[i].label, d2))
}

/// The two cells of a half-resolution grid of `n` cells on either side of full-
/// resolution pixel `i`, and the weight of the second.
pub(crate) fn half_res_neighbours(i: i32, n: i32) -> (i32, i32, f32) {
    // Pixel i's centre is at i + 0.5 px; cell j's at 2 j + 1: in cells, pixel 2 j
    // lies at j - 0.25, pixel 2 j + 1 at j + 0.25 (integers, without libm's `floor`:
    // the build has no SSE4.1).
    let j0 = (i - 1).div_euclid(2);
    let t = if i % 2 == 0 { 0.75 } else { 0.25 };
    (j0.clamp(0, n - 1), (j0 + 1).clamp(0, n - 1), if j0 < 0 { 0.0 } else { t })
}

/// The free pixels' colours summed over 2 x 2 cells (B, G, R and the count of free
/// pixels), blurred: a normalized convolution at half the resolution, so what stands
/// on the table does not bleed into the terrain's colour. The 2 x 2 cells and the
/// interpolation back add about 1 px² of variance, taken off the Gaussian's.
fn coarse_colours(rect: &Rectified, occupied: &Mat, sigma_px: f64) -> Result<Mat, VisionError> {
    let (w, h) = rect.size()?;
    let (hw, hh) = ((w + 1) / 2, (h + 1) / 2);
    let mut sums = Mat::new_rows_cols_with_default(hh, hw, opencv::core::CV_32FC4, Scalar::all(0.0))?;
    for r in 0..h {
        let img = rect.image.at_row::<Vec3b>(r)?;
        let occ = occupied.at_row::<u8>(r)?;
        let out = sums.at_row_mut::<Vec4f>(r / 2)?;
        for (c, (p, o)) in img.iter().zip(occ).enumerate() {
            if *o == 0 {
                let s = &mut out[c / 2];
                *s = Vec4f::from([
                    s[0] + f32::from(p[0]),
                    s[1] + f32::from(p[1]),
                    s[2] + f32::from(p[2]),
                    s[3] + 1.0,
                ]);
            }
        }
    }
    let sigma = ((sigma_px * sigma_px - 1.0).max(0.25)).sqrt() / 2.0;
    let mut blurred = Mat::default();
    opencv::imgproc::gaussian_blur_def(&sums, &mut blurred, Size::new(0, 0), sigma)?;
    Ok(blurred)
}

/// The free pixels' colours (8-bit BGR, occupied pixels black) and the free share
/// (0-255), each blurred by `sigma_px`: their ratio is the normalized convolution.
fn fine_colours(image: &Mat, occupied: &Mat, sigma_px: f64) -> Result<(Mat, Mat), VisionError> {
    let mut masked = image.try_clone()?;
    masked.set_to(&Scalar::all(0.0), occupied)?;
    let mut free = Mat::default();
    opencv::core::compare(occupied, &Scalar::all(0.0), &mut free, opencv::core::CMP_EQ)?;
    let (mut num, mut den) = (Mat::default(), Mat::default());
    opencv::imgproc::gaussian_blur_def(&masked, &mut num, Size::new(0, 0), sigma_px)?;
    opencv::imgproc::gaussian_blur_def(&free, &mut den, Size::new(0, 0), sigma_px)?;
    Ok((num, den))
}

/// Gives each unassigned pixel the labels of a nearest assigned one (breadth first
/// from the assigned pixels beside unassigned ones).
fn fill_from_free(area: &mut Mat, line: &mut Mat, assigned: &[bool], w: usize) -> Result<(), VisionError> {
    let n = assigned.len();
    let mut done = assigned.to_vec();
    // The four neighbours inside the image, left, right, up, down (`usize::MAX` where
    // there is none); the column alone is divided out (a pixel's row and column cost
    // two divisions, most of the walk's time).
    let neighbours = |i: usize| {
        let c = i % w;
        [
            if c > 0 { i - 1 } else { usize::MAX },
            if c + 1 < w { i + 1 } else { usize::MAX },
            if i >= w { i - w } else { usize::MAX },
            if i + w < n { i + w } else { usize::MAX },
        ]
    };
    // The assigned pixels beside an unassigned one, in raster order, as a queue
    // seeded with every assigned pixel would reach them; found from the unassigned
    // pixels, which are few (a pass over every pixel's neighbours cost 50
    // instructions a pixel).
    let mut seed = vec![false; n];
    for j in (0..n).filter(|&j| !done[j]) {
        for i in neighbours(j).into_iter().filter(|&i| i != usize::MAX) {
            seed[i] |= done[i];
        }
    }
    // First in, first out: a vector read from its head (each pixel enters once).
    let mut queue: Vec<usize> = (0..n).filter(|&i| seed[i]).collect();
    let a = area.data_bytes_mut()?;
    let l = line.data_bytes_mut()?;
    let mut head = 0;
    while let Some(&i) = queue.get(head) {
        head += 1;
        for j in neighbours(i) {
            if j != usize::MAX && !done[j] {
                done[j] = true;
                a[j] = a[i];
                l[j] = l[i];
                queue.push(j);
            }
        }
    }
    Ok(())
}

/// The majority label over a square of half side `half_px` (at most 7) around each
/// pixel (labels 0 to `n_classes`); a pixel keeps its label on a tie with it.
fn vote(labels: &Mat, n_classes: usize, half_px: i32) -> Result<Mat, VisionError> {
    let size = labels.size()?;
    // Counts in 8 bits: at most 15 x 15.
    let side = 2 * half_px.clamp(1, 7) + 1;
    let full = (side * side) as u8;
    let mut present = [false; 256];
    for r in 0..size.height {
        for v in labels.at_row::<u8>(r)? {
            present[usize::from(*v)] = true;
        }
    }
    let mut out = labels.try_clone()?;
    let mut counts: Vec<(u8, Mat)> = Vec::new();
    for label in (0..=n_classes).filter(|&k| present[k]) {
        let mut one = Mat::default();
        opencv::core::compare(labels, &Scalar::all(label as f64), &mut one, opencv::core::CMP_EQ)?;
        let mut ind = Mat::default();
        one.convert_to(&mut ind, opencv::core::CV_8U, 1.0 / 255.0, 0.0)?;
        let mut count = Mat::default();
        opencv::imgproc::box_filter(
            &ind,
            &mut count,
            -1,
            Size::new(side, side),
            Point::new(-1, -1),
            false,
            opencv::core::BORDER_REPLICATE,
        )?;
        counts.push((label as u8, count));
    }
    if counts.len() < 2 {
        return Ok(out);
    }
    let mut slot = [0usize; 256];
    for (k, (l, _)) in counts.iter().enumerate() {
        slot[usize::from(*l)] = k;
    }
    let mut rows: Vec<&[u8]> = Vec::with_capacity(counts.len());
    for r in 0..size.height {
        rows.clear();
        for (_, m) in &counts {
            rows.push(m.at_row::<u8>(r)?);
        }
        let row = out.at_row_mut::<u8>(r)?;
        for (c, v) in row.iter_mut().enumerate() {
            let own = rows[slot[usize::from(*v)]][c];
            if own == full {
                continue; // nothing else in the square
            }
            let (mut best, mut best_n) = (*v, own);
            for (k, (l, _)) in counts.iter().enumerate() {
                if rows[k][c] > best_n {
                    (best, best_n) = (*l, rows[k][c]);
                }
            }
            *v = best;
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    use vedette_geometry::{TerrainKind, Vec2};

    fn class(kind: TerrainKind, colour: [u8; 3]) -> TerrainClass {
        TerrainClass { kind, colour, level: 0.0, tolerance: 45.0, thickness_mm: 0.0, linear: None }
    }

    /// The default profile's town, marsh and woods, and its mat.
    fn club() -> (Vec<TerrainClass>, Vec<[u8; 3]>) {
        let classes = vec![
            class(TerrainKind::HeavyBuildings, [128, 122, 117]),
            class(TerrainKind::Marsh, [77, 92, 87]),
            class(TerrainKind::MediumForest, [36, 71, 26]),
            class(TerrainKind::HeavyForest, [23, 51, 18]),
        ];
        (classes, vec![[77, 107, 48], [107, 115, 56]])
    }

    fn settings() -> LabelSettings {
        LabelSettings {
            area_px: 3.0,
            line_px: 1.0,
            vote_px: 4,
            shadow_reach_px: 20,
            shadow_max_px2: 5000.0,
            shadow_share: 0.6,
            rim_px: 3,
            edges: Some(EdgeSettings { band_px: 6.0, reach_px: 12, window_px: 20 }),
        }
    }

    /// Issue 19: a base's shadow on a grey town's edge darkened the town to a
    /// marsh's colour and the mat's, and the edge receded. A 160 x 120 px image
    /// (1 px/mm): a grey town left of x = 80, the mat right of it, a base standing
    /// across the edge and its shadow (70% of the light, as the renderer's cast
    /// shadows) below it, 30 px into the
    /// town and 50 into the mat. The shaded town stays the town, the shaded mat the
    /// mat (it is as dark and as green as a wood), and the edge stays at x = 80
    /// (given the labels around them, the shaded patches would meet at x = 90).
    #[test]
    fn a_shadow_neither_moves_an_edge_nor_makes_a_wood() {
        let (classes, ground) = club();
        let (w, h) = (160, 120);
        let mut image =
            Mat::new_rows_cols_with_default(h, w, opencv::core::CV_8UC3, Scalar::all(0.0)).unwrap();
        let mut occupied = blank_mask(h, w).unwrap();
        for y in 0..h {
            for x in 0..w {
                let rgb: [f64; 3] = if x < 80 { [128.0, 122.0, 117.0] } else { [77.0, 107.0, 48.0] };
                let light = if (40..58).contains(&y) && (50..130).contains(&x) { 0.7 } else { 1.0 };
                let bgr = [rgb[2], rgb[1], rgb[0]].map(|v| (v * light).round() as u8);
                *image.at_2d_mut::<Vec3b>(y, x).unwrap() = bgr.into();
                if (10..40).contains(&y) && (60..100).contains(&x) {
                    *occupied.at_2d_mut::<u8>(y, x).unwrap() = 255;
                }
            }
        }
        let rect = Rectified { image, px_per_mm: 1.0, origin_mm: Vec2::ZERO, height_mm: 0.0 };
        let labels = classify(&rect, &rect.image, &occupied, &classes, &ground, settings()).unwrap();
        let at = |x: i32, y: i32| *labels.area.at_2d::<u8>(y, x).unwrap();
        for y in [42, 48, 54] {
            let row: Vec<u8> = (50..110).map(|x| at(x, y)).collect();
            let edge = row.iter().position(|l| *l != 1).map(|i| i + 50);
            assert_eq!(edge, Some(80), "row {y}: {row:?}");
            assert!(row[30..].iter().all(|l| *l == 0), "row {y}: {row:?}");
        }
    }

    /// Issue 19: the battle sample's hill is darker under the photo's light than its
    /// reference colour, and the mat's second colour lies between them: its edge
    /// receded 3 mm, to where the blur is three quarters hill. A 160 x 120 px image
    /// (1 px/mm), the hill as the photo shows it left of x = 80, the mat right of it:
    /// by the reference colours the edge lies 2 px or more inside the hill; placed
    /// where the colours are half and half, on the edge.
    #[test]
    fn an_edge_lies_where_the_colours_are_half_and_half() {
        let classes = vec![TerrainClass {
            kind: TerrainKind::Hill,
            colour: [148, 122, 77],
            level: 0.5,
            tolerance: 45.0,
            thickness_mm: 0.0,
            linear: None,
        }];
        let ground = vec![[77, 107, 48], [107, 115, 56]];
        let (w, h) = (160, 120);
        let mut image =
            Mat::new_rows_cols_with_default(h, w, opencv::core::CV_8UC3, Scalar::all(0.0)).unwrap();
        for y in 0..h {
            for x in 0..w {
                let bgr: [u8; 3] = if x < 80 { [80, 117, 135] } else { [52, 110, 90] };
                *image.at_2d_mut::<Vec3b>(y, x).unwrap() = bgr.into();
            }
        }
        let rect = Rectified { image, px_per_mm: 1.0, origin_mm: Vec2::ZERO, height_mm: 0.0 };
        let occupied = blank_mask(h, w).unwrap();
        let edge = |s: LabelSettings| {
            let labels = classify(&rect, &rect.image, &occupied, &classes, &ground, s).unwrap();
            let row: Vec<u8> = (0..w).map(|x| *labels.area.at_2d::<u8>(60, x).unwrap()).collect();
            row.iter().position(|l| *l != 1)
        };
        let by_reference = edge(LabelSettings { edges: None, ..settings() });
        assert!(by_reference.is_some_and(|x| x <= 78), "{by_reference:?}");
        assert_eq!(edge(settings()), Some(80));
    }

    /// Issue 19: where a dark wood meets the mat, their colours blended are a lighter
    /// wood's. A heavy wood (label 4) with a 3 px rim of medium wood (2) around it, and
    /// a medium wood with a 3 px tongue: the rim is thin, the wood's blotchy tongue is
    /// not (its piece has a core).
    #[test]
    fn a_rim_around_a_wood_is_thin_a_woods_tongue_is_not() {
        let mut area = blank_mask(120, 200).unwrap();
        for y in 0..120 {
            for x in 0..200 {
                let heavy = (30..90).contains(&y) && (30..90).contains(&x);
                let rim = (27..93).contains(&y) && (27..93).contains(&x);
                let wood = (30..90).contains(&y) && (130..190).contains(&x);
                let tongue = (60..63).contains(&y) && (118..130).contains(&x);
                let v = if heavy {
                    4
                } else if rim || wood || tongue {
                    2
                } else {
                    0
                };
                *area.at_2d_mut::<u8>(y, x).unwrap() = v;
            }
        }
        let occupied = blank_mask(120, 200).unwrap();
        let thin = thin_parts(&area, &occupied, 4, 3).unwrap();
        let at = |x: usize, y: usize| thin[y * 200 + x];
        assert!(at(28, 60) && at(60, 28) && at(91, 60), "the rim");
        assert!(!at(60, 60) && !at(120, 61) && !at(160, 60) && !at(10, 10));
    }

    /// Issue 19: where the heavy wood met the grey town under a line of bases, their
    /// colours blended into the mat's and a marsh's, a band that was kept within 7 mm
    /// of the bases. A town (label 1) left of x = 60 and a wood (4) right of x = 64,
    /// bare table (0) between them, a base across the top (occupied rows 0 to 9):
    /// the bare band is thin from 2 px below the base on (the base's own pixels may
    /// be of any label: the band's pixels a disc in it and the base reaches stay).
    #[test]
    fn a_bare_rim_between_templates_is_thin_beside_a_base_too() {
        let (w, h) = (120, 100);
        let mut area = blank_mask(h, w).unwrap();
        let mut occupied = blank_mask(h, w).unwrap();
        for y in 0..h {
            for x in 0..w {
                let v = if x < 60 {
                    1
                } else if x >= 64 {
                    4
                } else {
                    0
                };
                *area.at_2d_mut::<u8>(y, x).unwrap() = v;
                if y < 10 && (40..90).contains(&x) {
                    *occupied.at_2d_mut::<u8>(y, x).unwrap() = 255;
                }
            }
        }
        let thin = thin_parts(&area, &occupied, 4, 3).unwrap();
        let at = |x: usize, y: usize| thin[y * w as usize + x];
        assert!(at(61, 12) && at(62, 14) && at(62, 60) && at(63, 99), "the band");
        assert!(!at(62, 10) && !at(30, 50) && !at(90, 50), "beside the base, the town, the wood");
    }

    #[test]
    fn half_resolution_neighbours_straddle_the_pixel() {
        // Pixel 0's centre (0.5) is left of cell 0's (1): cell 0 alone.
        assert_eq!(half_res_neighbours(0, 10), (0, 0, 0.0));
        // Pixel 1 (1.5) is a quarter of the way from cell 0 (1) to cell 1 (3).
        assert_eq!(half_res_neighbours(1, 10), (0, 1, 0.25));
        assert_eq!(half_res_neighbours(2, 10), (0, 1, 0.75));
        // The last pixel of an even row leans on the last cell alone.
        assert_eq!(half_res_neighbours(19, 10), (9, 9, 0.25));
        // As the pixel's centre mapped to cells and floored, on rows up to 12 MP's.
        for n in [1, 2, 3, 1000, 1001, 2100] {
            for i in 0..2 * n {
                let u = (i as f32 + 0.5) / 2.0 - 0.5;
                let j0 = u.floor() as i32;
                let t = if j0 < 0 { 0.0 } else { u - u.floor() };
                assert_eq!(half_res_neighbours(i, n), (j0.clamp(0, n - 1), (j0 + 1).clamp(0, n - 1), t));
            }
        }
    }

    #[test]
    fn a_vote_removes_specks_and_keeps_a_straight_edge() {
        // Left half label 1, right half label 2, a 2 x 2 speck of 0 inside the left.
        let mut m = blank_mask(40, 40).unwrap();
        for r in 0..40 {
            let row = m.at_row_mut::<u8>(r).unwrap();
            for (c, v) in row.iter_mut().enumerate() {
                *v = if c < 20 { 1 } else { 2 };
            }
        }
        for (r, c) in [(10, 8), (10, 9), (11, 8), (11, 9)] {
            *m.at_2d_mut::<u8>(r, c).unwrap() = 0;
        }
        let v = vote(&m, 2, 3).unwrap();
        for r in 0..40 {
            for c in 0..40 {
                let want = if c < 20 { 1 } else { 2 };
                assert_eq!(*v.at_2d::<u8>(r, c).unwrap(), want, "({r}, {c})");
            }
        }
    }

    #[test]
    fn filling_takes_the_nearest_free_label() {
        // Row of 6: labels 1 1 ? ? ? 2 (3 unassigned): the first two take 1 and 2's
        // side takes the last.
        let mut area = blank_mask(1, 6).unwrap();
        let mut line = blank_mask(1, 6).unwrap();
        for (c, v) in [(0, 1u8), (1, 1), (5, 2)] {
            *area.at_2d_mut::<u8>(0, c).unwrap() = v;
        }
        let assigned = [true, true, false, false, false, true];
        fill_from_free(&mut area, &mut line, &assigned, 6).unwrap();
        assert_eq!(area.data_bytes().unwrap(), &[1, 1, 1, 1, 2, 2]);
    }
}
