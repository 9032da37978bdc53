// Shared by the browser tests: the system Chromium driven by playwright-core, and the
// server that tests/browser/run started (its address, table copy and binary in the
// environment).
import { chromium } from "playwright-core";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

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

/**
 * Starts the system Chromium (never a browser of Playwright's own) with a fresh profile.
 * Returns {context, page, close}.
 */
export async function browser({ width = 1400, height = 900 } = {}) {
  const profile = mkdtempSync(join(tmpdir(), "vedette-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true,
    args: ARGS,
    viewport: { width, height },
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

/** Clicks base `name` (`unit#i`) on the plan, in its middle. */
export async function clickBase(page, name) {
  const b = await baseRecord(page, name);
  const box = await page.locator(`#view svg [id="${b.svg_id}"]`).boundingBox();
  if (!box) throw new Error("base " + name + " is not on screen");
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
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
