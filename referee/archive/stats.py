"""`referee stats`: what an archive says per game and variant: results by seat, the first
mover's score and its 95% interval, reasons, game lengths, openings and players.

Records are scanned (`referee.records.scan`) one at a time; what is kept per group is counts
(of results, reasons, turn counts, openings, players), never the games.
"""

from __future__ import annotations

import csv
import io
import json
import math
import statistics
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from referee.archive.choices import STATS_OUTPUTS
from referee.archive.entries import Entry, read_entries
from referee.escaping import csv_cell, markdown_cell, printable
from referee.games import get_game

Z95 = 1.959963984540054
"""The standard normal quantile of a two-sided 95% interval."""
HISTOGRAM_BINS = 10
HISTOGRAM_WIDTH = 40


def score_interval(points: float, games: int, square_points: float) -> tuple[float, float]:
    """A 95% interval for the mean score of `games` games (1 a win, 0.5 a draw, 0 a loss).

    The Wilson score interval, which stays inside [0, 1] and keeps its coverage near 0 and 1,
    with the number of games scaled by the ratio of the binomial variance s(1 - s) to the
    observed variance of the scores: draws make a score less variable than wins and losses
    alone, which the plain Wilson interval would ignore. `square_points` is the sum of the
    squared scores (a draw counts 0.25).
    """
    if games == 0:
        return 0.0, 1.0
    score = points / games
    binomial = score * (1 - score)
    observed = square_points / games - score * score
    effective = games * binomial / observed if observed > 1e-12 and binomial > 0 else games
    z2 = Z95 * Z95
    centre = (score + z2 / (2 * effective)) / (1 + z2 / effective)
    half = (
        Z95
        * math.sqrt(binomial / effective + z2 / (4 * effective * effective))
        / (1 + z2 / effective)
    )
    # At a score of 0 or 1 the bound is that score exactly (not a rounding error beside it).
    low = 0.0 if points == 0 else max(0.0, centre - half)
    return low, 1.0 if points == games else min(1.0, centre + half)


@dataclass
class Record3:
    """Wins, draws and losses."""

    wins: int = 0
    draws: int = 0
    losses: int = 0

    def add(self, points: float) -> None:
        if points == 1:
            self.wins += 1
        elif points == 0:
            self.losses += 1
        else:
            self.draws += 1

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def points(self) -> float:
        return self.wins + 0.5 * self.draws

    @property
    def score(self) -> float | None:
        return self.points / self.games if self.games else None

    def interval(self) -> tuple[float, float]:
        return score_interval(self.points, self.games, self.wins + 0.25 * self.draws)


@dataclass
class Opening:
    games: int = 0
    seat0_points: float = 0.0


@dataclass
class GroupStats:
    """The counts of one game and variant."""

    game: str
    variant: str
    games: int = 0
    unfinished: int = 0
    seat_wins: list[int] = field(default_factory=lambda: [0, 0])
    draws: int = 0
    first_mover: Record3 = field(default_factory=Record3)
    no_turn: int = 0
    """Finished games without a turn, so without a first mover (a forfeit at once)."""
    reasons: Counter[str] = field(default_factory=Counter)
    turns: Counter[int] = field(default_factory=Counter)
    openings: dict[str, Opening] = field(default_factory=dict)
    players: dict[str, Record3] = field(default_factory=dict)

    def add(self, entry: Entry, plies: int, dice: bool) -> None:
        view = entry.view
        self.games += 1
        turns = view.turns
        self.turns[len(turns)] += 1
        result = view.result
        if result is None:
            self.unfinished += 1
            return
        self.reasons[str(result.reason)] += 1
        winner = result.winner
        if winner is None:
            self.draws += 1
        else:
            self.seat_wins[winner] += 1
        seat_points = (0.5, 0.5) if winner is None else (float(winner == 0), float(winner == 1))
        for seat, player in enumerate(view.players):
            self.players.setdefault(player.name, Record3()).add(seat_points[seat])
        if not turns:
            self.no_turn += 1
            return
        self.first_mover.add(seat_points[turns[0].seat])
        if len(turns) >= plies:
            key = opening_text(turns[:plies], dice)
            opening = self.openings.setdefault(key, Opening())
            opening.games += 1
            opening.seat0_points += seat_points[0]

    def turn_summary(self) -> dict[str, Any]:
        counts = sorted(self.turns.elements())
        if not counts:
            return {}
        low, middle, high = (
            statistics.quantiles(counts, n=4, method="inclusive")
            if len(counts) > 1
            else (counts[0],) * 3
        )
        return {
            "min": counts[0],
            "q1": low,
            "median": middle,
            "q3": high,
            "max": counts[-1],
            "mean": round(statistics.fmean(counts), 2),
            "histogram": histogram(self.turns),
        }

    def as_dict(self, openings: int) -> dict[str, Any]:
        first = self.first_mover
        low, high = first.interval()
        common = sorted(self.openings.items(), key=lambda item: (-item[1].games, item[0]))
        players = sorted(self.players.items(), key=lambda item: (-(item[1].score or 0), item[0]))
        return {
            "game": self.game,
            "variant": self.variant,
            "games": self.games,
            "unfinished": self.unfinished,
            "results": {
                "seat0": self.seat_wins[0],
                "seat1": self.seat_wins[1],
                "draws": self.draws,
            },
            "first_mover": {
                "games": first.games,
                "wins": first.wins,
                "draws": first.draws,
                "losses": first.losses,
                "score": first.score,
                "low": low if first.games else None,
                "high": high if first.games else None,
            },
            "reasons": dict(self.reasons.most_common()),
            "turns": self.turn_summary(),
            "openings": [
                {
                    "moves": moves,
                    "games": opening.games,
                    "seat0_score": opening.seat0_points / opening.games,
                }
                for moves, opening in common[:openings]
            ],
            "players": [
                {
                    "name": name,
                    "games": tally.games,
                    "wins": tally.wins,
                    "draws": tally.draws,
                    "losses": tally.losses,
                    "score": tally.score,
                }
                for name, tally in players
            ],
        }


def opening_text(turns: Any, dice: bool) -> str:
    """The first plies as `--moves` reads them: `25-21 5-9`, or `31: 8/5 6/5; 64: 24/18`
    for dice games (each ply with its roll)."""
    if not dice:
        return " ".join(turn.move for turn in turns)
    # The roll with its higher die first, as backgammon writes it: 3-1 and 1-3 are one roll.
    return "; ".join(f"{max(turn.roll)}{min(turn.roll)}: {turn.move}" for turn in turns)


def histogram(counts: Counter[int]) -> list[list[int]]:
    """[first, last, games] of up to ten bins of equal width over the turn counts."""
    low, high = min(counts), max(counts)
    width = max(1, math.ceil((high - low + 1) / HISTOGRAM_BINS))
    bins = [[start, start + width - 1, 0] for start in range(low, high + 1, width)]
    for turns, games in counts.items():
        bins[(turns - low) // width][2] += games
    return bins


@dataclass
class Summary:
    groups: dict[tuple[str, str], GroupStats] = field(default_factory=dict)
    unreadable: int = 0


def collect_stats(paths: list[str], plies: int, report: Callable[[str], None]) -> Summary:
    summary = Summary()

    def unreadable(file: str, number: int, line: int, error: Any) -> None:
        summary.unreadable += 1
        report(f"{file}:{line}: game {number}: [{error.code}] {error.message}")

    dice = {}
    for entry in read_entries(paths, unreadable, with_turns=True):
        key = (entry.game, entry.variant)
        group = summary.groups.get(key)
        if group is None:
            group = summary.groups[key] = GroupStats(*key)
            dice[key] = get_game(entry.game).has_dice
        group.add(entry, plies, dice[key])
    return summary


def render_stats(summary: Summary, output_format: str, openings: int = 10) -> str:
    """The statistics in `output_format`, one of `STATS_OUTPUTS` (text, markdown, csv, json); raises
    ValueError for another format."""
    groups = [summary.groups[key].as_dict(openings) for key in sorted(summary.groups)]
    return STATS_OUTPUTS.named(output_format).load()(groups)


def stats_text(groups: list[dict[str, Any]]) -> str:
    return _tables(groups, markdown=False)


def stats_markdown(groups: list[dict[str, Any]]) -> str:
    return _tables(groups, markdown=True)


def stats_json(groups: list[dict[str, Any]]) -> str:
    return json.dumps(groups, indent=2) + "\n"


def _number(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.3f}".rstrip("0").removesuffix(".")
    return str(value)


def stats_csv(groups: list[dict[str, Any]]) -> str:
    """Long form: one row per figure (game, variant, section, name, value)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")

    def write(row: list[Any]) -> None:
        writer.writerow([csv_cell(cell) for cell in row])

    write(["game", "variant", "section", "name", "value"])
    for group in groups:
        head = [group["game"], group["variant"]]
        write([*head, "games", "games", group["games"]])
        write([*head, "games", "unfinished", group["unfinished"]])
        for section in ("results", "first_mover", "reasons"):
            for name, value in group[section].items():
                write([*head, section, name, "" if value is None else value])
        for name, value in group["turns"].items():
            if name != "histogram":
                write([*head, "turns", name, value])
        for first, last, games in group["turns"].get("histogram", []):
            write([*head, "turn_histogram", f"{first}-{last}", games])
        for opening in group["openings"]:
            write([*head, "opening_games", opening["moves"], opening["games"]])
            write([*head, "opening_seat0_score", opening["moves"], opening["seat0_score"]])
        for player in group["players"]:
            for name in ("games", "wins", "draws", "losses", "score"):
                write([*head, f"player_{name}", player["name"], player[name]])
    return out.getvalue()


def _table(headers: list[str], rows: list[list[Any]], markdown: bool) -> list[str]:
    # Names and moves come from the records: shown as text, never acted on.
    cells = [[printable(_number(value)) for value in row] for row in rows]
    if markdown:
        cells = [[markdown_cell(text) for text in row] for row in cells]
        lines = ["| " + " | ".join(headers) + " |", "|" + "|".join(" --- " for _ in headers) + "|"]
        return lines + ["| " + " | ".join(row) + " |" for row in cells]
    widths = [max(len(text) for text in column) for column in zip(headers, *cells, strict=True)]
    return [
        "  ".join(text.ljust(width) for text, width in zip(row, widths, strict=True)).rstrip()
        for row in [headers, *cells]
    ]


def _tables(groups: list[dict[str, Any]], markdown: bool) -> str:
    lines: list[str] = []
    for group in groups:
        title = f"{group['game']} {group['variant']}: {group['games']} games"
        if group["unfinished"]:
            title += f" ({group['unfinished']} unfinished)"
        lines += [f"## {title}" if markdown else title, ""]
        results, first = group["results"], group["first_mover"]
        lines += _table(
            ["seat 0 wins", "seat 1 wins", "draws"],
            [[results["seat0"], results["seat1"], results["draws"]]],
            markdown,
        )
        lines.append("")
        lines += _table(
            ["first mover", "games", "wins", "draws", "losses", "score", "95% interval"],
            [
                [
                    "",
                    first["games"],
                    first["wins"],
                    first["draws"],
                    first["losses"],
                    first["score"],
                    "-" if first["low"] is None else f"{first['low']:.3f} .. {first['high']:.3f}",
                ]
            ],
            markdown,
        )
        lines.append("")
        lines += _table(
            ["reason", "games"], [list(item) for item in group["reasons"].items()], markdown
        )
        turns = group["turns"]
        if turns:
            lines.append("")
            lines += _table(
                ["turns", "min", "q1", "median", "q3", "max", "mean"],
                [["", *(turns[name] for name in ("min", "q1", "median", "q3", "max", "mean"))]],
                markdown,
            )
            lines.append("")
            lines += _histogram_lines(turns["histogram"], markdown)
        if group["openings"]:
            lines.append("")
            lines += _table(
                ["opening", "games", "seat 0 score"],
                [[o["moves"], o["games"], o["seat0_score"]] for o in group["openings"]],
                markdown,
            )
        lines.append("")
        lines += _table(
            ["player", "games", "wins", "draws", "losses", "score"],
            [
                [p["name"], p["games"], p["wins"], p["draws"], p["losses"], p["score"]]
                for p in group["players"]
            ],
            markdown,
        )
        lines.append("")
    return "\n".join(lines)


def _histogram_lines(bins: list[list[int]], markdown: bool) -> list[str]:
    most = max(games for _, _, games in bins) or 1
    labels = [f"{first}" if first == last else f"{first}-{last}" for first, last, _ in bins]
    width = max(len(label) for label in labels)
    lines = ["```"] if markdown else []
    for label, (_, _, games) in zip(labels, bins, strict=True):
        bar = "#" * round(HISTOGRAM_WIDTH * games / most)
        lines.append(f"{label.rjust(width)} turns | {bar} {games}")
    return [*lines, "```"] if markdown else lines
