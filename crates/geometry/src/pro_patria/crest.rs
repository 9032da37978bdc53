//! Crest lines of hills (004 §15.1): "There are generally two crest lines on a hill, one
//! centrally along the 'spine' of the hill and the other across its widest point. When
//! units are within 25mm (15mm for 15mm gaming) of a crest line, the player moving them
//! must tell his opponent if they are behind (not visible) or over the crest line
//! (visible)."
//!
//! Readings (the text draws the lines by eye; these draw them the same way every time):
//! - **The spine** runs through the hill's centre (the centroid of its outline) along its
//!   length, from edge to edge (the outline's extent along that line). Its length is the
//!   principal axis of the outline's area (the direction in which the area is most
//!   spread: the long axis of an oval or oblong hill); for a round or square hill, where
//!   every direction is alike, the direction of its longest diameter.
//! - **Across its widest point**: at right angles to the spine, where the hill's extent
//!   across the spine is greatest; where a stretch of the spine is equally wide (a
//!   rectangular hill) the middle of that stretch. Edge to edge as the spine.
//! - **Drawn crests**: "there are *generally* two crest lines": where the players' hill
//!   has its crests elsewhere than these two lines (a spur, a ridge off centre), the table
//!   file gives them (`crests` on the hill: polylines in table mm), and they replace the
//!   derived ones for every rule that uses crest lines ([`hill_crests`]).
//! - "Within 25 mm" includes 25 mm (to the rule distances' tie of a nanometre); a unit is within when any of its bases is; each unit
//!   is listed once per hill, with the nearer crest.

use crate::BaseRef;
use crate::close_call::{CloseCall, Party, segment_to_base};
use crate::error::GeometryError;
use crate::rules::{RuleBook, RuleDistance};
use crate::segment::Segment;
use crate::table::Table;
use crate::terrain::{TerrainFeature, TerrainKind};
use crate::vec2::Vec2;

/// Which of a hill's crest lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Crest {
    /// Along the hill's length, through its centre.
    Spine,
    /// Across the hill at its widest point.
    Across,
    /// Drawn by the players in the table file (the hill's `crests`).
    Drawn,
}

/// One crest line of a hill: which, and where.
#[derive(Debug, Clone, PartialEq)]
pub struct CrestLine {
    /// Spine, across, or drawn.
    pub crest: Crest,
    /// For a drawn crest, its index in the hill's `crests`.
    pub drawn: Option<usize>,
    /// The line, at least two points, table mm.
    pub points: Vec<Vec2>,
}

impl CrestLine {
    /// The line's segments, in order.
    pub fn segments(&self) -> impl Iterator<Item = Segment> + '_ {
        self.points.windows(2).map(|w| Segment::new(w[0], w[1]))
    }

    /// Its name in reports and pictures ([`crest_name`]).
    #[must_use]
    pub fn name(&self) -> String {
        crest_name(self.crest, self.drawn)
    }
}

/// A crest line's name in reports and pictures: `spine`, `across`, or `drawn[K]` for the
/// hill's drawn crest `K`.
#[must_use]
pub fn crest_name(crest: Crest, drawn: Option<usize>) -> String {
    match (crest, drawn) {
        (Crest::Spine, _) => "spine".to_string(),
        (Crest::Across, _) => "across".to_string(),
        (Crest::Drawn, k) => format!("drawn[{}]", k.unwrap_or(0)),
    }
}

/// A hill's crest lines (004 §15.1): those drawn in the table file when it gives any,
/// otherwise the spine and the line across ([`crest_lines`]); none for a feature that
/// is not a hill or an outline without area.
///
/// ```
/// use vedette_geometry::pro_patria::crest::{Crest, hill_crests};
/// use vedette_geometry::{TerrainFeature, TerrainKind, Vec2};
/// let mut hill = TerrainFeature {
///     id: None, kind: TerrainKind::Hill, level: 1.0,
///     outline: vec![Vec2::new(0.0, 0.0), Vec2::new(400.0, 0.0), Vec2::new(400.0, 200.0), Vec2::new(0.0, 200.0)],
///     holes: vec![], path: vec![], crests: vec![],
/// };
/// assert_eq!(hill_crests(&hill).len(), 2); // spine and across
/// hill.crests = vec![vec![Vec2::new(50.0, 150.0), Vec2::new(200.0, 170.0), Vec2::new(350.0, 150.0)]];
/// let drawn = hill_crests(&hill);
/// assert_eq!((drawn.len(), drawn[0].crest, drawn[0].segments().count()), (1, Crest::Drawn, 2));
/// ```
#[must_use]
pub fn hill_crests(hill: &TerrainFeature) -> Vec<CrestLine> {
    if hill.kind != TerrainKind::Hill {
        return Vec::new();
    }
    if !hill.crests.is_empty() {
        return hill
            .crests
            .iter()
            .enumerate()
            .map(|(k, points)| CrestLine { crest: Crest::Drawn, drawn: Some(k), points: points.clone() })
            .collect();
    }
    crest_lines(&hill.outline)
        .map(|lines| {
            lines.iter().map(|&(crest, s)| CrestLine { crest, drawn: None, points: vec![s.a, s.b] }).collect()
        })
        .unwrap_or_default()
}

/// A hill's two crest lines, edge to edge; `None` for an outline without area.
#[must_use]
pub fn crest_lines(outline: &[Vec2]) -> Option<[(Crest, Segment); 2]> {
    let n = outline.len();
    if n < 3 {
        return None;
    }
    let (centre, [cxx, cyy, cxy]) = moments(outline)?;
    let spread = (cxx - cyy).hypot(2.0 * cxy);
    let along = if spread > 1e-9 * (cxx + cyy) {
        Vec2::from_heading_deg((0.5 * (2.0 * cxy).atan2(cxx - cyy)).to_degrees())
    } else {
        // Every direction alike: the longest diameter (two vertices furthest apart).
        let mut best = (0.0, Vec2::new(1.0, 0.0));
        for i in 0..n {
            for j in i + 1..n {
                let d = outline[j] - outline[i];
                if d.length_2() > best.0 {
                    best = (d.length_2(), d);
                }
            }
        }
        best.1.normalized()?
    };
    let across = along.perp_left();
    let (s0, s1) = extent(outline, centre, along)?;
    let spine = Segment::new(centre + along * s0, centre + along * s1);
    // Widest across the spine: the extent across is piecewise linear between the
    // vertices' places along the spine, so its greatest value is at one of them.
    let width_at = |t: f64| extent(outline, centre + along * t, across).map_or(0.0, |(a, b)| b - a);
    let places: Vec<f64> = outline.iter().map(|&p| (p - centre).dot(along)).collect();
    let widest = places.iter().map(|&t| width_at(t)).fold(0.0, f64::max);
    let tol = 1e-9 * widest.max(1.0);
    let plateau = places.iter().copied().filter(|&t| width_at(t) >= widest - tol);
    let (lo, hi) = plateau.fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), t| (l.min(t), h.max(t)));
    if !lo.is_finite() {
        return None;
    }
    let at = centre + along * (0.5 * (lo + hi));
    let (a0, a1) = extent(outline, at, across)?;
    Some([(Crest::Spine, spine), (Crest::Across, Segment::new(at + across * a0, at + across * a1))])
}

/// The centroid of a simple polygon (either orientation) and the second moments of its
/// area about it, per unit area: `[xx, yy, xy]`.
fn moments(ring: &[Vec2]) -> Option<(Vec2, [f64; 3])> {
    let n = ring.len();
    let o = ring[0];
    let (mut a2, mut c) = (0.0, Vec2::ZERO);
    let (mut xx, mut yy, mut xy) = (0.0, 0.0, 0.0);
    for i in 0..n {
        let (p, q) = (ring[i] - o, ring[(i + 1) % n] - o);
        let w = p.cross(q);
        a2 += w;
        c += (p + q) * w;
        xx += w * (p.x * p.x + p.x * q.x + q.x * q.x);
        yy += w * (p.y * p.y + p.y * q.y + q.y * q.y);
        xy += w * (p.x * q.y + 2.0 * p.x * p.y + 2.0 * q.x * q.y + q.x * p.y);
    }
    if a2.abs() <= 0.0 {
        return None;
    }
    let area = a2 / 2.0;
    let g = c / (3.0 * a2);
    let m = [xx / 12.0 / area - g.x * g.x, yy / 12.0 / area - g.y * g.y, xy / 24.0 / area - g.x * g.y];
    Some((o + g, m))
}

/// Where the line `o + s * u` (u a unit vector) meets the outline's edges: the least and
/// greatest `s`, if it meets them at all.
fn extent(ring: &[Vec2], o: Vec2, u: Vec2) -> Option<(f64, f64)> {
    let n = ring.len();
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for i in 0..n {
        let (p, q) = (ring[i], ring[(i + 1) % n]);
        let e = q - p;
        let den = u.cross(e);
        if den.abs() < 1e-12 {
            continue;
        }
        // o + s u = p + k e  →  s = (p - o) × e / (u × e), k = (p - o) × u / (u × e).
        let s = (p - o).cross(e) / den;
        let k = (p - o).cross(u) / den;
        if (-1e-12..=1.0 + 1e-12).contains(&k) {
            lo = lo.min(s);
            hi = hi.max(s);
        }
    }
    (lo < hi).then_some((lo, hi))
}

/// A unit within the crest-line reach of a hill's crest.
#[derive(Debug, Clone, PartialEq)]
pub struct CrestFinding {
    /// The unit (table index).
    pub unit: usize,
    /// The hill (terrain index).
    pub hill: usize,
    /// The nearer crest.
    pub crest: Crest,
    /// For a drawn crest, its index in the hill's `crests`.
    pub drawn: Option<usize>,
    /// Its base nearest the crest.
    pub base: BaseRef,
    /// Closest distance from that base to the crest line, mm.
    pub distance_mm: f64,
    /// The crest-line reach, mm (25, 15 for 15 mm figures).
    pub reach_mm: f64,
    /// How close a call "within the reach" is.
    pub call: CloseCall,
}

/// Every unit within 25 mm (15) of a crest line of a hill ([`hill_crests`]: drawn in
/// the table file, or derived from the outline), in unit then terrain order: each must be
/// declared behind or over the crest (004 §15.1).
pub fn units_near_crests(table: &Table, book: &RuleBook) -> Result<Vec<CrestFinding>, GeometryError> {
    let reach = book.distance_mm(RuleDistance::CrestLine)?;
    let hills: Vec<(usize, Vec<CrestLine>)> = table
        .terrain
        .iter()
        .enumerate()
        .map(|(k, f)| (k, hill_crests(f)))
        .filter(|(_, c)| !c.is_empty())
        .collect();
    let mut out = Vec::new();
    for (ui, unit) in table.units.iter().enumerate() {
        for (hill, crests) in &hills {
            let mut best: Option<(&CrestLine, BaseRef, crate::segment::ClosestPoints)> = None;
            for line in crests {
                for segment in line.segments() {
                    for (bi, b) in unit.bases.iter().enumerate() {
                        let c = segment_to_base(&segment, b);
                        if best.as_ref().is_none_or(|(_, _, old)| c.distance_mm < old.distance_mm) {
                            best = Some((line, BaseRef::new(ui, bi), c));
                        }
                    }
                }
            }
            let Some((line, base, c)) = best else { continue };
            if !crate::ties::within(c.distance_mm, reach) {
                continue;
            }
            let Some(b) = table.base(base) else { continue };
            // Moving the base away from the line (along the closest approach) would take
            // it out of reach.
            let away = (c.to - c.from).normalized().unwrap_or(Vec2::new(1.0, 0.0));
            let call = CloseCall::new(table, c.distance_mm - reach, &[Party::at(base, b, c.to, away)]);
            out.push(CrestFinding {
                unit: ui,
                hill: *hill,
                crest: line.crest,
                drawn: line.drawn,
                base,
                distance_mm: c.distance_mm,
                reach_mm: reach,
                call,
            });
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rectangular_hill_has_its_crests_through_the_middle() {
        // 400 x 200 from (0, 0): spine y = 100 from x = 0 to 400; across x = 200.
        let r = [Vec2::new(0.0, 0.0), Vec2::new(400.0, 0.0), Vec2::new(400.0, 200.0), Vec2::new(0.0, 200.0)];
        let [(k0, spine), (k1, across)] = crest_lines(&r).unwrap();
        assert_eq!((k0, k1), (Crest::Spine, Crest::Across));
        let near = |p: Vec2, x: f64, y: f64| p.distance(Vec2::new(x, y)) < 1e-9;
        assert!(
            near(spine.a, 0.0, 100.0) && near(spine.b, 400.0, 100.0)
                || near(spine.b, 0.0, 100.0) && near(spine.a, 400.0, 100.0),
            "{spine:?}"
        );
        assert!(
            near(across.a, 200.0, 0.0) && near(across.b, 200.0, 200.0)
                || near(across.b, 200.0, 0.0) && near(across.a, 200.0, 200.0),
            "{across:?}"
        );
        // A square: every direction alike; the spine is a diagonal, through the centre.
        let sq = [Vec2::new(0.0, 0.0), Vec2::new(100.0, 0.0), Vec2::new(100.0, 100.0), Vec2::new(0.0, 100.0)];
        let [(_, spine), _] = crest_lines(&sq).unwrap();
        assert!((spine.a.distance(spine.b) - 100f64.hypot(100.0)).abs() < 1e-9, "{spine:?}");
    }

    #[test]
    fn an_oval_hill_has_its_spine_along_its_length_and_its_widest_point_off_centre() {
        // A pear: long axis along x from (0, 0) to (300, 0), widest (±60) at x = 200.
        let pear = [
            Vec2::new(0.0, 0.0),
            Vec2::new(100.0, -30.0),
            Vec2::new(200.0, -60.0),
            Vec2::new(300.0, 0.0),
            Vec2::new(200.0, 60.0),
            Vec2::new(100.0, 30.0),
        ];
        let [(_, spine), (_, across)] = crest_lines(&pear).unwrap();
        assert!(spine.a.y.abs() < 1e-9 && spine.b.y.abs() < 1e-9, "{spine:?}");
        assert!((spine.a.x.min(spine.b.x)).abs() < 1e-9 && (spine.a.x.max(spine.b.x) - 300.0).abs() < 1e-9);
        assert!((across.a.x - 200.0).abs() < 1e-9 && (across.b.x - 200.0).abs() < 1e-9, "{across:?}");
        assert!((across.a.distance(across.b) - 120.0).abs() < 1e-9);
    }
}
