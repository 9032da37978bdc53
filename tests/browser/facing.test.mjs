// Facings the photo did not show (issue 37 item 4): tests/browser/run serves the bundled
// untagged sample in photo mode (samples/photos/untagged.jpg, scanned at start with its
// roster and camera file). Its fitted units face the enemy's edge by assumption
// ("facing": "assumed"): the page draws their bases dashed, and when one is A it offers to
// turn its unit round in one tap. The turn is one "facing" correction in the corrections
// file, after which the unit's facing is no longer assumed; Undo takes it back. On a
// desktop (mouse) and on a phone (touch), each leaving the table as it found it.
// Screenshots of each step go to target/browser/ (look at them).
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { api, baseCentre, corrections, desktopAndPhone, openViewer, shots } from "./lib.mjs";

const turned = (a, b) => Math.abs((((b - a - 180) % 360) + 540) % 360 - 180) < 1e-6;
const browsers = desktopAndPhone();

/** The assumed facing offered, taken (one tap or click), shown, and undone, on `b`. */
async function flipOnce(b, name) {
  const page = b.page;
  const touch = name === "phone";
  await openViewer(page);
  const bases = await api(page, "/api/bases");
  const assumed = bases.filter((x) => x.facing_assumed);
  assert.ok(assumed.length > 0, "the scan of the untagged sample assumes some facings");
  // Every base is marked on the drawing as its facing is: dashed when assumed.
  for (const x of bases) {
    const marked = await page.locator(`#view svg [id="${x.svg_id}"]`).evaluate((e) => e.classList.contains("facing-assumed"));
    assert.equal(marked, x.facing_assumed, x.base);
  }
  // fr-1 carries tags: its facing is read from them, nothing is offered.
  const tagged = bases.find((x) => x.unit === "fr-1");
  assert.equal(tagged.facing_assumed, false);
  const target = assumed[0];
  const was = bases.filter((x) => x.unit === target.unit);
  const tap = async (sel) => (touch ? page.locator(sel).tap() : page.click(sel));
  const p = await baseCentre(page, tagged.base);
  if (touch) await page.touchscreen.tap(p.x, p.y); else await page.mouse.click(p.x, p.y);
  assert.equal(await page.locator("#facing-offer").isHidden(), true, "no offer for a tagged unit");
  await tap("#clear");
  const q = await baseCentre(page, target.base);
  if (touch) await page.touchscreen.tap(q.x, q.y); else await page.mouse.click(q.x, q.y);
  await page.locator("#facing-offer").waitFor();
  assert.match(await page.locator("#facing-words").innerText(), new RegExp(target.unit + ": facing assumed"));
  await page.locator("#facing-offer").scrollIntoViewIfNeeded();
  await page.waitForTimeout(400);
  await page.screenshot({ path: join(shots, `facing-${name}-offered.png`) });
  const made = corrections().length;
  // One tap turns the unit round.
  await tap("#c-facing-flip");
  await page.locator("#facing-offer").waitFor({ state: "hidden" });
  assert.deepEqual(corrections().slice(made), [{ op: "facing", unit: target.unit, flip: true }]);
  const now = (await api(page, "/api/bases")).filter((x) => x.unit === target.unit);
  assert.equal(now.length, was.length);
  for (const [x, y] of now.map((y, i) => [was[i], y])) {
    assert.ok(turned(x.heading, y.heading), `${y.base}: heading ${x.heading} -> ${y.heading}, not turned round`);
    assert.ok(Math.abs(x.x - y.x) < 1e-9 && Math.abs(x.y - y.y) < 1e-9, y.base + " moved");
    assert.equal(y.facing_assumed, false, y.base + " still assumed");
    const marked = await page.locator(`#view svg [id="${y.svg_id}"]`).evaluate((e) => e.classList.contains("facing-assumed"));
    assert.equal(marked, false, y.base + " still drawn as assumed");
  }
  await page.waitForTimeout(400);
  await page.screenshot({ path: join(shots, `facing-${name}-turned.png`) });
  // Undo: assumed again, as it was.
  await tap("#undo");
  await page.locator("#facing-offer").waitFor();
  assert.equal(corrections().length, made);
  const again = (await api(page, "/api/bases")).filter((x) => x.unit === target.unit);
  assert.deepEqual(again, was);
  // "Its facing is right": kept as it stands, no longer assumed; undone too.
  await tap("#c-facing-keep");
  await page.locator("#facing-offer").waitFor({ state: "hidden" });
  assert.deepEqual(corrections().slice(made), [{ op: "facing", unit: target.unit, flip: false }]);
  const kept = (await api(page, "/api/bases")).filter((x) => x.unit === target.unit);
  assert.deepEqual(kept, was.map((x) => ({ ...x, facing_assumed: false })));
  await tap("#undo");
  await page.locator("#facing-offer").waitFor();
  assert.equal(corrections().length, made);
  await tap("#clear");
}

test("desktop: an assumed facing is marked, offered, turned round in one click and undone", async () => {
  await flipOnce(browsers.desk, "desktop");
});

test("phone: an assumed facing is marked, offered, turned round in one tap and undone", async () => {
  await flipOnce(browsers.phone, "phone");
});
