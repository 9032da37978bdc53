//! The report's findings in plain sentences, one a finding: what `vedette serve`'s page
//! lists under *All findings* and under a selected unit (issue 38 item 5). Each sentence
//! carries the key the plan tags the finding's drawing with (`data-finding`,
//! [`vedette_draw::finding_key`]), the units whose finding it is (the battery, the
//! attacker, the division's units, the leader...) and the units it is about (the
//! battery's targets, the defender, the units in reach...), so that a unit's own findings
//! can be listed before the findings about it.
//!
//! This is the one place these sentences are written: the page asks for them
//! (`/api/findings`) and never writes its own.

use super::Report;
use super::artillery::ArtilleryEntry;
use super::assaults::AssaultEntry;
use super::command::{DivisionReport, LeaderReport, ZoneReport};
use super::skirmishers::MarkerReport;
use serde::Serialize;
use vedette_draw::finding_key;

/// One finding in words.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Sentence {
    /// The key of its drawing on the plan (`artillery/fr-art-1`, `assault/A/B`, ...).
    pub key: String,
    /// Its kind, the first part of the key (`artillery`, `assault`, `division`, ...).
    pub kind: &'static str,
    /// The heading its kind is grouped under (`Artillery`, `Assaults`, ...).
    pub group: &'static str,
    /// The sentence.
    pub text: String,
    /// The units whose own finding it is (a battery's fire, an attacker's assault, the
    /// units of a division, a leader, a skirmish marker's parent).
    pub by: Vec<String>,
    /// The units it is about (a battery's targets and nearest enemy, the defender, the
    /// units within a leader's reach or a zone).
    pub about: Vec<String>,
    /// Every unit and base id it names (`unit` or `unit#i`): the bases outlined when
    /// it is shown.
    pub names: Vec<String>,
    /// Some verdict in it is too close to call (docs/report-format.md, "Close calls").
    pub close_call: bool,
}

/// The unit of a `unit#index` label (a unit id unchanged).
fn unit_of(label: &str) -> String {
    label.split_once('#').map_or(label, |(u, _)| u).to_string()
}

/// `2.50"`, or `-` without a value.
fn inches(v: Option<f64>) -> String {
    v.map_or_else(|| "-".to_string(), |v| format!("{v:.2}\""))
}

/// Rule inches when the rule set has them, else mm (Pro Patria).
fn distance(rule_in: Option<f64>, mm: f64) -> String {
    rule_in.map_or_else(|| format!("{mm:.1} mm"), |v| format!("{v:.2}\""))
}

/// A value's serde name (`general`, `front`, `all-out`...).
fn word<T: Serialize>(v: &T) -> String {
    match serde_json::to_value(v) {
        Ok(serde_json::Value::String(s)) => s,
        Ok(other) => other.to_string(),
        Err(_) => "?".to_string(),
    }
}

/// Every string of a finding's JSON, and whether any close call in it is uncertain.
fn strings_and_close(v: &serde_json::Value, names: &mut Vec<String>) -> bool {
    match v {
        serde_json::Value::String(s) => {
            if !names.contains(s) {
                names.push(s.clone());
            }
            false
        }
        serde_json::Value::Array(a) => a.iter().fold(false, |c, x| strings_and_close(x, names) | c),
        serde_json::Value::Object(o) => {
            let uncertain = o.get("certain") == Some(&serde_json::Value::Bool(false));
            o.values().fold(uncertain, |c, x| strings_and_close(x, names) | c)
        }
        _ => false,
    }
}

struct Builder {
    out: Vec<Sentence>,
}

impl Builder {
    /// Adds a finding's sentence; `outline`: the names outlined with it, when not every
    /// name it holds.
    fn add<T: Serialize>(
        &mut self,
        (kind, group): (&'static str, &'static str),
        key_names: &[&str],
        text: String,
        (by, about): (Vec<String>, Vec<String>),
        value: &T,
        outline: Option<Vec<String>>,
    ) {
        let mut names = Vec::new();
        let close_call =
            serde_json::to_value(value).map(|v| strings_and_close(&v, &mut names)).unwrap_or(false);
        let names = outline.unwrap_or(names);
        let dedup = |v: Vec<String>| {
            let mut seen: Vec<String> = Vec::new();
            for x in v {
                if !seen.contains(&x) {
                    seen.push(x);
                }
            }
            seen
        };
        let (by, about) = (dedup(by), dedup(about));
        let about = about.into_iter().filter(|u| !by.contains(u)).collect();
        self.out.push(Sentence {
            key: finding_key(kind, key_names),
            kind,
            group,
            text,
            by,
            about,
            names,
            close_call,
        });
    }
}

const ARTILLERY: (&str, &str) = ("artillery", "Artillery");
const ASSAULT: (&str, &str) = ("assault", "Assaults");
const DIVISION: (&str, &str) = ("division", "Command");
const CORPS: (&str, &str) = ("corps", "Command");
const DIVISION_PAIR: (&str, &str) = ("division-pair", "Command");
const LEADER: (&str, &str) = ("leader", "Leaders");
const REACTION: (&str, &str) = ("cavalry-reaction", "Zones");
const PASS_THROUGH: (&str, &str) = ("pass-through", "Zones");
const SKIRMISHER: (&str, &str) = ("skirmisher", "Skirmishers");
const PRO_PATRIA: (&str, &str) = ("pro-patria", "Pro Patria");
const REPUBLIC: (&str, &str) = ("republic", "Republic");

fn battery(b: &mut Builder, a: &ArtilleryEntry) {
    let main = a.main_target.as_ref().and_then(|m| a.targets.iter().find(|t| &t.unit == m));
    let mut parts = vec![match (&a.main_target, main) {
        (Some(m), Some(t)) => {
            format!("main target {m} at {} (bracket {})", inches(Some(t.range_in)), t.bracket)
        }
        (Some(m), None) => format!("main target {m}"),
        (None, _) if a.limbered => "limbered: it may not fire".to_string(),
        (None, _) => "no main target".to_string(),
    }];
    if a.deep {
        parts.push("deep".to_string());
    }
    if a.enfilade {
        parts.push(match a.enfilade_flank {
            Some(f) => format!("enfilade ({} flank)", word(&f)),
            None => "enfilade".to_string(),
        });
    }
    if let Some(c) = a.target_cover.as_ref().and_then(|c| c.class) {
        parts.push(format!("target in {} cover", word(&c)));
    }
    if !a.tandem.is_empty() {
        parts.push(format!("tandem {}", a.tandem.join(" ")));
    }
    if !a.adjacent.is_empty() {
        parts.push(format!("adjacent {}", a.adjacent.join(" ")));
    }
    let valid: Vec<&str> = a
        .targets
        .iter()
        .filter(|t| t.valid && Some(&t.unit) != a.main_target.as_ref())
        .map(|t| t.unit.as_str())
        .collect();
    if !valid.is_empty() {
        parts.push(format!("also valid: {}", valid.join(" ")));
    }
    let u = &a.unlimber;
    if u.too_close == Some(true) {
        parts.push(format!(
            "TOO CLOSE to unlimber: {} at {}",
            u.nearest_enemy.as_deref().unwrap_or("?"),
            inches(u.distance_in)
        ));
    }
    let mut about: Vec<String> = a.main_target.iter().cloned().collect();
    about.extend(a.targets.iter().filter(|t| t.valid).map(|t| t.unit.clone()));
    about.extend(a.tandem.iter().chain(&a.adjacent).cloned());
    about.extend(u.nearest_enemy.iter().map(|e| unit_of(e)));
    b.add(
        ARTILLERY,
        &[&a.battery],
        format!("Battery {}: {}", a.battery, parts.join(", ")),
        (vec![unit_of(&a.battery)], about),
        a,
        // The battery and its main target: its other candidates are drawn, not outlined.
        Some(std::iter::once(a.battery.clone()).chain(a.main_target.iter().cloned()).collect()),
    );
}

fn assault(b: &mut Builder, e: &AssaultEntry) {
    let mut parts = vec![format!("{} range", word(&e.range)), word(&e.aspect)];
    if let Some(f) = e.flank_side {
        parts.push(format!("{} flank", word(&f)));
    }
    if let Some(r) = &e.role {
        parts.push(word(r));
    }
    parts.push(format!("{} apart", distance(e.distance_in, e.distance_mm)));
    parts.push(format!("{} bases to {}", e.attacker_bases, e.defender_bases));
    if let Some(c) = &e.defender_cover {
        parts.push(format!("defender in {} cover", word(&c.class)));
    }
    b.add(
        ASSAULT,
        &[&e.attacker, &e.defender],
        format!("Assault {} -> {}: {}", e.attacker, e.defender, parts.join(", ")),
        (vec![e.attacker.clone()], vec![e.defender.clone()]),
        e,
        None,
    );
}

fn division(b: &mut Builder, d: &DivisionReport) {
    let outside: Vec<&str> = d.assets.iter().filter(|x| !x.inside).map(|x| x.unit.as_str()).collect();
    let mut parts = Vec::new();
    if d.engaged {
        parts.push(format!("engaged ({} from the nearest enemy)", inches(d.nearest_enemy_in)));
    }
    if !outside.is_empty() {
        parts.push(format!("outside its area: {}", outside.join(" ")));
    }
    let penalties: Vec<String> =
        d.rally.iter().filter(|r| r.penalty > 0).map(|r| format!("{} -{}", r.unit, r.penalty)).collect();
    if !penalties.is_empty() {
        parts.push(format!("rally penalties {}", penalties.join(", ")));
    }
    if parts.is_empty() {
        parts.push("in order".to_string());
    }
    let mut by = d.primary_units.clone();
    by.extend(d.assets.iter().map(|x| x.unit.clone()));
    by.extend(d.rally.iter().map(|x| x.unit.clone()));
    by.extend(d.leader.iter().cloned());
    b.add(
        DIVISION,
        &[&d.division],
        format!("Division {}: {}", d.division, parts.join(", ")),
        (by, vec![]),
        d,
        None,
    );
}

fn leader(b: &mut Builder, l: &LeaderReport) {
    let mut units: Vec<String> = Vec::new();
    for r in &l.reaches {
        for u in &r.units {
            if !units.contains(u) {
                units.push(u.clone());
            }
        }
    }
    let text = format!(
        "Leader {}: {} within reach",
        l.leader,
        if units.is_empty() { "no unit".to_string() } else { units.join(" ") }
    );
    b.add(LEADER, &[&l.leader], text, (vec![l.leader.clone()], units), l, None);
}

fn zone(b: &mut Builder, kind: (&'static str, &'static str), words: &str, z: &ZoneReport) {
    let units: Vec<String> = z.units.iter().map(|u| u.unit.clone()).collect();
    let inside: Vec<String> =
        z.units.iter().map(|u| format!("{} ({})", u.unit, distance(u.distance_in, u.distance_mm))).collect();
    let text = format!(
        "{words} of {}: {}",
        z.unit,
        if inside.is_empty() { "no unit".to_string() } else { inside.join(", ") }
    );
    b.add(kind, &[&z.unit], text, (vec![z.unit.clone()], units), z, None);
}

fn skirmisher(b: &mut Builder, m: &MarkerReport) {
    let mut parts = vec![if m.legal { "legal".to_string() } else { "ILLEGAL".to_string() }];
    if let Some(p) = &m.parent {
        parts.push(format!("{} from {p}", inches(m.parent_distance_in)));
    }
    if !m.enemy_between.is_empty() {
        parts.push(format!("enemy between: {}", m.enemy_between.join(" ")));
    }
    if !m.fire.targets.is_empty() {
        parts.push(format!("fires on {}", m.fire.targets.join(" ")));
    }
    let mut by = vec![unit_of(&m.marker)];
    by.extend(m.parent.iter().cloned());
    b.add(
        SKIRMISHER,
        &[&m.marker],
        format!("Skirmisher {}: {}", m.marker, parts.join(", ")),
        (by, m.fire.targets.clone()),
        m,
        None,
    );
}

/// Every finding of a report in a sentence, in the report's order (artillery,
/// assaults, command, zones, skirmishers, the rule set's own).
#[must_use]
pub fn sentences(report: &Report) -> Vec<Sentence> {
    let mut b = Builder { out: Vec::new() };
    for a in report.artillery.iter().flatten() {
        battery(&mut b, a);
    }
    for e in &report.assaults.entries {
        assault(&mut b, e);
    }
    let c = &report.command;
    for d in &c.divisions {
        division(&mut b, d);
    }
    for d in &c.corps {
        let outside: Vec<&str> = d.assets.iter().filter(|x| !x.inside).map(|x| x.unit.as_str()).collect();
        let text = if outside.is_empty() {
            format!("Corps {}: every asset inside its area", d.corps)
        } else {
            format!("Corps {}: outside its area: {}", d.corps, outside.join(" "))
        };
        let by = d.assets.iter().map(|x| x.unit.clone()).collect();
        b.add(CORPS, &[&d.corps], text, (by, vec![]), d, None);
    }
    for p in &c.division_pairs {
        let how = if p.adjoining {
            ", adjoining"
        } else if p.together {
            ", together"
        } else {
            ""
        };
        let text = format!("Divisions {} and {}: {} apart{how}", p.a, p.b, inches(p.distance_in));
        b.add(DIVISION_PAIR, &[&p.a, &p.b], text, (vec![], vec![]), p, None);
    }
    for l in &c.leaders {
        leader(&mut b, l);
    }
    for z in &c.cavalry_reaction {
        zone(&mut b, REACTION, "Reaction zone", z);
    }
    for z in &c.pass_through {
        zone(&mut b, PASS_THROUGH, "Pass-through zone", z);
    }
    for m in &report.skirmishers {
        skirmisher(&mut b, m);
    }
    if let Some(p) = &report.pro_patria {
        b.add(
            PRO_PATRIA,
            &[],
            "Pro Patria findings (see the report text)".to_string(),
            (vec![], vec![]),
            p,
            None,
        );
    }
    if let Some(r) = &report.republic {
        b.add(
            REPUBLIC,
            &[],
            "Republic findings (see the report text)".to_string(),
            (vec![], vec![]),
            r,
            None,
        );
    }
    b.out
}

#[cfg(test)]
mod tests {
    use super::*;
    use vedette_geometry::Table;

    fn sample(name: &str) -> Vec<Sentence> {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("samples").join(name);
        let table = Table::load(&path).unwrap();
        sentences(&super::super::build(&table).unwrap())
    }

    #[test]
    fn a_battery_too_close_says_so_in_its_own_sentence() {
        // vedette report samples/brigade-attack.json: au-art-1 ... TOO CLOSE: fr-1-3#2 at 1.99"
        let all = sample("brigade-attack.json");
        let s = all.iter().find(|s| s.key == "artillery/au-art-1").unwrap();
        assert_eq!(
            s.text,
            "Battery au-art-1: main target fr-1-3 at 1.99\" (bracket 1), deep, TOO CLOSE to unlimber: fr-1-3#2 at 1.99\""
        );
        assert_eq!(s.by, ["au-art-1"]);
        assert_eq!(s.about, ["fr-1-3"]);
        assert!(!s.close_call);
    }

    #[test]
    fn own_findings_and_findings_about_a_unit_are_told_apart() {
        let all = sample("brigade-attack.json");
        // au-art-1 assaults fr-1-3 (its own) and is assaulted by fr-1-3 (about it).
        let own: Vec<&str> =
            all.iter().filter(|s| s.by.iter().any(|u| u == "au-art-1")).map(|s| s.key.as_str()).collect();
        let about: Vec<&str> =
            all.iter().filter(|s| s.about.iter().any(|u| u == "au-art-1")).map(|s| s.key.as_str()).collect();
        assert_eq!(own, ["artillery/au-art-1", "assault/au-art-1/fr-1-3", "division/au-d1"]);
        assert_eq!(about, ["assault/fr-1-3/au-art-1"]);
        // 3 batteries, 8 assaults, 4 divisions, 2 pairs, 2 leaders, 1 pass-through, 2 skirmishers.
        assert_eq!(all.len(), 22);
        let a = all.iter().find(|s| s.key == "assault/fr-1-3/au-art-1").unwrap();
        assert_eq!(
            a.text,
            "Assault fr-1-3 -> au-art-1: general range, front, primary, 1.99\" apart, 9 bases to 1"
        );
    }

    #[test]
    fn a_close_call_is_marked() {
        // brigade-attack is exact: no verdict is too close to call.
        assert!(sample("brigade-attack.json").iter().all(|s| !s.close_call));
        // A finding holding a call that is not certain, however deep, is one; the
        // strings it names are gathered on the way.
        let mut names = Vec::new();
        let close = serde_json::json!({"unit": "au-3", "reaches": [{"calls": [{"unit": "fr-1#2", "call": {"certain": false}}]}]});
        assert!(strings_and_close(&close, &mut names));
        names.sort();
        assert_eq!(names, ["au-3", "fr-1#2"]);
        let sure = serde_json::json!({"unit": "au-3", "call": {"certain": true, "nudge": null}});
        assert!(!strings_and_close(&sure, &mut Vec::new()));
        let mut b = Builder { out: Vec::new() };
        b.add(LEADER, &["ldr"], "Leader ldr".to_string(), (vec![], vec![]), &close, None);
        assert!(b.out[0].close_call);
    }
}
