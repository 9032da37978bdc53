//! Command findings drawn (000 §2.1-2.3, §4.7, §5.4): each division's and corps'
//! deployment area as the assessment built it ([`vedette_geometry::DeploymentArea`]),
//! assets outside their area, and each leader's reaches
//! ([`vedette_geometry::command::deployment::reach_outline`]); cavalry reaction and
//! pass-through reach as lines to the units they find (000 §3.6, §5.5).

use crate::findings::{distance_words, outline_bases, pair_words, square_inches_words, unit_ids};
use crate::plan::side_numbers;
use crate::scene::{Height, LayerId, Scene, Shape, finding_key, id_part};
use crate::style::side_class;
use vedette_geometry::command::assessment::{
    AssetFinding, CommandAssessment, DivisionFinding, DivisionPairFinding,
};
use vedette_geometry::command::deployment::reach_outline;
use vedette_geometry::{BaseRef, DeploymentArea, RuleBook, Table};

fn area(
    scene: &mut Scene,
    table: &Table,
    book: &RuleBook,
    what: &str,
    side: Option<&str>,
    a: &DeploymentArea,
) {
    let sides = side_numbers(table);
    let class =
        format!("deployment area {}", side_class(side.and_then(|s| sides.get(s).copied()).unwrap_or(0)));
    let sq = square_inches_words(book, a.area_mm2()).map_or(String::new(), |s| format!(", {s}"));
    for (i, o) in a.outlines.iter().enumerate() {
        scene.add(
            LayerId::Command,
            &format!("deployment-{}-{i}", id_part(what)),
            &class,
            Shape::Polygon { exterior: o.exterior.clone(), holes: o.holes.clone() },
            Height::Table,
            Some(format!("deployment area of {what}: 3\" around its primary units{sq} (000 §2.1)")),
        );
    }
    scene.legend("deployment area", "deployment area, 3\" boundary (000 §2.1)", true);
}

/// An area's size, said on its boundary at the outline's vertex farthest up the table
/// (the first of equals), where it least covers the units inside. Drawn after every
/// other command finding, so that on a crowded plan the verdicts win the places first.
fn area_label(scene: &mut Scene, book: &RuleBook, what: &str, a: &DeploymentArea) {
    let sq_in = square_inches_words(book, a.area_mm2());
    if let Some(top) = a
        .outlines
        .iter()
        .flat_map(|o| o.exterior.iter())
        .copied()
        .reduce(|best, p| if p.y > best.y { p } else { best })
    {
        scene.add(
            LayerId::Command,
            &format!("deployment-{}-label", id_part(what)),
            "verdict",
            Shape::verdict(
                top,
                match &sq_in {
                    Some(s) => format!("{what} area: {s}"),
                    None => format!("{what} area: {:.0} cm²", a.area_mm2() / 100.0),
                },
            ),
            Height::Table,
            None,
        );
    }
}

fn assets(scene: &mut Scene, table: &Table, what: &str, v: &[AssetFinding]) {
    for a in v.iter().filter(|a| !a.inside) {
        outline_bases(
            scene,
            table,
            LayerId::Command,
            a.unit,
            "outside-area",
            "illegal",
            &format!(
                "{} must stand inside the deployment area of {what}: {:.0}% of it is (000 §2.1)",
                table.units[a.unit].id,
                a.fraction_inside * 100.0
            ),
        );
        if let Some(b) = table.units[a.unit].bases.first() {
            scene.add(
                LayerId::Command,
                &format!("outside-area-{}-label", id_part(&table.units[a.unit].id)),
                "verdict",
                Shape::verdict(
                    b.centre(),
                    format!(
                        "{} OUTSIDE its area ({:.0}% in)",
                        table.units[a.unit].id,
                        a.fraction_inside * 100.0
                    ),
                ),
                Height::BaseTop,
                None,
            );
        }
        scene.legend("illegal", "breaks a rule (outside its area, too close...)", true);
    }
}

/// Draws the command findings, each tagged with its [`finding_key`] (`division/NAME`,
/// `corps/NAME`, `cavalry-reaction/UNIT`, `pass-through/UNIT`, `division-pair/A/B`,
/// `leader/UNIT`).
pub fn draw_command(scene: &mut Scene, table: &Table, book: &RuleBook, found: &CommandAssessment) {
    let before = scene.set_findings(Vec::new());
    for d in &found.divisions {
        scene.set_findings(vec![finding_key("division", &[&d.name])]);
        if let Some(a) = &d.area {
            area(scene, table, book, &format!("division {}", d.name), Some(&d.side), a);
        }
        assets(scene, table, &format!("division {}", d.name), &d.assets);
        division_distances(scene, table, book, d);
    }
    for c in &found.corps {
        scene.set_findings(vec![finding_key("corps", &[&c.name])]);
        let side =
            table.units.iter().find(|u| u.corps.as_deref() == Some(c.name.as_str())).map(|u| u.side.as_str());
        if let Some(a) = &c.area {
            area(scene, table, book, &format!("corps {}", c.name), side, a);
        }
        assets(scene, table, &format!("corps {}", c.name), &c.assets);
    }
    for p in &found.division_pairs {
        scene.set_findings(vec![finding_key("division-pair", &[&p.a, &p.b])]);
        division_pair(scene, table, book, p);
    }
    for l in &found.leaders {
        let Some(u) = table.units.get(l.leader) else { continue };
        scene.set_findings(vec![finding_key("leader", &[&u.id])]);
        for (k, r) in l.reaches.iter().enumerate() {
            for (i, o) in reach_outline(&u.bases, r.reach_mm).iter().enumerate() {
                scene.add(
                    LayerId::Command,
                    &format!("reach-{}-{k}-{i}", id_part(&u.id)),
                    "reach",
                    Shape::Polygon { exterior: o.exterior.clone(), holes: o.holes.clone() },
                    Height::Table,
                    Some(format!(
                        "{}: {} within {}: {}",
                        u.id,
                        r.rule,
                        distance_words(book, r.reach_mm),
                        if r.units.is_empty() {
                            "no unit".to_string()
                        } else {
                            unit_ids(table, &r.units).join(", ")
                        }
                    )),
                );
            }
        }
        if let (Some(r), Some(b)) = (l.reaches.first(), u.bases.first()) {
            scene.add(
                LayerId::Command,
                &format!("reach-{}-label", id_part(&u.id)),
                "verdict",
                Shape::verdict(
                    b.centre() + vedette_geometry::Vec2::new(0.0, -r.reach_mm),
                    format!(
                        "{} within {}: {}",
                        u.id,
                        distance_words(book, r.reach_mm),
                        if r.units.is_empty() {
                            "no unit".to_string()
                        } else {
                            unit_ids(table, &r.units).join(" ")
                        }
                    ),
                ),
                Height::Table,
                None,
            );
        }
        if !l.reaches.is_empty() {
            scene.legend("reach", "leader's reach (000 §2.3, §4.7, §5.4)", true);
        }
    }
    // Reaction and pass-through lines, then the areas' sizes: on a crowded plan the
    // divisions' verdicts, pairs and leaders' reaches win the label places first.
    for (zones, class, words, short, kind) in [
        (
            &found.cavalry_reaction,
            "reaction",
            "in its reaction zone, 6\" to its front (000 §3.6)",
            "in the reaction zone of",
            "cavalry-reaction",
        ),
        (
            &found.pass_through,
            "pass-through",
            "within pass-through reach to its rear (000 §5.5)",
            "within the pass-through reach of",
            "pass-through",
        ),
    ] {
        for z in zones {
            let unit = table.units.get(z.unit).map_or("", |u| u.id.as_str());
            scene.set_findings(vec![finding_key(kind, &[unit])]);
            for (&u, &mm) in &z.units {
                let (Some(a), Some(b)) = (table.units.get(z.unit), table.units.get(u)) else { continue };
                let Some(uc) = a.closest_to(b) else { continue };
                let c = uc.closest;
                let (ra, rb) = (BaseRef::new(z.unit, uc.from_base), BaseRef::new(u, uc.to_base));
                // The zone's distance (its part ahead of the flank line, for cavalry) is
                // the finding's; its uncertainty is that of the closest pair's distance.
                let sigma = vedette_geometry::close_call::distance_sigma_mm(table, ra, rb, &c);
                let measured = crate::findings::measured_words(book, mm, sigma);
                scene.add(
                    LayerId::Command,
                    &format!("{class}-{}-{}", id_part(&a.id), id_part(&b.id)),
                    class,
                    Shape::line(c.from, c.to),
                    Height::Table,
                    Some(format!("{}: {} {words}, {measured}", a.id, b.id)),
                );
                scene.add(
                    LayerId::Command,
                    &format!("{class}-{}-{}-label", id_part(&a.id), id_part(&b.id)),
                    "verdict",
                    Shape::verdict(c.from.lerp(c.to, 0.5), format!("{} {short} {}: {measured}", b.id, a.id)),
                    Height::Table,
                    None,
                );
            }
            if !z.units.is_empty() {
                scene.legend(class, words, true);
            }
        }
    }
    for d in &found.divisions {
        if let Some(a) = &d.area {
            scene.set_findings(vec![finding_key("division", &[&d.name])]);
            area_label(scene, book, &format!("division {}", d.name), a);
        }
    }
    for c in &found.corps {
        if let Some(a) = &c.area {
            scene.set_findings(vec![finding_key("corps", &[&c.name])]);
            area_label(scene, book, &format!("corps {}", c.name), a);
        }
    }
    scene.set_findings(before);
}

/// A division's distance verdicts (000 §3.3): its nearest enemy within engagement range
/// (8"), joined at the closest points; each unit whose distance to the division leader
/// costs a rally penalty (one per full 4" beyond 4"), joined to the leader; and the
/// corps leader beyond 12", said at the division leader.
fn division_distances(scene: &mut Scene, table: &Table, book: &RuleBook, d: &DivisionFinding) {
    let line = |scene: &mut Scene, a: usize, b: usize, class: &str, label: &dyn Fn(&str) -> String| {
        let (Some(ua), Some(ub)) = (table.units.get(a), table.units.get(b)) else { return };
        let Some(uc) = ua.closest_to(ub) else { return };
        let (ra, rb) = (BaseRef::new(a, uc.from_base), BaseRef::new(b, uc.to_base));
        let words = label(&pair_words(table, book, ra, rb, &uc.closest));
        let key = format!("{class}-{}-{}", id_part(&ua.id), id_part(&ub.id));
        scene.add(
            LayerId::Command,
            &key,
            class,
            Shape::line(uc.closest.from, uc.closest.to),
            Height::Table,
            Some(words.clone()),
        );
        scene.add(
            LayerId::Command,
            &format!("{key}-label"),
            "verdict",
            Shape::verdict(uc.closest.from.lerp(uc.closest.to, 0.5), words),
            Height::Table,
            None,
        );
    };
    if let Some((own, foe)) = d.nearest_enemy_units {
        let foe_id = table.units.get(foe).map_or("", |u| u.id.as_str());
        line(scene, own, foe, "engagement", &|w| format!("{} engaged: {foe_id} at {w}", d.name));
        scene.legend("engagement", "division engaged: nearest enemy within 8\" (000 §3.3)", true);
    }
    if let Some(l) = d.leader {
        for r in d.rally.iter().filter(|r| r.penalty > 0) {
            let unit = table.units.get(r.unit).map_or("", |u| u.id.as_str());
            line(scene, l, r.unit, "rally", &|w| format!("{unit} rally -{}: {w} from its leader", r.penalty));
            scene.legend(
                "rally",
                "rally penalty: a step per full 4\" beyond 4\" from the leader (000 §3.3)",
                true,
            );
        }
        if d.corps_leader_beyond
            && let (Some(mm), Some(b)) =
                (d.corps_leader_distance_mm, table.units.get(l).and_then(|u| u.bases.first()))
        {
            scene.add(
                LayerId::Command,
                &format!("corps-leader-{}", id_part(&d.name)),
                "verdict",
                Shape::verdict(
                    b.centre(),
                    format!("{}: corps leader beyond 12\" ({})", d.name, distance_words(book, mm)),
                ),
                Height::BaseTop,
                None,
            );
        }
    }
}

/// Two divisions' closest units joined at their closest points (000 §3.3, §6.2): an
/// adjoining line when they adjoin (within 3" and in sight of each other), a together
/// line when they are only within 6", with the distance and its uncertainty.
fn division_pair(scene: &mut Scene, table: &Table, book: &RuleBook, p: &DivisionPairFinding) {
    let Some(uc) = p.line(table) else { return };
    let (ra, rb) = (BaseRef::new(p.units.0, uc.from_base), BaseRef::new(p.units.1, uc.to_base));
    let words = pair_words(table, book, ra, rb, &uc.closest);
    let (class, what) = if p.adjoining {
        ("adjoining", "adjoin (000 §6.2: within 3\" and in line of sight; 002 §5.2: 8 cm)")
    } else if p.together {
        ("together", "act together, within 6\" (000 §3.3), but do not adjoin (000 §6.2)")
    } else {
        ("together", "are just beyond the distance that joins them, too close to call")
    };
    let (ua, ub) = (&table.units[p.units.0].id, &table.units[p.units.1].id);
    let key = format!("{}-{}", id_part(&p.a), id_part(&p.b));
    scene.add(
        LayerId::Command,
        &format!("{class}-{key}"),
        class,
        Shape::line(uc.closest.from, uc.closest.to),
        Height::Table,
        Some(format!("divisions {} and {} {what}: {words} between {ua} and {ub}", p.a, p.b)),
    );
    let verb = if p.adjoining {
        "adjoin"
    } else if p.together {
        "together, not adjoining"
    } else {
        "just beyond 6\": too close to call"
    };
    scene.add(
        LayerId::Command,
        &format!("{class}-{key}-label"),
        "verdict",
        Shape::verdict(uc.closest.from.lerp(uc.closest.to, 0.5), format!("{} | {} {verb} {words}", p.a, p.b)),
        Height::Table,
        None,
    );
    if p.adjoining {
        scene.legend("adjoining", "divisions adjoining (000 §6.2)", true);
    } else {
        scene.legend("together", "divisions within 6\", not adjoining (000 §3.3)", true);
    }
}
