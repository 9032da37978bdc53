// Units the scan put nowhere (issue 37): a roster unit none of whose bases was found
// (an untagged unit the photo shows no formation of, a tagged one whose tags were all
// hidden) and that no place was offered for. The panel lists those not on the table
// (the scan summary's `absent`); *Put it on the table* asks for two taps on the view,
// the two ends of the unit's front edge: the unit is laid out behind that edge in its
// roster formation (its frontage centred between the taps, facing the enemy's edge as
// the scan's prior has it, the facing marked assumed so that the card offers to turn it
// round), one "place" correction, undone like the others, and then selected.
import { state, $, el, on, showError } from "./state.js";
import { api } from "./api.js";
import { correct } from "./corrections.js";
import { pick } from "./selection.js";
import * as view from "./view.js";
import { setSheet, isSheet, openAtLeast } from "./sheet.js";

/** Two taps closer than this (table mm) do not show which way the front runs. */
const MIN_APART_MM = 5;

/** The absent units not on the table (one laid out by this page or a re-scan is gone). */
function stillAbsent() {
  const absent = (state.session && state.session.scan && state.session.scan.absent) || [];
  const onTable = new Set(state.bases.map((b) => b.unit));
  return absent.filter((a) => !onTable.has(a.template.id));
}

let placing = null;      // {absent, first: {mm, user} | null} while taps are asked for
let selectNext = null;   // the id of the unit just laid out: selected once its bases are loaded

/** Asks for the next tap, after `why` the last one was not taken (if it was not). */
function prompt(why = "") {
  const id = placing.absent.template.id;
  $("placing-words").textContent = why + (placing.first
    ? id + ": now tap the other end of its front edge."
    : id + ": tap one end of its front edge, then the other.");
  $("placing").hidden = false;
}

function stop() {
  placing = null;
  $("placing").hidden = true;
  view.drawMark(null);
}

function start(absent) {
  showError("");
  placing = { absent, first: null };
  prompt();
  // On a phone the table goes back above the sheet, where the taps are made.
  if (isSheet()) setSheet("collapsed");
}

/** The table point (mm) under a screen point: the plan's own, the photo's asked of the server. */
async function tableAt(x, y) {
  const p = view.toUser(x, y);
  if (state.view === "plan") return view.userToTable(p);
  const at = await api("/api/photo/locate", { x: p.x, y: p.y });
  return { x: at.table_mm[0], y: at.table_mm[1] };
}

/**
 * `absent`'s template (about the origin, front toward +y, its front edge `depth_mm / 2`
 * ahead) turned and moved so that its front edge's middle is at `mid` and its front
 * faces `heading` (degrees, table frame).
 */
export function laidOut(absent, mid, heading) {
  const turn = ((heading - 90) * Math.PI) / 180;
  const [c, s] = [Math.cos(turn), Math.sin(turn)];
  const half = absent.depth_mm / 2;
  const r1 = (v) => Math.round(v * 10) / 10;
  const bases = absent.template.bases.map((b) => {
    const [u, v] = [b.x, b.y - half];
    return { ...b, x: r1(mid.x + c * u - s * v), y: r1(mid.y + s * u + c * v), heading: r1((((b.heading + heading - 90) % 360) + 360) % 360) };
  });
  return { ...absent.template, bases };
}

/** The front edge from `a` to `b` (table mm): the unit laid out behind it, facing the enemy's edge. */
function frontBetween(absent, a, b) {
  const mid = { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
  // The two ways the front may face are square to the edge; the one toward the enemy's
  // table edge (+y for the far edge) as the scan's prior has it where the unit stands.
  const farther = absent.faces_far[mid.y < absent.table_mm[1] / 2 ? 0 : 1];
  let n = { x: -(b.y - a.y), y: b.x - a.x };
  if ((n.y < 0) === farther) n = { x: -n.x, y: -n.y };
  return laidOut(absent, mid, (Math.atan2(n.y, n.x) * 180) / Math.PI);
}

/** A tap while taps are asked for: taken (true), else left to the selection. */
export function takeTap(x, y) {
  if (!placing) return false;
  const asked = placing;
  tableAt(x, y).then(async (mm) => {
    if (placing !== asked) return;
    const [w, d] = asked.absent.table_mm;
    // Said in the banner, where the taps are asked for (an error would open the sheet
    // over the table).
    if (!(mm.x >= 0 && mm.x <= w && mm.y >= 0 && mm.y <= d)) {
      prompt("That point (x " + mm.x.toFixed(0) + ", y " + mm.y.toFixed(0) + " mm) is off the table. ");
      return;
    }
    if (!asked.first) {
      asked.first = { mm };
      view.drawMark(view.toUser(x, y));
      prompt();
      return;
    }
    const a = asked.first.mm;
    if (Math.hypot(mm.x - a.x, mm.y - a.y) < MIN_APART_MM) {
      prompt("The two ends are less than " + MIN_APART_MM + " mm apart. ");
      return;
    }
    const unit = frontBetween(asked.absent, a, mm);
    stop();
    selectNext = unit.id;
    if (!(await correct({ op: "place", unit }))) selectNext = null;
  }).catch((e) => showError(e.message));
  return true;
}

function show() {
  const absent = stillAbsent();
  $("absent").hidden = absent.length === 0;
  if (placing && !absent.includes(placing.absent)) stop();
  const list = $("absent-list");
  list.replaceChildren();
  for (const a of absent) {
    const u = a.template, b = u.bases[0], n = u.bases.length;
    const box = el("div", null, "absent-unit");
    box.append(el("p", u.id + " (" + u.side + " " + u.kind + ", " + n + (n === 1 ? " base" : " bases") + " of " +
      b.width + " x " + b.depth + " mm): the scan found none of its bases."));
    const button = el("button", "Put " + u.id + " on the table");
    button.type = "button";
    button.dataset.unit = u.id;
    button.title = "then tap the two ends of its front edge on the table (Undo takes it back)";
    button.addEventListener("click", () => start(a));
    const buttons = el("div", null, "buttons");
    buttons.append(button);
    box.append(buttons);
    list.append(box);
  }
}

$("placing-cancel").addEventListener("click", stop);
on("loaded", () => {
  show();
  if (!selectNext) return;
  const first = state.bases.find((b) => b.unit === selectNext);
  selectNext = null;
  if (first) { pick(first); openAtLeast("half"); }
});
on("scanned", stop);
// A new drawing (another view, a new scan) has other user units: the taps start again.
on("drawn", () => { if (placing && placing.first) { placing.first = null; prompt(); } });
