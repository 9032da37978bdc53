//! Bases of one unit that block sight as one solid rectangle, and the slits between them.
//!
//! A line of bases (or a grid of ranks and files) stands side by side, but in a file
//! written by hand, generated with rounded coordinates, or read from a photo, the
//! neighbours rarely touch exactly: they overlap by a hair or leave a slit a fraction of
//! a micrometre wide. Under the tie rule of [`crate::sight`] such a slit is see-through
//! (it is wider than [`GRAZE_TOLERANCE_MM`]), but only along the lines that thread it
//! from one end to the other; every other line that crosses the group meets a base.
//!
//! A [`SolidBlock`] records a group laid out as a complete grid in the unit's frame:
//! the rectangle `inner` that lies wholly in its bases and its slits, the rectangle
//! `outer` that holds every base, and each slit as a [`Slit`] strip. Its claim, used by
//! the occlusion sweep ([`super::occlusion`]): a sight segment whose ends lie outside
//! `outer` and that passes through a point at least [`SOLID_MARGIN_MM`] inside `inner`
//! is blocked, unless it threads one of the slits ([`Slit::threaded_from`] tells
//! whether any line through a given eye can).
//!
//! Why: such a segment crosses `inner` along a chord at least twice the margin long.
//! `inner` is covered by the grid's cells (each inside its base) and the strips between
//! columns and between ranks, each at most [`MAX_SLIT_MM`] wide. A straight chord that
//! long and that stays out of every cell (within the graze tolerance) must run within
//! one strip, nearly parallel to it; once it leaves the strip into a cell it goes
//! deeper at a constant angle over the cell's whole length, so it is cut unless it
//! stays within [`SLIT_PAD_MM`] of the strip from end to end: it threads the padded
//! slit.

use super::union_root;
use crate::base::Base;
use crate::sight::GRAZE_TOLERANCE_MM;
use crate::vec2::Vec2;

/// Widest slit (or widest spread of a column's edges) a grid may have and still count
/// as one block, mm.
pub(crate) const MAX_SLIT_MM: f64 = 0.005;

/// How far each slit is widened on both sides for the threading test, mm: far above
/// the graze tolerance and the drift of a line nearly parallel to the slit.
pub(crate) const SLIT_PAD_MM: f64 = 1e-4;

/// How deep inside `inner` a segment must pass for the block's claim, mm.
pub(crate) const SOLID_MARGIN_MM: f64 = 0.05;

const _: () = assert!(SLIT_PAD_MM > 10.0 * GRAZE_TOLERANCE_MM && SOLID_MARGIN_MM > 5.0 * MAX_SLIT_MM);

/// A rectangle aligned with a unit's frame: `origin + ax·x + ay·y` for `x` in
/// `[x0, x1]`, `y` in `[y0, y1]` (`ax` to the unit's right, `ay` to its front).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct FrameRect {
    pub origin: Vec2,
    pub ax: Vec2,
    pub ay: Vec2,
    pub x0: f64,
    pub x1: f64,
    pub y0: f64,
    pub y1: f64,
}

impl FrameRect {
    /// The corners, counter-clockwise.
    pub fn corners(&self) -> [Vec2; 4] {
        let p = |x: f64, y: f64| self.origin + self.ax * x + self.ay * y;
        [p(self.x0, self.y0), p(self.x1, self.y0), p(self.x1, self.y1), p(self.x0, self.y1)]
    }

    /// The rectangle shrunk by `d` on every side, if anything is left.
    pub fn eroded(&self, d: f64) -> Option<FrameRect> {
        let r = FrameRect { x0: self.x0 + d, x1: self.x1 - d, y0: self.y0 + d, y1: self.y1 - d, ..*self };
        (r.x0 < r.x1 && r.y0 < r.y1).then_some(r)
    }
}

/// A slit between two files or two ranks of a block: a strip of half-width `half_width`
/// (padded) about the segment from `centre - axis·half_length` to
/// `centre + axis·half_length`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Slit {
    pub centre: Vec2,
    pub axis: Vec2,
    pub half_length: f64,
    pub half_width: f64,
}

impl Slit {
    /// True when some line through a point of `eye` (a segment or a point) crosses both
    /// ends of the slit: the lines through the two end openings sweep the double wedge
    /// `|b| ≤ half_width · max(1, |a| / half_length)` in the slit's coordinates (`a`
    /// along it, `b` across). The test is exact on that wedge: its margin is the
    /// padding.
    pub fn threaded_from(&self, eye: &[Vec2]) -> bool {
        let n = self.axis.perp_left();
        let ab = |p: Vec2| {
            let d = p - self.centre;
            (d.dot(self.axis), d.dot(n))
        };
        let reach = |a: f64, b: f64| self.half_width * (a.abs() / self.half_length).max(1.0) - b.abs();
        let (a0, b0) = ab(eye[0]);
        let (a1, b1) = ab(eye[eye.len() - 1]);
        if eye.len() == 1 {
            return reach(a0, b0) >= 0.0;
        }
        // The reach is piecewise linear along the eye: its largest value is at an end or
        // where a = ±half_length or b = 0.
        let mut ts = [0.0, 1.0, f64::NAN, f64::NAN, f64::NAN];
        let mut k = 2;
        for (f0, f1) in [
            (a0 - self.half_length, a1 - self.half_length),
            (a0 + self.half_length, a1 + self.half_length),
            (b0, b1),
        ] {
            if (f0 < 0.0) != (f1 < 0.0) {
                ts[k] = f0 / (f0 - f1);
                k += 1;
            }
        }
        ts[..k].iter().any(|&t| reach(a0 + (a1 - a0) * t, b0 + (b1 - b0) * t) >= 0.0)
    }
}

/// Bases of one unit blocking as one rectangle (see the module documentation). A lone
/// base is a block of one, with `inner` and `outer` both its rectangle and no slits.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct SolidBlock {
    pub unit: usize,
    /// Indices of its bases in the unit.
    pub bases: Vec<usize>,
    /// Inside the bases and slits.
    pub inner: FrameRect,
    /// Holds every base.
    pub outer: FrameRect,
    pub slits: Vec<Slit>,
}

impl SolidBlock {
    fn single(unit: usize, i: usize, b: &Base) -> SolidBlock {
        let (hw, hd) = (b.width() / 2.0, b.depth() / 2.0);
        let r = FrameRect {
            origin: b.centre(),
            ax: b.right(),
            ay: b.forward(),
            x0: -hw,
            x1: hw,
            y0: -hd,
            y1: hd,
        };
        SolidBlock { unit, bases: vec![i], inner: r, outer: r, slits: Vec::new() }
    }

    /// The block split into its bases, one block each.
    pub fn split(&self, bases: &[Base]) -> Vec<SolidBlock> {
        self.bases.iter().map(|&i| SolidBlock::single(self.unit, i, &bases[i])).collect()
    }
}

/// The unit's bases as blocks: each group of bases that touch or nearly touch and form a
/// complete grid (files × ranks, same heading) is one block; every other base is a block
/// of its own.
pub(crate) fn solid_blocks(unit: usize, bases: &[Base]) -> Vec<SolidBlock> {
    let n = bases.len();
    if n == 0 {
        return Vec::new();
    }
    let b0 = &bases[0];
    let same_heading = bases.iter().all(|b| b.heading_deg() == b0.heading_deg());
    if n == 1 || !same_heading {
        return bases.iter().enumerate().map(|(i, b)| SolidBlock::single(unit, i, b)).collect();
    }
    let (origin, ax, ay) = (b0.centre(), b0.right(), b0.forward());
    // Each base in the frame: [left, right] × [back, front].
    let rects: Vec<[f64; 4]> = bases
        .iter()
        .map(|b| {
            let d = b.centre() - origin;
            let (x, y) = (d.dot(ax), d.dot(ay));
            let (hw, hd) = (b.width() / 2.0, b.depth() / 2.0);
            [x - hw, x + hw, y - hd, y + hd]
        })
        .collect();
    // Groups of bases whose rectangles lie within MAX_SLIT_MM of each other.
    let mut parent: Vec<usize> = (0..n).collect();
    for i in 0..n {
        for j in i + 1..n {
            let (a, b) = (rects[i], rects[j]);
            let gx = (b[0] - a[1]).max(a[0] - b[1]);
            let gy = (b[2] - a[3]).max(a[2] - b[3]);
            if gx <= MAX_SLIT_MM && gy <= MAX_SLIT_MM {
                let (ri, rj) = (union_root(&mut parent, i), union_root(&mut parent, j));
                parent[ri] = rj;
            }
        }
    }
    let mut out = Vec::new();
    for r in 0..n {
        let members: Vec<usize> = (0..n).filter(|&i| union_root(&mut parent, i) == r).collect();
        if members.is_empty() {
            continue;
        }
        match grid_block(unit, &members, &rects, origin, ax, ay) {
            Some(b) => out.push(b),
            None => out.extend(members.iter().map(|&i| SolidBlock::single(unit, i, &bases[i]))),
        }
    }
    out
}

/// The group as one block when it is a complete grid of files and ranks with every
/// neighbouring pair within MAX_SLIT_MM.
fn grid_block(
    unit: usize,
    members: &[usize],
    rects: &[[f64; 4]],
    origin: Vec2,
    ax: Vec2,
    ay: Vec2,
) -> Option<SolidBlock> {
    if members.len() == 1 {
        return None;
    }
    // Files by centre x, ranks by centre y: a new one wherever centres differ by more
    // than half the narrowest base.
    let cluster = |lo: usize, hi: usize| -> Vec<Vec<usize>> {
        let min_size = members.iter().map(|&i| rects[i][hi] - rects[i][lo]).fold(f64::INFINITY, f64::min);
        let mid = |i: usize| (rects[i][lo] + rects[i][hi]) / 2.0;
        let mut sorted = members.to_vec();
        sorted.sort_by(|&a, &b| mid(a).total_cmp(&mid(b)));
        let mut groups: Vec<Vec<usize>> = Vec::new();
        for i in sorted {
            match groups.last_mut() {
                Some(g) if mid(i) - mid(g[0]) < min_size / 2.0 => g.push(i),
                _ => groups.push(vec![i]),
            }
        }
        groups
    };
    let files = cluster(0, 1);
    let ranks = cluster(2, 3);
    let (nf, nr) = (files.len(), ranks.len());
    if nf * nr != members.len() {
        return None;
    }
    let file_of = |i: usize| files.iter().position(|f| f.contains(&i));
    let rank_of = |i: usize| ranks.iter().position(|r| r.contains(&i));
    let mut cell = vec![None; nf * nr];
    for &i in members {
        let k = rank_of(i)? * nf + file_of(i)?;
        if cell[k].replace(i).is_some() {
            return None;
        }
    }
    let at = |f: usize, r: usize| rects[cell[r * nf + f].unwrap_or(members[0])];
    // Column cores [L_f, R_f] and rank cores [B_r, F_r]: inside every base of the file
    // (rank); the strips between them are the slits.
    let core = |k: usize, n_other: usize, across: bool| -> (f64, f64) {
        let mut lo = f64::NEG_INFINITY;
        let mut hi = f64::INFINITY;
        for o in 0..n_other {
            let r = if across { at(k, o) } else { at(o, k) };
            let (a, b) = if across { (r[0], r[1]) } else { (r[2], r[3]) };
            lo = lo.max(a);
            hi = hi.min(b);
        }
        (lo, hi)
    };
    let fcores: Vec<(f64, f64)> = (0..nf).map(|f| core(f, nr, true)).collect();
    let rcores: Vec<(f64, f64)> = (0..nr).map(|r| core(r, nf, false)).collect();
    if fcores.iter().chain(rcores.iter()).any(|(lo, hi)| lo >= hi) {
        return None;
    }
    for w in fcores.windows(2).chain(rcores.windows(2)) {
        if w[1].0 - w[0].1 > MAX_SLIT_MM {
            return None;
        }
    }
    let inner = FrameRect {
        origin,
        ax,
        ay,
        x0: fcores[0].0,
        x1: fcores[nf - 1].1,
        y0: rcores[0].0,
        y1: rcores[nr - 1].1,
    };
    let bound =
        |k: usize, f: fn(f64, f64) -> f64, init: f64| members.iter().map(|&i| rects[i][k]).fold(init, f);
    let outer = FrameRect {
        origin,
        ax,
        ay,
        x0: bound(0, f64::min, f64::INFINITY),
        x1: bound(1, f64::max, f64::NEG_INFINITY),
        y0: bound(2, f64::min, f64::INFINITY),
        y1: bound(3, f64::max, f64::NEG_INFINITY),
    };
    let mut slits = Vec::new();
    let p = |x: f64, y: f64| origin + ax * x + ay * y;
    for w in fcores.windows(2) {
        if w[1].0 > w[0].1 {
            slits.push(Slit {
                centre: p((w[0].1 + w[1].0) / 2.0, (inner.y0 + inner.y1) / 2.0),
                axis: ay,
                half_length: (inner.y1 - inner.y0) / 2.0,
                half_width: (w[1].0 - w[0].1) / 2.0 + SLIT_PAD_MM,
            });
        }
    }
    for w in rcores.windows(2) {
        if w[1].0 > w[0].1 {
            slits.push(Slit {
                centre: p((inner.x0 + inner.x1) / 2.0, (w[0].1 + w[1].0) / 2.0),
                axis: ax,
                half_length: (inner.x1 - inner.x0) / 2.0,
                half_width: (w[1].0 - w[0].1) / 2.0 + SLIT_PAD_MM,
            });
        }
    }
    let mut bases = members.to_vec();
    bases.sort_unstable();
    Some(SolidBlock { unit, bases, inner, outer, slits })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::{BaseSize, Pose};

    fn line(n: usize, gap: f64, heading: f64) -> Vec<Base> {
        let f = Vec2::from_heading_deg(heading);
        (0..n)
            .map(|i| {
                let c = f.perp_right() * ((i as f64) * (30.0 + gap));
                Base::new(BaseSize::new(30.0, 20.0), Pose::new(c, heading))
            })
            .collect()
    }

    #[test]
    fn a_line_with_hairline_gaps_is_one_block_with_its_slits() {
        let bases = line(4, 3e-4, 97.0);
        let blocks = solid_blocks(0, &bases);
        assert_eq!(blocks.len(), 1);
        let b = &blocks[0];
        assert_eq!(b.bases, vec![0, 1, 2, 3]);
        assert_eq!(b.slits.len(), 3);
        assert!((b.inner.x1 - b.inner.x0 - (120.0 + 9e-4)).abs() < 1e-9);
        // Straight along the slit between the first two bases: threaded; 1 mm aside: not.
        let s = b.slits[0];
        let far = s.centre + s.axis * 300.0;
        assert!(s.threaded_from(&[far - s.axis.perp_left() * 5.0, far + s.axis.perp_left() * 5.0]));
        let aside = far + s.axis.perp_left() * 1.0;
        assert!(!s.threaded_from(&[aside, aside + s.axis.perp_left() * 5.0]));
        // A wide gap splits the line.
        assert_eq!(solid_blocks(0, &line(3, 0.5, 90.0)).len(), 3);
        // Overlapping neighbours: one block, no slit.
        let over = solid_blocks(0, &line(3, -1e-4, 90.0));
        assert_eq!((over.len(), over[0].slits.len()), (1, 0));
    }

    #[test]
    fn a_grid_of_ranks_is_one_block_and_a_road_column_is_not() {
        let at = |x: f64, y: f64| Base::new(BaseSize::new(30.0, 20.0), Pose::new(Vec2::new(x, y), 90.0));
        let grid = [at(0.0, 0.0), at(30.0, 0.0), at(0.0, -20.0002), at(30.0003, -20.0)];
        let blocks = solid_blocks(3, &grid);
        assert_eq!(blocks.len(), 1);
        assert_eq!(blocks[0].slits.len(), 2);
        let r = blocks[0].inner;
        assert!(r.x0 <= -15.0 + 1e-9 && r.x1 >= 45.0 - 1e-3 && r.y0 <= -30.0 + 1e-3 && r.y1 >= 10.0 - 1e-9);
        let road = [at(0.0, 0.0), at(0.0, -40.0)];
        assert_eq!(solid_blocks(3, &road).len(), 2);
    }
}
