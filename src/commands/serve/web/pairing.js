// "Open on your phone": on the machine the server runs on, a server started with --lan
// shows the address that pairs a phone, and its QR code (`/api/pairing`,
// `/api/pairing.svg`: answered to this machine only; elsewhere, or without --lan,
// nothing is shown).
import { $ } from "./state.js";
import { api } from "./api.js";

/** Shows the pairing code when the server shares the table. */
export async function showPairing() {
  let answer;
  try { answer = await api("/api/pairing"); } catch (e) { return; }   // a phone, or an older server
  if (!answer || !answer.url) return;
  $("pairing-qr").src = "/api/pairing.svg";
  $("pairing-url").textContent = answer.url;
  $("pairing").hidden = false;
}
