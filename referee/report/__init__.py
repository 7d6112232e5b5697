"""The tournament report: one self-contained HTML page with the rating tables, the plot, the
forfeits and every game in a viewer that steps through the engine-drawn boards, with each
move's error and each roll's luck when an analysis file holds the game (`analysed`).

`page.build_report(paths)` gathers it (`build.collect`) and writes the page
(`page.render_page`); docs/report.md describes the page and how its boards are stored.
Nothing is imported here, so that `report.target` (where a report is written) comes alone.
"""
