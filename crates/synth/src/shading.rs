//! Colours, the light, and the soft shadows raised objects cast on the table and on
//! base tops.
//!
//! Colours are display values in `[0, 1]`; the light multiplies them. Shadows are
//! baked once per render into maps at two heights (the table and the base tops), so
//! the per-sample cost is a bilinear lookup.

use crate::noise;
use crate::solids::{Grid, Solid, SolidKind};
use nalgebra::Vector3;
use rand::RngExt;
use rayon::prelude::*;
use std::ops::{Add, Mul};
use vedette_geometry::{MarkerColour, Vec2};

/// An RGB colour, each channel in `[0, 1]` before lighting.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub(crate) struct Colour {
    /// Red.
    pub r: f32,
    /// Green.
    pub g: f32,
    /// Blue.
    pub b: f32,
}

impl Colour {
    pub(crate) const fn new(r: f32, g: f32, b: f32) -> Self {
        Colour { r, g, b }
    }

    pub(crate) const fn grey(v: f32) -> Self {
        Colour { r: v, g: v, b: v }
    }

    /// The reflectance of a paint declared as sRGB 0-255 (a paint chart's value): each
    /// channel decoded to linear light, as the renders' values are.
    pub(crate) fn from_srgb(c: [u8; 3]) -> Self {
        let lin = |v: u8| {
            let c = f32::from(v) / 255.0;
            if c <= 0.04045 { c / 12.92 } else { ((c + 0.055) / 1.055).powf(2.4) }
        };
        Colour::new(lin(c[0]), lin(c[1]), lin(c[2]))
    }

    /// Linear mix: `self` at `t = 0`, `o` at `t = 1`.
    pub(crate) fn mix(self, o: Colour, t: f64) -> Colour {
        let t = t as f32;
        Colour::new(self.r + (o.r - self.r) * t, self.g + (o.g - self.g) * t, self.b + (o.b - self.b) * t)
    }

    /// The colour scaled by `k`, channel by channel.
    pub(crate) fn scaled(self, k: f64) -> Colour {
        self * k as f32
    }

    /// The colour with each channel varied by up to `±amount` (relative), from a hash.
    pub(crate) fn jittered(self, h: u64, amount: f64) -> Colour {
        let j = |i: u32| 1.0 + amount * (2.0 * noise::unit(h.rotate_left(i * 21)) - 1.0);
        Colour::new(self.r * j(0) as f32, self.g * j(1) as f32, self.b * j(2) as f32)
    }
}

impl Add for Colour {
    type Output = Colour;
    fn add(self, o: Colour) -> Colour {
        Colour::new(self.r + o.r, self.g + o.g, self.b + o.b)
    }
}

impl Mul<f32> for Colour {
    type Output = Colour;
    fn mul(self, k: f32) -> Colour {
        Colour::new(self.r * k, self.g * k, self.b * k)
    }
}

/// White paper of fiducials and tags.
pub(crate) const PAPER: Colour = Colour::new(0.93, 0.93, 0.9);
/// Printer's black.
pub(crate) const INK: Colour = Colour::new(0.05, 0.05, 0.06);
/// The floor around the table.
pub(crate) const FLOOR: Colour = Colour::new(0.2, 0.16, 0.13);

/// The colour of a status marker cube.
pub(crate) fn marker_colour(colour: Option<MarkerColour>) -> Colour {
    match colour {
        Some(MarkerColour::White) => Colour::new(0.9, 0.9, 0.87),
        Some(MarkerColour::Yellow) => Colour::new(0.92, 0.8, 0.15),
        Some(MarkerColour::Red) => Colour::new(0.72, 0.1, 0.1),
        Some(MarkerColour::Black) => Colour::new(0.07, 0.07, 0.07),
        Some(MarkerColour::Natural) | None => Colour::new(0.78, 0.62, 0.42),
    }
}

/// Uniform colours of the sides, by order of first appearance in the table: French
/// blue, British red, Austrian white, Russian green, Prussian dark blue, Bavarian sky.
pub(crate) const UNIFORMS: [Colour; 6] = [
    Colour::new(0.13, 0.18, 0.5),
    Colour::new(0.66, 0.1, 0.1),
    Colour::new(0.85, 0.84, 0.78),
    Colour::new(0.14, 0.3, 0.15),
    Colour::new(0.1, 0.11, 0.25),
    Colour::new(0.45, 0.6, 0.8),
];

/// The light: a distant lamp plus ambient light, with a gradient across the table.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Lighting {
    /// Unit vector towards the lamp.
    pub to_light: Vector3<f64>,
    /// Ambient share of the light.
    pub ambient: f64,
    /// Direct share of the light.
    pub direct: f64,
    /// Relative change of brightness per mm across the table.
    pub gradient_per_mm: Vec2,
    /// Where the gradient is neutral, table mm.
    pub centre: Vec2,
    /// A lamp near the table (its position, table mm, z up), whose direct light falls
    /// off with the square of the distance and the cosine of its angle
    /// ([`RenderOptions::nearby_lamp`](crate::RenderOptions)); `None`: a distant lamp
    /// along `to_light`, the same everywhere.
    pub lamp_mm: Option<Vector3<f64>>,
}

impl Lighting {
    /// A light drawn from `rng`: the lamp 50-75° high in any direction, a gradient of up
    /// to 25% across `extent_mm`.
    pub(crate) fn random(rng: &mut impl RngExt, centre: Vec2, extent_mm: f64) -> Lighting {
        let elevation = rng.random_range(50.0f64..75.0).to_radians();
        let azimuth = rng.random_range(0.0f64..360.0).to_radians();
        let to_light =
            Vector3::new(elevation.cos() * azimuth.cos(), elevation.cos() * azimuth.sin(), elevation.sin());
        let strength = rng.random_range(0.0..0.25) / extent_mm.max(1.0);
        let g = Vec2::from_heading_deg(rng.random_range(0.0..360.0)) * strength;
        Lighting { to_light, ambient: 0.5, direct: 0.55, gradient_per_mm: g, centre, lamp_mm: None }
    }

    /// This light with its lamp `height_mm` above the table point `over` instead of far
    /// away: its direct light on a surface facing it squarely at height `height_mm` below
    /// it is the distant lamp's, and falls off with the square of the distance and the
    /// cosine of the angle elsewhere; shadows fall away from it as seen from the table's
    /// centre.
    pub(crate) fn nearby(self, over: Vec2, height_mm: f64) -> Lighting {
        let lamp = Vector3::new(over.x, over.y, height_mm);
        let to_light = (lamp - Vector3::new(self.centre.x, self.centre.y, 0.0)).normalize();
        Lighting { to_light, lamp_mm: Some(lamp), ..self }
    }

    /// The light falling on a surface of the table plane at `p` with normal `n` (no
    /// shadow).
    pub(crate) fn intensity(&self, p: Vec2, n: &Vector3<f64>) -> f64 {
        self.intensity_at(&Vector3::new(p.x, p.y, 0.0), n)
    }

    /// The light falling on a surface at `q` (table mm, z up) with normal `n` (no
    /// shadow).
    pub(crate) fn intensity_at(&self, q: &Vector3<f64>, n: &Vector3<f64>) -> f64 {
        let p = Vec2::new(q.x, q.y);
        let gradient = (1.0 + (p - self.centre).dot(self.gradient_per_mm)).max(0.2);
        let direct = match self.lamp_mm {
            None => n.dot(&self.to_light).max(0.0),
            Some(lamp) => {
                let to = lamp - q;
                let d2 = to.norm_squared().max(1.0);
                // Inverse square, normalised to the lamp's height over the table.
                n.dot(&to).max(0.0) / d2.sqrt() * lamp.z * lamp.z / d2
            }
        };
        (self.ambient + self.direct * direct) * gradient
    }

    /// The share of a glossy horizontal top's mirror lobe (Blinn-Phong, exponent
    /// [`GLOSS`]) at `q` seen from `eye` (table mm): 1 where the top mirrors the lamp
    /// into the eye. `None` for a distant lamp (a glossy top then carries a uniform
    /// highlight).
    pub(crate) fn gloss_at(&self, q: &Vector3<f64>, eye: &Vector3<f64>) -> Option<f64> {
        let lamp = self.lamp_mm?;
        let half = (lamp - q).normalize() + (eye - q).normalize();
        let n = half.norm();
        Some(if n > 0.0 { (half.z / n).max(0.0).powf(GLOSS) } else { 0.0 })
    }

    /// How far a shadow moves horizontally per mm of height, table mm.
    pub(crate) fn shadow_shift(&self) -> Vec2 {
        let l = self.to_light;
        Vec2::new(-l.x / l.z, -l.y / l.z)
    }
}

/// The exponent of a glossy cube top's mirror lobe (Blinn-Phong): a varnished paint
/// under a lamp of some size (a shade, a bulb's diffuser), its highlight half gone 11°
/// from the mirror direction.
pub(crate) const GLOSS: f64 = 40.0;

/// The darkening of a horizontal surface at height `z_mm` by nearby taller solids:
/// ambient occlusion close to their footprints and a soft cast shadow. 1 is unshaded.
fn occlusion(solids: &[Solid], candidates: &[u32], p: Vec2, z_mm: f64, shift: Vec2) -> f64 {
    let mut light = 1.0;
    for &i in candidates {
        let Some(s) = solids.get(i as usize) else { continue };
        let h = s.z1_mm - z_mm;
        if h <= 0.05 {
            continue;
        }
        let d = s.footprint.distance(p);
        let ao_range = (0.5 + 0.25 * h).min(5.0);
        let penumbra = 0.4 + 0.08 * h;
        if d > 5.0 * ao_range && d > shift.length() * h + 3.0 * penumbra {
            // Both terms are below 0.3% here.
            continue;
        }
        let ao = 0.28 * (-d / ao_range).exp();
        let bottom = (s.z0_mm - z_mm).max(0.0);
        let mut ds = f64::INFINITY;
        for k in 0..4 {
            let eta = bottom + (h - bottom) * f64::from(k) / 3.0;
            ds = ds.min(s.footprint.distance(p - shift * eta));
        }
        let shadow = 0.3 * (-(ds / penumbra).powi(2)).exp();
        light *= 1.0 - ao.max(shadow);
    }
    light.max(0.25)
}

/// How far shadows and occlusion reach beyond a footprint for solids up to `top_mm`
/// high, mm: what the shading grid must be grown by.
pub(crate) fn shadow_reach_mm(lighting: &Lighting, top_mm: f64) -> f64 {
    top_mm * lighting.shadow_shift().length() + 0.4 + 0.08 * top_mm * 3.0 + 6.0
}

/// A horizontal plane that shadows fall on.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Plane {
    /// The table, z = 0.
    Table,
    /// The base tops, `z_mm` above the table: only texels on a base are baked (nothing
    /// else is seen at that height).
    BaseTops { z_mm: f64 },
}

/// Baked occlusion of one horizontal plane, on a square texel grid.
pub(crate) struct ShadowMap {
    origin: Vec2,
    texel_mm: f64,
    cols: usize,
    rows: usize,
    light: Vec<f32>,
}

impl ShadowMap {
    /// Bakes the occlusion of a plane over `min..max` (table mm).
    pub(crate) fn bake(
        solids: &[Solid],
        grid: &Grid,
        shift: Vec2,
        plane: Plane,
        (min, max): (Vec2, Vec2),
        texel_mm: f64,
    ) -> ShadowMap {
        let cols = (((max.x - min.x) / texel_mm).ceil() as usize + 1).max(2);
        let rows = (((max.y - min.y) / texel_mm).ceil() as usize + 1).max(2);
        let (z_mm, bases_only) = match plane {
            Plane::Table => (0.0, false),
            Plane::BaseTops { z_mm } => (z_mm, true),
        };
        let mut light = vec![1.0f32; cols * rows];
        light.par_chunks_mut(cols).enumerate().for_each(|(r, row)| {
            for (c, v) in row.iter_mut().enumerate() {
                let p = Vec2::new(min.x + c as f64 * texel_mm, min.y + r as f64 * texel_mm);
                let candidates = grid.at(p);
                let on_base = || {
                    candidates.iter().any(|&i| {
                        solids.get(i as usize).is_some_and(|s| {
                            matches!(s.kind, SolidKind::Base { .. }) && s.footprint.distance(p) == 0.0
                        })
                    })
                };
                if !candidates.is_empty() && (!bases_only || on_base()) {
                    *v = occlusion(solids, candidates, p, z_mm, shift) as f32;
                }
            }
        });
        ShadowMap { origin: min, texel_mm, cols, rows, light }
    }

    /// The light reaching `p`, bilinearly interpolated; 1 off the map.
    pub(crate) fn sample(&self, p: Vec2) -> f64 {
        let x = (p.x - self.origin.x) / self.texel_mm;
        let y = (p.y - self.origin.y) / self.texel_mm;
        if !(x >= 0.0 && y >= 0.0 && x < (self.cols - 1) as f64 && y < (self.rows - 1) as f64) {
            return 1.0;
        }
        let (c, r) = (x as usize, y as usize);
        let (tx, ty) = ((x - c as f64) as f32, (y - r as f64) as f32);
        let at = |dc: usize, dr: usize| self.light[(r + dr) * self.cols + c + dc];
        let top = at(0, 0) + (at(1, 0) - at(0, 0)) * tx;
        let bottom = at(0, 1) + (at(1, 1) - at(0, 1)) * tx;
        f64::from(top + (bottom - top) * ty)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solids::Footprint;

    #[test]
    fn shadows_darken_near_solids_and_fall_away_from_the_light() {
        let solids = [Solid {
            footprint: Footprint::Circle { centre: Vec2::new(50.0, 50.0), radius: 3.0 },
            z0_mm: 0.0,
            z1_mm: 20.0,
            colour: Colour::grey(0.5),
            kind: SolidKind::Figure,
        }];
        // Light from +x, 45° up: shadows fall towards -x.
        let lighting = Lighting {
            to_light: Vector3::new(1.0, 0.0, 1.0).normalize(),
            ambient: 0.5,
            direct: 0.5,
            gradient_per_mm: Vec2::ZERO,
            centre: Vec2::ZERO,
            lamp_mm: None,
        };
        let area = (Vec2::new(0.0, 0.0), Vec2::new(100.0, 100.0));
        let reach = shadow_reach_mm(&lighting, 20.0);
        let grid = Grid::build(&solids, area.0, area.1, 16.0, reach);
        let map = ShadowMap::bake(&solids, &grid, lighting.shadow_shift(), Plane::Table, area, 1.0);
        let behind = map.sample(Vec2::new(40.0, 50.0));
        let front = map.sample(Vec2::new(60.0, 50.0));
        let far = map.sample(Vec2::new(95.0, 95.0));
        assert!(behind < front, "{behind} {front}");
        assert!(front < 0.99, "{front}");
        assert!(far > 0.999, "{far}");
        // A plane of base tops is baked only on bases: there are none here.
        let tops = ShadowMap::bake(
            &solids,
            &grid,
            lighting.shadow_shift(),
            Plane::BaseTops { z_mm: 3.0 },
            area,
            1.0,
        );
        assert!((tops.sample(Vec2::new(40.0, 50.0)) - 1.0).abs() < 1e-6);
    }

    #[test]
    fn lighting_prefers_surfaces_facing_the_lamp() {
        let l = Lighting {
            to_light: Vector3::new(0.0, 0.0, 1.0),
            ambient: 0.5,
            direct: 0.5,
            gradient_per_mm: Vec2::new(0.001, 0.0),
            centre: Vec2::ZERO,
            lamp_mm: None,
        };
        let up = Vector3::new(0.0, 0.0, 1.0);
        let side = Vector3::new(1.0, 0.0, 0.0);
        assert!((l.intensity(Vec2::ZERO, &up) - 1.0).abs() < 1e-12);
        assert!((l.intensity(Vec2::ZERO, &side) - 0.5).abs() < 1e-12);
        assert!((l.intensity(Vec2::new(100.0, 0.0), &up) - 1.1).abs() < 1e-12);
    }

    /// A nearby lamp: under it, a horizontal surface takes the distant lamp's light; a
    /// top 9.5 mm nearer it the inverse square more; 1 m aside at 1.5 m high, the cube
    /// of the cosine; a glossy top mirrors it fully only where its lobe meets the eye.
    #[test]
    fn a_nearby_lamp_falls_off_with_the_square_of_the_distance() {
        let far = Lighting {
            to_light: Vector3::new(0.0, 0.0, 1.0),
            ambient: 0.0,
            direct: 1.0,
            gradient_per_mm: Vec2::ZERO,
            centre: Vec2::ZERO,
            lamp_mm: None,
        };
        let l = far.nearby(Vec2::ZERO, 1500.0);
        let up = Vector3::new(0.0, 0.0, 1.0);
        assert!((l.intensity(Vec2::ZERO, &up) - 1.0).abs() < 1e-12);
        let top = l.intensity_at(&Vector3::new(0.0, 0.0, 9.5), &up);
        assert!((top - (1500.0f64 / 1490.5).powi(2)).abs() < 1e-12, "{top}");
        let aside = l.intensity(Vec2::new(1000.0, 0.0), &up);
        assert!((aside - (1.0 + (1000.0f64 / 1500.0).powi(2)).powf(-1.5)).abs() < 1e-12, "{aside}");
        let eye = Vector3::new(400.0, 0.0, 1500.0);
        let mirror = l.gloss_at(&Vector3::new(200.0, 0.0, 0.0), &eye).unwrap();
        let off = l.gloss_at(&Vector3::new(600.0, 300.0, 0.0), &eye).unwrap();
        assert!((mirror - 1.0).abs() < 1e-12 && off < 0.5, "{mirror} {off}");
        assert!(far.gloss_at(&Vector3::zeros(), &eye).is_none());
    }
}
