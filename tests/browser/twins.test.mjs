// Twins the photo cannot tell apart (issue 37 item 3): tests/browser/run serves the
// bundled untagged sample in photo mode with tests/browser/fixtures/untagged-twins.roster.toml,
// which recasts its two batteries as French twins (fr-art and fr-art-2) without declared
// coats, so the scan says `ambiguous-unit` and its summary lists them as twins. Tapping
// either battery offers "It is <the other>"; one tap is one "swap" correction, after which
// the two batteries' places are exchanged and A stays on the battery it was on, under
// its new name; Undo takes it back. On a desktop (mouse) and on a phone (touch), each
// leaving the table as it found it. Screenshots go to target/browser/twins-*.png.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { api, baseCentre, corrections, desktopAndPhone, openViewer, shots } from "./lib.mjs";

const place = (x) => [x.x, x.y, x.heading];
const browsers = desktopAndPhone();

/** The twins offered, swapped (one tap or click), shown, and undone, on `b`. */
async function swapOnce(b, name) {
  const page = b.page;
  const touch = name === "phone";
  await openViewer(page);
  // Over the photo the legend starts off (at the photo's corner, at its scale, it is a
  // blank box over the table on a phone); its checkbox turns it on.
  const legend = page.locator("#view svg g#legend");
  assert.equal(await legend.count(), 1);
  assert.equal(await legend.evaluate((g) => getComputedStyle(g).display), "none");
  assert.equal(await page.locator('#layers input[data-layer="legend"]').isChecked(), false);
  const session = await api(page, "/api/session");
  const groups = session.scan.twins;
  assert.ok(groups.some((g) => g.includes("fr-art") && g.includes("fr-art-2")), "the scan says it cannot tell the batteries apart: " + JSON.stringify(groups));
  const bases = await api(page, "/api/bases");
  const one = bases.find((x) => x.unit === "fr-art-2");
  const other = bases.find((x) => x.unit === "fr-art");
  assert.ok(one && other, "both batteries are on the table");
  const tapBase = async (base) => {
    const p = await baseCentre(page, base);
    if (touch) await page.touchscreen.tap(p.x, p.y); else await page.mouse.click(p.x, p.y);
  };
  const tap = async (sel) => (touch ? page.locator(sel).tap() : page.click(sel));
  // fr-1 (tagged) has no twin: nothing is offered.
  await tapBase(bases.find((x) => x.unit === "fr-1").base);
  assert.equal(await page.locator("#twins-offer").isHidden(), true, "no swap offered for a tagged unit");
  await tap("#clear");
  await tapBase(one.base);
  await page.locator("#twins-offer").waitFor();
  assert.match(await page.locator("#twins-words").innerText(), /cannot tell fr-art-2 from fr-art\b/);
  const button = page.locator("#twins-buttons button", { hasText: "It is fr-art" });
  assert.equal(await button.count(), 1);
  await page.locator("#twins-offer").scrollIntoViewIfNeeded();
  await page.waitForTimeout(400);
  await page.screenshot({ path: join(shots, `twins-${name}-offered.png`) });
  const made = corrections().length;
  if (touch) await button.tap(); else await button.click();
  await page.waitForFunction(() => document.getElementById("selection").textContent.startsWith("A: fr-art#0"));
  assert.deepEqual(corrections().slice(made), [{ op: "swap", unit: "fr-art-2", with: "fr-art" }]);
  const now = await api(page, "/api/bases");
  // The batteries' places exchanged: fr-art stands where fr-art-2 stood and back.
  assert.deepEqual(place(now.find((x) => x.unit === "fr-art")), place(one));
  assert.deepEqual(place(now.find((x) => x.unit === "fr-art-2")), place(other));
  // A stayed on the battery tapped, now named fr-art; the offer now names fr-art-2.
  await page.locator("#twins-offer").waitFor();
  assert.match(await page.locator("#twins-words").innerText(), /cannot tell fr-art from fr-art-2/);
  await page.waitForTimeout(400);
  await page.screenshot({ path: join(shots, `twins-${name}-swapped.png`) });
  // Undo: the table as it was.
  await tap("#undo");
  await page.waitForFunction((n) => document.getElementById("corrections").textContent.startsWith(n + " correction"), made);
  assert.equal(corrections().length, made);
  assert.deepEqual(await api(page, "/api/bases"), bases);
  await tap("#clear");
}

test("desktop: twins the photo cannot tell apart are offered and swapped in one click, and undone", async () => {
  await swapOnce(browsers.desk, "desktop");
});

test("phone: twins the photo cannot tell apart are offered and swapped in one tap, and undone", async () => {
  await swapOnce(browsers.phone, "phone");
});
