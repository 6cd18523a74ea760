// The page of `mancala-marl serve`: plays through the JSON API (docs/api.md) and draws the board
// the server sends as SVG (mancala_marl/svg.py); here only counts change while a move is sown.
"use strict";

const $ = (id) => document.getElementById(id);
const ui = { catalog: null, id: null, state: null, record: null, cells: {}, busy: false, paused: false, watching: false, moveNo: 0,
             lastMove: null };

async function api(method, path, body) {
  const response = await fetch(path, {
    method, headers: body ? { "Content-Type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const speed = () => Number($("speed").value);
function setBusy(busy) { ui.busy = busy; document.body.dataset.busy = busy ? "1" : "0"; decorate(); }
function showError(message) { $("error").textContent = message || ""; }
// A registered game's entry, or a traditional game's (``named``) on its registered game's parameters,
// with its preset rules (``rules``) as the starting values.
function gameInfo(name) {
  const game = ui.catalog.games.find((g) => g.name === name);
  if (game) return game;
  const named = ui.catalog.named.find((g) => g.name === name);
  return named && { ...ui.catalog.games.find((g) => g.name === named.game), ...named };
}
// A rule's value when the form does not change it: the preset's, else the game's default.
function baseValue(info, p) { return info.rules?.[p.name] ?? p.default; }
// Shown beside the game while a game has at most this many parameters; the rest fold away.
const INLINE_RULES = 4;

// -- the form ------------------------------------------------------------------------------
function fillRules(values) {
  const info = gameInfo($("game").value);
  const labels = info.parameters.map((p, index) => {
    const label = document.createElement("label");
    label.append(p.name + " ");
    const value = values?.[p.name] ?? baseValue(info, p);
    let input;
    if (p.choices.length) {
      input = document.createElement("select");
      p.choices.forEach((c) => input.append(new Option(c, c)));
      input.value = value;
    } else if (p.type === "bool") {
      input = document.createElement("input");
      input.type = "checkbox";
      input.checked = value;
    } else {
      input = document.createElement("input");
      // The server's own bounds on the first two (the pits a side and the seeds a pit, whatever the
      // game calls them: pits, houses, holes), else the game's.
      const [low, high] = [ui.catalog.limits.pits, ui.catalog.limits.seeds][index] ?? [p.low, p.high];
      input.type = "number"; input.min = Math.max(p.low, low); input.max = Math.min(p.high, high); input.size = 3;
      input.value = value;
    }
    input.dataset.param = p.name; input.dataset.type = p.type; input.title = p.doc;
    label.append(input);
    return label;
  });
  if (labels.length <= INLINE_RULES) { $("rules").replaceChildren(...labels); return; }
  // A rules space (the family: dozens of parameters): the pits and seeds beside the game, the rest folded
  const more = document.createElement("details");
  more.id = "more-rules";
  const summary = document.createElement("summary");
  summary.textContent = `more rules (${labels.length - 2})`;
  const box = document.createElement("div");
  box.append(...labels.slice(2));
  more.append(summary, box);
  $("rules").replaceChildren(...labels.slice(0, 2), more);
}

function readRules() {
  const rules = {};
  const info = gameInfo($("game").value);
  for (const input of $("rules").querySelectorAll("[data-param]")) {
    const p = info.parameters.find((q) => q.name === input.dataset.param);
    const value = input.type === "checkbox" ? input.checked : input.type === "number" ? Number(input.value) : input.value;
    if (value !== baseValue(info, p)) rules[p.name] = value;  // a named game's rules change its preset
  }
  return rules;
}

function showMode() {
  document.body.dataset.mode = $("mode").value;
}

function players() {
  const mode = $("mode").value;
  if (mode === "people") return [null, null];
  if (mode === "watch") return [$("player0").value || ui.catalog.default_opponent, $("player1").value || ui.catalog.default_opponent];
  const opponent = $("opponent").value || ui.catalog.default_opponent;
  return $("seat").value === "0" ? [null, opponent] : [opponent, null];
}

// -- the board -----------------------------------------------------------------------------
async function loadBoard() {
  const response = await fetch(`/api/games/${ui.id}/board.svg`);
  $("board").innerHTML = await response.text();
  // Any board size, 1..16 pits a side: the drawing scales to the page's width, but a small board
  // (Tihbat's two holes) is not blown up past half again its own size.
  // On a narrow screen it keeps at least 0.8 of its size, so that the counts stay readable (11 px and
  // more), and the board scrolls sideways instead.
  const svg = $("board").querySelector("svg");
  if (svg) {
    svg.style.maxWidth = `${1.5 * Number(svg.getAttribute("width"))}px`;
    svg.style.minWidth = `${0.8 * Number(svg.getAttribute("width"))}px`;
  }
  ui.cells = {};
  for (const g of $("board").querySelectorAll("g.cell")) ui.cells[g.dataset.cell] = g;
  if (ui.lastMove !== null) ui.cells[ui.lastMove]?.classList.add("last-move");  // the pit last sown from
  decorate();
}

function setCell(cell, seeds) {
  const g = ui.cells[cell];
  if (!g) return;
  g.dataset.seeds = seeds;
  g.querySelectorAll("circle.seed").forEach((c, k) => c.setAttribute("visibility", k < seeds && !g.dataset.marked ? "visible" : "hidden"));
  g.querySelector("text.count").textContent = seeds;
}

function personToMove() {
  const s = ui.state;
  return s && !s.done && s.to_move !== null && ui.record.players[s.to_move] === null;
}

// The mover's pits carry data-pit="k" (k: the pit as the API and the environments number it);
// only the legal ones of a person, while nothing is being sown, can be clicked. Where a move also
// names its way (the family's chosen directions), action k sows pit k counter-clockwise and
// k + pits clockwise: a pit is legal if either is.
function waysOf(k) {
  const s = ui.state, pits = (s.board.length - 2) / 2;
  return [s.legal.includes(k), s.legal.includes(k + pits)];
}

// The action a click on pit k plays: the one legal way, or, where both are, clockwise on a
// shift-click.
function actionFor(k, clockwise) {
  const [ccw, cw] = waysOf(k), pits = (ui.state.board.length - 2) / 2;
  return cw && (clockwise || !ccw) ? k + pits : k;
}

// A pit of the move list and the status line: "pit 3", "pit 3 clockwise" (an action past the pits).
function pitName(action) {
  const pits = (ui.state.board.length - 2) / 2;
  return action < pits ? `pit ${action}` : `pit ${action - pits} clockwise`;
}

function decorate() {
  const s = ui.state;
  if (!s) return;
  const pits = (s.board.length - 2) / 2;
  for (const [cell, g] of Object.entries(ui.cells)) {
    const side = Number(g.dataset.side), k = Number(g.dataset.index);
    const pit = g.classList.contains("pit") && side === s.to_move && !s.done;
    if (pit) g.dataset.pit = k; else delete g.dataset.pit;
    const legal = pit && waysOf(k).some(Boolean);
    g.classList.toggle("legal", legal);
    g.classList.toggle("clickable", legal && personToMove() && !ui.busy);
    g.classList.toggle("illegal", pit && !legal);
  }
  document.body.dataset.done = s.done ? "1" : "0";
  document.body.dataset.toMove = s.to_move ?? "";
  $("undo").disabled = ui.busy || !ui.record.players.includes(null) || s.moves === 0;
  $("status").textContent = statusText(s, pits);
}

function who(player) {
  const p = ui.record.players[player];
  if (p === null) return ui.record.players.every((q) => q === null) ? `player_${player}` : `you (player_${player})`;
  return `${p} (player_${player})`;
}

function statusText(s) {
  return roundText(s) + moveText(s);
}

// A match of rounds: "Round 3 (round 2: player_1 won, 40 seeds to 58). "
function roundText(s) {
  if (s.round === null || s.round === undefined) return "";
  const last = s.last_round;
  const result = last ? ` (round ${last.round}: ${last.winner === null ? "drawn" : who(last.winner) + " won"}, ` +
    `${last.seeds[0]} seeds to ${last.seeds[1]})` : "";
  return s.done ? `Match over after ${s.round} round${s.round === 1 ? "" : "s"}${result}. ` : `Round ${s.round}${result}. `;
}

function moveText(s) {
  const score = `stores: player_0 ${s.scores[0]}, player_1 ${s.scores[1]}`;
  if (s.done) {
    const end = s.winner === null ? "a draw" : `${who(s.winner)} wins`;
    return `Game over, ${score}: ${end}.`;
  }
  if (ui.busy) {  // a policy's reply searches for at most the server's move time
    const thinking = ui.record.players[s.to_move] === null ? "" : `, thinking up to ${ui.catalog.limits.move_time} s`;
    return `${who(s.to_move)} to move…${thinking} (${score})`;
  }
  const pits = (s.board.length - 2) / 2, choose = s.legal.some((a) => a < pits && s.legal.includes(a + pits));
  const how = choose ? "click a pit (shift-click: sow it clockwise)" : "click a pit";
  return personToMove() ? `${who(s.to_move)} to move: ${how} (${score})` : `${who(s.to_move)} to move (${score})`;
}

// -- moves ---------------------------------------------------------------------------------
// A move is sown seed by seed at the page's speed, but in at most MOVE_STEPS steps' time: a Sungka
// relay of hundreds of seeds would otherwise take most of a minute.
const MOVE_STEPS = 12;

async function sow(entry) {
  const delay = Math.min(speed(), speed() * MOVE_STEPS / Math.max(entry.steps.length, 1));
  const pits = (ui.state.board.length - 2) / 2, origin = entry.player * (pits + 1) + entry.pit % pits;
  Object.values(ui.cells).forEach((g) => { delete g.dataset.best; g.classList.remove("last-move"); });
  ui.cells[origin]?.classList.add("sowing");
  ui.lastMove = origin;
  $("status").textContent = `${who(entry.player)} sows ${pitName(entry.pit)}…`;
  for (const [cell, seeds] of entry.steps) {
    setCell(cell, seeds);
    ui.cells[cell]?.classList.add("touched");
    if (delay) await sleep(delay);
  }
  entry.board.forEach((seeds, cell) => setCell(cell, seeds));  // where no replay came, the result
  Object.values(ui.cells).forEach((g) => g.classList.remove("sowing", "touched"));
  ui.cells[origin]?.classList.add("last-move");
  const named = entry.events.filter((e) => e !== "game over");
  if (named.length) {
    $("banner").textContent = named.join(" · ");
    $("banner").dataset.events = entry.events.join(",");
    $("banner").classList.add("shown");
    if (delay) await sleep(Math.max(4 * delay, 500));
    $("banner").classList.remove("shown");
  }
  addMove(entry);
}

function addMove(entry) {
  ui.moveNo += 1;
  const li = document.createElement("li");
  li.dataset.player = entry.player; li.dataset.pit = entry.pit; li.dataset.events = (entry.events || []).join(",");
  li.textContent = `player_${entry.player}${entry.by && entry.by !== "person" ? " (" + entry.by + ")" : ""}: ${pitName(entry.pit)}` +
    (entry.events?.length ? ` (${entry.events.join(", ")})` : "");
  $("moves").append(li);
  li.scrollIntoView({ block: "nearest" });
}

async function show(result) {
  for (const entry of result.played || []) await sow(entry);
  ui.state = result.state;
  await loadBoard();
  await analyse();
}

async function newGame(body) {
  stopWatching();
  showError("");
  setBusy(true);
  try {
    const result = await api("POST", "/api/games", body);
    ui.id = result.id; ui.record = result; ui.state = result.state; ui.moveNo = 0; ui.lastMove = null;
    $("moves").replaceChildren();
    history.replaceState(null, "", `#${ui.id}`);
    await loadBoard();
    for (const entry of result.played) await sow(entry);
    await loadBoard();
    await analyse();
  } catch (error) {
    showError(error.message);
  } finally {
    setBusy(false);
  }
  if (!ui.record?.players.includes(null)) watch();
}

async function play(pit) {
  setBusy(true);
  showError("");
  try {
    const result = await api("POST", `/api/games/${ui.id}/moves`, { pit });
    ui.state = { ...ui.state, legal: [], to_move: null };
    await show(result);
  } catch (error) {
    showError(error.message);
  } finally {
    setBusy(false);
  }
}

// Two policies play, one move per request, at the page's speed; Pause stops between moves.
async function watch() {
  ui.watching = true; ui.paused = false;
  $("pause").textContent = "Pause";
  while (ui.watching && !ui.paused && ui.state && !ui.state.done) {
    setBusy(true);
    try {
      await show(await api("POST", `/api/games/${ui.id}/step`));
    } catch (error) {
      showError(error.message); break;
    } finally {
      setBusy(false);
    }
    await sleep(speed() * 2);
  }
}

function stopWatching() { ui.watching = false; }

async function undo() {
  setBusy(true);
  try {
    const result = await api("POST", `/api/games/${ui.id}/undo`);
    ui.state = result.state; ui.record = { ...ui.record, ...result };
    $("moves").replaceChildren(); ui.moveNo = 0; ui.lastMove = null;
    result.moves.forEach((m) => addMove({ ...m, events: [] }));
    await loadBoard();
    await analyse();
  } catch (error) {
    showError(error.message);
  } finally {
    setBusy(false);
  }
}

// -- the engines' view ---------------------------------------------------------------------
async function analyse() {
  const box = $("analysis");
  box.hidden = !$("engine-toggle").checked;
  Object.values(ui.cells).forEach((g) => delete g.dataset.best);
  if (box.hidden || !ui.state || ui.state.done) { box.replaceChildren(); return; }
  const engine = $("engine").value;
  box.textContent = `${engine} is thinking…`;
  try {
    const view = await api("GET", `/api/games/${ui.id}/analysis?engine=${engine}`);
    const perfect = Object.fromEntries((view.perfect?.moves || []).map((m) => [m.pit, m]));
    const rows = view.moves.map((m) => {
      const value = engine === "alphabeta" ? `${m.value > 0 ? "+" : ""}${m.value} seeds`
        : `${Math.round(100 * m.share)}% ${view.unit === "visit share" ? "of visits" : "(the network's prior)"}` + (m.value === null ? "" : `, value ${m.value}`);
      const exact = perfect[m.pit] ? (perfect[m.pit].gives_away === 0 ? " · optimal"
        : ` · gives away ${perfect[m.pit].gives_away}`) : "";
      return `<tr data-pit="${m.pit}"${m.pit === view.best ? ' class="best"' : ""}><td>${pitName(m.pit)}</td><td>${value}${exact}</td></tr>`;
    });
    const head = engine === "alphabeta" ? `value ${view.value > 0 ? "+" : ""}${view.value} seeds for player_${ui.state.to_move}`
      : `value ${view.value ?? "–"} for player_${ui.state.to_move} (${view.sims ?? 0} simulations)`;
    box.innerHTML = `<p><b>${engine}</b>: ${head}, best ${pitName(view.best)}${view.perfect ? " · perfect play: best margin " + view.perfect.best : ""}</p>` +
      `<table>${rows.join("")}</table>`;
    const pits = (ui.state.board.length - 2) / 2, bestCell = ui.state.to_move * (pits + 1) + view.best % pits;
    if (ui.cells[bestCell]) ui.cells[bestCell].dataset.best = "1";
  } catch (error) {
    box.textContent = error.message;
  }
}

// -- records -------------------------------------------------------------------------------
async function exportGame() {
  const record = await api("GET", `/api/games/${ui.id}`);
  const data = { game: record.game, rules: record.rules, players: record.players, moves: record.moves };
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([JSON.stringify(data, null, 1)], { type: "application/json" }));
  link.download = `${record.game}-${record.moves.length}-moves.json`;
  link.click();
}

async function importGame(file) {
  try {
    const record = JSON.parse(await file.text());
    $("game").value = record.game; fillRules(record.rules);
    await newGame({ game: record.game, rules: record.rules || {}, players: record.players || [null, null], moves: record.moves || [] });
  } catch (error) {
    showError(`import: ${error.message}`);
  }
}

// The current game's moves again from the start, one at a time at the page's speed.
async function replay() {
  const record = await api("GET", `/api/games/${ui.id}`);
  await newGame({ game: record.game, rules: record.rules, players: [null, null] });
  ui.record = { ...ui.record, players: record.players };
  setBusy(true);
  try {
    for (const move of record.moves) {
      ui.state = { ...ui.state, legal: [] };
      await show(await api("POST", `/api/games/${ui.id}/moves`, { pit: move.pit }));
      await sleep(speed());
    }
  } catch (error) {
    showError(error.message);
  } finally {
    setBusy(false);
  }
}

// -- start ---------------------------------------------------------------------------------
// The opponent the server would pick for the game (alphazero where a network is shipped for its
// rules, else alphabeta), put in the opponent fields unless they hold something else someone typed.
function suggestOpponent() {
  const suggested = gameInfo($("game").value)?.opponent ?? ui.catalog.default_opponent;
  const known = new Set([ui.catalog.default_opponent, ...ui.catalog.games.map((g) => g.opponent)]);
  for (const key of ["opponent", "player1"]) {
    if (!$(key).value || known.has($(key).value)) $(key).value = suggested;
  }
}

function formBody() {
  return { game: $("game").value, rules: readRules(), players: players() };
}

async function start() {
  ui.catalog = await api("GET", "/api/games");
  // The registered games, then the traditional games by name that are points of them (Oware, Sungka and
  // Togyz Kumalak are registered games of their own, listed once, in the first group).
  const group = (label, options) => {
    const element = document.createElement("optgroup");
    element.label = label; element.append(...options);
    return element;
  };
  $("game").append(
    group("Games and rules spaces", ui.catalog.games.map((g) => new Option(g.name, g.name))),
    group("Traditional games", ui.catalog.named.filter((g) => !ui.catalog.games.some((r) => r.name === g.name))
      .map((g) => { const o = new Option(g.title, g.name); o.title = `${g.region}. ${g.about}`; return o; })));
  ui.catalog.policies.forEach((p) => $("policies").append(new Option(p)));
  const params = new URLSearchParams(location.search);
  for (const key of ["game", "mode", "speed", "seat", "player0"]) {
    if (params.has(key)) $(key).value = params.get(key);
  }
  suggestOpponent();
  for (const key of ["opponent", "player1"]) if (params.has(key)) $(key).value = params.get(key);
  fillRules();
  showMode();
  $("game").addEventListener("change", () => { fillRules(); suggestOpponent(); });
  $("mode").addEventListener("change", showMode);
  $("setup").addEventListener("submit", (event) => { event.preventDefault(); newGame(formBody()); });
  $("board").addEventListener("click", (event) => {
    const g = event.target.closest("g.cell.clickable");
    if (g && !ui.busy && personToMove()) play(actionFor(Number(g.dataset.pit), event.shiftKey));
  });
  $("undo").addEventListener("click", undo);
  $("pause").addEventListener("click", () => {
    if (ui.paused || !ui.watching) watch(); else { ui.paused = true; $("pause").textContent = "Resume"; }
  });
  $("rules-button").addEventListener("click", () => {
    const info = gameInfo(ui.record?.game || $("game").value);
    $("rules-title").textContent = info.title || info.name;
    // the rules of the game on the board (its own parameters), else of the game picked in the form
    $("rules-text").textContent = ui.record?.rules_doc || info.rules_doc;
    $("rules-dialog").showModal();
    $("rules-dialog").scrollTop = 0;  // showModal focuses the Close button below the text: open at the top
  });
  $("engine-toggle").addEventListener("change", analyse);
  $("engine").addEventListener("change", analyse);
  $("export").addEventListener("click", exportGame);
  $("import").addEventListener("change", (event) => event.target.files[0] && importGame(event.target.files[0]));
  $("replay").addEventListener("click", replay);
  await newGame(formBody());
}

start().catch((error) => showError(error.message));
