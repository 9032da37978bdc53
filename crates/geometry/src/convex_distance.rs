//! The exact closest points between two convex polygons (a clipped base and a base, a
//! zone piece and a unit), for constructions that measure from part of a base: the
//! classic facing arc, the cavalry reaction zone.

use crate::base::{Base, CONTACT_TOLERANCE_MM};
use crate::polygon::ConvexPolygon;
use crate::segment::{ClosestPoints, Segment};
use crate::vec2::Vec2;

impl ConvexPolygon {
    /// The edges, counter-clockwise (a single segment for a two-point polygon).
    #[must_use]
    pub fn edges(&self) -> Vec<Segment> {
        let v = self.vertices();
        match v.len() {
            0 => Vec::new(),
            1 => vec![Segment::new(v[0], v[0])],
            2 => vec![Segment::new(v[0], v[1])],
            n => (0..n).map(|i| Segment::new(v[i], v[(i + 1) % n])).collect(),
        }
    }

    /// True when `p` lies inside or on the boundary, within [`CONTACT_TOLERANCE_MM`].
    #[must_use]
    pub fn contains_with_tolerance(&self, p: Vec2) -> bool {
        self.vertices().len() >= 3
            && self.half_planes().iter().all(|h| h.signed_distance(p) >= -CONTACT_TOLERANCE_MM)
    }

    /// The exact closest points between two convex polygons (`from` on `self`); zero
    /// when they touch or overlap. `None` when either has no vertices.
    ///
    /// Degenerate polygons (a point, a segment: what clipping leaves of a base that only
    /// touches a zone) are measured as what they are.
    ///
    /// ```
    /// use vedette_geometry::{ConvexPolygon, Vec2};
    /// let sq = |x: f64| ConvexPolygon::from_ccw_unchecked(vec![
    ///     Vec2::new(x, 0.0), Vec2::new(x + 1.0, 0.0), Vec2::new(x + 1.0, 1.0), Vec2::new(x, 1.0)]);
    /// let c = sq(0.0).closest_points(&sq(3.0)).unwrap();
    /// assert_eq!(c.distance_mm, 2.0);
    /// ```
    #[must_use]
    pub fn closest_points(&self, o: &ConvexPolygon) -> Option<ClosestPoints> {
        if self.vertices().is_empty() || o.vertices().is_empty() {
            return None;
        }
        if let Some(&p) = self.vertices().iter().find(|&&p| o.contains_with_tolerance(p)) {
            return Some(ClosestPoints { distance_mm: 0.0, from: p, to: p });
        }
        if let Some(&p) = o.vertices().iter().find(|&&p| self.contains_with_tolerance(p)) {
            return Some(ClosestPoints { distance_mm: 0.0, from: p, to: p });
        }
        let mut best: Option<ClosestPoints> = None;
        for e in self.edges() {
            for f in o.edges() {
                let c = e.closest_points(&f);
                if best.is_none_or(|b| c.distance_mm < b.distance_mm) {
                    best = Some(c);
                }
            }
        }
        best
    }

    /// Edge-to-edge distance to a base, in mm; `None` for an empty polygon.
    #[must_use]
    pub fn distance_to_base(&self, b: &Base) -> Option<f64> {
        self.closest_points(&b.polygon()).map(|c| c.distance_mm)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::{BaseSize, Pose};

    #[test]
    fn segment_to_square() {
        let seg = ConvexPolygon::from_ccw_unchecked(vec![Vec2::new(0.0, 5.0), Vec2::new(10.0, 5.0)]);
        let b = Base::new(BaseSize::new(10.0, 2.0), Pose::new(Vec2::new(5.0, 0.0), 90.0));
        assert_eq!(seg.distance_to_base(&b), Some(4.0));
        let point = ConvexPolygon::from_ccw_unchecked(vec![Vec2::new(5.0, 1.0)]);
        assert_eq!(point.distance_to_base(&b), Some(0.0));
        assert_eq!(ConvexPolygon::default().distance_to_base(&b), None);
    }
}
