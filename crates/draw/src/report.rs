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
use crate::scene::{Element, LayerId, Scene, Shape, finding_key};
use std::collections::{BTreeMap, HashSet};
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

/// Which findings a whole-table picture shows (`vedette report --plan/--png --layers`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum LayerChoice {
    /// What a player needs on the whole table: the table, terrain and bases, and the
    /// findings that break or decide something: main targets with their range, deep
    /// windows and the bases they count, enfilade, secondary targets, assault contacts,
    /// outnumbering, flank and rear lines of a defender attacked in flank or rear,
    /// anything illegal (too close, outside its area, out of command, a marker too far or
    /// too close), rally penalties, skirmish blocks, and every close call. Arcs, firing
    /// and assault zones, brackets, clear swings, deployment areas, leaders' reaches,
    /// divisions' distances, reaction and pass-through reach, skirmisher spacing and fire,
    /// spotting depth and candidates that are not the main target are left to
    /// [`LayerChoice::All`] ([`is_detail`]).
    #[default]
    Decisive,
    /// Every finding.
    All,
    /// These layers in full, with the table, terrain, bases and legend.
    Named(Vec<LayerId>),
}

impl std::str::FromStr for LayerChoice {
    type Err = String;

    /// `decisive`, `all`, or layer names separated by commas (`targets,contacts`).
    fn from_str(text: &str) -> Result<LayerChoice, String> {
        match text.trim() {
            "decisive" => return Ok(LayerChoice::Decisive),
            "all" => return Ok(LayerChoice::All),
            _ => {}
        }
        let mut layers = Vec::new();
        for name in text.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            match LayerId::ALL.iter().find(|l| l.name() == name) {
                Some(&l) => layers.push(l),
                None => {
                    let names: Vec<&str> = LayerId::ALL.iter().map(|l| l.name()).collect();
                    return Err(format!(
                        "unknown layer \"{name}\": give decisive, all, or layers among {}",
                        names.join(", ")
                    ));
                }
            }
        }
        if layers.is_empty() {
            return Err("no layer named: give decisive, all, or layer names separated by commas".to_string());
        }
        Ok(LayerChoice::Named(layers))
    }
}

/// The style classes of the elements a player does not need to read the whole table's
/// verdicts ([`LayerChoice::Decisive`]): the constructions behind them.
pub const DETAIL_CLASSES: &[&str] = &[
    "arc",
    "bracket",
    "frontage",
    "clear-swing",
    "firing-zone",
    "centre-of-fire",
    "assault-zone",
    "all-out-zone",
    "deployment",
    "reach",
    "engagement",
    "adjoining",
    "together",
    "reaction",
    "pass-through",
    "spacing",
    "parent-line",
    "skirmish-fire",
    "spotting-depth",
    "depth-run",
    "blind-zone",
    "alert-zone",
    "firing-arc",
    "command-radius",
    "corps-leader",
];

/// Label ids (before `-label`) that name a detail with no drawn element of that id.
const DETAIL_LABELS: &[&str] = &["candidate-", "deployment-", "reach-", "frontage-", "command-radius-"];

/// True when `e` (in `layer`) is a detail left out of the decisive picture
/// ([`LayerChoice::Decisive`]); `flanked`: the ids of defenders attacked in flank or rear
/// (their flank and rear lines decide). A label is what the element it labels is
/// (`element`: the scene's element of an id).
#[must_use]
pub fn is_detail<'a>(
    layer: LayerId,
    e: &Element,
    element: &dyn Fn(&str) -> Option<&'a Element>,
    flanked: &HashSet<String>,
) -> bool {
    if matches!(
        layer,
        LayerId::Table | LayerId::Terrain | LayerId::Bases | LayerId::Legend | LayerId::CloseCalls
    ) {
        return false;
    }
    if let Shape::Text { .. } = e.shape {
        let of = e.id.strip_suffix("-label").unwrap_or(&e.id);
        if DETAIL_LABELS.iter().any(|p| of.starts_with(p)) {
            return true;
        }
        return match element(of) {
            Some(labelled) if labelled.id != e.id => is_detail(layer, labelled, element, flanked),
            _ => false,
        };
    }
    if layer == LayerId::FlankLines {
        let unit =
            e.id.strip_prefix("flank-line-").or_else(|| e.id.strip_prefix("rear-lines-")).unwrap_or("");
        return !flanked.contains(unit);
    }
    e.class.split_whitespace().any(|c| DETAIL_CLASSES.contains(&c))
}

/// Keeps what `choice` shows of a whole-table scene drawn from `f` ([`report_scene`]).
pub fn choose_layers(scene: &mut Scene, table: &Table, f: &ReportFindings<'_>, choice: &LayerChoice) {
    match choice {
        LayerChoice::All => {}
        LayerChoice::Named(layers) => {
            let keep: HashSet<LayerId> = layers
                .iter()
                .copied()
                .chain([LayerId::Table, LayerId::Terrain, LayerId::Bases, LayerId::Legend])
                .collect();
            scene.retain(|l, _| keep.contains(&l));
        }
        LayerChoice::Decisive => {
            let flanked: HashSet<String> = f
                .assaults
                .findings
                .iter()
                .filter(|a| {
                    a.aspect.is_some_and(|x| {
                        matches!(x.aspect, vedette_geometry::Aspect::Flank | vedette_geometry::Aspect::Rear)
                    })
                })
                .filter_map(|a| table.units.get(a.defender))
                .map(|u| crate::scene::id_part(&u.id))
                .collect();
            // Decided on the whole scene first (a label is what it labels), then kept.
            let by_id: std::collections::HashMap<&str, &Element> =
                scene.layers().iter().flat_map(|l| &l.elements).map(|e| (e.id.as_str(), e)).collect();
            let element = |id: &str| by_id.get(id).copied();
            let detail: HashSet<String> = scene
                .layers()
                .iter()
                .flat_map(|l| l.elements.iter().map(move |e| (l.id, e)))
                .filter(|(l, e)| is_detail(*l, e, &element, &flanked))
                .map(|(_, e)| e.id.clone())
                .collect();
            scene.retain(|_, e| !detail.contains(&e.id));
        }
    }
}
