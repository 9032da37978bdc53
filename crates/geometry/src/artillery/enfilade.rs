//! Enfilade (000 §4.3 figure, §4.4): "The battery is entirely within the arc-of-fire
//! being used as an enfilade indicator (the same angles apply to both enfilade exposure
//! and artillery arc-of-fire) ... Note the alignment (grey arrow) of the arc to that
//! edge of the unit nearest the artillery battery ... A firing battery whose frontage is
//! only partly within the target's enfilade zone is not considered to be firing from
//! enfilade." And §4.4: "The firing battery frontage must be entirely within the
//! target's enfilade zone in order to gain this bonus. Infantry units marked as being in
//! square are considered enfilade targets from all firing angles".
//!
//! The enfilade zone is the arc-of-fire cone laid on the target's flank edge nearest
//! the battery ([`UnitFrame::flank_edge`]): the flank edge takes the place of a battery
//! frontage, facing out from the unit, and rays leave its two ends 30° outward. The
//! battery fires in enfilade when both ends of its frontage (normal or packed) lie in
//! that zone (the zone is convex, so then the whole frontage does).
//!
//! Tie rules: a frontage corner exactly on a ray of the zone is inside (the zone is
//! closed). When the battery is equally near both flank edges, either zone will do.
//!
//! Fire into the rear is not enfilade. The zone lies wholly outside the unit's flank
//! line, beside the unit, while the rear zone (000 §5.1: "bounded by lines running to the
//! rear from the outer rear base corners, perpendicular to the unit's front") lies
//! between the unit's flank lines, so a battery in the rear zone is never inside an
//! enfilade zone; [`enfilade`] needs no separate rear test, and the scenario tests show
//! it.
//!
//! Units in square (000 §1.4, §4.4) and Republic breakthrough columns (003 §103) are
//! enfiladed from everywhere ([`StandingExposure`]).

use crate::cone::FrontageCone;
use crate::frame::{FlankSide, UnitBox};
use crate::segment::Segment;
use crate::table::{Formation, Unit};

/// Why a unit counts as a deep and enfilade target whatever the geometry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StandingExposure {
    /// Infantry in square (000 §1.4: "Units in square always count as enfilade and deep
    /// targets for artillery").
    Square,
    /// A Republic breakthrough column (003 §103: "considered to be deep/enfilade targets
    /// for the duration of their existence").
    BreakthroughColumn,
}

impl StandingExposure {
    /// The unit's standing exposure, if its formation gives it one.
    #[must_use]
    pub fn of(unit: &Unit) -> Option<StandingExposure> {
        match unit.formation {
            Some(Formation::Square) => Some(StandingExposure::Square),
            Some(Formation::BreakthroughColumn) => Some(StandingExposure::BreakthroughColumn),
            _ => None,
        }
    }
}

/// Why fire is (or is not) in enfilade.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EnfiladeVerdict {
    /// The battery frontage lies wholly inside the enfilade zone of this flank.
    Flank(FlankSide),
    /// The target is enfiladed from everywhere.
    Standing(StandingExposure),
    /// Not in enfilade: the frontage is not wholly inside the zone of the nearest flank.
    No,
}

impl EnfiladeVerdict {
    /// True for enfilade fire.
    #[must_use]
    pub fn is_enfilade(self) -> bool {
        !matches!(self, EnfiladeVerdict::No)
    }

    /// The flank taken in enfilade, if the geometry decided it.
    #[must_use]
    pub fn flank(self) -> Option<FlankSide> {
        match self {
            EnfiladeVerdict::Flank(f) => Some(f),
            _ => None,
        }
    }
}

/// The enfilade zone of one flank: the arc-of-fire cone (`side_deg`, 30°) on the flank
/// edge, facing out from the unit.
#[must_use]
pub fn enfilade_zone(frame: &UnitBox, flank: FlankSide, side_deg: f64) -> FrontageCone {
    FrontageCone::flared(frame.flank_edge(flank), frame.outward(flank), side_deg)
}

/// The flank edge nearest a battery frontage, with the other one when both are equally
/// near (within a nanometre).
#[must_use]
pub fn nearest_flanks(frame: &UnitBox, battery_frontage: &Segment) -> Vec<FlankSide> {
    let d = |f: FlankSide| frame.flank_edge(f).distance_2(battery_frontage).sqrt();
    let (l, r) = (d(FlankSide::Left), d(FlankSide::Right));
    if (l - r).abs() <= 1e-9 {
        vec![FlankSide::Left, FlankSide::Right]
    } else if l < r {
        vec![FlankSide::Left]
    } else {
        vec![FlankSide::Right]
    }
}

/// Whether a battery with the given frontage fires on the unit in enfilade.
///
/// ```
/// use vedette_geometry::{EnfiladeVerdict, FlankSide, Segment, Table, Vec2, enfilade};
/// // A line facing +y (x -60..60, y 0..20); a battery far out on its right (+x), its
/// // frontage facing back toward the line's flank.
/// let t = Table::from_json_str(r#"{"schema":"vedette/table/1","rules":"republique5","scale":"medium",
///   "units":[{"id":"l","side":"a","kind":"infantry","formation":"line","bases":[
///     {"x":-30,"y":10,"heading":90,"width":60,"depth":20},{"x":30,"y":10,"heading":90,"width":60,"depth":20}]}]}"#)?;
/// let front = Segment::new(Vec2::new(300.0, -15.0), Vec2::new(300.0, 35.0));
/// assert_eq!(enfilade(&t.units[0], &front, 30.0), EnfiladeVerdict::Flank(FlankSide::Right));
/// # Ok::<(), vedette_geometry::GeometryError>(())
/// ```
#[must_use]
pub fn enfilade(target: &Unit, battery_frontage: &Segment, side_deg: f64) -> EnfiladeVerdict {
    if let Some(s) = StandingExposure::of(target) {
        return EnfiladeVerdict::Standing(s);
    }
    let Some(frame) = UnitBox::of(&target.bases) else { return EnfiladeVerdict::No };
    for flank in nearest_flanks(&frame, battery_frontage) {
        if enfilade_zone(&frame, flank, side_deg).contains_segment(battery_frontage) {
            return EnfiladeVerdict::Flank(flank);
        }
    }
    EnfiladeVerdict::No
}
