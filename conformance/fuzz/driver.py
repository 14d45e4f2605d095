"""Differential play: the reference engine and an engine under test, side by side.

A `Trial` pins everything a game needs: the profile and readings, the
dealer, the running totals it starts from, one deck per deal, and a list of
choices. Replaying a trial plays the same game on both engines through the
protocol (the reference in-process, through the reference adapter's request
handler; the engine under test as a process): at each decision the choice
picks one of the reference's legal actions, sorted (`choice % len(legal)`; missing
choices are 0), or, from `PROBE` up, an action the reference refuses, to
check the engine refuses it too and leaves its state alone. After every
step the legal sets, the states and, when a round is over, the results are
compared; the first difference is a `Disagreement`.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from ..engine_process import EngineError, EngineProcess
from ..notation import ALL_CARDS, PROJECT_KINDS, RAISE_CALLS, SUITS
from ..reference_adapter import Adapter
from ..schemas import result_fields, state_fields

PROBE = 1000  # choices from here up probe an illegal action
MAX_STEPS = 400  # a safety bound on the actions of one trial

STATE_REQUIRED, STATE_OPTIONAL = state_fields()
RESULT_FIELDS = result_fields()
CONTRACT_FIELDS = ("kind", "trump", "bidder")


class Endpoint(Protocol):
    def request(self, message: dict[str, Any]) -> dict[str, Any]: ...


class ReferenceEndpoint:
    """The reference engine, in-process, answering protocol requests."""

    def __init__(self, api: Any = None) -> None:
        if api is None:
            import baloot.reference_impl

            api = baloot.reference_impl
        self.adapter = Adapter(api)
        self.seq = 0

    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        self.seq += 1
        return self.adapter.handle(json.dumps({"seq": self.seq, **message}))


@dataclass(frozen=True)
class Trial:
    profile: str
    overrides: dict[str, str]
    dealer: int
    totals: list[int] | None
    decks: list[list[str]]  # decks[0] starts the game; each later one is a deal
    choices: list[int]
    label: str = ""  # where the trial came from (seed and index)

    def with_(self, **changes: Any) -> Trial:
        return replace(self, **changes)


@dataclass
class RoundTrace:
    deck: list[str]
    dealer: int
    totals: list[int]
    first_step: int  # the index into choices at this round's first decision
    actions: list[str] = field(default_factory=list)
    result: dict[str, Any] | None = None


@dataclass
class Disagreement:
    # legal, state, result, accepted_illegal, refused_legal, changed_after_refusal, engine_error
    kind: str
    detail: str
    expected: Any
    actual: Any
    phase: str
    action: str | None = None  # the action at stake (refused, or probed)
    clauses: list[str] = field(default_factory=list)
    reference_legal: dict[str, Any] | None = None  # the reference's legal reply there


@dataclass
class Replay:
    trial: Trial
    rounds: list[RoundTrace]
    steps: int  # choices consumed
    disagreement: Disagreement | None
    legal: dict[str, Any] | None = None  # the reference's legal reply at the end
    state: dict[str, Any] | None = None  # the reference's state at the end

    @property
    def actions(self) -> int:
        return sum(len(r.actions) for r in self.rounds)


# ---- normal forms ----------------------------------------------------------------


def _action_key(action: str) -> str:
    words = action.split(" ")
    if words[0] == "declare" and len(words) > 2:
        return " ".join([*words[:2], *sorted(words[2:])])
    return action


def normal_legal(reply: dict[str, Any]) -> dict[str, Any]:
    return {
        "player": reply.get("player"),
        "actions": sorted(_action_key(str(a)) for a in reply.get("actions") or []),
    }


def _projects(value: Any) -> Any:
    if not isinstance(value, list):
        return value
    return sorted(
        (
            json.dumps(
                {**p, "cards": sorted(p.get("cards", []))} if isinstance(p, dict) else p,
                sort_keys=True,
            )
            for p in value
        ),
    )


def normal_state(state: dict[str, Any], fields: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key in fields:
        value = state.get(key, "<missing>")
        if key == "hands" and isinstance(value, list):
            value = [sorted(h) if isinstance(h, list) else h for h in value]
        elif key == "contract" and isinstance(value, dict):
            value = {k: value.get(k) for k in CONTRACT_FIELDS}
        elif key == "declarations":
            value = _projects(value)
        out[key] = value
    return out


def normal_result(result: Any) -> Any:
    if not isinstance(result, dict):
        return result
    out: dict[str, Any] = {}
    for key in RESULT_FIELDS:
        value = result.get(key, "<missing>")
        if key == "contract" and isinstance(value, dict):
            value = {k: value.get(k) for k in CONTRACT_FIELDS}
        elif key == "projects" and isinstance(value, list):
            value = [_projects(team) for team in value]
        out[key] = value
    return out


def protocol_result(result: dict[str, Any]) -> dict[str, Any]:
    """The reference's result cut to the protocol's fields (for a case's expectation)."""
    out = {k: result[k] for k in RESULT_FIELDS if k in result}
    if isinstance(out.get("contract"), dict):
        out["contract"] = {k: out["contract"].get(k) for k in CONTRACT_FIELDS}
    return out


def differing(expected: dict[str, Any], actual: dict[str, Any]) -> list[str]:
    return [k for k in expected if expected[k] != actual.get(k)]


# ---- illegal actions to probe ------------------------------------------------------


def illegal_candidates(phase: str, state: dict[str, Any], legal: list[str]) -> list[str]:
    """Actions of the phase's vocabulary that the reference does not allow now."""
    if phase == "bidding":
        vocabulary = ["pass", "hokum", "sun", "ashkal", *(f"hokum {s}" for s in SUITS), "double"]
    elif phase == "raising":
        vocabulary = ["pass", *RAISE_CALLS, "double closed", "double open", "sun"]
    elif phase == "playing":
        seat = state.get("current_player")
        hands = state.get("hands") or []
        hand = hands[seat] if isinstance(seat, int) and seat < len(hands) else []
        others = [c for c in ALL_CARDS if c not in hand][:3]
        vocabulary = [f"play {c}" for c in [*hand, *others]]
        if len(hand) >= 3:
            vocabulary.append(f"declare {PROJECT_KINDS[0]} " + " ".join(hand[:3]))
        vocabulary.append("pass")
    else:
        return []
    allowed = {_action_key(a) for a in legal}
    return [a for a in vocabulary if _action_key(a) not in allowed]


# ---- the replay ---------------------------------------------------------------------


class _Stop(Exception):
    def __init__(self, disagreement: Disagreement) -> None:
        self.disagreement = disagreement


def _clauses_for(kind: str, phase: str, fields: list[str], mode: str | None) -> list[str]:
    by_field = {
        "hands": ["SETUP.5"],
        "contract": ["BID.1"],
        "trick_winners": ["PLAY.3"],
        "totals": ["SCORE.9"],
        "multiplier": ["RAISE.1"],
        "raises": ["RAISE.1"],
        "declarations": ["PROJ.2"],
        "current_player": ["PLAY.4"] if phase == "playing" else ["BID.2"],
        "phase": ["GAME.1"],
        "locked": ["RAISE.2"],
        "dealer": ["SETUP.3"],
        "face_up": ["SETUP.4"],
        "bids": ["BID.2"],
        "trick": ["PLAY.2"],
        "card_bunts": ["SCORE.1"],
        "last_trick_bunts": ["SCORE.2"],
        "points": ["SCORE.7"] if mode == "sun" else ["SCORE.8"],
        "success": ["SCORE.9"],
        "added": ["SCORE.10"],
        "kaboot": ["SCORE.11"],
        "game_over": ["END.1"],
        "winner": ["END.1"],
        "projects": ["PROJ.2"],
    }
    if kind == "legal":
        return {"bidding": ["BID.2"], "raising": ["RAISE.1"]}.get(phase, ["PLAY.2"])
    found: list[str] = []
    for f in fields:
        for c in by_field.get(f, []):
            if c not in found:
                found.append(c)
    return found or ["GAME.1"]


def replay(trial: Trial, engine: EngineProcess, reference: Endpoint | None = None) -> Replay:
    """Play the trial on both engines; stop at the first disagreement."""
    ref = reference or ReferenceEndpoint()
    rounds: list[RoundTrace] = []
    steps = 0
    last_legal: dict[str, Any] | None = None
    last_state: dict[str, Any] | None = None

    def eut(message: dict[str, Any], phase: str) -> dict[str, Any]:
        try:
            if not engine.running:
                engine.start()
            return engine.request(message)
        except EngineError as exc:
            engine.kill()
            raise _Stop(
                Disagreement("engine_error", f"{exc.reason}: {exc.detail}", None, None, phase)
            ) from None

    def reference_ok(message: dict[str, Any]) -> dict[str, Any]:
        reply = ref.request(message)
        if not reply.get("ok") and "error" in reply:
            raise RuntimeError(f"the reference engine failed on {message}: {reply['error']}")
        return reply

    def compare_state(phase: str, action: str | None = None) -> dict[str, Any]:
        expected: dict[str, Any] = reference_ok({"type": "state"})["state"]
        actual = eut({"type": "state"}, phase).get("state")
        if not isinstance(actual, dict):
            raise _Stop(
                Disagreement("engine_error", "state reply without a state", expected, actual, phase)
            )
        fields = list(STATE_REQUIRED) + [k for k in STATE_OPTIONAL if k in actual]
        e, a = normal_state(expected, fields), normal_state(actual, fields)
        diff = differing(e, a)
        if diff:
            mode = (expected.get("contract") or {}).get("kind")
            raise _Stop(
                Disagreement(
                    "state",
                    "state differs in " + ", ".join(diff),
                    {k: expected.get(k) for k in diff},
                    {k: actual.get(k) for k in diff},
                    phase,
                    action,
                    _clauses_for("state", phase, diff, mode),
                    reference_ok({"type": "legal"}),
                )
            )
        return expected

    def compare_result(phase: str) -> dict[str, Any]:
        expected: dict[str, Any] = reference_ok({"type": "result"})["result"]
        rounds[-1].result = expected
        actual = eut({"type": "result"}, phase).get("result")
        e, a = normal_result(expected), normal_result(actual)
        if e != a:
            diff = differing(e, a) if isinstance(a, dict) else list(RESULT_FIELDS)
            mode = (expected.get("contract") or {}).get("kind") if expected else None
            raise _Stop(
                Disagreement(
                    "result",
                    "round result differs in " + ", ".join(diff),
                    {k: protocol_result(expected).get(k) for k in diff} if expected else e,
                    {k: a.get(k) for k in diff} if isinstance(a, dict) else a,
                    phase,
                    None,
                    _clauses_for("result", phase, diff, mode),
                )
            )
        return expected

    def compare_legal(phase: str) -> dict[str, Any]:
        expected = reference_ok({"type": "legal"})
        actual = eut({"type": "legal"}, phase)
        e, a = normal_legal(expected), normal_legal(actual)
        if e != a:
            extra = sorted(set(a["actions"]) - set(e["actions"]))
            lacking = sorted(set(e["actions"]) - set(a["actions"]))
            parts = []
            if lacking:
                parts.append("missing " + ", ".join(lacking))
            if extra:
                parts.append("unexpected " + ", ".join(extra))
            if e["player"] != a["player"]:
                parts.append(f"player {a['player']} instead of {e['player']}")
            raise _Stop(
                Disagreement(
                    "legal",
                    "legal actions differ: " + "; ".join(parts),
                    e,
                    a,
                    phase,
                    None,
                    _clauses_for("legal", phase, [], None),
                )
            )
        return expected

    try:
        setup: dict[str, Any] = {
            "profile": trial.profile,
            "overrides": dict(trial.overrides),
            "dealer": trial.dealer,
            "deck": trial.decks[0],
        }
        if trial.totals is not None:
            setup["totals"] = list(trial.totals)
        reference_ok({"type": "start", "setup": setup})
        reply = eut({"type": "start", "setup": setup}, "deal")
        if not reply.get("ok"):
            raise _Stop(
                Disagreement("engine_error", f"start refused: {reply}", None, reply, "deal")
            )
        rounds.append(RoundTrace(trial.decks[0], trial.dealer, list(trial.totals or [0, 0]), 0))
        next_deck = 1
        while steps < MAX_STEPS:
            ref_phase = reference_ok({"type": "state"})["state"]["phase"]
            if ref_phase in ("round_over", "game_over") and rounds[-1].result is None:
                compare_result(ref_phase)  # a scoring bug shows best in the result
            state = compare_state(rounds[-1].actions[-1] if rounds[-1].actions else "deal")
            last_state = state
            phase = state["phase"]
            if phase == "game_over" or (
                phase in ("round_over", "deal") and next_deck >= len(trial.decks)
            ):
                last_legal = compare_legal(phase)
                break
            if phase in ("round_over", "deal"):
                deck = trial.decks[next_deck]
                next_deck += 1
                reference_ok({"type": "deal", "deck": deck})
                reply = eut({"type": "deal", "deck": deck}, phase)
                if not reply.get("ok"):
                    raise _Stop(
                        Disagreement("engine_error", f"deal refused: {reply}", None, reply, phase)
                    )
                after = reference_ok({"type": "state"})["state"]
                rounds.append(RoundTrace(deck, after["dealer"], list(after["totals"]), steps))
                continue
            legal = compare_legal(phase)
            last_legal = legal
            choice = trial.choices[steps] if steps < len(trial.choices) else 0
            steps += 1
            if choice >= PROBE:
                candidates = illegal_candidates(phase, state, list(legal["actions"]))
                if not candidates:
                    continue
                action = candidates[(choice - PROBE) % len(candidates)]
                refusal = reference_ok({"type": "apply", "action": action})
                if refusal.get("ok"):
                    raise RuntimeError(f"the reference accepted the probe {action!r}")
                reply = eut({"type": "apply", "action": action}, phase)
                clauses = list(refusal.get("refused", {}).get("clauses") or [])
                if reply.get("ok"):
                    raise _Stop(
                        Disagreement(
                            "accepted_illegal",
                            f"the engine accepted {action!r}, which "
                            f"the reference refuses: {refusal['refused'].get('reason')}",
                            None,
                            None,
                            phase,
                            action,
                            clauses,
                        )
                    )
                after_legal = normal_legal(eut({"type": "legal"}, phase))
                after_state = eut({"type": "state"}, phase).get("state") or {}
                fields = list(STATE_REQUIRED) + [k for k in STATE_OPTIONAL if k in after_state]
                if normal_state(after_state, fields) != normal_state(
                    state, fields
                ) or after_legal != normal_legal(legal):
                    raise _Stop(
                        Disagreement(
                            "changed_after_refusal",
                            f"the state changed after the refused action {action!r}",
                            state,
                            after_state,
                            phase,
                            action,
                            clauses,
                        )
                    )
                continue
            # the reference lists its actions in an order of its own: a choice indexes
            # them sorted, so a trial plays the same game however that order changes
            options = sorted((str(a) for a in legal["actions"]), key=lambda a: (_action_key(a), a))
            action = options[choice % len(options)]
            reference_ok({"type": "apply", "action": action})
            reply = eut({"type": "apply", "action": action}, phase)
            rounds[-1].actions.append(action)
            if not reply.get("ok"):
                raise _Stop(
                    Disagreement(
                        "refused_legal",
                        f"the engine refused the legal action {action!r}: "
                        f"{(reply.get('refused') or {}).get('reason')}",
                        None,
                        reply,
                        phase,
                        action,
                        _clauses_for("legal", phase, [], None),
                    )
                )
    except _Stop as stop:
        return Replay(trial, rounds, steps, stop.disagreement, last_legal, last_state)
    return Replay(trial, rounds, steps, None, last_legal, last_state)


# ---- random trials ---------------------------------------------------------------------


def shuffled(rng: random.Random) -> list[str]:
    deck = list(ALL_CARDS)
    rng.shuffle(deck)
    return deck


INTERESTING_TOTALS = (0, 50, 99, 100, 101, 120, 140, 145, 150, 151)


def random_trial(
    seed: int | str,
    index: int,
    *,
    profile: str,
    readings: dict[str, list[str]] | None = None,
    game_rounds: int = 2,
    totals: bool = True,
    probes: float = 0.05,
) -> Trial:
    """The trial number `index` of a seed: the same on every machine."""
    rng = random.Random(f"baloot-fuzz:{seed}:{index}")
    overrides: dict[str, str] = {}
    if readings:
        for variant in sorted(readings):
            options = readings[variant]
            if options and rng.random() < 0.5:
                overrides[variant] = rng.choice(sorted(options))
    start_totals: list[int] | None = None
    if totals and rng.random() < 0.4:
        start_totals = [rng.choice(INTERESTING_TOTALS), rng.choice(INTERESTING_TOTALS)]
    decks = [shuffled(rng) for _ in range(max(1, game_rounds))]
    choices = [
        PROBE + rng.randrange(64) if rng.random() < probes else rng.randrange(64)
        for _ in range(MAX_STEPS)
    ]
    return Trial(
        profile,
        overrides,
        rng.randrange(4),
        start_totals,
        decks,
        choices,
        f"seed {seed}, game {index}",
    )
