"""How the command line describes itself: metavars in help, and usage errors in one line."""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Any, get_args, get_origin

import typer
from typer.core import TyperArgument

_TYPE_NAMES: dict[Any, str] = {int: "INTEGER", float: "NUMBER", str: "TEXT", Path: "FILE"}


class _PlainArgument(TyperArgument):
    """An argument shown as click shows it: `FILE...` in the usage line and in the list of
    arguments, without typer's `<list[str]>` beside it."""

    def display_type_rich(self, ctx: Any) -> str | None:
        return None

    def _usage_display_name(self) -> str:
        name = self.display_name_raw
        return f"[{name}]" if not self.required else name


def _metavar(param: Any) -> str | None:
    """click's names for a value (INTEGER, TEXT, FILE, [a|b]) rather than typer's `<int>`;
    repeated arguments end in `...`."""
    descriptor = getattr(param, "type_descriptor", None)
    if descriptor is None or getattr(param, "is_flag", False):
        return None
    annotation = descriptor.annotation
    if get_origin(annotation) is list:
        (annotation,) = get_args(annotation)
    if isinstance(annotation, type) and issubclass(annotation, Enum):
        name = "[" + "|".join(str(member.value) for member in annotation) + "]"
    else:
        name = _TYPE_NAMES.get(annotation, "TEXT")
    if param.param_type_name == "argument" and param.nargs != 1:
        name += "..."
    return name


def name_metavars(command: Any) -> None:
    """Give every option and argument without a metavar of its own the click-style name."""
    for param in command.params:
        if param.metavar is None:
            param.metavar = _metavar(param)
        if type(param) is TyperArgument:
            param.__class__ = _PlainArgument
    for sub in getattr(command, "commands", {}).values():
        name_metavars(sub)


def usage_message(error: typer.TyperException) -> str:
    """click's usage error as one line that says where to look for help."""
    # typer checks enum choices through pydantic, whose messages start `Value error, `.
    message = error.format_message().rstrip(".").replace("Value error, ", "")
    param = getattr(error, "param", None)
    if param is not None and error.message.startswith("must "):
        # Our own checks say what a value must be: `--games-per-pair must be ...`.
        message = f"{max(param.opts, key=len)} {error.message}"
    ctx = getattr(error, "ctx", None)
    if ctx is None or error.exit_code != 2:
        return message
    return f"{message} (see '{ctx.command_path} --help')"
