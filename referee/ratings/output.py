"""Writing rating tables: the terminal (rich), CSV, Markdown, JSON and HTML.

Markdown, HTML and the terminal show the same cells (`_display`); CSV and JSON carry the
standings' own columns as numbers, rounded to 0.1 so that a table reads the same on every
machine.
"""

from __future__ import annotations

import html
import io
import json
import math
from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd
from rich import box
from rich.console import Console
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from referee.escaping import csv_cell, markdown_cell, markdown_row, printable, printable_json
from referee.ratings.formats import RATING_OUTPUTS
from referee.ratings.standings import FORFEIT_REASONS
from referee.ratings.table import STANDINGS_COLUMNS, RatingTable
from referee.wording import plural

ROUNDED = ("score_pct", "elo", "elo_low", "elo_high", "los_next_pct", "incremental_elo")
"""Standings columns rounded to one decimal in every output."""

HEADERS = (
    "#",
    "bot",
    "games",
    "W",
    "D",
    "L",
    "points",
    "score",
    "Elo",
    "95% interval",
    "LOS next",
    "incr. Elo",
    "forfeits",
)
"""The columns shown by Markdown, HTML and the terminal."""
RIGHT_ALIGNED = frozenset(HEADERS) - {"bot", "forfeits"}

BOUND_MARKS = {"": "", "lower": "≥ ", "upper": "≤ ", "both": "~ "}
PAIR_HEADERS = ("bot", "opponent", "0", "½", "1", "1½", "2")


def _number(value: float) -> str:
    if math.isnan(value):
        return ""
    if math.isinf(value):
        return "+∞" if value > 0 else "-∞"
    text = f"{value:.1f}"
    return "0.0" if text == "-0.0" else text


def _interval(low: float, high: float) -> str:
    # an infinite end is open: the games set no limit there
    left = "(" if math.isinf(low) else "["
    right = ")" if math.isinf(high) else "]"
    return f"{left}{_number(low)}, {_number(high)}{right}"


def _forfeits(row: pd.Series) -> str:
    if not row["forfeits"]:
        return "0"
    parts = [
        f"{reason.replace('_', ' ')} {row[f'forfeit_{reason}']}"
        for reason in FORFEIT_REASONS
        if row[f"forfeit_{reason}"]
    ]
    return f"{row['forfeits']} ({', '.join(parts)})"


def _display(table: RatingTable) -> list[list[str]]:
    """The standings as the cells shown to a reader, one list per bot."""
    rows = []
    for _, row in table.standings.iterrows():
        los = _number(row["los_next_pct"])
        rows.append(
            [
                str(row["rank"]),
                str(row["bot"]),
                str(row["games"]),
                str(row["wins"]),
                str(row["draws"]),
                str(row["losses"]),
                str(row["points"]),
                f"{row['score_pct']:.1f}%",
                BOUND_MARKS[row["bound"]] + _number(row["elo"]),
                _interval(row["elo_low"], row["elo_high"]),
                f"{los}%" if los else "",
                _number(row["incremental_elo"]),
                _forfeits(row),
            ]
        )
    return rows


def _crosstable_cells(table: RatingTable) -> tuple[list[str], list[list[str]]]:
    """The crosstable as a square of 'W-D-L (score%)' cells, rows and columns in rank order."""
    names = list(table.standings["bot"])
    cells = {
        (row.bot, row.opponent): f"{row.wins}-{row.draws}-{row.losses} ({row.score_pct:.1f}%)"
        for row in table.crosstable.itertuples()
    }
    rows = [[bot] + [cells.get((bot, other), "") for other in names] for bot in names]
    return ["", *names], rows


def _los_cells(table: RatingTable) -> tuple[list[str], list[list[str]]]:
    names = list(table.los.index)
    rows = [[bot] + [_number(value) for value in table.los.loc[bot].tolist()] for bot in names]
    return ["", *names], rows


def _pair_cells(table: RatingTable) -> list[list[str]]:
    """Pentanomial counts, one row per pair of bots that played colour-swapped game pairs,
    from the side of the better-ranked bot."""
    rank = {bot: i for i, bot in enumerate(table.standings["bot"])}
    rows: list[list[Any]] = []
    for row in table.crosstable.itertuples():
        counts = [getattr(row, f"pairs_{k}") for k in range(5)]
        if rank[row.bot] < rank[row.opponent] and sum(counts):
            rows.append([row.bot, row.opponent, *map(str, counts)])
    return sorted(rows, key=lambda cells: (rank[cells[0]], rank[cells[1]]))


def _advantage_words(table: RatingTable) -> str:
    value, low, high = table.advantage
    if not table.advantage_fitted:
        return f"first-move advantage {_number(value)} Elo (given)"
    return f"first-move advantage {_number(value)} Elo, 95% [{_number(low)}, {_number(high)}]"


def _draw_words(table: RatingTable) -> str:
    rate = table.draw_rate / 100
    if not 0 < rate < 1:
        return f"draws {table.draw_rate:.1f}%"
    # BayesElo's drawelo: the draw margin that gives this draw rate between equal bots.
    drawelo = 400 * math.log10((1 + rate) / (1 - rate))
    return f"draws {table.draw_rate:.1f}% (drawelo {drawelo:.0f} between equal bots)"


def _summary(table: RatingTable) -> str:
    return (
        f"{plural(table.games, 'game')}. Elo: joint Bradley-Terry fit, draws as half, "
        f"{table.anchor}; "
        f"{_advantage_words(table)}; {_draw_words(table)}; intervals: {table.interval}."
    )


def _rounded(table: RatingTable) -> pd.DataFrame:
    frame = table.standings.copy()
    # adding 0.0 turns a -0.0 from rounding into 0.0
    frame[list(ROUNDED)] = frame[list(ROUNDED)].round(1) + 0.0
    return frame


# Markdown ---------------------------------------------------------------------------------


def _md_table(headers: Sequence[str], rows: Sequence[Sequence[str]], right: frozenset[str]) -> str:
    align = ["---:" if header in right else ":---" for header in headers]
    lines = [
        markdown_row(headers),
        "| " + " | ".join(align) + " |",
    ]
    lines += [markdown_row(row) for row in rows]
    return "\n".join(lines)


def to_markdown(tables: Sequence[RatingTable]) -> str:
    parts = []
    for table in tables:
        parts.append(f"## {table.title}\n\n{markdown_cell(_summary(table))}")
        parts.append(_md_table(HEADERS, _display(table), RIGHT_ALIGNED))
        headers, rows = _crosstable_cells(table)
        parts.append("### Crosstable\n\n" + _md_table(headers, rows, frozenset(headers[1:])))
        headers, rows = _los_cells(table)
        parts.append(
            "### Likelihood of superiority (%)\n\n"
            + _md_table(headers, rows, frozenset(headers[1:]))
        )
        pairs = _pair_cells(table)
        if pairs:
            parts.append(
                "### Colour-swapped game pairs by score (pentanomial)\n\n"
                + _md_table(PAIR_HEADERS, pairs, frozenset(PAIR_HEADERS[2:]))
            )
        if table.notes:
            parts.append("\n".join(f"- {markdown_cell(note)}" for note in table.notes))
    return "\n\n".join(parts) + "\n"


# CSV and JSON -----------------------------------------------------------------------------


def to_csv(tables: Sequence[RatingTable]) -> str:
    """The standings of every table, one row per bot, with the game and variant first."""
    frames = [_rounded(table).assign(game=table.game, variant=table.variant) for table in tables]
    columns = ["game", "variant", *STANDINGS_COLUMNS]
    frame = pd.concat(frames) if frames else pd.DataFrame(columns=columns)
    for column in ("game", "variant", "bot"):
        frame[column] = frame[column].map(csv_cell)
    buffer = io.StringIO()
    frame[columns].to_csv(buffer, index=False, lineterminator="\n")
    return buffer.getvalue()


def _plain(value: Any) -> Any:
    """A JSON value: numpy scalars to Python ones, NaN and the open ends of intervals (which
    JSON cannot hold; the `bound` field says which) to null."""
    if hasattr(value, "item"):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def _records(frame: pd.DataFrame) -> list[dict[str, Any]]:
    return [
        {column: _plain(value) for column, value in zip(frame.columns, row, strict=True)}
        for row in frame.itertuples(index=False)
    ]


def to_json(tables: Sequence[RatingTable]) -> str:
    data = [
        {
            "game": table.game,
            "variant": table.variant,
            "games": table.games,
            "anchor": table.anchor,
            "interval": table.interval,
            "first_move_advantage": {
                "elo": _plain(round(table.advantage[0], 1)),
                "low": _plain(round(table.advantage[1], 1)),
                "high": _plain(round(table.advantage[2], 1)),
                "fitted": table.advantage_fitted,
            },
            "draw_pct": round(table.draw_rate, 1),
            "standings": _records(_rounded(table)),
            "crosstable": _records(table.crosstable.round({"score_pct": 1})),
            "los_pct": {
                bot: {other: _plain(round(value, 1)) for other, value in row.items()}
                for bot, row in table.los.iterrows()
            },
            "notes": table.notes,
        }
        for table in tables
    ]
    return printable_json(json.dumps(data, indent=2, ensure_ascii=False)) + "\n"


# HTML -------------------------------------------------------------------------------------


def _html_table(
    headers: Sequence[str], rows: Sequence[Sequence[str]], right: frozenset[str]
) -> str:
    def cell(tag: str, text: str, header: str) -> str:
        style = ' class="num"' if header in right else ""
        return f"<{tag}{style}>{html.escape(printable(text))}</{tag}>"

    head = "".join(cell("th", h, h) for h in headers)
    body = "\n".join(
        "<tr>" + "".join(cell("td", c, h) for c, h in zip(row, headers, strict=True)) + "</tr>"
        for row in rows
    )
    return f"<table>\n<thead><tr>{head}</tr></thead>\n<tbody>\n{body}\n</tbody>\n</table>"


_STYLE = (
    "body{font-family:sans-serif;margin:2em}table{border-collapse:collapse;margin:1em 0}"
    "th,td{border:1px solid #ccc;padding:.25em .6em}th{background:#f2f2f2}"
    ".num{text-align:right}"
)


def table_html(
    table: RatingTable, more: tuple[Sequence[str], Mapping[str, Sequence[str]]] | None = None
) -> str:
    """One table as an HTML fragment: its title, summary, standings, crosstable, LOS matrix,
    pentanomial counts and notes (the standalone page and the tournament report share it).
    `more` adds numeric columns to the standings: their headers, and each bot's cells by its
    name (a bot without cells has them empty); the report's analysis figures."""
    headers, cells = more or ((), {})
    blank = [""] * len(headers)
    standings = [[*row, *cells.get(row[1], blank)] for row in _display(table)]
    parts = [
        f"<h2>{html.escape(table.title)}</h2>",
        f"<p>{html.escape(printable(_summary(table)))}</p>",
        _html_table([*HEADERS, *headers], standings, RIGHT_ALIGNED | frozenset(headers)),
    ]
    headers, rows = _crosstable_cells(table)
    parts.append("<h3>Crosstable</h3>")
    parts.append(_html_table(headers, rows, frozenset(headers[1:])))
    headers, rows = _los_cells(table)
    parts.append("<h3>Likelihood of superiority (%)</h3>")
    parts.append(_html_table(headers, rows, frozenset(headers[1:])))
    pairs = _pair_cells(table)
    if pairs:
        parts.append("<h3>Colour-swapped game pairs by score (pentanomial)</h3>")
        parts.append(_html_table(PAIR_HEADERS, pairs, frozenset(PAIR_HEADERS[2:])))
    if table.notes:
        items = "".join(f"<li>{html.escape(printable(note))}</li>" for note in table.notes)
        parts.append(f"<ul>{items}</ul>")
    return "\n".join(parts)


def to_html(tables: Sequence[RatingTable]) -> str:
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8"><title>Rating tables</title>',
        f"<style>{_STYLE}</style></head><body>",
        *(table_html(table) for table in tables),
        "</body></html>",
    ]
    return "\n".join(parts) + "\n"


def render(tables: Sequence[RatingTable], output_format: str) -> str:
    """The tables as text in `output_format`, one of `RATING_OUTPUTS` (csv, markdown, json,
    html). Raises ValueError for another format."""
    return RATING_OUTPUTS.named(output_format).load()(tables)


# Terminal ---------------------------------------------------------------------------------


NARROW_HEADERS = ("#", "bot", "games", "score", "Elo", "95% interval")
"""The columns the terminal always shows; the others of `HEADERS` join them while they fit."""
_OPTIONAL_ORDER = ("W", "D", "L", "LOS next", "points", "incr. Elo", "forfeits")
"""The other columns, in the order they are added when the terminal is wide enough."""


def _rich_table(
    title: str | None, headers: Sequence[str], rows: Sequence[Sequence[str]], right: frozenset[str]
) -> Table:
    # Text, not str: a bot named "[red]x" must print as it is, not as rich markup; and
    # `printable`: a name's escape sequences are shown, not sent to the terminal.
    rows = [[printable(cell) for cell in row] for row in rows]
    table = Table(
        title=None if title is None else Text(title),
        title_justify="left",
        box=box.SIMPLE_HEAD,
        padding=(0, 1),
    )
    for index, header in enumerate(headers):
        shown = Text(printable(header))
        cells = [shown, *(Text(row[index]) for row in rows)]
        width = max(cell.cell_len for cell in cells)
        if header in right:
            # A number is never cut short (`…`): its column keeps its full width.
            table.add_column(shown, justify="right", no_wrap=True, min_width=width)
        else:
            # Names wrap, whole, when the table is wider than the terminal.
            table.add_column(shown, justify="left", overflow="fold")
    for row in rows:
        table.add_row(*(Text(cell) for cell in row))
    return table


def _width(console: Console, table: Table) -> int:
    """The width the table takes unshrunk (measured as if the console had no edge)."""
    return Measurement.get(console, console.options.update_width(1 << 16), table).maximum


def _standings_table(table: RatingTable, console: Console, wide: bool) -> Table:
    """The standings with as many columns as the console's width holds: at least rank, bot,
    games, score, Elo and interval; all of them when `wide`."""
    rows = _display(table)
    if wide:
        return _rich_table(table.title, HEADERS, rows, RIGHT_ALIGNED)
    chosen = set(NARROW_HEADERS)
    for header in _OPTIONAL_ORDER:
        trial = chosen | {header}
        columns = [h for h in HEADERS if h in trial]
        picked = [[row[HEADERS.index(h)] for h in columns] for row in rows]
        if (
            _width(console, _rich_table(table.title, columns, picked, RIGHT_ALIGNED))
            <= console.width
        ):
            chosen = trial
    columns = [h for h in HEADERS if h in chosen]
    picked = [[row[HEADERS.index(h)] for h in columns] for row in rows]
    return _rich_table(table.title, columns, picked, RIGHT_ALIGNED)


def _print_if_fits(console: Console, title: str, table: Table, wide: bool) -> None:
    if wide or _width(console, table) <= console.width:
        console.print(table)
    else:
        console.print(
            f"({title}: wider than {console.width} columns; see it with --wide or "
            "--format markdown)",
            markup=False,
            highlight=False,
        )


def print_tables(
    tables: Sequence[RatingTable],
    console: Console | None = None,
    details: bool = True,
    wide: bool | None = None,
) -> None:
    """Print the tables to the terminal with rich; `details` adds the crosstable and the LOS
    matrix below each table.

    In a terminal the standings keep rank, bot, games, score, Elo and interval and add the
    other columns while they fit its width, and a crosstable or LOS matrix wider than the
    terminal is named instead of cut; `wide` (the default when the output is not a terminal)
    shows everything."""
    console = console or Console()
    wide = not console.is_terminal if wide is None else wide
    for table in tables:
        console.print(_standings_table(table, console, wide))
        console.print(printable(_summary(table)), markup=False, highlight=False)
        if details:
            headers, rows = _crosstable_cells(table)
            crosstable = _rich_table("Crosstable", headers, rows, frozenset(headers[1:]))
            _print_if_fits(console, "crosstable", crosstable, wide)
            headers, rows = _los_cells(table)
            los = _rich_table(
                "Likelihood of superiority (%)", headers, rows, frozenset(headers[1:])
            )
            _print_if_fits(console, "likelihood of superiority", los, wide)
        for note in table.notes:
            console.print(f"- {printable(note)}", markup=False, highlight=False)
        console.print()
