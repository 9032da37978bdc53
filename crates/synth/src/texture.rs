//! The flat table surface, baked once per render: a felt or grass mat, terrain areas
//! (woods, buildings, hills, water...) as textured polygons and linear obstacles
//! (roads, walls, hedges...) as strips.

use crate::noise;
use crate::shading::Colour;
use rayon::prelude::*;
use vedette_geometry::{Polygon, Segment, TableSize, TerrainFeature, TerrainKind, Vec2};

/// How a terrain kind looks: its colour, how blotchy it is, and for linear obstacles
/// the strip width.
struct Look {
    colour: Colour,
    /// Relative brightness variation.
    blotch: f64,
    /// Spacing of the blotches, mm.
    blotch_mm: f64,
    /// Strip width for linear kinds, mm.
    width_mm: f64,
}

fn look(kind: TerrainKind) -> Look {
    let l = |r, g, b, blotch, blotch_mm, width_mm| Look {
        colour: Colour::new(r, g, b),
        blotch,
        blotch_mm,
        width_mm,
    };
    match kind {
        TerrainKind::LightBuildings => l(0.62, 0.5, 0.38, 0.25, 3.0, 0.0),
        TerrainKind::MediumBuildings => l(0.6, 0.33, 0.25, 0.25, 3.0, 0.0),
        TerrainKind::HeavyBuildings => l(0.5, 0.48, 0.46, 0.25, 3.0, 0.0),
        TerrainKind::ReinforcedBuildings => l(0.42, 0.4, 0.4, 0.2, 4.0, 0.0),
        TerrainKind::LightForest => l(0.2, 0.36, 0.14, 0.55, 7.0, 0.0),
        TerrainKind::Orchard => l(0.3, 0.45, 0.18, 0.5, 9.0, 0.0),
        TerrainKind::MediumForest => l(0.14, 0.28, 0.1, 0.6, 7.0, 0.0),
        TerrainKind::HeavyForest => l(0.09, 0.2, 0.07, 0.6, 6.0, 0.0),
        // Marsh and hills have colours of their own (felt or painted board), as the
        // scanner's terrain classes need (issue 19): grey-blue reeds, an evenly painted
        // ochre slope (its shading must not take it to the mat's lighter patches).
        TerrainKind::Marsh => l(0.3, 0.36, 0.34, 0.35, 12.0, 0.0),
        TerrainKind::Vineyard => l(0.36, 0.42, 0.2, 0.45, 4.0, 0.0),
        TerrainKind::SteepGround => l(0.45, 0.4, 0.32, 0.45, 5.0, 0.0),
        TerrainKind::Hill => l(0.58, 0.48, 0.3, 0.1, 40.0, 0.0),
        TerrainKind::Water => l(0.2, 0.32, 0.45, 0.2, 20.0, 0.0),
        TerrainKind::Road => l(0.62, 0.52, 0.38, 0.2, 6.0, 25.0),
        TerrainKind::FortressWall => l(0.55, 0.53, 0.5, 0.2, 3.0, 12.0),
        TerrainKind::RiverBank => l(0.4, 0.32, 0.22, 0.3, 6.0, 10.0),
        TerrainKind::StreamBank => l(0.3, 0.35, 0.42, 0.3, 6.0, 8.0),
        TerrainKind::StoneWall => l(0.58, 0.56, 0.52, 0.3, 2.0, 6.0),
        TerrainKind::Redoubt => l(0.48, 0.38, 0.25, 0.3, 5.0, 12.0),
        TerrainKind::Treeline => l(0.12, 0.26, 0.09, 0.6, 5.0, 12.0),
        TerrainKind::Hedge => l(0.16, 0.33, 0.12, 0.5, 3.0, 8.0),
    }
}

/// Spacing of the grid the mat's large colour patches are evaluated on, mm.
const PATCH_GRID_MM: f64 = 10.0;

/// The colour of the table's mat (issue 37: brown and sand mats beside the green, on
/// which bases of other flocks stand out less or more).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MatColour {
    /// Grass green (the samples' mat).
    #[default]
    Green,
    /// Earth brown.
    Brown,
    /// Dry sand.
    Sand,
}

impl MatColour {
    /// The mat's colour and the colour of its lighter patches.
    pub(crate) fn colours(self) -> (Colour, Colour) {
        match self {
            MatColour::Green => (Colour::new(0.3, 0.42, 0.19), Colour::new(0.42, 0.45, 0.22)),
            MatColour::Brown => (Colour::new(0.4, 0.31, 0.2), Colour::new(0.47, 0.37, 0.24)),
            MatColour::Sand => (Colour::new(0.62, 0.54, 0.38), Colour::new(0.68, 0.6, 0.44)),
        }
    }
}

/// A terrain feature ready to paint.
struct Painter {
    kind: TerrainKind,
    look: Look,
    colour: Colour,
    polygon: Polygon,
    segments: Vec<Segment>,
    min: Vec2,
    max: Vec2,
    seed: u64,
}

impl Painter {
    fn new(f: &TerrainFeature, index: u64, seed: u64) -> Option<Painter> {
        let look = look(f.kind);
        let seed = noise::hash2(seed, 1000 + index as i64, 7);
        let colour = look.colour.jittered(seed, 0.08);
        let linear = !f.path.is_empty();
        let points = if linear { &f.path } else { &f.outline };
        let reach = if linear { look.width_mm / 2.0 } else { 0.0 };
        let first = points.first()?;
        let (mut min, mut max) = (*first, *first);
        for p in points {
            min = Vec2::new(min.x.min(p.x), min.y.min(p.y));
            max = Vec2::new(max.x.max(p.x), max.y.max(p.y));
        }
        let r = Vec2::new(reach, reach);
        let segments =
            if linear { f.path.windows(2).map(|w| Segment::new(w[0], w[1])).collect() } else { Vec::new() };
        Some(Painter {
            kind: f.kind,
            look,
            colour,
            polygon: f.polygon(),
            segments,
            min: min - r,
            max: max + r,
            seed,
        })
    }

    /// The feature's colour at `p`, if it covers `p`.
    fn paint(&self, p: Vec2) -> Option<Colour> {
        if p.x < self.min.x || p.y < self.min.y || p.x > self.max.x || p.y > self.max.y {
            return None;
        }
        let inside = if self.segments.is_empty() {
            self.polygon.contains(p)
        } else {
            let half = self.look.width_mm / 2.0;
            self.segments.iter().any(|s| s.closest_point(p).distance_2(p) <= half * half)
        };
        if !inside {
            return None;
        }
        let blotch = noise::fractal(self.seed, p.x, p.y, self.look.blotch_mm, 3);
        let mut c = self.colour.scaled(1.0 + self.look.blotch * (blotch - 0.5) * 2.0);
        if self.kind == TerrainKind::Vineyard && (p.x / 8.0).rem_euclid(1.0) < 0.3 {
            c = c.scaled(0.7);
        }
        Some(c)
    }
}

/// The painted table surface on a square texel grid covering the table.
pub(crate) struct TableTexture {
    texel_mm: f64,
    cols: usize,
    rows: usize,
    texels: Vec<Colour>,
}

impl TableTexture {
    /// Paints the mat and the terrain of a table of `size` with texels of `texel_mm`.
    pub(crate) fn bake(
        size: TableSize,
        terrain: &[TerrainFeature],
        texel_mm: f64,
        seed: u64,
        mat: MatColour,
    ) -> TableTexture {
        let (mat, patch) = mat.colours();
        let cols = ((size.width / texel_mm).ceil() as usize + 1).max(2);
        let rows = ((size.depth / texel_mm).ceil() as usize + 1).max(2);
        // Hills first, then areas, then the linear obstacles over them.
        let mut painters: Vec<Painter> =
            terrain.iter().zip(0u64..).filter_map(|(f, i)| Painter::new(f, i, seed)).collect();
        painters.sort_by_key(|p| match (p.kind, p.segments.is_empty()) {
            (TerrainKind::Hill, _) => 0,
            (_, true) => 1,
            (_, false) => 2,
        });
        // The large colour patches vary slowly: evaluate them on a coarse grid.
        let coarse_cols = (size.width / PATCH_GRID_MM).ceil() as usize + 2;
        let coarse_rows = (size.depth / PATCH_GRID_MM).ceil() as usize + 2;
        let coarse: Vec<f64> = (0..coarse_cols * coarse_rows)
            .into_par_iter()
            .map(|k| {
                let (x, y) = ((k % coarse_cols) as f64, (k / coarse_cols) as f64);
                noise::fractal(seed, x * PATCH_GRID_MM, y * PATCH_GRID_MM, 150.0, 3)
            })
            .collect();
        let patches = |p: Vec2| {
            let (x, y) = (p.x / PATCH_GRID_MM, p.y / PATCH_GRID_MM);
            let (c, r) = ((x as usize).min(coarse_cols - 2), (y as usize).min(coarse_rows - 2));
            let (tx, ty) = (x - c as f64, y - r as f64);
            let at = |dc: usize, dr: usize| coarse[(r + dr) * coarse_cols + c + dc];
            let top = at(0, 0) + (at(1, 0) - at(0, 0)) * tx;
            let bottom = at(0, 1) + (at(1, 1) - at(0, 1)) * tx;
            top + (bottom - top) * ty
        };
        let mut texels = vec![Colour::default(); cols * rows];
        texels.par_chunks_mut(cols).enumerate().for_each(|(r, row)| {
            let y = r as f64 * texel_mm;
            for (c, t) in row.iter_mut().enumerate() {
                let p = Vec2::new(c as f64 * texel_mm, y);
                let patches = patches(p);
                let tufts = noise::value(seed ^ 0x5eed, p.x / 1.5, p.y / 1.5);
                let grain = noise::unit(noise::hash2(seed ^ 0xfe17, c as i64, r as i64));
                let mut colour = mat.mix(patch, patches).scaled(0.9 + 0.14 * tufts + 0.06 * grain);
                for painter in &painters {
                    if let Some(paint) = painter.paint(p) {
                        colour = paint.scaled(0.96 + 0.08 * grain);
                    }
                }
                *t = colour;
            }
        });
        TableTexture { texel_mm, cols, rows, texels }
    }

    /// The surface colour at a table point, bilinearly interpolated (clamped at the
    /// table edges).
    pub(crate) fn sample(&self, p: Vec2) -> Colour {
        let x = (p.x / self.texel_mm).clamp(0.0, (self.cols - 1) as f64 - 1e-9);
        let y = (p.y / self.texel_mm).clamp(0.0, (self.rows - 1) as f64 - 1e-9);
        let (c, r) = (x as usize, y as usize);
        let (tx, ty) = (x - c as f64, y - r as f64);
        let at = |dc: usize, dr: usize| self.texels[(r + dr) * self.cols + c + dc];
        let top = at(0, 0).mix(at(1, 0), tx);
        let bottom = at(0, 1).mix(at(1, 1), tx);
        top.mix(bottom, ty)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terrain_is_painted_where_it_lies() {
        let size = TableSize { width: 200.0, depth: 100.0 };
        let terrain: Vec<TerrainFeature> = serde_json::from_str(
            r#"[{"kind":"water","outline":[[10,10],[60,10],[60,60],[10,60]]},
                {"kind":"road","path":[[100,0],[100,100]]}]"#,
        )
        .unwrap();
        let tex = TableTexture::bake(size, &terrain, 1.0, 3, MatColour::Green);
        let water = tex.sample(Vec2::new(35.0, 35.0));
        let road = tex.sample(Vec2::new(105.0, 50.0));
        let mat = tex.sample(Vec2::new(150.0, 80.0));
        assert!(water.b > water.g && water.b > water.r, "{water:?}");
        assert!(road.r > road.g && road.g > road.b, "{road:?}");
        assert!(mat.g > mat.r && mat.g > mat.b, "{mat:?}");
        // The road is 25 mm wide: 15 mm off its centre line is mat again.
        let beside = tex.sample(Vec2::new(115.0, 50.0));
        assert!(beside.g > beside.r, "{beside:?}");
    }
}
