// Twins the photo cannot tell apart (issue 37): untagged units of one side, kind and
// layout whose declared paints do not differ (`ambiguous-unit` in the scan report; the
// scan summary lists them as groups). When A's unit is one of them, the card says so and
// offers, one tap each, "It is X": a "swap" correction that gives A's formation to X and
// X's formation to A's unit (their bases exchanged, each unit keeping its id). A stays
// on the same formation, under its new name. Undone like any correction (docs/serve.md).
import { state, $, el, on } from "./state.js";
import { correct } from "./corrections.js";
import { openAtLeast } from "./sheet.js";

/** The units on the table that the photo cannot tell from `unit`, sorted. */
function twinsOf(unit) {
  const groups = (state.session && state.session.scan && state.session.scan.twins) || [];
  const onTable = new Set(state.bases.map((b) => b.unit));
  const found = new Set();
  for (const group of groups) {
    if (!group.includes(unit)) continue;
    for (const u of group) if (u !== unit && onTable.has(u)) found.add(u);
  }
  return [...found].sort();
}

/** Gives A's formation to `other` (and `other`'s to A's unit); A follows its formation. */
async function swapWith(other) {
  const a = state.a;
  if (!a) return;
  const renamed = { ...a, unit: other, base: other + a.base.slice(a.unit.length) };
  state.a = renamed;
  state.b = null;
  if (!(await correct({ op: "swap", unit: a.unit, with: other }))) state.a = a;
}

/** Shows the offer when A's unit has twins on the table (true then). */
function showOffer() {
  const a = state.a;
  const twins = a ? twinsOf(a.unit) : [];
  $("twins-offer").hidden = twins.length === 0;
  if (!twins.length) return false;
  $("twins-words").textContent = "The photo cannot tell " + a.unit + " from " + twins.join(", ") +
    " (same side, kind, formation and paints). If this formation is another of them:";
  const buttons = $("twins-buttons");
  buttons.replaceChildren();
  for (const t of twins) {
    const b = el("button", "It is " + t);
    b.type = "button";
    b.title = "gives this formation to " + t + " and " + t + "'s to " + a.unit;
    b.addEventListener("click", () => swapWith(t));
    buttons.append(b);
  }
  return true;
}

on("loaded", showOffer);
on("selection", () => {
  if (!showOffer()) return;
  $("panel-body").scrollTop = 0;
  openAtLeast("half");
});
