"""`baloot fuzz`: differential fuzzing of an engine against the reference engine.

    baloot fuzz --engine "COMMAND" --rounds N --seed S [--jobs J] [--shard K/N] [--out DIR]

Plays random legal games (with a few illegal probes) through the reference
engine and the engine under test side by side, comparing every legal set,
state and result. The first disagreement is shrunk to a minimal deck and
action sequence and written as a case file in the pack's format (to --out, or
printed). Exit 1 when the engines disagree, 0 when they never do.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
from pathlib import Path
from typing import Any

from ..terminal import console as make_console
from .campaign import FuzzReport, Settings, run_campaign
from .casefile import case_from_replay, case_id_for


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "fuzz",
        help="play random games on an engine and the reference side by side; shrink any "
        "disagreement to a case",
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
    parser.add_argument("--jobs", type=int, default=1, metavar="J", help="worker processes")
    parser.add_argument(
        "--shard", default="1/1", metavar="K/N", help="play only shard K of N of the seed's games"
    )
    parser.add_argument("--out", type=Path, metavar="DIR", help="write the shrunk case here")
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
    parser.add_argument("--timeout", type=float, default=5.0, help="seconds per reply")
    parser.add_argument("--no-shrink", action="store_true", help="report the disagreement as found")
    parser.add_argument("--shrink-seconds", type=float, default=60.0, help="shrinking budget")
    parser.set_defaults(run=run_command)


def parse_shard(text: str) -> tuple[int, int]:
    try:
        k, n = (int(x) for x in text.split("/"))
    except ValueError:
        raise ValueError(f"--shard {text!r}: expected K/N, e.g. 2/4") from None
    if not 1 <= k <= n:
        raise ValueError(f"--shard {text!r}: expected 1 <= K <= N")
    return k, n


def settings_from(args: argparse.Namespace) -> Settings:
    argv = shlex.split(args.engine)
    if not argv:
        raise ValueError("--engine is empty")
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
        shard=parse_shard(args.shard),
    )


def write_case(
    report: FuzzReport, out: Path | None, engine: str
) -> tuple[dict[str, Any], Path | None]:
    found = report.shrunk or report.failing
    assert found is not None
    case = case_from_replay(found, case_id_for(found), engine)
    path = None
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        path = out / f"{case['id']}.json"
        path.write_text(
            json.dumps({"description": "Found by baloot fuzz.", "cases": [case]}, indent=2) + "\n",
            encoding="utf-8",
        )
    return case, path


def run_command(args: argparse.Namespace) -> int:
    console = make_console(stderr=True)
    try:
        settings = settings_from(args)
    except ValueError as exc:
        console.print(f"baloot fuzz: {exc}", markup=False)
        return 2
    report = run_campaign(
        settings,
        jobs=max(1, args.jobs or os.cpu_count() or 1),
        do_shrink=not args.no_shrink,
        shrink_seconds=args.shrink_seconds,
    )
    console.print(
        f"played {report.games} game(s), {report.rounds} round(s), {report.actions} action(s) "
        f"in {report.seconds:.1f} s: {report.games_per_second:.1f} games/s",
        highlight=False,
    )
    if report.failing is None:
        console.print("no disagreement")
        return 0
    d = report.failing.disagreement
    assert d is not None
    console.print(
        f"[bold red]disagreement[/] in game {report.failing_index}: {d.detail}", highlight=False
    )
    if report.shrink_stats:
        s = report.shrink_stats
        console.print(
            f"shrunk in {s.attempts} replays ({s.seconds:.1f} s): rounds, actions "
            f"{s.before[:2]} -> {s.after[:2]}",
            highlight=False,
        )
    case, path = write_case(report, args.out, args.engine)
    if path:
        console.print(f"case written to {path}", highlight=False)
    else:
        print(json.dumps({"cases": [case]}, indent=2))
    return 1
