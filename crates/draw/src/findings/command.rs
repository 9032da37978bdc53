//! Command findings drawn (000 §2.1-2.3, §4.7, §5.4): each division's and corps'
//! deployment area as the assessment built it ([`vedette_geometry::DeploymentArea`]),
//! assets outside their area, and each leader's reaches
//! ([`vedette_geometry::command::deployment::reach_outline`]); cavalry reaction and
//! pass-through reach as lines to the units they find (000 §3.6, §5.5).

use crate::findings::{distance_words, outline_bases};
use crate::plan::side_numbers;
use crate::scene::{Height, LayerId, Scene, Shape, id_part};
use crate::style::side_class;
use vedette_geometry::command::assessment::{AssetFinding, CommandAssessment};
use vedette_geometry::command::deployment::reach_outline;
use vedette_geometry::{DeploymentArea, RuleBook, Table};

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
    let sq = book
        .rule_inches_to_mm(1.0)
        .map_or(String::new(), |one| format!(", {:.0} sq in", a.area_mm2() / (one * one)));
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
        scene.legend("illegal", "breaks a rule (outside its area, too close...)", true);
    }
}

/// Draws the command findings.
pub fn draw_command(scene: &mut Scene, table: &Table, book: &RuleBook, found: &CommandAssessment) {
    for d in &found.divisions {
        if let Some(a) = &d.area {
            area(scene, table, book, &format!("division {}", d.name), Some(&d.side), a);
        }
        assets(scene, table, &format!("division {}", d.name), &d.assets);
    }
    for c in &found.corps {
        let side =
            table.units.iter().find(|u| u.corps.as_deref() == Some(c.name.as_str())).map(|u| u.side.as_str());
        if let Some(a) = &c.area {
            area(scene, table, book, &format!("corps {}", c.name), side, a);
        }
        assets(scene, table, &format!("corps {}", c.name), &c.assets);
    }
    for (zones, class, words) in [
        (&found.cavalry_reaction, "reaction", "in its reaction zone, 6\" to its front (000 §3.6)"),
        (&found.pass_through, "pass-through", "within pass-through reach to its rear (000 §5.5)"),
    ] {
        for z in zones {
            for (&u, &mm) in &z.units {
                let (Some(a), Some(b)) = (table.units.get(z.unit), table.units.get(u)) else { continue };
                let Some(c) = a
                    .bases
                    .iter()
                    .flat_map(|x| b.bases.iter().map(move |y| x.closest_points(y)))
                    .min_by(|p, q| p.distance_mm.total_cmp(&q.distance_mm))
                else {
                    continue;
                };
                scene.add(
                    LayerId::Command,
                    &format!("{class}-{}-{}", id_part(&a.id), id_part(&b.id)),
                    class,
                    Shape::line(c.from, c.to),
                    Height::Table,
                    Some(format!("{}: {} {words}, {}", a.id, b.id, distance_words(book, mm))),
                );
            }
            if !z.units.is_empty() {
                scene.legend(class, words, true);
            }
        }
    }
    for l in &found.leaders {
        let Some(u) = table.units.get(l.leader) else { continue };
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
                            r.units.iter().map(|&x| table.units[x].id.as_str()).collect::<Vec<_>>().join(", ")
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
                    format!("{} {}: {} unit(s)", u.id, distance_words(book, r.reach_mm), r.units.len()),
                ),
                Height::Table,
                None,
            );
        }
        if !l.reaches.is_empty() {
            scene.legend("reach", "leader's reach (000 §2.3, §4.7, §5.4)", true);
        }
    }
}
