// One checkbox per layer of the drawing (bases, arcs, zones, ... docs/drawing.md).
import { $, el, on } from "./state.js";
import { svg } from "./view.js";

function buildLayers() {
  const root = svg();
  const box = $("layers");
  box.replaceChildren();
  if (!root) return;
  for (const g of root.querySelectorAll("g.layer")) {
    const label = el("label");
    const check = el("input");
    check.type = "checkbox";
    check.dataset.layer = g.id;
    check.checked = g.style.display !== "none";
    check.addEventListener("change", () => { g.style.display = check.checked ? "" : "none"; });
    label.append(check, " " + g.id);
    box.append(label);
  }
}

on("drawn", buildLayers);
