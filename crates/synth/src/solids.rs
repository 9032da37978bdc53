//! Raised objects (bases, figures, marker cubes, houses) as vertical prisms, their ray
//! intersections, and the uniform grid that finds the candidates for a ray.

use crate::camera::Ray;
use crate::shading::Colour;
use nalgebra::Vector3;
use vedette_geometry::Vec2;

/// A horizontal cross-section: an oriented rectangle or a circle.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Footprint {
    /// A rectangle centred at `centre` with half extents along `axis_x` and its
    /// left-hand perpendicular.
    Rect { centre: Vec2, axis_x: Vec2, half_x: f64, half_y: f64 },
    /// A circle.
    Circle { centre: Vec2, radius: f64 },
}

impl Footprint {
    /// The distance from `p` to the footprint in the table plane, 0 inside, mm.
    pub(crate) fn distance(&self, p: Vec2) -> f64 {
        match *self {
            Footprint::Rect { centre, axis_x, half_x, half_y } => {
                let d = p - centre;
                let dx = (d.dot(axis_x).abs() - half_x).max(0.0);
                let dy = (d.dot(axis_x.perp_left()).abs() - half_y).max(0.0);
                dx.hypot(dy)
            }
            Footprint::Circle { centre, radius } => (p.distance(centre) - radius).max(0.0),
        }
    }

    /// Axis-aligned bounds (min, max), mm.
    pub(crate) fn bounds(&self) -> (Vec2, Vec2) {
        match *self {
            Footprint::Rect { centre, axis_x, half_x, half_y } => {
                let ex = (axis_x.x * half_x).abs() + (axis_x.y * half_y).abs();
                let ey = (axis_x.y * half_x).abs() + (axis_x.x * half_y).abs();
                (Vec2::new(centre.x - ex, centre.y - ey), Vec2::new(centre.x + ex, centre.y + ey))
            }
            Footprint::Circle { centre, radius } => (
                Vec2::new(centre.x - radius, centre.y - radius),
                Vec2::new(centre.x + radius, centre.y + radius),
            ),
        }
    }

    /// Vertices of a convex polygon containing the footprint (a circle becomes a
    /// circumscribed 16-gon), counter-clockwise.
    pub(crate) fn outline(&self) -> Vec<Vec2> {
        match *self {
            Footprint::Rect { centre, axis_x, half_x, half_y } => {
                let ay = axis_x.perp_left();
                [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
                    .iter()
                    .map(|(a, b)| centre + axis_x * (a * half_x) + ay * (b * half_y))
                    .collect()
            }
            Footprint::Circle { centre, radius } => {
                const SIDES: usize = 16;
                let r = radius / (std::f64::consts::PI / SIDES as f64).cos();
                (0..SIDES)
                    .map(|i| centre + Vec2::from_heading_deg(360.0 * i as f64 / SIDES as f64) * r)
                    .collect()
            }
        }
    }
}

/// What a solid is, for shading.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum SolidKind {
    /// A base box; `tag` indexes the scene's printed tags when it carries one.
    Base { tag: Option<usize> },
    /// A figure or part of one.
    Figure,
    /// A status marker cube.
    Cube,
    /// A house standing on a town's template (walls or a step of its roof).
    House,
}

/// A vertical prism from `z0_mm` to `z1_mm`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Solid {
    /// The cross-section, table mm.
    pub footprint: Footprint,
    /// Bottom height, mm.
    pub z0_mm: f64,
    /// Top height, mm.
    pub z1_mm: f64,
    /// Its colour before lighting.
    pub colour: Colour,
    /// What it is.
    pub kind: SolidKind,
}

/// Which face a ray hit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Face {
    /// The top.
    Top,
    /// A side; the number tells sides apart for edge detection.
    Side(u8),
}

/// A ray's entry into a solid.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct SolidHit {
    /// Distance along the ray, mm.
    pub t: f64,
    /// Outward normal, table frame.
    pub normal: Vector3<f64>,
    /// The face entered.
    pub face: Face,
}

impl Solid {
    /// Where the ray enters the solid, if it does (the ray starts outside, above).
    pub(crate) fn intersect(&self, ray: &Ray) -> Option<SolidHit> {
        match self.footprint {
            Footprint::Rect { centre, axis_x, half_x, half_y } => {
                let ay = axis_x.perp_left();
                let o = Vec2::new(ray.origin.x, ray.origin.y) - centre;
                let d = Vec2::new(ray.direction.x, ray.direction.y);
                let slabs = [
                    (o.dot(axis_x), d.dot(axis_x), half_x),
                    (o.dot(ay), d.dot(ay), half_y),
                    (
                        ray.origin.z - (self.z0_mm + self.z1_mm) / 2.0,
                        ray.direction.z,
                        (self.z1_mm - self.z0_mm) / 2.0,
                    ),
                ];
                let (mut t_in, mut t_out, mut axis, mut sign) =
                    (f64::NEG_INFINITY, f64::INFINITY, 0usize, 0.0);
                for (i, (oi, di, h)) in slabs.into_iter().enumerate() {
                    if di.abs() < 1e-15 {
                        if oi.abs() > h {
                            return None;
                        }
                        continue;
                    }
                    let (a, b) = ((-h - oi) / di, (h - oi) / di);
                    let (near, far) = if a < b { (a, b) } else { (b, a) };
                    if near > t_in {
                        t_in = near;
                        axis = i;
                        sign = -di.signum();
                    }
                    t_out = t_out.min(far);
                }
                if !(t_in <= t_out && t_in > 0.0) {
                    return None;
                }
                let (normal, face) = match axis {
                    0 => (
                        Vector3::new(axis_x.x, axis_x.y, 0.0) * sign,
                        Face::Side(if sign > 0.0 { 0 } else { 1 }),
                    ),
                    1 => (Vector3::new(ay.x, ay.y, 0.0) * sign, Face::Side(if sign > 0.0 { 2 } else { 3 })),
                    _ => (Vector3::new(0.0, 0.0, 1.0), Face::Top),
                };
                Some(SolidHit { t: t_in, normal, face })
            }
            Footprint::Circle { centre, radius } => {
                // The top cap first: a descending ray that meets the top inside the
                // circle enters there.
                if let Some(t) = ray.to_plane_z(self.z1_mm) {
                    let p = ray.at(t);
                    if Vec2::new(p.x, p.y).distance_2(centre) <= radius * radius {
                        return Some(SolidHit { t, normal: Vector3::new(0.0, 0.0, 1.0), face: Face::Top });
                    }
                }
                let o = Vec2::new(ray.origin.x, ray.origin.y) - centre;
                let d = Vec2::new(ray.direction.x, ray.direction.y);
                let a = d.length_2();
                if a < 1e-18 {
                    return None;
                }
                let b = o.dot(d);
                let c = o.length_2() - radius * radius;
                let disc = b * b - a * c;
                if disc < 0.0 {
                    return None;
                }
                let t = (-b - disc.sqrt()) / a;
                let z = ray.origin.z + ray.direction.z * t;
                if t <= 0.0 || z < self.z0_mm || z > self.z1_mm {
                    return None;
                }
                let p = o + d * t;
                let n = p * (1.0 / radius);
                Some(SolidHit { t, normal: Vector3::new(n.x, n.y, 0.0), face: Face::Side(0) })
            }
        }
    }
}

/// A uniform grid over the solids' footprints, each cell listing the solids whose
/// footprint, grown by `reach_mm`, touches it.
pub(crate) struct Grid {
    origin: Vec2,
    cell_mm: f64,
    cols: usize,
    rows: usize,
    cells: Vec<Vec<u32>>,
    /// The highest solid top, mm.
    pub top_mm: f64,
}

impl Grid {
    /// A grid over the rectangle `min..max` (table mm).
    pub(crate) fn build(solids: &[Solid], min: Vec2, max: Vec2, cell_mm: f64, reach_mm: f64) -> Grid {
        let cols = (((max.x - min.x) / cell_mm).ceil() as usize).max(1);
        let rows = (((max.y - min.y) / cell_mm).ceil() as usize).max(1);
        let mut grid =
            Grid { origin: min, cell_mm, cols, rows, cells: vec![Vec::new(); cols * rows], top_mm: 0.0 };
        for (i, s) in solids.iter().enumerate() {
            grid.top_mm = grid.top_mm.max(s.z1_mm);
            let (lo, hi) = s.footprint.bounds();
            let reach = Vec2::new(reach_mm, reach_mm);
            let (Some((c0, r0)), Some((c1, r1))) =
                (grid.clamped_cell(lo - reach), grid.clamped_cell(hi + reach))
            else {
                continue;
            };
            for r in r0..=r1 {
                for c in c0..=c1 {
                    grid.cells[r * cols + c].push(i as u32);
                }
            }
        }
        grid
    }

    /// The cell of a point, clamped to the grid; `None` for non-finite points.
    fn clamped_cell(&self, p: Vec2) -> Option<(usize, usize)> {
        if !p.is_finite() {
            return None;
        }
        let c = ((p.x - self.origin.x) / self.cell_mm).floor().clamp(0.0, (self.cols - 1) as f64) as usize;
        let r = ((p.y - self.origin.y) / self.cell_mm).floor().clamp(0.0, (self.rows - 1) as f64) as usize;
        Some((c, r))
    }

    /// The solids listed in the cells of the rectangle spanned by `a` and `b`, clamped
    /// to the grid (its border cells also hold the solids beyond it); may repeat a
    /// solid.
    pub(crate) fn candidates(&self, a: Vec2, b: Vec2, out: &mut Vec<u32>) {
        out.clear();
        let lo = Vec2::new(a.x.min(b.x), a.y.min(b.y));
        let hi = Vec2::new(a.x.max(b.x), a.y.max(b.y));
        let (Some((c0, r0)), Some((c1, r1))) = (self.clamped_cell(lo), self.clamped_cell(hi)) else {
            return;
        };
        for r in r0..=r1 {
            for c in c0..=c1 {
                out.extend_from_slice(&self.cells[r * self.cols + c]);
            }
        }
    }

    /// The solids listed in the cell of one point.
    pub(crate) fn at(&self, p: Vec2) -> &[u32] {
        match self.clamped_cell(p) {
            Some((c, r)) if self.covers(p) => &self.cells[r * self.cols + c],
            _ => &[],
        }
    }

    fn covers(&self, p: Vec2) -> bool {
        p.x >= self.origin.x
            && p.y >= self.origin.y
            && p.x <= self.origin.x + self.cols as f64 * self.cell_mm
            && p.y <= self.origin.y + self.rows as f64 * self.cell_mm
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_relative_eq;

    fn down_ray(x: f64, y: f64) -> Ray {
        Ray { origin: Vector3::new(x, y, 100.0), direction: Vector3::new(0.0, 0.0, -1.0) }
    }

    fn solid(footprint: Footprint) -> Solid {
        Solid { footprint, z0_mm: 3.0, z1_mm: 13.0, colour: Colour::grey(0.5), kind: SolidKind::Figure }
    }

    #[test]
    fn rays_enter_boxes_through_top_and_sides() {
        let s = solid(Footprint::Rect {
            centre: Vec2::new(0.0, 0.0),
            axis_x: Vec2::from_heading_deg(30.0),
            half_x: 5.0,
            half_y: 2.0,
        });
        let hit = s.intersect(&down_ray(1.0, 1.0)).unwrap();
        assert_eq!(hit.face, Face::Top);
        assert_relative_eq!(hit.t, 87.0, epsilon = 1e-9);
        assert!(s.intersect(&down_ray(0.0, 4.0)).is_none());
        // A slanted ray from +x hits the +x-facing side.
        let dir = Vector3::new(-1.0, 0.0, -0.2).normalize();
        let ray = Ray { origin: Vector3::new(50.0, 0.0, 14.0), direction: dir };
        let hit = s.intersect(&ray).unwrap();
        assert!(matches!(hit.face, Face::Side(_)));
        assert!(hit.normal.dot(&dir) < 0.0, "{:?}", hit.normal);
        // The entry point lies on the box's boundary: inside every slab, on one face.
        let p = ray.at(hit.t);
        assert!(p.z > 3.0 && p.z < 13.0);
        let axis = Vec2::from_heading_deg(30.0);
        let (lx, ly) = (Vec2::new(p.x, p.y).dot(axis), Vec2::new(p.x, p.y).dot(axis.perp_left()));
        assert!(lx.abs() <= 5.0 + 1e-9 && ly.abs() <= 2.0 + 1e-9);
        assert!((lx.abs() - 5.0).abs() < 1e-9 || (ly.abs() - 2.0).abs() < 1e-9);
    }

    #[test]
    fn rays_enter_cylinders_through_cap_and_wall() {
        let s = solid(Footprint::Circle { centre: Vec2::new(10.0, 0.0), radius: 3.0 });
        assert_eq!(s.intersect(&down_ray(11.0, 1.0)).unwrap().face, Face::Top);
        assert!(s.intersect(&down_ray(13.5, 0.0)).is_none());
        let ray = Ray { origin: Vector3::new(0.0, 0.0, 8.0), direction: Vector3::new(1.0, 0.0, 0.0) };
        let hit = s.intersect(&ray).unwrap();
        assert_relative_eq!(hit.t, 7.0, epsilon = 1e-9);
        assert_relative_eq!(hit.normal.x, -1.0, epsilon = 1e-9);
    }

    #[test]
    fn footprint_distances_and_grid_candidates() {
        let rect = Footprint::Rect {
            centre: Vec2::new(100.0, 100.0),
            axis_x: Vec2::new(1.0, 0.0),
            half_x: 10.0,
            half_y: 5.0,
        };
        assert_relative_eq!(rect.distance(Vec2::new(113.0, 109.0)), 5.0, epsilon = 1e-9);
        assert_relative_eq!(rect.distance(Vec2::new(100.0, 101.0)), 0.0);
        let solids = [solid(rect)];
        let grid = Grid::build(&solids, Vec2::new(0.0, 0.0), Vec2::new(400.0, 300.0), 16.0, 4.0);
        assert_eq!(grid.at(Vec2::new(100.0, 100.0)), &[0]);
        assert!(grid.at(Vec2::new(150.0, 100.0)).is_empty());
        assert!(grid.at(Vec2::new(-50.0, 100.0)).is_empty());
        let mut out = Vec::new();
        grid.candidates(Vec2::new(50.0, 50.0), Vec2::new(90.0, 96.0), &mut out);
        assert!(out.contains(&0));
        grid.candidates(Vec2::new(300.0, 250.0), Vec2::new(390.0, 290.0), &mut out);
        assert!(out.is_empty());
        // A solid far off the grid is kept in the border cells, and found there.
        let far = solid(Footprint::Circle { centre: Vec2::new(5000.0, 100.0), radius: 3.0 });
        let grid = Grid::build(&[far], Vec2::new(0.0, 0.0), Vec2::new(400.0, 300.0), 16.0, 0.0);
        grid.candidates(Vec2::new(4990.0, 95.0), Vec2::new(5010.0, 105.0), &mut out);
        assert_eq!(out, [0]);
        assert_relative_eq!(grid.top_mm, 13.0);
    }
}
