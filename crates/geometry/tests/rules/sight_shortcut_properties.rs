//! The exact shortcuts of the terrain-aware sight model (occlusion sweep, corridor
//! chains, spotting-depth bounds) against the exhaustive search, on random battlefields
//! (fixed seeds): every battery against every enemy unit, the same verdicts.
//!
//! The scenes are built to reach the shortcuts' edge cases: lines of bases whose
//! neighbours overlap by a hair, touch, or leave a slit a fraction of a micrometre wide
//! (a slit a battery looks along is see-through under the tie rule); batteries behind
//! friendly lines, beside them and in woods; targets in, behind and straddling woods
//! with spotting depths of ½", 1" and 2"; treelines (crossed within 1" of either base,
//! or farther, where they block) running across the field and bending toward the lines.

use crate::common;
use proptest::prelude::*;
use vedette_geometry::los::{Proof, Sampling, TerrainSight};
use vedette_geometry::sight::FullVisibility;
use vedette_geometry::{BaseRef, LineOfSight, SpatialIndex, Table, UnitKind};

/// The exhaustive search's sampling, coarse to keep the test quick.
const COARSE: Sampling = Sampling { target_step_mm: 2.0, eye_step_mm: 1.0 };

#[derive(Debug, Clone)]
struct Line {
    x: f64,
    y: f64,
    heading: f64,
    bases: usize,
    gap: f64,
    artillery: bool,
}

#[derive(Debug, Clone)]
struct Scene {
    near: Vec<Line>,
    far: Vec<Line>,
    woods: Vec<(f64, f64, f64, usize, Vec<f64>)>,
    /// Treelines: paths of three points.
    walls: Vec<[(f64, f64); 3]>,
}

/// Gaps between neighbouring bases: overlapping by a hair, touching, a slit, a gap.
const GAPS: [f64; 5] = [-1e-3, 0.0, 3e-4, 1e-3, 4.0];
const COVER: [&str; 4] = ["medium-forest", "light-forest", "orchard", "heavy-buildings"];

fn line(y0: f64, y1: f64) -> impl Strategy<Value = Line> {
    (-250.0..250.0f64, y0..y1, -15.0..15.0f64, 1..5usize, 0..GAPS.len(), prop::bool::weighted(0.35)).prop_map(
        |(x, y, heading, bases, gap, artillery)| Line { x, y, heading, bases, gap: GAPS[gap], artillery },
    )
}

fn scene() -> impl Strategy<Value = Scene> {
    (
        prop::collection::vec(line(0.0, 220.0), 2..7),
        prop::collection::vec(line(300.0, 520.0), 2..7),
        prop::collection::vec(
            (
                -250.0..250.0f64,
                40.0..480.0f64,
                40.0..130.0f64,
                0..COVER.len(),
                prop::collection::vec(0.6..1.0f64, 7),
            ),
            0..3,
        ),
        prop::collection::vec(prop::array::uniform3((-300.0..300.0f64, 150.0..450.0f64)), 0..3),
    )
        .prop_map(|(near, far, woods, walls)| Scene { near, far, woods, walls })
}

fn to_table(s: &Scene) -> Table {
    let mut units = Vec::new();
    for (side, facing, lines) in [("fr", 90.0, &s.near), ("au", 270.0, &s.far)] {
        for (i, l) in lines.iter().enumerate() {
            let h = facing + l.heading;
            let (w, d, kind, formation, n) = if l.artillery {
                (25.0, 40.0, "artillery", "unlimbered", 1)
            } else {
                (30.0, 20.0, "infantry", "line", l.bases)
            };
            let right = (h - 90.0f64).to_radians();
            let bases: Vec<String> = (0..n)
                .map(|k| {
                    let off = (k as f64 - (n as f64 - 1.0) / 2.0) * (w + l.gap);
                    let (x, y) = (l.x + off * right.cos(), l.y + off * right.sin());
                    format!(r#"{{"x":{x},"y":{y},"heading":{h},"width":{w},"depth":{d}}}"#)
                })
                .collect();
            units.push(format!(
                r#"{{"id":"{side}{i}","side":"{side}","kind":"{kind}","formation":"{formation}","bases":[{}]}}"#,
                bases.join(",")
            ));
        }
    }
    let terrain: Vec<String> = s
        .woods
        .iter()
        .map(|(x, y, r, k, radii)| {
            let n = radii.len();
            let pts: Vec<String> = radii
                .iter()
                .enumerate()
                .map(|(j, f)| {
                    let a = (360.0 * j as f64 / n as f64).to_radians();
                    format!("[{},{}]", x + r * f * a.cos(), y + r * f * a.sin())
                })
                .collect();
            format!(r#"{{"kind":"{}","outline":[{}]}}"#, COVER[*k], pts.join(","))
        })
        .chain(s.walls.iter().map(|w| {
            let pts: Vec<String> = w.iter().map(|(x, y)| format!("[{x},{y}]")).collect();
            format!(r#"{{"kind":"treeline","path":[{}]}}"#, pts.join(","))
        }))
        .collect();
    Table::from_json_str(&format!(
        r#"{{"schema":"vedette/table/1","rules":"republique5","scale":"medium","units":[{}],"terrain":[{}]}}"#,
        units.join(","),
        terrain.join(",")
    ))
    .unwrap_or_else(|e| panic!("{e}"))
}

proptest! {
    #![proptest_config(common::proptest_config(40, 1805))]

    #[test]
    fn shortcuts_give_the_exhaustive_verdicts(s in scene()) {
        let t = to_table(&s);
        let index = SpatialIndex::new(&t);
        let fast = TerrainSight::try_new(&index).unwrap().with_sampling(COARSE);
        let slow = TerrainSight::try_new(&index).unwrap().with_sampling(COARSE).with_proof(Proof::Exhaustive);
        for (a, u) in t.units.iter().enumerate().filter(|(_, u)| u.kind == UnitKind::Artillery) {
            let (fv, sv) = (fast.spotter(a), slow.spotter(a));
            for (b, v) in t.units.iter().enumerate().filter(|(_, v)| v.side != u.side) {
                let f = fv.unit_verdict(b);
                let e = sv.unit_verdict(b);
                prop_assert_eq!(
                    (f.visible, f.full_base),
                    (e.visible, e.full_base),
                    "{} -> {}", u.id, v.id
                );
            }
        }
    }
}

proptest! {
    #![proptest_config(common::proptest_config(40, 1806))]

    /// The full-base question alone (what the artillery asks, 000 §4.5) gives the same
    /// verdict as the whole decision (a sight line first, then the full base), with the
    /// shortcuts and with the exhaustive search.
    #[test]
    fn full_base_alone_gives_the_whole_decisions_verdict(s in scene()) {
        let t = to_table(&s);
        let index = SpatialIndex::new(&t);
        for proof in [Proof::Shortcuts, Proof::Exhaustive] {
            let los = TerrainSight::try_new(&index).unwrap().with_sampling(COARSE).with_proof(proof);
            for (a, u) in t.units.iter().enumerate().filter(|(_, u)| u.kind == UnitKind::Artillery) {
                let eye = los.eye_of(&u.bases[0]);
                for (b, v) in t.units.iter().enumerate().filter(|(_, v)| v.side != u.side) {
                    for k in 0..v.bases.len() {
                        let target = BaseRef::new(b, k);
                        let whole = los.base_verdict(BaseRef::new(a, 0), target).unwrap();
                        let alone = los.full_base_visible(&t, a, &eye, target);
                        prop_assert_eq!(
                            alone == FullVisibility::Visible,
                            whole.full == FullVisibility::Visible,
                            "{} -> {}#{} ({:?})", u.id, v.id, k, proof
                        );
                    }
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(common::proptest_config(12, 1807))]

    /// The batch of every battery against every unit (friends too), shared out among
    /// threads, gives each pair's own verdict and sight line, in the pairs' order,
    /// whatever the number of threads and however the pairs are ordered; on a fresh
    /// model too, whose batch prepares what the sweeps use on every thread.
    #[test]
    fn verdicts_in_a_batch_are_each_pairs_own(s in scene()) {
        let t = to_table(&s);
        let index = SpatialIndex::new(&t);
        let fresh = || TerrainSight::try_new(&index).unwrap().with_sampling(COARSE);
        let los = fresh();
        let pairs: Vec<(usize, usize)> = t
            .units
            .iter()
            .enumerate()
            .filter(|(_, u)| u.kind == UnitKind::Artillery)
            .flat_map(|(a, _)| (0..t.units.len()).map(move |b| (a, b)))
            .collect();
        // Grouped by spotter, and interleaved (each spotter's pairs scattered).
        let mut interleaved = pairs.clone();
        interleaved.sort_by_key(|&(a, b)| (b, a));
        for pairs in [pairs, interleaved] {
            let one: Vec<_> = pairs.iter().map(|&(a, b)| los.unit_verdict(a, b)).collect();
            for threads in [1, 2, 3] {
                prop_assert_eq!(&los.unit_verdicts(&pairs, threads), &one, "{} threads", threads);
                prop_assert_eq!(&fresh().unit_verdicts(&pairs, threads), &one, "{} threads, fresh", threads);
            }
        }
    }
}

proptest! {
    #![proptest_config(common::proptest_config(24, 1808))]

    /// With whole-base eyes seeing every way (the command rules' sight between
    /// divisions, 000 §6.2), whose spotting-depth bounds are those of a front edge
    /// taken over the whole base, the shortcuts give the exhaustive verdicts: every unit
    /// of one line against every unit of the other, both ways.
    #[test]
    fn whole_base_eyes_give_the_exhaustive_verdicts(s in scene()) {
        use vedette_geometry::los::{Eye, FieldOfView, SightRules};
        let t = to_table(&s);
        let index = SpatialIndex::new(&t);
        let rules = SightRules {
            eye: Eye::WholeBase,
            field_of_view: FieldOfView::Unlimited,
            ..SightRules::for_book(&t.rule_book().unwrap()).unwrap()
        };
        let fast = TerrainSight::with_rules(&index, rules).with_sampling(COARSE);
        let slow = TerrainSight::with_rules(&index, rules).with_sampling(COARSE).with_proof(Proof::Exhaustive);
        for (a, u) in t.units.iter().enumerate() {
            for (b, v) in t.units.iter().enumerate().filter(|(_, v)| v.side != u.side) {
                let f = fast.unit_verdict(a, b);
                let e = slow.unit_verdict(a, b);
                prop_assert_eq!(
                    (f.visible, f.full_base),
                    (e.visible, e.full_base),
                    "{} -> {}", u.id, v.id
                );
            }
        }
    }
}
