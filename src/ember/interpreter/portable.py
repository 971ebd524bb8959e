"""Source names as an artifact keeps them: no absolute path of the machine that built it.

A source read from a file is named by its path relative to the nearest directory that
imports it (the longest entry of sys.path, or the working directory, that holds it), as
Python names a module by its place under sys.path: `ember/nn/functional.py`,
`my_project/model.py`. A file under none of them keeps its base name; names that are not
absolute paths (`<string>`, a name given to a CompilationUnit) are kept as they are.
Names that would collide keep as many more parent folders as they need to differ.
"""

from __future__ import annotations

import os
import sys


def portable_names(names: list[str]) -> list[str]:
    """The artifact's name for each of names (distinct names stay distinct)."""
    out = [_relative(n) for n in names]
    taken: dict = {}
    for i, name in enumerate(out):
        taken.setdefault(name, []).append(i)
    for name, users in taken.items():
        if len(users) > 1 and len({names[i] for i in users}) > 1:
            for i in users:
                out[i] = _longer(names[i], name, {names[j] for j in users} - {names[i]})
    return out


def _relative(name: str) -> str:
    if not os.path.isabs(name):
        return name
    path = os.path.normpath(name)
    best = None
    for base in _bases():
        if path.startswith(base + os.sep):
            rel = path[len(base) + 1:]
            if best is None or len(rel) < len(best):
                best = rel
    return (best or os.path.basename(path)).replace(os.sep, "/")


def _bases() -> list[str]:
    out = []
    for p in [*sys.path, os.getcwd()]:
        p = os.path.abspath(p or os.curdir)
        if p != os.sep and os.path.isdir(p):
            out.append(os.path.normpath(p))
    return out


def _longer(name: str, short: str, others: set) -> str:
    """short with parent folders of name put in front until no other name ends so."""
    parts = os.path.normpath(name).split(os.sep)
    n = short.count("/") + 1
    while n < len(parts):
        n += 1
        tail = "/".join(parts[-n:])
        if not any(os.path.normpath(o).replace(os.sep, "/").endswith("/" + tail)
                   for o in others):
            return tail
    return "/".join(p for p in parts if p)
