//! Cutting the elements: each element's parts that no ring edge holds nearer than `r`.
//!
//! What an element keeps is what the union of every edge's held parts ([`held_parts`])
//! leaves of it. That union does not depend on the order the edges are asked in (the
//! parts are merged into sorted, disjoint intervals whose ends are the parts' own ends),
//! and an edge at least `r` from every point of the element holds none of it. So only
//! the edges that may come within `r` are asked, and the outline is the same whichever
//! of them are:
//! - **Candidates**: the edges in the cells of a uniform grid ([`EdgeGrid`]) that the
//!   box of the points within `r` of the element meets.
//! - **Reach**: a candidate is asked when it comes within `r` of the element: the
//!   distance between two segments for a line, for an arc a test that passes every edge
//!   within `r` of it and a hair more ([`Element::reach_2`]).
//! - **Held whole by one edge** (most elements, deep inside their neighbours' buffers):
//!   an element wholly held by one edge in reach is gone whatever the others hold. Such
//!   an edge is within `r` of each of the points whose convex hull holds the element, so
//!   its box meets the box of the points within `r` of all of them: the edges listed in
//!   the cells of that smaller box are run through a cheap sign of it (all those points
//!   nearer than `r`: [`Reach::within`]), and the first that shows it is asked
//!   [`held_parts`]; when that holds the element whole, it is dropped with no other edge
//!   asked. The edge that held the last element is tried first of all: the next element
//!   along the ring is most often held by it too.
//! - Otherwise the edges in reach are asked in turn, the nearest first, and the element
//!   is dropped once their parts cover it.

use super::element::{
    ArcPart, CUT_TOLERANCE_MM, Edge, Element, REACH_MARGIN_MM, arc_may_reach, held_parts, merge,
};
use crate::vec2::Vec2;

/// A surviving part of an element: parameters `from` to `to`.
#[derive(Debug, Clone, Copy)]
pub(super) struct Piece {
    pub(super) element: usize,
    pub(super) from: f64,
    pub(super) to: f64,
}

/// Pushes the parts of element `k` (parameters `0..end`) that no interval of `held`
/// (sorted and merged, the parts some edge holds) covers: what survives of it.
pub(super) fn unheld_pieces(k: usize, held: &[(f64, f64)], end: f64, pieces: &mut Vec<Piece>) {
    let mut from = 0.0;
    for &(c0, c1) in held {
        if c0 > from {
            pieces.push(Piece { element: k, from, to: c0 });
        }
        from = f64::max(from, c1);
    }
    if from < end {
        pieces.push(Piece { element: k, from, to: end });
    }
}

/// The edges in a uniform grid of square cells: each edge listed in every cell its box
/// meets, so every edge whose box meets a box is listed in a cell that box meets.
struct EdgeGrid {
    /// The grid's lower corner.
    lo: Vec2,
    /// One over the cells' side, 1/mm.
    per_mm: f64,
    /// Columns and rows.
    nx: usize,
    ny: usize,
    /// Cell `k`'s edges (row-major) are `items[start[k]..start[k + 1]]`.
    start: Vec<usize>,
    items: Vec<usize>,
}

impl EdgeGrid {
    /// The grid of `edges`, its cells about `side` mm across (wider when that would
    /// make many more cells than edges).
    fn new(edges: &[Edge], side: f64) -> EdgeGrid {
        let (mut lo, mut hi) =
            (Vec2::new(f64::INFINITY, f64::INFINITY), Vec2::new(f64::NEG_INFINITY, f64::NEG_INFINITY));
        for e in edges {
            lo = Vec2::new(lo.x.min(e.a.x).min(e.b.x), lo.y.min(e.a.y).min(e.b.y));
            hi = Vec2::new(hi.x.max(e.a.x).max(e.b.x), hi.y.max(e.a.y).max(e.b.y));
        }
        let max_cells = 4 * edges.len() + 16;
        let mut side = side;
        let count = |side: f64| {
            // (Saturating: a span beyond the cells' reach counts as too many cells, one
            // that is not a number as one cell.)
            let n = |w: f64| {
                let q = w / side;
                if q.is_nan() { 1 } else { (q.floor() as usize).saturating_add(1) }
            };
            (n(hi.x - lo.x), n(hi.y - lo.y))
        };
        let (mut nx, mut ny) = count(side);
        while nx.saturating_mul(ny) > max_cells {
            side *= 2.0;
            (nx, ny) = count(side);
        }
        let mut grid =
            EdgeGrid { lo, per_mm: 1.0 / side, nx, ny, start: vec![0; nx * ny + 1], items: Vec::new() };
        // Counted, then placed: each cell's edges in edge order.
        let cells: Vec<(usize, usize, usize, usize)> = edges.iter().map(|e| grid.cells(e.a, e.b)).collect();
        for &(x0, x1, y0, y1) in &cells {
            for y in y0..=y1 {
                for x in x0..=x1 {
                    grid.start[y * nx + x + 1] += 1;
                }
            }
        }
        for k in 0..nx * ny {
            grid.start[k + 1] += grid.start[k];
        }
        let mut fill = grid.start.clone();
        grid.items = vec![0; grid.start[nx * ny]];
        for (i, &(x0, x1, y0, y1)) in cells.iter().enumerate() {
            for y in y0..=y1 {
                for x in x0..=x1 {
                    grid.items[fill[y * nx + x]] = i;
                    fill[y * nx + x] += 1;
                }
            }
        }
        grid
    }

    /// The columns and rows (first and last of each) the box of `p` and `q` meets.
    fn cells(&self, p: Vec2, q: Vec2) -> (usize, usize, usize, usize) {
        // Saturating casts (truncating, as the floor for what is not below the grid):
        // below the grid is column 0, NaN too; past it, the last.
        let at = |v: f64, lo: f64, n: usize| (((v - lo) * self.per_mm) as usize).min(n - 1);
        (
            at(p.x.min(q.x), self.lo.x, self.nx),
            at(p.x.max(q.x), self.lo.x, self.nx),
            at(p.y.min(q.y), self.lo.y, self.ny),
            at(p.y.max(q.y), self.lo.y, self.ny),
        )
    }

    /// Appends to `out` each edge listed in a cell the box (`lo`, `hi`) meets, once:
    /// `mark[i] == stamp` marks edge `i` as taken.
    fn collect(&self, lo: Vec2, hi: Vec2, stamp: usize, mark: &mut [usize], out: &mut Vec<usize>) {
        let (x0, x1, y0, y1) = self.cells(lo, hi);
        for y in y0..=y1 {
            let row = y * self.nx;
            for &i in &self.items[self.start[row + x0]..self.start[row + x1 + 1]] {
                if mark[i] != stamp {
                    mark[i] = stamp;
                    out.push(i);
                }
            }
        }
    }
}

/// Each element's parts farther than `r` (less the tolerance) from every edge, in
/// element order, each part in order along its element.
pub(super) fn surviving_pieces(edges: &[Edge], elements: &[Element], r: f64) -> Vec<Piece> {
    let limit_2 = (r - CUT_TOLERANCE_MM).max(0.0).powi(2);
    let mut pieces = Vec::new();
    if edges.is_empty() {
        return pieces;
    }
    let grid = EdgeGrid::new(edges, 0.5 * r);
    let mut mark = vec![usize::MAX; edges.len()];
    let mut candidates: Vec<usize> = Vec::new();
    let mut cuts: Vec<f64> = Vec::new();
    let mut culled: Vec<(f64, f64)> = Vec::new();
    let mut open: Vec<ArcPart> = Vec::new();
    let mut last_holder: Option<usize> = None;
    for (k, el) in elements.iter().enumerate() {
        let end = el.end();
        // Whether edge `i` holds the whole element, as the cutting below would find.
        let mut holds_whole = |i: usize, culled: &mut Vec<(f64, f64)>| {
            culled.clear();
            held_parts(el, &edges[i], r, limit_2, &mut cuts, culled);
            culled.len() == 1 && culled[0].0 <= 0.0 && culled[0].1 >= end
        };
        let reach = el.reach(r);
        if let Some(i) = last_holder.filter(|&i| !el.generated_by(i))
            && reach.within(&edges[i], r, limit_2)
            && holds_whole(i, &mut culled)
        {
            continue;
        }
        // An edge holding the whole element is within `r` of each of the hull's points,
        // so its box meets the box within `r` of all of them.
        if let Some((lo, hi)) = reach.holders_box(r) {
            candidates.clear();
            grid.collect(lo, hi, 2 * k, &mut mark, &mut candidates);
            if let Some(i) = candidates.iter().copied().find(|&i| {
                !el.generated_by(i) && reach.within(&edges[i], r, limit_2) && holds_whole(i, &mut culled)
            }) {
                last_holder = Some(i);
                continue;
            }
        }
        let (lo, hi) = reach.grown_box(r + REACH_MARGIN_MM);
        candidates.clear();
        grid.collect(lo, hi, 2 * k + 1, &mut mark, &mut candidates);
        // The parts each edge in reach holds, merged: the element is gone once they
        // cover it. Of an arc partly held, an edge that comes nowhere near the parts
        // still open is passed over: it holds only parts already held (see the module
        // docs).
        culled.clear();
        let mut open_known = false;
        let mut gone = false;
        for &i in &candidates {
            let e = &edges[i];
            if el.generated_by(i) || !e.meets(lo, hi) {
                continue;
            }
            let asked = if culled.is_empty() || !matches!(el, Element::Arc { .. }) {
                el.reaches(&reach, e, r)
            } else {
                if !open_known {
                    open.clear();
                    el.open_parts(&culled, r, &mut open);
                    open_known = true;
                }
                open.iter().any(|p| arc_may_reach(p, e, r))
            };
            if !asked {
                continue;
            }
            let first = culled.len();
            held_parts(el, e, r, limit_2, &mut cuts, &mut culled);
            if culled.len() > first {
                merge(&mut culled);
                open_known = false;
                if culled.len() == 1 && culled[0].0 <= 0.0 && culled[0].1 >= end {
                    gone = true;
                    break;
                }
            }
        }
        if gone {
            continue;
        }
        unheld_pieces(k, &culled, end, &mut pieces);
    }
    pieces
}
