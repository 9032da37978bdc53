//! The verdict card of a pair of units (issue 38 item 4): what the page shows when A
//! then B are selected. Its words are the caption model of `vedette-draw`
//! ([`vedette_draw::pair_verdict`]: the distance, the sight, and the battery's or the
//! assault's answers, each with its rule section and close-call mark), the same code as
//! the caption band of `vedette explain`'s, `measure`'s and `los`'s pictures; the
//! measurement and the sight verdict come along for the page to draw on the plan.

use crate::CliError;
use crate::commands::los::{LosReport, line_of_sight};
use crate::commands::measure::{Measurement, measure};
use serde::Serialize;
use vedette_draw::caption::Caption;
use vedette_geometry::Table;

/// The card of a pair.
#[derive(Debug, Clone, Serialize)]
pub struct Card {
    /// The answer in words: `headline` first, then each question's line.
    #[serde(flatten)]
    pub caption: Caption,
    /// `vedette measure --json` of the pair (the page draws the closest points).
    pub measure: Measurement,
    /// `vedette los --json` of the pair (the page draws the line examined and its cuts).
    pub los: LosReport,
}

/// The card of units (or bases) `a` and `b` on `table`.
pub fn card(table: &Table, a: &str, b: &str) -> Result<Card, CliError> {
    Ok(Card {
        caption: vedette_draw::pair_verdict(table, a, b)?,
        measure: measure(table, a, b)?,
        los: line_of_sight(table, a, b)?,
    })
}

/// The picture of the pair with its caption band: `vedette explain A B --svg`'s.
pub fn card_svg(table: &Table, a: &str, b: &str) -> Result<String, CliError> {
    Ok(vedette_draw::plan_svg(&crate::commands::explain::explain(table, a, b)?.scene)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(name: &str) -> Table {
        Table::load(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("samples").join(name)).unwrap()
    }

    #[test]
    fn the_card_is_the_pictures_caption() {
        // The card is pair_verdict's caption, word for word; with the verbs' numbers.
        let table = sample("woods-block.json");
        let c = card(&table, "fr-art-1", "au-1").unwrap();
        assert_eq!(c.caption, vedette_draw::pair_verdict(&table, "fr-art-1", "au-1").unwrap());
        // vedette los samples/woods-block.json fr-art-1 au-1: NOT VISIBLE, cut by big-wood.
        assert!(c.caption.headline.contains("NOT VISIBLE"), "{}", c.caption.headline);
        assert!(!c.los.visible);
        assert!((c.measure.mm - 290.0).abs() < 1e-9);
        let json = serde_json::to_value(&c).unwrap();
        assert_eq!(json["headline"], c.caption.headline.as_str());
        assert!(json["lines"].as_array().is_some_and(|l| !l.is_empty()));
    }

    #[test]
    fn a_pair_of_one_unit_is_refused_with_a_message() {
        let e = card(&sample("brigade-attack.json"), "au-3", "au-3").unwrap_err().to_string();
        assert!(e.contains("au-3"), "{e}");
    }

    #[test]
    fn the_share_picture_starts_with_the_caption_band() {
        let svg = card_svg(&sample("brigade-attack.json"), "fr-art-1", "au-3").unwrap();
        assert!(svg.contains("id=\"caption\""), "no caption band");
    }
}
