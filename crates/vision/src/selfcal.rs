//! Self-calibration from the table itself (issue 17): the camera (focal length, radial
//! distortion k1 and k2, tangential p1 and p2, pose) adjusted together with every base tag's planar pose by a
//! robust Levenberg-Marquardt least-squares fit over all the corners in the photo.
//!
//! The table fiducials are squares at known table positions; every base tag is a
//! square of known side lying on the plane of the base tops, at an unknown position and
//! heading (three parameters of its own). A homography of four corner fiducials cannot
//! bend, but the tags spread over the whole photo show how the lens bends it.
//!
//! The normal equations are sparse: each tag's three parameters meet only the camera's,
//! so the tags are eliminated block by block (Schur complement) and every iteration
//! costs a 9x9 solve plus one 3x3 inverse per tag. The loss is Huber's: a mis-detected
//! tag or a moved fiducial weighs linearly, not quadratically, and cannot drag the
//! camera. Jacobians are central differences (exact to rounding for these smooth
//! functions at the chosen steps).

use crate::profile::square_corners;
use nalgebra::{Matrix3, Rotation3, SMatrix, SVector, Vector3};
use vedette_geometry::Vec2;

/// Shared parameters adjusted: rotation increment (3), translation (3), focal length,
/// k1, k2, the photo's tag scale, tangential distortion p1, p2, the tag corners' bias
/// and its growth toward the photo's edges, and the fiducials' corner bias.
const NC: usize = 15;
type CamVec = SVector<f64, NC>;
type CamMat = SMatrix<f64, NC, NC>;
type CrossMat = SMatrix<f64, NC, 3>;

/// Pinhole intrinsics with OpenCV's `k1 k2 p1 p2 k3` distortion.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Lens {
    /// Focal length along x, px.
    pub fx: f64,
    /// Focal length along y, px.
    pub fy: f64,
    /// Principal point, px.
    pub cx: f64,
    /// Principal point, px.
    pub cy: f64,
    /// `k1 k2 p1 p2 k3`.
    pub dist: [f64; 5],
}

/// A camera: lens and pose (table frame to camera frame, `x_cam = r x + t`), and the
/// scale of the photo's tags.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Camera {
    /// The tags' side over the profile's, shared by every tag of the photo: a printer's
    /// scaling, and the detector's corner bias (blur moves every tag corner outward or
    /// inward by a fraction of a pixel). Without it, the many small tags would set the
    /// scale of the whole photo against the few large fiducials.
    pub tag_scale: f64,
    /// How far the detector places every tag corner outward (negative: inward) from
    /// the true corner, px: blur and the edge fit bias small markers by a fraction of a
    /// pixel whatever their size, which a scale cannot absorb where tags of different
    /// sizes in pixels (near and far) would then read as lens distortion.
    pub corner_bias_px: f64,
    /// How much further out (negative: in) the detector places a tag's corners per unit
    /// of squared normalized radius (the tag's centre from the principal point over the
    /// focal length), px (issue 36). On gamma-encoded photos a dark square's edges
    /// read inside the true square by a share of the blur, and the blur grows toward a
    /// photo's edges (lens remapping, obliquer views): the independent renderer's tags
    /// read 1% smaller at r² = 0.4 than at the centre, which an adjustment without
    /// this term took for barrel distortion (k1 0.01-0.02 off, every base 1-2.6 mm
    /// off). Isotropic, where distortion stretches a tag three times more radially than
    /// tangentially, and moving no square's centre (the fiducials' positions): the two
    /// stay apart.
    pub corner_bias_r2_px: f64,
    /// How far the detector places every fiducial corner outward (negative: inward)
    /// from the true corner, px: the same detector's bias as the tags', estimated on
    /// its own (issue 36). The bias is not one number for every square: it depends on
    /// the blur against the square's cells and on the paper around it. A tag's black
    /// border is one cell (2-4 px) wide, with code cells inside and a paper margin of
    /// about one cell outside on a coloured base, which blur pulls into the edge's
    /// light and dark levels; a fiducial's cells and paper are ten times wider. On the
    /// project's renders (linear, blur sigma 0.5-1.1 px) the tags read 0.02-0.12 px
    /// inside and the fiducials 0.01 px outside; on the independent renderer's
    /// gamma-encoded photos every square reads 0.1-0.4 px inside. Held at zero, the
    /// second renderer's fiducials read too small for the camera the tags asked for
    /// (table scaled 0.05-0.16%); shared with the tags, ours read too large. Moving no
    /// square's centre, it leaves the fiducials' positions to set the camera.
    pub fiducial_bias_px: f64,
    /// The lens.
    pub lens: Lens,
    /// Rotation.
    pub r: Matrix3<f64>,
    /// Translation, mm.
    pub t: Vector3<f64>,
}

impl Camera {
    /// Projects a table point to pixels; `None` behind the camera.
    pub(crate) fn project(&self, p: &Vector3<f64>) -> Option<[f64; 2]> {
        let c = self.r * p + self.t;
        if c.z <= 1e-9 {
            return None;
        }
        let (x, y) = (c.x / c.z, c.y / c.z);
        let [k1, k2, p1, p2, k3] = self.lens.dist;
        let r2 = x * x + y * y;
        let radial = 1.0 + r2 * (k1 + r2 * (k2 + r2 * k3));
        let xd = x * radial + 2.0 * p1 * x * y + p2 * (r2 + 2.0 * x * x);
        let yd = y * radial + p1 * (r2 + 2.0 * y * y) + 2.0 * p2 * x * y;
        Some([self.lens.fx * xd + self.lens.cx, self.lens.fy * yd + self.lens.cy])
    }

    /// A tag's four corners in the photo as the detector reports them: projected, then
    /// pushed outward from the tag's centre by the corner bias.
    fn tag_image(&self, t: &TagState, size_mm: f64, height_mm: f64) -> Option<[[f64; 2]; 4]> {
        let corners = t.corners(size_mm * self.tag_scale, height_mm);
        let mut q = [[0.0; 2]; 4];
        for (o, p) in q.iter_mut().zip(&corners) {
            *o = self.project(p)?;
        }
        let r2 = self.lens.radius2(&q);
        Some(pushed_out(q, self.corner_bias_px + self.corner_bias_r2_px * r2))
    }

    /// A fiducial's four corners (table points, mm) in the photo as the detector reports
    /// them: projected, then pushed outward from the square's centre by the fiducials'
    /// corner bias (see [`Camera::fiducial_bias_px`]).
    fn fiducial_image(&self, corners: &[Vector3<f64>]) -> Option<[[f64; 2]; 4]> {
        let mut q = [[0.0; 2]; 4];
        for (o, p) in q.iter_mut().zip(corners) {
            *o = self.project(p)?;
        }
        Some(pushed_out(q, self.fiducial_bias_px))
    }

    /// The camera moved by `d` (rotation increment, translation, focal, k1, k2, tag
    /// scale, p1, p2).
    fn moved(&self, d: &CamVec) -> Camera {
        let rot = Rotation3::new(Vector3::new(d[0], d[1], d[2]));
        let aspect = self.lens.fy / self.lens.fx;
        let fx = self.lens.fx + d[6];
        let mut lens = Lens { fx, fy: fx * aspect, ..self.lens };
        lens.dist[0] += d[7];
        lens.dist[1] += d[8];
        Camera {
            lens,
            r: rot.matrix() * self.r,
            t: self.t + Vector3::new(d[3], d[4], d[5]),
            tag_scale: self.tag_scale + d[9],
            corner_bias_px: self.corner_bias_px + d[12],
            corner_bias_r2_px: self.corner_bias_r2_px + d[13],
            fiducial_bias_px: self.fiducial_bias_px + d[14],
        }
        .with_tangential(d[10], d[11])
    }

    fn with_tangential(mut self, dp1: f64, dp2: f64) -> Camera {
        self.lens.dist[2] += dp1;
        self.lens.dist[3] += dp2;
        self
    }
}

impl Lens {
    /// The squared distance of a tag's centre (its corners' mean, px) from the principal
    /// point, over the focal length squared.
    fn radius2(&self, q: &[[f64; 2]; 4]) -> f64 {
        let c = centroid(q);
        ((c[0] - self.cx).powi(2) + (c[1] - self.cy).powi(2)) / self.fx.powi(2)
    }
}

/// The mean of four corners, px.
fn centroid(q: &[[f64; 2]; 4]) -> [f64; 2] {
    [q.iter().map(|p| p[0]).sum::<f64>() / 4.0, q.iter().map(|p| p[1]).sum::<f64>() / 4.0]
}

/// Four corners each moved `by` px away from their centroid (negative: towards it).
fn pushed_out(q: [[f64; 2]; 4], by: f64) -> [[f64; 2]; 4] {
    let [cx, cy] = centroid(&q);
    q.map(|p| {
        let (dx, dy) = (p[0] - cx, p[1] - cy);
        let len = dx.hypot(dy).max(1e-9);
        [p[0] + by * dx / len, p[1] + by * dy / len]
    })
}

/// A tag on the base-top plane: centre (table mm) and heading (radians, its "up").
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct TagState {
    /// Centre, table mm.
    pub centre: Vec2,
    /// Heading, radians counter-clockwise from +x.
    pub heading: f64,
}

impl TagState {
    fn moved(&self, d: &Vector3<f64>) -> TagState {
        TagState { centre: self.centre + Vec2::new(d[0], d[1]), heading: self.heading + d[2] }
    }

    fn corners(&self, size: f64, height: f64) -> [Vector3<f64>; 4] {
        square_corners(self.centre, size, self.heading.to_degrees()).map(|c| Vector3::new(c.x, c.y, height))
    }
}

/// Which intrinsics the adjustment may change.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Free {
    /// Pose only (a calibrated camera).
    Pose,
    /// Pose, focal length, radial distortion k1, k2, tangential p1, p2 and the tag
    /// scale.
    PoseFocalRadial,
}

/// Everything the adjustment sees.
pub(crate) struct Problem<'a> {
    /// Fiducial corners: table points (mm) and their pixels.
    pub fiducial_table: &'a [Vector3<f64>],
    /// Their pixels.
    pub fiducial_px: &'a [[f64; 2]],
    /// Each tag's four corners in the photo (OpenCV order).
    pub tag_px: &'a [[[f64; 2]; 4]],
    /// Each tag's printed side, mm, in the order of `tag_px` (a roster unit's
    /// `tag_mm`, else the profile's size).
    pub tag_sizes_mm: &'a [f64],
    /// Height of the base-top plane the tags lie on, mm.
    pub tag_height_mm: f64,
    /// Which intrinsics are free.
    pub free: Free,
    /// Prior on the focal length: value and standard deviation, px.
    pub focal_prior: (f64, f64),
    /// Huber threshold, px.
    pub huber_px: f64,
    /// Per fiducial corner (in the order of `fiducial_px`): the standard deviation of
    /// its own fiducial's corner bias about the shared one, px; 0 for a fiducial read
    /// true. A fiducial on clipped paper reads small by an amount of its own
    /// ([`CLIPPED_FIDUCIAL_BIAS_PX`]); the tags' sigma holds what that costs them.
    /// Empty: none.
    pub fiducial_bias_sigma_px: &'a [f64],
    /// How much the tags' size bias may change from the photo's centre to its edges,
    /// px per unit of squared normalized radius (one standard deviation):
    /// [`DETECTOR_RADIAL_BIAS_PX`], or [`CLIPPED_RADIAL_BIAS_PX`] on clipped paper.
    pub detector_radial_bias_px: f64,
    /// Whether the tangential distortion p1, p2 is adjusted (else held at none).
    pub tangential: bool,
    /// Each tag's weight in the adjustment, in the order of `tag_px` (empty: 1 each):
    /// the share of the camera's information its corners give. A tag of small weight
    /// is still placed by its own corners (its place and sigma are the same whatever
    /// its weight) but hardly moves the camera.
    pub tag_weights: &'a [f64],
}

/// The adjusted camera and tags, with their residuals.
#[derive(Debug, Clone)]
pub(crate) struct Solution {
    /// The camera.
    pub camera: Camera,
    /// The tags, in the problem's order (the scan measures them again through the
    /// adjusted camera; two adjustments are compared by them).
    pub tags: Vec<TagState>,
    /// RMS reprojection residual of each tag's corners, px.
    pub tag_rms_px: Vec<f64>,
    /// The part of each tag's pose covariance (centre x, y in mm, heading in rad) that
    /// the camera's own uncertainty brings, in the problem's order.
    pub tag_model_cov: Vec<Matrix3<f64>>,
    /// Iterations taken.
    pub iterations: usize,
}

fn huber_weight(e: f64, delta: f64) -> f64 {
    if e <= delta { 1.0 } else { delta / e }
}

fn huber_cost(e: f64, delta: f64) -> f64 {
    if e <= delta { 0.5 * e * e } else { delta * (e - 0.5 * delta) }
}

/// Whether the photo's corners ask for tangential distortion: the adjustment with p1
/// and p2 free (robust cost `with`) fits them better than with none (`without`) by
/// more than two parameters' worth by the Bayesian information criterion (Schwarz's),
/// `2 ln(2 corners)` in χ² (the corners' variance estimated from `with`). A phone's
/// lens is barely decentred; where a photo cannot show it (nearly straight down) or
/// shows too little, p1 and p2 only take up what other small biases leave.
fn asks_for_tangential(with: f64, without: f64, corners: f64) -> bool {
    let coordinates = (2.0 * corners).max(2.0);
    chi2_over(without, with, corners) > 2.0 * coordinates.ln()
}

/// How much worse a robust cost `cost` fits `corners` corners than the `best` one, as a
/// χ²: twice the difference over the corners' variance per coordinate, estimated from
/// `best` (robust cost = ½ Σ e² over the corners, e the 2-D distance, so the variance
/// per coordinate is `best / corners`). Two adjustments of one photo are compared by it.
pub(crate) fn chi2_over(cost: f64, best: f64, corners: f64) -> f64 {
    let variance = (best / corners.max(1.0)).max(1e-12);
    2.0 * (cost - best) / variance
}

/// The adjustment without tangential distortion (`without`), each tag's model
/// covariance widened by how far the adjustment with it (`with`) places the tag: the
/// photo cannot tell the two lenses apart ([`asks_for_tangential`]), so the sigma
/// holds both (half the distance as a standard deviation per coordinate, as the
/// equally fitting focal lengths do in `pose::add_focal_spread`). A lens with some
/// decentring that a nearly straight-down photo cannot show (our renderer's p1, p2 up
/// to 0.001) is then within the sigma.
fn held_tangential(mut without: Solution, with: &Solution) -> Solution {
    for ((cov, a), b) in without.tag_model_cov.iter_mut().zip(&without.tags).zip(&with.tags) {
        let d = 0.5 * a.centre.distance(b.centre);
        let h = 0.5 * (a.heading - b.heading).abs();
        cov[(0, 0)] += d * d;
        cov[(1, 1)] += d * d;
        cov[(2, 2)] += h * h;
    }
    without
}

/// Standard deviation of the weak prior on k1 and k2 (no distortion).
const PRIOR_DISTORTION: f64 = 0.5;
/// Standard deviation of the weak prior on p1 and p2 (no tangential distortion: a
/// phone lens has a few thousandths at most).
const PRIOR_TANGENTIAL: f64 = 0.01;
/// Levenberg-Marquardt iterations at most (a far-off start walks slowly along the
/// focal length / distance valley).
const MAX_ITERATIONS: usize = 300;

/// How much the corner detector's size bias may change from the photo's centre to its
/// edges, px per unit of squared normalized radius (one standard deviation): on the
/// scan bench's renders, with the true lens, tags at the edges of the photo read
/// 0.02-0.2 px per unit further out than at its centre (blur and noise at the edge
/// crossings; a real lens, softer at its corners, does the same). The tags' sizes are
/// what bends the self-calibrated lens, so this bias becomes a lens error that the
/// corners' own noise does not show; the self-calibrated `sigma_mm` holds it.
pub(crate) const DETECTOR_RADIAL_BIAS_PX: f64 = 0.15;

/// The same when most tags stand on overexposed paper, px per unit of squared
/// normalized radius: a clipped tag reads small by 0.19-0.54 px as its paper is
/// brighter (`fiducials::tests::clipped_paper_reads_the_square_small`), and light and
/// vignetting make the paper brighter at the photo's centre than at its edges, so that
/// range (0.35 px) may spread over the photo's squared radius (about 0.7 at the corners
/// of a 12 MP photo from a phone's lens): 0.5 (issue 36).
pub(crate) const CLIPPED_RADIAL_BIAS_PX: f64 = 0.5;

/// How much a fiducial on overexposed paper may read small apart from the others, px
/// (one standard deviation): the edge fit puts a square's edges halfway between the
/// ink and the ceiling, not the paper's true level, so its edges move inward by
/// 0.19-0.54 px at one stop over as the paper reflects 60-95% of full scale (a 60 px
/// square under a 0.7 px blur, `fiducials::tests::clipped_paper_reads_the_square_small`).
/// The shared fiducial bias holds their common part; half of that range is left
/// to each (issue 36).
pub(crate) const CLIPPED_FIDUCIAL_BIAS_PX: f64 = 0.2;

/// Iterations after which the tags far off the camera are looked for (a clean photo
/// has converged by then).
const SETTLE_ITERATIONS: usize = 40;

/// The reprojection residual past which a self-calibrated tag disagrees with the camera,
/// px: six robust standard deviations of the photo's tag residuals, and at least one
/// pixel. The scan reports such tags; the adjustment leaves them out.
pub(crate) fn residual_limit(residuals: &[f64]) -> f64 {
    let mut v: Vec<f64> = residuals.iter().copied().filter(|r| r.is_finite()).collect();
    v.sort_by(f64::total_cmp);
    let median = v.get(v.len() / 2).copied().unwrap_or(0.0);
    (6.0 * median).max(1.0)
}

/// Standard deviation of the weak prior on the corner bias (none), px.
const PRIOR_CORNER_BIAS_PX: f64 = 1.0;
/// Standard deviation of the weak prior on the corner bias's growth per unit of
/// squared normalized radius (none), px: the independent renders show about 0.3.
const PRIOR_CORNER_BIAS_R2_PX: f64 = 0.5;
/// Standard deviation of the weak prior on the tag scale (the profile's size).
const PRIOR_TAG_SCALE: f64 = 0.05;

/// Tags from which the normal equations' Jacobians are worked out on two threads: a
/// thread's start (tens of microseconds) costs about what a dozen tags' 37 projections
/// each do.
const PARALLEL_TAGS: usize = 24;

/// Finite-difference steps of the camera parameters.
const CAM_STEP: [f64; NC] =
    [1e-6, 1e-6, 1e-6, 1e-4, 1e-4, 1e-4, 1e-3, 1e-6, 1e-6, 1e-6, 1e-7, 1e-7, 1e-4, 1e-4, 1e-4];
/// Of the tag parameters (mm, mm, rad).
const TAG_STEP: [f64; 3] = [1e-4, 1e-4, 1e-6];

impl Problem<'_> {
    /// Whether shared parameter `i` is adjusted (the pose always; the lens and the tag
    /// scale when self-calibrating).
    fn free_cam(&self, i: usize) -> bool {
        i < 6 || (self.free == Free::PoseFocalRadial && (self.tangential || !(10..=11).contains(&i)))
    }

    /// The robust cost of a state (the prior included); `None` when a point falls
    /// behind the camera.
    fn cost(&self, cam: &Camera, tags: &[TagState]) -> Option<f64> {
        let d = self.huber_px;
        let mut c = 0.0;
        for (p, o) in self.fiducial_table.chunks_exact(4).zip(self.fiducial_px.chunks_exact(4)) {
            for (q, o) in cam.fiducial_image(p)?.iter().zip(o) {
                c += huber_cost((q[0] - o[0]).hypot(q[1] - o[1]), d);
            }
        }
        for (i, ((t, obs), &size)) in tags.iter().zip(self.tag_px).zip(self.tag_sizes_mm).enumerate() {
            let w = self.tag_weight(i);
            for (q, o) in cam.tag_image(t, size, self.tag_height_mm)?.iter().zip(obs) {
                c += w * huber_cost((q[0] - o[0]).hypot(q[1] - o[1]), d);
            }
        }
        Some(c + 0.5 * self.prior_residuals(cam).iter().map(|r| r * r).sum::<f64>())
    }

    /// Weak priors: focal length near its first estimate, distortion near none (they
    /// only steer directions the corners leave undetermined).
    fn prior_residuals(&self, cam: &Camera) -> [f64; 9] {
        if self.free == Free::Pose {
            return [0.0; 9];
        }
        let (f0, sf) = self.focal_prior;
        [
            (cam.lens.fx - f0) / sf,
            cam.lens.dist[0] / PRIOR_DISTORTION,
            cam.lens.dist[1] / PRIOR_DISTORTION,
            (cam.tag_scale - 1.0) / PRIOR_TAG_SCALE,
            cam.lens.dist[2] / PRIOR_TANGENTIAL,
            cam.lens.dist[3] / PRIOR_TANGENTIAL,
            cam.corner_bias_px / PRIOR_CORNER_BIAS_PX,
            cam.corner_bias_r2_px / PRIOR_CORNER_BIAS_R2_PX,
            cam.fiducial_bias_px / PRIOR_CORNER_BIAS_PX,
        ]
    }

    /// The shared parameters the weak priors hold, each with its standard deviation,
    /// in the order of [`Problem::prior_residuals`].
    fn prior_sigmas(&self) -> [(usize, f64); 9] {
        [
            (6, self.focal_prior.1),
            (7, PRIOR_DISTORTION),
            (8, PRIOR_DISTORTION),
            (9, PRIOR_TAG_SCALE),
            (10, PRIOR_TANGENTIAL),
            (11, PRIOR_TANGENTIAL),
            (12, PRIOR_CORNER_BIAS_PX),
            (13, PRIOR_CORNER_BIAS_R2_PX),
            (14, PRIOR_CORNER_BIAS_PX),
        ]
    }

    /// Solves from `cam` and `tags`; `None` when the start is unusable (a point behind
    /// the camera).
    ///
    /// A tag far off every square the camera can make of it (a misread, a tag lying on
    /// something else) is left out once the fit has settled: the Huber loss bounds its
    /// pull, but the reweighted steps then crawl, and a few hundred iterations can stop
    /// short of the minimum (two of the bench's photos, each with one such tag, ended
    /// 0.9% off in focal length and 0.66 mm off at the median). Such a tag keeps its
    /// residual under the settled camera (the scan reports it) and the widest model
    /// covariance of the others.
    pub(crate) fn solve(&self, cam: Camera, tags: Vec<TagState>) -> Option<Solution> {
        let first = self.solve_from(cam, tags, SETTLE_ITERATIONS)?;
        let limit = residual_limit(&first.tag_rms_px);
        let keep: Vec<usize> = (0..first.tags.len()).filter(|&i| first.tag_rms_px[i] <= limit).collect();
        if keep.len() == first.tags.len() {
            let mut done = if first.iterations < SETTLE_ITERATIONS {
                first
            } else {
                let rest = self.solve_from(first.camera, first.tags, MAX_ITERATIONS)?;
                Solution { iterations: first.iterations + rest.iterations, ..rest }
            };
            done.tag_model_cov = self.model_covariance(&done.camera, &done.tags).unwrap_or_default();
            return Some(done);
        }
        let kept_px: Vec<[[f64; 2]; 4]> = keep.iter().map(|&i| self.tag_px[i]).collect();
        let kept_sizes: Vec<f64> = keep.iter().map(|&i| self.tag_sizes_mm[i]).collect();
        let kept_weights: Vec<f64> = if self.tag_weights.is_empty() {
            Vec::new()
        } else {
            keep.iter().map(|&i| self.tag_weight(i)).collect()
        };
        let reduced =
            Problem { tag_px: &kept_px, tag_sizes_mm: &kept_sizes, tag_weights: &kept_weights, ..*self };
        let start = keep.iter().map(|&i| first.tags[i]).collect();
        let mut rest = reduced.solve_from(first.camera, start, MAX_ITERATIONS)?;
        rest.tag_model_cov = reduced.model_covariance(&rest.camera, &rest.tags).unwrap_or_default();
        let widest = rest.tag_model_cov.iter().max_by(|a, b| a.trace().total_cmp(&b.trace())).copied();
        let mut tags = first.tags;
        let mut tag_rms_px = first.tag_rms_px;
        let mut tag_model_cov = match widest {
            Some(w) => vec![w; tags.len()],
            None => Vec::new(),
        };
        for (k, &i) in keep.iter().enumerate() {
            tags[i] = rest.tags[k];
            tag_rms_px[i] = rest.tag_rms_px[k];
            if let (Some(slot), Some(c)) = (tag_model_cov.get_mut(i), rest.tag_model_cov.get(k)) {
                *slot = *c;
            }
        }
        Some(Solution {
            camera: rest.camera,
            tags,
            tag_rms_px,
            tag_model_cov,
            iterations: first.iterations + rest.iterations,
        })
    }

    /// [`Problem::solve`] with tangential distortion adjusted only where the photo asks
    /// for it ([`asks_for_tangential`]): the adjustment with p1 and p2 free, then again
    /// from its end with them held at none; the simpler lens is kept unless the corners
    /// clearly ask for the other, its sigmas widened to hold both
    /// ([`held_tangential`]). Issue 36: on the second renderer's photos, whose lenses
    /// have no tangential distortion, p1 settled at -0.00046 to +0.00062 for a χ² gain
    /// of 0.3-6.3 and moved the tags 0.2-0.3 mm along the view (its tags' centres 0.254
    /// -> 0.134 mm median without a camera file).
    pub(crate) fn solve_choosing_tangential(&self, cam: Camera, tags: Vec<TagState>) -> Option<Solution> {
        let with = self.solve(cam, tags)?;
        if !self.tangential || self.free != Free::PoseFocalRadial {
            return Some(with);
        }
        let held = Problem { tangential: false, ..*self };
        let mut plain = with.camera;
        plain.lens.dist[2] = 0.0;
        plain.lens.dist[3] = 0.0;
        let without = held.solve(plain, with.tags.clone())?;
        let corners = self.weighted_corners();
        let asked = asks_for_tangential(
            self.corner_cost(&with.camera, &with.tags)?,
            held.corner_cost(&without.camera, &without.tags)?,
            corners,
        );
        Some(if asked { with } else { held_tangential(without, &with) })
    }

    /// A few Levenberg-Marquardt steps from `cam` and `tags`: where they lead and the
    /// robust cost of the corners there, priors left out (so that starts with priors
    /// of their own compare by the photo alone). `None` when the start is unusable.
    pub(crate) fn explore(
        &self,
        cam: Camera,
        tags: Vec<TagState>,
        iterations: usize,
    ) -> Option<(Camera, Vec<TagState>, f64)> {
        let s = self.solve_from(cam, tags, iterations)?;
        let cost = self.corner_cost(&s.camera, &s.tags)?;
        Some((s.camera, s.tags, cost))
    }

    /// Tag `i`'s weight ([`Problem::tag_weights`]).
    fn tag_weight(&self, i: usize) -> f64 {
        self.tag_weights.get(i).copied().unwrap_or(1.0)
    }

    /// How many corners the adjustment weighs: the fiducials' and each tag's four
    /// times its weight. Two adjustments' costs are compared over these
    /// ([`chi2_over`]).
    pub(crate) fn weighted_corners(&self) -> f64 {
        let tags: f64 = (0..self.tag_px.len()).map(|i| self.tag_weight(i)).sum();
        self.fiducial_px.len() as f64 + 4.0 * tags
    }

    /// The robust cost of the corners at `cam` and `tags`, priors left out.
    pub(crate) fn corner_cost(&self, cam: &Camera, tags: &[TagState]) -> Option<f64> {
        let prior = 0.5 * self.prior_residuals(cam).iter().map(|r| r * r).sum::<f64>();
        Some(self.cost(cam, tags)? - prior)
    }

    /// Levenberg-Marquardt from `cam` and `tags`, at most `max_iterations` steps.
    fn solve_from(&self, cam: Camera, tags: Vec<TagState>, max_iterations: usize) -> Option<Solution> {
        let mut cam = cam;
        let mut tags = tags;
        let mut cost = self.cost(&cam, &tags)?;
        let mut lambda = 1e-3;
        let mut iterations = 0;
        for _ in 0..max_iterations {
            iterations += 1;
            let sys = self.normal_equations(&cam, &tags)?;
            let mut improved = false;
            for _ in 0..12 {
                let Some((dc, dts)) = sys.step(lambda, self) else {
                    lambda *= 10.0;
                    continue;
                };
                let cam2 = cam.moved(&dc);
                let tags2: Vec<TagState> = tags.iter().zip(&dts).map(|(t, d)| t.moved(d)).collect();
                match self.cost(&cam2, &tags2) {
                    Some(c2) if c2 < cost => {
                        let rel = (cost - c2) / cost.max(1e-30);
                        cam = cam2;
                        tags = tags2;
                        cost = c2;
                        lambda = (lambda / 3.0).max(1e-9);
                        improved = rel > 1e-10;
                        break;
                    }
                    _ => lambda *= 4.0,
                }
            }
            if !improved {
                break;
            }
        }
        let tag_rms_px = tags
            .iter()
            .zip(self.tag_px)
            .zip(self.tag_sizes_mm)
            .map(|((t, obs), &size)| {
                cam.tag_image(t, size, self.tag_height_mm).map_or(f64::INFINITY, |q| {
                    let ss: f64 =
                        q.iter().zip(obs).map(|(q, o)| (q[0] - o[0]).powi(2) + (q[1] - o[1]).powi(2)).sum();
                    (ss / 4.0).sqrt()
                })
            })
            .collect();
        Some(Solution { camera: cam, tags, tag_rms_px, tag_model_cov: Vec::new(), iterations })
    }

    /// How far each tag (centre mm, heading rad) moves when the detector's corners sit
    /// one pixel further out per unit of squared normalized radius (the tag's centre
    /// from the principal point over the focal length): one linearized step of the
    /// adjustment at the solution (`sys`, its normal equations), with and without the
    /// push. Its constant part is the corner bias the adjustment already holds; what is
    /// left bends the lens.
    fn detector_bias_shift(
        &self,
        sys: &Normal,
        cam: &Camera,
        tags: &[TagState],
    ) -> Option<Vec<Vector3<f64>>> {
        let (_, plain) = sys.step(0.0, self)?;
        let pushed_px: Vec<[[f64; 2]; 4]> =
            self.tag_px.iter().map(|q| pushed_out(*q, cam.lens.radius2(q))).collect();
        let pushed = Problem { tag_px: &pushed_px, ..*self };
        let (_, moved) = pushed.normal_equations(cam, tags)?.step(0.0, self)?;
        Some(moved.iter().zip(&plain).map(|(a, b)| a - b).collect())
    }

    /// The camera's uncertainty carried into each tag's pose, at the solution: with the
    /// tags eliminated, the shared parameters' covariance is `σ² S⁻¹` (`S` the Schur
    /// complement of the normal matrix, `σ²` the weighted residual variance per pixel
    /// coordinate over the degrees of freedom left), and tag `i`'s share of it is
    /// `σ² U⁻¹ Wᵀ S⁻¹ W U⁻¹` (`U` its own block, `W` its cross block): the second term
    /// of a bundle adjustment's point covariance. The first, `σ² U⁻¹`, is the tag's own
    /// corner noise, which the error budget already holds. `None` when the system is
    /// singular.
    fn model_covariance(&self, cam: &Camera, tags: &[TagState]) -> Option<Vec<Matrix3<f64>>> {
        let sys = self.normal_equations(cam, tags)?;
        let delta = self.huber_px;
        // Degrees of freedom: each coordinate less each parameter, a tag's own three
        // and its eight coordinates counted at its weight.
        let mut ss = 0.0;
        let mut dof = -((0..NC).filter(|&i| self.free_cam(i)).count() as f64);
        for (p, o) in self.fiducial_table.chunks_exact(4).zip(self.fiducial_px.chunks_exact(4)) {
            for (q, o) in cam.fiducial_image(p)?.iter().zip(o) {
                let e = (q[0] - o[0]).hypot(q[1] - o[1]);
                ss += huber_weight(e, delta) * e * e;
                dof += 2.0;
            }
        }
        for (i, ((t, obs), &size)) in tags.iter().zip(self.tag_px).zip(self.tag_sizes_mm).enumerate() {
            let w = self.tag_weight(i);
            for (q, o) in cam.tag_image(t, size, self.tag_height_mm)?.iter().zip(obs) {
                let e = (q[0] - o[0]).hypot(q[1] - o[1]);
                ss += w * huber_weight(e, delta) * e * e;
                dof += 2.0 * w;
            }
            dof -= 3.0 * w;
        }
        let sigma2 = ss / dof.max(1.0);
        let mut schur = sys.hcc;
        // The normal matrix holds the corners' information in px⁻² (unit weight) and
        // the priors' as 1/s²: scaled by σ², the priors would speak 1/σ² times louder
        // than they are (at σ = 0.06 px, a focal length held to 25% would read as
        // held to 1.5%). In the covariance, each prior keeps its own weight: σ² of it
        // in the unit-weight matrix.
        if self.free == Free::PoseFocalRadial {
            for (i, s) in self.prior_sigmas() {
                if !self.free_cam(i) {
                    continue;
                }
                schur[(i, i)] += (sigma2 - 1.0) / (s * s);
            }
        }
        let mut inverses = Vec::with_capacity(sys.blocks.len());
        for blk in &sys.blocks {
            let inv = blk.htt.try_inverse()?;
            schur -= blk.hct * inv * blk.hct.transpose();
            inverses.push(inv);
        }
        let s_inv = schur.try_inverse()?;
        let mut cov: Vec<Matrix3<f64>> = sys
            .blocks
            .iter()
            .zip(&inverses)
            .map(|(blk, inv)| {
                let a = blk.hct * inv;
                sigma2 * (a.transpose() * s_inv * a)
            })
            .collect();
        if self.free == Free::PoseFocalRadial
            && let Some(shift) = self.detector_bias_shift(&sys, cam, tags)
        {
            for (c, d) in cov.iter_mut().zip(&shift) {
                *c += self.detector_radial_bias_px.powi(2) * d * d.transpose();
            }
        }
        for (shift, sigma) in self.fiducial_bias_shifts(&sys, cam, tags)? {
            for (c, d) in cov.iter_mut().zip(&shift) {
                *c += sigma * sigma * d * d.transpose();
            }
        }
        Some(cov)
    }

    /// For each fiducial with a corner bias of its own (`fiducial_bias_sigma_px`), how
    /// far each tag (centre mm, heading rad) moves when that fiducial alone reads one
    /// pixel larger: one linearized step of the adjustment at the solution, with and
    /// without the push, and the bias's standard deviation.
    fn fiducial_bias_shifts(
        &self,
        sys: &Normal,
        cam: &Camera,
        tags: &[TagState],
    ) -> Option<Vec<(Vec<Vector3<f64>>, f64)>> {
        let mut out = Vec::new();
        if self.fiducial_bias_sigma_px.len() != self.fiducial_px.len() {
            return Some(out);
        }
        let (_, plain) = sys.step(0.0, self)?;
        for (j, chunk) in self.fiducial_px.chunks_exact(4).enumerate() {
            let sigma = self.fiducial_bias_sigma_px[4 * j];
            if sigma <= 0.0 {
                continue;
            }
            let q = [chunk[0], chunk[1], chunk[2], chunk[3]];
            let mut pushed_px = self.fiducial_px.to_vec();
            pushed_px[4 * j..4 * j + 4].copy_from_slice(&pushed_out(q, 1.0));
            let pushed = Problem { fiducial_px: &pushed_px, ..*self };
            let (_, moved) = pushed.normal_equations(cam, tags)?.step(0.0, self)?;
            out.push((moved.iter().zip(&plain).map(|(a, b)| a - b).collect(), sigma));
        }
        Some(out)
    }

    /// One tag's corner residuals (pixels, predicted minus observed) and their central
    /// differences per shared parameter (the tag scale and the corner bias included;
    /// `moved`: the camera stepped up and down each) and per tag parameter.
    fn tag_jacobian(
        &self,
        cam: &Camera,
        moved: &[(Camera, Camera)],
        t: &TagState,
        obs: &[[f64; 2]; 4],
        size: f64,
    ) -> Option<TagJacobian> {
        let image = |c: &Camera, t: &TagState| c.tag_image(t, size, self.tag_height_mm);
        let q = image(cam, t)?;
        let mut jc4 = [SMatrix::<f64, 2, NC>::zeros(); 4];
        for (i, (a, b)) in moved.iter().enumerate() {
            if !self.free_cam(i) {
                continue;
            }
            let (qa, qb) = (image(a, t)?, image(b, t)?);
            for k in 0..4 {
                jc4[k][(0, i)] = (qa[k][0] - qb[k][0]) / (2.0 * CAM_STEP[i]);
                jc4[k][(1, i)] = (qa[k][1] - qb[k][1]) / (2.0 * CAM_STEP[i]);
            }
        }
        let mut jt4 = [SMatrix::<f64, 2, 3>::zeros(); 4];
        for i in 0..3 {
            let mut d = Vector3::zeros();
            d[i] = TAG_STEP[i];
            let (qa, qb) = (image(cam, &t.moved(&d))?, image(cam, &t.moved(&-d))?);
            for k in 0..4 {
                jt4[k][(0, i)] = (qa[k][0] - qb[k][0]) / (2.0 * TAG_STEP[i]);
                jt4[k][(1, i)] = (qa[k][1] - qb[k][1]) / (2.0 * TAG_STEP[i]);
            }
        }
        let r = [0, 1, 2, 3].map(|k| [q[k][0] - obs[k][0], q[k][1] - obs[k][1]]);
        Some(TagJacobian { r, jc4, jt4 })
    }

    /// The Gauss-Newton normal equations of the robust cost at the current state.
    fn normal_equations(&self, cam: &Camera, tags: &[TagState]) -> Option<Normal> {
        let n = tags.len().min(self.tag_px.len()).min(self.tag_sizes_mm.len());
        self.normal_equations_split(cam, tags, if n >= PARALLEL_TAGS { n / 2 } else { n })
    }

    /// The same, the tags from `split` on worked out on a second thread.
    fn normal_equations_split(&self, cam: &Camera, tags: &[TagState], split: usize) -> Option<Normal> {
        let moved: Vec<(Camera, Camera)> = (0..NC)
            .map(|i| {
                let mut d = CamVec::zeros();
                d[i] = CAM_STEP[i];
                (cam.moved(&d), cam.moved(&-d))
            })
            .collect();
        let mut hcc = CamMat::zeros();
        let mut gc = CamVec::zeros();
        let delta = self.huber_px;
        // One fiducial's four corners: residuals and their camera Jacobians (2 x NC).
        for (p, o) in self.fiducial_table.chunks_exact(4).zip(self.fiducial_px.chunks_exact(4)) {
            let q = cam.fiducial_image(p)?;
            let mut j4 = [SMatrix::<f64, 2, NC>::zeros(); 4];
            for (i, (a, b)) in moved.iter().enumerate() {
                if !self.free_cam(i) {
                    continue;
                }
                let (qa, qb) = (a.fiducial_image(p)?, b.fiducial_image(p)?);
                for k in 0..4 {
                    j4[k][(0, i)] = (qa[k][0] - qb[k][0]) / (2.0 * CAM_STEP[i]);
                    j4[k][(1, i)] = (qa[k][1] - qb[k][1]) / (2.0 * CAM_STEP[i]);
                }
            }
            for k in 0..4 {
                let r = [q[k][0] - o[k][0], q[k][1] - o[k][1]];
                let w = huber_weight(r[0].hypot(r[1]), delta);
                let rv = nalgebra::Vector2::new(r[0], r[1]);
                hcc += w * j4[k].transpose() * j4[k];
                gc += w * j4[k].transpose() * rv;
            }
        }
        // Each tag's corner residuals and Jacobians (the costly part: 37 projections of
        // its corners), the tags split between two threads; summed below in the tags'
        // order, so the equations are the same, bit for bit, on one thread or two.
        let n = tags.len().min(self.tag_px.len()).min(self.tag_sizes_mm.len());
        let jacobians = |from: usize, to: usize| -> Option<Vec<TagJacobian>> {
            (from..to)
                .map(|i| self.tag_jacobian(cam, &moved, &tags[i], &self.tag_px[i], self.tag_sizes_mm[i]))
                .collect()
        };
        let split = split.min(n);
        let (mine, theirs) = std::thread::scope(|s| {
            let other = (split < n).then(|| s.spawn(|| jacobians(split, n)));
            let mine = jacobians(0, split);
            let theirs = match other {
                Some(h) => h.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
                None => Some(Vec::new()),
            };
            (mine, theirs)
        });
        let mut jac = mine?;
        jac.extend(theirs?);
        let mut blocks = Vec::with_capacity(tags.len());
        for (i, j) in jac.iter().enumerate() {
            let weight = self.tag_weight(i);
            let mut htt = Matrix3::zeros();
            let mut hct = CrossMat::zeros();
            let mut gt = Vector3::zeros();
            for k in 0..4 {
                let r = j.r[k];
                let (jc, jt) = (&j.jc4[k], &j.jt4[k]);
                let w = weight * huber_weight(r[0].hypot(r[1]), delta);
                let rv = nalgebra::Vector2::new(r[0], r[1]);
                hcc += w * jc.transpose() * jc;
                gc += w * jc.transpose() * rv;
                htt += w * jt.transpose() * jt;
                hct += w * jc.transpose() * jt;
                gt += w * jt.transpose() * rv;
            }
            blocks.push(TagBlock { htt, hct, gt });
        }
        // Priors (diagonal).
        if self.free == Free::PoseFocalRadial {
            let pr = self.prior_residuals(cam);
            for (k, (i, s)) in self.prior_sigmas().into_iter().enumerate() {
                hcc[(i, i)] += 1.0 / (s * s);
                gc[i] += pr[k] / s;
            }
        }
        for i in 0..NC {
            if !self.free_cam(i) {
                for j in 0..NC {
                    hcc[(i, j)] = 0.0;
                    hcc[(j, i)] = 0.0;
                }
                hcc[(i, i)] = 1.0;
                gc[i] = 0.0;
                for b in &mut blocks {
                    for j in 0..3 {
                        b.hct[(i, j)] = 0.0;
                    }
                }
            }
        }
        Some(Normal { hcc, gc, blocks })
    }
}

/// One tag's corner residuals and Jacobians (see [`Problem::tag_jacobian`]).
struct TagJacobian {
    r: [[f64; 2]; 4],
    jc4: [SMatrix<f64, 2, NC>; 4],
    jt4: [SMatrix<f64, 2, 3>; 4],
}

struct TagBlock {
    htt: Matrix3<f64>,
    hct: CrossMat,
    gt: Vector3<f64>,
}

struct Normal {
    hcc: CamMat,
    gc: CamVec,
    blocks: Vec<TagBlock>,
}

impl Normal {
    /// The damped step (Marquardt's diagonal scaling), tags eliminated by the Schur
    /// complement.
    fn step(&self, lambda: f64, problem: &Problem<'_>) -> Option<(CamVec, Vec<Vector3<f64>>)> {
        let damp = |m: f64| m * (1.0 + lambda) + lambda * 1e-9;
        let mut s = self.hcc;
        for i in 0..NC {
            if problem.free_cam(i) {
                s[(i, i)] = damp(s[(i, i)]);
            }
        }
        let mut b = self.gc;
        let mut inverses = Vec::with_capacity(self.blocks.len());
        for blk in &self.blocks {
            let mut d = blk.htt;
            for i in 0..3 {
                d[(i, i)] = damp(d[(i, i)]);
            }
            let inv = d.try_inverse()?;
            let hd = blk.hct * inv;
            s -= hd * blk.hct.transpose();
            b -= hd * blk.gt;
            inverses.push(inv);
        }
        let dc = s.cholesky()?.solve(&-b);
        if dc.iter().any(|v| !v.is_finite()) {
            return None;
        }
        let dts = self
            .blocks
            .iter()
            .zip(&inverses)
            .map(|(blk, inv)| inv * (-blk.gt - blk.hct.transpose() * dc))
            .collect();
        Some((dc, dts))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A camera 1.2 m up, tilted `tilt_deg`, pincushion lens; tags on a grid at 3 mm.
    fn truth_at(tilt_deg: f64) -> (Camera, Vec<TagState>) {
        let a = tilt_deg.to_radians();
        let down = Matrix3::new(1.0, 0.0, 0.0, 0.0, -1.0, 0.0, 0.0, 0.0, -1.0);
        let rx = Matrix3::new(1.0, 0.0, 0.0, 0.0, a.cos(), a.sin(), 0.0, -a.sin(), a.cos());
        let r = rx * down;
        let centre = Vector3::new(914.0, 610.0 - 1200.0 * a.tan(), 1200.0);
        let lens =
            Lens { fx: 2900.0, fy: 2900.0, cx: 1999.5, cy: 1499.5, dist: [0.04, -0.01, 0.0, 0.0, 0.0] };
        let cam = Camera {
            lens,
            r,
            t: -(r * centre),
            tag_scale: 1.0,
            corner_bias_px: 0.0,
            corner_bias_r2_px: 0.0,
            fiducial_bias_px: 0.0,
        };
        let mut tags = Vec::new();
        for i in 0..8 {
            for j in 0..5 {
                tags.push(TagState {
                    centre: Vec2::new(250.0 + 200.0 * f64::from(i), 200.0 + 200.0 * f64::from(j)),
                    heading: f64::from(i * 5 + j),
                });
            }
        }
        (cam, tags)
    }

    fn truth() -> (Camera, Vec<TagState>) {
        truth_at(20.0)
    }

    /// The four corner fiducials' corners on the table and in the photo.
    fn fiducials(cam: &Camera) -> (Vec<Vector3<f64>>, Vec<[f64; 2]>) {
        let fid: Vec<Vector3<f64>> = [(30.0, 30.0), (1798.0, 30.0), (1798.0, 1189.0), (30.0, 1189.0)]
            .iter()
            .flat_map(|&(x, y)| {
                square_corners(Vec2::new(x, y), 60.0, 90.0).map(|c| Vector3::new(c.x, c.y, 0.0))
            })
            .collect();
        let fid_px = fid.iter().map(|p| cam.project(p).unwrap()).collect();
        (fid, fid_px)
    }

    fn problem<'a>(
        fid: &'a [Vector3<f64>],
        fid_px: &'a [[f64; 2]],
        tag_px: &'a [[[f64; 2]; 4]],
        focal: f64,
    ) -> Problem<'a> {
        Problem {
            fiducial_table: fid,
            fiducial_px: fid_px,
            tag_px,
            tag_sizes_mm: Box::leak(vec![12.0; tag_px.len()].into_boxed_slice()),
            tag_height_mm: 3.0,
            free: Free::PoseFocalRadial,
            focal_prior: (focal, 0.3 * focal),
            huber_px: 1.0,
            fiducial_bias_sigma_px: &[],
            detector_radial_bias_px: DETECTOR_RADIAL_BIAS_PX,
            tangential: true,
            tag_weights: &[],
        }
    }

    #[test]
    fn the_normal_equations_are_the_same_on_one_thread_or_two() {
        let (cam, tags) = truth();
        let (fid, fid_px) = fiducials(&cam);
        // Observed corners a little off the model's, so that residuals and weights vary.
        let tag_px: Vec<[[f64; 2]; 4]> = tags
            .iter()
            .enumerate()
            .map(|(i, t)| {
                let off = 0.3 * ((i * 7 % 11) as f64 - 5.0);
                t.corners(12.0, 3.0).map(|p| cam.project(&p).map(|q| [q[0] + off, q[1] - off]).unwrap())
            })
            .collect();
        let p = problem(&fid, &fid_px, &tag_px, 2900.0);
        let n = tags.len();
        assert!(n >= PARALLEL_TAGS, "the test's photo must be split");
        let one = p.normal_equations_split(&cam, &tags, n).unwrap();
        for split in [0, 1, n / 2, n - 1] {
            let two = p.normal_equations_split(&cam, &tags, split).unwrap();
            assert_eq!(one.hcc, two.hcc, "split at {split}");
            assert_eq!(one.gc, two.gc, "split at {split}");
            assert_eq!(one.blocks.len(), two.blocks.len());
            for (a, b) in one.blocks.iter().zip(&two.blocks) {
                assert_eq!((a.htt, a.hct, a.gt), (b.htt, b.hct, b.gt), "split at {split}");
            }
        }
        // A tag behind the camera spoils the equations whichever thread meets it.
        let mut behind = tags.clone();
        behind[n - 1].centre = Vec2::new(914.0, -1e7);
        assert!(p.normal_equations_split(&cam, &behind, n / 2).is_none());
        assert!(p.normal_equations_split(&cam, &behind, n).is_none());
    }

    #[test]
    fn recovers_focal_distortion_and_tags_from_a_rough_start() {
        let (cam, tags) = truth();
        let (fid, fid_px) = fiducials(&cam);
        let tag_px: Vec<[[f64; 2]; 4]> =
            tags.iter().map(|t| t.corners(12.0, 3.0).map(|p| cam.project(&p).unwrap())).collect();
        // Start: no distortion, focal 10% off, tags 2 mm and 2 degrees off.
        let mut start = cam;
        start.lens.dist = [0.0; 5];
        start.lens.fx *= 1.1;
        start.lens.fy *= 1.1;
        start.t.z += 20.0;
        let start_tags: Vec<TagState> = tags
            .iter()
            .map(|t| TagState { centre: t.centre + Vec2::new(2.0, -2.0), heading: t.heading + 0.03 })
            .collect();
        let s = problem(&fid, &fid_px, &tag_px, start.lens.fx).solve(start, start_tags).unwrap();
        assert!((s.camera.lens.fx - 2900.0).abs() < 2.0, "{:?} after {}", s.camera.lens, s.iterations);
        assert!((s.camera.lens.dist[0] - 0.04).abs() < 1e-3, "{:?}", s.camera.lens);
        for (a, b) in s.tags.iter().zip(&tags) {
            assert!(a.centre.distance(b.centre) < 0.05, "{a:?} {b:?}");
        }
        assert!(s.tag_rms_px.iter().all(|r| *r < 1e-3));
    }

    #[test]
    fn a_tag_far_off_every_square_is_left_out_of_the_camera() {
        let (cam, tags) = truth();
        let (fid, fid_px) = fiducials(&cam);
        let mut tag_px: Vec<[[f64; 2]; 4]> =
            tags.iter().map(|t| t.corners(12.0, 3.0).map(|p| cam.project(&p).unwrap())).collect();
        // One tag read with a corner 40 px away (a misdetection among figures).
        tag_px[17][2][0] += 40.0;
        let mut start = cam;
        start.lens.dist = [0.0; 5];
        start.lens.fx *= 1.05;
        start.lens.fy *= 1.05;
        let s = problem(&fid, &fid_px, &tag_px, start.lens.fx).solve(start, tags.clone()).unwrap();
        // Without it the others fit exactly: the lens is the truth's, and the bad tag
        // keeps a residual the scan reports.
        assert!((s.camera.lens.fx - 2900.0).abs() < 0.5, "{:?} after {}", s.camera.lens, s.iterations);
        assert!((s.camera.lens.dist[0] - 0.04).abs() < 1e-4, "{:?}", s.camera.lens);
        assert!(s.tag_rms_px[17] > residual_limit(&s.tag_rms_px), "{:?}", s.tag_rms_px[17]);
        for (i, (a, b)) in s.tags.iter().zip(&tags).enumerate() {
            if i != 17 {
                assert!(a.centre.distance(b.centre) < 0.03, "{i}: {a:?} {b:?}");
                assert!(s.tag_rms_px[i] < 1e-2, "{i}: {}", s.tag_rms_px[i]);
            }
        }
        assert_eq!(s.tag_model_cov.len(), tags.len());
    }

    #[test]
    fn sigma_holds_the_detector_size_bias_across_the_photo() {
        // Corners pushed out by 0.25 px per unit of squared normalized radius (a
        // detector reading tags at the photo's edges slightly large), nearly straight
        // down, where nothing else tells the lens from that bias: the self-calibrated
        // tags move, and each stays within 2.45 of its own sigma.
        let (cam, tags) = truth_at(5.0);
        let (fid, fid_px) = fiducials(&cam);
        let push = 0.25;
        let tag_px: Vec<[[f64; 2]; 4]> = tags
            .iter()
            .map(|t| {
                let q = t.corners(12.0, 3.0).map(|p| cam.project(&p).unwrap());
                pushed_out(q, push * cam.lens.radius2(&q))
            })
            .collect();
        let s = problem(&fid, &fid_px, &tag_px, cam.lens.fx).solve(cam, tags.clone()).unwrap();
        let errors: Vec<f64> = s.tags.iter().zip(&tags).map(|(a, b)| a.centre.distance(b.centre)).collect();
        let worst = errors.iter().copied().fold(0.0, f64::max);
        assert!(worst > 0.1, "the bias moves the tags: {worst} mm");
        for ((e, c), t) in errors.iter().zip(&s.tag_model_cov).zip(&tags) {
            let sigma = (0.5 * (c[(0, 0)] + c[(1, 1)])).sqrt();
            assert!(*e <= 2.45 * sigma, "{t:?}: error {e:.3} mm, sigma {sigma:.3} mm");
        }
    }

    #[test]
    fn sigma_holds_a_fiducial_on_clipped_paper() {
        // One fiducial reads 0.4 px small (its paper clipped brighter than the
        // others', issue 36), the others true: the shared fiducial bias cannot hold
        // it, the tags move, and with that fiducial's own bias in their sigma each
        // stays within 2.45 of it.
        let (cam, tags) = truth_at(10.0);
        let (fid, mut fid_px) = fiducials(&cam);
        let q = [fid_px[0], fid_px[1], fid_px[2], fid_px[3]];
        fid_px[..4].copy_from_slice(&pushed_out(q, -0.4));
        let tag_px: Vec<[[f64; 2]; 4]> =
            tags.iter().map(|t| t.corners(12.0, 3.0).map(|p| cam.project(&p).unwrap())).collect();
        let mut sigmas = vec![0.0; fid_px.len()];
        sigmas[..4].fill(CLIPPED_FIDUCIAL_BIAS_PX);
        let plain = problem(&fid, &fid_px, &tag_px, cam.lens.fx);
        let told = Problem { fiducial_bias_sigma_px: &sigmas, ..plain };
        let (without, with) =
            (plain.solve(cam, tags.clone()).unwrap(), told.solve(cam, tags.clone()).unwrap());
        let errors: Vec<f64> =
            with.tags.iter().zip(&tags).map(|(a, b)| a.centre.distance(b.centre)).collect();
        let worst = errors.iter().copied().fold(0.0, f64::max);
        assert!(worst > 0.05, "the bias moves the tags: {worst} mm");
        let covered = |cov: &[Matrix3<f64>]| {
            errors
                .iter()
                .zip(cov)
                .filter(|(e, c)| **e <= 2.45 * (0.5 * (c[(0, 0)] + c[(1, 1)])).sqrt())
                .count()
        };
        let (before, after) = (covered(&without.tag_model_cov), covered(&with.tag_model_cov));
        eprintln!("worst {worst:.3} mm; within 2.45 sigma: {before} of {} untold, {after} told", tags.len());
        assert!(before < tags.len(), "untold, every tag was covered: {before}");
        assert_eq!(after, tags.len());
    }

    #[test]
    fn straight_down_the_focal_prior_reaches_the_tags_sigma() {
        // Straight down, the corners cannot tell the focal length from the height:
        // only the prior (30% here) holds it, and a tag 800 mm from the point below the
        // camera moves by r h / Z times the focal length's relative error between the
        // base-top plane and the mat (800 * 3 / 1200 * 0.3 = 0.6 mm at one sigma).
        // The covariance must say so, whatever the corners' noise (0.05 px here): the
        // old covariance scaled the priors with the corners' variance and claimed
        // 0.12 mm for the 0.63 mm the prior alone allows.
        let (cam, tags) = truth_at(0.0);
        let (fid, fid_px) = fiducials(&cam);
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut noise = || {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            ((seed >> 11) as f64 / (1u64 << 53) as f64 - 0.5) * 0.17
        };
        let tag_px: Vec<[[f64; 2]; 4]> = tags
            .iter()
            .map(|t| {
                t.corners(12.0, 3.0)
                    .map(|p| cam.project(&p).unwrap())
                    .map(|q| [q[0] + noise(), q[1] + noise()])
            })
            .collect();
        let s = problem(&fid, &fid_px, &tag_px, cam.lens.fx).solve(cam, tags.clone()).unwrap();
        let below = Vec2::new(914.0, 610.0);
        let (far, cov) = tags
            .iter()
            .zip(&s.tag_model_cov)
            .max_by(|a, b| a.0.centre.distance(below).total_cmp(&b.0.centre.distance(below)))
            .unwrap();
        let r = far.centre.distance(below);
        let expected = r * 3.0 / 1200.0 * 0.3;
        let radial = (cov[(0, 0)] + cov[(1, 1)]).sqrt();
        assert!(
            radial > 0.8 * expected && radial < 1.5 * expected,
            "tag {r:.0} mm out: model sigma {radial:.3} mm, the focal prior alone {expected:.3} mm"
        );
    }

    /// The worst tag's error, mm, when the fiducials' corners read `fiducial_push` px
    /// outward and the tags' `tag_push` px, at 12° of tilt, from a start 5% off in focal
    /// length without distortion.
    fn worst_with_biases(fiducial_push: f64, tag_push: f64) -> f64 {
        let (cam, tags) = truth_at(12.0);
        let (fid, fid_px) = fiducials(&cam);
        let fid_px: Vec<[f64; 2]> = fid_px
            .chunks_exact(4)
            .flat_map(|q| pushed_out([q[0], q[1], q[2], q[3]], fiducial_push))
            .collect();
        let tag_px: Vec<[[f64; 2]; 4]> = tags
            .iter()
            .map(|t| pushed_out(t.corners(12.0, 3.0).map(|p| cam.project(&p).unwrap()), tag_push))
            .collect();
        let mut start = cam;
        start.lens.dist = [0.0; 5];
        start.lens.fx *= 1.05;
        start.lens.fy *= 1.05;
        let s = problem(&fid, &fid_px, &tag_px, start.lens.fx).solve(start, tags.clone()).unwrap();
        s.tags.iter().zip(&tags).map(|(a, b)| a.centre.distance(b.centre)).fold(0.0, f64::max)
    }

    #[test]
    fn fiducials_and_tags_read_small_alike_leave_the_table_its_scale() {
        // Every black square's corners read 0.4 px inside (the independent renderer's
        // gamma-encoded photos): the fiducials' bias, estimated on its own, keeps their
        // small squares from pulling the camera off: 0.115 mm here (the weak priors pull
        // both biases toward none), 0.95 mm with no fiducial bias.
        let worst = worst_with_biases(-0.4, -0.4);
        assert!(worst < 0.15, "worst tag {worst:.3} mm off");
    }

    #[test]
    fn fiducials_and_tags_biased_apart_leave_the_table_its_scale() {
        // The project's renders (linear photos): the fiducials read true, the tags 0.1
        // px inside (one cell of paper on a coloured base, blurred into the edge). A
        // bias shared by both would push the fiducials' squares in with the tags'.
        let worst = worst_with_biases(0.0, -0.1);
        assert!(worst < 0.1, "worst tag {worst:.3} mm off");
        // Biases of opposite signs: 0.156 mm here.
        let worst = worst_with_biases(0.3, -0.3);
        assert!(worst < 0.2, "worst tag {worst:.3} mm off (biases of opposite signs)");
    }

    #[test]
    fn tangential_distortion_is_asked_for_beyond_two_parameters_worth() {
        // 500 corners, robust cost 10 with it: variance 0.02 px², the bar 2 ln(1000) =
        // 13.8 in χ², a cost of 0.138 px².
        let bar = 0.02 * 2.0 * 1000.0_f64.ln() / 2.0;
        assert!(!asks_for_tangential(10.0, 10.0 + 0.98 * bar, 500.0));
        assert!(asks_for_tangential(10.0, 10.0 + 1.02 * bar, 500.0));
        // No better with it: never asked.
        assert!(!asks_for_tangential(10.0, 9.9, 500.0));
    }

    /// Corners of `tags` seen through `cam`, each moved by a fixed pseudo-random 0.1 px
    /// (the detector's noise).
    /// 5° from straight down, the corners of three tags in four stretched along the
    /// photo's radius (by 2% of their distance from the tag's centre per unit of
    /// squared normalized radius: figures at their margins, leaning out in the view):
    /// with every tag alike the lens bends and the tags move; with the stretched ones
    /// weighted down ([`Problem::tag_weights`]) the lens is the clear tags' and every
    /// tag, stretched or not, is placed where its own corners say.
    #[test]
    fn tags_weighted_down_do_not_bend_the_lens() {
        let (cam, tags) = truth_at(5.0);
        let (fid, fid_px) = fiducials(&cam);
        let clear = |i: usize| i.is_multiple_of(4);
        let tag_px: Vec<[[f64; 2]; 4]> = tags
            .iter()
            .enumerate()
            .map(|(i, t)| {
                let q = t.corners(12.0, 3.0).map(|p| cam.project(&p).unwrap());
                if clear(i) {
                    return q;
                }
                let c = centroid(&q);
                let e = [c[0] - cam.lens.cx, c[1] - cam.lens.cy];
                let r = e[0].hypot(e[1]);
                let (e, r2) = ([e[0] / r, e[1] / r], cam.lens.radius2(&q));
                q.map(|p| {
                    let along = (p[0] - c[0]) * e[0] + (p[1] - c[1]) * e[1];
                    [p[0] + 0.02 * r2 * along * e[0], p[1] + 0.02 * r2 * along * e[1]]
                })
            })
            .collect();
        let weights: Vec<f64> = (0..tags.len()).map(|i| if clear(i) { 1.0 } else { 0.02 }).collect();
        let alike = problem(&fid, &fid_px, &tag_px, 2900.0);
        let weighted = Problem { tag_weights: &weights, ..alike };
        let worst = |s: &Solution| {
            s.tags.iter().zip(&tags).map(|(a, b)| a.centre.distance(b.centre)).fold(0.0, f64::max)
        };
        let a = alike.solve(cam, tags.clone()).unwrap();
        let w = weighted.solve(cam, tags.clone()).unwrap();
        assert!(
            worst(&a) > 0.5 && (a.camera.lens.dist[0] - 0.04).abs() > 0.005,
            "alike: {:?}",
            a.camera.lens
        );
        assert!(worst(&w) < 0.05, "weighted: worst tag {:.3} mm off", worst(&w));
        assert!(
            (w.camera.lens.fx - 2900.0).abs() < 2.0 && (w.camera.lens.dist[0] - 0.04).abs() < 1e-3,
            "{:?}",
            w.camera.lens
        );
    }

    fn noisy_corners(cam: &Camera, tags: &[TagState]) -> Vec<[[f64; 2]; 4]> {
        tags.iter()
            .enumerate()
            .map(|(i, t)| {
                let mut k = 0;
                t.corners(12.0, 3.0).map(|p| {
                    k += 1;
                    let q = cam.project(&p).unwrap();
                    let u = ((i * 37 + k * 11) % 17) as f64 / 8.0 - 1.0;
                    let v = ((i * 23 + k * 29) % 13) as f64 / 6.0 - 1.0;
                    [q[0] + 0.1 * u, q[1] + 0.1 * v]
                })
            })
            .collect()
    }

    #[test]
    fn tangential_distortion_is_adjusted_only_where_the_corners_ask_for_it() {
        for (p1, p2, asked) in [(0.0, 0.0, false), (0.001, -0.0005, true)] {
            let (mut cam, tags) = truth();
            cam.lens.dist[2] = p1;
            cam.lens.dist[3] = p2;
            let (fid, fid_px) = fiducials(&cam);
            let tag_px = noisy_corners(&cam, &tags);
            let mut start = cam;
            start.lens.dist = [0.0; 5];
            let p = problem(&fid, &fid_px, &tag_px, cam.lens.fx);
            let free = p.solve(start, tags.clone()).unwrap();
            let chosen = p.solve_choosing_tangential(start, tags.clone()).unwrap();
            let [_, _, q1, q2, _] = chosen.camera.lens.dist;
            if asked {
                assert!((q1 - p1).abs() < 1e-4 && (q2 - p2).abs() < 1e-4, "{:?}", chosen.camera.lens);
                assert_eq!(chosen.camera, free.camera);
            } else {
                // Free, the noise alone gives p1 and p2 of their own; held, none.
                assert!(free.camera.lens.dist[2] != 0.0, "{:?}", free.camera.lens);
                assert_eq!((q1, q2), (0.0, 0.0), "{:?}", chosen.camera.lens);
                // Each tag's sigma holds where the free lens would put it.
                for ((a, b), cov) in chosen.tags.iter().zip(&free.tags).zip(&chosen.tag_model_cov) {
                    let sigma = (0.5 * (cov[(0, 0)] + cov[(1, 1)])).sqrt();
                    assert!(a.centre.distance(b.centre) <= 2.0 * sigma + 1e-9, "{a:?} {b:?} {sigma}");
                }
                for (a, t) in chosen.tags.iter().zip(&tags) {
                    assert!(a.centre.distance(t.centre) < 0.1, "{a:?} {t:?}");
                }
            }
        }
    }
}
