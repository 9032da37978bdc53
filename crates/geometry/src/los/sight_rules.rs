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
