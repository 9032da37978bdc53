//! Pro Patria! (seed 004): firing arcs, contact and no-approach, the endangered-friendly
//! corridor, command radius, the bombardment box and charge impulse helpers. Distances
//! come from the rule book's paired 25/28 mm and 15 mm table.
//!
//! - [`arcs`]: 22½° firing arcs, 180° for skirmishers (§17.3).
//! - [`contact`]: 30 mm (20) of edge contact; 25 mm (15) no-approach (§17.4, §17.4.2).
//! - [`corridor`]: endangered friendly troops (§17.3.8).
//! - [`command`]: command radius 400 mm (250) (§14.2).
//! - [`bombardment`]: the massed-battery box (§19.6).
//! - [`crest`]: hills' crest lines and the units that must declare behind or over (§15.1).
//! - [`charge`]: impulse distances (§17.2.3, §17.4.2, §17.4.10, §13.4), who may charge
//!   whom (§17.2.4) and the enemies a unit would catch charging now.
//! - [`forced_march`]: forced marches and the 300 mm (180) clearance (§17.4.5).
//! - [`assessment`]: all of it for a table ([`assessment::assess_pro_patria`]).

pub mod arcs;
pub mod assessment;
pub mod bombardment;
pub mod bounce;
pub mod charge;
pub mod command;
pub mod contact;
pub mod corridor;
pub mod crest;
pub mod forced_march;
