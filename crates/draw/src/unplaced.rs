//! Roster units a scan did not put on the table (issue 37), drawn on the table's
//! picture so that a picture of an incomplete table never looks complete: a unit held
//! back between two places the photo fits as well (each place outlined, dashed, and
//! labelled `UNIT ?1`, `UNIT ?2`, as `vedette scan --overlay` and `vedette serve` show
//! them), and the units the photo showed nowhere, named in the legend. No verdict of the
//! report covers any of them, which is what the legend and [`unplaced_note`] say.

use crate::plan::{ID_TEXT_MM, base_outline};
use crate::scene::{Height, LayerId, Scene, Shape, id_part};
use vedette_geometry::{Unit, Vec2};

/// The style class of a held place's base outlines.
pub const HELD_CLASS: &str = "held-place";
/// The style class of the legend's entry for units not found.
pub const NOT_FOUND_CLASS: &str = "not-found";
/// The most units the legend names; more are counted.
const NAMED_AT_MOST: usize = 6;

/// A roster unit with no base on the table.
#[derive(Debug, Clone, PartialEq)]
pub struct Unplaced {
    /// The unit's id.
    pub unit: String,
    /// The places it was held back from, best first, each the unit as it would stand
    /// there; empty when the photo showed it nowhere.
    pub places: Vec<Unit>,
}

/// The label of a unit's `k`-th held place (from 0): `UNIT ?1`.
#[must_use]
pub fn place_label(unit: &str, k: usize) -> String {
    format!("{unit} ?{}", k + 1)
}

/// The legend's words for held places.
pub const HELD_WORDS: &str = "held back: the photo fits its places ?1, ?2 as well, neither is on the table";

/// The legend's words for units the photo showed nowhere: `not found in the photo: a,
/// b, and 3 more`.
#[must_use]
pub fn not_found_words(units: &[&str]) -> String {
    let named: Vec<&str> = units.iter().copied().take(NAMED_AT_MOST).collect();
    let more = units.len().saturating_sub(NAMED_AT_MOST);
    let tail = if more > 0 { format!(", and {more} more") } else { String::new() };
    format!("not found in the photo: {}{tail}", named.join(", "))
}

/// What a report over a table with unplaced units says (on stderr, beside the
/// picture): which units no verdict covers and why; `None` when every unit is placed.
#[must_use]
pub fn unplaced_note(unplaced: &[Unplaced]) -> Option<String> {
    if unplaced.is_empty() {
        return None;
    }
    let each: Vec<String> = unplaced
        .iter()
        .map(|u| {
            if u.places.is_empty() {
                format!("{} (not found in the photo)", u.unit)
            } else {
                format!(
                    "{} (held back: {} places fit as well, outlined {}; put it on one in vedette serve)",
                    u.unit,
                    u.places.len(),
                    (0..u.places.len()).map(|k| format!("?{}", k + 1)).collect::<Vec<_>>().join(", ")
                )
            }
        })
        .collect();
    let n = unplaced.len();
    Some(format!(
        "{n} {} of the roster {} not on the table, so no verdict covers {}: {}",
        if n == 1 { "unit" } else { "units" },
        if n == 1 { "is" } else { "are" },
        if n == 1 { "it" } else { "them" },
        each.join("; ")
    ))
}

/// Adds `unplaced` to a picture of the table: each held place's bases outlined (class
/// [`HELD_CLASS`], at base-top height) with its label at the place's middle, and the
/// legend's entries.
pub fn add_unplaced(scene: &mut Scene, unplaced: &[Unplaced]) {
    let mut not_found: Vec<&str> = Vec::new();
    for u in unplaced {
        if u.places.is_empty() {
            not_found.push(&u.unit);
            continue;
        }
        let n = u.places.len();
        for (k, place) in u.places.iter().enumerate() {
            let label = place_label(&u.unit, k);
            let id = format!("held-{}-{}", id_part(&u.unit), k + 1);
            let mut centre = Vec2::new(0.0, 0.0);
            for (bi, b) in place.bases.iter().enumerate() {
                scene.add(
                    LayerId::Bases,
                    &format!("{id}.{bi}"),
                    HELD_CLASS,
                    Shape::polygon(base_outline(b)),
                    Height::BaseTop,
                    Some(format!("{label}: one of the {n} places {} was held back from", u.unit)),
                );
                centre += b.centre();
            }
            if !place.bases.is_empty() {
                centre = centre / place.bases.len() as f64;
                scene.add(
                    LayerId::Bases,
                    &format!("{id}-label"),
                    "unit-label",
                    Shape::label(centre, label, ID_TEXT_MM),
                    Height::BaseTop,
                    None,
                );
            }
        }
        scene.legend(HELD_CLASS, HELD_WORDS, true);
    }
    if !not_found.is_empty() {
        scene.legend(NOT_FOUND_CLASS, &not_found_words(&not_found), false);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use vedette_geometry::{Base, BaseSize, Pose, UnitKind};

    fn unit(id: &str, x: f64) -> Unit {
        let size = BaseSize::new(30.0, 20.0);
        let bases = (0..2)
            .map(|i| Base::new(size, Pose::new(Vec2::new(x + 30.0 * f64::from(i), 100.0), 90.0)))
            .collect();
        Unit::new(id, "france", UnitKind::Infantry, bases)
    }

    #[test]
    fn each_held_place_is_outlined_and_labelled_and_units_not_found_are_named() {
        let mut s = Scene::new("t");
        let held = Unplaced { unit: "fr-3".into(), places: vec![unit("fr-3", 100.0), unit("fr-3", 121.0)] };
        let absent = Unplaced { unit: "fr-2".into(), places: vec![] };
        add_unplaced(&mut s, &[held.clone(), absent.clone()]);
        let bases = s.layer(LayerId::Bases).unwrap();
        let outlines: Vec<_> = bases.elements.iter().filter(|e| e.class == HELD_CLASS).collect();
        assert_eq!(outlines.len(), 4);
        assert!(s.element("held-fr-3-1.0").is_some() && s.element("held-fr-3-2.1").is_some());
        let labels: Vec<&str> = bases
            .elements
            .iter()
            .filter_map(|e| match &e.shape {
                Shape::Text { text, .. } => Some(text.as_str()),
                _ => None,
            })
            .collect();
        assert_eq!(labels, ["fr-3 ?1", "fr-3 ?2"]);
        let legend: Vec<(&str, &str)> =
            s.legend_entries().iter().map(|e| (e.class.as_str(), e.text.as_str())).collect();
        assert_eq!(legend, [(HELD_CLASS, HELD_WORDS), (NOT_FOUND_CLASS, "not found in the photo: fr-2")]);
        let note = unplaced_note(&[held, absent]).unwrap();
        assert!(note.starts_with("2 units of the roster are not on the table, so no verdict covers them: fr-3 (held back: 2 places fit as well, outlined ?1, ?2;"), "{note}");
        assert!(note.ends_with("; fr-2 (not found in the photo)"), "{note}");
        assert_eq!(unplaced_note(&[]), None);
    }

    #[test]
    fn a_long_list_of_units_not_found_is_counted() {
        let names = ["a", "b", "c", "d", "e", "f", "g", "h"];
        assert_eq!(not_found_words(&names), "not found in the photo: a, b, c, d, e, f, and 2 more");
        let mut s = Scene::new("t");
        add_unplaced(&mut s, &[]);
        assert!(s.legend_entries().is_empty() && s.layers().is_empty());
    }
}
