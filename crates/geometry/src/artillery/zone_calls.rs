//! Close calls of the firing zone (000 §4.5; issue 17, [`crate::close_call`]): how far
//! the bases around a battery are from changing whether its zone is clear at some swing,
//! and whether a clear zone can be laid on each target.
//!
//! The clear swings are decided by every friendly base and marker in the arc at once,
//! and the aim by the target's bases, so these verdicts are measured as the sight
//! verdicts are ([`crate::los::close_calls`]): every piece is moved `k` mm against the
//! verdict and the margin is the smallest `k` that flips it ([`flip_margin`]).
//! - **A clear swing** (some swing holds no friendly base or marker): held against by
//!   growing every obstacle by `k` on every side (its edges moved out, corners mitred);
//!   a blocked zone is held against by shrinking them.
//! - **A clear zone on a target** (some clear swing whose centre of fire passes into one
//!   of its bases in the arc, or whose zone holds part of one: [`crate::aim_at`]): held
//!   against by growing the obstacles and shrinking the target's bases; a target no
//!   clear zone reaches, by shrinking the obstacles and growing its bases.
//!
//! A base moved by up to `k` stays inside its grown outline and covers its shrunk one,
//! and moving the battery by `k` is moving everything else by `k` the other way, so a
//! verdict that survives `k` survives every such move. Turning the battery turns its
//! zone about it: a turn of `δθ` moves the zone by `δθ` times the distance at the
//! deciding point.
//!
//! **Sigma**: the largest of the deciding bases' own, each its `sigma_mm` plus its
//! heading sigma (radians) times its lever: the half diagonal for the target's and the
//! obstacles' bases, and for the battery its half diagonal plus the distance to the
//! deciding geometry (the target's range; for the clear swing, the nearest obstacle's).
//! Markers carry no uncertainty. The nudge names the target's nearest base (the battery
//! for the clear swing).

use crate::artillery::artillery_rules::ArtilleryRules;
use crate::artillery::assessment::BatteryAssessment;
use crate::artillery::battery::Battery;
use crate::artillery::firing_zone::{
    ClearSwings, ZoneObstacle, ZoneObstacleSource, blocked_swings, centre_of_fire_swings, zone_obstacles,
};
use crate::artillery::range::segment_to_convex_mm;
use crate::artillery::targets::{TargetAssessment, aim_among};
use crate::base::Base;
use crate::close_call::{
    CloseCall, PERTURBATION_MAX_MM, base_sigma, flip_margin, flip_margin_from_the_top, half_diagonal,
    resized, sigma_with_lever,
};
use crate::convex::offset;
use crate::index::SpatialIndex;
use crate::polygon::ConvexPolygon;
use crate::table::{BaseRef, Table};
use crate::vec2::Vec2;
use std::cell::RefCell;
use std::convert::Infallible;

/// The close calls of one battery's firing zone.
#[derive(Debug, Clone, PartialEq)]
pub struct ZoneCalls {
    /// Of "some swing of the zone is clear" (`None` for a limbered battery).
    pub clear: Option<CloseCall>,
    /// Of each target's `zone_clear`, in the order of [`BatteryAssessment::targets`].
    pub targets: Vec<CloseCall>,
}

/// The swings an obstacle blocks, if any: (from, to), degrees.
type Blocked = Option<(f64, f64)>;

/// An obstacle of the zone with its outline as a vertex list.
struct Piece {
    vertices: Vec<Vec2>,
    base: Option<BaseRef>,
    distance_mm: f64,
    /// The swings it blocks grown by the largest perturbation: all it can ever block.
    widest: Option<(f64, f64)>,
    /// Its blocked swings at each perturbation asked so far (by the bits of `k`): the
    /// clear swing's search and each target's try many of the same perturbations.
    asked: RefCell<Vec<(u64, Blocked)>>,
}

/// The obstacle's blocked interval of swings when moved `k` mm out (negative: in).
fn blocked_at(battery: &Battery, side_deg: f64, piece: &Piece, k: f64) -> Option<(f64, f64)> {
    if let Some(&(_, found)) = piece.asked.borrow().iter().find(|a| a.0 == k.to_bits()) {
        return found;
    }
    let found = offset(&piece.vertices, k).and_then(|grown| {
        blocked_swings(
            &battery.frontage.edge,
            battery.forward(),
            side_deg,
            battery.max_range_mm,
            &ConvexPolygon::from_ccw_unchecked(grown),
        )
    });
    piece.asked.borrow_mut().push((k.to_bits(), found));
    found
}

fn clear_at(battery: &Battery, side_deg: f64, max_swing: f64, pieces: &[&Piece], k: f64) -> ClearSwings {
    let blocked: Vec<(f64, f64)> =
        pieces.iter().filter_map(|p| blocked_at(battery, side_deg, p, k)).collect();
    ClearSwings::without(max_swing, &blocked)
}

/// The largest sigma of the obstacles' bases (markers carry none), mm.
fn obstacles_sigma(table: &Table, pieces: &[&Piece]) -> Option<f64> {
    pieces.iter().filter_map(|p| p.base.and_then(|r| table.base(r)).and_then(base_sigma)).reduce(f64::max)
}

/// The close calls of battery assessment `a`'s firing zone on the indexed `table` (see
/// the module documentation).
#[must_use]
pub fn zone_calls(
    table: &Table,
    index: &SpatialIndex<'_>,
    rules: &ArtilleryRules,
    a: &BatteryAssessment,
) -> ZoneCalls {
    let battery = &a.battery;
    if battery.limbered {
        return ZoneCalls { clear: None, targets: Vec::new() };
    }
    let side_deg = rules.zone_side_deg;
    let max_swing = rules.max_swing_deg();
    // What may block the zone once grown: the obstacles near the arc's box, widened by
    // the largest perturbation.
    let (lo, hi) = battery.arc.bounding_box();
    let pad = Vec2::new(2.0 * PERTURBATION_MAX_MM, 2.0 * PERTURBATION_MAX_MM);
    let (lo, hi) = (lo - pad, hi + pad);
    let near = index.bases_in_box(lo, hi);
    let obstacles: Vec<ZoneObstacle> = zone_obstacles(table, index, battery.base_ref, &near, lo, hi);
    let pieces: Vec<Piece> = obstacles
        .into_iter()
        .map(|o| {
            let mut p = Piece {
                distance_mm: segment_to_convex_mm(&battery.frontage.edge, o.polygon.vertices()),
                base: match o.source {
                    ZoneObstacleSource::Base(r) => Some(r),
                    ZoneObstacleSource::Marker(_) => None,
                },
                vertices: o.polygon.into_vertices(),
                widest: None,
                asked: RefCell::new(Vec::new()),
            };
            p.widest = blocked_at(battery, side_deg, &p, PERTURBATION_MAX_MM);
            p
        })
        .collect();
    // Only the obstacles that block some swing when grown by the most can matter.
    let reachable: Vec<&Piece> = pieces.iter().filter(|p| p.widest.is_some()).collect();
    let battery_base = table.base(battery.base_ref);

    let clear_now = !a.clear_swings.is_empty();
    let sign = if clear_now { 1.0 } else { -1.0 };
    // A blocked zone's obstacles vanish when shrunk far, so its large perturbations are
    // the cheap ones: searched from the top.
    let search = if clear_now { flip_margin } else { flip_margin_from_the_top };
    let margin = search(|k| {
        Ok::<bool, Infallible>(
            clear_at(battery, side_deg, max_swing, &reachable, sign * k).is_empty() == clear_now,
        )
    })
    .unwrap_or_else(|e| match e {});
    let nearest = reachable.iter().map(|p| p.distance_mm).fold(f64::INFINITY, f64::min);
    let battery_sigma = battery_base.and_then(|b| {
        let reach = if nearest.is_finite() { nearest } else { 0.0 };
        sigma_with_lever(b, half_diagonal(b) + reach)
    });
    let sigma = [battery_sigma, obstacles_sigma(table, &reachable)].into_iter().flatten().reduce(f64::max);
    let clear = CloseCall::perturbed(margin, sigma, Some(battery.base_ref));

    let targets =
        a.targets.iter().map(|t| target_call(table, battery, side_deg, max_swing, &reachable, t)).collect();
    ZoneCalls { clear: Some(clear), targets }
}

/// The close call of one target's `zone_clear`.
fn target_call(
    table: &Table,
    battery: &Battery,
    side_deg: f64,
    max_swing: f64,
    pieces: &[&Piece],
    t: &TargetAssessment,
) -> CloseCall {
    let unit = table.units.get(t.unit);
    let bases: Vec<Base> =
        t.bases.iter().filter_map(|&i| unit.and_then(|u| u.bases.get(i))).copied().collect();
    let nearest = table.base(t.nearest_base);
    let holds = t.zone_clear;
    // Growing the obstacles and shrinking the target works against a clear zone.
    let sign = if holds { 1.0 } else { -1.0 };
    // Only obstacles whose widest blocked interval meets the target's widest window
    // can change the verdict.
    let window: Vec<(f64, f64)> = {
        let m = battery.muzzle();
        let f = battery.forward();
        bases
            .iter()
            .map(|b| resized(b, PERTURBATION_MAX_MM))
            .flat_map(|b| {
                [
                    centre_of_fire_swings(m, f, &b),
                    blocked_swings(&battery.frontage.edge, f, side_deg, battery.max_range_mm, &b.polygon()),
                ]
            })
            .flatten()
            .collect()
    };
    let relevant: Vec<&Piece> = pieces
        .iter()
        .copied()
        .filter(|p| p.widest.is_some_and(|(lo, hi)| window.iter().any(|&(wl, wh)| lo < wh && wl < hi)))
        .collect();
    // As for the clear swing: shrunk far, the obstacles vanish and the step is cheap.
    let search = if holds { flip_margin } else { flip_margin_from_the_top };
    let margin = search(|k| {
        let clear = clear_at(battery, side_deg, max_swing, &relevant, sign * k);
        let moved: Vec<Base> = bases.iter().map(|b| resized(b, -sign * k)).collect();
        let now = aim_among(battery, side_deg, &clear, &moved, nearest).is_some();
        Ok::<bool, Infallible>(now != holds)
    })
    .unwrap_or_else(|e| match e {});
    let battery_sigma =
        table.base(battery.base_ref).and_then(|b| sigma_with_lever(b, half_diagonal(b) + t.range_mm));
    let target_sigma = bases.iter().filter_map(base_sigma).reduce(f64::max);
    let sigma = [battery_sigma, target_sigma, obstacles_sigma(table, &relevant)]
        .into_iter()
        .flatten()
        .reduce(f64::max);
    CloseCall::perturbed(margin, sigma, Some(t.nearest_base))
}
