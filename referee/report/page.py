"""The report as one self-contained HTML page: inline CSS, script, SVG and data, nothing fetched.

The tables, the plot and the forfeits are plain HTML. The list of games is drawn by the script
from the games' data (one JSON block), a page of rows at a time: a thousand rows of HTML would
take most of the time the page needs to open. The script also runs the game viewer, the filter
of the list and links to games (`#game-17`, `#game-17/turn-30`).
"""

from __future__ import annotations

import base64
import html
import json
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Any

from referee.escaping import escaped, printable, printable_json
from referee.ratings.output import table_html
from referee.ratings.table import RatingOptions, RatingTable
from referee.report.analysed import BOT_HEADERS
from referee.report.build import GameRow, Report, collect
from referee.report.target import sources, sources_meta


def _static(name: str) -> str:
    return resources.files("referee.report").joinpath("static", name).read_text("utf-8")


def _label(row: GameRow, several_files: bool) -> str:
    """How the page names a game: its number in its file, with the file when there are more."""
    return f"{row.file} #{row.number}" if several_files else str(row.number)


def _cells(*cells: str) -> str:
    return "".join(f"<td>{html.escape(printable(cell))}</td>" for cell in cells)


def _link(index: int, text: str) -> str:
    return f'<a href="#game-{index + 1}">{html.escape(printable(text))}</a>'


def _table(headers: list[str], rows: list[str]) -> str:
    head = "".join(f"<th>{html.escape(header)}</th>" for header in headers)
    body = "\n".join(rows)
    return f"<table><thead><tr>{head}</tr></thead>\n<tbody>\n{body}\n</tbody></table>"


def _forfeits(report: Report, several_files: bool) -> str:
    rows = [
        f'<tr data-game="{index}"><td>{_link(index, _label(row, several_files))}</td>'
        + _cells(row.forfeited_by, row.reason, row.detail, " – ".join(row.players))
        + "</tr>"
        for index, row in enumerate(report.games)
        if row.forfeited_by is not None
    ]
    if not rows:
        return "<p>No game was lost by a forfeit.</p>"
    return _table(["game", "lost by", "reason", "detail", "players"], rows)


def _bot_columns(
    report: Report, table: RatingTable
) -> tuple[Sequence[str], dict[str, list[str]]] | None:
    """The standings' columns of the analysis: each bot's analysed games, error per
    decision, blunders and luck per game; none when no game of the table is analysed."""
    bots = report.bots.get((table.game, table.variant))
    if not bots:
        return None
    return BOT_HEADERS, {name: figures.cells() for name, figures in bots.items()}


def _data(report: Report, several_files: bool) -> str:
    """The viewer's data as JSON that is safe inside a script element."""
    files = {file: index for index, file in enumerate(report.files)}
    games: list[dict[str, Any]] = []
    for row, packed, error in zip(report.games, report.packs, report.errors, strict=True):
        game = {
            "label": _label(row, several_files),
            "file": files[row.file],
            "number": row.number,
            "ruleset": row.ruleset,
            "players": row.players,
            "result": row.result,
            "reason": row.reason,
            "detail": row.detail,
            "turns": row.turns,
            "pack": packed,
        }
        if error is not None:
            game["error"] = error
        if row.analysis is not None:
            game["analysis"] = row.analysis
        games.append(game)
    data = {
        "files": report.files,
        "tokens": report.tokens,
        "games": games,
        "analysed": any(row.analysis is not None for row in report.games),
    }
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    # `</script>` or `<!--` inside the data would end or change the script element; no `<` at
    # all is the simplest guarantee, and JSON reads \u003c back as `<`.
    # Control characters of names and moves (an escape, a bidi override) as JSON escapes too:
    # the page holds none raw, and the script reads the same strings.
    return printable_json(text.replace("<", "\\u003c"))


_VIEWER = """<dialog id="viewer" aria-labelledby="viewer-title">
<div class="viewer-head"><h2 id="viewer-title"></h2>
<button type="button" class="close" aria-label="close the viewer">✕</button></div>
<div class="viewer-body">
<div class="board-side">
<p id="players"></p>
<div id="board" aria-live="polite"></div>
<div class="controls">
<button type="button" data-step="first" aria-label="first position" title="Home">|◀</button>
<button type="button" data-step="prev" aria-label="previous position" title="←">◀</button>
<span id="counter"></span>
<button type="button" data-step="next" aria-label="next position" title="→">▶</button>
<button type="button" data-step="last" aria-label="last position" title="End">▶|</button>
</div>
<p id="caption"></p>
<figure id="equity" hidden></figure>
<p id="replay-error" hidden></p>
<p class="hint">In a terminal: <code id="show-command"></code></p>
</div>
<ol id="moves"></ol>
</div>
</dialog>"""


def build_report(
    paths: Sequence[str | Path],
    options: RatingOptions | None = None,
    made_from: Sequence[str] | None = None,
    analyses: Sequence[str | Path] = (),
) -> str:
    """The report of tournament folders and record files (any mix) as HTML text, its ratings
    fitted with `options` (`referee ratings`' defaults when None), with the analyses of the
    tournament folders' analysis files and of `analyses`; the page names `made_from` as its
    sources (`target.sources(paths)` when None)."""
    report = collect(paths, options, analyses)
    page = render_page(report, sources(paths) if made_from is None else made_from)
    return escaped(page)  # the names of files whose bytes are no UTF-8, which no page holds


def render_page(report: Report, made_from: Sequence[str] = ()) -> str:
    """The page; it names `made_from`, the paths it was made from (`target.sources`)."""
    several_files = len(report.files) > 1
    facts = "".join(f"<p>{html.escape(printable(fact))}</p>" for fact in report.facts)
    if report.tables:
        tables = "\n".join(
            f'<section class="ratings">\n{table_html(table, _bot_columns(report, table))}\n'
            "</section>"
            for table in report.tables
        )
    else:
        tables = '<section class="ratings"><p>No finished game to rate.</p></section>'
    plot = ""
    if report.plot_svg is not None:
        # An image, not inline SVG: matplotlib's SVG carries a style sheet that would apply to
        # the whole page, boards included.
        source = base64.b64encode(report.plot_svg.encode("utf-8")).decode("ascii")
        plot = (
            '<section id="plot"><h2>Rating plot</h2>\n<figure><img alt="Elo ratings with 95% '
            f'intervals" src="data:image/svg+xml;base64,{source}"></figure></section>'
        )
    title = html.escape(printable(report.title))
    return "\n".join(
        [
            "<!DOCTYPE html>",
            '<html lang="en"><head><meta charset="utf-8">',
            sources_meta(made_from),
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            f"<title>{title}</title>",
            f"<style>{_static('report.css')}</style>",
            "</head><body>",
            f"<header><h1>{title}</h1>{facts}</header>",
            tables,
            plot,
            '<section id="forfeits"><h2>Forfeits</h2>',
            _forfeits(report, several_files),
            "</section>",
            f'<section id="games"><h2>Games ({len(report.games)})</h2>',
            '<p><input type="search" id="filter" placeholder="filter: a name, a result, a reason"'
            ' aria-label="filter the games"> Click a game to step through it.</p>',
            "<noscript><p>The list of games and the viewer need JavaScript.</p></noscript>",
            '<table id="game-list"><thead></thead><tbody></tbody></table>',
            '<p class="pages"><button type="button" id="previous-page">previous</button>'
            ' <span id="page-info"></span> <button type="button" id="next-page">next</button></p>',
            "</section>",
            _VIEWER,
            f'<script type="application/json" id="report-data">{_data(report, several_files)}'
            "</script>",
            f"<script>{_static('report.js')}</script>",
            "</body></html>",
        ]
    )
