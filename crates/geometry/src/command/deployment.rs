//! Deployment areas (Republique 5.0 §2.1).
//!
//! "The deployment area of a division lies within an imaginary boundary line drawn
//! around all of the bases and skirmish markers for the primary units of the division,
//! at a 3" distance from the base edges." For a corps the line is drawn "at a 3"
//! distance from all of the primary units for the member divisions and encompassing the
//! open area (if any) between the divisions".
//!
//! Readings (GEOMETRY.md, Distances): a division's area is the 3" buffer of the union of
//! its primary bases and their skirmish markers; a corps' is the 3" buffer of the convex
//! hull of all its divisions' primary bases and markers. Choices where the text is silent:
//! - **Primary units** are a division's infantry and cavalry units not marked `attached`;
//!   artillery never draws the line ("it does not contribute to the boundary line
//!   profile", §2.1 figure). Skirmish markers of primary units draw it too.
//! - The area is everything **inside the boundary line**: an enclosed gap (a ring of
//!   regiments round a village) is part of the area, so holes are filled.
//!
//! Exactness: the union of bases is exact (up to the ~1e-6 mm snapping of the polygon
//! overlay); the buffer's straight sides are exact; its round corners are polygons
//! circumscribed about the true arcs, lying outside them by at most [`ARC_EXCESS_MM`]. So a
//! base inside the true area is always judged inside, and a base outside it by less
//! than [`ARC_EXCESS_MM`] near a rounded corner may be judged inside too.
//!
//! Speed: the buffer is built from its exact pieces (each edge moved out, each corner's
//! arc, cut where another edge is nearer than 3": [`crate::buffer`]), not by a polygon
//! overlay of the pieces; only the union of the bases themselves is an overlay.

use crate::base::Base;
use crate::buffer::buffer_outlines;
use crate::convex::segment_distance_mm;
use crate::convex::{hull_points, signed_area};
use crate::error::GeometryError;
use crate::polygon::{ConvexPolygon, Polygon, ring_scan};
use crate::ring_index::RingIndex;
use crate::rules::{RuleBook, RuleDistance};
use crate::segment::Segment;
use crate::table::{Table, Unit, UnitKind};
use crate::vec2::Vec2;
use std::collections::{BTreeMap, HashMap};

/// How far the polygon's round corners may lie outside the true 3" arcs, mm.
pub const ARC_EXCESS_MM: f64 = 0.005;

/// Whose area it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AreaOwner {
    /// A division, by name.
    Division(String),
    /// A corps, by name.
    Corps(String),
}

/// A deployment area: one or more filled outlines (a division split in two has two).
#[derive(Debug, Clone, PartialEq)]
pub struct DeploymentArea {
    /// Whose it is.
    pub owner: AreaOwner,
    /// The outlines, counter-clockwise, holes filled.
    pub outlines: Vec<Polygon>,
}

impl DeploymentArea {
    /// Area in mm².
    #[must_use]
    pub fn area_mm2(&self) -> f64 {
        self.outlines.iter().map(Polygon::area).sum()
    }

    /// The fraction (0 to 1) of a base inside the area.
    #[must_use]
    pub fn fraction_of_base(&self, b: &Base) -> f64 {
        let poly: ConvexPolygon = b.polygon();
        (self.outlines.iter().map(|o| o.area_inside(&poly)).sum::<f64>() / b.area()).clamp(0.0, 1.0)
    }

    /// True when the whole base is inside (to a millionth of its area: overlay rounding).
    #[must_use]
    pub fn contains_base(&self, b: &Base) -> bool {
        Self::wholly(self.fraction_of_base(b))
    }

    /// True when a base's fraction inside ([`Self::fraction_of_base`]) makes it wholly
    /// inside.
    #[must_use]
    pub fn wholly(fraction: f64) -> bool {
        fraction >= 1.0 - 1e-6
    }

    /// How far `b` is from changing its "wholly inside" verdict, mm: positive when it
    /// is wholly inside (its distance to the area's boundary: the move that makes it
    /// poke out), otherwise minus the largest distance from one of its corners outside
    /// the area to the area (the least any move bringing it wholly in must cover).
    #[must_use]
    pub fn base_margin_mm(&self, b: &Base) -> f64 {
        self.base_margin_mm_known(b, self.contains_base(b))
    }

    /// [`Self::base_margin_mm`] with [`Self::contains_base`] known (`inside`).
    #[must_use]
    pub fn base_margin_mm_known(&self, b: &Base, inside: bool) -> f64 {
        if inside {
            // The nearest edge: an edge whose box is farther from the base's box than
            // the nearest found so far is passed over unmeasured.
            let poly = b.polygon();
            let (lo, hi) = crate::convex::bbox(poly.vertices().iter().copied());
            let edges = self.outlines.iter().flat_map(|o| {
                let r = &o.exterior;
                (0..r.len()).map(move |i| Segment::new(r[i], r[(i + 1) % r.len()]))
            });
            return edges.fold(f64::INFINITY, |best, e| {
                let gap_x = (e.a.x.min(e.b.x) - hi.x).max(lo.x - e.a.x.max(e.b.x)).max(0.0);
                let gap_y = (e.a.y.min(e.b.y) - hi.y).max(lo.y - e.a.y.max(e.b.y)).max(0.0);
                if gap_x.hypot(gap_y) >= best {
                    best
                } else {
                    best.min(segment_distance_mm(&e, poly.vertices()))
                }
            });
        }
        margin_outside(&self.outlines, &b.vertices_ccw(), |k, corners| {
            ring_scan(&self.outlines[k].exterior, corners)
        })
    }

    /// The area's outlines indexed for the questions of many bases
    /// ([`AreaIndex`]: the same answers, to the last bit, sooner).
    #[must_use]
    pub fn index(&self) -> AreaIndex<'_> {
        AreaIndex {
            area: self,
            rings: self
                .outlines
                .iter()
                .map(|o| (RingIndex::new(&o.exterior), o.holes.iter().map(|h| RingIndex::new(h)).collect()))
                .collect(),
        }
    }

    /// True when every base of the unit is inside.
    #[must_use]
    pub fn contains_unit(&self, u: &Unit) -> bool {
        u.bases.iter().all(|b| self.contains_base(b))
    }
}

/// How far outside `outlines` the farthest of `corners` lies, negated (0 when every
/// corner is inside one): `scan(k, corners)` is [`ring_scan`] of outline `k`'s exterior.
fn margin_outside(
    outlines: &[Polygon],
    corners: &[Vec2],
    scan: impl Fn(usize, &[Vec2]) -> Vec<(bool, f64)>,
) -> f64 {
    // Each corner against each outline in one pass over its edges: a corner inside
    // one is at 0, one outside all at its distance to the nearest.
    let mut out: Vec<Option<f64>> = vec![Some(f64::INFINITY); corners.len()];
    for (i, o) in outlines.iter().enumerate() {
        for (k, (inside, d2)) in scan(i, corners).into_iter().enumerate() {
            // (Holes, which a deployment area never has, as `Polygon::contains` takes them.)
            out[k] = if inside && (o.holes.is_empty() || o.contains(corners[k])) {
                None
            } else {
                out[k].map(|best| best.min(d2))
            };
        }
    }
    -out.iter().map(|d2| d2.map_or(0.0, f64::sqrt)).fold(0.0, f64::max)
}

/// A deployment area's outlines indexed ([`crate::ring_index`]) for the questions of
/// many bases: [`Self::fraction_of_base`] and [`Self::base_margin_mm_known`] answer as
/// the area's own methods do, to the last bit, but read only the outline's edges near
/// the base (an outline has thousands of vertices, its round corners written as short
/// edges).
#[derive(Debug, Clone)]
pub struct AreaIndex<'a> {
    area: &'a DeploymentArea,
    /// Each outline's exterior and holes.
    rings: Vec<(RingIndex<'a>, Vec<RingIndex<'a>>)>,
}

impl AreaIndex<'_> {
    /// [`DeploymentArea::fraction_of_base`].
    #[must_use]
    pub fn fraction_of_base(&self, b: &Base) -> f64 {
        let poly: ConvexPolygon = b.polygon();
        let planes = poly.half_planes();
        let (lo, hi) = crate::convex::bbox(poly.vertices().iter().copied());
        let inside = |ring: &RingIndex<'_>| ring.area_inside(&poly, &planes, lo, hi);
        // As `Polygon::area_inside`, outline by outline.
        let area = |(exterior, holes): &(RingIndex<'_>, Vec<RingIndex<'_>>)| {
            (inside(exterior) - holes.iter().map(inside).sum::<f64>()).max(0.0)
        };
        (self.rings.iter().map(area).sum::<f64>() / b.area()).clamp(0.0, 1.0)
    }

    /// [`DeploymentArea::base_margin_mm_known`].
    #[must_use]
    pub fn base_margin_mm_known(&self, b: &Base, inside: bool) -> f64 {
        if inside {
            let poly = b.polygon();
            let (lo, hi) = crate::convex::bbox(poly.vertices().iter().copied());
            // The nearest edge of all, searched in any order: the plain fold, which
            // takes the edges in order and measures an edge only when its box is nearer
            // than the nearest so far, finds the same when the first edge that near has
            // a box no farther (it measures that edge: every edge before it is farther),
            // as it has but for rounding. Otherwise the fold itself.
            let mut nearest: Option<(f64, usize, usize)> = None;
            for (k, (exterior, _)) in self.rings.iter().enumerate() {
                if let Some((d, i)) = exterior.nearest_edge(poly.vertices(), lo, hi)
                    && nearest.is_none_or(|(m, _, _)| d < m)
                {
                    nearest = Some((d, k, i));
                }
            }
            if let Some((d, k, i)) = nearest {
                let (gap_x, gap_y) = self.rings[k].0.edge_gap(i, lo, hi);
                if gap_x.hypot(gap_y) <= d {
                    return d;
                }
            } else if self.area.outlines.iter().all(|o| o.exterior.is_empty()) {
                return f64::INFINITY;
            }
            return self.rings.iter().fold(f64::INFINITY, |best, (exterior, _)| {
                exterior.nearest_from(best, poly.vertices(), lo, hi)
            });
        }
        margin_outside(&self.area.outlines, &b.vertices_ccw(), |k, corners| self.rings[k].0.scan(corners))
    }
}

/// The primary units of a division: its infantry and cavalry units not marked
/// `attached`, and the skirmish markers whose parent is one of them (unit indices).
#[must_use]
pub fn primary_units(table: &Table, division: &str) -> Vec<usize> {
    primary_units_among(table, division, 0..table.units.len())
}

/// Each division's units (indices, ascending), by name: what [`primary_units_among`]
/// and the command assessment look among instead of the whole table, once per table.
#[must_use]
pub fn units_by_division(table: &Table) -> BTreeMap<&str, Vec<usize>> {
    let mut out: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (i, u) in table.units.iter().enumerate() {
        if let Some(d) = u.division.as_deref() {
            out.entry(d).or_default().push(i);
        }
    }
    out
}

/// [`primary_units`] looking for the division's units among `candidates` (ascending;
/// every unit of the division among them, e.g. its entry in [`units_by_division`]).
#[must_use]
pub fn primary_units_among(
    table: &Table,
    division: &str,
    candidates: impl IntoIterator<Item = usize>,
) -> Vec<usize> {
    primary_units_with(table, division, candidates, &MarkersByParent::of(table))
}

/// A table's skirmish markers by the id of their parent unit, built once for the
/// primary units of many divisions ([`primary_units_with`]).
#[derive(Debug, Clone, Default)]
pub struct MarkersByParent<'t> {
    /// Parent id → its markers (unit indices, ascending).
    by_parent: HashMap<&'t str, Vec<usize>>,
}

impl<'t> MarkersByParent<'t> {
    /// The markers of `table`.
    #[must_use]
    pub fn of(table: &'t Table) -> Self {
        let mut by_parent: HashMap<&str, Vec<usize>> = HashMap::new();
        for (i, u) in table.units.iter().enumerate() {
            if u.kind == UnitKind::Skirmisher
                && let Some(p) = &u.parent
            {
                by_parent.entry(p.as_str()).or_default().push(i);
            }
        }
        MarkersByParent { by_parent }
    }
}

/// [`primary_units_among`] with the table's markers known (`markers`, of the same
/// table).
#[must_use]
pub fn primary_units_with(
    table: &Table,
    division: &str,
    candidates: impl IntoIterator<Item = usize>,
    markers: &MarkersByParent<'_>,
) -> Vec<usize> {
    let primary: Vec<usize> = candidates
        .into_iter()
        .filter(|&i| {
            table.units.get(i).is_some_and(|u| {
                u.division.as_deref() == Some(division)
                    && matches!(u.kind, UnitKind::Infantry | UnitKind::Cavalry)
                    && !u.attached
            })
        })
        .collect();
    // Each marker whose parent is one of them, once.
    let mut skirmishers: Vec<usize> = primary
        .iter()
        .filter_map(|&j| markers.by_parent.get(table.units[j].id.as_str()))
        .flatten()
        .copied()
        .collect();
    skirmishers.sort_unstable();
    skirmishers.dedup();
    let mut out = primary;
    out.extend(skirmishers);
    out.sort_unstable();
    out
}

fn to_geo(b: &Base) -> geo::Polygon<f64> {
    let ring: Vec<geo::Coord<f64>> = b.vertices_ccw().iter().map(|p| geo::Coord { x: p.x, y: p.y }).collect();
    geo::Polygon::new(geo::LineString::new(ring), vec![])
}

/// A `geo` ring as our points, counter-clockwise, without the closing repeat.
pub(crate) fn ring_of(ls: &geo::LineString<f64>) -> Vec<Vec2> {
    let mut v: Vec<Vec2> = ls.coords().map(|c| Vec2::new(c.x, c.y)).collect();
    if v.len() > 1 && v.first() == v.last() {
        v.pop();
    }
    if signed_area(&v) < 0.0 {
        v.reverse();
    }
    v
}

/// A ring of our points as a `geo` polygon without holes.
pub(crate) fn geo_polygon(ring: &[Vec2]) -> geo::Polygon<f64> {
    geo::Polygon::new(
        geo::LineString::new(ring.iter().map(|p| geo::Coord { x: p.x, y: p.y }).collect()),
        vec![],
    )
}

/// The `r` buffer of filled counter-clockwise rings, holes filled
/// ([`crate::buffer`]: round corners circumscribed, at most [`ARC_EXCESS_MM`] outside).
fn buffered(rings: &[Vec<Vec2>], r: f64) -> Vec<Polygon> {
    buffer_outlines(rings, r, ARC_EXCESS_MM)
}

fn area_of(
    table: &Table,
    units: &[usize],
    book: &RuleBook,
    hull: bool,
) -> Result<Vec<Polygon>, GeometryError> {
    let r = book.distance_mm(RuleDistance::DeploymentArea)?;
    if units.iter().all(|&i| table.units[i].bases.is_empty()) {
        return Ok(Vec::new());
    }
    let rings: Vec<Vec<Vec2>> = if hull {
        let corners: Vec<Vec2> =
            units.iter().flat_map(|&i| table.units[i].bases.iter().flat_map(Base::vertices_ccw)).collect();
        vec![hull_points(corners)]
    } else {
        let bases: Vec<geo::Polygon<f64>> =
            units.iter().flat_map(|&i| table.units[i].bases.iter().map(to_geo)).collect();
        geo::unary_union(bases.iter()).0.iter().map(|p| ring_of(p.exterior())).collect()
    };
    Ok(buffered(&rings, r))
}

/// A division's deployment area; `None` when it has no primary units.
///
/// ```
/// use vedette_geometry::{Table, division_area};
/// let t = Table::from_json_str(r#"{"schema":"vedette/table/1","rules":"republique5","scale":"medium",
///   "units":[{"id":"r1","side":"fr","kind":"infantry","formation":"line","division":"d1",
///     "bases":[{"x":0,"y":0,"heading":90,"width":30,"depth":20}]}]}"#)?;
/// let a = division_area(&t, "d1", &t.rule_book()?)?.unwrap();
/// // A 30 x 20 base grown by 3": rectangle + four side strips + a full circle.
/// let r = 76.2;
/// let exact = 600.0 + 2.0 * r * (30.0 + 20.0) + std::f64::consts::PI * r * r;
/// assert!((a.area_mm2() - exact).abs() < 5.0);
/// # Ok::<(), vedette_geometry::GeometryError>(())
/// ```
pub fn division_area(
    table: &Table,
    division: &str,
    book: &RuleBook,
) -> Result<Option<DeploymentArea>, GeometryError> {
    division_area_of(table, division, &primary_units(table, division), book)
}

/// [`division_area`] from the division's primary units ([`primary_units`]).
///
/// # Errors
/// As [`division_area`].
pub fn division_area_of(
    table: &Table,
    division: &str,
    primary: &[usize],
    book: &RuleBook,
) -> Result<Option<DeploymentArea>, GeometryError> {
    let outlines = area_of(table, primary, book, false)?;
    Ok((!outlines.is_empty())
        .then(|| DeploymentArea { owner: AreaOwner::Division(division.to_string()), outlines }))
}

/// The points within `reach_mm` of any of `bases` (a leader's reach, 000 §2.3, §4.7,
/// §5.4): the buffer of their union, built as the deployment areas are (round corners
/// circumscribed, at most [`ARC_EXCESS_MM`] outside the true arcs). For drawing a reach;
/// the verdicts measure distances directly.
///
/// ```
/// use vedette_geometry::{Base, BaseSize, Pose, Vec2};
/// use vedette_geometry::command::deployment::reach_outline;
/// let b = Base::new(BaseSize::new(30.0, 20.0), Pose::new(Vec2::new(0.0, 0.0), 90.0));
/// let r = 76.2;
/// let area: f64 = reach_outline(&[b], r).iter().map(|p| p.area()).sum();
/// let exact = 600.0 + 2.0 * r * (30.0 + 20.0) + std::f64::consts::PI * r * r;
/// assert!((area - exact).abs() < 5.0);
/// ```
#[must_use]
pub fn reach_outline(bases: &[Base], reach_mm: f64) -> Vec<Polygon> {
    let polys: Vec<geo::Polygon<f64>> = bases.iter().map(to_geo).collect();
    if polys.is_empty() {
        return Vec::new();
    }
    let rings: Vec<Vec<Vec2>> =
        geo::unary_union(polys.iter()).0.iter().map(|p| ring_of(p.exterior())).collect();
    buffered(&rings, reach_mm)
}

/// A corps' deployment area: the 3" buffer of the convex hull of the primary units of
/// every division with units in the corps; `None` when there are none.
pub fn corps_area(
    table: &Table,
    corps: &str,
    book: &RuleBook,
) -> Result<Option<DeploymentArea>, GeometryError> {
    corps_area_among(table, corps, book, &units_by_division(table))
}

/// [`corps_area`] with each division's units known ([`units_by_division`]).
///
/// # Errors
/// As [`corps_area`].
pub fn corps_area_among(
    table: &Table,
    corps: &str,
    book: &RuleBook,
    by_division: &BTreeMap<&str, Vec<usize>>,
) -> Result<Option<DeploymentArea>, GeometryError> {
    corps_area_with(table, corps, book, by_division, &MarkersByParent::of(table))
}

/// [`corps_area_among`] with the table's markers known too ([`MarkersByParent`]).
///
/// # Errors
/// As [`corps_area`].
pub fn corps_area_with(
    table: &Table,
    corps: &str,
    book: &RuleBook,
    by_division: &BTreeMap<&str, Vec<usize>>,
    markers: &MarkersByParent<'_>,
) -> Result<Option<DeploymentArea>, GeometryError> {
    let mut divisions: Vec<&str> = table
        .units
        .iter()
        .filter(|u| u.corps.as_deref() == Some(corps))
        .filter_map(|u| u.division.as_deref())
        .collect();
    divisions.sort_unstable();
    divisions.dedup();
    let mut units: Vec<usize> = divisions
        .iter()
        .flat_map(|d| {
            primary_units_with(table, d, by_division.get(d).into_iter().flatten().copied(), markers)
        })
        .collect();
    units.sort_unstable();
    units.dedup();
    let outlines = area_of(table, &units, book, true)?;
    Ok((!outlines.is_empty())
        .then(|| DeploymentArea { owner: AreaOwner::Corps(corps.to_string()), outlines }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f64::consts::PI;

    const R: f64 = 76.2;

    fn ring(pts: &[(f64, f64)]) -> Vec<Vec2> {
        pts.iter().map(|&(x, y)| Vec2::new(x, y)).collect()
    }

    fn area(polys: &[Polygon]) -> f64 {
        polys.iter().map(Polygon::area).sum()
    }

    /// The circumscribed round corners lie outside the true arcs by at most
    /// `ARC_EXCESS_MM`, so the polygon's area exceeds the exact one by at most that times
    /// the arcs' length (`turn` radians of arc in all).
    fn assert_area(polys: &[Polygon], exact: f64, turn: f64) {
        let a = area(polys);
        assert!(a >= exact - 1e-6, "{a} below the exact {exact}");
        assert!(a <= exact + turn * (R + ARC_EXCESS_MM) * ARC_EXCESS_MM + 1e-6, "{a} against {exact}");
    }

    #[test]
    fn a_buffered_rectangle_is_the_rectangle_its_strips_and_a_circle() {
        let rect = ring(&[(0.0, 0.0), (30.0, 0.0), (30.0, 20.0), (0.0, 20.0)]);
        let out = buffered(&[rect], R);
        assert_eq!(out.len(), 1);
        assert_area(&out, 600.0 + 2.0 * R * 50.0 + PI * R * R, 2.0 * PI);
        // The straight sides are exact: the strip's outer edge passes through (15, -R).
        assert!(out[0].contains(Vec2::new(15.0, -R + 1e-6)));
        assert!(!out[0].contains(Vec2::new(15.0, -R - 1e-6)));
    }

    #[test]
    fn a_concave_corner_is_filled_once() {
        // An L: a 300 mm square less its 150 mm top-right quarter. Five convex corners of
        // a quarter turn, one concave where the two strips overlap in an R x R square.
        let l =
            ring(&[(0.0, 0.0), (300.0, 0.0), (300.0, 150.0), (150.0, 150.0), (150.0, 300.0), (0.0, 300.0)]);
        let out = buffered(&[l], R);
        assert_eq!(out.len(), 1);
        let exact = 67_500.0 + 1200.0 * R + (5.0 * PI / 4.0 - 1.0) * R * R;
        assert_area(&out, exact, 2.5 * PI);
        // The offset edges meet at the concave corner moved out by R on both axes.
        assert!(out[0].contains(Vec2::new(150.0 + R - 1e-6, 150.0 + R - 1e-6)));
        assert!(!out[0].contains(Vec2::new(150.0 + R + 1e-6, 150.0 + R + 1e-6)));
    }

    #[test]
    fn an_enclosed_gap_is_filled_and_two_far_rings_stay_apart() {
        // A frame 1000 mm square with 100 mm walls and a 50 mm opening in its left wall:
        // the buffer closes the opening, and the 800 mm gap it encloses is filled.
        let frame = crate::buffer::walled_frame();
        let out = buffered(&[frame], R);
        assert_eq!(out.len(), 1);
        assert!(out[0].holes.is_empty());
        assert!(out[0].contains(Vec2::new(500.0, 500.0)));
        // The buffered full square, less a dip where the opening meets the left side.
        let full = 1e6 + 4000.0 * R + PI * R * R;
        assert!(area(&out) < full && area(&out) > full - 50.0 * R, "{}", area(&out));
        // Two squares 500 mm apart: two outlines, each a buffered square.
        let a = ring(&[(0.0, 0.0), (10.0, 0.0), (10.0, 10.0), (0.0, 10.0)]);
        let b: Vec<Vec2> = a.iter().map(|&p| p + Vec2::new(510.0, 0.0)).collect();
        let out = buffered(&[a, b], R);
        assert_eq!(out.len(), 2);
        assert_area(&out, 2.0 * (100.0 + 40.0 * R + PI * R * R), 4.0 * PI);
    }

    #[test]
    fn a_narrow_notch_closes() {
        // A U whose 50 mm slot is narrower than 2R: the buffer bridges it, no hole left.
        let u = ring(&[
            (0.0, 0.0),
            (250.0, 0.0),
            (250.0, 200.0),
            (150.0, 200.0),
            (150.0, 50.0),
            (100.0, 50.0),
            (100.0, 200.0),
            (0.0, 200.0),
        ]);
        let out = buffered(&[u], R);
        assert_eq!(out.len(), 1);
        // The slot is inside; the rest is the buffered 250 x 200 rectangle except the dip
        // above the slot, whose floor lies below the rectangle's top offset line.
        assert!(out[0].contains(Vec2::new(125.0, 150.0)));
        assert!(out[0].contains(Vec2::new(125.0, 200.0 + R - 30.0)));
        assert!(area(&out) < 50_000.0 + 900.0 * R + PI * R * R);
    }

    /// Every answer of the indexed area against the area's own, to the bit.
    fn check_index(area: &DeploymentArea, bases: &[Base]) {
        let index = area.index();
        for b in bases {
            assert_eq!(index.fraction_of_base(b).to_bits(), area.fraction_of_base(b).to_bits(), "{b:?}");
            for inside in [true, false] {
                assert_eq!(
                    index.base_margin_mm_known(b, inside).to_bits(),
                    area.base_margin_mm_known(b, inside).to_bits(),
                    "{b:?} {inside}"
                );
            }
        }
    }

    fn area_of_rings(outlines: Vec<Polygon>) -> DeploymentArea {
        DeploymentArea { owner: AreaOwner::Division("d".into()), outlines }
    }

    proptest::proptest! {
        #![proptest_config(crate::test_support::proptest_config(60, 53))]
        /// The 3" areas of divisions of 1 to 30 bases scattered at any heading, asked
        /// about bases of any size and heading anywhere near them: the index answers as
        /// the area does.
        #[test]
        fn the_index_answers_as_the_area_on_scattered_divisions(
            division in proptest::collection::vec(((0.0f64..500.0, 0.0f64..300.0), -180.0f64..180.0), 1..30),
            asked in proptest::collection::vec(
                ((-100.0f64..600.0, -100.0f64..400.0), (5.0f64..150.0, 5.0f64..80.0), -180.0f64..180.0),
                40,
            ),
        ) {
            let base = |(x, y): (f64, f64), (w, d): (f64, f64), t: f64| {
                Base::new(crate::base::BaseSize::new(w, d), crate::base::Pose::new(Vec2::new(x, y), t))
            };
            let bases: Vec<Base> = division.iter().map(|&(c, t)| base(c, (40.0, 20.0), t)).collect();
            let area = area_of_rings(reach_outline(&bases, R));
            let asked: Vec<Base> = asked.iter().map(|&(c, s, t)| base(c, s, t)).collect();
            check_index(&area, &asked);
            // The division's own bases (wholly inside) too.
            check_index(&area, &bases);
        }
    }

    #[test]
    fn the_index_answers_as_the_area_on_ties_and_holes() {
        // Square bases on a 10 mm lattice, square to the table, against an area with a
        // hole and a second outline: sides on the outlines' edges, corners on their
        // vertices, boxes exactly as far from two edges.
        let square = |x: f64, y: f64, s: f64| ring(&[(x, y), (x + s, y), (x + s, y + s), (x, y + s)]);
        let star: Vec<Vec2> = (0..400)
            .map(|k| {
                let t = f64::from(k) / 400.0 * std::f64::consts::TAU;
                let r = 300.0 + 40.0 * (7.0 * t).sin();
                Vec2::new(500.0 + r * t.cos(), 500.0 + r * t.sin())
            })
            .collect();
        let outlines = vec![
            Polygon::new(square(0.0, 0.0, 1000.0), vec![square(400.0, 400.0, 200.0)]),
            Polygon::new(star, vec![]),
            Polygon::new(square(1100.0, 0.0, 100.0), vec![]),
        ];
        let area = area_of_rings(outlines);
        let mut bases = Vec::new();
        for i in 0..60 {
            for j in 0..20 {
                let c = Vec2::new(-50.0 + 20.0 * f64::from(i), -50.0 + 60.0 * f64::from(j));
                for (w, d, t) in [(40.0, 20.0, 0.0), (20.0, 20.0, 90.0), (30.0, 10.0, 45.0)] {
                    bases.push(Base::new(crate::base::BaseSize::new(w, d), crate::base::Pose::new(c, t)));
                }
            }
        }
        check_index(&area, &bases);
    }

    /// The primary units by a scan of every unit for markers (as before the markers
    /// were indexed).
    fn scanned_primary_units(table: &Table, division: &str) -> Vec<usize> {
        let primary: Vec<usize> = (0..table.units.len())
            .filter(|&i| {
                let u = &table.units[i];
                u.division.as_deref() == Some(division)
                    && matches!(u.kind, UnitKind::Infantry | UnitKind::Cavalry)
                    && !u.attached
            })
            .collect();
        let mut out = primary.clone();
        for (i, u) in table.units.iter().enumerate() {
            if u.kind == UnitKind::Skirmisher
                && let Some(p) = &u.parent
                && primary.iter().any(|&j| &table.units[j].id == p)
            {
                out.push(i);
            }
        }
        out.sort_unstable();
        out
    }

    #[test]
    fn indexed_markers_give_the_primary_units_a_scan_gives() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../samples");
        let mut checked = 0;
        for entry in std::fs::read_dir(dir).expect("the samples") {
            let path = entry.expect("a sample").path();
            let Ok(table) = Table::load(&path) else { continue };
            let markers = MarkersByParent::of(&table);
            let by_division = units_by_division(&table);
            for (d, members) in &by_division {
                let scanned = scanned_primary_units(&table, d);
                assert_eq!(primary_units_with(&table, d, members.iter().copied(), &markers), scanned, "{d}");
                assert_eq!(primary_units(&table, d), scanned, "{d}");
                checked += scanned.len();
            }
        }
        assert!(checked > 300, "{checked}");
    }
}
