//! The table model's own rules, checked after the structure has been read: finite
//! numbers, positive sizes, unique ids, references that resolve, kinds that fit their
//! formations, and terrain outlines that are simple polygons.

use super::{Formation, MarkerColour, MarkerKind, Table, Unit, UnitKind};
use crate::base::Base;
use crate::error::GeometryError;
use crate::number::Shown;
use crate::polygon::RingLookup;
use crate::rules::{RuleBook, RuleSet};
use crate::vec2::Vec2;
use std::collections::HashMap;

/// The largest coordinate (and table side) a table may hold, mm: a kilometre. A table is
/// a few metres across; far beyond that, the arithmetic that decides tenths of a
/// millimetre (hulls, intersections) has no digits left.
pub const MAX_COORDINATE_MM: f64 = 1.0e6;
/// The largest base or marker side, and the largest uncertainty, mm (ten metres).
pub const MAX_SIZE_MM: f64 = 1.0e4;
/// The largest heading magnitude, degrees: headings are read modulo 360°, and a number
/// this size still holds its fraction of a degree to 1e-10.
pub const MAX_HEADING_DEG: f64 = 1.0e6;
/// The most points one terrain outline, hole or path may have (the simple-polygon check
/// grows with the square of the count in the worst case).
pub const MAX_OUTLINE_POINTS: usize = 10_000;
/// The most terrain features a table may have. A table holds tens; the seeded
/// generator's largest battles (a million bases) hold 20,000.
pub const MAX_TERRAIN_FEATURES: usize = 20_000;
/// The most terrain points a table may have in all (outlines, holes, paths and crest
/// lines): what the sight and cover questions walk. Each outline within
/// [`MAX_OUTLINE_POINTS`], 300 of them made `scan` take 75 s and 800 MB and `report` over
/// two minutes (issue 41 item 5); the generator's largest battles hold under 200,000.
pub const MAX_TERRAIN_POINTS: usize = 200_000;

/// `v` is finite and at most `limit` in magnitude.
fn bounded(v: f64, limit: f64) -> bool {
    v.is_finite() && v.abs() <= limit
}

impl Table {
    /// Checks everything serde's types cannot; `origin` names the file in errors.
    pub fn validate(&self, origin: &str) -> Result<(), GeometryError> {
        let field = |location: String, reason: String| GeometryError::InvalidField {
            origin: origin.to_string(),
            location,
            reason,
        };
        RuleBook::try_new(self.rules, self.scale).map_err(|e| field("scale".to_string(), e.to_string()))?;
        if let Some(size) = &self.size {
            for (name, v) in [("width", size.width), ("depth", size.depth)] {
                if !(bounded(v, MAX_COORDINATE_MM) && v > 0.0) {
                    return Err(field(
                        format!("size.{name}"),
                        format!(
                            "must be a positive number of mm up to {MAX_COORDINATE_MM}, got {}",
                            Shown(v)
                        ),
                    ));
                }
            }
        }
        for (w, v) in &self.artillery.max_range_in {
            if !(v.is_finite() && *v > 0.0) {
                return Err(field(
                    format!("artillery.max_range_in.{}", w.name()),
                    format!("must be a positive number of inches, got {}", Shown(*v)),
                ));
            }
        }
        for (side, settings) in &self.sides {
            if settings.base_counting == Some(crate::assault::outnumbering::BaseCounting::IndividualBases)
                && self.rules != crate::rules::RuleSet::Republic
            {
                return Err(field(
                    format!("sides.{side}.base_counting"),
                    format!(
                        "individual-bases is Republic's grand-tactical inexperience (003 102 C), not a rule of {}",
                        self.rules
                    ),
                ));
            }
        }
        let mut ids: HashMap<&str, usize> = HashMap::new();
        for (i, unit) in self.units.iter().enumerate() {
            let at = |f: &str| {
                if f.is_empty() {
                    format!("units[{i}] \"{}\"", unit.id)
                } else {
                    format!("units[{i}] \"{}\" {f}", unit.id)
                }
            };
            if unit.id.trim().is_empty() {
                return Err(field(format!("units[{i}] id"), "must not be empty".to_string()));
            }
            if unit.id.contains('#') {
                return Err(field(
                    at("id"),
                    "must not contain '#' (it separates unit and base index)".to_string(),
                ));
            }
            if let Some(first) = ids.insert(unit.id.as_str(), i) {
                return Err(GeometryError::DuplicateId {
                    origin: origin.to_string(),
                    id: unit.id.clone(),
                    first: format!("units[{first}]"),
                    second: format!("units[{i}]"),
                });
            }
            if unit.side.trim().is_empty() {
                return Err(field(at("side"), "must not be empty".to_string()));
            }
            if unit.bases.is_empty() {
                return Err(field(at("bases"), "a unit needs at least one base".to_string()));
            }
            for (bi, b) in unit.bases.iter().enumerate() {
                if let Some((name, reason)) = b.fault() {
                    return Err(field(at(&format!("bases[{bi}].{name}")), reason));
                }
            }
            let mut last_number = None;
            for (bi, b) in unit.bases.iter().enumerate() {
                if let Some(reason) = b.numbering_fault(bi, last_number) {
                    return Err(field(at(&format!("bases[{bi}].slot")), reason));
                }
                last_number = Some(b.number_at(bi));
            }
            check_kind_fits(unit).map_err(|(f, reason)| field(at(f), reason))?;
            if unit.formation == Some(Formation::BreakthroughColumn) && self.rules != RuleSet::Republic {
                return Err(field(
                    at("formation"),
                    format!("breakthrough-column is a Republic rule (003 §103), not a {} one", self.rules),
                ));
            }
        }
        for (i, unit) in self.units.iter().enumerate() {
            if let Some(p) = &unit.parent {
                if !ids.contains_key(p.as_str()) {
                    return Err(GeometryError::UnknownReference {
                        origin: origin.to_string(),
                        location: format!("units[{i}] \"{}\" parent", unit.id),
                        id: p.clone(),
                    });
                }
                if p == &unit.id {
                    return Err(field(
                        format!("units[{i}] \"{}\" parent", unit.id),
                        "a unit cannot be its own parent".to_string(),
                    ));
                }
            }
        }
        for (i, m) in self.markers.iter().enumerate() {
            let at = |f: &str| format!("markers[{i}] {f}");
            for (name, v) in [("x", m.x), ("y", m.y)] {
                if !bounded(v, MAX_COORDINATE_MM) {
                    return Err(field(
                        at(name),
                        format!("must be a finite number within ±{MAX_COORDINATE_MM}, got {}", Shown(v)),
                    ));
                }
            }
            if let Some(s) = m.size
                && !(bounded(s, MAX_SIZE_MM) && s > 0.0)
            {
                return Err(field(
                    at("size"),
                    format!("must be a positive number of mm up to {MAX_SIZE_MM}, got {}", Shown(s)),
                ));
            }
            if let Some(s) = m.sigma_mm
                && !(bounded(s, MAX_SIZE_MM) && s >= 0.0)
            {
                return Err(field(
                    at("sigma_mm"),
                    format!("must be a non-negative number up to {MAX_SIZE_MM}, got {}", Shown(s)),
                ));
            }
            if m.kind == MarkerKind::Morale
                && !matches!(
                    m.colour,
                    Some(
                        MarkerColour::White | MarkerColour::Yellow | MarkerColour::Red | MarkerColour::Black
                    )
                )
            {
                return Err(field(
                    at("colour"),
                    "a morale marker must be white, yellow, red or black (000 §1.2)".to_string(),
                ));
            }
            if let Some(u) = &m.unit
                && !ids.contains_key(u.as_str())
            {
                return Err(GeometryError::UnknownReference {
                    origin: origin.to_string(),
                    location: at("unit"),
                    id: u.clone(),
                });
            }
        }
        if self.terrain.len() > MAX_TERRAIN_FEATURES {
            return Err(field(
                "terrain".to_string(),
                format!(
                    "has {} features; at most {MAX_TERRAIN_FEATURES} (MAX_TERRAIN_FEATURES): merge or leave out pieces",
                    self.terrain.len()
                ),
            ));
        }
        let points: usize = self
            .terrain
            .iter()
            .map(|t| {
                t.outline.len()
                    + t.path.len()
                    + t.holes.iter().map(Vec::len).sum::<usize>()
                    + t.crests.iter().map(Vec::len).sum::<usize>()
            })
            .sum();
        if points > MAX_TERRAIN_POINTS {
            return Err(field(
                "terrain".to_string(),
                format!(
                    "has {points} points in all (outlines, holes, paths, crest lines); at most {MAX_TERRAIN_POINTS} (MAX_TERRAIN_POINTS): simplify the outlines"
                ),
            ));
        }
        let mut terrain_ids: HashMap<&str, usize> = HashMap::new();
        for (i, t) in self.terrain.iter().enumerate() {
            let at = |f: &str| match &t.id {
                Some(id) => format!("terrain[{i}] \"{id}\" {f}"),
                None => format!("terrain[{i}] {f}"),
            };
            if let Some(id) = &t.id
                && let Some(first) = terrain_ids.insert(id.as_str(), i)
            {
                return Err(GeometryError::DuplicateId {
                    origin: origin.to_string(),
                    id: id.clone(),
                    first: format!("terrain[{first}]"),
                    second: format!("terrain[{i}]"),
                });
            }
            if !(t.level.is_finite() && t.level >= 0.0 && (t.level * 2.0).fract() == 0.0) {
                return Err(field(
                    at("level"),
                    format!("must be 0 or more in half-level steps (0, 0.5, 1, ...), got {}", t.level),
                ));
            }
            let all_finite = |pts: &[Vec2]| {
                pts.iter().all(|p| bounded(p.x, MAX_COORDINATE_MM) && bounded(p.y, MAX_COORDINATE_MM))
            };
            for (name, n) in std::iter::once(("outline", t.outline.len()))
                .chain(std::iter::once(("path", t.path.len())))
                .chain(t.holes.iter().map(|h| ("holes", h.len())))
            {
                if n > MAX_OUTLINE_POINTS {
                    return Err(field(
                        at(name),
                        format!("has {n} points; at most {MAX_OUTLINE_POINTS} (simplify it)"),
                    ));
                }
            }
            if t.kind.is_linear() {
                if t.path.len() < 2 {
                    return Err(field(
                        at("path"),
                        format!("a {} needs a path of at least two points", t.kind),
                    ));
                }
                if !t.outline.is_empty() {
                    return Err(field(
                        at("outline"),
                        format!("a {} is a line: give `path`, not `outline`", t.kind),
                    ));
                }
                if !all_finite(&t.path) {
                    return Err(field(
                        at("path"),
                        format!("coordinates must be finite numbers within ±{MAX_COORDINATE_MM} mm"),
                    ));
                }
                if !t.holes.is_empty() {
                    return Err(field(at("holes"), format!("a {} is a line: it has no holes", t.kind)));
                }
                if !t.crests.is_empty() {
                    return Err(field(
                        at("crests"),
                        format!("a {} has no crest lines: only a hill has", t.kind),
                    ));
                }
            } else {
                if t.outline.len() < 3 {
                    return Err(field(
                        at("outline"),
                        format!("a {} needs an outline of at least three points", t.kind),
                    ));
                }
                if !t.path.is_empty() {
                    return Err(field(
                        at("path"),
                        format!("a {} is an area: give `outline`, not `path`", t.kind),
                    ));
                }
                if !all_finite(&t.outline) || !t.holes.iter().all(|h| all_finite(h)) {
                    return Err(field(
                        at("outline"),
                        format!("coordinates must be finite numbers within ±{MAX_COORDINATE_MM} mm"),
                    ));
                }
                if let Some(h) = t.holes.iter().position(|h| h.len() < 3) {
                    return Err(field(
                        at(&format!("holes[{h}]")),
                        "a hole needs at least three points".to_string(),
                    ));
                }
                let poly = t.polygon();
                if let Some(((ra, ea), (rb, eb))) = poly.self_intersections().first().copied() {
                    let ring =
                        |r: usize| if r == 0 { "outline".to_string() } else { format!("holes[{}]", r - 1) };
                    return Err(field(
                        at(&ring(ra)),
                        format!(
                            "outline is not a simple polygon: edge {ea} of {} crosses edge {eb} of {}",
                            ring(ra),
                            ring(rb)
                        ),
                    ));
                }
                if poly.area() <= 0.0 {
                    return Err(field(at("outline"), "outline encloses no area".to_string()));
                }
                let outline = RingLookup::new(&t.outline);
                for (h, hole) in t.holes.iter().enumerate() {
                    if let Some(p) = hole.iter().find(|&&p| !outline.contains(p)) {
                        return Err(field(
                            at(&format!("holes[{h}]")),
                            format!("hole point ({}, {}) lies outside the outline", p.x, p.y),
                        ));
                    }
                }
                if let Some((k, reason)) = crest_problem(t) {
                    return Err(field(at(&format!("crests[{k}]")), reason));
                }
                if t.kind == crate::terrain::TerrainKind::Hill && t.level < 0.5 {
                    return Err(field(
                        at("level"),
                        format!("a hill's level is the height of its top: at least 0.5, got {}", t.level),
                    ));
                }
            }
        }
        check_hills(self).map_err(|(i, f, reason)| {
            let t = &self.terrain[i];
            let location = match &t.id {
                Some(id) => format!("terrain[{i}] \"{id}\" {f}"),
                None => format!("terrain[{i}] {f}"),
            };
            field(location, reason)
        })?;
        Ok(())
    }
}

impl Base {
    /// The first of this base's own numbers that [`Table::validate`] refuses, as the
    /// field (`x`, `y`, `heading`, `width`, `depth`, `sigma_mm`, `sigma_heading_deg`) and
    /// what is wrong with it; `None` when they are all fine. A change to one base (a
    /// correction) needs only this and [`Base::numbering_fault`] checked again.
    #[must_use]
    pub fn fault(&self) -> Option<(&'static str, String)> {
        let c = self.centre();
        for (name, v, limit) in [
            ("x", c.x, MAX_COORDINATE_MM),
            ("y", c.y, MAX_COORDINATE_MM),
            ("heading", self.heading_deg(), MAX_HEADING_DEG),
        ] {
            if !bounded(v, limit) {
                return Some((name, format!("must be a finite number within ±{limit}, got {}", Shown(v))));
            }
        }
        for (name, v) in [("width", self.width()), ("depth", self.depth())] {
            if !(bounded(v, MAX_SIZE_MM) && v > 0.0) {
                return Some((
                    name,
                    format!("must be a positive number of mm up to {MAX_SIZE_MM}, got {}", Shown(v)),
                ));
            }
        }
        let meta = self.meta();
        for (name, v) in [("sigma_mm", meta.sigma_mm), ("sigma_heading_deg", meta.sigma_heading_deg)] {
            if let Some(v) = v
                && !(bounded(v, MAX_SIZE_MM) && v >= 0.0)
            {
                return Some((
                    name,
                    format!("must be a non-negative number up to {MAX_SIZE_MM}, got {}", Shown(v)),
                ));
            }
        }
        None
    }

    /// The base's number in its unit when it stands at `index` among the unit's bases:
    /// its `slot` when a scan gave it one, its place otherwise (`unit#number` names it).
    #[must_use]
    pub fn number_at(&self, index: usize) -> usize {
        self.meta().slot.unwrap_or(index)
    }

    /// What [`Table::validate`] refuses in this base's number when it stands at `index`
    /// after a base numbered `previous` (`None` for a unit's first base): numbers
    /// increase along a unit's bases, and a slot is never below the base's place.
    #[must_use]
    pub fn numbering_fault(&self, index: usize, previous: Option<usize>) -> Option<String> {
        let number = self.number_at(index);
        (self.meta().slot.is_some_and(|s| s < index) || previous.is_some_and(|l| number <= l)).then(|| {
            format!(
                "base numbers must increase along the unit's bases and a slot cannot be below the base's place ({index}), got {number}"
            )
        })
    }
}

/// The first problem with a feature's hand-drawn crest lines (004 §15.1), with the
/// crest's index: only a hill has them; each needs at least two points, finite and
/// within the table's bounds, not all at one place, and every point on or inside the
/// hill's outline (within [`crate::ties::TOUCHING_MM`] of it: a line drawn edge to edge
/// ends on the outline).
fn crest_problem(t: &crate::terrain::TerrainFeature) -> Option<(usize, String)> {
    use crate::segment::Segment;
    let n = t.outline.len();
    for (k, crest) in t.crests.iter().enumerate() {
        if t.kind != crate::terrain::TerrainKind::Hill {
            return Some((k, format!("a {} has no crest lines: only a hill has", t.kind)));
        }
        if crest.len() < 2 {
            return Some((k, format!("a crest line needs at least two points, got {}", crest.len())));
        }
        if crest.len() > MAX_OUTLINE_POINTS {
            return Some((
                k,
                format!("has {} points; at most {MAX_OUTLINE_POINTS} (simplify it)", crest.len()),
            ));
        }
        if !crest.iter().all(|p| bounded(p.x, MAX_COORDINATE_MM) && bounded(p.y, MAX_COORDINATE_MM)) {
            return Some((k, format!("coordinates must be finite numbers within ±{MAX_COORDINATE_MM} mm")));
        }
        if crest.iter().all(|&p| p == crest[0]) {
            return Some((k, "a crest line needs two different points".to_string()));
        }
        let off_outline = |p: Vec2| {
            (0..n)
                .map(|i| Segment::new(t.outline[i], t.outline[(i + 1) % n]).distance_to_point(p))
                .fold(f64::INFINITY, f64::min)
        };
        let outline = RingLookup::new(&t.outline);
        if let Some(p) =
            crest.iter().find(|&&p| !outline.contains(p) && off_outline(p) > crate::ties::TOUCHING_MM)
        {
            return Some((
                k,
                format!(
                    "crest point ({}, {}) lies outside the hill's outline ({:.1} mm)",
                    p.x,
                    p.y,
                    off_outline(*p)
                ),
            ));
        }
    }
    None
}

/// Hill contours nest: two hills either lie apart (touching allowed) or one inside the
/// other, and a contour inside another is higher ground (003 601; the ground level of a
/// point is that of the innermost hill containing it).
fn check_hills(table: &Table) -> Result<(), (usize, &'static str, String)> {
    use crate::segment::Segment;
    use crate::terrain::TerrainKind;
    let hills: Vec<usize> = table
        .terrain
        .iter()
        .enumerate()
        .filter(|(_, t)| t.kind == TerrainKind::Hill)
        .map(|(i, _)| i)
        .collect();
    let name = |i: usize| match &table.terrain[i].id {
        Some(id) => format!("terrain[{i}] \"{id}\""),
        None => format!("terrain[{i}]"),
    };
    for (k, &a) in hills.iter().enumerate() {
        for &b in &hills[k + 1..] {
            let (ra, rb) = (&table.terrain[a].outline, &table.terrain[b].outline);
            let edges = |r: &[Vec2]| -> Vec<Segment> {
                (0..r.len()).map(|i| Segment::new(r[i], r[(i + 1) % r.len()])).collect()
            };
            // Contours whose boxes are apart neither cross nor nest.
            if !crate::convex::boxes_meet(ring_box(ra), ring_box(rb)) {
                continue;
            }
            let (ea, eb) = (edges(ra), edges(rb));
            let both: Vec<Segment> = ea.iter().chain(&eb).copied().collect();
            let mut crosses = false;
            crate::polygon::box_pairs(&both, |i, j| {
                crosses |= i < ea.len() && j >= ea.len() && proper_crossing(&both[i], &both[j]);
            });
            if crosses {
                return Err((b, "outline", format!("hill contour crosses the contour of {}", name(a))));
            }
            let (la_ring, lb_ring) = (RingLookup::new(ra), RingLookup::new(rb));
            let inside = |inner: &[Vec2], outer: &RingLookup<'_>| {
                inner.iter().all(|&p| outer.contains(p)) && inner.iter().any(|&p| !outer.on_boundary(p))
            };
            let (la, lb) = (table.terrain[a].level, table.terrain[b].level);
            if inside(rb, &la_ring) && lb <= la {
                return Err((
                    b,
                    "level",
                    format!("a hill inside {} (level {la}) must be higher, got {lb}", name(a)),
                ));
            }
            if inside(ra, &lb_ring) && la <= lb {
                return Err((
                    a,
                    "level",
                    format!("a hill inside {} (level {lb}) must be higher, got {la}", name(b)),
                ));
            }
        }
    }
    Ok(())
}

/// The bounding box of a ring.
fn ring_box(ring: &[Vec2]) -> (Vec2, Vec2) {
    crate::convex::bbox(ring.iter().copied())
}

/// True when two segments cross at a point interior to both (touching, or meeting at an
/// end, is not crossing).
fn proper_crossing(x: &crate::segment::Segment, y: &crate::segment::Segment) -> bool {
    let o = |a: Vec2, b: Vec2, c: Vec2| (b - a).cross(c - a);
    let (d1, d2) = (o(x.a, x.b, y.a), o(x.a, x.b, y.b));
    let (d3, d4) = (o(y.a, y.b, x.a), o(y.a, y.b, x.b));
    d1 * d2 < 0.0 && d3 * d4 < 0.0
}

/// Kinds and formations that go together; returns the field and the reason otherwise.
fn check_kind_fits(unit: &Unit) -> Result<(), (&'static str, String)> {
    use Formation as F;
    let f = unit.formation;
    match unit.kind {
        UnitKind::Artillery if !matches!(f, None | Some(F::Limbered | F::Unlimbered)) => {
            return Err(("formation", format!("artillery is limbered or unlimbered, not {}", name(f))));
        }
        UnitKind::Infantry | UnitKind::Cavalry => {
            if matches!(f, Some(F::Limbered | F::Unlimbered)) {
                return Err(("formation", format!("{} cannot be {}", unit.kind, name(f))));
            }
            if unit.kind == UnitKind::Cavalry && f == Some(F::Square) {
                return Err(("formation", "only infantry forms square (000 §1.4)".to_string()));
            }
            if unit.kind == UnitKind::Cavalry && f == Some(F::BreakthroughColumn) {
                return Err((
                    "formation",
                    "a breakthrough column is made of infantry brigades (003 §103)".to_string(),
                ));
            }
        }
        _ => {}
    }
    if unit.kind != UnitKind::Artillery {
        if unit.weight.is_some() {
            return Err(("weight", format!("only artillery has a weight, this unit is {}", unit.kind)));
        }
        if unit.frontage.is_some() {
            return Err((
                "frontage",
                format!("only artillery has a frontage mode, this unit is {}", unit.kind),
            ));
        }
    }
    if unit.role.is_some() && unit.kind != UnitKind::Leader {
        return Err(("role", format!("only leaders have a role, this unit is {}", unit.kind)));
    }
    Ok(())
}

fn name(f: Option<Formation>) -> &'static str {
    f.map_or("unset", Formation::name)
}
