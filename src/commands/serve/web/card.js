// The verdict card: once A and B are selected, the answer in words, large, first
// (distance, sight, and for a battery and its target or an attacker and a defender the
// rules' answers), each line with its rule section and a mark when too close to call.
// Every word is the server's (`/api/card`: the caption model of vedette-draw, the same
// code as the caption band of `vedette explain --svg`); the card only lays them out.
// *Share* makes it a picture (the server's `explain --svg` drawing, its caption band
// included, rasterised in a canvas) and hands it to the phone's share sheet, or
// downloads it.
import { state, $, el, on, closeMark, showError } from "./state.js";
import { api } from "./api.js";
import * as view from "./view.js";

let shown = null;   // the card shown: the server's answer
let asked = 0;

/** Asks for the card of the selected pair and shows it (or hides it without a pair). */
export async function updateCard() {
  const box = $("card");
  box.hidden = !state.a;
  $("card-share").hidden = true;
  if (!state.a || !state.b) {
    shown = null;
    $("card-headline").textContent = state.a ? "A: " + state.a.unit + ". Tap a base of another unit for the verdict." : "";
    $("card-lines").replaceChildren();
    view.drawPair(null);
    return;
  }
  const pair = { a: state.a.unit, b: state.b.unit };
  const seq = ++asked;
  $("card-headline").textContent = pair.a + " → " + pair.b + ": measuring...";
  $("card-headline").classList.remove("close");
  $("card-lines").replaceChildren();
  try {
    const card = await api("/api/card", pair);
    if (seq !== asked) return;
    shown = card;
    render(card);
    view.drawPair(card);
    // For the benchmarks (tests/browser/perf.mjs): the card painted after a tap.
    requestAnimationFrame(() => setTimeout(() => performance.mark("vedette:card")));
  } catch (e) {
    if (seq !== asked) return;
    $("card-headline").textContent = "";
    showError(e.message);
  }
}

function render(card) {
  const head = $("card-headline");
  head.textContent = card.headline;
  head.classList.toggle("close", card.close_call);
  const lines = card.lines.map((l) => {
    const li = el("li", l.question + " " + l.answer);
    li.dataset.topic = l.topic;
    if (l.section) li.append(" ", el("span", "(" + l.section + ")", "section"));
    if (l.close_call) { li.append(closeMark()); li.classList.add("close"); }
    return li;
  });
  $("card-lines").replaceChildren(...lines);
  $("card-share").hidden = false;
}

/** The pair's picture (its caption band on top) as a PNG, drawn in a canvas. */
async function picture(card) {
  const svgText = await api("/api/card.svg", { a: state.a.unit, b: state.b.unit });
  const doc = new DOMParser().parseFromString(svgText, "image/svg+xml");
  const vbox = (doc.documentElement.getAttribute("viewBox") || "0 0 800 600").split(/[\s,]+/).map(Number);
  // 1600 px wide: readable in a chat, far under a chat's size limits.
  const width = 1600, height = Math.round((vbox[3] * width) / vbox[2]);
  doc.documentElement.setAttribute("width", width);
  doc.documentElement.setAttribute("height", height);
  const blob = new Blob([new XMLSerializer().serializeToString(doc)], { type: "image/svg+xml" });
  const url = URL.createObjectURL(blob);
  try {
    const img = new Image();
    img.src = url;
    await img.decode();
    const canvas = document.createElement("canvas");
    canvas.width = width;
    canvas.height = height;
    const ctx = canvas.getContext("2d");
    ctx.fillStyle = "#fff";
    ctx.fillRect(0, 0, width, height);
    ctx.drawImage(img, 0, 0, width, height);
    return await new Promise((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error("the picture could not be made"))), "image/png"));
  } finally {
    URL.revokeObjectURL(url);
  }
}

/** Shares the card's picture (the Web Share API with a file), or downloads it. */
async function share() {
  if (!shown) return;
  const card = shown;
  const name = ("vedette-" + state.a.unit + "-" + state.b.unit + ".png").replace(/[^A-Za-z0-9._-]/g, "_");
  try {
    const png = await picture(card);
    const file = new File([png], name, { type: "image/png" });
    if (navigator.canShare && navigator.canShare({ files: [file] })) {
      await navigator.share({ files: [file], title: card.pair, text: card.headline });
      return;
    }
    const a = document.createElement("a");
    a.href = URL.createObjectURL(png);
    a.download = name;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 10000);
  } catch (e) {
    if (e && e.name === "AbortError") return;   // the share sheet closed
    showError("share: " + e.message);
  }
}

$("card-share").addEventListener("click", share);
on("drawn", () => { if (shown) view.drawPair(shown); });
