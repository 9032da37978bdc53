//! Verdict captions (issue 39 item 1): each caption's text for the samples, the expected
//! text worked out in the test from what `vedette report`, `measure` and `los` print as
//! JSON (never copied from the caption), the close-call mark on a hand-built scanned
//! table, the pair verdict of the phone card, and the band the pictures start with.

use crate::common;
use common::{sample, stderr, stdout, vedette};
use serde_json::Value;
use vedette_draw::caption::{Caption, Topic, band_layout};
use vedette_draw::explain::explain_pair;
use vedette_draw::pair_verdict;
use vedette_geometry::Table;

/// `vedette ARGS` printing JSON.
fn json(args: &[&str]) -> Value {
    let o = vedette(args);
    assert!(o.status.success(), "{}", stderr(&o));
    serde_json::from_str(&stdout(&o)).unwrap()
}

fn path(name: &str) -> String {
    sample(name).to_str().unwrap().to_string()
}

fn golden_table(name: &str) -> String {
    common::root().join("tests/golden").join(name).to_str().unwrap().to_string()
}

/// The report's entry of `battery`, and its entry for `target`.
fn battery_entry(report: &Value, battery: &str, target: &str) -> (Value, Value) {
    let b = report["artillery"].as_array().unwrap().iter().find(|b| b["battery"] == battery).unwrap().clone();
    let t = b["targets"].as_array().unwrap().iter().find(|t| t["unit"] == target).unwrap().clone();
    (b, t)
}

/// The battery headline as the report's battery row says it: main (or why not), deep,
/// enfilade, range and bracket.
fn battery_headline(report: &Value, battery: &str, target: &str) -> String {
    let (b, t) = battery_entry(report, battery, target);
    let mut parts: Vec<String> = Vec::new();
    assert_eq!(t["valid"], true, "{t}");
    if b["main_target"] == target {
        parts.push("VALID MAIN TARGET".into());
        parts.push(if b["deep"] == true { "DEEP".into() } else { "not deep".into() });
        parts.push(match b["enfilade_flank"].as_str() {
            Some(f) => format!("ENFILADE, {f} flank"),
            None => "no enfilade".into(),
        });
    } else {
        parts.push(format!("VALID, NOT THE MAIN TARGET (main: {})", b["main_target"].as_str().unwrap()));
    }
    parts.push(format!("{:.2} rule-in (bracket {})", t["range_in"].as_f64().unwrap(), t["bracket"]));
    format!("{battery} → {target}: {}", parts.join(" · "))
}

#[test]
fn a_battery_and_its_target_are_captioned_as_the_report_finds_them() {
    let report = json(&["report", &path("brigade-attack.json"), "--json"]);
    let table = Table::load(sample("brigade-attack.json")).unwrap();
    // fr-art-1 on au-3: the main target, deep (three bases on the centre of fire), no
    // enfilade, 5.51" in bracket 3 (the issue's example); fr-art-2 on au-5 in enfilade.
    for (battery, target) in [("fr-art-1", "au-3"), ("fr-art-2", "au-5")] {
        let e = explain_pair(&table, battery, target).unwrap();
        assert_eq!(e.caption.headline, battery_headline(&report, battery, target));
        assert!(e.caption.lines.iter().all(|l| l.topic == Topic::Artillery && !l.close_call));
        // Every line names its rule section, as `explain` prints it.
        let range = e.caption.lines.iter().find(|l| l.question == "Range?").unwrap();
        assert_eq!(range.section.as_deref(), Some("000 §4.3"));
    }
    assert_eq!(
        battery_headline(&report, "fr-art-1", "au-3"),
        "fr-art-1 → au-3: VALID MAIN TARGET · DEEP · no enfilade · 5.51 rule-in (bracket 3)"
    );
    assert!(battery_headline(&report, "fr-art-2", "au-5").contains("ENFILADE, "));
}

#[test]
fn an_attacker_and_a_defender_are_captioned_as_the_report_finds_them() {
    let report = json(&["report", &path("brigade-attack.json"), "--json"]);
    let table = Table::load(sample("brigade-attack.json")).unwrap();
    let entry = report["assaults"]["entries"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["attacker"] == "fr-1-3" && e["defender"] == "au-2")
        .unwrap();
    let expected = format!(
        "fr-1-3 → au-2: IN ASSAULT RANGE ({}) · {} · {}:{} bases · {:.2} rule-in ({:.1} mm)",
        entry["range"].as_str().unwrap(),
        entry["aspect"].as_str().unwrap(),
        entry["attacker_bases"],
        entry["defender_bases"],
        entry["distance_in"].as_f64().unwrap(),
        entry["distance_mm"].as_f64().unwrap()
    );
    let e = explain_pair(&table, "fr-1-3", "au-2").unwrap();
    assert_eq!(e.caption.headline, expected);
    assert_eq!(
        expected,
        "fr-1-3 → au-2: IN ASSAULT RANGE (all-out) · front · 9:2 bases · 1.20 rule-in (30.5 mm)"
    );
    // A pair with no assault between them says so.
    let none = explain_pair(&table, "au-2", "fr-art-1").unwrap();
    assert!(
        none.caption.headline.starts_with("au-2 → fr-art-1: NOT IN ASSAULT RANGE"),
        "{}",
        none.caption.headline
    );
}

#[test]
fn a_sight_line_is_captioned_with_what_cuts_it() {
    let los = json(&["los", &path("woods-block.json"), "fr-art-1", "au-1", "--json"]);
    let cut = &los["blocked_by"][0];
    let expected = format!(
        "fr-art-1 → au-1: NOT VISIBLE: cut by {} ({})",
        cut["feature"].as_str().unwrap(),
        cut["kind"].as_str().unwrap()
    );
    assert_eq!(los["visible"], false);
    assert_eq!(expected, "fr-art-1 → au-1: NOT VISIBLE: cut by big-wood (medium-forest)");
    let table = Table::load(sample("woods-block.json")).unwrap();
    let card = pair_verdict(&table, "fr-art-1", "au-1").unwrap();
    let sight: Vec<_> = card.lines.iter().filter(|l| l.topic == Topic::Sight).collect();
    assert_eq!(sight[0].question, "Visible?");
    assert!(sight[0].answer.starts_with("no: 50.00 mm"), "{}", sight[0].answer);
    // The picture's caption is the same.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("los.svg");
    let o = vedette(&["los", &path("woods-block.json"), "fr-art-1", "au-1", "--svg", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(band_headline(&std::fs::read_to_string(&out).unwrap()), expected);
}

#[test]
fn a_measurement_is_captioned_in_mm_inches_and_rule_inches() {
    let m = json(&["measure", &path("skirmish.json"), "fr-1", "au-1", "--json"]);
    let expected = format!(
        "fr-1 → au-1: {:.1} mm = {:.2} in = {:.2} rule-in",
        m["mm"].as_f64().unwrap(),
        m["in"].as_f64().unwrap(),
        m["rule_in"].as_f64().unwrap()
    );
    assert_eq!(expected, "fr-1 → au-1: 38.1 mm = 1.50 in = 1.00 rule-in");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("m.svg");
    let o = vedette(&["measure", &path("skirmish.json"), "fr-1", "au-1", "--svg", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(band_headline(&std::fs::read_to_string(&out).unwrap()), expected);
}

#[test]
fn a_scanned_table_gives_its_uncertainty() {
    // battle.scan.json is a scanned table: every base has its sigma.
    let t = golden_table("battle.scan.json");
    let m = json(&["measure", &t, "fr-0-4-art0", "au-0-3", "--json"]);
    let (mm, sigma) = (m["mm"].as_f64().unwrap(), m["sigma_mm"].as_f64().unwrap());
    let words = |v: f64, s: f64| {
        if s * v / mm < 0.005 { format!("{v:.2}") } else { format!("{v:.2} ± {:.2}", s * v / mm) }
    };
    let mm_words =
        if sigma < 0.05 { format!("{mm:.2} ± {sigma:.2} mm") } else { format!("{mm:.1} ± {sigma:.1} mm") };
    let expected = format!(
        "fr-0-4-art0 → au-0-3: {mm_words} = {} in = {} rule-in",
        words(m["in"].as_f64().unwrap(), sigma),
        words(m["rule_in"].as_f64().unwrap(), sigma)
    );
    let table = Table::load(&t).unwrap();
    let card = pair_verdict(&table, "fr-0-4-art0", "au-0-3").unwrap();
    assert!(card.headline.starts_with(&format!("{expected} · ")), "{}\n{expected}", card.headline);
    assert!(expected.contains(" ± "), "{expected}");
}

/// Two enemy infantry bases `gap` mm apart at medium scale, each scanned with
/// `sigma` mm.
fn scanned_pair(gap: f64, sigma: f64) -> Table {
    Table::from_json_str(&format!(
        r#"{{"schema":"vedette/table/1","rules":"republique5","scale":"medium","size":{{"width":800,"depth":600}},
        "units":[
          {{"id":"fr-1","side":"france","kind":"infantry","bases":[{{"x":400,"y":200,"heading":90,"width":40,"depth":20,"sigma_mm":{sigma},"sigma_heading_deg":0.1}}]}},
          {{"id":"au-1","side":"austria","kind":"infantry","bases":[{{"x":400,"y":{},"heading":270,"width":40,"depth":20,"sigma_mm":{sigma},"sigma_heading_deg":0.1}}]}}]}}"#,
        200.0 + 20.0 + gap
    ))
    .unwrap()
}

#[test]
fn a_verdict_the_scan_could_flip_is_marked_close_and_a_clear_one_is_not() {
    // 1½" = 38.1 mm is the all-out assault depth (000 §5.1). 0.05 mm beyond it with two
    // bases each of 0.2 mm sigma: the margin is far under two combined sigmas (about
    // 0.57 mm), so the "beyond 1.50 rule-in" line is a close call and so is the caption.
    let close = scanned_pair(38.15, 0.2);
    let card = pair_verdict(&close, "fr-1", "au-1").unwrap();
    let within = card.lines.iter().find(|l| l.question == "Within 1.50 rule-in (38.1 mm)?").unwrap();
    assert!(within.close_call, "{within:?}");
    assert!(within.answer.starts_with("no, beyond by 0.05 mm: "), "{}", within.answer);
    assert!(within.answer.contains("TOO CLOSE TO CALL"), "{}", within.answer);
    assert!(card.close_call);
    assert!(card.headline.ends_with(" · CLOSE CALL"), "{}", card.headline);
    // 5 mm beyond it: certain at two sigmas.
    let clear = scanned_pair(43.1, 0.2);
    let card = pair_verdict(&clear, "fr-1", "au-1").unwrap();
    assert!(!card.close_call, "{}", card.render_text());
    assert!(!card.headline.contains("CLOSE CALL"));
    // Moved and turned as a whole, the verdicts hold (0.1 mm, 0.2° of noise do not
    // reach the 5 mm margin).
    let moved = Table::from_json_str(
        &serde_json::to_string(&{
            let mut v: Value = serde_json::to_value(&clear).unwrap();
            for u in v["units"].as_array_mut().unwrap() {
                for b in u["bases"].as_array_mut().unwrap() {
                    let (x, y) = (b["x"].as_f64().unwrap(), b["y"].as_f64().unwrap());
                    let (s, c) = 30f64.to_radians().sin_cos();
                    let (dx, dy) = (x - 400.0, y - 300.0);
                    b["x"] = (400.0 + c * dx - s * dy + 0.1).into();
                    b["y"] = (300.0 + s * dx + c * dy).into();
                    b["heading"] = (b["heading"].as_f64().unwrap() + 30.2).into();
                }
            }
            v
        })
        .unwrap(),
    )
    .unwrap();
    let turned = pair_verdict(&moved, "fr-1", "au-1").unwrap();
    assert!(!turned.close_call);
    assert_eq!(
        turned.lines.iter().map(|l| l.question.as_str()).collect::<Vec<_>>(),
        card.lines.iter().map(|l| l.question.as_str()).collect::<Vec<_>>()
    );
}

#[test]
fn the_pair_verdict_gives_distance_sight_and_the_battery_answers() {
    let table = Table::load(sample("brigade-attack.json")).unwrap();
    let report = json(&["report", &path("brigade-attack.json"), "--json"]);
    let m = json(&["measure", &path("brigade-attack.json"), "fr-art-1", "au-3", "--json"]);
    let los = json(&["los", &path("brigade-attack.json"), "fr-art-1", "au-3", "--json"]);
    let card: Caption = pair_verdict(&table, "fr-art-1", "au-3").unwrap();
    let sight = match (los["visible"].as_bool().unwrap(), los["full_base_visible"].as_bool().unwrap()) {
        (true, true) => "VISIBLE, a full base is seen",
        (true, false) => "VISIBLE in part, no base is seen in full",
        _ => "NOT VISIBLE",
    };
    let battery = battery_headline(&report, "fr-art-1", "au-3");
    let expected = format!(
        "fr-art-1 → au-3: {:.1} mm = {:.2} in = {:.2} rule-in · {sight} · {}",
        m["mm"].as_f64().unwrap(),
        m["in"].as_f64().unwrap(),
        m["rule_in"].as_f64().unwrap(),
        battery.trim_start_matches("fr-art-1 → au-3: ")
    );
    assert_eq!(card.headline, expected);
    let topics: Vec<Topic> = card.lines.iter().map(|l| l.topic).collect();
    assert_eq!(topics.first(), Some(&Topic::Distance));
    assert!(topics.contains(&Topic::Sight) && topics.contains(&Topic::Artillery));
    assert!(!topics.contains(&Topic::Assault));
    // As JSON, what the page fetches.
    let v = serde_json::to_value(&card).unwrap();
    assert_eq!(v["headline"], expected);
    assert_eq!(v["lines"][0]["topic"], "distance");
    // An attacker and its defender: the assault answers.
    let card = pair_verdict(&table, "fr-1-3", "au-2").unwrap();
    assert!(card.lines.iter().any(|l| l.topic == Topic::Assault));
    assert!(card.headline.contains("IN ASSAULT RANGE (all-out)"), "{}", card.headline);
    // Unknown units and the same unit twice are refused with the name.
    let e = pair_verdict(&table, "fr-art-1", "nobody").unwrap_err().to_string();
    assert!(e.contains("nobody"), "{e}");
    let e = pair_verdict(&table, "fr-art-1", "fr-art-1").unwrap_err().to_string();
    assert!(e.contains("same unit"), "{e}");
}

#[test]
fn every_picture_of_one_question_starts_with_its_caption_band() {
    let dir = tempfile::tempdir().unwrap();
    let table = Table::load(sample("brigade-attack.json")).unwrap();
    let e = explain_pair(&table, "fr-art-1", "au-3").unwrap();
    let out = dir.path().join("why.svg");
    let o = vedette(&[
        "explain",
        &path("brigade-attack.json"),
        "fr-art-1",
        "au-3",
        "--svg",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let svg = std::fs::read_to_string(&out).unwrap();
    assert_eq!(band_headline(&svg), e.caption.headline);
    // Every line is written, in order, with its section, after the headline.
    let band = band_layout(&e.caption, 1000.0, 0.0);
    assert!(band.rows.len() > e.caption.lines.len());
    assert!(svg.contains("Range? 5.51 rule-in (140.0 mm)"), "no range line");
    // The band is drawn above the table: the drawing is clipped below it.
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let rect = doc.descendants().find(|n| n.attribute("id") == Some("caption-band")).unwrap();
    let height: f64 = rect.attribute("height").unwrap().parse().unwrap();
    let clip = doc.descendants().find(|n| n.tag_name().name() == "clipPath").unwrap();
    let y: f64 = clip.first_element_child().unwrap().attribute("y").unwrap().parse().unwrap();
    assert!((y - height).abs() < 0.01, "{y} {height}");
}

/// The headline of a picture's caption band: its bold rows joined.
fn band_headline(svg: &str) -> String {
    let doc = roxmltree::Document::parse(svg).unwrap();
    let rows: Vec<String> = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("caption-headline"))
        .map(|n| n.text().unwrap_or_default().to_string())
        .collect();
    rows.join(" ")
}
