"""The protocol schemas accept the documented messages and reject broken ones."""

from __future__ import annotations

import json
import re
from importlib import resources
from typing import Any

import pytest

from baloot.conformance.harness.pack import REGISTER_FILE
from baloot.conformance.harness.protocol_notation import ALL_CARDS
from baloot.conformance.protocol.schemas import (
    reply_errors,
    request_errors,
    schema_errors,
    schema_names,
)

STATE = {
    "phase": "playing",
    "dealer": 3,
    "current_player": 1,
    "face_up": "8H",
    "hands": [["9H"], ["AH"], ["JH"], ["10H"]],
    "contract": {"kind": "hokum", "trump": "H", "bidder": 0},
    "raises": [{"seat": 1, "action": "pass"}],
    "multiplier": 1,
    "trick": [{"seat": 0, "card": "9H"}],
    "trick_winners": [],
    "totals": [0, 0],
}
RESULT = {
    "contract": {"kind": "sun", "trump": None, "bidder": 0},
    "multiplier": 1,
    "card_bunts": [65, 55],
    "last_trick_bunts": [10, 0],
    "projects": [[{"seat": 0, "kind": "sira", "cards": ["9H", "8H", "7H"]}], []],
    "points": [15, 11],
    "success": False,
    "kaboot": None,
    "added": [0, 26],
    "totals": [0, 26],
    "game_over": False,
    "winner": None,
}

GOOD_REQUESTS = [
    {"seq": 1, "type": "hello", "protocol": 1},
    {
        "seq": 2,
        "type": "start",
        "setup": {
            "profile": "literal",
            "overrides": {},
            "dealer": 0,
            "deck": list(ALL_CARDS),
            "totals": [1, 2],
        },
    },
    {"seq": 3, "type": "deal", "deck": list(ALL_CARDS)},
    {"seq": 4, "type": "legal"},
    {"seq": 5, "type": "apply", "action": "declare sira 9H 8H 7H"},
    {"seq": 6, "type": "state"},
    {"seq": 7, "type": "result"},
    {"seq": 8, "type": "bye"},
]
GOOD_REPLIES = [
    (
        "hello",
        {
            "seq": 1,
            "ok": True,
            "protocol": 1,
            "name": "e",
            "version": "1",
            "profile": "literal",
            "readings": {"rounding": ["each_team"]},
        },
    ),
    ("start", {"seq": 2, "ok": True}),
    ("legal", {"seq": 4, "ok": True, "player": 0, "actions": ["pass", "hokum S"]}),
    ("legal", {"seq": 4, "ok": True, "player": None, "actions": []}),
    ("apply", {"seq": 5, "ok": True}),
    (
        "apply",
        {"seq": 5, "ok": False, "refused": {"reason": "no", "rule": "r", "clauses": ["PLAY.2"]}},
    ),
    ("state", {"seq": 6, "ok": True, "state": STATE}),
    ("result", {"seq": 7, "ok": True, "result": RESULT}),
    ("result", {"seq": 7, "ok": True, "result": None}),
    ("legal", {"seq": None, "ok": False, "error": "cannot read"}),
]


@pytest.mark.parametrize("message", GOOD_REQUESTS, ids=lambda m: m["type"])
def test_documented_requests_are_valid(message: dict[str, Any]) -> None:
    assert request_errors(message) == []


@pytest.mark.parametrize(
    ("kind", "reply"), GOOD_REPLIES, ids=lambda x: x if isinstance(x, str) else ""
)
def test_documented_replies_are_valid(kind: str, reply: dict[str, Any]) -> None:
    assert reply_errors(kind, reply) == []


@pytest.mark.parametrize(
    ("kind", "message", "needle"),
    [
        (
            "request",
            {
                "seq": 1,
                "type": "start",
                "setup": {
                    "profile": "literal",
                    "overrides": {},
                    "dealer": 0,
                    "deck": list(ALL_CARDS)[:31],
                },
            },
            "setup/deck",
        ),
        ("request", {"seq": 1, "type": "apply", "action": "Play 7S"}, "action"),
        ("request", {"seq": -1, "type": "legal"}, "seq"),
        ("request", {"seq": 1, "type": "dance"}, "unknown request type"),
        ("state", {"seq": 1, "ok": True, "state": {**STATE, "phase": "napping"}}, "state/phase"),
        (
            "state",
            {"seq": 1, "ok": True, "state": {**STATE, "trick": [{"seat": 0, "card": "1S"}]}},
            "card",
        ),
        ("result", {"seq": 1, "ok": True, "result": {**RESULT, "points": [1]}}, "points"),
        ("apply", {"seq": 1, "ok": False}, "refused"),
        ("hello", {"seq": 1, "ok": True, "protocol": 1}, "name"),
    ],
)
def test_broken_messages_are_rejected(kind: str, message: dict[str, Any], needle: str) -> None:
    found = request_errors(message) if kind == "request" else reply_errors(kind, message)
    assert found and any(needle in f for f in found), found


def test_every_schema_is_valid_json_schema_and_documented() -> None:
    from jsonschema import Draft202012Validator

    protocol = (resources.files("baloot.conformance") / "PROTOCOL.md").read_text()
    for name in schema_names():
        text = (resources.files("baloot.conformance") / "schema" / f"{name}.json").read_text()
        Draft202012Validator.check_schema(json.loads(text))
        kind = name.split(".")[0]
        if name.endswith(".request"):
            assert re.search(rf"### `{kind}`", protocol), f"{kind} is not documented"


def test_case_files_of_builtin_pack_match_schema() -> None:
    folder = resources.files("baloot.conformance") / "cases"
    for entry in folder.iterdir():
        if entry.name.endswith(".json") and entry.name not in ("pack.json", REGISTER_FILE):
            assert schema_errors("case-file", json.loads(entry.read_text())) == []
