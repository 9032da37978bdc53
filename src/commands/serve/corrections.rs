//! Corrections a player makes in the viewer (issue 22 item 3): move, rotate, flip,
//! delete or add a base, give a base to another unit, or a unit to another side, or
//! settle a unit's assumed facing, swap it with a twin the photo cannot tell it from or
//! put on the table a unit the scan held back (issue 37). Each
//! is applied to the table's JSON form and the result goes through the
//! table's own validation, so a correction can never produce a table `vedette report`
//! would refuse. The list is kept in `TABLE.corrections.json` beside the table.

use super::corrector::Corrector;
use crate::CliError;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use vedette_geometry::{Table, clipped};

/// The schema id of a corrections file.
pub const CORRECTIONS_SCHEMA_ID: &str = "vedette/corrections/1";

/// One correction to one base, named `unit#index` as the command line names it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(tag = "op", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Correction {
    /// Put the base's centre at (`x`, `y`), table mm; its heading is kept.
    Move {
        /// The base, `unit#index`.
        base: String,
        /// Centre x, table mm.
        x: f64,
        /// Centre y, table mm.
        y: f64,
    },
    /// Turn the base to `heading` (degrees counter-clockwise from +x) about its centre.
    Rotate {
        /// The base, `unit#index`.
        base: String,
        /// The new heading, degrees.
        heading: f64,
    },
    /// Turn the base to face the other way (its heading plus 180°) about its centre.
    Flip {
        /// The base, `unit#index`.
        base: String,
    },
    /// Take the base off the table (the unit's later bases are numbered one lower,
    /// unless the table numbers them by `slot`).
    Delete {
        /// The base, `unit#index`.
        base: String,
    },
    /// Put a new base (untagged) into `unit`, last, centred at (`x`, `y`) facing
    /// `heading`; its size is the unit's first base's unless `width` and `depth` give it.
    Add {
        /// The unit's id.
        unit: String,
        /// Centre x, table mm.
        x: f64,
        /// Centre y, table mm.
        y: f64,
        /// Heading, degrees counter-clockwise from +x.
        heading: f64,
        /// Frontage, mm (default: the unit's first base's).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        width: Option<f64>,
        /// Depth, mm (default: the unit's first base's).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        depth: Option<f64>,
    },
    /// Give the base to the unit `to`, as its last base (a tag read into the wrong unit);
    /// a unit left without bases goes.
    Reassign {
        /// The base, `unit#index`.
        base: String,
        /// The unit that gets it, by id.
        to: String,
    },
    /// Settle the unit's facing (issue 37: an untagged unit whose front the photo did
    /// not show faces the enemy's edge, `"facing": "assumed"`): with `flip`, every base
    /// of the unit turned to face the other way (its heading plus 180°) about its
    /// centre; without, kept as it is. Either way its bases' facing is no longer
    /// assumed (`"facing"` dropped: the player has said which edge is the front).
    Facing {
        /// The unit's id.
        unit: String,
        /// Turn the unit round (true), or keep its facing as it is (false).
        flip: bool,
    },
    /// Exchange the bases of two units (issue 37: an untagged formation the photo
    /// cannot tell from a twin's, `ambiguous-unit`): `unit`'s bases become `with`'s and
    /// `with`'s become `unit`'s, as they stand (places, facings, sigmas). Both units keep
    /// their ids, sides and everything else. Refused unless every base of the two is of
    /// one size (twins' bases), and when a base of either was read from its tag (the tag
    /// says which unit it is).
    Swap {
        /// One unit's id.
        unit: String,
        /// The other unit's id.
        with: String,
    },
    /// Put on the table a unit the scan held back (issue 37: an untagged unit whose
    /// place the photo barely prefers to an overlapping one is reported `missing-unit`
    /// with both places, never placed on a guess): `unit` is the whole unit as a table
    /// file writes it, as the scan report offers it on one of its places. Refused when
    /// a unit of that id is on the table, or when the table would not take the unit
    /// (its own rules, and its `parent` on the table).
    Place {
        /// The unit, with its id, side, kind and bases.
        unit: Box<vedette_geometry::Unit>,
    },
    /// Give the unit to the side `side`.
    Side {
        /// The unit's id.
        unit: String,
        /// The side, as in table files (`fr`, `au`, ...).
        side: String,
    },
}

/// The longest id, `unit#index` or side name a correction (or a request) may give,
/// characters: ids are a few dozen at most, and a longer text would only be stored,
/// echoed in messages and compared against every unit id.
pub const MAX_NAME_CHARS: usize = 200;

/// Refuses a text field longer than [`MAX_NAME_CHARS`], naming the field and the limit.
pub fn check_name(field: &str, text: &str) -> Result<(), String> {
    // A UTF-8 character is at most 4 bytes: a short text needs no count.
    if text.len() <= MAX_NAME_CHARS || text.chars().count() <= MAX_NAME_CHARS {
        return Ok(());
    }
    Err(format!("{field} is {} characters long; at most {MAX_NAME_CHARS} are accepted", text.chars().count()))
}

impl Correction {
    /// Refuses a name longer than [`MAX_NAME_CHARS`], naming its field (`base`, `unit`,
    /// `to`, `side`) and the limit.
    pub fn check_lengths(&self) -> Result<(), String> {
        match self {
            Correction::Move { base, .. }
            | Correction::Rotate { base, .. }
            | Correction::Flip { base }
            | Correction::Delete { base } => check_name("base", base),
            Correction::Reassign { base, to } => check_name("base", base).and_then(|()| check_name("to", to)),
            Correction::Add { unit, .. } | Correction::Facing { unit, .. } => check_name("unit", unit),
            Correction::Side { unit, side } => {
                check_name("unit", unit).and_then(|()| check_name("side", side))
            }
            Correction::Swap { unit, with } => {
                check_name("unit", unit).and_then(|()| check_name("with", with))
            }
            Correction::Place { unit } => check_name("unit", &unit.id)
                .and_then(|()| check_name("side", &unit.side))
                .and_then(|()| unit.parent.as_deref().map_or(Ok(()), |p| check_name("parent", p))),
        }
    }

    /// What it corrects: the base (`unit#index`) or the unit (its id).
    #[must_use]
    pub fn target(&self) -> &str {
        match self {
            Correction::Move { base, .. }
            | Correction::Rotate { base, .. }
            | Correction::Flip { base }
            | Correction::Delete { base }
            | Correction::Reassign { base, .. } => base,
            Correction::Add { unit, .. }
            | Correction::Side { unit, .. }
            | Correction::Swap { unit, .. }
            | Correction::Facing { unit, .. } => unit,
            Correction::Place { unit } => &unit.id,
        }
    }
}

/// The corrections file: `{"schema": "vedette/corrections/1", "corrections": [...]}`,
/// applied in order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CorrectionsFile {
    /// Always `"vedette/corrections/1"`.
    pub schema: String,
    /// The corrections, oldest first.
    pub corrections: Vec<Correction>,
}

/// `T.corrections.json` beside `T.json`.
#[must_use]
pub fn corrections_path(table: &Path) -> PathBuf {
    let stem = table.file_stem().map_or_else(|| "table".into(), |s| s.to_string_lossy().into_owned());
    table.with_file_name(format!("{stem}.corrections.json"))
}

/// Reads a corrections file; an absent file is no corrections.
pub fn read_corrections(path: &Path) -> Result<Vec<Correction>, CliError> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(CliError::Usage(format!("cannot read {}: {e}", path.display()))),
    };
    let file: CorrectionsFile = serde_json::from_str(&text)
        .map_err(|e| CliError::Usage(format!("{}: not a corrections file: {e}", path.display())))?;
    if file.schema != CORRECTIONS_SCHEMA_ID {
        return Err(CliError::Usage(format!(
            "{}: schema \"{}\", expected \"{CORRECTIONS_SCHEMA_ID}\"",
            path.display(),
            file.schema
        )));
    }
    for (i, c) in file.corrections.iter().enumerate() {
        c.check_lengths()
            .map_err(|e| CliError::Usage(format!("{}: correction {}: {e}", path.display(), i + 1)))?;
    }
    Ok(file.corrections)
}

/// `original` with `corrections` (read from `file`) applied in order, in
/// O(corrections + table) (see [`Corrector`]); an error names the file and the first
/// correction that no longer applies.
pub fn apply_all(original: &Table, corrections: &[Correction], file: &Path) -> Result<Table, CliError> {
    let mut corrector = Corrector::new(original.clone());
    for (i, c) in corrections.iter().enumerate() {
        corrector.apply(c).map_err(|e| {
            CliError::Usage(format!(
                "{}: correction {} ({}) no longer applies: {e}",
                file.display(),
                i + 1,
                clipped(c.target(), MAX_NAME_CHARS)
            ))
        })?;
    }
    Ok(corrector.into_table())
}

/// `table` with the corrections file `file` applied (`vedette scan --corrections`): the
/// file must exist.
pub fn apply_file(table: &Table, file: &Path) -> Result<(Table, usize), CliError> {
    if !file.is_file() {
        return Err(CliError::Usage(format!("{}: no such corrections file", file.display())));
    }
    let corrections = read_corrections(file)?;
    Ok((apply_all(table, &corrections, file)?, corrections.len()))
}

/// The text of a corrections file holding `corrections`.
pub fn corrections_json(corrections: &[Correction]) -> Result<String, CliError> {
    let file =
        CorrectionsFile { schema: CORRECTIONS_SCHEMA_ID.to_string(), corrections: corrections.to_vec() };
    serde_json::to_string_pretty(&file).map(|t| format!("{t}\n")).map_err(|e| CliError::Usage(e.to_string()))
}

/// The long corrections files of issue 41's audit, for the bench and the tests: `n`
/// flips of `table`'s bases in turn, and `n` bases added to its first unit (1,000 a
/// row, 1 mm apart).
#[must_use]
pub fn long_files(table: &Table, n: usize) -> (Vec<Correction>, Vec<Correction>) {
    let labels: Vec<String> = table.bases().map(|(r, _)| table.base_label(r)).collect();
    let flips = if labels.is_empty() {
        Vec::new()
    } else {
        (0..n).map(|k| Correction::Flip { base: labels[k % labels.len()].clone() }).collect()
    };
    let unit = table.units.first().map(|u| u.id.clone()).unwrap_or_default();
    let adds = (0..n)
        .map(|k| Correction::Add {
            unit: unit.clone(),
            x: (k % 1000) as f64,
            y: (k / 1000) as f64,
            heading: 0.0,
            width: None,
            depth: None,
        })
        .collect();
    (flips, adds)
}

/// Applies one correction to a table, returning the corrected table (validated): O(table).
pub fn apply(table: &Table, correction: &Correction) -> Result<Table, CliError> {
    let mut corrector = Corrector::new(table.clone());
    corrector.apply(correction)?;
    Ok(corrector.into_table())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> Table {
        Table::from_json_str(
            r#"{"schema":"vedette/table/1","rules":"republique5","scale":"medium","units":[
            {"id":"a","side":"x","kind":"infantry","formation":"line",
             "bases":[{"x":0,"y":0,"heading":90,"width":30,"depth":20},{"x":30,"y":0,"heading":90,"width":30,"depth":20}]}]}"#,
        )
        .unwrap()
    }

    #[test]
    fn corrections_read_as_written() {
        let c: Correction = serde_json::from_str(r#"{"op":"move","base":"a#1","x":5,"y":6}"#).unwrap();
        assert_eq!(c, Correction::Move { base: "a#1".into(), x: 5.0, y: 6.0 });
        assert!(serde_json::from_str::<Correction>(r#"{"op":"move","base":"a#1","x":5}"#).is_err());
        assert!(serde_json::from_str::<Correction>(r#"{"op":"fly","base":"a#1"}"#).is_err());
        let text = corrections_json(std::slice::from_ref(&c)).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("t.corrections.json");
        std::fs::write(&p, text).unwrap();
        assert_eq!(read_corrections(&p).unwrap(), vec![c]);
        assert!(read_corrections(&dir.path().join("none.json")).unwrap().is_empty());
    }

    #[test]
    fn move_rotate_delete_and_refusals() {
        let t = table();
        let moved = apply(&t, &Correction::Move { base: "a#1".into(), x: 40.0, y: 2.0 }).unwrap();
        assert_eq!(moved.units[0].bases[1].centre(), vedette_geometry::Vec2::new(40.0, 2.0));
        let turned = apply(&t, &Correction::Rotate { base: "a#0".into(), heading: 45.0 }).unwrap();
        assert_eq!(turned.units[0].bases[0].heading_deg(), 45.0);
        let fewer = apply(&t, &Correction::Delete { base: "a#0".into() }).unwrap();
        assert_eq!(fewer.units[0].bases.len(), 1);
        // The last base: the table's own validation refuses a unit without bases.
        assert!(apply(&fewer, &Correction::Delete { base: "a#0".into() }).is_err());
        assert!(apply(&t, &Correction::Delete { base: "a".into() }).is_err());
        assert!(apply(&t, &Correction::Delete { base: "b#0".into() }).is_err());
    }

    fn two_units() -> Table {
        Table::from_json_str(
            r#"{"schema":"vedette/table/1","rules":"republique5","scale":"medium","units":[
            {"id":"a","side":"x","kind":"infantry","formation":"line",
             "bases":[{"x":0,"y":0,"heading":90,"width":30,"depth":20},{"x":30,"y":0,"heading":90,"width":30,"depth":20}]},
            {"id":"b","side":"y","kind":"infantry","formation":"line",
             "bases":[{"x":0,"y":100,"heading":270,"width":40,"depth":15}]}]}"#,
        )
        .unwrap()
    }

    /// Issue 37: a fitted unit's assumed facing settled, turned round or kept.
    #[test]
    fn facing_turns_a_unit_round_in_place_and_settles_it() {
        use vedette_geometry::{BaseMeta, Facing, Found};
        let mut t = two_units();
        for b in &mut t.units[0].bases {
            *b = b.with_meta(BaseMeta {
                found: Some(Found::Fitted),
                facing: Some(Facing::Assumed),
                sigma_mm: Some(1.5),
                ..BaseMeta::default()
            });
        }
        let turned = apply(&t, &Correction::Facing { unit: "a".into(), flip: true }).unwrap();
        for (b, was) in turned.units[0].bases.iter().zip(&t.units[0].bases) {
            assert_eq!((b.centre(), b.heading_deg()), (was.centre(), 270.0));
            assert_eq!(b.meta().facing, None, "no longer assumed");
            assert_eq!((b.meta().found, b.meta().sigma_mm), (Some(Found::Fitted), Some(1.5)));
        }
        // The other unit is untouched; turning it back is 90 again, not 450.
        assert_eq!(turned.units[1], t.units[1]);
        let back = apply(&turned, &Correction::Facing { unit: "a".into(), flip: true }).unwrap();
        assert_eq!(back.units[0].bases[0].heading_deg(), 90.0);
        // Kept: the same bases, no longer assumed.
        let kept = apply(&t, &Correction::Facing { unit: "a".into(), flip: false }).unwrap();
        for (b, was) in kept.units[0].bases.iter().zip(&t.units[0].bases) {
            assert_eq!((b.centre(), b.heading_deg(), b.meta().facing), (was.centre(), 90.0, None));
        }
        // A base's name or an unknown unit is refused.
        assert!(apply(&t, &Correction::Facing { unit: "a#0".into(), flip: true }).is_err());
        assert!(apply(&t, &Correction::Facing { unit: "zz".into(), flip: true }).is_err());
    }

    /// Issue 37: two twin formations the photo could not tell apart (`ambiguous-unit`)
    /// exchange their bases, each unit keeping its id and side.
    #[test]
    fn swap_exchanges_twins_bases_and_refuses_what_is_not_twins() {
        use vedette_geometry::{BaseMeta, Found, Vec2};
        let mut t = Table::from_json_str(
            r#"{"schema":"vedette/table/1","rules":"republique5","scale":"medium","units":[
            {"id":"fr-3","side":"fr","kind":"infantry","formation":"line",
             "bases":[{"x":0,"y":0,"heading":90,"width":40,"depth":20},{"x":40,"y":0,"heading":90,"width":40,"depth":20}]},
            {"id":"fr-5","side":"fr","kind":"infantry","formation":"line",
             "bases":[{"x":300,"y":50,"heading":80,"width":40,"depth":20},{"x":340,"y":57,"heading":80,"width":40,"depth":20}]},
            {"id":"fr-7","side":"fr","kind":"infantry","formation":"line",
             "bases":[{"x":600,"y":0,"heading":90,"width":40.3,"depth":20}]},
            {"id":"au-1","side":"au","kind":"cavalry","formation":"line",
             "bases":[{"x":0,"y":500,"heading":270,"width":40,"depth":30}]}]}"#,
        )
        .unwrap();
        for b in t.units.iter_mut().flat_map(|u| u.bases.iter_mut()) {
            *b = b.with_meta(BaseMeta {
                found: Some(Found::Fitted),
                sigma_mm: Some(2.0),
                ..BaseMeta::default()
            });
        }
        let swapped = apply(&t, &Correction::Swap { unit: "fr-3".into(), with: "fr-5".into() }).unwrap();
        assert_eq!(swapped.units[0].id, "fr-3");
        assert_eq!(swapped.units[0].bases, t.units[1].bases);
        assert_eq!(swapped.units[1].id, "fr-5");
        assert_eq!(swapped.units[1].bases, t.units[0].bases);
        assert_eq!(swapped.units[1].bases[1].centre(), Vec2::new(40.0, 0.0));
        // Swapped back: the table as it was.
        let back = apply(&swapped, &Correction::Swap { unit: "fr-5".into(), with: "fr-3".into() }).unwrap();
        assert_eq!(back, t);
        // Within 0.5 mm a base is of the same size (a hand-edited table may round); the
        // counts may differ (a formation that lost a base).
        assert!(apply(&t, &Correction::Swap { unit: "fr-7".into(), with: "fr-3".into() }).is_ok());
        let refused = |c: Correction, t: &Table| apply(t, &c).unwrap_err().to_string();
        let e = refused(Correction::Swap { unit: "fr-3".into(), with: "au-1".into() }, &t);
        assert!(e.contains("fr-3 and au-1 are not twins") && e.contains("40 x 30 mm"), "{e}");
        let e = refused(Correction::Swap { unit: "fr-3".into(), with: "fr-3".into() }, &t);
        assert!(e.contains("with itself"), "{e}");
        assert!(refused(Correction::Swap { unit: "fr-3".into(), with: "zz".into() }, &t).contains("zz"));
        assert!(apply(&t, &Correction::Swap { unit: "fr-3#0".into(), with: "fr-5".into() }).is_err());
        // A base read from its tag says which unit it is.
        let mut tagged = t.clone();
        tagged.units[1].bases[1] =
            tagged.units[1].bases[1].with_meta(BaseMeta { tag: Some(41), ..BaseMeta::default() });
        let e = refused(Correction::Swap { unit: "fr-3".into(), with: "fr-5".into() }, &tagged);
        assert!(e.contains("fr-5's base 1 was read from its tag (41)"), "{e}");
    }

    /// Issue 37: a unit the scan held back from a contested place is put on the table
    /// as the report offers it (`place`), with its bases, sigmas and assumed facing as
    /// they are; placing it again, a unit without a base, or one whose parent is not on
    /// the table is refused in the table's own words. It then takes corrections like
    /// any unit, and goes the way it came (the corrections file round-trips it).
    #[test]
    fn place_puts_a_held_unit_on_the_table() {
        use vedette_geometry::{Facing, Found, Unit};
        let t = two_units();
        let held: Unit = serde_json::from_str(
            r#"{"id":"fr-9","side":"fr","kind":"infantry","formation":"line","bases":[
              {"x":100,"y":300,"heading":90,"width":40,"depth":20,"sigma_mm":4.5,"found":"fitted","facing":"assumed"},
              {"x":140,"y":300,"heading":90,"width":40,"depth":20,"sigma_mm":4.5,"found":"fitted","facing":"assumed"}]}"#,
        )
        .unwrap();
        let place = |u: &Unit| Correction::Place { unit: Box::new(u.clone()) };
        let placed = apply(&t, &place(&held)).unwrap();
        assert_eq!(placed.units.len(), t.units.len() + 1);
        let got = placed.units.last().unwrap();
        assert_eq!(got, &held);
        assert!(got.bases.iter().all(|b| b.meta().found == Some(Found::Fitted)
            && b.meta().facing == Some(Facing::Assumed)
            && b.meta().sigma_mm == Some(4.5)));
        // Then a correction like any unit's.
        let flipped = apply(&placed, &Correction::Facing { unit: "fr-9".into(), flip: true }).unwrap();
        assert_eq!(flipped.units.last().unwrap().bases[0].heading_deg(), 270.0);
        let refused = |c: Correction, t: &Table| apply(t, &c).unwrap_err().to_string();
        let e = refused(place(&held), &placed);
        assert!(e.contains("fr-9"), "{e}");
        let e = refused(place(&Unit { bases: Vec::new(), ..held.clone() }), &t);
        assert!(e.contains("at least one base"), "{e}");
        let e = refused(place(&Unit { parent: Some("zz".into()), ..held.clone() }), &t);
        assert!(e.contains("zz"), "{e}");
        // The file form: {"op": "place", "unit": {...}}.
        let text = corrections_json(&[place(&held)]).unwrap();
        assert!(text.contains("\"op\": \"place\"") && text.contains("\"id\": \"fr-9\""), "{text}");
        let back: CorrectionsFile = serde_json::from_str(&text).unwrap();
        assert_eq!(back.corrections, vec![place(&held)]);
    }

    #[test]
    fn flip_add_reassign_side_and_refusals() {
        let t = two_units();
        // Flip: 90 -> 270, and 270 -> 90 (not 450).
        let flipped = apply(&t, &Correction::Flip { base: "a#1".into() }).unwrap();
        assert_eq!(flipped.units[0].bases[1].heading_deg(), 270.0);
        assert_eq!(flipped.units[0].bases[1].centre(), t.units[0].bases[1].centre());
        let back = apply(&t, &Correction::Flip { base: "b#0".into() }).unwrap();
        assert_eq!(back.units[1].bases[0].heading_deg(), 90.0);
        // Add: the unit's first base's size unless given; last; untagged.
        let add =
            |w, d| Correction::Add { unit: "a".into(), x: 60.0, y: 0.0, heading: 90.0, width: w, depth: d };
        let more = apply(&t, &add(None, None)).unwrap();
        let b = &more.units[0].bases[2];
        assert_eq!((b.centre(), b.width(), b.depth()), (vedette_geometry::Vec2::new(60.0, 0.0), 30.0, 20.0));
        assert_eq!(b.meta().tag, None);
        let wide = apply(&t, &add(Some(40.0), Some(10.0))).unwrap();
        assert_eq!((wide.units[0].bases[2].width(), wide.units[0].bases[2].depth()), (40.0, 10.0));
        // Reassign: a#1 becomes b's last base, a keeps one; the last base of a unit
        // takes the emptied unit away with it.
        let moved = apply(&t, &Correction::Reassign { base: "a#1".into(), to: "b".into() }).unwrap();
        assert_eq!((moved.units[0].bases.len(), moved.units[1].bases.len()), (1, 2));
        assert_eq!(moved.units[1].bases[1].centre(), vedette_geometry::Vec2::new(30.0, 0.0));
        let gone = apply(&t, &Correction::Reassign { base: "b#0".into(), to: "a".into() }).unwrap();
        assert_eq!(gone.units.len(), 1);
        assert_eq!(gone.units[0].bases.len(), 3);
        // Side.
        let turned = apply(&t, &Correction::Side { unit: "b".into(), side: "x".into() }).unwrap();
        assert_eq!(turned.units[1].side, "x");
        // Refusals, each naming what is wrong.
        let refused = |c: Correction| apply(&t, &c).unwrap_err().to_string();
        assert!(refused(Correction::Flip { base: "a".into() }).contains("names a unit"));
        assert!(refused(add(None, None).clone_with_unit("a#0")).contains("names a base"));
        assert!(
            refused(Correction::Reassign { base: "a#0".into(), to: "a".into() }).contains("already in a")
        );
        assert!(refused(Correction::Reassign { base: "a#0".into(), to: "c".into() }).contains('c'));
        assert!(refused(Correction::Side { unit: "c".into(), side: "x".into() }).contains('c'));
        let nan =
            Correction::Add { unit: "a".into(), x: f64::NAN, y: 0.0, heading: 0.0, width: None, depth: None };
        assert!(refused(nan).contains("not a finite number"));
        // Read back from JSON as the viewer sends them.
        let c: Correction = serde_json::from_str(r#"{"op":"reassign","base":"a#1","to":"b"}"#).unwrap();
        assert_eq!(c, Correction::Reassign { base: "a#1".into(), to: "b".into() });
        let c: Correction =
            serde_json::from_str(r#"{"op":"add","unit":"a","x":1,"y":2,"heading":3}"#).unwrap();
        assert_eq!(c.target(), "a");
    }

    impl Correction {
        fn clone_with_unit(&self, unit: &str) -> Correction {
            match self.clone() {
                Correction::Add { x, y, heading, width, depth, .. } => {
                    Correction::Add { unit: unit.into(), x, y, heading, width, depth }
                }
                c => c,
            }
        }
    }

    #[test]
    fn corrections_file_sits_beside_the_table() {
        assert_eq!(
            corrections_path(Path::new("/x/brigade.json")),
            PathBuf::from("/x/brigade.corrections.json")
        );
    }
}
