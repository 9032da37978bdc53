//! Formations of known rectangles: each untagged roster unit is `cols x rows` touching
//! bases of its size (a line is one rank, two lines two ranks of half the bases, a
//! column one file), and a blob is tested against each: its two pairs of outer edges
//! must stand where the profiles across the formation's directions have straight
//! edges, the right distance apart.

use super::edges::{FINE_PX_PER_MM, PairFit, Profile, fit_pair};
use crate::roster::RosterUnit;
use vedette_geometry::{BaseSize, Formation, Vec2};

/// A blob may reach this far past a formation's outline (figures overhanging its edges,
/// the side walls of the bases a tilted camera sees, their shadows), mm, besides the
/// figures' lean away from a tilted camera.
pub(crate) const OVERHANG_SLACK_MM: f64 = 9.0;
/// ... and stop this far short of it (a base flocked like the mat with few figures near
/// an edge), mm.
pub(crate) const SHORTFALL_SLACK_MM: f64 = 5.0;
/// An outer edge weaker than this many times the profile's level where no edge stands
/// is no edge.
pub(crate) const MIN_EDGE_RATIO: f64 = 1.2;
/// An outer edge whose colour step (8-bit units summed over the three channels) is
/// below this is no edge: about 3 units a channel, well under a base's against any mat
/// and above what figures' outlines add up to along a line that is no edge.
pub(crate) const MIN_EDGE_CONTRAST: f64 = 8.0;

/// The layout of a roster unit's bases.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Shape {
    /// The unit's index in the roster.
    pub unit: usize,
    /// Each base's size.
    pub size: BaseSize,
    /// Bases side by side in a rank.
    pub cols: usize,
    /// Ranks, front first.
    pub rows: usize,
}

impl Shape {
    /// The layout of roster unit `unit` (`u`): formations that fix one (line, two or
    /// three lines, columns), else one rank.
    pub(crate) fn of(unit: usize, u: &RosterUnit) -> Shape {
        let n = u.base_count().max(1);
        let (cols, rows) = match u.formation {
            Some(Formation::TwoLine) if n.is_multiple_of(2) => (n / 2, 2),
            Some(Formation::ThreeLine) if n.is_multiple_of(3) => (n / 3, 3),
            Some(Formation::AttackColumn | Formation::Column) => (1, n),
            _ => (n, 1),
        };
        Shape { unit, size: u.base_size(), cols, rows }
    }

    /// Frontage of the whole formation, mm.
    pub(crate) fn frontage(&self) -> f64 {
        self.cols as f64 * self.size.width
    }

    /// Depth of the whole formation, mm.
    pub(crate) fn depth(&self) -> f64 {
        self.rows as f64 * self.size.depth
    }

    /// The centre of base `i` (roster order: front rank first, each left to right) in
    /// the formation's frame (x to its right, y forward), mm.
    pub(crate) fn slot(&self, i: usize) -> Vec2 {
        let (c, r) = (i % self.cols, i / self.cols);
        Vec2::new(
            (c as f64 - (self.cols as f64 - 1.0) / 2.0) * self.size.width,
            ((self.rows as f64 - 1.0) / 2.0 - r as f64) * self.size.depth,
        )
    }

    /// How many bases.
    pub(crate) fn count(&self) -> usize {
        self.cols * self.rows
    }
}

/// One way a shape fits a blob.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Hypothesis {
    /// The shape.
    pub shape: Shape,
    /// The formation's centre, table mm.
    pub centre: Vec2,
    /// One of the two directions it may face (the other is its opposite).
    pub forward: Vec2,
    /// The weakest outer edge over the profiles' level where no edge stands.
    pub weakest: f64,
    /// Mean strength of the outer edges over that level, seams counted at half weight.
    pub score: f64,
    /// How far the fitted edges' spacing differs from the shape's, mm (both axes, RMS).
    pub misfit_mm: f64,
    /// The blob reaches well past the formation: it holds more than this unit.
    pub partial: bool,
    /// Each outer edge's contrast: the colour step across it (8-bit units summed over
    /// the channels), rear, front, left, right.
    pub edges: [f64; 4],
}

/// The blob's extent along `n`: from its 1st to its 99th percentile, mm.
pub(crate) fn extent(points: &[Vec2], n: Vec2) -> (f64, f64) {
    let mut s: Vec<f64> = points.iter().map(|p| p.dot(n)).collect();
    if s.is_empty() {
        return (0.0, 0.0);
    }
    s.sort_by(f64::total_cmp);
    let at = |q: f64| s[((s.len() - 1) as f64 * q).round() as usize];
    (at(0.01), at(0.99))
}

/// Tests `shape` against a blob whose edges run along `angle_deg` and `angle_deg + 90`
/// (profiles `pa` across `na`, `pb` across `nb`), the blob's extents along each given.
/// Both ways round (facing along `na` or along `nb`).
/// `lean` is how far, and which way, the tops of the figures appear displaced on the
/// plane of the base tops at the blob (they stand above it: a tilted camera sees them
/// past the base's far edges), mm.
pub(crate) fn hypotheses(
    shape: &Shape,
    (na, pa, ea): (Vec2, &Profile, (f64, f64)),
    (nb, pb, eb): (Vec2, &Profile, (f64, f64)),
    lean: Vec2,
) -> Vec<Hypothesis> {
    let mut out = Vec::new();
    for (forward, pf, ef, right, pr, er) in [(na, pa, ea, nb, pb, eb), (nb, pb, eb, na, pa, ea)] {
        let (slack_f, slack_r) =
            (OVERHANG_SLACK_MM + lean.dot(forward).abs(), OVERHANG_SLACK_MM + lean.dot(right).abs());
        let (depth, frontage) = (shape.depth(), shape.frontage());
        // A formation fills its blob but for the overhang; a smaller one (part of a
        // blob where two units stand close) is kept as partial.
        let fits = |len: f64, e: (f64, f64)| len <= e.1 - e.0 + SHORTFALL_SLACK_MM;
        if !fits(depth, ef) || !fits(frontage, er) {
            continue;
        }
        let fills = |len: f64, e: (f64, f64), slack: f64| len >= e.1 - e.0 - slack;
        let partial = !(fills(depth, ef, slack_f) && fills(frontage, er, slack_r));
        let search = |len: f64, e: (f64, f64)| {
            let mid = (e.0 + e.1) / 2.0;
            let room = ((e.1 - e.0) - len).abs() / 2.0 + 3.0;
            (mid - room, mid + room)
        };
        let (flo, fhi) = search(depth, ef);
        let (rlo, rhi) = search(frontage, er);
        let (Some(f), Some(r)) = (fit_pair(pf, depth, flo, fhi), fit_pair(pr, frontage, rlo, rhi)) else {
            continue;
        };
        // Each edge's colour step: its peak over the rows that add to it.
        let step = |peak: f64, len: f64| 2.0 * peak / (len * FINE_PX_PER_MM * FINE_PX_PER_MM);
        let edges_contrast = [
            step(f.near_strength, frontage),
            step(f.far_strength, frontage),
            step(r.near_strength, depth),
            step(r.far_strength, depth),
        ];
        let level_f = pf.median_over(ef.0, ef.1).max(1e-9);
        let level_r = pr.median_over(er.0, er.1).max(1e-9);
        let edges = |p: &PairFit, level: f64| [p.near_strength / level, p.far_strength / level];
        let all: Vec<f64> = edges(&f, level_f).into_iter().chain(edges(&r, level_r)).collect();
        let weakest = all.iter().copied().fold(f64::INFINITY, f64::min);
        // Seams between touching bases: weak, but where the shape says.
        let mut seams = Vec::new();
        for k in 1..shape.rows {
            seams.push(pf.at(f.centre - depth / 2.0 + k as f64 * shape.size.depth) / level_f);
        }
        for k in 1..shape.cols {
            seams.push(pr.at(r.centre - frontage / 2.0 + k as f64 * shape.size.width) / level_r);
        }
        let seam = if seams.is_empty() { 0.0 } else { seams.iter().sum::<f64>() / seams.len() as f64 };
        let score = (all.iter().sum::<f64>() + 0.5 * seam * 2.0) / 5.0;
        let misfit_mm = (((f.length_mm - depth).powi(2) + (r.length_mm - frontage).powi(2)) / 2.0).sqrt();
        out.push(Hypothesis {
            shape: *shape,
            centre: forward * f.centre + right * r.centre,
            forward,
            weakest,
            score,
            misfit_mm,
            partial,
            edges: edges_contrast,
        });
    }
    out
}
