"""The runner's console report: header, failures with diffs and a rerun
command, stale xfail lines, the cases not run by what the engine lacks and what
would run the most of them, a summary table by clause family, and the totals.

A case counts in one clause family, that of its first clause (`case_family`), here,
in the JSON report's `by_family` and `not_run`, in the markdown summary and on the
results page, so the families add up to the cases.

Three forms: `FULL` (each failure's block, with its diff and the engine's
stderr), `COMPACT` (a line or two per failure: off a terminal), `QUIET` (the
failing cases' ids and the totals). In every form an engine that fails to
start is told once (what was read, what was expected, the likely cause), not
once per case it left unrun; so is an engine the runner stopped launching
because it kept dying on the first case of each launch the same way
(`print_keeps_dying`: the request, what was read, the engine's stderr, the likely
cause, how many cases died so and how many were left unrun)."""

from __future__ import annotations

import re
import shlex
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import replace

from rich.console import Console
from rich.markup import escape
from rich.syntax import Syntax
from rich.table import Table

from .case_selection import USER_SKIP
from .clauses import clause_family
from .declared import CAPABILITIES, Declared, capabilities_text
from .engine_process import HANDSHAKE, LAUNCH, NAMES_AN_EXCEPTION, json_words
from .pack import Case, pin_readings
from .rules_links import clause_link
from .runner import (
    ERRORED,
    FAILED,
    PASSED,
    SKIPPED,
    UNSUPPORTED,
    XFAILED,
    XPASSED,
    CaseOutcome,
    RunReport,
    RunStop,
    choose_alternative,
)

FULL, COMPACT, QUIET = "full", "compact", "quiet"  # the forms of the report
START_REASONS = (HANDSHAKE, LAUNCH)  # the errors of an engine that did not start
SHOWN_IDS = 5  # the ids named of the cases a failed start left unrun
COMPACT_STDERR = 12  # the lines of an engine's stderr the compact form shows

STATUSES = (PASSED, FAILED, ERRORED, SKIPPED, UNSUPPORTED, XFAILED, XPASSED)
_STYLE = {
    PASSED: "green",
    FAILED: "red",
    ERRORED: "magenta",
    SKIPPED: "yellow",
    UNSUPPORTED: "blue",
    XFAILED: "cyan",
    XPASSED: "bold yellow",
}


# Characters that would break a one-line text: control characters, line and paragraph
# separators (what str.splitlines splits at, and the other C0 and C1 controls).
_UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")
ONE_LINE_LIMIT = 200


def one_line(text: str, limit: int = ONE_LINE_LIMIT) -> str:
    """The first non-blank line of `text`, trimmed, its control characters written as
    escapes (`\\x07`), cut to `limit` characters."""
    first = next((line.strip() for line in text.splitlines() if line.strip()), "")
    first = _UNPRINTABLE.sub(lambda m: ascii(m.group())[1:-1], first)
    return first if len(first) <= limit else first[: limit - 1].rstrip() + "\u2026"


def failure_reason(outcome: CaseOutcome) -> str:
    """Why a case failed or errored, in one line: an error's reason first."""
    line = one_line(outcome.message)
    if ERRORED in (outcome.status, outcome.raw_status) and outcome.reason:
        return f"{outcome.reason}: {line}" if line else outcome.reason
    return line or (outcome.raw_status or outcome.status)


def rerun_command(report: RunReport, outcome: CaseOutcome, extra: list[str] | None = None) -> str:
    words = ["baloot", "conform", "--engine", shlex.join(report.engine_argv)]
    if report.profile and report.profile != "?":
        words += ["--profile", report.profile]
    words += [*(extra or []), "--only", outcome.case.id]
    return shlex.join(words)


def print_header(console: Console, report_pack: str, engine: str) -> None:
    console.print(f"[bold]case pack[/] {escape(report_pack)}")
    console.print(f"[bold]engine[/]    {escape(engine)}")


def print_report(console: Console, report: RunReport, extra_args: list[str] | None = None,
                 form: str = FULL) -> None:
    quiet = form == QUIET
    hello = report.hello
    if hello and not quiet:
        console.print(
            f"[bold]engine said[/] {escape(one_line(_said(hello.get('name'))))} "
            f"{escape(one_line(_said(hello.get('version'))))}, "
            f"profile {escape(one_line(_said(hello.get('profile'))))}; "
            f"run profile {escape(report.profile)}"
        )
    declared = report.declared
    if declared is not None and not quiet:
        off = ", ".join(f"{v}={r}" for v, r in sorted(declared.off_profile_readings().items()))
        console.print(f"[bold]readings[/]    {escape(declared.profile)}"
                      + (f" with {escape(off)}" if off else ""))
        console.print("[bold]capabilities[/] "
                      + escape(capabilities_text(declared.capabilities)))
    if report.declaration_error:
        console.print(f"[red]the engine's hello cannot be read[/]: "
                      f"{escape(report.declaration_error)}")
    print_problems(console, report, extra_args, form)
    # an engine that cannot play a case: what it lacks to play more says nothing yet
    tables = not quiet and report.keeps_dying is None
    not_run = not_run_table(report) if tables else None
    if not_run is not None:
        console.print(not_run)
    unlock = unlock_table(report) if tables else None
    if unlock is not None:
        console.print(unlock)
    xfailed = [o for o in report.outcomes if o.status == XFAILED and not quiet]
    for o in xfailed:
        console.print(
            f"[cyan]xfailed[/] {escape(o.case.id)} ({o.raw_status}): {escape(o.xfail_reason or '')}"
        )
    for case_id in report.unknown_xfails:
        console.print(
            f"[yellow]warning[/]: the xfail list names {escape(case_id)}, which is not in the pack"
        )
    for stale in report.stale_xfails:
        passed = ", ".join(stale.passed[:5]) + (", ..." if len(stale.passed) > 5 else "")
        console.print(
            f"[yellow]stale xfail line[/] {escape(stale.entry.where)} "
            f"{escape(stale.entry.pattern)}: no case it lists failed "
            f"({len(stale.passed)} passed: {escape(passed)}); take it off the list",
            soft_wrap=True,
        )
    if report.stopped_by_maxfail and report.stopped:
        console.print(f"[yellow]{escape(report.stopped.describe())}[/]", highlight=False)
    if tables and not report.never_started:  # a table of errors alone says nothing
        console.print(summary_table(report))
    verdict = "[green]OK[/]" if report.ok else "[red]FAILED[/]"
    if report.interrupted and not report.stopped_by_maxfail:  # --maxfail: FAILED, exit 1
        verdict = "[yellow]INTERRUPTED[/]"
    console.print(
        f"{verdict}: {totals_line(report)} in {report.seconds:.1f} s "
        f"(engine started {report.engine_starts} time(s))"
    )


def _said(value: object) -> str:
    """A field of the hello as the engine sent it: a text as it is, anything else as JSON
    (`null`, `true`), as the protocol writes it."""
    return value if isinstance(value, str) else json_words(value, ONE_LINE_LIMIT)


RAN_STATUSES = (PASSED, FAILED, ERRORED, XFAILED, XPASSED)


def totals_line(report: RunReport) -> str:
    """`490 cases; 216 ran: 190 passed, 20 failed, 6 errored; 274 skipped, 0 unsupported`:
    every count by name (xfailed and xpassed when there are any)."""
    ran = sum(report.count(s) for s in RAN_STATUSES)
    done = ", ".join(f"{report.count(s)} {s}" for s in RAN_STATUSES
                     if report.count(s) or s in (PASSED, FAILED, ERRORED))
    return (f"{len(report.outcomes)} cases; {ran} ran: {done}; "
            f"{report.count(SKIPPED)} skipped, {report.count(UNSUPPORTED)} unsupported")


NO_FAMILY = "(no clause)"


def case_family(clauses: Sequence[str]) -> str:
    """The one clause family a case counts in: that of its first clause."""
    return clause_family(clauses[0]) if clauses else NO_FAMILY


def lacking_key(lacking: str) -> str:
    """One thing a case lacks, written one way: `variant=a|b` with its readings sorted."""
    variant, equals, readings = lacking.partition("=")
    if not equals:
        return lacking
    return f"{variant}=" + "|".join(sorted(readings.split("|")))


def not_run_by_reason(report: RunReport) -> dict[tuple[str, str], dict[str, int]]:
    """(status, reason) -> clause family -> cases, for the skipped and unsupported cases;
    a case lacking two things counts under each, in its one family."""
    table: dict[tuple[str, str], dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for o in report.outcomes:
        if o.status not in (SKIPPED, UNSUPPORTED):
            continue
        for lacking in not_run_reasons(o):
            table[(o.status, lacking)][case_family(o.case.clauses)] += 1
    return {k: dict(sorted(v.items())) for k, v in sorted(table.items())}


def not_run_reasons(o: CaseOutcome) -> tuple[str, ...]:
    """What a case not run lacks (readings, capabilities), or that the user skipped it."""
    if o.reason == USER_SKIP:
        return (USER_SKIP,)
    return tuple(dict.fromkeys(lacking_key(x) for x in o.lacking)) or (o.message,)


def not_run_table(report: RunReport) -> Table | None:
    reasons = not_run_by_reason(report)
    if not reasons:
        return None
    cases = {
        key: sum(1 for o in report.outcomes if o.status == key[0] and key[1] in not_run_reasons(o))
        for key in reasons
    }
    table = Table(title="not run, by reason (a case lacking two things counts under each)",
                  title_justify="left")
    for column in ("status", "lacking", "cases", "by clause family"):
        table.add_column(column, justify="right" if column == "cases" else "left")
    for (status, lacking), families in reasons.items():
        table.add_row(
            f"[{_STYLE[status]}]{status}[/]",
            escape(lacking),
            str(cases[(status, lacking)]),
            ", ".join(f"{f} {n}" for f, n in families.items()),
        )
    return table


def failed_to_start(o: CaseOutcome) -> bool:
    """Whether a case errored because the engine did not start (launch or handshake)."""
    return ERRORED in (o.status, o.raw_status) and o.reason in START_REASONS


def print_problems(console: Console, report: RunReport, extra: list[str] | None,
                   form: str = FULL) -> None:
    """The failed, errored and unexpectedly passed cases, in `form`; the cases errored by
    an engine that did not start, once for all; and so those of an engine that kept dying
    on its first case (`print_keeps_dying`)."""
    unstarted = [o for o in report.outcomes if o.status == ERRORED and failed_to_start(o)]
    if unstarted:
        print_broken_start(console, report, unstarted, extra, form)
    dying = keeps_dying_outcomes(report)
    if dying and report.keeps_dying is not None:
        print_keeps_dying(console, report, report.keeps_dying, dying, extra, form)
    told = {id(o) for o in dying}
    for o in report.outcomes:
        if (o.status not in (FAILED, ERRORED, XPASSED) or failed_to_start(o)
                or id(o) in told):
            continue
        if form == QUIET:
            console.print(f"[{_STYLE[o.status]}]{o.status.upper()}[/] {escape(o.case.id)}",
                          highlight=False, soft_wrap=True)
        elif form == COMPACT:
            _print_compact(console, report, o, extra)
        else:
            _print_problem(console, report, o, extra)


def message_parts(message: str) -> tuple[str, str, list[str]]:
    """An errored case's message as the runner writes it: what went wrong, the likely
    cause, the last messages both ways."""
    what: list[str] = []
    cause, messages = "", []
    lines = message.splitlines()
    while lines:
        line = lines.pop(0)
        if line.startswith("likely cause: "):
            cause = line.removeprefix("likely cause: ")
        elif line == "last messages:":
            messages = lines
            break
        else:
            what.append(line)
    return "\n".join(what), cause, messages


def print_broken_start(console: Console, report: RunReport, outcomes: list[CaseOutcome],
                       extra: list[str] | None, form: str = FULL) -> None:
    """An engine that did not start, told once: what went wrong, what was read and
    expected, the likely cause, its stderr; then how many cases it left unrun."""
    first = outcomes[0]
    what, cause, messages = message_parts(first.message)
    title = f"[magenta]THE ENGINE DID NOT START[/] [magenta]({escape(first.reason or '')})[/]"
    if form == FULL:
        console.rule(title, align="left")
    else:
        console.print(title, highlight=False)
    console.print(f"[bold]what[/]     {escape(what)}", highlight=False, soft_wrap=True)
    if form != QUIET and first.reason == HANDSHAKE:
        sent = [m[2:] for m in messages if m.startswith("> ")]
        read = [m[2:] for m in messages if m.startswith("< ")]
        if sent:
            console.print(f"[bold]sent[/]     {escape(sent[0])}", highlight=False,
                          soft_wrap=True)
        console.print(f"[bold]read[/]     {escape(read[0]) if read else 'nothing'}",
                      highlight=False, soft_wrap=True)
        console.print('[bold]expected[/] one line of JSON on stdout answering the hello: '
                      '{"seq": 1, "ok": true, "protocol": 1, "name": ..., ...} '
                      '(conformance/PROTOCOL.md, "hello")', highlight=False, soft_wrap=True)
    if cause:
        console.print(f"[bold]likely cause[/] {escape(cause)}", highlight=False, soft_wrap=True)
    if first.stderr and form != QUIET:
        _print_stderr(console, first.stderr, form)
    ids = [o.case.id for o in outcomes]
    shown = ", ".join(ids[:SHOWN_IDS]) + (", ..." if len(ids) > SHOWN_IDS else "")
    console.print(f"{len(ids)} case(s) errored so ({escape(shown)}); the --json and --junit "
                  "reports list each", highlight=False, soft_wrap=True)
    if form != QUIET:
        console.print(f"[bold]rerun[/]    {escape(rerun_command(report, first, extra))}",
                      highlight=False, soft_wrap=True)


def keeps_dying_outcomes(report: RunReport) -> list[CaseOutcome]:
    """The errored cases of a run that stopped launching the engine (`KEEPS_DYING`): those
    whose launches died on them, and those left unrun after; empty for any other run."""
    stop = report.keeps_dying
    if stop is None:
        return []
    died = {d.case_id for d in stop.deaths}
    return [o for i, o in enumerate(report.outcomes)
            if o.status == ERRORED and (o.case.id in died or i >= stop.ran)]


def print_keeps_dying(console: Console, report: RunReport, stop: RunStop,
                      outcomes: list[CaseOutcome], extra: list[str] | None,
                      form: str = FULL) -> None:
    """An engine that completed its handshake, then died on the first case of each of its
    last launches the same way, told once: the request, what was sent and read, what was
    expected, the likely cause, its stderr; how many cases died so and how many were left
    unrun; the command that reruns the first."""
    last = stop.deaths[-1]
    title = (f"[magenta]THE ENGINE KEEPS DYING[/] [magenta]({escape(last.reason)} at "
             f"`{escape(last.request)}`)[/]")
    if form == FULL:
        console.rule(title, align="left")
    else:
        console.print(title, highlight=False)
    console.print(f"[bold]what[/]     each of its last {len(stop.deaths)} launches answered the "
                  f"hello, then, on its first case, at `{escape(last.request)}`: "
                  f"{escape(last.detail)}", highlight=False, soft_wrap=True)
    if form != QUIET:
        if last.sent:
            console.print(f"[bold]sent[/]     {escape(_clipped(last.sent))}", highlight=False,
                          soft_wrap=True)
        console.print(f"[bold]read[/]     "
                      f"{escape('; '.join(last.read)) if last.read else 'no reply'}",
                      highlight=False, soft_wrap=True)
        console.print(f"[bold]expected[/] one line of JSON on stdout answering the "
                      f"`{escape(last.request)}` request, with its seq "
                      f"(conformance/PROTOCOL.md, \"{escape(last.request)}\")",
                      highlight=False, soft_wrap=True)
    if last.hint:
        console.print(f"[bold]likely cause[/] {escape(last.hint)}", highlight=False,
                      soft_wrap=True)
    if last.stderr and form != QUIET:
        _print_stderr(console, last.stderr, form)
    died = [d.case_id for d in stop.deaths]
    died_ids = set(died)
    not_run = [o.case.id for o in outcomes if o.case.id not in died_ids]
    shown = ", ".join(not_run[:SHOWN_IDS]) + (", ..." if len(not_run) > SHOWN_IDS else "")
    console.print(f"[bold]stopped[/]  the engine is launched no more: {len(died)} case(s) "
                  f"died so ({escape(', '.join(died))}), {len(not_run)} case(s) errored "
                  f"without being run" + (f" ({escape(shown)})" if not_run else "")
                  + "; the --json and --junit reports list each", highlight=False,
                  soft_wrap=True)
    first = next((o for o in outcomes if o.case.id == died[0]), outcomes[0])
    if form != QUIET:
        console.print(f"[bold]rerun[/]    {escape(rerun_command(report, first, extra))}",
                      highlight=False, soft_wrap=True)


SENT_LIMIT = 300  # the characters of a request line shown


def _clipped(line: str, limit: int = SENT_LIMIT) -> str:
    return line if len(line) <= limit else line[:limit] + "..."


def _print_stderr(console: Console, stderr: str, form: str) -> None:
    lines = stderr.splitlines()
    if form != FULL and len(lines) > COMPACT_STDERR:
        kept = lines[-COMPACT_STDERR:]
        named = next((line for line in reversed(lines[:-COMPACT_STDERR])
                      if NAMES_AN_EXCEPTION.search(line)), None)
        lines = ([named] if named else []) + [
            f"[... {len(lines) - len(kept)} line(s): see the JSON report, or run with -v ...]"
        ] + kept
    console.print("[bold]engine's stderr[/]", highlight=False)
    for line in lines:
        console.print(f"  {escape(line)}", highlight=False, soft_wrap=True)


def _print_compact(console: Console, report: RunReport, o: CaseOutcome,
                   extra: list[str] | None) -> None:
    """A failure in two lines: status, id and why; the command that reruns it."""
    style = _STYLE[o.status]
    if o.status == XPASSED:
        why = f"listed as an expected failure ({o.xfail_reason or ''}) but passed"
    else:
        why = failure_reason(o)
    console.print(f"[{style}]{o.status.upper()}[/] {escape(o.case.id)}: {escape(why)}",
                  highlight=False, soft_wrap=True)
    console.print(f"  rerun: {escape(rerun_command(report, o, extra))}", highlight=False,
                  soft_wrap=True)


def _print_problem(
    console: Console, report: RunReport, o: CaseOutcome, extra: list[str] | None
) -> None:
    style = _STYLE[o.status]
    title = f"[{style}]{o.status.upper()}[/] {escape(o.case.id)}"
    if o.reason:
        title += f" [{style}]({escape(o.reason)})[/]"
    console.rule(title, align="left")
    console.print(f"[bold]title[/]   {escape(o.case.title)}")
    console.print(
        f"[bold]clauses[/] {', '.join(o.case.clauses)}    [bold]file[/] {escape(o.case.file)}"
    )
    for clause in o.case.clauses:
        console.print(f"[bold]rules[/]   {clause}: {escape(clause_link(clause))}", soft_wrap=True)
    if o.case.requires:
        console.print(
            "[bold]readings[/] "
            + ", ".join(f"{k}={'|'.join(v)}" for k, v in o.case.pins.items())
        )
    if o.alternative is not None:
        console.print(f"[bold]played as[/] alternatives[{o.alternative}]: "
                      f"{escape(o.alternative_readings() or '')}")
    if o.status == XPASSED:
        console.print(
            f"listed as an expected failure ({escape(o.xfail_reason or '')}) but passed: "
            "take it off the list" + (" (--strict: this fails the run)" if report.strict else "")
        )
    else:
        console.print(escape(o.message))
    if o.diff:
        console.print(Syntax(o.diff, "diff", theme="ansi_dark", background_color="default"))
    if o.stderr:
        _print_stderr(console, o.stderr, FULL)
    if o.engine_restarted and o is not report.outcomes[-1]:  # the last has no next case
        console.print("[dim]engine killed; the next case starts a fresh one[/]")
    console.print(f"[bold]rerun[/]   {escape(rerun_command(report, o, extra))}", soft_wrap=True)


def by_family(report: RunReport) -> dict[str, dict[str, int]]:
    """Clause family -> status -> cases, each case in its one family (`case_family`): the
    families add up to the run's cases."""
    counts: dict[str, dict[str, int]] = defaultdict(lambda: dict.fromkeys(STATUSES, 0))
    for o in report.outcomes:
        counts[case_family(o.case.clauses)][o.status] += 1
    return dict(sorted(counts.items()))


UNLOCK_ROWS = 5


def would_run(case: Case, declared: Declared) -> bool:
    """Whether the runner would play `case` on an engine declaring `declared` (its own
    pins or an alternative's, and every capability the played one needs)."""
    played = case
    if declared.missing_readings(case.pins):
        chosen = choose_alternative(case, declared)
        if chosen is None:
            return False
        played = case.alternative(chosen)
    return not declared.missing_capabilities(played.capabilities)


def unlocks(report: RunReport) -> list[tuple[str, int]]:
    """Each single reading (`variant=reading`) or capability the engine lacks, with the
    skipped and unsupported cases it would run if the engine implemented it and nothing
    else more; most first, those that would run none left out. Cases the user skipped
    are not counted."""
    declared = report.declared
    if declared is None:
        return []
    not_run = [o.case for o in report.outcomes
               if o.status in (SKIPPED, UNSUPPORTED) and o.reason != USER_SKIP]
    wanted: set[tuple[str, str]] = set()
    for case in not_run:
        for pins in (case.pins, *(alt.requires for alt in case.alternatives)):
            for variant, pinned in pins.items():
                wanted.update((variant, r) for r in pin_readings(pinned)
                              if r not in declared.implemented.get(variant, frozenset()))
    candidates: list[tuple[str, Declared]] = []
    for variant, reading in sorted(wanted):
        implemented = dict(declared.implemented)
        implemented[variant] = implemented.get(variant, frozenset()) | {reading}
        candidates.append((f"{variant}={reading}", replace(declared, implemented=implemented)))
    for capability in sorted(set(CAPABILITIES) - declared.capabilities):
        candidates.append(
            (capability, replace(declared, capabilities=declared.capabilities | {capability})))
    counted = [(name, sum(would_run(case, more) for case in not_run))
               for name, more in candidates]
    return sorted(((n, c) for n, c in counted if c), key=lambda item: (-item[1], item[0]))


def unlock_table(report: RunReport, rows: int = UNLOCK_ROWS) -> Table | None:
    found = unlocks(report)
    if not found:
        return None
    table = Table(title="what would run the most cases not run (each implemented alone)",
                  title_justify="left")
    table.add_column("implement")
    table.add_column("cases it would run", justify="right")
    for name, cases in found[:rows]:
        table.add_row(escape(name), str(cases))
    return table


def summary_table(report: RunReport) -> Table:
    table = Table(title="conformance by clause family", title_justify="left")
    table.add_column("family")
    for status in STATUSES:
        table.add_column(status, justify="right", style=_STYLE[status])
    for family, counts in by_family(report).items():
        table.add_row(family, *(str(counts[s]) for s in STATUSES))
    table.add_section()
    table.add_row("all cases", *(str(report.count(s)) for s in STATUSES), style="bold")
    return table
