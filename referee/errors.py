"""The root of every error referee shows its user.

It imports nothing, so that every package, the engines included, can derive from it while
imports keep pointing one way (`games` imports nothing else of referee but this module and the
other modules of the lowest layer, which import nothing either: wording, escaping, cache, ...).
Pydantic's validation errors are told in plain words here too (`plain_problem`), from the
plain data they give, for the records' and the configuration's messages alike.
"""

from __future__ import annotations

import re


class RefereeError(Exception):
    """Input, configuration or a command that referee cannot work with.

    `code` is stable (scripts and diagnostics key on it), `message` one line for the user,
    `path` and `line` the file and 1-based line when known. `str(error)` reads
    `path:line: message`, or just the message when no file is known. The command line
    catches this class in one place (`referee.cli.app`) and prints that line.
    """

    code = "error"
    """The code of a class's errors, unless one is given when raised."""
    path: str | None = None
    line: int | None = None

    def __init__(
        self,
        message: str,
        *,
        code: str | None = None,
        path: str | None = None,
        line: int | None = None,
    ) -> None:
        # Engines raise these while they search: only what is given is set.
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        if path is not None:
            self.path = path
        if line is not None:
            self.line = line

    def __str__(self) -> str:
        if self.path is None:
            return self.message
        where = self.path if self.line is None else f"{self.path}:{self.line}"
        return f"{where}: {self.message}"


_PLAIN = {
    "missing": "missing",
    "extra_forbidden": "unknown field",
    "too_short": "needs {min_length} or more items, not {actual_length}",
    "too_long": "holds {max_length} items at most, not {actual_length}",
    "string_too_short": "needs {min_length} or more characters",
    "string_too_long": "holds {max_length} characters at most",
    "greater_than_equal": "must be {ge} or more, not {input}",
    "greater_than": "must be more than {gt}, not {input}",
    "less_than_equal": "must be {le} or less, not {input}",
    "less_than": "must be less than {lt}, not {input}",
    "int_parsing": "must be a whole number, not {input}",
    "int_type": "must be a whole number, not {input}",
    "int_from_float": "must be a whole number, not {input}",
    "float_parsing": "must be a number, not {input}",
    "float_type": "must be a number, not {input}",
    "bool_parsing": "must be true or false, not {input}",
    "bool_type": "must be true or false, not {input}",
    "string_type": "must be text, not {input}",
    "list_type": "must be a list, not {input}",
    "dict_type": "must be a table of fields, not {input}",
    "model_type": "must be a table of fields, not {input}",
    "model_attributes_type": "must be a table of fields, not {input}",
    "literal_error": "must be {expected}, not {input}",
    "enum": "must be {expected}, not {input}",
    "string_pattern_mismatch": "must match {pattern}, not {input}",
}
"""Pydantic's error types in plain words, with the values of the error's context."""

_LONGEST_INPUT = 40
_SUBJECT = re.compile(r"^\w+ should")


def plain_problem(detail: dict[str, object]) -> str:
    """One problem of a failed pydantic validation (an item of `ValidationError.errors()`,
    plain data: nothing of pydantic is imported) as a short phrase without pydantic's words
    ("List should have at least 2 items after validation, not 1" is "needs 2 or more items,
    not 1"); a validator's own message as it wrote it."""
    context = detail.get("ctx")
    values: dict[str, object] = dict(context) if isinstance(context, dict) else {}
    kind = str(detail.get("type", ""))
    if kind in ("value_error", "assertion_error") and "error" in values:
        return str(values["error"])
    shown = repr(detail.get("input"))
    if len(shown) > _LONGEST_INPUT:
        shown = shown[: _LONGEST_INPUT - 3] + "..."
    template = _PLAIN.get(kind)
    if template is not None:
        return template.format_map({**values, "input": shown})
    # A type not listed: pydantic's phrase, its subject ("Input should", "List should")
    # turned into "must" and what was given after it.
    message = str(detail.get("msg", "is not valid")).removeprefix("Value error, ")
    message = _SUBJECT.sub("must", message).replace(" after validation", "")
    return f"{message}, not {shown}" if "input" in detail else message
