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

/// The bases of one roster unit that its formation places, given the bases found (base
/// index and base, with their scan uncertainty). Each inferred base carries
/// `inferred: true` and a `sigma_mm` that adds the layout's misfit and
/// [`PLACEMENT_SIGMA_MM`] to the found bases' own.
#[must_use]
pub fn infer_unit(unit: &RosterUnit, found: &[(usize, Base)]) -> Vec<(usize, Base)> {
    let Some(formation) = unit.formation else { return Vec::new() };
    let n = unit.tags.len();
    if found.len() < 2 || found.len() >= n {
        return Vec::new();
    }
    let size = BaseSize::new(unit.base_mm[0], unit.base_mm[1]);
    let local =
        |i: usize| slot(formation, i, n).map(|(x, y)| (Vec2::new(x * size.width, y * size.depth), (x, y)));
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
        return Vec::new();
    }
    let forward = Vec2::from_heading_deg(heading);
    let right = Vec2::new(forward.y, -forward.x);
    let to_table = |p: Vec2| right * p.x + forward * p.y;
    // The unit's origin (slot 0's centre) from each found base.
    let mut origins = Vec::with_capacity(found.len());
    for (i, b) in found {
        let Some((p, _)) = local(*i) else { return Vec::new() };
        origins.push(b.centre() - to_table(p));
    }
    let origin = origins.iter().fold(Vec2::ZERO, |a, o| a + *o) / origins.len() as f64;
    let residual = (origins.iter().map(|o| o.distance_2(origin)).sum::<f64>() / origins.len() as f64).sqrt();
    if residual > MAX_SLOT_RESIDUAL_MM {
        return Vec::new();
    }
    let sigma = |b: &Base| b.meta().sigma_mm.unwrap_or(0.0);
    let found_sigma = (found.iter().map(|(_, b)| sigma(b).powi(2)).sum::<f64>() / found.len() as f64).sqrt();
    let sigma_mm = (found_sigma.powi(2) + residual.powi(2) + PLACEMENT_SIGMA_MM.powi(2)).sqrt();
    let heading_sigma = found
        .iter()
        .filter_map(|(_, b)| b.meta().sigma_heading_deg)
        .fold(0.0, f64::max)
        .hypot(spread.max(0.5));
    let mut out = Vec::new();
    for i in 0..n {
        if found.iter().any(|(j, _)| *j == i) {
            continue;
        }
        let Some((p, cell)) = local(i) else { continue };
        let touches_found =
            found.iter().any(|(j, _)| local(*j).is_some_and(|(_, other)| touching(cell, other)));
        if !touches_found {
            continue;
        }
        let base = Base::new(size, Pose::new(origin + to_table(p), heading)).with_meta(BaseMeta {
            tag: unit.tags.get(i).copied(),
            sigma_mm: Some((sigma_mm * 1e3).round() / 1e3),
            sigma_heading_deg: Some((heading_sigma * 1e3).round() / 1e3),
            inferred: true,
            slot: None,
            ..BaseMeta::default()
        });
        out.push((i, base));
    }
    out
}

/// Every base the roster's formations place (see [`infer_unit`]), per roster unit
/// index, except where another base (found or inferred) already stands: the slot's
/// centre within half a base of another base's centre.
#[must_use]
pub fn infer_bases(
    roster: &Roster,
    found: &BTreeMap<usize, Vec<(usize, Base)>>,
) -> BTreeMap<usize, Vec<(usize, Base)>> {
    let mut standing: Vec<Base> = found.values().flatten().map(|(_, b)| *b).collect();
    let mut out: BTreeMap<usize, Vec<(usize, Base)>> = BTreeMap::new();
    for (ui, unit) in roster.units.iter().enumerate() {
        let Some(bases) = found.get(&ui) else { continue };
        for (i, b) in infer_unit(unit, bases) {
            let clear = standing.iter().all(|o| {
                o.centre().distance(b.centre())
                    >= 0.5 * b.width().min(b.depth()).min(o.width().min(o.depth()))
            });
            if clear {
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
}
