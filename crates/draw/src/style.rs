//! Colours and style classes. Every colour is from the Okabe-Ito palette, chosen to stay
//! distinguishable under the common colour-vision deficiencies; where two meanings share
//! a colour, their line patterns differ (solid, dashed, dotted).

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

/// The style class of side number `i` (sides numbered in the order of their names).
#[must_use]
pub fn side_class(i: usize) -> String {
    format!("side-{}", i % SIDE_COLOURS.len())
}

/// The stylesheet every picture carries. Sizes are in output units (millimetres on a
/// plan); `scale` multiplies line widths and font sizes (a photo's pixels per mm).
#[must_use]
pub fn stylesheet(scale: f64) -> String {
    let w = |mm: f64| format!("{:.2}", mm * scale);
    let mut s = String::new();
    s.push_str(&format!(
        "text{{font-family:sans-serif;paint-order:stroke;stroke:#ffffff;stroke-width:{};stroke-linejoin:round;fill:#000000}}\n",
        w(0.6)
    ));
    s.push_str(&format!(".table-edge{{fill:#fbfaf5;stroke:#000000;stroke-width:{}}}\n", w(1.0)));
    // Terrain: areas tinted by kind, lines stroked.
    for (class, fill, stroke) in [
        ("t-woods", "#009E73", "#00704f"),
        ("t-buildings", "#7f7f7f", "#404040"),
        ("t-water", "#56B4E9", "#0072B2"),
        ("t-hill", "#E69F00", "#a87400"),
        ("t-rough", "#CC79A7", "#8e4f73"),
    ] {
        s.push_str(&format!(
            ".{class}{{fill:{fill};fill-opacity:0.22;stroke:{stroke};stroke-width:{}}}\n",
            w(0.5)
        ));
    }
    s.push_str(&format!(".t-line{{fill:none;stroke:#5a3a00;stroke-width:{}}}\n", w(1.6)));
    s.push_str(&format!(".t-road{{fill:none;stroke:#b8a888;stroke-width:{}}}\n", w(3.0)));
    s.push_str(".area{fill:none;stroke:#000000}\n");
    for (i, c) in SIDE_COLOURS.iter().enumerate() {
        s.push_str(&format!(".base.side-{i}{{fill:{c};fill-opacity:0.55;stroke:{c}}}\n"));
        s.push_str(&format!(".area.side-{i}{{fill:none;stroke:{c}}}\n"));
        s.push_str(&format!(".swatch.side-{i}{{fill:{c};fill-opacity:0.55;stroke:{c}}}\n"));
    }
    s.push_str(&format!(".base{{stroke-width:{}}}\n", w(0.4)));
    s.push_str(&format!(".facing{{fill:none;stroke:#000000;stroke-width:{}}}\n", w(0.8)));
    s.push_str(&format!(".marker{{fill:#ffffff;stroke:#000000;stroke-width:{}}}\n", w(0.3)));
    s.push_str(&format!(".deployment{{stroke-width:{};stroke-dasharray:{} {}}}\n", w(0.6), w(4.0), w(2.0)));
    s.push_str(&format!(
        ".reach{{fill:none;stroke:#000000;stroke-width:{};stroke-dasharray:{} {}}}\n",
        w(0.3),
        w(1.0),
        w(1.5)
    ));
    s.push_str(&format!(
        ".arc{{fill:#0072B2;fill-opacity:0.05;stroke:#0072B2;stroke-width:{};stroke-dasharray:{} {}}}\n",
        w(0.6),
        w(3.0),
        w(1.5)
    ));
    s.push_str(&format!(
        ".bracket{{fill:none;stroke:#0072B2;stroke-width:{};stroke-opacity:0.6}}\n",
        w(0.25)
    ));
    s.push_str(&format!(".frontage{{fill:none;stroke:#0072B2;stroke-width:{}}}\n", w(1.6)));
    s.push_str(&format!(
        ".firing-zone{{fill:#E69F00;fill-opacity:0.25;stroke:#E69F00;stroke-width:{}}}\n",
        w(0.5)
    ));
    s.push_str(&format!(
        ".clear-swing{{fill:none;stroke:#E69F00;stroke-width:{};stroke-dasharray:{} {}}}\n",
        w(0.3),
        w(1.0),
        w(1.0)
    ));
    s.push_str(&format!(
        ".centre-of-fire{{fill:none;stroke:#000000;stroke-width:{};stroke-dasharray:{} {} {} {}}}\n",
        w(0.4),
        w(4.0),
        w(1.0),
        w(1.0),
        w(1.0)
    ));
    s.push_str(&format!(".main-target{{fill:none;stroke:#D55E00;stroke-width:{}}}\n", w(1.4)));
    s.push_str(&format!(
        ".secondary-target{{fill:none;stroke:#CC79A7;stroke-width:{};stroke-dasharray:{} {}}}\n",
        w(1.0),
        w(2.0),
        w(1.0)
    ));
    s.push_str(&format!(".target-line{{fill:none;stroke:#D55E00;stroke-width:{}}}\n", w(0.4)));
    s.push_str(&format!(
        ".deep-window{{fill:none;stroke:#D55E00;stroke-width:{};stroke-opacity:0.7}}\n",
        w(2.2)
    ));
    s.push_str(".deep-base{fill:#D55E00;fill-opacity:0.35;stroke:none}\n");
    s.push_str(&format!(
        ".enfilade-zone{{fill:#CC79A7;fill-opacity:0.12;stroke:#CC79A7;stroke-width:{};stroke-dasharray:{} {}}}\n",
        w(0.5),
        w(2.0),
        w(1.0)
    ));
    s.push_str(&format!(
        ".assault-zone{{fill:#F0E442;fill-opacity:0.3;stroke:#a89e00;stroke-width:{}}}\n",
        w(0.3)
    ));
    s.push_str(&format!(
        ".all-out-zone{{fill:#E69F00;fill-opacity:0.3;stroke:#a87400;stroke-width:{}}}\n",
        w(0.3)
    ));
    s.push_str(&format!(".contact{{fill:none;stroke:#000000;stroke-width:{}}}\n", w(0.8)));
    s.push_str(&format!(
        ".flank-line{{fill:none;stroke:#009E73;stroke-width:{};stroke-dasharray:{} {}}}\n",
        w(0.7),
        w(3.0),
        w(1.5)
    ));
    s.push_str(&format!(
        ".rear-line{{fill:none;stroke:#CC79A7;stroke-width:{};stroke-dasharray:{} {}}}\n",
        w(0.7),
        w(1.0),
        w(1.0)
    ));
    s.push_str(&format!(".spacing{{fill:none;stroke:#009E73;stroke-width:{}}}\n", w(0.5)));
    s.push_str(&format!(".parent-line{{fill:none;stroke:#56B4E9;stroke-width:{}}}\n", w(0.4)));
    s.push_str(&format!(".illegal{{fill:none;stroke:#D55E00;stroke-width:{}}}\n", w(1.2)));
    s.push_str(&format!(".sight-clear{{fill:none;stroke:#009E73;stroke-width:{}}}\n", w(0.7)));
    s.push_str(&format!(
        ".sight-blocked{{fill:none;stroke:#D55E00;stroke-width:{};stroke-dasharray:{} {}}}\n",
        w(0.7),
        w(2.0),
        w(1.0)
    ));
    s.push_str(&format!(".cut{{fill:none;stroke:#D55E00;stroke-width:{}}}\n", w(0.9)));
    s.push_str(".hidden-point{fill:#D55E00;stroke:none}\n");
    s.push_str(&format!(".measure{{fill:none;stroke:#000000;stroke-width:{}}}\n", w(0.7)));
    s.push_str(".measure-end{fill:#000000;stroke:none}\n");
    s.push_str(&format!(
        ".highlight{{fill:none;stroke:#F0E442;stroke-width:{};stroke-opacity:0.9}}\n",
        w(2.4)
    ));
    s.push_str(&format!(
        ".close-call{{fill:none;stroke:#000000;stroke-width:{};stroke-dasharray:{} {}}}\n",
        w(1.0),
        w(1.0),
        w(0.7)
    ));
    s.push_str(".in-test{fill:#009E73;stroke:none}\n.out-test{fill:none;stroke:#D55E00}\n");
    s.push_str(".legend-box{fill:#ffffff;stroke:#000000}\n");
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
        assert!(stylesheet(1.0).contains(".base.side-0{fill:#0072B2"));
    }
}
