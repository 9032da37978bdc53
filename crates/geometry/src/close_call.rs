//! Close calls (issue 17): how far a threshold verdict is from flipping, and whether the
//! uncertainty a scanned table carries could flip it.
//!
//! Every threshold verdict compares a piece of geometry with a rule's limit: a distance
//! with a rule distance, a point with an arc's side or a flank line. Its **margin** is
//! how far, in table millimetres, the deciding geometry would have to move for the
//! verdict to flip: `|distance - limit|` for a distance, the distance from the deciding
//! point to the line for a line. A hand-typed table is exact, so its verdicts are
//! certain whatever their margin (the tie rules of `docs/report-format.md` settle exact
//! equality). A scanned table's bases carry `sigma_mm` (the per-axis standard
//! uncertainty of the centre) and `sigma_heading_deg`; the verdict is **certain** when
//! its margin exceeds [`CERTAIN_AT_SIGMAS`] combined sigmas of the geometry that decides
//! it, and "too close to call" otherwise.
//!
//! # The combined sigma
//! To first order, moving a base's centre by `δ` (a 2-D normal with per-axis sigma
//! `σ`) moves the deciding quantity by `δ·n`, where `n` is the unit direction in which
//! that base's move changes the quantity: a normal with sigma `σ` whatever `n`. Turning
//! the base by `δθ` about its centre moves its deciding point `p` by `δθ·perp(p - c)`,
//! which changes the quantity by `δθ·(perp(p - c)·n)`: the **lever** `|perp(p - c)·n|`
//! times the heading sigma in radians. The parties are independent, so the combined
//! variance is the sum of `σ² + (lever·σθ)²` over every base that carries the deciding
//! geometry. Where a verdict's deciding point is not known exactly, the lever is the
//! base's half diagonal, an upper bound ([`Party::anywhere`]).
//!
//! # The nudge
//! A close call names the base whose move would flip it most easily (the party with the
//! largest sigma) and by how much: the margin, in the direction that flips it.
//!
//! ```
//! use vedette_geometry::close_call::{CloseCall, Party, CERTAIN_AT_SIGMAS};
//! use vedette_geometry::{BaseRef, Vec2};
//! // A margin of 0.5 mm against a combined sigma of 0.3 mm is too close to call.
//! let call = CloseCall::with_sigmas(0.5, &[(BaseRef::new(0, 0), Some(0.3), Some(Vec2::new(1.0, 0.0)))]);
//! assert!(!call.certain());
//! assert_eq!(call.nudge.map(|n| n.by_mm), Some(0.5));
//! assert!(CloseCall::with_sigmas(0.7, &[(BaseRef::new(0, 0), Some(0.3), None)]).certain());
//! ```

use crate::base::{Base, BaseSize};
use crate::segment::{ClosestPoints, Segment};
use crate::table::{BaseRef, Table};
use crate::vec2::Vec2;

/// A verdict is certain when its margin exceeds this many combined standard
/// uncertainties (two sigma: about 95% of scans on one side, per issue 17).
pub const CERTAIN_AT_SIGMAS: f64 = 2.0;

/// Margins are rounded to this, mm, so that floating-point noise never shows.
const MARGIN_ROUNDING_MM: f64 = 1e-6;

/// How far a threshold verdict is from flipping, and how sure a scan is of it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CloseCall {
    /// How far the deciding geometry must move for the verdict to flip, mm (≥ 0).
    pub margin_mm: f64,
    /// The combined standard uncertainty of the deciding geometry along the direction
    /// that flips the verdict, mm; `None` on a table whose deciding bases carry no
    /// uncertainty (hand-typed: exact).
    pub sigma_mm: Option<f64>,
    /// When the call is too close: the base whose move flips it most easily.
    pub nudge: Option<Nudge>,
}

/// Which base to move, and how far, to flip a close call.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Nudge {
    /// The base.
    pub base: BaseRef,
    /// How far, mm: the margin.
    pub by_mm: f64,
    /// The unit direction of the move that flips the verdict, table frame, when the
    /// verdict has one.
    pub towards: Option<Vec2>,
}

/// A base whose pose decides a verdict: its lever for heading uncertainty and the
/// direction of a move that flips the verdict.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Party {
    /// The base.
    pub base: BaseRef,
    /// Heading uncertainty enters times this, mm (see the module documentation).
    pub lever_mm: f64,
    /// The unit direction in which moving this base flips the verdict.
    pub flip: Option<Vec2>,
}

impl Party {
    /// A party whose deciding point `p` is known: the lever is `|perp(p - c)·n|` for the
    /// base centre `c` and the flip direction `n`.
    #[must_use]
    pub fn at(base: BaseRef, b: &Base, p: Vec2, flip: Vec2) -> Party {
        Party { base, lever_mm: (p - b.centre()).perp_left().dot(flip).abs(), flip: Some(flip) }
    }

    /// A party whose deciding point is somewhere on the base: the half diagonal is the
    /// lever (an upper bound).
    #[must_use]
    pub fn anywhere(base: BaseRef, b: &Base, flip: Option<Vec2>) -> Party {
        Party { base, lever_mm: half_diagonal(b), flip }
    }

    /// This party's standard uncertainty along its flip direction, mm; `None` when its
    /// base carries none.
    #[must_use]
    pub fn sigma_mm(&self, table: &Table) -> Option<f64> {
        let meta = table.base(self.base)?.meta();
        if meta.sigma_mm.is_none() && meta.sigma_heading_deg.is_none() {
            return None;
        }
        let pos = meta.sigma_mm.unwrap_or(0.0);
        let turn = meta.sigma_heading_deg.unwrap_or(0.0).to_radians() * self.lever_mm;
        Some(pos.hypot(turn))
    }
}

impl CloseCall {
    /// A call with the given margin decided by these parties.
    #[must_use]
    pub fn new(table: &Table, margin_mm: f64, parties: &[Party]) -> CloseCall {
        let sigmas: Vec<_> = parties.iter().map(|p| (p.base, p.sigma_mm(table), p.flip)).collect();
        CloseCall::with_sigmas(margin_mm, &sigmas)
    }

    /// A call from each party's sigma along its flip direction (`None`: exact).
    #[must_use]
    pub fn with_sigmas(margin_mm: f64, parties: &[(BaseRef, Option<f64>, Option<Vec2>)]) -> CloseCall {
        let margin_mm = (margin_mm.abs() / MARGIN_ROUNDING_MM).round() * MARGIN_ROUNDING_MM;
        let known: Vec<_> = parties.iter().filter_map(|&(b, s, f)| s.map(|s| (b, s, f))).collect();
        let sigma_mm =
            if known.is_empty() { None } else { Some(known.iter().map(|k| k.1 * k.1).sum::<f64>().sqrt()) };
        let mut call = CloseCall { margin_mm, sigma_mm, nudge: None };
        if !call.certain() {
            // The largest sigma; the later party (the target) on a tie (`max_by` keeps the
            // last of equals).
            call.nudge = known.iter().max_by(|a, b| a.1.total_cmp(&b.1)).map(|&(base, _, towards)| Nudge {
                base,
                by_mm: margin_mm,
                towards,
            });
        }
        call
    }

    /// The call of a perturbed verdict ([`flip_margin`]): its margin, the standard
    /// uncertainty of its pieces (`None`: exact) and, when too close to call, the base
    /// named to nudge (no direction: every piece moved at once decides it).
    #[must_use]
    pub fn perturbed(margin_mm: f64, sigma_mm: Option<f64>, nudge_base: Option<BaseRef>) -> CloseCall {
        let mut call = CloseCall { margin_mm, sigma_mm, nudge: None };
        if !call.certain() {
            call.nudge = nudge_base.map(|base| Nudge { base, by_mm: margin_mm, towards: None });
        }
        call
    }

    /// A call on an exact table: certain whatever the margin.
    #[must_use]
    pub fn exact(margin_mm: f64) -> CloseCall {
        CloseCall::with_sigmas(margin_mm, &[])
    }

    /// True when the margin exceeds [`CERTAIN_AT_SIGMAS`] combined sigmas, or the
    /// deciding geometry is exact.
    #[must_use]
    pub fn certain(&self) -> bool {
        self.sigma_mm.is_none_or(|s| self.margin_mm > CERTAIN_AT_SIGMAS * s)
    }
}

/// The largest margin a perturbed verdict is searched to, mm: a verdict that survives
/// every base grown or shrunk by this much is reported with this margin (sight, firing
/// zones).
pub const PERTURBATION_MAX_MM: f64 = 50.0;
/// The bisection of a perturbed verdict stops when its margin is known to this, mm, or
/// to [`PERTURBATION_RELATIVE_RESOLUTION`] of itself, whichever is larger.
pub const PERTURBATION_RESOLUTION_MM: f64 = 0.005;
/// The relative resolution of a perturbed verdict's margin: a margin of 10 mm is known
/// to 0.1 mm (it decides nothing a scan's tenths of a millimetre could flip).
pub const PERTURBATION_RELATIVE_RESOLUTION: f64 = 0.01;

/// The smallest side a base shrunk by a perturbation keeps, mm (and the shortest eye a
/// shrunk frontage keeps).
pub(crate) const PERTURBED_MIN_SIDE_MM: f64 = 0.01;

/// A base grown (`delta > 0`) or shrunk by `delta` on every side (a perturbation of
/// [`flip_margin`]); a shrunk side keeps at least 0.01 mm.
pub(crate) fn resized(b: &Base, delta: f64) -> Base {
    let side = |s: f64| (s + 2.0 * delta).max(PERTURBED_MIN_SIDE_MM);
    b.with_size(BaseSize::new(side(b.width()), side(b.depth())))
}

/// A base's standard uncertainty for a perturbed verdict, mm: its `sigma_mm` plus its
/// heading sigma (radians) times `lever_mm` (what turning it moves the deciding geometry
/// by); `None` when it carries neither.
pub(crate) fn sigma_with_lever(b: &Base, lever_mm: f64) -> Option<f64> {
    let m = b.meta();
    if m.sigma_mm.is_none() && m.sigma_heading_deg.is_none() {
        return None;
    }
    Some(m.sigma_mm.unwrap_or(0.0) + lever_mm * m.sigma_heading_deg.unwrap_or(0.0).to_radians())
}

/// [`sigma_with_lever`] with the base's half diagonal as the lever (the farthest any of
/// its points moves when it turns).
pub(crate) fn base_sigma(b: &Base) -> Option<f64> {
    sigma_with_lever(b, half_diagonal(b))
}

/// Half a base's diagonal, mm.
pub(crate) fn half_diagonal(b: &Base) -> f64 {
    0.5 * b.width().hypot(b.depth())
}

/// The first perturbation [`flip_margin`] tries, mm: [`PERTURBATION_MAX_MM`] halved four
/// times, a point of the halving grid of `[0, PERTURBATION_MAX_MM]`.
const FIRST_PROBE_MM: f64 = PERTURBATION_MAX_MM / 16.0;

/// The margin of a verdict decided by many pieces of geometry at once (a sight line, a
/// firing zone): the smallest perturbation `k` in `(0, PERTURBATION_MAX_MM]` at which
/// `flips(k)` is true, found by bisection of `[0, PERTURBATION_MAX_MM]` to
/// [`PERTURBATION_RESOLUTION_MM`] (or [`PERTURBATION_RELATIVE_RESOLUTION`] of it) and
/// given as the largest `k` known not to flip (a lower bound); [`PERTURBATION_MAX_MM`]
/// when even that does not flip it. `flips(k)` moves every piece `k` mm against the
/// verdict; it must be monotone (a verdict flipped at `k` stays flipped at every larger
/// `k`).
///
/// Most margins are a few millimetres, and a large perturbation is the costliest to
/// decide, so the search starts small: it tries `PERTURBATION_MAX_MM / 16` and doubles
/// until the verdict flips, then bisects that bracket. For a monotone `flips` every
/// bracket it reaches is one that halving `[0, PERTURBATION_MAX_MM]` from the top
/// reaches (a flip at `k` implies a flip at `2k`), so the margin is that of the plain
/// bisection, bit for bit. A verdict that is not monotone (a target shrunk to a point
/// can be easier to see in full than a whole base behind grown obstacles) may flip at a
/// few millimetres and not at [`PERTURBATION_MAX_MM`]: its margin is then the smaller
/// perturbation found to flip it, where the search from the top stopped at the cap.
///
/// ```
/// use vedette_geometry::close_call::{flip_margin, PERTURBATION_MAX_MM};
/// use std::convert::Infallible;
/// // A verdict that flips once everything moves 7.3 mm: known to 1% below.
/// let m = flip_margin(|k| Ok::<bool, Infallible>(k >= 7.3)).unwrap_or(0.0);
/// assert!(m < 7.3 && m > 7.3 * 0.99);
/// // One that never flips within the search.
/// assert_eq!(flip_margin(|_| Ok::<bool, Infallible>(false)).unwrap_or(0.0), PERTURBATION_MAX_MM);
/// ```
///
/// # Errors
/// Whatever `flips` returns.
pub fn flip_margin<E>(flips: impl FnMut(f64) -> Result<bool, E>) -> Result<f64, E> {
    search_margin(FIRST_PROBE_MM, flips)
}

/// [`flip_margin`] searched from the top: it tries [`PERTURBATION_MAX_MM`] first, then
/// halves. The same margin; fewer steps for a verdict whose large perturbations are the
/// cheap ones to decide (a blocked firing zone, whose obstacles vanish when shrunk far)
/// or that rarely flips at all.
///
/// # Errors
/// Whatever `flips` returns.
pub fn flip_margin_from_the_top<E>(flips: impl FnMut(f64) -> Result<bool, E>) -> Result<f64, E> {
    search_margin(PERTURBATION_MAX_MM, flips)
}

/// The search of [`flip_margin`], its first probe `first` (a point of the halving grid of
/// `[0, PERTURBATION_MAX_MM]`).
fn search_margin<E>(first: f64, mut flips: impl FnMut(f64) -> Result<bool, E>) -> Result<f64, E> {
    let (mut lo, mut hi) = (0.0, first);
    while !flips(hi)? {
        if hi >= PERTURBATION_MAX_MM {
            return Ok(PERTURBATION_MAX_MM);
        }
        lo = hi;
        hi *= 2.0;
    }
    while hi - lo > PERTURBATION_RESOLUTION_MM.max(PERTURBATION_RELATIVE_RESOLUTION * lo) {
        let mid = 0.5 * (lo + hi);
        if flips(mid)? {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Ok(lo)
}

/// The close call of a distance verdict: the edge-to-edge distance between base `a`
/// and base `b` (closest points `c`, from `a` to `b`) against a rule limit, mm.
///
/// The margin is `|distance - limit|`; moving `b` away from `a` (or `a` away from `b`)
/// lengthens the distance, so the flip direction of `b` is away from `a` when the
/// distance is within the limit and towards it otherwise.
#[must_use]
pub fn distance_call(table: &Table, a: BaseRef, b: BaseRef, c: &ClosestPoints, limit_mm: f64) -> CloseCall {
    let (Some(ba), Some(bb)) = (table.base(a), table.base(b)) else {
        return CloseCall::exact(c.distance_mm - limit_mm);
    };
    let within = c.distance_mm <= limit_mm;
    let u = (c.to - c.from)
        .normalized()
        .or_else(|| (bb.centre() - ba.centre()).normalized())
        .unwrap_or(Vec2::new(1.0, 0.0));
    let out = if within { u } else { -u };
    let parties = [Party::at(a, ba, c.from, -out), Party::at(b, bb, c.to, out)];
    CloseCall::new(table, c.distance_mm - limit_mm, &parties)
}

/// The standard uncertainty of the edge-to-edge distance between base `a` and base `b`
/// (closest points `c`, from `a` to `b`), mm: the combined sigma of [`distance_call`]
/// (each base's `sigma_mm` and its heading sigma times its lever to the closest point,
/// along the line between them). `None` on a table whose two bases carry no
/// uncertainty. The one place every measurement shown with a `±` takes it from.
///
/// ```
/// use vedette_geometry::{BaseRef, Table};
/// use vedette_geometry::close_call::distance_sigma_mm;
/// let t = Table::from_json_str(r#"{"schema":"vedette/table/1","rules":"republique5","scale":"medium",
///   "units":[{"id":"a","side":"fr","kind":"infantry","formation":"line",
///     "bases":[{"x":0,"y":0,"heading":90,"width":30,"depth":20,"sigma_mm":0.3}]},
///    {"id":"b","side":"au","kind":"infantry","formation":"line",
///     "bases":[{"x":0,"y":100,"heading":270,"width":30,"depth":20,"sigma_mm":0.4}]}]}"#)?;
/// let (a, b) = (BaseRef::new(0, 0), BaseRef::new(1, 0));
/// let c = t.base(a).unwrap().closest_points(t.base(b).unwrap());
/// assert!((distance_sigma_mm(&t, a, b, &c).unwrap() - 0.5).abs() < 1e-12);
/// # Ok::<(), vedette_geometry::GeometryError>(())
/// ```
#[must_use]
pub fn distance_sigma_mm(table: &Table, a: BaseRef, b: BaseRef, c: &ClosestPoints) -> Option<f64> {
    distance_call(table, a, b, c, c.distance_mm).sigma_mm
}

/// How far beyond a rule limit a verdict can still be too close to call on `table`, mm:
/// two combined sigmas of the least certain pair of bases (each base's `sigma_mm` and
/// its heading sigma times its half diagonal, the largest lever). Zero on a table
/// without uncertainties. A search for "just outside" verdicts (a unit 0.1 mm beyond a
/// leader's reach on a scanned table) looks this far past the limit.
#[must_use]
pub fn near_band_mm(table: &Table) -> f64 {
    let worst = table
        .units
        .iter()
        .flat_map(|u| u.bases.iter())
        .map(|b| {
            let m = b.meta();
            let turn = m.sigma_heading_deg.unwrap_or(0.0).to_radians() * half_diagonal(b);
            m.sigma_mm.unwrap_or(0.0).hypot(turn)
        })
        .filter(|s| s.is_finite())
        .fold(0.0, f64::max);
    CERTAIN_AT_SIGMAS * std::f64::consts::SQRT_2 * worst
}

/// The close call of a distance between two units (closest points of their closest
/// bases, as the command rules measure) against a rule limit, mm, with that distance;
/// `None` when either unit is missing or has no bases.
#[must_use]
pub fn unit_distance_call(table: &Table, a: usize, b: usize, limit_mm: f64) -> Option<(f64, CloseCall)> {
    let c = table.units.get(a)?.closest_to(table.units.get(b)?)?;
    let call =
        distance_call(table, BaseRef::new(a, c.from_base), BaseRef::new(b, c.to_base), &c.closest, limit_mm);
    Some((c.closest.distance_mm, call))
}

/// The close call of a distance verdict measured from a line segment carried by base
/// `a` (a battery's frontage, a front edge) to base `b`, against a rule limit, mm.
#[must_use]
pub fn segment_distance_call(
    table: &Table,
    a: BaseRef,
    from: &Segment,
    b: BaseRef,
    limit_mm: f64,
) -> CloseCall {
    let Some(bb) = table.base(b) else {
        return CloseCall::exact(0.0);
    };
    let c = segment_to_base(from, bb);
    distance_call(table, a, b, &c, limit_mm)
}

/// The closest points of a segment and a base (from the segment to the base).
#[must_use]
pub fn segment_to_base(s: &Segment, b: &Base) -> ClosestPoints {
    let mut best = ClosestPoints { distance_mm: f64::INFINITY, from: s.a, to: s.a };
    for e in b.edges() {
        let c = s.closest_points(&e);
        if c.distance_mm < best.distance_mm {
            best = c;
        }
    }
    if b.contains(s.a) || b.contains(s.b) {
        let p = if b.contains(s.a) { s.a } else { s.b };
        best = ClosestPoints { distance_mm: 0.0, from: p, to: p };
    }
    best
}

/// The close call of a side-of-line verdict: point `p` of base `b` against the line
/// through `origin` along `dir` carried by base `owner` (an arc's side, a flank line).
///
/// The margin is the distance from `p` to the line. Moving `b` across the line, or the
/// line across `p`, flips the verdict.
#[must_use]
pub fn line_call(table: &Table, b: BaseRef, p: Vec2, owner: BaseRef, origin: Vec2, dir: Vec2) -> CloseCall {
    let Some(d) = dir.normalized() else {
        return CloseCall::exact(p.distance(origin));
    };
    let side = d.cross(p - origin);
    let n = if side >= 0.0 { d.perp_left() } else { d.perp_right() };
    let foot = origin + d * d.dot(p - origin);
    let mut parties = Vec::with_capacity(2);
    if let Some(ob) = table.base(owner) {
        parties.push(Party::at(owner, ob, foot, n));
    }
    if let Some(bb) = table.base(b) {
        parties.push(Party::at(b, bb, p, -n));
    }
    CloseCall::new(table, side, &parties)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::{BaseMeta, BaseSize, Pose};
    use crate::table::{Unit, UnitKind};
    use crate::{RuleSet, Scale};
    use std::convert::Infallible;

    fn base(x: f64, y: f64, heading: f64, sigma: Option<f64>, sigma_deg: Option<f64>) -> Base {
        Base::new(BaseSize::new(40.0, 20.0), Pose::new(Vec2::new(x, y), heading)).with_meta(BaseMeta {
            tag: None,
            sigma_mm: sigma,
            sigma_heading_deg: sigma_deg,
            slot: None,
            inferred: false,
            ..BaseMeta::default()
        })
    }

    fn table(a: Base, b: Base) -> Table {
        Table::new(
            RuleSet::Republique5,
            Scale::Medium,
            vec![
                Unit::new("a", "one", UnitKind::Infantry, vec![a]),
                Unit::new("b", "two", UnitKind::Infantry, vec![b]),
            ],
        )
    }

    /// The plain bisection of `[0, PERTURBATION_MAX_MM]` from the top, as `flip_margin`
    /// was first written: the reference its margins must equal bit for bit.
    fn bisect_from_the_top(flips: impl Fn(f64) -> bool) -> f64 {
        if !flips(PERTURBATION_MAX_MM) {
            return PERTURBATION_MAX_MM;
        }
        let (mut lo, mut hi) = (0.0, PERTURBATION_MAX_MM);
        while hi - lo > PERTURBATION_RESOLUTION_MM.max(PERTURBATION_RELATIVE_RESOLUTION * lo) {
            let mid = 0.5 * (lo + hi);
            if flips(mid) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        lo
    }

    #[test]
    fn flip_margin_equals_the_bisection_from_the_top_with_fewer_steps_when_small() {
        // Thresholds on and either side of the halving grid's points, tiny and large,
        // and verdicts that flip at once or never.
        let mut thresholds = vec![0.0, 1e-9, 0.004, 0.005, 0.006, 50.0, 50.0 + 1e-9, 1e9];
        for k in 0..=8 {
            let grid = PERTURBATION_MAX_MM / f64::from(1 << k);
            thresholds.extend([grid, grid - 1e-9, grid + 1e-9, 0.7 * grid]);
        }
        let mut rng = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..2000 {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            thresholds.push((rng >> 11) as f64 / (1u64 << 53) as f64 * 60.0);
        }
        for t in thresholds {
            let steps = std::cell::Cell::new(0);
            let got = flip_margin(|k| {
                steps.set(steps.get() + 1);
                Ok::<bool, Infallible>(k >= t)
            })
            .unwrap_or(f64::NAN);
            let want = bisect_from_the_top(|k| k >= t);
            assert_eq!(got.to_bits(), want.to_bits(), "threshold {t}: {got} against {want}");
            let top = flip_margin_from_the_top(|k| Ok::<bool, Infallible>(k >= t)).unwrap_or(f64::NAN);
            assert_eq!(top.to_bits(), want.to_bits(), "threshold {t}: {top} against {want}");
            // The margin is a lower bound within the resolution (or the search's cap).
            if t <= PERTURBATION_MAX_MM {
                assert!(
                    got <= t
                        && t - got
                            <= PERTURBATION_RESOLUTION_MM.max(PERTURBATION_RELATIVE_RESOLUTION * got) + 1e-12
                );
            } else {
                assert_eq!(got, PERTURBATION_MAX_MM);
            }
            // A margin under FIRST_PROBE_MM costs four steps fewer than from the top;
            // one that never flips, five (the four halvings and 50 itself).
            let top = std::cell::Cell::new(0);
            bisect_from_the_top(|k| {
                top.set(top.get() + 1);
                k >= t
            });
            if t < FIRST_PROBE_MM {
                assert_eq!(steps.get() + 4, top.get(), "threshold {t}");
            } else if t > PERTURBATION_MAX_MM {
                assert_eq!(steps.get(), 5);
            }
        }
    }

    #[test]
    fn distance_margin_and_sigma_by_hand() {
        // Face to face, 38 mm apart, each sigma 0.3 mm: combined 0.4243 mm, two sigma
        // 0.8485 mm. Against 38.1 mm (1.5") the margin is 0.1 mm: too close.
        let t = table(base(100.0, 100.0, 90.0, Some(0.3), None), base(100.0, 158.0, 270.0, Some(0.3), None));
        let (a, b) = (BaseRef::new(0, 0), BaseRef::new(1, 0));
        let c = t.base(a).map(|x| x.closest_points(t.base(b).unwrap_or(x))).unwrap_or(ClosestPoints {
            distance_mm: 0.0,
            from: Vec2::ZERO,
            to: Vec2::ZERO,
        });
        assert!((c.distance_mm - 38.0).abs() < 1e-9);
        let call = distance_call(&t, a, b, &c, 38.1);
        assert!((call.margin_mm - 0.1).abs() < 1e-9);
        assert!((call.sigma_mm.unwrap_or(0.0) - 0.18f64.sqrt()).abs() < 1e-9);
        assert!(!call.certain());
        let nudge = call.nudge.unwrap_or(Nudge { base: a, by_mm: 0.0, towards: None });
        // Within the limit: moving b away (+y) by 0.1 mm flips it.
        assert_eq!(nudge.base, b);
        assert!((nudge.by_mm - 0.1).abs() < 1e-9);
        assert!(nudge.towards.is_some_and(|v| (v.y - 1.0).abs() < 1e-9));
        // Against 36.5 mm: margin 1.5 mm > 0.8485: certain, no nudge.
        let far = distance_call(&t, a, b, &c, 36.5);
        assert!(far.certain() && far.nudge.is_none());
        // Just either side of two sigma: 0.8485 ± 0.01.
        let two_sigma = 2.0 * 0.18f64.sqrt();
        assert!(!distance_call(&t, a, b, &c, 38.0 + two_sigma - 0.01).certain());
        assert!(distance_call(&t, a, b, &c, 38.0 + two_sigma + 0.01).certain());
        assert!(!distance_call(&t, a, b, &c, 38.0 - two_sigma + 0.01).certain());
        assert!(distance_call(&t, a, b, &c, 38.0 - two_sigma - 0.01).certain());
    }

    #[test]
    fn heading_sigma_enters_with_the_lever() {
        // b's closest point is the middle of its front edge, straight ahead of a: the
        // lever of a turn is zero. Offset b sideways so the closest point is a corner.
        let t = table(base(100.0, 100.0, 90.0, None, None), base(100.0, 158.0, 270.0, Some(0.0), Some(1.0)));
        let (a, b) = (BaseRef::new(0, 0), BaseRef::new(1, 0));
        let c =
            ClosestPoints { distance_mm: 38.0, from: Vec2::new(100.0, 110.0), to: Vec2::new(100.0, 148.0) };
        let call = distance_call(&t, a, b, &c, 38.1);
        // p - c = (0, -10), perp_left = (10, 0), · (0, 1) = 0: no lever.
        assert_eq!(call.sigma_mm, Some(0.0));
        let corner =
            ClosestPoints { distance_mm: 38.0, from: Vec2::new(80.0, 110.0), to: Vec2::new(80.0, 148.0) };
        let call = distance_call(&t, a, b, &corner, 38.1);
        // p - c = (-20, -10), perp_left = (10, -20), · (0, 1) = -20: lever 20 mm, 1° =
        // 0.349 mm.
        assert!((call.sigma_mm.unwrap_or(0.0) - 20.0 * 1f64.to_radians()).abs() < 1e-9);
    }

    #[test]
    fn exact_tables_are_certain() {
        let t = table(base(100.0, 100.0, 90.0, None, None), base(100.0, 158.0, 270.0, None, None));
        let c =
            ClosestPoints { distance_mm: 38.0, from: Vec2::new(100.0, 110.0), to: Vec2::new(100.0, 148.0) };
        let call = distance_call(&t, BaseRef::new(0, 0), BaseRef::new(1, 0), &c, 38.0 + 1e-7);
        assert!(call.certain());
        assert_eq!(call.sigma_mm, None);
        assert!(call.margin_mm < 1e-6);
    }

    #[test]
    fn line_margin_is_the_distance_to_the_line() {
        // The line x = 0 (along +y) carried by base a; b's point (0.5, 300) is 0.5 mm to
        // its right. Sigmas 0.2 each, the owner's 0.5° turn about (100, 100) moves the
        // line at the foot (0, 300) by |perp((-100, 200))·n|·δθ.
        let t =
            table(base(100.0, 100.0, 90.0, Some(0.2), Some(0.5)), base(300.0, 300.0, 90.0, Some(0.2), None));
        let call = line_call(
            &t,
            BaseRef::new(1, 0),
            Vec2::new(0.5, 300.0),
            BaseRef::new(0, 0),
            Vec2::new(0.0, 0.0),
            Vec2::new(0.0, 1.0),
        );
        assert!((call.margin_mm - 0.5).abs() < 1e-9);
        // n = perp_right of (0, 1) = (1, 0); foot - c = (-100, 200); perp_left = (-200,
        // -100); · n = -200: lever 200 mm.
        let turn = 200.0 * 0.5f64.to_radians();
        let want = (0.04 + 0.04 + turn * turn).sqrt();
        assert!((call.sigma_mm.unwrap_or(0.0) - want).abs() < 1e-9);
        assert!(!call.certain());
        // The base with the larger sigma is the owner (its turn): nudge it towards +x.
        let n = call.nudge.unwrap_or(Nudge { base: BaseRef::new(9, 9), by_mm: 0.0, towards: None });
        assert_eq!(n.base, BaseRef::new(0, 0));
        assert!(n.towards.is_some_and(|v| (v.x - 1.0).abs() < 1e-9));
    }

    #[test]
    fn segment_to_base_finds_the_closest_pair() {
        let b = base(100.0, 158.0, 270.0, None, None);
        let s = Segment::new(Vec2::new(60.0, 110.0), Vec2::new(90.0, 110.0));
        let c = segment_to_base(&s, &b);
        assert!((c.distance_mm - 38.0).abs() < 1e-9);
        assert!((c.to.y - 148.0).abs() < 1e-9);
        let inside = Segment::new(Vec2::new(100.0, 158.0), Vec2::new(100.0, 300.0));
        assert_eq!(segment_to_base(&inside, &b).distance_mm, 0.0);
    }
}
