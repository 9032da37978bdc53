//! The geometry crate's one error type.

use crate::rules::RuleSet;
use crate::scale::Scale;
use thiserror::Error;

/// Everything that can go wrong in `vedette-geometry`.
#[derive(Debug, Error)]
pub enum GeometryError {
    /// A table file could not be read.
    #[error("cannot read table file '{path}': {source}")]
    Io {
        /// The file.
        path: String,
        /// The operating system's reason.
        #[source]
        source: std::io::Error,
    },

    /// The text is not valid JSON.
    #[error("{origin} is not valid JSON: {message} (line {line}, column {column})")]
    Json {
        /// The file name, or "table" for text not read from a file.
        origin: String,
        /// 1-based line of the problem.
        line: usize,
        /// 1-based column of the problem.
        column: usize,
        /// What the parser expected.
        message: String,
    },

    /// A field is missing, has the wrong type, or holds a value the model does not allow.
    #[error("{origin}: {location}: {reason}")]
    InvalidField {
        /// The file name, or "table".
        origin: String,
        /// Where: the unit (by index and id) and the field path, e.g.
        /// `units[3] "fr-1-2" bases[0].width`.
        location: String,
        /// What is wrong with it.
        reason: String,
    },

    /// Two units (or two terrain features) share an id.
    #[error("{origin}: duplicate id \"{id}\" ({first} and {second})")]
    DuplicateId {
        /// The file name, or "table".
        origin: String,
        /// The repeated id.
        id: String,
        /// Where it first appears, e.g. `units[0]`.
        first: String,
        /// Where it appears again.
        second: String,
    },

    /// A field names a unit that the table does not have.
    #[error("{origin}: {location}: no unit with id \"{id}\"")]
    UnknownReference {
        /// The file name, or "table".
        origin: String,
        /// The referring field.
        location: String,
        /// The missing id.
        id: String,
    },

    /// The table declares a schema this version does not read.
    #[error("{origin}: schema \"{found}\" is not supported (expected \"{expected}\")")]
    UnsupportedSchema {
        /// The file name, or "table".
        origin: String,
        /// What the file says.
        found: String,
        /// What this version reads.
        expected: &'static str,
    },

    /// The scale is not one the rule set is played at.
    #[error(
        "scale \"{scale}\" does not belong to rule set \"{rules}\" (republique5, republique-classic and republic use small/medium/large; pro-patria uses 15mm/28mm)"
    )]
    ScaleNotForRules {
        /// The rule set.
        rules: RuleSet,
        /// The scale asked for.
        scale: Scale,
    },

    /// A rule set was asked for a distance or angle its rules do not name.
    #[error("rule set \"{rules}\" has no rule for {what}")]
    NotInRuleSet {
        /// The rule set.
        rules: RuleSet,
        /// The distance or angle asked for.
        what: String,
    },

    /// A unit id that is not in the table.
    #[error("no unit \"{id}\" in the table{hint}")]
    UnknownUnit {
        /// The id asked for.
        id: String,
        /// A suggestion (" (did you mean ...?)") or the empty string.
        hint: String,
    },

    /// A base index past the end of a unit.
    #[error("unit \"{unit}\" has {count} base(s); there is no base #{index}")]
    BadBaseIndex {
        /// The unit id.
        unit: String,
        /// The index asked for.
        index: usize,
        /// How many bases the unit has.
        count: usize,
    },

    /// A base selector that is not `unit` or `unit#index`.
    #[error("\"{text}\" is not a unit id or unit#index")]
    BadSelector {
        /// The text given.
        text: String,
    },

    /// A base that is not an artillery battery was asked for artillery findings.
    #[error("{base} is not an artillery battery")]
    NotABattery {
        /// The base, as `unit#index`.
        base: String,
    },

    /// A unit of the wrong kind for what it was asked to do (an infantry battalion as
    /// the battery of a bombardment).
    #[error("\"{unit}\" is {kind}, not artillery: {reason}")]
    WrongKind {
        /// The unit's id.
        unit: String,
        /// Its kind, as table files name it.
        kind: String,
        /// What needs another kind.
        reason: String,
    },

    /// A sight model was asked over a table whose terrain is not the one its prepared
    /// terrain was made from ([`crate::los::PreparedTerrain`]).
    #[error("the prepared terrain ({prepared} feature(s)) is not this table's terrain ({table} feature(s))")]
    TerrainMismatch {
        /// How many features the prepared terrain was made from.
        prepared: usize,
        /// How many features the table has.
        table: usize,
    },
}
