//! The signed area of a ring.

use crate::vec2::Vec2;

/// Signed area of a ring (positive when counter-clockwise), in mm²; zero for fewer than
/// three vertices.
///
/// ```
/// use vedette_geometry::{Vec2, signed_area};
/// let ccw = [Vec2::new(0.0, 0.0), Vec2::new(2.0, 0.0), Vec2::new(2.0, 3.0), Vec2::new(0.0, 3.0)];
/// assert_eq!(signed_area(&ccw), 6.0);
/// let cw: Vec<Vec2> = ccw.iter().rev().copied().collect();
/// assert_eq!(signed_area(&cw), -6.0);
/// ```
#[must_use]
pub fn signed_area(ring: &[Vec2]) -> f64 {
    let n = ring.len();
    if n < 3 {
        return 0.0;
    }
    let mut s = 0.0;
    for i in 0..n {
        s += ring[i].cross(ring[(i + 1) % n]);
    }
    s / 2.0
}
