"""A luck-adjusted SPRT's analyses (`--luck-adjusted`, docs/tournaments.md): each game is
analysed as it ends, in the worker that played it (referee.analysis, against the reference
the configuration names), and its analysis is kept in the tournament folder's analysis file
(path_names.ANALYSIS_FILE, the lines `referee analyse --out` writes) beside games.jsonl.

The test counts a pair by its games' luck-adjusted results (sequential.py). So that a kill,
a resume or a batch that did not come back never changes what it counts, the runner makes
sure that every stored game has its analysis before the test looks: a game that came back
without one (stored from a spool file) is analysed in the runner, and a resumed run first
analyses the stored games that the file lacks (a run killed between storing a game and its
analysis). A game no reference can analyse (a record that does not replay) counts by its
plain result, the same on every run: its luck taken as 0 keeps the estimate unbiased.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from referee.path_names import ANALYSIS_FILE, GAMES_FILE
from referee.tournament.config import ConfigError, TournamentConfig

if TYPE_CHECKING:
    from referee.analysis.summary import GameAnalysis
    from referee.records.model import Record

Adjusted = tuple[float, float]
"""Each seat's luck-adjusted result in a game."""


class Stored(Protocol):
    """A game just stored, as a worker sent it back (`worker.PlayedGame`)."""

    @property
    def line(self) -> bytes: ...
    @property
    def number(self) -> int: ...
    @property
    def analysis(self) -> bytes | None: ...
    @property
    def adjusted(self) -> Adjusted | None: ...


def luck_reference_spec(config: TournamentConfig, engine: str | None) -> str:
    """The spec of the reference a luck-adjusted test of `config` uses (`engine`, None: the
    game's default), as the reference writes it; ConfigError when the game has no dice, plays
    matches (the test counts games) or has no such reference."""
    from referee.analysis.run import AnalysisError, engines_for
    from referee.games.base import GameError

    game, ruleset = config.rules()
    if not game.initial_state(ruleset).is_chance():
        raise ConfigError(
            f"{game.title} has no dice: --luck-adjusted has no luck to take out of its results"
        )
    if game.match_length(ruleset) > 1:
        raise ConfigError(
            "--luck-adjusted counts single games: this ruleset plays matches "
            f"of {game.match_length(ruleset)} points"
        )
    try:
        return engines_for(engine).reference(game).spec
    except (AnalysisError, GameError) as error:
        raise ConfigError(f"--luck-adjusted: {error.message}") from None


def with_luck_adjustment(config: TournamentConfig, engine: str | None) -> TournamentConfig:
    """`config` whose SPRT scores pairs by their luck-adjusted results against `engine` (None:
    the game's default reference)."""
    data = config.model_dump()
    data["luck_adjusted"] = luck_reference_spec(config, engine)
    return TournamentConfig.model_validate(data)


def analyse_game(record: Record, spec: str) -> GameAnalysis | None:
    """A finished game's analysis against the reference `spec`; None when it cannot be made
    (a record that does not replay: the test counts its plain result)."""
    from referee.analysis.run import AnalysisError, analyse_record, engines_for

    try:
        # Its place in games.jsonl is not known where it is played: its key says which it is.
        return analyse_record(record, engines_for(spec), file=GAMES_FILE, number=0)
    except AnalysisError:
        return None


def analysis_line(analysis: GameAnalysis) -> bytes:
    from referee.analysis.output import json_line

    return (json_line(analysis) + "\n").encode()


class LuckBook:
    """The luck-adjusted results of a tournament's stored games, by job number, and the
    analysis file that keeps them."""

    def __init__(self, directory: Path, tournament_id: str, spec: str) -> None:
        self.path = directory / ANALYSIS_FILE
        self.tournament_id = tournament_id
        self.spec = spec
        self.adjusted: dict[int, Adjusted] = {}

    def load(self, repair: bool = False) -> LuckBook:
        """Read the analysis file: each line of this tournament's games made by its reference
        (a line that does not read, which only a write cut short or a hand edit makes, is
        passed over: its game is analysed again). With `repair` (the runner, under the lock),
        a last line cut short is cut off, so that the lines appended after it stay whole."""
        if repair:
            _cut_partial_line(self.path)
        for stored in _readable_lines(self.path):
            key = stored.game_key
            if key is None or key[0] != self.tournament_id or key[3] != 0:
                continue
            if stored.engine == self.spec and stored.adjusted is not None:
                first, second = stored.adjusted
                self.adjusted[key[2]] = (first, second)
        return self

    def complete(self, games_path: Path) -> int:
        """Analyse the stored games of this tournament the file lacks and append their
        analyses; how many were analysed."""
        from referee.records.io import RecordError, parse_record_json
        from referee.records.keys import game_key
        from referee.records.scan import scan_jsonl

        if not games_path.exists():
            return 0
        lines: list[bytes] = []
        with games_path.open("rb") as stream:
            for scanned in scan_jsonl(stream):
                header = scanned.header
                key = None if header is None else game_key(header)
                if key is None or key[0] != self.tournament_id or key[2] in self.adjusted:
                    continue
                with contextlib.suppress(RecordError):
                    analysis = analyse_game(parse_record_json(scanned.raw), self.spec)
                    if analysis is not None and analysis.adjusted is not None:
                        self.adjusted[key[2]] = analysis.adjusted
                        lines.append(analysis_line(analysis))
        self._append(lines)
        return len(lines)

    def add(self, games: Iterable[Stored]) -> None:
        """Keep the analyses of games just stored: made by the worker, or made here for a game
        that came back without one (from a spool file)."""
        from referee.records.io import parse_record_json

        lines = []
        for game in games:
            line, adjusted = game.analysis, game.adjusted
            if line is None:
                analysis = analyse_game(parse_record_json(game.line), self.spec)
                if analysis is None or analysis.adjusted is None:
                    continue
                line, adjusted = analysis_line(analysis), analysis.adjusted
            if adjusted is not None:
                self.adjusted[game.number] = adjusted
                lines.append(line)
        self._append(lines)

    def _append(self, lines: list[bytes]) -> None:
        if not lines:
            return
        # One write of whole lines; its sync follows the games' own (group commit).
        with self.path.open("ab") as out:
            out.write(b"".join(lines))
            out.flush()
            os.fsync(out.fileno())


def _cut_partial_line(path: Path) -> None:
    """Cut off a last line without its line break (a write cut short by a kill)."""
    try:
        with path.open("rb+") as stream:
            size = stream.seek(0, os.SEEK_END)
            if size == 0:
                return
            stream.seek(max(0, size - (1 << 20)))
            tail = stream.read()
            if tail.endswith(b"\n"):
                return
            cut = tail.rfind(b"\n")
            if cut < 0 and size > len(tail):
                return  # a line over a megabyte long: no record line of ours; leave it
            stream.truncate(size - len(tail) + cut + 1)
    except FileNotFoundError:
        return


def _readable_lines(path: Path) -> Iterator[Any]:
    """The analyses of the lines of `path` that read as one, whole lines only."""
    import msgspec

    from referee.analysis.stored import decode_analysis

    try:
        stream = path.open("rb")
    except FileNotFoundError:
        return
    with stream:
        for raw in stream:
            if not raw.endswith(b"\n") or not raw.strip():
                continue
            with contextlib.suppress(msgspec.DecodeError, ValueError):
                yield decode_analysis(raw)


def stored_adjusted(
    directory: Path, config: TournamentConfig, tournament_id: str
) -> Mapping[int, Adjusted] | None:
    """The luck-adjusted results of a tournament's stored games as its analysis file holds
    them (read only), by job number; None when its test is not luck-adjusted."""
    if config.luck_adjusted is None:
        return None
    return LuckBook(directory, tournament_id, config.luck_adjusted).load().adjusted
