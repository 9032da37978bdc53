// The plan (or photo) view: the SVG drawing of the findings, where it is looked at
// (its viewBox), zoom and pan, and what the page draws on it (selected bases, the
// measured pair, the rotate handle, lit findings). Gestures are gestures.js's; this
// module only moves the view and answers "which base is under this point?".
//
// While a finger moves, the drawing is moved by a CSS transform of the <svg> (the
// compositor's work, nothing laid out again); the transform is folded into the viewBox
// when the gesture ends (commit). The viewBox always has the element's aspect ratio,
// so one scale maps user units to screen pixels.
import { state, $, emit } from "./state.js";
import { api } from "./api.js";

const NS = "http://www.w3.org/2000/svg";
let vb = null;              // the committed viewBox {x, y, w, h}
let pending = { k: 1, tx: 0, ty: 0 };
let geometry = new Map();   // svg_id -> {points: [[x, y]...], cx, cy} in user units
let toPlan = null;          // table mm -> plan user units (plan view only)
let drawingBox = null;      // the whole drawing's box, user units
let loadSeq = 0;

/** The <svg> shown, or null. */
export function svg() { return $("view").querySelector("svg"); }

function viewRect() { return $("view").getBoundingClientRect(); }

/** Screen pixels per user unit, the gesture under way included. */
export function scale() {
  const r = viewRect();
  return vb ? (r.width / vb.w) * pending.k : 1;
}

let labelSize = 0;           // the drawing's label size, user units

/** Labels under this many screen pixels are not drawn: unreadable, and costly to paint. */
export const MIN_LABEL_PX = 5;

function applyViewBox() {
  const root = svg();
  if (!root || !vb) return;
  root.setAttribute("viewBox", [vb.x, vb.y, vb.w, vb.h].join(" "));
  root.classList.toggle("labels-hidden", labelSize * (viewRect().width / vb.w) < MIN_LABEL_PX);
}

/** `box` ({x, y, w, h}, user units) grown to the view's aspect ratio about its centre. */
function aspectBox(box, margin = 1.02) {
  const r = viewRect();
  const aspect = r.width > 0 && r.height > 0 ? r.width / r.height : 1;
  let w = box.w * margin, h = box.h * margin;
  if (w / h < aspect) w = h * aspect; else h = w / aspect;
  return { x: box.x + box.w / 2 - w / 2, y: box.y + box.h / 2 - h / 2, w, h };
}

let fitArea = null;   // () => the screen rectangle the whole drawing is fitted into

/** Where `fit` puts the drawing: a function giving a screen rectangle (the part of the view a bottom sheet leaves). */
export function setFitArea(area) { fitArea = area; }

/** Shows the whole drawing, in the fit area when there is one. */
export function fit() {
  if (!drawingBox) return;
  resetPending();
  vb = aspectBox(drawingBox);
  const r = viewRect(), a = fitArea && fitArea();
  if (a && a.right - a.left > 40 && a.bottom - a.top > 40) {
    const s = 0.98 * Math.min((a.right - a.left) / drawingBox.w, (a.bottom - a.top) / drawingBox.h);
    const cx = drawingBox.x + drawingBox.w / 2, cy = drawingBox.y + drawingBox.h / 2;
    vb = { x: cx - ((a.left + a.right) / 2 - r.left) / s, y: cy - ((a.top + a.bottom) / 2 - r.top) / s, w: r.width / s, h: r.height / s };
  }
  applyViewBox();
  redrawHandles();
  emit("view");
}

function resetPending() {
  pending = { k: 1, tx: 0, ty: 0 };
  const root = svg();
  if (root) root.style.transform = "";
  $("view").classList.remove("moving");
}

/** Starts moving the drawing with a CSS transform (a gesture or the wheel). */
export function beginMove() { $("view").classList.add("moving"); }

function showPending() {
  const root = svg();
  if (root) root.style.transform = `matrix(${pending.k},0,0,${pending.k},${pending.tx},${pending.ty})`;
}

/** Moves the drawing by (dx, dy) screen pixels. */
export function panBy(dx, dy) {
  pending.tx += dx;
  pending.ty += dy;
  showPending();
}

/** Zooms by `f` about the screen point (clientX, clientY). */
export function zoomAt(f, clientX, clientY) {
  const r = viewRect();
  const cx = clientX - r.left, cy = clientY - r.top;
  const k = Math.min(Math.max(pending.k * f, 1e-3), 1e4);
  f = k / pending.k;
  pending.k = k;
  pending.tx = f * (pending.tx - cx) + cx;
  pending.ty = f * (pending.ty - cy) + cy;
  showPending();
}

/** Folds the gesture's transform into the viewBox: the drawing is laid out once. */
export function commit() {
  if (!vb) return;
  const { k, tx, ty } = pending;
  if (k !== 1 || tx !== 0 || ty !== 0) {
    const s = viewRect().width / vb.w;
    vb = { x: vb.x - tx / (k * s), y: vb.y - ty / (k * s), w: vb.w / k, h: vb.h / k };
    applyViewBox();
  }
  resetPending();
  redrawHandles();
  emit("view");
}

/** Zooms by `f` about the middle of the view, at once (the zoom buttons). */
export function zoomCentre(f) {
  const r = viewRect();
  zoomAt(f, r.left + r.width / 2, r.top + r.height / 2);
  commit();
}

/** The user-unit point under a screen point. */
export function toUser(clientX, clientY) {
  const r = viewRect();
  const s = r.width / vb.w;
  const px = (clientX - r.left - pending.tx) / pending.k, py = (clientY - r.top - pending.ty) / pending.k;
  return { x: vb.x + px / s, y: vb.y + py / s };
}

/** The screen point of a user-unit point. */
export function toScreen(x, y) {
  const r = viewRect();
  const s = r.width / vb.w;
  return { x: r.left + pending.tx + pending.k * (x - vb.x) * s, y: r.top + pending.ty + pending.k * (y - vb.y) * s };
}

// --- Loading -----------------------------------------------------------------------------

/** The drawing's URL for the current view. */
function url() { return state.view === "photo" ? "/api/photo.svg" : "/api/plan.svg"; }

/**
 * Loads the drawing of the current view; `keep`: keep looking where the view looks
 * (after a correction), else show the whole drawing; `fetched`: its text, already asked
 * for (the first load asks for everything at once).
 */
export async function load(keep, fetched) {
  const seq = ++loadSeq;
  const [text, css] = takeStyles(await (fetched || api(url())));
  if (seq !== loadSeq) return;
  const doc = new DOMParser().parseFromString(text, "image/svg+xml");
  const root = doc.documentElement;
  if (root.nodeName !== "svg") throw new Error("the drawing is not an SVG");
  const declared = (root.getAttribute("viewBox") || "").split(/[\s,]+/).map(Number);
  root.removeAttribute("width");
  root.removeAttribute("height");
  adoptStyles(css);
  const hidden = hiddenLayers();
  const adopted = document.adoptNode(root);
  if (state.view === "photo") decoratePhoto(adopted);
  resetPending();
  $("view").replaceChildren(adopted);
  drawingBox = declared.length === 4 && declared.every(Number.isFinite)
    ? { x: declared[0], y: declared[1], w: declared[2], h: declared[3] } : null;
  for (const id of hidden) { const g = adopted.getElementById(id); if (g) g.style.display = "none"; }
  readGeometry(adopted);
  const label = adopted.querySelector("text.unit-label") || adopted.querySelector("g.layer text");
  labelSize = label ? Number(label.getAttribute("font-size")) || 0 : 0;
  if (keep && vb) applyViewBox(); else fit();
  emit("drawn");
  // For the benchmarks (tests/browser/perf.mjs): when the first drawing is painted.
  if (!performance.getEntriesByName("vedette:plan-shown").length) {
    requestAnimationFrame(() => setTimeout(() => performance.mark("vedette:plan-shown")));
  }
}

function hiddenLayers() {
  const root = svg();
  return root ? Array.from(root.querySelectorAll("g.layer")).filter((g) => g.style.display === "none").map((g) => g.id) : [];
}

// The drawing's own <style> would be inline style under the page's policy: it is taken
// out of the text before parsing, and its rules adopted instead, each selector scoped to
// the view. Returns [the SVG without its styles, their rules].
function takeStyles(text) {
  let css = "", out = "", at = 0;
  for (;;) {
    const open = text.indexOf("<style", at);
    if (open < 0) break;
    const body = text.indexOf(">", open) + 1, close = text.indexOf("</style>", body);
    if (body <= 0 || close < 0) break;
    out += text.slice(at, open);
    css += text.slice(body, close) + "\n";
    at = close + "</style>".length;
  }
  return [out + text.slice(at), css];
}

function adoptStyles(css) {
  const rules = [];
  for (const rule of css.split("}")) {
    const open = rule.indexOf("{");
    if (open < 0) continue;
    const selectors = rule.slice(0, open).trim();
    if (!selectors || selectors.startsWith("@")) continue;
    rules.push(selectors.split(",").map((x) => "#view svg " + x.trim()).join(",") + rule.slice(open) + "}");
  }
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(rules.join("\n"));
  document.adoptedStyleSheets = [sheet];
}

// The photo view: the same drawing in the photo's pixels, over the photo itself.
function decoratePhoto(root) {
  const size = state.session && state.session.photo_size;
  if (!size) return;
  const image = document.createElementNS(NS, "image");
  for (const [k, v] of [["id", "photo"], ["x", 0], ["y", 0], ["width", size[0]], ["height", size[1]]]) image.setAttribute(k, v);
  image.setAttribute("href", "/api/photo?v=" + state.photoVersion);
  const background = root.querySelector("#background");
  if (background) background.replaceWith(image); else root.prepend(image);
  root.classList.add("photo-view");
}

// Every base's outline in user units, from its path (read once a drawing).
function readGeometry(root) {
  geometry = new Map();
  toPlan = null;
  for (const b of state.bases) {
    const e = root.getElementById(b.svg_id);
    if (!e) continue;
    const nums = (e.getAttribute("d") || e.getAttribute("points") || "").match(/-?\d+(\.\d+)?(e-?\d+)?/g) || [];
    const points = [];
    for (let i = 0; i + 1 < nums.length; i += 2) points.push([Number(nums[i]), Number(nums[i + 1])]);
    if (!points.length) continue;
    const cx = points.reduce((s, p) => s + p[0], 0) / points.length;
    const cy = points.reduce((s, p) => s + p[1], 0) / points.length;
    geometry.set(b.svg_id, { points, cx, cy });
    if (!toPlan && state.view === "plan") {
      // The plan is the table in mm, y flipped (docs/drawing.md).
      const ox = cx - b.x, oy = cy + b.y;
      toPlan = ([x, y]) => [x + ox, oy - y];
    }
  }
}

/** Table mm to plan user units (plan view), or null. */
export function tableToUser() { return toPlan; }

/** Plan user units to table mm (plan view; the inverse of tableToUser), or null. */
export function userToTable(p) {
  if (!toPlan) return null;
  const [ox, oy] = toPlan([0, 0]);
  return { x: p.x - ox, y: oy - p.y };
}

/** A base's outline and centre in user units, or null. */
export function baseGeometry(base) { return base ? geometry.get(base.svg_id) || null : null; }

function segmentDistance(p, a, b) {
  const dx = b[0] - a[0], dy = b[1] - a[1];
  const l2 = dx * dx + dy * dy;
  const t = l2 > 0 ? Math.max(0, Math.min(1, ((p.x - a[0]) * dx + (p.y - a[1]) * dy) / l2)) : 0;
  return Math.hypot(p.x - (a[0] + t * dx), p.y - (a[1] + t * dy));
}

function inside(p, pts) {
  let c = false;
  for (let i = 0, j = pts.length - 1; i < pts.length; j = i++) {
    const [xi, yi] = pts[i], [xj, yj] = pts[j];
    if ((yi > p.y) !== (yj > p.y) && p.x < ((xj - xi) * (p.y - yi)) / (yj - yi) + xi) c = !c;
  }
  return c;
}

/**
 * The base nearest the screen point within `px` screen pixels of its outline (a point
 * inside a base is at 0; among bases it is inside, the one whose centre is nearest),
 * or null.
 */
export function baseAt(clientX, clientY, px = 24) {
  if (!vb) return null;
  const p = toUser(clientX, clientY);
  const limit = px / scale();
  let best = null, bestD = Infinity;
  for (const b of state.bases) {
    const g = geometry.get(b.svg_id);
    if (!g) continue;
    let d;
    if (inside(p, g.points)) d = -1 / (1 + Math.hypot(p.x - g.cx, p.y - g.cy));
    else {
      d = Infinity;
      for (let i = 0; i < g.points.length; i++) d = Math.min(d, segmentDistance(p, g.points[i], g.points[(i + 1) % g.points.length]));
      if (d > limit) continue;
    }
    if (d < bestD) { bestD = d; best = b; }
  }
  return best;
}

// --- What the page draws on the drawing ------------------------------------------------------

/** Outlines A and B (widths in screen pixels, style.css). */
export function outlineSelection() {
  const root = svg();
  if (!root) return;
  for (const e of root.querySelectorAll(".selected-a, .selected-b")) e.classList.remove("selected-a", "selected-b");
  for (const [cls, base] of [["selected-a", state.a], ["selected-b", state.b]]) {
    const e = base && root.getElementById(base.svg_id);
    if (e) e.classList.add(cls);
  }
  redrawHandles();
}

function group(id) {
  const root = svg();
  let g = root.querySelector("#" + id);
  if (!g) {
    g = document.createElementNS(NS, "g");
    g.id = id;
    root.append(g);
  }
  return g;
}

function line(g, id, p, q, color, dash) {
  const l = document.createElementNS(NS, "line");
  l.id = id;
  for (const [k, v] of [["x1", p[0]], ["y1", p[1]], ["x2", q[0]], ["y2", q[1]], ["stroke", color], ["stroke-width", 3]]) l.setAttribute(k, v);
  l.setAttribute("vector-effect", "non-scaling-stroke");
  if (dash) l.setAttribute("stroke-dasharray", "8 5");
  g.append(l);
}

/** Draws the measured pair (the card's measure and los) on the plan; clears it with null. */
export function drawPair(card) {
  const root = svg();
  if (!root) return;
  const old = root.querySelector("#page-pair");
  if (old) old.remove();
  // The pair is in table mm; the photo view is in the photo's pixels: there the card
  // alone tells the answer.
  if (!card || !toPlan) return;
  const g = group("page-pair");
  const { measure: m, los } = card;
  if (los && los.examined) line(g, "pair-sight", toPlan(los.examined.from), toPlan(los.examined.to), los.visible ? "#009E73" : "#D55E00", true);
  line(g, "pair-measure", toPlan(m.from), toPlan(m.to), "#000", false);
  (los && los.blocked_by || []).filter((c) => Array.isArray(c.at)).forEach((c, i) => {
    const [x, y] = toPlan(c.at);
    const ring = document.createElementNS(NS, "circle");
    ring.id = "pair-cut-" + i;
    for (const [k, v] of [["cx", x], ["cy", y], ["r", 6], ["fill", "none"], ["stroke", "#D55E00"], ["stroke-width", 3]]) ring.setAttribute(k, v);
    ring.setAttribute("vector-effect", "non-scaling-stroke");
    g.append(ring);
  });
}

/**
 * Draws the places of units held back (held.js): each {key, label, mm, px}, its bases'
 * corners in table mm and in the photo's pixels; dashed outlines, numbered. Replaces
 * what was drawn before (none: clears it).
 */
export function drawHeld(places) {
  const root = svg();
  if (!root) return;
  const old = root.querySelector("#page-held");
  if (old) old.remove();
  const to = state.view === "photo" ? (p) => p : toPlan;
  const drawn = to ? places.map((p) => ({ ...p, bases: (state.view === "photo" ? p.px : p.mm) || [] })).filter((p) => p.bases.length) : [];
  if (!drawn.length) return;
  const g = group("page-held");
  const outlines = drawn.map((p) => p.bases.map((corners) => corners.map(to)));
  const centroid = (pts) => pts.reduce((a, p) => [a[0] + p[0] / pts.length, a[1] + p[1] / pts.length], [0, 0]);
  const centres = outlines.map((o) => centroid(o.flat()));
  drawn.forEach((place, i) => {
    const outline = document.createElementNS(NS, "g");
    outline.setAttribute("class", "page-held");
    outline.dataset.place = place.key;
    for (const cls of ["halo", "dashes"]) {
      for (const pts of outlines[i]) {
        const poly = document.createElementNS(NS, "polygon");
        poly.setAttribute("points", pts.map((p) => p.join(",")).join(" "));
        poly.setAttribute("class", cls);
        poly.setAttribute("vector-effect", "non-scaling-stroke");
        outline.append(poly);
      }
    }
    // The label at the corner farthest from the other places (places overlap: their
    // labels would), sized like a base's short side.
    const pts = outlines[i].flat();
    const others = centres.filter((_, j) => j !== i);
    const away = others.length ? centroid(others) : centres[i];
    const far = pts.reduce((best, p) => (Math.hypot(p[0] - away[0], p[1] - away[1]) > Math.hypot(best[0] - away[0], best[1] - away[1]) ? p : best), pts[0]);
    const side = Math.min(...outlines[i][0].map((p, k, q) => Math.hypot(p[0] - q[(k + 1) % 4][0], p[1] - q[(k + 1) % 4][1])));
    const size = Math.max(labelSize * 1.5, side * 0.9);
    const out = [far[0] - centres[i][0], far[1] - centres[i][1]];
    const len = Math.hypot(out[0], out[1]) || 1;
    const text = document.createElementNS(NS, "text");
    text.setAttribute("x", far[0] + (out[0] / len) * size * 0.8);
    text.setAttribute("y", far[1] + (out[1] / len) * size * 0.8 + size * 0.35);
    text.setAttribute("font-size", size);
    text.setAttribute("text-anchor", "middle");
    text.textContent = place.label;
    outline.append(text);
    g.append(outline);
  });
}

/** Marks a point the page asked a tap for (absent.js), user units; null clears it. */
export function drawMark(p) {
  const root = svg();
  if (!root) return;
  const old = root.querySelector("#page-mark");
  if (old) old.remove();
  if (!p) return;
  const g = group("page-mark");
  const r = 10 / scale();
  for (const cls of ["halo", "ring"]) {
    const c = document.createElementNS(NS, "circle");
    c.setAttribute("cx", p.x);
    c.setAttribute("cy", p.y);
    c.setAttribute("r", r);
    c.setAttribute("class", cls);
    c.setAttribute("vector-effect", "non-scaling-stroke");
    g.append(c);
  }
}

/** The box (user units) of the held places drawn, or null. */
export function heldBox() {
  const g = svg() && svg().querySelector("#page-held");
  return g ? unionBoxes([g.getBBox()]) : null;
}

/** Lights (or not) one held place drawn by drawHeld. */
export function lightHeld(key, on) {
  const root = svg();
  if (!root) return;
  for (const e of root.querySelectorAll(".page-held")) if (e.dataset.place === key) e.classList.toggle("lit", on);
}

/** The smallest base, screen pixels across, that gets a rotate handle. */
export const MIN_HANDLE_BASE_PX = 24;

/** Where base A's rotate handle is (user units), or null: in front of it, 40 px out. */
export function handlePoint() {
  const g = baseGeometry(state.a);
  if (!g || !toPlan || !state.a) return null;
  const h = (state.a.heading * Math.PI) / 180;
  // Heading: counter-clockwise from +x on the table; the plan's y points down.
  const half = Math.max(...g.points.map((p) => Math.hypot(p[0] - g.cx, p[1] - g.cy)));
  // A base too small on screen to be dragged has no handle (it would hide its
  // neighbours): zoom in to turn it.
  if (2 * half * scale() < MIN_HANDLE_BASE_PX) return null;
  const r = half + 40 / scale();
  return { x: g.cx + r * Math.cos(h), y: g.cy - r * Math.sin(h), cx: g.cx, cy: g.cy };
}

/** Draws (or removes) base A's rotate handle: plan view, a base of A selected. */
export function redrawHandles() {
  const root = svg();
  if (!root) return;
  const old = root.querySelector("#page-handles");
  if (old) old.remove();
  const p = handlePoint();
  if (!p) return;
  const g = group("page-handles");
  const arm = document.createElementNS(NS, "line");
  for (const [k, v] of [["x1", p.cx], ["y1", p.cy], ["x2", p.x], ["y2", p.y]]) arm.setAttribute(k, v);
  arm.setAttribute("class", "page-handle-arm");
  const knob = document.createElementNS(NS, "circle");
  knob.id = "rotate-handle";
  for (const [k, v] of [["cx", p.x], ["cy", p.y], ["r", 12 / scale()]]) knob.setAttribute(k, v);
  knob.setAttribute("class", "page-handle");
  g.append(arm, knob);
}

/** Shows base A moved by (du, dv) user units and turned by `turn` degrees (clockwise on screen), while dragged. */
export function previewBase(base, du, dv, turn) {
  const root = svg(), g = baseGeometry(base);
  if (!root || !g) return;
  const t = du || dv || turn ? `translate(${du} ${dv}) rotate(${turn} ${g.cx} ${g.cy})` : null;
  for (const id of [base.svg_id, base.svg_id + "-facing"]) {
    const e = root.getElementById(id);
    if (!e) continue;
    if (t) { e.setAttribute("transform", t); e.classList.add("page-ghost"); }
    else { e.removeAttribute("transform"); e.classList.remove("page-ghost"); }
  }
  const handles = root.querySelector("#page-handles");
  if (handles) { if (t) handles.setAttribute("transform", t); else handles.removeAttribute("transform"); }
}

/** Outlines the bases named (a base, or every base of a unit named). */
export function outlineNames(names, on) {
  const root = svg();
  if (!root) return;
  const set = new Set(names);
  for (const b of state.bases) {
    if (!set.has(b.base) && !set.has(b.unit)) continue;
    const e = root.getElementById(b.svg_id);
    if (e) e.classList.toggle("hovered", on);
  }
}

/** Lights the elements of finding `key` and the bases it names; dims the others' (off: back as drawn). */
export function lightFinding(key, names, on) {
  const root = svg();
  if (!root) return;
  root.classList.toggle("finding-focus", on);
  for (const e of root.querySelectorAll("[data-finding]")) {
    e.classList.toggle("finding-on", on && e.getAttribute("data-finding").split(/\s+/).includes(key));
  }
  outlineNames(names, on);
}

/** The box (user units) of the lit finding's elements and the named bases, or null. */
export function litBox() {
  const root = svg();
  if (!root) return null;
  const boxes = Array.from(root.querySelectorAll(".finding-on, .hovered")).map((e) => e.getBBox());
  return unionBoxes(boxes);
}

/** The box of bases (records), user units, or null. */
export function basesBox(bases) {
  const boxes = [];
  for (const b of bases) {
    const g = baseGeometry(b);
    if (!g) continue;
    const xs = g.points.map((p) => p[0]), ys = g.points.map((p) => p[1]);
    boxes.push({ x: Math.min(...xs), y: Math.min(...ys), width: Math.max(...xs) - Math.min(...xs), height: Math.max(...ys) - Math.min(...ys) });
  }
  return unionBoxes(boxes);
}

function unionBoxes(boxes) {
  boxes = boxes.filter((b) => b && Number.isFinite(b.x) && (b.width > 0 || b.height > 0));
  if (!boxes.length) return null;
  const x0 = Math.min(...boxes.map((b) => b.x)), y0 = Math.min(...boxes.map((b) => b.y));
  const x1 = Math.max(...boxes.map((b) => b.x + b.width)), y1 = Math.max(...boxes.map((b) => b.y + b.height));
  return { x: x0, y: y0, w: x1 - x0, h: y1 - y0 };
}

/**
 * Brings `box` (user units) to the middle of `area` (a screen rectangle), zoomed in
 * until it spans `share` of the area's width or height (never zoomed out).
 */
export function focus(box, area, share = 0.5) {
  if (!box || !vb) return;
  const a = toScreen(box.x, box.y), b = toScreen(box.x + box.w, box.y + box.h);
  const f = Math.min(share * (area.right - area.left) / Math.max(b.x - a.x, 1), share * (area.bottom - area.top) / Math.max(b.y - a.y, 1));
  if (f > 1) zoomAt(f, (a.x + b.x) / 2, (a.y + b.y) / 2);
  const c = toScreen(box.x + box.w / 2, box.y + box.h / 2);
  panBy((area.left + area.right) / 2 - c.x, (area.top + area.bottom) / 2 - c.y);
  commit();
}

/**
 * Makes `box` (user units) visible inside `area` (a screen rectangle: the part of the
 * view the panel leaves), moving (and if it does not fit, zooming out) only when it is
 * not already in it.
 */
export function reveal(box, area, margin = 24) {
  if (!box || !vb) return;
  const a = toScreen(box.x, box.y), b = toScreen(box.x + box.w, box.y + box.h);
  const inArea = a.x >= area.left + margin && b.x <= area.right - margin && a.y >= area.top + margin && b.y <= area.bottom - margin;
  if (inArea) return;
  const s = scale();
  const fits = (b.x - a.x) <= area.right - area.left - 2 * margin && (b.y - a.y) <= area.bottom - area.top - 2 * margin;
  if (!fits) {
    const f = Math.min((area.right - area.left - 2 * margin) / (box.w * s), (area.bottom - area.top - 2 * margin) / (box.h * s));
    zoomAt(f, (a.x + b.x) / 2, (a.y + b.y) / 2);
  }
  const c = toScreen(box.x + box.w / 2, box.y + box.h / 2);
  panBy((area.left + area.right) / 2 - c.x, (area.top + area.bottom) / 2 - c.y);
  commit();
}

/** Keeps the view's width in user units and its centre when the window changes size (a phone turned). */
window.addEventListener("resize", () => {
  if (!vb) return;
  commit();
  const r = viewRect();
  if (r.width <= 0 || r.height <= 0) return;
  const h = vb.w * (r.height / r.width);
  vb = { x: vb.x, y: vb.y + vb.h / 2 - h / 2, w: vb.w, h };
  applyViewBox();
});
