"""Delta debugging of a failing program: drop cases, functions and statements, hoist
bodies out of compound statements and replace expressions by their parts or by small
constants, for as long as the failure keeps its signature.

`still_fails(tree, cases) -> bool` decides; every candidate is a fresh copy of the
tree, so a rejected edit leaves nothing behind. The fuel of while loops and the
`depth` guard of recursive functions are never touched (programs must terminate).
"""

from __future__ import annotations

import ast
import copy
import time
import warnings

STMT_LISTS = ("body", "orelse", "finalbody")
SMALL = (0, 1, -1, 0.0, 1.5, "", "a", True, False, None)


def protected(node) -> bool:
    """Loop fuel and recursion guards: the shrinker never edits what mentions them."""
    return any(isinstance(n, ast.Name) and (n.id.startswith("fuel") or n.id == "depth")
               for n in ast.walk(node))


class Shrinker:
    def __init__(self, still_fails, max_checks: int = 600, max_seconds: float = 120.0):
        self.still_fails = still_fails
        self.checks_left = max_checks
        self.deadline = time.monotonic() + max_seconds

    def out_of_budget(self) -> bool:
        return self.checks_left <= 0 or time.monotonic() > self.deadline

    def try_(self, tree, cases) -> bool:
        if self.out_of_budget():
            return False
        self.checks_left -= 1
        ast.fix_missing_locations(tree)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", SyntaxWarning)
                compile(tree, "<shrink>", "exec")
        except (SyntaxError, ValueError, TypeError):
            return False
        return bool(self.still_fails(tree, cases))

    def run(self, tree, cases):
        """The smallest (tree, cases) found that still fails."""
        tree = copy.deepcopy(tree)
        cases = list(cases)
        progress = True
        while progress and not self.out_of_budget():
            progress = False
            for step in (self.cases, self.functions, self.statements, self.hoist,
                         self.expressions):
                new = step(tree, cases)
                if new is not None:
                    tree, cases = new
                    progress = True
        return tree, cases

    # -- steps: each returns a smaller (tree, cases) or None ---------------------------------
    def cases(self, tree, cases):
        for i in range(len(cases)):
            if len(cases) > 1 and self.try_(copy.deepcopy(tree), cases[:i] + cases[i + 1:]):
                return tree, cases[:i] + cases[i + 1:]
        return None

    def functions(self, tree, cases):
        used = {e for e, _ in cases}
        for i, f in enumerate(tree.body):
            if isinstance(f, ast.FunctionDef) and f.name not in used:
                cand = copy.deepcopy(tree)
                del cand.body[i]
                if self.try_(cand, cases):
                    return cand, cases
        return None

    def statements(self, tree, cases):
        """Delete runs of statements, long runs first (ddmin-style)."""
        for path, n in _stmt_lists(tree):
            size = n
            while size >= 1:
                for start in range(0, n, size):
                    cand = copy.deepcopy(tree)
                    lst = _get(cand, path)
                    chunk = lst[start:start + size]
                    if not chunk or any(protected(s) for s in chunk):
                        continue
                    if isinstance(chunk[-1], ast.Return) and _is_function_body(cand, path):
                        continue
                    del lst[start:start + size]
                    if not lst:
                        lst.append(ast.Pass())
                    if self.try_(cand, cases):
                        return cand, cases
                size //= 2
        return None

    def hoist(self, tree, cases):
        """Replace a compound statement by one of its statement lists."""
        for path, n in _stmt_lists(tree):
            for i in range(n):
                node = _get(tree, path)[i]
                if not isinstance(node, (ast.If, ast.For, ast.While, ast.Try)) or \
                        isinstance(node, (ast.If, ast.While)) and protected(node.test):
                    continue
                for field in STMT_LISTS + ("handlers",):
                    for k in range(len(getattr(node, field, []))) if field == "handlers" \
                            else [None]:
                        cand = copy.deepcopy(tree)
                        lst = _get(cand, path)
                        src = getattr(lst[i], field, None)
                        body = src[k].body if k is not None else src
                        if not body:
                            continue
                        lst[i:i + 1] = body
                        if self.try_(cand, cases):
                            return cand, cases
        return None

    def expressions(self, tree, cases):
        """Replace an expression by one of its sub-expressions or a small constant."""
        for path in _expr_paths(tree):
            node = _get(tree, path)
            if protected(node):
                continue
            options = [c for c in ast.iter_child_nodes(node) if isinstance(c, ast.expr)]
            options += [ast.Constant(v) for v in SMALL
                        if not (isinstance(node, ast.Constant) and node.value == v)]
            for opt in options:
                cand = copy.deepcopy(tree)
                _set(cand, path, copy.deepcopy(opt))
                if self.try_(cand, cases):
                    return cand, cases
        return None


# ----------------------------------------------------------------------------- paths


def _get(tree, path):
    node = tree
    for field, i in path:
        node = getattr(node, field)
        if i is not None:
            node = node[i]
    return node


def _set(tree, path, value):
    parent = _get(tree, path[:-1])
    field, i = path[-1]
    if i is None:
        setattr(parent, field, value)
    else:
        getattr(parent, field)[i] = value


def _children(node, path):
    for field, value in ast.iter_fields(node):
        if isinstance(value, list):
            for i, v in enumerate(value):
                if isinstance(v, ast.AST):
                    yield v, path + ((field, i),)
        elif isinstance(value, ast.AST):
            yield value, path + ((field, None),)


def _walk(node, path=()):
    """Every node and its path, skipping annotations (types are not shrunk)."""
    yield node, path
    for child, p in _children(node, path):
        if p[-1][0] not in ("annotation", "returns"):
            yield from _walk(child, p)


def _stmt_lists(tree):
    """(path of a statement list, its length), outermost first."""
    out = []
    for node, path in _walk(tree):
        if isinstance(node, ast.Module):
            continue
        for field in STMT_LISTS:
            lst = getattr(node, field, None)
            if isinstance(lst, list) and lst and isinstance(lst[0], ast.stmt):
                out.append((path + ((field, None),), len(lst)))
    return out


def _expr_paths(tree):
    """Paths of expressions worth replacing (not annotations, not store targets, nothing
    inside a statement that steps loop fuel), outermost first."""
    out = []
    guarded = set()
    for node, path in _walk(tree):
        if isinstance(node, (ast.AugAssign, ast.Assign)) and protected(node):
            guarded.add(path)
        if isinstance(node, ast.expr) and path and not _skip(path, node) and \
                not any(path[:i] in guarded for i in range(len(path))):
            out.append(path)
    return out


def _skip(path, node) -> bool:
    field = path[-1][0]
    if field in ("annotation", "returns", "target", "targets", "func", "type"):
        return True
    return isinstance(getattr(node, "ctx", None), (ast.Store, ast.Del)) or \
        isinstance(node, ast.Constant) and node.value in (0, "")


def _is_function_body(tree, path) -> bool:
    return len(path) == 2 and path[-1][0] == "body"
