"""The names referee gives files and folders itself, and the path names that stand for the
standard streams: each written once, so that the commands that write a tournament folder and
those that read it cannot disagree (imports nothing of referee: every layer may use it).

A tournament folder (docs/tournaments.md) holds TOURNAMENT_FILE and GAMES_FILE, the folders
SPOOL_FOLDER, BOTS_FOLDER, LOGS_FOLDER and SCRATCH_FOLDER while or after games are played,
LOCK_FILE while a process plays it, REJECTED_FILE and REJECTED_NOTES after a repair, and
FAILED_START_FILE after a program could not start, ANALYSIS_FILE when its SPRT is
luck-adjusted; REPORT_FILE is the report written into it.
File names made from names a user chose are `file_names.file_stem`'s.
"""

from __future__ import annotations

STDIN = "-"
"""The input path that means standard input."""
STDOUT = "-"
"""The output path that means standard output."""
STDIN_NAME = "<stdin>"
"""Standard input's name in messages and diagnostics."""

TOURNAMENT_FILE = "tournament.json"
"""A tournament folder's configuration and state (`tournament.store.TournamentFile`)."""
GAMES_FILE = "games.jsonl"
"""A tournament folder's finished games, a JSON record a line, appended to as they end."""
LOCK_FILE = ".lock"
"""Locked by the process that plays the folder, so that a second one is refused."""
REJECTED_FILE = "games.rejected"
"""The lines `TournamentStore.repair` moved out of games.jsonl, byte for byte."""
REJECTED_NOTES = "games.rejected.txt"
"""Why each line of games.rejected was moved there, and when."""
FAILED_START_FILE = "failed-start.txt"
"""Why the last run stopped at a program that could not start (`tournament status` says it)."""
SPOOL_FOLDER = ".spool"
"""Where workers write each game as it ends (a file per batch), so that a batch stopped or
killed before it came back loses no finished game."""
BOTS_FOLDER = ".bots"
"""Where workers note their bots' process groups."""
LOGS_FOLDER = "logs"
"""The programs' stderr logs, `NAME.stderr.log` each."""
SCRATCH_FOLDER = "scratch"
"""The working folder of the programs that name no `dir` of their own."""
ANALYSIS_FILE = "analysis.jsonl"
"""A luck-adjusted tournament's analysis of each stored game, a line each as `referee analyse
--out` writes them (`analysis.stored`), appended as games are stored."""
REPORT_FILE = "report.html"
"""The report of a tournament folder, in it; of several inputs or of standard input, in the
current folder."""
