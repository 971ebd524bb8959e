"""The IR's building blocks: locations, values and their uses, ops, blocks, regions.

The model is MLIR's as trimmed by xDSL: a `Value` is defined once (an op
result or a block argument) and knows its uses; an `Op` has operands,
results, constant attributes, nested regions and a mandatory location; a
`Region` holds one `Block` (structured control flow needs no more); a block's
last op is its terminator. Mutate only through the methods here: they keep
use lists and parent pointers consistent.
"""

from __future__ import annotations

from dataclasses import dataclass
from operator import itemgetter
from typing import ClassVar, Iterator

from ember.ir.types import Type


@dataclass(frozen=True, slots=True)
class Loc:
    """A source location: file, 1-based line, 1-based column (0 = unknown), and for an op
    inlined from other functions the calls it was inlined through."""

    file: str
    line: int
    col: int = 0
    inlined: tuple[tuple[str, int, str], ...] = ()
    """(callee name, line of the call in its caller, callee's file) per inlined call,
    outermost first: `(("g", 7, "m.py"),)` is an op of g (in m.py) inlined at line 7 of
    the function holding it. Run-time tracebacks show these calls as frames. Printed
    `inlined("g":7)`, with `:"file"` after the line when the callee's file is not the
    op's own."""

    @staticmethod
    def unknown() -> "Loc":
        return UNKNOWN_LOC

    @property
    def is_unknown(self) -> bool:
        return self.line <= 0

    @staticmethod
    def of_span(span) -> "Loc":
        """The location of an `ember.errors.Span`'s first character."""
        return Loc(span.filename, span.line, span.col + span.source.col_offset)

    def __str__(self) -> str:
        if self.is_unknown:
            return "loc(unknown)"
        via = ""
        if self.inlined:
            via = " inlined(" + ", ".join(
                f'"{_escape(n)}":{ln}' + (f':"{_escape(f)}"' if f != self.file else "")
                for n, ln, f in self.inlined) + ")"
        return f'loc("{_escape(self.file)}":{self.line}:{self.col}{via})'


UNKNOWN_LOC = Loc("", 0, 0)


def _escape(s: str) -> str:
    return s.replace("\\", "\\\\").replace('"', '\\"')


@dataclass(frozen=True, slots=True)
class SymbolRef:
    """An attribute value naming a module-level symbol: `@fib`, `@Point.norm`."""

    name: str

    def __str__(self) -> str:
        return "@" + self.name


class Use(tuple):
    """Operand `index` of `op` refers to the value holding this use. Immutable; a tuple
    underneath, so building one and finding one in a use list stay cheap."""

    __slots__ = ()

    def __new__(cls, op: "Op", index: int):
        return tuple.__new__(cls, (op, index))

    op = property(itemgetter(0))
    index = property(itemgetter(1))

    def __getnewargs__(self):
        return tuple(self)

    def __repr__(self) -> str:
        return f"Use(op={self[0]!r}, index={self[1]!r})"


class Value:
    """An SSA value: defined once, typed, with a list of uses."""

    __slots__ = ("type", "name", "uses")

    def __init__(self, type: Type, name: str | None = None):
        self.type = type
        """The value's static type."""
        self.name = name
        """Name hint for printing (a source variable name), or None."""
        self.uses: list[Use] = []
        """Every (op, operand index) reading this value."""

    @property
    def owner(self):
        """The op (for results) or block (for block arguments) defining this value."""
        raise NotImplementedError

    def has_uses(self) -> bool:
        return bool(self.uses)

    def has_one_use(self) -> bool:
        return len(self.uses) == 1

    def replace_all_uses_with(self, new: "Value") -> None:
        """Make every user of self read `new` instead."""
        if new is self:
            return
        for use in list(self.uses):
            use.op.set_operand(use.index, new)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} %{self.name or '?'}: {self.type}>"


class OpResult(Value):
    """Result number `index` of `op`."""

    __slots__ = ("op", "index")

    def __init__(self, type: Type, op: "Op", index: int, name: str | None = None):
        self.type, self.name, self.uses = type, name, []  # Value.__init__, inlined
        self.op = op
        self.index = index

    @property
    def owner(self):
        return self.op


class BlockArg(Value):
    """Argument number `index` of `block`."""

    __slots__ = ("block", "index")

    def __init__(self, type: Type, block: "Block", index: int, name: str | None = None):
        super().__init__(type, name)
        self.block = block
        self.index = index

    @property
    def owner(self):
        return self.block


# Traits an op class may declare (read by generic passes; no pass matches op names).
PURE = "pure"                # no side effects: removable when unused, CSE-able
TERMINATOR = "terminator"    # ends a block
COMMUTATIVE = "commutative"  # operands 0 and 1 may be swapped
MAY_RAISE = "may_raise"      # may raise at run time (folding must not hide it)
LOOP = "loop"                # a loop op (break/continue target)
NO_FOLD = "no_fold"          # never constant-folded
ALLOC = "alloc"              # creates a fresh mutable object: removable when unused, never merged


class Op:
    """An operation. Subclasses set `name` and `traits` (or override them per instance)."""

    __slots__ = ("operands", "results", "attrs", "regions", "parent", "loc", "meta")

    name: ClassVar[str] = "<op>"
    traits: ClassVar[frozenset[str]] = frozenset()

    def __init__(self, operands=(), result_types=(), attrs=None, regions=(), loc: Loc = None,
                 result_names=None):
        if not isinstance(loc, Loc):
            raise TypeError(f"op {self.name!r} needs a Loc, got {loc!r}")
        self.loc = loc
        """Source location this op was emitted from; never None."""
        self.operands: list[Value] = []
        """Inputs, in order; each holds a Use back to this op. Change with set_operand."""
        self.attrs: dict = dict(attrs) if attrs else {}
        """Constant attributes: int, float, str, bool, None, Type, SymbolRef, lists."""
        self.parent: Block | None = None
        """The block containing this op, or None while detached."""
        self.meta: dict = {}
        """Facts computed by passes (never printed)."""
        self.results = [OpResult(t, self, i, n) for i, (t, n) in
                        enumerate(zip(result_types, result_names))] if result_names else \
            [OpResult(t, self, i) for i, t in enumerate(result_types)]
        self.regions: list[Region] = []
        for r in regions:
            self.add_region(r)
        for v in operands:
            self.add_operand(v)

    # -- traits -----------------------------------------------------------------------
    def has_trait(self, trait: str) -> bool:
        return trait in self.traits

    @property
    def is_terminator(self) -> bool:
        return TERMINATOR in self.traits

    @property
    def is_pure(self) -> bool:
        return PURE in self.traits

    # -- operands -----------------------------------------------------------------------
    def add_operand(self, v: Value) -> None:
        if not isinstance(v, Value):
            raise TypeError(f"operand of {self.name} must be a Value, got {v!r}")
        v.uses.append(Use(self, len(self.operands)))
        self.operands.append(v)

    def set_operand(self, i: int, v: Value) -> None:
        old = self.operands[i]
        old.uses.remove(Use(self, i))
        v.uses.append(Use(self, i))
        self.operands[i] = v

    def set_operands(self, values) -> None:
        """Replace the whole operand list."""
        self.drop_operands()
        for v in values:
            self.add_operand(v)

    def drop_operands(self) -> None:
        """Remove every operand (and its use)."""
        for i, v in enumerate(self.operands):
            v.uses.remove(Use(self, i))
        self.operands = []

    # -- results / regions ----------------------------------------------------------------
    @property
    def result(self) -> OpResult:
        """The only result (error if the op has zero or several)."""
        if len(self.results) != 1:
            raise ValueError(f"{self.name} has {len(self.results)} results")
        return self.results[0]

    def add_region(self, region: "Region") -> "Region":
        region.parent = self
        self.regions.append(region)
        return region

    # -- structure ----------------------------------------------------------------------------
    def walk(self) -> Iterator["Op"]:
        """This op, then every op nested in its regions, in order (pre-order)."""
        yield self
        for r in self.regions:
            for op in list(r.block.ops):
                yield from op.walk()

    def ancestors(self) -> Iterator["Op"]:
        """Enclosing ops, innermost first."""
        blk = self.parent
        while blk is not None and blk.parent is not None and blk.parent.parent is not None:
            op = blk.parent.parent
            yield op
            blk = op.parent

    def parent_op(self) -> "Op | None":
        """The op whose region holds this op's block."""
        if self.parent is None or self.parent.parent is None:
            return None
        return self.parent.parent.parent

    def detach(self) -> "Op":
        """Remove from the parent block, keeping operands and uses."""
        if self.parent is not None:
            self.parent.ops.remove(self)
            self.parent = None
        return self

    def erase(self) -> None:
        """Remove this op and everything nested in it; its results must be unused."""
        for r in self.results:
            if r.uses:
                raise ValueError(f"cannot erase {self.name}: result still in use")
        self.detach()
        self._drop_all()

    def _drop_all(self) -> None:
        # Nested ops die with this one: detached, so that a pass holding a list of ops
        # collected before the erase (all_ops) sees them as gone, not as live ops with
        # no operands.
        for r in self.regions:
            for op in reversed(r.block.ops):
                op._drop_all()
                op.parent = None
        self.drop_operands()

    def replace_with(self, values) -> None:
        """Replace all uses of this op's results with `values`, then erase it."""
        for r, v in zip(self.results, values):
            r.replace_all_uses_with(v)
        self.erase()

    def clone(self, mapping: dict | None = None) -> "Op":
        """A deep copy; operands found in `mapping` (old value -> new) are remapped.

        `mapping` is extended with the clone's results and nested block arguments.
        """
        mapping = {} if mapping is None else mapping
        new = object.__new__(type(self))
        new._init_clone(self)
        new.loc = self.loc
        new.attrs = dict(self.attrs)
        new.parent = None
        new.meta = {}
        new.operands = []
        new.results = [OpResult(r.type, new, i, r.name) for i, r in enumerate(self.results)]
        new.regions = []
        for v in self.operands:
            new.add_operand(mapping.get(v, v))
        for old, res in zip(self.results, new.results):
            mapping[old] = res
        for r in self.regions:
            new.add_region(r.clone(mapping))
        return new

    def _init_clone(self, other: "Op") -> None:
        """Copy per-instance class data (kernel ops copy their name)."""

    def verify_(self) -> None:
        """Op-specific checks; raise ember.errors.VerifyError with self.loc."""

    def __repr__(self) -> str:
        return f"<{self.name} at {self.loc}>"


class Block:
    """A list of ops ending in a terminator, with typed arguments."""

    __slots__ = ("args", "ops", "parent")

    def __init__(self, arg_types=(), arg_names=None):
        names = arg_names or [None] * len(arg_types)
        self.args: list[BlockArg] = [BlockArg(t, self, i, n) for i, (t, n) in
                                     enumerate(zip(arg_types, names))]
        self.ops: list[Op] = []
        self.parent: Region | None = None

    def add_arg(self, type: Type, name: str | None = None) -> BlockArg:
        arg = BlockArg(type, self, len(self.args), name)
        self.args.append(arg)
        return arg

    def erase_arg(self, index: int) -> None:
        """Remove an unused argument and renumber the rest."""
        if self.args[index].uses:
            raise ValueError("cannot erase a block argument that is still used")
        del self.args[index]
        for i, a in enumerate(self.args):
            a.index = i

    def append(self, op: Op) -> Op:
        op.parent = self
        self.ops.append(op)
        return op

    def insert(self, index: int, op: Op) -> Op:
        op.parent = self
        self.ops.insert(index, op)
        return op

    def insert_before(self, anchor: Op, op: Op) -> Op:
        return self.insert(self.ops.index(anchor), op)

    def insert_after(self, anchor: Op, op: Op) -> Op:
        return self.insert(self.ops.index(anchor) + 1, op)

    @property
    def terminator(self) -> Op | None:
        if self.ops and self.ops[-1].is_terminator:
            return self.ops[-1]
        return None

    def clone(self, mapping: dict) -> "Block":
        new = Block([a.type for a in self.args], [a.name for a in self.args])
        for old, arg in zip(self.args, new.args):
            mapping[old] = arg
        for op in self.ops:
            new.append(op.clone(mapping))
        return new


class Region:
    """The body of a structured op: exactly one block."""

    __slots__ = ("block", "parent")

    def __init__(self, block: Block | None = None):
        self.block = block if block is not None else Block()
        self.block.parent = self
        self.parent: Op | None = None

    def clone(self, mapping: dict) -> "Region":
        return Region(self.block.clone(mapping))
