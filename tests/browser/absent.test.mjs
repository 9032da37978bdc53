// Units the scan put nowhere (issue 37): tests/browser/run serves the bundled untagged
// sample in photo mode with tests/browser/fixtures/untagged-absent.roster.toml, whose
// fr-9 (two 60 x 60 mm bases in column, French: it faces the near edge) stands nowhere
// on the table. The scan summary's `absent` offers it; *Put fr-9 on the table* asks for
// two taps, the two ends of its front edge; the unit is laid out behind that edge (its
// frontage centred between them, facing the enemy's edge, facing assumed), one "place"
// correction, and selected; Undo takes it back. Cancel asks for nothing more. On a
// desktop (mouse) and a phone (touch), on the plan and over the photo, each leaving the
// table as it found it. Screenshots go to target/browser/absent-*.png.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { api, baseCentre, corrections, desktopAndPhone, openViewer, shots } from "./lib.mjs";

const browsers = desktopAndPhone();
const PUT = { hasText: "Put fr-9 on the table" };

/**
 * The plan's screen <-> table mm mapping (a scale, y flipped, and a shift), measured on
 * two bases far apart: {toTable(p), toScreen(t), s} with `s` screen px per mm.
 */
async function planMapping(page) {
  const bases = await api(page, "/api/bases");
  const a = bases.reduce((m, b) => (b.x + b.y < m.x + m.y ? b : m));
  const b = bases.reduce((m, b) => (b.x - b.y > m.x - m.y ? b : m));
  const [pa, pb] = [await baseCentre(page, a.base), await baseCentre(page, b.base)];
  const s = Math.hypot(pb.x - pa.x, pb.y - pa.y) / Math.hypot(b.x - a.x, b.y - a.y);
  return {
    s,
    toTable: (p) => ({ x: a.x + (p.x - pa.x) / s, y: a.y - (p.y - pa.y) / s }),
    toScreen: (t) => ({ x: pa.x + (t.x - a.x) * s, y: pa.y - (t.y - a.y) * s }),
  };
}

/** The screen centre of the base nearest the table's middle (on the table, whatever the view). */
async function middleBase(page) {
  const bases = await api(page, "/api/bases");
  const m = bases.reduce((best, b) => (Math.hypot(b.x - 915, b.y - 610) < Math.hypot(best.x - 915, best.y - 610) ? b : best));
  return baseCentre(page, m.base);
}

async function tapAt(page, touch, p) {
  if (touch) await page.touchscreen.tap(p.x, p.y);
  else await page.mouse.click(p.x, p.y);
}

/** fr-9 offered, laid out by two taps on the plan, shown, undone; then cancelled. */
async function layOutOnce(b, name) {
  const page = b.page;
  const touch = name === "phone";
  const tap = async (loc) => (touch ? loc.tap() : loc.click());
  await openViewer(page);
  const session = await api(page, "/api/session");
  const absent = session.scan.absent;
  // fr-9, and whatever else the scan did not find (nothing else on this sample today).
  const a = absent.find((x) => x.template.id === "fr-9");
  assert.ok(a, JSON.stringify(absent.map((x) => x.template.id)));
  assert.ok(!session.scan.held.some((h) => h.unit === "fr-9"));
  assert.equal(a.template.bases.length, 2);
  assert.deepEqual(a.faces_far, [false, false], "France faces the near edge (Austria's)");
  assert.equal(a.depth_mm, 120);
  const before = await api(page, "/api/bases");
  assert.ok(!before.some((x) => x.unit === "fr-9"));
  await tap(page.locator('label.choice:has(#view-plan)'));
  await page.waitForFunction(() => document.querySelector("#view svg g#bases") && !document.getElementById("absent").hidden);
  assert.match(await page.locator("#absent-list").innerText(), /fr-9 \(france infantry, 2 bases of 60 x 60 mm\): the scan found none of its bases/);
  await page.locator("#absent").scrollIntoViewIfNeeded();
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(shots, `absent-${name}-offered.png`) });

  // Two taps, the ends of its front edge: the unit laid out behind it, facing the near edge.
  const map = await planMapping(page);
  const made = corrections().length;
  await tap(page.locator("#absent-list button", PUT));
  await page.locator("#placing").waitFor();
  assert.match(await page.locator("#placing-words").innerText(), /fr-9: tap one end of its front edge/);
  // A tap off the table (beyond its right edge) is refused in the banner (nothing marked).
  await tapAt(page, touch, map.toScreen({ x: 1900, y: 600 }));
  await page.waitForFunction(() => /\(x 19\d\d, y [56]\d\d mm\) is off the table/.test(document.getElementById("placing-words").textContent));
  assert.equal(await page.locator("#view svg #page-mark circle").count(), 0);
  const [p, q] = [map.toScreen({ x: 700, y: 1000 }), map.toScreen({ x: 1000, y: 1000 })];
  await tapAt(page, touch, p);
  await page.waitForFunction(() => /now tap the other end/.test(document.getElementById("placing-words").textContent));
  assert.equal(await page.locator("#view svg #page-mark circle").count(), 2, "the first tap is marked");
  await page.screenshot({ path: join(shots, `absent-${name}-first-tap.png`) });
  await tapAt(page, touch, q);
  await page.waitForFunction(() => document.getElementById("selection").textContent.startsWith("A: fr-9#0"));
  await page.locator("#placing").waitFor({ state: "hidden" });
  const c = corrections().slice(made);
  assert.equal(c.length, 1);
  assert.equal(c[0].op, "place");
  assert.equal(c[0].unit.id, "fr-9");
  assert.equal(c[0].unit.side, "france");
  const [tp, tq] = [map.toTable(p), map.toTable(q)];
  const mid = { x: (tp.x + tq.x) / 2, y: (tp.y + tq.y) / 2 };
  const tol = 3 / map.s;   // three screen pixels, in mm
  const placed = c[0].unit.bases;
  assert.equal(placed.length, 2);
  // Facing the near edge (heading 270), the front rank 30 mm behind the front edge (+y),
  // the second 60 mm behind it.
  placed.forEach((x, i) => {
    assert.deepEqual([x.width, x.depth, x.heading, x.facing], [60, 60, 270, "assumed"]);
    assert.ok(Math.abs(x.x - mid.x) < tol, `base ${i} x ${x.x} vs ${mid.x.toFixed(1)} (±${tol.toFixed(1)})`);
    assert.ok(Math.abs(x.y - (mid.y + 30 + 60 * i)) < tol, `base ${i} y ${x.y} vs ${(mid.y + 30 + 60 * i).toFixed(1)}`);
  });
  const now = (await api(page, "/api/bases")).filter((x) => x.unit === "fr-9");
  assert.deepEqual(now.map((x) => [x.x, x.y, x.heading]), placed.map((x) => [x.x, x.y, x.heading]));
  await page.locator("#absent-list button", PUT).waitFor({ state: "detached" });
  // Its facing is assumed: the card offers to turn it round.
  assert.match(await page.locator("#facing-words").innerText(), /fr-9: facing assumed \(laid out by hand facing the enemy's table edge\)/);
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(shots, `absent-${name}-placed.png`) });
  await tap(page.locator("#undo"));
  await page.waitForFunction((n) => document.getElementById("corrections").textContent.startsWith(n + " correction"), made);
  assert.deepEqual(await api(page, "/api/bases"), before);
  await page.locator("#absent-list button", PUT).waitFor();

  // Cancel: the next tap selects as before, nothing is laid out.
  await tap(page.locator("#clear"));
  await tap(page.locator("#absent-list button", PUT));
  await page.locator("#placing").waitFor();
  await tap(page.locator("#placing-cancel"));
  await page.locator("#placing").waitFor({ state: "hidden" });
  await tapAt(page, touch, p);
  await tapAt(page, touch, q);
  await page.waitForTimeout(500);
  assert.equal(corrections().length, made, "a cancelled lay-out writes nothing");

  // Over the photo: the taps' table points are the server's; the column still touches.
  await tap(page.locator('label.choice:has(#view-photo)'));
  await page.waitForFunction(() => document.querySelector("#view svg g#bases") && document.querySelector("#view svg image"));
  await tap(page.locator("#absent-list button", PUT));
  await page.locator("#placing").waitFor();
  const c0 = await middleBase(page);
  await tapAt(page, touch, { x: c0.x - 20, y: c0.y });
  await page.waitForFunction(() => /now tap the other end/.test(document.getElementById("placing-words").textContent));
  await tapAt(page, touch, { x: c0.x + 20, y: c0.y });
  await page.waitForFunction(() => document.getElementById("selection").textContent.startsWith("A: fr-9#0"));
  const overPhoto = corrections().slice(made);
  assert.equal(overPhoto.length, 1);
  const [f, r] = overPhoto[0].unit.bases;
  assert.ok(Math.abs(Math.hypot(f.x - r.x, f.y - r.y) - 60) < 0.2, "the column's bases touch");
  assert.ok(Math.sin((f.heading * Math.PI) / 180) <= 1e-9, `over the photo it faces the near edge too (heading ${f.heading})`);
  assert.equal(f.facing, "assumed");
  await tap(page.locator("#undo"));
  await page.waitForFunction((n) => document.getElementById("corrections").textContent.startsWith(n + " correction"), made);
  assert.deepEqual(await api(page, "/api/bases"), before);
  await tap(page.locator("#clear"));
}

test("desktop: a unit the scan put nowhere is laid out by two clicks, and undone", async () => {
  await layOutOnce(browsers.desk, "desktop");
});

test("phone: a unit the scan put nowhere is laid out by two taps, and undone", async () => {
  await layOutOnce(browsers.phone, "phone");
});
