//! A measurement between two selections (units or bases) of a table, as `vedette
//! measure` reports it: the closest pair of bases ([`closest_between_selections`]), the
//! distance's standard uncertainty, and the rule set's distances nearest it, each with
//! its verdict and close call.
//!
//! Readings:
//! - The distances compared are the [`RuleDistance`]s of the table's rule set (and
//!   those it inherits) that can apply between the two units' kinds and the terrain
//!   near them ([`crate::rules::applies_between`]: no stream-bank stand-off between
//!   two infantry units in the open), at the table's scale; distances of the same
//!   length are one threshold with several names.
//! - "Nearest" is the largest distance the measurement exceeds and the smallest it is
//!   within; "within" takes the shown tie ([`crate::ties::within_shown`]): a measurement
//!   shown as equal to a limit is within it.

use crate::close_call::{CloseCall, distance_call, distance_sigma_mm};
use crate::rules::{DistanceEntry, PairContext, RuleBook, applies_between};
use crate::table::{Selection, Table};
use crate::ties::within_shown;
use crate::unit_structure::{SelectionClosest, closest_between_selections};

/// One rule distance (or several of the same length) a measurement is compared with.
#[derive(Debug, Clone, PartialEq)]
pub struct Threshold {
    /// The rule distances of this length, in the rule set's order.
    pub distances: Vec<&'static DistanceEntry>,
    /// Its length, mm.
    pub limit_mm: f64,
    /// The measurement is within it.
    pub within: bool,
    /// How close a call that is.
    pub call: CloseCall,
}

/// The closest pair between two selections, with its uncertainty and the nearest rule
/// distances.
#[derive(Debug, Clone, PartialEq)]
pub struct Measurement {
    /// The closest bases and points.
    pub found: SelectionClosest,
    /// Standard uncertainty of the distance, mm, from the two closest bases' `sigma_mm`
    /// and `sigma_heading_deg`; `None` on a table without uncertainties.
    pub sigma_mm: Option<f64>,
    /// The largest rule distance it exceeds and the smallest it is within (each when
    /// there is one), in that order.
    pub thresholds: Vec<Threshold>,
}

/// Measures between selections `a` and `b` of `table` under `book`; `None` when they
/// share every base.
#[must_use]
pub fn measure_between(table: &Table, book: &RuleBook, a: Selection, b: Selection) -> Option<Measurement> {
    let found = closest_between_selections(table, a, b)?;
    let c = &found.closest;
    let sigma_mm = distance_sigma_mm(table, found.from, found.to, c);
    let thresholds = thresholds(table, book, &found);
    Some(Measurement { found, sigma_mm, thresholds })
}

/// The nearest rule distances below and above the measurement, grouped by length.
fn thresholds(table: &Table, book: &RuleBook, found: &SelectionClosest) -> Vec<Threshold> {
    let mm = found.closest.distance_mm;
    let mut limits: Vec<(f64, Vec<&'static DistanceEntry>)> = Vec::new();
    let pair = PairContext::of(table, found.from.unit, found.to.unit);
    for e in table.rules.distances() {
        let Ok(limit) = book.distance_mm(e.name) else { continue };
        // Only the distances that can apply between these two units' kinds and terrain.
        if pair.as_ref().is_some_and(|p| !applies_between(e.name, limit, p)) {
            continue;
        }
        match limits.iter_mut().find(|(l, _)| (l - limit).abs() < 1e-9) {
            Some((_, names)) => names.push(e),
            None => limits.push((limit, vec![e])),
        }
    }
    let below = limits.iter().filter(|(l, _)| !within_shown(mm, *l)).max_by(|a, b| a.0.total_cmp(&b.0));
    let above = limits.iter().filter(|(l, _)| within_shown(mm, *l)).min_by(|a, b| a.0.total_cmp(&b.0));
    [below, above]
        .into_iter()
        .flatten()
        .map(|(limit, distances)| Threshold {
            distances: distances.clone(),
            limit_mm: *limit,
            within: within_shown(mm, *limit),
            call: distance_call(table, found.from, found.to, &found.closest, *limit),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::RuleDistance;

    fn two_bases(gap_mm: f64) -> Table {
        Table::from_json_str(&format!(
            r#"{{"schema":"vedette/table/1","rules":"republique5","scale":"medium","size":{{"width":1800,"depth":1200}},
            "units":[
              {{"id":"a","side":"fr","kind":"infantry","bases":[{{"x":100,"y":100,"heading":90,"width":40,"depth":20}}]}},
              {{"id":"b","side":"au","kind":"infantry","bases":[{{"x":100,"y":{},"heading":270,"width":40,"depth":20}}]}}
            ]}}"#,
            120.0 + gap_mm
        ))
        .unwrap()
    }

    #[test]
    fn the_nearest_rule_distances_either_side_of_a_measurement() {
        // 1.5" all-out assault = 38.1 mm: 38.1 exactly is within it; a micrometre over is
        // beyond it by the shown tie, a millimetre over is beyond.
        for (gap, within_all_out) in [(38.1, true), (38.1 + 5e-7, true), (39.1, false)] {
            let t = two_bases(gap);
            let book = t.rule_book().unwrap();
            let m = measure_between(&t, &book, Selection::Unit(0), Selection::Unit(1)).unwrap();
            assert!((m.found.closest.distance_mm - gap).abs() < 1e-9);
            let all_out = m
                .thresholds
                .iter()
                .find(|th| th.distances.iter().any(|d| d.name == RuleDistance::AllOutAssault))
                .unwrap();
            assert_eq!(all_out.within, within_all_out, "gap {gap}");
            // Below and above: never more than two, the first beyond, the last within.
            assert!(m.thresholds.len() <= 2);
            assert!(m.thresholds.last().unwrap().within);
        }
        let t = two_bases(10.0);
        let book = t.rule_book().unwrap();
        assert_eq!(measure_between(&t, &book, Selection::Unit(0), Selection::Unit(0)).map(|_| ()), None);
    }
}
