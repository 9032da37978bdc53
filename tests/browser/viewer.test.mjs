// vedette serve in a real browser (issue 22): the viewer on a copy of
// samples/brigade-attack.json, served by tests/browser/run. The tests run in order and
// leave the table as they found it (every correction is undone).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { api, browser, openViewer, select, server, verbJson } from "./lib.mjs";

let b;
before(async () => { b = await browser(); });
after(async () => {
  if (b) {
    assert.deepEqual(b.errors, [], "errors in the page's script");
    await b.close();
  }
});

const text = (sel) => b.page.locator(sel).innerText();
/** Opens "Correct base A precisely" (the typed fields). */
const openPrecise = async (page) => {
  if (!(await page.locator("#precise").evaluate((d) => d.open))) await page.click("#precise summary");
};
const correctionsFile = () => server.table.replace(/\.json$/, ".corrections.json");

/** The all-findings line of battery `name`. */
const batteryItem = (name) => b.page.locator(`#all-findings .finding[data-key="artillery/${name}"]`);
const batteryLine = (name) => batteryItem(name).innerText();
/** Waits until battery `name`'s line of all findings matches (or, with `not`, does not match) `re`. */
const lineBecomes = (name, re, not = false) =>
  batteryItem(name).filter(not ? { hasNotText: re } : { hasText: re }).waitFor({ timeout: 10000 });

test("the sample loads: the plan with every base, its layers, the findings", async () => {
  await openViewer(b.page);
  const bases = await api(b.page, "/api/bases");
  assert.equal(bases.length, 52);
  for (const x of bases) {
    assert.equal(await b.page.locator(`#view svg g#bases [id="${x.svg_id}"]`).count(), 1, x.svg_id);
  }
  const layers = await b.page.locator("#layers input").evaluateAll((l) => l.map((c) => c.dataset.layer));
  for (const l of ["bases", "arcs", "zones", "flank-lines", "sight", "terrain", "command"]) {
    assert.ok(layers.includes(l), l + " in " + layers);
  }
  assert.match(await b.page.locator("#report").textContent(), /^Brigade attack with artillery/);
  assert.equal(await b.page.locator("#error").textContent(), "");
});

test("a layer's checkbox hides and shows it", async () => {
  const arcs = b.page.locator("#view svg g#arcs");
  await b.page.click("#layers-box summary");
  const check = b.page.locator('#layers input[data-layer="arcs"]');
  await check.uncheck();
  assert.equal(await arcs.isVisible(), false);
  await check.check();
  assert.equal(await arcs.isVisible(), true);
});

test("on a desktop the panel stands beside the plan", async () => {
  const view = await b.page.locator("#view").boundingBox();
  const panel = await b.page.locator("#panel").boundingBox();
  assert.equal(panel.width, 420);
  assert.ok(view.x + view.width <= panel.x + 0.5 && view.width >= 1400 - 420 - 1, JSON.stringify([view, panel]));
  assert.ok(panel.height >= 899, "the whole height: " + panel.height);
});

test("clicking a battery lists its findings in sentences: au-art-1 is too close to unlimber", async () => {
  // vedette report samples/brigade-attack.json:
  //   au-art-1 ... unlimber TOO CLOSE: fr-1-3#2 at 1.99" < 3.0"
  await select(b.page, "au-art-1#0");
  assert.match(await text("#selection"), /^A: au-art-1#0 \(au-art-1, austria\)/);
  const keys = await b.page.locator("#unit-findings .finding").evaluateAll((l) => l.map((e) => e.dataset.key));
  // Its own: its fire, its assault on fr-1-3, its division; then fr-1-3's assault on it.
  assert.deepEqual(keys, ["artillery/au-art-1", "assault/au-art-1/fr-1-3", "division/au-d1", "assault/fr-1-3/au-art-1"]);
  const battery = await b.page.locator('#unit-findings .finding[data-key="artillery/au-art-1"]').innerText();
  assert.match(battery, /^Battery au-art-1: main target fr-1-3 at 1\.99" \(bracket 1\), deep, TOO CLOSE to unlimber: fr-1-3#2 at 1\.99"$/);
  assert.match(await batteryLine("au-art-1"), /TOO CLOSE to unlimber: fr-1-3#2 at 1\.99"/);
  // Its base is outlined as A.
  const selected = await b.page.locator("#view svg .selected-a").evaluateAll((l) => l.map((e) => e.id));
  assert.deepEqual(selected, ["base-au-art-1.0"]);
});

test("clicking two units shows the card: the distance as vedette measure says it", async () => {
  await select(b.page, "fr-art-1#0", "au-3#1");
  const head = b.page.locator("#card-headline", { hasText: /^fr-art-1 → au-3: [\d.]+ mm/ });
  await head.waitFor();
  const shown = await head.innerText();
  const m = /^fr-art-1 → au-3: ([\d.]+) mm = ([\d.]+) in = ([\d.]+) rule-in · /.exec(shown);
  assert.ok(m, shown);
  const cli = verbJson("measure", server.table, "fr-art-1", "au-3");
  assert.equal(m[1], cli.mm.toFixed(1));
  assert.equal(m[2], cli.in.toFixed(2));
  assert.equal(m[3], cli.rule_in.toFixed(2));
  // Drawn on the plan (1 unit a mm): the closest points, as long as measured.
  const l = await b.page.locator("#view svg #pair-measure").evaluate((e) =>
    ["x1", "y1", "x2", "y2"].map((a) => Number(e.getAttribute(a))));
  assert.ok(Math.abs(Math.hypot(l[2] - l[0], l[3] - l[1]) - cli.mm) <= 0.01, l.join(" "));
  // Its ends on the closest bases' outlines.
  for (const [base, x, y] of [[cli.from_base, l[0], l[1]], [cli.to_base, l[2], l[3]]]) {
    const id = "base-" + base.replace("#", ".");
    const box = await b.page.locator(`#view svg [id="${id}"]`).evaluate((e) => { const r = e.getBBox(); return [r.x, r.y, r.width, r.height]; });
    assert.ok(x >= box[0] - 0.01 && x <= box[0] + box[2] + 0.01 && y >= box[1] - 0.01 && y <= box[1] + box[3] + 0.01,
      `${x},${y} is not on ${id} ${box}`);
  }
  const b2 = await b.page.locator("#view svg .selected-b").evaluateAll((l) => l.map((e) => e.id));
  assert.deepEqual(b2, ["base-au-3.1"]);
});

test("Share makes the card's picture: explain --svg's, caption band included, as a PNG", async () => {
  await select(b.page, "fr-art-1#0", "au-3#1");
  await b.page.locator("#card-headline", { hasText: /^fr-art-1 → au-3: [\d.]+ mm/ }).waitFor();
  // Headless Chromium has no share sheet for files: the picture is downloaded.
  const [download] = await Promise.all([b.page.waitForEvent("download"), b.page.click("#card-share")]);
  assert.equal(download.suggestedFilename(), "vedette-fr-art-1-au-3.png");
  const png = readFileSync(await download.path());
  assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], "a PNG");
  assert.equal(png.readUInt32BE(16), 1600, "1600 px wide");
  assert.ok(png.length > 20000, png.length + " bytes: a drawing, not a blank");
});

test("line of sight between two clicked units, as vedette los says", async () => {
  // fr-art-1 sees au-3; au-4 is behind au-3 (the report: au-4 sight "no").
  for (const [to, base] of [["au-3", "au-3#0"], ["au-4", "au-4#0"]]) {
    await select(b.page, "fr-art-1#0", base);
    await b.page.locator("#card-headline", { hasText: new RegExp(`^fr-art-1 → ${to}: [\\d.]+ mm`) }).waitFor();
    const cli = verbJson("los", server.table, "fr-art-1", to);
    const sight = (await b.page.locator('#card-lines li[data-topic="sight"]').allInnerTexts()).join("\n");
    assert.match(sight, new RegExp(`^Visible\\? ${cli.visible ? "yes" : "no"}`), sight);
    assert.match(await b.page.locator("#card-headline").innerText(), new RegExp(`· ${cli.visible ? "VISIBLE" : "NOT VISIBLE"}`));
    // Each blocking point is ringed on the plan, over the blocking base.
    assert.equal(await b.page.locator("#view svg [id^=pair-cut-]").count(), cli.blocked_by.length);
    if (to === "au-4") {
      assert.equal(cli.visible, false);
      assert.match(sight, /\nCut by\? infantry au-3#2 blocks/);
      const ring = await b.page.locator("#view svg #pair-cut-0").evaluate((e) => [Number(e.getAttribute("cx")), Number(e.getAttribute("cy"))]);
      const box = await b.page.locator('#view svg [id="base-au-3.2"]').evaluate((e) => { const r = e.getBBox(); return [r.x, r.y, r.width, r.height]; });
      assert.ok(ring[0] >= box[0] - 0.01 && ring[0] <= box[0] + box[2] + 0.01 && ring[1] >= box[1] - 0.01 && ring[1] <= box[1] + box[3] + 0.01,
        `${ring} is not on au-3#2 ${box}`);
    }
  }
});

test("moving a base changes the verdict at once, survives a reload, and undo takes it back", async () => {
  const page = b.page;
  await select(page, "au-art-1#0");
  const before = await api(page, "/api/corrections");
  assert.equal(before.corrections.length, 0, "the table copy starts without corrections");
  // docs/serve.md: 30 mm back, its front edge is 80.5 mm from fr-1-3, beyond 3".
  await openPrecise(page);
  await page.fill("#c-x", "1000");
  await page.fill("#c-y", "660");
  await page.click("#c-move");
  await page.locator("#corrections", { hasText: "1 correction(s)" }).waitFor();
  await lineBecomes("au-art-1", /TOO CLOSE/, true);
  const after = await batteryLine("au-art-1");
  assert.doesNotMatch(after, /TOO CLOSE/, after);
  assert.equal(await page.locator("#error").textContent(), "");
  // Written beside the table copy.
  const file = JSON.parse(readFileSync(correctionsFile(), "utf8"));
  assert.deepEqual(file.corrections, [{ op: "move", base: "au-art-1#0", x: 1000, y: 660 }]);
  // The base is drawn where it was moved: 30 mm further from fr-1-3 than before.
  const report = await api(page, "/api/report");
  const unlimber = report.artillery.find((a) => a.battery === "au-art-1").unlimber;
  assert.equal(unlimber.too_close, false);
  const m = await page.request.post(new URL("/api/measure", server.url).href, { data: { a: "au-art-1", b: "fr-1-3" } });
  assert.ok(Math.abs((await m.json()).mm - 80.5) < 0.05);

  // A reload keeps it: the server holds it, the page shows it.
  await page.reload();
  await openViewer(page);
  await page.locator("#corrections", { hasText: "1 correction(s)" }).waitFor();
  assert.doesNotMatch(await batteryLine("au-art-1"), /TOO CLOSE/);
  const moved = (await api(page, "/api/bases")).find((x) => x.base === "au-art-1#0");
  assert.deepEqual([moved.x, moved.y], [1000, 660]);

  // Undo: the verdict is back, the file empty.
  await page.click("#undo");
  await page.locator("#corrections", { hasText: "0 correction(s)" }).waitFor();
  await lineBecomes("au-art-1", /TOO CLOSE to unlimber: fr-1-3#2/);
  assert.deepEqual(JSON.parse(readFileSync(correctionsFile(), "utf8")).corrections, []);
});

test("rotating a base turns its arc: fr-art-2 faced away has no main target", async () => {
  const page = b.page;
  await select(page, "fr-art-2#0");
  await openPrecise(page);
  const heading = Number(await page.inputValue("#c-heading"));
  assert.match(await batteryLine("fr-art-2"), /main target au-5/);
  await page.fill("#c-heading", String((heading + 180) % 360));
  await page.click("#c-rotate");
  await page.locator("#corrections", { hasText: "1 correction(s)" }).waitFor();
  await lineBecomes("fr-art-2", /no main target/);
  await page.click("#undo");
  await page.locator("#corrections", { hasText: "0 correction(s)" }).waitFor();
  await lineBecomes("fr-art-2", /main target au-5/);
  assert.ok(existsSync(correctionsFile()));
});

test("a refused correction is shown and changes nothing", async () => {
  const page = b.page;
  await select(page, "au-art-1#0");
  // au-art-1 has one base: deleting it would leave the unit without bases.
  await page.click("#c-delete");
  await page.locator("#error").filter({ hasText: /\S/ }).waitFor();
  assert.equal((await api(page, "/api/corrections")).corrections.length, 0);
  assert.match(await batteryLine("au-art-1"), /TOO CLOSE/);
});
