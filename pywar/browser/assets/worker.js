// The page's Python (pywar page): Pyodide in a Web Worker, so that a long check or a
// student's loop that never ends cannot freeze the page, which ends this worker instead
// (app.js).  It loads Pyodide from config.pyodide (the folder's copy, or the pinned CDN),
// unpacks pywar.zip (pywar's pure-Python packages) and answers each call of the page with
// pywar.browser.calls' JSON text.  Nothing leaves the browser.
"use strict";

const LIB = "/lib/pywar-page";       // in the worker's own file system (Emscripten's, in memory)
let calls = null;

async function start(config) {
  const started = performance.now();
  const base = new URL(config.pyodide, self.location).href;
  const { loadPyodide } = await import(base + "pyodide.mjs");
  const python = await loadPyodide({ indexURL: base });
  const zip = await (await fetch("pywar.zip")).arrayBuffer();
  python.unpackArchive(zip, "zip", { extractDir: LIB });
  python.runPython(`import sys\nsys.path.insert(0, ${JSON.stringify(LIB)})`);
  calls = python.pyimport("pywar.browser.calls");
  postMessage({ ready: true, ms: performance.now() - started, version: python.version,
                choices: JSON.parse(calls.choices()) });
}

self.onmessage = async ({ data }) => {
  if (data.start) {
    try {
      await start(data.start);
    } catch (error) {
      postMessage({ failed: String(error) });
    }
    return;
  }
  const started = performance.now();
  try {
    const answer = calls[data.name](...data.args);
    postMessage({ id: data.id, answer, ms: performance.now() - started });
  } catch (error) {
    postMessage({ id: data.id, error: String(error).trim().split("\n").pop() });
  }
};
