"""The worked examples' recorder (`baloot conform examples`): it plays the same rounds on
every run, the stored file is what it records now, and `--check` fails on a stale file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from baloot.cli.main import main
from baloot.conformance.pack_tools import worked_examples as w


def test_recording_is_byte_identical_on_reruns() -> None:
    first = w.file_text(w.record())
    assert first == w.file_text(w.record())
    assert first.endswith("}\n") and json.loads(first)["format"] == 1


def test_the_stored_file_is_up_to_date() -> None:
    fresh = w.file_text(w.record())
    stale = w.staleness(w.default_path(), fresh)
    assert stale is None, f"{stale.render() if stale else ''}\nrun `baloot conform examples`"


def test_each_contract_is_played_to_a_finished_round() -> None:
    content: Any = w.record()  # plain JSON data, read by the keys the recorder writes
    assert content["contracts"] == ["sun", "hokum"] and content["value_rule"] == "card_value"
    examples = content["examples"]
    assert isinstance(examples, list) and [x["contract"] for x in examples] == ["sun", "hokum"]
    for example in examples:
        assert len(example["deck"]) == 32 and len(example["tricks"]) == 8
        assert all(len(t["plays"]) == 4 for t in example["tricks"])
        # the cards' values as the engine priced them add up to the round's card bunts
        result = example["result"]
        assert sum(t["bunts"] for t in example["tricks"]) == sum(result["card_bunts"])
        assert result["contract"]["kind"] == example["contract"]


def test_check_fails_on_a_stale_or_missing_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "worked-examples.json"
    assert main(["conform", "examples", "--check", "--out", str(out)]) == 1
    assert f"{out}: missing" in capsys.readouterr().err
    assert main(["conform", "examples", "--out", str(out)]) == 0
    assert main(["conform", "examples", "--check", "--out", str(out)]) == 0
    assert "up to date" in capsys.readouterr().out
    text = out.read_text(encoding="utf-8")
    assert text == w.default_path().read_text(encoding="utf-8")
    lines = text.splitlines(keepends=True)
    seed_line = next(i for i, line in enumerate(lines) if '"seed"' in line)
    lines[seed_line] = lines[seed_line].replace('"seed": ', '"seed": 1')
    out.write_text("".join(lines), encoding="utf-8")
    assert main(["conform", "examples", "--check", "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert f"{out}:{seed_line + 1}: differs from a fresh recording" in err
    assert f"run `baloot conform examples --out {out}`" in err
    out.write_text(text.rstrip("\n"), encoding="utf-8")  # even the last newline counts
    assert main(["conform", "examples", "--check", "--out", str(out)]) == 1
