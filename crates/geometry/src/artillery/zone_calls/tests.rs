//! The zone calls against the plain search they speed up ([`reference`]: every step on
//! every obstacle's exact interval, as first written), on random battle scenes with fixed
//! seeds: lines beside and ahead of the battery (bases abutting its frontage ends, in its
//! line and turned), scattered friends, markers, targets near and past the reach, exact
//! and scanned tables. Every call must be equal, margin for margin.

use super::*;
use crate::artillery::assessment::assess_artillery;
use crate::artillery::battery::Battlefield;
use crate::artillery::open_ground::TerrainOutlines;
use crate::artillery::targets::aim_among;
use crate::los::UnitsOnly;
use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::fmt::Write;

/// The zone calls as first written: every step asks every obstacle's exact interval.
mod reference {
    use super::*;

    struct Piece {
        vertices: Vec<Vec2>,
        base: Option<BaseRef>,
        distance_mm: f64,
        widest: Option<(f64, f64)>,
    }

    fn blocked_at(battery: &Battery, side_deg: f64, piece: &Piece, k: f64) -> Option<(f64, f64)> {
        offset(&piece.vertices, k).and_then(|grown| {
            blocked_swings(
                &battery.frontage.edge,
                battery.forward(),
                side_deg,
                battery.max_range_mm,
                &ConvexPolygon::from_ccw_unchecked(grown),
            )
        })
    }

    fn clear_at(battery: &Battery, side_deg: f64, max_swing: f64, pieces: &[&Piece], k: f64) -> ClearSwings {
        let blocked: Vec<(f64, f64)> =
            pieces.iter().filter_map(|p| blocked_at(battery, side_deg, p, k)).collect();
        ClearSwings::without(max_swing, &blocked)
    }

    fn obstacles_sigma(table: &Table, pieces: &[&Piece]) -> Option<f64> {
        pieces.iter().filter_map(|p| p.base.and_then(|r| table.base(r)).and_then(base_sigma)).reduce(f64::max)
    }

    pub(super) fn zone_calls(
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
        let (lo, hi) = battery.arc.bounding_box();
        let pad = Vec2::new(2.0 * PERTURBATION_MAX_MM, 2.0 * PERTURBATION_MAX_MM);
        let (lo, hi) = (lo - pad, hi + pad);
        let near = index.bases_in_box(lo, hi);
        let obstacles = zone_obstacles(table, index, battery.base_ref, &near, lo, hi);
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
                };
                p.widest = blocked_at(battery, side_deg, &p, PERTURBATION_MAX_MM);
                p
            })
            .collect();
        let reachable: Vec<&Piece> = pieces.iter().filter(|p| p.widest.is_some()).collect();
        let clear_now = !a.clear_swings.is_empty();
        let sign = if clear_now { 1.0 } else { -1.0 };
        let search = if clear_now { flip_margin } else { flip_margin_from_the_top };
        let margin = search(|k| {
            Ok::<bool, Infallible>(
                clear_at(battery, side_deg, max_swing, &reachable, sign * k).is_empty() == clear_now,
            )
        })
        .unwrap_or_else(|e| match e {});
        let nearest = reachable.iter().map(|p| p.distance_mm).fold(f64::INFINITY, f64::min);
        let battery_sigma = table.base(battery.base_ref).and_then(|b| {
            let reach = if nearest.is_finite() { nearest } else { 0.0 };
            sigma_with_lever(b, half_diagonal(b) + reach)
        });
        let sigma =
            [battery_sigma, obstacles_sigma(table, &reachable)].into_iter().flatten().reduce(f64::max);
        let clear = CloseCall::perturbed(margin, sigma, Some(battery.base_ref));
        let targets = a
            .targets
            .iter()
            .map(|t| target_call(table, battery, side_deg, max_swing, &reachable, t))
            .collect();
        ZoneCalls { clear: Some(clear), targets }
    }

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
        let sign = if holds { 1.0 } else { -1.0 };
        let window: Vec<(f64, f64)> = {
            let m = battery.muzzle();
            let f = battery.forward();
            bases
                .iter()
                .map(|b| resized(b, PERTURBATION_MAX_MM))
                .flat_map(|b| {
                    [
                        centre_of_fire_swings(m, f, &b),
                        blocked_swings(
                            &battery.frontage.edge,
                            f,
                            side_deg,
                            battery.max_range_mm,
                            &b.polygon(),
                        ),
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
}

/// A scene's JSON, built up unit by unit.
struct Scene {
    units: Vec<String>,
    markers: Vec<String>,
    rng: ChaCha8Rng,
    /// Bases carry sigmas (a scanned table).
    scanned: bool,
}

impl Scene {
    fn base(&mut self, c: Vec2, heading: f64, w: f64, d: f64) -> String {
        let mut s = format!(
            r#"{{"x":{},"y":{},"heading":{},"width":{w},"depth":{d}"#,
            c.x,
            c.y,
            heading.rem_euclid(360.0)
        );
        if self.scanned {
            let (sm, sh) = (self.rng.random_range(0.05..0.6), self.rng.random_range(0.0..0.8));
            let _ = write!(s, r#","sigma_mm":{sm},"sigma_heading_deg":{sh}"#);
        }
        s + "}"
    }

    fn unit(&mut self, id: &str, side: &str, kind: &str, extra: &str, bases: Vec<String>) {
        self.units.push(format!(
            r#"{{"id":"{id}","side":"{side}","kind":"{kind}"{extra},"bases":[{}]}}"#,
            bases.join(",")
        ));
    }

    fn marker(&mut self, kind: &str, c: Vec2, unit: &str) {
        let colour = if kind == "morale" { r#""colour":"red","# } else { "" };
        self.markers.push(format!(r#"{{"kind":"{kind}",{colour}"x":{},"y":{},"unit":"{unit}"}}"#, c.x, c.y));
    }

    /// A line of `n` infantry bases (30 x 20) facing `heading`, the first centred at `c`,
    /// the others to its right.
    fn line(&mut self, id: &str, side: &str, c: Vec2, heading: f64, n: usize) {
        let right = Vec2::from_heading_deg(heading).perp_right();
        let bases = (0..n).map(|i| self.base(c + right * (30.0 * i as f64), heading, 30.0, 20.0)).collect();
        self.unit(id, side, "infantry", r#","formation":"line""#, bases);
    }
}

/// A random battle scene around a battery of side "a" at (1000, 1000).
fn scene(seed: u64) -> String {
    let mut s = Scene {
        units: Vec::new(),
        markers: Vec::new(),
        rng: ChaCha8Rng::seed_from_u64(seed),
        scanned: false,
    };
    s.scanned = s.rng.random_bool(0.3);
    let heading = if s.rng.random_bool(0.4) {
        90.0 * f64::from(s.rng.random_range(0..4u8))
    } else {
        s.rng.random_range(0.0..360.0)
    };
    let f = Vec2::from_heading_deg(heading);
    let r = f.perp_right();
    let gun = Vec2::new(1000.0, 1000.0);
    let b = s.base(gun, heading, 25.0, 40.0);
    s.unit("gun", "a", "artillery", r#","formation":"unlimbered","weight":"heavy""#, vec![b]);
    // Neighbours in the battery's line: the front edges level, the inner edges at the
    // frontage's ends (25 mm either side of the centre) or a little off.
    for (i, dir) in [-1.0, 1.0].into_iter().enumerate() {
        if s.rng.random_bool(0.6) {
            let gap = [0.0, 0.0, 1.5, -2.0, s.rng.random_range(-5.0..20.0)][s.rng.random_range(0..5)];
            let turn = if s.rng.random_bool(0.5) { 0.0 } else { s.rng.random_range(-8.0..8.0) };
            let n = s.rng.random_range(1..4);
            let first = if dir < 0.0 { 25.0 + gap + 15.0 + 30.0 * (n - 1) as f64 } else { 25.0 + gap + 15.0 };
            let c = gun + r * (dir * first) + f * (20.0 - 10.0);
            s.line(&format!("side{i}"), "a", c, heading + turn, n);
        }
    }
    // Friendly lines ahead, near and far, turned or not.
    for i in 0..s.rng.random_range(0..4) {
        let ahead = s.rng.random_range(25.0..420.0);
        let across = s.rng.random_range(-250.0..250.0);
        let turn = if s.rng.random_bool(0.5) { 0.0 } else { s.rng.random_range(-40.0..40.0) };
        let n = s.rng.random_range(1..6);
        s.line(&format!("ahead{i}"), "a", gun + f * ahead + r * across, heading + turn, n);
    }
    // Scattered friends of any shape, and friendly markers among them.
    for i in 0..s.rng.random_range(0..6) {
        let c = gun + f * s.rng.random_range(-60.0..480.0) + r * s.rng.random_range(-300.0..300.0);
        let (w, d) = (s.rng.random_range(5.0..60.0), s.rng.random_range(5.0..60.0));
        let h = s.rng.random_range(0.0..360.0);
        let b = s.base(c, h, w, d);
        s.unit(&format!("friend{i}"), "a", "cavalry", r#","formation":"line""#, vec![b]);
        if s.rng.random_bool(0.4) {
            s.marker("morale", c + f * 15.0, &format!("friend{i}"));
        }
    }
    if s.rng.random_bool(0.5) {
        let c = gun + f * s.rng.random_range(25.0..120.0) + r * s.rng.random_range(-40.0..40.0);
        s.marker("saved-fire", c, "gun");
    }
    // Targets: enemy lines facing the battery, near and past the reach.
    for i in 0..s.rng.random_range(1..5) {
        let ahead = s.rng.random_range(40.0..480.0);
        let across = s.rng.random_range(-200.0..200.0);
        let n = s.rng.random_range(1..4);
        let turn = s.rng.random_range(-30.0..30.0);
        s.line(&format!("foe{i}"), "b", gun + f * ahead + r * across, heading + 180.0 + turn, n);
        if s.rng.random_bool(0.3) {
            s.marker("morale", gun + f * (ahead - 15.0) + r * across, &format!("foe{i}"));
        }
    }
    // Sometimes a second friendly battery, and an enemy one facing back.
    if s.rng.random_bool(0.4) {
        let c = gun + r * s.rng.random_range(60.0..200.0) + f * s.rng.random_range(-30.0..60.0);
        let h = heading + s.rng.random_range(-20.0..20.0);
        let b = s.base(c, h, 25.0, 40.0);
        s.unit("gun2", "a", "artillery", r#","formation":"unlimbered","weight":"light""#, vec![b]);
    }
    if s.rng.random_bool(0.4) {
        let c = gun + f * s.rng.random_range(150.0..420.0);
        let b = s.base(c, heading + 180.0, 25.0, 40.0);
        s.unit("foegun", "b", "artillery", r#","formation":"unlimbered","weight":"heavy""#, vec![b]);
    }
    format!(
        r#"{{"schema":"vedette/table/1","rules":"republique5","scale":"medium","units":[{}],"markers":[{}]}}"#,
        s.units.join(","),
        s.markers.join(",")
    )
}

/// Every battery's zone calls on the scene, and the reference's.
fn both(json: &str) -> Vec<(ZoneCalls, ZoneCalls, bool, Vec<bool>)> {
    let table = Table::from_json_str(json).unwrap_or_else(|e| panic!("{e}: {json}"));
    let index = SpatialIndex::new(&table);
    let rules = ArtilleryRules::for_table(&table).unwrap_or_else(|e| panic!("{e}"));
    let los = UnitsOnly::new(&index);
    let field = Battlefield {
        table: &table,
        index: &index,
        rules: &rules,
        line_of_sight: &los,
        ground: &TerrainOutlines,
    };
    let found = assess_artillery(&field).unwrap_or_else(|e| panic!("{e}"));
    found
        .iter()
        .map(|a| {
            let clear = !a.clear_swings.is_empty();
            let targets = a.targets.iter().map(|t| t.zone_clear).collect();
            (
                zone_calls(&table, &index, &rules, a),
                reference::zone_calls(&table, &index, &rules, a),
                clear,
                targets,
            )
        })
        .collect()
}

proptest! {
    #![proptest_config(crate::test_support::proptest_config(48, 7919))]

    #[test]
    fn zone_calls_equal_the_plain_search(seed in any::<u64>()) {
        let json = scene(seed);
        for (got, want, _, _) in both(&json) {
            prop_assert_eq!(&got, &want, "{}", json);
        }
    }
}

#[test]
fn the_scenes_ask_every_kind_of_search() {
    // Clear and blocked zones, targets with and without a clear zone: each search
    // direction is compared above.
    let mut seen = [0usize; 4];
    for seed in 0..40 {
        for (got, want, clear, targets) in both(&scene(seed)) {
            assert_eq!(got, want, "seed {seed}");
            seen[usize::from(clear)] += 1;
            for t in targets {
                seen[2 + usize::from(t)] += 1;
            }
        }
    }
    eprintln!("SEEN {seen:?}");
    assert!(seen.iter().all(|&n| n > 0), "{seen:?}");
}
