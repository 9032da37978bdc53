//! The scene: what a picture shows, in table millimetres, before any projection.
//!
//! A [`Scene`] is a fixed list of [`Layer`]s (one SVG group each, drawn in the order of
//! [`LayerId`], each toggleable by its id), holding [`Element`]s: a primitive
//! ([`Shape`]) with an element id, a style class and the height it stands at
//! ([`Height`]: zones on the table, bases at their tops), and optionally a title (the
//! verdict in words, shown by browsers on hover).

use std::collections::HashSet;
use vedette_geometry::Vec2;

/// The layers of a picture, in drawing order (later ones on top).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum LayerId {
    /// The table's outline.
    Table,
    /// Terrain pieces, by kind.
    Terrain,
    /// Spotting depth (000 §3.6): the part of each cover deeper than its spotting depth,
    /// and a sight line's run in cover up to the depth.
    SpottingDepth,
    /// Blind zones behind blocking terrain (003 601), on the sight line examined.
    BlindZones,
    /// Deployment areas, leaders' reaches, command radii.
    Command,
    /// Firing zones and assault zones.
    Zones,
    /// Arcs of fire, range brackets and enfilade arcs.
    Arcs,
    /// Bases coloured by side, facing ticks, ids.
    Bases,
    /// Flank lines and rear lines.
    FlankLines,
    /// Targets: main, tandem, adjacent, deep windows.
    Targets,
    /// Skirmish marker spacing and parents.
    Skirmishers,
    /// Assault contacts between units.
    Contacts,
    /// Sight lines, clear and blocked, and what blocks them.
    Sight,
    /// Measured distances.
    Measurements,
    /// Verdicts too close to call, highlighted.
    CloseCalls,
    /// The legend.
    Legend,
}

impl LayerId {
    /// Every layer, in drawing order.
    pub const ALL: [LayerId; 16] = [
        LayerId::Table,
        LayerId::Terrain,
        LayerId::SpottingDepth,
        LayerId::BlindZones,
        LayerId::Command,
        LayerId::Zones,
        LayerId::Arcs,
        LayerId::Bases,
        LayerId::FlankLines,
        LayerId::Targets,
        LayerId::Skirmishers,
        LayerId::Contacts,
        LayerId::Sight,
        LayerId::Measurements,
        LayerId::CloseCalls,
        LayerId::Legend,
    ];

    /// The SVG group id.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            LayerId::Table => "table",
            LayerId::Terrain => "terrain",
            LayerId::SpottingDepth => "spotting-depth",
            LayerId::BlindZones => "blind-zones",
            LayerId::Command => "command",
            LayerId::Zones => "zones",
            LayerId::Arcs => "arcs",
            LayerId::FlankLines => "flank-lines",
            LayerId::Targets => "targets",
            LayerId::Skirmishers => "skirmishers",
            LayerId::Bases => "bases",
            LayerId::Contacts => "contacts",
            LayerId::Sight => "sight",
            LayerId::Measurements => "measurements",
            LayerId::CloseCalls => "close-calls",
            LayerId::Legend => "legend",
        }
    }

    /// True for the layers whose labels are names (a unit's or a terrain piece's id, the
    /// table's, the legend's), not verdicts: a photo shows the piece itself, so a name
    /// with no free place there may be left off, where a verdict's words must reach the
    /// reader.
    #[must_use]
    pub fn holds_names(self) -> bool {
        matches!(self, LayerId::Bases | LayerId::Terrain | LayerId::Table | LayerId::Legend)
    }

    /// Which labels win a place first when labels would overlap: verdicts before ids.
    #[must_use]
    pub fn label_priority(self) -> u8 {
        match self {
            LayerId::CloseCalls => 0,
            LayerId::Measurements => 1,
            LayerId::Sight => 2,
            LayerId::Targets | LayerId::Contacts => 3,
            LayerId::Arcs
            | LayerId::Zones
            | LayerId::FlankLines
            | LayerId::SpottingDepth
            | LayerId::BlindZones => 4,
            LayerId::Skirmishers | LayerId::Command => 5,
            LayerId::Bases => 6,
            LayerId::Table | LayerId::Terrain | LayerId::Legend => 7,
        }
    }
}

/// The height a drawn point stands at: a photo overlay projects each at its own
/// height, so lines sit on the real bases of a tilted photo.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Height {
    /// The table surface: zones, lines, terrain.
    Table,
    /// The top of a base (its figures' stand).
    BaseTop,
}

/// How a text is aligned on its anchor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Align {
    /// The text starts at the anchor.
    Start,
    /// The text is centred on the anchor.
    Middle,
    /// The text ends at the anchor.
    End,
}

/// Where a text goes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Placement {
    /// Exactly at the anchor, aligned so.
    Fixed(Align),
    /// Near the anchor, at the first of a few candidate offsets where it overlaps no
    /// label placed before it ([`crate::labels`]).
    Auto,
    /// As [`Placement::Auto`], but never centred on the anchor: beside a mark or a line.
    Beside,
}

/// A point marker's look.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mark {
    /// A filled dot.
    Dot,
    /// A cross (a point where something is cut or fails).
    Cross,
}

/// What an element draws, in table millimetres.
#[derive(Debug, Clone, PartialEq)]
pub enum Shape {
    /// A closed area with optional holes.
    Polygon {
        /// The boundary.
        exterior: Vec<Vec2>,
        /// Holes.
        holes: Vec<Vec<Vec2>>,
    },
    /// An open line through points.
    Polyline(Vec<Vec2>),
    /// A circle.
    Circle {
        /// Centre.
        centre: Vec2,
        /// Radius, mm.
        radius_mm: f64,
    },
    /// A point marker (its size is the picture's, not the table's).
    Point {
        /// Where.
        at: Vec2,
        /// How it looks.
        mark: Mark,
    },
    /// A text label.
    Text {
        /// The point it labels.
        anchor: Vec2,
        /// The text.
        text: String,
        /// Its height in table mm (scaled like the table).
        size_mm: f64,
        /// Where it goes.
        placement: Placement,
    },
}

impl Shape {
    /// A polygon without holes.
    #[must_use]
    pub fn polygon(points: Vec<Vec2>) -> Shape {
        Shape::Polygon { exterior: points, holes: Vec::new() }
    }

    /// A straight line.
    #[must_use]
    pub fn line(a: Vec2, b: Vec2) -> Shape {
        Shape::Polyline(vec![a, b])
    }

    /// A label placed automatically near `anchor` (centred on it if there is room).
    #[must_use]
    pub fn label(anchor: Vec2, text: impl Into<String>, size_mm: f64) -> Shape {
        Shape::Text { anchor, text: text.into(), size_mm, placement: Placement::Auto }
    }

    /// A verdict's label beside `anchor` (never over the mark or line it labels).
    #[must_use]
    pub fn verdict(anchor: Vec2, text: impl Into<String>) -> Shape {
        Shape::Text {
            anchor,
            text: text.into(),
            size_mm: crate::plan::VERDICT_TEXT_MM,
            placement: Placement::Beside,
        }
    }

    /// Every table point of the shape (for extents and checks).
    pub fn points(&self) -> Box<dyn Iterator<Item = Vec2> + '_> {
        match self {
            Shape::Polygon { exterior, holes } => {
                Box::new(exterior.iter().chain(holes.iter().flatten()).copied())
            }
            Shape::Polyline(p) => Box::new(p.iter().copied()),
            Shape::Circle { centre, radius_mm } => {
                let r = *radius_mm;
                Box::new(
                    [Vec2::new(centre.x - r, centre.y - r), Vec2::new(centre.x + r, centre.y + r)]
                        .into_iter(),
                )
            }
            Shape::Point { at, .. } => Box::new(std::iter::once(*at)),
            Shape::Text { anchor, .. } => Box::new(std::iter::once(*anchor)),
        }
    }
}

/// One drawn thing.
#[derive(Debug, Clone, PartialEq)]
pub struct Element {
    /// Unique in the scene (the SVG `id`).
    pub id: String,
    /// Style classes, space separated (see [`crate::style`]).
    pub class: String,
    /// What it draws.
    pub shape: Shape,
    /// The height it stands at.
    pub height: Height,
    /// The verdict in words (an SVG `<title>`), if any.
    pub title: Option<String>,
    /// The findings this element draws ([`finding_key`]s; the SVG's `data-finding`,
    /// space separated), so a viewer can pick out one finding's geometry.
    pub findings: Vec<String>,
}

/// A layer: one toggleable group.
#[derive(Debug, Clone, PartialEq)]
pub struct Layer {
    /// Which layer.
    pub id: LayerId,
    /// Its elements, in drawing order.
    pub elements: Vec<Element>,
}

/// An entry of the legend: a swatch drawn with `class` and its meaning.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LegendEntry {
    /// The style class of the swatch.
    pub class: String,
    /// What it means.
    pub text: String,
    /// Drawn as a line (true) or an area (false).
    pub line: bool,
}

/// A picture before projection.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Scene {
    /// Its title.
    pub title: String,
    /// The table's playing area (lower-left and upper-right corners), when known.
    pub extent: Option<(Vec2, Vec2)>,
    /// The region the picture is about (a measurement, a sight line, a pair), when it
    /// is not the whole table: a plan shows this region, a little grown.
    pub focus: Option<(Vec2, Vec2)>,
    /// The answer in words that a picture of one question starts with (a band across its
    /// top, [`crate::caption::band_layout`]); `None` for the report's plan.
    pub caption: Option<crate::caption::Caption>,
    layers: Vec<Layer>,
    legend: Vec<LegendEntry>,
    ids: HashSet<String>,
    /// The findings the elements added now belong to ([`Scene::set_findings`]).
    current: Vec<String>,
}

/// Turns any text into a safe element id: letters, digits, `-`, `_` and `.` are kept,
/// anything else becomes `_`.
#[must_use]
pub fn id_part(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') { c } else { '_' })
        .collect()
}

/// The key of one finding, as written in the SVG's `data-finding`: its kind and the
/// names it is about (unit, base or division ids, as the report's JSON gives them), each
/// through [`id_part`], joined by `/` (which [`id_part`] never leaves, so keys do not
/// collide): `artillery/fr-art-1`, `assault/fr-1-3/au-art-1`,
/// `skirmisher/fr-1-2-sk_0`. docs/drawing.md lists them.
#[must_use]
pub fn finding_key(kind: &str, names: &[&str]) -> String {
    let mut key = id_part(kind);
    for n in names {
        key.push('/');
        key.push_str(&id_part(n));
    }
    key
}

impl Scene {
    /// An empty scene with a title.
    #[must_use]
    pub fn new(title: impl Into<String>) -> Scene {
        Scene { title: title.into(), ..Scene::default() }
    }

    /// Adds an element to a layer; an id already used gets `-2`, `-3`, ... appended,
    /// so ids stay unique. Returns the id given.
    pub fn add(
        &mut self,
        layer: LayerId,
        id: &str,
        class: &str,
        shape: Shape,
        height: Height,
        title: Option<String>,
    ) -> String {
        let base = id_part(id);
        let mut id = base.clone();
        let mut n = 2;
        while self.ids.contains(&id) {
            id = format!("{base}-{n}");
            n += 1;
        }
        self.ids.insert(id.clone());
        let element = Element {
            id: id.clone(),
            class: class.to_string(),
            shape,
            height,
            title,
            findings: self.current.clone(),
        };
        match self.layers.iter_mut().find(|l| l.id == layer) {
            Some(l) => l.elements.push(element),
            None => {
                let at = self.layers.iter().position(|l| l.id > layer).unwrap_or(self.layers.len());
                self.layers.insert(at, Layer { id: layer, elements: vec![element] });
            }
        }
        id
    }

    /// The elements added from now on draw these findings ([`finding_key`]s), until the
    /// next call (an empty list: none). Returns the keys set before, to put them back.
    pub fn set_findings(&mut self, keys: Vec<String>) -> Vec<String> {
        std::mem::replace(&mut self.current, keys)
    }

    /// Adds a legend entry once (a second entry with the same class and text is not
    /// repeated).
    pub fn legend(&mut self, class: &str, text: &str, line: bool) {
        if !self.legend.iter().any(|e| e.class == class && e.text == text) {
            self.legend.push(LegendEntry { class: class.to_string(), text: text.to_string(), line });
        }
    }

    /// The layers that hold something, in drawing order.
    #[must_use]
    pub fn layers(&self) -> &[Layer] {
        &self.layers
    }

    /// The legend's entries, in the order added.
    #[must_use]
    pub fn legend_entries(&self) -> &[LegendEntry] {
        &self.legend
    }

    /// The layer `id`, if it holds something.
    #[must_use]
    pub fn layer(&self, id: LayerId) -> Option<&Layer> {
        self.layers.iter().find(|l| l.id == id)
    }

    /// The element with this id.
    #[must_use]
    pub fn element(&self, id: &str) -> Option<&Element> {
        self.layers.iter().flat_map(|l| &l.elements).find(|e| e.id == id)
    }

    /// Keeps only the elements `keep` says yes to (given each element's layer), and the
    /// legend entries whose swatch an element still draws (the sides' swatches always).
    pub fn retain(&mut self, keep: impl Fn(LayerId, &Element) -> bool) {
        for l in &mut self.layers {
            let id = l.id;
            l.elements.retain(|e| keep(id, e));
        }
        self.layers.retain(|l| !l.elements.is_empty());
        self.ids = self.layers.iter().flat_map(|l| l.elements.iter().map(|e| e.id.clone())).collect();
        let classes: HashSet<&str> =
            self.layers.iter().flat_map(|l| &l.elements).flat_map(|e| e.class.split_whitespace()).collect();
        self.legend.retain(|entry| {
            entry.class.starts_with("swatch ") || entry.class.split_whitespace().all(|c| classes.contains(c))
        });
    }

    /// Sets the focus to the bounding box of what `layers` hold (none: no focus).
    pub fn focus_on(&mut self, layers: &[LayerId]) {
        let mut lo = Vec2::new(f64::INFINITY, f64::INFINITY);
        let mut hi = Vec2::new(f64::NEG_INFINITY, f64::NEG_INFINITY);
        for l in self.layers.iter().filter(|l| layers.contains(&l.id)) {
            for p in l
                .elements
                .iter()
                .filter(|e| !matches!(e.shape, Shape::Text { .. }))
                .flat_map(|e| e.shape.points())
            {
                if p.is_finite() {
                    lo = Vec2::new(lo.x.min(p.x), lo.y.min(p.y));
                    hi = Vec2::new(hi.x.max(p.x), hi.y.max(p.y));
                }
            }
        }
        self.focus = (lo.x <= hi.x && lo.y <= hi.y).then_some((lo, hi));
    }

    /// The bounding box of everything drawn and of the table's extent.
    #[must_use]
    pub fn bounds(&self) -> Option<(Vec2, Vec2)> {
        let mut lo = Vec2::new(f64::INFINITY, f64::INFINITY);
        let mut hi = Vec2::new(f64::NEG_INFINITY, f64::NEG_INFINITY);
        let mut grow = |p: Vec2| {
            lo = Vec2::new(lo.x.min(p.x), lo.y.min(p.y));
            hi = Vec2::new(hi.x.max(p.x), hi.y.max(p.y));
        };
        if let Some((a, b)) = self.extent {
            grow(a);
            grow(b);
        }
        for e in self.layers.iter().flat_map(|l| &l.elements) {
            for p in e.shape.points() {
                if p.is_finite() {
                    grow(p);
                }
            }
        }
        (lo.x <= hi.x && lo.y <= hi.y).then_some((lo, hi))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_stay_unique_and_layers_keep_their_order() {
        let mut s = Scene::new("t");
        let p = Shape::Point { at: Vec2::new(1.0, 2.0), mark: Mark::Dot };
        assert_eq!(s.add(LayerId::Bases, "base-a#0", "b", p.clone(), Height::BaseTop, None), "base-a_0");
        assert_eq!(s.add(LayerId::Bases, "base-a#0", "b", p.clone(), Height::BaseTop, None), "base-a_0-2");
        s.add(LayerId::Table, "t", "t", p.clone(), Height::Table, None);
        s.add(LayerId::Sight, "s", "s", p, Height::Table, None);
        let order: Vec<LayerId> = s.layers().iter().map(|l| l.id).collect();
        assert_eq!(order, vec![LayerId::Table, LayerId::Bases, LayerId::Sight]);
        assert_eq!(s.bounds(), Some((Vec2::new(1.0, 2.0), Vec2::new(1.0, 2.0))));
    }

    #[test]
    fn elements_carry_the_findings_set_when_they_were_added() {
        let mut s = Scene::new("t");
        let p = Shape::Point { at: Vec2::new(1.0, 2.0), mark: Mark::Dot };
        s.add(LayerId::Bases, "before", "b", p.clone(), Height::Table, None);
        let key = finding_key("assault", &["fr 1#2", "au-3"]);
        assert_eq!(key, "assault/fr_1_2/au-3");
        assert!(s.set_findings(vec![key.clone()]).is_empty());
        s.add(LayerId::Zones, "during", "z", p.clone(), Height::Table, None);
        assert_eq!(s.set_findings(Vec::new()), vec![key.clone()]);
        s.add(LayerId::Zones, "after", "z", p, Height::Table, None);
        let of = |id: &str| s.element(id).map(|e| e.findings.clone());
        assert_eq!(of("before"), Some(vec![]));
        assert_eq!(of("during"), Some(vec![key]));
        assert_eq!(of("after"), Some(vec![]));
    }
}
