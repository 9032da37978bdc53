//! Untagged tables (issue 37): the fixtures of a photo of bases without tags (the
//! second renderer's `../shared/renders/untagged-*` folders, or a vedette-synth render)
//! and the comparison of a scan against its truth. Shared by `tests/scan/scan_untagged.rs`
//! and `benches/scan_untagged.rs` (included by path, beside `renders.rs`, whose
//! converter reads the second renderer's folders).

#![allow(dead_code)]

use std::path::Path;
use vedette_geometry::{Base, Facing, Table, Unit};
use vedette_vision::{Game, Roster, RosterUnit};

/// A scanned base further than this from its true centre is wrong, mm.
pub const MATCH_MM: f64 = 5.0;
/// A scanned base whose axis is further than this from the truth's is wrong, degrees.
pub const MATCH_DEG: f64 = 5.0;

/// The roster a player writes for a table without tags: every unit with `bases = N`,
/// its base size, and the side at the near edge.
pub fn untagged_roster(truth: &Table, near_side: Option<&str>) -> Roster {
    let units = truth
        .units
        .iter()
        .map(|u| {
            let b = u.bases[0];
            RosterUnit::untagged(u, [b.width(), b.depth()], u.bases.len())
        })
        .collect();
    let game = Game {
        rules: truth.rules,
        scale: truth.scale,
        name: truth.name.clone(),
        near_side: near_side.map(str::to_string),
    };
    Roster::from_units(game, units).expect("untagged roster")
}

/// The untagged photos of the second renderer present (`../shared/renders/untagged-*`,
/// read by the shared renders' converter, [`super::renders`]).
pub fn shared_untagged() -> Vec<super::renders::SharedRender> {
    super::renders::shared_renders("untagged")
}

/// A scan of an untagged table against its truth.
#[derive(Debug, Clone, Default)]
pub struct UntaggedAccuracy {
    /// Bases in the truth.
    pub truth_bases: usize,
    /// Bases in the scan (fitted, and tagged ones of a mixed roster).
    pub scanned_bases: usize,
    /// Scanned bases in the right unit, within [`MATCH_MM`] and [`MATCH_DEG`] (axis).
    pub correct: usize,
    /// Scanned bases within those limits of a true base of a unit the scan cannot tell
    /// from theirs (same side, kind, formation, base size and count), the right one or
    /// not.
    pub correct_up_to_twins: usize,
    /// Centre error of each correct base, mm.
    pub centre_mm: Vec<f64>,
    /// Axis error of each correct base, degrees (front or rear alike).
    pub axis_deg: Vec<f64>,
    /// Correct bases whose front is the truth's.
    pub facing_right: usize,
    /// Correct bases facing the wrong way without `"facing": "assumed"`.
    pub facing_wrong_unmarked: usize,
    /// Correct bases marked assumed.
    pub facing_assumed: usize,
    /// Centre error over the scan's own `sigma_mm`, per correct base.
    pub error_over_sigma: Vec<f64>,
    /// Axis error over the scan's own `sigma_heading_deg`, per correct base.
    pub axis_over_sigma: Vec<f64>,
    /// Per base of its own unit that is not correct but stands within [`SLID_MM`] of
    /// one of its unit's true bases (the formation slid or turned in place), the larger
    /// of its centre error over its `sigma_mm` and its axis error over its
    /// `sigma_heading_deg`: whether its sigmas cover the error.
    pub slid_over_sigma: Vec<f64>,
}

/// A base of its own unit this near one of the unit's true bases, but not correct, is
/// slid (or turned) in place rather than found elsewhere, mm.
pub const SLID_MM: f64 = 25.0;

/// The difference of two headings, degrees in `[-180, 180)`.
fn turn(a: f64, b: f64) -> f64 {
    (a - b + 540.0).rem_euclid(360.0) - 180.0
}

/// The axis error of `a` against `b`: their headings' difference folded onto a
/// quarter turn of a rectangle whose front may be either long edge, degrees.
fn axis_error(a: &Base, b: &Base) -> f64 {
    let d = turn(a.heading_deg(), b.heading_deg()).abs();
    d.min(180.0 - d)
}

/// Whether two units are twins: the scan cannot tell them apart.
fn twins(a: &Unit, b: &Unit) -> bool {
    a.side == b.side
        && a.kind == b.kind
        && a.formation == b.formation
        && a.bases.len() == b.bases.len()
        && a.bases[0].width() == b.bases[0].width()
        && a.bases[0].depth() == b.bases[0].depth()
}

/// Each scanned base matched to the nearest true base among `candidates` (true bases
/// not yet taken), within the limits.
fn nearest<'a>(b: &Base, candidates: impl Iterator<Item = (usize, &'a Base)>) -> Option<(usize, f64)> {
    candidates
        .map(|(k, t)| (k, b.centre().distance(t.centre()), axis_error(b, t)))
        .filter(|&(_, e, a)| e <= MATCH_MM && a <= MATCH_DEG)
        .min_by(|x, y| x.1.total_cmp(&y.1))
        .map(|(k, e, _)| (k, e))
}

/// Compares the fitted bases of `scan` with `truth` (units matched by id).
pub fn compare_untagged(scan: &Table, truth: &Table) -> UntaggedAccuracy {
    let mut acc = UntaggedAccuracy {
        truth_bases: truth.base_count(),
        scanned_bases: scan.base_count(),
        ..UntaggedAccuracy::default()
    };
    let all: Vec<(usize, usize, Base)> = truth
        .units
        .iter()
        .enumerate()
        .flat_map(|(ui, u)| u.bases.iter().enumerate().map(move |(bi, b)| (ui, bi, *b)))
        .collect();
    let mut taken = vec![false; all.len()];
    let mut taken_twin = vec![false; all.len()];
    for u in &scan.units {
        let Some(tu) = truth.units.iter().position(|t| t.id == u.id) else { continue };
        for b in &u.bases {
            let own = all
                .iter()
                .enumerate()
                .filter(|(k, (ui, _, _))| *ui == tu && !taken[*k])
                .map(|(k, t)| (k, &t.2));
            if let Some((k, e)) = nearest(b, own) {
                taken[k] = true;
                let t = all[k].2;
                acc.correct += 1;
                acc.centre_mm.push(e);
                acc.axis_deg.push(axis_error(b, &t));
                let right = turn(b.heading_deg(), t.heading_deg()).abs() < 90.0;
                let assumed = b.meta().facing == Some(Facing::Assumed);
                acc.facing_right += usize::from(right);
                acc.facing_assumed += usize::from(assumed);
                acc.facing_wrong_unmarked += usize::from(!right && !assumed);
                if let Some(s) = b.meta().sigma_mm.filter(|s| *s > 0.0) {
                    acc.error_over_sigma.push(e / s);
                }
                if let Some(s) = b.meta().sigma_heading_deg.filter(|s| *s > 0.0) {
                    acc.axis_over_sigma.push(axis_error(b, &t) / s);
                }
            } else if let Some((t, e)) = all
                .iter()
                .filter(|(ui, _, _)| *ui == tu)
                .map(|(_, _, t)| (t, b.centre().distance(t.centre())))
                .filter(|&(_, e)| e <= SLID_MM)
                .min_by(|x, y| x.1.total_cmp(&y.1))
            {
                let (s, sh) = (b.meta().sigma_mm.unwrap_or(0.0), b.meta().sigma_heading_deg.unwrap_or(0.0));
                let over = |x: f64, s: f64| if s > 0.0 { x / s } else { f64::INFINITY };
                acc.slid_over_sigma.push(over(e, s).max(over(axis_error(b, t), sh)));
            }
            let twin = all
                .iter()
                .enumerate()
                .filter(|(k, (ui, _, _))| twins(&truth.units[*ui], &truth.units[tu]) && !taken_twin[*k])
                .map(|(k, t)| (k, &t.2));
            if let Some((k, _)) = nearest(b, twin) {
                taken_twin[k] = true;
                acc.correct_up_to_twins += 1;
            }
        }
    }
    acc
}

/// Where each true base went, for the bench's table of losses (issue 37): counts of
/// true bases that are, in this order of precedence, [right, given to a twin unit,
/// under another unit's formation (a scanned base of a unit that is not theirs or a
/// twin covers their centre), of a found unit but more than [`MATCH_MM`] or
/// [`MATCH_DEG`] off, nothing fitted over them].
pub fn losses(scan: &Table, truth: &Table) -> [usize; 5] {
    let mut out = [0; 5];
    let matches =
        |b: &Base, t: &Base| b.centre().distance(t.centre()) <= MATCH_MM && axis_error(b, t) <= MATCH_DEG;
    for u in &truth.units {
        let own = scan.units.iter().find(|s| s.id == u.id);
        for t in &u.bases {
            let class = if own.is_some_and(|s| s.bases.iter().any(|b| matches(b, t))) {
                0
            } else if scan
                .units
                .iter()
                .filter(|s| s.id != u.id && truth.units.iter().any(|o| o.id == s.id && twins(o, u)))
                .any(|s| s.bases.iter().any(|b| matches(b, t)))
            {
                1
            } else if scan
                .units
                .iter()
                .filter(|s| s.id != u.id && !truth.units.iter().any(|o| o.id == s.id && twins(o, u)))
                .any(|s| s.bases.iter().any(|b| b.contains(t.centre())))
            {
                2
            } else if own.is_some() {
                3
            } else {
                4
            };
            out[class] += 1;
        }
    }
    out
}

/// Scanned bases standing on another unit's true base (within [`MATCH_MM`] and
/// [`MATCH_DEG`] of it, not of one of their own unit's), and those of them the report
/// leaves unsaid, each named "scanned on true": the two units are not in one group of
/// units the report's `ambiguous-unit` issues tie together (a unit and the units it may
/// be instead, joined through shared members, as the viewer groups them to offer a
/// swap). Issue 37: "where two assignments are equally good, say so in the scan report
/// rather than guess silently".
pub fn wrong_units(
    scan: &Table,
    truth: &Table,
    issues: &[vedette_vision::ScanIssue],
) -> (usize, Vec<String>) {
    let matches =
        |b: &Base, t: &Base| b.centre().distance(t.centre()) <= MATCH_MM && axis_error(b, t) <= MATCH_DEG;
    // Groups of units tied by the report, merged until no two share a unit.
    let mut groups: Vec<Vec<&str>> = Vec::new();
    for i in issues {
        if let vedette_vision::ScanIssue::AmbiguousUnit { unit, others, .. } = i {
            let mut group: Vec<&str> =
                std::iter::once(unit.as_str()).chain(others.iter().map(String::as_str)).collect();
            groups.retain(|g| {
                let shares = g.iter().any(|u| group.contains(u));
                if shares {
                    group.extend(g.iter().copied());
                }
                !shares
            });
            groups.push(group);
        }
    }
    let said = |a: &str, b: &str| groups.iter().any(|g| g.contains(&a) && g.contains(&b));
    let (mut wrong, mut unsaid) = (0, Vec::new());
    for s in &scan.units {
        let own = truth.units.iter().find(|t| t.id == s.id);
        for b in &s.bases {
            if own.is_some_and(|o| o.bases.iter().any(|t| matches(b, t))) {
                continue;
            }
            let Some(other) =
                truth.units.iter().find(|t| t.id != s.id && t.bases.iter().any(|t| matches(b, t)))
            else {
                continue;
            };
            wrong += 1;
            if !said(&s.id, &other.id) {
                unsaid.push(format!("{} on {}", s.id, other.id));
            }
        }
    }
    (wrong, unsaid)
}

/// Which true bases no scanned base of their unit or a twin matched, for reports.
pub fn missed(scan: &Table, truth: &Table) -> Vec<String> {
    let mut out = Vec::new();
    for u in &truth.units {
        for (bi, t) in u.bases.iter().enumerate() {
            let hit =
                scan.units.iter().filter(|s| truth.units.iter().any(|o| o.id == s.id && twins(o, u))).any(
                    |s| {
                        s.bases.iter().any(|b| {
                            b.centre().distance(t.centre()) <= MATCH_MM && axis_error(b, t) <= MATCH_DEG
                        })
                    },
                );
            if !hit {
                out.push(format!("{}#{bi} at ({:.0}, {:.0})", u.id, t.centre().x, t.centre().y));
            }
        }
    }
    out
}

impl UntaggedAccuracy {
    /// Pools several photos.
    pub fn merge(all: &[UntaggedAccuracy]) -> UntaggedAccuracy {
        let mut m = UntaggedAccuracy::default();
        for a in all {
            m.truth_bases += a.truth_bases;
            m.scanned_bases += a.scanned_bases;
            m.correct += a.correct;
            m.correct_up_to_twins += a.correct_up_to_twins;
            m.centre_mm.extend(&a.centre_mm);
            m.axis_deg.extend(&a.axis_deg);
            m.facing_right += a.facing_right;
            m.facing_wrong_unmarked += a.facing_wrong_unmarked;
            m.facing_assumed += a.facing_assumed;
            m.error_over_sigma.extend(&a.error_over_sigma);
            m.axis_over_sigma.extend(&a.axis_over_sigma);
            m.slid_over_sigma.extend(&a.slid_over_sigma);
        }
        m
    }

    /// Correct bases over true bases.
    pub fn recall(&self) -> f64 {
        self.correct as f64 / self.truth_bases.max(1) as f64
    }

    /// Correct bases over scanned bases.
    pub fn precision(&self) -> f64 {
        self.correct as f64 / self.scanned_bases.max(1) as f64
    }

    /// Bases right up to twin units, over scanned bases.
    pub fn precision_up_to_twins(&self) -> f64 {
        self.correct_up_to_twins as f64 / self.scanned_bases.max(1) as f64
    }

    /// Recall up to twin units.
    pub fn recall_up_to_twins(&self) -> f64 {
        self.correct_up_to_twins as f64 / self.truth_bases.max(1) as f64
    }

    /// Share of correct bases facing the truth's way.
    pub fn facing_right_share(&self) -> f64 {
        self.facing_right as f64 / self.correct.max(1) as f64
    }

    /// Share of correct bases facing the wrong way without being marked assumed.
    pub fn facing_wrong_unmarked_share(&self) -> f64 {
        self.facing_wrong_unmarked as f64 / self.correct.max(1) as f64
    }

    /// Share of correct bases within `k` of their own `sigma_mm`.
    pub fn within_sigmas(&self, k: f64) -> f64 {
        let n = self.error_over_sigma.len().max(1) as f64;
        self.error_over_sigma.iter().filter(|r| **r <= k).count() as f64 / n
    }

    /// Share of correct bases whose axis is within `k` of their `sigma_heading_deg`.
    pub fn axis_within_sigmas(&self, k: f64) -> f64 {
        let n = self.axis_over_sigma.len().max(1) as f64;
        self.axis_over_sigma.iter().filter(|r| **r <= k).count() as f64 / n
    }

    /// How many bases are slid in place ([`UntaggedAccuracy::slid_over_sigma`]), and
    /// how many of them their sigmas cover within `k`.
    pub fn slid_within_sigmas(&self, k: f64) -> (usize, usize) {
        (self.slid_over_sigma.len(), self.slid_over_sigma.iter().filter(|r| **r <= k).count())
    }

    /// One line for logs.
    pub fn summary(&self) -> String {
        format!(
            "{} of {} bases ({} scanned): recall {:.3} precision {:.3} (up to twin units {:.3} / {:.3}), centre median {:.2} p95 {:.2} mm, axis median {:.2}° p95 {:.2}°, facing right {:.3} wrong-unmarked {:.3}, within 2.45 sigma {:.3} (axis {:.3}), slid in place {} of which {} within 2.45 sigma",
            self.correct,
            self.truth_bases,
            self.scanned_bases,
            self.recall(),
            self.precision(),
            self.recall_up_to_twins(),
            self.precision_up_to_twins(),
            quantile(&self.centre_mm, 0.5),
            quantile(&self.centre_mm, 0.95),
            quantile(&self.axis_deg, 0.5),
            quantile(&self.axis_deg, 0.95),
            self.facing_right_share(),
            self.facing_wrong_unmarked_share(),
            self.within_sigmas(2.45),
            self.axis_within_sigmas(2.45),
            self.slid_within_sigmas(2.45).0,
            self.slid_within_sigmas(2.45).1,
        )
    }
}

/// The `q` quantile of `v` (NaN when empty).
pub fn quantile(v: &[f64], q: f64) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    let mut s = v.to_vec();
    s.sort_by(f64::total_cmp);
    s[((s.len() - 1) as f64 * q).round() as usize]
}

/// A seeded untagged battle on a 6'x4' table (issue 37's hard cases): units in line,
/// two lines and column of touching bases (seams 0-0.8 mm open, each base turned up to
/// 0.6° on its own), cavalry, batteries, leaders and skirmishers; Austria in the near
/// half facing the far edge, France in the far half facing the near one (each unit
/// turned up to 35° off, one in eight any way round); units at least 3 mm apart, so
/// that some stand within 5 mm of each other.
pub fn untagged_battle(seed: u64, units: usize) -> Table {
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;
    use vedette_geometry::{BaseSize, Formation, Pose, RuleSet, SCHEMA_ID, Scale, TableSize, UnitKind, Vec2};
    const WIDTH: f64 = 1828.8;
    const DEPTH: f64 = 1219.2;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let inf = BaseSize::new(30.0, 20.0);
    let cav = BaseSize::new(40.0, 30.0);
    let mut placed: Vec<Base> = Vec::new();
    let mut out: Vec<Unit> = Vec::new();
    let mut attempts = 0;
    while out.len() < units && attempts < 50_000 {
        attempts += 1;
        let (kind, formation, size, cols, rows) = match rng.random_range(0..12) {
            0..=2 => (UnitKind::Infantry, Formation::Line, inf, rng.random_range(3..=6), 1),
            3 | 4 => (UnitKind::Infantry, Formation::TwoLine, inf, rng.random_range(2..=3), 2),
            5 => (UnitKind::Infantry, Formation::AttackColumn, inf, 1, rng.random_range(2..=4)),
            6 | 7 => (UnitKind::Cavalry, Formation::Line, cav, rng.random_range(2..=4), 1),
            8 => (UnitKind::Cavalry, Formation::TwoLine, cav, 2, 2),
            9 => (UnitKind::Artillery, Formation::Unlimbered, BaseSize::new(25.0, 40.0), 1, 1),
            10 => (UnitKind::Leader, Formation::Line, BaseSize::new(25.0, 30.0), 1, 1),
            _ => (UnitKind::Skirmisher, Formation::Line, BaseSize::new(20.0, 20.0), 1, 1),
        };
        let centre = Vec2::new(rng.random_range(70.0..WIDTH - 70.0), rng.random_range(70.0..DEPTH - 70.0));
        let near = centre.y < DEPTH / 2.0;
        let heading: f64 = if rng.random_bool(0.125) {
            rng.random_range(0.0..360.0)
        } else {
            (if near { 90.0 } else { 270.0 }) + rng.random_range(-35.0..35.0)
        };
        let forward = Vec2::from_heading_deg(heading);
        let right = forward.perp_right();
        let mut bases = Vec::new();
        let mut gap_x = vec![0.0; cols];
        for g in gap_x.iter_mut().skip(1) {
            *g = rng.random_range(0.0..0.8);
        }
        let open: f64 = gap_x.iter().sum();
        for r in 0..rows {
            let mut x = -(cols as f64 * size.width + open) / 2.0;
            for gap in &gap_x {
                x += gap;
                let local_x = x + size.width / 2.0;
                x += size.width;
                let local_y = ((rows as f64 - 1.0) / 2.0 - r as f64) * (size.depth + 0.3);
                let turn = rng.random_range(-0.6..0.6);
                bases.push(Base::new(
                    size,
                    Pose::new(centre + right * local_x + forward * local_y, heading + turn),
                ));
            }
        }
        let fiducials =
            [(60.0, 60.0), (WIDTH - 60.0, 60.0), (WIDTH - 60.0, DEPTH - 60.0), (60.0, DEPTH - 60.0)];
        let ok = bases.iter().all(|b: &Base| {
            let c = b.corners();
            let on_table = [c.front_left, c.front_right, c.rear_left, c.rear_right]
                .iter()
                .all(|p| p.x > 20.0 && p.y > 20.0 && p.x < WIDTH - 20.0 && p.y < DEPTH - 20.0);
            let clear_of_fiducials = fiducials
                .iter()
                .all(|&(x, y)| (b.centre().x - x).abs() > 90.0 || (b.centre().y - y).abs() > 90.0);
            let apart = placed
                .iter()
                .filter(|o| o.centre().distance(b.centre()) < 120.0)
                .all(|o| o.closest_points(b).distance_mm > 3.0 && !o.contains(b.centre()));
            on_table && clear_of_fiducials && apart
        });
        if !ok {
            continue;
        }
        placed.extend(bases.iter().copied());
        let side = if near { "austria" } else { "france" };
        let mut unit = Unit::new(format!("{}-{}", &side[..2], out.len() + 1), side, kind, bases);
        unit.formation = Some(formation);
        if kind == UnitKind::Artillery {
            unit.formation = Some(Formation::Unlimbered);
        }
        if matches!(kind, UnitKind::Leader | UnitKind::Skirmisher) {
            unit.formation = None;
        }
        out.push(unit);
    }
    Table {
        schema: SCHEMA_ID.to_string(),
        rules: RuleSet::Republique5,
        scale: Scale::Medium,
        name: Some(format!("untagged battle {seed}")),
        size: Some(TableSize { width: WIDTH, depth: DEPTH }),
        sides: Default::default(),
        artillery: Default::default(),
        units: out,
        markers: Vec::new(),
        terrain: Vec::new(),
    }
}

/// One synthetic photo of an untagged battle (issue 37's hard cases).
#[derive(Debug, Clone, Copy)]
pub struct UntaggedShot {
    /// The table's seed ([`untagged_battle`]).
    pub table_seed: u64,
    /// The render's seed.
    pub seed: u64,
    /// How many units.
    pub units: usize,
    /// Camera tilt, degrees.
    pub tilt_deg: f64,
    /// Photographed from the far edge.
    pub far: bool,
    /// The mat.
    pub mat: vedette_synth::MatColour,
    /// Figures' overhang past the base edges, mm.
    pub overhang_mm: f64,
    /// Every `k`-th unit tagged (a mixed roster); 0: none.
    pub tagged_every: usize,
    /// Units painted in their own coats, declared in the roster (issue 37): unit `i`
    /// wears `vedette_synth::UNIT_COATS[i % coats]`, so units `coats` apart are painted
    /// alike; 0: every unit wears its side's uniform and the roster declares none.
    pub coats: usize,
    /// The table of [`twin_table`] (four twin cavalry lines) instead of
    /// [`untagged_battle`]`(table_seed, units)`.
    pub twins: bool,
}

/// Four twin units (Austrian cavalry, three 40 x 30 mm bases in line, facing the far
/// edge, turned a few degrees each), 180 mm apart in a row across the near half: with
/// three coats (`UntaggedShot::coats = 3`) the first and the last are painted alike
/// and the middle two each their own.
pub fn twin_table() -> Table {
    use vedette_geometry::{BaseSize, Formation, Pose, RuleSet, SCHEMA_ID, Scale, TableSize, UnitKind, Vec2};
    let cav = BaseSize::new(40.0, 30.0);
    let units: Vec<Unit> = (0..4)
        .map(|i| {
            let centre = Vec2::new(600.0 + 180.0 * f64::from(i), 420.0 + 25.0 * f64::from(i % 2));
            let heading = 90.0 + [4.0, -7.0, 11.0, -2.0][i as usize];
            let f = Vec2::from_heading_deg(heading);
            let bases = (0..3)
                .map(|k| {
                    Base::new(
                        cav,
                        Pose::new(centre + f.perp_right() * (40.0 * (f64::from(k) - 1.0)), heading),
                    )
                })
                .collect();
            let mut u = Unit::new(format!("au-{}", i + 1), "austria", UnitKind::Cavalry, bases);
            u.formation = Some(Formation::Line);
            u
        })
        .collect();
    Table {
        schema: SCHEMA_ID.to_string(),
        rules: RuleSet::Republique5,
        scale: Scale::Medium,
        name: Some("twins".into()),
        size: Some(TableSize { width: 1828.8, depth: 1219.2 }),
        sides: Default::default(),
        artillery: Default::default(),
        units,
        markers: Vec::new(),
        terrain: Vec::new(),
    }
}

/// A unit of a hand-made scene ([`scene_table`]): `(id, kind, centre, heading, bases)`.
pub type SceneUnit = (&'static str, vedette_geometry::UnitKind, (f64, f64), f64, usize);

/// The twin table ([`twin_table`]) named `name` with `units` on it instead, each in line
/// (a battery unlimbered), its bases touching: a battery's 25 x 40 mm, cavalry's 40 x
/// 30 mm, the others' 30 x 20 mm; Austrian when its id starts with `au`, else French.
pub fn scene_table(name: &str, units: &[SceneUnit]) -> Table {
    use vedette_geometry::{BaseSize, Formation, Pose, UnitKind, Vec2};
    let units = units
        .iter()
        .map(|&(id, kind, (x, y), heading, n)| {
            let size = match kind {
                UnitKind::Artillery => BaseSize::new(25.0, 40.0),
                UnitKind::Cavalry => BaseSize::new(40.0, 30.0),
                _ => BaseSize::new(30.0, 20.0),
            };
            let f = Vec2::from_heading_deg(heading);
            let bases = (0..n)
                .map(|k| {
                    let across = size.width * (k as f64 - (n as f64 - 1.0) / 2.0);
                    Base::new(size, Pose::new(Vec2::new(x, y) + f.perp_right() * across, heading))
                })
                .collect();
            let side = if id.starts_with("au") { "austria" } else { "france" };
            let mut u = Unit::new(id, side, kind, bases);
            u.formation =
                Some(if kind == UnitKind::Artillery { Formation::Unlimbered } else { Formation::Line });
            u
        })
        .collect();
    let mut table = twin_table();
    table.name = Some(name.into());
    table.units = units;
    table
}

/// A vedette-synth untagged shot rendered (cached in `target/untagged-test/`) with what
/// scanning it needs: its roster, true table, camera, the default profile without
/// terrain or cubes, and the photo.
pub struct Rendered {
    pub name: String,
    pub roster: Roster,
    pub truth: Table,
    pub k: vedette_vision::Intrinsics,
    pub profile: vedette_vision::Profile,
    pub photo: vedette_vision::Photo,
}

/// Renders `shot` into `target/untagged-test/` unless it is there, and loads it.
pub fn rendered(shot: &UntaggedShot) -> Rendered {
    let dir = test_dir();
    let name = shot.ensure_rendered(&dir);
    loaded(shot, &dir, name)
}

/// The bench's untagged shot `i` ([`untagged_shots`]) rendered, its name checked to
/// start with `prefix`, and scanned with its camera and roster.
pub fn bench_scanned(i: usize, prefix: &str) -> (Rendered, vedette_vision::Scan) {
    let r = rendered(&untagged_shots()[i]);
    assert!(r.name.starts_with(prefix), "{}", r.name);
    let result = vedette_vision::scan(&r.photo, &r.profile, Some(&r.roster), Some(&r.k)).unwrap();
    (r, result)
}

/// [`rendered`] for `table` instead of the shot's own, under `name` (the shot's camera,
/// light, mat and options; `table`'s units all untagged).
pub fn rendered_table(shot: &UntaggedShot, table: Table, name: &str) -> Rendered {
    let dir = test_dir();
    if !(dir.join(format!("{name}.camera.json")).exists() && dir.join(format!("{name}.jpg")).exists()) {
        let (scene, camera, _, options) = shot.setup_with(table);
        let photo = vedette_synth::render(&scene, &camera, &options).expect("render");
        photo.write(&dir, name).expect("write render");
    }
    loaded(shot, &dir, name.to_string())
}

/// `target/untagged-test/`, made.
fn test_dir() -> std::path::PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/untagged-test");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The render `name` in `dir` with what scanning it needs.
fn loaded(shot: &UntaggedShot, dir: &Path, name: String) -> Rendered {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let roster = shot.roster(dir, &name);
    let truth = Table::load(dir.join(format!("{name}.table.json"))).unwrap();
    let k = super::truth::Truth::load(dir, &name).intrinsics();
    let mut profile = vedette_vision::Profile::load(root.join("calibration/default.toml")).unwrap();
    profile.terrain.clear();
    profile.markers.find = false;
    let photo = vedette_vision::Photo::load(dir.join(format!("{name}.jpg"))).unwrap();
    Rendered { name, roster, truth, k, profile, photo }
}

/// Scans an untagged photo with its camera and roster, against the photo of its empty
/// table when given (`--background`, issue 37).
pub fn scan_against_empty(
    photo: &vedette_vision::Photo,
    profile: &vedette_vision::Profile,
    roster: &Roster,
    k: &vedette_vision::Intrinsics,
    empty: Option<&vedette_vision::Photo>,
) -> vedette_vision::Scan {
    let surface = vedette_vision::SurfaceOptions::default();
    vedette_vision::scan_with_background(photo, profile, Some(roster), Some(k), surface, empty).expect("scan")
}

/// Every roster unit of a scan is either in its table or reported `missing-unit`,
/// never both.
pub fn every_unit_found_or_missing(photo: &str, roster: &Roster, result: &vedette_vision::Scan) {
    for u in &roster.units {
        let found = result.table.units.iter().any(|t| t.id == u.id);
        let missing = result
            .report
            .issues
            .iter()
            .any(|i| matches!(i, vedette_vision::ScanIssue::MissingUnit { unit, .. } if *unit == u.id));
        assert!(found != missing, "{photo}: {} neither found nor reported missing", u.id);
    }
}

/// The roster without its declared paints: what the fitter had before them.
pub fn unpainted(roster: &Roster) -> Roster {
    let units = roster.units.iter().map(|u| u.clone().painted(None, None)).collect();
    Roster::from_units(roster.game.clone(), units).expect("unpainted roster")
}

/// Every fourth unit (from the first) is flocked like the mat.
pub const MAT_FLOCKED_EVERY: usize = 4;

impl UntaggedShot {
    /// The shot of a hand-made scene of `units` units ([`rendered_table`]): render seed
    /// `seed`, from the near edge at 12° on the brown mat, figures 1.5 mm past their
    /// bases' edges, no tags and no declared coats.
    pub fn of_scene(seed: u64, units: usize) -> UntaggedShot {
        UntaggedShot {
            table_seed: 0,
            seed,
            units,
            tilt_deg: 12.0,
            far: false,
            mat: vedette_synth::MatColour::Brown,
            overhang_mm: 1.5,
            tagged_every: 0,
            coats: 0,
            twins: false,
        }
    }

    /// The file stem of its render.
    pub fn name(&self) -> String {
        format!(
            "u1-t{}-s{}-{}u-{}deg-{}-{:?}-{}mm{}",
            self.table_seed,
            self.seed,
            self.units,
            self.tilt_deg,
            if self.far { "far" } else { "near" },
            self.mat,
            self.overhang_mm,
            if self.tagged_every > 0 { format!("-tag{}", self.tagged_every) } else { String::new() }
        )
        .replace("u1-", if self.twins { "u1-twins-" } else { "u1-" })
            + &if self.coats > 0 { format!("-coats{}", self.coats) } else { String::new() }.to_lowercase()
    }

    /// Whether unit `index` carries tags.
    pub fn tagged(&self, index: usize) -> bool {
        self.tagged_every > 0 && index % self.tagged_every == self.tagged_every - 1
    }

    /// Renders the shot into `dir` (`NAME.jpg`, `NAME.table.json`, `NAME.camera.json`)
    /// unless it is there.
    pub fn ensure_rendered(&self, dir: &Path) -> String {
        let name = self.name();
        if dir.join(format!("{name}.camera.json")).exists() && dir.join(format!("{name}.jpg")).exists() {
            return name;
        }
        let (scene, camera, _, options) = self.setup();
        let photo = vedette_synth::render(&scene, &camera, &options).expect("render");
        photo.write(dir, &name).expect("write render");
        name
    }

    /// Renders the shot's empty table into `dir` (`NAME-empty.jpg`, issue 37's
    /// `--background`) unless it is there: the same mat, terrain, fiducials and light,
    /// another draw of the sensor's noise, the camera nudged 1 mm across (about 2 px).
    /// Gives its path.
    pub fn ensure_empty_rendered(&self, dir: &Path) -> std::path::PathBuf {
        let path = dir.join(format!("{}-empty.jpg", self.name()));
        if path.exists() {
            return path;
        }
        let (scene, _, nudged, options) = self.setup();
        let photo =
            vedette_synth::render_empty(&scene, &nudged, &options, self.seed ^ 0xe3e3).expect("render");
        std::fs::write(&path, photo.encode_jpeg().expect("jpeg")).expect("write empty render");
        path
    }

    /// The shot's scene, camera, the camera nudged 1 mm across (a tripod between two
    /// shots), and render options.
    fn setup(
        &self,
    ) -> (vedette_synth::Scene, vedette_synth::Camera, vedette_synth::Camera, vedette_synth::RenderOptions)
    {
        let table = if self.twins { twin_table() } else { untagged_battle(self.table_seed, self.units) };
        self.setup_with(table)
    }

    /// [`Self::setup`] for a given table (the shot's own table left aside).
    fn setup_with(
        &self,
        table: Table,
    ) -> (vedette_synth::Scene, vedette_synth::Camera, vedette_synth::Camera, vedette_synth::RenderOptions)
    {
        use rand::{RngExt, SeedableRng};
        use rand_chacha::ChaCha8Rng;
        use vedette_synth::{
            Camera, Distortion, LookAt, RenderOptions, Resolution, Scene, SensorOptions, StandardLayout,
        };
        let mut layout = StandardLayout::default().build(&table).expect("layout");
        let tagged: Vec<String> = table
            .units
            .iter()
            .enumerate()
            .filter(|(i, _)| self.tagged(*i))
            .map(|(_, u)| u.id.clone())
            .collect();
        layout.tags.retain(|t| tagged.contains(&t.unit));
        let (w, d) = (1828.8, 1219.2);
        let scene = Scene::new(table, &layout).expect("scene");
        let mut rng = ChaCha8Rng::seed_from_u64(self.seed ^ 0x3737);
        let k1: f64 = rng.random_range(-0.04..0.04);
        let mut height = 900.0;
        let look = |target: vedette_geometry::Vec2, height_mm: f64, yaw_deg: f64| {
            Camera::looking_at(&LookAt {
                target_mm: target,
                height_mm,
                tilt_deg: self.tilt_deg,
                yaw_deg,
                focal_mm: 4.5,
                sensor_width_mm: 6.17,
                resolution: Resolution::MP12,
            })
            .expect("camera")
            .with_distortion(Distortion { k1, ..Distortion::NONE })
        };
        let centre = vedette_geometry::Vec2::new(w / 2.0, d / 2.0);
        let (camera, nudged) = loop {
            let yaw = if self.far { 180.0 } else { 0.0 } + rng.random_range(-3.0..3.0);
            let cam = look(centre, height, yaw);
            let all_in =
                [(-40.0, -40.0), (w + 40.0, -40.0), (w + 40.0, d + 40.0), (-40.0, d + 40.0)].iter().all(
                    |&(x, y)| cam.project(&nalgebra::Point3::new(x, y, 0.0)).is_some_and(|p| cam.in_frame(p)),
                );
            if all_in || height > 5000.0 {
                break (cam, look(centre + vedette_geometry::Vec2::new(0.8, -0.6), height, yaw));
            }
            height += 25.0;
        };
        let options = RenderOptions {
            mat: self.mat,
            mat_flocked_every: MAT_FLOCKED_EVERY,
            overhang_mm: self.overhang_mm,
            sensor: SensorOptions {
                blur_sigma_px: rng.random_range(0.5..1.0),
                read_noise: rng.random_range(0.003..0.01),
                shot_noise: rng.random_range(0.0001..0.0003),
                vignetting: rng.random_range(0.1..0.3),
            },
            jpeg_quality: 88,
            unit_coats: self.coats,
            ..RenderOptions::seeded(self.seed)
        };
        (scene, camera, nudged, options)
    }

    /// The roster of the shot: every `tagged_every`-th unit by its tags, the others by
    /// their base count; each unit's coat where the shot paints them; Austria at the
    /// near edge.
    pub fn roster(&self, dir: &Path, name: &str) -> Roster {
        let table = Table::load(dir.join(format!("{name}.table.json"))).expect("truth table");
        let text = std::fs::read_to_string(dir.join(format!("{name}.camera.json"))).expect("camera truth");
        let camera: vedette_synth::CameraTruth = serde_json::from_str(&text).expect("camera truth JSON");
        let units = table
            .units
            .iter()
            .enumerate()
            .map(|(i, u)| {
                let b = u.bases[0];
                let size = [b.width(), b.depth()];
                let mut tags: Vec<&vedette_synth::TagTruth> =
                    camera.tags.iter().filter(|t| t.unit_index == i).collect();
                tags.sort_by_key(|t| t.base);
                let coat = (self.coats > 0).then(|| vedette_synth::UNIT_COATS[i % self.coats]);
                if tags.is_empty() {
                    RosterUnit::untagged(u, size, u.bases.len()).painted(coat, None)
                } else {
                    let offset = [tags[0].offset_mm.x, tags[0].offset_mm.y];
                    RosterUnit::from_unit(u, size, offset, tags.iter().map(|t| t.marker.id).collect())
                        .painted(coat, None)
                }
            })
            .collect();
        let game = Game {
            rules: table.rules,
            scale: table.scale,
            name: table.name.clone(),
            near_side: Some("austria".into()),
        };
        Roster::from_units(game, units).expect("mixed roster")
    }
}

/// A 30-unit shot of the benches' kind: units painted in six declared coats, no twins.
fn coated_shot(
    table_seed: u64,
    seed: u64,
    tilt_deg: f64,
    far: bool,
    mat: vedette_synth::MatColour,
    overhang_mm: f64,
    tagged_every: usize,
) -> UntaggedShot {
    UntaggedShot {
        table_seed,
        seed,
        units: 30,
        tilt_deg,
        far,
        mat,
        overhang_mm,
        tagged_every,
        coats: 6,
        twins: false,
    }
}

/// The synthetic shots the bench measures (12 MP): mats, tilts 0-25°, both edges,
/// overhangs 1-3 mm, every fourth unit flocked like the mat, two with a mixed roster;
/// units painted in six coats, declared (units six apart painted alike).
pub fn untagged_shots() -> Vec<UntaggedShot> {
    use vedette_synth::MatColour::{Brown, Green, Sand};
    let shot = coated_shot;
    vec![
        shot(3701, 3701, 5.0, false, Green, 1.0, 0),
        shot(3702, 3702, 15.0, true, Brown, 2.0, 0),
        shot(3703, 3703, 25.0, false, Sand, 3.0, 5),
        shot(3704, 3704, 20.0, true, Green, 2.5, 0),
        shot(3705, 3705, 10.0, false, Brown, 1.5, 5),
        shot(3705, 3706, 22.0, true, Brown, 1.5, 5),
    ]
}

/// The synthetic shots a learned part of the fitter is trained on (issue 37 item 2),
/// disjoint from the bench's [`untagged_shots`]: other table and render seeds
/// (3801-3812), the same spread of mats, tilts 5-25°, both edges, overhangs 1-3 mm,
/// every fourth unit flocked like the mat, a third with every fifth unit tagged, six
/// coats. Never the bench's seeds, never the second renderer's photos.
pub fn training_shots() -> Vec<UntaggedShot> {
    use vedette_synth::MatColour::{Brown, Green, Sand};
    let shot = |seed, tilt_deg, far, mat, overhang_mm, tagged_every| {
        coated_shot(seed, seed, tilt_deg, far, mat, overhang_mm, tagged_every)
    };
    vec![
        shot(3801, 8.0, false, Green, 1.5, 0),
        shot(3802, 18.0, true, Brown, 2.5, 0),
        shot(3803, 24.0, false, Sand, 2.0, 5),
        shot(3804, 12.0, true, Green, 3.0, 0),
        shot(3805, 6.0, false, Brown, 1.0, 5),
        shot(3806, 21.0, true, Sand, 1.5, 0),
        shot(3807, 16.0, false, Green, 2.0, 0),
        shot(3808, 25.0, true, Brown, 3.0, 5),
        shot(3809, 10.0, false, Sand, 2.5, 0),
        shot(3810, 14.0, true, Green, 1.0, 5),
        shot(3811, 20.0, false, Brown, 2.0, 0),
        shot(3812, 5.0, true, Sand, 3.0, 0),
    ]
}

/// A unit held back from a contested place (`missing-unit` with `places`): each place
/// it was offered at is the whole unit, one base per roster base, of its size, at the
/// place's formation (its bases' centres averaging the place's centre), its facing
/// assumed, its sigmas covering both places; and `looked` names the best place's
/// centre to the millimetre. Gives the places' centres, best first (none when the unit
/// was not held back).
pub fn offered_places(issue: &vedette_vision::ScanIssue) -> Vec<vedette_geometry::Vec2> {
    let vedette_vision::ScanIssue::MissingUnit { unit, bases, base_mm, looked, places, .. } = issue else {
        return Vec::new();
    };
    let centre = |u: &vedette_geometry::Unit| {
        u.bases.iter().fold(vedette_geometry::Vec2::ZERO, |a, b| a + b.centre())
            * (1.0 / u.bases.len() as f64)
    };
    assert!(places.len() <= 2, "{unit}: {places:?}");
    let mut apart = 0.0_f64;
    for p in places {
        assert_eq!((&p.id, p.bases.len()), (unit, *bases), "{p:?}");
        for b in &p.bases {
            assert!((b.width() - base_mm[0]).abs() < 1e-9 && (b.depth() - base_mm[1]).abs() < 1e-9, "{b:?}");
            assert_eq!(b.meta().facing, Some(vedette_geometry::Facing::Assumed), "{b:?}");
            assert_eq!(b.meta().found, Some(vedette_geometry::Found::Fitted), "{b:?}");
        }
        apart = apart.max(centre(p).distance(centre(&places[0])));
    }
    // Each place's sigma covers the other (at most 2.45 sigma apart).
    for p in places {
        for b in &p.bases {
            assert!(b.meta().sigma_mm.is_some_and(|s| 2.45 * s >= apart * 0.999), "{apart} mm: {b:?}");
        }
    }
    if let Some(best) = places.first() {
        let c = centre(best);
        assert!(
            looked.contains(&format!(
                "apart at ({:.0}, {:.0}) mm and a place overlapping them fit within",
                c.x, c.y
            )),
            "{looked}"
        );
    }
    places.iter().map(centre).collect()
}
