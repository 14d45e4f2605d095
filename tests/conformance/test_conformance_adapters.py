"""The reference adapter's protocol layer, against an in-test fake of the
reference engine's API; and the adapter template, through the runner."""

from __future__ import annotations

import io
import json
import shlex
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from baloot.cli.main import main
from baloot.conformance.adapters.reference_adapter import Adapter, serve
from baloot.conformance.harness.protocol_notation import ALL_CARDS
from baloot.conformance.protocol.schemas import reply_errors


class IllegalAction(Exception):
    def __init__(self, message: str, rule: str, clauses: tuple[str, ...]) -> None:
        super().__init__(message)
        self.rule = rule
        self.clauses = clauses


class FakeGame:
    """The reference API's Game, reduced to what the adapter calls."""

    def __init__(
        self, profile: str, overrides: dict[str, str] | None, dealer: int, deck: list[str]
    ) -> None:
        self.profile, self.overrides, self.dealer, self.deck = profile, overrides, dealer, deck
        self.phase = "bidding"
        self.current_player = (dealer + 1) % 4
        self.bids: list[str] = []

    def legal_actions(self) -> list[str]:
        return ["pass", "hokum", "sun"]

    def apply(self, action: str) -> None:
        if action not in self.legal_actions():
            raise IllegalAction(f"{action} is not a bid here", "bid_is_legal", ("BID.2", "BID.6"))
        if action == "sun":
            raise RuntimeError("engine bug")
        self.bids.append(action)
        self.current_player = (self.current_player + 1) % 4

    def deal(self, deck: list[str]) -> None:
        self.deck = deck

    def observation(self) -> dict[str, Any]:
        return {
            "dealer": self.dealer,
            "hands": [[], [], [], []],
            "contract": None,
            "raises": [],
            "multiplier": 1,
            "trick": [],
            "trick_winners": [],
            "totals": [0, 0],
            "private_engine_detail": 42,
        }

    def round_result(self) -> dict[str, Any] | None:
        return None


def fake_api() -> Any:
    return SimpleNamespace(new_game=FakeGame, IllegalAction=IllegalAction, __version__="0.0.test")


START: dict[str, Any] = {
    "type": "start",
    "setup": {"profile": "literal", "overrides": {}, "dealer": 3, "deck": list(ALL_CARDS)},
}


def ask(adapter: Adapter, seq: int, message: dict[str, Any]) -> dict[str, Any]:
    reply = adapter.handle(json.dumps({"seq": seq, **message}))
    assert reply["seq"] == seq
    assert reply_errors(message["type"], reply) == [], reply
    return reply


def test_session_translates_each_request() -> None:
    adapter = Adapter(fake_api())
    hello = ask(adapter, 1, {"type": "hello", "protocol": 1})
    assert hello["profile"] == "literal" and hello["version"] == "0.0.test"
    assert "bidder_takes_rest" in hello["readings"]["rounding"]
    assert ask(adapter, 2, START)["ok"] is True
    assert adapter.game.overrides is None and adapter.game.dealer == 3
    assert ask(adapter, 3, {"type": "legal"}) == {
        "seq": 3,
        "ok": True,
        "player": 0,
        "actions": ["pass", "hokum", "sun"],
    }
    assert ask(adapter, 4, {"type": "apply", "action": "pass"})["ok"] is True
    refused = ask(adapter, 5, {"type": "apply", "action": "ashkal"})
    assert refused["ok"] is False
    assert refused["refused"] == {
        "reason": "ashkal is not a bid here",
        "rule": "bid_is_legal",
        "clauses": ["BID.2", "BID.6"],
    }
    state = ask(adapter, 6, {"type": "state"})["state"]
    assert state["phase"] == "bidding" and state["current_player"] == 1
    assert "private_engine_detail" not in state
    assert ask(adapter, 7, {"type": "result"})["result"] is None
    assert ask(adapter, 8, {"type": "deal", "deck": list(ALL_CARDS)})["ok"] is True


def test_engine_exceptions_and_bad_requests_become_error_replies() -> None:
    adapter = Adapter(fake_api())
    assert ask(adapter, 1, {"type": "legal"})["error"] == "ValueError: no game: send start first"
    ask(adapter, 2, START)
    assert (
        "RuntimeError: engine bug" in ask(adapter, 3, {"type": "apply", "action": "sun"})["error"]
    )
    assert adapter.handle("not json")["seq"] is None
    assert "cannot read" in adapter.handle('{"seq": 4, "type": "dance"}')["error"]
    start_with_totals = {**START, "setup": {**START["setup"], "totals": [10, 20]}}
    assert "unexpected keyword argument 'totals'" in ask(adapter, 5, start_with_totals)["error"]


def test_serve_loop_answers_line_by_line_and_stops_at_bye() -> None:
    requests = [
        {"seq": 1, "type": "hello", "protocol": 1},
        {"seq": 2, **START},
        {"seq": 3, "type": "bye"},
        {"seq": 4, "type": "legal"},
    ]
    out = io.StringIO()
    serve(fake_api(), io.StringIO("".join(json.dumps(r) + "\n" for r in requests)), out)
    replies = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [r["seq"] for r in replies] == [1, 2, 3]


def test_reference_adapter_ends_quietly_when_its_input_ends(tmp_path: Path) -> None:
    import subprocess

    done = subprocess.run(
        [sys.executable, "-m", "baloot.conformance.adapters.reference_adapter"],
        input="",
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 0
    assert done.stdout == "" and "Traceback" not in done.stderr


def test_template_adapter_speaks_valid_protocol(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    template = Path(__file__).parents[2] / "conformance" / "adapter_template.py"
    report = tmp_path / "r.json"
    status = main(
        [
            "conform",
            "--engine",
            shlex.join([sys.executable, str(template)]),
            "--validate-protocol",
            "--json",
            str(report),
        ]
    )
    capsys.readouterr()
    data = json.loads(report.read_text())
    assert status == 1  # the toy engine fails the cases...
    assert data["summary"]["errored"] == 0  # ...but never breaks the protocol
    assert data["summary"]["passed"] >= 1


def test_the_reference_says_the_distributions_version_in_its_hello() -> None:
    from importlib import metadata

    import baloot.reference_impl as api

    reply = Adapter(api).hello({"seq": 1, "type": "hello", "protocol": 1})
    assert reply["version"] == metadata.version("baloot-conformance") != "0"
