"""The results page of three engines in headless Chromium (the rules document's browser
client, tests/render/conftest.py): it loads with no console error and runs no script;
each engine's badge is drawn; the matrix's cells and counts are the reports'; a
cell's link brings its details, holding the diff, into view.

Skipped only when Chromium is missing and CI is not set (the `chromium` fixture).
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from baloot.cli.report_command import main as report_main

from ..render.conftest import browser, chromium  # noqa: F401  (fixtures: headless Chromium)
from .conftest import MARKUP_NAME, EngineRunFiles

ORDER = ("reference", "hostile", "crashing")


def test_results_page_in_chromium(
    engine_runs: dict[str, EngineRunFiles], browser: Any, tmp_path: Path  # noqa: F811
) -> None:
    page = tmp_path / "results.html"
    assert report_main([str(engine_runs[n].json_path) for n in ORDER] + ["--out", str(page)]) == 0
    reports = [engine_runs[n].report for n in ORDER]
    browser.open(page.as_uri())
    assert browser.evaluate("document.readyState") == "complete"
    assert browser.evaluate("document.scripts.length") == 0

    # every engine's badge: drawn, of a badge's size, saying `<engine> <version> <profile>: p/c`
    badges = json.loads(browser.evaluate("""JSON.stringify([...document.querySelectorAll(
        "article.engine")].map(card => {
            const svg = card.querySelector(".badge-holder svg");
            const box = svg ? svg.getBoundingClientRect() : {width: 0, height: 0};
            return {engine: card.dataset.engine, width: box.width, height: box.height,
                    label: svg ? svg.getAttribute("aria-label") : null,
                    file: card.querySelector("a.badge-file").getAttribute("href")};
        }))"""))
    assert len(badges) == len(reports)
    for badge, report in zip(badges, reports, strict=True):
        passed = report["summary"]["passed"] + report["summary"]["xpassed"]
        name, version = report["engine"]["name"], report["engine"]["version"]
        counted = report["checked"] + report["summary"]["errored"]
        assert badge["label"] == f"{name} {version} literal: {passed}/{counted}"
        assert badge["width"] > 100 and badge["height"] == 20, badge
        assert (tmp_path / badge["file"]).is_file()
    assert MARKUP_NAME in browser.evaluate("document.body.innerText")
    browser.screenshot(tmp_path / "top.png")

    # the matrix: each engine's cells are its report's statuses, counted as the report counts
    cells = json.loads(browser.evaluate("""JSON.stringify([...document.querySelectorAll(
        "td.cell")].map(td => [Number(td.dataset.engine), td.parentElement.dataset.case,
                               td.dataset.status]))"""))
    for engine, report in enumerate(reports):
        mine = {case: status for e, case, status in cells if e == engine}
        assert mine == {c["id"]: c["status"] for c in report["cases"]}
        counted = Counter(mine.values())
        assert {s: counted.get(s, 0) for s in report["summary"]} == report["summary"]
    heads = json.loads(browser.evaluate("""JSON.stringify([...document.querySelectorAll(
        "#matrix-table thead th[data-engine]")].map(th => th.innerText))"""))
    for head, report in zip(heads, reports, strict=True):
        passed = report["summary"]["passed"] + report["summary"]["xpassed"]
        assert head.endswith(f"{passed}/{report['checked'] + report['summary']['errored']}")

    # a failed cell's link brings its details, with the diff, to the top of the window
    failed = next(i for i, c in enumerate(reports[1]["cases"]) if c["status"] == "failed")
    case = reports[1]["cases"][failed]
    browser.evaluate("window.scrollTo(0, 0)")
    moved = json.loads(browser.evaluate(f"""new Promise(done => {{
        const cell = document.querySelector(
            'tr[data-case={json.dumps(case["id"])}] td[data-engine="1"]');
        cell.querySelector("a.status").click();
        requestAnimationFrame(() => requestAnimationFrame(() => {{
            const target = document.getElementById("e1-c{failed}");
            done(JSON.stringify({{hash: location.hash,
                                 top: target.getBoundingClientRect().top,
                                 diff: target.querySelector("pre.diff").innerText,
                                 rule: cell.querySelector("a.rule").getAttribute("href")}}));
        }}));
    }})"""))
    assert moved["hash"] == f"#e1-c{failed}"
    assert abs(moved["top"]) < 2, moved
    assert moved["diff"].strip() == case["diff"].strip()
    # the link reaches the copy of the rules beside the hostile engine's report
    rule_path, _, fragment = moved["rule"].partition("#")
    assert (page.parent / rule_path).resolve() == (
        engine_runs["hostile"].json_path.parent / case["rules"][0].partition("#")[0]).resolve()
    assert fragment == case["rules"][0].partition("#")[2]
    browser.screenshot(tmp_path / "failure.png")

    assert browser.console_errors() == []
    for png in tmp_path.glob("*.png"):
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
