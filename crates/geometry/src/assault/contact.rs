//! Assault contacts (Republique 5.0 §5.1, §5.2): which enemy units each unit's front
//! bases reach, through which contact face, at which range, and which defender is
//! primary.
//!
//! Reading of the rules (GEOMETRY.md, Assault):
//! - Each front base has its own zones ahead of its full front edge ([`AssaultZone`]); an
//!   attacker is in range of a defender when a defender base lies in the zone of at least
//!   one front base; those front bases are the **contact face**.
//! - "Attackers and defenders ... block assault activity for units behind them": inside a
//!   front base's zone, a base counts only where it is the first combat base met going
//!   forward. The lines of advance are the straight lines that leave the front edge and
//!   fan out to the flared sides (at the edge's ends they are the sides themselves), so a
//!   unit hidden behind another unit's bases is not in contact, and a supporting unit
//!   counts only the bases the attacker can reach (§5.2 "not blocked by other friendly
//!   bases"). Friendly bases block too; the attacker's own bases and markers (skirmishers,
//!   leaders, limbers) do not.
//! - The **contact frontage** with a defender is the length of the attacker's front edges
//!   whose lines of advance meet that defender first; the **primary defender** is the unit
//!   with the greatest contact frontage ("target unit(s)": equal frontages are all
//!   primary, [`crate::ties::same_length`]).
//! - The **range** is all-out when the defender is met within 1½", general otherwise.
//! - Artillery counts in an assault only beside infantry or cavalry (§5.1 "Solo artillery
//!   batteries ... do not by themselves trigger an assault"): an artillery attacker's
//!   contacts are kept only where an infantry or cavalry unit of its side is also in range
//!   of the same defender.
//!
//! Computation: in the frame of a front base (origin at its front-edge middle, half-width
//! `a`, flare slope `t`), the projective map `(x, y) → (x, y) / (a + t·y)` sends each line
//! of advance to a vertical line and keeps order along it, so the bases in the zone become
//! convex polygons and "first met" is the lower envelope of their lower chains: exact, with
//! no sampling.

use crate::assault::zone::{AssaultRange, AssaultZone};
use crate::base::Base;
use crate::error::GeometryError;
use crate::index::SpatialIndex;
use crate::polygon::ConvexPolygon;
use crate::rules::{RuleAngle, RuleBook, RuleDistance};
use crate::table::{BaseRef, Table, UnitKind};
use crate::ties::{TIE_MM, ZONE_SLACK_MM, same_length, within};
use crate::vec2::Vec2;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One base met inside a front base's zone.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sighting {
    /// The base met.
    pub base: BaseRef,
    /// The length of the front edge whose lines of advance meet it first, mm (zero for a
    /// base that only touches the zone's side).
    pub frontage_mm: f64,
    /// How far ahead of the front edge it is first met, mm.
    pub depth_mm: f64,
}

/// The projective "fan" frame of one front base.
struct Fan {
    origin: Vec2,
    right: Vec2,
    forward: Vec2,
    half_width: f64,
    slope: f64,
}

impl Fan {
    fn of(front: &Base, flare_deg: f64) -> Fan {
        Fan {
            origin: front.front_midpoint(),
            right: front.right(),
            forward: front.forward(),
            half_width: front.width() / 2.0,
            slope: flare_deg.to_radians().tan(),
        }
    }

    fn map(&self, p: Vec2) -> Vec2 {
        let d = p - self.origin;
        let (x, y) = (d.dot(self.right), d.dot(self.forward));
        let k = self.half_width + self.slope * y;
        Vec2::new(x / k, y / k)
    }

    fn depth(&self, s: f64) -> f64 {
        (self.half_width * s / (1.0 - self.slope * s)).max(0.0)
    }
}

/// A base's part in the zone, in fan coordinates.
struct Piece {
    base: BaseRef,
    verts: Vec<Vec2>,
    lo: f64,
    hi: f64,
}

impl Piece {
    /// The lowest s of the piece on the vertical line at u.
    fn low_at(&self, u: f64) -> Option<f64> {
        if u < self.lo || u > self.hi {
            return None;
        }
        let n = self.verts.len();
        let mut best: Option<f64> = None;
        for i in 0..n {
            let a = self.verts[i];
            let b = self.verts[(i + 1) % n];
            let (p, q) = if a.x <= b.x { (a, b) } else { (b, a) };
            if u < p.x || u > q.x {
                continue;
            }
            let s = if q.x - p.x <= 0.0 { p.y.min(q.y) } else { p.y + (q.y - p.y) * (u - p.x) / (q.x - p.x) };
            best = Some(best.map_or(s, |v: f64| v.min(s)));
        }
        best
    }
}

/// The bases first met inside `zone` (ahead of `front`), among `others`.
///
/// `flare_deg` must be the zone's flare. Bases are given with their references; any of
/// them may be outside the zone (they are clipped away).
#[must_use]
pub fn sightings(
    front: &Base,
    zone: &AssaultZone,
    flare_deg: f64,
    others: &[(BaseRef, &Base)],
) -> Vec<Sighting> {
    let fan = Fan::of(front, flare_deg);
    let pieces: Vec<Piece> = others
        .iter()
        .filter_map(|(r, b)| {
            let clipped = zone.clip(&b.polygon());
            if clipped.is_empty() {
                return None;
            }
            let verts: Vec<Vec2> = clipped.vertices().iter().map(|&p| fan.map(p)).collect();
            let (lo, hi) =
                verts.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), p| (l.min(p.x), h.max(p.x)));
            Some(Piece { base: *r, verts, lo, hi })
        })
        .collect();
    if pieces.is_empty() {
        return Vec::new();
    }
    // Breakpoints: every vertex, and every crossing of two pieces' edges.
    let mut us: Vec<f64> = pieces.iter().flat_map(|p| p.verts.iter().map(|v| v.x)).collect();
    for (i, p) in pieces.iter().enumerate() {
        for q in &pieces[i + 1..] {
            if p.hi < q.lo || q.hi < p.lo {
                continue;
            }
            for e in edges(&p.verts) {
                for f in edges(&q.verts) {
                    if let Some(u) = crossing_u(e, f) {
                        us.push(u);
                    }
                }
            }
        }
    }
    us.sort_by(f64::total_cmp);
    us.dedup();
    let mut seen: BTreeMap<usize, Sighting> = BTreeMap::new();
    let mut note = |i: usize, width: f64, s: f64| {
        let depth = fan.depth(s);
        let e = seen.entry(i).or_insert(Sighting { base: pieces[i].base, frontage_mm: 0.0, depth_mm: depth });
        e.frontage_mm += width * fan.half_width;
        e.depth_mm = e.depth_mm.min(depth);
    };
    // Two bases met at the same depth (both overlapping the front edge, say): the first
    // in table order wins, so that the answer does not hang on rounding.
    let eps = TIE_MM / fan.half_width.max(TIE_MM);
    let lowest = |u: f64| -> Option<(usize, f64)> {
        let mut best: Option<(usize, f64)> = None;
        for (i, p) in pieces.iter().enumerate() {
            if let Some(s) = p.low_at(u)
                && best.is_none_or(|(_, b)| s < b - eps)
            {
                best = Some((i, s));
            }
        }
        best
    };
    for w in us.windows(2) {
        let (u0, u1) = (w[0], w[1]);
        if u1 <= u0 {
            continue;
        }
        if let Some((i, _)) = lowest((u0 + u1) / 2.0) {
            let s = [u0, u1].iter().filter_map(|&u| pieces[i].low_at(u)).fold(f64::INFINITY, f64::min);
            note(i, u1 - u0, s);
        }
    }
    // Pieces with no width (a base touching only a flared side) are met where they stand.
    for (i, p) in pieces.iter().enumerate() {
        if p.hi - p.lo <= 1e-12
            && let Some((j, s)) = lowest(p.lo)
            && (j == i || p.low_at(p.lo).is_some_and(|v| v <= s))
        {
            note(i, 0.0, s);
        }
    }
    seen.into_values().collect()
}

fn edges(v: &[Vec2]) -> impl Iterator<Item = (Vec2, Vec2)> + '_ {
    let n = v.len();
    (0..n).map(move |i| (v[i], v[(i + 1) % n]))
}

/// The u where two non-vertical edges cross, if they do within both.
fn crossing_u(e: (Vec2, Vec2), f: (Vec2, Vec2)) -> Option<f64> {
    let (a, b) = e;
    let (c, d) = f;
    let r = b - a;
    let s = d - c;
    let den = r.cross(s);
    if den == 0.0 {
        return None;
    }
    let t = (c - a).cross(s) / den;
    let v = (c - a).cross(r) / den;
    ((0.0..=1.0).contains(&t) && (0.0..=1.0).contains(&v)).then_some(a.x + r.x * t)
}

/// Whether a defender is the attacker's primary defender or a supporting unit.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum DefenderRole {
    /// The greatest contact frontage (000 §5.1).
    Primary,
    /// Another unit with bases in the attacker's zone (000 §5.2 "supported by a friendly
    /// defending unit").
    Supporting,
}

/// One attacker in range of one defender.
#[derive(Debug, Clone, PartialEq)]
pub struct Contact {
    /// The attacker's unit index.
    pub attacker: usize,
    /// The defender's unit index.
    pub defender: usize,
    /// All-out or general.
    pub range: AssaultRange,
    /// The attacker's front bases whose zones meet the defender (indices into its bases).
    pub contact_face: Vec<usize>,
    /// The attacker's contact frontage with the defender, mm.
    pub frontage_mm: f64,
    /// The defender's bases met in the attacker's zones (unblocked), indices.
    pub defender_bases_met: Vec<usize>,
    /// How far ahead of the contact face the defender is first met, mm.
    pub depth_mm: f64,
    /// Primary or supporting.
    pub role: DefenderRole,
}

/// Kinds that take part in an assault: infantry, cavalry, artillery (combat bases).
fn in_assaults(k: UnitKind) -> bool {
    k.is_combat()
}

/// Why the assault rules have nothing to ask of `attacker` against `defender` (unit
/// indices), for a message: a unit that takes no part in assaults (a leader, a
/// skirmisher, a limber: only infantry, cavalry and artillery do), or two units of one
/// side (an assault is on an enemy formation, 000 §5.1). `None` for a pair they ask
/// about (issue 41 item 7: `explain` explained "assaults" by leaders and limbers).
///
/// ```
/// use vedette_geometry::Table;
/// use vedette_geometry::assault::contact::assault_pair_refusal;
/// let t = Table::from_json_str(r#"{"schema":"vedette/table/1","rules":"republique5","scale":"medium",
///   "units":[
///     {"id":"fr","side":"fr","kind":"infantry","formation":"line","bases":[{"x":0,"y":0,"heading":90,"width":30,"depth":20}]},
///     {"id":"gen","side":"fr","kind":"leader","bases":[{"x":0,"y":-40,"heading":90,"width":25,"depth":30}]},
///     {"id":"au","side":"au","kind":"infantry","formation":"line","bases":[{"x":0,"y":50,"heading":270,"width":30,"depth":20}]},
///     {"id":"fr2","side":"fr","kind":"infantry","formation":"line","bases":[{"x":100,"y":0,"heading":90,"width":30,"depth":20}]}]}"#)?;
/// assert_eq!(assault_pair_refusal(&t, 0, 2), None);
/// assert!(assault_pair_refusal(&t, 1, 2).is_some_and(|r| r.contains("a leader")));
/// assert!(assault_pair_refusal(&t, 0, 3).is_some_and(|r| r.contains("same side")));
/// # Ok::<(), vedette_geometry::GeometryError>(())
/// ```
#[must_use]
pub fn assault_pair_refusal(table: &Table, attacker: usize, defender: usize) -> Option<String> {
    let (a, d) = (table.units.get(attacker)?, table.units.get(defender)?);
    for (u, role) in [(a, "assaults"), (d, "is assaulted")] {
        if !in_assaults(u.kind) {
            return Some(format!(
                "\"{}\" is {} {}: only infantry, cavalry and artillery take part in an assault, so none {role}",
                u.id,
                article(u.kind.name()),
                u.kind.name()
            ));
        }
    }
    (a.side == d.side).then(|| {
        format!(
            "\"{}\" and \"{}\" are on the same side ({}): an assault is made on an enemy",
            a.id, d.id, a.side
        )
    })
}

/// "a" or "an" before `word`.
fn article(word: &str) -> &'static str {
    if word.starts_with(['a', 'e', 'i', 'o', 'u']) { "an" } else { "a" }
}

/// Every assault contact on the table, sorted by attacker then defender unit index.
///
/// ```
/// use vedette_geometry::{AssaultRange, SpatialIndex, Table, assault_contacts};
/// let t = Table::from_json_str(r#"{"schema":"vedette/table/1","rules":"republique5","scale":"medium",
///   "units":[
///     {"id":"fr","side":"fr","kind":"infantry","formation":"line","bases":[{"x":0,"y":0,"heading":90,"width":30,"depth":20}]},
///     {"id":"au","side":"au","kind":"infantry","formation":"line","bases":[{"x":0,"y":50,"heading":270,"width":30,"depth":20}]},
///     {"id":"fr2","side":"fr","kind":"infantry","formation":"line","bases":[{"x":100,"y":0,"heading":90,"width":30,"depth":20}]}]}"#)?;
/// let c = assault_contacts(&t, &SpatialIndex::new(&t), &t.rule_book()?)?;
/// // 30 mm apart: each is within 1½" of the other.
/// assert_eq!(c.len(), 2);
/// assert_eq!(c[0].range, AssaultRange::AllOut);
/// # Ok::<(), vedette_geometry::GeometryError>(())
/// ```
pub fn assault_contacts(
    table: &Table,
    index: &SpatialIndex,
    book: &RuleBook,
) -> Result<Vec<Contact>, GeometryError> {
    let general = book.distance_mm(RuleDistance::GeneralAssault)?;
    let all_out = book.distance_mm(RuleDistance::AllOutAssault)?;
    let flare = book.angle_deg(RuleAngle::AssaultZoneFlare)?;
    let mut out: Vec<Contact> = Vec::new();
    let mut others: Vec<(BaseRef, &Base)> = Vec::new();
    for (ai, attacker) in table.units.iter().enumerate() {
        if !in_assaults(attacker.kind) {
            continue;
        }
        // defender unit -> (face bases, frontage, met bases, depth)
        let mut per: BTreeMap<usize, (Vec<usize>, f64, Vec<usize>, f64)> = BTreeMap::new();
        for fi in attacker.front_bases() {
            let front = &attacker.bases[fi];
            let zone = AssaultZone::ahead_of(front, general, flare);
            let (lo, hi) = bounds(&zone.polygon());
            others.clear();
            for r in index.candidates_in_box(lo, hi) {
                if r.unit != ai
                    && let Some(b) = table.base(r)
                    && in_assaults(table.units[r.unit].kind)
                {
                    others.push((r, b));
                }
            }
            // Friends alone cannot make a contact (they only block).
            if !others.iter().any(|(r, _)| index.are_enemies(ai, r.unit)) {
                continue;
            }
            others.sort_by_key(|(r, _)| *r);
            for s in sightings(front, &zone, flare, &others) {
                if !index.are_enemies(ai, s.base.unit) {
                    continue;
                }
                let e = per.entry(s.base.unit).or_insert((Vec::new(), 0.0, Vec::new(), f64::INFINITY));
                if e.0.last() != Some(&fi) {
                    e.0.push(fi);
                }
                e.1 += s.frontage_mm;
                if !e.2.contains(&s.base.base) {
                    e.2.push(s.base.base);
                }
                e.3 = e.3.min(s.depth_mm);
            }
        }
        let best = per.values().map(|v| v.1).fold(0.0, f64::max);
        for (di, (face, frontage, mut met, depth)) in per {
            met.sort_unstable();
            out.push(Contact {
                attacker: ai,
                defender: di,
                range: if within(depth, all_out) { AssaultRange::AllOut } else { AssaultRange::General },
                contact_face: face,
                frontage_mm: frontage,
                defender_bases_met: met,
                depth_mm: depth,
                role: if same_length(frontage, best) {
                    DefenderRole::Primary
                } else {
                    DefenderRole::Supporting
                },
            });
        }
    }
    // Solo artillery does not assault (000 §5.1, §5.2).
    let infantry_or_cavalry_on = |side: &str, defender: usize| {
        out.iter().any(|c| {
            c.defender == defender
                && table.units[c.attacker].side == side
                && table.units[c.attacker].kind != UnitKind::Artillery
        })
    };
    let keep: Vec<bool> = out
        .iter()
        .map(|c| {
            let a = &table.units[c.attacker];
            a.kind != UnitKind::Artillery || infantry_or_cavalry_on(&a.side, c.defender)
        })
        .collect();
    let mut k = keep.into_iter();
    out.retain(|_| k.next().unwrap_or(false));
    Ok(out)
}

/// The bounding box of a polygon grown by the zone slack.
fn bounds(p: &ConvexPolygon) -> (Vec2, Vec2) {
    let (mut lo, mut hi) =
        (Vec2::new(f64::INFINITY, f64::INFINITY), Vec2::new(f64::NEG_INFINITY, f64::NEG_INFINITY));
    for v in p.vertices() {
        lo = Vec2::new(lo.x.min(v.x), lo.y.min(v.y));
        hi = Vec2::new(hi.x.max(v.x), hi.y.max(v.y));
    }
    let g = ZONE_SLACK_MM * 2.0;
    (Vec2::new(lo.x - g, lo.y - g), Vec2::new(hi.x + g, hi.y + g))
}
