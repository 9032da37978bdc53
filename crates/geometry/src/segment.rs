//! Line segments and the closest points between them.

use crate::vec2::Vec2;
use serde::{Deserialize, Serialize};

/// A straight segment from `a` to `b`, in table millimetres.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Segment {
    /// Start point.
    pub a: Vec2,
    /// End point.
    pub b: Vec2,
}

/// A pair of closest points and the distance between them.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct ClosestPoints {
    /// Distance in mm (zero when the shapes touch or overlap).
    pub distance_mm: f64,
    /// The point on the first shape.
    pub from: Vec2,
    /// The point on the second shape.
    pub to: Vec2,
}

impl ClosestPoints {
    /// The same pair seen from the other shape.
    #[must_use]
    pub fn swapped(self) -> ClosestPoints {
        ClosestPoints { distance_mm: self.distance_mm, from: self.to, to: self.from }
    }
}

impl Segment {
    /// A segment from two points.
    #[must_use]
    pub const fn new(a: Vec2, b: Vec2) -> Self {
        Segment { a, b }
    }

    /// Length in mm.
    #[must_use]
    pub fn length(&self) -> f64 {
        self.a.distance(self.b)
    }

    /// The midpoint.
    #[must_use]
    pub fn midpoint(&self) -> Vec2 {
        self.a.lerp(self.b, 0.5)
    }

    /// The point at parameter `t` (0 at `a`, 1 at `b`).
    #[must_use]
    pub fn at(&self, t: f64) -> Vec2 {
        self.a.lerp(self.b, t)
    }

    /// The same segment run the other way.
    #[must_use]
    pub fn reversed(&self) -> Segment {
        Segment::new(self.b, self.a)
    }

    /// The parameter in [0, 1] of the point of the segment closest to `p`.
    #[must_use]
    pub fn closest_parameter(&self, p: Vec2) -> f64 {
        let d = self.b - self.a;
        let l2 = d.length_2();
        if l2 == 0.0 {
            return 0.0;
        }
        ((p - self.a).dot(d) / l2).clamp(0.0, 1.0)
    }

    /// The point of the segment closest to `p`.
    #[must_use]
    pub fn closest_point(&self, p: Vec2) -> Vec2 {
        self.at(self.closest_parameter(p))
    }

    /// Distance from `p` to the segment (mm).
    #[must_use]
    pub fn distance_to_point(&self, p: Vec2) -> f64 {
        self.closest_point(p).distance(p)
    }

    /// The point where two segments cross, if they do (touching counts).
    #[must_use]
    pub fn intersection(&self, o: &Segment) -> Option<Vec2> {
        let r = self.b - self.a;
        let s = o.b - o.a;
        let denom = r.cross(s);
        let qp = o.a - self.a;
        if denom == 0.0 {
            // Parallel: they meet only if collinear and overlapping; report an endpoint.
            if qp.cross(r) != 0.0 {
                return None;
            }
            for p in [o.a, o.b] {
                if self.distance_to_point(p) == 0.0 {
                    return Some(p);
                }
            }
            for p in [self.a, self.b] {
                if o.distance_to_point(p) == 0.0 {
                    return Some(p);
                }
            }
            return None;
        }
        let t = qp.cross(s) / denom;
        let u = qp.cross(r) / denom;
        ((0.0..=1.0).contains(&t) && (0.0..=1.0).contains(&u)).then(|| self.at(t))
    }

    /// Squared distance from `p` to the segment (mm²), without a square root.
    #[must_use]
    pub fn distance_2_to_point(&self, p: Vec2) -> f64 {
        self.at(self.closest_parameter(p)).distance_2(p)
    }

    /// Squared distance between two segments (mm²): zero when they cross or touch. The
    /// same value as the square of [`Segment::closest_points`]' distance, for the hot
    /// loops that only compare distances.
    ///
    /// ```
    /// use vedette_geometry::{Segment, Vec2};
    /// let a = Segment::new(Vec2::new(0.0, 0.0), Vec2::new(10.0, 0.0));
    /// assert_eq!(a.distance_2(&Segment::new(Vec2::new(5.0, 3.0), Vec2::new(5.0, 8.0))), 9.0);
    /// assert_eq!(a.distance_2(&Segment::new(Vec2::new(5.0, -3.0), Vec2::new(5.0, 8.0))), 0.0);
    /// ```
    #[must_use]
    pub fn distance_2(&self, o: &Segment) -> f64 {
        let (r, s) = (self.b - self.a, o.b - o.a);
        let (o1, o2) = (r.cross(o.a - self.a), r.cross(o.b - self.a));
        let (o3, o4) = (s.cross(self.a - o.a), s.cross(self.b - o.a));
        if o1 * o2 < 0.0 && o3 * o4 < 0.0 {
            return 0.0;
        }
        // Not crossing: the closest pair has an endpoint (touching gives zero there).
        self.distance_2_to_point(o.a)
            .min(self.distance_2_to_point(o.b))
            .min(o.distance_2_to_point(self.a))
            .min(o.distance_2_to_point(self.b))
    }

    /// The closest points between two segments.
    ///
    /// ```
    /// use vedette_geometry::{Segment, Vec2};
    /// let a = Segment::new(Vec2::new(0.0, 0.0), Vec2::new(10.0, 0.0));
    /// let b = Segment::new(Vec2::new(5.0, 3.0), Vec2::new(5.0, 8.0));
    /// let c = a.closest_points(&b);
    /// assert_eq!(c.distance_mm, 3.0);
    /// assert_eq!(c.from, Vec2::new(5.0, 0.0));
    /// ```
    #[must_use]
    pub fn closest_points(&self, o: &Segment) -> ClosestPoints {
        if let Some(p) = self.intersection(o) {
            return ClosestPoints { distance_mm: 0.0, from: p, to: p };
        }
        // Disjoint segments in the plane: the closest pair always has an endpoint.
        let candidates = [
            (self.a, o.closest_point(self.a), false),
            (self.b, o.closest_point(self.b), false),
            (o.a, self.closest_point(o.a), true),
            (o.b, self.closest_point(o.b), true),
        ];
        let mut best = ClosestPoints { distance_mm: f64::INFINITY, from: self.a, to: o.a };
        for (p, q, swapped) in candidates {
            let d = p.distance(q);
            if d < best.distance_mm {
                best = if swapped {
                    ClosestPoints { distance_mm: d, from: q, to: p }
                } else {
                    ClosestPoints { distance_mm: d, from: p, to: q }
                };
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_abs_diff_eq;

    fn seg(ax: f64, ay: f64, bx: f64, by: f64) -> Segment {
        Segment::new(Vec2::new(ax, ay), Vec2::new(bx, by))
    }

    #[test]
    fn crossing_segments_touch() {
        let c = seg(0.0, 0.0, 10.0, 10.0).closest_points(&seg(0.0, 10.0, 10.0, 0.0));
        assert_eq!(c.distance_mm, 0.0);
        assert_abs_diff_eq!(c.from, Vec2::new(5.0, 5.0), epsilon = 1e-12);
    }

    #[test]
    fn parallel_offset_segments() {
        let c = seg(0.0, 0.0, 10.0, 0.0).closest_points(&seg(12.0, 4.0, 20.0, 4.0));
        assert_abs_diff_eq!(c.distance_mm, (4.0f64 + 16.0).sqrt());
        assert_eq!(c.from, Vec2::new(10.0, 0.0));
        assert_eq!(c.to, Vec2::new(12.0, 4.0));
    }

    #[test]
    fn collinear_overlap_touches() {
        let c = seg(0.0, 0.0, 10.0, 0.0).closest_points(&seg(5.0, 0.0, 15.0, 0.0));
        assert_eq!(c.distance_mm, 0.0);
    }

    #[test]
    fn closest_from_second_segment_endpoint() {
        let c = seg(0.0, 0.0, 10.0, 0.0).closest_points(&seg(5.0, 2.0, 5.0, 9.0));
        assert_eq!(c.distance_mm, 2.0);
        assert_eq!(c.from, Vec2::new(5.0, 0.0));
        assert_eq!(c.to, Vec2::new(5.0, 2.0));
    }

    #[test]
    fn degenerate_segment_is_a_point() {
        let p = seg(3.0, 3.0, 3.0, 3.0);
        assert_eq!(p.closest_parameter(Vec2::new(9.0, 9.0)), 0.0);
        assert_abs_diff_eq!(p.distance_to_point(Vec2::new(6.0, 7.0)), 5.0);
    }
}
