#!/usr/bin/env python3
"""The assault bench of benches/assault.rs, done with shapely 2 (STRtree + dwithin).

Same scenes (samples/grand-battle.json, and the same battle with the Austrian army moved
3" closer), same queries: for every combat unit, its front bases; for every front base,
the 3" assault zone with 5° flared sides, the candidate bases from an STRtree
(`dwithin`), the part of each inside the zone, the bases met first along the lines of
advance (blocking), the contact face, contact frontage, range (1.5" all-out / 3"
general) and primary defender per attacker, solo artillery dropped; then the aspect of
every contact (rear zone, flank line). Prints the contact count (it must equal the Rust
bench's) and the timings.

    python3 -m venv .venv && .venv/bin/pip install shapely
    .venv/bin/python benches/assault_shapely.py [--runs N]
"""

import argparse
import json
import math
import os
import time

import shapely
from shapely import Polygon, STRtree

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TIE = 1e-9
RATIO = {"small": 0.66, "medium": 1.0, "large": 1.5}


class Base:
    __slots__ = ("cx", "cy", "h", "w", "d", "fx", "fy", "rx", "ry", "poly", "corners")

    def __init__(self, b, dy=0.0):
        self.cx, self.cy, self.h, self.w, self.d = b["x"], b["y"] + dy, b["heading"], b["width"], b["depth"]
        a = math.radians(self.h)
        self.fx, self.fy = math.cos(a), math.sin(a)
        self.rx, self.ry = self.fy, -self.fx
        hw, hd = self.w / 2, self.d / 2
        t = self.to_table
        # front-left, rear-left, rear-right, front-right (counter-clockwise)
        self.corners = [t(-hw, hd), t(-hw, -hd), t(hw, -hd), t(hw, hd)]
        self.poly = Polygon(self.corners)

    def to_table(self, x, y):
        return (self.cx + self.rx * x + self.fx * y, self.cy + self.ry * x + self.fy * y)

    def to_local(self, p):
        dx, dy = p[0] - self.cx, p[1] - self.cy
        return (dx * self.rx + dy * self.ry, dx * self.fx + dy * self.fy)


def directly_ahead(base, other):
    """The strip test of unit_structure.rs: other reaches into the strip swept forward
    from base's front edge by one depth (open sides, closed far end)."""
    hw = base.w / 2 - TIE
    y0 = base.d / 2
    y1 = y0 + base.d + TIE
    cs = [base.to_local(p) for p in other.corners]
    xs = [c[0] for c in cs]
    ys = [c[1] for c in cs]
    if max(xs) <= -hw or min(xs) >= hw or max(ys) <= y0 + TIE or min(ys) > y1:
        return False
    strip = [(-hw, y0), (hw, y0), (hw, y1), (-hw, y1)]
    fx, fy = base.to_local((base.cx + other.fx, base.cy + other.fy))
    for ax in ((fx, fy), (fy, -fx)):
        po = [c[0] * ax[0] + c[1] * ax[1] for c in cs]
        ps = [c[0] * ax[0] + c[1] * ax[1] for c in strip]
        if max(po) < min(ps) - TIE or max(ps) < min(po) - TIE:
            return False
    return True


def front_bases(bases):
    return [i for i, b in enumerate(bases) if not any(j != i and directly_ahead(b, o) for j, o in enumerate(bases))]


def load(closed_up):
    with open(os.path.join(ROOT, "samples", "grand-battle.json")) as f:
        t = json.load(f)
    units = []
    for u in t["units"]:
        dy = -76.2 if closed_up and u["side"] == "austria" else 0.0
        units.append({"id": u["id"], "side": u["side"], "kind": u["kind"], "bases": [Base(b, dy) for b in u["bases"]]})
    return t, units


def zone(front, depth, t):
    hw = front.w / 2
    return Polygon([
        front.to_table(-hw, front.d / 2),
        front.to_table(hw, front.d / 2),
        front.to_table(hw + depth * t, front.d / 2 + depth),
        front.to_table(-hw - depth * t, front.d / 2 + depth),
    ])


def low_at(verts, u, lo, hi):
    if u < lo or u > hi:
        return None
    best = None
    n = len(verts)
    for i in range(n):
        a, b = verts[i], verts[(i + 1) % n]
        p, q = (a, b) if a[0] <= b[0] else (b, a)
        if u < p[0] or u > q[0]:
            continue
        s = min(p[1], q[1]) if q[0] - p[0] <= 0 else p[1] + (q[1] - p[1]) * (u - p[0]) / (q[0] - p[0])
        best = s if best is None else min(best, s)
    return best


def crossing_u(a, b, c, d):
    r = (b[0] - a[0], b[1] - a[1])
    s = (d[0] - c[0], d[1] - c[1])
    den = r[0] * s[1] - r[1] * s[0]
    if den == 0:
        return None
    ca = (c[0] - a[0], c[1] - a[1])
    t = (ca[0] * s[1] - ca[1] * s[0]) / den
    v = (ca[0] * r[1] - ca[1] * r[0]) / den
    return a[0] + r[0] * t if 0 <= t <= 1 and 0 <= v <= 1 else None


def sightings(front, zpoly, slope, cands):
    """(base key, frontage, depth) of the bases met first in the zone."""
    hw = front.w / 2
    mx, my = front.to_table(0, front.d / 2)

    def fan(coords):
        out = []
        for x, y in coords:
            dx, dy = x - mx, y - my
            lx, ly = dx * front.rx + dy * front.ry, dx * front.fx + dy * front.fy
            k = hw + slope * ly
            out.append((lx / k, ly / k))
        return out

    pieces = []
    for key, poly in cands:
        part = shapely.intersection(zpoly, poly)
        if part.is_empty or part.geom_type != "Polygon":
            continue
        verts = fan(list(part.exterior.coords)[:-1])
        us = [v[0] for v in verts]
        pieces.append((key, verts, min(us), max(us)))
    if not pieces:
        return []
    us = [v[0] for p in pieces for v in p[1]]
    for i, p in enumerate(pieces):
        for q in pieces[i + 1:]:
            if p[3] < q[2] or q[3] < p[2]:
                continue
            pv, qv = p[1], q[1]
            for a in range(len(pv)):
                for c in range(len(qv)):
                    u = crossing_u(pv[a], pv[(a + 1) % len(pv)], qv[c], qv[(c + 1) % len(qv)])
                    if u is not None:
                        us.append(u)
    us = sorted(set(us))
    eps = TIE / hw
    seen = {}
    for u0, u1 in zip(us, us[1:]):
        if u1 <= u0:
            continue
        m = (u0 + u1) / 2
        best = None
        for i, p in enumerate(pieces):
            s = low_at(p[1], m, p[2], p[3])
            if s is not None and (best is None or s < best[1] - eps):
                best = (i, s)
        if best is None:
            continue
        i = best[0]
        p = pieces[i]
        s = min(v for v in (low_at(p[1], u0, p[2], p[3]), low_at(p[1], u1, p[2], p[3])) if v is not None)
        depth = max(hw * s / (1 - slope * s), 0.0)
        e = seen.setdefault(p[0], [0.0, depth])
        e[0] += (u1 - u0) * hw
        e[1] = min(e[1], depth)
    return [(k, v[0], v[1]) for k, v in seen.items()]


def flank_geometry(bases):
    fronts = front_bases(bases) or list(range(len(bases)))
    sx = sum(bases[i].fx for i in fronts)
    sy = sum(bases[i].fy for i in fronts)
    n = math.hypot(sx, sy)
    fx, fy = (sx / n, sy / n) if n > 0 else (bases[0].fx, bases[0].fy)
    ox = sum(bases[i].to_table(0, bases[i].d / 2)[0] for i in fronts) / len(fronts)
    oy = sum(bases[i].to_table(0, bases[i].d / 2)[1] for i in fronts) / len(fronts)
    rx, ry = fy, -fx

    def loc(p):
        dx, dy = p[0] - ox, p[1] - oy
        return (dx * rx + dy * ry, dx * fx + dy * fy)

    def tab(x, y):
        return (ox + rx * x + fx * y, oy + ry * x + fy * y)

    line = []
    for i in fronts:
        a, b = loc(bases[i].corners[1]), loc(bases[i].corners[2])
        line += [a, b]
    line.sort()
    xs = [loc(p)[0] for i in fronts for p in (bases[i].corners[0], bases[i].corners[3])]
    centre = (min(xs) + max(xs)) / 2
    rl, rr = (math.inf, math.inf), (-math.inf, math.inf)
    for b in bases:
        for p in (loc(b.corners[1]), loc(b.corners[2])):
            if p[0] < rl[0] - TIE or (abs(p[0] - rl[0]) <= TIE and p[1] < rl[1]):
                rl = p
            if p[0] > rr[0] + TIE or (abs(p[0] - rr[0]) <= TIE and p[1] < rr[1]):
                rr = p
    far = 1e5
    behind = Polygon([tab(x, y) for x, y in [(-far, line[0][1])] + line + [(far, line[-1][1]), (far, -far), (-far, -far)]])
    rear = Polygon([tab(*rl), tab(rl[0], rl[1] - far), tab(rr[0], rr[1] - far), tab(*rr)])
    return behind, rear, loc, centre


def aspect(attacker_bases, geom):
    behind, rear, loc, centre = geom
    polys = [b.poly for b in attacker_bases]
    if any(shapely.intersection(rear, p).area > 0 for p in polys):
        return ("rear", None)
    past = [b for b in attacker_bases if shapely.intersection(behind, b.poly).area > TIE]
    if not past:
        return ("front", None)
    cx = sum(b.cx for b in past) / len(past)
    cy = sum(b.cy for b in past) / len(past)
    return ("flank", "left" if loc((cx, cy))[0] < centre else "right")


def run(units, scale):
    ratio = RATIO[scale]
    general, all_out = 3 * 25.4 * ratio, 1.5 * 25.4 * ratio
    slope = math.tan(math.radians(5.0))
    combat = {"infantry", "cavalry", "artillery"}
    keys, polys = [], []
    for ui, u in enumerate(units):
        if u["kind"] in combat:
            for bi, b in enumerate(u["bases"]):
                keys.append((ui, bi))
                polys.append(b.poly)
    tree = STRtree(polys)
    contacts = []
    reach = general / math.cos(math.radians(5.0)) + 1e-6
    for ai, a in enumerate(units):
        if a["kind"] not in combat:
            continue
        per = {}
        for fi in front_bases(a["bases"]):
            f = a["bases"][fi]
            z = zone(f, general, slope)
            cand = [(keys[j], polys[j]) for j in tree.query(f.poly, predicate="dwithin", distance=reach) if keys[j][0] != ai]
            if not cand:
                continue
            cand.sort(key=lambda c: c[0])
            for (du, db), frontage, depth in sightings(f, z, slope, cand):
                if units[du]["side"] == a["side"]:
                    continue
                e = per.setdefault(du, [[], 0.0, math.inf])
                if not e[0] or e[0][-1] != fi:
                    e[0].append(fi)
                e[1] += frontage
                e[2] = min(e[2], depth)
        best = max((v[1] for v in per.values()), default=0.0)
        for di, (face, frontage, depth) in sorted(per.items()):
            contacts.append((ai, di, "all-out" if depth <= all_out + TIE else "general", face,
                             "primary" if abs(frontage - best) <= TIE else "supporting"))
    kept = []
    for c in contacts:
        a = units[c[0]]
        if a["kind"] != "artillery" or any(
            o[1] == c[1] and units[o[0]]["side"] == a["side"] and units[o[0]]["kind"] != "artillery" for o in contacts
        ):
            kept.append(c)
    geoms = {}
    out = []
    for c in kept:
        if c[1] not in geoms:
            geoms[c[1]] = flank_geometry(units[c[1]]["bases"])
        out.append(c + aspect(units[c[0]]["bases"], geoms[c[1]]))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    print(f"shapely {shapely.__version__} (GEOS {shapely.geos_version_string})")
    for name, closed in (("grand-battle", False),):
        t, units = load(closed)
        times = []
        for _ in range(args.runs):
            start = time.perf_counter()
            res = run(units, t["scale"])
            times.append(time.perf_counter() - start)
        nbases = sum(len(u["bases"]) for u in units)
        aspects = {}
        for r in res:
            aspects[r[5]] = aspects.get(r[5], 0) + 1
        print(f"{name}: {nbases} bases, {len(res)} assault contacts {aspects}; "
              f"best {min(times) * 1e3:.1f} ms, median {sorted(times)[len(times) // 2] * 1e3:.1f} ms over {args.runs} runs")


if __name__ == "__main__":
    main()
