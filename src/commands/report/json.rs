//! The report's JSON (`vedette report --json`), written in pieces beside the sections
//! still being computed.

use crate::CliError;
use serde::Serialize;
use std::io::{self, Write};

/// The report's pretty JSON in pieces, one per field of [`super::Report`] in its order:
/// each section serialized on the thread that computed it, beside the sections still
/// being computed, and indented as it sits in the whole report ([`JsonPieces::write`]
/// joins them).
#[derive(Debug, Default)]
pub struct JsonPieces(pub(super) Vec<(&'static str, Vec<u8>)>);

impl JsonPieces {
    /// `value`'s pretty JSON as a field of the report writes it: indented one level.
    pub(super) fn of<T: Serialize>(value: &T) -> Result<Vec<u8>, CliError> {
        let mut text = Vec::new();
        let mut ser =
            serde_json::Serializer::with_formatter(&mut text, FieldPretty { level: 1, has_value: false });
        value.serialize(&mut ser).map_err(|e| CliError::Usage(e.to_string()))?;
        Ok(text)
    }

    /// The whole report's pretty JSON, as `serde_json::to_writer_pretty` writes the
    /// report, and a line break.
    ///
    /// # Errors
    /// When `out` cannot be written.
    pub fn write(&self, out: &mut dyn Write) -> io::Result<()> {
        for (i, (key, value)) in self.0.iter().enumerate() {
            let sep = if i == 0 { "{" } else { "," };
            write!(out, "{sep}\n  \"{key}\": ")?;
            out.write_all(value)?;
        }
        out.write_all(if self.0.is_empty() { b"{}\n" } else { b"\n}\n" })
    }
}

/// serde_json's pretty layout (`PrettyFormatter`, two spaces a level) starting at
/// `level` instead of 0: a value written as it sits inside an enclosing object.
struct FieldPretty {
    level: usize,
    has_value: bool,
}

/// Enough spaces for 32 levels; deeper ones are written in several pieces.
const SPACES: &[u8; 64] = b"                                                                ";

impl FieldPretty {
    fn line<W: ?Sized + Write>(&self, w: &mut W, comma: bool) -> io::Result<()> {
        w.write_all(if comma { b",\n" } else { b"\n" })?;
        let mut left = 2 * self.level;
        while left > 0 {
            let n = left.min(SPACES.len());
            w.write_all(&SPACES[..n])?;
            left -= n;
        }
        Ok(())
    }

    fn close<W: ?Sized + Write>(&mut self, w: &mut W, bracket: &[u8]) -> io::Result<()> {
        self.level -= 1;
        if self.has_value {
            self.line(w, false)?;
        }
        w.write_all(bracket)
    }
}

impl serde_json::ser::Formatter for FieldPretty {
    fn begin_array<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.level += 1;
        self.has_value = false;
        w.write_all(b"[")
    }
    fn end_array<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.close(w, b"]")
    }
    fn begin_array_value<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        self.line(w, !first)
    }
    fn end_array_value<W: ?Sized + Write>(&mut self, _: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }
    fn begin_object<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.level += 1;
        self.has_value = false;
        w.write_all(b"{")
    }
    fn end_object<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.close(w, b"}")
    }
    fn begin_object_key<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        self.line(w, !first)
    }
    fn begin_object_value<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        w.write_all(b": ")
    }
    fn end_object_value<W: ?Sized + Write>(&mut self, _: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use vedette_geometry::Table;

    #[test]
    fn the_json_pieces_join_into_the_reports_pretty_json() {
        // Every rule set's sample: null sections (no artillery, no Pro Patria) included.
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("samples");
        for name in
            ["brigade-attack", "classic-assault", "pro-patria-charge", "republic-overlap", "woods-block"]
        {
            let table = Table::load(dir.join(format!("{name}.json"))).unwrap();
            let (report, _, pieces) =
                super::super::build_sections(&table, &mut super::super::Stages::default(), true).unwrap();
            let mut joined = Vec::new();
            pieces.unwrap().write(&mut joined).unwrap();
            let whole = format!("{}\n", serde_json::to_string_pretty(&report).unwrap());
            assert_eq!(String::from_utf8(joined).unwrap(), whole, "{name}");
            assert!(
                super::super::build_sections(&table, &mut super::super::Stages::default(), false)
                    .unwrap()
                    .2
                    .is_none()
            );
        }
    }

    #[test]
    fn a_field_is_written_as_the_pretty_layout_writes_it_inside_an_object() {
        // Nested arrays and objects, empty ones, deeper than the spaces kept at once.
        let mut deep = serde_json::json!({"x": [1, {"y": [], "z": {}}], "s": "a\\nb"});
        for _ in 0..40 {
            deep = serde_json::json!({"k": [deep, []]});
        }
        let whole = serde_json::to_string_pretty(&serde_json::json!({"f": deep})).unwrap();
        let piece = JsonPieces(vec![("f", JsonPieces::of(&deep).unwrap())]);
        let mut joined = Vec::new();
        piece.write(&mut joined).unwrap();
        assert_eq!(String::from_utf8(joined).unwrap(), format!("{whole}\n"));
    }
}
