//! How each rule set takes line of sight: where sight starts, what the spotter can see
//! around it, how cover hides what is in it, and how far anyone can see. Each choice is
//! a named strategy value, chosen per rule set in [`SightRules::for_book`].

use crate::error::GeometryError;
use crate::rules::{RuleBook, RuleDistance, RuleSet};

/// Where sight lines start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Eye {
    /// From any point of the spotter's front edge; the spotter's own bases are opaque to
    /// it (Republique: artillery sees and fires from its front, 000 §4.2, §4.5).
    FrontEdge,
    /// From any point of the spotter's base (Pro Patria §16.3: "from a figure of a unit
    /// to another figure in another unit").
    WholeBase,
}

/// What the spotter can see around it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldOfView {
    /// No limit beyond what blocks sight.
    Unlimited,
    /// 180°: only what lies on or ahead of the line of the spotter's front edge
    /// (004 §16.3: "Units have a 180° field of vision").
    Ahead,
}

/// How cover (woods, buildings, obstacles) hides a unit in it or behind it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CoverVisibility {
    /// Republique's spotting depth (000 §3.6): the sight line may run at most the
    /// spotting depth inside the cover, measured along the line from where it enters the
    /// cover to where it reaches the target's base (the parts inside the spotter's and
    /// target's own bases do not count); for a linear obstacle, from where the line
    /// crosses it. Cover that neither base stands in blocks as terrain of its height
    /// (003 601).
    DepthIntoCover,
    /// Pro Patria (004 §16.3): a unit in woods or an urban area "is visible at" 100 mm
    /// (heavy), 150 mm (light), 50 mm (skirmishers): a sight line through such cover
    /// must be at most that long from the spotter's base to the target's base. Woods and
    /// urban areas that neither base stands in block, except that a spotter on a high
    /// hill sees 200 mm past a wood or town that is not on a hill (§15.7-15.8).
    WithinDistance,
}

/// How units hide one another.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnitScreening {
    /// Republique 5.0 (000 §4.1, §4.2, §4.5): see [`crate::blocks`].
    Republique,
    /// Pro Patria (004 §16.3): see [`crate::blocks_at_levels`].
    ProPatria,
}

/// How hills hide what is behind them.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum HillSight {
    /// Republique and Republic (000 §3.6, 003 601): a hill between spotter and target
    /// hides a blind zone behind it, by the levels of spotter, hill and target.
    BlindZone,
    /// Pro Patria (004 §15.1): a hill hides what lies beyond its crest lines
    /// ([`crate::pro_patria::crest::hill_crests`]). Readings, since the text gives only
    /// "units can see over the crest of the hill as long as they are within 25mm of the
    /// crest" and "when units are within 25mm of a crest line, the player moving them
    /// must tell his opponent if they are behind (not visible) or over the crest line
    /// (visible)":
    /// - a sight line that crosses a crest line is blocked there, unless the spotter's
    ///   unit is within the reach of that crest (any of its bases; the reach included):
    ///   it sees over;
    /// - a target unit within the reach of a crest the spotter is not within reach of is
    ///   seen as its player declares: "over" (the crest does not block, the default of
    ///   every verdict) or "behind" ([`crate::los::TerrainSight::with_targets_behind_crests`]);
    ///   `vedette los` gives both answers when they differ;
    /// - the hill's slopes hide nothing else (the crest is the hill's one line of sight
    ///   rule); a hill's level still counts where the text uses it (high hills).
    CrestLines {
        /// The crest reach, mm (004 §15.1: 25, 15 for 15 mm figures).
        reach_mm: f64,
    },
}

/// The line-of-sight rules of one rule set at one scale, in table millimetres.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SightRules {
    /// The rule set.
    pub rules: RuleSet,
    /// Where sight starts.
    pub eye: Eye,
    /// The field of view.
    pub field_of_view: FieldOfView,
    /// How cover hides.
    pub cover: CoverVisibility,
    /// How units hide one another.
    pub screening: UnitScreening,
    /// Maximum visibility, mm (Pro Patria 1200 / 720, 004 §16.3); `None`: unlimited.
    pub max_visibility_mm: Option<f64>,
    /// Spotting depths (Republique) for the 2", 1" and ½" rows of 000 §3.6, mm.
    pub spotting_depth_mm: [f64; 3],
    /// Pro Patria visibility inside heavy cover, light cover, and of skirmishers in
    /// cover, mm (004 §16.3).
    pub visible_in_cover_mm: [f64; 3],
    /// Pro Patria: how far past woods and towns a spotter on a high hill sees, mm
    /// (004 §15.7-15.8).
    pub high_hill_sees_past_mm: f64,
    /// How hills hide.
    pub hills: HillSight,
}

/// The lowest level that counts as a high hill for Pro Patria (004 §15.7-15.8 "High
/// Hill"; the text gives no height, so a hill of one full level or more).
pub const HIGH_HILL_LEVEL: f64 = 1.0;

impl SightRules {
    /// The rules for a rule book.
    ///
    /// ```
    /// use vedette_geometry::{RuleBook, RuleSet, Scale};
    /// use vedette_geometry::los::{Eye, SightRules};
    /// let r = SightRules::for_book(&RuleBook::try_new(RuleSet::ProPatria, Scale::Figures28mm)?)?;
    /// assert_eq!(r.eye, Eye::WholeBase);
    /// assert_eq!(r.max_visibility_mm, Some(1200.0));
    /// # Ok::<(), vedette_geometry::GeometryError>(())
    /// ```
    pub fn for_book(book: &RuleBook) -> Result<Self, GeometryError> {
        match book.rules() {
            RuleSet::ProPatria => Ok(SightRules {
                rules: book.rules(),
                eye: Eye::WholeBase,
                field_of_view: FieldOfView::Ahead,
                cover: CoverVisibility::WithinDistance,
                screening: UnitScreening::ProPatria,
                max_visibility_mm: Some(book.distance_mm(RuleDistance::Visibility)?),
                spotting_depth_mm: [0.0; 3],
                visible_in_cover_mm: [
                    book.distance_mm(RuleDistance::VisibleInHeavyCover)?,
                    book.distance_mm(RuleDistance::VisibleInLightCover)?,
                    book.distance_mm(RuleDistance::SkirmisherVisibleInCover)?,
                ],
                high_hill_sees_past_mm: book.distance_mm(RuleDistance::HighHillSeesPast)?,
                hills: HillSight::CrestLines { reach_mm: book.distance_mm(RuleDistance::CrestLine)? },
            }),
            _ => Ok(SightRules {
                rules: book.rules(),
                eye: Eye::FrontEdge,
                field_of_view: FieldOfView::Unlimited,
                cover: CoverVisibility::DepthIntoCover,
                screening: UnitScreening::Republique,
                max_visibility_mm: None,
                spotting_depth_mm: [
                    book.distance_mm(RuleDistance::SpottingDepthTwoInches)?,
                    book.distance_mm(RuleDistance::SpottingDepthOneInch)?,
                    book.distance_mm(RuleDistance::SpottingDepthHalfInch)?,
                ],
                visible_in_cover_mm: [0.0; 3],
                high_hill_sees_past_mm: 0.0,
                hills: HillSight::BlindZone,
            }),
        }
    }

    /// A spotting depth in mm.
    #[must_use]
    pub fn depth_mm(&self, d: RuleDistance) -> f64 {
        match d {
            RuleDistance::SpottingDepthTwoInches => self.spotting_depth_mm[0],
            RuleDistance::SpottingDepthHalfInch => self.spotting_depth_mm[2],
            _ => self.spotting_depth_mm[1],
        }
    }
}
