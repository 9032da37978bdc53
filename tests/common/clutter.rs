//! Crowded test tables (issue 18): infantry in line, two-line and column, each unit in
//! one of the four crowd uniforms (white, dark blue, grey, red: vedette-synth's
//! `CROWD_UNIFORMS`, unit `i` wears `i % 4`), tags at the rear of 20 mm deep bases, the
//! figures standing against the tags. Shared by the clutter scan tests and the accuracy
//! bench (`benches/scan_two_photos.rs` includes this file by path).

#![allow(dead_code)]

use std::path::Path;
use vedette_geometry::{
    Base, BaseSize, Formation, Pose, RuleSet, Scale, Table, TableSize, Unit, UnitKind, Vec2,
};
use vedette_synth::{
    Camera, FigureSpacing, Layout, LookAt, RenderOptions, Resolution, Scene, SensorOptions, StandardLayout,
    render,
};
use vedette_vision::Profile;

/// Infantry base, mm.
pub const BASE: BaseSize = BaseSize { width: 30.0, depth: 20.0 };

/// The formations of a crowded table, in the order units cycle through them.
pub const FORMATIONS: [Formation; 3] = [Formation::Line, Formation::TwoLine, Formation::AttackColumn];

/// A crowded table of `width` x `depth` mm: a grid of units (`columns` x `rows`), clear
/// of the corner fiducials (`inset_mm`, `fiducial_mm`). Unit `i` takes formation
/// `FORMATIONS[i % 3]`: a line of 4, a two-line of 3 x 2 (front rank first, each rank
/// left to right), a column of 3 (front first). Headings alternate between facing the
/// near edge and facing the far edge, turned a few degrees.
pub fn crowded_table(width: f64, depth: f64, columns: usize, rows: usize) -> Table {
    let mut units = Vec::new();
    for row in 0..rows {
        for col in 0..columns {
            let i = units.len();
            let formation = FORMATIONS[i % FORMATIONS.len()];
            let (files, ranks) = match formation {
                Formation::Line => (4, 1),
                Formation::TwoLine => (3, 2),
                _ => (1, 3),
            };
            let x = width * (col as f64 + 0.5) / columns as f64;
            let y = 150.0 + (depth - 300.0) * (row as f64 + 0.5) / rows as f64;
            let heading = if (row + col) % 2 == 0 { 90.0 } else { 270.0 } + ((i * 7) % 11) as f64 - 5.0;
            let forward = Vec2::from_heading_deg(heading);
            let right = Vec2::new(forward.y, -forward.x);
            let mut bases = Vec::new();
            for r in 0..ranks {
                for f in 0..files {
                    let along = (f as f64 - (files as f64 - 1.0) / 2.0) * BASE.width;
                    let back = ((ranks as f64 - 1.0) / 2.0 - r as f64) * BASE.depth;
                    let c = Vec2::new(x, y) + right * along + forward * back;
                    bases.push(Base::new(BASE, Pose::new(c, heading)));
                }
            }
            let mut unit =
                Unit::new(format!("u{i}"), if row % 2 == 0 { "fr" } else { "au" }, UnitKind::Infantry, bases);
            unit.formation = Some(formation);
            units.push(unit);
        }
    }
    let mut table = Table::new(RuleSet::Republique5, Scale::Medium, units);
    table.name = Some(format!("crowded {columns}x{rows}"));
    table.size = Some(TableSize { width, depth });
    table
}

/// The standard layout with every tag at the rear of its base (its paper touching the
/// rear edge), as players glue them so that the figures stand in front.
pub fn rear_tags(table: &Table, fiducial_mm: f64, inset_mm: f64) -> Layout {
    let mut layout = StandardLayout { fiducial_side_mm: fiducial_mm, inset_mm, ..StandardLayout::default() }
        .build(table)
        .expect("layout");
    for t in &mut layout.tags {
        let quiet = t.quiet_zone_mm.unwrap_or(t.side_mm / 6.0);
        t.offset_mm = Vec2::new(0.0, -(BASE.depth / 2.0 - t.side_mm / 2.0 - quiet));
    }
    layout
}

/// The profile of a table with the standard layout's fiducials.
pub fn profile(width: f64, depth: f64, fiducial_mm: f64, inset_mm: f64) -> Profile {
    let (x1, y1) = (width - inset_mm, depth - inset_mm);
    Profile::from_toml_str(
        &format!(
            r#"
[table]
width_mm = {width}
depth_mm = {depth}
[fiducials]
dictionary = "DICT_4X4_250"
size_mm = {fiducial_mm}
markers = [
  {{ id = 0, x_mm = {inset_mm}, y_mm = {inset_mm} }}, {{ id = 1, x_mm = {x1}, y_mm = {inset_mm} }},
  {{ id = 2, x_mm = {x1}, y_mm = {y1} }}, {{ id = 3, x_mm = {inset_mm}, y_mm = {y1} }},
]
[tags]
dictionary = "DICT_4X4_250"
size_mm = 12.0
[bases]
top_height_mm = 3.0
"#
        ),
        "crowded.toml",
    )
    .expect("profile")
}

/// A camera at `tilt_deg` from the near edge (`yaw_deg` 0) or the far edge (180), as
/// low as it can be with the table and a 30 mm margin in frame.
pub fn camera(width: f64, depth: f64, tilt_deg: f64, yaw_deg: f64, resolution: Resolution) -> Camera {
    let mut height = 300.0;
    loop {
        let cam = Camera::looking_at(&LookAt {
            target_mm: Vec2::new(width / 2.0, depth / 2.0),
            height_mm: height,
            tilt_deg,
            yaw_deg,
            focal_mm: 4.5,
            sensor_width_mm: 6.17,
            resolution,
        })
        .expect("camera");
        let m = 30.0;
        let all_in = [(-m, -m), (width + m, -m), (width + m, depth + m), (-m, depth + m)]
            .iter()
            .all(|&(x, y)| cam.project(&nalgebra::Point3::new(x, y, 0.0)).is_some_and(|p| cam.in_frame(p)));
        if all_in || height > 5000.0 {
            return cam;
        }
        height += 10.0;
    }
}

/// Renders the crowded scene into `dir` as `name` (JPEG and truth files).
pub fn shoot(dir: &Path, name: &str, table: &Table, layout: &Layout, cam: &Camera, seed: u64) {
    let scene = Scene::new(table.clone(), layout).expect("scene");
    let options = RenderOptions {
        texel_mm: 2.0,
        edge_supersampling: 4,
        figure_spacing: FigureSpacing::AgainstTags,
        sensor: SensorOptions { blur_sigma_px: 0.7, ..SensorOptions::default() },
        ..RenderOptions::seeded(seed)
    };
    render(&scene, cam, &options).expect("render").write(dir, name).expect("write");
}

/// Two photos of one table from opposite long edges (issue 18).
#[derive(Debug, Clone, Copy)]
pub struct TwoEdges {
    /// Tilt of both cameras from straight down, each toward its own edge, degrees.
    pub tilt_deg: f64,
    /// Both photos' size.
    pub resolution: Resolution,
    /// The near photo's seed; the far one takes `seed + 1`.
    pub seed: u64,
}

/// The edges, as the photos are named: `near` (yaw 0, the near edge at the photo's
/// bottom) and `far` (yaw 180).
pub const EDGES: [(&str, f64); 2] = [("near", 0.0), ("far", 180.0)];

/// Renders one table from both long edges into `dir`, as `{name}-near` and
/// `{name}-far` (JPEG and truth files), each camera as low as the whole table allows
/// ([`camera`]); returns the two names.
pub fn shoot_from_both_edges(
    dir: &Path,
    name: &str,
    table: &Table,
    layout: &Layout,
    shots: &TwoEdges,
) -> [String; 2] {
    let size = table.size.expect("table size");
    EDGES.map(|(edge, yaw)| {
        let cam = camera(size.width, size.depth, shots.tilt_deg, yaw, shots.resolution);
        let n = format!("{name}-{edge}");
        shoot(dir, &n, table, layout, &cam, shots.seed + u64::from(yaw > 0.0));
        n
    })
}

/// The roster of a table and its layout: every tag the layout puts on a base, as a
/// player would write it (a roster may list tags that are missing from the photos).
pub fn roster_of(table: &Table, layout: &Layout) -> vedette_vision::Roster {
    let units = table
        .units
        .iter()
        .filter_map(|u| {
            let mut tags: Vec<_> = layout.tags.iter().filter(|t| t.unit == u.id).collect();
            tags.sort_by_key(|t| t.base);
            let first = tags.first()?;
            let b = u.bases.first()?;
            Some(vedette_vision::RosterUnit::from_unit(
                u,
                [b.width(), b.depth()],
                [first.offset_mm.x, first.offset_mm.y],
                tags.iter().map(|t| t.id).collect(),
            ))
        })
        .collect();
    let game = vedette_vision::Game {
        rules: table.rules,
        scale: table.scale,
        name: table.name.clone(),
        near_side: None,
    };
    vedette_vision::Roster::from_units(game, units).expect("roster")
}
