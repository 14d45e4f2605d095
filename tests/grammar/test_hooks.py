"""`hooks TOOL { part = rule }`: the rules the tools reach by name are declared in the spec,
so a renamed or missing one fails `baloot spec check` at its spot, and the tools find
their rules through the declaration."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from baloot.backends.python import generate
from baloot.cli.main import main
from baloot.grammar.analysis import analyse, hook_rule
from baloot.grammar.errors import SpecError
from baloot.grammar.parser import default_spec_dir, load_spec
from baloot.proofs.invariants import check_deck_bunts
from baloot.proofs.proof_outcome import Missing, need_rule

SPEC = load_spec()


def _copy(tmp_path: Path) -> Path:
    folder = tmp_path / "spec"
    shutil.copytree(default_spec_dir(), folder, ignore=shutil.ignore_patterns("*.py",
                                                                               "__pycache__"))
    return folder


def _rename_rule(folder: Path, old: str, new: str, *, keep: str) -> None:
    """Rename a rule where it is declared and called, in every file but `keep`."""
    for path in folder.glob("*.baloot"):
        if path.name != keep:
            text = path.read_text(encoding="utf-8")
            path.write_text(text.replace(f"{old}(", f"{new}(").replace(
                f"rule {old} ", f"rule {new} "), encoding="utf-8")


def test_the_spec_declares_the_rules_its_tools_reach() -> None:
    assert hook_rule(SPEC, "verify", "card_value") == "card_value"
    assert list(analyse(SPEC).hooked("engine")) == [
        "start_game", "start_game_at", "deal_next", "legal_actions", "apply_action",
        "apply_legal_action", "current_player"]


def test_a_spec_with_an_invariant_rule_renamed_fails_spec_check(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = _copy(tmp_path)
    _rename_rule(folder, "card_value", "card_worth", keep="hooks.baloot")
    assert main(["spec", "check", "--spec", str(folder)]) == 1
    err = capsys.readouterr().err
    line = next(i for i, text in enumerate(
        (folder / "hooks.baloot").read_text().splitlines(), 1) if "card_value" in text)
    assert f"hooks.baloot:{line}:" in err
    assert "verify hooks into 'card_value', which is not a rule of the spec" in err


def test_the_same_rename_in_the_hooks_keeps_the_proofs_working(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    _rename_rule(folder, "card_value", "card_worth", keep="")
    hooks = folder / "hooks.baloot"
    hooks.write_text(hooks.read_text().replace("card_value,", "card_value = card_worth,"))
    spec = load_spec(folder)
    assert need_rule(spec, "card_value") == "card_worth"
    assert {o.status for o in check_deck_bunts(spec)} == {"proven"}


def test_a_part_the_spec_does_not_hook_is_missing_for_the_proofs(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    hooks = folder / "hooks.baloot"
    hooks.write_text(hooks.read_text().replace(" card_value,", ""))
    spec = load_spec(folder)
    with pytest.raises(Missing, match="hooks no rule into verify as 'card_value'"):
        need_rule(spec, "card_value")


def test_a_part_hooked_twice_and_a_tool_declared_twice_are_errors(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    (folder / "more.baloot").write_text(
        'hooks verify "Again." { full_deck, full_deck = deck_bunts }\n')
    with pytest.raises(SpecError) as err:
        load_spec(folder)
    messages = [p.message for p in err.value.problems]
    assert any("duplicate hooks of a tool 'verify'" in msg for msg in messages), messages
    assert any("duplicate part of verify 'full_deck'" in msg for msg in messages), messages


def test_entry_points_follow_the_engine_hooks(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    _rename_rule(folder, "current_player", "seat_to_act", keep="")
    hooks = folder / "hooks.baloot"
    hooks.write_text(hooks.read_text().replace("current_player,",
                                               "current_player = seat_to_act,"))
    text = generate.entry_points_module(load_spec(folder))
    assert "seat_to_act as current_player" in text
    assert '"current_player"' in text
