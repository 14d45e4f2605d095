"""The hello read against its schema, strictly, with one error naming the field and
what was expected; a hello without capabilities claims none, and conform and fuzz
print capabilities in the same words."""

from __future__ import annotations

from typing import Any

import pytest

from baloot.conformance.harness.declared import (
    CAPABILITIES,
    DeclarationError,
    capabilities_text,
    declared_from_hello,
)
from baloot.conformance.harness.variants import load_register


def hello(**fields: Any) -> dict[str, Any]:
    return {"seq": 1, "ok": True, "protocol": 1, "name": "e", "version": "1",
            "profile": "literal", **fields}


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"batch": "yes"}, 'batch: expected true or false, not "yes"'),
        ({"batch": 1}, "batch: expected true or false, not 1"),
        ({"capabilities": ["raises", "raises"]},
         "capabilities: raises listed more than once; expected each once"),
        ({"name": 7}, "name: expected a text, not 7"),
        ({"readings": {"rounding": []}}, "readings.rounding: expected a non-empty list"),
    ],
)
def test_a_hello_breaking_its_schema_is_one_error_naming_the_field(
    fields: dict[str, Any], message: str
) -> None:
    with pytest.raises(DeclarationError) as failed:
        declared_from_hello(hello(**fields), load_register())
    assert str(failed.value).startswith(message), str(failed.value)


def test_capabilities_left_out_are_none_and_printed_alike() -> None:
    register = load_register()
    assert declared_from_hello(hello(), register).capabilities == frozenset()
    assert capabilities_text(frozenset()) == "none"
    assert capabilities_text(frozenset(CAPABILITIES)) == "all"
    assert capabilities_text(frozenset(CAPABILITIES) - {"raises"}) == "all but raises"


def test_protocol_true_is_no_protocol_1() -> None:
    import sys

    from baloot.conformance.harness.engine_process import HANDSHAKE, EngineError, EngineProcess

    script = ("import sys, json\n"
              "r = json.loads(sys.stdin.readline())\n"
              "print(json.dumps({'seq': r['seq'], 'ok': True, 'protocol': True, 'name': 'x',"
              " 'version': '1', 'profile': 'literal'}), flush=True)\n"
              "sys.stdin.readline()\n")
    engine = EngineProcess([sys.executable, "-c", script], timeout=5)
    with pytest.raises(EngineError) as failed:
        engine.start()
    assert failed.value.reason == HANDSHAKE
    assert failed.value.detail == "the hello's protocol: expected the whole number 1, not true"


@pytest.mark.parametrize(("capabilities", "words"), [
    ([], "none"),
    (sorted(set(CAPABILITIES) - {"redeal"}), "all but redeal"),
])
def test_conform_and_fuzz_print_an_engines_capabilities_in_the_same_words(
        capabilities: list[str], words: str) -> None:
    """The line each command prints for an engine that declares `capabilities`."""
    import json
    import os
    import shlex
    import subprocess
    import sys
    from pathlib import Path

    engine = shlex.join([sys.executable, str(Path(__file__).parent / "fake_engines"
                                             / "reference_with.py")])
    env = {**os.environ, "FAKE_HELLO": json.dumps({"capabilities": capabilities})}
    printed = {}
    for command in (["conform", "--only", "bid.legal.first-bidder"],
                    ["fuzz", "--rounds", "1", "--no-shrink"]):
        run = subprocess.run([sys.executable, "-m", "baloot.cli.main", *command,
                              "--engine", engine], capture_output=True, text=True,
                             env=env, timeout=120, check=False)
        # conform: "capabilities WORDS"; fuzz: "engine NAME: PROFILE profile, capabilities WORDS"
        lines = [line.split("capabilities ", 1)[1]
                 for line in (run.stdout + run.stderr).splitlines()
                 if line.startswith(("capabilities ", "engine ")) and "capabilities " in line]
        assert lines, run.stdout + run.stderr
        printed[command[0]] = lines[0].strip()
    assert printed == {"conform": words, "fuzz": words}
