//! The convex hull of points (Andrew's monotone chain), for regions "between" shapes.

use crate::polygon::ConvexPolygon;
use crate::vec2::Vec2;
use smallvec::SmallVec;

impl ConvexPolygon {
    /// The convex hull of the points, counter-clockwise, collinear points dropped.
    ///
    /// ```
    /// use vedette_geometry::{ConvexPolygon, Vec2};
    /// let h = ConvexPolygon::hull(&[Vec2::new(0.0, 0.0), Vec2::new(2.0, 0.0), Vec2::new(1.0, 1.0),
    ///     Vec2::new(1.0, 0.2), Vec2::new(0.0, 2.0), Vec2::new(2.0, 2.0)]);
    /// assert_eq!(h.vertices().len(), 4);
    /// assert_eq!(h.area(), 4.0);
    /// ```
    #[must_use]
    pub fn hull(points: &[Vec2]) -> ConvexPolygon {
        ConvexPolygon::from_ccw_unchecked(hull_small(points.iter().copied()).into_vec())
    }
}

/// Points a hull is built from without allocating (more spill to the heap).
pub(crate) type HullPoints = SmallVec<[Vec2; 16]>;

/// The vertices of [`ConvexPolygon::hull`] of the points, as a small list (no
/// allocation for up to 16 points): counter-clockwise, fewer than three when the points
/// are collinear.
pub(crate) fn hull_small(points: impl Iterator<Item = Vec2>) -> HullPoints {
    let mut p: HullPoints = points.filter(|v| v.is_finite()).collect();
    // (Points equal in this order are equal to the bit: any sort leaves the same list.)
    p.sort_unstable_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    p.dedup();
    if p.len() < 3 {
        return p;
    }
    // The lower chain, then the upper one on the same list (it starts from the lower's
    // last point, which both share; the first point closes it and is dropped).
    let mut h = HullPoints::new();
    for &v in &p {
        while h.len() >= 2 && (h[h.len() - 1] - h[h.len() - 2]).cross(v - h[h.len() - 2]) <= 0.0 {
            h.pop();
        }
        h.push(v);
    }
    let lower_len = h.len();
    for &v in p.iter().rev().skip(1) {
        while h.len() > lower_len && (h[h.len() - 1] - h[h.len() - 2]).cross(v - h[h.len() - 2]) <= 0.0 {
            h.pop();
        }
        h.push(v);
    }
    h.pop();
    h
}

/// The vertices of [`ConvexPolygon::hull`]: counter-clockwise, fewer than three when the
/// points are collinear. For callers that work on plain vertex lists.
pub(crate) fn hull_points(points: impl AsRef<[Vec2]>) -> Vec<Vec2> {
    hull_small(points.as_ref().iter().copied()).into_vec()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Andrew's monotone chain as first written, with two lists: the reference the
    /// one-list, allocation-free version must match point for point.
    fn two_lists(points: &[Vec2]) -> Vec<Vec2> {
        let mut p: Vec<Vec2> = points.iter().copied().filter(|v| v.is_finite()).collect();
        p.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
        p.dedup();
        if p.len() < 3 {
            return p;
        }
        let chain = |pts: &mut dyn Iterator<Item = Vec2>| {
            let mut c: Vec<Vec2> = Vec::new();
            for v in pts {
                while c.len() >= 2 && (c[c.len() - 1] - c[c.len() - 2]).cross(v - c[c.len() - 2]) <= 0.0 {
                    c.pop();
                }
                c.push(v);
            }
            c.pop();
            c
        };
        let mut lower = chain(&mut p.iter().copied());
        lower.extend(chain(&mut p.iter().rev().copied()));
        lower
    }

    proptest! {
        // Small integer grids make collinear and repeated points common.
        #![proptest_config(crate::test_support::proptest_config(2000, 6))]
        #[test]
        fn the_hull_matches_the_two_list_chain(
            pts in proptest::collection::vec((-4i32..5, -4i32..5), 0..24),
            scale in prop_oneof![Just(1.0), Just(0.1), Just(37.3)],
        ) {
            let pts: Vec<Vec2> = pts.iter().map(|&(x, y)| Vec2::new(f64::from(x) * scale, f64::from(y) * scale)).collect();
            prop_assert_eq!(hull_small(pts.iter().copied()).into_vec(), two_lists(&pts));
        }
    }

    #[test]
    fn collinear_points_give_their_two_ends() {
        let pts = [Vec2::new(2.0, 2.0), Vec2::new(0.0, 0.0), Vec2::new(1.0, 1.0), Vec2::new(1.0, 1.0)];
        assert_eq!(hull_points(pts), vec![Vec2::new(0.0, 0.0), Vec2::new(2.0, 2.0)]);
    }
}
