"""Module-level variables that functions assign (`global X; X += 1`), in a CompilationUnit.

Python keeps a module's globals in one namespace every function reads and writes. ember
keeps each such variable (a module-level literal constant some function declares `global`
and assigns) as a field of one hidden constant object of the program (the way a scripted
module's attributes live in its object): every function reads the field where it reads the
name, and a function that declares it `global` writes the field. The object is made when
the program is loaded, with the constants' values, so a saved program starts from them
again; in one loaded program the values persist from call to call, as a module's globals
do. Other module-level names stay compile-time constants.
"""

from __future__ import annotations

from ember.frontend import ast as A
from ember.frontend.env import assigned_names
from ember.ir import SymbolRef
from ember.ir import types as T
from ember.ir.module import ClassDecl

CLASS = "$globals"
_TYPES = {bool: T.BOOL, int: T.I64, float: T.F64, str: T.STR, complex: T.C128}


def declared_global(fn: A.FunctionDef) -> set[str]:
    """The names fn's own body declares `global` (not its nested functions')."""
    out: set[str] = set()
    stack = list(fn.body)
    while stack:
        s = stack.pop()
        if isinstance(s, A.Global):
            out.update(s.names)
        if isinstance(s, (A.FunctionDef, A.ClassDef)):
            continue
        for field in ("body", "orelse", "finalbody"):
            stack.extend(getattr(s, field, None) or [])
        for h in getattr(s, "handlers", None) or []:
            stack.extend(h.body)
    return out


def _functions(tree):
    stack = list(tree.body)
    while stack:
        n = stack.pop()
        if isinstance(n, A.FunctionDef):
            yield n
            stack.extend(n.body)
        elif isinstance(n, A.ClassDef):
            stack.extend(n.body)
        else:
            for field in ("body", "orelse", "finalbody"):
                stack.extend(getattr(n, field, None) or [])


def declare_mutable_globals(c, tree, table) -> None:
    """Find the module-level constants some function assigns under `global` and give each a
    field of the hidden globals object (c.mutable_globals: name -> field type)."""
    from ember.frontend.meta import MConst
    found: dict = {}
    for fn in _functions(tree):
        names = declared_global(fn)
        if not names:
            continue
        assigned = set(assigned_names(fn.body))
        for n in sorted(names & assigned):
            meta = table.get(n)
            if isinstance(meta, MConst) and type(meta.value) in _TYPES:
                found.setdefault(n, meta.value)
    c.mutable_globals = {n: _TYPES[type(v)] for n, v in found.items()}
    if not found:
        return
    c.module.add_class(ClassDecl(CLASS, [(n, _TYPES[type(v)]) for n, v in found.items()]))
    c.module.add_object(f"{CLASS}.obj", CLASS, list(found.values()))


def _object(em, span):
    return em.b.const(SymbolRef(f"{CLASS}.obj"), T.ClassType(CLASS), em.loc(span))


def read_global(em, name, span):
    t = em.c.mutable_globals[name]
    obj = _object(em, span)
    return em.b.create("obj.get", [obj], [t], {"field": name}, loc=em.loc(span)).result


def write_global(em, name, value, span) -> None:
    t = em.c.mutable_globals[name]
    value = em.coerce(value, t, span, what=f"module-level variable '{name}'")
    obj = _object(em, span)
    em.b.create("obj.set", [obj, value], attrs={"field": name}, loc=em.loc(span))
