"""The rules document links clauses and conformance cases both ways: each clause lists
exactly the cases of the pack citing it (regression snapshots apart), each case has a row
in the index with an anchor and links back to its clauses, and the search box's data
points at anchors that exist. Expected values are computed here from the pack's JSON."""

from __future__ import annotations

import json
import os
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from baloot.backends.document.cases import FOLD_OVER
from baloot.backends.document.document import Options, build_document
from baloot.backends.document.html import render_html
from baloot.backends.document.markdown import render_markdown
from baloot.backends.document.stored import StoredFileError
from baloot.grammar import model as m
from baloot.grammar.parser import assemble, parse_text

ROOT = Path(__file__).resolve().parents[2]
PACK = ROOT / "conformance" / "cases"


def pack_cases(folder: Path) -> list[dict[str, Any]]:
    """Every case of the pack folder, as the JSON has it, with its file."""
    cases = []
    for path in sorted(folder.rglob("*.json")):
        if path.parent == folder and path.name in ("pack.json", "spec-register.json"):
            continue
        for case in json.loads(path.read_text(encoding="utf-8"))["cases"]:
            cases.append({**case, "_file": path.relative_to(folder).as_posix()})
    return cases


def expected_citing(cases: list[dict[str, Any]], clause: str) -> tuple[list[str], list[str]]:
    """(worked-out and witness cases, regression snapshots) citing `clause`, sorted."""
    citing = [c for c in cases if clause in c["clauses"]]
    return (sorted(c["id"] for c in citing if c.get("origin") != "regression_snapshot"),
            sorted(c["id"] for c in citing if c.get("origin") == "regression_snapshot"))


class Page(HTMLParser):
    """Per clause box, the case links in it (in order, and whether under the snapshots'
    part); per case row, the links in it; every id and every local link; the search data."""

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[tuple[str, dict[str, str | None]]] = []
        self.ids: list[str] = []
        self.hrefs: list[str] = []
        self.clause_links: dict[str, list[tuple[str, bool]]] = {}
        self.row_links: dict[str, list[str]] = {}
        self.summaries: dict[str, list[str]] = {}  # clause anchor -> its summaries' texts
        self.search_data = ""
        self.search_form: dict[str, str | None] | None = None
        self._in_summary: str | None = None
        self._in_data = False

    def _open(self, kind: str) -> str | None:
        """The id of the innermost open element of class `kind` (or the row, for tr)."""
        for tag, attrs in reversed(self.stack):
            if kind == "tr" and tag == "tr":
                return attrs.get("id")
            if (attrs.get("class") or "").split()[:1] == [kind]:
                return attrs.get("id")
        return None

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._element(tag, dict(attrs))  # <path ... />: nothing to close

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        self._element(tag, found)
        if tag not in ("br", "hr", "meta", "input", "img", "link"):  # void elements
            self.stack.append((tag, found))
        if tag == "summary":
            self._in_summary = self._open("clause")
            if self._in_summary is not None:
                self.summaries.setdefault(self._in_summary, []).append("")

    def _element(self, tag: str, found: dict[str, str | None]) -> None:
        if found.get("id"):
            self.ids.append(str(found["id"]))
        if tag == "form" and found.get("id") == "search":
            self.search_form = found
        if tag == "script" and found.get("id") == "search-data":
            self._in_data = True
        href = found.get("href")
        if tag == "a" and href:
            self.hrefs.append(href)
            if href.startswith("#case-"):
                clause = self._open("clause")
                if clause is not None:
                    snapshot = any((a.get("class") or "") == "snapshots" for _, a in self.stack)
                    self.clause_links.setdefault(clause, []).append((href[1:], snapshot))
            row = self._open("tr")
            if row is not None:
                self.row_links.setdefault(row, []).append(href)

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._in_data = False
        if tag == "summary":
            self._in_summary = None
        if any(t == tag for t, _ in self.stack):
            while self.stack.pop()[0] != tag:
                pass

    def handle_data(self, data: str) -> None:
        if self._in_data:
            self.search_data += data
        if self._in_summary is not None:
            self.summaries[self._in_summary][-1] += data


@pytest.fixture(scope="module")
def page(rendered: Path) -> Page:
    parser = Page()
    parser.feed((rendered / "rules.html").read_text(encoding="utf-8"))
    return parser


@pytest.fixture(scope="module")
def cases() -> list[dict[str, Any]]:
    return pack_cases(PACK)


def _anchor(clause_id: str) -> str:
    return "clause-" + clause_id.replace(".", "-")


def test_each_clause_lists_exactly_the_cases_citing_it(spec: m.Spec, page: Page,
                                                       cases: list[dict[str, Any]]) -> None:
    assert len(cases) > 100 and any(c.get("origin") == "regression_snapshot" for c in cases)
    for clause in spec.clauses:
        counted, snapshots = expected_citing(cases, clause.id)
        listed = page.clause_links.get(_anchor(clause.id), [])
        assert [c for c, snap in listed if not snap] == [f"case-{c}" for c in counted], clause.id
        assert [c for c, snap in listed if snap] == [f"case-{c}" for c in snapshots], clause.id
        folded = [s for s in page.summaries.get(_anchor(clause.id), [])
                  if s.startswith("Tested by")]
        if len(counted) + len(snapshots) > FOLD_OVER:  # many: a count, the list folded
            assert folded == [f"Tested by {len(counted)} cases" + (
                f", and {len(snapshots)} regression snapshot(s)" if snapshots else "")], clause.id
        else:
            assert folded == [], clause.id
    sizes = [sum(map(len, expected_citing(cases, c.id))) for c in spec.clauses]
    assert max(sizes) > FOLD_OVER >= min(sizes)  # both kinds are there to check


def test_the_markdown_lists_the_same_cases(spec: m.Spec, rendered: Path,
                                           cases: list[dict[str, Any]]) -> None:
    md = (rendered / "rules.md").read_text(encoding="utf-8")
    for clause in spec.clauses:
        start = md.index(f'<a id="{_anchor(clause.id)}"></a>')
        ends = [md.find(mark, start + 1) for mark in ('<a id="clause-', '<a id="family-',
                                                      "\n## ")]
        chunk = md[start:min(e for e in ends if e > 0)]
        counted, snapshots = expected_citing(cases, clause.id)
        found = re.findall(r"\]\(#case-([^)]+)\)", chunk)
        assert found == counted + snapshots, clause.id
        assert "<details>" not in chunk.split("*Tested by")[-1]  # a plain list, never folded


def test_every_case_has_its_anchor_and_links_back_to_its_clauses(
        spec: m.Spec, page: Page, rendered: Path, cases: list[dict[str, Any]]) -> None:
    ids = set(page.ids)
    assert len(page.ids) == len(ids)
    md_ids = re.findall(r'<a id="(case-[^"]+)"></a>', (rendered / "rules.md").read_text())
    assert md_ids == [f"case-{c['id']}" for c in cases]  # by file, in the file's order
    known = {c.id for c in spec.clauses}
    for case in cases:
        anchor = f"case-{case['id']}"
        assert anchor in ids
        back = [f"#{_anchor(c)}" for c in case["clauses"] if c in known]
        assert page.row_links.get(anchor, []) == back, case["id"]
    case_links = {h[1:] for h in page.hrefs if h.startswith("#case-")}
    assert case_links and case_links <= ids
    assert case_links == {f"case-{c['id']}" for c in cases
                          if any(x in known for x in c["clauses"])}
    assert {h[1:] for h in page.hrefs if h.startswith("#")} <= ids
    for path in {c["_file"] for c in cases}:  # each file's heading links to the file
        link = Path(os.path.relpath(PACK / path, rendered)).as_posix()
        assert link in page.hrefs, path


def test_the_search_data_finds_every_clause_rule_variant_and_case(
        spec: m.Spec, page: Page, cases: list[dict[str, Any]]) -> None:
    assert page.search_form is not None and "hidden" in page.search_form  # shown by its script
    entries = json.loads(page.search_data)
    ids = set(page.ids)
    assert [e for e in entries if e["a"] not in ids] == []
    by_name = {(e["k"], n): e["a"] for e in entries for n in e["n"]}
    for clause in spec.clauses:
        assert by_name[("clause", clause.id)] == _anchor(clause.id)
    for rule in spec.rules:
        assert by_name[("rule", rule.name)] == f"rule-{rule.name}"
    for variant in spec.variants:
        assert by_name[("variant", variant.id)] == f"variant-{variant.id}"
        assert by_name[("variant", variant.name)] == f"variant-{variant.id}"
    for case in cases:
        assert by_name[("case", case["id"])] == f"case-{case['id']}"


# ------------------------------------------------------ a tiny pack, by hand --

TINY = """
clause SETUP.1 "Four players."
clause SCORE.1 "Scores come from cards."
rule teams [SETUP.1, SCORE.1] "Two teams." () -> int { return 2 }
"""


def _tiny_case(case_id: str, clauses: list[str], origin: str | None = None) -> dict[str, Any]:
    case: dict[str, Any] = {"id": case_id, "kind": "legal", "title": f"{case_id} </script>",
                            "clauses": clauses, "setup": {}, "actions": [], "expect": {}}
    if origin:
        case["origin"] = origin
    return case


def _write(folder: Path, name: str, cases: list[dict[str, Any]]) -> None:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"cases": cases}), encoding="utf-8")


def _document(tmp_path: Path, pack: Path) -> tuple[str, str]:
    spec = assemble(parse_text(TINY, "tiny.baloot"), [("tiny.baloot", TINY)])
    document = build_document(spec, tmp_path / "docs", Options(examples=False, proofs="none",
                                                               pack=pack), root=tmp_path)
    return render_html(document), render_markdown(document)


def _clause(html: str, anchor: str) -> str:
    start = html.index(f'id="{anchor}"')
    end = html.find('<div class="clause"', start)
    return html[start:end if end > 0 else html.index("</section>", start)]


def test_a_tiny_pack(tmp_path: Path) -> None:
    pack = tmp_path / "pack"
    many = [_tiny_case(f"s1.case-{i:02d}", ["SETUP.1"]) for i in range(FOLD_OVER, -1, -1)]
    _write(pack, "b.json", many)
    _write(pack, "a/one.json", [_tiny_case("score.one", ["SCORE.1", "END.9"]),
                                _tiny_case("golden.one", ["SCORE.1"], "regression_snapshot")])
    _write(pack, "pack.json", [_tiny_case("not.a.case", ["SCORE.1"])])  # top: not case files
    html, md = _document(tmp_path, pack)
    setup = _clause(html, "clause-SETUP-1")
    assert f"<summary>Tested by {FOLD_OVER + 1} cases</summary>" in setup
    assert re.findall(r'href="#case-([^"]+)"', setup) == sorted(c["id"] for c in many)
    score = _clause(html, "clause-SCORE-1")
    assert "<details>" not in score and "not.a.case" not in html
    assert re.findall(r'href="#case-([^"]+)"', score) == ["score.one", "golden.one"]
    snapshots = score[score.index('<div class="snapshots">'):]
    assert re.findall(r'href="#case-([^"]+)"', snapshots) == ["golden.one"]
    # the index: by file, sorted by path; a clause the spec lacks is shown, not linked
    rows = re.findall(r'<tr id="case-([^"]+)">', html)
    assert rows == ["score.one", "golden.one", *(c["id"] for c in many)]
    assert '<a href="#clause-SCORE-1">SCORE.1</a>, <code>END.9</code>' in html
    assert 'href="../pack/a/one.json"' in html
    assert html.count("</script>") == 2 and "<summary>" not in md  # titles are escaped
    assert md.count("(#case-s1.case-00)") == 1 and '<a id="case-golden.one"></a>' in md


def test_a_missing_pack_is_said_and_a_bad_one_is_an_error(tmp_path: Path) -> None:
    html, _ = _document(tmp_path, tmp_path / "nowhere")
    assert "No pack of conformance cases at" in html and 'href="#case-' not in html
    pack = tmp_path / "pack"
    _write(pack, "a.json", [_tiny_case("same", ["SETUP.1"])])
    _write(pack, "b.json", [_tiny_case("same", ["SCORE.1"])])
    with pytest.raises(StoredFileError, match=r"'same' is also in a\.json"):
        _document(tmp_path, pack)
    _write(pack, "b.json", [{"id": "x", "kind": "legal", "title": "t", "clauses": "SETUP.1"}])
    with pytest.raises(StoredFileError, match="field 'clauses' should be a list"):
        _document(tmp_path, pack)
    (pack / "b.json").write_text("{", encoding="utf-8")
    with pytest.raises(StoredFileError, match=r"b\.json: not a readable case file"):
        _document(tmp_path, pack)


def test_render_command_takes_a_pack_folder(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    from baloot.cli.main import main

    pack, spec = tmp_path / "pack", tmp_path / "spec"
    spec.mkdir()
    (spec / "tiny.baloot").write_text(TINY, encoding="utf-8")
    _write(pack, "only.json", [_tiny_case("only.case", ["SETUP.1"])])
    out = tmp_path / "docs"
    tiny = ["--spec", str(spec), "--out", str(out)]
    assert main(["spec", "render", *tiny, "--pack", str(pack)]) == 0
    html = (out / "rules.html").read_text(encoding="utf-8")
    assert re.findall(r'<tr id="case-([^"]+)">', html) == ["only.case"]
    assert main(["spec", "render", "--check", *tiny, "--pack", str(pack)]) == 0
    _write(pack, "only.json", [_tiny_case("only.case", ["SCORE.1"])])
    assert main(["spec", "render", "--check", *tiny, "--pack", str(pack)]) == 1
    assert f"--pack {pack}" in capsys.readouterr().err
    assert main(["spec", "render", *tiny, "--pack", str(tmp_path / "no")]) == 1
    assert "no pack folder" in capsys.readouterr().err
