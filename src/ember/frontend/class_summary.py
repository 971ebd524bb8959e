"""What module_source.ClassSource reads from a class body, as plain data kept in the disk
cache (diskcache.py) under a digest of the class's text: a fresh process then reads a
layer class without parsing it with CPython's `ast` and walking its methods.

    {"head": [line, col, end line, end col],           the class statement
     "defs": {name: def}, "overloads": {name: [def, ...]},
     "assigned": [attribute, ...],                      `self.x = ...` outside __init__
     "annotations": [[attribute, builtin name or null, text or null, line, col], ...],
     "constants": [[name, value], ...]}                 tuples as lists

A def is [line, first line (its first decorator's), end line, column, [decorator, ...]].
Lines are the class text's (1-based), columns CPython's (0-based).
"""

from __future__ import annotations

import ast as pyast

from ember.frontend import diskcache
from ember.frontend.compiler import dotted_name

KIND = "class"
FORMAT = "class-summary-1"
_BUILTIN_NAMES = ("int", "float", "bool", "str")


def load(text: str):
    """The summary kept for a class text, or None (none, or not well formed)."""
    data = diskcache.load(KIND, diskcache.digest(FORMAT, text))
    try:
        return data if _well_formed(data) else None
    except (TypeError, ValueError, KeyError, IndexError, RecursionError):
        return None


def store(text: str, summary: dict) -> None:
    diskcache.store(KIND, diskcache.digest(FORMAT, text), summary)


def summarize(tree: pyast.ClassDef, text: str, overload_decorator) -> dict:
    """The summary of class statement `tree` parsed from `text`; overload_decorator(name)
    tells the decorators that declare an overload."""
    defs, overloads = {}, {}
    for n in tree.body:
        if isinstance(n, pyast.FunctionDef):
            d = _def(n)
            defs[n.name] = d
            if any(overload_decorator(name) for name in d[4]):
                overloads.setdefault(n.name, []).append(d)
    return {"head": [tree.lineno, tree.col_offset, tree.end_lineno or tree.lineno,
                     tree.end_col_offset or 0],
            "defs": defs, "overloads": overloads,
            "assigned": sorted(_assigned(tree)),
            "annotations": _annotations(tree, text.splitlines()),
            "constants": [[k, _plain(v)] for k, v in _constants(tree).items()]}


def constants(summary: dict) -> dict:
    return {name: _tuples(v) for name, v in summary["constants"]}


# ----------------------------------------------------------------------------- the scans


def _def(n: pyast.FunctionDef) -> list:
    first = min([n.lineno] + [x.lineno for x in n.decorator_list])
    decorators = [dotted_name(d.func if isinstance(d, pyast.Call) else d, pyast.Attribute,
                              pyast.Name) for d in n.decorator_list]
    return [n.lineno, first, n.end_lineno or n.lineno, n.col_offset, decorators]


def _methods(tree):
    return [n for n in tree.body if isinstance(n, pyast.FunctionDef)]


def _assigned(tree) -> set:
    """`self.x` targets assigned (=, +=, x: T =) in methods other than __init__."""
    out = set()
    for d in {n.name: n for n in _methods(tree)}.values():
        if d.name == "__init__" or not d.args.args:
            continue
        me = d.args.args[0].arg
        for n in pyast.walk(d):
            for t in _targets(n):
                if isinstance(t, pyast.Attribute) and isinstance(t.value, pyast.Name) \
                        and t.value.id == me:
                    out.add(t.attr)
    return out


def _targets(n):
    if isinstance(n, pyast.Assign):
        return n.targets
    if isinstance(n, (pyast.AugAssign, pyast.AnnAssign)):
        return [n.target]
    return []


def _annotations(tree, lines: list) -> list:
    """`x: T` in the class body and `self.x: T = ...` in __init__ (one-line annotations)."""
    found = [(s.target.id, s.annotation) for s in tree.body
             if isinstance(s, pyast.AnnAssign) and isinstance(s.target, pyast.Name)]
    init = {n.name: n for n in _methods(tree)}.get("__init__")
    if init is not None and init.args.args:
        me = init.args.args[0].arg
        found += [(n.target.attr, n.annotation) for n in pyast.walk(init)
                  if isinstance(n, pyast.AnnAssign) and isinstance(n.target, pyast.Attribute)
                  and isinstance(n.target.value, pyast.Name) and n.target.value.id == me]
    out = []
    for name, ann in found:
        if isinstance(ann, pyast.Name) and ann.id in _BUILTIN_NAMES:
            out.append([name, ann.id, None, ann.lineno, ann.col_offset])
        elif ann.lineno == ann.end_lineno:
            text = lines[ann.lineno - 1][ann.col_offset:ann.end_col_offset]
            out.append([name, None, text, ann.lineno, ann.col_offset])
    return out


def _constants(tree) -> dict:
    """Literal constants of the class body: `K = 3`, `K: Final[int] = 3`."""
    out = {}
    for s in tree.body:
        if isinstance(s, pyast.Assign) and len(s.targets) == 1 and \
                isinstance(s.targets[0], pyast.Name):
            name, value = s.targets[0].id, s.value
        elif isinstance(s, pyast.AnnAssign) and isinstance(s.target, pyast.Name) and \
                s.value is not None and "Final" in (pyast.unparse(s.annotation) or ""):
            name, value = s.target.id, s.value
        else:
            continue
        try:
            v = pyast.literal_eval(value)
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            continue
        if _is_literal(v):
            out[name] = v
    return out


def _is_literal(v) -> bool:
    if v is None or isinstance(v, (bool, int, float, str)):
        return not isinstance(v, int) or -(1 << 63) <= v < (1 << 63)
    return isinstance(v, tuple) and all(_is_literal(x) for x in v)


def _plain(v):
    return [_plain(x) for x in v] if isinstance(v, tuple) else v


def _tuples(v):
    return tuple(_tuples(x) for x in v) if isinstance(v, list) else v


# ----------------------------------------------------------------------------- checking


def _well_formed(d) -> bool:
    return (type(d) is dict and _ints(d["head"], 4) and type(d["defs"]) is dict
            and all(type(k) is str and _is_def(v) for k, v in d["defs"].items())
            and type(d["overloads"]) is dict
            and all(type(k) is str and type(v) is list and all(map(_is_def, v))
                    for k, v in d["overloads"].items())
            and _strs(d["assigned"]) and type(d["annotations"]) is list
            and all(map(_is_annotation, d["annotations"]))
            and type(d["constants"]) is list
            and all(type(c) is list and len(c) == 2 and type(c[0]) is str and
                    _is_literal(_tuples(c[1])) for c in d["constants"]))


def _ints(v, n: int) -> bool:
    return type(v) is list and len(v) == n and all(type(x) is int for x in v)


def _strs(v) -> bool:
    return type(v) is list and all(type(x) is str for x in v)


def _is_def(v) -> bool:
    return type(v) is list and len(v) == 5 and _ints(v[:4], 4) and _strs(v[4])


def _is_annotation(v) -> bool:
    return (type(v) is list and len(v) == 5 and type(v[0]) is str
            and (v[1] in _BUILTIN_NAMES or (v[1] is None and type(v[2]) is str))
            and type(v[3]) is int and type(v[4]) is int)
