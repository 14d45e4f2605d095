"""Spec expressions written back as spec text, and the types the rule language gives them.

`spec_text` prints an expression the way the spec files write it (spaces around
operators, brackets only where precedence needs them), so a printed
comparison can be found in its source line. `TypeScope` works out the type of
an expression in a rule body (`int`, `list[int]`, a record or enum name), as
far as the boundary finder needs it: which sides of a comparison are numbers.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from . import model as m

_PRECEDENCE = {
    "or": 2, "and": 3, "==": 5, "!=": 5, "<": 5, "<=": 5, ">": 5, ">=": 5, "in": 5,
    "not in": 5, "+": 6, "-": 6, "*": 7, "//": 7, "%": 7,
}
ARITHMETIC = ("+", "-", "*", "//", "%")


def spec_text(e: m.Expr | m.KeywordArg, outer: int = 0) -> str:
    """An expression as the spec writes it."""
    text, prec = _text(e)
    return f"({text})" if prec < outer else text


def _text(e: m.Expr | m.KeywordArg) -> tuple[str, int]:
    atom = 9
    if isinstance(e, m.IntLit):
        return str(e.value), atom
    if isinstance(e, m.StrLit):
        return '"' + e.value + '"', atom
    if isinstance(e, m.BoolLit):
        return ("true" if e.value else "false"), atom
    if isinstance(e, m.NoneLit):
        return "none", atom
    if isinstance(e, m.Name):
        return e.name, atom
    if isinstance(e, m.Reads):
        return f"{e.variant} is {e.reading}", 5
    if isinstance(e, m.KeywordArg):
        return f"{e.name}={spec_text(e.value)}", atom
    if isinstance(e, m.ListLit):
        return "[" + ", ".join(spec_text(i) for i in e.items) + "]", atom
    if isinstance(e, m.Comprehension):
        parts = [spec_text(e.element)]
        for c in e.clauses:
            if isinstance(c, m.CompFor):
                parts.append(f"for {c.target} in {spec_text(c.iterable, 2)}")
            else:
                parts.append(f"if {spec_text(c.condition, 2)}")
        return "[" + " ".join(parts) + "]", atom
    if isinstance(e, m.BinOp):
        prec = _PRECEDENCE[e.op]
        right_outer = prec + 1
        left_outer = prec + 1 if prec == 5 else prec
        return f"{spec_text(e.left, left_outer)} {e.op} {spec_text(e.right, right_outer)}", prec
    if isinstance(e, m.UnaryOp):
        if e.op == "not":
            return f"not {spec_text(e.operand, 4)}", 4
        return f"-{spec_text(e.operand, 8)}", 8
    if isinstance(e, m.IfExpr):
        return (f"if {spec_text(e.condition)} then {spec_text(e.then)} "
                f"else {spec_text(e.otherwise)}"), 1
    if isinstance(e, m.FieldOf):
        return f"{spec_text(e.base, atom)}.{e.field}", atom
    if isinstance(e, m.Index):
        return f"{spec_text(e.base, atom)}[{spec_text(e.key)}]", atom
    if isinstance(e, m.Call):
        args = [spec_text(a) for a in (*e.args, *e.kwargs)]
        return f"{spec_text(e.func, atom)}({', '.join(args)})", atom
    updates = ", ".join(f"{u.name} = {spec_text(u.value)}" for u in e.updates)
    return f"{spec_text(e.base, atom)} with {{ {updates} }}", atom


def type_name(t: m.Type) -> str:
    if isinstance(t, m.PlainType):
        return t.name
    if isinstance(t, m.OptionalType):
        return type_name(t.inner)  # the finder never needs to know a value may be none
    return f"list[{type_name(t.item)}]"


def item_type(t: str | None) -> str | None:
    if t is not None and t.startswith("list[") and t.endswith("]"):
        return t[5:-1]
    return None


@dataclass
class TypeScope:
    """The names a point of a rule body sees: parameters, lets, comprehension targets."""

    spec: m.Spec
    params: dict[str, str]
    lets: dict[str, m.Expr] = field(default_factory=dict)
    targets: dict[str, m.Expr] = field(default_factory=dict)  # comprehension target -> iterable

    def inner(self, clauses: tuple[m.CompFor | m.CompIf, ...]) -> TypeScope:
        """The scope inside a comprehension's clauses."""
        targets = dict(self.targets)
        for c in clauses:
            if isinstance(c, m.CompFor):
                targets[c.target] = c.iterable
        return TypeScope(self.spec, self.params, self.lets, targets)

    def type_of(self, e: m.Expr) -> str | None:
        """The expression's type (`int`, `bool`, `list[int]`, a record or enum), None if unknown."""
        spec = self.spec
        if isinstance(e, m.IntLit):
            return "int"
        if isinstance(e, m.BoolLit | m.Reads):
            return "bool"
        if isinstance(e, m.StrLit):
            return "text"
        if isinstance(e, m.NoneLit):
            return "none"
        if isinstance(e, m.Name):
            return self._name_type(e.name)
        if isinstance(e, m.ListLit):
            return f"list[{self.type_of(e.items[0])}]" if e.items else "list[none]"
        if isinstance(e, m.Comprehension):
            return f"list[{self.inner(e.clauses).type_of(e.element)}]"
        if isinstance(e, m.BinOp):
            return self.type_of(e.left) if e.op in ARITHMETIC else "bool"
        if isinstance(e, m.UnaryOp):
            return "bool" if e.op == "not" else "int"
        if isinstance(e, m.IfExpr):
            then = self.type_of(e.then)
            return then if then != "none" else self.type_of(e.otherwise)
        if isinstance(e, m.FieldOf):
            base = self.type_of(e.base)
            record = next((r for r in spec.records if r.name == base), None)
            found = next((f for f in record.fields if f.name == e.field), None) if record else None
            return type_name(found.type) if found else None
        if isinstance(e, m.Index):
            if isinstance(e.base, m.Name) and e.base.name not in self._locals():
                named = {t.name for t in spec.tables} | {o.name for o in spec.orders}
                if e.base.name in named:
                    return "int"
                if any(en.name == e.base.name for en in spec.enums):
                    return e.base.name
            return item_type(self.type_of(e.base))
        if isinstance(e, m.Call):
            return self._call_type(e)
        return self.type_of(e.base)  # m.WithUpdate

    def _locals(self) -> set[str]:
        return {*self.params, *self.lets, *self.targets}

    def _name_type(self, name: str) -> str | None:
        if name in self.targets:
            return item_type(self.type_of(self.targets[name]))
        if name in self.lets:
            return self.type_of(self.lets[name])
        if name in self.params:
            return self.params[name]
        spec = self.spec
        if any(c.name == name for c in spec.consts):
            return "int"
        owner = spec.enum_of_member(name)
        if owner is not None:
            return owner.name
        if any(en.name == name for en in spec.enums):
            return f"list[{name}]"
        return None

    def _call_type(self, e: m.Call) -> str | None:
        name = e.func.name if isinstance(e.func, m.Name) else ""
        if name in ("len", "sum", "index_of"):
            return "int"
        if name in ("all", "any"):
            return "bool"
        if name == "range":
            return "list[int]"
        if name in ("max", "min"):
            return item_type(self.type_of(e.args[0])) if e.args else None
        if name == "remove" and e.args:
            return self.type_of(e.args[0])
        rule = next((r for r in self.spec.rules if r.name == name), None)
        if rule is not None:
            return type_name(rule.returns)
        if any(r.name == name for r in self.spec.records):
            return name
        return None
