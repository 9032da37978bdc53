//! Property tests of exact sight on random scenes (fixed seeds): the answers agree with
//! a dense sampling oracle wherever the oracle can decide, sight between two bases is
//! symmetric, and turning or moving the table changes nothing.

use crate::common;
use proptest::prelude::*;
use vedette_geometry::sight::{
    Blocker, FullVisibility, clear_sight_segment, full_visibility, point_sight_segment, segment_is_clear,
};
use vedette_geometry::{Base, BaseSize, Pose, RigidMotion, Vec2};

#[derive(Debug, Clone)]
struct Scene {
    spotter: Base,
    target: Base,
    blockers: Vec<Base>,
}

fn scene() -> impl Strategy<Value = Scene> {
    let b = |y0: f64, y1: f64| {
        (-120.0..120.0f64, y0..y1, -40.0..40.0f64, 10.0..60.0f64, 8.0..40.0f64)
            .prop_map(|(x, y, h, w, d)| Base::new(BaseSize::new(w, d), Pose::new(Vec2::new(x, y), 90.0 + h)))
    };
    (b(0.0, 20.0), b(250.0, 300.0), prop::collection::vec(b(80.0, 180.0), 0..5))
        .prop_map(|(spotter, target, blockers)| Scene { spotter, target, blockers })
}

fn blockers(s: &Scene) -> Vec<Blocker> {
    s.blockers.iter().map(Blocker::from_base).collect()
}

fn front(b: &Base) -> [Vec2; 2] {
    let e = b.front_edge();
    [e.a, e.b]
}

/// Points spread over a base (a grid including its edges).
fn grid(b: &Base, n: usize) -> Vec<Vec2> {
    let c = b.corners();
    let mut out = Vec::new();
    for i in 0..=n {
        for j in 0..=n {
            let u = i as f64 / n as f64;
            let v = j as f64 / n as f64;
            let left = c.rear_left.lerp(c.front_left, v);
            let right = c.rear_right.lerp(c.front_right, v);
            out.push(left.lerp(right, u));
        }
    }
    out
}

fn edge_points(e: [Vec2; 2], n: usize) -> Vec<Vec2> {
    (0..=n).map(|i| e[0].lerp(e[1], i as f64 / n as f64)).collect()
}

proptest! {
    #![proptest_config(common::proptest_config(300, 601))]

    #[test]
    fn clear_segments_are_clear_and_none_means_sampling_finds_none(s in scene()) {
        let bl = blockers(&s);
        let spot = front(&s.spotter);
        let tgt = s.target.vertices_ccw();
        match clear_sight_segment(&spot, &tgt, &bl) {
            Some(seg) => {
                prop_assert!(segment_is_clear(seg.a, seg.b, &bl));
                prop_assert!(s.spotter.front_edge().distance_to_point(seg.a) < 1e-6);
                prop_assert!(s.target.distance_to_point(seg.b) < 1e-6);
            }
            None => {
                for a in edge_points(spot, 40) {
                    for b in grid(&s.target, 8) {
                        prop_assert!(!segment_is_clear(a, b, &bl), "sampling found {a:?} -> {b:?} clear");
                    }
                }
            }
        }
    }

    #[test]
    fn full_visibility_agrees_with_point_sight_and_sampling(s in scene()) {
        let bl = blockers(&s);
        let spot = front(&s.spotter);
        match full_visibility(&spot, &s.target.vertices_ccw(), &bl) {
            FullVisibility::Visible => {
                for t in grid(&s.target, 6) {
                    prop_assert!(point_sight_segment(&spot, t, &bl).is_some(), "{t:?} not seen");
                }
            }
            FullVisibility::Hidden { witness } => {
                prop_assert!(s.target.contains(witness));
                prop_assert!(point_sight_segment(&spot, witness, &bl).is_none());
                for a in edge_points(spot, 200) {
                    prop_assert!(!segment_is_clear(a, witness, &bl));
                }
            }
        }
    }

    #[test]
    fn sight_between_two_bases_is_symmetric(s in scene()) {
        let bl = blockers(&s);
        let ab = clear_sight_segment(&s.spotter.vertices_ccw(), &s.target.vertices_ccw(), &bl).is_some();
        let ba = clear_sight_segment(&s.target.vertices_ccw(), &s.spotter.vertices_ccw(), &bl).is_some();
        prop_assert_eq!(ab, ba);
    }

    #[test]
    fn turning_the_table_changes_nothing(s in scene(), rot in 0.0..360.0f64, tx in -2000.0..2000.0f64) {
        let m = RigidMotion::new(rot, Vec2::new(tx, 0.5 * tx));
        let moved = Scene {
            spotter: m.base(&s.spotter),
            target: m.base(&s.target),
            blockers: s.blockers.iter().map(|b| m.base(b)).collect(),
        };
        let (b0, b1) = (blockers(&s), blockers(&moved));
        prop_assert_eq!(
            clear_sight_segment(&front(&s.spotter), &s.target.vertices_ccw(), &b0).is_some(),
            clear_sight_segment(&front(&moved.spotter), &moved.target.vertices_ccw(), &b1).is_some()
        );
        prop_assert_eq!(
            full_visibility(&front(&s.spotter), &s.target.vertices_ccw(), &b0) == FullVisibility::Visible,
            full_visibility(&front(&moved.spotter), &moved.target.vertices_ccw(), &b1) == FullVisibility::Visible
        );
    }
}
