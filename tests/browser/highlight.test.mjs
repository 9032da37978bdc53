// Hovering a finding in the list of all findings lights its own geometry on the plan
// (the elements the plan tags with its data-finding key) and dims the others'.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { browser, openViewer, select } from "./lib.mjs";

let b;
before(async () => { b = await browser(); await openViewer(b.page); });
after(async () => {
  if (b) {
    assert.deepEqual(b.errors, [], "errors in the page's script");
    await b.close();
  }
});

const lit = () => b.page.locator("#view svg .finding-on").evaluateAll((l) => l.map((e) => e.id));
const item = (key) => b.page.locator(`#all-findings .finding[data-key="${key}"]`);

test("every finding of the list names geometry drawn on the plan", async () => {
  const keys = await b.page.locator("#all-findings .finding").evaluateAll((l) => l.map((e) => e.dataset.key));
  // brigade-attack: 3 batteries, 8 assaults, 4 divisions, 2 pairs, 2 leaders, 1 pass-through, 2 skirmishers.
  assert.equal(keys.length, 22, keys.join(" "));
  const tagged = await b.page.locator("#view svg [data-finding]").evaluateAll(
    (l) => [...new Set(l.flatMap((e) => e.getAttribute("data-finding").split(/\s+/)))]);
  for (const k of keys) assert.ok(tagged.includes(k), k + " is drawn nowhere");
});

test("hovering a battery lights its arc, zone and target, and nothing of the others", async () => {
  assert.deepEqual(await lit(), []);
  await item("artillery/fr-art-2").hover();
  const ids = await lit();
  for (const id of ["arc-fr-art-2", "frontage-fr-art-2", "zone-fr-art-2", "target-fr-art-2-au-5.0", "enfilade-fr-art-2-au-5-left"]) {
    assert.ok(ids.includes(id), id + " not lit: " + ids.join(" "));
  }
  assert.ok(ids.every((id) => id.includes("fr-art-2")), ids.join(" "));
  // The other batteries' arcs are dimmed, the lit one is not.
  const opacity = (id) => b.page.locator(`#view svg [id="${id}"]`).evaluate((e) => getComputedStyle(e).opacity);
  assert.equal(await opacity("arc-fr-art-1"), "0.15");
  assert.equal(await opacity("arc-fr-art-2"), "1");
  // Its bases are outlined: the battery and its main target.
  const hovered = await b.page.locator("#view svg g#bases .hovered").evaluateAll((l) => l.map((e) => e.id).sort());
  assert.deepEqual(hovered, ["base-au-5.0", "base-au-5.1", "base-au-5.2", "base-fr-art-2.0"]);
  // Leaving puts everything back.
  await b.page.mouse.move(5, 5);
  assert.deepEqual(await lit(), []);
  assert.equal(await opacity("arc-fr-art-1"), "1");
  assert.equal(await b.page.locator("#view svg .hovered").count(), 0);
});

test("hovering an assault lights its zone, contact and the defender's flank line", async () => {
  await item("assault/fr-1-3/au-art-1").hover();
  const ids = await lit();
  for (const id of ["assault-zone-fr-1-3.2", "contact-fr-1-3-au-art-1", "flank-line-au-art-1"]) {
    assert.ok(ids.includes(id), id + " not lit: " + ids.join(" "));
  }
  assert.ok(!ids.some((id) => id.startsWith("arc-") || id.includes("fr-1-2")), ids.join(" "));
  await b.page.mouse.move(5, 5);
  assert.deepEqual(await lit(), []);
});

test("hovering a finding of the selected unit lights its geometry too", async () => {
  await select(b.page, "au-art-1#0");
  await b.page.locator('#unit-findings .finding[data-key="artillery/au-art-1"]').hover();
  const ids = await lit();
  for (const id of ["arc-au-art-1", "zone-au-art-1", "unlimber-au-art-1-label"]) {
    assert.ok(ids.includes(id), id + " not lit: " + ids.join(" "));
  }
  assert.ok(ids.every((id) => id.includes("au-art-1")), ids.join(" "));
  await b.page.mouse.move(5, 5);
  assert.deepEqual(await lit(), []);
});
