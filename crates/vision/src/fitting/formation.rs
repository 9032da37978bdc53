//! Formations of known rectangles: each untagged roster unit is `cols x rows` touching
//! bases of its size (a line is one rank, two lines two ranks of half the bases, a
//! column one file), and each place a rigid template of it takes in a blob
//! ([`super::template`]) is kept as a hypothesis when its outer edges stand out and the
//! blob fills it.

use super::edges::FINE_PX_PER_MM;
use super::template::{EdgeProfile, OVERHANG_MM, Placement, Turned, credit};
use crate::roster::RosterUnit;
use vedette_geometry::{BaseSize, Formation, UnitKind, Vec2};

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
    /// Share of the blob inside the formation's outline with its halo all round
    /// ([`super::BLOB_HALO_MM`]).
    pub explained_haloed: f64,
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
    /// The direction along its rank(s), table: the line's ends face `-rank` and `rank`.
    pub rank: Vec2,
    /// How far the line's ends stand outward of its touching template's, mm (toward
    /// `-rank`, toward `rank`; [`open_end`]): a sloppy line's seams stand open.
    pub open_mm: [f64; 2],
    /// How far the formation's centre moves along `forward` so that its near long edge
    /// (the one its figures do not lean over) lies where it stands out most, mm
    /// ([`near_edge`]; 0 when it stands out most within the overhang of the place's).
    pub across_mm: f64,
    /// How far the formation's centre moves along `rank` so that its near end (the edge
    /// of that pair its figures do not lean over) lies where it stands out most, mm
    /// ([`near_edge`]). A one-base place is given there; a line of several bases only
    /// tells by it two of its places that are one ([`Hypothesis::laid_centre`]), and is
    /// given where it was found, between its own ends ([`Hypothesis::open_mm`]).
    pub aside_mm: f64,
}

/// The widest a seam between two bases of a line may stand open, mm: a player lines a
/// unit's bases up touching by hand, and a gap wider than a millimetre is one he sees
/// and closes (the rules move a unit as one body of bases in contact). A line's ends
/// are looked for at most this much per seam outward of its touching template's ends,
/// and never further in all.
pub(crate) const MAX_OPEN_SEAM_MM: f64 = 1.0;

/// An end's step counts as the line's end when, measured in the colours of the step
/// from the base tops to the mat along the line's long edges, it is at least this
/// share of the long edges' mean step: the highest share that loses nothing on
/// vedette-synth's bench (0.25 and 0.5: untagged centre median 1.10 mm; 0.75: 1.18 mm,
/// as lines with weak ends keep their template; none: 1.09 mm, measured on the
/// bench's profiles of 2026-11-30).
pub(crate) const END_CLEAR_SHARE: f64 = 0.5;

/// How far an end of a line stands outward of its touching template's end, px, from
/// the end's profile ([`EdgeProfile`]) within `max_px` outward: each line's step
/// projected on `base_to_mat` (the long edges' steps summed, inside minus outside), the
/// strongest line in the window refined by a parabola. 0 when the step peaks at the
/// window's outer bound (the true end further, or no end), or is no clear step
/// ([`END_CLEAR_SHARE`] of the long edges' mean step, `|base_to_mat| / 2`).
pub(crate) fn open_end(p: &EdgeProfile, base_to_mat: [f32; 3], max_px: f64) -> f64 {
    let Some((along, clear)) = end_step(base_to_mat) else {
        return 0.0;
    };
    if max_px <= 0.0 {
        return 0.0;
    }
    let step = |j: usize| along(p.step[j]);
    // Line j stands j - 1 px outward of the corner's line; the place's edge at_px.
    let last = ((p.at_px.max(0.0) + max_px).floor() as usize + 1).min(p.step.len() - 2);
    let Some(best) = (1..=last).max_by(|&i, &j| step(i).total_cmp(&step(j))) else {
        return 0.0;
    };
    if best == last || step(best) < clear {
        return 0.0;
    }
    let (m, c, n) = (step(best - 1), step(best), step(best + 1));
    let curve = m - 2.0 * c + n;
    let d = if curve < 0.0 { (0.5 * (m - n) / curve).clamp(-0.5, 0.5) } else { 0.0 };
    ((best as f64 - 1.0 + d) - p.at_px).clamp(0.0, max_px)
}

/// How a line's end steps in the colours of the step from its base tops to the mat
/// (`base_to_mat`: its long edges' steps, inside minus outside, summed): a step (inside
/// minus outside) projected on those colours, and the least such step that is the
/// line's end ([`END_CLEAR_SHARE`] of the long edges' mean step). `None` when the long
/// edges do not step.
fn end_step(base_to_mat: [f32; 3]) -> Option<(impl Fn([f32; 3]) -> f64, f64)> {
    let t = base_to_mat.map(f64::from);
    let norm = (t[0] * t[0] + t[1] * t[1] + t[2] * t[2]).sqrt();
    if norm <= 0.0 {
        return None;
    }
    let along =
        move |s: [f32; 3]| (f64::from(s[0]) * t[0] + f64::from(s[1]) * t[1] + f64::from(s[2]) * t[2]) / norm;
    Some((along, END_CLEAR_SHARE * norm / 2.0))
}

/// A formation stands on its base tops: they and its figures cover most of its
/// outline in the blob of non-mat pixels (a base flocked like the mat shows its
/// figures).
pub(crate) const MIN_FILL: f64 = 0.5;

/// `shape` placed as `p` of a turned frame (axes `a`, `b`), facing along `a` or along
/// `b`; `None` when its outer edges do not stand out ([`edges_hold`], each looked for
/// out to the figures' overhang past it, [`Placement::shown`]) or the blob does not
/// fill it.
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
    let shown = p.shown();
    if !edges_hold(&order.map(|k| shown[k])) || p.fill < MIN_FILL {
        return None;
    }
    let clear = order.map(|k| p.clear[k]);
    let shadow = order.map(|k| p.shadow_edge[k]);
    let score =
        (0..4).map(|k| credit(edges[k], clear[k], shadow[k], w[k])).sum::<f64>() / w.iter().sum::<f64>();
    let weakest = edges.iter().copied().fold(f64::INFINITY, f64::min) / MIN_EDGE_CONTRAST;
    // The rank runs across the facing: its ends are the other pair of edges, and its
    // long edges (rear and front) step from the base tops to the mat.
    let (rank, ends) = if along_a { (b, [2, 3]) } else { (a, [0, 1]) };
    let (rear, front) = (p.profile[order[0]].own, p.profile[order[1]].own);
    let base_to_mat = [0, 1, 2].map(|c| rear[c] + front[c]);
    let max_px = shape.cols.saturating_sub(1) as f64 * MAX_OPEN_SEAM_MM * FINE_PX_PER_MM;
    let mut open_mm = ends.map(|k| open_end(&p.profile[k], base_to_mat, max_px) / FINE_PX_PER_MM);
    let most = max_px / FINE_PX_PER_MM;
    if open_mm[0] + open_mm[1] > most {
        let k = most / (open_mm[0] + open_mm[1]);
        open_mm = open_mm.map(|o| o * k);
    }
    Some(Hypothesis {
        shape: *shape,
        centre: p.centre,
        forward: if along_a { a } else { b },
        weakest,
        score,
        misfit_mm: p.misfit_mm,
        fill: p.fill,
        explained: p.explained,
        explained_haloed: p.explained_haloed,
        edges,
        rival_mm: 0.0,
        rival_deg: 0.0,
        runner_up: 0.0,
        runner_up_at: None,
        clear,
        rank,
        open_mm,
        across_mm: 0.0,
        aside_mm: 0.0,
    })
}

impl Hypothesis {
    /// The formation's centre laid on its near edges, by which two of its places are
    /// told to be one (`fitting::rivals`): its near long edge
    /// ([`Hypothesis::across_mm`]) and a line's near end ([`Hypothesis::aside_mm`]). A
    /// one-base place's near end is left out: measured (issue 37, vedette-synth,
    /// BENCHMARKS.md "Untagged bases"), with it two one-base places on another unit's
    /// base became one place, given, on each set (the bench's 3705 skirmisher fr-16 on
    /// the leader fr-28's base), and no base came right.
    pub(crate) fn laid_centre(&self) -> Vec2 {
        let aside = if self.shape.count() > 1 { self.aside_mm } else { 0.0 };
        self.centre + self.forward * self.across_mm + self.rank * aside
    }

    /// The formation's centre as it is given: on its near long edge, and a one-base
    /// place on its near end too. A line is not moved along its rank by its near end: a
    /// shadow falling toward the camera past that end may step there in the base tops'
    /// colours (issue 37, the second renderer's `untagged-305-far`: two infantry lines
    /// laid so 16-17 mm off their truth, 4.2 mm and less before).
    pub(crate) fn given_centre(&self) -> Vec2 {
        let aside = if self.shape.count() == 1 { self.aside_mm } else { 0.0 };
        self.centre + self.forward * self.across_mm + self.rank * aside
    }
}

/// How far a formation's centre moves so that its near edges lie where they stand out
/// most ([`Turned::edge_peak`]): along its `forward` (its near long edge,
/// [`Hypothesis::across_mm`]) and along its `rank` (its near end,
/// [`Hypothesis::aside_mm`]; a line's only where that end steps in its base tops'
/// colours, [`steps_as_an_end`]). Its figures lean, on the base tops' plane, over its far
/// edges (`weights` discount them) and their outline there steps strongly past those
/// edges: a place laid on that outline lies slid away from the camera, by up to the lean
/// over that edge (`lean`, the tallest figures'), its near edge inside the formation on
/// a step among its figures. A line's ends are its rank's: where its rank runs along
/// the lean, the figures on its far base lean past its far end; a one-base place has no
/// rank, and its figures lean over whichever of its edges is far, its
/// other pair as much as its long one: a lone base's blob is its top swept along the
/// lean by its figures' height, its base at the near end. Nothing leans over a near
/// edge: it is looked for from [`OVERHANG_MM`] inward of the place's to that lean and
/// the overhang outward, and the formation (its size known) laid on it when it peaks
/// more than the overhang outward. Within the overhang the photo does not say where
/// the top's edge is (figures over it, or the side wall's foot toward the camera, may
/// step hardest), and the place is kept. Each 0 when neither edge of its pair is far (a
/// camera overhead, or the lean along the pair), or the near edge peaks within the
/// overhang or at the window's bound.
pub(crate) fn near_edge(
    t: &Turned,
    h: &Hypothesis,
    along_a: bool,
    weights: [f64; 4],
    lean: Vec2,
) -> (f64, f64) {
    let (long, ends) = if along_a { ((0, 1), (2, 3)) } else { ((2, 3), (0, 1)) };
    let lens =
        if along_a { (h.shape.depth(), h.shape.frontage()) } else { (h.shape.frontage(), h.shape.depth()) };
    let across = near_slide(t, h.centre, lens, long, weights, lean).dot(h.forward);
    let slide = near_slide(t, h.centre, lens, ends, weights, lean);
    let aside = if h.shape.count() == 1 || steps_as_an_end(t, h.centre + slide, lens, long, ends, slide) {
        slide.dot(h.rank)
    } else {
        0.0
    };
    (across, aside)
}

/// How far, table mm, a rectangle `lens` (mm along the turned frame's axes) centred at
/// `centre` moves so that the near one of its opposite edges `pair` lies where it
/// stands out most ([`near_edge`]); zero when neither edge is far, or the near edge
/// peaks within the overhang or at the window's bound.
fn near_slide(
    t: &Turned,
    centre: Vec2,
    lens: (f64, f64),
    (e0, e1): (usize, usize),
    weights: [f64; 4],
    lean: Vec2,
) -> Vec2 {
    let (near, far) = if weights[e0] < weights[e1] {
        (e1, e0)
    } else if weights[e1] < weights[e0] {
        (e0, e1)
    } else {
        return Vec2::ZERO;
    };
    let normals = Placement::normals(t.a, t.b);
    let reach = lean.dot(normals[far]).max(0.0);
    t.edge_peak(centre, lens, near, weights, (-OVERHANG_MM, reach + OVERHANG_MM))
        .filter(|s| s.abs() > OVERHANG_MM)
        .map_or(Vec2::ZERO, |s| normals[near] * s)
}

/// A line laid at `centre` (`lens`, mm along the turned frame's axes) has its near end
/// there: of its ends `(e0, e1)`, the one `slide` moved it toward steps in the colours of
/// its long edges' (`long`) step from the base tops to the mat, as clearly as a line's
/// end ([`end_step`]). A shadow falling toward the camera past the near end steps from
/// the shadowed mat to the mat, not from a base top.
fn steps_as_an_end(
    t: &Turned,
    centre: Vec2,
    lens: (f64, f64),
    long: (usize, usize),
    (e0, e1): (usize, usize),
    slide: Vec2,
) -> bool {
    let normals = Placement::normals(t.a, t.b);
    let near = if normals[e0].dot(slide) > normals[e1].dot(slide) { e0 } else { e1 };
    let Some(steps) = t.steps_at(centre, lens.0, lens.1) else {
        return false;
    };
    let base_to_mat = [0, 1, 2].map(|c| steps[long.0][c] + steps[long.1][c]);
    end_step(base_to_mat).is_some_and(|(along, clear)| along(steps[near]) >= clear)
}

/// The place `h` as measured for a unit of `kind`: laid on its near long edge
/// ([`Hypothesis::across_mm`]) and its near end ([`Hypothesis::aside_mm`]), unless its
/// figures are mounted. A mounted rank's near long edge, and a lone mounted base's
/// near edges, are no outline to lay it on: its horses' faces toward the camera
/// against their backs step inside the outline, their heads overhang it, and horses
/// of the mat's colour show only their shadow's edge past it (issue 37,
/// vedette-synth: of the 7 cavalry places it moved more than 3 mm, 4 ended farther
/// from their truth, 2 of them past 5 mm; BENCHMARKS.md, "Untagged bases"). A mounted
/// line's near end is kept: its end base's flank steps in the base tops' colours
/// ([`steps_as_an_end`]), and it only tells two places that are one, never moves the
/// line ([`Hypothesis::given_centre`]; vedette-synth's bench: two cavalry units no
/// longer held back, both right, 483 -> 487 of 590 bases).
pub(crate) fn measured_for(h: &Hypothesis, kind: UnitKind) -> Hypothesis {
    let mounted = matches!(kind, UnitKind::Cavalry | UnitKind::Leader);
    let aside_mm = if h.shape.count() > 1 { h.aside_mm } else { 0.0 };
    if mounted { Hypothesis { across_mm: 0.0, aside_mm, ..*h } } else { *h }
}

/// The outer edges of a formation stand out: of each pair of opposite edges, one is
/// clearly an edge, and the other at least faintly (figures standing at a base's far
/// edge hide most of it from a tilted camera).
pub(crate) fn edges_hold(e: &[f64; 4]) -> bool {
    let pair = |a: f64, b: f64| a.max(b) >= MIN_EDGE_CONTRAST && a.min(b) >= MIN_EDGE_CONTRAST / 3.0;
    pair(e[0], e[1]) && pair(e[2], e[3])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fitting::template::PROFILE_PX;

    /// A profile whose step, in the base-to-mat colours `[10, 0, 0]`, is a bump of
    /// `height` peaking `at` px outward of the corner's line (line index `at + 1`).
    fn bump(at: f64, height: f32) -> EdgeProfile {
        EdgeProfile {
            step: std::array::from_fn(|j| {
                let x = j as f64 - 1.0 - at;
                [height * (-x * x / 2.0).exp() as f32, 0.0, 0.0]
            }),
            own: [10.0, 0.0, 0.0],
            at_px: 0.0,
        }
    }

    /// Issue 37: a line's end is its own step's peak outward of the template's end,
    /// within the window (3 px here), when the peak is at least half the long edges'
    /// mean step (`[20, 0, 0]` summed: 10, so 5): a peak 2 px out is found there; one
    /// at the window's bound or beyond it, or a weak one (4), or one of other colours,
    /// leaves the end where the template put it.
    #[test]
    fn a_line_s_end_is_its_own_clear_peak_outward_within_the_window() {
        let long = [20.0, 0.0, 0.0];
        assert!((open_end(&bump(2.0, 30.0), long, 3.0) - 2.0).abs() < 0.05);
        assert!((open_end(&bump(2.3, 30.0), long, 3.0) - 2.3).abs() < 0.15);
        assert_eq!(open_end(&bump(3.0, 30.0), long, 3.0), 0.0);
        assert_eq!(open_end(&bump(6.0, 30.0), long, 3.0), 0.0);
        assert!((open_end(&bump(2.0, 5.5), long, 3.0) - 2.0).abs() < 0.05);
        assert_eq!(open_end(&bump(2.0, 4.0), long, 3.0), 0.0);
        assert_eq!(open_end(&bump(2.0, 30.0), [0.0, 20.0, 0.0], 3.0), 0.0);
        assert_eq!(PROFILE_PX, bump(0.0, 1.0).step.len());
    }

    /// Issue 37: a cavalry base's front under the horses that overhang it shows no step
    /// of its own (horse against horse): its edge is shown by the step from the
    /// horses to the mat up to the overhang past it ([`Placement::shown`]). A place
    /// whose front steps 0.5 at its line but 30 two millimetres out (6 px) is kept; the
    /// same step 5 mm out (15 px), past any figure's overhang, is no edge of this place,
    /// and neither is a front with no step out to the overhang.
    #[test]
    fn an_edge_hidden_under_overhanging_figures_is_shown_by_their_outline() {
        let place = |front: EdgeProfile| Placement {
            centre: Vec2::new(0.0, 0.0),
            strength: [20.0, 0.5, 20.0, 20.0],
            fill: 1.0,
            explained: 1.0,
            explained_haloed: 1.0,
            clear: [1.0; 4],
            misfit_mm: 0.0,
            shadow_edge: [0.0; 4],
            profile: [bump(0.0, 20.0), front, bump(0.0, 20.0), bump(0.0, 20.0)],
        };
        let shape = Shape { unit: 0, size: BaseSize::new(40.0, 30.0), cols: 2, rows: 1 };
        let (a, b) = (Vec2::new(1.0, 0.0), Vec2::new(0.0, 1.0));
        let kept = |p: &Placement| hypothesis(&shape, p, true, a, b, [1.0; 4]).is_some();
        assert!(kept(&place(bump(6.0, 30.0))));
        assert!(!kept(&place(bump(15.0, 30.0))));
        assert!(!kept(&place(bump(6.0, 2.0))));
    }
}
