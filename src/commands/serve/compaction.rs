//! Folding a corrections file (issue 41 item 4): a base moved ten times keeps its last
//! move, a base turned and flipped keeps one `rotate`, a unit given to three sides keeps
//! the last, so that a long session's file stays short and a restart applies it fast.
//!
//! A fold is made only where it is exact on any table the file applies to, to the bit
//! (a re-scanned photo gives the file a slightly different table): the folded file
//! gives the same table as the whole one wherever the whole one applies.
//! - A later `move` of a base replaces its earlier ones (a move sets the centre and
//!   keeps the heading; a turn keeps the centre: the two commute).
//! - A `rotate` replaces the base's earlier `rotate`s and `flip`s, and takes in the
//!   `flip`s after it (its heading turned by 180° as `flip` turns it, the same
//!   arithmetic). `flip`s with no `rotate` before them stay: two flips return a heading
//!   only to within rounding, and the heading they turn is the table's.
//! - A `delete` of a base takes its earlier moves, turns and flips with it.
//! - A later `side` of a unit replaces its earlier ones.
//! - A correction that changes which base a name names, or which bases a unit has
//!   (`delete`, `add`, `reassign` on the unit it takes from and the unit it gives to,
//!   `swap` on both units, `place` on the unit it puts on the table),
//!   ends every fold on that unit: corrections before and after it are never folded
//!   together.
//!
//! The last corrections are kept as made ([`UNDO_KEPT`]), so that *Undo* on the page
//! takes back one correction at a time; before them, an undo takes back what one folded
//! entry holds.

use super::corrections::Correction;
use std::collections::HashMap;

/// How many of the last corrections are kept as made (the page's undo steps back
/// through them one at a time).
pub const UNDO_KEPT: usize = 200;

/// What one base's folds hold so far (indices into the corrections).
#[derive(Debug, Default)]
struct Folds {
    /// Its last `move`.
    moved: Option<usize>,
    /// Its last `rotate` (the `flip`s after it folded in).
    rotated: Option<usize>,
    /// Its `flip`s with no `rotate` before them.
    flips: Vec<usize>,
}

/// The folds open while the corrections are read.
#[derive(Debug, Default)]
struct Open<'a> {
    /// Each base's, by (unit, number): `u#3` and `u#03` are one base.
    bases: HashMap<(&'a str, usize), Folds>,
    /// Each unit's last `side`.
    sides: HashMap<&'a str, usize>,
    /// The numbers of each unit's bases with folds open.
    numbers: HashMap<&'a str, Vec<usize>>,
}

impl<'a> Open<'a> {
    /// Ends every fold on `unit`.
    fn barrier(&mut self, unit: &'a str) {
        for n in self.numbers.remove(unit).unwrap_or_default() {
            self.bases.remove(&(unit, n));
        }
        self.sides.remove(unit);
    }

    /// The folds of the base `key`.
    fn base(&mut self, key: (&'a str, usize)) -> &mut Folds {
        if !self.bases.contains_key(&key) {
            self.numbers.entry(key.0).or_default().push(key.1);
        }
        self.bases.entry(key).or_default()
    }
}

/// `corrections` folded where that is exact (see the module's documentation), the last
/// `keep` left as made. The folded list is never longer, and keeps the order of what it
/// keeps.
#[must_use]
pub fn compact(corrections: &[Correction], keep: usize) -> Vec<Correction> {
    let cut = corrections.len().saturating_sub(keep);
    let mut out: Vec<Option<Correction>> = corrections[..cut].iter().cloned().map(Some).collect();
    let mut open = Open::default();
    for (i, c) in corrections[..cut].iter().enumerate() {
        let unit_of_base = c.target().rsplit_once('#').map(|(u, _)| u);
        match c {
            Correction::Side { unit, .. } => {
                if let Some(j) = open.sides.insert(unit.as_str(), i) {
                    out[j] = None;
                }
            }
            Correction::Add { unit, .. } | Correction::Facing { unit, .. } => open.barrier(unit),
            Correction::Place { unit } => open.barrier(&unit.id),
            Correction::Swap { unit, with } => {
                open.barrier(unit);
                open.barrier(with);
            }
            Correction::Reassign { to, .. } => {
                if let Some(unit) = unit_of_base {
                    open.barrier(unit);
                }
                open.barrier(to);
            }
            Correction::Delete { base } => {
                if let Some(key) = base_key(base)
                    && let Some(f) = open.bases.remove(&key)
                {
                    for j in f.moved.into_iter().chain(f.rotated).chain(f.flips) {
                        out[j] = None;
                    }
                }
                if let Some(unit) = unit_of_base {
                    open.barrier(unit);
                }
            }
            Correction::Move { base, .. } | Correction::Rotate { base, .. } | Correction::Flip { base } => {
                let Some(key) = base_key(base) else {
                    // A name that names no base by number: nothing about it is folded.
                    if let Some(unit) = unit_of_base {
                        open.barrier(unit);
                    }
                    continue;
                };
                let f = open.base(key);
                match c {
                    Correction::Move { .. } => {
                        if let Some(j) = f.moved.replace(i) {
                            out[j] = None;
                        }
                    }
                    Correction::Rotate { .. } => {
                        for j in f.rotated.replace(i).into_iter().chain(f.flips.drain(..)) {
                            out[j] = None;
                        }
                    }
                    _ => match f.rotated.and_then(|j| out[j].as_mut()) {
                        Some(Correction::Rotate { heading, .. }) => {
                            *heading = (*heading + 180.0).rem_euclid(360.0);
                            out[i] = None;
                        }
                        _ => f.flips.push(i),
                    },
                }
            }
        }
    }
    out.into_iter().flatten().chain(corrections[cut..].iter().cloned()).collect()
}

/// The unit and number of a base's name, `unit#number` (`None` when it is not one).
fn base_key(name: &str) -> Option<(&str, usize)> {
    let (unit, number) = name.rsplit_once('#')?;
    Some((unit, number.parse().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::commands::serve::corrector::Corrector;
    use proptest::prelude::*;
    use vedette_geometry::Table;

    fn table(shift_mm: f64, turn_deg: f64) -> Table {
        let text = format!(
            r#"{{"schema":"vedette/table/1","rules":"republique5","scale":"medium","units":[
            {{"id":"a","side":"fr","kind":"infantry","formation":"line","bases":[
              {{"x":{0},"y":0,"heading":{1},"width":30,"depth":20}},{{"x":{2},"y":0,"heading":{3},"width":30,"depth":20}},
              {{"x":{4},"y":0,"heading":{1},"width":30,"depth":20}}]}},
            {{"id":"b","side":"au","kind":"infantry","formation":"line","bases":[
              {{"x":0,"y":200,"heading":{5},"width":40,"depth":15}},{{"x":50,"y":200,"heading":{5},"width":40,"depth":15}}]}}]}}"#,
            0.0 + shift_mm,
            90.1 + turn_deg,
            30.0 + shift_mm,
            0.3 + turn_deg,
            60.0 + shift_mm,
            -90.0 + turn_deg
        );
        Table::from_json_str(&text).unwrap()
    }

    fn correction() -> impl Strategy<Value = Correction> {
        let base = prop::sample::select(vec!["a#0", "a#1", "a#2", "a#3", "a#01", "b#0", "b#1", "b#2"])
            .prop_map(String::from);
        let unit = prop::sample::select(vec!["a", "b"]).prop_map(String::from);
        let heading = prop::sample::select(vec![0.1, 90.0, 359.95, -45.3, 1000.7]);
        prop_oneof![
            3 => (base.clone(), 0.0..500.0f64).prop_map(|(base, x)| Correction::Move { base, x, y: 7.5 }),
            3 => (base.clone(), heading.clone()).prop_map(|(base, heading)| Correction::Rotate { base, heading }),
            4 => base.clone().prop_map(|base| Correction::Flip { base }),
            1 => base.clone().prop_map(|base| Correction::Delete { base }),
            1 => (unit.clone(), heading).prop_map(|(unit, heading)| Correction::Add { unit, x: 9.0, y: 9.0, heading, width: None, depth: None }),
            1 => (base, unit.clone()).prop_map(|(base, to)| Correction::Reassign { base, to }),
            2 => (unit.clone(), prop::sample::select(vec!["fr", "au", "pr"])).prop_map(|(unit, side)| Correction::Side { unit, side: side.to_string() }),
            1 => (unit.clone(), unit.clone()).prop_map(|(unit, with)| Correction::Swap { unit, with }),
            1 => (unit, any::<bool>()).prop_map(|(unit, flip)| Correction::Facing { unit, flip }),
        ]
    }

    /// The corrections of `tries` that apply in turn to `table` (a file as the page
    /// writes it: only accepted corrections).
    fn accepted(table: &Table, tries: Vec<Correction>) -> Vec<Correction> {
        let mut k = Corrector::new(table.clone());
        tries.into_iter().filter(|c| k.apply(c).is_ok()).collect()
    }

    fn applied(table: &Table, cs: &[Correction]) -> Option<Table> {
        let mut k = Corrector::new(table.clone());
        cs.iter().all(|c| k.apply(c).is_ok()).then(|| k.into_table())
    }

    proptest! {
        #![proptest_config(ProptestConfig {
            cases: 400,
            rng_seed: proptest::test_runner::RngSeed::Fixed(41),
            failure_persistence: None,
            ..ProptestConfig::default()
        })]

        /// Folded, a file gives the table the whole file gives, to the bit: on the table
        /// it was made on, and on the same table scanned again (every base 0.3 mm and
        /// 0.7° elsewhere) wherever the whole file applies there; never longer; its last
        /// `keep` corrections as made.
        #[test]
        fn folding_is_exact_on_any_table_the_file_applies_to(
            tries in proptest::collection::vec(correction(), 0..80),
            keep in 0usize..4,
        ) {
            let made_on = table(0.0, 0.0);
            let file = accepted(&made_on, tries);
            let folded = compact(&file, keep);
            prop_assert!(folded.len() <= file.len());
            let k = keep.min(file.len());
            prop_assert_eq!(&folded[folded.len() - k..], &file[file.len() - k..]);
            prop_assert_eq!(applied(&made_on, &folded), applied(&made_on, &file));
            let rescanned = table(0.3, 0.7);
            if let Some(whole) = applied(&rescanned, &file) {
                prop_assert_eq!(applied(&rescanned, &folded), Some(whole));
            }
        }
    }

    #[test]
    fn a_long_session_folds_to_a_few_entries() {
        let mut file = Vec::new();
        for k in 0..500 {
            file.push(Correction::Move { base: "a#1".into(), x: f64::from(k), y: 3.0 });
            file.push(Correction::Rotate { base: "a#1".into(), heading: f64::from(k) / 7.0 });
            file.push(Correction::Flip { base: "a#1".into() });
            file.push(Correction::Side {
                unit: "b".into(),
                side: if k % 2 == 0 { "fr" } else { "au" }.into(),
            });
            file.push(Correction::Flip { base: "b#0".into() });
        }
        let folded = compact(&file, 0);
        // a#1: one move and one rotate (the last, its flip folded in); b: its last side;
        // b#0: 500 flips with no rotate before them stay (their sum is the table's
        // heading turned 500 times, not a number known here).
        let expected_heading = (499.0 / 7.0 + 180.0f64).rem_euclid(360.0);
        let a1: Vec<&Correction> = folded.iter().filter(|c| c.target() == "a#1").collect();
        assert_eq!(
            a1,
            [
                &Correction::Move { base: "a#1".into(), x: 499.0, y: 3.0 },
                &Correction::Rotate { base: "a#1".into(), heading: expected_heading },
            ]
        );
        assert_eq!(folded.iter().filter(|c| matches!(c, Correction::Side { .. })).count(), 1);
        assert_eq!(folded.iter().filter(|c| matches!(c, Correction::Flip { .. })).count(), 500);
        assert_eq!(folded.len(), 503);
        let t = table(0.0, 0.0);
        assert_eq!(applied(&t, &folded), applied(&t, &file));
        // A delete ends the folds of its unit: moves of a#2 before and after it stay
        // apart (after it, a#2 is another base).
        let file = vec![
            Correction::Move { base: "a#2".into(), x: 1.0, y: 1.0 },
            Correction::Delete { base: "a#0".into() },
            Correction::Move { base: "a#1".into(), x: 2.0, y: 2.0 },
            Correction::Move { base: "a#1".into(), x: 3.0, y: 3.0 },
        ];
        assert_eq!(compact(&file, 0), vec![file[0].clone(), file[1].clone(), file[3].clone()]);
        assert_eq!(
            compact(&file, 1),
            vec![file[0].clone(), file[1].clone(), file[2].clone(), file[3].clone()]
        );
    }
}
