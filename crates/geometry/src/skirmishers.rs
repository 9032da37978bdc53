//! Skirmish marker legality (Republique 5.0 §3.6; Republic 101).
//!
//! "Skirmish markers must remain within 3" of their parent unit. They may not be placed in
//! a position which puts enemy bases between them and their parent unit. In order to count
//! as being in skirmish order, friendly skirmish markers must remain at least 3" away from
//! each other (as measured between bases). Skirmish markers operating less than that
//! distance but greater than one base width apart are considered Packed Skirmishers.
//! Friendly skirmish marker bases may not operate at spacings less than one base width."
//!
//! Readings and tie rules:
//! - Distances are base edge to base edge; exactly 3" from the parent is within, exactly
//!   3" apart is skirmish order, exactly one base width apart is packed (allowed).
//! - "Friendly" markers are every skirmish marker of the same side, whatever its parent.
//!   For two markers of different sizes, "one base width" is the wider of the two.
//! - "Between them and their parent": the convex hull of the marker and the parent's base
//!   closest to it; an enemy combat base or skirmish marker whose interior enters it is
//!   between (touching its edge is not).
//! - Republic cavalry skirmishers (003 101) stay within 6" of a cavalry parent.

use crate::close_call::{CloseCall, distance_call};
use crate::error::GeometryError;
use crate::index::SpatialIndex;
use crate::polygon::{ConvexPolygon, HalfPlane};
use crate::rules::{RuleBook, RuleDistance, RuleSet};
use crate::table::{BaseRef, Table, UnitKind};
use crate::ties::{TIE_MM, at_least, within};
use serde::{Deserialize, Serialize};

/// How a marker stands with its nearest friendly marker.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum Spacing {
    /// At least 3" from every friendly marker: in skirmish order.
    SkirmishOrder,
    /// Closer than 3" to some friendly marker, but not closer than one base width.
    Packed,
    /// Closer than one base width to a friendly marker: not allowed.
    TooClose,
}

/// The verdict on one skirmish marker base.
#[derive(Debug, Clone, PartialEq)]
pub struct MarkerCheck {
    /// The marker base.
    pub marker: BaseRef,
    /// The parent unit's index, when the table names one.
    pub parent: Option<usize>,
    /// Distance to the parent unit, mm.
    pub parent_distance_mm: Option<f64>,
    /// Within reach of the parent (3", or 6" for Republic cavalry skirmishers).
    pub near_parent: bool,
    /// The nearest friendly marker and its distance, mm.
    pub nearest_friend: Option<(BaseRef, f64)>,
    /// Skirmish order, packed or too close.
    pub spacing: Spacing,
    /// Enemy bases between the marker and its parent.
    pub enemy_between: Vec<BaseRef>,
    /// The close call of `near_parent` against the parent reach, with the reach, mm.
    pub parent_call: Option<(f64, CloseCall)>,
    /// The close call of `spacing`: the nearest friendly marker against the nearer of
    /// the skirmish-order spacing and one base width, with that limit, mm; `None` when
    /// no friendly marker is within the spacing and [`SPACING_CALL_REACH_MM`].
    pub spacing_call: Option<(f64, CloseCall)>,
}

impl MarkerCheck {
    /// True when the marker breaks no rule (packed is allowed).
    #[must_use]
    pub fn is_legal(&self) -> bool {
        self.near_parent && self.spacing != Spacing::TooClose && self.enemy_between.is_empty()
    }
}

/// How far beyond the skirmish-order spacing a friendly marker is looked for to give
/// the spacing's close call, mm.
pub const SPACING_CALL_REACH_MM: f64 = 25.4;

/// Checks every skirmish marker base on the table.
///
/// ```
/// use vedette_geometry::{SpatialIndex, Spacing, Table, check_skirmishers};
/// let t = Table::from_json_str(r#"{"schema":"vedette/table/1","rules":"republique5","scale":"medium",
///   "units":[
///     {"id":"r","side":"fr","kind":"infantry","formation":"line","bases":[{"x":0,"y":0,"heading":90,"width":30,"depth":20}]},
///     {"id":"s","side":"fr","kind":"skirmisher","parent":"r","bases":[
///       {"x":-40,"y":50,"heading":90,"width":20,"depth":20},{"x":40,"y":50,"heading":90,"width":20,"depth":20}]}]}"#)?;
/// let c = check_skirmishers(&t, &SpatialIndex::new(&t), &t.rule_book()?)?;
/// // 60 mm apart (2.36"): packed, but legal.
/// assert_eq!(c[0].spacing, Spacing::Packed);
/// assert!(c[0].is_legal());
/// # Ok::<(), vedette_geometry::GeometryError>(())
/// ```
pub fn check_skirmishers(
    table: &Table,
    index: &SpatialIndex,
    book: &RuleBook,
) -> Result<Vec<MarkerCheck>, GeometryError> {
    let spacing_mm = book.distance_mm(RuleDistance::SkirmisherSpacing)?;
    let reach_foot = book.distance_mm(RuleDistance::SkirmisherParent)?;
    let mut out = Vec::new();
    for (ui, u) in table.units.iter().enumerate() {
        if u.kind != UnitKind::Skirmisher {
            continue;
        }
        let parent = u.parent.as_deref().and_then(|p| index.unit_index(p));
        let reach = match parent.map(|p| table.units[p].kind) {
            Some(UnitKind::Cavalry) if book.rules() == RuleSet::Republic => {
                book.distance_mm(RuleDistance::CavalrySkirmisherParent)?
            }
            _ => reach_foot,
        };
        for (bi, m) in u.bases.iter().enumerate() {
            let r = BaseRef::new(ui, bi);
            let closest = parent.and_then(|p| {
                crate::unit_structure::closest_between(std::slice::from_ref(m), &table.units[p].bases)
            });
            let parent_distance_mm = closest.map(|c| c.closest.distance_mm);
            // Friendly markers.
            let mut nearest: Option<(BaseRef, f64)> = None;
            let mut nearest_call: Option<(f64, CloseCall)> = None;
            let mut spacing = Spacing::SkirmishOrder;
            let mut call_distance = f64::INFINITY;
            for n in index.within_of_base(r, spacing_mm + SPACING_CALL_REACH_MM) {
                let o = &table.units[n.base.unit];
                if o.kind != UnitKind::Skirmisher || index.are_enemies(ui, n.base.unit) {
                    continue;
                }
                let d = n.closest.distance_mm;
                let width = table.base(n.base).map_or(m.width(), |ob| ob.width().max(m.width()));
                if d < call_distance {
                    call_distance = d;
                    let limit = if (d - width).abs() < (d - spacing_mm).abs() { width } else { spacing_mm };
                    nearest_call = Some((limit, distance_call(table, r, n.base, &n.closest, limit)));
                }
                if d > spacing_mm + 1.0 {
                    continue;
                }
                if nearest.is_none_or(|(_, b)| d < b) {
                    nearest = Some((n.base, d));
                }
                let s = if !at_least(d, width) {
                    Spacing::TooClose
                } else if !at_least(d, spacing_mm) {
                    Spacing::Packed
                } else {
                    Spacing::SkirmishOrder
                };
                spacing = spacing.max(s);
            }
            // Enemies between the marker and its parent's closest base.
            let mut enemy_between = Vec::new();
            if let (Some(p), Some(c)) = (parent, closest) {
                let pb = &table.units[p].bases[c.to_base];
                let mut pts: Vec<crate::vec2::Vec2> = m.vertices_ccw().to_vec();
                pts.extend(pb.vertices_ccw());
                let hull = ConvexPolygon::hull(&pts);
                let planes: Vec<HalfPlane> =
                    hull.half_planes().into_iter().map(|h| crate::convex::inset(h, TIE_MM)).collect();
                let radius = c.closest.distance_mm + m.width() + m.depth() + pb.width() + pb.depth();
                for n in index.within_of_base(r, radius) {
                    let e = &table.units[n.base.unit];
                    if !index.are_enemies(ui, n.base.unit)
                        || !(e.is_combat() || e.kind == UnitKind::Skirmisher)
                    {
                        continue;
                    }
                    let Some(eb) = table.base(n.base) else { continue };
                    let inside = ConvexPolygon::from_half_planes(&eb.polygon(), &planes);
                    if !inside.is_empty() && inside.area() > 0.0 {
                        enemy_between.push(n.base);
                    }
                }
            }
            out.push(MarkerCheck {
                marker: r,
                parent,
                parent_distance_mm,
                near_parent: parent_distance_mm.is_some_and(|d| within(d, reach)),
                nearest_friend: nearest,
                spacing,
                enemy_between,
                parent_call: parent.zip(closest).map(|(p, c)| {
                    (reach, distance_call(table, r, BaseRef::new(p, c.to_base), &c.closest, reach))
                }),
                spacing_call: nearest_call,
            });
        }
    }
    Ok(out)
}
