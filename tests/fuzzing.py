"""Mutating files for fuzz tests: hypothesis strategies shared by the validator's and the
command line's fuzzing."""

from __future__ import annotations

from hypothesis import strategies as st


@st.composite
def mutated(draw: st.DrawFn, content: bytes) -> bytes:
    """`content` with 1 to 8 changes: a byte flipped, bytes inserted or deleted, a number
    (up to 31 digits, negative too) inserted."""
    data = bytearray(content)
    for _ in range(draw(st.integers(1, 8))):
        where = draw(st.integers(0, max(0, len(data) - 1)))
        action = draw(st.sampled_from(["flip", "insert", "delete", "digit"]))
        if action == "flip" and data:
            data[where] = draw(st.integers(0, 255))
        elif action == "insert":
            data[where:where] = draw(st.binary(min_size=1, max_size=12))
        elif action == "delete":
            del data[where : where + draw(st.integers(1, 20))]
        else:
            data[where:where] = str(draw(st.integers(-(10**30), 10**30))).encode()
    return bytes(data)
