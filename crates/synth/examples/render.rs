//! Renders a synthetic photo of a table file: `NAME.jpg`, `NAME.table.json` and
//! `NAME.camera.json` in the output folder. See `crates/synth/README.md`.
//!
//! ```text
//! cargo run --release -p vedette-synth --example render -- \
//!     --table T.json --out DIR [--name NAME] [--layout L.json] [--seed 1] ...
//! ```

use clap::Parser;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;
use vedette_geometry::{Table, Vec2};
use vedette_synth::{
    Camera, Distortion, FigureSpacing, Layout, LookAt, MatColour, RenderOptions, Resolution, Scene,
    SensorOptions, StandardLayout, SynthError, render, render_empty,
};

/// Render a synthetic overhead photo of a table, with its ground truth.
#[derive(Debug, Parser)]
struct Args {
    /// The table file (`vedette/table/1`); it must give its size.
    #[arg(long)]
    table: PathBuf,
    /// Fiducials and tags (JSON layout file); default: the standard layout (four 60 mm
    /// DICT_4X4_250 fiducials, ids 0-3, 60 mm in from the corners; 12 mm tags from id 10).
    #[arg(long)]
    layout: Option<PathBuf>,
    /// Also write the layout used to this file.
    #[arg(long)]
    write_layout: Option<PathBuf>,
    /// Output folder.
    #[arg(long)]
    out: PathBuf,
    /// Base name of the files (default: the table file's name without `.json`).
    #[arg(long)]
    name: Option<String>,
    /// The seed of every random choice.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Camera height above the table, mm.
    #[arg(long, default_value_t = 1500.0)]
    height_mm: f64,
    /// Camera tilt from straight down, degrees (0..=60).
    #[arg(long, default_value_t = 0.0)]
    tilt_deg: f64,
    /// Direction of the image's right, degrees counter-clockwise from table +x.
    #[arg(long, default_value_t = 0.0)]
    yaw_deg: f64,
    /// Where the optical axis meets the table, x in mm (default: the table centre).
    #[arg(long)]
    target_x_mm: Option<f64>,
    /// Where the optical axis meets the table, y in mm (default: the table centre).
    #[arg(long)]
    target_y_mm: Option<f64>,
    /// Lens focal length, mm.
    #[arg(long, default_value_t = 4.5)]
    focal_mm: f64,
    /// Sensor width, mm (1/2.3" phone sensor: 6.17).
    #[arg(long, default_value_t = 6.17)]
    sensor_width_mm: f64,
    /// Image size: `WIDTHxHEIGHT` in px, or 8mp, 12mp, 16mp, 24mp.
    #[arg(long, default_value = "12mp", value_parser = parse_resolution)]
    resolution: Resolution,
    /// Radial distortion k1.
    #[arg(long, default_value_t = 0.0, allow_hyphen_values = true)]
    k1: f64,
    /// Radial distortion k2.
    #[arg(long, default_value_t = 0.0, allow_hyphen_values = true)]
    k2: f64,
    /// Tangential distortion p1.
    #[arg(long, default_value_t = 0.0, allow_hyphen_values = true)]
    p1: f64,
    /// Tangential distortion p2.
    #[arg(long, default_value_t = 0.0, allow_hyphen_values = true)]
    p2: f64,
    /// Radial distortion k3.
    #[arg(long, default_value_t = 0.0, allow_hyphen_values = true)]
    k3: f64,
    /// JPEG quality, 1..=100.
    #[arg(long, default_value_t = 90)]
    jpeg_quality: u8,
    /// Leave the figures off the bases.
    #[arg(long)]
    no_clutter: bool,
    /// Figures stand right against the tags' paper and overhang them from a tilted
    /// camera, each unit in one of four uniforms (issue 18's hard case).
    #[arg(long)]
    figures_against_tags: bool,
    /// Every tag at the rear of its base, its paper touching the rear edge (as players
    /// glue them so that the figures stand in front; issue 18's hard case). Only with
    /// the standard layout.
    #[arg(long)]
    tags_at_rear: bool,
    /// Keep base tags on these units only (comma-separated ids; an empty value: no tags
    /// at all): an army without tags, or a mixed roster whose tagged units anchor their
    /// untagged neighbours (issue 37). The fiducials stay.
    #[arg(long, value_delimiter = ',')]
    tags_only: Option<Vec<String>>,
    /// The mat's colour: green, brown or sand.
    #[arg(long, default_value = "green", value_parser = parse_mat)]
    mat: MatColour,
    /// Every k-th unit (by index, from the first) flocked in the mat's own colour; 0: none.
    #[arg(long, default_value_t = 0)]
    mat_flocked_every: usize,
    /// How far figures may reach past their base's edges, mm.
    #[arg(long, default_value_t = RenderOptions::default().overhang_mm)]
    overhang_mm: f64,
    /// Paint unit i (by index) in the i % k-th of vedette-synth's `UNIT_COATS`, so a
    /// roster can declare each unit's `coat`; 0: every unit in its side's uniform.
    #[arg(long, default_value_t = 0)]
    unit_coats: usize,
    /// Samples per pixel along each axis in the first pass (edges take 6x6).
    #[arg(long, default_value_t = 1)]
    supersampling: u32,
    /// Texel of the baked mat and terrain, mm (2-4 mm for quick small renders).
    #[arg(long, default_value_t = RenderOptions::default().texel_mm)]
    texel_mm: f64,
    /// Lens blur, px.
    #[arg(long, default_value_t = SensorOptions::default().blur_sigma_px)]
    blur_sigma_px: f64,
    /// Read noise, fraction of full scale.
    #[arg(long, default_value_t = SensorOptions::default().read_noise)]
    read_noise: f64,
    /// Write only `NAME-empty.jpg`: the photo of the same table emptied (no bases,
    /// figures, tags or cubes; the same mat, terrain, fiducials and light) from the same
    /// camera, its sensor's noise drawn anew: `vedette scan --background` (issue 37).
    #[arg(long)]
    empty_only: bool,
}

fn parse_resolution(text: &str) -> Result<Resolution, String> {
    match text.to_ascii_lowercase().as_str() {
        "8mp" => Ok(Resolution::MP8),
        "12mp" => Ok(Resolution::MP12),
        "16mp" => Ok(Resolution::MP16),
        "24mp" => Ok(Resolution::MP24),
        other => {
            let (w, h) = other.split_once('x').ok_or("expected WIDTHxHEIGHT or 8mp/12mp/16mp/24mp")?;
            let w = w.parse().map_err(|_| format!("bad width `{w}`"))?;
            let h = h.parse().map_err(|_| format!("bad height `{h}`"))?;
            Ok(Resolution::new(w, h))
        }
    }
}

fn parse_mat(text: &str) -> Result<MatColour, String> {
    match text.to_ascii_lowercase().as_str() {
        "green" => Ok(MatColour::Green),
        "brown" => Ok(MatColour::Brown),
        "sand" => Ok(MatColour::Sand),
        _ => Err(format!("unknown mat `{text}`: give green, brown or sand")),
    }
}

fn run(args: &Args) -> Result<(), Box<dyn std::error::Error>> {
    let table = Table::load(&args.table)?;
    let mut layout = match &args.layout {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|source| SynthError::Io { path: path.display().to_string(), source })?;
            Layout::from_json_str(&text, &path.display().to_string())?
        }
        None => {
            let mut layout = StandardLayout::default().build(&table)?;
            if args.tags_at_rear {
                for t in &mut layout.tags {
                    let depth = table
                        .units
                        .iter()
                        .find(|u| u.id == t.unit)
                        .and_then(|u| u.bases.get(t.base))
                        .map_or(0.0, |b| b.depth());
                    let quiet = t.quiet_zone_mm.unwrap_or(t.side_mm / 6.0);
                    t.offset_mm = Vec2::new(0.0, -(depth / 2.0 - t.side_mm / 2.0 - quiet));
                }
            }
            layout
        }
    };
    if let Some(keep) = &args.tags_only {
        if let Some(unknown) =
            keep.iter().find(|id| !id.is_empty() && !table.units.iter().any(|u| &u.id == *id))
        {
            return Err(format!("--tags-only: no unit `{unknown}` in {}", args.table.display()).into());
        }
        layout.tags.retain(|t| keep.contains(&t.unit));
    }
    if let Some(path) = &args.write_layout {
        std::fs::write(path, layout.to_json_string() + "\n")
            .map_err(|source| SynthError::Io { path: path.display().to_string(), source })?;
    }
    let scene = Scene::new(table, &layout)?;
    let size = scene.size();
    let camera = Camera::looking_at(&LookAt {
        target_mm: Vec2::new(
            args.target_x_mm.unwrap_or(size.width / 2.0),
            args.target_y_mm.unwrap_or(size.depth / 2.0),
        ),
        height_mm: args.height_mm,
        tilt_deg: args.tilt_deg,
        yaw_deg: args.yaw_deg,
        focal_mm: args.focal_mm,
        sensor_width_mm: args.sensor_width_mm,
        resolution: args.resolution,
    })?
    .with_distortion(Distortion { k1: args.k1, k2: args.k2, p1: args.p1, p2: args.p2, k3: args.k3 });
    let options = RenderOptions {
        seed: args.seed,
        supersampling: args.supersampling,
        clutter: !args.no_clutter,
        figure_spacing: if args.figures_against_tags {
            FigureSpacing::AgainstTags
        } else {
            FigureSpacing::ClearOfTags
        },
        texel_mm: args.texel_mm,
        sensor: SensorOptions {
            blur_sigma_px: args.blur_sigma_px,
            read_noise: args.read_noise,
            ..SensorOptions::default()
        },
        jpeg_quality: args.jpeg_quality,
        mat: args.mat,
        mat_flocked_every: args.mat_flocked_every,
        overhang_mm: args.overhang_mm,
        unit_coats: args.unit_coats,
        ..RenderOptions::default()
    };
    let name = args.name.clone().unwrap_or_else(|| {
        let stem = args.table.file_name().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        stem.trim_end_matches(".json").trim_end_matches(".table").to_string()
    });
    let started = Instant::now();
    if args.empty_only {
        let photo = render_empty(&scene, &camera, &options, args.seed.wrapping_add(1))?;
        let path = args.out.join(format!("{name}-empty.jpg"));
        std::fs::write(&path, photo.encode_jpeg()?)
            .map_err(|source| SynthError::Io { path: path.display().to_string(), source })?;
        let _ = writeln!(
            std::io::stdout().lock(),
            "rendered the empty table in {:.2} s\nwrote {}",
            started.elapsed().as_secs_f64(),
            path.display()
        );
        return Ok(());
    }
    let photo = render(&scene, &camera, &options)?;
    let seconds = started.elapsed().as_secs_f64();
    let files = photo.write(&args.out, &name)?;
    let truth = &photo.truth.camera;
    let hidden = |m: &vedette_synth::MarkerTruth| m.corners_visible.iter().any(|v| !v);
    let hidden_fiducials: Vec<u32> = truth.fiducials.iter().filter(|m| hidden(m)).map(|m| m.id).collect();
    let hidden_tags: Vec<u32> =
        truth.tags.iter().filter(|t| hidden(&t.marker)).map(|t| t.marker.id).collect();
    // A closed pipe (`| head`) is no reason to fail after the files are written.
    let mut out = std::io::stdout().lock();
    let _ = writeln!(
        out,
        "rendered {}x{} px in {seconds:.2} s: {} bases, {} tags, {} figures",
        args.resolution.width_px,
        args.resolution.height_px,
        scene.table().base_count(),
        truth.tags.len(),
        truth.figures
    );
    if !hidden_fiducials.is_empty() {
        let _ =
            writeln!(out, "warning: fiducials with a corner out of frame or hidden: {hidden_fiducials:?}");
    }
    if !hidden_tags.is_empty() {
        let _ = writeln!(out, "warning: tags with a corner out of frame or hidden: {hidden_tags:?}");
    }
    for path in [&files.image, &files.table, &files.camera] {
        let _ = writeln!(out, "wrote {}", path.display());
    }
    Ok(())
}

fn main() -> ExitCode {
    let args = Args::parse();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
