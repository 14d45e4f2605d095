"""Walking the statements and expressions of rule bodies."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TypeAlias

from . import model as m

Node: TypeAlias = m.Stmt | m.Expr | m.CompFor | m.CompIf | m.KeywordArg


def children(node: Node) -> Iterator[Node]:
    """The direct sub-statements and sub-expressions of a node."""
    if isinstance(node, m.Let | m.Return):
        yield node.value
    elif isinstance(node, m.Require):
        yield node.condition
    elif isinstance(node, m.If):
        for branch in node.branches:
            yield branch.condition
            yield from branch.body
        yield from node.otherwise or ()
    elif isinstance(node, m.Choose):
        for case in node.cases:
            yield from case.body
    elif isinstance(node, m.BinOp):
        yield node.left
        yield node.right
    elif isinstance(node, m.UnaryOp):
        yield node.operand
    elif isinstance(node, m.IfExpr):
        yield from (node.condition, node.then, node.otherwise)
    elif isinstance(node, m.FieldOf):
        yield node.base
    elif isinstance(node, m.Index):
        yield node.base
        yield node.key
    elif isinstance(node, m.Call):
        yield node.func
        yield from node.args
        yield from node.kwargs
    elif isinstance(node, m.WithUpdate):
        yield node.base
        yield from node.updates
    elif isinstance(node, m.KeywordArg):
        yield node.value
    elif isinstance(node, m.ListLit):
        yield from node.items
    elif isinstance(node, m.Comprehension):
        yield node.element
        yield from node.clauses
    elif isinstance(node, m.CompFor):
        yield node.iterable
    elif isinstance(node, m.CompIf):
        yield node.condition


def walk(node: Node) -> Iterator[Node]:
    """A node and everything below it, depth first."""
    yield node
    for child in children(node):
        yield from walk(child)


def walk_body(body: tuple[m.Stmt, ...]) -> Iterator[Node]:
    for stmt in body:
        yield from walk(stmt)


def called_rules(body: tuple[m.Stmt, ...]) -> list[str]:
    """Names called in a rule body, in order of first call."""
    found: list[str] = []
    for node in walk_body(body):
        if isinstance(node, m.Call) and isinstance(node.func, m.Name) \
                and node.func.name not in found:
            found.append(node.func.name)
    return found


def rule_calls(spec: m.Spec) -> dict[str, list[tuple[str, m.Call]]]:
    """Rule name -> (the calling rule, the call) for every call of it in the spec's rules."""
    names = {r.name for r in spec.rules}
    found: dict[str, list[tuple[str, m.Call]]] = {}
    for rule in spec.rules:
        for node in walk_body(rule.body):
            if isinstance(node, m.Call) and isinstance(node.func, m.Name) \
                    and node.func.name in names:
                found.setdefault(node.func.name, []).append((rule.name, node))
    return found


def parents(body: tuple[m.Stmt, ...]) -> dict[int, Node]:
    """id(node) -> the node that holds it, for every node of a rule body."""
    found: dict[int, Node] = {}
    for node in walk_body(body):
        for child in children(node):
            found[id(child)] = node
    return found


def located(body: tuple[m.Stmt, ...], site: object) -> Node | None:
    """The node of a rule body that is `site` (the very object, else an equal one: a node
    carries its place, so an equal node is the same one), or None."""
    return next((node for node in walk_body(body) if node is site), None) or next(
        (node for node in walk_body(body) if node == site), None)
