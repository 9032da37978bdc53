//! Which unit is which by its paint (issue 37 item 3): the geometry cannot tell apart
//! units of one side, kind and layout (twins); a player who declares how each is
//! painted (`coat`, `flock`: sRGB as on a paint chart) lets the photo tell. The photo's
//! colours are first made relative to it ([`crate::photo_colour`]: the fiducials'
//! paper and ink), then each fitted formation's area is compared with each candidate's
//! declared paints: how much of it (grown a little: figures overhang and lean) shows
//! the coat, how much of its rim (the outer band of the base tops) the flock. A unit is
//! chosen by paint only when its share clearly beats every other candidate's and their
//! declared paints differ; otherwise the candidates stay tied (`ambiguous-unit`). A
//! candidate whose coat covers the figures' bodies ([`clearly_shown`]) stays tied
//! whatever coat shows more: what else the figures wear (horses, faces) may read as
//! another's coat.

use crate::error::VisionError;
use crate::photo_colour::{PhotoColour, lab, paint_distance};
use crate::rectify::Rectified;
use crate::roster::RosterUnit;
use opencv::core::{Mat, Vec3b};
use opencv::prelude::*;
use vedette_geometry::Vec2;

/// A pixel shows a paint when its colour, made relative to the photo, is within this
/// paint distance of it (Lab, lightness counted half), and nearer to it than to every
/// other candidate's paint and to the formation's commonest colour (its flock or the
/// mat): small painted areas (a rider's coat is a few mm) blend with what surrounds
/// them, so the judgement is relative.
const PAINT_MATCH: f64 = 25.0;
/// A formation shows a coat when at least this share of its figures' area does.
const MIN_SHOWN: f64 = 0.003;
/// Two declared paints closer than this are painted alike: the photo is not asked to
/// tell them apart.
const ALIKE: f64 = 12.0;
/// The best candidate's share must be this many times every other's ...
const DECISIVE_RATIO: f64 = 1.5;
/// ... and more than theirs by at least this share of the area.
const DECISIVE_MARGIN: f64 = 0.01;
/// A unit's coat shows clearly more at one place than at another ([`clearly_more`]) when
/// it shows on less than this share of the figures' area here: a coat's share
/// varies between places of one unit (figures, light), so only a place that barely
/// shows it is another unit's (measured on vedette-synth's six bench renders, issue 37:
/// the units' own places showed their coat on 0.042 or more, the places taken from
/// other units on 0.000-0.019; on the second renderer own places 0.042-0.086) ...
const ELSEWHERE_ABSENT: f64 = 0.03;
/// ... and covers at least this share of the figures' area there: a coat over the
/// figures' bodies (vedette-synth's units: 0.09-0.35 at the places the skipping units
/// took instead), not a rider's few per cent (the second renderer's cavalry, where
/// another unit's coat covered 0.02-0.07 of a right place).
const ELSEWHERE_SHOWN: f64 = 0.08;
/// The figures' area: the formation's outline grown by this, mm (figures overhang
/// their bases' edges and, on the base tops' plane, lean away from the camera).
const FIGURES_GROW_MM: f64 = 2.0;
/// The rim of the base tops whose flock is compared: this far inside the outline, mm
/// (leaving out the edge's own blur).
const RIM_MM: (f64, f64) = (0.4, 2.5);

/// A unit's declared paints, in Lab.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub(crate) struct Paints {
    coat: Option<[f64; 3]>,
    flock: Option<[f64; 3]>,
}

impl Paints {
    /// The paints `u` declares.
    pub(crate) fn of(u: &RosterUnit) -> Paints {
        let to_lab = |c: [u8; 3]| lab(c.map(f64::from));
        Paints { coat: u.coat_rgb().map(to_lab), flock: u.flock_rgb().map(to_lab) }
    }

    /// Whether it declares anything.
    pub(crate) fn any(&self) -> bool {
        self.coat.is_some() || self.flock.is_some()
    }

    /// Whether a coat is declared.
    pub(crate) fn has_coat(&self) -> bool {
        self.coat.is_some()
    }
}

/// The colours a fitted formation shows (Lab, relative to the photo).
#[derive(Debug, Clone, Default)]
pub(crate) struct Seen {
    /// Over its outline grown by [`FIGURES_GROW_MM`], where the photo differs from
    /// the mat.
    figures: Vec<[f64; 3]>,
    /// Over the rim of its base tops ([`RIM_MM`]).
    rim: Vec<[f64; 3]>,
    /// The commonest colour over its outline grown by [`FIGURES_GROW_MM`]
    /// (per-channel median): the base tops' flock, or the mat.
    background: [f64; 3],
}

impl Seen {
    /// The colours over a formation of `frontage` x `depth` mm centred at `centre`,
    /// facing `forward`, in `rect` (the photo on the base tops' plane), leaving out
    /// `occupied` (255 on the tagged bases and the fiducials, whose white paper is a
    /// coat's colour too); coats are looked for only where the photo differs from the
    /// mat (`not_mat` 255: a green coat is not a green mat).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn measure(
        rect: &Rectified,
        occupied: &Mat,
        not_mat: &Mat,
        colour: &PhotoColour,
        centre: Vec2,
        forward: Vec2,
        frontage: f64,
        depth: f64,
    ) -> Result<Seen, VisionError> {
        let (cols, rows) = rect.size()?;
        let right = forward.perp_right();
        let (hw, hd) = (frontage / 2.0 + FIGURES_GROW_MM, depth / 2.0 + FIGURES_GROW_MM);
        let reach = hw.hypot(hd);
        let lo = rect.to_px(centre - Vec2::new(reach, reach));
        let hi = rect.to_px(centre + Vec2::new(reach, reach));
        let (x0, y0) = ((lo[0].floor() as i32).max(0), (lo[1].floor() as i32).max(0));
        let (x1, y1) = ((hi[0].ceil() as i32).min(cols - 1), (hi[1].ceil() as i32).min(rows - 1));
        let mut seen = Seen::default();
        let mut area = Vec::new();
        for y in y0..=y1 {
            let row = rect.image.at_row::<Vec3b>(y)?;
            let occ = occupied.at_row::<u8>(y)?;
            let figure = not_mat.at_row::<u8>(y)?;
            for x in x0..=x1 {
                let d = rect.to_table([f64::from(x), f64::from(y)]) - centre;
                let (across, along) = (d.dot(right).abs(), d.dot(forward).abs());
                if across > hw || along > hd || occ[x as usize] != 0 {
                    continue;
                }
                let px = row[x as usize];
                let c = lab(colour.paint([px[0], px[1], px[2]]));
                area.push(c);
                if figure[x as usize] != 0 {
                    seen.figures.push(c);
                }
                let inside = (frontage / 2.0 - across).min(depth / 2.0 - along);
                if inside > RIM_MM.0 && inside < RIM_MM.1 {
                    seen.rim.push(c);
                }
            }
        }
        seen.background = median(&area);
        Ok(seen)
    }
}

/// Per-channel median (zero when empty).
fn median(colours: &[[f64; 3]]) -> [f64; 3] {
    std::array::from_fn(|k| {
        let mut v: Vec<f64> = colours.iter().map(|c| c[k]).collect();
        if v.is_empty() {
            return 0.0;
        }
        let mid = v.len() / 2;
        *v.select_nth_unstable_by(mid, f64::total_cmp).1
    })
}

/// The share of `colours` showing `paint` rather than any of `others` (the other
/// candidates' paints and the background).
fn share(colours: &[[f64; 3]], paint: [f64; 3], others: &[[f64; 3]]) -> f64 {
    if colours.is_empty() {
        return 0.0;
    }
    let shows = |c: &[f64; 3]| {
        let d = paint_distance(*c, paint);
        d < PAINT_MATCH && others.iter().all(|o| d < paint_distance(*c, *o))
    };
    colours.iter().filter(|c| shows(c)).count() as f64 / colours.len() as f64
}

/// Whether a formation that shows `seen` shows none of the coats that `candidates`
/// all declare (each against the formation's commonest colour alone). False when one
/// of them declares none.
pub(crate) fn shows_no_coat(candidates: &[(usize, Paints)], seen: &Seen) -> bool {
    !candidates.is_empty()
        && candidates
            .iter()
            .all(|(_, p)| p.coat.is_some_and(|c| share(&seen.figures, c, &[seen.background]) < MIN_SHOWN))
}

/// Whether a formation that shows `seen` shows one of the coats `candidates` declare
/// more than barely ([`barely_shown`], as other units' places do): by what its figures
/// wear, a place of theirs.
pub(crate) fn shows_a_coat(candidates: &[(usize, Paints)], seen: &Seen) -> bool {
    candidates.iter().any(|(_, p)| coat_share(p, seen).is_some_and(|c| !barely_shown(c)))
}

/// The share of a formation's figures (`seen`) showing the coat `p` declares, against
/// the formation's commonest colour alone; `None` when it declares none.
pub(crate) fn coat_share(p: &Paints, seen: &Seen) -> Option<f64> {
    p.coat.map(|c| share(&seen.figures, c, &[seen.background]))
}

/// A coat's share `there` is clearly more than its share `here`: barely shown here
/// (under [`ELSEWHERE_ABSENT`]) and on at least [`ELSEWHERE_SHOWN`] of the figures there.
pub(crate) fn clearly_more(there: f64, here: f64) -> bool {
    barely_shown(here) && clearly_shown(there)
}

/// A coat's share is a coat over the figures' bodies, at least [`ELSEWHERE_SHOWN`]: the
/// place shows that unit, whatever other coat shows more (issue 37: on vedette-synth's
/// held-out shots a yellow cavalry unit's own places showed its coat on 0.08-0.17 of the
/// figures and a white coat on 0.15-0.30, its grey horses read as white: the white unit,
/// chosen by paint, took the yellow one's place unsaid).
pub(crate) fn clearly_shown(share: f64) -> bool {
    share >= ELSEWHERE_SHOWN
}

/// A coat's share `here` is under [`ELSEWHERE_ABSENT`]: no other place can show it
/// clearly more unless it is ([`clearly_more`]).
pub(crate) fn barely_shown(here: f64) -> bool {
    here < ELSEWHERE_ABSENT
}

/// Of `candidates` (roster index and declared paints; the first is the one the
/// geometry and the side's prior would take), the one a formation that shows `seen`
/// is, and those it cannot be told from. Paint decides only on what every candidate
/// declares (coat, flock or both); a candidate painted alike, whose share is not
/// clearly below the best's, or whose coat differs and is [`clearly_shown`], stays
/// tied. Nothing declared by all: the first, tied with
/// all. `None` when there is no candidate.
pub(crate) fn choose(candidates: &[(usize, Paints)], seen: &Seen) -> Option<(usize, Vec<usize>)> {
    let &(first, _) = candidates.first()?;
    let all_coat = candidates.iter().all(|(_, p)| p.coat.is_some());
    let all_flock = candidates.iter().all(|(_, p)| p.flock.is_some());
    if candidates.len() == 1 || !(all_coat || all_flock) {
        return Some((first, candidates[1..].iter().map(|c| c.0).collect()));
    }
    // Each candidate's paints are told from the other candidates' that differ from
    // them (a paint alike is the same paint) and, for the coat, from the background.
    let others = |paint: [f64; 3], of: fn(&Paints) -> Option<[f64; 3]>, background: bool| {
        let mut o: Vec<[f64; 3]> = candidates
            .iter()
            .filter_map(|(_, p)| of(p))
            .filter(|c| paint_distance(*c, paint) >= ALIKE)
            .collect();
        if background {
            o.push(seen.background);
        }
        o
    };
    // Per candidate, the share showing its coat and the share of the rim its flock.
    let shares: Vec<[f64; 2]> = candidates
        .iter()
        .map(|(_, p)| {
            let coat = p
                .coat
                .filter(|_| all_coat)
                .map_or(0.0, |c| share(&seen.figures, c, &others(c, |p| p.coat, true)));
            // The rim is mostly flock: no background to tell it from.
            let flock = p
                .flock
                .filter(|_| all_flock)
                .map_or(0.0, |c| share(&seen.rim, c, &others(c, |p| p.flock, false)));
            [coat, flock]
        })
        .collect();
    // The best by its shares together, over the paints that differ between some two
    // candidates (a paint they all share alike says nothing); the first on a tie (the
    // geometry's and the side's choice).
    let spread = |of: fn(&Paints) -> Option<[f64; 3]>| {
        let paints: Vec<[f64; 3]> = candidates.iter().filter_map(|(_, p)| of(p)).collect();
        paints.iter().any(|a| paints.iter().any(|b| paint_distance(*a, *b) >= ALIKE))
    };
    let counts = [all_coat && spread(|p| p.coat), all_flock && spread(|p| p.flock)];
    let total = |i: usize| (0..2).filter(|&k| counts[k]).map(|k| shares[i][k]).sum::<f64>();
    let best = (0..candidates.len()).fold(0, |b, i| if total(i) > total(b) { i } else { b });
    // Against each other candidate, only the paints in which the two differ count.
    let differs = |x: Option<[f64; 3]>, y: Option<[f64; 3]>, used: bool| {
        used && matches!((x, y), (Some(x), Some(y)) if paint_distance(x, y) >= ALIKE)
    };
    let tied: Vec<usize> = (0..candidates.len())
        .filter(|&i| i != best)
        .filter(|&i| {
            let (a, b) = (&candidates[best].1, &candidates[i].1);
            let keys = [differs(a.coat, b.coat, all_coat), differs(a.flock, b.flock, all_flock)];
            let sum = |u: usize| (0..2).filter(|&k| keys[k]).map(|k| shares[u][k]).sum::<f64>();
            let (mine, theirs) = (sum(best), sum(i));
            !keys.iter().any(|k| *k)
                || mine < DECISIVE_RATIO * theirs
                || mine < theirs + DECISIVE_MARGIN
                || (keys[0] && clearly_shown(shares[i][0]))
        })
        .map(|i| candidates[i].0)
        .collect();
    if std::env::var_os("VEDETTE_FIT_DEBUG").is_some() {
        eprintln!("   paint shares {shares:.3?} best {best} tied {tied:?}");
    }
    Some((candidates[best].0, tied))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paints(coat: Option<[u8; 3]>, flock: Option<[u8; 3]>) -> Paints {
        let to_lab = |c: [u8; 3]| lab(c.map(f64::from));
        Paints { coat: coat.map(to_lab), flock: flock.map(to_lab) }
    }

    /// A unit's coat shows clearly more at another place only where it barely shows
    /// here and covers a real share of the figures there: a coat that varies from
    /// 0.05 to 0.3 between a unit's own places, or a rider's few per cent, does not.
    #[test]
    fn a_coat_shows_clearly_more_elsewhere_only_where_it_is_absent_here() {
        assert!(clearly_more(0.12, 0.0));
        assert!(clearly_more(0.25, 0.02));
        assert!(!clearly_more(0.30, 0.05), "shown here");
        assert!(!clearly_more(0.06, 0.0), "a rider's share there");
        assert!(!clearly_more(0.09, 0.035), "shown a little here");
        let blue = [34, 44, 96];
        let mat = lab([118.0, 97.0, 66.0]);
        let coat = lab(blue.map(f64::from));
        let figures: Vec<[f64; 3]> = (0..100).map(|i| if i % 5 == 0 { coat } else { mat }).collect();
        let seen = Seen { figures, rim: Vec::new(), background: mat };
        assert_eq!(coat_share(&paints(Some(blue), None), &seen), Some(0.2));
        assert_eq!(coat_share(&paints(None, Some(blue)), &seen), None);
    }

    /// A place whose figures show a unit's coat on 2 in 100 of their pixels shows a
    /// coat (not none), but only barely: not that unit's place; on 5 in 100 it is. A
    /// unit that declares no coat is not shown by any.
    #[test]
    fn a_place_barely_showing_a_coat_does_not_show_it() {
        let blue = [34, 44, 96];
        let mat = lab([118.0, 97.0, 66.0]);
        let coat = lab(blue.map(f64::from));
        let with = |n: usize| Seen {
            figures: (0..100).map(|i| if i < n { coat } else { mat }).collect(),
            rim: Vec::new(),
            background: mat,
        };
        let unit = [(0, paints(Some(blue), None))];
        assert!(!shows_no_coat(&unit, &with(2)));
        assert!(!shows_a_coat(&unit, &with(2)));
        assert!(shows_a_coat(&unit, &with(5)));
        assert!(!shows_a_coat(&[(0, paints(None, Some(blue)))], &with(50)));
    }

    /// A formation whose figures show a fifth blue coat and the rest mat: the blue
    /// unit, not its green twin, is chosen even when the green comes first; painted
    /// alike, or with nothing declared by both, they stay tied, the first chosen.
    #[test]
    fn the_declared_paint_decides_between_twins() {
        let blue = [34, 44, 96];
        let green = [40, 80, 52];
        let mat = lab([118.0, 97.0, 66.0]);
        let coat = lab(blue.map(f64::from));
        let figures: Vec<[f64; 3]> = (0..100)
            .map(|i| if i % 5 == 0 { [coat[0] + 8.0, coat[1], coat[2] - 3.0] } else { mat })
            .collect();
        let seen = Seen { figures, rim: vec![mat; 20], background: mat };
        let (b, g) = (paints(Some(blue), None), paints(Some(green), None));
        assert_eq!(choose(&[(7, g), (3, b)], &seen), Some((3, vec![])));
        assert_eq!(choose(&[(3, b), (7, g)], &seen), Some((3, vec![])));
        let b2 = paints(Some([38, 46, 100]), None);
        assert_eq!(choose(&[(7, b2), (3, b)], &seen), Some((7, vec![3])), "painted alike");
        let none = Paints::default();
        assert_eq!(choose(&[(7, none), (3, b)], &seen), Some((7, vec![3])), "only one declares");
        // Both declare, the photo shows neither: tied.
        let red = paints(Some([180, 30, 35]), None);
        let white = paints(Some([225, 222, 210]), None);
        assert_eq!(choose(&[(7, red), (3, white)], &seen), Some((7, vec![3])));
        // A coat over the figures' bodies stays tied, however much more another shows:
        // a yellow unit's riders on grey horses read as white (issue 37).
        let (yellow_c, white_c) = ([210, 180, 50], [225, 222, 210]);
        let (y, w) = (lab(yellow_c.map(f64::from)), lab(white_c.map(f64::from)));
        // A hundred figures: yellow every `every`-th, white the others of the first four
        // in each ten, the rest mat.
        let figures = |every: usize| Seen {
            figures: (0..100)
                .map(|i| {
                    if i % every == 0 {
                        y
                    } else if i % 10 < 4 {
                        w
                    } else {
                        mat
                    }
                })
                .collect(),
            rim: Vec::new(),
            background: mat,
        };
        let (yellow, white) = (paints(Some(yellow_c), None), paints(Some(white_c), None));
        assert_eq!(choose(&[(3, yellow), (4, white)], &figures(10)), Some((4, vec![3])));
        let barely = figures(20);
        assert_eq!(choose(&[(3, yellow), (4, white)], &barely), Some((4, vec![])), "yellow 5%: not shown");
        // A flock declared by both and seen on the rim decides alike.
        let rim_seen =
            Seen { figures: vec![mat; 10], rim: vec![lab([152.0, 125.0, 86.0]); 10], background: mat };
        let (sand, grass) = (paints(None, Some([152, 125, 86])), paints(None, Some([89, 108, 55])));
        assert_eq!(choose(&[(1, grass), (2, sand)], &rim_seen), Some((2, vec![])));
        assert_eq!(choose(&[], &rim_seen), None);
    }
}
