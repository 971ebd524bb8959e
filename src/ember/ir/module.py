"""The IR module: functions, class declarations and tensor constants, by symbol name."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ember.ir import types as T
from ember.ir.core import Loc
from ember.ir.ops import FuncOp


@dataclass(eq=False)
class ClassDecl:
    """A user class, NamedTuple or module type: ordered typed fields.

    `kind` is "class", "namedtuple", "module" or "exception". Methods are module
    functions named `<class>.<method>` whose first parameter is the object.
    """

    name: str
    fields: list[tuple[str, T.Type]]
    kind: str = "class"
    loc: Loc = field(default_factory=Loc.unknown)
    base: str | None = None
    """Name of the base class for exception classes (e.g. "ValueError")."""

    def field_index(self, name: str) -> int | None:
        for i, (n, _) in enumerate(self.fields):
            if n == name:
                return i
        return None

    def field_type(self, name: str) -> T.Type | None:
        i = self.field_index(name)
        return None if i is None else self.fields[i][1]


@dataclass(eq=False)
class TensorConst:
    """A named constant tensor (frozen weights), referenced by `const @name`."""

    name: str
    data: np.ndarray

    @property
    def type(self) -> T.TensorType:
        return T.TensorType(T.IR_DTYPE[self.data.dtype.name], tuple(self.data.shape))


class Module:
    """A compilation unit's IR: ordered functions, classes and tensors."""

    def __init__(self):
        self.funcs: dict[str, FuncOp] = {}
        self.classes: dict[str, ClassDecl] = {}
        self.tensors: dict[str, TensorConst] = {}
        self.entries: list[str] = []
        """Functions that are public entry points (kept by DCE, exported by save)."""
        self.sources: dict[str, str] = {}
        """Full source text per file name, for files that do not exist on disk (a
        CompilationUnit string): run-time tracebacks quote their lines."""

    def add_func(self, f: FuncOp) -> FuncOp:
        if f.sym_name in self.funcs:
            raise ValueError(f"function @{f.sym_name} defined twice")
        self.funcs[f.sym_name] = f
        return f

    def remove_func(self, name: str) -> None:
        del self.funcs[name]

    def add_class(self, c: ClassDecl) -> ClassDecl:
        self.classes[c.name] = c
        return c

    def add_tensor(self, name: str, data: np.ndarray) -> TensorConst:
        t = TensorConst(name, np.ascontiguousarray(data))
        self.tensors[name] = t
        return t

    def walk(self):
        """Every op of every function, pre-order."""
        for f in list(self.funcs.values()):
            yield from f.walk()

    def __str__(self) -> str:
        from ember.ir.printer import print_module
        return print_module(self)
