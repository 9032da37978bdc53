// The findings in sentences (`/api/findings`, written once on the server by
// report::sentences): *All findings* grouped by kind with a search box, and the
// selected unit's own findings first (its fire, its assaults, its command), then the
// findings about it (who fires at it, who assaults it). Hovering a sentence (a mouse)
// lights its geometry on the view; tapping one keeps it lit and brings it into sight.
import { state, $, el, on, closeMark } from "./state.js";
import * as view from "./view.js";
import { uncovered } from "./sheet.js";

let pinned = null;   // the key of the finding kept lit, or null

function light(f, on_) { view.lightFinding(f.key, f.names, on_); }

function item(f) {
  const d = el("div", f.text, "finding");
  d.dataset.key = f.key;
  d.tabIndex = 0;
  if (f.close_call) d.append(closeMark());
  d.addEventListener("mouseenter", () => { if (!pinned) { d.classList.add("active"); light(f, true); } });
  d.addEventListener("mouseleave", () => { if (!pinned) { d.classList.remove("active"); light(f, false); } });
  const toggle = () => {
    const was = pinned === f.key;
    unpin();
    if (was) return;
    pinned = f.key;
    for (const x of document.querySelectorAll(`.finding[data-key="${CSS.escape(f.key)}"]`)) x.classList.add("active");
    light(f, true);
    view.reveal(view.litBox(), uncovered());
  };
  d.addEventListener("click", toggle);
  d.addEventListener("keydown", (e) => { if (e.key === "Enter") toggle(); });
  return d;
}

function unpin() {
  if (!pinned) return;
  const f = state.findings.find((x) => x.key === pinned);
  pinned = null;
  for (const x of document.querySelectorAll(".finding.active")) x.classList.remove("active");
  if (f) light(f, false);
}

/** Lists every finding, grouped by kind, those matching the search box. */
export function showAllFindings() {
  const box = $("all-findings");
  const query = $("search").value.trim().toLowerCase();
  const found = state.findings.filter((f) => !query || f.text.toLowerCase().includes(query) || f.group.toLowerCase().includes(query));
  if (!state.findings.length) { box.replaceChildren(el("div", "No finding.")); return; }
  if (!found.length) { box.replaceChildren(el("div", "No finding says \"" + query + "\".")); return; }
  const groups = new Map();
  for (const f of found) {
    if (!groups.has(f.group)) groups.set(f.group, []);
    groups.get(f.group).push(f);
  }
  const out = [];
  for (const [name, list] of groups) {
    const g = el("section", null, "findings-group");
    g.dataset.group = name;
    g.append(el("h3", name + " (" + list.length + ")"), ...list.map(item));
    out.push(g);
  }
  box.replaceChildren(...out);
}

/** Lists the selected unit's findings: its own, then those about it. */
export function showUnitFindings() {
  const a = state.a;
  $("unit").hidden = !a;
  if (!a) return;
  $("unit-name").textContent = a.unit;
  const own = state.findings.filter((f) => f.by.includes(a.unit));
  const about = state.findings.filter((f) => !f.by.includes(a.unit) && f.about.includes(a.unit));
  const box = $("unit-findings");
  const out = [];
  if (own.length) out.push(el("h3", "Its own"), ...own.map(item));
  if (about.length) out.push(el("h3", "About it"), ...about.map(item));
  if (!out.length) out.push(el("div", "No finding names " + a.unit + "."));
  box.replaceChildren(...out);
}

$("search").addEventListener("input", showAllFindings);
on("loaded", () => { pinned = null; showAllFindings(); showUnitFindings(); });
on("selection", showUnitFindings);
