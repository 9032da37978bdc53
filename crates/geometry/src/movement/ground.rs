//! What a move crosses and what it is charged for it, part by part (000 §3.5-3.7, 003
//! 303, 004 §15, §17.4.4): terrain areas the unit is within, obstacles it crosses,
//! packed batteries it passes through, roads it marches on, and the ground it may not
//! enter.
//!
//! # Readings
//! - **Within.** "A unit with any of its bases within rough terrain will pay double the
//!   normal movement cost", and "continues to pay that penalty so long as any portion of
//!   it remains within the terrain in question" (000 §3.5, §3.7): a part of the path is
//!   charged for a terrain area while some base reaches into it by more than
//!   [`TOUCHING_MM`] (a base touching a wood's edge is not in the wood; half a millimetre
//!   of a scan's noise must not make it so). Several areas at once charge the worst of
//!   them, not their product.
//! - **Factors** (000 §3.5): rough x2, double rough x4; artillery and other wheeled
//!   transport x4 in rough. A packed battery counts "as rough movement through" its
//!   position (000 §3.6) for the other units of its side whose bases reach into its
//!   base. On a road, a Republic road column lined up on it (every base with the road
//!   running through it from its front edge to its rear edge) moves at double rate: x½
//!   (003 303), on top of the terrain's factor.
//! - **Obstacles** (000 §3.6-3.7): crossed when the move brings the obstacle's line
//!   inside some base (by more than [`TOUCHING_MM`]) that no base straddled at the
//!   start; each one crossed costs its one-time loss once (treeline and hedge 1",
//!   stream bank 3" foot and horse, 6" artillery, steep river bank 7" foot).
//! - **Impassable** ground refuses the move, at the first part that reaches it: the
//!   terrain table's "Impassable to" column (horse and artillery in heavy forest, ...;
//!   fortress walls only by foot winning an assault, note 1), and water for everyone.
//!   Under Pro Patria: only units on foot pass through heavy woods, unless on a road
//!   (§15.8: a unit with every stand on a road there); only infantry through swamps
//!   (§15.6); no one through water (rivers, §15.3).
//! - **Assault bonus.** "N/A means that assault bonus movement is not allowed within or
//!   across that terrain type/feature" (000 §3.6): the parts where some such terrain
//!   holds the unit, and the obstacles it crosses that bar it, must be paid from the
//!   normal allowance ([`super::MoveAssessment::bonus_barred_mm`]).
//! - Under Pro Patria the deductions are on the reference sheets, not in the rule text
//!   (004 §17.4.4): the parts and crossings are listed without a factor.

use super::sweep::{BaseMotion, cut_points, line_runs_inside, line_segments, path_parts, ring_segments};
use crate::base::Base;
use crate::convex::boxes_meet;
use crate::rules::{RuleBook, RuleSet};
use crate::segment::Segment;
use crate::table::{Table, UnitKind};
use crate::terrain::{MovementCost, Mover, TerrainKind};
use crate::ties::TOUCHING_MM;
use crate::vec2::Vec2;

/// Something a part of the path is within.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ground {
    /// A terrain area, by index in the table's `terrain`.
    Terrain {
        /// The feature's index.
        feature: usize,
        /// Its kind.
        kind: TerrainKind,
    },
    /// A packed battery of the unit's side, by unit index (000 §3.6).
    PackedBattery {
        /// The battery's unit index.
        unit: usize,
    },
    /// An obstacle some base is astride (its line runs inside the base), by index in
    /// `terrain`.
    Obstacle {
        /// The feature's index.
        feature: usize,
        /// Its kind.
        kind: TerrainKind,
    },
    /// A road the whole road column is lined up on (003 303), by index in `terrain`.
    Road {
        /// The road's index.
        feature: usize,
    },
}

/// One part of the path and what it is charged.
#[derive(Debug, Clone, PartialEq)]
pub struct ChargePart {
    /// Where it starts on the path, a fraction (0 at the start, 1 at the end).
    pub from: f64,
    /// Where it ends.
    pub to: f64,
    /// Its length as the move is measured (on the outer edge of a wheel), mm.
    pub length_mm: f64,
    /// The terrain's cost per millimetre moved here (1 open, 2 rough, 4 double rough or
    /// rough for artillery, half that on a road in road column); `None` under Pro
    /// Patria, whose deductions are on the reference sheets.
    pub factor: Option<f64>,
    /// What the unit is within here: terrain areas, packed batteries, obstacles it is
    /// astride, the road.
    pub within: Vec<Ground>,
    /// A feature here that bars the assault bonus (000 §3.6 "N/A"), by index in
    /// `terrain`.
    pub bonus_barred_by: Option<usize>,
}

/// An obstacle the move crosses.
#[derive(Debug, Clone, PartialEq)]
pub struct Crossing {
    /// The feature's index in `terrain`.
    pub feature: usize,
    /// Its kind.
    pub kind: TerrainKind,
    /// Where on the path the unit reaches it, a fraction.
    pub at: f64,
    /// The one-time loss, mm (000 §3.6); `None` when the table gives none (or under Pro
    /// Patria: on the reference sheets).
    pub loss_mm: Option<f64>,
    /// It bars the assault bonus for this mover.
    pub bars_bonus: bool,
}

/// Why a move may not be made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RefusalReason {
    /// The terrain table makes it impassable to this mover (000 §3.6; water for all).
    Impassable,
    /// Fortress walls: only foot winning an assault passes (000 §3.6 note 1).
    AssaultOnly,
    /// Pro Patria heavy woods: only units on foot, unless on a road (004 §15.8).
    HeavyWoodsOnFoot,
    /// Pro Patria swamps: only infantry (004 §15.6).
    SwampInfantryOnly,
    /// Pro Patria rivers: no crossing but at a ford (004 §15.3-15.4).
    River,
}

impl RefusalReason {
    /// The rule section.
    #[must_use]
    pub fn section(self) -> &'static str {
        match self {
            RefusalReason::Impassable => "000 §3.6",
            RefusalReason::AssaultOnly => "000 §3.6 note 1",
            RefusalReason::HeavyWoodsOnFoot => "004 §15.8",
            RefusalReason::SwampInfantryOnly => "004 §15.6",
            RefusalReason::River => "004 §15.3-15.4",
        }
    }
}

/// Ground the move may not enter or cross.
#[derive(Debug, Clone, PartialEq)]
pub struct Refusal {
    /// The feature's index in `terrain`.
    pub feature: usize,
    /// Its kind.
    pub kind: TerrainKind,
    /// Where on the path the unit reaches it, a fraction.
    pub at: f64,
    /// Why.
    pub reason: RefusalReason,
}

/// Everything the ground does to one move.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct GroundCharge {
    /// The parts of the path, in order, each with what it is charged.
    pub parts: Vec<ChargePart>,
    /// Obstacles crossed, in path order.
    pub crossings: Vec<Crossing>,
    /// Ground the move may not enter, in path order.
    pub refusals: Vec<Refusal>,
    /// Some base is in rough terrain (or a packed battery) over the whole path: a
    /// formation change made anywhere on it costs double (000 §3.5).
    pub rough_throughout: bool,
}

/// How the rule set takes ground.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Family {
    /// Republique 5.0, classic, Republic: the 000 §3.6 table.
    Republique,
    /// Pro Patria: its own terrain sections.
    ProPatria,
}

/// The state of the unit at one point of the path.
#[derive(Debug, Default)]
struct State {
    areas: Vec<usize>,
    batteries: Vec<usize>,
    obstacles: Vec<usize>,
    road: Option<usize>,
}

/// What a move's unit and rules bring to the ground.
#[derive(Debug, Clone, Copy)]
pub struct Mobile<'a> {
    /// The table before the move.
    pub table: &'a Table,
    /// The rule book.
    pub book: &'a RuleBook,
    /// The unit's index in `table`.
    pub unit: usize,
    /// The measured distance of the whole move, mm.
    pub distance_mm: f64,
    /// Each base's motion.
    pub motions: &'a [BaseMotion],
    /// Packed batteries of the unit's side, by unit index (Republique family).
    pub packed: &'a [usize],
}

impl Mobile<'_> {
    fn mover(&self) -> Mover {
        self.table.units[self.unit].kind.mover()
    }

    fn family(&self) -> Family {
        if self.book.rules() == RuleSet::ProPatria { Family::ProPatria } else { Family::Republique }
    }

    /// Road movement applies (003 303): Republic, and a road column.
    fn road_column(&self) -> bool {
        self.book.rules() == RuleSet::Republic
            && self.table.units[self.unit].formation == Some(crate::table::Formation::RoadColumn)
    }
}

/// True for the area kinds that can matter to a move under `family`.
fn area_matters(kind: TerrainKind, family: Family) -> bool {
    match family {
        Family::Republique => {
            let p = kind.properties();
            p.movement != MovementCost::Normal
                || p.impassable != crate::terrain::Impassable::default()
                || p.assault_move != crate::terrain::AssaultMove::All
        }
        Family::ProPatria => !matches!(kind, TerrainKind::Hill),
    }
}

/// The box of a set of points.
fn points_box(points: impl Iterator<Item = Vec2>) -> (Vec2, Vec2) {
    crate::convex::bbox(points)
}

/// Charges the move of `m` over the ground of its table.
#[must_use]
pub fn charge(m: &Mobile<'_>) -> GroundCharge {
    let table = m.table;
    let family = m.family();
    let mover = m.mover();
    let insets: Vec<BaseMotion> = m.motions.iter().map(|b| b.inset(TOUCHING_MM)).collect();
    let boxes: Vec<(Vec2, Vec2)> = m.motions.iter().map(BaseMotion::swept_box).collect();
    let meets = |lo: Vec2, hi: Vec2| boxes.iter().any(|&(a, b)| boxes_meet((a, b), (lo, hi)));
    let mut areas: Vec<(usize, Vec<Segment>)> = Vec::new();
    let mut obstacles: Vec<(usize, Vec<Segment>)> = Vec::new();
    let mut roads: Vec<(usize, Vec<Segment>)> = Vec::new();
    let want_roads = m.road_column() || family == Family::ProPatria;
    for (i, f) in table.terrain.iter().enumerate() {
        if f.kind == TerrainKind::Road {
            if want_roads && f.path.len() >= 2 {
                let (lo, hi) = points_box(f.path.iter().copied());
                if meets(lo, hi) {
                    roads.push((i, line_segments(&f.path)));
                }
            }
        } else if f.kind.is_linear() {
            if f.path.len() >= 2 {
                let (lo, hi) = points_box(f.path.iter().copied());
                if meets(lo, hi) {
                    obstacles.push((i, line_segments(&f.path)));
                }
            }
        } else if f.outline.len() >= 3 && area_matters(f.kind, family) {
            let (lo, hi) = points_box(f.outline.iter().copied());
            if meets(lo, hi) {
                let mut segs = ring_segments(&f.outline);
                for h in &f.holes {
                    segs.extend(ring_segments(h));
                }
                areas.push((i, segs));
            }
        }
    }
    let batteries: Vec<(usize, Vec<Segment>)> = m
        .packed
        .iter()
        .filter(|&&u| u != m.unit)
        .filter_map(|&u| table.units.get(u).map(|unit| (u, unit)))
        .filter(|(_, unit)| unit.bases.iter().any(|b| meets(b.aabb().0, b.aabb().1)))
        .map(|(u, unit)| (u, unit.bases.iter().flat_map(|b| b.edges()).collect()))
        .collect();
    // Every event of every base against every shape near it.
    let mut events = Vec::new();
    for (k, inset) in insets.iter().enumerate() {
        let (lo, hi) = boxes[k];
        for (_, segs) in areas.iter().chain(&obstacles).chain(&batteries) {
            let (slo, shi) = points_box(segs.iter().flat_map(|s| [s.a, s.b]));
            if boxes_meet((lo, hi), (slo, shi)) {
                inset.events(segs, &mut events);
            }
        }
        for (_, segs) in &roads {
            m.motions[k].events(segs, &mut events);
        }
    }
    let cuts = cut_points(events);
    let state_at = |s: f64| -> State {
        let real: Vec<Base> = m.motions.iter().map(|b| b.at(s)).collect();
        let inner: Vec<Base> = insets.iter().map(|b| b.at(s)).collect();
        let mut st = State::default();
        for (i, _) in &areas {
            let poly = table.terrain[*i].polygon();
            if inner
                .iter()
                .any(|b| b.width() > 0.0 && b.depth() > 0.0 && poly.area_inside(&b.polygon()) > 1e-9)
            {
                st.areas.push(*i);
            }
        }
        for (u, _) in &batteries {
            let cells = &table.units[*u].bases;
            if inner
                .iter()
                .any(|b| cells.iter().any(|c| c.polygon().intersection(&b.polygon()).area() > 1e-9))
            {
                st.batteries.push(*u);
            }
        }
        for (i, _) in &obstacles {
            if inner.iter().any(|b| line_runs_inside(b, &table.terrain[*i].path)) {
                st.obstacles.push(*i);
            }
        }
        if !roads.is_empty() {
            st.road = crate::republic::road_under(table, &real);
        }
        st
    };
    let start = state_at(0.0);
    let mut out = GroundCharge { rough_throughout: true, ..Default::default() };
    let mut crossed: Vec<usize> = Vec::new();
    let mut refused: Vec<usize> = Vec::new();
    let parts = path_parts(&cuts);
    let parts = if parts.is_empty() { vec![(0.0, 1.0)] } else { parts };
    for (from, to) in parts {
        let st = state_at((from + to) / 2.0);
        let mut within: Vec<Ground> = Vec::new();
        let mut worst = MovementCost::Normal;
        let mut barred: Option<usize> = None;
        for &i in &st.areas {
            let kind = table.terrain[i].kind;
            let p = kind.properties();
            within.push(Ground::Terrain { feature: i, kind });
            worst = worst.max(p.movement);
            if barred.is_none() && !p.assault_move.allows(mover) {
                barred = Some(i);
            }
            if let Some(reason) = refusal(kind, mover, family, st.road.is_some(), &table.units[m.unit].kind)
                && !refused.contains(&i)
            {
                refused.push(i);
                out.refusals.push(Refusal { feature: i, kind, at: from, reason });
            }
        }
        for &u in &st.batteries {
            within.push(Ground::PackedBattery { unit: u });
            worst = worst.max(MovementCost::Rough);
        }
        let on_road = m.road_column() && st.road.is_some();
        if let (true, Some(r)) = (on_road, st.road) {
            within.push(Ground::Road { feature: r });
        }
        if worst == MovementCost::Normal {
            out.rough_throughout = false;
        }
        for &i in &st.obstacles {
            let kind = table.terrain[i].kind;
            let p = kind.properties();
            within.push(Ground::Obstacle { feature: i, kind });
            if barred.is_none() && !p.assault_move.allows(mover) {
                barred = Some(i);
            }
            if start.obstacles.contains(&i) || crossed.contains(&i) {
                continue;
            }
            crossed.push(i);
            let loss_mm = match family {
                Family::Republique => p.crossing_loss.for_mover(mover).map(|l| m.book.measure_mm(l)),
                Family::ProPatria => None,
            };
            out.crossings.push(Crossing {
                feature: i,
                kind,
                at: from,
                loss_mm,
                bars_bonus: !p.assault_move.allows(mover),
            });
            let reason = match family {
                Family::Republique if p.impassable.bars(mover) => Some(if mover == Mover::Foot {
                    RefusalReason::AssaultOnly
                } else {
                    RefusalReason::Impassable
                }),
                _ => None,
            };
            if let Some(reason) = reason
                && !refused.contains(&i)
            {
                refused.push(i);
                out.refusals.push(Refusal { feature: i, kind, at: from, reason });
            }
        }
        let factor = match family {
            Family::Republique => {
                let f = worst.factor(mover);
                Some(if on_road { f / 2.0 } else { f })
            }
            Family::ProPatria => None,
        };
        let length_mm = (to - from) * m.distance_mm;
        // One part per run of the same charge.
        if let Some(last) = out.parts.last_mut()
            && last.factor == factor
            && last.within == within
            && last.bonus_barred_by == barred
        {
            last.to = to;
            last.length_mm += length_mm;
        } else {
            out.parts.push(ChargePart { from, to, length_mm, factor, within, bonus_barred_by: barred });
        }
    }
    out
}

/// Why `kind` refuses this mover, if it does.
fn refusal(
    kind: TerrainKind,
    mover: Mover,
    family: Family,
    on_road: bool,
    unit_kind: &UnitKind,
) -> Option<RefusalReason> {
    match family {
        Family::Republique => kind.properties().impassable.bars(mover).then_some(RefusalReason::Impassable),
        Family::ProPatria => match kind {
            TerrainKind::HeavyForest if mover != Mover::Foot && !on_road => {
                Some(RefusalReason::HeavyWoodsOnFoot)
            }
            TerrainKind::Marsh if !matches!(unit_kind, UnitKind::Infantry | UnitKind::Skirmisher) => {
                Some(RefusalReason::SwampInfantryOnly)
            }
            TerrainKind::Water => Some(RefusalReason::River),
            _ => None,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movement::path::move_path;

    /// A French 2-base infantry line (30 x 20) facing +y with its front edge at y = 110,
    /// x 70..130, moved `ahead` mm straight ahead, on a table with `terrain`.
    fn scene(terrain: &str, ahead: f64, kind: &str) -> (Table, Table) {
        let json = |dy: f64| {
            format!(
                r#"{{"schema":"vedette/table/1","rules":"republique5","scale":"medium",
                "units":[{{"id":"a","side":"fr","kind":"{kind}","formation":"{formation}","bases":[
                    {{"x":85,"y":{y},"heading":90,"width":30,"depth":20}},
                    {{"x":115,"y":{y},"heading":90,"width":30,"depth":20}}]}}],
                "terrain":[{terrain}]}}"#,
                y = 100.0 + dy,
                formation = if kind == "artillery" { "limbered" } else { "line" }
            )
        };
        let t = |dy| Table::from_json_str(&json(dy)).unwrap_or_else(|e| panic!("{e}"));
        (t(0.0), t(ahead))
    }

    fn charged(terrain: &str, ahead: f64, kind: &str) -> GroundCharge {
        let (b, a) = scene(terrain, ahead, kind);
        let p = move_path(&b.units[0], &a.units[0]);
        let book = b.rule_book().unwrap_or_else(|e| panic!("{e}"));
        charge(&Mobile {
            table: &b,
            book: &book,
            unit: 0,
            distance_mm: p.distance_mm,
            motions: &p.motions,
            packed: &[],
        })
    }

    #[test]
    fn a_wood_ahead_is_charged_from_where_the_front_reaches_in() {
        // Medium forest from y = 160 up: the front edge (y = 110) reaches 0.5 mm into it
        // after 50.5 mm of a 150 mm move; 99.5 mm are rough (x2).
        let wood = r#"{"kind":"medium-forest","outline":[[0,160],[300,160],[300,400],[0,400]]}"#;
        let g = charged(wood, 150.0, "infantry");
        assert_eq!(g.parts.len(), 2, "{:?}", g.parts);
        assert!((g.parts[0].length_mm - 50.5).abs() < 1e-9, "{:?}", g.parts);
        assert_eq!((g.parts[0].factor, g.parts[1].factor), (Some(1.0), Some(2.0)));
        assert!((g.parts[1].length_mm - 99.5).abs() < 1e-9);
        assert_eq!(g.parts[1].bonus_barred_by, Some(0));
        assert!(!g.rough_throughout && g.refusals.is_empty());
        // Artillery pays x4 in rough; cavalry may not enter heavy forest.
        let g = charged(wood, 150.0, "artillery");
        assert_eq!(g.parts[1].factor, Some(4.0));
        let heavy = wood.replace("medium-forest", "heavy-forest");
        let g = charged(&heavy, 150.0, "cavalry");
        assert_eq!(g.refusals.len(), 1);
        assert!((g.refusals[0].at - 50.5 / 150.0).abs() < 1e-9);
    }

    #[test]
    fn a_hedge_is_crossed_once_and_costs_its_loss() {
        // A hedge across at y = 130: the front edge passes it after 20.5 mm.
        let hedge = r#"{"kind":"hedge","path":[[0,130],[300,130]]}"#;
        let g = charged(hedge, 100.0, "infantry");
        assert_eq!(g.crossings.len(), 1);
        assert!((g.crossings[0].at - 0.205).abs() < 1e-9, "{:?}", g.crossings);
        assert!((g.crossings[0].loss_mm.unwrap_or(0.0) - 25.4).abs() < 1e-9);
        // Stopping with the front 0.4 mm past it is touching, not crossing.
        assert!(charged(hedge, 20.4, "infantry").crossings.is_empty());
        // Horse may not cross a hedge.
        assert_eq!(charged(hedge, 100.0, "cavalry").refusals.len(), 1);
    }
}
