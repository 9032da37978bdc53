// What the page knows, and who is told when it changes: one object, one small event
// bus. Modules read `state` and listen with `on`; nothing else is global.
//
// Events: "loaded" (bases, findings and the drawing are new), "selection" (A or B
// changed), "sheet" (the panel moved), "error" (a message for #error).

/** The page's state. */
export const state = {
  /** Every base of the table (`/api/bases`): {base, unit, side, svg_id, x, y, heading, facing_assumed, fitted}. */
  bases: [],
  /** Every finding in a sentence (`/api/findings`). */
  findings: [],
  /** Selected base A and B (records of `bases`), or null. */
  a: null,
  b: null,
  /** The server's session (`/api/session`): mode, photo size, scan summary. */
  session: null,
  /** "plan" or "photo". */
  view: "plan",
  /** Bumped when a new photo is scanned (the photo's URL changes with it). */
  photoVersion: 0,
  /** Stored names of the uploaded photos of the empty table the next photos are scanned against. */
  emptyTables: [],
};

const listeners = new Map();

/** Calls `fn(detail)` on every `event`. */
export function on(event, fn) {
  if (!listeners.has(event)) listeners.set(event, []);
  listeners.get(event).push(fn);
}

/** Tells every listener of `event`. */
export function emit(event, detail) {
  for (const fn of listeners.get(event) || []) fn(detail);
}

/** Shows `message` in #error (empty: clears it). */
export function showError(message) {
  emit("error", message || "");
}

/** `document.getElementById`. */
export const $ = (id) => document.getElementById(id);

/** A new element with its text. */
export function el(tag, text, className) {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = text;
  if (className) e.className = className;
  return e;
}

/** The "close call" mark beside a verdict too close to call. */
export function closeMark() {
  const m = el("span", "close call", "mark-close");
  m.title = "too close to call: the margin is within two sigma of the scan's uncertainty";
  return m;
}
