"""A shrunk disagreement as a conformance case, in the pack's format.

The expected values are the reference engine's at the point of the
disagreement (the full legal sets and states: the runner leaves out what an
engine without a capability cannot show). The moves become steps that name
the seat: `"0: hokum"`, `"3: play 10S"`; a turn where the player could only
pass is `{"if_asked": "2: pass"}`; a raising phase everyone passed through is
`{"repeat": "pass", "while_phase": "raising"}` (which an engine without
raises plays through too).

`capabilities` lists what the case needs, by the rules of `case_needs.py`:
raises for a raising step that is not a repeat (or a check in the raising
phase), each raise and ashkal taken, the second session and a new deal when
the bidding reached them, pass_only_turns when a legal set checked is `pass`
alone, projects when one is declared or scores, declarations when a player
played on with a project still on offer (or a declaration is the case's
subject), game_score when the case plays on after a round or expects the
game to end.

`requires` pins the readings the trial set on top of the profile (the
engine's own overrides, and any drawn by `--vary-readings`), and the reading
of every variant that bears on the case's clauses;
the `working` lines name the profile, so the case means the same when run
under it. They also say where the case came from, the hands dealt, and that
the expected values must be checked against the rules before the case joins
the pack.

`write_case_file` writes a case into a folder that is a pack of its own: beside the
case files a `pack.json` (`FUZZ_PACK`, at the built-in pack's version and protocol, as
the cases are made from the same rules), written once and never over another, so
`baloot conform --engine ... --cases DIR` reruns the folder as it is.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from ..harness.clauses import known_clause_ids
from ..harness.deal_layout import first_hands
from ..harness.declared import CAPABILITIES
from ..harness.pack import case_from_json, default_pack_folder, load_manifest
from ..harness.variants import Register, load_register
from ..pack_tools.case_needs import annotated, case_needs
from . import limits
from .driver import Disagreement, Move, Replay, RoundTrace
from .normal import protocol_result

REPEAT_RAISING_PASSES = {"repeat": "pass", "while_phase": "raising"}
_NEEDS_OF_FIELD = {
    "raises": {"raises"},
    "locked": {"raises"},
    "multiplier": {"raises"},
    "declarations": {"projects", "declarations"},
    "projects": {"projects"},
}


def pins_for(
    profile: str, overrides: dict[str, str], clauses: list[str], register: Register
) -> dict[str, str]:
    """The readings the trial set on top of the profile (the engine's own and any drawn),
    and those of the variants that bear on the clauses."""
    readings = {**register.readings_of(profile), **overrides}
    pins = dict(overrides)
    wanted = set(clauses)
    for name, info in register.variants.items():
        if wanted & set(info.clauses) and name in readings:
            pins[name] = readings[name]
    return dict(sorted(pins.items()))


def round_steps(trace: RoundTrace, open_raising: bool) -> tuple[list[Any], set[str]]:
    """A round's moves as case steps, and the capabilities those steps need.

    `open_raising`: the round ends inside its raising phase (the disagreement
    is there), so its last raising passes stay scripted."""
    steps: list[Any] = []
    needs: set[str] = set()
    moves = trace.moves
    i = 0
    while i < len(moves):
        move = moves[i]
        if move.phase == "raising":
            j = i
            while j < len(moves) and moves[j].phase == "raising":
                j += 1
            run = moves[i:j]
            closed = j < len(moves) or not open_raising
            if closed and all(m.action == "pass" for m in run):
                steps.append(dict(REPEAT_RAISING_PASSES))
            else:
                for m in run:
                    steps.append(_step(m))
                    needs |= limits.action_needs(m.action, m.phase)
            i = j
            continue
        steps.append(_step(move))
        needs |= limits.action_needs(move.action, move.phase) - {"declarations"}
        i += 1
    if trace.second_session:
        needs.add("second_session")
    if trace.redeal:
        needs.add("redeal")
    if trace.partial_declaration:
        needs |= {"projects", "declarations"}
    return steps, needs


def _step(move: Move) -> Any:
    text = f"{move.seat}: {move.action}"
    return {"if_asked": text} if move.forced else text


def _needs_of(d: Disagreement) -> set[str]:
    """What the case's subject needs: the fields that differ, the actions at stake."""
    fields = [d.what, *(d.expected if isinstance(d.expected, dict) else {})]
    needs: set[str] = set()
    if d.kind in ("state", "result"):
        for f in fields:
            needs |= _NEEDS_OF_FIELD.get(f, set())
    if d.phase == "raising" and d.kind in ("legal", "state"):
        needs.add("raises")
        for action in d.at_stake:
            needs |= limits.action_needs(action, d.phase)
    if d.action and d.kind in ("accepted_illegal", "changed_after_refusal", "refused_legal"):
        needs |= limits.action_needs(d.action, d.phase)
    return needs


def _expectation_needs(expected: Any) -> set[str]:
    if not isinstance(expected, dict):
        return set()
    needs: set[str] = set()
    multiplier = expected.get("multiplier")
    if expected.get("locked") is True or (isinstance(multiplier, int) and multiplier > 1):
        needs.add("raises")
    if expected.get("declarations"):
        needs.add("projects")
    projects = expected.get("projects")
    if isinstance(projects, list) and any(projects):
        needs.add("projects")
    if expected.get("game_over") is True or expected.get("winner") is not None:
        needs.add("game_score")
    return needs


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:60] or "case"


def case_id_for(replay: Replay, prefix: str = "fuzz") -> str:
    """The case's id, from its disagreement's signature."""
    d = replay.disagreement
    assert d is not None
    return f"{prefix}.{_slug(d.signature)}"


def case_from_replay(
    replay: Replay, case_id: str, engine_label: str = "", register: Register | None = None
) -> dict[str, Any]:
    """The case that reproduces the replay's disagreement."""
    d = replay.disagreement
    assert d is not None
    register = register or load_register()
    trial = replay.trial
    first = replay.rounds[0]
    last_index = len(replay.rounds) - 1
    scripts: list[list[Any]] = []
    needs: set[str] = set()
    for index, trace in enumerate(replay.rounds):
        open_raising = index == last_index and d.phase == "raising"
        steps, round_needs = round_steps(trace, open_raising)
        scripts.append(steps)
        needs |= round_needs
    needs |= _needs_of(d)
    if len(replay.rounds) > 1:
        needs.add("game_score")
    known = known_clause_ids()
    clauses = [c for c in dict.fromkeys(d.clauses) if c in known] or ["GAME.1"]
    working = [
        f"Found by `baloot fuzz` ({trial.label or 'a trial'})"
        + (f" against {engine_label}" if engine_label else "")
        + f", shrunk to {len(replay.rounds)} round(s) and {replay.actions} action(s): {d.detail}.",
        f"Played under the {trial.profile} profile with the readings pinned here; the engine "
        "declared " + (", ".join(sorted(trial.capabilities)) or "no capabilities") + ".",
        "First hands (dealer "
        + str(first.dealer)
        + "): "
        + "; ".join(
            f"seat {s} {' '.join(h)}" for s, h in enumerate(first_hands(first.deck, first.dealer))
        )
        + f"; face-up {first.deck[20]}.",
        "The expected values are the reference engine's; work them out from the rules "
        "before adding the case to the pack.",
    ]
    case: dict[str, Any] = {
        "id": case_id,
        "kind": "legal",
        "title": f"fuzz: {d.detail}"[:160],
        "clauses": clauses,
        "requires": pins_for(trial.profile, trial.overrides, clauses, register),
        "capabilities": [],
        "working": working,
        "setup": {"dealer": first.dealer, "deck": list(first.deck)},
        "actions": scripts[0],
        "expect": {},
    }
    if trial.totals is not None:
        case["setup"]["totals"] = list(trial.totals)
    if len(replay.rounds) > 1:
        _as_game(case, replay, scripts, d)
    else:
        _as_single(case, replay, d)
    for key in ("result", "state"):
        needs |= _expectation_needs(case["expect"].get(key))
    checked = [case["expect"], *(s["expect_legal"] for s in scripts[-1] if "expect_legal" in s)]
    for legal in (c["actions"] for c in checked if "actions" in c):
        if legal == ["pass"]:  # only an engine that asks pass-only turns shows it
            needs.add("pass_only_turns")
        if d.phase == "raising":  # a legal set checked in the raising phase needs its raises
            for action in legal:
                needs |= limits.action_needs(action, "raising")
    case["capabilities"] = sorted(needs & set(CAPABILITIES))
    if not case["requires"]:
        del case["requires"]
    # the seats, pass-only turns and capabilities exactly as `baloot conform needs` finds
    # them (a turn pass-only under another reading included), where the script replays
    found = case_needs(case_from_json(case, "fuzz.json"), register)
    return annotated(case, found) if found.problem is None else case


def _as_game(
    case: dict[str, Any], replay: Replay, scripts: list[list[Any]], d: Disagreement
) -> None:
    case["kind"] = "game"
    case["then"] = [
        {"deck": list(r.deck), "actions": steps}
        for r, steps in zip(replay.rounds[1:], scripts[1:], strict=True)
    ]
    finished = [r.result for r in replay.rounds if r.result is not None]
    last = d.kind == "result" or not finished
    result = replay.rounds[-1].result if last else finished[-1]
    case["expect"] = {"result": protocol_result(result) if result else {}}
    steps = case["then"][-1]["actions"]
    if d.kind == "state" and isinstance(d.expected, dict):
        case["expect"]["state"] = d.expected
    elif d.kind != "result" and d.reference_legal is not None:
        # a check at the point of the disagreement, before the game's expectation
        legal = d.reference_legal
        steps.append({"expect_legal": _legal_expectation(legal)})


def _legal_expectation(legal: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {"actions": list(legal.get("actions") or [])}
    if legal.get("player") is not None:
        out["player"] = legal["player"]
    return out


def _as_single(case: dict[str, Any], replay: Replay, d: Disagreement) -> None:
    if d.kind == "result":
        case["kind"] = "round"
        result = replay.rounds[-1].result
        case["expect"] = {"result": protocol_result(result) if result else d.expected}
    elif d.kind in ("accepted_illegal", "changed_after_refusal"):
        case["kind"] = "illegal"
        case["expect"] = {"action": d.action}
    elif d.kind == "state":
        case["expect"] = {**_legal_expectation(d.reference_legal or {}), "state": d.expected}
    else:  # legal, refused_legal, refused_start, refused_deal, engine_error
        case["expect"] = _legal_expectation(d.reference_legal or replay.legal or {})


FUZZ_PACK = "baloot-fuzz"
MANIFEST = "pack.json"


def pack_manifest() -> dict[str, Any]:
    """The `pack.json` of a folder of fuzz cases: the built-in pack's version and
    protocol under another name."""
    _, version, protocol = load_manifest(default_pack_folder(), [])
    return {
        "name": FUZZ_PACK,
        "version": version,
        "protocol": protocol,
        "description": "Disagreements found by `baloot fuzz`, shrunk to cases; the expected "
        "values are the reference engine's. Rerun them with "
        "`baloot conform --engine COMMAND --cases THIS_FOLDER`.",
    }


def write_case_file(out: Path, case: dict[str, Any]) -> Path:
    """Write `case` as `OUT/<id>.json`, and `OUT/pack.json` when the folder has none, so
    the folder is a pack the runner reads as it is; the case file's path."""
    out.mkdir(parents=True, exist_ok=True)
    manifest = out / MANIFEST
    if not manifest.exists():
        manifest.write_text(json.dumps(pack_manifest(), indent=2) + "\n", encoding="utf-8")
    path = out / f"{case['id']}.json"
    document = {"description": "Found by baloot fuzz.", "cases": [case]}
    path.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    return path
