//! "Open terrain" for the deep-target and tandem rules (000 §4.3 A: "must all be in open
//! terrain ... The deep target modifier is not applicable to targets in woods, buildings
//! or on the far side of obstacles such as redoubts, heavy walls, swamps, ravines or
//! rivers"; §4.5: "Tandem secondary targets must also be in open terrain").
//!
//! This is a seam like [`crate::LineOfSight`]: the artillery code asks an
//! [`OpenGround`] and never reads terrain itself. [`TerrainOutlines`] answers from the
//! table's terrain features until a richer terrain model takes over; [`AllOpen`] is open
//! ground everywhere.
//!
//! # The reading in [`TerrainOutlines`]
//! - A base is **not in open terrain** when half or more of its area lies inside area
//!   features of the covering kinds: buildings of every weight, forests, orchards,
//!   marsh, vineyards, steep ground and water (the 000 §3.6 terrain table's cover
//!   terrain, plus water). Hills and roads are open. "Half or more" is the cover reading
//!   of 000 §5.4.
//! - A base is **on the far side of an obstacle** when the line of fire from the
//!   battery to it crosses a fortress wall, river bank, stream bank (ravine), stone wall
//!   or redoubt line, or passes into marsh or water. Hedges and treelines are light
//!   obstacles ("heavy walls" is the text's word) and do not deny deep fire.
//! - A unit is in open terrain unless half or more of its bases are each not in open
//!   terrain (000 §5.4's rule for a unit in cover).

use crate::polygon::ring_contains;
use crate::segment::Segment;
use crate::table::{BaseRef, Table};
use crate::terrain::TerrainKind;
use crate::vec2::Vec2;

/// The terrain questions of the deep-target and tandem rules.
pub trait OpenGround {
    /// True when the base stands in open terrain.
    fn base_in_open(&self, table: &Table, base: BaseRef) -> bool;

    /// True when the line of fire from `from` to `to` crosses an obstacle that denies
    /// deep fire (the target is "on the far side" of it).
    fn obstacle_between(&self, table: &Table, from: Vec2, to: Vec2) -> bool;

    /// True when the unit stands in open terrain: fewer than half its bases are out of
    /// open terrain.
    fn unit_in_open(&self, table: &Table, unit: usize) -> bool {
        let n = table.units[unit].bases.len();
        let covered = (0..n).filter(|&b| !self.base_in_open(table, BaseRef::new(unit, b))).count();
        2 * covered < n
    }
}

/// Open ground everywhere, no obstacles.
#[derive(Debug, Clone, Copy, Default)]
pub struct AllOpen;

impl OpenGround for AllOpen {
    fn base_in_open(&self, _table: &Table, _base: BaseRef) -> bool {
        true
    }

    fn obstacle_between(&self, _table: &Table, _from: Vec2, _to: Vec2) -> bool {
        false
    }
}

/// Open ground read from the table's terrain features (see the module documentation).
#[derive(Debug, Clone, Copy, Default)]
pub struct TerrainOutlines;

impl TerrainOutlines {
    /// True for area kinds that are not open terrain.
    #[must_use]
    pub fn covers(kind: TerrainKind) -> bool {
        use TerrainKind as K;
        matches!(
            kind,
            K::LightBuildings
                | K::MediumBuildings
                | K::HeavyBuildings
                | K::ReinforcedBuildings
                | K::LightForest
                | K::Orchard
                | K::MediumForest
                | K::HeavyForest
                | K::Marsh
                | K::Vineyard
                | K::SteepGround
                | K::Water
        )
    }

    /// True for features that deny deep fire on whatever lies beyond them.
    #[must_use]
    pub fn denies_deep_beyond(kind: TerrainKind) -> bool {
        use TerrainKind as K;
        matches!(
            kind,
            K::FortressWall | K::RiverBank | K::StreamBank | K::StoneWall | K::Redoubt | K::Marsh | K::Water
        )
    }
}

impl OpenGround for TerrainOutlines {
    fn base_in_open(&self, table: &Table, base: BaseRef) -> bool {
        let Some(b) = table.base(base) else { return true };
        let poly = b.polygon();
        let (lo, hi) = b.aabb();
        let covered: f64 = table
            .terrain
            .iter()
            .filter(|f| !f.kind.is_linear() && Self::covers(f.kind) && boxes_meet(&f.outline, lo, hi))
            .map(|f| f.polygon().area_inside(&poly))
            .sum();
        covered < 0.5 * b.area() - 1e-9
    }

    fn obstacle_between(&self, table: &Table, from: Vec2, to: Vec2) -> bool {
        let fire = Segment::new(from, to);
        let lo = Vec2::new(from.x.min(to.x), from.y.min(to.y));
        let hi = Vec2::new(from.x.max(to.x), from.y.max(to.y));
        table.terrain.iter().filter(|f| Self::denies_deep_beyond(f.kind)).any(|f| {
            let ring = if f.kind.is_linear() { &f.path } else { &f.outline };
            if !boxes_meet(ring, lo, hi) {
                return false;
            }
            let n = ring.len();
            let edges = if f.kind.is_linear() { n.saturating_sub(1) } else { n };
            (0..edges).any(|i| fire.intersection(&Segment::new(ring[i], ring[(i + 1) % n])).is_some())
                || (!f.kind.is_linear() && ring_contains(ring, to))
        })
    }
}

/// True when the bounding box of `points` meets the box from `lo` to `hi`.
fn boxes_meet(points: &[Vec2], lo: Vec2, hi: Vec2) -> bool {
    let mut plo = Vec2::new(f64::INFINITY, f64::INFINITY);
    let mut phi = Vec2::new(f64::NEG_INFINITY, f64::NEG_INFINITY);
    for p in points {
        plo = Vec2::new(plo.x.min(p.x), plo.y.min(p.y));
        phi = Vec2::new(phi.x.max(p.x), phi.y.max(p.y));
    }
    plo.x <= hi.x && lo.x <= phi.x && plo.y <= hi.y && lo.y <= phi.y
}
