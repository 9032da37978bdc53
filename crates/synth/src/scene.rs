//! What a photo shows: the table (bases, markers, terrain), the printed table
//! fiducials and the tags on bases.
//!
//! # Conventions
//! - A printed marker's "up" is the top edge of OpenCV's canonical marker image (the
//!   edge from its corner 0 to corner 1 in `detectMarkers` order). Corners are listed
//!   in that order: top-left, top-right, bottom-right, bottom-left of the image.
//! - A table fiducial with `rotation_deg = 0` has its up towards table +y and its right
//!   towards +x; the rotation turns it counter-clockwise.
//! - A base tag lies flat on the base top with its up towards the base front, so its
//!   rotation is the base heading minus 90°. Its offset is in the base frame: x to the
//!   base's right, y to its front.
//! - `side_mm` is the side of the black square (OpenCV's `markerLength`); the white
//!   quiet zone around it is extra paper.

use crate::dictionary::{ArucoDictionary, MarkerBits};
use crate::error::SynthError;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use vedette_geometry::{Base, BaseRef, Table, TableSize, Vec2};

/// Height of a base top above the table, mm: bases are 3 mm boxes.
pub const DEFAULT_BASE_HEIGHT_MM: f64 = 3.0;
/// Side of a base tag's black square, mm.
pub const DEFAULT_TAG_SIDE_MM: f64 = 12.0;
/// White paper around a table fiducial's black square, mm.
pub const DEFAULT_FIDUCIAL_QUIET_ZONE_MM: f64 = 10.0;

/// A fiducial printed on paper lying on the table (z = 0).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableFiducial {
    /// Its dictionary.
    pub dictionary: ArucoDictionary,
    /// Its id in the dictionary.
    pub id: u32,
    /// Centre of the marker, table mm.
    pub centre_mm: Vec2,
    /// Side of the black square, mm.
    pub side_mm: f64,
    /// Counter-clockwise turn of the marker's up from table +y, degrees.
    #[serde(default)]
    pub rotation_deg: f64,
    /// White paper around the black square, mm.
    #[serde(default = "default_fiducial_quiet_zone")]
    pub quiet_zone_mm: f64,
}

fn default_fiducial_quiet_zone() -> f64 {
    DEFAULT_FIDUCIAL_QUIET_ZONE_MM
}

impl TableFiducial {
    /// The fiducial as a printed square on the table plane.
    pub fn printed(&self) -> Result<PrintedMarker, SynthError> {
        PrintedMarker::new(
            self.dictionary,
            self.id,
            self.centre_mm,
            Vec2::from_heading_deg(90.0 + self.rotation_deg),
            self.side_mm,
            self.quiet_zone_mm,
            0.0,
        )
    }
}

/// A tag on a base, as a layout file names it: by unit id and base index.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TagSpec {
    /// The unit's id.
    pub unit: String,
    /// The base's index in the unit.
    pub base: usize,
    /// Its dictionary.
    pub dictionary: ArucoDictionary,
    /// Its id in the dictionary.
    pub id: u32,
    /// Side of the black square, mm.
    #[serde(default = "default_tag_side")]
    pub side_mm: f64,
    /// Tag centre in the base frame (x to the base's right, y to its front), mm.
    #[serde(default)]
    pub offset_mm: Vec2,
    /// White paper around the black square, mm (default: one marker cell).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quiet_zone_mm: Option<f64>,
}

fn default_tag_side() -> f64 {
    DEFAULT_TAG_SIDE_MM
}

/// A tag on a base of the scene's table.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BaseTag {
    /// The base it lies on.
    pub base: BaseRef,
    /// Its dictionary.
    pub dictionary: ArucoDictionary,
    /// Its id in the dictionary.
    pub id: u32,
    /// Side of the black square, mm.
    pub side_mm: f64,
    /// Tag centre in the base frame (x to the base's right, y to its front), mm.
    pub offset_mm: Vec2,
    /// White paper around the black square, mm.
    pub quiet_zone_mm: f64,
}

impl BaseTag {
    /// The tag as a printed square on the top of `base`, `base_height_mm` above the table.
    pub fn printed(&self, base: &Base, base_height_mm: f64) -> Result<PrintedMarker, SynthError> {
        PrintedMarker::new(
            self.dictionary,
            self.id,
            base.to_table(self.offset_mm),
            base.forward(),
            self.side_mm,
            self.quiet_zone_mm,
            base_height_mm,
        )
    }
}

/// A square marker printed on paper lying flat at height `z_mm`: the geometry shared by
/// fiducials and tags.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PrintedMarker {
    /// Its dictionary.
    pub dictionary: ArucoDictionary,
    /// Its id.
    pub id: u32,
    /// Its bits.
    pub bits: MarkerBits,
    /// Centre, table mm.
    pub centre_mm: Vec2,
    /// Unit vector of the marker's up, in the table plane.
    pub up: Vec2,
    /// Side of the black square, mm.
    pub side_mm: f64,
    /// White paper around the black square, mm.
    pub quiet_zone_mm: f64,
    /// Height of the paper above the table, mm.
    pub z_mm: f64,
}

/// What a point of a printed marker's sheet shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ink {
    /// Outside the paper.
    Off,
    /// White paper: the quiet zone or a white cell (`cell` numbers the printed cell,
    /// 0 for the quiet zone).
    White { cell: u32 },
    /// A black cell.
    Black { cell: u32 },
}

impl PrintedMarker {
    /// A printed marker; checks the id, the sizes and the up vector.
    pub fn new(
        dictionary: ArucoDictionary,
        id: u32,
        centre_mm: Vec2,
        up: Vec2,
        side_mm: f64,
        quiet_zone_mm: f64,
        z_mm: f64,
    ) -> Result<Self, SynthError> {
        let bits = dictionary.marker(id)?;
        if !(side_mm.is_finite() && side_mm > 0.0) {
            return Err(invalid(format!("{dictionary} id {id}: side {side_mm} mm must be positive")));
        }
        if !(quiet_zone_mm.is_finite() && quiet_zone_mm >= 0.0) {
            return Err(invalid(format!("{dictionary} id {id}: quiet zone {quiet_zone_mm} mm must be >= 0")));
        }
        let up = up.normalized().ok_or_else(|| invalid(format!("{dictionary} id {id}: no up direction")))?;
        if !centre_mm.is_finite() || !z_mm.is_finite() {
            return Err(invalid(format!("{dictionary} id {id}: position must be finite")));
        }
        Ok(PrintedMarker { dictionary, id, bits, centre_mm, up, side_mm, quiet_zone_mm, z_mm })
    }

    /// The marker's right, in the table plane.
    #[must_use]
    pub fn right(&self) -> Vec2 {
        self.up.perp_right()
    }

    /// The black square's corners in OpenCV's order (top-left, top-right,
    /// bottom-right, bottom-left of the marker image), table mm at height `z_mm`.
    #[must_use]
    pub fn corners_mm(&self) -> [[f64; 3]; 4] {
        self.square_corners(self.side_mm / 2.0)
    }

    /// The paper's corners (black square plus quiet zone), same order.
    #[must_use]
    pub fn paper_corners_mm(&self) -> [[f64; 3]; 4] {
        self.square_corners(self.side_mm / 2.0 + self.quiet_zone_mm)
    }

    fn square_corners(&self, h: f64) -> [[f64; 3]; 4] {
        let (r, u) = (self.right(), self.up);
        [(-h, h), (h, h), (h, -h), (-h, -h)].map(|(a, b)| {
            let p = self.centre_mm + r * a + u * b;
            [p.x, p.y, self.z_mm]
        })
    }

    /// What the sheet shows at table point `p` (its height is not checked).
    pub(crate) fn ink_at(&self, p: Vec2) -> Ink {
        let d = p - self.centre_mm;
        let (x, y) = (d.dot(self.right()), d.dot(self.up));
        let half = self.side_mm / 2.0;
        let paper = half + self.quiet_zone_mm;
        if x.abs() > paper || y.abs() > paper {
            return Ink::Off;
        }
        if x.abs() >= half || y.abs() >= half {
            return Ink::White { cell: 0 };
        }
        let n = self.bits.bits_per_side() + 2;
        let cell_mm = self.side_mm / n as f64;
        let col = (((x + half) / cell_mm) as usize).min(n - 1);
        let row = (((half - y) / cell_mm) as usize).min(n - 1);
        let cell = (row * n + col + 1) as u32;
        if self.bits.printed_cell_is_white(row, col) { Ink::White { cell } } else { Ink::Black { cell } }
    }
}

fn invalid(reason: String) -> SynthError {
    SynthError::InvalidScene { reason }
}

/// The fiducials and tags of a scene, as a layout file (JSON) gives them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Layout {
    /// Fiducials printed on paper lying on the table.
    #[serde(default)]
    pub fiducials: Vec<TableFiducial>,
    /// Tags on bases.
    #[serde(default)]
    pub tags: Vec<TagSpec>,
    /// Height of base tops above the table, mm.
    #[serde(default = "default_base_height")]
    pub base_height_mm: f64,
}

fn default_base_height() -> f64 {
    DEFAULT_BASE_HEIGHT_MM
}

impl Default for Layout {
    /// No fiducials, no tags, bases [`DEFAULT_BASE_HEIGHT_MM`] high.
    fn default() -> Self {
        Layout { fiducials: Vec::new(), tags: Vec::new(), base_height_mm: DEFAULT_BASE_HEIGHT_MM }
    }
}

impl Layout {
    /// Parses a layout file's JSON text; `origin` names it in errors.
    pub fn from_json_str(text: &str, origin: &str) -> Result<Layout, SynthError> {
        serde_json::from_str(text).map_err(|source| SynthError::Json { origin: origin.to_string(), source })
    }

    /// The layout as pretty JSON text.
    #[must_use]
    pub fn to_json_string(&self) -> String {
        // Plain data with string keys: serializing cannot fail.
        serde_json::to_string_pretty(self).unwrap_or_default()
    }
}

/// The layout the sample photos use, and the vision crate's default profile matches:
/// four fiducials near the corners and a tag centred on every base big enough for one.
///
/// Fiducial ids go counter-clockwise from the near-left corner: 0 near-left, 1
/// near-right, 2 far-right, 3 far-left, each centred `inset_mm` from both edges of its
/// corner, unrotated. Tags are numbered from `first_tag_id` in table order (units in
/// file order, bases in unit order), skipping bases narrower or shallower than the tag
/// with its quiet zone; a skipped base takes no id.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StandardLayout {
    /// Dictionary of the table fiducials.
    pub fiducial_dictionary: ArucoDictionary,
    /// Side of a fiducial's black square, mm.
    pub fiducial_side_mm: f64,
    /// Distance of each fiducial centre from the two table edges of its corner, mm.
    pub inset_mm: f64,
    /// Dictionary of the base tags.
    pub tag_dictionary: ArucoDictionary,
    /// Id of the first base tag.
    pub first_tag_id: u32,
    /// Side of a tag's black square, mm.
    pub tag_side_mm: f64,
}

impl Default for StandardLayout {
    /// 60 mm `DICT_4X4_250` fiducials 60 mm in from the corners, 12 mm `DICT_4X4_250`
    /// tags from id 10.
    fn default() -> Self {
        StandardLayout {
            fiducial_dictionary: ArucoDictionary::Dict4x4_250,
            fiducial_side_mm: 60.0,
            inset_mm: 60.0,
            tag_dictionary: ArucoDictionary::Dict4x4_250,
            first_tag_id: 10,
            tag_side_mm: DEFAULT_TAG_SIDE_MM,
        }
    }
}

impl StandardLayout {
    /// The layout for a table (which must give its size).
    pub fn build(&self, table: &Table) -> Result<Layout, SynthError> {
        let size = table_size(table)?;
        let (w, d, i) = (size.width, size.depth, self.inset_mm);
        let fiducials = [(i, i), (w - i, i), (w - i, d - i), (i, d - i)]
            .into_iter()
            .zip(0u32..)
            .map(|((x, y), id)| TableFiducial {
                dictionary: self.fiducial_dictionary,
                id,
                centre_mm: Vec2::new(x, y),
                side_mm: self.fiducial_side_mm,
                rotation_deg: 0.0,
                quiet_zone_mm: DEFAULT_FIDUCIAL_QUIET_ZONE_MM,
            })
            .collect();
        let paper = self.tag_side_mm + 2.0 * default_quiet_zone(self.tag_dictionary, self.tag_side_mm);
        let mut tags = Vec::new();
        let mut id = self.first_tag_id;
        for (r, base) in table.bases() {
            if base.width() < paper || base.depth() < paper {
                continue;
            }
            if id >= self.tag_dictionary.count() {
                return Err(invalid(format!(
                    "{} bases need tags but {} has ids only up to {}",
                    table.base_count(),
                    self.tag_dictionary,
                    self.tag_dictionary.count() - 1
                )));
            }
            tags.push(TagSpec {
                unit: table.units[r.unit].id.clone(),
                base: r.base,
                dictionary: self.tag_dictionary,
                id,
                side_mm: self.tag_side_mm,
                offset_mm: Vec2::ZERO,
                quiet_zone_mm: None,
            });
            id += 1;
        }
        Ok(Layout { fiducials, tags, base_height_mm: DEFAULT_BASE_HEIGHT_MM })
    }
}

/// One printed cell of white paper around a tag: the usual quiet zone.
fn default_quiet_zone(dictionary: ArucoDictionary, side_mm: f64) -> f64 {
    side_mm / (dictionary.bits_per_side() + 2) as f64
}

fn table_size(table: &Table) -> Result<TableSize, SynthError> {
    table.size.ok_or_else(|| invalid("the table file must give its size".to_string()))
}

/// A validated scene: the table with its fiducials and tags.
///
/// ```
/// use vedette_geometry::Table;
/// use vedette_synth::{Scene, StandardLayout};
/// let table = Table::from_json_str(r#"{"schema":"vedette/table/1","rules":"republique5",
///   "scale":"medium","size":{"width":1828.8,"depth":1219.2},"units":[{"id":"a",
///   "side":"fr","kind":"infantry","formation":"line",
///   "bases":[{"x":900,"y":600,"heading":90,"width":30,"depth":20}]}]}"#)?;
/// let layout = StandardLayout::default().build(&table)?;
/// let scene = Scene::new(table, &layout)?;
/// assert_eq!(scene.fiducials().len(), 4);
/// assert_eq!(scene.tags()[0].id, 10);
/// # Ok::<(), vedette_synth::SynthError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Scene {
    table: Table,
    size: TableSize,
    fiducials: Vec<TableFiducial>,
    tags: Vec<BaseTag>,
    base_height_mm: f64,
}

impl Scene {
    /// A scene from a table (which must give its size) and a layout. Checks that every
    /// tag names a base and fits on its top, that every id is in its dictionary, that
    /// no marker is printed twice and that fiducial centres are on the table.
    pub fn new(table: Table, layout: &Layout) -> Result<Scene, SynthError> {
        let size = table_size(&table)?;
        let h = layout.base_height_mm;
        if !(h.is_finite() && h > 0.0) {
            return Err(invalid(format!("base height {h} mm must be positive")));
        }
        let mut seen: HashMap<(usize, u32), String> = HashMap::new();
        let mut claim = |dictionary: ArucoDictionary, id: u32, what: String| match seen
            .insert((dictionary.bits_per_side(), id), what.clone())
        {
            Some(first) => {
                Err(invalid(format!("{what} and {first} are the same marker ({dictionary} id {id})")))
            }
            None => Ok(()),
        };
        for (i, f) in layout.fiducials.iter().enumerate() {
            f.printed()?;
            let c = f.centre_mm;
            if !(0.0..=size.width).contains(&c.x) || !(0.0..=size.depth).contains(&c.y) {
                return Err(invalid(format!("fiducial {i} (id {}) is centred off the table at {c:?}", f.id)));
            }
            claim(f.dictionary, f.id, format!("fiducial {i}"))?;
        }
        let mut tags = Vec::with_capacity(layout.tags.len());
        for spec in &layout.tags {
            let label = format!("tag {} on {}#{}", spec.id, spec.unit, spec.base);
            let unit = table
                .unit_index(&spec.unit)
                .ok_or_else(|| invalid(format!("{label}: the table has no unit \"{}\"", spec.unit)))?;
            let base_ref = BaseRef::new(unit, spec.base);
            let base =
                table.base(base_ref).ok_or_else(|| invalid(format!("{label}: the unit has no such base")))?;
            let tag = BaseTag {
                base: base_ref,
                dictionary: spec.dictionary,
                id: spec.id,
                side_mm: spec.side_mm,
                offset_mm: spec.offset_mm,
                quiet_zone_mm: spec
                    .quiet_zone_mm
                    .unwrap_or(default_quiet_zone(spec.dictionary, spec.side_mm)),
            };
            let printed = tag.printed(base, h)?;
            let fits = printed.paper_corners_mm().iter().all(|p| {
                let l = base.to_local(Vec2::new(p[0], p[1]));
                l.x.abs() <= base.width() / 2.0 + 1e-9 && l.y.abs() <= base.depth() / 2.0 + 1e-9
            });
            if !fits {
                return Err(invalid(format!(
                    "{label}: the tag and its quiet zone ({:.1} mm square) do not fit on the {}x{} mm base",
                    tag.side_mm + 2.0 * tag.quiet_zone_mm,
                    base.width(),
                    base.depth()
                )));
            }
            claim(spec.dictionary, spec.id, label)?;
            tags.push(tag);
        }
        Ok(Scene { table, size, fiducials: layout.fiducials.clone(), tags, base_height_mm: h })
    }

    /// The table.
    #[must_use]
    pub fn table(&self) -> &Table {
        &self.table
    }

    /// The table's size, mm.
    #[must_use]
    pub fn size(&self) -> TableSize {
        self.size
    }

    /// The table fiducials.
    #[must_use]
    pub fn fiducials(&self) -> &[TableFiducial] {
        &self.fiducials
    }

    /// The base tags.
    #[must_use]
    pub fn tags(&self) -> &[BaseTag] {
        &self.tags
    }

    /// Height of base tops above the table, mm.
    #[must_use]
    pub fn base_height_mm(&self) -> f64 {
        self.base_height_mm
    }

    /// The base a tag lies on.
    pub(crate) fn tag_base(&self, tag: &BaseTag) -> Result<&Base, SynthError> {
        self.table.base(tag.base).ok_or_else(|| invalid(format!("tag {} names a missing base", tag.id)))
    }

    /// Every tag as printed, in [`Scene::tags`] order.
    pub fn printed_tags(&self) -> Result<Vec<PrintedMarker>, SynthError> {
        self.tags.iter().map(|t| t.printed(self.tag_base(t)?, self.base_height_mm)).collect()
    }

    /// Every fiducial as printed, in [`Scene::fiducials`] order.
    pub fn printed_fiducials(&self) -> Result<Vec<PrintedMarker>, SynthError> {
        self.fiducials.iter().map(TableFiducial::printed).collect()
    }

    /// The same table emptied (issue 37's photo of the empty table): its mat, terrain
    /// and fiducials, without units (so without bases, figures and tags) or marker
    /// cubes.
    #[must_use]
    pub fn emptied(&self) -> Scene {
        let mut table = self.table.clone();
        table.units.clear();
        table.markers.clear();
        Scene { table, size: self.size, fiducials: self.fiducials.clone(), tags: Vec::new(), ..*self }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_relative_eq;

    pub(crate) fn small_table() -> Table {
        Table::from_json_str(
            r#"{"schema":"vedette/table/1","rules":"republique5","scale":"medium",
            "size":{"width":400,"depth":300},
            "units":[{"id":"fr-1","side":"fr","kind":"infantry","formation":"line","bases":[
              {"x":150,"y":150,"heading":90,"width":30,"depth":20},
              {"x":180,"y":150,"heading":90,"width":30,"depth":20}]},
             {"id":"fr-l","side":"fr","kind":"leader","bases":[{"x":250,"y":120,"heading":45,"width":12,"depth":12}]}]}"#,
        )
        .unwrap()
    }

    #[test]
    fn standard_layout_numbers_fiducials_and_tags() {
        let table = small_table();
        let layout = StandardLayout::default().build(&table).unwrap();
        let centres: Vec<[f64; 2]> =
            layout.fiducials.iter().map(|f| [f.centre_mm.x, f.centre_mm.y]).collect();
        assert_eq!(centres, [[60.0, 60.0], [340.0, 60.0], [340.0, 240.0], [60.0, 240.0]]);
        assert_eq!(layout.fiducials.iter().map(|f| f.id).collect::<Vec<_>>(), [0, 1, 2, 3]);
        // The 12 mm leader base is too small for a 16 mm tag sheet: two tags.
        assert_eq!(
            layout.tags.iter().map(|t| (t.unit.as_str(), t.base, t.id)).collect::<Vec<_>>(),
            [("fr-1", 0, 10), ("fr-1", 1, 11)]
        );
        let scene = Scene::new(table, &layout).unwrap();
        assert_relative_eq!(scene.tags()[0].quiet_zone_mm, 2.0);
    }

    #[test]
    fn tag_corners_follow_the_base_front() {
        let table = small_table();
        let layout = StandardLayout::default().build(&table).unwrap();
        let scene = Scene::new(table, &layout).unwrap();
        // Base heading 90 (front towards +y): corner 0 is front-left.
        let c = scene.printed_tags().unwrap()[0].corners_mm();
        assert_relative_eq!(c[0][0], 144.0, epsilon = 1e-9);
        assert_relative_eq!(c[0][1], 156.0, epsilon = 1e-9);
        assert_relative_eq!(c[0][2], 3.0);
        assert_relative_eq!(c[2][0], 156.0, epsilon = 1e-9);
        assert_relative_eq!(c[2][1], 144.0, epsilon = 1e-9);
        // A fiducial turned 90° counter-clockwise has its up towards -x.
        let f = TableFiducial {
            dictionary: ArucoDictionary::Dict4x4_250,
            id: 0,
            centre_mm: Vec2::new(100.0, 100.0),
            side_mm: 60.0,
            rotation_deg: 90.0,
            quiet_zone_mm: 10.0,
        };
        let c = f.printed().unwrap().corners_mm();
        assert_relative_eq!(c[0][0], 70.0, epsilon = 1e-9);
        assert_relative_eq!(c[0][1], 70.0, epsilon = 1e-9);
        assert_relative_eq!(c[1][0], 70.0, epsilon = 1e-9);
        assert_relative_eq!(c[1][1], 130.0, epsilon = 1e-9);
    }

    #[test]
    fn ink_reads_the_cells_in_image_order() {
        let m = PrintedMarker::new(
            ArucoDictionary::Dict4x4_250,
            10,
            Vec2::new(0.0, 0.0),
            Vec2::new(0.0, 1.0),
            6.0,
            1.0,
            0.0,
        )
        .unwrap();
        // 1 mm cells; printed row 1 of marker 10 is 011110: white at column 1..=4.
        assert_eq!(m.ink_at(Vec2::new(-1.5, 1.5)), Ink::White { cell: 8 });
        assert_eq!(m.ink_at(Vec2::new(-1.5, -1.5)), Ink::Black { cell: 26 });
        assert!(matches!(m.ink_at(Vec2::new(-2.9, 0.0)), Ink::Black { .. }));
        assert_eq!(m.ink_at(Vec2::new(3.5, 0.0)), Ink::White { cell: 0 });
        assert_eq!(m.ink_at(Vec2::new(4.5, 0.0)), Ink::Off);
    }

    #[test]
    fn bad_layouts_are_refused_with_reasons() {
        let table = small_table();
        let mut layout = StandardLayout::default().build(&table).unwrap();
        layout.tags[1].id = 2;
        let err = Scene::new(table.clone(), &layout).unwrap_err().to_string();
        assert!(err.contains("same marker"), "{err}");

        let mut layout = StandardLayout::default().build(&table).unwrap();
        layout.tags.push(TagSpec {
            unit: "fr-l".into(),
            base: 0,
            dictionary: ArucoDictionary::Dict4x4_250,
            id: 40,
            side_mm: 12.0,
            offset_mm: Vec2::ZERO,
            quiet_zone_mm: None,
        });
        let err = Scene::new(table.clone(), &layout).unwrap_err().to_string();
        assert!(err.contains("do not fit"), "{err}");

        let mut layout = StandardLayout::default().build(&table).unwrap();
        layout.tags[0].unit = "nobody".into();
        let err = Scene::new(table.clone(), &layout).unwrap_err().to_string();
        assert!(err.contains("no unit \"nobody\""), "{err}");

        let mut no_size = table;
        no_size.size = None;
        assert!(StandardLayout::default().build(&no_size).is_err());
    }

    #[test]
    fn layout_files_round_trip_with_defaults() {
        let text = r#"{"fiducials":[{"dictionary":"DICT_4X4_250","id":0,"centre_mm":[60,60],"side_mm":60}],
            "tags":[{"unit":"fr-1","base":0,"dictionary":"DICT_4X4_250","id":10}]}"#;
        let layout = Layout::from_json_str(text, "layout").unwrap();
        assert_relative_eq!(layout.base_height_mm, 3.0);
        assert_relative_eq!(layout.fiducials[0].quiet_zone_mm, 10.0);
        assert_relative_eq!(layout.tags[0].side_mm, 12.0);
        assert_eq!(Layout::from_json_str(&layout.to_json_string(), "again").unwrap(), layout);
        assert!(Layout::from_json_str(r#"{"fiducial":[]}"#, "typo").is_err());
    }
}
