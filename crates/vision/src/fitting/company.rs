//! Which of a unit's twins stands where, when the photo cannot tell them apart (issue
//! 37 item 3). Twins (one side, kind and layout of bases, [`super::twins`]) whose
//! declared paints do not decide between them are given the fitted places in the
//! order the places come, and said `ambiguous-unit`. The roster may still say where
//! each stands: a unit keeps company with its own ([`Company`]), a skirmisher or a
//! limber with its parent, any other unit with its division (a division deploys as one
//! body: on the second renderer's untagged photos its units stand within a few hundred
//! mm of one another, and divisions apart). So the places given to a class of tied
//! twins are shared out again ([`share`]): each member where it stands nearest a
//! base of its company placed on the table (found by its tags or fitted, not one of the
//! class), the sharing of least total distance, when it is clearly less than the
//! photo's order ([`MARGIN_MM`]). The photo still cannot tell them apart: the
//! `ambiguous-unit` issues stay (renamed with their units), and the viewer still offers
//! the swap. Twins of one division, or without a division, keep the photo's order.
//! Tagged twins none of whose tags was read (issue 36) are looked for only when the
//! roster tells them apart ([`tells_apart`]) and placed only by a sharing the roster
//! decides surely ([`Sharing::sure`]): a twin on its twin's place is a wrong unit.

use crate::roster::Roster;
use vedette_geometry::Vec2;

/// A sharing of the places must bring its members this much nearer their company in
/// all, mm, to be taken over the photo's order: about two bases' frontage. A division
/// stands over a few hundred mm, so between twins of one division the nearest
/// distances differ by chance by tens of mm; between divisions, by hundreds.
pub(crate) const MARGIN_MM: f64 = 50.0;

/// The most members of a class shared out by trying every sharing (8! = 40,320);
/// a larger class keeps the photo's order.
const MAX_CLASS: usize = 8;

/// Whom a roster unit keeps company with on the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Company<'a> {
    /// A skirmisher or limber: its parent unit (by id).
    Parent(&'a str),
    /// Any other unit: its division's other units.
    Division(&'a str),
    /// Nobody declared.
    Alone,
}

impl<'a> Company<'a> {
    /// The company of roster unit `unit`.
    pub(crate) fn of(roster: &'a Roster, unit: usize) -> Company<'a> {
        let Some(u) = roster.units.get(unit) else { return Company::Alone };
        match (&u.parent, &u.division) {
            (Some(p), _) => Company::Parent(p),
            (None, Some(d)) => Company::Division(d),
            (None, None) => Company::Alone,
        }
    }

    /// Whether roster unit `other` is of this company.
    fn has(self, roster: &Roster, other: usize) -> bool {
        let Some(o) = roster.units.get(other) else { return false };
        match self {
            Company::Parent(p) => o.id == p,
            Company::Division(d) => o.division.as_deref() == Some(d),
            Company::Alone => false,
        }
    }
}

/// How far `at` is from roster unit `unit`'s company on the table: the nearest base
/// centre of a `placed` unit (roster index, its bases' centres) of its company, not a
/// member of `class`. `None`: none of its company is placed (or none declared).
pub(crate) fn apart(
    roster: &Roster,
    unit: usize,
    at: Vec2,
    placed: &[(usize, Vec<Vec2>)],
    class: &[usize],
) -> Option<f64> {
    let company = Company::of(roster, unit);
    placed
        .iter()
        .filter(|(o, _)| *o != unit && !class.contains(o) && company.has(roster, *o))
        .flat_map(|(_, centres)| centres.iter().map(|c| c.distance(at)))
        .min_by(f64::total_cmp)
}

/// How the places given to a class of tied twins may be shared out among its members
/// ([`share`]).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Sharing {
    /// The sharing of least total cost: `given[i]` (a member) at place `i`.
    pub given: Vec<usize>,
    /// Its total cost, mm.
    least: f64,
    /// The total cost of the photo's order (`held`), mm.
    now: f64,
    /// Per place, the member the roster surely puts there ([`Sharing::sure`]).
    sure: Vec<Option<usize>>,
}

impl Sharing {
    /// The sharing to take over the photo's order, for twins the photo may place by its
    /// own order (untagged units): the best, when it is at least [`MARGIN_MM`] less
    /// than the photo's order.
    pub(crate) fn over_photos_order(self) -> Option<Vec<usize>> {
        (self.least <= self.now - MARGIN_MM).then_some(self.given)
    }

    /// Per place, the member the roster decides surely, for twins placed only where
    /// their company says (tagged units none of whose tags was read, issue 36): every
    /// member's company has a base on the table, the member's company stands at least
    /// [`MARGIN_MM`] nearer the place than any other member's would, and that member's
    /// company is not the nearest at another place (`None`: the place is no one's
    /// surely). The last two hold when a place is no twin's (a formation slid onto
    /// another unit's bases and cubes): on the second renderer's tagged-304 both places
    /// given to au-3 (au-d2) and au-7 (au-d1) stood in au-d1, au-7's true place and one
    /// over au-10, and the sharing of least total distance put au-3 on au-7's. Twins of
    /// one company stand as near at any place, so neither is ever sure.
    pub(crate) fn sure(self) -> Vec<Option<usize>> {
        self.sure
    }
}

/// The members of `class` given to `places.len()` places, of which place `i` is held by
/// `held[i]` (a member), so that each stands near its company: `cost(m, i)` is how
/// far member `m` (an index into `class`) would stand from its company at place `i`
/// (`None`: its company is not placed, which counts 0 anywhere). The sharing of least
/// total cost, one member per place, beside the photo's order, and each place's sure
/// member ([`Sharing`]; the caller says which rule decides). `None`: no place, more
/// places than members, a place held by a non-member, or more than [`MAX_CLASS`]
/// members.
pub(crate) fn share(
    class: &[usize],
    held: &[usize],
    cost: impl Fn(usize, usize) -> Option<f64>,
) -> Option<Sharing> {
    let (n, k) = (class.len(), held.len());
    if k == 0 || k > n || n > MAX_CLASS {
        return None;
    }
    let costs: Vec<Vec<Option<f64>>> = (0..n).map(|m| (0..k).map(|i| cost(m, i)).collect()).collect();
    let all_in_company = costs.iter().all(|row| row.iter().all(Option::is_some));
    let table: Vec<Vec<f64>> =
        costs.iter().map(|row| row.iter().map(|c| c.unwrap_or(0.0)).collect()).collect();
    let index = |u: usize| class.iter().position(|&c| c == u);
    let now: Option<f64> = held.iter().enumerate().map(|(i, &u)| index(u).map(|m| table[m][i])).sum();
    let now = now?;
    // Every injective map of the places to members, depth first.
    let mut best: Option<(f64, Vec<usize>)> = None;
    let mut chosen: Vec<usize> = Vec::with_capacity(k);
    let mut used = vec![false; n];
    fn search(
        table: &[Vec<f64>],
        chosen: &mut Vec<usize>,
        used: &mut [bool],
        sum: f64,
        best: &mut Option<(f64, Vec<usize>)>,
    ) {
        let i = chosen.len();
        if best.as_ref().is_some_and(|(b, _)| sum >= *b) {
            return;
        }
        if i == table.first().map_or(0, Vec::len) {
            *best = Some((sum, chosen.clone()));
            return;
        }
        for m in 0..used.len() {
            if !used[m] {
                used[m] = true;
                chosen.push(m);
                search(table, chosen, used, sum + table[m][i], best);
                chosen.pop();
                used[m] = false;
            }
        }
    }
    search(&table, &mut chosen, &mut used, 0.0, &mut best);
    let (least, members) = best?;
    // Per place, the member whose company stands nearest, and whether by the margin.
    let nearest: Vec<(usize, bool)> = (0..k)
        .map(|i| {
            let m = (0..n).min_by(|&a, &b| table[a][i].total_cmp(&table[b][i])).unwrap_or(0);
            (m, (0..n).all(|o| o == m || table[m][i] + MARGIN_MM <= table[o][i]))
        })
        .collect();
    let sure = nearest
        .iter()
        .enumerate()
        .map(|(i, &(m, by_margin))| {
            let alone = nearest.iter().enumerate().all(|(j, &(o, _))| j == i || o != m);
            (all_in_company && by_margin && alone).then_some(class[m])
        })
        .collect();
    Some(Sharing { given: members.into_iter().map(|m| class[m]).collect(), least, now, sure })
}

/// Whether the roster tells twins `a` and `b` apart by their company: each keeps a
/// declared company ([`Company`]), not the same, and each company has a unit other
/// than the two `on_table` (found by its tags, or an untagged unit the fitter may
/// place). Tagged twins none of whose tags was read are looked for only then (issue
/// 36), and placed only where [`Sharing::sure`] says.
pub(crate) fn tells_apart(roster: &Roster, a: usize, b: usize, on_table: impl Fn(usize) -> bool) -> bool {
    let (ca, cb) = (Company::of(roster, a), Company::of(roster, b));
    let present =
        |c: Company| (0..roster.units.len()).any(|o| o != a && o != b && c.has(roster, o) && on_table(o));
    ca != cb && ca != Company::Alone && cb != Company::Alone && present(ca) && present(cb)
}

/// The renaming of `class`'s members that a new sharing makes: member `held[i]` (the
/// unit at place `i` before) becomes `given[i]`, and the members left without a place
/// take, in order, the names left over. A one-to-one map of the class onto itself, so
/// that everything said of a member (its `ambiguous-unit` issue and twins, its assumed
/// facing) follows its place.
pub(crate) fn renaming(class: &[usize], held: &[usize], given: &[usize]) -> Vec<(usize, usize)> {
    let mut map: Vec<(usize, usize)> = held.iter().copied().zip(given.iter().copied()).collect();
    let from_left: Vec<usize> = class.iter().copied().filter(|u| !held.contains(u)).collect();
    let to_left: Vec<usize> = class.iter().copied().filter(|u| !given.contains(u)).collect();
    map.extend(from_left.into_iter().zip(to_left));
    map
}

/// The classes of tied twins: the members linked by `ties` (pairs of roster units the
/// photo could not tell apart), each class in ascending order.
pub(crate) fn classes(ties: &[(usize, usize)]) -> Vec<Vec<usize>> {
    let mut classes: Vec<Vec<usize>> = Vec::new();
    for &(a, b) in ties {
        let ia = classes.iter().position(|c| c.contains(&a));
        let ib = classes.iter().position(|c| c.contains(&b));
        match (ia, ib) {
            (Some(i), Some(j)) if i != j => {
                let other = classes.remove(i.max(j));
                classes[i.min(j)].extend(other);
            }
            (Some(_), Some(_)) => {}
            (Some(i), None) => classes[i].push(b),
            (None, Some(j)) => classes[j].push(a),
            (None, None) => classes.push(vec![a, b]),
        }
    }
    for c in &mut classes {
        c.sort_unstable();
    }
    classes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::roster::{Game, Roster, RosterUnit};
    use vedette_geometry::{RuleSet, Scale, UnitKind};

    fn unit(id: &str, kind: UnitKind, division: Option<&str>, parent: Option<&str>) -> RosterUnit {
        let t = vedette_geometry::Unit::new(id.to_string(), "austria", kind, Vec::new());
        let mut u = RosterUnit::untagged(&t, [40.0, 30.0], 3);
        u.division = division.map(str::to_string);
        u.parent = parent.map(str::to_string);
        u
    }

    /// [`share`] decided as for untagged twins ([`Sharing::over_photos_order`]).
    fn arrange(
        class: &[usize],
        held: &[usize],
        cost: impl Fn(usize, usize) -> Option<f64>,
    ) -> Option<Vec<usize>> {
        share(class, held, cost)?.over_photos_order()
    }

    fn roster(units: Vec<RosterUnit>) -> Roster {
        let game = Game { rules: RuleSet::Republique5, scale: Scale::Medium, name: None, near_side: None };
        Roster::from_units(game, units).unwrap()
    }

    /// Two twin cavalry lines of divisions d1 and d2; d1's infantry at x = 200, d2's at
    /// x = 1400. The photo gave au-1 (d1) the place at x = 1300 and au-2 (d2) the one
    /// at x = 300: shared out again, each goes to its division's side; with the
    /// divisions removed, or both of one division, the photo's order stands.
    #[test]
    fn twins_go_to_their_divisions() {
        let r = roster(vec![
            unit("au-1", UnitKind::Cavalry, Some("d1"), None),
            unit("au-2", UnitKind::Cavalry, Some("d2"), None),
            unit("au-3", UnitKind::Infantry, Some("d1"), None),
            unit("au-4", UnitKind::Infantry, Some("d2"), None),
        ]);
        let placed = vec![(2, vec![Vec2::new(200.0, 500.0)]), (3, vec![Vec2::new(1400.0, 500.0)])];
        let places = [Vec2::new(1300.0, 500.0), Vec2::new(300.0, 500.0)];
        let class = [0, 1];
        let held = [0, 1];
        let cost = |r: &Roster, m: usize, i: usize| apart(r, class[m], places[i], &placed, &class);
        assert_eq!(cost(&r, 0, 0), Some(1100.0));
        let given = arrange(&class, &held, |m, i| cost(&r, m, i)).unwrap();
        assert_eq!(given, vec![1, 0]);
        assert_eq!(renaming(&class, &held, &given), vec![(0, 1), (1, 0)]);
        // Under scan-sized noise (the places and the infantry's bases 0.1 mm off, in
        // eight directions) the sharing is the same.
        for k in 0..8 {
            let d = Vec2::from_heading_deg(45.0 * f64::from(k)) * 0.1;
            let placed: Vec<(usize, Vec<Vec2>)> =
                placed.iter().map(|(u, c)| (*u, c.iter().map(|p| *p - d).collect())).collect();
            let places = places.map(|p| p + d);
            let given = arrange(&class, &held, |m, i| apart(&r, class[m], places[i], &placed, &class));
            assert_eq!(given, Some(vec![1, 0]), "{d:?}");
        }
        // Both of d1: the photo's order stands.
        let same = roster(vec![
            unit("au-1", UnitKind::Cavalry, Some("d1"), None),
            unit("au-2", UnitKind::Cavalry, Some("d1"), None),
            unit("au-3", UnitKind::Infantry, Some("d1"), None),
            unit("au-4", UnitKind::Infantry, Some("d2"), None),
        ]);
        assert_eq!(arrange(&class, &held, |m, i| cost(&same, m, i)), None);
        // No divisions: nothing to go by.
        let none = roster((1..=4).map(|i| unit(&format!("au-{i}"), UnitKind::Cavalry, None, None)).collect());
        assert_eq!(arrange(&class, &held, |m, i| cost(&none, m, i)), None);
    }

    /// Just inside and just outside the margin: a sharing [`MARGIN_MM`] better is
    /// taken, one a millimetre short of it is not.
    #[test]
    fn a_sharing_must_beat_the_photos_order_by_the_margin() {
        let class = [0, 1];
        let held = [0, 1];
        let costs = |gain: f64| move |m: usize, i: usize| Some(if m == i { 100.0 + gain } else { 100.0 });
        assert_eq!(arrange(&class, &held, costs(MARGIN_MM / 2.0)), Some(vec![1, 0]));
        assert_eq!(arrange(&class, &held, costs(MARGIN_MM / 2.0 - 0.5)), None);
    }

    /// A skirmisher stands with its parent, not its division: of two twin skirmishers
    /// of one division, each goes beside its own parent; a member without a place
    /// takes the name left over.
    #[test]
    fn a_skirmisher_keeps_company_with_its_parent() {
        let r = roster(vec![
            unit("au-1", UnitKind::Infantry, Some("d1"), None),
            unit("au-2", UnitKind::Infantry, Some("d1"), None),
            unit("au-s1", UnitKind::Skirmisher, Some("d1"), Some("au-1")),
            unit("au-s2", UnitKind::Skirmisher, Some("d1"), Some("au-2")),
            unit("au-s3", UnitKind::Skirmisher, Some("d1"), None),
        ]);
        assert_eq!(Company::of(&r, 2), Company::Parent("au-1"));
        assert_eq!(Company::of(&r, 4), Company::Division("d1"));
        let placed = vec![(0, vec![Vec2::new(300.0, 400.0)]), (1, vec![Vec2::new(900.0, 400.0)])];
        // The photo gave au-s1 the place in front of au-2 and au-s3 the one in front
        // of au-1; au-s2 has none.
        let places = [Vec2::new(900.0, 450.0), Vec2::new(300.0, 450.0)];
        let class = [2, 3, 4];
        let held = [2, 4];
        let given = arrange(&class, &held, |m, i| apart(&r, class[m], places[i], &placed, &class)).unwrap();
        // au-s2 in front of au-2, au-s1 in front of au-1; au-s3 left without a place.
        assert_eq!(given, vec![3, 2]);
        assert_eq!(renaming(&class, &held, &given), vec![(2, 3), (4, 2), (3, 4)]);
    }

    /// Tagged twins none of whose tags was read (issue 36) are placed only where sure:
    /// the twins of divisions d1 and d2 of `twins_go_to_their_divisions` go to their
    /// divisions' sides whichever order the photo gave, even when the photo's order is
    /// already right (not better than itself, but sure). Of one division, without
    /// divisions, or with one division not on the table, no place is sure; nor between
    /// companies nearer each other than the margin.
    #[test]
    fn tagged_twins_are_placed_only_by_a_sure_sharing() {
        let two = |d1: Option<&str>, d2: Option<&str>| {
            roster(vec![
                unit("au-1", UnitKind::Cavalry, d1, None),
                unit("au-2", UnitKind::Cavalry, d2, None),
                unit("au-3", UnitKind::Infantry, Some("d1"), None),
                unit("au-4", UnitKind::Infantry, Some("d2"), None),
            ])
        };
        let placed = vec![(2, vec![Vec2::new(200.0, 500.0)]), (3, vec![Vec2::new(1400.0, 500.0)])];
        let places = [Vec2::new(1300.0, 500.0), Vec2::new(300.0, 500.0)];
        let class = [0, 1];
        let sure = |r: &Roster, held: &[usize], placed: &[(usize, Vec<Vec2>)]| {
            share(&class, held, |m, i| apart(r, class[m], places[i], placed, &class)).map(Sharing::sure)
        };
        let r = two(Some("d1"), Some("d2"));
        assert_eq!(sure(&r, &[0, 1], &placed), Some(vec![Some(1), Some(0)]));
        assert_eq!(sure(&r, &[1, 0], &placed), Some(vec![Some(1), Some(0)]));
        // Under scan-sized noise (the places and the infantry's bases 0.1 mm off, in
        // eight directions) each place is as sure.
        for k in 0..8 {
            let d = Vec2::from_heading_deg(45.0 * f64::from(k)) * 0.1;
            let moved: Vec<(usize, Vec<Vec2>)> =
                placed.iter().map(|(u, c)| (*u, c.iter().map(|p| *p - d).collect())).collect();
            let off = places.map(|p| p + d);
            let s = share(&class, &[0, 1], |m, i| apart(&r, class[m], off[i], &moved, &class));
            assert_eq!(s.map(Sharing::sure), Some(vec![Some(1), Some(0)]), "{d:?}");
        }
        // The photo's order right already: not better than itself, but sure.
        assert_eq!(arrange(&class, &[1, 0], |m, i| apart(&r, class[m], places[i], &placed, &class)), None);
        // One place found of the two: the twin whose division stands by it.
        let one = share(&class, &[0], |m, _| apart(&r, class[m], places[1], &placed, &class));
        assert_eq!(one.map(Sharing::sure), Some(vec![Some(0)]));
        let nobody = Some(vec![None, None]);
        assert_eq!(sure(&two(Some("d1"), Some("d1")), &[0, 1], &placed), nobody);
        assert_eq!(sure(&two(None, None), &[0, 1], &placed), nobody);
        assert_eq!(sure(&r, &[0, 1], &placed[..1]), nobody);
        // At each place, the member given a millimetre short of the margin nearer its
        // company than the other: not sure; at the margin: sure.
        let costs = |gain: f64| move |m: usize, i: usize| Some(if m == i { 100.0 } else { 100.0 + gain });
        assert_eq!(share(&class, &[0, 1], costs(MARGIN_MM - 0.5)).map(Sharing::sure), nobody);
        assert_eq!(share(&class, &[1, 0], costs(MARGIN_MM)).map(Sharing::sure), Some(vec![Some(0), Some(1)]));
        // Both places nearer au-1's company (au-1's true place and a place that is
        // no twin's): the sharing of least total puts au-2 on one of them; neither
        // place is sure.
        let both_d1 = |m: usize, i: usize| Some([[120.0, 60.0], [200.0, 300.0]][m][i]);
        let s = share(&class, &[0, 1], both_d1).unwrap();
        assert_eq!(s.given, vec![1, 0]);
        assert_eq!(s.sure(), vec![None, None]);
        // Three members for two places: a place whose two nearest companies stand
        // within the margin is no one's; the other is its nearest member's.
        let costs3 = |m: usize, i: usize| Some([[10.0, 500.0], [500.0, 10.0], [40.0, 500.0]][m][i]);
        assert_eq!(share(&[0, 1, 2], &[0, 1], costs3).map(Sharing::sure), Some(vec![None, Some(1)]));
    }

    /// The roster tells twins apart by their company when both declare one, not the
    /// same, and each company has another unit on the table.
    #[test]
    fn twins_are_told_apart_by_companies_on_the_table() {
        let r = roster(vec![
            unit("au-1", UnitKind::Infantry, Some("d1"), None),
            unit("au-2", UnitKind::Infantry, Some("d2"), None),
            unit("au-3", UnitKind::Infantry, Some("d1"), None),
            unit("au-4", UnitKind::Cavalry, Some("d2"), None),
            unit("au-5", UnitKind::Infantry, None, None),
            unit("au-s1", UnitKind::Skirmisher, Some("d1"), Some("au-3")),
            unit("au-s2", UnitKind::Skirmisher, Some("d1"), Some("au-4")),
        ]);
        assert!(tells_apart(&r, 0, 1, |_| true));
        assert!(!tells_apart(&r, 0, 1, |o| o != 3), "d2 has no unit on the table");
        assert!(!tells_apart(&r, 0, 2, |_| true), "one division");
        assert!(!tells_apart(&r, 0, 4, |_| true), "au-5 declares none");
        // Skirmishers of one division, of different parents.
        assert!(tells_apart(&r, 5, 6, |_| true));
        assert!(!tells_apart(&r, 5, 6, |o| o != 2), "au-3 not on the table");
    }

    #[test]
    fn ties_make_classes() {
        assert_eq!(classes(&[(1, 4), (7, 8), (4, 9), (8, 1)]), vec![vec![1, 4, 7, 8, 9]]);
        assert_eq!(classes(&[(1, 4), (7, 8)]), vec![vec![1, 4], vec![7, 8]]);
        assert!(classes(&[]).is_empty());
    }
}
