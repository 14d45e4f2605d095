"""Differential play: the reference engine and an engine under test, side by side.

A `Trial` pins everything a game needs: the profile and readings, the
dealer, the running totals it starts from, one deck per deal, a list of
choices, and the capabilities the engine declared. Replaying a trial plays
the same game on both engines through the protocol (the reference
in-process, its adapter's handlers called directly; the engine under test as
a process, each read asked once per state and, when it takes batches, sent
with the action before it, `engine_side.py`): at each decision the choice picks one of the
reference's legal actions that the engine has (sorted; `choice % len`;
missing choices are 0), or, from `PROBE` up, an action the reference
refuses, to check the engine refuses it too and leaves its state alone.
After every step the legal sets, the states and, when a round is over, the
results are compared; the first difference is a `Disagreement`, named by a
`signature` that groups it with others of the same kind.

Where the engine lacks a capability, the reference is played the way such
an engine plays and only what both can say is compared (`limits.py`); a
deal that needs a capability the engine lacks ends the game there, and the
replay says why (`ended`). The moves are recorded as they happened (who,
what, in which phase, whether the engine was asked) for the case writer.
"""

from __future__ import annotations

import json
import random
from bisect import bisect_left
from collections.abc import Generator, Iterable
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple, Protocol

from ... import reference_impl
from ..adapters.reference_adapter import Adapter
from ..harness.engine_process import EngineError, EngineProcess
from ..harness.protocol_notation import (
    ALL_CARDS,
    action_key,
    illegal_candidates,
)
from ..protocol.fields import clause_of
from . import limits
from .engine_side import (
    READ_REQUESTS,
    READS,
    Diverged,
    EngineSide,
    PlannedSide,
    Planner,
    PlanSender,
    Replayer,
    SentGame,
    batches,
)
from .normal import (
    MISSING,
    action_shape,
    compared_state_fields,
    differing,
    normal_legal,
    normal_results,
    normal_state,
    normal_states,
    protocol_result,
)

PROBE = 1000  # choices from here up probe an illegal action
MAX_STEPS = 400  # a safety bound on the choices of one trial
MAX_MOVES = 1200  # and on its moves, the reference-only ones included
ACTIVE = ("bidding", "raising", "playing")


class Endpoint(Protocol):
    def request(self, message: dict[str, Any]) -> dict[str, Any]: ...


class ReferenceEndpoint:
    """The reference engine, in-process, answering protocol requests: the reference
    adapter's handlers called with the request object, no JSON text either way. The
    replies share parts with later replies (`StateProjection`): read, never change them."""

    def __init__(self, api: Any = None) -> None:
        if api is None:
            api = reference_impl
        self.adapter = Adapter(api)

    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        return self.adapter.answer(message)


@dataclass(frozen=True)
class Trial:
    profile: str
    overrides: dict[str, str]
    dealer: int
    totals: list[int] | None
    decks: list[list[str]]  # decks[0] starts the game; each later one is a deal
    choices: list[int]
    label: str = ""  # where the trial came from (seed and index)
    capabilities: frozenset[str] = limits.ALL  # what the engine under test plays

    def with_(self, **changes: Any) -> Trial:
        return replace(self, **changes)


class Move(NamedTuple):  # (speed: one a move; a frozen dataclass takes three times as long)
    seat: int
    action: str
    phase: str
    forced: bool = False  # the player could only pass (an `if_asked` step)
    sent: bool = True  # False: played on the reference alone (a capability the engine lacks)


@dataclass
class RoundTrace:
    deck: list[str]
    dealer: int
    totals: list[int]
    first_step: int  # the index into choices at this round's first decision
    moves: list[Move] = field(default_factory=list)
    result: dict[str, Any] | None = None
    redeal: bool = False  # dealt because everyone passed twice
    second_session: bool = False  # its bidding reached the second session
    partial_declaration: bool = False  # a player played on with projects left undeclared


@dataclass
class Disagreement:
    # legal, state, result, accepted_illegal, refused_legal, changed_after_refusal,
    # refused_start, refused_deal, engine_error
    kind: str
    detail: str
    expected: Any
    actual: Any
    phase: str
    action: str | None = None  # the action at stake (refused, or probed)
    clauses: list[str] = field(default_factory=list)
    reference_legal: dict[str, Any] | None = None  # the reference's legal reply there
    what: str = ""  # the first differing field, the legal-set difference, the action's shape
    at_stake: list[str] = field(default_factory=list)  # actions of a legal-set difference

    @property
    def signature(self) -> str:
        """`kind:phase:what[:clause]`: disagreements with one signature are one group."""
        phase = "round_over" if self.phase == "game_over" else self.phase
        parts = [self.kind, phase, self.what or "-"]
        if self.clauses:
            parts.append(self.clauses[0])
        return ":".join(p.replace(" ", "_") for p in parts)


@dataclass
class Replay:
    trial: Trial
    rounds: list[RoundTrace]
    steps: int  # choices consumed
    disagreement: Disagreement | None
    legal: dict[str, Any] | None = None  # the reference's legal reply at the end
    state: dict[str, Any] | None = None  # the reference's state at the end
    ended: str | None = None  # the capability whose absence ended the game early

    @property
    def actions(self) -> int:
        return sum(len(r.moves) for r in self.rounds)

    @property
    def signature(self) -> str | None:
        return self.disagreement.signature if self.disagreement else None


# ---- the replay ---------------------------------------------------------------------


class _Stop(Exception):
    def __init__(self, disagreement: Disagreement) -> None:
        self.disagreement = disagreement


class _Ended(Exception):
    def __init__(self, capability: str) -> None:
        self.capability = capability


def _clauses_for(kind: str, phase: str, fields: list[str], mode: str | None) -> list[str]:
    if kind == "legal":
        return [{"bidding": "BID.2", "raising": "RAISE.1"}.get(phase, "PLAY.2")]
    # each field's clause is the schema's (`x-clause`, read by protocol/fields.py)
    context = {"phase": phase, "contract_kind": mode}
    found: list[str] = []
    for f in fields:
        clause = clause_of(kind, f, context) or "GAME.1"
        if clause not in found:
            found.append(clause)
    return found or ["GAME.1"]


def _second_session(state: dict[str, Any]) -> bool:
    bids = state.get("bids") or []
    return len(bids) >= 4 and all(
        isinstance(b, dict) and b.get("action") == "pass" for b in bids[:4]
    )


def _legal_difference(
    expected: dict[str, Any], actual: dict[str, Any]
) -> tuple[str, str, list[str]]:
    """A legal-set difference: its detail, its shape (for the signature), the actions at stake."""
    extra = sorted(set(actual["actions"]) - set(expected["actions"]))
    lacking = sorted(set(expected["actions"]) - set(actual["actions"]))
    parts, shapes = [], []
    if lacking:
        parts.append("missing " + ", ".join(lacking))
        shapes.append("missing-" + "+".join(sorted({action_shape(a) for a in lacking})))
    if extra:
        parts.append("unexpected " + ", ".join(extra))
        shapes.append("unexpected-" + "+".join(sorted({action_shape(a) for a in extra})))
    if expected["player"] != actual["player"]:
        parts.append(f"player {actual['player']} instead of {expected['player']}")
        shapes.append("player")
    return "; ".join(parts), "/".join(shapes), lacking + extra


class ReferenceSide:
    """The reference's side of a replay: its replies, each read asked once per state, as of
    the engine; and what an engine that agrees with it replies (`Planner`)."""

    def __init__(self, ref: Endpoint) -> None:
        self.ref = ref
        self.reads: dict[str, dict[str, Any]] = {}  # the reference's reads, this state
        self.change: dict[str, Any] = {}  # the reference's reply to the last change

    def ok(self, message: dict[str, Any]) -> dict[str, Any]:
        """The reference's reply, which must not be an error."""
        kind = message["type"]
        if kind in READS and len(message) == 1:
            known = self.reads.get(kind)
            if known is not None:
                return known
        else:
            self.reads.clear()
        reply = self.ref.request(message)
        if not reply.get("ok") and "error" in reply:
            raise RuntimeError(f"the reference engine failed on {message}: {reply['error']}")
        if kind in READS:
            self.reads[kind] = reply
        else:
            self.change = reply
        return reply

    def read(self, kind: str) -> dict[str, Any]:
        """The reference's reply to a read (`state`, `legal`, `result`) of this state."""
        known = self.reads.get(kind)
        return known if known is not None else self.ok(READ_REQUESTS[kind])

    def as_reference(self, message: dict[str, Any]) -> dict[str, Any]:
        """What an engine that agrees with the reference replies: to a change, the
        reference's reply to the same change, made just before; to a read, its read."""
        kind = message["type"]
        return self.read(kind) if kind in READS else self.change


class _Duel:
    """One replay of a trial: the reference and the engine, move by move."""

    def __init__(
        self,
        trial: Trial,
        engine: EngineProcess,
        ref: Endpoint | ReferenceSide,
        start_timeout: float | None,
        side: EngineSide | None = None,
    ) -> None:
        self.trial = trial
        self.caps = trial.capabilities
        self.every_capability = self.caps >= limits.ALL
        self.engine = engine
        self.reference = ref if isinstance(ref, ReferenceSide) else ReferenceSide(ref)
        self.start_timeout = start_timeout
        self.rounds: list[RoundTrace] = []
        self.steps = 0
        self.moves = 0
        self.next_deck = 1
        self.skipped: dict[str, set[int]] = {"bids": set(), "raises": set()}
        self.last_legal: dict[str, Any] | None = None
        self.last_state: dict[str, Any] | None = None
        self.engine_state: dict[str, Any] = {}  # the engine's last state and legal reply
        self.engine_legal: dict[str, Any] = {}
        self.engine_side = side or EngineSide(engine)
        self.unsent_state = limits.unsent_state_fields(self.caps)
        self.unsent_result = limits.unsent_result_fields(self.caps)

    # -- the two engines --

    def eut(
        self, message: dict[str, Any], phase: str, then: tuple[str, ...] = ()
    ) -> dict[str, Any]:
        """The engine's reply; `then`: the reads to send with a change (`EngineSide`)."""
        try:
            if not self.engine.running:
                self.engine_side.forget()
                start_engine(self.engine, self.start_timeout)
            return self.engine_side.request(message, then)
        except EngineError as exc:
            self.engine.kill()
            raise _Stop(
                Disagreement(
                    "engine_error",
                    f"{exc.reason}: {exc.detail}",
                    None,
                    None,
                    phase,
                    reference_legal=self.reference.read("legal"),
                    what=exc.reason,
                )
            ) from None

    def after_change(self) -> tuple[str, ...]:
        """The engine's reads a replay asks for after the change just made to the reference:
        the state and the legal set, and the result when the round is over."""
        if self.ref_state()["phase"] in ("round_over", "game_over"):
            return ("state", "legal", "result")
        return ("state", "legal")

    def eut_read(self, kind: str, phase: str) -> dict[str, Any]:
        """The engine's reply to a read, as `eut` gives it (speed: most are kept already)."""
        known = self.engine_side.known.get(kind)
        if isinstance(known, dict) and self.engine.running:
            return known
        return self.eut({"type": kind}, phase)

    def ref_state(self) -> dict[str, Any]:
        state: dict[str, Any] = self.reference.read("state")["state"]
        return state

    # -- comparisons --

    def compare_state(self, expected: dict[str, Any], action: str | None) -> None:
        phase = str(expected["phase"])
        actual = self.eut_read("state", phase).get("state")
        if not isinstance(actual, dict):
            raise _Stop(
                Disagreement(
                    "engine_error", "state reply without a state", None, actual, phase, what="state"
                )
            )
        self.engine_state = actual
        as_asked = self._as_asked(expected, actual)
        if as_asked is actual or as_asked == actual:
            return  # the same values: the same normal forms (speed: most states agree as sent)
        fields = compared_state_fields(actual, self.unsent_state)
        if all(as_asked.get(k, MISSING) == actual.get(k, MISSING) for k in fields):
            return
        e, a = normal_states(as_asked, actual, fields)
        for side in (e, a):
            if isinstance(side.get("phase"), str):
                side["phase"] = limits.phase_seen(side["phase"], self.caps)
        diff = differing(e, a)
        if diff:
            mode = (expected.get("contract") or {}).get("kind")
            raise _Stop(
                Disagreement(
                    "state",
                    "state differs in " + ", ".join(diff),
                    {k: expected.get(k) for k in diff},
                    {k: actual.get(k, MISSING) for k in diff},
                    phase,
                    action,
                    _clauses_for("state", phase, diff, mode),
                    self.reference.read("legal"),
                    what=diff[0],
                )
            )

    def _as_asked(self, state: dict[str, Any], actual: dict[str, Any]) -> dict[str, Any]:
        """The reference's state as the engine may show it: an engine that did not ask a
        player who could only pass may list that pass in `bids` / `raises`, or not."""
        if not (self.skipped["bids"] or self.skipped["raises"]):
            return state
        out = dict(state)
        for key, skipped in self.skipped.items():
            if (skipped and isinstance(out.get(key), list)
                    and normal_state(actual, [key]) != normal_state(out, [key])):
                out[key] = [c for i, c in enumerate(out[key]) if i not in skipped]
        return out

    def compare_result(self, phase: str) -> None:
        expected: dict[str, Any] = self.reference.read("result")["result"]
        self.rounds[-1].result = expected
        if "projects" not in self.caps and any(expected.get("projects") or []):
            raise _Ended("projects")
        actual = self.eut_read("result", phase).get("result")
        unsent = self.unsent_result
        e, a = normal_results(expected, actual, unsent)
        if e != a:
            diff = differing(e, a) if isinstance(a, dict) else [k for k in e]
            mode = (expected.get("contract") or {}).get("kind")
            raise _Stop(
                Disagreement(
                    "result",
                    "round result differs in " + ", ".join(diff),
                    {k: protocol_result(expected).get(k) for k in diff},
                    {k: a.get(k) for k in diff} if isinstance(a, dict) else a,
                    phase,
                    None,
                    _clauses_for("result", phase, diff, mode),
                    what=diff[0] if diff else "result",
                )
            )

    def compare_legal(
        self, phase: str, reference: dict[str, Any], offered: list[str], engine: dict[str, Any]
    ) -> None:
        self.engine_legal = engine
        if engine.get("player") == reference["player"] and engine.get("actions") == offered:
            return  # the same list: the same normal forms (speed: the common case)
        e, a = normal_legal(reference, offered), normal_legal(engine)
        if e != a:
            detail, shape, at_stake = _legal_difference(e, a)
            raise _Stop(
                Disagreement(
                    "legal",
                    "legal actions differ: " + detail,
                    e,
                    a,
                    phase,
                    None,
                    _clauses_for("legal", phase, [], None),
                    reference,
                    what=shape,
                    at_stake=at_stake,
                )
            )

    # -- moves --

    def record(self, state: dict[str, Any], move: Move) -> None:
        trace = self.rounds[-1]
        trace.moves.append(move)
        self.moves += 1
        if move.phase == "bidding" and _second_session(state):
            trace.second_session = True

    def reference_only(self, state: dict[str, Any], action: str, forced: bool = False) -> None:
        phase = str(state["phase"])
        if forced and phase in ("bidding", "raising"):
            key = "bids" if phase == "bidding" else "raises"
            self.skipped[key].add(len(state.get(key) or []))
        self.reference.ok({"type": "apply", "action": action})
        self.record(state, Move(int(state["current_player"]), action, phase, forced, sent=False))

    # -- the game --

    def run(self) -> Replay:
        ended = None
        try:
            self.start()
            self.play()
        except _Stop as stop:
            return self.replay(stop.disagreement)
        except _Ended as end:
            ended = end.capability
        return self.replay(None, ended)

    def replay(self, disagreement: Disagreement | None, ended: str | None = None) -> Replay:
        return Replay(
            self.trial,
            self.rounds,
            self.steps,
            disagreement,
            self.last_legal,
            self.last_state,
            ended,
        )

    def start(self) -> None:
        trial = self.trial
        setup: dict[str, Any] = {
            "profile": trial.profile,
            "overrides": dict(trial.overrides),
            "dealer": trial.dealer,
            "deck": trial.decks[0],
        }
        if trial.totals is not None:
            setup["totals"] = list(trial.totals)
        totals = list(trial.totals or [0, 0])
        self.rounds.append(RoundTrace(trial.decks[0], trial.dealer, totals, 0))
        self.reference.ok({"type": "start", "setup": setup})
        reply = self.eut({"type": "start", "setup": setup}, "deal", self.after_change())
        if not reply.get("ok"):
            raise _Stop(
                Disagreement(
                    "refused_start",
                    f"the engine refused the start: {_refusal(reply)}",
                    None,
                    reply,
                    "deal",
                    reference_legal=self.reference.read("legal"),
                    what="start",
                )
            )

    def play(self) -> None:
        while self.steps < MAX_STEPS and self.moves < MAX_MOVES:
            state = self.ref_state()
            phase = str(state["phase"])
            self.last_state = state
            if phase in ("round_over", "game_over") and self.rounds[-1].result is None:
                self.compare_result(phase)  # a scoring bug shows best in the result
            if phase == "deal" and "redeal" not in self.caps:
                raise _Ended("redeal")  # everyone passed twice
            legal = self.reference.read("legal")
            if phase in ACTIVE and self.by_capability(state, legal):
                continue
            moves = self.rounds[-1].moves
            self.compare_state(state, moves[-1].action if moves else None)
            self.last_legal = legal
            if self.finished(phase):
                offered = limits.playable(legal["actions"], phase, self.caps)
                self.compare_legal(phase, legal, offered, self.eut_read("legal", phase))
                return
            if phase in ("round_over", "deal"):
                self.deal(phase)
                continue
            self.decide(state, legal)

    def finished(self, phase: str) -> bool:
        if phase == "game_over":
            return True
        if phase == "round_over" and "game_score" not in self.caps:
            return True
        return phase in ("round_over", "deal") and self.next_deck >= len(self.trial.decks)

    def by_capability(self, state: dict[str, Any], legal: dict[str, Any]) -> bool:
        """Play the reference alone where the engine lacks a capability; True when it did."""
        if self.every_capability:
            return False
        phase = str(state["phase"])
        if phase == "bidding" and "second_session" not in self.caps and _second_session(state):
            raise _Ended("second_session")
        if phase == "raising" and "raises" not in self.caps:
            self.reference_only(state, "pass")
            return True
        actions = [str(a) for a in legal["actions"]]
        if phase == "playing" and "projects" in self.caps and "declarations" not in self.caps:
            declarations = sorted(a for a in actions if a.startswith("declare "))
            if declarations:
                self.reference_only(state, declarations[0])
                return True
        if "pass_only_turns" not in self.caps and limits.playable(actions, phase, self.caps) == [
            "pass"
        ]:
            engine = self.eut_read("state", phase).get("state") or {}
            engine_phase = limits.phase_seen(str(engine.get("phase")), self.caps)
            if (engine_phase, engine.get("current_player")) != (phase, legal.get("player")):
                self.reference_only(state, "pass", forced=True)
                return True
        return False

    def deal(self, phase: str) -> None:
        deck = self.trial.decks[self.next_deck]
        self.next_deck += 1
        self.reference.ok({"type": "deal", "deck": deck})
        after = self.ref_state()
        self.rounds.append(
            RoundTrace(
                deck, after["dealer"], list(after["totals"]), self.steps, redeal=phase == "deal"
            )
        )
        self.skipped = {"bids": set(), "raises": set()}
        reply = self.eut({"type": "deal", "deck": deck}, phase, self.after_change())
        if not reply.get("ok"):
            raise _Stop(
                Disagreement(
                    "refused_deal",
                    f"the engine refused the deal: {_refusal(reply)}",
                    None,
                    reply,
                    phase,
                    reference_legal=self.reference.read("legal"),
                    what="deal",
                )
            )

    def decide(self, state: dict[str, Any], legal: dict[str, Any]) -> None:
        phase = str(state["phase"])
        actions: list[str] = legal["actions"]  # the reference's texts: read, never changed
        offered = limits.playable(actions, phase, self.caps)
        self.compare_legal(phase, legal, offered, self.eut_read("legal", phase))
        choice = self.trial.choices[self.steps] if self.steps < len(self.trial.choices) else 0
        self.steps += 1
        if choice >= PROBE:
            self.probe(state, actions, legal, choice - PROBE)
            return
        if not offered:
            raise _Ended(phase)  # nothing this engine can play here
        action = _options(offered)[choice % len(offered)]
        seat = int(state["current_player"])
        if (
            phase == "playing"
            and action.startswith("play ")
            and not state.get("trick_winners")
            and any(a.startswith("declare ") for a in actions)
        ):
            self.rounds[-1].partial_declaration = True
        message = {"type": "apply", "action": action}  # for both: neither changes it
        self.reference.ok(message)
        forced = len(offered) == 1 and action == "pass"  # the player could only pass
        self.record(state, Move(seat, action, phase, forced))
        reply = self.eut(message, phase, self.after_change())
        if not reply.get("ok"):
            raise _Stop(
                Disagreement(
                    "refused_legal",
                    f"the engine refused the legal action {action!r}: {_refusal(reply)}",
                    None,
                    reply,
                    phase,
                    action,
                    _clauses_for("legal", phase, [], None),
                    self.reference.read("legal"),
                    what=action_shape(action),
                )
            )

    def probe(
        self, state: dict[str, Any], actions: list[str], legal: dict[str, Any], pick: int
    ) -> None:
        phase = str(state["phase"])
        candidates = limits.playable(illegal_candidates(phase, state, actions), phase, self.caps)
        if not candidates:
            return
        action = candidates[pick % len(candidates)]
        refusal = self.reference.ok({"type": "apply", "action": action})
        if refusal.get("ok"):
            raise RuntimeError(f"the reference accepted the probe {action!r}")
        reply = self.eut({"type": "apply", "action": action}, phase, ("legal", "state"))
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
                    legal,
                    what=action_shape(action),
                )
            )
        after_reply = self.eut_read("legal", phase)
        after_state = self.eut_read("state", phase).get("state") or {}
        before_state = self.engine_state
        if after_state == before_state and after_reply == self.engine_legal:
            return  # as sent before: the same normal forms (speed: a refusal changes nothing)
        after_legal = normal_legal(after_reply)
        fields = compared_state_fields(after_state, self.unsent_state)
        before, after = normal_states(before_state, after_state, fields)
        if after != before or after_legal != normal_legal(self.engine_legal):
            raise _Stop(
                Disagreement(
                    "changed_after_refusal",
                    f"the state changed after the refused action {action!r}",
                    before_state,
                    after_state,
                    phase,
                    action,
                    clauses,
                    legal,
                    what=action_shape(action),
                )
            )


def _options(offered: list[str]) -> list[str]:
    """The actions a choice indexes. The reference lists its actions in an order of its own:
    a choice indexes them sorted, so a trial plays the same game however that order changes;
    `pass` first, so that shrinking (towards choice 0) passes where it can."""
    ordered = sorted(offered)
    first = bisect_left(ordered, "declare ")  # where declarations sort, if any (speed)
    if first < len(ordered) and ordered[first].startswith("declare "):
        return sorted(offered, key=lambda a: (a != "pass", action_key(a), a))  # by their cards
    passes = ordered.count("pass")  # most turns have no pass (the cards of a trick)
    if passes:
        return ["pass"] * passes + [a for a in ordered if a != "pass"]
    return ordered


def _refusal(reply: dict[str, Any]) -> str:
    refused = reply.get("refused")
    if isinstance(refused, dict) and refused.get("reason"):
        return str(refused["reason"])
    return json.dumps(reply)[:200]


def start_engine(engine: EngineProcess, start_timeout: float | None) -> dict[str, Any]:
    """Launch the engine and shake hands, allowing `start_timeout` seconds for the hello."""
    if start_timeout is None:
        return engine.start()
    per_reply = engine.timeout
    engine.timeout = start_timeout
    try:
        return engine.start()
    finally:
        engine.timeout = per_reply


def replay(
    trial: Trial,
    engine: EngineProcess,
    reference: Endpoint | None = None,
    *,
    start_timeout: float | None = None,
    plan: bool = True,
) -> Replay:
    """Play the trial on both engines; stop at the first disagreement.

    With an engine that runs, takes batches and has every capability, the game is
    planned first and sent in a few batches (`engine_side.py`); the replay is the
    one request by request would give, which is played whenever the plan fails (and
    always with `plan=False`)."""
    reference = reference or ReferenceEndpoint()
    if plan and _plannable(trial, engine):
        sender = PlanSender(engine)
        sent = _sent(trial, sender, reference, start_timeout)
        if sent is not None:
            return _checked(sent, sender, reference, start_timeout)
        sender.settle()
    return _Duel(trial, engine, reference, start_timeout).run()


def replays(
    trials: Iterable[Trial],
    engine: EngineProcess,
    reference: Endpoint | None = None,
    *,
    start_timeout: float | None = None,
) -> Generator[Replay, None, None]:
    """Each trial's replay, in order, as `replay` gives it.

    While the engine answers the last batches of one game, the next game is planned
    and sent behind them, so neither side waits between games. When a game's
    replies are not all the reference's, the next game's batches are read and
    dropped before that game is looked at again, and the next game is played as
    `replay` plays it; the one after is sent ahead again once a game's replies are
    all the reference's."""
    reference = reference or ReferenceEndpoint()
    sender = PlanSender(engine)
    sent: _Sent | None = None  # a game planned and sent, its replies not yet read
    try:
        for trial in trials:
            ahead = None
            if sent is not None and _plannable(trial, engine):
                ahead = _sent(trial, sender, reference, start_timeout)  # behind `sent`
            if sent is not None:
                found = _matched(sent, sender)
                if found is not None and ahead is not None:
                    yield found
                    sent = ahead
                    continue
                sender.settle()  # the game sent ahead, if any, is played again below
                yield found or _unmatched(sent, reference, start_timeout)
                sent = None
            if _plannable(trial, engine):
                sent = _sent(trial, sender, reference, start_timeout)
                if sent is not None:
                    continue
                sender.settle()
            yield _Duel(trial, engine, reference, start_timeout).run()
        if sent is not None:
            yield _checked(sent, sender, reference, start_timeout)
    finally:
        sender.settle()  # replies still due (the caller stopped early) are not left behind


def _plannable(trial: Trial, engine: EngineProcess) -> bool:
    return engine.running and batches(engine.hello) and trial.capabilities == limits.ALL


class _Running(EngineProcess):
    """What a planning duel holds as its engine: one that runs (the stand-in answers every
    request), so planning never starts, kills or waits for the engine process."""

    def __init__(self) -> None:
        super().__init__(["(the plan's stand-in engine)"])

    @property
    def running(self) -> bool:
        return True


_STAND_IN = _Running()  # holds no process: one serves every plan


@dataclass
class _Sent:
    """A game planned and sent: the replay it plans, the requests and the replies the
    reference predicts, and the engine's replies as they are read (`game`)."""

    trial: Trial
    engine: EngineProcess
    plan: Replay
    planner: Planner
    game: SentGame


def _sent(
    trial: Trial, sender: PlanSender, reference: Endpoint, start_timeout: float | None
) -> _Sent | None:
    """The trial planned and sent in batches as it is planned (behind the batches the
    sender has sent before); None when the plan is not to be used (it met a
    disagreement or ended early: its batches are due all the same)."""
    ref = ReferenceSide(reference)  # the planner holds it, not the duel (no cycle to collect)
    planner = Planner(ref.as_reference, sender.add)
    duel = _Duel(trial, _STAND_IN, ref, start_timeout, PlannedSide(planner))
    try:
        plan = duel.run()
    except BaseException:
        sender.engine.kill()  # with batches sent: a late reply must not meet the next request
        raise
    game = sender.close_game()
    if plan.disagreement is not None or plan.ended is not None:
        return None
    return _Sent(trial, sender.engine, plan, planner, game)


def _matched(sent: _Sent, sender: PlanSender) -> Replay | None:
    """The planned replay, when the engine's replies are all the reference's; None when
    not, or when they could not all be read (the engine is then killed)."""
    try:
        replies = sender.replies(sent.game)
    except EngineError:
        sent.engine.kill()  # a late reply must not meet the next request
        return None
    # replies equal to the reference's are as deep as its, with no lone surrogate: their
    # lines are looked at only when they differ (`_unmatched`)
    return sent.plan if replies == sent.planner.predicted else None


def _unmatched(sent: _Sent, reference: Endpoint, start_timeout: float | None) -> Replay:
    """The replay of a game whose replies were not all the reference's: played again on
    the engine's replies (`Replayer`), and when that meets a disagreement or leaves the
    plan (or the replies could not all be read, or one is too deep or holds a lone
    surrogate, `SentGame.shape_error`), against the engine, request by
    request, as without the plan. Played on the replies, the duel holds the stand-in:
    the engine process, killed or running, is left alone."""
    trial, engine = sent.trial, sent.engine
    if sent.game.complete and sent.game.shape_error() is None:
        side = EngineSide(Replayer(sent.planner, sent.game.got))
        try:
            found = _Duel(trial, _STAND_IN, reference, start_timeout, side).run()
        except Diverged:
            pass
        else:
            if found.disagreement is None and found.ended is None:
                return found
    return _Duel(trial, engine, reference, start_timeout).run()


def _checked(
    sent: _Sent, sender: PlanSender, reference: Endpoint, start_timeout: float | None
) -> Replay:
    """The replay of a game sent, nothing sent behind it."""
    return _matched(sent, sender) or _unmatched(sent, reference, start_timeout)


# ---- random trials ---------------------------------------------------------------------


def shuffled(rng: random.Random) -> list[str]:
    deck = list(ALL_CARDS)
    rng.shuffle(deck)
    return deck


def _choices(rng: random.Random, probes: float) -> list[int]:
    """`MAX_STEPS` choices: each a probe (from `PROBE` up) with chance `probes`, and a number
    below 64. Drawn as `rng.randrange(64)` draws it, from 7 random bits until they are
    below 64 (speed: a trial draws hundreds; the tests check the two agree)."""
    chance, bits = rng.random, rng.getrandbits
    out = []
    for _ in range(MAX_STEPS):
        probe = chance() < probes
        pick = bits(7)
        while pick >= 64:
            pick = bits(7)
        out.append(PROBE + pick if probe else pick)
    return out


INTERESTING_TOTALS = (0, 50, 99, 100, 101, 120, 140, 145, 150, 151)


def random_trial(
    seed: int | str,
    index: int,
    *,
    profile: str,
    base: dict[str, str] | None = None,
    readings: dict[str, list[str]] | None = None,
    game_rounds: int = 2,
    totals: bool = True,
    probes: float = 0.05,
    capabilities: frozenset[str] = limits.ALL,
) -> Trial:
    """The trial number `index` of a seed: the same on every machine.

    `base` is the overrides every game plays (the engine's own readings where
    they differ from the profile); `readings`, when given, the readings to
    draw others from. Without `game_score`, games are one round from 0-0.
    """
    rng = random.Random(f"baloot-fuzz:{seed}:{index}")
    overrides: dict[str, str] = dict(base or {})
    if readings:
        for variant in sorted(readings):
            options = readings[variant]
            if options and rng.random() < 0.5:
                overrides[variant] = rng.choice(sorted(options))
    start_totals: list[int] | None = None
    if totals and rng.random() < 0.4:
        start_totals = [rng.choice(INTERESTING_TOTALS), rng.choice(INTERESTING_TOTALS)]
    rounds = max(1, game_rounds)
    if "game_score" not in capabilities:
        start_totals, rounds = None, 2  # one round, and a deck for a new deal
    decks = [shuffled(rng) for _ in range(rounds)]
    choices = _choices(rng, probes)
    return Trial(
        profile,
        dict(sorted(overrides.items())),
        rng.randrange(4),
        start_totals,
        decks,
        choices,
        f"seed {seed}, game {index}",
        capabilities,
    )
