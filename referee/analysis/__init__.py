"""Game analysis against a reference (`referee analyse`, docs/analysis.md): each move's error
(what it loses against the reference's best move), each roll's luck (what it gains against
the average roll), and per game and seat the error rate, the blunders, the luck and the
luck-adjusted result.

turns.py analyses one record turn by turn, summary.py sums a game up per seat, engines.py
finds each game's reference from a spec, run.py reads files (in worker processes with
--jobs), output.py writes the tables, CSV, Markdown and the analysis file's JSON lines.
"""
