//! Tag squares proposed from the straight sides of dark outlines (issue 18).
//!
//! When a figure's dark hat touches a tag's black border, the border's outline joins
//! the figures' and, through the gaps between them, the dark table: one outline
//! around half the photo, far too long to be a tag's. Its sides that no figure touches
//! still run straight, dark inside and light outside, for a tag's side's length. Each
//! such stretch (a side of the outline's polygon, about a tag's side long on the plane
//! of the base tops) proposes the square of the tag's size standing on it, on its dark
//! side, flush with either end (one end of a partly touched side is still a corner) or
//! centred on it. The proposals are fitted to the edges they stand on (`edges.rs`) and
//! read like any other candidate; most are not tags and read as nothing.

use crate::error::VisionError;
use crate::fiducials::GrayView;
use crate::pose::CameraFit;
use opencv::core::{Point, Vector};
use vedette_geometry::Vec2;

/// Polygon sides shorter than this share of a tag's side propose nothing.
const MIN_SIDE_SHARE: f64 = 0.5;
/// ... and longer than this.
const MAX_SIDE_SHARE: f64 = 1.35;
/// Grey levels a side's inside must be darker than its outside.
const MIN_SIDE_CONTRAST: f64 = 30.0;
/// Smallest share of a proposed square's edges that must show a tag's border against
/// paper (see [`super::edge_support`]): a figure may stand against two sides.
const MIN_SUPPORT: f64 = 0.45;

/// A straight stretch of an outline in the photo, dark on its inside.
struct Side {
    a: [f64; 2],
    b: [f64; 2],
    /// A point a little inside (on the dark side), px.
    inside: [f64; 2],
}

/// The squares (table mm, on the plane `height_mm`, corners in order) of side `size_mm`
/// that the straight sides of `contours` (px) propose, best first (the most of their
/// edges dark inside and light outside in the photo), one per place. `side_px` is the
/// range of a tag's side in the photo.
pub(crate) fn squares_on_sides(
    view: &GrayView<'_>,
    contours: &[Vector<Point>],
    fit: &CameraFit,
    size_mm: f64,
    height_mm: f64,
    side_px: (f64, f64),
) -> Result<Vec<[Vec2; 4]>, VisionError> {
    let (min_px, max_px) = side_px;
    let mut sides = Vec::new();
    for c in contours {
        let mut poly = Vector::<Point>::new();
        opencv::imgproc::approx_poly_dp(c, &mut poly, 1.2, true)?;
        let n = poly.len();
        if n < 2 {
            continue;
        }
        for i in 0..n {
            let (p, q) = (poly.get(i)?, poly.get((i + 1) % n)?);
            let (a, b) = ([f64::from(p.x), f64::from(p.y)], [f64::from(q.x), f64::from(q.y)]);
            let len = (b[0] - a[0]).hypot(b[1] - a[1]);
            if len < MIN_SIDE_SHARE * min_px || len > MAX_SIDE_SHARE * max_px {
                continue;
            }
            if let Some(side) = dark_side(view, a, b, len) {
                sides.push(side);
            }
        }
    }
    let pts: Vec<[f64; 2]> = sides.iter().flat_map(|s| [s.a, s.b, s.inside]).collect();
    let mm = fit.model.image_to_table(&pts, height_mm)?;
    let mut proposals: Vec<[Vec2; 4]> = Vec::new();
    for k in 0..sides.len() {
        let (a, b, inside) = (mm[3 * k], mm[3 * k + 1], mm[3 * k + 2]);
        let len = a.distance(b);
        if len < MIN_SIDE_SHARE * size_mm || len > MAX_SIDE_SHARE * size_mm {
            continue;
        }
        let dir = (b - a) / len;
        let mut normal = Vec2::new(-dir.y, dir.x);
        if (inside - a).dot(normal) < 0.0 {
            normal = -normal;
        }
        for start in [a, b - dir * size_mm, (a + b) / 2.0 - dir * (size_mm / 2.0)] {
            let corners = [
                start,
                start + dir * size_mm,
                start + dir * size_mm + normal * size_mm,
                start + normal * size_mm,
            ];
            proposals.push(corners);
        }
    }
    // Best first: the squares whose four edges show the most of a tag's dark border
    // against light paper, in the photo.
    let flat: Vec<Vec2> = proposals.iter().flatten().copied().collect();
    let px = fit.model.project(&flat, height_mm)?;
    let mut scored: Vec<(f64, [Vec2; 4])> = proposals
        .iter()
        .zip(px.chunks_exact(4))
        .filter_map(|(sq, q)| {
            let quad = [q[0], q[1], q[2], q[3]];
            let support = super::edge_support(view, &quad).iter().sum::<f64>() / 4.0;
            (support >= MIN_SUPPORT).then_some((support, *sq))
        })
        .collect();
    scored.sort_by(|x, y| y.0.total_cmp(&x.0));
    // One square per place: a grid of cells of the distance two squares must be
    // apart, so that the check is local.
    let cell = 0.15 * size_mm;
    let key = |p: Vec2| ((p.x / cell).floor() as i64, (p.y / cell).floor() as i64);
    let mut taken: std::collections::HashMap<(i64, i64), Vec<Vec2>> = std::collections::HashMap::new();
    let mut out = Vec::new();
    for (_, sq) in scored {
        let c = (sq[0] + sq[1] + sq[2] + sq[3]) / 4.0;
        let (kx, ky) = key(c);
        let near = (-1..=1).any(|dx| {
            (-1..=1).any(|dy| {
                taken.get(&(kx + dx, ky + dy)).is_some_and(|v| v.iter().any(|o| o.distance(c) < cell))
            })
        });
        if !near {
            taken.entry((kx, ky)).or_default().push(c);
            out.push(sq);
        }
    }
    Ok(out)
}

/// The side from `a` to `b` (px) if one of its two sides is clearly darker than the
/// other along its middle: a tag's black border inside, its white paper outside.
fn dark_side(view: &GrayView<'_>, a: [f64; 2], b: [f64; 2], len: f64) -> Option<Side> {
    let u = [(b[0] - a[0]) / len, (b[1] - a[1]) / len];
    let n = [-u[1], u[0]];
    // Half a cell of a tag whose side this is (a tag is six cells across).
    let d = (len / 12.0).max(1.0);
    let (mut left, mut right) = (0.0, 0.0);
    for t in [0.3, 0.5, 0.7] {
        let p = [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t];
        left += view.sample(p[0] + n[0] * d, p[1] + n[1] * d)?;
        right += view.sample(p[0] - n[0] * d, p[1] - n[1] * d)?;
    }
    let (left, right) = (left / 3.0, right / 3.0);
    let mid = [(a[0] + b[0]) / 2.0, (a[1] + b[1]) / 2.0];
    if right - left >= MIN_SIDE_CONTRAST {
        Some(Side { a, b, inside: [mid[0] + n[0] * d, mid[1] + n[1] * d] })
    } else if left - right >= MIN_SIDE_CONTRAST {
        Some(Side { a, b, inside: [mid[0] - n[0] * d, mid[1] - n[1] * d] })
    } else {
        None
    }
}
