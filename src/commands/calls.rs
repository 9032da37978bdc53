//! Close calls in the output of `report`, `measure` and `los` (issue 17): each threshold
//! verdict's margin, its combined sigma on a scanned table, whether it is certain at two
//! sigma, and, when it is not, which base to nudge by how much to flip it
//! ([`vedette_geometry::close_call`]).

use super::measure::micro;
use serde::Serialize;
use vedette_geometry::Table;
use vedette_geometry::close_call::{CERTAIN_AT_SIGMAS, CloseCall};

/// A threshold verdict's close call, as the JSON outputs print it.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct CallEntry {
    /// The limit the verdict compares with, mm (`null` for a side-of-line verdict).
    pub limit_mm: Option<f64>,
    /// How far the deciding geometry must move for the verdict to flip, mm.
    pub margin_mm: f64,
    /// Combined standard uncertainty of the deciding geometry, mm (`null` on a table
    /// without uncertainties: exact).
    pub sigma_mm: Option<f64>,
    /// The margin exceeds two combined sigmas (always true on an exact table); false:
    /// "too close to call".
    pub certain: bool,
    /// When not certain: the base whose move flips the verdict most easily.
    pub nudge: Option<NudgeEntry>,
}

/// Which base to move, how far and which way to flip a close call.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct NudgeEntry {
    /// The base, `unit#index`.
    pub base: String,
    /// How far, mm (the margin).
    pub by_mm: f64,
    /// Unit direction of the move, table frame (`null` when the verdict has none).
    pub towards: Option<[f64; 2]>,
}

/// The JSON form of a close call.
#[must_use]
pub fn entry(table: &Table, call: &CloseCall, limit_mm: Option<f64>) -> CallEntry {
    CallEntry {
        limit_mm: limit_mm.map(micro),
        margin_mm: micro(call.margin_mm),
        sigma_mm: call.sigma_mm.map(micro),
        certain: call.certain(),
        nudge: call.nudge.map(|n| NudgeEntry {
            base: table.base_label(n.base),
            by_mm: micro(n.by_mm),
            towards: n.towards.map(|v| [micro(v.x), micro(v.y)]),
        }),
    }
}

/// The text mark of a close call: empty when certain, else what makes it close.
#[must_use]
pub fn mark(e: &CallEntry) -> String {
    if e.certain {
        return String::new();
    }
    let sigma = e.sigma_mm.unwrap_or(0.0);
    let nudge = e.nudge.as_ref().map_or(String::new(), |n| {
        let way = n.towards.map_or(String::new(), |t| format!(" towards ({:+.2}, {:+.2})", t[0], t[1]));
        format!("; moving {} {:.2} mm{way} flips it", n.base, n.by_mm)
    });
    format!(
        " [TOO CLOSE TO CALL: margin {:.2} mm, {CERTAIN_AT_SIGMAS} sigma {:.2} mm{nudge}]",
        e.margin_mm,
        CERTAIN_AT_SIGMAS * sigma
    )
}

/// True when any of the calls is too close.
#[must_use]
pub fn any_close<'a>(calls: impl IntoIterator<Item = &'a CallEntry>) -> bool {
    calls.into_iter().any(|c| !c.certain)
}
