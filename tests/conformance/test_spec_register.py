"""The spec register data file: `baloot gen` writes it, `--check` compares it, the
harness reads it (and refuses a broken one, naming the file)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from baloot.backends.document.anchors import clause_id_anchor
from baloot.backends.python import generate
from baloot.backends.register import register_data, register_text
from baloot.cli import conform_command
from baloot.cli.main import main
from baloot.conformance.harness.clauses import clause_ids
from baloot.conformance.harness.pack import REGISTER_FILE, case_files, default_pack_folder
from baloot.conformance.harness.rules_links import clause_anchor, clause_link
from baloot.conformance.harness.spec_register import (
    RegisterFileError,
    read_register_data,
    register_file,
)
from baloot.conformance.harness.variants import load_register, register_from_data
from baloot.conformance.pack_tools.spec_model import register_from_folder, spec_model
from baloot.grammar.parser import default_spec_dir


def checked_in() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(register_file().read_text(encoding="utf-8"))
    return data


def test_the_checked_in_register_is_what_the_spec_gives() -> None:
    assert register_file().read_text(encoding="utf-8") == register_text(spec_model())


def test_the_register_holds_every_clause_variant_and_profile_of_the_spec() -> None:
    spec = spec_model()
    assert clause_ids() == tuple(c.id for c in spec.clauses)
    register = load_register()
    assert list(register.variants) == [v.name for v in spec.variants]
    assert register.profiles == {p.name: p.readings() for p in spec.profiles}
    for variant in spec.variants:
        info = register.variants[variant.name]
        assert (info.id, info.readings, info.default) == (
            variant.id, list(variant.reading_names), variant.default)


def test_the_anchors_are_the_renderers() -> None:
    for clause in spec_model().clauses:
        assert clause_anchor(clause.id) == clause_id_anchor(clause.id)
    with pytest.raises(ValueError, match=r"no clause NOPE\.1"):
        clause_link("NOPE.1")


def test_a_register_from_another_spec_folder(tmp_path: Path) -> None:
    for path in default_spec_dir().glob("*.baloot"):
        (tmp_path / path.name).write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    variants = tmp_path / "variants.baloot"
    text = variants.read_text(encoding="utf-8")
    assert text.count("profile literal") == 1
    variants.write_text(text.replace("profile literal", "profile plain_reading"),
                        encoding="utf-8")
    other = register_from_folder(tmp_path)
    assert "plain_reading" in other.profiles and "literal" not in other.profiles
    assert other.variants == load_register().variants


def test_the_register_file_is_no_case_file() -> None:
    assert register_file().parent == default_pack_folder()
    assert register_file() not in case_files(default_pack_folder())


def test_gen_check_fails_on_a_stale_register(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    spec = spec_model()
    generate.write(tmp_path, generate.generate(spec))
    register = tmp_path / REGISTER_FILE
    register.write_text(register_text(spec), encoding="utf-8")
    assert main(["gen", "--check", "--out", str(tmp_path)]) == 0
    capsys.readouterr()
    data = register_data(spec)
    data["variants"][0]["readings"].reverse()
    register.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    assert main(["gen", "--check", "--out", str(tmp_path)]) == 1
    assert f"{REGISTER_FILE}: differs from what the spec generates" in capsys.readouterr().err
    register.unlink()
    assert main(["gen", "--check", "--out", str(tmp_path)]) == 1
    assert f"{REGISTER_FILE}: missing" in capsys.readouterr().err
    assert main(["gen", "--out", str(tmp_path)]) == 0
    assert register.read_text(encoding="utf-8") == register_text(spec)


def broken(tmp_path: Path, change: Any) -> Path:
    data = checked_in()
    change(data)
    path = tmp_path / REGISTER_FILE
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@pytest.mark.parametrize(("change", "why"), [
    (lambda d: d.pop("profiles"), "'profiles' is a required property"),
    (lambda d: d.update(format=2), "at format"),
    (lambda d: d["clauses"][0].update(id="setup one"), "at clauses/0/id"),
    (lambda d: d["clauses"].append(d["clauses"][0]), "clauses: SETUP.1 listed twice"),
    (lambda d: d["variants"][0].update(default="nowhere"), "default 'nowhere' is none of"),
    (lambda d: d["profiles"]["literal"].update(rounding="nowhere"),
     "profile literal: rounding=nowhere is no variant's reading"),
])
def test_a_malformed_register_is_refused_naming_the_file(tmp_path: Path, change: Any,
                                                         why: str) -> None:
    path = broken(tmp_path, change)
    with pytest.raises(RegisterFileError) as refused:
        read_register_data(path)
    assert str(path) in str(refused.value) and why in str(refused.value)


def test_an_unreadable_register_is_refused_naming_the_file(tmp_path: Path) -> None:
    path = tmp_path / REGISTER_FILE
    with pytest.raises(RegisterFileError) as missing:
        read_register_data(path)
    assert f"{path}: cannot read the spec register" in str(missing.value)
    path.write_text("{ not json", encoding="utf-8")
    with pytest.raises(RegisterFileError) as not_json:
        read_register_data(path)
    assert f"{path}: not JSON" in str(not_json.value)


def test_the_checked_in_register_reads_back_as_the_register(tmp_path: Path) -> None:
    assert register_from_data(read_register_data(register_file())) == load_register()


def test_conform_reports_a_broken_register(monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    def refuse() -> None:
        raise RegisterFileError("/somewhere/spec-register.json: not JSON")

    monkeypatch.setattr(conform_command, "load_register", refuse)
    assert main(["conform", "--engine", "an-engine"]) == 2
    assert "baloot: /somewhere/spec-register.json: not JSON" in capsys.readouterr().err


def test_the_register_holds_each_choice_with_its_evidence_status() -> None:
    """Every choice of every profile, held against its sources: the page's own words for
    the literal profile, the published sources for the federation's (values from the
    rules notes and the sources named in spec/variants.baloot)."""
    evidence = checked_in()["evidence"]
    assert set(evidence) == {"literal", "federation"}
    for profile in evidence.values():
        assert len(profile) == 28 and all(
            e["status"] in ("confirmed", "contested", "unsourced") for e in profile.values())
    # the page says nothing of two teams passing 152 in one round (END.1)
    assert evidence["literal"]["both_reach_target"]["status"] == "unsourced"
    # BID.5's two sentences pull against each other (A2)
    sun = evidence["literal"]["sun_overcall"]
    assert sun["status"] == "contested"
    assert [a["reading"] for a in sun["against"]] == ["sun_ends_bidding"]
    # A3: the Jawaker page now sources the federation's pick; A19 an engine's profile
    assert evidence["federation"]["hokum_answer"]["for"][0].startswith("Jawaker rules page")
    assert evidence["federation"]["both_reach_target"]["status"] == "confirmed"
    # A4: the app's ties (a sun tie split, a raised hokum tie lost by the doubler) are now
    # a reading, the federation's pick; the validator's earlier 'best fit' is against it
    success = evidence["federation"]["bidder_success"]
    assert checked_in()["profiles"]["federation"]["bidder_success"] == "more_points_app_ties"
    assert success["status"] == "contested" and success["disagree"]
    assert [a["reading"] for a in success["against"]] == ["more_than_half_bunts"]
    assert checked_in()["profiles"]["literal"]["bidder_success"] == "margin_points"
    # A8, A11, A14: contested, as the sources read again say
    for variant in ("projects_on_failure", "sun_raises", "ashkal"):
        assert evidence["federation"][variant]["status"] == "contested", variant
    assert [a["reading"] for a in evidence["federation"]["ashkal"]["against"]] == [
        "partner_is_bidder_any_session", "partner_is_bidder_any_session"]
    # A25: the video's pass limit is taken, the engine document's ace limit is against it
    limits = evidence["federation"]["ashkal_limits"]
    assert limits["status"] == "contested"
    assert [a["reading"] for a in limits["against"]] == ["no_ace_not_after_pass"]
    assert evidence["literal"]["ashkal_limits"]["status"] == "confirmed"
    # A26: both profiles ask the bid winner's right first; the bidding order is against it
    for name in ("literal", "federation"):
        assert checked_in()["profiles"][name]["double_order"] == "bidder_right"
        order = evidence[name]["double_order"]
        assert order["status"] == "contested"
        assert [a["reading"] for a in order["against"]] == ["dealer_right_first"]
    # A27: the federation gives the reverse kaboot its 88 (the Saudi rules reproduction and
    # the video), contested by the video's other players and the app's one kaboot branch
    assert checked_in()["profiles"]["federation"]["reverse_kaboot"] == "sun_dealer_right_ace"
    assert checked_in()["profiles"]["literal"]["reverse_kaboot"] == "as_any_kaboot"
    reverse = evidence["federation"]["reverse_kaboot"]
    assert reverse["status"] == "contested"
    assert [a["reading"] for a in reverse["against"]] == ["as_any_kaboot"]
    assert evidence["literal"]["reverse_kaboot"]["status"] == "confirmed"
    # A28: kawesh before the bid is the federation's (the engine document, the video, the
    # app's records); the page has no such call
    assert checked_in()["profiles"]["federation"]["kawesh"] == "weak_hand_redeal"
    assert checked_in()["profiles"]["literal"]["kawesh"] == "no_kawesh"
    assert evidence["federation"]["kawesh"]["status"] == "confirmed"
    assert len(evidence["federation"]["kawesh"]["for"]) == 3
    # A10: the doubling document's each-raiser choice now has a reading, against the pick
    locked = evidence["federation"]["locked_round"]
    assert locked["status"] == "contested"
    assert [a["reading"] for a in locked["against"]] == ["each_raiser_chooses", None]
    assert evidence["literal"]["locked_round"]["status"] == "confirmed"
