"""The results page, more: errors count against an engine in its badge, an engine that
failed its handshake gets a red badge, the "only rows that differ" filter (plain CSS), and
the page at a phone's width (390 px) in headless Chromium: no sideways scroll of the page,
the matrix scrolling inside its own box."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from lxml import html

from baloot.cli.main import main as cli_main
from baloot.cli.report_command import main as report_main
from baloot.conformance.results_page.badge import GREY, RED, badge_colour

from ..render.conftest import Browser, chromium  # noqa: F401  (fixture: the Chromium binary)
from .conftest import SELECTION, EngineRunFiles

ORDER = ("reference", "hostile", "crashing")
PHONE = 390


@pytest.fixture(scope="module")
def no_handshake(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The report of an engine that exits at once: it never says hello."""
    path = tmp_path_factory.mktemp("silent") / "silent.json"
    only = [word for glob in SELECTION for word in ("--only", glob)]
    assert cli_main(["conform", "--engine", "false", *only, "--json", str(path)]) == 3
    return path


@pytest.fixture(scope="module")
def page(engine_runs: dict[str, EngineRunFiles], no_handshake: Path,
         tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("page") / "results.html"
    sources = [str(engine_runs[n].json_path) for n in ORDER] + [str(no_handshake)]
    assert report_main([*sources, "--out", str(out)]) == 0
    return out


def badges(page: Path) -> list[tuple[str, str]]:
    """(text, colour of the right half) of each badge file, in the engines' order."""
    tree = html.parse(str(page))
    found = []
    for link in tree.iterfind(".//a[@class='badge-file']"):
        svg = (page.parent / link.get("href")).read_text(encoding="utf-8")
        title = html.fromstring(svg).findtext(".//title")
        colour = svg.split('<rect x="', 1)[1].split('fill="', 1)[1].split('"', 1)[0]
        found.append((title, colour))
    return found


def test_errors_count_against_the_engine_and_no_handshake_is_red(
        page: Path, engine_runs: dict[str, EngineRunFiles]) -> None:
    shown = badges(page)
    crashing = engine_runs["crashing"].report
    errored = crashing["summary"]["errored"]
    passed = crashing["summary"]["passed"] + crashing["summary"]["xpassed"]
    assert errored > 0
    assert shown[2][0].endswith(f": {passed}/{crashing['checked'] + errored}"), shown[2]
    assert shown[3] == ("false ? ?: handshake failed", RED), shown[3]
    assert badge_colour(0, 0, handshake_failed=True) == RED and badge_colour(0, 0) == GREY
    heads = [th.text_content() for th in
             html.parse(str(page)).iterfind(".//table[@id='matrix-table']/thead//th[@data-engine]")]
    assert heads[3].endswith("handshake failed")


def test_the_rows_that_differ_are_marked(page: Path) -> None:
    tree = html.parse(str(page))
    rows = tree.findall(".//table[@id='matrix-table']/tbody/tr[@data-case]")
    differing = 0
    for row in rows:
        statuses = {td.get("data-status") for td in row.iterfind("td[@data-engine]")}
        same = "same" in (row.get("class") or "").split()
        assert same == (len(statuses) == 1), (row.get("data-case"), statuses)
        differing += not same
    assert differing > 0  # the engine with no handshake differs everywhere
    assert tree.findtext(".//span[@id='differ-count']") == str(differing)
    checkbox = tree.find(".//input[@id='only-differ']")
    assert checkbox is not None and checkbox.getnext().get("for") == "only-differ"


def test_the_filter_alone_on_agreeing_engines(
        engine_runs: dict[str, EngineRunFiles], tmp_path: Path) -> None:
    """The same report twice: every row the same, every family hidden by the filter."""
    source = str(engine_runs["reference"].json_path)
    assert report_main([source, source, "--out", str(tmp_path / "twice.html")]) == 0
    tree = html.parse(str(tmp_path / "twice.html"))
    assert tree.findtext(".//span[@id='differ-count']") == "0"
    bodies = tree.findall(".//table[@id='matrix-table']/tbody")
    assert bodies and all(body.get("class") == "same" for body in bodies)


@pytest.fixture
def phone(chromium: str) -> Iterator[Browser]:  # noqa: F811
    with Browser(chromium, width=PHONE, height=844) as browser:
        yield browser


def test_on_a_phone_the_page_does_not_scroll_sideways(
        engine_runs: dict[str, EngineRunFiles], phone: Any, tmp_path: Path) -> None:
    page = tmp_path / "results.html"
    assert report_main([str(engine_runs[n].json_path) for n in ORDER] + ["--out", str(page)]) == 0
    phone.open("about:blank")
    phone.send("Emulation.setDeviceMetricsOverride",
               {"width": PHONE, "height": 844, "deviceScaleFactor": 1, "mobile": True})
    phone.send("Page.navigate", {"url": page.as_uri()})
    phone.wait_for("Page.loadEventFired")
    seen = json.loads(phone.evaluate("""JSON.stringify((() => {
        const box = document.querySelector(".table-box");
        const cells = [...document.querySelectorAll("#matrix-table tr[data-case] td.cell")];
        return {inner: window.innerWidth, page: document.documentElement.scrollWidth,
                body: document.body.scrollWidth, box: box.clientWidth,
                table: box.scrollWidth, right: box.getBoundingClientRect().right,
                cells: Math.max(...cells.map(c => c.getBoundingClientRect().right))}; })())"""))
    assert seen["inner"] == PHONE, seen
    assert seen["page"] <= PHONE and seen["body"] <= PHONE, seen
    assert seen["box"] <= PHONE, seen  # a wider matrix scrolls in its box
    # with three engines every status is in view: the case ids break after their dots
    assert seen["cells"] <= seen["right"], seen
    phone.screenshot(tmp_path / "phone.png")

    # the filter: ticked, only the rows that differ are shown, and every one of them
    counts = json.loads(phone.evaluate("""JSON.stringify((() => {
        const shown = () => [...document.querySelectorAll("#matrix-table tr[data-case]")]
            .filter(tr => tr.getClientRects().length > 0).length;
        const before = shown();
        document.querySelector("label[for=only-differ]").click();
        return {before, after: shown(), ticked: document.getElementById("only-differ").checked,
                differ: Number(document.getElementById("differ-count").textContent)}; })())"""))
    assert counts["ticked"] is True and counts["after"] == counts["differ"] < counts["before"]
    assert phone.console_errors() == []
