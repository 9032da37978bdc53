//! Which of a fitted formation's two long edges is its front, from what stands on its
//! bases (issue 37 item 4). The fitter finds a formation's outline and takes its front
//! from priors (toward the enemy); this module reads the photo inside each fitted
//! base, rectified onto the plane [`READ_ABOVE_TOPS_MM`] above the base tops at
//! [`PX_PER_MM`]: the pixels that differ from
//! the base's commonest colour (its flock) are what stands on it. A unit's bases face
//! alike, so the evidence is pooled over them.
//!
//! One cue is read, the one both renderers and real batteries share: a gun stands in
//! the middle of its base, its barrel and carriage narrow, and its crew stands in a
//! rank behind it across the base. So the figures wide of the base's middle line are
//! in its rear third, not its front third ([`spread`]). Measured on the bench (issue
//! 37, BENCHMARKS.md "Untagged bases"; 21 batteries placed on both renderers' photos):
//! where such figures cover at least [`MIN_WIDE_MM2`], 0.82-1.0 toward the true rear,
//! and at most 0.32 the other way (the second renderer's big wheels stand wide in the
//! front third); the call is made at [`MIN_SPREAD`].
//!
//! Other kinds stay with the priors (`assumed`): vedette-synth draws infantry as an
//! even grid over the whole base (its photo shows no front at all) and a rider 1.5 mm
//! behind his horse's middle, less than the figures' parallax on the tops' plane at
//! 10-25° of tilt (the rider stands twice as high as the horse's back); the second
//! renderer's riders sit at their horses' rear ends, and its infantry fill the base.
//! A cue that reads one renderer's figures would be a wrong `seen` facing on the
//! other's, the worst outcome: it hides the mistake from the player.

use super::shadow::darkened_mat;
use crate::error::VisionError;
use crate::photo_colour::{lab, paint_distance};
use crate::pose::CameraModel;
use crate::rectify::Rectified;
use opencv::core::{Mat, Vec3b};
use opencv::prelude::*;
use vedette_geometry::{Base, UnitKind, Vec2};

/// The photo is read on the base tops' plane at this resolution, px per mm (about the
/// 12 MP photo's own over a 6 x 4 foot table; the fitter's surface, at 1 px per mm,
/// leaves a crew figure a few pixels).
const PX_PER_MM: f64 = 2.0;
/// The photo is read on the plane this far above the base tops, mm: about the middle
/// of a figure's height, so that on a tilted camera's photo a figure's body is read
/// where it stands (on the tops' plane a crew behind its gun, on the far side from the
/// camera, leans past the base's rear edge and out of what is read).
const READ_ABOVE_TOPS_MM: f64 = 7.0;
/// Pixels this far inside a base's outline are read, mm: the edge's blur and the mat
/// beside it are left out.
const INSET_MM: f64 = 1.0;
/// A pixel shows a figure (or a gun) when its colour is at least this far from the
/// base's commonest colour, in [`paint_distance`] units (a flock's own texture stays
/// within about half of it), and it is not that colour darkened at its own hue (a
/// figure's shadow on the flock, [`darkened_mat`]).
const FIGURE_DISTANCE: f64 = 14.0;
/// A figure pixel is wide of the middle when it is further than this share of the
/// base's half width from its middle line.
const WIDE: f64 = 0.5;
/// The photo shows the front when the wide figures of the rear and front thirds differ
/// by at least this share of their sum ...
const MIN_SPREAD: f64 = 0.5;
/// ... and they cover at least this much of the unit's bases, mm² (a few crew figures).
const MIN_WIDE_MM2: f64 = 20.0;

/// What a base shows in its front and rear thirds (placed facing one way).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(crate) struct Thirds {
    /// Figure area wide of the middle line in the front third, mm².
    pub front_mm2: f64,
    /// The same in the rear third, mm².
    pub rear_mm2: f64,
}

/// What stands on `base` in the photo: it is rectified onto the plane
/// [`READ_ABOVE_TOPS_MM`] above the tops (`top_mm`) at [`PX_PER_MM`] and read ([`read`]), leaving out where `occupied` (on
/// `rect`, the fitter's surface) is set: tagged bases, the fiducials.
pub(crate) fn thirds(
    photo: &Mat,
    model: &CameraModel,
    top_mm: f64,
    (rect, occupied): (&Rectified, &Mat),
    base: &Base,
) -> Result<Thirds, VisionError> {
    let reach = base.width().hypot(base.depth()) / 2.0;
    let reach = Vec2::new(reach, reach);
    let box_mm = (base.centre() - reach, base.centre() + reach);
    let fine = Rectified::new(photo, model, top_mm + READ_ABOVE_TOPS_MM, box_mm, PX_PER_MM)?;
    let (cols, rows) = rect.size()?;
    let free = |p: Vec2| -> Result<bool, VisionError> {
        let q = rect.to_px(p).map(|v| v.round() as i32);
        let inside = q[0] >= 0 && q[1] >= 0 && q[0] < cols && q[1] < rows;
        Ok(!inside || *occupied.at_2d::<u8>(q[1], q[0])? == 0)
    };
    read(&fine, base, free)
}

/// The figures wide of `base`'s middle line in its front and rear thirds, in `fine`
/// (an image on the tops' plane), where `free` allows.
pub(crate) fn read(
    fine: &Rectified,
    base: &Base,
    mut free: impl FnMut(Vec2) -> Result<bool, VisionError>,
) -> Result<Thirds, VisionError> {
    let (forward, right, centre) = (base.forward(), base.right(), base.centre());
    let (hw, hd) = (base.width() / 2.0 - INSET_MM, base.depth() / 2.0 - INSET_MM);
    if hw <= 0.0 || hd <= 0.0 {
        return Ok(Thirds::default());
    }
    let (cols, rows) = fine.size()?;
    // (BGR, along the depth, wide of the middle) of every pixel read.
    let mut read: Vec<([u8; 3], f64, bool)> = Vec::new();
    for y in 0..rows {
        let row = fine.image.at_row::<Vec3b>(y)?;
        for (x, px) in row.iter().enumerate().take(cols as usize) {
            let p = fine.to_table([x as f64, f64::from(y)]);
            let (across, along) = ((p - centre).dot(right), (p - centre).dot(forward));
            if across.abs() > hw || along.abs() > hd || !free(p)? {
                continue;
            }
            read.push((px.0, along, across.abs() > WIDE * hw));
        }
    }
    let flock = median(&read);
    let flock_lab = lab_of(flock);
    let px_mm2 = 1.0 / (fine.px_per_mm * fine.px_per_mm);
    let mut t = Thirds::default();
    for &(bgr, along, wide) in &read {
        // The flock in a figure's shadow is not a figure.
        if !wide || darkened_mat(bgr, flock, 1.0) || paint_distance(lab_of(bgr), flock_lab) < FIGURE_DISTANCE
        {
            continue;
        }
        if along > hd / 3.0 {
            t.front_mm2 += px_mm2;
        } else if along < -hd / 3.0 {
            t.rear_mm2 += px_mm2;
        }
    }
    Ok(t)
}

/// Lab of a BGR pixel.
fn lab_of(bgr: [u8; 3]) -> [f64; 3] {
    lab([f64::from(bgr[2]), f64::from(bgr[1]), f64::from(bgr[0])])
}

/// Per-channel median of the pixels read (zero when none): the base's commonest
/// colour.
fn median(read: &[([u8; 3], f64, bool)]) -> [u8; 3] {
    std::array::from_fn(|k| {
        let mut v: Vec<u8> = read.iter().map(|r| r.0[k]).collect();
        if v.is_empty() {
            return 0;
        }
        let mid = v.len() / 2;
        *v.select_nth_unstable(mid).1
    })
}

/// How much more of a unit's wide figures stand in its bases' rear thirds than in their
/// front thirds, as a share of both (-1 to 1; the bases placed facing the prior's way).
/// `None` when they cover less than [`MIN_WIDE_MM2`].
pub(crate) fn spread(bases: &[Thirds]) -> Option<f64> {
    let (front, rear) = bases.iter().fold((0.0, 0.0), |(f, r), t| (f + t.front_mm2, r + t.rear_mm2));
    (front + rear >= MIN_WIDE_MM2).then(|| (rear - front) / (rear + front))
}

/// What the photo says of a unit's front, its bases placed facing the prior's way.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Verdict {
    /// The photo shows the prior's front.
    Confirmed,
    /// The photo shows the opposite edge as the front.
    Reversed,
    /// The photo does not tell (or no cue is read for the unit's kind).
    Unclear,
}

/// Whether the photo is read for a unit of `kind`'s front (batteries only).
pub(crate) fn has_cue(kind: UnitKind) -> bool {
    kind == UnitKind::Artillery
}

/// The verdict on a unit of `kind` whose bases (placed facing the prior's way) show
/// `bases`: a battery's crew behind its gun ([`MIN_SPREAD`]); every other kind, and
/// weak or contradicting evidence, unclear.
pub(crate) fn judge(kind: UnitKind, bases: &[Thirds]) -> Verdict {
    if !has_cue(kind) {
        return Verdict::Unclear;
    }
    match spread(bases) {
        Some(s) if s >= MIN_SPREAD => Verdict::Confirmed,
        Some(s) if s <= -MIN_SPREAD => Verdict::Reversed,
        _ => Verdict::Unclear,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use opencv::core::{CV_8UC3, Point, Scalar};
    use vedette_geometry::{BaseSize, Pose};

    const FLOCK: [f64; 3] = [70.0, 110.0, 140.0]; // BGR: a brown flock
    const MAT: [f64; 3] = [60.0, 120.0, 70.0];

    /// A 200 x 200 mm image at [`PX_PER_MM`], its origin at (100, 100) mm, showing the
    /// mat, `base` flocked, and `parts` (discs: base-local centre, radius mm, BGR)
    /// and `bars` (base-local rectangles: centre, half width across, half depth along,
    /// BGR) drawn on it.
    fn surface(
        base: &Base,
        discs: &[(Vec2, f64, [f64; 3])],
        bars: &[(Vec2, f64, f64, [f64; 3])],
    ) -> Rectified {
        let n = (200.0 * PX_PER_MM) as i32;
        let mut image =
            Mat::new_rows_cols_with_default(n, n, CV_8UC3, Scalar::new(MAT[0], MAT[1], MAT[2], 0.0)).unwrap();
        let origin = Vec2::new(100.0, 100.0);
        let rect =
            Rectified { image: Mat::default(), px_per_mm: PX_PER_MM, origin_mm: origin, height_mm: 3.0 };
        let px = |p: Vec2| {
            let q = rect.to_px(p);
            Point::new(q[0].round() as i32, q[1].round() as i32)
        };
        let poly = |image: &mut Mat, local: [Vec2; 4], colour: [f64; 3]| {
            let pts: opencv::core::Vector<Point> = local.iter().map(|&l| px(base.to_table(l))).collect();
            let c = Scalar::new(colour[0], colour[1], colour[2], 0.0);
            opencv::imgproc::fill_convex_poly_def(image, &pts, c).unwrap();
        };
        let rectangle = |c: Vec2, hw: f64, hd: f64| {
            [c + Vec2::new(-hw, -hd), c + Vec2::new(hw, -hd), c + Vec2::new(hw, hd), c + Vec2::new(-hw, hd)]
        };
        poly(&mut image, rectangle(Vec2::ZERO, base.width() / 2.0, base.depth() / 2.0), FLOCK);
        for &(c, hw, hd, colour) in bars {
            poly(&mut image, rectangle(c, hw, hd), colour);
        }
        for &(c, r, colour) in discs {
            let s = Scalar::new(colour[0], colour[1], colour[2], 0.0);
            let radius = (r * PX_PER_MM).round() as i32;
            opencv::imgproc::circle(
                &mut image,
                px(base.to_table(c)),
                radius,
                s,
                -1,
                opencv::imgproc::LINE_8,
                0,
            )
            .unwrap();
        }
        Rectified { image, ..rect }
    }

    const COAT: [f64; 3] = [120.0, 50.0, 30.0]; // BGR: a blue coat
    const BRONZE: [f64; 3] = [60.0, 140.0, 180.0];
    const WOOD: [f64; 3] = [30.0, 60.0, 100.0];

    /// A battery on a 25 x 40 mm base (local: +y its front): the gun's barrel and
    /// wheels forward in the middle, a rank of four crew across the rear, one at each
    /// side halfway.
    fn battery(base: &Base) -> Rectified {
        let crew: Vec<(Vec2, f64, [f64; 3])> = [-8.5, -3.0, 3.0, 8.5]
            .iter()
            .map(|&x| (Vec2::new(x, -15.0), 2.3, COAT))
            .chain([(Vec2::new(-9.0, 0.0), 2.3, COAT), (Vec2::new(9.0, 0.0), 2.3, COAT)])
            .collect();
        let gun = [
            (Vec2::new(0.0, 12.0), 1.3, 5.0, BRONZE),
            (Vec2::new(0.0, 9.0), 3.0, 2.5, WOOD),
            (Vec2::new(3.8, 9.0), 0.6, 3.5, WOOD),
            (Vec2::new(-3.8, 9.0), 0.6, 3.5, WOOD),
        ];
        surface(base, &crew, &gun)
    }

    fn verdict(kind: UnitKind, rect: &Rectified, placed: &Base) -> Verdict {
        judge(kind, &[read(rect, placed, |_| Ok(true)).unwrap()])
    }

    /// The battery is seen facing its gun's way, whichever way it stands on the table and
    /// wherever: placed facing that way, the photo confirms it; placed the other way
    /// round, it reverses it. A featureless base (flock only) and the same base with
    /// figures spread evenly tell nothing.
    #[test]
    fn a_battery_is_seen_facing_its_gun_and_a_featureless_base_stays_assumed() {
        let size = BaseSize::new(25.0, 40.0);
        for (centre, heading) in [
            (Vec2::new(200.0, 200.0), 90.0),
            (Vec2::new(183.7, 221.4), 203.0),
            (Vec2::new(214.2, 191.9), 331.5),
        ] {
            let base = Base::new(size, Pose::new(centre, heading));
            let turned = Base::new(size, Pose::new(centre, heading + 180.0));
            let rect = battery(&base);
            assert_eq!(verdict(UnitKind::Artillery, &rect, &base), Verdict::Confirmed, "{heading}");
            assert_eq!(verdict(UnitKind::Artillery, &rect, &turned), Verdict::Reversed, "{heading}");
            // The same photo under another kind: no cue read.
            assert_eq!(verdict(UnitKind::Cavalry, &rect, &turned), Verdict::Unclear, "{heading}");
            let bare = surface(&base, &[], &[]);
            assert_eq!(verdict(UnitKind::Artillery, &bare, &base), Verdict::Unclear, "{heading}");
            // Figures in even ranks over the whole base (vedette-synth's infantry).
            let grid: Vec<(Vec2, f64, [f64; 3])> = (0..4)
                .flat_map(|i| {
                    (0..7).map(move |j| {
                        (Vec2::new(-8.25 + 5.5 * f64::from(i), -16.5 + 5.5 * f64::from(j)), 2.2, COAT)
                    })
                })
                .collect();
            let even = surface(&base, &grid, &[]);
            assert_eq!(verdict(UnitKind::Artillery, &even, &base), Verdict::Unclear, "{heading}");
            assert_eq!(verdict(UnitKind::Artillery, &even, &turned), Verdict::Unclear, "{heading}");
        }
    }

    /// A rider on a horse (the horse's long axis along the base's depth, the rider a
    /// little behind its middle) and a rank of figures at the front of a base are not
    /// read: their kinds keep the prior's front, assumed.
    #[test]
    fn riders_and_ranks_stay_assumed() {
        let base = Base::new(BaseSize::new(40.0, 30.0), Pose::new(Vec2::new(200.0, 200.0), 75.0));
        let horses: Vec<(Vec2, f64, f64, [f64; 3])> =
            [-14.0, -7.0, 0.0, 7.0, 14.0].iter().map(|&x| (Vec2::new(x, 0.0), 2.4, 7.5, WOOD)).collect();
        let riders: Vec<(Vec2, f64, [f64; 3])> =
            [-14.0, -7.0, 0.0, 7.0, 14.0].iter().map(|&x| (Vec2::new(x, -1.5), 2.0, COAT)).collect();
        let cavalry = surface(&base, &riders, &horses);
        assert_eq!(verdict(UnitKind::Cavalry, &cavalry, &base), Verdict::Unclear);
        let rank: Vec<(Vec2, f64, [f64; 3])> =
            (0..7).map(|i| (Vec2::new(-16.5 + 5.5 * f64::from(i), 10.0), 2.2, COAT)).collect();
        let infantry = surface(&base, &rank, &[]);
        assert_eq!(verdict(UnitKind::Infantry, &infantry, &base), Verdict::Unclear);
    }

    /// The evidence is pooled over a unit's bases and must cover enough of them: one
    /// crew figure is not a rank.
    #[test]
    fn too_little_evidence_is_unclear() {
        assert_eq!(spread(&[Thirds { front_mm2: 0.0, rear_mm2: 10.0 }]), None);
        let pooled = [Thirds { front_mm2: 1.0, rear_mm2: 10.0 }, Thirds { front_mm2: 0.0, rear_mm2: 12.0 }];
        assert_eq!(judge(UnitKind::Artillery, &pooled), Verdict::Confirmed);
        let mixed = [Thirds { front_mm2: 12.0, rear_mm2: 10.0 }, Thirds { front_mm2: 0.0, rear_mm2: 12.0 }];
        assert_eq!(judge(UnitKind::Artillery, &mixed), Verdict::Unclear);
    }
}
