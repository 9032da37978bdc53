//! The report's plan: the table with every finding of `vedette report` in its own
//! toggleable layer (arcs and zones of every battery, main and secondary targets, deep
//! windows, enfilade; assault zones, contacts, flank and rear lines; deployment areas
//! and leaders' reaches; skirmisher spacing and fire; Pro Patria targets, corridors, command
//! radius and crests; Republic alert zones, bluffs, supports; spotting depth in cover;
//! adjoining divisions; Pro Patria forced marches and charges that would catch; Republic
//! road columns; close calls). Fed by the library's
//! assessments, the same ones the report prints.

use crate::error::DrawError;
use crate::findings::artillery::{BatteryDetail, battery_label, draw_battery};
use crate::findings::assault::{draw_assault, flank_lines};
use crate::findings::command::draw_command;
use crate::findings::march::{draw_pro_patria_marches, draw_road_columns};
use crate::findings::pro_patria::draw_pro_patria;
use crate::findings::republic::draw_republic;
use crate::findings::skirmishers::draw_skirmishers;
use crate::findings::spotting::draw_spotting_depth_zones;
use crate::plan::table_scene;
use crate::scene::{Scene, finding_key};
use std::collections::BTreeMap;
use vedette_geometry::artillery::TargetCover;
use vedette_geometry::assault::assessment::AssaultAssessment;
use vedette_geometry::command::assessment::CommandAssessment;
use vedette_geometry::los::{SightRules, spotting_depth_zones};
use vedette_geometry::pro_patria::assessment::ProPatriaAssessment;
use vedette_geometry::republic::RepublicAssessment;
use vedette_geometry::{
    ArtilleryRules, BatteryAssessment, RuleBook, SkirmisherAssessment, SpatialIndex, Table,
};

/// What the artillery rules found.
#[derive(Debug, Clone, Copy)]
pub struct ArtilleryFindings<'a> {
    /// The rules' distances and angles.
    pub rules: &'a ArtilleryRules,
    /// Every battery's assessment.
    pub batteries: &'a [BatteryAssessment],
    /// Each battery's main target's cover (000 §4.3), in the same order.
    pub covers: &'a [Option<TargetCover>],
}

/// Everything the report found, as the library's assessments.
#[derive(Debug, Clone, Copy)]
pub struct ReportFindings<'a> {
    /// The artillery findings (`None` for rule sets without Republique artillery).
    pub artillery: Option<ArtilleryFindings<'a>>,
    /// The assault assessment.
    pub assaults: &'a AssaultAssessment,
    /// The command assessment.
    pub command: &'a CommandAssessment,
    /// Every skirmish marker's check and fire options.
    pub skirmishers: &'a SkirmisherAssessment,
    /// Pro Patria's findings, under Pro Patria.
    pub pro_patria: Option<&'a ProPatriaAssessment>,
    /// Republic's findings, under Republic.
    pub republic: Option<&'a RepublicAssessment>,
}

/// The plan of a table with every finding.
pub fn report_scene(
    table: &Table,
    index: &SpatialIndex,
    book: &RuleBook,
    f: &ReportFindings<'_>,
) -> Result<Scene, DrawError> {
    let title = format!(
        "{}: every finding ({} at {} scale)",
        table.name.as_deref().unwrap_or("table"),
        table.rules,
        table.scale
    );
    let mut scene = table_scene(table, &title);
    let zones = spotting_depth_zones(table, &SightRules::for_book(book)?);
    draw_spotting_depth_zones(&mut scene, table, book, &zones, None);
    draw_command(&mut scene, table, book, f.command);
    if let Some(art) = f.artillery {
        for (i, a) in art.batteries.iter().enumerate() {
            let cover = art.covers.get(i).and_then(Option::as_ref);
            let label = battery_label(table, a.battery.base_ref);
            scene.set_findings(vec![finding_key("artillery", &[&label])]);
            draw_battery(&mut scene, table, index, art.rules, a, BatteryDetail::Findings, cover);
        }
    }
    // A defender's flank and rear lines belong to every assault on it.
    let mut defenders: BTreeMap<usize, Vec<String>> = BTreeMap::new();
    for a in &f.assaults.findings {
        let unit = |u: usize| table.units.get(u).map_or("", |u| u.id.as_str());
        let key = finding_key("assault", &[unit(a.attacker), unit(a.defender)]);
        scene.set_findings(vec![key.clone()]);
        draw_assault(&mut scene, table, book, a, false)?;
        defenders.entry(a.defender).or_default().push(key);
    }
    for (d, keys) in defenders {
        scene.set_findings(keys);
        flank_lines(&mut scene, table, book, d)?;
    }
    // The assault groups' outnumbering (000 §5.4), said at each primary defender where
    // one side is outnumbered or the attack is mixed.
    for (k, (g, o)) in f.assaults.groups.iter().enumerate() {
        let Some(d) = table.units.get(g.defender) else { continue };
        let outnumbered = o.as_ref().and_then(|o| o.outnumbered.map(|s| (s, o.ratio)));
        if outnumbered.is_none() && !g.mixed {
            continue;
        }
        let mut words = format!(
            "{} on {}: {}:{} bases",
            crate::findings::unit_ids(table, &g.attackers).join(" "),
            d.id,
            g.attacker_bases,
            g.defender_bases
        );
        if let Some((side, ratio)) = outnumbered {
            let who = match side {
                vedette_geometry::assault::assessment::AssaultSide::Attacker => "attackers",
                vedette_geometry::assault::assessment::AssaultSide::Defender => "defenders",
            };
            words.push_str(&format!(", {who} outnumbered ({ratio:.2}, 000 §5.4)"));
        }
        if g.mixed {
            words.push_str(", mixed all-out and general");
        }
        let Some(b) = d.bases.first() else { continue };
        // The group belongs to each of its attackers' assaults on the defender.
        scene.set_findings(
            g.attackers
                .iter()
                .filter_map(|&a| table.units.get(a))
                .map(|a| finding_key("assault", &[&a.id, &d.id]))
                .collect(),
        );
        scene.add(
            crate::LayerId::Contacts,
            &format!("group-{k}-{}", crate::scene::id_part(&d.id)),
            "verdict",
            crate::Shape::verdict(b.centre(), words),
            crate::Height::BaseTop,
            None,
        );
    }
    scene.set_findings(Vec::new());
    draw_skirmishers(&mut scene, table, book, f.skirmishers);
    if let Some(p) = f.pro_patria {
        scene.set_findings(vec![finding_key("pro-patria", &[])]);
        draw_pro_patria(&mut scene, table, book, p)?;
        draw_pro_patria_marches(&mut scene, table, &p.forced_marches, &p.catches);
    }
    if let Some(r) = f.republic {
        scene.set_findings(vec![finding_key("republic", &[])]);
        draw_republic(&mut scene, table, book, r)?;
        draw_road_columns(&mut scene, table, &r.road_columns);
    }
    scene.set_findings(Vec::new());
    Ok(scene)
}
