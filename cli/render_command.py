"""`baloot spec render`: the rules document, docs/rules.html and docs/rules.md."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..backends.document.document import Options, default_out_dir, render
from ..backends.document.freshness import stale_files
from ..backends.document.stored import StoredFileError
from ..grammar import model as m
from .destinations import REFUSED, refuse
from .options import add_spec_folder, load_spec
from .stored_files import report_differences


def add_render_command(
    spec_commands: argparse._SubParsersAction[argparse.ArgumentParser],
) -> None:
    parser = spec_commands.add_parser(
        "render", help="write the rules document (docs/rules.html and docs/rules.md)",
        description="Write the rules document from the spec model: every clause beside the "
        "declarations that formalise it, the rank orders and card values, the project "
        "table, each state machine as a diagram, the raise ladder, the scoring steps with a "
        "worked example per contract, the variant register with its witnesses, the z3 "
        "results, and the conformance cases that test each clause, with an index of the "
        "cases and a search box. The examples, witnesses and results are read from the files "
        "that `baloot conform examples`, `baloot explore` and `baloot verify --write` store, "
        "and the cases from the pack's JSON files; the rendering runs neither the engine nor "
        "z3.")
    add_spec_folder(parser)
    parser.add_argument("--out", type=Path, default=None, metavar="DIR",
                        help="the folder to write (default: the project's docs/)")
    parser.add_argument("--proofs", default="stored", metavar="stored|none|FILE",
                        help="z3 results: those stored in proofs/results/invariants.json "
                        "(stored, the default), none, or the JSON file that `baloot verify "
                        "--json FILE` wrote")
    parser.add_argument("--pack", type=Path, default=None, metavar="DIR",
                        help="the folder of conformance cases whose ids each clause lists "
                        "(default: the project's conformance/cases)")
    parser.add_argument("--no-examples", action="store_true",
                        help="leave out the worked examples (docs/worked-examples.json)")
    parser.add_argument("--check", action="store_true",
                        help="write nothing; fail when the files in the folder differ from "
                        "what the spec and the stored results render now")
    parser.set_defaults(run=run_render)


def run_render(args: argparse.Namespace) -> int:
    if not args.check and refuse("spec render", [args.out or default_out_dir()],
                                 "pass --out DIR to write the rules document there"):
        return REFUSED
    spec = load_spec(args, coverage=False)  # uncovered clauses are shown as such
    if spec is None:
        return 1
    try:
        if args.pack is not None and not args.pack.is_dir():
            print(f"baloot spec render: no pack folder {args.pack}", file=sys.stderr)
            return 1
        if args.check:
            return _check(spec, args.out, args.pack)
        if args.proofs not in ("stored", "none") and not Path(args.proofs).is_file():
            print(f"baloot spec render: no proof results file {args.proofs}", file=sys.stderr)
            return 1
        written = render(spec, args.out,
                         Options(examples=not args.no_examples, proofs=args.proofs,
                                 pack=args.pack))
    except StoredFileError as err:
        print(f"baloot spec render: {err}", file=sys.stderr)
        return 1
    print("wrote " + ", ".join(str(p) for p in written))
    return 0


def _check(spec: m.Spec, out: Path | None, pack: Path | None) -> int:
    again = "baloot spec render" + (f" --out {out}" if out else "") + (
        f" --pack {pack}" if pack else "")
    return report_differences(
        (item.render() for item in stale_files(spec, out, pack)),
        f"baloot spec render --check: the rules document is out of date; run `{again}` to "
        "write it again",
        "the rules document is up to date with the spec and the stored results")
