//! The per-table assessments decide which rules apply and how findings are listed
//! (issue 16: these decisions moved out of `vedette report`): each rule set gets its own
//! sections, Pro Patria contacts are listed by unit id, Pro Patria distances have no rule
//! inches, and the Pro Patria proximity verdicts carry their limits.

use crate::common;
use common::{inf, table, unit};
use vedette_geometry::artillery::{TargetCover, assess_table_artillery};
use vedette_geometry::assault::assessment::assess_assaults;
use vedette_geometry::los::TerrainSight;
use vedette_geometry::pro_patria::assessment::assess_pro_patria_if_played;
use vedette_geometry::republic::assess_republic_if_played;
use vedette_geometry::{
    CoverClass, RuleSet, SpatialIndex, Table, UnitKind, assess_skirmishers, has_skirmish_markers,
};

/// "z-fr" (index 0) facing +y with its front edge at y = 110, "a-au" (index 1) facing it
/// `gap` mm away, and a skirmish marker of the French 40 mm behind.
fn head_on(rules: RuleSet, gap: f64) -> Table {
    let y = 120.0 + gap;
    table(
        rules,
        vec![
            unit("z-fr", "fr", UnitKind::Infantry, vec![inf(100.0, 100.0, 90.0), inf(130.0, 100.0, 90.0)]),
            unit("a-au", "au", UnitKind::Infantry, vec![inf(100.0, y, 270.0), inf(130.0, y, 270.0)]),
            unit("fr-sk", "fr", UnitKind::Skirmisher, vec![inf(115.0, 50.0, 90.0)]),
        ],
    )
}

#[test]
fn each_rule_set_gets_its_own_sections() {
    for rules in RuleSet::ALL {
        let t = head_on(rules, 0.0);
        let index = SpatialIndex::new(&t);
        let book = t.rule_book().unwrap();
        let sight = TerrainSight::try_new(&index).unwrap();
        let family = matches!(rules, RuleSet::Republique5 | RuleSet::Republic);
        assert_eq!(assess_table_artillery(&t, &index, &sight).unwrap().is_some(), family, "{rules}");
        assert_eq!(has_skirmish_markers(rules), family, "{rules}");
        let skirmishers = assess_skirmishers(&t, &index, &book, &sight).unwrap();
        assert_eq!(skirmishers.checks.len(), usize::from(family), "{rules}");
        assert_eq!(skirmishers.fire.len(), usize::from(family), "{rules}");
        let pp = assess_pro_patria_if_played(&t, &index, &book, &sight).unwrap();
        assert_eq!(pp.is_some(), rules == RuleSet::ProPatria, "{rules}");
        let republic = assess_republic_if_played(&t, &index, &book).unwrap();
        assert_eq!(republic.is_some(), rules == RuleSet::Republic, "{rules}");
    }
}

#[test]
fn pro_patria_contacts_are_listed_by_unit_id_both_ways_in_millimetres() {
    let t = head_on(RuleSet::ProPatria, 0.0);
    let index = SpatialIndex::new(&t);
    let book = t.rule_book().unwrap();
    let found = assess_assaults(&t, &index, &book).unwrap();
    // Found by index (z-fr first), listed by id (a-au first).
    let found_order: Vec<(usize, usize)> = found.findings.iter().map(|f| (f.attacker, f.defender)).collect();
    assert_eq!(found_order, vec![(0, 1), (1, 0)]);
    let listed: Vec<(usize, usize)> = found.listed().map(|f| (f.attacker, f.defender)).collect();
    assert_eq!(listed, vec![(1, 0), (0, 1)]);
    assert!(found.findings.iter().all(|f| f.distance_rule_in(&book).is_none() && f.range_call.is_none()));
    // The Republique family lists in the search's order and measures in rule inches.
    let t = head_on(RuleSet::Republique5, 20.0);
    let book = t.rule_book().unwrap();
    let found = assess_assaults(&t, &SpatialIndex::new(&t), &book).unwrap();
    assert!(!found.findings.is_empty());
    assert_eq!(found.listing, (0..found.findings.len()).collect::<Vec<_>>());
    let f = &found.findings[0];
    assert!((f.distance_rule_in(&book).unwrap() - 20.0 / 25.4).abs() < 1e-9);
    // 20 mm against 1½" (38.1 mm) all-out, the nearer limit.
    assert!((f.range_call.as_ref().unwrap().0 - 38.1).abs() < 1e-9);
}

#[test]
fn pro_patria_proximity_verdicts_carry_their_limits() {
    // 24.9 mm apart: within the 25 mm no-approach distance, no contact; 25.1: beyond.
    for (gap, too_close) in [(24.9, true), (25.0, true), (25.1, false)] {
        let t = head_on(RuleSet::ProPatria, gap);
        let index = SpatialIndex::new(&t);
        let book = t.rule_book().unwrap();
        let sight = TerrainSight::try_new(&index).unwrap();
        let pp = assess_pro_patria_if_played(&t, &index, &book, &sight).unwrap().unwrap();
        let p = pp.proximities.iter().find(|p| (p.proximity.a, p.proximity.b) == (0, 1));
        if !too_close {
            assert!(p.is_none_or(|p| !p.too_close), "gap {gap}");
            continue;
        }
        let p = p.unwrap();
        assert!(p.too_close && !p.proximity.in_contact, "gap {gap}");
        assert!((p.contact_call.0 - 30.0).abs() < 1e-9);
        let (limit, call) = p.approach_call.as_ref().unwrap();
        assert!((limit - 25.0).abs() < 1e-9);
        assert!((call.margin_mm.abs() - (gap - 25.0).abs()).abs() < 1e-6, "gap {gap}: {}", call.margin_mm);
    }
}

#[test]
fn covered_bases_are_those_in_medium_cover_or_better() {
    let c = TargetCover {
        visible_bases: vec![0, 2, 3],
        base_classes: vec![Some(CoverClass::Light), Some(CoverClass::Medium), None],
        class: None,
        aimed_base: None,
        fires_at_uncovered: false,
        call: None,
    };
    assert_eq!(c.covered_bases(), vec![2]);
}

/// Every sight and firing-zone margin of the grand battle's batteries (bisected, every
/// base grown or shrunk) is the same on the table turned 37° (issue 41). Two causes made
/// them move: a battery shrunk past half its depth kept its eye stepping back behind the
/// speck its base had become (32.81 became 32.42 mm), and status markers were squares
/// aligned with the table's axes (a clear zone's 4.30 became 4.32 mm).
#[test]
fn battery_margins_do_not_turn_with_the_table() {
    use vedette_geometry::{RigidMotion, Vec2};
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples/grand-battle.json");
    let t = Table::from_json_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let margins = |t: &Table| -> Vec<f64> {
        let index = SpatialIndex::new(t);
        let sight = TerrainSight::try_new(&index).unwrap();
        let found = assess_table_artillery(t, &index, &sight).unwrap().unwrap();
        found
            .calls
            .iter()
            .flat_map(|c| {
                c.zone.iter().map(|z| z.margin_mm).chain(c.targets.iter().map(|t| t.sight.margin_mm))
            })
            .collect()
    };
    let want = margins(&t);
    assert!(want.len() > 100, "{}", want.len());
    let got = margins(&RigidMotion::new(37.0, Vec2::new(250.0, -40.0)).table(&t));
    assert_eq!(want.len(), got.len());
    let moved: Vec<String> = want
        .iter()
        .zip(&got)
        .enumerate()
        .filter(|(_, (a, b))| (*a - *b).abs() > 0.01)
        .map(|(i, (a, b))| format!("#{i}: {a} became {b}"))
        .collect();
    assert!(moved.is_empty(), "{moved:?}");
}
