"""Results kept between runs (`harness/kept_results.py`): the lint of a file and what
`conform needs` finds for a case are read back only under the key they were found with,
and read back they are what a fresh run finds."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from baloot.conformance.harness import kept_results, lint
from baloot.conformance.harness.lint import lint_pack
from baloot.conformance.harness.pack import Case, Problem
from baloot.conformance.harness.variants import Register, load_register
from baloot.conformance.pack_tools import needs_cache
from baloot.conformance.pack_tools.case_needs import CaseNeeds, case_needs

from .conftest import legal_case, write_pack

HARNESS = Path(lint.__file__).parent
PACK_TOOLS = Path(needs_cache.__file__).parent


def test_the_import_closure_follows_the_package_imports_and_nothing_else() -> None:
    runner = kept_results.import_closure([HARNESS / "runner.py"])
    names = {p.relative_to(kept_results.PACKAGE_ROOT).as_posix() for p in runner}
    # runner.py imports pack.py, which imports protocol/schemas.py
    assert {"conformance/harness/pack.py", "conformance/protocol/schemas.py",
            "conformance/protocol/normal_form.py"} <= names
    # the linter is no part of a run: a change to it keeps the pins check's key
    assert "conformance/harness/lint.py" not in names
    assert "conformance/harness/protocol_notation.py" not in names
    pins_check = {p.relative_to(kept_results.PACKAGE_ROOT).as_posix()
                  for p in kept_results.import_closure([PACK_TOOLS / "pins.py",
                                                        PACK_TOOLS / "pins_cache.py"])}
    assert "conformance/pack_tools/pins_trace.py" in pins_check
    assert "conformance/harness/lint.py" not in pins_check
    linter = {p.relative_to(kept_results.PACKAGE_ROOT).as_posix()
              for p in kept_results.import_closure([HARNESS / "lint.py"])}
    assert {"conformance/harness/pack.py", "conformance/harness/protocol_notation.py"} <= linter


def test_a_fingerprint_changes_with_any_file_it_names(tmp_path: Path) -> None:
    (tmp_path / "b.json").write_text("{}")
    (tmp_path / "c.json").write_text("{}")
    files = (tmp_path / "b.json", tmp_path / "c.json")
    before = kept_results.source_fingerprint([HARNESS / "pack.py"], files=files)
    assert kept_results.source_fingerprint([HARNESS / "pack.py"], files=files) == before
    (tmp_path / "c.json").write_text("[]")
    assert kept_results.source_fingerprint([HARNESS / "pack.py"], files=files) != before


def _broken_pack(folder: Path) -> Path:
    """A pack with a problem of each kind the linter finds: a case the schema refuses, a
    case the linter refuses, an id used twice across files."""
    write_pack(folder, [
        legal_case("good"),
        legal_case("bad-clause", clauses=["NOPE.1"]),
        {"id": "no-kind"},
        legal_case("twice"),
    ])
    (folder / "more.json").write_text(json.dumps({"cases": [
        legal_case("twice"), legal_case("bad-action", actions=["0: hokum X"])]}))
    (folder / "none.json").write_text(json.dumps({"case": []}))  # no list of cases
    (folder / "torn.json").write_text('{"cases": [')  # no JSON
    return folder


def _seen(folder: Path) -> tuple[list[str], list[str]]:
    pack, problems = lint_pack(folder)
    return [c.id for c in pack.cases], [str(p) for p in problems]


def test_a_kept_lint_reads_back_what_a_fresh_lint_finds(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = _broken_pack(tmp_path / "pack")
    monkeypatch.setenv("BALOOT_CACHE_DIR", "off")
    fresh = _seen(folder)
    assert fresh[0] == ["good", "twice"]
    assert any("duplicate id" in p for p in fresh[1]) and any("NOPE.1" in p for p in fresh[1])
    monkeypatch.setenv("BALOOT_CACHE_DIR", str(tmp_path / "kept"))
    assert _seen(folder) == fresh  # found, and kept
    assert any("expected an object" in p for p in fresh[1])
    assert any("not valid JSON" in p for p in fresh[1])
    assert len(list((tmp_path / "kept" / "lint").rglob("*.json"))) == 4
    for kept in (tmp_path / "kept" / "lint").rglob("*.json"):
        if "twice" in kept.read_text(encoding="utf-8"):
            kept.write_text('{"format": 2, "loaded": "torn"}')  # a kept file gone bad
    assert _seen(folder) == fresh
    linted: list[str] = []
    real = lint.lint_case

    def counted(case: Case, raw: dict[str, Any], register: Register) -> list[Problem]:
        linted.append(case.id)
        return real(case, raw, register)

    monkeypatch.setattr(lint, "lint_case", counted)
    assert _seen(folder) == fresh and linted == []  # read back
    (folder / "more.json").write_text(json.dumps({"cases": [legal_case("other")]}))
    assert _seen(folder)[0] == ["good", "twice", "other"]
    assert linted == ["other"]  # only the changed file is linted again


def test_kept_needs_are_read_back_and_a_changed_case_is_replayed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BALOOT_CACHE_DIR", str(tmp_path))
    register = load_register()
    pack, _ = lint_pack(write_pack(tmp_path / "pack", [
        legal_case("first"), legal_case("second", actions=["0: pass"],
                                         expect={"player": 1, "actions": ["pass", "hokum",
                                                                          "sun"]})]))
    cases = list(pack.cases)
    first = list(needs_cache.replay_needs(cases, register, 1))
    replayed: list[str] = []
    real = case_needs

    def counted(case: Case, register: Register) -> CaseNeeds:
        replayed.append(case.id)
        return real(case, register)

    monkeypatch.setattr(needs_cache, "case_needs", counted)
    assert list(needs_cache.replay_needs(cases, register, 1)) == first
    assert replayed == []
    assert first[1].steps == [["0: pass"]]
    changed = Case(**{**cases[1].__dict__, "actions": ["0: pass", "1: pass"]})
    list(needs_cache.replay_needs([cases[0], changed], register, 1))
    assert replayed == ["second"]
