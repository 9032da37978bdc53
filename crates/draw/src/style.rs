//! Colours and style classes, as data: one table of rules ([`rules`]) that the SVG
//! writer turns into its stylesheet ([`stylesheet`]) and a raster writer resolves per
//! element ([`resolve`]), so a plan and a photo overlay look the same.
//!
//! Every colour is from the Okabe-Ito palette, chosen to stay distinguishable under the
//! common colour-vision deficiencies; where two meanings share a colour, their line
//! patterns differ (solid, dashed, dotted).

/// The Okabe-Ito palette: (name, hex).
pub const OKABE_ITO: [(&str, &str); 8] = [
    ("black", "#000000"),
    ("orange", "#E69F00"),
    ("sky-blue", "#56B4E9"),
    ("bluish-green", "#009E73"),
    ("yellow", "#F0E442"),
    ("blue", "#0072B2"),
    ("vermillion", "#D55E00"),
    ("reddish-purple", "#CC79A7"),
];

/// The colours of the sides, in the order of their names: blue, vermillion, then the
/// others.
pub const SIDE_COLOURS: [&str; 6] = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9"];

const SIDE_CLASSES: [&str; 6] = ["side-0", "side-1", "side-2", "side-3", "side-4", "side-5"];

/// The style class of side number `i` (sides numbered in the order of their names).
#[must_use]
pub fn side_class(i: usize) -> String {
    SIDE_CLASSES[i % SIDE_CLASSES.len()].to_string()
}

/// A paint: unset (inherit the earlier rules'), none, or a colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Paint {
    /// Not set by this rule.
    Unset,
    /// No paint.
    None,
    /// A `#RRGGBB` colour.
    Colour(&'static str),
}

/// One style rule: applies to elements that have every one of `classes`.
#[derive(Debug, Clone, PartialEq)]
pub struct Rule {
    /// The classes an element must have.
    pub classes: Vec<&'static str>,
    /// Fill.
    pub fill: Paint,
    /// Fill opacity (0 to 1).
    pub fill_opacity: Option<f64>,
    /// Stroke.
    pub stroke: Paint,
    /// Stroke opacity.
    pub stroke_opacity: Option<f64>,
    /// Stroke width, mm (scaled by the picture).
    pub width_mm: Option<f64>,
    /// Dash pattern, mm (empty: not set by this rule).
    pub dash_mm: Vec<f64>,
}

fn rule(classes: &[&'static str]) -> Rule {
    Rule {
        classes: classes.to_vec(),
        fill: Paint::Unset,
        fill_opacity: None,
        stroke: Paint::Unset,
        stroke_opacity: None,
        width_mm: None,
        dash_mm: Vec::new(),
    }
}

impl Rule {
    fn fill(mut self, c: &'static str, opacity: f64) -> Rule {
        self.fill = Paint::Colour(c);
        self.fill_opacity = Some(opacity);
        self
    }
    fn no_fill(mut self) -> Rule {
        self.fill = Paint::None;
        self
    }
    fn stroke(mut self, c: &'static str, width_mm: f64) -> Rule {
        self.stroke = Paint::Colour(c);
        self.width_mm = Some(width_mm);
        self
    }
    fn stroke_colour(mut self, c: &'static str) -> Rule {
        self.stroke = Paint::Colour(c);
        self
    }
    fn no_stroke(mut self) -> Rule {
        self.stroke = Paint::None;
        self
    }
    fn dashed(mut self, d: &[f64]) -> Rule {
        self.dash_mm = d.to_vec();
        self
    }
    fn stroke_opacity(mut self, o: f64) -> Rule {
        self.stroke_opacity = Some(o);
        self
    }
    fn width(mut self, w: f64) -> Rule {
        self.width_mm = Some(w);
        self
    }
}

/// Every style rule, in cascade order (later rules override earlier ones).
#[must_use]
pub fn rules() -> Vec<Rule> {
    let mut r = vec![
        rule(&["table-edge"]).fill("#fbfaf5", 1.0).stroke("#000000", 1.0),
        rule(&["t-woods"]).fill("#009E73", 0.22).stroke("#00704f", 0.5),
        rule(&["t-buildings"]).fill("#7f7f7f", 0.22).stroke("#404040", 0.5),
        rule(&["t-water"]).fill("#56B4E9", 0.22).stroke("#0072B2", 0.5),
        rule(&["t-hill"]).fill("#E69F00", 0.22).stroke("#a87400", 0.5),
        rule(&["t-rough"]).fill("#CC79A7", 0.22).stroke("#8e4f73", 0.5),
        rule(&["t-line"]).no_fill().stroke("#5a3a00", 1.6),
        rule(&["t-road"]).no_fill().stroke("#b8a888", 3.0),
        rule(&["area"]).no_fill().stroke_colour("#000000"),
    ];
    for (i, c) in SIDE_COLOURS.iter().enumerate() {
        r.push(rule(&["base", SIDE_CLASSES[i]]).fill(c, 0.55).stroke_colour(c));
        r.push(rule(&["area", SIDE_CLASSES[i]]).no_fill().stroke_colour(c));
        r.push(rule(&["swatch", SIDE_CLASSES[i]]).fill(c, 0.55).stroke_colour(c));
    }
    r.extend([
        rule(&["base"]).width(0.4),
        rule(&["facing"]).no_fill().stroke("#000000", 0.8),
        rule(&["marker"]).fill("#ffffff", 1.0).stroke("#000000", 0.3),
        // A unit's place the scan held it back from (issue 37): orange, as `vedette
        // scan --overlay` and the viewer outline it; dashed, apart from the filled
        // orange zones.
        rule(&["held-place"]).no_fill().stroke("#E69F00", 0.9).dashed(&[2.0, 1.0]),
        rule(&["not-found"]).no_fill().stroke("#000000", 0.3).dashed(&[0.5, 0.5]),
        rule(&["deployment"]).width(0.6).dashed(&[4.0, 2.0]),
        rule(&["reach"]).no_fill().stroke("#000000", 0.3).dashed(&[1.0, 1.5]),
        rule(&["reaction"]).no_fill().stroke("#56B4E9", 0.6).dashed(&[3.0, 1.0]),
        rule(&["pass-through"]).no_fill().stroke("#CC79A7", 0.6).dashed(&[1.0, 1.0]),
        rule(&["arc"]).fill("#0072B2", 0.05).stroke("#0072B2", 0.6).dashed(&[3.0, 1.5]),
        rule(&["bracket"]).no_fill().stroke("#0072B2", 0.25).stroke_opacity(0.6),
        rule(&["frontage"]).no_fill().stroke("#0072B2", 1.6),
        rule(&["firing-zone"]).fill("#E69F00", 0.25).stroke("#E69F00", 0.5),
        rule(&["clear-swing"]).no_fill().stroke("#E69F00", 0.3).dashed(&[1.0, 1.0]),
        rule(&["centre-of-fire"]).no_fill().stroke("#000000", 0.4).dashed(&[4.0, 1.0, 1.0, 1.0]),
        rule(&["main-target"]).no_fill().stroke("#D55E00", 1.4),
        rule(&["secondary-target"]).no_fill().stroke("#CC79A7", 1.0).dashed(&[2.0, 1.0]),
        rule(&["target-line"]).no_fill().stroke("#D55E00", 0.4),
        rule(&["deep-window"]).no_fill().stroke("#D55E00", 2.2).stroke_opacity(0.7),
        rule(&["deep-base"]).fill("#D55E00", 0.35).no_stroke(),
        rule(&["enfilade-zone"]).fill("#CC79A7", 0.12).stroke("#CC79A7", 0.5).dashed(&[2.0, 1.0]),
        rule(&["assault-zone"]).fill("#F0E442", 0.3).stroke("#a89e00", 0.3),
        rule(&["all-out-zone"]).fill("#E69F00", 0.3).stroke("#a87400", 0.3),
        rule(&["alert-zone"]).fill("#56B4E9", 0.2).stroke("#0072B2", 0.3).dashed(&[2.0, 1.0]),
        rule(&["corridor"]).fill("#D55E00", 0.12).stroke("#D55E00", 0.4).dashed(&[2.0, 1.0]),
        rule(&["crest"]).no_fill().stroke("#a87400", 0.8).dashed(&[5.0, 1.5, 1.0, 1.5]),
        rule(&["contact"]).no_fill().stroke("#000000", 0.8),
        rule(&["flank-line"]).no_fill().stroke("#009E73", 0.7).dashed(&[3.0, 1.5]),
        rule(&["rear-line"]).no_fill().stroke("#CC79A7", 0.7).dashed(&[1.0, 1.0]),
        rule(&["spacing"]).no_fill().stroke("#009E73", 0.5),
        rule(&["parent-line"]).no_fill().stroke("#56B4E9", 0.4),
        rule(&["skirmish-fire"]).no_fill().stroke("#D55E00", 0.5).dashed(&[0.8, 0.8]),
        rule(&["skirmish-block"]).no_fill().stroke("#000000", 0.6).dashed(&[2.0, 0.8, 0.4, 0.8]),
        rule(&["illegal"]).no_fill().stroke("#D55E00", 1.2),
        rule(&["spotting-depth"]).fill("#009E73", 0.35).stroke("#00704f", 0.5).dashed(&[1.5, 1.0]),
        rule(&["depth-run"]).no_fill().stroke("#009E73", 2.6).stroke_opacity(0.6),
        rule(&["blind-zone"]).no_fill().stroke("#000000", 3.0).stroke_opacity(0.3),
        rule(&["adjoining"]).no_fill().stroke("#0072B2", 0.9).dashed(&[4.0, 1.0, 1.0, 1.0, 1.0, 1.0]),
        rule(&["together"]).no_fill().stroke("#56B4E9", 0.6).dashed(&[0.5, 1.0]),
        rule(&["engagement"]).no_fill().stroke("#D55E00", 0.6).dashed(&[6.0, 2.0]),
        rule(&["rally"]).no_fill().stroke("#CC79A7", 0.6).dashed(&[2.0, 1.0, 0.5, 1.0]),
        rule(&["sight-clear"]).no_fill().stroke("#009E73", 0.7),
        rule(&["sight-blocked"]).no_fill().stroke("#D55E00", 0.7).dashed(&[2.0, 1.0]),
        rule(&["cut"]).no_fill().stroke("#D55E00", 0.9),
        rule(&["hidden-point"]).fill("#D55E00", 1.0).no_stroke(),
        rule(&["measure"]).no_fill().stroke("#000000", 0.7),
        rule(&["measure-end"]).fill("#000000", 1.0).no_stroke(),
        rule(&["highlight"]).no_fill().stroke("#F0E442", 2.4).stroke_opacity(0.9),
        rule(&["close-call"]).no_fill().stroke("#000000", 1.0).dashed(&[1.0, 0.7]),
        rule(&["in-test"]).fill("#009E73", 1.0).no_stroke(),
        rule(&["out-test"]).no_fill().stroke_colour("#D55E00"),
        rule(&["leader"]).no_fill().stroke("#000000", 0.2).stroke_opacity(0.6),
        rule(&["label-hidden"]).fill("#000000", 0.5).no_stroke(),
        rule(&["legend-box"]).fill("#ffffff", 1.0).stroke_colour("#000000"),
    ]);
    r
}

/// An element's style, every rule that applies to its classes taken in order.
#[derive(Debug, Clone, PartialEq)]
pub struct Resolved {
    /// Fill colour and opacity, if filled.
    pub fill: Option<(&'static str, f64)>,
    /// Stroke colour and opacity, if stroked.
    pub stroke: Option<(&'static str, f64)>,
    /// Stroke width, mm.
    pub width_mm: f64,
    /// Dash pattern, mm (empty: solid).
    pub dash_mm: Vec<f64>,
}

/// The style of an element with these (space-separated) classes: SVG's defaults (black
/// fill, no stroke, 1 mm wide) overridden by each rule that applies, in order.
///
/// ```
/// let s = vedette_draw::style::resolve("base side-1 kind-infantry");
/// assert_eq!(s.fill, Some(("#D55E00", 0.55)));
/// assert_eq!(s.width_mm, 0.4);
/// ```
#[must_use]
pub fn resolve(class: &str) -> Resolved {
    let tokens: Vec<&str> = class.split_whitespace().collect();
    let (mut fill, mut fill_opacity) = (Paint::Colour("#000000"), 1.0);
    let (mut stroke, mut stroke_opacity) = (Paint::None, 1.0);
    let (mut width, mut dash) = (1.0, Vec::new());
    for r in rules().into_iter().filter(|r| r.classes.iter().all(|c| tokens.contains(c))) {
        if r.fill != Paint::Unset {
            fill = r.fill;
        }
        if let Some(o) = r.fill_opacity {
            fill_opacity = o;
        }
        if r.stroke != Paint::Unset {
            stroke = r.stroke;
        }
        if let Some(o) = r.stroke_opacity {
            stroke_opacity = o;
        }
        if let Some(w) = r.width_mm {
            width = w;
        }
        if !r.dash_mm.is_empty() {
            dash = r.dash_mm.clone();
        }
    }
    let paint = |p: Paint, o: f64| match p {
        Paint::Colour(c) => Some((c, o)),
        _ => None,
    };
    Resolved {
        fill: paint(fill, fill_opacity),
        stroke: paint(stroke, stroke_opacity),
        width_mm: width,
        dash_mm: dash,
    }
}

/// The stylesheet every SVG picture carries, from [`rules`]. Sizes are in output units
/// (millimetres on a plan); `scale` multiplies line widths and dashes.
#[must_use]
pub fn stylesheet(scale: f64) -> String {
    let w = |mm: f64| format!("{:.2}", mm * scale);
    let mut s = format!(
        "text{{font-family:sans-serif;paint-order:stroke;stroke:#ffffff;stroke-width:{};stroke-linejoin:round;fill:#000000}}\n",
        w(0.6)
    );
    for r in rules() {
        let mut props: Vec<String> = Vec::new();
        match r.fill {
            Paint::Unset => {}
            Paint::None => props.push("fill:none".into()),
            Paint::Colour(c) => props.push(format!("fill:{c}")),
        }
        if let Some(o) = r.fill_opacity.filter(|&o| o < 1.0) {
            props.push(format!("fill-opacity:{o}"));
        }
        match r.stroke {
            Paint::Unset => {}
            Paint::None => props.push("stroke:none".into()),
            Paint::Colour(c) => props.push(format!("stroke:{c}")),
        }
        if let Some(o) = r.stroke_opacity {
            props.push(format!("stroke-opacity:{o}"));
        }
        if let Some(x) = r.width_mm {
            props.push(format!("stroke-width:{}", w(x)));
        }
        if !r.dash_mm.is_empty() {
            props.push(format!(
                "stroke-dasharray:{}",
                r.dash_mm.iter().map(|&d| w(d)).collect::<Vec<_>>().join(" ")
            ));
        }
        let selector: String = r.classes.iter().map(|c| format!(".{c}")).collect();
        s.push_str(&format!("{selector}{{{}}}\n", props.join(";")));
    }
    s
}

/// The terrain style class of a terrain kind's name (`medium-forest` → `t-woods`).
#[must_use]
pub fn terrain_class(kind: &str, linear: bool) -> &'static str {
    if kind == "road" {
        return "t-road";
    }
    if linear {
        return "t-line";
    }
    if kind.contains("forest") || kind == "orchard" || kind == "vineyard" {
        "t-woods"
    } else if kind.contains("buildings") {
        "t-buildings"
    } else if kind == "water" || kind == "marsh" {
        "t-water"
    } else if kind == "hill" {
        "t-hill"
    } else {
        "t-rough"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn side_colours_are_okabe_ito() {
        for c in SIDE_COLOURS {
            assert!(OKABE_ITO.iter().any(|(_, h)| *h == c), "{c}");
        }
        assert_eq!(side_class(7), "side-1");
        assert!(stylesheet(1.0).contains(".base.side-0{fill:#0072B2;fill-opacity:0.55;stroke:#0072B2}"));
    }

    #[test]
    fn styles_cascade_in_order() {
        let s = resolve("deployment area side-2");
        assert_eq!((s.fill, s.stroke, s.width_mm), (None, Some(("#009E73", 1.0)), 0.6));
        assert_eq!(s.dash_mm, vec![4.0, 2.0]);
        let t = resolve("unknown-class");
        assert_eq!((t.fill, t.stroke), (Some(("#000000", 1.0)), None));
    }
}
