"""The checked-in engine is what the spec generates, and reads like careful code."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from baloot.backends.python import generate
from baloot.cli.main import main
from baloot.grammar.parser import load_spec

SPEC = load_spec()
FILES = generate.generate(SPEC)
OUT = generate.default_out_dir()


def test_checked_in_engine_is_what_the_spec_generates() -> None:
    assert generate.differences(OUT, FILES) == [], "run `baloot gen`"


def test_gen_check_command_passes(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["gen", "--check"]) == 0
    assert "up to date" in capsys.readouterr().out


def test_gen_check_fails_on_a_stale_module(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    generate.write(tmp_path, FILES)
    stale = tmp_path / "scoring_rules.py"
    stale.write_text(stale.read_text() + "\n# edited by hand\n")
    (tmp_path / "gone_rules.py").write_text(f"{generate.GENERATED_MARK} from spec/gone.baloot.\n")
    assert main(["gen", "--check", "--out", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert "scoring_rules.py: differs" in err
    assert "gone_rules.py: generated earlier, but the spec no longer produces it" in err


def test_generation_is_deterministic() -> None:
    assert generate.generate(load_spec()) == FILES


def test_one_function_per_rule_named_after_it_citing_its_clauses() -> None:
    for rule in SPEC.rules:
        module = FILES[generate.module_of(rule.pos.file) + ".py"]
        tree = ast.parse(module)
        (func,) = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == rule.name]
        doc = ast.get_docstring(func) or ""
        for cite in rule.cites:
            assert f"{cite.clause}: " in doc, (rule.name, cite.clause)


def test_every_reading_of_every_variant_is_a_plain_branch() -> None:
    """Each reading is tested by name in the rule modules (an `if`, an `elif`, a shared
    `in (...)` case, or the `else` whose comment names it)."""
    rules_text = "\n".join(text for name, text in FILES.items() if name.endswith("_rules.py"))
    for variant in SPEC.variants:
        for reading in variant.reading_names:
            assert f'"{reading}"' in rules_text, (variant.name, reading)


def test_generated_modules_pass_the_linter(tmp_path: Path) -> None:
    generate.write(tmp_path, FILES)
    result = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--no-cache", "--select", "E,F,W,I",
         "--ignore", "E501", "--config", "lint.isort.known-first-party=['baloot']", str(tmp_path)],
        capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr


def test_no_derived_card_total_is_written_into_the_spec() -> None:
    """120, 130 and 162 follow from the tables; 152 only as the game target (END.1)."""
    for file, text in SPEC.sources:
        code = "\n".join(line.split("#", 1)[0] for line in text.splitlines())
        if file.endswith("clauses.baloot"):
            continue
        for figure in ("120", "130", "162"):
            assert figure not in code.replace(f"{figure}0", ""), (file, figure)
    consts = [c for c in SPEC.consts if c.value == 152]
    assert [c.name for c in consts] == ["game_target"]
    assert {c.clause for c in consts[0].cites} <= {"END.1", "GAME.2"}
