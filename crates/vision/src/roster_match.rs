//! Does a photo look like the roster it was scanned with? (issue 39 item 6)
//!
//! A roster of another table, or of another evening, reads as a quiet mess: most of its
//! tags missing, most tags seen unknown, or, when two tables use the same ids, units
//! whose bases are scattered over the table (each id read on some base of the other
//! table's units). A unit's bases stand together (in line, column, square or road
//! column they touch; a base hidden from the camera leaves a gap of a base or two), so
//! a unit whose bases lie apart is a sign that its tags are on other units' bases.
//! Skirmishers are left out: a skirmish screen spreads by rule.
//!
//! On the samples, every unit of a right roster holds together within twice its base
//! length (centre to centre); with the crowd roster, the battle photo's units lie up to
//! 8.7 base lengths apart, 21 of 35 of them more than three.

use crate::roster::Roster;
use serde::{Deserialize, Serialize};
use vedette_geometry::{Table, UnitKind};

/// A unit whose found bases do not link up at this many base lengths (the base's larger
/// side), centre to centre, stands apart.
pub const APART_BASE_LENGTHS: f64 = 3.0;

/// How well a scanned table fits its roster.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RosterFit {
    /// Tags the roster lists.
    pub roster_tags: usize,
    /// Roster tags read in the photo (bases inferred from their formation not counted).
    pub found: usize,
    /// Tags read that the roster does not list.
    pub unknown: usize,
    /// Units (skirmishers left out) with two or more bases read.
    pub units_checked: usize,
    /// Those whose bases stand apart ([`APART_BASE_LENGTHS`]).
    pub units_apart: Vec<String>,
}

impl RosterFit {
    /// The fit of a scanned `table` to its `roster`, `unknown` tags read that the roster
    /// does not list.
    #[must_use]
    pub fn of(table: &Table, unknown: usize, roster: &Roster) -> RosterFit {
        let roster_tags = roster.tag_ids().count();
        let mut found = 0;
        let mut units_checked = 0;
        let mut units_apart = Vec::new();
        for u in &table.units {
            let bases: Vec<_> =
                u.bases.iter().filter(|b| !b.meta().inferred && b.meta().tag.is_some()).collect();
            found += bases.len();
            if bases.len() < 2 || u.kind == UnitKind::Skirmisher {
                continue;
            }
            units_checked += 1;
            let reach =
                APART_BASE_LENGTHS * bases.iter().map(|b| b.width().max(b.depth())).fold(0.0, f64::max);
            // Single linkage: the bases reachable from the first.
            let mut linked = vec![false; bases.len()];
            linked[0] = true;
            let mut stack = vec![0];
            while let Some(i) = stack.pop() {
                for j in 0..bases.len() {
                    if !linked[j] && bases[i].centre().distance(bases[j].centre()) <= reach {
                        linked[j] = true;
                        stack.push(j);
                    }
                }
            }
            if linked.iter().any(|l| !l) {
                units_apart.push(u.id.clone());
            }
        }
        RosterFit { roster_tags, found, unknown, units_checked, units_apart }
    }

    /// True when the photo does not look like the roster: most of its tags missing,
    /// most tags read unknown to it, or most of its units (three or more checked)
    /// standing apart.
    #[must_use]
    pub fn looks_wrong(&self) -> bool {
        2 * self.found < self.roster_tags
            || 2 * self.unknown > self.unknown + self.found
            || (self.units_checked >= 3 && 2 * self.units_apart.len() > self.units_checked)
    }

    /// "this photo does not look like this roster (FILE): ..." with the numbers.
    #[must_use]
    pub fn describe(&self, roster: &str) -> String {
        let mut parts = vec![format!("{} of its {} tags were read", self.found, self.roster_tags)];
        if self.unknown > 0 {
            parts.push(format!("{} tags read are not in it", self.unknown));
        }
        if !self.units_apart.is_empty() {
            let shown: Vec<&str> = self.units_apart.iter().take(5).map(String::as_str).collect();
            parts.push(format!(
                "{} of the {} units with two or more bases read have bases more than {APART_BASE_LENGTHS} base lengths from the rest of their unit ({}{})",
                self.units_apart.len(),
                self.units_checked,
                shown.join(", "),
                if self.units_apart.len() > shown.len() { ", ..." } else { "" }
            ));
        }
        format!("this photo does not look like this roster ({roster}): {}", parts.join("; "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use vedette_geometry::{Base, BaseMeta, BaseSize, Pose, RuleSet, Scale, Unit, Vec2};

    fn roster() -> Roster {
        let units: String = (0..4)
            .map(|u| {
                format!(
                    "[[unit]]\nid = \"u{u}\"\nside = \"x\"\nkind = \"infantry\"\nbase_mm = [30, 20]\ntags = [{}, {}, {}]\n",
                    10 + 3 * u,
                    11 + 3 * u,
                    12 + 3 * u
                )
            })
            .collect();
        Roster::from_toml_str(&units, "r.toml").unwrap()
    }

    /// Unit `u`'s bases at x offsets `xs` (mm), tagged.
    fn unit(u: usize, xs: &[f64]) -> Unit {
        let bases = xs
            .iter()
            .enumerate()
            .map(|(i, &x)| {
                Base::new(
                    BaseSize::new(30.0, 20.0),
                    Pose::new(Vec2::new(200.0 + x, 100.0 + 200.0 * u as f64), 90.0),
                )
                .with_meta(BaseMeta { tag: Some(10 + 3 * u as u32 + i as u32), ..BaseMeta::default() })
            })
            .collect();
        Unit::new(format!("u{u}"), "x", UnitKind::Infantry, bases)
    }

    #[test]
    fn units_that_hold_together_fit_and_scattered_ones_do_not() {
        let r = roster();
        // In line, and with a base missing in the middle (a two-base gap).
        let good = Table::new(
            RuleSet::Republique5,
            Scale::Medium,
            vec![
                unit(0, &[0.0, 30.0, 60.0]),
                unit(1, &[0.0, 90.0]),
                unit(2, &[0.0, 30.0, 60.0]),
                unit(3, &[0.0]),
            ],
        );
        let fit = RosterFit::of(&good, 0, &r);
        assert_eq!((fit.found, fit.roster_tags, fit.units_checked), (9, 12, 3));
        assert!(fit.units_apart.is_empty() && !fit.looks_wrong(), "{fit:?}");
        // Just inside and just outside three base lengths (90 mm).
        let edge = Table::new(RuleSet::Republique5, Scale::Medium, vec![unit(0, &[0.0, 90.0])]);
        assert!(RosterFit::of(&edge, 0, &r).units_apart.is_empty());
        let apart = Table::new(RuleSet::Republique5, Scale::Medium, vec![unit(0, &[0.0, 90.1])]);
        assert_eq!(RosterFit::of(&apart, 0, &r).units_apart, ["u0"]);
        // Most units scattered.
        let bad = Table::new(
            RuleSet::Republique5,
            Scale::Medium,
            vec![
                unit(0, &[0.0, 400.0, 30.0]),
                unit(1, &[0.0, 30.0, 700.0]),
                unit(2, &[0.0, 30.0, 60.0]),
                unit(3, &[0.0, -500.0]),
            ],
        );
        let fit = RosterFit::of(&bad, 0, &r);
        assert_eq!(fit.units_apart, ["u0", "u1", "u3"]);
        assert!(fit.looks_wrong());
        let text = fit.describe("r.toml");
        assert!(
            text.starts_with("this photo does not look like this roster (r.toml): 11 of its 12 tags"),
            "{text}"
        );
        assert!(text.contains("3 of the 4 units"), "{text}");
    }

    #[test]
    fn most_tags_missing_or_unknown_do_not_fit() {
        let r = roster();
        let few = Table::new(
            RuleSet::Republique5,
            Scale::Medium,
            vec![unit(0, &[0.0, 30.0]), unit(1, &[0.0, 30.0, 60.0])],
        );
        // 5 of 12: most missing.
        assert!(RosterFit::of(&few, 0, &r).looks_wrong());
        let half = Table::new(
            RuleSet::Republique5,
            Scale::Medium,
            vec![unit(0, &[0.0, 30.0, 60.0]), unit(1, &[0.0, 30.0, 60.0])],
        );
        assert!(!RosterFit::of(&half, 0, &r).looks_wrong(), "6 of 12 is not most missing");
        assert!(!RosterFit::of(&half, 6, &r).looks_wrong(), "6 unknown of 12 read is not most");
        assert!(RosterFit::of(&half, 7, &r).looks_wrong());
    }
}
