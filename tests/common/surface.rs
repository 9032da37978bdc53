//! Scores of what a scan reads besides the bases (issue 19), against a photo's true
//! table: terrain outlines (intersection over union and boundary distance per piece,
//! invented pieces), marker cubes (found, colour, unit) and the agreement of
//! line-of-sight verdicts between enemy units on the scanned and the true table.

use std::collections::BTreeMap;
use vedette_geometry::convex::segment_distance_mm;
use vedette_geometry::los::TerrainSight;
use vedette_geometry::{Base, Polygon, Segment, SpatialIndex, Table, TerrainFeature, TerrainKind, Vec2};

/// One true area piece and the scanned piece of its kind that overlaps it most.
#[derive(Debug, Clone)]
pub struct PieceScore {
    /// The true piece's kind and id.
    pub kind: TerrainKind,
    /// Its id in the true table.
    pub id: String,
    /// Intersection over union (0 when no scanned piece of its kind overlaps it).
    pub iou: f64,
    /// The same over the part of the table the photo shows: points where a figure
    /// stands between the table and the camera ([`figure_stands_on`]) left out.
    pub iou_seen: f64,
    /// Distances from each true boundary point (every 1 mm, away from bases) to the
    /// scanned boundary, and from each scanned boundary point to the true one, mm.
    pub boundary_mm: Vec<f64>,
}

/// The terrain scores of a scan.
#[derive(Debug, Clone, Default)]
pub struct TerrainScore {
    /// Per true area piece of a kind in `kinds`.
    pub pieces: Vec<PieceScore>,
    /// Areas of scanned pieces that overlap no true piece of their kind, mm².
    pub invented_mm2: Vec<f64>,
}

fn bbox(p: &[Vec2]) -> (Vec2, Vec2) {
    p.iter().fold(
        (Vec2::new(f64::INFINITY, f64::INFINITY), Vec2::new(f64::NEG_INFINITY, f64::NEG_INFINITY)),
        |(a, b), q| (Vec2::new(a.x.min(q.x), a.y.min(q.y)), Vec2::new(b.x.max(q.x), b.y.max(q.y))),
    )
}

/// Intersection over union of two polygons on a 1 mm grid.
pub fn iou(a: &Polygon, b: &Polygon) -> f64 {
    let (lo, hi) =
        bbox(&[bbox(&a.exterior).0, bbox(&a.exterior).1, bbox(&b.exterior).0, bbox(&b.exterior).1]);
    let (mut both, mut either) = (0usize, 0usize);
    let mut y = lo.y.floor() + 0.5;
    while y < hi.y {
        let mut x = lo.x.floor() + 0.5;
        while x < hi.x {
            let p = Vec2::new(x, y);
            let (u, v) = (a.contains(p), b.contains(p));
            both += usize::from(u && v);
            either += usize::from(u || v);
            x += 1.0;
        }
        y += 1.0;
    }
    both as f64 / either.max(1) as f64
}

fn rings(f: &TerrainFeature) -> Vec<&Vec<Vec2>> {
    std::iter::once(&f.outline).chain(f.holes.iter()).collect()
}

fn segments(f: &TerrainFeature) -> Vec<Segment> {
    rings(f)
        .into_iter()
        .flat_map(|r| (0..r.len()).map(move |i| Segment::new(r[i], r[(i + 1) % r.len()])))
        .collect()
}

/// Points every `step` mm along a feature's rings.
fn boundary_points(f: &TerrainFeature, step: f64) -> Vec<Vec2> {
    let mut out = Vec::new();
    for s in segments(f) {
        let n = (s.length() / step).ceil().max(1.0) as usize;
        out.extend((0..n).map(|i| s.a + (s.b - s.a) * (i as f64 / n as f64)));
    }
    out
}

fn distance_to(segs: &[Segment], p: Vec2) -> f64 {
    segs.iter().map(|s| s.closest_point(p).distance(p)).fold(f64::INFINITY, f64::min)
}

/// The renderer's painting order (vedette-synth's texture): hills, then the other
/// areas in table order; a later piece covers an earlier one where they overlap.
fn paints_over(truth: &Table, j: usize, i: usize) -> bool {
    let rank = |f: &TerrainFeature| u8::from(f.kind != TerrainKind::Hill);
    let (fi, g) = (&truth.terrain[i], &truth.terrain[j]);
    j != i && !g.kind.is_linear() && g.outline.len() >= 3 && (rank(g), j) > (rank(fi), i)
}

/// True when a piece painted after piece `i` covers `p`.
fn painted_over(truth: &Table, i: usize, p: Vec2) -> bool {
    (0..truth.terrain.len()).any(|j| paints_over(truth, j, i) && truth.terrain[j].polygon().contains(p))
}

/// How high the synthetic figures reach above the table, mm (vedette-synth's riders
/// stand up to 24 mm on 3 mm bases) ...
const FIGURE_TOP_MM: f64 = 27.0;
/// ... and how far past their bases' edges, mm (vedette-synth's props).
const FIGURE_OVERHANG_MM: f64 = 1.5;

/// True when a base or a figure on it stands between the camera at `camera_mm` (table
/// mm) and the table point `p`: the ray from `p` to the camera, up to the figures'
/// height, passes over a base (grown by the figures' overhang).
pub fn figure_stands_on(bases: &[&Base], camera_mm: [f64; 3], p: Vec2) -> bool {
    let c = Vec2::new(camera_mm[0], camera_mm[1]);
    let ray = Segment::new(p, p + (c - p) * (FIGURE_TOP_MM / camera_mm[2]));
    let reach = ray.length() + FIGURE_OVERHANG_MM;
    bases.iter().any(|b| {
        let r = reach + b.width().hypot(b.depth()) / 2.0;
        (b.centre() - p).length() <= r && segment_distance_mm(&ray, &b.vertices_ccw()) <= FIGURE_OVERHANG_MM
    })
}

/// Scores the scanned terrain against the true terrain, for the true area pieces of
/// `kinds` (the profile's area classes). A true piece is what the photo shows of it
/// (less the pieces painted over it): its boundary is its own outline where it shows
/// and the outlines of the pieces painted over it where they lie inside it. The
/// scanned side is every scanned piece of its kind that overlaps it. Boundary points
/// where a figure stands on the edge as the photo sees it (a base or its figures
/// between the point and the camera at `camera_mm`, [`figure_stands_on`]), or hidden
/// under another piece, are left out.
pub fn terrain_score(
    scanned: &Table,
    truth: &Table,
    kinds: &[TerrainKind],
    camera_mm: [f64; 3],
) -> TerrainScore {
    let bases: Vec<_> = truth.units.iter().flat_map(|u| u.bases.iter()).collect();
    let free = |p: &Vec2| !figure_stands_on(&bases, camera_mm, *p);
    let mut score = TerrainScore::default();
    let area = |f: &TerrainFeature| !f.kind.is_linear() && f.outline.len() >= 3;
    for (i, t) in truth.terrain.iter().enumerate().filter(|(_, f)| area(f) && kinds.contains(&f.kind)) {
        let tp = t.polygon();
        let shown = |p: Vec2| tp.contains(p) && !painted_over(truth, i, p);
        let (lo, hi) = bbox(&t.outline);
        let candidates: Vec<&TerrainFeature> = scanned
            .terrain
            .iter()
            .filter(|s| s.kind == t.kind && area(s))
            .filter(|s| {
                let (a, b) = bbox(&s.outline);
                a.x < hi.x && b.x > lo.x && a.y < hi.y && b.y > lo.y
            })
            .collect();
        let polys: Vec<Polygon> = candidates.iter().map(|s| s.polygon()).collect();
        let (mut glo, mut ghi) = (lo, hi);
        for s in &candidates {
            let (a, b) = bbox(&s.outline);
            glo = Vec2::new(glo.x.min(a.x), glo.y.min(a.y));
            ghi = Vec2::new(ghi.x.max(b.x), ghi.y.max(b.y));
        }
        let (mut both, mut either) = (0usize, 0usize);
        let (mut both_seen, mut either_seen) = (0usize, 0usize);
        // The bases that may hide a point of the box (their figures' reach included).
        let reach = 100.0;
        let near: Vec<&Base> = bases
            .iter()
            .copied()
            .filter(|b| {
                let c = b.centre();
                c.x > glo.x - reach && c.x < ghi.x + reach && c.y > glo.y - reach && c.y < ghi.y + reach
            })
            .collect();
        let mut y = glo.y.floor() + 0.5;
        while y < ghi.y {
            let mut x = glo.x.floor() + 0.5;
            while x < ghi.x {
                let p = Vec2::new(x, y);
                let (u, v) = (shown(p), polys.iter().any(|q| q.contains(p)));
                both += usize::from(u && v);
                either += usize::from(u || v);
                if (u || v) && !figure_stands_on(&near, camera_mm, p) {
                    both_seen += usize::from(u && v);
                    either_seen += 1;
                }
                x += 1.0;
            }
            y += 1.0;
        }
        let v = both as f64 / either.max(1) as f64;
        let v_seen = both_seen as f64 / either_seen.max(1) as f64;
        let ss: Vec<Segment> = candidates.iter().flat_map(|s| segments(s)).collect();
        // Where a piece painted over this one ends inside it, this one shows from there.
        let covering: Vec<usize> = (0..truth.terrain.len()).filter(|&j| paints_over(truth, j, i)).collect();
        let mut ts = segments(t);
        let mut shown_edge: Vec<Vec2> =
            boundary_points(t, 1.0).into_iter().filter(|p| !painted_over(truth, i, *p)).collect();
        for &j in &covering {
            let g = &truth.terrain[j];
            let inside: Vec<Vec2> = boundary_points(g, 1.0)
                .into_iter()
                .filter(|p| tp.contains(*p) && !painted_over(truth, j, *p))
                .collect();
            if !inside.is_empty() {
                ts.extend(segments(g));
                shown_edge.extend(inside);
            }
        }
        let mut boundary_mm: Vec<f64> =
            shown_edge.into_iter().filter(free).map(|p| distance_to(&ss, p)).collect();
        for s in &candidates {
            boundary_mm.extend(
                boundary_points(s, 1.0)
                    .into_iter()
                    .filter(free)
                    .filter(|p| !painted_over(truth, i, *p))
                    .map(|p| distance_to(&ts, p)),
            );
        }
        score.pieces.push(PieceScore {
            kind: t.kind,
            id: t.id.clone().unwrap_or_else(|| format!("terrain[{i}]")),
            iou: v,
            iou_seen: v_seen,
            boundary_mm,
        });
    }
    for s in scanned.terrain.iter().filter(|f| area(f)) {
        let sp = s.polygon();
        let overlaps = truth
            .terrain
            .iter()
            .filter(|t| t.kind == s.kind && area(t))
            .any(|t| iou(&sp, &t.polygon()) > 0.0);
        if !overlaps {
            score.invented_mm2.push(sp.area());
        }
    }
    score
}

/// Cube scores: how many true cubes were found (a scanned cube within `within_mm`),
/// how many of those have the right colour, and the right unit.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CubeScore {
    /// True cubes.
    pub truth: usize,
    /// Found.
    pub found: usize,
    /// Found with the right colour (a natural cube's kind, square, saved fire or
    /// P5, is not in its colour: the scan calls them all square markers).
    pub colour_right: usize,
    /// Found with the right unit (a cube the truth leaves without a unit must be left
    /// without one).
    pub unit_right: usize,
    /// Found and linked to a unit other than the truth's (a wrong link, worse than
    /// none: a person sets an unlinked cube's unit by hand, a wrong one goes unseen).
    pub unit_wrong: usize,
    /// Found, whose true unit has no base on the scanned table: no link can be right.
    pub unit_unfound: usize,
    /// Scanned cubes near no true cube.
    pub invented: usize,
}

impl CubeScore {
    /// Pools another score into this one.
    pub fn add(&mut self, o: &CubeScore) {
        self.truth += o.truth;
        self.found += o.found;
        self.colour_right += o.colour_right;
        self.unit_right += o.unit_right;
        self.unit_wrong += o.unit_wrong;
        self.unit_unfound += o.unit_unfound;
        self.invented += o.invented;
    }
}

/// Scores the scanned markers against the true ones.
pub fn cube_score(scanned: &Table, truth: &Table, within_mm: f64) -> CubeScore {
    let mut s = CubeScore { truth: truth.markers.len(), ..CubeScore::default() };
    let near = |a: &vedette_geometry::Marker, b: &vedette_geometry::Marker| {
        (a.x - b.x).hypot(a.y - b.y) <= within_mm
    };
    for t in &truth.markers {
        if let Some(g) = scanned
            .markers
            .iter()
            .filter(|g| near(g, t))
            .min_by(|a, b| (a.x - t.x).hypot(a.y - t.y).total_cmp(&(b.x - t.x).hypot(b.y - t.y)))
        {
            s.found += 1;
            s.colour_right += usize::from(g.colour == t.colour);
            s.unit_right += usize::from(g.unit == t.unit);
            s.unit_wrong += usize::from(g.unit.is_some() && g.unit != t.unit);
            let unfound = t
                .unit
                .as_ref()
                .is_some_and(|u| !scanned.units.iter().any(|su| &su.id == u && !su.bases.is_empty()));
            s.unit_unfound += usize::from(unfound);
            if g.unit != t.unit && std::env::var_os("VEDETTE_CUBE_DEBUG").is_some() {
                println!(
                    "cube unit: {:?} at ({:.1}, {:.1}) of {:?} linked to {:?}{}",
                    t.colour,
                    t.x,
                    t.y,
                    t.unit,
                    g.unit,
                    if unfound { " (its unit not found)" } else { "" }
                );
            }
        } else if std::env::var_os("VEDETTE_CUBE_DEBUG").is_some() {
            println!("cube missed: {:?} at ({:.1}, {:.1}) of {:?}", t.colour, t.x, t.y, t.unit);
        }
    }
    if std::env::var_os("VEDETTE_CUBE_DEBUG").is_some() {
        for g in scanned.markers.iter().filter(|g| !truth.markers.iter().any(|t| near(g, t))) {
            println!("cube invented: {:?} at ({:.1}, {:.1})", g.colour, g.x, g.y);
        }
    }
    s.invented = scanned.markers.iter().filter(|g| !truth.markers.iter().any(|t| near(g, t))).count();
    s
}

/// Line-of-sight agreement between enemy units.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SightScore {
    /// Enemy (spotter, target) pairs of units present in both tables.
    pub pairs: usize,
    /// Of which close calls: a base of either unit within the margin of a true terrain
    /// edge.
    pub close_calls: usize,
    /// Pairs, not close calls, whose verdict (visible, a full base visible) is the same.
    pub agree: usize,
    /// Close calls whose verdict is the same.
    pub close_agree: usize,
}

impl SightScore {
    /// Agreement among the pairs that are not close calls.
    pub fn rate(&self) -> f64 {
        self.agree as f64 / (self.pairs - self.close_calls).max(1) as f64
    }
}

/// Compares `vedette los` verdicts (visible; a full base visible) between every
/// ordered pair of enemy units on the scanned and the true table. A pair is a close
/// call when a base of either unit lies within `margin_mm` of a terrain edge of the
/// true table (the scan's uncertainty there decides it).
pub fn sight_score(scanned: &Table, truth: &Table, margin_mm: f64) -> SightScore {
    let index_of = |t: &Table| -> BTreeMap<String, usize> {
        t.units.iter().enumerate().map(|(i, u)| (u.id.clone(), i)).collect()
    };
    let (si, ti) = (index_of(scanned), index_of(truth));
    let mut pairs = Vec::new();
    for (a, ua) in truth.units.iter().enumerate() {
        for (b, ub) in truth.units.iter().enumerate() {
            if ua.side != ub.side && si.contains_key(&ua.id) && si.contains_key(&ub.id) {
                pairs.push((a, b));
            }
        }
    }
    let edges: Vec<Segment> = truth
        .terrain
        .iter()
        .flat_map(|f| {
            let mut s = if f.kind.is_linear() {
                f.path.windows(2).map(|w| Segment::new(w[0], w[1])).collect()
            } else {
                segments(f)
            };
            s.retain(|q| q.length() > 0.0);
            s
        })
        .collect();
    let near_edge: Vec<bool> = truth
        .units
        .iter()
        .map(|u| {
            u.bases.iter().any(|b| {
                edges.iter().any(|e| {
                    b.contains(e.a)
                        || b.edges().iter().any(|be| be.closest_points(e).distance_mm <= margin_mm)
                })
            })
        })
        .collect();
    let verdicts = |t: &Table, pairs: &[(usize, usize)]| -> Vec<(bool, bool)> {
        let index = SpatialIndex::new(t);
        let los = TerrainSight::try_new(&index).unwrap();
        los.unit_verdicts(pairs, 1).iter().map(|v| (v.visible, v.full_base.is_some())).collect()
    };
    let scanned_pairs: Vec<(usize, usize)> =
        pairs.iter().map(|&(a, b)| (si[&truth.units[a].id], si[&truth.units[b].id])).collect();
    let _ = ti;
    let (want, got) = (verdicts(truth, &pairs), verdicts(scanned, &scanned_pairs));
    let mut s = SightScore { pairs: pairs.len(), ..SightScore::default() };
    for (k, &(a, b)) in pairs.iter().enumerate() {
        let same = want[k] == got[k];
        if !same && std::env::var_os("VEDETTE_SIGHT_DEBUG").is_some() {
            let (ua, ub) = (&truth.units[a], &truth.units[b]);
            let (sa, sb) = (&scanned.units[si[&ua.id]], &scanned.units[si[&ub.id]]);
            eprintln!(
                "sight differs: {} ({}/{} bases) -> {} ({}/{} bases): true {:?}, scanned {:?}{}",
                ua.id,
                sa.bases.len(),
                ua.bases.len(),
                ub.id,
                sb.bases.len(),
                ub.bases.len(),
                want[k],
                got[k],
                if near_edge[a] || near_edge[b] { " (close call)" } else { "" }
            );
        }
        if near_edge[a] || near_edge[b] {
            s.close_calls += 1;
            s.close_agree += usize::from(same);
        } else {
            s.agree += usize::from(same);
        }
    }
    s
}

/// One true linear piece and the scanned polylines of its kind nearest it.
#[derive(Debug, Clone)]
pub struct LineScore {
    /// The true piece's kind.
    pub kind: TerrainKind,
    /// Its id in the true table.
    pub id: String,
    /// Scanned polylines of its kind lying nearer it than any other true piece of
    /// the kind (1 when it is found whole).
    pub fragments: usize,
    /// Distances from each true centre-line point (every 1 mm, away from bases) to the
    /// scanned polylines, and from each of theirs to the true line, mm.
    pub distance_mm: Vec<f64>,
    /// The share of the true line (away from bases) within 3 mm of a scanned polyline.
    pub recovered: f64,
}

/// The linear scores of a scan: per true linear piece of `kinds`, and the lengths of
/// scanned polylines (away from bases) lying farther than 10 mm from every true line
/// of their kind, mm.
#[derive(Debug, Clone, Default)]
pub struct LinesScore {
    /// Per true piece.
    pub pieces: Vec<LineScore>,
    /// Invented lengths, mm (one entry per scanned polyline with any).
    pub invented_mm: Vec<f64>,
}

fn path_segments(f: &TerrainFeature) -> Vec<Segment> {
    f.path.windows(2).map(|w| Segment::new(w[0], w[1])).filter(|s| s.length() > 0.0).collect()
}

fn path_points(f: &TerrainFeature, step: f64) -> Vec<Vec2> {
    let mut out: Vec<Vec2> = path_segments(f)
        .iter()
        .flat_map(|s| {
            let n = (s.length() / step).ceil().max(1.0) as usize;
            (0..n).map(move |i| s.a + (s.b - s.a) * (i as f64 / n as f64))
        })
        .collect();
    out.extend(f.path.last().copied());
    out
}

/// Scores the scanned linear pieces against the true ones of `kinds`; points within
/// `clear_mm` of a base of the true table are left out (a bridge under a base is
/// straight where the truth may bend).
pub fn line_score(scanned: &Table, truth: &Table, kinds: &[TerrainKind], clear_mm: f64) -> LinesScore {
    let bases: Vec<_> = truth.units.iter().flat_map(|u| u.bases.iter()).collect();
    let free = |p: &Vec2| bases.iter().all(|b| b.distance_to_point(*p) > clear_mm);
    let linear = |f: &TerrainFeature| f.kind.is_linear() && f.path.len() >= 2 && kinds.contains(&f.kind);
    let trues: Vec<(usize, &TerrainFeature)> =
        truth.terrain.iter().enumerate().filter(|(_, f)| linear(f)).collect();
    let mean_distance = |s: &TerrainFeature, t: &TerrainFeature| {
        let ts = path_segments(t);
        let pts = path_points(s, 1.0);
        pts.iter().map(|p| distance_to(&ts, *p)).sum::<f64>() / pts.len().max(1) as f64
    };
    let mut score = LinesScore::default();
    // Each scanned polyline belongs to the true piece of its kind it lies nearest.
    let owner: Vec<Option<usize>> = scanned
        .terrain
        .iter()
        .map(|s| {
            trues
                .iter()
                .filter(|(_, t)| linear(s) && t.kind == s.kind)
                .min_by(|a, b| mean_distance(s, a.1).total_cmp(&mean_distance(s, b.1)))
                .map(|(i, _)| *i)
        })
        .collect();
    for &(i, t) in &trues {
        let mine: Vec<&TerrainFeature> =
            scanned.terrain.iter().zip(&owner).filter(|(_, o)| **o == Some(i)).map(|(s, _)| s).collect();
        let ss: Vec<Segment> = mine.iter().flat_map(|s| path_segments(s)).collect();
        let ts = path_segments(t);
        let to_scanned: Vec<f64> =
            path_points(t, 1.0).into_iter().filter(free).map(|p| distance_to(&ss, p)).collect();
        let recovered =
            to_scanned.iter().filter(|d| **d <= 3.0).count() as f64 / to_scanned.len().max(1) as f64;
        let mut distance_mm = to_scanned;
        for s in &mine {
            distance_mm.extend(path_points(s, 1.0).into_iter().filter(free).map(|p| distance_to(&ts, p)));
        }
        score.pieces.push(LineScore {
            kind: t.kind,
            id: t.id.clone().unwrap_or_else(|| format!("terrain[{i}]")),
            fragments: mine.len(),
            distance_mm,
            recovered,
        });
    }
    for s in scanned.terrain.iter().filter(|f| linear(f)) {
        let ts: Vec<Segment> =
            trues.iter().filter(|(_, t)| t.kind == s.kind).flat_map(|(_, t)| path_segments(t)).collect();
        let far =
            path_points(s, 1.0).into_iter().filter(free).filter(|p| distance_to(&ts, *p) > 10.0).count();
        if far > 0 {
            score.invented_mm.push(far as f64);
        }
    }
    score
}

/// The profile of a `width` x `depth` mm test board as vedette-synth's `StandardLayout`
/// renders it (DICT_4X4_250 fiducials of 40 mm, 40 mm in from each corner; a little
/// vignetting; the renderer's mat as the bare table), with `extra` TOML after its
/// `[colours]` (terrain classes, tags); `name` is the file name its errors give.
pub fn board_profile(width: f64, depth: f64, extra: &str, name: &str) -> vedette_vision::Profile {
    let toml = format!(
        r#"
[table]
width_mm = {width}
depth_mm = {depth}
[fiducials]
dictionary = "DICT_4X4_250"
size_mm = 40.0
markers = [
  {{ id = 0, x_mm = 40.0, y_mm = 40.0 }}, {{ id = 1, x_mm = {x1}, y_mm = 40.0 }},
  {{ id = 2, x_mm = {x1}, y_mm = {y2} }}, {{ id = 3, x_mm = 40.0, y_mm = {y2} }},
]
[colours]
vignetting = 0.2
ground = [[77, 107, 48], [107, 115, 56]]
{extra}"#,
        x1 = width - 40.0,
        y2 = depth - 40.0
    );
    vedette_vision::Profile::from_toml_str(&toml, name).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// An infantry line of 30 x 20 mm bases centred at `xs` along `y`, facing `heading`.
pub fn infantry_line(id: &str, side: &str, xs: &[f64], y: f64, heading: f64) -> vedette_geometry::Unit {
    use vedette_geometry::{BaseSize, Formation, Pose, Unit, UnitKind};
    let bases = xs
        .iter()
        .map(|&x| Base::new(BaseSize::new(30.0, 20.0), Pose::new(Vec2::new(x, y), heading)))
        .collect();
    let mut u = Unit::new(id, side, UnitKind::Infantry, bases);
    u.formation = Some(Formation::Line);
    u
}
