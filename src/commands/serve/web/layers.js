// One checkbox per layer of the drawing (bases, arcs, zones, ... docs/drawing.md), and
// one for the words and constructions the clean plan leaves to the lit finding.
import { state, $, el, on } from "./state.js";
import { svg } from "./view.js";

/** Whether every label and construction is shown (the clean plan when false). */
let everything = false;

function checkbox(text, checked, change) {
  const label = el("label");
  const check = el("input");
  check.type = "checkbox";
  check.checked = checked;
  check.addEventListener("change", () => change(check.checked));
  label.append(check, " " + text);
  return { label, check };
}

function buildLayers() {
  const root = svg();
  const box = $("layers");
  box.replaceChildren();
  if (!root) return;
  root.classList.toggle("show-all", everything);
  // Over a photo the legend stands at the photo's corner at the photo's scale: a blank
  // box over the table on a phone, its words too small to read. Off there until its
  // checkbox turns it on (the plan keeps it, beside the table).
  const legend = root.querySelector("g#legend.layer");
  if (legend && state.view === "photo") legend.style.display = "none";
  const all = checkbox("every label and construction", everything, (v) => {
    everything = v;
    root.classList.toggle("show-all", v);
  });
  all.check.id = "show-all";
  box.append(all.label);
  for (const g of root.querySelectorAll("g.layer")) {
    const one = checkbox(g.id, g.style.display !== "none", (v) => { g.style.display = v ? "" : "none"; });
    one.check.dataset.layer = g.id;
    box.append(one.label);
  }
}

on("drawn", buildLayers);
