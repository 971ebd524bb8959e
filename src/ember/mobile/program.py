"""The in-memory bytecode program: what the compiler's lowering produces, what an artifact
holds, and what the runtime verifies and translates.

This is the contract between `ember.interpreter.lower` (the producer), the
artifact writer and reader, and the runtime. Nothing here is trusted: the
verifier checks every field before anything runs.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field


@dataclass
class Function:
    """One function's bytecode and signature."""

    name: str
    """Symbol name ("fib", "Net.forward", "outer.inner"); shown in tracebacks and listings."""
    params: list[str]
    """Parameter names, in order; closure captures come first for closure-converted
    functions. Keyword arguments at the call boundary match these names."""
    param_types: list[str]
    """IR type strings of the parameters: "i64", "list<f64>", "tensor<f32, [?, 784]>",
    "optional<str>", "tuple<i64, str>", "dict<str, i64>", "!Point" (see mobile/types.py)."""
    ret_type: str
    """IR type string of the result ("none" for functions returning None)."""
    nregs: int
    """Register count. Parameters arrive in registers 0 .. nparams-1."""
    code: list[int]
    """Instructions as int words (see opcodes.LAYOUT); every word fits in int32."""
    consts: list = field(default_factory=list)
    """The constant pool K: int (int64), float, complex, str, bool, None, ("tensor", i) for the
    program's tensor i, ("type", text) for an IR type string (ISINST/NARROW), and str
    exception class names (EXCEPT)."""
    lines: list[tuple[int, int, int]] = field(default_factory=list)
    """Line table: (pc, source index, line) triples, pc strictly ascending, each pc the start
    of an instruction. An instruction's location is that of the last triple at or before
    its pc. Source index -1 or line 0 mean unknown. The producer may give one triple per
    instruction; the artifact stores only the triples where the location changes."""
    defaults: list = field(default_factory=list)
    """Constant defaults of the trailing parameters (scalars only; used at the call
    boundary for omitted arguments). len(defaults) <= nparams."""
    qualname: str = ""
    """Dotted qualified name for messages ("Net.forward"); `name` when empty."""
    sites: list = field(default_factory=list)
    """Inlined calls: site k (1-based) is (callee name, line of the call, parent site; 0 =
    called by this function itself[, source index of the callee's file; -1 or absent =
    this function's file]). Tracebacks show each as a frame."""
    site_pcs: list = field(default_factory=list)
    """(pc, site) pairs, pc strictly ascending, where the inlined call an instruction
    comes from changes (0 = none); like `lines`, the last pair at or before a pc holds."""

    @property
    def nparams(self) -> int:
        """Number of parameters (not a field: always len(params))."""
        return len(self.params)

    @property
    def display_name(self) -> str:
        """The name shown in call-boundary messages and tracebacks."""
        return self.qualname or self.name

    def location(self, pc: int) -> tuple[int, int]:
        """(source index, line) of the instruction at pc; (-1, 0) when unknown. O(log n)."""
        i = bisect.bisect_right(self.lines, pc, key=_pc_of) - 1
        if i < 0:
            return (-1, 0)
        _, src, line = self.lines[i]
        return (src, line)


    def site(self, pc: int) -> int:
        """The inlined call site (index into `sites`, 1-based) of pc's instruction; 0 if none."""
        i = bisect.bisect_right(self.site_pcs, pc, key=_pc_of) - 1
        return self.site_pcs[i][1] if i >= 0 else 0

    def frames(self, site: int, line: int) -> list[tuple[str, int, int]]:
        """(function name, line, source index or -1 for this function's file) of the frames
        an instruction at `line` in inlined call `site` runs in, outermost first."""
        out = []
        while site > 0:
            row = self.sites[site - 1]
            name, call_line, site = row[:3]
            out.append((name, line, row[3] if len(row) > 3 else -1))
            line = call_line
        out.append((self.display_name, line, -1))
        return out[::-1]


def _pc_of(entry) -> int:
    return entry[0]


@dataclass(frozen=True)
class Ref:
    """A reference inside an object's field values: tensor i or object i."""

    kind: str
    """"tensor" or "object"."""
    index: int


@dataclass
class ClassInfo:
    """A class of script objects: name, kind and fields (accessed by index at run time)."""

    name: str
    """Class name, used by "!Name" types and shown in messages."""
    fields: list[str]
    """Field names; GETF/SETF address them by index."""
    field_types: list[str]
    """IR type string of each field."""
    kind: str = "class"
    """"class" (mutable object), "namedtuple" (a tuple subclass), "module" or "exception"."""
    methods: dict = field(default_factory=dict)
    """Special methods of a "class": name (a key of SPECIAL_METHODS) -> function index.
    The run-time class defines them, so Python's container operations use them."""


SPECIAL_METHODS = {"__eq__": 2, "__ne__": 2, "__lt__": 2, "__le__": 2, "__gt__": 2,
                   "__ge__": 2, "__hash__": 1, "__repr__": 1, "__str__": 1, "__bool__": 1,
                   "__len__": 1}
"""The special methods a script class carries into its run-time class, with their
parameter counts (self included): those Python calls on its own (`==` and `<` of lists
and tuples, `list.index`, dict keys, `repr` of a list, truth tests of `any`)."""


@dataclass
class Program:
    """A whole program: functions, the operators and classes they use, tensors, sources."""

    functions: list[Function]
    """Function table FN; CALL and CLOSURE index it."""
    operators: list[str] = field(default_factory=list)
    """Operator table F: ember.ops names; KCALL indexes it. Bound to kernels at load."""
    classes: list = field(default_factory=list)
    """Class table C: ClassInfo per class (tuples (name, fields, field_types[, kind]) are
    converted on construction). NEWOBJ indexes it."""
    tensors: list = field(default_factory=list)
    """(name, numpy array) per tensor constant; ("tensor", i) constants index it."""
    objects: list = field(default_factory=list)
    """Constant objects (module instances): (class index, field values) each, built at
    load from data only. A value is an int, float, complex, str, bool or None, a Ref to a tensor
    or to an earlier object, or a list / tuple / dict of values. ("object", i)
    constants index this table."""
    sources: list[tuple[str, str]] = field(default_factory=list)
    """(filename, text) per source file; line tables index it, tracebacks quote it."""
    entries: dict[str, int] = field(default_factory=dict)
    """Public entry points: name -> function index."""
    default_entry: str | None = None
    """The entry `LoadedModule.__call__` runs (the first entry if None)."""
    producer: str = ""
    """Who wrote the program ("ember 0.1.0")."""
    metadata: dict = field(default_factory=dict)
    mutable_tensors: bool = True
    """Whether the code may write into tensors in place (interpreter/mutation.py). If
    not, the runtime makes the tensors read-only and may cache layouts derived from them;
    if so, they stay writable so in-place updates persist across calls."""
    """Free-form JSON-compatible information carried through the artifact."""
    manifest: dict | None = None
    """The manifest an artifact was read from (None for programs built in memory)."""
    mapping: tuple | None = None
    """(FrozenMap, file size its tensors need) when the tensors are views of a mapped
    artifact file; entry points then check the file was not truncated (boundary.py)."""

    def __post_init__(self):
        self.classes = [c if isinstance(c, ClassInfo) else ClassInfo(*c) for c in self.classes]

    def default_entry_name(self) -> str | None:
        """The entry run by calling the loaded module."""
        return self.default_entry or next(iter(self.entries), None)
