"""Serve a mutant engine (or any copy of the reference engine) over the protocol.

    python -m baloot.conformance.mutants.adapter --package-dir DIR --package NAME

imports package NAME from folder DIR and serves it with the reference
adapter's request loop, so a mutant speaks exactly as the reference does.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from typing import Any

from baloot.conformance.adapters.reference_adapter import Adapter, serve_lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="baloot-mutant-adapter", description=__doc__)
    parser.add_argument("--package-dir", required=True, help="the folder holding the package")
    parser.add_argument("--package", required=True, help="the engine package to import")
    args = parser.parse_args(argv)
    sys.path.insert(0, args.package_dir)
    try:
        api = importlib.import_module(args.package)
    except ImportError as exc:
        print(f"mutant adapter: cannot import {args.package}: {exc}", file=sys.stderr)
        return 2
    return serve(api, args.package)


def serve(api: Any, name: str) -> int:
    adapter = Adapter(api)
    hello = adapter.hello

    def named_hello(request: dict[str, Any]) -> dict[str, Any]:
        return {**hello(request), "name": name}

    adapter.hello = named_hello  # type: ignore[method-assign]
    return serve_lines(adapter, sys.stdin, sys.stdout)


if __name__ == "__main__":
    sys.exit(main())
