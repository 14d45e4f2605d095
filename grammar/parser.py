"""From spec text to the typed model.

`parse_text` parses one file; `load_spec` parses every `*.baloot` file of a
folder and runs the semantic checks. Syntax errors come back as `SpecError`
with the file, line and column, the offending line, and what the grammar
expected there.
"""

from __future__ import annotations

import ast
import warnings
from collections.abc import Iterable
from dataclasses import replace
from importlib import resources
from pathlib import Path
from typing import Any

from lark import Token, Transformer, Tree, v_args
from lark.exceptions import (
    UnexpectedCharacters,
    UnexpectedEOF,
    UnexpectedInput,
    UnexpectedToken,
    VisitError,
)
from lark.tree import Meta

from . import model as m
from .checks import check_spec
from .errors import SpecError, SpecProblem
from .lark_grammar import grammar

# Readable names for the grammar's terminals, used in "expected ..." lines.
TERMINAL_NAMES = {
    "NAME": "a name", "CLAUSE_ID": "a clause ID such as SCORE.7", "INT": "a whole number",
    "STRING": 'a "quoted text"', "LBRACE": "'{'", "RBRACE": "'}'", "LPAR": "'('",
    "RPAR": "')'", "LSQB": "'['", "RSQB": "']'", "COMMA": "','", "COLON": "':'",
    "EQUAL": "'='", "MORETHAN": "'>'", "LESSTHAN": "'<'", "QMARK": "'?'", "DOT": "'.'",
    "PLUS": "'+'", "MINUS": "'-'", "STAR": "'*'", "PERCENT": "'%'", "$END": "the end of the file",
}


def _describe_terminal(name: str) -> str:
    if name in TERMINAL_NAMES:
        return TERMINAL_NAMES[name]
    try:
        pattern = grammar().get_terminal(name).pattern
    except KeyError:
        return name.lower()
    return f"'{pattern.value}'" if pattern.type == "str" else name.lower()


class _ToModel(Transformer[Token, Any]):
    """Builds model objects from the parse tree, keeping every position."""

    def __init__(self, file: str) -> None:
        super().__init__()
        self.file = file

    def _pos(self, meta: Meta | Token) -> m.Pos:
        return m.Pos(self.file, getattr(meta, "line", 1), getattr(meta, "column", 1))

    def _tok(self, token: Token) -> m.Pos:
        return m.Pos(self.file, token.line or 1, token.column or 1)

    def _string(self, token: Token) -> str:
        """A quoted text's value; a bad escape is a positioned error, not a crash."""
        try:
            value = _unquote(token)
            value.encode("utf-8")  # a \ud800 escape is half a surrogate pair: no character
        except (SyntaxError, ValueError, Warning):  # UnicodeEncodeError is a ValueError
            raise SpecError([SpecProblem(
                self._tok(token), "bad escape in a quoted text",
                'a text whose backslashes start an escape such as \\" \\\\ \\n or \\t')]) from None
        return value

    # -- small pieces -------------------------------------------------------------

    def text(self, children: list[Token]) -> str:
        return "".join(self._string(t) for t in children)

    @v_args(meta=True)
    def cites(self, meta: Meta, children: list[Token]) -> tuple[m.Citation, ...]:
        return tuple(m.Citation(str(t), self._tok(t)) for t in children)

    def _int(self, token: Token) -> int:
        """A whole number's value; one of more than MAX_DIGITS digits is a positioned error."""
        if len(str(token).lstrip("0")) > MAX_DIGITS:
            raise SpecError([SpecProblem(self._tok(token), f"a number of {len(str(token))} "
                                         "digits", f"a whole number of at most {MAX_DIGITS} "
                                         "digits")])
        return int(token)

    def signed_int(self, children: list[Token]) -> int:
        return self._int(children[0])

    def negative_int(self, children: list[Token]) -> int:
        return -self._int(children[0])

    # -- types --------------------------------------------------------------------

    @v_args(meta=True)
    def plain_type(self, meta: Meta, children: list[Token]) -> m.PlainType:
        return m.PlainType(str(children[0]), self._tok(children[0]))

    @v_args(meta=True)
    def optional_type(self, meta: Meta, children: list[m.Type]) -> m.OptionalType:
        return m.OptionalType(children[0], self._pos(meta))

    @v_args(meta=True)
    def list_type(self, meta: Meta, children: list[m.Type]) -> m.ListType:
        return m.ListType(children[0], self._pos(meta))

    # -- declarations -------------------------------------------------------------

    @v_args(meta=True)
    def clause(self, meta: Meta, children: list[Any]) -> m.Clause:
        ident, text, notes = children[0], children[1], children[2] if len(children) > 2 else None
        return m.Clause(str(ident), text, notes, self._tok(ident))

    def clause_notes(self, children: list[str]) -> str:
        return children[0]

    def translations(self, children: list[str]) -> str:
        return children[0]

    @v_args(meta=True)
    def enum(self, meta: Meta, children: list[Any]) -> m.Enum:
        name, cites, *rest = children
        doc, members = _split_doc(rest)
        return m.Enum(str(name), cites, doc, tuple(members), self._tok(name))

    def member(self, children: list[Token | None]) -> m.EnumMember:
        name, notation = children[0], children[1] if len(children) > 1 else None
        assert isinstance(name, Token)
        return m.EnumMember(str(name), self._string(notation) if notation else None,
                            self._tok(name))

    @v_args(meta=True)
    def record(self, meta: Meta, children: list[Any]) -> m.Record:
        name, cites, *rest = children
        doc, fields = _split_doc(rest)
        return m.Record(str(name), cites, doc, tuple(fields), self._tok(name))

    def field(self, children: list[Any]) -> m.Field:
        return m.Field(str(children[0]), children[1], self._tok(children[0]))

    @v_args(meta=True)
    def order(self, meta: Meta, children: list[Any]) -> m.Order:
        name, cites, *rest = children
        doc = rest.pop(0) if isinstance(rest[0], str) and not isinstance(rest[0], Token) else None
        over, *members = rest
        return m.Order(
            str(name), cites, doc, str(over), self._tok(over),
            tuple(m.OrderMember(str(t), self._tok(t)) for t in members), self._tok(name),
        )

    @v_args(meta=True)
    def table(self, meta: Meta, children: list[Any]) -> m.Table:
        name, cites, *rest = children
        doc = rest.pop(0) if isinstance(rest[0], str) and not isinstance(rest[0], Token) else None
        key, value_type, *entries = rest
        return m.Table(str(name), cites, doc, str(key), self._tok(key), value_type,
                       tuple(entries), self._tok(name))

    def entry(self, children: list[Any]) -> m.TableEntry:
        return m.TableEntry(str(children[0]), children[1], self._tok(children[0]))

    @v_args(meta=True)
    def const(self, meta: Meta, children: list[Any]) -> m.Const:
        name, cites, *rest = children
        doc = rest[0] if len(rest) == 2 else None
        return m.Const(str(name), cites, doc, rest[-1], self._tok(name))

    @v_args(meta=True)
    def rule(self, meta: Meta, children: list[Any]) -> m.Rule:
        name, cites, *rest = children
        doc = rest.pop(0) if isinstance(rest[0], str) and not isinstance(rest[0], Token) else None
        *params, returns, body = rest
        return m.Rule(str(name), cites, doc, tuple(p for p in params if p is not None),
                      returns, body, self._tok(name))

    def param(self, children: list[Any]) -> m.Param:
        return m.Param(str(children[0]), children[1], self._tok(children[0]))

    @v_args(meta=True)
    def machine(self, meta: Meta, children: list[Any]) -> m.Machine:
        name, cites, *rest = children
        doc, items = _split_doc(rest)
        states = tuple(i for i in items if isinstance(i, m.MachineState))
        transitions = tuple(i for i in items if isinstance(i, m.Transition))
        return m.Machine(str(name), cites, doc, states, transitions, self._tok(name))

    def state(self, children: list[Any]) -> m.MachineState:
        return m.MachineState(str(children[0]), children[1], self._tok(children[0]))

    def transition(self, children: list[Any]) -> m.Transition:
        source, target, *rest = children
        causes = [str(c) for c in rest if isinstance(c, Token)]
        cites = next((c for c in rest if isinstance(c, tuple)), ())
        doc = next((c for c in rest if isinstance(c, str) and not isinstance(c, Token)), None)
        return m.Transition(str(source), str(target), tuple(causes), cites, doc,
                            self._tok(source), self._tok(target))

    @v_args(meta=True)
    def variant(self, meta: Meta, children: list[Any]) -> m.Variant:
        ident, name, cites, doc, *rest = children
        default: Token | None = rest.pop() if rest and isinstance(rest[-1], Token) else None
        if rest and rest[-1] is None:
            rest.pop()
        return m.Variant(
            str(ident), str(name), cites, doc, tuple(rest),
            str(default) if default is not None else None,
            self._tok(default) if default is not None else None, self._tok(ident),
        )

    def reading(self, children: list[Any]) -> m.Reading:
        return m.Reading(str(children[0]), children[1], children[2], self._tok(children[0]))

    def default(self, children: list[Token]) -> Token:
        return children[0]

    @v_args(meta=True)
    def profile(self, meta: Meta, children: list[Any]) -> m.Profile:
        name, doc, *picks = children
        return m.Profile(str(name), doc, tuple(picks), self._tok(name))

    @v_args(meta=True)
    def hooks(self, meta: Meta, children: list[Any]) -> m.Hooks:
        tool, doc, *bindings = children
        return m.Hooks(str(tool), doc, tuple(bindings), self._tok(tool))

    def hook(self, children: list[Token | None]) -> m.HookBinding:
        part, rule = children[0], children[1] if len(children) > 1 else None
        assert isinstance(part, Token)
        named = rule if rule is not None else part
        return m.HookBinding(str(part), str(named), self._tok(part), self._tok(named))

    def pick(self, children: list[Any]) -> m.Pick:
        variant, reading, *evidence = children
        evidence = [e for e in evidence if e is not None]
        sources = tuple(text for kind, text in evidence if kind == "source")
        against = tuple(text for kind, text in evidence if kind == "against")
        once = {kind: text for kind, text in evidence if kind in ("settled", "unsourced")}
        status = next((text for kind, text in evidence if kind == "status"), None)
        if "unsourced" in once and status is None:
            status = "unsourced"
        return m.Pick(str(variant), str(reading), self._tok(variant), self._tok(reading),
                      sources, once.get("settled"), once.get("unsourced"), status, against)

    def status_confirmed(self, children: list[Any]) -> tuple[str, str]:
        return ("status", "confirmed")

    def status_contested(self, children: list[Any]) -> tuple[str, str]:
        return ("status", "contested")

    def pick_source(self, children: list[str]) -> tuple[str, str]:
        return ("source", children[0])

    @v_args(meta=True)
    def pick_against(self, meta: Meta, children: list[Any]) -> tuple[str, m.Against]:
        *named, text = children
        reading = named[0] if named and named[0] is not None else None
        pos = self._tok(reading) if isinstance(reading, Token) else self._pos(meta)
        return ("against", m.Against(None if reading is None else str(reading), text, pos))

    def pick_settled(self, children: list[str]) -> tuple[str, str]:
        return ("settled", children[0])

    def pick_unsourced(self, children: list[str]) -> tuple[str, str]:
        return ("unsourced", children[0])

    @v_args(meta=True)
    def scope(self, meta: Meta, children: list[Any]) -> m.Scope:
        doc, *items = children
        return m.Scope(doc, tuple(items), self._pos(meta))

    def _scope_item(self, kind: str, children: list[Any]) -> m.ScopeItem:
        name, text, protocol = children
        return m.ScopeItem(kind, str(name), text, protocol, self._tok(name))

    def scope_checks(self, children: list[Any]) -> m.ScopeItem:
        return self._scope_item("checks", children)

    def scope_leaves(self, children: list[Any]) -> m.ScopeItem:
        return self._scope_item("leaves", children)

    def scope_protocol(self, children: list[str]) -> str:
        return children[0]

    # -- statements ---------------------------------------------------------------

    def block(self, children: list[m.Stmt]) -> tuple[m.Stmt, ...]:
        return tuple(children)

    @v_args(meta=True)
    def let(self, meta: Meta, children: list[Any]) -> m.Let:
        return m.Let(str(children[0]), children[1], self._pos(meta))

    @v_args(meta=True)
    def return_(self, meta: Meta, children: list[Any]) -> m.Return:
        return m.Return(children[0], self._pos(meta))

    @v_args(meta=True)
    def if_stmt(self, meta: Meta, children: list[Any]) -> m.If:
        condition, body, *rest = children
        branches = [m.IfBranch(condition, body, self._pos(meta))]
        otherwise = None
        for item in rest:
            if isinstance(item, m.IfBranch):
                branches.append(item)
            elif item is not None:
                otherwise = item
        return m.If(tuple(branches), otherwise, self._pos(meta))

    @v_args(meta=True)
    def elif_branch(self, meta: Meta, children: list[Any]) -> m.IfBranch:
        return m.IfBranch(children[0], children[1], self._pos(meta))

    def else_branch(self, children: list[Any]) -> tuple[m.Stmt, ...]:
        return tuple(children[0])

    @v_args(meta=True)
    def choose(self, meta: Meta, children: list[Any]) -> m.Choose:
        return m.Choose(str(children[0]), tuple(children[1:]), self._pos(meta))

    @v_args(meta=True)
    def choice_case(self, meta: Meta, children: list[Any]) -> m.ChoiceCase:
        *names, body = children
        return m.ChoiceCase(tuple(str(n) for n in names), body, self._pos(meta))

    @v_args(meta=True)
    def require(self, meta: Meta, children: list[Any]) -> m.Require:
        return m.Require(children[0], self._string(children[1]), self._pos(meta))

    # -- expressions --------------------------------------------------------------

    @v_args(meta=True)
    def if_expr(self, meta: Meta, c: list[Any]) -> m.IfExpr:
        return m.IfExpr(c[0], c[1], c[2], self._pos(meta))

    @staticmethod
    def _binary(op: str) -> Any:
        """A method building the BinOp of one operator (used in the class body below)."""
        @v_args(meta=True)
        def build(self: _ToModel, meta: Meta, c: list[Any]) -> m.BinOp:
            return m.BinOp(op, c[0], c[1], self._pos(meta))
        return build

    or_op = _binary("or")
    and_op = _binary("and")
    eq = _binary("==")
    ne = _binary("!=")
    lt = _binary("<")
    le = _binary("<=")
    gt = _binary(">")
    ge = _binary(">=")
    member_of = _binary("in")
    not_member_of = _binary("not in")
    add = _binary("+")
    sub = _binary("-")
    mul = _binary("*")
    floordiv = _binary("//")
    mod = _binary("%")

    @v_args(meta=True)
    def not_op(self, meta: Meta, c: list[Any]) -> m.UnaryOp:
        return m.UnaryOp("not", c[0], self._pos(meta))

    @v_args(meta=True)
    def neg(self, meta: Meta, c: list[Any]) -> m.UnaryOp:
        return m.UnaryOp("-", c[0], self._pos(meta))

    @v_args(meta=True)
    def reads(self, meta: Meta, c: list[Token]) -> m.Reads:
        return m.Reads(str(c[0]), str(c[1]), self._tok(c[0]), self._tok(c[1]))

    @v_args(meta=True)
    def field_of(self, meta: Meta, c: list[Any]) -> m.FieldOf:
        return m.FieldOf(c[0], str(c[1]), self._tok(c[1]))

    @v_args(meta=True)
    def index(self, meta: Meta, c: list[Any]) -> m.Index:
        return m.Index(c[0], c[1], self._pos(meta))

    @v_args(meta=True)
    def call(self, meta: Meta, c: list[Any]) -> m.Call:
        func, *args = c
        positional = tuple(a for a in args if a is not None and not isinstance(a, m.KeywordArg))
        keywords = tuple(a for a in args if isinstance(a, m.KeywordArg))
        return m.Call(func, positional, keywords, self._pos(meta))

    def keyword_arg(self, c: list[Any]) -> m.KeywordArg:
        return m.KeywordArg(str(c[0]), c[1], self._tok(c[0]))

    update = keyword_arg

    @v_args(meta=True)
    def with_update(self, meta: Meta, c: list[Any]) -> m.WithUpdate:
        return m.WithUpdate(c[0], tuple(c[1:]), self._pos(meta))

    def int_lit(self, c: list[Token]) -> m.IntLit:
        return m.IntLit(self._int(c[0]), self._tok(c[0]))

    def str_lit(self, c: list[Token]) -> m.StrLit:
        return m.StrLit(self._string(c[0]), self._tok(c[0]))

    @v_args(meta=True)
    def true_lit(self, meta: Meta, c: list[Any]) -> m.BoolLit:
        return m.BoolLit(True, self._pos(meta))

    @v_args(meta=True)
    def false_lit(self, meta: Meta, c: list[Any]) -> m.BoolLit:
        return m.BoolLit(False, self._pos(meta))

    @v_args(meta=True)
    def none_lit(self, meta: Meta, c: list[Any]) -> m.NoneLit:
        return m.NoneLit(self._pos(meta))

    def name(self, c: list[Token]) -> m.Name:
        return m.Name(str(c[0]), self._tok(c[0]))

    @v_args(meta=True)
    def list_lit(self, meta: Meta, c: list[Any]) -> m.ListLit:
        return m.ListLit(tuple(x for x in c if x is not None), self._pos(meta))

    @v_args(meta=True)
    def comprehension(self, meta: Meta, c: list[Any]) -> m.Comprehension:
        return m.Comprehension(c[0], tuple(c[1:]), self._pos(meta))

    @v_args(meta=True)
    def comp_for(self, meta: Meta, c: list[Any]) -> m.CompFor:
        return m.CompFor(str(c[0]), c[1], self._pos(meta))

    @v_args(meta=True)
    def comp_if(self, meta: Meta, c: list[Any]) -> m.CompIf:
        return m.CompIf(c[0], self._pos(meta))


# `return` is a Python keyword: the tree's `return` nodes go to `return_`.
setattr(_ToModel, "return", _ToModel.return_)


def _unquote(token: Token | str) -> str:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # an unknown escape such as \q is an error too
        value = ast.literal_eval(str(token))
    assert isinstance(value, str)
    return value


def _split_doc(rest: list[Any]) -> tuple[str | None, list[Any]]:
    if rest and isinstance(rest[0], str) and not isinstance(rest[0], Token):
        return rest[0], rest[1:]
    if rest and rest[0] is None:
        return None, rest[1:]
    return None, rest


def _accepted_before(text: str, offset: int | None) -> set[str]:
    """The terminals the parser accepts right after `text[:offset]`.

    Exact, unlike the sets on lark's errors: LALR merges states, so those may list
    what only another context allows (a declaration inside a table) or, after
    reducing on the error, miss what could still follow (another text).
    """
    if offset is None:
        return set()
    try:
        parser = grammar().parse_interactive(text[:offset])
        parser.exhaust_lexer()
        return set(parser.accepts())  # type: ignore[no-untyped-call]
    except UnexpectedInput:
        return set()


def _syntax_problem(err: UnexpectedInput, file: str, text: str) -> SpecProblem:
    # lines as the parser counts them: at "\n" only, not at a form feed or U+2028
    lines = [line.rstrip("\r") for line in text.split("\n")]
    if lines and lines[-1] == "" and len(lines) > 1:
        lines.pop()  # the end of the last line, as splitlines would drop it
    line = getattr(err, "line", None) or (len(lines) or 1)
    column = getattr(err, "column", None) or 1
    if isinstance(err, UnexpectedEOF) or line < 0:
        line = max(len(lines), 1)
        column = len(lines[-1]) + 1 if lines else 1
    source_line = lines[line - 1] if 0 < line <= len(lines) else ""
    expected_terms: Iterable[str]
    if isinstance(err, UnexpectedToken):
        if err.token.type == "$END":
            message = "the file ends too early"
        else:
            message = f"unexpected {str(err.token)!r}"
        end = len(text) if err.token.type == "$END" else err.token.start_pos
        expected_terms = _accepted_before(text, end) or err.accepts or err.expected
    elif isinstance(err, UnexpectedCharacters):
        message = f"unexpected character {source_line[column - 1:column]!r}"
        expected_terms = _accepted_before(text, err.pos_in_stream) or err.allowed or ()
    else:
        message = "the file ends too early"
        expected_terms = getattr(err, "expected", ()) or ()
    names = sorted({_describe_terminal(t) for t in expected_terms})
    expected = ", ".join(names) if names else "a declaration"
    return SpecProblem(m.Pos(file, line, column), message, f"one of: {expected}", source_line)


def parse_text(text: str, file: str = "<spec>") -> list[m.Decl]:
    """Parse the text of one spec file into its declarations."""
    try:
        tree = grammar().parse(text)
    except UnexpectedInput as err:
        raise SpecError([_syntax_problem(err, file, text)]) from None
    too_deep = _deeper_than(tree, MAX_NESTING)
    if too_deep is not None:
        line, column = too_deep
        lines = [line.rstrip("\r") for line in text.split("\n")]
        raise SpecError([SpecProblem(
            m.Pos(file, line, column), f"an expression nested deeper than {MAX_NESTING} levels",
            "a shallower expression: name its parts with `let`",
            lines[line - 1] if 0 < line <= len(lines) else None)])
    try:
        decls: list[m.Decl] = _ToModel(file).transform(tree).children
    except VisitError as err:
        if isinstance(err.orig_exc, SpecError):  # a positioned problem, such as a bad escape
            lines = [line.rstrip("\r") for line in text.split("\n")]
            raise SpecError([
                replace(p, source_line=lines[p.pos.line - 1] if p.pos.line <= len(lines) else None)
                for p in err.orig_exc.problems]) from None
        # otherwise a grammar/transformer mismatch
        raise SpecError([SpecProblem(m.Pos(file, 1, 1), f"internal: {err.orig_exc}",
                                     "a tree the model builder knows")]) from None
    return decls


# Bounds on what a spec may hold, so that no text can exhaust the builder's recursion or
# Python's conversion of long numbers (the project's spec nests 15 deep).
MAX_NESTING = 100
MAX_DIGITS = 18


def _deeper_than(tree: Tree[Token], limit: int) -> tuple[int, int] | None:
    """(line, column) of a node nested deeper than `limit`, or None (no recursion)."""
    stack: list[tuple[Tree[Token], int]] = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > limit:
            meta = node.meta
            return (getattr(meta, "line", 1) or 1, getattr(meta, "column", 1) or 1)
        stack.extend((child, depth + 1) for child in node.children if isinstance(child, Tree))
    return None


def assemble(decls: Iterable[m.Decl], sources: Iterable[tuple[str, str]]) -> m.Spec:
    """Gather the declarations of every file into one spec (no checks)."""
    sources = tuple(sources)
    kinds: dict[type, list[m.Decl]] = {}
    for d in decls:
        kinds.setdefault(type(d), []).append(d)

    def of(kind: type) -> tuple[Any, ...]:
        return tuple(kinds.get(kind, ()))

    machines: tuple[m.Machine, ...] = of(m.Machine)
    return m.Spec(
        files=tuple(f for f, _ in sources), sources=sources, clauses=of(m.Clause),
        enums=of(m.Enum) + tuple(mc.as_enum() for mc in machines), records=of(m.Record),
        orders=of(m.Order), tables=of(m.Table), consts=of(m.Const), rules=of(m.Rule),
        machines=machines, variants=of(m.Variant), profiles=of(m.Profile), hooks=of(m.Hooks),
        scopes=of(m.Scope),
    )


def default_spec_dir() -> Path:
    """The project's own spec: the `spec/` folder."""
    return Path(str(resources.files("baloot.spec")))


def spec_files(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.baloot"))


def display_path(path: Path) -> str:
    """A path as the user would type it: relative to the working folder when inside it."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except (ValueError, OSError, RuntimeError):  # outside it, or a link that loops
        return str(path)


def parse_files(paths: Iterable[Path]) -> m.Spec:
    """Parse several files (no semantic checks); every syntax error is reported."""
    decls: list[m.Decl] = []
    problems: list[SpecProblem] = []
    sources: list[tuple[str, str]] = []
    for path in paths:
        name = display_path(path)
        if not path.is_file():  # a pipe would block the read; a looping link cannot be read
            problems.append(SpecProblem(m.Pos(name, 1, 1), "not a regular file (a folder, a "
                                        "pipe, a device or a link that leads nowhere)",
                                        "a readable UTF-8 text file"))
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as err:
            problems.append(SpecProblem(m.Pos(name, 1, 1), f"cannot read the file: {err}",
                                        "a readable UTF-8 text file"))
            continue
        sources.append((name, text))
        try:
            decls.extend(parse_text(text, name))
        except SpecError as err:
            problems.extend(err.problems)
    if problems:
        raise SpecError(problems)
    return assemble(decls, sources)


def load_spec(folder: Path | None = None, *, coverage: bool = True) -> m.Spec:
    """Parse and check a whole spec folder; raises `SpecError` on any problem.

    `coverage=False` lets clauses that no rule cites pass (for `spec trace`).
    """
    folder = folder or default_spec_dir()
    paths = spec_files(folder)
    if not paths:
        raise SpecError([SpecProblem(m.Pos(display_path(folder), 1, 1),
                                     "no spec files in this folder", "files named *.baloot")])
    spec = parse_files(paths)
    if not spec.clauses:
        raise SpecError([SpecProblem(m.Pos(display_path(paths[0]), 1, 1),
                                     "the spec declares no clause", "the source's clauses, "
                                     "declared with `clause ID \"text\"`")])
    check_spec(spec, coverage=coverage)
    return spec
