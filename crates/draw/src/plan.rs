//! The table itself as a scene: its outline, terrain pieces by kind, status markers, and
//! every base coloured by side with its front edge, a facing tick and its unit's id.
//! Every picture starts from this; the findings add their layers on top.

use crate::projection::{PlanView, Projection};
use crate::scene::{Height, LayerId, Scene, Shape, id_part};
use crate::style::{side_class, terrain_class};
use crate::svg::SvgOptions;
use std::collections::BTreeMap;
use vedette_geometry::{Base, BaseRef, MARKER_CUBE_MM, Table, Vec2};

/// Text height of unit ids, table mm.
pub const ID_TEXT_MM: f64 = 4.0;
/// Text height of verdict labels, table mm.
pub const VERDICT_TEXT_MM: f64 = 4.5;
/// Margin around a plan, mm.
pub const PLAN_MARGIN_MM: f64 = 20.0;
/// Room on the right of a plan for the legend, mm.
pub const LEGEND_ROOM_MM: f64 = 160.0;

/// The number of each side, in the order of the side names (the colour order).
#[must_use]
pub fn side_numbers(table: &Table) -> BTreeMap<String, usize> {
    let mut sides: Vec<&str> = table.units.iter().map(|u| u.side.as_str()).collect();
    sides.sort_unstable();
    sides.dedup();
    sides.into_iter().enumerate().map(|(i, s)| (s.to_string(), i)).collect()
}

/// A terrain piece's name: its id, or `terrain[i]`.
#[must_use]
pub fn terrain_name(table: &Table, feature: usize) -> String {
    table.terrain.get(feature).and_then(|t| t.id.clone()).unwrap_or_else(|| format!("terrain[{feature}]"))
}

/// A terrain piece named with its kind, as the plan labels it: `big-wood (medium-forest)`.
#[must_use]
pub fn terrain_words(table: &Table, feature: usize) -> String {
    let kind = table.terrain.get(feature).map_or("terrain", |t| t.kind.name());
    format!("{} ({kind})", terrain_name(table, feature))
}

/// The element id of a base: `base-UNIT.INDEX`.
#[must_use]
pub fn base_id(table: &Table, r: BaseRef) -> String {
    format!("base-{}.{}", id_part(table.units.get(r.unit).map_or("?", |u| u.id.as_str())), r.base)
}

/// The outline of a base, counter-clockwise.
#[must_use]
pub fn base_outline(b: &Base) -> Vec<Vec2> {
    b.vertices_ccw().to_vec()
}

/// The facing mark of a base: its front edge with a tick out of the middle.
#[must_use]
pub fn facing_mark(b: &Base) -> Vec<Vec2> {
    let c = b.corners();
    let m = b.front_midpoint();
    let tick = m + b.forward() * (b.depth() / 3.0).min(4.0);
    vec![c.front_left, m, tick, m, c.front_right]
}

/// The scene of the table: outline, terrain, markers, bases, ids and the sides' legend.
#[must_use]
pub fn table_scene(table: &Table, title: &str) -> Scene {
    let mut s = Scene::new(title);
    if let Some(size) = table.size {
        let (lo, hi) = (Vec2::new(0.0, 0.0), Vec2::new(size.width, size.depth));
        s.extent = Some((lo, hi));
        s.add(
            LayerId::Table,
            "table-edge",
            "table-edge",
            Shape::polygon(vec![lo, Vec2::new(hi.x, 0.0), hi, Vec2::new(0.0, hi.y)]),
            Height::Table,
            Some(format!("the table, {:.0} x {:.0} mm", size.width, size.depth)),
        );
    }
    for (i, t) in table.terrain.iter().enumerate() {
        let name = terrain_name(table, i);
        let kind = t.kind.name();
        let linear = t.kind.is_linear();
        let class = format!("terrain {}", terrain_class(kind, linear));
        let title = Some(format!("{kind} \"{name}\" (level {})", t.level));
        let id = format!("terrain-{}", t.id.as_deref().map_or(i.to_string(), id_part));
        let shape = if linear {
            Shape::Polyline(t.path.clone())
        } else {
            Shape::Polygon { exterior: t.outline.clone(), holes: t.holes.clone() }
        };
        let anchor = {
            let pts = if linear { &t.path } else { &t.outline };
            let n = pts.len().max(1) as f64;
            pts.iter().fold(Vec2::new(0.0, 0.0), |a, &p| a + p) / n
        };
        s.add(LayerId::Terrain, &id, &class, shape, Height::Table, title);
        s.add(
            LayerId::Terrain,
            &format!("{id}-label"),
            "terrain-label",
            Shape::label(anchor, terrain_words(table, i), ID_TEXT_MM),
            Height::Table,
            None,
        );
        s.legend(terrain_class(kind, linear), &format!("terrain: {kind}"), linear);
    }
    for (i, m) in table.markers.iter().enumerate() {
        let h = m.size.unwrap_or(MARKER_CUBE_MM) / 2.0;
        let (x, y) = (m.x, m.y);
        s.add(
            LayerId::Bases,
            &format!("marker-{i}"),
            "marker",
            Shape::polygon(vec![
                Vec2::new(x - h, y - h),
                Vec2::new(x + h, y - h),
                Vec2::new(x + h, y + h),
                Vec2::new(x - h, y + h),
            ]),
            Height::BaseTop,
            Some(format!(
                "marker[{i}] {:?}{}",
                m.kind,
                m.unit.as_ref().map_or(String::new(), |u| format!(" of {u}"))
            )),
        );
    }
    let sides = side_numbers(table);
    for (side, &n) in &sides {
        s.legend(&format!("swatch {}", side_class(n)), &format!("side: {side}"), false);
    }
    for (ui, u) in table.units.iter().enumerate() {
        let class =
            format!("base {} kind-{}", side_class(sides.get(&u.side).copied().unwrap_or(0)), u.kind.name());
        let mut centre = Vec2::new(0.0, 0.0);
        for (bi, b) in u.bases.iter().enumerate() {
            let r = BaseRef::new(ui, bi);
            let id = base_id(table, r);
            s.add(
                LayerId::Bases,
                &id,
                &class,
                Shape::polygon(base_outline(b)),
                Height::BaseTop,
                Some(format!("{} ({}, {})", table.base_label(r), u.kind.name(), u.side)),
            );
            s.add(
                LayerId::Bases,
                &format!("{id}-facing"),
                "facing",
                Shape::Polyline(facing_mark(b)),
                Height::BaseTop,
                None,
            );
            centre += b.centre();
        }
        if !u.bases.is_empty() {
            centre = centre / u.bases.len() as f64;
            s.add(
                LayerId::Bases,
                &format!("unit-{}-label", id_part(&u.id)),
                "unit-label",
                Shape::label(centre, u.id.clone(), ID_TEXT_MM),
                Height::BaseTop,
                None,
            );
        }
    }
    s.legend("facing", "front edge and facing", true);
    s
}

/// How far a focused plan shows beyond its focus, mm.
pub const FOCUS_MARGIN_MM: f64 = 60.0;

/// The part of `proj`'s picture that shows the scene's focus grown by
/// [`FOCUS_MARGIN_MM`] (at the table and at base tops), kept inside the picture: its
/// top-left corner and size, output units; `None` when the scene has no focus (the whole
/// table) or the focus does not land in the picture.
#[must_use]
pub fn focus_frame(scene: &Scene, proj: &dyn Projection) -> Option<(Vec2, (f64, f64))> {
    let (lo, hi) = scene.focus?;
    let g = Vec2::new(FOCUS_MARGIN_MM, FOCUS_MARGIN_MM);
    let (lo, hi) = (lo - g, hi + g);
    let corners = [lo, Vec2::new(hi.x, lo.y), hi, Vec2::new(lo.x, hi.y)];
    let (w, h) = proj.output_size();
    let mut a = Vec2::new(f64::INFINITY, f64::INFINITY);
    let mut b = Vec2::new(f64::NEG_INFINITY, f64::NEG_INFINITY);
    for height in [crate::Height::Table, crate::Height::BaseTop] {
        for p in proj.project_all(&corners, height)? {
            a = Vec2::new(a.x.min(p.x), a.y.min(p.y));
            b = Vec2::new(b.x.max(p.x), b.y.max(p.y));
        }
    }
    let (x0, y0) = (a.x.floor().clamp(0.0, w), a.y.floor().clamp(0.0, h));
    let (x1, y1) = (b.x.ceil().clamp(0.0, w), b.y.ceil().clamp(0.0, h));
    (x1 > x0 && y1 > y0).then(|| (Vec2::new(x0, y0), (x1 - x0, y1 - y0)))
}

/// The size of picture whose labels are drawn at their own size, mm: larger pictures
/// scale their labels, marks and lines up with their longer side, so they stay readable
/// when the whole picture is shown on a screen.
pub const READABLE_SIDE_MM: f64 = 800.0;

/// How many times their size labels are drawn on a picture whose longer side is
/// `side_mm` of table (at least 1; see [`READABLE_SIDE_MM`]).
#[must_use]
pub fn text_scale(side_mm: f64) -> f64 {
    if side_mm.is_finite() { (side_mm / READABLE_SIDE_MM).max(1.0) } else { 1.0 }
}

/// The plan view of a scene: its focus grown by [`FOCUS_MARGIN_MM`], or all of it,
/// with a margin and room on the right for the legend; with the options that put the
/// legend there and scale the labels to the picture.
#[must_use]
pub fn plan_view(scene: &Scene) -> (PlanView, SvgOptions) {
    let (lo, hi) = match scene.focus {
        Some((lo, hi)) => {
            let g = Vec2::new(FOCUS_MARGIN_MM, FOCUS_MARGIN_MM);
            (lo - g, hi + g)
        }
        None => scene.bounds().unwrap_or((Vec2::new(0.0, 0.0), Vec2::new(100.0, 100.0))),
    };
    let scale = text_scale((hi.x - lo.x).max(hi.y - lo.y));
    let legend = crate::svg::legend_size(scene, 1.0, scale).0;
    let view =
        PlanView::new(lo, hi, PLAN_MARGIN_MM).with_room_right((legend + 20.0).max(LEGEND_ROOM_MM * scale));
    // A picture of one question starts with its caption, across the whole width.
    let band = scene.caption.as_ref().map(|c| crate::caption::band_layout(c, view.output_size().0, 0.0));
    let top = band.as_ref().map_or(0.0, |b| b.height);
    let view = view.with_room_top(top);
    let clip = [0.0, top, view.box_right() + PLAN_MARGIN_MM, top + hi.y - lo.y + 2.0 * PLAN_MARGIN_MM];
    let options = SvgOptions {
        legend_at: Some(Vec2::new(view.box_right() + PLAN_MARGIN_MM + 5.0, top + PLAN_MARGIN_MM)),
        text_scale: scale,
        clip: Some(clip),
        band,
        callouts: true,
    };
    (view, options)
}

/// Where the labels of the scene's plan go ([`plan_svg`] writes them so).
#[must_use]
pub fn plan_label_layout(scene: &Scene) -> crate::labels::LabelLayout {
    let (view, options) = plan_view(scene);
    crate::svg::label_layout(scene, &view, &options)
}

/// The scene as a plan-view SVG document.
pub fn plan_svg(scene: &Scene) -> Result<String, crate::DrawError> {
    let (view, options) = plan_view(scene);
    crate::svg::write_svg(scene, &view, options)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::LayerId;

    fn table() -> Table {
        Table::from_json_str(
            r#"{"schema":"vedette/table/1","rules":"republique5","scale":"medium","size":{"width":600,"depth":400},
              "units":[
                {"id":"fr 1","side":"france","kind":"infantry","formation":"line","bases":[
                  {"x":100,"y":100,"heading":90,"width":30,"depth":20},{"x":130,"y":100,"heading":90,"width":30,"depth":20}]},
                {"id":"au-1","side":"austria","kind":"infantry","formation":"line","bases":[
                  {"x":100,"y":300,"heading":270,"width":30,"depth":20}]}],
              "terrain":[{"id":"wood","kind":"medium-forest","level":0,"outline":[[300,100],[400,100],[350,200]]}]}"#,
        )
        .unwrap()
    }

    #[test]
    fn the_table_scene_has_every_base_its_facing_and_the_sides_in_name_order() {
        let t = table();
        let s = table_scene(&t, "t");
        let bases = s.layer(LayerId::Bases).unwrap();
        let outlines: Vec<&str> =
            bases.elements.iter().filter(|e| e.class.starts_with("base ")).map(|e| e.id.as_str()).collect();
        assert_eq!(outlines, vec!["base-fr_1.0", "base-fr_1.1", "base-au-1.0"]);
        // austria before france: austria is side 0 (blue), france side 1 (vermillion).
        assert!(s.element("base-au-1.0").unwrap().class.contains("side-0"));
        assert!(s.element("base-fr_1.0").unwrap().class.contains("side-1"));
        // The facing tick leaves the front edge's middle (100, 110) forward (+y).
        let Shape::Polyline(f) = &s.element("base-fr_1.0-facing").unwrap().shape else { panic!() };
        assert_eq!(f[1], Vec2::new(100.0, 110.0));
        assert!(f[2].y > 110.0 && f[2].x == 100.0);
        assert!(s.element("terrain-wood").is_some());
        assert_eq!(s.extent, Some((Vec2::new(0.0, 0.0), Vec2::new(600.0, 400.0))));
    }

    #[test]
    fn a_plan_keeps_the_table_and_flips_y() {
        let s = table_scene(&table(), "t");
        let (view, options) = plan_view(&s);
        use crate::projection::Projection;
        // The near-left corner is at the bottom left of the drawing, inside the margin.
        assert_eq!(view.project(Vec2::new(0.0, 0.0), crate::Height::Table), Some(Vec2::new(20.0, 420.0)));
        assert_eq!(options.text_scale, 1.0);
        assert!(options.legend_at.is_some_and(|p| p.x > 620.0));
    }
}
