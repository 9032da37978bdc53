//! Structural comparison of SVG pictures (issue 21): both documents are parsed and
//! compared element by element in document order: tag, `id`, `class`, text, and every
//! number of the geometry attributes to 0.01 (a hundredth of a millimetre on a plan),
//! so formatting changes pass and moved geometry fails.

/// What is compared of one element.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// `path`, `g`, `text`, ...
    pub tag: String,
    /// Its `id`, if any.
    pub id: Option<String>,
    /// Its `class`, if any.
    pub class: Option<String>,
    /// Every number of its geometry attributes, in attribute order.
    pub numbers: Vec<f64>,
    /// Its own text (not its children's), trimmed.
    pub text: String,
}

/// The geometry attributes whose numbers are compared.
const GEOMETRY: [&str; 11] =
    ["d", "points", "cx", "cy", "r", "x", "y", "width", "height", "font-size", "viewBox"];

/// The numbers in an attribute value.
pub fn numbers(v: &str) -> Vec<f64> {
    v.split(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-' || c == 'e'))
        .filter(|s| !s.is_empty() && s.chars().any(|c| c.is_ascii_digit()))
        .filter_map(|s| s.parse().ok())
        .collect()
}

/// Every element of an SVG document, in document order.
pub fn flatten(svg: &str) -> Result<Vec<Node>, String> {
    let doc = roxmltree::Document::parse(svg).map_err(|e| format!("not XML: {e}"))?;
    Ok(doc
        .descendants()
        .filter(|n| n.is_element())
        .map(|n| Node {
            tag: n.tag_name().name().to_string(),
            id: n.attribute("id").map(str::to_string),
            class: n.attribute("class").map(str::to_string),
            numbers: GEOMETRY.iter().filter_map(|a| n.attribute(*a)).flat_map(numbers).collect(),
            text: n
                .children()
                .filter(|c| c.is_text())
                .filter_map(|c| c.text())
                .collect::<String>()
                .trim()
                .to_string(),
        })
        .collect())
}

/// `Ok` when the two documents are the same picture (see the module docs); otherwise
/// the first difference.
pub fn compare(expected: &str, actual: &str) -> Result<(), String> {
    let (e, a) = (flatten(expected)?, flatten(actual)?);
    for (i, (x, y)) in e.iter().zip(&a).enumerate() {
        let what = format!("element {i} <{}> id {:?}", x.tag, x.id);
        if (&x.tag, &x.id, &x.class, &x.text) != (&y.tag, &y.id, &y.class, &y.text) {
            return Err(format!("{what}: expected {x:?}, got {y:?}"));
        }
        if x.numbers.len() != y.numbers.len() {
            return Err(format!("{what}: {} numbers expected, {} found", x.numbers.len(), y.numbers.len()));
        }
        if let Some((k, (p, q))) =
            x.numbers.iter().zip(&y.numbers).enumerate().find(|(_, (p, q))| (*p - *q).abs() > 0.01 + 1e-9)
        {
            return Err(format!("{what}: number {k} expected {p}, got {q}"));
        }
    }
    if e.len() != a.len() {
        return Err(format!("{} elements expected, {} found", e.len(), a.len()));
    }
    Ok(())
}

/// Compares `actual` with the golden SVG at `path` structurally, or writes it under
/// REGENERATE=1.
pub fn golden_svg(path: &std::path::Path, actual: &str) {
    if super::regenerate() {
        if let Some(d) = path.parent() {
            std::fs::create_dir_all(d).unwrap_or_else(|e| panic!("cannot create {}: {e}", d.display()));
        }
        std::fs::write(path, actual).unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
        return;
    }
    let expected = std::fs::read_to_string(path).unwrap_or_else(|e| {
        panic!("cannot read {}: {e} (run with REGENERATE=1 to create it)", path.display())
    });
    if let Err(diff) = compare(&expected, actual) {
        panic!(
            "{} differs from what the code draws: {diff}; if the change is intended, run with REGENERATE=1 and review the diff",
            path.display()
        );
    }
}
