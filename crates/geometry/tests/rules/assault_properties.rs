//! Property tests of the assault constructions (issue 5), fixed seeds: every verdict
//! survives rotating and moving the whole table, and a mirrored table mirrors the
//! aspect (left flank becomes right flank) and changes nothing else.

use crate::common;
use common::{inf, table, unit};
use proptest::prelude::*;
use vedette_geometry::{
    Aspect, AssaultDetail, AssaultRange, DefenderRole, FlankSide, RigidMotion, RuleSet, SpatialIndex, Table,
    UnitKind, Vec2, assaults, check_skirmishers, classic_contacts, pass_through, reaction_zone,
};

/// Lines of one to four bases, two sides, crowded into 260 mm so that assaults happen.
fn scene(rules: RuleSet) -> impl Strategy<Value = Table> {
    prop::collection::vec(
        (0.0..260.0f64, 0.0..260.0f64, 0.0..360.0f64, 1..5usize, any::<bool>(), any::<bool>()),
        2..7,
    )
    .prop_map(move |units| {
        let units = units
            .into_iter()
            .enumerate()
            .map(|(i, (x, y, h, n, side, cav))| {
                let fwd = Vec2::from_heading_deg(h);
                let right = fwd.perp_right();
                let bases = (0..n)
                    .map(|k| {
                        let c = Vec2::new(x, y) + right * ((k as f64 - (n as f64 - 1.0) / 2.0) * 30.0);
                        inf(c.x, c.y, h)
                    })
                    .collect();
                let kind = if cav { UnitKind::Cavalry } else { UnitKind::Infantry };
                unit(&format!("u{i}"), if side { "a" } else { "b" }, kind, bases)
            })
            .collect();
        table(rules, units)
    })
}

type Verdict = (usize, usize, AssaultRange, Aspect, Option<FlankSide>, DefenderRole, Vec<usize>, bool);

fn verdicts(t: &Table) -> Vec<Verdict> {
    let mut v: Vec<Verdict> =
        assaults(t, &SpatialIndex::new(t), &t.rule_book().unwrap(), AssaultDetail::ContactsAndAspects)
            .unwrap()
            .into_iter()
            .map(|a| {
                (
                    a.contact.attacker,
                    a.contact.defender,
                    a.contact.range,
                    a.aspect.aspect,
                    a.aspect.flank_side,
                    a.contact.role,
                    a.contact.contact_face,
                    a.mixed,
                )
            })
            .collect();
    v.sort_by_key(|a| (a.0, a.1));
    v
}

proptest! {
    #![proptest_config(common::proptest_config(300, 1809))]

    #[test]
    fn assault_verdicts_survive_moving_the_table(
        t in scene(RuleSet::Republique5), rot in 0.0..360.0f64, tx in -3000.0..3000.0f64, ty in -3000.0..3000.0f64,
    ) {
        let moved = RigidMotion::new(rot, Vec2::new(tx, ty)).table(&t);
        prop_assert_eq!(verdicts(&t), verdicts(&moved));
    }

    #[test]
    fn a_mirrored_attack_mirrors_its_aspect(t in scene(RuleSet::Republique5), axis in -500.0..500.0f64) {
        let mirrored = RigidMotion::mirror_x(axis).table(&t);
        let expected: Vec<Verdict> = verdicts(&t)
            .into_iter()
            .map(|mut v| {
                v.4 = v.4.map(FlankSide::mirrored);
                v
            })
            .collect();
        prop_assert_eq!(expected, verdicts(&mirrored));
    }

    #[test]
    fn classic_contacts_survive_moving_the_table(t in scene(RuleSet::RepubliqueClassic), rot in 0.0..360.0f64) {
        let moved = RigidMotion::new(rot, Vec2::new(123.0, -456.0)).table(&t);
        let key = |t: &Table| {
            classic_contacts(t, &SpatialIndex::new(t), &t.rule_book().unwrap())
                .unwrap()
                .into_iter()
                .map(|c| (c.unit, c.enemy, c.kind, c.strength))
                .collect::<Vec<_>>()
        };
        prop_assert_eq!(key(&t), key(&moved));
    }

    #[test]
    fn command_skirmisher_and_pro_patria_verdicts_survive_moving_the_table(
        t in scene(RuleSet::Republique5), rot in 0.0..360.0f64, mirror in any::<bool>(),
    ) {
        // Half the units become skirmish markers of the first unit of their side.
        let mut t = t;
        for i in 1..t.units.len() {
            if i % 2 == 0 {
                let parent = t.units.iter().find(|u| u.side == t.units[i].side).map(|u| u.id.clone());
                if parent.as_deref() != Some(t.units[i].id.as_str()) {
                    t.units[i].kind = UnitKind::Skirmisher;
                    t.units[i].parent = parent;
                }
            }
        }
        let moved = RigidMotion { mirror, rotation_deg: rot, translation: Vec2::new(-77.0, 901.0) }.table(&t);
        let key = |t: &Table| {
            let index = SpatialIndex::new(t);
            let book = t.rule_book().unwrap();
            let sight = vedette_geometry::los::TerrainSight::try_new(&index).unwrap();
            let mut out = Vec::new();
            for u in 0..t.units.len() {
                out.push(format!("r{u}:{:?}", reaction_zone(t, &index, &book, &sight, u).unwrap().keys().collect::<Vec<_>>()));
                out.push(format!("p{u}:{:?}", pass_through(t, &index, &book, u).unwrap().keys().collect::<Vec<_>>()));
            }
            for c in check_skirmishers(t, &index, &book).unwrap() {
                out.push(format!("s{:?}:{}:{:?}:{:?}", c.marker, c.near_parent, c.spacing, c.enemy_between));
            }
            let mut pp = t.clone();
            pp.rules = RuleSet::ProPatria;
            pp.scale = vedette_geometry::Scale::Figures28mm;
            let book = pp.rule_book().unwrap();
            let index = SpatialIndex::new(&pp);
            let sight = vedette_geometry::los::TerrainSight::try_new(&index).unwrap();
            for p in vedette_geometry::pro_patria::contact::proximities(&pp, &index, &book).unwrap() {
                out.push(format!("c{}-{}:{}", p.a, p.b, p.in_contact));
            }
            for u in 0..pp.units.len() {
                let n = vedette_geometry::pro_patria::arcs::nearest_in_arc(&pp, &index, &book, &sight, u).unwrap();
                out.push(format!("a{u}:{:?}", n.map(|x| x.0)));
            }
            out
        };
        prop_assert_eq!(key(&t), key(&moved));
    }
}
