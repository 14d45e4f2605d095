"""Running a case pack through one engine process.

Each case: unless the user skipped it (`--skip`: skipped, "skipped by the
user", nothing sent), check that the engine implements the readings the case
pins (else skipped) and has the capabilities it needs (else unsupported), as its hello
declared them (`declared.py`); `start` from the pinned setup (the engine's
profile, its own readings with the case's pins on top as overrides); apply the
scripted actions, checking that the engine asks the seat each one names; `deal`
and play each further round of a game case; then check the expectation of the
case's kind. What an engine without a capability cannot show is left out of
the script and the expectations (`protocol/capability_view.py`). A failed check
fails the case; anything the engine does wrong at the protocol level errors
it, kills the engine, and the next case starts a fresh one. After
`MAX_START_FAILURES` failed starts in a row the remaining cases are errored
without trying, so a dead engine cannot stretch a run; a start that got no reply
in time counts as all of them while no start of the run has succeeded (each new start
of an engine that never answers would wait the whole timeout), and as one after. An
engine that completes its handshake but then errors on the first case of each launch
the same way (the same reason, at the same request: it exits on `start`, say) is
launched no more after `MAX_SAME_DEATHS` such launches in a row, while no case of the
run has run to a verdict (passed or failed): `run` stops launching it
(`KEEPS_DYING`), and each case left that the engine would play is errored without
trying, with one shared reason (the cases its hello rules out are still skipped or
unsupported). An errored case's
message says the likely cause of a failed start, and its `stderr` keeps the
engine's stderr around the error. With `maxfail`, the run stops once that many
cases failed or errored (a case not run for `KEEPS_DYING` does not count);
`RunReport.stopped` says why the run stopped before every case
ran (`maxfail`, or a `signal`: Ctrl-C or SIGTERM), and the report is `interrupted`
either way: it covers the cases that ran; or that it stopped launching the engine
(`KEEPS_DYING`), when the report covers every case and is not `interrupted`. The xfail list
(`xfail.py`) then turns a listed case's failure into xfailed, its pass into
xpassed; under `strict` an xpassed case fails the run (`RunReport.ok`).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from ..protocol.capability_view import CapabilityView
from ..protocol.normal_form import RESULT, STATE, comparable, normal_legal
from .case_selection import USER_SKIP, SkipList
from .compare import (
    project_onto,
    render_diff,
    subset_matches,
    without_unsent,
)
from .declared import DeclarationError, Declared, declared_from_hello
from .engine_process import (
    HANDSHAKE,
    SCHEMA,
    TIMEOUT,
    EngineError,
    EngineProcess,
    checked_reply,
    json_words,
    request_hint,
)
from .pack import Case, Check, IfAsked, Pack, Repeat, Step, split_seat
from .variants import Register
from .xfail import StaleXfail, XfailList

MAX_START_FAILURES = 3
# Seated steps in one `batch`, at most (two requests each: PROTOCOL.md asks an engine that
# takes batches to answer 144 requests within the timeout)
MAX_BATCHED_STEPS = 72
# Launches in a row that complete their handshake, then error on their first case the same
# way (reason and request), no case of the run having run to a verdict, before `run`
# launches the engine no more (`KEEPS_DYING`): the count of failed starts that stops it.
MAX_SAME_DEATHS = MAX_START_FAILURES

PASSED, FAILED, ERRORED, SKIPPED, UNSUPPORTED, XFAILED, XPASSED = (
    "passed",
    "failed",
    "errored",
    "skipped",
    "unsupported",
    "xfailed",
    "xpassed",
)
# The statuses of a case that ran to a verdict on the engine's play.
CHECKED = (PASSED, FAILED, XFAILED, XPASSED)


@dataclass
class CaseOutcome:
    case: Case
    status: str
    message: str = ""
    reason: str | None = None  # errored: the EngineError reason; skipped: USER_SKIP by --skip
    diff: str = ""
    expected: Any = None
    actual: Any = None
    seconds: float = 0.0
    xfail_reason: str | None = None
    raw_status: str | None = None  # the status before the xfail list applied
    engine_restarted: bool = False  # the engine was killed after this case
    lacking: tuple[str, ...] = ()  # skipped: the readings; unsupported: the capabilities
    # the index of the alternative played (CASES.md, "Alternatives"); None: the case's own
    alternative: int | None = None
    stderr: str = ""  # errored: the engine's stderr around the error (first, last lines)

    def alternative_readings(self) -> str | None:
        """`variant=reading, ...` of the alternative played, or None."""
        if self.alternative is None:
            return None
        return self.case.alternatives[self.alternative].describe()


# Why a run stopped before every case ran: --maxfail, Ctrl-C or SIGTERM, or an engine that
# died on the first case of each of its last MAX_SAME_DEATHS launches the same way
MAXFAIL, SIGNAL, KEEPS_DYING = "maxfail", "signal", "engine_keeps_dying"


@dataclass(frozen=True)
class Death:
    """A launch of the engine that completed its handshake, then errored on the first case
    it was given: the case, how (the `EngineError` reason), at which request, and what was
    sent and read."""

    case_id: str
    reason: str
    request: str  # the type of the request it failed at (`start`, most often)
    detail: str
    stderr: str = ""  # the engine's stderr around the error (`StderrLines.excerpt`)
    sent: str = ""  # the request's line as sent
    read: tuple[str, ...] = ()  # the lines read after it, as the transcript keeps them

    @property
    def kind(self) -> tuple[str, str]:
        """What two deaths share to count as the same: the reason and the request."""
        return self.reason, self.request

    @property
    def hint(self) -> str:
        return request_hint(self.reason, self.request)

    def not_run_message(self, launches: int) -> str:
        """The message of a case not run once the engine kept dying so (report_markdown.py
        reads it back to put the case in the row of the deaths)."""
        return (f"not run: the engine died at `{self.request}` on the first case of each of "
                f"its last {launches} launches (last: {self.detail})")


@dataclass(frozen=True)
class RunStop:
    """Why a run stopped before every case ran: `maxfail` (`--maxfail N`, `-x`: N cases
    failed or errored), `signal` (Ctrl-C or SIGTERM), or `engine_keeps_dying` (the engine
    died on the first case of each of its last `MAX_SAME_DEATHS` launches the same way,
    and was launched no more: every case is reported, those left errored, not run)."""

    reason: str
    ran: int  # the cases that ran, of
    cases: int  # the cases the run was to run
    maxfail: int | None = None  # MAXFAIL: the limit
    failures: int = 0  # the failed and errored cases when it stopped
    deaths: tuple[Death, ...] = ()  # KEEPS_DYING: the launches that died so, in order
    not_run: int = 0  # KEEPS_DYING: the cases errored without being run after the stop

    def describe(self) -> str:
        if self.reason == MAXFAIL:
            return (f"stopped after {self.failures} failed or errored case(s) "
                    f"(--maxfail {self.maxfail}), {self.ran} of {self.cases} run")
        if self.reason == KEEPS_DYING and self.deaths:
            last = self.deaths[-1]
            return (f"stopped launching the engine after case {self.ran} of {self.cases}: "
                    f"its last {len(self.deaths)} launches each died at `{last.request}` on "
                    f"their first case ({last.reason}), no case having run to a verdict; "
                    f"{self.not_run} case(s) errored, not run")
        return f"interrupted after {self.ran} of {self.cases} case(s)"

    def as_json(self) -> dict[str, Any]:
        """The JSON report's `stopped`."""
        data: dict[str, Any] = {"reason": self.reason, "ran": self.ran, "cases": self.cases}
        if self.reason == MAXFAIL:
            data |= {"maxfail": self.maxfail, "failures": self.failures}
        if self.reason == KEEPS_DYING and self.deaths:
            last = self.deaths[-1]
            data |= {"launches": len(self.deaths), "request": last.request,
                     "error": last.reason, "detail": last.detail, "hint": last.hint,
                     "died": [d.case_id for d in self.deaths], "not_run": self.not_run}
        return data | {"message": self.describe()}


@dataclass
class RunReport:
    pack: Pack
    engine_argv: list[str]
    profile: str
    hello: dict[str, Any]
    outcomes: list[CaseOutcome] = field(default_factory=list)
    engine_starts: int = 0
    unknown_xfails: list[str] = field(default_factory=list)
    seconds: float = 0.0
    declared: Declared | None = None
    declaration_error: str | None = None  # the hello could not be read
    interrupted: bool = False  # stopped (--maxfail, Ctrl-C) before every case ran
    stale_xfails: list[StaleXfail] = field(default_factory=list)
    strict: bool = False  # an unexpected pass (xpassed) fails the run
    stopped: RunStop | None = None  # why the run stopped before every case ran

    @property
    def stopped_by_maxfail(self) -> bool:
        return self.stopped is not None and self.stopped.reason == MAXFAIL

    @property
    def keeps_dying(self) -> RunStop | None:
        """The stop of a run that launched the engine no more (`KEEPS_DYING`), or None."""
        stopped = self.stopped
        return stopped if stopped is not None and stopped.reason == KEEPS_DYING else None

    def count(self, status: str) -> int:
        return sum(1 for o in self.outcomes if o.status == status)

    @property
    def checked(self) -> int:
        """The cases that ran to a verdict on the engine's play."""
        return sum(1 for o in self.outcomes if o.status in CHECKED)

    @property
    def never_started(self) -> bool:
        """The engine never completed a handshake in this run."""
        return not self.hello

    @property
    def ok(self) -> bool:
        """No case failed or errored, nor, under `strict`, passed unexpectedly."""
        return (self.count(FAILED) == 0 and self.count(ERRORED) == 0
                and not (self.strict and self.count(XPASSED)))


def choose_alternative(case: Case, declared: Declared) -> int | None:
    """The alternative a runner plays for an engine that does not implement the case's own
    pins: the first whose pins it implements (CASES.md, "Alternatives"); None: none."""
    for index, alt in enumerate(case.alternatives):
        if not declared.missing_readings(alt.requires):
            return index
    return None


def _request_type(line: str) -> str | None:
    """The `type` of a request line the runner sent (as the transcript keeps it)."""
    try:
        message = json.loads(line)
    except ValueError:
        return None
    return message.get("type") if isinstance(message, dict) else None


def _played_as(case: Case, chosen: int | None) -> str:
    """The head of a message of a case played as one of its alternatives."""
    if chosen is None:
        return ""
    return f"played as alternatives[{chosen}] ({case.alternatives[chosen].describe()}): "


class CaseFailed(Exception):
    def __init__(self, message: str, expected: Any = None, actual: Any = None) -> None:
        super().__init__(message)
        self.message = message
        self.expected = expected
        self.actual = actual


class Runner:
    def __init__(
        self,
        engine: EngineProcess,
        register: Register,
        *,
        profile: str | None = None,
        xfails: XfailList | Mapping[str, str] | None = None,
        skips: SkipList | None = None,
        strict: bool = False,
        maxfail: int | None = None,
    ) -> None:
        self.engine = engine
        self.maxfail = maxfail  # stop after this many failed or errored cases
        self.register = register
        self.requested_profile = profile
        self.xfails = xfails if isinstance(xfails, XfailList) else XfailList.from_reasons(
            xfails or {})
        self.skips = skips or SkipList()
        self.strict = strict
        self.start_failures = 0
        self.engine_starts = 0
        self.started_once = False  # a start of this run completed its handshake
        self.last_start_error: EngineError | None = None
        self.declaration_error: str | None = None
        self._declared: tuple[int, Declared] | None = None  # (engine start, declared)
        self._served = 0  # the engine start that was last given a case to play
        self.last_death: Death | None = None  # the last case's, when its launch died on it
        # `run` launches the engine no more (KEEPS_DYING): the cases left are not run
        self.dying: RunStop | None = None
        self.view = CapabilityView(None)  # what the current case leaves out, by capability

    # ---------------------------------------------------------------- run --

    def run(
        self, pack: Pack, cases: list[Case], on_outcome: Callable[[CaseOutcome], None] | None = None
    ) -> RunReport:
        began = time.monotonic()
        report = RunReport(pack, self.engine.argv, self.requested_profile or "?", {},
                           strict=self.strict)
        failures = 0
        deaths: list[Death] = []  # the launches in a row that died on their first case
        verdict = False  # a case of the run ran to a verdict: the engine can serve one
        self.dying = None
        try:
            for number, case in enumerate(cases, 1):
                not_run = self.dying is not None
                outcome = self.run_case(case)
                report.outcomes.append(outcome)
                if on_outcome:
                    on_outcome(outcome)
                if not not_run:
                    verdict |= (outcome.raw_status or outcome.status) in (PASSED, FAILED)
                    deaths = self._deaths_in_a_row(outcome, deaths)
                    if (len(deaths) >= MAX_SAME_DEATHS and not verdict
                            and number < len(cases)):
                        self.dying = RunStop(KEEPS_DYING, number, len(cases),
                                             deaths=tuple(deaths))
                failures += outcome.status in (FAILED, ERRORED) and not not_run
                if self.maxfail and failures >= self.maxfail and number < len(cases):
                    report.interrupted = True
                    report.stopped = RunStop(MAXFAIL, number, len(cases), self.maxfail,
                                             failures)
                    break
        except KeyboardInterrupt:  # the report covers every case that ran
            report.interrupted = True
            report.stopped = RunStop(SIGNAL, len(report.outcomes), len(cases))
        finally:
            self.engine.close()
        if self.dying is not None and report.stopped is None:
            report.stopped = replace(self.dying, not_run=sum(
                1 for o in report.outcomes[self.dying.ran:]
                if (o.raw_status or o.status) == ERRORED))
        report.hello = self.engine.hello
        report.profile = self._profile() or "?"
        report.declared = self._declared[1] if self._declared else None
        report.declaration_error = self.declaration_error
        report.engine_starts = self.engine_starts
        report.unknown_xfails = self.xfails.unknown_ids(c.id for c in pack.cases)
        report.stale_xfails = self.stale_xfails(report.outcomes)
        report.seconds = time.monotonic() - began
        return report

    def _deaths_in_a_row(self, outcome: CaseOutcome, deaths: list[Death]) -> list[Death]:
        """The launches in a row that died on their first case the same way, with the case
        just played: one more if its launch died so, none left if it ran otherwise (passed,
        failed, or errored another way); a case not played (skipped, unsupported) leaves
        them as they are."""
        death = self.last_death
        if death is not None:
            return [*deaths, death] if deaths and deaths[-1].kind == death.kind else [death]
        if (outcome.raw_status or outcome.status) in (SKIPPED, UNSUPPORTED):
            return deaths
        return []

    def stale_xfails(self, outcomes: list[CaseOutcome]) -> list[StaleXfail]:
        """The xfail lines that applied to cases of `outcomes` that all passed."""
        return self.xfails.stale(
            (o.case.id, o.status == XFAILED) for o in outcomes if o.status in (XFAILED, XPASSED)
        )

    def run_case(self, case: Case) -> CaseOutcome:
        skip = self.skips.entry_for(case)
        if skip is not None:
            return CaseOutcome(case, SKIPPED, skip.message, reason=USER_SKIP)
        began = time.monotonic()
        outcome = self._run_case(case)
        outcome.seconds = time.monotonic() - began
        return self._apply_xfail(outcome)

    def _apply_xfail(self, outcome: CaseOutcome) -> CaseOutcome:
        entry = self.xfails.entry_for(outcome.case.id)
        if entry is None or outcome.status in (SKIPPED, UNSUPPORTED):
            return outcome
        outcome.xfail_reason = entry.reason
        outcome.raw_status = outcome.status
        outcome.status = XFAILED if outcome.status in (FAILED, ERRORED) else XPASSED
        return outcome

    def _profile(self) -> str | None:
        if self.requested_profile:
            return self.requested_profile
        profile = self.engine.hello.get("profile")
        return profile if isinstance(profile, str) else None

    def _ensure_engine(self) -> None:
        if self.engine.running:
            return
        if self.start_failures >= MAX_START_FAILURES and self.last_start_error:
            raise EngineError(
                self.last_start_error.reason,
                f"not run: the engine failed to start {self.start_failures} times in a row "
                f"(last: {self.last_start_error.detail})",
                hint=self.last_start_error.hint,
            )
        self.engine_starts += 1
        try:
            self.engine.start()
        except EngineError as exc:
            # An engine that never answered stays silent: starting it again costs another
            # whole timeout. One that answered before may have been slow once.
            cause = exc.__cause__
            silent = TIMEOUT in (exc.reason, getattr(cause, "reason", None))
            self.start_failures = (MAX_START_FAILURES if silent and not self.started_once
                                   else self.start_failures + 1)
            self.last_start_error = exc
            raise
        self.start_failures = 0
        self.started_once = True

    def declared(self) -> Declared:
        """What the running engine's hello declares (read once per engine start)."""
        if self._declared is None or self._declared[0] != self.engine_starts:
            try:
                declared = declared_from_hello(
                    self.engine.hello, self.register, self.requested_profile
                )
            except DeclarationError as exc:
                # the same engine says the same hello: a failed start, not to be retried
                # for every case
                self.declaration_error = str(exc)
                self.start_failures = MAX_START_FAILURES
                self.last_start_error = EngineError(
                    HANDSHAKE, f"the hello cannot be read: {exc}"
                )
                raise self.last_start_error from None
            self._declared = (self.engine_starts, declared)
        return self._declared[1]

    def _run_case(self, case: Case) -> CaseOutcome:
        chosen: int | None = None
        first = False  # the first case its launch plays
        self.last_death = None
        try:
            if self.dying is None:
                self._ensure_engine()
            declared = self.declared()  # the last launch's hello, once it is launched no more
            missing = declared.missing_readings(case.pins)
            if missing:
                chosen = choose_alternative(case, declared)
                if chosen is None:
                    return CaseOutcome(
                        case,
                        SKIPPED,
                        "pins " + ", ".join(missing) + ", which the engine does not implement"
                        + (f" (nor those of any of its {len(case.alternatives)} alternative(s))"
                           if case.alternatives else ""),
                        lacking=tuple(missing),
                    )
            played = case if chosen is None else case.alternative(chosen)
            lacking = declared.missing_capabilities(played.capabilities)
            if lacking:
                return CaseOutcome(
                    case,
                    UNSUPPORTED,
                    _played_as(case, chosen) + "needs " + ", ".join(lacking)
                    + ", which the engine does not declare",
                    lacking=tuple(lacking),
                    alternative=chosen,
                )
            if self.dying is not None:
                return self._not_run(case, chosen)
            first, self._served = self._served != self.engine_starts, self.engine_starts
            self._execute(played, declared)
        except CaseFailed as failure:
            diff = ""
            if failure.expected is not None or failure.actual is not None:
                diff = render_diff(failure.expected, failure.actual)
            return CaseOutcome(
                case,
                FAILED,
                _played_as(case, chosen) + failure.message,
                diff=diff,
                expected=failure.expected,
                actual=failure.actual,
                alternative=chosen,
            )
        except EngineError as error:
            self.engine.kill()
            if first:
                self.last_death = self._death(case, error)
            message = _played_as(case, chosen) + error.detail
            if error.hint:
                message += f"\nlikely cause: {error.hint}"
            if self.engine.transcript:
                message += "\nlast messages:\n" + "\n".join(self.engine.transcript)
            return CaseOutcome(case, ERRORED, message, reason=error.reason, engine_restarted=True,
                               alternative=chosen, stderr=error.stderr)
        return CaseOutcome(case, PASSED, _played_as(case, chosen).removesuffix(": "),
                           alternative=chosen)

    def _death(self, case: Case, error: EngineError) -> Death:
        """The death of a launch on its first case, with the request it came at and what
        the transcript holds of it: the request's line, the lines read after it."""
        lines = list(self.engine.transcript)
        # an engine that does not say (one in this process) failed at the last request sent
        request = self.engine.serving or next(
            (kind for line in reversed(lines) if line.startswith("> ")
             and (kind := _request_type(line[2:]))), "?")
        at = next((i for i in range(len(lines) - 1, -1, -1)
                   if lines[i].startswith("> ") and _request_type(lines[i][2:]) == request),
                  None)
        sent = ""
        read_lines: tuple[str, ...] = ()
        if at is not None:
            sent = lines[at][2:]
            read_lines = tuple(line[2:] for line in lines[at + 1:] if line.startswith("< "))
        return Death(case.id, error.reason, request, error.detail, error.stderr, sent,
                     read_lines)

    def _not_run(self, case: Case, chosen: int | None) -> CaseOutcome:
        """A case the engine would play, errored without trying: `run` launches it no
        more (`KEEPS_DYING`)."""
        assert self.dying is not None
        last = self.dying.deaths[-1]
        message = last.not_run_message(len(self.dying.deaths))
        if last.hint:
            message += f"\nlikely cause: {last.hint}"
        return CaseOutcome(case, ERRORED, message, reason=last.reason, alternative=chosen)

    # ----------------------------------------------------------- execution --

    def _execute(self, case: Case, declared: Declared) -> None:
        self.view = CapabilityView(declared.capabilities)
        setup: dict[str, Any] = {
            "profile": declared.profile,
            "overrides": declared.overrides_for(case.pins, self.register),
            "dealer": case.dealer,
            "deck": case.deck,
        }
        if case.totals is not None:
            setup["totals"] = case.totals
        reply = self.engine.request({"type": "start", "setup": setup})
        if not reply["ok"]:
            raise CaseFailed(
                "the engine refused a start with readings it declared: "
                + str(reply.get("error") or reply.get("refused") or reply)
            )
        self._play(case.actions, "actions")
        if case.script_only:
            return  # an alternative that stops where its readings part ways with the script
        for index, script in enumerate(case.then):
            reply = self.engine.request({"type": "deal", "deck": script.deck})
            if not reply["ok"]:
                raise CaseFailed(f"then[{index}]: engine did not accept the deal: {reply}")
            self._play(script.actions, f"then[{index}].actions")
            if script.result is not None:
                self._check_result(script.result, f"then[{index}].result")
        check = getattr(self, f"_check_{case.kind}")
        check(case.expect)
        if "state" in case.expect:
            self._check_state(case.expect["state"], "state differs")

    def _play(self, steps: list[Step], where: str) -> None:
        batched = self._batches(steps)
        sent = {i for run in batched.values() for i, _, _ in run}
        for index, step in enumerate(steps):
            at = f"{where}[{index}]"
            if batched and index in batched:
                self._apply_batch(batched[index], where)
                continue
            if index in sent:
                continue  # sent with the batch of the seated steps before it
            if isinstance(step, Check):
                self._check_step(step, at)
            elif isinstance(step, Repeat):
                for _ in range(step.max):
                    if self._state()["phase"] != step.while_phase:
                        break
                    self._apply_scripted(step.action, at)
            elif isinstance(step, IfAsked):
                # taken only when that seat is asked AND may make the call: an engine
                # without the call (a gahwa, say) may have moved on to a phase where the
                # same seat is asked something else (to lead the first trick)
                # and, when the step names its phase, only in that phase: an engine that
                # skips a pass-only bidding turn may ask the same seat to raise next
                if step.phase is not None and self._state()["phase"] != step.phase:
                    continue
                legal = self._legal()
                if legal["player"] == step.seat and step.action in legal["actions"]:
                    self._apply_scripted(step.action, at)
            else:
                seat, action = split_seat(step)
                if not self.view.keeps_action(action):
                    continue
                if seat is None:
                    self._apply_scripted(action, at)
                else:
                    self._apply_as(seat, action, at)

    def _batches(self, steps: list[Step]) -> dict[int, list[tuple[int, int, str]]]:
        """Runs of seated steps in a row, by the index of their first: (index, seat, action)
        each, sent in one `batch` when the engine's hello says it takes batches (and the
        replies are not validated one by one): none otherwise, nor for a run of one."""
        if self.engine.hello.get("batch") is not True or self.engine.validate:
            return {}
        runs: dict[int, list[tuple[int, int, str]]] = {}
        run: list[tuple[int, int, str]] = []
        for index, step in enumerate([*steps, None]):
            seat, action = split_seat(step) if isinstance(step, str) else (None, "")
            if seat is None or len(run) == MAX_BATCHED_STEPS:
                if len(run) > 1:
                    runs[run[0][0]] = run
                run = []
            if seat is not None and self.view.keeps_action(action):
                run.append((index, seat, action))
        return runs

    def _apply_batch(self, run: list[tuple[int, int, str]], where: str) -> None:
        """Seated steps in one `batch`: each step's `legal` and `apply`, judged in order as
        `_apply_as` judges them (PROTOCOL.md: a batch's replies are those the requests would
        get one by one; what the engine did after the first step to fail is not read)."""
        requests = [r for _, _, action in run
                    for r in ({"type": "legal"}, {"type": "apply", "action": action})]
        replies = self.engine.request({"type": "batch", "requests": requests}).get("replies")
        if not isinstance(replies, list) or len(replies) != len(requests):
            count = len(replies) if isinstance(replies, list) else "no list of"
            raise EngineError(SCHEMA, f"batch reply has {count} replies for "
                                      f"{len(requests)} requests")
        for k, (index, seat, action) in enumerate(run):
            at = f"{where}[{index}]"
            player = self._legal_reply(checked_reply("legal", replies[2 * k]))["player"]
            if player != seat:
                raise self._wrong_seat(at, action, seat, player)
            self._judge_apply(checked_reply("apply", replies[2 * k + 1]), action, at)

    def _apply_as(self, seat: int, action: str, where: str) -> None:
        """A scripted action of a named seat: the engine must ask that seat, then accept
        the action. The `legal` and the `apply` go to the engine together (one round trip
        where two would wait for each other); the apply's reply is read in any case and
        counts only when the engine asked the right seat."""
        self.engine.post({"type": "legal"})
        self.engine.post({"type": "apply", "action": action})
        player = self._legal_reply(self.engine.collect())["player"]
        if player != seat:
            try:
                self.engine.collect()  # the apply's reply, not judged
            except EngineError:
                self.engine.kill()  # the next case starts it again
            raise self._wrong_seat(where, action, seat, player)
        self._judge_apply(self.engine.collect(), action, where)

    @staticmethod
    def _wrong_seat(where: str, action: str, seat: int, player: Any) -> CaseFailed:
        return CaseFailed(
            f"scripted action {where} {action!r} is seat {seat}'s, "
            f"but the engine asks seat {json_words(player)}",
            {"player": seat},
            {"player": player},
        )

    def _apply_scripted(self, action: str, where: str) -> None:
        self._judge_apply(self.engine.request({"type": "apply", "action": action}), action, where)

    def _judge_apply(self, reply: dict[str, Any], action: str, where: str) -> None:
        if not reply["ok"]:
            refused = reply.get("refused") or {}
            detail = str(refused.get("reason", "no reason given"))
            if refused.get("rule") or refused.get("clauses"):
                detail += (
                    f" (rule {refused.get('rule') or '?'}, clauses "
                    f"{', '.join(map(str, refused.get('clauses') or [])) or '?'})"
                )
            raise CaseFailed(f"scripted action {where} {action!r} was refused: {detail}")

    def _state(self) -> dict[str, Any]:
        state = self.engine.request({"type": "state"}).get("state")
        if not isinstance(state, dict):
            raise EngineError("schema", "state reply has no 'state' object")
        if not isinstance(state.get("phase"), str):
            raise EngineError("schema", "state reply has no 'phase' text (a required field)")
        return state

    def _legal(self) -> dict[str, Any]:
        return self._legal_reply(self.engine.request({"type": "legal"}))

    def _legal_reply(self, reply: dict[str, Any]) -> dict[str, Any]:
        if not isinstance(reply.get("actions"), list):
            raise EngineError("schema", "legal reply has no 'actions' list")
        player = reply.get("player")
        if player is not None and type(player) is not int:
            raise EngineError(
                "schema", f"legal reply's 'player' is {json_words(player)}, not a seat or null")
        return normal_legal({**reply, "actions": [str(a) for a in reply["actions"]]})

    # ------------------------------------------------------- expectations --

    def _check_step(self, check: Check, where: str) -> None:
        if check.what == "legal":
            self._check_legal(check.expected, f"{where}: ")
        elif check.what == "result":
            self._check_result(check.expected, where)
        else:
            self._check_state(check.expected, f"{where}: state differs")

    def _check_state(self, expected: dict[str, Any], message: str) -> None:
        state = self._state()
        wanted = self.view.state(expected)
        if not subset_matches(state, wanted, STATE):
            wanted = without_unsent(wanted, state, STATE)
            raise CaseFailed(message, wanted, project_onto(state, wanted))

    def _check_legal(self, expect: dict[str, Any], where: str = "") -> None:
        legal = self._legal()
        wanted: dict[str, Any] = {"actions": sorted(self.view.actions(expect["actions"]))}
        if "player" in expect:
            wanted["player"] = expect["player"]
        got = {k: legal[k] for k in wanted}
        if got != wanted:
            extra = sorted(set(legal["actions"]) - set(wanted["actions"]))
            lacking = sorted(set(wanted["actions"]) - set(legal["actions"]))
            parts = []
            if lacking:
                parts.append("missing " + ", ".join(lacking))
            if extra:
                parts.append("unexpected " + ", ".join(extra))
            if got.get("player") != wanted.get("player"):
                parts.append(f"player {json_words(got.get('player'))} instead of "
                             f"{json_words(wanted.get('player'))}")
            raise CaseFailed(f"{where}legal actions differ: " + "; ".join(parts), wanted, got)

    def _check_illegal(self, expect: dict[str, Any]) -> None:
        """The action is refused, and the state and the legal set are as before: the same
        in the protocol's normal form (a hand's order, the fields an engine adds and the
        optional fields it sends one time and not the other are no change)."""
        state, legal = self._state(), self._legal()
        reply = self.engine.request({"type": "apply", "action": expect["action"]})
        if reply["ok"]:
            raise CaseFailed(f"action {expect['action']!r} was accepted; it must be refused")
        before, after = comparable(state, self._state(), STATE)
        legal_after = self._legal()
        if after != before or legal_after != legal:
            raise CaseFailed(
                "the state changed after a refused action",
                {"state": before, "legal": legal},
                {"state": after, "legal": legal_after},
            )

    def _check_trick(self, expect: dict[str, Any]) -> None:
        winners = self._state().get("trick_winners")
        if winners != expect["trick_winners"]:
            raise CaseFailed(
                "trick winners differ",
                {"trick_winners": expect["trick_winners"]},
                {"trick_winners": winners},
            )

    def _check_round(self, expect: dict[str, Any]) -> None:
        self._check_result(expect["result"], "expect.result")

    _check_game = _check_round

    def _check_result(self, wanted: dict[str, Any], where: str) -> None:
        result = self.engine.request({"type": "result"}).get("result")
        if result is None:
            raise CaseFailed(f"{where}: engine has no round result", wanted, None)
        if not isinstance(result, dict):
            raise CaseFailed(f"{where}: the result is not an object", wanted, result)
        wanted = self.view.result(wanted)
        if not subset_matches(result, wanted, RESULT):
            wanted = without_unsent(wanted, result, RESULT)
            raise CaseFailed(f"{where}: round result differs", wanted, project_onto(result, wanted))
