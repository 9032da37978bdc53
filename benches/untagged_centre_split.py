#!/usr/bin/env python3
"""Where the untagged bases' centre error comes from (issue 37; BENCHMARKS.md,
"Untagged bases", "Where the centre error comes from").

Reads the scanned tables `cargo bench --bench scan_untagged` leaves in
target/untagged-bench/ (NAME.scan.json), vedette-synth's true tables and camera files
beside them and the second renderer's under $VEDETTE_SHARED_RENDERS (truth.json,
scene.json). Each scanned untagged base is matched to the nearest true base of its own
unit and counted right within 5 mm and 5 degrees; its error is split along its unit's
rank and across it, signed toward the side the camera stands, outward at the line's
ends and toward the front. Prints the table, grouped, and what the error would be with
each right unit's fitted layout moved onto its true centre (along, across, both) or
turned onto its true axis.

    VEDETTE_SHARED_RENDERS=/work/shared/renders cargo bench --bench scan_untagged
    VEDETTE_SHARED_RENDERS=/work/shared/renders python3 benches/untagged_centre_split.py
"""

import glob
import json
import math
import os
import statistics
from collections import defaultdict

BENCH = os.path.join(os.path.dirname(__file__), "..", "target", "untagged-bench")
SHARED = os.environ.get("VEDETTE_SHARED_RENDERS", "")
SHARED_PHOTOS = ["untagged-305", "untagged-305-far", "untagged-306"]
# vedette-synth flocks every fourth unit (from the first) like the mat
# (benches/scan_untagged.rs, MAT_FLOCKED_EVERY).
MAT_FLOCKED_EVERY = 4


def quantile(v, q):
    s = sorted(v)
    return s[round((len(s) - 1) * q)] if s else float("nan")


def photos():
    """(renderer, name, scan, truth, camera centre) of every photo the bench scanned."""
    out = []
    for scan in sorted(glob.glob(os.path.join(BENCH, "u1-*.scan.json"))):
        name = os.path.basename(scan)[: -len(".scan.json")]
        cam = json.load(open(os.path.join(BENCH, name + ".camera.json")))
        r, t = cam["pose"]["rotation"], cam["pose"]["tvec"]
        eye = [-sum(r[j][i] * t[j] for j in range(3)) for i in range(3)]
        out.append(("vedette-synth", name, scan, os.path.join(BENCH, name + ".table.json"), eye))
    for name in SHARED_PHOTOS:
        scan = os.path.join(BENCH, name + ".scan.json")
        if SHARED and os.path.exists(scan):
            scene = json.load(open(os.path.join(SHARED, name, "scene.json")))
            truth = os.path.join(SHARED, name, "truth.json")
            out.append(("second renderer", name, scan, truth, scene["camera"]["position_mm"]))
    return out


def rows_of(renderer, name, scan, truth, eye):
    """One row per right scanned untagged base, and one per right unit."""
    bases, units = [], []
    true_units = {u["id"]: u for u in json.load(open(truth))["units"]}
    for u in json.load(open(scan))["units"]:
        tb = true_units.get(u["id"], {}).get("bases")
        if not tb or any(b.get("found") == "tag" for b in u["bases"]):
            continue
        n = len(tb)
        cx, cy = sum(b["x"] for b in tb) / n, sum(b["y"] for b in tb) / n
        h = math.radians(tb[0]["heading"])
        f, r = (math.cos(h), math.sin(h)), (math.sin(h), -math.cos(h))
        pos = [(b["x"] - cx) * r[0] + (b["y"] - cy) * r[1] for b in tb]
        ext = max(abs(a) for a in pos)
        t = true_units[u["id"]]
        try:
            flocked = (int(u["id"].split("-")[1]) - 1) % MAT_FLOCKED_EVERY == 0
        except (IndexError, ValueError):
            flocked = None
        matched = []
        for b in u["bases"]:
            j = min(range(n), key=lambda k: (tb[k]["x"] - b["x"]) ** 2 + (tb[k]["y"] - b["y"]) ** 2)
            tt = tb[j]
            dx, dy = b["x"] - tt["x"], b["y"] - tt["y"]
            turn = abs((b["heading"] - tt["heading"] + 90) % 180 - 90)
            if math.hypot(dx, dy) > 5 or turn > 5 or abs(b["width"] - tt["width"]) > 0.1:
                continue
            matched.append((b, j))
            along, across = dx * r[0] + dy * r[1], dx * f[0] + dy * f[1]
            to_eye = (eye[0] - tt["x"], eye[1] - tt["y"])
            sign = lambda d: 1 if d[0] * to_eye[0] + d[1] * to_eye[1] > 0 else -1  # noqa: E731
            bases.append(
                dict(
                    renderer=renderer,
                    photo=name,
                    kind=t["kind"],
                    formation=t.get("formation") or "-",
                    flocked=flocked,
                    place="a unit of one base"
                    if n == 1
                    else ("end of its line" if abs(abs(pos[j]) - ext) < 1 else "middle of its line"),
                    d=math.hypot(dx, dy),
                    along=along,
                    along_cam=along * sign(r),
                    outward=along * (1 if pos[j] >= 0 else -1) if n > 1 else 0.0,
                    across=across,
                    across_cam=across * sign(f),
                )
            )
        if len(matched) == n == len(u["bases"]) and len({j for _, j in matched}) == n:
            units.append((renderer, u, [tb[j] for _, j in matched]))
    return bases, units


def line(label, rs):
    d = [x["d"] for x in rs]
    mean = lambda k: statistics.mean(x[k] for x in rs)  # noqa: E731
    rms = lambda k: (sum(x[k] ** 2 for x in rs) / len(rs)) ** 0.5  # noqa: E731
    return (
        f"| {label} | {len(rs)} | {quantile(d, 0.5):.2f} / {quantile(d, 0.95):.2f} | {rms('along'):.2f} "
        f"| {mean('along_cam'):+.2f} | {mean('outward'):+.2f} | {rms('across'):.2f} | {mean('across'):+.2f} "
        f"| {mean('across_cam'):+.2f} |"
    )


def moved(units):
    """Per way of moving each right unit's fitted layout, (median, p95) of its bases' errors."""
    out = defaultdict(list)
    for _, u, tb in units:
        fit = [(b["x"], b["y"]) for b in u["bases"]]
        true = [(b["x"], b["y"]) for b in tb]
        n = len(fit)
        h = math.radians(u["bases"][0]["heading"])
        f, r = (math.cos(h), math.sin(h)), (math.sin(h), -math.cos(h))
        th = statistics.mean(math.radians(b["heading"]) for b in tb)
        if math.cos(th - h) < 0:
            th += math.pi
        ft, rt = (math.cos(th), math.sin(th)), (math.sin(th), -math.cos(th))
        cp = (sum(p[0] for p in fit) / n, sum(p[1] for p in fit) / n)
        cq = (sum(p[0] for p in true) / n, sum(p[1] for p in true) / n)
        local = [((p[0] - cp[0]) * r[0] + (p[1] - cp[1]) * r[1], (p[0] - cp[0]) * f[0] + (p[1] - cp[1]) * f[1]) for p in fit]
        d = (cp[0] - cq[0], cp[1] - cq[1])

        def errors(c, rr, ff):
            return [
                math.hypot(c[0] + rr[0] * a + ff[0] * b - q[0], c[1] + rr[1] * a + ff[1] * b - q[1])
                for (a, b), q in zip(local, true)
            ]

        da, dc = d[0] * rt[0] + d[1] * rt[1], d[0] * ft[0] + d[1] * ft[1]
        out["as fitted"] += errors(cp, r, f)
        out["on its true centre along its rank"] += errors((cp[0] - rt[0] * da, cp[1] - rt[1] * da), r, f)
        out["on its true centre across its rank"] += errors((cp[0] - ft[0] * dc, cp[1] - ft[1] * dc), r, f)
        out["on its true centre"] += errors(cq, r, f)
        out["on its true axis"] += errors(cp, rt, ft)
    return {k: (quantile(v, 0.5), quantile(v, 0.95)) for k, v in out.items()}


def main():
    bases, units = [], []
    for p in photos():
        b, u = rows_of(*p)
        bases += b
        units += u
    groups = {
        "vedette-synth": ["kind", "formation", "flocked", "photo", "place"],
        "second renderer": ["photo", "kind", "formation", "place"],
    }
    print(
        "| group | right bases | centre median / p95 mm | along: RMS | along: mean toward the camera "
        "| along: mean outward (ends) | across: RMS | across: mean toward the front "
        "| across: mean toward the camera |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for renderer, keys in groups.items():
        rs = [x for x in bases if x["renderer"] == renderer]
        if not rs:
            continue
        print(line(f"**{renderer}**", rs))
        for key in keys:
            g = defaultdict(list)
            for x in rs:
                g[x[key]].append(x)
            for value in sorted(g, key=str):
                if len(g[value]) >= 3:
                    print(line(f"{key} {value}", g[value]))
    for renderer in groups:
        for way, (med, p95) in moved([u for u in units if u[0] == renderer]).items():
            print(f"{renderer}: each right unit's fitted layout {way}: {med:.2f} / {p95:.2f} mm")


if __name__ == "__main__":
    main()
