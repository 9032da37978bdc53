//! The plain cutting the pruned one ([`super::cutting`]) must match piece for piece:
//! every edge whose box comes within `r` of the element's box, and within `r` of the
//! element (an arc: `2r` of its centre), asked in turn, the edges found through the
//! edges sorted by x (tests).

use super::cutting::{Piece, unheld_pieces};
use super::element::{
    CUT_TOLERANCE_MM, Edge, Element, from_pseudo_angle, held_parts, merge, segments_distance_2,
};
use crate::vec2::Vec2;

/// The element's box, an arc's as its whole circle's, (min, max).
fn bbox(el: &Element, r: f64) -> (Vec2, Vec2) {
    match *el {
        Element::Line { a, b, .. } => {
            (Vec2::new(a.x.min(b.x), a.y.min(b.y)), Vec2::new(a.x.max(b.x), a.y.max(b.y)))
        }
        Element::Arc { c, .. } => (c - Vec2::new(r, r), c + Vec2::new(r, r)),
    }
}

/// When edge `e` may hold some of the element within `r`: the squared distance from the
/// element's middle to the edge.
fn reach_2(el: &Element, e: &Edge, r: f64) -> Option<f64> {
    match *el {
        Element::Line { a, b, .. } => {
            let d2 = segments_distance_2(a, b, e);
            (d2 < r * r).then(|| e.distance_2(a.lerp(b, 0.5)))
        }
        Element::Arc { c, d0, end, .. } => {
            (e.distance_2(c) < 4.0 * r * r).then(|| e.distance_2(c + from_pseudo_angle(d0, 0.5 * end) * r))
        }
    }
}

pub(super) fn surviving_pieces(edges: &[Edge], elements: &[Element], r: f64) -> Vec<Piece> {
    // Edges by the left of their box, and the widest box: the edges near an element
    // are a run of this order.
    let mut by_x: Vec<usize> = (0..edges.len()).collect();
    by_x.sort_by(|&i, &j| edges[i].box_x().0.total_cmp(&edges[j].box_x().0));
    let lefts: Vec<f64> = by_x.iter().map(|&i| edges[i].box_x().0).collect();
    let widest = edges.iter().map(|e| e.box_x().1 - e.box_x().0).fold(0.0, f64::max);
    let limit_2 = (r - CUT_TOLERANCE_MM).max(0.0).powi(2);
    let mut pieces = Vec::new();
    let mut near: Vec<(f64, usize)> = Vec::new();
    let mut cuts: Vec<f64> = Vec::new();
    let mut culled: Vec<(f64, f64)> = Vec::new();
    // The edge that last held an element whole: the next element along the same ring
    // is most often held by it too, which settles it without a look at its neighbours.
    let mut last_holder: Option<usize> = None;
    for (k, el) in elements.iter().enumerate() {
        if let Some(i) = last_holder.filter(|&i| !el.generated_by(i)) {
            culled.clear();
            held_parts(el, &edges[i], r, limit_2, &mut cuts, &mut culled);
            if culled.len() == 1 && culled[0].0 <= 0.0 && culled[0].1 >= el.end() {
                continue;
            }
        }
        let (lo, hi) = bbox(el, r);
        let first = lefts.partition_point(|&x| x < lo.x - r - widest);
        near.clear();
        for &i in &by_x[first..] {
            let e = &edges[i];
            let (x0, x1) = e.box_x();
            if x0 > hi.x + r {
                break;
            }
            let (y0, y1) = e.box_y();
            if x1 < lo.x - r || y0 > hi.y + r || y1 < lo.y - r || el.generated_by(i) {
                continue;
            }
            if let Some(d2) = reach_2(el, e, r) {
                near.push((d2, i));
            }
        }
        // The nearest first: the edge most likely to hold the element whole.
        if let Some(k) = (0..near.len()).min_by(|&a, &b| near[a].0.total_cmp(&near[b].0)) {
            near.swap(0, k);
        }
        // The parts of the element each near edge holds within `r`: an element held
        // whole by one edge is gone (most arcs, deep inside their neighbours' buffers).
        culled.clear();
        let end = el.end();
        let mut gone = false;
        for &(_, i) in &near {
            let e = &edges[i];
            let first = culled.len();
            held_parts(el, e, r, limit_2, &mut cuts, &mut culled);
            // The parts held so far, merged: the element is gone once they cover it.
            if culled.len() > first {
                let whole = culled.len() == first + 1 && culled[first].0 <= 0.0 && culled[first].1 >= end;
                merge(&mut culled);
                if culled.len() == 1 && culled[0].0 <= 0.0 && culled[0].1 >= end {
                    if whole {
                        last_holder = Some(i);
                    }
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
