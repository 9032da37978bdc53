// Armies without tags on a phone (issue 37, `--background` on the page): the empty
// table photographed first ("Photograph the empty table"), then the table with its
// armies ("Take photo"); the scan runs against the empty table, as `vedette scan
// untagged.jpg --background untagged-empty.jpg` does, and the summary says so.
// tests/browser/run serves it with --profile, --roster samples/photos/untagged.roster.toml
// and --camera samples/photos/camera.toml.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { api, browser, openViewer, server, shots } from "./lib.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const photos = join(root, "samples", "photos");
let b;
before(async () => { b = await browser({ phone: true }); await openViewer(b.page); });
after(async () => {
  if (b) {
    assert.deepEqual(b.errors, [], "errors in the page's script");
    await b.close();
  }
});

/** `vedette scan PHOTO --background EMPTY` of the untagged sample: the table it writes. */
function verbTable() {
  const dir = mkdtempSync(join(tmpdir(), "vedette-empty-"));
  try {
    const out = join(dir, "table.json");
    execFileSync(server.bin, [
      "scan", join(photos, "untagged.jpg"), "--background", join(photos, "untagged-empty.jpg"),
      "--profile", join(root, "calibration", "default.toml"), "--roster", join(photos, "untagged.roster.toml"),
      "--camera", join(photos, "camera.toml"), "-o", out,
    ]);
    return JSON.parse(readFileSync(out, "utf8"));
  } finally { rmSync(dir, { recursive: true, force: true }); }
}

const file = (name) => ({ name, mimeType: "image/jpeg", buffer: readFileSync(join(photos, name)) });

test("the empty table photographed first is what the next photo is scanned against", async () => {
  const page = b.page;
  const section = page.locator("#empty-table");
  await section.waitFor();
  await section.locator("summary").tap();
  const input = page.locator("#upload-empty");
  assert.equal(await input.getAttribute("capture"), "environment");
  assert.equal(await input.getAttribute("accept"), "image/*");
  await input.setInputFiles(file("untagged-empty.jpg"));
  const kept = page.locator("#empty-status .kept");
  await kept.waitFor({ timeout: 60000 });
  assert.match(await kept.innerText(), /Empty table: 001-untagged-empty\.jpg\. The next photo is scanned against it\./);
  assert.ok(await page.locator("#forget-empty").isVisible());
  await page.screenshot({ path: join(shots, "empty-table-phone.png") });

  await page.locator("#upload").setInputFiles(file("untagged.jpg"));
  const summary = page.locator("#scan-status .summary");
  await summary.waitFor({ timeout: 240000 });
  assert.equal(await page.locator("#scan-status .error").count(), 0, await page.locator("#scan-status").innerText());
  const said = await summary.innerText();
  assert.match(said, /Scanned .*002-untagged\.jpg against the empty table .*001-untagged-empty\.jpg: \d+ bases/, said);
  const verb = verbTable();
  const count = verb.units.reduce((n, u) => n + u.bases.length, 0);
  assert.match(said, new RegExp(`: ${count} bases`), said);
  const bases = await api(page, "/api/bases");
  assert.equal(bases.length, count);
  await page.locator("#view svg #photo").waitFor();
  await page.screenshot({ path: join(shots, "empty-table-scanned-phone.png") });
});

test("forgetting the empty table scans the next photo without it", async () => {
  const page = b.page;
  await page.locator("#forget-empty").tap();
  assert.equal(await page.locator("#empty-status .kept").count(), 0);
  assert.equal(await page.locator("#forget-empty").isVisible(), false);
  await page.locator("#upload").setInputFiles(file("untagged.jpg"));
  const summary = page.locator("#scan-status .summary");
  await summary.waitFor({ timeout: 240000 });
  const said = await summary.innerText();
  assert.doesNotMatch(said, /against the empty table/, said);
});
