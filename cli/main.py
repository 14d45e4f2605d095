"""The `baloot` command: one entry point, one subcommand per job.

The whole command tree is put together here, in `build_parser`: each room adds
its subcommands with a `register` function, each subcommand with
`set_defaults(run=...)`, a function from the parsed arguments to an exit
status. `baloot conform`'s own `register` returns the group of its
subcommands, to which the adapter, the pack tools and the mutants add theirs.

Building the tree loads neither lark, z3 nor black: a room whose work needs
them (the spec's parser, the generator, the prover) imports that inside the
`run` function of the subcommand, so `baloot conform` runs without them.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import signal
import sys
import threading
from importlib import metadata

from ..conformance.harness.engine_process import PROTOCOL_VERSION
from ..conformance.harness.pack import default_pack_folder
from ..conformance.harness.spec_register import RegisterFileError, register_file
from . import adapter_command, conform_command, extras, report_command, suite
from . import fuzz_command as fuzz_commands
from . import mutants_command as mutants_commands
from . import pack_commands as pack_tools_commands
from . import proof_commands as proofs_commands
from . import spec_commands as grammar_commands

# Exit status of a run stopped by Ctrl-C or SIGTERM, as a shell reports it.
INTERRUPTED = 130
# Exit status when the project's own data (the spec register) cannot be read.
BROKEN_INSTALL = 2


def version_text() -> str:
    """The distribution's version, the built-in case pack's, the spec's and the protocol's.

    The spec carries no version number of its own: it is named by the register `baloot gen`
    writes from it (conformance/cases/spec-register.json, the clauses, variants, readings
    and profiles an engine is checked against), as the first 12 hex digits of its SHA-256.
    """
    try:
        package = metadata.version(extras.DISTRIBUTION)
    except metadata.PackageNotFoundError:
        package = "(not installed)"
    try:
        manifest = json.loads((default_pack_folder() / "pack.json").read_text(encoding="utf-8"))
        pack = f"{manifest['name']} {manifest['version']}"
    except (OSError, ValueError, KeyError, TypeError):
        pack = "(unreadable)"
    try:
        spec = "register sha256:" + hashlib.sha256(register_file().read_bytes()).hexdigest()[:12]
    except OSError:
        spec = "(register unreadable)"
    return (f"{extras.DISTRIBUTION} {package}; case pack {pack}; spec {spec}; "
            f"protocol {PROTOCOL_VERSION}")


class _PrintVersion(argparse.Action):
    """`--version`: the version text on one line, as it is (argparse's own action rewraps
    it to the terminal's width), read only when asked for."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> None:
        print(version_text())
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="baloot",
        description="The executable Baloot spec and its conformance suite.",
    )
    parser.add_argument("--version", action=_PrintVersion, nargs=0,
                        help="print the versions of the package, the pack, the spec and the "
                        "protocol, and exit")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    grammar_commands.register(subparsers)  # baloot spec check | trace | show | render; gen
    conform = conform_command.register(subparsers)  # baloot conform [lint]
    adapter_command.register(conform)  # baloot conform adapter
    pack_tools_commands.register(conform)  # baloot conform coverage | pins | refusals | ...
    mutants_commands.register(conform)  # baloot conform mutants
    proofs_commands.register(subparsers)  # baloot verify | explore
    suite.register(subparsers, main)  # baloot suite
    fuzz_commands.register(subparsers)  # baloot fuzz
    report_command.register(subparsers)  # baloot report
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
        return INTERRUPTED
    except RegisterFileError as exc:  # the register `baloot gen` writes is missing or broken
        print(f"baloot: {exc}", file=sys.stderr)
        return BROKEN_INSTALL
    except ModuleNotFoundError as exc:  # lark, z3, black: an extra the base install leaves out
        command = " ".join(filter(None, [args.command, getattr(args, "conform_command", None),
                                         getattr(args, "spec_command", None)]))
        message = extras.missing_message(command, exc)
        if message is None:
            raise
        print(message, file=sys.stderr)
        return extras.MISSING
    finally:
        if threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGTERM, previous)
    return status


_MAIN_PID = os.getpid()


def _interrupt(signum: int, frame: object) -> None:
    """SIGTERM in the command's own process ends the run as Ctrl-C does. A worker process
    forked from it (pins, applicability, the prover) inherits the handler: there SIGTERM is
    the pool stopping its workers, which end at once, as without the handler."""
    if os.getpid() != _MAIN_PID:
        os._exit(128 + signum)
    raise KeyboardInterrupt


if __name__ == "__main__":
    sys.exit(main())
