use super::*;
use crate::transform::RigidMotion;

/// A French 3-base line (30 x 20) facing +y, front edge y = 110, x 55..145.
fn line(dx: f64, dy: f64, turn_deg: f64, pivot: Vec2) -> Table {
    let json = |bases: String| {
        format!(
            r#"{{"schema":"vedette/table/1","rules":"republique5","scale":"medium",
            "sides":{{"fr":{{"system":"french"}},"pr":{{"system":"prussian"}}}},
            "units":[{{"id":"a","side":"fr","kind":"infantry","formation":"line","bases":[{bases}]}},
                     {{"id":"p","side":"pr","kind":"infantry","formation":"line","bases":[{bases}]}}]}}"#
        )
    };
    let (s, c) = turn_deg.to_radians().sin_cos();
    let place = |x: f64, y: f64| {
        let (rx, ry) = (x - pivot.x, y - pivot.y);
        (pivot.x + c * rx - s * ry + dx, pivot.y + s * rx + c * ry + dy)
    };
    let bases: Vec<String> = [70.0, 100.0, 130.0]
        .iter()
        .map(|&x| {
            let (px, py) = place(x, 100.0);
            format!(r#"{{"x":{px},"y":{py},"heading":{},"width":30,"depth":20}}"#, 90.0 + turn_deg)
        })
        .collect();
    Table::from_json_str(&json(bases.join(","))).unwrap_or_else(|e| panic!("{e}"))
}

fn assess(after: &Table, id: &str, r: Option<Retrograde>) -> MoveAssessment {
    let q = MoveQuestions { retrograde: r, ..Default::default() };
    assess_move(&line(0.0, 0.0, 0.0, Vec2::ZERO), after, id, &q).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn straight_and_oblique_moves_by_hand() {
    // 6" = 152.4 mm straight ahead: forward, normal cost, within 8", not a hold, an
    // advance (more than 4").
    let m = assess(&line(0.0, 152.4, 0.0, Vec2::ZERO), "a", None);
    assert!((m.distance_mm - 152.4).abs() < 1e-9);
    assert_eq!(m.direction, MoveDirection::Forward);
    assert_eq!(m.cost_mm, Some(m.distance_mm));
    assert_eq!(
        (m.hold, m.advancing, m.within_allowance, m.uses_charge_bonus),
        (Some(false), Some(true), Some(true), Some(false))
    );
    // 100 mm at 40° right of ahead: oblique; Prussians pay double, French not.
    let (s, c) = 40f64.to_radians().sin_cos();
    let after = line(100.0 * s, 100.0 * c, 0.0, Vec2::ZERO);
    let fr = assess(&after, "a", None);
    let pr = assess(&after, "p", None);
    assert_eq!(fr.direction, MoveDirection::Oblique);
    assert!((fr.direction_deg + 40.0).abs() < 1e-9);
    assert_eq!((fr.cost_factor, pr.cost_factor), (Some(1.0), Some(2.0)));
    // 50° is sideways: Prussians quadruple.
    let (s, c) = 50f64.to_radians().sin_cos();
    let pr = assess(&line(100.0 * s, 100.0 * c, 0.0, Vec2::ZERO), "p", None);
    assert_eq!((pr.direction, pr.cost_factor), (MoveDirection::Sideways, Some(4.0)));
}

#[test]
fn a_wheel_is_measured_on_its_outer_edge() {
    // Wheel 30° left about the left front corner (55, 110): the right front corner
    // (145, 110) is 90 mm out and travels 90·π/6 = 47.12 mm.
    let m = assess(&line(0.0, 0.0, 30.0, Vec2::new(55.0, 110.0)), "a", None);
    assert!(m.wheel);
    assert!((m.turned_deg - 30.0).abs() < 1e-9);
    assert!((m.distance_mm - 90.0 * std::f64::consts::PI / 6.0).abs() < 1e-9, "{}", m.distance_mm);
    let p = m.pivot.unwrap_or(Vec2::ZERO);
    assert!((p - Vec2::new(55.0, 110.0)).length() < 1e-6);
    // A hold allows 4" = 101.6 mm: this wheel holds.
    assert_eq!(m.hold, Some(true));
    // A turned table gives the same answers.
    let turn = RigidMotion::new(123.0, Vec2::new(300.0, 200.0));
    let b = turn.table(&line(0.0, 0.0, 0.0, Vec2::ZERO));
    let a = turn.table(&line(0.0, 0.0, 30.0, Vec2::new(55.0, 110.0)));
    let t = assess_move(&b, &a, "a", &MoveQuestions::default()).unwrap_or_else(|e| panic!("{e}"));
    assert!((t.distance_mm - m.distance_mm).abs() < 1e-9);
}

#[test]
fn hold_limit_just_inside_and_outside() {
    for (dy, hold) in [(101.6 - 0.05, true), (101.6 + 0.05, false)] {
        let m = assess(&line(0.0, dy, 0.0, Vec2::ZERO), "a", None);
        assert_eq!(m.hold, Some(hold), "{dy}");
        let call = m.hold_call.unwrap_or_else(|| panic!("no call"));
        assert!((call.margin_mm - 0.05).abs() < 1e-6);
        assert!(call.certain(), "typed tables are exact");
    }
}

#[test]
fn retrograde_moves_by_hand() {
    // Withdraw 6" = 152.4 mm straight back, facing the enemy: done; 150 mm: short.
    let m = assess(&line(0.0, -152.4, 0.0, Vec2::ZERO), "a", Some(Retrograde::Withdraw));
    let r = m.retrograde.unwrap_or_else(|| panic!("no check"));
    assert!(r.done && r.facing_ok);
    assert_eq!(m.direction, MoveDirection::Backward);
    let short = assess(&line(0.0, -150.0, 0.0, Vec2::ZERO), "a", Some(Retrograde::Withdraw));
    assert!(!short.retrograde.is_some_and(|r| r.done));
    // A fall back must end facing away: the same move facing the enemy fails.
    let fb = assess(&line(0.0, -203.2, 0.0, Vec2::ZERO), "a", Some(Retrograde::FallBack));
    assert!(fb.retrograde.is_some_and(|r| !r.facing_ok && !r.done));
    // Turned about (180° about the line's middle) and 8" back: done.
    let about = line(0.0, -203.2 - 20.0, 180.0, Vec2::new(100.0, 100.0));
    let fb = assess(&about, "a", Some(Retrograde::FallBack));
    let r = fb.retrograde.unwrap_or_else(|| panic!("no check"));
    assert!(r.facing_ok, "{r:?}");
}

#[test]
fn a_move_costing_the_same_under_both_systems_needs_no_system() {
    // Without systems: straight ahead costs the same under both (x1): decided; 40°
    // oblique costs x1 French, x2 Prussian: open, with both costs given.
    let strip = |t: Table| {
        let mut t = t;
        t.sides.clear();
        t
    };
    let before = strip(line(0.0, 0.0, 0.0, Vec2::ZERO));
    let q = MoveQuestions::default();
    let m = assess_move(&before, &strip(line(0.0, 100.0, 0.0, Vec2::ZERO)), "a", &q)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((m.system, m.cost_mm, m.costs.len()), (None, Some(100.0), 2));
    let (s, c) = 40f64.to_radians().sin_cos();
    let m = assess_move(&before, &strip(line(100.0 * s, 100.0 * c, 0.0, Vec2::ZERO)), "a", &q)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(m.cost_mm, None);
    let costs: Vec<f64> = m.costs.iter().map(|c| c.cost_mm).collect();
    assert!((costs[0] - 100.0).abs() < 1e-9 && (costs[1] - 200.0).abs() < 1e-9, "{costs:?}");
    assert_eq!(m.within_allowance, None);
}
