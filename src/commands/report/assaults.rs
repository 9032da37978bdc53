//! The `assaults` section: who is in assault contact with whom, and everything the
//! assault phase measures about it (issue 5).
//!
//! - Republique 5.0 and Republic: every attacker-defender pair in the 3" zones, with
//!   range, contact face, primary or supporting, aspect, base counts, cover and (Republic)
//!   unopposed overlap; and the assault groups (outnumbering inputs).
//! - Classic Republique: every unit facing an enemy within 50 mm of its facing arc,
//!   primary or incidental.
//! - Pro Patria: units in contact (30 mm of edge, 20 for 15 mm figures), both ways.

use super::columns::{num, render};
use crate::CliError;
use serde::Serialize;
use vedette_geometry::assault::assessment::{AssaultAssessment, assess_assaults};
use vedette_geometry::{
    Aspect, AspectException, CoverClass, CoverVerdict, DefenderRole, FlankSide, RuleBook, SpatialIndex, Table,
};

use crate::commands::calls::{self, CallEntry};
use crate::commands::measure::micro;

pub use vedette_geometry::assault::assessment::ContactRange;

/// A unit's §5.4 cover.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct CoverReport {
    /// The best cover class it counts as in.
    pub class: CoverClass,
    /// Assault cover points (000 §5.2).
    pub points: u8,
    /// Half or more of its bases are each half or more in it.
    pub by_unit: bool,
    /// Half or more of its contact-face bases are.
    pub by_contact_face: bool,
}

impl From<CoverVerdict> for CoverReport {
    fn from(v: CoverVerdict) -> Self {
        CoverReport {
            class: v.class,
            points: v.class.assault_points(),
            by_unit: v.by_unit,
            by_contact_face: v.by_contact_face,
        }
    }
}

/// One side of an unopposed-overlap check (Republic 501).
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct OverlapReport {
    /// The attacker's flank that overlaps.
    pub side: FlankSide,
    /// How far its face reaches past the defender's, in rule inches.
    pub overlap_in: f64,
    /// No other enemy faces the overlapping bases within 3".
    pub unopposed: bool,
}

/// One attacker against one defender.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct AssaultEntry {
    /// The attacking unit.
    pub attacker: String,
    /// The defending unit.
    pub defender: String,
    /// The attacker's side.
    pub attacker_side: String,
    /// All-out, general, primary, incidental or contact.
    pub range: ContactRange,
    /// Front, flank or rear (after the rule set's exceptions).
    pub aspect: Aspect,
    /// For a flank attack, which of the defender's flanks.
    pub flank_side: Option<FlankSide>,
    /// The exception that turned a flank or rear into front, if any.
    pub aspect_exception: Option<AspectException>,
    /// The close call of the aspect from the lines (before exceptions): the attacker's
    /// deciding base against the defender's flank line or rear zone; see "Close calls".
    pub aspect_call: Option<CallEntry>,
    /// The attacker's bases on the contact face (`unit#index`).
    pub contact_face: Vec<String>,
    /// Bases the attacker brings.
    pub attacker_bases: usize,
    /// Bases the defender brings against this attacker.
    pub defender_bases: usize,
    /// Republique 5.0 / Republic: primary or supporting defender.
    pub role: Option<DefenderRole>,
    /// How far apart, table mm (R5: ahead of the contact face to the defender; classic: the
    /// defender's part in the facing arc to the front bases; Pro Patria: 0).
    pub distance_mm: f64,
    /// The same in rule inches (`null` for Pro Patria).
    pub distance_in: Option<f64>,
    /// The range's close call against the nearer of the rule set's two limits
    /// (`null` for Pro Patria); see "Close calls".
    pub range_call: Option<CallEntry>,
    /// R5: the attacker's contact frontage with the defender; Pro Patria: the edge
    /// contact; mm.
    pub contact_frontage_mm: Option<f64>,
    /// The assault on the attacker's primary defender mixes all-out and general attackers.
    pub mixed: bool,
    /// The defender's §5.4 cover (R5 family).
    pub defender_cover: Option<CoverReport>,
    /// The attacker's §5.4 cover (R5 family).
    pub attacker_cover: Option<CoverReport>,
    /// The close call of the defender's cover class (R5 family, on a table with
    /// terrain): how far its bases must move for the class to change; see "Close calls".
    pub defender_cover_call: Option<CallEntry>,
    /// The close call of the attacker's cover class.
    pub attacker_cover_call: Option<CallEntry>,
    /// Republic 501: the attacker's overlap of its primary defender.
    pub unopposed_overlap: Vec<OverlapReport>,
}

/// Everyone assaulting one primary defender (Republique 5.0 / Republic).
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct GroupEntry {
    /// The primary defender.
    pub defender: String,
    /// The attackers whose primary defender it is.
    pub attackers: Vec<String>,
    /// Supporting defenders met by those attackers.
    pub supporting: Vec<String>,
    /// Some attackers all-out, some general.
    pub mixed: bool,
    /// Total attacker bases.
    pub attacker_bases: usize,
    /// Total defender bases (primary plus supporting bases met).
    pub defender_bases: usize,
    /// The larger count over the smaller (1.5 = 3:2).
    pub ratio: Option<f64>,
    /// The side with fewer bases when the ratio is 3:2 or more: `attacker` or `defender`.
    pub outnumbered: Option<String>,
}

/// The `assaults` section.
#[derive(Debug, Clone, Default, Serialize, schemars::JsonSchema)]
pub struct AssaultsSection {
    /// Every contact.
    pub entries: Vec<AssaultEntry>,
    /// Outnumbering inputs per primary defender (R5 family).
    pub groups: Vec<GroupEntry>,
}

fn label(t: &Table, unit: usize, base: usize) -> String {
    t.base_label(vedette_geometry::BaseRef::new(unit, base))
}

/// Builds the section: the library's assessment ([`assess_assaults`]) with ids, labels
/// and rule inches.
pub fn build(t: &Table, index: &SpatialIndex, book: &RuleBook) -> Result<AssaultsSection, CliError> {
    Ok(section_of(t, book, &assess_assaults(t, index, book)?))
}

/// The section from the library's assessment.
#[must_use]
pub fn section_of(t: &Table, book: &RuleBook, found: &AssaultAssessment) -> AssaultsSection {
    let rule_in = |mm: f64| book.mm_to_rule_inches(mm).map(micro);
    let mut s = AssaultsSection::default();
    for f in found.listed() {
        s.entries.push(AssaultEntry {
            attacker: t.units[f.attacker].id.clone(),
            defender: t.units[f.defender].id.clone(),
            attacker_side: t.units[f.attacker].side.clone(),
            range: f.range,
            aspect: f.shown_aspect(),
            flank_side: f.aspect.and_then(|a| a.flank_side),
            aspect_exception: f.aspect.and_then(|a| a.exception),
            aspect_call: f.aspect_call.as_ref().map(|c| calls::entry(t, c, None)),
            contact_face: f.contact_face.iter().map(|&i| label(t, f.attacker, i)).collect(),
            attacker_bases: f.attacker_bases,
            defender_bases: f.defender_bases,
            role: f.role,
            distance_mm: micro(f.distance_mm),
            distance_in: f.distance_rule_in(book).map(micro),
            range_call: f.range_call.as_ref().map(|(limit, c)| calls::entry(t, c, Some(*limit))),
            contact_frontage_mm: f.contact_frontage_mm.map(micro),
            mixed: f.mixed,
            defender_cover: f.defender_cover.map(CoverReport::from),
            attacker_cover: f.attacker_cover.map(CoverReport::from),
            defender_cover_call: f.defender_cover_call.map(|c| calls::entry(t, &c, None)),
            attacker_cover_call: f.attacker_cover_call.map(|c| calls::entry(t, &c, None)),
            unopposed_overlap: f
                .overlap
                .iter()
                .map(|o| OverlapReport {
                    side: o.side,
                    overlap_in: rule_in(o.overlap_mm).unwrap_or(0.0),
                    unopposed: o.unopposed,
                })
                .collect(),
        });
    }
    for (g, o) in &found.groups {
        s.groups.push(GroupEntry {
            defender: t.units[g.defender].id.clone(),
            attackers: g.attackers.iter().map(|&i| t.units[i].id.clone()).collect(),
            supporting: g.supporting.iter().map(|&i| t.units[i].id.clone()).collect(),
            mixed: g.mixed,
            attacker_bases: g.attacker_bases,
            defender_bases: g.defender_bases,
            ratio: o.map(|o| micro(o.ratio)),
            outnumbered: o.and_then(|o| o.outnumbered).map(|side| kebab(&side)),
        });
    }
    s
}

fn kebab<T: Serialize>(v: &T) -> String {
    serde_json::to_value(v).ok().and_then(|j| j.as_str().map(str::to_string)).unwrap_or_default()
}

fn range_name(r: ContactRange) -> &'static str {
    match r {
        ContactRange::AllOut => "all-out",
        ContactRange::General => "general",
        ContactRange::Primary => "primary",
        ContactRange::Incidental => "incidental",
        ContactRange::Contact => "contact",
    }
}

fn aspect_name(e: &AssaultEntry) -> String {
    let base = match e.aspect {
        Aspect::Front => "front",
        Aspect::Flank => "flank",
        Aspect::Rear => "rear",
    };
    match (e.flank_side, e.aspect_exception) {
        (Some(FlankSide::Left), _) => "left flank".to_string(),
        (Some(FlankSide::Right), _) => "right flank".to_string(),
        (None, Some(_)) => format!("{base}*"),
        _ => base.to_string(),
    }
}

/// The human rendering.
#[must_use]
pub fn render_text(s: &AssaultsSection) -> String {
    let mut out = String::from("\nAssaults\n");
    if s.entries.is_empty() {
        out.push_str("  none\n");
        return out;
    }
    let rows: Vec<Vec<String>> = s
        .entries
        .iter()
        .map(|e| {
            let mut notes = Vec::new();
            if e.mixed {
                notes.push("mixed".to_string());
            }
            if let Some(x) = e.aspect_exception {
                notes.push(kebab(&x));
            }
            if let Some(c) = &e.defender_cover {
                notes.push(format!("defender in {} cover", c.class.name()));
            }
            for o in e.unopposed_overlap.iter().filter(|o| o.unopposed) {
                notes.push(format!("unopposed overlap {}", kebab(&o.side)));
            }
            if let Some(c) = e.range_call.as_ref().filter(|c| !c.certain) {
                notes.push(format!("range{}", calls::mark(c)));
            }
            for (what, call) in [
                ("aspect", &e.aspect_call),
                ("defender cover", &e.defender_cover_call),
                ("attacker cover", &e.attacker_cover_call),
            ] {
                if let Some(c) = call.as_ref().filter(|c| !c.certain) {
                    notes.push(format!("{what}{}", calls::mark(c)));
                }
            }
            vec![
                e.attacker.clone(),
                e.defender.clone(),
                range_name(e.range).to_string(),
                aspect_name(e),
                e.role.map_or("-".to_string(), |r| kebab(&r)),
                e.distance_in.map_or_else(|| format!("{:.1} mm", e.distance_mm), |v| format!("{v:.2}\"")),
                format!("{}:{}", e.attacker_bases, e.defender_bases),
                e.contact_face.join(" "),
                notes.join("; "),
            ]
        })
        .collect();
    out.push_str(&render(
        &["attacker", "defender", "range", "aspect", "role", "gap", "bases", "contact face", "notes"],
        &rows,
    ));
    if !s.groups.is_empty() {
        out.push_str("\n  Assault groups (outnumbering inputs)\n");
        let rows: Vec<Vec<String>> = s
            .groups
            .iter()
            .map(|g| {
                vec![
                    g.defender.clone(),
                    g.attackers.join(" "),
                    if g.supporting.is_empty() { "-".to_string() } else { g.supporting.join(" ") },
                    format!("{}:{}", g.attacker_bases, g.defender_bases),
                    num(g.ratio, 2),
                    g.outnumbered.clone().unwrap_or_else(|| "-".to_string()),
                    if g.mixed { "mixed".to_string() } else { String::new() },
                ]
            })
            .collect();
        out.push_str(&render(
            &["defender", "attackers", "supporting", "bases", "ratio", "outnumbered", ""],
            &rows,
        ));
    }
    out
}
