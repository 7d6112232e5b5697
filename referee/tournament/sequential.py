"""An SPRT over a tournament's games: which game pairs count, in which order, and when to stop.

The first bot of the configuration is A, the bot under test; the test is of A's Elo advantage
over the second (referee.ratings.sprt). Pairs are counted in schedule order, never in order of
arrival: the test looks at the longest run of finished pairs from the first, and stops at the
first of them after which the LLR is outside its bounds. So concurrency, batching and an
interruption never change the decision or the pair it is made at.

A luck-adjusted test (`luck_adjusted` in the configuration, luck.py) counts the same pairs in
the same order, each by A's two luck-adjusted results (referee.ratings.sprt's normal model);
the runner has every stored game analysed before it looks.

The runner plays the schedule in waves of WAVE_PAIRS pairs, fixed by the pairs' numbers and not
by the concurrency, and looks at the test after each wave: the games played are the waves up
to the one holding the decision, whatever the concurrency, and a resumed run plays the same.
The pairs of that wave after the decision are played and stored, but not counted.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from referee.tournament.config import ConfigError
from referee.tournament.play import Scored, job_finished, match_score
from referee.tournament.schedule import GameJob, Pairs

if TYPE_CHECKING:
    import numpy as np

    from referee.ratings.sprt import PairMoments, SprtSpec, SprtState
    from referee.tournament.luck import Adjusted
    from referee.tournament.store import TournamentFile, TournamentStore

WAVE_PAIRS = 16
"""Pairs played between two looks at the test: four batches, enough to keep a few workers busy."""


def wave_of(job: GameJob) -> int:
    return job.pair // WAVE_PAIRS


class SprtTracker:
    """The test over the stored games of an SPRT tournament, advanced as pairs finish. It
    works out each pair's jobs from the pair's number when it counts it: setting up a test of
    a million games lists none of them."""

    def __init__(
        self,
        spec: SprtSpec,
        pairs: Pairs,
        match_length: int,
        adjusted: Mapping[int, Adjusted] | None = None,
    ) -> None:
        import numpy as np

        from referee.ratings.sprt import PairMoments

        self.spec = spec
        self.match_length = match_length
        self.pairs = pairs
        self.counts: np.ndarray = np.zeros(5)
        """The pentanomial counts of the pairs counted (a plain test)."""
        self.adjusted = adjusted
        """A luck-adjusted test's adjusted results of the stored games, by job number (kept up
        to date by the runner); None for a plain test."""
        self.moments: PairMoments = PairMoments.of(np.zeros(0))
        """The luck-adjusted pair scores counted (a luck-adjusted test)."""
        self.counted = 0
        """Pairs counted: the first `counted` pairs of the schedule."""
        self.decided_at: int | None = None
        """The pair after which the test decided, if it has."""

    def update(self, stored: dict[int, list[Scored | None]]) -> None:
        """Count the pairs that have finished since the last look, in schedule order, up to
        the first one not finished or the decision; `stored` holds the results of the stored
        games by job number (those of the pairs counted already may be dropped)."""
        from referee.ratings.sprt import llr, normal_llr

        while self.decided_at is None and self.counted < len(self.pairs):
            pair = self.pairs[self.counted]
            games = [stored.get(job.number, []) for job in pair]
            if not all(job_finished(g, self.match_length) for g in games):
                return
            halves = []
            for job, results in zip(pair, games, strict=True):
                half = self._half_points(job, results)
                if half is None:
                    return
                halves.append(half)
            self.counted += 1
            if self.adjusted is None:
                self.counts[sum(halves)] += 1
                ratio = float(llr(self.spec, self.counts))
            else:
                scores = [
                    self._adjusted_score(job, half) for job, half in zip(pair, halves, strict=True)
                ]
                self.moments = self.moments.add(sum(scores) / len(scores))
                ratio = float(normal_llr(self.spec, self.moments))
            if ratio >= self.spec.upper or ratio <= self.spec.lower:
                self.decided_at = self.counted - 1

    def last_wave(self) -> int | None:
        """The wave holding the decision: no later wave is played."""
        if self.decided_at is None:
            return None
        return self.decided_at // WAVE_PAIRS

    def jobs(self) -> Iterator[GameJob]:
        """The jobs of the waves played, in schedule order: all of them while the test has not
        decided, those of the waves up to the decision's once it has."""
        last = self.last_wave()
        return self.pairs.jobs(None if last is None else (last + 1) * WAVE_PAIRS)

    def unplayed(self, stored: Mapping[int, Sequence[Scored | None]]) -> int:
        """Jobs of the waves up to the decision's that `stored` does not hold finished: what a
        run stopped in the decision's wave left, and resume plays (0 while undecided)."""
        if self.last_wave() is None:
            return 0
        return sum(
            1
            for job in self.jobs()
            if not job_finished(stored.get(job.number, []), self.match_length)
        )

    def state(self) -> SprtState:
        from referee.ratings.sprt import normal_state, sprt_state

        if self.adjusted is not None:
            return normal_state(self.spec, self.moments)
        return sprt_state(self.spec, self.counts)

    def _adjusted_score(self, job: GameJob, half: int) -> float:
        """A's luck-adjusted result in a finished game; its plain result for a game that has
        no analysis (luck.py: one no reference can make)."""
        assert self.adjusted is not None
        found = self.adjusted.get(job.number)
        return half / 2 if found is None else found[job.seats.index(0)]

    def _half_points(self, job: GameJob, results: list[Scored | None]) -> int | None:
        """A's score in a finished game (or match) of the schedule, in half points (2 a win);
        None for a game stored without a result."""
        seat_of_a = job.seats.index(0)
        if self.match_length > 1:
            score, _ = match_score(results)
            return 2 if score[seat_of_a] > score[1 - seat_of_a] else 0
        result = results[-1]
        if result is None:
            return None
        if result.winner is None:
            return 1
        return 2 if result.winner == seat_of_a else 0


def stored_test(
    info: TournamentFile, stored: Mapping[int, Sequence[Scored | None]], folder: Path
) -> SprtTracker | None:
    """The SPRT of the tournament in `folder` over its stored games, given the results of
    each job's games (`TournamentStore.tally`), a luck-adjusted test's by the analyses the
    folder holds; None when it runs none."""
    from referee.tournament.luck import stored_adjusted

    spec = info.config.sprt
    if spec is None:
        return None
    game, ruleset = info.config.rules()
    adjusted = stored_adjusted(folder, info.config, info.id)
    tracker = SprtTracker(spec, info.pairs(), game.match_length(ruleset), adjusted)
    tracker.update({number: list(results) for number, results in stored.items()})
    return tracker


def sprt_status(
    info: TournamentFile, stored: Mapping[int, Sequence[Scored | None]], folder: Path
) -> SprtState | None:
    """Where the SPRT of the tournament in `folder` stands over its stored games, given the
    results of each job's games (`TournamentStore.tally`); None when it runs none."""
    tracker = stored_test(info, stored, folder)
    return None if tracker is None else tracker.state()


def extend_tournament(
    store: TournamentStore,
    games_per_pair: int | None = None,
    rounds: int | None = None,
    sprt: str | None = None,
) -> tuple[TournamentFile, int]:
    """`TournamentStore.extend`, refused when the SPRT has decided over the stored games with
    the bounds it will have: no game added would be played. Other bounds (`sprt`) under which
    the stored games decide nothing let the test go on, as a tournament given them from the
    start would have."""

    def undecided(grown: TournamentFile) -> None:
        tracker = stored_test(
            grown, store.tally(grown.size(), results=True).results, store.directory
        )
        if tracker is None or tracker.decided_at is None:
            return
        state = tracker.state()
        raise ConfigError(
            f"{store.directory}: the SPRT {state.spec.text()} decided ({state.decision} "
            f"accepted) after {state.counted()}: nothing is left to play, and no game added "
            "would be; to test on, give it bounds it has not reached with --sprt "
            "(docs/tournaments.md)"
        )

    return store.extend(games_per_pair, rounds, sprt, check=undecided)
