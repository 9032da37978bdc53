// Units held back (issue 37): an untagged unit whose place the photo barely prefers to
// another place overlapping it is not placed on a guess. The scan reports it missing
// with both places (`missing-unit` with `places`; the scan summary's `held`). So is a
// unit several photos put in places that are not one and that no twin of it takes
// (`conflicting-unit`: the photos contradict each other; the held unit's `photos` name
// the photo of each place). The panel
// lists those not on the table, each with why (`why`: the scan report's own clause)
// and one button per place: "Place it here" puts
// the unit on the table as the scan offers it (a "place" correction, undone like the
// others), and selects it. On the plan the places are drawn dashed and numbered; a
// button's place is lit while a finger or the mouse is on it.
import { state, $, el, on } from "./state.js";
import { correct } from "./corrections.js";
import { pick } from "./selection.js";
import * as view from "./view.js";
import { openAtLeast, uncovered } from "./sheet.js";

/** The held units not on the table (a unit placed, by this page or a re-scan, is gone). */
function stillHeld() {
  const held = (state.session && state.session.scan && state.session.scan.held) || [];
  const onTable = new Set(state.bases.map((b) => b.unit));
  return held.filter((h) => !onTable.has(h.unit) && h.places.length);
}

let selectNext = null;   // the id of the unit just placed: selected once its bases are loaded

/** Puts `unit` (a whole table unit) on the table, then selects its first base. */
async function place(unit) {
  selectNext = unit.id;
  if (!(await correct({ op: "place", unit }))) selectNext = null;
}

/** The places of the held units, each as {key, label, mm, px} (view.drawHeld), for the drawing. */
function places(held) {
  return held.flatMap((h) => h.places.map((p, i) => ({
    key: h.unit + "/" + i, label: h.unit + " ?" + (i + 1), mm: h.corners_mm[i], px: h.corners_px[i],
  })));
}

let offered = new Set();   // the held units the panel has already been opened for

function show() {
  const held = stillHeld();
  $("held").hidden = held.length === 0;
  // A unit held back is news once: the panel opens on it (a phone's sheet half way).
  const fresh = held.filter((h) => !offered.has(h.unit));
  for (const h of fresh) offered.add(h.unit);
  if (fresh.length) {
    openAtLeast("half");
    // The section in the panel; the places, close enough to tell apart, in the part of
    // the view the panel leaves once it has opened (sheet.js: 0.2 s).
    requestAnimationFrame(() => $("held").scrollIntoView({ block: "start" }));
    setTimeout(() => view.focus(view.heldBox(), uncovered(), 0.6), 250);
  }
  view.drawHeld(places(held));
  const list = $("held-list");
  list.replaceChildren();
  for (const h of held) {
    const n = h.places[0].bases.length;
    const box = el("div", null, "held-unit");
    box.append(el("p", h.unit + " (" + n + (n === 1 ? " base" : " bases") + "): " + h.why + ". Which is it?"));
    const buttons = el("div", null, "buttons");
    h.places.forEach((p, i) => {
      const c = centre(p.bases);
      const b = el("button", "Place it at ?" + (i + 1) + " (" + c.x.toFixed(0) + ", " + c.y.toFixed(0) + " mm)");
      b.type = "button";
      b.dataset.place = h.unit + "/" + i;
      b.title = "puts " + h.unit + " on the table there (Undo takes it back)";
      const light = (lit) => view.lightHeld(h.unit + "/" + i, lit);
      b.addEventListener("mouseenter", () => light(true));
      b.addEventListener("mouseleave", () => light(false));
      b.addEventListener("focus", () => light(true));
      b.addEventListener("blur", () => light(false));
      b.addEventListener("click", () => place(p));
      buttons.append(b);
    });
    box.append(buttons);
    list.append(box);
  }
}

function centre(bases) {
  const n = Math.max(bases.length, 1);
  return { x: bases.reduce((s, b) => s + b.x, 0) / n, y: bases.reduce((s, b) => s + b.y, 0) / n };
}

on("loaded", () => {
  show();
  if (!selectNext) return;
  const first = state.bases.find((b) => b.unit === selectNext);
  selectNext = null;
  if (first) pick(first);
});
// A new scan's held units are news again (their table and bases follow: "loaded").
on("scanned", () => { offered = new Set(); });
on("drawn", () => view.drawHeld(places(stillHeld())));
