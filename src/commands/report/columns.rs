//! Plain-text tables for the human report: left-aligned columns, two spaces apart.

/// Renders rows under a header line, each column as wide as its widest cell, indented
/// by two spaces.
#[must_use]
pub fn render(headers: &[&str], rows: &[Vec<String>]) -> String {
    let mut widths: Vec<usize> = headers.iter().map(|h| h.chars().count()).collect();
    for r in rows {
        for (i, c) in r.iter().enumerate() {
            if i < widths.len() {
                widths[i] = widths[i].max(c.chars().count());
            }
        }
    }
    let line = |cells: Vec<&str>| {
        let mut s = String::from("  ");
        for (i, c) in cells.iter().enumerate() {
            s.push_str(c);
            if i + 1 < cells.len() {
                s.push_str(&" ".repeat(widths[i] - c.chars().count() + 2));
            }
        }
        s.truncate(s.trim_end().len());
        s.push('\n');
        s
    };
    let mut out = line(headers.to_vec());
    for r in rows {
        out.push_str(&line(r.iter().map(String::as_str).collect()));
    }
    out
}

/// A number with `places` decimals, or "-" for none.
#[must_use]
pub fn num(v: Option<f64>, places: usize) -> String {
    v.map_or_else(|| "-".to_string(), |v| format!("{v:.places$}"))
}

#[cfg(test)]
mod tests {
    #[test]
    fn columns_line_up() {
        let t = super::render(&["a", "bb"], &[vec!["xxx".into(), "y".into()]]);
        assert_eq!(t, "  a    bb\n  xxx  y\n");
    }
}
