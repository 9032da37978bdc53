//! Classic Republique's facing arc and assault contact (001 §4.1, §4.2).
//!
//! "Each unit involved in an assault must apply its entire strength to that assault if
//! the nearest portion of an enemy unit is within 25mm of its facing arc. This is defined
//! as primary contact. A unit whose nearest portion is more than 25mm but less than 50mm
//! must apply half of its strength (rounding down) ... incidental contact. A unit's
//! facing arc is measured 45 degrees from the rear corners of its furthest left and right
//! front base(s), up the sides of those bases and from the front edges all front bases."
//!
//! The facing arc is a [`FrontageCone`] whose frontage joins the rear-left corner of the
//! leftmost front base to the rear-right corner of the rightmost, sides turned 45° out
//! from the unit's facing. An enemy is measured from the part of it inside the arc to the
//! unit's front bases (their sides and front edges are the arc's inner boundary). At
//! exactly 25 mm the contact is primary, at exactly 50 mm incidental ([`within`]).

use crate::base::Base;
use crate::cone::FrontageCone;
use crate::convex::outset;
use crate::error::GeometryError;
use crate::frame::UnitFrame;
use crate::index::SpatialIndex;
use crate::polygon::{ConvexPolygon, HalfPlane};
use crate::rules::{RuleAngle, RuleBook, RuleDistance};
use crate::segment::Segment;
use crate::table::{Formation, Table, UnitKind};
use crate::ties::{ZONE_SLACK_MM, within};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A unit's facing arc.
#[derive(Debug, Clone, PartialEq)]
pub struct FacingArc {
    /// The cone from the outer rear corners of the front bases.
    pub cone: FrontageCone,
    /// The front bases (the arc's inner boundary).
    pub front: Vec<Base>,
}

impl FacingArc {
    /// The facing arc of a unit's bases with sides `side_deg` outward; `None` for no
    /// bases.
    ///
    /// ```
    /// use vedette_geometry::{Base, BaseSize, FacingArc, Pose, Vec2};
    /// let b = Base::new(BaseSize::new(40.0, 20.0), Pose::new(Vec2::new(0.0, 0.0), 90.0));
    /// let arc = FacingArc::with_side_angle(&[b], 45.0).unwrap();
    /// // Beside the base, level with its middle, 5 mm out: inside the 45° arc, 5 mm away.
    /// let side = Base::new(BaseSize::new(10.0, 10.0), Pose::new(Vec2::new(30.0, 4.9), 90.0));
    /// assert!((arc.distance_mm(&side).unwrap() - 5.0).abs() < 1e-9);
    /// // Behind the rear corners: outside the arc.
    /// let behind = Base::new(BaseSize::new(10.0, 10.0), Pose::new(Vec2::new(30.0, -30.0), 90.0));
    /// assert_eq!(arc.distance_mm(&behind), None);
    /// ```
    #[must_use]
    pub fn with_side_angle(bases: &[Base], side_deg: f64) -> Option<FacingArc> {
        let frame = UnitFrame::of(bases)?;
        let front: Vec<Base> = {
            let idx = crate::unit_structure::front_bases_of(bases);
            if idx.is_empty() { bases.to_vec() } else { idx.iter().map(|&i| bases[i]).collect() }
        };
        let x = |b: &Base| frame.to_local(b.centre()).x;
        let leftmost = front.iter().min_by(|a, b| x(a).total_cmp(&x(b)))?;
        let rightmost = front.iter().max_by(|a, b| x(a).total_cmp(&x(b)))?;
        let corner = |b: &Base, left: bool| {
            let c = b.corners();
            let (l, r) = (c.rear_left, c.rear_right);
            let (lx, rx) = (frame.to_local(l).x, frame.to_local(r).x);
            if (lx <= rx) == left { l } else { r }
        };
        let seg = Segment::new(corner(leftmost, true), corner(rightmost, false));
        Some(FacingArc { cone: FrontageCone::flared(seg, frame.forward, side_deg), front })
    }

    /// The facing arc with the side angle of the rule book.
    pub fn of(bases: &[Base], book: &RuleBook) -> Result<Option<FacingArc>, GeometryError> {
        Ok(Self::with_side_angle(bases, book.angle_deg(RuleAngle::FacingArcSide)?))
    }

    fn half_planes(&self) -> [HalfPlane; 3] {
        self.cone.half_planes().map(|h| outset(h, ZONE_SLACK_MM))
    }

    /// The distance from the part of `base` inside the arc to the front bases, mm;
    /// `None` when no part of it is inside the arc.
    #[must_use]
    pub fn distance_mm(&self, base: &Base) -> Option<f64> {
        let part = ConvexPolygon::from_half_planes(&base.polygon(), &self.half_planes());
        if part.is_empty() {
            return None;
        }
        self.front.iter().filter_map(|f| part.distance_to_base(f)).reduce(f64::min)
    }
}

/// Primary or incidental (001 §4.1).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum ClassicContactKind {
    /// Within 25 mm of the facing arc: full strength, may initiate an assault.
    Primary,
    /// More than 25 mm but within 50 mm: half strength (rounded down), cannot initiate.
    Incidental,
}

/// One unit facing one enemy unit within incidental range.
#[derive(Debug, Clone, PartialEq)]
pub struct ClassicContact {
    /// The facing unit's index.
    pub unit: usize,
    /// The enemy unit's index.
    pub enemy: usize,
    /// Primary or incidental.
    pub kind: ClassicContactKind,
    /// Distance from the enemy's nearest part in the arc to the unit's front bases, mm.
    pub distance_mm: f64,
    /// The bases the unit applies: all (primary), half rounded down (incidental; none
    /// for limbered artillery, 001 §4.2).
    pub strength: usize,
}

/// Every classic contact on the table, by unit then enemy.
pub fn classic_contacts(
    table: &Table,
    index: &SpatialIndex,
    book: &RuleBook,
) -> Result<Vec<ClassicContact>, GeometryError> {
    let primary = book.distance_mm(RuleDistance::PrimaryContact)?;
    let incidental = book.distance_mm(RuleDistance::IncidentalContact)?;
    let mut out = Vec::new();
    for (ui, u) in table.units.iter().enumerate() {
        if !u.is_combat() {
            continue;
        }
        let Some(arc) = FacingArc::of(&u.bases, book)? else { continue };
        let mut best: BTreeMap<usize, f64> = BTreeMap::new();
        for n in index.within_of_unit(ui, incidental + 1.0) {
            if !index.are_enemies(ui, n.base.unit) || !table.units[n.base.unit].is_combat() {
                continue;
            }
            if let Some(b) = table.base(n.base)
                && let Some(d) = arc.distance_mm(b)
            {
                let e = best.entry(n.base.unit).or_insert(f64::INFINITY);
                *e = e.min(d);
            }
        }
        for (ei, d) in best {
            let kind = if within(d, primary) {
                ClassicContactKind::Primary
            } else if within(d, incidental) {
                ClassicContactKind::Incidental
            } else {
                continue;
            };
            let strength = match kind {
                ClassicContactKind::Primary => u.bases.len(),
                ClassicContactKind::Incidental
                    if u.kind == UnitKind::Artillery && u.formation == Some(Formation::Limbered) =>
                {
                    0
                }
                ClassicContactKind::Incidental => u.bases.len() / 2,
            };
            out.push(ClassicContact { unit: ui, enemy: ei, kind, distance_mm: d, strength });
        }
    }
    Ok(out)
}
