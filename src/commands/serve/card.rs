//! The verdict card of a pair of units (issue 38 item 4): what the page shows when A
//! then B are selected. Its words are those of the verbs: `vedette measure`'s distance
//! and thresholds, `vedette los`'s verdict and cuts, `vedette explain`'s answers with
//! their rule sections; this module only gathers them.
//!
//! THIN ADAPTER, to be replaced by the caption model of `crates/draw` (issue 39 item 1,
//! the `pictures` branch): once it is there, `headline` and `lines` come from it, so
//! that the card and `vedette explain`'s picture caption are one code.

use crate::CliError;
use crate::commands::calls::CallEntry;
use crate::commands::explain::explain;
use crate::commands::los::{LosReport, line_of_sight};
use crate::commands::measure::{Measurement, measure};
use serde::Serialize;
use vedette_geometry::Table;
use vedette_geometry::close_call::CERTAIN_AT_SIGMAS;

/// One line of the card.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CardLine {
    /// The answer in words.
    pub text: String,
    /// The rule section it answers (`000 §4.3`), when one asks it.
    pub section: Option<String>,
    /// The verdict is too close to call.
    pub close_call: bool,
}

/// The card of a pair.
#[derive(Debug, Clone, Serialize)]
pub struct Card {
    /// The first unit (or base) as asked.
    pub a: String,
    /// The second.
    pub b: String,
    /// The first line: the answer, in words.
    pub headline: String,
    /// Whether the headline's verdict is too close to call.
    pub close_call: bool,
    /// Every answer, in the order the rules ask.
    pub lines: Vec<CardLine>,
    /// `vedette measure --json` of the pair (the page draws the closest points).
    pub measure: Measurement,
    /// `vedette los --json` of the pair (the page draws the line examined and its cuts).
    pub los: LosReport,
}

/// "VISIBLE ..." or "NOT VISIBLE: cut by ...", as `vedette los` says it.
fn sight_words(r: &LosReport) -> String {
    let verdict = match (r.visible, r.full_base_visible) {
        (true, true) => "VISIBLE, a full base is seen".to_string(),
        (true, false) => "VISIBLE in part, no base is seen in full".to_string(),
        _ => "NOT VISIBLE".to_string(),
    };
    let cuts: Vec<String> = r
        .blocked_by
        .iter()
        .map(|b| match (&b.feature, &b.base) {
            (Some(f), _) => format!("{} \"{f}\"", b.kind),
            (None, Some(base)) => format!("{} {base}", b.kind),
            _ => b.kind.clone(),
        })
        .collect();
    if cuts.is_empty() { verdict } else { format!("{verdict}: cut by {}", cuts.join(", ")) }
}

fn uncertain(c: &CallEntry) -> bool {
    !c.certain
}

/// The card of units (or bases) `a` and `b` on `table`.
pub fn card(table: &Table, a: &str, b: &str) -> Result<Card, CliError> {
    let m = measure(table, a, b)?;
    let los = line_of_sight(table, a, b)?;
    let sigma = m.sigma_mm.map_or(String::new(), |s| format!(" ± {:.1} mm", CERTAIN_AT_SIGMAS * s));
    let rule = m.rule_in.map_or(String::new(), |r| format!(" = {r:.2} rule-in"));
    let distance = format!("{:.1} mm{sigma} = {:.2} in{rule}", m.mm, m.inches);
    let sight = sight_words(&los);
    let sight_close = uncertain(&los.visible_call) || uncertain(&los.full_base_call);
    let mut lines = vec![CardLine { text: format!("Distance {distance}"), section: None, close_call: false }];
    for t in &m.thresholds {
        let length =
            t.rule_in.map_or(format!("{:.1} mm", t.limit_mm), |r| format!("{r:.2}\" ({:.1} mm)", t.limit_mm));
        lines.push(CardLine {
            text: format!(
                "{} {length} by {:.2} mm: {}",
                if t.within { "within" } else { "beyond" },
                t.call.margin_mm,
                t.names.join(", ")
            ),
            section: None,
            close_call: uncertain(&t.call),
        });
    }
    lines.push(CardLine { text: format!("Sight: {sight}"), section: None, close_call: sight_close });
    // explain refuses a pair of one unit's bases; the distance and sight still stand.
    if let Ok(e) = explain(table, a, b) {
        for x in &e.answers {
            lines.push(CardLine {
                text: format!("{} {}", x.question, x.answer),
                section: Some(x.section.clone()),
                close_call: x.answer.contains("TOO CLOSE TO CALL"),
            });
        }
    }
    let close_call = lines.iter().any(|l| l.close_call);
    Ok(Card {
        a: a.to_string(),
        b: b.to_string(),
        headline: format!("{distance} · {}", sight.split(':').next().unwrap_or(&sight)),
        close_call,
        lines,
        measure: m,
        los,
    })
}

/// The picture of the pair with its answers: `vedette explain A B --svg`'s.
pub fn card_svg(table: &Table, a: &str, b: &str) -> Result<String, CliError> {
    Ok(vedette_draw::plan_svg(&explain(table, a, b)?.scene)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(name: &str) -> Table {
        Table::load(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("samples").join(name)).unwrap()
    }

    #[test]
    fn the_card_answers_distance_and_sight_first() {
        // vedette los samples/woods-block.json fr-art-1 au-1: NOT VISIBLE, cut by
        // medium-forest "big-wood"; closest distance 290.0 mm = 11.417 in.
        let c = card(&sample("woods-block.json"), "fr-art-1", "au-1").unwrap();
        assert_eq!(c.headline, "290.0 mm = 11.42 in = 11.42 rule-in · NOT VISIBLE");
        assert!(c.lines.iter().any(|l| l.text == "Sight: NOT VISIBLE: cut by medium-forest \"big-wood\""));
        // A battery and a target: explain's answers follow, each with its section.
        assert!(
            c.lines
                .iter()
                .any(|l| l.text.starts_with("Valid target?") && l.section.as_deref() == Some("000 §4.5"))
        );
    }

    #[test]
    fn a_pair_of_one_unit_is_refused_with_the_verbs_message() {
        let e = card(&sample("brigade-attack.json"), "au-3", "au-3").unwrap_err().to_string();
        assert!(e.contains("same"), "{e}");
    }
}
