// Facings the photo did not show (issue 37): a fitted base whose front edge rests on
// priors alone ("facing": "assumed" in the table) is drawn dashed, and when its unit is A
// the card says so (the phone's sheet opened half way) and offers, in one tap each, to turn the unit round (a "facing"
// correction with flip) or to keep it as it stands (without). Either is one entry of the
// corrections file, undone like the others; after it the unit's facing is no longer
// assumed (docs/serve.md).
import { state, $, on } from "./state.js";
import { correct } from "./corrections.js";
import { openAtLeast } from "./sheet.js";

/** Marks every base whose facing is assumed on the drawing (plan or photo). */
function markAssumed() {
  const root = $("view").querySelector("svg");
  if (!root) return;
  for (const b of state.bases) {
    const e = root.getElementById(b.svg_id);
    if (e) e.classList.toggle("facing-assumed", !!b.facing_assumed);
  }
}

/** Shows the offer when A's unit has a base whose facing is assumed (true then). */
function showOffer() {
  const a = state.a;
  const assumed = !!a && state.bases.some((b) => b.unit === a.unit && b.facing_assumed);
  $("facing-offer").hidden = !assumed;
  if (!assumed) return false;
  // A unit laid out by hand (absent.js) was not fitted: the photo showed nothing of it.
  const fitted = state.bases.some((b) => b.unit === a.unit && b.fitted);
  $("facing-words").textContent = a.unit + (fitted
    ? ": facing assumed (the photo does not show which edge is its front; it faces the enemy's table edge)."
    : ": facing assumed (laid out by hand facing the enemy's table edge).");
  $("c-facing-flip").textContent = "Turn " + a.unit + " round (180°)";
  return true;
}

function settle(flip) {
  return () => { if (state.a) correct({ op: "facing", unit: state.a.unit, flip }); };
}

$("c-facing-flip").addEventListener("click", settle(true));
$("c-facing-keep").addEventListener("click", settle(false));
on("loaded", () => { markAssumed(); showOffer(); });
on("drawn", markAssumed);
on("selection", () => {
  if (!showOffer()) return;
  // The offer is in the card, first in the panel: in sight as the sheet opens.
  $("panel-body").scrollTop = 0;
  openAtLeast("half");
});
