//! The library's verdicts drawn, one file per rule area: each takes the verdict
//! structures the report prints and adds their geometry to a [`crate::Scene`], using the
//! library's own constructions (never its own trigonometry).

pub mod artillery;
pub mod assault;
pub mod command;
pub mod march;
pub mod measure;
pub mod movement;
pub mod pro_patria;
pub mod republic;
pub mod sight;
pub mod skirmishers;
pub mod spotting;

use crate::plan::base_outline;
use crate::scene::{Height, LayerId, Scene, Shape};
use vedette_geometry::close_call::distance_sigma_mm;
use vedette_geometry::{BaseRef, ClosestPoints, FrontageMode, RuleBook, Table};

/// A distance in rule inches (scale applied) and mm: `1.20 rule-in (30.5 mm)`.
#[must_use]
pub fn inches_words(rule_in: f64, mm: f64) -> String {
    format!("{rule_in:.2} rule-in ({mm:.1} mm)")
}

/// A table distance in inches with mm beside, for rule sets that state distances in mm
/// (Pro Patria: no scale ratio, so table inches): `5.91 in (150.0 mm)`.
#[must_use]
pub fn table_inches_words(mm: f64) -> String {
    format!("{:.2} in ({mm:.1} mm)", vedette_geometry::mm_to_inches(mm))
}

/// An area in square inches with mm² beside: `14.2 sq in (9150 mm²)`.
#[must_use]
pub fn square_table_inches_words(mm2: f64) -> String {
    let one = vedette_geometry::inches_to_mm(1.0);
    format!("{:.1} sq in ({mm2:.0} mm²)", mm2 / (one * one))
}

/// A distance in the rule set's terms: rule inches and mm, or mm alone for rule sets
/// that state distances in mm (Pro Patria).
#[must_use]
pub fn distance_words(book: &RuleBook, mm: f64) -> String {
    match book.mm_to_rule_inches(mm) {
        Some(r) => inches_words(r, mm),
        None => format!("{mm:.1} mm"),
    }
}

/// A measured distance with its standard uncertainty on a scanned table, in the rule
/// set's terms: `4.02 ± 0.03 rule-in (102.1 ± 0.7 mm)`, or mm alone for rule sets that
/// state distances in mm (`102.1 ± 0.7 mm`); without a sigma (a hand-typed table) as
/// [`distance_words`], no `±`.
#[must_use]
pub fn measured_words(book: &RuleBook, mm: f64, sigma_mm: Option<f64>) -> String {
    match book.mm_to_rule_inches(1.0) {
        Some(per_mm) => inches_sigma_words(per_mm, mm, sigma_mm),
        None => match sigma_mm.filter(|s| s.is_finite()) {
            Some(s) => sigma_mm_words(mm, s),
            None => format!("{mm:.1} mm"),
        },
    }
}

/// `102.1 ± 0.7 mm`; a sigma under 0.05 mm to 0.01 mm (`102.12 ± 0.03 mm`), so that it
/// never reads `± 0.0`.
#[must_use]
pub fn sigma_mm_words(mm: f64, s: f64) -> String {
    if s < 0.05 { format!("{mm:.2} ± {s:.2} mm") } else { format!("{mm:.1} ± {s:.1} mm") }
}

/// [`measured_words`] with the rule inches per mm given (`rule_in_per_mm`, the rule
/// set's scale): `4.02 ± 0.03 rule-in (102.1 ± 0.7 mm)`, or [`inches_words`] without a
/// sigma.
#[must_use]
pub fn inches_sigma_words(rule_in_per_mm: f64, mm: f64, sigma_mm: Option<f64>) -> String {
    match sigma_mm.filter(|s| s.is_finite()) {
        Some(s) => {
            let inches = mm * rule_in_per_mm;
            // An uncertainty that rounds to nothing at the shown precision is not shown
            // as "± 0.00": the inches go without it, the mm carry it to 0.01 mm.
            let sigma_in = s * rule_in_per_mm;
            let mm_words = sigma_mm_words(mm, s);
            if sigma_in < 0.005 {
                format!("{inches:.2} rule-in ({mm_words})")
            } else {
                format!("{inches:.2} ± {sigma_in:.2} rule-in ({mm_words})")
            }
        }
        None => inches_words(mm * rule_in_per_mm, mm),
    }
}

/// The edge-to-edge distance between two bases (closest points `c`, from `a` to `b`)
/// in words with its uncertainty ([`measured_words`]; the sigma is the library's,
/// [`distance_sigma_mm`]).
#[must_use]
pub fn pair_words(table: &Table, book: &RuleBook, a: BaseRef, b: BaseRef, c: &ClosestPoints) -> String {
    measured_words(book, c.distance_mm, distance_sigma_mm(table, a, b, c))
}

/// The ids of `units` (indices into `table.units`; any out of range skipped), in order.
#[must_use]
pub fn unit_ids<'a>(table: &'a Table, units: &[usize]) -> Vec<&'a str> {
    units.iter().filter_map(|&u| table.units.get(u)).map(|u| u.id.as_str()).collect()
}

/// A deployment area's size in square rule inches (`212 sq in`); `None` for rule sets
/// that state distances in mm.
#[must_use]
pub fn square_inches_words(book: &RuleBook, area_mm2: f64) -> Option<String> {
    book.rule_inches_to_mm(1.0).map(|one| format!("{:.0} sq in", area_mm2 / (one * one)))
}

/// Small wording helpers shared by the findings.
#[derive(Debug, Clone, Copy)]
pub struct Words<'a> {
    /// The table the words name things in.
    pub table: &'a Table,
}

impl<'a> Words<'a> {
    /// Words for `table`.
    #[must_use]
    pub fn new(table: &'a Table) -> Self {
        Words { table }
    }

    /// `normal` or `packed`.
    #[must_use]
    pub fn frontage(&self, mode: FrontageMode) -> &'static str {
        match mode {
            FrontageMode::Normal => "normal",
            FrontageMode::Packed => "packed",
        }
    }

    /// A margin in mm.
    #[must_use]
    pub fn margin(&self, mm: f64) -> String {
        format!("{mm:.2} mm")
    }
}

/// Outlines every base of unit `unit` with `class` (ids `PREFIX-UNIT.INDEX`).
pub fn outline_bases(
    scene: &mut Scene,
    table: &Table,
    layer: LayerId,
    unit: usize,
    prefix: &str,
    class: &str,
    title: &str,
) {
    let Some(u) = table.units.get(unit) else { return };
    for (i, b) in u.bases.iter().enumerate() {
        scene.add(
            layer,
            &format!("{prefix}-{}.{i}", crate::scene::id_part(&u.id)),
            class,
            Shape::polygon(base_outline(b)),
            Height::BaseTop,
            Some(title.to_string()),
        );
    }
}

/// Outlines every base of unit `unit` with `class` ([`outline_bases`]) and writes
/// `words` beside its first base (`PREFIX-UNIT-label`).
pub fn outline_and_say(
    scene: &mut Scene,
    table: &Table,
    layer: LayerId,
    unit: usize,
    (prefix, class): (&str, &str),
    words: &str,
) {
    outline_bases(scene, table, layer, unit, prefix, class, words);
    let Some(u) = table.units.get(unit) else { return };
    if let Some(b) = u.bases.first() {
        scene.add(
            layer,
            &format!("{prefix}-{}-label", crate::scene::id_part(&u.id)),
            "verdict",
            Shape::verdict(b.centre(), words),
            Height::BaseTop,
            None,
        );
    }
}
