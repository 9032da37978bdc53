//! The drawing crate's one error type.

use thiserror::Error;

/// Everything drawing can fail with.
#[derive(Debug, Error)]
pub enum DrawError {
    /// A point of an element is not a finite number (a table that validated never has
    /// one; a projection can produce one).
    #[error("element \"{id}\" has a point that is not finite: ({x}, {y})")]
    NotFinite {
        /// The element.
        id: String,
        /// Its x.
        x: f64,
        /// Its y.
        y: f64,
    },
    /// The scene has nothing to draw and no table outline to size the picture by.
    #[error("nothing to draw: the scene is empty and has no extent")]
    Empty,
    /// A question about a pair was asked about one thing twice.
    #[error("\"{a}\" and \"{b}\" are the same unit or share every base; ask about two different units")]
    SamePair {
        /// The first, as given.
        a: String,
        /// The second, as given.
        b: String,
    },
    /// An assault was asked about between units the assault rules ask nothing of (a
    /// leader, a limber, two units of one side): why
    /// (`vedette_geometry::assault::contact::assault_pair_refusal`).
    #[error("no assault to explain: {0}")]
    NoAssault(String),
    /// A unit asked about has no bases.
    #[error("\"{unit}\" has no bases")]
    NoBases {
        /// The unit.
        unit: String,
    },
    /// A rule distance or angle the drawing needs is missing from the table's rule set.
    #[error(transparent)]
    Geometry(#[from] vedette_geometry::GeometryError),
}
