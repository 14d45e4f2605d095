"""A small document model that both the HTML and the Markdown writers read.

The sections of the rules document are built once, as these blocks, from the
spec model; `html.py` and `markdown.py` only decide how each block is spelled.
All text here is plain text: the writers escape it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

# ------------------------------------------------------------------ inlines --


@dataclass(frozen=True)
class Str:
    text: str


@dataclass(frozen=True)
class Code:
    text: str


@dataclass(frozen=True)
class Strong:
    text: str


@dataclass(frozen=True)
class Em:
    text: str


@dataclass(frozen=True)
class Link:
    text: str
    href: str  # "#anchor" inside the document, or a path relative to the docs folder
    code: bool = False  # show the text as code


Inline = Str | Code | Strong | Em | Link
Inlines = tuple[Inline, ...]


def _split_code(text: str) -> list[Inline]:
    """Plain text with `backquoted` stretches as code (an unpaired backquote stays text)."""
    pieces = text.split("`")
    if len(pieces) % 2 == 0:  # an odd number of backquotes: keep the last one as text
        pieces = [*pieces[:-2], pieces[-2] + "`" + pieces[-1]]
    out: list[Inline] = []
    for i, piece in enumerate(pieces):
        if i % 2:
            out.append(Code(piece))
        elif piece:
            out.append(Str(piece))
    return out


def inlines(*parts: str | Inline) -> Inlines:
    """Inline content from strings (`backquoted` stretches become code) and inline nodes."""
    out: list[Inline] = []
    for p in parts:
        out.extend(_split_code(p) if isinstance(p, str) else [p])
    return tuple(out)


def joined(items: Sequence[Inlines] | Sequence[Inline], sep: str = ", ") -> Inlines:
    """Several inline runs (or single inlines) separated by `sep`."""
    out: list[Inline] = []
    for i, item in enumerate(items):
        if i:
            out.append(Str(sep))
        if isinstance(item, tuple):
            out.extend(item)
        else:
            out.append(item)
    return tuple(out)


def plain(runs: Inlines) -> str:
    """The text of inline content, without formatting."""
    return "".join(r.text for r in runs)


# ------------------------------------------------------------------- blocks --


@dataclass(frozen=True)
class Heading:
    level: int  # 1 to 6
    text: Inlines
    anchor: str | None = None


@dataclass(frozen=True)
class Para:
    text: Inlines


@dataclass(frozen=True)
class Quote:
    """Words of the source page (a clause), set apart from the spec's own text."""

    text: Inlines


@dataclass(frozen=True)
class Note:
    """A remark of the document itself: something missing, or how to produce it."""

    text: Inlines


@dataclass(frozen=True)
class CodeBlock:
    text: str
    lang: str = ""
    caption: str | None = None  # e.g. the file and line of spec source


@dataclass(frozen=True)
class Table:
    header: tuple[Inlines, ...]
    rows: tuple[tuple[Inlines, ...], ...]
    numeric: tuple[int, ...] = ()  # columns aligned right
    anchors: tuple[str | None, ...] = ()  # an anchor per row (an index), when given


@dataclass(frozen=True)
class BulletList:
    items: tuple[Inlines, ...]


@dataclass(frozen=True)
class Diagram:
    """A drawing: inline SVG for HTML, a Mermaid block for Markdown."""

    svg: str
    mermaid: str
    caption: Inlines


@dataclass(frozen=True)
class Details:
    """Supporting material, folded away in HTML."""

    summary: str
    blocks: tuple[Block, ...]
    plain_markdown: bool = False  # in Markdown, the summary and the blocks, not folded


@dataclass(frozen=True)
class Box:
    """A group of blocks with an anchor: one clause, one declaration, one variant."""

    anchor: str | None
    kind: str  # a CSS class: clause, decl, variant, example ...
    blocks: tuple[Block, ...]


Block = Heading | Para | Quote | Note | CodeBlock | Table | BulletList | Diagram | Details | Box


@dataclass(frozen=True)
class Section:
    """A top-level section, listed in the table of contents."""

    anchor: str
    title: str
    blocks: tuple[Block, ...]


@dataclass(frozen=True)
class SearchEntry:
    """One thing the document's search box finds: a clause, a declaration, a profile or a
    case, by any of its names (the first is the one shown), and its anchor."""

    kind: str  # clause, rule, table, variant, profile, case ...
    names: tuple[str, ...]  # "SCORE.7"; a variant: ("A5", "kaboot_value")
    anchor: str
    title: str
    text: str = ""  # the rest of its words the search reads (the title is shortened)


@dataclass(frozen=True)
class Document:
    title: str
    intro: tuple[Block, ...]
    sections: tuple[Section, ...] = field(default_factory=tuple)
    search: tuple[SearchEntry, ...] = ()  # what the HTML search box finds (not in Markdown)


def anchors_of(document: Document) -> list[str]:
    """Every anchor of the document, in order (for tests and for link checks)."""
    found: list[str] = []

    def visit(blocks: tuple[Block, ...]) -> None:
        for block in blocks:
            if isinstance(block, Heading) and block.anchor:
                found.append(block.anchor)
            elif isinstance(block, Box):
                if block.anchor:
                    found.append(block.anchor)
                visit(block.blocks)
            elif isinstance(block, Details):
                visit(block.blocks)
            elif isinstance(block, Table):
                found.extend(x for x in block.anchors if x)

    visit(document.intro)
    for section in document.sections:
        found.append(section.anchor)
        visit(section.blocks)
    return found
