"""A mutant's hello carries the name `--name` gives it (the results page's column is
headed by that name), the rest of the hello being the reference adapter's."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from baloot import reference_impl
from baloot.conformance.adapters.reference_adapter import Adapter
from baloot.conformance.mutants.adapter import NamedAdapter


def hello(adapter: Adapter) -> dict[str, object]:
    reply = adapter.handle(json.dumps({"seq": 1, "type": "hello", "protocol": 1}))
    assert reply["ok"] is True, reply
    return reply


def test_the_named_adapter_says_its_name_and_the_rest_as_the_reference() -> None:
    plain, named = hello(Adapter(reference_impl)), hello(NamedAdapter(reference_impl, "m_1"))
    assert plain["name"] == "baloot-reference" and named["name"] == "m_1"
    assert {**named, "name": plain["name"]} == plain


def test_the_mutant_adapter_process_says_the_name_given(tmp_path: Path) -> None:
    package = tmp_path / "baloot_mutant"  # a stand-in build: the reference engine itself
    package.mkdir()
    (package / "__init__.py").write_text("from baloot.reference_impl import *  # noqa\n"
                                         "from baloot.reference_impl import IllegalAction\n")
    requests = [{"seq": 1, "type": "hello", "protocol": 1}, {"seq": 2, "type": "bye"}]
    done = subprocess.run(
        [sys.executable, "-m", "baloot.conformance.mutants.adapter", "--package-dir",
         str(tmp_path), "--name", "baloot_mutant_no_ashkal"],
        input="".join(json.dumps(r) + "\n" for r in requests), capture_output=True,
        text=True, timeout=60, check=True)
    replies = [json.loads(line) for line in done.stdout.splitlines()]
    assert replies[0]["name"] == "baloot_mutant_no_ashkal", replies[0]
