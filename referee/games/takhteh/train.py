"""Learning the weights of the Takhteh network (`net.py`) by self-play, TD(lambda).

The network plays both sides, each turn taking the play whose position it rates best (its
expected points). Each side's positions after its plays form one chain: the value of one
position is pulled towards the value of the same side's next one, and the last towards the
result (won, gammon), with eligibility traces decaying by lambda (Tesauro's TD-Gammon, with
one chain per side since the network sees a position from the side that has just moved).

    python -m referee.games.takhteh.train --out weights.npz

With no options this is the run that made the shipped weights (see docs/takhteh.md).
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

import numpy as np

from referee.games.takhteh.net import WEIGHTS, Net, equity, features
from referee.games.takhteh.rules import START, apply_legs, flip, legal_plays

STAGES = "10000:0.1,5000:0.05"
"""The schedule of the shipped weights: 15,000 games, the learning rate halved after 10,000
(about six minutes on one core here)."""


class _Chain:
    """One side's TD(lambda) state in a game: the traces and the last position's outputs."""

    def __init__(self, net: Net) -> None:
        hidden, inputs = net.w1.shape
        self.w1 = np.zeros((3, hidden, inputs))
        self.b1 = np.zeros((3, hidden))
        self.w2 = np.zeros((3, hidden))
        self.b2 = np.zeros(3)
        self.last: np.ndarray | None = None

    def learn(self, net: Net, target: np.ndarray, alpha: float) -> None:
        """Move the weights so that the last position's outputs come nearer to `target`."""
        if self.last is None:
            return
        delta = alpha * (target - self.last)
        net.w1 += np.tensordot(delta, self.w1, axes=1)
        net.b1 += delta @ self.b1
        net.w2 += delta[:, None] * self.w2
        net.b2 += delta * self.b2

    def trace(
        self, net: Net, x: np.ndarray, hidden: np.ndarray, out: np.ndarray, lam: float
    ) -> None:
        """Decay the traces and add the gradient of each output at the new position."""
        slope = out * (1 - out)
        grad_hidden = slope[:, None] * net.w2 * (hidden * (1 - hidden))
        self.w1 *= lam
        self.w1 += grad_hidden[:, :, None] * x
        self.b1 = lam * self.b1 + grad_hidden
        self.w2 = lam * self.w2 + slope[:, None] * hidden
        self.b2 = lam * self.b2 + slope
        self.last = out


def self_play_game(net: Net, rng: random.Random, alpha: float, lam: float) -> int:
    """One game of the network against itself, learning as it goes; returns the plies."""
    chains = [_Chain(net), _Chain(net)]
    board = START
    side = 0
    for ply in range(1, 3000):
        a, b = rng.randint(1, 6), rng.randint(1, 6)
        plays = legal_plays(board, max(a, b), min(a, b))
        afters = [apply_legs(board, play) for play in plays]
        for after in afters:
            if max(after) <= 0:
                gammon = 1.0 if sum(after) == -15 else 0.0
                chains[side].learn(net, np.array([1.0, gammon, 0.0]), alpha)
                chains[1 - side].learn(net, np.array([0.0, 0.0, gammon]), alpha)
                return ply
        x = features(afters)
        hidden, out = net.forward(x)
        best = int(np.argmax(equity(out)))
        chain = chains[side]
        chain.learn(net, out[best], alpha)
        chain.trace(net, x[best], hidden[best], out[best], lam)
        board = flip(afters[best])
        side = 1 - side
    return ply


def train(
    net: Net, stages: list[tuple[int, float]], lam: float, seed: int, out: Path, every: int = 1000
) -> Net:
    """Self-play each stage's games at its learning rate, the dice of stage i from seed + i.

    The weights are saved to `out` every `every` games and at the end of each stage, and
    each stage goes on from the saved (float32) weights: a run stopped at the end of a stage
    goes on from its file with the same result (`--start`).
    """
    started = time.perf_counter()
    for index, (games, alpha) in enumerate(stages):
        rng = random.Random(seed + index)
        plies = 0
        for game in range(1, games + 1):
            plies += self_play_game(net, rng, alpha, lam)
            if game % every == 0 or game == games:
                net.save(out)
                seconds = time.perf_counter() - started
                print(
                    f"stage {index + 1}: {game} games at {alpha}, {plies / game:.1f} plies a "
                    f"game, {seconds:.0f} s",
                    flush=True,
                )
        net = Net.load(out, np.float64)
    return net


def _stages(text: str) -> list[tuple[int, float]]:
    """`20000:0.1,20000:0.05`: games and learning rate of each stage."""
    stages = []
    for part in text.split(","):
        games, _, alpha = part.partition(":")
        stages.append((int(games), float(alpha)))
    return stages


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--stages",
        type=_stages,
        default=_stages(STAGES),
        help=f"games:learning-rate of each stage (default {STAGES})",
    )
    parser.add_argument("--hidden", type=int, default=40)
    parser.add_argument("--lam", type=float, default=0.7)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--start", type=Path, help="weights to go on from (default: random)")
    parser.add_argument("--out", type=Path, default=WEIGHTS)
    args = parser.parse_args()
    net = Net.load(args.start, np.float64) if args.start else Net.random(args.hidden, args.seed)
    train(net, args.stages, args.lam, args.seed, args.out)


if __name__ == "__main__":
    main()
