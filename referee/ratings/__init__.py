"""Rating tables from game records: standings, a joint Elo fit with intervals, LOS, crosstable,
the SPRT's statistics, exports and plots.

Nothing is imported here: `import referee.ratings.sprt` (numpy) must not load pandas and the
`elo` package with the tables. The CLI's `referee ratings` reads games with
`results.read_games`, builds the tables with `table.build_tables`, and writes them with
`output.render` (csv, markdown, json, html), `output.print_tables` (the terminal) and
`plot.plot_ratings` (a PNG). docs/ratings.md explains the model and columns.
"""
