//! Reading table files: JSON syntax, then structure (with the path of any bad field),
//! then the model's own rules (see `validate.rs`).

use super::Table;
use super::unique_keys::keys_are_unique;
use crate::error::GeometryError;
use serde_json::Value;
use std::path::Path;

/// The schema id every table file carries.
pub const SCHEMA_ID: &str = "vedette/table/1";

impl Table {
    /// Reads and validates a table file.
    pub fn load(path: impl AsRef<Path>) -> Result<Table, GeometryError> {
        let path = path.as_ref();
        let origin = path.display().to_string();
        let text = std::fs::read_to_string(path)
            .map_err(|source| GeometryError::Io { path: origin.clone(), source })?;
        Table::parse(&text, &origin)
    }

    /// Parses and validates a table from JSON text.
    pub fn from_json_str(text: &str) -> Result<Table, GeometryError> {
        Table::parse(text, "table")
    }

    /// Parses and validates; `origin` names the source in error messages.
    /// A UTF-8 byte-order mark (which some editors write) is skipped; a key given twice
    /// in one object is an error (JSON parsers disagree on which copy wins).
    pub fn parse(text: &str, origin: &str) -> Result<Table, GeometryError> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        if let Some(table) = parse_well_formed(text) {
            table.validate(origin)?;
            return Ok(table);
        }
        // Something is wrong with the file: found again the slow way, which says what
        // and where.
        let value: Value = parse_json_strictly(text).map_err(|e| GeometryError::Json {
            origin: origin.to_string(),
            line: e.line(),
            column: e.column(),
            message: clip(&strip_position(&e.to_string())),
        })?;
        if let Some(found) = value.get("schema").and_then(Value::as_str)
            && found != SCHEMA_ID
        {
            return Err(GeometryError::UnsupportedSchema {
                origin: origin.to_string(),
                found: found.to_string(),
                expected: SCHEMA_ID,
            });
        }
        let table: Table = serde_path_to_error::deserialize(&value).map_err(|e| {
            let location = describe_path(&e.path().to_string(), &value);
            GeometryError::InvalidField {
                origin: origin.to_string(),
                location,
                reason: clip(&e.into_inner().to_string()),
            }
        })?;
        table.validate(origin)?;
        Ok(table)
    }

    /// The table as pretty JSON text.
    pub fn to_json_string(&self) -> String {
        // Serializing plain data with string keys cannot fail.
        serde_json::to_string_pretty(self).unwrap_or_default()
    }
}

/// The table in `text` when the file is well formed (JSON without a key given twice in
/// one object, of the table's structure and schema), parsed straight into the table;
/// `None` for any fault, which [`Table::parse`] then finds and names through a
/// [`Value`] (the same table either way: the same fields read by the same code). The
/// check for repeated keys trusts the text to be well-formed JSON, which the typed
/// parse's success proves.
fn parse_well_formed(text: &str) -> Option<Table> {
    let table = serde_json::from_str::<Table>(text).ok()?;
    (table.schema == SCHEMA_ID && keys_are_unique(text)).then_some(table)
}

/// Parses JSON text into a [`Value`], refusing an object that gives one key twice
/// (serde_json would silently keep the last copy).
pub fn parse_json_strictly(text: &str) -> Result<Value, serde_json::Error> {
    serde_json::from_str::<Strict>(text).map(|s| s.0)
}

/// A [`Value`] whose objects have unique keys.
struct Strict(Value);

impl<'de> serde::Deserialize<'de> for Strict {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(StrictVisitor).map(Strict)
    }
}

struct StrictVisitor;

impl<'de> serde::de::Visitor<'de> for StrictVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_string()))
    }
    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_some<D: serde::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(StrictVisitor)
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
        while let Some(Strict(v)) = seq.next_element()? {
            items.push(v);
        }
        Ok(Value::Array(items))
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut object = serde_json::Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if object.contains_key(&key) {
                return Err(serde::de::Error::custom(format!(
                    "the key \"{key}\" is given twice in one object"
                )));
            }
            let Strict(v) = map.next_value()?;
            object.insert(key, v);
        }
        Ok(Value::Object(object))
    }
}

/// The longest message quoted from a file, characters (a 200 KB string value is not
/// echoed to the terminal).
const MAX_MESSAGE_CHARS: usize = 300;

fn clip(msg: &str) -> String {
    crate::number::clipped(msg, MAX_MESSAGE_CHARS)
}

/// serde_json appends " at line L column C"; the error carries those separately.
fn strip_position(msg: &str) -> String {
    match msg.rfind(" at line ") {
        Some(i) => msg[..i].to_string(),
        None => msg.to_string(),
    }
}

/// Turns `units[3].bases[0].width` into `units[3] "fr-1-2" bases[0].width`, naming the
/// unit (or terrain feature) by its id when the file gives one.
pub(super) fn describe_path(path: &str, value: &Value) -> String {
    if path == "." || path.is_empty() {
        return "top level".to_string();
    }
    for list in ["units", "terrain", "markers"] {
        let prefix = format!("{list}[");
        if let Some(rest) = path.strip_prefix(&prefix)
            && let Some(close) = rest.find(']')
            && let Ok(i) = rest[..close].parse::<usize>()
        {
            let tail = rest[close + 1..].trim_start_matches('.');
            let id = value.get(list).and_then(|l| l.get(i)).and_then(|u| u.get("id")).and_then(Value::as_str);
            let head = match id {
                Some(id) => format!("{list}[{i}] \"{id}\""),
                None => format!("{list}[{i}]"),
            };
            return if tail.is_empty() { head } else { format!("{head} {tail}") };
        }
    }
    path.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_side_given_twice_is_refused_though_a_map_would_keep_the_last() {
        let text = r#"{"schema": "vedette/table/1", "rules": "republique5", "scale": "medium",
            "sides": {"fr": {}, "fr": {}}, "units": []}"#;
        let e = Table::parse(text, "sides.json").map(|_| ()).unwrap_err().to_string();
        assert!(e.contains("sides.json") && e.contains("\"fr\" is given twice"), "{e}");
    }

    #[test]
    fn the_one_pass_parse_reads_the_table_the_checked_parse_reads() -> Result<(), GeometryError> {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../samples/brigade-attack.json");
        let text = std::fs::read_to_string(path)
            .map_err(|source| GeometryError::Io { path: path.into(), source })?;
        let fast = parse_well_formed(&text);
        let value = parse_json_strictly(&text).ok();
        let slow: Option<Table> = value.and_then(|v| serde_path_to_error::deserialize(&v).ok());
        assert!(fast.is_some());
        assert_eq!(fast, slow);
        // A wrong schema is left to the checked parse, which names it.
        let other = text.replacen("vedette/table/1", "vedette/table/9", 1);
        assert!(parse_well_formed(&other).is_none());
        assert!(matches!(Table::parse(&other, "x"), Err(GeometryError::UnsupportedSchema { .. })));
        Ok(())
    }
}
