//! Ground truth of synthetic photos (vedette-synth's `NAME.table.json` and
//! `NAME.camera.json`) and the comparison of a scan against it. Shared by the
//! end-to-end scan tests and the accuracy bench (`benches/scan_accuracy.rs` includes
//! this file by path).

#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::Path;
use vedette_geometry::{Table, Vec2};
use vedette_synth::CameraTruth;
use vedette_vision::{Game, Intrinsics, Roster, RosterUnit};

/// A bundled or rendered photo's truth.
pub struct Truth {
    /// The table the photo shows.
    pub table: Table,
    /// The camera and every tag's place.
    pub camera: CameraTruth,
}

impl Truth {
    /// Reads `DIR/NAME.table.json` and `DIR/NAME.camera.json`.
    pub fn load(dir: &Path, name: &str) -> Truth {
        let table = Table::load(dir.join(format!("{name}.table.json"))).expect("truth table");
        let text = std::fs::read_to_string(dir.join(format!("{name}.camera.json"))).expect("camera truth");
        let camera: CameraTruth = serde_json::from_str(&text).expect("camera truth JSON");
        Truth { table, camera }
    }

    /// The camera as a calibration would give it.
    pub fn intrinsics(&self) -> Intrinsics {
        let i = &self.camera.intrinsics;
        Intrinsics {
            image_width: i.resolution.width_px,
            image_height: i.resolution.height_px,
            fx: i.fx,
            fy: i.fy,
            cx: i.cx,
            cy: i.cy,
            distortion: self.camera.dist_coeffs.to_vec(),
        }
    }

    /// The roster a player would write for this table: every tagged unit, its tags in
    /// base order.
    pub fn roster(&self) -> Roster {
        let mut by_unit: BTreeMap<usize, Vec<&vedette_synth::TagTruth>> = BTreeMap::new();
        for t in &self.camera.tags {
            by_unit.entry(t.unit_index).or_default().push(t);
        }
        let units = by_unit
            .into_values()
            .map(|mut tags| {
                tags.sort_by_key(|t| t.base);
                let u = &self.table.units[tags[0].unit_index];
                let b = &u.bases[tags[0].base];
                RosterUnit::from_unit(
                    u,
                    [b.width(), b.depth()],
                    [tags[0].offset_mm.x, tags[0].offset_mm.y],
                    tags.iter().map(|t| t.marker.id).collect(),
                )
            })
            .collect();
        let game = Game {
            rules: self.table.rules,
            scale: self.table.scale,
            name: self.table.name.clone(),
            near_side: None,
        };
        Roster::from_units(game, units).expect("truth roster")
    }
}

/// A scan compared with its truth.
#[derive(Debug, Clone, Default)]
pub struct Accuracy {
    /// Tagged bases in the truth.
    pub truth_bases: usize,
    /// Bases in the scan.
    pub scanned_bases: usize,
    /// Scanned bases within [`MATCH_MM`] and [`MATCH_DEG`] of their truth.
    pub correct: usize,
    /// Position error of each correct base, mm.
    pub position_mm: Vec<f64>,
    /// Heading error of each correct base, degrees.
    pub heading_deg: Vec<f64>,
    /// Position error over the scan's own sigma_mm, per correct base.
    pub error_over_sigma: Vec<f64>,
    /// The scan's own sigma_mm, per correct base.
    pub sigma_mm: Vec<f64>,
}

/// A scanned base further than this from its truth counts as wrong (a false positive
/// and a miss), mm.
pub const MATCH_MM: f64 = 5.0;
/// Likewise for heading, degrees.
pub const MATCH_DEG: f64 = 5.0;

/// Compares a scanned table with the truth, matching bases by tag id.
pub fn compare(scan: &Table, truth: &Truth) -> Accuracy {
    let mut by_tag = BTreeMap::new();
    for t in &truth.camera.tags {
        by_tag.insert(t.marker.id, truth.table.units[t.unit_index].bases[t.base]);
    }
    let mut acc =
        Accuracy { truth_bases: by_tag.len(), scanned_bases: scan.base_count(), ..Accuracy::default() };
    for (_, b) in scan.bases() {
        let Some(t) = b.meta().tag.and_then(|tag| by_tag.get(&tag)) else { continue };
        let e = b.centre().distance(t.centre());
        let h = ((b.heading_deg() - t.heading_deg()) + 540.0).rem_euclid(360.0) - 180.0;
        if std::env::var_os("TRUTH_VERBOSE").is_some() && !(e <= MATCH_MM && h.abs() <= MATCH_DEG) {
            eprintln!(
                "wrong base: tag {:?} at {:?} heading {:.1}, truth {:?} heading {:.1}",
                b.meta().tag,
                b.centre(),
                b.heading_deg(),
                t.centre(),
                t.heading_deg()
            );
        }
        if e <= MATCH_MM && h.abs() <= MATCH_DEG {
            acc.correct += 1;
            acc.position_mm.push(e);
            acc.heading_deg.push(h.abs());
            if let Some(s) = b.meta().sigma_mm.filter(|s| *s > 0.0) {
                acc.error_over_sigma.push(e / s);
                acc.sigma_mm.push(s);
            }
        }
    }
    acc
}

impl Accuracy {
    /// Pools several photos.
    pub fn merge(all: &[Accuracy]) -> Accuracy {
        let mut m = Accuracy::default();
        for a in all {
            m.truth_bases += a.truth_bases;
            m.scanned_bases += a.scanned_bases;
            m.correct += a.correct;
            m.position_mm.extend(&a.position_mm);
            m.heading_deg.extend(&a.heading_deg);
            m.error_over_sigma.extend(&a.error_over_sigma);
            m.sigma_mm.extend(&a.sigma_mm);
        }
        m
    }

    /// Correct bases over truth bases.
    pub fn recall(&self) -> f64 {
        self.correct as f64 / self.truth_bases.max(1) as f64
    }

    /// Correct bases over scanned bases.
    pub fn precision(&self) -> f64 {
        if self.scanned_bases == 0 { 1.0 } else { self.correct as f64 / self.scanned_bases as f64 }
    }

    /// The share of correct bases whose error is within 2 sigma_mm (per-axis sigma:
    /// 86% for honest Gaussian errors).
    pub fn within_two_sigma(&self) -> f64 {
        self.within_sigmas(2.0)
    }

    /// The share of correct bases whose position error is within `k` sigma_mm (per-axis
    /// sigma of a 2-D normal: 95% at k = 2.45).
    pub fn within_sigmas(&self, k: f64) -> f64 {
        let n = self.error_over_sigma.len().max(1) as f64;
        self.error_over_sigma.iter().filter(|r| **r <= k).count() as f64 / n
    }

    /// The median sigma_mm over the median position error (issue 17: at most 3, or
    /// sigma at most 0.1 mm).
    pub fn sigma_over_error(&self) -> f64 {
        quantile(&self.sigma_mm, 0.5) / quantile(&self.position_mm, 0.5)
    }
}

/// The `p` quantile (0..=1) of values, by the nearest-rank method.
pub fn quantile(values: &[f64], p: f64) -> f64 {
    if values.is_empty() {
        return f64::NAN;
    }
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    let rank = ((p * v.len() as f64).ceil() as usize).clamp(1, v.len());
    v[rank - 1]
}

/// The largest value.
pub fn max(values: &[f64]) -> f64 {
    values.iter().copied().fold(f64::NAN, f64::max)
}

/// A point, for messages.
pub fn fmt_point(p: Vec2) -> String {
    format!("({:.2}, {:.2})", p.x, p.y)
}
