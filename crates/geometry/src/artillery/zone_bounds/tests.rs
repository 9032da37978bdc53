//! The closed-form bounds against the general path ([`offset`] then [`blocked_swings`])
//! on random and hand-made rectangles: whatever the general path computes lies inside
//! the outer bound and holds the inner one, and the closed form declines (gives `None`)
//! rarely.

use super::*;
use crate::artillery::firing_zone::blocked_swings;
use crate::base::{Base, BaseSize, Pose};
use crate::convex::offset;
use crate::polygon::ConvexPolygon;
use proptest::prelude::*;

const SIDE_DEG: f64 = 5.0;
const MAX_SWING_DEG: f64 = 25.0;

/// A zone: frontage of `len` mm centred on `c`, facing `heading_deg`, reaching `reach`.
fn zone(c: Vec2, heading_deg: f64, len: f64, reach: f64) -> (Segment, Vec2, f64) {
    let f = Vec2::from_heading_deg(heading_deg);
    let half = f.perp_left() * (0.5 * len);
    (Segment::new(c + half, c - half), f, reach)
}

/// The general path's blocked swings of `vertices` moved `g` out.
fn exact(front: &Segment, f: Vec2, reach: f64, vertices: &[Vec2], g: f64) -> Option<(f64, f64)> {
    offset(vertices, g).and_then(|grown| {
        blocked_swings(front, f, SIDE_DEG, reach, &ConvexPolygon::from_ccw_unchecked(grown))
    })
}

/// Checks the bounds against the exact interval; `arc`: an interval missing the arc's
/// swings may be dropped.
fn check(b: &Bounds, found: Option<(f64, f64)>, arc: ArcOnly) -> Result<(), String> {
    let misses = |(lo, hi): (f64, f64)| hi <= -MAX_SWING_DEG || lo >= MAX_SWING_DEG;
    if let Some(i) = b.inner {
        let e = found.ok_or(format!("inner {i:?} but nothing blocked"))?;
        if !(i.0 < i.1 && e.0 <= i.0 && i.1 <= e.1) {
            return Err(format!("inner {i:?} not inside {e:?}"));
        }
    }
    if b.blocks && found.is_none() {
        return Err("blocks, but nothing blocked".into());
    }
    match (b.outer, found) {
        (_, None) => Ok(()),
        (None, Some(e)) if arc == ArcOnly::Yes && misses(e) => Ok(()),
        (None, Some(e)) => Err(format!("outer none, exact {e:?}")),
        (Some(o), Some(e)) if o.0 <= e.0 && e.1 <= o.1 => Ok(()),
        (Some(o), Some(e)) => Err(format!("outer {o:?} does not hold {e:?}")),
    }
}

/// Bounds of `vertices` moved `g` out, both ways, checked; whether the closed form
/// answered.
fn check_both(front: &Segment, f: Vec2, reach: f64, vertices: &[Vec2], g: f64) -> Result<bool, String> {
    let frame = Frame::new(*front, f, SIDE_DEG, reach, MAX_SWING_DEG).ok_or("no frame")?;
    let rect = Rect::fit(vertices).ok_or("not a rectangle")?;
    let found = exact(front, f, reach, vertices, g);
    let mut answered = false;
    for arc in [ArcOnly::No, ArcOnly::Yes] {
        if let Some(b) = bounds(&frame, &rect, g, arc) {
            answered = true;
            check(&b, found, arc).map_err(|e| format!("{e} (g {g}, {arc:?})"))?;
        }
    }
    Ok(answered)
}

/// A base's corners, counter-clockwise.
fn corners(x: f64, y: f64, heading: f64, width: f64, depth: f64) -> Vec<Vec2> {
    Base::new(BaseSize::new(width, depth), Pose::new(Vec2::new(x, y), heading)).vertices_ccw().to_vec()
}

/// The perturbations the bisections ask: dyadic fractions of 50 mm either way, and a
/// few others.
fn perturbation() -> impl Strategy<Value = f64> {
    prop_oneof![
        (0u32..9, 1u32..512, any::<bool>()).prop_map(|(n, m, neg)| {
            let g = 50.0 * f64::from(m % (1 << n).max(1) + 1) / f64::from(1u32 << n);
            if neg { -g } else { g }
        }),
        -50.0..50.0f64,
    ]
}

proptest! {
    #![proptest_config(crate::test_support::proptest_config(3000, 6101))]

    /// Rectangles anywhere near a zone (straddling its frontage's line, past its reach,
    /// over a frontage end), turned any way, on tables far from the origin too.
    #[test]
    fn bounds_hold_the_general_paths_interval(
        cx in -3000.0..3000.0f64, cy in -3000.0..3000.0f64, heading in 0.0..360.0f64,
        len in 20.0..80.0f64, reach in 150.0..900.0f64,
        along in -1.2..1.2f64, ahead in -0.2..1.2f64, turn in 0.0..360.0f64,
        w in 1.0..80.0f64, d in 1.0..80.0f64, g in perturbation(),
    ) {
        let (front, f, reach) = zone(Vec2::new(cx, cy), heading, len, reach);
        let side = f.perp_right();
        let c = front.midpoint() + side * (along * reach) + f * (ahead * reach);
        let v = corners(c.x, c.y, turn, w, d);
        prop_assert!(check_both(&front, f, reach, &v, g).is_ok(), "{:?}", check_both(&front, f, reach, &v, g));
    }

    /// Rectangles at the frontage: beside the battery in its line (an edge on the
    /// frontage's line, a corner at a frontage end), just off it, or over it.
    #[test]
    fn bounds_hold_at_the_frontage(
        heading in prop_oneof![Just(0.0), Just(90.0), Just(217.5), 0.0..360.0f64],
        gap in prop_oneof![Just(0.0), Just(1e-9), Just(-1e-9), -3.0..3.0f64],
        off in prop_oneof![Just(0.0), -0.5..0.5f64], turn in prop_oneof![Just(0.0), -3.0..3.0f64],
        left in any::<bool>(), w in 5.0..40.0f64, d in 5.0..40.0f64, g in perturbation(),
    ) {
        let (front, f, reach) = zone(Vec2::new(400.0, 700.0), heading, 50.0, 406.4);
        let r = f.perp_right();
        // Beside the left (or right) end, its front edge `off` ahead of the line.
        let (end, out) = if left { (front.a, -r) } else { (front.b, r) };
        let c = end + out * (0.5 * w + gap) + f * (off - 0.5 * d);
        let v = corners(c.x, c.y, heading + turn, w, d);
        prop_assert!(check_both(&front, f, reach, &v, g).is_ok(), "{:?}", check_both(&front, f, reach, &v, g));
    }
}

proptest! {
    #![proptest_config(crate::test_support::proptest_config(2000, 6113))]

    /// A rectangle said never to block a swing of the arc blocks none at any move up to
    /// the top of the search, by the general path.
    #[test]
    fn never_in_arc_holds_at_every_move_below_the_top(
        heading in 0.0..360.0f64, reach in 150.0..900.0f64,
        along in -1.5..1.5f64, ahead in -0.3..1.3f64, turn in 0.0..360.0f64,
        w in 1.0..80.0f64, d in 1.0..80.0f64, grow in any::<bool>(),
        below in proptest::collection::vec(0.0..1.0f64, 6),
    ) {
        let (front, f, reach) = zone(Vec2::new(1500.0, 900.0), heading, 50.0, reach);
        let c = front.midpoint() + f.perp_right() * (along * reach) + f * (ahead * reach);
        let v = corners(c.x, c.y, turn, w, d);
        let (Some(frame), Some(rect)) = (Frame::new(front, f, SIDE_DEG, reach, MAX_SWING_DEG), Rect::fit(&v)) else {
            return Err(TestCaseError::fail("no frame or not a rectangle"));
        };
        let (lo, top) = if grow { (0.0, PERTURBATION_MAX_MM) } else { (-PERTURBATION_MAX_MM, 0.0) };
        if never_in_arc(&frame, &rect, top) {
            let dyadic = (0..8).map(|n| top - (top - lo) / f64::from(1 << n));
            for g in dyadic.chain(below.iter().map(|t| lo + (top - lo) * t)).chain([top]) {
                if g == 0.0 {
                    continue;
                }
                if let Some((l, h)) = exact(&front, f, reach, &v, g) {
                    prop_assert!(h <= -MAX_SWING_DEG || l >= MAX_SWING_DEG, "g {}: ({}, {})", g, l, h);
                }
            }
        }
    }
}

#[test]
fn the_closed_form_answers_most_steps() {
    // A battle line's zone: bases ahead, beside and past the reach, every dyadic
    // perturbation of the bisection either way.
    let (front, f, reach) = zone(Vec2::new(389.0, 1354.3), 97.694, 50.0, 406.4);
    let mut answered = 0;
    let mut asked = 0;
    let r = f.perp_right();
    for i in -12..=12 {
        for j in 0..=12 {
            let c = front.midpoint() + r * (31.0 * f64::from(i)) + f * (35.0 * f64::from(j) - 20.0);
            let v = corners(c.x, c.y, 90.478 + f64::from(i), 30.0, 20.0);
            for n in 0..10 {
                for g in [50.0 / f64::from(1 << n), -50.0 / f64::from(1 << n), 0.7 * f64::from(n) - 3.0] {
                    asked += 1;
                    match check_both(&front, f, reach, &v, g) {
                        Ok(true) => answered += 1,
                        Ok(false) => {}
                        Err(e) => panic!("base {i},{j}, g {g}: {e}"),
                    }
                }
            }
        }
    }
    assert!(answered * 100 >= asked * 98, "answered {answered} of {asked}");
}

#[test]
fn hand_made_edge_cases() {
    let (front, f, reach) = zone(Vec2::new(0.0, 0.0), 90.0, 50.0, 406.4);
    // Facing +y: A = (-25, 0), B = (25, 0).
    assert!(front.a.x < 0.0 && front.b.x > 0.0);
    let frame = Frame::new(front, f, SIDE_DEG, reach, MAX_SWING_DEG).unwrap_or_else(|| panic!("frame"));
    let rect = |v: &[Vec2]| Rect::fit(v).unwrap_or_else(|| panic!("rectangle {v:?}"));
    // A square straight ahead: the closed form answers and holds.
    let ahead = corners(0.0, 100.0, 90.0, 20.0, 20.0);
    for g in [0.5, -0.5, 5.0, -9.0, 50.0] {
        assert_eq!(check_both(&front, f, reach, &ahead, g), Ok(true), "g {g}");
    }
    // Shrunk exactly to nothing (10 mm half sides): declined or none, never wrong.
    assert!(check_both(&front, f, reach, &ahead, -10.0).is_ok());
    let gone = bounds(&frame, &rect(&ahead), -10.5, ArcOnly::No);
    assert_eq!(gone, Some(Bounds::NONE));
    // A neighbour in the battery's line, its corner at the frontage end A: declined at
    // no perturbation (the end is on its outline), answered once moved.
    let beside = corners(-35.0, -10.0, 90.0, 20.0, 20.0);
    assert_eq!(bounds(&frame, &rect(&beside), 0.0, ArcOnly::No), None);
    for g in [0.01, 0.5, 3.125, 50.0, -0.01, -3.0] {
        assert!(check_both(&front, f, reach, &beside, g).is_ok(), "g {g}");
    }
    // Grown over A, it blocks every swing from the right.
    let over = bounds(&frame, &rect(&beside), 3.125, ArcOnly::No).unwrap_or_else(|| panic!("declined"));
    assert!(over.inner.is_some_and(|(lo, hi)| lo < -90.0 && hi > 90.0), "{over:?}");
    // Wholly behind the frontage, or past the reach: blocks nothing.
    let behind = corners(0.0, -40.0, 90.0, 20.0, 20.0);
    assert_eq!(bounds(&frame, &rect(&behind), 5.0, ArcOnly::No), Some(Bounds::NONE));
    let far = corners(0.0, 470.0, 90.0, 20.0, 20.0);
    assert_eq!(bounds(&frame, &rect(&far), 5.0, ArcOnly::No), Some(Bounds::NONE));
    // Across the reach: inner from the corners within it, outer from all.
    let across = corners(0.0, 406.0, 90.0, 20.0, 20.0);
    assert_eq!(check_both(&front, f, reach, &across, 1.0), Ok(true));
    // Far to the side of the arc: dropped when only the arc's swings matter.
    let aside = corners(300.0, 60.0, 90.0, 20.0, 20.0);
    assert_eq!(bounds(&frame, &rect(&aside), 1.0, ArcOnly::Yes), Some(Bounds::NONE));
    assert!(bounds(&frame, &rect(&aside), 1.0, ArcOnly::No).is_some_and(|b| b.blocks));
    assert_eq!(check_both(&front, f, reach, &aside, 1.0), Ok(true));
    // Never in the arc: wholly aside, behind, past the reach; not one that only grows
    // into it, nor one beside the frontage end.
    assert!(never_in_arc(&frame, &rect(&aside), 0.0) && !never_in_arc(&frame, &rect(&ahead), 0.0));
    assert!(never_in_arc(&frame, &rect(&behind), 5.0) && !never_in_arc(&frame, &rect(&behind), 50.0));
    assert!(never_in_arc(&frame, &rect(&far), 0.0) && !never_in_arc(&frame, &rect(&far), 50.0));
    let near_aside = corners(120.0, 60.0, 90.0, 20.0, 20.0);
    assert!(never_in_arc(&frame, &rect(&near_aside), 0.0) && !never_in_arc(&frame, &rect(&near_aside), 50.0));
    assert!(!never_in_arc(&frame, &rect(&beside), 0.0));
    // Not rectangles: no closed form.
    let skew = [Vec2::new(0.0, 50.0), Vec2::new(10.0, 50.0), Vec2::new(12.0, 60.0), Vec2::new(0.0, 60.0)];
    assert_eq!(Rect::fit(&skew), None);
    assert_eq!(Rect::fit(&skew[..3]), None);
    let flat = [Vec2::new(0.0, 50.0), Vec2::new(10.0, 50.0), Vec2::new(10.0, 50.0), Vec2::new(0.0, 50.0)];
    assert_eq!(Rect::fit(&flat), None);
    // A marker's box (axis-aligned, counter-clockwise from its low corner) is one.
    let marker = [Vec2::new(-5.0, 80.0), Vec2::new(5.0, 80.0), Vec2::new(5.0, 90.0), Vec2::new(-5.0, 90.0)];
    assert_eq!(check_both(&front, f, reach, &marker, 0.25), Ok(true));
}

#[test]
fn pseudo_angles_rank_as_angles() {
    let mut last = f64::NEG_INFINITY;
    for i in -1799..=1800 {
        let d = Vec2::from_heading_deg(f64::from(i) / 10.0);
        let k = diamond(d.x, d.y);
        assert!(k > last, "{i}: {k} after {last}");
        last = k;
    }
}
