"""`baloot spec render`: the rules document, docs/rules.html and docs/rules.md."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from baloot.grammar.errors import SpecError
from baloot.grammar.parser import load_spec


def add_render_command(
    spec_commands: argparse._SubParsersAction[argparse.ArgumentParser],
) -> None:
    render = spec_commands.add_parser(
        "render", help="write the rules document (docs/rules.html and docs/rules.md)",
        description="Write the rules document from the spec model: every clause beside the "
        "declarations that formalise it, the rank orders and card values, the project "
        "table, each state machine as a diagram, the raise ladder, the scoring steps with a "
        "worked example per contract (played by the generated reference engine), the variant "
        "register with its witnesses, and the z3 results.")
    render.add_argument("--spec", type=Path, default=None,
                        help="the spec folder (default: the project's spec/)")
    render.add_argument("--out", type=Path, default=None, metavar="DIR",
                        help="the folder to write (default: the project's docs/)")
    render.add_argument("--proofs", default="auto", metavar="auto|none|FILE",
                        help="z3 results: run the z3 checks (auto, the default), leave them out "
                        "(none), or read the JSON that `baloot verify --json FILE` wrote")
    render.add_argument("--no-examples", action="store_true",
                        help="leave out the worked examples played by the reference engine")
    render.set_defaults(run=run_render)


def run_render(args: argparse.Namespace) -> int:
    from baloot.grammar.render.document import Options, render

    try:
        spec = load_spec(args.spec, coverage=False)  # uncovered clauses are shown as such
    except SpecError as err:
        print(err.render(), file=sys.stderr)
        return 1
    if args.proofs not in ("auto", "none") and not Path(args.proofs).is_file():
        print(f"baloot spec render: no proof results file {args.proofs}", file=sys.stderr)
        return 1
    written = render(spec, args.out, Options(examples=not args.no_examples, proofs=args.proofs))
    print("wrote " + ", ".join(str(p) for p in written))
    return 0
