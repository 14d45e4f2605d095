"""`baloot report`: three engines' JSON reports (conftest.py) on one HTML page, with
a badge per engine; read back with lxml and checked against the reports."""

from __future__ import annotations

import argparse
import copy
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from lxml import html

from baloot.cli.main import build_parser
from baloot.cli.report_command import DEFAULT_OUT, register, run_report
from baloot.cli.report_command import main as report_main
from baloot.conformance.results_page.badge import GREEN, GREY, RED, YELLOW, badge_colour
from baloot.conformance.results_page.page import safe_href

from .conftest import MARKUP_NAME, EngineRunFiles

ORDER = ("reference", "hostile", "crashing")
PASSED = ("passed", "xpassed")
CHECKED = ("passed", "failed", "xfailed", "xpassed")
COUNTED = (*CHECKED, "errored")  # a count's denominator: errors count against the engine


@pytest.fixture(scope="module")
def page(engine_runs: dict[str, EngineRunFiles], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The page of the three reports, written by `baloot report`."""
    out = tmp_path_factory.mktemp("page") / "site" / "results.html"
    assert report_main([str(engine_runs[n].json_path) for n in ORDER] + ["--out", str(out)]) == 0
    return out


def reaches(written_in: Path, link: str) -> str:
    """Where a link written in a file leads: the file it names, resolved from the folder
    of the file it is written in, and its fragment (a URL as it is)."""
    if "://" in link:
        return link
    path, _, fragment = link.partition("#")
    return f"{(written_in.parent / path).resolve()}#{fragment}"


def test_a_report_folders_copy_of_the_rules_is_what_the_page_links_to(
    page: Path, engine_runs: dict[str, EngineRunFiles]
) -> None:
    """A report written without BALOOT_RULES_URL links to the rules document copied
    beside it; the page, in another folder, links to that same copy."""
    tree = html.parse(str(page))
    links = [a.get("href") for a in tree.iterfind(".//a[@class='rule']")]
    assert links and all(not link.startswith("file:") for link in links)
    for link in links:
        target = reaches(page, link)
        assert "://" in target or Path(target.partition("#")[0]).is_file(), link


def reports(engine_runs: dict[str, EngineRunFiles]) -> list[dict[str, Any]]:
    return [engine_runs[n].report for n in ORDER]


def test_matrix_cells_are_the_reports_statuses(
    page: Path, engine_runs: dict[str, EngineRunFiles]
) -> None:
    tree = html.parse(str(page))
    for engine, report in enumerate(reports(engine_runs)):
        cells = {
            cell.getparent().get("data-case"): cell.get("data-status")
            for cell in tree.iterfind(f".//td[@data-engine='{engine}']")
        }
        assert cells == {c["id"]: c["status"] for c in report["cases"]}
        counted = Counter(cells.values())
        assert {s: counted.get(s, 0) for s in report["summary"]} == report["summary"]
        card = tree.find(f".//article[@data-engine='{engine}']")
        assert card is not None
        passed = sum(report["summary"][s] for s in PASSED)
        assert (int(card.get("data-passed")), int(card.get("data-checked"))) == (
            passed, report["checked"])


def test_rows_are_grouped_by_clause_family(
    page: Path, engine_runs: dict[str, EngineRunFiles]
) -> None:
    tree = html.parse(str(page))
    first_clause = {c["id"]: c["clauses"][0] for c in engine_runs["reference"].report["cases"]}
    families = tree.findall(".//table[@id='matrix-table']/tbody")
    in_order = list(dict.fromkeys(clause.split(".")[0] for clause in first_clause.values()))
    assert [f.get("data-family") for f in families] == in_order
    assert {"BID", "PLAY", "GAME", "END"} <= set(in_order)
    for body in families:
        rows = body.findall("tr[@data-case]")
        assert rows
        for row in rows:
            assert first_clause[row.get("data-case")].split(".")[0] == body.get("data-family")
        # the family's count per engine: passed/checked among its rows
        header = body.find("tr[@class='family']")
        for engine in range(len(ORDER)):
            statuses = [row.find(f"td[@data-engine='{engine}']").get("data-status")
                        for row in rows]
            expected = (f"{sum(s in PASSED for s in statuses)}/"
                        f"{sum(s in COUNTED for s in statuses)}")
            assert header.find(f"th[@data-engine='{engine}']").text_content() == expected


def test_a_cell_links_to_its_details_and_its_clause(
    page: Path, engine_runs: dict[str, EngineRunFiles]
) -> None:
    tree = html.parse(str(page))
    for engine, report in enumerate(reports(engine_runs)):
        for index, case in enumerate(report["cases"]):
            cell = tree.find(f".//tr[@data-case='{case['id']}']/td[@data-engine='{engine}']")
            rule = cell.find("a[@class='rule']")
            assert rule is not None
            assert reaches(page, rule.get("href")) == reaches(
                engine_runs[ORDER[engine]].json_path, case["rules"][0])
            status = cell.find("a[@class='status']")
            if case["status"] == "passed":
                assert status is None
                continue
            assert status is not None and status.get("href") == f"#e{engine}-c{index}"
            detail = tree.find(f".//section[@id='e{engine}-c{index}']")
            assert detail is not None and detail.get("data-case") == case["id"]
            if case["diff"]:
                assert detail.find("pre[@class='diff']").text_content() == case["diff"].rstrip(
                    "\n")
            if case["message"]:
                assert detail.find("pre[@class='message']").text_content() == case["message"]
    failed = [c for c in engine_runs["hostile"].report["cases"] if c["status"] == "failed"]
    assert failed and all(c["diff"] for c in failed)


def test_engines_show_their_declarations(
    page: Path, engine_runs: dict[str, EngineRunFiles]
) -> None:
    tree = html.parse(str(page))
    hostile = tree.find(".//article[@data-engine='1']").text_content()
    assert MARKUP_NAME in hostile  # shown as text
    lacking = engine_runs["hostile"].report["declared"]["lacking_capabilities"]
    assert "raises" in lacking and f"all but {', '.join(lacking)}" in hostile
    assert "no other reading" in hostile
    reference = tree.find(".//article[@data-engine='0']").text_content()
    assert "capabilitiesall" in reference.replace(" ", "")
    assert "the literal profile's own" in reference
    assert "rounding: adjusted_to_total, bidder_takes_rest" in reference


def test_engine_text_is_escaped(page: Path, engine_runs: dict[str, EngineRunFiles]) -> None:
    text = page.read_text(encoding="utf-8")
    assert "<script" not in text and "<b>" not in text
    assert "&lt;script&gt;alert(&#x27;name&#x27;)&lt;/script&gt; &amp; &quot;co&quot;" in text
    for badge in page.parent.glob("*.svg"):
        assert "<script" not in badge.read_text(encoding="utf-8")


def test_badges_are_written_beside_the_page_and_inlined(
    page: Path, engine_runs: dict[str, EngineRunFiles]
) -> None:
    text = page.read_text(encoding="utf-8")
    tree = html.parse(str(page))
    links = [a.get("href") for a in tree.iterfind(".//a[@class='badge-file']")]
    assert links == ["results-baloot-reference-literal.svg",
                     "results-script-alert-name-script-co-literal.svg",
                     "results-crashes-on-deal-literal.svg"]
    for link, report in zip(links, reports(engine_runs), strict=True):
        svg = (page.parent / link).read_text(encoding="utf-8").strip()
        assert svg in text  # the same badge, inlined
        passed = sum(report["summary"][s] for s in PASSED)
        label = html.fromstring(svg).text_content()
        name, version = report["engine"]["name"], report["engine"]["version"]
        counted = report["checked"] + report["summary"]["errored"]
        assert label.endswith(f"{name} {version} literal{passed}/{counted}")


def test_unsafe_links_are_not_links(
    engine_runs: dict[str, EngineRunFiles], tmp_path: Path
) -> None:
    report = copy.deepcopy(engine_runs["reference"].report)
    report["cases"][0]["rules"][0] = "javascript:alert(1)"
    report["cases"][1]["rules"][0] = "java\tscript:alert(1)"
    source = tmp_path / "r.json"
    source.write_text(json.dumps(report))
    assert report_main([str(source), "--out", str(tmp_path / "p.html")]) == 0
    text = (tmp_path / "p.html").read_text()
    assert "javascript:" not in text and "script:alert" not in text
    assert safe_href("file:///x/rules.html#clause-BID-2") is not None
    assert safe_href("https://example.org/rules.html#c") is not None
    assert safe_href("docs/rules.html#clause-BID-2") is not None
    assert safe_href("data:text/html,hi") is None


def test_unusable_reports_exit_2(
    engine_runs: dict[str, EngineRunFiles], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    older = copy.deepcopy(engine_runs["reference"].report)
    older["format"] = 0
    broken = copy.deepcopy(engine_runs["reference"].report)
    broken["cases"][0]["status"] = "fine"
    files = {
        "older.json": (json.dumps(older), "report format 0"),
        "broken.json": (json.dumps(broken), "does not match the report schema"),
        "text.json": ("not json", "not a JSON file"),
        "list.json": ("[]", "not an object"),
    }
    for name, (content, needle) in files.items():
        (tmp_path / name).write_text(content)
        assert report_main([str(tmp_path / name), "--out", str(tmp_path / "p.html")]) == 2
        assert needle in capsys.readouterr().err, name
    assert report_main([str(tmp_path / "missing.json")]) == 2
    assert "cannot read it" in capsys.readouterr().err
    assert not (tmp_path / "p.html").exists()


def test_the_same_engine_twice_gets_two_badges(
    engine_runs: dict[str, EngineRunFiles], tmp_path: Path
) -> None:
    source = str(engine_runs["reference"].json_path)
    assert report_main([source, source, "--out", str(tmp_path / "twice.html")]) == 0
    assert sorted(p.name for p in tmp_path.glob("*.svg")) == [
        "twice-baloot-reference-literal-2.svg", "twice-baloot-reference-literal.svg"]


def test_badge_colours() -> None:
    assert badge_colour(10, 10) == GREEN
    assert badge_colour(9, 10) == YELLOW
    assert badge_colour(8, 10) == RED
    assert badge_colour(0, 0) == GREY


def test_register_adds_the_report_command() -> None:
    parser = argparse.ArgumentParser(prog="baloot")
    register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["report", "a.json", "b.json"])
    assert args.run is run_report
    assert args.reports == [Path("a.json"), Path("b.json")] and args.out == DEFAULT_OUT
    assert str(DEFAULT_OUT) == "baloot-report.html"


def test_the_baloot_command_has_the_report_subcommand() -> None:
    """`baloot report` is reachable from the one entry point, not only from its module."""
    args = build_parser().parse_args(["report", "a.json", "--out", "site/index.html"])
    assert args.run is run_report and args.out == Path("site/index.html")
