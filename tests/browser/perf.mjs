// The page's speed on a phone (issue 38, BENCHMARKS.md "The page on a phone"): the
// phone profile with Chromium's CPU slowed 4x (Emulation.setCPUThrottlingRate), on the
// servers tests/browser/run --perf starts: VEDETTE_URL (brigade-attack) and
// VEDETTE_URL_GRAND (grand-battle, 2,000 bases). Prints each figure; not a test.
//   first paint: navigation start to the plan painted (performance mark
//     vedette:plan-shown), brigade-attack, fresh page each run;
//   pan and pinch: the frame times (requestAnimationFrame to requestAnimationFrame)
//     while one finger pans and two pinch, touch events sent through the DevTools
//     protocol every 16 ms, grand-battle; the frame that folds the gesture into the
//     viewBox when the fingers lift is counted too;
//   tap to card: the tap on base B to the card painted (marks vedette:tap,
//     vedette:card), brigade-attack.
import { browser, line, touchPath } from "./lib.mjs";

const RATE = 4;
const brigade = process.env.VEDETTE_URL, grand = process.env.VEDETTE_URL_GRAND;
if (!brigade || !grand) throw new Error("run through tests/browser/run --perf");
const quantile = (xs, q) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)]; };
const fmt = (xs) => `median ${quantile(xs, 0.5).toFixed(0)} ms, p95 ${quantile(xs, 0.95).toFixed(0)} ms, max ${Math.max(...xs).toFixed(0)} ms (${xs.length} samples)`;

async function throttled(url) {
  const b = await browser({ phone: true });
  const cdp = await b.page.context().newCDPSession(b.page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: RATE });
  await b.page.goto(url);
  await b.page.waitForFunction(() => performance.getEntriesByName("vedette:plan-shown").length > 0, null, { timeout: 120000 });
  await b.page.locator("#all-findings .finding").first().waitFor({ timeout: 120000 });
  return b;
}

// First paint, brigade-attack.
const paints = [], fcps = [];
for (let i = 0; i < 5; i++) {
  const b = await throttled(brigade);
  paints.push(await b.page.evaluate(() => performance.getEntriesByName("vedette:plan-shown")[0].startTime));
  fcps.push(await b.page.evaluate(() => (performance.getEntriesByName("first-contentful-paint")[0] || { startTime: NaN }).startTime));
  await b.close();
}
console.log(`first paint of the plan, brigade-attack: ${fmt(paints)}; first contentful paint ${fmt(fcps)}`);

// Tap to card, brigade-attack.
{
  const b = await throttled(brigade);
  const page = b.page;
  const centre = async (name) => {
    const bases = await (await page.request.get(new URL("/api/bases", brigade).href)).json();
    const r = await page.locator(`#view svg [id="${bases.find((x) => x.base === name).svg_id}"]`).boundingBox();
    return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
  };
  const times = [];
  const pairs = [["fr-art-1#0", "au-3#1"], ["au-art-1#0", "fr-1-3#2"], ["fr-art-2#0", "au-5#0"], ["fr-1-2#0", "au-2#1"]];
  for (let i = 0; i < 12; i++) {
    const [a, bb] = pairs[i % pairs.length];
    await page.click("#clear");
    await page.click("#fit");
    const pa = await centre(a);
    await page.touchscreen.tap(pa.x, pa.y);
    const pb = await centre(bb);
    await page.evaluate(() => performance.clearMarks());
    await page.touchscreen.tap(pb.x, pb.y);
    await page.waitForFunction(() => performance.getEntriesByName("vedette:card").length > 0, null, { timeout: 30000 });
    times.push(await page.evaluate(() => performance.getEntriesByName("vedette:card")[0].startTime - performance.getEntriesByName("vedette:tap").at(-1).startTime));
  }
  console.log(`tap to card, brigade-attack: ${fmt(times)}`);
  await b.close();
}

// Pan and pinch, grand-battle.
{
  const b = await throttled(grand);
  const page = b.page;
  const record = () => page.evaluate(() => {
    window.__frames = [];
    window.__recording = true;
    const f = (t) => { if (!window.__recording) return; window.__frames.push(t); requestAnimationFrame(f); };
    requestAnimationFrame(f);
  });
  const stop = async () => {
    await page.waitForTimeout(600);   // the commit frame after the fingers lift
    return page.evaluate(() => {
      window.__recording = false;
      const f = window.__frames;
      return f.slice(1).map((t, i) => t - f[i]);
    });
  };
  const all = [];
  for (const [what, gesture] of [
    ["pan", () => touchPath(page, [line({ x: 300, y: 500 }, { x: 80, y: 250 }, 60)])],
    ["pinch in", () => touchPath(page, [line({ x: 170, y: 400 }, { x: 60, y: 300 }, 60), line({ x: 220, y: 420 }, { x: 330, y: 520 }, 60)])],
    ["pan zoomed in", () => touchPath(page, [line({ x: 100, y: 250 }, { x: 300, y: 500 }, 60)])],
    ["pinch out", () => touchPath(page, [line({ x: 60, y: 300 }, { x: 170, y: 400 }, 60), line({ x: 330, y: 520 }, { x: 220, y: 420 }, 60)])],
  ]) {
    await record();
    await gesture();
    const frames = await stop();
    all.push(...frames);
    console.log(`${what}, grand-battle: frame times ${fmt(frames)}`);
  }
  console.log(`pan and pinch, grand-battle, every frame: ${fmt(all)}`);
  await b.close();
}
