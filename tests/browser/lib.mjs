// Shared by the browser tests: the system Chromium driven by playwright-core, and the
// server that tests/browser/run started (its address, table copy and binary in the
// environment).
import { chromium } from "playwright-core";
import { before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

function env(name) {
  const v = process.env[name];
  if (!v) throw new Error(name + " is not set: run the tests through tests/browser/run");
  return v;
}

/** The server's address (`http://127.0.0.1:PORT/`), the table it serves (a copy), the binary. */
export const server = {
  get url() { return env("VEDETTE_URL"); },
  get table() { return env("VEDETTE_TABLE"); },
  get bin() { return env("VEDETTE_BIN"); },
};

// The machine's network is closed: without these Chromium waits on refused connections
// (updates, sync, QUIC probes).
const ARGS = [
  "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync",
];

/** Where the tests' screenshots go (target/browser/, made): look at them. */
export const shots = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "target", "browser");
mkdirSync(shots, { recursive: true });

/** The corrections the server has written so far (the file beside its table). */
export function corrections() {
  const file = server.table.replace(/\.json$/, ".corrections.json");
  return existsSync(file) ? JSON.parse(readFileSync(file, "utf8")).corrections : [];
}

/**
 * A desktop browser and a phone with touch for a test file: started before its tests,
 * closed after them, each checked to have raised no error in the page's script.
 * Returns {desk, phone}, filled once the file's tests start.
 */
export function desktopAndPhone() {
  const b = { desk: null, phone: null };
  before(async () => {
    b.desk = await browser();
    b.phone = await browser({ phone: true });
  });
  after(async () => {
    for (const x of [b.desk, b.phone]) {
      if (!x) continue;
      assert.deepEqual(x.errors, [], "errors in the page's script");
      await x.close();
    }
  });
  return b;
}

/** The phone profile of the tests (issue 38): a phone held upright. */
export const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 3 };

/**
 * Starts the system Chromium (never a browser of Playwright's own) with a fresh profile.
 * Returns {context, page, close}.
 */
export async function browser({ width = 1400, height = 900, phone = false } = {}) {
  const profile = mkdtempSync(join(tmpdir(), "vedette-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true,
    args: ARGS,
    ...(phone ? PHONE : { viewport: { width, height } }),
  });
  const page = context.pages()[0] || await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  return {
    context,
    page,
    errors,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Opens the viewer and waits until the plan and the findings are shown. */
export async function openViewer(page) {
  await page.goto(server.url);
  await page.locator("#view svg g#bases").waitFor();
  await page.locator("#all-findings .finding").first().waitFor();
}

/** What the running server answers on a GET route, as JSON. */
export async function api(page, path) {
  const r = await page.request.get(new URL(path, server.url).href);
  if (!r.ok()) throw new Error(path + ": " + r.status());
  return r.json();
}

/** The base record (`/api/bases`) of base `name` (`unit#i`). */
export async function baseRecord(page, name) {
  const b = (await api(page, "/api/bases")).find((x) => x.base === name);
  if (!b) throw new Error("no base " + name);
  return b;
}

/** The screen point in the middle of base `name` (`unit#i`) on the view. */
export async function baseCentre(page, name) {
  const b = await baseRecord(page, name);
  const box = await page.locator(`#view svg [id="${b.svg_id}"]`).boundingBox();
  if (!box) throw new Error("base " + name + " is not on screen");
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

/** Clicks base `name` (`unit#i`) on the plan, in its middle (a tap on a touch screen). */
export async function clickBase(page, name) {
  const p = await baseCentre(page, name);
  if (await page.evaluate(() => navigator.maxTouchPoints > 0)) await page.touchscreen.tap(p.x, p.y);
  else await page.mouse.click(p.x, p.y);
}

/** The view's viewBox as [x, y, w, h]. */
export async function viewBox(page) {
  return (await page.locator("#view svg").getAttribute("viewBox")).split(/[\s,]+/).map(Number);
}

/**
 * Fingers on the screen through the DevTools protocol (Input.dispatchTouchEvent), as a
 * phone sends them: `tracks` is one list of points a finger, all of one length; each
 * step moves every finger to its next point, `ms` apart.
 */
export async function touchPath(page, tracks, ms = 16) {
  const cdp = await page.context().newCDPSession(page);
  const at = (i) => tracks.map((t, id) => ({ x: t[i].x, y: t[i].y, id, radiusX: 5, radiusY: 5, force: 1 }));
  await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: at(0) });
  for (let i = 1; i < tracks[0].length; i++) {
    await new Promise((r) => setTimeout(r, ms));
    await cdp.send("Input.dispatchTouchEvent", { type: "touchMove", touchPoints: at(i) });
  }
  await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
  await cdp.detach();
}

/** `n + 1` points from `a` to `b`. */
export function line(a, b, n = 12) {
  return Array.from({ length: n + 1 }, (_, i) => ({ x: a.x + ((b.x - a.x) * i) / n, y: a.y + ((b.y - a.y) * i) / n }));
}

/** Clears the selection, then clicks `a` (it becomes A) and, if given, `b` (B). */
export async function select(page, a, b) {
  await page.click("#clear");
  await clickBase(page, a);
  if (b) await clickBase(page, b);
}

/** `vedette VERB ARGS... --json` on the served table copy (the same file the server reads). */
export function verbJson(...args) {
  return JSON.parse(execFileSync(server.bin, [...args, "--json"], { encoding: "utf8" }));
}
