"""`baloot conform pins` plays less and finds the same: a variant a run never consults
is not played under its other readings, nor a reading under which every call of the rules
reading the variant comes out as it did (`pins_screen`), and a case checked before,
unchanged, is not played again."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

import baloot.reference_impl as api
from baloot.conformance.adapters.inprocess import InProcessEngine
from baloot.conformance.harness.lint import lint_pack
from baloot.conformance.harness.pack import Case, default_pack_folder
from baloot.conformance.harness.variants import load_register
from baloot.conformance.pack_tools import pins
from baloot.conformance.pack_tools.pins import PinChecker, check_cases
from baloot.conformance.pack_tools.pins_trace import NotingReadings


def _sample(every: int) -> list[Case]:
    pack, problems = lint_pack(default_pack_folder())
    assert problems == []
    return list(pack.cases)[::every]


def test_noting_readings_read_as_the_readings_and_note_each_variant_read() -> None:
    readings = api.choose_readings("federation")
    consulted: set[str] = set()
    noting = NotingReadings(readings, consulted)
    assert noting.kaboot == readings.kaboot and noting.rounding == readings.rounding
    assert consulted == {"kaboot", "rounding"}


def _words(runs: dict[Any, pins.Verdict]) -> dict[Any, tuple[bool, str]]:
    """Each run's verdict and the first line of its message (the lines after it quote the
    last messages, whose `seq` counts the requests the engine served before)."""
    return {key: (passed, message.split("\n", 1)[0]) for key, (passed, message) in runs.items()}


def test_a_check_that_skips_unconsulted_variants_finds_what_playing_every_reading_finds(
) -> None:
    register = load_register()
    profiles = list(register.profiles)
    noted = PinChecker(register, profiles)
    every = PinChecker(register, profiles, InProcessEngine())  # no noting: every reading
    for case in _sample(70):
        fast, full = noted.check(case), every.check(case)
        assert (_words(fast.own), _words(fast.runs)) == (_words(full.own), _words(full.runs)), \
            case.id
    assert noted.runs < every.runs
    assert noted.screened > 0  # runs the call screen found alike, not played


def test_a_case_checked_before_is_not_played_again_until_it_changes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BALOOT_CACHE_DIR", str(tmp_path))
    register = load_register()
    profiles = list(register.profiles)
    cases = _sample(120)
    first = check_cases(cases, register, profiles)
    played: list[str] = []
    real = pins._check

    def counted(checker: PinChecker, case: Case) -> pins.CaseCheck:
        played.append(case.id)
        return real(checker, case)

    monkeypatch.setattr(pins, "_check", counted)
    again = check_cases(cases, register, profiles)
    assert played == []
    assert [(c.case, c.own, c.runs) for c in again] == [(c.case, c.own, c.runs) for c in first]
    edited = dataclasses.replace(cases[0], dealer=(cases[0].dealer + 1) % 4)
    check_cases([edited, *cases[1:]], register, profiles)
    assert played == [edited.id]
    monkeypatch.setenv("BALOOT_CACHE_DIR", "off")
    check_cases(cases[:1], register, profiles)
    assert played == [edited.id, cases[0].id]
