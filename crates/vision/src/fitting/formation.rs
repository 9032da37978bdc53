//! Formations of known rectangles: each untagged roster unit is `cols x rows` touching
//! bases of its size (a line is one rank, two lines two ranks of half the bases, a
//! column one file), and each place a rigid template of it takes in a blob
//! ([`super::template`]) is kept as a hypothesis when its outer edges stand out and the
//! blob fills it.

use super::template::{Placement, credit};
use crate::roster::RosterUnit;
use vedette_geometry::{BaseSize, Formation, Vec2};

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
    /// The weakest outer edge over [`MIN_EDGE_CONTRAST`].
    pub weakest: f64,
    /// Mean colour step across the outer edges (far edges discounted, and each the less
    /// the more of the band outside it is blob), 8-bit units summed over the channels.
    pub score: f64,
    /// How far the edges' own peaks put each pair apart from the shape's size, mm (both
    /// axes, RMS).
    pub misfit_mm: f64,
    /// Share of the formation's outline the blob covers.
    pub fill: f64,
    /// Share of the blob inside the formation's outline.
    pub explained: f64,
    /// Each outer edge's contrast: the colour step across it (8-bit units summed over
    /// the channels), rear, front, left, right.
    pub edges: [f64; 4],
    /// How far the corners of the farthest rival place stand from this one's, mm: a
    /// place of the same layout, overlapping this one, that ranks nearly as well (0
    /// when none does).
    pub rival_mm: f64,
    /// The angle between this place's axis and that of the most turned rival, degrees
    /// (0 to 90).
    pub rival_deg: f64,
    /// The best place of the same layout in the same blob that overlaps this one and
    /// ranks no higher, as a share of this one's rank (0 when none does): near 1, the
    /// photo does not tell this place from that one.
    pub runner_up: f64,
    /// Where that runner-up stands: its centre and one of its two directions (`None`
    /// when no place is its runner-up).
    pub runner_up_at: Option<(Vec2, Vec2)>,
    /// Per edge (rear, front, left, right), how clear the band beyond it is.
    pub clear: [f64; 4],
}

/// A formation stands on its base tops: they and its figures cover most of its
/// outline in the blob of non-mat pixels (a base flocked like the mat shows its
/// figures).
pub(crate) const MIN_FILL: f64 = 0.5;

/// `shape` placed as `p` of a turned frame (axes `a`, `b`), facing along `a` or along
/// `b`; `None` when its outer edges do not stand out ([`edges_hold`]) or the blob does
/// not fill it.
pub(crate) fn hypothesis(
    shape: &Shape,
    p: &Placement,
    along_a: bool,
    a: Vec2,
    b: Vec2,
    weights: [f64; 4],
) -> Option<Hypothesis> {
    let order = if along_a { [0, 1, 2, 3] } else { [2, 3, 0, 1] };
    let edges = order.map(|k| p.strength[k]);
    let w = order.map(|k| weights[k]);
    if !edges_hold(&edges) || p.fill < MIN_FILL {
        return None;
    }
    let clear = order.map(|k| p.clear[k]);
    let shadow = order.map(|k| p.shadow_edge[k]);
    let score =
        (0..4).map(|k| credit(edges[k], clear[k], shadow[k], w[k])).sum::<f64>() / w.iter().sum::<f64>();
    let weakest = edges.iter().copied().fold(f64::INFINITY, f64::min) / MIN_EDGE_CONTRAST;
    Some(Hypothesis {
        shape: *shape,
        centre: p.centre,
        forward: if along_a { a } else { b },
        weakest,
        score,
        misfit_mm: p.misfit_mm,
        fill: p.fill,
        explained: p.explained,
        edges,
        rival_mm: 0.0,
        rival_deg: 0.0,
        runner_up: 0.0,
        runner_up_at: None,
        clear,
    })
}

/// The outer edges of a formation stand out: of each pair of opposite edges, one is
/// clearly an edge, and the other at least faintly (figures standing at a base's far
/// edge hide most of it from a tilted camera).
pub(crate) fn edges_hold(e: &[f64; 4]) -> bool {
    let pair = |a: f64, b: f64| a.max(b) >= MIN_EDGE_CONTRAST && a.min(b) >= MIN_EDGE_CONTRAST / 3.0;
    pair(e[0], e[1]) && pair(e[2], e[3])
}
