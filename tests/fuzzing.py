"""Mutating files for fuzz tests: hypothesis strategies shared by the validator's and the
command line's fuzzing. `mutated` changes bytes; `structured` changes the fields and lines of
JSON records, `lined` the lines of the text formats; `damaged` picks what fits a file."""

from __future__ import annotations

import json
from typing import Any

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


_RAW = [
    "NaN",
    "Infinity",
    "-Infinity",
    "1e999",
    "-0",
    "1e-400",
    "123456789012345678901234567890123456789",
    '"\\ud800"',
    '"\\u0000"',
    '"\\u001b[2J"',
]
"""JSON text that no Python value serializes to: numbers beyond a float or a 64-bit integer,
NaN and infinities (which Python's parser accepts), lone surrogates and control characters."""

_PLACEHOLDER = "\x00raw{}\x00"
"""Stands for a raw text or a deep nesting in a document until it is written out."""

_JSON = dict[str, Any] | list[Any] | str | int | float | bool | None


def _slots(value: Any) -> list[tuple[Any, Any]]:
    """(container, key) of every value inside `value`, depth first."""
    found: list[tuple[Any, Any]] = []
    stack = [value]
    while stack:
        node = stack.pop()
        keys: list[Any] = list(node) if isinstance(node, dict) else []
        if isinstance(node, list):
            keys = list(range(len(node)))
        for key in keys:
            found.append((node, key))
            stack.append(node[key])
    return found


def _other_type(draw: st.DrawFn, value: Any, raws: list[str]) -> Any:
    """A value of another type than `value` (or a raw text or a deep nesting)."""
    choice = draw(
        st.sampled_from(
            ["text", "int", "huge", "float", "list", "dict", "null", "bool", "raw", "deep", "long"]
        )
    )
    if choice in ("raw", "deep"):
        if choice == "raw":
            raws.append(draw(st.sampled_from(_RAW)))
        else:
            depth = draw(st.integers(50, 5000))
            opener = draw(st.sampled_from(["[", '{"a":']))
            closer = "]" if opener == "[" else "}"
            raws.append(opener * depth + "1" + closer * depth)
        return _PLACEHOLDER.format(len(raws) - 1)
    return {
        "text": lambda: draw(st.text(max_size=12)),
        "int": lambda: draw(st.integers(-3, 3)),
        "huge": lambda: draw(st.sampled_from([2**63, 2**64, -(2**63) - 1, 10**40])),
        "float": lambda: draw(st.floats(allow_nan=False, allow_infinity=False)),
        "list": lambda: [value],
        "dict": lambda: {"value": value},
        "null": lambda: None,
        "bool": lambda: draw(st.booleans()),
        "long": lambda: "x" * draw(st.sampled_from([257, 5000, 100_000])),
    }[choice]()


@st.composite
def structured(draw: st.DrawFn, content: bytes) -> bytes:
    """A JSON document or JSON lines (`content`) with 1 to 4 changes to its structure: values of
    two fields swapped, a field or an item deleted, a value of another type (huge integers,
    floats, NaN and infinities as raw text, deep nesting, long text), an unknown field added,
    or whole lines cut short, duplicated, dropped or swapped."""
    text = content.decode("utf-8")
    try:
        documents: list[Any] = [json.loads(text)]
        whole = True
    except json.JSONDecodeError:
        documents = [json.loads(line) for line in text.splitlines() if line.strip()]
        whole = False
    raws: list[str] = []
    line_changes: list[str] = []
    for _ in range(draw(st.integers(1, 4))):
        # inside the documents: a document itself is dropped as a line is
        slots = [slot for document in documents for slot in _slots(document)]
        action = draw(
            st.sampled_from(["swap", "delete", "retype", "retype", "add", "lines"])
            if slots
            else st.just("lines")
        )
        if action == "lines":
            line_changes.append(draw(st.sampled_from(["cut", "duplicate", "drop", "swap"])))
            continue
        container, key = draw(st.sampled_from(slots))
        if action == "swap":
            other, other_key = draw(st.sampled_from(slots))
            if other is container and other_key == key:
                continue
            if _contains(container[key], other) or _contains(other[other_key], container):
                continue  # one inside the other: a swap would make a cycle
            container[key], other[other_key] = other[other_key], container[key]
        elif action == "delete":
            del container[key]
        elif action == "retype":
            container[key] = _other_type(draw, container[key], raws)
        else:
            target = container if isinstance(container, dict) else container[key]
            if isinstance(target, dict):
                name = draw(st.sampled_from(["extra", "", "turns", "x" * 300, "\u00e9"]))
                target[name] = _other_type(draw, None, raws)
    if whole:
        lines = json.dumps(documents[0], indent=1).split("\n")
    else:
        lines = [json.dumps(document) for document in documents]
    for change in line_changes:
        if not lines:
            break
        where = draw(st.integers(0, len(lines) - 1))
        if change == "cut":
            lines[where] = lines[where][: draw(st.integers(0, len(lines[where])))]
        elif change == "duplicate":
            lines.insert(where, lines[where])
        elif change == "drop":
            del lines[where]
        else:
            other = draw(st.integers(0, len(lines) - 1))
            lines[where], lines[other] = lines[other], lines[where]
    written = "\n".join(lines) + "\n"
    for number, raw in enumerate(raws):
        # json.dumps escapes the placeholder's NUL characters
        written = written.replace(json.dumps(_PLACEHOLDER.format(number)), raw)
    return written.encode("utf-8", "surrogatepass")


def _contains(value: Any, node: Any) -> bool:
    """Whether `node` is `value` or inside it."""
    return value is node or any(container is node for container, _ in _slots(value))


@st.composite
def lined(draw: st.DrawFn, content: bytes) -> bytes:
    """A text file (`content`: .pdn, .mat, .trx) with 1 to 4 changes to its lines: a line cut
    short, a byte flipped, two lines swapped, a line duplicated or dropped."""
    lines = content.split(b"\n")
    for _ in range(draw(st.integers(1, 4))):
        where = draw(st.integers(0, len(lines) - 1)) if lines else 0
        action = draw(st.sampled_from(["cut", "flip", "swap", "duplicate", "drop"]))
        if not lines:
            break
        line = lines[where]
        if action == "cut":
            lines[where] = line[: draw(st.integers(0, len(line)))]
        elif action == "flip" and line:
            at = draw(st.integers(0, len(line) - 1))
            lines[where] = line[:at] + bytes([draw(st.integers(0, 255))]) + line[at + 1 :]
        elif action == "swap":
            other = draw(st.integers(0, len(lines) - 1))
            lines[where], lines[other] = lines[other], lines[where]
        elif action == "duplicate":
            lines.insert(where, line)
        elif action == "drop":
            del lines[where]
    return b"\n".join(lines)


def damaged(content: bytes, suffix: str) -> st.SearchStrategy[bytes]:
    """Changes fit for a record file of this suffix: to its structure (JSON) or its lines
    (the text formats), and to its bytes."""
    fitting = structured(content) if suffix in (".json", ".jsonl") else lined(content)
    return st.one_of(fitting, fitting, mutated(content))
