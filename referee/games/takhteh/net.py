"""A small neural evaluation of Takhteh positions: features, the network and its weights.

The network sees a position from the player who has just moved (the opponent is about to
roll) and gives three probabilities for that player: the game is won, won with a gammon, lost
with a gammon. Its weights were learned by self-play (`train.py`, TD(lambda)) and are shipped
beside this file (`net_weights.npz`, a few tens of kB); numpy is all it needs.

The features (`features`) are computed for a whole batch of positions at once:

- for each side, from that side's point of view: each point 1..24 as four inputs (a checker
  or more, two or more, three or more, and half the count beyond three: TD-Gammon's coding),
  the bar (half the count), checkers off (a fifteenth each) and the pip count;
- for each side, hand-made summaries: the exposure of its blots (opposing checkers behind
  each blot shooting at it, by the number of rolls that hit at that distance, blocks
  ignored), that exposure weighted by the pips a hit would lose, home-board points made,
  the longest prime and checkers still in the opponent's home board or on the bar;
- whether the checkers are still in contact, and the pip difference split by it.

A bot's evaluation (`Net.probabilities`) gives the same bits on every machine: BLAS picks its
kernel by the CPU (and `OPENBLAS_CORETYPE`) and adds a product's terms in that kernel's order,
and numpy's `exp` has its own code for AVX-512. So the inputs and weights are rounded to a
fixed grid on which every sum is exact in float64 (`_exact_matmul`), and the sigmoid is made of
additions, multiplications and a division only (`_sigmoid`). Training (`Net.forward`) keeps
the plain float products: it is the run that made the weights, not a game.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import chain
from pathlib import Path

import numpy as np

from referee.games.takhteh.rules import Board

WEIGHTS = Path(__file__).with_name("net_weights.npz")

# Rolls out of 36 that hit a blot k pips away with one checker, blocks ignored.
_SHOTS = [0, 11, 12, 14, 15, 15, 17, 6, 6, 5, 3, 2, 3, 0, 0, 1, 1, 0, 1, 0, 1, 0, 0, 0, 1]
# _SHOT_MATRIX[x, p - 1]: the rolls that hit a blot on point p from point x < p (x = 0 is the
# bar of the side shooting, which enters towards the blot's side).
_SHOT_MATRIX = np.array(
    [[_SHOTS[p - x] if p > x else 0 for p in range(1, 25)] for x in range(25)], dtype=np.float32
)
_LOSS = ((25 - np.arange(1, 25)) / 25).astype(np.float32)
"""The pips a hit on point p costs (the checker goes back to the bar, 25), as a fraction."""
_POINTS = np.arange(1, 26, dtype=np.int32)
_PRIME_BITS = 1 << np.arange(24, dtype=np.int64)

SIDE_INPUTS = 24 * 4 + 3 + 5
INPUTS = 2 * SIDE_INPUTS + 3

_BLAS_WORK = 65536 * 4
"""Multiply-adds per matrix product at most: OpenBLAS shares a larger product among threads,
which on a busy machine mostly wait for each other (several times slower for the batches
here), so products are taken in slices of rows below that size."""


def _matmul(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """a @ b for 2-D arrays, in slices of rows small enough for one thread."""
    out = np.empty((len(a), b.shape[1]), dtype=np.result_type(a, b))
    rows = max(1, _BLAS_WORK // (a.shape[1] * b.shape[1]))
    for start in range(0, len(a), rows):
        np.matmul(a[start : start + rows], b, out=out[start : start + rows])
    return out


_INPUT_BITS, _WEIGHT_BITS, _HIDDEN_BITS = 18, 24, 20
"""The grids of the exact evaluation: inputs to multiples of 2**-18, weights of 2**-24 and the
hidden layer of 2**-20. The inputs move by 2**-19 at most, the weights by 2**-25 (float32
weights near 1 are 2**-24 apart), far below what the network tells apart."""


def _on_grid(a: np.ndarray, bits: int) -> np.ndarray:
    """`a` in float64, rounded to the nearest multiple of 2**-bits (exact steps: scalings by
    a power of two and a rounding to an integer)."""
    scaled: np.ndarray = np.multiply(a, 2.0**bits, dtype=np.float64)
    np.rint(scaled, out=scaled)
    scaled *= 2.0**-bits
    return scaled


def _exact_matmul(a: np.ndarray, a_bits: int, b: np.ndarray, b_bits: int) -> np.ndarray:
    """a @ b, the same bits whatever BLAS kernel, CPU or thread count: with `a` and `b` on
    grids of 2**-a_bits and 2**-b_bits, every product and every partial sum is a multiple of
    2**-(a_bits + b_bits) below the sum of the terms' sizes, exact in float64 while that sum
    is below 2**(53 - a_bits - b_bits); so the order and grouping of the additions (which the
    kernel chooses) and fused multiply-adds change nothing."""
    a, b = _on_grid(a, a_bits), _on_grid(b, b_bits)
    largest = float(np.abs(a).max(initial=0.0)) * float(np.abs(b).sum(axis=0).max(initial=0.0))
    if largest >= 2.0 ** (53 - a_bits - b_bits):
        raise ValueError(f"a product of up to {largest:g} is not exact on these grids")
    return _matmul(a, b)


# exp(z) = 2**k * exp(r) with k = round(z / ln 2) and |r| <= ln(2) / 2; ln 2 in two parts
# (fdlibm's), the first with low bits zero so that k * _LN2_HIGH is exact.
_LN2_HIGH = 6.93147180369123816490e-01
_LN2_LOW = 1.90821492927058770002e-10
_LOG2_E = 1.4426950408889634
_EXP_TERMS = [1 / math.factorial(n) for n in range(12)]
"""exp's Taylor series to r**11/11!: the rest is below 1e-14 of exp for |r| <= ln(2) / 2."""


def _sigmoid(z: np.ndarray) -> np.ndarray:
    """1 / (1 + exp(-z)) from additions, multiplications, a division and exact scalings only,
    each rounded as IEEE 754 says on every CPU (numpy's own `exp` differs between them in the
    last bit). Beyond |z| = 60 the sigmoid is 0 or 1 within 1e-26."""
    minus = -np.clip(z, -60.0, 60.0)
    k = np.rint(minus * _LOG2_E)
    r = (minus - k * _LN2_HIGH) - k * _LN2_LOW
    power = np.full_like(r, _EXP_TERMS[-1])
    for term in reversed(_EXP_TERMS[:-1]):
        power *= r
        power += term
    result: np.ndarray = 1 / (1 + np.ldexp(power, k.astype(np.int64)))
    return result


def _longest_run(made: np.ndarray) -> np.ndarray:
    """The longest run of consecutive made points in each row of a (N, 24) mask."""
    bits = made @ _PRIME_BITS
    length = np.zeros(len(made), dtype=np.float32)
    while bits.any():
        length += bits != 0
        bits &= bits >> 1
    return length


def _sides(own: np.ndarray, other: np.ndarray, pips: np.ndarray) -> np.ndarray:
    """The inputs of each side (one row per side of a position): `own` holds the side's
    checkers on its points 1..24 and its bar; `other` the opposing checkers on the same
    points seen from the side, with the opposing bar first (point 0, where they enter from);
    `pips` the side's pip count."""
    rows = len(own)
    points = own[:, :24]
    code = np.empty((rows, 24, 4), dtype=np.float32)
    np.greater_equal(points, 1, out=code[:, :, 0])
    np.greater_equal(points, 2, out=code[:, :, 1])
    np.greater_equal(points, 3, out=code[:, :, 2])
    code[:, :, 3] = np.maximum(points - 3, 0) * 0.5
    made = points >= 2
    shots = np.minimum(_matmul((other > 0).astype(np.float32), _SHOT_MATRIX), 36)
    shots *= points == 1
    side = np.empty((rows, SIDE_INPUTS), dtype=np.float32)
    side[:, :96] = code.reshape(rows, 96)
    side[:, 96] = own[:, 24] / 2
    side[:, 97] = (15 - own.sum(axis=1)) / 15
    side[:, 98] = pips / 100
    side[:, 99] = np.minimum(shots.sum(axis=1) / 36, 1)
    side[:, 100] = (shots * _LOSS).sum(axis=1) / 36
    side[:, 101] = made[:, :6].sum(axis=1) / 6
    side[:, 102] = _longest_run(made) / 6
    side[:, 103] = own[:, 18:].sum(axis=1) / 15
    return side


def features(boards: Sequence[Board] | np.ndarray) -> np.ndarray:
    """The network's inputs (N, INPUTS) for boards seen from the player who has just moved."""
    if isinstance(boards, np.ndarray):
        b = boards.reshape(-1, 26).astype(np.int32)
    else:
        b = np.fromiter(chain.from_iterable(boards), np.int32, 26 * len(boards)).reshape(-1, 26)
    n = len(b)
    # Both sides' views: the player who has just moved in the first n rows, the flip after.
    views = np.empty((2 * n, 26), dtype=np.int32)
    views[:n] = b
    np.negative(b[:, ::-1], out=views[n:])
    own = np.maximum(views[:, 1:], 0)
    other = np.maximum(-views[:, :25], 0)
    pips = (own * _POINTS).sum(axis=1)
    side = _sides(own, other, pips)
    # Contact: the rearmost checkers of the two sides have not passed each other.
    back = np.where(own > 0, _POINTS, 0).max(axis=1)
    contact = back[:n] + back[n:] > 25
    diff = (pips[n:] - pips[:n]) / 50
    x = np.empty((n, INPUTS), dtype=np.float32)
    x[:, :SIDE_INPUTS] = side[:n]
    x[:, SIDE_INPUTS : 2 * SIDE_INPUTS] = side[n:]
    x[:, -3] = contact
    x[:, -2] = contact * diff
    x[:, -1] = ~contact * diff
    return x


class Net:
    """One hidden layer of sigmoids and three sigmoid outputs (win, win gammon, lose gammon)."""

    def __init__(self, w1: np.ndarray, b1: np.ndarray, w2: np.ndarray, b2: np.ndarray) -> None:
        self.w1, self.b1, self.w2, self.b2 = w1, b1, w2, b2

    @classmethod
    def random(cls, hidden: int, seed: int) -> Net:
        """Small random weights in float64, for training."""
        rng = np.random.default_rng(seed)
        return cls(
            rng.normal(0, 0.1, (hidden, INPUTS)),
            np.zeros(hidden),
            rng.normal(0, 0.1, (3, hidden)),
            np.zeros(3),
        )

    @classmethod
    def load(cls, path: Path = WEIGHTS, dtype: type = np.float32) -> Net:
        """Weights from a file, in float32 for playing or float64 to train on."""
        with np.load(path) as data:
            return cls(*(data[key].astype(dtype) for key in ("w1", "b1", "w2", "b2")))

    def save(self, path: Path) -> None:
        np.savez_compressed(
            path,
            w1=self.w1.astype(np.float32),
            b1=self.b1.astype(np.float32),
            w2=self.w2.astype(np.float32),
            b2=self.b2.astype(np.float32),
        )

    def forward(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The hidden layer and the outputs for inputs x (N, INPUTS)."""
        hidden = 1 / (1 + np.exp(-(_matmul(x, self.w1.T) + self.b1)))
        return hidden, 1 / (1 + np.exp(-(_matmul(hidden, self.w2.T) + self.b2)))

    def probabilities(self, boards: Sequence[Board] | np.ndarray) -> np.ndarray:
        """(N, 3): win, win gammon, lose gammon for the player each board is seen from; the
        same bits on every machine (the module's note)."""
        pre = _exact_matmul(features(boards), _INPUT_BITS, self.w1.T, _WEIGHT_BITS) + self.b1
        hidden = _sigmoid(pre)
        out = _exact_matmul(hidden, _HIDDEN_BITS, self.w2.T, _WEIGHT_BITS) + self.b2
        return _sigmoid(out)


def equity(probabilities: np.ndarray) -> np.ndarray:
    """Expected points (a gammon counts 2): 2 P(win) - 1 + P(win gammon) - P(lose gammon)."""
    points: np.ndarray = 2 * probabilities[:, 0] - 1 + probabilities[:, 1] - probabilities[:, 2]
    return points
