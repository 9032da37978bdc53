//! Battery frontage (000 §1.4, §4.5): normal (double the base width, centred on the
//! base) or packed (the base width), decided from the free space beside the battery or
//! forced by the table file.
//!
//! 000 §1.4: "at normal frontage, a battery maintains an open space to both sides equal
//! to half its base width"; §4.5: "The default assumption is if the battery has been
//! placed on the field with enough open space to either side to allow for normal
//! frontage deployment, that the battery has automatically used that space."
//!
//! # The free-space test
//! Beside each side edge of the battery base lies a strip half a base width wide and
//! as deep as the base ([`side_strips`]). The battery is at normal frontage when no
//! other base reaches into either strip's interior ([`crowding_bases`]). Tie rule: a
//! base that only touches a strip's outer edge (a gap of exactly half a base width)
//! leaves the space free.
//!
//! Which bases crowd: every base of every other unit, friend or enemy, including marker
//! bases (leaders, skirmishers, other batteries' limbers) and the other bases of a
//! massed battery; not the battery's own attachments (units whose `parent` is the
//! battery, such as its limber) and not status markers (cubes), which are bookkeeping
//! tokens rather than troops on the ground.

use crate::base::{Base, BaseSize, Pose};
use crate::index::SpatialIndex;
use crate::segment::Segment;
use crate::table::{BaseRef, FrontageMode, Table};

/// Where a battery's frontage mode came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FrontageSource {
    /// The table file forces it (the unit's `frontage` field).
    Table,
    /// Decided from the free space beside the battery.
    FreeSpace,
}

/// A battery's frontage: its mode and the edge it fires from.
#[derive(Debug, Clone, PartialEq)]
pub struct BatteryFrontage {
    /// Normal or packed.
    pub mode: FrontageMode,
    /// Forced by the table or decided from the free space.
    pub source: FrontageSource,
    /// The frontage edge, from its left end to its right end as the battery faces:
    /// the front edge of the base, at double width when normal.
    pub edge: Segment,
    /// The bases reaching into the free space beside the battery (empty when it is
    /// free), whatever the source.
    pub crowded_by: Vec<BaseRef>,
}

/// The frontage edge of a battery base in a given mode: the front edge, centred on the
/// base, doubled in length at normal frontage.
///
/// ```
/// use vedette_geometry::{Base, BaseSize, FrontageMode, Pose, Vec2, frontage_edge};
/// let gun = Base::new(BaseSize::new(25.0, 40.0), Pose::new(Vec2::new(0.0, 0.0), 90.0));
/// let normal = frontage_edge(&gun, FrontageMode::Normal);
/// assert!((normal.length() - 50.0).abs() < 1e-12 && (normal.a.x + 25.0).abs() < 1e-12);
/// assert!((frontage_edge(&gun, FrontageMode::Packed).length() - 25.0).abs() < 1e-12);
/// ```
#[must_use]
pub fn frontage_edge(base: &Base, mode: FrontageMode) -> Segment {
    let front = base.front_edge();
    match mode {
        FrontageMode::Packed => front,
        FrontageMode::Normal => {
            let half = base.right() * (base.width() / 2.0);
            Segment::new(front.a - half, front.b + half)
        }
    }
}

/// The two strips of free space a normal-frontage battery keeps beside it (left, then
/// right, as the battery faces): half a base width wide, as deep as the base.
#[must_use]
pub fn side_strips(base: &Base) -> [Base; 2] {
    let w = base.width();
    let size = BaseSize::new(w / 2.0, base.depth());
    let offset = base.right() * (0.75 * w);
    let strip = |centre| Base::new(size, Pose::new(centre, base.heading_deg()));
    [strip(base.centre() - offset), strip(base.centre() + offset)]
}

/// The bases that reach into the interior of the free space beside battery base `r`,
/// sorted (see the module documentation for which bases count).
#[must_use]
pub fn crowding_bases(table: &Table, index: &SpatialIndex<'_>, r: BaseRef) -> Vec<BaseRef> {
    let Some(battery) = table.base(r) else { return Vec::new() };
    let own_id = &table.units[r.unit].id;
    let mut out = Vec::new();
    for strip in side_strips(battery) {
        let (lo, hi) = strip.aabb();
        for o in index.bases_in_box(lo, hi) {
            if o == r || table.units[o.unit].parent.as_deref() == Some(own_id.as_str()) {
                continue;
            }
            if table.base(o).is_some_and(|b| strip.overlaps(b)) && !out.contains(&o) {
                out.push(o);
            }
        }
    }
    out.sort();
    out
}

/// The frontage of battery base `r`: the table's `frontage` field when set, otherwise
/// normal exactly when the free space beside it is empty. `None` when `r` is not a base
/// of the table.
#[must_use]
pub fn battery_frontage(table: &Table, index: &SpatialIndex<'_>, r: BaseRef) -> Option<BatteryFrontage> {
    let base = table.base(r)?;
    let crowded_by = crowding_bases(table, index, r);
    let (mode, source) = match table.units[r.unit].frontage {
        Some(mode) => (mode, FrontageSource::Table),
        None if crowded_by.is_empty() => (FrontageMode::Normal, FrontageSource::FreeSpace),
        None => (FrontageMode::Packed, FrontageSource::FreeSpace),
    };
    Some(BatteryFrontage { mode, source, edge: frontage_edge(base, mode), crowded_by })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vec2::Vec2;
    use approx::assert_abs_diff_eq;

    #[test]
    fn strips_sit_beside_the_base() {
        // A 25 x 40 gun facing +x: its right is -y, so the right strip is below it.
        let gun = Base::new(BaseSize::new(25.0, 40.0), Pose::new(Vec2::new(0.0, 0.0), 0.0));
        let [left, right] = side_strips(&gun);
        assert_abs_diff_eq!(left.centre(), Vec2::new(0.0, 18.75), epsilon = 1e-12);
        assert_abs_diff_eq!(right.centre(), Vec2::new(0.0, -18.75), epsilon = 1e-12);
        assert_eq!((left.width(), left.depth()), (12.5, 40.0));
        // Normal frontage runs from the left strip's outer edge to the right one's.
        let e = frontage_edge(&gun, FrontageMode::Normal);
        assert_abs_diff_eq!(e.a, Vec2::new(20.0, 25.0), epsilon = 1e-12);
        assert_abs_diff_eq!(e.b, Vec2::new(20.0, -25.0), epsilon = 1e-12);
    }
}
