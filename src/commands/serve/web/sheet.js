// The panel: a bottom sheet on a phone (collapsed, half, full; drag or tap its grip),
// a side column on a wide screen (style.css decides which). It says which part of the
// view it leaves uncovered, so that the selected pair can be kept in sight.
import { $, emit } from "./state.js";

const STATES = ["collapsed", "half", "full"];

/** True when the panel is a bottom sheet (a phone), false beside the view. */
export function isSheet() { return $("grip").offsetParent !== null; }

/** The sheet's state. */
export function sheetState() { return $("panel").dataset.sheet; }

/** Sets the sheet's state and tells the page once it has moved. */
export function setSheet(s) {
  const panel = $("panel");
  if (panel.dataset.sheet === s) return;
  panel.dataset.sheet = s;
  // After the transition (style.css, 0.18 s), the uncovered area is final.
  setTimeout(() => emit("sheet", s), 200);
}

/** Opens the sheet to at least `s` (never closes it). */
export function openAtLeast(s) {
  if (isSheet() && STATES.indexOf(sheetState()) < STATES.indexOf(s)) setSheet(s);
}

/** The screen rectangle of the view that the panel leaves uncovered. */
export function uncovered() {
  const v = $("view").getBoundingClientRect();
  if (!isSheet()) return { left: v.left, top: v.top, right: v.right, bottom: v.bottom };
  const top = $("panel").getBoundingClientRect().top;
  // Below the floating buttons at the top.
  return { left: v.left, top: v.top + 64, right: v.right - 56, bottom: Math.min(v.bottom, top) };
}

/** Wires the grip: a tap steps through the states, a drag sets the height and snaps. */
export function initSheet() {
  const grip = $("grip"), panel = $("panel");
  let drag = null;
  grip.addEventListener("pointerdown", (e) => {
    grip.setPointerCapture(e.pointerId);
    drag = { y: e.clientY, h: panel.getBoundingClientRect().height, moved: false };
    panel.classList.add("resizing");
  });
  grip.addEventListener("pointermove", (e) => {
    if (!drag) return;
    const dy = e.clientY - drag.y;
    if (Math.abs(dy) > 6) drag.moved = true;
    if (drag.moved) panel.style.height = Math.max(60, Math.min(window.innerHeight - 40, drag.h - dy)) + "px";
  });
  const end = (e) => {
    if (!drag) return;
    const d = drag;
    drag = null;
    panel.classList.remove("resizing");
    if (!d.moved) {
      setSheet(STATES[(STATES.indexOf(sheetState()) + 1) % STATES.length]);
      return;
    }
    const h = panel.getBoundingClientRect().height / window.innerHeight;
    panel.style.height = "";
    setSheet(h < 0.3 ? "collapsed" : h < 0.72 ? "half" : "full");
    if (e.type === "pointercancel") setSheet(sheetState());
  };
  grip.addEventListener("pointerup", end);
  grip.addEventListener("pointercancel", end);
  grip.addEventListener("keydown", (e) => {
    if (e.key === "Enter" || e.key === " ") { e.preventDefault(); setSheet(STATES[(STATES.indexOf(sheetState()) + 1) % STATES.length]); }
  });
}
