//! The convex queries against `geo` as an oracle (distance, containment, hull, area),
//! and the shrink's own invariants, on random shapes with a fixed seed.

use super::*;
use crate::base::{Base, BaseSize, Pose};
use crate::polygon::{ConvexPolygon, HalfPlane};
use crate::segment::Segment;
use crate::test_support::proptest_config;
use crate::vec2::Vec2;
use geo::{Area, ConvexHull, Distance, Euclidean, Intersects};
use proptest::prelude::*;

fn coord(p: Vec2) -> geo::Coord<f64> {
    geo::Coord { x: p.x, y: p.y }
}

fn geo_polygon(ring: &[Vec2]) -> geo::Polygon<f64> {
    geo::Polygon::new(geo::LineString::new(ring.iter().copied().map(coord).collect()), vec![])
}

/// Points on a coarse grid (many collinear and repeated points) or anywhere in a box.
fn points(max: usize) -> impl Strategy<Value = Vec<Vec2>> {
    prop_oneof![
        proptest::collection::vec((-6i32..7, -6i32..7), 0..max).prop_map(|v| v
            .iter()
            .map(|&(x, y)| Vec2::new(f64::from(x) * 7.5, f64::from(y) * 7.5))
            .collect()),
        proptest::collection::vec((-200.0..200.0f64, -200.0..200.0f64), 0..max)
            .prop_map(|v| v.iter().map(|&(x, y)| Vec2::new(x, y)).collect()),
    ]
}

/// A convex polygon of at least three vertices (the hull of random points).
fn convex() -> impl Strategy<Value = Vec<Vec2>> {
    points(12).prop_map(hull_points).prop_filter("a polygon", |h| h.len() >= 3)
}

/// A point, a segment or a polygon.
fn shape() -> impl Strategy<Value = Vec<Vec2>> {
    prop_oneof![
        (-250.0..250.0f64, -250.0..250.0f64).prop_map(|(x, y)| vec![Vec2::new(x, y)]),
        (-250.0..250.0f64, -250.0..250.0f64, -250.0..250.0f64, -250.0..250.0f64)
            .prop_map(|(a, b, c, d)| vec![Vec2::new(a, b), Vec2::new(c, d)]),
        convex(),
    ]
}

fn point() -> impl Strategy<Value = Vec2> {
    (-250.0..250.0f64, -250.0..250.0f64).prop_map(|(x, y)| Vec2::new(x, y))
}

/// `geo`'s distance from a shape of one, two or more vertices to a polygon.
fn geo_distance_to(shape: &[Vec2], poly: &[Vec2]) -> f64 {
    let g = geo_polygon(poly);
    match shape {
        [p] => Euclidean.distance(&geo::Point(coord(*p)), &g),
        [a, b] => Euclidean.distance(&geo::Line::new(coord(*a), coord(*b)), &g),
        _ => Euclidean.distance(&geo_polygon(shape), &g),
    }
}

/// Agreement up to rounding at the scale of the shapes (coordinates up to 250 mm).
fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * (1.0 + a.abs().max(b.abs()))
}

proptest! {
    #![proptest_config(proptest_config(1000, 2001))]

    #[test]
    fn the_area_is_geos(ring in convex(), reversed in any::<bool>()) {
        let mut ring = ring;
        if reversed {
            ring.reverse();
        }
        let ours = signed_area(&ring);
        let theirs = geo_polygon(&ring).signed_area();
        prop_assert!(close(ours, theirs), "{ours} vs {theirs}");
        prop_assert_eq!(ours > 0.0, !reversed);
    }

    #[test]
    fn the_hull_is_geos(pts in points(24)) {
        let ours = hull_points(&pts);
        let theirs = geo::MultiPoint::from(pts.iter().map(|&p| geo::Point(coord(p))).collect::<Vec<_>>()).convex_hull();
        let mut theirs: Vec<Vec2> = theirs.exterior().coords().map(|c| Vec2::new(c.x, c.y)).collect();
        // geo closes the ring and may keep collinear points on it: compare the corners.
        theirs.dedup();
        if theirs.len() > 1 && theirs.first() == theirs.last() {
            theirs.pop();
        }
        let n = theirs.len();
        let corners: Vec<Vec2> = (0..n)
            .filter(|&i| (theirs[i] - theirs[(i + n - 1) % n]).cross(theirs[(i + 1) % n] - theirs[i]) != 0.0)
            .map(|i| theirs[i])
            .collect();
        if ours.len() >= 3 {
            let mut a = ours.clone();
            let mut b = corners;
            a.sort_by(|p, q| p.x.total_cmp(&q.x).then(p.y.total_cmp(&q.y)));
            b.sort_by(|p, q| p.x.total_cmp(&q.x).then(p.y.total_cmp(&q.y)));
            prop_assert_eq!(a, b);
            prop_assert!(signed_area(&ours) > 0.0, "counter-clockwise");
        } else {
            // Collinear (or fewer than three distinct) points: no area either way.
            prop_assert!(corners.len() < 3);
        }
    }

    #[test]
    fn containment_is_geos_off_the_boundary(poly in convex(), p in point()) {
        let g = geo_polygon(&poly);
        let near_boundary = point_distance_2_to_outline(p, &poly) < 1e-12;
        if !near_boundary {
            prop_assert_eq!(contains(&poly, p), g.intersects(&geo::Point(coord(p))));
        }
        // The closed test keeps the vertices; a tolerance keeps at least as much.
        prop_assert!(poly.iter().all(|&v| contains(&poly, v)));
        let within = Containment::Within { tolerance_mm: 1e-6 };
        prop_assert!(!contains(&poly, p) || within.contains(&poly, p));
    }

    #[test]
    fn the_point_distance_is_geos(poly in shape(), p in point()) {
        let ours = point_distance_2(p, &poly).sqrt();
        let theirs = geo_distance_to(&[p], &poly_or_degenerate(&poly));
        prop_assert!(close(ours, theirs), "{ours} vs {theirs}");
    }

    #[test]
    fn the_segment_distance_is_geos(poly in shape(), a in point(), b in point()) {
        let s = Segment::new(a, b);
        let ours = segment_distance_mm(&s, &poly);
        let theirs = geo_distance_to(&[a, b], &poly_or_degenerate(&poly));
        prop_assert!(close(ours, theirs), "{ours} vs {theirs}");
    }

    #[test]
    fn the_distance_between_shapes_is_geos_and_symmetric(a in shape(), b in shape()) {
        let ours = distance_mm(&a, &b);
        prop_assert_eq!(ours.to_bits(), distance_mm(&b, &a).to_bits());
        let theirs = geo_distance_to(&a, &poly_or_degenerate(&b));
        prop_assert!(close(ours, theirs), "{ours} vs {theirs}");
        // The closest points agree with the distance, and lie on their shapes.
        let c = closest_points(&a, &b, Containment::Closed).unwrap();
        prop_assert!(close(c.distance_mm, ours), "{} vs {ours}", c.distance_mm);
        prop_assert!(close(c.from.distance(c.to), c.distance_mm));
        prop_assert!(point_distance_2(c.from, &a).sqrt() < 1e-9 && point_distance_2(c.to, &b).sqrt() < 1e-9);
    }

    #[test]
    fn a_shrunk_polygon_keeps_the_distance_from_every_edge(poly in convex(), d in 0.0..40.0f64) {
        let n = poly.len();
        let Some(s) = shrink(&poly, d) else {
            // Nothing left: no point of the polygon is that far inside (the centroid's
            // depth bounds the polygon's), up to rounding.
            let c = ConvexPolygon::from_ccw_unchecked(poly.clone()).centroid();
            if let Some(c) = c {
                let depth = (0..n).map(|i| HalfPlane::left_of(poly[i], poly[(i + 1) % n]).signed_distance(c)).fold(f64::INFINITY, f64::min);
                prop_assert!(depth <= d + 1e-6, "depth {depth} > {d}");
            }
            return Ok(());
        };
        for v in &s {
            for i in 0..n {
                let depth = HalfPlane::left_of(poly[i], poly[(i + 1) % n]).signed_distance(*v);
                prop_assert!(depth >= d - 1e-6, "vertex {v:?} only {depth} inside edge {i}");
            }
        }
        // Half-planes moved in and back out again are where they were.
        let h = HalfPlane::left_of(poly[0], poly[1]);
        let back = outset(inset(h, d), d);
        prop_assert!(back.point.distance(h.point) < 1e-9);
    }
}

proptest! {
    #![proptest_config(proptest_config(1000, 2002))]

    #[test]
    fn meeting_is_geos_off_the_boundary(poly in convex(), other in convex(), a in point(), b in point()) {
        let s = Segment::new(a, b);
        let g = geo_polygon(&poly);
        let line = geo::Line::new(coord(a), coord(b));
        // Clear of touching (a tie either way), the answers are geo's.
        let gap = segment_distance_mm(&s, &poly);
        let clearly_in = segment_inside(&poly, &s).is_some_and(|c| depth(c.a.lerp(c.b, 0.5), &poly) > 1e-9);
        if gap > 1e-9 || clearly_in {
            prop_assert_eq!(segment_meets(&poly, &s), line.intersects(&g), "gap {}", gap);
        }
        let gap = distance_mm(&poly, &other);
        if gap > 1e-9 || polygons_overlap_clearly(&poly, &other) {
            prop_assert_eq!(polygons_meet(&poly, &other), g.intersects(&geo_polygon(&other)));
        }
        // The part inside is inside, and it is there exactly when the segment meets.
        let inside = segment_inside(&poly, &s);
        prop_assert_eq!(inside.is_some(), segment_meets(&poly, &s));
        if let Some(c) = inside {
            prop_assert!(point_distance_2(c.a, &poly) < 1e-12 && point_distance_2(c.b, &poly) < 1e-12);
        }
    }
}

/// How far `p` is inside every edge's line of a convex polygon (negative outside).
fn depth(p: Vec2, poly: &[Vec2]) -> f64 {
    let n = poly.len();
    (0..n)
        .map(|i| HalfPlane::left_of(poly[i], poly[(i + 1) % n]).signed_distance(p))
        .fold(f64::INFINITY, f64::min)
}

/// True when the polygons overlap by more than a touch (a vertex of one well inside the
/// other, or their centroids inside each other).
fn polygons_overlap_clearly(a: &[Vec2], b: &[Vec2]) -> bool {
    let deep = |p: &[Vec2], q: &[Vec2]| p.iter().any(|&v| depth(v, q) > 1e-9);
    deep(a, b) || deep(b, a)
}

/// The distance from `p` to the outline of a polygon (zero on it).
fn point_distance_2_to_outline(p: Vec2, poly: &[Vec2]) -> f64 {
    let n = poly.len();
    (0..n)
        .map(|i| Segment::new(poly[i], poly[(i + 1) % n]).distance_2_to_point(p))
        .fold(f64::INFINITY, f64::min)
}

/// `geo` has no polygon of one or two vertices: a point or segment as a polygon whose
/// ring runs there and back (its distance is that of the point or segment).
fn poly_or_degenerate(shape: &[Vec2]) -> Vec<Vec2> {
    match shape {
        [p] => vec![*p, *p, *p],
        [a, b] => vec![*a, *b, *a],
        _ => shape.to_vec(),
    }
}

#[test]
fn segment_to_square() {
    let seg = ConvexPolygon::from_ccw_unchecked(vec![Vec2::new(0.0, 5.0), Vec2::new(10.0, 5.0)]);
    let b = Base::new(BaseSize::new(10.0, 2.0), Pose::new(Vec2::new(5.0, 0.0), 90.0));
    assert_eq!(seg.distance_to_base(&b), Some(4.0));
    let point = ConvexPolygon::from_ccw_unchecked(vec![Vec2::new(5.0, 1.0)]);
    assert_eq!(point.distance_to_base(&b), Some(0.0));
    assert_eq!(ConvexPolygon::default().distance_to_base(&b), None);
}

#[test]
fn a_tolerance_counts_a_point_just_outside() {
    let sq = [Vec2::new(0.0, 0.0), Vec2::new(1.0, 0.0), Vec2::new(1.0, 1.0), Vec2::new(0.0, 1.0)];
    let p = Vec2::new(1.0 + 1e-7, 0.5);
    assert!(!contains(&sq, p));
    assert!(Containment::Within { tolerance_mm: 1e-6 }.contains(&sq, p));
    assert!(!Containment::Within { tolerance_mm: 1e-6 }.contains(&sq[..2], p));
}
