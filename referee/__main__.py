"""`python -m referee` runs the command line."""

from referee.cli.app import main

main()
