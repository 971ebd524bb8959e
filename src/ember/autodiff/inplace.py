"""In-place tensor updates before differentiation.

`x.add_(y)`, and `x += y` on a tensor (Tensor.__iadd__), write into x. A derivative rule
needs the values an op read, and the reverse sweep runs after the forward one, so a
function's in-place updates of differentiable tensors are first made functional: the
update `%r = tensor.add_ %x, %y` becomes `%t = tensor.add %x, %y; %r = tensor.type_as
%t, %x` (the in-place result keeps x's dtype). That is exact when nothing reads the old
tensor afterwards under another name: x is not a parameter (torch refuses an in-place
update of a leaf that requires grad), not a view or an element of a container or an
object (another name would see the change), and every other read of x comes before the
update (a loop's carried value counts through its initial value). Anything else on a
differentiable tensor is a CompileError naming the update; `x = x + y` is the way out.
"""

from __future__ import annotations

from ember.errors import UnsupportedError
from ember.ir.core import BlockArg
from ember.ir.ops import ForOp, FuncOp, KernelOp
from ember.ops import registry as R

_BINARY = {"add": "add", "sub": "sub", "mul": "mul", "div": "truediv", "pow": "pow",
           "floor_divide": "floordiv", "remainder": "mod"}
"""In-place binary operators (tensor.<name>_ and tensor.<name>_scalar_) and their
functional twins' names."""

VIEWS = frozenset("tensor." + n for n in """
    view view_as view_seq reshape flatten unflatten squeeze squeeze_dims unsqueeze
    transpose permute permute_seq t T mT H mH expand expand_as expand_seq broadcast_to
    narrow select index index_ints diagonal unbind split split_sizes chunk tensor_split
    hsplit vsplit detach contiguous to to_float to_double to_half to_int to_long to_short
    to_char to_byte to_bool to_other to_device type_as real imag view_as_real
    view_as_complex movedim unfold atleast_1d atleast_2d atleast_3d resolve_conj conj
    """.split())
"""Operators whose result may share the memory of an operand (numpy views, or the
operand itself when nothing changes)."""


def functional_name(name: str) -> str | None:
    """The out-of-place operator computing what in-place operator `name` stores."""
    if not name.startswith("tensor.") or not name.endswith("_"):
        return None
    base = name[len("tensor."):-1]
    scalar = base.endswith("_scalar")
    stem = base[:-len("_scalar")] if scalar else base
    if stem in _BINARY:
        twin = f"tensor.{_BINARY[stem]}{'_scalar' if scalar else ''}"
    else:
        twin = f"tensor.{base}"
    d, t = R.get(name), R.get(twin)
    if d is None or t is None or t.arity != d.arity:
        return None
    return twin


def functionalize(f: FuncOp, differentiable, error) -> None:
    """Rewrite f's in-place updates of differentiable tensors (see the module doc);
    error(message, loc, cls) makes the CompileError."""
    memo: dict = {}
    for op in list(f.walk()):
        if not isinstance(op, KernelOp) or op.parent is None or not op.operands or \
                not op.name.endswith("_") or not differentiable(op.operands[0].type) or \
                not _active(op, differentiable, memo):
            continue
        twin = functional_name(op.name)
        why = "a tensor gradients flow through" if twin is None else \
            _aliased(op, op.operands[0])
        if why is not None:
            raise error(f"grad: the in-place update '{op.name}' writes into {why}; "
                        "differentiating it is not supported (write x = x + y, or "
                        "x = x.clone() first)", op.loc, UnsupportedError)
        _rewrite(op, twin)


def _active(op, differentiable, memo) -> bool:
    """May a differentiable parameter of the function reach one of op's operands?"""
    return any(_depends(v, differentiable, memo) for v in op.operands)


def _depends(v, differentiable, memo) -> bool:
    """May v be computed from a differentiable parameter? (A region's argument or a
    result of an op with regions: assumed so.)"""
    hit = memo.get(v)
    if hit is not None:
        return hit
    memo[v] = False  # a cycle adds nothing
    if isinstance(v, BlockArg):
        owner = v.block.parent.parent if v.block.parent is not None else None
        out = not isinstance(owner, FuncOp) or differentiable(v.type)
    else:
        op = v.op
        out = bool(op.regions) or any(_depends(o, differentiable, memo) for o in op.operands)
    memo[v] = out
    return out


def _rewrite(op, twin: str) -> None:
    x = op.operands[0]
    for use in _uses(op, x, op)[1]:  # they read the updated tensor: op's result
        use.op.set_operand(use.index, op.result)
    block = op.parent
    new = KernelOp(twin, list(op.operands), [op.result.type], None, op.loc)
    block.insert_before(op, new)
    cast = KernelOp("tensor.type_as", [new.result, x], [op.result.type], None, op.loc)
    block.insert_before(op, cast)
    op.result.replace_all_uses_with(cast.result)
    op.erase()


def _aliased(op, x, strict: bool = False, via=None) -> str | None:
    """Why writing into x at `op` could be seen under another name (None: it cannot).
    strict: x is what the written tensor views or starts a loop with, so any later read
    of x would see the update; via: the op that led there (its read is the path)."""
    if _loop_between(op, x.block if isinstance(x, BlockArg) else x.op.parent):
        return "a tensor made outside the loop that updates it"
    before, later, elsewhere = _uses(op, x, via or op)
    if elsewhere or strict and later:
        return "a tensor that is read again after the block that updates it"
    if any(_keeps(u.op) for u in before):
        return "a tensor stored, viewed or passed on before the update"
    if isinstance(x, BlockArg):
        owner = x.block.parent.parent if x.block.parent is not None else None
        if isinstance(owner, FuncOp):
            return f"the parameter '{x.name}'"
        if not isinstance(owner, ForOp) or x.block is not owner.body.block or x.index == 0:
            return "a value carried by a while loop or a block argument"
        return _aliased(owner, owner.inits[x.index - 1], True, owner)
    producer = x.op
    if producer.name in VIEWS or producer.name in ("widen", "narrow"):
        return _aliased(op, producer.operands[0], True, producer)
    if not isinstance(producer, KernelOp):
        return "a value read from a container, an object or a call"
    if producer.name.endswith("_"):
        return "a tensor another in-place operation returned"
    return None


def _keeps(user) -> bool:
    """May `user` keep a reference to its tensor operand (a view, a container, an object,
    a call, a region's yield) rather than only compute from it?"""
    if user.name in ("list.new", "tuple.new"):  # torch.cat([x, y]) reads and forgets
        return any(_keeps(u.op) for u in user.result.uses)
    return not (isinstance(user, KernelOp) and user.name.startswith("tensor.") and
                user.name not in VIEWS and not user.name.endswith("_"))


def _loop_between(op, block) -> bool:
    """Is op inside a loop that is itself inside `block` (so it runs again on the same
    tensor)?"""
    p = op.parent_op() if op.parent is not block else None
    while p is not None:
        if p.name in ("for", "while"):
            return True
        if p.parent is block:
            return False
        p = p.parent_op()
    return False


def _uses(op, x, via):
    """x's reads other than op's and via's, as (those that run before op, those later in
    op's block or nested in its later ops — they read the updated tensor, op's result —,
    and whether some read may run after op elsewhere: after the op enclosing it, or in
    another region of an enclosing loop). A read in the other branch of an `if` holding
    op never runs with it."""
    chain = {a.parent: a for a in [op, *op.ancestors()]}
    before, later, elsewhere = [], [], False
    for use in x.uses:
        u = use.op
        if u is op or u is via:
            continue
        while u is not None and u.parent not in chain:
            u = u.parent_op()
        if u is None:
            elsewhere = True
            continue
        mine = chain[u.parent]
        if u is mine:
            elsewhere |= mine.name != "if"  # a loop's or a try's other region
            continue
        ops = u.parent.ops
        if ops.index(u) < ops.index(mine):
            before.append(use)
        elif mine is op:
            later.append(use)
        else:
            elsewhere = True
    return before, later, elsewhere
