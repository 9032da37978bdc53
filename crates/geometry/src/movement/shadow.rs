//! Republic artillery deployment shadows (003 305): "horse artillery may not unlimber and
//! fire within the bonus assault movement path of cavalry units (it may unlimber and not
//! fire). This would primarily apply to artillery attempting to set-up and fire to either
//! side of the advancing cavalry. If the artillery sets-up to fire forward in direct
//! support of the cavalry, it is not limited by this rule."
//!
//! Readings (one place each):
//! - **The bonus assault movement path** of a cavalry move: the ground its bases swept
//!   over the part of the move paid from the assault bonus, the part beyond its normal
//!   allowance (the bonus is spent last). Only a move knows it: `vedette move` on the
//!   cavalry answers it; a table alone (the report) cannot.
//! - **Within** it: a battery of the cavalry's side, not limbered, whose base the swept
//!   bases reach into by more than [`TOUCHING_MM`].
//! - **Firing forward in direct support**: the battery faces within 45° of the
//!   cavalry's final facing (the 45° that separates an advance from a change of
//!   direction, 000 §3.3): it fires the way the cavalry charged, not across its path.
//! - The table does not say which batteries are horse artillery: every battery in the
//!   path is named, and the players say which are horse batteries.

use super::sweep::{BaseMotion, cut_points, path_parts};
use crate::table::{Formation, Table, UnitKind};
use crate::ties::TOUCHING_MM;
use crate::vec2::Vec2;

/// The largest angle between a battery's facing and the cavalry's at which the battery
/// fires forward in support (000 §3.3's 45°).
pub const FORWARD_SUPPORT_DEG: f64 = 45.0;

/// A battery in a cavalry's bonus assault movement path.
#[derive(Debug, Clone, PartialEq)]
pub struct DeploymentShadow {
    /// The battery's unit index (in the table after the move).
    pub battery: usize,
    /// Where on the path it is first reached, a fraction.
    pub at: f64,
    /// It faces within 45° of the cavalry's final facing: it may fire forward in direct
    /// support; otherwise it may unlimber there but not fire this turn.
    pub fires_forward: bool,
}

/// The batteries of `after`'s unit `cavalry`'s side in the path its bases swept (their
/// `motions`) from fraction `bonus_from` to the end, facing `facing` at the end.
#[must_use]
pub fn deployment_shadows(
    after: &Table,
    cavalry: usize,
    motions: &[BaseMotion],
    bonus_from: f64,
    facing: Vec2,
) -> Vec<DeploymentShadow> {
    let Some(cav) = after.units.get(cavalry) else { return Vec::new() };
    let insets: Vec<BaseMotion> = motions.iter().map(|m| m.inset(TOUCHING_MM)).collect();
    let boxes: Vec<(Vec2, Vec2)> = motions.iter().map(BaseMotion::swept_box).collect();
    let mut out = Vec::new();
    for (i, u) in after.units.iter().enumerate() {
        if i == cavalry
            || u.side != cav.side
            || u.kind != UnitKind::Artillery
            || u.formation == Some(Formation::Limbered)
        {
            continue;
        }
        let mut first: Option<f64> = None;
        for b in &u.bases {
            let (lo, hi) = b.aabb();
            let edges = b.edges();
            for (k, m) in insets.iter().enumerate() {
                if !crate::convex::boxes_meet(boxes[k], (lo, hi)) {
                    continue;
                }
                let mut ev = vec![bonus_from];
                m.events(&edges, &mut ev);
                for (from, to) in path_parts(&cut_points(ev)) {
                    if to <= bonus_from {
                        continue;
                    }
                    let at = m.at((from + to) / 2.0);
                    if at.width() > 0.0
                        && at.depth() > 0.0
                        && b.polygon().intersection(&at.polygon()).area() > 1e-9
                    {
                        first = Some(first.map_or(from, |f: f64| f.min(from)));
                        break;
                    }
                }
            }
        }
        if let Some(at) = first {
            let f = u.bases.iter().fold(Vec2::ZERO, |s, b| s + b.forward());
            let angle = f.cross(facing).atan2(f.dot(facing)).to_degrees().abs();
            out.push(DeploymentShadow { battery: i, at, fires_forward: angle <= FORWARD_SUPPORT_DEG + 1e-9 });
        }
    }
    out
}
