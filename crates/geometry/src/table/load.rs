//! Reading table files: JSON syntax, then structure (with the path of any bad field),
//! then the model's own rules (see `validate.rs`).

use super::Table;
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
    pub fn parse(text: &str, origin: &str) -> Result<Table, GeometryError> {
        let value: Value = serde_json::from_str(text).map_err(|e| GeometryError::Json {
            origin: origin.to_string(),
            line: e.line(),
            column: e.column(),
            message: strip_position(&e.to_string()),
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
                reason: e.into_inner().to_string(),
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
