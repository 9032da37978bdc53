// The page on a phone (issue 38): 390x844, touch, device scale 3. The table fills the
// screen under a bottom sheet; fingers pan, pinch and tap (touch events through the
// DevTools protocol, as a phone sends them); two tapped units get their verdict card;
// a dragged base is one correction, undone by Undo. The tests run in order on one page
// and leave the table as they found it.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, existsSync } from "node:fs";
import { api, baseCentre, browser, line, openViewer, select, server, touchPath, verbJson, viewBox } from "./lib.mjs";

let b;
const policy = [];
before(async () => {
  b = await browser({ phone: true });
  b.page.on("console", (m) => { if (/Content Security Policy/.test(m.text())) policy.push(m.text()); });
  await openViewer(b.page);
});
after(async () => {
  if (b) {
    assert.deepEqual(b.errors, [], "errors in the page's script");
    assert.deepEqual(policy, [], "the page broke its own Content Security Policy");
    await b.close();
  }
});

const page = () => b.page;
const correctionsFile = () => server.table.replace(/\.json$/, ".corrections.json");
const corrections = () => (existsSync(correctionsFile()) ? JSON.parse(readFileSync(correctionsFile(), "utf8")).corrections : []);
const headline = () => page().locator("#card-headline").innerText();
const box = (sel) => page().locator(sel).boundingBox();
/** The base's box on screen. */
const baseBox = async (name) => {
  const rec = (await api(page(), "/api/bases")).find((x) => x.base === name);
  return page().locator(`#view svg [id="${rec.svg_id}"]`).boundingBox();
};
const fitted = async () => { await page().click("#fit"); await page().waitForTimeout(50); };

test("the plan fills the phone's width, the panel is a bottom sheet, every control is 44 px", async () => {
  const v = await box("#view svg");
  assert.ok(v.width >= 0.9 * 390, "the plan is " + v.width + " px wide");
  const bases = await box("#view svg g#bases");
  assert.ok(bases.width > 0 && bases.x >= 0 && bases.x + bases.width <= 390, JSON.stringify(bases));
  const sheet = await box("#panel");
  assert.ok(sheet.y > 844 * 0.8 && sheet.width === 390, "collapsed sheet at the bottom: " + JSON.stringify(sheet));
  assert.equal(await page().locator("#view").evaluate((e) => getComputedStyle(e).touchAction), "none");
  // Every control the player can reach, sheet opened full.
  await page().click("#grip");
  await page().click("#grip");
  await page().waitForTimeout(300);
  const small = await page().evaluate(() => {
    const out = [];
    for (const e of document.querySelectorAll("button, .button, summary, label.choice, #layers label, input[type=search], input[type=number], .finding")) {
      const r = e.getBoundingClientRect();
      if (r.width === 0 || getComputedStyle(e).visibility === "hidden") continue;
      if (r.height < 44 || r.width < 44) out.push((e.id || e.textContent.trim().slice(0, 30)) + " " + Math.round(r.width) + "x" + Math.round(r.height));
    }
    return out;
  });
  assert.deepEqual(small, [], "controls under 44 px");
  await page().click("#grip");
  assert.equal(await page().locator("#panel").getAttribute("data-sheet"), "collapsed");
});

test("one finger pans the plan and the page never scrolls", async () => {
  await fitted();
  const v0 = await viewBox(page());
  await touchPath(page(), [line({ x: 200, y: 300 }, { x: 100, y: 250 })]);
  await page().waitForTimeout(100);
  const v1 = await viewBox(page());
  const s = 390 / v0[2];
  assert.ok(Math.abs((v1[0] - v0[0]) * s - 100) < 2, `panned ${(v1[0] - v0[0]) * s} px, not 100`);
  assert.ok(Math.abs((v1[1] - v0[1]) * s - 50) < 2, `panned ${(v1[1] - v0[1]) * s} px, not 50`);
  assert.equal(v1[2], v0[2], "a pan does not zoom");
  assert.equal(await page().evaluate(() => [window.scrollX, window.scrollY, document.scrollingElement.scrollTop].join()), "0,0,0");
});

test("two fingers pinch the plan in about their middle", async () => {
  await fitted();
  const c = await baseCentre(page(), "au-art-1#0");
  const v0 = await viewBox(page());
  // Fingers from 40 px apart to 240 px apart: six times closer.
  await touchPath(page(), [line({ x: c.x - 20, y: c.y }, { x: c.x - 120, y: c.y }, 15), line({ x: c.x + 20, y: c.y }, { x: c.x + 120, y: c.y }, 15)]);
  await page().waitForTimeout(100);
  const v1 = await viewBox(page());
  assert.ok(Math.abs(v0[2] / v1[2] - 6) < 0.1, `zoomed ${v0[2] / v1[2]}x, not 6x`);
  const after_ = await baseCentre(page(), "au-art-1#0");
  assert.ok(Math.hypot(after_.x - c.x, after_.y - c.y) < 3, "the base under the fingers stays there: " + JSON.stringify([c, after_]));
});

test("a tap selects the base nearest the finger within 24 px, and nothing farther", async () => {
  // Zoomed in six times (the previous test): bases are tens of pixels.
  await page().click("#clear");
  for (const name of ["au-art-1#0", "fr-1-3#2", "fr-1-3#1"]) {
    await page().click("#clear");
    const p = await baseCentre(page(), name);
    await page().touchscreen.tap(p.x, p.y);
    assert.match(await page().locator("#selection").innerText(), new RegExp("^A: " + name.replace("#", "#") + " "));
  }
  // Beside au-art-1: a point 12 px off its outline, where no other base is within 40 px.
  const spot = await page().evaluate(() => {
    const boxes = Array.from(document.querySelectorAll("#view svg g#bases path.base")).map((e) => [e.id, e.getBoundingClientRect()]);
    const own = boxes.find(([id]) => id === "base-au-art-1.0")[1];
    const dist = (r, x, y) => Math.hypot(Math.max(r.left - x, 0, x - r.right), Math.max(r.top - y, 0, y - r.bottom));
    const cx = (own.left + own.right) / 2, cy = (own.top + own.bottom) / 2;
    for (let k = 0; k < 16; k++) {
      const a = (k * Math.PI) / 8, dx = Math.cos(a), dy = Math.sin(a);
      // From the centre out along the ray to 12 px off the outline, then 50 px off it.
      let t = 0;
      while (dist(own, cx + t * dx, cy + t * dy) < 12) t += 0.5;
      const near = [cx + t * dx, cy + t * dy];
      while (dist(own, cx + t * dx, cy + t * dy) < 50) t += 0.5;
      const far = [cx + t * dx, cy + t * dy];
      const onScreen = ([x, y]) => x > 60 && x < 330 && y > 70 && y < 700;
      if (onScreen(near) && onScreen(far) && boxes.every(([id, r]) => id === "base-au-art-1.0" || (dist(r, ...near) > 40 && dist(r, ...far) > 40))) {
        return { x: near[0], y: near[1], far };
      }
    }
    return null;
  });
  assert.ok(spot, "no free side beside au-art-1");
  await page().click("#clear");
  await page().touchscreen.tap(spot.x, spot.y);
  assert.match(await page().locator("#selection").innerText(), /^A: au-art-1#0 /);
  // Farther than 24 px from every base: the selection stays empty.
  await page().click("#clear");
  await page().touchscreen.tap(spot.far[0], spot.far[1]);
  assert.doesNotMatch(await page().locator("#selection").innerText(), /^A:/);
});

test("a double tap zooms in twice about the finger; the buttons zoom and fit", async () => {
  await fitted();
  const v0 = await viewBox(page());
  await page().touchscreen.tap(200, 300);
  await page().touchscreen.tap(200, 300);
  await page().waitForTimeout(100);
  const v1 = await viewBox(page());
  assert.ok(Math.abs(v0[2] / v1[2] - 2) < 0.01, `double tap zoomed ${v0[2] / v1[2]}x`);
  await page().click("#zoom-out");
  const v2 = await viewBox(page());
  assert.ok(Math.abs(v1[2] / v2[2] - 1 / 1.6) < 0.01);
  await page().click("#zoom-in");
  assert.ok(Math.abs((await viewBox(page()))[2] - v1[2]) < 1e-6);
  await fitted();
  assert.deepEqual(await viewBox(page()), v0);
});

test("two tapped units open the verdict card: its first line answers in words", async () => {
  await fitted();
  await select(page(), "fr-art-1#0", "au-3#1");
  await page().locator("#card-lines li").first().waitFor();
  const m = verbJson("measure", server.table, "fr-art-1", "au-3");
  const los = verbJson("los", server.table, "fr-art-1", "au-3");
  const first = await headline();
  // vedette report: fr-art-1's main target au-3 at 5.51" (bracket 3), deep, no enfilade.
  const battery = verbJson("report", server.table).artillery.find((a) => a.battery === "fr-art-1");
  assert.equal(battery.main_target, "au-3");
  const target = battery.targets.find((t) => t.unit === "au-3");
  const words = `fr-art-1 → au-3: ${m.mm.toFixed(1)} mm = ${m.in.toFixed(2)} in = ${m.rule_in.toFixed(2)} rule-in · ` +
    `${los.visible ? "VISIBLE, a full base is seen" : "NOT VISIBLE"} · VALID MAIN TARGET · ${battery.deep ? "DEEP" : "not deep"} · ` +
    `${battery.enfilade ? "ENFILADE" : "no enfilade"} · ${target.range_in.toFixed(2)} rule-in (bracket ${target.bracket})`;
  assert.equal(first, words);
  // Large, and on screen above the sheet's fold.
  const size = await page().locator("#card-headline").evaluate((e) => parseFloat(getComputedStyle(e).fontSize));
  assert.ok(size >= 18, size + " px");
  const h = await box("#card-headline");
  assert.ok(h.y >= 0 && h.y + h.height <= 844, JSON.stringify(h));
  // vedette explain fr-art-1 au-3: valid, main, deep; each answer with its section.
  const lines = await page().locator("#card-lines li").allInnerTexts();
  for (const re of [/^Valid target\? yes.*\(000 §4\.5\)$/, /^Main target\? yes.*\(000 §4\.5\)$/, /^Deep\? yes.*\(000 §4\.3 A\)$/]) {
    assert.ok(lines.some((l) => re.test(l)), re + " in\n" + lines.join("\n"));
  }
  // Drawn on the plan: the closest points, as long as measured.
  const l = await page().locator("#view svg #pair-measure").evaluate((e) => ["x1", "y1", "x2", "y2"].map((a) => Number(e.getAttribute(a))));
  assert.ok(Math.abs(Math.hypot(l[2] - l[0], l[3] - l[1]) - m.mm) <= 0.01);
});

test("the sheet never hides the selected pair", async () => {
  const sheetTop = async () => (await box("#panel")).y;
  for (const state of ["half", "full"]) {
    while ((await page().locator("#panel").getAttribute("data-sheet")) !== state) await page().click("#grip");
    await page().waitForTimeout(400);
    const top = await sheetTop();
    for (const name of ["fr-art-1#0", "au-3#1"]) {
      const r = await baseBox(name);
      assert.ok(r.y >= 0 && r.y + r.height <= top && r.x >= 0 && r.x + r.width <= 390, `${name} ${JSON.stringify(r)} hidden by the ${state} sheet at ${top}`);
    }
  }
  while ((await page().locator("#panel").getAttribute("data-sheet")) !== "half") await page().click("#grip");
});

test("a drag moves base A: one correction, the card's verdict changes, Undo restores it", async () => {
  assert.deepEqual(corrections(), []);
  await fitted();
  await select(page(), "au-art-1#0", "fr-1-3#2");
  await page().locator("#card-headline", { hasText: /^au-art-1 → fr-1-3: 50\.5 mm.* · TOO CLOSE to unlimber$/ }).waitFor();
  const unlimber = page().locator("#card-lines li", { hasText: /^Unlimber limit\?/ });
  assert.match(await unlimber.innerText(), /TOO CLOSE/);
  // Zoom in four times about the battery (a pinch), then drag it 35 mm up the screen:
  // away from fr-1-3 (the plan's y points down, the table's up), as docs/serve.md's
  // 30 mm that clear it.
  const c = await baseCentre(page(), "au-art-1#0");
  await touchPath(page(), [line({ x: c.x - 15, y: c.y }, { x: c.x - 60, y: c.y }), line({ x: c.x + 15, y: c.y }, { x: c.x + 60, y: c.y })]);
  await page().waitForTimeout(100);
  const s = 390 / (await viewBox(page()))[2];
  const p = await baseCentre(page(), "au-art-1#0");
  const before_ = (await api(page(), "/api/bases")).find((x) => x.base === "au-art-1#0");
  const px = 35 * s;
  assert.ok(px > 15, "zoomed in enough to drag: " + px + " px");
  await touchPath(page(), [line(p, { x: p.x, y: p.y - px }, 20)]);
  await page().locator("#corrections", { hasText: "1 correction(s)" }).waitFor();
  const file = corrections();
  assert.equal(file.length, 1, "one correction for the whole drag: " + JSON.stringify(file));
  assert.equal(file[0].op, "move");
  assert.equal(file[0].base, "au-art-1#0");
  assert.ok(Math.abs(file[0].x - before_.x) < 0.11, JSON.stringify(file[0]));
  assert.ok(Math.abs(file[0].y - before_.y - 35) < 0.2, `moved ${file[0].y - before_.y} mm, dragged 35`);
  // The card is asked again: farther, no longer too close to unlimber.
  await page().locator("#card-headline", { hasNotText: /50\.5 mm|TOO CLOSE/ }).waitFor();
  await unlimber.filter({ hasNotText: /TOO CLOSE/ }).waitFor();
  const m = verbJson("measure", server.table, "au-art-1", "fr-1-3");   // the file, uncorrected
  assert.equal(m.mm.toFixed(1), "50.5");
  // Undo: the file is empty, the verdict is back.
  await page().click("#undo");
  await page().locator("#corrections", { hasText: "0 correction(s)" }).waitFor();
  await page().locator("#card-headline", { hasText: /50\.5 mm/ }).waitFor();
  await unlimber.filter({ hasText: /TOO CLOSE/ }).waitFor();
  assert.deepEqual(corrections(), []);
});

test("the rotate handle turns base A: one correction, undone", async () => {
  await page().click("#clear");
  const p = await baseCentre(page(), "au-art-1#0");
  await page().touchscreen.tap(p.x, p.y);
  const handle = page().locator("#view svg #rotate-handle");
  await handle.waitFor();
  const h0 = (await api(page(), "/api/bases")).find((x) => x.base === "au-art-1#0").heading;
  const h = await handle.boundingBox();
  const hc = { x: h.x + h.width / 2, y: h.y + h.height / 2 };
  // A quarter turn about the base's centre, clockwise on the screen.
  const r = Math.hypot(hc.x - p.x, hc.y - p.y), a0 = Math.atan2(hc.y - p.y, hc.x - p.x);
  const arc = Array.from({ length: 16 }, (_, i) => ({ x: p.x + r * Math.cos(a0 + (i * Math.PI) / 30), y: p.y + r * Math.sin(a0 + (i * Math.PI) / 30) }));
  await touchPath(page(), [arc]);
  await page().locator("#corrections", { hasText: "1 correction(s)" }).waitFor();
  const file = corrections();
  assert.equal(file.length, 1, JSON.stringify(file));
  assert.equal(file[0].op, "rotate");
  // Clockwise on the screen is clockwise on the table (the plan flips y): heading - 90.
  const turned = (((h0 - file[0].heading) % 360) + 360) % 360;
  assert.ok(Math.abs(turned - 90) < 2, `turned from ${h0} to ${file[0].heading}`);
  assert.equal((await api(page(), "/api/bases")).find((x) => x.base === "au-art-1#0").heading, file[0].heading);
  await page().click("#undo");
  await page().locator("#corrections", { hasText: "0 correction(s)" }).waitFor();
  assert.equal((await api(page(), "/api/bases")).find((x) => x.base === "au-art-1#0").heading, h0);
});

test("a unit's findings in sentences: its own first, then those about it; a tap lights one", async () => {
  await page().click("#clear");
  const p = await baseCentre(page(), "au-art-1#0");
  await page().touchscreen.tap(p.x, p.y);
  const keys = await page().locator("#unit-findings .finding").evaluateAll((l) => l.map((e) => e.dataset.key));
  assert.deepEqual(keys, ["artillery/au-art-1", "assault/au-art-1/fr-1-3", "division/au-d1", "assault/fr-1-3/au-art-1"]);
  const heads = await page().locator("#unit-findings h3").allInnerTexts();
  assert.deepEqual(heads, ["Its own", "About it"]);
  // The same sentences as All findings.
  for (const k of keys) {
    assert.equal(await page().locator(`#unit-findings .finding[data-key="${k}"]`).innerText(), await page().locator(`#all-findings .finding[data-key="${k}"]`).innerText());
  }
  assert.match(await page().locator('#unit-findings .finding[data-key="artillery/au-art-1"]').innerText(), /TOO CLOSE to unlimber: fr-1-3#2 at 1\.99"/);
  // No JSON anywhere on the page.
  assert.doesNotMatch(await page().locator("#panel-body").innerText(), /[{}]/);
  await page().locator('#unit-findings .finding[data-key="artillery/au-art-1"]').tap();
  const lit = await page().locator("#view svg .finding-on").evaluateAll((l) => l.map((e) => e.id));
  assert.ok(lit.includes("arc-au-art-1") && lit.every((id) => id.includes("au-art-1")), lit.join(" "));
  await page().locator('#unit-findings .finding[data-key="artillery/au-art-1"]').tap();
  assert.equal(await page().locator("#view svg .finding-on").count(), 0);
});

test("All findings: grouped by kind, with a search box", async () => {
  const groups = await page().locator("#all-findings .findings-group h3").allInnerTexts();
  assert.deepEqual(groups, ["Artillery (3)", "Assaults (8)", "Command (6)", "Leaders (2)", "Zones (1)", "Skirmishers (2)"]);
  await page().fill("#search", "too close");
  const keys = await page().locator("#all-findings .finding").evaluateAll((l) => l.map((e) => e.dataset.key));
  assert.deepEqual(keys, ["artillery/au-art-1"]);
  await page().fill("#search", "");
  assert.equal(await page().locator("#all-findings .finding").count(), 22);
});

test("held sideways (844x390) the table still fills the width and the pair stays above the sheet", async () => {
  const side = await browser({ phone: true });
  try {
    await side.page.setViewportSize({ width: 844, height: 390 });
    await openViewer(side.page);
    const v = await side.page.locator("#view svg").boundingBox();
    assert.ok(v.width >= 0.9 * 844, "the plan is " + v.width + " px wide");
    await select(side.page, "fr-art-1#0", "au-3#1");
    await side.page.locator("#card-lines li").first().waitFor();
    await side.page.waitForTimeout(400);
    const top = (await side.page.locator("#panel").boundingBox()).y;
    for (const name of ["fr-art-1#0", "au-3#1"]) {
      const rec = (await api(side.page, "/api/bases")).find((x) => x.base === name);
      const r = await side.page.locator(`#view svg [id="${rec.svg_id}"]`).boundingBox();
      assert.ok(r.y >= 0 && r.y + r.height <= top && r.x >= 0 && r.x + r.width <= 844, `${name} ${JSON.stringify(r)} under the sheet at ${top}`);
    }
    assert.deepEqual(side.errors, []);
  } finally {
    await side.close();
  }
});
