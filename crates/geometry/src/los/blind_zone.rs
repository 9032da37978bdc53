//! Blind zones behind blocking terrain (Republic rule 601, seed 003).
//!
//! > Establish the Level of the blocking terrain in relation to the spotting unit. If the
//! > blocking terrain is at the same level or higher than the spotting unit, the blind
//! > zone goes to infinity. [...] Multiply the appropriate multiple by the distance from
//! > the spotting unit to the furthest point of the blocking terrain along the
//! > line-of-sight [...]. The blind zone chart is "set" for an obstacle which is ½ level
//! > higher than the surface it obstructs. The blind zone will increase by 50% for each
//! > additional ½ level lower that the obstructed "target" surface rests.
//!
//! | spotter above the blocker | multiple |
//! |---|---|
//! | same or lower | infinity |
//! | ½ level | 1 |
//! | 1 level | ½ |
//! | 1½ levels | ¼ |
//!
//! # Readings (where the text is silent)
//! - Beyond 1½ levels the chart's halving goes on (2 levels ⅛, ...).
//! - "+50% for each additional ½ level" adds 50% of the chart value per half level
//!   (1 + ½k), as GEOMETRY.md reads it, not compound growth.
//! - A blocker does not obstruct a target surface above its top; a surface level with its
//!   top is obstructed only when the spotter is lower than the top (the sight line then
//!   passes below the top edge).
//!
//! # The blind zone as a fraction of the sight line
//! With D the distance from the spotting point to the blocker's far edge and `m` the
//! multiple, a target point at distance X is hidden when X < (1 + m)·D, that is exactly
//! when the blocker reaches into the last `m / (1 + m)` of the sight segment (the part
//! nearest the target). [`BlindZone::final_fraction`] gives that fraction; an infinite
//! zone is the whole segment (an ordinary blocker).

use crate::segment::Segment;
use crate::vec2::Vec2;

/// The blind zone a blocker casts over a target surface, for one spotter.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum BlindZone {
    /// The blocker does not obstruct that surface.
    None,
    /// Everything behind the blocker is hidden (blocker at or above the spotter's level).
    Infinite,
    /// Hidden up to `multiple` × (distance from spotter to the blocker's far edge)
    /// behind the blocker.
    Multiple(f64),
}

impl BlindZone {
    /// The blind zone for levels in half-level steps: the spotter's ground level, the
    /// top of the blocking terrain, the level of the target's surface.
    ///
    /// ```
    /// use vedette_geometry::los::BlindZone;
    /// // Spotter on a 1-level hill, a wood (top ½) on the plain, target on the plain.
    /// assert_eq!(BlindZone::new(1.0, 0.5, 0.0), BlindZone::Multiple(1.0));
    /// // Target in a valley half a level lower still: +50%.
    /// assert_eq!(BlindZone::new(1.5, 1.0, 0.0), BlindZone::Multiple(1.5));
    /// // The blocker as high as the spotter: no end to the zone.
    /// assert_eq!(BlindZone::new(0.0, 0.5, 0.0), BlindZone::Infinite);
    /// ```
    #[must_use]
    pub fn new(spotter_level: f64, blocker_top: f64, target_level: f64) -> BlindZone {
        if target_level > blocker_top || (target_level == blocker_top && spotter_level >= blocker_top) {
            return BlindZone::None;
        }
        if blocker_top >= spotter_level {
            return BlindZone::Infinite;
        }
        let above = spotter_level - blocker_top;
        let below = blocker_top - target_level;
        BlindZone::Multiple(chart_multiple(above) * extra_depth_factor(below))
    }

    /// The fraction of the sight segment, at its target end, that the blocker must not
    /// reach into: `m / (1 + m)`, 1 for an infinite zone, 0 when nothing is obstructed.
    #[must_use]
    pub fn final_fraction(&self) -> f64 {
        match *self {
            BlindZone::None => 0.0,
            BlindZone::Infinite => 1.0,
            BlindZone::Multiple(m) => m / (1.0 + m),
        }
    }
}

/// The blind zone a blocker casts along one sight line (003 601): from `far_edge`, the
/// farthest point of the blocker along the line from `eye`, to `multiple` times the
/// distance from the eye to that point beyond it. A target point of the line is hidden
/// when it lies in this stretch (the reading of [`BlindZone::final_fraction`]); a
/// picture draws it.
///
/// ```
/// use vedette_geometry::Vec2;
/// use vedette_geometry::los::blind_zone_on_line;
/// // The wood's far edge 100 mm from the eye, multiple ½: hidden up to 150 mm.
/// let z = blind_zone_on_line(Vec2::new(0.0, 0.0), Vec2::new(100.0, 0.0), 0.5);
/// assert_eq!((z.a, z.b), (Vec2::new(100.0, 0.0), Vec2::new(150.0, 0.0)));
/// ```
#[must_use]
pub fn blind_zone_on_line(eye: Vec2, far_edge: Vec2, multiple: f64) -> Segment {
    Segment::new(far_edge, far_edge + (far_edge - eye) * multiple)
}

/// The 601 chart: the multiple when the spotter stands `above` levels over the blocker
/// (½ → 1, 1 → ½, 1½ → ¼, halving on past the chart).
#[must_use]
pub fn chart_multiple(above: f64) -> f64 {
    let steps = (above / 0.5).round().max(1.0);
    0.5f64.powf(steps - 1.0)
}

/// The factor for a target surface `below` levels under the blocker's top: the chart is
/// set for ½ level; each further half level adds 50% (1 + ½k).
#[must_use]
pub fn extra_depth_factor(below: f64) -> f64 {
    let extra = ((below / 0.5).round() - 1.0).max(0.0);
    1.0 + 0.5 * extra
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_601_chart_rows() {
        // Blocker (a wood, top ½) on the plain, target on the plain: the chart as set.
        assert_eq!(BlindZone::new(0.5, 0.5, 0.0), BlindZone::Infinite);
        assert_eq!(BlindZone::new(1.0, 0.5, 0.0), BlindZone::Multiple(1.0));
        assert_eq!(BlindZone::new(1.5, 0.5, 0.0), BlindZone::Multiple(0.5));
        assert_eq!(BlindZone::new(2.0, 0.5, 0.0), BlindZone::Multiple(0.25));
        assert_eq!(BlindZone::new(0.0, 0.5, 0.0), BlindZone::Infinite);
        // Target a further half level down: +50%; a further level: +100%.
        assert_eq!(BlindZone::new(2.0, 1.0, 0.0), BlindZone::Multiple(0.75));
        assert_eq!(BlindZone::new(2.5, 1.5, 0.0), BlindZone::Multiple(1.0));
        // Target surface above the blocker's top: not obstructed.
        assert_eq!(BlindZone::new(1.0, 0.5, 1.0), BlindZone::None);
        // Level with the top: obstructed only from below.
        assert_eq!(BlindZone::new(0.0, 1.0, 1.0), BlindZone::Infinite);
        assert_eq!(BlindZone::new(1.5, 1.0, 1.0), BlindZone::None);
    }

    #[test]
    fn final_fractions() {
        assert_eq!(BlindZone::Multiple(1.0).final_fraction(), 0.5);
        assert_eq!(BlindZone::Multiple(0.25).final_fraction(), 0.2);
        assert_eq!(BlindZone::Infinite.final_fraction(), 1.0);
        assert_eq!(BlindZone::None.final_fraction(), 0.0);
    }
}
