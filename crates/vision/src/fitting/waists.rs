//! A blob too large for the formations to explain, cut at its narrow waists (issue 37).
//!
//! Units within a few mm of each other close into one blob ([`super::surface`]); two or
//! three of them, or a unit beside a strip of the table's edge, make a blob larger than
//! the terrain limit, which is never searched. Such a blob is *opened* by a disc of a
//! growing radius (the pixels farther than the radius from its outline, grown back by
//! the radius): a neck or a strip narrower than the disc's width falls away and the blob
//! falls apart into its thick parts, each searched as a blob of its own. A part still too
//! large is opened further. A blob thick everywhere (formations closed broadside, a wood,
//! a field) keeps its size up to the largest radius that a formation's own part survives:
//! it is left uncut, for the fitter to search whole or leave out by its size.

use super::surface::{Blob, COARSE_PX_PER_MM};
use vedette_geometry::Vec2;

/// The opening's radius starts here and grows by this much each step, mm (a pixel of
/// the blobs' grid, [`COARSE_PX_PER_MM`]: 1 px per mm).
const RADIUS_STEP_MM: f64 = 1.0;

/// What the openings make of a blob ([`parts`]).
#[derive(Debug, Default)]
pub(crate) struct Cut {
    /// The parts within the limit, each one formation's at most.
    pub parts: Vec<Blob>,
    /// The parts (or the blob) over the limit that no radius cuts or brings within it:
    /// thick everywhere.
    pub uncut: Vec<Blob>,
}

/// The parts of `blob` that may each hold a formation: `blob` itself when its area is
/// at most `limit_mm2`; else the parts the smallest opening that cuts it leaves (by a
/// radius up to `max_radius_mm`, each part at least `min_area_mm2`), each opened
/// further until it is within `limit_mm2`. A part (or the blob) that no radius up to
/// `max_radius_mm` cuts or brings within the limit is [`Cut::uncut`], whole.
pub(crate) fn parts(blob: &Blob, limit_mm2: f64, min_area_mm2: f64, max_radius_mm: f64) -> Cut {
    let mut out = Cut::default();
    let mut stack = vec![(blob.clone(), RADIUS_STEP_MM)];
    while let Some((b, from)) = stack.pop() {
        if b.area_mm2() <= limit_mm2 {
            out.parts.push(b);
            continue;
        }
        let mut r = from;
        let mut cut = false;
        while r <= max_radius_mm {
            let pieces: Vec<Blob> =
                opened(&b, r).into_iter().filter(|p| p.area_mm2() >= min_area_mm2).collect();
            if pieces.is_empty() {
                break;
            }
            if pieces.len() > 1 || pieces[0].area_mm2() <= limit_mm2 {
                stack.extend(pieces.into_iter().map(|p| (p, r + RADIUS_STEP_MM)));
                cut = true;
                break;
            }
            r += RADIUS_STEP_MM;
        }
        if !cut {
            out.uncut.push(b);
        }
    }
    out
}

/// The connected parts of `blob` opened by a disc of radius `radius_mm`: the pixels
/// farther than it from the blob's outline (the cores; 8-connected), each grown back by
/// the radius within the blob. A pixel that two cores reach goes to the nearer one.
fn opened(blob: &Blob, radius_mm: f64) -> Vec<Blob> {
    let grid = Grid::of(blob);
    let (w, h) = (grid.w, grid.h);
    let radius_px = (radius_mm * COARSE_PX_PER_MM) as f32;
    let inside = grid.distance(|i| !grid.mask[i]);
    let core: Vec<bool> = (0..w * h).map(|i| grid.mask[i] && inside[i].0 > radius_px).collect();
    // Label the cores.
    let mut label = vec![0u32; w * h];
    let mut cores = 0u32;
    for start in 0..w * h {
        if !core[start] || label[start] != 0 {
            continue;
        }
        cores += 1;
        label[start] = cores;
        let mut todo = vec![start];
        while let Some(i) = todo.pop() {
            let (x, y) = ((i % w) as i64, (i / w) as i64);
            for (dx, dy) in NEIGHBOURS {
                let (nx, ny) = (x + dx, y + dy);
                if nx < 0 || ny < 0 || nx >= w as i64 || ny >= h as i64 {
                    continue;
                }
                let j = ny as usize * w + nx as usize;
                if core[j] && label[j] == 0 {
                    label[j] = cores;
                    todo.push(j);
                }
            }
        }
    }
    if cores == 0 {
        return Vec::new();
    }
    // Grow each core back by the radius: the distance to the nearest core pixel, with
    // that pixel's label.
    let grown = grid.distance_labelled(|i| core[i], &label);
    let mut points: Vec<Vec<Vec2>> = vec![Vec::new(); cores as usize];
    for (i, &(d, l)) in grown.iter().enumerate() {
        if grid.mask[i] && l > 0 && d <= radius_px + 0.5 {
            points[l as usize - 1].push(grid.point(i));
        }
    }
    points.into_iter().filter(|p| !p.is_empty()).map(blob_of).collect()
}

/// The eight neighbours of a pixel.
const NEIGHBOURS: [(i64, i64); 8] = [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)];

/// A blob's pixels on its grid ([`COARSE_PX_PER_MM`]) over its bounding box with a
/// one-pixel border.
struct Grid {
    w: usize,
    h: usize,
    origin: Vec2,
    mask: Vec<bool>,
}

impl Grid {
    fn of(blob: &Blob) -> Grid {
        let pixel = 1.0 / COARSE_PX_PER_MM;
        let origin = blob.min - Vec2::new(pixel, pixel);
        let w = ((blob.max.x - origin.x) * COARSE_PX_PER_MM).round() as usize + 2;
        let h = ((blob.max.y - origin.y) * COARSE_PX_PER_MM).round() as usize + 2;
        let mut mask = vec![false; w * h];
        for p in &blob.points {
            let d = (*p - origin) * COARSE_PX_PER_MM;
            let (x, y) = (d.x.round() as usize, d.y.round() as usize);
            if x < w && y < h {
                mask[y * w + x] = true;
            }
        }
        Grid { w, h, origin, mask }
    }

    fn point(&self, i: usize) -> Vec2 {
        self.origin + Vec2::new((i % self.w) as f64, (i / self.w) as f64) / COARSE_PX_PER_MM
    }

    /// Each pixel's distance to the nearest pixel where `source` holds, px (a two-pass
    /// chamfer with steps 1 and √2; the grid's border counts as a source for the
    /// distance to the outline, since its border is outside the blob).
    fn distance(&self, source: impl Fn(usize) -> bool) -> Vec<(f32, u32)> {
        let labels = vec![0u32; self.w * self.h];
        self.distance_labelled(source, &labels)
    }

    /// As [`Grid::distance`], with the label (from `labels`) of the source reached.
    fn distance_labelled(&self, source: impl Fn(usize) -> bool, labels: &[u32]) -> Vec<(f32, u32)> {
        let (w, h) = (self.w, self.h);
        let mut d: Vec<(f32, u32)> =
            (0..w * h).map(|i| if source(i) { (0.0, labels[i]) } else { (f32::INFINITY, 0) }).collect();
        let diagonal = std::f32::consts::SQRT_2;
        let relax = |d: &mut [(f32, u32)], i: usize, j: usize, step: f32| {
            let via = d[j].0 + step;
            if via < d[i].0 {
                d[i] = (via, d[j].1);
            }
        };
        for y in 0..h {
            for x in 0..w {
                let i = y * w + x;
                if x > 0 {
                    relax(&mut d, i, i - 1, 1.0);
                }
                if y > 0 {
                    relax(&mut d, i, i - w, 1.0);
                    if x > 0 {
                        relax(&mut d, i, i - w - 1, diagonal);
                    }
                    if x + 1 < w {
                        relax(&mut d, i, i - w + 1, diagonal);
                    }
                }
            }
        }
        for y in (0..h).rev() {
            for x in (0..w).rev() {
                let i = y * w + x;
                if x + 1 < w {
                    relax(&mut d, i, i + 1, 1.0);
                }
                if y + 1 < h {
                    relax(&mut d, i, i + w, 1.0);
                    if x + 1 < w {
                        relax(&mut d, i, i + w + 1, diagonal);
                    }
                    if x > 0 {
                        relax(&mut d, i, i + w - 1, diagonal);
                    }
                }
            }
        }
        d
    }
}

/// A blob of these pixels, with its bounding box.
fn blob_of(points: Vec<Vec2>) -> Blob {
    let (mut min, mut max) =
        (Vec2::new(f64::INFINITY, f64::INFINITY), Vec2::new(f64::NEG_INFINITY, f64::NEG_INFINITY));
    for p in &points {
        min = Vec2::new(min.x.min(p.x), min.y.min(p.y));
        max = Vec2::new(max.x.max(p.x), max.y.max(p.y));
    }
    Blob { points, min, max }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A blob of the pixels (at 1 px per mm, centres at half mm) inside any of `rects`
    /// (x0, y0, x1, y1 mm).
    fn blob(rects: &[(f64, f64, f64, f64)]) -> Blob {
        let mut points = Vec::new();
        for y in 0..400 {
            for x in 0..400 {
                let p = Vec2::new(f64::from(x) + 0.5, f64::from(y) + 0.5);
                if rects.iter().any(|&(x0, y0, x1, y1)| p.x > x0 && p.x < x1 && p.y > y0 && p.y < y1) {
                    points.push(p);
                }
            }
        }
        blob_of(points)
    }

    #[test]
    fn a_blob_within_the_limit_is_itself() {
        let b = blob(&[(10.0, 10.0, 110.0, 50.0)]);
        let p = parts(&b, 5000.0, 300.0, 12.0);
        assert_eq!((p.parts.len(), p.uncut.len()), (1, 0));
        assert_eq!(p.parts[0].points.len(), b.points.len());
    }

    #[test]
    fn two_formations_joined_by_a_neck_fall_apart_there() {
        // Two 120 x 40 mm lines end to end, joined by a neck 10 mm wide.
        let b = blob(&[(10.0, 10.0, 130.0, 50.0), (130.0, 25.0, 140.0, 35.0), (140.0, 10.0, 260.0, 50.0)]);
        assert!(b.area_mm2() > 9000.0);
        let cut = parts(&b, 6000.0, 300.0, 12.0);
        assert!(cut.uncut.is_empty());
        let mut p = cut.parts;
        p.sort_by(|a, b| a.min.x.total_cmp(&b.min.x));
        assert_eq!(p.len(), 2, "{:?}", p.iter().map(Blob::area_mm2).collect::<Vec<_>>());
        for (part, (x0, x1)) in p.iter().zip([(10.0, 130.0), (140.0, 260.0)]) {
            // Each part is its line, give or take the rounded corners and the neck.
            assert!(
                (part.min.x - x0).abs() < 7.0 && (part.max.x - x1).abs() < 7.0,
                "{:?} {:?}",
                part.min,
                part.max
            );
            assert!((part.area_mm2() - 4800.0).abs() < 150.0, "{}", part.area_mm2());
        }
    }

    #[test]
    fn a_strip_narrower_than_the_disc_falls_away_from_a_formation() {
        // A 120 x 40 mm line standing on a strip 8 mm wide and 380 mm long: the strip
        // beyond the line falls away, the part under it stays with the line.
        let b = blob(&[(10.0, 10.0, 130.0, 50.0), (5.0, 50.0, 385.0, 58.0)]);
        let cut = parts(&b, 6000.0, 300.0, 12.0);
        assert!(cut.uncut.is_empty());
        let p = cut.parts;
        assert_eq!(p.len(), 1);
        assert!(p[0].min.x > 4.0 && p[0].max.x < 136.0, "{:?} {:?}", p[0].min, p[0].max);
        assert!(p[0].area_mm2() > 5500.0 && p[0].area_mm2() < 6000.0, "{}", p[0].area_mm2());
    }

    /// A blob thick everywhere is left uncut, whole: a wood 200 x 200 mm (no radius up to
    /// 12 mm cuts it or brings it within 6000), and two 120 x 40 mm lines closed broadside
    /// into one 120 x 85 mm blob (no neck narrower than 24 mm between them).
    #[test]
    fn a_thick_blob_over_the_limit_is_left_uncut_whole() {
        for b in [
            blob(&[(50.0, 50.0, 250.0, 250.0)]),
            blob(&[(10.0, 10.0, 130.0, 50.0), (10.0, 50.0, 130.0, 95.0)]),
        ] {
            let cut = parts(&b, 6000.0, 300.0, 12.0);
            assert!(cut.parts.is_empty(), "{:?}", cut.parts.iter().map(Blob::area_mm2).collect::<Vec<_>>());
            assert_eq!(cut.uncut.len(), 1);
            assert_eq!(cut.uncut[0].points.len(), b.points.len());
        }
    }

    /// A blob cut at a neck whose one part is still over the limit and thick everywhere:
    /// the other part is a part, that one uncut, whole (a line joined by a neck to two
    /// lines closed broadside).
    #[test]
    fn a_part_no_radius_brings_within_the_limit_is_uncut() {
        let b = blob(&[(10.0, 10.0, 130.0, 50.0), (130.0, 25.0, 140.0, 35.0), (140.0, 10.0, 260.0, 95.0)]);
        let cut = parts(&b, 6000.0, 300.0, 12.0);
        assert_eq!((cut.parts.len(), cut.uncut.len()), (1, 1));
        assert!(cut.parts[0].max.x < 137.0, "{:?}", cut.parts[0].max);
        assert!(cut.uncut[0].min.x > 133.0 && cut.uncut[0].area_mm2() > 9500.0, "{:?}", cut.uncut[0].min);
    }
}
