// "Take photo" on a phone (issue 38 item 3): the sample photo of the skirmish table
// chosen in the camera's input is uploaded at full resolution, scanned with the
// server's profile, roster and camera, and shown: the table over the photo. Then the
// same photo as a phone held upright stores it (pixels sideways, the Exif orientation
// saying so: samples/photos/skirmish-sideways.jpg) scans to the same table.
// tests/browser/run serves it with --profile, --roster samples/photos/skirmish.roster.toml
// and --camera samples/photos/camera.toml.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { api, browser, openViewer } from "./lib.mjs";

const photos = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "samples", "photos");
let b;
before(async () => { b = await browser({ phone: true }); await openViewer(b.page); });
after(async () => {
  if (b) {
    assert.deepEqual(b.errors, [], "errors in the page's script");
    await b.close();
  }
});

/** Takes `file` as the camera would give it, and waits for the scanned table over it. */
async function takePhoto(file) {
  const page = b.page;
  const input = page.locator("#upload");
  assert.equal(await input.getAttribute("capture"), "environment");
  assert.equal(await input.getAttribute("accept"), "image/*");
  assert.notEqual(await input.getAttribute("multiple"), null);
  await input.setInputFiles({ name: file, mimeType: "image/jpeg", buffer: readFileSync(join(photos, file)) });
  // The upload's progress, then the scan's stages, then the summary.
  await page.locator("#scan-status .progress").first().waitFor();
  await page.locator("#scan-status .summary").waitFor({ timeout: 240000 });
  assert.equal(await page.locator("#scan-status .error").count(), 0, await page.locator("#scan-status").innerText());
  await page.locator("#view svg #photo").waitFor();
  await page.locator("#view svg g#bases").waitFor();
  assert.equal(await page.locator("#view-photo").isChecked(), true);
  return api(page, "/api/bases");
}

test("a photo taken on the page is scanned and the table shown over it", async () => {
  const bases = await takePhoto("skirmish.jpg");
  // vedette scan's own table of this photo (samples/photos/skirmish.table.json).
  const truth = JSON.parse(readFileSync(join(photos, "skirmish.table.json"), "utf8"));
  const count = truth.units.reduce((n, u) => n + u.bases.length, 0);
  assert.equal(bases.length, count);
  const summary = await b.page.locator("#scan-status .summary").innerText();
  assert.match(summary, new RegExp(`Scanned .*skirmish\\.jpg: ${count} bases`));
  // The photo is drawn at its size, the bases over it, on screen.
  const photo = b.page.locator("#view svg #photo");
  assert.deepEqual([await photo.getAttribute("width"), await photo.getAttribute("height")], ["4000", "3000"]);
  const shown = await photo.boundingBox();
  assert.ok(shown.width >= 0.9 * 390, "the photo is " + shown.width + " px wide");
  const box = await b.page.locator("#view svg g#bases").boundingBox();
  assert.ok(box.width > 0 && box.x >= 0 && box.x + box.width <= 390 && box.y >= 0 && box.y + box.height <= 844, JSON.stringify(box));
  b.first = bases;
});

test("the same photo stored sideways with its Exif orientation scans to the same table", async () => {
  const sideways = await takePhoto("skirmish-sideways.jpg");
  assert.equal(sideways.length, b.first.length);
  for (const x of b.first) {
    const y = sideways.find((s) => s.base === x.base);
    assert.ok(y, x.base + " not found in the sideways photo");
    assert.ok(Math.hypot(x.x - y.x, x.y - y.y) < 1.0, `${x.base} at ${x.x},${x.y} upright, ${y.x},${y.y} sideways`);
    const turn = Math.abs((((x.heading - y.heading) % 360) + 540) % 360 - 180);
    assert.ok(turn < 1.0, `${x.base} heading ${x.heading} upright, ${y.heading} sideways`);
  }
  // The browser shows the stored photo upright too (its own Exif reading).
  const size = await b.page.evaluate(async () => {
    const img = new Image();
    img.src = document.querySelector("#view svg #photo").getAttribute("href");
    await img.decode();
    return [img.naturalWidth, img.naturalHeight];
  });
  assert.deepEqual(size, [4000, 3000]);
});
