//! Why a verdict came out as it did, in a form an overlay can draw: the clear sight
//! segments found, or what cut the sight line and where.

use crate::segment::Segment;
use crate::table::BaseRef;
use crate::terrain::TerrainKind;
use crate::vec2::Vec2;

/// A clear sight segment between two bases.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SightLine {
    /// The segment, from the spotter's eye to the target point, mm.
    pub segment: Segment,
    /// The spotter's base it starts from.
    pub from_base: BaseRef,
    /// The target base it reaches.
    pub to_base: BaseRef,
}

/// Which terrain rule made a feature cut the sight line.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum TerrainRule {
    /// The feature blocks everything behind it (at or above the spotter's level, or
    /// Pro Patria woods and towns).
    Blocks,
    /// The target point lies in the feature's blind zone (003 601).
    BlindZone {
        /// The blind zone multiple.
        multiple: f64,
    },
    /// The sight line runs further into the cover than its spotting depth (000 §3.6).
    SpottingDepth {
        /// The spotting depth, mm.
        depth_mm: f64,
    },
    /// The sight line through woods or a town is longer than Pro Patria's visibility in
    /// it (004 §16.3).
    VisibleWithin {
        /// The visibility, mm.
        limit_mm: f64,
    },
    /// The target is further past the wood or town than a high hill sees (004 §15.7-15.8).
    SeesPast {
        /// How far past it the spotter sees, mm.
        limit_mm: f64,
    },
    /// The sight line crosses a crest line of the hill, and the spotter is not within
    /// its reach (004 §15.1; [`crate::los::HillSight::CrestLines`]).
    Crest {
        /// The crest reach, mm.
        reach_mm: f64,
    },
}

/// What cut a sight line.
#[derive(Debug, Clone, PartialEq)]
pub enum CutBy {
    /// A base of a unit that blocks this spotter.
    Base(BaseRef),
    /// The space between two friendly skirmish markers of one regiment (000 §4.2).
    SkirmishScreen(BaseRef, BaseRef),
    /// A terrain feature.
    Terrain {
        /// Index in the table's `terrain`.
        feature: usize,
        /// Its kind.
        kind: TerrainKind,
        /// The rule that applies.
        rule: TerrainRule,
    },
    /// The target point lies behind the spotter's 180° field of view (004 §16.3).
    FieldOfView,
    /// The target point is beyond the maximum visibility (004 §16.3).
    MaxVisibility {
        /// The limit, mm.
        limit_mm: f64,
    },
}

/// One cut: what, and where on the sight line.
#[derive(Debug, Clone, PartialEq)]
pub struct Cut {
    /// What cut the line.
    pub by: CutBy,
    /// Where: the point at which it enters the line (for a depth or distance limit,
    /// where the limit is reached), mm.
    pub at: Vec2,
    /// The stretch of the examined line the limit decided on, in explanations (`None`
    /// in verdicts and for other cuts): for a blind zone (003 601), the zone on the
    /// line ([`super::blind_zone_on_line`]: from the blocker's far edge to where the
    /// zone ends); for a spotting depth (000 §3.6), the line's run in the cover from
    /// where it is first counted to where the depth is reached (`at`).
    pub stretch: Option<Segment>,
}

/// The explanation of a verdict.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Explanation {
    /// Clear sight segments found: one when the target is visible, and for a fully
    /// visible base one to each of its corners.
    pub sight_lines: Vec<SightLine>,
    /// When not visible (or not fully visible): the sight line examined, from the
    /// spotter's eye to the target (or to the hidden point).
    pub examined: Option<Segment>,
    /// What cuts the examined line, nearest the spotter first.
    pub blocked_by: Vec<Cut>,
    /// A point of the target base that no spotter point sees, when the base is not fully
    /// visible.
    pub hidden_point: Option<Vec2>,
}
