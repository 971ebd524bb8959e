"""Local variables during emission: SSA values per name, merged at structured joins.

A Var holds the variable's static type (its annotation or first assignment),
its current SSA value (possibly of a narrower, refined type), whether it is
assigned on every path, and — for variables live across a `try` — the
mutable slot (`var.new`) that stands in for SSA values.
"""

from __future__ import annotations

from ember.frontend import ast as A


class Var:
    __slots__ = ("type", "value", "defined", "slot", "declared", "span", "why", "narrowed",
                 "frame", "bound")

    def __init__(self, type, value=None, defined=True, slot=None, declared=False, span=None,
                 why=None, narrowed=None, frame=None, bound=None):
        self.type = type
        """Static type: every value assigned must be a subtype."""
        self.value = value
        """Current SSA value (None when undefined or slot-backed)."""
        self.defined = defined
        """Assigned on every path reaching this point."""
        self.slot = slot
        """The var.new value when the variable lives in a mutable slot."""
        self.declared = declared
        """The type came from an annotation."""
        self.span = span
        """Where the variable was first assigned (for messages)."""
        self.why = why
        """Why the variable is undefined here, when there is more to say than 'maybe'."""
        self.narrowed = narrowed
        """A slot-backed variable's value refined by a condition (`x is not None`), read
        instead of the slot until the variable is assigned or a loop or try begins."""
        self.frame = frame
        """The block the variable was bound in, when an assignment there may give it a new
        type (TorchScript's rule: a name not bound in an enclosing block may be rebound to
        a value of another type); None when its type is fixed (annotated locals, slots)."""
        self.bound = bound
        """For a slot variable first assigned in a loop and read after it (Python keeps loop
        variables): the var.new of a bool slot set at each assignment; a read checks it at
        run time (UnboundLocalError when the loop never assigned the variable)."""

    def copy(self) -> "Var":
        return Var(self.type, self.value, self.defined, self.slot, self.declared, self.span,
                   self.why, self.narrowed, self.frame, self.bound)


class PendingSlot:
    """The slot of a variable first assigned inside a try statement.

    Its `var.new` is created at the first assignment (when the type is known),
    in the block that holds the try op, so it dominates the whole statement.
    Branch environments share this object, so they share the slot.
    """

    __slots__ = ("block", "value")

    def __init__(self, block):
        self.block = block
        self.value = None


def ir_names(names):
    """Value names for the IR: hidden helper variables ('$i3') stay unnamed."""
    return [None if n is None or n.startswith("$") else n for n in names]


def slot_value(slot):
    """The var.new value of a slot (None if a pending slot was never created)."""
    return slot.value if isinstance(slot, PendingSlot) else slot


class Env:
    """name -> Var, copied for each branch of a structured op.

    Copy-on-write: a copy shares the Var objects; `mut(name)` gives a Var this
    env may change (copying a shared one first). Read with `get`, never change
    what `get` returns.
    """

    __slots__ = ("vars", "own")

    def __init__(self, vars=None):
        self.vars: dict[str, Var] = vars if vars is not None else {}
        self.own: set[str] = set(self.vars)
        """Names whose Var objects only this env holds."""

    def copy(self) -> "Env":
        child = Env(dict(self.vars))
        child.own = set()
        self.own = set()  # the Vars are shared with the copy now
        return child

    def get(self, name: str) -> Var | None:
        return self.vars.get(name)

    def mut(self, name: str) -> Var | None:
        """The variable's Var, private to this env (to change it)."""
        var = self.vars.get(name)
        if var is not None and name not in self.own:
            var = self.vars[name] = var.copy()
            self.own.add(name)
        return var

    def set(self, name: str, var: Var) -> None:
        self.vars[name] = var
        self.own.add(name)

    def pop(self, name: str):
        self.own.discard(name)
        return self.vars.pop(name, None)

    def names(self):
        return self.vars.keys()


def defined_in(value, block) -> bool:
    """Is value defined in block or in a region nested in it (then code outside block,
    e.g. a sibling region, cannot read it)?"""
    blk = value.op.parent if hasattr(value, "op") else getattr(value, "block", None)
    while blk is not None:
        if blk is block:
            return True
        op = blk.parent.parent if blk.parent is not None else None
        blk = op.parent if op is not None else None
    return False


def changed_names(envs, before: Env) -> set[str]:
    """Names some env rebound, changed or dropped since it was copied from `before`.

    Copy-on-write shares the Var of every name an env leaves alone, so identity tells
    the changed ones apart. (`own` cannot: copying an env for a nested branch clears it.)
    """
    out: set[str] = set()
    old = before.vars
    for e in envs:
        out.update(n for n, var in e.vars.items() if old.get(n) is not var)
        out.update(old.keys() - e.vars.keys())
    return out


# ----------------------------------------------------------------------------- syntax helpers


def assigned_names(stmts) -> list[str]:
    """Names a statement list may bind (in order, once each), not looking into nested
    functions, lambdas, classes or comprehensions (their names are their own)."""
    out: dict[str, None] = {}
    stack = list(reversed(stmts))
    while stack:
        s = stack.pop()
        for target in _targets(s):
            for name in target_names(target):
                out.setdefault(name, None)
        if isinstance(s, A.FunctionDef):
            out.setdefault(s.name, None)
            continue
        if isinstance(s, A.ClassDef):
            continue
        if isinstance(s, A.MatchCase):
            from ember.frontend.patterns import capture_names
            for name in capture_names(s):
                out.setdefault(name, None)
        if _may_bind_walrus(s):
            for name in walrus_names(s):
                out.setdefault(name, None)
        for field in ("body", "orelse", "finalbody"):
            stack.extend(reversed(getattr(s, field, None) or []))
        for h in getattr(s, "handlers", None) or []:
            if h.name:
                out.setdefault(h.name, None)
            stack.extend(reversed(h.body))
    return list(out)


def _may_bind_walrus(s) -> bool:
    """False when the text of s's source has no ':=' (no need to walk its expressions)."""
    src = getattr(s.span, "source", None)
    return src is None or ":=" in src.text


def walrus_names(s) -> list[str]:
    """The names the expressions of statement s (not its nested statements, lambdas,
    functions or classes) bind with `:=` (a comprehension's bind in the function)."""
    out = []
    stack = [c for c in children(s) if not isinstance(c, _STMT_NODES)]
    while stack:
        n = stack.pop()
        if isinstance(n, (A.Lambda, A.FunctionDef, A.ClassDef)) or isinstance(n, _STMT_NODES):
            continue
        if isinstance(n, A.NamedExpr) and isinstance(n.target, A.Name):
            out.append(n.target.id)
        stack.extend(children(n))
    return out


def binding_counts(stmts) -> dict[str, int]:
    """How many statements bind each name (a name bound once, at a def or by a single
    assignment of a lambda, can stay a compile-time function)."""
    out: dict[str, int] = {}
    stack = list(stmts)
    while stack:
        s = stack.pop()
        for target in _targets(s):
            for name in target_names(target):
                out[name] = out.get(name, 0) + 1
        if isinstance(s, A.FunctionDef):
            out[s.name] = out.get(s.name, 0) + 1
            continue
        if isinstance(s, A.ClassDef):
            continue
        for field in ("body", "orelse", "finalbody"):
            stack.extend(getattr(s, field, None) or [])
        for h in getattr(s, "handlers", None) or []:
            if h.name:
                out[h.name] = out.get(h.name, 0) + 1
            stack.extend(h.body)
    return out


_STMT_NODES = (A.FunctionDef, A.ClassDef, A.Return, A.Assign, A.AugAssign, A.AnnAssign, A.For,
               A.While, A.If, A.With, A.Raise, A.Try, A.Assert, A.Delete, A.Pass, A.Break,
               A.Continue, A.Expr, A.Import, A.ImportFrom, A.Global, A.Nonlocal,
               A.ExceptHandler, A.Match, A.MatchCase)


def _targets(s):
    if isinstance(s, A.Assign):
        return s.targets
    if isinstance(s, (A.AugAssign, A.AnnAssign)):
        return [s.target] if (s.value is not None or isinstance(s, A.AugAssign)) else []
    if isinstance(s, A.For):
        return [s.target]
    if isinstance(s, A.With):
        return [t for _, t in s.items if t is not None]
    return []


def target_names(t) -> list[str]:
    if isinstance(t, A.Name):
        return [t.id]
    if isinstance(t, (A.Tuple, A.List)):
        return [n for e in t.elts for n in target_names(e)]
    if isinstance(t, A.Starred):
        return target_names(t.value)
    return []


_FIELDS: dict[type, tuple[str, ...]] = {}
_NOT_CHILDREN = ("span", "kw_span", "name_span", "op_spans")


def children(node):
    """The direct child nodes of node (ast.children, with the field list cached per class)."""
    cls = type(node)
    names = _FIELDS.get(cls)
    if names is None:
        from dataclasses import fields
        names = _FIELDS[cls] = tuple(f.name for f in fields(cls)
                                     if f.name not in _NOT_CHILDREN)
    out = []
    for name in names:
        v = getattr(node, name)
        if isinstance(v, A.Node):
            out.append(v)
        elif isinstance(v, list):
            for x in v:
                if isinstance(x, A.Node):
                    out.append(x)
                elif isinstance(x, tuple):
                    out.extend(y for y in x if isinstance(y, A.Node))
    return out


def walk(node):
    """node and every node below it, pre-order (ast.walk, faster)."""
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        kids = children(n)
        kids.reverse()
        stack.extend(kids)


def _may_have_walrus(fn: A.FunctionDef) -> bool:
    """False when the function's source text has no ':=' (no need to walk every node)."""
    span = fn.span
    src = getattr(span, "source", None)
    if src is None:
        return True
    lines = src.text.splitlines()[span.line - src.first_line:span.end_line - src.first_line + 1]
    return any(":=" in line for line in lines)


def local_names(fn: A.FunctionDef) -> set[str]:
    """Python's rule: a name bound anywhere in a function body (assignment, for target,
    except-as, def, walrus) is local to the whole function; reading it before it is
    bound is an error, never a read of the global of that name."""
    out = set(a.arg for a in fn.args) | set(assigned_names(fn.body))
    if not _may_have_walrus(fn):
        return out
    stack = list(fn.body)
    while stack:
        n = stack.pop()
        if isinstance(n, (A.FunctionDef, A.Lambda, A.ClassDef)):
            continue
        if isinstance(n, A.NamedExpr) and isinstance(n.target, A.Name):
            out.add(n.target.id)
        stack.extend(children(n))
    return out


def names_read(node) -> set[str]:
    """Every Name loaded anywhere below node (including nested functions)."""
    return {n.id for n in walk(node) if isinstance(n, A.Name)}


def nonlocal_names(body, deep: bool) -> set[str]:
    """Names declared `nonlocal` in a function body (not in its nested functions), or
    with deep=True, in the functions nested in it (not in the body itself)."""
    out: set[str] = set()
    stack = [(s, False) for s in body]
    while stack:
        s, inner = stack.pop()
        if isinstance(s, A.Nonlocal) and inner == deep:
            out.update(s.names)
        if isinstance(s, A.FunctionDef):
            if inner:
                continue  # a deeper function's nonlocals are its parent's business
            stack.extend((x, True) for x in s.body)
            continue
        if isinstance(s, (A.ClassDef, A.Lambda)):
            continue
        for field in ("body", "orelse", "finalbody"):
            stack.extend((x, inner) for x in getattr(s, field, None) or [])
        for h in getattr(s, "handlers", None) or []:
            stack.extend((x, inner) for x in h.body)
    return out


def box_name(name: str) -> str:
    """The hidden variable holding the one-item list of a variable shared by `nonlocal`."""
    return f"$box.{name}"
