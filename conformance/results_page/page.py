"""The results page: one self-contained HTML file (no script, no outside resource).

Readable on a phone: the page never scrolls sideways; on a narrow screen the matrix
scrolls inside its own box.

- the engines: each one's badge, name, version, command, declared profile,
  readings and capabilities, and its totals;
- the matrix: a row per case, grouped by the clause family of the case's first
  clause, a column per engine; a cell gives the case's status there, links to
  the case's details (its message and diff, an anchor in the page) and to the
  clause in the rules document (the link its report carries);
  a checkbox (plain CSS, no script) shows only the rows whose status differs between
  the engines;
- the details of every case that did not pass on an engine.

A badge, a column's head and a family's count give passed/counted, counted being the
cases checked and those errored.

Every text that comes from a report (engine names, messages, diffs, links) is
escaped; a link is kept only when its scheme is http, https or file, or it has
none (a path).
"""

from __future__ import annotations

import shlex
from collections.abc import Iterable
from dataclasses import dataclass, field
from html import escape
from typing import Any
from urllib.parse import urlsplit

from ..harness.report_console import case_family
from .badge import badge_message, badge_svg
from .runs import PASSED_STATUSES, EngineRun

STATUSES = ("passed", "failed", "errored", "skipped", "unsupported", "xfailed", "xpassed")
CELL_TEXT = {
    "passed": "pass",
    "failed": "fail",
    "errored": "error",
    "skipped": "skip",
    "unsupported": "n/a",
    "xfailed": "xfail",
    "xpassed": "xpass",
}
CHECKED_STATUSES = ("passed", "failed", "xfailed", "xpassed")
COUNTED_STATUSES = (*CHECKED_STATUSES, "errored")  # a count's denominator
ABSENT = "absent"  # the case is not in that engine's run
SAFE_SCHEMES = ("", "http", "https", "file")

STYLE = """
body { font-family: system-ui, sans-serif; margin: 1.5em; color: #222; }
h1 { margin-bottom: 0.2em; }
h1, h2, h3, p { overflow-wrap: anywhere; }
.engines { display: flex; flex-wrap: wrap; gap: 1em; }
.engine { border: 1px solid #ccc; border-radius: 6px; padding: 0.6em 1em; max-width: 38em;
  min-width: 0; box-sizing: border-box; }
.engine dl { display: grid; grid-template-columns: max-content minmax(0, 1fr);
  gap: 0.2em 0.8em; }
.engine dt { font-weight: bold; }
.engine dd { margin: 0; overflow-wrap: anywhere; min-width: 0; }
svg.badge { max-width: 100%; height: auto; }
.filter { margin: 0.5em 0; }
#only-differ:checked ~ .table-box tr.same, #only-differ:checked ~ .table-box tbody.same {
  display: none; }
table.matrix { border-collapse: collapse; font-size: 0.9em; }
.matrix th, .matrix td { border: 1px solid #ddd; padding: 0.15em 0.4em; text-align: left; }
.matrix thead th { position: sticky; top: 0; background: #f4f4f4; }
.matrix tr.family th { background: #e8eef7; }
.matrix td.cell { white-space: nowrap; }
.cell a.rule { color: #666; text-decoration: none; margin-left: 0.3em; }
.passed { background: #dff5d8; } .failed { background: #f9d6d2; }
.errored { background: #f1d2f1; } .skipped { background: #fbf1c9; }
.unsupported { background: #dbe7fb; } .xfailed { background: #d7f2f2; }
.xpassed { background: #fde3b5; } .absent { background: #eee; color: #777; }
.detail { border-top: 1px solid #ccc; padding: 0.4em 0; }
.detail:target { background: #fff8d8; }
pre { background: #f7f7f7; padding: 0.5em; overflow-x: auto; white-space: pre-wrap;
  overflow-wrap: anywhere; }
.diff .add { color: #11661b; } .diff .del { color: #a4161a; }
.warning { color: #a4161a; }
@media (max-width: 50em) {
  body { margin: 0.6em; }
  .engine { max-width: 100%; flex: 1 1 100%; }
  .table-box { overflow-x: auto; max-width: 100%; }
  .matrix { font-size: 0.8em; }
  .matrix th, .matrix td { padding: 0.15em 0.25em; }
  .matrix thead th { overflow-wrap: anywhere; }
  .matrix a.clause { white-space: nowrap; }
}
"""


@dataclass
class Row:
    """One case of the matrix: what the first report holding it says of it."""

    case_id: str
    title: str
    clauses: list[str]
    rules: list[str]
    cells: dict[int, tuple[int, dict[str, Any]]] = field(default_factory=dict)
    # engine index -> (the case's index in that engine's report, the case)

    @property
    def family(self) -> str:
        """The family of the case's first clause, as the console and the markdown summary
        count it (`case_family`)."""
        return case_family(self.clauses)


def matrix_rows(runs: list[EngineRun]) -> dict[str, list[Row]]:
    """The cases of every run by clause family, families and cases in the order they first
    appear across the reports."""
    rows: dict[str, Row] = {}
    for engine, run in enumerate(runs):
        for index, case in enumerate(run.cases):
            row = rows.get(case["id"])
            if row is None:
                row = rows[case["id"]] = Row(
                    case["id"], case["title"], case["clauses"], case["rules"]
                )
            row.cells[engine] = (index, case)
    families: dict[str, list[Row]] = {}
    for row in rows.values():
        families.setdefault(row.family, []).append(row)
    return families


def detail_anchor(engine: int, index: int) -> str:
    """The id of a case's details on an engine: `e<engine>-c<index in its report>`."""
    return f"e{engine}-c{index}"


def safe_href(link: str) -> str | None:
    """`link` when it is safe to put in an href (see the module's docstring), else None."""
    if any(ord(char) <= 0x20 or char == "\x7f" for char in link):
        return None
    try:
        scheme = urlsplit(link).scheme.lower()
    except ValueError:
        return None
    return link if scheme in SAFE_SCHEMES else None


def render_page(runs: list[EngineRun], badge_files: list[str], title: str) -> str:
    """The whole page; `badge_files[i]` is the file name of engine i's badge."""
    families = matrix_rows(runs)
    packs = sorted({run.pack for run in runs})
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{escape(title)}</title><style>{STYLE}</style></head><body>",
        f"<h1>{escape(title)}</h1>",
        f"<p>{len(runs)} engine(s), case pack {', '.join(escape(p) for p in packs)}.</p>",
    ]
    if len(packs) > 1:
        parts.append(
            '<p class="warning" id="packs-differ">The reports come from different case '
            "packs: a case id may not mean the same in each.</p>"
        )
    parts.append('<h2 id="engines">Engines</h2><div class="engines">')
    parts.extend(_engine_card(i, run, badge_files[i]) for i, run in enumerate(runs))
    parts.append("</div>")
    parts.append(_matrix(runs, families))
    parts.append('<h2 id="details">Details of the cases that did not pass</h2>')
    for engine, run in enumerate(runs):
        parts.extend(_details(engine, run))
    parts.append("</body></html>\n")
    return "\n".join(parts)


# ------------------------------------------------------------------- engines --


def _engine_card(engine: int, run: EngineRun, badge_file: str) -> str:
    declared = run.declared
    items: list[tuple[str, str]] = [
        ("engine", escape(run.name)),
        ("version", escape(run.version)),
        ("command", f"<code>{escape(shlex.join(run.data['engine']['command']))}</code>"),
        ("profile", escape(run.profile)),
    ]
    if declared is not None:
        items.append(("readings", _readings(declared)))
        items.append(("can also play", _also_plays(declared)))
        items.append(("capabilities", _capabilities(declared)))
    if run.data["declaration_error"]:
        items.append(("hello", f'<span class="warning">{escape(run.data["declaration_error"])}'
                               "</span>"))
    totals = ", ".join(
        f'<span class="{s}" data-status="{s}">{run.data["summary"][s]} {s}</span>'
        for s in STATUSES
        if run.data["summary"][s] or s in ("passed", "failed")
    )
    items.append(("cases", f"{run.passed} passed of {run.counted} counted ({run.checked} "
                           f"checked, {run.errored} errored); {totals}"))
    if run.data["interrupted"]:
        items.append(("run", '<span class="warning">interrupted</span>'))
    items.append(("pack", escape(run.pack)))
    items.append(("ran at", escape(run.data["timestamp"])))
    items.append(("report", escape(run.source.name)))
    rows = "".join(f"<dt>{label}</dt><dd>{value}</dd>" for label, value in items)
    return (
        f'<article class="engine" id="engine-{engine}" data-engine="{engine}" '
        f'data-passed="{run.passed}" data-checked="{run.checked}" '
        f'data-counted="{run.counted}">'
        f'<div class="badge-holder">{badge_svg(run)}</div>'
        f'<p><a class="badge-file" href="{escape(badge_file)}">{escape(badge_file)}</a></p>'
        f"<dl>{rows}</dl></article>"
    )


def _readings(declared: dict[str, Any]) -> str:
    off = declared["off_profile"]
    if not off:
        return f"the {escape(declared['profile'])} profile's own"
    changed = ", ".join(f"{escape(v)}={escape(r)}" for v, r in sorted(off.items()))
    return f"{escape(declared['profile'])}, with {changed}"


def _also_plays(declared: dict[str, Any]) -> str:
    """The readings the engine implements besides those it plays, folded away."""
    plays = declared["plays"]
    more = {
        variant: [r for r in readings if r != plays.get(variant)]
        for variant, readings in sorted(declared["implemented"].items())
        if len(readings) > 1
    }
    if not more:
        return "no other reading"
    listed = "; ".join(
        f"{escape(variant)}: {', '.join(escape(r) for r in readings)}"
        for variant, readings in more.items()
    )
    count = sum(len(readings) for readings in more.values())
    return (
        f"<details><summary>{count} other reading(s) of {len(more)} variant(s)</summary>"
        f"{listed}</details>"
    )


def _capabilities(declared: dict[str, Any]) -> str:
    lacking = declared["lacking_capabilities"]
    if not lacking:
        return "all"
    return "all but " + ", ".join(escape(c) for c in lacking)


# -------------------------------------------------------------------- matrix --


def _matrix(runs: list[EngineRun], families: dict[str, list[Row]]) -> str:
    head = "".join(
        f'<th data-engine="{i}">{escape(run.label)}<br>{_breakable(badge_message(run), "/")}'
        "</th>"
        for i, run in enumerate(runs)
    )
    total = sum(len(rows) for rows in families.values())
    differing = sum(_differs(row, len(runs)) for rows in families.values() for row in rows)
    parts = [
        '<h2 id="matrix">Cases by engine</h2>',
        '<input type="checkbox" id="only-differ">',
        f'<label class="filter" for="only-differ">only the cases whose status differs '
        f'between the engines (<span id="differ-count">{differing}</span> of {total})</label>',
        '<div class="table-box">',
        '<table class="matrix" id="matrix-table">',
        f"<thead><tr><th>case</th><th>clauses</th>{head}</tr></thead>",
    ]
    for family, rows in families.items():
        counts = "".join(
            f'<th data-engine="{i}">{_family_count(rows, i)}</th>' for i in range(len(runs))
        )
        same = "" if any(_differs(row, len(runs)) for row in rows) else ' class="same"'
        parts.append(
            f'<tbody data-family="{escape(family)}"{same}><tr class="family" '
            f'id="family-{escape(family)}"><th colspan="2">{escape(family)} '
            f"({len(rows)} cases)</th>{counts}</tr>"
        )
        parts.extend(_row(row, len(runs)) for row in rows)
        parts.append("</tbody>")
    parts.append("</table></div>")
    return "\n".join(parts)


def _differs(row: Row, engines: int) -> bool:
    """Whether the case's status is not the same on every engine (absent counting as one)."""
    return len({row.cells[e][1]["status"] if e in row.cells else ABSENT
                for e in range(engines)}) > 1


def _family_count(rows: Iterable[Row], engine: int) -> str:
    statuses = [row.cells[engine][1]["status"] for row in rows if engine in row.cells]
    passed = sum(1 for s in statuses if s in PASSED_STATUSES)
    counted = sum(1 for s in statuses if s in COUNTED_STATUSES)
    return f"{passed}/<wbr>{counted}"


def _breakable(text: str, after: str) -> str:
    """`text` escaped, where a line may break after each of the characters `after` (a
    `<wbr>`): a case id's dots and underscores, so that on a phone the case column is as
    narrow as its words and the engines' columns are in view."""
    shown = escape(text)
    for char in after:
        shown = shown.replace(char, f"{char}<wbr>")
    return shown


def _row(row: Row, engines: int) -> str:
    cells = []
    for engine in range(engines):
        if engine not in row.cells:
            cells.append(
                f'<td class="cell {ABSENT}" data-engine="{engine}" data-status="{ABSENT}" '
                'title="not in this engine\'s run">&mdash;</td>'
            )
            continue
        index, case = row.cells[engine]
        status = case["status"]
        text = CELL_TEXT[status]
        shown = (
            text
            if status == "passed"
            else f'<a class="status" href="#{detail_anchor(engine, index)}">{text}</a>'
        )
        rule = _link(case["rules"][0] if case["rules"] else "", "&sect;", "rule",
                     f"the rules: {case['clauses'][0]}")
        cells.append(
            f'<td class="cell {status}" data-engine="{engine}" data-status="{status}">'
            f"{shown}{rule}</td>"
        )
    same = "" if _differs(row, engines) else ' class="same"'
    return (
        f'<tr data-case="{escape(row.case_id)}"{same}><th title="{escape(row.title)}">'
        f"{_breakable(row.case_id, '._')}</th><td>{_clause_links(row.clauses, row.rules)}</td>"
        f"{''.join(cells)}</tr>"
    )


def _clause_links(clauses: list[str], rules: list[str]) -> str:
    return " ".join(
        _link(rules[i] if i < len(rules) else "", escape(clause), "clause", f"the rules: {clause}")
        for i, clause in enumerate(clauses)
    )


def _link(href: str, shown: str, css_class: str, title: str) -> str:
    """An <a> to `href` showing `shown` (already HTML), or the bare text when the link is
    unsafe or missing."""
    safe = safe_href(href) if href else None
    if safe is None:
        return f'<span class="{css_class}">{shown}</span>'
    return f'<a class="{css_class}" href="{escape(safe)}" title="{escape(title)}">{shown}</a>'


# ------------------------------------------------------------------- details --


def _details(engine: int, run: EngineRun) -> list[str]:
    parts = []
    for index, case in enumerate(run.cases):
        if case["status"] == "passed":
            continue
        lines = [
            f'<section class="detail" id="{detail_anchor(engine, index)}" '
            f'data-engine="{engine}" data-case="{escape(case["id"])}">',
            f"<h3>{escape(run.label)}: {escape(case['id'])} &mdash; "
            f'<span class="{case["status"]}">{case["status"]}</span>'
            + (f" ({escape(case['reason'])})" if case["reason"] else "")
            + "</h3>",
            f"<p>{escape(case['title'])}; clauses "
            f"{_clause_links(case['clauses'], case['rules'])}</p>",
        ]
        if case["lacking"]:
            lines.append(f"<p>lacking: {escape(', '.join(case['lacking']))}</p>")
        if case["xfail_reason"]:
            lines.append(f"<p>listed as an expected failure: {escape(case['xfail_reason'])}</p>")
        if case["message"]:
            lines.append(f'<pre class="message">{escape(case["message"])}</pre>')
        if case["diff"]:
            lines.append(f'<pre class="diff">{_diff_lines(case["diff"])}</pre>')
        lines.append(f'<p>rerun:</p><pre class="rerun">{escape(case["rerun"])}</pre>')
        lines.append('<p><a href="#matrix">back to the matrix</a></p></section>')
        parts.append("\n".join(lines))
    return parts


def _diff_lines(diff: str) -> str:
    out = []
    for line in diff.splitlines():
        css = "add" if line.startswith("+") else "del" if line.startswith("-") else ""
        text = escape(line)
        out.append(f'<span class="{css}">{text}</span>' if css else text)
    return "\n".join(out)
