"""Adjoints of lists of tensors and of floats.

A list is a mutable object, so its adjoint is one too: for a list `xs` made in the
function (a literal or `[]`, or the pieces of chunk / split / unbind), the reverse sweep
keeps a list `gxs` of the same length, made of zeros when the first gradient reaches it
(allocated where `xs`'s block starts its reverse sweep, so it dominates every use).

* `xs[i]` (list.getitem) adds its result's adjoint to `gxs[i]` in place;
* a reader with a derivative rule (cat, stack, ...) adds its list of adjoints element-wise;
* `xs.append(x)` is undone by `x += gxs.pop()`: the reverse sweep runs the appends in the
  opposite order, so at every point `gxs` is as long as `xs` was there, and an index read
  (`xs[-1]`) names the same element in both;
* the op that made `xs` takes `gxs` as its result's adjoint (a literal gives each item its
  element, chunk's rule concatenates them).

What breaks these invariants is refused by name: other mutations of a list that carries
gradients (setitem, insert, pop, extend, ...), a list passed to a call, an element of a
list made any other way (a parameter, a slice, a list held in a tuple). Recomputing a
region (the reverse of a loop or an `if` runs its forward ops again) must not read a list
or dict that changes during or after that region: the values read would be the changed
ones, so such reads are refused too.
"""

from __future__ import annotations

from ember.autodiff.emit import Emitter
from ember.ir import types as T
from ember.ir.builder import IRBuilder
from ember.ir.core import OpResult

_READS = {
    "list": {"getitem", "len", "index", "index_from", "count", "copy", "slice", "add", "mul",
             "contains", "check_unpack", "check_unpack_star"},
    "dict": {"contains", "copy", "get", "get_opt", "getitem", "items", "iter_ok", "keys", "len",
             "values"},
}
_MAKERS = frozenset({"list.new", "tensor.chunk", "tensor.split", "tensor.split_sizes",
                     "tensor.unbind"})


def unwiden(v):
    while isinstance(v, OpResult) and v.op.name in ("widen", "narrow") and v.op.operands:
        v = v.op.operands[0]
    return v


def is_tensor_list(t) -> bool:
    return isinstance(t, T.ListType) and isinstance(t.elem, T.TensorType) and \
        t.elem.dtype in (None, "f16", "f32", "f64")


def is_float_list(t) -> bool:
    return isinstance(t, T.ListType) and t.elem == T.F64


def is_diff_list(t) -> bool:
    """A list whose elements carry gradients: float tensors or floats."""
    return is_tensor_list(t) or is_float_list(t)


def holds_tensor_list(t) -> bool:
    """t is a list of tensors or floats, or a tuple / Optional / list holding one."""
    if is_diff_list(t):
        return True
    if isinstance(t, T.TupleType):
        return any(holds_tensor_list(x) for x in t.elems)
    if isinstance(t, (T.OptionalType, T.ListType)):
        return holds_tensor_list(t.elem)
    return False


def is_container(t) -> bool:
    return isinstance(t, (T.ListType, T.DictType))


def mutates(op, v) -> bool:
    """op changes container v (its first operand)."""
    kind, _, verb = op.name.partition(".")
    if kind not in _READS or not op.operands or op.operands[0] is not v:
        return False
    return verb not in _READS[kind]


def aliases(v) -> list:
    """v and its views through widen / narrow (one object)."""
    out, todo = [], [unwiden(v)]
    while todo:
        x = todo.pop()
        if x in out:
            continue
        out.append(x)
        for use in x.uses:
            if use.op.name in ("widen", "narrow"):
                todo.append(use.op.results[0])
    return out


class ListAdjoints:
    """The adjoint lists of one adjoint function (shared by its nested regions)."""

    def __init__(self, module, error):
        self.m = module
        self.error = error
        self.adj: dict = {}
        self.home: dict = {}

    # -- which lists ----------------------------------------------------------------------
    def tracked(self, v) -> bool:
        v = unwiden(v)
        return is_diff_list(v.type) and isinstance(v, OpResult) and v.op.name in _MAKERS

    def note_block(self, steps, b: IRBuilder) -> None:
        """Lists made by `steps` get their adjoints allocated at b's current end."""
        block = b.block
        anchor = block.ops[-1] if block.ops else None
        for st in steps:
            if st.clone is None:
                continue
            for r in st.clone.results:
                if self.tracked(r):
                    self.home[r] = (block, anchor, st.orig)

    def get(self, v):
        return self.adj.get(unwiden(v))

    def ensure(self, v, loc):
        """v's adjoint list (zeros, allocated at v's home on first use)."""
        v = unwiden(v)
        g = self.adj.get(v)
        if g is not None:
            return g
        home = self.home.get(v)
        if home is None:
            raise self.error("grad: internal: a list's adjoint has no home", loc, self.m)
        block, anchor, orig = home
        self._check_uses(orig, loc)
        nb = IRBuilder(block, loc)
        if anchor is None:
            nb.before = block.ops[0] if block.ops else None
        else:
            i = block.ops.index(anchor) + 1
            nb.before = block.ops[i] if i < len(block.ops) else None
        zeros = "grad.float_list_zeros" if is_float_list(v.type) else "grad.list_zeros"
        g = nb.kernel(zeros, [v], v.type)
        self.adj[v] = g
        return g

    def _check_uses(self, orig, loc) -> None:
        """The list made by `orig` changes only by appends and reaches no call."""
        for x in aliases(orig.results[0]):
            for use in x.uses:
                op = use.op
                if op.name == "list.append" and use.index == 0:
                    continue
                if mutates(op, x):
                    raise self.error(f"grad: a list that carries gradients is "
                                     f"changed by '{op.name}' (only appends differentiate)",
                                     op.loc, self.m)
                if op.name in ("call", "call_indirect", "list.extend"):
                    raise self.error(f"grad: a list that carries gradients is "
                                     f"passed to '{op.name}' (not differentiated)",
                                     op.loc, self.m)

    # -- the reverse of list ops ----------------------------------------------------------
    def reverse_getitem(self, c, g, b: IRBuilder, loc) -> None:
        lst = c.operands[0]
        if not self.tracked(lst):
            src = unwiden(lst)
            made = src.op.name if isinstance(src, OpResult) else "a parameter or loop value"
            raise self.error(f"grad: cannot differentiate an element of a list made by "
                             f"'{made}' (lists from a literal, appends, chunk, split or "
                             "unbind differentiate)", loc, self.m)
        gl = self.ensure(lst, loc)
        add = "grad.float_list_add_at" if is_float_list(lst.type) else "grad.list_add_at"
        b.kernel(add, [gl, c.operands[1], g], T.NONE)

    def reverse_append(self, lst, x, adj, b: IRBuilder, loc) -> None:
        if not self.tracked(lst):
            return
        gl = self.ensure(lst, loc)
        e = Emitter(b)
        gx = e.op("list.pop", gl, -1)
        adj.add(x, gx)

    def reverse_new(self, c, adj, b: IRBuilder) -> None:
        gl = self.get(c.results[0])
        if gl is None:
            return
        e = Emitter(b)
        for i, item in enumerate(c.operands):
            if adj.needed(item):
                adj.add(item, e.op("list.getitem", gl, i))


def appends_outside(op) -> bool:
    """op's regions append to a list of tensors made outside op."""
    inside = defined_inside(op)
    return any(sub.name == "list.append" and sub.operands[0] not in inside and
               is_diff_list(sub.operands[0].type) for sub in op.walk() if sub is not op)


def defined_inside(op) -> set:
    inside = set()
    for sub in op.walk():
        for r in sub.regions:
            inside.update(r.block.args)
        if sub is not op:
            inside.update(sub.results)
    return inside


def check_stale_reads(op, module, error) -> None:
    """Refuse a region (of loop or if `op`, about to be recomputed by the reverse sweep)
    that reads a list or dict made outside it which changes during or after it."""
    inside = defined_inside(op)
    for sub in op.walk():
        if sub is op:
            continue
        for v in sub.operands:
            if v in inside or not is_container(v.type) or mutates(sub, v):
                continue
            for x in aliases(v):
                for use in x.uses:
                    m = use.op
                    if mutates(m, x) and not _before(m, op):
                        raise error(f"grad: this {op.name} reads a {_kind(v)} that changes "
                                    f"during or after it ('{m.name}'): the reverse sweep "
                                    "cannot recompute what it read", sub.loc, module)


def _kind(v) -> str:
    return "list" if isinstance(v.type, T.ListType) else "dict"


def _before(m, op) -> bool:
    """m runs (entirely) before op starts, every time op runs."""
    chain = []
    a = op
    while a is not None:
        chain.append(a)
        a = a.parent_op()
    x = m
    while x is not None:
        for c in chain:
            if c.parent is x.parent:
                if c is x:
                    return False
                ops = x.parent.ops
                return ops.index(x) < ops.index(c)
        x = x.parent_op()
    return False

