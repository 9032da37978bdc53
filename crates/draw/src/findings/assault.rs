//! Assault findings drawn (000 §5.1-5.4, 001 §4.1, 004 §17.4): the general and all-out
//! zones ahead of each contact-face base ([`AssaultZone::polygon`]), classic facing
//! arcs ([`FacingArc`]), the contact between the two units with its distance and
//! aspect, the defender's flank line and rear lines ([`FlankGeometry`]), cover, and
//! close calls.

use crate::findings::artillery::close_call;
use crate::findings::{distance_words, measured_words};
use crate::scene::{Height, LayerId, Scene, Shape, id_part};
use vedette_geometry::assault::assessment::{AssaultFinding, ContactRange};
use vedette_geometry::close_call::distance_sigma_mm;
use vedette_geometry::{
    Aspect, AspectException, AssaultRange, AssaultZone, BaseRef, DefenderRole, FacingArc, FlankGeometry,
    FlankSide, GeometryError, RuleBook, RuleDistance, RuleSet, Table, Vec2,
};

/// The words of a contact range.
#[must_use]
pub fn range_name(r: ContactRange) -> &'static str {
    match r {
        ContactRange::AllOut => "all-out",
        ContactRange::General => "general",
        ContactRange::Primary => "primary",
        ContactRange::Incidental => "incidental",
        ContactRange::Contact => "contact",
    }
}

/// The words of an aspect, with the flank side.
#[must_use]
pub fn aspect_words(f: &AssaultFinding) -> String {
    match f.aspect {
        Some(a) => match (a.aspect, a.flank_side) {
            (Aspect::Front, _) => "front".to_string(),
            (Aspect::Flank, Some(FlankSide::Left)) => "flank (its left)".to_string(),
            (Aspect::Flank, Some(FlankSide::Right)) => "flank (its right)".to_string(),
            (Aspect::Flank, None) => "flank".to_string(),
            (Aspect::Rear, _) => "rear".to_string(),
        },
        None => "front".to_string(),
    }
}

/// The words of an aspect exception, with its section.
#[must_use]
pub fn exception_words(e: AspectException) -> &'static str {
    match e {
        AspectException::SquareAgainstCavalry => "a square has no flank or rear against cavalry (000 §5.4)",
        AspectException::BuildingsAgainstInfantry => {
            "infantry in buildings has no flank against infantry (000 §5.4)"
        }
        AspectException::SquareHasNoFlankOrRear => "a square has no flank or rear (001 §4.3)",
        AspectException::BuildingsHaveNoFlank => "units in buildings have no flank (001 §4.3)",
        AspectException::StaffHaveNoFlankOrRear => "staff have no flank or rear (004)",
        AspectException::SquareFacesOutward => "a square faces outward (004)",
    }
}

/// A short tag for an aspect exception, for labels.
#[must_use]
pub fn exception_tag(e: AspectException) -> &'static str {
    match e {
        AspectException::SquareAgainstCavalry => "square vs cavalry",
        AspectException::BuildingsAgainstInfantry => "buildings vs infantry",
        AspectException::SquareHasNoFlankOrRear => "square",
        AspectException::BuildingsHaveNoFlank => "buildings: no flank",
        AspectException::StaffHaveNoFlankOrRear => "staff",
        AspectException::SquareFacesOutward => "square faces out",
    }
}

/// The section that draws flank and rear lines, for a rule set.
fn lines_section(rules: RuleSet) -> &'static str {
    match rules {
        RuleSet::RepubliqueClassic => "001 §4.3",
        RuleSet::ProPatria => "004 §17.4",
        RuleSet::Republique5 | RuleSet::Republic => "000 §5.1",
    }
}

/// Draws one attacker-defender finding: zones, contact, and (when `lines`) the
/// defender's flank and rear lines.
pub fn draw_assault(
    scene: &mut Scene,
    table: &Table,
    book: &RuleBook,
    f: &AssaultFinding,
    lines: bool,
) -> Result<(), GeometryError> {
    let (Some(att), Some(def)) = (table.units.get(f.attacker), table.units.get(f.defender)) else {
        return Ok(());
    };
    let key = format!("{}-{}", id_part(&att.id), id_part(&def.id));
    match book.rules() {
        RuleSet::Republique5 | RuleSet::Republic => {
            for &i in &f.contact_face {
                let Some(b) = att.bases.get(i) else { continue };
                for (range, class, words) in [
                    (AssaultRange::General, "assault-zone", "general assault zone, 3\" (000 §5.1)"),
                    (AssaultRange::AllOut, "all-out-zone", "all-out assault zone, 1½\" (000 §5.1)"),
                ] {
                    let zone = AssaultZone::of(b, range, book)?;
                    scene.add(
                        LayerId::Zones,
                        &format!("{class}-{}.{i}", id_part(&att.id)),
                        class,
                        Shape::polygon(zone.polygon().into_vertices()),
                        Height::Table,
                        Some(format!("{}#{i}: {words}, sides flaring 5°", att.id)),
                    );
                    scene.legend(class, words, false);
                }
            }
        }
        RuleSet::RepubliqueClassic => {
            if let Some(arc) = FacingArc::of(&att.bases, book)? {
                let depth = book.distance_mm(RuleDistance::IncidentalContact)?
                    + arc.front.iter().map(|b| b.depth()).fold(0.0, f64::max);
                scene.add(
                    LayerId::Zones,
                    &format!("facing-arc-{}", id_part(&att.id)),
                    "assault-zone",
                    Shape::polygon(arc.cone.polygon(depth).into_vertices()),
                    Height::Table,
                    Some(format!(
                        "{}: facing arc, 45° from the rear corners of its outer front bases (001 §4.1)",
                        att.id
                    )),
                );
                scene.legend("assault-zone", "facing arc (001 §4.1)", false);
            }
        }
        RuleSet::ProPatria => {}
    }
    // The contact: closest points between the contact face and the defender.
    let face: Vec<BaseRef> = if f.contact_face.is_empty() {
        (0..att.bases.len()).map(|i| BaseRef::new(f.attacker, i)).collect()
    } else {
        f.contact_face.iter().map(|&i| BaseRef::new(f.attacker, i)).collect()
    };
    let closest = face
        .iter()
        .filter_map(|&r| table.base(r).map(|b| (r, b)))
        .flat_map(|(r, a)| {
            def.bases
                .iter()
                .enumerate()
                .map(move |(i, d)| (r, BaseRef::new(f.defender, i), a.closest_points(d)))
        })
        .min_by(|a, b| a.2.distance_mm.total_cmp(&b.2.distance_mm));
    // The finding's distance, with the uncertainty of the closest pair's.
    let measured = closest.as_ref().map_or_else(
        || distance_words(book, f.distance_mm),
        |(ra, rd, c)| measured_words(book, f.distance_mm, distance_sigma_mm(table, *ra, *rd, c)),
    );
    let words = format!(
        "{} → {}: {} at {}, {}{}",
        att.id,
        def.id,
        range_name(f.range),
        measured,
        aspect_words(f),
        f.aspect.and_then(|a| a.exception).map_or(String::new(), |e| format!(" ({})", exception_words(e)))
    );
    if let Some((_, _, c)) = closest {
        scene.add(
            LayerId::Contacts,
            &format!("contact-{key}"),
            "contact",
            Shape::line(c.from, c.to),
            Height::Table,
            Some(words.clone()),
        );
        scene.add(
            LayerId::Contacts,
            &format!("contact-{key}-label"),
            "verdict",
            // Who assaults whom, and the defender's role, on the picture itself: the two
            // directions of one contact share its line.
            Shape::verdict(
                c.from.lerp(c.to, 0.5),
                format!(
                    "{} → {} {} {measured}, {}{}{}",
                    att.id,
                    def.id,
                    range_name(f.range),
                    aspect_words(f),
                    // Why the aspect is not what the lines alone say.
                    f.aspect
                        .and_then(|a| a.exception)
                        .map_or(String::new(), |e| format!(" ({})", exception_tag(e))),
                    match f.role {
                        Some(DefenderRole::Primary) => ", primary",
                        Some(DefenderRole::Supporting) => ", supporting",
                        None => "",
                    }
                ),
            ),
            Height::Table,
            None,
        );
        scene.legend("contact", "assault contact: range, aspect", true);
    }
    // Republic 501: an overlap past the defender's face, at the attacker's end base on
    // that side.
    for o in &f.overlap {
        let Some(first) = att.bases.first() else { continue };
        let left = Vec2::from_heading_deg(first.heading_deg()).perp_left();
        let side = |i: &&usize| att.bases.get(**i).map_or(0.0, |b| b.centre().dot(left));
        let end = match o.side {
            FlankSide::Left => f.contact_face.iter().max_by(|a, b| side(a).total_cmp(&side(b))),
            FlankSide::Right => f.contact_face.iter().min_by(|a, b| side(a).total_cmp(&side(b))),
        };
        let Some(b) = end.and_then(|&i| att.bases.get(i)) else { continue };
        let which = if o.side == FlankSide::Left { "left" } else { "right" };
        let words = format!(
            "{} overlaps {} on its {which} by {}{} (003 501)",
            att.id,
            def.id,
            distance_words(book, o.overlap_mm),
            if o.unopposed { ", unopposed" } else { ", opposed" }
        );
        scene.add(
            LayerId::Contacts,
            &format!("overlap-{key}-{which}"),
            "verdict",
            Shape::verdict(b.centre(), words.clone()),
            Height::BaseTop,
            Some(words),
        );
    }
    if let Some(cover) = f.defender_cover {
        let at = def.bases.first().map_or(Vec2::new(0.0, 0.0), |b| b.centre());
        scene.add(
            LayerId::Contacts,
            &format!("cover-{key}"),
            "verdict",
            Shape::verdict(at, format!("{} in {} cover", def.id, cover.class.name())),
            Height::BaseTop,
            Some(format!("{} is in {} cover (000 §5.4)", def.id, cover.class.name())),
        );
    }
    if lines {
        flank_lines(scene, table, book, f.defender)?;
    }
    if let Some((limit, c)) = f.range_call(table, book).filter(|(_, c)| !c.certain())
        && let Some(&r) = face.first()
    {
        close_call(
            scene,
            table,
            r,
            &format!("{} → {} range", att.id, def.id),
            &format!("{:.2} mm from the {} limit", c.margin_mm, distance_words(book, limit)),
        );
    }
    Ok(())
}

/// How far the flank line is drawn beyond the unit's outer front bases and the rear lines
/// behind its rear corners, mm (3"): a drawing choice; the lines themselves run on.
pub const LINE_EXTENSION_MM: f64 = 76.2;

/// A unit's flank line (drawn [`LINE_EXTENSION_MM`] beyond its outer front bases) and
/// rear lines (as far to the rear), from [`FlankGeometry`] (000 §5.1).
pub fn flank_lines(
    scene: &mut Scene,
    table: &Table,
    book: &RuleBook,
    unit: usize,
) -> Result<(), GeometryError> {
    let section = lines_section(book.rules());
    let Some(u) = table.units.get(unit) else { return Ok(()) };
    let Some(g) = FlankGeometry::of(&u.bases) else { return Ok(()) };
    let ext = LINE_EXTENSION_MM;
    let (Some(first), Some(last)) = (g.flank_line.first(), g.flank_line.last()) else { return Ok(()) };
    let mut flank = vec![Vec2::new(first.x - ext, first.y)];
    flank.extend(g.flank_line.iter().copied());
    flank.push(Vec2::new(last.x + ext, last.y));
    let key = id_part(&u.id);
    scene.add(
        LayerId::FlankLines,
        &format!("flank-line-{key}"),
        "flank-line",
        Shape::Polyline(flank.into_iter().map(|p| g.frame.to_table(p)).collect()),
        Height::Table,
        Some(format!("{}: flank line, along the rear of its front bases ({section})", u.id)),
    );
    let rear = [
        Vec2::new(g.rear_left.x, g.rear_left.y - ext),
        g.rear_left,
        g.rear_right,
        Vec2::new(g.rear_right.x, g.rear_right.y - ext),
    ];
    scene.add(
        LayerId::FlankLines,
        &format!("rear-lines-{key}"),
        "rear-line",
        Shape::Polyline(rear.into_iter().map(|p| g.frame.to_table(p)).collect()),
        Height::Table,
        Some(format!(
            "{}: rear lines from its outer rear corners; the rear zone lies between them ({section})",
            u.id
        )),
    );
    scene.legend("flank-line", &format!("flank line ({section})"), true);
    scene.legend("rear-line", &format!("rear lines, rear zone between ({section})"), true);
    Ok(())
}
