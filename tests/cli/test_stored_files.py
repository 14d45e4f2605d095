"""The check-or-write helpers of the commands that keep files checked in
(cli/stored_files.py) and the refusal to write inside an installed package
(cli/destinations.py `refuse`): each path, stale, up to date, wrote and refused, and
every writing command refusing before any work."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console

from baloot.cli import destinations
from baloot.cli.main import main
from baloot.cli.stored_files import report_differences, report_stale, write_text

ROOT = Path(__file__).resolve().parents[2]


def recording() -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    return Console(file=out, width=60, color_system=None), out


def test_stale_lines_are_reported_with_the_command_that_writes_them_again() -> None:
    console, out = recording()
    assert report_stale(console, iter(["a.json:3: differs", "b.md: missing"]),
                        "the stored findings are stale", "baloot explore", "never shown") == 1
    assert out.getvalue().splitlines() == [
        "stale a.json:3: differs", "stale b.md: missing",
        "the stored findings are stale: run `baloot explore`"]


def test_nothing_stale_is_up_to_date() -> None:
    console, out = recording()
    assert report_stale(console, [], "x is stale", "baloot verify --write",
                        "3 file(s) as a fresh run writes them") == 0
    assert out.getvalue() == "3 file(s) as a fresh run writes them\n"
    console, out = recording()
    assert report_stale(console, [], "x is stale", "baloot verify --write") == 0
    assert out.getvalue() == ""


def test_differences_go_to_stderr_and_up_to_date_to_stdout(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert report_differences(["docs/rules.md:12: differs"],
                              "baloot spec render --check: out of date; run `baloot spec render`",
                              "up to date") == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == ("docs/rules.md:12: differs\n"
                            "baloot spec render --check: out of date; run `baloot spec render`\n")
    assert report_differences(iter([]), "never shown", "the rules document is up to date") == 0
    captured = capsys.readouterr()
    assert (captured.out, captured.err) == ("the rules document is up to date\n", "")


def test_write_makes_the_folder_and_says_wrote(tmp_path: Path) -> None:
    # a path longer than the console and with brackets, said as it is, on one line
    path = tmp_path / ("[bold]" + "d" * 80) / "sub" / "file.json"
    console, out = recording()
    write_text(console, path, '{"a": 1}\n')
    assert path.read_text(encoding="utf-8") == '{"a": 1}\n'
    assert out.getvalue() == f"wrote {path}\n"
    write_text(console, path, "again\n")  # an existing file is replaced
    assert path.read_text(encoding="utf-8") == "again\n"


def installed_layout(tmp_path: Path) -> Path:
    rooms = tmp_path / "site-packages" / "baloot"
    (rooms / "docs").mkdir(parents=True)
    return rooms


def test_refuse_says_why_on_stderr_only_inside_an_install(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert not destinations.refuse("gen", [None], "pass --out DIR")  # a checkout
    rooms = installed_layout(tmp_path)
    assert not destinations.refuse("gen", [tmp_path / "out"], "pass --out DIR", rooms)
    assert capsys.readouterr().err == ""
    assert destinations.refuse("spec render", [rooms / "docs"], "pass --out DIR", rooms)
    assert capsys.readouterr().err == (
        f"baloot spec render: will not write {rooms / 'docs'} inside the installed package "
        f"({rooms}), which stays as installed; pass --out DIR\n")


WRITERS = [
    (["gen"], "gen"),
    (["spec", "render"], "spec render"),
    (["verify", "--write"], "verify --write"),
    (["explore"], "explore"),
    (["explore", "--impact"], "explore --impact"),
    (["conform", "examples"], "conform examples"),
    (["conform", "golden"], "conform golden"),
    (["conform", "pins", "--fix"], "conform pins --fix"),
    (["conform", "needs", "--fix"], "conform needs --fix"),
    (["conform", "derive"], "conform derive"),
    (["conform", "refusals", "--synthesise"], "conform refusals --synthesise"),
]


@pytest.mark.parametrize(("argv", "command"), WRITERS)
def test_every_writing_command_refuses_its_default_destination_in_an_install(
        argv: list[str], command: str, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """With the checkout taken for an installed package, each command that writes the
    project's files stops with exit status 2 and the refusal, having printed nothing else
    (so having done no work)."""
    monkeypatch.setattr(destinations, "installed_package_folder", lambda rooms: ROOT)
    assert main(argv) == destinations.REFUSED
    captured = capsys.readouterr()
    assert captured.out == ""
    last = captured.err.strip().splitlines()[-1]
    assert last.startswith(f"baloot {command}: will not write ")
    assert f"inside the installed package ({ROOT}), which stays as installed; " in last


@pytest.mark.parametrize(("argv", "status"), [
    (["conform", "examples", "--check", "--out", "{tmp}/examples.json"], 1),  # missing: stale
    (["conform", "derive", "--check", "--cases", "{tmp}"], 2),  # an empty pack does not lint
    (["explore", "--no-write", "--spec", "{tmp}"], 2),  # no spec files
])
def test_a_check_is_not_refused(argv: list[str], status: int, tmp_path: Path,
                                monkeypatch: pytest.MonkeyPatch,
                                capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(destinations, "installed_package_folder", lambda rooms: ROOT)
    assert main([a.replace("{tmp}", str(tmp_path)) for a in argv]) == status
    assert "will not write" not in capsys.readouterr().err
    assert not (tmp_path / "examples.json").exists()
