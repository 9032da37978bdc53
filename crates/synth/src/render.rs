//! Taking the photo: builds the world (props, light, baked surfaces), casts the rays
//! and develops the image.

use crate::camera::Camera;
use crate::error::SynthError;
use crate::output::{Render, Truth};
use crate::props;
use crate::raster::{self, World};
use crate::scene::Scene;
use crate::sensor::{self, SensorOptions};
use crate::shading::{Lighting, ShadowMap, shadow_reach_mm};
use crate::solids::Grid;
use crate::texture::TableTexture;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use vedette_geometry::Vec2;

/// Grid cell of the solid lookup, mm: a little under a figure-crowded base.
const GRID_CELL_MM: f64 = 16.0;
/// Texel of the baked shadow maps, mm: shadows are soft.
const SHADOW_TEXEL_MM: f64 = 1.0;

/// How to render. Every random choice (light, clutter, textures, noise) comes from
/// `seed`: the same scene, camera and options give the same image.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RenderOptions {
    /// The seed of every random choice.
    pub seed: u64,
    /// Samples per pixel along each axis (2: 4 samples).
    pub supersampling: u32,
    /// Samples per pixel along each axis where the first samples saw different
    /// surfaces or printed cells (6: 36 samples).
    pub edge_supersampling: u32,
    /// Texel of the baked mat and terrain, mm.
    pub texel_mm: f64,
    /// Figures standing on the bases.
    pub clutter: bool,
    /// Optics and sensor.
    pub sensor: SensorOptions,
    /// JPEG quality used by [`Render::encode_jpeg`] and [`Render::write`], 1..=100.
    pub jpeg_quality: u8,
}

impl Default for RenderOptions {
    /// Seed 0, 2x2 samples (6x6 on edges), 0.5 mm texels, clutter, the default
    /// sensor, JPEG quality 90.
    fn default() -> Self {
        RenderOptions {
            seed: 0,
            supersampling: 2,
            edge_supersampling: 6,
            texel_mm: 0.5,
            clutter: true,
            sensor: SensorOptions::default(),
            jpeg_quality: 90,
        }
    }
}

impl RenderOptions {
    /// The default options with this seed.
    #[must_use]
    pub fn seeded(seed: u64) -> Self {
        RenderOptions { seed, ..RenderOptions::default() }
    }

    fn check(&self) -> Result<(), SynthError> {
        let bad = |option, value: f64, reason| Err(SynthError::InvalidOption { option, value, reason });
        if !(1..=16).contains(&self.supersampling) {
            return bad("supersampling", f64::from(self.supersampling), "must be 1..=16");
        }
        if !(1..=16).contains(&self.edge_supersampling) {
            return bad("edge_supersampling", f64::from(self.edge_supersampling), "must be 1..=16");
        }
        if !(self.texel_mm >= 0.05 && self.texel_mm <= 10.0) {
            return bad("texel_mm", self.texel_mm, "must be 0.05..=10 mm");
        }
        if !(1..=100).contains(&self.jpeg_quality) {
            return bad("jpeg_quality", f64::from(self.jpeg_quality), "must be 1..=100");
        }
        self.sensor.check()
    }
}

/// Renders the scene as `camera` sees it.
///
/// ```
/// use vedette_geometry::{Table, Vec2};
/// use vedette_synth::{Camera, LookAt, RenderOptions, Resolution, Scene, StandardLayout, render};
/// let table = Table::from_json_str(r#"{"schema":"vedette/table/1","rules":"republique5",
///   "scale":"medium","size":{"width":300,"depth":200},"units":[{"id":"a",
///   "side":"fr","kind":"infantry","formation":"line",
///   "bases":[{"x":150,"y":100,"heading":90,"width":30,"depth":20}]}]}"#)?;
/// let layout = StandardLayout { inset_mm: 30.0, fiducial_side_mm: 30.0, ..Default::default() }.build(&table)?;
/// let scene = Scene::new(table, &layout)?;
/// let camera = Camera::looking_at(&LookAt {
///     target_mm: Vec2::new(150.0, 100.0),
///     height_mm: 400.0,
///     tilt_deg: 10.0,
///     yaw_deg: 0.0,
///     focal_mm: 4.3,
///     sensor_width_mm: 6.2,
///     resolution: Resolution::new(160, 120),
/// })?;
/// let photo = render(&scene, &camera, &RenderOptions::seeded(7))?;
/// assert_eq!(photo.image.dimensions(), (160, 120));
/// // The truth knows where the tag's corners are in the photo.
/// let corners = &photo.truth.camera.tags[0].marker.corners_px;
/// assert!(corners.iter().all(|c| c.is_some()));
/// # Ok::<(), vedette_synth::SynthError>(())
/// ```
pub fn render(scene: &Scene, camera: &Camera, options: &RenderOptions) -> Result<Render, SynthError> {
    options.check()?;
    let size = scene.size();
    let fiducials = scene.printed_fiducials()?;
    let tags = scene.printed_tags()?;
    let props = props::build(scene, &tags, camera, options.clutter, options.seed);
    let mut rng = ChaCha8Rng::seed_from_u64(options.seed);
    let centre = Vec2::new(size.width / 2.0, size.depth / 2.0);
    let lighting = Lighting::random(&mut rng, centre, size.width.hypot(size.depth));

    // The grids cover the table and everything standing on or off it.
    let (mut min, mut max) = (Vec2::ZERO, Vec2::new(size.width, size.depth));
    for s in &props.solids {
        let (lo, hi) = s.footprint.bounds();
        min = Vec2::new(min.x.min(lo.x), min.y.min(lo.y));
        max = Vec2::new(max.x.max(hi.x), max.y.max(hi.y));
    }
    let hits = Grid::build(&props.solids, min, max, GRID_CELL_MM, 0.0);
    let reach = shadow_reach_mm(&lighting, hits.top_mm);
    let pad = Vec2::new(reach, reach);
    let shading = Grid::build(&props.solids, min - pad, max + pad, GRID_CELL_MM, reach);
    let shift = lighting.shadow_shift();
    let area = (Vec2::ZERO, Vec2::new(size.width, size.depth));
    let table_shadow = ShadowMap::bake(&props.solids, &shading, shift, 0.0, area, SHADOW_TEXEL_MM);
    let top_shadow =
        ShadowMap::bake(&props.solids, &shading, shift, scene.base_height_mm(), area, SHADOW_TEXEL_MM);
    let texture = TableTexture::bake(size, &scene.table().terrain, options.texel_mm, options.seed);

    let world = World {
        camera,
        size,
        solids: props.solids,
        hits,
        texture,
        table_shadow,
        top_shadow,
        fiducials,
        tags,
        lighting,
        seed: options.seed,
    };
    let pixels = raster::rasterize(&world, options.supersampling, options.edge_supersampling);
    let width = camera.resolution().width_px as usize;
    let image = sensor::develop(pixels, width, &options.sensor, options.seed);
    let truth = Truth::new(&world, scene, options.seed, props.figures);
    Ok(Render { image, truth, jpeg_quality: options.jpeg_quality })
}
