//! Bases and cubes standing on a terrain template (issue 19): a felt wood or a board
//! hill raises what stands on it by the template's thickness (the profile's
//! `thickness_mm` of its terrain class), so a tag on it lies that much above the plane
//! its position was measured on, and the photo's parallax puts it farther from the
//! camera's nadir than it is. Each such base (and cube) is measured again on its true
//! plane through the camera model.

use crate::error::VisionError;
use crate::pose::CameraModel;
use crate::profile::Profile;
use vedette_geometry::{Pose, Table, TerrainFeature, Vec2};

/// How much the templates under `p` raise it, mm: the thickest area template whose
/// outline holds it (0 on the bare table, or where the profile declares no class of the
/// template's kind).
#[must_use]
pub fn template_thickness_at(terrain: &[TerrainFeature], profile: &Profile, p: Vec2) -> f64 {
    terrain
        .iter()
        .filter(|f| !f.kind.is_linear() && f.outline.len() >= 3)
        .filter_map(|f| {
            let t = profile.terrain.iter().find(|c| c.kind == f.kind && !c.is_linear())?.thickness_mm;
            (t > 0.0 && f.polygon().contains(p)).then_some(t)
        })
        .fold(0.0, f64::max)
}

/// Moves every base and cube of `table` that stands on one of its terrain templates to
/// where the photo shows it on the template's top: the point measured on the plane
/// `height_mm` (base tops at the profile's `top_height_mm`, cube tops at their side) is
/// seen again through `model` on the plane `height_mm + thickness`. Returns how many
/// bases and cubes moved.
pub fn stand_on_templates(
    table: &mut Table,
    model: &CameraModel,
    profile: &Profile,
) -> Result<usize, VisionError> {
    let top = profile.bases.top_height_mm;
    let mut moved = 0;
    let terrain = table.terrain.clone();
    for unit in &mut table.units {
        for base in &mut unit.bases {
            let t = template_thickness_at(&terrain, profile, base.centre());
            if t > 0.0 {
                let centre = raise(model, base.centre(), top, t)?;
                *base = base.with_pose(Pose::new(centre, base.heading_deg()));
                moved += 1;
            }
        }
    }
    for m in &mut table.markers {
        let at = Vec2::new(m.x, m.y);
        let t = template_thickness_at(&terrain, profile, at);
        if t > 0.0 {
            let side = m.size.unwrap_or(profile.markers.size_mm);
            let c = raise(model, at, side, t)?;
            m.x = (c.x * 10.0).round() / 10.0;
            m.y = (c.y * 10.0).round() / 10.0;
            moved += 1;
        }
    }
    Ok(moved)
}

/// Where a point measured on the plane `height_mm` is when it lies `raise_mm` higher.
fn raise(model: &CameraModel, p: Vec2, height_mm: f64, raise_mm: f64) -> Result<Vec2, VisionError> {
    let px = model.project(&[p], height_mm)?;
    Ok(model.image_to_table(&px, height_mm + raise_mm)?.first().copied().unwrap_or(p))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::camera::Intrinsics;
    use crate::fiducials::DetectedMarker;
    use crate::pose::{CameraPose, project_points, solve_camera};
    use opencv::core::{Point3d, Vector};
    use vedette_geometry::{Base, BaseSize, Marker, MarkerColour, MarkerKind, TerrainKind, Unit, UnitKind};

    /// A base on a 5 mm board wood 900 mm off-axis of a camera 1.2 m up, and one beside
    /// it on the bare table: the tag on the wood, measured on the base-top plane, lies
    /// about 4 mm too far out; standing it on the template puts it back, and leaves the
    /// other alone.
    #[test]
    fn a_base_on_a_template_is_measured_on_the_template_top() {
        let profile = Profile::from_toml_str(
            r#"
[table]
width_mm = 2400
depth_mm = 1600
[fiducials]
dictionary = "DICT_4X4_50"
size_mm = 60
markers = [
  { id = 0, x_mm = 100, y_mm = 100 }, { id = 1, x_mm = 2300, y_mm = 100 },
  { id = 2, x_mm = 2300, y_mm = 1500 }, { id = 3, x_mm = 100, y_mm = 1500 },
]
[bases]
top_height_mm = 3
[[terrain]]
kind = "medium-forest"
colour = [36, 71, 26]
thickness_mm = 5
[[terrain]]
kind = "marsh"
colour = [77, 92, 87]
thickness_mm = 0
"#,
            "t.toml",
        )
        .unwrap();
        let k = Intrinsics {
            image_width: 4000,
            image_height: 3000,
            fx: 1500.0,
            fy: 1500.0,
            cx: 1999.5,
            cy: 1499.5,
            distortion: vec![-0.05, 0.01, 0.0, 0.0, 0.0],
        };
        let pose = CameraPose {
            r: [[1.0, 0.0, 0.0], [0.0, -1.0, 0.0], [0.0, 0.0, -1.0]],
            t: [-1200.0, 800.0, 1200.0],
        };
        let project = |p: [f64; 3]| {
            let obj: Vector<Point3d> = vec![Point3d::new(p[0], p[1], p[2])].into();
            project_points(&obj, &k, &pose).unwrap()[0]
        };
        let found: Vec<DetectedMarker> = profile
            .fiducials
            .markers
            .iter()
            .map(|m| DetectedMarker { id: m.id, corners: m.corners(60.0).map(|q| project([q.x, q.y, 0.0])) })
            .collect();
        let model = solve_camera(&profile, &found, Some(&k), (4000, 3000)).unwrap().model;
        // What the scan measures: the tag's image back-projected on the base-top plane.
        let seen =
            |p: Vec2, z: f64, plane: f64| model.image_to_table(&[project([p.x, p.y, z])], plane).unwrap()[0];
        let on_wood = Vec2::new(2100.0, 800.0);
        let on_marsh = Vec2::new(1200.0, 300.0);
        let bare = Vec2::new(2100.0, 1300.0);
        let square = |c: Vec2, r: f64| {
            vec![c + Vec2::new(-r, -r), c + Vec2::new(r, -r), c + Vec2::new(r, r), c + Vec2::new(-r, r)]
        };
        let area = |kind, outline| TerrainFeature {
            crests: Vec::new(),
            id: None,
            kind,
            level: 0.0,
            outline,
            holes: Vec::new(),
            path: Vec::new(),
        };
        let base = |c: Vec2| Base::new(BaseSize::new(40.0, 20.0), Pose::new(c, 90.0));
        let measured = [seen(on_wood, 8.0, 3.0), seen(on_marsh, 3.0, 3.0), seen(bare, 3.0, 3.0)];
        assert!(measured[0].distance(on_wood) > 3.0, "parallax of the 5 mm wood: {:?}", measured[0]);
        let mut table = Table::new(
            vedette_geometry::RuleSet::Republique5,
            vedette_geometry::Scale::Medium,
            vec![Unit::new("a", "fr", UnitKind::Infantry, measured.iter().map(|&c| base(c)).collect())],
        );
        table.terrain = vec![
            area(TerrainKind::MediumForest, square(on_wood, 100.0)),
            area(TerrainKind::Marsh, square(on_marsh, 100.0)),
        ];
        let cube_at = Vec2::new(2050.0, 750.0);
        let cube_seen = seen(cube_at, 5.0 + 9.525, 9.525);
        table.markers = vec![Marker {
            kind: MarkerKind::Morale,
            colour: Some(MarkerColour::Red),
            x: cube_seen.x,
            y: cube_seen.y,
            unit: Some("a".into()),
            size: Some(9.525),
            sigma_mm: None,
        }];
        assert_eq!(template_thickness_at(&table.terrain, &profile, on_wood), 5.0);
        assert_eq!(template_thickness_at(&table.terrain, &profile, on_marsh), 0.0);
        assert_eq!(stand_on_templates(&mut table, &model, &profile).unwrap(), 2);
        let got: Vec<Vec2> = table.units[0].bases.iter().map(Base::centre).collect();
        assert!(got[0].distance(on_wood) < 1e-3, "{:?}", got[0]);
        assert_eq!(got[1], measured[1]);
        assert_eq!(got[2], measured[2]);
        let m = &table.markers[0];
        assert!(Vec2::new(m.x, m.y).distance(cube_at) < 0.1, "{m:?}");
    }
}
