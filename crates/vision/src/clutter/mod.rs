//! Tags among figures (issue 18): a second search, once the camera is solved, for tags
//! whose black border or quiet zone merges with the figures standing against them.
//!
//! OpenCV's detector needs each marker's thresholded outline to be a clean
//! quadrilateral: a dark hat touching the black border adds a bump to it, a white coat
//! overhanging the border bites into it, and the candidate is gone before it is read.
//! Here the camera model says what a tag looks like: a square of the profile's size on
//! the plane of the base tops. Every dark outline of about a tag's size or larger
//! (adaptive threshold, contours) is mapped onto that plane, and the square of the
//! tag's size that the most of its straight stretches agree with is found: the
//! outline's directions vote for the square's turn, and along each axis the pair of
//! edge lines a tag's side apart with the most outline points on them wins. Bumps and
//! bites cost a little of the support and move nothing. The square's corners, back in
//! the photo, are refined by lines fitted to the visible edge segments
//! ([`crate::fiducials::refine_edges`], which rejects the points a figure spoils), its
//! cells are read and matched with the dictionary's error correction, and the roster
//! rejects ids that cannot be there.
//!
//! When the figures join a tag's outline to the dark table, the outline is far too
//! long to be searched whole; its straight stretches of about a tag's side then propose
//! squares (`sides.rs`), which are fitted to the tag's edges, three of them when a rank
//! of hats hides the fourth (`edges.rs`), before they are read. A square proposed from
//! one side is only measured once its corners are fitted: until then its turn may be
//! several degrees off.
//!
//! A tag whose id reads cleanly from a square whose edges cannot be fitted (ranks of
//! coats and hats along two or three of them) is measured by its code once every square
//! has been read ([`crate::decode::fit_code`]: the square its known pattern of cells
//! fits best, what the figures cover left out). A square that reads as no tag at all
//! (figures over its border cells, or a square a pixel or two off) is, once every size
//! is searched, screened against the codes of the roster's ids that nothing read and
//! measured by the one it matches best, under the same guards (`measure_unread`).
//!
//! A candidate that is clearly a tag (four straight edges of the right size, a dark
//! border, a code of dark and light cells) but cannot be read is returned as
//! undecoded, with its place, so that the scan reports it instead of dropping it.

use crate::decode::{Codebook, Reading, mean_side, quad_centre, read_quad};
use crate::error::VisionError;
use crate::fiducials::{DetectedMarker, GrayView};
use crate::photo::Photo;
use crate::pose::CameraFit;
use crate::profile::Profile;
use crate::roster::Roster;
use opencv::core::{Mat, Point, Vector};
use vedette_geometry::Vec2;

mod edges;
mod sides;

use edges::fit_to_edges;

/// What the search found.
#[derive(Debug, Clone, Default)]
pub(crate) struct ClutterFinds {
    /// Tags read, with their corners in the photo (OpenCV order).
    pub tags: Vec<DetectedMarker>,
    /// Squares that are clearly tags but could not be read: corners in the photo.
    pub undecoded: Vec<[[f64; 2]; 4]>,
    /// Squares proposed whose reading failed (no tag read there, or a code that is not
    /// trusted or not allowed): corners in the photo, for [`measure_unread`].
    pub unread: Vec<[[f64; 2]; 4]>,
}

/// What the search needs to know about the tags.
pub(crate) struct TagShape<'a> {
    /// Side of a tag's black square, mm.
    pub size_mm: f64,
    /// Height of the base tops, mm.
    pub top_height_mm: f64,
    /// Tells whether a tag id may be on the table (the roster, fiducial ids).
    pub allowed: &'a dyn Fn(u32) -> bool,
    /// The photo is sRGB-encoded: edges are placed in light ([`crate::Tone`]).
    pub srgb: bool,
}

/// Smallest share of a square's outline (four edges, in 0.5 mm steps) the contour
/// must cover to be read.
const MIN_SUPPORT: f64 = 0.3;
/// Share of each edge a square must cover to count as clearly a tag when unread.
const CLEAR_EDGE_SUPPORT: f64 = 0.6;

/// What the search finds: the tags read among figures, and the places of squares that
/// are clearly tags but could not be read (on the base-top plane, mm).
pub(crate) type Found = Result<(Vec<DetectedMarker>, Vec<Vec2>), VisionError>;

/// The search of a scan: tags of the profile's dictionary and size on its base tops,
/// ids the roster lists (any id without a roster), never a fiducial's id when the
/// dictionaries share codes. `seen` are the tags the detector found; the undecoded
/// squares come back with their centres on the base-top plane, mm.
///
/// The search keeps the second of the machine's cores busy (issue 36): a second thread
/// finds the outlines of every size after the first while the first size's are read,
/// then runs `beside` (the scan's own work that needs nothing the search finds), whose
/// result comes back with the search's. `early` are contours found before
/// ([`Contours`]). Each size is read in turn as before, with the
/// tags the sizes before it found: the result does not depend on the threads' timing.
#[allow(clippy::too_many_arguments)]
pub(crate) fn search<R: Send>(
    photo: &Photo,
    profile: &Profile,
    roster: Option<&Roster>,
    fit: &CameraFit,
    seen: &[DetectedMarker],
    fiducials: &[DetectedMarker],
    tone: crate::tone::Tone,
    early: &[Contours],
    beside: impl FnOnce() -> R + Send,
) -> (Found, R) {
    let sizes = tag_sizes(profile, roster);
    let (top_mm, srgb) = (profile.bases.top_height_mm, tone == crate::tone::Tone::Srgb);
    let outlines = |size_mm: f64| Outlines::find(&photo.gray, fit, size_mm, top_mm, srgb, early);
    std::thread::scope(|s| {
        let (send, receive) = std::sync::mpsc::channel();
        let later = sizes.get(1..).unwrap_or_default();
        let helper = s.spawn(move || {
            for &size_mm in later {
                if send.send(outlines(size_mm)).is_err() {
                    break;
                }
            }
            drop(send);
            beside()
        });
        // The first size's outlines here, every later size's from the helper, in order;
        // none when the helper stopped (its panic is raised below).
        let mut first = sizes.first().map(|&size_mm| outlines(size_mm));
        let next = move || first.take().or_else(|| receive.recv().ok());
        let found = search_sizes(photo, profile, roster, fit, seen, fiducials, tone, &sizes, next);
        match helper.join() {
            Ok(beside) => (found, beside),
            Err(panic) => std::panic::resume_unwind(panic),
        }
    })
}

/// [`search`] with each size's outlines (of `sizes`, in order) taken from `next`.
#[allow(clippy::too_many_arguments)]
fn search_sizes(
    photo: &Photo,
    profile: &Profile,
    roster: Option<&Roster>,
    fit: &CameraFit,
    seen: &[DetectedMarker],
    fiducials: &[DetectedMarker],
    tone: crate::tone::Tone,
    sizes: &[f64],
    mut next: impl FnMut() -> Option<Result<Option<Outlines>, VisionError>>,
) -> Found {
    let book = crate::decode::codebook(profile.tags.dictionary)?;
    let shared = profile.tags.dictionary.shares_codes_with(profile.fiducials.dictionary);
    let default_mm = profile.tags.size_mm;
    let size_of = |id: u32| roster.map_or(default_mm, |r| r.tag_size_mm(id, default_mm));
    // One search per printed size the roster uses (issue 36), each for the ids of that
    // size: the search fits squares of a known side.
    let mut known: Vec<DetectedMarker> = seen.iter().chain(fiducials).copied().collect();
    let (mut tags, mut undecoded_px) = (Vec::new(), Vec::new());
    let allowed_at = |size_mm: f64| {
        move |id: u32| {
            !(shared && profile.fiducial(id).is_some())
                && roster.is_none_or(|r| r.lookup(id).is_some())
                && size_of(id) == size_mm
        }
    };
    let mut unread = Vec::new();
    // The photo's edge directions, the same for every size searched.
    let gradient = Gradient::of(&photo.gray)?;
    for &size_mm in sizes {
        // The helper stopped (it panicked): nothing more to read.
        let Some(outlines) = next() else { break };
        let allowed = allowed_at(size_mm);
        let shape = TagShape {
            size_mm,
            top_height_mm: profile.bases.top_height_mm,
            allowed: &allowed,
            srgb: tone == crate::tone::Tone::Srgb,
        };
        let finds = match outlines? {
            Some(outlines) => {
                find_tags_in_clutter(&photo.gray, &gradient, fit, &book, &shape, &known, outlines)?
            }
            None => ClutterFinds::default(),
        };
        known.extend(finds.tags.iter().copied());
        tags.extend(finds.tags);
        unread.push((size_mm, finds.unread));
        // An unread square of another size's search may be this one's tag: kept only
        // where no tag was read.
        undecoded_px.extend(finds.undecoded);
    }
    // The squares no code was read from, measured by the codes of the roster's ids no
    // square read, once every size is searched (a square of one size may stand on a
    // tag of another, read later).
    if roster.is_some() {
        let view = GrayView::new(&photo.gray)?.with_srgb(tone == crate::tone::Tone::Srgb);
        for (size_mm, squares) in unread {
            let allowed = allowed_at(size_mm);
            let open: Vec<u32> =
                (0..book.len()).filter(|id| allowed(*id) && !known.iter().any(|m| m.id == *id)).collect();
            let found = measure_unread(&view, &book, &squares, &open, &known);
            known.extend(found.iter().copied());
            tags.extend(found);
        }
    }
    undecoded_px.retain(|q| {
        let c = quad_centre(q);
        !tags.iter().any(|t| {
            let d = t.centre();
            (d[0] - c[0]).hypot(d[1] - c[1]) < t.side_px()
        })
    });
    // One square found by the searches of two sizes is one undecoded tag.
    let mut centres: Vec<[f64; 2]> = Vec::new();
    for q in &undecoded_px {
        let (c, side) = (quad_centre(q), (q[1][0] - q[0][0]).hypot(q[1][1] - q[0][1]));
        if !centres.iter().any(|d| (d[0] - c[0]).hypot(d[1] - c[1]) < 0.5 * side) {
            centres.push(c);
        }
    }
    let undecoded = fit.model.image_to_table(&centres, profile.bases.top_height_mm)?;
    Ok((tags, undecoded))
}

/// The outlines one size's search reads, found from the photo and the camera alone
/// (not the tags already known): the pixel work of the search, which
/// [`search`] does for a second size on a second thread while the first is read.
pub(crate) struct Outlines {
    /// Dark outlines of about a tag's size up to a few times it, px, each with the
    /// centre of its box.
    candidates: Vec<(Vec<[f64; 2]>, [f64; 2])>,
    /// Squares standing on the straight sides of outlines too long or too crowded to be
    /// searched whole (`sides.rs`), table mm.
    on_sides: Vec<[Vec2; 4]>,
}

/// The dark outlines of a photo at one threshold box: the contours of both of
/// [`darker_than_mean`]'s images. A scan finds them for each tag size before the
/// camera is self-calibrated, beside the tag detector, and the search takes them when
/// its box is still the same (`Outlines::find`).
pub(crate) struct Contours {
    /// The threshold's box, px (odd).
    block: i32,
    /// The contours of the two images, in order.
    lists: [Vector<Vector<Point>>; 2],
}

impl Contours {
    /// The contours of `gray` thresholded over boxes of `block` px.
    pub(crate) fn of(gray: &Mat, block: i32) -> Result<Contours, VisionError> {
        let mut lists = [Vector::new(), Vector::new()];
        for (binary, contours) in darker_than_mean(gray, block, [5, 18])?.iter().zip(&mut lists) {
            opencv::imgproc::find_contours(
                binary,
                contours,
                opencv::imgproc::RETR_LIST,
                opencv::imgproc::CHAIN_APPROX_NONE,
                Point::new(0, 0),
            )?;
        }
        Ok(Contours { block, lists })
    }
}

/// The threshold boxes of the searches of every tag size (see [`search`]) with the
/// camera `fit`, px.
pub(crate) fn threshold_boxes(fit: &CameraFit, profile: &Profile, roster: Option<&Roster>) -> Vec<i32> {
    tag_sizes(profile, roster)
        .into_iter()
        .filter_map(|size_mm| side_range(fit, size_mm, profile.bases.top_height_mm).map(threshold_box))
        .collect()
}

/// The printed tag sizes the search looks for, mm: one search per size the roster
/// uses (issue 36), each for the ids of that size.
fn tag_sizes(profile: &Profile, roster: Option<&Roster>) -> Vec<f64> {
    roster.map_or_else(|| vec![profile.tags.size_mm], |r| r.tag_sizes_mm(profile.tags.size_mm))
}

/// The least and the most a tag of `size_mm` on the plane `top_height_mm` above the
/// table measures across the photo, px; `None` when the camera sees none.
fn side_range(fit: &CameraFit, size_mm: f64, top_height_mm: f64) -> Option<(f64, f64)> {
    let (w, h) = fit.model.image_size();
    // Tag sides across the photo, px.
    let probe: Vec<[f64; 2]> = [0.1, 0.5, 0.9]
        .iter()
        .flat_map(|&fy| [0.1, 0.5, 0.9].map(|fx| [fx * f64::from(w), fy * f64::from(h)]))
        .collect();
    let mut sides = Vec::new();
    for p in &probe {
        let q = [*p, [p[0] + 10.0, p[1]]];
        if let Ok(t) = fit.model.image_to_table(&q, top_height_mm)
            && let [a, b] = t[..]
        {
            let mm_per_px = a.distance(b) / 10.0;
            if mm_per_px > 0.0 {
                sides.push(size_mm / mm_per_px);
            }
        }
    }
    if sides.is_empty() {
        return None;
    }
    let min_side = sides.iter().copied().fold(f64::INFINITY, f64::min);
    let max_side = sides.iter().copied().fold(0.0, f64::max);
    Some((min_side, max_side))
}

/// The box the outlines' threshold averages over, px (odd, at least 3): three
/// quarters of the tags' least and most sides together.
fn threshold_box((min_side, max_side): (f64, f64)) -> i32 {
    ((((max_side + min_side) * 0.75) as i32) | 1).max(3)
}

impl Outlines {
    /// The outlines of `gray` for tags of `size_mm` on the plane `top_height_mm` above
    /// the table (`srgb`: the photo's edges are placed in light); `None` when the camera
    /// sees no tag's side anywhere.
    /// `early` are contours found before (at any boxes, [`Contours::of`]): those at
    /// this size's box are taken instead of being found again.
    pub(crate) fn find(
        gray: &Mat,
        fit: &CameraFit,
        size_mm: f64,
        top_height_mm: f64,
        srgb: bool,
        early: &[Contours],
    ) -> Result<Option<Outlines>, VisionError> {
        let view = GrayView::new(gray)?.with_srgb(srgb);
        let Some((min_side, max_side)) = side_range(fit, size_mm, top_height_mm) else {
            return Ok(None);
        };
        let block = threshold_box((min_side, max_side));
        let found;
        let lists = match early.iter().find(|c| c.block == block) {
            Some(c) => &c.lists,
            None => {
                found = Contours::of(gray, block)?;
                &found.lists
            }
        };
        let mut candidates = Vec::new();
        // Outlines of any length long enough for a side of a tag: their straight
        // stretches propose squares (see `sides.rs`).
        let mut outlines: Vec<Vector<Point>> = Vec::new();
        for contours in lists {
            for c in contours.iter() {
                if (c.len() as f64) >= 2.0 * min_side {
                    outlines.push(c.clone());
                }
                if (c.len() as f64) < 2.0 * min_side || (c.len() as f64) > 40.0 * max_side {
                    continue;
                }
                let (mut lo, mut hi) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
                let pts: Vec<[f64; 2]> = c.iter().map(|p| [f64::from(p.x), f64::from(p.y)]).collect();
                for p in &pts {
                    lo = [lo[0].min(p[0]), lo[1].min(p[1])];
                    hi = [hi[0].max(p[0]), hi[1].max(p[1])];
                }
                let extent = (hi[0] - lo[0]).max(hi[1] - lo[1]);
                if extent < 0.7 * min_side || extent > 12.0 * max_side {
                    continue;
                }
                candidates.push((pts, [(lo[0] + hi[0]) / 2.0, (lo[1] + hi[1]) / 2.0]));
            }
        }
        let on_sides =
            sides::squares_on_sides(&view, &outlines, fit, size_mm, top_height_mm, (min_side, max_side))?;
        Ok(Some(Outlines { candidates, on_sides }))
    }
}

/// Searches `gray` (its edges' `gradient`) for tags the detector missed among the
/// `outlines` found for their size ([`Outlines::find`]). `known` are the markers
/// already found (tags and fiducials): outlines on them are skipped.
pub(crate) fn find_tags_in_clutter(
    gray: &Mat,
    gradient: &Gradient<'_>,
    fit: &CameraFit,
    book: &Codebook,
    shape: &TagShape<'_>,
    known: &[DetectedMarker],
    outlines: Outlines,
) -> Result<ClutterFinds, VisionError> {
    let view = GrayView::new(gray)?.with_srgb(shape.srgb);
    let Outlines { candidates, on_sides } = outlines;
    let contours_px: Vec<Vec<[f64; 2]>> = candidates
        .into_iter()
        .filter(|(_, centre)| !known.iter().any(|m| near_quad(&m.corners, *centre, 0.3)))
        .map(|(pts, _)| pts)
        .collect();
    // Every outline onto the plane of the base tops at once, with the local scale of
    // the photo there (to turn the image's edge directions into the table's).
    let all: Vec<[f64; 2]> = contours_px.iter().flatten().copied().collect();
    let all_mm = fit.model.image_to_table(&all, shape.top_height_mm)?;
    let probes: Vec<[f64; 2]> = contours_px
        .iter()
        .flat_map(|c| {
            let m = c.iter().fold([0.0, 0.0], |a, p| [a[0] + p[0], a[1] + p[1]]);
            let m = [m[0] / c.len() as f64, m[1] / c.len() as f64];
            [m, [m[0] + 1.0, m[1]], [m[0], m[1] + 1.0]]
        })
        .collect();
    let probes_mm = fit.model.image_to_table(&probes, shape.top_height_mm)?;
    let mut squares: Vec<OutlineSquare> = Vec::new();
    let mut offset = 0;
    for (k, c) in contours_px.iter().enumerate() {
        let mm = &all_mm[offset..offset + c.len()];
        offset += c.len();
        let [o, ex, ey] = [probes_mm[3 * k], probes_mm[3 * k + 1], probes_mm[3 * k + 2]];
        let (jx, jy) = (ex - o, ey - o);
        // Edge directions on the table, from the image gradient (modulo a half turn).
        let dirs: Vec<Option<f64>> = c
            .iter()
            .map(|p| {
                let g = gradient.at(p[0] as i32, p[1] as i32)?;
                let t = jx * -g.y + jy * g.x;
                (t.length() > 0.0).then(|| t.y.atan2(t.x).to_degrees().rem_euclid(180.0))
            })
            .collect();
        squares.extend(squares_on_outline(mm, &dirs, shape.size_mm));
    }
    // The best supported square of each place.
    squares.sort_by(|a, b| b.support.total_cmp(&a.support));
    let mut kept: Vec<[Vec2; 4]> = Vec::new();
    for sq in squares {
        if !kept.iter().any(|s| centre_of(s).distance(centre_of(&sq.corners)) < 0.3 * shape.size_mm) {
            kept.push(sq.corners);
        }
    }
    let from_outlines = kept.len();
    // Squares standing on the straight sides of outlines too long or too crowded to
    // be searched whole, where no square of the outlines was found.
    let known_mm = {
        let centres: Vec<[f64; 2]> = known.iter().map(|m| m.centre()).collect();
        fit.model.image_to_table(&centres, shape.top_height_mm)?
    };
    for sq in on_sides {
        let c = centre_of(&sq);
        if !known_mm.iter().any(|k| k.distance(c) < 0.6 * shape.size_mm) {
            kept.push(sq);
        }
    }
    let squares = kept;
    let mut finds = ClutterFinds::default();
    let known_ids: std::collections::BTreeSet<u32> = known.iter().map(|m| m.id).collect();
    // Each id's best reading: corners fitted to the tag's edges first (a square
    // proposed from one side may be turned a few degrees until fitted), then the
    // fewest bits corrected.
    let mut best: std::collections::BTreeMap<u32, (ReadRank, [[f64; 2]; 4])> = Default::default();
    let mut fitted: Vec<[[f64; 2]; 4]> = Vec::new();
    let flat: Vec<Vec2> = squares.iter().flatten().copied().collect();
    let px = fit.model.project(&flat, shape.top_height_mm)?;
    // The ids read cleanly from a square whose corners are not measured, with that square.
    let mut pending: std::collections::BTreeMap<u32, [[f64; 2]; 4]> = Default::default();
    for (k, q) in px.chunks_exact(4).enumerate() {
        let quad = [q[0], q[1], q[2], q[3]];
        let c = quad_centre(&quad);
        if known.iter().any(|m| near_quad(&m.corners, c, 0.2)) || fitted.iter().any(|f| near_quad(f, c, 0.1))
        {
            continue;
        }
        // Fitted to its edges first; as proposed when the fit ran onto a figure's edge.
        let fitted_quad = fit_to_edges(&view, &quad, book.bits() as i32);
        // A fit that settled further than half a cell from its square (it may have run
        // onto the edge of a figure or another tag) is taken only for a clean reading:
        // no bit corrected, no light border cell.
        let fitted_read = fitted_quad.map(|(f, far)| (f, far, read_quad(&view, book, &f)));
        let (quad, rd, on_edges) = match fitted_read {
            Some((f, false, r @ Reading::Read { .. }))
            | Some((f, true, r @ Reading::Read { errors: 0, border_light: 0, .. })) => (f, r, true),
            _ => (quad, read_quad(&view, book, &quad), false),
        };
        // An id read without a bit corrected, from the square as proposed or where its
        // edges settled far, whose corners are not measured: fitted to its code.
        let hint = match (&rd, fitted_read) {
            _ if on_edges => None,
            (Reading::Read { id, errors: 0, .. }, _) => Some(*id),
            (_, Some((_, true, Reading::Read { id, errors: 0, .. }))) => Some(id),
            _ => None,
        };
        if let Some(id) = hint
            && (shape.allowed)(id)
            && !known_ids.contains(&id)
        {
            pending.entry(id).or_insert(quad);
        }
        match rd {
            Reading::Read { id, corners, errors, border_light, refined } => {
                let refined = refined || on_edges;
                // A square fitted to a whole outline stands where the tag is; one
                // proposed from a side needs its corners fitted to the tag's edges.
                let measured = refined || k < from_outlines;
                let trusted = errors == 0 || border_light == 0;
                if trusted && (shape.allowed)(id) && !known_ids.contains(&id) {
                    let rank = (!measured, !refined, errors);
                    if best.get(&id).is_none_or(|b| b.0 > rank) {
                        best.insert(id, (rank, corners));
                    }
                    if refined {
                        fitted.push(corners);
                    }
                } else if !known_ids.contains(&id) {
                    finds.undecoded.push(quad);
                    finds.unread.push(quad);
                }
            }
            Reading::Unreadable => {
                finds.undecoded.push(quad);
                finds.unread.push(quad);
            }
            Reading::NotATag => finds.unread.push(quad),
        }
    }
    // An id read cleanly whose corners no square measured: fitted to its code, once,
    // from its first such square; with how well its code fits.
    let mut code_fitted: std::collections::BTreeMap<u32, f64> = Default::default();
    for (id, quad) in pending {
        if best.get(&id).is_some_and(|((unmeasured, _, _), _)| !unmeasured) {
            continue;
        }
        if let Some((Reading::Read { corners, .. }, correlation)) =
            crate::decode::fit_code(&view, book, &quad, id)
        {
            code_fitted.insert(id, correlation);
            best.insert(id, ((false, false, 0), corners));
        }
    }
    // Two ids measured on one place are one tag read two ways: one measured by its
    // code gives way to one read from its edges, else to one its code fits better.
    let measured: Vec<(u32, [[f64; 2]; 4])> = best
        .iter()
        .filter(|(_, ((unmeasured, _, _), _))| !unmeasured)
        .map(|(id, (_, c))| (*id, *c))
        .collect();
    let gives_way = |id: u32, corners: &[[f64; 2]; 4]| {
        let Some(mine) = code_fitted.get(&id) else { return false };
        measured.iter().any(|(other, c)| {
            *other != id
                && near_quad(c, quad_centre(corners), 0.0)
                && code_fitted.get(other).is_none_or(|theirs| theirs > mine)
        })
    };
    // A tag read from a side's square whose edges could not be fitted is clearly a tag,
    // but its corners are the proposal's, a degree or several off: reported with its
    // place, not measured.
    for (id, ((unmeasured, _, _), corners)) in best {
        if gives_way(id, &corners) {
            continue;
        }
        if !unmeasured {
            finds.tags.push(DetectedMarker { id, corners });
        } else {
            finds.undecoded.push(corners);
        }
    }
    // An unread square where a tag was read (a second outline of it) is no news.
    let centres: Vec<[f64; 2]> = finds.undecoded.iter().map(quad_centre).collect();
    let mut kept: Vec<[[f64; 2]; 4]> = Vec::new();
    for (q, c) in finds.undecoded.iter().zip(&centres) {
        let on_read = finds.tags.iter().any(|m| near_quad(&m.corners, *c, 0.3));
        if !on_read && !kept.iter().any(|k| near_quad(k, *c, 0.3)) && clearly_square(&view, q) {
            kept.push(*q);
        }
    }
    finds.undecoded = kept;
    Ok(finds)
}

/// The tags standing on squares proposed whose reading failed (`unread`, px): each
/// square screened against the codes of `open` (the roster's ids of the search's size
/// that no square read), and fitted to the code it screens best with when that reaches
/// [`crate::decode::MIN_CODE_SCREEN`] (issue 36). A tag whose border cells figures
/// cover reads as no tag; so does one whose square was proposed a pixel or two off.
/// Taken under the guards of [`crate::decode::fit_code`] (the pattern correlates at
/// least [`crate::decode::MIN_CODE_CORRELATION`], none of the three nearest codes
/// fits better there, the square reads as that id again without a bit corrected), away
/// from every tag already found (`known`, within the larger one's side), each id once
/// and each place once, the best screened first.
fn measure_unread(
    view: &GrayView<'_>,
    book: &Codebook,
    unread: &[[[f64; 2]; 4]],
    open: &[u32],
    known: &[DetectedMarker],
) -> Vec<DetectedMarker> {
    if open.is_empty() {
        return Vec::new();
    }
    let mut places: Vec<[f64; 2]> = Vec::new();
    let mut screened: Vec<(crate::decode::Screened, [[f64; 2]; 4])> = Vec::new();
    for q in unread {
        let c = quad_centre(q);
        // One square a place (a tag's outline proposes several), none on a tag found.
        if places.iter().any(|p| dist(*p, c) < 0.1 * mean_side(q))
            || !clear_of(q, known.iter().map(|m| &m.corners))
        {
            continue;
        }
        places.push(c);
        if let Some(s) = crate::decode::screen_codes(view, book, q, open)
            && s.correlation >= crate::decode::MIN_CODE_SCREEN
        {
            screened.push((s, *q));
        }
    }
    // Best screened first; one fit an id a place (a tag's outline proposes squares a
    // pixel or two apart), none for an id or where a tag was fitted.
    screened.sort_by(|a, b| b.0.correlation.total_cmp(&a.0.correlation));
    let mut tried: Vec<(u32, [f64; 2])> = Vec::new();
    let mut fitted: Vec<(f64, DetectedMarker)> = Vec::new();
    for (s, q) in &screened {
        let (id, c) = (&s.id, quad_centre(q));
        if tried.iter().any(|(other, p)| other == id && dist(*p, c) < mean_side(q))
            || fitted.iter().any(|f| f.1.id == *id)
            || !clear_of(q, fitted.iter().map(|f| &f.1.corners))
        {
            continue;
        }
        tried.push((*id, c));
        if let Some((Reading::Read { corners, .. }, correlation)) =
            crate::decode::fit_screened(view, book, q, s)
        {
            fitted.push((correlation, DetectedMarker { id: *id, corners }));
        }
    }
    fitted
        .into_iter()
        .map(|(_, m)| m)
        .filter(|m| clear_of(&m.corners, known.iter().map(|t| &t.corners)))
        .collect()
}

fn dist(a: [f64; 2], b: [f64; 2]) -> f64 {
    (a[0] - b[0]).hypot(a[1] - b[1])
}

/// True when no quad of `tags` stands within the side of it or of `q` from `q`.
fn clear_of<'a>(q: &[[f64; 2]; 4], mut tags: impl Iterator<Item = &'a [[f64; 2]; 4]>) -> bool {
    let c = quad_centre(q);
    tags.all(|t| dist(quad_centre(t), c) >= mean_side(t).max(mean_side(q)))
}

/// How good a reading of a tag is, best least: (not measured, corners not fitted to the
/// edges, bits corrected).
type ReadRank = (bool, bool, u32);

/// The pixels of `gray` at least `c` grey levels darker than their mean over a square
/// of `block` px (odd), 255 (else 0), for each `c` of `cs`: OpenCV's
/// `adaptiveThreshold` (mean, inverted) with the mean computed once for both
/// (`tests::darker_than_mean_is_opencvs_adaptive_threshold`).
fn darker_than_mean(gray: &Mat, block: i32, cs: [i16; 2]) -> Result<[Mat; 2], VisionError> {
    use opencv::core::{MatTraitConst, MatTraitConstManual, MatTraitManual, Scalar, Size};
    let mut mean = Mat::default();
    opencv::imgproc::box_filter(
        gray,
        &mut mean,
        -1,
        Size::new(block, block),
        Point::new(-1, -1),
        true,
        opencv::core::BORDER_REPLICATE | opencv::core::BORDER_ISOLATED,
    )?;
    let (rows, cols) = (gray.rows(), gray.cols());
    let mut out = [Mat::default(), Mat::default()];
    for (binary, c) in out.iter_mut().zip(cs) {
        *binary = Mat::new_rows_cols_with_default(rows, cols, opencv::core::CV_8UC1, Scalar::all(0.0))?;
        for r in 0..rows {
            let (src, m) = (gray.at_row::<u8>(r)?, mean.at_row::<u8>(r)?);
            for ((d, s), m) in binary.at_row_mut::<u8>(r)?.iter_mut().zip(src).zip(m) {
                *d = if i16::from(*s) - i16::from(*m) <= -c { 255 } else { 0 };
            }
        }
    }
    Ok(out)
}

/// The image gradient (OpenCV's 3 x 3 Sobel, the photo's border reflected), for the
/// direction of edges: worked out at each outline point asked for, not over the whole
/// photo (two 12 MP float images, where the outlines touch a few percent of it). The
/// same values as OpenCV's `Sobel` to `CV_32F` (sums of a few bytes, exact in f32:
/// `tests::gradient_is_opencvs_sobel`).
pub(crate) struct Gradient<'a> {
    view: GrayView<'a>,
}

impl<'a> Gradient<'a> {
    /// Smallest gradient magnitude of an edge worth a direction (Sobel 3x3 units: a
    /// step of 15 grey levels).
    const MIN: f32 = 60.0;

    fn of(gray: &'a Mat) -> Result<Gradient<'a>, VisionError> {
        Ok(Gradient { view: GrayView::new(gray)? })
    }

    /// The gradient at pixel (x, y), if strong enough.
    fn at(&self, x: i32, y: i32) -> Option<Vec2> {
        let (w, h) = self.view.size();
        let (x, y) = (usize::try_from(x).ok()?, usize::try_from(y).ok()?);
        if x >= w || y >= h {
            return None;
        }
        // OpenCV's default border: reflected about the edge pixel (`BORDER_REFLECT_101`).
        let reflect = |i: usize, d: isize, n: usize| -> usize {
            match i.checked_add_signed(d) {
                None => (i + 1).min(n - 1),
                Some(j) if j >= n => i.saturating_sub(1),
                Some(j) => j,
            }
        };
        let (xs, ys) = ([-1, 0, 1].map(|d| reflect(x, d, w)), [-1, 0, 1].map(|d| reflect(y, d, h)));
        let at = |i: usize, j: usize| i32::from(self.view.byte(xs[i], ys[j]));
        let gx = (at(2, 0) - at(0, 0)) + 2 * (at(2, 1) - at(0, 1)) + (at(2, 2) - at(0, 2));
        let gy = (at(0, 2) - at(0, 0)) + 2 * (at(1, 2) - at(1, 0)) + (at(2, 2) - at(2, 0));
        let (gx, gy) = (gx as f32, gy as f32);
        (gx.hypot(gy) >= Gradient::MIN).then(|| Vec2::new(f64::from(gx), f64::from(gy)))
    }
}

/// A square found on an outline, table mm.
struct OutlineSquare {
    corners: [Vec2; 4],
    /// The share of its outline the contour covers.
    support: f64,
}

fn centre_of(q: &[Vec2; 4]) -> Vec2 {
    (q[0] + q[1] + q[2] + q[3]) / 4.0
}

/// True when `p` lies within the quad grown by `grow` of its size around its centre.
fn near_quad(q: &[[f64; 2]; 4], p: [f64; 2], grow: f64) -> bool {
    let c = quad_centre(q);
    let g: Vec<[f64; 2]> = q
        .iter()
        .map(|v| [c[0] + (v[0] - c[0]) * (1.0 + grow), c[1] + (v[1] - c[1]) * (1.0 + grow)])
        .collect();
    let side = |a: [f64; 2], b: [f64; 2]| (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]);
    let s: Vec<f64> = (0..4).map(|i| side(g[i], g[(i + 1) % 4])).collect();
    s.iter().all(|&v| v >= 0.0) || s.iter().all(|&v| v <= 0.0)
}

/// The squares of side `size` an outline (table mm, in order) supports: its straight
/// stretches vote for the turn, then for each axis the pair of lines `size` apart with
/// the most outline points on them.
fn squares_on_outline(pts: &[Vec2], dirs: &[Option<f64>], size: f64) -> Vec<OutlineSquare> {
    if pts.len() < 16 {
        return Vec::new();
    }
    // Directions of the outline, folded into a quarter turn.
    let mut hist = [0.0f64; 90];
    for a in dirs.iter().flatten() {
        hist[(a.rem_euclid(90.0) as usize).min(89)] += 1.0;
    }
    let smooth: Vec<f64> = (0..90)
        .map(|i| (-2i32..=2).map(|k| hist[(i + k).rem_euclid(90) as usize] * (3 - k.abs()) as f64).sum())
        .collect();
    let mut peaks: Vec<usize> = (0..90).collect();
    peaks.sort_by(|&a, &b| smooth[b].total_cmp(&smooth[a]));
    let mut turns: Vec<f64> = Vec::new();
    for &p in &peaks {
        if turns.len() == 2 || smooth[p] < 0.5 * smooth[peaks[0]] {
            break;
        }
        let a = p as f64 + 0.5;
        if turns.iter().all(|t| angle_gap(*t, a) > 10.0) {
            turns.push(a);
        }
    }
    let mut out = Vec::new();
    for turn in turns {
        // The turn, refined as the mean direction of the points that voted for it.
        let (mut s, mut c) = (0.0, 0.0);
        for a in dirs.iter().flatten() {
            if angle_gap(*a, turn) < 6.0 {
                let r = (a * 4.0).to_radians();
                s += r.sin();
                c += r.cos();
            }
        }
        let turn = s.atan2(c).to_degrees() / 4.0;
        if let Some(sq) = square_at_turn(pts, dirs, turn, size) {
            out.push(sq);
        }
    }
    out
}

/// Distance between two directions folded into a quarter turn, degrees.
fn angle_gap(a: f64, b: f64) -> f64 {
    let d = (a - b).rem_euclid(90.0);
    d.min(90.0 - d)
}

/// The best square of side `size` turned `turn` degrees on the outline.
fn square_at_turn(pts: &[Vec2], dirs: &[Option<f64>], turn: f64, size: f64) -> Option<OutlineSquare> {
    let u = Vec2::from_heading_deg(turn);
    let v = Vec2::new(-u.y, u.x);
    // Points along u-edges (constant v) and along v-edges (constant u).
    let mut along_u: Vec<(f64, f64)> = Vec::new();
    let mut along_v: Vec<(f64, f64)> = Vec::new();
    for (p, d) in pts.iter().zip(dirs) {
        let Some(a) = d else { continue };
        if angle_gap(*a, turn) > 12.0 {
            continue;
        }
        let a_rel = (a - turn).rem_euclid(180.0);
        let (pu, pv) = (p.dot(u), p.dot(v));
        // Folded directions near the turn are along u or along v: half-turn parity.
        let is_u = !(45.0..135.0).contains(&a_rel);
        if is_u {
            along_u.push((pv, pu));
        } else {
            along_v.push((pu, pv));
        }
    }
    if along_u.len() < 4 || along_v.len() < 4 {
        return None;
    }
    // The best few pairs of lines `size` apart across each axis (most points on them),
    // then the combination whose four edges the outline covers best.
    let pairs = |pts: &[(f64, f64)]| -> Vec<(f64, f64)> {
        let across: Vec<f64> = pts.iter().map(|(a, _)| *a).collect();
        // The points within 0.4 of `at`, counted on a sorted copy: `x - at` rounds
        // monotonically in `x`, so they are one run of it, found by two binary searches
        // (a scan of every point, twice for each of the 12 n pairs, was a tenth of the
        // scan).
        let mut sorted: Vec<f64> = across.iter().copied().filter(|x| !x.is_nan()).collect();
        sorted.sort_by(f64::total_cmp);
        let count = |at: f64| {
            let lo = sorted.partition_point(|x| *x - at < -0.4);
            let hi = sorted.partition_point(|x| *x - at <= 0.4);
            hi.saturating_sub(lo)
        };
        let mut scored: Vec<(f64, f64)> = Vec::with_capacity(12 * across.len());
        let mut order: Vec<(std::cmp::Reverse<usize>, usize)> = Vec::with_capacity(12 * across.len());
        for &a in &across {
            let on_a = count(a);
            // A strict threshold erodes a tag's outline by up to a pixel on each side.
            for k in 0..12 {
                let b = a + size - 1.8 + 0.2 * f64::from(k);
                order.push((std::cmp::Reverse(on_a + count(b)), scored.len()));
                scored.push((a, b));
            }
        }
        // The most points first; among equals, in the order proposed.
        order.sort_unstable();
        let mut best: Vec<(f64, f64)> = Vec::new();
        for (_, i) in order {
            if best.len() == 4 {
                break;
            }
            let (a, b) = scored[i];
            if best.iter().all(|(a2, b2)| (a - a2).abs() > 0.6 || (b - b2).abs() > 0.6) {
                best.push((a, b));
            }
        }
        best
    };
    // Support: the share of each edge's 0.5 mm steps with an outline point on it.
    let steps = (size / 0.5).round() as usize;
    let cover = |pts: &[(f64, f64)], at: f64, lo: f64| {
        let mut hit = vec![false; steps];
        for (across, along) in pts {
            if (across - at).abs() <= 0.5 {
                let k = ((along - lo) / 0.5).floor();
                if k >= 0.0 && (k as usize) < steps {
                    hit[k as usize] = true;
                }
            }
        }
        hit.iter().filter(|h| **h).count() as f64 / steps as f64
    };
    let mut best: Option<(f64, [f64; 4], f64, f64)> = None;
    for (v0, v1) in pairs(&along_u) {
        for (u0, u1) in pairs(&along_v) {
            let (cu, cv) = ((u0 + u1) / 2.0, (v0 + v1) / 2.0);
            let (lo_u, lo_v) = (cu - size / 2.0 + 0.25, cv - size / 2.0 + 0.25);
            let support = [
                cover(&along_u, v0, lo_u),
                cover(&along_u, v1, lo_u),
                cover(&along_v, u0, lo_v),
                cover(&along_v, u1, lo_v),
            ];
            let total = support.iter().sum::<f64>() / 4.0;
            if best.is_none_or(|b| total > b.0) {
                best = Some((total, support, cu, cv));
            }
        }
    }
    let (total, support, cu, cv) = best?;
    if total < MIN_SUPPORT || support.iter().filter(|s| **s >= 0.2).count() < 3 {
        return None;
    }
    let centre = u * cu + v * cv;
    let h = size / 2.0;
    let corners = [(-h, -h), (h, -h), (h, h), (-h, h)].map(|(a, b)| centre + u * a + v * b);
    Some(OutlineSquare { corners, support: total })
}

/// The share of each side of a quad in the photo (px) along which its inside is clearly
/// darker than its outside, just across the edge: a tag's black border against its
/// white paper.
pub(crate) fn edge_support(view: &GrayView<'_>, q: &[[f64; 2]; 4]) -> [f64; 4] {
    let c = quad_centre(q);
    let mut out = [0.0; 4];
    for (k, share) in out.iter_mut().enumerate() {
        let (a, b) = (q[k], q[(k + 1) % 4]);
        let mid_out = |t: f64, s: f64| {
            let p = [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t];
            let d = [p[0] - c[0], p[1] - c[1]];
            [p[0] + d[0] * s, p[1] + d[1] * s]
        };
        let mut steps = 0;
        let mut edges = 0;
        for i in 1..10 {
            let t = f64::from(i) / 10.0;
            let inside = mid_out(t, -0.1);
            let outside = mid_out(t, 0.12);
            if let (Some(vi), Some(vo)) =
                (view.sample(inside[0], inside[1]), view.sample(outside[0], outside[1]))
            {
                steps += 1;
                if vo - vi > 40.0 {
                    edges += 1;
                }
            }
        }
        if steps > 0 {
            *share = f64::from(edges) / f64::from(steps);
        }
    }
    out
}

/// True when a quad in the photo has straight dark-to-light edges along most of three
/// of its sides or more (a figure may stand against the fourth): the test an unread
/// candidate must pass to be reported as a tag.
fn clearly_square(view: &GrayView<'_>, q: &[[f64; 2]; 4]) -> bool {
    edge_support(view, q).iter().filter(|s| **s >= CLEAR_EDGE_SUPPORT).count() >= 3
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fiducials::{DetectorSettings, detect_markers};
    use crate::scan::scan;
    use crate::scan::test_scene::{camera, profile, render};
    use opencv::core::{MatTraitManual, Scalar};

    /// Table point (z = 0) to pixel through the test camera.
    fn to_px(k: &crate::camera::Intrinsics, r: &[[f64; 3]; 3], t: &[f64; 3], p: Vec2) -> Point {
        let c: Vec<f64> = (0..3).map(|i| r[i][0] * p.x + r[i][1] * p.y + t[i]).collect();
        Point::new((k.fx * c[0] / c[2] + k.cx).round() as i32, (k.fy * c[1] / c[2] + k.cy).round() as i32)
    }

    /// The next of a fixed sequence of pseudo-random numbers (xorshift64) from `seed`.
    fn xorshift(seed: &mut u64) -> u64 {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        *seed
    }

    /// The two binary images the search among figures takes its outlines from are
    /// OpenCV's adaptive thresholds, pixel for pixel, on a noisy photo-like image.
    #[test]
    fn darker_than_mean_is_opencvs_adaptive_threshold() {
        let (rows, cols) = (97, 131);
        let mut img =
            Mat::new_rows_cols_with_default(rows, cols, opencv::core::CV_8UC1, Scalar::all(0.0)).unwrap();
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for r in 0..rows {
            for (c, v) in img.at_row_mut::<u8>(r).unwrap().iter_mut().enumerate() {
                let noise = xorshift(&mut seed);
                // Squares of ink on paper under a gradient of light, with noise.
                let ink = (r as usize / 12 + c / 12).is_multiple_of(3);
                let level = if ink { 40 } else { 120 + (c as u64 * 100 / cols as u64) };
                *v = (level + noise % 30).min(255) as u8;
            }
        }
        for block in [3, 7, 31] {
            let ours = darker_than_mean(&img, block, [5, 18]).unwrap();
            for (binary, c) in ours.iter().zip([5.0, 18.0]) {
                let mut theirs = Mat::default();
                opencv::imgproc::adaptive_threshold(
                    &img,
                    &mut theirs,
                    255.0,
                    opencv::imgproc::ADAPTIVE_THRESH_MEAN_C,
                    opencv::imgproc::THRESH_BINARY_INV,
                    block,
                    c,
                )
                .unwrap();
                let mut diff = Mat::default();
                opencv::core::absdiff(binary, &theirs, &mut diff).unwrap();
                assert_eq!(opencv::core::count_non_zero(&diff).unwrap(), 0, "block {block}, c {c}");
                let dark = opencv::core::count_non_zero(binary).unwrap();
                assert!(dark > 0 && dark < rows * cols, "block {block}, c {c}: {dark} dark");
            }
        }
    }

    /// The edge directions of the search among figures are OpenCV's Sobel gradient,
    /// pixel for pixel, the border pixels included.
    #[test]
    fn gradient_is_opencvs_sobel() {
        use opencv::core::MatTraitConst;
        let (rows, cols) = (23, 37);
        let mut img =
            Mat::new_rows_cols_with_default(rows, cols, opencv::core::CV_8UC1, Scalar::all(0.0)).unwrap();
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for r in 0..rows {
            for (c, v) in img.at_row_mut::<u8>(r).unwrap().iter_mut().enumerate() {
                let noise = xorshift(&mut seed);
                // Ink and paper with noise: strong and weak edges.
                let ink = (r as usize / 5 + c / 7).is_multiple_of(2);
                *v = ((if ink { 30 } else { 200 }) + noise % 50) as u8;
            }
        }
        let (mut gx, mut gy) = (Mat::default(), Mat::default());
        opencv::imgproc::sobel_def(&img, &mut gx, opencv::core::CV_32F, 1, 0).unwrap();
        opencv::imgproc::sobel_def(&img, &mut gy, opencv::core::CV_32F, 0, 1).unwrap();
        let gradient = Gradient::of(&img).unwrap();
        let (mut strong, mut weak) = (0, 0);
        for y in 0..rows {
            for x in 0..cols {
                let (ex, ey) = (*gx.at_2d::<f32>(y, x).unwrap(), *gy.at_2d::<f32>(y, x).unwrap());
                let theirs = (ex.hypot(ey) >= Gradient::MIN).then(|| Vec2::new(f64::from(ex), f64::from(ey)));
                assert_eq!(gradient.at(x, y), theirs, "({x}, {y})");
                if theirs.is_some() { strong += 1 } else { weak += 1 }
            }
        }
        assert!(strong > 0 && weak > 0, "{strong} strong, {weak} weak");
        assert_eq!(gradient.at(-1, 0), None);
        assert_eq!(gradient.at(cols, 0), None);
    }

    /// Issue 18: a tag whose black border two dark figures touch (their hats over the
    /// quiet zone, merging with the border) is missed by the marker detector and read
    /// by the search among figures, at its place.
    #[test]
    fn a_tag_touched_by_dark_figures_is_read() {
        let p = profile();
        let (k, r, t) = camera(15.0);
        let tags = [(10, Vec2::new(150.0, 120.0), 90.0), (11, Vec2::new(300.0, 200.0), 30.0)];
        let photo = render(&p, &tags, &k, r, t);
        let mut color = photo.color.clone();
        // Two dark heads, 2.4 mm across... wide, standing against the right and top
        // edges of tag 10's black square (6 mm from its centre).
        let mm = to_px(&k, &r, &t, Vec2::new(151.0, 120.0)).x - to_px(&k, &r, &t, Vec2::new(150.0, 120.0)).x;
        for centre in [Vec2::new(158.3, 121.0), Vec2::new(147.0, 128.3)] {
            let c = to_px(&k, &r, &t, centre);
            opencv::imgproc::circle(
                &mut color,
                c,
                (2.4 * f64::from(mm)) as i32,
                Scalar::all(30.0),
                -1,
                opencv::imgproc::LINE_AA,
                0,
            )
            .unwrap();
        }
        let photo = Photo::from_color(color).unwrap();
        let side = 12.0 * f64::from(mm);
        let plain =
            detect_markers(&photo.gray, p.tags.dictionary, &DetectorSettings::for_marker_side(side, 4))
                .unwrap();
        assert!(plain.iter().all(|m| m.id != 10), "the detector reads it: the test shows nothing");
        let s = scan(&photo, &p, None, Some(&k)).unwrap();
        let base = s.table.bases().map(|(_, b)| *b).find(|b| b.meta().tag == Some(10));
        let base = base.unwrap_or_else(|| panic!("tag 10 not read: {:?}", s.report.issues));
        assert!(base.centre().distance(Vec2::new(150.0, 120.0)) < 0.5, "{:?}", base.centre());
        assert!((base.heading_deg() - 90.0).abs() < 1.0, "{}", base.heading_deg());
        assert_eq!(s.table.base_count(), 2);
    }

    /// A tag whose code a white coat hides (but whose border shows all round) cannot be
    /// read: it is reported with its place, and nothing goes into the table for it.
    #[test]
    fn an_unreadable_tag_is_reported_with_its_place() {
        let p = profile();
        let (k, r, t) = camera(10.0);
        let tags = [(10, Vec2::new(150.0, 120.0), 90.0), (11, Vec2::new(300.0, 200.0), 30.0)];
        let photo = render(&p, &tags, &k, r, t);
        let mut color = photo.color.clone();
        let mm = to_px(&k, &r, &t, Vec2::new(301.0, 200.0)).x - to_px(&k, &r, &t, Vec2::new(300.0, 200.0)).x;
        let c = to_px(&k, &r, &t, Vec2::new(300.0, 200.0));
        opencv::imgproc::circle(
            &mut color,
            c,
            (3.2 * f64::from(mm)) as i32,
            Scalar::all(235.0),
            -1,
            opencv::imgproc::LINE_AA,
            0,
        )
        .unwrap();
        let photo = Photo::from_color(color).unwrap();
        let s = scan(&photo, &p, None, Some(&k)).unwrap();
        assert_eq!(s.table.base_count(), 1, "{:?}", s.report.issues);
        let undecoded: Vec<[f64; 2]> = s
            .report
            .issues
            .iter()
            .filter_map(|i| match i {
                crate::scan::ScanIssue::UndecodedTag { at_mm } => Some(*at_mm),
                _ => None,
            })
            .collect();
        assert_eq!(undecoded.len(), 1, "{:?}", s.report.issues);
        assert!(
            Vec2::new(undecoded[0][0], undecoded[0][1]).distance(Vec2::new(300.0, 200.0)) < 1.0,
            "{undecoded:?}"
        );
    }

    /// Issue 36: a tag whose edges figures hide (white coats over a third of its
    /// bottom border, dark hats against two other edges), proposed from one side 2 px
    /// and 5° off, reads as no tag there, so no id is known to fit to it; measured by
    /// the code of the one open id it screens with, it stands within half a pixel of
    /// its corners. Never as an id it is not, nor where a tag already stands.
    #[test]
    fn a_square_read_as_no_tag_is_measured_by_an_open_ids_code() {
        use crate::decode::tests::occluded_tag;
        use crate::decode::{Codebook, off};
        let book = Codebook::new(crate::dictionary::Dictionary::DEFAULT_TAGS).unwrap();
        let (img, truth) = occluded_tag(175, true);
        let view = GrayView::new(&img).unwrap();
        let proposal = off(&truth, 1.6, -1.2, 5.0);
        let r = read_quad(&view, &book, &proposal);
        assert!(!matches!(r, Reading::Read { id: 175, errors: 0, .. }), "read as proposed: {r:?}");
        let found = measure_unread(&view, &book, &[proposal], &[3, 175, 219], &[]);
        let [tag] = found[..] else { panic!("{found:?}") };
        let worst = tag
            .corners
            .iter()
            .map(|p| truth.iter().map(|t| dist(*p, *t)).fold(f64::INFINITY, f64::min))
            .fold(0.0, f64::max);
        assert!(tag.id == 175 && worst < 0.5, "{tag:?} against {truth:?}");
        // Its code not among the ids no square read: nothing, never another id.
        assert!(measure_unread(&view, &book, &[proposal], &[3, 219], &[]).is_empty());
        // A tag already found there: nothing.
        let there = DetectedMarker { id: 3, corners: truth };
        assert!(measure_unread(&view, &book, &[proposal], &[3, 175, 219], &[there]).is_empty());
    }
}
