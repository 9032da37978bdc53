//! The [`Explanation`] of a verdict: the sight line found, or what cuts each tried line.

use super::{Method, TerrainSight, UnitVerdict};
use crate::error::GeometryError;
use crate::los::explanation::{Explanation, SightLine};
use crate::polygon::ConvexPolygon;
use crate::segment::Segment;
use crate::sight::{FullVisibility, chord, point_sight_segment_among};
use crate::table::{BaseRef, Selection};
use crate::vec2::Vec2;

impl<'i, 't> TerrainSight<'i, 't> {
    /// The verdict between two selections (units or single bases) with its explanation:
    /// the clear sight lines found, or what cuts the line examined and where.
    pub fn explain(
        &self,
        spotter: Selection,
        target: Selection,
    ) -> Result<(UnitVerdict, Explanation), GeometryError> {
        let bases = |s: Selection| -> Vec<BaseRef> {
            match s {
                Selection::Unit(u) => {
                    (0..self.table.units[u].bases.len()).map(|b| BaseRef::new(u, b)).collect()
                }
                Selection::Base(r) => vec![r],
            }
        };
        let (sb, tb) = (bases(spotter), bases(target));
        let mut verdict = UnitVerdict::unseen();
        let mut partial: Option<(BaseRef, BaseRef, Vec2)> = None;
        for &tr in &tb {
            for &sr in &sb {
                if sr == tr {
                    continue;
                }
                let Some(b) = self.table.base(sr) else { continue };
                let eye = self.eye_of(b);
                let Some(p) = self.pair(sr, &eye, tr) else { continue };
                let v = self.decide(&p, verdict.full_base.is_none());
                if v.method != Method::Exact {
                    verdict.method = v.method;
                }
                if v.visible && verdict.sight.is_none() {
                    verdict.visible = true;
                    verdict.sight = v.sight.map(|segment| SightLine { segment, from_base: sr, to_base: tr });
                }
                match v.full {
                    FullVisibility::Visible if verdict.full_base.is_none() => {
                        verdict.full_base = Some((sr, tr))
                    }
                    FullVisibility::Hidden { witness } if v.visible && partial.is_none() => {
                        partial = Some((sr, tr, witness))
                    }
                    _ => {}
                }
            }
        }
        let mut ex = Explanation::default();
        if let Some((sr, tr)) = verdict.full_base {
            let b = self.table.base(sr).ok_or(GeometryError::BadBaseIndex {
                unit: self.table.units[sr.unit].id.clone(),
                index: sr.base,
                count: 0,
            })?;
            let eye = self.eye_of(b);
            if let Some(p) = self.pair(sr, &eye, tr) {
                let blockers = p.blockers();
                for corner in p.target.vertices_ccw() {
                    let seg = if p.has_limits() {
                        self.point_search(&p, corner, &blockers)
                    } else {
                        point_sight_segment_among(&p.eye, corner, &blockers).map(|s| Segment::new(s.b, s.a))
                    };
                    if let Some(s) = seg {
                        ex.sight_lines.push(SightLine {
                            segment: oriented(s, &p.eye),
                            from_base: sr,
                            to_base: tr,
                        });
                    }
                }
            }
        } else if let Some(s) = verdict.sight {
            ex.sight_lines.push(s);
        }
        if verdict.full_base.is_none() {
            // Examine one line: to the hidden point of a partly seen base, or centre to
            // centre of the closest pair.
            let (sr, tr, to) = match partial {
                Some((sr, tr, w)) => (sr, tr, Some(w)),
                None => {
                    let mut best: Option<(f64, BaseRef, BaseRef)> = None;
                    for &sr in &sb {
                        for &tr in &tb {
                            if let (Some(a), Some(b)) = (self.table.base(sr), self.table.base(tr))
                                && sr != tr
                            {
                                let d = a.distance(b);
                                if best.is_none_or(|(bd, ..)| d < bd) {
                                    best = Some((d, sr, tr));
                                }
                            }
                        }
                    }
                    match best {
                        Some((_, sr, tr)) => (sr, tr, None),
                        None => return Ok((verdict, ex)),
                    }
                }
            };
            if let Some(b) = self.table.base(sr) {
                let eye = self.eye_of(b);
                if let Some(p) = self.pair(sr, &eye, tr) {
                    let t = to.unwrap_or(p.target.centre());
                    let c = eye.iter().fold(Vec2::ZERO, |a, &q| a + q) / eye.len() as f64;
                    // From the eye point nearest the target along the centre line.
                    let e = match chord(&eye, t, c - t) {
                        Some((s0, _)) if eye.len() >= 3 => t + (c - t) * s0.max(0.0),
                        _ => c,
                    };
                    let mut cuts = Vec::new();
                    self.check(&p, e, t, &p.blockers(), true, &mut cuts);
                    cuts.sort_by(|a, b| a.at.distance_2(e).total_cmp(&b.at.distance_2(e)));
                    ex.examined = Some(Segment::new(e, t));
                    ex.blocked_by = cuts;
                    ex.hidden_point = to;
                }
            }
        }
        Ok((verdict, ex))
    }
}

/// The segment with its first point on the eye.
pub(super) fn oriented(s: Segment, eye: &[Vec2]) -> Segment {
    let on_eye = |q: Vec2| {
        if eye.len() == 2 {
            Segment::new(eye[0], eye[1]).distance_to_point(q) < 1e-6
        } else {
            ConvexPolygon::from_ccw_unchecked(eye.to_vec()).contains(q)
        }
    };
    if on_eye(s.a) { s } else { s.reversed() }
}
