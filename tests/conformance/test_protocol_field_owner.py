"""The protocol's fields have one owner, `protocol/fields.py`, which reads them from the
schemas: the lists it derives are the protocol's (PROTOCOL.md), and a field added to the
schema, with its annotations, reaches every user of the lists without another edit: the
runner's optional fields, the fuzzer's clauses, the capability view, and the reference
engine's view and adapter."""

from __future__ import annotations

import json
import random
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

import baloot.reference_impl as api
from baloot.conformance.adapters.reference_adapter import Adapter
from baloot.conformance.fuzz.driver import _clauses_for
from baloot.conformance.harness.declared import CAPABILITIES
from baloot.conformance.protocol import fields, reference_view, schema_source, schemas
from baloot.conformance.protocol.capability_view import CapabilityView

# ---- the derived lists are the protocol's ----------------------------------------------

# PROTOCOL.md, `state`: "Required: `phase`, `dealer`, `current_player`, `hands`, `contract`,
# `raises`, `multiplier`, `trick`, `trick_winners`, `totals`. Optional: `face_up`, `bids`,
# `locked`, `declarations`, and the contract's `ashkal`."
STATE_REQUIRED = ("phase", "dealer", "current_player", "hands", "contract", "raises",
                  "multiplier", "trick", "trick_winners", "totals")
STATE_OPTIONAL = ("face_up", "bids", "locked", "declarations")
# PROTOCOL.md, `result`: every field of the example reply, in its order.
RESULT = ("contract", "multiplier", "card_bunts", "last_trick_bunts", "projects", "points",
          "success", "kaboot", "added", "totals", "game_over", "winner")
# PROTOCOL.md, "Capabilities": the table's rows, and what the runner leaves out without one.
CAPABILITY_NAMES = ("raises", "raise_triple", "raise_four", "raise_gahwa", "ashkal",
                    "second_session", "redeal", "pass_only_turns", "projects", "declarations",
                    "game_score")
GATED_STATE = {"declarations": {"declarations"}, "raises": {"raises", "locked"},
               "game_score": {"totals"}, "pass_only_turns": {"bids"}}
GATED_RESULT = {"game_score": {"totals", "game_over", "winner"}}
# The clause each field was checked under by the fuzzer (its table before the schema held it).
CLAUSES = {
    "hands": "SETUP.5", "contract": "BID.1", "trick_winners": "PLAY.3", "totals": "SCORE.9",
    "multiplier": "RAISE.1", "raises": "RAISE.1", "declarations": "PROJ.2", "phase": "GAME.1",
    "locked": "RAISE.2", "dealer": "SETUP.3", "face_up": "SETUP.4", "bids": "BID.2",
    "trick": "PLAY.2", "card_bunts": "SCORE.1", "last_trick_bunts": "SCORE.2",
    "success": "SCORE.9", "added": "SCORE.10", "kaboot": "SCORE.11", "game_over": "END.1",
    "winner": "END.1", "projects": "PROJ.2",
}


def test_the_state_fields_are_the_protocols() -> None:
    assert fields.state_fields() == (STATE_REQUIRED, STATE_OPTIONAL)
    assert fields.optional_state_fields() == {"": STATE_OPTIONAL, "contract": ("ashkal",)}
    assert fields.contract_fields() == ("kind", "trump", "bidder", "ashkal")
    assert reference_view.visible_fields() == STATE_REQUIRED


def test_the_result_fields_are_the_protocols() -> None:
    assert fields.result_fields() == RESULT
    assert fields.optional_result_fields() == {"": (), "contract": ("ashkal",)}


def test_the_capabilities_and_the_fields_they_gate_are_the_protocols() -> None:
    assert fields.capabilities() == CAPABILITY_NAMES
    assert set(CAPABILITY_NAMES) == set(CAPABILITIES)  # the hello's, the harness's
    assert {c: set(f) for c, f in fields.gated(fields.STATE).items()} == GATED_STATE
    assert {c: set(f) for c, f in fields.gated(fields.RESULT).items()} == GATED_RESULT


def test_every_field_has_the_clause_the_fuzzer_checked_it_under() -> None:
    for kind in fields.OBJECTS:
        for name in fields.protocol_fields().of(kind).names:
            context = {"phase": "bidding", "contract_kind": "hokum"}
            assert fields.clause_of(kind, name, context) is not None, (kind, name)
            if name in CLAUSES:
                assert _clauses_for(kind, "bidding", [name], "hokum") == [CLAUSES[name]]
    # the two whose clause depends on where the game is
    assert _clauses_for("state", "playing", ["current_player"], None) == ["PLAY.4"]
    assert _clauses_for("state", "bidding", ["current_player"], None) == ["BID.2"]
    assert _clauses_for("result", "round_over", ["points"], "sun") == ["SCORE.7"]
    assert _clauses_for("result", "round_over", ["points"], "hokum") == ["SCORE.8"]
    assert _clauses_for("result", "round_over", ["totals", "success", "points"], "hokum") == [
        "SCORE.9", "SCORE.8"]
    assert _clauses_for("state", "playing", ["no_such_field"], None) == ["GAME.1"]


def test_the_capability_view_drops_what_the_protocol_says() -> None:
    expected_state = {name: 0 for name in (*STATE_REQUIRED, *STATE_OPTIONAL)}
    expected_result = {name: 0 for name in RESULT}
    assert CapabilityView(None).state(expected_state) == expected_state
    for capability in CAPABILITY_NAMES:
        view = CapabilityView([c for c in CAPABILITY_NAMES if c != capability])
        dropped = GATED_STATE.get(capability, set())
        if capability == "projects":  # no projects: nothing to declare either
            dropped = GATED_STATE["declarations"]
        assert set(expected_state) - set(view.state(expected_state)) == dropped, capability
        assert set(expected_result) - set(view.result(expected_result)) == \
            GATED_RESULT.get(capability, set())


# ---- a new field: the schema, with its annotations, and nothing else -------------------

# Two fields the engine's records keep under these names, in the protocol's terms: the
# bidding session (a number) and the round's winning team (a team or null).
NEW_STATE_FIELD = {"type": "integer", "minimum": 1, "maximum": 2,
                   "x-clause": "BID.7", "x-capability": "second_session"}
NEW_RESULT_FIELD = {"oneOf": [{"$ref": "#/$defs/team"}, {"type": "null"}],
                    "x-clause": {"by": "contract_kind", "cases": {"sun": "SCORE.7"},
                                 "otherwise": "SCORE.8"}}


@pytest.fixture
def schemas_with_new_fields(tmp_path: Path) -> Iterator[Path]:
    """The schemas, copied, with an optional `session` in the state and a required
    `round_winner` in the result; read from the copy for the test."""
    folder = tmp_path / "schema"
    shutil.copytree(Path(str(schema_source.SCHEMA_FOLDER)), folder)
    common_file = folder / "common.json"
    common = json.loads(common_file.read_text(encoding="utf-8"))
    common["$defs"]["state"]["properties"]["session"] = NEW_STATE_FIELD
    common["$defs"]["result"]["properties"]["round_winner"] = NEW_RESULT_FIELD
    common["$defs"]["result"]["required"].append("round_winner")
    common_file.write_text(json.dumps(common, indent=2), encoding="utf-8")
    Draft202012Validator.check_schema(common)  # still a JSON Schema
    with schema_source.reading_from(folder):
        yield folder


def _played(seed: int) -> Any:
    """A game played at random until its first round is over."""
    game = api.new_game(profile="literal", overrides=None, dealer=0,
                        deck=api.shuffled_deck(seed))
    rng = random.Random(seed)
    while game.round_result() is None:
        game.apply(rng.choice(game.legal_actions()))
    return game


def test_a_new_field_reaches_every_user_of_the_lists(schemas_with_new_fields: Path) -> None:
    # the lists, and the runner's optional fields
    assert fields.state_fields() == (STATE_REQUIRED, (*STATE_OPTIONAL, "session"))
    assert fields.optional_state_fields()[""] == (*STATE_OPTIONAL, "session")
    assert fields.result_fields() == (*RESULT, "round_winner")
    # the fuzzer's clauses
    assert _clauses_for("state", "bidding", ["session"], None) == ["BID.7"]
    assert _clauses_for("result", "round_over", ["round_winner"], "sun") == ["SCORE.7"]
    assert _clauses_for("result", "round_over", ["round_winner"], "hokum") == ["SCORE.8"]
    # the capability view
    without = CapabilityView([c for c in CAPABILITY_NAMES if c != "second_session"])
    assert without.state({"session": 2, "phase": "bidding"}) == {"phase": "bidding"}
    assert CapabilityView(None).state({"session": 2}) == {"session": 2}
    # the reference engine's view, and its adapter (both of its paths)
    game = _played(7)
    state = reference_view.state_fields(game.observation())
    assert state["session"] == game.observation()["session"]
    result = reference_view.result(game)
    assert result is not None
    assert result["round_winner"] == game.round_result()["round_winner"]
    adapter = Adapter(api)
    adapter.answer({"type": "start", "setup": {"profile": "literal", "overrides": {},
                                               "dealer": 0, "deck": api.shuffled_deck(7)}})
    replies = []
    while adapter.game.round_result() is None:
        replies.append(adapter.answer({"type": "state"}))
        actions = adapter.answer({"type": "legal"})["actions"]
        adapter.answer({"type": "apply", "action": random.Random(len(replies)).choice(actions)})
    replies.append(adapter.answer({"type": "result"}))
    assert all("session" in r["state"] for r in replies[:-1])
    assert "round_winner" in replies[-1]["result"]
    # and the schemas read from the same folder: a reply with the field holds, a wrong one not
    for reply in replies[:-1]:
        assert schemas.reply_errors("state", {"seq": 1, **reply}) == []
    assert schemas.reply_errors("result", {"seq": 1, **replies[-1]}) == []
    wrong = {"seq": 1, **replies[0], "state": {**replies[0]["state"], "session": "one"}}
    assert schemas.reply_errors("state", wrong) != []


def test_the_schemas_read_before_come_back_after(schemas_with_new_fields: Path) -> None:
    with schema_source.reading_from(schema_source.SCHEMA_FOLDER):
        assert fields.state_fields() == (STATE_REQUIRED, STATE_OPTIONAL)
        assert fields.result_fields() == RESULT
    assert "session" in fields.state_fields()[1]
