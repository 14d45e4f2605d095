"""The console the commands print to.

In a terminal, rich takes the terminal's width; in a CI log or a pipe it would
fall back to 80 columns, too narrow for the tables, so it takes 140 there.
"""

from __future__ import annotations

import sys

from rich.console import Console

PIPE_WIDTH = 140


def console(stderr: bool = False, record: bool = False) -> Console:
    """The console on stdout (or stderr); `record` keeps what it prints, for
    `export_text`."""
    stream = sys.stderr if stderr else sys.stdout
    return Console(stderr=stderr, record=record,
                   width=None if stream.isatty() else PIPE_WIDTH)
