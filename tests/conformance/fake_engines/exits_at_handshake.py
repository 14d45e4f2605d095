"""Exits as soon as it is greeted."""

import sys

print("fake engine: no protocol for you", file=sys.stderr, flush=True)
sys.stdin.readline()
sys.exit(1)
