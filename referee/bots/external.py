"""External bots: programs in any language speaking the referee protocol (JSON lines) or the
Trax contest protocol. docs/bot-protocol.md is the specification."""

from __future__ import annotations

import contextlib
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from referee.bots.process import BotProcess
from referee.games import get_game
from referee.games.base import Game, NotationError, Ruleset, State
from referee.games.bot import Bot, Forfeit, MoveInfo

PROTOCOL = "referee-bot"
PROTOCOL_VERSION = 1
GRACE = 0.1
"""Seconds waited beyond a time limit, so that a late answer's overrun can be recorded."""
FORFEITS = frozenset({"time", "crash", "illegal_move", "protocol_error"})
ENGINE_OUTPUT = frozenset({"score", "depth", "nodes", "pv"})


@dataclass(frozen=True)
class Limits:
    """What an external bot may do."""

    move_seconds: float = 60.0
    startup_seconds: float = 10.0
    max_line: int = 1 << 20
    memory_mb: int | None = None


class _ProcessBot(Bot):
    """What both protocols share: the process, its log, and restarts after a forfeit."""

    name: ClassVar[str] = "external"

    def __init__(self, command: list[str], limits: Limits, stderr_log: Path | None) -> None:
        super().__init__()
        self.command = command
        self.limits = limits
        self.stderr_log = stderr_log
        self.process: BotProcess | None = None
        self.game: Game | None = None
        self.ruleset: Ruleset | None = None

    def _spawn(self) -> BotProcess:
        return BotProcess(
            self.command, self.stderr_log, self.limits.memory_mb, self.limits.max_line
        )

    def _wait_move(self, process: BotProcess) -> tuple[str, float]:
        """A line within the move time; a late line within the grace is a time forfeit with its
        overrun, no line at all is a time forfeit at the limit plus the grace. The limit is
        the move's, or what is left on the bot's clock when that is less."""
        limit, left = self.limits.move_seconds, self.clock_seconds()
        if left is not None:
            limit = min(limit, left)
        try:
            line, took = process.receive(limit + GRACE, "move")
        except Forfeit as forfeit:
            if forfeit.reason == "time":
                over = GRACE * 1000
                message = f"no move within {limit * 1000:.0f} ms (+{over:.0f} ms)"
                raise Forfeit("time", message) from None
            raise
        if took > limit:
            over = (took - limit) * 1000
            raise Forfeit("time", f"move after {took * 1000:.0f} ms, {over:.0f} ms over the limit")
        return line, took

    def _parse(self, state: State, text: str) -> Any:
        assert self.game is not None
        try:
            return self.game.parse_move(state, text)
        except NotationError as error:
            raise Forfeit("illegal_move", f"{text!r} is not a move: {error}") from None

    def end_game(self, winner: int | None, reason: str) -> None:
        if reason in FORFEITS and winner != self.seat:
            self._stop()  # the bot broke down: it starts afresh for its next game

    def _stop(self) -> None:
        if self.process is not None:
            self.process.close()
            self.process = None

    def close(self) -> None:
        self._stop()


class JsonLineBot(_ProcessBot):
    """The referee protocol: one JSON object per line each way."""

    def _started(self) -> BotProcess:
        if self.process is not None and self.process.alive():
            return self.process
        self._stop()
        process = self._spawn()
        try:
            process.send(
                json.dumps(
                    {"type": "hello", "protocol": PROTOCOL, "protocol_version": PROTOCOL_VERSION}
                )
            )
            line, _ = process.receive(self.limits.startup_seconds, "hello")
            reply = _message(line, "hello")
            spoken = reply.get("protocol_version", PROTOCOL_VERSION)
            if spoken != PROTOCOL_VERSION:
                raise Forfeit("protocol_error", f"speaks protocol version {spoken!r}, not 1")
        except Forfeit:
            process.close(grace=0)
            raise
        self.process = process
        return process

    def start_game(self, ruleset: Ruleset, seat: int, seed: str) -> None:
        super().start_game(ruleset, seat, seed)
        self.game, self.ruleset = get_game(ruleset.game), ruleset
        process = self._started()
        process.send(
            json.dumps(
                {
                    "type": "new_game",
                    "game": ruleset.game,
                    "ruleset": ruleset.id,
                    "seat": seat,
                    "time_limit_ms": round(self.limits.move_seconds * 1000),
                    "seed": seed,
                }
            )
        )

    def choose(self, state: State, history: Sequence[Any] = ()) -> Any:
        assert self.process is not None and self.ruleset is not None
        message: dict[str, Any] = {
            "type": "position",
            "ruleset": self.ruleset.id,
            "seat": self.seat,
            # The opponent's engine output is its own: a bot sees the moves and the clocks.
            "turns": [
                turn.model_dump(mode="json", exclude_none=True, exclude=ENGINE_OUTPUT)
                for turn in history
            ],
        }
        if state.roll is not None:
            message["roll"] = list(state.roll)
        assert self.game is not None
        message["legal"] = [self.game.format_move(state, move) for move in state.legal_moves()]
        if self.clock is not None:
            message["clock_ms"] = list(self.clock.remaining_ms)
            message["increment_ms"] = self.clock.increment_ms[self.seat]
        self.process.send(json.dumps(message))
        while True:
            line, _ = self._wait_move(self.process)
            reply = _message(line, "move")
            if reply["type"] == "info":
                continue
            move = reply.get("move")
            if not isinstance(move, str):
                raise Forfeit(
                    "protocol_error", f"a move message without a 'move' string: {line[:200]!r}"
                )
            self.info = _move_info(reply)
            return self._parse(state, move)

    def end_game(self, winner: int | None, reason: str) -> None:
        if self.process is not None and self.process.alive():
            try:
                self.process.send(
                    json.dumps({"type": "game_over", "winner": winner, "reason": reason})
                )
            except Forfeit:
                self._stop()
        super().end_game(winner, reason)

    def close(self) -> None:
        if self.process is not None and self.process.alive():
            with contextlib.suppress(Forfeit):
                self.process.send(json.dumps({"type": "quit"}))
        super().close()


def _message(line: str, expected: str) -> dict[str, Any]:
    try:
        data = json.loads(line)
    except ValueError:
        raise Forfeit(
            "protocol_error", f"not a JSON line where a {expected} was due: {line[:200]!r}"
        ) from None
    if not isinstance(data, dict) or data.get("type") not in (expected, "info"):
        raise Forfeit("protocol_error", f"expected a {expected} message, got {line[:200]!r}")
    return data


def _move_info(reply: dict[str, Any]) -> MoveInfo:
    """The optional `score`, `depth`, `nodes` and `pv` of a move message."""
    score, depth, nodes, pv = (reply.get(key) for key in ("score", "depth", "nodes", "pv"))
    if score is not None and (
        type(score) not in (int, float) or (type(score) is float and not math.isfinite(score))
    ):
        raise Forfeit("protocol_error", f"'score' {score!r} is not a number")
    for key, value in (("depth", depth), ("nodes", nodes)):
        if value is not None and (type(value) is not int or value < 0):
            raise Forfeit("protocol_error", f"{key!r} {value!r} is not a whole number >= 0")
    if pv is not None and (
        not isinstance(pv, list) or not all(isinstance(move, str) for move in pv)
    ):
        raise Forfeit("protocol_error", f"'pv' {str(pv)[:200]!r} is not a list of moves")
    return MoveInfo(score, depth, nodes, None if pv is None else tuple(pv))


class TraxContestBot(_ProcessBot):
    """The Trax contest protocol: `-W` or `-B` first, then one move per line each way.

    The protocol has no new-game message, so each game has a process of its own.
    """

    def start_game(self, ruleset: Ruleset, seat: int, seed: str) -> None:
        super().start_game(ruleset, seat, seed)
        if ruleset.game != "trax":
            raise Forfeit("protocol_error", "the Trax contest protocol only plays Trax")
        self.game, self.ruleset = get_game(ruleset.game), ruleset
        self._stop()
        self.process = self._spawn()
        self.sent = 0
        self.process.send("-W" if seat == 0 else "-B")

    def choose(self, state: State, history: Sequence[Any] = ()) -> Any:
        assert self.process is not None
        for turn in history[self.sent :]:
            if turn.seat != self.seat:
                self.process.send(turn.move)
        self.sent = len(history) + 1
        line, _ = self._wait_move(self.process)
        return self._parse(state, line.strip())

    def end_game(self, winner: int | None, reason: str) -> None:
        self._stop()
