//! What `vedette init` writes (issue 39 item 4): a calibration profile for a table of
//! any size, with its fiducials placed for that size, and a roster template from a
//! plain list of units, each base given the next free tag.
//!
//! How big a table can be: its tags must be read in one photo. A phone's widest photo
//! is 8000 px (48 MP); holding the whole table with a margin, the table fills about
//! 85% of the frame's width (the bundled 12 MP renders: 3440 of 4000 px at 1.55 m), so
//! a table is refused when even such a photo would show its tags under the size the
//! scanner reads ([`min_marker_px`]).

use crate::check_sheet::CHECK_TAGS;
use crate::diagnosis::{marginal_marker_px, min_marker_px};
use crate::dictionary::Dictionary;
use crate::error::VisionError;
use crate::profile::Profile;
use crate::roster::{Game, Roster, RosterUnit};
use std::fmt::Write as _;
use vedette_geometry::{ArtilleryWeight, Formation, FrontageMode, LeaderRole, Shown, Unit, UnitKind};

/// The shortest table side `vedette init` makes a profile for, mm: four fiducials and
/// a game need more.
pub const MIN_TABLE_MM: f64 = 300.0;
/// The widest photo a phone takes, px (48 MP at 4:3).
pub const WIDEST_PHOTO_PX: f64 = 8000.0;
/// The share of a photo's long side a table fills when the photo holds it with a margin.
pub const TABLE_FILL: f64 = 0.85;
/// A phone's main camera: focal length over sensor width (26 mm equivalent over 36 mm).
const PHONE_FOCAL_OVER_WIDTH: f64 = 26.0 / 36.0;
/// The first base tag id of a profile `init` writes (as the sample layout).
pub const FIRST_TAG_ID: u32 = 10;

/// The table `vedette init` makes a profile for.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TablePlan {
    /// The long edge, mm.
    pub width_mm: f64,
    /// The short edge, mm.
    pub depth_mm: f64,
    /// Table fiducials: 4 (corners), 6 (and the long edges' middles) or 8 (and their
    /// thirds); `None` chooses 4 up to 2 m long, 6 beyond.
    pub fiducials: Option<usize>,
    /// The fiducials' side, mm.
    pub fiducial_mm: f64,
    /// The base tags' side, mm.
    pub tag_mm: f64,
}

impl Default for TablePlan {
    /// A 6'x4' table, 60 mm fiducials, 12 mm tags: the sample layout.
    fn default() -> Self {
        TablePlan { width_mm: 1828.8, depth_mm: 1219.2, fiducials: None, fiducial_mm: 60.0, tag_mm: 12.0 }
    }
}

fn refuse(reason: String) -> VisionError {
    VisionError::Init { reason }
}

/// How a 12 MP photo that holds the table with a margin sees its tags.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PhotoPlan {
    /// Photo pixels per table millimetre.
    pub px_per_mm: f64,
    /// The tags' side, px.
    pub tag_px: f64,
    /// A phone's main camera's height above the table's middle for that photo, mm.
    pub camera_height_mm: f64,
}

/// How a photo of `long_px` x `short_px` holding the table (filling [`TABLE_FILL`] of
/// the frame) sees tags of `tag_mm`.
#[must_use]
pub fn photo_plan(width_mm: f64, depth_mm: f64, tag_mm: f64, long_px: f64, short_px: f64) -> PhotoPlan {
    // The table's long edge along the photo's, whichever limits.
    let px_per_mm = (long_px * TABLE_FILL / width_mm).min(short_px * TABLE_FILL / depth_mm);
    let view_width_mm = long_px / px_per_mm;
    PhotoPlan {
        px_per_mm,
        tag_px: tag_mm * px_per_mm,
        camera_height_mm: view_width_mm * PHONE_FOCAL_OVER_WIDTH,
    }
}

/// `v` mm as a person writes it: to 0.1 mm, without a trailing `.0` (6 ft is 1828.8,
/// not 1828.8000000000002).
fn in_mm(v: f64) -> String {
    Shown((v * 10.0).round() / 10.0).to_string()
}

/// The profile for a table (checked by [`Profile::from_toml_str`]) and its text, with
/// comments saying what each part is for.
pub fn starter_profile(plan: &TablePlan, origin: &str) -> Result<(Profile, String), VisionError> {
    let TablePlan { width_mm: w, depth_mm: d, fiducials, fiducial_mm: f, tag_mm } = *plan;
    for (name, v) in [("width", w), ("depth", d), ("fiducial size", f), ("tag size", tag_mm)] {
        if !(v.is_finite() && v > 0.0) {
            return Err(refuse(format!(
                "the table's {name} must be a positive number of mm, not {}",
                Shown(v)
            )));
        }
    }
    if d > w {
        return Err(refuse(format!(
            "give the long edge first: {} x {} mm has its depth (away from you) longer than its width; the table frame's x runs along the long edge (--table {}x{})",
            in_mm(w),
            in_mm(d),
            in_mm(d),
            in_mm(w)
        )));
    }
    if d < MIN_TABLE_MM {
        return Err(refuse(format!(
            "a table {} mm deep is too small: four fiducials and a game need at least {MIN_TABLE_MM} mm each way",
            in_mm(d)
        )));
    }
    let tags = Dictionary::DEFAULT_TAGS;
    let widest = photo_plan(w, d, tag_mm, WIDEST_PHOTO_PX, WIDEST_PHOTO_PX * 0.75);
    if widest.tag_px < min_marker_px(tags) {
        return Err(refuse(format!(
            "a {} x {} mm table cannot be photographed whole with its {tag_mm} mm tags readable: even a 48 MP photo would show them {:.1} px across, and {:.0} px are needed; use bigger tags (--tag-mm {:.0}) or scan the table as smaller tables",
            in_mm(w),
            in_mm(d),
            widest.tag_px,
            min_marker_px(tags),
            (tag_mm * min_marker_px(tags) / widest.tag_px).ceil()
        )));
    }
    let quiet = (f / 6.0).max(10.0);
    let inset = f.max(f / 2.0 + quiet + 5.0);
    if 2.0 * (inset + f / 2.0 + quiet) > d {
        return Err(refuse(format!(
            "{} mm fiducials with their paper do not fit a table {} mm deep: use smaller ones (--fiducial-mm)",
            in_mm(f),
            in_mm(d)
        )));
    }
    let count = fiducials.unwrap_or(if w > 2000.0 { 6 } else { 4 });
    let mut places = vec![(inset, inset), (w - inset, inset), (w - inset, d - inset), (inset, d - inset)];
    match count {
        4 => {}
        6 => places.extend([(w / 2.0, inset), (w / 2.0, d - inset)]),
        8 => places.extend([
            (w / 3.0, inset),
            (2.0 * w / 3.0, inset),
            (2.0 * w / 3.0, d - inset),
            (w / 3.0, d - inset),
        ]),
        n => {
            return Err(refuse(format!(
                "--fiducials {n}: give 4 (the corners), 6 (and the long edges' middles) or 8 (and their thirds)"
            )));
        }
    }
    let mm = |v: f64| format!("{:.1}", (v * 10.0).round() / 10.0);
    let photo = photo_plan(w, d, tag_mm, 4000.0, 3000.0);
    let last_tag = tags.len() - 1 - CHECK_TAGS as u32;
    let mut t = String::new();
    let _ = writeln!(
        t,
        "# vedette calibration profile: a {} x {} mm table ({:.1}' x {:.1}'), written by\n# `vedette init`. Every field: docs/calibration.md; the whole evening: docs/getting-started.md.\n",
        mm(w),
        mm(d),
        w / 304.8,
        d / 304.8
    );
    let _ = writeln!(t, "name = \"{} x {} mm table\"\n", mm(w), mm(d));
    let _ = writeln!(t, "[table]\nwidth_mm = {}\ndepth_mm = {}\n", mm(w), mm(d));
    let _ = writeln!(
        t,
        "# {count} table fiducials: {f} mm {} markers (the black square's side), printed by\n# `vedette sheet` and laid flat on the table, their printed top edge toward the far\n# edge, each centred {} mm in from the two edges of its corner{}. Ids go\n# counter-clockwise from the near-left corner (the near edge is where you stand).",
        tags,
        mm(inset),
        match count {
            6 => " and at the middle of each long edge",
            8 => " and at the thirds of each long edge",
            _ => "",
        }
    );
    let _ = writeln!(t, "[fiducials]\ndictionary = \"{tags}\"\nsize_mm = {}\nmarkers = [", mm(f));
    for (id, (x, y)) in places.iter().enumerate() {
        let _ = writeln!(t, "  {{ id = {id}, x_mm = {}, y_mm = {} }},", mm(*x), mm(*y));
    }
    let _ = writeln!(t, "]\n");
    let _ = writeln!(
        t,
        "# Base tags: {tag_mm} mm {tags} markers, ids {FIRST_TAG_ID}-{last_tag} ({}-{} are the check sheet's).\n# A 12 MP photo holding the table (a phone about {:.2} m above its middle) shows them\n# {:.0} px across: at least {:.0} are needed, {:.0} are comfortable.",
        last_tag + 1,
        tags.len() - 1,
        photo.camera_height_mm / 1000.0,
        photo.tag_px,
        min_marker_px(tags),
        marginal_marker_px(tags)
    );
    let _ = writeln!(t, "[tags]\ndictionary = \"{tags}\"\nsize_mm = {}\n", mm(tag_mm));
    let _ = writeln!(
        t,
        "# The height of your base tops above the table (where the tags lie), and how much\n# it varies from base to base (one standard deviation), mm.\n[bases]\ntop_height_mm = 3.0\ntop_height_sigma_mm = 0.3\n"
    );
    let _ = writeln!(
        t,
        "# After `vedette calibrate-camera ... -o camera.toml` (the most accurate scans):\n# [camera]\n# file = \"camera.toml\"\n\n# The terrain templates a scan should read, one entry per kind, their colours measured\n# on a photo of the empty table (docs/calibration.md, \"Terrain classes\"):\n# [[terrain]]\n# kind = \"medium-forest\"\n# colour = [36, 71, 26]"
    );
    let profile = Profile::from_toml_str(&t, origin)?;
    Ok((profile, t))
}

/// The roster a plain list of units makes (`units`, read from `origin`), each base given
/// the next free tag of `profile`'s dictionary from [`FIRST_TAG_ID`], in the order of
/// the list; with its text, each unit's tags commented with its bases.
///
/// One unit a line: `ID SIDE KIND BASES [WxD] [FORMATION] [key=value ...]`, with the
/// keys `division`, `corps`, `parent`, `weight`, `frontage`, `role`, `attached` and
/// `offset` (the tag's place on the base, `x,y` mm); `#` starts a comment. Bases without
/// a size take the profile's `default_size_mm`.
pub fn roster_from_units(
    units: &str,
    origin: &str,
    profile: &Profile,
    game: Game,
) -> Result<(Roster, String), VisionError> {
    let line_error = |n: usize, reason: String| VisionError::InvalidField {
        path: origin.to_string(),
        field: format!("line {n}"),
        reason,
    };
    let dict = profile.tags.dictionary;
    let shared = dict.shares_codes_with(profile.fiducials.dictionary);
    let check_ids: Vec<u32> = crate::check_sheet::check_tags(profile).iter().map(|t| t.id).collect();
    let taken = |id: &u32| check_ids.contains(id) || (shared && profile.fiducial(*id).is_some());
    let mut free = (FIRST_TAG_ID..dict.len()).filter(|id| !taken(id));
    let quiet = profile.tags.size_mm / f64::from(dict.bits() + 2);
    let paper = profile.tags.size_mm + 2.0 * quiet;
    let mut list = Vec::new();
    for (i, raw) in units.lines().enumerate() {
        let n = i + 1;
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        let [id, side, kind, count, rest @ ..] = words.as_slice() else {
            return Err(line_error(
                n,
                format!("\"{line}\": give at least ID SIDE KIND BASES (e.g. fr-1 france infantry 4)"),
            ));
        };
        let kind: UnitKind = parse_word(kind).map_err(|_| {
            line_error(n, format!("unknown kind \"{kind}\" (infantry, cavalry, artillery, leader, skirmisher, limber, engineer, wagon)"))
        })?;
        let count: usize = count
            .parse()
            .ok()
            .filter(|c| (1..=200).contains(c))
            .ok_or_else(|| line_error(n, format!("\"{count}\" is not a number of bases (1 to 200)")))?;
        let mut unit = RosterUnit::from_unit(
            &Unit::new(*id, *side, kind, Vec::new()),
            profile.bases.default_size_mm,
            [0.0, 0.0],
            Vec::new(),
        );
        for word in rest {
            if let Some((key, value)) = word.split_once('=') {
                let bad = |what: &str| line_error(n, format!("{key}={value}: {what}"));
                match key {
                    "division" => unit.division = Some(value.to_string()),
                    "corps" => unit.corps = Some(value.to_string()),
                    "parent" => unit.parent = Some(value.to_string()),
                    "weight" => {
                        unit.weight = Some(
                            parse_word::<ArtilleryWeight>(value)
                                .map_err(|_| bad("heavy, medium, light or very-light"))?,
                        );
                    }
                    "frontage" => {
                        unit.frontage =
                            Some(parse_word::<FrontageMode>(value).map_err(|_| bad("normal or packed"))?);
                    }
                    "role" => {
                        unit.role = Some(
                            parse_word::<LeaderRole>(value).map_err(|_| bad("division, corps or army"))?,
                        )
                    }
                    "attached" => unit.attached = value.parse().map_err(|_| bad("true or false"))?,
                    "offset" => {
                        let xy: Vec<f64> = value.split(',').filter_map(|v| v.trim().parse().ok()).collect();
                        let [x, y] = xy.as_slice() else {
                            return Err(bad("give the tag's place as x,y in mm"));
                        };
                        unit.tag_offset_mm = [*x, *y];
                    }
                    _ => {
                        return Err(line_error(
                            n,
                            format!(
                                "unknown key \"{key}\" (division, corps, parent, weight, frontage, role, attached, offset)"
                            ),
                        ));
                    }
                }
            } else if let Some((a, b)) = word.split_once(['x', 'X'])
                && let (Ok(bw), Ok(bd)) = (a.parse::<f64>(), b.parse::<f64>())
            {
                unit.base_mm = [bw, bd];
            } else if let Ok(formation) = parse_word::<Formation>(word) {
                unit.formation = Some(formation);
            } else {
                return Err(line_error(
                    n,
                    format!(
                        "\"{word}\" is neither a base size (30x20), a formation (line, attack-column, ...) nor key=value"
                    ),
                ));
            }
        }
        let [bw, bd] = unit.base_mm;
        if bw.min(bd) < paper {
            return Err(line_error(
                n,
                format!(
                    "{}: a {} mm tag with its quiet zone ({paper:.0} mm square) does not fit a {bw} x {bd} mm base; print smaller tags (the profile's [tags] size_mm) or leave the unit out",
                    unit.id, profile.tags.size_mm
                ),
            ));
        }
        for _ in 0..count {
            match free.next() {
                Some(tag) => unit.tags.push(tag),
                None => {
                    return Err(line_error(
                        n,
                        format!(
                            "the units need more tags than {dict} leaves to bases (ids {FIRST_TAG_ID}-{}): use DICT_5X5_1000 tags (the profile's [tags] dictionary; they need {:.0} px in the photo)",
                            check_ids.first().map_or(dict.len(), |c| *c) - 1,
                            min_marker_px(Dictionary::BIG_BATTLE_TAGS)
                        ),
                    ));
                }
            }
        }
        list.push(unit);
    }
    if list.is_empty() {
        return Err(VisionError::InvalidField {
            path: origin.to_string(),
            field: "units".to_string(),
            reason: "no unit listed: one unit a line, ID SIDE KIND BASES (e.g. fr-1 france infantry 4)"
                .to_string(),
        });
    }
    let roster = Roster::from_units(game, list)?;
    let text = roster_text(&roster, origin)?;
    // What is written reads back as the same roster.
    let again = Roster::from_toml_str(&text, origin)?;
    again.check_for(profile)?;
    Ok((again, text))
}

/// A word of the unit list as a kebab-case enum value.
fn parse_word<T: serde::de::DeserializeOwned>(word: &str) -> Result<T, serde_json::Error> {
    serde_json::from_value(serde_json::Value::String(word.to_string()))
}

/// A roster's text as `init` writes it: a header on how tags map to bases, then each
/// unit with a comment naming its bases' tags.
fn roster_text(roster: &Roster, origin: &str) -> Result<String, VisionError> {
    let encode = |e: toml::ser::Error| VisionError::Encode { what: "roster".into(), reason: e.to_string() };
    let mut t = format!(
        "# vedette roster written by `vedette init` from {origin}: which tag goes on which base.\n# Base N of a unit carries the N-th tag of its `tags` (from 0): `vedette sheet PROFILE\n# --roster THIS -o DIR` prints each tag labelled `unit#base`. Glue it flat on the base top,\n# its printed top edge toward the base's front. Every field: docs/roster.md.\n\n"
    );
    t.push_str(&toml::to_string(&roster.game).map(|g| format!("[game]\n{g}\n")).map_err(encode)?);
    for u in &roster.units {
        let first = u.tags.first().copied().unwrap_or(0);
        let _ = writeln!(
            t,
            "# {}: {} base{}, {}",
            u.id,
            u.tags.len(),
            if u.tags.len() == 1 { "" } else { "s" },
            if u.tags.len() == 1 {
                format!("{}#0 carries tag {first}", u.id)
            } else {
                format!(
                    "{}#0 to #{} carry tags {first} to {}",
                    u.id,
                    u.tags.len() - 1,
                    u.tags.last().copied().unwrap_or(0)
                )
            }
        );
        t.push_str("[[unit]]\n");
        t.push_str(&toml::to_string(u).map_err(encode)?);
        t.push('\n');
    }
    Ok(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_six_by_four_profile_is_the_sample_layout() {
        let (p, text) = starter_profile(&TablePlan::default(), "my.toml").unwrap();
        let sample =
            Profile::load(format!("{}/../../calibration/default.toml", env!("CARGO_MANIFEST_DIR"))).unwrap();
        assert_eq!(p.table, sample.table);
        assert_eq!(p.fiducials, sample.fiducials);
        assert_eq!(p.tags, sample.tags);
        assert_eq!(p.bases, sample.bases);
        assert!(text.contains("a phone about 1.55 m above"), "{text}");
        // A 12 MP photo of a 6'x4' table: 4000 * 0.85 / 1828.8 px per mm, 22 px tags.
        let plan = photo_plan(1828.8, 1219.2, 12.0, 4000.0, 3000.0);
        assert!((plan.tag_px - 22.3).abs() < 0.1, "{plan:?}");
    }

    #[test]
    fn fiducials_are_placed_for_the_size() {
        let plan = TablePlan { width_mm: 2400.0, depth_mm: 1200.0, ..TablePlan::default() };
        let (p, _) = starter_profile(&plan, "big.toml").unwrap();
        let at: Vec<(u32, f64, f64)> = p.fiducials.markers.iter().map(|m| (m.id, m.x_mm, m.y_mm)).collect();
        assert_eq!(
            at,
            [
                (0, 60.0, 60.0),
                (1, 2340.0, 60.0),
                (2, 2340.0, 1140.0),
                (3, 60.0, 1140.0),
                (4, 1200.0, 60.0),
                (5, 1200.0, 1140.0)
            ]
        );
        let eight = TablePlan { fiducials: Some(8), ..plan };
        assert_eq!(starter_profile(&eight, "e.toml").unwrap().0.fiducials.markers.len(), 8);
        let small = TablePlan { width_mm: 600.0, depth_mm: 600.0, ..TablePlan::default() };
        assert_eq!(starter_profile(&small, "s.toml").unwrap().0.fiducials.markers.len(), 4);
    }

    #[test]
    fn silly_sizes_are_refused_with_a_reason() {
        let e = |w: f64, d: f64| {
            starter_profile(&TablePlan { width_mm: w, depth_mm: d, ..TablePlan::default() }, "x.toml")
                .unwrap_err()
                .to_string()
        };
        assert!(e(1220.0, 1830.0).contains("long edge first"));
        // 4 x 6 ft, as people write it back.
        assert!(
            e(4.0 * 304.8, 6.0 * 304.8).contains("1219.2 x 1828.8 mm")
                && e(4.0 * 304.8, 6.0 * 304.8).contains("(--table 1828.8x1219.2)"),
            "{}",
            e(4.0 * 304.8, 6.0 * 304.8)
        );
        assert!(e(600.0, 299.0).contains("too small"));
        assert!(e(-5.0, 300.0).contains("positive"));
        assert!(e(f64::NAN, 300.0).contains("positive"));
        // 12 mm tags: 8000 * 0.85 * 12 / 12 = 6800 mm at most.
        assert!(
            starter_profile(&TablePlan { width_mm: 6800.0, depth_mm: 1800.0, ..TablePlan::default() }, "x")
                .is_ok()
        );
        let big = e(6810.0, 1800.0);
        assert!(big.contains("48 MP") && big.contains("--tag-mm 13"), "{big}");
        let f = starter_profile(&TablePlan { fiducials: Some(5), ..TablePlan::default() }, "x")
            .unwrap_err()
            .to_string();
        assert!(f.contains("--fiducials 5"), "{f}");
    }

    fn profile() -> Profile {
        starter_profile(&TablePlan::default(), "my.toml").unwrap().0
    }

    #[test]
    fn a_unit_list_becomes_a_roster_with_the_next_free_tags() {
        let units = "# the skirmish sample\nfr-1 france infantry 4 30x20 line division=fr-d1\nfr-1-sk france skirmisher 1 20x20 parent=fr-1\nfr-art france artillery 1 25x40 unlimbered weight=medium offset=0,-8\n\ngb-cav britain cavalry 2 40x30 line # two squadrons\n";
        let (r, text) = roster_from_units(units, "units.txt", &profile(), Game::default()).unwrap();
        let tags: Vec<(&str, Vec<u32>)> = r.units.iter().map(|u| (u.id.as_str(), u.tags.clone())).collect();
        assert_eq!(
            tags,
            [
                ("fr-1", vec![10, 11, 12, 13]),
                ("fr-1-sk", vec![14]),
                ("fr-art", vec![15]),
                ("gb-cav", vec![16, 17])
            ]
        );
        assert_eq!(r.units[2].tag_offset_mm, [0.0, -8.0]);
        assert_eq!(r.units[0].formation, Some(Formation::Line));
        assert!(text.contains("# fr-1: 4 bases, fr-1#0 to #3 carry tags 10 to 13"), "{text}");
        assert!(text.contains("tags = [10, 11, 12, 13]"), "{text}");
    }

    #[test]
    fn bad_unit_lists_name_the_line() {
        let e = |units: &str| {
            roster_from_units(units, "units.txt", &profile(), Game::default()).unwrap_err().to_string()
        };
        assert!(
            e("fr-1 france infantery 4").contains("line 1")
                && e("fr-1 france infantery 4").contains("infantery")
        );
        assert!(e("\nfr-1 france infantry four").contains("line 2"));
        assert!(e("fr-1 france infantry 4 30x20 sideways").contains("\"sideways\""));
        assert!(e("fr-1 france infantry 4 colour=blue").contains("unknown key \"colour\""));
        assert!(e("ldr france leader 1 12x12").contains("does not fit a 12 x 12 mm base"));
        assert!(e("fr-1 france infantry 4 limbered").contains("limbered"));
        assert!(e("# nothing\n").contains("no unit listed"));
        let many: String = (0..12).map(|i| format!("u{i} x infantry 20\n")).collect();
        let e = e(&many);
        assert!(e.contains("DICT_5X5_1000") && e.contains("line 12"), "{e}");
    }
}
