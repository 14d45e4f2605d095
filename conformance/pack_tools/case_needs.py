"""What a case's script asks of an engine, found by replaying it on the reference
engine: the seat that takes each scripted action, the turns where a player can
only pass (or make calls of capabilities an engine may lack), and the
capabilities (`declared.CAPABILITIES`) the case needs.

`baloot conform needs` compares these with what each case file says, and
`--fix` writes them in. The replay runs the case under its own pins on top of
each profile; a profile under which the script does not play through is left
out (the case does not hold there, which `baloot conform pins` reports).

A capability is needed when the script or its checks reach the part of the
game it names:
- raises: an action taken in the raising phase that is not a `repeat` step
  (without raises there is no raising phase, and a `repeat` does nothing), a
  raise other than pass, or a legal-set check during the raising phase;
- raise_triple, raise_four, raise_gahwa: that raise is taken, or a legal-set
  check in the raising phase expects it;
- ashkal: `ashkal` is taken or is the refused action of an illegal case;
- second_session: the bidding reaches its second session;
- redeal: everyone passes twice and the round is dealt again;
- pass_only_turns: a legal-set check expects `pass` alone (an engine that does
  not ask such turns cannot show it; a scripted pass-only turn is an `if_asked`
  step, which such an engine skips);
- projects: a project is declared or scores, or a check expects one;
- declarations: a player plays a card while a declaration is still offered,
  or declares a project that takes away another one offered, and a score is
  checked (a choice an engine that counts projects by itself cannot make), a
  legal-set
  check expects a declaration, or a declaration is the refused action of an
  illegal case;
- game_score: the case plays further rounds or expects the game to end. (Running
  totals in the setup alone do not need it: an engine without a game score still
  reads them where a round's rules do, at the sun raise gate.)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...reference_impl import IllegalAction, new_game
from ...reference_impl.runtime import Game
from ..harness.pack import Case, Check, IfAsked, Repeat, Step, seated, split_seat
from ..harness.variants import Register

RAISE_CAPABILITY = {"triple": "raise_triple", "four": "raise_four", "gahwa": "raise_gahwa"}
OPTIONAL_CALLS = {*RAISE_CAPABILITY, "ashkal"}


class ReplayFailed(Exception):
    """The script does not play through on the reference under these readings."""


@dataclass
class Replay:
    """What one replay of a case saw."""

    steps: list[list[Any]] = field(default_factory=list)  # per script: the steps, as JSON
    needs: set[str] = field(default_factory=set)


def _word(action: str) -> str:
    return action.split(" ", 1)[0]


class _Replayer:
    def __init__(self, game: Game) -> None:
        self.game = game
        self.needs: set[str] = set()
        self.skipped_declaration = False  # a card was played while a declaration was offered
        self.checks_score = False  # a result, or the running totals, is checked

    def note_state(self) -> None:
        state = self.game.state
        if getattr(state, "session", 1) == 2:
            self.needs.add("second_session")

    def act(self, action: str, *, by_repeat: bool = False) -> int:
        game = self.game
        seat = game.current_player
        if seat is None:
            raise ReplayFailed(f"{action!r}: nobody is to act (phase {game.phase})")
        word = _word(action)
        legal = game.legal_actions()
        if game.phase == "raising":
            if not by_repeat or word != "pass":  # a pass a `repeat` makes is no raising turn
                self.needs.add("raises")
            if word in RAISE_CAPABILITY:
                self.needs.add(RAISE_CAPABILITY[word])
        if word == "ashkal":
            self.needs.add("ashkal")
        if word == "declare":
            self.needs.add("projects")
        if word == "play" and any(_word(a) == "declare" for a in legal):
            self.skipped_declaration = True
        phase_before = game.phase
        try:
            game.apply(action)
        except IllegalAction as refusal:
            raise ReplayFailed(f"{seated(seat, action)} refused: {refusal}") from None
        if phase_before == "bidding" and game.phase == "deal":
            self.needs.add("redeal")
        if word == "declare":
            # Declaring one of two overlapping projects gives up the other: a choice too.
            offered = {a for a in legal if _word(a) == "declare" and a != action}
            if not offered <= set(game.legal_actions()):
                self.skipped_declaration = True
        self.note_state()
        return seat

    def run(self, steps: list[Step], *, until_play: bool = False) -> list[Any]:
        """The steps as JSON, seated; with `until_play`, only those before the first card
        (where the last pass-only turn of the script can stand)."""
        out: list[Any] = []
        taken_in: list[str | None] = []  # the phase each step of `out` acted in, if it did
        # where in `out` the scripted raising passes in a row so far stand
        passes: list[int] = []
        for step in steps:
            if until_play and self.game.phase == "playing":
                break
            phase = self.game.phase
            if (
                isinstance(step, str)
                and split_seat(step)[1] == "pass"
                and self.game.phase == "raising"
                and (passes or not self.game.state.raises)
            ):
                passes.append(len(out))
                self._check_seat(step)
                seat = self.act("pass", by_repeat=True)
                out.append(seated(seat, "pass"))
                taken_in.append(phase)
                if self.game.phase != "raising":
                    # Nobody raised: the same as `repeat pass while raising`, which an
                    # engine without raises (no raising phase) also plays through.
                    del out[passes[0] :], taken_in[passes[0] :]
                    out.append(_repeat_json(Repeat("pass", "raising")))
                    taken_in.append(phase)
                    passes = []
                continue
            if passes:
                self.needs.add("raises")
                passes = []
            acted: str | None = phase
            if isinstance(step, Check):
                self.check(step)
                out.append({f"expect_{step.what}": step.expected})
                acted = None
            elif isinstance(step, Repeat):
                acted = None
                for _ in range(step.max):
                    if self.game.phase != step.while_phase:
                        break
                    self.act(step.action, by_repeat=True)
                    acted = phase
                out.append(_repeat_json(step))
            elif isinstance(step, IfAsked):
                if self.game.current_player == step.seat:
                    self.act(step.action)
                else:
                    acted = None
                out.append({"if_asked": seated(step.seat, step.action)})
            else:
                out.append(self.scripted(step))
            taken_in.append(acted)
        if passes:
            self.needs.add("raises")
        return _phases_written(out, taken_in)

    def _check_seat(self, step: str) -> None:
        want = split_seat(step)[0]
        if want is not None and want != self.game.current_player:
            raise ReplayFailed(f"{step!r}: the reference asks seat {self.game.current_player}")

    def scripted(self, step: str) -> Any:
        self._check_seat(step)
        action = split_seat(step)[1]
        # A turn where the seat can only pass, but for calls of capabilities an engine may
        # lack (a four, a gahwa, ashkal): an engine without them, or one that does not ask
        # pass-only turns, has no such turn.
        only_pass = all(
            a == "pass" or _word(a) in OPTIONAL_CALLS for a in self.game.legal_actions()
        )
        seat = self.act(action)
        if only_pass and action == "pass":
            return {"if_asked": seated(seat, action)}
        return seated(seat, action)

    def check(self, check: Check) -> None:
        expected = check.expected
        if check.what == "legal":
            actions = [str(a) for a in expected.get("actions", [])]
            if actions == ["pass"]:
                self.needs.add("pass_only_turns")
            if any(_word(a) == "declare" for a in actions):
                self.needs.update(("projects", "declarations"))
            if self.game.phase == "raising":
                self.needs.add("raises")
                for action in actions:
                    if _word(action) in RAISE_CAPABILITY:
                        self.needs.add(RAISE_CAPABILITY[_word(action)])
        else:
            self.note_expectation(expected, scored=check.what == "result")

    def note_expectation(self, expected: dict[str, Any], *, scored: bool = False) -> None:
        if scored or "totals" in expected:
            self.checks_score = True
        multiplier = expected.get("multiplier")
        if expected.get("phase") == "raising" or expected.get("locked") is True or (
            isinstance(multiplier, int) and multiplier > 1
        ):
            self.needs.add("raises")
        if expected.get("declarations"):
            self.needs.add("projects")
        projects = expected.get("projects")
        if isinstance(projects, list) and any(projects):
            self.needs.add("projects")
        if expected.get("game_over") is True or expected.get("winner") is not None:
            self.needs.add("game_score")


ASKED_PHASES = ("bidding", "raising")  # the phases where a pass is a call


def _phases_written(out: list[Any], taken_in: list[str | None]) -> list[Any]:
    """`out` with `phase` written on each `if_asked` step taken in one phase where the next
    step that acts does so in another where a pass is a call too: an engine that skips the
    turn asks the next seat there, and must not have the turn's pass taken (CASES.md)."""
    for index, step in enumerate(out):
        phase = taken_in[index]
        if not (isinstance(step, dict) and "if_asked" in step and phase in ASKED_PHASES):
            continue
        following = next((taken_in[j] for j in range(index + 1, len(out))
                          if taken_in[j] is not None
                          and not (isinstance(out[j], dict) and "if_asked" in out[j])), None)
        if following in ASKED_PHASES and following != phase:
            out[index] = {**step, "phase": phase}
    return out


def _repeat_json(step: Repeat) -> dict[str, Any]:
    out: dict[str, Any] = {"repeat": step.action, "while_phase": step.while_phase}
    if step.max != 8:
        out["max"] = step.max
    return out


def replay(case: Case, readings: dict[str, str], *, turns_only: bool = False) -> Replay:
    """Play the case's scripts on the reference under `readings` (every variant). With
    `turns_only`, the last script stops at its first card: the replay then tells only the
    turns asked (the capabilities it finds are not all)."""
    return _replay(case, readings, turns_only=turns_only)[1]


def played_game(case: Case, readings: dict[str, str]) -> Game:
    """The reference game after the case's scripts, played under `readings` (raises
    ReplayFailed when they do not play through)."""
    return _replay(case, readings)[0]


def _replay(case: Case, readings: dict[str, str], *,
            turns_only: bool = False) -> tuple[Game, Replay]:
    game = new_game(
        profile="literal",
        overrides=readings,
        dealer=case.dealer,
        deck=list(case.deck),
        totals=list(case.totals) if case.totals is not None else None,
    )
    replayer = _Replayer(game)
    replayer.note_state()
    out = Replay()
    out.steps.append(replayer.run(case.actions, until_play=turns_only and not case.then))
    if case.script_only:  # an alternative that stops where its readings part ways
        out.needs = replayer.needs
        return game, out
    for index, script in enumerate(case.then):
        try:
            game.deal(list(script.deck))
        except IllegalAction as refusal:
            raise ReplayFailed(f"then[{index}]: the deal is refused: {refusal}") from None
        replayer.note_state()
        last = index == len(case.then) - 1
        out.steps.append(replayer.run(script.actions, until_play=turns_only and last))
        if script.result is not None:
            replayer.note_expectation(script.result, scored=True)
    if case.then or case.kind == "game":
        replayer.needs.add("game_score")
    expect = case.expect
    if case.kind == "illegal":
        word = _word(str(expect.get("action", "")))
        if word == "declare":
            replayer.needs.update(("projects", "declarations"))
        if word == "ashkal":
            replayer.needs.add("ashkal")
        if game.phase == "raising" and (word in RAISE_CAPABILITY or word == "double"):
            replayer.needs.add("raises")
            replayer.needs.add(RAISE_CAPABILITY.get(word, "raises"))
    if case.kind == "legal":
        replayer.check(Check("legal", expect))
    for key in ("result", "state"):
        if isinstance(expect.get(key), dict):
            replayer.note_expectation(expect[key], scored=key == "result")
    if replayer.skipped_declaration and replayer.checks_score:
        # A score that depends on a project left undeclared: an engine that counts every
        # project by itself would score it.
        replayer.needs.update(("projects", "declarations"))
    result = game.round_result()
    projects = result["projects"] if result is not None else None
    if isinstance(projects, list) and any(projects):
        replayer.needs.add("projects")
    out.needs = replayer.needs
    return game, out


@dataclass
class CaseNeeds:
    """The seats and capabilities of one case, as the replays found them."""

    steps: list[list[Any]] | None  # None when no replay played through
    capabilities: list[str]
    problem: str | None = None


def case_needs(case: Case, register: Register) -> CaseNeeds:
    """Replay under the case's pins on top of each profile, and under each other reading a
    pin lists; the seats come from the first replay that plays through, a turn is
    `if_asked` when it is one in any replay, the capabilities are the union."""
    steps: list[list[Any]] | None = None
    needs: set[str] = set()
    problems: list[str] = []
    for label, readings in _replay_readings(case, register):
        try:
            seen = replay(case, readings)
        except ReplayFailed as exc:
            problems.append(f"{label}: {exc}")
            continue
        steps = seen.steps if steps is None else _merged(steps, seen.steps)
        needs |= seen.needs
    if steps is None:
        return CaseNeeds(None, sorted(needs), "; ".join(problems))
    for readings in _turn_readings(case, register):
        # Where the script plays through, a turn pass-only there is `if_asked`. The last
        # script is played up to its first card only: no turn is asked after it, and a
        # script that stops later under these readings is a case that does not hold
        # under a reading it leaves free, which `baloot conform pins` reports.
        try:
            steps = _merged(steps, replay(case, readings, turns_only=True).steps)
        except ReplayFailed:
            continue
    return CaseNeeds(steps, sorted(needs))


# The variants whose readings change who is asked in the bidding: a case that leaves one
# out holds under each of its readings, so a turn that is pass-only under one of them is
# an `if_asked` step (under A2 earlier_seat_priority, the later seats after a sun call).
TURN_VARIANTS = ("sun_overcall", "hokum_answer", "ashkal")


def _turn_readings(case: Case, register: Register) -> list[dict[str, str]]:
    found = []
    for variant in TURN_VARIANTS:
        if variant in case.requires or variant not in register.variants:
            continue
        for profile in register.profiles:
            base = {**register.readings_of(profile), **case.requires}
            found += [{**base, variant: r} for r in register.variants[variant].readings
                      if r != base[variant]]
    return found


def _replay_readings(case: Case, register: Register) -> list[tuple[str, dict[str, str]]]:
    """(label, readings): each profile with the case's first pinned readings, then each
    profile with each further reading of a pin that lists several."""
    found = [(p, {**register.readings_of(p), **case.requires}) for p in register.profiles]
    for variant, readings in case.pins.items():
        for reading in readings[1:]:
            found += [(f"{p} with {variant}={reading}",
                       {**register.readings_of(p), **case.requires, variant: reading})
                      for p in register.profiles]
    return found


def _merged(first: list[list[Any]], other: list[list[Any]]) -> list[list[Any]]:
    """The steps of two replays of one case: a turn pass-only in either is `if_asked`."""
    def one(a: Any, b: Any) -> Any:
        if isinstance(a, str) and isinstance(b, dict) and b.get("if_asked") == a:
            return b
        if (isinstance(a, dict) and isinstance(b, dict) and "if_asked" in a
                and a.get("if_asked") == b.get("if_asked") and "phase" in b):
            return {**a, "phase": b["phase"]}
        return a

    return [[one(a, b) for a, b in zip(x, y, strict=False)] + x[len(y):]
            for x, y in zip(first, other, strict=False)]


def annotated(raw: dict[str, Any], needs: CaseNeeds) -> dict[str, Any]:
    """The case's JSON with the seats and capabilities of `needs` written in; key order
    kept, `capabilities` after `requires` (or after `clauses`)."""
    out: dict[str, Any] = {}
    anchor = "requires" if "requires" in raw else "clauses"
    keep_empty = "capabilities" in raw  # a writer that always names them keeps `[]`
    for key, value in raw.items():
        if key == "capabilities":
            continue
        out[key] = value
        if key == anchor and (needs.capabilities or keep_empty):
            out["capabilities"] = list(needs.capabilities)
    if needs.steps is not None:
        out["actions"] = needs.steps[0]
        if "then" in raw:
            out["then"] = [
                {**script, "actions": steps}
                for script, steps in zip(raw["then"], needs.steps[1:], strict=True)
            ]
    return out


def needs_differ(case: Case, raw: dict[str, Any], needs: CaseNeeds) -> list[str]:
    """How a case file's seats and capabilities differ from what the replay found."""
    differences: list[str] = []
    if sorted(case.capabilities) != needs.capabilities:
        differences.append(
            f"capabilities {sorted(case.capabilities)} but the script needs {needs.capabilities}"
        )
    if needs.steps is not None:
        scripts = [raw.get("actions", [])] + [s.get("actions", []) for s in raw.get("then", [])]
        for index, (have, found) in enumerate(zip(scripts, needs.steps, strict=False)):
            if have != found:
                where = "actions" if index == 0 else f"then[{index - 1}].actions"
                step = next(i for i, (a, b) in enumerate(zip(have, found, strict=False)) if a != b)
                differences.append(
                    f"{where}[{step}] is {have[step]!r}; the reference plays it as {found[step]!r}"
                )
    return differences
