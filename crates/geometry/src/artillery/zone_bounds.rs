//! Bounds on the swings a rectangular obstacle blocks once grown or shrunk by a
//! perturbation, in closed form: what the firing zone's close calls
//! ([`crate::artillery::zone_calls`]) decide most of their bisection steps with, before
//! computing any outline exactly.
//!
//! # The closed form
//! The obstacles of a zone are rectangles (bases, and markers' boxes). Moved `g` mm out
//! (in when `g` is negative) with mitred corners ([`crate::convex::offset`]), a rectangle
//! keeps its centre and axes and is `g` longer on each half side. The swings it then
//! blocks ([`blocked_swings`]) are `(min α_A - side, max α_B + side)` over the corners of
//! its part ahead of the frontage (within reach): `α_A` the angle of a corner seen from
//! the left frontage end `A`, `α_B` from the right end `B`. Those corners are the
//! rectangle's corners ahead of the frontage's line and the points where its edges cross
//! that line; a crossing point lies on the line, so it is seen from either end along the
//! line itself, one way or the other. Only the extreme corner of each end needs an
//! angle: the corners are ranked by a pseudo-angle (the "diamond angle", monotone in the
//! angle, one division) and one `atan2` is taken per end.
//!
//! # What the bounds hold
//! They bound what the general path computes (offset by clipping half-planes, clipped to
//! the half-plane ahead and to the reach; [`blocked_swings`]), rounding and all, not only
//! the exact interval:
//! - Every corner the general path computes lies within [`VERTEX_ERROR`] times the
//!   coordinates' magnitude of the closed form's (its chain of clips and lerps rounds to a
//!   few ulps of the coordinates; the bound allows some 65,000), and a point where an
//!   edge crosses the frontage's line within that error stretched by how slantwise it
//!   crosses (the lerp's parameter is `s_p / (s_p - s_q)` of the ends' signed distances
//!   `s`, so an error `δ` in them moves the point by `δ·len / |s_p - s_q|` along the edge).
//! - Where such an error could change the general path's course, [`bounds`] gives `None`
//!   and the caller computes the outline exactly: a corner within twice the error of the
//!   frontage's line (it could fall either side of the clip), a part ahead whose area is
//!   within the error of [`ZONE_CONTACT_AREA_MM2`], a rectangle shrunk to within the error
//!   of nothing, a frontage end within four errors and [`AT_APEX_MM`] of the rectangle's
//!   outline (seen from there, its angles are unstable, and the general path drops the
//!   points at the end).
//! - Otherwise every frontage end lies at least `ρ` from the outline (outside it, or
//!   inside: then the part ahead's outline runs through the end along the frontage's
//!   line, and its crossing points lie at least `ρ` away either way), and a point off by
//!   `e` seen from there turns by at most `e / (ρ - e)` radians. A corner within reach by
//!   more than its error is in the general path's list; every other point it adds (where
//!   an edge crosses the reach boundary, on an edge; a corner of the reach boundary
//!   within [`AT_APEX_MM`] of the outline, at least the reach from either end) lies
//!   within the angles of the outline's corners, give or take its own error.
//!
//! So [`Bounds::outer`] holds the general path's interval (whatever it gives blocks no
//! more), and [`Bounds::inner`], taken over the corners surely within reach, is held by
//! it. A monotone decision (is every swing blocked? does a clear swing meet a target?)
//! made on the outer intervals of every obstacle and again on the inner ones, when both
//! agree, is the decision on the exact intervals.
//!
//! Asked [`ArcOnly::Yes`], the bounds of an obstacle whose swings surely all lie outside
//! the arc's (`[-max swing, max swing]`, which is all a question about clear swings
//! reads) are [`Bounds::NONE`], told from the corners' pseudo-angles without an `atan2`.

#[cfg(doc)]
use crate::artillery::firing_zone::blocked_swings;
use crate::artillery::firing_zone::{AT_APEX_MM, ZONE_CONTACT_AREA_MM2, relative_deg};
use crate::close_call::PERTURBATION_MAX_MM;
use crate::segment::Segment;
use crate::vec2::Vec2;

/// Every corner the general path computes lies within this much of the closed form's,
/// relative to the coordinates' magnitude (2^-36).
pub(crate) const VERTEX_ERROR: f64 = 1.0 / 68_719_476_736.0;
/// A few ulps of a quantity of the coordinates' magnitude, with room (2^-40): the
/// rounding of one distance or area computed from the coordinates.
const ROUNDING: f64 = 1.0 / 1_099_511_627_776.0;
/// Added to every angle's bound, degrees: the rounding of `atan2`, of the conversion to
/// degrees and of the ranking of corners by pseudo-angle.
const ANGLE_SLACK_DEG: f64 = 1e-12;

/// A rectangle: centre, unit axes (`v` the left turn of `u`) and half sides along them.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Rect {
    c: Vec2,
    u: Vec2,
    v: Vec2,
    hu: f64,
    hv: f64,
    /// The magnitude of its coordinates, mm (at least 1).
    size: f64,
}

impl Rect {
    /// The rectangle whose corners are the four counter-clockwise `vertices`, if they are
    /// one to within rounding (each corner within 2^-40 of the magnitude of the
    /// coordinates), with sides of more than rounding; `None` otherwise.
    pub(crate) fn fit(vertices: &[Vec2]) -> Option<Rect> {
        let &[v0, v1, v2, v3] = vertices else { return None };
        let c = (v0 + v1 + v2 + v3) * 0.25;
        let u = ((v1 - v0) + (v2 - v3)).normalized()?;
        let v = u.perp_left();
        let hu = ((v1 - v0).dot(u) + (v2 - v3).dot(u)) * 0.25;
        let hv = ((v2 - v1).dot(v) + (v3 - v0).dot(v)) * 0.25;
        let size = c.x.abs().max(c.y.abs()) + hu.abs() + hv.abs() + 1.0;
        let r = Rect { c, u, v, hu, hv, size };
        let tol = ROUNDING * size;
        let fits = size.is_finite()
            && hu.min(hv) > 1024.0 * tol
            && r.corners_sized(hu, hv).iter().zip(vertices).all(|(w, p)| w.distance(*p) <= tol);
        fits.then_some(r)
    }

    /// How far off the general path's corners of this rectangle may lie once moved by up
    /// to `g_mm` either way, mm: what [`sized_bounds`] allows.
    pub(crate) fn error_mm(&self, g_mm: f64) -> f64 {
        VERTEX_ERROR * (self.size + g_mm.abs())
    }

    /// The half sides along `u` and `v`.
    pub(crate) fn half_sides(&self) -> (f64, f64) {
        (self.hu, self.hv)
    }

    /// The corners, counter-clockwise from `c - u - v`, of the rectangle with half sides
    /// `hu` and `hv`.
    fn corners_sized(&self, hu: f64, hv: f64) -> [Vec2; 4] {
        let (a, b) = (self.u * hu, self.v * hv);
        [self.c - a - b, self.c + a - b, self.c + a + b, self.c - a + b]
    }

    /// The distance from `p` to the outline of the rectangle with half sides `hu` and
    /// `hv`: positive outside, negative inside.
    fn outline_distance(&self, p: Vec2, hu: f64, hv: f64) -> f64 {
        let d = p - self.c;
        let dx = d.dot(self.u).abs() - hu;
        let dy = d.dot(self.v).abs() - hv;
        if dx > 0.0 || dy > 0.0 {
            let (x, y) = (dx.max(0.0), dy.max(0.0));
            (x * x + y * y).sqrt()
        } else {
            dx.max(dy)
        }
    }
}

/// A battery's zone as [`blocked_swings`] reads it, with what every bound reuses.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Frame {
    frontage: Segment,
    ab: Vec2,
    ab_len: f64,
    forward: Vec2,
    side_deg: f64,
    reach_mm: f64,
    /// The angle of the direction from `A` to `B`, and of the opposite one, degrees.
    along_deg: (f64, f64),
    /// The largest swing either way, degrees.
    max_swing_deg: f64,
    /// The magnitude of the frontage's coordinates plus the reach, mm: what the zone adds
    /// to an obstacle's own ([`Rect`]) in the rounding of its blocked swings.
    size: f64,
    /// The pseudo-angles ([`diamond`]) of the directions [`ARC_MARGIN_DEG`] past
    /// `-(max swing + side)` and past `max swing + side`: a corner seen beyond them
    /// blocks no swing of the arc.
    arc_keys: (f64, f64),
}

/// How far past the last swing of the arc (and its side) a corner must be seen for the
/// bounds of [`ArcOnly::Yes`] to drop it without its angle, degrees.
const ARC_MARGIN_DEG: f64 = 1e-3;

/// Whether bounds may drop an obstacle whose blocked swings all lie outside the arc's
/// swings (`[-max swing, max swing]`): a question about clear swings never sees them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ArcOnly {
    /// Such an obstacle gives [`Bounds::NONE`].
    Yes,
    /// Every interval is bounded as it is.
    No,
}

impl Frame {
    /// The frame of a zone (frontage from its left end to its right end, the battery's
    /// forward vector, the side angle and the reach); `None` when the bounds cannot serve
    /// it (a frontage of no length, no side angle, a reach under 1 mm).
    pub(crate) fn new(
        frontage: Segment,
        forward: Vec2,
        side_deg: f64,
        reach_mm: f64,
        max_swing_deg: f64,
    ) -> Option<Frame> {
        let ab = frontage.b - frontage.a;
        let ab_len = ab.length();
        let usable = ab_len > 0.0
            && ab_len.is_finite()
            && side_deg > 0.0
            && reach_mm >= 1.0
            && reach_mm.is_finite()
            && forward.is_finite()
            && max_swing_deg.is_finite()
            && max_swing_deg + side_deg + ARC_MARGIN_DEG < 90.0;
        let key = |deg: f64| {
            let d = Vec2::from_heading_deg(deg);
            diamond(d.x, d.y)
        };
        let edge = max_swing_deg + side_deg + ARC_MARGIN_DEG;
        usable.then(|| Frame {
            frontage,
            ab,
            ab_len,
            forward,
            side_deg,
            reach_mm,
            along_deg: (relative_deg(forward, ab), relative_deg(forward, -ab)),
            max_swing_deg,
            size: [frontage.a, frontage.b].iter().map(|p| p.x.abs().max(p.y.abs())).fold(0.0, f64::max)
                + reach_mm
                + 1.0,
            arc_keys: (key(-edge), key(edge)),
        })
    }
}

/// What is known of the swings an obstacle blocks: open intervals, degrees.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Bounds {
    /// Swings it surely blocks: inside the interval the general path gives (`None`: none
    /// known). Always `lo < hi`.
    pub(crate) inner: Option<(f64, f64)>,
    /// Swings it may block: holding the interval the general path gives (`None`: it
    /// blocks none).
    pub(crate) outer: Option<(f64, f64)>,
    /// It surely blocks some swing.
    pub(crate) blocks: bool,
}

impl Bounds {
    /// An obstacle that blocks no swing.
    pub(crate) const NONE: Bounds = Bounds { inner: None, outer: None, blocks: false };

    /// The bounds of an interval known exactly.
    pub(crate) fn exact(found: Option<(f64, f64)>) -> Bounds {
        Bounds { inner: found, outer: found, blocks: found.is_some() }
    }
}

/// A corner of the part ahead: a corner of the rectangle, or where an edge crosses the
/// frontage's line; with how far off the general path's may lie, mm.
#[derive(Debug, Clone, Copy, Default)]
struct Corner {
    p: Vec2,
    err: f64,
    on_line: bool,
}

/// A pseudo-angle of the direction `(x, y)` (`x` along forward, `y` to its left): in
/// (-2, 2], increasing with the angle, for ranking directions without `atan2`.
fn diamond(x: f64, y: f64) -> f64 {
    let s = x.abs() + y.abs();
    if x >= 0.0 {
        y / s
    } else if y >= 0.0 {
        2.0 - y / s
    } else {
        -2.0 - y / s
    }
}

/// How far a point off by `err` at least `dist` from where it is seen from may turn,
/// degrees (`dist > err`).
fn turn_deg(err: f64, dist: f64) -> f64 {
    (err / (dist - err)).to_degrees() * (1.0 + 1e-9) + ANGLE_SLACK_DEG
}

/// Bounds on the angles that decide a blocked interval, degrees: `lo` on the smallest
/// angle of the corners seen from `A`, `hi` on the largest seen from `B`, each as
/// `(below, above)`.
struct Span {
    lo: (f64, f64),
    hi: (f64, f64),
}

/// What [`span`] finds.
enum Spanned {
    /// No corner was picked.
    Nothing,
    /// Asked [`ArcOnly::Yes`]: the blocked swings surely all lie outside the arc's.
    OutsideArc,
    /// The bounds.
    Span(Span),
}

/// The [`Span`] of the corners `keep` picks, every frontage end at least `rho` from the
/// outline and every corner of the rectangle off by at most `vertex_err`.
fn span(
    f: &Frame,
    corners: &[Corner],
    keep: impl Fn(usize) -> bool,
    rho: f64,
    vertex_err: f64,
    arc: ArcOnly,
) -> Spanned {
    let (a, b) = (f.frontage.a, f.frontage.b);
    let mut out = Span { lo: (f64::INFINITY, f64::INFINITY), hi: (f64::NEG_INFINITY, f64::NEG_INFINITY) };
    // The rectangle's corners ranked by pseudo-angle: the extreme ones' keys and
    // directions.
    let (mut first, mut first_d) = (f64::INFINITY, None);
    let (mut last, mut last_d) = (f64::NEG_INFINITY, None);
    let mut any = false;
    for (i, c) in corners.iter().enumerate() {
        if !keep(i) {
            continue;
        }
        any = true;
        let (da, db) = (c.p - a, c.p - b);
        if c.on_line {
            // Seen along the frontage's line, one way or the other.
            let m = turn_deg(c.err, rho);
            let at_a = if da.dot(f.ab) > 0.0 { f.along_deg.0 } else { f.along_deg.1 };
            let at_b = if db.dot(f.ab) > 0.0 { f.along_deg.0 } else { f.along_deg.1 };
            out.lo = (out.lo.0.min(at_a - m), out.lo.1.min(at_a + m));
            out.hi = (out.hi.0.max(at_b - m), out.hi.1.max(at_b + m));
        } else {
            let ka = diamond(f.forward.dot(da), f.forward.cross(da));
            if first_d.is_none() || ka < first {
                (first, first_d) = (ka, Some(da));
            }
            let kb = diamond(f.forward.dot(db), f.forward.cross(db));
            if last_d.is_none() || kb > last {
                (last, last_d) = (kb, Some(db));
            }
        }
    }
    if !any {
        return Spanned::Nothing;
    }
    let m = turn_deg(vertex_err, rho);
    if arc == ArcOnly::Yes && m < 0.5 * ARC_MARGIN_DEG {
        // Every corner seen from `B` right of the arc's last swing (and its side), or
        // every corner seen from `A` left of it: the interval misses the arc.
        let right = last < f.arc_keys.0 && out.hi.1 + f.side_deg <= -f.max_swing_deg;
        let left = first > f.arc_keys.1 && out.lo.0 - f.side_deg >= f.max_swing_deg;
        if right || left {
            return Spanned::OutsideArc;
        }
    }
    if let Some(d) = first_d {
        let ang = relative_deg(f.forward, d);
        out.lo = (out.lo.0.min(ang - m), out.lo.1.min(ang + m));
    }
    if let Some(d) = last_d {
        let ang = relative_deg(f.forward, d);
        out.hi = (out.hi.0.max(ang - m), out.hi.1.max(ang + m));
    }
    Spanned::Span(out)
}

/// True when rectangle `r` moved by any `g` up to `g_top` mm out (and no more than
/// [`PERTURBATION_MAX_MM`] either way) surely blocks no swing of the arc, as the general
/// path computes it: moved by `g_top` it is gone, wholly behind the frontage's line or
/// wholly past the reach, or seen from a frontage end wholly beyond the arc's last swing
/// and side on that end's side. Moved by less, it lies inside that rectangle, and every
/// point the general path computes lies within its error of it (a corner of the reach
/// boundary within [`AT_APEX_MM`] more): seen from an end outside it, such a point turns
/// by at most that error over its distance from it, and the general path only asks
/// points ahead of the line, which never wrap round behind the end.
pub(crate) fn never_in_arc(f: &Frame, r: &Rect, g_top: f64) -> bool {
    let scale = r.size.max(f.size) + PERTURBATION_MAX_MM;
    let eps = VERTEX_ERROR * scale;
    let round = ROUNDING * scale;
    let (hu, hv) = (r.hu + g_top, r.hv + g_top);
    if hu.min(hv) < -eps {
        return true;
    }
    let w = r.corners_sized(hu.max(0.0), hv.max(0.0));
    let a = f.frontage.a;
    if w.iter().all(|p| f.ab.cross(*p - a) / f.ab_len < -(2.0 * eps + round)) {
        return true;
    }
    let radius = (hu * hu + hv * hv).sqrt();
    if f.frontage.distance_2_to_point(r.c).sqrt() - (radius + eps + 2.0 * round) > f.reach_mm {
        return true;
    }
    // Seen from `apex` (outside the rectangle by more than the errors), every corner's
    // pseudo-angle beyond `limit` (`below`: under it).
    let beyond = |apex: Vec2, limit: f64, below: bool| {
        let rho = r.outline_distance(apex, hu, hv) - round;
        let err = eps + AT_APEX_MM + round;
        rho > 4.0 * err
            && turn_deg(err, rho) < 0.5 * ARC_MARGIN_DEG
            && w.iter().all(|p| {
                let d = *p - apex;
                let k = diamond(f.forward.dot(d), f.forward.cross(d));
                if below { k < limit } else { k > limit }
            })
    };
    beyond(f.frontage.b, f.arc_keys.0, true) || beyond(a, f.arc_keys.1, false)
}

/// The bounds of the swings blocked by rectangle `r` moved `g` mm out (in when
/// negative) in the zone `f`, or `None` when they cannot be told from the closed form
/// (see the module documentation): the caller computes them exactly.
pub(crate) fn bounds(f: &Frame, r: &Rect, g: f64, arc: ArcOnly) -> Option<Bounds> {
    sized_bounds(f, r, r.hu + g, r.hv + g, arc)
}

/// [`bounds`] of the rectangle `r` with half sides `hu` and `hv` (same centre and axes).
pub(crate) fn sized_bounds(f: &Frame, r: &Rect, hu: f64, hv: f64, arc: ArcOnly) -> Option<Bounds> {
    let scale = r.size.max(f.size) + (hu - r.hu).abs().max((hv - r.hv).abs());
    let eps = VERTEX_ERROR * scale;
    let round = ROUNDING * scale;
    if hu.min(hv) < -eps {
        // Shrunk past nothing: the clips leave nothing of area.
        return Some(Bounds::NONE);
    }
    if hu.min(hv) <= 1024.0 * eps {
        return None;
    }
    // Wholly past the reach (its circumscribed circle is): it blocks nothing.
    let centre = f.frontage.distance_2_to_point(r.c).sqrt();
    let radius = (hu * hu + hv * hv).sqrt();
    if centre - (radius + 4.0 * eps + 2.0 * round) > f.reach_mm {
        return Some(Bounds::NONE);
    }
    let w = r.corners_sized(hu, hv);
    let a = f.frontage.a;
    let s = w.map(|p| f.ab.cross(p - a) / f.ab_len);
    if s.iter().any(|x| x.abs() <= 2.0 * eps + round) {
        return None;
    }
    if s.iter().all(|&x| x < 0.0) {
        return Some(Bounds::NONE);
    }
    // The corners of the part ahead, in ring order.
    let mut buf = [Corner::default(); 6];
    let mut n = 0;
    for i in 0..4 {
        let j = (i + 1) % 4;
        if s[i] > 0.0 {
            buf[n] = Corner { p: w[i], err: eps, on_line: false };
            n += 1;
        }
        if (s[i] > 0.0) != (s[j] > 0.0) {
            let len = 2.0 * if i % 2 == 0 { hu } else { hv };
            let err = eps * (2.0 + 2.0 * len / (s[i] - s[j]).abs()) + round;
            buf[n] = Corner { p: w[i].lerp(w[j], s[i] / (s[i] - s[j])), err, on_line: true };
            n += 1;
        }
    }
    let corners = &buf[..n];
    let e_max = corners.iter().map(|c| c.err).fold(eps, f64::max);
    let o = corners[0].p;
    let twice_area: f64 =
        (1..n.saturating_sub(1)).map(|i| (corners[i].p - o).cross(corners[i + 1].p - o)).sum();
    let area_err = 16.0 * e_max * (hu + hv) + round * scale;
    if 0.5 * twice_area <= ZONE_CONTACT_AREA_MM2 + area_err {
        return None;
    }
    let rho_a = r.outline_distance(a, hu, hv).abs();
    let rho_b = r.outline_distance(f.frontage.b, hu, hv).abs();
    let rho = rho_a.min(rho_b) - round;
    if rho <= 4.0 * e_max + 2.0 * AT_APEX_MM {
        return None;
    }
    // Which corners are surely within reach (the general path lists them): all of them
    // when the rectangle's circumscribed circle is.
    let mut within = [true; 6];
    if centre + radius + e_max + 2.0 * round >= f.reach_mm {
        for (k, c) in within.iter_mut().zip(corners) {
            *k = f.frontage.distance_2_to_point(c.p).sqrt() + c.err + round < f.reach_mm;
        }
    }
    let within = &within[..n];
    let inner_of = |sp: Span| {
        let (l, h) = (sp.lo.1 - f.side_deg, sp.hi.0 + f.side_deg);
        (l < h).then_some((l, h))
    };
    let all = match span(f, corners, |_| true, rho, eps, arc) {
        Spanned::Span(s) => s,
        Spanned::Nothing | Spanned::OutsideArc => return Some(Bounds::NONE),
    };
    let outer = (all.lo.0 - f.side_deg, all.hi.1 + f.side_deg);
    if within.iter().all(|&k| k) {
        return Some(Bounds { inner: inner_of(all), outer: Some(outer), blocks: true });
    }
    // Part of it lies past the reach: the general path adds points on its edges and
    // corners of the reach boundary near it (at least the reach from either end).
    let m = turn_deg(AT_APEX_MM + e_max + round, f.reach_mm - round);
    let outer = Some((outer.0 - m, outer.1 + m));
    if within.iter().any(|&k| k) {
        let inner = match span(f, corners, |i| within[i], rho, eps, ArcOnly::No) {
            Spanned::Span(s) => inner_of(s),
            Spanned::Nothing | Spanned::OutsideArc => None,
        };
        return Some(Bounds { inner, outer, blocks: true });
    }
    // No corner surely within reach: it may block nothing.
    Some(Bounds { inner: None, outer, blocks: false })
}

#[cfg(test)]
mod tests;
