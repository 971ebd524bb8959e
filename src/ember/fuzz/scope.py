"""Generation state: variables in scope, the functions a body may call, loop and try
nesting, and fresh names.

A Var is `mutable` if statements may assign or mutate it. Parameters are never
reassigned, so nested defs and lambdas may capture them (ember captures by value and
rejects captures of reassigned variables). Loop and comprehension variables are
read-only and visible only inside their loop.
"""

from __future__ import annotations

import ast
from contextlib import contextmanager
from dataclasses import dataclass, field

from ember.fuzz.gtypes import INT_BOUND, LIST_BOUND, STR_BOUND, kind


@dataclass
class Var:
    name: str
    type: object
    """A gtypes type, or ("fn", (param types...), return type) for a lambda or nested def."""
    mutable: bool = False
    capturable: bool = False
    """A parameter: nested defs and lambdas may read it."""


@dataclass
class FnSig:
    name: str
    params: list
    """(name, type) pairs; a recursive function's first is ("depth", int)."""
    ret: object
    recursive: bool = False
    defaults: dict = field(default_factory=dict)
    """Parameter name -> default value (the trailing scalar parameters)."""
    cheap: bool = False
    """No loops and no calls: may be called inside loops."""


@dataclass
class E:
    """A generated expression and a bound: |value| for ints, length for str and list."""

    node: ast.expr
    b: int = 0


def default_bound(t) -> int:
    k = kind(t)
    return {"int": INT_BOUND, "str": STR_BOUND, "list": LIST_BOUND,
            "dict": LIST_BOUND, "bool": 1}.get(k, 0)


@dataclass
class Ctx:
    """The state of one function's generation."""

    rng: object
    fns: list
    """Functions already generated (callable from here)."""
    current: FnSig | None = None
    scopes: list = field(default_factory=lambda: [{}])
    loops: int = 0
    """Enclosing loops of the current statement (0: none)."""
    in_closure: bool = False
    frozen: set = field(default_factory=set)
    """Types whose containers may not be mutated (a loop iterates one of them)."""
    counter: int = 0
    stmts_left: int = 12
    risk: float = 0.1
    """Probability of using an operation that may raise where a safe one exists."""
    in_try: int = 0
    """Enclosing try statements: their locals live in slots, which ember does not refine."""
    self_calls: bool = False
    """A recursive function may call itself (only after its `depth <= 0` guard)."""

    def fresh(self, prefix: str) -> str:
        self.counter += 1
        return f"{prefix}{self.counter}"

    def push(self) -> None:
        self.scopes.append({})

    def pop(self) -> None:
        self.scopes.pop()

    def add(self, var: Var) -> Var:
        self.scopes[-1][var.name] = var
        return var

    def visible(self):
        seen = {}
        for scope in self.scopes:
            seen.update(scope)
        vs = list(seen.values())
        if self.in_closure:
            vs = [v for v in vs if v.capturable]
        return vs

    def vars_of(self, t, mutable: bool = False):
        return [v for v in self.visible() if v.type == t and (v.mutable or not mutable)]

    def mutable_containers(self, k: str):
        return [v for v in self.visible() if v.mutable and kind(v.type) == k
                and v.type not in self.frozen]

    def refinable(self, t=None):
        """Optional variables (of Optional[t]) that a `is not None` test may refine."""
        return [v for v in self.visible() if kind(v.type) == "opt" and
                (t is None or v.type[1] == t) and (v.capturable or not self.in_try)]

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    @contextmanager
    def loop(self, targets, frozen=()):
        """A loop or comprehension body: its targets in scope (read-only), `frozen`
        container types not mutable, calls restricted to cheap functions."""
        saved = set(self.frozen)
        self.frozen |= set(frozen)
        self.loops += 1
        self.push()
        for n, ty in targets:
            self.add(Var(n, ty))
        try:
            yield
        finally:
            self.pop()
            self.loops -= 1
            self.frozen = saved
