"""`baloot conform adapter`: serve the reference engine over the protocol (stdin/stdout)."""

from __future__ import annotations

import argparse

from ..conformance.adapters.reference_adapter import main as adapter_main


def register(conform_commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add `adapter` to the group of `baloot conform`'s subcommands."""
    adapter = conform_commands.add_parser(
        "adapter", help="serve the reference engine over the protocol (stdin/stdout)"
    )
    adapter.set_defaults(run=run_adapter)


def run_adapter(args: argparse.Namespace) -> int:
    return adapter_main()
