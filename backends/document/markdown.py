"""The rules document as Markdown (GitHub flavour): anchors as `<a id>`, the state
machines as Mermaid diagrams. Every text is escaped."""

from __future__ import annotations

import re

from . import blocks as d

_SPECIAL = re.compile(r"([\\`*_\[\]<>|#~])")


def _e(text: str) -> str:
    return _SPECIAL.sub(r"\\\1", text.replace("&", "&amp;")).replace("\n", " ")


def _code(text: str) -> str:
    text = text.replace("\n", " ")
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def inline_md(runs: d.Inlines) -> str:
    out = []
    for r in runs:
        if isinstance(r, d.Str):
            out.append(_e(r.text))
        elif isinstance(r, d.Code):
            out.append(_code(r.text))
        elif isinstance(r, d.Strong):
            out.append(f"**{_e(r.text)}**" if r.text.strip() else _e(r.text))
        elif isinstance(r, d.Em):
            out.append(f"*{_e(r.text.strip())}*" + (" " if r.text.endswith(" ") else "")
                       if r.text.strip() else _e(r.text))
        else:
            text = _code(r.text) if r.code else _e(r.text)
            out.append(f"[{text}]({r.href})")
    return "".join(out)


def _anchor(anchor: str | None) -> list[str]:
    return [f'<a id="{anchor}"></a>', ""] if anchor else []


def _fence(text: str) -> str:
    longest = max((len(run) for run in re.findall(r"`{3,}", text)), default=2)
    return "`" * (longest + 1)


def _cell(runs: d.Inlines) -> str:
    return inline_md(runs).replace("|", "\\|").replace("\\\\|", "\\|") or " "


def block_md(block: d.Block) -> list[str]:
    if isinstance(block, d.Heading):
        level = min(max(block.level + 1, 1), 6)  # the document title is the only `#`
        return [*_anchor(block.anchor), "#" * level + " " + inline_md(block.text), ""]
    if isinstance(block, d.Para):
        return [inline_md(block.text), ""]
    if isinstance(block, d.Quote):
        return ["> " + inline_md(block.text), ""]
    if isinstance(block, d.Note):
        return ["> **Note:** " + inline_md(block.text), ""]
    if isinstance(block, d.CodeBlock):
        fence = _fence(block.text)
        lines = [f"*{_e(block.caption)}*", ""] if block.caption else []
        return [*lines, fence + block.lang, block.text, fence, ""]
    if isinstance(block, d.Table):
        head = "| " + " | ".join(_cell(h) for h in block.header) + " |"
        rule = "|" + "|".join("---:" if i in block.numeric else "---"
                              for i in range(len(block.header))) + "|"
        ids = (*block.anchors, *(None,) * (len(block.rows) - len(block.anchors)))
        rows = ["| " + (f'<a id="{anchor}"></a>' if anchor else "")
                + " | ".join(_cell(c) for c in row) + " |"
                for row, anchor in zip(block.rows, ids, strict=True)]
        return [head, rule, *rows, ""]
    if isinstance(block, d.BulletList):
        return [*("- " + inline_md(item) for item in block.items), ""]
    if isinstance(block, d.Diagram):
        return ["```mermaid", block.mermaid, "```", "", "*" + inline_md(block.caption) + "*", ""]
    if isinstance(block, d.Details):
        inner = [line for b in block.blocks for line in block_md(b)]
        if block.plain_markdown:
            return inner
        return [f"<details><summary>{_e(block.summary)}</summary>", "", *inner, "</details>", ""]
    return [*_anchor(block.anchor), *(line for b in block.blocks for line in block_md(b))]


def section_opening(section: d.Section) -> list[str]:
    """The lines that open a top-level section: its anchor and its heading."""
    return [*_anchor(section.anchor), f"## {_e(section.title)}", ""]


def render_markdown(document: d.Document) -> str:
    lines = [f"# {_e(document.title)}", ""]
    for block in document.intro:
        lines.extend(block_md(block))
    lines.append("Contents:")
    lines.append("")
    lines.extend(f"1. [{_e(s.title)}](#{s.anchor})" for s in document.sections)
    lines.append("")
    for section in document.sections:
        lines.extend(section_opening(section))
        for block in section.blocks:
            lines.extend(block_md(block))
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines) + "\n"
