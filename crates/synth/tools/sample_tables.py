#!/usr/bin/env python3
"""Writes the input tables of the sample photos in samples/photos (see
crates/synth/README.md). Both are 6'x4' (1828.8 x 1219.2 mm) tables.

    python3 crates/synth/tools/sample_tables.py skirmish > samples/photos/skirmish.table.json
    cargo run --release -- generate --bases 150 --seed 5 --terrain 8 -o /tmp/battle-raw.json
    python3 crates/synth/tools/sample_tables.py battle /tmp/battle-raw.json > samples/photos/battle.table.json

    python3 crates/synth/tools/sample_tables.py crowd > /tmp/crowd.json
    python3 crates/synth/tools/sample_tables.py untagged > /tmp/untagged.json

`crowd` is issue 18's hard case: 40 units of infantry in line (4 bases), two-line (3 x 2)
and column (3), alternately facing the near and the far edge, in a grid (the table of
tests/common/clutter.rs `crowded_table(1828.8, 1219.2, 8, 5)`).
`untagged` is issue 37's sample: a brigade action on a brown mat whose bases carry no tags
but for one French line (a mixed roster: its tags anchor its neighbour 6 mm away):
Austrian infantry in line, two lines and column, cavalry, a battery and a leader in the
near half facing the French 2-7" away, French infantry and cavalry within assault range
of theirs; its first unit (the renderer's --mat-flocked-every 12) is flocked like the mat.
`skirmish` is a small hand-placed action (16 bases of every kind, cubes, terrain);
`battle` moves a generated battle (vedette generate) onto the 6'x4' table, centring its
bases, and keeps everything else as generated.
"""
import json
import math
import sys

WIDTH, DEPTH = 1828.8, 1219.2


def line(x, y, heading, n, w, d, ranks=1):
    """Bases of a formation centred at (x, y) facing `heading`: n per rank, touching."""
    fx, fy = math.cos(math.radians(heading)), math.sin(math.radians(heading))
    rx, ry = fy, -fx  # the formation's right
    out = []
    for r in range(ranks):
        for i in range(n):
            lx = (i - (n - 1) / 2) * w
            ly = ((ranks - 1) / 2 - r) * d
            out.append({"x": round(x + rx * lx + fx * ly, 3), "y": round(y + ry * lx + fy * ly, 3),
                        "heading": heading, "width": w, "depth": d})
    return out


def skirmish():
    units = [
        {"id": "fr-1", "side": "france", "kind": "infantry", "formation": "line",
         "bases": line(800, 520, 90, 4, 30.0, 20.0), "division": "fr-d1"},
        {"id": "fr-1-sk", "side": "france", "kind": "skirmisher", "parent": "fr-1",
         "bases": line(790, 585, 90, 1, 20.0, 20.0), "division": "fr-d1"},
        {"id": "fr-2", "side": "france", "kind": "infantry", "formation": "attack-column",
         "bases": line(985, 500, 75, 2, 30.0, 20.0, ranks=2), "division": "fr-d1"},
        {"id": "fr-art", "side": "france", "kind": "artillery", "formation": "unlimbered", "weight": "medium",
         "bases": line(640, 540, 95, 1, 25.0, 40.0), "division": "fr-d1"},
        {"id": "fr-lim", "side": "france", "kind": "limber", "parent": "fr-art",
         "bases": line(644, 478, 95, 1, 25.0, 25.0), "division": "fr-d1"},
        {"id": "fr-ldr", "side": "france", "kind": "leader", "role": "division",
         "bases": line(880, 430, 100, 1, 25.0, 30.0), "division": "fr-d1"},
        {"id": "gb-1", "side": "britain", "kind": "infantry", "formation": "line",
         "bases": line(830, 700, 265, 3, 30.0, 20.0), "division": "gb-d1"},
        {"id": "gb-cav", "side": "britain", "kind": "cavalry", "formation": "line",
         "bases": line(1080, 720, 240, 2, 40.0, 30.0), "division": "gb-d1"},
    ]
    markers = [
        {"kind": "morale", "colour": "white", "x": 738.0, "y": 496.0, "unit": "fr-1"},
        {"kind": "morale", "colour": "yellow", "x": 760.0, "y": 735.0, "unit": "gb-1"},
        {"kind": "morale", "colour": "red", "x": 1022.0, "y": 765.0, "unit": "gb-cav"},
        {"kind": "morale", "colour": "black", "x": 950.0, "y": 452.0, "unit": "fr-2"},
        {"kind": "saved-fire", "colour": "natural", "x": 668.0, "y": 520.0, "unit": "fr-art"},
    ]
    terrain = [
        {"id": "hill-1", "kind": "hill", "level": 1,
         "outline": [[420, 380], [600, 330], [720, 380], [700, 470], [560, 500], [430, 470]]},
        {"id": "wood-1", "kind": "medium-forest",
         "outline": [[1150, 520], [1300, 480], [1380, 560], [1330, 680], [1190, 660]]},
        {"id": "village", "kind": "medium-buildings",
         "outline": [[470, 660], [570, 660], [570, 730], [470, 730]]},
        {"id": "farm", "kind": "light-buildings",
         "outline": [[600, 680], [640, 680], [640, 750], [600, 750]]},
        {"id": "pond", "kind": "water",
         "outline": [[1400, 300], [1480, 280], [1520, 340], [1450, 380], [1390, 350]]},
        {"id": "road", "kind": "road", "path": [[150, 800], [600, 795], [900, 880], [1700, 900]]},
        {"id": "hedge", "kind": "hedge", "path": [[1000, 850], [1200, 830], [1350, 780]]},
        {"id": "stream", "kind": "stream-bank", "path": [[300, 200], [500, 260], [800, 250], [1100, 300]]},
        {"id": "wall", "kind": "stone-wall", "path": [[450, 600], [560, 640]]},
    ]
    return {"schema": "vedette/table/1", "rules": "republique5", "scale": "medium",
            "name": "Sample skirmish on a 6'x4' table", "size": {"width": WIDTH, "depth": DEPTH},
            "units": units, "markers": markers, "terrain": terrain}


def untagged():
    def unit(uid, side, kind, bases, formation=None, **extra):
        u = {"id": uid, "side": side, "kind": kind, "bases": bases}
        if formation:
            u["formation"] = formation
        u.update(extra)
        return u
    units = [
        unit("au-1", "austria", "infantry", line(620, 420, 90, 4, 30.0, 20.0), "line", division="au-d1"),
        unit("au-2", "austria", "infantry", line(820, 400, 95, 3, 30.0, 20.0, ranks=2), "two-line",
             division="au-d1"),
        unit("au-3", "austria", "infantry", line(1000, 360, 80, 1, 30.0, 20.0, ranks=3), "attack-column",
             division="au-d1"),
        unit("au-art", "austria", "artillery", line(1150, 440, 100, 1, 25.0, 40.0), "unlimbered", weight="medium",
             division="au-d1"),
        unit("au-cav", "austria", "cavalry", line(1350, 380, 85, 3, 40.0, 30.0), "line", division="au-d1"),
        unit("au-ldr", "austria", "leader", line(880, 280, 90, 1, 25.0, 30.0), role="division", division="au-d1"),
        unit("fr-1", "france", "infantry", line(640, 600, 265, 4, 30.0, 20.0), "line", division="fr-d1"),
        # fr-2 stands 6 mm to the right of fr-1's right flank.
        unit("fr-2", "france", "infantry", line(529.42, 609.67, 265, 3, 30.0, 20.0), "line", division="fr-d1"),
        # fr-3 about 2" in front of au-2, fr-cav about 2.4" in front of au-cav: in
        # assault range.
        unit("fr-3", "france", "infantry", line(835, 490, 280, 2, 30.0, 20.0, ranks=2), "two-line",
             division="fr-d1"),
        unit("fr-art", "france", "artillery", line(1100, 640, 255, 1, 25.0, 40.0), "unlimbered", weight="medium",
             division="fr-d1"),
        unit("fr-cav", "france", "cavalry", line(1340, 485, 270, 2, 40.0, 30.0, ranks=2), "two-line",
             division="fr-d1"),
        unit("fr-ldr", "france", "leader", line(760, 720, 270, 1, 25.0, 30.0), role="division", division="fr-d1"),
    ]
    terrain = [
        {"id": "wood-1", "kind": "medium-forest",
         "outline": [[250, 560], [400, 520], [470, 600], [420, 700], [280, 690]]},
    ]
    return {"schema": "vedette/table/1", "rules": "republique5", "scale": "medium",
            "name": "Untagged brigade action on a 6'x4' table", "size": {"width": WIDTH, "depth": DEPTH},
            "units": units, "terrain": terrain}


def crowd(columns=8, rows=5):
    units = []
    formations = [("line", 4, 1), ("two-line", 3, 2), ("attack-column", 1, 3)]
    for row in range(rows):
        for col in range(columns):
            i = len(units)
            formation, files, ranks = formations[i % 3]
            x = WIDTH * (col + 0.5) / columns
            y = 150.0 + (DEPTH - 300.0) * (row + 0.5) / rows
            heading = (90.0 if (row + col) % 2 == 0 else 270.0) + (i * 7) % 11 - 5.0
            units.append({"id": f"u{i}", "side": "fr" if row % 2 == 0 else "au", "kind": "infantry",
                          "formation": formation, "bases": line(x, y, heading, files, 30.0, 20.0, ranks=ranks)})
    return {"schema": "vedette/table/1", "rules": "republique5", "scale": "medium",
            "name": "Crowded infantry on a 6'x4' table", "size": {"width": WIDTH, "depth": DEPTH},
            "units": units}


def battle(path):
    table = json.load(open(path))
    xs = [b["x"] for u in table["units"] for b in u["bases"]]
    ys = [b["y"] for u in table["units"] for b in u["bases"]]
    dx = round(WIDTH / 2 - (min(xs) + max(xs)) / 2, 3)
    dy = round(DEPTH / 2 - (min(ys) + max(ys)) / 2, 3)
    for u in table["units"]:
        for b in u["bases"]:
            b["x"], b["y"] = round(b["x"] + dx, 3), round(b["y"] + dy, 3)
    for m in table.get("markers", []):
        m["x"], m["y"] = round(m["x"] + dx, 3), round(m["y"] + dy, 3)
    for f in table.get("terrain", []):
        for key in ("outline", "path"):
            if key in f:
                f[key] = [[round(x + dx, 3), round(y + dy, 3)] for x, y in f[key]]
        if "holes" in f:
            f["holes"] = [[[round(x + dx, 3), round(y + dy, 3)] for x, y in h] for h in f["holes"]]
    table["size"] = {"width": WIDTH, "depth": DEPTH}
    table["name"] = table.get("name", "battle") + ", moved onto a 6'x4' table"
    return table


if __name__ == "__main__":
    kind = sys.argv[1] if len(sys.argv) > 1 else ""
    if kind == "skirmish":
        t = skirmish()
    elif kind == "crowd":
        t = crowd()
    elif kind == "untagged":
        t = untagged()
    elif kind == "battle" and len(sys.argv) > 2:
        t = battle(sys.argv[2])
    else:
        sys.exit(__doc__)
    json.dump(t, sys.stdout, indent=2)
    sys.stdout.write("\n")
