"""External bots: programs in any language speaking the referee protocol (JSON lines) or the
Trax contest protocol. docs/bot-protocol.md is the specification."""

from __future__ import annotations

import contextlib
import json
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, NoReturn, TypeVar

from referee.games import get_game
from referee.games.agent import NO_INFO, Bot, Forfeit, MoveInfo
from referee.games.base import Game, GameError, NotationError, Ruleset, State
from referee.players.process import BotLog, BotProcess, Launch
from referee.records.reasons import FORFEITS, Reason

PROTOCOL = "referee-bot"
PROTOCOL_VERSION = 1
"""The version every program understands: the hello names it for version 1 programs."""
PROTOCOL_VERSIONS = (1, 2)
"""The versions referee speaks; a program's hello answer chooses one (docs/bot-protocol.md)."""
GRACE = 0.1
"""Seconds waited beyond a time limit, so that a late answer's overrun can be recorded; a bot
that has not answered by then has lost on time."""
START_FAILURES = frozenset({Reason.TIME, Reason.CRASH, Reason.PROTOCOL_ERROR})
"""Forfeits that, before a process has answered its hello (or played its first Trax move),
mean that the program cannot start."""
INFO_BURST = 100
INFO_PER_SECOND = 100
"""Info lines read in a move: up to INFO_BURST plus INFO_PER_SECOND for each second it lasts."""
INFO_BYTES = 4096
"""Longest info line read; longer ones are dropped unread."""

Reply = TypeVar("Reply")
TURN_FIELDS = ("seat", "roll", "move", "time_ms", "clock_ms", "book", "comment")
"""A record turn's fields a bot is sent, those that are set: the moves and the clocks. The
engine output (`score`, `depth`, `nodes`, `pv`) is the mover's own: a bot does not see what
its opponent thinks."""


@dataclass(frozen=True)
class Limits:
    """The time an external bot has."""

    move_seconds: float = 60.0
    startup_seconds: float = 10.0
    """For the hello (or the Trax team name), and added to a Trax program's first move."""


class ProgramBot(Bot[Any, Any]):
    """What both protocols share: the process, its log, restarts after a forfeit, and knowing
    whether the program could start at all."""

    name: ClassVar[str] = "external"

    def __init__(self, launch: Launch, limits: Limits, log: BotLog | None = None) -> None:
        super().__init__()
        self.launch = launch
        self.limits = limits
        self.log = log or BotLog(None)
        self.process: BotProcess | None = None
        self.game: Game[Any, Any] | None = None
        self.ruleset: Ruleset | None = None
        self.ready = False
        """Whether the running process has answered its hello (Trax: played a move)."""
        self.ever_ready = False
        self.moves = 0
        self.start_failure: str | None = None
        """Why the program could not start in the current game, if it could not."""

    def start_game(self, ruleset: Ruleset, seat: int, seed: str) -> None:
        super().start_game(ruleset, seat, seed)
        self.start_failure = None

    def _spawn(self) -> BotProcess:
        self.ready = False
        return BotProcess(self.launch, self.log)

    def _fail(self, forfeit: Forfeit) -> NoReturn:
        """Stop the process (its stderr all in the log first) and lose with the reason and
        the last line the program wrote on its stderr."""
        last = self._stop(grace=GRACE)
        detail = f"{forfeit.detail}; stderr: {last}" if last else forfeit.detail
        if not self.ready and forfeit.reason in START_FAILURES:
            self.start_failure = detail
        raise Forfeit(detail, reason=forfeit.reason) from None

    def _wait_move(
        self,
        process: BotProcess,
        sent: float,
        limit: float,
        read: Callable[[str], Reply | None],
        plainly_info: Callable[[str], bool],
    ) -> Reply:
        """The first line that `read` turns into a reply (None: an info line) within `limit`
        seconds of `sent`: info lines never add time. A line after the limit but within the
        grace is a time forfeit with its overrun; no line by then, a time forfeit at once.

        Info lines beyond the rate or the size cap are dropped unread when `plainly_info`
        says they can hold no move, and counted in the log."""
        self.moves += 1
        due = sent + limit
        read_info = dropped = 0
        try:
            while True:
                line = process.receive(due + GRACE, "move")
                if line is None:
                    over = GRACE * 1000
                    raise Forfeit(
                        f"no move within {limit * 1000:.0f} ms (+{over:.0f} ms)", reason="time"
                    )
                now = time.perf_counter()
                allowed = INFO_BURST + INFO_PER_SECOND * (now - sent)
                if (read_info >= allowed or len(line) > INFO_BYTES) and plainly_info(line):
                    dropped += 1
                    continue
                reply = read(line)
                if reply is None:
                    read_info += 1
                    continue
                if now > due:
                    took, over = (now - sent) * 1000, (now - due) * 1000
                    raise Forfeit(
                        f"move after {took:.0f} ms, {over:.0f} ms over the limit", reason="time"
                    )
                return reply
        finally:
            if dropped:
                self.log.note(
                    f"move {self.moves}: {dropped} info lines dropped (over {INFO_PER_SECOND} "
                    f"a second or {INFO_BYTES} bytes)"
                )

    def _move_seconds(self) -> float:
        """The move's limit, or what is left on the bot's clock when that is less."""
        left = self.clock_seconds()
        limit = self.limits.move_seconds
        return limit if left is None else min(limit, left)

    def _parse(self, state: State[Any], text: str) -> Any:
        """The move, checked here (the game loop checks it again) so that an illegal one is a
        forfeit whose detail carries the program's last stderr line."""
        assert self.game is not None
        try:
            move = self.game.parse_move(state, text)
            state.play(move)
        except NotationError as error:
            raise Forfeit(f"{text!r} is not a move: {error}", reason="illegal_move") from None
        except GameError as error:
            raise Forfeit(str(error), reason="illegal_move") from None
        return move

    def end_game(self, winner: int | None, reason: str) -> None:
        if reason in FORFEITS and winner != self.seat:
            self._stop()  # the bot broke down: it starts afresh for its next game

    def _stop(self, grace: float = 0.5) -> str:
        """Stop the process; the last non-empty line of its stderr, if any."""
        process, self.process = self.process, None
        return process.close(grace) if process is not None else ""

    def close(self) -> None:
        self._stop()


class JsonLineBot(ProgramBot):
    """The referee protocol: one JSON object per line each way.

    One process plays game after game, and stays running for the worker's next batch (see
    referee/players/running.py): a new one starts only after a forfeit, or when the program has
    played the `games_per_process` it asked for in its hello."""

    def __init__(self, launch: Launch, limits: Limits, log: BotLog | None = None) -> None:
        super().__init__(launch, limits, log)
        self.terms = Terms()
        """What the running process chose in its hello."""
        self.games_in_process = 0
        self.turns_json: list[dict[str, Any]] = []
        """The current game's turns as sent, each turn turned into JSON once."""
        self.turns_sent = 0
        """How many of them the program has been sent (version 2 sends only the rest)."""

    def _started(self) -> BotProcess:
        if self.process is not None and self.process.alive():
            most = self.terms.games_per_process
            if most is None or self.games_in_process < most:
                return self.process
            self._quit()  # it asked for a fresh process after so many games
        self._stop()
        self.process = process = self._spawn()
        process.send(HELLO)
        wait = self.limits.startup_seconds
        due = time.perf_counter() + wait
        reply: dict[str, Any] = {}
        while reply.get("type") != "hello":  # info lines while it starts are read and ignored
            line = process.receive(due, "hello")
            if line is None:
                raise Forfeit(f"no hello within {wait * 1000:.0f} ms", reason="time")
            reply = _message(line, "hello")
        self.terms = hello_terms(reply)
        self.games_in_process = 0
        self.ready = self.ever_ready = True
        return process

    def start_game(self, ruleset: Ruleset, seat: int, seed: str) -> None:
        super().start_game(ruleset, seat, seed)
        self.game, self.ruleset = get_game(ruleset.game), ruleset
        self.turns_json, self.turns_sent = [], 0
        try:
            process = self._started()
            self.games_in_process += 1
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
        except Forfeit as forfeit:
            self._fail(forfeit)

    def choose(self, state: State[Any], history: Sequence[Any] = ()) -> Any:
        assert self.process is not None and self.ruleset is not None and self.game is not None
        self.turns_json += map(turn_message, history[len(self.turns_json) :])
        message: dict[str, Any] = {"type": "position"}
        if self.terms.version == 1:
            message.update(ruleset=self.ruleset.id, seat=self.seat, turns=self.turns_json)
        else:
            message.update(from_turn=self.turns_sent, turns=self.turns_json[self.turns_sent :])
        self.turns_sent = len(self.turns_json)
        if state.roll is not None:
            message["roll"] = list(state.roll)
        legal: dict[str, Any] = {}
        if self.terms.legal:
            legal = {self.game.format_move(state, move): move for move in state.legal_moves()}
            message["legal"] = list(legal)
        if self.clock is not None:
            message["clock_ms"] = list(self.clock.remaining_ms)
            message["increment_ms"] = self.clock.increment_ms[self.seat]
        try:
            sent = time.perf_counter()
            limit = self._move_seconds()
            self.process.send(json.dumps(message), sent + limit + GRACE)
            reply = self._wait_move(self.process, sent, limit, _move_or_info, _plainly_info)
            move = reply.get("move")
            if not isinstance(move, str):
                raise Forfeit(
                    f"a move message without a 'move' string: {reply!r:.200}",
                    reason="protocol_error",
                )
            self.info = _move_info(reply)
            # A move written as it was listed is legal as it stands; any other spelling is
            # read and checked by the game's notation.
            return legal[move] if move in legal else self._parse(state, move)
        except Forfeit as forfeit:
            self._fail(forfeit)

    def end_game(self, winner: int | None, reason: str) -> None:
        if self.process is not None and self.process.alive():
            try:
                self.process.send(
                    json.dumps({"type": "game_over", "winner": winner, "reason": reason})
                )
                self.process.look()  # noted for the runner, should this worker be killed
            except Forfeit:
                self._stop()
        super().end_game(winner, reason)

    def _quit(self) -> None:
        """Ask the program to exit, then stop its process."""
        if self.process is not None and self.process.alive():
            with contextlib.suppress(Forfeit):
                self.process.send(QUIT)
        self._stop()

    def close(self) -> None:
        self._quit()


HELLO = json.dumps(
    {
        "type": "hello",
        "protocol": PROTOCOL,
        "protocol_version": PROTOCOL_VERSION,
        "protocol_versions": list(PROTOCOL_VERSIONS),
    }
)
QUIT = json.dumps({"type": "quit"})


@dataclass(frozen=True)
class Terms:
    """What a program's hello answer chose (docs/bot-protocol.md)."""

    version: int = PROTOCOL_VERSION
    games_per_process: int | None = None
    """Games it plays before it wants a new process (None: as many as come)."""
    legal: bool = True
    """Whether positions list the legal moves (version 2 may leave them out)."""


def hello_terms(reply: dict[str, Any]) -> Terms:
    """The terms of a hello answer: the version (1 when it names none, as version 1 programs
    may), and from version 2 on `games_per_process` and `legal`; a protocol_error Forfeit for a
    value that is not one of those allowed."""
    version = reply.get("protocol_version", PROTOCOL_VERSION)
    if type(version) is not int or version not in PROTOCOL_VERSIONS:
        spoken = " or ".join(map(str, PROTOCOL_VERSIONS))
        raise Forfeit(f"speaks protocol version {version!r}, not {spoken}", reason="protocol_error")
    if version == 1:
        return Terms()
    games = reply.get("games_per_process")
    if games is not None and (type(games) is not int or games < 1):
        raise Forfeit(
            f"'games_per_process' {games!r} is not a whole number >= 1", reason="protocol_error"
        )
    legal = reply.get("legal", True)
    if type(legal) is not bool:
        raise Forfeit(f"'legal' {legal!r} is not true or false", reason="protocol_error")
    return Terms(version, games, legal)


def turn_message(turn: Any) -> dict[str, Any]:
    """A record turn as a bot is sent it (TURN_FIELDS)."""
    return {name: value for name in TURN_FIELDS if (value := getattr(turn, name)) is not None}


def _message(line: str, expected: str) -> dict[str, Any]:
    try:
        data = json.loads(line)
    except ValueError:
        raise Forfeit(
            f"not a JSON line where a {expected} was due: {line[:200]!r}", reason="protocol_error"
        ) from None
    if not isinstance(data, dict) or data.get("type") not in (expected, "info"):
        raise Forfeit(f"expected a {expected} message, got {line[:200]!r}", reason="protocol_error")
    return data


def _move_or_info(line: str) -> dict[str, Any] | None:
    reply = _message(line, "move")
    return None if reply["type"] == "info" else reply


def _plainly_info(line: str) -> bool:
    return '"move"' not in line


def _move_info(reply: dict[str, Any]) -> MoveInfo:
    """The optional `score`, `depth`, `nodes` and `pv` of a move message."""
    if len(reply) == 2:  # `type` and `move` only, as most moves come
        return NO_INFO
    score, depth, nodes, pv = (reply.get(key) for key in ("score", "depth", "nodes", "pv"))
    if score is not None and (
        type(score) not in (int, float) or (type(score) is float and not math.isfinite(score))
    ):
        raise Forfeit(f"'score' {score!r} is not a number", reason="protocol_error")
    for key, value in (("depth", depth), ("nodes", nodes)):
        if value is not None and (type(value) is not int or value < 0):
            raise Forfeit(f"{key!r} {value!r} is not a whole number >= 0", reason="protocol_error")
    if pv is not None and (
        not isinstance(pv, list) or not all(isinstance(move, str) for move in pv)
    ):
        raise Forfeit(f"'pv' {str(pv)[:200]!r} is not a list of moves", reason="protocol_error")
    return MoveInfo(score, depth, nodes, None if pv is None else tuple(pv))


class TraxContestBot(ProgramBot):
    """The Trax contest protocol: optionally `-T` answered by the team name, then `-W` or `-B`,
    then one move per line each way; lines starting with `#` are comments (info lines).

    The protocol has no new-game message, so each game has a process of its own.
    """

    def __init__(
        self, launch: Launch, limits: Limits, log: BotLog | None = None, team: bool = False
    ) -> None:
        super().__init__(launch, limits, log)
        self.team = team

    def start_game(self, ruleset: Ruleset, seat: int, seed: str) -> None:
        super().start_game(ruleset, seat, seed)
        if ruleset.game != "trax":
            raise Forfeit("the Trax contest protocol only plays Trax", reason="protocol_error")
        self.game, self.ruleset = get_game(ruleset.game), ruleset
        self._stop()
        self.sent = 0
        try:
            self.process = process = self._spawn()
            if self.team:
                process.send("-T")
                wait = self.limits.startup_seconds
                name = process.receive(time.perf_counter() + wait, "team name")
                if name is None:
                    raise Forfeit(f"no team name within {wait * 1000:.0f} ms", reason="time")
                self.log.note(f"team name: {name.strip()[:200]}")
            process.send("-W" if seat == 0 else "-B")
        except Forfeit as forfeit:
            self._fail(forfeit)

    def choose(self, state: State[Any], history: Sequence[Any] = ()) -> Any:
        assert self.process is not None
        try:
            for turn in history[self.sent :]:
                if turn.seat != self.seat:
                    self.process.send(turn.move)
            self.sent = len(history) + 1
            limit = self._move_seconds()
            if not self.ready:  # the program may still be loading what it needs
                limit += self.limits.startup_seconds
            line = self._wait_move(
                self.process, time.perf_counter(), limit, _trax_move, _trax_comment
            )
            self.ready = self.ever_ready = True
            return self._parse(state, line)
        except Forfeit as forfeit:
            self._fail(forfeit)

    def end_game(self, winner: int | None, reason: str) -> None:
        self._stop()


def _trax_move(line: str) -> str | None:
    return None if _trax_comment(line) else line.strip()


def _trax_comment(line: str) -> bool:
    return line.startswith("#")
