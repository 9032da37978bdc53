//! The ring edges and the elements they generate, and the parts of an element that an
//! edge holds within `r` ([`held_parts`]): for a line, the one interval where it
//! crosses the edge's capsule; for an arc, the parts between the candidate crossings
//! ([`Element::arc_cuts`]) whose middle is nearer than `r`. Also the tests that tell,
//! for less than a cut costs, that an edge holds none of an element or may hold all of
//! it ([`Reach`], [`arc_may_reach`]).

use crate::vec2::Vec2;

/// How much nearer than `r` an edge must be to a point of an element to drop it, mm:
/// rounding, not geometry (a table's coordinates carry about 1e-13 mm of it). Pieces
/// of an element that only touches another edge's capsule (an exact tie) are kept.
pub(super) const CUT_TOLERANCE_MM: f64 = 1e-9;

/// One ring edge, from `a` to `b`, with its vector, squared length and direction
/// worked out once (the cutting asks each edge about many elements).
#[derive(Debug, Clone, Copy)]
pub(super) struct Edge {
    pub(super) a: Vec2,
    pub(super) b: Vec2,
    /// `b - a`.
    d: Vec2,
    /// Its squared length.
    l2: f64,
    /// Its unit direction; `None` for an edge of no length.
    u: Option<Vec2>,
    /// Its box, (min, max).
    lo: Vec2,
    hi: Vec2,
}

impl Edge {
    /// The edge from `a` to `b`.
    pub(super) fn new(a: Vec2, b: Vec2) -> Edge {
        let d = b - a;
        let (lo, hi) = (Vec2::new(a.x.min(b.x), a.y.min(b.y)), Vec2::new(a.x.max(b.x), a.y.max(b.y)));
        Edge { a, b, d, l2: d.length_2(), u: d.normalized(), lo, hi }
    }

    /// The squared distance from `p` to the edge, mm².
    pub(super) fn distance_2(&self, p: Vec2) -> f64 {
        point_segment_distance_2(self.a, self.d, self.l2, p)
    }

    /// Its box's extent along x, (min, max).
    #[cfg(test)]
    pub(super) fn box_x(&self) -> (f64, f64) {
        (self.lo.x, self.hi.x)
    }

    /// Its box's extent along y, (min, max).
    #[cfg(test)]
    pub(super) fn box_y(&self) -> (f64, f64) {
        (self.lo.y, self.hi.y)
    }

    /// True when its box meets the box (`lo`, `hi`).
    pub(super) fn meets(&self, lo: Vec2, hi: Vec2) -> bool {
        self.hi.x >= lo.x && self.lo.x <= hi.x && self.hi.y >= lo.y && self.lo.y <= hi.y
    }
}

/// A piece of the boundary that may survive: an edge moved out, or a corner's arc.
#[derive(Debug, Clone, Copy)]
pub(super) enum Element {
    /// From `a` to `b` (edge `edge` moved out by `r`).
    Line { a: Vec2, b: Vec2, edge: usize },
    /// Centre `c`, from unit direction `d0` counter-clockwise to the direction at
    /// pseudo-angle `end` ([`pseudo_angle`] from `d0`, under 2: less than a half turn),
    /// at the vertex between edges `edges`.
    Arc { c: Vec2, d0: Vec2, end: f64, edges: (usize, usize) },
}

impl Element {
    /// The point at parameter `s` (a fraction along a line, a pseudo-angle from the
    /// start of an arc).
    pub(super) fn at(&self, s: f64, r: f64) -> Vec2 {
        match *self {
            Element::Line { a, b, .. } => a.lerp(b, s),
            Element::Arc { c, d0, .. } => c + from_pseudo_angle(d0, s) * r,
        }
    }

    /// The parameter range.
    pub(super) fn end(&self) -> f64 {
        match *self {
            Element::Line { .. } => 1.0,
            Element::Arc { end, .. } => end,
        }
    }

    /// True when edge `i` generates this element (it is at exactly `r` from it).
    pub(super) fn generated_by(&self, i: usize) -> bool {
        match *self {
            Element::Line { edge, .. } => edge == i,
            Element::Arc { edges, .. } => edges.0 == i || edges.1 == i,
        }
    }

    /// Its points worked out once for the tests of many edges ([`Reach`]).
    pub(super) fn reach(&self, r: f64) -> Reach {
        match *self {
            Element::Line { a, b, .. } => Reach::new([a, b], None),
            Element::Arc { c, d0, end, .. } => {
                let d = |s: f64| from_pseudo_angle(d0, s * end);
                let (q1, dm, q3, d1) = (d(0.25), d(0.5), d(0.75), d(1.0));
                // Where the tangents at the ends of an arc of under a quarter turn (each
                // quarter of this one) meet: the arc lies in the triangle of its ends and
                // that point.
                let apex = |u: Vec2, v: Vec2| c + (u + v) * (r / (1.0 + u.dot(v)));
                let (p0, p1) = (c + d0 * r, c + d1 * r);
                let hull = [
                    p0,
                    p1,
                    c + dm * r,
                    c + q1 * r,
                    c + q3 * r,
                    apex(d0, q1),
                    apex(q1, dm),
                    apex(dm, q3),
                    apex(q3, d1),
                ];
                Reach::new(hull, Some(ArcPart { c, d0, d1, p0, p1 }))
            }
        }
    }

    /// False when edge `e` is farther than `r` from all of it (for an arc, farther than
    /// `r` and [`REACH_MARGIN_MM`]: [`arc_may_reach`]), so holds none of it. `reach` is
    /// [`Self::reach`].
    pub(super) fn reaches(&self, reach: &Reach, e: &Edge, r: f64) -> bool {
        match *self {
            Element::Line { a, b, .. } => segments_distance_2(a, b, e) < r * r,
            Element::Arc { .. } => reach.arc.is_some_and(|arc| arc_may_reach(&arc, e, r)),
        }
    }

    /// The parts of an arc that the sorted, disjoint parameter intervals `held` leave,
    /// appended to `out` (nothing for a line).
    pub(super) fn open_parts(&self, held: &[(f64, f64)], r: f64, out: &mut Vec<ArcPart>) {
        let Element::Arc { c, d0, end, .. } = *self else { return };
        let mut part = |from: f64, to: f64| {
            let (u, v) = (from_pseudo_angle(d0, from), from_pseudo_angle(d0, to));
            out.push(ArcPart { c, d0: u, d1: v, p0: c + u * r, p1: c + v * r });
        };
        let mut from = 0.0;
        for &(h0, h1) in held {
            if h0 > from {
                part(from, h0);
            }
            from = f64::max(from, h1);
        }
        if from < end {
            part(from, end);
        }
    }

    /// The parameters of an arc (pseudo-angles strictly inside its range) where it may
    /// cross the boundary of the points within `r` of edge `e`: a superset of the true
    /// crossings is enough, each part between two is tested whole. None for a line
    /// ([`line_held`]).
    pub(super) fn arc_cuts(&self, e: &Edge, r: f64, out: &mut Vec<f64>) {
        let Element::Arc { c, d0, end, .. } = *self else { return };
        // Each crossing as its direction from the centre: no trigonometry.
        let mut push = |w: Vec2| {
            let s = pseudo_angle(d0, w);
            if s > 0.0 && s < end {
                out.push(s);
            }
        };
        for p in [e.a, e.b] {
            // Two circles of radius r: symmetric about the line of centres.
            let to = p - c;
            let d2 = to.length_2();
            if d2 > 0.0 && d2 <= 4.0 * r * r {
                let h = (r * r - 0.25 * d2).max(0.0).sqrt() / d2.sqrt();
                let mid = to * 0.5;
                push(mid + to.perp_left() * h);
                push(mid - to.perp_left() * h);
            }
        }
        if let Some(u) = e.u {
            let n = u.perp_left();
            let h = n.dot(c - e.a);
            // The circle meets the lines of the strip's sides (n . (q - e.a) = +-r): `k`
            // along `n`, the rest across. With the two circles these hold every point
            // where the arc crosses the boundary of the capsule (its sides and end
            // circles, each taken whole).
            for k in [r - h, -r - h] {
                if k.abs() <= r {
                    let across = u * (r * r - k * k).max(0.0).sqrt();
                    push(n * k + across);
                    push(n * k - across);
                }
            }
        }
    }
}

/// How much farther than `r` an edge may come to an arc and still be asked about it,
/// mm: the arc reach test ([`arc_may_reach`]) errs by rounding (about 1e-11 mm on a
/// table a few metres wide), so it is made to pass every edge that comes within `r`
/// plus this. An edge it passes over is then at least `r` from every point of the arc,
/// and holds none of it ([`held_parts`] drops only what is nearer than `r` less
/// [`CUT_TOLERANCE_MM`]).
pub(super) const REACH_MARGIN_MM: f64 = 1e-6;

/// An arc or a part of one, for [`arc_may_reach`]: its centre, its end directions (unit,
/// counter-clockwise from `d0` to `d1`, under a half turn apart) and its end points.
#[derive(Debug, Clone, Copy)]
pub(super) struct ArcPart {
    c: Vec2,
    d0: Vec2,
    d1: Vec2,
    p0: Vec2,
    p1: Vec2,
}

/// An element's points worked out once for the tests of many edges against it.
#[derive(Debug, Clone, Copy)]
pub(super) struct Reach {
    /// Points whose convex hull holds the element: a line's two ends; an arc's ends,
    /// middle and quarter points, and between each two along it the point where their
    /// tangents meet (each quarter of an arc of under a half turn lies in the triangle
    /// of its ends and that point).
    hull: [Vec2; 9],
    /// How many of `hull` there are.
    n: usize,
    /// The box of the hull, (min, max).
    lo: Vec2,
    hi: Vec2,
    /// For an arc, the whole of it.
    arc: Option<ArcPart>,
}

impl Reach {
    fn new<const N: usize>(points: [Vec2; N], arc: Option<ArcPart>) -> Reach {
        let mut hull = [Vec2::ZERO; 9];
        hull[..N].copy_from_slice(&points);
        let (mut lo, mut hi) = (points[0], points[0]);
        for p in points {
            lo = Vec2::new(lo.x.min(p.x), lo.y.min(p.y));
            hi = Vec2::new(hi.x.max(p.x), hi.y.max(p.y));
        }
        Reach { hull, n: N, lo, hi, arc }
    }

    /// A box that the box of every edge within `by` of all the hull's points meets (the
    /// points within `by` of the hull's box's far sides), (min, max); `None` when no
    /// edge can be (the hull is `2 by` across or more).
    pub(super) fn holders_box(&self, by: f64) -> Option<(Vec2, Vec2)> {
        let (lo, hi) = (self.hi - Vec2::new(by, by), self.lo + Vec2::new(by, by));
        (lo.x <= hi.x && lo.y <= hi.y).then_some((lo, hi))
    }

    /// A box holding every point within `by` of the element, (min, max).
    pub(super) fn grown_box(&self, by: f64) -> (Vec2, Vec2) {
        (self.lo - Vec2::new(by, by), self.hi + Vec2::new(by, by))
    }

    /// True when every hull point is nearer than `limit` (`limit_2` squared) to edge
    /// `e`, so the whole element is (the points within a distance of a segment are
    /// convex): a sign that `e` holds the element whole, for [`held_parts`] to confirm.
    pub(super) fn within(&self, e: &Edge, limit: f64, limit_2: f64) -> bool {
        self.lo.x > e.lo.x - limit
            && self.hi.x < e.hi.x + limit
            && self.lo.y > e.lo.y - limit
            && self.hi.y < e.hi.y + limit
            && self.hull[..self.n].iter().all(|&p| e.distance_2(p) < limit_2)
    }
}

/// True when edge `e` may come within `r` of the arc or part of one `arc`
/// ([`REACH_MARGIN_MM`]).
///
/// The points within `r` of an arc of radius `r` under a half turn are those of its
/// wedge (the directions from the centre between its ends) nearer than `2r` to the
/// centre, and those within `r` of one of its ends (outside the wedge an end is the
/// arc's nearest point). So the edge passes when it comes within `r` + margin of an end,
/// or when its part inside the wedge comes within `2r` + margin of the centre. Rounding
/// may misplace a point of the edge lying on a side of the wedge, within about 1e-11 mm;
/// such a point within `2r` of the centre is within `r` of that side's end, and passes
/// by the first test: the margin covers both.
pub(super) fn arc_may_reach(arc: &ArcPart, e: &Edge, r: f64) -> bool {
    let near_2 = (r + REACH_MARGIN_MM).powi(2);
    if e.distance_2(arc.p0) < near_2 || e.distance_2(arc.p1) < near_2 {
        return true;
    }
    // The edge's part in the wedge: cross(d0, q - c) >= 0 and cross(q - c, d1) >= 0 for
    // q = e.a + t v, t in [0, 1].
    let (v, w) = (e.b - e.a, e.a - arc.c);
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for (start, rate) in [(arc.d0.cross(w), arc.d0.cross(v)), (w.cross(arc.d1), v.cross(arc.d1))] {
        if rate == 0.0 {
            if start < 0.0 {
                return false;
            }
        } else if rate > 0.0 {
            t0 = t0.max(-start / rate);
        } else {
            t1 = t1.min(-start / rate);
        }
    }
    t0 <= t1 && segment_distance_2(e.a + v * t0, e.a + v * t1, arc.c) < (2.0 * r + REACH_MARGIN_MM).powi(2)
}

/// A pseudo-angle of direction `w` from the unit direction `d0`, counter-clockwise, in
/// [0, 4): a quarter turn is 1, growing with the true angle (so parts of an arc sort
/// and split as by angle) and computed without trigonometry.
pub(super) fn pseudo_angle(d0: Vec2, w: Vec2) -> f64 {
    let (x, y) = (d0.dot(w), d0.cross(w));
    let p = if y >= 0.0 {
        if x > 0.0 { y / (x + y) } else { 1.0 + (-x) / (y - x) }
    } else if x < 0.0 {
        2.0 + (-y) / (-x - y)
    } else {
        3.0 + x / (x - y)
    };
    if p.is_finite() { p } else { 0.0 }
}

/// The unit direction at pseudo-angle `p` ([`pseudo_angle`]) from `d0`.
pub(super) fn from_pseudo_angle(d0: Vec2, p: f64) -> Vec2 {
    // (The floor by comparisons where that is the same number: the usual case.)
    let (quarter, f) = if p > 0.0 && p < 4.0 {
        let q = if p < 2.0 { u8::from(p >= 1.0) } else { 2 + u8::from(p >= 3.0) };
        (q, p - f64::from(q))
    } else {
        let q = p.floor().clamp(0.0, 3.0);
        (q as u8, p - q)
    };
    on_diamond(d0, quarter, f)
}

/// The unit direction a fraction `f` of the way through quarter `quarter` (0-3) of the
/// pseudo-angle from `d0`: between the quarter's first axis and the next, on the
/// diamond.
pub(super) fn on_diamond(d0: Vec2, quarter: u8, f: f64) -> Vec2 {
    let (x, y) = (1.0 - f, f);
    let local = match quarter {
        0 => Vec2::new(x, y),
        1 => Vec2::new(-y, x),
        2 => Vec2::new(-x, -y),
        _ => Vec2::new(y, -x),
    };
    let v = d0 * local.x + d0.perp_left() * local.y;
    v.normalized().unwrap_or(d0)
}

/// The squared distance from `p` to the segment from `a` along `d` (squared length
/// `l2`), mm².
fn point_segment_distance_2(a: Vec2, d: Vec2, l2: f64, p: Vec2) -> f64 {
    let t = if l2 > 0.0 { ((p - a).dot(d) / l2).clamp(0.0, 1.0) } else { 0.0 };
    p.distance_2(a + d * t)
}

/// The squared distance from `p` to the segment `a`-`b`, mm².
fn segment_distance_2(a: Vec2, b: Vec2, p: Vec2) -> f64 {
    let d = b - a;
    point_segment_distance_2(a, d, d.length_2(), p)
}

/// The squared distance between segment `a`-`b` and edge `e`.
pub(super) fn segments_distance_2(a: Vec2, b: Vec2, e: &Edge) -> f64 {
    let (c, d) = (e.a, e.b);
    let side = |p: Vec2, q: Vec2, x: Vec2| (q - p).cross(x - p);
    let crossing = side(a, b, c) * side(a, b, d) < 0.0 && side(c, d, a) * side(c, d, b) < 0.0;
    if crossing {
        return 0.0;
    }
    e.distance_2(a).min(e.distance_2(b)).min(segment_distance_2(a, b, c)).min(segment_distance_2(a, b, d))
}

/// The parameters `t` in (0, 1) where `a + t (b - a)` is nearer than `r` to edge `e`
/// (one interval: the points within `r` of an edge are convex), or `None`; an
/// interval whose middle is not nearer than `limit_2.sqrt()` (a tangency within rounding)
/// is none.
pub(super) fn line_held(a: Vec2, b: Vec2, e: &Edge, r: f64, limit_2: f64) -> Option<(f64, f64)> {
    let v = b - a;
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    let mut take = |t0: f64, t1: f64| {
        if t1 > t0 {
            lo = lo.min(t0);
            hi = hi.max(t1);
        }
    };
    // The two end disks.
    for p in [e.a, e.b] {
        if let Some((t0, t1)) = circle_line(a - p, v, r) {
            take(t0, t1);
        }
    }
    // The strip between them: across within r, along between the ends.
    if let Some(u) = e.u {
        let n = u.perp_left();
        let (mut t0, mut t1) = (f64::NEG_INFINITY, f64::INFINITY);
        for (start, rate, min, max) in
            [(n.dot(a - e.a), n.dot(v), -r, r), (u.dot(a - e.a), u.dot(v), 0.0, e.a.distance(e.b))]
        {
            if rate == 0.0 {
                if !(start > min && start < max) {
                    t1 = f64::NEG_INFINITY;
                }
            } else {
                let (x, y) = ((min - start) / rate, (max - start) / rate);
                t0 = t0.max(x.min(y));
                t1 = t1.min(x.max(y));
            }
        }
        take(t0, t1);
    }
    let (lo, hi) = (lo.max(0.0), hi.min(1.0));
    (hi > lo && e.distance_2(a.lerp(b, 0.5 * (lo + hi))) < limit_2).then_some((lo, hi))
}

/// The parameters `t` (ascending) where `w + t v` is at distance `r` from the origin.
pub(super) fn circle_line(w: Vec2, v: Vec2, r: f64) -> Option<(f64, f64)> {
    let a = v.length_2();
    if a == 0.0 {
        return None;
    }
    let half_b = w.dot(v);
    let c = w.length_2() - r * r;
    let disc = half_b * half_b - a * c;
    if disc < 0.0 {
        return None;
    }
    let q = disc.sqrt();
    Some(((-half_b - q) / a, (-half_b + q) / a))
}

/// Appends to `culled` the parts of element `el` (parameter intervals, in order) that
/// edge `e` holds nearer than `limit_2.sqrt()`; `cuts` is scratch.
pub(super) fn held_parts(
    el: &Element,
    e: &Edge,
    r: f64,
    limit_2: f64,
    cuts: &mut Vec<f64>,
    culled: &mut Vec<(f64, f64)>,
) {
    match *el {
        Element::Line { a, b, .. } => culled.extend(line_held(a, b, e, r, limit_2)),
        Element::Arc { end, .. } => {
            let first = culled.len();
            cuts.clear();
            cuts.push(0.0);
            cuts.push(end);
            el.arc_cuts(e, r, cuts);
            cuts.sort_by(f64::total_cmp);
            for w in cuts.windows(2) {
                if w[1] > w[0] && e.distance_2(el.at(0.5 * (w[0] + w[1]), r)) < limit_2 {
                    let len = culled.len();
                    match culled.last_mut() {
                        Some(last) if len > first && last.1 >= w[0] => last.1 = w[1],
                        _ => culled.push((w[0], w[1])),
                    }
                }
            }
        }
    }
}

/// Intervals sorted by their start and merged where they overlap or touch.
pub(super) fn merge(intervals: &mut Vec<(f64, f64)>) {
    intervals.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut out = 0;
    for i in 0..intervals.len() {
        let (a, b) = intervals[i];
        if i > 0 && a <= intervals[out - 1].1 {
            intervals[out - 1].1 = intervals[out - 1].1.max(b);
        } else {
            intervals[out] = (a, b);
            out += 1;
        }
    }
    intervals.truncate(out);
}
