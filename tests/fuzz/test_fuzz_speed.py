"""The fuzzer's fast paths change nothing: the reference adapter's state projection is the
observation's conversion; a `batch` is answered as its requests alone; a read kept from a
batch raises its error only when asked; and a replay planned and sent in batches is the
replay played request by request, disagreements included, in a few round trips."""

from __future__ import annotations

import gc
import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest

import baloot.reference_impl as api
from baloot.conformance.adapters import reference_adapter
from baloot.conformance.adapters.inprocess import InProcessEngine
from baloot.conformance.adapters.reference_adapter import Adapter
from baloot.conformance.fuzz import campaign
from baloot.conformance.fuzz.driver import (
    MAX_STEPS,
    PROBE,
    ReferenceEndpoint,
    _choices,
    random_trial,
    replay,
    replays,
)
from baloot.conformance.fuzz.engine_side import AHEAD, CHUNK, EngineSide, PlanSender
from baloot.conformance.harness.collector import THRESHOLD
from baloot.conformance.harness.engine_process import REFERENCE_ARGV, EngineError, EngineProcess
from baloot.conformance.protocol.reference_view import result_fields, state_fields

WRAPPED = [sys.executable, str(Path(__file__).with_name("wrapped_engine.py"))]
BUGS = ("triple_multiplier", "revoke_accepted", "sun_last_trick")


def _start(adapter: Adapter, seed: int) -> None:
    setup = {"profile": "literal", "overrides": {}, "dealer": seed % 4}
    adapter.answer({"type": "start", "setup": {**setup, "deck": api.shuffled_deck(seed)}})


def test_the_state_projection_is_the_observation_converted() -> None:
    adapter = Adapter(api)
    rng = random.Random(3)
    states = 0
    for seed in range(6):
        _start(adapter, seed)
        game = adapter.game
        while game.phase != "game_over" and states < 1500:
            observation = {**game.observation(), "phase": game.phase}
            observation["current_player"] = game.current_player
            assert adapter.answer({"type": "state"})["state"] == state_fields(observation)
            assert adapter.answer({"type": "result"})["result"] == result_fields(
                game.round_result()
            )
            states += 1
            if game.phase in ("round_over", "deal"):
                game.deal(api.shuffled_deck(rng.randrange(10**6)))
            else:
                game.apply(rng.choice(game.legal_actions()))
    assert states >= 1000


def test_a_batch_is_answered_as_its_requests_alone() -> None:
    alone, batched = Adapter(api), Adapter(api)
    assert alone.answer({"type": "hello", "protocol": 1})["batch"] is True
    _start(alone, 5)
    _start(batched, 5)
    requests: list[dict[str, Any]] = [{"type": "legal"}, {"type": "state"}]
    for _ in range(12):
        action = alone.answer({"type": "legal"})["actions"][-1]
        requests += [{"type": "apply", "action": action}, {"type": "state"}, {"type": "legal"}]
        alone.answer(requests[-3])
    requests += [{"type": "apply", "action": "play 7X"}, {"type": "hello"}]
    expected = Adapter(api)
    _start(expected, 5)
    one_by_one = [expected.answer(r) for r in requests[:-1]]
    # the batch ends with a hello (not allowed in a batch) and a bare text (no request)
    line = json.dumps({"seq": 4, "type": "batch", "requests": [*requests, "state"]})
    reply = json.loads(json.dumps(batched.handle(line)))
    assert reply["seq"] == 4 and reply["ok"] is True
    assert reply["replies"][:-2] == json.loads(json.dumps(one_by_one))
    assert reply["replies"][-3]["ok"] is False and "refused" in reply["replies"][-3]
    assert [r["ok"] for r in reply["replies"][-2:]] == [False, False]  # no hello, no text
    assert all("error" in r for r in reply["replies"][-2:])


@pytest.mark.parametrize("probes", [0.0, 0.05, 1.0])
def test_a_trial_draws_its_choices_as_randrange_would(probes: float) -> None:
    for seed in range(20):
        fast, plain = random.Random(seed), random.Random(seed)
        expected = [
            PROBE + plain.randrange(64) if plain.random() < probes else plain.randrange(64)
            for _ in range(MAX_STEPS)
        ]
        assert _choices(fast, probes) == expected
        assert fast.random() == plain.random()  # and leave the generator where it would


class _Scripted:
    """A transport with canned replies to batches, counting the requests it gets."""

    def __init__(self, replies: list[Any]) -> None:
        self.hello: dict[str, Any] = {"batch": True}
        self.replies = replies
        self.sent: list[dict[str, Any]] = []

    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        self.sent.append(message)
        return {"ok": True, "replies": self.replies}


def test_a_read_kept_from_a_batch_raises_its_error_when_asked_and_only_then() -> None:
    transport = _Scripted([{"ok": True}, {"ok": False, "error": "boom"}, {"ok": True, "x": 1}])
    side = EngineSide(transport)
    assert side.request({"type": "apply", "action": "pass"}, ("state", "legal")) == {"ok": True}
    assert side.read("legal") == {"ok": True, "x": 1}
    with pytest.raises(EngineError, match="state: boom"):
        side.read("state")
    assert len(transport.sent) == 1  # both reads came with the change
    short = EngineSide(_Scripted([{"ok": True}]))
    with pytest.raises(EngineError, match="1 replies for 3 requests"):
        short.request({"type": "apply", "action": "pass"}, ("state", "legal"))


class _Posting(EngineProcess):
    """Answers each posted batch with one reply per request (the request's action), and
    records how many batches wait for their replies after each post."""

    def __init__(self, fail_at: int | None = None, short: bool = False) -> None:
        super().__init__(["(scripted)"])
        self.due: list[dict[str, Any]] = []
        self.waiting: list[int] = []
        self.sizes: list[int] = []
        self.fail_at = fail_at
        self.short = short

    def post(self, message: dict[str, Any]) -> None:
        if len(self.sizes) == self.fail_at:
            raise EngineError("exited", "engine exited while the runner was sending a request")
        self.sizes.append(len(message["requests"]))
        self.due.append(message)
        self.waiting.append(len(self.due))

    def collect(
        self, timeout: float | None = None, *, lines: list[bytes] | None = None
    ) -> dict[str, Any]:
        requests = self.due.pop(0)["requests"]
        replies = [{"ok": True, "n": r["action"]} for r in requests]
        return {"ok": True, "replies": replies[1:] if self.short else replies}


def _actions(count: int) -> list[dict[str, Any]]:
    return [{"type": "apply", "action": n} for n in range(count)]


def test_a_plan_is_sent_in_batches_as_it_is_made_with_few_unanswered() -> None:
    engine = _Posting()
    sender = PlanSender(engine)
    for at in range(0, 5 * CHUNK + 7, 5):
        sender.add(_actions(5 * CHUNK + 7)[at : at + 5])
    assert engine.sizes == [CHUNK] * 5  # each batch posted as it filled
    assert [r["n"] for r in sender.replies()] == list(range(5 * CHUNK + 7))
    assert engine.sizes == [CHUNK] * 5 + [7]
    assert max(engine.waiting) == AHEAD  # never more unanswered than that


@pytest.mark.parametrize(("fail_at", "short", "words"), [
    (1, False, "engine exited while the runner was sending"),
    (None, True, f"batch reply without {CHUNK} replies"),
])
def test_a_batch_that_fails_stops_the_sending_and_the_replies_raise(
    fail_at: int | None, short: bool, words: str
) -> None:
    engine = _Posting(fail_at, short)
    sender = PlanSender(engine)
    sender.add(_actions(4 * CHUNK))
    with pytest.raises(EngineError, match=words):
        sender.replies()
    assert len(engine.sizes) <= AHEAD + 1  # nothing sent after the failure was seen


def test_a_plan_not_used_has_its_replies_read_and_dropped() -> None:
    engine = _Posting()
    sender = PlanSender(engine)
    sender.add(_actions(2 * CHUNK + 1))
    sender.settle()
    assert engine.due == [] and engine.sizes == [CHUNK, CHUNK]  # the rest never sent


def test_the_in_process_engine_keeps_a_posted_reply_or_its_error_for_collect() -> None:
    engine = InProcessEngine()
    engine.start()
    setup = {"profile": "literal", "overrides": {}, "dealer": 1, "deck": api.shuffled_deck(1)}
    engine.post({"type": "legal"})  # before any start: the adapter's error reply
    engine.post({"type": "start", "setup": setup})
    engine.post({"type": "legal"})
    with pytest.raises(EngineError, match="no game: send start first"):
        engine.collect()
    assert engine.collect() == {"seq": 3, "ok": True}
    assert engine.collect()["player"] == 2  # the dealer's right
    with pytest.raises(RuntimeError, match="no request posted"):
        engine.collect()


def test_a_replay_leaves_no_cycle_for_the_garbage_collector() -> None:
    # a game's plan freed as soon as it is played, not when a full collection finds it
    engine, reference = InProcessEngine(), ReferenceEndpoint()
    engine.start()
    replay(random_trial(2, 0, profile="literal"), engine, reference)
    gc.collect()
    gc.disable()
    try:
        for index in range(1, 4):
            assert replay(random_trial(2, index, profile="literal"), engine, reference).actions
        assert gc.collect() == 0
    finally:
        gc.enable()


def test_games_are_played_with_fewer_collections_and_the_caller_keeps_its_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    before, seen = gc.get_threshold(), []

    def recorded(*args: Any, **options: Any) -> Any:
        for found in replays(*args, **options):  # each game played as the campaign asks it
            seen.append(gc.get_threshold())
            yield found

    def on_game(index: int, result: Any) -> None:
        assert gc.get_threshold() == before  # not while the caller has a result

    monkeypatch.setattr(campaign, "replays", recorded)
    settings = campaign.Settings(argv=REFERENCE_ARGV, seed=3, games=2)
    assert campaign.run_campaign(settings, do_shrink=False, on_game=on_game).games == 2
    assert [t[0] for t in seen] == [max(before[0], THRESHOLD)] * 2
    assert gc.get_threshold() == before


def test_the_adapter_process_collects_garbage_rarely(monkeypatch: pytest.MonkeyPatch) -> None:
    before, seen = gc.get_threshold(), []

    def serve(*args: Any) -> int:
        seen.append(gc.get_threshold())
        return 0

    monkeypatch.setattr(reference_adapter, "serve", serve)
    try:
        assert reference_adapter.main() == 0
    finally:
        gc.set_threshold(*before)
    assert seen == [(max(before[0], THRESHOLD), *before[1:])]


class _Counted(EngineProcess):
    """An engine process that counts the requests it sends, and how many of them were
    posted while another still waited for its reply."""

    def __init__(self, argv: list[str]) -> None:
        super().__init__(argv)
        self.round_trips = 0
        self.overlapped = 0
        self.started_behind = 0  # games sent while the one before still had replies due

    def post(self, message: dict[str, Any]) -> None:
        self.round_trips += 1
        self.overlapped += bool(self._posted)
        starts = message["type"] == "batch" and message["requests"][0]["type"] == "start"
        self.started_behind += starts and bool(self._posted)
        super().post(message)


def _summary(found: Any) -> tuple[Any, ...]:
    d = found.disagreement
    detail = None if d is None else (d.kind, d.detail, d.expected, d.actual, d.clauses, d.what)
    moves = [[(m.seat, m.action, m.phase, m.forced, m.sent) for m in r.moves] for r in found.rounds]
    results = [r.result for r in found.rounds]
    return found.signature, found.steps, moves, results, detail, found.legal, found.state


@pytest.mark.parametrize("bugs", [(), BUGS])
def test_a_planned_replay_is_the_replay_request_by_request(bugs: tuple[str, ...]) -> None:
    argv = [*WRAPPED, *(f"--bug={b}" for b in bugs)]
    planned_engine, plain_engine = _Counted(argv), EngineProcess(argv)
    reference = ReferenceEndpoint()
    try:
        planned_engine.start()
        plain_engine.start()
        signatures, actions = set(), 0
        for index in range(40 if bugs else 12):
            trial = random_trial(11, index, profile="literal")
            planned = replay(trial, planned_engine, reference)
            plain = replay(trial, plain_engine, reference, plan=False)  # request by request
            assert _summary(planned) == _summary(plain), index
            signatures.add(planned.signature)
            actions += planned.actions
        if bugs:
            assert len(signatures - {None}) >= 2  # the planned path met disagreements too
        else:
            assert signatures == {None}
            assert planned_engine.round_trips * 5 < actions  # whole games in a few batches
            assert planned_engine.overlapped > 0  # one batch sent as another was answered
    finally:
        planned_engine.close()
        plain_engine.close()


@pytest.mark.parametrize("bugs", [(), BUGS])
def test_games_sent_one_behind_another_are_the_replays_one_by_one(bugs: tuple[str, ...]) -> None:
    argv = [*WRAPPED, *(f"--bug={b}" for b in bugs)]
    piped, plain_engine = _Counted(argv), EngineProcess(argv)
    reference = ReferenceEndpoint()
    trials = [random_trial(13, index, profile="literal") for index in range(30 if bugs else 10)]
    try:
        piped.start()
        plain_engine.start()
        found = [_summary(f) for f in replays(trials, piped, reference)]
        plain = [_summary(replay(t, plain_engine, reference, plan=False)) for t in trials]
        assert found == plain
        if bugs:
            assert len({f[0] for f in found} - {None}) >= 2  # games that disagreed, and after
        else:
            assert piped.started_behind == len(trials) - 1  # each sent as the last was answered
        assert not piped._posted  # no reply left due
    finally:
        piped.close()
        plain_engine.close()


def test_games_stopped_early_leave_no_reply_due() -> None:
    engine, reference = EngineProcess(REFERENCE_ARGV), ReferenceEndpoint()
    try:
        engine.start()
        trials = (random_trial(5, index, profile="literal") for index in range(4))
        games = replays(trials, engine, reference)
        assert next(games).disagreement is None  # the second game is sent by now
        games.close()
        assert not engine._posted
        assert engine.request({"type": "result"})["ok"]  # its own reply, not a late one
    finally:
        engine.close()


def test_an_engine_that_exits_amid_a_game_sent_ahead_fails_that_game_not_the_one_before() -> (
    None
):
    reference = ReferenceEndpoint()
    trials = [random_trial(7, index, profile="literal") for index in range(3)]
    counted = _Counted(WRAPPED)
    try:
        counted.start()
        alone = replay(trials[0], counted, reference)
        first_game = counted.round_trips  # the hello and the first game's batches
    finally:
        counted.close()
    assert alone.disagreement is None
    # it answers those and the second game's first batch, then exits
    engine = EngineProcess([*WRAPPED, f"--exit-after={first_game + 1}"])
    try:
        engine.start()
        found = list(replays(trials, engine, reference))
    finally:
        engine.close()
    assert _summary(found[0]) == _summary(alone)  # its replies were all read before the exit
    for later in found[1:]:  # each met the exit, in a restarted engine
        assert later.disagreement is not None and later.disagreement.kind == "engine_error"
        assert "exited" in later.disagreement.detail


@pytest.mark.parametrize(
    ("odd", "words"),
    [("deep", "nests deeper than 32 levels"), ("surrogate", "lone surrogate escape")],
)
def test_a_batch_reply_too_deep_or_with_a_lone_surrogate_is_the_engines_error(
    odd: str, words: str
) -> None:
    """A planned game's replies are read without looking at their nesting and surrogates,
    which only replies that differ from the reference's can hold: those are looked at
    before the game is played again on them, and the game is the engine's error."""
    reference = ReferenceEndpoint()
    trials = [random_trial(11, index, profile="literal") for index in range(3)]
    for argv, odd_state in ((WRAPPED, None), ([*WRAPPED, f"--odd-state={odd}"], odd)):
        engine = EngineProcess(argv)
        try:
            engine.start()
            found = list(replays(trials, engine, reference))
        finally:
            engine.close()
        for game in found:
            if odd_state is None:
                assert game.disagreement is None
            else:
                assert game.disagreement is not None and game.disagreement.kind == "engine_error"
                assert words in game.disagreement.detail


def test_the_protocol_names_the_fuzzers_batch_size_and_what_it_asks_of_an_engine() -> None:
    protocol = (Path(__file__).parents[2] / "conformance" / "PROTOCOL.md").read_text("utf-8")
    words = " ".join(protocol.split())
    assert f"sends up to {CHUNK} requests a batch" in words
    assert f"well under {round(5000 / CHUNK)} ms" in words  # the default timeout, 5 s
