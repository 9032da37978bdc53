#!/usr/bin/env python3
"""Does a ranking learned from the fitter's candidates order true places before false
ones better than its hand-made `rank(h)`? (issue 37 item 2; BENCHMARKS.md, "Untagged
bases", "Tried and left out").

Reads the debug output of the bench run on the training shots
(`tests/common/untagged.rs` `training_shots()`, seeds 3801-3812, disjoint from the
bench's 3701-3706; never the second renderer's photos) and their true tables:

    UNTAGGED_TRAIN=1 VEDETTE_FIT_DEBUG=1 cargo bench --bench scan_untagged 2> train.log
    python3 benches/untagged_ranker.py train.log

Each `fit-cand` line (one per candidate place: layout, centre, heading, rank, score,
edges, clear bands, fill, explained, misfit, runner-up, weakest edge) is labelled true
when it is the place of a true unit of its layout: base size and count the unit's, its
centre within 5 mm of the unit's centre, its axis within 5 degrees of the unit's
(front or rear alike) and its outline's frontage and depth within 10 mm of the extent
of the unit's bases along and across that axis (a line is not a two-line unit's place).

Compared, cross-validated by photo (each photo scored by a model fitted on the
others): `rank(h)` against a logistic regression on log and ratio features (L2, by
Newton's method; numpy only), and a pairwise one (a true place against a false one of
the same blob, which is what the greedy order decides). Prints ROC AUC over all
candidates, the same within each blob (true-false pairs of one blob ordered right),
whether each blob's best candidate is true, the precision of each photo's top k
(k = its true candidates) and the fitter's greedy order without its paint rules (a
place taken unless it overlaps one taken in its blob or no unit of its layout is left:
true places taken / places taken), then the weights fitted on every photo.

Result (2026-11-30, BENCHMARKS.md "Untagged bases", "Tried and left out"): the learned
order separates far better here, but in the whole fitter, with its paint, contested
and swallowed rules, it lost bases on the bench's photos and on the second renderer's.
"""

import json
import math
import os
import re
import sys
from collections import defaultdict

import numpy as np

BENCH = os.path.join(os.path.dirname(__file__), "..", "target", "untagged-bench")
MATCH_MM = 5.0
MATCH_DEG = 5.0
EXTENT_MM = 10.0
# A place whose outline reaches this near the table's edge is never given (the fitter's
# TABLE_EDGE_CLEAR_MM): left out of the comparison.
TABLE_EDGE_CLEAR_MM = 5.0
# The fitter's own prior on the axis (crates/vision/src/fitting/mod.rs).
ENEMY_AXIS_PRIOR = 0.1

NUM = r"(-?[\d.]+(?:e-?\d+)?|NaN|inf)"
CAND = re.compile(
    r"fit-cand (\d+) (\d+) (\d+) (\d+) (\d+) " + " ".join([NUM] * 5)
    + r" \[([^\]]*)\] clear \[([^\]]*)\] fill " + NUM + " expl " + NUM + " misfit " + NUM
    + " runner-up " + NUM + r"(?: weakest " + NUM + ")?"
)
PHOTO = re.compile(r"^(u1-\S+): rendered in")


def read_log(path):
    """{photo: [candidate dict]} from the bench's stderr."""
    out, name = defaultdict(list), None
    seen = set()
    for line in open(path, errors="replace"):
        m = PHOTO.match(line)
        if m:
            name = m.group(1)
            continue
        m = CAND.search(line)
        if not m or name is None:
            continue
        g = m.groups()
        c = dict(
            blob=int(g[0]), cols=int(g[1]), rows=int(g[2]), width=float(g[3]), depth=float(g[4]),
            x=float(g[5]), y=float(g[6]), heading=float(g[7]), rank=float(g[8]), score=float(g[9]),
            edges=[float(v) for v in g[10].split(",")], clear=[float(v) for v in g[11].split(",")],
            fill=float(g[12]), expl=float(g[13]), misfit=float(g[14]), runner_up=float(g[15]),
            weakest=float(g[16]) if g[16] is not None else float("nan"),
        )
        # The fitter may run twice on one photo (the same candidates): once each.
        key = (name, c["blob"], c["cols"], c["rows"], c["width"], c["depth"], c["x"], c["y"], c["heading"])
        if key in seen:
            continue
        seen.add(key)
        out[name].append(c)
    return out


def axis_diff(a, b, period):
    d = (a - b) % period
    return min(d, period - d)


def true_places(truth):
    """Per true unit: base size, count, centre, heading, bases."""
    units = []
    for u in truth["units"]:
        bs = u["bases"]
        cx = sum(b["x"] for b in bs) / len(bs)
        cy = sum(b["y"] for b in bs) / len(bs)
        units.append(dict(id=u["id"], width=bs[0]["width"], depth=bs[0]["depth"], n=len(bs), x=cx, y=cy,
                          heading=bs[0]["heading"], bases=bs))
    return units


def reaches_edge(c, size):
    h = math.radians(c["heading"])
    f = (math.cos(h), math.sin(h))
    s = (-f[1], f[0])
    a, b = c["cols"] * c["width"] / 2.0, c["rows"] * c["depth"] / 2.0
    for i, j in ((1, 1), (1, -1), (-1, 1), (-1, -1)):
        x = c["x"] + i * a * s[0] + j * b * f[0]
        y = c["y"] + i * a * s[1] + j * b * f[1]
        m = TABLE_EDGE_CLEAR_MM
        if x < m or y < m or x > size["width"] - m or y > size["depth"] - m:
            return True
    return False


def label(c, units):
    for u in units:
        if (u["width"], u["depth"]) != (c["width"], c["depth"]) or u["n"] != c["cols"] * c["rows"]:
            continue
        if math.hypot(c["x"] - u["x"], c["y"] - u["y"]) > MATCH_MM:
            continue
        square = c["width"] == c["depth"] and c["cols"] == c["rows"]
        if axis_diff(c["heading"], u["heading"], 90.0 if square else 180.0) > MATCH_DEG:
            continue
        h = math.radians(c["heading"])
        f = (math.cos(h), math.sin(h))
        s = (-f[1], f[0])
        along = [b["x"] * s[0] + b["y"] * s[1] for b in u["bases"]]
        across = [b["x"] * f[0] + b["y"] * f[1] for b in u["bases"]]
        frontage = max(along) - min(along) + c["width"]
        depth = max(across) - min(across) + c["depth"]
        if square or (abs(frontage - c["cols"] * c["width"]) <= EXTENT_MM
                      and abs(depth - c["rows"] * c["depth"]) <= EXTENT_MM):
            return 1
    return 0


FEATURES = [
    "log score", "log fill", "log(0.5+expl)", "axis prior", "log weakest", "log edge min/max",
    "log edge mean/score", "clear mean", "clear min", "misfit", "log bases", "log outline",
]


# The features `fitting::ranker` used (branch `ranker18-wip`, not kept; the weakest edge and the misfit left out: the
# weakest edge is the edges' spread again, and the misfit's weight came out positive,
# more misfit ranking higher, a quirk of these renders not to be trusted elsewhere),
# with the Rust constants they become.
KEPT = [0, 1, 2, 3, 5, 6, 7, 8, 10, 11]
RUST = {
    "log fill": "W_LOG_FILL", "log(0.5+expl)": "W_LOG_EXPLAINED", "axis prior": "W_AXIS_PRIOR",
    "log edge min/max": "W_LOG_EDGE_SPREAD", "log edge mean/score": "W_LOG_MEAN_EDGE",
    "clear mean": "W_CLEAR_MEAN", "clear min": "W_CLEAR_MIN", "log bases": "W_LOG_BASES",
    "log outline": "W_LOG_OUTLINE",
}


def features(c):
    e = np.maximum(np.array(c["edges"]), 1e-3)
    cl = np.array(c["clear"])
    fy = abs(math.sin(math.radians(c["heading"])))
    w = c["weakest"] if c["weakest"] == c["weakest"] else e.min() / 12.0
    return [
        math.log(max(c["score"], 1e-6)),
        math.log(max(min(c["fill"], 1.0), 1e-6)),
        math.log(0.5 + min(c["expl"], 1.0)),
        math.log(1.0 - ENEMY_AXIS_PRIOR * (1.0 - fy)),
        math.log(max(w, 1e-6)),
        math.log(e.min() / e.max()),
        math.log(e.mean() / max(c["score"], 1e-6)),
        float(cl.mean()),
        float(cl.min()),
        min(c["misfit"], 20.0),
        math.log(c["cols"] * c["rows"]),
        math.log(c["cols"] * c["width"] * c["rows"] * c["depth"]),
    ]


def fit_logistic(X, y, l2=1.0, iters=50):
    """Weights (bias last) of an L2 logistic regression, Newton's method."""
    Xb = np.hstack([X, np.ones((len(X), 1))])
    w = np.zeros(Xb.shape[1])
    reg = l2 * np.eye(Xb.shape[1])
    reg[-1, -1] = 0.0
    for _ in range(iters):
        p = 1.0 / (1.0 + np.exp(-np.clip(Xb @ w, -30, 30)))
        g = Xb.T @ (p - y) + reg @ w
        H = (Xb * (p * (1 - p))[:, None]).T @ Xb + reg + 1e-9 * np.eye(len(w))
        step = np.linalg.solve(H, g)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return w


def pairs(X, y, blob):
    """Differences true - false of the candidates of one blob (and their mirror)."""
    D = []
    for b in set(blob):
        idx = np.where(blob == b)[0]
        t, f = idx[y[idx] == 1], idx[y[idx] == 0]
        for i in t:
            for j in f:
                D.append(X[i] - X[j])
    if not D:
        return np.zeros((0, X.shape[1])), np.zeros(0)
    D = np.array(D)
    return np.vstack([D, -D]), np.concatenate([np.ones(len(D)), np.zeros(len(D))])


def fit_pairwise(X, y, blob, l2=1.0):
    D, t = pairs(X, y, blob)
    w = fit_logistic(D, t, l2)
    return np.concatenate([w[:-1], [0.0]])


def auc(s, y):
    s, y = np.asarray(s), np.asarray(y)
    order = np.argsort(s, kind="mergesort")
    ranks = np.empty(len(s))
    ss = s[order]
    i = 0
    while i < len(ss):
        j = i
        while j + 1 < len(ss) and ss[j + 1] == ss[i]:
            j += 1
        ranks[order[i:j + 1]] = (i + j) / 2.0 + 1
        i = j + 1
    npos, nneg = y.sum(), len(y) - y.sum()
    if npos == 0 or nneg == 0:
        return float("nan")
    return (ranks[y == 1].sum() - npos * (npos + 1) / 2) / (npos * nneg)


def within_blob(s, y, blob):
    """Pairs (true, false) of one blob ordered right (ties half), and blobs whose best is true."""
    right, total, top, blobs = 0.0, 0, 0, 0
    for b in set(blob):
        idx = np.where(blob == b)[0]
        t, f = idx[y[idx] == 1], idx[y[idx] == 0]
        if len(t) == 0:
            continue
        blobs += 1
        top += int(y[idx[np.argmax(s[idx])]] == 1)
        for i in t:
            for j in f:
                right += 1.0 if s[i] > s[j] else 0.5 if s[i] == s[j] else 0.0
                total += 1
    return right, total, top, blobs


SLIVER_MM = 2.0


def core(c):
    """The outline's corners shrunk by SLIVER_MM toward its centre (the fitter's core)."""
    h = math.radians(c["heading"])
    f = np.array([math.cos(h), math.sin(h)])
    r = np.array([f[1], -f[0]])
    a, b = c["cols"] * c["width"], c["rows"] * c["depth"]
    half = math.hypot(a, b) / 2.0
    k = (half - SLIVER_MM) / half if half > SLIVER_MM else 0.0
    a, b = a * k / 2.0, b * k / 2.0
    o = np.array([c["x"], c["y"]])
    return np.array([o + r * i * a + f * j * b for i, j in ((-1, -1), (1, -1), (1, 1), (-1, 1))]), (f, r)


def separated(p, q):
    for poly in (p, q):
        for axis in poly[1]:
            pa, qa = p[0] @ axis, q[0] @ axis
            if pa.max() < qa.min() or qa.max() < pa.min():
                return True
    return False


def greedy(cs, s, units):
    """The fitter's greedy order without paints: best first, a place taken unless it
    overlaps one taken in its blob or no unit of its layout is left. Gives (taken true,
    taken)."""
    left = defaultdict(int)
    for u in units:
        left[(u["width"], u["depth"], u["n"])] += 1
    taken, right, count = defaultdict(list), 0, 0
    for i in np.argsort(-s, kind="mergesort"):
        c = cs[i]
        key = (c["width"], c["depth"], c["cols"] * c["rows"])
        if left[key] == 0:
            continue
        k = core(c)
        if any(not separated(k, t) for t in taken[c["blob"]]):
            continue
        taken[c["blob"]].append(k)
        left[key] -= 1
        count += 1
        right += c["label"]
    return right, count


def main():
    log = sys.argv[1] if len(sys.argv) > 1 else "train.log"
    cands = read_log(log)
    X, y, photo, blob, rank = [], [], [], [], []
    for pi, (name, cs) in enumerate(sorted(cands.items())):
        truth = json.load(open(os.path.join(BENCH, name + ".table.json")))
        units = true_places(truth)
        cs = [c for c in cs if not reaches_edge(c, truth["size"])]
        for c in cs:
            c["label"] = label(c, units)
            X.append(features(c))
            y.append(c["label"])
            photo.append(pi)
            blob.append(pi * 100000 + c["blob"])
            rank.append(c["rank"])
        print(f"{name}: {len(cs)} candidates, {sum(y[-len(cs):])} true, {len(units)} units")
    units_of = {n: true_places(json.load(open(os.path.join(BENCH, n + ".table.json")))) for n in cands}
    kept = {n: [c for c in cands[n] if "label" in c] for n in cands}
    X, y, photo, blob, rank = map(np.array, (X, y, photo, blob, rank))
    # RANKER_FEATURES=0,1,2 fits on those features only (indices into FEATURES).
    chosen = os.environ.get("RANKER_FEATURES")
    cols = [int(v) for v in chosen.split(",")] if chosen else KEPT
    X = X[:, cols]
    names_of = [FEATURES[i] for i in cols]
    mu, sd = X.mean(0), X.std(0) + 1e-9
    Z = (X - mu) / sd
    names = sorted(cands)
    scores = {"rank(h)": np.log(np.maximum(rank, 1e-9)), "logistic": np.zeros(len(y)),
              "pairwise": np.zeros(len(y))}
    for p in range(len(names)):
        tr, te = photo != p, photo == p
        w = fit_logistic(Z[tr], y[tr])
        scores["logistic"][te] = Z[te] @ w[:-1]
        wp = fit_pairwise(Z[tr], y[tr], blob[tr])
        scores["pairwise"][te] = Z[te] @ wp[:-1]
    print(f"\n{len(y)} candidates, {y.sum()} true, {len(names)} photos; cross-validated by photo")
    print("| ranking | ROC AUC, all | AUC within blobs (pairs) | blob's best is true | precision at top k (k = true per photo) | greedy: true places taken / taken (units) |")
    print("|---|---|---|---|---|---|")
    for k, s in scores.items():
        r, t, top, nb = within_blob(s, y, blob)
        hit = tot = 0
        for p in range(len(names)):
            m = photo == p
            kk = int(y[m].sum())
            best = np.argsort(-s[m], kind="mergesort")[:kk]
            hit += int(y[m][best].sum())
            tot += kk
        g_right = g_taken = g_units = 0
        for p, n in enumerate(names):
            gr, gt = greedy(kept[n], s[photo == p], units_of[n])
            g_right, g_taken, g_units = g_right + gr, g_taken + gt, g_units + len(units_of[n])
        print(f"| {k} | {auc(s, y):.4f} | {r / max(t, 1):.4f} ({t}) | {top}/{nb} | {hit / max(tot, 1):.4f} "
              f"| {g_right} / {g_taken} ({g_units}) |")
    print("\nper photo, AUC within blobs: rank(h) / logistic / pairwise")
    for p, n in enumerate(names):
        m = photo == p
        vals = []
        for s in scores.values():
            r, t, _, _ = within_blob(s[m], y[m], blob[m])
            vals.append(r / max(t, 1))
        print(f"  {n}: " + " / ".join(f"{v:.3f}" for v in vals))
    w = fit_pairwise(Z, y, blob)
    raw = w[:-1] / sd
    # Scaled so that the score's own power is 1 with the raw edges held (the log score
    # less the log of the edges' mean over it): the same order, and the rank is the
    # score times a factor of the other measures, so that its ratios, which the
    # fitter's runner-up, contested, swallowed and elsewhere rules read, stay shares of
    # the edges' score between places alike in all else.
    over = names_of.index("log edge mean/score") if "log edge mean/score" in names_of else None
    k = raw[0] - (raw[over] if over is not None else 0.0)
    print(f"\npairwise weights on every photo, per unit of the raw feature, over the score's power ({k:.4f}):")
    for n, wi in zip(names_of, raw):
        print(f"  {n:>22}: {wi / k:+.5f}")
    if names_of[0] == "log score":
        print("\nfor crates/vision/src/fitting/ranker.rs (branch ranker18-wip; rank = score * exp(sum)):")
        for n, wi in zip(names_of[1:], raw[1:]):
            print(f"const {RUST.get(n, n)}: f64 = {wi / k:.4};")

if __name__ == "__main__":
    main()
