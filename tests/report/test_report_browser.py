"""The report in headless Chromium: tables, the game viewer for each game, size and opening time.

The browser is Debian's chromium (`.ci/install-browser` installs it), driven by Playwright.
Without it the tests are skipped, so that a developer can run the rest of the suite; on CI
(CI set) a missing browser is a failure, not a skip.
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright
from typer.testing import CliRunner

from referee.analysis.stored import StoredAnalysis, read_analysis_file
from referee.analysis.summary import BLUNDER
from referee.cli.app import app
from referee.games import GAME_NAMES
from referee.path_names import ANALYSIS_FILE
from referee.records.io import iter_jsonl
from referee.records.model import Record, Turn
from referee.report.page import build_report
from tests.records.helpers import write_jsonl

MakeTournament = Callable[..., Path]

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")

# As root Chromium needs --no-sandbox; the others keep it from calling out (this machine's
# network is closed) and from doing anything a test did not ask for.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

OPEN_SECONDS = 2.0
SIZE_BYTES = 5_000_000


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if CHROMIUM is None:
        if os.environ.get("CI"):
            pytest.fail("no Chromium on CI: .ci/run must run .ci/install-browser first")
        pytest.skip("no Chromium: `bash .ci/install-browser` installs Debian's chromium")
    with sync_playwright() as playwright:
        # launch() gives the browser a new, empty profile of its own each time.
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert not errors, errors


def open_report(page: Page, path: Path) -> float:
    """Open the report; the seconds until its script has drawn the list and is ready."""
    started = time.perf_counter()
    page.goto(path.as_uri())
    page.wait_for_function("document.documentElement.dataset.ready === 'true'")
    return time.perf_counter() - started


def records_of(path: Path) -> list[Record]:
    with path.open("rb") as stream:
        return [loaded.record for loaded in iter_jsonl(stream) if loaded.record is not None]


@pytest.mark.parametrize("game", GAME_NAMES)
def test_standings_and_stepping_through_a_game(
    game: str, page: Page, tmp_path: Path, make_tournament: MakeTournament
) -> None:
    directory = make_tournament(tmp_path / "t", game=game, games_per_pair=4)
    records = records_of(directory / "games.jsonl")
    report = tmp_path / "report.html"
    report.write_text(build_report([directory]), encoding="utf-8")
    open_report(page, report)

    standings = page.locator("section.ratings table").first
    expect(standings.locator("thead th")).to_contain_text(["#", "bot", "games", "W", "D", "L"])
    rows = standings.locator("tbody tr")
    expect(rows).to_have_count(2)
    bots = sorted(rows.nth(i).locator("td").nth(1).inner_text() for i in range(2))
    assert bots == ["random-a", "random-b"]
    expect(rows.locator("td:nth-child(3)")).to_have_text(["4", "4"])

    # The first game with two turns or more; a click anywhere on its row opens it.
    number = next(i for i, record in enumerate(records, 1) if len(record.turns) >= 2)
    page.locator("#game-list tbody tr").nth(number - 1).locator("td").nth(1).click()
    board = page.locator("#board")
    expect(board.locator("svg")).to_be_visible()
    marked = page.locator("#moves li.current")
    expect(marked).to_have_text("start")
    expect(page.locator("#counter")).to_have_text(f"0 / {len(records[number - 1].turns)}")
    # The boards say "seat 0" and "seat 1": the viewer names the player of each.
    names = [player.name for player in records[number - 1].players]
    expect(page.locator("#players")).to_have_text(f"seat 0: {names[0]} · seat 1: {names[1]}")
    moved = page.locator("#players .player.moved")
    expect(moved).to_have_count(0)

    for turn in (1, 2):
        before = board.inner_html()
        page.keyboard.press("ArrowRight")
        expect(marked).to_have_attribute("data-position", str(turn))
        assert marked.inner_text().startswith(f"{turn}. ")
        assert board.inner_html() != before
        assert board.locator("svg").count() == 1
        expect(moved).to_have_text(names[records[number - 1].turns[turn - 1].seat])

    page.keyboard.press("End")
    last = len(records[number - 1].turns)
    expect(marked).to_have_attribute("data-position", str(last))
    page.get_by_role("button", name="first position").click()
    expect(marked).to_have_text("start")
    page.keyboard.press("Escape")
    expect(page.locator("#viewer")).not_to_be_visible()


def test_report_of_a_thousand_games_is_small_and_opens_fast(
    page: Page, tmp_path: Path, make_tournament: MakeTournament
) -> None:
    directory = make_tournament(tmp_path / "t", game="thax", games_per_pair=1000)
    records = records_of(directory / "games.jsonl")
    report = tmp_path / "report.html"
    report.write_text(build_report([directory]), encoding="utf-8")
    size = report.stat().st_size
    assert size < SIZE_BYTES, f"{size} bytes"

    seconds = open_report(page, report)
    assert seconds < OPEN_SECONDS, f"{seconds:.2f} s to open"
    print(f"\n1,000-game report: {size / 1e6:.2f} MB, opened in {seconds:.2f} s")

    # The list shows a page of rows; the filter counts over all games.
    expect(page.locator("#game-list tbody tr")).to_have_count(100)
    expect(page.locator("#page-info")).to_have_text("1–100 of 1000")
    page.locator("#next-page").click()
    expect(page.locator("#game-list tbody tr").first.locator("td").first).to_have_text("101")
    seat_one_wins = sum(1 for r in records if r.result is not None and r.result.winner == 1)
    page.locator("#filter").fill("0-1")
    expect(page.locator("#page-info")).to_contain_text(f"of {seat_one_wins}")

    # A link straight to a position of the last game.
    last = len(records[-1].turns)
    page.evaluate(f"location.hash = '#game-1000/turn-{last}'")
    expect(page.locator("#board svg")).to_be_visible()
    expect(page.locator("#counter")).to_have_text(f"{last} / {last}")
    expect(page.locator("#moves li.current")).to_have_attribute("data-position", str(last))


@pytest.mark.parametrize("game", GAME_NAMES)
def test_boards_mark_the_last_move_and_show_the_dice(
    game: str, page: Page, tmp_path: Path, make_tournament: MakeTournament
) -> None:
    directory = make_tournament(tmp_path / "t", game=game, games_per_pair=2)
    records = records_of(directory / "games.jsonl")
    report = tmp_path / "report.html"
    report.write_text(build_report([directory]), encoding="utf-8")
    open_report(page, report)
    turn = min(3, len(records[0].turns))
    page.evaluate(f"location.hash = '#game-1/turn-{turn}'")
    board = page.locator("#board svg")
    expect(board).to_be_visible()
    marks = board.locator(".last-move, .last-move-from")
    expect(marks.first).to_be_visible()
    if game in ("thax", "takhteh"):
        roll = records[0].turns[turn - 1].roll
        assert roll is not None
        dice = board.locator("g.dice")
        expect(dice).to_have_count(1)
        label = dice.get_attribute("aria-label") or ""
        assert sorted(label.removeprefix("dice ").split("-")) == sorted(map(str, roll))
        assert dice.locator("rect").count() == 2
    else:
        expect(board.locator("g.dice")).to_have_count(0)
    # The start has no move to mark.
    page.keyboard.press("Home")
    expect(page.locator("#board svg .last-move")).to_have_count(0)
    page.keyboard.press("ArrowRight")
    expect(page.locator("#board svg .last-move").first).to_be_visible()
    shots = os.environ.get("REFEREE_SCREENSHOTS")
    if shots:
        page.evaluate(f"location.hash = '#game-1/turn-{turn}'")
        page.locator("#board").screenshot(path=str(Path(shots) / f"{game}-turn-{turn}.png"))


def scored(record: Record, turn: int) -> Turn:
    """A turn with what tdnet reports (a float score, the depth, the nodes)."""
    score = (-1) ** turn * (0.123456789 + turn / 1000)
    return record.turns[turn].model_copy(update={"score": score, "depth": 2, "nodes": 12345})


@pytest.mark.parametrize("viewport", [(1280, 900), (390, 844)], ids=["desktop", "phone"])
def test_the_move_list_fits_moves_with_scores(
    viewport: tuple[int, int], browser: Browser, tmp_path: Path, make_tournament: MakeTournament
) -> None:
    """Takhteh moves with their scores, as tdnet reports them, under long names: every line
    of the move list fits its width (wrapped if need be), the score included, on a desktop
    and on a phone."""
    bots = (("tdnet-time-0.5-depth-2", "random"), ("greedy-with-a-long-name", "random"))
    directory = make_tournament(tmp_path / "t", game="takhteh", games_per_pair=2, bots=bots)
    records = [
        record.model_copy(update={"turns": [scored(record, i) for i in range(len(record.turns))]})
        for record in records_of(directory / "games.jsonl")
    ]
    # In a folder of a long name: the viewer's `referee show PATH` line must not widen it.
    folder = tmp_path / ("afolderofalongnamethatnothingbreaks" * 3)
    folder.mkdir()
    games = folder / "scored.jsonl"
    write_jsonl(games, records)
    report = tmp_path / "report.html"
    report.write_text(build_report([games]), encoding="utf-8")
    width, height = viewport
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    try:
        open_report(page, report)
        turns = len(records[0].turns)
        page.evaluate(f"location.hash = '#game-1/turn-{turns // 2}'")
        expect(page.locator("#board svg")).to_be_visible()
        scores = page.locator("#moves .score")
        expect(scores).to_have_count(turns)
        first = records[0].turns[0]
        assert first.score is not None
        expect(scores.first).to_have_text(f"{{{first.score:+.4g}/2}}")
        fits = page.evaluate(
            """() => {
              const list = document.getElementById("moves");
              const right = list.getBoundingClientRect().left + list.clientWidth;
              const items = [...list.children];
              return {
                list: list.scrollWidth <= list.clientWidth,
                lines: items.filter((item) => item.scrollWidth > item.clientWidth).length,
                outside: [...list.querySelectorAll(".move, .score")].filter(
                  (cell) => cell.getBoundingClientRect().right > right + 0.5
                ).length,
                dialog: document.getElementById("viewer").scrollWidth
                  <= document.getElementById("viewer").clientWidth,
              };
            }"""
        )
        assert fits == {"list": True, "lines": 0, "outside": 0, "dialog": True}
        shots = os.environ.get("REFEREE_SCREENSHOTS")
        if shots:
            page.screenshot(path=str(Path(shots) / f"takhteh-scores-{width}.png"))
    finally:
        context.close()


ANALYSED = {
    "thax": (("greedy", "greedy"), ("thax-perfect", "thax-perfect")),
    "takhteh": (("greedy", "greedy"), ("random", "random")),
}


def analysed_tournament(
    game: str, tmp_path: Path, make_tournament: MakeTournament
) -> tuple[Path, list[StoredAnalysis]]:
    """A report of a small tournament with its analysis (`referee analyse DIR --out FILE`):
    THAX's in the folder's analysis.jsonl, Takhteh's given as --analysis."""
    directory = make_tournament(tmp_path / "t", game=game, games_per_pair=2, bots=ANALYSED[game])
    out = directory / ANALYSIS_FILE if game == "thax" else tmp_path / "analysis.jsonl"
    result = CliRunner().invoke(app, ["analyse", str(directory), "--out", str(out)])
    assert result.exit_code == 0, result.output
    report = tmp_path / "report.html"
    given = [] if game == "thax" else [out]
    report.write_text(build_report([directory], analyses=given), encoding="utf-8")
    return report, list(read_analysis_file(out))


NO_OVERFLOW = """() => ({
  page: document.documentElement.scrollWidth <= document.documentElement.clientWidth,
  viewer: document.getElementById("viewer").scrollWidth
    <= document.getElementById("viewer").clientWidth,
})"""


@pytest.mark.parametrize("game", ["thax", "takhteh"])
@pytest.mark.parametrize("viewport", [(1400, 1000), (390, 844)], ids=["desktop", "phone"])
def test_the_analysis_in_the_standings_the_list_and_the_viewer(
    game: str,
    viewport: tuple[int, int],
    browser: Browser,
    tmp_path: Path,
    make_tournament: MakeTournament,
) -> None:
    report, analyses = analysed_tournament(game, tmp_path, make_tournament)
    width, height = viewport
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        open_report(page, report)
        # The standings: each bot's error per decision, blunders and luck per game.
        standings = page.locator("section.ratings table").first
        expect(standings.locator("thead th").last).to_have_text("luck/game")
        for row in standings.locator("tbody tr").all():
            name = row.locator("td").nth(1).inner_text()
            seats = [a.seats[a.players.index(name)] for a in analyses if name in a.players]
            decisions = sum(seat.decisions for seat in seats)
            error = sum(seat.error_total for seat in seats) / decisions
            luck = sum(seat.luck for seat in seats) / len(seats)
            expect(row.locator("td").nth(-3)).to_have_text(f"{error:.4f}")
            expect(row.locator("td").nth(-1)).to_have_text(f"{luck:+.3f}")

        # The list: each seat's error per decision, blunders and net luck.
        heads = ["error 0", "blunders 0", "luck 0", "error 1", "blunders 1", "luck 1"]
        expect(page.locator("#game-list thead th").nth(-1)).to_have_text("luck 1")
        columns = page.locator("#game-list thead th").all_inner_texts()
        assert columns[-6:] == heads
        rows = page.locator("#game-list tbody tr")
        expect(rows).to_have_count(len(analyses))
        for row, stored in zip(rows.all(), analyses, strict=True):
            cells = row.locator("td").all_inner_texts()[-6:]
            net = stored.seats[0].luck - stored.seats[1].luck
            for seat, sign in ((0, 1), (1, -1)):
                rate, blunders, luck = cells[3 * seat : 3 * seat + 3]
                summary = stored.seats[seat]
                assert summary.error_rate is not None
                assert abs(float(rate) - summary.error_rate) < 1e-4
                assert blunders == str(summary.blunders)
                assert abs(float(luck) - sign * net) < 1e-3
        assert page.evaluate(NO_OVERFLOW)["page"], "the page is wider than the screen"
        page.screenshot(path=str(tmp_path / f"{game}-{width}-page.png"), full_page=True)

        # The viewer of the game with the most blunders.
        number, stored = max(
            enumerate(analyses, 1), key=lambda item: sum(s.blunders for s in item[1].seats)
        )
        blunders = [
            turn
            for turn in stored.turns
            if turn.choices > 1 and turn.error >= BLUNDER and turn.value is not None
        ]
        page.evaluate(f"location.hash = '#game-{number}'")
        graph = page.locator("#equity svg")
        expect(graph).to_be_visible()
        box = graph.bounding_box()
        assert box is not None and box["width"] > 150 and box["x"] + box["width"] <= width
        assert page.locator("#equity .equity-line").get_attribute("d")
        expect(page.locator("#equity .blunder-dot")).to_have_count(len(blunders))
        expect(page.locator("#moves li.blunder")).to_have_count(len(blunders))
        expect(page.locator("#moves li").first.locator(".figures")).to_have_text("luckerror")
        # Each line shows its roll's luck and its move's error.
        items = page.locator("#moves li")
        for turn in stored.turns[:6]:
            item = items.nth(turn.turn)
            assert turn.luck is not None
            assert abs(float(item.locator(".luck").inner_text()) - turn.luck) < 6e-4
            error = item.locator(".error").inner_text()
            if turn.choices > 1:
                assert abs(float(error.rstrip("?")) - turn.error) < 6e-4
            else:
                assert error == ""
        # A blunder's caption names the best move; a click on the graph shows a turn.
        if blunders:
            worst = blunders[0]
            page.evaluate(f"location.hash = '#game-{number}/turn-{worst.turn}'")
            expect(page.locator("#caption")).to_contain_text(f"a blunder; best: {worst.best}.")
        page.keyboard.press("Home")
        expect(page.locator("#counter")).to_have_text(f"0 / {len(stored.turns)}")
        graph.click(position={"x": box["width"] - 10, "y": box["height"] / 2})
        expect(page.locator("#counter")).not_to_have_text(f"0 / {len(stored.turns)}")
        # The line marking the turn shown (a vertical line, of no width to a locator) is
        # where the click was, give or take half a turn's step.
        here = page.locator("#equity .here")
        assert here.evaluate("(line) => getComputedStyle(line).visibility") == "visible"
        step = box["width"] / (len(stored.turns) - 1)
        assert abs(float(here.get_attribute("x1") or "nan") - (box["width"] - 10)) < step
        assert page.evaluate(NO_OVERFLOW) == {"page": True, "viewer": True}
        page.screenshot(path=str(tmp_path / f"{game}-{width}-viewer.png"))
        shots = os.environ.get("REFEREE_SCREENSHOTS")
        if shots:
            for name in ("page", "viewer"):
                shutil.copy(tmp_path / f"{game}-{width}-{name}.png", shots)
    finally:
        context.close()
    assert not errors, errors
