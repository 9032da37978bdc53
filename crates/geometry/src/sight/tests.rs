//! Tests of the exact sight kernel.

use super::blocker::Blocker;
use super::full_visibility::{FullVisibility, full_visibility, quick_verdict};
use super::local_blocker::LocalBlocker;
use super::obstruction::{blocked, first_obstruction, obstruction, segment_is_clear};
use super::outline::{Outline, chord};
use super::segment_search::{clear_sight_segment, point_sight_segment};
use super::sight_hull::in_sight_hull;
use crate::base::Base;
use crate::base::{BaseSize, Pose};
use crate::convex::hull_points;
use crate::polygon::Polygon;
use crate::vec2::Vec2;

fn rect(x: f64, y: f64, w: f64, d: f64) -> Base {
    Base::new(BaseSize::new(w, d), Pose::new(Vec2::new(x, y), 90.0))
}

fn wall_from(x0: f64, x1: f64, y0: f64, y1: f64) -> Blocker {
    Blocker::from_base(&rect((x0 + x1) / 2.0, (y0 + y1) / 2.0, x1 - x0, y1 - y0))
}

#[test]
fn a_run_in_cover_starts_where_the_eye_point_first_reaches_it() {
    // Cover x ∈ [-50, 50], y ∈ [100, 200]; a target inside it at y ∈ [150, 160].
    let cover = wall_from(-50.0, 50.0, 100.0, 200.0);
    let target = rect(0.0, 155.0, 20.0, 10.0).vertices_ccw();
    let (a, b) = (Vec2::new(-10.0, 150.0), Vec2::new(10.0, 150.0));
    // Eye well outside: the run starts 80 mm out, straight ahead (the wedge holds it).
    let eye = [Vec2::new(-10.0, 20.0), Vec2::new(10.0, 20.0)];
    let lb = LocalBlocker::new(&cover, &eye, &target).unwrap_or_else(|| panic!("local"));
    assert!(lb.eye_outside());
    assert!((lb.distance_before(Vec2::new(0.0, 20.0), a, b) - 80.0).abs() < 1e-9);
    // Eye inside the cover: it starts at once.
    let eye = [Vec2::new(-10.0, 120.0), Vec2::new(10.0, 120.0)];
    let lb = LocalBlocker::new(&cover, &eye, &target).unwrap_or_else(|| panic!("local"));
    assert_eq!(lb.distance_before(Vec2::new(0.0, 120.0), a, b), 0.0);
    // An eye along the cover's edge (its side unknown for the whole eye): each point
    // is tested, on the outline counting as in (0), 0.5 mm out as 0.5 mm away.
    let eye = [Vec2::new(-10.0, 99.5), Vec2::new(10.0, 100.0)];
    let lb = LocalBlocker::new(&cover, &eye, &target).unwrap_or_else(|| panic!("local"));
    assert!(!lb.eye_outside());
    assert_eq!(lb.distance_before(Vec2::new(10.0, 100.0), a, b), 0.0);
    assert!((lb.distance_before(Vec2::new(-10.0, 99.5), a, b) - 0.5).abs() < 1e-9);
    // From inside, toward a target beyond the cover (y ∈ [250, 260]) seen from
    // h = (0, 120) between a = (-10, 250) and b = (10, 250): the lines leave the
    // cover at y = 200, at most 80 / cos(atan(10 / 130)) = 80.2366 from h.
    let far_target = rect(0.0, 255.0, 20.0, 10.0).vertices_ccw();
    let eye = [Vec2::new(-10.0, 120.0), Vec2::new(10.0, 120.0)];
    let lb = LocalBlocker::new(&cover, &eye, &far_target).unwrap_or_else(|| panic!("local"));
    let (a, b, h) = (Vec2::new(-10.0, 250.0), Vec2::new(10.0, 250.0), Vec2::new(0.0, 120.0));
    let want = 80.0 * (130.0f64.powi(2) + 100.0).sqrt() / 130.0;
    assert!((lb.farthest_outline_in(h, a, b) - want).abs() < 1e-6, "{}", lb.farthest_outline_in(h, a, b));
    // A triangle the outline misses: no bound.
    assert_eq!(lb.farthest_outline_in(h, Vec2::new(-1.0, 150.0), Vec2::new(1.0, 150.0)), f64::INFINITY);
}

#[test]
fn a_segment_deep_through_a_base_is_blocked_as_the_full_test_finds() {
    // Wall x ∈ [-20, 20], y ∈ [45, 55].
    let wall = wall_from(-20.0, 20.0, 45.0, 55.0);
    let walls = [&wall];
    let (a, b) = (Vec2::new(0.0, 0.0), Vec2::new(0.0, 100.0));
    assert!(wall.runs_deep_through(a, b - a, 100.0) && blocked(a, b, &walls));
    // Along the corner x = 20 (grazing, clear), and 0.0005 mm inside the end: not
    // deep enough for the quick test, the full test finds it blocked.
    let graze = (Vec2::new(20.0, 0.0), Vec2::new(20.0, 100.0));
    assert!(!wall.runs_deep_through(graze.0, graze.1 - graze.0, 100.0) && !blocked(graze.0, graze.1, &walls));
    let shallow = (Vec2::new(19.9995, 0.0), Vec2::new(19.9995, 100.0));
    assert!(!wall.runs_deep_through(shallow.0, shallow.1 - shallow.0, 100.0));
    assert!(blocked(shallow.0, shallow.1, &walls));
    // Stopping 0.005 mm past the near face (y = 45.005): too short a run for the quick
    // test; the full test says blocked (deeper than the graze tolerance).
    let (s0, s1) = (Vec2::new(0.0, 0.0), Vec2::new(0.0, 45.005));
    assert!(!wall.runs_deep_through(s0, s1 - s0, 45.005));
    assert_eq!(blocked(s0, s1, &walls), obstruction(s0, s1, &walls, None).is_some());
}

proptest::proptest! {
    #![proptest_config(crate::test_support::proptest_config(2000, 11))]
    /// The quick test never disagrees with the full one: turned bases, segments from
    /// anywhere, including ones along a base's edge or through its corner.
    #[test]
    fn the_quick_deep_test_agrees_with_the_full_obstruction_test(
        cx in -50.0f64..50.0, cy in -50.0f64..50.0, heading in 0.0f64..360.0,
        w in 1.0f64..60.0, d in 1.0f64..60.0,
        ax in -100.0f64..100.0, ay in -100.0f64..100.0, bx in -100.0f64..100.0, by in -100.0f64..100.0,
        snap in 0usize..4,
    ) {
        let base = Base::new(BaseSize::new(w, d), Pose::new(Vec2::new(cx, cy), heading));
        let bl = Blocker::from_base(&base);
        let v = base.vertices_ccw();
        let (mut a, mut b) = (Vec2::new(ax, ay), Vec2::new(bx, by));
        // Some segments run along an edge's line or through a corner.
        match snap {
            1 => { a = v[0] + (v[1] - v[0]) * 3.0; b = v[1] + (v[0] - v[1]) * 2.5; }
            2 => { a = v[2]; }
            _ => {}
        }
        let blockers = [&bl];
        proptest::prop_assert_eq!(blocked(a, b, &blockers), obstruction(a, b, &blockers, None).is_some());
    }
}

proptest::proptest! {
    #![proptest_config(crate::test_support::proptest_config(3000, 12))]
    /// A point hidden from a segment eye by one base both end segments run deep through
    /// is hidden to the search too, and every point gets the search's answer: turned
    /// bases between, beside or over the eye and the point, or touching it.
    #[test]
    fn a_point_shaded_by_one_base_is_hidden_to_the_search(
        bases in proptest::collection::vec(
            (-40.0f64..40.0, 20.0f64..120.0, 0.0f64..360.0, 0.5f64..60.0, 0.5f64..30.0), 1..4),
        ex in -30.0f64..30.0, half in 0.005f64..40.0, turn in -30.0f64..30.0,
        tx in -60.0f64..60.0, ty in 60.0f64..180.0, on_edge in 0usize..3,
    ) {
        let blockers: Vec<Blocker> = bases
            .iter()
            .map(|&(x, y, h, w, d)| Blocker::from_base(&Base::new(BaseSize::new(w, d), Pose::new(Vec2::new(x, y), h))))
            .collect();
        let refs: Vec<&Blocker> = blockers.iter().collect();
        let along = Vec2::from_heading_deg(turn);
        let eye = [Vec2::new(ex, 0.0) - along * half, Vec2::new(ex, 0.0) + along * half];
        // Some points on a base's edge or corner.
        let v = blockers[0].polygon().exterior.clone();
        let t = match on_edge {
            1 => v[0].lerp(v[1], 0.37),
            2 => v[2],
            _ => Vec2::new(tx, ty),
        };
        let searched = eye.iter().any(|&s| !blocked(t, s, &refs))
            || super::segment_search::point_sight_segment_among(&eye, t, &refs).is_some();
        proptest::prop_assert_eq!(super::segment_search::point_is_seen(&eye, t, &refs), searched);
    }
}

#[test]
fn quick_verdicts_settle_the_clear_and_the_squarely_hidden() {
    let spotter = [Vec2::new(-10.0, 0.0), Vec2::new(10.0, 0.0)];
    let target = rect(0.0, 200.0, 20.0, 20.0).vertices_ccw();
    // A wall well off to the side: the hull from either spotter corner is clear.
    let aside = wall_from(60.0, 100.0, 90.0, 110.0);
    assert_eq!(quick_verdict(&spotter, &target, &[&aside]), Some(FullVisibility::Visible));
    // A wall across the whole field: the centroid (0, 200) is hidden.
    let across = wall_from(-100.0, 100.0, 90.0, 110.0);
    assert_eq!(
        quick_verdict(&spotter, &target, &[&across]),
        Some(FullVisibility::Hidden { witness: Vec2::new(0.0, 200.0) })
    );
    // A post in the middle of the field: every interior test point is seen from some
    // spotter point, but the post cuts every hull: left to the decomposition.
    let post = wall_from(-1.0, 1.0, 99.0, 101.0);
    assert_eq!(quick_verdict(&spotter, &target, &[&post]), None);
    assert_eq!(full_visibility(&spotter, &target, &[post]), FullVisibility::Visible);
    // The hull of a triangle and a point inside it is the triangle.
    let h =
        hull_points(vec![Vec2::new(0.0, 0.0), Vec2::new(4.0, 0.0), Vec2::new(0.0, 4.0), Vec2::new(1.0, 1.0)]);
    assert_eq!(h.len(), 3);
    assert!(signed_area_of(&h) > 0.0);
}

fn signed_area_of(ring: &[Vec2]) -> f64 {
    crate::convex::signed_area(ring)
}

#[test]
fn a_sliver_cell_does_not_invent_a_hidden_point() {
    // Regression (issue 4, found by the artillery invariance property): the cell
    // decomposition left a sliver cell of area just above 1e-12 mm², whose area
    // centroid came out at (192, 426.7), 44 mm outside the target, where it was
    // "hidden". A dense sampling oracle (3,721 target points, 2,001 eye points each)
    // sees the whole target; so must full_visibility.
    let v = |x: f64, y: f64| Vec2::new(x, y);
    let eye = [v(495.9633109564954, 368.23988127279677), v(469.90062078788804, 410.90996659231746)];
    let target = [
        v(188.51287357931753, 400.2045545130306),
        v(175.70262755119043, 384.84559632248744),
        v(198.7410648370052, 365.63022728029677),
        v(211.5513108651323, 380.9891854708399),
    ];
    let ring = |p: [Vec2; 4]| Blocker::new(Polygon::new(p.to_vec(), vec![]));
    let blockers = [
        ring([
            v(436.8805837838194, 368.45077988085734),
            v(416.97369127450366, 370.3783769919131),
            v(414.08229560792, 340.51803822793954),
            v(433.98918811723576, 338.59044111688377),
        ]),
        ring([
            v(416.9736912745037, 370.3783769919131),
            v(397.06679876518797, 372.3059741029689),
            v(394.1754030986043, 342.4456353389953),
            v(414.08229560792006, 340.51803822793954),
        ]),
        ring([
            v(397.066798765188, 372.30597410296883),
            v(377.1599062558723, 374.2335712140246),
            v(374.2685105892886, 344.37323245005103),
            v(394.17540309860436, 342.44563533899526),
        ]),
        ring([
            v(333.6482456151883, 423.93874852882584),
            v(313.6482456151883, 423.93874852882584),
            v(313.6482456151883, 393.93874852882584),
            v(333.6482456151883, 393.93874852882584),
        ]),
    ];
    assert_eq!(full_visibility(&eye, &target, &blockers), FullVisibility::Visible);
}

#[test]
fn the_sight_hull_keeps_blockers_within_the_graze_gap() {
    // Spotter edge x ∈ [-10, 10] at y = 0, target x ∈ [40, 60], y ∈ [190, 210]: the
    // sight hull's right side runs from (10, 0) to (60, 190). A post whose nearest
    // corner is 3e-6 mm beyond that side (its middle, (35, 95), moved out along
    // the normal) is left out, more than twice the graze tolerance; one 1e-6 mm
    // beyond it, or straddling it, is kept.
    let spotter = [Vec2::new(-10.0, 0.0), Vec2::new(10.0, 0.0)];
    let target = rect(50.0, 200.0, 20.0, 20.0).vertices_ccw();
    let u = Vec2::new(50.0, 190.0) / Vec2::new(50.0, 190.0).length();
    let out = u.perp_right();
    let post = |gap: f64| {
        let c = Vec2::new(35.0, 95.0) + out * gap;
        Blocker::new(Polygon::new(
            hull_points(vec![c, c + out * 5.0, c + out * 5.0 + u * 5.0, c + u * 5.0]),
            vec![],
        ))
    };
    let (far, near, across) = (post(3e-6), post(1e-6), post(-1.0));
    let (kept, index) = in_sight_hull(&[&spotter, &target], &[&far, &near, &across]);
    assert_eq!(index, vec![1, 2]);
    assert_eq!(kept.len(), 2);
    // Leaving the far post out changes nothing: the side is clear either way, and
    // the whole target is seen.
    let side = (Vec2::new(10.0, 0.0), Vec2::new(60.0, 190.0));
    assert!(segment_is_clear(side.0, side.1, std::slice::from_ref(&far)));
    assert!(clear_sight_segment(&spotter, &target, std::slice::from_ref(&far)).is_some());
    assert_eq!(full_visibility(&spotter, &target, &[far]), FullVisibility::Visible);
}

#[test]
fn an_outline_gives_the_chords_of_its_shape() {
    let square = rect(0.0, 0.0, 10.0, 10.0).vertices_ccw();
    let edge = [Vec2::new(-5.0, 0.0), Vec2::new(5.0, 0.0)];
    for (p, dir) in [
        (Vec2::new(-20.0, 1.0), Vec2::new(1.0, 0.0)),
        (Vec2::new(0.0, -20.0), Vec2::new(0.3, 1.0)),
        (Vec2::new(-20.0, 5.0), Vec2::new(1.0, 0.0)),
        (Vec2::new(-20.0, 0.0), Vec2::new(1.0, 0.0)),
    ] {
        assert_eq!(Outline::new(&square).chord(p, dir, dir.length()), chord(&square, p, dir));
        assert_eq!(Outline::new(&edge).chord(p, dir, dir.length()), chord(&edge, p, dir));
    }
    // Along y = 1 the square x ∈ [-5, 5] is crossed from t = 15 to t = 25 (within the
    // tolerance); the line y = 5 grazes its top edge: a chord too.
    let c = chord(&square, Vec2::new(-20.0, 1.0), Vec2::new(1.0, 0.0)).unwrap_or_default();
    assert!((c.0 - 15.0).abs() < 1e-6 && (c.1 - 25.0).abs() < 1e-6);
    assert!(chord(&square, Vec2::new(-20.0, 5.0), Vec2::new(1.0, 0.0)).is_some());
    assert!(chord(&square, Vec2::new(-20.0, 5.1), Vec2::new(1.0, 0.0)).is_none());
}

#[test]
fn seam_between_touching_blockers_blocks() {
    // Two walls touching along x = 0; a sight line straight up the seam.
    let walls = [wall_from(-20.0, 0.0, 40.0, 60.0), wall_from(0.0, 20.0, 40.0, 60.0)];
    assert!(first_obstruction(Vec2::new(0.0, 0.0), Vec2::new(0.0, 100.0), &walls).is_some());
    // Along the outer edge of one wall alone: grazing, clear.
    assert!(first_obstruction(Vec2::new(20.0, 0.0), Vec2::new(20.0, 100.0), &walls).is_none());
}

#[test]
fn half_open_wall_hides_part_of_the_target() {
    // Spotter edge from (-50,0) to (e,0); target 20x20 centred (0,200), so its
    // corners are x = ±10, y = 190..210; a wall x ∈ [-200, 20], y ∈ [90, 110].
    // Sight from (e,0) passes right of the wall's corner (20,110) iff the target point
    // lies right of the line through them: x = e - (e - 20)·y/110. The binding
    // target corner is (-10,190): e - (e - 20)·190/110 ≤ -10 ⟺ e ≥ 61.25.
    let target = rect(0.0, 200.0, 20.0, 20.0).vertices_ccw();
    let wall = [wall_from(-200.0, 20.0, 90.0, 110.0)];
    let just_in = [Vec2::new(-50.0, 0.0), Vec2::new(61.75, 0.0)];
    let just_out = [Vec2::new(-50.0, 0.0), Vec2::new(60.75, 0.0)];
    assert_eq!(full_visibility(&just_in, &target, &wall), FullVisibility::Visible);
    match full_visibility(&just_out, &target, &wall) {
        FullVisibility::Hidden { witness } => {
            // The hidden sliver is left of the critical line near the corner (-10,190).
            assert!(witness.x < -5.0 && witness.y < 200.0, "{witness:?}");
            assert!(point_sight_segment(&just_out, witness, &wall).is_none());
        }
        FullVisibility::Visible => panic!("the corner (-10,190) should be hidden"),
    }
    // Either way part of the target is seen.
    assert!(clear_sight_segment(&just_out, &target, &wall).is_some());
}

#[test]
fn grazing_a_corner_exactly_is_clear() {
    // Spotter point (0,0), target point (40,200); a wall whose corner (20,100) sits
    // exactly on the line between them, the wall lying to the line's left.
    let wall = [wall_from(-100.0, 20.0, 100.0, 120.0)];
    assert!(segment_is_clear(Vec2::new(0.0, 0.0), Vec2::new(40.0, 200.0), &wall));
    // One tenth of a millimetre further left and the line cuts the wall.
    assert!(!segment_is_clear(Vec2::new(-0.1, 0.0), Vec2::new(39.9, 200.0), &wall));
}

#[test]
fn sight_through_a_gap_between_two_walls() {
    // Walls 20 mm deep leave a 1 mm gap at x ∈ [0, 1]; spotter and target face each
    // other across it, so a near-vertical line through the gap is the only clear one.
    let walls = [wall_from(-300.0, 0.0, 90.0, 110.0), wall_from(1.0, 300.0, 90.0, 110.0)];
    let spotter = [Vec2::new(-5.0, 0.0), Vec2::new(5.0, 0.0)];
    let target = rect(0.5, 200.0, 20.0, 20.0).vertices_ccw();
    let s = clear_sight_segment(&spotter, &target, &walls).unwrap();
    assert!(segment_is_clear(s.a, s.b, &walls));
    assert!(s.a.y.abs() < 1e-9 && (s.b.y - 190.0).abs() < 1e-9);
    // The target's corners are far outside the gap's narrow fan.
    assert_ne!(full_visibility(&spotter, &target, &walls), FullVisibility::Visible);
    // Displaced sideways, no line threads the gap: a line through it must keep
    // |dx/dy| ≤ 1/20, and the shapes are 20+ mm apart sideways over 190 mm.
    let aside = [Vec2::new(-40.0, 0.0), Vec2::new(-20.0, 0.0)];
    let far_target = rect(30.0, 200.0, 20.0, 20.0).vertices_ccw();
    assert!(clear_sight_segment(&aside, &far_target, &walls).is_none());
    let closed = [wall_from(-300.0, 0.0, 90.0, 110.0), wall_from(0.0, 300.0, 90.0, 110.0)];
    assert!(clear_sight_segment(&spotter, &target, &closed).is_none());
}

#[test]
fn non_convex_blocker_with_a_notch() {
    // A U-shaped wood opening toward the spotter: sight enters the notch but the
    // back of the U blocks.
    let u = Blocker::new(Polygon::new(
        vec![
            Vec2::new(-50.0, 100.0),
            Vec2::new(-10.0, 100.0),
            Vec2::new(-10.0, 140.0),
            Vec2::new(10.0, 140.0),
            Vec2::new(10.0, 100.0),
            Vec2::new(50.0, 100.0),
            Vec2::new(50.0, 160.0),
            Vec2::new(-50.0, 160.0),
        ],
        vec![],
    ));
    let spotter = [Vec2::new(-5.0, 0.0), Vec2::new(5.0, 0.0)];
    let inside_notch = rect(0.0, 120.0, 10.0, 10.0).vertices_ccw();
    let behind = rect(0.0, 200.0, 10.0, 10.0).vertices_ccw();
    assert_eq!(full_visibility(&spotter, &inside_notch, std::slice::from_ref(&u)), FullVisibility::Visible);
    assert!(clear_sight_segment(&spotter, &behind, &[u]).is_none());
}

#[test]
fn holes_are_see_through() {
    let ring = Blocker::new(Polygon::new(
        vec![Vec2::new(-50.0, 50.0), Vec2::new(50.0, 50.0), Vec2::new(50.0, 150.0), Vec2::new(-50.0, 150.0)],
        vec![vec![
            Vec2::new(-20.0, 80.0),
            Vec2::new(20.0, 80.0),
            Vec2::new(20.0, 120.0),
            Vec2::new(-20.0, 120.0),
        ]],
    ));
    let spotter = [Vec2::new(-5.0, 0.0), Vec2::new(5.0, 0.0)];
    let in_clearing = rect(0.0, 100.0, 10.0, 10.0).vertices_ccw();
    assert!(clear_sight_segment(&spotter, &in_clearing, &[ring]).is_none());
    assert!(segment_is_clear(
        Vec2::new(0.0, 85.0),
        Vec2::new(0.0, 115.0),
        &[Blocker::new(Polygon::new(
            vec![
                Vec2::new(-50.0, 50.0),
                Vec2::new(50.0, 50.0),
                Vec2::new(50.0, 150.0),
                Vec2::new(-50.0, 150.0)
            ],
            vec![vec![
                Vec2::new(-20.0, 80.0),
                Vec2::new(20.0, 80.0),
                Vec2::new(20.0, 120.0),
                Vec2::new(-20.0, 120.0)
            ]],
        ))]
    ));
}
