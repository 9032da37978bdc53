//! Markers and terrain from the photo (issue 19): a rendered 600 x 400 mm table with a
//! battalion standing in a wood, a town, a marsh, a hill, a stone wall, cubes of every
//! colour beside their units and one cube between two units. The scan finds each
//! terrain kind (the wood as one piece), each cube with its colour and unit, and flags
//! the cube it cannot link; the scanned table validates; a line of sight the wood blocks
//! on the true table is blocked on the scanned one.
//!
//! The photo is 1600 x 1200 px of a 600 x 400 mm table (0.4 mm per pixel, about the
//! scale of a 12 MP photo of a 6'x4' table), rendered with figures on the bases.

use crate::common;
use common::surface::infantry_line;

use common::truth::Truth;
use std::path::Path;
use vedette_geometry::{
    Marker, MarkerColour, MarkerKind, Polygon, RuleSet, Scale, Table, TableSize, TerrainFeature, TerrainKind,
    Vec2,
};
use vedette_synth::{Camera, LookAt, NearbyLamp, RenderOptions, Resolution, Scene, StandardLayout, render};
use vedette_vision::{Photo, Profile, ScanIssue, scan};

const WIDTH: f64 = 600.0;
const DEPTH: f64 = 400.0;

/// The test table's profile: StandardLayout's fiducials (40 mm, 40 mm in), the
/// renderer's terrain colours as the club's classes, its mat as the bare table.
fn profile() -> Profile {
    profile_with("")
}

/// [`profile`] with more `[[terrain]]` classes.
fn profile_with(extra: &str) -> Profile {
    common::surface::board_profile(
        WIDTH,
        DEPTH,
        &format!(
            r#"# The renderer paints templates flat.

[[terrain]]
kind = "medium-forest"
colour = [36, 71, 26]
thickness_mm = 0
[[terrain]]
kind = "medium-buildings"
colour = [153, 84, 64]
thickness_mm = 0
[[terrain]]
kind = "marsh"
colour = [77, 92, 87]
thickness_mm = 0
[[terrain]]
kind = "hill"
colour = [148, 122, 77]
thickness_mm = 0
level = 1
[[terrain]]
kind = "stone-wall"
colour = [148, 143, 133]
thickness_mm = 0
{extra}"#
        ),
        "surface.toml",
    )
}

fn area(kind: TerrainKind, pts: &[(f64, f64)], level: f64) -> TerrainFeature {
    TerrainFeature {
        crests: Vec::new(),
        id: None,
        kind,
        level,
        outline: pts.iter().map(|&(x, y)| Vec2::new(x, y)).collect(),
        holes: Vec::new(),
        path: Vec::new(),
    }
}

fn cube(colour: MarkerColour, x: f64, y: f64, unit: &str) -> Marker {
    let kind = if colour == MarkerColour::Natural { MarkerKind::Square } else { MarkerKind::Morale };
    Marker { kind, colour: Some(colour), x, y, unit: Some(unit.into()), size: None, sigma_mm: None }
}

fn table() -> Table {
    let units = vec![
        // A battalion standing in the wood.
        infantry_line("fr-1", "fr", &[195.0, 225.0, 255.0, 285.0], 265.0, 90.0),
        infantry_line("fr-2", "fr", &[120.0, 150.0], 200.0, 90.0),
        infantry_line("au-1", "au", &[400.0, 430.0], 205.0, 270.0),
        infantry_line("au-2", "au", &[500.0, 530.0], 205.0, 270.0),
        // Behind the wood, as fr-2 sees it.
        infantry_line("au-3", "au", &[220.0, 250.0], 368.0, 270.0),
    ];
    let mut t = Table::new(RuleSet::Republique5, Scale::Medium, units);
    t.size = Some(TableSize { width: WIDTH, depth: DEPTH });
    t.markers = vec![
        cube(MarkerColour::White, 318.0, 262.0, "fr-1"),
        cube(MarkerColour::Black, 135.0, 228.0, "fr-2"),
        cube(MarkerColour::Natural, 180.0, 195.0, "fr-2"),
        cube(MarkerColour::Yellow, 415.0, 180.0, "au-1"),
        // Between au-1 (right flank at x = 445) and au-2 (left flank at 485).
        Marker { unit: None, ..cube(MarkerColour::Red, 465.0, 205.0, "au-1") },
        cube(MarkerColour::Red, 515.0, 230.0, "au-2"),
    ];
    t.terrain = vec![
        area(
            TerrainKind::MediumForest,
            &[(150.0, 220.0), (250.0, 205.0), (340.0, 230.0), (345.0, 310.0), (260.0, 335.0), (160.0, 315.0)],
            0.0,
        ),
        area(
            TerrainKind::MediumBuildings,
            &[(380.0, 260.0), (500.0, 255.0), (505.0, 330.0), (385.0, 335.0)],
            0.0,
        ),
        area(TerrainKind::Marsh, &[(90.0, 90.0), (200.0, 80.0), (215.0, 150.0), (100.0, 160.0)], 0.0),
        area(
            TerrainKind::Hill,
            &[(330.0, 80.0), (470.0, 70.0), (520.0, 120.0), (450.0, 165.0), (340.0, 150.0)],
            1.0,
        ),
        TerrainFeature {
            crests: Vec::new(),
            id: None,
            kind: TerrainKind::StoneWall,
            level: 0.0,
            outline: Vec::new(),
            holes: Vec::new(),
            path: vec![Vec2::new(240.0, 70.0), Vec2::new(300.0, 170.0)],
        },
    ];
    t
}

fn shoot(dir: &Path) -> Truth {
    shoot_table(dir, table())
}

fn shoot_table(dir: &Path, table: Table) -> Truth {
    shoot_table_with(dir, table, RenderOptions { texel_mm: 0.5, ..RenderOptions::seeded(19) })
}

/// [`shoot_table`] with these render options.
fn shoot_table_with(dir: &Path, table: Table, options: RenderOptions) -> Truth {
    shoot_table_from(dir, table, options, 620.0, 10.0)
}

/// [`shoot_table_with`] from a camera `height_mm` over the table's middle, tilted
/// `tilt_deg` toward the far edge.
fn shoot_table_from(
    dir: &Path,
    table: Table,
    options: RenderOptions,
    height_mm: f64,
    tilt_deg: f64,
) -> Truth {
    let layout = StandardLayout { fiducial_side_mm: 40.0, inset_mm: 40.0, ..Default::default() }
        .build(&table)
        .unwrap();
    let scene = Scene::new(table, &layout).unwrap();
    let camera = Camera::looking_at(&LookAt {
        target_mm: Vec2::new(WIDTH / 2.0, DEPTH / 2.0),
        height_mm,
        tilt_deg,
        yaw_deg: 0.0,
        focal_mm: 4.5,
        sensor_width_mm: 6.17,
        resolution: Resolution::new(1600, 1200),
    })
    .unwrap();
    render(&scene, &camera, &options).unwrap().write(dir, "surface").unwrap();
    Truth::load(dir, "surface")
}

/// Intersection over union of two polygons, on a 1 mm grid.
fn iou(a: &Polygon, b: &Polygon) -> f64 {
    let (mut both, mut either) = (0usize, 0usize);
    for i in 0..WIDTH as usize {
        for j in 0..DEPTH as usize {
            let p = Vec2::new(i as f64 + 0.5, j as f64 + 0.5);
            let (x, y) = (a.contains(p), b.contains(p));
            both += usize::from(x && y);
            either += usize::from(x || y);
        }
    }
    both as f64 / either.max(1) as f64
}

#[test]
fn cubes_and_terrain_are_read_from_the_photo() {
    let dir = tempfile::tempdir().unwrap();
    let truth = shoot(dir.path());
    let p = profile();
    let photo = Photo::load(dir.path().join("surface.jpg")).unwrap();
    let s = scan(&photo, &p, Some(&truth.roster()), Some(&truth.intrinsics())).unwrap();
    let want = table();
    assert_eq!(s.table.base_count(), want.base_count(), "{:?}", s.report.issues);

    // Every cube, with its colour and its unit; the one between two units is flagged.
    for m in &want.markers {
        let got = s.table.markers.iter().find(|g| (g.x - m.x).hypot(g.y - m.y) < 3.0).unwrap_or_else(|| {
            panic!("{:?} cube at ({}, {}) not found: {:?}", m.colour, m.x, m.y, s.table.markers)
        });
        assert_eq!((got.kind, got.colour), (m.kind, m.colour), "{got:?}");
        assert_eq!(got.unit, m.unit, "{got:?}");
    }
    assert_eq!(s.table.markers.len(), want.markers.len(), "{:?}", s.table.markers);
    let flagged: Vec<&ScanIssue> =
        s.report.issues.iter().filter(|i| matches!(i, ScanIssue::MarkerAmbiguous { .. })).collect();
    assert_eq!(flagged.len(), 1, "{:?}", s.report.issues);
    if let ScanIssue::MarkerAmbiguous { colour, units, .. } = flagged[0] {
        assert_eq!(*colour, MarkerColour::Red);
        let mut units = units.clone();
        units.sort();
        assert_eq!(units, vec!["au-1".to_string(), "au-2".to_string()]);
        assert!(flagged[0].describe().contains("au-1") && flagged[0].describe().contains("au-2"));
    }

    // Every terrain kind, one piece each, close to the truth; the wood with the
    // battalion in it is one piece.
    for f in &want.terrain {
        let got: Vec<&TerrainFeature> = s.table.terrain.iter().filter(|g| g.kind == f.kind).collect();
        assert_eq!(got.len(), 1, "{}: {:?}", f.kind, s.table.terrain);
        if f.kind.is_linear() {
            let (a, b) = (f.path[0], f.path[f.path.len() - 1]);
            let ends = [got[0].path[0], got[0].path[got[0].path.len() - 1]];
            let near = |p: Vec2| ends.iter().map(|e| e.distance(p)).fold(f64::INFINITY, f64::min);
            // Within 15 mm at each end: where the wall meets the mat the smoothed colour
            // can come nearer an area class (issue 19 notes).
            assert!(near(a) < 15.0 && near(b) < 15.0, "{}: {:?}", f.kind, got[0].path);
        } else {
            let v = iou(&f.polygon(), &got[0].polygon());
            eprintln!("{}: IoU {v:.3}", f.kind);
            assert!(v >= 0.9, "{}: IoU {v}", f.kind);
            if f.kind == TerrainKind::Hill {
                assert_eq!(got[0].level, 1.0);
            }
        }
    }
    // The scanned table is a valid table file, and the wood decides a line of sight on
    // it as on the true table.
    let text = s.table.to_json_string();
    Table::from_json_str(&text).unwrap();
    let mut bare = s.table.clone();
    bare.terrain.clear();
    let mut verdicts = Vec::new();
    for (name, t) in [("true", &want), ("scanned", &s.table), ("bare", &bare)] {
        let path = dir.path().join(format!("{name}.json"));
        std::fs::write(&path, t.to_json_string()).unwrap();
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_vedette"))
            .args(["los", path.to_str().unwrap(), "fr-2", "au-3", "--json"])
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        verdicts.push(v["visible"].as_bool().unwrap());
    }
    assert_eq!(verdicts, vec![false, false, true], "true, scanned and bare tables: fr-2 sees au-3?");
}

/// Issue 36: a town is a template with houses standing on it, which the scan does not
/// know of (the second renderer's towns carry 3-4). Two towns with houses on them
/// (32 x 22 mm, walls 13 mm and a red roof 9 mm more, turned every way; the renderer
/// sets up to 4 on each, clear of the edge, the fiducials and the tags), a battalion
/// beside one: each town is found as one piece, IoU at least 0.9 (0.98 and 0.97;
/// without the holes under houses filled 0.64, one hole of the houses and their
/// shadows), and nothing else.
#[test]
fn towns_with_houses_on_them_are_one_piece_each() {
    let dir = tempfile::tempdir().unwrap();
    let units = vec![infantry_line("fr-1", "fr", &[300.0, 330.0, 360.0], 200.0, 90.0)];
    let mut want = Table::new(RuleSet::Republique5, Scale::Medium, units);
    want.size = Some(TableSize { width: WIDTH, depth: DEPTH });
    want.terrain = vec![
        area(
            TerrainKind::MediumBuildings,
            &[(100.0, 100.0), (260.0, 90.0), (275.0, 220.0), (110.0, 235.0)],
            0.0,
        ),
        area(
            TerrainKind::MediumBuildings,
            &[(390.0, 230.0), (530.0, 240.0), (520.0, 350.0), (400.0, 345.0)],
            0.0,
        ),
    ];
    let options = RenderOptions { texel_mm: 0.5, houses: true, ..RenderOptions::seeded(36) };
    let truth = shoot_table_with(dir.path(), want.clone(), options);
    let photo = Photo::load(dir.path().join("surface.jpg")).unwrap();
    // As declared, and with the mat's colour learned from the photo.
    let mut learned = profile();
    learned.colours.ground.clear();
    for (what, p) in [("ground declared", profile()), ("ground learned", learned)] {
        let s = scan(&photo, &p, Some(&truth.roster()), Some(&truth.intrinsics())).unwrap();
        assert_eq!(s.table.base_count(), want.base_count(), "{:?}", s.report.issues);
        assert_eq!(s.table.terrain.len(), 2, "{what}: {:?}", s.table.terrain);
        for f in &want.terrain {
            let got: Vec<&TerrainFeature> =
                s.table.terrain.iter().filter(|g| iou(&f.polygon(), &g.polygon()) > 0.0).collect();
            assert_eq!(got.len(), 1, "{what}: {:?}: {:?}", f.outline, s.table.terrain);
            let v = iou(&f.polygon(), &got[0].polygon());
            eprintln!("{what}: town with houses: IoU {v:.3}, {} holes", got[0].holes.len());
            assert!(v >= 0.9 && got[0].kind == f.kind, "{what}: {:?}: IoU {v}", f.outline);
        }
    }
}

/// Issue 36: without `ground` declared the mat's colour is learned from the photo. A
/// club's class whose colour is one of the mat's two tones (the second renderer's brown
/// mat once labelled the whole table a town) is then not found over the table: the
/// learned mat is nearer the mat's pixels, and the scan goes through with every other
/// piece as when `ground` is declared. (Within 10 sRGB units of the learned colour a
/// class refuses the scan, `terrain::tests`; a class found over most of the table
/// still refuses it, where no mat could be learned.)
#[test]
fn a_class_of_the_mats_colour_is_not_found_over_the_table() {
    let dir = tempfile::tempdir().unwrap();
    let truth = shoot(dir.path());
    let photo = Photo::load(dir.path().join("surface.jpg")).unwrap();
    let mut p = profile();
    p.colours.ground.clear();
    let mut mat = p.terrain[0].clone();
    (mat.kind, mat.colour) = (TerrainKind::LightBuildings, [77, 107, 48]);
    p.terrain.push(mat);
    let s = scan(&photo, &p, Some(&truth.roster()), Some(&truth.intrinsics())).unwrap();
    assert!(s.table.terrain.iter().all(|f| f.kind != TerrainKind::LightBuildings), "{:?}", s.table.terrain);
    for f in table().terrain.iter().filter(|f| !f.kind.is_linear()) {
        let got: Vec<&TerrainFeature> = s.table.terrain.iter().filter(|g| g.kind == f.kind).collect();
        assert_eq!(got.len(), 1, "{}: {:?}", f.kind, s.table.terrain);
        let v = iou(&f.polygon(), &got[0].polygon());
        assert!(v >= 0.9, "{}: IoU {v}", f.kind);
    }
}

fn path(kind: TerrainKind, pts: &[(f64, f64)]) -> TerrainFeature {
    TerrainFeature {
        crests: Vec::new(),
        id: Some(kind.name().to_string()),
        kind,
        level: 0.0,
        outline: Vec::new(),
        holes: Vec::new(),
        path: pts.iter().map(|&(x, y)| Vec2::new(x, y)).collect(),
    }
}

/// Issue 19: walls, hedges, streams and roads as polylines. A road, a hedge, a stream
/// and a wall, each declared linear: each comes out as one polyline within 3 mm of
/// its true centre line (95th percentile, away from bases), the hedge and the road
/// though a base stands across each; nothing else comes out as a line.
#[test]
fn linear_pieces_are_read_as_polylines() {
    let dir = tempfile::tempdir().unwrap();
    let units = vec![
        // Across the hedge, and across the road.
        infantry_line("fr-1", "fr", &[285.0, 315.0], 262.0, 90.0),
        infantry_line("au-1", "au", &[200.0], 116.0, 270.0),
    ];
    let mut want = Table::new(RuleSet::Republique5, Scale::Medium, units);
    want.size = Some(TableSize { width: WIDTH, depth: DEPTH });
    want.terrain = vec![
        path(TerrainKind::Road, &[(90.0, 120.0), (300.0, 110.0), (510.0, 150.0)]),
        path(TerrainKind::Hedge, &[(100.0, 250.0), (500.0, 270.0)]),
        path(TerrainKind::StreamBank, &[(100.0, 330.0), (250.0, 350.0), (450.0, 320.0)]),
        path(TerrainKind::StoneWall, &[(360.0, 190.0), (480.0, 220.0)]),
    ];
    let truth = shoot_table(dir.path(), want.clone());
    let p = profile_with(
        "[[terrain]]\nkind = \"hedge\"\ncolour = [41, 84, 31]\nthickness_mm = 0\n\
         [[terrain]]\nkind = \"stream-bank\"\ncolour = [77, 89, 107]\nthickness_mm = 0\n\
         [[terrain]]\nkind = \"road\"\ncolour = [158, 133, 97]\nthickness_mm = 0\n",
    );
    let photo = Photo::load(dir.path().join("surface.jpg")).unwrap();
    let s = scan(&photo, &p, Some(&truth.roster()), Some(&truth.intrinsics())).unwrap();
    assert_eq!(s.table.base_count(), want.base_count(), "{:?}", s.report.issues);
    let kinds = [TerrainKind::Road, TerrainKind::Hedge, TerrainKind::StreamBank, TerrainKind::StoneWall];
    let score = common::surface::line_score(&s.table, &want, &kinds, 5.0);
    for l in &score.pieces {
        let p95 = common::truth::quantile(&l.distance_mm, 0.95);
        eprintln!("{} : {} polyline(s), p95 {p95:.2} mm, recovered {:.3}", l.kind, l.fragments, l.recovered);
        assert_eq!(l.fragments, 1, "{}: {:?}", l.kind, s.table.terrain);
        assert!(p95 <= 3.0 && l.recovered >= 0.95, "{}: p95 {p95} mm, recovered {}", l.kind, l.recovered);
    }
    assert_eq!(score.pieces.len(), 4);
    assert!(score.invented_mm.is_empty(), "{:?}: {:?}", score.invented_mm, s.table.terrain);
    assert!(s.table.terrain.iter().all(|f| f.kind.is_linear()), "{:?}", s.table.terrain);
    Table::from_json_str(&s.table.to_json_string()).unwrap();
}

/// Issue 19: players put cubes against their units' bases. Seen from the side, the
/// figures' reach (the occupied mask: the bases with everything that may stand on them,
/// along the camera's rays) covers a cube touching a base's far edge, which was missed:
/// a cube is now looked for wherever the bases' bodies are not, and grown over a base
/// where it touches one. A cube against each kind of edge, near and far, in four colours
/// (the red one beside red coats) is found with its colour and unit; nothing is
/// invented. (A black cube against an end of black-hatted figures joins their hats
/// and is still missed.)
#[test]
fn cubes_against_bases_are_found() {
    let dir = tempfile::tempdir().unwrap();
    let mut t = four_lines();
    // A cube's half side is 4.76 mm: each centre is 4.8 mm beyond a base's edge.
    t.markers = vec![
        // Against fr-1's left end (x = 135).
        cube(MarkerColour::Yellow, 130.2, 150.0, "fr-1"),
        // Against fr-2's long edge at y = 140 (the near side of the photo).
        cube(MarkerColour::White, 410.0, 135.2, "fr-2"),
        // Against au-1's right end (x = 225), beside red coats.
        cube(MarkerColour::Red, 229.8, 300.0, "au-1"),
        // Against au-2's long edge at y = 310 (the far side: in the figures' reach).
        cube(MarkerColour::Natural, 380.0, 314.8, "au-2"),
    ];
    every_cube_found(dir.path(), &t);
}

/// Issue 36: players stand two or three cubes of one colour in a row, touching (a unit
/// shaken twice, a unit with its orders). Each is found, with its own centre, colour and
/// unit: in pairs and a row of three, along x and along y, one colour each, and two of
/// different colours touching; nothing is invented.
#[test]
fn cubes_standing_in_rows_are_each_found() {
    let dir = tempfile::tempdir().unwrap();
    let mut t = four_lines();
    t.markers = cubes_in_rows();
    every_cube_found(dir.path(), &t);
}

/// Issue 36: on the second renderer's photos players stand rows of cubes against their
/// units' bases, a little apart (centres 11-13 mm apart; a cube's side is 9.5 mm),
/// where their shaded sides, the gaps between them and the figures join into one blob
/// of their colour: of the 37 cubes missed there, 17 stood beside figures and failed
/// the shape test (a row was split into its cubes only away from figures), 3 more were
/// a row of three whose length, gaps and sides included, read as four cubes. Here: a
/// pair of yellow against fr-2's near edge (one turned 45°, as our renderer turns
/// cubes), one blob touching the figures' reach (missed before: it failed the shape
/// test beside figures), a row of three red against au-1's far edge, in the figures'
/// reach, and one behind fr-1, both with 3 mm gaps (found before too: our renderer's
/// gaps do not join them; they guard the change): each found with its colour and
/// unit, nothing invented.
#[test]
fn rows_of_cubes_against_figures_are_each_found() {
    let dir = tempfile::tempdir().unwrap();
    let mut t = four_lines();
    t.markers = vec![
        // Against au-1's long edge at y = 310 (the far side: in the figures' reach).
        cube(MarkerColour::Red, 167.5, 314.8, "au-1"),
        cube(MarkerColour::Red, 180.0, 314.8, "au-1"),
        cube(MarkerColour::Red, 192.5, 314.8, "au-1"),
        // Against fr-2's long edge at y = 140 (the near side).
        cube(MarkerColour::Yellow, 404.5, 135.2, "fr-2"),
        cube(MarkerColour::Yellow, 415.5, 135.2, "fr-2"),
        // Behind fr-1, apart from it, 12.5 mm apart.
        cube(MarkerColour::Red, 167.5, 118.0, "fr-1"),
        cube(MarkerColour::Red, 180.0, 118.0, "fr-1"),
        cube(MarkerColour::Red, 192.5, 118.0, "fr-1"),
    ];
    every_cube_found(dir.path(), &t);
}

/// Two pairs, a row of three and two colours touching, behind and beside
/// [`four_lines`]' units.
fn cubes_in_rows() -> Vec<Marker> {
    // A cube's side is 9.525 mm: centres 9.6 mm apart touch (printed cubes are not
    // quite square-edged; the renderer's are).
    let s = 9.6;
    vec![
        // A pair behind fr-1, along x.
        cube(MarkerColour::Red, 175.0, 120.0, "fr-1"),
        cube(MarkerColour::Red, 175.0 + s, 120.0, "fr-1"),
        // A row of three behind fr-2, along x.
        cube(MarkerColour::Yellow, 400.0, 120.0, "fr-2"),
        cube(MarkerColour::Yellow, 400.0 + s, 120.0, "fr-2"),
        cube(MarkerColour::Yellow, 400.0 + 2.0 * s, 120.0, "fr-2"),
        // A pair beside au-1's end, along y.
        cube(MarkerColour::White, 110.0, 300.0, "au-1"),
        cube(MarkerColour::White, 110.0, 300.0 + s, "au-1"),
        // Two colours touching behind au-2.
        cube(MarkerColour::Black, 400.0, 330.0, "au-2"),
        cube(MarkerColour::Yellow, 400.0 + s, 330.0, "au-2"),
    ]
}

/// Issue 36: a photo stored sRGB-encoded, as a phone's JPEG is, its ink and cubes'
/// paints declared as a player would measure them (the profile's defaults are our
/// renderer's paints as linear code values), but the black left at the default, a deep
/// black (18).
/// Our renderer's black paint gives back 7% of the light, its ink 5%: in light nearly
/// the same, but sRGB-encoded and corrected the cube's top reads 71 code values, and a
/// black top was looked for only within the tolerance of 18 (the second renderer's
/// black tops, 20-71, were missed so). Every cube of [`cubes_in_rows`], a natural one, a
/// lone black and a black pair are found with their colour and unit, nothing invented;
/// at -0.5 EV too.
#[test]
fn cubes_in_an_srgb_photo_are_found() {
    // Our renderer's paints (`vedette_synth`'s marker colours) and ink (0.05, 0.05,
    // 0.06) under its paper's light as the correction brings it to the profile's paper
    // (237), sRGB-encoded: as a player would declare what their photos show.
    let mut profile = profile_with(
        "[markers]\nwhite = [234, 234, 230]\nyellow = [236, 222, 103]\nred = [212, 85, 85]\nnatural = [219, 198, 166]\n",
    );
    profile.colours.ink = [60, 60, 66];
    let mut t = four_lines();
    t.markers = cubes_in_rows();
    t.markers.push(cube(MarkerColour::Natural, 250.0, 330.0, "au-1"));
    t.markers.push(cube(MarkerColour::Black, 235.0, 150.0, "fr-1"));
    t.markers.push(cube(MarkerColour::Black, 470.0, 160.0, "fr-2"));
    t.markers.push(cube(MarkerColour::Black, 479.6, 160.0, "fr-2"));
    for ev in [0.0, -0.5] {
        let dir = tempfile::tempdir().unwrap();
        let options =
            RenderOptions { texel_mm: 0.5, exposure_ev: ev, srgb: true, ..RenderOptions::seeded(36) };
        let truth = shoot_table_with(dir.path(), t.clone(), options);
        println!("sRGB, {ev:+} EV");
        scan_finds_every_cube_with(&profile, dir.path(), &t, &truth);
    }
}

/// Issue 36: the cubes' colours are judged against the photo's own paper and ink, so
/// a photo one stop under, under a warm light left uncorrected, or half a stop under
/// a cold one shows the same cubes: [`cubes_in_rows`] and a natural wooden cube, each
/// found with its colour and unit, nothing invented. A guard, not a proof of issue
/// 36's change: our renderer writes linear photos, which the fit on code values
/// already corrected exactly (this passes without the change too); the second
/// renderer's photos (`tests/scan/scan_shared_renders.rs`) and the unit tests of `palette`
/// and `cubes` hold the change. At half a stop over and more our renderer clips the
/// paper and the yellow cubes' red and green: not held. Declared paints a little off
/// the rendered ones (yellow 8% less saturated) lose the yellow cube touching the
/// black one at -1 EV: not held either.
#[test]
fn cubes_are_found_under_other_exposures_and_light() {
    let mut t = four_lines();
    t.markers = cubes_in_rows();
    t.markers.push(cube(MarkerColour::Natural, 250.0, 330.0, "au-1"));
    for (ev, white_balance) in [(-1.0, [1.0; 3]), (0.0, [1.15, 1.0, 0.8]), (-0.5, [0.85, 1.0, 1.2])] {
        let dir = tempfile::tempdir().unwrap();
        let options =
            RenderOptions { texel_mm: 0.5, exposure_ev: ev, white_balance, ..RenderOptions::seeded(36) };
        let truth = shoot_table_with(dir.path(), t.clone(), options);
        println!("{ev:+} EV, white balance {white_balance:?}");
        scan_finds_every_cube(dir.path(), &t, &truth);
    }
}

/// Every cube of `t` found with its colour and unit, nothing invented, with a highlight
/// of 0.12 of white on every painted top, at 0 and -0.5 EV.
fn every_cube_found_under_a_highlight(t: &Table) {
    for ev in [0.0, -0.5] {
        let dir = tempfile::tempdir().unwrap();
        let options = RenderOptions {
            texel_mm: 0.5,
            exposure_ev: ev,
            cube_highlight: 0.12,
            ..RenderOptions::seeded(36)
        };
        let truth = shoot_table_with(dir.path(), t.clone(), options);
        println!("{ev:+} EV, highlight 0.12");
        scan_finds_every_cube(dir.path(), t, &truth);
    }
}

/// Issue 36: glossy tops that catch the lamp (on the second renderer's photos red
/// tops read pink and yellow ones pale, some 0.03-0.16 of white added to their
/// paint's light). With a highlight of 0.12 of white on every painted cube's top
/// (`RenderOptions::cube_highlight`), at 0 and -0.5 EV, the red and yellow cubes of
/// [`cubes_in_rows`] (the pair, the row of three, the yellow that touched the black
/// one, now alone) and a red and a yellow cube standing alone beside the units are
/// each found with their colour and unit, nothing invented (a matte natural wooden
/// cube beside them too). White tops that the highlight clips are
/// [`white_cubes_whose_tops_clip_are_found`]'s; not held: a black one, a dark grey
/// (`docs/calibration.md`).
#[test]
fn cubes_whose_tops_catch_the_lamp_are_found() {
    let mut t = four_lines();
    t.markers = cubes_in_rows()
        .into_iter()
        .filter(|m| matches!(m.colour, Some(MarkerColour::Red | MarkerColour::Yellow)))
        .collect();
    t.markers.push(cube(MarkerColour::Red, 235.0, 150.0, "fr-1"));
    t.markers.push(cube(MarkerColour::Yellow, 470.0, 160.0, "fr-2"));
    t.markers.push(cube(MarkerColour::Natural, 250.0, 330.0, "au-1"));
    every_cube_found_under_a_highlight(&t);
}

/// Issue 36: white tops that the lamp's highlight clips. With a highlight of 0.12 of
/// white on every painted top (`RenderOptions::cube_highlight`), a white paint (0.9 of
/// white) reads over the fiducials' paper (0.93): 255 in the photo at 0 EV, and over
/// 255 once corrected at -0.5 EV, beyond the white's tolerance, so that only its rims
/// were labelled white (on the second renderer's tagged-304 two white tops read (255,
/// 255, 236-250) once corrected, and were missed). The white pair of
/// [`cubes_in_rows`], a white cube standing alone and one beside a unit's flank are
/// each found with their colour and unit, nothing invented (a matte natural wooden
/// cube beside them too), at 0 and -0.5 EV.
#[test]
fn white_cubes_whose_tops_clip_are_found() {
    let mut t = four_lines();
    t.markers = cubes_in_rows().into_iter().filter(|m| m.colour == Some(MarkerColour::White)).collect();
    t.markers.push(cube(MarkerColour::White, 470.0, 160.0, "fr-2"));
    t.markers.push(cube(MarkerColour::White, 410.0, 125.0, "fr-2"));
    t.markers.push(cube(MarkerColour::Natural, 250.0, 330.0, "au-1"));
    every_cube_found_under_a_highlight(&t);
}

/// Issue 36: a lamp hung low over the table (vedette-synth's `nearby_lamp`, 600 mm over
/// the table's middle, its light falling off with the square of the distance and the
/// cosine of its angle) lights the cubes under it more than the plane of light through
/// the fiducials says: the scan's highlight fit reads the red tops here under 1.14-1.20
/// of that plane's light, over the 1.1 it allowed before. With the profile's
/// `lamp_height_mm` at 600 (a lamp as low over this 600 x 400 mm board as one 1.5 m
/// over a 6'x4' table is, for the fiducials' spread), at 0 and -0.5 EV, the red pair of
/// [`cubes_in_rows`] and red cubes, 50-150 mm from the lamp's foot, their glossy tops
/// mirroring it in a lobe of up to 0.06 of white, are found with their colour and
/// unit, nothing invented. Not held: a yellow under the pool, whose red and green go
/// over 255 in the corrected image (a yellow paint has 8% of headroom there).
#[test]
fn cubes_under_a_nearby_lamp_are_found() {
    let mut t = four_lines();
    t.markers = cubes_in_rows().into_iter().filter(|m| m.colour == Some(MarkerColour::Red)).collect();
    t.markers.push(cube(MarkerColour::Red, 235.0, 150.0, "fr-1"));
    t.markers.push(cube(MarkerColour::Red, 250.0, 185.0, "fr-1"));
    t.markers.push(cube(MarkerColour::Red, 350.0, 180.0, "fr-2"));
    let mut profile = profile();
    profile.colours.lamp_height_mm = 600.0;
    for ev in [0.0, -0.5] {
        let dir = tempfile::tempdir().unwrap();
        let lamp = NearbyLamp { over: Vec2::new(WIDTH / 2.0, DEPTH / 2.0), height_mm: 600.0 };
        let options = RenderOptions {
            texel_mm: 0.5,
            exposure_ev: ev,
            cube_highlight: 0.06,
            nearby_lamp: Some(lamp),
            ..RenderOptions::seeded(36)
        };
        let truth = shoot_table_with(dir.path(), t.clone(), options);
        println!("{ev:+} EV, a lamp 600 mm over the middle");
        scan_finds_every_cube_with(&profile, dir.path(), &t, &truth);
    }
}

/// Issue 36: pairs of touching black cubes seen obliquely, across the diagonal of the
/// photo. From a camera 500 mm over the table's middle, tilted 30° (its nadir at (300,
/// -89)), a cube 450 mm from the nadir shows its sides 8.6 mm long on the tops' plane
/// (`side x D / H`): a pair standing 19° off the line to the nadir, behind au-2, and one
/// across it (65° off), beside au-2, each make one blob of 327-363 mm² (a pair's tops
/// are 181) that the other shape tests refuse: none of the four was found before (on
/// the second renderer's photos, au-10's pair at a tilt of 20-24° and au-3's at 28°
/// were missed so). Each cube is found with its colour and unit, nothing invented, at
/// 0 and -0.5 EV.
#[test]
fn black_pairs_seen_across_the_diagonal_are_found() {
    let mut t = four_lines();
    let s = 9.6;
    t.markers = vec![
        cube(MarkerColour::Black, 440.0, 335.0, "au-2"),
        cube(MarkerColour::Black, 440.0, 335.0 + s, "au-2"),
        cube(MarkerColour::Black, 480.0, 345.0, "au-2"),
        cube(MarkerColour::Black, 480.0 + s, 345.0, "au-2"),
    ];
    for ev in [0.0, -0.5] {
        let dir = tempfile::tempdir().unwrap();
        let options = RenderOptions { texel_mm: 0.5, exposure_ev: ev, ..RenderOptions::seeded(36) };
        let truth = shoot_table_from(dir.path(), t.clone(), options, 500.0, 30.0);
        println!("{ev:+} EV, tilt 30°");
        scan_finds_every_cube(dir.path(), &t, &truth);
    }
}

/// Issue 36: cubes standing alone seen obliquely. From a camera 500 mm over the
/// table's middle, tilted 30° (its nadir at (300, -89)), cubes 290-460 mm from the
/// nadir show their sides swept 5.6-8.7 mm on the tops' plane: with the darker of
/// those sides only partly of the paint's colour, a blob may fill less of its rectangle
/// than a cube with its sides must (on the second renderer's photos, tagged-303-far's
/// red cube of `fr-5`, its sides swept 9.4 mm, filled 64%, and was missed; here the
/// natural wooden cube beside `au-2`, swept 8.3 mm, was missed at 0 and -1 EV and
/// under a warm light). Each is found with its colour and unit, nothing invented, at
/// 0 and -1 EV.
#[test]
fn single_cubes_seen_obliquely_are_found() {
    let mut t = four_lines();
    t.markers = vec![
        cube(MarkerColour::Red, 480.0, 150.0, "fr-2"),
        cube(MarkerColour::Yellow, 500.0, 125.0, "fr-2"),
        cube(MarkerColour::Red, 520.0, 180.0, "fr-2"),
        cube(MarkerColour::Red, 472.0, 330.0, "au-2"),
        cube(MarkerColour::Natural, 500.0, 300.0, "au-2"),
        cube(MarkerColour::Yellow, 118.0, 330.0, "au-1"),
        cube(MarkerColour::Black, 100.0, 300.0, "au-1"),
        cube(MarkerColour::White, 120.0, 150.0, "fr-1"),
    ];
    for ev in [0.0, -1.0] {
        let dir = tempfile::tempdir().unwrap();
        let options = RenderOptions { texel_mm: 0.5, exposure_ev: ev, ..RenderOptions::seeded(36) };
        let truth = shoot_table_from(dir.path(), t.clone(), options, 500.0, 30.0);
        println!("{ev:+} EV, tilt 25°");
        scan_finds_every_cube(dir.path(), &t, &truth);
    }
}

/// Renders `t`, scans it with its camera file and roster, and checks that every base
/// and every cube (within 3 mm, with its colour and unit) is found and nothing else.
fn every_cube_found(dir: &Path, t: &Table) {
    let truth = shoot_table(dir, t.clone());
    scan_finds_every_cube(dir, t, &truth);
}

/// Scans the render of `t` in `dir` as [`every_cube_found`] does.
fn scan_finds_every_cube(dir: &Path, t: &Table, truth: &Truth) {
    scan_finds_every_cube_with(&profile(), dir, t, truth);
}

/// [`scan_finds_every_cube`] with `profile`.
fn scan_finds_every_cube_with(profile: &Profile, dir: &Path, t: &Table, truth: &Truth) {
    let photo = Photo::load(dir.join("surface.jpg")).unwrap();
    let s = scan(&photo, profile, Some(&truth.roster()), Some(&truth.intrinsics())).unwrap();
    assert_eq!(s.table.base_count(), t.base_count(), "{:?}", s.report.issues);
    for m in &t.markers {
        let got = s.table.markers.iter().find(|g| (g.x - m.x).hypot(g.y - m.y) < 3.0).unwrap_or_else(|| {
            panic!("{:?} cube at ({}, {}) not found: {:?}", m.colour, m.x, m.y, s.table.markers)
        });
        assert_eq!((got.kind, got.colour, &got.unit), (m.kind, m.colour, &m.unit), "{got:?}");
    }
    assert_eq!(s.table.markers.len(), t.markers.len(), "{:?}", s.table.markers);
}

/// Four lines of three bases, two a side, facing each other across the table.
fn four_lines() -> Table {
    let units = vec![
        infantry_line("fr-1", "fr", &[150.0, 180.0, 210.0], 150.0, 90.0),
        infantry_line("fr-2", "fr", &[380.0, 410.0, 440.0], 150.0, 90.0),
        infantry_line("au-1", "au", &[150.0, 180.0, 210.0], 300.0, 270.0),
        infantry_line("au-2", "au", &[380.0, 410.0, 440.0], 300.0, 270.0),
    ];
    let mut t = Table::new(RuleSet::Republique5, Scale::Medium, units);
    t.size = Some(TableSize { width: WIDTH, depth: DEPTH });
    t
}

/// Issue 36: a unit the scan does not find (its tags hidden under its figures, or torn
/// off) with cubes beside and behind it, another unit found 37 mm from one of them and
/// 57-67 mm from the others. The cubes stand next to their own unit, never next to the
/// one found: left unlinked, the issue naming the unit found nearest and the roster's
/// unit not found (on the second renderer's photos 4 such cubes were linked to the next
/// unit found, 40-55 mm away; before the change, these were linked to `au-1` and
/// `au-2`). A cube behind a unit found is still linked to it, and every cube is found,
/// none invented.
#[test]
fn cubes_of_a_unit_not_found_are_left_unlinked() {
    let dir = tempfile::tempdir().unwrap();
    let mut t = four_lines();
    // Between au-1 (its right flank at x = 225) and au-2 (its left flank at x = 365).
    t.units.push(infantry_line("au-3", "au", &[290.0, 320.0], 300.0, 270.0));
    // Its twin, its tags unprinted too, between fr-2 and au-2: a tagged unit none of
    // whose tags is read is fitted to its bases' edges unless a twin is also unfound
    // (the photo may give either the other's place), so au-3 stays not found.
    t.units.push(infantry_line("au-4", "au", &[480.0, 510.0], 225.0, 270.0));
    t.markers = vec![
        // Beside au-3's flank (x = 275), 13 mm off; au-1's flank is 37 mm off.
        Marker { unit: None, ..cube(MarkerColour::Red, 262.0, 300.0, "au-3") },
        // A pair behind au-3 (its rear edge at y = 310), 15 mm off.
        Marker { unit: None, ..cube(MarkerColour::Yellow, 300.0, 325.0, "au-3") },
        Marker { unit: None, ..cube(MarkerColour::Yellow, 309.6, 325.0, "au-3") },
        // Behind fr-2 (its rear edge at y = 140), 15 mm off.
        cube(MarkerColour::Red, 410.0, 125.0, "fr-2"),
    ];
    let layout =
        StandardLayout { fiducial_side_mm: 40.0, inset_mm: 40.0, ..Default::default() }.build(&t).unwrap();
    let roster = common::clutter::roster_of(&t, &layout);
    let mut shown = layout.clone();
    shown.tags.retain(|tag| tag.unit != "au-3" && tag.unit != "au-4");
    let scene = Scene::new(t.clone(), &shown).unwrap();
    let camera = Camera::looking_at(&LookAt {
        target_mm: Vec2::new(WIDTH / 2.0, DEPTH / 2.0),
        height_mm: 620.0,
        tilt_deg: 10.0,
        yaw_deg: 0.0,
        focal_mm: 4.5,
        sensor_width_mm: 6.17,
        resolution: Resolution::new(1600, 1200),
    })
    .unwrap();
    let options = RenderOptions { texel_mm: 0.5, ..RenderOptions::seeded(36) };
    render(&scene, &camera, &options).unwrap().write(dir.path(), "surface").unwrap();
    let truth = Truth::load(dir.path(), "surface");
    let photo = Photo::load(dir.path().join("surface.jpg")).unwrap();
    let s = scan(&photo, &profile(), Some(&roster), Some(&truth.intrinsics())).unwrap();
    for id in ["au-3", "au-4"] {
        assert!(!s.table.units.iter().any(|u| u.id == id && !u.bases.is_empty()), "{id} found");
    }
    for m in &t.markers {
        let got = s.table.markers.iter().find(|g| (g.x - m.x).hypot(g.y - m.y) < 3.0).unwrap_or_else(|| {
            panic!("{:?} cube at ({}, {}) not found: {:?}", m.colour, m.x, m.y, s.table.markers)
        });
        assert_eq!((got.kind, got.colour, &got.unit), (m.kind, m.colour, &m.unit), "{got:?}");
    }
    assert_eq!(s.table.markers.len(), t.markers.len(), "{:?}", s.table.markers);
    let said: Vec<String> = s
        .report
        .issues
        .iter()
        .filter_map(|i| match i {
            ScanIssue::MarkerUnitNotFound { nearest, units, .. } => {
                assert_eq!(units, &vec!["au-3".to_string(), "au-4".to_string()]);
                Some(nearest.clone())
            }
            _ => None,
        })
        .collect();
    assert_eq!(said.len(), 3, "{:?}", s.report.issues);
    assert!(said.contains(&"au-1".to_string()), "{said:?}");
}
