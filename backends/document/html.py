"""The rules document as one self-contained HTML file: inline CSS, inline SVG, the
inline script of its search box (`search.py`) and nothing else, no fonts, styles or
scripts from anywhere else. Every text is escaped.

On a narrow screen (a phone) the page itself never scrolls sideways: a wide table
scrolls inside its own box, code blocks already do, and long words in text wrap."""

from __future__ import annotations

from html import escape

from . import blocks as d
from .search import search_form, search_scripts

CSS = """
:root { --ink: #1d2430; --muted: #5b6675; --line: #d9dee6; --accent: #2a5d9f;
  --clause: #f6f8fb; --code: #f3f1ea; --note: #fff6e0; }
* { box-sizing: border-box; }
html { scroll-behavior: auto; }
body { margin: 0; color: var(--ink); background: #fff;
  font: 15px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif; }
header.top { padding: 1.2rem 2rem; border-bottom: 1px solid var(--line); background: #fbfcfe; }
header.top h1 { margin: 0 0 .3rem 0; font-size: 1.7rem; }
nav.toc { padding: .6rem 2rem; border-bottom: 1px solid var(--line); font-size: .92rem; }
nav.toc ol { margin: 0; padding-left: 1.2rem; columns: 2; }
main { max-width: 1100px; margin: 0 auto; padding: 0 2rem 4rem 2rem; }
section.top { border-top: 2px solid var(--line); margin-top: 2rem; }
h1, h2, h3, h4 { line-height: 1.25; }
h2 { margin-top: 2rem; }
h4 { margin: .8rem 0 .3rem 0; font-size: 1rem; }
a { color: var(--accent); }
code, pre { font-family: ui-monospace, "DejaVu Sans Mono", "Liberation Mono", monospace;
  font-size: .88em; }
code { background: var(--code); padding: 0 .25em; border-radius: 3px; }
pre { background: var(--code); padding: .7rem .9rem; overflow-x: auto; border-radius: 6px;
  line-height: 1.4; }
pre code { background: none; padding: 0; }
figure.code { margin: .5rem 0; }
figure.code figcaption { color: var(--muted); font-size: .8rem; }
.clause { background: var(--clause); border: 1px solid var(--line); border-left: 4px solid
  var(--accent); border-radius: 6px; padding: .2rem 1rem .6rem 1rem; margin: 1rem 0; }
.clause > h3 { margin: .6rem 0 .2rem 0; }
blockquote.source { margin: .3rem 0 .6rem 0; padding: .1rem .8rem; border-left: 3px solid
  #9fb6d6; font-style: italic; background: #fff; }
.decl { background: #fff; border: 1px solid var(--line); border-radius: 6px;
  padding: .1rem .9rem .4rem .9rem; margin: .6rem 0; }
.variant, .profile, .machine, .example { border: 1px solid var(--line); border-radius: 6px;
  padding: .2rem 1rem .6rem 1rem; margin: 1rem 0; }
.note { background: var(--note); border: 1px solid #ecd9a6; border-radius: 6px;
  padding: .5rem .9rem; }
:target { outline: 3px solid #f2b84b; outline-offset: 2px; }
table { border-collapse: collapse; margin: .6rem 0; font-size: .92rem; }
th, td { border: 1px solid var(--line); padding: .25rem .55rem; vertical-align: top;
  text-align: left; }
th { background: #eef2f7; }
td.num, th.num { text-align: right; }
details summary { cursor: pointer; color: var(--muted); }
figure.diagram { margin: 1rem 0; overflow-x: auto; }
figure.diagram svg { max-width: 100%; height: auto; }
figure.diagram figcaption { color: var(--muted); font-size: .85rem; }
[hidden] { display: none !important; }
form.search { margin: .6rem 0 0 0; position: relative; max-width: 46rem; }
form.search input { width: 22rem; max-width: 60%; padding: .25rem .4rem; font: inherit; }
#search-results { list-style: none; margin: .3rem 0 0 0; padding: 0; max-height: 16rem;
  overflow-y: auto; font-size: .88rem; }
#search-results li { padding: .1rem 0; white-space: nowrap; overflow: hidden;
  text-overflow: ellipsis; color: var(--muted); }
.cases p, .snapshots p { margin: .3rem 0; font-size: .92rem; }
p, li, h1, h2, h3, h4, td, th, figcaption, summary, blockquote { overflow-wrap: break-word; }
#search-results li.search-more { font-style: italic; }
@media (max-width: 700px) {
  header.top, nav.toc { padding-left: .8rem; padding-right: .8rem; }
  main { padding: 0 .8rem 3rem .8rem; }
  nav.toc ol { columns: 1; }
  .clause, .variant, .profile, .machine, .example, .decl { padding-left: .6rem;
    padding-right: .6rem; }
  table { display: block; max-width: 100%; overflow-x: auto; }
  form.search input { width: 100%; max-width: 100%; }
}
""".strip()


def _e(text: str) -> str:
    return escape(text, quote=True)


def inline_html(runs: d.Inlines) -> str:
    out = []
    for r in runs:
        if isinstance(r, d.Str):
            out.append(_e(r.text))
        elif isinstance(r, d.Code):
            out.append(f"<code>{_e(r.text)}</code>")
        elif isinstance(r, d.Strong):
            out.append(f"<strong>{_e(r.text)}</strong>")
        elif isinstance(r, d.Em):
            out.append(f"<em>{_e(r.text)}</em>")
        else:
            text = f"<code>{_e(r.text)}</code>" if r.code else _e(r.text)
            out.append(f'<a href="{_e(r.href)}">{text}</a>')
    return "".join(out)


def _id(anchor: str | None) -> str:
    return f' id="{_e(anchor)}"' if anchor else ""


def block_html(block: d.Block) -> str:
    if isinstance(block, d.Heading):
        level = min(max(block.level, 1), 6)
        return f"<h{level}{_id(block.anchor)}>{inline_html(block.text)}</h{level}>"
    if isinstance(block, d.Para):
        return f"<p>{inline_html(block.text)}</p>"
    if isinstance(block, d.Quote):
        return f'<blockquote class="source"><p>{inline_html(block.text)}</p></blockquote>'
    if isinstance(block, d.Note):
        return f'<div class="note"><p>{inline_html(block.text)}</p></div>'
    if isinstance(block, d.CodeBlock):
        cls = f' class="language-{_e(block.lang)}"' if block.lang else ""
        pre = f"<pre><code{cls}>{_e(block.text)}</code></pre>"
        if block.caption:
            return (f'<figure class="code">{pre}<figcaption>{_e(block.caption)}</figcaption>'
                    "</figure>")
        return pre
    if isinstance(block, d.Table):
        def cell(tag: str, i: int, runs: d.Inlines) -> str:
            cls = ' class="num"' if i in block.numeric else ""
            return f"<{tag}{cls}>{inline_html(runs)}</{tag}>"

        head = "".join(cell("th", i, h) for i, h in enumerate(block.header))
        ids = (*block.anchors, *(None,) * (len(block.rows) - len(block.anchors)))
        rows = "".join(f"<tr{_id(anchor)}>" + "".join(cell("td", i, c)
                                                      for i, c in enumerate(row)) + "</tr>"
                       for row, anchor in zip(block.rows, ids, strict=True))
        return f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>"
    if isinstance(block, d.BulletList):
        items = "".join(f"<li>{inline_html(item)}</li>" for item in block.items)
        return f"<ul>{items}</ul>"
    if isinstance(block, d.Diagram):
        return (f'<figure class="diagram">{block.svg}<figcaption>{inline_html(block.caption)}'
                "</figcaption></figure>")
    if isinstance(block, d.Details):
        inner = "\n".join(block_html(b) for b in block.blocks)
        return f"<details><summary>{_e(block.summary)}</summary>\n{inner}\n</details>"
    inner = "\n".join(block_html(b) for b in block.blocks)
    return f'<div class="{_e(block.kind)}"{_id(block.anchor)}>\n{inner}\n</div>'


def section_opening(section: d.Section) -> list[str]:
    """The lines that open a top-level section: the element with its anchor, and its title."""
    return [f'<section class="top" id="{_e(section.anchor)}">', f"<h1>{_e(section.title)}</h1>"]


def render_html(document: d.Document) -> str:
    toc = "".join(f'<li><a href="#{_e(s.anchor)}">{_e(s.title)}</a></li>'
                  for s in document.sections)
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{_e(document.title)}</title>",
        f"<style>\n{CSS}\n</style>",
        "</head>",
        "<body>",
        f'<header class="top"><h1 id="top">{_e(document.title)}</h1>',
        *(block_html(b) for b in document.intro),
        *([search_form()] if document.search else []),
        "</header>",
        f'<nav class="toc" aria-label="contents"><ol>{toc}</ol></nav>',
        "<main>",
    ]
    for section in document.sections:
        parts.extend(section_opening(section))
        parts.extend(block_html(b) for b in section.blocks)
        parts.append("</section>")
    parts.append("</main>")
    if document.search:
        parts.extend(search_scripts(document.search))
    parts += ["</body>", "</html>", ""]
    return "\n".join(parts)
