"""The `baloot` command: one entry point, one subcommand per job.

Each area of the project registers its own subcommands: a module listed in
`COMMAND_MODULES` has a `register(subparsers)` function that adds its
subcommands, each with `set_defaults(run=...)`, a function from the parsed
arguments to an exit status.
"""

from __future__ import annotations

import argparse
import importlib
import signal
import sys
import threading

COMMAND_MODULES = (
    "baloot.grammar.commands",  # baloot spec check | trace | show
    "baloot.conformance.commands",  # baloot conform [lint | adapter]
    "baloot.proofs.commands",  # baloot verify | explore
    "baloot.conformance.suite",  # baloot suite
    "baloot.conformance.mutants.commands",  # baloot conform mutants
    "baloot.conformance.fuzz.commands",  # baloot fuzz
)


def version_text() -> str:
    """The distribution's version, the built-in case pack's and the protocol's."""
    import json
    from importlib import metadata

    from baloot.conformance.harness.engine_process import PROTOCOL_VERSION
    from baloot.conformance.harness.pack import default_pack_folder

    try:
        package = metadata.version("baloot-conformance")
    except metadata.PackageNotFoundError:
        package = "(not installed)"
    try:
        manifest = json.loads((default_pack_folder() / "pack.json").read_text(encoding="utf-8"))
        pack = f"{manifest['name']} {manifest['version']}"
    except (OSError, ValueError, KeyError, TypeError):
        pack = "(unreadable)"
    return f"baloot-conformance {package}; case pack {pack}; protocol {PROTOCOL_VERSION}"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="baloot",
        description="The executable Baloot spec and its conformance suite.",
    )
    parser.add_argument("--version", action="version", version=version_text())
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for module_name in COMMAND_MODULES:
        importlib.import_module(module_name).register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    previous = signal.getsignal(signal.SIGTERM)
    if threading.current_thread() is threading.main_thread():
        # SIGTERM ends a run as Ctrl-C does: the engine is stopped and the report written
        signal.signal(signal.SIGTERM, _interrupt)
    try:
        status: int = args.run(args)
    except KeyboardInterrupt:  # Ctrl-C outside a run that writes its partial report
        print("baloot: interrupted", file=sys.stderr)
        return 130
    finally:
        if threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGTERM, previous)
    return status


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


if __name__ == "__main__":
    sys.exit(main())
