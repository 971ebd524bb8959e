"""Local variables during emission: SSA values per name, merged at structured joins.

A Var holds the variable's static type (its annotation or first assignment),
its current SSA value (possibly of a narrower, refined type), whether it is
assigned on every path, and — for variables live across a `try` — the
mutable slot (`var.new`) that stands in for SSA values.
"""

from __future__ import annotations

from ember.frontend import ast as A


class Var:
    __slots__ = ("type", "value", "defined", "slot", "declared", "span", "why")

    def __init__(self, type, value=None, defined=True, slot=None, declared=False, span=None,
                 why=None):
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

    def copy(self) -> "Var":
        return Var(self.type, self.value, self.defined, self.slot, self.declared, self.span,
                   self.why)


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


def slot_value(slot):
    """The var.new value of a slot (None if a pending slot was never created)."""
    return slot.value if isinstance(slot, PendingSlot) else slot


class Env:
    """name -> Var, copied for each branch of a structured op."""

    __slots__ = ("vars",)

    def __init__(self, vars=None):
        self.vars: dict[str, Var] = vars if vars is not None else {}

    def copy(self) -> "Env":
        return Env({k: v.copy() for k, v in self.vars.items()})

    def get(self, name: str) -> Var | None:
        return self.vars.get(name)

    def set(self, name: str, var: Var) -> None:
        self.vars[name] = var

    def names(self):
        return self.vars.keys()


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
        for field in ("body", "orelse", "finalbody"):
            stack.extend(reversed(getattr(s, field, None) or []))
        for h in getattr(s, "handlers", None) or []:
            if h.name:
                out.setdefault(h.name, None)
            stack.extend(reversed(h.body))
    return list(out)


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


def local_names(fn: A.FunctionDef) -> set[str]:
    """Python's rule: a name bound anywhere in a function body (assignment, for target,
    except-as, def, walrus) is local to the whole function; reading it before it is
    bound is an error, never a read of the global of that name."""
    out = set(a.arg for a in fn.args) | set(assigned_names(fn.body))
    stack = list(fn.body)
    while stack:
        n = stack.pop()
        if isinstance(n, (A.FunctionDef, A.Lambda, A.ClassDef)):
            continue
        if isinstance(n, A.NamedExpr) and isinstance(n.target, A.Name):
            out.add(n.target.id)
        stack.extend(A.children(n))
    return out


def names_read(node) -> set[str]:
    """Every Name loaded anywhere below node (including nested functions)."""
    return {n.id for n in A.walk(node) if isinstance(n, A.Name)}
