// Correcting the table: by touch (drag base A to move it, drag its handle to turn it;
// one correction when the finger lifts, none while it moves), by the card's buttons
// (flip, delete), or precisely by typed numbers. Each is one entry of the corrections
// file (docs/serve.md); *Undo* takes the last one back. The server recomputes every
// finding; "corrected" tells the page to load them again.
import { state, $, el, emit, on, showError } from "./state.js";
import { api } from "./api.js";
import * as view from "./view.js";

/** Sends one correction (null: undo the last), then tells the page; true when it was taken. */
export async function correct(body) {
  showError("");
  try {
    showCorrections(await (body ? api("/api/corrections", body) : api("/api/undo", {})));
    emit("corrected");
    return true;
  } catch (e) {
    showError(e.message);
    emit("correction-refused");
    return false;
  }
}

const round = (v, places) => Number(v.toFixed(places));

/** One correction in words (the file holds it as JSON). */
function words(c) {
  switch (c.op) {
    case "move": return "moved " + c.base + " to x " + c.x + ", y " + c.y + " mm";
    case "rotate": return "turned " + c.base + " to heading " + c.heading + "°";
    case "flip": return "flipped " + c.base;
    case "delete": return "deleted " + c.base;
    case "add": return "added a base to " + c.unit + " at x " + c.x + ", y " + c.y + " mm, heading " + c.heading + "°";
    case "reassign": return "gave " + c.base + " to " + c.to;
    case "side": return "gave " + c.unit + " to side " + c.side;
    case "swap": return "swapped " + c.unit + " and " + c.with + " (the photo cannot tell them apart)";
    case "place": return "placed " + c.unit.id + (c.unit.bases.some((b) => b.found) ? " where the scan held it back" : " by hand") + " (" + c.unit.bases.length + " bases)";
    case "facing": return (c.flip ? "turned " + c.unit + " round" : "kept " + c.unit + "'s facing") + " (no longer assumed)";
    default: return c.op;
  }
}

/** Shows the corrections made so far. */
export function showCorrections(c) {
  const box = $("corrections");
  box.replaceChildren(el("div", c.corrections.length + " correction(s), kept in " + c.file));
  c.corrections.slice(-5).forEach((x, i, last) => box.append(el("div", (c.corrections.length - last.length + i + 1) + ". " + words(x))));
}

/** Fills the precise fields from base A. */
export function fillFields() {
  const a = state.a;
  $("c-base").textContent = a ? a.base : "-";
  if (a) { $("c-x").value = a.x; $("c-y").value = a.y; $("c-heading").value = a.heading; }
}

function number(id) {
  const v = Number($(id).value);
  if ($(id).value === "" || !Number.isFinite(v)) throw new Error(id.slice(2) + " is not a number");
  return v;
}

function text(id) {
  const v = $(id).value.trim();
  if (v === "") throw new Error(id.slice(2) + " is empty");
  return v;
}

function withBase(make) {
  return () => {
    if (!state.a) { showError("select a base first"); return; }
    try { correct(make(state.a.base)); } catch (e) { showError(e.message); }
  };
}

$("c-move").addEventListener("click", withBase((base) => ({ op: "move", base, x: number("c-x"), y: number("c-y") })));
$("c-rotate").addEventListener("click", withBase((base) => ({ op: "rotate", base, heading: number("c-heading") })));
$("c-delete").addEventListener("click", withBase((base) => ({ op: "delete", base })));
$("c-flip").addEventListener("click", withBase((base) => ({ op: "flip", base })));
$("c-add").addEventListener("click", withBase(() => ({ op: "add", unit: state.a.unit, x: number("c-x"), y: number("c-y"), heading: number("c-heading") })));
$("c-reassign").addEventListener("click", withBase((base) => ({ op: "reassign", base, to: text("c-to") })));
$("c-side-set").addEventListener("click", withBase(() => ({ op: "side", unit: state.a.unit, side: text("c-side") })));
$("undo").addEventListener("click", () => correct(null));
on("selection", fillFields);

// --- By touch ------------------------------------------------------------------------------
// A drag starts on base A (it moves) or on its handle (it turns); the plan view's user
// units are table millimetres (y down), the photo view's are the photo's pixels, where
// the table points under the start and the end of the drag are asked of the server.

/** What a finger down at (x, y) grabs: base A, its handle, or nothing (the view pans). */
export function grab(x, y) {
  const a = state.a;
  if (!a) return null;
  const h = view.handlePoint();
  if (h) {
    const s = view.toScreen(h.x, h.y);
    if (Math.hypot(s.x - x, s.y - y) <= 22) return { kind: "rotate", base: a, centre: { x: h.cx, y: h.cy }, turn: 0 };
  }
  const under = view.baseAt(x, y, 8);
  if (under && under.base === a.base) return { kind: "move", base: a, from: view.toUser(x, y), at: { x, y }, du: 0, dv: 0 };
  return null;
}

/** The finger moved: the base follows it (drawn only, nothing sent). */
export function drag(g, x, y) {
  const p = view.toUser(x, y);
  if (g.kind === "move") {
    g.du = p.x - g.from.x;
    g.dv = p.y - g.from.y;
    view.previewBase(g.base, g.du, g.dv, 0);
  } else {
    // Screen angle of the finger about the base's centre, as a table heading.
    const heading = (Math.atan2(-(p.y - g.centre.y), p.x - g.centre.x) * 180) / Math.PI;
    g.heading = ((heading % 360) + 360) % 360;
    g.turn = -(g.heading - g.base.heading);
    view.previewBase(g.base, 0, 0, g.turn);
  }
}

/** The finger lifted: one correction for the whole drag. */
export async function drop(g, x, y) {
  drag(g, x, y);
  if (g.kind === "rotate") {
    correct({ op: "rotate", base: g.base.base, heading: round(g.heading, 1) });
    return;
  }
  if (state.view === "plan") {
    correct({ op: "move", base: g.base.base, x: round(g.base.x + g.du, 1), y: round(g.base.y - g.dv, 1) });
    return;
  }
  try {
    const end = view.toUser(x, y);
    const [p, q] = await Promise.all([api("/api/photo/locate", g.from), api("/api/photo/locate", { x: end.x, y: end.y })]);
    const dx = q.table_mm[0] - p.table_mm[0], dy = q.table_mm[1] - p.table_mm[1];
    correct({ op: "move", base: g.base.base, x: round(g.base.x + dx, 1), y: round(g.base.y + dy, 1) });
  } catch (e) {
    view.previewBase(g.base, 0, 0, 0);
    showError(e.message);
  }
}

/** A drag given up (a second finger came): the base goes back. */
export function cancelDrag(g) {
  if (g) view.previewBase(g.base, 0, 0, 0);
}

on("correction-refused", () => { if (state.a) view.previewBase(state.a, 0, 0, 0); });
