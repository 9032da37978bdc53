//! The buffer's tests: outlines against the distance to their rings, and the
//! pruned cutting against the plain one.

use super::element::on_diamond;
use super::*;
use std::f64::consts::PI;

const R: f64 = 76.2;
const EXCESS: f64 = 0.005;

fn ring(pts: &[(f64, f64)]) -> Vec<Vec2> {
    pts.iter().map(|&(x, y)| Vec2::new(x, y)).collect()
}

fn area(polys: &[Polygon]) -> f64 {
    polys.iter().map(Polygon::area).sum()
}

/// The distance from `p` to the filled rings.
fn distance(rings: &[Vec<Vec2>], p: Vec2) -> f64 {
    rings
        .iter()
        .map(|g| {
            if ring_contains(g, p) {
                return 0.0;
            }
            (0..g.len())
                .map(|i| Edge::new(g[i], g[(i + 1) % g.len()]).distance_2(p).sqrt())
                .fold(f64::INFINITY, f64::min)
        })
        .fold(f64::INFINITY, f64::min)
}

#[test]
fn a_square_gives_its_strips_and_a_whole_circle() {
    let sq = ring(&[(0.0, 0.0), (30.0, 0.0), (30.0, 20.0), (0.0, 20.0)]);
    let out = buffer_outlines(&[sq], R, EXCESS);
    assert_eq!(out.len(), 1);
    let exact = 600.0 + 2.0 * R * 50.0 + PI * R * R;
    let a = area(&out);
    assert!(a >= exact && a <= exact + 2.0 * PI * (R + EXCESS) * EXCESS, "{a} against {exact}");
}

/// A division's bases as they stand (30-120 mm wide, turned up to `turn_deg` either
/// way, 0-60 mm apart in two rows, some touching or overlapping), and their union's
/// rings as the deployment areas take them.
fn division(next: &mut impl FnMut() -> f64, turn_deg: f64) -> (Vec<Vec<Vec2>>, Vec<Vec<Vec2>>) {
    let mut rings = Vec::new();
    for row in 0..2 {
        let mut x = 0.0;
        for _ in 0..6 {
            let (w, d) = (30.0 + 90.0 * next(), 15.0 + 25.0 * next());
            let c = Vec2::new(x + w / 2.0, row as f64 * (60.0 + 80.0 * next()) + 10.0 * next());
            let turn = 2.0 * turn_deg * (next() - 0.5);
            let corners = [(-w, -d), (w, -d), (w, d), (-w, d)]
                .map(|(a, b)| c + Vec2::new(a / 2.0, b / 2.0).rotated_deg(turn));
            rings.push(corners.to_vec());
            x += w + 60.0 * next();
        }
    }
    let geo_rings: Vec<geo::Polygon<f64>> =
        rings.iter().map(|g| crate::command::deployment::geo_polygon(g)).collect();
    let merged = geo::unary_union(geo_rings.iter())
        .0
        .iter()
        .map(|p| crate::command::deployment::ring_of(p.exterior()))
        .collect();
    (rings, merged)
}

fn xorshift(mut rng: u64) -> impl FnMut() -> f64 {
    move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        (rng >> 11) as f64 / (1u64 << 53) as f64
    }
}

#[test]
fn random_divisions_match_the_distance_to_their_bases() {
    // Every point farther than 0.01 mm from the outline's true boundary is inside it
    // exactly when it is within the reach of a base: 3" with bases turned up to 10°,
    // and 5 mm and 400 mm (a Pro Patria command radius) with bases at any heading.
    let mut next = xorshift(0x2545_f491_4f6c_dd1d);
    for (reach, turn) in [(R, 10.0), (5.0, 180.0), (400.0, 180.0)] {
        for _ in 0..6 {
            let (rings, merged) = division(&mut next, turn);
            let out = buffer_outlines(&merged, reach, EXCESS);
            assert!(!out.is_empty());
            let (lo, hi) = bbox(rings.iter().flatten().copied());
            for _ in 0..3000 {
                let p = Vec2::new(
                    lo.x - reach - 20.0 + (hi.x - lo.x + 2.0 * reach + 40.0) * next(),
                    lo.y - reach - 20.0 + (hi.y - lo.y + 2.0 * reach + 40.0) * next(),
                );
                let d = distance(&rings, p);
                if (d - reach).abs() < 0.01 {
                    continue;
                }
                let inside = out.iter().any(|o| o.contains(p));
                assert_eq!(inside, d < reach, "{p:?} at {d} mm of bases, reach {reach} mm");
            }
        }
    }
}

/// Every sampled point farther than 0.01 mm from the true boundary is inside the
/// outlines exactly when it is within R of the rings (or enclosed: `filled`).
fn check_by_distance(rings: &[Vec<Vec2>], out: &[Polygon], filled: impl Fn(Vec2) -> bool) {
    let (lo, hi) = bbox(rings.iter().flatten().copied());
    let mut k = 0u64;
    for i in 0..120 {
        for j in 0..120 {
            k += 1;
            let jitter = (k.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 40) as f64 / (1u64 << 24) as f64;
            let p = Vec2::new(
                lo.x - 100.0 + (hi.x - lo.x + 200.0) * (i as f64 + jitter) / 120.0,
                lo.y - 100.0 + (hi.y - lo.y + 200.0) * (j as f64 + 0.5) / 120.0,
            );
            let d = distance(rings, p);
            if (d - R).abs() < 0.01 {
                continue;
            }
            let inside = out.iter().any(|o| o.contains(p));
            assert_eq!(inside, d < R || filled(p), "{p:?} at {d} mm");
        }
    }
}

fn square(x: f64, y: f64, side: f64) -> Vec<Vec2> {
    ring(&[(x, y), (x + side, y), (x + side, y + side), (x, y + side)])
}

#[test]
fn exact_ties_between_rings_give_the_right_outline() {
    // Two squares touching at a corner; two squares whose buffers touch along a side
    // (exactly 2R apart) and at a corner; a square exactly 2R from a vertex.
    let scenes = [
        vec![square(0.0, 0.0, 40.0), square(40.0, 40.0, 40.0)],
        vec![square(0.0, 0.0, 40.0), square(40.0 + 2.0 * R, 0.0, 40.0)],
        vec![square(0.0, 0.0, 40.0), square(40.0 + 2.0 * R, 40.0 + 0.0, 40.0)],
        vec![square(0.0, 0.0, 40.0), square(40.0 + 2.0 * R * 0.6, 40.0 + 2.0 * R * 0.8, 40.0)],
    ];
    for rings in &scenes {
        let out = buffer_outlines(rings, R, EXCESS);
        check_by_distance(rings, &out, |_| false);
    }
    // Degenerate input: nothing, a ring of two points, repeated points, no reach.
    assert!(buffer_outlines(&[], R, EXCESS).is_empty());
    assert!(buffer_outlines(&[ring(&[(0.0, 0.0), (10.0, 0.0)])], R, EXCESS).is_empty());
    let sq = square(0.0, 0.0, 40.0);
    let repeated = ring(&[(0.0, 0.0), (0.0, 0.0), (40.0, 0.0), (40.0, 40.0), (0.0, 40.0), (0.0, 0.0)]);
    assert_eq!(
        buffer_outlines(&[repeated], R, EXCESS),
        buffer_outlines(std::slice::from_ref(&sq), R, EXCESS)
    );
    assert_eq!(buffer_outlines(std::slice::from_ref(&sq), 0.0, EXCESS), vec![Polygon::new(sq, vec![])]);
}

#[test]
fn an_island_in_a_filled_hole_and_a_nested_ring_are_dropped() {
    // A frame 1000 mm square with 100 mm walls and a 50 mm opening in its left wall
    // (closed by the buffer), a 20 mm square alone in its middle, and a ring inside
    // a wall (as no union gives, but dropped all the same).
    let frame = walled_frame();
    let rings = vec![frame.clone(), square(490.0, 490.0, 20.0)];
    let out = buffer_outlines(&rings, R, EXCESS);
    assert_eq!(out.len(), 1, "the island is inside the filled frame");
    check_by_distance(&rings, &out, |p| (0.0..=1000.0).contains(&p.x) && (0.0..=1000.0).contains(&p.y));
    let nested = buffer_outlines(&[frame.clone(), square(20.0, 200.0, 30.0)], R, EXCESS);
    assert_eq!(nested, buffer_outlines(&[frame], R, EXCESS));
}

/// The union's rings of rectangles (centre, width, depth, heading in degrees), as the
/// deployment areas take them.
fn union_rings(bases: &[(Vec2, f64, f64, f64)]) -> Vec<Vec<Vec2>> {
    let polys: Vec<geo::Polygon<f64>> = bases
        .iter()
        .map(|&(c, w, d, turn)| {
            let corners = [(-w, -d), (w, -d), (w, d), (-w, d)]
                .map(|(a, b)| c + Vec2::new(a / 2.0, b / 2.0).rotated_deg(turn));
            crate::command::deployment::geo_polygon(&corners)
        })
        .collect();
    geo::unary_union(polys.iter())
        .0
        .iter()
        .map(|p| crate::command::deployment::ring_of(p.exterior()))
        .collect()
}

/// The pruned cutting and the plain one ([`super::reference`]) give the same pieces,
/// to the bit, on the rings' buffer of reach `r`; the number of pieces.
fn same_pieces(rings: &[Vec<Vec2>], r: f64) -> usize {
    let rings = outermost(rings.iter().map(|g| cleaned(g)).filter(|g| g.len() >= 3).collect());
    let (edges, elements) = edges_and_elements(&rings, r);
    let bits = |ps: Vec<Piece>| -> Vec<(usize, u64, u64)> {
        ps.iter().map(|p| (p.element, p.from.to_bits(), p.to.to_bits())).collect()
    };
    let pruned = bits(surviving_pieces(&edges, &elements, r));
    assert_eq!(pruned, bits(super::reference::surviving_pieces(&edges, &elements, r)), "reach {r}");
    pruned.len()
}

proptest::proptest! {
    #![proptest_config(crate::test_support::proptest_config(400, 47))]
    /// Divisions of 1 to 40 bases at any heading, scattered, touching and overlapping:
    /// the pruned cutting keeps exactly the plain one's pieces, at a 3" reach and others.
    #[test]
    fn pruned_cutting_matches_the_plain_one_on_scattered_bases(
        bases in proptest::collection::vec(
            ((0.0f64..600.0, 0.0f64..400.0), (15.0f64..120.0, 10.0f64..60.0), -180.0f64..180.0),
            1..40,
        ),
        r in proptest::prop_oneof![proptest::strategy::Just(R), 1.0f64..300.0],
    ) {
        let bases: Vec<_> = bases.iter().map(|&((x, y), (w, d), t)| (Vec2::new(x, y), w, d, t)).collect();
        same_pieces(&union_rings(&bases), r);
    }

    /// Bases on a 10 mm lattice, square to the table or at 45°, of a few sizes: edges in
    /// line, bases touching side to side and corner to corner, gaps of exactly `2r`
    /// (reaches of 5, 10 and 20 mm) and elements exactly `r` from other edges.
    #[test]
    fn pruned_cutting_matches_the_plain_one_on_a_lattice(
        bases in proptest::collection::vec(((0u8..30, 0u8..20), 0usize..4, 0usize..5), 1..40),
        r in proptest::sample::select(vec![5.0, 10.0, 20.0, 30.0, R]),
    ) {
        let sizes = [(40.0, 20.0), (40.0, 40.0), (20.0, 20.0), (60.0, 30.0)];
        let turns = [0.0, 90.0, 180.0, -90.0, 45.0];
        let bases: Vec<_> = bases
            .iter()
            .map(|&((x, y), s, t)| (Vec2::new(f64::from(x) * 10.0, f64::from(y) * 10.0), sizes[s].0, sizes[s].1, turns[t]))
            .collect();
        same_pieces(&union_rings(&bases), r);
    }
}

#[test]
fn pruned_cutting_matches_the_plain_one_on_hand_made_rings() {
    // Rows of bases as divisions stand, turned a little or any way; the hand-made
    // scenes above (ties, a frame with an island, a notch); a lone base.
    let mut next = xorshift(0x9e37_79b9_7f4a_7c15);
    let mut pieces = 0;
    for turn in [0.0, 2.0, 10.0, 180.0] {
        for _ in 0..8 {
            let (_, merged) = division(&mut next, turn);
            for r in [R, 5.0, 400.0] {
                pieces += same_pieces(&merged, r);
            }
        }
    }
    let scenes = [
        vec![square(0.0, 0.0, 40.0), square(40.0, 40.0, 40.0)],
        vec![square(0.0, 0.0, 40.0), square(40.0 + 2.0 * R, 0.0, 40.0)],
        vec![square(0.0, 0.0, 40.0), square(40.0 + 2.0 * R * 0.6, 40.0 + 2.0 * R * 0.8, 40.0)],
        vec![walled_frame(), square(490.0, 490.0, 20.0)],
        vec![ring(&[
            (0.0, 0.0),
            (250.0, 0.0),
            (250.0, 200.0),
            (150.0, 200.0),
            (150.0, 50.0),
            (100.0, 50.0),
            (100.0, 200.0),
            (0.0, 200.0),
        ])],
        vec![ring(&[(0.0, 0.0), (30.0, 0.0), (30.0, 20.0), (0.0, 20.0)])],
    ];
    for rings in &scenes {
        for r in [R, 25.0, 2.0 * R] {
            pieces += same_pieces(rings, r);
        }
    }
    assert!(pieces > 1000, "{pieces}");
}

/// [`from_pseudo_angle`]'s quarter and fraction as first written (the floor by a cast,
/// clamped): the ones found by comparisons must give the same direction to the bit.
fn from_pseudo_angle_by_floor(d0: Vec2, p: f64) -> Vec2 {
    let quarter = if p > 0.0 && p < 4.0 { f64::from(p as u8) } else { p.floor() }.clamp(0.0, 3.0);
    on_diamond(d0, quarter as u8, p - quarter)
}

#[test]
fn the_quarter_by_comparisons_gives_the_direction_the_floor_gives() {
    let bits = |v: Vec2| (v.x.to_bits(), v.y.to_bits());
    let mut next = xorshift(0x1234_5678_9abc_def1);
    let mut specials =
        vec![0.0, -0.0, 4.0, 5.0, -1.0, f64::NAN, f64::INFINITY, f64::NEG_INFINITY, f64::MIN_POSITIVE];
    for q in 0..4 {
        let q = f64::from(q);
        specials.extend([q, q + 0.5, (q + 1.0).next_down(), q.next_up(), q + 1e-300]);
    }
    for turn in [0.0, 30.0, 90.0, 137.5, 180.0, -90.0] {
        let d0 = Vec2::new(1.0, 0.0).rotated_deg(turn);
        for &p in &specials {
            assert_eq!(
                bits(from_pseudo_angle(d0, p)),
                bits(from_pseudo_angle_by_floor(d0, p)),
                "{p} at {turn}°"
            );
        }
        for _ in 0..2000 {
            let p = -0.5 + 5.0 * next();
            assert_eq!(
                bits(from_pseudo_angle(d0, p)),
                bits(from_pseudo_angle_by_floor(d0, p)),
                "{p} at {turn}°"
            );
        }
    }
}

#[test]
fn a_left_turn_is_told_as_the_arctangent_tells_it() {
    // Normals of edges at any heading turned by any angle, tiny and near a half turn
    // included, and the zero normal of an edge of no length.
    let mut next = xorshift(0x51f1_5eed_0bad_cafe);
    let mut turns = vec![0.0, 1e-13, 1e-12, 2e-12, 1e-9, 1e-6, 1.0000001e-6, 0.5, 3.0, PI, -PI, -1e-12];
    turns.extend((0..4000).map(|_| 2.0 * PI * (next() - 0.5)));
    turns.extend((0..2000).map(|_| 1e-5 * (next() - 0.5)));
    for turn in turns {
        for _ in 0..3 {
            let heading = 2.0 * PI * next();
            let m0 = direction(heading);
            let m1 = direction(heading + turn);
            let by_angle = m0.cross(m1).atan2(m0.dot(m1)) > 1e-12;
            assert_eq!(turns_left(m0, m1), by_angle, "{turn} from {heading}");
        }
    }
    assert!(!turns_left(Vec2::ZERO, direction(1.0)));
    assert!(!turns_left(direction(1.0), Vec2::ZERO));
}
