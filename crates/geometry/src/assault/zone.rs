//! Assault zones (Republique 5.0 §5.1): the general (3") and all-out (1½") zones ahead of
//! the full front edge of one front base, their sides flaring 5° outward.
//!
//! Built on the one cone construction, [`FrontageCone`]; the zone is closed (see
//! [`crate::ties`]): a base exactly 3" ahead, or exactly on a flared side, is in it.

use crate::base::Base;
use crate::cone::FrontageCone;
use crate::convex::outset;
use crate::error::GeometryError;
use crate::polygon::{ConvexPolygon, HalfPlane};
use crate::rules::{RuleAngle, RuleBook, RuleDistance};
use crate::ties::ZONE_SLACK_MM;
use serde::{Deserialize, Serialize};

/// How close an assault is (000 §5.1).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum AssaultRange {
    /// Within 1½": all-out assault.
    AllOut,
    /// Within 3" but not 1½": general assault.
    General,
}

/// A zone ahead of one base's front edge: a [`FrontageCone`] cut off at a depth.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AssaultZone {
    /// The cone from the base's front edge.
    pub cone: FrontageCone,
    /// How far ahead of the front edge the zone reaches, mm.
    pub depth_mm: f64,
}

impl AssaultZone {
    /// The zone `depth_mm` deep ahead of `base`'s front edge, sides flaring `flare_deg`.
    #[must_use]
    pub fn ahead_of(base: &Base, depth_mm: f64, flare_deg: f64) -> Self {
        AssaultZone { cone: FrontageCone::flared(base.front_edge(), base.forward(), flare_deg), depth_mm }
    }

    /// The zone of `range` for `base`, with depth and flare from the rule book.
    ///
    /// ```
    /// use vedette_geometry::{AssaultRange, AssaultZone, Base, BaseSize, Pose, RuleBook, RuleSet, Scale, Vec2};
    /// let book = RuleBook::try_new(RuleSet::Republique5, Scale::Medium)?;
    /// let attacker = Base::new(BaseSize::new(30.0, 20.0), Pose::new(Vec2::new(0.0, 0.0), 90.0));
    /// let zone = AssaultZone::of(&attacker, AssaultRange::General, &book)?;
    /// // A defender whose front edge is 2.99" ahead is in the zone; at 3.01" it is not.
    /// let at = |inches: f64| Base::new(BaseSize::new(30.0, 20.0),
    ///     Pose::new(Vec2::new(0.0, 10.0 + inches * 25.4 + 10.0), 270.0));
    /// assert!(zone.reaches(&at(2.99)));
    /// assert!(!zone.reaches(&at(3.01)));
    /// # Ok::<(), vedette_geometry::GeometryError>(())
    /// ```
    pub fn of(base: &Base, range: AssaultRange, book: &RuleBook) -> Result<Self, GeometryError> {
        let depth = book.distance_mm(match range {
            AssaultRange::General => RuleDistance::GeneralAssault,
            AssaultRange::AllOut => RuleDistance::AllOutAssault,
        })?;
        Ok(Self::ahead_of(base, depth, book.angle_deg(RuleAngle::AssaultZoneFlare)?))
    }

    /// The four closed half-planes of the zone (ahead of the front edge, inside each
    /// flared side, within the depth), each pushed outward by [`ZONE_SLACK_MM`] ([`outset`]).
    #[must_use]
    pub fn half_planes(&self) -> [HalfPlane; 4] {
        let [a, b, c] = self.cone.half_planes();
        let d = self.cone.depth_limit(self.depth_mm);
        [a, b, c, d].map(|h| outset(h, ZONE_SLACK_MM))
    }

    /// The zone as a polygon (exact, without slack).
    #[must_use]
    pub fn polygon(&self) -> ConvexPolygon {
        self.cone.polygon(self.depth_mm)
    }

    /// The part of a convex polygon inside the (closed) zone.
    #[must_use]
    pub fn clip(&self, poly: &ConvexPolygon) -> ConvexPolygon {
        ConvexPolygon::from_half_planes(poly, &self.half_planes())
    }

    /// True when any part of `base` is in the zone (touching counts).
    #[must_use]
    pub fn reaches(&self, base: &Base) -> bool {
        !self.clip(&base.polygon()).is_empty()
    }
}
