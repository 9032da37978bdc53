//! The second renderer's photos as a validation set (issue 36): an independent POV-Ray
//! scene generator's 12 MP photos of a 6'x4' table in `../shared/renders/` (beside the
//! repository; `VEDETTE_SHARED_RENDERS` names another folder), each with its true table
//! (`truth.json`) and everything else about it (`scene.json`: camera, lens, fiducials,
//! tags with the fraction of each the camera sees, cubes, terrain, light).
//!
//! This module turns a folder into what a player would hand the scanner (a profile, a
//! roster with each unit's tag size, a camera file) and scores a scan of it against its
//! truth with every figure of the issue's table ([`PhotoScore`], [`RendererScore`]).
//! Shared by `tests/scan/scan_shared_renders.rs` and `benches/scan_shared.rs` (which
//! includes this file, `surface.rs` and `truth.rs` by path: this module reaches them as
//! `super::surface` and `super::truth`).
//!
//! What the profile declares, and how it was decided:
//! - the four fiducials as `scene.json` gives them (DICT_4X4_50, 60 mm, 50 mm in);
//! - `[tags]`: the scene's tag dictionary and its commonest tag size as the default
//!   (ties to the larger); each roster unit carries its own `tag_mm` where it differs;
//! - `[bases] top_height_mm`: the scene's base top plus the tag paper's thickness (the
//!   plane the printed squares lie on; a player measures the top of a tagged base);
//!   `top_height_sigma_mm` 0: the README says every base is 3 mm thick (as our own
//!   renderer's, which `benches/scan_accuracy.rs` declares alike), so the sigmas are
//!   measured against errors that hold no spread of base heights (a player's 0.3 mm,
//!   the profile's default, made them cover 99.7-100%);
//! - terrain classes as `docs/calibration.md` asks a player to declare them: each kind's
//!   colour measured on the photo itself through its true camera, colour-corrected by
//!   the fiducials as the scanner does (a player measuring templates on a photo of the
//!   table), felt thickness from the scene; `ground` the mat measured the same way
//!   ([`SharedRender::terrain_profile`]). [`SharedRender::profile`] declares no terrain.

#![allow(dead_code)]

use super::surface::{CubeScore, SightScore, TerrainScore, cube_score, sight_score, terrain_score};
use super::truth::quantile;
use serde::Deserialize;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use vedette_geometry::{Table, TerrainKind, Vec2};
use vedette_vision::{
    CameraModel, CameraParameters, ColourCorrection, DetectedMarker, Game, Intrinsics, ModelKind, Photo,
    Profile, Roster, RosterUnit, Scan,
};

/// The environment variable naming another folder of shared renders.
pub const RENDERS_ENV: &str = "VEDETTE_SHARED_RENDERS";

/// The folder of shared renders: `VEDETTE_SHARED_RENDERS` when set, else
/// `../shared/renders` beside the repository; `None` when it is not there.
pub fn renders_dir() -> Option<PathBuf> {
    let dir = match std::env::var_os(RENDERS_ENV) {
        Some(p) => PathBuf::from(p),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/renders"),
    };
    dir.is_dir().then_some(dir)
}

/// Every shared render whose folder name starts with `prefix` (`"tagged"`,
/// `"untagged"`, `""` for all), by name; empty when the folder is absent.
pub fn shared_renders(prefix: &str) -> Vec<SharedRender> {
    let Some(dir) = renders_dir() else { return Vec::new() };
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .map(|rd| {
            rd.filter_map(Result::ok)
                .filter(|e| e.path().join("scene.json").is_file())
                .filter_map(|e| e.file_name().into_string().ok())
                .filter(|n| n.starts_with(prefix))
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
        .into_iter()
        .map(|n| SharedRender::load(&dir.join(&n)).unwrap_or_else(|e| panic!("shared render {n}: {e}")))
        .collect()
}

/// What `scene.json` says (the fields the scanner's inputs and scores need).
#[derive(Debug, Clone, Deserialize)]
pub struct Scene {
    /// The scene's seed (a photo and its `-far` twin share it).
    pub seed: u64,
    /// `tagged` or `untagged`.
    pub mode: String,
    /// The table and its mat.
    pub table: SceneTable,
    /// The camera.
    pub camera: SceneCamera,
    /// The table fiducials.
    pub fiducials: Vec<SceneFiducial>,
    /// The height of a base's top, mm (bases on felt stand higher: `bases[].top_z_mm`).
    pub base_top_height_mm: f64,
    /// Base tags (empty when untagged: `null` in an untagged scene).
    #[serde(default, deserialize_with = "null_as_default")]
    pub tags: SceneTags,
    /// Every base.
    pub bases: Vec<SceneBase>,
    /// Every unit.
    pub units: Vec<SceneUnit>,
    /// The status cubes.
    #[serde(default)]
    pub cubes: Vec<SceneCube>,
    /// The terrain.
    pub terrain: SceneTerrain,
    /// Post-processing of the render.
    pub post: ScenePost,
}

/// A field an untagged scene writes as `null`: its default.
fn null_as_default<'de, D, T>(d: D) -> Result<T, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Default + Deserialize<'de>,
{
    Ok(Option::<T>::deserialize(d)?.unwrap_or_default())
}

/// The table.
#[derive(Debug, Clone, Deserialize)]
pub struct SceneTable {
    /// Width and depth, mm.
    pub size_mm: [f64; 2],
    /// The mat's name (`green`, `brown`, ...).
    pub mat: String,
    /// The mat's colour, sRGB.
    pub mat_rgb: [f64; 3],
    /// The side whose army stands at the near edge (y = 0).
    #[serde(default)]
    pub near_side: Option<String>,
}

/// The camera (OpenCV's conventions).
#[derive(Debug, Clone, Deserialize)]
pub struct SceneCamera {
    /// The camera matrix.
    #[serde(rename = "K")]
    pub k: [[f64; 3]; 3],
    /// k1 k2 p1 p2 k3.
    pub dist_coeffs: Vec<f64>,
    /// Width and height, px.
    pub image_size: [u32; 2],
    /// Table to camera rotation.
    #[serde(rename = "R_world_to_cam")]
    pub r_world_to_cam: [[f64; 3]; 3],
    /// Translation, mm.
    pub tvec: [f64; 3],
    /// The camera's place, table mm.
    pub position_mm: [f64; 3],
    /// Tilt of the optical axis from straight down, degrees.
    pub tilt_deg: f64,
    /// Focal length, px.
    pub focal_px: f64,
    /// Where the photographer stands, in words.
    pub photographer_at: String,
}

/// One table fiducial.
#[derive(Debug, Clone, Deserialize)]
pub struct SceneFiducial {
    /// Its dictionary (`DICT_4X4_50`).
    pub dictionary: String,
    /// Its id.
    pub id: u32,
    /// Its centre, table mm.
    pub centre_mm: [f64; 2],
    /// The black square's side, mm.
    pub side_mm: f64,
    /// Its rotation, degrees.
    pub rotation_deg: f64,
    /// The height of its printed face, mm.
    pub z_mm: f64,
}

/// The base tags.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct SceneTags {
    /// Their dictionary.
    #[serde(default)]
    pub dictionary: String,
    /// The paper's thickness, mm.
    #[serde(default)]
    pub paper_thickness_mm: f64,
    /// Every tag.
    #[serde(default)]
    pub list: Vec<SceneTag>,
}

/// One base tag.
#[derive(Debug, Clone, Deserialize)]
pub struct SceneTag {
    /// Its unit's id.
    pub unit: String,
    /// Its base's index in the unit.
    pub base_index: usize,
    /// Its id.
    pub id: u32,
    /// The black square's side, mm.
    pub side_mm: f64,
    /// Its centre from the base centre toward the base front, mm.
    pub offset_forward_mm: f64,
    /// Likewise toward the base's right, mm.
    pub offset_right_mm: f64,
    /// Its centre, table mm.
    pub centre_mm: [f64; 2],
    /// The height of its printed face, mm.
    pub z_mm: f64,
    /// The share of its black square the camera sees.
    pub visible_fraction: f64,
}

/// One base.
#[derive(Debug, Clone, Deserialize)]
pub struct SceneBase {
    /// Its unit's id.
    pub unit: String,
    /// Its index in the unit.
    pub index: usize,
    /// The height of its top, mm.
    pub top_z_mm: f64,
}

/// One unit.
#[derive(Debug, Clone, Deserialize)]
pub struct SceneUnit {
    /// Its id.
    pub id: String,
    /// The colour of its bases' flock, sRGB.
    pub flock_rgb: [f64; 3],
    /// The colour of its figures' coats, sRGB, where the scene paints the unit's own
    /// (cavalry); `None`: the side's.
    #[serde(default)]
    pub coat: Option<[f64; 3]>,
    /// The division it belongs to (a leader: the one it leads).
    #[serde(default)]
    pub division: Option<String>,
    /// A skirmisher's parent unit.
    #[serde(default)]
    pub parent: Option<String>,
}

/// One status cube.
#[derive(Debug, Clone, Deserialize)]
pub struct SceneCube {
    /// `white`, `yellow`, `red`, `black`.
    pub colour: String,
    /// Its centre, table mm.
    pub x: f64,
    /// Its centre, table mm.
    pub y: f64,
    /// Its side, mm.
    pub side_mm: f64,
}

/// The terrain.
#[derive(Debug, Clone, Deserialize)]
pub struct SceneTerrain {
    /// The felt templates.
    pub pieces: Vec<ScenePiece>,
    /// The felt's thickness, mm.
    pub felt_thickness_mm: f64,
    /// Trees standing on woods.
    #[serde(default)]
    pub trees: Vec<SceneTree>,
    /// Houses standing on towns.
    #[serde(default)]
    pub houses: Vec<SceneHouse>,
}

/// One template.
#[derive(Debug, Clone, Deserialize)]
pub struct ScenePiece {
    /// Its kind, as in table files.
    pub kind: String,
    /// Its outline, table mm.
    pub outline: Vec<[f64; 2]>,
}

/// One tree.
#[derive(Debug, Clone, Deserialize)]
pub struct SceneTree {
    /// Its trunk, table mm.
    pub x: f64,
    /// Its trunk, table mm.
    pub y: f64,
    /// Its crown's radius, mm.
    pub crown_r: f64,
}

/// One house.
#[derive(Debug, Clone, Deserialize)]
pub struct SceneHouse {
    /// Its centre, table mm.
    pub x: f64,
    /// Its centre, table mm.
    pub y: f64,
    /// Its footprint, mm.
    pub width: f64,
    /// Its footprint, mm.
    pub depth: f64,
}

/// Post-processing.
#[derive(Debug, Clone, Deserialize)]
pub struct ScenePost {
    /// Exposure gain applied to the render.
    pub exposure_gain: f64,
    /// White balance gains, B G R.
    pub wb_gain_bgr: [f64; 3],
}

/// One shared render: its folder, scene and true table.
#[derive(Debug, Clone)]
pub struct SharedRender {
    /// The folder's name (`tagged-301-far`).
    pub name: String,
    /// The folder.
    pub dir: PathBuf,
    /// `scene.json`.
    pub scene: Scene,
    /// `truth.json`.
    pub truth: Table,
}

impl SharedRender {
    /// Reads `DIR/scene.json` and `DIR/truth.json`.
    pub fn load(dir: &Path) -> Result<SharedRender, String> {
        let name = dir.file_name().and_then(|n| n.to_str()).unwrap_or("?").to_string();
        let text = std::fs::read_to_string(dir.join("scene.json")).map_err(|e| format!("scene.json: {e}"))?;
        let scene: Scene = serde_json::from_str(&text).map_err(|e| format!("scene.json: {e}"))?;
        let mut truth = Table::load(dir.join("truth.json")).map_err(|e| format!("truth.json: {e}"))?;
        if truth.size.is_none() {
            truth.size = Some(vedette_geometry::TableSize {
                width: scene.table.size_mm[0],
                depth: scene.table.size_mm[1],
            });
        }
        Ok(SharedRender { name, dir: dir.to_path_buf(), scene, truth })
    }

    /// The photo's path.
    pub fn photo_path(&self) -> PathBuf {
        self.dir.join("photo.jpg")
    }

    /// The photo.
    pub fn photo(&self) -> Photo {
        Photo::load(self.photo_path()).unwrap_or_else(|e| panic!("{}: {e}", self.name))
    }

    /// True for a photo whose bases carry tags.
    pub fn tagged(&self) -> bool {
        self.scene.mode == "tagged" && !self.scene.tags.list.is_empty()
    }

    /// True for a photo taken from the far edge.
    pub fn far(&self) -> bool {
        self.scene.camera.photographer_at.starts_with("far")
    }

    /// The tag size the profile declares: the commonest of the scene's (ties to the
    /// larger); units whose tags differ say so in the roster.
    pub fn default_tag_mm(&self) -> f64 {
        let mut count: BTreeMap<u64, usize> = BTreeMap::new();
        for t in &self.scene.tags.list {
            *count.entry((t.side_mm * 1000.0).round() as u64).or_default() += 1;
        }
        count.into_iter().max_by_key(|(s, n)| (*n, *s)).map_or(12.0, |(s, _)| s as f64 / 1000.0)
    }

    /// The profile's text without terrain classes: table, fiducials, tags, bases.
    pub fn profile_toml(&self) -> String {
        let s = &self.scene;
        let fid = &s.fiducials;
        let markers: Vec<String> = fid
            .iter()
            .map(|f| {
                format!(
                    "  {{ id = {}, x_mm = {:?}, y_mm = {:?}, rotation_deg = {:?} }},",
                    f.id, f.centre_mm[0], f.centre_mm[1], f.rotation_deg
                )
            })
            .collect();
        let tag_dictionary =
            if s.tags.dictionary.is_empty() { "DICT_4X4_250".to_string() } else { s.tags.dictionary.clone() };
        format!(
            r#"name = "shared render {name}"

[table]
width_mm = {w:?}
depth_mm = {d:?}

[fiducials]
dictionary = "{fd}"
size_mm = {fs:?}
height_mm = {fh:?}
markers = [
{markers}
]

[tags]
dictionary = "{td}"
size_mm = {ts:?}

[bases]
top_height_mm = {bh:?}
top_height_sigma_mm = 0.0
"#,
            name = self.name,
            w = s.table.size_mm[0],
            d = s.table.size_mm[1],
            fd = fid[0].dictionary,
            fs = fid[0].side_mm,
            fh = fid[0].z_mm,
            markers = markers.join("\n"),
            td = tag_dictionary,
            ts = self.default_tag_mm(),
            bh = s.base_top_height_mm + s.tags.paper_thickness_mm,
        )
    }

    /// The profile without terrain classes.
    pub fn profile(&self) -> Profile {
        Profile::from_toml_str(&self.profile_toml(), &format!("{}/profile.toml", self.name))
            .unwrap_or_else(|e| panic!("{}: profile: {e}", self.name))
    }

    /// The roster a player would write: every unit in the truth's order, its base size;
    /// a tagged unit's tags in base order, tag offset and (where it is not the
    /// profile's) tag size; an untagged unit's base count (`bases = N`, issue 37); the
    /// side at the near edge (`near_side`); each unit's declared paints (`coat` where
    /// the scene paints the unit's own, `flock`), and its division and parent, as a
    /// player would declare them.
    pub fn roster(&self) -> Roster {
        let default_mm = self.default_tag_mm();
        let mut by_unit: BTreeMap<&str, Vec<&SceneTag>> = BTreeMap::new();
        for t in &self.scene.tags.list {
            by_unit.entry(t.unit.as_str()).or_default().push(t);
        }
        // Each unit's paints as a player declares them (issue 37): its coat where the
        // scene gives one, its flock.
        // Each unit's division and parent, as a player's roster says them.
        let kin = |mut unit: RosterUnit| {
            if let Some(s) = self.scene.units.iter().find(|s| s.id == unit.id) {
                unit.division = s.division.clone();
                unit.parent = s.parent.clone();
            }
            unit
        };
        let paints = |id: &str| {
            let to_u8 = |c: [f64; 3]| c.map(|v| v.round().clamp(0.0, 255.0) as u8);
            self.scene
                .units
                .iter()
                .find(|s| s.id == id)
                .map_or((None, None), |s| (s.coat.map(to_u8), Some(to_u8(s.flock_rgb))))
        };
        let units =
            self.truth
                .units
                .iter()
                .filter_map(|u| {
                    let (coat, flock) = paints(&u.id);
                    let Some(tags) = by_unit.get(u.id.as_str()) else {
                        let b = u.bases.first()?;
                        return Some(kin(RosterUnit::untagged(u, [b.width(), b.depth()], u.bases.len())
                            .painted(coat, flock)));
                    };
                    let mut tags = tags.clone();
                    tags.sort_by_key(|t| t.base_index);
                    let b = &u.bases[tags[0].base_index];
                    let mut unit = RosterUnit::from_unit(
                        u,
                        [b.width(), b.depth()],
                        [tags[0].offset_right_mm, tags[0].offset_forward_mm],
                        tags.iter().map(|t| t.id).collect(),
                    );
                    // The unit's tag size where it is not the profile's.
                    unit.tag_mm = Some(tags[0].side_mm).filter(|s| (s - default_mm).abs() > 1e-9);
                    Some(kin(unit.painted(coat, flock)))
                })
                .collect();
        let game = Game {
            rules: self.truth.rules,
            scale: self.truth.scale,
            name: Some(self.name.clone()),
            near_side: self.scene.table.near_side.clone(),
        };
        Roster::from_units(game, units).unwrap_or_else(|e| panic!("{}: roster: {e}", self.name))
    }

    /// The camera file's intrinsics (`scene.json`'s camera).
    pub fn intrinsics(&self) -> Intrinsics {
        let c = &self.scene.camera;
        Intrinsics {
            image_width: c.image_size[0],
            image_height: c.image_size[1],
            fx: c.k[0][0],
            fy: c.k[1][1],
            cx: c.k[0][2],
            cy: c.k[1][2],
            distortion: c.dist_coeffs.clone(),
        }
    }

    /// The true camera as a scanner's model (for measuring colours on the photo).
    pub fn true_model(&self) -> CameraModel {
        let c = &self.scene.camera;
        let (r, t, k) = (c.r_world_to_cam, c.tvec, c.k);
        // The table plane z = 0 to the image: K [r1 r2 t].
        let m = [[r[0][0], r[0][1], t[0]], [r[1][0], r[1][1], t[1]], [r[2][0], r[2][1], t[2]]];
        let h = mat_mul(&k, &m);
        let p = CameraParameters {
            kind: ModelKind::Calibrated,
            image_size: c.image_size,
            intrinsics: Some(self.intrinsics()),
            rotation: Some(r),
            translation_mm: Some(t),
            homography: h,
            homography_inv: mat_inv(&h),
            plane_height_mm: 0.0,
            focal_rel_sigma: 0.0,
        };
        CameraModel::from_parameters(&p, &self.name).unwrap_or_else(|e| panic!("{}: camera: {e}", self.name))
    }

    /// The true base of a tag: (unit index, base index) in the truth.
    fn base_of(&self, tag: &SceneTag) -> Option<(usize, usize)> {
        let u = self.truth.units.iter().position(|u| u.id == tag.unit)?;
        (tag.base_index < self.truth.units[u].bases.len()).then_some((u, tag.base_index))
    }

    /// The terrain kinds of the scene's templates.
    pub fn terrain_kinds(&self) -> Vec<TerrainKind> {
        let kinds: BTreeSet<String> = self.scene.terrain.pieces.iter().map(|p| p.kind.clone()).collect();
        kinds
            .into_iter()
            .map(|k| {
                serde_json::from_value(serde_json::Value::String(k.clone()))
                    .unwrap_or_else(|e| panic!("{}: terrain kind {k}: {e}", self.name))
            })
            .collect()
    }

    /// Colours measured on the photo through the true camera, corrected by the
    /// fiducials' paper and ink as the scanner corrects them: each terrain kind's
    /// (median over its templates, away from trees, houses, bases and cubes) and the
    /// mat's (median over the bare table).
    pub fn measured_colours(
        &self,
        photo: &Photo,
        profile: &Profile,
    ) -> (Vec<(TerrainKind, [u8; 3])>, [u8; 3]) {
        let model = self.true_model();
        let fids: Vec<DetectedMarker> = self
            .scene
            .fiducials
            .iter()
            .map(|f| DetectedMarker { id: f.id, corners: [[0.0; 2]; 4] })
            .collect();
        let correction = ColourCorrection::from_fiducials(&photo.color, &model, profile, &fids)
            .unwrap_or_else(|e| panic!("{}: colour correction: {e}", self.name));
        // The photo's pixels (RGB), read again by the image crate: the tests do not
        // link OpenCV's Rust bindings themselves.
        let rgb =
            image::open(self.photo_path()).unwrap_or_else(|e| panic!("{}: photo: {e}", self.name)).to_rgb8();
        let bases: Vec<Vec2> = self.truth.bases().map(|(_, b)| b.centre()).collect();
        let cubes: Vec<Vec2> = self.scene.cubes.iter().map(|c| Vec2::new(c.x, c.y)).collect();
        let clutter: Vec<(Vec2, f64)> = bases
            .iter()
            .map(|&p| (p, 45.0))
            .chain(cubes.iter().map(|&p| (p, 15.0)))
            .chain(self.scene.terrain.trees.iter().map(|t| (Vec2::new(t.x, t.y), t.crown_r + 25.0)))
            .chain(
                self.scene
                    .terrain
                    .houses
                    .iter()
                    .map(|h| (Vec2::new(h.x, h.y), h.width.hypot(h.depth) / 2.0 + HOUSE_CLEAR_MM)),
            )
            .collect();
        let clear = |p: Vec2| clutter.iter().all(|(c, r)| c.distance(p) > *r);
        let polygons: Vec<(TerrainKind, vedette_geometry::Polygon)> = self
            .truth
            .terrain
            .iter()
            .filter(|f| !f.kind.is_linear() && f.outline.len() >= 3)
            .map(|f| (f.kind, f.polygon()))
            .collect();
        let (w, d) = (self.scene.table.size_mm[0], self.scene.table.size_mm[1]);
        let sample = |pts: &[Vec2], height: f64| -> Option<[u8; 3]> {
            let px = model.project(pts, height).ok()?;
            let (iw, ih) =
                (f64::from(self.scene.camera.image_size[0]), f64::from(self.scene.camera.image_size[1]));
            let half_diag = iw.hypot(ih) / 2.0;
            let mut ch: [Vec<f64>; 3] = Default::default();
            for (p, q) in pts.iter().zip(&px) {
                let (x, y) = (q[0].round(), q[1].round());
                if x < 0.0 || y < 0.0 || x >= iw || y >= ih {
                    continue;
                }
                let v = rgb.get_pixel(x as u32, y as u32).0;
                let rho = (q[0] - iw / 2.0).hypot(q[1] - ih / 2.0) / half_diag;
                let c = correction.correct([f64::from(v[2]), f64::from(v[1]), f64::from(v[0])], *p, rho);
                for k in 0..3 {
                    ch[k].push(c[k]);
                }
            }
            (ch[0].len() >= 20).then(|| ch.map(|v| quantile(&v, 0.5).round().clamp(0.0, 255.0) as u8))
        };
        let grid = |step: f64, keep: &dyn Fn(Vec2) -> bool| -> Vec<Vec2> {
            let mut pts = Vec::new();
            let mut y = 100.0;
            while y < d - 100.0 {
                let mut x = 100.0;
                while x < w - 100.0 {
                    let p = Vec2::new(x, y);
                    if keep(p) {
                        pts.push(p);
                    }
                    x += step;
                }
                y += step;
            }
            pts
        };
        let mut kinds = Vec::new();
        for kind in self.terrain_kinds() {
            let pts = grid(4.0, &|p| {
                clear(p)
                    && polygons.iter().any(|(k, poly)| {
                        *k == kind && poly.contains(p) && poly.exterior.iter().all(|v| v.distance(p) > 10.0)
                    })
            });
            if let Some(c) = sample(&pts, self.scene.terrain.felt_thickness_mm) {
                kinds.push((kind, c));
            }
        }
        let bare = grid(8.0, &|p| {
            clear(p)
                && polygons
                    .iter()
                    .all(|(_, poly)| !poly.contains(p) && poly.exterior.iter().all(|v| v.distance(p) > 20.0))
        });
        let ground = sample(&bare, 0.0).unwrap_or([0, 0, 0]);
        (kinds, ground)
    }

    /// The profile with terrain classes, their colours measured on the photo
    /// ([`SharedRender::measured_colours`]), with the mat as `ground` when `ground`.
    pub fn terrain_profile(&self, photo: &Photo, ground: bool) -> Profile {
        let base = self.profile();
        let (kinds, mat) = self.measured_colours(photo, &base);
        let mut text = self.profile_toml();
        if ground {
            let _ = write!(text, "\n[colours]\nground = [[{}, {}, {}]]\n", mat[0], mat[1], mat[2]);
        }
        for (kind, c) in kinds {
            let name = serde_json::to_value(kind)
                .ok()
                .and_then(|v| v.as_str().map(str::to_string))
                .unwrap_or_default();
            let _ = write!(
                text,
                "\n[[terrain]]\nkind = \"{name}\"\ncolour = [{}, {}, {}]\nthickness_mm = {:?}\n",
                c[0], c[1], c[2], self.scene.terrain.felt_thickness_mm
            );
        }
        Profile::from_toml_str(&text, &format!("{}/profile.toml", self.name))
            .unwrap_or_else(|e| panic!("{}: terrain profile: {e}", self.name))
    }
}

fn mat_mul(a: &[[f64; 3]; 3], b: &[[f64; 3]; 3]) -> [[f64; 3]; 3] {
    let mut m = [[0.0; 3]; 3];
    for i in 0..3 {
        for j in 0..3 {
            m[i][j] = (0..3).map(|k| a[i][k] * b[k][j]).sum();
        }
    }
    m
}

fn mat_inv(m: &[[f64; 3]; 3]) -> [[f64; 3]; 3] {
    let c = |r0: usize, c0: usize, r1: usize, c1: usize| m[r0][c0] * m[r1][c1] - m[r0][c1] * m[r1][c0];
    let det = m[0][0] * c(1, 1, 2, 2) - m[0][1] * c(1, 0, 2, 2) + m[0][2] * c(1, 0, 2, 1);
    let adj = [
        [c(1, 1, 2, 2), -c(0, 1, 2, 2), c(0, 1, 1, 2)],
        [-c(1, 0, 2, 2), c(0, 0, 2, 2), -c(0, 0, 1, 2)],
        [c(1, 0, 2, 1), -c(0, 0, 2, 1), c(0, 0, 1, 1)],
    ];
    adj.map(|row| row.map(|v| v / det))
}

/// A town's colour is measured this far and more from each house's footprint (its
/// half diagonal from its centre), mm: past the walls the photo shows and most of the
/// roof's lean and the shadow; what of them reaches farther is a few of the samples
/// whose median is taken. (The whole diagonal and 20 mm more left no felt to measure
/// between a town's 3-4 houses, and the town went undeclared.)
pub const HOUSE_CLEAR_MM: f64 = 10.0;

/// A scanned base further than this from its truth counts as wrong, mm ...
pub const MATCH_MM: f64 = 5.0;
/// ... or turned further than this, degrees.
pub const MATCH_DEG: f64 = 5.0;
/// A tag counts in "tags at least 90% visible" from this visible share.
pub const VISIBLE: f64 = 0.9;
/// A found cube is within this of its truth, mm (a cube's half side and a bit).
pub const CUBE_MATCH_MM: f64 = 6.0;
/// A pair of units is a close call in the line-of-sight score when a base lies within
/// this of a terrain edge, mm.
pub const SIGHT_MARGIN_MM: f64 = 3.0;

/// Every figure of one scan of one photo (or why it was refused).
#[derive(Debug, Clone, Default)]
pub struct PhotoScore {
    /// The photo's name.
    pub name: String,
    /// The refusal, when the scan failed.
    pub refused: Option<String>,
    /// True bases (tagged).
    pub truth_bases: usize,
    /// Bases in the scan.
    pub scanned_bases: usize,
    /// Scanned bases within [`MATCH_MM`] and [`MATCH_DEG`] of their truth.
    pub correct: usize,
    /// The centre errors of those found by their tags, mm (the issue's centre
    /// targets: what the scan measured).
    pub centre_mm: Vec<f64>,
    /// The centre errors of those placed by their unit's formation (`inferred`), mm.
    pub inferred_mm: Vec<f64>,
    /// Their centre errors over their own sigma_mm (found and inferred).
    pub error_over_sigma: Vec<f64>,
    /// Bases fitted to their edges (`"found": "fitted"`: a tagged unit none of whose
    /// tags was read), in the scan.
    pub fitted: usize,
    /// The centre errors of those within [`MATCH_MM`] and [`MATCH_DEG`] (axis) of a
    /// true base of their own unit, mm.
    pub fitted_mm: Vec<f64>,
    /// Tags at least [`VISIBLE`] visible.
    pub visible_tags: usize,
    /// Of which read (a tag of its id measured within [`MATCH_MM`] of its truth).
    pub visible_read: usize,
    /// Ids of visible tags not read.
    pub visible_missed: Vec<u32>,
    /// Cubes.
    pub cubes: CubeScore,
    /// Terrain (when a terrain profile was scanned).
    pub terrain: Option<TerrainScore>,
    /// Line of sight between enemy units.
    pub sight: Option<SightScore>,
    /// The scan's own time, ms (photo decoded).
    pub scan_ms: f64,
    /// The camera the scan used: focal length, px, and k1 (none for the homography).
    pub camera: Option<(f64, f64)>,
}

/// Scores a scan (or its refusal) of `render` against the truth.
pub fn score(render: &SharedRender, result: &Result<Scan, String>, with_terrain: bool) -> PhotoScore {
    let mut s = PhotoScore { name: render.name.clone(), ..PhotoScore::default() };
    let truth_tags: BTreeMap<u32, &SceneTag> = render.scene.tags.list.iter().map(|t| (t.id, t)).collect();
    s.truth_bases = truth_tags.len();
    s.visible_tags = truth_tags.values().filter(|t| t.visible_fraction >= VISIBLE).count();
    s.cubes = CubeScore { truth: render.truth.markers.len(), ..CubeScore::default() };
    let scan = match result {
        Ok(scan) => scan,
        Err(e) => {
            s.refused = Some(e.clone());
            s.visible_missed =
                truth_tags.values().filter(|t| t.visible_fraction >= VISIBLE).map(|t| t.id).collect();
            return s;
        }
    };
    s.scanned_bases = scan.table.base_count();
    s.scan_ms = scan.report.timing_ms.total;
    s.camera = scan.fit.model.intrinsics().map(|k| (k.fx, k.distortion.first().copied().unwrap_or(0.0)));
    for (_, b) in scan.table.bases() {
        let Some(t) = b.meta().tag.and_then(|id| truth_tags.get(&id)) else { continue };
        let Some((u, i)) = render.base_of(t) else { continue };
        let tb = &render.truth.units[u].bases[i];
        let e = b.centre().distance(tb.centre());
        let h = ((b.heading_deg() - tb.heading_deg()) + 540.0).rem_euclid(360.0) - 180.0;
        if e <= MATCH_MM && h.abs() <= MATCH_DEG {
            s.correct += 1;
            if b.meta().inferred {
                s.inferred_mm.push(e);
            } else {
                s.centre_mm.push(e);
            }
            if let Some(sigma) = b.meta().sigma_mm.filter(|v| *v > 0.0) {
                s.error_over_sigma.push(e / sigma);
            }
        }
    }
    let fitted = fitted_errors(&scan.table, &render.truth);
    s.fitted = fitted.0;
    s.correct += fitted.1.len();
    s.fitted_mm = fitted.1;
    for t in truth_tags.values().filter(|t| t.visible_fraction >= VISIBLE) {
        let at = Vec2::new(t.centre_mm[0], t.centre_mm[1]);
        if scan.tags.iter().any(|p| p.id == t.id && p.centre.distance(at) <= MATCH_MM) {
            s.visible_read += 1;
        } else {
            s.visible_missed.push(t.id);
        }
    }
    s.cubes = cube_score(&scan.table, &render.truth, CUBE_MATCH_MM);
    if with_terrain {
        s.terrain = Some(terrain_score(
            &scan.table,
            &render.truth,
            &render.terrain_kinds(),
            render.scene.camera.position_mm,
        ));
    }
    s.sight = Some(sight_score(&scan.table, &render.truth, SIGHT_MARGIN_MM));
    s
}

/// The bases of `scan` fitted to their edges (`"found": "fitted"`, no tag: a tagged
/// unit none of whose tags was read), and the centre error of each that stands within
/// [`MATCH_MM`] and [`MATCH_DEG`] of a true base of its own unit (each true base taken
/// once, nearest first; the axis folded, since a fitted facing may be assumed the
/// wrong way round: facing is not what this counts), mm. A fitted base in another
/// unit's place is not correct.
pub fn fitted_errors(scan: &Table, truth: &Table) -> (usize, Vec<f64>) {
    let mut n = 0;
    let mut errors = Vec::new();
    for u in &scan.units {
        let fitted: Vec<_> = u
            .bases
            .iter()
            .filter(|b| b.meta().tag.is_none() && b.meta().found == Some(vedette_geometry::Found::Fitted))
            .collect();
        n += fitted.len();
        let Some(tu) = truth.units.iter().find(|t| t.id == u.id) else { continue };
        let mut taken = vec![false; tu.bases.len()];
        for b in fitted {
            let best = tu
                .bases
                .iter()
                .enumerate()
                .filter(|(k, _)| !taken[*k])
                .map(|(k, t)| {
                    let d = ((b.heading_deg() - t.heading_deg()) + 540.0).rem_euclid(360.0) - 180.0;
                    (k, b.centre().distance(t.centre()), d.abs().min(180.0 - d.abs()))
                })
                .filter(|&(_, e, a)| e <= MATCH_MM && a <= MATCH_DEG)
                .min_by(|x, y| x.1.total_cmp(&y.1));
            if let Some((k, e, _)) = best {
                taken[k] = true;
                errors.push(e);
            }
        }
    }
    (n, errors)
}

/// One unit's fitted bases against the truth ([`fitted_detail`]): its id, its fitted
/// bases, how many are right, and each one's nearest true base (its unit and the
/// distance, mm).
pub type FittedDetail = (String, usize, usize, Vec<(String, f64)>);

/// Per unit of `scan` with fitted bases, its [`FittedDetail`] ([`fitted_errors`]
/// counts right) — for the bench's account of where a fitted base went.
pub fn fitted_detail(scan: &Table, truth: &Table) -> Vec<FittedDetail> {
    let mut out = Vec::new();
    for u in &scan.units {
        let one = Table { units: vec![u.clone()], ..truth.clone() };
        let (n, right) = fitted_errors(&one, truth);
        if n == 0 {
            continue;
        }
        let nearest = u
            .bases
            .iter()
            .filter(|b| b.meta().found == Some(vedette_geometry::Found::Fitted))
            .filter_map(|b| {
                truth
                    .units
                    .iter()
                    .flat_map(|t| {
                        t.bases.iter().map(move |tb| (t.id.clone(), tb.centre().distance(b.centre())))
                    })
                    .min_by(|x, y| x.1.total_cmp(&y.1))
            })
            .collect();
        out.push((u.id.clone(), n, right.len(), nearest));
    }
    out
}

/// Two photos of one table merged: bases found of the truth's, and correct of those
/// in the merged table.
#[derive(Debug, Clone, Default)]
pub struct PairScore {
    /// The photos.
    pub names: [String; 2],
    /// True bases.
    pub truth_bases: usize,
    /// Bases in the merged table.
    pub merged_bases: usize,
    /// Merged bases within [`MATCH_MM`] and [`MATCH_DEG`] of their truth.
    pub correct: usize,
    /// The merged table's cubes against the truth's.
    pub cubes: CubeScore,
    /// Cubes in the merged table (more than found and invented: one cube twice).
    pub merged_cubes: usize,
}

/// Scores a merged table of two photos of `render`'s table.
pub fn score_pair(render: &SharedRender, far: &SharedRender, merged: &Table) -> PairScore {
    let truth_tags: BTreeMap<u32, &SceneTag> = render.scene.tags.list.iter().map(|t| (t.id, t)).collect();
    let mut p = PairScore {
        names: [render.name.clone(), far.name.clone()],
        truth_bases: truth_tags.len(),
        merged_bases: merged.base_count(),
        correct: 0,
        cubes: cube_score(merged, &render.truth, CUBE_MATCH_MM),
        merged_cubes: merged.markers.len(),
    };
    p.correct += fitted_errors(merged, &render.truth).1.len();
    for (_, b) in merged.bases() {
        let Some(t) = b.meta().tag.and_then(|id| truth_tags.get(&id)) else { continue };
        let Some((u, i)) = render.base_of(t) else { continue };
        let tb = &render.truth.units[u].bases[i];
        let h = ((b.heading_deg() - tb.heading_deg()) + 540.0).rem_euclid(360.0) - 180.0;
        if b.centre().distance(tb.centre()) <= MATCH_MM && h.abs() <= MATCH_DEG {
            p.correct += 1;
        }
    }
    p
}

/// The near/far pairs among `renders`: `NAME` and `NAME-far`.
pub fn pairs(renders: &[SharedRender]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for (i, r) in renders.iter().enumerate() {
        if let Some(j) = renders.iter().position(|f| f.name == format!("{}-far", r.name)) {
            out.push((i, j));
        }
    }
    out
}

/// One renderer's figures, pooled over its photos (one camera path).
#[derive(Debug, Clone, Default)]
pub struct RendererScore {
    /// Photos scanned.
    pub photos: usize,
    /// Photos accepted.
    pub accepted: usize,
    /// Refusals, `NAME: reason`.
    pub refusals: Vec<String>,
    /// Centre errors of correct bases found by their tags, mm.
    pub centre_mm: Vec<f64>,
    /// Centre errors of correct bases placed by their unit's formation, mm.
    pub inferred_mm: Vec<f64>,
    /// Their errors over sigma (found and inferred).
    pub error_over_sigma: Vec<f64>,
    /// True bases, scanned bases, correct bases (accepted photos and refused alike).
    pub truth_bases: usize,
    /// Scanned bases.
    pub scanned_bases: usize,
    /// Correct bases.
    pub correct: usize,
    /// Tags at least 90% visible, and of those read.
    pub visible_tags: usize,
    /// Read.
    pub visible_read: usize,
    /// Cubes pooled.
    pub cubes: CubeScore,
    /// Terrain pieces' IoU.
    pub terrain_iou: Vec<f64>,
    /// Invented terrain, mm².
    pub invented_mm2: Vec<f64>,
    /// Sight pooled.
    pub sight: SightScore,
    /// Two-photo pairs: true bases and correct merged bases, and merged bases.
    pub pair_truth: usize,
    /// Correct merged bases.
    pub pair_correct: usize,
    /// Merged bases.
    pub pair_merged: usize,
    /// The pairs' merged cubes pooled.
    pub pair_cubes: CubeScore,
    /// Cubes in the merged tables.
    pub pair_merged_cubes: usize,
    /// Scan times, ms.
    pub scan_ms: Vec<f64>,
}

impl RendererScore {
    /// Pools photo scores.
    pub fn add(&mut self, s: &PhotoScore) {
        self.photos += 1;
        match &s.refused {
            Some(r) => self.refusals.push(format!("{}: {r}", s.name)),
            None => self.accepted += 1,
        }
        self.centre_mm.extend(&s.centre_mm);
        self.inferred_mm.extend(&s.inferred_mm);
        self.error_over_sigma.extend(&s.error_over_sigma);
        self.truth_bases += s.truth_bases;
        self.scanned_bases += s.scanned_bases;
        self.correct += s.correct;
        self.visible_tags += s.visible_tags;
        self.visible_read += s.visible_read;
        self.cubes.add(&s.cubes);
        if let Some(t) = &s.terrain {
            self.terrain_iou.extend(t.pieces.iter().map(|p| p.iou));
            self.invented_mm2.extend(&t.invented_mm2);
        }
        if let Some(g) = &s.sight {
            self.sight.pairs += g.pairs;
            self.sight.close_calls += g.close_calls;
            self.sight.agree += g.agree;
            self.sight.close_agree += g.close_agree;
        }
        if s.refused.is_none() {
            self.scan_ms.push(s.scan_ms);
        }
    }

    /// Pools a two-photo score.
    pub fn add_pair(&mut self, p: &PairScore) {
        self.pair_truth += p.truth_bases;
        self.pair_correct += p.correct;
        self.pair_merged += p.merged_bases;
        self.pair_cubes.add(&p.cubes);
        self.pair_merged_cubes += p.merged_cubes;
    }

    /// Centre error median, mm.
    pub fn median_mm(&self) -> f64 {
        quantile(&self.centre_mm, 0.5)
    }

    /// Centre error 95th percentile, mm.
    pub fn p95_mm(&self) -> f64 {
        quantile(&self.centre_mm, 0.95)
    }

    /// The share of correct bases within 2.45 sigma (95% for honest Gaussian errors).
    pub fn sigma_coverage(&self) -> f64 {
        self.error_over_sigma.iter().filter(|r| **r <= 2.45).count() as f64
            / self.error_over_sigma.len().max(1) as f64
    }

    /// Tags at least 90% visible, read.
    pub fn visible_rate(&self) -> f64 {
        self.visible_read as f64 / self.visible_tags.max(1) as f64
    }

    /// Correct bases over scanned bases.
    pub fn precision(&self) -> f64 {
        if self.scanned_bases == 0 { 1.0 } else { self.correct as f64 / self.scanned_bases as f64 }
    }

    /// Two photos: correct merged bases over true bases.
    pub fn pair_recall(&self) -> f64 {
        self.pair_correct as f64 / self.pair_truth.max(1) as f64
    }

    /// Terrain pieces with IoU at least 0.9.
    pub fn terrain_good(&self) -> usize {
        self.terrain_iou.iter().filter(|v| **v >= 0.9).count()
    }

    /// The figures as one Markdown table row: `| label | ... |`.
    pub fn row(&self, label: &str) -> String {
        let pct = |v: f64| format!("{:.1}%", 100.0 * v);
        let frac = |a: usize, b: usize| format!("{a}/{b} ({})", pct(a as f64 / b.max(1) as f64));
        let units = format!(
            "{} ({} linked wrong, {} of units not found)",
            frac(self.cubes.unit_right, self.cubes.found),
            self.cubes.unit_wrong,
            self.cubes.unit_unfound
        );
        format!(
            "| {label} | {}/{} | {:.3} / {:.3} | {} | {} | {} | {} | {} | {} / {} / {} | {}/{} IoU≥0.9, invented max {:.0} cm² | {} | {:.0} / {:.0} |",
            self.accepted,
            self.photos,
            self.median_mm(),
            self.p95_mm(),
            pct(self.sigma_coverage()),
            frac(self.visible_read, self.visible_tags),
            frac(self.correct, self.truth_bases),
            if self.pair_truth > 0 { frac(self.pair_correct, self.pair_truth) } else { "-".into() },
            pct(self.precision()),
            frac(self.cubes.found, self.cubes.truth),
            frac(self.cubes.colour_right, self.cubes.found),
            units,
            self.terrain_good(),
            self.terrain_iou.len(),
            self.invented_mm2.iter().copied().fold(0.0, f64::max) / 100.0,
            if self.sight.pairs > 0 {
                format!("{} ({} pairs)", pct(self.sight.rate()), self.sight.pairs - self.sight.close_calls)
            } else {
                "-".into()
            },
            quantile(&self.scan_ms, 0.5),
            super::truth::max(&self.scan_ms),
        )
    }

    /// The Markdown table's header.
    pub fn header() -> &'static str {
        "| renderer, camera | photos accepted | centre mm median / p95 | within 2.45 sigma | tags ≥90% visible read | one photo: bases | two photos: bases | precision | cubes found / colour / unit | terrain | line of sight | scan ms median / max |\n|---|---|---|---|---|---|---|---|---|---|---|---|"
    }
}
