//! Pro Patria command radius (004 §14.2): "Every General has a command radius of 400mm
//! (250mm for 15mm gaming)." A unit is in command when its closest point is within the
//! radius of its general's stand (exactly 400 mm is within).

use crate::close_call::{CloseCall, unit_distance_call};
use crate::command::leaders::commanded_units;
use crate::error::GeometryError;
use crate::rules::{RuleBook, RuleDistance};
use crate::table::Table;
use crate::ties::within;

/// One unit of a general's command and its distance.
#[derive(Debug, Clone, PartialEq)]
pub struct InCommand {
    /// The general's unit index.
    pub general: usize,
    /// The unit's index.
    pub unit: usize,
    /// Closest distance, mm.
    pub distance_mm: f64,
    /// Within the command radius.
    pub in_command: bool,
    /// The command radius, mm (400, 250 for 15 mm figures).
    pub radius_mm: f64,
    /// The distance's close call against the radius (the closest stands of the two).
    pub call: CloseCall,
}

/// Every unit of `general`'s command with its distance and verdict.
pub fn command_radius(
    table: &Table,
    book: &RuleBook,
    general: usize,
) -> Result<Vec<InCommand>, GeometryError> {
    let radius = book.distance_mm(RuleDistance::CommandRadius)?;
    Ok(commanded_units(table, general)
        .into_iter()
        .filter_map(|u| {
            let (d, call) = unit_distance_call(table, general, u, radius)?;
            Some(InCommand {
                general,
                unit: u,
                distance_mm: d,
                in_command: within(d, radius),
                radius_mm: radius,
                call,
            })
        })
        .collect())
}
