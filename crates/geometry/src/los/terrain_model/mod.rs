//! The terrain-aware line-of-sight model: units, woods, buildings, obstacles, hills and
//! each rule set's own rules, behind the [`LineOfSight`](crate::LineOfSight) trait.
//!
//! # How a pair of bases is decided
//! For a spotter base (its eye: front edge or whole base, [`Eye`]) and a target base, the
//! model sorts what lies between them into
//! - **blockers**, fixed polygons that no sight line may cross: the bases of units that
//!   block this spotter ([`crate::blocks_at_levels`]), the spotter's own bases for a
//!   front-edge eye, the spaces between friendly skirmish markers for artillery, and
//!   terrain that hides everything behind it for this pair (a wood or hill at or above
//!   the spotter's level, 003 601; Pro Patria woods and towns);
//! - **limits**, rules that depend on where a sight line runs: a finite blind zone (the
//!   blocker must stay out of the last `m/(1+m)` of the line, see [`BlindZone`]), a
//!   spotting depth (the line may run at most that far inside the cover the spotter or
//!   target stands in, or past a linear obstacle), Pro Patria's visibility inside cover,
//!   its 200 mm past woods from a high hill, its maximum visibility and field of view.
//!
//! With blockers only, the verdict is **exact** ([`crate::sight`]). Limits only take
//! sight away, so the exact answer over blockers alone bounds the true one: "not
//! visible" there is final, and a clear segment found there that also passes every
//! limit is final. Otherwise the model **searches with a stated bound**
//! ([`Sampling`]): for each target point of a grid, every eye point is tried along the
//! exact critical directions (through every corner, and where a scaled eye edge meets a
//! blind-zone blocker) and along directions whose eye points are at most
//! `eye_step_mm` apart; where no blind zone limits the pair, a line to any point of the
//! target passes cut back to where it first meets the target, so the search for a sight
//! line runs over the part of the target's outline that faces the eye only. See [`Method::Sampled`] for what that
//! guarantees.
//!
//! # Shortcuts ([`Proof::Shortcuts`])
//! Before any search, exact proofs settle most pairs; each proves a target hidden (or a
//! corner of it hidden), or one base seen whole, only where the search would find the
//! same, so the verdicts are those of the search:
//! - a spotter prepared for many targets ([`TerrainSight::spotter`]) sweeps the table
//!   once from its eye ([`super::occlusion`]): most units are proved hidden behind
//!   nearer units, screens and woods at once, and most bases of the others that are
//!   not wholly seen, by a corner no eye point sees;
//! - a spotting depth that every sight line must exceed, from the outline of the cover
//!   alone, hides it ([`super::spotting_depth`]), as do, when they leave no line clear,
//!   the part of a convex piece of the cover beyond the depth from the eye or the
//!   target, the deep cores of the cover's convex parts (points more than half the depth
//!   inside a part and past both bases: every line through one runs deeper than the
//!   depth), and the pieces of a linear obstacle crossed too far from both bases;
//! - a base is seen whole, over the blockers, from an eye point (an end or the middle of
//!   the eye) when no blocker reaches the hull of that point and the base; the exact
//!   decomposition runs only where none is clear.
//!
//! Where the bounded search still runs, it skips only target points it would refute
//! anyway, so its answers do not change: points the blockers alone hide (the exact
//! search), points whose every line a spotting depth cuts (the bound for the part of
//! the target toward the eye), and cells of the target proved hidden from every half of
//! the eye (a spotting depth, or a chain of solid pieces). Proving a base fully
//! visible, it tries the same directions for each point, nearest the last clear one
//! first, leaving out (past the first few) those from the parts of the eye that a
//! spotting depth or a blocking base cuts off from the point: they would fail.

mod batch;
mod build;
mod explain;
mod full_base;
mod limits;
mod pairs;
mod prepared;
mod search;
mod sweep_cache;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_cuts;
mod views;

pub(crate) use self::build::ModelSpare;
pub use self::prepared::PreparedTerrain;
use self::sweep_cache::SweepCache;
use super::explanation::SightLine;
#[cfg(doc)]
use super::sight_rules::HillSight;
use super::sight_rules::SightRules;
use super::terrain_sight::SightProperties;
use crate::base::Base;
use crate::index::SpatialIndex;
use crate::polygon::HalfPlane;
use crate::pro_patria::crest::CrestLine;
use crate::segment::Segment;
use crate::sight::{Blocker, FullVisibility, LocalBlocker};
use crate::table::{BaseRef, Table};
use crate::terrain::TerrainKind;
use crate::vec2::Vec2;
use std::sync::{Arc, Mutex, OnceLock};

/// How many target points the bounded search tries before it proves cells of the target
/// hidden ([`TerrainSight::hidden_cells`]).
const SEARCH_BEFORE_CELLS: usize = 16;

/// How many eye points the full-base grid tries the whole base from before it goes on
/// point by point ([`TerrainSight::whole_base_passes_from`]).
const WHOLE_BASE_TRIES: usize = 3;

/// Where the whole base is not proved from an eye point, its cells are: the base cut
/// into this many strips each way ([`TerrainSight::region_passes_from`]).
const CELL_SPLIT: usize = 3;

/// How far (mm) a base must keep from a cover for a sight line to it to be taken as
/// leaving the cover before it meets the base.
const BASE_CLEAR_MM: f64 = 1e-6;

/// Slack on inclusive distance limits (spotting depth, visibility), mm: a target exactly
/// at the limit is seen.
const LIMIT_SLACK_MM: f64 = 1e-9;

/// How many consecutive pairs [`TerrainSight::unit_verdicts`] hands a core at a time.
const PAIRS_PER_RUN: usize = 32;

/// How far (mm) a candidate box is grown before the sight hulls judge it: far more than
/// the rounding between a base's box and its ring, far less than anything measured.
const CANDIDATE_SLACK_MM: f64 = 1e-6;

/// The most sample points along one side of a target (edge points, and grid rows and
/// columns), and the most uniform directions tried from one target point toward the
/// eye: past 256 the spacing grows with the base instead of the work (a base over 256 mm
/// is no miniature base; a table scaled by 1000 must not take hours).
const MAX_POINTS_PER_SIDE: f64 = 256.0;

/// How many pieces a length is sampled in, at most `step` apart but never more than
/// [`MAX_POINTS_PER_SIDE`].
fn pieces(length: f64, step: f64) -> usize {
    (length / step).ceil().clamp(1.0, MAX_POINTS_PER_SIDE) as usize
}

/// How the model proves its verdicts. Both give the same answers; the shortcuts are
/// exact proofs that settle most pairs without the search (see the module
/// documentation), and the exhaustive search is kept as their oracle in tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Proof {
    /// Exact shortcuts first: the occlusion sweep of each spotter's eye
    /// ([`TerrainSight::spotter`]), chains of solid blockers across the sight hull between
    /// eye and target, and the spotting-depth bounds; then the search.
    #[default]
    Shortcuts,
    /// The search alone: the exact clear-segment and full-visibility searches over the
    /// blockers, and the bounded search where limits decide.
    Exhaustive,
}

/// How finely the bounded search samples, when limits (not just blockers) decide.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sampling {
    /// Spacing of the grid of target points, mm (corners and edges included).
    pub target_step_mm: f64,
    /// Largest gap between eye points tried for one target point, mm.
    pub eye_step_mm: f64,
}

impl Default for Sampling {
    /// 1 mm target grid (no gap wider than 0.71 mm), 0.5 mm between eye points: under
    /// the 1/32" (0.8 mm) a tape measure reads.
    fn default() -> Self {
        Sampling { target_step_mm: 1.0, eye_step_mm: 0.5 }
    }
}

impl Sampling {
    /// The spacing the bounded search keeps at most on a target whose longest side is
    /// `target_mm` from an eye `eye_mm` across: as set, or coarser past
    /// [`MAX_POINTS_PER_SIDE`] points a side (the target's side over that many, and the
    /// uniform directions toward the eye: at most π times its width over that many,
    /// the arc they sweep at their farthest eye point).
    fn capped(&self, target_mm: f64, eye_mm: f64) -> Sampling {
        Sampling {
            target_step_mm: self.target_step_mm.max(target_mm / MAX_POINTS_PER_SIDE),
            eye_step_mm: self.eye_step_mm.max(std::f64::consts::PI * eye_mm / MAX_POINTS_PER_SIDE),
        }
    }
}

/// How a verdict was reached.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Method {
    /// Exactly (blockers only, or settled by the exact bounds).
    Exact,
    /// By the bounded search, with the spacing it kept at most (the steps as set, or
    /// coarser on a target or an eye of more than a few hundred millimetres, where 256
    /// points a side bound the work). "Visible" and "hidden point" answers carry a
    /// checked sight
    /// segment or witness and are right; a "not visible" answer can only be wrong if
    /// every clear sight segment loses clearness when its target end moves by
    /// `target_step_mm·√2/2` (where no blind zone limits the pair, only the target's
    /// outline facing the eye is searched, every clear segment having a clear part that
    /// ends on it: `target_step_mm/2` along the outline) or its eye end by `eye_step_mm/2`; a
    /// "fully visible" answer
    /// can only be wrong if the hidden part of the base holds no disc of radius
    /// `target_step_mm·√2/2`.
    Sampled(Sampling),
}

/// The verdict for one spotter base and one target base.
#[derive(Debug, Clone, PartialEq)]
pub struct BaseVerdict {
    /// Some point of the target base is seen.
    pub visible: bool,
    /// Every point of the target base is seen (from some point of the eye).
    pub full: FullVisibility,
    /// How it was decided.
    pub method: Method,
    /// A clear sight segment, when visible.
    pub sight: Option<Segment>,
}

/// The verdict for one spotter unit and one target unit.
#[derive(Debug, Clone, PartialEq)]
pub struct UnitVerdict {
    /// Some point of some target base is seen from some spotter base.
    pub visible: bool,
    /// The first target base (in unit order) that some single spotter base sees in full,
    /// with that spotter base.
    pub full_base: Option<(BaseRef, BaseRef)>,
    /// A clear sight line, when visible.
    pub sight: Option<SightLine>,
    /// Exact, or the bounded search (the loosest used).
    pub method: Method,
}

impl UnitVerdict {
    /// Nothing seen, exactly.
    fn unseen() -> Self {
        UnitVerdict { visible: false, full_base: None, sight: None, method: Method::Exact }
    }
}

/// A terrain feature as the sight model uses it.
#[derive(Debug, Clone)]
struct Feature {
    index: usize,
    kind: TerrainKind,
    level: f64,
    props: SightProperties,
    blockers: Vec<Blocker>,
    linear: bool,
    lo: Vec2,
    hi: Vec2,
    /// A hill's crest lines and their thin bands, under [`HillSight::CrestLines`]
    /// (empty otherwise).
    crests: Vec<(CrestLine, Vec<Blocker>)>,
}

impl Feature {
    fn bbox_overlaps(&self, lo: Vec2, hi: Vec2) -> bool {
        self.lo.x <= hi.x && lo.x <= self.hi.x && self.lo.y <= hi.y && lo.y <= self.hi.y
    }

    fn overlaps_base(&self, b: &Base) -> bool {
        let (lo, hi) = b.aabb();
        !self.linear
            && self.bbox_overlaps(lo, hi)
            && self.blockers.iter().any(|bl| bl.polygon().area_inside(&b.polygon()) > 0.0)
    }
}

/// What a feature does on one pair, beyond blocking outright.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Limit {
    /// Blind zone: the feature must stay out of this last fraction of the line.
    Fraction { fraction: f64, multiple: f64 },
    /// Spotting depth: at most this much of the line inside the cover.
    InCover(f64),
    /// Pro Patria: a line through the cover at most this long between the bases.
    Within(f64),
    /// Pro Patria high hill: at most this far from the cover's far edge to the target.
    SeesPast(f64),
    /// A linear obstacle: crossings within `depth` of either base are allowed; others
    /// follow `beyond`.
    Line { depth: f64, beyond: Beyond },
}

/// A linear obstacle crossed far from both bases.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Beyond {
    Clear,
    Blocks,
    Fraction { fraction: f64, multiple: f64 },
}

/// Where a blocker of a pair comes from, for the explanation: a unit's base, the screen
/// between two skirmish-marker bases, or a terrain feature (by table index). (Not a rule's
/// source: that is [`crate::rules::Source`].)
#[derive(Debug, Clone, Copy, PartialEq)]
enum BlockerOrigin {
    Base(BaseRef),
    Screen(BaseRef, BaseRef),
    Terrain(usize),
}

/// Everything that decides sight between one spotter base and one target base.
struct Pair<'m> {
    eye: Vec<Vec2>,
    spotter: &'m Base,
    target: &'m Base,
    spotter_shape: &'m Blocker,
    target_shape: &'m Blocker,
    /// Unit bases and screens that block, with where they come from.
    owned: Vec<(&'m Blocker, BlockerOrigin)>,
    /// Terrain that blocks outright for this pair.
    opaque: Vec<(&'m Blocker, usize)>,
    limits: Vec<(&'m Feature, Limit)>,
    field: Option<HalfPlane>,
    max_mm: Option<f64>,
    /// Per limit, its feature's blockers prepared for segments from the eye to the
    /// target (built on first use).
    local: std::cell::OnceCell<Vec<Vec<Option<LocalBlocker<'m>>>>>,
}

impl<'m> Pair<'m> {
    /// The spacing the bounded search keeps at most on this pair ([`Sampling::capped`]).
    fn sampling(&self, set: &Sampling) -> Sampling {
        let across =
            self.eye.iter().flat_map(|a| self.eye.iter().map(move |b| a.distance(*b))).fold(0.0, f64::max);
        set.capped(self.target.width().max(self.target.depth()), across)
    }

    /// The limits' blockers prepared for this pair's segments.
    fn local(&self) -> &[Vec<Option<LocalBlocker<'m>>>] {
        self.local.get_or_init(|| {
            let tv = self.target.vertices_ccw();
            self.limits
                .iter()
                .map(|(f, _)| f.blockers.iter().map(|b| LocalBlocker::new(b, &self.eye, &tv)).collect())
                .collect()
        })
    }

    /// The inside intervals of the segment from `e` (an eye point) to `t` in blocker `k`
    /// of limit `i`'s feature.
    fn limit_intervals(&self, i: usize, k: usize, e: Vec2, t: Vec2, ivs: &mut Vec<(f64, f64)>) {
        match self.local().get(i).and_then(|l| l.get(k)) {
            Some(Some(l)) => l.inside_intervals_into(e, t, ivs),
            _ => self.limits[i].0.blockers[k].inside_intervals_into(e, t, ivs),
        }
    }

    fn blockers(&self) -> Vec<&Blocker> {
        self.owned.iter().map(|(b, _)| *b).chain(self.opaque.iter().map(|(b, _)| *b)).collect()
    }

    fn origin(&self, i: usize) -> BlockerOrigin {
        if i < self.owned.len() {
            self.owned[i].1
        } else {
            BlockerOrigin::Terrain(self.opaque[i - self.owned.len()].1)
        }
    }

    fn has_limits(&self) -> bool {
        !self.limits.is_empty() || self.max_mm.is_some()
    }
}

/// The terrain-aware line-of-sight model of one table.
///
/// Build it once over a [`SpatialIndex`] and ask it about pairs of units or bases:
///
/// ```
/// use vedette_geometry::{LineOfSight, SpatialIndex, Table, BaseRef};
/// use vedette_geometry::los::TerrainSight;
/// use vedette_geometry::sight::FullVisibility;
/// let t = Table::from_json_str(r#"{"schema":"vedette/table/1","rules":"republique5","scale":"medium",
///   "units":[
///     {"id":"gun","side":"fr","kind":"artillery","bases":[{"x":0,"y":0,"heading":90,"width":25,"depth":40}]},
///     {"id":"foe","side":"au","kind":"infantry","formation":"line","bases":[{"x":0,"y":300,"heading":270,"width":30,"depth":20}]}],
///   "terrain":[{"id":"wood","kind":"heavy-forest","outline":[[-100,100],[100,100],[100,200],[-100,200]]}]}"#)?;
/// let index = SpatialIndex::new(&t);
/// let los = TerrainSight::try_new(&index)?;
/// // The wood stands between the gun and the foe: no sight at all.
/// assert!(!los.unit_verdict(0, 1).visible);
/// let e = t.units[0].bases[0].front_edge();
/// assert_ne!(los.full_base_visible(&t, 0, &[e.a, e.b], BaseRef::new(1, 0)), FullVisibility::Visible);
/// # Ok::<(), vedette_geometry::GeometryError>(())
/// ```
pub struct TerrainSight<'i, 't> {
    bases: Bases<'i, 't>,
    table: &'t Table,
    rules: SightRules,
    /// The terrain's part, shared by the models over tables with this terrain.
    terrain: Arc<PreparedTerrain>,
    levels: Vec<Vec<f64>>,
    screens: Vec<(Blocker, BaseRef, BaseRef)>,
    sampling: Sampling,
    proof: Proof,
    sweep_cache: OnceLock<SweepCache>,
    /// Every base's shape as a blocker, by unit and base.
    base_blockers: Vec<Vec<Blocker>>,
    /// Pro Patria: targets within a crest's reach are taken as declared behind it (004
    /// §15.1); by default, over it.
    targets_behind_crests: bool,
}

/// Where a model finds the bases whose boxes meet a box: the table's spatial index, or,
/// over the few dozen bases of a close call's step, a scan of every base (the same
/// bases, in the same order, without building an index for each step).
#[derive(Clone, Copy)]
enum Bases<'i, 't> {
    Indexed(&'i SpatialIndex<'t>),
    Scanned(&'t Table),
}

impl Bases<'_, '_> {
    /// Every base whose bounding box meets the box from `lo` to `hi`, sorted
    /// ([`SpatialIndex::bases_in_box`]).
    fn in_box(&self, lo: Vec2, hi: Vec2) -> Vec<BaseRef> {
        match self {
            Bases::Indexed(index) => index.bases_in_box(lo, hi),
            // The index's boxes are the bases' own, met as closed boxes.
            Bases::Scanned(table) => table
                .bases()
                .filter(|(_, b)| crate::convex::boxes_meet(b.aabb(), (lo, hi)))
                .map(|(r, _)| r)
                .collect(),
        }
    }

    /// Every base whose bounding box `keep` accepts, sorted ([`SpatialIndex::bases_where`]).
    fn where_box(&self, keep: impl Fn(Vec2, Vec2) -> bool) -> Vec<BaseRef> {
        match self {
            Bases::Indexed(index) => index.bases_where(keep),
            Bases::Scanned(table) => table
                .bases()
                .filter(|(_, b)| {
                    let (l, h) = b.aabb();
                    keep(l, h)
                })
                .map(|(r, _)| r)
                .collect(),
        }
    }
}

/// The lock, even if a thread panicked holding it (the crew raises that panic).
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}
