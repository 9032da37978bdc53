#!/usr/bin/env python3
"""Where do the units the fitter holds back as contested stand? (issue 37;
BENCHMARKS.md "Untagged bases", "Contested units traced").

Reads the bench's debug output (`VEDETTE_FIT_DEBUG=1 cargo bench --bench
scan_untagged 2> LOG`, with `UNTAGGED_TRAIN=1` for the held-out shots) and each
photo's true table (vedette-synth's in target/untagged-bench/, the second renderer's
`truth.json` under VEDETTE_SHARED_RENDERS), and for each `fit-contested` unit prints
where its truth stands against the place held (the `fit-cand` line before it) and its
runner-up, using `untagged_ranker.py`'s matching (5 mm, 5 degrees):

    python3 benches/untagged_contested.py LOG

Classes: the held place is another unit's (more than 30 mm from the truth); the truth
is the held place, the runner-up, or neither; the runner-up turned a quarter, or slid
along or across the held place's axis. Then, over the pairs whose truth is one of the
two, how often each term of the hypothesis favours the true place, and where the
truth lies on the segment from the held place to the runner-up (t = 0 held, 1
runner-up), how far the midpoint is from it, and how much of the slide runs along the
camera's view (positive: the runner-up farther from the camera).
"""

import json
import math
import os
import re
import sys
from collections import Counter, defaultdict

sys.path.insert(0, os.path.dirname(__file__))
import untagged_ranker as R  # noqa: E402

SHARED = os.environ.get("VEDETTE_SHARED_RENDERS", "")
SUMMARY = re.compile(r"^(\S+): \d+ of \d+ bases")
CONTESTED = re.compile(
    r"fit-contested (\S+) ([\d.]+) runner-up at \((-?[\d.]+),(-?[\d.]+)\) heading (-?[\d.]+): "
    r"([\d.]+) mm, (\d+) deg off"
)
GROUND = re.compile(r"ground \[([^\]]*)\]")
ELSEWHERE_MM = 30.0


def truth_of(name):
    p = os.path.join(R.BENCH, name + ".table.json")
    if not os.path.exists(p):
        p = os.path.join(SHARED, name, "truth.json")
    return json.load(open(p))


def sections(log):
    """[(photo, candidates, contested)] in the log's order (a photo ends at its summary)."""
    out, cands, cont, last = [], [], [], None
    for line in open(log, errors="replace"):
        m = R.CAND.search(line)
        if m:
            g = m.groups()
            last = dict(
                cols=int(g[1]), rows=int(g[2]), width=float(g[3]), depth=float(g[4]), x=float(g[5]),
                y=float(g[6]), heading=float(g[7]), rank=float(g[8]), score=float(g[9]),
                edges=[float(v) for v in g[10].split(",")], clear=[float(v) for v in g[11].split(",")],
                fill=float(g[12]), expl=float(g[13]), misfit=float(g[14]),
            )
            gm = GROUND.search(line)
            last["ground"] = [float(v) for v in gm.group(1).split(",")] if gm else None
            cands.append(last)
            continue
        m = CONTESTED.search(line)
        if m:
            cont.append((m.group(1), (float(m.group(3)), float(m.group(4)), float(m.group(5))), int(m.group(7)), last))
            continue
        m = SUMMARY.match(line)
        if m:
            out.append((m.group(1), cands, cont))
            cands, cont = [], []
    return out


def traced(log):
    rows = []
    for name, cands, cont in sections(log):
        try:
            truth = truth_of(name)
        except OSError:
            continue
        units = R.true_places(truth)
        seen = set()
        for uid, (rx, ry, rh), deg, held in cont:
            if uid in seen:
                continue
            seen.add(uid)
            u = next(x for x in units if x["id"] == uid)
            layout = lambda c: (c["cols"], c["rows"], c["width"], c["depth"])  # noqa: E731
            ru = next((c for c in cands if layout(c) == layout(held) and abs(c["x"] - rx) < 0.06
                       and abs(c["y"] - ry) < 0.06 and R.axis_diff(c["heading"], rh, 180.0) < 0.06), None)
            if math.hypot(u["x"] - held["x"], u["y"] - held["y"]) > ELSEWHERE_MM:
                where = "another unit's place"
            elif R.label(held, [u]):
                where = "truth the held place"
            elif ru is not None and R.label(ru, [u]):
                where = "truth the runner-up"
            else:
                where = "truth neither"
            if ru is None:
                how = "?"
            elif deg > 45:
                how = "turned a quarter"
            else:
                h = math.radians(held["heading"])
                f, s = (math.cos(h), math.sin(h)), (-math.sin(h), math.cos(h))
                dx, dy = ru["x"] - held["x"], ru["y"] - held["y"]
                how = "slid along" if abs(dx * s[0] + dy * s[1]) >= abs(dx * f[0] + dy * f[1]) else "slid across"
            rows.append(dict(name=name, uid=uid, n=u["n"], where=where, how=how, held=held, ru=ru, u=u))
    return rows


TERMS = {
    "edges (score)": lambda c: c["score"],
    "weakest edge": lambda c: min(c["edges"]),
    "clear bands, mean": lambda c: sum(c["clear"]) / 4,
    "clear bands, least": lambda c: min(c["clear"]),
    "fill": lambda c: c["fill"],
    "explained": lambda c: c["expl"],
    "misfit (less)": lambda c: -c["misfit"],
    "mat inside an edge (less)": lambda c: -max(c["ground"]) if c["ground"] else None,
}


def main(log):
    rows = traced(log)
    units, bases = Counter(), Counter()
    for r in rows:
        units[(r["where"], r["how"])] += 1
        bases[(r["where"], r["how"])] += r["n"]
        print(f"{r['name'][:44]:44} {r['uid']:6} {r['n']} {r['where']:22} {r['how']}")
    print(f"\n{len(rows)} units, {sum(r['n'] for r in rows)} bases held back")
    for k in sorted(units):
        print(f"  {k[0]:22} {k[1]:16} {units[k]:3} units {bases[k]:4} bases")
    tally = defaultdict(lambda: [0, 0, 0])
    for r in rows:
        if r["ru"] is None or r["where"] not in ("truth the held place", "truth the runner-up"):
            continue
        t, o = (r["held"], r["ru"]) if r["where"] == "truth the held place" else (r["ru"], r["held"])
        for k, fn in TERMS.items():
            a, b = fn(t), fn(o)
            if a is None or b is None:
                continue
            tally[k][0 if a > b else (1 if a < b else 2)] += 1
    print("\nterm: favours the true place / the other / ties")
    for k, (w, l, e) in tally.items():
        print(f"  {k:26} {w:3} {l:3} {e:3}")
    print("\nslid pairs near their truth: t on held -> runner-up, midpoint's distance (mm)")
    for r in rows:
        if r["ru"] is None or r["how"] == "turned a quarter" or r["where"] == "another unit's place":
            continue
        h, o, u = r["held"], r["ru"], r["u"]
        vx, vy = o["x"] - h["x"], o["y"] - h["y"]
        sep = math.hypot(vx, vy)
        t = ((u["x"] - h["x"]) * vx + (u["y"] - h["y"]) * vy) / max(sep * sep, 1e-9)
        mid = math.hypot(u["x"] - (h["x"] + o["x"]) / 2, u["y"] - (h["y"] + o["y"]) / 2)
        view = along_view(r)
        view = "" if view is None else f"  along the view {view:+.2f}"
        print(f"  {r['name'][:20]:20} {r['uid']:6} {r['where']:22} apart {sep:5.1f}  t {t:5.2f}  midpoint {mid:4.1f}{view}")


def along_view(r):
    """How much of the slide from the held place to its runner-up runs away from the
    camera (its ground point from the photo's `camera.json`), -1 to 1; None without one."""
    p = os.path.join(R.BENCH, r["name"] + ".camera.json")
    if not os.path.exists(p):
        return None
    c = json.load(open(p))
    rot, t = c["pose"]["rotation"], c["pose"]["tvec"]
    cam = [-sum(rot[k][i] * t[k] for k in range(3)) for i in range(2)]
    h, o = r["held"], r["ru"]
    d = (h["x"] - cam[0], h["y"] - cam[1])
    v = (o["x"] - h["x"], o["y"] - h["y"])
    n = math.hypot(*d) * math.hypot(*v)
    return (d[0] * v[0] + d[1] * v[1]) / n if n > 0 else None


if __name__ == "__main__":
    main(sys.argv[1])
