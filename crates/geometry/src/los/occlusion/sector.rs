//! [`Sector`]: the directions from the eye's centre a cell or unit spans, to pass over
//! what no sample can see.

use super::span::{Span, span_and_distance_2};
use crate::convex::point_distance_2;
use crate::vec2::Vec2;

/// A range of directions seen from the eye's centre (pseudo-angles, `lo ≤ hi`), or
/// every direction.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Sector {
    All,
    Range(f64, f64),
}

impl Sector {
    /// The pseudo-angle range of a shape from `c`, widened for an eye of half-width
    /// `half_eye` (so that it holds the shape's range from every eye point); `None` for
    /// every direction.
    pub(super) fn of(c: Vec2, half_eye: f64, shape: &[Vec2]) -> Option<(f64, f64)> {
        Sector::of_at(c, half_eye, shape).1
    }

    /// The squared distance of the shape from `c` (as [`point_distance_2`]) and its
    /// range ([`Self::of`]), from one pass over its edges.
    pub(super) fn of_at(c: Vec2, half_eye: f64, shape: &[Vec2]) -> (f64, Option<(f64, f64)>) {
        let (sp, d2) = span_and_distance_2(c, shape);
        Sector::of_span(c, half_eye, shape, sp, d2)
    }

    /// [`Self::of_at`], given the shape's span and squared distance from `c`
    /// ([`span_and_distance_2`]).
    pub(super) fn of_span(
        c: Vec2,
        half_eye: f64,
        shape: &[Vec2],
        sp: Span,
        d2: f64,
    ) -> (f64, Option<(f64, f64)>) {
        let d = d2.sqrt();
        let Span::Range(lo, hi) = sp else { return (point_distance_2(c, shape), None) };
        if d <= 2.0 * half_eye {
            return (d2, None);
        }
        let x = half_eye / d;
        let widen = x / (1.0 - x * x).sqrt() + 1e-9;
        (d2, (hi - lo + 2.0 * widen < 4.0).then_some((lo - widen, hi + widen)))
    }

    /// The smallest range holding the ranges of all the shapes.
    pub(super) fn around(shape_ranges: impl Iterator<Item = Option<(f64, f64)>>) -> Sector {
        let mut ranges: Vec<(f64, f64)> = Vec::new();
        for r in shape_ranges {
            match r {
                Some((lo, hi)) => {
                    let lo2 = lo.rem_euclid(4.0);
                    ranges.push((lo2, lo2 + (hi - lo)));
                }
                None => return Sector::All,
            }
        }
        if ranges.is_empty() {
            return Sector::Range(0.0, 0.0);
        }
        ranges.sort_by(|a, b| a.0.total_cmp(&b.0));
        // Merge, then leave out the widest gap between merged ranges (round the turn).
        let mut merged: Vec<(f64, f64)> = Vec::new();
        for r in ranges {
            match merged.last_mut() {
                Some(m) if r.0 <= m.1 => m.1 = m.1.max(r.1),
                _ => merged.push(r),
            }
        }
        let first = merged[0];
        let last = *merged.last().unwrap_or(&first);
        // The gap round the turn, from the last range's end to the first's start.
        let mut best_gap = first.0 + 4.0 - last.1;
        let mut sector = (first.0, last.1);
        for w in merged.windows(2) {
            let gap = w[1].0 - w[0].1;
            if gap > best_gap {
                best_gap = gap;
                sector = (w[1].0, w[0].1 + 4.0);
            }
        }
        if best_gap <= 0.0 { Sector::All } else { Sector::Range(sector.0, sector.1) }
    }

    /// True when the shape's range (widened for the eye) meets the sector.
    pub(super) fn meets(&self, c: Vec2, half_eye: f64, shape: &[Vec2]) -> bool {
        matches!(self, Sector::All) || self.meets_range(Sector::of(c, half_eye, shape))
    }

    /// [`Self::meets`], given the shape's range ([`Self::of`]).
    pub(super) fn meets_range(&self, range: Option<(f64, f64)>) -> bool {
        let Sector::Range(lo, hi) = *self else { return true };
        let Some((a, b)) = range else { return true };
        // Compare on the circle: shift the shape's range by whole turns next to the sector.
        let shift = ((lo - a) / 4.0).round() * 4.0;
        [-4.0, 0.0, 4.0].iter().any(|k| a + shift + k <= hi && b + shift + k >= lo)
    }
}
