"""The rule language as z3 terms.

`Translator` evaluates a rule of the spec model (`baloot.grammar.model.Rule`)
symbolically: its parameters are z3 variables (or concrete values), its body
is walked statement by statement, and its result is a z3 term together with
the side conditions of its `require` statements. Everything comes from the
model the generator reads (enums, records, orders, tables, consts, rules,
variants); nothing is re-typed here.

Values:

- `int` -> a z3 integer term, `bool` -> a z3 boolean term, `text` -> a z3 string;
- an enum member -> `SEnum`, a term of a z3 enumeration sort, one per spec enum;
- a record -> `SRecord`, a mapping of field names to values;
- `T?` -> `SOpt`, a boolean "is none" and the value when it is not;
- `list[T]` -> `SList`, a tuple of (guard, value) items: an item is in the
  list when its guard holds. Enums are finite, so every list the rules build
  from enums, `range` of constants and comprehensions over them unrolls.

Semantics follow the generated Python: `//` and `%` floor (z3's integer
division is Euclidean, so a negative divisor is rewritten), `and`/`or`
short-circuit (a rule called on the right-hand side only adds its `require`s
when the left-hand side lets it run), `order[m]` is the member's strength
(how many members rank below it). A construct the translator cannot express
raises `TranslationError`, which names the rule, the position and the
construct, never a bare traceback.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TypeAlias

import z3

from ..grammar import model as m

# ------------------------------------------------------------------ values --


@dataclass(frozen=True)
class SEnum:
    """A member of a spec enum, as a term of that enum's z3 sort.

    `member` names the member when the term is a constant (so equality and
    lookups fold without asking z3)."""

    enum: str
    term: z3.DatatypeRef
    member: str | None = None


@dataclass(frozen=True)
class SRecord:
    record: str
    fields: tuple[tuple[str, Value], ...]

    def get(self, name: str) -> Value | None:
        return next((v for n, v in self.fields if n == name), None)


class LazyRecord(SRecord):
    """A symbolic record whose fields are made when a rule first reads them, so a
    rule that takes a whole state (a `Game`) but reads a few fields of it can be
    translated; list fields get `list_len` items at most. `fields` lists only the
    fields made so far (and those set by `with`)."""

    def __init__(self, universe: Universe, record: str, prefix: str, list_len: int,
                 constraints: list[z3.BoolRef], made: dict[str, Value] | None = None) -> None:
        object.__setattr__(self, "record", record)
        object.__setattr__(self, "_u", universe)
        object.__setattr__(self, "_prefix", prefix)
        object.__setattr__(self, "_list_len", list_len)
        object.__setattr__(self, "_constraints", constraints)
        object.__setattr__(self, "_made", dict(made or {}))

    @property
    def fields(self) -> tuple[tuple[str, Value], ...]:
        made: dict[str, Value] = self._made  # type: ignore[attr-defined]
        return tuple(made.items())

    def get(self, name: str) -> Value | None:
        made: dict[str, Value] = self._made  # type: ignore[attr-defined]
        if name not in made:
            u: Universe = self._u  # type: ignore[attr-defined]
            rec = u.spec.record(self.record)
            f = next((f for f in rec.fields if f.name == name), None)
            if f is None:
                return None
            made[name] = u.fresh(f.type, f"{self._prefix}.{name}",  # type: ignore[attr-defined]
                                 list_len=self._list_len,  # type: ignore[attr-defined]
                                 constraints=self._constraints,  # type: ignore[attr-defined]
                                 lazy=True)
        return made[name]

    def updated(self, changes: dict[str, Value]) -> LazyRecord:
        made: dict[str, Value] = self._made  # type: ignore[attr-defined]
        return LazyRecord(self._u, self.record, self._prefix,  # type: ignore[attr-defined]
                          self._list_len, self._constraints,  # type: ignore[attr-defined]
                          {**made, **changes})

    def __hash__(self) -> int:
        return id(self)

    def __eq__(self, other: object) -> bool:
        return self is other


@dataclass(frozen=True)
class SOpt:
    """A `T?`: none when `is_none` holds, else `value` (None: certainly none)."""

    is_none: z3.BoolRef
    value: Value | None


@dataclass(frozen=True)
class SList:
    """A list whose items are present when their guards hold, in order."""

    items: tuple[tuple[z3.BoolRef, Value], ...]


Value: TypeAlias = "z3.ArithRef | z3.BoolRef | z3.SeqRef | SEnum | SRecord | SOpt | SList"

TRUE = z3.BoolVal(True)
FALSE = z3.BoolVal(False)
NONE = SOpt(TRUE, None)


class TranslationError(Exception):
    """A rule (or a part of one) that has no z3 translation here."""

    def __init__(self, message: str, pos: m.Pos | None = None,
                 rules: Sequence[str] = ()) -> None:
        self.reason = message
        self.pos = pos
        self.rules = tuple(rules)
        where = f"{pos}: " if pos else ""
        chain = ""
        if self.rules:
            chain = f"in rule {self.rules[-1]}"
            if len(self.rules) > 1:
                chain += " (called from " + " <- ".join(reversed(self.rules[:-1])) + ")"
            chain += ": "
        super().__init__(f"{where}cannot translate to z3: {chain}{message}")


@dataclass(frozen=True)
class Requirement:
    """A `require` met on the way: `condition` must hold whenever `path` does."""

    rule: str
    message: str
    pos: m.Pos
    path: z3.BoolRef
    condition: z3.BoolRef

    def holds(self) -> z3.BoolRef:
        return z3.Implies(self.path, self.condition)


@dataclass
class Result:
    """What a rule evaluates to, and the requirements met on the way."""

    value: Value
    requirements: list[Requirement] = field(default_factory=list)

    def legal(self) -> z3.BoolRef:
        """True when every `require` met on the way holds."""
        return z3.And(*[r.holds() for r in self.requirements]) if self.requirements else TRUE


# ---------------------------------------------------------------- helpers --


def is_true(b: z3.BoolRef) -> bool:
    """Literally true. The translator folds constants as it builds terms, and its
    boolean literals are the singletons TRUE and FALSE, so this is an identity test
    (asking z3 would dominate the run time)."""
    return b is TRUE


def is_false(b: z3.BoolRef) -> bool:
    return b is FALSE


def bool_lit(x: bool) -> z3.BoolRef:
    return TRUE if x else FALSE


def and_(*bs: z3.BoolRef) -> z3.BoolRef:
    kept = [b for b in bs if b is not TRUE]
    if any(b is FALSE for b in kept):
        return FALSE
    if not kept:
        return TRUE
    return kept[0] if len(kept) == 1 else z3.And(*kept)


def or_(*bs: z3.BoolRef) -> z3.BoolRef:
    kept = [b for b in bs if b is not FALSE]
    if any(b is TRUE for b in kept):
        return TRUE
    if not kept:
        return FALSE
    return kept[0] if len(kept) == 1 else z3.Or(*kept)


def not_(b: z3.BoolRef) -> z3.BoolRef:
    if b is TRUE:
        return FALSE
    if b is FALSE:
        return TRUE
    return z3.Not(b)


def lit(v: object) -> int | None:
    """The value of an integer literal term, or None."""
    if isinstance(v, z3.IntNumRef):
        return int(v.as_long())
    return None


def concrete_int(v: Value) -> int | None:
    return lit(v)


def int_sum(terms: Sequence[z3.ArithRef]) -> z3.ArithRef:
    """A sum, its constant part folded."""
    const = 0
    rest: list[z3.ArithRef] = []
    for x in terms:
        c = lit(x)
        if c is None:
            rest.append(x)
        else:
            const += c
    if not rest:
        return z3.IntVal(const)
    if const:
        rest.append(z3.IntVal(const))
    return rest[0] if len(rest) == 1 else z3.Sum(*rest)


def int_if(c: z3.BoolRef, a: z3.ArithRef, b: z3.ArithRef) -> z3.ArithRef:
    if c is TRUE:
        return a
    if c is FALSE:
        return b
    if a is b:
        return a
    la, lb = lit(a), lit(b)
    if la is not None and la == lb:
        return a
    return z3.If(c, a, b)


def count(items: Sequence[tuple[z3.BoolRef, Value]]) -> z3.ArithRef:
    return int_sum([int_if(g, z3.IntVal(1), z3.IntVal(0)) for g, _ in items])


# ---------------------------------------------------------------- universe --


# z3 declares sort names once per context: every Universe of the same enum
# (same name, same members) shares its sort; a changed enum gets a new name.
_SORTS: dict[tuple[str, tuple[str, ...]],
             tuple[z3.DatatypeSortRef, dict[str, z3.DatatypeRef]]] = {}


def _enum_sort(key: str, names: tuple[str, ...]
               ) -> tuple[z3.DatatypeSortRef, dict[str, z3.DatatypeRef]]:
    if (key, names) not in _SORTS:
        taken = sum(1 for k, _ in _SORTS if k == key)
        sort_name = key if taken == 0 else f"{key}#{taken}"
        sort, consts = z3.EnumSort(sort_name, [f"{key}.{n}" for n in names])
        _SORTS[(key, names)] = (sort, dict(zip(names, consts, strict=True)))
    return _SORTS[(key, names)]


class Universe:
    """The z3 sorts of a spec: one enumeration sort per enum and per variant."""

    def __init__(self, spec: m.Spec) -> None:
        self.spec = spec
        self._sorts: dict[str, tuple[z3.DatatypeSortRef, dict[str, z3.DatatypeRef]]] = {}
        self.member_enum: dict[str, str] = {}
        for e in spec.enums:
            for mem in e.members:
                self.member_enum[mem.name] = e.name
        self._fresh = 0
        # bounds for fresh numbers, from their field or parameter name (None: unbounded)
        self.int_domain: Callable[[str], tuple[int, int]] | None = None
        self.guards: list[z3.BoolRef] = []  # of every fresh list's items

    def _sort(self, key: str, names: Sequence[str]
              ) -> tuple[z3.DatatypeSortRef, dict[str, z3.DatatypeRef]]:
        if key not in self._sorts:
            self._sorts[key] = _enum_sort(key, tuple(names))
        return self._sorts[key]

    def enum_sort(self, enum: str) -> z3.DatatypeSortRef:
        return self._sort(enum, self.spec.enum(enum).member_names)[0]

    def member(self, name: str) -> SEnum:
        enum = self.member_enum[name]
        return SEnum(enum, self._sort(enum, self.spec.enum(enum).member_names)[1][name], name)

    def members(self, enum: str) -> list[SEnum]:
        return [self.member(n) for n in self.spec.enum(enum).member_names]

    def reading_sort(self, variant: str) -> tuple[z3.DatatypeSortRef, dict[str, z3.DatatypeRef]]:
        v = self.spec.variant(variant)
        return self._sort(f"variant_{v.name}", v.reading_names)

    def reading_var(self, variant: str) -> z3.DatatypeRef:
        """The z3 variable for 'the reading in force' of a variant."""
        v = self.spec.variant(variant)
        sort = self.reading_sort(v.name)[0]
        return z3.Const(f"reading.{v.name}", sort)

    def reading_is(self, variant: str, reading: str) -> z3.BoolRef:
        v = self.spec.variant(variant)
        return self.reading_var(v.name) == self.reading_sort(v.name)[1][reading]

    def unique(self, base: str) -> str:
        self._fresh += 1
        return f"{base}!{self._fresh}"

    # -- fresh symbolic values of a type ------------------------------------------------

    def fresh(self, t: m.Type | str, name: str, *, list_len: int | None = None,
              constraints: list[z3.BoolRef] | None = None, lazy: bool = False) -> Value:
        """A symbolic value of a type; lists need `list_len` (their most items)."""
        if isinstance(t, str):
            t = m.PlainType(t, m.Pos("<fresh>", 1, 1))
        if isinstance(t, m.OptionalType):
            inner = self.fresh(t.inner, name, list_len=list_len, constraints=constraints,
                               lazy=lazy)
            return SOpt(z3.Bool(f"{name}.is_none"), inner)
        if isinstance(t, m.ListType):
            if list_len is None:
                raise TranslationError(f"a list parameter ({name}) needs a bound on its length",
                                       t.pos)
            guards = [z3.Bool(f"{name}[{i}].present") for i in range(list_len)]
            self.guards += guards
            if constraints is not None:  # present items come first
                constraints += [z3.Implies(guards[i + 1], guards[i])
                                for i in range(list_len - 1)]
            items = [(g, self.fresh(t.item, f"{name}[{i}]", constraints=constraints,
                                    list_len=list_len if lazy else None, lazy=lazy))
                     for i, g in enumerate(guards)]
            if constraints is not None and all(type(x) is SRecord for _, x in items):
                # the items of a list of records (cards, plays) are distinct
                for (gi, xi), (gj, xj) in itertools.combinations(items, 2):
                    constraints.append(z3.Implies(z3.And(gi, gj), not_(equal(xi, xj))))
            return SList(tuple(items))
        kind = t.name
        if kind == "int":
            v = z3.Int(name)
            if self.int_domain is not None and constraints is not None:
                lo, hi = self.int_domain(name.rsplit(".", 1)[-1].split("[")[0])
                constraints += [v >= lo, v <= hi]
            return v
        if kind == "bool":
            return z3.Bool(name)
        if kind == "text":
            return z3.String(name)
        if kind in self.member_enum.values():
            return SEnum(kind, z3.Const(name, self.enum_sort(kind)))
        if lazy and any(r.name == kind for r in self.spec.records) and any(
                isinstance(f.type, m.ListType) for f in self.spec.record(kind).fields):
            if constraints is None or list_len is None:
                raise TranslationError("a lazy record needs a list bound and constraints")
            return LazyRecord(self, kind, name, list_len, constraints)
        if any(r.name == kind for r in self.spec.records):
            rec = self.spec.record(kind)
            return SRecord(kind, tuple((f.name, self.fresh(f.type, f"{name}.{f.name}",
                                                           list_len=list_len,
                                                           constraints=constraints,
                                                           lazy=lazy))
                                       for f in rec.fields))
        raise TranslationError(f"unknown type {kind!r}", t.pos)

    # -- reading values back from a z3 model -----------------------------------------

    def decode(self, model: z3.ModelRef, v: Value) -> object:
        """A value as plain Python (ints, bools, member names, dicts, lists, None)."""
        if isinstance(v, SEnum):
            got = model.eval(v.term, model_completion=True)
            return str(got).split(".", 1)[-1]
        if isinstance(v, SRecord):
            return {n: self.decode(model, x) for n, x in v.fields}
        if isinstance(v, SOpt):
            if v.value is None or z3.is_true(model.eval(v.is_none, model_completion=True)):
                return None
            return self.decode(model, v.value)
        if isinstance(v, SList):
            return [self.decode(model, x) for g, x in v.items
                    if z3.is_true(model.eval(g, model_completion=True))]
        got = model.eval(v, model_completion=True)
        if z3.is_int_value(got):
            return int(got.as_long())
        if z3.is_true(got):
            return True
        if z3.is_false(got):
            return False
        if z3.is_string_value(got):
            return str(got.as_string())
        return str(got)

    def concrete(self, value: object, t: m.Type | str) -> Value:
        """A plain Python value (as `decode` gives) as a constant of a type."""
        if isinstance(t, str):
            t = m.PlainType(t, m.Pos("<value>", 1, 1))
        if isinstance(t, m.OptionalType):
            return NONE if value is None else SOpt(FALSE, self.concrete(value, t.inner))
        if isinstance(t, m.ListType):
            assert isinstance(value, list | tuple)
            return SList(tuple((TRUE, self.concrete(x, t.item)) for x in value))
        if t.name == "int":
            assert isinstance(value, int)
            return z3.IntVal(value)
        if t.name == "bool":
            return bool_lit(bool(value))
        if t.name == "text":
            return z3.StringVal(str(value))
        if t.name in self.member_enum.values():
            return self.member(str(value))
        rec = self.spec.record(t.name)
        assert isinstance(value, dict)
        return SRecord(rec.name, tuple((f.name, self.concrete(value[f.name], f.type))
                                       for f in rec.fields))


# ----------------------------------------------------- equality and choice --


def equal(a: Value, b: Value, pos: m.Pos | None = None) -> z3.BoolRef:
    """Structural equality of two values, as the generated Python's `==`."""
    if isinstance(a, SOpt) or isinstance(b, SOpt):
        oa = a if isinstance(a, SOpt) else SOpt(FALSE, a)
        ob = b if isinstance(b, SOpt) else SOpt(FALSE, b)
        both_none = and_(oa.is_none, ob.is_none)
        if oa.value is None or ob.value is None:
            return both_none
        return or_(both_none, and_(not_(oa.is_none), not_(ob.is_none),
                                   equal(oa.value, ob.value, pos)))
    if isinstance(a, SEnum) and isinstance(b, SEnum):
        if a.enum != b.enum:
            return FALSE
        if a.member is not None and b.member is not None:
            return bool_lit(a.member == b.member)
        return a.term == b.term
    if isinstance(a, SRecord) and isinstance(b, SRecord):
        if a.record != b.record:
            return FALSE
        if a is b:
            return TRUE
        names = list(dict.fromkeys([n for n, _ in a.fields] + [n for n, _ in b.fields]))
        return and_(*[equal(_field_of(a, n), _field_of(b, n), pos) for n in names])
    if isinstance(a, SList) and isinstance(b, SList):
        if len(a.items) == len(b.items) and all(is_true(g) for g, _ in (*a.items, *b.items)):
            return and_(*[equal(x, y, pos) for (_, x), (_, y) in zip(a.items, b.items,
                                                                       strict=True)])
        # Guarded lists: the same number of present items, and the k-th present
        # items equal for every k.
        def positions(items: tuple[tuple[z3.BoolRef, Value], ...]) -> list[z3.ArithRef]:
            out: list[z3.ArithRef] = []
            at: z3.ArithRef = z3.IntVal(0)
            for g, _ in items:
                out.append(at)
                at = int_sum([at, int_if(g, z3.IntVal(1), z3.IntVal(0))])
            return out

        pa, pb = positions(a.items), positions(b.items)
        same = [equal(count(a.items), count(b.items), pos)]
        for (ga, xa), ka in zip(a.items, pa, strict=True):
            for (gb, xb), kb in zip(b.items, pb, strict=True):
                both = and_(ga, gb, equal(ka, kb, pos))
                if both is not FALSE:
                    same.append(z3.Implies(both, equal(xa, xb, pos)))
        return and_(*same)
    if isinstance(a, SEnum | SRecord | SList) or isinstance(b, SEnum | SRecord | SList):
        return FALSE
    if a.sort() != b.sort():
        raise TranslationError(f"comparing a {a.sort()} with a {b.sort()}", pos)
    if a is b:
        return TRUE
    la, lb = lit(a), lit(b)
    if la is not None and lb is not None:
        return bool_lit(la == lb)
    if (a is TRUE or a is FALSE) and (b is TRUE or b is FALSE):
        return FALSE  # two different literals
    result: z3.BoolRef = a == b
    return result


def _field_of(r: SRecord, name: str) -> Value:
    value = r.get(name)
    if value is None:
        raise TranslationError(f"record {r.record} has no field {name!r}")
    return value


class _Overlay(SRecord):
    """A lazy record with some fields replaced (`r with { ... }`)."""

    def __init__(self, base: SRecord, changes: dict[str, Value]) -> None:
        object.__setattr__(self, "record", base.record)
        object.__setattr__(self, "_base", base)
        object.__setattr__(self, "_changes", dict(changes))

    @property
    def fields(self) -> tuple[tuple[str, Value], ...]:
        base: SRecord = self._base  # type: ignore[attr-defined]
        changes: dict[str, Value] = self._changes  # type: ignore[attr-defined]
        return tuple((n, changes.get(n, v)) for n, v in base.fields) + tuple(
            (n, v) for n, v in changes.items() if base.get(n) is None)

    def get(self, name: str) -> Value | None:
        changes: dict[str, Value] = self._changes  # type: ignore[attr-defined]
        if name in changes:
            return changes[name]
        base: SRecord = self._base  # type: ignore[attr-defined]
        return base.get(name)

    def __hash__(self) -> int:
        return id(self)

    def __eq__(self, other: object) -> bool:
        return self is other


class LazyIte(SRecord):
    """`a` when `c` holds, else `b`, for records with lazily made fields: each field
    is merged when first read."""

    def __init__(self, c: z3.BoolRef, a: SRecord, b: SRecord, pos: m.Pos | None) -> None:
        object.__setattr__(self, "record", a.record)
        object.__setattr__(self, "_parts", (c, a, b, pos))
        object.__setattr__(self, "_made", {})

    @property
    def fields(self) -> tuple[tuple[str, Value], ...]:
        _, a, b, _ = self._parts  # type: ignore[attr-defined]
        names = list(dict.fromkeys([n for n, _ in a.fields] + [n for n, _ in b.fields]))
        return tuple((n, v) for n in names if (v := self.get(n)) is not None)

    def get(self, name: str) -> Value | None:
        made: dict[str, Value] = self._made  # type: ignore[attr-defined]
        if name not in made:
            c, a, b, pos = self._parts  # type: ignore[attr-defined]
            x, y = a.get(name), b.get(name)
            if x is None or y is None:
                return None
            made[name] = ite(c, x, y, pos)
        return made[name]

    def __hash__(self) -> int:
        return id(self)

    def __eq__(self, other: object) -> bool:
        return self is other


def bool_if(c: z3.BoolRef, a: z3.BoolRef, b: z3.BoolRef) -> z3.BoolRef:
    """`a` when `c` holds, else `b`, for booleans, folding the literal cases."""
    if a is b or (is_true(a) and is_true(b)) or (is_false(a) and is_false(b)):
        return a
    if is_true(a) and is_false(b):
        return c
    if is_false(a):
        return and_(not_(c), b)
    if is_false(b):
        return and_(c, a)
    result: z3.BoolRef = z3.If(c, a, b)
    return result


def _merge_lists(c: z3.BoolRef, a: SList, b: SList, pos: m.Pos | None) -> SList:
    """`a` when `c` holds, else `b`, merged place by place: the i-th item is a's i-th
    when `c` holds and b's otherwise, and a place only one list has is absent on the
    other side. The merge is as long as the longer list, so a choice among many lists
    (a list field of a record picked out of many) stays as long as the longest of them,
    not as long as all of them together."""
    items: list[tuple[z3.BoolRef, Value]] = []
    for i in range(max(len(a.items), len(b.items))):
        if i >= len(b.items):
            ga, xa = a.items[i]
            items.append((and_(c, ga), xa))
        elif i >= len(a.items):
            gb, xb = b.items[i]
            items.append((and_(not_(c), gb), xb))
        else:
            (ga, xa), (gb, xb) = a.items[i], b.items[i]
            items.append((bool_if(c, ga, gb), ite(c, xa, xb, pos)))
    return SList(tuple(items))


def ite(c: z3.BoolRef, a: Value, b: Value, pos: m.Pos | None = None) -> Value:
    """`a` when `c` holds, else `b`."""
    if is_true(c):
        return a
    if is_false(c):
        return b
    if isinstance(a, SOpt) or isinstance(b, SOpt):
        oa = a if isinstance(a, SOpt) else SOpt(FALSE, a)
        ob = b if isinstance(b, SOpt) else SOpt(FALSE, b)
        if oa.value is None:
            value = ob.value
        elif ob.value is None:
            value = oa.value
        else:
            value = ite(c, oa.value, ob.value, pos)
        return SOpt(z3.If(c, oa.is_none, ob.is_none), value)
    if isinstance(a, SEnum) and isinstance(b, SEnum) and a.enum == b.enum:
        if a.member is not None and a.member == b.member:
            return a
        return SEnum(a.enum, z3.If(c, a.term, b.term))
    if isinstance(a, SRecord) and isinstance(b, SRecord) and a.record == b.record:
        if a is b:
            return a
        if isinstance(a, LazyRecord | LazyIte | _Overlay) or \
                isinstance(b, LazyRecord | LazyIte | _Overlay):
            return LazyIte(c, a, b, pos)
        names = list(dict.fromkeys([n for n, _ in a.fields] + [n for n, _ in b.fields]))
        return SRecord(a.record, tuple((n, ite(c, _field_of(a, n), _field_of(b, n), pos))
                                       for n in names))
    if isinstance(a, SList) and isinstance(b, SList):
        try:
            return _merge_lists(c, a, b, pos)
        except TranslationError:
            return SList(tuple((and_(c, g), x) for g, x in a.items)
                         + tuple((and_(not_(c), g), x) for g, x in b.items))
    if isinstance(a, SEnum | SRecord | SList) or isinstance(b, SEnum | SRecord | SList):
        raise TranslationError("the two branches give values of different types", pos)
    if a.sort() != b.sort():
        raise TranslationError(f"the two branches give a {a.sort()} and a {b.sort()}", pos)
    if a is b:
        return a
    if isinstance(a, z3.ArithRef) and isinstance(b, z3.ArithRef):
        return int_if(c, a, b)
    return z3.If(c, a, b)


# -------------------------------------------------------------- translator --


def _argument_key(value: Value) -> object:
    """What makes two arguments of a rule call the same: the z3 term (equal terms are one
    term in z3), an enum member's term, or else the Python object itself."""
    if isinstance(value, z3.ExprRef):
        return ("term", value.get_id())
    if isinstance(value, SEnum):
        return ("term", value.term.get_id())
    return ("object", id(value))


Readings = Mapping[str, str]
Env = dict[str, Value]


class _Unreachable:
    """A path through a body that ends without `return` (the checks rule it out)."""


UNREACHABLE = _Unreachable()
BlockResult: TypeAlias = "Value | _Unreachable"

MAX_DEPTH = 40
# The most items a list inside a symbolic record may have, where no part of a proof or a
# search fixes it (the proofs of `playable` and the explorer's searches use it).
LIST_BOUND = 4


class Translator:
    """Evaluates rules of a spec as z3 terms under a choice of readings.

    `readings` fixes the reading of some variants (by name); a `choose` or
    `is` on any other variant becomes a z3 `If` over that variant's reading
    variable (`Universe.reading_var`), so one query can range over readings.
    """

    def __init__(self, spec: m.Spec, readings: Readings | None = None,
                 universe: Universe | None = None,
                 abstract: Mapping[str, Callable[[list[Value]], Value]] | None = None
                 ) -> None:
        self.spec = spec
        # Rules replaced by a function of their arguments (for instance a free
        # variable constrained by the caller): the proof then holds for every
        # value the abstraction allows, which the caller must make a superset
        # of what the rule can give.
        self.abstract = dict(abstract or {})
        self.u = universe or Universe(spec)
        self.readings: dict[str, str] = {}
        for key, reading in (readings or {}).items():
            self.readings[spec.variant(key).name] = reading
        self._rules = {r.name: r for r in spec.rules}
        self._tables = {t.name: t for t in spec.tables}
        self._orders = {o.name: o for o in spec.orders}
        self._consts = {c.name: c for c in spec.consts}
        self._records = {r.name: r for r in spec.records}
        self._enums = {e.name: e for e in spec.enums}
        self.stack: list[str] = []
        self.requirements: list[Requirement] = []
        # (rule, its arguments' keys) -> (the value, the arguments, kept so that their ids
        # stay theirs) of a call that added no requirement (`_call_rule`)
        self._calls: dict[tuple[str, tuple[object, ...]], tuple[Value, list[Value]]] = {}

    # -- errors -------------------------------------------------------------------------

    def fail(self, message: str, pos: m.Pos | None) -> TranslationError:
        return TranslationError(message, pos, self.stack)

    # -- entry points ----------------------------------------------------------------------

    def rule(self, name: str) -> m.Rule:
        if name not in self._rules:
            raise TranslationError(f"the spec has no rule named {name!r}")
        return self._rules[name]

    def params(self, name: str, prefix: str | None = None, *,
               list_len: int | None = None,
               constraints: list[z3.BoolRef] | None = None) -> dict[str, Value]:
        """Fresh symbolic arguments for every parameter of a rule."""
        rule = self.rule(name)
        base = prefix if prefix is not None else name
        return {p.name: self.u.fresh(p.type, f"{base}.{p.name}", list_len=list_len,
                                     constraints=constraints)
                for p in rule.params}

    def call(self, name: str, args: Mapping[str, Value] | Sequence[Value],
             path: z3.BoolRef = TRUE) -> Result:
        """Evaluate a rule on symbolic or concrete arguments."""
        rule = self.rule(name)
        if isinstance(args, Mapping):
            missing = [p.name for p in rule.params if p.name not in args]
            if missing:
                raise TranslationError(f"no argument for {', '.join(missing)}", rule.pos,
                                       [name])
            values = [args[p.name] for p in rule.params]
        else:
            values = list(args)
        saved = self.requirements
        self.requirements = []
        try:
            value = self._call_rule(rule, values, path, rule.pos)
            return Result(value, self.requirements)
        finally:
            self.requirements = saved

    def expr(self, e: m.Expr, env: Env | None = None, path: z3.BoolRef = TRUE) -> Value:
        """Evaluate one expression (for tests and ad-hoc checks)."""
        return self._expr(e, dict(env or {}), path)

    # -- rules and statements ------------------------------------------------------------

    def _call_rule(self, rule: m.Rule, args: list[Value], path: z3.BoolRef,
                   pos: m.Pos) -> Value:
        if len(args) != len(rule.params):
            raise self.fail(f"{rule.name} takes {len(rule.params)} argument(s), "
                            f"got {len(args)}", pos)
        if len(self.stack) >= MAX_DEPTH:
            raise self.fail(f"calls nested deeper than {MAX_DEPTH} (recursion?)", pos)
        # A rule's value is a function of its arguments (and of the readings, fixed for the
        # translator): a call made again with the same arguments gives the value made the
        # first time, when that call added no `require` (whose condition would carry the
        # path of the first call). The same z3 term is the same argument (z3 shares equal
        # terms); any other value is the same argument when it is the same object.
        key = (rule.name, tuple(_argument_key(a) for a in args))
        known = self._calls.get(key)
        if known is not None:
            return known[0]
        self.stack.append(rule.name)
        before = len(self.requirements)
        try:
            env: Env = {p.name: a for p, a in zip(rule.params, args, strict=True)}
            out = self._block(list(rule.body), env, path)
            if isinstance(out, _Unreachable):
                raise self.fail("no path through the rule returns a value", rule.pos)
        finally:
            self.stack.pop()
        if len(self.requirements) == before:
            self._calls[key] = (out, args)
        return out

    def _block(self, stmts: list[m.Stmt], env: Env, path: z3.BoolRef) -> BlockResult:
        """Run statements in order; each `if` and `choose` carries the rest with it."""
        for i, s in enumerate(stmts):
            rest = stmts[i + 1:]
            if isinstance(s, m.Let):
                env = {**env, s.name: self._expr(s.value, env, path)}
            elif isinstance(s, m.Return):
                return self._expr(s.value, env, path)
            elif isinstance(s, m.Require):
                cond = self._bool(self._expr(s.condition, env, path), s.condition)
                self.requirements.append(
                    Requirement(self.stack[-1] if self.stack else "?", s.message, s.pos,
                                path, cond))
            elif isinstance(s, m.If):
                return self._if(s, rest, env, path)
            elif isinstance(s, m.Choose):
                return self._choose(s, rest, env, path)
            else:  # pragma: no cover - the model has no other statements
                raise self.fail(f"unknown statement {type(s).__name__}", None)
        return UNREACHABLE

    def _if(self, s: m.If, rest: list[m.Stmt], env: Env, path: z3.BoolRef) -> BlockResult:
        conds: list[z3.BoolRef] = []
        outcomes: list[BlockResult] = []
        taken = FALSE  # some earlier branch was taken
        for branch in s.branches:
            here = and_(path, not_(taken))
            cond = self._bool(self._expr(branch.condition, env, here), branch.condition)
            branch_path = and_(here, cond)
            if is_false(branch_path):
                conds.append(cond)
                outcomes.append(UNREACHABLE)
            else:
                conds.append(cond)
                outcomes.append(self._block([*branch.body, *rest], dict(env), branch_path))
            taken = or_(taken, cond)
            if is_true(taken):
                break
        else_path = and_(path, not_(taken))
        if is_false(else_path):
            result: BlockResult = UNREACHABLE
        else:
            result = self._block([*(s.otherwise or ()), *rest], dict(env), else_path)
        for cond, outcome in reversed(list(zip(conds, outcomes, strict=True))):
            result = self._merge(cond, outcome, result, s.pos)
        return result

    def _merge(self, c: z3.BoolRef, a: BlockResult, b: BlockResult, pos: m.Pos) -> BlockResult:
        if isinstance(a, _Unreachable):
            return b
        if isinstance(b, _Unreachable):
            return a
        return ite(c, a, b, pos)

    def _choose(self, s: m.Choose, rest: list[m.Stmt], env: Env, path: z3.BoolRef) -> BlockResult:
        variant = self.spec.variant(s.variant).name
        fixed = self.readings.get(variant)
        if fixed is not None:
            for case in s.cases:
                if fixed in case.readings:
                    return self._block([*case.body, *rest], env, path)
            raise self.fail(f"no case of `choose {variant}` covers the reading {fixed!r}",
                            s.pos)
        conds = [or_(*[self.u.reading_is(variant, r) for r in case.readings])
                 for case in s.cases]
        outcomes = [self._block([*case.body, *rest], dict(env), and_(path, c))
                    for case, c in zip(s.cases, conds, strict=True)]
        result = outcomes[-1]
        for cond, outcome in reversed(list(zip(conds[:-1], outcomes[:-1], strict=True))):
            result = self._merge(cond, outcome, result, s.pos)
        return result

    # -- expressions ---------------------------------------------------------------------

    def _bool(self, v: Value, e: m.Expr) -> z3.BoolRef:
        if isinstance(v, z3.BoolRef):
            return v
        raise self.fail(f"expected a true/false value, got {_kind(v)}", e.pos)

    def _int(self, v: Value, e: m.Expr) -> z3.ArithRef:
        if isinstance(v, z3.ArithRef):
            return v
        raise self.fail(f"expected a whole number, got {_kind(v)}", e.pos)

    def _list(self, v: Value, e: m.Expr) -> SList:
        if isinstance(v, SList):
            return v
        raise self.fail(f"expected a list, got {_kind(v)}", e.pos)

    def _expr(self, e: m.Expr, env: Env, path: z3.BoolRef) -> Value:
        if isinstance(e, m.IntLit):
            return z3.IntVal(e.value)
        if isinstance(e, m.BoolLit):
            return bool_lit(e.value)
        if isinstance(e, m.StrLit):
            return z3.StringVal(e.value)
        if isinstance(e, m.NoneLit):
            return NONE
        if isinstance(e, m.Name):
            return self._name(e, env)
        if isinstance(e, m.Reads):
            variant = self.spec.variant(e.variant).name
            fixed = self.readings.get(variant)
            if fixed is not None:
                return bool_lit(fixed == e.reading)
            return self.u.reading_is(variant, e.reading)
        if isinstance(e, m.ListLit):
            return SList(tuple((TRUE, self._expr(x, env, path)) for x in e.items))
        if isinstance(e, m.Comprehension):
            return self._comprehension(e, env, path)
        if isinstance(e, m.BinOp):
            return self._binop(e, env, path)
        if isinstance(e, m.UnaryOp):
            operand = self._expr(e.operand, env, path)
            if e.op == "not":
                return not_(self._bool(operand, e.operand))
            n = self._int(operand, e.operand)
            ln = lit(n)
            return z3.IntVal(-ln) if ln is not None else -n
        if isinstance(e, m.IfExpr):
            cond = self._bool(self._expr(e.condition, env, path), e.condition)
            then = self._expr(e.then, env, and_(path, cond)) if not is_false(cond) else None
            other = self._expr(e.otherwise, env, and_(path, not_(cond))) \
                if not is_true(cond) else None
            if then is None:
                assert other is not None
                return other
            if other is None:
                return then
            return ite(cond, then, other, e.pos)
        if isinstance(e, m.FieldOf):
            return self._field(self._expr(e.base, env, path), e)
        if isinstance(e, m.Index):
            return self._index(e, env, path)
        if isinstance(e, m.Call):
            return self._call(e, env, path)
        if isinstance(e, m.WithUpdate):
            base = self._expr(e.base, env, path)
            if isinstance(base, SOpt) and base.value is not None:
                base = base.value
            if not isinstance(base, SRecord):
                raise self.fail(f"`with` needs a record, got {_kind(base)}", e.pos)
            changed = {u.name: self._expr(u.value, env, path) for u in e.updates}
            for name in changed:
                if base.get(name) is None:
                    raise self.fail(f"record {base.record} has no field {name!r}", e.pos)
            if isinstance(base, LazyRecord):
                return base.updated(changed)
            if isinstance(base, LazyIte | _Overlay):
                return _Overlay(base, changed)
            return SRecord(base.record, tuple((n, changed.get(n, v)) for n, v in base.fields))
        raise self.fail(f"unknown expression {type(e).__name__}", getattr(e, "pos", None))

    def _name(self, e: m.Name, env: Env) -> Value:
        n = e.name
        if n in env:
            return env[n]
        if n in self.u.member_enum:
            return self.u.member(n)
        if n in self._enums:
            return SList(tuple((TRUE, x) for x in self.u.members(n)))
        if n in self._consts:
            return z3.IntVal(self._consts[n].value)
        if n in self._tables:
            raise self.fail(f"table {n} used without a key (write {n}[key])", e.pos)
        if n in self._orders:
            raise self.fail(f"order {n} used without a key (write {n}[member])", e.pos)
        if n in self._rules:
            raise self.fail(f"rule {n} used without calling it", e.pos)
        raise self.fail(f"unknown name {n!r}", e.pos)

    def _field(self, base: Value, e: m.FieldOf) -> Value:
        if isinstance(base, SOpt):
            if base.value is None:
                raise self.fail(f"field {e.field!r} of none", e.pos)
            base = base.value
        if not isinstance(base, SRecord):
            raise self.fail(f"field {e.field!r} of {_kind(base)}, not a record", e.pos)
        value = base.get(e.field)
        if value is None:
            raise self.fail(f"record {base.record} has no field {e.field!r}", e.pos)
        return value

    def _lookup(self, e: m.Index, key: Value, enum: str, what: str,
                values: dict[str, int]) -> z3.ArithRef:
        if isinstance(key, SOpt) and key.value is not None:
            key = key.value
        if not isinstance(key, SEnum) or key.enum != enum:
            raise self.fail(f"{what} is keyed by {enum}, got {_kind(key)}", e.key.pos)
        names = self.spec.enum(enum).member_names
        missing = [n for n in names if n not in values]
        if missing:
            raise self.fail(f"{what} has no entry for {', '.join(missing)}", e.pos)
        if key.member is not None:  # a constant key: the entry itself
            return z3.IntVal(values[key.member])
        # A nested If over the members.
        result: z3.ArithRef = z3.IntVal(values[names[-1]])
        for name in reversed(names[:-1]):
            result = int_if(key.term == self.u.member(name).term, z3.IntVal(values[name]),
                            result)
        return result

    def _index(self, e: m.Index, env: Env, path: z3.BoolRef) -> Value:
        if isinstance(e.base, m.Name) and e.base.name not in env:
            if e.base.name in self._tables:
                t = self._tables[e.base.name]
                key = self._expr(e.key, env, path)
                return self._lookup(e, key, t.key_enum, f"table {t.name}", t.as_dict())
            if e.base.name in self._orders:
                o = self._orders[e.base.name]
                key = self._expr(e.key, env, path)
                strengths = {mem.name: o.strength(mem.name) for mem in o.high_to_low}
                return self._lookup(e, key, o.over, f"order {o.name}", strengths)
        base = self._list(self._expr(e.base, env, path), e.base)
        index = self._int(self._expr(e.key, env, path), e.key)
        if not base.items:
            raise self.fail("indexing an empty list", e.pos)
        k = lit(index)
        if k is not None and all(is_true(g) for g, _ in base.items):
            if -len(base.items) <= k < len(base.items):
                return base.items[k][1]
            raise self.fail(f"index {k} out of a list of {len(base.items)}", e.pos)
        if k is None or k < 0:
            length = count(base.items)
            index = int_if(index < 0, index + length, index) if k is None else \
                int_sum([length, index])
        position: z3.ArithRef = z3.IntVal(0)
        picks: list[tuple[z3.BoolRef, Value]] = []
        for g, x in base.items:
            picks.append((and_(g, equal(position, index)), x))
            position = int_sum([position, int_if(g, z3.IntVal(1), z3.IntVal(0))])
        result = picks[-1][1]
        for cond, x in reversed(picks[:-1]):
            result = ite(cond, x, result, e.pos)
        return result

    def _binop(self, e: m.BinOp, env: Env, path: z3.BoolRef) -> Value:
        op = e.op
        left = self._expr(e.left, env, path)
        if op == "and":
            lb = self._bool(left, e.left)
            if is_false(lb):
                return FALSE
            return and_(lb, self._bool(self._expr(e.right, env, and_(path, lb)), e.right))
        if op == "or":
            lb = self._bool(left, e.left)
            if is_true(lb):
                return TRUE
            return or_(lb, self._bool(self._expr(e.right, env, and_(path, not_(lb))),
                                      e.right))
        right = self._expr(e.right, env, path)
        if op == "==":
            return equal(left, right, e.pos)
        if op == "!=":
            return not_(equal(left, right, e.pos))
        if op in ("in", "not in"):
            items = self._list(right, e.right).items
            found = or_(*[and_(g, equal(left, x, e.pos)) for g, x in items])
            return found if op == "in" else not_(found)
        if op == "+" and isinstance(left, SList):
            return SList(left.items + self._list(right, e.right).items)
        a, b = self._int(left, e.left), self._int(right, e.right)
        la, lb = lit(a), lit(b)
        if la is not None and lb is not None:  # fold constants, Python's semantics
            if op in ("//", "%") and lb == 0:
                raise self.fail("division by zero", e.pos)
            folded: dict[str, Callable[[int, int], int | bool]] = {
                "+": lambda x, y: x + y, "-": lambda x, y: x - y, "*": lambda x, y: x * y,
                "//": lambda x, y: x // y, "%": lambda x, y: x % y,
                "<": lambda x, y: x < y, "<=": lambda x, y: x <= y,
                ">": lambda x, y: x > y, ">=": lambda x, y: x >= y}
            if op in folded:
                r = folded[op](la, lb)
                return bool_lit(r) if isinstance(r, bool) else z3.IntVal(r)
        if op == "+":
            return a + b
        if op == "-":
            return a - b
        if op == "*":
            return a * b
        if op in ("//", "%"):
            return _floordiv(a, b) if op == "//" else _mod(a, b)
        if op in ("<", "<=", ">", ">="):
            return {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[op]
        raise self.fail(f"unknown operator {op!r}", e.pos)

    def _comprehension(self, e: m.Comprehension, env: Env, path: z3.BoolRef) -> SList:
        out: list[tuple[z3.BoolRef, Value]] = []

        def go(i: int, env: Env, guard: z3.BoolRef) -> None:
            if is_false(guard):
                return
            if i == len(e.clauses):
                out.append((guard, self._expr(e.element, env, and_(path, guard))))
                return
            clause = e.clauses[i]
            if isinstance(clause, m.CompFor):
                items = self._list(self._expr(clause.iterable, env, and_(path, guard)),
                                   clause.iterable)
                for g, x in items.items:
                    go(i + 1, {**env, clause.target: x}, and_(guard, g))
            else:
                cond = self._bool(self._expr(clause.condition, env, and_(path, guard)),
                                  clause.condition)
                go(i + 1, env, and_(guard, cond))

        go(0, env, TRUE)
        return SList(tuple(out))

    # -- calls ---------------------------------------------------------------------------

    def _call(self, e: m.Call, env: Env, path: z3.BoolRef) -> Value:
        if not isinstance(e.func, m.Name):
            raise self.fail("only named rules and built-ins can be called", e.pos)
        name = e.func.name
        if name in self._records and name not in env:
            rec = self._records[name]
            given = {kw.name: self._expr(kw.value, env, path) for kw in e.kwargs}
            positional = [self._expr(a, env, path) for a in e.args]
            for f, v in zip(rec.fields, positional, strict=False):
                given.setdefault(f.name, v)
            missing = [f.name for f in rec.fields if f.name not in given]
            if missing:
                raise self.fail(f"{name}(...) misses field(s) {', '.join(missing)}", e.pos)
            return SRecord(name, tuple((f.name, given[f.name]) for f in rec.fields))
        if name in self.abstract and name not in env:
            return self.abstract[name]([self._expr(a, env, path) for a in e.args])
        if name in self._rules and name not in env:
            rule = self._rules[name]
            values: dict[str, Value] = {}
            for p, a in zip(rule.params, e.args, strict=False):
                values[p.name] = self._expr(a, env, path)
            for kw in e.kwargs:
                values[kw.name] = self._expr(kw.value, env, path)
            missing = [p.name for p in rule.params if p.name not in values]
            if missing:
                raise self.fail(f"call of {name} misses argument(s) {', '.join(missing)}",
                                e.pos)
            return self._call_rule(rule, [values[p.name] for p in rule.params], path, e.pos)
        builtin = BUILTINS.get(name)
        if builtin is None:
            raise self.fail(f"unknown function {name!r}", e.pos)
        args = [self._expr(a, env, path) for a in e.args]
        return builtin(self, e, args)


def _floordiv(a: z3.ArithRef, b: z3.ArithRef) -> z3.ArithRef:
    """Python's `a // b`. z3's `/` on integers is Euclidean: equal for b > 0."""
    cb = concrete_int(b)
    if cb is not None and cb > 0:
        return a / b
    return z3.If(b > 0, a / b, (-a) / (-b))


def _mod(a: z3.ArithRef, b: z3.ArithRef) -> z3.ArithRef:
    """Python's `a % b` = a - b * (a // b). z3's `%` is Euclidean: equal for b > 0."""
    cb = concrete_int(b)
    if cb is not None and cb > 0:
        return a % b
    return a - b * _floordiv(a, b)


def _kind(v: Value) -> str:
    if isinstance(v, SEnum):
        return f"a {v.enum}"
    if isinstance(v, SRecord):
        return f"a {v.record}"
    if isinstance(v, SOpt):
        return "an optional value"
    if isinstance(v, SList):
        return "a list"
    if isinstance(v, z3.BoolRef):
        return "a true/false value"
    if isinstance(v, z3.ArithRef):
        return "a whole number"
    return "a text"


# ----------------------------------------------------------------- built-ins --

Builtin = Callable[[Translator, m.Call, list[Value]], Value]


def _arity(t: Translator, e: m.Call, args: list[Value], n: int) -> None:
    if len(args) != n:
        name = e.func.name if isinstance(e.func, m.Name) else "?"
        raise t.fail(f"{name} takes {n} argument(s), got {len(args)}", e.pos)


def _b_len(t: Translator, e: m.Call, args: list[Value]) -> Value:
    _arity(t, e, args, 1)
    if isinstance(args[0], z3.SeqRef):
        return z3.Length(args[0])
    return count(t._list(args[0], e.args[0]).items)


def _b_sum(t: Translator, e: m.Call, args: list[Value]) -> Value:
    _arity(t, e, args, 1)
    items = t._list(args[0], e.args[0]).items
    return int_sum([int_if(g, t._int(x, e), z3.IntVal(0)) for g, x in items])


def _extreme(t: Translator, e: m.Call, args: list[Value], better: str) -> Value:
    _arity(t, e, args, 1)
    items = t._list(args[0], e.args[0]).items
    if not items:
        raise t.fail(f"{better} of an empty list", e.pos)
    seen: z3.BoolRef = FALSE
    best: z3.ArithRef = z3.IntVal(0)
    for g, x in items:
        v = t._int(x, e)
        lv, lbest = lit(v), lit(best)
        if lv is not None and lbest is not None:
            beats = bool_lit(lv > lbest if better == "max" else lv < lbest)
        else:
            beats = (v > best) if better == "max" else (v < best)
        take = and_(g, or_(not_(seen), beats))
        best = int_if(take, v, best)
        seen = or_(seen, g)
    return best


def _b_max(t: Translator, e: m.Call, args: list[Value]) -> Value:
    return _extreme(t, e, args, "max")


def _b_min(t: Translator, e: m.Call, args: list[Value]) -> Value:
    return _extreme(t, e, args, "min")


def _b_any(t: Translator, e: m.Call, args: list[Value]) -> Value:
    _arity(t, e, args, 1)
    return or_(*[and_(g, t._bool(x, e)) for g, x in t._list(args[0], e.args[0]).items])


def _b_all(t: Translator, e: m.Call, args: list[Value]) -> Value:
    _arity(t, e, args, 1)
    return and_(*[z3.Implies(g, t._bool(x, e)) if not is_true(g) else t._bool(x, e)
                  for g, x in t._list(args[0], e.args[0]).items])


def int_bounds(v: z3.ArithRef, depth: int = 0) -> tuple[int, int] | None:
    """Bounds of an integer term built from literals, +, -, * by a literal and If
    (such as a `len` of a guarded list), or None when they are not evident."""
    c = lit(v)
    if c is not None:
        return c, c
    if depth > 200 or not z3.is_app(v):
        return None
    kind = v.decl().kind()
    kids = [v.arg(i) for i in range(v.num_args())]
    if kind == z3.Z3_OP_ITE:
        a, b = int_bounds(kids[1], depth + 1), int_bounds(kids[2], depth + 1)
        return (min(a[0], b[0]), max(a[1], b[1])) if a and b else None
    parts = [int_bounds(k, depth + 1) for k in kids]
    if any(p is None for p in parts):
        return None
    ps = [p for p in parts if p is not None]
    if kind == z3.Z3_OP_ADD:
        return sum(p[0] for p in ps), sum(p[1] for p in ps)
    if kind == z3.Z3_OP_SUB and len(ps) == 2:
        return ps[0][0] - ps[1][1], ps[0][1] - ps[1][0]
    if kind == z3.Z3_OP_UMINUS and len(ps) == 1:
        return -ps[0][1], -ps[0][0]
    if kind == z3.Z3_OP_MUL and len(ps) == 2:
        corners = [x * y for x in ps[0] for y in ps[1]]
        return min(corners), max(corners)
    return None


def _b_range(t: Translator, e: m.Call, args: list[Value]) -> Value:
    _arity(t, e, args, 2)
    a, b = t._int(args[0], e.args[0]), t._int(args[1], e.args[1])
    lo, hi = concrete_int(a), concrete_int(b)
    if lo is not None and hi is not None:
        return SList(tuple((TRUE, z3.IntVal(i)) for i in range(lo, hi)))
    # Bounds that depend on the inputs: unroll over what they can be, each
    # number guarded by a <= i < b.
    ba, bb = int_bounds(a), int_bounds(b)
    if ba is None or bb is None:
        raise t.fail("range(a, b) with bounds that depend on the inputs and have no "
                     "evident limit", e.pos)
    items = []
    for i in range(ba[0], bb[1]):
        guard = and_(TRUE if lo is not None else a <= i, TRUE if hi is not None else i < b)
        if lo is not None and i < lo:
            continue
        if hi is not None and i >= hi:
            continue
        items.append((guard, z3.IntVal(i)))
    return SList(tuple(items))


def _b_abs(t: Translator, e: m.Call, args: list[Value]) -> Value:
    _arity(t, e, args, 1)
    a = t._int(args[0], e.args[0])
    la = lit(a)
    return z3.IntVal(abs(la)) if la is not None else z3.If(a < 0, -a, a)


def _b_remove(t: Translator, e: m.Call, args: list[Value]) -> Value:
    _arity(t, e, args, 2)
    items = t._list(args[0], e.args[0]).items
    done: z3.BoolRef = FALSE
    out: list[tuple[z3.BoolRef, Value]] = []
    for g, x in items:
        hit = and_(g, not_(done), equal(x, args[1], e.pos))
        out.append((and_(g, not_(hit)), x))
        done = or_(done, hit)
    return SList(tuple(out))


def _b_index_of(t: Translator, e: m.Call, args: list[Value]) -> Value:
    _arity(t, e, args, 2)
    items = t._list(args[0], e.args[0]).items
    positions: list[z3.ArithRef] = []
    position: z3.ArithRef = z3.IntVal(0)
    for g, _ in items:
        positions.append(position)
        position = int_sum([position, int_if(g, z3.IntVal(1), z3.IntVal(0))])
    result: z3.ArithRef = z3.IntVal(-1)
    for (g, x), pos in reversed(list(zip(items, positions, strict=True))):
        result = int_if(and_(g, equal(x, args[1], e.pos)), pos, result)
    return result


BUILTINS: dict[str, Builtin] = {
    "len": _b_len, "sum": _b_sum, "max": _b_max, "min": _b_min, "any": _b_any,
    "all": _b_all, "range": _b_range, "abs": _b_abs, "remove": _b_remove,
    "index_of": _b_index_of,
}
