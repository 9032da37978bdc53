//! Several photos, one table (issue 18): each photo is scanned on its own (its own
//! fiducials, its own camera), and the bases are merged in the table frame.
//!
//! A tag seen in several photos becomes one base at the mean of its places weighted by
//! their uncertainty (`1 / sigma_mm²`), with the combined `sigma_mm`. Places that
//! disagree beyond their joint uncertainty ([`CONFLICT_SIGMAS`] standard deviations of
//! the difference, at least [`CONFLICT_FLOOR_MM`]) are a conflict: reported with every
//! place and the photos, and the base is left out, never guessed. Bases inferred from
//! their formation in one photo are not carried over; inference runs again on the
//! merged bases, so a base seen in the other photo is measured, not inferred.
//!
//! The units no photo found by their tags (untagged units, and tagged ones none of
//! whose tags any photo read) are merged place first ([`crate::fitting::merge_units`]):
//! the photos' fitted formations are matched to one another by place (one layout,
//! within their joint uncertainty, as a tag's sightings are combined), then units are
//! given to the merged places. A place both photos gave one unit is that unit's; a
//! place they gave two twins (one side, kind and layout: the photos cannot tell them
//! apart) is one place, given as one photo would (to the unit of the photo surer of it,
//! by `sigma_mm`) and said `ambiguous-unit` with the twin, so that twins the photos
//! swapped are both placed, each on one of their places; a place one photo found is
//! kept. Never two units on one place, never a unit twice: a unit a photo put on a
//! place that went to no twin of it is `conflicting-unit` (left out, with each photo's
//! place no merged unit stands on); one all of whose places went to twins is
//! `missing-unit`. A merged base's `sigma_mm` is its place's sightings combined (the
//! inverse-variance mean over every photo that saw the place, whichever unit each
//! named); a place one photo saw keeps that photo's. What a photo said of its
//! formation (that it fits a twin as well, that its tags were not read) is said once
//! of the merged unit.
//!
//! Marker cubes are merged too ([`merged_markers`]): a cube of one colour that several
//! photos found within half a cube's side of each other is one cube, at the mean of
//! their places; a cube only one photo found is kept (the second photo is there to see
//! what the first could not); each is linked to its unit on the merged table, by the
//! rule one photo's cubes are linked by.

use crate::cubes::{self, FoundCube};
use crate::fitting::MergedUnit;
use crate::infer::infer_bases;
use crate::profile::Profile;
use crate::roster::Roster;
use crate::scan::{Scan, ScanIssue};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::time::Instant;
use vedette_geometry::{Base, BaseMeta, BaseSize, Facing, Marker, Pose, Table, Unit, UnitKind, Vec2};

/// Places of one tag further apart than this many standard deviations of their
/// difference are a conflict.
pub const CONFLICT_SIGMAS: f64 = 4.0;
/// ... and at least this far apart, mm: a photo's sigma leaves out errors the photos
/// share (the printed tag's size, the height of base tops), so two places closer than
/// this never conflict.
pub const CONFLICT_FLOOR_MM: f64 = 1.0;
/// Headings of one tag differing by more than [`CONFLICT_SIGMAS`] standard deviations
/// and at least this many degrees are a conflict (a base turned between the photos).
/// A tag with figures against it shows only part of its border, and its heading
/// sigma is optimistic: two photos of unmoved crowded bases differed by up to 3.7°
/// (`benches/scan_two_photos.rs`), so turns under 5° are merged, not conflicts.
pub const CONFLICT_FLOOR_DEG: f64 = 5.0;

/// Cubes of one colour that two photos found nearer than this many cube sides apart
/// are one cube. Two cubes of one colour are at least a side apart (they touch at the
/// closest), and a found cube's centre is within 0.9 mm of the truth at p95 (the
/// second renderer's photos, issue 36): half a side lies between the two.
pub const SAME_CUBE_SIDES: f64 = 0.5;

/// The merged table and what the merge saw.
#[derive(Debug, Clone)]
pub struct MergedScan {
    /// The table: every base seen in any photo (or inferred from its unit).
    pub table: Table,
    /// Which photos saw each base, conflicts, missing tags.
    pub report: MergeReport,
}

/// What merging several photos reports beside each photo's own scan report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MergeReport {
    /// Bases in the merged table.
    pub bases: usize,
    /// For every tag in the table, the photos (0-based, in the order given) that saw it
    /// (empty for an inferred base).
    pub seen_by: Vec<SeenBy>,
    /// Conflicts, tags not seen in any photo, bases inferred, unknown tags.
    pub issues: Vec<ScanIssue>,
    /// Time spent merging, ms (the scans themselves not included).
    pub merge_ms: f64,
}

/// Which photos saw a tag.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SeenBy {
    /// The tag id.
    pub tag: u32,
    /// The photos, by index.
    pub photos: Vec<usize>,
}

/// One photo's sighting of a tag (or of a fitted base): its base and where it came from.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Sighting {
    /// The photo, by index.
    pub(crate) photo: usize,
    /// The base as that photo's scan measured it.
    pub(crate) base: Base,
}

/// Merges the scans of several photos of one table (each already solved on its own).
#[must_use]
pub fn merge_scans(scans: &[Scan], profile: &Profile, roster: Option<&Roster>) -> MergedScan {
    let start = Instant::now();
    // A tag seen twice in one photo is left out of that photo's table; which copy is
    // real is unknown, so it is left out of the merge too, even if another photo saw
    // it once.
    let mut duplicates: BTreeMap<u32, Vec<[f64; 2]>> = BTreeMap::new();
    for s in scans {
        for i in &s.report.issues {
            if let ScanIssue::DuplicateTag { id, at_mm } = i {
                duplicates.entry(*id).or_default().extend(at_mm.iter().copied());
            }
        }
    }
    let mut by_tag: BTreeMap<u32, Vec<Sighting>> = BTreeMap::new();
    // Bases each photo placed by their formation (issue 36: those it showed beside a
    // unit's found bases), for the slots the merge neither finds nor infers.
    let mut placed_by_photo: BTreeMap<u32, Vec<Sighting>> = BTreeMap::new();
    for (photo, s) in scans.iter().enumerate() {
        for (_, b) in s.table.bases() {
            match b.meta().tag {
                Some(tag) if !b.meta().inferred => {
                    by_tag.entry(tag).or_default().push(Sighting { photo, base: *b })
                }
                Some(tag) => placed_by_photo.entry(tag).or_default().push(Sighting { photo, base: *b }),
                None => {}
            }
        }
    }
    let mut issues: Vec<ScanIssue> =
        duplicates.iter().map(|(&id, at_mm)| ScanIssue::DuplicateTag { id, at_mm: at_mm.clone() }).collect();
    let mut merged: BTreeMap<u32, (Base, Vec<usize>)> = BTreeMap::new();
    for (&tag, sightings) in by_tag.iter().filter(|(t, _)| !duplicates.contains_key(t)) {
        match combine(sightings) {
            Ok(base) => {
                let mut photos: Vec<usize> = sightings.iter().map(|s| s.photo).collect();
                photos.dedup();
                merged.insert(tag, (base, photos));
            }
            Err(()) => issues.push(ScanIssue::ConflictingTag {
                id: tag,
                at_mm: sightings.iter().map(|s| [s.base.centre().x, s.base.centre().y]).collect(),
                photos: sightings.iter().map(|s| s.photo).collect(),
            }),
        }
    }
    let mut units = Vec::new();
    let mut seen_by: Vec<SeenBy> = Vec::new();
    match roster {
        Some(r) => {
            let mut found: BTreeMap<usize, Vec<(usize, Base)>> = BTreeMap::new();
            for (&tag, (base, photos)) in &merged {
                if let Some(e) = r.lookup(tag) {
                    found.entry(e.unit).or_default().push((e.base, *base));
                    seen_by.push(SeenBy { tag, photos: photos.clone() });
                }
            }
            // Left out tags (conflicting, duplicated) are never guessed from the
            // formation either.
            let left_out_ids: BTreeSet<u32> = duplicates
                .keys()
                .copied()
                .chain(issues.iter().filter_map(|i| match i {
                    ScanIssue::ConflictingTag { id, .. } => Some(*id),
                    _ => None,
                }))
                .collect();
            let left_out = |tag: u32| left_out_ids.contains(&tag);
            let mut inferred = infer_bases(r, &found, None);
            // The units no photo found by their tags (untagged, issue 37; or tagged with
            // none of their tags read, fitted as untagged units: issue 36): the photos'
            // fitted formations merged by place, then given to units.
            let mut by_place = crate::fitting::merge_units(scans, r, |ui| {
                !(r.units[ui].is_tagged() && found.contains_key(&ui))
            });
            for (ui, u) in r.units.iter().enumerate() {
                if !(u.is_tagged() && found.contains_key(&ui)) {
                    match by_place.remove(&ui) {
                        Some(MergedUnit::Placed { bases, others }) => {
                            if u.is_tagged() {
                                issues.push(ScanIssue::TagsNotRead {
                                    unit: u.id.clone(),
                                    tags: u.tags.clone(),
                                });
                            }
                            issues.extend(crate::fitting::ambiguous_over(
                                scans.iter().flat_map(|s| &s.report.issues),
                                &u.id,
                                &bases,
                                &others,
                            ));
                            if bases.iter().any(|b| b.meta().facing == Some(Facing::Assumed)) {
                                issues.push(ScanIssue::AssumedFacing { unit: u.id.clone() });
                            }
                            units.push(u.to_unit(bases));
                            continue;
                        }
                        // A tagged unit no photo fitted either: missing by its tags, below.
                        None if u.is_tagged() => {}
                        None => {
                            issues.push(crate::fitting::missing_everywhere(u, scans));
                            continue;
                        }
                        Some(MergedUnit::LeftOut(issue)) => {
                            issues.push(*issue);
                            if !u.is_tagged() {
                                continue;
                            }
                        }
                    }
                }
                let mut bases = found.remove(&ui).unwrap_or_default();
                let mut placed: Vec<(usize, Base)> = inferred
                    .remove(&ui)
                    .unwrap_or_default()
                    .into_iter()
                    .filter(|(bi, _)| u.tags.get(*bi).is_some_and(|&t| !left_out(t)))
                    .collect();
                // A slot still empty: the placing of the photo most sure of it, when
                // it stands clear of the bases the merge has.
                for (bi, &tag) in u.tags.iter().enumerate() {
                    if left_out(tag) || bases.iter().chain(&placed).any(|(i, _)| *i == bi) {
                        continue;
                    }
                    let sure = |s: &&Sighting| s.base.meta().sigma_mm.unwrap_or(f64::INFINITY);
                    let Some(best) = placed_by_photo
                        .get(&tag)
                        .and_then(|v| v.iter().min_by(|a, b| sure(a).total_cmp(&sure(b))))
                    else {
                        continue;
                    };
                    let b = best.base;
                    let others = merged.values().map(|(m, _)| m).chain(placed.iter().map(|(_, p)| p));
                    if crate::infer::stands_clear(&b, others) {
                        placed.push((bi, b));
                    }
                }
                for (bi, b) in placed {
                    issues.push(ScanIssue::InferredBase {
                        id: u.tags[bi],
                        unit: u.id.clone(),
                        base: bi,
                        at_mm: [b.centre().x, b.centre().y],
                        sigma_mm: b.meta().sigma_mm.unwrap_or(0.0),
                    });
                    seen_by.push(SeenBy { tag: u.tags[bi], photos: Vec::new() });
                    bases.push((bi, b));
                }
                bases.sort_by_key(|(i, _)| *i);
                for (bi, &tag) in u.tags.iter().enumerate() {
                    if !left_out(tag) && !bases.iter().any(|(i, _)| *i == bi) {
                        issues.push(ScanIssue::MissingTag { id: tag, unit: u.id.clone(), base: bi });
                    }
                }
                if !bases.is_empty() {
                    units.push(u.to_unit(crate::scan::number_by_roster(bases)));
                }
            }
            crate::scan::drop_missing_parents(&mut units, &mut issues);
        }
        None => {
            if !merged.is_empty() {
                issues.push(ScanIssue::NoRoster { tags: merged.len() });
            }
            for (&tag, (base, photos)) in &merged {
                let [w, d] = profile.bases.default_size_mm;
                let b = Base::new(BaseSize::new(w, d), Pose::new(base.centre(), base.heading_deg()))
                    .with_meta(base.meta());
                units.push(Unit::new(format!("tag-{tag}"), "unassigned", UnitKind::Infantry, vec![b]));
                seen_by.push(SeenBy { tag, photos: photos.clone() });
            }
        }
    }
    seen_by.sort_by_key(|s| s.tag);
    let mut table = crate::scan::scanned_table(profile, roster, units);
    let (markers, marker_issues) = merged_markers(scans, &table, profile, roster);
    table.markers = markers;
    issues.extend(marker_issues);
    let report = MergeReport {
        bases: table.base_count(),
        seen_by,
        issues,
        merge_ms: start.elapsed().as_secs_f64() * 1e3,
    };
    MergedScan { table, report }
}

/// The marker cubes of several photos on the merged `table`: the cubes each photo found,
/// one cube where photos found one colour within [`SAME_CUBE_SIDES`] of each other (at
/// the mean of their places; each photo's cubes paired with the cubes so far nearest
/// first, one of each photo to a cube), each linked to its unit on `table` as one
/// photo's are ([`cubes::link_cubes`]), with the issues a link raises. Markers without
/// a colour (none a scan finds) are the first photo's.
pub(crate) fn merged_markers(
    scans: &[Scan],
    table: &Table,
    profile: &Profile,
    roster: Option<&Roster>,
) -> (Vec<Marker>, Vec<ScanIssue>) {
    let size = profile.markers.size_mm;
    // Each merged cube: what it is and its sightings' centres.
    let mut cubes: Vec<(FoundCube, Vec<Vec2>)> = Vec::new();
    for s in scans {
        let found: Vec<FoundCube> = s
            .table
            .markers
            .iter()
            .filter_map(|m| {
                m.colour.map(|colour| FoundCube {
                    kind: m.kind,
                    colour,
                    centre: Vec2::new(m.x, m.y),
                    colour_distance: 0.0,
                })
            })
            .collect();
        let before = cubes.len();
        let mut pairs: Vec<(f64, usize, usize)> = Vec::new();
        for (i, (c, _)) in cubes.iter().enumerate() {
            for (j, f) in found.iter().enumerate() {
                let d = c.centre.distance(f.centre);
                if c.kind == f.kind && c.colour == f.colour && d < SAME_CUBE_SIDES * size {
                    pairs.push((d, i, j));
                }
            }
        }
        pairs.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
        let (mut cube_taken, mut found_taken) = (vec![false; before], vec![false; found.len()]);
        for (_, i, j) in pairs {
            if cube_taken[i] || found_taken[j] {
                continue;
            }
            cube_taken[i] = true;
            found_taken[j] = true;
            let (c, seen) = &mut cubes[i];
            seen.push(found[j].centre);
            let n = seen.len() as f64;
            c.centre = seen.iter().fold(Vec2::new(0.0, 0.0), |a, &p| a + p) * (1.0 / n);
        }
        for (f, taken) in found.into_iter().zip(found_taken) {
            if !taken {
                let at = f.centre;
                cubes.push((f, vec![at]));
            }
        }
    }
    let found: Vec<FoundCube> = cubes.into_iter().map(|(c, _)| c).collect();
    let unfound: Vec<String> =
        roster.map(|r| r.not_on(table).map(|u| u.id.clone()).collect()).unwrap_or_default();
    let links = cubes::link_cubes(table, &found, profile.markers.link_reach_mm, size, &unfound);
    let mut issues = Vec::new();
    let mut markers: Vec<Marker> = Vec::with_capacity(found.len());
    for (cube, link) in found.iter().zip(&links) {
        issues.extend(crate::surface::link_issue(cube, link));
        markers.push(cubes::to_marker(cube, link, size));
    }
    if let Some(first) = scans.first() {
        markers.extend(first.table.markers.iter().filter(|m| m.colour.is_none()).cloned());
    }
    (markers, issues)
}

/// Two photos of one table must agree on at least this many of the tags both read
/// (when each read this many): fewer, and they are not photos of one table.
pub const MIN_SHARED_TAGS: usize = 3;

/// How two photos' readings of the tags both read compare.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct PhotoAgreement {
    /// The first photo (0-based).
    pub first: usize,
    /// The other photo.
    pub second: usize,
    /// Tags each read once.
    pub both: usize,
    /// Of those, tags both photos put in one place (within their joint uncertainty).
    pub agree: usize,
}

impl PhotoAgreement {
    /// Tags both read that land in different places.
    #[must_use]
    pub fn disagree(&self) -> usize {
        self.both - self.agree
    }
}

/// The first pair of photos that do not show one table (issue 41: battle.jpg and
/// crowd-far.jpg used to merge into 9 of 153 bases): each photo after the first is
/// compared with the first, on the tags both read once. Two photos of one table agree
/// on most of them; photos of two tables (or of one table changed between them) put
/// most in different places, or share fewer than [`MIN_SHARED_TAGS`] at all. Photos
/// reading fewer tags than that are not compared.
#[must_use]
pub fn photos_disagree(scans: &[Scan]) -> Option<PhotoAgreement> {
    tables_disagree(&scans.iter().map(|s| &s.table).collect::<Vec<_>>())
}

/// [`photos_disagree`] on the photos' tables.
fn tables_disagree(tables: &[&Table]) -> Option<PhotoAgreement> {
    let read = |t: &Table| -> BTreeMap<u32, Base> {
        t.bases()
            .filter(|(_, b)| !b.meta().inferred)
            .filter_map(|(_, b)| b.meta().tag.map(|t| (t, *b)))
            .collect()
    };
    let first = read(tables.first()?);
    for (k, t) in tables.iter().enumerate().skip(1) {
        let other = read(t);
        if first.len() < MIN_SHARED_TAGS || other.len() < MIN_SHARED_TAGS {
            continue;
        }
        let mut a = PhotoAgreement { first: 0, second: k, both: 0, agree: 0 };
        for (tag, base) in &first {
            if let Some(b) = other.get(tag) {
                a.both += 1;
                let pair = [Sighting { photo: 0, base: *base }, Sighting { photo: k, base: *b }];
                if combine(&pair).is_ok() {
                    a.agree += 1;
                }
            }
        }
        if a.agree < MIN_SHARED_TAGS || a.disagree() > a.agree {
            return Some(a);
        }
    }
    None
}

/// One base from the sightings of a tag: the weighted mean, or `Err` when two
/// sightings disagree beyond their joint uncertainty.
pub(crate) fn combine(sightings: &[Sighting]) -> Result<Base, ()> {
    let sigma = |s: &Sighting| s.base.meta().sigma_mm.unwrap_or(1.0).max(1e-3);
    let sigma_h = |s: &Sighting| s.base.meta().sigma_heading_deg.unwrap_or(1.0).max(1e-3);
    for (i, a) in sightings.iter().enumerate() {
        for b in &sightings[i + 1..] {
            let joint = sigma(a).hypot(sigma(b));
            let apart = a.base.centre().distance(b.base.centre());
            let turn =
                ((a.base.heading_deg() - b.base.heading_deg() + 540.0).rem_euclid(360.0) - 180.0).abs();
            let joint_h = sigma_h(a).hypot(sigma_h(b));
            if apart > (CONFLICT_SIGMAS * joint).max(CONFLICT_FLOOR_MM)
                || turn > (CONFLICT_SIGMAS * joint_h).max(CONFLICT_FLOOR_DEG)
            {
                return Err(());
            }
        }
    }
    let first = sightings.first().ok_or(())?;
    let (mut wsum, mut centre, mut s, mut c, mut whsum) = (0.0, Vec2::ZERO, 0.0, 0.0, 0.0);
    for x in sightings {
        let w = 1.0 / sigma(x).powi(2);
        wsum += w;
        centre += x.base.centre() * w;
        let wh = 1.0 / sigma_h(x).powi(2);
        whsum += wh;
        let a = x.base.heading_deg().to_radians();
        s += wh * a.sin();
        c += wh * a.cos();
    }
    let heading = s.atan2(c).to_degrees().rem_euclid(360.0);
    let round = |v: f64| (v * 1e3).round() / 1e3;
    Ok(Base::new(first.base.size(), Pose::new(centre / wsum, heading)).with_meta(BaseMeta {
        tag: first.base.meta().tag,
        sigma_mm: Some(round(1.0 / wsum.sqrt())),
        sigma_heading_deg: Some(round(1.0 / whsum.sqrt())),
        inferred: false,
        slot: None,
        found: first.base.meta().found,
        // Seen in any photo is seen.
        facing: sightings.iter().filter_map(|x| x.base.meta().facing).min_by_key(|f| *f != Facing::Seen),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sighting(photo: usize, x: f64, y: f64, heading: f64, sigma: f64) -> Sighting {
        let b =
            Base::new(BaseSize::new(30.0, 20.0), Pose::new(Vec2::new(x, y), heading)).with_meta(BaseMeta {
                tag: Some(10),
                sigma_mm: Some(sigma),
                sigma_heading_deg: Some(0.2),
                inferred: false,
                slot: None,
                ..BaseMeta::default()
            });
        Sighting { photo, base: b }
    }

    #[test]
    fn agreeing_sightings_are_averaged_by_their_uncertainty() {
        let b = combine(&[sighting(0, 100.0, 50.0, 90.0, 0.2), sighting(1, 100.3, 50.0, 90.2, 0.4)]).unwrap();
        // Weights 25 and 6.25: 100 + 0.3 * 6.25 / 31.25 = 100.06.
        assert!((b.centre().x - 100.06).abs() < 1e-9, "{:?}", b.centre());
        assert!((b.heading_deg() - 90.1).abs() < 1e-6);
        let s = b.meta().sigma_mm.unwrap();
        assert!((s - 0.179).abs() < 1e-3, "{s}");
    }

    #[test]
    fn sightings_apart_beyond_their_joint_uncertainty_conflict() {
        assert!(
            combine(&[sighting(0, 100.0, 50.0, 90.0, 0.2), sighting(1, 103.0, 50.0, 90.0, 0.2)]).is_err()
        );
        assert!(
            combine(&[sighting(0, 100.0, 50.0, 90.0, 0.2), sighting(1, 100.0, 50.0, 96.0, 0.2)]).is_err()
        );
        // Turns under CONFLICT_FLOOR_DEG are merged.
        assert!(combine(&[sighting(0, 100.0, 50.0, 90.0, 0.2), sighting(1, 100.0, 50.0, 94.0, 0.2)]).is_ok());
    }

    #[test]
    fn photos_of_two_tables_disagree() {
        let scan_of = |places: &[(u32, f64)]| {
            let units = places
                .iter()
                .map(|&(tag, x)| {
                    let b = sighting(0, x, 50.0, 90.0, 0.2).base;
                    let b = b.with_meta(BaseMeta { tag: Some(tag), ..b.meta() });
                    Unit::new(format!("u{tag}"), "x", UnitKind::Infantry, vec![b])
                })
                .collect();
            Table::new(vedette_geometry::RuleSet::Republique5, vedette_geometry::Scale::Medium, units)
        };
        let a = scan_of(&[(10, 100.0), (11, 200.0), (12, 300.0), (13, 400.0)]);
        // One table: three agree, one moved.
        let b = scan_of(&[(10, 100.2), (11, 200.0), (12, 300.1), (13, 480.0)]);
        assert_eq!(tables_disagree(&[&a, &b]), None);
        // Another table with the same ids: most land elsewhere.
        let c = scan_of(&[(10, 100.0), (11, 260.0), (12, 350.0), (13, 500.0)]);
        let d = tables_disagree(&[&a, &c]).unwrap();
        assert_eq!((d.first, d.second, d.both, d.agree, d.disagree()), (0, 1, 4, 1, 3));
        // No tag in common.
        let e = scan_of(&[(20, 100.0), (21, 200.0), (22, 300.0)]);
        assert_eq!(tables_disagree(&[&a, &e]).map(|d| d.both), Some(0));
        // Too few tags to compare.
        let f = scan_of(&[(20, 100.0)]);
        assert_eq!(tables_disagree(&[&a, &f]), None);
    }

    /// Issue 36: the cubes of two photos: one both found (a little apart) is one cube at
    /// the mean of their places; one only the second found is kept; two of one colour a
    /// side apart (a row) stay two; a cube the first photo could not link is linked on
    /// the merged table; each to the unit beside it.
    #[test]
    fn the_cubes_of_two_photos_are_merged_and_linked_on_the_merged_table() {
        use crate::scan::scan;
        use crate::scan::test_scene::{camera, profile, render};
        use vedette_geometry::{MarkerColour, MarkerKind};
        let p = profile();
        let tags = vec![(10, Vec2::new(150.0, 120.0), 90.0), (12, Vec2::new(450.0, 280.0), 200.0)];
        let (k, r, t) = camera(15.0);
        let a = scan(&render(&p, &tags, &k, r, t), &p, None, Some(&k)).unwrap();
        let merged = merge_scans(&[a.clone(), a.clone()], &p, None);
        assert_eq!(merged.table.base_count(), 2);
        let cube = |colour, x: f64, y: f64, unit: Option<&str>| Marker {
            kind: MarkerKind::Morale,
            colour: Some(colour),
            x,
            y,
            unit: unit.map(str::to_string),
            size: Some(p.markers.size_mm),
            sigma_mm: None,
        };
        let side = p.markers.size_mm;
        let (mut first, mut second) = (a.clone(), a);
        first.table.markers = vec![
            cube(MarkerColour::White, 150.0, 160.0, Some("tag-10")),
            cube(MarkerColour::Yellow, 150.0, 80.0, Some("tag-10")),
            // The first photo had no unit for it (say its unit's tag was hidden there).
            cube(MarkerColour::Red, 450.0, 240.0, None),
        ];
        second.table.markers = vec![
            cube(MarkerColour::Red, 450.5, 240.0, Some("tag-12")),
            cube(MarkerColour::White, 150.8, 160.6, Some("tag-10")),
            // Beside the first photo's yellow, a side apart: a second cube in a row.
            cube(MarkerColour::Yellow, 150.0 + side, 80.0, Some("tag-10")),
            cube(MarkerColour::Black, 480.0, 320.0, Some("tag-12")),
        ];
        // Just inside and just outside half a side: one cube, and two.
        first.table.markers.push(cube(MarkerColour::Black, 60.0, 330.0, None));
        second.table.markers.push(cube(MarkerColour::Black, 60.0 + 0.49 * side, 330.0, None));
        first.table.markers.push(cube(MarkerColour::White, 300.0, 200.0, None));
        second.table.markers.push(cube(MarkerColour::White, 300.0, 200.0 + 0.51 * side, None));
        let (markers, issues) = merged_markers(&[first, second], &merged.table, &p, None);
        let round = |v: f64| (v * 10.0).round() / 10.0;
        let (apart, beside): (Vec<&Marker>, Vec<&Marker>) =
            markers.iter().partition(|m| m.x < 110.0 || m.x == 300.0);
        let apart: Vec<(MarkerColour, f64, f64)> =
            apart.iter().map(|m| (m.colour.unwrap(), m.x, m.y)).collect();
        assert_eq!(
            apart,
            vec![
                (MarkerColour::Black, round(60.0 + 0.245 * side), 330.0),
                (MarkerColour::White, 300.0, 200.0),
                (MarkerColour::White, 300.0, round(200.0 + 0.51 * side)),
            ]
        );
        // The three stand more than the profile's reach (3") from every unit: unlinked,
        // and said so.
        assert_eq!(issues.len(), 3, "{issues:?}");
        assert!(issues.iter().all(|i| matches!(i, ScanIssue::MarkerUnlinked { .. })), "{issues:?}");
        let got: Vec<(MarkerColour, f64, f64, Option<&str>)> =
            beside.iter().map(|m| (m.colour.unwrap(), m.x, m.y, m.unit.as_deref())).collect();
        assert_eq!(
            got,
            vec![
                (MarkerColour::White, 150.4, 160.3, Some("tag-10")),
                (MarkerColour::Yellow, 150.0, 80.0, Some("tag-10")),
                (MarkerColour::Red, 450.3, 240.0, Some("tag-12")),
                (MarkerColour::Yellow, 150.0 + (side * 10.0).round() / 10.0, 80.0, Some("tag-10")),
                (MarkerColour::Black, 480.0, 320.0, Some("tag-12")),
            ]
        );
    }

    /// Issue 18: two photos of one table (different tilts), every tag merged and seen
    /// by both; the same table with one tag moved 4 mm between the photos: the tag is
    /// reported as a conflict and left out.
    #[test]
    fn two_photos_merge_and_a_moved_tag_conflicts() {
        use crate::scan::scan;
        use crate::scan::test_scene::{camera, profile, render};
        let p = profile();
        let tags = vec![
            (10, Vec2::new(150.0, 120.0), 90.0),
            (11, Vec2::new(300.0, 200.0), 30.0),
            (12, Vec2::new(450.0, 280.0), 200.0),
        ];
        let shoot = |tags: &[(u32, Vec2, f64)], tilt: f64| {
            let (k, r, t) = camera(tilt);
            scan(&render(&p, tags, &k, r, t), &p, None, Some(&k)).unwrap()
        };
        let a = shoot(&tags, 10.0);
        let b = shoot(&tags, 25.0);
        let merged = merge_scans(&[a.clone(), b], &p, None);
        assert_eq!(merged.table.base_count(), 3, "{:?}", merged.report.issues);
        for s in &merged.report.seen_by {
            assert_eq!(s.photos, vec![0, 1], "tag {}", s.tag);
        }
        for (_, base) in merged.table.bases() {
            let &(_, c, _) = tags.iter().find(|t| Some(t.0) == base.meta().tag).unwrap();
            assert!(base.centre().distance(c) < 0.3, "{:?} vs {c:?}", base.centre());
            let single = a.table.bases().find(|(_, x)| x.meta().tag == base.meta().tag).unwrap().1;
            assert!(base.meta().sigma_mm < single.meta().sigma_mm, "merging two photos lowers sigma");
        }
        let mut moved = tags.clone();
        moved[1].1 += Vec2::new(4.0, 0.0);
        let c = shoot(&moved, 25.0);
        let merged = merge_scans(&[a, c], &p, None);
        assert_eq!(merged.table.base_count(), 2);
        assert!(
            merged.report.issues.iter().any(
                |i| matches!(i, ScanIssue::ConflictingTag { id: 11, at_mm, photos } if at_mm.len() == 2 && photos == &vec![0, 1])
            ),
            "{:?}",
            merged.report.issues
        );
    }
}
