//! Builders for hand-worked scenario tables.
#![allow(dead_code)]

#[path = "../../src/test_support.rs"]
mod test_support;
#[allow(unused_imports)] // Not every test uses each helper.
pub use test_support::proptest_config;

use vedette_geometry::{
    Base, BaseSize, Formation, RuleSet, Scale, Table, TerrainFeature, TerrainKind, Unit, UnitKind, Vec2,
};

/// Millimetres per inch.
pub const IN: f64 = 25.4;

/// A base of `w` x `d` centred at (x, y) facing `h`.
pub fn b(x: f64, y: f64, h: f64, w: f64, d: f64) -> Base {
    Base::new(BaseSize::new(w, d), vedette_geometry::Pose::new(Vec2::new(x, y), h))
}

/// A 30 x 20 infantry base (medium scale) centred at (x, y) facing `h`.
pub fn inf(x: f64, y: f64, h: f64) -> Base {
    b(x, y, h, 30.0, 20.0)
}

/// A unit.
pub fn unit(id: &str, side: &str, kind: UnitKind, bases: Vec<Base>) -> Unit {
    let mut u = Unit::new(id, side, kind, bases);
    u.formation = Some(match kind {
        UnitKind::Artillery => Formation::Unlimbered,
        _ => Formation::Line,
    });
    u
}

/// A table of `units` under `rules` at its usual scale.
pub fn table(rules: RuleSet, units: Vec<Unit>) -> Table {
    Table::new(rules, if rules == RuleSet::ProPatria { Scale::Figures28mm } else { Scale::Medium }, units)
}

/// An axis-aligned rectangle of terrain.
pub fn area(kind: TerrainKind, x0: f64, y0: f64, x1: f64, y1: f64) -> TerrainFeature {
    TerrainFeature {
        crests: Vec::new(),
        id: None,
        kind,
        level: 0.0,
        outline: vec![Vec2::new(x0, y0), Vec2::new(x1, y0), Vec2::new(x1, y1), Vec2::new(x0, y1)],
        holes: vec![],
        path: vec![],
    }
}
