"""FunctionEmitter: type-checks one function's AST and emits its IR in the same pass.

The emitter keeps an Env of local variables and an insertion point. Structured
statements (if, loops, try) open regions; values flowing out of them become
the ops' results. On an error the emitter records a diagnostic and goes on
with a poison value (ErrorType), so every independent error is reported once.
The statement, loop, expression and call parts live in mixins (stmts.py,
loops.py, exprs.py, calls.py, refine.py).
"""

from __future__ import annotations

from contextlib import contextmanager

from ember.errors import (
    CompileError,
    NameResolutionError,
    Span,
    TypeCheckError,
    UnsupportedError,
)
from ember.frontend import ast as A
from ember.frontend.annotations import AnnotationResolver
from ember.frontend.calls import CallMixin
from ember.frontend.compiler import function_label, is_unused
from ember.frontend.env import (
    Env,
    PendingSlot,
    Var,
    assigned_names,
    binding_counts,
    box_name,
    ir_names,
    local_names,
    nonlocal_names,
    slot_value,
)
from ember.frontend.exprs import ExprMixin
from ember.frontend.loops import LoopMixin
from ember.frontend.refine import RefineMixin
from ember.frontend.stmts import StmtMixin
from ember.frontend.typing_ import ERROR, ErrorType, show
from ember.ir import Block, FuncOp, IRBuilder, Loc, Region, Value
from ember.ir import types as T
from ember.ir.core import BlockArg, OpResult
from ember.ir.ops import ReturnOp, WidenOp


class Poison(Value):
    """The value of an expression that already failed; errors involving it are not reported."""

    __slots__ = ()

    def __init__(self):
        super().__init__(ERROR, None)


def is_poison(v) -> bool:
    return isinstance(v, Value) and isinstance(v.type, ErrorType)


class FunctionEmitter(StmtMixin, LoopMixin, ExprMixin, CallMixin, RefineMixin):
    """Emits one FuncOp for a FuncInfo."""

    def __init__(self, compiler, info, param_types=None, captures=()):
        self.c = compiler
        self.info = info
        self.node: A.FunctionDef = info.node
        self.source = info.source
        self.scope = info.scope
        self.ann = AnnotationResolver(self)
        self.env = Env()
        self.b = IRBuilder()
        self.terminated = False
        self.static_exit = False
        """The block was ended by an `if` decided at compile time whose live branch exits
        (`if torch.jit.is_scripting(): return ...`): what follows is ruled out, as in
        TorchScript, so it is not type-checked (it may be eager-only code)."""
        self.loops: list = []
        self.handlers: list = []
        self.returns: list[ReturnOp] = []
        self.declared_ret: T.Type | None = None
        self.fixed_param_types = param_types
        self.captures = list(captures)
        self.lambda_counter = 0
        self.local_metas: dict = {}
        """Local names bound to compile-time values (a lambda assigned to a variable)."""
        if getattr(info, "cls_param", None):  # a @classmethod's cls: its class
            from ember.frontend.meta import MClass
            self.local_metas[info.cls_param] = MClass(info.owner)
        self.scratch_blocks: list = []
        self.comprehensions: list = []
        """The comprehensions being emitted, outermost first (comprehensions._State)."""
        self.transient_functions = 0
        """> 0 while emitting a function argument that is called before the call returns
        (a key= of sorted/min/max): its captured variables may change afterwards."""
        self.probing = False
        self.append_probe = None
        """(name, found types) while probe_appended_type probes the appends to a list."""
        self.following: list = []
        """The statements after the one being emitted, at each nesting level."""
        self.dead_depth = 0
        """> 0 while type-checking statements no path reaches (dead_code): a variable
        that is not bound there is not an error, as CPython never runs them."""
        self.escaped: dict = {}
        """name -> the slot Var of each variable kept after a loop (slots_for_escaping)."""
        self.read_after_loop: set = set()
        """Hidden names the code emitting a loop reads after it (next() of a generator):
        kept after the loop as a user's variable read there is."""
        from ember.frontend.globals_ import declared_global
        self.globals_written = declared_global(self.node) & set(self.c.mutable_globals)
        self.local_names = local_names(self.node) - self.globals_written
        self.own_nonlocals = nonlocal_names(self.node.body, deep=False)
        self.boxed = self.own_nonlocals | (nonlocal_names(self.node.body, deep=True) &
                                           (self.local_names - self.own_nonlocals))
        """Variables shared with nested functions by `nonlocal`: a one-item list each
        (the hidden variable box_name(n)), which the nested functions capture."""
        self.binding_counts = binding_counts(self.node.body)
        self._assigned_cache: dict = {}
        """Names local to the whole function (Python's scoping rule)."""
        self._locs: dict = {}
        """id(span) -> (span, its Loc): ops emitted from one node share one Loc."""

    # -- errors -----------------------------------------------------------------------------------
    def error(self, message: str, span: Span, cls=TypeCheckError) -> Poison:
        """Record an error at span; returns a poison value to continue with."""
        self.c.report(cls(message, span))
        return Poison()

    def unsupported(self, message: str, span: Span) -> Poison:
        return self.error(message, span, UnsupportedError)

    def loc(self, node_or_span) -> Loc:
        span = node_or_span.span if isinstance(node_or_span, A.Node) else node_or_span
        hit = self._locs.get(id(span))
        if hit is not None and hit[0] is span:
            return hit[1]
        loc = Loc.of_span(span)
        self._locs[id(span)] = (span, loc)
        return loc

    # -- insertion --------------------------------------------------------------------------------
    @contextmanager
    def at(self, block: Block):
        """Emit into block; restores the insertion point and the terminated flag."""
        saved = (self.b.block, self.b.before, self.terminated, self.static_exit)
        self.b.set_insertion_end(block)
        self.terminated = False
        try:
            yield block
        finally:
            self.b.block, self.b.before, self.terminated, self.static_exit = saved

    def scratch(self) -> None:
        """Continue in a detached block: code after an exit is type-checked, then dropped."""
        block = Block()
        self.scratch_blocks.append(block)
        self.b.set_insertion_end(block)
        self.terminated = self.static_exit = False

    def discard_scratch(self) -> None:
        """Drop the operands of every op emitted into scratch blocks, so values of the
        function do not keep uses from code that is not part of it."""
        for block in self.scratch_blocks:
            for op in block.ops:
                for inner in op.walk():
                    inner.drop_operands()
        self.scratch_blocks = []

    def probe(self, emit, names):
        """The types `names` have after emit() runs, found by emitting into a scratch block
        with this function's diagnostics muted; everything else is restored. (Used to type
        `x = None` variables from their later assignments in a loop.)"""
        saved = (self.b.block, self.b.before, self.b.loc, self.terminated, self.env,
                 len(self.returns), list(self.loops), list(self.handlers),
                 dict(self.local_metas), self.c.mute_depth, self.probing, self.static_exit)
        self.env = self.env.copy()
        self.c.mute_depth = len(self.c.compiling)
        self.probing = True
        self.scratch()
        try:
            found = dict(emit() or {})  # types seen on exits (break, continue) by emit
            if not self.terminated:
                for name in names:
                    var = self.env.get(name)
                    if var is not None and var.defined and var.value is not None:
                        t = var.value.type
                        found[name] = T.join(found[name], t) or t if name in found else t
            return found
        finally:
            (self.b.block, self.b.before, self.b.loc, self.terminated, self.env, n,
             self.loops, self.handlers, self.local_metas, self.c.mute_depth,
             self.probing, self.static_exit) = saved
            del self.returns[n:]

    # -- the function -----------------------------------------------------------------------------
    def run(self) -> FuncOp:
        if self.node.is_async:
            self.unsupported("'async def' is not supported (ember has no coroutines)",
                             self.node.name_span or self.node.span)
        names, types, defaults, ret = self.signature()
        self.declared_ret = ret
        loc = Loc.of_span(self.node.name_span or self.node.span)
        ftype = T.FunctionType(tuple(types), ret or T.NONE)
        from ember.frontend.enums import MemberDefault
        last = max((i for i, d in enumerate(defaults) if isinstance(d, MemberDefault)),
                   default=-1)  # the entry's defaults are constants: they stop before it
        f = FuncOp(self.info.symbol, ftype, loc, names, defaults[last + 1:])
        self.info.func = f
        self.c.module.add_func(f)
        for name, arg in zip(names, f.args):
            self.env.set(name, Var(arg.type, arg, True, declared=True, frame=f.body))
        self.b.set_insertion_end(f.body)
        for name, arg in zip(names, f.args):
            if name in self.boxed and name not in self.own_nonlocals:
                self.write_boxed(name, arg, self.node.span, arg.type)
        self.c.compiling.append(function_label(self.info))
        try:
            if is_unused(self.info):
                self.emit_unused()
            else:
                self.emit_body(self.node.body)
            self.finish(f)
        finally:
            self.c.compiling.pop()
        self.discard_scratch()
        return f

    def emit_unused(self) -> None:
        """The body of a @torch.jit.unused function: a raise, as in TorchScript (the body is
        not compiled, so it may hold code ember cannot compile)."""
        span = self.node.name_span or self.node.span
        name = function_label(self.info).removeprefix("function ")
        msg = self.b.const(f"{name} is decorated with @torch.jit.unused, so it was not "
                           "compiled and cannot be called", T.STR, self.loc(span))
        self.raise_new("RuntimeError", msg, span)

    def signature(self):
        """(names, types, defaults, declared return type or None), cached on the info."""
        if self.info.signature is None:
            from ember.frontend.signature import function_signature
            self.info.signature = function_signature(self)
        names, types, defaults, ret = self.info.signature
        if self.fixed_param_types is not None:
            types = list(self.fixed_param_types)
        return names, types, defaults, ret

    def emit_body(self, stmts) -> None:
        for i, s in enumerate(stmts):
            if self.terminated:
                if not self.static_exit:
                    self.dead_code(stmts[i:])
                return
            self.following.append(stmts[i + 1:])
            try:
                self.stmt(s)
            finally:
                self.following.pop()

    def dead_code(self, stmts) -> None:
        """Statements after a return/break/continue/raise: type-checked in a detached
        block, then dropped; the current block stays terminated."""
        saved = (self.b.block, self.b.before, self.env, len(self.returns),
                 self.b.loc)
        self.env = self.env.copy()
        self.scratch()
        self.dead_depth += 1
        try:
            for s in stmts:
                if self.terminated:
                    self.scratch()
                self.stmt(s)
        finally:
            self.dead_depth -= 1
        self.b.block, self.b.before, self.env, n, self.b.loc = saved
        del self.returns[n:]
        self.terminated, self.static_exit = True, False

    def finish(self, f: FuncOp) -> None:
        """Close the function: implicit `return None`, then fix the return type."""
        if not self.terminated:
            if self.declared_ret is not None and self.declared_ret != T.NONE \
                    and not isinstance(self.declared_ret, ErrorType):
                self.error(f"function '{self.node.name}' is annotated to return "
                           f"{show(self.declared_ret)} but can reach its end without a "
                           "return statement", self.node.name_span or self.node.span)
            else:
                none = self.b.const(None, T.NONE, loc=self.loc(self.node.body[-1].span))
                self.emit_return(none, self.node.body[-1].span)
        ret = self.declared_ret or self.infer_return()
        f.attrs["type"] = T.FunctionType(f.type.params, ret)
        for r in self.returns:
            v = r.operands[0]
            if v.type != ret and not isinstance(v.type, ErrorType):
                self.b.set_insertion_before(r)
                r.set_operand(0, self.coerce(v, ret, None))

    def infer_return(self) -> T.Type:
        types = [r.operands[0].type for r in self.returns
                 if not isinstance(r.operands[0].type, ErrorType)]
        result = T.NONE if not types else types[0]
        for t in types[1:]:
            j = T.join(result, t)
            if j is None and self._returns_any():  # -> Any: whichever type each returns
                from ember.frontend.any_locals import union_of
                j = union_of([result, t])
            if j is None:
                self.error(f"function '{self.node.name}' returns both {show(result)} and "
                           f"{show(t)}; give it one return type (annotate it, converting "
                           "values as needed)", self.node.name_span)
                return result
            result = j
        return result

    def _returns_any(self) -> bool:
        ann = getattr(self.node, "returns", None)
        return isinstance(ann, (A.Name, A.Attribute)) and self.ann._name_of(ann) == "Any"

    def emit_return(self, value: Value, span) -> None:
        op = self.b.create("return", [value], loc=self.loc(span))
        self.returns.append(op)
        self.terminated = True

    def global_meta(self, name: str):
        """What a name means if it is not a local of this function (Python's scoping: a name
        assigned anywhere in the function is local everywhere in it), else None."""
        if name in self.local_names or name in self.local_metas or \
                self.env.get(name) is not None:
            return None
        return self.scope.lookup(name)

    # -- variables --------------------------------------------------------------------------------
    def assigned(self, stmts) -> list[str]:
        """assigned_names(stmts), cached: nested loops ask for the same statements again."""
        key = tuple(map(id, stmts))
        hit = self._assigned_cache.get(key)
        # The statements are kept with the answer: an id is only unique while its object
        # lives, and synthetic statements (inlined generators, any/all loops) are dropped.
        if hit is None or any(a is not b for a, b in zip(hit[0], stmts)):
            hit = self._assigned_cache[key] = (list(stmts), assigned_names(stmts))
        return hit[1]

    def read_var(self, name: str, span) -> Value | None:
        if name in self.globals_written:
            from ember.frontend.globals_ import read_global
            return read_global(self, name, span)
        if name in self.boxed:
            return self.read_boxed(name, span)
        var = self.env.get(name)
        if name in self.escaped and (var is None or not var.defined and var.slot is None):
            # kept after a loop inside another loop or branch: its flag knows if it is bound
            return self.read_checked(name, self.escaped[name], span)
        if var is None:
            return None
        if var.bound is not None and var.slot is not None and var.narrowed is None:
            return self.read_checked(name, var, span)
        if not var.defined and self.dead_depth:
            return Poison()  # unreachable: CPython never reads it
        if not var.defined and type(var.why).__name__ == "TypeConflict":
            return self.error(str(var.why), span, TypeCheckError)
        if not var.defined:
            why = var.why or "it is not assigned on every path that reaches this line"
            return self.error(f"variable '{name}' may be undefined here ({why})", span,
                              NameResolutionError)
        if var.slot is not None:
            if var.narrowed is not None:
                return var.narrowed
            slot = slot_value(var.slot)
            if slot is None and self.dead_depth:
                return Poison()
            if slot is None:
                return self.error(f"variable '{name}' may be undefined here", span,
                                  NameResolutionError)
            return self.b.create("var.get", [slot], [var.type], loc=self.loc(span),
                                 names=ir_names([name])).result
        return var.value

    def read_boxed(self, name, span) -> Value:
        box = self.env.get(box_name(name))
        if box is None or not box.defined:
            return self.error(f"variable '{name}' may be undefined here", span,
                              NameResolutionError)
        v = self.read_var(box_name(name), span)
        if isinstance(v.type, ErrorType):
            return v
        return self.b.kernel("list.getitem", [v, self.b.const(0, T.I64, self.loc(span))],
                             v.type.elem, self.loc(span))

    def write_boxed(self, name, value, span, declared_type) -> None:
        """Assign a variable shared by `nonlocal`: the first assignment makes its box."""
        box = self.env.get(box_name(name))
        loc = self.loc(span)
        if box is None or not box.defined:
            t = declared_type or self._var_type(value)
            value = self.narrow_or_coerce(value, t, span, name)
            if value.type != t:
                value = self.coerce(value, t, span)
            lst = self.b.create("list.new", [value], [T.ListType(t)], loc=loc).result
            self.env.set(box_name(name), Var(T.ListType(t), lst, True, declared=True,
                                             span=span))
            return
        v = self.read_var(box_name(name), span)
        if isinstance(v.type, ErrorType):
            return
        value = self.coerce(value, v.type.elem, span, what=f"variable '{name}'")
        self.b.kernel("list.setitem", [v, self.b.const(0, T.I64, loc), value], T.NONE, loc)

    def read_checked(self, name, var, span) -> Value:
        """A variable Python may have left unbound (first assigned in a loop that may not
        have run): raise UnboundLocalError unless its flag says it was assigned."""
        loc = self.loc(span)
        flag = self.b.create("var.get", [var.bound], [T.BOOL], loc=loc).result
        then_r, else_r = Region(), Region()
        self.b.create("if", [flag], [], regions=[then_r, else_r], loc=loc)
        with self.at(then_r.block):
            self.b.yield_([], loc)
        with self.at(else_r.block):
            msg = self.b.const(f"cannot access local variable '{name}' where it is not "
                               "associated with a value", T.STR, loc)
            self.raise_new("UnboundLocalError", msg, span)
        self.terminated = False
        return self.b.create("var.get", [var.slot], [var.type], loc=loc,
                             names=ir_names([name])).result

    def keep_outer_narrowed(self, before) -> None:
        """After a structured statement: keep only the refined reads made before it (one
        made inside a branch is a value of that branch's region)."""
        for name, var in list(self.env.vars.items()):
            if var.narrowed is not None:
                outer = before.get(name)
                if outer is None or outer.narrowed is not var.narrowed:
                    self.env.mut(name).narrowed = None

    def forget_narrowed(self) -> None:
        """Drop the refined reads of slot variables (a loop or try statement begins: the slot
        may change between one read and the next)."""
        for name, var in list(self.env.vars.items()):
            if var.narrowed is not None:
                self.env.mut(name).narrowed = None

    def write_var(self, name: str, value: Value, span, declared_type=None) -> None:
        """Bind name to value (checking it against the variable's type)."""
        if name in self.globals_written:
            from ember.frontend.globals_ import write_global
            return write_global(self, name, value, span)
        if name in self.boxed:
            return self.write_boxed(name, value, span, declared_type)
        var = self.env.get(name)
        if name in self.escaped and (var is None or not var.defined and var.slot is None):
            # kept after a loop (a for-else's else assigning it): written through its slot,
            # so that a read after the branches sees this assignment too
            self.env.set(name, self.escaped[name])
        var = self.env.mut(name)
        if var is not None and isinstance(var.slot, PendingSlot) and var.type is None and \
                var.slot.value is not None:
            var.type = var.slot.value.type.elem  # typed by an assignment on another path
        if declared_type is not None:
            if var is not None and var.declared and var.type != declared_type:
                self.error(f"variable '{name}' is annotated twice with different types "
                           f"({show(var.type)} and {show(declared_type)})", span)
            value = self.narrow_or_coerce(value, declared_type, span, name)
            if var is None or var.slot is None:
                self.env.set(name, Var(declared_type, self._named(value, name), True,
                                       declared=True, span=span))
                return
            var.type, var.declared = declared_type, True
        elif var is None or var.type is None or (var.type == T.NONE and not var.declared
                                                  and var.slot is None):
            if var is None or var.slot is None:
                self.env.set(name, Var(self._var_type(value), self._named(value, name), True,
                                       span=span, frame=self.b.block))
                return
            var.type = self._var_type(value)
        elif self._rebinds(var, value):
            self.env.set(name, Var(self._var_type(value), self._named(value, name), True,
                                   span=span, frame=self.b.block))
            return
        else:
            value = self.narrow_or_coerce(value, var.type, span, name)
        var = self.env.mut(name)
        if var.slot is not None:
            value = self.coerce(value, var.type, span)
            slot = self.ensure_slot(var, name, span)
            self.b.create("var.set", [slot, value], loc=self.loc(span))
            if var.bound is not None:
                self.b.create("var.set", [var.bound, self.b.const(True, T.BOOL,
                                                                  self.loc(span))],
                              loc=self.loc(span))
            var.narrowed = None
            var.defined = True
        else:
            var.value, var.defined = self._named(value, name), True

    def _rebinds(self, var, value) -> bool:
        """Whether assigning value makes a new variable of its own type: the value does not
        fit the variable's type, and the variable was bound in this block, not in an
        enclosing one (TorchScript's rule: `x = conv(x)` then `x = [x, y]`). Numbers keep
        their type: `y = 1.5` then `y = n` stays an error asking for float(n)."""
        return var.frame is not None and var.frame is self.b.block and var.slot is None \
            and not T.is_subtype(value.type, var.type) \
            and not (value.type in _NUMBERS and var.type in _NUMBERS) \
            and not isinstance(value.type, ErrorType) and not isinstance(var.type, ErrorType)

    def narrow_or_coerce(self, value, want, span, name):
        """An assigned value keeps its narrower type (flow-sensitive typing: after
        `x = 3`, an Optional[int] x is an int); other values convert to the type."""
        if value.type != want and T.is_subtype(value.type, want):
            return value
        return self.coerce(value, want, span, what=f"variable '{name}'")

    def ensure_slot(self, var, name, span):
        """The var.new value of a slot-backed variable, creating a pending slot's op."""
        slot = var.slot
        if not isinstance(slot, PendingSlot):
            return slot
        if slot.value is None:
            from ember.ir.ops import VarNewOp
            op = VarNewOp([], [T.VarType(var.type)], None, (), self.loc(span), ir_names([name]))
            slot.block.append(op)
            slot.value = op.result
        return slot.value

    def _var_type(self, value):
        """A variable's static type from its first value: tensors are just Tensor (their
        dtype/shape is flow-sensitive knowledge about each value, as in TorchScript)."""
        return erase_tensor_info(value.type)

    def _named(self, value: Value, name: str) -> Value:
        op = getattr(value, "op", None)
        if op is not None and op.name in ("list.new", "dict.new"):
            op.meta["settled"] = True  # a variable's list keeps its type
        if isinstance(value, (OpResult, BlockArg)) and value.name is None and \
                not name.startswith("$"):
            value.name = name
        return value

    # -- conversions ------------------------------------------------------------------------------
    def tuple_to_list(self, v, want, loc):
        """A new list of a tuple's items, for a List[E] (or Optional[List[E]]) that every
        item converts to; None otherwise."""
        lt = _list_member(want)
        if lt is None or not all(T.is_subtype(e, lt.elem) or (e, lt.elem) in _NUMERIC_CONV
                                 for e in v.type.elems):
            return None
        items = []
        for i, e in enumerate(v.type.elems):
            item = self.b.create("tuple.get", [v], [e], {"index": i}, loc=loc).result
            items.append(self.coerce(item, lt.elem, None, convert=True))
        return self.b.create("list.new", items, [lt], loc=loc).result

    def coerce(self, v: Value, want: T.Type, span, what: str = "value",
               convert: bool = False) -> Value:
        """v as a `want` (widening), or an error at span.

        Numbers convert (bool -> int -> float, PEP 484's numeric tower) only with
        `convert`: call arguments, or internal paths (span None). A value *stored*
        (assigned, returned, put in a container or field, joined with another
        branch) must already have the type, as in TorchScript: `x: float = 1` is an
        error asking for 1.0 — Python would keep the int, so converting silently
        would make results differ from CPython's.
        """
        got = v.type
        if got == want or isinstance(got, ErrorType) or isinstance(want, ErrorType):
            return v
        if _is_fresh_empty(v, want):
            v.type = want  # an empty [] or {} takes the type its context expects
            return v
        loc = self.loc(span) if span is not None else self.b.loc
        if T.is_subtype(got, want):  # incl. a known tensor type to a less known one
            return self.b.insert(WidenOp([v], [want], None, (), loc)).result
        convert = convert or span is None
        conv = _NUMERIC_CONV.get((got, want))
        if conv is not None and convert:
            return self.b.kernel(conv, [v], want, loc)
        if isinstance(want, (T.OptionalType, T.UnionType)) and convert:
            for m in T.members(want):
                if (got, m) in _NUMERIC_CONV:
                    return self.coerce(self.coerce(v, m, span, what, True), want, span, what)
        if convert and isinstance(got, T.TupleType):
            lst = self.tuple_to_list(v, want, loc)
            if lst is not None:  # a tuple for a List parameter: a list (TorchScript)
                return self.coerce(lst, want, span, what)
        if span is None:
            return v
        return self.error(f"{what} has type {show(want)}, but is given a value of type "
                          f"{show(got)}{conversion_hint(got, want)}", span)


def _list_member(want):
    return next((m for m in T.members(want) if isinstance(m, T.ListType)), None)


def erase_tensor_info(t: T.Type) -> T.Type:
    """t with every tensor type made the plain `tensor` (for variable and field types)."""
    if isinstance(t, T.TensorType):
        return T.TENSOR
    if isinstance(t, T.ListType) and isinstance(t.elem, T.TensorType):
        return type(t)(T.TENSOR)  # a list, or a tuple of run-time length
    if isinstance(t, T.DictType) and isinstance(t.value, T.TensorType):
        return T.DictType(t.key, T.TENSOR)
    if isinstance(t, T.TupleType) and any(isinstance(e, T.TensorType) for e in t.elems):
        return T.TupleType(tuple(erase_tensor_info(e) for e in t.elems))
    if isinstance(t, T.OptionalType) and isinstance(t.elem, T.TensorType):
        return T.OptionalType(T.TENSOR)
    return t


def conversion_hint(got: T.Type, want: T.Type) -> str:
    """'; convert it with float(...)' when an explicit conversion would fix a mismatch."""
    targets = [m for m in T.members(want) if (got, m) in _NUMERIC_CONV]
    if not targets:
        return ""
    name = show(targets[0])
    return (f"; convert it explicitly with {name}(...) (ember keeps Python's number types "
            "and converts only in arithmetic)")


def _is_fresh_empty(v, want) -> bool:
    """An empty [] / {} literal not yet bound to a variable: it takes its context's type."""
    op = getattr(v, "op", None)
    return (op is not None and not op.operands and not v.uses and
            not op.meta.get("settled") and
            ((op.name == "list.new" and isinstance(want, T.ListType)) or
             (op.name == "dict.new" and isinstance(want, T.DictType))))


_NUMBERS = (T.BOOL, T.I64, T.F64, T.C128)

_NUMERIC_CONV = {
    (T.I64, T.F64): "int.to_float", (T.BOOL, T.I64): "bool.to_int",
    (T.BOOL, T.F64): "bool.to_float", (T.I64, T.C128): "int.to_complex",
    (T.F64, T.C128): "float.to_complex", (T.BOOL, T.C128): "bool.to_complex",
}


__all__ = ["FunctionEmitter", "Poison", "is_poison", "CompileError"]
