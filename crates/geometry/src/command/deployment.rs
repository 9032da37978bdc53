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
//! Speed: the overlay's cost is in the round corners, most of whose arcs lie inside the
//! neighbouring units' buffers; the runs of arc vertices lying deep inside a piece that
//! stays (or inside an earlier unit's true buffer) reach the overlay as their chord
//! (`trimmed_corner`), which leaves the union, vertex for vertex, as it was.

use crate::base::Base;
use crate::convex::segment_distance_mm;
use crate::convex::{bbox, hull_points, point_distance_2, signed_area};
use crate::error::GeometryError;
use crate::polygon::{ConvexPolygon, Polygon};
use crate::rules::{RuleBook, RuleDistance};
use crate::segment::Segment;
use crate::table::{Table, Unit, UnitKind};
use crate::vec2::Vec2;
use std::collections::BTreeMap;

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
        let edges = || {
            self.outlines.iter().flat_map(|o| {
                let r = &o.exterior;
                (0..r.len()).map(move |i| Segment::new(r[i], r[(i + 1) % r.len()]))
            })
        };
        if inside {
            let poly = b.polygon();
            return edges().map(|e| segment_distance_mm(&e, poly.vertices())).fold(f64::INFINITY, f64::min);
        }
        let outside = |p: Vec2| {
            if self.outlines.iter().any(|o| o.contains(p)) {
                0.0
            } else {
                edges().map(|e| e.distance_to_point(p)).fold(f64::INFINITY, f64::min)
            }
        };
        -b.vertices_ccw().iter().map(|&p| outside(p)).fold(0.0, f64::max)
    }

    /// True when every base of the unit is inside.
    #[must_use]
    pub fn contains_unit(&self, u: &Unit) -> bool {
        u.bases.iter().all(|b| self.contains_base(b))
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

/// The round corner at `v` between outward normals `n0` and `n1` (turning
/// counter-clockwise), radius `r`, circumscribed: every edge is tangent to the arc.
fn corner(v: Vec2, n0: Vec2, n1: Vec2, r: f64) -> Vec<Vec2> {
    let turn = n0.cross(n1).atan2(n0.dot(n1));
    if turn <= 1e-12 {
        return Vec::new();
    }
    let step_max = 2.0 * (r / (r + ARC_EXCESS_MM)).acos();
    let n = (turn / step_max).ceil().max(1.0) as usize;
    let step = turn / n as f64;
    let out_r = r / (step / 2.0).cos();
    let mut pts = vec![v, v + n0 * r];
    for k in 0..n {
        pts.push(v + n0.rotated_deg(((k as f64 + 0.5) * step).to_degrees()) * out_r);
    }
    pts.push(v + n1 * r);
    pts
}

/// How deep inside a cover ([`Cover`]) a run of a round corner's vertices must lie for
/// [`trimmed_corner`] to cut it off, mm: far more than the polygon overlay's snapping
/// (about a millionth of a millimetre), so the cut edges stay away from the union's
/// boundary and leave it as it was.
const TRIM_DEPTH_MM: f64 = 0.05;

/// A convex region inside the buffer's pieces as they are fed to the overlay, with its
/// box: what a round corner's vertices are tested against before its arc is cut off.
enum Cover<'a> {
    /// A piece that is never trimmed (a side strip, a convex ring), or a round corner as
    /// the first pass of [`buffered_with`] left it, counter-clockwise.
    Piece {
        /// The ring.
        ring: &'a [Vec2],
        /// Each edge's start and inward unit normal (`None` for an edge of no length).
        lines: Vec<Option<(Vec2, Vec2)>>,
    },
    /// The points within `reach` of a convex ring (counter-clockwise) or of a point: inside
    /// the true buffer of ring `owner`, which its pieces cover. A corner of a later ring
    /// only may rely on it (a ring's trimmed pieces with the earlier rings' cover its true
    /// buffer, by induction over the rings; two rings leaning on each other would not).
    Near { ring: &'a [Vec2], reach: f64, owner: usize },
}

impl<'a> Cover<'a> {
    /// A piece that is never trimmed, counter-clockwise.
    fn piece(ring: &'a [Vec2]) -> Self {
        let n = ring.len();
        let lines = (0..n)
            .map(|i| (ring[(i + 1) % n] - ring[i]).normalized().map(|u| (ring[i], u.perp_left())))
            .collect();
        Cover::Piece { ring, lines }
    }

    /// The cover's box.
    fn bbox(&self) -> (Vec2, Vec2) {
        match self {
            Cover::Piece { ring, .. } => bbox(ring.iter().copied()),
            Cover::Near { ring, reach, .. } => {
                let (lo, hi) = bbox(ring.iter().copied());
                (lo - Vec2::new(*reach, *reach), hi + Vec2::new(*reach, *reach))
            }
        }
    }

    /// True when a corner of ring `ring` may rely on this cover.
    fn usable_by(&self, ring: usize) -> bool {
        match self {
            Cover::Piece { .. } => true,
            Cover::Near { owner, .. } => *owner < ring,
        }
    }

    /// True when `p` lies at least [`TRIM_DEPTH_MM`] inside.
    fn holds_deep(&self, p: Vec2) -> bool {
        match self {
            Cover::Piece { lines, .. } => {
                lines.iter().all(|l| l.is_some_and(|(a, inward)| inward.dot(p - a) >= TRIM_DEPTH_MM))
            }
            Cover::Near { ring, reach, .. } => {
                let d = reach - TRIM_DEPTH_MM;
                d > 0.0 && point_distance_2(p, ring) <= d * d
            }
        }
    }
}

/// A cover with its box.
type BoxedCover<'a> = (Cover<'a>, (Vec2, Vec2));

/// A round corner (`corner`'s polygon: its vertex, then the outer chain from one strip's
/// end round the arc to the next strip's end) without the runs of its outer chain that lie
/// deep inside one of `covers` (with their boxes): each such run is replaced by its
/// chord. The cap cut off is convex with every vertex deep inside one convex cover, so it
/// lies inside that cover, and the chord too: the union of all the pieces is unchanged,
/// and so is its boundary, which the cut never comes near. Most of a division's arcs lie
/// inside its neighbours' buffers; cutting them spares the overlay most of its segments
/// and crossings.
fn trimmed_corner(c: Vec<Vec2>, covers: &[&BoxedCover<'_>]) -> Vec<Vec2> {
    let (lo, hi) = bbox(c.iter().copied());
    let near: Vec<&BoxedCover<'_>> = covers
        .iter()
        .copied()
        .filter(|(_, (klo, khi))| klo.x <= hi.x && lo.x <= khi.x && klo.y <= hi.y && lo.y <= khi.y)
        .collect();
    if near.is_empty() || c.len() < 4 {
        return c;
    }
    let chain = &c[1..];
    let m = chain.len();
    let mut keep = vec![true; m];
    let mut k = 0;
    while k < m {
        // The longest run from `k` deep inside a single cover (exclusive end).
        let end = near
            .iter()
            .map(|(cov, (klo, khi))| {
                let mut j = k;
                while j < m && {
                    let p = chain[j];
                    klo.x <= p.x && p.x <= khi.x && klo.y <= p.y && p.y <= khi.y && cov.holds_deep(p)
                } {
                    j += 1;
                }
                j
            })
            .max()
            .unwrap_or(k);
        if end >= k + 3 {
            keep[k + 1..end - 1].iter_mut().for_each(|x| *x = false);
            k = end - 1;
        } else {
            k += 1;
        }
    }
    if keep.iter().all(|&x| x) {
        return c;
    }
    std::iter::once(c[0]).chain(chain.iter().zip(&keep).filter(|(_, k)| **k).map(|(p, _)| *p)).collect()
}

/// An edge's strip (none for an edge of no length) and the round corner at its end.
type EdgePieces = (Option<Vec<Vec2>>, Vec<Vec2>);

/// The `r` buffer of filled counter-clockwise rings, holes filled again.
fn buffered(rings: &[Vec<Vec2>], r: f64) -> Vec<Polygon> {
    buffered_with(rings, r, true)
}

/// [`buffered`], its round corners trimmed ([`trimmed_corner`]) or not (`trim`: the
/// tests compare the two).
fn buffered_with(rings: &[Vec<Vec2>], r: f64, trim: bool) -> Vec<Polygon> {
    let pieces = pieces_of(rings, r, trim);
    geo::unary_union(pieces.iter()).0.iter().map(|p| Polygon::new(ring_of(p.exterior()), vec![])).collect()
}

/// The pieces whose union is the `r` buffer of the rings: each ring, each edge's strip
/// and each round corner, trimmed or not.
fn pieces_of(rings: &[Vec<Vec2>], r: f64, trim: bool) -> Vec<geo::Polygon<f64>> {
    // For each ring, each edge's strip (none for an edge of no length) and the round
    // corner at its end (empty where the ring turns right or not at all).
    let edges: Vec<Vec<EdgePieces>> = rings
        .iter()
        .map(|ring| {
            let n = ring.len();
            if n < 3 {
                return Vec::new();
            }
            // Outward normal of each edge (the ring is counter-clockwise: outward is right).
            let normal = |i: usize| (ring[(i + 1) % n] - ring[i]).normalized().map(Vec2::perp_right);
            (0..n)
                .map(|i| {
                    let (a, b) = (ring[i], ring[(i + 1) % n]);
                    let strip = normal(i).map(|m| vec![a, a + m * r, b + m * r, b]);
                    // The corner at b, between this edge's normal and the next's.
                    let c = match (normal(i), normal((i + 1) % n)) {
                        (Some(m0), Some(m1)) => corner(b, m0, m1, r),
                        _ => Vec::new(),
                    };
                    (strip, c)
                })
                .collect()
        })
        .collect();
    // What the arcs may be cut against: the strips and the convex rings, which are never
    // trimmed; the true buffer of each convex ring, and of each vertex of the others.
    let convex: Vec<bool> = rings.iter().map(|g| g.len() >= 3 && is_convex(g)).collect();
    let mut covers: Vec<Cover<'_>> =
        edges.iter().flatten().filter_map(|(s, _)| s.as_deref()).map(Cover::piece).collect();
    for (owner, g) in rings.iter().enumerate().filter(|(_, g)| g.len() >= 3) {
        if convex[owner] {
            covers.push(Cover::piece(g));
            covers.push(Cover::Near { ring: g, reach: r, owner });
        } else {
            covers.extend(g.iter().map(|p| Cover::Near { ring: std::slice::from_ref(p), reach: r, owner }));
        }
    }
    let covers: Vec<BoxedCover<'_>> = covers
        .into_iter()
        .map(|c| {
            let b = c.bbox();
            (c, b)
        })
        .collect();
    // First pass: each ring's corners against the covers it may rely on.
    let mut corners: Vec<Vec<Vec<Vec2>>> = edges
        .iter()
        .enumerate()
        .map(|(i, ring_edges)| {
            let usable: Vec<&BoxedCover<'_>> = covers.iter().filter(|c| c.0.usable_by(i)).collect();
            ring_edges
                .iter()
                .map(
                    |(_, c)| {
                        if trim && c.len() >= 3 { trimmed_corner(c.clone(), &usable) } else { c.clone() }
                    },
                )
                .collect()
        })
        .collect();
    // Second pass: each ring's corners against the later rings' corners as the first
    // pass left them (convex, and inside the final union: the last ring's are final, and
    // each earlier ring's cut caps lie inside the later rings' ones, by induction). So the
    // arcs of two overlapping rings are cut on both sides, not only the later ring's.
    if trim {
        let firsts = corners.clone();
        let later: Vec<(usize, BoxedCover<'_>)> = firsts
            .iter()
            .enumerate()
            .flat_map(|(j, cs)| cs.iter().filter(|c| c.len() >= 3).map(move |c| (j, Cover::piece(c))))
            .map(|(j, c)| {
                let b = c.bbox();
                (j, (c, b))
            })
            .collect();
        for (i, cs) in corners.iter_mut().enumerate() {
            let usable: Vec<&BoxedCover<'_>> = later.iter().filter(|l| l.0 > i).map(|l| &l.1).collect();
            for c in cs.iter_mut().filter(|c| c.len() >= 3) {
                *c = trimmed_corner(std::mem::take(c), &usable);
            }
        }
    }
    let mut pieces: Vec<geo::Polygon<f64>> = Vec::new();
    for ((ring, ring_edges), ring_corners) in rings.iter().zip(&edges).zip(&corners) {
        if ring.len() < 3 {
            continue;
        }
        pieces.push(geo_polygon(ring));
        for ((strip, _), c) in ring_edges.iter().zip(ring_corners) {
            if let Some(strip) = strip {
                pieces.push(geo_polygon(strip));
            }
            if c.len() >= 3 {
                pieces.push(geo_polygon(c));
            }
        }
    }
    pieces
}

/// True when the counter-clockwise ring turns left (or goes straight) at every vertex.
fn is_convex(ring: &[Vec2]) -> bool {
    let n = ring.len();
    (0..n).all(|i| {
        let (a, b, c) = (ring[i], ring[(i + 1) % n], ring[(i + 2) % n]);
        (b - a).cross(c - b) >= 0.0
    })
}

fn area_of(
    table: &Table,
    units: &[usize],
    book: &RuleBook,
    hull: bool,
) -> Result<Vec<Polygon>, GeometryError> {
    let r = book.distance_mm(RuleDistance::DeploymentArea)?;
    let bases: Vec<geo::Polygon<f64>> =
        units.iter().flat_map(|&i| table.units[i].bases.iter().map(to_geo)).collect();
    if bases.is_empty() {
        return Ok(Vec::new());
    }
    let rings: Vec<Vec<Vec2>> = if hull {
        let corners: Vec<Vec2> =
            units.iter().flat_map(|&i| table.units[i].bases.iter().flat_map(Base::vertices_ccw)).collect();
        vec![hull_points(corners)]
    } else {
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
        .flat_map(|d| primary_units_among(table, d, by_division.get(d).into_iter().flatten().copied()))
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
        let frame = ring(&[
            (0.0, 0.0),
            (1000.0, 0.0),
            (1000.0, 1000.0),
            (0.0, 1000.0),
            (0.0, 525.0),
            (100.0, 525.0),
            (100.0, 900.0),
            (900.0, 900.0),
            (900.0, 100.0),
            (100.0, 100.0),
            (100.0, 475.0),
            (0.0, 475.0),
        ]);
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

    #[test]
    fn trimming_the_round_corners_leaves_the_union_as_it_was() {
        // Rectangles of a division's bases (30-120 mm wide, any heading), 15-60 mm apart
        // in rows and a second row behind: their buffers overlap every way. The trimmed
        // pieces give the very same outline, vertex for vertex, as the untrimmed ones.
        let mut rng = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            (rng >> 11) as f64 / (1u64 << 53) as f64
        };
        let mut trimmed_vertices = 0;
        for _ in 0..6 {
            let mut rings = Vec::new();
            for row in 0..2 {
                let mut x = 0.0;
                for _ in 0..6 {
                    let (w, d) = (30.0 + 90.0 * next(), 15.0 + 25.0 * next());
                    let c = Vec2::new(x + w / 2.0, row as f64 * (60.0 + 80.0 * next()) + 10.0 * next());
                    let turn = 20.0 * (next() - 0.5);
                    let corners = [(-w, -d), (w, -d), (w, d), (-w, d)]
                        .map(|(a, b)| c + Vec2::new(a / 2.0, b / 2.0).rotated_deg(turn));
                    rings.push(corners.to_vec());
                    x += w + 15.0 + 45.0 * next();
                }
            }
            let (a, b) = (buffered_with(&rings, R, true), buffered_with(&rings, R, false));
            assert_eq!(a, b);
            let points =
                |trim| pieces_of(&rings, R, trim).iter().map(|p| p.exterior().0.len()).sum::<usize>();
            trimmed_vertices += points(false) - points(true);
        }
        // The trimming did cut: the comparison is not of two identical inputs.
        assert!(trimmed_vertices > 1000, "{trimmed_vertices}");
    }

    #[test]
    fn a_corner_deep_inside_a_strip_is_cut_to_its_chord() {
        // A quarter corner at the origin, radius 10, wholly inside a large square: every
        // vertex of its chain but the two ends goes; far from the square it is kept whole.
        let c = corner(Vec2::new(0.0, 0.0), Vec2::new(1.0, 0.0), Vec2::new(0.0, 1.0), 10.0);
        let square = ring(&[(-50.0, -50.0), (50.0, -50.0), (50.0, 50.0), (-50.0, 50.0)]);
        let cover = Cover::piece(&square);
        let covers = [(cover, bbox(square.iter().copied()))];
        let usable: Vec<_> = covers.iter().collect();
        let cut = trimmed_corner(c.clone(), &usable);
        assert_eq!(cut, vec![c[0], c[1], c[c.len() - 1]]);
        let far: Vec<Vec2> = square.iter().map(|&p| p + Vec2::new(500.0, 0.0)).collect();
        let covers = [(Cover::piece(&far), bbox(far.iter().copied()))];
        let usable: Vec<_> = covers.iter().collect();
        assert_eq!(trimmed_corner(c.clone(), &usable), c);
        // Just inside a strip's edge by less than the depth: kept.
        let edge = ring(&[
            (-50.0, -50.0),
            (10.0 + 0.5 * TRIM_DEPTH_MM, -50.0),
            (10.0 + 0.5 * TRIM_DEPTH_MM, 50.0),
            (-50.0, 50.0),
        ]);
        let covers = [(Cover::piece(&edge), bbox(edge.iter().copied()))];
        let usable: Vec<_> = covers.iter().collect();
        let cut = trimmed_corner(c.clone(), &usable);
        assert!(cut.contains(&c[2]), "the arc's first vertex lies at x > 10 - depth");
    }
}
