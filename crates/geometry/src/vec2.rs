//! Plain 2-D vectors and points in table millimetres.
//!
//! One small `Copy` type serves as both point and vector: the geometry here is 2-D and
//! f64 throughout, and a dedicated type reads better than a general linear-algebra crate.
//!
//! # Units
//! Coordinates are millimetres in the table frame: x to the right along the long edge,
//! y away from the near edge, origin at the near-left corner.

use serde::{Deserialize, Serialize};
use std::ops::{Add, AddAssign, Div, Mul, Neg, Sub, SubAssign};

/// A point or vector in the table frame, in millimetres.
///
/// Serialized as a two-element array `[x, y]`.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
#[serde(from = "[f64; 2]", into = "[f64; 2]")]
pub struct Vec2 {
    /// x in mm (to the right along the table's long edge).
    pub x: f64,
    /// y in mm (away from the near edge).
    pub y: f64,
}

impl From<[f64; 2]> for Vec2 {
    fn from(a: [f64; 2]) -> Self {
        Vec2 { x: a[0], y: a[1] }
    }
}

impl From<Vec2> for [f64; 2] {
    fn from(v: Vec2) -> Self {
        [v.x, v.y]
    }
}

impl Vec2 {
    /// The origin.
    pub const ZERO: Vec2 = Vec2 { x: 0.0, y: 0.0 };

    /// A vector from its two components.
    #[must_use]
    pub const fn new(x: f64, y: f64) -> Self {
        Vec2 { x, y }
    }

    /// The unit vector at `deg` degrees counter-clockwise from +x.
    ///
    /// ```
    /// use vedette_geometry::Vec2;
    /// let north = Vec2::from_heading_deg(90.0);
    /// assert!(north.x.abs() < 1e-12 && (north.y - 1.0).abs() < 1e-12);
    /// ```
    #[must_use]
    pub fn from_heading_deg(deg: f64) -> Self {
        let (s, c) = sin_cos_deg(deg);
        Vec2 { x: c, y: s }
    }

    /// Dot product.
    #[must_use]
    pub fn dot(self, o: Vec2) -> f64 {
        self.x * o.x + self.y * o.y
    }

    /// The z component of the 3-D cross product (positive when `o` lies counter-clockwise
    /// of `self`).
    #[must_use]
    pub fn cross(self, o: Vec2) -> f64 {
        self.x * o.y - self.y * o.x
    }

    /// Squared length (mm²).
    #[must_use]
    pub fn length_2(self) -> f64 {
        self.dot(self)
    }

    /// Length (mm).
    #[must_use]
    pub fn length(self) -> f64 {
        (self.x * self.x + self.y * self.y).sqrt()
    }

    /// Distance between two points (mm).
    #[must_use]
    pub fn distance(self, o: Vec2) -> f64 {
        (self - o).length()
    }

    /// Squared distance between two points (mm²).
    #[must_use]
    pub fn distance_2(self, o: Vec2) -> f64 {
        (self - o).length_2()
    }

    /// The vector scaled to length one; `None` for the zero vector.
    #[must_use]
    pub fn normalized(self) -> Option<Vec2> {
        let l = self.length();
        (l > 0.0 && l.is_finite()).then(|| self / l)
    }

    /// The vector turned 90° counter-clockwise (to its left).
    #[must_use]
    pub fn perp_left(self) -> Vec2 {
        Vec2::new(-self.y, self.x)
    }

    /// The vector turned 90° clockwise (to its right).
    #[must_use]
    pub fn perp_right(self) -> Vec2 {
        Vec2::new(self.y, -self.x)
    }

    /// The vector turned `deg` degrees counter-clockwise.
    #[must_use]
    pub fn rotated_deg(self, deg: f64) -> Vec2 {
        let (s, c) = sin_cos_deg(deg);
        Vec2::new(c * self.x - s * self.y, s * self.x + c * self.y)
    }

    /// The direction of the vector in degrees counter-clockwise from +x, in (-180, 180].
    #[must_use]
    pub fn heading_deg(self) -> f64 {
        self.y.atan2(self.x).to_degrees()
    }

    /// Linear interpolation: `self` at `t = 0`, `o` at `t = 1`.
    #[must_use]
    pub fn lerp(self, o: Vec2, t: f64) -> Vec2 {
        self + (o - self) * t
    }

    /// True when both components are finite.
    #[must_use]
    pub fn is_finite(self) -> bool {
        self.x.is_finite() && self.y.is_finite()
    }
}

/// Sine and cosine of an angle in degrees, exact at multiples of 90° (tables are mostly
/// laid out square to the edges, and those cases should measure without rounding).
#[must_use]
pub fn sin_cos_deg(deg: f64) -> (f64, f64) {
    let r = deg.rem_euclid(360.0);
    if r == 0.0 {
        (0.0, 1.0)
    } else if r == 90.0 {
        (1.0, 0.0)
    } else if r == 180.0 {
        (0.0, -1.0)
    } else if r == 270.0 {
        (-1.0, 0.0)
    } else {
        deg.to_radians().sin_cos()
    }
}

impl Add for Vec2 {
    type Output = Vec2;
    fn add(self, o: Vec2) -> Vec2 {
        Vec2::new(self.x + o.x, self.y + o.y)
    }
}

impl AddAssign for Vec2 {
    fn add_assign(&mut self, o: Vec2) {
        self.x += o.x;
        self.y += o.y;
    }
}

impl Sub for Vec2 {
    type Output = Vec2;
    fn sub(self, o: Vec2) -> Vec2 {
        Vec2::new(self.x - o.x, self.y - o.y)
    }
}

impl SubAssign for Vec2 {
    fn sub_assign(&mut self, o: Vec2) {
        self.x -= o.x;
        self.y -= o.y;
    }
}

impl Mul<f64> for Vec2 {
    type Output = Vec2;
    fn mul(self, k: f64) -> Vec2 {
        Vec2::new(self.x * k, self.y * k)
    }
}

impl Div<f64> for Vec2 {
    type Output = Vec2;
    fn div(self, k: f64) -> Vec2 {
        Vec2::new(self.x / k, self.y / k)
    }
}

impl Neg for Vec2 {
    type Output = Vec2;
    fn neg(self) -> Vec2 {
        Vec2::new(-self.x, -self.y)
    }
}

impl approx::AbsDiffEq for Vec2 {
    type Epsilon = f64;
    fn default_epsilon() -> f64 {
        f64::EPSILON
    }
    fn abs_diff_eq(&self, o: &Self, eps: f64) -> bool {
        self.x.abs_diff_eq(&o.x, eps) && self.y.abs_diff_eq(&o.y, eps)
    }
}

impl approx::RelativeEq for Vec2 {
    fn default_max_relative() -> f64 {
        f64::EPSILON
    }
    fn relative_eq(&self, o: &Self, eps: f64, rel: f64) -> bool {
        self.x.relative_eq(&o.x, eps, rel) && self.y.relative_eq(&o.y, eps, rel)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_abs_diff_eq;

    #[test]
    fn rotation_and_headings() {
        let v = Vec2::new(1.0, 0.0);
        assert_abs_diff_eq!(v.rotated_deg(90.0), Vec2::new(0.0, 1.0), epsilon = 1e-12);
        assert_abs_diff_eq!(v.perp_left(), Vec2::new(0.0, 1.0));
        assert_abs_diff_eq!(v.perp_right(), Vec2::new(0.0, -1.0));
        assert_abs_diff_eq!(Vec2::new(0.0, -2.0).heading_deg(), -90.0);
        assert_abs_diff_eq!(Vec2::from_heading_deg(180.0), Vec2::new(-1.0, 0.0), epsilon = 1e-12);
    }

    #[test]
    fn products_and_lengths() {
        let a = Vec2::new(3.0, 4.0);
        assert_eq!(a.length(), 5.0);
        assert_eq!(a.length_2(), 25.0);
        assert_eq!(a.dot(Vec2::new(1.0, 1.0)), 7.0);
        assert_eq!(Vec2::new(1.0, 0.0).cross(Vec2::new(0.0, 1.0)), 1.0);
        assert_eq!(Vec2::ZERO.normalized(), None);
        assert_abs_diff_eq!(a.lerp(Vec2::ZERO, 0.5), Vec2::new(1.5, 2.0));
    }

    #[test]
    fn serializes_as_pair() {
        let v = Vec2::new(1.5, -2.0);
        assert_eq!(serde_json::to_string(&v).unwrap_or_default(), "[1.5,-2.0]");
        let back: Vec2 = serde_json::from_str("[1.5,-2.0]").unwrap_or_default();
        assert_eq!(back, v);
    }
}
