"""Rule bodies as Python source: statements and expressions.

The emitted code reads like hand-written Python: the same names as the spec,
enum members as `Suit.SPADES`, tables, orders and constants as upper-case
module names, records as frozen dataclasses, and each `choose` as a plain
if/elif over the reading in force.
"""

from __future__ import annotations

import json
import keyword
import textwrap
from collections.abc import Callable
from dataclasses import dataclass

from ...grammar import model as m
from ...grammar.analysis import Analysis, ListOf, Maybe, Simple, Type, type_of_declared
from ...grammar.walk import walk

WIDTH = 99  # the generated modules' line length (black's, in generate._finish)

# Python precedence, low to high, for the operators the rule language has.
PRECEDENCE = {
    "if": 1, "or": 2, "and": 3, "not": 4,
    "==": 5, "!=": 5, "<": 5, "<=": 5, ">": 5, ">=": 5, "in": 5, "not in": 5,
    "+": 6, "-": 6, "*": 7, "//": 7, "%": 7, "neg": 8, "atom": 9,
}
COMPARISONS = {"==", "!=", "<", "<=", ">", ">=", "in", "not in"}
PYTHON_BUILTINS = {"len", "sum", "max", "min", "any", "all", "range", "abs"}
RUNTIME_BUILTINS = {"remove", "index_of"}


def local_name(name: str, taken: frozenset[str] = frozenset()) -> str:
    """A spec name as a Python local.

    Python keywords, the built-ins rules call, and the names of generated
    modules (`taken`) get a trailing underscore.
    """
    clash = keyword.iskeyword(name) or name in PYTHON_BUILTINS or name in taken
    return name + "_" if clash else name


def py_str(text: str) -> str:
    """A Python string literal in double quotes."""
    literal: str = json.dumps(text, ensure_ascii=False)
    return literal


def reading_comment(reading: str, meaning: str, indent: str) -> list[str]:
    """`# reading: meaning`, wrapped to the line length; the lines after the first
    indented under it."""
    return textwrap.wrap(f"{reading}: {meaning}", width=WIDTH, initial_indent=f"{indent}# ",
                         subsequent_indent=f"{indent}#     ", break_long_words=False,
                         break_on_hyphens=False)


def constant_name(name: str) -> str:
    return name.upper()


def member_name(name: str) -> str:
    return name.upper()


@dataclass
class Context:
    """What the emitter needs to know about names outside a rule body."""

    spec: m.Spec
    # name -> how to spell a reference to it from the module being written
    rule_ref: Callable[[str], str]
    needs_readings: Callable[[str], bool]
    rule_name: str = ""
    clauses: tuple[str, ...] = ()
    module_names: frozenset[str] = frozenset()
    # the types of the spec's expressions: with them, an optional value where the rules
    # need a value is written `known(x)`, which mypy reads as present (and which fails
    # when the value is none); without them, nothing is marked
    analysis: Analysis | None = None
    # whether a branch that tests a reading carries the reading's meaning as a comment
    # (the checked-in modules do; a rule written to run at once, `rule_source`, does not)
    comments: bool = True


class Emitter:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.spec = ctx.spec
        self.kinds: dict[str, str] = {}
        for e in self.spec.enums:
            self.kinds[e.name] = "enum"
            for mem in e.members:
                self.kinds[mem.name] = "member:" + e.name
        for r in self.spec.records:
            self.kinds[r.name] = "record"
        for o in self.spec.orders:
            self.kinds[o.name] = "constant"
        for t in self.spec.tables:
            self.kinds[t.name] = "constant"
        for c in self.spec.consts:
            self.kinds[c.name] = "constant"
        for rule in self.spec.rules:
            self.kinds[rule.name] = "rule"

    def local(self, name: str) -> str:
        return local_name(name, self.ctx.module_names)

    # -- types ------------------------------------------------------------------------

    def type_text(self, t: m.Type) -> str:
        if isinstance(t, m.PlainType):
            builtin: dict[str, str] = {"int": "int", "bool": "bool", "text": "str"}
            return builtin.get(t.name, t.name)
        if isinstance(t, m.OptionalType):
            return f"{self.type_text(t.inner)} | None"
        return f"list[{self.type_text(t.item)}]"

    # -- statements ----------------------------------------------------------------------

    def block(self, body: tuple[m.Stmt, ...], indent: str, locals_: set[str]) -> list[str]:
        lines: list[str] = []
        scope = set(locals_)
        for stmt in body:
            lines.extend(self.stmt(stmt, indent, scope))
            if isinstance(stmt, m.Let):
                scope.add(stmt.name)
        return lines

    def stmt(self, s: m.Stmt, indent: str, scope: set[str]) -> list[str]:
        if isinstance(s, m.Let):
            return [f"{indent}{self.local(s.name)} = {self.expr(s.value, scope)}"]
        if isinstance(s, m.Return):
            returns = type_of_declared(self.spec.rule(self.ctx.rule_name).returns) \
                if self.ctx.analysis is not None else None
            return [f"{indent}return {self.given(s.value, scope, returns)}"]
        if isinstance(s, m.Require):
            clauses = ", ".join(py_str(c) for c in self.ctx.clauses)
            condition = self.expr(m.UnaryOp("not", s.condition, s.pos), scope)
            return [
                f"{indent}if {condition}:",
                f"{indent}    raise IllegalAction({py_str(s.message)}, "
                f"rule={py_str(self.ctx.rule_name)}, "
                f"clauses=({clauses}{',' if len(self.ctx.clauses) == 1 else ''}))",
            ]
        if isinstance(s, m.If):
            lines: list[str] = []
            for i, branch in enumerate(s.branches):
                word = "if" if i == 0 else "elif"
                lines.append(f"{indent}{word} {self.expr(branch.condition, scope)}:")
                for reads in (n for n in walk(branch.condition) if isinstance(n, m.Reads)):
                    lines += self.meaning(reads.variant, (reads.reading,), indent + "    ")
                lines.extend(self.block(branch.body, indent + "    ", scope))
            if s.otherwise is not None:
                lines.append(f"{indent}else:")
                lines.extend(self.block(s.otherwise, indent + "    ", scope))
            return lines
        return self.choose(s, indent, scope)

    def choose(self, s: m.Choose, indent: str, scope: set[str]) -> list[str]:
        """One branch per reading; a reading no case names raises `UnknownReading`."""
        lines: list[str] = []
        subject = f"readings.{s.variant}"
        for i, case in enumerate(s.cases):
            if len(case.readings) == 1:
                test = f"{subject} == {py_str(case.readings[0])}"
            else:
                test = f"{subject} in ({', '.join(py_str(r) for r in case.readings)})"
            lines.append(f"{indent}{'if' if i == 0 else 'elif'} {test}:")
            lines += self.meaning(s.variant, case.readings, indent + "    ")
            lines.extend(self.block(case.body, indent + "    ", scope))
        lines += [f"{indent}else:",
                  f"{indent}    raise UnknownReading({py_str(s.variant)}, {subject})"]
        return lines

    def meaning(self, variant: str, readings: tuple[str, ...], indent: str) -> list[str]:
        """What each reading a branch tests means, as the register says it: comment lines
        at the top of the branch (`# reading: meaning`), wrapped to the line length."""
        if not self.ctx.comments:
            return []
        found = next((v for v in self.spec.variants if v.name == variant), None)
        texts = {r.name: r.text for r in found.readings} if found is not None else {}
        lines: list[str] = []
        for reading in readings:
            if reading in texts:
                lines += reading_comment(reading, texts[reading], indent)
        return lines

    # -- expressions ----------------------------------------------------------------------

    def expr(self, e: m.Expr, scope: set[str], min_prec: int = 0) -> str:
        text, prec = self._expr(e, scope)
        return f"({text})" if prec < min_prec else text

    def type_of(self, e: m.Expr) -> Type | None:
        return self.ctx.analysis.type_of(e) if self.ctx.analysis is not None else None

    def present(self, e: m.Expr, scope: set[str], min_prec: int = 0) -> str:
        """An expression whose value the rules need: an optional one is `known(...)`."""
        if isinstance(self.type_of(e), Maybe):
            return f"known({self.expr(e, scope)})"
        return self.expr(e, scope, min_prec)

    def given(self, e: m.Expr, scope: set[str], wanted: Type | None,
              min_prec: int = 0) -> str:
        """An expression given where a value of type `wanted` is expected (an argument,
        a field, a result): an optional value where a present one is wanted is marked."""
        if wanted is not None and not isinstance(wanted, Maybe):
            return self.present(e, scope, min_prec)
        return self.expr(e, scope, min_prec)

    def iterable(self, e: m.Expr, scope: set[str], min_prec: int) -> str:
        """What a comprehension runs over, or the list `in` looks into: `range(a, b)`
        as it stands (elsewhere it is a list, `list(range(a, b))`)."""
        if isinstance(e, m.Call) and isinstance(e.func, m.Name) and e.func.name == "range":
            return self.builtin_call(e, scope)
        return self.present(e, scope, min_prec)

    def _expr(self, e: m.Expr, scope: set[str]) -> tuple[str, int]:
        atom = PRECEDENCE["atom"]
        if isinstance(e, m.IntLit):
            return str(e.value), atom
        if isinstance(e, m.StrLit):
            return py_str(e.value), atom
        if isinstance(e, m.BoolLit):
            return ("True" if e.value else "False"), atom
        if isinstance(e, m.NoneLit):
            return "None", atom
        if isinstance(e, m.Name):
            return self.name(e.name, scope), atom
        if isinstance(e, m.Reads):
            return f"readings.{e.variant} == {py_str(e.reading)}", PRECEDENCE["=="]
        if isinstance(e, m.ListLit):
            return "[" + ", ".join(self.expr(i, scope) for i in e.items) + "]", atom
        if isinstance(e, m.Comprehension):
            return self.comprehension(e, scope), atom
        if isinstance(e, m.BinOp):
            return self.binop(e, scope)
        if isinstance(e, m.UnaryOp):
            if e.op == "not":
                inner = e.operand
                # `not (a in b)` is written `a not in b`
                if isinstance(inner, m.BinOp) and inner.op == "in":
                    return self.binop(m.BinOp("not in", inner.left, inner.right, inner.pos), scope)
                # a comparison under `not` keeps its brackets, for the reader
                operand = self.expr(e.operand, scope, PRECEDENCE["atom"])
                return f"not {operand}", PRECEDENCE["not"]
            return f"-{self.present(e.operand, scope, PRECEDENCE['neg'])}", PRECEDENCE["neg"]
        if isinstance(e, m.IfExpr):
            cond = self.expr(e.condition, scope, PRECEDENCE["or"])
            then = self.expr(e.then, scope, PRECEDENCE["or"])
            otherwise = self.expr(e.otherwise, scope, PRECEDENCE["if"])
            return f"{then} if {cond} else {otherwise}", PRECEDENCE["if"]
        if isinstance(e, m.FieldOf):
            return f"{self.present(e.base, scope, atom)}.{e.field}", atom
        if isinstance(e, m.Index):
            return f"{self.present(e.base, scope, atom)}[{self.present(e.key, scope)}]", atom
        if isinstance(e, m.Call):
            return self.call(e, scope), atom
        # m.WithUpdate
        fields = self.field_types(self.type_of(e))
        updates = ", ".join(f"{u.name}={self.given(u.value, scope, fields.get(u.name))}"
                            for u in e.updates)
        return f"replace({self.present(e.base, scope)}, {updates})", atom

    def name(self, name: str, scope: set[str]) -> str:
        if name in scope:
            return self.local(name)
        kind = self.kinds.get(name, "")
        if kind.startswith("member:"):
            return f"{kind.split(':', 1)[1]}.{member_name(name)}"
        if kind == "enum":  # the members in order, a tuple made once
            return f"{constant_name(name)}_MEMBERS"
        if kind == "constant":
            return constant_name(name)
        return name

    def binop(self, e: m.BinOp, scope: set[str]) -> tuple[str, int]:
        prec = PRECEDENCE[e.op]
        if e.op in ("==", "!=") and isinstance(e.right, m.NoneLit):  # `x is None`, as Python has it
            op = "is" if e.op == "==" else "is not"
            return f"{self.expr(e.left, scope, prec + 1)} {op} None", prec
        if e.op in ("==", "!="):
            left = self.expr(e.left, scope, prec + 1)
            right = self.expr(e.right, scope, prec + 1)
        elif e.op in ("in", "not in"):
            left = self.expr(e.left, scope, prec + 1)
            right = self.iterable(e.right, scope, prec + 1)
        elif e.op in COMPARISONS:
            left = self.present(e.left, scope, prec + 1)
            right = self.present(e.right, scope, prec + 1)
        elif e.op in ("and", "or"):
            left = self.expr(e.left, scope, prec)
            right = self.expr(e.right, scope, prec + 1)
        else:  # left-associative: a right operand of the same precedence needs brackets
            left = self.present(e.left, scope, prec)
            right = self.present(e.right, scope, prec + 1)
        return f"{left} {e.op} {right}", prec

    def comprehension(self, e: m.Comprehension, scope: set[str]) -> str:
        inner = set(scope)
        parts: list[str] = []
        for clause in e.clauses:
            if isinstance(clause, m.CompFor):
                iterable = self.iterable(clause.iterable, inner, PRECEDENCE["or"])
                inner.add(clause.target)
                parts.append(f"for {self.local(clause.target)} in {iterable}")
            else:
                parts.append(f"if {self.expr(clause.condition, inner, PRECEDENCE['or'])}")
        return f"[{self.expr(e.element, inner)} {' '.join(parts)}]"

    def field_types(self, t: Type | None) -> dict[str, Type]:
        """The declared types of a record type's fields (none when the type is unknown)."""
        if t is None or isinstance(t, Maybe | ListOf):
            return {}
        record = next((r for r in self.spec.records if r.name == t.name), None)
        return {f.name: type_of_declared(f.type) for f in record.fields} if record else {}

    def call(self, e: m.Call, scope: set[str]) -> str:
        assert isinstance(e.func, m.Name)
        name = e.func.name
        kind = self.kinds.get(name)
        if kind == "rule":
            rule = self.spec.rule(name)
            wanted: list[Type | None] = [type_of_declared(p.type) for p in rule.params]
            args = [self.given(a, scope, w) for a, w in zip(e.args, wanted, strict=False)]
            if self.ctx.needs_readings(name):
                args.insert(0, "readings")
            return f"{self.ctx.rule_ref(name)}({', '.join(args)})"
        if kind == "record":
            fields = self.field_types(Simple(name))
            args = [f"{kw.name}={self.given(kw.value, scope, fields.get(kw.name))}"
                    for kw in e.kwargs]
            return f"{name}({', '.join(args)})"
        if name == "range":
            return f"list({self.builtin_call(e, scope)})"
        return self.builtin_call(e, scope)

    def builtin_call(self, e: m.Call, scope: set[str]) -> str:
        """A built-in function: its list (and number) arguments are needed values; the
        item `remove` and `index_of` look for may be none."""
        assert isinstance(e.func, m.Name)
        name = e.func.name
        args = [self.present(a, scope) if i == 0 or name not in RUNTIME_BUILTINS
                else self.expr(a, scope) for i, a in enumerate(e.args)]
        return f"{name}({', '.join(args)})"
