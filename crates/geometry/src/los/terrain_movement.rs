//! The movement columns of the Republique 5.0 terrain effects table (000 §3.6, §3.7):
//! the penalty for moving within (areas) or crossing (obstacles), whether the assault
//! move bonus is allowed, and who cannot pass.

use crate::terrain::TerrainKind;

/// The movement penalty of a kind of terrain (000 §3.6, §3.7).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum MovementPenalty {
    /// No penalty.
    None,
    /// Rough: double movement cost while any part of the unit is within it.
    Rough,
    /// Double rough.
    DoubleRough,
    /// A one-time loss of this many rule inches to cross an obstacle, per arm.
    Crossing {
        /// Inches lost by foot troops (`None`: impassable to them).
        foot_in: Option<f64>,
        /// Inches lost by horse.
        horse_in: Option<f64>,
        /// Inches lost by artillery.
        artillery_in: Option<f64>,
    },
}

/// Which arms cannot enter or cross a kind of terrain.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Impassable {
    /// Foot cannot pass.
    pub foot: bool,
    /// Horse cannot pass.
    pub horse: bool,
    /// Artillery cannot pass.
    pub artillery: bool,
}

/// The movement columns of one row of the terrain effects table.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MovementEffect {
    /// Penalty within (areas) or to cross (obstacles).
    pub penalty: MovementPenalty,
    /// Whether the assault move bonus is allowed ("Foot only" counts as allowed for foot;
    /// N/A is `AssaultMove::NotAllowed`).
    pub assault_move: AssaultMove,
    /// Who cannot pass.
    pub impassable: Impassable,
}

/// The assault move column (000 §3.6: "N/A means that assault bonus movement is not
/// allowed within or across that terrain type").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AssaultMove {
    /// Allowed for everyone ("-").
    Allowed,
    /// Allowed for foot only.
    FootOnly,
    /// Not allowed ("N/A").
    NotAllowed,
}

const fn row(
    penalty: MovementPenalty,
    assault_move: AssaultMove,
    foot: bool,
    horse: bool,
    artillery: bool,
) -> MovementEffect {
    MovementEffect { penalty, assault_move, impassable: Impassable { foot, horse, artillery } }
}

/// The movement effect of a kind (000 §3.6 terrain effects table). Hills, roads and
/// water are not in the table: hills and roads have no penalty here, water is
/// impassable to all.
///
/// ```
/// use vedette_geometry::TerrainKind;
/// use vedette_geometry::los::{MovementPenalty, movement_effect};
/// assert_eq!(movement_effect(TerrainKind::HeavyForest).penalty, MovementPenalty::DoubleRough);
/// assert!(movement_effect(TerrainKind::HeavyForest).impassable.horse);
/// ```
#[must_use]
pub fn movement_effect(kind: TerrainKind) -> MovementEffect {
    use AssaultMove::{Allowed, FootOnly, NotAllowed};
    use MovementPenalty::{DoubleRough, Rough};
    let none = MovementPenalty::None;
    let cross =
        |foot_in, horse_in, artillery_in| MovementPenalty::Crossing { foot_in, horse_in, artillery_in };
    match kind {
        TerrainKind::LightBuildings => row(none, FootOnly, false, false, false),
        TerrainKind::MediumBuildings => row(Rough, FootOnly, false, false, false),
        TerrainKind::HeavyBuildings => row(Rough, FootOnly, false, false, false),
        TerrainKind::ReinforcedBuildings => row(Rough, NotAllowed, true, true, true),
        TerrainKind::LightForest | TerrainKind::Orchard => row(none, FootOnly, false, false, false),
        TerrainKind::MediumForest => row(Rough, NotAllowed, false, false, false),
        TerrainKind::HeavyForest => row(DoubleRough, NotAllowed, false, true, true),
        TerrainKind::Marsh => row(DoubleRough, NotAllowed, false, false, true),
        TerrainKind::Vineyard => row(Rough, NotAllowed, false, false, true),
        TerrainKind::SteepGround => row(Rough, NotAllowed, false, false, false),
        TerrainKind::FortressWall => row(none, NotAllowed, false, true, true),
        TerrainKind::RiverBank => row(cross(Some(7.0), None, None), NotAllowed, false, true, true),
        TerrainKind::StreamBank => row(cross(Some(3.0), Some(3.0), Some(6.0)), Allowed, false, false, false),
        TerrainKind::StoneWall => row(none, FootOnly, false, true, true),
        TerrainKind::Redoubt => row(none, FootOnly, false, false, true),
        TerrainKind::Treeline => row(cross(Some(1.0), Some(1.0), Some(1.0)), FootOnly, false, false, false),
        TerrainKind::Hedge => row(cross(Some(1.0), Some(1.0), None), NotAllowed, false, true, true),
        TerrainKind::Hill | TerrainKind::Road => row(none, Allowed, false, false, false),
        TerrainKind::Water => row(none, NotAllowed, true, true, true),
    }
}
