"""The typer command line: parses arguments and calls the library (imports inside each
command, so that start-up stays light)."""
