//! A battery as the artillery constructions see it: one artillery base with its weight,
//! frontage, maximum range and arc of fire; and the [`Battlefield`] every construction
//! reads (the table, its index, its artillery rules and the two seams: line of sight
//! and open ground).
//!
//! In Republique a battery is one artillery base (000 §1.1: "Artillery bases represent
//! 12 guns each ... referred to as batteries"), so every base of an artillery unit is a
//! battery; a unit of several artillery bases is a massed battery whose bases each fire
//! (and crowd each other's frontage). A battery without a formation in the table file
//! is taken as unlimbered.

use crate::artillery::arc_of_fire::ArcOfFire;
use crate::artillery::artillery_rules::ArtilleryRules;
use crate::artillery::firing_zone::FiringZone;
use crate::artillery::frontage::{BatteryFrontage, battery_frontage};
use crate::artillery::open_ground::OpenGround;
use crate::base::Base;
use crate::error::GeometryError;
use crate::index::SpatialIndex;
use crate::los::LineOfSight;
use crate::rules::ArtilleryWeight;
use crate::segment::Segment;
use crate::table::{BaseRef, Formation, Table, UnitKind};
use crate::vec2::Vec2;

/// Everything the artillery constructions read: the table, its spatial index, its
/// artillery rules, and the two seams a terrain model plugs into.
#[derive(Clone, Copy)]
pub struct Battlefield<'a> {
    /// The table.
    pub table: &'a Table,
    /// Its spatial index.
    pub index: &'a SpatialIndex<'a>,
    /// Its artillery rules.
    pub rules: &'a ArtilleryRules,
    /// Who sees whom (000 §4.5: "direct line-of-sight to at least one full base").
    pub line_of_sight: &'a dyn LineOfSight,
    /// Which ground is open (deep and tandem targets).
    pub ground: &'a dyn OpenGround,
}

/// One battery: an artillery base ready to be measured.
#[derive(Debug, Clone, PartialEq)]
pub struct Battery {
    /// The base.
    pub base_ref: BaseRef,
    /// Its geometry.
    pub base: Base,
    /// Its weight (medium when the table does not say).
    pub weight: ArtilleryWeight,
    /// True when limbered: limbered batteries may not fire (000 §4.2).
    pub limbered: bool,
    /// Its frontage.
    pub frontage: BatteryFrontage,
    /// Its maximum range, mm.
    pub max_range_mm: f64,
    /// Its arc of fire.
    pub arc: ArcOfFire,
}

impl Battery {
    /// The battery at base `r`; fails with [`GeometryError::NotABattery`] when `r` is
    /// not a base of an artillery unit.
    pub fn new(field: &Battlefield<'_>, r: BaseRef) -> Result<Battery, GeometryError> {
        let table = field.table;
        let not_a_battery = || GeometryError::NotABattery { base: table.base_label(r) };
        let unit = table.units.get(r.unit).ok_or_else(not_a_battery)?;
        if unit.kind != UnitKind::Artillery {
            return Err(not_a_battery());
        }
        let base = *table.base(r).ok_or_else(not_a_battery)?;
        let frontage = battery_frontage(table, field.index, r).ok_or_else(not_a_battery)?;
        let weight = unit.weight.unwrap_or(ArtilleryWeight::Medium);
        let max_range_mm = field.rules.max_range_mm(weight);
        let arc = ArcOfFire::new(frontage.edge, base.forward(), field.rules.arc_side_deg, max_range_mm);
        Ok(Battery {
            base_ref: r,
            base,
            weight,
            limbered: unit.formation == Some(Formation::Limbered),
            frontage,
            max_range_mm,
            arc,
        })
    }

    /// The unit vector the battery faces.
    #[must_use]
    pub fn forward(&self) -> Vec2 {
        self.base.forward()
    }

    /// The middle of the frontage, where the centre of fire starts.
    #[must_use]
    pub fn muzzle(&self) -> Vec2 {
        self.frontage.edge.midpoint()
    }

    /// The eye for line of sight: the frontage edge (normal or packed width).
    #[must_use]
    pub fn eye(&self) -> [Vec2; 2] {
        [self.frontage.edge.a, self.frontage.edge.b]
    }

    /// The firing zone swung by `swing_deg`.
    #[must_use]
    pub fn zone(&self, rules: &ArtilleryRules, swing_deg: f64) -> FiringZone {
        FiringZone::new(self.frontage.edge, self.forward(), swing_deg, rules.zone_side_deg, self.max_range_mm)
    }

    /// The battery's centreline: the unswung centre of fire, from the middle of the
    /// frontage straight ahead to maximum range.
    #[must_use]
    pub fn centreline(&self) -> Segment {
        let m = self.muzzle();
        Segment::new(m, m + self.forward() * self.max_range_mm)
    }
}

/// Every battery of the table: each base of each artillery unit, in table order.
#[must_use]
pub fn batteries(table: &Table) -> Vec<BaseRef> {
    table.bases().filter(|(r, _)| table.units[r.unit].kind == UnitKind::Artillery).map(|(r, _)| r).collect()
}
