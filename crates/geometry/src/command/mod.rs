//! Command and movement distances: deployment areas, leaders, divisions, the cavalry
//! reaction zone, pass-through zones.
//!
//! - [`deployment`]: division and corps deployment areas as polygons (000 §2.1).
//! - [`leaders`]: who commands whom, rally penalty steps (000 §2.2-2.3).
//! - [`divisions`]: divisions within 6" / 3" of each other, engagement range (000 §3.3,
//!   §6.2; classic 8 cm).
//! - [`reaction`]: the cavalry reaction zone (000 §3.6).
//! - [`pass_through`]: the pass-through zones behind losers (000 §5.5).
//! - [`assessment`]: all of the above for a whole table, per rule set
//!   ([`assessment::assess_command`]).

pub mod assessment;
pub mod deployment;
pub mod divisions;
pub mod leaders;
pub mod pass_through;
pub mod reaction;
mod unit_pairs;
