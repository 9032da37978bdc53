// Pictures of the viewer for the docs (docs/pictures/serve-*.png), taken by
// `tests/browser/run --screenshots` (which serves each sample in turn): node
// screenshots.mjs SAMPLE. Not part of the test run.
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { baseCentre, browser, line, openViewer, select, touchPath } from "./lib.mjs";

const out = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "docs", "pictures");
mkdirSync(out, { recursive: true });
const sample = process.argv[2];
const b = await browser({ width: 1600, height: 1000 });
const page = b.page;
// The same on a phone held upright (issue 38): the card open over the table.
const phone = await browser({ phone: true });
const phoneShot = async (name) => {
  await phone.page.waitForTimeout(400);   // the sheet's move
  await phone.page.screenshot({ path: join(out, `serve-phone-${name}.png`) });
  console.log("wrote docs/pictures/serve-phone-" + name + ".png");
};
/** Pinches the phone's view in `k` times about base `name`. */
const pinchAt = async (name, k) => {
  const c = await baseCentre(phone.page, name);
  await touchPath(phone.page, [line({ x: c.x - 20, y: c.y }, { x: c.x - 20 * k, y: c.y }), line({ x: c.x + 20, y: c.y }, { x: c.x + 20 * k, y: c.y })]);
  await phone.page.waitForTimeout(200);
};
// Zooms the plan in about base `name`'s middle (the page's wheel zoom, 1.2 a step).
const zoomAt = async (name, steps) => {
  const b0 = (await (await page.request.get(new URL("/api/bases", page.url()).href)).json()).find((x) => x.base === name);
  const box = await page.locator(`#view svg [id="${b0.svg_id}"]`).boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  for (let i = 0; i < steps; i++) await page.mouse.wheel(0, -100);
  await page.waitForTimeout(200);
};
const shot = async (name) => {
  await page.screenshot({ path: join(out, `serve-${name}.png`) });
  console.log("wrote docs/pictures/serve-" + name + ".png");
};
try {
  await openViewer(page);
  if (sample === "brigade-attack") {
    // The Austrian battery selected (too close to unlimber), measured to the French
    // column it faces.
    await zoomAt("au-art-1#0", 7);
    await select(page, "au-art-1#0", "fr-1-3#2");
    await page.locator("#card-lines li").first().waitFor();
    await shot("brigade-attack");
    await openViewer(phone.page);
    await pinchAt("au-art-1#0", 5);
    await select(phone.page, "au-art-1#0", "fr-1-3#2");
    await phone.page.locator("#card-lines li").first().waitFor();
    await phoneShot("card");
    // A battery's finding hovered in the list: its arc, zone, targets lit.
    await page.click("#clear");
    await page.click("#fit");
    await page.locator("#view svg g#bases").waitFor();
    await zoomAt("fr-art-2#0", 3);
    const item = page.locator('#all-findings .finding[data-key="artillery/fr-art-2"]');
    await item.scrollIntoViewIfNeeded();
    await item.hover();
    await shot("brigade-attack-hover");
  } else if (sample === "woods-block") {
    // The wood hides au-1 from the battery: sight checked between the two clicked units.
    await zoomAt("fr-art-1#0", 2);
    await select(page, "fr-art-1#0", "au-1#0");
    await page.locator("#card-lines li").first().waitFor();
    await shot("woods-block");
  } else if (sample === "battle-photo") {
    // Photo mode: the scanned battle photo with the table drawn over it through the
    // scan's camera; a battery selected and measured to its target.
    await page.locator("#view svg #photo").waitFor();
    await page.locator("#view svg g#bases").waitFor();
    await zoomAt("fr-0-4-art0#0", 5);
    await select(page, "fr-0-4-art0#0", "au-0-3#0");
    await page.locator("#card-lines li").first().waitFor();
    await shot("battle-photo");
    await openViewer(phone.page);
    await phone.page.locator("#view svg #photo").waitFor();
    await pinchAt("fr-0-4-art0#0", 3);
    await select(phone.page, "fr-0-4-art0#0", "au-0-3#0");
    await phone.page.locator("#card-lines li").first().waitFor();
    await phoneShot("photo");
  } else if (sample === "untagged-photo") {
    // Issue 37: the untagged sample in photo mode on a phone, au-3 tapped: its bases
    // (their facing assumed) dashed, the card offering to turn it round.
    await openViewer(phone.page);
    await phone.page.locator("#view svg #photo").waitFor();
    await pinchAt("au-3#1", 4);
    const c = await baseCentre(phone.page, "au-3#1");
    await phone.page.touchscreen.tap(c.x, c.y);
    await phone.page.locator("#facing-offer").waitFor();
    await phoneShot("facing");
  } else if (sample === "untagged-held") {
    // Issue 37: the untagged sample on a phone, scanned with one unit more of au-2's
    // layout: au-2 held back, its two places outlined, the sheet offering them.
    await openViewer(phone.page);
    await phone.page.locator("#held").waitFor();
    await phone.page.waitForTimeout(400);   // the view brought to the places
    await phoneShot("held");
  } else if (sample === "untagged-absent") {
    // Issue 37: the untagged sample on a phone, scanned with a unit more that stands
    // nowhere (fr-9): laid out by two taps on the plan, the card offering to turn it round.
    await openViewer(phone.page);
    await phone.page.locator('label.choice:has(#view-plan)').tap();
    await phone.page.waitForFunction(() => !document.getElementById("absent").hidden);
    await phone.page.locator("#absent-list button", { hasText: "Put fr-9 on the table" }).tap();
    await phone.page.locator("#placing").waitFor();
    const v = await phone.page.locator("#view").boundingBox();
    const y = v.y + 0.42 * v.height;
    await phone.page.touchscreen.tap(v.x + 0.42 * v.width, y);
    await phone.page.waitForFunction(() => /now tap the other end/.test(document.getElementById("placing-words").textContent));
    await phoneShot("absent-first-tap");
    await phone.page.touchscreen.tap(v.x + 0.62 * v.width, y);
    await phone.page.waitForFunction(() => document.getElementById("selection").textContent.startsWith("A: fr-9#0"));
    await pinchAt("fr-9#0", 3);
    await phoneShot("absent");
  } else {
    throw new Error("no screenshots planned for " + sample);
  }
  const errors = [...b.errors, ...phone.errors];
  if (errors.length) throw new Error("errors in the page: " + errors.join("; "));
} finally {
  await b.close();
  await phone.close();
}
