//! Shadows on the mat (issue 37): which pixels of the surface are the mat in full
//! light, which the mat in shadow.
//!
//! A lamp casts each base's and its figures' shadow on one side: a band of the mat's
//! own hue, darker, beyond the edges that face away from it (hard-edged where many
//! figures' shadows overlap). Against it a dark base's true edge is dark on dark,
//! while the shadow's outer edge against the lit mat is the straightest step there
//! is, and a formation slid onto it scored best. That edge is told apart by what
//! stands on either side of it: the mat in shadow inside, the lit mat outside; a base
//! edge has flock or figures inside (the template's score, [`super::template`]). The
//! test needs no light direction, so it holds under any lamp and any number of them.
//!
//! A pixel is *lit mat* when its channels are the mat's (learned around it by the
//! surface) darkened or brightened alike, to at least [`SHADE_MAX`] of it; *shade*
//! when darkened alike to between [`SHADE_MIN`] and [`SHADE_MAX`]; anything else
//! (bases, figures, terrain, cubes) is *other*.

use super::surface::COARSE_PX_PER_MM;
use vedette_geometry::Vec2;

/// A pixel of the mat's hue is shade when it is less than this share as bright as the
/// mat around it, lit mat from it up (the mat's own grain and the soft halo of ambient
/// occlusion round every object stay above it; a cast shadow's core does not) ...
const SHADE_MAX: f64 = 0.7;
/// ... and shade when at least this share (a hard shadow where several figures'
/// overlap can take three quarters of the light; darker is not the mat) ...
const SHADE_MIN: f64 = 0.15;
/// ... and its three channels are darkened alike, to within this (the mat's hue).
const SHADE_HUE: f64 = 0.15;

/// A pixel `p` against the mat `m` (both BGR): its brightness as a share of the
/// mat's (the mean over its channels), and whether it is of the mat's hue (its three
/// channels scaled alike, to within [`SHADE_HUE`]).
fn against_mat(p: [u8; 3], m: [u8; 3]) -> (f64, bool) {
    let k: [f64; 3] = std::array::from_fn(|c| (f64::from(p[c]) + 1.0) / (f64::from(m[c]) + 1.0));
    let mean = (k[0] + k[1] + k[2]) / 3.0;
    let spread = k.iter().map(|x| (x - mean).abs()).fold(0.0, f64::max);
    (mean, spread <= SHADE_HUE)
}

/// Whether `p` is the mat `m` in shadow (both BGR), darkened at its own hue to
/// between [`SHADE_MIN`] and `max` of it: [`Class::Shade`] with `max` for
/// [`SHADE_MAX`].
pub(crate) fn darkened_mat(p: [u8; 3], m: [u8; 3], max: f64) -> bool {
    let (mean, mat_like) = against_mat(p, m);
    mat_like && (SHADE_MIN..max).contains(&mean)
}

/// What a pixel of the surface shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Class {
    /// The mat in full light.
    Lit,
    /// The mat in shadow.
    Shade,
    /// Anything else: bases, figures, terrain, cubes.
    Other,
}

/// The surface's pixels classed.
#[derive(Debug, Clone)]
pub(crate) struct Shade {
    /// Per pixel of the surface, row by row.
    classes: Vec<Class>,
    w: usize,
    h: usize,
    /// Table mm of the surface's pixel (0, 0)'s corner.
    origin: Vec2,
}

impl Shade {
    /// Classes the surface's pixels: `bgr` the surface, `mat` the mat's colour learned
    /// around each pixel (both BGR), `differs` whether a pixel differs from the mat
    /// in colour or fine contrast. Lit mat brighter than the mat by more than the
    /// shade's margin is lit only where it does not differ from it. Neither needs to
    /// be flat: a hard shadow's rim is steep.
    pub(crate) fn classify(
        bgr: &[[u8; 3]],
        mat: &[[u8; 3]],
        differs: &[bool],
        (w, h): (usize, usize),
        origin: Vec2,
    ) -> Shade {
        let classes = (0..w * h)
            .map(|i| {
                let (mean, mat_like) = against_mat(bgr[i], mat[i]);
                if mat_like && mean >= SHADE_MAX && (mean < 1.0 / SHADE_MAX || !differs[i]) {
                    Class::Lit
                } else if mat_like && (SHADE_MIN..SHADE_MAX).contains(&mean) {
                    Class::Shade
                } else {
                    Class::Other
                }
            })
            .collect();
        Shade { classes, w, h, origin }
    }

    /// The class of the surface's pixel at table point `p` (`Other` off the surface).
    pub(crate) fn at(&self, p: Vec2) -> Class {
        let (x, y) = ((p.x - self.origin.x) * COARSE_PX_PER_MM, (p.y - self.origin.y) * COARSE_PX_PER_MM);
        if x < 0.0 || y < 0.0 || x as usize >= self.w || y as usize >= self.h {
            return Class::Other;
        }
        self.classes[y as usize * self.w + x as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pixels_are_classed_by_brightness_and_hue_against_the_mat() {
        let mat = [[60u8, 100, 140]; 6];
        // The mat itself; darkened alike to 0.7 of it (the edge: lit) and to 0.6
        // (shade) and 0.2 (a hard shadow's core); another hue; far too dark.
        let bgr = [[60u8, 100, 140], [42, 70, 98], [36, 60, 84], [12, 20, 28], [20, 100, 140], [3, 5, 7]];
        let differs = [false, true, true, true, true, true];
        let s = Shade::classify(&bgr, &mat, &differs, (6, 1), Vec2::ZERO);
        assert_eq!(
            s.classes,
            vec![Class::Lit, Class::Lit, Class::Shade, Class::Shade, Class::Other, Class::Other]
        );
        assert_eq!(s.at(Vec2::new(2.5, 0.5)), Class::Shade);
        assert_eq!(s.at(Vec2::new(-0.5, 0.5)), Class::Other);
        // Brighter than the mat alike: lit only where it does not differ from it.
        let s = Shade::classify(&[[90, 150, 210]; 2], &mat[..2], &[false, true], (2, 1), Vec2::ZERO);
        assert_eq!(s.classes, vec![Class::Lit, Class::Other]);
        // Against an exact mat a lighter shadow counts: 0.85 of it is one below 0.92,
        // not below 0.7; another hue never is.
        assert!(darkened_mat([51, 85, 119], mat[0], 0.92));
        assert!(!darkened_mat([51, 85, 119], mat[0], SHADE_MAX));
        assert!(darkened_mat([36, 60, 84], mat[0], SHADE_MAX));
        assert!(!darkened_mat([20, 100, 140], mat[0], 0.92));
        assert!(!darkened_mat([3, 5, 7], mat[0], 0.92));
    }
}
