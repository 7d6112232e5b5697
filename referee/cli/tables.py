"""Tables printed on the terminal."""

from __future__ import annotations

from typing import TYPE_CHECKING

from referee.cli.output import wide_console
from referee.wording import plural

if TYPE_CHECKING:
    from referee.validator.summary import Summary


def print_summary(summary: Summary) -> None:
    from rich.table import Table

    table = Table(title="validation", title_justify="left")
    for column in ("game", "variant", "games", "valid", "invalid"):
        table.add_column(
            column, justify="right" if column in ("games", "valid", "invalid") else "left"
        )
    table.add_column("problems by code")
    from referee.games import listing_order

    groups = sorted(summary.groups.items(), key=lambda item: (listing_order(item[0][0]), item[0]))
    for (game, variant), tally in groups:
        codes = ", ".join(f"{code} x{count}" for code, count in tally.codes.most_common())
        table.add_row(game, variant, str(tally.games), str(tally.valid), str(tally.invalid), codes)
    console = wide_console()
    console.print(table)
    console.print(
        f"{plural(summary.games, 'game')}: {summary.games - summary.invalid} valid, "
        f"{summary.invalid} invalid"
    )
