"""`baloot fuzz`: differential fuzzing of an engine against the reference engine.

    baloot fuzz --engine "COMMAND" --rounds N --seed S [--jobs J] [--shard K/N]
                [--out DIR] [--known FILE] [--timeout S] [--start-timeout S]

Reads the engine's hello (profile, readings, capabilities) and plays random
legal games (with a few illegal probes) through the reference engine and the
engine under test side by side, in the engine's readings and within its
capabilities, comparing every legal set, state and result. Every game of the
budget is played; the disagreements are grouped by signature
(KIND:PHASE:WHAT[:CLAUSE]), and each new group's first example is shrunk to a
minimal deck and action sequence and written as a case file (to --out, or
printed). A table gives each group's count and example game.

--known FILE lists the signatures of accepted differences, one a line with a
reason ("SIGNATURE REASON"; # comments): those groups are shown, not shrunk,
and do not fail the run.

Exit status: 0 no new group; 1 new groups of disagreements; 2 usage error
(bad option, unreadable known file, a --profile the engine cannot play);
3 the engine failed the handshake (did not start, no hello within
--start-timeout seconds, a hello that cannot be read); 4 the engine refused
to start a game with the readings it declared; 130 stopped by Ctrl-C or
SIGTERM, at any moment: every engine is stopped, and the tally of the games
played so far, the groups found and the cases shrunk so far are reported
(each case is written to --out as soon as it is shrunk; on the stop, the new
groups not yet shrunk are written as found).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import shlex
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from rich.table import Table

from ..conformance.fuzz.campaign import (
    FuzzReport,
    Group,
    HandshakeFailed,
    ProfileNotImplemented,
    Settings,
    StartRefused,
    run_campaign,
)
from ..conformance.fuzz.casefile import case_from_replay, case_id_for, write_case_file
from ..conformance.fuzz.known import KnownFileError, read_known_file
from ..conformance.harness.declared import capabilities_text
from ..conformance.harness.engine_process import deferred_interrupts, stop_all
from ..conformance.harness.variants import load_register
from .console import console as make_console
from .options import add_jobs, add_shard, parse_shard, workers

EXIT_AGREE, EXIT_NEW_GROUPS, EXIT_USAGE, EXIT_HANDSHAKE, EXIT_START_REFUSED = 0, 1, 2, 3, 4
EXIT_INTERRUPTED = 130


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "fuzz",
        help="play random games on an engine and the reference side by side; shrink each "
        "kind of disagreement to a case",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--engine", required=True, metavar="COMMAND", help="the engine command")
    parser.add_argument(
        "--rounds",
        type=int,
        default=200,
        metavar="N",
        help="rounds to play in all (games of --game-rounds rounds each; default 200)",
    )
    parser.add_argument("--seed", default="0", metavar="S", help="the seed (default 0)")
    add_jobs(parser, default=1, metavar="J")
    add_shard(parser, "play only shard K of N of the seed's games", default="1/1")
    parser.add_argument("--out", type=Path, metavar="DIR", help="write the shrunk cases here")
    parser.add_argument(
        "--known",
        type=Path,
        metavar="FILE",
        help="accepted differences: one 'SIGNATURE REASON' a line; they do not fail the run",
    )
    parser.add_argument("--profile", help="the profile to play (default: the engine's own)")
    parser.add_argument(
        "--vary-readings",
        action="store_true",
        help="also draw readings at random among those the engine implements",
    )
    parser.add_argument("--game-rounds", type=int, default=2, help="rounds per game (default 2)")
    parser.add_argument(
        "--no-totals", action="store_true", help="always start games from totals 0-0"
    )
    parser.add_argument("--probes", type=float, default=0.05, help="share of illegal probes")
    parser.add_argument("--timeout", type=float, default=5.0, help="seconds per reply (default 5)")
    parser.add_argument(
        "--start-timeout",
        type=float,
        default=30.0,
        help="seconds for the engine to start and answer hello (default 30)",
    )
    parser.add_argument(
        "--no-shrink", action="store_true", help="report the disagreements as found"
    )
    parser.add_argument(
        "--shrink-seconds", type=float, default=60.0, help="shrinking budget per group (seconds)"
    )
    parser.set_defaults(run=run_command)


def settings_from(args: argparse.Namespace) -> Settings:
    argv = shlex.split(args.engine)
    if not argv:
        raise ValueError("--engine is empty")
    profiles = load_register().profiles
    if args.profile is not None and args.profile not in profiles:
        raise ValueError(f"--profile {args.profile!r} is not a profile of the spec; expected one "
                         f"of {', '.join(profiles)}")
    for option in ("timeout", "start_timeout"):
        if not 0 < getattr(args, option) < math.inf:  # nan and inf are no numbers of seconds
            raise ValueError(
                f"--{option.replace('_', '-')} must be a number of seconds more than 0"
            )
    game_rounds = max(1, args.game_rounds)
    seed: int | str = int(args.seed) if str(args.seed).lstrip("-").isdigit() else args.seed
    return Settings(
        argv=argv,
        seed=seed,
        games=max(1, -(-args.rounds // game_rounds)),
        profile=args.profile,
        vary_readings=args.vary_readings,
        game_rounds=game_rounds,
        totals=not args.no_totals,
        probes=args.probes,
        timeout=args.timeout,
        start_timeout=args.start_timeout,
        shard=parse_shard(args.shard),
    )


def group_case(group: Group, engine: str) -> dict[str, Any]:
    found = group.shrunk or group.example
    return case_from_replay(found, case_id_for(found), engine)


def write_cases(report: FuzzReport, out: Path | None, engine: str) -> dict[str, Path | None]:
    """One case file per new group (to `out`, else printed); signature -> path."""
    written: dict[str, Path | None] = {}
    cases = []
    for group in report.new_groups:
        case = group_case(group, engine)
        cases.append(case)
        written[group.signature] = write_case_file(out, case) if out is not None else None
    if out is None and cases:
        print(json.dumps({"description": "Found by baloot fuzz.", "cases": cases}, indent=2))
    return written


def groups_table(report: FuzzReport, written: dict[str, Path | None]) -> Table:
    table = Table(title="disagreements by signature", title_justify="left")
    table.add_column("signature", no_wrap=True)
    table.add_column("count", justify="right")
    table.add_column("example", no_wrap=True)
    table.add_column("shrunk to", no_wrap=True)
    table.add_column("status", overflow="fold")
    for group in sorted(report.groups.values(), key=lambda g: (g.known is not None, g.first_index)):
        example = f"game {group.first_index}"
        if group.known is not None:
            table.add_row(group.signature, str(group.count), example, "-", f"known: {group.known}")
            continue
        shrunk = group.shrunk or group.example
        size = f"{shrunk.actions} action(s), {len(shrunk.rounds)} round(s)"
        if group.shrunk is None and report.interrupted:
            size += " (not shrunk)"
        path = written.get(group.signature)
        table.add_row(
            group.signature,
            str(group.count),
            example,
            size,
            f"new: {path.name if path else 'printed'}",
        )
    return table


class _Stop:
    """Ctrl-C and SIGTERM during the run: the first raises KeyboardInterrupt (the campaign
    stops, every engine killed); any later one, or one once the games are done, is noted
    only, so nothing interrupts the stopping or the report."""

    def __init__(self) -> None:
        self.raising = True
        self.caught: int | None = None

    def __call__(self, signum: int, frame: object) -> None:
        self.caught = self.caught or signum
        if self.raising:
            self.raising = False
            raise KeyboardInterrupt


@contextlib.contextmanager
def _stopping(stop: _Stop) -> Iterator[None]:
    previous = {number: signal.signal(number, stop) for number in (signal.SIGINT,
                                                                   signal.SIGTERM)}
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


def run_command(args: argparse.Namespace) -> int:
    console = make_console(stderr=True)
    try:
        settings = settings_from(args)
        known = read_known_file(args.known) if args.known else {}
    except (ValueError, KnownFileError) as exc:
        console.print(f"baloot fuzz: {exc}", markup=False, highlight=False, soft_wrap=True)
        return EXIT_USAGE
    stop = _Stop()
    report = FuzzReport(known=known)
    written: dict[str, Path | None] = {}

    def shrunk(group: Group) -> None:  # written at once: a stop later leaves it
        if args.out is not None:
            written[group.signature] = write_case_file(args.out, group_case(group, args.engine))

    with _stopping(stop):
        try:
            run_campaign(
                settings,
                jobs=max(1, workers(args.jobs)),
                do_shrink=not args.no_shrink,
                shrink_seconds=args.shrink_seconds,
                known=known,
                on_shrunk=shrunk,
                report=report,
            )
            stop.raising = False
        except ProfileNotImplemented as exc:
            console.print(f"baloot fuzz: {exc}", markup=False, highlight=False, soft_wrap=True)
            return EXIT_USAGE
        except HandshakeFailed as exc:
            console.print(f"baloot fuzz: {exc}", markup=False, highlight=False, soft_wrap=True)
            return EXIT_HANDSHAKE
        except StartRefused as exc:
            console.print(f"baloot fuzz: {exc}", markup=False, highlight=False, soft_wrap=True)
            return EXIT_START_REFUSED
        except KeyboardInterrupt:  # as the campaign returned
            report.interrupted = True
            stop_all()
        finally:
            stop.raising = False
        with deferred_interrupts():
            if stop.caught is not None:
                report.interrupted = True
            return _report(console, report, args, settings.games)


def _report(console: Any, report: FuzzReport, args: argparse.Namespace, planned: int) -> int:
    """The tally, the groups and their cases (written or printed); the exit status."""
    declared = report.declared
    if declared is not None:
        console.print(
            f"engine {report.hello.get('name', '?')}: {declared.profile} profile, capabilities "
            + capabilities_text(declared.capabilities),
            highlight=False,
            markup=False,
        )
    console.print(
        f"played {report.games} game(s), {report.rounds} round(s), {report.actions} action(s) "
        f"in {report.seconds:.1f} s: {report.games_per_second:.1f} games/s",
        highlight=False,
    )
    if report.ended:
        console.print(
            "games ended early at a part the engine leaves out: "
            + ", ".join(f"{cap} {n}" for cap, n in sorted(report.ended.items())),
            highlight=False,
        )
    if not report.interrupted:
        for signature in report.unseen_known:
            console.print(f"known difference not seen this run: {signature}", highlight=False)
    if report.groups:
        written = write_cases(report, args.out, args.engine)
        console.print(groups_table(report, written))
        if args.out is not None and report.new_groups:
            console.print(f"cases written to {args.out}", highlight=False)
        console.print(
            f"{len(report.groups)} group(s) of disagreements, {len(report.new_groups)} new",
            highlight=False,
        )
    elif not report.interrupted:
        console.print("no disagreement")
    if report.interrupted:
        shrunk = sum(1 for g in report.new_groups if g.shrunk is not None)
        console.print(
            f"interrupted after {report.games} of {planned} game(s)"
            + (f", {shrunk} of {len(report.new_groups)} new group(s) shrunk"
               if report.shrinking else "")
            + (" (before the handshake was done)" if report.declared is None else ""),
            highlight=False,
        )
        return EXIT_INTERRUPTED
    return EXIT_NEW_GROUPS if report.new_groups else EXIT_AGREE
