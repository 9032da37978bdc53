// The verdict card: once A and B are selected, the answer in words, large, first
// (distance, sight, and for a battery and its target or an attacker and a defender the
// rules' answers), each line with its rule section and a mark when too close to call.
// Every word is the server's (`/api/card`: the verbs' own texts); the card only lays
// them out. *Share* makes it a picture (the server's `explain --svg` drawing with the
// card's lines above it) and hands it to the phone's share sheet, or downloads it.
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
  head.replaceChildren(card.a + " → " + card.b + ": " + card.headline);
  if (card.close_call) head.append(closeMark());
  const lines = card.lines.map((l) => {
    const li = el("li", l.text);
    if (l.section) li.append(" ", el("span", "(" + l.section + ")", "section"));
    if (l.close_call) { li.append(closeMark()); li.classList.add("close"); }
    return li;
  });
  $("card-lines").replaceChildren(...lines);
  $("card-share").hidden = false;
}

/** The card as a PNG: the pair's picture under the card's lines, drawn in a canvas. */
async function picture(card) {
  const svgText = await api("/api/card.svg", { a: card.a, b: card.b });
  const doc = new DOMParser().parseFromString(svgText, "image/svg+xml");
  const vbox = (doc.documentElement.getAttribute("viewBox") || "0 0 800 600").split(/[\s,]+/).map(Number);
  const width = 1200, scale = width / vbox[2], height = Math.round(vbox[3] * scale);
  doc.documentElement.setAttribute("width", width);
  doc.documentElement.setAttribute("height", height);
  const blob = new Blob([new XMLSerializer().serializeToString(doc)], { type: "image/svg+xml" });
  const url = URL.createObjectURL(blob);
  try {
    const img = new Image();
    img.src = url;
    await img.decode();
    const pad = 24, lineH = 30, lines = [card.a + " → " + card.b + ": " + card.headline + (card.close_call ? "  CLOSE CALL" : "")];
    for (const l of card.lines) lines.push(l.text + (l.section ? " (" + l.section + ")" : "") + (l.close_call ? "  CLOSE CALL" : ""));
    const canvas = document.createElement("canvas");
    const ctx = canvas.getContext("2d");
    ctx.font = "22px sans-serif";
    // The lines wrapped to the picture's width.
    const wrapped = [];
    lines.forEach((text, i) => {
      let row = "";
      for (const word of text.split(" ")) {
        const next = row ? row + " " + word : word;
        ctx.font = (i === 0 ? "bold 28px" : "22px") + " sans-serif";
        if (ctx.measureText(next).width > width - 2 * pad && row) { wrapped.push([row, i]); row = word; } else row = next;
      }
      wrapped.push([row, i]);
    });
    canvas.width = width;
    canvas.height = height + 2 * pad + wrapped.length * lineH + 8;
    ctx.fillStyle = "#fff";
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    ctx.fillStyle = "#000";
    ctx.textBaseline = "top";
    wrapped.forEach(([text, i], row) => {
      ctx.font = (i === 0 ? "bold 28px" : "22px") + " sans-serif";
      ctx.fillText(text, pad, pad + row * lineH + (i === 0 ? 0 : 8));
    });
    ctx.drawImage(img, 0, canvas.height - height);
    return await new Promise((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error("the picture could not be made"))), "image/png"));
  } finally {
    URL.revokeObjectURL(url);
  }
}

/** Shares the card's picture (the Web Share API with a file), or downloads it. */
async function share() {
  if (!shown) return;
  const card = shown;
  const name = ("vedette-" + card.a + "-" + card.b + ".png").replace(/[^A-Za-z0-9._-]/g, "_");
  try {
    const png = await picture(card);
    const file = new File([png], name, { type: "image/png" });
    if (navigator.canShare && navigator.canShare({ files: [file] })) {
      await navigator.share({ files: [file], title: card.a + " → " + card.b, text: card.headline });
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
