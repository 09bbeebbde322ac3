// The page of a game: plain JavaScript, no framework, no network.  One front end for the
// page of pywar play --html (pywar/step/page.py), which holds its game, and the page of
// pywar page (pywar/browser/), whose Python plays each game in the browser: both hand it
// the game's trace, and the narrator's words and the code pane worked out from that trace.
// The table is rebuilt from the trace as pywar/common/table_state.py rebuilds it; the
// words are the narrator's, worked out in Python for each event, and so is the code: the
// line of the source that told each event (pywar/step/source.py).
"use strict";

const NAMES = "ABCDEFGH";
const SUIT_SIGNS = ["\u2665", "\u2666", "\u2660", "\u2663"];   // hearts, diamonds, spades, clubs
const FACES = {8: "10", 9: "J", 10: "Q", 11: "K", 12: "A"};
const SNAPSHOT_EVERY = 256;      // a copy of the table every so many events, for seeking

// ---- The game, as the page holds it

// A game from its trace's text, and the narration and the code pane worked out in Python
// from the same trace: the page of pywar play --html holds them in its script
// elements; the page of pywar page (pywar/browser/) gets them from the browser's Python.
function gameOf(trace, narration, source) {
  const lines = trace.split("\n").filter(line => line.trim() !== "");
  const header = JSON.parse(lines[0]);
  const events = lines.slice(1).map(line => JSON.parse(line));
  return {header, events, narration, source};
}

function readGame() {
  return gameOf(document.getElementById("trace").textContent,
                JSON.parse(document.getElementById("narration").textContent),
                JSON.parse(document.getElementById("source").textContent));
}

// ---- The table, rebuilt event by event (pywar/common/table_state.py)

function newTable(players) {
  return {
    toPlay: [], played: [], pot: [], out: [],
    counters: {rounds: 0, battles: 0, ties: 0, wars: 0, refills: 0},
    lastBattleTied: false, outcome: null, winner: null, players: players,
  };
}

function copyTable(table) {
  return {
    toPlay: table.toPlay.map(pile => pile.slice()),
    played: table.played.map(pile => pile.slice()),
    pot: table.pot.map(entry => Object.assign({}, entry)),
    out: table.out.slice(),
    counters: Object.assign({}, table.counters),
    lastBattleTied: table.lastBattleTied, outcome: table.outcome, winner: table.winner,
    players: table.players,
  };
}

function startBattle(table, event) {
  if (event.battle === table.counters.battles + 1) {
    table.counters.battles += 1;
    if (table.lastBattleTied) table.counters.wars += 1;
    table.lastBattleTied = false;
  }
}

function takeTop(table, player) {
  return table.toPlay[player].shift();
}

function apply(table, event, queue) {
  const kind = event.event;
  if (kind === "deal") {
    table.toPlay = event.hands.map(hand => hand.slice());
    table.played = event.hands.map(() => []);
  } else if (kind === "round") {
    table.counters.rounds += 1;
    table.lastBattleTied = false;
  } else if (kind === "face_up") {
    startBattle(table, event);
    takeTop(table, event.player);
    table.pot.push({card: event.card, player: event.player, down: false});
  } else if (kind === "take_back") {
    startBattle(table, event);
    const at = table.pot.findIndex(e => e.card === event.card && e.player === event.player);
    const entry = table.pot.splice(at, 1)[0];
    entry.down = false;
    table.pot.push(entry);
  } else if (kind === "face_down") {
    for (const card of event.cards) {
      takeTop(table, event.player);
      table.pot.push({card: card, player: event.player, down: true});
    }
  } else if (kind === "battle") {
    table.lastBattleTied = event.winner === null;
    if (table.lastBattleTied) table.counters.ties += 1;
  } else if (kind === "pickup") {
    if (queue) {
      table.toPlay[event.player].push(...event.cards);             // to the bottom, in order
    } else {
      table.played[event.player] = event.cards.slice().reverse()
        .concat(table.played[event.player]);
    }
    table.pot = [];
  } else if (kind === "refill") {
    table.toPlay[event.player] = event.cards.slice();
    table.played[event.player] = [];
    table.counters.refills += 1;
  } else if (kind === "run_out") {
    table.out.push(event.player);
  } else if (kind === "end") {
    table.outcome = event.outcome;
    table.winner = event.winner;
  }
}

// ---- Seeking: the table after any number of events

function makeTimeline(game) {
  const queue = game.header.rules.piles === "queue";
  const players = (game.header.rules.players || 2);
  const snapshots = [newTable(players)];             // snapshots[k]: after k * SNAPSHOT_EVERY
  let table = newTable(players);
  game.events.forEach((event, i) => {
    apply(table, event, queue);
    if ((i + 1) % SNAPSHOT_EVERY === 0) snapshots.push(copyTable(table));
  });
  return function tableAfter(position) {
    const k = Math.floor(position / SNAPSHOT_EVERY);
    const rebuilt = copyTable(snapshots[k]);
    for (let i = k * SNAPSHOT_EVERY; i < position; i++) apply(rebuilt, game.events[i], queue);
    return rebuilt;
  };
}

// ---- Drawing

function cardFace(card, deck) {
  const [ranks] = deck.split("x").map(Number);
  const rank = card % ranks;
  const suit = Math.floor(card / ranks);
  const rankName = ranks === 13 ? (FACES[rank] || String(rank + 2)) : String(rank + 1);
  const suitName = suit < 4 ? SUIT_SIGNS[suit] : "/" + (suit + 1);
  return {rankName, suitName, red: suit === 0 || suit === 1};
}

function drawCard(card, deck, extra) {
  const face = cardFace(card, deck);
  const div = document.createElement("div");
  div.className = "card" + (face.red ? " red" : "") + (extra.top ? " top" : "")
    + (extra.down ? " down" : "");
  div.dataset.card = card;
  div.title = `card ${card}` + (extra.owner ? `, put down by ${extra.owner}` : "")
    + (extra.down ? ", face down" : "");
  div.innerHTML = `<span>${face.rankName}</span><span>${face.suitName}</span>`;
  if (extra.owner) {
    const owner = document.createElement("span");
    owner.className = "owner";
    owner.textContent = extra.owner;
    owner.dataset.owner = extra.owner;
    div.appendChild(owner);
  }
  return div;
}

function drawPile(parent, name, label, cards, deck) {
  const row = document.createElement("div");
  row.className = "pile";
  row.innerHTML = `<span class="name">${label} (<span class="count" id="count-${name}">`
    + `${cards.length}</span>) <small>top first</small></span>`;
  const holder = document.createElement("div");
  holder.className = "cards";
  holder.id = `pile-${name}`;
  cards.forEach((card, i) => holder.appendChild(drawCard(card, deck, {top: i === 0})));
  row.appendChild(holder);
  parent.appendChild(row);
}

// labels: [label, tag] of each player, in the narration's own names (page.py)
function drawTable(table, deck, labels) {
  const players = document.getElementById("players");
  players.innerHTML = "";
  for (let p = 0; p < table.players; p++) {
    const name = NAMES[p];
    const box = document.createElement("div");
    box.className = "player" + (table.out.includes(p) ? " out" : "");
    box.id = `player-${name}`;
    const heading = document.createElement("h2");
    heading.textContent = labels[p][0] + (table.out.includes(p) ? " (out)" : "");
    box.appendChild(heading);
    drawPile(box, `${name}-to_play`, "to play", table.toPlay[p] || [], deck);
    drawPile(box, `${name}-played`, "played", table.played[p] || [], deck);
    players.appendChild(box);
  }
  const pot = document.getElementById("pot");
  pot.innerHTML = "";
  table.pot.slice().reverse().forEach(
    (entry, i) => pot.appendChild(drawCard(entry.card, deck,
      {owner: labels[entry.player][1], down: entry.down, top: i === 0})));
  document.getElementById("pot-count").textContent = table.pot.length;
  const outcome = document.getElementById("outcome");
  outcome.textContent = table.outcome === null ? "" : `The end (${table.outcome}): `
    + (table.winner === null ? "nobody wins." : `${inSentence(labels[table.winner][0])} wins.`);
}

// A player's label inside a sentence: "player B", "User" (page.py's in_a_sentence)
function inSentence(label) {
  return label.startsWith("Player ") ? "p" + label.slice(1) : label;
}

// ---- The code beside the table: the line that told the event, in Python or C

// The language shown and the position marked, kept across games; the buttons are wired
// once (wireLanguages), and each game gets its marker (makeCodePane).
const codeView = {language: "python", mark: () => {}, position: 0};

function languageButtons() {
  return {python: document.getElementById("show-python"),
          c: document.getElementById("show-c")};
}

function wireLanguages() {
  const buttons = languageButtons();
  for (const [name, button] of Object.entries(buttons)) {
    button.addEventListener("click", () => {
      codeView.language = name;
      for (const [other, each] of Object.entries(buttons)) {
        each.setAttribute("aria-pressed", String(other === name));
      }
      codeView.mark(codeView.position);
    });
  }
  buttons.python.setAttribute("aria-pressed", "true");
}

function makeCodePane(code) {
  const where = document.getElementById("code-where");
  const listing = document.getElementById("code-lines");
  const buttons = languageButtons();
  let shownFile = null;
  listing.innerHTML = "";
  where.textContent = "";
  document.getElementById("languages").hidden = code === null;
  if (code === null) {
    where.textContent = "The source of this game cannot be shown: pywar could not replay "
      + "its trace to the same events.";
    return () => {};
  }
  buttons.c.hidden = !code.places.some(place => place[3] !== "");
  if (buttons.c.hidden && codeView.language === "c") buttons.python.click();

  function render(file) {
    listing.innerHTML = "";
    code.files[file].split("\n").forEach((text, i) => {
      const line = document.createElement("div");
      line.className = "line";
      line.innerHTML = `<span class="number">${i + 1}</span><span class="text"></span>`;
      line.lastChild.textContent = text;
      listing.appendChild(line);
    });
    shownFile = file;
  }

  return function mark(at) {
    codeView.position = at;
    if (at === 0) return;
    const place = code.places[code.at[at - 1]];
    const [file, number, name] = codeView.language === "c" ? place.slice(3) : place.slice(0, 3);
    if (file !== shownFile) render(file);
    const old = listing.querySelector(".current");
    if (old) old.classList.remove("current");
    const line = listing.children[number - 1];
    line.classList.add("current");
    where.textContent = `${file}:${number} in ${name}`;
    listing.scrollTop = line.offsetTop - listing.clientHeight / 2;
  };
}

// ---- The transcript so far: each event's lines, a click away from its step

function drawTranscript(narration, position) {
  const earlier = document.getElementById("earlier");
  earlier.innerHTML = "";
  for (let i = Math.max(0, position - 41); i < position - 1; i++) {
    if (narration[i] === "") continue;
    const lines = document.createElement("span");
    lines.className = "step";
    lines.dataset.position = i + 1;
    lines.title = `event ${i + 1}: click to go to it`;
    lines.textContent = narration[i];
    earlier.appendChild(lines);
  }
  earlier.scrollTop = earlier.scrollHeight;
}

// ---- The page: the controls wired once, each game shown by showGame

const view = {game: null, deck: "13x4", tableAfter: null, total: 0, first: 0, position: 0,
              timer: null};

function show(where) {
  const game = view.game;
  if (game === null) return;
  const position = view.position = Math.max(view.first, Math.min(view.total, where));
  const table = view.tableAfter(position);
  drawTable(table, view.deck, game.source.players);
  const last = position > 0 ? game.events[position - 1] : null;
  document.getElementById("round").textContent = table.counters.rounds;
  document.getElementById("battle").textContent = table.counters.battles;
  document.getElementById("ties").textContent = table.counters.ties;
  document.getElementById("wars").textContent = table.counters.wars;
  document.getElementById("event").textContent = position;
  document.getElementById("kind").textContent = last ? last.event : "before the deal";
  const current = position > 0 ? game.narration[position - 1] : "";
  document.getElementById("current-lines").textContent = current;
  drawTranscript(game.narration, position);
  let silent = "";
  if (last && last.event === "end") silent = game.source.ending;
  else if (last && current === "") {
    silent = "This event prints no line of its own: the transcript tells it with a later one.";
  }
  document.getElementById("silent").textContent = silent;
  document.getElementById("slider").value = position;
  codeView.mark(position);
  for (const id of ["forward", "next-tie", "end"]) {      // nothing after the end
    document.getElementById(id).disabled = position >= view.total;
  }
  for (const id of ["back", "start"]) {                   // nothing before the deal
    document.getElementById(id).disabled = position <= view.first;
  }
}

function pause() {
  if (view.timer !== null) clearInterval(view.timer);
  view.timer = null;
  document.getElementById("play").innerHTML = "&#x25B6; play";
}

function play() {
  if (view.position >= view.total) show(view.first);
  const every = Number(document.getElementById("speed").value);
  view.timer = setInterval(() => {
    show(view.position + 1);
    if (view.position >= view.total) pause();
  }, every);
  document.getElementById("play").innerHTML = "|| pause";
}

function nextTie() {
  for (let i = view.position; i < view.total; i++) {
    const event = view.game.events[i];
    if (event.event === "battle" && event.winner === null) return show(i + 1);
  }
  return show(view.total);
}

// Show a game (gameOf's) from its deal: the table, the transcript and the code.
function showGame(game) {
  pause();
  view.game = game;
  view.deck = game.header.rules.deck || "13x4";
  view.tableAfter = makeTimeline(game);
  view.total = game.events.length;
  view.first = Math.min(1, view.total);      // the page opens on the deal
  codeView.mark = makeCodePane(game.source.code);
  const slider = document.getElementById("slider");
  slider.min = view.first;
  slider.max = view.total;
  document.getElementById("events").textContent = view.total;
  show(view.first);
}

function wireControls() {
  const slider = document.getElementById("slider");
  const actions = {
    "start": () => show(view.first), "back": () => show(view.position - 1),
    "forward": () => show(view.position + 1), "end": () => show(view.total),
    "next-tie": nextTie,
  };
  for (const [id, action] of Object.entries(actions)) {
    document.getElementById(id).addEventListener("click", () => { pause(); action(); });
  }
  document.getElementById("play").addEventListener(
    "click", () => (view.timer === null ? play() : pause()));
  document.getElementById("speed").addEventListener(
    "change", () => { if (view.timer !== null) { pause(); play(); } });
  slider.addEventListener("input", () => { pause(); show(Number(slider.value)); });
  document.getElementById("earlier").addEventListener("click", event => {
    const lines = event.target.closest("[data-position]");
    if (lines) { pause(); show(Number(lines.dataset.position)); }
  });
  document.addEventListener("keydown", event => {
    const keys = {ArrowRight: "forward", ArrowLeft: "back", Home: "start", End: "end",
                  t: "next-tie"};
    if (event.target === slider && event.key.startsWith("Arrow")) return;
    if (event.target.matches("textarea, input[type=text], input[type=number]")) return;
    if (event.key === " ") {
      event.preventDefault();
      document.getElementById("play").click();
    } else if (keys[event.key]) {
      event.preventDefault();
      document.getElementById(keys[event.key]).click();
    }
  });
  wireLanguages();
}

wireControls();
if (document.getElementById("trace").textContent.trim() !== "") showGame(readGame());
