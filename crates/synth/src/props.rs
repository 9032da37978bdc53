//! The raised objects of a scene: bases as boxes, status marker cubes, and the clutter
//! of figures standing on the bases.
//!
//! Figures are small vertical prisms (bodies, heads, horses, guns). They may overhang
//! their base's edges a little and hide parts of those edges from a tilted camera, but
//! a figure is only placed where neither it nor anything it hides from the camera
//! touches a tag or a fiducial, or a margin of [`TAG_CLEAR_MM`] around its paper.
//! With [`FigureSpacing::AgainstTags`] (issue 18) figures crowd the tags instead: they
//! stand on a tag's quiet zone up to its black border and, from a tilted camera, hide
//! part of it; only the black square itself stays free of feet.

use crate::camera::Camera;
use crate::noise;
use crate::render::{RenderOptions, UNIT_COATS};
use crate::scene::{PrintedMarker, Scene};
use crate::shading::{Colour, UNIFORMS, marker_colour};
use crate::solids::{Footprint, Solid, SolidKind};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::HashMap;
use vedette_geometry::{Base, ConvexPolygon, MARKER_CUBE_MM, TerrainFeature, UnitKind, Vec2};

/// Clear margin kept visible around the paper of each tag and fiducial, mm.
pub const TAG_CLEAR_MM: f64 = 1.0;
/// How far a figure may reach past its base's edge by default, mm.
pub(crate) const DEFAULT_OVERHANG_MM: f64 = 1.5;

const SKIN: Colour = Colour::new(0.85, 0.64, 0.5);
const HAT: Colour = Colour::new(0.06, 0.06, 0.07);
const HORSES: [Colour; 4] = [
    Colour::new(0.36, 0.22, 0.12),
    Colour::new(0.1, 0.08, 0.07),
    Colour::new(0.55, 0.52, 0.5),
    Colour::new(0.5, 0.32, 0.16),
];
const BRONZE: Colour = Colour::new(0.5, 0.4, 0.2);
const WOOD: Colour = Colour::new(0.45, 0.3, 0.16);
const FLOCK: Colour = Colour::new(0.36, 0.38, 0.2);

/// How close figures may stand to the base tags.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FigureSpacing {
    /// Figures never touch a tag's paper or the margin [`TAG_CLEAR_MM`] around it, nor
    /// hide any of it from the camera; every side wears its own uniform.
    #[default]
    ClearOfTags,
    /// The hard case of real armies (issue 18): figures stand right against the tags'
    /// paper, and from a tilted camera their heads and hats overhang the quiet zone,
    /// touch the black border and hide part of the code. Each unit wears one of
    /// [`CROWD_UNIFORMS`] in turn (by unit index), so that every coat colour stands
    /// next to tags. The truth's `visible_fraction` says how much of each tag shows.
    /// Fiducials stay clear as before.
    AgainstTags,
}

/// The coats of [`FigureSpacing::AgainstTags`], by name: unit `i` wears
/// `CROWD_UNIFORMS[i % 4]`. White coats merge with a tag's paper, dark blue ones and
/// the hats with its black border.
pub const CROWD_UNIFORMS: [&str; 4] = ["white", "dark-blue", "grey", "red"];

/// The colours of [`CROWD_UNIFORMS`].
const CROWD_COATS: [Colour; 4] = [
    Colour::new(0.86, 0.85, 0.8),
    Colour::new(0.1, 0.12, 0.3),
    Colour::new(0.5, 0.5, 0.52),
    Colour::new(0.66, 0.1, 0.1),
];

/// The raised objects of a scene.
pub(crate) struct Props {
    /// Bases first (in table order), then cubes, then figure parts.
    pub solids: Vec<Solid>,
    /// How many figures stand on the bases.
    pub figures: usize,
    /// The name of each unit's uniform (by unit index) when uniforms are chosen per
    /// unit ([`FigureSpacing::AgainstTags`]); empty otherwise.
    pub uniforms: Vec<&'static str>,
}

/// The region a printed marker needs to stay visible: its paper plus a margin, at its
/// height.
struct KeepOut {
    centre: Vec2,
    square: [Vec2; 4],
    radius: f64,
    z_mm: f64,
    /// Only feet are kept out (a crowded tag's paper); what the figure hides
    /// from the camera is allowed.
    feet_only: bool,
}

impl KeepOut {
    fn new(tag: &PrintedMarker) -> KeepOut {
        KeepOut::sized(tag, tag.side_mm / 2.0 + tag.quiet_zone_mm + TAG_CLEAR_MM, false)
    }

    /// The paper alone (black square and quiet zone, no margin), kept free of feet.
    fn paper(tag: &PrintedMarker) -> KeepOut {
        KeepOut::sized(tag, tag.side_mm / 2.0 + tag.quiet_zone_mm, true)
    }

    fn sized(tag: &PrintedMarker, half: f64, feet_only: bool) -> KeepOut {
        let (r, u) = (tag.right(), tag.up);
        let square = [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
            .map(|(a, b)| tag.centre_mm + r * (a * half) + u * (b * half));
        KeepOut {
            centre: tag.centre_mm,
            square,
            radius: half * std::f64::consts::SQRT_2,
            z_mm: tag.z_mm,
            feet_only,
        }
    }
}

/// Builds the solids: bases, cubes and (when `clutter`) figures chosen so that every
/// fiducial and tag stays visible from `camera` (with [`FigureSpacing::AgainstTags`],
/// the base tags only keep their paper free of feet).
pub(crate) fn build(
    scene: &Scene,
    fiducials: &[PrintedMarker],
    tags: &[PrintedMarker],
    camera: &Camera,
    options: &RenderOptions,
) -> Props {
    let (clutter, spacing, seed) = (options.clutter, options.figure_spacing, options.seed);
    let mat = options.mat.colours().0;
    let table = scene.table();
    let h = scene.base_height_mm();
    let tag_of: HashMap<_, usize> = scene.tags().iter().enumerate().map(|(i, t)| (t.base, i)).collect();
    let mut solids = Vec::new();
    for (k, (r, base)) in table.bases().enumerate() {
        let like_mat = options.mat_flocked_every > 0 && r.unit % options.mat_flocked_every == 0;
        solids.push(Solid {
            footprint: base_footprint(base),
            z0_mm: 0.0,
            z1_mm: h,
            colour: if like_mat {
                mat.jittered(noise::hash2(seed, k as i64, 11), 0.03)
            } else {
                FLOCK.jittered(noise::hash2(seed, k as i64, 11), 0.12)
            },
            kind: SolidKind::Base { tag: tag_of.get(&r).copied() },
        });
    }
    for (k, m) in table.markers.iter().enumerate() {
        let side = m.size.unwrap_or(MARKER_CUBE_MM);
        let turn = 90.0 * noise::unit(noise::hash2(seed, k as i64, 12));
        solids.push(Solid {
            footprint: Footprint::Rect {
                centre: Vec2::new(m.x, m.y),
                axis_x: Vec2::from_heading_deg(turn),
                half_x: side / 2.0,
                half_y: side / 2.0,
            },
            z0_mm: 0.0,
            z1_mm: side,
            colour: marker_colour(m.colour),
            kind: SolidKind::Cube,
        });
    }
    if options.houses {
        let keep_outs: Vec<KeepOut> = fiducials.iter().chain(tags).map(KeepOut::new).collect();
        let eye = camera.pose.position_mm();
        let eye = [eye.x, eye.y, eye.z];
        for (t, f) in table.terrain.iter().enumerate().filter(|(_, f)| f.kind.is_buildings()) {
            for house in town_houses(f, t, seed) {
                if house.iter().all(|part| !hides_a_marker(part, &keep_outs, eye)) {
                    solids.extend(house);
                }
            }
        }
    }
    let mut figures = 0;
    let mut uniforms = Vec::new();
    if clutter {
        let crowded = spacing == FigureSpacing::AgainstTags;
        if crowded {
            uniforms = (0..table.units.len()).map(|i| CROWD_UNIFORMS[i % CROWD_UNIFORMS.len()]).collect();
        }
        let keep_outs: Vec<KeepOut> = fiducials
            .iter()
            .map(KeepOut::new)
            .chain(tags.iter().map(|m| if crowded { KeepOut::paper(m) } else { KeepOut::new(m) }))
            .collect();
        let mut sides: Vec<&str> = Vec::new();
        for u in &table.units {
            if !sides.contains(&u.side.as_str()) {
                sides.push(&u.side);
            }
        }
        let camera_centre = camera.pose.position_mm();
        let eye = [camera_centre.x, camera_centre.y, camera_centre.z];
        for (k, (r, base)) in table.bases().enumerate() {
            let Some(unit) = table.units.get(r.unit) else { continue };
            let side = sides.iter().position(|s| *s == unit.side).unwrap_or(0);
            let uniform = if crowded {
                CROWD_COATS[r.unit % CROWD_COATS.len()]
            } else if options.unit_coats > 0 {
                Colour::from_srgb(UNIT_COATS[r.unit % options.unit_coats.min(UNIT_COATS.len())])
            } else {
                UNIFORMS[side % UNIFORMS.len()]
            };
            let mut rng = ChaCha8Rng::seed_from_u64(noise::hash2(seed, k as i64, 13));
            for figure in arrange(unit.kind, base, h, uniform, options.overhang_mm, &mut rng) {
                if figure.iter().all(|part| !hides_a_marker(part, &keep_outs, eye)) {
                    solids.extend(figure);
                    figures += 1;
                }
            }
        }
    }
    Props { solids, figures, uniforms }
}

/// At most this many houses stand on one town.
pub(crate) const HOUSES_PER_TOWN: usize = 4;
/// A house's footprint, mm (a 15 mm scale farmhouse), and its walls' height.
const HOUSE_MM: (f64, f64, f64) = (32.0, 22.0, 13.0);
/// Houses stand this far and more inside their template's edge, and this far apart.
const HOUSE_CLEAR_MM: f64 = 10.0;
/// Whitewashed walls and a red tiled roof.
const HOUSE_WALLS: Colour = Colour::new(0.72, 0.7, 0.64);
const HOUSE_ROOF: Colour = Colour::new(0.6, 0.14, 0.08);

/// The houses of a town's template `f` (the table's terrain feature `t`): walls and
/// a roof in three steps narrowing to the ridge, each house turned its own way, at
/// the first places (every 5 mm, row by row) clear of the edge and of each other.
fn town_houses(f: &TerrainFeature, t: usize, seed: u64) -> Vec<Vec<Solid>> {
    let outline = &f.outline;
    if outline.len() < 3 {
        return Vec::new();
    }
    let poly = vedette_geometry::Polygon::new(outline.clone(), f.holes.clone());
    let (mut lo, mut hi) = (outline[0], outline[0]);
    for p in outline {
        lo = Vec2::new(lo.x.min(p.x), lo.y.min(p.y));
        hi = Vec2::new(hi.x.max(p.x), hi.y.max(p.y));
    }
    let (w, d, wall) = HOUSE_MM;
    let reach = w.hypot(d) / 2.0;
    let mut out: Vec<Vec<Solid>> = Vec::new();
    let mut centres: Vec<Vec2> = Vec::new();
    // Candidate places every 5 mm, taken in raster order where clear.
    let steps = |a: f64, b: f64| (0..).map(move |i| a + 5.0 * f64::from(i)).take_while(move |v| *v <= b);
    for y in steps(lo.y, hi.y) {
        for x in steps(lo.x, hi.x) {
            let centre = Vec2::new(x, y);
            if out.len() >= HOUSES_PER_TOWN
                || !poly.contains(centre)
                || centres.iter().any(|c| c.distance(centre) < 2.0 * reach + HOUSE_CLEAR_MM)
                || outline.iter().zip(outline.iter().cycle().skip(1)).any(|(a, b)| {
                    vedette_geometry::Segment::new(*a, *b).closest_point(centre).distance(centre)
                        < reach + HOUSE_CLEAR_MM
                })
            {
                continue;
            }
            let k = centres.len() as i64;
            centres.push(centre);
            let turn = 180.0 * noise::unit(noise::hash2(seed, 1000 * t as i64 + k, 14));
            let axis_x = Vec2::from_heading_deg(turn);
            let part = |half_y: f64, z0_mm: f64, z1_mm: f64, colour: Colour| Solid {
                footprint: Footprint::Rect { centre, axis_x, half_x: w / 2.0, half_y },
                z0_mm,
                z1_mm,
                colour,
                kind: SolidKind::House,
            };
            out.push(vec![
                part(d / 2.0, 0.0, wall, HOUSE_WALLS),
                part(d / 2.0 + 1.0, wall, wall + 3.0, HOUSE_ROOF),
                part(d / 3.0, wall + 3.0, wall + 6.0, HOUSE_ROOF),
                part(d / 6.0, wall + 6.0, wall + 9.0, HOUSE_ROOF),
            ]);
        }
    }
    out
}

fn base_footprint(base: &Base) -> Footprint {
    Footprint::Rect {
        centre: base.centre(),
        axis_x: base.right(),
        half_x: base.width() / 2.0,
        half_y: base.depth() / 2.0,
    }
}

/// True when the part, or what it hides from the camera at `eye`, touches a keep-out.
fn hides_a_marker(part: &Solid, keep_outs: &[KeepOut], eye: [f64; 3]) -> bool {
    let outline = part.footprint.outline();
    let (lo, hi) = part.footprint.bounds();
    let centre = (lo + hi) * 0.5;
    let reach = (hi - lo).length() / 2.0;
    keep_outs.iter().any(|k| {
        if k.feet_only {
            return part.z0_mm <= k.z_mm + 1e-9 && convex_overlap(&hull(outline.clone()), &k.square);
        }
        // What a part can hide lies within its height times the sight line's slope of
        // its footprint.
        let run = k.centre.distance(Vec2::new(eye[0], eye[1])) + reach + k.radius;
        let slope_reach = (part.z1_mm - k.z_mm).max(0.0) * run / (eye[2] - part.z1_mm).max(1.0);
        if centre.distance(k.centre) > reach + k.radius + slope_reach + 1.0 {
            return false;
        }
        let mut points = Vec::with_capacity(outline.len() * 2);
        for z in [part.z0_mm, part.z1_mm] {
            let rise = eye[2] - k.z_mm;
            let above = eye[2] - z;
            if above <= 1.0 {
                return true;
            }
            let s = rise / above;
            points.extend(
                outline.iter().map(|p| Vec2::new(eye[0] + (p.x - eye[0]) * s, eye[1] + (p.y - eye[1]) * s)),
            );
        }
        convex_overlap(&hull(points), &k.square)
    })
}

/// The convex hull of points, counter-clockwise (the geometry crate's monotone chain).
fn hull(points: Vec<Vec2>) -> Vec<Vec2> {
    ConvexPolygon::hull(&points).vertices().to_vec()
}

/// True when two convex polygons overlap (separating axis test; touching counts).
fn convex_overlap(a: &[Vec2], b: &[Vec2]) -> bool {
    let separated_by_edges_of = |p: &[Vec2], q: &[Vec2]| {
        (0..p.len()).any(|i| {
            let edge = p[(i + 1) % p.len()] - p[i];
            let axis = edge.perp_left();
            let (pmin, pmax) = project(p, axis);
            let (qmin, qmax) = project(q, axis);
            pmax < qmin || qmax < pmin
        })
    };
    !(a.is_empty() || b.is_empty() || separated_by_edges_of(a, b) || separated_by_edges_of(b, a))
}

fn project(points: &[Vec2], axis: Vec2) -> (f64, f64) {
    points.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), p| {
        let d = p.dot(axis);
        (lo.min(d), hi.max(d))
    })
}

/// Builds figures in a base's frame and places them on the table.
struct Placer<'a> {
    base: &'a Base,
    top_mm: f64,
}

impl Placer<'_> {
    fn at(&self, local: Vec2) -> Vec2 {
        self.base.to_table(local)
    }

    /// A figure on foot at `local`: body, head and hat; 13-17 mm tall.
    fn foot(&self, local: Vec2, coat: Colour, rng: &mut ChaCha8Rng) -> Vec<Solid> {
        let c = self.at(local);
        let body = rng.random_range(9.0..12.5);
        let r = rng.random_range(2.0..2.5);
        let z = self.top_mm;
        vec![
            cylinder(c, r, z, z + body, coat),
            cylinder(c, 1.2, z + body, z + body + 2.2, SKIN),
            cylinder(c, 1.35, z + body + 2.2, z + body + 3.6, HAT),
        ]
    }

    /// A rider on a horse facing the base front, centred at `local`; 21-24 mm tall.
    fn rider(&self, local: Vec2, coat: Colour, rng: &mut ChaCha8Rng) -> Vec<Solid> {
        let c = self.at(local);
        let z = self.top_mm;
        let horse_h = rng.random_range(9.0..10.5);
        let horse = HORSES[rng.random_range(0..HORSES.len())];
        let seat = self.at(local - Vec2::new(0.0, 1.5));
        vec![
            boxed(c, self.base.forward().perp_right(), 2.4, 7.5, z, z + horse_h, horse),
            cylinder(seat, 2.0, z + horse_h, z + horse_h + 7.0, coat),
            cylinder(seat, 1.15, z + horse_h + 7.0, z + horse_h + 9.0, SKIN),
            cylinder(seat, 1.3, z + horse_h + 9.0, z + horse_h + 10.5, HAT),
        ]
    }

    /// A gun pointing to the base front, its muzzle at the front edge.
    fn gun(&self, local: Vec2) -> Vec<Solid> {
        let right = self.base.right();
        let z = self.top_mm;
        let barrel = self.at(local);
        let axle = self.at(local - Vec2::new(0.0, 3.0));
        vec![
            boxed(barrel, right, 1.3, 5.0, z + 3.0, z + 5.5, BRONZE),
            boxed(axle, right, 3.0, 2.5, z, z + 3.0, WOOD),
            boxed(axle + right * 3.8, right, 0.6, 3.5, z, z + 7.0, WOOD),
            boxed(axle - right * 3.8, right, 0.6, 3.5, z, z + 7.0, WOOD),
        ]
    }

    /// A wagon body at `local`.
    fn wagon(&self, local: Vec2, rng: &mut ChaCha8Rng) -> Vec<Solid> {
        let h = rng.random_range(7.0..10.0);
        vec![boxed(self.at(local), self.base.right(), 4.5, 6.0, self.top_mm, self.top_mm + h, WOOD)]
    }
}

fn cylinder(centre: Vec2, radius: f64, z0_mm: f64, z1_mm: f64, colour: Colour) -> Solid {
    Solid { footprint: Footprint::Circle { centre, radius }, z0_mm, z1_mm, colour, kind: SolidKind::Figure }
}

fn boxed(
    centre: Vec2,
    axis_x: Vec2,
    half_x: f64,
    half_y: f64,
    z0_mm: f64,
    z1_mm: f64,
    colour: Colour,
) -> Solid {
    Solid {
        footprint: Footprint::Rect { centre, axis_x, half_x, half_y },
        z0_mm,
        z1_mm,
        colour,
        kind: SolidKind::Figure,
    }
}

/// Candidate figures for a base of a unit kind, each a list of parts, before the tag
/// checks. Edge figures overhang the base by up to `overhang_mm`.
fn arrange(
    kind: UnitKind,
    base: &Base,
    top_mm: f64,
    uniform: Colour,
    overhang_mm: f64,
    rng: &mut ChaCha8Rng,
) -> Vec<Vec<Solid>> {
    let place = Placer { base, top_mm };
    let (hw, hd) = (base.width() / 2.0, base.depth() / 2.0);
    let coat = |rng: &mut ChaCha8Rng| uniform.jittered(rng.random_range(0..u64::MAX), 0.06);
    let jitter = |rng: &mut ChaCha8Rng| Vec2::new(rng.random_range(-0.6..0.6), rng.random_range(-0.6..0.6));
    // Positions along a rank: spaced `pitch` apart, the outer ones past the edge by up
    // to the overhang.
    let rank = |pitch: f64, inset: f64| -> Vec<f64> {
        let span = 2.0 * (hw - inset);
        let n = (span / pitch).floor() as usize + 1;
        let first = -span / 2.0 + (span - (n - 1) as f64 * pitch) / 2.0;
        (0..n).map(|i| first + i as f64 * pitch).collect()
    };
    let edge = 2.2 - overhang_mm;
    let mut out = Vec::new();
    match kind {
        UnitKind::Infantry | UnitKind::Engineer => {
            // Files and ranks 5.5 mm apart over the whole base: those near the tag are
            // dropped by the tag checks.
            let ranks = ((2.0 * (hd - edge)) / 5.5).floor() as usize + 1;
            let first = -((ranks - 1) as f64) * 5.5 / 2.0;
            for y in (0..ranks).map(|k| first + k as f64 * 5.5) {
                for x in rank(5.5, edge) {
                    let c = coat(rng);
                    out.push(place.foot(Vec2::new(x, y) + jitter(rng), c, rng));
                }
            }
        }
        UnitKind::Skirmisher => {
            for _ in 0..rng.random_range(2..=4) {
                let p = Vec2::new(rng.random_range(-hw..hw), rng.random_range(-hd..hd));
                let c = coat(rng);
                out.push(place.foot(p, c, rng));
            }
        }
        UnitKind::Cavalry | UnitKind::Leader => {
            let pitch = if kind == UnitKind::Leader { 9.0 } else { 7.0 };
            for x in rank(pitch, 1.2) {
                let y = if hd > 11.0 { hd - 7.5 + overhang_mm } else { 0.0 };
                let c = coat(rng);
                out.push(place.rider(Vec2::new(x, y) + jitter(rng), c, rng));
            }
            if hd > 14.0 {
                for x in rank(9.0, 1.2) {
                    let c = coat(rng);
                    out.push(place.rider(Vec2::new(x, -hd + 7.5) + jitter(rng), c, rng));
                }
            }
        }
        UnitKind::Artillery => {
            out.push(place.gun(Vec2::new(rng.random_range(-2.0..2.0), hd - 5.0 + overhang_mm)));
            for x in rank(6.0, edge) {
                let c = coat(rng);
                out.push(place.foot(Vec2::new(x, -hd + edge + 1.0) + jitter(rng), c, rng));
            }
            for x in [-hw + edge, hw - edge] {
                let c = coat(rng);
                out.push(place.foot(Vec2::new(x, 0.0) + jitter(rng), c, rng));
            }
        }
        UnitKind::Limber | UnitKind::Wagon => {
            out.push(place.wagon(Vec2::new(0.0, -hd / 3.0), rng));
            let c = coat(rng);
            out.push(place.rider(Vec2::new(0.0, hd - 7.5 + overhang_mm), c, rng));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::camera::{LookAt, Resolution};
    use crate::scene::StandardLayout;
    use vedette_geometry::Table;

    /// Issue 36: houses stand inside a town's template, clear of its edge and of each
    /// other, at most four; a template too small for one carries none.
    #[test]
    fn houses_stand_inside_their_town() {
        let town = |pts: &[(f64, f64)]| TerrainFeature {
            crests: Vec::new(),
            id: None,
            kind: vedette_geometry::TerrainKind::MediumBuildings,
            level: 0.0,
            outline: pts.iter().map(|&(x, y)| Vec2::new(x, y)).collect(),
            holes: Vec::new(),
            path: Vec::new(),
        };
        let big = town(&[(100.0, 100.0), (260.0, 90.0), (275.0, 220.0), (110.0, 235.0)]);
        let houses = town_houses(&big, 0, 36);
        assert_eq!(houses.len(), HOUSES_PER_TOWN);
        let poly = vedette_geometry::Polygon::new(big.outline.clone(), Vec::new());
        for h in &houses {
            assert_eq!(h.len(), 4);
            assert!(h.iter().all(|s| s.kind == SolidKind::House));
            for s in h {
                assert!(s.footprint.outline().iter().all(|p| poly.contains(*p)), "{:?}", s.footprint);
            }
        }
        let small = town(&[(0.0, 0.0), (50.0, 0.0), (50.0, 40.0), (0.0, 40.0)]);
        assert!(town_houses(&small, 1, 36).is_empty());
    }

    #[test]
    fn hull_and_overlap() {
        let pts = vec![
            Vec2::new(0.0, 0.0),
            Vec2::new(2.0, 0.0),
            Vec2::new(1.0, 1.0),
            Vec2::new(2.0, 2.0),
            Vec2::new(0.0, 2.0),
        ];
        assert_eq!(hull(pts).len(), 4);
        let square = [Vec2::new(0.0, 0.0), Vec2::new(1.0, 0.0), Vec2::new(1.0, 1.0), Vec2::new(0.0, 1.0)];
        let near = [Vec2::new(0.5, 0.5), Vec2::new(2.0, 0.5), Vec2::new(2.0, 2.0)];
        let far = [Vec2::new(1.5, 0.0), Vec2::new(3.0, 0.0), Vec2::new(3.0, 1.0)];
        assert!(convex_overlap(&square, &near));
        assert!(!convex_overlap(&square, &far));
    }

    fn options(figure_spacing: FigureSpacing, seed: u64) -> RenderOptions {
        RenderOptions { figure_spacing, ..RenderOptions::seeded(seed) }
    }

    fn camera(tilt_deg: f64) -> Camera {
        Camera::looking_at(&LookAt {
            target_mm: Vec2::new(200.0, 150.0),
            height_mm: 900.0,
            tilt_deg,
            yaw_deg: 0.0,
            focal_mm: 4.3,
            sensor_width_mm: 6.2,
            resolution: Resolution::new(400, 300),
        })
        .unwrap()
    }

    /// Every figure kept leaves every tag and its margin visible: rays from the camera
    /// to a dense grid over each keep-out square meet no figure.
    #[test]
    fn figures_never_hide_a_tag() {
        let table = Table::from_json_str(
            r#"{"schema":"vedette/table/1","rules":"republique5","scale":"medium",
            "size":{"width":400,"depth":300},
            "units":[
             {"id":"i","side":"fr","kind":"infantry","formation":"line","bases":[
              {"x":120,"y":60,"heading":90,"width":30,"depth":20},
              {"x":150,"y":60,"heading":90,"width":30,"depth":20},
              {"x":120,"y":80,"heading":90,"width":30,"depth":20}]},
             {"id":"c","side":"gb","kind":"cavalry","formation":"line","bases":[
              {"x":250,"y":200,"heading":-90,"width":40,"depth":30},
              {"x":290,"y":200,"heading":-90,"width":40,"depth":30}]},
             {"id":"a","side":"gb","kind":"artillery","bases":[{"x":320,"y":100,"heading":200,"width":25,"depth":40}]}]}"#,
        )
        .unwrap();
        let layout = StandardLayout::default().build(&table).unwrap();
        let scene = Scene::new(table, &layout).unwrap();
        let tags = scene.printed_tags().unwrap();
        for tilt in [0.0, 30.0] {
            let cam = camera(tilt);
            let props = build(&scene, &[], &tags, &cam, &options(FigureSpacing::ClearOfTags, 5));
            let figures: Vec<&Solid> = props.solids.iter().filter(|s| s.kind == SolidKind::Figure).collect();
            assert!(props.figures >= 8, "tilt {tilt}: only {} figures", props.figures);
            for tag in &tags {
                let k = KeepOut::new(tag);
                for i in 0..=20 {
                    for j in 0..=20 {
                        let (a, b) = (i as f64 / 20.0, j as f64 / 20.0);
                        let p =
                            k.square[0] + (k.square[1] - k.square[0]) * a + (k.square[3] - k.square[0]) * b;
                        let target = nalgebra::Point3::new(p.x, p.y, k.z_mm);
                        let ray = crate::camera::Ray {
                            origin: cam.pose.position_mm(),
                            direction: (target.coords - cam.pose.position_mm()).normalize(),
                        };
                        let dist = (target.coords - cam.pose.position_mm()).norm();
                        for f in &figures {
                            if let Some(hit) = f.intersect(&ray) {
                                assert!(hit.t >= dist - 1e-6, "tilt {tilt}: tag {} hidden at {p:?}", tag.id);
                            }
                        }
                    }
                }
            }
        }
    }

    /// Issue 18: crowded figures stand right against the tags' paper (at least as many
    /// figures as when they keep clear), never on it; every unit wears a crowd uniform.
    #[test]
    fn crowded_figures_stand_against_the_paper_but_not_on_it() {
        let table = one_base_table();
        let mut layout = StandardLayout::default().build(&table).unwrap();
        // At the rear of the base: the front rank stands against the paper.
        layout.tags[0].offset_mm = Vec2::new(0.0, -2.0);
        let scene = Scene::new(table, &layout).unwrap();
        let tags = scene.printed_tags().unwrap();
        let cam = camera(25.0);
        let clear = build(&scene, &[], &tags, &cam, &options(FigureSpacing::ClearOfTags, 9));
        let crowded = build(&scene, &[], &tags, &cam, &options(FigureSpacing::AgainstTags, 9));
        assert!(crowded.figures >= clear.figures, "{} vs {}", crowded.figures, clear.figures);
        assert_eq!(crowded.uniforms, vec!["white"]);
        assert!(clear.uniforms.is_empty());
        let paper = KeepOut::paper(&tags[0]);
        let mut nearest = f64::INFINITY;
        for s in crowded.solids.iter().filter(|s| s.kind == SolidKind::Figure) {
            let outline = s.footprint.outline();
            assert!(!convex_overlap(&hull(outline.clone()), &paper.square), "a foot on the paper");
            for p in outline {
                let l = tags[0].centre_mm - p;
                let out = (l.dot(tags[0].right()).abs() - 8.0).max(l.dot(tags[0].up).abs() - 8.0);
                nearest = nearest.min(out);
            }
        }
        assert!(nearest < 0.5, "the nearest figure stands {nearest} mm off the paper");
    }

    #[test]
    fn figures_overhang_but_stay_near_their_base() {
        let table = one_base_table();
        let layout = StandardLayout::default().build(&table).unwrap();
        let scene = Scene::new(table, &layout).unwrap();
        let tags = scene.printed_tags().unwrap();
        let props = build(&scene, &[], &tags, &camera(0.0), &options(FigureSpacing::ClearOfTags, 9));
        let base = scene.table().units[0].bases[0];
        let mut overhangs = false;
        for s in props.solids.iter().filter(|s| s.kind == SolidKind::Figure) {
            for p in s.footprint.outline() {
                let l = base.to_local(p);
                let out = (l.x.abs() - 15.0).max(l.y.abs() - 10.0);
                assert!(out <= DEFAULT_OVERHANG_MM + 0.8, "{out}");
                overhangs |= out > 0.0;
            }
        }
        assert!(overhangs);
    }

    /// Issue 37: with `unit_coats`, unit 0 wears the first of [`UNIT_COATS`] (sRGB, as
    /// a painter declares it), decoded to linear light and jittered as every coat is; without one its
    /// figures wear the side's uniform.
    #[test]
    fn a_declared_coat_is_worn() {
        let table = one_base_table();
        let layout = StandardLayout::default().build(&table).unwrap();
        let scene = Scene::new(table, &layout).unwrap();
        let tags = scene.printed_tags().unwrap();
        let red = RenderOptions { unit_coats: 3, ..options(FigureSpacing::ClearOfTags, 9) };
        let coat = Colour::from_srgb(UNIT_COATS[0]);
        let by_hand = Colour::from_srgb([200, 30, 30]);
        assert!((by_hand.r - 0.578).abs() < 0.002 && (by_hand.g - 0.0130).abs() < 0.001, "{by_hand:?}");
        let near = |c: Colour, to: Colour| {
            [(c.r, to.r), (c.g, to.g), (c.b, to.b)].iter().all(|(a, b)| (a - b).abs() <= 0.061 * b)
        };
        for (opts, worn) in [(red, coat), (options(FigureSpacing::ClearOfTags, 9), UNIFORMS[0])] {
            let props = build(&scene, &[], &tags, &camera(0.0), &opts);
            let coats = props.solids.iter().filter(|s| s.kind == SolidKind::Figure && near(s.colour, worn));
            assert!(coats.count() >= 4, "{worn:?}");
        }
    }

    fn one_base_table() -> Table {
        Table::from_json_str(
            r#"{"schema":"vedette/table/1","rules":"republique5","scale":"medium","size":{"width":400,"depth":300},
            "units":[{"id":"i","side":"fr","kind":"infantry","formation":"line","bases":[
              {"x":200,"y":150,"heading":90,"width":30,"depth":20}]}]}"#,
        )
        .unwrap()
    }
}
