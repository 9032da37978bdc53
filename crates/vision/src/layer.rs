//! Terrain layers: a table's terrain kept apart from its units, so a club lays out the
//! table once (scanned from a photo of the empty table, or drawn by hand) and merges
//! the layer into every scan of the game played on it (issue 19).
//!
//! A layer is an ordinary `vedette/table/1` file: its `terrain` is the layer, and its
//! `size` (when given) must match the scanned table. Any table file serves: units and
//! markers in it are ignored when merging, so the hand-typed table of a game can lend
//! its terrain to a scan of the same game.

use crate::error::VisionError;
use vedette_geometry::Table;

/// How far a layer's table size may differ from the scanned table's, mm: a layer drawn
/// for another table would put every wood in the wrong place.
pub const LAYER_SIZE_TOLERANCE_MM: f64 = 1.0;

/// The terrain layer of a table: the same table with its units and markers removed.
///
/// ```
/// use vedette_geometry::Table;
/// let t = Table::from_json_str(r#"{"schema":"vedette/table/1","rules":"republique5",
///   "scale":"medium","size":{"width":400,"depth":300},
///   "units":[{"id":"a","side":"fr","kind":"infantry","formation":"line",
///     "bases":[{"x":100,"y":100,"heading":90,"width":30,"depth":20}]}],
///   "terrain":[{"kind":"marsh","outline":[[10,10],[60,10],[60,60]]}]}"#)?;
/// let layer = vedette_vision::terrain_layer(&t);
/// assert!(layer.units.is_empty());
/// assert_eq!(layer.terrain, t.terrain);
/// # Ok::<(), vedette_geometry::GeometryError>(())
/// ```
#[must_use]
pub fn terrain_layer(table: &Table) -> Table {
    Table { units: Vec::new(), markers: Vec::new(), sides: Default::default(), ..table.clone() }
}

/// Replaces `table`'s terrain with `layer`'s. `origin` names the layer's file in
/// errors. Fails when both tables give a size and the sizes differ by more than
/// [`LAYER_SIZE_TOLERANCE_MM`].
pub fn merge_terrain(table: &mut Table, layer: &Table, origin: &str) -> Result<(), VisionError> {
    if let (Some(a), Some(b)) = (table.size, layer.size) {
        let off = (a.width - b.width).abs().max((a.depth - b.depth).abs());
        if off > LAYER_SIZE_TOLERANCE_MM {
            return Err(VisionError::LayerMismatch {
                path: origin.to_string(),
                reason: format!(
                    "the layer is for a {:.1} x {:.1} mm table, the scanned table is {:.1} x {:.1} mm",
                    b.width, b.depth, a.width, a.depth
                ),
            });
        }
    }
    table.terrain = layer.terrain.clone();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(width: f64) -> Table {
        Table::from_json_str(&format!(
            r#"{{"schema":"vedette/table/1","rules":"republique5","scale":"medium",
            "size":{{"width":{width},"depth":300}},"units":[],
            "terrain":[{{"kind":"medium-forest","outline":[[10,10],[60,10],[60,60],[10,60]]}}]}}"#
        ))
        .unwrap()
    }

    #[test]
    fn merging_replaces_the_terrain() {
        let mut scanned = table(400.0);
        scanned.terrain.clear();
        merge_terrain(&mut scanned, &table(400.4), "layer.json").unwrap();
        assert_eq!(scanned.terrain, table(400.0).terrain);
    }

    #[test]
    fn a_layer_of_another_table_is_refused() {
        let mut scanned = table(400.0);
        let e = merge_terrain(&mut scanned, &table(600.0), "layer.json").unwrap_err().to_string();
        assert!(e.contains("layer.json") && e.contains("600.0 x 300.0"), "{e}");
    }
}
