"""The typer command line: parses arguments and calls the library.

A command module imports at its top only what `referee --help` loads anyway (typer, the other
command modules, output.py, bounds.py, wording.py, escaping.py); each command imports the
library it calls inside itself, so that pandas, numpy, matplotlib, dask, the record models and
the engines load only with a command that needs them (tests/cli/test_startup.py)."""
