"""Generated Python keeps the meaning of every expression of the rule language.

Random expression trees are emitted as Python and evaluated; the result must
equal the tree's meaning given by the language's evaluator
(`baloot.grammar.evaluate`), whatever the nesting, so brackets are never lost
or misplaced.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from baloot.backends.python.pyemit import Context, Emitter
from baloot.grammar import model as m
from baloot.grammar.evaluate import Value, evaluate_expr

P = m.Pos("<test>", 1, 1)
SPEC = m.Spec(files=())
NAMES: dict[str, Value] = {"a": 7, "b": -3, "c": 2, "xs": [1, 2, 3], "flag": True}


def meaning(e: m.Expr) -> Value:
    """What an expression means: the language's evaluator, the names bound as above."""
    return evaluate_expr(SPEC, e, NAMES)


ints = st.one_of(
    st.integers(-20, 20).map(lambda v: m.IntLit(v, P)),
    st.sampled_from(["a", "b", "c"]).map(lambda n: m.Name(n, P)),
)


def binop(op: str, left: m.Expr, right: m.Expr) -> m.Expr:
    return m.BinOp(op, left, right, P)


def _int_tree(children: st.SearchStrategy[m.Expr]) -> st.SearchStrategy[m.Expr]:
    return st.one_of(
        st.builds(binop, st.sampled_from(["+", "-", "*"]), children, children),
        st.builds(lambda op, left, right: m.BinOp(
            op, left, m.BinOp("+", m.BinOp("*", right, right, P), m.IntLit(1, P), P), P),
                  st.sampled_from(["//", "%"]), children, children),
        children.map(lambda x: m.UnaryOp("-", x, P)),
    )


int_exprs = st.recursive(ints, _int_tree, max_leaves=12)


def _bool_tree(children: st.SearchStrategy[m.Expr]) -> st.SearchStrategy[m.Expr]:
    return st.one_of(
        st.builds(binop, st.sampled_from(["and", "or"]), children, children),
        children.map(lambda x: m.UnaryOp("not", x, P)),
    )


comparisons = st.builds(binop, st.sampled_from(["==", "!=", "<", "<=", ">", ">="]),
                        int_exprs, int_exprs)
memberships = st.builds(lambda op, left: m.BinOp(op, left, m.Name("xs", P), P),
                        st.sampled_from(["in", "not in"]), int_exprs)
bool_leaves = st.one_of(comparisons, memberships, st.just(m.Name("flag", P)),
                        st.booleans().map(lambda v: m.BoolLit(v, P)))
bool_exprs = st.recursive(bool_leaves, _bool_tree, max_leaves=6)
cond_exprs = st.builds(lambda c, t, o: m.IfExpr(c, t, o, P), bool_exprs, int_exprs, int_exprs)
any_int = st.one_of(int_exprs, cond_exprs,
                    st.builds(binop, st.sampled_from(["+", "*"]), cond_exprs, int_exprs))


def emit(e: m.Expr) -> str:
    emitter = Emitter(Context(SPEC, lambda n: n, lambda n: False))
    return emitter.expr(e, set(NAMES))


@settings(max_examples=400, deadline=None)
@given(any_int)
def test_integer_expressions_keep_their_meaning(e: m.Expr) -> None:
    code = emit(e)
    assert eval(code, {}, dict(NAMES)) == meaning(e), code


@settings(max_examples=400, deadline=None)
@given(bool_exprs)
def test_boolean_expressions_keep_their_meaning(e: m.Expr) -> None:
    code = emit(e)
    assert bool(eval(code, {}, dict(NAMES))) == bool(meaning(e)), code


def test_right_operand_of_subtraction_keeps_its_brackets() -> None:
    e = m.BinOp("-", m.Name("a", P), m.BinOp("-", m.Name("b", P), m.Name("c", P), P), P)
    assert emit(e) == "a - (b - c)"


def test_left_operand_of_subtraction_needs_no_brackets() -> None:
    e = m.BinOp("-", m.BinOp("-", m.Name("a", P), m.Name("b", P), P), m.Name("c", P), P)
    assert emit(e) == "a - b - c"


def test_not_of_a_comparison_is_bracketed_for_the_reader() -> None:
    e = m.UnaryOp("not", m.BinOp("==", m.Name("a", P), m.IntLit(7, P), P), P)
    assert emit(e) == "not (a == 7)"
