// Talking to the server (docs/serve.md): JSON in and out, every failure an Error with
// the server's own message.

/** GET `path` (or POST `body` as JSON): the answer, parsed when it is JSON. */
export async function api(path, body) {
  const init = body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  };
  const response = await fetch(path, init);
  const text = await response.text();
  let value = text;
  if ((response.headers.get("content-type") || "").startsWith("application/json")) {
    try { value = JSON.parse(text); } catch (e) { throw new Error("bad answer from " + path); }
  }
  if (!response.ok) throw new Error(value && value.error ? value.error : path + ": " + response.status);
  return value;
}

/**
 * Sends one photo's bytes as the body (full resolution: the file as chosen), calling
 * `progress(fraction)` as it goes; resolves with the server's answer.
 */
export function sendPhoto(file, progress) {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", "/api/uploads?name=" + encodeURIComponent(file.name));
    xhr.setRequestHeader("Content-Type", file.type && file.type.startsWith("image/") ? file.type : "application/octet-stream");
    xhr.upload.onprogress = (e) => { if (e.lengthComputable) progress(e.loaded / e.total); };
    xhr.onload = () => {
      let v = null;
      try { v = JSON.parse(xhr.responseText); } catch (e) { v = null; }
      if (xhr.status >= 200 && xhr.status < 300 && v) resolve(v);
      else reject(new Error(v && v.error ? v.error : file.name + ": the upload failed (" + xhr.status + ")"));
    };
    xhr.onerror = () => reject(new Error(file.name + ": the upload failed (the server closed the connection)"));
    xhr.send(file);
  });
}
