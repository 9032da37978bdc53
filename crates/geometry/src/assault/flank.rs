//! The flank line and rear lines of a unit (Republique 5.0 §5.1 "Flank and Rear
//! Examples", classic 001 §4.3).
//!
//! "The flank zone for unit A is described by a line that runs along the rear of the
//! front bases, parallel to the unit's front. The rear zone is bounded by lines running
//! to the rear from the outer rear base corners, perpendicular to the unit's front."
//!
//! In the unit's frame ([`UnitFrame`]):
//! - the **flank line** runs along the rear edges of the front bases, left to right,
//!   joined straight across any gap or step between them (an echelon's flank line
//!   steps back with its bases), and continues outward parallel to the front from the
//!   rear corners of the outermost front bases;
//! - the **rear lines** leave the unit's two outer rear corners (the leftmost and
//!   rightmost rear corners of any of its bases; ties go to the rearmost) straight to
//!   the rear; the **rear zone** lies between them, behind the straight line joining
//!   those two corners.
//!
//! A base is past a line when some part of it reaches beyond it by more than the tie
//! tolerance ([`crate::ties::past`]): touching a line is not crossing it.

use crate::base::Base;
pub use crate::frame::FlankSide;
use crate::frame::UnitFrame;
use crate::polygon::{ConvexPolygon, HalfPlane};
use crate::ties::TIE_MM;
use crate::unit_structure::front_bases_of;
use crate::vec2::Vec2;

/// A unit's flank line and rear zone.
#[derive(Debug, Clone, PartialEq)]
pub struct FlankGeometry {
    /// The unit's frame.
    pub frame: UnitFrame,
    /// The flank line in the frame: points sorted left to right along the rear edges of
    /// the front bases; beyond the first and last it runs on parallel to the front.
    pub flank_line: Vec<Vec2>,
    /// The outer rear corner on the left, in the frame.
    pub rear_left: Vec2,
    /// The outer rear corner on the right, in the frame.
    pub rear_right: Vec2,
    /// The lateral middle of the unit's face, in the frame (x), for telling left from
    /// right.
    pub face_centre_x: f64,
}

impl FlankGeometry {
    /// The flank line and rear lines of a unit's bases; `None` when it has none.
    ///
    /// ```
    /// use vedette_geometry::{Base, BaseSize, FlankGeometry, Pose, Vec2};
    /// // A line of two 30 x 20 bases facing +y, front edges at y = 10.
    /// let b = |x: f64| Base::new(BaseSize::new(30.0, 20.0), Pose::new(Vec2::new(x, 0.0), 90.0));
    /// let g = FlankGeometry::of(&[b(0.0), b(30.0)]).unwrap();
    /// // An enemy base beside the left end reaching 0.5 mm behind the rear edge (y = -10).
    /// let enemy = Base::new(BaseSize::new(30.0, 20.0), Pose::new(Vec2::new(-40.0, 0.5), 0.0));
    /// assert!(g.past_flank_line_mm(&enemy) > 0.49);
    /// # let _ = enemy;
    /// ```
    #[must_use]
    pub fn of(bases: &[Base]) -> Option<FlankGeometry> {
        let frame = UnitFrame::of(bases)?;
        let front = front_bases_of(bases);
        let front: Vec<&Base> = if front.is_empty() {
            bases.iter().collect()
        } else {
            front.iter().map(|&i| &bases[i]).collect()
        };
        // Each front base's rear edge as (left x, right x, y at left, y at right) in the frame.
        let mut rears: Vec<(Vec2, Vec2)> = front
            .iter()
            .map(|b| {
                let c = b.corners();
                let l = frame.to_local(c.rear_left);
                let r = frame.to_local(c.rear_right);
                if l.x <= r.x { (l, r) } else { (r, l) }
            })
            .collect();
        rears.sort_by(|a, b| a.0.x.total_cmp(&b.0.x));
        let mut flank_line = Vec::with_capacity(rears.len() * 2);
        for (l, r) in rears {
            flank_line.push(l);
            flank_line.push(r);
        }
        // Overlapping front bases (a staggered line) would fold the line back on itself:
        // keep it a function of x by sorting all points and keeping the rearmost y where
        // two share an x.
        flank_line.sort_by(|a, b| a.x.total_cmp(&b.x));
        let face_left = front
            .iter()
            .flat_map(|b| [frame.to_local(b.corners().front_left), frame.to_local(b.corners().front_right)]);
        let (mut fl, mut fr) = (f64::INFINITY, f64::NEG_INFINITY);
        for p in face_left {
            fl = fl.min(p.x);
            fr = fr.max(p.x);
        }
        let mut rear_left = Vec2::new(f64::INFINITY, f64::INFINITY);
        let mut rear_right = Vec2::new(f64::NEG_INFINITY, f64::INFINITY);
        for b in bases {
            let c = b.corners();
            for p in [frame.to_local(c.rear_left), frame.to_local(c.rear_right)] {
                if p.x < rear_left.x - TIE_MM || ((p.x - rear_left.x).abs() <= TIE_MM && p.y < rear_left.y) {
                    rear_left = p;
                }
                if p.x > rear_right.x + TIE_MM || ((p.x - rear_right.x).abs() <= TIE_MM && p.y < rear_right.y)
                {
                    rear_right = p;
                }
            }
        }
        Some(FlankGeometry { frame, flank_line, rear_left, rear_right, face_centre_x: (fl + fr) / 2.0 })
    }

    /// The flank line's y (in the frame) at lateral position `x`.
    #[must_use]
    pub fn flank_y_at(&self, x: f64) -> f64 {
        let l = &self.flank_line;
        let (Some(first), Some(last)) = (l.first(), l.last()) else { return 0.0 };
        if x <= first.x {
            return first.y;
        }
        if x >= last.x {
            return last.y;
        }
        for w in l.windows(2) {
            if x >= w[0].x && x <= w[1].x {
                let span = w[1].x - w[0].x;
                return if span <= 0.0 {
                    w[0].y.min(w[1].y)
                } else {
                    w[0].y + (w[1].y - w[0].y) * (x - w[0].x) / span
                };
            }
        }
        last.y
    }

    /// How far the deepest part of `base` reaches behind the flank line, in mm (zero or
    /// negative when it does not cross it).
    #[must_use]
    pub fn past_flank_line_mm(&self, base: &Base) -> f64 {
        let poly: Vec<Vec2> = self.frame.local_corners(base).to_vec();
        let (lo, hi) =
            poly.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), p| (a.min(p.x), b.max(p.x)));
        // The gap (flank y − base's lowest y) is piecewise linear in x: its maximum is at
        // a corner of the base or a vertex of the flank line.
        let mut xs: Vec<f64> = poly.iter().map(|p| p.x).collect();
        xs.extend(self.flank_line.iter().map(|p| p.x).filter(|&x| x > lo && x < hi));
        xs.into_iter()
            .filter_map(|x| lowest_y_at(&poly, x).map(|y| self.flank_y_at(x) - y))
            .fold(f64::NEG_INFINITY, f64::max)
    }

    /// The rear zone's three half-planes, in table coordinates, each pulled inward by
    /// the tie tolerance (so touching a rear line is not being inside).
    #[must_use]
    pub fn rear_zone_half_planes(&self) -> [HalfPlane; 3] {
        let f = &self.frame;
        let l = f.to_table(self.rear_left);
        let r = f.to_table(self.rear_right);
        let back = -f.forward;
        let inset = |h: HalfPlane| crate::convex::inset(h, TIE_MM);
        [
            // Right of the left rear line (running rearward from the left corner)...
            inset(HalfPlane::left_of(l, l + back)),
            // ...left of the right rear line...
            inset(HalfPlane::left_of(r + back, r)),
            // ...and behind the line joining the corners.
            inset(HalfPlane::left_of(r, l)),
        ]
    }

    /// True when some part of `base` lies inside the rear zone (by more than the tie
    /// tolerance).
    #[must_use]
    pub fn reaches_rear_zone(&self, base: &Base) -> bool {
        let clipped = ConvexPolygon::from_half_planes(&base.polygon(), &self.rear_zone_half_planes());
        !clipped.is_empty() && clipped.area() > 0.0
    }

    /// How far `base` is inside the rear zone, mm: positive, the shortest move across
    /// one of the zone's three sides that takes every corner out of it (the deepest
    /// corner's depth past that side, least over the sides); zero or negative, minus the
    /// base's distance to the zone. The close call of a rear verdict
    /// ([`crate::assault::assessment::AssaultFinding::aspect_call`]).
    ///
    /// ```
    /// use vedette_geometry::{Base, BaseSize, FlankGeometry, Pose, Vec2};
    /// // Two 30 x 20 bases facing +y: rear corners (-15, -10) and (45, -10).
    /// let b = |x: f64, y: f64| Base::new(BaseSize::new(30.0, 20.0), Pose::new(Vec2::new(x, y), 90.0));
    /// let g = FlankGeometry::of(&[b(0.0, 0.0), b(30.0, 0.0)]).unwrap();
    /// // Well behind the unit, a base reaching 5 mm past the left rear line (x = -15) is
    /// // 5 mm deep; one 2 mm short of it is -2 mm.
    /// assert!((g.rear_zone_margin_mm(&b(-25.0, -32.0)) - 5.0).abs() < 1e-9);
    /// assert!((g.rear_zone_margin_mm(&b(-32.0, -32.0)) + 2.0).abs() < 1e-9);
    /// ```
    #[must_use]
    pub fn rear_zone_margin_mm(&self, base: &Base) -> f64 {
        let f = &self.frame;
        let l = f.to_table(self.rear_left);
        let r = f.to_table(self.rear_right);
        let back = -f.forward;
        let sides =
            [HalfPlane::left_of(l, l + back), HalfPlane::left_of(r + back, r), HalfPlane::left_of(r, l)];
        let corners = base.polygon();
        let depth = sides
            .iter()
            .map(|h| {
                corners.vertices().iter().map(|&p| h.signed_distance(p)).fold(f64::NEG_INFINITY, f64::max)
            })
            .fold(f64::INFINITY, f64::min);
        if depth > 0.0 {
            return depth;
        }
        // Outside: the distance to the zone, cut off far behind the unit (a table is
        // metres across, so 100 m behind it is as good as unbounded).
        let reach = 1e5;
        let far = ConvexPolygon::from_ccw_unchecked(vec![l, l + back * reach, r + back * reach, r]);
        let zone = ConvexPolygon::from_half_planes(&far, &sides);
        zone.distance_to_base(base).map_or(depth, |d| -d)
    }

    /// Which side of the unit a point lies on (left of the face's middle or right).
    #[must_use]
    pub fn side_of(&self, p: Vec2) -> FlankSide {
        if self.frame.to_local(p).x < self.face_centre_x { FlankSide::Left } else { FlankSide::Right }
    }
}

/// The lowest y of a convex polygon (in the frame) on the vertical line at `x`.
fn lowest_y_at(poly: &[Vec2], x: f64) -> Option<f64> {
    let n = poly.len();
    let mut best: Option<f64> = None;
    for i in 0..n {
        let a = poly[i];
        let b = poly[(i + 1) % n];
        let (lo, hi) = if a.x <= b.x { (a, b) } else { (b, a) };
        if x < lo.x - 1e-12 || x > hi.x + 1e-12 {
            continue;
        }
        let y = if (hi.x - lo.x).abs() < 1e-15 {
            lo.y.min(hi.y)
        } else {
            lo.y + (hi.y - lo.y) * ((x - lo.x) / (hi.x - lo.x)).clamp(0.0, 1.0)
        };
        best = Some(best.map_or(y, |v: f64| v.min(y)));
    }
    best
}
