// "Take photo": the phone's camera (or photos chosen from its library) uploaded at full
// resolution with the upload's progress, the scan's stages while it runs, then the
// summary; "scanned" tells the page to show the new table over its photo. Several
// photos are photos of one table, merged by the scan. "Photograph the empty table":
// photos of the empty table uploaded and kept for the next scans (one per photo, in
// order: `vedette scan --background`), for armies without tags.
import { state, $, el, emit } from "./state.js";
import { api, sendPhoto } from "./api.js";
import { openAtLeast } from "./sheet.js";

function line(text, cls, box = "scan-status") {
  const d = el("div", text, cls);
  $(box).append(d);
  return d;
}

/** Shows the server's scan summary of the session `s`; `replaced`: the tables it replaced. */
export function showScanSummary(s, replaced = []) {
  const r = s.scan;
  const box = el("div", null, "summary");
  const against = r.backgrounds && r.backgrounds.length ? " against the empty table " + r.backgrounds.join(", ") : "";
  box.append(el("div", "Scanned " + r.photos.join(", ") + against + ": " + r.bases + " bases of " + r.units + " units from " + r.tags_seen + " tags (" + (r.scan_ms / 1000).toFixed(1) + " s)."));
  const missing = r.missing_tags.map((m) => "tag " + m.id + " (" + m.unit + " base " + m.base + ")");
  box.append(el("div", "Missing tags: " + (missing.length ? missing.join(", ") : "none") + "."));
  box.append(el("div", "Close calls: " + s.close_calls + "."));
  for (const i of r.issues) box.append(el("div", "- " + i));
  box.append(el("div", "Table " + s.table + ", corrections kept in " + s.corrections + "."));
  for (const old of replaced) box.append(el("div", "The previous table stays in " + old + "."));
  $("scan-status").append(box);
}

/** Uploads `files` one after another, their progress in `box`; gives their stored names. */
async function send(files, box) {
  const limit = state.session ? state.session.upload_limit : Infinity;
  const stored = [];
  for (const [i, f] of files.entries()) {
    if (f.size > limit) throw new Error(f.name + ": " + (f.size / 1048576).toFixed(1) + " MiB, more than the " + (limit / 1048576).toFixed(0) + " MiB an upload may have");
    const text = line("uploading " + f.name + " (" + (i + 1) + " of " + files.length + ")...", "progress", box);
    const bar = el("progress");
    bar.max = 1;
    bar.value = 0;
    $(box).append(bar);
    const answer = await sendPhoto(f, (x) => { bar.value = x; text.textContent = "uploading " + f.name + ": " + Math.round(100 * x) + "%"; });
    bar.remove();
    text.textContent = "uploaded " + f.name + " (" + (f.size / 1048576).toFixed(1) + " MiB) as " + answer.upload;
    stored.push(answer.upload);
  }
  return stored;
}

/** The section of the empty table: shown when the server scans; what the next scans use. */
export function showEmptyTable() {
  $("empty-table").hidden = !(state.session && state.session.can_scan);
  $("empty-status").replaceChildren();
  const kept = state.emptyTables;
  $("forget-empty").hidden = !kept.length;
  if (!kept.length) return;
  $("empty-table").open = true;
  const n = kept.length;
  line("Empty table: " + kept.join(", ") + ". " + (n === 1 ? "The next photo is scanned against it." : "The next " + n + " photos taken together are scanned against them, in order."), "kept", "empty-status");
}

async function uploadEmpty(files) {
  $("empty-status").replaceChildren();
  if (!files.length) return;
  openAtLeast("half");
  try { state.emptyTables = await send(files, "empty-status"); }
  catch (e) { line(e.message, "error", "empty-status"); return; }
  showEmptyTable();
  $("empty-table").scrollIntoView({ block: "nearest" });
}

async function upload(files) {
  $("scan-status").replaceChildren();
  if (!files.length) return;
  openAtLeast("half");
  let stored;
  try { stored = await send(files, "scan-status"); }
  catch (e) { line(e.message, "error"); return; }
  const kept = state.emptyTables;
  const backgrounds = kept.length === stored.length ? kept : [];
  if (kept.length && !backgrounds.length) line(stored.length + " photo(s) and " + kept.length + " of the empty table: scanned without the empty table (it takes one per photo)", "progress");
  const stage = line("scanning...", "progress stage");
  const poll = setInterval(() => {
    api("/api/scan").then((s) => { if (s.busy) stage.textContent = "scanning: " + s.stage + " (" + Math.round(s.elapsed_ms / 1000) + " s)"; }).catch(() => {});
  }, 500);
  const before = state.session ? [state.session.table] : [];
  let session;
  try { session = await api("/api/scan", { uploads: stored, backgrounds }); }
  catch (e) { line(e.message, "error"); return; }
  finally { clearInterval(poll); }
  stage.textContent = "scanned";
  state.session = session;
  state.photoVersion += 1;
  $("view-photo").disabled = false;
  showScanSummary(session, before);
  emit("scanned");
}

$("upload").addEventListener("change", (e) => {
  const files = Array.from(e.target.files || []);
  upload(files).catch((err) => line(err.message, "error")).finally(() => { e.target.value = ""; });
});

$("upload-empty").addEventListener("change", (e) => {
  const files = Array.from(e.target.files || []);
  uploadEmpty(files).catch((err) => line(err.message, "error", "empty-status")).finally(() => { e.target.value = ""; });
});

$("forget-empty").addEventListener("click", () => {
  state.emptyTables = [];
  showEmptyTable();
});
