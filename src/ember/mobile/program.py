"""The in-memory bytecode program: what the compiler's lowering produces, what an
artifact holds, and what the runtime verifies and translates.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Function:
    """One function's bytecode."""

    name: str
    """Symbol name (e.g. "fib", "Net.forward", "outer.inner")."""
    params: list[str]
    """Parameter names, in order (closure captures first for closure-converted functions)."""
    param_types: list[str]
    """IR type strings of the parameters ("i64", "list<f64>", "tensor<f32, [?, 784]>")."""
    ret_type: str
    """IR type string of the result."""
    nregs: int
    """Register count; params occupy registers 0 .. len(params)-1."""
    code: list[int]
    """Instructions as int words (see opcodes.LAYOUT)."""
    consts: list = field(default_factory=list)
    """The constant pool: int, float, str, bool, None, ("tensor", i) for program tensor i,
    ("type", s) for an IR type string."""
    lines: list[tuple[int, int, int]] = field(default_factory=list)
    """Line table: (pc, source index, line) for each instruction, pc ascending;
    source index -1 and line 0 mean unknown."""
    defaults: list = field(default_factory=list)
    """Constant defaults of the trailing parameters (used at the call boundary)."""

    @property
    def nparams(self) -> int:
        return len(self.params)


@dataclass
class ClassInfo:
    """A class: its name, kind ("class", "namedtuple", "module", "exception") and fields."""

    name: str
    fields: list[str]
    field_types: list[str]
    kind: str = "class"


@dataclass
class Program:
    """A whole program: functions, the operators and classes they use, tensors, sources."""

    functions: list[Function]
    operators: list[str] = field(default_factory=list)
    """Operator names; KCALL's F operand indexes this list."""
    classes: list = field(default_factory=list)
    """ClassInfo per class (tuples (name, fields, field_types, kind) are accepted too)."""
    tensors: list = field(default_factory=list)
    """(name, numpy array) per tensor constant."""
    sources: list[tuple[str, str]] = field(default_factory=list)
    """(filename, text) per source file, for tracebacks."""
    entries: dict[str, int] = field(default_factory=dict)
    """Public entry points: name -> function index."""
    default_entry: str | None = None
    """The entry `LoadedModule.__call__` runs (the first entry if None)."""
    producer: str = ""
    metadata: dict = field(default_factory=dict)

    def __post_init__(self):
        self.classes = [c if isinstance(c, ClassInfo) else ClassInfo(*c) for c in self.classes]
