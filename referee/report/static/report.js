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
  const equity = document.getElementById("equity");
  const SVG = "http://www.w3.org/2000/svg";

  let game = null; // the open game's index
  let turns = []; // its turns: [seat, roll, move], then [score/depth, engine output] if any
  let positions = []; // its boards as SVG text: the start, then after each turn
  let analysis = null; // its analysis: per turn [error, best, luck, value for seat 0], if any
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
    return [body.turns, boards, body.analysis ?? null];
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

  // Figures of the analysis: chances of winning, three decimals; luck with its sign.
  const figure = (value) => value.toFixed(3);
  const signed = (value) => (value >= 0 ? "+" : "") + figure(value); // as the standings write it
  const isBlunder = (error) => error !== null && error >= analysis.blunder;

  // The analysis's two columns at the right of a line of the move list.
  function figureColumns(luck, error) {
    const columns = span("figures", "");
    columns.append(span("luck", luck), span("error", error));
    return columns;
  }

  // Each turn a line: the move (wrapped when the column is narrow), its score at the right,
  // and with an analysis the roll's luck and the move's error (a blunder marked).
  function fillMoves(info) {
    const start = document.createElement("li");
    start.textContent = "start";
    start.dataset.position = "0";
    if (analysis) start.append(figureColumns("luck", "error"));
    const items = turns.map(([seat, roll, move, score, note], i) => {
      const item = document.createElement("li");
      item.append(
        span("move", `${i + 1}. ${info.players[seat]}${roll ? ` ${roll}` : ""}: ${moveText(move)}`),
      );
      if (score) item.append(" ", span("score", `{${score}}`));
      if (note) item.title = note;
      const figures = analysis?.turns[i];
      if (figures) {
        const [error, , luck] = figures;
        const blunder = isBlunder(error) ? "??" : "";
        item.append(
          figureColumns(
            luck === null ? "" : signed(luck),
            error === null ? "" : `${figure(error)}${blunder}`,
          ),
        );
        item.classList.toggle("blunder", Boolean(blunder));
      }
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
      const opened = analysis?.opening;
      caption.textContent =
        "The start of the game." +
        (opened
          ? ` The opening roll made ${info.players[opened[0]]} (seat ${opened[0]}) start:` +
            ` luck ${signed(opened[1])}.`
          : "");
    } else {
      const [seat, roll, move, , note] = turns[current - 1];
      const rolled = roll ? ` rolled ${roll} and` : "";
      const played = move ? ` played ${move}` : " had no move";
      caption.textContent =
        `Turn ${current} of ${turns.length}: ${info.players[seat]} (seat ${seat})` +
        `${rolled}${played}.` +
        (note ? ` ${note[0].toUpperCase()}${note.slice(1)}.` : "") +
        judged(analysis?.turns[current - 1]);
    }
    markEquity();
    const file = data.files[info.file];
    showCommand.textContent = `referee show ${file} --game-number ${info.number} --turn ${current}`;
    history.replaceState(null, "", `#game-${game + 1}/turn-${current}`);
  }

  // What the analysis says of a turn, for the caption.
  function judged(figures) {
    if (!figures) return "";
    const [error, best, luck] = figures;
    const parts = [];
    if (luck !== null) parts.push(` The roll's luck: ${signed(luck)}.`);
    if (error === null) parts.push(" No choice.");
    else if (!best) parts.push(" The reference's best move.");
    else {
      const what = isBlunder(error) ? "a blunder" : "an error";
      parts.push(` Error ${figure(error)}, ${what}; best: ${best}.`);
    }
    return parts.join("");
  }

  // The equity graph: the chance of winning of seat 0 before each move, by the reference,
  // drawn at the figure's width; blunders as red dots, the turn shown as a line. A click on
  // it shows that turn.
  const GRAPH_HEIGHT = 120;
  const PAD = { left: 34, right: 8, top: 6, bottom: 6 };

  function graphX(turn, width) {
    const span = Math.max(1, turns.length - 1);
    return PAD.left + ((turn - 1) / span) * (width - PAD.left - PAD.right);
  }
  const graphY = (value) => PAD.top + (1 - value) * (GRAPH_HEIGHT - PAD.top - PAD.bottom);

  function svg(name, attributes) {
    const element = document.createElementNS(SVG, name);
    for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
    return element;
  }

  function drawEquity(info) {
    const values = analysis ? analysis.turns.map((figures) => figures[3]) : [];
    equity.hidden = !values.some((value) => value !== null);
    if (equity.hidden) {
      equity.replaceChildren();
      return;
    }
    const width = Math.max(160, equity.clientWidth);
    const graph = svg("svg", {
      width,
      height: GRAPH_HEIGHT,
      viewBox: `0 0 ${width} ${GRAPH_HEIGHT}`,
      role: "img",
      "aria-label": `chance of winning of ${info.players[0]} (seat 0) by turn`,
    });
    for (const level of [0, 0.5, 1]) {
      const y = graphY(level);
      const line = { x1: PAD.left, x2: width - PAD.right, y1: y, y2: y };
      graph.append(svg("line", { ...line, class: `level l${level * 2}` }));
      const label = svg("text", { x: PAD.left - 4, y: y + 4, "text-anchor": "end" });
      label.textContent = `${level * 100}%`;
      graph.append(label);
    }
    // A book move has no value: the line breaks there.
    let path = "";
    let pen = "M";
    values.forEach((value, i) => {
      if (value === null) {
        pen = "M";
        return;
      }
      path += `${pen}${graphX(i + 1, width).toFixed(1)},${graphY(value).toFixed(1)}`;
      pen = "L";
    });
    graph.append(svg("path", { d: path, class: "equity-line" }));
    analysis.turns.forEach(([error, , , value], i) => {
      if (value !== null && isBlunder(error)) {
        const dot = svg("circle", {
          cx: graphX(i + 1, width),
          cy: graphY(value),
          r: 3.5,
          class: "blunder-dot",
        });
        const tip = svg("title", {});
        tip.textContent = `turn ${i + 1}: blunder, error ${figure(error)}`;
        dot.append(tip);
        graph.append(dot);
      }
    });
    graph.append(svg("line", { y1: PAD.top, y2: GRAPH_HEIGHT - PAD.bottom, class: "here" }));
    const note = document.createElement("figcaption");
    note.textContent =
      `${info.players[0]}'s (seat 0) chance of winning before each move, by the reference` +
      ` ${analysis.engine}; red dots: blunders. A click shows that turn.`;
    equity.replaceChildren(graph, note);
    markEquity();
  }

  function markEquity() {
    const here = equity.querySelector(".here");
    if (!here) return;
    const width = Number(equity.querySelector("svg").getAttribute("width"));
    const x = graphX(Math.max(1, current), width);
    here.setAttribute("x1", x);
    here.setAttribute("x2", x);
    here.style.visibility = current === 0 ? "hidden" : "visible";
  }

  equity.addEventListener("click", (event) => {
    const graph = equity.querySelector("svg");
    if (!graph || !positions.length) return;
    const box = graph.getBoundingClientRect();
    const width = Number(graph.getAttribute("width"));
    const span = Math.max(1, turns.length - 1);
    const fraction = (event.clientX - box.left - PAD.left) / (width - PAD.left - PAD.right);
    show(Math.max(1, Math.min(turns.length, Math.round(fraction * span) + 1)));
  });
  window.addEventListener("resize", () => {
    if (game !== null && dialog.open && positions.length) drawEquity(data.games[game]);
  });

  async function open(index, position) {
    const info = data.games[index];
    const ticket = ++opening;
    game = index;
    turns = [];
    positions = [];
    analysis = null;
    equity.hidden = true;
    equity.replaceChildren();
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
    const [gameTurns, boards, gameAnalysis] = await unpackGame(index);
    if (ticket !== opening) return;
    turns = gameTurns;
    positions = boards;
    analysis = gameAnalysis;
    fillMoves(info);
    drawEquity(info);
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
  // With an analysis, each seat's error per decision, blunders and net luck (its luck less
  // its opponent's), empty for a game not analysed.
  const seatFigure = (seat, place, text) => (info) => {
    const value = info.analysis?.[seat][place];
    return value === undefined || value === null ? "" : text(value);
  };
  const analysed = data.analysed
    ? [0, 1].flatMap((seat) => [
        [
          `error ${seat}`,
          seatFigure(seat, 0, (value) => value.toFixed(4)),
          `seat ${seat}'s mean error per decision`,
        ],
        [`blunders ${seat}`, seatFigure(seat, 1, String), `seat ${seat}'s errors of 0.08 or more`],
        [`luck ${seat}`, seatFigure(seat, 2, signed), `seat ${seat}'s luck less the other's`],
      ])
    : [];
  const columns = [
    ["game", (info, i) => link(info, i)],
    ...(severalKinds ? [["ruleset", (info) => info.ruleset]] : []),
    ["seat 0", (info) => info.players[0]],
    ["seat 1", (info) => info.players[1]],
    ["result", (info) => info.result],
    ["reason", (info) => info.reason],
    ["detail", (info) => info.detail],
    ["turns", (info) => String(info.turns), ""],
    ...analysed,
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
      for (const [, cell, about] of columns) {
        const td = document.createElement("td");
        td.append(cell(data.games[i], i));
        if (about !== undefined) td.className = "num";
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
  for (const [name, , about] of columns) {
    const th = document.createElement("th");
    th.textContent = name;
    if (about) th.title = about;
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
