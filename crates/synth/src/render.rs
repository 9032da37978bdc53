//! Taking the photo: builds the world (props, light, baked surfaces), casts the rays
//! and develops the image.

use crate::camera::Camera;
use crate::error::SynthError;
use crate::output::{Render, Truth};
use crate::props::{self, FigureSpacing};
use crate::raster::{self, World};
use crate::scene::Scene;
use crate::sensor::{self, SensorOptions};
use crate::shading::{Lighting, Plane, ShadowMap, shadow_reach_mm};
use crate::solids::Grid;
use crate::texture::{MatColour, TableTexture};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use vedette_geometry::Vec2;

/// Grid cell of the solid lookup, mm: a little under a figure-crowded base.
const GRID_CELL_MM: f64 = 16.0;
/// How far beyond the table edges the solid grids reach, mm.
const GRID_MARGIN_MM: f64 = 2000.0;
/// The most texels a baked table texture may have (1.2 GB of colour).
const MAX_TEXELS: f64 = 1e8;

/// Finest texel of the baked shadow maps, mm: shadows are soft.
const SHADOW_TEXEL_MM: f64 = 1.0;

/// The coats units wear with [`RenderOptions::unit_coats`], sRGB 0-255 as a painter
/// declares them (a paint chart's values): French blue, red, green, yellow, white, sky
/// blue, black, purple.
pub const UNIT_COATS: [[u8; 3]; 8] = [
    [40, 52, 120],
    [180, 30, 35],
    [40, 90, 50],
    [210, 180, 50],
    [225, 222, 210],
    [110, 160, 210],
    [35, 35, 38],
    [120, 60, 130],
];

/// How to render. Every random choice (light, clutter, textures, noise) comes from
/// `seed`: the same scene, camera and options give the same image.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RenderOptions {
    /// The seed of every random choice.
    pub seed: u64,
    /// Samples per pixel along each axis in the first pass (1).
    pub supersampling: u32,
    /// Samples per pixel along each axis on edges: where a pixel's first samples, or a
    /// pixel and a neighbour, saw different surfaces or printed cells (6: 36 samples).
    pub edge_supersampling: u32,
    /// Texel of the baked mat and terrain, mm (shadow maps use twice this, at least
    /// 1 mm). Baking costs time in proportion to the table's area over the texel's:
    /// small test renders of a large table go faster with 2-4 mm.
    pub texel_mm: f64,
    /// Figures standing on the bases.
    pub clutter: bool,
    /// How close figures may stand to the base tags (issue 18).
    pub figure_spacing: FigureSpacing,
    /// Optics and sensor.
    pub sensor: SensorOptions,
    /// JPEG quality used by [`Render::encode_jpeg`] and [`Render::write`], 1..=100.
    pub jpeg_quality: u8,
    /// The mat's colour (green).
    pub mat: MatColour,
    /// Every `k`-th unit (by index, from the first) has its bases flocked in the mat's
    /// own colour, so that their edges hardly show (issue 37); 0: none (the default).
    pub mat_flocked_every: usize,
    /// How far figures may reach past their base's edges, mm (1.5; issue 37 renders
    /// 1-3 mm).
    pub overhang_mm: f64,
    /// Issue 37 (twins told apart by their paint): when `k > 0`, unit `i` (by index)
    /// wears [`UNIT_COATS`]`[i % k]` (`k` at most its length), so units `k` apart are
    /// painted alike; 0 (the default): every unit wears its side's uniform.
    pub unit_coats: usize,
    /// Exposure away from the scene's own, in stops (0): the light reaching the
    /// sensor is scaled by 2^EV before the sensor's noise and its 8 bits, so +1 clips
    /// the brightest paper and -1 halves every level (issue 36).
    pub exposure_ev: f64,
    /// Houses stand on the templates of towns (issue 36: a town is a template with
    /// houses on it, which the scan does not know of): up to four
    /// each, clear of the template's edge, the fiducials and the tags (false).
    pub houses: bool,
    /// White balance: gains on red, green and blue before the sensor (1, 1, 1); a warm
    /// cast of indoor light left uncorrected is about (1.15, 1.0, 0.8) (issue 36).
    pub white_balance: [f64; 3],
    /// The lamp mirrored in glossy cube tops (issue 36: the second renderer's red tops
    /// read pink, its yellow ones pale): a grey of this much light (0-1 of white,
    /// before exposure and white balance) added to the top of every painted cube
    /// (natural wood is matte); 0 (the default): matte tops.
    pub cube_highlight: f64,
    /// A lamp near the table instead of a distant one (issue 36): hung this high over
    /// this table point, its direct light falls off with the square of the distance
    /// and the cosine of its angle, so that the table under it is brighter than the
    /// plane its corners make and a cube's top, nearer it, brighter again; a glossy
    /// top ([`RenderOptions::cube_highlight`]) mirrors it in a lobe. `None` (the
    /// default): a distant lamp, the same light everywhere but for a plane's gradient.
    pub nearby_lamp: Option<NearbyLamp>,
    /// Store the photo sRGB-encoded, as a phone's JPEG is (issue 36: light raised to
    /// about 1/2.2 after the sensor's noise, then 8 bits), rather than with values
    /// proportional to light (false, the default).
    pub srgb: bool,
}

/// A lamp hung over the table ([`RenderOptions::nearby_lamp`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NearbyLamp {
    /// The table point it hangs over, table mm.
    pub over: Vec2,
    /// Its height above the table, mm (at least 100).
    pub height_mm: f64,
}

impl Default for RenderOptions {
    /// Seed 0, one sample per pixel (6x6 on edges), 0.5 mm texels, clutter, the default
    /// sensor, JPEG quality 90.
    fn default() -> Self {
        RenderOptions {
            seed: 0,
            supersampling: 1,
            edge_supersampling: 6,
            texel_mm: 0.5,
            clutter: true,
            figure_spacing: FigureSpacing::ClearOfTags,
            sensor: SensorOptions::default(),
            jpeg_quality: 90,
            mat: MatColour::Green,
            mat_flocked_every: 0,
            overhang_mm: props::DEFAULT_OVERHANG_MM,
            unit_coats: 0,
            exposure_ev: 0.0,
            houses: false,
            white_balance: [1.0; 3],
            cube_highlight: 0.0,
            nearby_lamp: None,
            srgb: false,
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
        if self.unit_coats > UNIT_COATS.len() {
            return bad("unit_coats", self.unit_coats as f64, "must be 0..=8 (the coats of UNIT_COATS)");
        }
        if !(0.0..=5.0).contains(&self.overhang_mm) {
            return bad("overhang_mm", self.overhang_mm, "must be 0..=5 mm");
        }
        if !(1..=100).contains(&self.jpeg_quality) {
            return bad("jpeg_quality", f64::from(self.jpeg_quality), "must be 1..=100");
        }
        if !(-4.0..=4.0).contains(&self.exposure_ev) {
            return bad("exposure_ev", self.exposure_ev, "must be -4..=4 stops");
        }
        if let Some(g) = self.white_balance.iter().find(|g| !(0.25..=4.0).contains(*g)) {
            return bad("white_balance", *g, "each gain must be 0.25..=4");
        }
        if !(0.0..=1.0).contains(&self.cube_highlight) {
            return bad("cube_highlight", self.cube_highlight, "must be 0..=1 of white");
        }
        if let Some(lamp) = self.nearby_lamp
            && !(lamp.height_mm.is_finite() && lamp.height_mm >= 100.0)
        {
            return bad("nearby_lamp.height_mm", lamp.height_mm, "must be at least 100 mm above the table");
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
    render_with_noise(scene, camera, options, options.seed)
}

/// The photo of the scene's empty table ([`Scene::emptied`]) as [`render`] would take
/// it with these options (issue 37's `--background`): the same mat texture, terrain,
/// fiducials and light (all drawn from `options.seed`), another draw of the sensor's
/// noise (`noise_seed`), from `camera` (the scene's own, or nudged as a tripod is).
pub fn render_empty(
    scene: &Scene,
    camera: &Camera,
    options: &RenderOptions,
    noise_seed: u64,
) -> Result<Render, SynthError> {
    render_with_noise(&scene.emptied(), camera, options, noise_seed)
}

/// [`render`], the sensor's noise drawn from `noise_seed`.
fn render_with_noise(
    scene: &Scene,
    camera: &Camera,
    options: &RenderOptions,
    noise_seed: u64,
) -> Result<Render, SynthError> {
    options.check()?;
    let size = scene.size();
    if size.width * size.depth / (options.texel_mm * options.texel_mm) > MAX_TEXELS {
        return Err(SynthError::InvalidOption {
            option: "texel_mm",
            value: options.texel_mm,
            reason: "too fine for this table: the mat texture would exceed 100 million texels",
        });
    }
    let fiducials = scene.printed_fiducials()?;
    let tags = scene.printed_tags()?;
    let props = props::build(scene, &fiducials, &tags, camera, options);
    let mut rng = ChaCha8Rng::seed_from_u64(options.seed);
    let centre = Vec2::new(size.width / 2.0, size.depth / 2.0);
    let mut lighting = Lighting::random(&mut rng, centre, size.width.hypot(size.depth));
    if let Some(lamp) = options.nearby_lamp {
        lighting = lighting.nearby(lamp.over, lamp.height_mm);
    }

    // The grids cover the table and everything standing on or near it (solids farther
    // off share the border cells: still drawn, but their shadows are not).
    let (mut min, mut max) = (Vec2::ZERO, Vec2::new(size.width, size.depth));
    for s in &props.solids {
        let (lo, hi) = s.footprint.bounds();
        min = Vec2::new(min.x.min(lo.x), min.y.min(lo.y));
        max = Vec2::new(max.x.max(hi.x), max.y.max(hi.y));
    }
    let far = Vec2::new(GRID_MARGIN_MM, GRID_MARGIN_MM);
    min = Vec2::new(min.x.max(-far.x), min.y.max(-far.y));
    max = Vec2::new(max.x.min(size.width + far.x), max.y.min(size.depth + far.y));
    let hits = Grid::build(&props.solids, min, max, GRID_CELL_MM, 0.0);
    let reach = shadow_reach_mm(&lighting, hits.top_mm);
    let pad = Vec2::new(reach, reach);
    let shading = Grid::build(&props.solids, min - pad, max + pad, GRID_CELL_MM, reach);
    let shift = lighting.shadow_shift();
    let area = (Vec2::ZERO, Vec2::new(size.width, size.depth));
    let shadow_texel_mm = SHADOW_TEXEL_MM.max(2.0 * options.texel_mm);
    let table_shadow = ShadowMap::bake(&props.solids, &shading, shift, Plane::Table, area, shadow_texel_mm);
    let top_shadow = ShadowMap::bake(
        &props.solids,
        &shading,
        shift,
        Plane::BaseTops { z_mm: scene.base_height_mm() },
        area,
        shadow_texel_mm,
    );
    let texture =
        TableTexture::bake(size, &scene.table().terrain, options.texel_mm, options.seed, options.mat);

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
        cube_highlight: options.cube_highlight as f32,
    };
    let mut pixels = raster::rasterize(&world, options.supersampling, options.edge_supersampling);
    if options.exposure_ev != 0.0 || options.white_balance != [1.0; 3] {
        let k = 2f64.powf(options.exposure_ev);
        let [r, g, b] = options.white_balance.map(|w| (w * k) as f32);
        for p in &mut pixels {
            p.r *= r;
            p.g *= g;
            p.b *= b;
        }
    }
    let width = camera.resolution().width_px as usize;
    let image = sensor::develop(pixels, width, &options.sensor, noise_seed, options.srgb);
    let truth = Truth::new(&world, scene, options.seed, props.figures, &props.uniforms);
    Ok(Render { image, truth, jpeg_quality: options.jpeg_quality })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::camera::{Distortion, LookAt, Resolution};
    use crate::dictionary::ArucoDictionary;
    use crate::scene::{Layout, StandardLayout, TableFiducial};
    use image::RgbImage;
    use vedette_geometry::Table;

    fn empty_table() -> Table {
        Table::from_json_str(
            r#"{"schema":"vedette/table/1","rules":"republique5","scale":"medium",
            "size":{"width":400,"depth":300},"units":[]}"#,
        )
        .unwrap()
    }

    fn one_fiducial(centre: Vec2) -> Scene {
        let layout = Layout {
            fiducials: vec![TableFiducial {
                dictionary: ArucoDictionary::Dict4x4_250,
                id: 7,
                centre_mm: centre,
                side_mm: 60.0,
                rotation_deg: 0.0,
                quiet_zone_mm: 10.0,
            }],
            ..Layout::default()
        };
        Scene::new(empty_table(), &layout).unwrap()
    }

    /// A camera `height_mm` straight above (200, 150) mm.
    fn straight_down(height_mm: f64, focal_mm: f64, sensor_width_mm: f64, resolution: Resolution) -> Camera {
        Camera::looking_at(&LookAt {
            target_mm: Vec2::new(200.0, 150.0),
            height_mm,
            tilt_deg: 0.0,
            yaw_deg: 0.0,
            focal_mm,
            sensor_width_mm,
            resolution,
        })
        .unwrap()
    }

    fn ideal(seed: u64) -> RenderOptions {
        RenderOptions { seed, clutter: false, sensor: SensorOptions::IDEAL, ..RenderOptions::default() }
    }

    fn grey(img: &RgbImage, x: u32, y: u32) -> f64 {
        f64::from(img.get_pixel(x, y).0[1])
    }

    /// Straight down at 2 px/mm, the marker's left edge at u = 40.1 px and its top edge
    /// at v = 14.2 px: the edge pixels are 60% and 70% paper, as area coverage says.
    /// (Centred 6x6 samples would give 67% and 67%: this test catches biased
    /// anti-aliasing, and any half-pixel slip of the pixel convention.)
    #[test]
    fn edge_pixels_are_covered_in_proportion() {
        let scene = one_fiducial(Vec2::new(200.3, 150.15));
        let camera = straight_down(100.0, 1.0, 1.0, Resolution::new(200, 150));
        let img = render(&scene, &camera, &ideal(1)).unwrap().image;
        let mean = |values: Vec<f64>| values.iter().sum::<f64>() / values.len() as f64;
        let left = mean(
            (40..110)
                .map(|v| (grey(&img, 40, v) - grey(&img, 42, v)) / (grey(&img, 37, v) - grey(&img, 42, v)))
                .collect(),
        );
        let top = mean(
            (50..150)
                .map(|u| (grey(&img, u, 14) - grey(&img, u, 16)) / (grey(&img, u, 11) - grey(&img, u, 16)))
                .collect(),
        );
        assert!((left - 0.6).abs() < 0.02, "left edge pixel is {left:.3} paper");
        assert!((top - 0.7).abs() < 0.02, "top edge pixel is {top:.3} paper");
    }

    /// Tilted and distorted: just inside each projected corner the photo is black, just
    /// outside (in the quiet zone) it is white.
    #[test]
    fn corners_land_where_the_camera_projects_them() {
        let scene = one_fiducial(Vec2::new(230.0, 170.0));
        let camera = Camera::looking_at(&LookAt {
            target_mm: Vec2::new(200.0, 150.0),
            height_mm: 300.0,
            tilt_deg: 25.0,
            yaw_deg: 30.0,
            focal_mm: 4.0,
            sensor_width_mm: 6.0,
            resolution: Resolution::new(240, 180),
        })
        .unwrap()
        .with_distortion(Distortion { k1: -0.15, k2: 0.05, p1: 0.002, p2: -0.001, k3: 0.0 });
        let photo = render(&scene, &camera, &ideal(2)).unwrap();
        let truth = &photo.truth.camera.fiducials[0];
        let px: Vec<[f64; 2]> = truth.corners_px.iter().map(|c| c.unwrap()).collect();
        let centre = [px.iter().map(|p| p[0]).sum::<f64>() / 4.0, px.iter().map(|p| p[1]).sum::<f64>() / 4.0];
        for p in &px {
            let d = [centre[0] - p[0], centre[1] - p[1]];
            let len = d[0].hypot(d[1]);
            let at = |k: f64| {
                let q = [p[0] + d[0] / len * k, p[1] + d[1] / len * k];
                grey(&photo.image, q[0].round() as u32, q[1].round() as u32)
            };
            assert!(at(2.5) < 40.0, "inside corner {p:?}: {}", at(2.5));
            assert!(at(-2.5) > 150.0, "outside corner {p:?}: {}", at(-2.5));
        }
        assert!(truth.corners_visible.iter().all(|v| *v));
    }

    /// Exposure and white balance scale the light before the sensor: the quiet zone's
    /// paper reads twice as bright one stop down as two stops down, a warm cast lifts
    /// red over blue, and out-of-range values are refused.
    #[test]
    fn exposure_and_white_balance_scale_the_light() {
        let scene = one_fiducial(Vec2::new(200.0, 150.0));
        let camera = straight_down(300.0, 4.0, 6.0, Resolution::new(120, 90));
        // The paper of the quiet zone, 32 mm left of the 60 mm square's centre (3.75 mm
        // per pixel).
        let paper = |options: RenderOptions| {
            let img = render(&scene, &camera, &options).unwrap().image;
            img.get_pixel(51, 44).0.map(f64::from)
        };
        let one_down = paper(RenderOptions { exposure_ev: -1.0, ..ideal(3) });
        let two_down = paper(RenderOptions { exposure_ev: -2.0, ..ideal(3) });
        assert!(two_down[1] > 20.0, "{two_down:?}");
        assert!((one_down[1] / two_down[1] - 2.0).abs() < 0.05, "{one_down:?} {two_down:?}");
        let warm = paper(RenderOptions { exposure_ev: -1.0, white_balance: [1.15, 1.0, 0.8], ..ideal(3) });
        assert!((warm[0] / one_down[0] - 1.15).abs() < 0.03, "{warm:?} {one_down:?}");
        assert!((warm[2] / one_down[2] - 0.8).abs() < 0.03, "{warm:?} {one_down:?}");
        for bad in [
            RenderOptions { exposure_ev: 5.0, ..ideal(3) },
            RenderOptions { white_balance: [1.0, 0.1, 1.0], ..ideal(3) },
            RenderOptions { cube_highlight: 1.5, ..ideal(3) },
            RenderOptions { cube_highlight: -0.1, ..ideal(3) },
            RenderOptions { nearby_lamp: Some(NearbyLamp { over: Vec2::ZERO, height_mm: 50.0 }), ..ideal(3) },
        ] {
            assert!(render(&scene, &camera, &bad).is_err());
        }
    }

    /// A 400 x 300 mm table with a cavalry base in its middle, a cube beside it, and
    /// the standard layout's tags and fiducials.
    fn base_and_cube() -> Scene {
        let table = Table::from_json_str(
            r#"{"schema":"vedette/table/1","rules":"republique5","scale":"medium","size":{"width":400,"depth":300},
            "units":[{"id":"a","side":"fr","kind":"cavalry","formation":"line","bases":[
              {"x":200,"y":150,"heading":60,"width":40,"depth":30}]}],
            "markers":[{"kind":"morale","colour":"red","x":240,"y":150}]}"#,
        )
        .unwrap();
        let layout = StandardLayout { inset_mm: 30.0, fiducial_side_mm: 30.0, ..Default::default() }
            .build(&table)
            .unwrap();
        Scene::new(table, &layout).unwrap()
    }

    #[test]
    fn renders_are_seeded() {
        let scene = base_and_cube();
        let camera = Camera::looking_at(&LookAt {
            target_mm: Vec2::new(200.0, 150.0),
            height_mm: 500.0,
            tilt_deg: 15.0,
            yaw_deg: 0.0,
            focal_mm: 4.0,
            sensor_width_mm: 6.0,
            resolution: Resolution::new(160, 120),
        })
        .unwrap();
        let a = render(&scene, &camera, &RenderOptions::seeded(1)).unwrap();
        let b = render(&scene, &camera, &RenderOptions::seeded(1)).unwrap();
        let c = render(&scene, &camera, &RenderOptions::seeded(2)).unwrap();
        assert_eq!(a, b);
        assert_ne!(a.image, c.image);
        assert!(a.truth.camera.figures > 0);
        let bad = RenderOptions { jpeg_quality: 0, ..RenderOptions::default() };
        assert!(matches!(
            render(&scene, &camera, &bad),
            Err(SynthError::InvalidOption { option: "jpeg_quality", .. })
        ));
    }

    /// The empty table's photo shows the same mat under the same light where nothing
    /// stood (the mat's corner), the mat where the base and the cube stood, and no
    /// figures; its noise is its own draw.
    #[test]
    fn the_empty_table_is_the_same_mat_without_what_stands_on_it() {
        let scene = base_and_cube();
        let camera = straight_down(500.0, 4.0, 6.0, Resolution::new(160, 120));
        let options = RenderOptions { clutter: true, ..ideal(5) };
        let full = render(&scene, &camera, &options).unwrap();
        let empty = render_empty(&scene, &camera, &options, 99).unwrap();
        assert!(full.truth.camera.figures > 0);
        assert_eq!(empty.truth.camera.figures, 0);
        assert!(empty.truth.camera.tags.is_empty());
        assert_eq!(empty.truth.camera.fiducials.len(), full.truth.camera.fiducials.len());
        // The mat 100 mm from the base and 60 mm from the cube, clear of them, their
        // figures and shadows; the base's centre.
        let px = |x: f64, y: f64| {
            let p = camera.project(&nalgebra::Point3::new(x, y, 0.0)).unwrap();
            (p[0] as u32, p[1] as u32)
        };
        let (mat, base) = (px(330.0, 60.0), px(200.0, 150.0));
        assert_eq!(full.image.get_pixel(mat.0, mat.1), empty.image.get_pixel(mat.0, mat.1));
        assert_ne!(full.image.get_pixel(base.0, base.1), empty.image.get_pixel(base.0, base.1));
        let empty_again = render_empty(&scene, &camera, &ideal(5), 99).unwrap();
        assert_eq!(empty.image, empty_again.image);
        // With the sensor's noise: another draw than the full photo's.
        let noisy = RenderOptions { clutter: false, ..RenderOptions::seeded(5) };
        let a = render_empty(&scene, &camera, &noisy, 5).unwrap();
        let b = render_empty(&scene, &camera, &noisy, 6).unwrap();
        assert_ne!(a.image, b.image);
    }
}
