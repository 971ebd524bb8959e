"""Conditions: truthiness, and the type refinements a condition proves on each branch.

`x is not None`, `x is None`, `isinstance(x, T)`, `not`, `and`, `or` and
plain truthiness of an Optional refine *local variables* (TorchScript's rule:
copy an attribute to a local first). A Cond carries the bool value and the
facts (name -> narrowed type) true on its then- and else-branches.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ember.frontend import ast as A
from ember.frontend.env import ir_names
from ember.frontend.meta import MBuiltin
from ember.frontend.typing_ import ErrorType, show
from ember.ir import Region
from ember.ir import types as T


@dataclass
class Cond:
    value: object
    true: dict = field(default_factory=dict)
    false: dict = field(default_factory=dict)
    const: bool | None = None
    check_dead: bool = False
    """With `const`: the branch that cannot run is still type-checked (and dropped), so
    what it would tell about types (a comprehension's element type) is not lost."""


def _constant_condition(v):
    """The value of a bool condition computed from constants only (a comparison of module
    constants or literals), else None: only the branch that can run is compiled, so
    module code may specialize on its constants as TorchScript's does."""
    if v.type != T.BOOL:
        return None
    from ember.frontend.tensors import _const_value
    value = _const_value(v)
    return value if type(value) is bool else None


_SCRIPTING_QUERIES = frozenset({"jit.is_scripting", "jit.is_tracing"})
"""Operators whose constant answer marks the other branch as not meant to compile."""


def _static_none_test(v, op):
    """The value of `x is None` / `x is not None` when x's type decides it (x of type None,
    or of a type without None such as a module or a tensor): TorchScript's rule that lets
    `if self.downsample is not None:` skip the branch when the submodule is None."""
    compare = getattr(v, "op", None)
    if compare is None or compare.name not in ("obj.is", "obj.isnot") or \
            len(compare.operands) != 2:
        return None
    a, b = (x.type for x in compare.operands)
    if T.NONE not in (a, b) or any(isinstance(t, ErrorType) for t in (a, b)):
        return None
    other = b if a == T.NONE else a
    if other == T.NONE:
        result = True
    elif T.NONE not in T.members(other) and not isinstance(other, T.UnionType):
        result = False
    else:
        return None
    return result if op == "is" else not result


def _static_bool(v):
    """True or False if v is a bool constant (a test the types decided), else None."""
    op = getattr(v, "op", None)
    if op is None or op.name != "const" or v.type != T.BOOL:
        return None
    value = op.attrs.get("value")
    return value if isinstance(value, bool) else None


class RefineMixin:
    def condition(self, node) -> Cond:
        """The bool value of a test expression and what it proves on each branch."""
        if isinstance(node, A.UnaryOp) and node.op == "not":
            inner = self.condition(node.operand)
            loc = self.loc(node)
            v = self.b.kernel("bool.not", [inner.value], T.BOOL, loc) \
                if not isinstance(inner.value.type, ErrorType) else inner.value
            return Cond(v, inner.false, inner.true,
                        None if inner.const is None else not inner.const, inner.check_dead)
        if isinstance(node, A.Compare) and len(node.ops) == 1 and node.ops[0] in ("is", "is not"):
            return self.is_none_condition(node)
        if isinstance(node, A.Call) and isinstance(node.func, A.Name) \
                and node.func.id == "isinstance" and len(node.args) == 2 \
                and isinstance(self.global_meta("isinstance"), MBuiltin):
            return self.isinstance_condition(node)
        if isinstance(node, A.Call) and len(node.args) == 2 and isinstance(
                node.func, A.Attribute) and node.func.attr == "isinstance" and \
                _is_torch_jit(node.func.value):
            return self.isinstance_condition(node)
        if isinstance(node, A.BoolOp):
            return self.boolop_condition(node)
        if isinstance(node, A.Name):
            var = self.env.get(node.id)
            if var is not None and var.defined and isinstance(var.type, T.OptionalType):
                v = self.value(node)
                return self.optional_truth(node, v)
        v = self.value(node)
        known = _constant_condition(v)
        if known is not None:  # `self.padding_mode != "zeros"` of module constants
            # `if not torch.jit.is_scripting():` guards code meant never to be compiled.
            return Cond(v, const=known, check_dead=v.op.name not in _SCRIPTING_QUERIES)
        truth = self.truth(v, node)
        known = _constant_condition(truth) if truth is not v else None
        if known is not None:  # `if not reason:` of a string the branches above decided
            return Cond(truth, const=known)
        return Cond(truth)

    def optional_truth(self, node, v):
        loc = self.loc(node)
        none = self.b.const(None, T.NONE, loc)
        not_none = self.b.kernel("obj.isnot", [v, none], T.BOOL, loc)
        inner_t = v.type.elem
        if inner_t in (T.I64, T.F64, T.STR, T.BOOL) or isinstance(inner_t, (T.ListType,
                                                                             T.DictType)):
            then_r, else_r = Region(), Region()
            op = self.b.create("if", [not_none], [T.BOOL], regions=[then_r, else_r], loc=loc)
            with self.at(then_r.block):
                narrowed = self.b.create("narrow", [v], [inner_t], loc=loc).result
                self.b.yield_([self.truth(narrowed, node)], loc)
            with self.at(else_r.block):
                self.b.yield_([self.b.const(False, T.BOOL, loc)], loc)
            return Cond(op.result, {node.id: inner_t}, {})
        return Cond(not_none, {node.id: inner_t}, {})

    def is_none_condition(self, node) -> Cond:
        left, right = node.left, node.comparators[0]
        v = self.value(node)
        static = _static_none_test(v, node.ops[0])
        if static is not None and not self._optional_local(left, right):
            return Cond(v, const=static)
        name = None
        if isinstance(right, A.Constant) and right.value is None and isinstance(left, A.Name):
            name = left.id
        elif isinstance(left, A.Constant) and left.value is None and isinstance(right, A.Name):
            name = right.id
        if name is None:
            return Cond(v)
        var = self.env.get(name)
        if var is None or not var.defined or var.value is None and var.slot is None:
            return Cond(v)
        cur = var.value.type if var.value is not None else var.type
        members = [m for m in T.members(cur) if m != T.NONE]
        if not members and cur == T.NONE:
            # The value is None here, so the not-None branch is dead; it still type-checks
            # with the declared type (`x: Optional[int] = None; x if x is not None else 0`).
            members = [m for m in T.members(var.type) if m != T.NONE]
        not_none = T.make_union(members) if members else None
        facts_not = {name: not_none} if not_none is not None and cur != not_none else {}
        facts_none = {name: T.NONE} if T.NONE in T.members(cur) and cur != T.NONE else {}
        if node.ops[0] == "is not":
            return Cond(v, facts_not, facts_none)
        return Cond(v, facts_none, facts_not)

    def _optional_local(self, left, right) -> bool:
        """`x is None` on a local whose variable type admits None: its current value's type
        (None after `x: Optional[T] = None`) must not decide the branch statically; the
        refinement gives the other branch the variable's other types."""
        for n in (left, right):
            if isinstance(n, A.Name):
                var = self.env.get(n.id)
                if var is not None and var.type is not None and \
                        T.NONE in T.members(var.type) and var.type != T.NONE:
                    return True
        return False

    def isinstance_condition(self, node) -> Cond:
        v = self.value(node)
        const = _static_bool(v)  # decided by the types: only the branch that runs is compiled
        target = node.args[0]
        if not isinstance(target, A.Name) or isinstance(v.type, ErrorType):
            return Cond(v, const=const)
        var = self.env.get(target.id)
        if var is None or not var.defined:
            return Cond(v, const=const)
        cur = var.value.type if var.value is not None else var.type
        want = self.isinstance_types(node.args[1], cur)
        yes = [m for m in T.members(cur) if any(T.is_subtype(m, w) for w in want)]
        no = [m for m in T.members(cur) if m not in yes]
        t_yes = T.make_union(yes) if yes else None
        t_no = T.make_union(no) if no else None
        return Cond(v, {target.id: t_yes} if t_yes and t_yes != cur else {},
                    {target.id: t_no} if t_no and t_no != cur else {}, const)

    def boolop_condition(self, node) -> Cond:
        """`a and b` / `a or b` as a condition: short-circuit, keeping refinements."""
        loc = self.loc(node)
        is_and = node.op == "and"
        first = self.condition(node.values[0])
        if len(node.values) == 1:
            return first
        rest = A.BoolOp(node.values[1].span.to(node.values[-1].span), node.op, node.values[1:])
        if first.const is not None:  # decided by types: the other side is not compiled
            if first.const != is_and:
                return Cond(self.b.const(first.const, T.BOOL, loc), const=first.const,
                            check_dead=first.check_dead)
            self.apply_facts(first.true if is_and else first.false)
            return self.condition(rest)
        then_r, else_r = Region(), Region()
        before = self.env
        facts_rest = None
        eval_region, short_region = (then_r, else_r) if is_and else (else_r, then_r)
        self.env = before.copy()
        with self.at(eval_region.block):
            self.apply_facts(first.true if is_and else first.false)
            second = self.condition(rest)
            facts_rest = second
            self.b.yield_([self.as_bool(second.value)], loc)
        self.env = before
        with self.at(short_region.block):
            self.b.yield_([self.b.const(not is_and, T.BOOL, loc)], loc)
        cond = self.as_bool(first.value)
        op = self.b.create("if", [cond], [T.BOOL], regions=[then_r, else_r], loc=loc)
        if is_and:
            return Cond(op.result, {**first.true, **facts_rest.true}, {})
        return Cond(op.result, {}, {**first.false, **facts_rest.false})

    def as_bool(self, v):
        return v

    # -- applying facts ------------------------------------------------------------------------
    def apply_facts(self, facts: dict) -> None:
        """Rebind refined variables to narrowed values at the start of a branch."""
        for name, t in facts.items():
            var = self.env.get(name)
            if var is None or not var.defined or t is None:
                continue
            if var.slot is not None:
                self._narrow_slot(name, t)
                continue
            cur = var.value
            if cur.type == t or isinstance(cur.type, ErrorType):
                continue
            if cur.type == T.NONE and t != T.NONE and T.is_subtype(t, var.type):
                # A None value refined to the declared type's other members (dead branch).
                cur = self.b.create("widen", [cur], [var.type], loc=self.b.loc).result
            if T.is_subtype(t, cur.type) or t == T.NONE or isinstance(cur.type, (T.OptionalType,
                                                                                 T.UnionType)):
                var = self.env.mut(name)
                var.value = self.b.create("narrow", [cur], [t], loc=self.b.loc,
                                          names=ir_names([name])).result

    def _narrow_slot(self, name, t) -> None:
        """A slot-backed variable refined: read it once here and narrow that value."""
        cur = self.read_var(name, self.node.span)
        if cur is None or isinstance(cur.type, ErrorType) or cur.type == t:
            return
        if T.is_subtype(t, cur.type) or isinstance(cur.type, (T.OptionalType, T.UnionType)):
            self.env.mut(name).narrowed = self.b.create(
                "narrow", [cur], [t], loc=self.b.loc, names=ir_names([name])).result

    def apply_facts_after(self, facts):
        """After `assert cond`, the facts of cond hold (the other path raised)."""
        self.apply_facts(facts)

    # -- truthiness -------------------------------------------------------------------------------
    def truth(self, v, node):
        """bool(v) as Python computes it."""
        t = v.type
        loc = self.loc(node)
        if t == T.BOOL or isinstance(t, ErrorType):
            return v
        if t == T.I64:
            return self.b.kernel("int.ne", [v, self.b.const(0, T.I64, loc)], T.BOOL, loc)
        if t == T.F64:
            return self.b.kernel("float.ne", [v, self.b.const(0.0, T.F64, loc)], T.BOOL, loc)
        if t == T.C128:
            return self.b.kernel("complex.to_bool", [v], T.BOOL, loc)
        if t == T.NONE:
            return self.b.const(False, T.BOOL, loc)
        if t in (T.STR,) or isinstance(t, (T.ListType, T.DictType)):
            kind = {T.STR: "str"}.get(t, "list" if isinstance(t, T.ListType) else "dict")
            n = self.b.kernel(f"{kind}.len", [v], T.I64, loc)
            return self.b.kernel("int.ne", [n, self.b.const(0, T.I64, loc)], T.BOOL, loc)
        if isinstance(t, T.TupleType):
            return self.b.const(bool(t.elems), T.BOOL, loc)
        if isinstance(t, T.SetType):
            from ember.frontend import sets
            return sets.truth(self, v, node)
        if isinstance(t, T.IterType):
            return self.b.const(True, T.BOOL, loc)
        if isinstance(t, T.OptionalType):
            return self.optional_truth_value(v, node)
        if isinstance(t, T.TensorType):
            return self.call_python_op("Tensor.__bool__", [v], node)
        if isinstance(t, T.ClassType):
            from ember.frontend.classes import call_dunder, dunder
            for name in ("__bool__", "__len__"):
                m = dunder(self, t, name)
                if m is not None:
                    r = call_dunder(self, m, v, [], node)
                    return self.truth(r, node) if name == "__bool__" else \
                        self.b.kernel("int.ne", [r, self.b.const(0, T.I64, loc)], T.BOOL, loc)
        if isinstance(t, (T.ClassType, T.FunctionType)) or t == T.EXC:
            return self.b.const(True, T.BOOL, loc)
        return self.error(f"a value of type {show(t)} cannot be used as a condition", node.span)

    def optional_truth_value(self, v, node):
        loc = self.loc(node)
        none = self.b.const(None, T.NONE, loc)
        not_none = self.b.kernel("obj.isnot", [v, none], T.BOOL, loc)
        then_r, else_r = Region(), Region()
        op = self.b.create("if", [not_none], [T.BOOL], regions=[then_r, else_r], loc=loc)
        with self.at(then_r.block):
            narrowed = self.b.create("narrow", [v], [v.type.elem], loc=loc).result
            self.b.yield_([self.truth(narrowed, node)], loc)
        with self.at(else_r.block):
            self.b.yield_([self.b.const(False, T.BOOL, loc)], loc)
        return op.result


def _is_torch_jit(node) -> bool:
    """`torch.jit` (or `jit`) as written before `.isinstance`."""
    if isinstance(node, A.Attribute):
        return node.attr == "jit" and isinstance(node.value, A.Name) and \
            node.value.id == "torch"
    return isinstance(node, A.Name) and node.id == "jit"
