"""The reports' links to the rules document hold up once the folder of reports is
published (a CI artifact, read on another machine): without BALOOT_RULES_URL each
report writes a copy of the document beside itself (`rules.html`) and links to it
relatively; with it, every link is the published address. The console, read on the
machine that ran the pack, keeps the `file://` address of the shipped copy."""

from __future__ import annotations

import json
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from baloot.cli.main import main
from baloot.conformance.harness.rules_links import (
    RULES_COPY,
    RULES_URL_VARIABLE,
    shipped_document,
)

from ..conformance.conftest import engine_command, legal_case, write_pack

WRONG = {"player": 0, "actions": ["pass"]}  # `good` offers hokum and sun too


def run(tmp_path: Path, out: Path, capsys: pytest.CaptureFixture[str]) -> tuple[str, str]:
    pack = write_pack(tmp_path / "pack", [legal_case("wrong", expect=WRONG)])
    out.mkdir(parents=True, exist_ok=True)
    status = main(["conform", "-v", "--engine", engine_command("good"), "--cases", str(pack),
                   "--json", str(out / "r.json"), "--junit", str(out / "r.junit.xml")])
    assert status == 1
    return (out / "r.json").read_text(encoding="utf-8"), capsys.readouterr().out


def links_of(out: Path) -> tuple[list[str], list[str]]:
    """The case's `rules` in the JSON report, and the `rules:` lines of its JUnit failure."""
    (case,) = json.loads((out / "r.json").read_text())["cases"]
    failure = ET.parse(out / "r.junit.xml").getroot().find("testcase/failure")
    assert failure is not None and failure.text is not None
    junit = [line[len("rules: "):] for line in failure.text.splitlines()
             if line.startswith("rules: ")]
    return case["rules"], junit


def test_reports_link_to_a_copy_beside_them_that_travels_with_the_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv(RULES_URL_VARIABLE, raising=False)
    out = tmp_path / "reports"
    text, console = run(tmp_path, out, capsys)
    assert "file:" not in text and "file:" not in (out / "r.junit.xml").read_text()
    assert json.loads(text)["rules_document"] == RULES_COPY
    assert links_of(out) == (["rules.html#clause-BID-2"], ["rules.html#clause-BID-2"])
    # the folder, moved as an artifact is, still holds what its links name
    published = tmp_path / "elsewhere" / "artifact"
    shutil.move(str(out), published)
    document, anchor = links_of(published)[0][0].split("#")
    assert f'id="{anchor}"' in (published / document).read_text(encoding="utf-8")
    assert (published / document).read_bytes() == shipped_document().read_bytes()
    # the console still links to the shipped document, which opens where the run was
    assert f"{shipped_document().as_uri()}#clause-BID-2" in console


def test_a_copy_already_there_is_kept_and_a_stale_one_replaced(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv(RULES_URL_VARIABLE, raising=False)
    out = tmp_path / "reports"
    out.mkdir()
    (out / RULES_COPY).write_text("an old copy")
    run(tmp_path, out, capsys)
    copy = out / RULES_COPY
    assert copy.read_bytes() == shipped_document().read_bytes()
    written = copy.stat().st_mtime_ns
    run(tmp_path, out, capsys)
    assert copy.stat().st_mtime_ns == written  # the same copy is not written again


def test_with_a_published_address_every_link_is_that_address(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv(RULES_URL_VARIABLE, "https://example.org/baloot/rules.html#old")
    out = tmp_path / "reports"
    text, console = run(tmp_path, out, capsys)
    address = "https://example.org/baloot/rules.html"
    assert json.loads(text)["rules_document"] == address
    assert links_of(out) == ([f"{address}#clause-BID-2"], [f"{address}#clause-BID-2"])
    assert not (out / RULES_COPY).exists()
    assert f"{address}#clause-BID-2" in console
