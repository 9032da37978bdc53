//! Hand-worked assault scenarios (issue 5): each construction just inside and just
//! outside its threshold. Medium scale: 1" = 25.4 mm; 30 x 20 mm infantry bases.
//! Every expected value is worked out from the rule text in the comment above it.

use crate::common;
use common::{IN, area, b, inf, table, unit};
use vedette_geometry::{
    Aspect, AspectException, AssaultDetail, AssaultRange, BaseCounting, ClassicContactKind, CoverClass,
    DefenderRole, FlankSide, Formation, RuleSet, SideSettings, SpatialIndex, Table, TerrainKind, UnitKind,
    assault_contacts, assaults, classic_contacts, unit_cover,
};

fn contacts_of(t: &Table, attacker: &str) -> Vec<vedette_geometry::Contact> {
    let a = t.unit_index(attacker).unwrap();
    assault_contacts(t, &SpatialIndex::new(t), &t.rule_book().unwrap())
        .unwrap()
        .into_iter()
        .filter(|c| c.attacker == a)
        .collect()
}

/// One French base facing +y (front edge y = 10, x -15..15) and one Austrian base facing
/// it with its front edge `gap` mm further up.
fn facing(gap: f64) -> Table {
    table(
        RuleSet::Republique5,
        vec![
            unit("fr", "france", UnitKind::Infantry, vec![inf(0.0, 0.0, 90.0)]),
            unit("au", "austria", UnitKind::Infantry, vec![inf(0.0, 10.0 + gap + 10.0, 270.0)]),
        ],
    )
}

#[test]
fn general_zone_is_three_inches_deep() {
    // 2.99" ahead: inside the 3" general zone, outside the 1.5" all-out zone.
    let c = contacts_of(&facing(2.99 * IN), "fr");
    assert_eq!(c.len(), 1);
    assert_eq!(c[0].range, AssaultRange::General);
    assert_eq!(c[0].contact_face, vec![0]);
    // 3.01": out of range.
    assert!(contacts_of(&facing(3.01 * IN), "fr").is_empty());
    // Exactly 3" (76.2 mm, while 3 x 25.4 rounds to 76.19999999999999): the zone is closed.
    assert_eq!(contacts_of(&facing(76.2), "fr").len(), 1);
}

#[test]
fn all_out_zone_is_one_and_a_half_inches_deep() {
    assert_eq!(contacts_of(&facing(1.49 * IN), "fr")[0].range, AssaultRange::AllOut);
    assert_eq!(contacts_of(&facing(1.51 * IN), "fr")[0].range, AssaultRange::General);
    // Base to base: all-out.
    assert_eq!(contacts_of(&facing(0.0), "fr")[0].range, AssaultRange::AllOut);
}

#[test]
fn large_scale_multiplies_the_zone_by_one_and_a_half() {
    // At large scale the general zone is 4.5 table inches deep (000 §1.2 ratio 1.5).
    let mut t = facing(4.49 * IN);
    t.scale = vedette_geometry::Scale::Large;
    assert_eq!(contacts_of(&t, "fr").len(), 1);
    let mut t = facing(4.51 * IN);
    t.scale = vedette_geometry::Scale::Large;
    assert!(contacts_of(&t, "fr").is_empty());
}

/// A defender beside the attacker's zone: its left edge at `left_x`, its front edge 70 mm
/// ahead of the attacker's front (table y 80), reaching back beyond the 3" depth.
fn beside(left_x: f64) -> Table {
    table(
        RuleSet::Republique5,
        vec![
            unit("fr", "france", UnitKind::Infantry, vec![inf(0.0, 0.0, 90.0)]),
            unit("au", "austria", UnitKind::Infantry, vec![inf(left_x + 15.0, 90.0, 270.0)]),
        ],
    )
}

#[test]
fn the_zone_flares_five_degrees() {
    // The zone's right side leaves the front-right corner (15, 10) turned 5° outward; at
    // the zone's full depth of 76.2 mm it stands at x = 15 + 76.2 tan 5° = 21.6666 mm.
    // The defender (front edge 70 mm ahead, reaching past 76.2) is in the zone when its
    // left edge is left of that: 0.5 mm inside at 21.1666, 0.5 mm outside at 22.1666.
    let corner = 15.0 + 76.2 * 5f64.to_radians().tan();
    assert!((corner - 21.666636).abs() < 1e-5);
    let c = contacts_of(&beside(corner - 0.5), "fr");
    assert_eq!(c.len(), 1);
    assert_eq!(c[0].range, AssaultRange::General);
    assert!(contacts_of(&beside(corner + 0.5), "fr").is_empty());
    // Without the flare (a straight strip) 21.17 would already be outside: 15 < 21.17.
}

/// France: a line of three bases facing +y, front edges y = 10 over x -45..45.
/// Austria: P (two bases, x -45..15) and Q (one base, x 15..45) side by side, fronts
/// 25 mm away (y = 35); R (two bases) right behind P (front at y = 60).
fn line_against_two(with_p: bool) -> Table {
    let mut units = vec![unit(
        "fr",
        "france",
        UnitKind::Infantry,
        vec![inf(-30.0, 0.0, 90.0), inf(0.0, 0.0, 90.0), inf(30.0, 0.0, 90.0)],
    )];
    if with_p {
        units.push(unit(
            "p",
            "austria",
            UnitKind::Infantry,
            vec![inf(-30.0, 45.0, 270.0), inf(0.0, 45.0, 270.0)],
        ));
    }
    units.push(unit("q", "austria", UnitKind::Infantry, vec![inf(30.0, 45.0, 270.0)]));
    units.push(unit(
        "r",
        "austria",
        UnitKind::Infantry,
        vec![inf(-30.0, 70.0, 270.0), inf(0.0, 70.0, 270.0)],
    ));
    table(RuleSet::Republique5, units)
}

#[test]
fn primary_defender_has_the_greatest_contact_frontage() {
    // Lines of advance fan out from each 30 mm front edge: at the defenders' depth of 25 mm
    // a line leaving the edge at u·15 mm from its middle has moved out to u·(15 + 25 tan 5°).
    // With k = 15 / (15 + 25 tan 5°) = 0.872741:
    // - base #0 (middle x = -30): lines with u < -k pass left of P; P gets 15(1 + k);
    // - base #1 (x = 0): P for u < k, Q for u > k: 15(1 + k) and 15(1 - k);
    // - base #2 (x = 30): Q for |u| < k (26.18 mm), P for u < -k (15(1 - k)), nothing beyond.
    // P: 15(3 + k) = 58.091 mm; Q: 15(1 + k) = 28.091 mm. P is primary, Q supporting.
    let t = line_against_two(true);
    let k = 15.0 / (15.0 + 25.0 * 5f64.to_radians().tan());
    let c = contacts_of(&t, "fr");
    let p = c.iter().find(|c| t.units[c.defender].id == "p").unwrap();
    let q = c.iter().find(|c| t.units[c.defender].id == "q").unwrap();
    assert!((p.frontage_mm - 15.0 * (3.0 + k)).abs() < 1e-6, "{}", p.frontage_mm);
    assert!((q.frontage_mm - 15.0 * (1.0 + k)).abs() < 1e-6, "{}", q.frontage_mm);
    assert_eq!(p.role, DefenderRole::Primary);
    assert_eq!(q.role, DefenderRole::Supporting);
    assert_eq!(p.contact_face, vec![0, 1, 2]);
    assert_eq!(q.contact_face, vec![1, 2]);
    assert_eq!(p.range, AssaultRange::AllOut);
    // R stands 50 mm away, inside 3", but wholly behind P: blocked (000 §5.1 "they block
    // assault activity for units behind them").
    assert!(c.iter().all(|c| t.units[c.defender].id != "r"));
}

#[test]
fn a_unit_behind_is_in_contact_once_the_front_unit_is_gone() {
    // Without P, R's front edge is 50 mm (1.97") ahead of bases #0 and #1: general range.
    let t = line_against_two(false);
    let c = contacts_of(&t, "fr");
    let r = c.iter().find(|c| t.units[c.defender].id == "r").unwrap();
    assert_eq!(r.range, AssaultRange::General);
    assert_eq!(r.defender_bases_met, vec![0, 1]);
}

#[test]
fn supporting_units_count_only_the_bases_met() {
    // Q is supporting: it brings its one base met. P is primary: all its bases.
    let t = line_against_two(true);
    let all =
        assaults(&t, &SpatialIndex::new(&t), &t.rule_book().unwrap(), AssaultDetail::WithCoverAndOverlap)
            .unwrap();
    let fr = t.unit_index("fr").unwrap();
    let mine: Vec<_> = all.iter().filter(|a| a.contact.attacker == fr).collect();
    assert_eq!(mine.len(), 2);
    for a in mine {
        assert_eq!(a.attacker_bases, 3);
        assert_eq!(a.defender_bases, if t.units[a.contact.defender].id == "p" { 2 } else { 1 });
    }
    let groups = vedette_geometry::groups(&t, &all);
    let g = groups.iter().find(|g| t.units[g.defender].id == "p").unwrap();
    // France: 3 bases; Austria: P's 2 plus Q's 1 supporting base.
    assert_eq!((g.attacker_bases, g.defender_bases), (3, 3));
}

#[test]
fn mixed_assault_when_some_attackers_are_all_out_and_others_general() {
    // D faces -y with its front edge at y = 35 (x -15..15), its right side at x = 15.
    // A1 faces it 25 mm away (0.98": all-out). A2 faces -x with its front edge at x = 55,
    // 40 mm (1.57": general) from D's right side; its bases span y 23..53, short of D's
    // rear edge at y = 55, so A2 strikes the front (not past the flank line).
    let t = table(
        RuleSet::Republique5,
        vec![
            unit("a1", "france", UnitKind::Infantry, vec![inf(0.0, 0.0, 90.0)]),
            unit("a2", "france", UnitKind::Infantry, vec![inf(65.0, 38.0, 180.0)]),
            unit("d", "austria", UnitKind::Infantry, vec![inf(0.0, 45.0, 270.0)]),
        ],
    );
    let all =
        assaults(&t, &SpatialIndex::new(&t), &t.rule_book().unwrap(), AssaultDetail::ContactsAndAspects)
            .unwrap();
    let on_d: Vec<_> = all.iter().filter(|a| t.units[a.contact.defender].id == "d").collect();
    assert_eq!(on_d.len(), 2);
    let a1 = on_d.iter().find(|a| t.units[a.contact.attacker].id == "a1").unwrap();
    let a2 = on_d.iter().find(|a| t.units[a.contact.attacker].id == "a2").unwrap();
    assert_eq!(a1.contact.range, AssaultRange::AllOut);
    assert_eq!(a2.contact.range, AssaultRange::General);
    assert!(a1.mixed && a2.mixed);
    assert_eq!(a2.aspect.aspect, Aspect::Front);
    // Move A2 out of range (front edge 3.1" from D): no longer mixed.
    let mut t2 = t.clone();
    t2.units[1].bases[0] = inf(15.0 + 3.1 * IN + 10.0, 38.0, 180.0);
    let all =
        assaults(&t2, &SpatialIndex::new(&t2), &t2.rule_book().unwrap(), AssaultDetail::ContactsAndAspects)
            .unwrap();
    assert!(all.iter().filter(|a| t2.units[a.contact.defender].id == "d").all(|a| !a.mixed));
}

/// The defender D: a line of two bases facing +y, x -15..45, front y = 10, rear y = -10
/// (its flank line), rear lines x = -15 and x = 45 running down from the rear corners.
fn against_line(rules: RuleSet, attacker_kind: UnitKind, attacker: vedette_geometry::Base) -> Table {
    table(
        rules,
        vec![
            unit("d", "austria", UnitKind::Infantry, vec![inf(0.0, 0.0, 90.0), inf(30.0, 0.0, 90.0)]),
            unit("a", "france", attacker_kind, vec![attacker]),
        ],
    )
}

fn aspect(t: &Table) -> vedette_geometry::AttackAspect {
    let lines = vedette_geometry::FlankGeometry::of(&t.units[0].bases).unwrap();
    let standing = vedette_geometry::DefenderStanding {
        kind: t.units[0].kind,
        in_square: vedette_geometry::is_in_square(t, 0),
        in_buildings: vedette_geometry::in_buildings(&t.units[0], &t.terrain),
    };
    vedette_geometry::aspect_of(
        &t.units[1],
        &lines,
        &standing,
        vedette_geometry::FlankExceptions::for_rules(t.rules),
    )
}

/// An attacker on D's left facing +x (x -40..-20), its lowest corner at y = `low`.
fn left_attacker(low: f64) -> vedette_geometry::Base {
    inf(-30.0, low + 15.0, 0.0)
}

/// An attacker behind D facing +y (y -35..-15), its right edge at x = `right`.
fn rear_attacker(right: f64) -> vedette_geometry::Base {
    inf(right - 15.0, -25.0, 90.0)
}

#[test]
fn a_corner_half_a_millimetre_past_the_flank_line_is_a_flank_attack() {
    let past = aspect(&against_line(RuleSet::Republique5, UnitKind::Infantry, left_attacker(-10.5)));
    assert_eq!((past.aspect, past.flank_side), (Aspect::Flank, Some(FlankSide::Left)));
    let short = aspect(&against_line(RuleSet::Republique5, UnitKind::Infantry, left_attacker(-9.5)));
    assert_eq!((short.aspect, short.flank_side), (Aspect::Front, None));
    // Exactly on the line is not past it.
    let on = aspect(&against_line(RuleSet::Republique5, UnitKind::Infantry, left_attacker(-10.0)));
    assert_eq!(on.aspect, Aspect::Front);
}

#[test]
fn rear_beats_flank() {
    // 0.5 mm inside the left rear line (x = -15): the rear zone; rear beats flank.
    let rear = aspect(&against_line(RuleSet::Republique5, UnitKind::Infantry, rear_attacker(-14.5)));
    assert_eq!(rear.aspect, Aspect::Rear);
    // 0.5 mm outside it: still past the flank line (y < -10), so a flank attack.
    let flank = aspect(&against_line(RuleSet::Republique5, UnitKind::Infantry, rear_attacker(-15.5)));
    assert_eq!((flank.aspect, flank.flank_side), (Aspect::Flank, Some(FlankSide::Left)));
}

#[test]
fn squares_have_no_flank_or_rear_against_cavalry() {
    let square = |rules, kind, a| {
        let mut t = against_line(rules, kind, a);
        t.units[0].formation = Some(Formation::Square);
        aspect(&t)
    };
    // 000 §5.4: against cavalry the flank and rear zones are front...
    let c = square(RuleSet::Republique5, UnitKind::Cavalry, rear_attacker(-14.5));
    assert_eq!(
        (c.aspect, c.geometric, c.exception),
        (Aspect::Front, Aspect::Rear, Some(AspectException::SquareAgainstCavalry))
    );
    // ...but not against infantry.
    assert_eq!(square(RuleSet::Republique5, UnitKind::Infantry, left_attacker(-10.5)).aspect, Aspect::Flank);
    // 001 §4.3: classic squares have no flank or rear against anyone.
    assert_eq!(
        square(RuleSet::RepubliqueClassic, UnitKind::Infantry, rear_attacker(-14.5)).aspect,
        Aspect::Front
    );
}

#[test]
fn infantry_in_buildings_has_no_flank_against_infantry_but_keeps_its_rear() {
    let in_town = |rules, kind, a| {
        let mut t = against_line(rules, kind, a);
        t.terrain = vec![area(TerrainKind::HeavyBuildings, -20.0, -12.0, 50.0, 12.0)];
        aspect(&t)
    };
    let f = in_town(RuleSet::Republique5, UnitKind::Infantry, left_attacker(-10.5));
    assert_eq!((f.aspect, f.exception), (Aspect::Front, Some(AspectException::BuildingsAgainstInfantry)));
    assert_eq!(in_town(RuleSet::Republique5, UnitKind::Infantry, rear_attacker(-14.5)).aspect, Aspect::Rear);
    // Cavalry still flanks a town in Republique 5.0, not in classic (001 §4.3).
    assert_eq!(in_town(RuleSet::Republique5, UnitKind::Cavalry, left_attacker(-10.5)).aspect, Aspect::Flank);
    assert_eq!(
        in_town(RuleSet::RepubliqueClassic, UnitKind::Cavalry, left_attacker(-10.5)).aspect,
        Aspect::Front
    );
}

#[test]
fn cover_needs_half_of_the_bases_each_half_inside() {
    // A wood covering x >= 0. A 30 mm base centred at x = 0.3 has 15.3 / 30 = 51% inside;
    // at x = -0.3, 49%. The unit's other base is far outside: 1 of 2 bases = half.
    let with_first_at = |x: f64| {
        let mut t = table(
            RuleSet::Republique5,
            vec![unit("d", "austria", UnitKind::Infantry, vec![inf(x, 50.0, 90.0), inf(-200.0, 50.0, 90.0)])],
        );
        t.terrain = vec![area(TerrainKind::MediumForest, 0.0, 0.0, 100.0, 100.0)];
        t
    };
    let t = with_first_at(0.3);
    let v = unit_cover(&t.units[0], &[], &t.terrain, &t.rule_book().unwrap()).unwrap().unwrap();
    assert_eq!((v.class, v.by_unit), (CoverClass::Medium, true));
    let t = with_first_at(-0.3);
    assert_eq!(unit_cover(&t.units[0], &[], &t.terrain, &t.rule_book().unwrap()).unwrap(), None);
}

#[test]
fn cover_by_the_contact_face() {
    // Three bases, only #0 (51%) in the wood: 1 of 3 fails test a); if #0 is the whole
    // contact face, 1 of 1 passes test b).
    let mut t = table(
        RuleSet::Republique5,
        vec![unit(
            "d",
            "austria",
            UnitKind::Infantry,
            vec![inf(0.3, 50.0, 90.0), inf(-200.0, 50.0, 90.0), inf(-230.0, 50.0, 90.0)],
        )],
    );
    t.terrain = vec![area(TerrainKind::LightForest, 0.0, 0.0, 100.0, 100.0)];
    assert_eq!(unit_cover(&t.units[0], &[], &t.terrain, &t.rule_book().unwrap()).unwrap(), None);
    let v = unit_cover(&t.units[0], &[0], &t.terrain, &t.rule_book().unwrap()).unwrap().unwrap();
    assert_eq!((v.class, v.by_unit, v.by_contact_face), (CoverClass::Light, false, true));
    // The contact face #0 and #1: 1 of 2 is half: still in cover.
    assert!(unit_cover(&t.units[0], &[0, 1], &t.terrain, &t.rule_book().unwrap()).unwrap().is_some());
}

#[test]
fn republic_individual_bases_count_only_bases_in_range() {
    // A two-line attacker (4 bases, 2 in front) 1" from a one-base defender. Whole units:
    // 4 bases. Republic 102 C: only the two front bases, whose zones reach the defender.
    let mut t = table(
        RuleSet::Republic,
        vec![
            unit(
                "fr",
                "france",
                UnitKind::Infantry,
                vec![
                    inf(-15.0, 0.0, 90.0),
                    inf(15.0, 0.0, 90.0),
                    inf(-15.0, -20.0, 90.0),
                    inf(15.0, -20.0, 90.0),
                ],
            ),
            unit("au", "austria", UnitKind::Infantry, vec![inf(0.0, 10.0 + IN + 10.0, 270.0)]),
        ],
    );
    let count = |t: &Table| {
        let all =
            assaults(t, &SpatialIndex::new(t), &t.rule_book().unwrap(), AssaultDetail::ContactsAndAspects)
                .unwrap();
        all.iter().find(|a| a.contact.attacker == 0).unwrap().attacker_bases
    };
    assert_eq!(count(&t), 4);
    t.sides.insert(
        "france".into(),
        SideSettings { system: None, base_counting: Some(BaseCounting::IndividualBases) },
    );
    assert_eq!(count(&t), 2);
    // Republique 5.0 has no such rule: the loader refuses it.
    let mut r5 = t.clone();
    r5.rules = RuleSet::Republique5;
    assert!(r5.validate("test").is_err());
}

/// Republic: a French line of four (x -60..60) facing a two-base Austrian line 1" away
/// whose left end is at `left`.
fn overlap_table(left: f64) -> Table {
    table(
        RuleSet::Republic,
        vec![
            unit(
                "fr",
                "france",
                UnitKind::Infantry,
                vec![
                    inf(-45.0, 0.0, 90.0),
                    inf(-15.0, 0.0, 90.0),
                    inf(15.0, 0.0, 90.0),
                    inf(45.0, 0.0, 90.0),
                ],
            ),
            unit(
                "au",
                "austria",
                UnitKind::Infantry,
                vec![inf(left + 45.0, 10.0 + IN + 10.0, 270.0), inf(left + 15.0, 10.0 + IN + 10.0, 270.0)],
            ),
        ],
    )
}

fn overlaps(t: &Table) -> Vec<vedette_geometry::Overlap> {
    vedette_geometry::unopposed_overlap(t, &SpatialIndex::new(t), &t.rule_book().unwrap(), 0, 1).unwrap()
}

#[test]
fn unopposed_overlap_needs_half_a_base_on_one_side_and_matching_frontage_on_the_other() {
    // 003 501. Half a base = 15 mm. Defender x = left .. left + 60; French x -60..60.
    // left = -44.9: 15.1 mm over on the left, 44.9 on the right: both sides qualify.
    let o = overlaps(&overlap_table(-44.9));
    assert_eq!(o.iter().map(|o| o.side).collect::<Vec<_>>(), vec![FlankSide::Left, FlankSide::Right]);
    assert!(o.iter().all(|o| o.unopposed));
    // left = -45.1: 14.9 mm on the left (not half a base), 45.1 on the right.
    let o = overlaps(&overlap_table(-45.1));
    assert_eq!(o.iter().map(|o| o.side).collect::<Vec<_>>(), vec![FlankSide::Right]);
    // left = -70: 10 mm wider than the French on the left: the French are not at least as
    // wide there, so the right overlap (70 mm) does not count either.
    assert!(overlaps(&overlap_table(-70.0)).is_empty());
}

#[test]
fn an_enemy_facing_the_overlapping_base_opposes_the_overlap() {
    // An Austrian base 1" in front of the French right-hand base (x 30..60) opposes it.
    let mut t = overlap_table(-30.0);
    t.units.push(unit("au2", "austria", UnitKind::Infantry, vec![inf(75.0, 10.0 + IN + 10.0, 270.0)]));
    let o = overlaps(&t);
    let left = o.iter().find(|o| o.side == FlankSide::Left).unwrap();
    let right = o.iter().find(|o| o.side == FlankSide::Right).unwrap();
    assert!(left.unopposed);
    assert!(!right.unopposed);
}

/// Classic: a 40 x 20 base facing +y (front y = 10) and an enemy `gap` mm ahead.
fn classic(gap: f64, dx: f64) -> Table {
    table(
        RuleSet::RepubliqueClassic,
        vec![
            unit("fr", "france", UnitKind::Infantry, vec![b(0.0, 0.0, 90.0, 40.0, 20.0)]),
            unit("au", "austria", UnitKind::Infantry, vec![b(dx, 10.0 + gap + 10.0, 270.0, 40.0, 20.0)]),
        ],
    )
}

fn classic_of(t: &Table) -> Option<(ClassicContactKind, usize)> {
    classic_contacts(t, &SpatialIndex::new(t), &t.rule_book().unwrap())
        .unwrap()
        .into_iter()
        .find(|c| c.unit == 0)
        .map(|c| (c.kind, c.strength))
}

#[test]
fn classic_primary_within_25mm_incidental_within_50mm() {
    // 001 §4.1: within 25 mm primary (all bases), 25-50 mm incidental (half, rounded
    // down: one base gives 0).
    assert_eq!(classic_of(&classic(24.9, 0.0)), Some((ClassicContactKind::Primary, 1)));
    assert_eq!(classic_of(&classic(25.0, 0.0)), Some((ClassicContactKind::Primary, 1)));
    assert_eq!(classic_of(&classic(25.1, 0.0)), Some((ClassicContactKind::Incidental, 0)));
    assert_eq!(classic_of(&classic(49.9, 0.0)), Some((ClassicContactKind::Incidental, 0)));
    assert_eq!(classic_of(&classic(50.1, 0.0)), None);
}

#[test]
fn classic_facing_arc_runs_45_degrees_from_the_rear_corners() {
    // The arc's right side leaves the rear-right corner (20, -10) at 45° outward: the line
    // x - y = 30. An enemy facing back across it (heading 135°, front edge parallel to the
    // line, front-edge middle near (60, 30)) with its front edge 0.5 mm inside the arc:
    // the part inside is a 0.5 mm strip along its front edge; its nearest point to the
    // unit is the strip's lower end, the front corner
    //   F = (60, 30) + 0.5·(-1, 1)/√2 - 20·(1, 1)/√2 = (45.5043, 16.2114),
    // at |F - (20, 10)| = 26.25 mm from the front-right corner: incidental (25-50 mm).
    // 0.5 mm outside the line, nothing of it is in the arc: no contact at all, though it
    // stands 26 mm from the base.
    let r2 = std::f64::consts::SQRT_2;
    let at = |s: f64| {
        let n = vedette_geometry::Vec2::new(-1.0, 1.0) * (1.0 / r2);
        let m = vedette_geometry::Vec2::new(60.0, 30.0) + n * s;
        let c = m - n * 10.0;
        table(
            RuleSet::RepubliqueClassic,
            vec![
                unit("fr", "france", UnitKind::Infantry, vec![b(0.0, 0.0, 90.0, 40.0, 20.0)]),
                unit("au", "austria", UnitKind::Infantry, vec![b(c.x, c.y, 135.0, 40.0, 20.0)]),
            ],
        )
    };
    let t = at(0.5);
    let all = classic_contacts(&t, &SpatialIndex::new(&t), &t.rule_book().unwrap()).unwrap();
    let c = all.iter().find(|c| c.unit == 0).unwrap();
    let f = (60.0 - 0.5 / r2 - 20.0 / r2, 30.0 + 0.5 / r2 - 20.0 / r2);
    let expected = ((f.0 - 20.0f64).powi(2) + (f.1 - 10.0f64).powi(2)).sqrt();
    assert!((expected - 26.2498).abs() < 1e-3);
    assert!((c.distance_mm - expected).abs() < 1e-6, "{} vs {expected}", c.distance_mm);
    assert_eq!(c.kind, ClassicContactKind::Incidental);
    assert_eq!(classic_of(&at(-0.5)), None);
}

/// A one-base unit facing +y (front edge y = 10, x -15..15) with a hedge running across
/// its front `gap` mm ahead.
fn behind_hedge(rules: RuleSet, gap: f64) -> Table {
    let mut t = table(rules, vec![unit("d", "austria", UnitKind::Infantry, vec![inf(0.0, 0.0, 90.0)])]);
    t.terrain = vec![vedette_geometry::TerrainFeature {
        crests: Vec::new(),
        id: None,
        kind: TerrainKind::Hedge,
        level: 0.0,
        outline: vec![],
        holes: vec![],
        path: vec![
            vedette_geometry::Vec2::new(-100.0, 10.0 + gap),
            vedette_geometry::Vec2::new(100.0, 10.0 + gap),
        ],
    }];
    t
}

#[test]
fn a_hedge_gives_cover_to_units_right_behind_it() {
    // Republique 5.0: a hedge is light cover "when behind" (000 §3.6), for a unit taking
    // cover behind it: touching it or within its spotting depth, 1" (GEOMETRY.md, low
    // linear obstacles): 0.99" ahead covers, 1.01" does not.
    let cover = |t: &Table| unit_cover(&t.units[0], &[], &t.terrain, &t.rule_book().unwrap()).unwrap();
    assert_eq!(
        cover(&behind_hedge(RuleSet::Republique5, 0.99 * IN)).map(|v| v.class),
        Some(CoverClass::Light)
    );
    assert_eq!(cover(&behind_hedge(RuleSet::Republique5, 1.01 * IN)), None);
    // Touching the front edge counts.
    assert!(cover(&behind_hedge(RuleSet::Republique5, 0.0)).is_some());
    // A hedge behind the unit gives nothing.
    assert_eq!(cover(&behind_hedge(RuleSet::Republique5, -25.0)), None);
    // Pro Patria: "within 25mm ... and behind" (004 §15.11).
    assert!(cover(&behind_hedge(RuleSet::ProPatria, 24.9)).is_some());
    assert_eq!(cover(&behind_hedge(RuleSet::ProPatria, 25.1)), None);
}

#[test]
fn an_echelon_flank_line_steps_back_with_its_bases() {
    // Echelon right: base #0 at (0, 0), base #1 stepped 10 mm back at (30, -10). Both are
    // front bases. The flank line runs along their rear edges: y = -10 over x -15..15, then
    // y = -20 over 15..45, and on parallel to the front beyond each end.
    let echelon = vec![inf(0.0, 0.0, 90.0), inf(30.0, -10.0, 90.0)];
    let lines = vedette_geometry::FlankGeometry::of(&echelon).unwrap();
    // Beside the right end (x 55..75, facing -x): past y = -20 by 0.5 mm, or 0.5 mm short.
    let right = |low: f64| inf(65.0, low + 15.0, 180.0);
    assert!((lines.past_flank_line_mm(&right(-20.5)) - 0.5).abs() < 1e-9);
    assert!((lines.past_flank_line_mm(&right(-19.5)) + 0.5).abs() < 1e-9);
    // Beside the left end the line is 10 mm further forward: y = -10.
    let left = |low: f64| inf(-35.0, low + 15.0, 0.0);
    assert!((lines.past_flank_line_mm(&left(-10.5)) - 0.5).abs() < 1e-9);
    // The rear zone lies behind the line joining the outer rear corners (-15, -10) and
    // (45, -20): a base below it between x = -15 and 45 is in it, one above it is not.
    assert!(lines.reaches_rear_zone(&inf(15.0, -40.0, 90.0)));
    assert!(!lines.reaches_rear_zone(&inf(70.0, -40.0, 90.0)));
}
