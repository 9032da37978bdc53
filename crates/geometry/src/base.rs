//! Bases: oriented rectangles on the table.
//!
//! A base is its size (in its own frame) plus its pose on the table, as parry keeps a
//! shape and its isometry apart. The base's own frame has x to its right and y to its
//! front; the front edge faces along the heading.
//!
//! # Units
//! Millimetres for lengths and positions, degrees counter-clockwise from +x for headings.

use crate::polygon::ConvexPolygon;
use crate::segment::{ClosestPoints, Segment};
use crate::vec2::Vec2;
use serde::{Deserialize, Serialize};

/// Gap below which two shapes count as touching, in mm.
///
/// Rotating a base by a heading in degrees rounds its corners at about 1e-13 mm; a
/// nanometre absorbs that noise and is far below anything a player can measure.
pub const CONTACT_TOLERANCE_MM: f64 = 1e-9;

/// The size of a base in its own frame.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct BaseSize {
    /// Frontage: the length of the front edge, in mm.
    pub width: f64,
    /// Depth from front edge to rear edge, in mm.
    pub depth: f64,
}

impl BaseSize {
    /// A size from width (frontage) and depth, in mm.
    #[must_use]
    pub const fn new(width: f64, depth: f64) -> Self {
        BaseSize { width, depth }
    }
}

/// Where a base stands: its centre and the direction its front edge faces.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Pose {
    /// The centre of the base, in table mm.
    pub centre: Vec2,
    /// Degrees counter-clockwise from +x: the direction the front edge faces.
    pub heading_deg: f64,
}

impl Pose {
    /// A pose from centre and heading.
    #[must_use]
    pub const fn new(centre: Vec2, heading_deg: f64) -> Self {
        Pose { centre, heading_deg }
    }
}

/// The four corners of a base, named from the base's own point of view.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Corners {
    /// Left end of the front edge.
    pub front_left: Vec2,
    /// Right end of the front edge.
    pub front_right: Vec2,
    /// Right end of the rear edge.
    pub rear_right: Vec2,
    /// Left end of the rear edge.
    pub rear_left: Vec2,
}

/// An oriented rectangular base: size plus pose.
///
/// ```
/// use vedette_geometry::{Base, BaseSize, Pose, Vec2};
/// // A 30 x 20 mm infantry base facing "up" the table (+y).
/// let b = Base::new(BaseSize::new(30.0, 20.0), Pose::new(Vec2::new(100.0, 100.0), 90.0));
/// let front = b.front_edge();
/// assert!((front.a.x - 85.0).abs() < 1e-9 && (front.a.y - 110.0).abs() < 1e-9);
/// assert!(b.contains(Vec2::new(114.0, 91.0)));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(from = "BaseSpec", into = "BaseSpec")]
pub struct Base {
    size: BaseSize,
    pose: Pose,
    /// Unit vector along the heading (cached: every query needs it).
    forward: Vec2,
    meta: BaseMeta,
}

/// What a scan knows about a base beyond its geometry. Empty for hand-built tables.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct BaseMeta {
    /// The fiducial tag id the base was found by.
    pub tag: Option<u32>,
    /// Standard uncertainty of the centre position, mm.
    pub sigma_mm: Option<f64>,
    /// Standard uncertainty of the heading, degrees.
    pub sigma_heading_deg: Option<f64>,
    /// The base's number in its unit as the roster counts them, when a scan left out
    /// bases before it (their tags were not seen): labels and selectors (`unit#2`) use
    /// it, so a missing base never renumbers the others.
    pub slot: Option<usize>,
    /// The base's tag was not seen: its place was inferred from its unit's formation
    /// and the bases found beside it (issue 18).
    pub inferred: bool,
    /// How a scan found the base: by its tag, or fitted as a rectangle of its roster
    /// size to the photo (issue 37).
    pub found: Option<Found>,
    /// For a fitted base: whether the photo showed which edge is its front, or the
    /// facing rests on priors (the side's table edge) and may be the wrong way round.
    pub facing: Option<Facing>,
}

/// How a scan found a base (`"found"` in table files).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Found {
    /// Its tag was read.
    Tag,
    /// A rectangle of the unit's base size fitted to the photo's base edges (an
    /// untagged base, issue 37).
    Fitted,
}

/// Whether a fitted base's facing was seen in the photo (`"facing"` in table files).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Facing {
    /// The photo shows which edge is the front (guns' barrels, horses' heads).
    Seen,
    /// The photo does not tell the front from the rear: the facing is assumed from
    /// priors (toward the enemy: its table edge, or its nearest unit for a unit standing
    /// along the table); it may be the wrong way round.
    Assumed,
}

/// The table-file form of a base: `{"x", "y", "heading", "width", "depth"}`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BaseSpec {
    /// Centre x in table mm.
    pub x: f64,
    /// Centre y in table mm.
    pub y: f64,
    /// Degrees counter-clockwise from +x, the direction the front edge faces.
    pub heading: f64,
    /// Frontage in mm (along the front edge).
    pub width: f64,
    /// Depth in mm (front to back).
    pub depth: f64,
    /// The fiducial tag id the base was found by (scans only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tag: Option<u32>,
    /// Standard uncertainty of the centre position in mm (scans only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sigma_mm: Option<f64>,
    /// Standard uncertainty of the heading in degrees (scans only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sigma_heading_deg: Option<f64>,
    /// The base's number in its unit as the roster counts them, written by a scan when
    /// bases before it were not found: `unit#slot` names it (scans only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slot: Option<usize>,
    /// Scans only: the base's tag was not seen; its place is inferred from its unit's
    /// formation and the bases found beside it, with a larger `sigma_mm`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub inferred: bool,
    /// Scans only: `tag` when the base was found by its tag, `fitted` when it was
    /// fitted to the photo as a rectangle of its roster size (untagged bases).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub found: Option<Found>,
    /// Fitted bases only: `seen` when the photo showed its front, `assumed` when the
    /// facing rests on priors and may be the wrong way round.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub facing: Option<Facing>,
}

impl From<BaseSpec> for Base {
    fn from(s: BaseSpec) -> Self {
        Base::new(BaseSize::new(s.width, s.depth), Pose::new(Vec2::new(s.x, s.y), s.heading)).with_meta(
            BaseMeta {
                tag: s.tag,
                sigma_mm: s.sigma_mm,
                sigma_heading_deg: s.sigma_heading_deg,
                slot: s.slot,
                inferred: s.inferred,
                found: s.found,
                facing: s.facing,
            },
        )
    }
}

impl From<Base> for BaseSpec {
    fn from(b: Base) -> Self {
        BaseSpec {
            x: b.pose.centre.x,
            y: b.pose.centre.y,
            heading: b.pose.heading_deg,
            width: b.size.width,
            depth: b.size.depth,
            tag: b.meta.tag,
            sigma_mm: b.meta.sigma_mm,
            sigma_heading_deg: b.meta.sigma_heading_deg,
            slot: b.meta.slot,
            inferred: b.meta.inferred,
            found: b.meta.found,
            facing: b.meta.facing,
        }
    }
}

impl Base {
    /// A base of the given size standing at the given pose.
    #[must_use]
    pub fn new(size: BaseSize, pose: Pose) -> Self {
        Base { size, pose, forward: Vec2::from_heading_deg(pose.heading_deg), meta: BaseMeta::default() }
    }

    /// The same base carrying scan metadata.
    #[must_use]
    pub fn with_meta(mut self, meta: BaseMeta) -> Base {
        self.meta = meta;
        self
    }

    /// Scan metadata (empty for hand-built tables).
    #[must_use]
    pub fn meta(&self) -> BaseMeta {
        self.meta
    }

    /// The base's size.
    #[must_use]
    pub fn size(&self) -> BaseSize {
        self.size
    }

    /// The base's pose.
    #[must_use]
    pub fn pose(&self) -> Pose {
        self.pose
    }

    /// The centre, in table mm.
    #[must_use]
    pub fn centre(&self) -> Vec2 {
        self.pose.centre
    }

    /// The heading, degrees counter-clockwise from +x.
    #[must_use]
    pub fn heading_deg(&self) -> f64 {
        self.pose.heading_deg
    }

    /// Frontage in mm.
    #[must_use]
    pub fn width(&self) -> f64 {
        self.size.width
    }

    /// Depth in mm.
    #[must_use]
    pub fn depth(&self) -> f64 {
        self.size.depth
    }

    /// Area in mm².
    #[must_use]
    pub fn area(&self) -> f64 {
        self.size.width * self.size.depth
    }

    /// Unit vector the front edge faces.
    #[must_use]
    pub fn forward(&self) -> Vec2 {
        self.forward
    }

    /// Unit vector to the base's right (seen from the base, facing forward).
    #[must_use]
    pub fn right(&self) -> Vec2 {
        self.forward.perp_right()
    }

    /// The same base moved to a new pose.
    #[must_use]
    pub fn with_pose(&self, pose: Pose) -> Base {
        Base::new(self.size, pose).with_meta(self.meta)
    }

    /// The same base (pose, facing and metadata) with another size: what
    /// `Base::new(size, self.pose()).with_meta(self.meta())` gives, without turning the
    /// heading into a facing again.
    #[must_use]
    pub(crate) fn with_size(&self, size: BaseSize) -> Base {
        Base { size, ..*self }
    }

    /// Table coordinates to the base's frame (x to its right, y to its front, origin at
    /// its centre).
    #[must_use]
    pub fn to_local(&self, p: Vec2) -> Vec2 {
        let d = p - self.pose.centre;
        Vec2::new(d.dot(self.right()), d.dot(self.forward))
    }

    /// The base's frame to table coordinates.
    #[must_use]
    pub fn to_table(&self, local: Vec2) -> Vec2 {
        self.pose.centre + self.right() * local.x + self.forward * local.y
    }

    /// The four corners.
    #[must_use]
    pub fn corners(&self) -> Corners {
        let hw = self.size.width / 2.0;
        let hd = self.size.depth / 2.0;
        Corners {
            front_left: self.to_table(Vec2::new(-hw, hd)),
            front_right: self.to_table(Vec2::new(hw, hd)),
            rear_right: self.to_table(Vec2::new(hw, -hd)),
            rear_left: self.to_table(Vec2::new(-hw, -hd)),
        }
    }

    /// The corners in counter-clockwise order: front-left, rear-left, rear-right,
    /// front-right.
    #[must_use]
    pub fn vertices_ccw(&self) -> [Vec2; 4] {
        let c = self.corners();
        [c.front_left, c.rear_left, c.rear_right, c.front_right]
    }

    /// The base as a convex polygon.
    #[must_use]
    pub fn polygon(&self) -> ConvexPolygon {
        ConvexPolygon::from_ccw_unchecked(self.vertices_ccw().to_vec())
    }

    /// The front edge, from its left end to its right end.
    #[must_use]
    pub fn front_edge(&self) -> Segment {
        let c = self.corners();
        Segment::new(c.front_left, c.front_right)
    }

    /// The rear edge, from its left end to its right end.
    #[must_use]
    pub fn rear_edge(&self) -> Segment {
        let c = self.corners();
        Segment::new(c.rear_left, c.rear_right)
    }

    /// The left edge, from rear to front.
    #[must_use]
    pub fn left_edge(&self) -> Segment {
        let c = self.corners();
        Segment::new(c.rear_left, c.front_left)
    }

    /// The right edge, from rear to front.
    #[must_use]
    pub fn right_edge(&self) -> Segment {
        let c = self.corners();
        Segment::new(c.rear_right, c.front_right)
    }

    /// The four edges: front, right, rear, left.
    #[must_use]
    pub fn edges(&self) -> [Segment; 4] {
        [self.front_edge(), self.right_edge(), self.rear_edge(), self.left_edge()]
    }

    /// The midpoint of the front edge.
    #[must_use]
    pub fn front_midpoint(&self) -> Vec2 {
        self.pose.centre + self.forward * (self.size.depth / 2.0)
    }

    /// Axis-aligned bounding box as (min corner, max corner).
    #[must_use]
    pub fn aabb(&self) -> (Vec2, Vec2) {
        let f = self.forward;
        let ex = (f.y.abs() * self.size.width + f.x.abs() * self.size.depth) / 2.0;
        let ey = (f.x.abs() * self.size.width + f.y.abs() * self.size.depth) / 2.0;
        let c = self.pose.centre;
        (Vec2::new(c.x - ex, c.y - ey), Vec2::new(c.x + ex, c.y + ey))
    }

    /// True when `p` lies in the closed rectangle (edges included, within
    /// [`CONTACT_TOLERANCE_MM`]).
    #[must_use]
    pub fn contains(&self, p: Vec2) -> bool {
        let l = self.to_local(p);
        l.x.abs() <= self.size.width / 2.0 + CONTACT_TOLERANCE_MM
            && l.y.abs() <= self.size.depth / 2.0 + CONTACT_TOLERANCE_MM
    }

    /// The point of the base closest to `p` (`p` itself when inside).
    #[must_use]
    pub fn closest_point(&self, p: Vec2) -> Vec2 {
        let l = self.to_local(p);
        let hw = self.size.width / 2.0;
        let hd = self.size.depth / 2.0;
        self.to_table(Vec2::new(l.x.clamp(-hw, hw), l.y.clamp(-hd, hd)))
    }

    /// Distance from `p` to the base, in mm (zero inside).
    #[must_use]
    pub fn distance_to_point(&self, p: Vec2) -> f64 {
        let l = self.to_local(p);
        let dx = (l.x.abs() - self.size.width / 2.0).max(0.0);
        let dy = (l.y.abs() - self.size.depth / 2.0).max(0.0);
        dx.hypot(dy)
    }

    /// Half the extent of the base projected on the unit axis `n`.
    fn half_extent_on(&self, n: Vec2) -> f64 {
        (self.size.width * self.right().dot(n).abs() + self.size.depth * self.forward.dot(n).abs()) / 2.0
    }

    /// The largest gap between the two bases' projections over the four rectangle axes
    /// (separating-axis test). Positive: separated by at least that much; negative: they
    /// overlap on every axis by at least its magnitude.
    #[must_use]
    pub fn separation(&self, o: &Base) -> f64 {
        let axes = [self.forward, self.right(), o.forward, o.right()];
        let d = o.pose.centre - self.pose.centre;
        axes.iter()
            .map(|&n| d.dot(n).abs() - self.half_extent_on(n) - o.half_extent_on(n))
            .fold(f64::NEG_INFINITY, f64::max)
    }

    /// True when the closed bases share a point: they overlap or touch (within
    /// [`CONTACT_TOLERANCE_MM`]).
    #[must_use]
    pub fn intersects(&self, o: &Base) -> bool {
        self.separation(o) <= CONTACT_TOLERANCE_MM
    }

    /// True when the bases' interiors overlap (touching edges do not count).
    #[must_use]
    pub fn overlaps(&self, o: &Base) -> bool {
        self.separation(o) < -CONTACT_TOLERANCE_MM
    }

    /// The exact closest points between two bases, edge to edge.
    ///
    /// The distance is zero exactly when [`Base::intersects`] holds; then both points are
    /// one shared point (a corner inside the other base, or where two edges cross).
    ///
    /// ```
    /// use vedette_geometry::{Base, BaseSize, Pose, Vec2};
    /// let a = Base::new(BaseSize::new(30.0, 20.0), Pose::new(Vec2::new(0.0, 0.0), 90.0));
    /// let b = Base::new(BaseSize::new(30.0, 20.0), Pose::new(Vec2::new(0.0, 58.1), 270.0));
    /// let c = a.closest_points(&b);
    /// assert!((c.distance_mm - 38.1).abs() < 1e-9); // 1.5 inches edge to edge
    /// ```
    #[must_use]
    pub fn closest_points(&self, o: &Base) -> ClosestPoints {
        if self.intersects(o) {
            let p = self.shared_point(o);
            return ClosestPoints { distance_mm: 0.0, from: p, to: p };
        }
        // Disjoint convex polygons in the plane: the closest pair has a corner of one.
        let mut best = ClosestPoints { distance_mm: f64::INFINITY, from: Vec2::ZERO, to: Vec2::ZERO };
        for v in self.vertices_ccw() {
            let q = o.closest_point(v);
            let d = v.distance(q);
            if d < best.distance_mm {
                best = ClosestPoints { distance_mm: d, from: v, to: q };
            }
        }
        for v in o.vertices_ccw() {
            let q = self.closest_point(v);
            let d = v.distance(q);
            if d < best.distance_mm {
                best = ClosestPoints { distance_mm: d, from: q, to: v };
            }
        }
        best
    }

    /// Edge-to-edge distance to another base, in mm.
    #[must_use]
    pub fn distance(&self, o: &Base) -> f64 {
        self.closest_points(o).distance_mm
    }

    /// A point common to two intersecting bases (or, when they only touch within the
    /// tolerance, the midpoint of their closest corners).
    fn shared_point(&self, o: &Base) -> Vec2 {
        if let Some(v) = self.vertices_ccw().into_iter().find(|&v| o.contains(v)) {
            return v;
        }
        if let Some(v) = o.vertices_ccw().into_iter().find(|&v| self.contains(v)) {
            return v;
        }
        for e in self.edges() {
            for f in o.edges() {
                if let Some(p) = e.intersection(&f) {
                    return p;
                }
            }
        }
        let mut best = (f64::INFINITY, self.pose.centre);
        for v in self.vertices_ccw() {
            let q = o.closest_point(v);
            let d = v.distance(q);
            if d < best.0 {
                best = (d, v.lerp(q, 0.5));
            }
        }
        for v in o.vertices_ccw() {
            let q = self.closest_point(v);
            let d = v.distance(q);
            if d < best.0 {
                best = (d, v.lerp(q, 0.5));
            }
        }
        best.1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_abs_diff_eq;

    /// Issue 37: how a scan found a base, and whether its facing was seen, survive a
    /// table file; hand-made bases write neither; a value the format does not know is
    /// refused.
    #[test]
    fn found_and_facing_round_trip() {
        let json = r#"{"x":1,"y":2,"heading":90,"width":30,"depth":20,"sigma_mm":0.5,"found":"fitted","facing":"assumed"}"#;
        let b: Base = serde_json::from_str(json).unwrap();
        assert_eq!((b.meta().found, b.meta().facing), (Some(Found::Fitted), Some(Facing::Assumed)));
        let back = serde_json::to_string(&b).unwrap();
        assert!(back.contains(r#""found":"fitted","facing":"assumed""#), "{back}");
        let plain = Base::new(BaseSize::new(30.0, 20.0), Pose::new(Vec2::new(1.0, 2.0), 90.0));
        let text = serde_json::to_string(&plain).unwrap();
        assert!(!text.contains("found") && !text.contains("facing"), "{text}");
        assert!(serde_json::from_str::<Base>(&json.replace("assumed", "maybe")).is_err());
        assert!(serde_json::from_str::<Base>(&json.replace("fitted", "guessed")).is_err());
    }

    fn base(x: f64, y: f64, heading: f64, w: f64, d: f64) -> Base {
        Base::new(BaseSize::new(w, d), Pose::new(Vec2::new(x, y), heading))
    }

    #[test]
    fn corners_follow_the_heading() {
        // Facing +x: the front edge is the right-hand side of the rectangle.
        let b = base(0.0, 0.0, 0.0, 30.0, 20.0);
        let c = b.corners();
        assert_abs_diff_eq!(c.front_left, Vec2::new(10.0, 15.0), epsilon = 1e-12);
        assert_abs_diff_eq!(c.front_right, Vec2::new(10.0, -15.0), epsilon = 1e-12);
        assert_abs_diff_eq!(c.rear_left, Vec2::new(-10.0, 15.0), epsilon = 1e-12);
        assert_abs_diff_eq!(c.rear_right, Vec2::new(-10.0, -15.0), epsilon = 1e-12);
        assert_abs_diff_eq!(b.front_midpoint(), Vec2::new(10.0, 0.0), epsilon = 1e-12);
        assert_abs_diff_eq!(b.polygon().area(), 600.0, epsilon = 1e-9);
    }

    #[test]
    fn aabb_of_rotated_base() {
        let b = base(0.0, 0.0, 45.0, 20.0, 20.0);
        let (lo, hi) = b.aabb();
        let h = 20.0 * std::f64::consts::SQRT_2 / 2.0;
        assert_abs_diff_eq!(lo, Vec2::new(-h, -h), epsilon = 1e-9);
        assert_abs_diff_eq!(hi, Vec2::new(h, h), epsilon = 1e-9);
    }

    #[test]
    fn containment_includes_edges() {
        let b = base(50.0, 50.0, 90.0, 30.0, 20.0);
        assert!(b.contains(Vec2::new(65.0, 60.0)));
        assert!(!b.contains(Vec2::new(65.0001, 60.0)));
        assert!(!b.contains(Vec2::new(50.0, 60.0001)));
    }

    #[test]
    fn facing_bases_at_one_and_a_half_inches() {
        let a = base(0.0, 0.0, 90.0, 30.0, 20.0);
        let b = base(0.0, 20.0 + 38.1, 270.0, 30.0, 20.0);
        let c = a.closest_points(&b);
        assert_abs_diff_eq!(c.distance_mm, 38.1, epsilon = 1e-9);
        assert_abs_diff_eq!(c.from.y, 10.0, epsilon = 1e-9);
        assert_abs_diff_eq!(c.to.y, 48.1, epsilon = 1e-9);
    }

    #[test]
    fn touching_bases_are_at_zero() {
        // Side by side in line, sharing an edge.
        let a = base(0.0, 0.0, 90.0, 30.0, 20.0);
        let b = base(30.0, 0.0, 90.0, 30.0, 20.0);
        assert!(a.intersects(&b));
        assert!(!a.overlaps(&b));
        assert_eq!(a.distance(&b), 0.0);
        // Corner to corner only.
        let c = base(30.0, 20.0, 90.0, 30.0, 20.0);
        assert_eq!(a.distance(&c), 0.0);
        let p = a.closest_points(&c);
        assert_abs_diff_eq!(p.from, Vec2::new(15.0, 10.0), epsilon = 1e-9);
    }

    #[test]
    fn overlapping_crossed_bases() {
        // A plus sign: no corner of either lies inside the other.
        let a = base(0.0, 0.0, 0.0, 10.0, 40.0);
        let b = base(0.0, 0.0, 90.0, 10.0, 40.0);
        assert!(a.overlaps(&b));
        let c = a.closest_points(&b);
        assert_eq!(c.distance_mm, 0.0);
        assert!(a.contains(c.from) && b.contains(c.from));
    }

    #[test]
    fn rotated_corner_to_edge() {
        // A 10 mm square turned 45° (a diamond) whose lowest corner is 5 mm above a
        // base's front edge.
        let a = base(0.0, 0.0, 90.0, 30.0, 20.0);
        let half_diagonal = 5.0 * std::f64::consts::SQRT_2;
        let b = base(0.0, 10.0 + 5.0 + half_diagonal, 45.0, 10.0, 10.0);
        let c = a.closest_points(&b);
        assert_abs_diff_eq!(c.distance_mm, 5.0, epsilon = 1e-9);
        assert_abs_diff_eq!(c.from, Vec2::new(0.0, 10.0), epsilon = 1e-9);
        assert_abs_diff_eq!(c.to, Vec2::new(0.0, 15.0), epsilon = 1e-9);
    }

    #[test]
    fn far_bases_use_corner_to_corner() {
        let a = base(0.0, 0.0, 90.0, 30.0, 20.0);
        let b = base(100.0, 100.0, 90.0, 30.0, 20.0);
        // Closest corners: (15, 10) and (85, 90).
        assert_abs_diff_eq!(a.distance(&b), (70.0f64 * 70.0 + 80.0 * 80.0).sqrt(), epsilon = 1e-9);
    }

    #[test]
    fn spec_round_trip() {
        let json = r#"{"x":412.0,"y":300.5,"heading":90.0,"width":30.0,"depth":20.0}"#;
        let b: Base = serde_json::from_str(json).unwrap();
        assert_eq!(b.centre(), Vec2::new(412.0, 300.5));
        assert_eq!(serde_json::to_string(&b).unwrap(), json);
    }
}
