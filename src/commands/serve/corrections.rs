//! Corrections a player makes in the viewer (issue 22 item 3): move, rotate or delete a
//! base. Each is applied to the table's JSON form and the result goes through the
//! table's own validation, so a correction can never produce a table `vedette report`
//! would refuse. The list is kept in `TABLE.corrections.json` beside the table.

use crate::CliError;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::path::{Path, PathBuf};
use vedette_geometry::{Selection, Table};

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
    /// Take the base off the table (the unit's later bases are numbered one lower,
    /// unless the table numbers them by `slot`).
    Delete {
        /// The base, `unit#index`.
        base: String,
    },
}

impl Correction {
    /// The base it corrects.
    #[must_use]
    pub fn base(&self) -> &str {
        match self {
            Correction::Move { base, .. } | Correction::Rotate { base, .. } | Correction::Delete { base } => {
                base
            }
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
    Ok(file.corrections)
}

/// `original` with `corrections` (read from `file`) applied in order; an error names the
/// file and the first correction that no longer applies.
pub fn apply_all(original: &Table, corrections: &[Correction], file: &Path) -> Result<Table, CliError> {
    let mut table = original.clone();
    for (i, c) in corrections.iter().enumerate() {
        table = apply(&table, c).map_err(|e| {
            CliError::Usage(format!(
                "{}: correction {} ({}) no longer applies: {e}",
                file.display(),
                i + 1,
                c.base()
            ))
        })?;
    }
    Ok(table)
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

/// Applies one correction to a table, returning the corrected table (validated) and its
/// JSON form.
pub fn apply(table: &Table, correction: &Correction) -> Result<Table, CliError> {
    let r = match table.select(correction.base())? {
        Selection::Base(r) => r,
        Selection::Unit(_) => {
            return Err(CliError::Usage(format!(
                "\"{}\" names a unit; a correction names one base, as unit#index",
                correction.base()
            )));
        }
    };
    let mut value = serde_json::to_value(table).map_err(|e| CliError::Usage(e.to_string()))?;
    let bases = value
        .get_mut("units")
        .and_then(|u| u.get_mut(r.unit))
        .and_then(|u| u.get_mut("bases"))
        .and_then(Value::as_array_mut)
        .ok_or_else(|| CliError::Usage(format!("no base {}", correction.base())))?;
    match correction {
        Correction::Delete { .. } => {
            if r.base < bases.len() {
                bases.remove(r.base);
            }
        }
        Correction::Move { x, y, .. } => {
            let b = bases.get_mut(r.base).and_then(Value::as_object_mut);
            let b = b.ok_or_else(|| CliError::Usage(format!("no base {}", correction.base())))?;
            b.insert("x".into(), number(*x)?);
            b.insert("y".into(), number(*y)?);
        }
        Correction::Rotate { heading, .. } => {
            let b = bases.get_mut(r.base).and_then(Value::as_object_mut);
            let b = b.ok_or_else(|| CliError::Usage(format!("no base {}", correction.base())))?;
            b.insert("heading".into(), number(*heading)?);
        }
    }
    let text = serde_json::to_string(&value).map_err(|e| CliError::Usage(e.to_string()))?;
    Table::parse(&text, "the corrected table").map_err(CliError::from)
}

fn number(v: f64) -> Result<Value, CliError> {
    serde_json::Number::from_f64(v)
        .map(Value::Number)
        .ok_or_else(|| CliError::Usage(format!("{v} is not a finite number")))
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

    #[test]
    fn corrections_file_sits_beside_the_table() {
        assert_eq!(
            corrections_path(Path::new("/x/brigade.json")),
            PathBuf::from("/x/brigade.corrections.json")
        );
    }
}
