"""The optional parts of the install, and what to say when a command needs one.

The base install is the harness, the pack and the reference engine: `baloot
conform`, `fuzz`, `report` and the pack tools that replay cases run on it. The
spec's parser (lark), the prover (z3) and the code formatter (black) come with
the extras of pyproject.toml; a command that needs a missing one stops with a
message naming the extra to install, and exit status 2.
"""

from __future__ import annotations

import importlib.util

DISTRIBUTION = "baloot-conformance"
# Exit status of a command whose optional dependency is not installed.
MISSING = 2

# Import name -> (distribution, the smallest extra that brings it).
OPTIONAL = {
    "lark": ("lark", "spec"),
    "z3": ("z3-solver", "proofs"),
    "black": ("black", "dev"),
    "hypothesis": ("hypothesis", "hypothesis"),
}

# Commands that need more than one optional module: the extra that brings them all,
# so that one install is enough, and the modules they need (`baloot verify`: lark, z3).
COMMAND_EXTRA = {
    "verify": ("proofs", ("lark", "z3")),
    "explore": ("proofs", ("lark", "z3")),
    "gen": ("dev", ("lark", "black")),
    "conform mutants": ("dev", ("lark", "black")),
}


def install_hint(extra: str) -> str:
    return f"pip install '{DISTRIBUTION}[{extra}]'"


def missing(modules: tuple[str, ...]) -> tuple[str, ...]:
    """Those of `modules` that cannot be imported here."""
    return tuple(name for name in modules if importlib.util.find_spec(name) is None)


def extra_for(command: str, module: str) -> str:
    """The extra to install for `baloot COMMAND`, which lacks `module`."""
    if command in COMMAND_EXTRA:
        return COMMAND_EXTRA[command][0]
    return OPTIONAL[module][1]


def missing_message(command: str, error: ModuleNotFoundError) -> str | None:
    """What to tell the user of `baloot COMMAND` when `error` is an optional dependency
    that is not installed; None for any other module (a bug, not an install)."""
    module = (error.name or "").split(".")[0]
    if module not in OPTIONAL:
        return None
    lacking = missing(COMMAND_EXTRA[command][1]) if command in COMMAND_EXTRA else ()
    names = " and ".join(OPTIONAL[name][0] for name in (lacking or (module,)))
    return (f"baloot {command}: needs {names}, which the base install leaves out; "
            f"install with: {install_hint(extra_for(command, module))}")
