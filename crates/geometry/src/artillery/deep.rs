//! Deep targets (000 §4.3 A-B): "Move one range column to the left if: A) The battery's
//! center of fire passes into or through three or more combat bases as measured from
//! the leading edge of the target base to a depth of 4". The target bases do not need to
//! belong to the same unit, but must all be in open terrain and within natural
//! (unmodified) effective artillery range, and/or B) The targeted infantry unit is in
//! square formation. The deep target modifier is cumulative".
//!
//! "Point Blank Fire - When firing on a target in the first or second range bracket (2"
//! or 4"), the deep target modifier can only apply to the next range bracket out. For
//! example: If the range to a target's front is 3", the deep target modifier is only
//! applied if the three base depth lines-up at less than 6" range, instead of extending
//! to 7"."
//!
//! # The walk
//! Along the aimed centre of fire ([`crate::aim_at`]): the **target base** is the first
//! base of the main target the centre of fire passes into, and the window starts where
//! it enters that base (its leading edge) and runs 4" along the centre of fire. At
//! point blank (the main target in bracket 1 or 2) the window also ends where the range
//! from the frontage reaches the far edge of the next bracket out (4" or 6").
//!
//! Counted: every enemy combat base (of any unit) whose interior the centre of fire
//! passes into within the window, that is in open terrain, within maximum range and not
//! on the far side of an obstacle ([`crate::OpenGround`]). Tie rules: a base the centre
//! of fire only grazes (a corner or an edge) is not passed into; a base whose leading
//! edge lies exactly at the window's end is not reached. The target is deep by its bases
//! when three or more are counted and the target base is one of them ("not applicable to
//! targets in woods, buildings or on the far side of obstacles").
//!
//! Squares (000 §1.4, §4.3 B) and Republic breakthrough columns (003 §103) are deep
//! whatever the walk finds, and the square stacks with the walk ("a firing battery can
//! stack passing through three bases with firing at square").

use crate::artillery::battery::{Battery, Battlefield};
use crate::artillery::enfilade::StandingExposure;
use crate::artillery::range::{
    bracket_far_edge_mm, range_to_base_mm, ray_parameter_at_range, within_max_range,
};
use crate::artillery::targets::TargetAssessment;
use crate::base::CONTACT_TOLERANCE_MM;
use crate::segment::Segment;
use crate::table::BaseRef;
use crate::vec2::Vec2;

/// Fire on a target in this bracket or a closer one is point blank: its deep window
/// ends at the far edge of the next bracket out (000 §4.3: "When firing on a target in
/// the first or second range bracket (2" or 4")").
pub const POINT_BLANK_BRACKETS: u32 = 2;

/// Why a target is deep.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DeepReason {
    /// The centre of fire passes into three or more bases within the window (§4.3 A).
    Bases,
    /// The unit's formation makes it deep (§4.3 B, 003 §103).
    Standing(StandingExposure),
}

/// The deep-target verdict for a battery's main target.
#[derive(Debug, Clone, PartialEq)]
pub struct DeepTarget {
    /// Every reason it is deep (the modifier is cumulative); empty when it is not.
    pub reasons: Vec<DeepReason>,
    /// The bases that made it deep by the walk (empty unless [`DeepReason::Bases`]).
    pub deep_bases: Vec<BaseRef>,
    /// The counted bases the centre of fire passes into within the window, in order.
    pub window_bases: Vec<BaseRef>,
    /// Enemy combat bases passed into within the window but not counted (in cover,
    /// beyond an obstacle or past maximum range).
    pub excluded_bases: Vec<BaseRef>,
    /// True when the point-blank limit shortened the window.
    pub point_blank: bool,
    /// The window along the centre of fire, from the target base's leading edge.
    pub window: Option<Segment>,
}

impl DeepTarget {
    /// True when the target is deep for any reason.
    #[must_use]
    pub fn is_deep(&self) -> bool {
        !self.reasons.is_empty()
    }
}

/// The parameter interval along `origin + t * dir` inside a convex polygon (vertices
/// counter-clockwise), or `None` when the line misses it.
#[must_use]
pub(crate) fn ray_chord(origin: Vec2, dir: Vec2, polygon: &[Vec2]) -> Option<(f64, f64)> {
    let n = polygon.len();
    let (mut lo, mut hi) = (f64::NEG_INFINITY, f64::INFINITY);
    for i in 0..n {
        let a = polygon[i];
        let e = polygon[(i + 1) % n] - a;
        // Inside: e × (origin + t dir - a) >= 0.
        let num = e.cross(origin - a);
        let den = e.cross(dir);
        if den == 0.0 {
            if num < 0.0 {
                return None;
            }
        } else if den > 0.0 {
            lo = lo.max(-num / den);
        } else {
            hi = hi.min(-num / den);
        }
    }
    (lo < hi).then_some((lo, hi))
}

/// Where the deep window ends along the centre of fire, and whether point blank cut it:
/// `t0` is where the centre of fire enters the target base, `bracket` the main
/// target's range bracket.
#[must_use]
pub fn deep_window_end(
    field: &Battlefield<'_>,
    battery: &Battery,
    dir: Vec2,
    t0: f64,
    bracket: u32,
) -> (f64, bool) {
    let full = t0 + field.rules.deep_window_mm;
    if bracket > POINT_BLANK_BRACKETS {
        return (full, false);
    }
    let limit = bracket_far_edge_mm(bracket + 1, field.rules.bracket_mm);
    let t_pb = ray_parameter_at_range(&battery.frontage.edge, battery.muzzle(), dir, limit);
    if t_pb < full { (t_pb, true) } else { (full, false) }
}

/// The deep-target verdict for fire on `main` along the swing `aim_swing_deg`.
#[must_use]
pub fn deep_target(
    field: &Battlefield<'_>,
    battery: &Battery,
    main: &TargetAssessment,
    aim_swing_deg: f64,
) -> DeepTarget {
    let table = field.table;
    let mut out = DeepTarget {
        reasons: Vec::new(),
        deep_bases: Vec::new(),
        window_bases: Vec::new(),
        excluded_bases: Vec::new(),
        point_blank: false,
        window: None,
    };
    let m = battery.muzzle();
    let dir = battery.forward().rotated_deg(aim_swing_deg);
    let passes = |b: &crate::base::Base| -> Option<(f64, f64)> {
        let (tin, tout) = ray_chord(m, dir, &b.vertices_ccw())?;
        (tout - tin.max(0.0) > CONTACT_TOLERANCE_MM).then_some((tin.max(0.0), tout))
    };
    let target_unit = &table.units[main.unit];
    let entry = main
        .bases
        .iter()
        .filter_map(|&bi| target_unit.bases.get(bi).and_then(&passes).map(|(tin, _)| (tin, bi)))
        .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    if let Some((t0, target_base)) = entry {
        let (t1, point_blank) = deep_window_end(field, battery, dir, t0, main.bracket);
        out.point_blank = point_blank;
        let (p0, p1) = (m + dir * t0, m + dir * t1);
        out.window = Some(Segment::new(p0, p1));
        let lo = Vec2::new(p0.x.min(p1.x), p0.y.min(p1.y));
        let hi = Vec2::new(p0.x.max(p1.x), p0.y.max(p1.y));
        let mut entered: Vec<(f64, BaseRef)> = Vec::new();
        for r in field.index.bases_in_box(lo, hi) {
            let u = &table.units[r.unit];
            if !u.is_combat() || !field.index.are_enemies(battery.base_ref.unit, r.unit) {
                continue;
            }
            let Some(b) = table.base(r) else { continue };
            let Some((tin, tout)) = passes(b) else { continue };
            let (from, to) = (tin.max(t0), tout.min(t1));
            if to - from > CONTACT_TOLERANCE_MM {
                entered.push((from, r));
            }
        }
        entered.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        let target_ref = BaseRef::new(main.unit, target_base);
        for (t, r) in entered {
            let counts = table.base(r).is_some_and(|b| {
                within_max_range(range_to_base_mm(&battery.frontage.edge, b), battery.max_range_mm)
            }) && field.ground.base_in_open(table, r)
                && !field.ground.obstacle_between(table, m, m + dir * t);
            if counts {
                out.window_bases.push(r);
            } else {
                out.excluded_bases.push(r);
            }
        }
        if out.window_bases.len() >= 3 && out.window_bases.contains(&target_ref) {
            out.reasons.push(DeepReason::Bases);
            out.deep_bases = out.window_bases.clone();
        }
    }
    if let Some(s) = StandingExposure::of(target_unit) {
        out.reasons.push(DeepReason::Standing(s));
    }
    out
}
