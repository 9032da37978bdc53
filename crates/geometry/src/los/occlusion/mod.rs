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

mod horizon;
mod sector;
mod span;
mod sweep;
#[cfg(test)]
mod tests;

pub(crate) use horizon::{Horizon, Terrain, UnitSight};
pub(crate) use sweep::{Layout, Occluders, Sweep};

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
