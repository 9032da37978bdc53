//! # vedette-draw
//!
//! Pictures of vedette's verdicts: the rule geometry the library decides with, drawn on
//! a plan of the table (SVG, in table millimetres) or, through a camera model, over the
//! photo. Depends on `vedette-geometry` only; every zone, arc and line drawn is the
//! library's own construction, taken from the verdict structures or from the function
//! the verdict used.
//!
//! ## What it offers
//! - The scene model ([`scene`]): [`Scene`] of [`Layer`]s ([`LayerId`]: one SVG group
//!   each, toggleable), [`Element`]s with an id, a style class, a [`Shape`] in table
//!   millimetres and a [`Height`] (table or base top), and a legend.
//! - Projections ([`projection`]): the [`Projection`] trait (table point and height to
//!   output point) and the plan view [`PlanView`].
//! - The SVG writer ([`svg`]): [`write_svg`], two decimals, escaped text, labels kept
//!   from overlapping ([`labels`]: leader lines when pushed out, on hover when no place
//!   is free).
//! - Colours ([`style`]): the Okabe-Ito palette, sides coloured in name order.
//! - The table as a scene ([`plan`]): [`table_scene`], [`plan_svg`].
//! - The findings drawn ([`findings`]): artillery, assault, command (adjoining
//!   divisions too), skirmishers, sight, spotting depth and blind zones, measurements
//!   (with their uncertainty on scanned tables, [`findings::measured_words`]), a move
//!   and its charge part by part ([`findings::movement`]), forced marches, catching
//!   charges and road columns ([`findings::march`]); the
//!   report's plan ([`report`]: [`report_scene`]).
//! - The questions about one pair answered in words with a picture ([`explain`]).
//! - Verdict captions ([`caption`]): a headline that answers one question and its
//!   lines with their rule sections and close calls, serialisable (the phone page's card)
//!   and drawn as the band every picture of one question starts with; [`pair_verdict`]:
//!   the card for two units in one call.
//! - Errors: [`DrawError`].

#![deny(missing_docs)]

pub mod caption;
mod error;
pub mod explain;
pub mod findings;
pub mod labels;
pub mod plan;
pub mod projection;
pub mod report;
pub mod scene;
pub mod style;
pub mod svg;
pub mod unplaced;

pub use caption::{Caption, CaptionLine, Topic, pair_verdict};
pub use error::DrawError;
pub use plan::{plan_svg, plan_view, table_scene};
pub use projection::{Framed, PlanView, Projection};
pub use report::{LayerChoice, ReportFindings, choose_layers, detail_ids, mark_details, report_scene};
pub use scene::{
    Align, Element, Height, Layer, LayerId, LegendEntry, Mark, Placement, Scene, Shape, finding_key,
};
pub use svg::{SvgOptions, write_svg};
pub use unplaced::{Unplaced, add_unplaced, unplaced_note};
