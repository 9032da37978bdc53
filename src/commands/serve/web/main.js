// The page's start and its wiring: which module answers which gesture and event.
// Every module has one job (view, gestures, sheet, selection, card, findings,
// corrections, uploads, layers, facing, twins, held, absent); this one only connects them.
import { state, $, on, emit, showError } from "./state.js";
import { api } from "./api.js";
import * as view from "./view.js";
import { gestures } from "./gestures.js";
import { initSheet, openAtLeast, uncovered } from "./sheet.js";
import { TAP_PX, tapAt, follow, showSelection } from "./selection.js";
import { updateCard } from "./card.js";
import { showCorrections, fillFields, grab, drag, drop, cancelDrag } from "./corrections.js";
import { showScanSummary, showEmptyTable } from "./uploads.js";
import { showPairing } from "./pairing.js";
import "./findings.js";
import "./layers.js";
import "./facing.js";
import "./twins.js";
import "./held.js";
import { takeTap } from "./absent.js";

on("error", (m) => { $("error").textContent = m; if (m) openAtLeast("half"); });

/** What the page asks the server for on every load (the first load asks before it knows the session). */
function ask() {
  return { bases: api("/api/bases"), findings: api("/api/findings"), text: api("/api/report.txt") };
}

/**
 * Loads the table's bases, findings, report text and drawing again (`plan`: the
 * drawing's text, already asked for; `asked`: the rest, already asked for). The drawing
 * is shown as soon as it and the bases are here; the findings after it is painted.
 */
async function refresh(keepView, plan, asked) {
  const drawing = plan || api(state.view === "photo" ? "/api/photo.svg" : "/api/plan.svg");
  const { bases, findings, text } = asked || ask();
  state.bases = await bases;
  follow();
  await view.load(keepView, drawing);
  // The table is painted first; the lists of findings after it.
  await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)));
  [state.findings, $("report").textContent] = await Promise.all([findings, text]);
  emit("loaded");
  showSelection();
  fillFields();
  await updateCard();
}

/** Keeps the selected pair (or A) in the part of the view the panel leaves. */
function keepInSight() {
  const box = view.basesBox([state.a, state.b].filter(Boolean));
  if (box) view.reveal(box, uncovered());
}

on("selection", () => {
  showSelection();
  if (state.a && state.b) {
    // The card is the first thing in the panel: in sight as the sheet opens.
    $("panel-body").scrollTop = 0;
    openAtLeast("half");
  }
  keepInSight();
  updateCard();
});
on("sheet", keepInSight);
on("corrected", () => refresh(true).catch((e) => showError(e.message)));
on("scanned", async () => {
  state.a = state.b = null;
  try {
    await setView("photo");
    showCorrections(await api("/api/corrections"));
  } catch (e) { showError(e.message); }
});

async function setView(mode) {
  state.view = mode === "photo" && state.session && state.session.mode === "photo" ? "photo" : "plan";
  $("view-" + state.view).checked = true;
  $("click-mm").textContent = "";
  await refresh(false);
}
for (const id of ["view-plan", "view-photo"]) {
  $(id).addEventListener("change", (e) => setView(e.target.value).catch((err) => showError(err.message)));
}

// Gestures on the view.
// A second quick tap on another base is a tap of its own (A then B), not a zoom.
let lastTapped = null;
gestures($("view"), {
  tap: (x, y) => {
    // Two taps asked for (laying out a unit the scan did not find) are not selections.
    if (takeTap(x, y)) return;
    lastTapped = view.baseAt(x, y, TAP_PX);
    tapAt(x, y);
  },
  doubleTap: (x, y) => {
    if (takeTap(x, y)) return;
    const base = view.baseAt(x, y, TAP_PX);
    if (base !== lastTapped) { lastTapped = base; tapAt(x, y); return; }
    lastTapped = null;
    view.zoomAt(2, x, y);
    view.commit();
  },
  grab,
  drag,
  drop,
  cancelDrag,
  pan: (dx, dy) => view.panBy(dx, dy),
  zoom: (f, x, y) => view.zoomAt(f, x, y),
  moveStart: () => view.beginMove(),
  moveEnd: () => view.commit(),
});
$("zoom-in").addEventListener("click", () => view.zoomCentre(1.6));
$("zoom-out").addEventListener("click", () => view.zoomCentre(1 / 1.6));
$("fit").addEventListener("click", () => view.fit());
initSheet();
// The whole table is shown above the sheet, not under it.
view.setFitArea(() => {
  const a = uncovered();
  return { left: a.left, right: a.right + 48, top: a.top - 56, bottom: a.bottom };
});

// Start: the session (is there a photo?), then the table in the view it asks for.
async function start() {
  // Everything asked for at once; the plan too (a photo session asks for its photo view
  // once it knows).
  const plan = api("/api/plan.svg");
  const corrections = api("/api/corrections");
  const asked = ask();
  for (const p of [plan, corrections, ...Object.values(asked)]) p.catch(() => {});
  state.session = await api("/api/session");
  $("view-photo").disabled = state.session.mode !== "photo";
  if (state.session.scan) showScanSummary(state.session);
  showEmptyTable();
  state.view = state.session.mode === "photo" ? "photo" : "plan";
  $("view-" + state.view).checked = true;
  await refresh(false, state.view === "plan" ? plan : null, asked);
  showCorrections(await corrections);
}
// A paired phone's first address carries the secret; the server answered it with the
// cookie, so the secret leaves the address bar (and the history, bookmarks, screenshots).
if (new URLSearchParams(location.search).has("token")) history.replaceState(null, "", location.pathname);
start().then(showPairing).catch((e) => showError(e.message));
