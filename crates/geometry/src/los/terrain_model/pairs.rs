//! Building a pair: what lies between one spotter base and one target base, sorted
//! into blockers (with their origin) and limits ([`Role`]).

use super::views::Candidates;
use super::{Beyond, BlockerOrigin, Feature, Limit, Pair, TerrainSight};
use crate::base::Base;
use crate::close_call::segment_to_base;
use crate::los::blind_zone::BlindZone;
use crate::los::sight_rules::{CoverVisibility, Eye, FieldOfView, HIGH_HILL_LEVEL, HillSight};
use crate::los::terrain_sight::{CoverDensity, SightEffect};
use crate::los::{UnitLevels, blocks_at_levels};
use crate::polygon::HalfPlane;
use crate::pro_patria::crest::CrestLine;
use crate::segment::Segment;
use crate::sight::{Blocker, SightHull};
use crate::table::{BaseRef, Formation, UnitKind};
use crate::ties::within;
use crate::vec2::Vec2;

impl<'i, 't> TerrainSight<'i, 't> {
    /// The shape of a base as a blocker.
    pub(super) fn base_blocker(&self, r: BaseRef) -> Option<&Blocker> {
        self.base_blockers.get(r.unit)?.get(r.base)
    }

    pub(super) fn pair(&self, spotter_ref: BaseRef, eye: &[Vec2], target_ref: BaseRef) -> Option<Pair<'_>> {
        self.pair_among(spotter_ref, eye, target_ref, None)
    }

    /// The pair, with the unit bases that may block, and the sight hull, taken from
    /// `candidates` (a view's, for the target's unit: [`SpotterView::candidates`])
    /// instead of the index.
    pub(super) fn pair_among(
        &self,
        spotter_ref: BaseRef,
        eye: &[Vec2],
        target_ref: BaseRef,
        candidates: Option<&Candidates>,
    ) -> Option<Pair<'_>> {
        let table = self.table;
        let spotter = table.base(spotter_ref)?;
        let target = table.base(target_ref)?;
        let tv = target.vertices_ccw();
        let (mut lo, mut hi) =
            (Vec2::new(f64::INFINITY, f64::INFINITY), Vec2::new(f64::NEG_INFINITY, f64::NEG_INFINITY));
        for p in eye.iter().chain(tv.iter()) {
            lo = Vec2::new(lo.x.min(p.x), lo.y.min(p.y));
            hi = Vec2::new(hi.x.max(p.x), hi.y.max(p.y));
        }
        let ls = self.level_of(spotter_ref);
        let lt = self.level_of(target_ref);
        let mut owned = Vec::new();
        let found;
        let list: &[BaseRef] = match candidates {
            Some(c) => &c.bases,
            None => {
                found = self.bases.in_box(lo, hi);
                &found
            }
        };
        // Bases outside the sight hull between eye and target block no sight line of the
        // pair.
        let built;
        let sight_hull = match candidates.and_then(|c| c.sight_hulls.get(target_ref.base)) {
            Some(c) => c.as_ref(),
            None => {
                built = SightHull::new(&[eye, &tv]);
                built.as_ref()
            }
        };
        for &r in list {
            if r == target_ref {
                continue;
            }
            // What the index gives for the box: bases whose boxes meet it (the blocker's
            // box, from the same corners, is as good a filter).
            let Some(bl) = self.base_blocker(r) else { continue };
            let (l, h) = bl.bbox();
            if candidates.is_some() && (l.x > hi.x || lo.x > h.x || l.y > hi.y || lo.y > h.y) {
                continue;
            }
            if let Some(c) = sight_hull
                && c.excludes(&bl.polygon().exterior)
            {
                continue;
            }
            let own = r.unit == spotter_ref.unit;
            let blocks = if own {
                self.rules.eye == Eye::FrontEdge
            } else {
                blocks_at_levels(
                    table,
                    spotter_ref.unit,
                    r.unit,
                    target_ref.unit,
                    UnitLevels { spotter: ls, blocker: self.level_of(r), target: lt },
                )
            };
            if blocks && let Some(b) = self.base_blocker(r) {
                owned.push((b, BlockerOrigin::Base(r)));
            }
        }
        let spotter_unit = &table.units[spotter_ref.unit];
        if spotter_unit.kind == UnitKind::Artillery {
            for (bl, a, b) in &self.screens {
                let (l, h) = bl.bbox();
                let side = &table.units[a.unit].side;
                if *side == spotter_unit.side && l.x <= hi.x && lo.x <= h.x && l.y <= hi.y && lo.y <= h.y {
                    owned.push((bl, BlockerOrigin::Screen(*a, *b)));
                }
            }
        }
        let mut opaque = Vec::new();
        let mut limits = Vec::new();
        for f in self.terrain.features().iter().filter(|f| f.bbox_overlaps(lo, hi)) {
            match self.role(f, spotter_ref, spotter, target_ref, target, ls, lt) {
                Role::Ignore => {}
                Role::Opaque => opaque.extend(f.blockers.iter().map(|b| (b, f.index))),
                Role::Crests(k) => {
                    opaque.extend(k.iter().flat_map(|&k| f.crests[k].1.iter()).map(|b| (b, f.index)));
                }
                Role::Limit(l) => limits.push((f, l)),
            }
        }
        let field = match self.rules.field_of_view {
            FieldOfView::Unlimited => None,
            FieldOfView::Ahead => {
                let e = spotter.front_edge();
                // Left of the edge run from right to left is ahead of it.
                Some(HalfPlane::left_of(e.b, e.a))
                    .map(|h| if h.side(spotter.centre()) > 0.0 { HalfPlane::left_of(e.a, e.b) } else { h })
            }
        };
        Some(Pair {
            eye: eye.to_vec(),
            spotter,
            target,
            spotter_shape: self.base_blocker(spotter_ref)?,
            target_shape: self.base_blocker(target_ref)?,
            owned,
            opaque,
            limits,
            field,
            max_mm: self.rules.max_visibility_mm,
            local: std::cell::OnceCell::new(),
        })
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn role(
        &self,
        f: &Feature,
        sr: BaseRef,
        s: &Base,
        tr: BaseRef,
        t: &Base,
        ls: f64,
        lt: f64,
    ) -> Role {
        let from_zone = |top: f64| match BlindZone::new(ls, top, lt) {
            BlindZone::None => Beyond::Clear,
            BlindZone::Infinite => Beyond::Blocks,
            z @ BlindZone::Multiple(m) => Beyond::Fraction { fraction: z.final_fraction(), multiple: m },
        };
        let beyond_role = |b: Beyond| match b {
            Beyond::Clear => Role::Ignore,
            Beyond::Blocks => Role::Opaque,
            Beyond::Fraction { fraction, multiple } => Role::Limit(Limit::Fraction { fraction, multiple }),
        };
        match f.props.effect {
            SightEffect::Open => Role::Ignore,
            SightEffect::Hill if matches!(self.rules.hills, HillSight::CrestLines { .. }) => {
                let HillSight::CrestLines { reach_mm } = self.rules.hills else { return Role::Ignore };
                let near = |unit: usize, line: &CrestLine| {
                    self.table.units.get(unit).is_some_and(|u| {
                        u.bases.iter().any(|b| {
                            line.segments().any(|seg| within(segment_to_base(&seg, b).distance_mm, reach_mm))
                        })
                    })
                };
                let blocking: Vec<usize> = f
                    .crests
                    .iter()
                    .enumerate()
                    .filter(|(_, (line, _))| {
                        !near(sr.unit, line) && (self.targets_behind_crests || !near(tr.unit, line))
                    })
                    .map(|(k, _)| k)
                    .collect();
                if blocking.is_empty() { Role::Ignore } else { Role::Crests(blocking) }
            }
            SightEffect::Hill => {
                if (f.level <= ls && f.overlaps_base(s)) || (f.level <= lt && f.overlaps_base(t)) {
                    return Role::Ignore;
                }
                beyond_role(from_zone(f.level))
            }
            SightEffect::Cover { spotting_depth } => {
                let top = f.level + f.props.height_levels;
                match self.rules.cover {
                    CoverVisibility::DepthIntoCover => {
                        let depth = self.rules.depth_mm(spotting_depth);
                        if f.linear {
                            let beyond = from_zone(top);
                            let far_from = |b: &Base| {
                                f.blockers.iter().all(|bl| band_distance_over(bl, b, depth) > depth)
                            };
                            match beyond {
                                // Every crossing is more than the depth from both bases:
                                // the line acts as its blind zone alone.
                                Beyond::Blocks if far_from(s) && far_from(t) => Role::Opaque,
                                Beyond::Clear => Role::Ignore,
                                _ => Role::Limit(Limit::Line { depth, beyond }),
                            }
                        } else if f.overlaps_base(s) || f.overlaps_base(t) {
                            Role::Limit(Limit::InCover(depth))
                        } else {
                            beyond_role(from_zone(top))
                        }
                    }
                    CoverVisibility::WithinDistance => {
                        let Some(density) = f.props.pro_patria else { return Role::Ignore };
                        let (in_s, in_t) = (f.overlaps_base(s), f.overlaps_base(t));
                        if in_s || in_t {
                            let limit = |r: BaseRef| {
                                let u = &self.table.units[r.unit];
                                if u.kind == UnitKind::Skirmisher
                                    || u.formation == Some(Formation::SkirmishOrder)
                                {
                                    self.rules.visible_in_cover_mm[2]
                                } else if density == CoverDensity::Heavy {
                                    self.rules.visible_in_cover_mm[0]
                                } else {
                                    self.rules.visible_in_cover_mm[1]
                                }
                            };
                            let mut l = f64::INFINITY;
                            if in_t {
                                l = l.min(limit(tr));
                            }
                            if in_s {
                                l = l.min(limit(sr));
                            }
                            Role::Limit(Limit::Within(l))
                        } else if ls >= HIGH_HILL_LEVEL && f.level == 0.0 {
                            Role::Limit(Limit::SeesPast(self.rules.high_hill_sees_past_mm))
                        } else {
                            Role::Opaque
                        }
                    }
                }
            }
        }
    }
}

/// What a terrain feature is to one pair ([`TerrainSight::role`]): nothing, a blocker,
/// or a limit on where the sight line may run.
pub(super) enum Role {
    /// It does not affect this pair.
    Ignore,
    /// It blocks outright.
    Opaque,
    /// These of its crest lines block outright (by index in its `crests`).
    Crests(Vec<usize>),
    /// It limits the sight line.
    Limit(Limit),
}

/// The distance from a line obstacle's band to a base, mm, where it is at most `limit`;
/// otherwise some distance above `limit` (the gap between the two bounding boxes, when
/// that already exceeds it).
pub(super) fn band_distance_over(band: &Blocker, b: &Base, limit: f64) -> f64 {
    let ((l0, h0), (l1, h1)) = (band.bbox(), b.aabb());
    let dx = (l0.x - h1.x).max(l1.x - h0.x).max(0.0);
    let dy = (l0.y - h1.y).max(l1.y - h0.y).max(0.0);
    let gap = (dx * dx + dy * dy).sqrt();
    if gap > limit {
        return gap;
    }
    let v: Vec<Vec2> = band.vertices().collect();
    let n = v.len();
    let mut best = f64::INFINITY;
    for i in 0..n {
        let s = Segment::new(v[i], v[(i + 1) % n]);
        for e in b.edges() {
            best = best.min(s.closest_points(&e).distance_mm);
        }
    }
    if v.iter().any(|&q| b.contains(q)) { 0.0 } else { best }
}
