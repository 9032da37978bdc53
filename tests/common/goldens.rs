//! Golden files: committed outputs a test compares with what the code produces now, and
//! rewrites only when asked (`REGENERATE=1 cargo test ...`), so that every change to them
//! is deliberate and reviewed in the diff (imageproc's `tests/regression.rs`).

use serde_json::Value;
use std::path::Path;

/// True when REGENERATE=1: golden files are rewritten instead of compared.
pub fn regenerate() -> bool {
    std::env::var("REGENERATE").is_ok_and(|v| v == "1")
}

/// The committed golden file's text, or a panic naming it (and how to create it).
fn committed(path: &Path) -> String {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e} (REGENERATE=1 creates it)", path.display()))
}

/// Rewrites the golden file under REGENERATE=1; true when it did.
fn rewritten(path: &Path, actual: &str) -> bool {
    if regenerate() {
        std::fs::write(path, actual).unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
    }
    regenerate()
}

/// Compares `actual` with the committed golden file byte for byte, or rewrites it under
/// REGENERATE=1.
pub fn golden(path: &Path, actual: &str) {
    if rewritten(path, actual) {
        return;
    }
    assert!(
        committed(path) == actual,
        "{} differs from what the code produces; if the change is intended, run with REGENERATE=1 and review the diff",
        path.display()
    );
}

/// Compares the JSON text `actual` with the committed golden JSON file, numbers within
/// `tolerance` and everything else exactly (outputs measured from photos, whose last
/// digits depend on the platform's floating point), or rewrites it under REGENERATE=1.
pub fn golden_json(path: &Path, actual: &str, tolerance: f64) {
    if rewritten(path, actual) {
        return;
    }
    let want: Value = serde_json::from_str(&committed(path))
        .unwrap_or_else(|e| panic!("{}: not JSON: {e}", path.display()));
    let got: Value = serde_json::from_str(actual).unwrap_or_else(|e| panic!("output is not JSON: {e}"));
    if let Err(e) = same_json(&got, &want, tolerance, "") {
        panic!("output differs from {}: {e} (REGENERATE=1 refreshes it)", path.display());
    }
}

/// Compares JSON values, numbers within `tol`; the error names the first difference by
/// its path from `at`.
pub fn same_json(a: &Value, b: &Value, tol: f64, at: &str) -> Result<(), String> {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            let (x, y) = (x.as_f64().unwrap_or(f64::NAN), y.as_f64().unwrap_or(f64::NAN));
            if (x - y).abs() <= tol { Ok(()) } else { Err(format!("{at}: {x} vs {y}")) }
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => x
            .iter()
            .zip(y)
            .enumerate()
            .try_for_each(|(i, (p, q))| same_json(p, q, tol, &format!("{at}[{i}]"))),
        (Value::Object(x), Value::Object(y)) if x.len() == y.len() => x.iter().try_for_each(|(k, v)| {
            y.get(k)
                .ok_or_else(|| format!("{at}.{k} missing"))
                .and_then(|w| same_json(v, w, tol, &format!("{at}.{k}")))
        }),
        _ if a == b => Ok(()),
        _ => Err(format!("{at}: {a} vs {b}")),
    }
}
