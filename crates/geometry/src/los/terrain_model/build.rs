//! Building the model: screens, levels and base shapes from the table over its prepared
//! terrain ([`PreparedTerrain`]), and the builder-style settings and accessors of [`TerrainSight`].

use super::{Bases, PreparedTerrain, Proof, Sampling, TerrainSight};
use crate::base::Base;
use crate::convex::hull_points;
use crate::error::GeometryError;
use crate::index::SpatialIndex;
use crate::los::hills::Ground;
use crate::los::sight_rules::{Eye, SightRules};
use crate::sight::Blocker;
use crate::table::{BaseRef, Selection, Table, UnitKind};
use crate::vec2::Vec2;
use std::sync::{Arc, OnceLock};

impl<'i, 't> TerrainSight<'i, 't> {
    /// The model of the indexed table, with its rule set's sight rules
    /// ([`SightRules::for_book`]) and the default [`Sampling`].
    pub fn try_new(index: &'i SpatialIndex<'t>) -> Result<Self, GeometryError> {
        let table = index.table();
        let rules = SightRules::for_book(&table.rule_book()?)?;
        Ok(Self::with_rules(index, rules))
    }

    /// The model with explicit sight rules (a club's variant, or a test).
    #[must_use]
    pub fn with_rules(index: &'i SpatialIndex<'t>, rules: SightRules) -> Self {
        let terrain = Arc::new(PreparedTerrain::with_rules(index.table(), rules));
        Self::over(index, terrain)
    }

    /// The model of the indexed table over terrain prepared once ([`PreparedTerrain`]),
    /// with the rules it was prepared under: only the bases' part (their levels and
    /// shapes, the screens between skirmish markers) is built, so a close call's
    /// perturbed copies of a table share one terrain. Its verdicts are those of
    /// [`Self::with_rules`] with the same rules.
    ///
    /// # Errors
    /// [`GeometryError::TerrainMismatch`] when the indexed table's terrain is not the
    /// prepared one.
    pub fn with_terrain(
        index: &'i SpatialIndex<'t>,
        terrain: &Arc<PreparedTerrain>,
    ) -> Result<Self, GeometryError> {
        terrain.check(index.table())?;
        Ok(Self::over(index, Arc::clone(terrain)))
    }

    /// [`Self::with_terrain`] over a table of a few dozen bases (a close call's step),
    /// without an index: the model finds the bases near a pair by scanning them all (the
    /// same bases, in the same order, so the same verdicts), and refills the allocations
    /// that the model of the last step left (`spare`, from [`Self::into_spare`]).
    ///
    /// # Errors
    /// [`GeometryError::TerrainMismatch`] when the table's terrain is not the prepared
    /// one.
    pub(crate) fn scanning(
        table: &'t Table,
        terrain: &Arc<PreparedTerrain>,
        spare: ModelSpare,
    ) -> Result<Self, GeometryError> {
        terrain.check(table)?;
        Ok(Self::built(Bases::Scanned(table), table, Arc::clone(terrain), spare))
    }

    /// The allocations of this model's bases' part, for the next model over a like table
    /// ([`Self::scanning`]).
    pub(crate) fn into_spare(self) -> ModelSpare {
        ModelSpare { levels: self.levels, base_blockers: self.base_blockers }
    }

    /// The model over a terrain known to be the indexed table's.
    fn over(index: &'i SpatialIndex<'t>, terrain: Arc<PreparedTerrain>) -> Self {
        Self::built(Bases::Indexed(index), index.table(), terrain, ModelSpare::default())
    }

    /// The model of `table` (whose bases `bases` finds) over a terrain known to be its
    /// own, its levels and base shapes written into `spare`'s lists.
    fn built(
        bases: Bases<'i, 't>,
        table: &'t Table,
        terrain: Arc<PreparedTerrain>,
        spare: ModelSpare,
    ) -> Self {
        let ground = terrain.ground();
        let ModelSpare { mut levels, mut base_blockers } = spare;
        let n = table.units.len();
        levels.truncate(n);
        levels.resize_with(n, Vec::new);
        base_blockers.truncate(n);
        base_blockers.resize_with(n, Vec::new);
        for ((u, level), blockers) in table.units.iter().zip(&mut levels).zip(&mut base_blockers) {
            level.clear();
            level.extend(u.bases.iter().map(|b| ground.base_level(b)));
            blockers.truncate(u.bases.len());
            for (i, b) in u.bases.iter().enumerate() {
                match blockers.get_mut(i) {
                    Some(bl) => bl.set_base(b),
                    None => blockers.push(Blocker::from_base(b)),
                }
            }
        }
        let screens = skirmish_screens(table);
        TerrainSight {
            bases,
            table,
            rules: *terrain.rules(),
            terrain,
            levels,
            screens,
            sampling: Sampling::default(),
            proof: Proof::default(),
            sweep_cache: OnceLock::new(),
            base_blockers,
            targets_behind_crests: false,
        }
    }

    /// The same model taking every target within a crest's reach as declared behind the
    /// crest, not over it (004 §15.1; see [`HillSight::CrestLines`]). Nothing changes
    /// under the other hill readings.
    #[must_use]
    pub fn with_targets_behind_crests(mut self) -> Self {
        self.targets_behind_crests = true;
        self
    }

    /// The same model with another sampling for the bounded search.
    #[must_use]
    pub fn with_sampling(mut self, sampling: Sampling) -> Self {
        self.sampling = sampling;
        self
    }

    /// The same model proving its verdicts another way ([`Proof`]).
    #[must_use]
    pub fn with_proof(mut self, proof: Proof) -> Self {
        self.proof = proof;
        self
    }

    /// Pro Patria (004 §15.1): the verdict for a spotter unit and a target unit when the
    /// target's player declares it behind a crest rather than over it, where that changes
    /// the verdict ([`Self::unit_verdict`] takes every target as declared over); `None`
    /// where the declaration changes nothing, or the rule set has no crest lines.
    /// Selections of bases count by their units' reach, as the rule speaks of units.
    pub fn if_declared_behind(
        &self,
        spotter: Selection,
        target: Selection,
    ) -> Result<Option<super::UnitVerdict>, GeometryError> {
        if self.targets_behind_crests || self.terrain.features().iter().all(|f| f.crests.is_empty()) {
            return Ok(None);
        }
        let behind =
            TerrainSight::built(self.bases, self.table, Arc::clone(&self.terrain), ModelSpare::default())
                .with_sampling(self.sampling)
                .with_proof(self.proof)
                .with_targets_behind_crests();
        let (over, _) = self.explain(spotter, target)?;
        let (under, _) = behind.explain(spotter, target)?;
        Ok((over.visible != under.visible || over.full_base.is_some() != under.full_base.is_some())
            .then_some(under))
    }

    /// The sight rules in force.
    #[must_use]
    pub fn rules(&self) -> &SightRules {
        &self.rules
    }

    /// The ground (hill contours) of the table.
    #[must_use]
    pub fn ground(&self) -> &Ground {
        self.terrain.ground()
    }

    /// The level a base stands at.
    #[must_use]
    pub fn level_of(&self, r: BaseRef) -> f64 {
        self.levels.get(r.unit).and_then(|l| l.get(r.base)).copied().unwrap_or(0.0)
    }

    /// The eye of a spotter base under these rules: its front edge, or its outline.
    #[must_use]
    pub fn eye_of(&self, b: &Base) -> Vec<Vec2> {
        match self.rules.eye {
            Eye::FrontEdge => {
                let e = b.front_edge();
                vec![e.a, e.b]
            }
            Eye::WholeBase => b.vertices_ccw().to_vec(),
        }
    }
}

/// The per-base allocations of a model (levels and shapes by unit and base), kept from
/// one close call's step to the next ([`TerrainSight::into_spare`]).
#[derive(Default)]
pub(crate) struct ModelSpare {
    levels: Vec<Vec<f64>>,
    base_blockers: Vec<Vec<Blocker>>,
}

/// The spaces between friendly skirmish markers of one regiment (000 §4.2: artillery
/// may not fire "through or over friendly units, including skirmish markers and the
/// spaces between friendly skirmish markers of the same regiment"): each marker base is
/// joined to the nearest other marker base of the same parent by their convex hull.
pub(super) fn skirmish_screens(table: &Table) -> Vec<(Blocker, BaseRef, BaseRef)> {
    let markers: Vec<(BaseRef, &Base, &str)> = table
        .units
        .iter()
        .enumerate()
        .filter(|(_, u)| u.kind == UnitKind::Skirmisher)
        .flat_map(|(ui, u)| {
            let parent = u.parent.as_deref().unwrap_or(u.id.as_str());
            u.bases.iter().enumerate().map(move |(bi, b)| (BaseRef::new(ui, bi), b, parent))
        })
        .collect();
    let mut out: Vec<(Blocker, BaseRef, BaseRef)> = Vec::new();
    for (i, (ra, a, pa)) in markers.iter().enumerate() {
        let nearest = markers
            .iter()
            .enumerate()
            .filter(|(j, (_, _, pb))| *j != i && pb == pa)
            .min_by(|x, y| a.distance(x.1.1).total_cmp(&a.distance(y.1.1)));
        if let Some((_, (rb, b, _))) = nearest {
            let (x, y) = if ra < rb { (*ra, *rb) } else { (*rb, *ra) };
            if out.iter().any(|(_, p, q)| *p == x && *q == y) {
                continue;
            }
            let pts: Vec<Vec2> = a.vertices_ccw().into_iter().chain(b.vertices_ccw()).collect();
            out.push((Blocker::new(crate::polygon::Polygon::new(hull_points(pts), vec![])), x, y));
        }
    }
    out
}
