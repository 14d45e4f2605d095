"""JSON from outside (engine replies, requests, case files) read as the protocol and the
pack carry it: no NaN, no infinity, no number too large for a double or longer than
Python converts, no nesting deeper than the decoder follows. Each is a ValueError with
words a user can act on, never a RecursionError or Python's own advice. And JSON written
as the runner sends it: one line, no spaces (`compact_json`)."""

from __future__ import annotations

import json
import math
import sys
from typing import Any


def strict_json(text: str | bytes) -> Any:
    """JSON as the protocol carries it: no NaN, no infinity, no number too large for a
    double. Raises ValueError (UnicodeDecodeError for bytes that are not UTF-8), also for
    text nested deeper than the decoder can follow."""
    try:
        if isinstance(text, bytes):  # json.loads finds the encoding of bytes
            return json.loads(text, parse_constant=_no_constant, parse_float=_finite_float)
        return _DECODER.decode(text)
    except RecursionError:
        raise ValueError("nested deeper than JSON can be read") from None
    except ValueError as exc:
        if "integer string conversion" in str(exc):  # Python's words name its own setting
            raise ValueError(f"a number of more than {sys.get_int_max_str_digits()} digits") \
                from None
        raise


def _no_constant(name: str) -> Any:
    """JSON has no NaN or Infinity: a reply holding one is not JSON."""
    raise ValueError(f"{name} is not a JSON number")


def _finite_float(text: str) -> float:
    """A JSON number with a fraction or exponent, refused when no double holds it (1e400)."""
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text[:40]} is too large a number")
    return value


# One decoder for every text (speed: json.loads with options builds a new one a call).
_DECODER = json.JSONDecoder(parse_constant=_no_constant, parse_float=_finite_float)

# A value as one line of JSON without spaces; one encoder for every message (as above).
compact_json = json.JSONEncoder(separators=(",", ":")).encode
