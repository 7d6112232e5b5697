"""How the command line describes itself: metavars in help, and usage errors in one line."""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Any, get_args, get_origin

import click

_TYPE_NAMES: dict[Any, str] = {int: "INTEGER", float: "NUMBER", str: "TEXT", Path: "FILE"}


def _metavar(param: click.Parameter) -> str | None:
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
    if isinstance(param, click.Argument) and param.nargs != 1:
        name += "..."
    return name


def name_metavars(command: click.Command) -> None:
    """Give every option and argument without a metavar of its own the click-style name."""
    for param in command.params:
        if param.metavar is None:
            param.metavar = _metavar(param)
    for sub in getattr(command, "commands", {}).values():
        name_metavars(sub)


def usage_message(error: click.UsageError) -> str:
    """click's usage error as one line that says where to look for help."""
    message = error.format_message().rstrip(".")
    if error.ctx is None:
        return message
    return f"{message} (see '{error.ctx.command_path} --help')"
