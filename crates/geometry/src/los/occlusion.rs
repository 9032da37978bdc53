//! What a spotter's eye cannot see: one sweep outward from the eye that proves, for most
//! units on the table at once, that no sight line reaches them.
//!
//! # The argument (exact, not a sampling)
//! The eye (a front edge of width `w`) is covered by `k` discs of radius `ρ = w/(2k)`
//! centred on sample points `s_i`. Every blocker the sweep uses is first **shrunk** by
//! `ρ` plus a margin ([`SOLID_MARGIN_MM`]). If the ray from `s_i` toward a point `t`
//! meets a shrunk blocker at `p`, then the segment from any eye point `e` within `ρ` of
//! `s_i` to `t` passes within `ρ·|t − p| / |t − s_i| ≤ ρ` of `p` (similar triangles),
//! so it passes at least the margin deep inside the blocker: it is blocked under the
//! tie rule of [`crate::sight`], however it is slid (occluder fusion with shrunk
//! occluders, as in from-region visibility). A point hidden from every sample behind
//! shrunk blockers is hidden from the whole eye.
//!
//! The blockers are a **subset** of what blocks under the rules, so "hidden" is final:
//! - unit bases that block this spotter whatever the target (000 §4.1-4.2, 4.5:
//!   [`crate::blocks`] with Republique screening), as [`SolidBlock`]s so that shrinking
//!   does not open the seams of a line of bases (a block whose slit some eye point could
//!   look along is split into its bases for this eye);
//! - the spotter's own bases (a front-edge eye);
//! - terrain the caller proves opaque, or cutting by its spotting depth, with an
//!   identity so that a check can leave one piece of terrain out (a target standing in a
//!   wood is not hidden by that wood, only by its spotting depth).
//!
//! The target unit's own bases may stay among the blockers: if some point of the unit is
//! seen, the first point of the unit along that sight line is seen past the unit's own
//! bases too, and it lies on the outline of one of its blocks. So a unit whose bases all
//! lie behind the horizon is hidden. A single base (for "this base is wholly hidden") is
//! judged before any block of its unit joins the horizon.
//!
//! # The horizon
//! Directions are binned by a pseudo-angle (monotone in the true angle, no
//! trigonometry) into [`BUCKETS`] buckets. For each sample and bucket the horizon holds
//! an upper bound on how far a ray in that bucket goes before it meets a shrunk blocker:
//! the largest entry distance of a blocker that covers the whole bucket (the entry
//! distance into a convex polygon is convex in the angle across a bucket that every ray
//! hits, so its largest value is on one of the bucket's two bounding rays). A shape
//! whose distance from the sample exceeds the bound of every bucket it spans is hidden
//! from that sample.
//!
//! The sweep takes the table nearest first, by cells of units: a cell whose outline is
//! hidden hides every unit in it, and a hidden shape never joins the horizon (it could
//! not lower it). Terrain joins in the same order, each piece just before the first
//! shape it could hide is judged, so that buckets nearer units already bound need no
//! entry for it.

use super::solid_block::{SOLID_MARGIN_MM, SolidBlock};
use crate::base::Base;
use crate::polygon::{ConvexPolygon, HalfPlane};
use crate::vec2::Vec2;
use std::sync::OnceLock;

/// Direction buckets over the full turn.
pub(crate) const BUCKETS: usize = 256;

/// Largest sample radius: the eye is covered by discs at most this wide, mm.
pub(crate) const SAMPLE_RADIUS_MM: f64 = 2.1;

/// How far past a judged unit's box terrain joins the horizon before it is judged, mm:
/// more than any spotting depth, so that the windows a check on a base in cover looks
/// through are judged with all the terrain before them.
const JUDGE_REACH_MM: f64 = 100.0;

/// Side of the square cells the sweep groups units by, mm.
const CELL_MM: f64 = 250.0;

const SCALE: f64 = BUCKETS as f64 / 4.0;

/// A pseudo-angle of a direction in [0, 4): monotone in the angle counter-clockwise from
/// +x, with opposite directions 2 apart; its rate is between 0.5 and 1 per radian.
fn pseudo_angle(d: Vec2) -> f64 {
    let r = d.x / (d.x.abs() + d.y.abs());
    if d.y >= 0.0 { 1.0 - r } else { 3.0 + r }
}

/// The unit direction at pseudo-angle `p`.
fn from_pseudo(p: f64) -> Vec2 {
    let p = p.rem_euclid(4.0);
    let v = if p < 1.0 {
        Vec2::new(1.0 - p, p)
    } else if p < 2.0 {
        Vec2::new(1.0 - p, 2.0 - p)
    } else if p < 3.0 {
        Vec2::new(p - 3.0, 2.0 - p)
    } else {
        Vec2::new(p - 3.0, p - 4.0)
    };
    v / v.length()
}

/// The bounding rays of the buckets: ray `j` at pseudo-angle `4j / BUCKETS`.
fn rays() -> &'static [Vec2; BUCKETS] {
    static RAYS: OnceLock<[Vec2; BUCKETS]> = OnceLock::new();
    RAYS.get_or_init(|| std::array::from_fn(|j| from_pseudo(j as f64 / SCALE)))
}

/// How a convex shape lies as seen from a point.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Span {
    /// The point is inside it.
    Inside,
    /// The point is on its outline (or it is degenerate): no range.
    Unknown,
    /// Pseudo-angles from `lo` to `hi` (`hi - lo < 2`).
    Range(f64, f64),
}

/// Squared distance from `p` to a convex polygon (ccw; zero inside), or to a segment or
/// a point. Only edges `p` is not strictly inside of are measured: the nearest point lies
/// on one of them (of the two edges at a vertex, `p` is on the outer side of, or on the
/// line of, at least one).
fn distance_2_to_convex(p: Vec2, poly: &[Vec2]) -> f64 {
    let n = poly.len();
    let mut best = f64::INFINITY;
    let mut outside = n < 3;
    let Some(&first) = poly.first() else { return best };
    // Edge (a, b) for each vertex a and the next, b (the first after the last).
    let mut next = first;
    for &a in poly.iter().rev() {
        let b = next;
        next = a;
        let ab = b - a;
        let ap = p - a;
        if n >= 3 {
            let c = ab.cross(ap);
            if c > 0.0 {
                continue;
            }
            if c < 0.0 {
                outside = true;
            }
        }
        let d2 = edge_distance_2(ap, ab);
        if d2 < best {
            best = d2;
        }
    }
    if outside { best } else { 0.0 }
}

/// Squared distance from a point to an edge, the point at `ap` from the edge's start and
/// the edge `ab` long (a point when it has no length).
fn edge_distance_2(ap: Vec2, ab: Vec2) -> f64 {
    let l2 = ab.length_2();
    let along = ap.dot(ab);
    // As `(ap - ab * (along / l2).clamp(0, 1)).length_2()`, without the division at
    // either end.
    if l2 > 0.0 && along > 0.0 {
        if along >= l2 { (ap - ab).length_2() } else { (ap - ab * (along / l2)).length_2() }
    } else {
        ap.length_2()
    }
}

/// How a convex shape (ccw; or a segment, or a point) lies as seen from `p`, and its
/// squared distance from `p` ([`distance_2_to_convex`]), in one pass over its edges: each
/// edge's side test serves both. The distance is only meaningful with a
/// [`Span::Range`].
fn span_and_distance_2(p: Vec2, poly: &[Vec2]) -> (Span, f64) {
    let (sp, d2, _) = span_distance_and_ends::<false>(p, poly);
    (sp, d2)
}

/// [`span_and_distance_2`], with the squared distances from `p` of the range's two
/// extreme vertices (the farthest where several share the angle; meaningful with a
/// [`Span::Range`]): what [`Horizon::insert`] needs of a blocker, found in the same pass.
/// Without `ENDS`, the distances are left out (zero) and cost nothing.
fn span_distance_and_ends<const ENDS: bool>(p: Vec2, poly: &[Vec2]) -> (Span, f64, (f64, f64)) {
    let n = poly.len();
    if n == 0 || n > 32 {
        return (Span::Unknown, 0.0, (0.0, 0.0));
    }
    let polygon = n >= 3;
    let mut inside = polygon;
    let mut outside = !polygon;
    let mut best = f64::INFINITY;
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    let (mut dlo, mut dhi) = (0.0f64, 0.0f64);
    // Edge (a, b) for each vertex a and the next, b (the first after the last).
    let mut next = poly[0];
    for &a in poly.iter().rev() {
        let b = next;
        next = a;
        let d = a - p;
        if d.x == 0.0 && d.y == 0.0 {
            return (Span::Unknown, 0.0, (0.0, 0.0));
        }
        let ab = b - a;
        let ap = p - a;
        let c = ab.cross(ap);
        // Only edges `p` is not strictly inside of are measured (as in
        // `distance_2_to_convex`).
        if !polygon || c <= 0.0 {
            inside = false;
            if c < 0.0 {
                outside = true;
            }
            let d2 = edge_distance_2(ap, ab);
            if d2 < best {
                best = d2;
            }
        }
        let angle = pseudo_angle(d);
        if ENDS {
            let dv = d.length_2();
            if angle < lo || (angle == lo && dv > dlo) {
                dlo = dv;
            }
            if angle > hi || (angle == hi && dv > dhi) {
                dhi = dv;
            }
        }
        if angle < lo {
            lo = angle;
        }
        if angle > hi {
            hi = angle;
        }
    }
    let d2 = if outside { best } else { 0.0 };
    if inside {
        return (Span::Inside, d2, (0.0, 0.0));
    }
    if hi - lo >= 2.0 {
        // The range wraps through 0: lift the low angles by a turn (the angles found
        // again, rather than kept for this rare case).
        (lo, hi, dlo, dhi) = (f64::INFINITY, f64::NEG_INFINITY, 0.0, 0.0);
        for &v in poly {
            let a = pseudo_angle(v - p);
            let a = if a < 2.0 { a + 4.0 } else { a };
            if ENDS {
                let dv = (v - p).length_2();
                if a < lo || (a == lo && dv > dlo) {
                    dlo = dv;
                }
                if a > hi || (a == hi && dv > dhi) {
                    dhi = dv;
                }
            }
            lo = lo.min(a);
            hi = hi.max(a);
        }
        if hi - lo >= 2.0 {
            return (Span::Unknown, d2, (0.0, 0.0));
        }
    }
    (Span::Range(lo, hi), d2, (dlo, dhi))
}

/// The convex polygon (ccw) shrunk by `d`, if anything is left.
pub(crate) fn shrink_convex(poly: &[Vec2], d: f64) -> Option<Vec<Vec2>> {
    let n = poly.len();
    if n < 3 {
        return None;
    }
    let planes: Vec<HalfPlane> = (0..n)
        .filter_map(|i| {
            let (a, b) = (poly[i], poly[(i + 1) % n]);
            let u = (b - a).normalized()?;
            Some(HalfPlane { point: a + u.perp_left() * d, direction: u })
        })
        .collect();
    let out = ConvexPolygon::from_half_planes(&ConvexPolygon::from_ccw_unchecked(poly.to_vec()), &planes);
    (out.area() > 0.0).then(|| out.vertices().to_vec())
}

/// Terrain bounds of one bucket: the best, whose it is, and the best of any other.
#[derive(Debug, Clone, Copy)]
struct TerrainBound {
    best: f64,
    id: u32,
    second: f64,
}

const NO_TERRAIN: TerrainBound = TerrainBound { best: f64::INFINITY, id: u32::MAX, second: f64::INFINITY };

/// Which terrain bounds a check may use.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Terrain {
    /// Every piece of terrain in the horizon.
    All,
    /// Every piece but this one.
    AllBut(u32),
    /// None.
    None,
}

/// How much of a unit the sweep proved hidden.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum UnitSight {
    /// Not judged (the spotter's own unit, or the sweep did not run).
    Unknown,
    /// No point of any of its bases can be seen.
    Hidden,
    /// Some base may be seen. Bit `i` of `hidden` set: base `i` is wholly hidden; of
    /// `not_whole`: some corner of base `i` is hidden, so it is not wholly seen.
    Partly {
        /// The bases wholly hidden.
        hidden: u64,
        /// The bases with a corner hidden (not wholly seen), wholly hidden ones aside.
        not_whole: u64,
    },
}

/// The horizons of the samples of one eye.
pub(crate) struct Horizon {
    eye: [Vec2; 2],
    samples: Vec<Vec2>,
    centre: Vec2,
    half_eye: f64,
    /// Units and other blockers every check uses: `ub[i * BUCKETS + j]`.
    ub: Vec<f64>,
    terrain: Vec<TerrainBound>,
    /// Everything: the smaller of `ub` and the best terrain bound.
    all: Vec<f64>,
    /// Per bucket, the largest bound of all samples (terrain included).
    merged: Vec<f64>,
    /// Blockers covering a bucket only in part, from units and other blockers every check
    /// uses: `right[i * BUCKETS + j] = (x, b)`: every ray of sample `i` from `x` (the
    /// fraction of bucket `j`'s width, from its first bounding ray) to the bucket's
    /// second bounding ray meets one before distance `b`; `left`: from the first
    /// bounding ray to `x`. They settle a shape's end buckets, which it covers only in
    /// part, and two that overlap bound the whole bucket.
    right: Vec<(f64, f64)>,
    left: Vec<(f64, f64)>,
}

/// No part of a bucket covered ([`Horizon`]'s `right` and `left`).
const NO_RIGHT: (f64, f64) = (f64::INFINITY, f64::INFINITY);
const NO_LEFT: (f64, f64) = (f64::NEG_INFINITY, f64::INFINITY);

impl Horizon {
    /// Horizons for an eye (a segment) with nothing yet in view, and how far blockers
    /// are to be shrunk.
    pub fn new(eye: [Vec2; 2]) -> (Horizon, f64) {
        let w = eye[0].distance(eye[1]);
        let k = ((w / (2.0 * SAMPLE_RADIUS_MM)).ceil() as usize).max(1);
        let rho = w / (2.0 * k as f64);
        let samples: Vec<Vec2> = (0..k).map(|i| eye[0].lerp(eye[1], (i as f64 + 0.5) / k as f64)).collect();
        let h = Horizon {
            eye,
            centre: eye[0].lerp(eye[1], 0.5),
            half_eye: w / 2.0,
            ub: vec![f64::INFINITY; k * BUCKETS],
            all: vec![f64::INFINITY; k * BUCKETS],
            terrain: vec![NO_TERRAIN; k * BUCKETS],
            merged: vec![f64::INFINITY; BUCKETS],
            right: vec![NO_RIGHT; k * BUCKETS],
            left: vec![NO_LEFT; k * BUCKETS],
            samples,
        };
        (h, rho + SOLID_MARGIN_MM)
    }

    /// The eye's centre.
    pub fn centre(&self) -> Vec2 {
        self.centre
    }

    fn bound(&self, at: usize, terrain: Terrain) -> f64 {
        if terrain == Terrain::All {
            return self.all[at];
        }
        let t = self.terrain[at];
        let tb = match terrain {
            Terrain::All => t.best,
            Terrain::AllBut(id) => {
                if t.id == id {
                    t.second
                } else {
                    t.best
                }
            }
            Terrain::None => f64::INFINITY,
        };
        self.ub[at].min(tb)
    }

    /// True when every point of the convex shape (ccw; or a segment, or a point) is
    /// hidden from every sample.
    pub fn hides(&self, shape: &[Vec2], terrain: Terrain) -> bool {
        if terrain == Terrain::All && self.hides_merged(shape) {
            return true;
        }
        (0..self.samples.len()).all(|i| self.hides_from(i, shape, terrain))
    }

    /// [`Self::hides`] for a shape whose span and squared distance from the eye's centre
    /// are known ([`span_and_distance_2`]).
    fn hides_at(&self, shape: &[Vec2], terrain: Terrain, sp: Span, d2: f64) -> bool {
        if terrain == Terrain::All && self.hides_merged_at(sp, d2) {
            return true;
        }
        (0..self.samples.len()).all(|i| self.hides_from(i, shape, terrain))
    }

    /// The quick test: one range from the eye's centre, widened for the eye's width,
    /// against the largest bound of all samples.
    pub fn hides_merged(&self, shape: &[Vec2]) -> bool {
        let (sp, d2) = span_and_distance_2(self.centre, shape);
        self.hides_merged_at(sp, d2)
    }

    /// [`Self::hides_merged`] for a shape whose span and squared distance from the eye's
    /// centre are known ([`span_and_distance_2`]).
    fn hides_merged_at(&self, sp: Span, d2: f64) -> bool {
        let d = d2.sqrt() - self.half_eye;
        if d <= 2.0 * self.half_eye {
            return false;
        }
        let Span::Range(lo, hi) = sp else { return false };
        // Seen from a sample, a point at least d away turns by at most
        // asin(half eye / d) ≤ tan(asin(half eye / d)), and pseudo-angles turn no faster.
        let x = self.half_eye / d;
        let widen = x / (1.0 - x * x).sqrt() + 1e-9;
        let (a, b) = bucket_range(lo - widen, hi + widen);
        (a..=b).all(|r| self.merged[wrap(r)] < d)
    }

    fn hides_from(&self, i: usize, shape: &[Vec2], terrain: Terrain) -> bool {
        let s = self.samples[i];
        let (Span::Range(lo, hi), d2) = span_and_distance_2(s, shape) else { return false };
        let d = d2.sqrt();
        let (a, b) = bucket_range(lo, hi);
        let base = i * BUCKETS;
        let whole = |r: i64| self.bound(base + wrap(r), terrain) < d;
        if !(a + 1..b).all(whole) {
            return false;
        }
        // The end buckets, which the shape may cover only in part: wholly bounded, or
        // bounded over the part from the shape's end to the bucket's far side.
        let (fa, fb) = (lo * SCALE - a as f64, hi * SCALE - b as f64);
        let right = |r: i64, f: f64| {
            let (x, bound) = self.right[base + wrap(r)];
            x <= f && bound < d
        };
        let left = |r: i64, f: f64| {
            let (x, bound) = self.left[base + wrap(r)];
            x >= f && bound < d
        };
        if a == b {
            whole(a) || right(a, fa) || left(a, fb)
        } else {
            (whole(a) || right(a, fa)) && (whole(b) || left(b, fb))
        }
    }

    /// Adds a shrunk blocker (convex, ccw); `terrain` names the piece of terrain it is,
    /// if one.
    pub fn insert(&mut self, shape: &[Vec2], terrain: Option<u32>) {
        if shape.len() > 32 || self.hides_merged(shape) {
            return;
        }
        let rays = rays();
        let n = shape.len();
        // Touched buckets, unwrapped, over all samples.
        let (mut from, mut to) = (i64::MAX, i64::MIN);
        let mut edges = [(Vec2::ZERO, 0.0f64); 32];
        for i in 0..self.samples.len() {
            let s = self.samples[i];
            let base = i * BUCKETS;
            let (sp, d2, ends) = span_distance_and_ends::<true>(s, shape);
            let (lo, hi) = match sp {
                Span::Inside => {
                    // The sample is inside: every ray from it starts blocked.
                    for at in base..base + BUCKETS {
                        self.ub[at] = 0.0;
                        self.all[at] = 0.0;
                    }
                    (from, to) = (0, BUCKETS as i64);
                    continue;
                }
                Span::Unknown => continue,
                Span::Range(lo, hi) => (lo, hi),
            };
            let d = d2.sqrt();
            // Buckets whose two bounding rays both lie in the range: every ray hits.
            let first = ceil_i64(lo * SCALE);
            let last = floor_i64(hi * SCALE);
            if last < first {
                continue;
            }
            // Outward normals and offsets: a ray along `dir` crosses edge e inward at
            // h_e / (n_e · dir) where n_e · dir < 0. Only edges facing the sample
            // (h_e < 0) can give a positive entry, so only they are kept.
            let mut m = 0;
            for k in 0..n {
                let (a, b) = (shape[k], shape[(k + 1) % n]);
                let nrm = (b - a).perp_right();
                let h = nrm.dot(a - s);
                if h < 0.0 {
                    edges[m] = (nrm, h);
                    m += 1;
                }
            }
            let edges = &edges[..m];
            let entry = |dir: Vec2| {
                let mut t = 0.0f64;
                for &(nrm, h) in edges {
                    let nd = nrm.dot(dir);
                    if nd < 0.0 {
                        let x = h / nd;
                        if x > t {
                            t = x;
                        }
                    }
                }
                t
            };
            // This sample's buckets (plain comparisons: the values are never NaN),
            // taken below as arrays, so that indexing by a wrapped bucket needs no
            // bounds check.
            // The buckets between rays `first` and `last`, each between its ray and the
            // next. A bucket already bounded nearer than the shape cannot be lowered:
            // it is skipped. For a blocker, any bound will do; for terrain, only one
            // that every check uses (a piece of terrain may be left out of one).
            if terrain.is_none() {
                let (r, l) = self.partials(i, (lo, hi), ends, d, (first, last), &entry);
                from = from.min(r);
                to = to.max(l);
            }
            let (Ok(all), Ok(ub), Ok(tb)) = (
                <&mut [f64; BUCKETS]>::try_from(&mut self.all[base..base + BUCKETS]),
                <&mut [f64; BUCKETS]>::try_from(&mut self.ub[base..base + BUCKETS]),
                <&mut [TerrainBound; BUCKETS]>::try_from(&mut self.terrain[base..base + BUCKETS]),
            ) else {
                continue;
            };
            let near_all = terrain.is_none();
            let mut updated = (i64::MAX, i64::MIN);
            // The entry along the last ray found, and which ray that was.
            let (mut ray_at, mut ray_t) = (i64::MIN, 0.0f64);
            for q in first..last {
                let j = wrap(q);
                if (if near_all { all[j] } else { ub[j] }) <= d {
                    continue;
                }
                let t0 = if ray_at == q { ray_t } else { entry(rays[j]) };
                let t1 = entry(rays[wrap(q + 1)]);
                (ray_at, ray_t) = (q + 1, t1);
                let mut v = (if t1 > t0 { t1 } else { t0 }) * (1.0 + 1e-12) + 1e-9;
                if d > v {
                    v = d;
                }
                match terrain {
                    None => {
                        if v < ub[j] {
                            ub[j] = v;
                        }
                    }
                    Some(id) => {
                        let w = &mut tb[j];
                        if id == w.id {
                            if v < w.best {
                                w.best = v;
                            }
                        } else if v < w.best {
                            *w = TerrainBound { best: v, id, second: w.best };
                        } else if v < w.second {
                            w.second = v;
                        }
                    }
                }
                if v < all[j] {
                    all[j] = v;
                    if updated.0 == i64::MAX {
                        updated.0 = q;
                    }
                    updated.1 = q + 1;
                }
            }
            if updated.0 < from {
                from = updated.0;
            }
            if updated.1 > to {
                to = updated.1;
            }
        }
        if from < to {
            self.refresh(from, to);
        }
    }

    /// Records the end buckets a blocker covers in part from sample `i`: its pseudo-angle
    /// range `lo..hi` from the sample, the squared distances of its extreme vertices
    /// there (`dlo`, `dhi`: the farthest where several share an angle), at distance `d`,
    /// bounding rays `first..=last` inside the range, `entry` the distance along a ray
    /// to where it enters the blocker. Over the part of a bucket between the blocker's
    /// tangent ray (through its extreme vertex) and a bounding ray, every ray meets it,
    /// no farther than the larger of the two ends' entries (the entry distance is convex
    /// in the angle, see the module documentation). Where the part a blocker covered
    /// before from the other side overlaps, the whole bucket is bounded. Returns the
    /// buckets whose bound changed, as `from..to` for [`Self::refresh`] (empty if none).
    fn partials(
        &mut self,
        i: usize,
        (lo, hi): (f64, f64),
        (dlo, dhi): (f64, f64),
        d: f64,
        (first, last): (i64, i64),
        entry: &dyn Fn(Vec2) -> f64,
    ) -> (i64, i64) {
        let rays = rays();
        if dlo == 0.0 || dhi == 0.0 {
            return (i64::MAX, i64::MIN);
        }
        let pad = |v: f64| (v * (1.0 + 1e-12) + 1e-9).max(d);
        let base = i * BUCKETS;
        let mut changed = (i64::MAX, i64::MIN);
        let mut bound_whole = |h: &mut Horizon, r: i64, v: f64| {
            let at = base + wrap(r);
            if v < h.ub[at] {
                h.ub[at] = v;
            }
            if v < h.all[at] {
                h.all[at] = v;
                changed = (changed.0.min(r), changed.1.max(r + 1));
            }
        };
        // The bucket before ray `first`, covered from `lo` to its far side.
        let (r, f) = (first - 1, lo * SCALE - (first - 1) as f64);
        let at = base + wrap(r);
        let b = pad(entry(rays[wrap(first)]).max(dlo.sqrt()));
        if b < self.ub[at] {
            let (lx, lb) = self.left[at];
            if lx >= f {
                bound_whole(self, r, b.max(lb));
            }
            let (x, old) = self.right[at];
            if f < x || (f == x && b < old) {
                self.right[at] = (f, b);
            }
        }
        // The bucket after ray `last`, covered from its near side to `hi`.
        let (r, f) = (last, hi * SCALE - last as f64);
        let at = base + wrap(r);
        let b = pad(entry(rays[wrap(last)]).max(dhi.sqrt()));
        if b < self.ub[at] {
            let (rx, rb) = self.right[at];
            if rx <= f {
                bound_whole(self, r, b.max(rb));
            }
            let (x, old) = self.left[at];
            if f > x || (f == x && b < old) {
                self.left[at] = (f, b);
            }
        }
        changed
    }

    /// Recomputes the merged bound of buckets `from..to` (unwrapped bucket numbers).
    fn refresh(&mut self, from: i64, to: i64) {
        let k = self.samples.len();
        for r in from..to.min(from + BUCKETS as i64) {
            let j = wrap(r);
            let mut m = f64::NEG_INFINITY;
            for i in 0..k {
                let v = self.all[i * BUCKETS + j];
                if v > m {
                    m = v;
                }
            }
            self.merged[j] = m;
        }
    }
}

/// The bucket of an unwrapped bucket number (`BUCKETS` is a power of two, so the low
/// bits of the two's complement are its Euclidean remainder).
fn wrap(r: i64) -> usize {
    const { assert!(BUCKETS.is_power_of_two()) };
    (r as usize) & (BUCKETS - 1)
}

/// The unwrapped bucket numbers a pseudo-angle range touches.
fn bucket_range(lo: f64, hi: f64) -> (i64, i64) {
    let a = floor_i64(lo * SCALE);
    let b = floor_i64(hi * SCALE).min(a + BUCKETS as i64 - 1);
    (a, b)
}

/// `v.floor() as i64` for the small finite values here, without a library call
/// (`floor` is one on CPUs without SSE4.1 instructions, which the build cannot assume).
fn floor_i64(v: f64) -> i64 {
    let i = v as i64;
    if (i as f64) > v { i - 1 } else { i }
}

/// `v.ceil() as i64`, as [`floor_i64`].
fn ceil_i64(v: f64) -> i64 {
    let i = v as i64;
    if (i as f64) < v { i + 1 } else { i }
}

/// An axis-aligned box as a ccw quadrilateral.
fn box_corners(lo: Vec2, hi: Vec2) -> [Vec2; 4] {
    [lo, Vec2::new(hi.x, lo.y), hi, Vec2::new(lo.x, hi.y)]
}

/// A range of directions seen from the eye's centre (pseudo-angles, `lo ≤ hi`), or
/// every direction.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Sector {
    All,
    Range(f64, f64),
}

impl Sector {
    /// The pseudo-angle range of a shape from `c`, widened for an eye of half-width
    /// `half_eye` (so that it holds the shape's range from every eye point); `None` for
    /// every direction.
    fn of(c: Vec2, half_eye: f64, shape: &[Vec2]) -> Option<(f64, f64)> {
        Sector::of_at(c, half_eye, shape).1
    }

    /// The squared distance of the shape from `c` (as [`distance_2_to_convex`]) and its
    /// range ([`Self::of`]), from one pass over its edges.
    fn of_at(c: Vec2, half_eye: f64, shape: &[Vec2]) -> (f64, Option<(f64, f64)>) {
        let (sp, d2) = span_and_distance_2(c, shape);
        Sector::of_span(c, half_eye, shape, sp, d2)
    }

    /// [`Self::of_at`], given the shape's span and squared distance from `c`
    /// ([`span_and_distance_2`]).
    fn of_span(c: Vec2, half_eye: f64, shape: &[Vec2], sp: Span, d2: f64) -> (f64, Option<(f64, f64)>) {
        let d = d2.sqrt();
        let Span::Range(lo, hi) = sp else { return (distance_2_to_convex(c, shape), None) };
        if d <= 2.0 * half_eye {
            return (d2, None);
        }
        let x = half_eye / d;
        let widen = x / (1.0 - x * x).sqrt() + 1e-9;
        (d2, (hi - lo + 2.0 * widen < 4.0).then_some((lo - widen, hi + widen)))
    }

    /// The smallest range holding the ranges of all the shapes.
    fn around(shape_ranges: impl Iterator<Item = Option<(f64, f64)>>) -> Sector {
        let mut ranges: Vec<(f64, f64)> = Vec::new();
        for r in shape_ranges {
            match r {
                Some((lo, hi)) => {
                    let lo2 = lo.rem_euclid(4.0);
                    ranges.push((lo2, lo2 + (hi - lo)));
                }
                None => return Sector::All,
            }
        }
        if ranges.is_empty() {
            return Sector::Range(0.0, 0.0);
        }
        ranges.sort_by(|a, b| a.0.total_cmp(&b.0));
        // Merge, then leave out the widest gap between merged ranges (round the turn).
        let mut merged: Vec<(f64, f64)> = Vec::new();
        for r in ranges {
            match merged.last_mut() {
                Some(m) if r.0 <= m.1 => m.1 = m.1.max(r.1),
                _ => merged.push(r),
            }
        }
        let first = merged[0];
        let last = *merged.last().unwrap_or(&first);
        // The gap round the turn, from the last range's end to the first's start.
        let mut best_gap = first.0 + 4.0 - last.1;
        let mut sector = (first.0, last.1);
        for w in merged.windows(2) {
            let gap = w[1].0 - w[0].1;
            if gap > best_gap {
                best_gap = gap;
                sector = (w[1].0, w[0].1 + 4.0);
            }
        }
        if best_gap <= 0.0 { Sector::All } else { Sector::Range(sector.0, sector.1) }
    }

    /// True when the shape's range (widened for the eye) meets the sector.
    fn meets(&self, c: Vec2, half_eye: f64, shape: &[Vec2]) -> bool {
        matches!(self, Sector::All) || self.meets_range(Sector::of(c, half_eye, shape))
    }

    /// [`Self::meets`], given the shape's range ([`Self::of`]).
    fn meets_range(&self, range: Option<(f64, f64)>) -> bool {
        let Sector::Range(lo, hi) = *self else { return true };
        let Some((a, b)) = range else { return true };
        // Compare on the circle: shift the shape's range by whole turns next to the sector.
        let shift = ((lo - a) / 4.0).round() * 4.0;
        [-4.0, 0.0, 4.0].iter().any(|k| a + shift + k <= hi && b + shift + k >= lo)
    }
}

/// What the sweep uses of a table, prepared once: every unit's solid blocks, a box
/// around each unit, and cells of units.
pub(crate) struct Occluders {
    pub blocks: Vec<Vec<SolidBlock>>,
    unit_box: Vec<[Vec2; 4]>,
    cells: Vec<([Vec2; 4], Vec<usize>)>,
}

impl Occluders {
    /// `blocks`: each unit's solid blocks ([`super::solid_block::solid_blocks`]);
    /// `layout`: where the units lie.
    pub fn new(blocks: Vec<Vec<SolidBlock>>, layout: Layout) -> Occluders {
        Occluders { blocks, unit_box: layout.unit_box, cells: layout.cells }
    }
}

/// Where a table's units lie, for the sweep: a box round each unit, and cells of units
/// (by the centre of the box) with a box round each cell's units.
pub(crate) struct Layout {
    unit_box: Vec<[Vec2; 4]>,
    cells: Vec<([Vec2; 4], Vec<usize>)>,
}

impl Layout {
    /// The layout of the units (their bases).
    pub fn new(units: &[&[Base]]) -> Layout {
        let boxes: Vec<Option<(Vec2, Vec2)>> = units
            .iter()
            .map(|bases| {
                bases.iter().map(Base::aabb).reduce(|(l0, h0), (l1, h1)| {
                    (Vec2::new(l0.x.min(l1.x), l0.y.min(l1.y)), Vec2::new(h0.x.max(h1.x), h0.y.max(h1.y)))
                })
            })
            .collect();
        let unit_box =
            boxes.iter().map(|b| b.map_or([Vec2::ZERO; 4], |(lo, hi)| box_corners(lo, hi))).collect();
        let mut cells: std::collections::BTreeMap<(i64, i64), (Vec2, Vec2, Vec<usize>)> = Default::default();
        for (u, b) in boxes.iter().enumerate() {
            let Some((lo, hi)) = b else { continue };
            let c = lo.lerp(*hi, 0.5);
            let key = ((c.x / CELL_MM).floor() as i64, (c.y / CELL_MM).floor() as i64);
            let e = cells.entry(key).or_insert((*lo, *hi, Vec::new()));
            e.0 = Vec2::new(e.0.x.min(lo.x), e.0.y.min(lo.y));
            e.1 = Vec2::new(e.1.x.max(hi.x), e.1.y.max(hi.y));
            e.2.push(u);
        }
        let cells = cells.into_values().map(|(lo, hi, us)| (box_corners(lo, hi), us)).collect();
        Layout { unit_box, cells }
    }
}

/// One sweep over an eye (see the module documentation).
pub(crate) struct Sweep<'a> {
    pub occluders: &'a Occluders,
    pub bases: &'a [&'a [Base]],
    /// The spotter's unit: its bases block (a front-edge eye); it is not judged.
    pub spotter_unit: usize,
    /// Whether a unit's bases block this spotter whatever the target.
    pub blocks: &'a dyn Fn(usize) -> bool,
    /// Whether to judge a unit (the others stay `Unknown`, and blockers that could only
    /// hide them are left out).
    pub judged: &'a dyn Fn(usize) -> bool,
    /// The terrain a check on a unit may use.
    pub terrain_of: &'a dyn Fn(usize) -> Terrain,
    /// A last exact chance for a base the horizon does not hide (unit, base).
    pub rescue: &'a dyn Fn(usize, usize, Terrain, &Horizon) -> bool,
    /// Whether to judge the corners of bases not wholly hidden
    /// ([`UnitSight::Partly`]'s `not_whole`). Only when every blocker in the horizon cuts
    /// the whole sight segment, as unit bases and opaque terrain do; not when some only
    /// bound the run in cover before the target base (a spotter in cover), as a line to
    /// a far corner may pass deep in the cover only inside the target base.
    pub corners: bool,
}

impl Sweep<'_> {
    /// Runs the sweep: units nearest first, with the `terrain` pieces (shrunk, with their
    /// identities) joining the horizon in the same order, each just before the first
    /// shape it could hide is judged.
    pub fn run(
        &self,
        mut horizon: Horizon,
        shrink: f64,
        terrain: &[(Vec<Vec2>, Option<u32>)],
    ) -> Vec<UnitSight> {
        let n = self.bases.len();
        let mut out = vec![UnitSight::Unknown; n];
        let c = horizon.centre();
        let occ = self.occluders;
        let judged = |u: usize| u != self.spotter_unit && (self.judged)(u);
        // The directions that matter: those of the cells holding units to judge. The
        // horizon is only ever asked about them, so terrain wholly outside them is left
        // out.
        // Each cell's distance and range, found once.
        // Each cell's span and squared distance from the eye's centre, and from them its
        // distance and range, found once.
        let spans: Vec<(Span, f64)> = occ.cells.iter().map(|(b, _)| span_and_distance_2(c, b)).collect();
        let cell_at: Vec<(f64, Option<(f64, f64)>)> = occ
            .cells
            .iter()
            .zip(&spans)
            .map(|((b, _), &(sp, d2))| Sector::of_span(c, horizon.half_eye, b, sp, d2))
            .collect();
        let sector = Sector::around(
            occ.cells
                .iter()
                .zip(&cell_at)
                .filter(|((_, m), _)| m.iter().any(|&u| judged(u)))
                .map(|(_, a)| a.1),
        );
        // Terrain joins the horizon nearest first, with the units, just before anything
        // it could hide is judged: a piece no nearer than `reach` beyond the near side of
        // a shape (the eye's width) leaves every bound over that shape as it is. So
        // buckets already bounded by nearer units need no entry for it.
        let mut pending: Vec<(f64, usize)> = terrain
            .iter()
            .enumerate()
            .filter(|(_, (shape, _))| sector.meets(c, horizon.half_eye, shape))
            .map(|(k, (shape, _))| (distance_2_to_convex(c, shape).sqrt(), k))
            .collect();
        pending.sort_unstable_by(|a, b| a.0.total_cmp(&b.0));
        let mut next = 0;
        let reach = 2.0 * horizon.half_eye;
        let mut terrain_within = |horizon: &mut Horizon, r: f64| {
            while let Some(&(dt, k)) = pending.get(next) {
                if dt > r {
                    break;
                }
                horizon.insert(&terrain[k].0, terrain[k].1);
                next += 1;
            }
        };
        let mut cells: Vec<(f64, usize)> = cell_at.iter().enumerate().map(|(k, a)| (a.0, k)).collect();
        cells.sort_unstable_by(|a, b| a.0.total_cmp(&b.0));
        let mut units: Vec<(f64, usize, Span)> = Vec::new();
        for &(cells_d, k) in &cells {
            let (_, members) = &occ.cells[k];
            if !sector.meets_range(cell_at[k].1) {
                continue;
            }
            terrain_within(&mut horizon, cells_d.sqrt() + reach);
            let (sp, d2) = spans[k];
            if horizon.hides_merged_at(sp, d2) {
                for &u in members {
                    if judged(u) {
                        out[u] = UnitSight::Hidden;
                    }
                }
                continue;
            }
            units.clear();
            // Each unit's span and squared distance from the eye's centre, found once.
            units.extend(members.iter().map(|&u| {
                let (sp, d2) = span_and_distance_2(c, &occ.unit_box[u]);
                let d2 =
                    if matches!(sp, Span::Unknown) { distance_2_to_convex(c, &occ.unit_box[u]) } else { d2 };
                (d2, u, sp)
            }));
            units.sort_unstable_by(|a, b| a.0.total_cmp(&b.0));
            for &(d2, u, sp) in &units {
                if judged(u) {
                    // A base's windows into its cover lie within the unit's box grown by
                    // the spotting depth (see `spotting_depth::hidden_in_cover`).
                    let far = occ.unit_box[u].iter().map(|&q| q.distance(c)).fold(0.0, f64::max);
                    terrain_within(&mut horizon, far + reach + JUDGE_REACH_MM);
                    out[u] = self.judge(&horizon, u, sp, d2);
                    if out[u] == UnitSight::Hidden {
                        continue;
                    }
                }
                if (self.blocks)(u)
                    && sector.meets_range(Sector::of_span(c, horizon.half_eye, &occ.unit_box[u], sp, d2).1)
                {
                    self.insert_unit(&mut horizon, u, shrink);
                }
            }
        }
        out
    }

    /// What the horizon hides of unit `u`, whose box has span `sp` and squared distance
    /// `d2` from the eye's centre.
    fn judge(&self, horizon: &Horizon, u: usize, sp: Span, d2: f64) -> UnitSight {
        let terrain = (self.terrain_of)(u);
        if horizon.hides_at(&self.occluders.unit_box[u], terrain, sp, d2) {
            return UnitSight::Hidden;
        }
        let bases = self.bases[u];
        let (mut hidden, mut not_whole) = (0u64, 0u64);
        for (i, b) in bases.iter().enumerate().take(64) {
            let corners = b.vertices_ccw();
            if horizon.hides(&corners, terrain) || (self.rescue)(u, i, terrain, horizon) {
                hidden |= 1 << i;
            } else if self.corners && corners.iter().any(|&q| horizon.hides(&[q], terrain)) {
                // A point of the base no eye point sees: the base is not wholly seen.
                not_whole |= 1 << i;
            }
        }
        if bases.len() <= 64 && hidden.count_ones() as usize == bases.len() {
            UnitSight::Hidden
        } else {
            UnitSight::Partly { hidden, not_whole }
        }
    }

    fn insert_unit(&self, horizon: &mut Horizon, u: usize, shrink: f64) {
        let eye = horizon.eye;
        for block in &self.occluders.blocks[u] {
            if block.slits.iter().any(|s| s.threaded_from(&eye)) {
                for piece in block.split(self.bases[u]) {
                    if let Some(r) = piece.inner.eroded(shrink) {
                        horizon.insert(&r.corners(), None);
                    }
                }
            } else if let Some(r) = block.inner.eroded(shrink) {
                horizon.insert(&r.corners(), None);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// How a shape lies as seen from `p`, found apart from its distance: the reference
    /// for [`span_and_distance_2`].
    fn span(p: Vec2, poly: &[Vec2]) -> Span {
        let n = poly.len();
        if n == 0 || n > 32 {
            return Span::Unknown;
        }
        let mut inside = n >= 3;
        let mut lo = f64::INFINITY;
        let mut hi = f64::NEG_INFINITY;
        for i in 0..n {
            let d = poly[i] - p;
            if d.x == 0.0 && d.y == 0.0 {
                return Span::Unknown;
            }
            if inside && (poly[(i + 1) % n] - poly[i]).cross(p - poly[i]) <= 0.0 {
                inside = false;
            }
            let a = pseudo_angle(d);
            if a < lo {
                lo = a;
            }
            if a > hi {
                hi = a;
            }
        }
        if inside {
            return Span::Inside;
        }
        if hi - lo >= 2.0 {
            // The range wraps through 0: lift the low angles by a turn (the angles found
            // again, rather than kept for this rare case).
            lo = f64::INFINITY;
            hi = f64::NEG_INFINITY;
            for &v in poly {
                let a = pseudo_angle(v - p);
                let a = if a < 2.0 { a + 4.0 } else { a };
                lo = lo.min(a);
                hi = hi.max(a);
            }
            if hi - lo >= 2.0 {
                return Span::Unknown;
            }
        }
        Span::Range(lo, hi)
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 3000, rng_seed: proptest::test_runner::RngSeed::Fixed(12), ..ProptestConfig::default() })]
        // Points and hulls on a small grid, so that points on corners, on edges and on
        // edge lines are common.
        #[test]
        fn span_and_distance_in_one_pass_are_those_of_the_two_apart(
            pts in proptest::collection::vec((-6i32..7, -6i32..7), 1..9),
            (px, py) in (-8i32..9, -8i32..9),
            scale in prop_oneof![Just(1.0), Just(0.37), Just(41.0)],
        ) {
            let v = |(x, y): (i32, i32)| Vec2::new(f64::from(x) * scale, f64::from(y) * scale);
            let poly = crate::hull::hull_points(pts.iter().copied().map(v).collect::<Vec<_>>());
            let p = v((px, py));
            let (sp, d2) = span_and_distance_2(p, &poly);
            prop_assert_eq!(sp, span(p, &poly));
            if sp != Span::Unknown || poly.len() < 3 {
                prop_assert_eq!(d2.to_bits(), distance_2_to_convex(p, &poly).to_bits());
            }
            // With the ends: the same span and distance, and for a range, the farthest
            // vertex at each end's angle (the angles lifted by a turn as the range is).
            let (sp_e, d2_e, (dlo, dhi)) = span_distance_and_ends::<true>(p, &poly);
            prop_assert_eq!((sp_e, d2_e.to_bits()), (sp, d2.to_bits()));
            if let Span::Range(lo, hi) = sp {
                let lift = |a: f64| if hi >= 4.0 && a < 2.0 { a + 4.0 } else { a };
                let farthest = |at: f64| {
                    poly.iter()
                        .filter(|&&q| lift(pseudo_angle(q - p)) == at)
                        .map(|&q| (q - p).length_2())
                        .fold(0.0, f64::max)
                };
                prop_assert_eq!((dlo, dhi), (farthest(lo), farthest(hi)));
                prop_assert!(dlo > 0.0 && dhi > 0.0);
            }
        }
    }

    /// True when the segment from the origin to `t` meets the convex polygon (ccw)
    /// grown by 1e-9 mm (a ray through a corner meets it, whatever the rounding).
    fn segment_meets(t: Vec2, poly: &[Vec2]) -> bool {
        let n = poly.len();
        let grown = |i: usize| Some(1e-9 * (poly[(i + 1) % n] - poly[i]).length());
        crate::polygon::line_in_convex(poly, Vec2::ZERO, t, (0.0, 1.0), grown).is_some()
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 400, rng_seed: proptest::test_runner::RngSeed::Fixed(21), ..ProptestConfig::default() })]
        // Whatever a horizon of one sample hides lies behind something put in it: the
        // segment from the sample to it meets a blocker (whole and partly covered
        // buckets alike).
        #[test]
        fn what_a_horizon_hides_lies_behind_a_blocker(
            blocks in proptest::collection::vec((-300.0f64..300.0, 20.0f64..300.0, 1.0f64..60.0, 1.0f64..30.0, 0.0f64..3.2), 1..8),
            points in proptest::collection::vec((-500.0f64..500.0, -50.0f64..500.0), 40),
        ) {
            let mut h = one_sample();
            let shapes: Vec<Vec<Vec2>> = blocks
                .iter()
                .map(|&(x, y, w, d, turn)| {
                    let (u, v) = (Vec2::new(turn.cos(), turn.sin()), Vec2::new(-turn.sin(), turn.cos()));
                    let c = Vec2::new(x, y);
                    vec![c - u * w - v * d, c + u * w - v * d, c + u * w + v * d, c - u * w + v * d]
                })
                .collect();
            for shape in &shapes {
                h.insert(shape, None);
            }
            // Random points, and points about the blockers' corners, where the buckets
            // covered in part lie.
            let mut probes: Vec<Vec2> = points.iter().map(|&(x, y)| Vec2::new(x, y)).collect();
            for v in shapes.iter().flatten() {
                for f in [0.97, 0.995, 1.0005, 1.003, 1.02, 1.2] {
                    for turn in [-3e-3, -4e-4, 0.0, 4e-4, 3e-3] {
                        let (c, s) = (f64::cos(turn), f64::sin(turn));
                        probes.push(Vec2::new(v.x * c - v.y * s, v.x * s + v.y * c) * f);
                    }
                }
            }
            for &t in &probes {
                if h.hides(&[t], Terrain::All) {
                    prop_assert!(shapes.iter().any(|s| segment_meets(t, s)), "{t:?}");
                }
            }
        }
    }

    #[test]
    fn whole_parts_are_those_of_floor_and_ceil() {
        for v in [-1024.5, -3.0, -2.999_999_999, -0.5, -0.0, 0.0, 1e-300, 0.5, 1.0, 7.000_000_001, 4095.99] {
            assert_eq!(floor_i64(v), v.floor() as i64, "{v}");
            assert_eq!(ceil_i64(v), v.ceil() as i64, "{v}");
        }
    }

    #[test]
    fn pseudo_angles_are_monotone_and_invert() {
        let mut last = -1.0;
        for k in 0..3600 {
            let d = Vec2::from_heading_deg(k as f64 / 10.0);
            let p = pseudo_angle(d);
            assert!(p > last || k == 0, "{k}");
            last = p;
            let back = from_pseudo(p);
            assert!((back - d).length() < 1e-12, "{k}");
        }
    }

    /// An axis-aligned box as a ccw quadrilateral.
    fn rect(x0: f64, y0: f64, x1: f64, y1: f64) -> [Vec2; 4] {
        box_corners(Vec2::new(x0, y0), Vec2::new(x1, y1))
    }

    /// Horizons of one sample at the origin (an eye 1 mm wide).
    fn one_sample() -> Horizon {
        let (h, _) = Horizon::new([Vec2::new(-0.5, 0.0), Vec2::new(0.5, 0.0)]);
        assert_eq!(h.samples, vec![Vec2::ZERO]);
        h
    }

    /// The point at pseudo-angle `p` (in the first quadrant) on the line y = `y`.
    fn at_angle(p: f64, y: f64) -> Vec2 {
        let d = from_pseudo(p);
        d * (y / d.y)
    }

    /// The bucket of a pseudo-angle, and where in it the angle lies (a fraction of its
    /// width).
    fn bucket_of(p: f64) -> (i64, f64) {
        let b = floor_i64(p * SCALE);
        (b, p * SCALE - b as f64)
    }

    #[test]
    fn a_bucket_covered_in_part_hides_what_lies_behind_that_part() {
        // Seen from the origin, a wall x -100..10, y 100..110 ends at the ray through
        // (10, 100), pseudo-angle 1 - 10/110 (its other near corners lie at larger
        // angles). Points on the line y = 200 a tenth of a bucket either side of that
        // ray, in the same bucket: the one toward the wall lies behind it (hidden,
        // though no bucket it lies in is wholly covered); the other is past the
        // wall's end (seen).
        let end = 1.0 - 10.0 / 110.0;
        let (behind, past) = (end + 0.1 / SCALE, end - 0.1 / SCALE);
        let (b, f) = bucket_of(end);
        assert!(f > 0.1 && f < 0.9 && bucket_of(behind).0 == b && bucket_of(past).0 == b);
        let mut h = one_sample();
        h.insert(&rect(-100.0, 100.0, 10.0, 110.0), None);
        assert!(h.hides(&[at_angle(behind, 200.0)], Terrain::All));
        assert!(!h.hides(&[at_angle(past, 200.0)], Terrain::All));
        // Nearer than the wall: seen.
        assert!(!h.hides(&[at_angle(behind, 95.0)], Terrain::All));
    }

    #[test]
    fn two_blockers_meeting_inside_a_bucket_bound_it_whole() {
        // The wall above covers its end's bucket from the angle 1 - 10/110 on. A second
        // wall, x x2..100, y 150..151, covers every angle from 0.6 (its corner
        // (100, 150)) up to that of its corner (x2, 151), placed 0.07 of a bucket
        // past the first wall's end: between them they cover the bucket. A box at
        // y 300..301 from half a bucket before that bucket to half a bucket after it
        // is hidden behind the two together (the bucket before lies behind the second
        // wall, the one after behind the first), seen past either alone.
        let end = 1.0 - 10.0 / 110.0;
        let (b, _) = bucket_of(end);
        let wall_to = |p: f64| {
            let x2 = 151.0 * (1.0 - p) / p;
            rect(x2, 150.0, 100.0, 151.0)
        };
        let lo = at_angle((b as f64 - 0.5) / SCALE, 300.0);
        let hi = at_angle((b as f64 + 1.5) / SCALE, 300.0);
        let target = rect(hi.x, 300.0, lo.x, 301.0);
        let first = rect(-100.0, 100.0, 10.0, 110.0);
        let second = wall_to(end + 0.07 / SCALE);
        assert_eq!(bucket_of(end + 0.07 / SCALE).0, b);
        for (shapes, hidden) in [(vec![first, second], true), (vec![first], false), (vec![second], false)] {
            let mut h = one_sample();
            for s in &shapes {
                h.insert(s, None);
            }
            assert_eq!(h.hides(&target, Terrain::All), hidden, "{}", shapes.len());
        }
        // Either order.
        let mut h = one_sample();
        h.insert(&second, None);
        h.insert(&first, None);
        assert!(h.hides(&target, Terrain::All));
        // The second wall's corner 0.03 of a bucket short of the first wall's end: a
        // gap, and the box is seen through it.
        let mut h = one_sample();
        h.insert(&first, None);
        h.insert(&wall_to(end - 0.03 / SCALE), None);
        assert!(!h.hides(&target, Terrain::All));
    }

    #[test]
    fn a_wall_hides_what_is_behind_it_from_the_whole_eye() {
        let eye = [Vec2::new(-12.5, 0.0), Vec2::new(12.5, 0.0)];
        let (mut h, shrink) = Horizon::new(eye);
        let wall = [
            Vec2::new(-100.0, 100.0),
            Vec2::new(100.0, 100.0),
            Vec2::new(100.0, 120.0),
            Vec2::new(-100.0, 120.0),
        ];
        let shrunk = shrink_convex(&wall, shrink).unwrap();
        h.insert(&shrunk, None);
        let behind = |x: f64| {
            [
                Vec2::new(x - 15.0, 200.0),
                Vec2::new(x + 15.0, 200.0),
                Vec2::new(x + 15.0, 220.0),
                Vec2::new(x - 15.0, 220.0),
            ]
        };
        assert!(h.hides(&behind(0.0), Terrain::All));
        // Past the wall's end, in view.
        assert!(!h.hides(&behind(200.0), Terrain::All));
        // In front of the wall: seen.
        let front =
            [Vec2::new(-15.0, 50.0), Vec2::new(15.0, 50.0), Vec2::new(15.0, 70.0), Vec2::new(-15.0, 70.0)];
        assert!(!h.hides(&front, Terrain::All));
        // Terrain hides too, unless left out.
        let (mut h2, _) = Horizon::new(eye);
        h2.insert(&shrunk, Some(3));
        assert!(h2.hides(&behind(0.0), Terrain::All));
        assert!(!h2.hides(&behind(0.0), Terrain::AllBut(3)));
        assert!(h2.hides(&behind(0.0), Terrain::AllBut(2)));
        assert!(!h2.hides(&behind(0.0), Terrain::None));
    }
}
