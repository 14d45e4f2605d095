"""`baloot conform --summary-md FILE`: the markdown step summary, read back with a markdown
parser (markdown-it, with GitHub's tables and strike-through) as a job's summary page
would render it. The engine's texts are hostile (`fake_engines/hostile_text.py`): pipes,
backticks, HTML, emphasis, links, newlines and control bytes, none of which may break
a table or turn into markup."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from markdown_it import MarkdownIt
from markdown_it.token import Token

from baloot.cli.main import main
from baloot.conformance.harness import exit_status

from ..conformance.conftest import engine_command, legal_case, write_pack

NAME = "pipe|name `tick` <script>alert(1)</script> *bold* [link](x) $m$ ~~s~~ #\nline 2\x07"
VERSION = "1|`2`"
REFUSAL = "no | sun `here` <b>bold</b>\x1b[31m\nsecond line"
# What the summary must show of them: the text as it is, on one line, control
# characters written as escapes.
NAME_SHOWN = "pipe|name `tick` <script>alert(1)</script> *bold* [link](x) $m$ ~~s~~ #\\nline 2\\x07"
REFUSED_SHOWN = "scripted action actions[0] 'sun' was refused: no | sun `here` <b>bold</b>\\x1b[31m"
EARLIER = "## An earlier step\n\nIts own summary | with a pipe.\n"
STATUSES = ["passed", "failed", "errored", "skipped", "unsupported", "xfailed", "xpassed"]


def parser() -> MarkdownIt:
    return MarkdownIt("commonmark").enable(["table", "strikethrough"])


def plain(token: Token) -> str:
    """An inline token's text, which must be plain text: no code, emphasis, link or HTML."""
    children = token.children or []
    assert {c.type for c in children} <= {"text"}, [(c.type, c.content) for c in children]
    return "".join(c.content for c in children)


def tables(text: str) -> list[list[list[str]]]:
    """Every table of `text`: its rows (the header first), each a list of cell texts."""
    found: list[list[list[str]]] = []
    row: list[str] | None = None
    for token in parser().parse(text):
        if token.type == "table_open":
            found.append([])
        elif token.type == "tr_open":
            row = []
        elif token.type == "inline" and row is not None:
            row.append(plain(token))
        elif token.type == "tr_close" and row is not None:
            found[-1].append(row)
            row = None
    return found


def headings(text: str) -> list[str]:
    tokens = parser().parse(text)
    return [plain(tokens[i + 1]) for i, t in enumerate(tokens) if t.type == "heading_open"]


@pytest.fixture
def hostile_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                capsys: pytest.CaptureFixture[str]) -> Any:
    monkeypatch.setenv("FAKE_NAME", NAME)
    monkeypatch.setenv("FAKE_VERSION", VERSION)
    monkeypatch.setenv("FAKE_REFUSAL", REFUSAL)
    pack = write_pack(tmp_path / "p", [
        legal_case("refused", actions=["0: sun"]),
        legal_case("wrong.a", expect={"player": 0, "actions": ["pass"]}),
        legal_case("right"),
        legal_case("fixed"),
        legal_case("skipme"),
    ])
    xfail = tmp_path / "x.txt"
    xfail.write_text("fixed  fixed since\n")

    def run(summary: Path) -> int:
        status = main(["conform", "--engine", engine_command("hostile_text"), "--cases",
                       str(pack), "--xfail", str(xfail), "--skip", "skipme",
                       "--summary-md", str(summary)])
        capsys.readouterr()
        return status

    return run, xfail


def test_the_summary_says_who_ran_what_and_what_failed(tmp_path: Path, hostile_run: Any) -> None:
    run, xfail = hostile_run
    summary = tmp_path / "step-summary.md"
    summary.write_text(EARLIER)
    assert run(summary) == exit_status.FAILURES
    text = summary.read_text()
    assert text.startswith(EARLIER + "\n")  # appended after the earlier step's summary
    ours = text[len(EARLIER):]
    assert headings(ours)[0] == f"Baloot conformance: FAILED, {NAME_SHOWN} {VERSION}"
    about, counts, failures, xpassed, stale, families = tables(ours)
    assert families == [["family", *STATUSES, "cases"], ["BID", "1", "2", "0", "1", "0", "0",
                                                         "1", "5"]]
    assert all(len(row) == 2 for row in about)
    facts = dict((row[0], row[1]) for row in about[1:])
    assert facts["engine"] == NAME_SHOWN and facts["version"] == VERSION
    assert facts["profile"] == "literal" and facts["pack"] == "test-pack 9.8.7"
    assert facts["strict"] == "no" and facts["exit status"] == "1: a case failed or errored"
    assert counts == [[*STATUSES, "checked"], ["1", "2", "0", "1", "0", "0", "1", "4"]]
    assert failures == [["case", "clauses", "status", "reason"],
                        ["refused", "BID.2", "failed", REFUSED_SHOWN],
                        ["wrong.a", "BID.2", "failed", "legal actions differ: unexpected "
                         "hokum, sun"]]
    assert xpassed[1:] == [["fixed", "BID.2", "fixed since"]]
    assert stale[1:] == [[f"{xfail}:1", "fixed", "fixed since", "fixed"]]
    html = parser().render(ours)
    assert "<script>" not in html and "<b>" not in html and "<code>" not in html
    assert not any(c < " " for line in ours.splitlines() for c in line)


def test_summaries_of_several_runs_are_appended(tmp_path: Path, hostile_run: Any) -> None:
    run, _ = hostile_run
    summary = tmp_path / "new" / "summary.md"
    summary.parent.mkdir()
    run(summary)  # a file that does not exist yet is created
    first = summary.read_text()
    run(summary)
    text = summary.read_text()
    assert text.startswith(first + "\n") and text.count("### Baloot conformance") == 2
    assert len(tables(text)) == 2 * len(tables(first))


def test_a_summary_that_cannot_be_written_is_an_error(tmp_path: Path, hostile_run: Any) -> None:
    run, _ = hostile_run
    assert run(tmp_path) == exit_status.USAGE  # a folder


def test_the_console_prints_the_engines_hello_as_plain_text(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """An escape sequence or a line break in the hello's name or version never reaches
    the terminal: the console writes it as escapes, on one line."""
    monkeypatch.setenv("FAKE_NAME", "red\x1b[31m engine\nsecond line")
    monkeypatch.setenv("FAKE_VERSION", "1\x07")
    monkeypatch.setenv("FAKE_REFUSAL", "no")
    pack = write_pack(tmp_path / "p", [legal_case("right")])
    assert main(["conform", "--engine", engine_command("hostile_text"), "--cases",
                 str(pack)]) == exit_status.OK
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x07" not in out
    said = next(line for line in out.splitlines() if line.startswith("engine said"))
    assert said.startswith("engine said red\\x1b[31m engine 1\\x07, profile")
