//! A large table file parsed in two halves at once: its units are most of its text, so
//! the units in the second half of the `units` array are parsed on a second thread
//! while the rest of the table (and the first half of the units) is parsed on this one.
//!
//! One pass over the bytes finds the top-level `units` array and the comma between two
//! of its units nearest the middle of it, following the structure of well-formed JSON
//! (brackets, strings and their escapes, keys) as [`super::unique_keys`] does. The text
//! is then read as two JSON texts: the table with the units after that comma left out,
//! and those units as an array of their own. Both parse exactly when the whole does
//! (the same text, cut between two array elements) and give the same units in the
//! same order, each read by the same code. Anything the pass does not find as
//! expected leaves the file to the one-thread parse.

use super::Table;
use super::unique_keys::{keys_are_unique, string_end};

/// Where the text is cut: the comma between two units, and the bracket that closes the
/// units array (byte indices).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Cut {
    comma: usize,
    close: usize,
}

/// The table in `text` (well formed, of the table's schema or not: the caller checks),
/// parsed in two halves on two threads, the check for repeated keys on the second;
/// `None` when it is not a table, has a key given twice, or has no units array of two
/// or more units to cut.
pub(super) fn parse_in_halves(text: &str) -> Option<Table> {
    let cut = units_cut(text)?;
    let first = format!("{}{}", &text[..cut.comma], &text[cut.close..]);
    let second = format!("[{}]", &text[cut.comma + 1..cut.close]);
    let (table, rest) = std::thread::scope(|s| {
        let later = s.spawn(|| {
            let units = serde_json::from_str::<Vec<super::Unit>>(&second).ok()?;
            keys_are_unique(text).then_some(units)
        });
        let table = serde_json::from_str::<Table>(&first).ok();
        (table, later.join().ok().flatten())
    });
    let (mut table, rest) = (table?, rest?);
    table.units.extend(rest);
    Some(table)
}

/// The cut of `text`'s top-level `units` array nearest its middle; `None` if there is
/// no such array of two or more elements, or the text is not well-formed JSON as far
/// as the pass can tell.
fn units_cut(text: &str) -> Option<Cut> {
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    // At depth 1 (the top object): the next string is a key; the last key read.
    let mut expect_key = false;
    let mut units_key = false;
    // The units array: its opening bracket's depth, its commas, its closing bracket.
    let mut in_units = false;
    let mut open_at = 0usize;
    let mut commas: Vec<usize> = Vec::new();
    let mut close = None;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                let (end, _) = string_end(bytes, i + 1)?;
                if depth == 1 && expect_key {
                    units_key = &bytes[i + 1..end] == b"units";
                    expect_key = false;
                }
                i = end + 1;
                continue;
            }
            b'{' | b'[' => {
                depth += 1;
                if depth == 1 {
                    if bytes[i] != b'{' {
                        return None;
                    }
                    expect_key = true;
                } else if depth == 2 && units_key && bytes[i] == b'[' && close.is_none() && !in_units {
                    in_units = true;
                    open_at = i;
                }
            }
            b'}' | b']' => {
                if depth == 2 && in_units {
                    in_units = false;
                    close = Some(i);
                }
                depth = depth.checked_sub(1)?;
                if depth == 1 {
                    units_key = false;
                }
            }
            b',' => {
                if depth == 1 {
                    expect_key = true;
                    units_key = false;
                } else if depth == 2 && in_units {
                    commas.push(i);
                }
            }
            _ => {}
        }
        i += 1;
    }
    let close = close?;
    if depth != 0 {
        return None;
    }
    let middle = open_at + (close - open_at) / 2;
    let comma = commas.iter().copied().min_by_key(|&c| c.abs_diff(middle))?;
    Some(Cut { comma, close })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cut_falls_between_two_units_of_the_top_level_array() {
        let text = r#"{"a": {"units": [1, 2]}, "units": [{"x": "],"}, [3, 4], {"y": 5}, 6], "b": [7, 8]}"#;
        let cut = units_cut(text).unwrap();
        assert_eq!(&text[cut.close..cut.close + 1], "]");
        assert_eq!(&text[cut.close + 1..], r#", "b": [7, 8]}"#);
        assert_eq!(&text[cut.comma..cut.comma + 1], ",");
        // The comma nearest the middle of the array, between whole elements.
        let first = format!("{}{}", &text[..cut.comma], &text[cut.close..]);
        let second = format!("[{}]", &text[cut.comma + 1..cut.close]);
        let a: serde_json::Value = serde_json::from_str(&first).unwrap();
        let b: serde_json::Value = serde_json::from_str(&second).unwrap();
        let whole: serde_json::Value = serde_json::from_str(text).unwrap();
        let mut joined = a["units"].as_array().unwrap().clone();
        joined.extend(b.as_array().unwrap().iter().cloned());
        assert_eq!(&joined, whole["units"].as_array().unwrap());
        assert_eq!(joined.len(), 4);
        assert!((1..4).contains(&a["units"].as_array().unwrap().len()));
    }

    #[test]
    fn no_cut_without_two_units_at_the_top() {
        assert_eq!(units_cut(r#"{"units": [{"a": 1}]}"#), None);
        assert_eq!(units_cut(r#"{"units": []}"#), None);
        assert_eq!(units_cut(r#"{"x": {"units": [1, 2, 3]}}"#), None);
        assert_eq!(units_cut(r#"[{"units": [1, 2, 3]}]"#), None);
        // A value "units" is not the key.
        assert_eq!(units_cut(r#"{"k": "units", "v": [1, 2, 3]}"#), None);
        // Not closed.
        assert_eq!(units_cut(r#"{"units": [1, 2, 3"#), None);
        assert_eq!(units_cut(r#"{"units": [1, 2, 3]"#), None);
    }

    #[test]
    fn the_halves_read_the_table_the_whole_reads() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../samples/grand-battle.json");
        let text = std::fs::read_to_string(path).unwrap();
        let whole: Table = serde_json::from_str(&text).unwrap();
        assert_eq!(parse_in_halves(&text), Some(whole));
        // A key repeated anywhere is still found (by the second thread's check).
        let last = text.rfind("\"depth\": 20.0").unwrap();
        let repeated = format!("{}\"depth\": 20.0, \"depth\": 2.0{}", &text[..last], &text[last + 13..]);
        assert_eq!(parse_in_halves(&repeated), None);
        // A fault in either half fails the whole.
        let cut = units_cut(&text).unwrap();
        for at in [cut.comma - 3, cut.comma + 3] {
            let mut broken = text.clone();
            broken.insert(at, '@');
            assert_eq!(parse_in_halves(&broken), None);
        }
    }
}
