"""Rating tables from game records: standings, a joint Elo fit with intervals, LOS, crosstable.

The CLI's `referee ratings` reads games with `read_games`, builds the tables with
`build_tables`, and writes them with `render` (csv, markdown, json, html), `print_tables`
(the terminal) and `plot_ratings` (a PNG). docs/ratings.md explains the model and columns.
"""

from referee.ratings.errors import RatingsError, RatingsInputError
from referee.ratings.results import Games, games_from_records, read_games
from referee.ratings.table import RatingOptions, RatingTable, build_tables

__all__ = [
    "Games",
    "RatingOptions",
    "RatingTable",
    "RatingsError",
    "RatingsInputError",
    "build_tables",
    "games_from_records",
    "read_games",
]
