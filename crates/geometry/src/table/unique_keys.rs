//! The check that no object of a JSON text gives one key twice, in one pass over its
//! bytes.
//!
//! serde_json keeps the last copy of a repeated key without a word, so a table file is
//! checked for them before it is trusted. The check runs beside the typed parse of the
//! same text (`load.rs`), whose success proves the text is well-formed JSON; so it only
//! has to follow the structure of well-formed JSON: brackets, strings (with their
//! escapes), and which strings are keys (the first string of an object and each one
//! after a comma in it). It decodes nothing: numbers and literals are passed over byte
//! by byte, keys are compared as the bytes between their quotes. A key holding an
//! escape (`"\u0061"` is the key `"a"`) makes it answer "not sure", as does anything a
//! well-formed text cannot hold; the caller then decides the slow way, through a parse
//! that decodes every key ([`super::load::parse_json_strictly`]).

use std::collections::HashSet;

/// Objects with more keys than this are checked through a hash set (no quadratic cost);
/// below it, a scan of the keys seen is cheaper than hashing.
const FEW_KEYS: usize = 16;

/// `true` when `text`, well-formed JSON, has no object that gives one key twice;
/// `false` when one does, and when the bytes alone cannot tell (a key holding an
/// escape, or text that is not well-formed JSON).
pub(super) fn keys_are_unique(text: &str) -> bool {
    let bytes = text.as_bytes();
    // The open objects and arrays, innermost last; an object's keys so far are in
    // `keys[depth]` (lists kept for reuse as the depth goes up and down).
    let mut open: Vec<bool> = Vec::new(); // true: an object
    let mut keys: Vec<Keys> = Vec::new();
    let mut expect_key = false;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                let start = i + 1;
                let Some((end, escaped)) = string_end(bytes, start) else {
                    return false;
                };
                if expect_key {
                    if escaped {
                        return false;
                    }
                    let Some(k) = keys.get_mut(open.len().wrapping_sub(1)) else {
                        return false;
                    };
                    if !k.insert(&bytes[start..end]) {
                        return false;
                    }
                    expect_key = false;
                }
                i = end + 1;
                continue;
            }
            b'{' => {
                open.push(true);
                if keys.len() < open.len() {
                    keys.push(Keys::default());
                }
                if let Some(k) = keys.get_mut(open.len() - 1) {
                    k.clear();
                }
                expect_key = true;
            }
            b'[' => {
                open.push(false);
                if keys.len() < open.len() {
                    keys.push(Keys::default());
                }
            }
            b'}' | b']' => {
                if open.pop().is_none() {
                    return false;
                }
                expect_key = false;
            }
            b',' => expect_key = open.last() == Some(&true),
            _ => {}
        }
        i += 1;
    }
    open.is_empty()
}

/// The index of the quote that closes the string whose text starts at `start`, and
/// whether the string holds an escape; `None` if it is never closed.
fn string_end(bytes: &[u8], start: usize) -> Option<(usize, bool)> {
    let mut escaped = false;
    let mut i = start;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => return Some((i, escaped)),
            b'\\' => {
                escaped = true;
                i += 2;
            }
            _ => i += 1,
        }
    }
    None
}

/// One object's keys so far, as the bytes between their quotes.
#[derive(Default)]
struct Keys<'a> {
    few: Vec<&'a [u8]>,
    many: HashSet<&'a [u8]>,
}

impl<'a> Keys<'a> {
    fn clear(&mut self) {
        self.few.clear();
        self.many.clear();
    }

    /// Adds `key`; `false` if the object already gave it.
    fn insert(&mut self, key: &'a [u8]) -> bool {
        if self.few.len() < FEW_KEYS {
            let seen = self.few.contains(&key);
            self.few.push(key);
            return !seen;
        }
        if self.many.is_empty() {
            self.many.extend(self.few.iter().copied());
        }
        self.many.insert(key)
    }
}

#[cfg(test)]
mod tests {
    use super::super::load::parse_json_strictly;
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn a_key_given_twice_is_found_in_any_object() {
        assert!(keys_are_unique(r#"{"a": 1, "b": [{"a": 2}, {"a": 3}], "c": {"a": {"b": null}}}"#));
        assert!(!keys_are_unique(r#"{"a": 1, "a": 1}"#));
        assert!(!keys_are_unique(r#"[0, {"b": {"x": 1, "y": 2, "x": 3}}]"#));
        // An object closed and another opened at the same depth starts afresh.
        assert!(keys_are_unique(r#"[{"a": 1}, {"a": 2}, [{"a": [3]}], {"a": {}}]"#));
        // Keys after a nested object or array are still keys of the outer object.
        assert!(!keys_are_unique(r#"{"a": {"b": 1}, "c": [1, {"d": 2}], "a": 3}"#));
        assert!(keys_are_unique(r#"{"a": {"b": 1}, "c": [1, {"d": 2}], "b": 3}"#));
        // Past the few keys kept in a list: the hash set.
        let many: Vec<String> = (0..40).map(|i| format!("\"k{i}\": {i}")).collect();
        assert!(keys_are_unique(&format!("{{{}}}", many.join(", "))));
        assert!(!keys_are_unique(&format!("{{{}, \"k3\": 0}}", many.join(", "))));
        assert!(!keys_are_unique(&format!("{{{}, \"k39\": 0}}", many.join(", "))));
    }

    #[test]
    fn string_values_that_look_like_structure_are_passed_over() {
        assert!(keys_are_unique(r#"{"a": "}, \"a\": {", "b": "[,\\", "c": ","}"#));
        assert!(!keys_are_unique(r#"{"a": "x\"y", "b": ",", "a": 0}"#));
        // A value that is a string equal to a key is not a key.
        assert!(keys_are_unique(r#"{"a": "a", "b": ["a", "a"]}"#));
    }

    #[test]
    fn what_the_bytes_cannot_tell_is_left_to_the_slow_way() {
        // The same key written with an escape: not sure.
        assert!(!keys_are_unique(r#"{"a": 1, "\u0061": 2}"#));
        assert!(!keys_are_unique(r#"{"\"": 1}"#));
        // An escape in a value is fine.
        assert!(keys_are_unique(r#"{"a": "\u0061"}"#));
        // Not well-formed.
        assert!(!keys_are_unique(r#"{"a": 1"#));
        assert!(!keys_are_unique(r#"{"a": "1}"#));
        assert!(!keys_are_unique("]"));
        assert!(!keys_are_unique(r#"{"a": [}"#));
    }

    /// A JSON value as text, its objects' keys drawn from a few letters (so that
    /// repeats are common) with now and then an escaped one.
    fn json_text() -> impl Strategy<Value = String> {
        let key = prop_oneof![
            8 => "[abc]{1,2}",
            1 => Just("\\u0061".to_string()),
            1 => Just("q\\\"".to_string()),
        ];
        let leaf = prop_oneof![
            Just("null".to_string()),
            Just("true".to_string()),
            (-1e6f64..1e6).prop_map(|x| format!("{x}")),
            "[a-c,\\[\\]{}: ]{0,6}".prop_map(|s| format!("\"{s}\"")),
        ];
        leaf.prop_recursive(4, 48, 6, move |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..6).prop_map(|v| format!("[{}]", v.join(", "))),
                prop::collection::vec((key.clone(), inner), 0..6).prop_map(|v| {
                    let fields: Vec<String> = v.into_iter().map(|(k, x)| format!("\"{k}\": {x}")).collect();
                    format!("{{{}}}", fields.join(", "))
                }),
            ]
        })
    }

    proptest! {
        #![proptest_config(crate::test_support::proptest_config(2000, 20))]

        /// Never "unique" when a decoding parse finds a repeated key, and "unique" for
        /// every text without one unless a key holds an escape.
        #[test]
        fn the_byte_check_agrees_with_a_decoding_parse(text in json_text()) {
            let strict = parse_json_strictly(&text).is_ok();
            let fast = keys_are_unique(&text);
            prop_assert!(!fast || strict, "{text}");
            let escaped_key = text.contains("\\u0061\":") || text.contains("q\\\"\":");
            prop_assert!(fast || !strict || escaped_key, "{text}");
        }
    }
}
