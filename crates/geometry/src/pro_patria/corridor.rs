//! Endangering friendly troops (004 §17.3.8): "Units are Endangered if any part of their
//! stand crosses a parallel line from the front corners of firing stand to the target.
//! There is a rectangular zone (effectively) between firer and target ... Stands cannot
//! fire if friendly troops are endangered."
//!
//! The corridor is a [`FrontageCone`] with both sides parallel: from the firing stand's
//! front corners toward the target (the direction from the front-edge middle to the
//! target's nearest point), ending where the target begins. A friendly stand whose
//! interior enters it is endangered (touching a line is not crossing it). The elevated
//! fire exception (§17.3.7: only friends within 100 mm of the target, firing from a high
//! hill) needs hill levels and is left to the line-of-sight work.

use crate::base::Base;
use crate::cone::FrontageCone;
use crate::index::SpatialIndex;
use crate::polygon::{ConvexPolygon, HalfPlane};
use crate::table::Table;
use crate::ties::{TIE_MM, within};

/// The corridor from a firing stand to a target stand as a polygon; `None` when the
/// target is not ahead of the stand's front edge.
///
/// ```
/// use vedette_geometry::{Base, BaseSize, Pose, Vec2};
/// use vedette_geometry::pro_patria::corridor::corridor;
/// let firer = Base::new(BaseSize::new(60.0, 20.0), Pose::new(Vec2::new(0.0, 0.0), 90.0));
/// let target = Base::new(BaseSize::new(60.0, 20.0), Pose::new(Vec2::new(0.0, 220.0), 270.0));
/// let c = corridor(&firer, &target).unwrap();
/// // 60 mm wide, from the front edge (y = 10) to the target's front edge (y = 210).
/// assert!((c.area() - 60.0 * 200.0).abs() < 1e-6);
/// ```
#[must_use]
pub fn corridor(firer: &Base, target: &Base) -> Option<ConvexPolygon> {
    let front = firer.front_edge();
    let mid = front.midpoint();
    let aim = target.closest_point(mid);
    let dir = (aim - mid).normalized()?;
    if dir.dot(firer.forward()) <= 0.0 {
        return None;
    }
    let cone = FrontageCone { frontage: front, left_direction: dir, right_direction: dir };
    let depth = target.vertices_ccw().iter().map(|&p| (p - mid).dot(dir)).fold(f64::INFINITY, f64::min);
    (depth > 0.0).then(|| cone.polygon(depth))
}

/// Friendly units (other than the firer) endangered by `firer`'s stands shooting at
/// `target`'s nearest stand to each (unit indices, sorted). `near_target_mm`: artillery
/// firing from a high hill endangers only friends within this of the target (004
/// §17.3.7: "Friendly troops are endangered if they are within 100mm of the target unit
/// and are between the target and the firing Artillery"); `None` otherwise.
#[must_use]
pub fn endangered(
    table: &Table,
    index: &SpatialIndex,
    firer: usize,
    target: usize,
    near_target_mm: Option<f64>,
) -> Vec<usize> {
    let (Some(f), Some(t)) = (table.units.get(firer), table.units.get(target)) else { return Vec::new() };
    let mut out: Vec<usize> = Vec::new();
    for stand in &f.bases {
        let Some(tb) = t.bases.iter().min_by(|a, b| stand.distance(a).total_cmp(&stand.distance(b))) else {
            continue;
        };
        let Some(c) = corridor(stand, tb) else { continue };
        let planes: Vec<HalfPlane> =
            c.half_planes().into_iter().map(|h| crate::convex::inset(h, TIE_MM)).collect();
        let (mut lo, mut hi) = (c.vertices()[0], c.vertices()[0]);
        for v in c.vertices() {
            lo = crate::vec2::Vec2::new(lo.x.min(v.x), lo.y.min(v.y));
            hi = crate::vec2::Vec2::new(hi.x.max(v.x), hi.y.max(v.y));
        }
        for r in index.candidates_in_box(lo, hi) {
            if r.unit == firer
                || r.unit == target
                || index.are_enemies(firer, r.unit)
                || out.contains(&r.unit)
            {
                continue;
            }
            let Some(b) = table.base(r) else { continue };
            if near_target_mm.is_some_and(|d| !t.bases.iter().any(|tb| within(b.distance(tb), d))) {
                continue;
            }
            let inside = ConvexPolygon::from_half_planes(&b.polygon(), &planes);
            if !inside.is_empty() && inside.area() > 0.0 {
                out.push(r.unit);
            }
        }
    }
    out.sort_unstable();
    out
}
