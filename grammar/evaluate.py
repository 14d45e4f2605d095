"""The meaning of the rule language: an evaluator of rules on plain Python values.

This is the language's reference semantics, written to be read: one case per
construct, over plain values. The generated engine (`reference_impl/`) and the
z3 translation (`baloot.backends.symbolic`) are both checked against it, rule by
rule (tests/generator/test_oracle.py, tests/proofs/test_symbolic.py).

Values:

- `int` is a Python int, `bool` a bool, `text` a str, `none` is None;
- an enum member is a `Member` (its enum and its name);
- a record is a `RecordValue` (its record and a field -> value dict);
- a list is a Python list.

Evaluating a rule gives its value, or raises:

- `Illegal` when a `require` does not hold (the action being judged is
  illegal): the message, the rule holding the `require` and its clauses;
- `EvaluationError` when the rules go wrong on these inputs: a value that is
  none where one is needed, an index outside a list, `max` of an empty list,
  `remove` or `index_of` of an item not in the list, a division by zero, a
  reading no `choose` case names.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeAlias

from . import model as m

# ------------------------------------------------------------------ values --


@dataclass(frozen=True)
class Member:
    """A member of an enum (a machine's state too)."""

    enum: str
    name: str

    def __repr__(self) -> str:
        return self.name


@dataclass(frozen=True)
class RecordValue:
    """A record: its name and the value of each field."""

    record: str
    fields: dict[str, Value]

    def __repr__(self) -> str:
        inner = ", ".join(f"{k}={v!r}" for k, v in self.fields.items())
        return f"{self.record}({inner})"


Value: TypeAlias = "int | bool | str | Member | RecordValue | list[Value] | None"


class Illegal(Exception):
    """A `require` that does not hold: the action being judged is illegal."""

    def __init__(self, message: str, rule: str, clauses: tuple[str, ...]) -> None:
        self.message = message
        self.rule = rule
        self.clauses = clauses
        super().__init__(f"{message} (rule {rule}; {', '.join(clauses)})")


class EvaluationError(Exception):
    """The rules cannot go on with these inputs (see the module's docstring)."""

    def __init__(self, message: str, pos: m.Pos, rules: Sequence[str]) -> None:
        self.reason = message
        self.pos = pos
        self.rules = tuple(rules)
        where = f" in rule {self.rules[-1]}" if self.rules else ""
        super().__init__(f"{pos}: {message}{where}")


class _NoReturn:
    """What a block gives when it ends without `return`: the statements after it run."""


NO_RETURN = _NoReturn()
Env: TypeAlias = dict[str, Value]

# ------------------------------------------------------------- evaluator --


class Evaluator:
    """Evaluates the rules of a spec under one reading of every variant it consults."""

    def __init__(self, spec: m.Spec, readings: Mapping[str, str]) -> None:
        self.spec = spec
        self.readings = {spec.variant(k).name: r for k, r in readings.items()}
        self.rules = {r.name: r for r in spec.rules}
        self.records = {r.name: r for r in spec.records}
        self.tables = {t.name: t.as_dict() for t in spec.tables}
        self.orders = {o.name: {mem.name: o.strength(mem.name) for mem in o.high_to_low}
                       for o in spec.orders}
        self.consts = {c.name: c.value for c in spec.consts}
        self.enums = {e.name: [Member(e.name, mem.name) for mem in e.members]
                      for e in spec.enums}
        self.members = {mem.name: mem for ms in self.enums.values() for mem in ms}
        self.stack: list[str] = []

    def fail(self, message: str, pos: m.Pos) -> EvaluationError:
        return EvaluationError(message, pos, self.stack)

    # -- rules -----------------------------------------------------------------------

    def call(self, name: str, args: Sequence[Value]) -> Value:
        """The value of a rule on its arguments, in the order of its parameters."""
        rule = self.rules[name]
        if len(args) != len(rule.params):
            raise self.fail(f"{name} takes {len(rule.params)} argument(s), given {len(args)}",
                            rule.pos)
        self.stack.append(name)
        try:
            env: Env = {p.name: a for p, a in zip(rule.params, args, strict=True)}
            result = self.block(rule.body, env)
            if isinstance(result, _NoReturn):  # the checks rule this out
                raise self.fail("the rule ends without returning a value", rule.pos)
            return result
        finally:
            self.stack.pop()

    # -- statements ------------------------------------------------------------------

    def block(self, body: tuple[m.Stmt, ...], env: Env) -> Value | _NoReturn:
        """Run statements in order: a `return` ends the block with its value."""
        env = dict(env)  # a `let` inside a branch is not seen after it
        for stmt in body:
            match stmt:
                case m.Let(name=name, value=value):
                    env[name] = self.expr(value, env)
                case m.Return(value=value):
                    return self.expr(value, env)
                case m.Require(condition=condition, message=message):
                    if not self.truth(condition, env):
                        rule = self.rules[self.stack[-1]]
                        raise Illegal(message, rule.name, tuple(c.clause for c in rule.cites))
                case m.If(branches=branches, otherwise=otherwise):
                    taken = next((b.body for b in branches if self.truth(b.condition, env)),
                                 otherwise or ())
                    result = self.block(taken, env)
                    if not isinstance(result, _NoReturn):
                        return result
                case m.Choose(variant=variant, cases=cases, pos=pos):
                    reading = self.reading(variant, pos)
                    case = next((c for c in cases if reading in c.readings), None)
                    if case is None:
                        raise self.fail(f"no case of `choose {variant}` names the reading "
                                        f"{reading!r}", pos)
                    result = self.block(case.body, env)
                    if not isinstance(result, _NoReturn):
                        return result
        return NO_RETURN

    def reading(self, variant: str, pos: m.Pos) -> str:
        name = self.spec.variant(variant).name
        if name not in self.readings:
            raise self.fail(f"no reading chosen for the variant {name}", pos)
        return self.readings[name]

    # -- expressions ------------------------------------------------------------------

    def truth(self, e: m.Expr, env: Env) -> bool:
        value = self.expr(e, env)
        if not isinstance(value, bool):
            raise self.fail(f"expected true or false, got {value!r}", e.pos)
        return value

    def number(self, e: m.Expr, env: Env) -> int:
        value = self.expr(e, env)
        if value is None:
            raise self.fail("a number the rules need is none", e.pos)
        return self.whole(value, e)

    def whole(self, value: Value, e: m.Expr) -> int:
        if not isinstance(value, int) or isinstance(value, bool):
            raise self.fail(f"expected a whole number, got {value!r}", e.pos)
        return value

    def items(self, e: m.Expr, env: Env) -> list[Value]:
        value = self.expr(e, env)
        if value is None:
            raise self.fail("a list the rules need is none", e.pos)
        if not isinstance(value, list):
            raise self.fail(f"expected a list, got {value!r}", e.pos)
        return value

    def record(self, e: m.Expr, env: Env) -> RecordValue:
        value = self.expr(e, env)
        if value is None:
            raise self.fail("a record the rules need is none", e.pos)
        if not isinstance(value, RecordValue):
            raise self.fail(f"expected a record, got {value!r}", e.pos)
        return value

    def expr(self, e: m.Expr, env: Env) -> Value:
        match e:
            case m.IntLit(value=v) | m.BoolLit(value=v) | m.StrLit(value=v):
                return v
            case m.NoneLit():
                return None
            case m.Name(name=name, pos=pos):
                return self.name(name, env, pos)
            case m.Reads(variant=variant, reading=reading, pos=pos):
                return self.reading(variant, pos) == reading
            case m.ListLit(items=items):
                return [self.expr(x, env) for x in items]
            case m.Comprehension(element=element, clauses=clauses):
                return self.comprehension(element, clauses, env)
            case m.UnaryOp(op="not", operand=operand):
                return not self.truth(operand, env)
            case m.UnaryOp(op="-", operand=operand):
                return -self.number(operand, env)
            case m.BinOp():
                return self.binop(e, env)
            case m.IfExpr(condition=condition, then=then, otherwise=otherwise):
                return self.expr(then if self.truth(condition, env) else otherwise, env)
            case m.FieldOf(base=base, field=field, pos=pos):
                fields = self.record(base, env).fields
                if field not in fields:
                    raise self.fail(f"no field {field!r} in {fields}", pos)
                return fields[field]
            case m.Index(base=base, key=key):
                return self.index(base, key, env, e.pos)
            case m.Call(func=m.Name(name=name), args=args, kwargs=kwargs):
                return self.call_named(name, args, kwargs, env, e.pos)
            case m.WithUpdate(base=base, updates=updates):
                old = self.record(base, env)
                changed = {u.name: self.expr(u.value, env) for u in updates}
                return RecordValue(old.record, {**old.fields, **changed})
        raise self.fail(f"cannot evaluate {type(e).__name__}", e.pos)

    def name(self, name: str, env: Env, pos: m.Pos) -> Value:
        """A local name, an enum member, an enum (its members, in order), or a const."""
        if name in env:
            return env[name]
        if name in self.members:
            return self.members[name]
        if name in self.enums:
            return list(self.enums[name])
        if name in self.consts:
            return self.consts[name]
        raise self.fail(f"the name {name!r} has no value here", pos)

    def comprehension(self, element: m.Expr, clauses: tuple[m.CompFor | m.CompIf, ...],
                      env: Env) -> list[Value]:
        """`[e for x in xs if c ...]`: each clause in turn, the element for each way
        through all of them."""
        out: list[Value] = []

        def run(i: int, env: Env) -> None:
            if i == len(clauses):
                out.append(self.expr(element, env))
                return
            clause = clauses[i]
            if isinstance(clause, m.CompFor):
                for x in self.items(clause.iterable, env):
                    run(i + 1, {**env, clause.target: x})
            elif self.truth(clause.condition, env):
                run(i + 1, env)

        run(0, env)
        return out

    def binop(self, e: m.BinOp, env: Env) -> Value:
        match e.op:
            case "and":
                return self.truth(e.left, env) and self.truth(e.right, env)
            case "or":
                return self.truth(e.left, env) or self.truth(e.right, env)
            case "==":
                return self.expr(e.left, env) == self.expr(e.right, env)
            case "!=":
                return self.expr(e.left, env) != self.expr(e.right, env)
            case "in":
                return self.expr(e.left, env) in self.items(e.right, env)
            case "not in":
                return self.expr(e.left, env) not in self.items(e.right, env)
        left = self.expr(e.left, env)
        if e.op == "+" and isinstance(left, list):  # `+` also joins two lists
            return left + self.items(e.right, env)
        if left is None:
            raise self.fail("a number the rules need is none", e.left.pos)
        a, b = self.whole(left, e.left), self.number(e.right, env)
        if e.op in ("//", "%") and b == 0:
            raise self.fail("division by zero", e.pos)
        return ARITHMETIC[e.op](a, b)

    def index(self, base: m.Expr, key: m.Expr, env: Env, pos: m.Pos) -> Value:
        """`table[member]`, `order[member]` (its strength), or `list[i]` (from 0; a
        negative i counts from the end)."""
        if isinstance(base, m.Name) and base.name not in env:
            for values in (self.tables, self.orders):
                if base.name in values:
                    member = self.expr(key, env)
                    if not isinstance(member, Member):
                        raise self.fail(f"{base.name} is looked up by a member, got {member!r}",
                                        key.pos)
                    return values[base.name][member.name]
        items = self.items(base, env)
        i = self.number(key, env)
        if not -len(items) <= i < len(items):
            raise self.fail(f"index {i} outside a list of {len(items)}", pos)
        return items[i]

    def call_named(self, name: str, args: tuple[m.Expr, ...], kwargs: tuple[m.KeywordArg, ...],
                   env: Env, pos: m.Pos) -> Value:
        """A rule (its arguments evaluated first, left to right), a record built from its
        fields, or a built-in function."""
        if name in self.rules:
            return self.call(name, [self.expr(a, env) for a in args])
        if name in self.records:
            given = {kw.name: self.expr(kw.value, env) for kw in kwargs}
            return RecordValue(name, {f.name: given[f.name] for f in self.records[name].fields})
        values = [self.expr(a, env) for a in args]
        return self.builtin(name, values, pos)

    def builtin(self, name: str, args: list[Value], pos: m.Pos) -> Value:
        def listed(v: Value) -> list[Value]:
            if not isinstance(v, list):
                raise self.fail(f"{name} needs a list, got {v!r}", pos)
            return v

        def whole(v: Value) -> int:
            if not isinstance(v, int) or isinstance(v, bool):
                raise self.fail(f"{name} needs a whole number, got {v!r}", pos)
            return v

        match name, args:
            case "len", [xs]:
                return len(xs) if isinstance(xs, str) else len(listed(xs))
            case "sum", [xs]:
                return sum(whole(x) for x in listed(xs))
            case ("max" | "min"), [xs]:
                numbers = [whole(x) for x in listed(xs)]
                if not numbers:
                    raise self.fail(f"{name} of an empty list", pos)
                return max(numbers) if name == "max" else min(numbers)
            case "any", [xs]:
                return any(x is True for x in listed(xs))
            case "all", [xs]:
                return all(x is True for x in listed(xs))
            case "range", [a, b]:
                return list(range(whole(a), whole(b)))
            case "abs", [a]:
                return abs(whole(a))
            case "remove", [xs, x]:
                items = listed(xs)
                if x not in items:
                    raise self.fail(f"remove: {x!r} is not in the list", pos)
                at = items.index(x)
                return items[:at] + items[at + 1:]
            case "index_of", [xs, x]:
                items = listed(xs)
                if x not in items:
                    raise self.fail(f"index_of: {x!r} is not in the list", pos)
                return items.index(x)
        raise self.fail(f"unknown function {name!r} of {len(args)} argument(s)", pos)


ARITHMETIC: dict[str, Callable[[int, int], Value]] = {
    "+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b,
    "//": lambda a, b: a // b, "%": lambda a, b: a % b,
    "<": lambda a, b: a < b, "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b, ">=": lambda a, b: a >= b,
}


def evaluate(spec: m.Spec, rule: str, args: Sequence[Value],
             readings: Mapping[str, str]) -> Value:
    """The value of one rule of the spec on its arguments, under a choice of readings
    (variant name -> reading; only the variants the rule consults are needed)."""
    return Evaluator(spec, readings).call(rule, list(args))


def evaluate_expr(spec: m.Spec, e: m.Expr, env: Mapping[str, Value] | None = None,
                  readings: Mapping[str, str] | None = None) -> Value:
    """The value of one expression, its free names given by `env`."""
    return Evaluator(spec, readings or {}).expr(e, dict(env or {}))
