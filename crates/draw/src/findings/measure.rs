//! A measurement drawn: the closest pair of points between two selections as a line,
//! with its value in rule inches and mm (and the scan's uncertainty when the table has
//! one), the two selections' bases highlighted.

use crate::findings::measured_words;
use crate::findings::sight::highlight;
use crate::scene::{Height, LayerId, Mark, Scene, Shape};
use vedette_geometry::{ClosestPoints, RuleBook, RuleDistance, Selection, Table};

/// A rule distance's name as the outputs print it: `GeneralAssault` as `general-assault`,
/// `MaxRange(Heavy)` as `max-range(-heavy)`.
#[must_use]
pub fn distance_name(name: RuleDistance) -> String {
    let mut out = String::new();
    for (i, ch) in format!("{name:?}").chars().enumerate() {
        if ch.is_uppercase() && i > 0 {
            out.push('-');
        }
        out.extend(ch.to_lowercase());
    }
    out
}

/// Draws the measurement `c` between selections `a` and `b` (`sigma_mm`: the distance's
/// standard uncertainty, on a scanned table).
pub fn draw_measurement(
    scene: &mut Scene,
    table: &Table,
    book: &RuleBook,
    (a, b): (Selection, Selection),
    c: &ClosestPoints,
    sigma_mm: Option<f64>,
) {
    highlight(scene, table, a, LayerId::Measurements, "measured from");
    highlight(scene, table, b, LayerId::Measurements, "measured to");
    let words = measured_words(book, c.distance_mm, sigma_mm);
    scene.add(
        LayerId::Measurements,
        "measure-line",
        "measure",
        Shape::line(c.from, c.to),
        Height::Table,
        Some(format!("closest edge to edge: {words}")),
    );
    for (end, p) in [("from", c.from), ("to", c.to)] {
        scene.add(
            LayerId::Measurements,
            &format!("measure-{end}"),
            "measure-end",
            Shape::Point { at: p, mark: Mark::Dot },
            Height::Table,
            None,
        );
    }
    scene.add(
        LayerId::Measurements,
        "measure-label",
        "verdict",
        Shape::verdict(c.from.lerp(c.to, 0.5), words),
        Height::Table,
        None,
    );
    scene.legend("measure", "closest distance, rule inches and mm", true);
    scene.legend("highlight", "the bases asked about", true);
}
