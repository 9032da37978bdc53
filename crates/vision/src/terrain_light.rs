//! The light over the table learned from the mat (issue 36): the fiducials' paper
//! gives the colour correction a plane of light (`palette::ColourCorrection`), four
//! corners cannot see a lamp's fall-off toward the table's edges. On the second
//! renderer's brown-mat photo the mat darkens by 12% from the centre to the corners,
//! into a town's felt (18 sRGB units from the mat), and a ring around the table was
//! labelled a town. The mat is most of the bare table and one colour: where the
//! smoothed colour is the mat's at some brightness, that brightness is the light. A
//! smooth surface (a quadratic over the table) is fitted to it and the rectified image
//! divided by it, so that the mat is its declared colour everywhere, and the templates
//! lit alike with it.

use crate::error::VisionError;
use crate::rectify::Rectified;
use crate::terrain::TerrainClass;
use opencv::core::{Mat, Vec3b};
use opencv::prelude::*;

/// The side of the cells the light is read on, mm: larger than the mat's mottle,
/// smaller than the fall-off's scale.
pub(crate) const LIGHT_CELL_MM: f64 = 20.0;
/// A cell is the mat's where its colour, under the light fitted so far, lies within
/// this of a `ground` colour and nearer it than any terrain class, sRGB units.
const MAT_CELL_TOLERANCE: f64 = 30.0;
/// A cell is read where at least this share of its pixels is free (nothing stands on
/// it).
const MIN_FREE_SHARE: f64 = 0.5;
/// The light is only learned where at least this share of the cells is the mat's
/// (a table mostly covered leaves too little to fit a surface to).
const MIN_MAT_SHARE: f64 = 0.2;
/// Rounds of labelling the cells and fitting the light (the second takes back the
/// mat that the unfitted light made look like a template; the third changes nothing
/// on the photos measured).
const ROUNDS: usize = 3;
/// The light fitted is held within these gains of its mean over the mat.
const GAIN_RANGE: (f64, f64) = (0.5, 2.0);

/// A quadratic surface of the light over the image, `c0 + c1 u + c2 v + c3 u² +
/// c4 u v + c5 v²`: `u` and `v` the pixel's place over the image's width and height
/// from its centre.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Light([f64; 6]);

impl Light {
    fn terms(u: f64, v: f64) -> [f64; 6] {
        [1.0, u, v, u * u, u * v, v * v]
    }

    /// The gain at `(u, v)`.
    pub fn gain(&self, u: f64, v: f64) -> f64 {
        let t = Light::terms(u, v);
        (0..6).map(|k| self.0[k] * t[k]).sum::<f64>().clamp(GAIN_RANGE.0, GAIN_RANGE.1)
    }
}

/// The table cut into cells of [`LIGHT_CELL_MM`]: each cell with at least
/// [`MIN_FREE_SHARE`] of its pixels free, its centre's place over the image (from its
/// centre, in image widths and heights) and its mean colour (B, G, R) over its free
/// pixels; and how many cells across and down the table is cut into.
struct Cells {
    cells: Vec<((f64, f64), [f64; 3])>,
    count: (i32, i32),
}

fn dist(a: [f64; 3], b: [f64; 3]) -> f64 {
    (0..3).map(|k| (a[k] - b[k]).powi(2)).sum::<f64>().sqrt()
}

/// The cells of the rectified image (`None` when it is less than three cells across or
/// down).
fn free_cells(rect: &Rectified, occupied: &Mat) -> Result<Option<Cells>, VisionError> {
    let (w, h) = rect.size()?;
    let side = ((LIGHT_CELL_MM * rect.px_per_mm).round() as i32).max(2);
    let (cw, ch) = (w / side, h / side);
    if cw < 3 || ch < 3 {
        return Ok(None);
    }
    let place = |x: f64, y: f64| (x / f64::from(w) - 0.5, y / f64::from(h) - 0.5);
    let mut cells: Vec<((f64, f64), [f64; 3])> = Vec::new();
    let mut sums = vec![([0.0f64; 3], 0usize); cw as usize];
    for j in 0..ch {
        sums.iter_mut().for_each(|s| *s = ([0.0; 3], 0));
        for r in j * side..(j + 1) * side {
            let img = rect.image.at_row::<Vec3b>(r)?;
            let occ = occupied.at_row::<u8>(r)?;
            for (c, (p, o)) in img.iter().zip(occ).enumerate().take((cw * side) as usize) {
                if *o == 0 {
                    let s = &mut sums[c / side as usize];
                    for k in 0..3 {
                        s.0[k] += f64::from(p[k]);
                    }
                    s.1 += 1;
                }
            }
        }
        for (i, (s, n)) in sums.iter().enumerate() {
            if *n as f64 >= MIN_FREE_SHARE * f64::from(side * side) {
                let centre =
                    place((i as f64 + 0.5) * f64::from(side), (f64::from(j) + 0.5) * f64::from(side));
                cells.push((centre, s.map(|v| v / *n as f64)));
            }
        }
    }
    Ok(Some(Cells { cells, count: (cw, ch) }))
}

/// At most this many cells are tried as the mat's colour (evenly spread over the
/// table); every cell is counted around each.
const MAT_CANDIDATES: usize = 1500;

/// The mat's colour learned from the photo where the profile declares no `ground`
/// (issue 36): the bare table is most of what is free of bases, and one colour at a
/// slowly varying brightness, so among the cells ([`LIGHT_CELL_MM`]) the colour with
/// the most cells within [`MAT_CELL_TOLERANCE`] of it is the mat's; the colour
/// returned (sRGB) is the median, channel by channel, of those cells. `None` when
/// fewer than [`MIN_MAT_SHARE`] of the cells gather so (a table mostly covered, or a
/// mat of many colours: declare `ground`).
pub(crate) fn learn_mat(rect: &Rectified, occupied: &Mat) -> Result<Option<[u8; 3]>, VisionError> {
    let Some(Cells { cells, count: (cw, ch) }) = free_cells(rect, occupied)? else {
        return Ok(None);
    };
    let step = cells.len().div_ceil(MAT_CANDIDATES).max(1);
    let near = |c: [f64; 3]| cells.iter().filter(|(_, o)| dist(c, *o) <= MAT_CELL_TOLERANCE).count();
    let Some(densest) = cells.iter().step_by(step).map(|(_, c)| (*c, near(*c))).max_by_key(|(_, n)| *n)
    else {
        return Ok(None);
    };
    if (densest.1 as f64) < MIN_MAT_SHARE * f64::from(cw * ch) {
        return Ok(None);
    }
    let mut around: Vec<[f64; 3]> =
        cells.iter().map(|(_, c)| *c).filter(|c| dist(densest.0, *c) <= MAT_CELL_TOLERANCE).collect();
    let mut bgr = [0.0; 3];
    for (k, v) in bgr.iter_mut().enumerate() {
        around.sort_by(|a, b| a[k].total_cmp(&b[k]));
        *v = around[around.len() / 2][k];
    }
    Ok(Some([bgr[2], bgr[1], bgr[0]].map(|v| v.round().clamp(0.0, 255.0) as u8)))
}

/// Learns the light from the mat (`ground`, sRGB) in the rectified, colour-corrected
/// image and divides out how it varies over the table (its mean over the mat is kept),
/// in place; the light divided out (1 on average over the mat), or `None` (the image untouched) where no `ground`
/// is declared or too little of the table shows the mat.
pub(crate) fn flatten(
    rect: &mut Rectified,
    occupied: &Mat,
    classes: &[TerrainClass],
    ground: &[[u8; 3]],
) -> Result<Option<Light>, VisionError> {
    if ground.is_empty() {
        return Ok(None);
    }
    let (w, h) = rect.size()?;
    let place = |x: f64, y: f64| (x / f64::from(w) - 0.5, y / f64::from(h) - 0.5);
    let Some(Cells { cells, count: (cw, ch) }) = free_cells(rect, occupied)? else {
        return Ok(None);
    };
    let bgr = |c: [u8; 3]| [f64::from(c[2]), f64::from(c[1]), f64::from(c[0])];
    let grounds: Vec<[f64; 3]> = ground.iter().map(|g| bgr(*g)).collect();
    let others: Vec<[f64; 3]> = classes.iter().map(|c| bgr(c.colour)).collect();
    let mut light = Light([1.0, 0.0, 0.0, 0.0, 0.0, 0.0]);
    let mut fitted = false;
    // The light's mean over the mat: the colour correction has set the level from the
    // fiducials' paper, what is divided out is how the light varies about it.
    let mut level = 1.0;
    for _ in 0..ROUNDS {
        let mut ata = nalgebra::SMatrix::<f64, 6, 6>::zeros();
        let mut atb = nalgebra::SVector::<f64, 6>::zeros();
        let mut mat_cells = Vec::new();
        for &((u, v), c) in &cells {
            let g = light.gain(u, v) / level;
            let lit = c.map(|x| x / g);
            let Some((mat, d)) =
                grounds.iter().map(|m| (*m, dist(lit, *m))).min_by(|a, b| a.1.total_cmp(&b.1))
            else {
                continue;
            };
            if d > MAT_CELL_TOLERANCE || others.iter().any(|o| dist(lit, *o) < d) {
                continue;
            }
            let ratio = c.iter().sum::<f64>() / mat.iter().sum::<f64>().max(1.0);
            let t = nalgebra::SVector::<f64, 6>::from(Light::terms(u, v));
            ata += t * t.transpose();
            atb += t * ratio;
            mat_cells.push((u, v));
        }
        if (mat_cells.len() as f64) < MIN_MAT_SHARE * f64::from(cw * ch) {
            break;
        }
        let Some(x) = ata.lu().solve(&atb) else { break };
        light = Light([x[0], x[1], x[2], x[3], x[4], x[5]]);
        fitted = true;
        level = mat_cells.iter().map(|&(u, v)| light.gain(u, v)).sum::<f64>() / mat_cells.len() as f64;
    }
    if !fitted {
        return Ok(None);
    }
    light.0.iter_mut().for_each(|c| *c /= level);
    for r in 0..h {
        let row = rect.image.at_row_mut::<Vec3b>(r)?;
        for (c, p) in row.iter_mut().enumerate() {
            let (u, v) = place(c as f64 + 0.5, f64::from(r) + 0.5);
            let g = light.gain(u, v);
            for k in 0..3 {
                p[k] = round_to_u8(f64::from(p[k]) / g);
            }
        }
    }
    Ok(Some(light))
}

/// `x.round().min(255.0) as u8` for `x >= 0`, without libm's `round` (the build has
/// no SSE4.1, and dividing out the light called it 6.7 million times on a 12 MP
/// photo): the conversion truncates, and `x` less its whole part is exact, so halves
/// round up as `round`'s do.
fn round_to_u8(x: f64) -> u8 {
    let whole = x.min(255.0) as u8;
    if whole < u8::MAX && x - f64::from(whole) >= 0.5 { whole + 1 } else { whole }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::palette::blank_mask;
    use opencv::core::Scalar;
    use vedette_geometry::{TerrainKind, Vec2};

    /// A brown mat lit 12% darker at the corners than at the centre (the second
    /// renderer's brown-mat photo), a town's felt 18 units from the mat in the middle:
    /// flattened, the mat is one colour within 2 units everywhere and the town lit
    /// alike with it (the corners of the mat were nearer the town's colour than the
    /// mat's before).
    #[test]
    fn the_mat_is_its_colour_everywhere_once_the_light_is_divided_out() {
        let (w, h) = (600, 400);
        let mat = [123.0, 104.0, 73.0];
        let town = [116.0, 92.0, 66.0];
        let mut image =
            Mat::new_rows_cols_with_default(h, w, opencv::core::CV_8UC3, Scalar::all(0.0)).unwrap();
        let fall = |x: i32, y: i32| {
            let (u, v) = (f64::from(x) / f64::from(w) - 0.5, f64::from(y) / f64::from(h) - 0.5);
            1.04 - 0.32 * (u * u + v * v)
        };
        for y in 0..h {
            for x in 0..w {
                let on_town = (250..350).contains(&x) && (150..250).contains(&y);
                let rgb = if on_town { town } else { mat };
                let g = fall(x, y);
                *image.at_2d_mut::<Vec3b>(y, x).unwrap() =
                    [rgb[2], rgb[1], rgb[0]].map(|v| (v * g).round() as u8).into();
            }
        }
        let dist = |a: [f64; 3], b: [f64; 3]| (0..3).map(|k| (a[k] - b[k]).powi(2)).sum::<f64>().sqrt();
        let at = |m: &Mat, x: i32, y: i32| {
            let p = *m.at_2d::<Vec3b>(y, x).unwrap();
            [f64::from(p[2]), f64::from(p[1]), f64::from(p[0])]
        };
        // Before: the corner's mat is nearer the town than the mat.
        assert!(dist(at(&image, 5, 5), town) < dist(at(&image, 5, 5), mat));
        let mut rect = Rectified { image, px_per_mm: 1.0, origin_mm: Vec2::ZERO, height_mm: 0.0 };
        let occupied = blank_mask(h, w).unwrap();
        let classes = [TerrainClass {
            kind: TerrainKind::LightBuildings,
            colour: [116, 92, 66],
            level: 0.0,
            tolerance: 45.0,
            thickness_mm: 2.0,
            linear: None,
        }];
        let light = flatten(&mut rect, &occupied, &classes, &[[123, 104, 73]]).unwrap();
        assert!(light.is_some());
        // The level is kept (the light's mean over the mat), its variation is gone.
        let level = at(&rect.image, 100, 200)[0] / mat[0];
        assert!((0.95..1.05).contains(&level), "{level}");
        for (x, y) in [(5, 5), (595, 5), (5, 395), (595, 395), (300, 20), (100, 200)] {
            let d = dist(at(&rect.image, x, y), mat.map(|v| v * level));
            assert!(d <= 2.0, "({x}, {y}): {:?} is {d:.1} from the mat", at(&rect.image, x, y));
        }
        let centre = at(&rect.image, 300, 200);
        assert!(dist(centre, town.map(|v| v * level)) <= 2.0, "{centre:?}");
        // Without `ground` nothing is learned.
        let mut plain = Rectified { image: rect.image.try_clone().unwrap(), ..rect };
        assert!(flatten(&mut plain, &occupied, &classes, &[]).unwrap().is_none());
    }

    /// Issue 36: without `ground` the mat's colour is learned from the photo. A green
    /// mat lit 12% darker at the corners, mottled by ±6 units, with a dark wood over a
    /// quarter of the table, a grey town and a brown hill over another 15%, and bases
    /// (occupied) over a tenth: the colour learned is within 6 units of the mat's under
    /// the light's mean, nearer it than the wood, town or hill. A table of eight
    /// colours, none over a fifth of it, learns none.
    #[test]
    fn the_mat_is_learned_from_the_photo_when_ground_is_not_declared() {
        let (w, h) = (600, 400);
        let mat = [77.0, 107.0, 48.0];
        let wood = [36.0, 71.0, 26.0];
        let town = [120.0, 118.0, 110.0];
        let hill = [140.0, 110.0, 70.0];
        let mut image =
            Mat::new_rows_cols_with_default(h, w, opencv::core::CV_8UC3, Scalar::all(0.0)).unwrap();
        let mut occupied = blank_mask(h, w).unwrap();
        let fall = |x: i32, y: i32| {
            let (u, v) = (f64::from(x) / f64::from(w) - 0.5, f64::from(y) / f64::from(h) - 0.5);
            1.04 - 0.32 * (u * u + v * v)
        };
        for y in 0..h {
            for x in 0..w {
                let rgb = if x < 300 && y < 200 {
                    wood
                } else if (350..500).contains(&x) && (50..150).contains(&y) {
                    town
                } else if (350..600).contains(&x) && (250..370).contains(&y) {
                    hill
                } else {
                    mat
                };
                let mottle = f64::from(((x * 7 + y * 13) % 13) - 6);
                let g = fall(x, y);
                *image.at_2d_mut::<Vec3b>(y, x).unwrap() =
                    [rgb[2], rgb[1], rgb[0]].map(|v| (v * g + mottle).round().clamp(0.0, 255.0) as u8).into();
                if (x / 40) % 5 == 0 && (y / 30) % 3 == 1 {
                    *occupied.at_2d_mut::<u8>(y, x).unwrap() = 255;
                }
            }
        }
        let rect = Rectified { image, px_per_mm: 1.0, origin_mm: Vec2::ZERO, height_mm: 0.0 };
        let learned = learn_mat(&rect, &occupied).unwrap().unwrap().map(f64::from);
        // The light's mean over the table: 1.04 - 0.32 (1/12 + 1/12).
        let at_mean = mat.map(|v| v * (1.04 - 0.32 / 6.0));
        assert!(dist(learned, at_mean) <= 6.0, "{learned:?} against {at_mean:?}");
        for other in [wood, town, hill] {
            assert!(dist(learned, mat) < dist(learned, other), "{learned:?}");
        }
        // A table of many colours, none over a fifth of it: nothing is learned.
        let mut quilt =
            Mat::new_rows_cols_with_default(h, w, opencv::core::CV_8UC3, Scalar::all(0.0)).unwrap();
        for y in 0..h {
            for x in 0..w {
                let k = (x / 100 + 3 * (y / 100)) % 8;
                let v = [
                    [20, 20, 20],
                    [230, 230, 230],
                    [200, 40, 40],
                    [40, 200, 40],
                    [40, 40, 200],
                    [200, 200, 40],
                    [40, 200, 200],
                    [200, 40, 200],
                ][k as usize];
                *quilt.at_2d_mut::<Vec3b>(y, x).unwrap() = Vec3b::from(v);
            }
        }
        let quilt = Rectified { image: quilt, ..rect };
        assert_eq!(learn_mat(&quilt, &blank_mask(h, w).unwrap()).unwrap(), None);
    }

    /// The light is divided out with an integer rounding: the same bytes as `round`
    /// for every value a pixel divided by a gain in [0.5, 2] takes, halves and the
    /// values just below them included.
    #[test]
    fn rounding_to_a_byte_is_rounds_own() {
        let by_round = |x: f64| x.round().clamp(0.0, 255.0) as u8;
        for p in 0..=255u8 {
            for g in (0..=3000).map(|i| GAIN_RANGE.0 + f64::from(i) * (GAIN_RANGE.1 - GAIN_RANGE.0) / 3000.0)
            {
                let x = f64::from(p) / g;
                assert_eq!(round_to_u8(x), by_round(x), "{p} / {g}");
            }
        }
        for x in (0..600).map(|i| f64::from(i) / 2.0) {
            for v in [x, x.next_down().max(0.0), x.next_up()] {
                assert_eq!(round_to_u8(v), by_round(v), "{v}");
            }
        }
    }
}
