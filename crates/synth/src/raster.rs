//! Per-pixel ray casting: each sample's ray is undistorted exactly, meets the raised
//! objects (found through a uniform grid) or the table plane, and is shaded there.
//!
//! Anti-aliasing is adaptive: every pixel takes `n x n` samples (one by default); where
//! a pixel's samples, or a pixel and its neighbours, do not all see the same surface
//! and the same printed cell, the pixel is sampled again on a finer `m x m` grid, so
//! marker, base and figure edges get smooth, realistic coverage.

use crate::camera::{Camera, Ray};
use crate::noise;
use crate::scene::{Ink, PrintedMarker};
use crate::shading::{Colour, FLOOR, INK, Lighting, PAPER, ShadowMap, marker_colour};
use crate::solids::{Face, Grid, Solid, SolidHit, SolidKind};
use crate::texture::TableTexture;
use nalgebra::{Point3, Vector3};
use rayon::prelude::*;
use vedette_geometry::{TableSize, Vec2};

/// Everything a ray can meet, ready to shade.
pub(crate) struct World<'a> {
    /// The camera taking the photo.
    pub camera: &'a Camera,
    /// The table's size, mm: beyond it is the floor.
    pub size: TableSize,
    /// Bases (first, in table order), cubes and figure parts.
    pub solids: Vec<Solid>,
    /// Candidates for ray intersections (footprints not grown).
    pub hits: Grid,
    /// The painted mat and terrain.
    pub texture: TableTexture,
    /// Shadows on the table.
    pub table_shadow: ShadowMap,
    /// Shadows on the base tops.
    pub top_shadow: ShadowMap,
    /// The table fiducials, as printed.
    pub fiducials: Vec<PrintedMarker>,
    /// The base tags, as printed, indexed by [`SolidKind::Base`]'s `tag`.
    pub tags: Vec<PrintedMarker>,
    /// The light.
    pub lighting: Lighting,
    /// The render's seed.
    pub seed: u64,
    /// Light of the lamp's highlight on painted cubes' tops (0-1 of white).
    pub cube_highlight: f32,
}

/// One sample: its colour and a key naming the surface and printed cell it saw.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Sample {
    colour: Colour,
    key: u64,
}

const UP: Vector3<f64> = Vector3::new(0.0, 0.0, 1.0);
const KEY_FLOOR: u64 = 1;
const KEY_FIDUCIAL: u64 = 1 << 48;
const KEY_SOLID: u64 = 2 << 48;

fn ink_key(ink: Ink) -> u64 {
    match ink {
        Ink::Off => 0,
        Ink::White { cell } => u64::from(cell) << 1 | 1,
        Ink::Black { cell } => u64::from(cell) << 1,
    }
}

impl World<'_> {
    /// The nearest solid the ray enters, with its index.
    fn first_hit(&self, ray: &Ray, scratch: &mut Vec<u32>) -> Option<(usize, SolidHit)> {
        let top = ray.to_plane_z(self.hits.top_mm).unwrap_or(0.0);
        let bottom = ray.to_plane_z(0.0)?;
        let (a, b) = (ray.at(top), ray.at(bottom));
        self.hits.candidates(Vec2::new(a.x, a.y), Vec2::new(b.x, b.y), scratch);
        let mut best: Option<(usize, SolidHit)> = None;
        for &i in scratch.iter() {
            let Some(solid) = self.solids.get(i as usize) else { continue };
            if let Some(hit) = solid.intersect(ray)
                && best.is_none_or(|(_, b)| hit.t < b.t)
            {
                best = Some((i as usize, hit));
            }
        }
        best
    }

    /// True when a solid other than `exclude` lies between the camera and `point`.
    pub(crate) fn occluded(&self, point: &Point3<f64>, exclude: Option<usize>) -> bool {
        let origin = self.camera.pose.position_mm();
        let to = point.coords - origin;
        let distance = to.norm();
        let ray = Ray { origin, direction: to / distance };
        let mut scratch = Vec::new();
        let top = ray.to_plane_z(self.hits.top_mm).unwrap_or(0.0);
        let a = ray.at(top);
        self.hits.candidates(Vec2::new(a.x, a.y), Vec2::new(point.x, point.y), &mut scratch);
        scratch.iter().any(|&i| {
            Some(i as usize) != exclude
                && self
                    .solids
                    .get(i as usize)
                    .and_then(|s| s.intersect(&ray))
                    .is_some_and(|h| h.t < distance - 1e-6)
        })
    }

    fn sample(&self, ray: &Ray, scratch: &mut Vec<u32>) -> Sample {
        match self.first_hit(ray, scratch) {
            Some((i, hit)) => self.shade_solid(i, &hit, ray),
            None => self.shade_table(ray),
        }
    }

    fn shade_table(&self, ray: &Ray) -> Sample {
        let Some(t) = ray.to_plane_z(0.0) else {
            return Sample { colour: FLOOR.scaled(0.3), key: KEY_FLOOR };
        };
        let q = ray.at(t);
        let p = Vec2::new(q.x, q.y);
        let light = self.lighting.intensity(p, &UP);
        if !(0.0..=self.size.width).contains(&p.x) || !(0.0..=self.size.depth).contains(&p.y) {
            let grain = noise::value(self.seed ^ 0xf100, p.x / 4.0, p.y / 40.0);
            return Sample { colour: FLOOR.scaled(light * (0.85 + 0.3 * grain)), key: KEY_FLOOR };
        }
        let shade = light * self.table_shadow.sample(p);
        for (i, f) in self.fiducials.iter().enumerate() {
            let ink = f.ink_at(p);
            let colour = match ink {
                Ink::Off => continue,
                Ink::White { .. } => PAPER,
                Ink::Black { .. } => INK,
            };
            return Sample {
                colour: colour.scaled(shade),
                key: KEY_FIDUCIAL | (i as u64) << 16 | ink_key(ink),
            };
        }
        Sample { colour: self.texture.sample(p).scaled(shade), key: 0 }
    }

    fn shade_solid(&self, i: usize, hit: &SolidHit, ray: &Ray) -> Sample {
        let Some(solid) = self.solids.get(i) else {
            return self.shade_table(ray);
        };
        let q = ray.at(hit.t);
        let p = Vec2::new(q.x, q.y);
        let face = match hit.face {
            Face::Top => 0u64,
            Face::Side(k) => 1 + u64::from(k),
        };
        let key = KEY_SOLID | (i as u64) << 20 | face << 16;
        let light = self.lighting.intensity_at(&q, &hit.normal);
        match (solid.kind, hit.face) {
            (SolidKind::Base { tag }, Face::Top) => {
                let shade = light * self.top_shadow.sample(p);
                if let Some(tag) = tag.and_then(|t| self.tags.get(t)) {
                    let ink = tag.ink_at(p);
                    match ink {
                        Ink::White { .. } => {
                            return Sample { colour: PAPER.scaled(shade), key: key | ink_key(ink) };
                        }
                        Ink::Black { .. } => {
                            return Sample { colour: INK.scaled(shade), key: key | ink_key(ink) };
                        }
                        Ink::Off => {}
                    }
                }
                let flock = noise::value(self.seed ^ 0xf10c, p.x / 0.7, p.y / 0.7);
                Sample { colour: solid.colour.scaled(shade * (0.88 + 0.24 * flock)), key }
            }
            (SolidKind::Base { .. }, Face::Side(_)) => {
                Sample { colour: solid.colour.scaled(0.8 * light), key }
            }
            (SolidKind::Cube, Face::Top)
                if self.cube_highlight > 0.0 && solid.colour != marker_colour(None) =>
            {
                // A nearby lamp is mirrored in a glossy top where its lobe points to
                // the camera; a distant one gives every top the same highlight.
                let eye = self.camera.pose.position_mm();
                let lobe = self.lighting.gloss_at(&q, &eye).unwrap_or(1.0) as f32;
                Sample { colour: solid.colour.scaled(light) + Colour::grey(self.cube_highlight * lobe), key }
            }
            _ => Sample { colour: solid.colour.scaled(light), key },
        }
    }
}

/// Undistorted normalized coordinates of every pixel, exact to about 1e-12: a coarse
/// grid of exact inverses gives each sample a start that one Newton step refines.
pub(crate) struct RayField<'a> {
    camera: &'a Camera,
    /// Grid spacing, px.
    step: f64,
    cols: usize,
    nodes: Vec<[f64; 2]>,
}

/// First grid node, px: a pixel's samples reach half a pixel past the image.
const FIELD_ORIGIN_PX: f64 = -1.0;

impl<'a> RayField<'a> {
    pub(crate) fn new(camera: &'a Camera) -> RayField<'a> {
        let step = 8.0;
        let r = camera.resolution();
        let cols = (f64::from(r.width_px) / step).ceil() as usize + 2;
        let rows = (f64::from(r.height_px) / step).ceil() as usize + 2;
        let nodes = if camera.distortion.is_none() {
            Vec::new()
        } else {
            (0..rows * cols)
                .into_par_iter()
                .map(|k| {
                    let px = [
                        FIELD_ORIGIN_PX + (k % cols) as f64 * step,
                        FIELD_ORIGIN_PX + (k / cols) as f64 * step,
                    ];
                    camera.distortion.undistort(camera.pixel_to_distorted(px)).unwrap_or([f64::NAN; 2])
                })
                .collect()
        };
        RayField { camera, step, cols, nodes }
    }

    /// The ray seen at pixel position `(u, v)`; `None` where the lens cannot be
    /// inverted.
    pub(crate) fn ray(&self, px: [f64; 2]) -> Option<Ray> {
        let distorted = self.camera.pixel_to_distorted(px);
        if self.nodes.is_empty() {
            return Some(self.camera.ray_from_normalized(distorted));
        }
        let x = ((px[0] - FIELD_ORIGIN_PX) / self.step).max(0.0);
        let y = ((px[1] - FIELD_ORIGIN_PX) / self.step).max(0.0);
        let (c, r) = ((x as usize).min(self.cols - 2), y as usize);
        let (tx, ty) = (x - c as f64, y - r as f64);
        let at = |dc: usize, dr: usize| self.nodes.get((r + dr) * self.cols + c + dc).copied();
        let (a, b, c2, d) = (at(0, 0)?, at(1, 0)?, at(0, 1)?, at(1, 1)?);
        let lerp = |i: usize| {
            let top = a[i] + (b[i] - a[i]) * tx;
            let bottom = c2[i] + (d[i] - c2[i]) * tx;
            top + (bottom - top) * ty
        };
        let guess = [lerp(0), lerp(1)];
        let distortion = &self.camera.distortion;
        let once = distortion.newton_step(distorted, guess)?;
        let xy = distortion.newton_step(distorted, once)?;
        (xy[0].is_finite() && xy[1].is_finite()).then(|| self.camera.ray_from_normalized(xy))
    }
}

/// Renders every pixel in two passes: first `supersampling²` samples each; then every
/// pixel whose samples disagree, or whose surface or printed cell differs from one of
/// its eight neighbours', again with `edge_supersampling²` samples. Returns the pixels
/// row by row.
pub(crate) fn rasterize(world: &World<'_>, supersampling: u32, edge_supersampling: u32) -> Vec<Colour> {
    let r = world.camera.resolution();
    let (w, h) = (r.width_px as usize, r.height_px as usize);
    let field = RayField::new(world.camera);
    let mut first = vec![PixelSamples { colour: Colour::default(), first_key: 0, uniform: true }; w * h];
    first.par_chunks_mut(w).enumerate().for_each(|(y, row)| {
        let mut scratch = Vec::new();
        let mut keys = Vec::new();
        for (x, out) in row.iter_mut().enumerate() {
            *out = pixel(
                world,
                &field,
                [x as f64, y as f64],
                Sampling { per_axis: supersampling, strata: Strata::Centred },
                &mut scratch,
                &mut keys,
            );
        }
    });
    let mut pixels: Vec<Colour> = first.iter().map(|p| p.colour).collect();
    if edge_supersampling <= supersampling {
        return pixels;
    }
    pixels.par_chunks_mut(w).enumerate().for_each(|(y, row)| {
        let mut scratch = Vec::new();
        let mut keys = Vec::new();
        for (x, out) in row.iter_mut().enumerate() {
            let PixelSamples { first_key: key, uniform, .. } = first[y * w + x];
            let edge = !uniform
                || (y.saturating_sub(1)..=(y + 1).min(h - 1)).any(|ny| {
                    (x.saturating_sub(1)..=(x + 1).min(w - 1)).any(|nx| first[ny * w + nx].first_key != key)
                });
            if edge {
                let n =
                    Sampling { per_axis: edge_supersampling, strata: Strata::Jittered(world.seed ^ 0x717e) };
                *out = pixel(world, &field, [x as f64, y as f64], n, &mut scratch, &mut keys).colour;
            }
        }
    });
    pixels
}

/// Where a pixel's samples go: on the centres of an `n x n` grid of strata, or at a
/// random point of each stratum (stratified jitter), which leaves no systematic error
/// in the coverage of an edge however it runs.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Strata {
    /// Stratum centres.
    Centred,
    /// Random points, hashed from this seed and the sample's position.
    Jittered(u64),
}

/// How a pixel is sampled: `per_axis²` samples placed as `strata` says.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Sampling {
    per_axis: u32,
    strata: Strata,
}

/// What a pixel's samples saw.
#[derive(Debug, Clone, Copy, PartialEq)]
struct PixelSamples {
    /// Their mean colour.
    colour: Colour,
    /// The key of the first sample.
    first_key: u64,
    /// True when all saw the same surface and printed cell.
    uniform: bool,
}

/// Samples the pixel centred at `centre`.
fn pixel(
    world: &World<'_>,
    field: &RayField<'_>,
    centre: [f64; 2],
    Sampling { per_axis: n, strata }: Sampling,
    scratch: &mut Vec<u32>,
    keys: &mut Vec<u64>,
) -> PixelSamples {
    keys.clear();
    let mut sum = Colour::default();
    let step = 1.0 / f64::from(n);
    for j in 0..n {
        for i in 0..n {
            let (ox, oy) = match strata {
                Strata::Centred => (0.5, 0.5),
                Strata::Jittered(seed) => {
                    // At most 16 samples per axis: 16 * pixel + i numbers every sample.
                    let h = noise::hash2(
                        seed,
                        16 * centre[0] as i64 + i64::from(i),
                        16 * centre[1] as i64 + i64::from(j),
                    );
                    (noise::unit(h), noise::unit(h.rotate_left(32)))
                }
            };
            let px =
                [centre[0] - 0.5 + (f64::from(i) + ox) * step, centre[1] - 0.5 + (f64::from(j) + oy) * step];
            let s = match field.ray(px) {
                Some(ray) => world.sample(&ray, scratch),
                None => Sample { colour: Colour::default(), key: u64::MAX },
            };
            sum = sum + s.colour;
            keys.push(s.key);
        }
    }
    let uniform = keys.windows(2).all(|k| k[0] == k[1]);
    PixelSamples {
        colour: sum.scaled(1.0 / f64::from(n * n)),
        first_key: keys.first().copied().unwrap_or(u64::MAX),
        uniform,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::camera::{Distortion, LookAt, Resolution};

    /// The interpolated-and-refined rays equal the exact inverse of the lens model.
    #[test]
    fn ray_field_matches_exact_undistortion() {
        let camera = Camera::looking_at(&LookAt {
            target_mm: Vec2::new(900.0, 600.0),
            height_mm: 1200.0,
            tilt_deg: 25.0,
            yaw_deg: 10.0,
            focal_mm: 4.0,
            sensor_width_mm: 6.2,
            resolution: Resolution::new(640, 480),
        })
        .unwrap()
        .with_distortion(Distortion { k1: -0.2, k2: 0.06, p1: 0.002, p2: -0.001, k3: -0.005 });
        let field = RayField::new(&camera);
        for k in 0..200 {
            let px = [-0.5 + (k * 37 % 641) as f64 * 0.9993, -0.5 + (k * 53 % 481) as f64 * 0.9987];
            let fast = field.ray(px).unwrap();
            let exact = camera.pixel_ray(px).unwrap();
            assert!((fast.direction - exact.direction).norm() < 1e-12, "{px:?}");
            // And the ray's table point projects back onto the pixel.
            let p = Point3::from(fast.at(fast.to_plane_z(0.0).unwrap()));
            let back = camera.project(&p).unwrap();
            assert!((back[0] - px[0]).abs() < 1e-8 && (back[1] - px[1]).abs() < 1e-8, "{px:?} -> {back:?}");
        }
    }
}
