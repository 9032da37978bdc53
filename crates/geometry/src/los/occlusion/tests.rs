//! Tests of the occlusion sweep.

use super::horizon::{Horizon, Terrain};
use super::span::{Span, span_and_distance_2, span_distance_and_ends};
use super::*;
use crate::convex::point_distance_2;
use crate::vec2::Vec2;
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
    #![proptest_config(crate::test_support::proptest_config(3000, 12))]
    // Points and hulls on a small grid, so that points on corners, on edges and on
    // edge lines are common.
    #[test]
    fn span_and_distance_in_one_pass_are_those_of_the_two_apart(
        pts in proptest::collection::vec((-6i32..7, -6i32..7), 1..9),
        (px, py) in (-8i32..9, -8i32..9),
        scale in prop_oneof![Just(1.0), Just(0.37), Just(41.0)],
    ) {
        let v = |(x, y): (i32, i32)| Vec2::new(f64::from(x) * scale, f64::from(y) * scale);
        let poly = crate::convex::hull_points(pts.iter().copied().map(v).collect::<Vec<_>>());
        let p = v((px, py));
        let (sp, d2) = span_and_distance_2(p, &poly);
        prop_assert_eq!(sp, span(p, &poly));
        if sp != Span::Unknown || poly.len() < 3 {
            prop_assert_eq!(d2.to_bits(), point_distance_2(p, &poly).to_bits());
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
    crate::convex::line_in_convex(poly, Vec2::ZERO, t, (0.0, 1.0), grown).is_some()
}

proptest! {
    #![proptest_config(crate::test_support::proptest_config(400, 21))]
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
    let shrunk = crate::convex::shrink(&wall, shrink).unwrap();
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
