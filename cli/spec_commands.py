"""`baloot spec check | trace | show | render` and `baloot gen`: the spec's own subcommands.

From an installed package `gen` and `spec render` write only under `--out`
(`destinations.py`); in a checkout they write the project's files as before.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from rich.console import Console
from rich.table import Table

from ..backends.document.source import Sources
from ..backends.python import compiled_engine, generate
from ..backends.register import (
    REGISTER_FILE,
    default_register_folder,
    register_differences,
    register_text,
    write_register,
)
from ..grammar import model as m
from ..grammar.analysis import variants_used
from .destinations import REFUSED, refuse
from .options import add_spec_folder, load_spec
from .render_command import add_render_command
from .stored_files import report_differences


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    spec = subparsers.add_parser("spec", help="check, trace and show the rules spec")
    spec_commands = spec.add_subparsers(dest="spec_command", metavar="SUBCOMMAND", required=True)

    check = spec_commands.add_parser("check", help="parse and check the spec; exit 1 on errors")
    add_spec_folder(check)
    check.set_defaults(run=run_check)

    trace = spec_commands.add_parser("trace", help="each clause and the rules that cite it")
    add_spec_folder(trace)
    trace.set_defaults(run=run_trace)

    show = spec_commands.add_parser("show", help="one rule, its clauses and readings")
    show.add_argument("name", help="a rule, table, order, const, enum, record or variant")
    add_spec_folder(show)
    show.set_defaults(run=run_show)

    add_render_command(spec_commands)  # baloot spec render

    gen = subparsers.add_parser("gen", help="generate the reference engine from the spec")
    add_spec_folder(gen)
    gen.add_argument("--out", type=Path, default=None,
                     help="the folder to write, the spec register included (default: the "
                     "project's reference_impl/, and conformance/cases/ for the register)")
    gen.add_argument("--check", action="store_true",
                     help="write nothing; exit 1 if the checked-in code differs from the spec's")
    gen.add_argument("--compiled", type=Path, default=None, metavar="DIR",
                     help="build the engine compiled with mypyc into DIR, to put first on "
                     "PYTHONPATH (needs the [compiled] extra and a C compiler)")
    gen.set_defaults(run=run_gen)


def run_check(args: argparse.Namespace) -> int:
    spec = load_spec(args)
    if spec is None:
        return 1
    print(f"spec ok: {len(spec.files)} files, {len(spec.clauses)} clauses, "
          f"{len(spec.rules)} rules, "
          f"{len(spec.tables)} tables, {len(spec.orders)} orders, {len(spec.variants)} variants, "
          f"{len(spec.profiles)} profiles")
    return 0


def declaration_kind(decl: m.Cited) -> str:
    return type(decl).__name__.lower()


def run_trace(args: argparse.Namespace) -> int:
    spec = load_spec(args, coverage=False)  # uncovered clauses are reported in the table
    if spec is None:
        return 1
    console = Console()
    table = Table(title="Clauses and the rules that cover them")
    table.add_column("clause", no_wrap=True)
    table.add_column("rules")
    table.add_column("variants")
    uncovered = []
    for clause in spec.clauses:
        citing = spec.citing(clause.id)
        rules = [f"{declaration_kind(d)} {d.name}" for d in citing if not isinstance(d, m.Variant)]
        variants = [f"{d.id} {d.name}" for d in citing if isinstance(d, m.Variant)]
        if not rules:
            uncovered.append(clause.id)
        table.add_row(clause.id, ", ".join(rules) or "[red]none[/red]", ", ".join(variants))
    console.print(table)
    covered = len(spec.clauses) - len(uncovered)
    console.print(f"{covered} of {len(spec.clauses)} clauses covered; "
                  f"uncovered: {', '.join(uncovered) or 'none'}")
    return 1 if uncovered else 0


def run_show(args: argparse.Namespace) -> int:
    spec = load_spec(args)
    if spec is None:
        return 1
    found = [d for d in spec.cited() if args.name in (d.name, getattr(d, "id", None))]
    scoped = [(scope, item) for scope in spec.scopes for item in scope.items
              if args.name == item.name]
    for _, item in scoped:
        print(describe_scope_item(item))
    if scoped and not found:
        return 0
    if not found:
        print(f"baloot spec show: no rule, table, order, const, enum, record, variant or "
              f"part of the scope named '{args.name}'", file=sys.stderr)
        return 1
    for decl in found:
        print(describe(spec, decl))
    return 0


def describe_scope_item(item: m.ScopeItem) -> str:
    """A part of the stated scope in plain text: checked, or left to the table or app."""
    what = "checked by the suite" if item.kind == "checks" else "left to the table or the app"
    lines = [f"scope {item.name}: {what}  ({item.pos})", f"  {item.text}"]
    if item.protocol is not None:
        lines.append(f"  the protocol: {item.protocol}")
    return "\n".join(lines)


def describe(spec: m.Spec, decl: m.Cited) -> str:
    """A declaration in plain text: what it is, its clauses, its variants and readings."""
    lines = [f"{declaration_kind(decl)} {decl.name}  ({decl.pos})"]
    if decl.doc:
        lines.append(f"  {decl.doc}")
    lines.append("  clauses:")
    for cite in decl.cites:
        lines.append(f"    {cite.clause}  {spec.clause(cite.clause).text}")
    if isinstance(decl, m.Variant):
        lines.append(f"  ambiguity {decl.id}; readings:")
        for reading in decl.readings:
            mark = " (default)" if reading.name == decl.default else ""
            picked = [p.name for p in spec.profiles if p.readings().get(decl.name) == reading.name]
            lines.append(f"    {reading.name}{mark}: {reading.text}")
            lines.append(f"      source: {reading.source}")
            lines.append(f"      profiles: {', '.join(picked) or 'none'}")
        for profile in spec.profiles:
            pick = profile.pick_of(decl.name)
            if pick is None or not pick.annotated:
                continue
            lines.append(f"  profile {profile.name} reads it as {pick.reading}: "
                         f"{pick.status or 'no evidence status'}")
            lines.extend(f"    for: {source}" for source in pick.sources)
            for against in pick.against:
                lines.append(f"    against ({against.reading or 'no reading yet'}): "
                             f"{against.source}")
            if pick.unsourced is not None:
                lines.append(f"    no source: {pick.unsourced}")
            if pick.settled is not None:
                lines.append(f"    where they disagree: {pick.settled}")
    elif isinstance(decl, m.Rule):
        used = variants_used(decl.body)
        for name in used:
            variant = spec.variant(name)
            lines.append(f"  depends on {variant.id} {variant.name}: "
                         f"{', '.join(variant.reading_names)}")
    text = Sources(spec).declaration_text(decl.pos)
    if text is not None:
        lines.append("  spec text:")
        lines.extend("    " + line for line in text.splitlines())
    return "\n".join(lines)


def run_gen(args: argparse.Namespace) -> int:
    if args.compiled is not None:
        return _run_compiled_build(args)
    out_dir = args.out or generate.default_out_dir()
    register = (args.out or default_register_folder()) / REGISTER_FILE
    if not args.check and refuse("gen", [out_dir, register],
                                 "pass --out DIR to write the engine and its register there"):
        return REFUSED
    spec = load_spec(args)
    if spec is None:
        return 1
    files = generate.generate(spec)
    if args.check:
        report = generate.differences(out_dir, files)
        report += register_differences(register, register_text(spec))
        return report_differences(
            report, f"baloot gen --check: {len(report)} generated file(s) out of date in "
            f"{out_dir} and {register}; run `baloot gen`",
            f"generated code up to date: {len(files)} files in {out_dir}, and {register}")
    changed = generate.write(out_dir, files)
    names = ", ".join(changed) or "none"
    print(f"wrote {len(changed)} of {len(files)} files in {out_dir}: {names}")
    if write_register(register, register_text(spec)):
        print(f"wrote {register}")
    return 0


def _run_compiled_build(args: argparse.Namespace) -> int:
    """`baloot gen --compiled DIR`: the engine compiled with mypyc, in DIR."""
    if args.check or args.out is not None:
        print("baloot gen: --compiled DIR builds into DIR; it takes neither --check nor --out",
              file=sys.stderr)
        return 2
    spec = load_spec(args)
    if spec is None:
        return 1
    try:
        built = compiled_engine.build(spec, args.compiled)
    except compiled_engine.CompiledBuildError as exc:
        print(f"baloot gen --compiled: {exc}", file=sys.stderr)
        return 1
    print(f"compiled engine {built.digest}: {len(built.modules)} modules compiled in "
          f"{built.folder}; use it with PYTHONPATH={built.folder}")
    return 0
