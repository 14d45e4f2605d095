"""Serve a mutant engine (or any copy of the reference engine) over the protocol.

    python -m baloot.conformance.mutants.adapter --package-dir DIR [--name NAME]

imports the package `baloot_mutant` (`build.MUTANT_PACKAGE`) from folder DIR,
where `build.py` puts each mutant's build, and serves it with the reference
adapter's request loop, so a mutant speaks exactly as the reference does; its
hello names it NAME.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..adapters.reference_adapter import Adapter, serve_lines
from .build import MUTANT_PACKAGE


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="baloot-mutant-adapter", description=__doc__)
    parser.add_argument("--package-dir", required=True,
                        help=f"the folder holding the package {MUTANT_PACKAGE}")
    parser.add_argument("--name", default=MUTANT_PACKAGE, help="the engine's name in its hello")
    args = parser.parse_args(argv)
    sys.path.insert(0, args.package_dir)
    try:
        import baloot_mutant  # the build in --package-dir: MUTANT_PACKAGE
    except ImportError as exc:
        print(f"mutant adapter: cannot import {MUTANT_PACKAGE} from {args.package_dir}: {exc}",
              file=sys.stderr)
        return 2
    return serve(baloot_mutant, args.name)


class NamedAdapter(Adapter):
    """The reference adapter whose hello gives another name. A subclass, not a patched
    instance: the session answers each request with its class's method
    (`reference_adapter._handlers`), so only a method of the class is heard."""

    def __init__(self, api: Any, name: str) -> None:
        super().__init__(api)
        self.name = name

    def hello(self, request: dict[str, Any]) -> dict[str, Any]:
        return {**super().hello(request), "name": self.name}


def serve(api: Any, name: str) -> int:
    return serve_lines(NamedAdapter(api, name), sys.stdin, sys.stdout)


if __name__ == "__main__":
    sys.exit(main())
