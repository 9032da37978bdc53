// Units held back (issue 37): tests/browser/run serves the bundled untagged sample in
// photo mode with tests/browser/fixtures/untagged-held.roster.toml, where au-2 is held
// back between two places that fit nearly as well (`missing-unit` with `places`; the scan
// summary's `held`). The panel says so and offers one button per place; the places are
// drawn dashed and numbered over the photo and on the plan. One tap or click puts the
// unit on the table as the scan offered it (one "place" correction) and selects it; the
// offer and the outlines go; Undo takes it back and they return. On a desktop (mouse)
// and on a phone (touch), each leaving the table as it found it. Screenshots go to
// target/browser/held-*.png.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { api, corrections, desktopAndPhone, openViewer, shots } from "./lib.mjs";

const browsers = desktopAndPhone();

/** The held unit offered, placed (one tap or click), shown, and undone, on `b`. */
async function placeOnce(b, name) {
  const page = b.page;
  const touch = name === "phone";
  const tap = async (loc) => (touch ? loc.tap() : loc.click());
  await openViewer(page);
  const session = await api(page, "/api/session");
  const held = session.scan.held;
  assert.equal(held.length, 1, JSON.stringify(held.map((h) => h.unit)));
  const [h] = held;
  assert.equal(h.unit, "au-2");
  assert.equal(h.places.length, 2);
  assert.equal(h.why, "these 2 places fit within 7% as well as each other: not placed on a guess");
  assert.ok(h.places.every((p) => p.id === "au-2" && p.bases.length === 6));
  assert.ok(h.places.every((p) => p.bases.every((x) => x.facing === "assumed" && x.found === "fitted")));
  assert.equal(h.corners_px.length, 2, "the places are projected into the photo");
  const before = await api(page, "/api/bases");
  assert.ok(!before.some((x) => x.unit === "au-2"), "au-2 is not on the table");
  // The offer, and the places drawn over the photo: two outlines of six bases each.
  await page.locator("#held").waitFor();
  assert.match(await page.locator("#held-list").innerText(), /au-2 \(6 bases\): these 2 places fit within 7% as well as each other: not placed on a guess\. Which is it\?/);
  const buttons = page.locator("#held-list button");
  assert.equal(await buttons.count(), 2);
  assert.equal(await page.locator("#view svg .page-held").count(), 2);
  assert.equal(await page.locator("#view svg .page-held polygon.dashes").count(), 12);
  await page.locator("#held").scrollIntoViewIfNeeded();
  await page.waitForTimeout(400);
  await page.screenshot({ path: join(shots, `held-${name}-offered.png`) });
  // One tap: au-2 on the table where the first place is, selected.
  const made = corrections().length;
  await tap(buttons.first());
  await page.waitForFunction(() => document.getElementById("selection").textContent.startsWith("A: au-2#0"));
  const c = corrections().slice(made);
  assert.equal(c.length, 1);
  assert.equal(c[0].op, "place");
  assert.deepEqual(c[0].unit, h.places[0]);
  const now = (await api(page, "/api/bases")).filter((x) => x.unit === "au-2");
  assert.deepEqual(now.map((x) => [x.x, x.y, x.heading]), h.places[0].bases.map((x) => [x.x, x.y, x.heading]));
  assert.ok(now.every((x) => x.facing_assumed));
  await page.locator("#held").waitFor({ state: "hidden" });
  assert.equal(await page.locator("#view svg .page-held").count(), 0);
  await page.waitForTimeout(400);
  await page.screenshot({ path: join(shots, `held-${name}-placed.png`) });
  // Undo: the table as it was, the offer back.
  await tap(page.locator("#undo"));
  await page.waitForFunction((n) => document.getElementById("corrections").textContent.startsWith(n + " correction"), made);
  assert.equal(corrections().length, made);
  assert.deepEqual(await api(page, "/api/bases"), before);
  await page.locator("#held").waitFor();
  // On the plan too.
  await tap(page.locator('label.choice:has(#view-plan)'));
  await page.waitForFunction(() => document.querySelectorAll("#view svg .page-held").length === 2);
  assert.equal(await page.locator("#view svg .page-held polygon.dashes").count(), 12);
  await tap(page.locator('label.choice:has(#view-photo)'));
  await page.waitForFunction(() => document.querySelectorAll("#view svg .page-held").length === 2);
  await tap(page.locator("#clear"));
}

test("desktop: a unit held back is offered at its places and placed in one click, and undone", async () => {
  await placeOnce(browsers.desk, "desktop");
});

test("phone: a unit held back is offered at its places and placed in one tap, and undone", async () => {
  await placeOnce(browsers.phone, "phone");
});
