//! Views from one spotter: the occlusion sweep run once for many targets, and the
//! candidate blockers and sight hulls of each target unit.

use super::{BaseVerdict, CANDIDATE_SLACK_MM, Method, TerrainSight, UnitVerdict};
use crate::los::explanation::SightLine;
use crate::los::occlusion::UnitSight;
use crate::sight::{FullVisibility, SightHull};
use crate::table::BaseRef;
use crate::vec2::Vec2;

impl<'i, 't> TerrainSight<'i, 't> {
    /// A spotter unit prepared for many questions (the views of all its bases): what a
    /// battery asks of every enemy unit.
    #[must_use]
    pub fn spotter(&self, unit: usize) -> UnitView<'_, 'i, 't> {
        let n = self.table.units.get(unit).map_or(0, |u| u.bases.len());
        UnitView { unit, views: (0..n).map(|b| SpotterView::new(self, BaseRef::new(unit, b))).collect() }
    }
}

/// One spotter unit prepared for many targets: a [`SpotterView`] per base.
pub struct UnitView<'m, 'i, 't> {
    pub(super) unit: usize,
    pub(super) views: Vec<SpotterView<'m, 'i, 't>>,
}

impl UnitView<'_, '_, '_> {
    /// True when no search is needed, the target being unseen: an unknown target, the
    /// spotter's own unit, or a target the sweep hid from every base's eye.
    pub(super) fn settled_at_once(&self, target: usize) -> bool {
        let Some(view0) = self.views.first() else { return false };
        view0.sight.table.units.get(target).is_none()
            || target == self.unit
            || self.views.iter().all(|v| v.occlusion.get(target) == Some(&UnitSight::Hidden))
    }

    /// The verdict for a target unit (as [`TerrainSight::unit_verdict`]).
    #[must_use]
    pub fn unit_verdict(&self, target: usize) -> UnitVerdict {
        if self.settled_at_once(target) {
            return UnitVerdict::unseen();
        }
        let mut out = UnitVerdict::unseen();
        let Some(view0) = self.views.first() else { return out };
        let Some(tu) = view0.sight.table.units.get(target) else { return out };
        // Per view, the bases that may block it from some base of the target (found once
        // for the whole unit, not per base).
        let mut candidates: Vec<Option<Candidates>> = (0..self.views.len()).map(|_| None).collect();
        for ti in 0..tu.bases.len() {
            let tr = BaseRef::new(target, ti);
            for (k, v) in self.views.iter().enumerate() {
                if v.hidden_base(tr) {
                    continue;
                }
                // A base the sweep proved not wholly seen is asked only for a sight line.
                let whole_possible = !v.not_wholly_seen(tr);
                if out.visible && !whole_possible {
                    continue;
                }
                let cands = candidates[k].get_or_insert_with(|| v.candidates(target, tu));
                if out.visible {
                    // Only a full base is still sought: no need to search for a sight line.
                    let Some((full, method)) = v.full_verdict(tr, cands) else { continue };
                    if method != Method::Exact {
                        out.method = method;
                    }
                    if full == FullVisibility::Visible {
                        out.full_base = Some((v.base, tr));
                        return out;
                    }
                    continue;
                }
                let want_full = out.full_base.is_none() && whole_possible;
                let Some(verdict) = v.base_verdict(tr, want_full, cands) else { continue };
                if verdict.method != Method::Exact {
                    out.method = verdict.method;
                }
                if verdict.visible && out.sight.is_none() {
                    out.visible = true;
                    out.sight =
                        verdict.sight.map(|segment| SightLine { segment, from_base: v.base, to_base: tr });
                }
                if verdict.full == FullVisibility::Visible && out.full_base.is_none() {
                    out.full_base = Some((v.base, tr));
                    return out;
                }
            }
        }
        out
    }
}

/// What a view finds once for all the bases of one target unit
/// ([`SpotterView::candidates`]).
pub(super) struct Candidates {
    /// The bases that may block a pair (sorted).
    pub(super) bases: Vec<BaseRef>,
    /// Per base of the target unit, the sight hull between the eye and it.
    pub(super) sight_hulls: Vec<Option<SightHull>>,
    /// Per base of the target unit, whether `bases` holds its blockers: not for a base
    /// the sweep hid from this eye (never asked about).
    pub(super) covered: Vec<bool>,
}

impl Candidates {
    /// These candidates, when they hold the blockers for the target's base `b`.
    pub(super) fn for_base(&self, b: usize) -> Option<&Candidates> {
        self.covered.get(b).copied().unwrap_or(false).then_some(self)
    }
}

/// One spotter base prepared for many targets: what the occlusion sweep
/// ([`crate::los::occlusion`]) proved its eye cannot see, so that most targets are settled
/// without a search.
pub struct SpotterView<'m, 'i, 't> {
    pub(super) sight: &'m TerrainSight<'i, 't>,
    pub(super) base: BaseRef,
    pub(super) eye: Vec<Vec2>,
    /// Per unit, what the occlusion sweep proved hidden from this eye.
    pub(super) occlusion: Vec<UnitSight>,
}

impl<'m, 'i, 't> SpotterView<'m, 'i, 't> {
    /// The view from one spotter base (seeing from its rule set's eye).
    #[must_use]
    pub fn new(sight: &'m TerrainSight<'i, 't>, base: BaseRef) -> Self {
        let table = sight.table;
        let eye = table.base(base).map(|b| sight.eye_of(b)).unwrap_or_default();
        let occlusion = sight.occlusion(base, &eye);
        SpotterView { sight, base, eye, occlusion }
    }

    /// The bases [`TerrainSight::pair_among`] may keep as blockers between this eye and
    /// some base of the target unit (`unit`) that the sweep did not hide from it (the
    /// others are never asked about), sorted: those whose boxes meet the box of the eye
    /// and that base, and which the two longest edges of the sight hull of the two (its
    /// sides) do not exclude. A superset: a box
    /// (grown by [`CANDIDATE_SLACK_MM`], as the index's boxes and the bases' rings are
    /// computed apart) is dropped only when every pair would drop what lies in it.
    pub(super) fn candidates(&self, unit: usize, target: &crate::table::Unit) -> Candidates {
        let mut sight_hulls = Vec::with_capacity(target.bases.len());
        let regions: Vec<((Vec2, Vec2), Option<SightHull>)> = target
            .bases
            .iter()
            .enumerate()
            .filter_map(|(i, b)| {
                // A base the sweep hid is never asked about.
                if self.hidden_base(BaseRef::new(unit, i)) {
                    sight_hulls.push(None);
                    return None;
                }
                let tv = b.vertices_ccw();
                let (mut lo, mut hi) = (
                    Vec2::new(f64::INFINITY, f64::INFINITY),
                    Vec2::new(f64::NEG_INFINITY, f64::NEG_INFINITY),
                );
                for p in self.eye.iter().chain(tv.iter()) {
                    lo = Vec2::new(lo.x.min(p.x), lo.y.min(p.y));
                    hi = Vec2::new(hi.x.max(p.x), hi.y.max(p.y));
                }
                let sight_hull = SightHull::new(&[&self.eye, &tv]);
                let sides = sight_hull.as_ref().map(|c| c.longest_edges(2));
                sight_hulls.push(sight_hull);
                Some(((lo, hi), sides))
            })
            .collect();
        let (all_lo, all_hi) = regions.iter().fold(
            (Vec2::new(f64::INFINITY, f64::INFINITY), Vec2::new(f64::NEG_INFINITY, f64::NEG_INFINITY)),
            |(l, h), ((lo, hi), _)| {
                (Vec2::new(l.x.min(lo.x), l.y.min(lo.y)), Vec2::new(h.x.max(hi.x), h.y.max(hi.y)))
            },
        );
        let bases = self.sight.bases.where_box(|l, h| {
            let s = Vec2::new(CANDIDATE_SLACK_MM, CANDIDATE_SLACK_MM);
            let (l, h) = (l - s, h + s);
            if l.x > all_hi.x || all_lo.x > h.x || l.y > all_hi.y || all_lo.y > h.y {
                return false;
            }
            let corners = [l, Vec2::new(h.x, l.y), h, Vec2::new(l.x, h.y)];
            regions.iter().any(|((lo, hi), c)| {
                l.x <= hi.x
                    && lo.x <= h.x
                    && l.y <= hi.y
                    && lo.y <= h.y
                    && c.as_ref().is_none_or(|c| !c.excludes(&corners))
            })
        });
        let covered = (0..target.bases.len()).map(|i| !self.hidden_base(BaseRef::new(unit, i))).collect();
        Candidates { bases, sight_hulls, covered }
    }

    /// True when the occlusion sweep proved the whole base hidden from this eye.
    pub(super) fn hidden_base(&self, r: BaseRef) -> bool {
        match self.occlusion.get(r.unit) {
            Some(UnitSight::Hidden) => true,
            Some(UnitSight::Partly { hidden, .. }) => r.base < 64 && hidden & (1 << r.base) != 0,
            _ => false,
        }
    }

    /// True when the occlusion sweep proved some point of the base hidden from this eye:
    /// the base is not wholly seen (hidden bases included).
    pub(super) fn not_wholly_seen(&self, r: BaseRef) -> bool {
        match self.occlusion.get(r.unit) {
            Some(UnitSight::Hidden) => true,
            Some(UnitSight::Partly { hidden, not_whole }) => {
                r.base < 64 && (hidden | not_whole) & (1 << r.base) != 0
            }
            _ => false,
        }
    }

    /// Whether the whole target base is seen ([`TerrainSight::decide_full`]), with how
    /// that was decided.
    pub(super) fn full_verdict(
        &self,
        target: BaseRef,
        candidates: &Candidates,
    ) -> Option<(FullVisibility, Method)> {
        // No chain test first: asked of the further bases of a unit already seen, most
        // of which are seen too, it costs more than the hidden corner it would spare
        // finding (a base a chain hides has every corner hidden).
        let p = self.sight.pair_among(self.base, &self.eye, target, candidates.for_base(target.base))?;
        Some(self.sight.decide_full(&p))
    }

    /// The verdict for one target base.
    pub(super) fn base_verdict(
        &self,
        target: BaseRef,
        want_full: bool,
        candidates: &Candidates,
    ) -> Option<BaseVerdict> {
        // No chain or fan test first: on the grand battle they cost more than the
        // search they spared (BENCHMARKS.md); the sweep settles most hidden bases, and
        // the exact clear-segment search proves the others.
        let p = self.sight.pair_among(self.base, &self.eye, target, candidates.for_base(target.base))?;
        Some(self.sight.decide(&p, want_full))
    }
}
