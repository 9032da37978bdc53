// Uploads from the page (issue 22, "scan from the page"): a corrupt photo gets a
// readable message in #scan-status .error and the page stays usable. The page's
// contract: <input type="file" id="upload" multiple>; after choosing files #scan-status
// shows progress, then the scan summary, or a rejected upload's message in an element
// of class `error` inside it.
// tests/browser/run serves the sample with --profile for it, so the upload is checked
// (not refused for want of a profile).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { browser, openViewer, select } from "./lib.mjs";

let b;
before(async () => { b = await browser(); await openViewer(b.page); });
after(async () => {
  if (b) {
    assert.deepEqual(b.errors, [], "errors in the page's script");
    await b.close();
  }
});

test("a corrupt photo is refused with a readable message, and the page stays usable", async () => {
  const page = b.page;
  // 100 bytes that are no JPEG, named as one (a fixed pattern, not random).
  const garbage = Buffer.from(Array.from({ length: 100 }, (_, i) => (i * 37 + 11) % 256));
  await page.setInputFiles("#upload", { name: "photo.jpg", mimeType: "image/jpeg", buffer: garbage });
  const error = page.locator("#scan-status .error");
  await error.waitFor({ timeout: 30000 });
  const message = (await error.innerText()).trim();
  assert.ok(message.length > 0, "the error is empty");
  assert.doesNotMatch(message, /^\s*(undefined|null|\[object Object\])\s*$/, message);
  // The message names the file and is about its bytes, not about the server's setup.
  assert.match(message, /photo\.jpg/, message);
  assert.doesNotMatch(message, /--profile/, message);
  // The plan is still shown and still answers a click.
  assert.ok(await page.locator("#view svg g#bases").isVisible());
  await select(page, "au-art-1#0");
  assert.match(await page.locator("#selection").innerText(), /^A: au-art-1#0/);
});
