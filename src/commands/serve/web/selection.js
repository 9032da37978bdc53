// Selecting bases: a tap selects the base nearest the finger (within 24 px on screen);
// its unit becomes A. A tap on a base of another unit makes it B (and the card asks for
// the verdict). A third tap starts again from a new A. In the photo view, a tap away
// from every base asks the server which table point lies under it.
import { state, $, emit, on, showError } from "./state.js";
import { api } from "./api.js";
import * as view from "./view.js";

/** The tolerance of a tap, screen pixels (issue 38: 24 px). */
export const TAP_PX = 24;

/** Selects `base` (a record of state.bases) as a tap would. */
export function pick(base) {
  showError("");
  if (!state.a || state.b || base.unit === state.a.unit) {
    state.a = base;
    state.b = null;
  } else {
    state.b = base;
  }
  emit("selection");
}

/** Clears A and B. */
export function clear() {
  state.a = state.b = null;
  emit("selection");
}

/** A tap at a screen point. */
export async function tapAt(x, y) {
  performance.mark("vedette:tap");
  const base = view.baseAt(x, y, TAP_PX);
  if (base) { pick(base); return; }
  if (state.view !== "photo") return;
  const p = view.toUser(x, y);
  try {
    const at = await api("/api/photo/locate", { x: p.x, y: p.y });
    const found = at.base && state.bases.find((b) => b.base === at.base);
    if (found) { pick(found); return; }
    $("click-mm").textContent = "table point x " + at.table_mm[0].toFixed(1) + ", y " + at.table_mm[1].toFixed(1) + " mm";
    $("c-x").value = at.table_mm[0].toFixed(1);
    $("c-y").value = at.table_mm[1].toFixed(1);
  } catch (e) { $("click-mm").textContent = e.message; }
}

/** After new bases arrive: the selection follows its bases by name (a deleted one is dropped). */
export function follow() {
  const again = (b) => (b && state.bases.find((x) => x.base === b.base)) || null;
  state.a = again(state.a);
  state.b = state.a ? again(state.b) : null;
}

/** Shows who is selected. */
export function showSelection() {
  showHint();
  view.outlineSelection();
  const { a, b } = state;
  $("selection").textContent = a
    ? "A: " + a.base + " (" + a.unit + ", " + a.side + ")" + (b ? "   B: " + b.base + " (" + b.unit + ")" : "   Tap a base of another unit for B.")
    : "Tap a base: its unit becomes A. Tap a base of another unit: B, and the verdict.";
}

/** How base A can be moved, at this zoom. */
function showHint() {
  $("drag-hint").hidden = !state.a || state.view !== "plan";
  $("drag-hint").textContent = view.handlePoint()
    ? "Drag base A to move it; drag the round handle to turn it."
    : "Zoom in (pinch, double tap or +) to drag base A or turn it.";
}

on("view", showHint);

$("clear").addEventListener("click", clear);
