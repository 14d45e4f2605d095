"""The typed, immutable model of a Baloot spec.

The parser (`baloot.grammar.parser`) builds these objects from `spec/*.baloot`;
the code generator, the z3 checks, the document renderer and the conformance
tooling all read them, and none of them re-reads spec text.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeAlias


@dataclass(frozen=True)
class Pos:
    """Where a piece of the spec stands: file, line and column (both from 1)."""

    file: str
    line: int
    column: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


# ---------------------------------------------------------------- types ----


@dataclass(frozen=True)
class PlainType:
    name: str  # int, bool, text, or an enum or record name
    pos: Pos


@dataclass(frozen=True)
class OptionalType:
    inner: Type
    pos: Pos


@dataclass(frozen=True)
class ListType:
    item: Type
    pos: Pos


Type: TypeAlias = PlainType | OptionalType | ListType

BUILTIN_TYPES = ("int", "bool", "text")

# -------------------------------------------------------------- expressions --


@dataclass(frozen=True)
class IntLit:
    value: int
    pos: Pos


@dataclass(frozen=True)
class StrLit:
    value: str
    pos: Pos


@dataclass(frozen=True)
class BoolLit:
    value: bool
    pos: Pos


@dataclass(frozen=True)
class NoneLit:
    pos: Pos


@dataclass(frozen=True)
class Name:
    name: str
    pos: Pos


@dataclass(frozen=True)
class ListLit:
    items: tuple[Expr, ...]
    pos: Pos


@dataclass(frozen=True)
class CompFor:
    target: str
    iterable: Expr
    pos: Pos


@dataclass(frozen=True)
class CompIf:
    condition: Expr
    pos: Pos


@dataclass(frozen=True)
class Comprehension:
    element: Expr
    clauses: tuple[CompFor | CompIf, ...]
    pos: Pos


# Binary operators, by their spelling in the rule language.
BINARY_OPERATORS = (
    "or", "and", "==", "!=", "<", "<=", ">", ">=", "in", "not in", "+", "-", "*", "//", "%",
)


@dataclass(frozen=True)
class BinOp:
    op: str  # one of BINARY_OPERATORS
    left: Expr
    right: Expr
    pos: Pos


@dataclass(frozen=True)
class UnaryOp:
    op: str  # "not" or "-"
    operand: Expr
    pos: Pos


@dataclass(frozen=True)
class IfExpr:
    condition: Expr
    then: Expr
    otherwise: Expr
    pos: Pos


@dataclass(frozen=True)
class FieldOf:
    base: Expr
    field: str
    pos: Pos


@dataclass(frozen=True)
class Index:
    base: Expr
    key: Expr
    pos: Pos


@dataclass(frozen=True)
class KeywordArg:
    name: str
    value: Expr
    pos: Pos


@dataclass(frozen=True)
class Call:
    func: Expr  # a Name in every well-formed spec
    args: tuple[Expr, ...]
    kwargs: tuple[KeywordArg, ...]
    pos: Pos


@dataclass(frozen=True)
class WithUpdate:
    base: Expr
    updates: tuple[KeywordArg, ...]
    pos: Pos


@dataclass(frozen=True)
class Reads:
    """`variant is reading`: true when the variant is read that way."""

    variant: str
    reading: str
    pos: Pos
    reading_pos: Pos


Expr: TypeAlias = (
    IntLit | StrLit | BoolLit | NoneLit | Name | ListLit | Comprehension | BinOp | UnaryOp |
    IfExpr | FieldOf | Index | Call | WithUpdate | Reads
)

# --------------------------------------------------------------- statements --


@dataclass(frozen=True)
class Let:
    name: str
    value: Expr
    pos: Pos


@dataclass(frozen=True)
class Return:
    value: Expr
    pos: Pos


@dataclass(frozen=True)
class IfBranch:
    condition: Expr
    body: tuple[Stmt, ...]
    pos: Pos


@dataclass(frozen=True)
class If:
    branches: tuple[IfBranch, ...]  # the `if` and each `elif`, in order
    otherwise: tuple[Stmt, ...] | None
    pos: Pos


@dataclass(frozen=True)
class ChoiceCase:
    readings: tuple[str, ...]
    body: tuple[Stmt, ...]
    pos: Pos


@dataclass(frozen=True)
class Choose:
    variant: str
    cases: tuple[ChoiceCase, ...]
    pos: Pos


@dataclass(frozen=True)
class Require:
    condition: Expr
    message: str
    pos: Pos


Stmt: TypeAlias = Let | Return | If | Choose | Require

# ------------------------------------------------------------- declarations --


@dataclass(frozen=True)
class Clause:
    """One clause of the source rules page, in the spec's own words."""

    id: str
    text: str
    translations: str | None
    pos: Pos

    @property
    def family(self) -> str:
        return self.id.split(".")[0]


@dataclass(frozen=True)
class Citation:
    clause: str
    pos: Pos


@dataclass(frozen=True)
class EnumMember:
    name: str
    notation: str | None
    pos: Pos


@dataclass(frozen=True)
class Enum:
    name: str
    cites: tuple[Citation, ...]
    doc: str | None
    members: tuple[EnumMember, ...]
    pos: Pos

    @property
    def member_names(self) -> tuple[str, ...]:
        return tuple(m.name for m in self.members)


@dataclass(frozen=True)
class Field:
    name: str
    type: Type
    pos: Pos


@dataclass(frozen=True)
class Record:
    name: str
    cites: tuple[Citation, ...]
    doc: str | None
    fields: tuple[Field, ...]
    pos: Pos


@dataclass(frozen=True)
class OrderMember:
    name: str
    pos: Pos


@dataclass(frozen=True)
class Order:
    """A strict total order over an enum's members, listed high to low."""

    name: str
    cites: tuple[Citation, ...]
    doc: str | None
    over: str
    over_pos: Pos
    high_to_low: tuple[OrderMember, ...]
    pos: Pos

    def strength(self, member: str) -> int:
        """How many members rank below `member` (lowest 0)."""
        names = [m.name for m in self.high_to_low]
        return len(names) - 1 - names.index(member)


@dataclass(frozen=True)
class TableEntry:
    key: str
    value: int
    pos: Pos


@dataclass(frozen=True)
class Table:
    name: str
    cites: tuple[Citation, ...]
    doc: str | None
    key_enum: str
    key_pos: Pos
    value_type: Type
    entries: tuple[TableEntry, ...]
    pos: Pos

    def as_dict(self) -> dict[str, int]:
        return {e.key: e.value for e in self.entries}


@dataclass(frozen=True)
class Const:
    name: str
    cites: tuple[Citation, ...]
    doc: str | None
    value: int
    pos: Pos


@dataclass(frozen=True)
class Param:
    name: str
    type: Type
    pos: Pos


@dataclass(frozen=True)
class Rule:
    name: str
    cites: tuple[Citation, ...]
    doc: str | None
    params: tuple[Param, ...]
    returns: Type
    body: tuple[Stmt, ...]
    pos: Pos


@dataclass(frozen=True)
class MachineState:
    name: str
    text: str
    pos: Pos


@dataclass(frozen=True)
class Transition:
    source: str
    target: str
    causes: tuple[str, ...]  # what makes the machine take this transition
    cites: tuple[Citation, ...]
    doc: str | None
    pos: Pos
    target_pos: Pos


@dataclass(frozen=True)
class Machine:
    """The states of one part of the game and every transition between them.

    The machine is also an enum of its states (the parser adds it to
    `Spec.enums`), so records and rules use the states as values.
    """

    name: str
    cites: tuple[Citation, ...]
    doc: str | None
    states: tuple[MachineState, ...]
    transitions: tuple[Transition, ...]
    pos: Pos

    def as_enum(self) -> Enum:
        members = tuple(EnumMember(s.name, None, s.pos) for s in self.states)
        return Enum(self.name, self.cites, self.doc, members, self.pos)


@dataclass(frozen=True)
class Reading:
    name: str
    text: str
    source: str
    pos: Pos


@dataclass(frozen=True)
class Variant:
    id: str  # the ambiguity ID of the rules notes, A1 ... A22
    name: str
    cites: tuple[Citation, ...]
    doc: str
    readings: tuple[Reading, ...]
    default: str | None
    default_pos: Pos | None
    pos: Pos

    @property
    def reading_names(self) -> tuple[str, ...]:
        return tuple(r.name for r in self.readings)


STATUSES = ("confirmed", "contested", "unsourced")  # a profile's choice, against its sources


@dataclass(frozen=True)
class Against:
    """A published source against a profile's choice, with the reading of the register
    it supports (None when the register has no such reading yet)."""

    reading: str | None
    source: str
    pos: Pos


@dataclass(frozen=True)
class Pick:
    variant: str
    reading: str
    pos: Pos
    reading_pos: Pos
    sources: tuple[str, ...] = ()  # where the choice comes from, one published source each
    settled: str | None = None  # where the sources disagree: which side is taken, and why
    unsourced: str | None = None  # why no source decides (the default reading is kept)
    status: str | None = None  # confirmed, contested or unsourced (STATUSES); None: not said
    against: tuple[Against, ...] = ()  # the sources for another reading

    @property
    def evidenced(self) -> bool:
        """Whether the choice says where it comes from (or that nothing decides it)."""
        return self.status is not None

    @property
    def annotated(self) -> bool:
        """Whether the choice carries any line on its evidence."""
        return self.status is not None or bool(self.sources) or self.settled is not None

    @property
    def contested(self) -> bool:
        return self.status == "contested"


@dataclass(frozen=True)
class Profile:
    name: str
    doc: str
    picks: tuple[Pick, ...]
    pos: Pos

    def readings(self) -> dict[str, str]:
        return {p.variant: p.reading for p in self.picks}

    def pick_of(self, variant: str) -> Pick | None:
        """The profile's choice for a variant (by its name)."""
        return next((p for p in self.picks if p.variant == variant), None)

    @property
    def sourced(self) -> bool:
        """Whether the profile says where its choices come from (then all of them must)."""
        return any(p.annotated for p in self.picks)


@dataclass(frozen=True)
class ScopeItem:
    """One part of the game in the stated scope: `checks` (the spec decides it and the
    suite checks it) or `leaves` (left to the table or the app), and, where said,
    whether the protocol could check it and why (`protocol "..."`)."""

    kind: str  # "checks" or "leaves"
    name: str
    text: str
    protocol: str | None
    pos: Pos


@dataclass(frozen=True)
class Scope:
    """What the spec and its suite cover, and what they leave to the table or the app."""

    doc: str
    items: tuple[ScopeItem, ...]
    pos: Pos

    def of_kind(self, kind: str) -> tuple[ScopeItem, ...]:
        return tuple(i for i in self.items if i.kind == kind)


@dataclass(frozen=True)
class HookBinding:
    """One part a tool plays, and the rule of the spec that plays it."""

    part: str
    rule: str
    pos: Pos
    rule_pos: Pos


@dataclass(frozen=True)
class Hooks:
    """The rules a tool of the project reaches by name (`hooks verify { ... }`).

    The generator, the runtime and the proofs call these rules; declared here,
    a renamed or missing rule is an error of `baloot spec check`, at its spot.
    """

    tool: str
    doc: str
    bindings: tuple[HookBinding, ...]
    pos: Pos


Decl: TypeAlias = (
    Clause | Enum | Record | Order | Table | Const | Rule | Machine | Variant | Profile | Hooks
    | Scope
)
Cited: TypeAlias = Enum | Record | Order | Table | Const | Rule | Machine | Variant


@dataclass(frozen=True)
class Spec:
    """A whole spec: every declaration of every file, in file order."""

    files: tuple[str, ...]
    sources: tuple[tuple[str, str], ...] = ()  # (file, text) of every file
    clauses: tuple[Clause, ...] = ()
    enums: tuple[Enum, ...] = ()
    records: tuple[Record, ...] = ()
    orders: tuple[Order, ...] = ()
    tables: tuple[Table, ...] = ()
    consts: tuple[Const, ...] = ()
    rules: tuple[Rule, ...] = ()
    machines: tuple[Machine, ...] = ()  # each also listed in `enums`, as an enum of its states
    variants: tuple[Variant, ...] = ()
    profiles: tuple[Profile, ...] = ()
    hooks: tuple[Hooks, ...] = ()
    scopes: tuple[Scope, ...] = ()  # the stated scope (one, checks.py)

    # -- lookups, for the consumers of the model --------------------------------

    def source_line(self, pos: Pos) -> str | None:
        """The line of spec text a position points into, when the text is known."""
        for file, text in self.sources:
            if file == pos.file:
                # lines as the parser counts them: at "\n" only (str.splitlines also
                # breaks at a form feed or U+2028, which would quote another line)
                lines = text.split("\n")
                return lines[pos.line - 1].rstrip("\r") if 0 < pos.line <= len(lines) else None
        return None

    def cited(self) -> tuple[Cited, ...]:
        """Every declaration that cites clauses."""
        machine_names = {mc.name for mc in self.machines}
        return (*(e for e in self.enums if e.name not in machine_names), *self.records,
                *self.orders, *self.tables, *self.consts, *self.rules, *self.machines,
                *self.variants)

    def clause(self, clause_id: str) -> Clause:
        return next(c for c in self.clauses if c.id == clause_id)

    def enum(self, name: str) -> Enum:
        return next(e for e in self.enums if e.name == name)

    def enum_of_member(self, member: str) -> Enum | None:
        return next((e for e in self.enums if member in e.member_names), None)

    def record(self, name: str) -> Record:
        return next(r for r in self.records if r.name == name)

    def order(self, name: str) -> Order:
        return next(o for o in self.orders if o.name == name)

    def table(self, name: str) -> Table:
        return next(t for t in self.tables if t.name == name)

    def const(self, name: str) -> Const:
        return next(c for c in self.consts if c.name == name)

    def rule(self, name: str) -> Rule:
        return next(r for r in self.rules if r.name == name)

    def variant(self, name: str) -> Variant:
        """A variant by its name (`rounding`) or its ambiguity ID (`A5`)."""
        return next(v for v in self.variants if name in (v.name, v.id))

    def machine(self, name: str) -> Machine:
        return next(mc for mc in self.machines if mc.name == name)

    def profile(self, name: str) -> Profile:
        return next(p for p in self.profiles if p.name == name)

    def readings_of(self, profile: str, overrides: dict[str, str] | None = None) -> dict[str, str]:
        """The complete choice of readings: a profile, then single overrides."""
        chosen = self.profile(profile).readings()
        for key, reading in (overrides or {}).items():
            chosen[self.variant(key).name] = reading
        return chosen

    def citing(self, clause_id: str) -> tuple[Cited, ...]:
        """Every declaration that cites a clause (a machine also through its transitions)."""
        def cites(d: Cited) -> bool:
            own = any(c.clause == clause_id for c in d.cites)
            return own or (isinstance(d, Machine) and any(
                c.clause == clause_id for t in d.transitions for c in t.cites))
        return tuple(d for d in self.cited() if cites(d))
