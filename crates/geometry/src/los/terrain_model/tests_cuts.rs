//! Tests of the parts of the eye the bounded search leaves out for a target point
//! ([`TerrainSight::depth_cut_eye`], [`TerrainSight::shaded_eye`]), against the check of
//! each segment and the search over every direction (a sibling of `tests.rs`).

use super::limits::covers_unit;
use super::*;

/// A gun (25 × 40, its eye y = 20, x ∈ [-12.5, 12.5]) and a foe (30 × 20) at (x, y)
/// facing it, over `terrain`, with `others` (JSON units, each led by a comma).
fn table(foe: (f64, f64), heading: f64, others: &str, terrain: &str) -> Table {
    let (x, y) = foe;
    let text = format!(
        r#"{{"schema":"vedette/table/1","rules":"republique5","scale":"medium","units":[
          {{"id":"gun","side":"fr","kind":"artillery","bases":[{{"x":0,"y":0,"heading":90,"width":25,"depth":40}}]}},
          {{"id":"foe","side":"au","kind":"infantry","formation":"line","bases":[{{"x":{x},"y":{y},"heading":{heading},"width":30,"depth":20}}]}}{others}],
          "terrain":[{terrain}]}}"#
    );
    Table::from_json_str(&text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// Whether some direction the bounded search tries from `t` passes, every one tried
/// in turn and none left out.
fn seen_by_every_direction(los: &TerrainSight<'_, '_>, p: &Pair<'_>, t: Vec2, blockers: &[&Blocker]) -> bool {
    let Some((base, angles)) = los.search_angles(p, t) else { return true };
    angles.iter().any(|a| {
        los.try_direction(p, t, Vec2::from_heading_deg(base + a), blockers, &mut Vec::new()).is_some()
    })
}

/// The parts of the eye left out for `t`, each checked: every segment from a point of
/// them to `t` fails the check. With `point_seen`'s answer (no hint), which must be
/// the search's over every direction.
fn checked_cuts(los: &TerrainSight<'_, '_>, p: &Pair<'_>, t: Vec2) -> (Vec<(f64, f64)>, bool) {
    let blockers = p.blockers();
    let mut cut = los.depth_cut_eye(p, t);
    cut.extend(los.shaded_eye(p, t));
    for &(lo, hi) in &cut {
        for k in 0..=8 {
            let e = p.eye[0].lerp(p.eye[1], lo + (hi - lo) * f64::from(k) / 8.0);
            assert!(!los.check(p, e, t, &blockers, false, &mut Vec::new()), "{e:?} -> {t:?} in {cut:?}");
        }
    }
    let seen = los.point_seen(p, t, &blockers, &mut None);
    assert_eq!(seen, seen_by_every_direction(los, p, t, &blockers), "{t:?}");
    (cut, seen)
}

#[test]
fn a_gun_in_a_wood_is_cut_off_where_its_lines_leave_the_wood_beyond_the_depth() {
    // The gun stands in a medium wood (depth 25.4 mm) whose edge runs h mm ahead of
    // its eye (y = 20 + h); the foe stands in the open at y = 300. Every line from the
    // eye runs at least h in the wood: at h = 26 the whole eye is cut off from every
    // point of the foe, which is hidden; at h = 25 nothing is cut straight ahead, and
    // the foe's near corners are seen.
    for (h, hidden) in [(26.0, true), (25.0, false)] {
        let t = table(
            (0.0, 310.0),
            270.0,
            "",
            &format!(
                r#"{{"kind":"medium-forest","outline":[[-200,-100],[200,-100],[200,{}],[-200,{}]]}}"#,
                20.0 + h,
                20.0 + h
            ),
        );
        let index = SpatialIndex::new(&t);
        let los = TerrainSight::try_new(&index).unwrap_or_else(|e| panic!("{e}"));
        let eye = los.eye_of(&t.units[0].bases[0]);
        let p = los.pair(BaseRef::new(0, 0), &eye, BaseRef::new(1, 0)).unwrap_or_else(|| panic!("pair"));
        for corner in p.target.vertices_ccw() {
            let (cut, seen) = checked_cuts(&los, &p, corner);
            assert_eq!(covers_unit(&cut), hidden, "h = {h}: {cut:?}");
            assert_eq!(seen, !hidden, "h = {h}");
        }
    }
}

/// A fixed sequence of numbers in [0, 1) (a linear congruential generator: the test
/// needs variety, not quality).
struct Numbers(u64);

impl Numbers {
    fn next(&mut self) -> f64 {
        self.0 = self.0.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }

    fn within(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.next()
    }
}

#[test]
fn the_eye_is_cut_only_where_every_segment_fails_and_the_search_finds_the_same() {
    // Woods of eight corners around the gun (holding it, straddling its eye or beside
    // it) or around the foe, foes turned every way ahead, and a friendly base between
    // at times: each point of the foe's outline is searched with and without the
    // parts of the eye left out.
    let mut n = Numbers(7);
    let (mut cut_off, mut whole, mut points) = (0, 0, 0);
    for case in 0..120 {
        let foe = (n.within(-150.0, 150.0), n.within(80.0, 260.0));
        let around = if case % 3 == 2 { foe } else { (n.within(-20.0, 20.0), n.within(-10.0, 40.0)) };
        let r = n.within(20.0, 70.0);
        let outline: Vec<String> = (0..8)
            .map(|j| {
                let a = (45.0 * f64::from(j) + n.within(-10.0, 10.0)).to_radians();
                let rr = r * n.within(0.7, 1.3);
                format!("[{},{}]", around.0 + rr * a.cos(), around.1 + rr * a.sin())
            })
            .collect();
        let kind = ["medium-forest", "heavy-forest", "light-forest"][case % 3];
        let wood = format!(r#"{{"kind":"{kind}","outline":[{}]}}"#, outline.join(","));
        let friend = if case % 4 == 0 {
            format!(
                r#",{{"id":"friend","side":"fr","kind":"infantry","formation":"line","bases":[{{"x":{},"y":{},"heading":90,"width":20,"depth":10}}]}}"#,
                foe.0 * 0.4 + n.within(-10.0, 10.0),
                foe.1 * 0.4 + 20.0
            )
        } else {
            String::new()
        };
        let t = table(foe, n.within(0.0, 360.0), &friend, &wood);
        let index = SpatialIndex::new(&t);
        let los = TerrainSight::try_new(&index).unwrap_or_else(|e| panic!("{e}"));
        let eye = los.eye_of(&t.units[0].bases[0]);
        let Some(p) = los.pair(BaseRef::new(0, 0), &eye, BaseRef::new(1, 0)) else { continue };
        for q in los.grid(&p.target.vertices_ccw()).into_iter().step_by(9) {
            let (cut, _) = checked_cuts(&los, &p, q);
            cut_off += usize::from(!cut.is_empty());
            whole += usize::from(covers_unit(&cut));
            points += 1;
        }
    }
    assert!(cut_off > 50 && whole > 10 && whole < cut_off, "{cut_off} cut, {whole} whole, of {points}");
}
