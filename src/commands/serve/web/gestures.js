// Fingers and the mouse on the view, turned into intents: tap, double tap, pan, pinch,
// and the drag of something grabbed (a selected base, the rotate handle). One finger
// pans, two pinch (about their middle, panning with it); the wheel zooms. No page
// scroll happens under a gesture (touch-action: none on #view, style.css).
//
// `handlers`: {tap(x, y), doubleTap(x, y), grab(x, y) -> thing or null, drag(thing, x, y),
// drop(thing, x, y), cancelDrag(thing), pan(dx, dy), zoom(f, x, y), moveStart(), moveEnd()}.

const TAP_SLOP = { touch: 10, pen: 8, mouse: 4 };
const TAP_MS = 600;
const DOUBLE_TAP_MS = 320;
const DOUBLE_TAP_PX = 30;

/** Listens on `el` and calls `handlers` (above). */
export function gestures(el, handlers) {
  const pointers = new Map();
  let mode = null;     // null, "pending", "pan", "pinch", "drag"
  let grabbed = null;  // what a drag moves
  let start = null;    // the first finger's down: {x, y, t, type}
  let pinch = null;    // {d, x, y}: the last distance and middle of two fingers
  let lastTap = null;  // {x, y, t}
  let wheelTimer = null;

  const two = () => {
    const [p, q] = Array.from(pointers.values());
    return { d: Math.hypot(p.x - q.x, p.y - q.y), x: (p.x + q.x) / 2, y: (p.y + q.y) / 2 };
  };

  el.addEventListener("pointerdown", (e) => {
    if (e.pointerType === "mouse" && e.button !== 0) return;
    try { el.setPointerCapture(e.pointerId); } catch (err) { /* a synthetic pointer */ }
    pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (pointers.size === 1) {
      mode = "pending";
      start = { x: e.clientX, y: e.clientY, t: e.timeStamp, type: e.pointerType };
      grabbed = handlers.grab(e.clientX, e.clientY);
    } else if (pointers.size === 2) {
      if (mode === "drag") handlers.cancelDrag(grabbed);
      if (mode !== "pan" && mode !== "pinch") handlers.moveStart();
      grabbed = null;
      mode = "pinch";
      pinch = two();
    }
  });

  el.addEventListener("pointermove", (e) => {
    const p = pointers.get(e.pointerId);
    if (!p) return;
    const dx = e.clientX - p.x, dy = e.clientY - p.y;
    p.x = e.clientX;
    p.y = e.clientY;
    if (mode === "pending") {
      const slop = TAP_SLOP[start.type] || 8;
      if (Math.hypot(e.clientX - start.x, e.clientY - start.y) <= slop) return;
      if (grabbed) {
        mode = "drag";
      } else {
        mode = "pan";
        handlers.moveStart();
        handlers.pan(e.clientX - start.x, e.clientY - start.y);
        return;
      }
    }
    if (mode === "drag") handlers.drag(grabbed, e.clientX, e.clientY);
    else if (mode === "pan") handlers.pan(dx, dy);
    else if (mode === "pinch" && pointers.size >= 2) {
      const now = two();
      if (pinch.d > 0 && now.d > 0) handlers.zoom(now.d / pinch.d, now.x, now.y);
      handlers.pan(now.x - pinch.x, now.y - pinch.y);
      pinch = now;
    }
  });

  const up = (e, cancelled) => {
    if (!pointers.has(e.pointerId)) return;
    pointers.delete(e.pointerId);
    if (mode === "pinch") {
      if (pointers.size === 1) { mode = "pan"; return; }   // the other finger pans on
      if (pointers.size === 0) { mode = null; handlers.moveEnd(); }
      return;
    }
    if (pointers.size > 0) return;
    const was = mode;
    mode = null;
    if (was === "pan") handlers.moveEnd();
    else if (was === "drag") {
      if (cancelled) handlers.cancelDrag(grabbed); else handlers.drop(grabbed, e.clientX, e.clientY);
    } else if (was === "pending" && !cancelled && e.timeStamp - start.t < TAP_MS) {
      const t = { x: e.clientX, y: e.clientY, t: e.timeStamp };
      if (lastTap && t.t - lastTap.t < DOUBLE_TAP_MS && Math.hypot(t.x - lastTap.x, t.y - lastTap.y) < DOUBLE_TAP_PX) {
        lastTap = null;
        handlers.doubleTap(t.x, t.y);
      } else {
        lastTap = t;
        handlers.tap(t.x, t.y);
      }
    }
    grabbed = null;
  };
  el.addEventListener("pointerup", (e) => up(e, false));
  el.addEventListener("pointercancel", (e) => up(e, true));

  // The wheel (and a trackpad's pinch, sent as ctrl+wheel) zooms about the pointer.
  el.addEventListener("wheel", (e) => {
    e.preventDefault();
    if (!wheelTimer) handlers.moveStart();
    const f = Math.exp(-e.deltaY * (e.ctrlKey ? 0.01 : 0.0018));
    handlers.zoom(f, e.clientX, e.clientY);
    clearTimeout(wheelTimer);
    wheelTimer = setTimeout(() => { wheelTimer = null; handlers.moveEnd(); }, 150);
  }, { passive: false });
}
