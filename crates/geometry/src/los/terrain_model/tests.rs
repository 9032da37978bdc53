//! Tests of the terrain model's stages, beside the code (a sibling file for size).

use super::full_base::{base_cells, nothing_between, outline_points};
use super::limits::{covers_unit, enter_param, leave_param};
use super::search::{edge_points, faced_edges, halves, outline_decides};
use super::views::{Candidates, SpotterView};
use super::*;
use crate::los::occlusion::UnitSight;
use crate::polygon::ConvexPolygon;
use crate::table::UnitKind;

#[test]
fn sampling_grows_with_the_base_only_past_256_points_a_side() {
    // A miniature base: every point 1 mm apart, as documented.
    assert_eq!(pieces(40.0, 1.0), 40);
    assert_eq!(pieces(256.0, 1.0), 256);
    // A 6 m "base" (a table scaled by 100) is sampled by 256 a side, not 6000.
    assert_eq!(pieces(6000.0, 1.0), 256);
    let big: Vec<Vec2> =
        vec![Vec2::new(0.0, 0.0), Vec2::new(6000.0, 0.0), Vec2::new(6000.0, 4000.0), Vec2::new(0.0, 4000.0)];
    let sampling = Sampling::default();
    assert!(outline_points(&big, sampling).len() <= 4 * 256);
    assert!(edge_points(&[[big[0], big[1]]], sampling).len() <= 257);
}

#[test]
fn directions_toward_a_wide_eye_are_bounded_like_its_points() {
    // Issue 41 item 6: a Pro Patria table with bases of metres (its sample scaled by
    // 100). From each target point the search tried a direction every 0.5 mm of the eye
    // seen at its farthest point: 20,000 of them (`los` took 11-18 s), now 256 and the
    // critical ones. A miniature eye keeps its 0.5 mm.
    let text = |w: f64, d: f64, gap: f64| {
        format!(
            r#"{{"schema":"vedette/table/1","rules":"pro-patria","scale":"28mm","units":[
              {{"id":"a","side":"fr","kind":"infantry","bases":[{{"x":0,"y":0,"heading":90,"width":{w},"depth":{d}}}]}},
              {{"id":"b","side":"au","kind":"infantry","bases":[{{"x":0,"y":{gap},"heading":270,"width":{w},"depth":{d}}}]}}]}}"#
        )
    };
    for (w, d, gap, most) in [(4000.0, 2500.0, 60_000.0, 256 + 64), (40.0, 25.0, 600.0, 2 * 40 * 2 + 64)] {
        let t = Table::from_json_str(&text(w, d, gap)).unwrap_or_else(|e| panic!("{e}"));
        let index = SpatialIndex::new(&t);
        let los = TerrainSight::try_new(&index).unwrap_or_else(|e| panic!("{e}"));
        let (a, b) = (BaseRef::new(0, 0), BaseRef::new(1, 0));
        let eye = los.eye_of(t.base(a).unwrap_or_else(|| panic!("no base")));
        let p = los.pair(a, &eye, b).unwrap_or_else(|| panic!("no pair"));
        let target = t.base(b).unwrap_or_else(|| panic!("no base")).vertices_ccw();
        for q in target {
            let (_, angles) = los.search_angles(&p, q).unwrap_or_else(|| panic!("inside the eye"));
            // The uniform directions, the middles beside each critical one, the critical.
            assert!(angles.len() <= 2 * most, "{w} mm wide: {} directions from {q:?}", angles.len());
            assert!(angles.len() > most / 4, "{w} mm wide: {} directions from {q:?}", angles.len());
        }
    }
}

#[test]
fn many_workers_on_a_small_table_build_the_occluders_once() {
    // Two units and sixteen workers: most workers take no part of the occluders. One
    // of them finishing last used to put together an empty set first (a panic on a
    // unit's blocks, about one run in two of this test). Many fresh models, each asked once.
    let t = scene((0.0, 150.0, 30.0, 20.0), "", &wood(-200.0, 100.0, 200.0, 120.0));
    let index = SpatialIndex::new(&t);
    let one =
        TerrainSight::try_new(&index).unwrap_or_else(|e| panic!("{e}")).unit_verdicts(&[(0, 1), (1, 0)], 1);
    for _ in 0..3000 {
        let los = TerrainSight::try_new(&index).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(los.unit_verdicts(&[(0, 1), (1, 0)], 16), one);
    }
}

/// A battery at the origin facing +y (eye x ∈ [-12.5, 12.5] at y = 20), a foe, and
/// the terrain and other units given, under République 5 at medium scale (a medium
/// forest's spotting depth is 1" = 25.4 mm).
fn scene(foe: (f64, f64, f64, f64), others: &str, terrain: &str) -> Table {
    let (x, y, w, d) = foe;
    let text = format!(
        r#"{{"schema":"vedette/table/1","rules":"republique5","scale":"medium","units":[
          {{"id":"gun","side":"fr","kind":"artillery","bases":[{{"x":0,"y":0,"heading":90,"width":25,"depth":40}}]}},
          {{"id":"foe","side":"au","kind":"infantry","formation":"line","bases":[{{"x":{x},"y":{y},"heading":270,"width":{w},"depth":{d}}}]}}{others}],
          "terrain":[{terrain}]}}"#
    );
    Table::from_json_str(&text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// The gun of [`scene`] and a foe (30 × 20, turned 0.64° off facing it) with its near
/// side `n` mm into a medium wood from y = 100 on.
fn turned_foe_in_wood(n: f64) -> Table {
    let text = format!(
        r#"{{"schema":"vedette/table/1","rules":"republique5","scale":"medium","units":[
          {{"id":"gun","side":"fr","kind":"artillery","bases":[{{"x":0,"y":0,"heading":90,"width":25,"depth":40}}]}},
          {{"id":"foe","side":"au","kind":"infantry","formation":"line","bases":[{{"x":0.37,"y":{},"heading":269.36,"width":30,"depth":20}}]}}],
          "terrain":[{}]}}"#,
        100.0 + n + 10.0,
        wood(-200.0, 100.0, 200.0, 400.0)
    );
    Table::from_json_str(&text).unwrap_or_else(|e| panic!("{e}"))
}

/// Runs `f` with the sight model of `t`, the pair from the gun (unit 0) to the foe
/// (unit 1), and the middle of the gun's eye.
fn with_gun_and_foe(t: &Table, f: impl FnOnce(&TerrainSight<'_, '_>, &Pair<'_>, Vec2)) {
    let index = SpatialIndex::new(t);
    let los = TerrainSight::try_new(&index).unwrap_or_else(|e| panic!("{e}"));
    let eye = los.eye_of(&t.units[0].bases[0]);
    let p = los.pair(BaseRef::new(0, 0), &eye, BaseRef::new(1, 0)).unwrap_or_else(|| panic!("pair"));
    f(&los, &p, eye[0].lerp(eye[1], 0.5));
}

/// Whether the gun (unit 0) sees a full base of the foe (unit 1), with the shortcuts
/// and by the exhaustive search (the two must agree).
fn full_base_seen(t: &Table) -> bool {
    let index = SpatialIndex::new(t);
    let los = TerrainSight::try_new(&index).unwrap_or_else(|e| panic!("{e}"));
    let exhaustive =
        TerrainSight::try_new(&index).unwrap_or_else(|e| panic!("{e}")).with_proof(Proof::Exhaustive);
    let seen = los.unit_verdict(0, 1).full_base.is_some();
    assert_eq!(seen, exhaustive.unit_verdict(0, 1).full_base.is_some());
    seen
}

fn wood(x0: f64, y0: f64, x1: f64, y1: f64) -> String {
    format!(
        r#"{{"id":"wood","kind":"medium-forest","outline":[[{x0},{y0}],[{x1},{y0}],[{x1},{y1}],[{x0},{y1}]]}}"#
    )
}

#[test]
fn a_view_proposes_every_base_a_pair_keeps_as_a_blocker() {
    // The grand battle: for every 25th battery and every enemy unit, the blockers a pair
    // keeps from the view's candidates (boxes culled by the sight hulls' sides) are the
    // blockers it keeps from the index's box query.
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples/grand-battle.json");
    let table = Table::load(&path).unwrap_or_else(|e| panic!("{e}"));
    let index = SpatialIndex::new(&table);
    let sight = TerrainSight::try_new(&index).unwrap_or_else(|e| panic!("{e}"));
    let (mut pairs, mut culled) = (0, 0);
    for (su, spotter) in
        table.units.iter().enumerate().filter(|(_, u)| u.kind == UnitKind::Artillery).step_by(25)
    {
        let sr = BaseRef::new(su, 0);
        let eye = sight.eye_of(&spotter.bases[0]);
        let view = SpotterView { sight: &sight, base: sr, eye: eye.clone(), occlusion: Vec::new() };
        for (tu, target) in table.units.iter().enumerate().filter(|(_, u)| u.side != spotter.side) {
            let cands = view.candidates(tu, target);
            for ti in 0..target.bases.len() {
                let tr = BaseRef::new(tu, ti);
                let sources = |c: Option<&Candidates>| {
                    sight.pair_among(sr, &eye, tr, c).map(|p| p.owned.iter().map(|o| o.1).collect::<Vec<_>>())
                };
                assert_eq!(sources(Some(&cands)), sources(None), "{} -> {}", spotter.id, target.id);
                pairs += 1;
            }
            let (lo, hi) = target.bases.iter().chain(std::iter::once(&spotter.bases[0])).fold(
                (Vec2::new(f64::INFINITY, f64::INFINITY), Vec2::new(f64::NEG_INFINITY, f64::NEG_INFINITY)),
                |(l, h), b| {
                    let (bl, bh) = b.aabb();
                    (Vec2::new(l.x.min(bl.x), l.y.min(bl.y)), Vec2::new(h.x.max(bh.x), h.y.max(bh.y)))
                },
            );
            culled += index.bases_in_box(lo, hi).len().saturating_sub(cands.bases.len());
        }
    }
    // The test means something: many pairs, and the sides cull many boxes.
    assert!(pairs > 3000 && culled > 50 * pairs, "{pairs} pairs, {culled} culled");
}

#[test]
fn a_line_enters_the_target_where_it_first_meets_it_whatever_the_rounding() {
    use crate::base::{BaseSize, Pose};
    // A sample battery's eye and a turned foe base (grand battle): every point along
    // the foe's far edge (2 mm or more from its ends) is reached through the base, so
    // the line enters it where it crosses a near side, 0.96 to 0.998 of the way, at
    // least 0.04 mm before the point. (Found by splitting the segment
    // at each crossing and testing midpoints, points exactly on the far edge came out
    // outside by rounding about half the time, and the line was taken to enter the
    // base at its far end, counting the base's own depth into the spotting depth.)
    let foe = Base::new(BaseSize::new(30.0, 20.0), Pose::new(Vec2::new(1691.997, 1562.076), 269.36));
    let eye = Vec2::new(889.0844847804898, 1359.8975756244683);
    let shape = Blocker::from_base(&foe);
    let v = foe.vertices_ccw();
    let (far_a, far_b) = (1..4)
        .map(|i| (v[i], v[(i + 1) % 4]))
        .max_by(|x, y| x.0.lerp(x.1, 0.5).distance(eye).total_cmp(&y.0.lerp(y.1, 0.5).distance(eye)))
        .unwrap_or((v[0], v[1]));
    for k in 14..=186 {
        let t = far_a.lerp(far_b, k as f64 / 200.0);
        let entry = enter_param(&shape, eye, t);
        let at = eye.lerp(t, entry);
        assert!(entry > 0.95 && at.distance(t) > 0.04, "{k}: {entry}");
        // On the outline, and outside just before.
        assert!(
            foe.distance_to_point(at) < 1e-9 && !foe.polygon().contains(eye.lerp(t, entry - 1e-6)),
            "{k}"
        );
    }
    // Not reaching the base at all, or ending on its near edge: 1.
    let near = v[0].lerp(v[3], 0.5);
    assert!(enter_param(&shape, eye, eye.lerp(near, 0.5)) == 1.0);
    assert!((enter_param(&shape, eye, near) - 1.0).abs() < 1e-12);
    // Leaving the spotter: 0 from its front edge outward, the far side when the line
    // runs back through it.
    let gun = Base::new(BaseSize::new(25.0, 40.0), Pose::new(Vec2::new(0.0, 0.0), 90.0));
    let gun_shape = Blocker::from_base(&gun);
    let front = gun.front_edge();
    let e = front.a.lerp(front.b, 0.3);
    assert_eq!(leave_param(&gun_shape, e, Vec2::new(3.0, 200.0)), 0.0);
    let back = leave_param(&gun_shape, e, Vec2::new(e.x, -100.0));
    assert!((back - 40.0 / 120.0).abs() < 1e-12, "{back}");
}

#[test]
fn a_foe_in_a_wood_is_wholly_seen_when_its_near_side_is_within_the_spotting_depth() {
    // Medium wood from y = 100 on (spotting depth 1" = 25.4 mm); the foe, 30 × 20 and
    // turned 0.64° off facing the gun, stands with its near side n mm into the wood.
    // Every point of it, far side included, is reached by lines that first meet it
    // on its near side, at most n / cos(1.5°) < 22.9 mm into the wood for n = 22.86
    // (0.9"): the whole base is seen, though its far side is 42.86 mm in. At
    // n = 27.94 (1.1") no line passes at all.
    for (n, visible) in [(22.86, true), (27.94, false)] {
        let t = turned_foe_in_wood(n);
        let index = SpatialIndex::new(&t);
        let los = TerrainSight::try_new(&index).unwrap_or_else(|e| panic!("{e}"));
        let v = los.unit_verdict(0, 1);
        assert_eq!((v.visible, v.full_base.is_some()), (visible, visible), "{n}");
    }
}

/// What the occlusion sweep of the gun (unit 0) proved of the foe (unit 1).
fn swept(t: &Table) -> UnitSight {
    let index = SpatialIndex::new(t);
    let los = TerrainSight::try_new(&index).unwrap_or_else(|e| panic!("{e}"));
    let view = los.spotter(0);
    view.views[0].occlusion[1]
}

#[test]
fn a_corner_the_sweep_hides_shows_the_base_is_not_wholly_seen() {
    // A friendly line x -10..45, y 110..130 (it blocks the gun) before the foe,
    // x 60..90, y 210..230. The lines to the foe's near left corner (60, 210) from
    // the eye's ends cross y = 110..130 at x 35.0..40.0 (from x = 12.5) and
    // 21.8..29.5 (from x = -12.5): at least 5 mm inside the line, so that corner is
    // hidden from the whole eye. The far right corner (90, 230) is seen from
    // x = 12.5, passing the line's right end at x = 45.7. So the foe is seen, no
    // base of it wholly: the sweep proves the hidden corner, and the search agrees.
    let line = r#",{"id":"line","side":"fr","kind":"infantry","formation":"line","bases":[{"x":17.5,"y":120,"heading":90,"width":55,"depth":20}]}"#;
    let t = scene((75.0, 220.0, 30.0, 20.0), line, "");
    assert_eq!(swept(&t), UnitSight::Partly { hidden: 0, not_whole: 1 });
    let index = SpatialIndex::new(&t);
    let los = TerrainSight::try_new(&index).unwrap_or_else(|e| panic!("{e}"));
    assert!(los.unit_verdict(0, 1).visible);
    assert!(!full_base_seen(&t));
    // With the line 20 mm further left, every corner is seen: nothing is proved.
    let moved = line.replace(r#""x":17.5"#, r#""x":-2.5"#);
    let t = scene((75.0, 220.0, 30.0, 20.0), &moved, "");
    assert_eq!(swept(&t), UnitSight::Partly { hidden: 0, not_whole: 0 });
    assert!(full_base_seen(&t));
    // The threshold: with the line from x = -10 to x_r, the hardest foe point is
    // (60, 230), whose best line, from the eye's end (12.5, 20), crosses y = 110 at
    // x = 12.5 + 47.5 · 90/210 = 32.857 (from eye points further left it crosses
    // further left). So the foe is wholly seen when x_r < 32.857: at 32.5 (0.36 mm
    // inside) it is, at 33.2 (0.34 mm outside) it is not. Whatever the sweep proves
    // there, the verdict is the exhaustive search's.
    for (right, whole) in [(32.5, true), (33.2, false)] {
        let (x, w) = ((right - 10.0) / 2.0, right + 10.0);
        let other = line
            .replace(r#""x":17.5"#, &format!(r#""x":{x}"#))
            .replace(r#""width":55"#, &format!(r#""width":{w}"#));
        let t = scene((75.0, 220.0, 30.0, 20.0), &other, "");
        let index = SpatialIndex::new(&t);
        let los = TerrainSight::try_new(&index).unwrap_or_else(|e| panic!("{e}"));
        assert!(los.unit_verdict(0, 1).visible, "{right}");
        assert_eq!(full_base_seen(&t), whole, "{right}");
    }
}

#[test]
fn a_gun_in_a_wood_sees_the_far_corners_of_a_foe_whose_near_side_is_within_the_depth() {
    // The gun stands in a medium wood (y -100..60, spotting depth 25.4 mm), its eye
    // at y = 20; the foe, x -15..15, y 42..62. Each point of the foe is reached by a
    // line from the eye point below it (or from the eye's end, 2.5 mm aside) that
    // runs 22 mm (at most 22.14 mm) in the wood before it meets the foe: the whole
    // base is seen, though lines to its far side run 40 mm and more in the wood.
    // The sweep's pieces beyond the depth around the gun would hide those far
    // corners, so it judges no corners here. At 26 mm (near side at y = 46) no
    // line passes: every line runs 26 mm or more in the wood before the foe.
    for (n, visible) in [(22.0, true), (25.0, true), (26.0, false)] {
        let y = 20.0 + n + 10.0;
        let t = scene((0.0, y, 30.0, 20.0), "", &wood(-200.0, -100.0, 200.0, 60.0));
        assert!(matches!(swept(&t), UnitSight::Partly { not_whole: 0, .. } | UnitSight::Hidden), "{n}");
        let index = SpatialIndex::new(&t);
        let los = TerrainSight::try_new(&index).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(los.unit_verdict(0, 1).visible, visible, "{n}");
        assert_eq!(full_base_seen(&t), visible, "{n}");
    }
}

#[test]
fn the_eye_is_cut_only_where_every_line_runs_deeper_than_the_spotting_depth() {
    // Medium wood from y = 100 on (depth 25.4 mm); the foe's near edge at y = 100 + h,
    // and t = (xt, 100 + h) on it; the eye is y = 20, x ∈ [-12.5, 12.5]. A line from
    // eye point x to t enters the wood at y = 100 and runs h·√(1 + (xt − x)²/(80 + h)²)
    // in it. Worked out: xt = 60, h = 22.86 (0.9"): deeper than 25.4 for x < 10.18;
    // xt = 0, h = 25.3: for |x| > 9.37 only (just inside the depth straight ahead);
    // xt = 0, h = 25.5 (just outside) and xt = 60, h = 24: from the whole eye.
    let run = |x: f64, xt: f64, h: f64| h * (1.0 + (xt - x).powi(2) / (80.0 + h).powi(2)).sqrt();
    /// (xt, h, whether the whole eye is cut, where lines run deeper than the depth).
    type Case = (f64, f64, bool, fn(f64) -> bool);
    let cases: [Case; 4] = [
        (60.0, 22.86, false, |x: f64| x < 10.18),
        (0.0, 25.3, false, |x: f64| x.abs() > 9.37),
        (0.0, 25.5, true, |_: f64| true),
        (60.0, 24.0, true, |_: f64| true),
    ];
    for (xt, h, whole, deeper_than) in cases {
        let t = scene((xt, 110.0 + h, 30.0, 20.0), "", &wood(-200.0, 100.0, 200.0, 400.0));
        let index = SpatialIndex::new(&t);
        let los = TerrainSight::try_new(&index).unwrap_or_else(|e| panic!("{e}"));
        let eye = los.eye_of(&t.units[0].bases[0]);
        let p = los.pair(BaseRef::new(0, 0), &eye, BaseRef::new(1, 0)).unwrap_or_else(|| panic!("pair"));
        let blockers = p.blockers();
        let target = Vec2::new(xt, 100.0 + h);
        let cut = los.depth_cut_eye(&p, target);
        assert_eq!(covers_unit(&cut), whole, "{xt} {h}: {cut:?}");
        for k in 0..=250 {
            let s = k as f64 / 250.0;
            let e = eye[0].lerp(eye[1], s);
            assert!((deeper_than(e.x) == (run(e.x, xt, h) > 25.4)) || (run(e.x, xt, h) - 25.4).abs() < 0.01);
            if cut.iter().any(|&(lo, hi)| s >= lo && s <= hi) {
                // Proved cut: deeper, and the check agrees.
                assert!(run(e.x, xt, h) > 25.4, "{xt} {h} {}", e.x);
                assert!(!los.check(&p, e, target, &blockers, false, &mut Vec::new()), "{xt} {h} {}", e.x);
            } else {
                // Not proved: within one piece (25/32 mm) of where the run reaches the
                // depth.
                let near = [-0.79, 0.79].iter().any(|dx| !deeper_than(e.x + dx));
                assert!(near, "{xt} {h}: {} left out", e.x);
            }
        }
    }
}

#[test]
fn a_friendly_base_between_shades_the_eye_past_the_lines_through_its_corners() {
    // A friendly line base (x ∈ [-50, -10], y ∈ [50, 70]) stands between the gun's eye
    // (y = 20, x ∈ [-12.5, 12.5]) and t = (0, 200) on the foe's near edge. Shrunk by
    // 0.05 mm, its corner (-10.05, 50.05) is the one nearest the eye's middle seen
    // from t: the line through it meets the eye at x = -10.05 · 180 / 149.95 =
    // -12.0640. So the eye is shaded for x < -12.0640 only; the base itself shades
    // up to x = -12 (through (-10, 50)), the 0.064 mm between left to the search.
    let friend = r#",{"id":"line","side":"fr","kind":"infantry","formation":"line","bases":[{"x":-30,"y":60,"heading":90,"width":40,"depth":20}]}"#;
    let t = scene((0.0, 210.0, 30.0, 20.0), friend, "");
    let index = SpatialIndex::new(&t);
    let los = TerrainSight::try_new(&index).unwrap_or_else(|e| panic!("{e}"));
    let eye = los.eye_of(&t.units[0].bases[0]);
    let p = los.pair(BaseRef::new(0, 0), &eye, BaseRef::new(1, 0)).unwrap_or_else(|| panic!("pair"));
    let blockers = p.blockers();
    let target = Vec2::new(0.0, 200.0);
    let shaded = los.shaded_eye(&p, target);
    assert_eq!(shaded.len(), 1, "{shaded:?}");
    let edge = -10.05 * 180.0 / 149.95;
    for k in 0..=1000 {
        let s = k as f64 / 1000.0;
        let e = eye[0].lerp(eye[1], s);
        let in_shade = shaded.iter().any(|&(lo, hi)| s >= lo && s <= hi);
        assert_eq!(in_shade, e.x < edge - 1e-6, "{}", e.x);
        if in_shade {
            assert!(!los.check(&p, e, target, &blockers, false, &mut Vec::new()), "{}", e.x);
        }
    }
    // Just past the shade the line is clear: x = -11.9 passes right of (-10, 50).
    let clear = Vec2::new(-11.9, 20.0);
    assert!(los.check(&p, clear, target, &blockers, false, &mut Vec::new()));
}

#[test]
fn a_far_side_beyond_the_depth_is_seen_through_a_near_side_just_within_it() {
    // The foe (30 × 20) faces the gun squarely with its near side n mm into a medium
    // wood from y = 100 on (depth 25.4 mm); its far side is n + 20 mm in. Every point
    // of it is first met on its near side (or from the side, at a corner), by lines
    // that run at most n·√(1 + (2.5/(80 + n))²) in the wood (eye x ∈ [-12.5, 12.5],
    // foe x ∈ [-15, 15]): 25.307 mm for n = 25.3, just within 25.4, so the whole base,
    // far side 45.3 mm in included, is seen. For n = 25.5 every line runs at least
    // 25.5 mm: nothing is seen. The exhaustive search agrees on both.
    for (n, seen) in [(25.3, true), (25.5, false)] {
        let t = scene((0.0, 110.0 + n, 30.0, 20.0), "", &wood(-200.0, 100.0, 200.0, 400.0));
        let index = SpatialIndex::new(&t);
        let los = TerrainSight::try_new(&index).unwrap_or_else(|e| panic!("{e}"));
        let exhaustive =
            TerrainSight::try_new(&index).unwrap_or_else(|e| panic!("{e}")).with_proof(Proof::Exhaustive);
        for v in [los.unit_verdict(0, 1), exhaustive.unit_verdict(0, 1)] {
            assert_eq!((v.visible, v.full_base.is_some()), (seen, seen), "{n}");
        }
    }
}

#[test]
fn the_whole_base_passes_from_an_eye_point_only_within_the_bound() {
    // Medium wood from y = 100 on (depth 25.4 mm); the foe, 30 × 20 turned 0.64°,
    // its near side n mm into the wood; the eye point h = (0, 20). Segments from h
    // reach the foe's near side at most √(15.4² + (80 + n)²) from h, and run at
    // least 80 mm (to y = 100) before the wood: for n = 22.86 the bound is 104.0 −
    // 80 = 24.0 ≤ 25.4, the whole base passes at once. For n = 24.5 it is 25.6: not
    // proved (each line in fact runs at most 24.8 mm in the wood, so the grid finds
    // the whole base seen). The verdicts are those of the exhaustive search.
    for (n, proved, full) in [(22.86, true, true), (24.5, false, true)] {
        let t = turned_foe_in_wood(n);
        with_gun_and_foe(&t, |los, p, h| {
            assert!((h - Vec2::new(0.0, 20.0)).length() < 1e-9);
            assert_eq!(los.whole_base_passes_from(p, h, &p.blockers()), proved, "{n}");
        });
        assert_eq!(full_base_seen(&t), full, "{n}");
    }
    // A friendly base inside the hull of h and the foe (x ∈ [2, 22], y ∈ [60, 70]; the
    // lines from h to the foe's near side pass x ∈ [-6.6, 6.6] at y = 65): not proved
    // from h.
    // Moved right to x ∈ [8, 28], clear of those lines: proved.
    for (x, proved) in [(12.0, false), (18.0, true)] {
        let friend = format!(
            r#",{{"id":"line","side":"fr","kind":"infantry","formation":"line","bases":[{{"x":{x},"y":65,"heading":90,"width":20,"depth":10}}]}}"#
        );
        let t = scene((0.0, 132.86, 30.0, 20.0), &friend, &wood(-200.0, 100.0, 200.0, 400.0));
        with_gun_and_foe(&t, |los, p, h| {
            assert_eq!(los.whole_base_passes_from(p, h, &p.blockers()), proved, "{x}");
        });
    }
}

#[test]
fn cells_of_the_base_pass_from_an_eye_point_where_the_whole_base_does_not() {
    // Medium wood from y = 100 on (depth 25.4 mm); the foe, 40 × 20 facing the gun,
    // its near side at y = 124; the eye point h = (0, 20). A line from h toward a
    // point meets the base on the near side, and the wood at y = 100: 80 / cos θ from
    // h, θ its angle off straight ahead.
    // - Whole base: the lines reach the near side at most √(20² + 104²) = 105.906
    //   from h, and the wedge holds θ = 0: 105.906 − 80 = 25.906 > 25.4, not proved.
    // - Cut 4 × 4 (10 × 5 mm cells). The middle cells (x ∈ [−10, 10]): reach at most
    //   √(10² + 104²) = 104.481, θ = 0 in the wedge: 24.481 ≤ 25.4, proved.
    // - Outer cells, x ∈ [10, 20], by row (the wedge's least θ is at the corner
    //   (10, y1), y1 the row's far side; reach at the corner (20, 124) when the wedge
    //   holds it, else where the line to (20, y0) enters, x = 20·104 / (y0 − 20)):
    //   y ∈ [124, 129]: 105.906 − 80 / cos 5.241° = 105.906 − 80.335 = 25.571;
    //   y ∈ [129, 134]: 105.736 − 80 / cos 5.013° = 105.736 − 80.307 = 25.429, not
    //   proved (just outside); y ∈ [134, 139]: 105.590 − 80.281 = 25.309, proved
    //   (just within); y ∈ [139, 144]: 105.459 − 80.259 = 25.200, proved.
    // Every line in fact runs at most 24.44 mm in the wood: the base is wholly seen,
    // as the exhaustive search finds.
    let t = scene((0.0, 134.0, 40.0, 20.0), "", &wood(-200.0, 100.0, 200.0, 400.0));
    with_gun_and_foe(&t, |los, p, h| {
        assert!((h - Vec2::new(0.0, 20.0)).length() < 1e-9);
        let blockers = p.blockers();
        assert!(!los.whole_base_passes_from(p, h, &blockers));
        let cells = base_cells(&p.target.vertices_ccw(), 4);
        assert_eq!(cells.len(), 16);
        for c in &cells {
            let mid = c.iter().fold(Vec2::ZERO, |a, &q| a + q) / 4.0;
            assert!(
                c.iter().all(|q| q.x.abs() <= 20.0 + 1e-9 && (124.0 - 1e-9..=144.0 + 1e-9).contains(&q.y))
            );
            assert_eq!(
                los.region_passes_from(p, h, c, &blockers),
                mid.x.abs() < 10.0 || mid.y > 134.0,
                "{mid:?}"
            );
        }
    });
    assert!(full_base_seen(&t));
    // 2 mm deeper (near side at y = 126), the middle cells' bound is 26.5 and the outer
    // ones' more: none pass.
    let t = scene((0.0, 136.0, 40.0, 20.0), "", &wood(-200.0, 100.0, 200.0, 400.0));
    with_gun_and_foe(&t, |los, p, h| {
        let blockers = p.blockers();
        assert!(
            base_cells(&p.target.vertices_ccw(), 4)
                .iter()
                .all(|c| !los.region_passes_from(p, h, c, &blockers))
        );
    });
}

#[test]
fn a_gun_in_a_wood_sees_the_whole_base_when_every_line_leaves_the_wood_within_the_depth() {
    // The gun stands in a medium wood (depth 25.4 mm) whose edge runs at y = 20 + e;
    // the foe, 40 × 20 facing it in the open, y ∈ [200, 220]. From the eye point
    // h = (0, 20) the lines to the foe spread at most atan(20 / 180) = 6.340° off
    // straight ahead and leave the wood where they cross its edge, at most
    // e / cos 6.340° = 1.006154·e from h, and no line re-enters. e = 25.0: 25.154 ≤
    // 25.4, the whole base passes from h at once (the bound from the run to the base,
    // 181.1 from inside the wood, could not tell). e = 25.3: 25.456 > 25.4, not
    // proved (the line to the far corner does run 25.456 in the wood). e = 185: the
    // wood reaches the foe (y = 205), the lines need not leave it first: not proved.
    for (e, proved) in [(25.0, true), (25.3, false), (185.0, false)] {
        let t = scene((0.0, 210.0, 40.0, 20.0), "", &wood(-200.0, -100.0, 200.0, 20.0 + e));
        with_gun_and_foe(&t, |los, p, h| {
            assert!(p.has_limits(), "{e}");
            assert_eq!(los.whole_base_passes_from(p, h, &p.blockers()), proved, "{e}");
        });
    }
    // Where it is proved, the base is wholly seen, as the exhaustive search finds.
    assert!(full_base_seen(&scene((0.0, 210.0, 40.0, 20.0), "", &wood(-200.0, -100.0, 200.0, 45.0))));
}

#[test]
fn halves_cut_a_cell_across_its_longest_edge() {
    let cell = ConvexPolygon::from_ccw_unchecked(vec![
        Vec2::new(0.0, 0.0),
        Vec2::new(40.0, 0.0),
        Vec2::new(40.0, 10.0),
        Vec2::new(0.0, 10.0),
    ]);
    let [a, b] = halves(&cell);
    assert!((a.area() - 200.0).abs() < 1e-9 && (b.area() - 200.0).abs() < 1e-9);
    // Cut at x = 20: one half left of it, the other right.
    let xs = |c: &ConvexPolygon| c.vertices().iter().map(|v| v.x).fold(0.0, f64::max);
    assert!((xs(&a).min(xs(&b)) - 20.0).abs() < 1e-9);
}

#[test]
fn cells_are_proved_hidden_only_beyond_the_spotting_depth() {
    // Wood y ∈ [100, 400]; the foe (30 × 20) faces the gun with its front edge at
    // y = 100 + d, so every line runs at least d in the wood before it (d straight
    // up). d = 25.3 mm: the straight lines pass, no cell is hidden. d = 25.5 mm:
    // the whole base is one hidden cell.
    for (d, hidden) in [(25.3, false), (25.5, true)] {
        let t = scene((0.0, 110.0 + d, 30.0, 20.0), "", &wood(-200.0, 100.0, 200.0, 400.0));
        let index = SpatialIndex::new(&t);
        let los = TerrainSight::try_new(&index).unwrap_or_else(|e| panic!("{e}"));
        let eye = los.eye_of(&t.units[0].bases[0]);
        let p = los.pair(BaseRef::new(0, 0), &eye, BaseRef::new(1, 0)).unwrap_or_else(|| panic!("pair"));
        let tv = p.target.vertices_ccw();
        let cells = los.hidden_cells(&p, &tv);
        if hidden {
            assert_eq!(cells.len(), 1);
            assert!((cells[0].area() - 600.0).abs() < 1e-6);
        } else {
            assert!(cells.is_empty(), "{cells:?}");
        }
        let exhaustive =
            TerrainSight::try_new(&index).unwrap_or_else(|e| panic!("{e}")).with_proof(Proof::Exhaustive);
        assert_eq!(los.unit_verdict(0, 1), exhaustive.unit_verdict(0, 1));
        assert_eq!(los.unit_verdict(0, 1).visible, !hidden);
    }
}

#[test]
fn the_outline_search_finds_what_the_whole_grid_finds() {
    // A foe in, behind or straddling a medium wood (spotting depth 25.4 mm), some
    // half screened by a line of foes: with spotting depth the only limit, a sight
    // line is searched on the foe's outline only; the answer must be the one the
    // whole 1 mm grid gives, including just inside and just outside the depth.
    let screen = r#",{"id":"line","side":"au","kind":"infantry","formation":"line","bases":[{"x":-30.5,"y":60,"heading":270,"width":60,"depth":20}]}"#;
    let cases = [
        ((0.0, 135.3, 30.0, 20.0), "", (-200.0, 100.0), true),
        ((0.0, 135.5, 30.0, 20.0), "", (-200.0, 100.0), false),
        ((-20.0, 137.0, 60.0, 20.0), screen, (0.0, 100.0), true),
        ((-40.0, 160.0, 60.0, 20.0), screen, (0.0, 100.0), true),
        ((60.0, 180.0, 40.0, 20.0), "", (0.0, 100.0), false),
        ((-25.0, 150.0, 30.0, 20.0), screen, (-200.0, 120.0), true),
        ((-25.0, 157.0, 30.0, 20.0), screen, (-200.0, 120.0), false),
    ];
    for (foe, others, (x0, y0), visible) in cases {
        let t = scene(foe, others, &wood(x0, y0, 400.0, 400.0));
        let index = SpatialIndex::new(&t);
        let los = TerrainSight::try_new(&index).unwrap_or_else(|e| panic!("{e}"));
        let eye = los.eye_of(&t.units[0].bases[0]);
        let p = los.pair(BaseRef::new(0, 0), &eye, BaseRef::new(1, 0)).unwrap_or_else(|| panic!("pair"));
        assert!(outline_decides(&p));
        let blockers = p.blockers();
        let whole_grid =
            los.grid(&p.target.vertices_ccw()).iter().any(|&q| los.point_search(&p, q, &blockers).is_some());
        let outline = los.decide(&p, false).visible;
        assert_eq!((outline, whole_grid), (visible, visible), "{foe:?}");
    }
}

#[test]
fn only_the_edges_the_eye_faces_are_searched() {
    let square = [Vec2::new(0.0, 0.0), Vec2::new(10.0, 0.0), Vec2::new(10.0, 10.0), Vec2::new(0.0, 10.0)];
    let bottom = [square[0], square[1]];
    let right = [square[1], square[2]];
    let left = [square[3], square[0]];
    // Straight below: the bottom edge only.
    let below = [Vec2::new(2.0, -50.0), Vec2::new(8.0, -50.0)];
    assert_eq!(faced_edges(&below, &square), vec![bottom]);
    // Below and to the right: the bottom and the right edges.
    assert_eq!(faced_edges(&[Vec2::new(20.0, -50.0), Vec2::new(30.0, -50.0)], &square), vec![bottom, right]);
    // An eye end on the line of the left edge (a grazing line along it) keeps it.
    assert_eq!(faced_edges(&[Vec2::new(0.0, -50.0), Vec2::new(5.0, -50.0)], &square), vec![bottom, left]);
    // Points: the corners of the faced edges once each, then 1 mm steps along them.
    let pts = edge_points(&faced_edges(&below, &square), Sampling::default());
    assert_eq!(pts.len(), 2 + 9);
    let pts = edge_points(&[left, bottom], Sampling::default());
    assert_eq!(&pts[..3], &[square[3], square[0], square[1]]);
    assert_eq!(pts.len(), 3 + 2 * 9);
}

#[test]
fn trying_the_last_clear_direction_first_gives_the_same_answer() {
    // The foe (60 wide) straddles the corner of the wood x ≥ 0, y ≥ 100, its front
    // edge at y = 127 (27 mm in, where it is in the wood); a line of foes at
    // y ∈ [50, 70], x ≤ -0.5 screens part of it. Some of its points are seen, some
    // not (checked below); every point tried gets the same answer with and without
    // the hint.
    let others = r#",{"id":"line","side":"au","kind":"infantry","formation":"line","bases":[{"x":-30.5,"y":60,"heading":270,"width":60,"depth":20}]}"#;
    let t = scene((-20.0, 137.0, 60.0, 20.0), others, &wood(0.0, 100.0, 400.0, 400.0));
    let index = SpatialIndex::new(&t);
    let los = TerrainSight::try_new(&index).unwrap_or_else(|e| panic!("{e}"));
    let eye = los.eye_of(&t.units[0].bases[0]);
    let p = los.pair(BaseRef::new(0, 0), &eye, BaseRef::new(1, 0)).unwrap_or_else(|| panic!("pair"));
    let blockers = p.blockers();
    let mut hint = None;
    let (mut seen, mut hidden) = (0, 0);
    for q in los.grid(&p.target.vertices_ccw()).into_iter().step_by(7) {
        let found = los.point_search(&p, q, &blockers).is_some();
        assert_eq!(los.point_seen(&p, q, &blockers, &mut hint), found, "{q:?}");
        if found { seen += 1 } else { hidden += 1 }
    }
    assert!(seen > 0 && hidden > 0, "{seen} {hidden}");
}

#[test]
fn a_wood_strip_deeper_than_the_spotting_depth_hides_a_foe_in_the_wood_beyond_exactly() {
    // One medium wood (depth 25.4 mm) shaped like a hook: a strip y ∈ [100, 100 + w]
    // across the gun's view (x ∈ [-200, 180]), an arm up its right (x ∈ [180, 200]),
    // and a patch x ∈ [-50, 200], y ∈ [300, 400]. The foe (x ∈ [-15, 15], y ∈ [290,
    // 310]) stands half in the patch. Every sight line crosses the strip, at least w
    // inside it (straight up); the foe's half outside the patch needs no more. So
    // the foe is seen for w ≤ 25.4 and hidden beyond: w = 25.3 (0.1 inside) is seen,
    // w = 25.5 (0.1 outside) is not, and that is proved exactly, by the strip's deep
    // core (the points 12.7 mm inside it), with no bounded search.
    for (w, seen) in [(25.0, true), (25.3, true), (25.5, false), (26.0, false)] {
        let y = 100.0 + w;
        let hook = format!(
            r#"{{"id":"wood","kind":"medium-forest","outline":[[-200,100],[200,100],[200,400],[-50,400],[-50,300],[180,300],[180,{y}],[-200,{y}]]}}"#
        );
        seen_or_hidden_exactly(&scene((0.0, 300.0, 30.0, 20.0), "", &hook), seen, &format!("w = {w}"));
    }
}

#[test]
fn a_cover_with_a_hole_gets_no_deep_core_and_the_bounded_search_decides() {
    // The hook wood of the test above, its strip 26 mm deep (beyond the 25.4 mm
    // depth), with a 10 × 10 clearing far off in its patch (x ∈ [100, 110], y ∈ [350,
    // 360]). A cover with holes is not cut into convex parts (decision: no deep
    // cores for it), so the foe is proved hidden by the bounded search instead: the
    // same verdict as the exhaustive search, not exactly. Without the clearing it is
    // proved exactly (the test above).
    let hook = r#"{"id":"wood","kind":"medium-forest","outline":[[-200,100],[200,100],[200,400],[-50,400],[-50,300],[180,300],[180,126],[-200,126]],"holes":[[[100,350],[110,350],[110,360],[100,360]]]}"#;
    let t = scene((0.0, 300.0, 30.0, 20.0), "", hook);
    let index = SpatialIndex::new(&t);
    let los = TerrainSight::try_new(&index).unwrap_or_else(|e| panic!("{e}"));
    let exhaustive =
        TerrainSight::try_new(&index).unwrap_or_else(|e| panic!("{e}")).with_proof(Proof::Exhaustive);
    let (short, full) = (los.unit_verdict(0, 1), exhaustive.unit_verdict(0, 1));
    assert!(!short.visible && !full.visible);
    assert_ne!(short.method, Method::Exact);
    assert!(los.terrain.deep().iter().all(|(_, cores)| cores.is_empty()));
}

/// Checks that the gun (unit 0) sees the foe (unit 1) when `seen`, with the shortcuts
/// and by the exhaustive search alike, and that the shortcuts prove it hidden
/// exactly where the search needs its bounded part.
fn seen_or_hidden_exactly(t: &Table, seen: bool, label: &str) {
    let index = SpatialIndex::new(t);
    let los = TerrainSight::try_new(&index).unwrap_or_else(|e| panic!("{e}"));
    let exhaustive =
        TerrainSight::try_new(&index).unwrap_or_else(|e| panic!("{e}")).with_proof(Proof::Exhaustive);
    let (short, full) = (los.unit_verdict(0, 1), exhaustive.unit_verdict(0, 1));
    assert_eq!(short.visible, seen, "{label}");
    assert_eq!((short.visible, short.full_base), (full.visible, full.full_base), "{label}");
    if !seen {
        assert_eq!(short.method, Method::Exact, "{label}");
        assert_ne!(full.method, Method::Exact, "{label}");
    }
}

#[test]
fn a_treeline_crossed_beyond_the_depth_from_both_bases_hides_exactly() {
    // A treeline (trees: it blocks like a wood's edge; the low obstacles do not) across the view at y = y0 (x ∈ [-100, 100]), bending back toward the
    // foe's right (to (30, 285)), so that it is not wholly far from the foe (x ∈ [-15,
    // 15], y ∈ [290, 310]). Crossed more than 25.4 mm (1") from both bases, it
    // blocks. Every line to the foe crosses the straight part, 290 - y0 from the
    // foe's near side straight ahead and no nearer elsewhere: y0 = 264.7 (25.3 away)
    // lets the foe be seen, y0 = 264.5 (25.5 away) hides it, exactly (the straight
    // part is a blocker for this pair), with no bounded search.
    for (y0, seen) in [(264.7, true), (264.5, false), (200.0, false)] {
        let wall = format!(r#"{{"id":"trees","kind":"treeline","path":[[-100,{y0}],[100,{y0}],[30,285]]}}"#);
        seen_or_hidden_exactly(&scene((0.0, 300.0, 30.0, 20.0), "", &wall), seen, &format!("y0 = {y0}"));
    }
}

#[test]
fn a_base_is_seen_whole_from_an_eye_point_with_no_blocker_in_the_hull_of_the_two() {
    // From the eye's right end h = (12.5, 20), the hull of h and the foe (x ∈ [-15,
    // 15], y ∈ [290, 310]) has its left side along the line to (-15, 290), at x =
    // -1.25 for y = 155. A friendly 10 × 10 base at y ∈ [145, 155] with its right
    // side at x = -1.27 stays 0.02 mm (0.0199 across) outside it: the whole foe is
    // seen from h. At x = -1.23 its corner (-1.23, 155) is inside: not so from h.
    // The verdicts agree with the exhaustive search either way.
    for (right, clear) in [(-1.27, true), (-1.23, false)] {
        let friend = format!(
            r#",{{"id":"friend","side":"fr","kind":"infantry","formation":"line","bases":[{{"x":{},"y":150,"heading":90,"width":10,"depth":10}}]}}"#,
            right - 5.0
        );
        let t = scene((0.0, 300.0, 30.0, 20.0), &friend, "");
        with_gun_and_foe(&t, |_, p, _| {
            let h = p.eye.iter().copied().max_by(|a, b| a.x.total_cmp(&b.x)).unwrap_or_default();
            assert_eq!(nothing_between(p, h, &p.target.vertices_ccw(), &p.blockers()), clear, "{right}");
        });
        assert!(full_base_seen(&t), "{right}");
    }
}

#[test]
fn hidden_cells_are_hidden_to_the_search() {
    // The foe straddles the wood's corner (wood x ≥ 0, y ≥ 100): its front edge is
    // at y = 127, 27 mm in the wood where it is in it; a line of foes at y ∈ [50, 70]
    // screens the part outside the wood from the left of the eye. Every point of
    // every cell proved hidden is hidden to the exhaustive search, and the
    // verdicts agree (the shortcuts' sight line, which may be another, passes every
    // check).
    let others = r#",{"id":"line","side":"au","kind":"infantry","formation":"line","bases":[{"x":-30.5,"y":60,"heading":270,"width":60,"depth":20}]}"#;
    let mut proved = Vec::new();
    for x in [-20.0, -5.0, 10.0, 25.0] {
        let t = scene((x, 137.0, 60.0, 20.0), others, &wood(0.0, 100.0, 400.0, 400.0));
        let index = SpatialIndex::new(&t);
        let los = TerrainSight::try_new(&index).unwrap_or_else(|e| panic!("{e}"));
        let exhaustive =
            TerrainSight::try_new(&index).unwrap_or_else(|e| panic!("{e}")).with_proof(Proof::Exhaustive);
        let (short, full) = (los.unit_verdict(0, 1), exhaustive.unit_verdict(0, 1));
        assert_eq!((short.visible, short.full_base), (full.visible, full.full_base), "foe at x = {x}");
        let eye = los.eye_of(&t.units[0].bases[0]);
        let p =
            exhaustive.pair(BaseRef::new(0, 0), &eye, BaseRef::new(1, 0)).unwrap_or_else(|| panic!("pair"));
        let blockers = p.blockers();
        if let Some(s) = short.sight {
            let clear = exhaustive.check(&p, s.segment.a, s.segment.b, &blockers, false, &mut Vec::new());
            assert!(clear, "{s:?} at x = {x}");
        }
        let tv = p.target.vertices_ccw();
        let cells = los.hidden_cells(&p, &tv);
        proved.push(cells.len());
        for cell in cells {
            let v = cell.vertices();
            let c = v.iter().fold(Vec2::ZERO, |a, &q| a + q) / v.len() as f64;
            for q in v.iter().copied().chain(std::iter::once(c)) {
                assert!(exhaustive.point_search(&p, q, &blockers).is_none(), "{q:?} at x = {x}");
            }
        }
    }
    assert!(proved.iter().any(|&n| n > 1), "{proved:?}");
}
