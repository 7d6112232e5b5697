"""How far a tournament is, as one plain object: what `referee tournament status --json`
prints (its fields are documented in docs/tournaments.md)."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from referee.ratings.sprt import SprtState
from referee.tournament.sequential import stored_test
from referee.tournament.store import TournamentStore


def tournament_status(directory: Path) -> dict[str, Any]:
    store = TournamentStore(directory)
    info = store.load()
    config = info.config
    total = info.size()
    tally = store.tally(total, results=config.sprt is not None)
    game, ruleset = config.rules()
    test = stored_test(info, tally.results, directory)
    sprt = None if test is None else test.state()
    decided = test is not None and test.decided_at is not None
    left = test.unplayed(tally.results) if test is not None and decided else total - tally.jobs
    return {
        "id": info.id,
        "game": config.game,
        "variant": config.variant,
        "seed": config.seed,
        "bots": [bot.name for bot in config.bots],
        "unit": "matches" if game.match_length(ruleset) > 1 else "games",
        "scheduled": total,
        "finished": tally.jobs,
        "left_to_play": left,
        "stored": tally.games,
        "stored_again": sum(count - 1 for count in tally.repeats.values()),
        "reasons": dict(sorted(tally.reasons.items())),
        "sprt": None if sprt is None else _sprt(sprt),
        "failed_start": store.failed_start(),
        "damaged_lines": tally.damaged.count,
        "damaged": [{"line": line, "reason": reason} for line, reason in tally.damaged.shown],
    }


def _number(value: float) -> float | None:
    """JSON has no NaN or infinity: an Elo not known yet, or an open bound, is null."""
    return value if math.isfinite(value) else None


def _sprt(state: SprtState) -> dict[str, Any]:
    spec, estimate = state.spec, state.estimate
    return {
        "elo0": spec.elo0,
        "elo1": spec.elo1,
        "alpha": spec.alpha,
        "beta": spec.beta,
        "luck_adjusted": state.luck_adjusted,
        "llr": state.llr,
        "lower": spec.lower,
        "upper": spec.upper,
        "decision": state.decision,
        "games": state.games,
        "pairs": state.pairs,
        "elo": _number(estimate.elo),
        "elo_lower": _number(estimate.lower),
        "elo_upper": _number(estimate.upper),
    }
