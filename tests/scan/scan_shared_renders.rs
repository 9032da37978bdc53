//! The scanner on the second renderer's photos (issue 36): every tagged photo of
//! `../shared/renders/` (beside the repository; `VEDETTE_SHARED_RENDERS` names another
//! folder) scanned with its camera file and without, against its truth
//! (`tests/common/renders.rs`). Passes as skipped, saying so, when the folder is absent.
//!
//! Held here: the targets that the scanner meets on these photos, and for the
//! ones it does not yet meet (see BENCHMARKS.md, "Shared renders") the figures it
//! reaches today, so that they cannot silently get worse. The profile declares the
//! terrain as the bench does (colours measured on each photo, felt 2 mm thick): bases
//! standing on felt are measured on its top. The terrain itself is scored by the bench
//! (`benches/scan_shared.rs`), not here.

use crate::common;

use common::renders::{RendererScore, pairs, score, score_pair, shared_renders};
use vedette_vision::{merge_scans, scan};

#[test]
fn shared_renders_scan_with_and_without_a_camera_file() {
    let renders = shared_renders("tagged");
    if renders.is_empty() {
        println!(
            "SKIPPED: no shared renders at ../shared/renders (or ${}): nothing to hold the scanner to",
            common::renders::RENDERS_ENV
        );
        return;
    }
    let mut by_path = [RendererScore::default(), RendererScore::default()];
    let mut scans = Vec::new();
    for r in &renders {
        let photo = r.photo();
        let (profile, roster, k) = (r.terrain_profile(&photo, true), r.roster(), r.intrinsics());
        let mut pair = Vec::new();
        for (m, camera) in [Some(&k), None].into_iter().enumerate() {
            let result = scan(&photo, &profile, Some(&roster), camera).map_err(|e| e.to_string());
            let s = score(r, &result, false);
            println!(
                "{} ({}): {}",
                r.name,
                if m == 0 { "camera file" } else { "no camera file" },
                match &s.refused {
                    Some(e) => format!("REFUSED: {e}"),
                    None => format!(
                        "{}/{} bases, centre median {:.3} / p95 {:.3} mm, within 2.45 sigma {:.1}%, visible tags {}/{} (missed {:?}), cubes {}/{} ({} invented)",
                        s.correct,
                        s.truth_bases,
                        common::truth::quantile(&s.centre_mm, 0.5),
                        common::truth::quantile(&s.centre_mm, 0.95),
                        100.0 * s.error_over_sigma.iter().filter(|r| **r <= 2.45).count() as f64
                            / s.error_over_sigma.len().max(1) as f64,
                        s.visible_read,
                        s.visible_tags,
                        s.visible_missed,
                        s.cubes.found,
                        s.cubes.truth,
                        s.cubes.invented
                    ),
                }
            );
            by_path[m].add(&s);
            pair.push(result.ok());
        }
        scans.push(pair);
    }
    for (i, j) in pairs(&renders) {
        for m in 0..2 {
            let (Some(a), Some(b)) = (&scans[i][m], &scans[j][m]) else { continue };
            let merged =
                merge_scans(&[a.clone(), b.clone()], &renders[i].profile(), Some(&renders[i].roster()));
            by_path[m].add_pair(&score_pair(&renders[i], &renders[j], &merged.table));
        }
    }
    println!("{}", RendererScore::header());
    println!("{}", by_path[0].row("shared, camera file"));
    println!("{}", by_path[1].row("shared, no camera file"));
    for (m, s) in by_path.iter().enumerate() {
        println!(
            "{}: {} bases placed by their formation, right; centres {:.2} / {:.2} mm median / p95",
            ["camera file", "no camera file"][m],
            s.inferred_mm.len(),
            common::truth::quantile(&s.inferred_mm, 0.5),
            common::truth::quantile(&s.inferred_mm, 0.95)
        );
    }

    for (m, s) in by_path.iter().enumerate() {
        let path = ["camera file", "no camera file"][m];
        // Issue targets met: every photo accepted (without a camera file too: the
        // calibrated path accepts them all), precision 100%, two photos from opposite
        // edges at least 99% of bases.
        assert_eq!(s.accepted, s.photos, "{path}: refused {:?}", s.refusals);
        assert!(s.precision() >= 1.0 - 1e-12, "{path}: precision {:.4}", s.precision());
        assert!(s.pair_recall() >= 0.99, "{path}: two photos {}/{}", s.pair_correct, s.pair_truth);
        // Two photos merge their cubes (each cube once) and link them on the merged
        // table: the cubes one photo missed and those of units it did not find are had
        // (issue 36's cube targets: 99% found, 98% of units; 56 of 56 each).
        let c = &s.pair_cubes;
        if s.pair_truth > 0 {
            assert!(100 * c.found >= 99 * c.truth, "{path}: two photos' cubes found {}/{}", c.found, c.truth);
            assert!(
                100 * c.unit_right >= 98 * c.found,
                "{path}: two photos' cube units {}/{}",
                c.unit_right,
                c.found
            );
            assert_eq!(c.unit_wrong, 0, "{path}: two photos' cubes linked wrong");
            assert_eq!(s.pair_merged_cubes, c.found + c.invented, "{path}: a cube twice in a merged table");
        }
    }
    // With the camera file: the centre targets.
    let cal = &by_path[0];
    assert!(
        cal.median_mm() <= 0.2 && cal.p95_mm() <= 0.6,
        "camera file: {:.3} / {:.3} mm",
        cal.median_mm(),
        cal.p95_mm()
    );
    // The sigma coverage, 90-99.5% within 2.45 sigma, on both paths: 95.6% with
    // the camera file and 97.1% without since the profile declares the renderer's
    // exact base heights (99.7% and 100% with a player's 0.3 mm of spread, which these
    // bases do not have: the sigmas were then 3-5 times the errors of most photos).
    let selfcal = &by_path[1];
    for (path, s) in [("camera file", cal), ("no camera file", selfcal)] {
        let coverage = s.sigma_coverage();
        assert!((0.9..=0.995).contains(&coverage), "{path}: 2.45 sigma {coverage:.3}");
    }
    // The centre targets (0.254 / 0.589 mm before tangential distortion was
    // held where the corners do not ask for it, 0.134 / 0.439 since).
    assert!(
        selfcal.median_mm() <= 0.2 && selfcal.p95_mm() <= 0.6,
        "no camera file: {:.3} / {:.3} mm",
        selfcal.median_mm(),
        selfcal.p95_mm()
    );
    // Cubes (issue 36 asks 99%): 110-111 of 158 found since their colours are judged
    // against the photo's paper and ink in linear light, under the light and at the
    // saturation that bring each reference nearest (54-56 before), 121 since red and
    // yellow tops that catch the lamp are judged with its light taken off, 136-139
    // since rows of cubes a little apart are split beside figures too, each top shown
    // whole, and a single cube may show more of its sides and shadow, 142-143 since a
    // black top is any grey up to a tenth of the paper's light (black tops there read
    // 20-71 after the correction, the default black is 18), 152-153 since a top under
    // a lamp's pool may take up to the pool's light over the paper's and a row seen
    // obliquely is split on its tops, its sides' parallax taken off, 154-155 since
    // the colours' encoding is read with each encoding's own fiducial corners
    // (tagged-301 read sRGB, as POV-Ray wrote it: au-15's three black tops found,
    // fr-10's black lost, its blob taking in the dark beside it), 157 since a white
    // top lit over the paper (clipped) is labelled white against the paper, and a cube
    // seen obliquely whose blob lies within its top swept by its sides is taken at a
    // lower fill (tagged-304's two whites, tagged-303-far's red of fr-5): the issue's
    // 99%. Left: fr-10's black (a cube wide, 2.4 sides long with a figure's dark coat
    // on the base beside it). Today's figure as a floor.
    // Invented: 1 black cube (3-4 before: black cubes with their sides and
    // shadow were split into two). Their units (issue 36 asks 98%): 112-113 of 121
    // found since a cube needs another unit within 3 mm, not 1.5 times its distance
    // plus 5 mm, to be left unlinked, and a row is linked as one (81 of 110 before);
    // 146 of 157 when every cube still linked wrongly or not at all belonged to
    // a unit the scan did not find (tagged-304's au-2, au-3, au-7, au-10;
    // tagged-303-far's fr-3); 150 since a tagged unit none of whose tags is read is
    // fitted to its bases' edges (au-2 and fr-3 found; au-3 and au-7 are twins, au-10
    // stands where a unit found in part may have its unread bases). Bases placed by their formation where the photo shows
    // them stand on the ground their figures cover, as found bases do: a cube touching
    // one is not looked for there. Every cube of a unit found gets its unit (the 11
    // others, 7% of the 157 found, are the whole unit-right gap: in one photo the
    // target waits on those units' tags; two photos from opposite edges give every
    // cube its unit, asserted above); none
    // is linked to a wrong unit since a cube farther than an inch from every unit
    // found, while a roster unit was not found, is left unlinked (4 were linked to the
    // next unit found, 40-55 mm away: tagged-303-far's fr-3 to fr-17, tagged-304's
    // au-3 to au-19). The invented black is tagged-302's pair of fr-13 read as a row
    // of three, its third top 7.4 mm off the true one.
    for (m, s) in by_path.iter().enumerate() {
        assert!(
            s.cubes.found >= 157
                && s.cubes.unit_right >= 150
                && s.cubes.unit_right + s.cubes.unit_unfound == s.cubes.found
                && s.cubes.unit_wrong == 0
                && s.cubes.invented <= 1,
            "{}: cubes found {}/{}, their units right {}, wrong {}, not found {}, invented {}",
            ["camera file", "no camera file"][m],
            s.cubes.found,
            s.cubes.truth,
            s.cubes.unit_right,
            s.cubes.unit_wrong,
            s.cubes.unit_unfound,
            s.cubes.invented
        );
    }
    // One photo's bases (issue 36 asks 99% of tags at least 90% visible, asserted
    // below; all bases are what a player sees): 684-686 of 730 by tags and formation,
    // 696-698 since a tagged unit none of whose tags is read is fitted to its bases'
    // edges (tagged-304's au-2 and au-14, tagged-303-far's fr-3; every fitted base
    // right). Today's figures as floors.
    for (m, s) in by_path.iter().enumerate() {
        assert!(
            s.correct >= [698, 696][m],
            "{}: one photo's bases {}/{}",
            ["camera file", "no camera file"][m],
            s.correct,
            s.truth_bases
        );
    }
    // Line of sight (issue 36 asks 99%): 98.1% / 98.0% before a unit's bases whose tags
    // are hidden were placed where the photo shows them beside its found ones
    // (`infer_seen`), 98.8% / 98.7% since, 99.0% / 98.9% since squares read as no tag
    // are measured by the codes no square read; most pairs still differing involve a
    // unit the scan did not find whole.
    for (m, s) in by_path.iter().enumerate() {
        assert!(
            s.sight.rate() >= 0.988,
            "{}: line of sight {:.4}",
            ["camera file", "no camera file"][m],
            s.sight.rate()
        );
    }
    // Tags at least 90% visible (issue 36 asks 99%): 98.8-99.0% since a tag whose id
    // reads cleanly but whose edges figures hide is measured by its code, 99.5-99.7%
    // since a square that reads as no tag is screened against the roster's ids no
    // square read and measured by the code it screens best with (`measure_unread`).
    for (m, s) in by_path.iter().enumerate() {
        assert!(
            s.visible_rate() >= 0.99,
            "{}: visible tags read {:.3}",
            ["camera file", "no camera file"][m],
            s.visible_rate()
        );
    }
}
