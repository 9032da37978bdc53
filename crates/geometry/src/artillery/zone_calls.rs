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
//! # How a step is decided
//! A step asks the verdict with every piece moved `k` mm. The pieces are rectangles
//! (bases, markers' boxes), and a rectangle's blocked swings have bounds in closed form
//! ([`crate::artillery::zone_bounds`]): an outer interval that holds what the general
//! path (the outline offset, then [`blocked_swings`]) gives, and an inner one it holds.
//! The swings clear among the outer intervals are fewer than those clear among the exact
//! ones, and those among the inner ones more; both questions (is any swing clear? does a
//! clear swing aim into the target?) only grow with the clear swings, so a step that
//! answers the same on both is decided. Otherwise the pieces whose outer interval meets
//! the swings clear among the inner ones (only they can close one of them) are made
//! exact, and the step asked again, until both agree: every answer is the one the exact
//! intervals give, and so is every printed margin. A target's step bounds the swings at
//! which the zone holds part of one of its bases the same way (a base is a rectangle
//! too); those whose centre of fire passes into one are exact.
//!
//! What is known of each piece at each perturbation asked is kept: the clear swing's
//! search and every target's ask many of the same (dyadic) perturbations. A search
//! leaves out the pieces that block no swing of the arc at any move it can ask
//! ([`never_in_arc`]: checked once, moved by its largest move, every smaller outline
//! lying inside that one); a shrinking search, the pieces already shrunk past nothing
//! (kept sorted by their shorter half side); and a step drops the pieces whose blocked
//! swings surely all lie outside the arc's. None of them can change which swings of the
//! arc are clear.
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
use crate::artillery::targets::TargetAssessment;
#[cfg(doc)]
use crate::artillery::targets::aim_among;
use crate::artillery::zone_bounds::{ArcOnly, Bounds, Frame, Rect, bounds, never_in_arc, sized_bounds};
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
use std::cell::{OnceCell, RefCell};
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
    /// Its place among the zone's pieces (its column in [`Memo`]).
    index: usize,
    vertices: Vec<Vec2>,
    /// Its outline as a rectangle, when it is one: its blocked swings then have bounds
    /// in closed form ([`bounds`]).
    rect: Option<Rect>,
    /// Its shorter half side as a rectangle (infinite when it is none): shrunk further
    /// than that (and [`Zone::away_slack`]), it is gone.
    min_half: f64,
    base: Option<BaseRef>,
    /// The bounds of the swings it blocks grown by the largest perturbation: all it can
    /// ever block.
    widest: Bounds,
}

/// What is known of a piece's blocked swings at one perturbation.
#[derive(Clone, Copy)]
struct Asked {
    bounds: Bounds,
    /// The bounds are the exact interval.
    exact: bool,
    /// How they were asked: bounds dropped outside the arc serve only [`ArcOnly::Yes`].
    arc: ArcOnly,
}

/// What is known of every piece's blocked swings at each perturbation asked so far: the
/// clear swing's search and each target's try many of the same (dyadic) perturbations.
#[derive(Default)]
struct Memo {
    /// The perturbations asked (their bits), one row each.
    rows: Vec<u64>,
    /// Row after row, one entry per piece.
    known: Vec<Option<Asked>>,
}

/// A battery's zone as the search's steps read it.
struct Zone<'a> {
    battery: &'a Battery,
    side_deg: f64,
    max_swing: f64,
    /// `None` when the closed-form bounds cannot serve this zone: every step is exact.
    frame: Option<Frame>,
    /// How many pieces the zone has (the width of a row of [`Memo`]).
    width: usize,
    /// A rectangle shrunk by more than its shorter half side and this is gone: the
    /// general path's clips leave nothing of it (its corners are off by at most this,
    /// [`Rect::error_mm`]), so it blocks nothing.
    away_slack: f64,
    memo: RefCell<Memo>,
}

impl Zone<'_> {
    /// The pieces a search moving them by up to `g_top` mm out (in when negative) must
    /// ask: those that may block a swing of the arc ([`never_in_arc`]), from the largest
    /// shorter half side down (see [`Zone::present`]).
    fn searched<'p>(&self, pieces: &[&'p Piece], g_top: f64) -> Vec<&'p Piece> {
        let mut v: Vec<&Piece> = pieces
            .iter()
            .copied()
            .filter(|p| {
                !self.frame.as_ref().zip(p.rect.as_ref()).is_some_and(|(f, r)| never_in_arc(f, r, g_top))
            })
            .collect();
        v.sort_by(|a, b| b.min_half.total_cmp(&a.min_half));
        v
    }

    /// The pieces of `by_size` (sorted from the largest shorter half side down) that may
    /// be left shrunk by `k` mm: the others block nothing, by the closed form and by the
    /// general path alike.
    fn present<'s, 'p>(&self, by_size: &'s [&'p Piece], k: f64) -> &'s [&'p Piece] {
        &by_size[..by_size.partition_point(|p| p.min_half >= k - self.away_slack)]
    }

    /// The obstacle's blocked interval of swings when moved `k` mm out (negative: in),
    /// by the general path: its outline offset, then [`blocked_swings`].
    fn blocked(&self, piece: &Piece, k: f64) -> Blocked {
        let b = self.battery;
        offset(&piece.vertices, k).and_then(|grown| {
            blocked_swings(
                &b.frontage.edge,
                b.forward(),
                self.side_deg,
                b.max_range_mm,
                &ConvexPolygon::from_ccw_unchecked(grown),
            )
        })
    }

    /// The bounds of each piece's blocked swings moved `k` mm out, into `out`: in closed
    /// form when they can be told so, else exact; with [`ArcOnly::Yes`], a piece whose
    /// swings all lie outside the arc's may be given as blocking none.
    fn bounds_at(&self, pieces: &[&Piece], k: f64, arc: ArcOnly, out: &mut Vec<Bounds>) {
        let mut memo = self.memo.borrow_mut();
        let row = row_of(&mut memo, self.width, k);
        out.clear();
        out.extend(pieces.iter().map(|p| {
            let cell = &mut memo.known[row + p.index];
            if let Some(a) = cell
                && (a.arc == ArcOnly::No || arc == ArcOnly::Yes)
            {
                return a.bounds;
            }
            let closed = self.frame.as_ref().zip(p.rect.as_ref()).and_then(|(f, r)| bounds(f, r, k, arc));
            let a = match closed {
                Some(bounds) => Asked { bounds, exact: false, arc },
                None => Asked { bounds: Bounds::exact(self.blocked(p, k)), exact: true, arc: ArcOnly::No },
            };
            *cell = Some(a);
            a.bounds
        }));
    }

    /// Each piece's blocked swings moved `k` mm out, exactly, into `out` (those that
    /// block some swing, in order).
    fn exact_at(&self, pieces: &[&Piece], k: f64, out: &mut Vec<(f64, f64)>) {
        let mut memo = self.memo.borrow_mut();
        let row = row_of(&mut memo, self.width, k);
        out.clear();
        out.extend(pieces.iter().filter_map(|p| {
            let cell = &mut memo.known[row + p.index];
            match cell {
                Some(a) if a.exact => a.bounds.outer,
                _ => {
                    let found = self.blocked(p, k);
                    *cell = Some(Asked { bounds: Bounds::exact(found), exact: true, arc: ArcOnly::No });
                    found
                }
            }
        }));
    }

    /// One piece's blocked swings moved `k` mm out, exactly.
    fn exact_of(&self, piece: &Piece, k: f64) -> Blocked {
        let mut one = Vec::with_capacity(1);
        self.exact_at(&[piece], k, &mut one);
        one.first().copied()
    }

    /// The clear swings among the intervals `pick` reads from the bounds; `None` when one
    /// of them is not a proper interval (the exact path then decides alone).
    fn clear_among(
        &self,
        known: &[Bounds],
        pick: fn(&Bounds) -> Blocked,
        blocked: &mut Vec<(f64, f64)>,
    ) -> Option<ClearSwings> {
        blocked.clear();
        for b in known {
            if let Some((lo, hi)) = pick(b) {
                // Not `lo < hi` (also NaN): no set of swings the decisions can reason on.
                if lo.partial_cmp(&hi) != Some(std::cmp::Ordering::Less) {
                    return None;
                }
                blocked.push((lo, hi));
            }
        }
        Some(ClearSwings::without(self.max_swing, blocked))
    }

    /// The clear swings with every piece's exact interval, as the general path has them.
    fn clear_exact(&self, pieces: &[&Piece], k: f64, blocked: &mut Vec<(f64, f64)>) -> ClearSwings {
        self.exact_at(pieces, k, blocked);
        ClearSwings::without(self.max_swing, blocked)
    }
}

/// The first entry of perturbation `k`'s row in the memo, the row added if new.
fn row_of(memo: &mut Memo, width: usize, k: f64) -> usize {
    let bits = k.to_bits();
    let r = match memo.rows.iter().position(|&b| b == bits) {
        Some(r) => r,
        None => {
            memo.rows.push(bits);
            memo.known.resize(memo.known.len() + width, None);
            memo.rows.len() - 1
        }
    };
    r * width
}

/// Reused buffers of a search's steps.
#[derive(Default)]
struct Scratch {
    known: Vec<Bounds>,
    blocked: Vec<(f64, f64)>,
    held: Vec<Bounds>,
}

/// True when no swing is clear with every piece moved `k` mm out (negative: in).
///
/// Decided on the pieces' bounds: the clear swings among the outer intervals (`fewest`)
/// are fewer than among the exact ones, those among the inner ones (`most`) more. When
/// they disagree, the pieces whose outer interval meets `most` are made exact (only they
/// can close a swing of `most` that `fewest` has closed) until they agree.
fn all_blocked(z: &Zone<'_>, pieces: &[&Piece], k: f64, s: &mut Scratch) -> bool {
    z.bounds_at(pieces, k, ArcOnly::Yes, &mut s.known);
    while let Some(fewest) = z.clear_among(&s.known, |b| b.outer, &mut s.blocked) {
        if !fewest.is_empty() {
            return false;
        }
        let Some(most) = z.clear_among(&s.known, |b| b.inner, &mut s.blocked) else { break };
        if most.is_empty() {
            return true;
        }
        if !refine(z, pieces, k, &mut s.known, &most) {
            break;
        }
    }
    z.clear_exact(pieces, k, &mut s.blocked).is_empty()
}

/// Makes exact the bounds of every piece whose outer interval meets the clear swings
/// `most` and that is not exact yet; false when there is none. Once every such piece is
/// exact, no outer interval meets the clear swings among the inner ones, so the outer
/// and the inner intervals leave the same swings clear.
fn refine(z: &Zone<'_>, pieces: &[&Piece], k: f64, known: &mut [Bounds], most: &ClearSwings) -> bool {
    let mut any = false;
    for (p, b) in pieces.iter().zip(known.iter_mut()) {
        if b.inner != b.outer && b.outer.is_some_and(|o| meets(most, &[o])) {
            *b = Bounds::exact(z.exact_of(p, k));
            any = true;
        }
    }
    any
}

/// True when a clear swing meets one of the open intervals `wanted`.
fn meets(clear: &ClearSwings, wanted: &[(f64, f64)]) -> bool {
    clear.closest_within(wanted, 0.0).is_some()
}

/// A target's bases, with their outlines as rectangles when they are ones.
struct TargetBases {
    bases: Vec<Base>,
    rects: Vec<Option<Rect>>,
}

/// A target base's outline as a rectangle whose half sides along `u` and `v` are half its
/// depth and half its width (its corners run front-left, rear-left, rear-right,
/// front-right), so that a resized base is that rectangle with half its new sides.
fn target_rect(b: &Base) -> Option<Rect> {
    let r = Rect::fit(&b.vertices_ccw())?;
    let (hu, hv) = r.half_sides();
    let close = |h: f64, side: f64| (h - 0.5 * side).abs() <= 1e-9 * (1.0 + side);
    (close(hu, b.depth()) && close(hv, b.width())).then_some(r)
}

/// True when a clear zone can be laid on the target's bases each resized by `delta`
/// (every side moved out, in when negative) with every piece moved `k` mm out:
/// [`aim_among`] finds an aim (a clear swing whose centre of fire passes into one of the
/// bases, or whose zone holds part of one).
///
/// Decided on bounds when they agree, as [`all_blocked`]: the pieces' and the swings
/// at which the zone holds part of a base (those it would block, were it an obstacle);
/// on the exact intervals otherwise.
fn aims(z: &Zone<'_>, pieces: &[&Piece], k: f64, t: &TargetBases, delta: f64, s: &mut Scratch) -> bool {
    let b = z.battery;
    let (m, f) = (b.muzzle(), b.forward());
    let moved: Vec<Base> = t.bases.iter().map(|b| resized(b, delta)).collect();
    let through: Vec<(f64, f64)> = moved.iter().filter_map(|t| centre_of_fire_swings(m, f, t)).collect();
    let holding_exact = |b: &Base| {
        blocked_swings(&z.battery.frontage.edge, f, z.side_deg, z.battery.max_range_mm, &b.polygon())
    };
    z.bounds_at(pieces, k, ArcOnly::Yes, &mut s.known);
    // The swings at which the zone holds part of a base: bounds as the pieces', made
    // exact once the pieces' are; only asked when the centre of fire finds no aim.
    s.held.clear();
    let mut held = false;
    let mut wanted = Vec::with_capacity(moved.len());
    while let Some(fewest) = z.clear_among(&s.known, |b| b.outer, &mut s.blocked) {
        if meets(&fewest, &through) {
            return true;
        }
        if !held {
            held = true;
            s.held.extend(moved.iter().zip(&t.rects).map(|(mb, rect)| {
                z.frame
                    .as_ref()
                    .zip(rect.as_ref())
                    .and_then(|(f, r)| sized_bounds(f, r, 0.5 * mb.depth(), 0.5 * mb.width(), ArcOnly::Yes))
                    .unwrap_or_else(|| Bounds::exact(holding_exact(mb)))
            }));
        }
        wanted.clear();
        wanted.extend(s.held.iter().filter_map(|h| h.inner));
        if meets(&fewest, &wanted) {
            return true;
        }
        let Some(most) = z.clear_among(&s.known, |b| b.inner, &mut s.blocked) else { break };
        wanted.clear();
        wanted.extend(s.held.iter().filter_map(|h| h.outer));
        if !meets(&most, &through) && !meets(&most, &wanted) {
            return false;
        }
        if !refine(z, pieces, k, &mut s.known, &most) {
            // The pieces leave the same swings clear either way: the holding swings decide.
            let mut any = false;
            for (h, mb) in s.held.iter_mut().zip(&moved) {
                if h.inner != h.outer {
                    *h = Bounds::exact(holding_exact(mb));
                    any = true;
                }
            }
            if !any {
                break;
            }
        }
    }
    let clear = z.clear_exact(pieces, k, &mut s.blocked);
    meets(&clear, &through) || {
        let holding: Vec<(f64, f64)> = moved.iter().filter_map(holding_exact).collect();
        meets(&clear, &holding)
    }
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
    let mut pieces: Vec<Piece> = obstacles
        .into_iter()
        .enumerate()
        .map(|(index, o)| {
            let vertices = o.polygon.into_vertices();
            let rect = Rect::fit(&vertices);
            Piece {
                index,
                min_half: rect.map_or(f64::INFINITY, |r| r.half_sides().0.min(r.half_sides().1)),
                rect,
                vertices,
                base: match o.source {
                    ZoneObstacleSource::Base(r) => Some(r),
                    ZoneObstacleSource::Marker(_) => None,
                },
                widest: Bounds::NONE,
            }
        })
        .collect();
    let z = Zone {
        battery,
        side_deg,
        max_swing,
        frame: Frame::new(
            battery.frontage.edge,
            battery.forward(),
            side_deg,
            battery.max_range_mm,
            max_swing,
        ),
        width: pieces.len(),
        away_slack: pieces
            .iter()
            .filter_map(|p| p.rect)
            .map(|r| r.error_mm(PERTURBATION_MAX_MM))
            .fold(0.0, f64::max),
        memo: RefCell::new(Memo {
            rows: Vec::with_capacity(32),
            known: Vec::with_capacity(32 * pieces.len()),
        }),
    };
    let mut widest = Vec::new();
    z.bounds_at(&pieces.iter().collect::<Vec<_>>(), PERTURBATION_MAX_MM, ArcOnly::No, &mut widest);
    for (p, w) in pieces.iter_mut().zip(widest) {
        p.widest = w;
    }
    // Only the obstacles that block some swing when grown by the most can matter.
    let reachable: Vec<&Piece> = pieces
        .iter()
        .filter(|p| {
            p.widest.blocks || (p.widest.outer.is_some() && z.exact_of(p, PERTURBATION_MAX_MM).is_some())
        })
        .collect();
    let battery_base = table.base(battery.base_ref);

    let clear_now = !a.clear_swings.is_empty();
    let sign = if clear_now { 1.0 } else { -1.0 };
    // A blocked zone's obstacles vanish when shrunk far, so its large perturbations are
    // the cheap ones: searched from the top.
    let search = if clear_now { flip_margin } else { flip_margin_from_the_top };
    let mut scratch = Scratch::default();
    // The pieces each direction of search asks, kept for the targets' searches.
    let searches = [OnceCell::new(), OnceCell::new()];
    let searched = |grow: bool| -> &[&Piece] {
        searches[usize::from(grow)]
            .get_or_init(|| z.searched(&reachable, if grow { PERTURBATION_MAX_MM } else { 0.0 }))
    };
    let margin = search(|k| {
        let searched = searched(clear_now);
        let present = if clear_now { searched } else { z.present(searched, k) };
        Ok::<bool, Infallible>(all_blocked(&z, present, sign * k, &mut scratch) == clear_now)
    })
    .unwrap_or_else(|e| match e {});
    let battery_sigma = battery_base.and_then(|b| {
        // The nearest obstacle is measured only for a battery that carries an uncertainty.
        sigma_with_lever(b, 0.0)?;
        let nearest = reachable
            .iter()
            .map(|p| segment_to_convex_mm(&battery.frontage.edge, &p.vertices))
            .fold(f64::INFINITY, f64::min);
        let reach = if nearest.is_finite() { nearest } else { 0.0 };
        sigma_with_lever(b, half_diagonal(b) + reach)
    });
    let sigma = [battery_sigma, obstacles_sigma(table, &reachable)].into_iter().flatten().reduce(f64::max);
    let clear = CloseCall::perturbed(margin, sigma, Some(battery.base_ref));

    let targets =
        a.targets.iter().map(|t| target_call(table, &z, &reachable, &searched, t, &mut scratch)).collect();
    ZoneCalls { clear: Some(clear), targets }
}

/// The close call of one target's `zone_clear`.
fn target_call<'p>(
    table: &Table,
    z: &Zone<'_>,
    pieces: &[&'p Piece],
    searched: &dyn Fn(bool) -> &'p [&'p Piece],
    t: &TargetAssessment,
    s: &mut Scratch,
) -> CloseCall {
    let battery = z.battery;
    let unit = table.units.get(t.unit);
    let bases: Vec<Base> =
        t.bases.iter().filter_map(|&i| unit.and_then(|u| u.bases.get(i))).copied().collect();
    let target = TargetBases { rects: bases.iter().map(target_rect).collect(), bases };
    let bases = &target.bases;
    let holds = t.zone_clear;
    // Growing the obstacles and shrinking the target works against a clear zone.
    let sign = if holds { 1.0 } else { -1.0 };
    // Only obstacles whose widest blocked interval meets the target's widest window can
    // change the verdict: the swings whose centre of fire passes into one of its bases
    // grown by the most, or whose zone holds part of one. Both are known by their
    // bounds first (the holding swings are those the base would block as an obstacle).
    let (m, f) = (battery.muzzle(), battery.forward());
    let grown: Vec<Base> = bases.iter().map(|b| resized(b, PERTURBATION_MAX_MM)).collect();
    let holding_exact =
        |b: &Base| blocked_swings(&battery.frontage.edge, f, z.side_deg, battery.max_range_mm, &b.polygon());
    let window: Vec<[Bounds; 2]> = grown
        .iter()
        .zip(&target.rects)
        .map(|(b, rect)| {
            let holding = z
                .frame
                .as_ref()
                .zip(rect.as_ref())
                .and_then(|(fr, r)| sized_bounds(fr, r, 0.5 * b.depth(), 0.5 * b.width(), ArcOnly::No))
                .unwrap_or_else(|| Bounds::exact(holding_exact(b)));
            [Bounds::exact(centre_of_fire_swings(m, f, b)), holding]
        })
        .collect();
    let exact_window: OnceCell<Vec<(f64, f64)>> = OnceCell::new();
    let overlap = |(lo, hi): (f64, f64), (wl, wh): (f64, f64)| lo < wh && wl < hi;
    let any_meets = |i: (f64, f64), pick: fn(&Bounds) -> Blocked| {
        window.iter().flatten().any(|w| pick(w).is_some_and(|w| overlap(i, w)))
    };
    let relevant: Vec<&Piece> = pieces
        .iter()
        .copied()
        .filter(|p| {
            // Each inner interval lies inside the exact one, which lies inside the outer.
            if p.widest.inner.is_some_and(|i| any_meets(i, |b| b.inner)) {
                return true;
            }
            if !p.widest.outer.is_some_and(|o| any_meets(o, |b| b.outer)) {
                return false;
            }
            let window = exact_window.get_or_init(|| {
                grown
                    .iter()
                    .zip(&window)
                    .flat_map(|(b, [through, _])| [through.outer, holding_exact(b)])
                    .flatten()
                    .collect()
            });
            z.exact_of(p, PERTURBATION_MAX_MM).is_some_and(|e| window.iter().any(|&w| overlap(e, w)))
        })
        .collect();
    // As for the clear swing: shrunk far, the obstacles vanish and the step is cheap.
    let search = if holds { flip_margin } else { flip_margin_from_the_top };
    // The battery's pieces searched this way (in their order) that are relevant here.
    let mut is_relevant = vec![false; z.width];
    for p in &relevant {
        is_relevant[p.index] = true;
    }
    let searched: Vec<&Piece> = searched(holds).iter().copied().filter(|p| is_relevant[p.index]).collect();
    let margin = search(|k| {
        let relevant = if holds { &searched[..] } else { z.present(&searched, k) };
        Ok::<bool, Infallible>(aims(z, relevant, sign * k, &target, -sign * k, s) != holds)
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

#[cfg(test)]
mod tests;
