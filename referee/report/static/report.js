"use strict";
// The list of games and the game viewer of a referee report. Each game's boards are the
// engine's SVG, stored as token numbers and packed (referee/report/boards.py says why); a game
// is unpacked when it is opened. Links: #game-N opens the N-th game, #game-N/turn-T at turn T.
(() => {
  const data = JSON.parse(document.getElementById("report-data").textContent);
  const dialog = document.getElementById("viewer");
  const board = document.getElementById("board");
  const moves = document.getElementById("moves");
  const counter = document.getElementById("counter");
  const caption = document.getElementById("caption");
  const replayError = document.getElementById("replay-error");
  const showCommand = document.getElementById("show-command");
  const title = document.getElementById("viewer-title");
  const players = document.getElementById("players");

  let game = null; // the open game's index
  let turns = []; // its turns: [seat, roll, move], then [score/depth, engine output] if any
  let positions = []; // its boards as SVG text: the start, then after each turn
  let current = 0;
  let opening = 0; // counts openings, so that a slow unpacking of an earlier game is dropped
  let tokens = null; // the SVG tokens of all boards, unpacked at the first opening

  // JSON, deflated, in base64 (referee/report/boards.py `pack`).
  async function unpack(base64) {
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate"));
    return JSON.parse(await new Response(stream).text());
  }

  async function unpackGame(index) {
    tokens ??= unpack(data.tokens);
    const [words, body] = await Promise.all([tokens, unpack(data.games[index].pack)]);
    const boards = body.positions.map((numbers) => numbers.map((n) => words[n]).join("<"));
    return [body.turns, boards];
  }

  function span(className, text) {
    const element = document.createElement("span");
    element.className = className;
    element.textContent = text;
    return element;
  }

  // A turn's move as the list and the caption show it: a player with no move (Takhteh's
  // dice can leave none) says so rather than showing nothing.
  const moveText = (move) => move || "no move";

  // Each turn a line: the move (wrapped when the column is narrow), its score at the right.
  function fillMoves(info) {
    const start = document.createElement("li");
    start.textContent = "start";
    start.dataset.position = "0";
    const items = turns.map(([seat, roll, move, score, note], i) => {
      const item = document.createElement("li");
      item.append(
        span("move", `${i + 1}. ${info.players[seat]}${roll ? ` ${roll}` : ""}: ${moveText(move)}`),
      );
      if (score) item.append(" ", span("score", `{${score}}`));
      if (note) item.title = note;
      item.dataset.position = String(i + 1);
      return item;
    });
    moves.replaceChildren(start, ...items);
  }

  // The players by seat, the boards' "seat 0" and "seat 1"; the one who played the move
  // shown is marked.
  function fillPlayers(info) {
    players.replaceChildren(
      ...info.players.flatMap((name, seat) => [
        ...(seat ? [" · "] : []),
        span("seat", `seat ${seat}: `),
        span("player", name),
      ]),
    );
  }

  function show(position) {
    const info = data.games[game];
    current = Math.max(0, Math.min(position, positions.length - 1));
    board.innerHTML = positions[current] ?? "";
    counter.textContent = `${current} / ${turns.length}`;
    for (const item of moves.children) {
      const here = Number(item.dataset.position) === current;
      item.classList.toggle("current", here);
      item.classList.toggle("unplayed", Number(item.dataset.position) >= positions.length);
      if (here) {
        item.setAttribute("aria-current", "step");
        item.scrollIntoView({ block: "nearest" });
      } else {
        item.removeAttribute("aria-current");
      }
    }
    const moved = current === 0 ? null : turns[current - 1][0];
    players.querySelectorAll(".player").forEach((name, seat) => {
      name.classList.toggle("moved", seat === moved);
    });
    if (current === 0) {
      caption.textContent = "The start of the game.";
    } else {
      const [seat, roll, move, , note] = turns[current - 1];
      const rolled = roll ? ` rolled ${roll} and` : "";
      const played = move ? ` played ${move}` : " had no move";
      caption.textContent =
        `Turn ${current} of ${turns.length}: ${info.players[seat]} (seat ${seat})` +
        `${rolled}${played}.` +
        (note ? ` ${note[0].toUpperCase()}${note.slice(1)}.` : "");
    }
    const file = data.files[info.file];
    showCommand.textContent = `referee show ${file} --game-number ${info.number} --turn ${current}`;
    history.replaceState(null, "", `#game-${game + 1}/turn-${current}`);
  }

  async function open(index, position) {
    const info = data.games[index];
    const ticket = ++opening;
    game = index;
    turns = [];
    positions = [];
    const how = [info.reason, info.detail].filter(Boolean).join(": ");
    title.textContent =
      `Game ${info.label}: ${info.players[0]} – ${info.players[1]}, ${info.result}` +
      (how ? ` (${how})` : "");
    fillPlayers(info);
    replayError.hidden = !info.error;
    replayError.textContent = info.error ?? "";
    moves.replaceChildren();
    counter.textContent = "";
    caption.textContent = "";
    board.textContent = "drawing…";
    if (!dialog.open) dialog.showModal();
    if (typeof DecompressionStream !== "function") {
      board.textContent = "This browser cannot unpack the games (no DecompressionStream).";
      return;
    }
    const [gameTurns, boards] = await unpackGame(index);
    if (ticket !== opening) return;
    turns = gameTurns;
    positions = boards;
    fillMoves(info);
    show(position);
  }

  function step(how) {
    if (game === null || positions.length === 0) return;
    const target = {
      first: 0,
      prev: current - 1,
      next: current + 1,
      last: positions.length - 1,
    }[how];
    show(target);
  }

  function route() {
    const match = /^#game-(\d+)(?:\/turn-(\d+))?$/.exec(location.hash);
    const index = match ? Number(match[1]) - 1 : -1;
    if (index >= 0 && index < data.games.length) {
      const position = match[2] === undefined ? 0 : Number(match[2]);
      if (index === game && dialog.open && positions.length) show(position);
      else open(index, position);
    } else if (dialog.open) {
      dialog.close();
    }
  }

  document.addEventListener("click", (event) => {
    const row = event.target.closest("tr[data-game]");
    if (row && !event.target.closest("a")) location.hash = `#game-${Number(row.dataset.game) + 1}`;
  });
  dialog.querySelector(".controls").addEventListener("click", (event) => {
    const button = event.target.closest("button[data-step]");
    if (button) step(button.dataset.step);
  });
  dialog.querySelector(".close").addEventListener("click", () => dialog.close());
  moves.addEventListener("click", (event) => {
    const item = event.target.closest("li");
    if (item && Number(item.dataset.position) < positions.length) {
      show(Number(item.dataset.position));
    }
  });
  document.addEventListener("keydown", (event) => {
    if (!dialog.open) return;
    const how = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" }[event.key];
    if (how) {
      event.preventDefault();
      step(how);
    }
  });
  dialog.addEventListener("close", () => {
    game = null;
    opening++;
    history.replaceState(null, "", location.pathname + location.search);
  });
  window.addEventListener("hashchange", route);

  // The list of games, PAGE rows at a time, of the games that pass the filter.
  const PAGE = 100;
  const list = document.getElementById("game-list");
  const filter = document.getElementById("filter");
  const previousPage = document.getElementById("previous-page");
  const nextPage = document.getElementById("next-page");
  const pageInfo = document.getElementById("page-info");
  const severalKinds = new Set(data.games.map((info) => info.ruleset)).size > 1;
  const columns = [
    ["game", (info, i) => link(info, i)],
    ...(severalKinds ? [["ruleset", (info) => info.ruleset]] : []),
    ["seat 0", (info) => info.players[0]],
    ["seat 1", (info) => info.players[1]],
    ["result", (info) => info.result],
    ["reason", (info) => info.reason],
    ["detail", (info) => info.detail],
    ["turns", (info) => String(info.turns)],
  ];
  let matching = data.games.map((_, i) => i);
  let page = 0;
  let searchText = null; // each game's text for the filter, made at the first filtering

  function link(info, i) {
    const anchor = document.createElement("a");
    anchor.href = `#game-${i + 1}`;
    anchor.textContent = info.label;
    return anchor;
  }

  function drawList() {
    const first = page * PAGE;
    const rows = matching.slice(first, first + PAGE).map((i) => {
      const row = document.createElement("tr");
      row.dataset.game = String(i);
      for (const [name, cell] of columns) {
        const td = document.createElement("td");
        td.append(cell(data.games[i], i));
        if (name === "turns") td.className = "num";
        row.append(td);
      }
      return row;
    });
    list.tBodies[0].replaceChildren(...rows);
    pageInfo.textContent = matching.length
      ? `${first + 1}–${first + rows.length} of ${matching.length}`
      : "no game matches";
    previousPage.disabled = page === 0;
    nextPage.disabled = first + PAGE >= matching.length;
  }

  const head = document.createElement("tr");
  for (const [name] of columns) {
    const th = document.createElement("th");
    th.textContent = name;
    head.append(th);
  }
  list.tHead.append(head);
  filter.addEventListener("input", () => {
    searchText ??= data.games.map((info) =>
      [info.label, info.ruleset, ...info.players, info.result, info.reason, info.detail]
        .join(" ")
        .toLowerCase(),
    );
    const wanted = filter.value.trim().toLowerCase();
    matching = data.games.map((_, i) => i).filter((i) => searchText[i].includes(wanted));
    page = 0;
    drawList();
  });
  previousPage.addEventListener("click", () => {
    page -= 1;
    drawList();
  });
  nextPage.addEventListener("click", () => {
    page += 1;
    drawList();
  });
  drawList();

  route();
  document.documentElement.dataset.ready = "true";
})();
