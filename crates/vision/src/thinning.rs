//! Thinning of a binary mask to one-pixel-wide centre lines (Zhang and Suen, "A fast
//! parallel algorithm for thinning digital patterns", CACM 27(3), 1984): the linear
//! terrain classes' centre lines (issue 19). OpenCV's `ximgproc::thinning` is in the
//! contrib modules the scanner does not link.

/// A binary image, row-major, `true` for foreground; outside it is background.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct BinaryGrid {
    /// Columns.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// `width * height` pixels.
    pub pixels: Vec<bool>,
}

impl BinaryGrid {
    /// The pixel at (column, row), `false` outside the grid.
    #[must_use]
    pub fn get(&self, c: isize, r: isize) -> bool {
        c >= 0
            && r >= 0
            && (c as usize) < self.width
            && (r as usize) < self.height
            && self.pixels[r as usize * self.width + c as usize]
    }

    /// The eight neighbours of (column, row) clockwise from north: P2 to P9 of
    /// Zhang and Suen (north is the row above).
    fn ring(&self, c: isize, r: isize) -> [bool; 8] {
        [
            self.get(c, r - 1),
            self.get(c + 1, r - 1),
            self.get(c + 1, r),
            self.get(c + 1, r + 1),
            self.get(c, r + 1),
            self.get(c - 1, r + 1),
            self.get(c - 1, r),
            self.get(c - 1, r - 1),
        ]
    }
}

/// Thins `grid` in place to a skeleton one pixel wide that keeps its connectivity
/// (8-connected foreground).
pub(crate) fn thin(grid: &mut BinaryGrid) {
    // Only foreground pixels can be removed: keep a list of them rather than sweeping
    // the whole grid on every pass (lines are a small share of the table).
    let mut live: Vec<(isize, isize)> = grid
        .pixels
        .iter()
        .enumerate()
        .filter(|(_, p)| **p)
        .map(|(i, _)| ((i % grid.width) as isize, (i / grid.width) as isize))
        .collect();
    let mut marked = Vec::new();
    loop {
        let mut changed = false;
        for step in 0..2 {
            marked.clear();
            for &(c, r) in &live {
                let n = grid.ring(c, r);
                let b = n.iter().filter(|v| **v).count();
                let a = (0..8).filter(|&k| !n[k] && n[(k + 1) % 8]).count();
                let [p2, _, p4, _, p6, _, p8, _] = n;
                let (x, y) = if step == 0 {
                    (p2 && p4 && p6, p4 && p6 && p8)
                } else {
                    (p2 && p4 && p8, p2 && p6 && p8)
                };
                if (2..=6).contains(&b) && a == 1 && !x && !y {
                    marked.push((c, r));
                }
            }
            for &(c, r) in &marked {
                grid.pixels[r as usize * grid.width + c as usize] = false;
            }
            changed |= !marked.is_empty();
            live.retain(|&(c, r)| grid.pixels[r as usize * grid.width + c as usize]);
        }
        if !changed {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(rows: &[&str]) -> BinaryGrid {
        BinaryGrid {
            width: rows[0].len(),
            height: rows.len(),
            pixels: rows.iter().flat_map(|r| r.chars().map(|ch| ch == '#')).collect(),
        }
    }

    #[test]
    fn a_bar_thins_to_its_centre_row() {
        // A 5 px thick bar 30 px long: the skeleton lies on its middle row, one pixel
        // wide, and spans most of its length.
        let mut g = BinaryGrid { width: 40, height: 9, pixels: vec![false; 360] };
        for r in 2..7 {
            for c in 5..35 {
                g.pixels[r * 40 + c] = true;
            }
        }
        thin(&mut g);
        let on: Vec<(usize, usize)> = (0..360).filter(|&i| g.pixels[i]).map(|i| (i % 40, i / 40)).collect();
        let middle = on.iter().filter(|(_, r)| *r == 4).count();
        assert!(middle >= 24, "{on:?}");
        // Off the middle row only the two ends' last pixels.
        assert!(on.len() - middle <= 4, "{on:?}");
    }

    #[test]
    fn thinning_keeps_a_ring_closed_and_removes_nothing_of_a_line() {
        let mut ring = grid(&[
            "..........",
            ".########.",
            ".########.",
            ".##....##.",
            ".##....##.",
            ".########.",
            ".########.",
            "..........",
        ]);
        thin(&mut ring);
        // Still a loop: every skeleton pixel has at least two neighbours.
        for r in 0..ring.height as isize {
            for c in 0..ring.width as isize {
                if ring.get(c, r) {
                    let n = ring.ring(c, r).iter().filter(|v| **v).count();
                    assert!(n >= 2, "({c}, {r})");
                }
            }
        }
        let line = grid(&["..........", ".########.", ".........."]);
        let mut thinned = line.clone();
        thin(&mut thinned);
        assert_eq!(thinned.pixels.iter().filter(|p| **p).count(), 8);
    }
}
