// The page of pywar page: the controls that pick a game and the exercise, around the one
// front end of a game (page.js: gameOf, showGame).  Python runs in a Web Worker
// (worker.js); each call is answered with the JSON text of pywar.browser.calls.  A call
// that runs past its time ends the worker, and a new one is started.  ?seed=S (with
// &rules=R&edition=E) plays at once.  Nothing leaves the browser: the student's files
// are kept in this browser's localStorage, and the files that "start from the port" or
// "start from the skeleton" replaced last are kept there too, a click away ("back to
// the files replaced"); edited files are replaced only once the student says yes.
"use strict";

const CONFIG = JSON.parse(document.getElementById("config").textContent);
const CHECK_SECONDS = 120;        // pywar exercise check's own limit on a whole check
const GAME_SECONDS = 120;         // a game of the longest kind, in a slow browser
const SAVED = "pywar-exercise-files";           // {files, edited}: those in the editor
const BEFORE = "pywar-exercise-before";         // {files, edited}: those replaced last

const python = {worker: null, ready: null, waiting: new Map(), next: 1, choices: null,
                loadMs: null};

function say(id, text, kind) {
  const element = document.getElementById(id);
  element.textContent = text;
  element.className = kind || "";
}

// ---- Python, in its worker

function startPython() {
  const worker = new Worker("worker.js", {type: "module"});
  python.worker = worker;
  python.ready = new Promise((resolve, reject) => {
    worker.onmessage = ({data}) => {
      if (data.ready) {
        python.choices = data.choices;
        python.loadMs = data.ms;
        resolve(data);
      } else if (data.failed) {
        reject(new Error(data.failed));
      } else {
        const waiter = python.waiting.get(data.id);
        python.waiting.delete(data.id);
        if (waiter) waiter(data);
      }
    };
    worker.onerror = event => reject(new Error(event.message || "the worker failed"));
  });
  worker.postMessage({start: CONFIG});
  return python.ready;
}

// name's answer, parsed; an Error if Python raised, or ran past seconds (the worker is
// then ended, and Python started again)
async function call(name, args, seconds) {
  await python.ready;
  const id = python.next++;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      python.waiting.delete(id);
      python.worker.terminate();
      startPython().catch(() => {});
      reject(new Error(`it did not finish within ${seconds} s: a loop that never ends? `
                       + "(Python is started again)"));
    }, seconds * 1000);
    python.waiting.set(id, data => {
      clearTimeout(timer);
      if (data.error) reject(new Error(data.error));
      else resolve({answer: JSON.parse(data.answer), ms: data.ms});
    });
    python.worker.postMessage({id, name, args});
  });
}

// ---- The game

function fillChoices(choices) {
  const rules = document.getElementById("rules");
  const edition = document.getElementById("edition");
  rules.innerHTML = "";
  edition.innerHTML = "";
  for (const name of choices.rules) rules.add(new Option(name, name));
  for (const [name, words] of Object.entries(choices.editions)) {
    edition.add(new Option(words, name));
  }
}

function chosen() {
  return {seed: Number(document.getElementById("seed").value),
          rules: document.getElementById("rules").value,
          edition: document.getElementById("edition").value};
}

async function playGame() {
  const {seed, rules, edition} = chosen();
  const button = document.getElementById("play-game");
  button.disabled = true;
  say("digest", "");
  say("summary", "playing in Python\u2026");
  const started = performance.now();
  try {
    const {answer, ms} = await call("play_game", [seed, rules, edition], GAME_SECONDS);
    if (answer.digest) say("digest", answer.digest);
    if (answer.error) {
      say("summary", answer.error, "failed");
      return;
    }
    showGame(gameOf(answer.trace, answer.narration, answer.source));
    document.title = answer.title;
    document.querySelector("header h1").textContent = answer.title;
    document.getElementById("engine").textContent = answer.engine;
    document.getElementById("deal-note").textContent = answer.deal_note;
    const shownMs = performance.now() - started;
    const summary = document.getElementById("summary");
    summary.textContent = `${answer.edition_words}: ${answer.rounds} rounds, `
      + `${answer.winner === null ? "nobody wins" : "player " + answer.winner + " wins"} `
      + `(${answer.outcome}); played in Python in ${(ms / 1000).toFixed(2)} s, shown in `
      + `${(shownMs / 1000).toFixed(2)} s`;
    summary.dataset.gameMs = Math.round(ms);
    summary.dataset.shownMs = Math.round(shownMs);
    history.replaceState(null, "", `?seed=${seed}&rules=${rules}&edition=${edition}`);
  } catch (error) {
    say("summary", String(error.message || error), "failed");
  } finally {
    button.disabled = false;
  }
}

// ---- The exercise: the port's files in the editor, checked in Python

const exercise = {files: null, shown: null, edited: false, again: null};

function showFile(name) {
  exercise.shown = name;
  document.getElementById("file").value = name;
  document.getElementById("editor").value = exercise.files[name];
}

function save() {
  localStorage.setItem(SAVED, JSON.stringify({files: exercise.files, edited: exercise.edited}));
}

// the files in the editor: edited, the student's own (asked before they are replaced)
function useFiles(files, edited) {
  exercise.files = files;
  exercise.edited = edited;
  const select = document.getElementById("file");
  select.innerHTML = "";
  for (const name of Object.keys(files)) select.add(new Option(name, name));
  showFile(files["tabletop.py"] !== undefined ? "tabletop.py" : Object.keys(files)[0]);
  save();
}

// what localStorage holds under key, {files, edited}; files saved by an earlier page, a
// bare {name: text}, are taken as edited
function saved(key) {
  const found = JSON.parse(localStorage.getItem(key) || "null");
  if (found === null || found.files) return found;
  return {files: found, edited: true};
}

function showRestore() {
  document.getElementById("restore").hidden = saved(BEFORE) === null;
}

function sameFiles(one, other) {
  return JSON.stringify(one) === JSON.stringify(other);
}

async function startFrom(filled) {
  const {answer} = await call("port_files", [filled], GAME_SECONDS);
  const replaced = exercise.files !== null && !sameFiles(answer, exercise.files);
  const what = filled ? "the port's own files" : "the skeleton (every member to write)";
  if (replaced && exercise.edited
      && !confirm(`Replace your edited files with ${what}? Yours stay a click away: `
                  + "\"back to the files replaced\".")) {
    say("check-status", "your files are as they were");
    return;
  }
  if (replaced) {
    localStorage.setItem(BEFORE, JSON.stringify({files: exercise.files,
                                                 edited: exercise.edited}));
  }
  useFiles(answer, false);
  showRestore();
  say("check-result", "");
  say("check-status", "");
}

// back to the files replaced last; the files they replace are kept in their place, so
// that a second click comes back
function restoreFiles() {
  const before = saved(BEFORE);
  if (before === null) return;
  localStorage.setItem(BEFORE, JSON.stringify({files: exercise.files,
                                               edited: exercise.edited}));
  useFiles(before.files, before.edited);
  say("check-result", "");
  say("check-status", "back to the files replaced; the others are a click away");
}

// check the files on the check's seeds and two drawn fresh, or on seeds (the fresh seeds
// of the check before, again: its button, which the check's words name)
async function checkPort(seeds) {
  const button = document.getElementById("check");
  const again = document.getElementById("check-again");
  button.disabled = again.disabled = true;
  say("check-result", "");
  say("check-status", "checking in Python\u2026");
  const stack = document.getElementById("stack").value;
  try {
    const args = [JSON.stringify(exercise.files), stack, ...(seeds ? [seeds] : [])];
    const {answer, ms} = await call("check_port", args, CHECK_SECONDS);
    say("check-result", answer.lines.join("\n"), answer.passed ? "passed" : "departs");
    const result = document.getElementById("check-result");
    result.dataset.member = answer.first.member || "";
    result.dataset.kind = answer.first.kind;
    if (answer.again) {
      exercise.again = answer.fresh;
      again.textContent = answer.again;
      again.hidden = false;
    }
    say("check-status", `checked in ${(ms / 1000).toFixed(1)} s`);
  } catch (error) {
    say("check-result", `The check stopped: ${error.message || error}`, "departs");
    say("check-status", "");
  } finally {
    button.disabled = again.disabled = false;
  }
}

function wireExercise() {
  document.getElementById("file").addEventListener("change", event => showFile(event.target.value));
  document.getElementById("editor").addEventListener("input", event => {
    exercise.files[exercise.shown] = event.target.value;
    exercise.edited = true;
    save();
  });
  document.getElementById("editor").addEventListener("keydown", event => {
    if (event.key !== "Tab") return;                  // Tab indents: four spaces
    event.preventDefault();
    document.execCommand("insertText", false, "    ");
  });
  document.getElementById("start-port").addEventListener("click", () => startFrom(true));
  document.getElementById("start-skeleton").addEventListener("click", () => startFrom(false));
  document.getElementById("restore").addEventListener("click", restoreFiles);
  document.getElementById("check").addEventListener("click", () => checkPort(null));
  document.getElementById("check-again").addEventListener("click",
                                                          () => checkPort(exercise.again));
}

// ---- The page

async function main() {
  wireExercise();
  document.getElementById("choose").addEventListener("submit", event => {
    event.preventDefault();
    playGame();
  });
  try {
    await startPython();
  } catch (error) {
    say("python-status", `Python could not be loaded: ${error.message || error}`, "failed");
    return;
  }
  say("python-status", `Python ${CONFIG.local ? "loaded from this folder" : "loaded"} in `
      + `${(python.loadMs / 1000).toFixed(1)} s (Pyodide ${CONFIG.version}).`);
  document.getElementById("python-status").dataset.loadMs = Math.round(python.loadMs);
  fillChoices(python.choices);
  const asked = new URLSearchParams(location.search);
  for (const name of ["seed", "rules", "edition"]) {
    if (asked.has(name)) document.getElementById(name).value = asked.get(name);
  }
  document.getElementById("play-game").disabled = false;
  document.getElementById("check").disabled = false;
  const kept = saved(SAVED);
  if (kept) useFiles(kept.files, kept.edited);
  else await startFrom(true);
  showRestore();
  if (asked.has("seed")) await playGame();
}

main();
