//! Rosters (TOML, see `docs/roster.md`): which base carries which tag. Each unit lists
//! its tags in base order, with the unit's side, kind, formation, base size and where
//! the tag sits on the base.

use crate::error::{VisionError, read_text};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// Largest `tag_mm` a roster unit may give, mm: a tag larger than this fits no base.
const MAX_TAG_MM: f64 = 200.0;
use vedette_geometry::{
    ArtilleryWeight, Base, BaseSize, Formation, FrontageMode, GeometryError, LeaderRole, MAX_SIZE_MM, Pose,
    RuleSet, Scale, Shown, Table, Unit, UnitKind, Vec2,
};

/// The most bases an untagged unit may have (`bases = N`): more than any formation of
/// the rules holds, few enough that a typing slip (`bases = 400`) is caught.
pub const MAX_UNTAGGED_BASES: usize = 64;

/// A roster: the game and every unit, tagged (`tags`) or not (`bases`).
///
/// ```
/// let r = vedette_vision::Roster::from_toml_str(r#"
/// [game]
/// rules = "republique5"
/// scale = "medium"
///
/// [[unit]]
/// id = "fr-1-2"
/// side = "france"
/// kind = "infantry"
/// formation = "line"
/// base_mm = [30, 20]
/// tags = [10, 11, 12, 13]
/// "#, "roster.toml")?;
/// assert_eq!(r.lookup(12).map(|t| (t.unit, t.base)), Some((0, 2)));
/// # Ok::<(), vedette_vision::VisionError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Roster {
    /// The rule set and scale of the table the scan produces.
    #[serde(default)]
    pub game: Game,
    /// The units.
    #[serde(default, rename = "unit")]
    pub units: Vec<RosterUnit>,
    /// Tag id to (unit index, base index); built on load.
    #[serde(skip)]
    index: BTreeMap<u32, (usize, usize)>,
    /// The file it was loaded from, for messages.
    #[serde(skip)]
    origin: String,
}

/// The game a roster is for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Game {
    /// The rule set (default `republique5`).
    #[serde(default = "default_rules")]
    pub rules: RuleSet,
    /// The figure scale (default `medium`).
    #[serde(default = "default_scale")]
    pub scale: Scale,
    /// A title for the table.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The side whose army faces the far edge from the table's near edge (y = 0); every
    /// other side faces the near edge (issue 37). The facing of an untagged base the
    /// photo does not show is assumed from it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub near_side: Option<String>,
}

impl Default for Game {
    fn default() -> Self {
        Game { rules: default_rules(), scale: default_scale(), name: None, near_side: None }
    }
}

fn default_rules() -> RuleSet {
    RuleSet::Republique5
}
fn default_scale() -> Scale {
    Scale::Medium
}

/// One unit of a roster.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RosterUnit {
    /// Unique id, as in table files.
    pub id: String,
    /// The side it fights for.
    pub side: String,
    /// What it is.
    pub kind: UnitKind,
    /// Its formation, when it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub formation: Option<Formation>,
    /// Base width (frontage) and depth, mm.
    pub base_mm: [f64; 2],
    /// The tag's centre on the base, in the base's frame: x to the base's right, y
    /// toward its front, mm from the base centre (default `[0, 0]`).
    #[serde(default)]
    pub tag_offset_mm: [f64; 2],
    /// The tag ids of its bases, in base order (empty for a unit without tags).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<u32>,
    /// How many bases the unit has, when they carry no tags (issue 37): the scan finds
    /// them as rectangles of `base_mm` in the photo. A unit gives `tags` or `bases`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bases: Option<usize>,
    /// The side of its tags' black square, mm, where it differs from the profile's
    /// `[tags] size_mm` (issue 36: a club's 20 mm deep bases carry 10 mm tags, the
    /// others 12 mm). `None`: the profile's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tag_mm: Option<f64>,
    /// How its figures' coats are painted, sRGB as `"#rrggbb"` (issue 37: told apart
    /// from a unit of the same side, kind and layout by it; checked when the roster is
    /// read, [`RosterUnit::coat_rgb`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub coat: Option<String>,
    /// How its bases' tops are flocked, sRGB as `"#rrggbb"` ([`RosterUnit::flock_rgb`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flock: Option<String>,
    /// The division it belongs to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub division: Option<String>,
    /// The corps it belongs to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub corps: Option<String>,
    /// For skirmishers and limbers: the unit they belong to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent: Option<String>,
    /// Artillery: the battery's weight.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weight: Option<ArtilleryWeight>,
    /// Artillery: forced frontage mode.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub frontage: Option<FrontageMode>,
    /// Leaders: what they command.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<LeaderRole>,
    /// A division or corps asset (000 §2.1).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub attached: bool,
}

/// Where a tag id belongs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TagEntry {
    /// Index of the unit in [`Roster::units`].
    pub unit: usize,
    /// Index of the base in the unit's `tags`.
    pub base: usize,
    /// The base's size.
    pub size: BaseSize,
    /// The tag's centre in the base frame, mm.
    pub offset: Vec2,
    /// The tag's printed side, mm, when the unit gives one (`tag_mm`); else the
    /// profile's applies ([`TagEntry::tag_size_mm`]).
    pub tag_mm: Option<f64>,
}

impl TagEntry {
    /// The tag's printed side: the unit's `tag_mm`, else `default_mm` (the profile's).
    #[must_use]
    pub fn tag_size_mm(&self, default_mm: f64) -> f64 {
        self.tag_mm.unwrap_or(default_mm)
    }
}

impl RosterUnit {
    /// The roster entry of a table unit: its id, side, kind and declared metadata
    /// (formation, division, corps, parent, weight, frontage, role, attached), with the
    /// base size, tag offset and tag ids given (the inverse of [`RosterUnit::to_unit`]).
    #[must_use]
    pub fn from_unit(unit: &Unit, base_mm: [f64; 2], tag_offset_mm: [f64; 2], tags: Vec<u32>) -> Self {
        RosterUnit {
            id: unit.id.clone(),
            side: unit.side.clone(),
            kind: unit.kind,
            formation: unit.formation,
            base_mm,
            tag_offset_mm,
            tags,
            bases: None,
            tag_mm: None,
            coat: None,
            flock: None,
            division: unit.division.clone(),
            corps: unit.corps.clone(),
            parent: unit.parent.clone(),
            weight: unit.weight,
            frontage: unit.frontage,
            role: unit.role,
            attached: unit.attached,
        }
    }

    /// A unit without tags (issue 37): its `n` bases are found as rectangles of
    /// `base_mm` (the inverse of [`RosterUnit::to_unit`] for an untagged roster).
    #[must_use]
    pub fn untagged(unit: &Unit, base_mm: [f64; 2], n: usize) -> Self {
        RosterUnit { bases: Some(n), ..RosterUnit::from_unit(unit, base_mm, [0.0, 0.0], Vec::new()) }
    }

    /// The declared coat, sRGB 0-255 (R G B); `None` when not declared.
    #[must_use]
    pub fn coat_rgb(&self) -> Option<[u8; 3]> {
        self.coat.as_deref().and_then(|c| crate::photo_colour::parse_hex(c).ok())
    }

    /// The declared flock, sRGB 0-255 (R G B); `None` when not declared.
    #[must_use]
    pub fn flock_rgb(&self) -> Option<[u8; 3]> {
        self.flock.as_deref().and_then(|c| crate::photo_colour::parse_hex(c).ok())
    }

    /// The unit with its paints declared (sRGB 0-255), written as `"#rrggbb"`.
    #[must_use]
    pub fn painted(self, coat: Option<[u8; 3]>, flock: Option<[u8; 3]>) -> Self {
        RosterUnit {
            coat: coat.map(crate::photo_colour::to_hex),
            flock: flock.map(crate::photo_colour::to_hex),
            ..self
        }
    }

    /// How many bases the unit has: its tags, or `bases` when it has none.
    #[must_use]
    pub fn base_count(&self) -> usize {
        if self.tags.is_empty() { self.bases.unwrap_or(0) } else { self.tags.len() }
    }

    /// True when the unit's bases carry tags.
    #[must_use]
    pub fn is_tagged(&self) -> bool {
        !self.tags.is_empty()
    }

    /// The size of each of its bases.
    #[must_use]
    pub fn base_size(&self) -> BaseSize {
        BaseSize::new(self.base_mm[0], self.base_mm[1])
    }

    /// The unit as a table unit with the given bases.
    #[must_use]
    pub fn to_unit(&self, bases: Vec<vedette_geometry::Base>) -> Unit {
        Unit {
            id: self.id.clone(),
            side: self.side.clone(),
            kind: self.kind,
            formation: self.formation,
            bases,
            division: self.division.clone(),
            corps: self.corps.clone(),
            parent: self.parent.clone(),
            weight: self.weight,
            frontage: self.frontage,
            role: self.role,
            attached: self.attached,
        }
    }
}

impl Roster {
    /// The roster's units of which no base is on `table`, in the roster's order (a scan
    /// found none of them: their cubes may stand alone, the viewer offers to lay them
    /// out).
    pub fn not_on<'a>(&'a self, table: &'a Table) -> impl Iterator<Item = &'a RosterUnit> + 'a {
        self.units.iter().filter(|ru| !table.units.iter().any(|u| u.id == ru.id && !u.bases.is_empty()))
    }

    /// Loads and checks a roster file.
    pub fn load(path: impl AsRef<Path>) -> Result<Roster, VisionError> {
        let path = path.as_ref();
        Roster::from_toml_str(&read_text(path)?, &path.display().to_string())
    }

    /// Parses and checks a roster; `origin` names it in errors.
    pub fn from_toml_str(text: &str, origin: &str) -> Result<Roster, VisionError> {
        let mut r: Roster = toml::from_str(text).map_err(|e| crate::error::toml_error(origin, &e))?;
        r.build_index(origin)?;
        r.origin = origin.to_string();
        Ok(r)
    }

    /// A roster from units (for tools that write rosters).
    pub fn from_units(game: Game, units: Vec<RosterUnit>) -> Result<Roster, VisionError> {
        let mut r = Roster { game, units, index: BTreeMap::new(), origin: "roster".to_string() };
        r.build_index("roster")?;
        Ok(r)
    }

    /// The file the roster was loaded from (`roster` for one built in memory).
    #[must_use]
    pub fn origin(&self) -> &str {
        &self.origin
    }

    /// Checks the roster's tags against a profile (issue 41): each id must be in the
    /// profile's tag dictionary, and none may print the marker of a table fiducial (a
    /// base carrying it would be taken for a corner of the table). The error names the
    /// unit and the tag.
    pub fn check_for(&self, profile: &crate::profile::Profile) -> Result<(), VisionError> {
        let dict = profile.tags.dictionary;
        let shared = dict.shares_codes_with(profile.fiducials.dictionary);
        for (ui, u) in self.units.iter().enumerate() {
            for (bi, &tag) in u.tags.iter().enumerate() {
                let reason = if tag >= dict.len() {
                    format!(
                        "tag {tag} is not in the tag dictionary of {} ({dict}, ids 0-{}): print and list tags of that dictionary, or choose a bigger one in the profile's [tags] dictionary",
                        profile.origin,
                        dict.len() - 1
                    )
                } else if shared && profile.fiducial(tag).is_some() {
                    format!(
                        "tag {tag} is table fiducial {tag} of {} ({}): a base carrying it would be taken for a corner of the table; give bases the ids the profile leaves to them (from 10 in the default layout)",
                        profile.origin, profile.fiducials.dictionary
                    )
                } else {
                    continue;
                };
                return Err(VisionError::InvalidField {
                    path: self.origin.clone(),
                    field: format!("unit[{ui}] \"{}\" tags[{bi}]", u.id),
                    reason,
                });
            }
        }
        Ok(())
    }

    fn build_index(&mut self, origin: &str) -> Result<(), VisionError> {
        let field = |f: String, reason: String| VisionError::InvalidField {
            path: origin.to_string(),
            field: f,
            reason,
        };
        let mut ids = BTreeMap::new();
        self.index.clear();
        for (ui, u) in self.units.iter().enumerate() {
            let at = |f: &str| format!("unit[{ui}] \"{}\" {f}", u.id);
            if u.id.trim().is_empty() || u.id.contains('#') {
                return Err(field(
                    format!("unit[{ui}].id"),
                    "must be non-empty and must not contain '#'".into(),
                ));
            }
            if let Some(first) = ids.insert(u.id.clone(), ui) {
                return Err(field(at("id"), format!("the id is already used by unit[{first}]")));
            }
            if u.side.trim().is_empty() {
                return Err(field(at("side"), "must not be empty".into()));
            }
            for (k, v) in u.base_mm.iter().enumerate() {
                if !(v.is_finite() && *v > 0.0 && *v <= MAX_SIZE_MM) {
                    return Err(field(
                        at(&format!("base_mm[{k}]")),
                        format!("must be a positive number of mm up to {MAX_SIZE_MM}, got {}", Shown(*v)),
                    ));
                }
            }
            if u.tag_offset_mm.iter().any(|v| !(v.is_finite() && v.abs() <= MAX_SIZE_MM)) {
                return Err(field(
                    at("tag_offset_mm"),
                    format!("must be finite numbers of mm within ±{MAX_SIZE_MM}"),
                ));
            }
            if let Some(v) = u.tag_mm
                && !(v.is_finite() && v > 0.0 && v <= MAX_TAG_MM)
            {
                return Err(field(
                    at("tag_mm"),
                    format!("must be a positive number of mm up to {MAX_TAG_MM}, got {}", Shown(v)),
                ));
            }
            for (key, value) in [("coat", &u.coat), ("flock", &u.flock)] {
                if let Some(v) = value {
                    crate::photo_colour::parse_hex(v).map_err(|e| field(at(key), e))?;
                }
            }
            match (u.tags.is_empty(), u.bases) {
                (true, None) => {
                    return Err(field(
                        at("tags"),
                        "the unit has neither `tags` (its bases' tag ids, in base order) nor `bases` (how many untagged bases it has): give one".into(),
                    ));
                }
                (false, Some(_)) => {
                    return Err(field(
                        at("bases"),
                        "give either `tags` (tagged bases) or `bases` (untagged bases), not both".into(),
                    ));
                }
                (true, Some(n)) if !(1..=MAX_UNTAGGED_BASES).contains(&n) => {
                    return Err(field(
                        at("bases"),
                        format!("must be 1 to {MAX_UNTAGGED_BASES} bases, got {n}"),
                    ));
                }
                _ => {}
            }
            for (bi, &tag) in u.tags.iter().enumerate() {
                if let Some((fu, fb)) = self.index.insert(tag, (ui, bi)) {
                    return Err(field(
                        at(&format!("tags[{bi}]")),
                        format!("tag {tag} is already on base {fb} of unit \"{}\"", self.units[fu].id),
                    ));
                }
            }
        }
        if let Some(near) = &self.game.near_side
            && !self.units.iter().any(|u| &u.side == near)
        {
            return Err(field(
                "game.near_side".into(),
                format!("no unit of the roster is on side \"{near}\""),
            ));
        }
        self.check_as_table(origin)
    }

    /// The unit-level rules of table files (kinds and formations that fit, parents that
    /// exist, rule-set-only formations) checked on the roster itself, so that a scan can
    /// never write a table every other verb refuses. Bases stand in a row: their places
    /// do not matter to these rules.
    fn check_as_table(&self, origin: &str) -> Result<(), VisionError> {
        let units = self
            .units
            .iter()
            .map(|u| {
                let size = BaseSize::new(u.base_mm[0], u.base_mm[1]);
                let pose = Pose { centre: Vec2::new(0.0, 0.0), heading_deg: 90.0 };
                u.to_unit((0..u.base_count()).map(|_| Base::new(size, pose)).collect())
            })
            .collect();
        let table = Table::new(self.game.rules, self.game.scale, units);
        let field = |location: String, reason: String| VisionError::InvalidField {
            path: origin.to_string(),
            field: location.replacen("units[", "unit[", 1),
            reason,
        };
        table.validate(origin).map_err(|e| match e {
            GeometryError::InvalidField { location, reason, .. } => field(location, reason),
            GeometryError::UnknownReference { location, id, .. } => {
                field(location, format!("no unit \"{id}\" in the roster"))
            }
            other => field("unit".to_string(), other.to_string()),
        })
    }

    /// Where tag `id` belongs, if the roster knows it.
    #[must_use]
    pub fn lookup(&self, id: u32) -> Option<TagEntry> {
        let &(unit, base) = self.index.get(&id)?;
        let u = &self.units[unit];
        Some(TagEntry {
            unit,
            base,
            size: BaseSize::new(u.base_mm[0], u.base_mm[1]),
            offset: Vec2::new(u.tag_offset_mm[0], u.tag_offset_mm[1]),
            tag_mm: u.tag_mm,
        })
    }

    /// The units without tags (`bases = N`), with their index in [`Roster::units`].
    pub fn untagged_units(&self) -> impl Iterator<Item = (usize, &RosterUnit)> + '_ {
        self.units.iter().enumerate().filter(|(_, u)| !u.is_tagged())
    }

    /// The printed side of tag `id`: its unit's `tag_mm`, else `default_mm` (the
    /// profile's `[tags] size_mm`; also for ids the roster does not list).
    #[must_use]
    pub fn tag_size_mm(&self, id: u32, default_mm: f64) -> f64 {
        self.lookup(id).map_or(default_mm, |e| e.tag_size_mm(default_mm))
    }

    /// Every distinct tag size of the roster's tags, mm, smallest first (`default_mm`
    /// for units without `tag_mm`).
    #[must_use]
    pub fn tag_sizes_mm(&self, default_mm: f64) -> Vec<f64> {
        let mut v: Vec<f64> = self.units.iter().map(|u| u.tag_mm.unwrap_or(default_mm)).collect();
        v.sort_by(f64::total_cmp);
        v.dedup();
        v
    }

    /// Every tag id of the roster.
    pub fn tag_ids(&self) -> impl Iterator<Item = u32> + '_ {
        self.index.keys().copied()
    }

    /// The roster as TOML text.
    pub fn to_toml_string(&self) -> Result<String, VisionError> {
        toml::to_string_pretty(self)
            .map_err(|e| VisionError::Encode { what: "roster".into(), reason: e.to_string() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const R: &str = r#"
[[unit]]
id = "fr-1"
side = "france"
kind = "infantry"
formation = "line"
base_mm = [30, 20]
tags = [1, 2]

[[unit]]
id = "fr-art"
side = "france"
kind = "artillery"
formation = "unlimbered"
base_mm = [25, 40]
tag_offset_mm = [0, -10]
tags = [3]
"#;

    #[test]
    fn lookup_by_tag() {
        let r = Roster::from_toml_str(R, "r.toml").unwrap();
        let e = r.lookup(3).unwrap();
        assert_eq!((e.unit, e.base), (1, 0));
        assert_eq!(e.offset, Vec2::new(0.0, -10.0));
        assert!(r.lookup(4).is_none());
        assert_eq!(r.game.rules, RuleSet::Republique5);
    }

    #[test]
    fn tag_sizes_per_unit() {
        let r =
            Roster::from_toml_str(&R.replacen("tags = [1, 2]", "tags = [1, 2]\ntag_mm = 10", 1), "r.toml")
                .unwrap();
        assert_eq!(r.tag_size_mm(1, 12.0), 10.0);
        assert_eq!(r.tag_size_mm(3, 12.0), 12.0);
        assert_eq!(r.tag_size_mm(99, 12.0), 12.0);
        assert_eq!(r.tag_sizes_mm(12.0), vec![10.0, 12.0]);
        // Written back as it was read.
        let again = Roster::from_toml_str(&r.to_toml_string().unwrap(), "again.toml").unwrap();
        assert_eq!(again.units[0].tag_mm, Some(10.0));
        assert_eq!(again.units[1].tag_mm, None);
        for bad in ["0", "-3", "nan", "1e9"] {
            let text = R.replacen("tags = [1, 2]", &format!("tags = [1, 2]\ntag_mm = {bad}"), 1);
            let e = Roster::from_toml_str(&text, "r.toml").unwrap_err().to_string();
            assert!(e.contains("r.toml") && e.contains("unit[0] \"fr-1\" tag_mm"), "{bad}: {e}");
        }
    }

    #[test]
    fn errors_name_file_and_field() {
        let e =
            Roster::from_toml_str(&R.replace("tags = [3]", "tags = [2]"), "r.toml").unwrap_err().to_string();
        assert!(e.contains("r.toml") && e.contains("\"fr-art\" tags[0]") && e.contains("fr-1"), "{e}");
        let e = Roster::from_toml_str(&R.replace("[25, 40]", "[25, 0]"), "r.toml").unwrap_err().to_string();
        assert!(e.contains("base_mm[1]"), "{e}");
        let e = Roster::from_toml_str(&R.replace("infantry", "infantery"), "r.toml").unwrap_err().to_string();
        assert!(e.contains("r.toml") && e.contains("infantery"), "{e}");
    }

    /// Issue 37: a unit's paints, `coat` and `flock` as `"#rrggbb"`, are read, written
    /// back the same, and a bad one is refused naming the unit, the key and the value.
    #[test]
    fn declared_paints_are_read_and_checked() {
        let text = format!(
            "{R}\n[[unit]]\nid = \"au-1\"\nside = \"austria\"\nkind = \"cavalry\"\nbase_mm = [40, 30]\nbases = 3\ncoat = \"#22 2c 60\"\nflock = \"#8C7d56\"\n"
        );
        let r = Roster::from_toml_str(&text, "r.toml").unwrap();
        assert_eq!(
            (r.units[2].coat_rgb(), r.units[2].flock_rgb()),
            (Some([34, 44, 96]), Some([140, 125, 86]))
        );
        assert_eq!((r.units[0].coat_rgb(), r.units[0].flock_rgb()), (None, None));
        let again = Roster::from_toml_str(&r.to_toml_string().unwrap(), "r.toml").unwrap();
        assert_eq!(again.units[2].coat_rgb(), Some([34, 44, 96]));
        let painted = r.units[0].clone().painted(Some([1, 2, 255]), None);
        assert_eq!((painted.coat.as_deref(), painted.flock), (Some("#0102ff"), None));
        for (key, bad) in [("coat", "\"blue\""), ("flock", "\"#8c7d5\"")] {
            let wrong = text.replace(&format!("{key} = \""), &format!("{key} = {bad}\nx{key} = \""));
            let wrong = wrong.replace(&format!("x{key} = "), "# ");
            let e = Roster::from_toml_str(&wrong, "r.toml").unwrap_err().to_string();
            assert!(
                e.contains("r.toml")
                    && e.contains(&format!("unit[2] \"au-1\" {key}"))
                    && e.contains(bad.trim_matches('"'))
                    && e.contains("#rrggbb"),
                "{e}"
            );
        }
    }

    /// Issue 37: `bases = N` instead of `tags`, in one roster with tagged units; a unit
    /// with neither, or both, is refused naming it.
    #[test]
    fn untagged_units_give_their_base_count() {
        let mixed = format!(
            "[game]\nnear_side = \"austria\"\n{R}\n[[unit]]\nid = \"au-1\"\nside = \"austria\"\nkind = \"cavalry\"\nformation = \"line\"\nbase_mm = [40, 30]\nbases = 3\n"
        );
        let r = Roster::from_toml_str(&mixed, "r.toml").unwrap();
        let untagged: Vec<_> = r.untagged_units().map(|(i, u)| (i, u.id.as_str(), u.base_count())).collect();
        assert_eq!(untagged, vec![(2, "au-1", 3)]);
        assert_eq!(r.units[0].base_count(), 2);
        assert!(r.units[0].is_tagged() && !r.units[2].is_tagged());
        assert_eq!(r.game.near_side.as_deref(), Some("austria"));
        // Written back and read again: the same roster.
        let again = Roster::from_toml_str(&r.to_toml_string().unwrap(), "r.toml").unwrap();
        assert_eq!(again, r);
        let neither = mixed.replace("bases = 3\n", "");
        let e = Roster::from_toml_str(&neither, "r.toml").unwrap_err().to_string();
        assert!(e.contains("r.toml") && e.contains("unit[2] \"au-1\"") && e.contains("neither"), "{e}");
        let both = mixed.replace("bases = 3", "bases = 3\ntags = [7]");
        let e = Roster::from_toml_str(&both, "r.toml").unwrap_err().to_string();
        assert!(e.contains("unit[2] \"au-1\" bases") && e.contains("not both"), "{e}");
        let none = mixed.replace("bases = 3", "bases = 0");
        let e = Roster::from_toml_str(&none, "r.toml").unwrap_err().to_string();
        assert!(e.contains("unit[2] \"au-1\" bases") && e.contains("got 0"), "{e}");
        let stranger = mixed.replace("near_side = \"austria\"", "near_side = \"prussia\"");
        let e = Roster::from_toml_str(&stranger, "r.toml").unwrap_err().to_string();
        assert!(e.contains("game.near_side") && e.contains("prussia"), "{e}");
    }

    #[test]
    fn units_follow_the_table_rules() {
        // Limbered infantry: refused as a table file would be, naming the unit.
        let limbered = R.replacen("formation = \"line\"", "formation = \"limbered\"", 1);
        let e = Roster::from_toml_str(&limbered, "r.toml").unwrap_err().to_string();
        assert!(e.contains("r.toml") && e.contains("unit[0] \"fr-1\" formation"), "{e}");
        assert!(e.contains("infantry cannot be limbered"), "{e}");
        // A parent that is not in the roster.
        let orphan = format!(
            "{R}\n[[unit]]\nid = \"sk\"\nside = \"france\"\nkind = \"skirmisher\"\nparent = \"fr-9\"\nbase_mm = [20, 20]\ntags = [4]\n"
        );
        let e = Roster::from_toml_str(&orphan, "r.toml").unwrap_err().to_string();
        assert!(e.contains("unit[2] \"sk\" parent") && e.contains("no unit \"fr-9\""), "{e}");
        assert!(Roster::from_toml_str(&orphan.replace("fr-9", "fr-1"), "r.toml").is_ok());
        // Sizes and offsets a table can hold (1e300 used to scan into an unusable table).
        let far = R.replace("[0, -10]", "[0, 1e300]");
        let e = Roster::from_toml_str(&far, "r.toml").unwrap_err().to_string();
        assert!(e.contains("tag_offset_mm"), "{e}");
        let wide = R.replace("[25, 40]", "[25, 1e9]");
        assert!(Roster::from_toml_str(&wide, "r.toml").unwrap_err().to_string().contains("base_mm[1]"));
    }
}
