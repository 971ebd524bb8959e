"""Sets: `Set[T]` values, literals, comprehensions, `set(...)`, the operators and methods.

A set's elements are hashable values ember compares by value: int, float, bool, str,
complex, None and tuples of those. At run time a set is CPython's own set, built by the
same sequence of operations CPython performs for the same code (ember.ops.scalar_sets),
so iterating it, printing it and everything derived from its order (list(s), a for loop,
s.pop()) give CPython's result.
"""

from __future__ import annotations

import operator

from ember.frontend import ast as A
from ember.frontend.typing_ import ErrorType, show
from ember.ir import types as T

_BINOPS = {"|": "or", "&": "and", "-": "sub", "^": "xor"}
_COMPARE = {"==": "eq", "!=": "ne", "<": "lt", "<=": "le", ">": "gt", ">=": "ge"}


def hashable(t) -> bool:
    """Whether set elements (and dict keys compared by value) may have type t."""
    if t in (T.I64, T.F64, T.BOOL, T.STR, T.C128, T.NONE):
        return True
    if isinstance(t, T.TupleType):
        return all(hashable(e) for e in t.elems)
    if isinstance(t, T.VarTupleType):
        return hashable(t.elem)
    if isinstance(t, (T.OptionalType, T.UnionType)):
        return all(hashable(m) for m in T.members(t))
    return False


def check_elem(em, elem, span) -> bool:
    if isinstance(elem, ErrorType) or hashable(elem):
        return True
    em.error(f"a set's elements must be hashable values (int, float, bool, str, complex, "
             f"None or tuples of those), not {show(elem)}", span)
    return False


def e_Set(em, node, expected):
    """`{a, b, c}`: the elements evaluated left to right, then added in order (CPython's
    BUILD_SET); three or more constants are added from a frozenset, as CPython compiles
    such a literal. Starred elements add the items of their iterables, in order."""
    want = T.ListType(expected.elem) if isinstance(expected, T.SetType) else None
    items = em.value(A.List(node.span, list(node.elts)), want)
    return _from_items(em, items, node, constants=len(node.elts) >= 3 and all(
        folded_constant(e) is not _NOT_CONSTANT for e in node.elts))


_NOT_CONSTANT = object()
_FOLD_BINOPS = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv,
           "//": operator.floordiv, "%": operator.mod, "**": operator.pow,
           "<<": operator.lshift, ">>": operator.rshift, "&": operator.and_,
           "|": operator.or_, "^": operator.xor}
_FOLD_UNARY = {"-": operator.neg, "+": operator.pos, "~": operator.invert, "not": operator.not_}


def folded_constant(e):
    """e's value if CPython's AST optimizer folds e into a constant (literals, and unary
    and binary operators on folded numbers and tuples of them), else _NOT_CONSTANT: a set
    literal of three or more such elements is compiled from a frozenset."""
    if isinstance(e, A.Constant):
        return e.value
    if isinstance(e, A.Tuple):
        vals = [folded_constant(x) for x in e.elts]
        return _NOT_CONSTANT if any(v is _NOT_CONSTANT for v in vals) else tuple(vals)
    if isinstance(e, A.UnaryOp) and e.op in _FOLD_UNARY:
        v = folded_constant(e.operand)
        return _NOT_CONSTANT if v is _NOT_CONSTANT else _safely(_FOLD_UNARY[e.op], v)
    if isinstance(e, A.BinOp) and e.op in _FOLD_BINOPS:
        a, b = folded_constant(e.left), folded_constant(e.right)
        if a is _NOT_CONSTANT or b is _NOT_CONSTANT:
            return _NOT_CONSTANT
        if not all(isinstance(v, (int, float)) for v in (a, b)):
            return _sequence_fold(e.op, a, b)
        if _too_big(e.op, a, b):
            return _NOT_CONSTANT
        return _safely(_FOLD_BINOPS[e.op], a, b)
    return _NOT_CONSTANT


def _sequence_fold(op, a, b):
    """str and tuple + and * as CPython's optimizer folds them (4096 characters, 256
    items at most)."""
    seq = (str, tuple)
    if op == "+" and type(a) is type(b) and isinstance(a, seq):
        r = a + b
    elif op == "*" and isinstance(a, seq) and type(b) is int:
        r = a * b if len(a) * max(b, 0) <= (4096 if type(a) is str else 256) else None
    elif op == "*" and isinstance(b, seq) and type(a) is int:
        return _sequence_fold(op, b, a)
    else:
        return _NOT_CONSTANT
    if r is None or len(r) > (4096 if type(r) is str else 256):
        return _NOT_CONSTANT
    return r


def _too_big(op, a, b) -> bool:
    """CPython's limits on folding ints (safe_multiply, safe_power, safe_lshift: 128
    bits)."""
    if op == "*" and isinstance(a, int) and isinstance(b, int) and a and b:
        return a.bit_length() + b.bit_length() > 128
    if not (isinstance(a, int) and isinstance(b, int) and a and b > 0):
        return False
    va = a.bit_length()
    if op == "**":
        return va > 128 // b
    if op == "<<":
        return b > 128 or va > 128 - b
    return False


def _safely(fn, *vals):
    try:
        v = fn(*vals)
    except (ArithmeticError, ValueError, TypeError):
        return _NOT_CONSTANT
    return v


def e_SetComp(em, node, expected):
    """`{f(x) for x in xs}`: the elements in order (a list comprehension's), then added."""
    want = T.ListType(expected.elem) if isinstance(expected, T.SetType) else None
    items = em.value(A.ListComp(node.span, node.elt, node.generators), want)
    return _from_items(em, items, node)


def _from_items(em, items, node, constants=False):
    if isinstance(items.type, ErrorType):
        return items
    elem = items.type.elem
    check_elem(em, elem, node.span)
    kernel = "set.from_constants" if constants else "set.from_list"
    return em.b.kernel(kernel, [items], T.SetType(elem), em.loc(node))


def b_set(em, node, expected):
    """set(), set(iterable): a copy of a set (CPython copies its table), the characters
    of a str, else the iterable's items added in order."""
    from ember.frontend.builtins_ import materialize
    if node.keywords or len(node.args) > 1:
        return em.error("set() takes at most one positional argument", node.span)
    loc = em.loc(node)
    if not node.args:
        if not isinstance(expected, T.SetType):
            expected = _infer_empty(em, node)
        if not isinstance(expected, T.SetType):
            return em.error("the element type of an empty set() is unknown here: annotate the "
                            "variable (s: Set[int] = set())", node.span)
        check_elem(em, expected.elem, node.span)
        return em.b.kernel("set.empty", [], expected, loc)
    arg = node.args[0]
    if isinstance(arg, (A.List, A.Tuple)) and not arg.elts and isinstance(expected, T.SetType):
        return em.b.kernel("set.empty", [], expected, loc)
    v = None
    if not isinstance(arg, (A.GeneratorExp, A.ListComp, A.Call, A.List, A.Tuple)):
        v = em.value(arg)
        if isinstance(v.type, ErrorType):
            return v
        if isinstance(v.type, T.SetType):
            return em.b.kernel("set.copy", [v], v.type, loc)
        if v.type == T.STR:
            return em.b.kernel("set.from_str", [v], T.SetType(T.STR), loc)
    if v is not None:
        from ember.frontend.builtins_ import hidden_name
        from ember.frontend.env import Var
        name = hidden_name("it")
        em.env.set(name, Var(v.type, v, True))
        try:
            items = materialize(em, A.Name(arg.span, name))
        finally:
            em.env.pop(name)
    else:
        items = materialize(em, arg)
    if isinstance(items.type, ErrorType):
        return items
    if not isinstance(items.type, T.ListType):
        return em.error(f"set() of {show(items.type)} is not supported", arg.span)
    if isinstance(expected, T.SetType) and items.type.elem != expected.elem and \
            not items.op.operands and items.op.name == "list.new":
        items.type = T.ListType(expected.elem)
    return _from_items(em, items, node)


def _infer_empty(em, node):
    """The type of `name = set()` (unannotated) from the first `name.add(x)` after it, when
    x's type is known here: a constant, a variable already bound, a `for` target over a
    container bound here, or a tuple of those. None when it cannot be told."""
    from ember.frontend.env import walk
    body = getattr(em.node, "body", None) or []
    target = _assigned_name(em, node)
    if target is None:
        return None
    loops: dict = {}
    for n in walk(A.Module(node.span, body)):
        if isinstance(n, A.For) and isinstance(n.target, (A.Name, A.Tuple)):
            loops.setdefault(_key(n.target), n.iter)
        if isinstance(n, A.Call) and isinstance(n.func, A.Attribute) and \
                n.func.attr == "add" and isinstance(n.func.value, A.Name) and \
                n.func.value.id == target and len(n.args) == 1:
            t = _guess(em, n.args[0], loops, 0)
            return T.SetType(t) if t is not None and hashable(t) else None
    return None


def infer_empty_container(em, node):
    """The type of `name = []` / `name = {}` (unannotated): List[T] from the first
    `name.append(x)` / `name.insert(i, x)` after it, Dict[K, V] from the first
    `name[k] = v`, when the types of x (k, v) can be told here (as for `name = set()`:
    a constant, a variable bound before, a `for` target over range() or over a container
    bound before, simple operators and conversions of those). None when they cannot (the
    TorchScript defaults, List[Tensor] and Dict[str, Tensor], apply)."""
    from ember.frontend.env import walk
    body = getattr(em.node, "body", None) or []
    module = A.Module(node.span, body)
    target = _assigned_name(em, node)
    if target is None:
        return None
    loops: dict = {}
    for n in walk(module):
        if isinstance(n, A.For) and isinstance(n.target, (A.Name, A.Tuple)):
            loops.setdefault(_key(n.target), n.iter)
        if isinstance(n, A.NamedExpr) and isinstance(n.target, A.Name):
            loops.setdefault(("walrus", n.target.id), n.value)
        if isinstance(n, A.FunctionDef):  # a nested def's parameters: their annotations
            for a in n.args:
                ann = getattr(a.annotation, "id", None)
                if ann in _CONVERSIONS and ann != "len":
                    loops.setdefault(("param", a.arg), _CONVERSIONS[ann])
        if isinstance(n, A.Assign) and len(n.targets) == 1 and \
                isinstance(n.targets[0], A.Name) and n.value is not node:
            loops.setdefault(("walrus", n.targets[0].id), n.value)
            if n.targets[0].id == target and type(n.value) is type(node) and \
                    isinstance(node, A.List) and n.value.elts and \
                    not isinstance(n.value.elts[0], A.Starred):  # x = [] ... x = [1, 2]
                t = _guess(em, n.value.elts[0], loops, 0)
                return T.ListType(t) if t is not None else None
        if isinstance(node, A.List) and isinstance(n, A.Call) and \
                isinstance(n.func, A.Attribute) and isinstance(n.func.value, A.Name) and \
                n.func.value.id == target and not n.keywords and \
                (n.func.attr == "append" and len(n.args) == 1 or
                 n.func.attr == "insert" and len(n.args) == 2):
            t = _guess(em, n.args[-1], loops, 0)
            return T.ListType(t) if t is not None else None
        if isinstance(node, A.Dict) and isinstance(n, A.Call) and \
                isinstance(n.func, A.Attribute):
            found = _setdefault_types(em, n, target, loops)
            if found is not None:
                return found
        if isinstance(node, A.Dict) and isinstance(n, A.Assign) and len(n.targets) == 1 and \
                isinstance(n.targets[0], A.Subscript) and \
                isinstance(n.targets[0].value, A.Name) and n.targets[0].value.id == target:
            k = _guess(em, n.targets[0].slice, loops, 0)
            v = _guess(em, n.value, loops, 0)
            if k is None or v is None or not hashable(k):
                return None
            return T.DictType(k, v)
    return None


def probe_stored_type(em, node):
    """For `d = {}` whose key and value types infer_empty_container cannot tell: the types
    of the first `d[k] = v` in a muted probe of the statements after it, or None."""
    from ember.frontend.env import walk
    from ember.frontend.function import erase_tensor_info
    if em.probing or not em.following:
        return None
    target = _assigned_name(em, node)
    if target is None:
        return None
    rest = [st for level in reversed(em.following) for st in level]
    if not any(isinstance(n, A.Assign) and any(
            isinstance(t, A.Subscript) and isinstance(t.value, A.Name) and t.value.id == target
            for t in n.targets) for n in walk(A.Module(node.span, rest))):
        return None
    seen = _probe_following(em, node, target, rest, "dict.new",
                            T.DictType(T.STR, T.TENSOR), ("dict", target))
    if not seen:
        return None
    k, v = seen[0]
    if isinstance(k, ErrorType) or isinstance(v, ErrorType) or not hashable(k) or \
            (k == T.STR and isinstance(v, T.TensorType)):
        return None
    return T.DictType(k, erase_tensor_info(v))


def _probe_following(em, node, target, rest, op, empty_type, key):
    """What a muted probe of the statements `rest` records under `key` (em.append_probe:
    the types stored into target), target bound there to a fresh empty `op` value of
    empty_type (TorchScript's default)."""
    from ember.frontend.env import Var
    seen: list = []

    def emit():
        empty = em.b.create(op, [], [empty_type], loc=em.loc(node)).result
        em.env.set(target, Var(empty_type, empty, True))
        em.append_probe = (key, seen)
        try:
            em.emit_body(rest)
        finally:
            em.append_probe = None
        return {}

    em.probe(emit, [])
    return seen


def _assigned_name(em, node):
    from ember.frontend.env import walk
    body = getattr(em.node, "body", None) or []
    for n in walk(A.Module(node.span, body)):
        if isinstance(n, A.Assign) and n.value is node and len(n.targets) == 1 and \
                isinstance(n.targets[0], A.Name):
            return n.targets[0].id
    return None


def probe_appended_type(em, node):
    """For `xs = []` whose element type infer_empty_container cannot tell: the type of the
    first value given to `xs.append(v)` / `xs.insert(i, v)` when the statements after the
    assignment are emitted in a muted probe (xs a List[Tensor] there), or None. Types a
    list filled from a generator's items, from `.item()` or from a call's result."""
    from ember.frontend.env import walk
    from ember.frontend.function import erase_tensor_info
    if em.probing or not em.following:
        return None
    target = _assigned_name(em, node)
    if target is None:
        return None
    rest = [st for level in reversed(em.following) for st in level]
    if not any(isinstance(n, A.Call) and isinstance(n.func, A.Attribute) and
               n.func.attr in ("append", "insert", "extend") and
               isinstance(n.func.value, A.Name) and
               n.func.value.id == target for n in walk(A.Module(node.span, rest))):
        return None
    seen = _probe_following(em, node, target, rest, "list.new", T.ListType(T.TENSOR), target)
    if not seen or isinstance(seen[0], ErrorType) or seen[0] == T.TENSOR or \
            isinstance(seen[0], T.TensorType):
        return None
    return T.ListType(erase_tensor_info(seen[0]))


def _setdefault_types(em, n, target, loops):
    """Dict[K, V] from `d.setdefault(k, []).append(x)` (V a list of x's type) or
    `d.setdefault(k, v)`, when the types can be told; else None."""
    def is_setdefault(c):
        return isinstance(c, A.Call) and isinstance(c.func, A.Attribute) and \
            c.func.attr == "setdefault" and isinstance(c.func.value, A.Name) and \
            c.func.value.id == target and len(c.args) == 2 and not c.keywords

    inner = n.func.value
    if n.func.attr in ("append", "add") and len(n.args) == 1 and is_setdefault(inner) and \
            isinstance(inner.args[1], (A.List, A.Set)) and not inner.args[1].elts:
        k, x = _guess(em, inner.args[0], loops, 0), _guess(em, n.args[0], loops, 0)
        if k is None or x is None or not hashable(k):
            return None
        return T.DictType(k, T.ListType(x) if n.func.attr == "append" else T.SetType(x))
    if is_setdefault(n) and not (isinstance(n.args[1], (A.List, A.Dict, A.Set)) and
                                 not getattr(n.args[1], "elts", getattr(n.args[1], "keys", 1))):
        k, v = _guess(em, n.args[0], loops, 0), _guess(em, n.args[1], loops, 0)
        if k is not None and v is not None and hashable(k):
            return T.DictType(k, v)
    return None


def _key(target):
    return target.id if isinstance(target, A.Name) else None


_CONVERSIONS = {"int": T.I64, "float": T.F64, "str": T.STR, "bool": T.BOOL, "len": T.I64}


def _guess(em, e, loops, depth):
    from ember.frontend.iterators import elem_type
    if depth > 3:
        return None
    if isinstance(e, A.Constant) and type(e.value) in (int, float, str, bool):
        return {int: T.I64, float: T.F64, str: T.STR, bool: T.BOOL}[type(e.value)]
    if isinstance(e, A.Tuple):
        parts = [_guess(em, x, loops, depth + 1) for x in e.elts]
        return None if None in parts else T.TupleType(tuple(parts))
    if isinstance(e, A.Compare):
        parts = [_guess(em, x, loops, depth + 1) for x in [e.left] + list(e.comparators)]
        return T.BOOL if None not in parts and not any(
            isinstance(p, T.TensorType) for p in parts) else None
    if isinstance(e, A.BinOp):
        a, b = _guess(em, e.left, loops, depth + 1), _guess(em, e.right, loops, depth + 1)
        ints = (T.I64, T.BOOL)
        if a == b == T.BOOL and e.op in ("&", "|", "^"):
            return T.BOOL
        if a in ints and b in ints and e.op != "/":
            return T.I64
        if a in ints + (T.F64,) and b in ints + (T.F64,):
            return T.F64
        if a == b == T.STR and e.op == "+":
            return T.STR
        return None
    if isinstance(e, A.Call) and isinstance(e.func, A.Name) and len(e.args) == 1 and \
            e.func.id in _CONVERSIONS and not e.keywords:
        return _CONVERSIONS[e.func.id]
    if isinstance(e, A.Subscript) and isinstance(e.value, A.Name) and \
            not isinstance(e.slice, A.Slice):  # d[k], xs[i] of a variable bound before
        owner = _guess(em, e.value, loops, depth + 1)
        if isinstance(owner, T.DictType):
            return owner.value
        if isinstance(owner, T.ListType):
            return owner.elem
        return T.STR if owner == T.STR else None
    if isinstance(e, A.Call) and isinstance(e.func, A.Attribute) and e.func.attr == "get" \
            and len(e.args) == 2 and not e.keywords:  # counts.get(w, 0) + 1
        return _guess(em, e.args[1], loops, depth + 1)
    if isinstance(e, A.Name):
        var = em.env.get(e.id)
        if var is not None and getattr(var, "type", None) is not None:
            return var.type
        if ("param", e.id) in loops and em.env.get(e.id) is None:
            return loops[("param", e.id)]
        bound = loops.get(("walrus", e.id))
        if bound is not None:
            return _guess(em, bound, loops, depth + 1)
        it = loops.get(e.id)
        if isinstance(it, A.Call) and isinstance(it.func, A.Name) and it.func.id == "range":
            return T.I64
        if isinstance(it, A.Call) and isinstance(it.func, A.Name) and \
                it.func.id in ("sorted", "reversed", "list", "set") and len(it.args) == 1:
            from ember.frontend.iterators import elem_type as _elem
            inner = _guess(em, it.args[0], loops, depth + 1) \
                if isinstance(it.args[0], A.Name) else None
            return _elem(inner) if inner is not None else None
        if isinstance(it, A.Call) and isinstance(it.func, A.Attribute):
            if it.func.attr in ("split", "rsplit", "splitlines"):
                return T.STR
            owner = _guess(em, it.func.value, loops, depth + 1) \
                if isinstance(it.func.value, A.Name) else None
            if isinstance(owner, T.DictType) and it.func.attr in ("keys", "values"):
                return owner.key if it.func.attr == "keys" else owner.value
        if isinstance(it, A.Name):
            outer = em.env.get(it.id)
            return elem_type(outer.type) if outer is not None and \
                getattr(outer, "type", None) is not None else None
    return None


def binop(em, op, a, b, node, aug):
    """a | b, a & b, a - b, a ^ b on two sets of one element type; `a |= b` changes a in
    place (set.__ior__) and gives a back."""
    name = _BINOPS.get(op)
    loc = em.loc(node)
    if name is None or not (isinstance(a.type, T.SetType) and a.type == b.type):
        return em.error(f"unsupported operand types for {op}: {show(a.type)} and "
                        f"{show(b.type)}", node.span)
    if aug:
        em.b.kernel(f"set.i{name}", [a, b], T.NONE, loc)
        return a
    return em.b.kernel(f"set.{name}", [a, b], a.type, loc)


def compare(em, op, a, b, node):
    """== != < <= > >= between sets (subset order); == with another type is False."""
    loc = em.loc(node)
    if a.type != b.type:
        if op in ("==", "!="):
            return em.b.const(op == "!=", T.BOOL, loc)
        return em.error(f"'{op}' not supported between {show(a.type)} and {show(b.type)}",
                        node.span)
    return em.b.kernel(f"set.{_COMPARE[op]}", [a, b], T.BOOL, loc)


def contains(em, s, x, node):
    elem = s.type.elem
    x = em.coerce(x, elem, node.span, convert=True, what="the value looked up in a set")
    return em.b.kernel("set.contains", [s, x], T.BOOL, em.loc(node))


def truth(em, v, node):
    loc = em.loc(node)
    n = em.b.kernel("set.len", [v], T.I64, loc)
    return em.b.kernel("int.ne", [n, em.b.const(0, T.I64, loc)], T.BOOL, loc)


class SetSeq:
    """A set's elements in its iteration order, listed when the loop starts; each step
    first checks that the set still has as many, as CPython's set iterator does."""

    kind = "list"

    def __init__(self, em, s, loc):
        self.elem, self.loc, self.set = s.type.elem, loc, s
        self.value = em.b.kernel("set.to_list", [s], T.ListType(self.elem), loc)
        self.n = em.b.kernel("set.len", [s], T.I64, loc)

    def length(self, em):
        return self.n

    def cond(self, em, i):
        return em.b.kernel("set.iter_ok", [self.set, self.n, i], T.BOOL, self.loc)

    def item(self, em, i):
        return em.b.kernel("list.getitem", [self.value, i], self.elem, self.loc)


__all__ = ["e_Set", "e_SetComp", "b_set", "binop", "compare", "contains", "truth", "SetSeq",
           "hashable"]
