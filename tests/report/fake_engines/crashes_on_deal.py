"""The reference engine under another name, dying whenever it is asked to deal a
further round: every case that plays on past its first round errors (`exited`)."""

from __future__ import annotations

import os
import sys
from typing import Any

import baloot.reference_impl as api
from baloot.conformance.adapters.reference_adapter import Adapter, serve_lines


class CrashesOnDeal(Adapter):
    def hello(self, request: dict[str, Any]) -> dict[str, Any]:
        return {**super().hello(request), "name": "crashes-on-deal", "version": "0.1"}

    def deal(self, request: dict[str, Any]) -> dict[str, Any]:
        print("crashes-on-deal: no second round here", file=sys.stderr, flush=True)
        os._exit(3)


if __name__ == "__main__":
    sys.exit(serve_lines(CrashesOnDeal(api), sys.stdin, sys.stdout))
