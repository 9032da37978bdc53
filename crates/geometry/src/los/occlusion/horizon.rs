//! The [`Horizon`]: per sample point of the eye and per bucket of directions, a bound
//! on how far a ray goes before it meets a shrunk blocker.

use super::span::{Span, span_and_distance_2, span_distance_and_ends};
use super::{BUCKETS, SAMPLE_RADIUS_MM, SCALE, bucket_range, ceil_i64, floor_i64, rays, wrap};
use crate::los::solid_block::SOLID_MARGIN_MM;
use crate::vec2::Vec2;

/// Terrain bounds of one bucket: the best, whose it is, and the best of any other.
#[derive(Debug, Clone, Copy)]
pub(super) struct TerrainBound {
    pub(super) best: f64,
    pub(super) id: u32,
    pub(super) second: f64,
}

pub(super) const NO_TERRAIN: TerrainBound =
    TerrainBound { best: f64::INFINITY, id: u32::MAX, second: f64::INFINITY };

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
    pub(super) eye: [Vec2; 2],
    pub(super) samples: Vec<Vec2>,
    pub(super) centre: Vec2,
    pub(super) half_eye: f64,
    /// Units and other blockers every check uses: `ub[i * BUCKETS + j]`.
    pub(super) ub: Vec<f64>,
    pub(super) terrain: Vec<TerrainBound>,
    /// Everything: the smaller of `ub` and the best terrain bound.
    pub(super) all: Vec<f64>,
    /// Per bucket, the largest bound of all samples (terrain included).
    pub(super) merged: Vec<f64>,
    /// Blockers covering a bucket only in part, from units and other blockers every check
    /// uses: `right[i * BUCKETS + j] = (x, b)`: every ray of sample `i` from `x` (the
    /// fraction of bucket `j`'s width, from its first bounding ray) to the bucket's
    /// second bounding ray meets one before distance `b`; `left`: from the first
    /// bounding ray to `x`. They settle a shape's end buckets, which it covers only in
    /// part, and two that overlap bound the whole bucket.
    pub(super) right: Vec<(f64, f64)>,
    pub(super) left: Vec<(f64, f64)>,
}

/// No part of a bucket covered ([`Horizon`]'s `right` and `left`).
pub(super) const NO_RIGHT: (f64, f64) = (f64::INFINITY, f64::INFINITY);

pub(super) const NO_LEFT: (f64, f64) = (f64::NEG_INFINITY, f64::INFINITY);

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

    pub(super) fn bound(&self, at: usize, terrain: Terrain) -> f64 {
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
    pub(super) fn hides_at(&self, shape: &[Vec2], terrain: Terrain, sp: Span, d2: f64) -> bool {
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
    pub(super) fn hides_merged_at(&self, sp: Span, d2: f64) -> bool {
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

    pub(super) fn hides_from(&self, i: usize, shape: &[Vec2], terrain: Terrain) -> bool {
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
    pub(super) fn partials(
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
    pub(super) fn refresh(&mut self, from: i64, to: i64) {
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
