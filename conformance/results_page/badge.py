"""An engine's SVG badge: `<engine> <version> <profile> | passed/counted`, counted being
the cases checked and those errored; `| handshake failed`, red, when the engine never
completed its hello.

Flat, shields-like, with no element ids, so several can be inlined in one
page. The text widths are estimates for 11 px Verdana (no font is measured); each
text is stretched or squeezed to its estimate (`textLength`), so it fits its box
whatever font draws it.
"""

from __future__ import annotations

from html import escape

from .runs import EngineRun

HEIGHT = 20
PADDING = 6
LABEL_COLOUR = "#555"
GREEN, YELLOW, RED, GREY = "#4c1", "#dfb317", "#e05d44", "#9f9f9f"
YELLOW_FROM = 0.9  # the share of checked cases passed from which a badge is yellow, not red

_NARROW = set("iIjl.,:;|!'()[] ")
_WIDE = set("mwMW@%")


def text_width(text: str) -> float:
    """An estimate of `text`'s width in pixels at 11 px Verdana."""
    width = 0.0
    for char in text:
        if char in _NARROW:
            width += 3.8
        elif char in _WIDE:
            width += 10.0
        elif char.isupper() or char.isdigit() or char == "/":
            width += 7.4
        else:
            width += 6.6
    return width


def badge_colour(passed: int, checked: int, handshake_failed: bool = False) -> str:
    """Green when every counted case passed, yellow from YELLOW_FROM, red below or when the
    handshake failed; grey when nothing was counted."""
    if handshake_failed:
        return RED
    if checked == 0:
        return GREY
    if passed >= checked:
        return GREEN
    return YELLOW if passed / checked >= YELLOW_FROM else RED


HANDSHAKE_FAILED = "handshake failed"


def badge_message(run: EngineRun) -> str:
    return HANDSHAKE_FAILED if run.handshake_failed else f"{run.passed}/{run.counted}"


def badge_svg(run: EngineRun) -> str:
    """The badge of one run, as an SVG document (no XML declaration, so it inlines)."""
    label, message = run.label, badge_message(run)
    left = round(text_width(label) + 2 * PADDING)
    right = round(text_width(message) + 2 * PADDING)
    total = left + right
    colour = badge_colour(run.passed, run.counted, run.handshake_failed)
    title = escape(f"{label}: {message}")
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{total}" height="{HEIGHT}" '
        f'viewBox="0 0 {total} {HEIGHT}" role="img" aria-label="{title}" class="badge">'
        f"<title>{title}</title>"
        f'<rect width="{total}" height="{HEIGHT}" rx="3" fill="{LABEL_COLOUR}"/>'
        f'<rect x="{left}" width="{right}" height="{HEIGHT}" rx="3" fill="{colour}"/>'
        f'<rect x="{left}" width="4" height="{HEIGHT}" fill="{colour}"/>'
        '<g fill="#fff" font-family="Verdana,DejaVu Sans,sans-serif" font-size="11" '
        'text-anchor="middle">'
        f'<text x="{left / 2}" y="14" textLength="{left - 2 * PADDING}" '
        f'lengthAdjust="spacingAndGlyphs" class="badge-label">{escape(label)}</text>'
        f'<text x="{left + right / 2}" y="14" textLength="{right - 2 * PADDING}" '
        f'lengthAdjust="spacingAndGlyphs" class="badge-message">{escape(message)}</text>'
        "</g></svg>"
    )
