"""The checkout as the package `baloot`.

Each top-level folder is a subpackage of `baloot` (`grammar/` is `baloot.grammar`: the
mapping is `package-dir` in pyproject.toml), and the rooms import each other by relative
name (`from ..grammar import model`). This file marks the checkout's root as the package
those names climb to, so that a tool which resolves imports by path (an IDE, a type
checker, a drawing of the imports) follows them from a plain checkout. It is not
installed: `baloot` itself has no module of its own.
"""
