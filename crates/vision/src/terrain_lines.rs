//! Linear terrain from the photo (issue 19): the centre lines of a linear class's
//! mask (walls, hedges, streams, roads) as the table model's polylines. The mask,
//! less what stands on the table, is cleaned, freed of parts wider than any linear
//! piece (a template of a similar colour is no road), thinned to a skeleton
//! ([`crate::thinning`]) whose longest paths are the lines (spurs shorter than
//! [`MIN_BRANCH_MM`] go); ends facing each other across what stands on the line, or
//! across a short break, are joined; lines shorter than [`MIN_LINE_MM`] go; the rest
//! are simplified to [`OUTLINE_TOLERANCE_MM`].

use crate::error::VisionError;
use crate::terrain::{
    OUTLINE_TOLERANCE_MM, SHADOW_REACH_MM, SHADOW_SHARE, Seen, douglas_peucker, round_point,
};
use crate::thinning::{BinaryGrid, thin};
use opencv::core::{Mat, Scalar, Size};
use opencv::prelude::*;
use std::collections::VecDeque;
use vedette_geometry::Vec2;

/// Parts of the mask wider than this are no linear piece, mm (a road template is
/// some 25 mm wide; a farm of the road's colour is not a road).
pub const MAX_LINE_WIDTH_MM: f64 = 40.0;
/// Branches of the skeleton shorter than this are spurs of its ends and blotches,
/// not branches of the piece, mm.
pub const MIN_BRANCH_MM: f64 = 30.0;
/// Linear pieces shorter than this, once joined, are dropped, mm.
pub const MIN_LINE_MM: f64 = 50.0;
/// Two ends facing each other are joined across at most this, mm (a base's depth
/// with its figures' overhang, seen from the side).
pub const MAX_BRIDGE_MM: f64 = 150.0;
/// ... provided no more than this of the gap is bare table rather than the class or
/// something standing on it, mm.
pub const MAX_BARE_GAP_MM: f64 = 12.0;
/// Ends are joined only when each points at the other within this angle, degrees.
const MAX_BRIDGE_TURN_DEG: f64 = 40.0;
/// The direction of an end is taken over its line from this far from it, mm ...
const END_DIRECTION_MM: f64 = 40.0;
/// ... to this far, mm.
const END_SKIP_MM: f64 = 10.0;
/// An end of a line within this of what stands on the table, beyond the line's half
/// width, ...
const CUT_END_REACH_MM: f64 = 3.0;
/// ... is cut back this much, mm (the shadow beside a base, of a hedge's or a
/// stream's colour, is some 15 mm wide).
const CUT_END_MM: f64 = 15.0;
/// Breaks in the mask narrower than this are closed, mm (a blotchy road's darker
/// blotches stray towards a hill's colour).
const CLOSE_MM: f64 = 7.0;
/// Fragments shorter than this are dropped before the ends are joined, mm.
const MIN_FRAGMENT_MM: f64 = 10.0;
/// The class is not looked for this near the table's edges, mm (the photo's edge of
/// the table is dark, and a linear piece there would be off the playing area).
const EDGE_MM: f64 = 5.0;

/// The centre lines (table mm) of the linear class `mask` (the part `seen.roi` of the
/// rectified image, 255 on the class); `to_occupied` is [`distance_to_occupied`].
pub(crate) fn centre_lines(
    mask: &Mat,
    seen: &Seen,
    to_occupied: &Mat,
) -> Result<Vec<Vec<Vec2>>, VisionError> {
    let ppm = seen.rect.px_per_mm;
    let occupied = seen.occupied.roi(seen.roi)?.try_clone()?;
    // The class where the photo shows the table, pinholes of blotches closed, specks
    // opened away.
    let mut free = Mat::default();
    opencv::core::compare(&occupied, &Scalar::all(0.0), &mut free, opencv::core::CMP_EQ)?;
    let mut class = Mat::default();
    opencv::core::bitwise_and_def(mask, &free, &mut class)?;
    let image = seen.occupied.size()?;
    let edge = (EDGE_MM * ppm).round() as i32;
    for r in 0..seen.roi.height {
        let y = seen.roi.y + r;
        let row = class.at_row_mut::<u8>(r)?;
        for (c, v) in row.iter_mut().enumerate() {
            let x = seen.roi.x + c as i32;
            if y < edge || x < edge || y >= image.height - edge || x >= image.width - edge {
                *v = 0;
            }
        }
    }
    let brush = |mm: f64| {
        let side = 2 * (mm * ppm / 2.0).round() as i32 + 1;
        opencv::imgproc::get_structuring_element_def(opencv::imgproc::MORPH_ELLIPSE, Size::new(side, side))
    };
    let mut closed = Mat::default();
    opencv::imgproc::morphology_ex_def(&class, &mut closed, opencv::imgproc::MORPH_CLOSE, &brush(CLOSE_MM)?)?;
    let mut clean = Mat::default();
    opencv::imgproc::morphology_ex_def(&closed, &mut clean, opencv::imgproc::MORPH_OPEN, &brush(3.0)?)?;
    drop_wide_parts(&mut clean, MAX_LINE_WIDTH_MM / 2.0 * ppm)?;
    let mut inside = Mat::default();
    opencv::imgproc::distance_transform_def(&clean, &mut inside, opencv::imgproc::DIST_L2, 3)?;
    let size = clean.size()?;
    let (w, h) = (size.width as usize, size.height as usize);
    let mut grid = BinaryGrid { width: w, height: h, pixels: vec![false; w * h] };
    for r in 0..h {
        for (p, v) in grid.pixels[r * w..][..w].iter_mut().zip(clean.at_row::<u8>(r as i32)?) {
            *p = *v != 0;
        }
    }
    thin(&mut grid);
    let to_occupied = to_occupied.roi(seen.roi)?;
    let to_table = |i: usize| {
        seen.rect.to_table([(seen.roi.x as usize + i % w) as f64, (seen.roi.y as usize + i / w) as f64])
    };
    let mut lines = Vec::new();
    for path in skeleton_paths(&grid, (MIN_BRANCH_MM * ppm).round() as usize) {
        let mut widths: Vec<f32> = Vec::with_capacity(path.len());
        for &i in &path {
            widths.push(*inside.at_2d::<f32>((i / w) as i32, (i % w) as i32)?);
        }
        widths.sort_by(f32::total_cmp);
        let half_width = f64::from(widths[widths.len() / 2]) / ppm;
        let pts: Vec<Vec2> = path.iter().map(|&i| to_table(i)).collect();
        // The skeleton reaches into a corner of a square end, or to the rim of a
        // round one: its last half width is not the centre line. The centre line
        // ends half a width inside the strip's end, as a path drawn that wide would
        // (the table model's lines have no width).
        let mut pts = trim(&pts, half_width);
        for _ in 0..2 {
            pts.reverse();
            if pts.len() >= 2 {
                let out = start_direction(&pts);
                let run = run_along(pts[0], out, 3.0 * half_width, seen, &clean)?;
                if run > half_width {
                    pts.insert(0, pts[0] + out * (run - half_width));
                }
            }
        }
        // Where the line runs under a base, its end may hook into the shadow beside
        // the base: that much of it goes (the ends are joined across the base below).
        for _ in 0..2 {
            pts.reverse();
            if pts.len() >= 2 && occupied_within(pts[0], half_width + CUT_END_REACH_MM, seen, &to_occupied)? {
                pts = cut_start(&pts, CUT_END_MM);
            }
        }
        if length(&pts) >= MIN_FRAGMENT_MM {
            lines.push(pts);
        }
    }
    let gap = Gap { seen, class: &clean };
    join_facing_ends(&mut lines, &gap)?;
    // Shadows beside what stands on the table have the colour of a dark hedge or
    // stream: a line lying mostly within their reach is one.
    let mut kept = Vec::with_capacity(lines.len());
    for l in lines {
        if length(&l) >= MIN_LINE_MM && shadow_share(&l, seen, &to_occupied)? <= SHADOW_SHARE {
            kept.push(l);
        }
    }
    Ok(kept
        .into_iter()
        .map(|l| douglas_peucker(&l, OUTLINE_TOLERANCE_MM).into_iter().map(round_point).collect::<Vec<_>>())
        .filter(|l: &Vec<Vec2>| l.len() >= 2)
        .collect())
}

/// The distance of each pixel of the rectified image to the nearest pixel where
/// something stands, px (32-bit float), for [`centre_lines`].
pub(crate) fn distance_to_occupied(occupied: &Mat) -> Result<Mat, VisionError> {
    let mut free = Mat::default();
    opencv::core::compare(occupied, &Scalar::all(0.0), &mut free, opencv::core::CMP_EQ)?;
    let mut to_occupied = Mat::default();
    opencv::imgproc::distance_transform_def(&free, &mut to_occupied, opencv::imgproc::DIST_L2, 3)?;
    Ok(to_occupied)
}

/// True when something stands within `reach_mm` of `p` (`to_occupied` as in
/// [`shadow_share`]).
fn occupied_within(
    p: Vec2,
    reach_mm: f64,
    seen: &Seen,
    to_occupied: &impl MatTraitConst,
) -> Result<bool, VisionError> {
    let [x, y] = seen.rect.to_px(p);
    let (c, r) = (x.round() as i32 - seen.roi.x, y.round() as i32 - seen.roi.y);
    if c < 0 || r < 0 || c >= seen.roi.width || r >= seen.roi.height {
        return Ok(false);
    }
    Ok(f64::from(*to_occupied.at_2d::<f32>(r, c)?) <= reach_mm * seen.rect.px_per_mm)
}

/// The share of a line's length (sampled every 1 mm) within [`SHADOW_REACH_MM`] of
/// what stands on the table (`to_occupied`: [`distance_to_occupied`] over `seen.roi`).
fn shadow_share(line: &[Vec2], seen: &Seen, to_occupied: &impl MatTraitConst) -> Result<f64, VisionError> {
    let reach = (SHADOW_REACH_MM * seen.rect.px_per_mm) as f32;
    let (mut near, mut all) = (0usize, 0usize);
    for s in line.windows(2) {
        let n = s[0].distance(s[1]).ceil().max(1.0) as usize;
        for k in 0..n {
            let [x, y] = seen.rect.to_px(s[0] + (s[1] - s[0]) * (k as f64 / n as f64));
            let (c, r) = (x.round() as i32 - seen.roi.x, y.round() as i32 - seen.roi.y);
            if c >= 0 && r >= 0 && c < seen.roi.width && r < seen.roi.height {
                all += 1;
                near += usize::from(*to_occupied.at_2d::<f32>(r, c)? <= reach);
            }
        }
    }
    Ok(near as f64 / all.max(1) as f64)
}

/// Removes from `mask` every part wider than twice `max_half_px`: the pixels within
/// that reach of a pixel deeper than it inside the mask (a morphological opening by a
/// disc, through two distance transforms).
fn drop_wide_parts(mask: &mut Mat, max_half_px: f64) -> Result<(), VisionError> {
    let mut inside = Mat::default();
    opencv::imgproc::distance_transform_def(mask, &mut inside, opencv::imgproc::DIST_L2, 3)?;
    let mut core = Mat::default();
    opencv::core::compare(&inside, &Scalar::all(max_half_px), &mut core, opencv::core::CMP_LE)?;
    let mut none_deep = 0.0;
    opencv::core::min_max_loc(&inside, None, Some(&mut none_deep), None, None, &opencv::core::no_array())?;
    if none_deep <= max_half_px {
        return Ok(());
    }
    // `core` is 255 where the mask is not deep: its distance transform is the distance
    // to the nearest deep pixel.
    let mut to_deep = Mat::default();
    opencv::imgproc::distance_transform_def(&core, &mut to_deep, opencv::imgproc::DIST_L2, 3)?;
    let mut wide = Mat::default();
    // A pixel 2 px past the disc's reach goes too: the opening's rim is ragged.
    opencv::core::compare(&to_deep, &Scalar::all(max_half_px + 2.0), &mut wide, opencv::core::CMP_LE)?;
    mask.set_to(&Scalar::all(0.0), &wide)?;
    Ok(())
}

/// The lines of a skeleton, as pixel indices in order: in each 8-connected component
/// its longest path, then, while one is at least `min_branch_px` steps long, the
/// longest path from what is taken to a pixel not yet taken (a branch, starting at
/// its junction).
fn skeleton_paths(grid: &BinaryGrid, min_branch_px: usize) -> Vec<Vec<usize>> {
    // The skeleton's pixels (raster indices, ascending), worked on by their place in
    // this list: the skeleton is a small share of the image.
    let w = grid.width;
    let pixels: Vec<usize> = grid.pixels.iter().enumerate().filter(|(_, p)| **p).map(|(i, _)| i).collect();
    let n = pixels.len();
    let neighbours = |id: usize| {
        let i = pixels[id];
        let (c, r) = ((i % w) as isize, (i / w) as isize);
        let mut out = [usize::MAX; 8];
        let mut k = 0;
        for (dc, dr) in [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)] {
            if grid.get(c + dc, r + dr)
                && let Ok(j) = pixels.binary_search(&((r + dr) as usize * w + (c + dc) as usize))
            {
                out[k] = j;
                k += 1;
            }
        }
        out
    };
    let mut seen = vec![false; n];
    let mut taken = vec![false; n];
    // Steps from the BFS's sources, and the pixel one step nearer them.
    let mut steps = vec![usize::MAX; n];
    let mut parent = vec![usize::MAX; n];
    let mut queue = VecDeque::new();
    let mut touched: Vec<usize> = Vec::new();
    // Breadth first from `sources` over the component's pixels not taken; the
    // farthest pixel reached and its steps.
    let mut bfs = |sources: &[usize],
                   taken: &[bool],
                   steps: &mut Vec<usize>,
                   parent: &mut Vec<usize>,
                   touched: &mut Vec<usize>| {
        for &t in touched.iter() {
            steps[t] = usize::MAX;
            parent[t] = usize::MAX;
        }
        touched.clear();
        for &s in sources {
            steps[s] = 0;
            touched.push(s);
            queue.push_back(s);
        }
        let mut far = (sources[0], 0);
        while let Some(i) = queue.pop_front() {
            if steps[i] > far.1 {
                far = (i, steps[i]);
            }
            for j in neighbours(i).into_iter().take_while(|&j| j != usize::MAX) {
                if steps[j] == usize::MAX && !taken[j] {
                    steps[j] = steps[i] + 1;
                    parent[j] = i;
                    touched.push(j);
                    queue.push_back(j);
                }
            }
        }
        far
    };
    let mut out = Vec::new();
    for start in 0..n {
        if seen[start] {
            continue;
        }
        let (a, _) = bfs(&[start], &taken, &mut steps, &mut parent, &mut touched);
        for &t in &touched {
            seen[t] = true;
        }
        let (b, _) = bfs(&[a], &taken, &mut steps, &mut parent, &mut touched);
        let mut path = vec![b];
        while let Some(&p) = path.last().map(|&i| &parent[i]).filter(|p| **p != usize::MAX) {
            path.push(p);
        }
        let mut in_component = touched.clone();
        for &i in &path {
            taken[i] = true;
        }
        out.push(path);
        // Branches: from everything taken of this component.
        loop {
            // The taken pixels are the sources; the search runs over the others.
            let sources: Vec<usize> = in_component.iter().copied().filter(|&i| taken[i]).collect();
            let (tip, d) = bfs(&sources, &taken, &mut steps, &mut parent, &mut touched);
            if d < min_branch_px.max(1) {
                break;
            }
            let mut branch = vec![tip];
            while let Some(&p) = branch.last().map(|&i| &parent[i]).filter(|p| **p != usize::MAX) {
                branch.push(p);
            }
            for &i in &branch {
                taken[i] = true;
            }
            in_component.extend(branch.iter().copied());
            out.push(branch);
        }
    }
    // Back to raster indices.
    for path in &mut out {
        for id in path.iter_mut() {
            *id = pixels[*id];
        }
    }
    out
}

/// The length of a polyline, mm.
fn length(pts: &[Vec2]) -> f64 {
    pts.windows(2).map(|s| s[0].distance(s[1])).sum()
}

/// A polyline less `cut` mm at each end (nothing left when it is shorter than both).
fn trim(pts: &[Vec2], cut: f64) -> Vec<Vec2> {
    if length(pts) <= 2.0 * cut {
        return Vec::new();
    }
    let head = cut_start(pts, cut);
    let mut rev: Vec<Vec2> = head.into_iter().rev().collect();
    rev = cut_start(&rev, cut);
    rev.reverse();
    rev
}

/// How far from `p` along the unit vector `dir` the class `mask` (the part
/// `seen.roi` of the image) runs on unbroken, up to `limit` mm, in 0.5 mm steps.
fn run_along(p: Vec2, dir: Vec2, limit: f64, seen: &Seen, mask: &Mat) -> Result<f64, VisionError> {
    let mut run = 0.0;
    while run + 0.5 <= limit {
        let [x, y] = seen.rect.to_px(p + dir * (run + 0.5));
        let (c, r) = (x.round() as i32 - seen.roi.x, y.round() as i32 - seen.roi.y);
        if c < 0 || r < 0 || c >= seen.roi.width || r >= seen.roi.height || *mask.at_2d::<u8>(r, c)? == 0 {
            break;
        }
        run += 0.5;
    }
    Ok(run)
}

/// The polyline from `cut` mm along it to its end.
fn cut_start(pts: &[Vec2], cut: f64) -> Vec<Vec2> {
    let mut left = cut;
    for (k, s) in pts.windows(2).enumerate() {
        let d = s[0].distance(s[1]);
        if d > left {
            let mut out = vec![s[0] + (s[1] - s[0]) * (left / d)];
            out.extend_from_slice(&pts[k + 1..]);
            return out;
        }
        left -= d;
    }
    pts.last().map(|p| vec![*p]).unwrap_or_default()
}

/// The outward direction of a polyline's start: along it from [`END_DIRECTION_MM`]
/// to [`END_SKIP_MM`] from the start (a quarter of a shorter line): the last few mm
/// of a line cut by what stands on it may hook into a shadow beside it.
fn start_direction(pts: &[Vec2]) -> Vec2 {
    let l = length(pts);
    let at = |d: f64| cut_start(pts, d).first().copied().unwrap_or(pts[0]);
    let d = at(END_SKIP_MM.min(l / 4.0)) - at(END_DIRECTION_MM.min(l));
    let n = d.length();
    if n > 0.0 { d / n } else { Vec2::ZERO }
}

/// What lies in the gap between two ends: the class's mask and what stands on the
/// table.
struct Gap<'a> {
    seen: &'a Seen<'a>,
    class: &'a Mat,
}

impl Gap<'_> {
    /// How much of the segment from `a` to `b` is bare table (neither the class nor
    /// anything standing on it), mm, sampled every 1 mm.
    fn bare_mm(&self, a: Vec2, b: Vec2) -> Result<f64, VisionError> {
        let d = a.distance(b);
        let n = d.ceil().max(1.0) as usize;
        let mut bare = 0;
        for k in 0..=n {
            let p = a + (b - a) * (k as f64 / n as f64);
            let [x, y] = self.seen.rect.to_px(p);
            let (c, r) = (x.round() as i32, y.round() as i32);
            let (lc, lr) = (c - self.seen.roi.x, r - self.seen.roi.y);
            if lc < 0 || lr < 0 || lc >= self.seen.roi.width || lr >= self.seen.roi.height {
                bare += 1;
                continue;
            }
            let on_class = *self.class.at_2d::<u8>(lr, lc)? != 0;
            let stood_on = *self.seen.occupied.at_2d::<u8>(r, c)? != 0;
            bare += usize::from(!(on_class || stood_on));
        }
        Ok(bare as f64 * d / (n + 1) as f64)
    }
}

/// Joins, nearest first, pairs of ends of different lines that point at each other
/// across at most [`MAX_BRIDGE_MM`], of which at most [`MAX_BARE_GAP_MM`] bare table.
fn join_facing_ends(lines: &mut Vec<Vec<Vec2>>, gap: &Gap) -> Result<(), VisionError> {
    let cos_turn = MAX_BRIDGE_TURN_DEG.to_radians().cos();
    loop {
        // Each end: its line, whether it is the line's start, the point, its outward
        // direction.
        let mut ends = Vec::with_capacity(2 * lines.len());
        for (k, l) in lines.iter().enumerate() {
            let rev: Vec<Vec2> = l.iter().rev().copied().collect();
            ends.push((k, true, l[0], start_direction(l)));
            ends.push((k, false, rev[0], start_direction(&rev)));
        }
        let mut best: Option<(f64, usize, usize)> = None;
        for (i, e) in ends.iter().enumerate() {
            for (j, f) in ends.iter().enumerate().skip(i + 1) {
                if e.0 == f.0 {
                    continue;
                }
                let g = f.2 - e.2;
                let d = g.length();
                if d > MAX_BRIDGE_MM || best.is_some_and(|(b, _, _)| d >= b) {
                    continue;
                }
                // Each end points across the gap at the other (a gap of a pixel or
                // two has no direction of its own: the ends must then be in line).
                let facing = if d > 2.0 {
                    let u = g / d;
                    e.3.dot(u) >= cos_turn && f.3.dot(-u) >= cos_turn
                } else {
                    e.3.dot(-f.3) >= cos_turn
                };
                if facing && gap.bare_mm(e.2, f.2)? <= MAX_BARE_GAP_MM {
                    best = Some((d, i, j));
                }
            }
        }
        let Some((_, i, j)) = best else { return Ok(()) };
        let (e, f) = (ends[i], ends[j]);
        let mut a = std::mem::take(&mut lines[e.0]);
        let mut b = std::mem::take(&mut lines[f.0]);
        // a ends at e, b starts at f.
        if e.1 {
            a.reverse();
        }
        if !f.1 {
            b.reverse();
        }
        a.extend(b);
        lines[e.0] = a;
        lines.remove(f.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trimming_takes_the_cut_off_each_end() {
        let l = vec![Vec2::new(0.0, 0.0), Vec2::new(10.0, 0.0), Vec2::new(10.0, 10.0)];
        let t = trim(&l, 3.0);
        assert_eq!(t, vec![Vec2::new(3.0, 0.0), Vec2::new(10.0, 0.0), Vec2::new(10.0, 7.0)]);
        assert!(trim(&l, 11.0).is_empty());
        let long = vec![Vec2::new(0.0, 0.0), Vec2::new(100.0, 0.0), Vec2::new(103.0, 3.0)];
        // The hook at the far end does not turn the direction of that end.
        assert_eq!(start_direction(&long), Vec2::new(-1.0, 0.0));
        let back: Vec<Vec2> = long.iter().rev().copied().collect();
        assert!((start_direction(&back) - Vec2::new(1.0, 0.0)).length() < 1e-9);
    }

    #[test]
    fn a_skeleton_with_a_spur_and_a_branch_gives_the_line_and_the_branch() {
        // A 60 px horizontal line on row 10, a 3 px spur down at column 20 and a
        // 30 px branch up at column 40.
        let (w, h) = (70, 50);
        let mut g = BinaryGrid { width: w, height: h, pixels: vec![false; w * h] };
        for c in 5..65 {
            g.pixels[40 * w + c] = true;
        }
        for r in 41..44 {
            g.pixels[r * w + 20] = true;
        }
        for r in 5..40 {
            g.pixels[r * w + 40] = true;
        }
        let paths = skeleton_paths(&g, 20);
        assert_eq!(paths.len(), 2, "{paths:?}");
        let lens: Vec<usize> = paths.iter().map(Vec::len).collect();
        // The longest path runs from the branch's tip to one end of the line (95 or
        // so), the branch the rest of the line.
        assert!(lens[0] >= 60 && lens[1] >= 20, "{lens:?}");
    }
}
