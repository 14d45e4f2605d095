"""Cases written from the witnesses of surviving spec mutants.

A witness (`differential.py`) is a seeded game where a mutant and the
reference part ways. Its case replays the game up to that step and checks
everything the protocol requires there, as the reference shows it:

- the legal actions and the player to act (kind `legal`), always;
- the state's required fields (and any other field where the two differ),
  when the state differs; a hand is compared as the reference orders it only
  when its cards differ;
- the last round's result, every field the protocol requires (kind `round`),
  once a round has ended;
- when the mutant refused an action the reference took, that action is played
  and the checks are made on the step after it;
- when the mutant took an action the reference refuses (a probe), or was changed
  by refusing it, the case is of kind `illegal`: that action, to be refused with
  the state and legal set unchanged;
- a game that started from running totals near the end starts the case from them.

The case is written with the readings of the witness's profile and then cut
to minimal pins against the reference (`pins_fix.minimal_requires`), with the
scripted seats, pass-only turns and capabilities the replay finds
(`case_needs`), and carries its expectation under the other readings of its pins
(`derive.derived_alternatives`). Its origin is `synthesised`, its clauses those of the mutated
declaration, and its working lines quote those clauses and say what the
mutant got wrong, so a reader checks the expectation against the rules.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from ..adapters.inprocess import InProcessEngine
from ..harness.pack import SYNTHESISED, case_from_json, seated
from ..harness.runner import ERRORED, FAILED, Runner
from ..harness.variants import load_register
from ..pack_tools.case_needs import annotated, case_needs
from ..pack_tools.derive import derived_alternatives, with_alternatives
from ..pack_tools.pins_fix import with_minimal_requires
from ..protocol.fields import optional_result_fields, result_fields, state_fields
from .differential import Step, Witness
from .live import LiveSpec
from .operators import SpecMutant
from .run import with_pins

CASE_FILE = "synthesised.json"


def case_id(mutant: SpecMutant) -> str:
    """`synth.RULE.OPERATOR.LINE-COLUMN.N`: one id per mutant (its `#N` at that place)."""
    number = mutant.id.rsplit("#", 1)[1]
    base = f"synth.{mutant.target}.{mutant.operator}.{mutant.pos.line}-{mutant.pos.column}"
    return re.sub(r"[^a-z0-9.\-]", "-", base.lower().replace("_", "-")) + f".{number}"


def _scripts(upto: list[Step]) -> tuple[list[Any], list[dict[str, Any]]]:
    """The first round's seated actions, and the later rounds (deck and actions)."""
    first: list[Any] = []
    then: list[dict[str, Any]] = []
    current = first
    for step in upto:
        if step.action is None:
            if step.deck is not None:
                then.append({"deck": list(step.deck), "actions": []})
                current = then[-1]["actions"]
            continue
        current.append(seated(step.seat, step.action) if step.seat is not None else step.action)
    return first, then


def _required_result() -> tuple[str, ...]:
    optional = optional_result_fields()[""]
    return tuple(f for f in result_fields() if f not in optional)


def _state_check(expected: dict[str, Any], actual: Any) -> dict[str, Any]:
    required, _ = state_fields()
    wanted = {k: expected[k] for k in required if k in expected}
    if isinstance(actual, dict):
        wanted.update({k: v for k, v in expected.items() if k not in wanted
                       and actual.get(k) != v and k != "current_player"})
        hands, theirs = wanted.get("hands"), actual.get("hands")
        if isinstance(hands, list) and isinstance(theirs, list) and len(hands) == len(theirs) \
                and all(sorted(map(str, a)) == sorted(map(str, b))
                        for a, b in zip(hands, theirs, strict=True)):
            del wanted["hands"]  # the same cards: their order is the engine's own
    return wanted


def case_of(live: LiveSpec, witness: Witness, mutant: SpecMutant, case_id: str
            ) -> dict[str, Any]:
    """The case JSON of one witness, before its pins are cut and its seats annotated."""
    steps = list(witness.steps)
    check = witness.at
    if witness.what == "apply" and witness.after is not None:
        steps.append(witness.at)  # the action the mutant refused is played
        check = witness.after
    first, then = _scripts(steps)
    actual = witness.actual if witness.what == "state" else None
    legal: dict[str, Any] = {"actions": sorted(check.legal)}
    if check.seat is not None:  # none to act (the round or game over): no player to check
        legal = {"player": check.seat, **legal}
    state = _state_check(check.state, actual)
    result = None if check.result is None else \
        {k: check.result[k] for k in _required_result() if k in check.result}
    expect: dict[str, Any]
    if witness.what in ("accepts", "changed"):  # a probe (first round only) it refused
        kind = "illegal"
        expect = {"action": check.probe, "state": state}
    elif then:  # a later round: a game case, its checks the last steps of that round
        kind = "game"
        then[-1]["actions"] += [{"expect_legal": legal}, {"expect_state": state}]
        expect = {"result": result}
    else:
        kind = "legal"
        expect = {**legal, "state": state}
        if result is not None:  # every field of the round's result, checked inline
            first.append({"expect_result": result})
    requires = {**load_register().readings_of(witness.profile), **witness.overrides}
    clauses = list(mutant.clauses) or ["GAME.1"]
    known = {c.id: c.text for c in live.spec.clauses}
    case: dict[str, Any] = {
        "id": case_id,
        "kind": kind,
        "title": f"{mutant.target}: the {_what_is_checked(witness)} where a mutant differs",
        "clauses": clauses,
        "origin": SYNTHESISED,
        "requires": requires,
        "setup": {"dealer": witness.dealer, "deck": list(witness.deck),
                  **({} if witness.totals is None else {"totals": list(witness.totals)})},
        "actions": first,
        "working": [
            *(f"{c}: {known[c]}" for c in clauses if c in known),
            f"The expected values are the reference engine's, playing by these clauses (rule "
            f"{mutant.target}). An engine where {mutant.description} "
            f"({mutant.pos.file}:{mutant.pos.line}) differs here: {_difference(witness)}.",
        ],
        "expect": expect,
        "note": f"Written from a witness of spec mutant {mutant.id}: seeded random play "
                f"under {witness.profile}{_from_deal(witness)} until the mutant and the "
                "reference differ (`baloot conform mutants --spec --write-cases`).",
    }
    if then:
        case["then"] = then
    return case


def _from_deal(witness: Witness) -> str:
    if witness.deal is None:
        return ""
    return (f", from the designed deal {witness.deal} (conformance/mutants/designed_deals.json"
            ", its opening actions first)")


def _what_is_checked(witness: Witness) -> str:
    return {"legal": "legal actions", "state": "state", "result": "round result",
            "seat": "player to act", "apply": "acceptance of a legal action",
            "accepts": "refusal of an illegal action", "changed": "refusal of an illegal action",
            "crash": "legal actions and state"}.get(witness.what, witness.what)


def _difference(witness: Witness) -> str:
    text = f"{witness.what}: expected {json.dumps(witness.expected)[:160]}, mutant " \
           f"{json.dumps(witness.actual, default=str)[:160]}"
    return text


def _free_id(wanted: str, taken: set[str]) -> str:
    """`wanted`, or `wanted.b`, `wanted.c`, ... when a case already has it."""
    found, letter = wanted, ord("b")
    while found in taken:
        found, letter = f"{wanted}.{chr(letter)}", letter + 1
    taken.add(found)
    return found


def write_cases(live: LiveSpec, witnesses: list[Witness], mutants: dict[str, SpecMutant],
                folder: Path, taken: set[str] | None = None) -> list[str]:
    """Write one case per witness into `folder/synthesised.json` (with a `pack.json` when
    neither the folder nor one above it has one, so that `baloot conform --cases FOLDER`
    runs it); the ids written, none of `taken` (the pack's own: a second case of a mutant
    gets a letter).
    A witness whose case does not hold on the reference, or whose pins cannot be cut, is
    left out, as is one found in a later deal before any round has ended (a first deal
    dealt again: a game case checks the result of a round played to its end), and one
    whose case, its pins cut, no longer kills the mutant under the witness's profile."""
    register = load_register()
    folder.mkdir(parents=True, exist_ok=True)
    written: list[dict[str, Any]] = []
    taken = set() if taken is None else set(taken)
    for witness in witnesses:
        mutant = mutants[witness.mutant]
        raw = case_of(live, witness, mutant, _free_id(case_id(mutant), taken))
        if raw["kind"] == "game" and raw["expect"]["result"] is None:
            continue
        raw = with_minimal_requires(raw, CASE_FILE, register)
        needs = case_needs(case_from_json(raw, CASE_FILE), register)
        if needs.steps is None:
            continue
        # the seats known, some pins may go: `if_asked` steps hold under more readings
        raw = with_minimal_requires(annotated(raw, needs), CASE_FILE, register)
        if not kills(live, mutant, raw, witness.profile):
            continue  # a pin the difference needed went with those the expectation does not
        # and its expectation under the other readings of its pins, for an engine that
        # plays another (`baloot conform derive`)
        written.append(with_alternatives(raw, derived_alternatives(raw, CASE_FILE, register)))
    (folder / CASE_FILE).write_text(json.dumps({"cases": written}, indent=1) + "\n",
                                    encoding="utf-8")
    manifest = folder / "pack.json"
    if not any((place / "pack.json").exists() for place in (folder, *folder.resolve().parents)):
        manifest.write_text(json.dumps({
            "name": "baloot-synthesised", "version": "0.0.1", "protocol": 1,
            "description": "Cases written from witnesses of surviving spec mutants.",
        }, indent=2) + "\n", encoding="utf-8")
    return [c["id"] for c in written]


def kills(live: LiveSpec, mutant: SpecMutant, raw: dict[str, Any], profile: str) -> bool:
    """Whether the case fails on the mutant under `profile` (run with the mutant's pins where
    the case leaves its variants open, as the spec-wide run runs it)."""
    case = with_pins(case_from_json(raw, CASE_FILE), tuple(mutant.pins().items()))
    with live.playing(mutant):
        status = Runner(InProcessEngine(), load_register(), profile=profile).run_case(case).status
    return status in (FAILED, ERRORED)
