//! Pro Patria findings drawn (004): each firer's arcs ([`firing_arc`], 22½°, 180° in
//! skirmish order) and the line to its nearest visible target with the target's cover;
//! the endangered-friend corridor ([`corridor`]) and the friends in it (§17.3.8); units
//! in contact or too close (§17.4); generals' command radius
//! ([`crate::findings::command`]'s reach outline, §14.2) and units out of command; the
//! hills' crest lines ([`hill_crests`]: drawn in the table file, or derived) and the
//! units that must say behind or over (§15.1).

use crate::findings::artillery::close_call;
use crate::findings::{outline_bases, unit_ids};
use crate::scene::{Height, LayerId, Scene, Shape, id_part};
use std::collections::BTreeSet;
use vedette_geometry::command::deployment::reach_outline;
use vedette_geometry::pro_patria::arcs::{firing_arc, shoots_all_round_ahead};
use vedette_geometry::pro_patria::assessment::ProPatriaAssessment;
use vedette_geometry::pro_patria::corridor::corridor;
use vedette_geometry::pro_patria::crest::hill_crests;
use vedette_geometry::{Base, ClosestPoints, GeometryError, RuleBook, RuleDistance, Table, TerrainKind};

/// The closest pair of bases of two units.
fn closest(table: &Table, a: usize, b: usize) -> Option<(&Base, &Base, ClosestPoints)> {
    let (ua, ub) = (table.units.get(a)?, table.units.get(b)?);
    ua.bases
        .iter()
        .flat_map(|x| ub.bases.iter().map(move |y| (x, y, x.closest_points(y))))
        .min_by(|p, q| p.2.distance_mm.total_cmp(&q.2.distance_mm))
}

/// Draws the Pro Patria findings.
pub fn draw_pro_patria(
    scene: &mut Scene,
    table: &Table,
    book: &RuleBook,
    found: &ProPatriaAssessment,
) -> Result<(), GeometryError> {
    for f in &found.proximities {
        let p = &f.proximity;
        let Some((_, _, c)) = closest(table, p.a, p.b) else { continue };
        let (a, b) = (&table.units[p.a].id, &table.units[p.b].id);
        let key = format!("{}-{}", id_part(a), id_part(b));
        let (class, words) = if p.in_contact {
            ("contact", format!("in contact, {:.0} mm of edge (004 §17.4.2)", p.contact_mm))
        } else if f.too_close {
            ("illegal", format!("{:.1} mm: too close unless charging (004 §17.4)", p.distance_mm))
        } else {
            continue;
        };
        scene.add(
            LayerId::Contacts,
            &format!("proximity-{key}"),
            class,
            Shape::line(c.from, c.to),
            Height::Table,
            Some(format!("{a} - {b}: {words}")),
        );
        scene.add(
            LayerId::Contacts,
            &format!("proximity-{key}-label"),
            "verdict",
            Shape::verdict(c.from.lerp(c.to, 0.5), words),
            Height::Table,
            None,
        );
    }
    for t in &found.targets {
        let Some(u) = table.units.get(t.unit) else { continue };
        let Some((fb, tb, c)) = closest(table, t.unit, t.target) else { continue };
        let (uid, tid) = (&u.id, &table.units[t.target].id);
        let key = format!("{}-{}", id_part(uid), id_part(tid));
        let all_round = shoots_all_round_ahead(u);
        for (i, b) in u.bases.iter().enumerate() {
            let arc = firing_arc(b, all_round, book)?;
            scene.add(
                LayerId::Arcs,
                &format!("firing-arc-{}.{i}", id_part(uid)),
                "arc",
                Shape::polygon(arc.polygon(t.distance_mm + b.depth()).into_vertices()),
                Height::Table,
                Some(format!(
                    "{uid}#{i}: firing arc, {} (004 §17.3)",
                    if all_round { "180°" } else { "22½° each side" }
                )),
            );
        }
        scene.legend("arc", "firing arc (004 §17.3)", false);
        let cover = t.cover.map_or(String::new(), |k| format!(", {} cover", k.name()));
        let words = format!("{tid} at {:.1} mm{cover}", t.distance_mm);
        let endangered = unit_ids(table, &t.endangered);
        // Written on the plan: who fires on whom, and whether it may.
        let verdict = if endangered.is_empty() {
            format!("{uid} → {words}")
        } else {
            format!("{uid} → {words}: may not fire, endangers {} (004 §17.3.8)", endangered.join(" "))
        };
        scene.add(
            LayerId::Targets,
            &format!("target-line-{key}"),
            if t.endangered.is_empty() { "target-line" } else { "illegal" },
            Shape::line(c.from, c.to),
            Height::Table,
            Some(format!("{uid}: nearest visible target {words} (004 §17.3, §15.11)")),
        );
        scene.add(
            LayerId::Targets,
            &format!("target-line-{key}-label"),
            "verdict",
            Shape::verdict(c.from.lerp(c.to, 0.5), verdict),
            Height::Table,
            None,
        );
        if !t.endangered.is_empty() {
            if let Some(poly) = corridor(fb, tb) {
                scene.add(
                    LayerId::Zones,
                    &format!("corridor-{key}"),
                    "corridor",
                    Shape::polygon(poly.into_vertices()),
                    Height::Table,
                    Some(format!("{uid} → {tid}: the corridor of friends it would endanger (004 §17.3.8)")),
                );
            }
            scene.legend("corridor", "corridor of endangered friends (004 §17.3.8)", false);
            for &e in &t.endangered {
                outline_bases(
                    scene,
                    table,
                    LayerId::Targets,
                    e,
                    &format!("endangered-{}", id_part(uid)),
                    "illegal",
                    &format!(
                        "{} is endangered: {uid} may not fire on {tid} (004 §17.3.8)",
                        table.units[e].id
                    ),
                );
            }
            scene.legend("illegal", "breaks a rule (endangers friends, too close, out of command)", true);
        }
        scene.legend("target-line", "nearest visible target (004 §17.3)", true);
    }
    let generals: BTreeSet<usize> = found.command.iter().map(|c| c.general).collect();
    let radius = book.distance_mm(RuleDistance::CommandRadius)?;
    for g in generals {
        let Some(u) = table.units.get(g) else { continue };
        for (i, o) in reach_outline(&u.bases, radius).iter().enumerate() {
            scene.add(
                LayerId::Command,
                &format!("command-radius-{}-{i}", id_part(&u.id)),
                "reach",
                Shape::Polygon { exterior: o.exterior.clone(), holes: o.holes.clone() },
                Height::Table,
                Some(format!("{}: command radius {radius:.0} mm (004 §14.2)", u.id)),
            );
        }
        scene.legend("reach", "command radius (004 §14.2)", true);
    }
    for c in found.command.iter().filter(|c| !c.in_command) {
        let (Some(u), Some(g)) = (table.units.get(c.unit), table.units.get(c.general)) else { continue };
        outline_bases(
            scene,
            table,
            LayerId::Command,
            c.unit,
            "out-of-command",
            "illegal",
            &format!("{} is {:.1} mm from {}: OUT of command (004 §14.2)", u.id, c.distance_mm, g.id),
        );
        if let Some(b) = u.bases.first() {
            scene.add(
                LayerId::Command,
                &format!("out-of-command-{}-label", id_part(&u.id)),
                "verdict",
                Shape::verdict(
                    b.centre(),
                    format!(
                        "{} OUT of command: {:.1} mm from {} ({radius:.0} mm)",
                        u.id, c.distance_mm, g.id
                    ),
                ),
                Height::BaseTop,
                None,
            );
        }
    }
    for (h, t) in table.terrain.iter().enumerate().filter(|(_, t)| t.kind == TerrainKind::Hill) {
        let lines = hill_crests(t);
        if lines.is_empty() {
            continue;
        }
        let name = t.id.clone().unwrap_or_else(|| format!("terrain[{h}]"));
        for line in lines {
            let which = line.name();
            let key = line.drawn.map_or_else(|| which.clone(), |k| format!("drawn-{k}"));
            scene.add(
                LayerId::Terrain,
                &format!("crest-{}-{key}", id_part(&name)),
                "crest",
                Shape::Polyline(line.points),
                Height::Table,
                Some(format!("{name}: crest line ({which}) (004 §15.1)")),
            );
        }
        scene.legend("crest", "hill crest lines (004 §15.1)", true);
    }
    for c in &found.crests {
        close_call(
            scene,
            table,
            c.base,
            &format!("{} at the crest", table.units[c.unit].id),
            &format!(
                "{:.1} mm from the crest line: its player says behind or over (004 §15.1)",
                c.distance_mm
            ),
        );
    }
    Ok(())
}
