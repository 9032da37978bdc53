//! Bases inferred from their unit (issue 18): a base whose tag was not seen, placed
//! where its unit's formation puts it beside the bases that were found.
//!
//! The roster lists a unit's tags in base order; for the formations whose layout that
//! order fixes, base `i` has a slot in the unit's frame (x to its right, y forward):
//!
//! - `line`: one rank, left to right: slot `(i w, 0)`;
//! - `two-line`, `three-line`: ranks of `n / 2` (`n / 3`) bases, the front rank first,
//!   each left to right: slot `(file w, -rank d)`;
//! - `attack-column`, `column`: single file, front first, touching: slot `(0, -i d)`.
//!
//! A missing base is placed only when its place is fixed: at least two bases of the
//! unit were found and agree with the layout (same heading within
//! [`MAX_HEADING_SPREAD_DEG`], slots within [`MAX_SLOT_RESIDUAL_MM`] RMS, so the
//! order and the touching are observed, not assumed), and the missing base touches a
//! found one (its neighbour in the rank, or the base in front of or behind it). Never
//! for other formations (echelon, square, road column with its gaps, skirmish order, no
//! formation), a single found base, a bent or gapped line, or a slot where another
//! base already stands.
//!
//! **Seen in the photo** (issue 36, [`infer_seen`]): where the photo is asked (a
//! [`Shows`]), the slots left empty are placed outward from the bases standing, one
//! touching slot at a time, each only when the photo shows a base there that looks
//! like the unit's own found bases, with a step from base to what lies beyond along
//! every edge that faces no other slot of the layout (an empty slot shows the mat on
//! both sides; a slot in the middle of another formation shows no step). So a unit of
//! which one tag was read (the others hidden under its figures) has its line, column
//! or two lines placed from that base's pose, as far as the photo bears it out, with a
//! `sigma_mm` that grows with the slots crossed and the heading's lever.

use crate::roster::{Roster, RosterUnit};
use std::collections::BTreeMap;
use vedette_geometry::{Base, BaseMeta, BaseSize, Formation, Pose, Vec2};

/// Found bases whose heading spread exceeds this do not fix a layout, degrees.
pub const MAX_HEADING_SPREAD_DEG: f64 = 3.0;
/// Found bases further than this from their layout slots (RMS) do not fix a layout, mm.
pub const MAX_SLOT_RESIDUAL_MM: f64 = 1.5;
/// How far a base placed by hand may stand from touching its neighbours (one standard
/// uncertainty), added to an inferred base's `sigma_mm`, mm.
pub const PLACEMENT_SIGMA_MM: f64 = 1.0;

/// What the photo says of a place ([`infer_seen`]): whether it shows a base of `unit`
/// at `at` that looks like `like` (a base of the unit found by its tag), with a step
/// from the base to what lies beyond along each edge marked open (front, rear, left,
/// right of `at`).
pub type Shows<'a> = &'a dyn Fn(&RosterUnit, &Base, &Base, [bool; 4]) -> bool;

/// The slot of base `i` of `n` in the unit's frame, in base widths and depths, for the
/// formations whose order fixes the layout.
fn slot(formation: Formation, i: usize, n: usize) -> Option<(f64, f64)> {
    match formation {
        Formation::Line => Some((i as f64, 0.0)),
        Formation::TwoLine | Formation::ThreeLine => {
            let ranks = if formation == Formation::TwoLine { 2 } else { 3 };
            if !n.is_multiple_of(ranks) {
                return None;
            }
            let files = n / ranks;
            Some(((i % files) as f64, -((i / files) as f64)))
        }
        Formation::AttackColumn | Formation::Column => Some((0.0, -(i as f64))),
        _ => None,
    }
}

/// True when slots `a` and `b` touch (side by side in a rank, or one behind the other).
fn touching(a: (f64, f64), b: (f64, f64)) -> bool {
    let (dx, dy) = ((a.0 - b.0).abs(), (a.1 - b.1).abs());
    (dx == 1.0 && dy == 0.0) || (dx == 0.0 && dy == 1.0)
}

/// A unit's layout as its found bases fix it: slot 0's centre, the unit's heading and
/// how uncertain they are.
#[derive(Debug, Clone, Copy)]
struct Frame {
    formation: Formation,
    n: usize,
    size: BaseSize,
    origin: Vec2,
    heading: f64,
    /// The found bases' sigma with the layout's misfit, mm.
    sigma_mm: f64,
    /// The heading's sigma, degrees.
    heading_sigma_deg: f64,
}

impl Frame {
    /// The frame of `unit` from its `found` bases (one or more): `None` for a
    /// formation whose order fixes no layout, or found bases that disagree with it
    /// (heading spread, slot residual).
    fn of(unit: &RosterUnit, found: &[(usize, Base)]) -> Option<Frame> {
        let formation = unit.formation?;
        let n = unit.tags.len();
        if found.is_empty() || found.len() >= n {
            return None;
        }
        let size = BaseSize::new(unit.base_mm[0], unit.base_mm[1]);
        // The unit's heading (circular mean) and spread.
        let (s, c) = found.iter().fold((0.0, 0.0), |(s, c), (_, b)| {
            let a = b.heading_deg().to_radians();
            (s + a.sin(), c + a.cos())
        });
        let heading = s.atan2(c).to_degrees();
        let spread = found
            .iter()
            .map(|(_, b)| ((b.heading_deg() - heading + 540.0).rem_euclid(360.0) - 180.0).abs())
            .fold(0.0, f64::max);
        if spread > MAX_HEADING_SPREAD_DEG {
            return None;
        }
        let mut frame =
            Frame { formation, n, size, origin: Vec2::ZERO, heading, sigma_mm: 0.0, heading_sigma_deg: 0.0 };
        // The unit's origin (slot 0's centre) from each found base.
        let mut origins = Vec::with_capacity(found.len());
        for (i, b) in found {
            let (p, _) = frame.local(*i)?;
            origins.push(b.centre() - frame.on_table(p));
        }
        let origin = origins.iter().fold(Vec2::ZERO, |a, o| a + *o) / origins.len() as f64;
        let residual =
            (origins.iter().map(|o| o.distance_2(origin)).sum::<f64>() / origins.len() as f64).sqrt();
        if residual > MAX_SLOT_RESIDUAL_MM {
            return None;
        }
        let sigma = |b: &Base| b.meta().sigma_mm.unwrap_or(0.0);
        let found_sigma =
            (found.iter().map(|(_, b)| sigma(b).powi(2)).sum::<f64>() / found.len() as f64).sqrt();
        frame.origin = origin;
        frame.sigma_mm = found_sigma.hypot(residual);
        frame.heading_sigma_deg = found
            .iter()
            .filter_map(|(_, b)| b.meta().sigma_heading_deg)
            .fold(0.0, f64::max)
            .hypot(spread.max(0.5));
        Some(frame)
    }

    /// Slot `i`'s centre in the unit's frame (x right, y forward), mm, and its cell.
    fn local(&self, i: usize) -> Option<(Vec2, (f64, f64))> {
        slot(self.formation, i, self.n)
            .map(|(x, y)| (Vec2::new(x * self.size.width, y * self.size.depth), (x, y)))
    }

    /// A vector of the unit's frame on the table.
    fn on_table(&self, p: Vec2) -> Vec2 {
        let forward = Vec2::from_heading_deg(self.heading);
        let right = forward.perp_right();
        right * p.x + forward * p.y
    }

    /// The base of slot `i`, inferred, tagged `tag`, with `sigma_mm`.
    fn base(&self, i: usize, tag: Option<u32>, sigma_mm: f64) -> Option<Base> {
        let (p, _) = self.local(i)?;
        Some(Base::new(self.size, Pose::new(self.origin + self.on_table(p), self.heading)).with_meta(
            BaseMeta {
                tag,
                sigma_mm: Some((sigma_mm * 1e3).round() / 1e3),
                sigma_heading_deg: Some((self.heading_sigma_deg * 1e3).round() / 1e3),
                inferred: true,
                slot: None,
                ..BaseMeta::default()
            },
        ))
    }

    /// Which of cell `c`'s neighbours (front, rear, left, right) are no slot of the
    /// layout: the edges where a base of this slot meets what is not its unit.
    fn open(&self, c: (f64, f64)) -> [bool; 4] {
        let cells: Vec<(f64, f64)> =
            (0..self.n).filter_map(|j| self.local(j).map(|(_, cell)| cell)).collect();
        [(0.0, 1.0), (0.0, -1.0), (-1.0, 0.0), (1.0, 0.0)]
            .map(|(dx, dy)| !cells.contains(&(c.0 + dx, c.1 + dy)))
    }
}

/// The bases of one roster unit that its formation places, given the bases found (base
/// index and base, with their scan uncertainty). Each inferred base carries
/// `inferred: true` and a `sigma_mm` that adds the layout's misfit and
/// [`PLACEMENT_SIGMA_MM`] to the found bases' own.
#[must_use]
pub fn infer_unit(unit: &RosterUnit, found: &[(usize, Base)]) -> Vec<(usize, Base)> {
    if found.len() < 2 {
        return Vec::new();
    }
    let Some(frame) = Frame::of(unit, found) else { return Vec::new() };
    let sigma_mm = frame.sigma_mm.hypot(PLACEMENT_SIGMA_MM);
    let mut out = Vec::new();
    for i in 0..frame.n {
        if found.iter().any(|(j, _)| *j == i) {
            continue;
        }
        let Some((_, cell)) = frame.local(i) else { continue };
        let touches_found =
            found.iter().any(|(j, _)| frame.local(*j).is_some_and(|(_, other)| touching(cell, other)));
        if !touches_found {
            continue;
        }
        if let Some(base) = frame.base(i, unit.tags.get(i).copied(), sigma_mm) {
            out.push((i, base));
        }
    }
    out
}

/// The bases of one roster unit placed outward from those standing (`found` by their
/// tags, `placed` by [`infer_unit`]) where the photo shows them (`shows`; see the
/// module's doc), one touching slot at a time, each `clear` of every other base. A
/// base `k` slots from the nearest found one carries a `sigma_mm` that adds
/// [`PLACEMENT_SIGMA_MM`] per slot crossed (in quadrature) and the heading's sigma over
/// the distance to the layout's frame.
#[must_use]
pub fn infer_seen(
    unit: &RosterUnit,
    found: &[(usize, Base)],
    placed: &[(usize, Base)],
    clear: &dyn Fn(&Base) -> bool,
    shows: Shows<'_>,
) -> Vec<(usize, Base)> {
    let Some(frame) = Frame::of(unit, found) else { return Vec::new() };
    let mut standing: Vec<(usize, (f64, f64))> =
        found.iter().chain(placed).filter_map(|(i, _)| frame.local(*i).map(|(_, cell)| (*i, cell))).collect();
    let found_cells: Vec<((f64, f64), &Base)> =
        found.iter().filter_map(|(i, b)| frame.local(*i).map(|(_, cell)| (cell, b))).collect();
    let mut out = Vec::new();
    loop {
        let mut progress = false;
        for i in 0..frame.n {
            if standing.iter().any(|(j, _)| *j == i) {
                continue;
            }
            let Some((_, cell)) = frame.local(i) else { continue };
            if !standing.iter().any(|(_, other)| touching(cell, *other)) {
                continue;
            }
            // The nearest found base: what the slot must look like, and how far the
            // place is carried from a measured one.
            let Some(&(near_cell, like)) = found_cells.iter().min_by(|a, b| {
                let d = |c: (f64, f64)| (c.0 - cell.0).abs() + (c.1 - cell.1).abs();
                d(a.0).total_cmp(&d(b.0))
            }) else {
                continue;
            };
            let steps = (near_cell.0 - cell.0).abs() + (near_cell.1 - cell.1).abs();
            let Some(probe) = frame.base(i, unit.tags.get(i).copied(), 0.0) else { continue };
            let lever = probe.centre().distance(like.centre()) * frame.heading_sigma_deg.to_radians();
            let sigma_mm = frame.sigma_mm.hypot(PLACEMENT_SIGMA_MM * steps.sqrt()).hypot(lever);
            let Some(base) = frame.base(i, unit.tags.get(i).copied(), sigma_mm) else { continue };
            if !clear(&base) || !shows(unit, &base, like, frame.open(cell)) {
                continue;
            }
            standing.push((i, cell));
            out.push((i, base));
            progress = true;
        }
        if !progress {
            break;
        }
    }
    out
}

/// Whether a base placed by its formation at `b` stands clear of `others`: its centre
/// at least half a base (the smaller of the two's shorter sides) from each of theirs.
pub(crate) fn stands_clear<'a>(b: &Base, others: impl IntoIterator<Item = &'a Base>) -> bool {
    others.into_iter().all(|o| {
        o.centre().distance(b.centre()) >= 0.5 * b.width().min(b.depth()).min(o.width().min(o.depth()))
    })
}

/// Every base the roster's formations place (see [`infer_unit`]; with `shows`, also
/// [`infer_seen`]), per roster unit index, except where another base (found or
/// inferred) already stands: the slot's centre within half a base of another base's
/// centre.
#[must_use]
pub fn infer_bases(
    roster: &Roster,
    found: &BTreeMap<usize, Vec<(usize, Base)>>,
    shows: Option<Shows<'_>>,
) -> BTreeMap<usize, Vec<(usize, Base)>> {
    let mut standing: Vec<Base> = found.values().flatten().map(|(_, b)| *b).collect();
    let is_clear = |standing: &[Base], b: &Base| stands_clear(b, standing);
    let mut out: BTreeMap<usize, Vec<(usize, Base)>> = BTreeMap::new();
    for (ui, unit) in roster.units.iter().enumerate() {
        let Some(bases) = found.get(&ui) else { continue };
        for (i, b) in infer_unit(unit, bases) {
            if is_clear(&standing, &b) {
                standing.push(b);
                out.entry(ui).or_default().push((i, b));
            }
        }
    }
    // Then the slots the photo shows, once every unit's formation has placed what it
    // fixes (a slot of one unit is not taken where another's is sure).
    if let Some(shows) = shows {
        for (ui, unit) in roster.units.iter().enumerate() {
            let Some(bases) = found.get(&ui) else { continue };
            let placed = out.get(&ui).cloned().unwrap_or_default();
            let seen = {
                let clear = |b: &Base| is_clear(&standing, b);
                infer_seen(unit, bases, &placed, &clear, shows)
            };
            for (i, b) in seen {
                standing.push(b);
                out.entry(ui).or_default().push((i, b));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit(formation: Formation, n: usize) -> RosterUnit {
        Roster::from_toml_str(
            &format!(
                r#"
[[unit]]
id = "u"
side = "fr"
kind = "infantry"
formation = "{}"
base_mm = [30, 20]
tags = [{}]
"#,
                match formation {
                    Formation::Line => "line",
                    Formation::TwoLine => "two-line",
                    Formation::AttackColumn => "attack-column",
                    _ => "echelon",
                },
                (0..n).map(|i| (10 + i).to_string()).collect::<Vec<_>>().join(", ")
            ),
            "r.toml",
        )
        .unwrap()
        .units[0]
            .clone()
    }

    /// The truth: base `i` of a unit at `origin` facing `heading`.
    fn truth(formation: Formation, n: usize, i: usize, origin: Vec2, heading: f64) -> Base {
        let (x, y) = slot(formation, i, n).unwrap();
        let f = Vec2::from_heading_deg(heading);
        let r = Vec2::new(f.y, -f.x);
        let c = origin + r * (x * 30.0) + f * (y * 20.0);
        Base::new(BaseSize::new(30.0, 20.0), Pose::new(c, heading)).with_meta(BaseMeta {
            tag: Some(10 + i as u32),
            sigma_mm: Some(0.1),
            sigma_heading_deg: Some(0.2),
            inferred: false,
            slot: None,
            ..BaseMeta::default()
        })
    }

    /// A line of four with its second base unseen, a column of three with its last
    /// unseen, and a two-line with a rear base unseen: each placed, flagged, with a
    /// larger sigma.
    #[test]
    fn a_base_between_or_behind_found_ones_is_placed_and_flagged() {
        for (formation, n, missing, heading) in [
            (Formation::Line, 4, 1, 80.0),
            (Formation::AttackColumn, 3, 2, 265.0),
            (Formation::TwoLine, 6, 4, 33.0),
        ] {
            let origin = Vec2::new(400.0, 300.0);
            let found: Vec<(usize, Base)> = (0..n)
                .filter(|i| *i != missing)
                .map(|i| (i, truth(formation, n, i, origin, heading)))
                .collect();
            let got = infer_unit(&unit(formation, n), &found);
            assert_eq!(got.len(), 1, "{formation:?}: {got:?}");
            let (i, b) = got[0];
            let want = truth(formation, n, missing, origin, heading);
            assert_eq!(i, missing);
            assert!(
                b.centre().distance(want.centre()) < 1e-6,
                "{formation:?}: {:?} vs {:?}",
                b.centre(),
                want.centre()
            );
            assert!(b.meta().inferred && b.meta().tag == Some(10 + missing as u32));
            assert!(b.meta().sigma_mm.unwrap() > 1.0, "{:?}", b.meta());
        }
    }

    /// Places the formation does not fix: one base found (which way does the line
    /// run?), a bent line, a turned base, the middle of a gap of three (it touches no
    /// found base), an echelon, a unit without a formation.
    #[test]
    fn an_ambiguous_place_is_not_inferred() {
        let origin = Vec2::new(400.0, 300.0);
        let line = |i: usize| (i, truth(Formation::Line, 4, i, origin, 90.0));
        assert!(infer_unit(&unit(Formation::Line, 4), &[line(0)]).is_empty(), "one base");
        let mut bent = line(3);
        bent.1 = Base::new(bent.1.size(), Pose::new(bent.1.centre() + Vec2::new(0.0, 6.0), 90.0));
        assert!(infer_unit(&unit(Formation::Line, 4), &[line(0), line(1), bent]).is_empty(), "bent line");
        let mut turned = line(1);
        turned.1 = Base::new(turned.1.size(), Pose::new(turned.1.centre(), 100.0));
        assert!(infer_unit(&unit(Formation::Line, 4), &[line(0), turned]).is_empty(), "turned base");
        let five = unit(Formation::Line, 5);
        let far: Vec<(usize, Base)> =
            [0, 4].iter().map(|&i| (i, truth(Formation::Line, 5, i, origin, 90.0))).collect();
        let placed: Vec<usize> = infer_unit(&five, &far).iter().map(|(i, _)| *i).collect();
        assert_eq!(placed, vec![1, 3], "the middle of a gap of three touches no found base");
        let echelon = unit(Formation::Echelon, 3);
        assert!(infer_unit(&echelon, &[line(0), line(1)]).is_empty(), "echelon");
        let mut none = unit(Formation::Line, 3);
        none.formation = None;
        assert!(infer_unit(&none, &[line(0), line(1)]).is_empty(), "no formation");
    }

    /// One base of a line of four found, at its left end: the photo (here a stand-in
    /// that shows the true bases and nothing else) shows the next three; each is
    /// placed outward from it, one touching slot at a time, its sigma growing with the
    /// slots crossed; the open edges asked are those facing no slot of the line. On a
    /// rotated and moved table the same.
    #[test]
    fn a_lone_found_base_places_the_slots_the_photo_shows() {
        for (origin, heading) in [(Vec2::new(400.0, 300.0), 90.0), (Vec2::new(-1234.5, 987.6), 211.0)] {
            let u = unit(Formation::Line, 4);
            let found = [(0, truth(Formation::Line, 4, 0, origin, heading))];
            let trues: Vec<Base> = (0..4).map(|i| truth(Formation::Line, 4, i, origin, heading)).collect();
            let asked = std::cell::RefCell::new(Vec::new());
            let shows = |_: &RosterUnit, at: &Base, like: &Base, open: [bool; 4]| {
                assert_eq!(like.meta().tag, Some(10));
                asked.borrow_mut().push((at.meta().tag, open));
                trues.iter().any(|t| t.centre().distance(at.centre()) < 1e-6)
            };
            let got = infer_seen(&u, &found, &[], &|_| true, &shows);
            let placed: Vec<usize> = got.iter().map(|(i, _)| *i).collect();
            assert_eq!(placed, vec![1, 2, 3]);
            let sigmas: Vec<f64> = got.iter().map(|(_, b)| b.meta().sigma_mm.unwrap()).collect();
            assert!(sigmas.windows(2).all(|w| w[1] > w[0]), "{sigmas:?}");
            assert!(sigmas[0] > PLACEMENT_SIGMA_MM, "{sigmas:?}");
            for (i, b) in &got {
                assert!(b.centre().distance(trues[*i].centre()) < 1e-6);
                assert!(b.meta().inferred && b.meta().tag == Some(10 + *i as u32));
            }
            // Front and rear open everywhere; the right end's right edge too.
            let open = asked.borrow();
            assert!(open.contains(&(Some(11), [true, true, false, false])), "{open:?}");
            assert!(open.contains(&(Some(13), [true, true, false, true])), "{open:?}");
        }
    }

    /// The chain stops where the photo shows no base (it never jumps a slot), and at a
    /// slot another base stands on; a unit of which no base was found, or without a
    /// formation, places nothing.
    #[test]
    fn the_photo_and_other_bases_stop_the_chain() {
        let origin = Vec2::new(400.0, 300.0);
        let u = unit(Formation::Line, 4);
        let found = [(0, truth(Formation::Line, 4, 0, origin, 90.0))];
        let not_two = |_: &RosterUnit, at: &Base, _: &Base, _: [bool; 4]| at.meta().tag != Some(12);
        let got = infer_seen(&u, &found, &[], &|_| true, &not_two);
        assert_eq!(got.iter().map(|(i, _)| *i).collect::<Vec<_>>(), vec![1]);
        let everywhere = |_: &RosterUnit, _: &Base, _: &Base, _: [bool; 4]| true;
        let taken = truth(Formation::Line, 4, 1, origin, 90.0).centre();
        let got = infer_seen(&u, &found, &[], &|b: &Base| b.centre().distance(taken) > 1.0, &everywhere);
        assert!(got.is_empty(), "{got:?}");
        assert!(infer_seen(&u, &[], &[], &|_| true, &everywhere).is_empty());
        let mut none = unit(Formation::Line, 4);
        none.formation = None;
        assert!(infer_seen(&none, &found, &[], &|_| true, &everywhere).is_empty());
    }
}
