"""Python builtins: the ones the frontend handles itself (print, isinstance, conversions,
min/max/sum over generators, str.format, sorted with a key...) and the rest through
their ember.ops overloads ("builtins.len", "builtins.abs", ...).
"""

from __future__ import annotations

import string

from ember import ops
from ember.errors import TypeCheckError
from ember.frontend import ast as A
from ember.frontend.generators import dunder_iter_call, is_lazy_source
from ember.frontend.meta import MBuiltin, MClass, MException, MTypeName
from ember.frontend.typing_ import ErrorType, show
from ember.ir import Region
from ember.ir import types as T

_BY_OPS = {"len", "abs", "min", "max", "sum", "sorted", "round", "divmod", "ord", "chr",
           "any", "all", "repr", "format", "hash", "bin", "oct", "hex"}
_UNSUPPORTED = {"id", "frozenset", "type",
                "getattr", "setattr", "hasattr", "super", "open", "input", "eval", "exec",
                "compile", "globals", "locals", "vars", "callable", "ascii", "bytes",
                "bytearray", "complex", "object", "memoryview", "property", "staticmethod", "classmethod", "issubclass"}


def call_builtin(em, name, node, expected):
    if name in _UNSUPPORTED and name not in _HANDLERS:
        return em.unsupported(f"the builtin '{name}' is not supported", node.func.span)
    handler = _HANDLERS.get(name)
    if handler is not None:
        return handler(em, node, expected)
    if name in _BY_OPS:
        if node.args and name in ("any", "all") and is_lazy_source(em, node.args[0]):
            return any_all(em, node, name)
        kw = {k.arg for k in node.keywords}
        if name == "sum" and (len(node.args) == 2 or (len(node.args) == 1 and kw == {"start"})):
            return sum_with_start(em, node)
        if name in ("min", "max") and len(node.args) == 1 and kw & {"key", "default"}:
            return minmax_key(em, name, node)
        if name == "sum" and len(node.args) == 1 and not kw and _empty_tuple(em, node.args[0]):
            return em.b.const(0, T.I64, em.loc(node))  # sum(()) of f(*args) called with none
        if name == "len" and len(node.args) == 1 and not kw and \
                is_range_call(em, node.args[0]):  # len(range(...)) without the list
            bounds = em.range_args(node.args[0])
            if bounds is None:
                from ember.frontend.function import Poison
                return Poison()
            return em.b.kernel("builtins.range_len", bounds, T.I64, em.loc(node))
        if name in _ITERABLE_ARG and len(node.args) == 1:
            seq = materialize(em, node.args[0])
            if name == "sorted" and "key" in kw:
                return sorted_with_key(em, seq, node, in_place=False)
            if name == "sorted" and needs_object_sort(em, seq.type):
                return sort_objects(em, seq, node, in_place=False)
            if name in ("min", "max") and needs_object_sort(em, seq.type):
                return minmax_key(em, name, node, seq)
            if name in ("any", "all") and getattr(seq.type, "elem", T.BOOL) != T.BOOL:
                return any_all_of(em, node, name, seq)
            args = [seq]
        else:
            args = [em.value(a, _expected_arg(name, expected)) for a in node.args]
        if name == "len" and args and isinstance(args[0].type, T.TupleType):
            return em.b.const(len(args[0].type.elems), T.I64, em.loc(node))
        if name == "len" and args and isinstance(args[0].type, T.ClassType):
            from ember.frontend.module_exprs import container_info, container_len
            if container_info(em, args[0].type) is not None:
                return container_len(em, args[0], node)
        if name in ("min", "max") and len(args) >= 2:
            folded = _fold_constant_minmax(em, name, args, node)
            if folded is not None:
                return folded
        if name in ("min", "max") and len(args) > 2:
            return _fold_minmax(em, name, args, node)
        if name == "abs" and len(args) == 1 and args[0].type == T.BOOL:  # abs(True) is 1
            args = [em.b.kernel("bool.to_int", args, T.I64, em.loc(node))]
        if len(args) == 1 and isinstance(args[0].type, T.ClassType) and \
                name in ("len", "abs", "repr"):
            from ember.frontend.classes import call_dunder, dunder
            if name == "repr":
                return em.str_of(args[0], node, "repr")
            m = dunder(em, args[0].type, f"__{name}__")
            if m is None and name == "len" and _is_namedtuple(em, args[0].type):
                decl = em.c.module.classes[args[0].type.name]
                return em.b.const(len(decl.fields), T.I64, em.loc(node))  # its field count
            if m is None:
                return em.error(f"object of type '{args[0].type.name}' has no {name}() "
                                f"(define __{name}__)", node.span)
            return call_dunder(em, m, args[0], [], node)
        if args and isinstance(args[0].type, T.TensorType) and \
                ops.by_python_name(f"Tensor.__{name}__"):
            return em.call_python_op(f"Tensor.__{name}__", args, node, em.call_kwargs(node))
        return em.call_python_op(f"builtins.{name}", args, node, em.call_kwargs(node))
    return em.unsupported(f"the builtin '{name}' is not supported here", node.func.span)


def _empty_tuple(em, node) -> bool:
    """`()` or a variable holding the empty tuple (a *args of no arguments)."""
    if isinstance(node, A.Tuple):
        return not node.elts
    if isinstance(node, A.Name):
        var = em.env.get(node.id) if hasattr(em.env, "get") else None
        t = getattr(var, "type", None)
        return isinstance(t, T.TupleType) and not t.elems
    return False


def _expected_arg(name, expected):
    return None


_ITERABLE_ARG = {"sorted", "sum", "min", "max", "any", "all"}
_hidden = [0]


def hidden_name(kind: str) -> str:
    """A fresh name for a helper variable (never a Python identifier, never in the IR)."""
    _hidden[0] += 1
    return f"${kind}{_hidden[0]}"


def is_lazy_iterable(em, node) -> bool:
    """A generator, a generator call, or range/enumerate/zip/reversed(...): iterated, not
    evaluated to a value."""
    return isinstance(node, A.GeneratorExp) or is_lazy_source(em, node) or \
        dunder_iter_call(em, node) is not None or \
        isinstance(node, A.Call) and isinstance(node.func, A.Name) and \
        node.func.id in ("range", "enumerate", "zip", "reversed") and \
        isinstance(em.global_meta(node.func.id), MBuiltin)


def materialize(em, node, v=None):
    """The list of the items of an iterable expression: a list as it is; a generator, dict
    (keys), str, tuple or range(...) through a loop filling a fresh list. `v`: node's
    value, when it was evaluated already (not a lazy iterable)."""
    from ember.frontend.env import Var
    if isinstance(node, A.GeneratorExp):
        return em.value(node)
    if v is None and is_lazy_iterable(em, node):
        return _listcomp_over(em, node)
    v = em.value(node) if v is None else v
    if isinstance(v.type, (T.ListType, ErrorType)):
        return v
    name = hidden_name("it")
    em.env.set(name, Var(v.type, v, True))
    try:
        return _listcomp_over(em, A.Name(node.span, name))
    finally:
        em.env.pop(name)


def _listcomp_over(em, iter_node):
    x = hidden_name("x")
    comp = A.ListComp(iter_node.span, A.Name(iter_node.span, x),
                      [A.Comprehension(iter_node.span, A.Name(iter_node.span, x), iter_node, [])])
    return em.value(comp)


def _own_get(key, iterable):
    """`max(d, key=d.get)`: over d's own keys, d.get(k) is d[k] (never None), so the key
    is that lambda, whose values compare as d's values do."""
    if isinstance(key, A.Attribute) and key.attr == "get" and isinstance(key.value, A.Name) \
            and isinstance(iterable, A.Name) and iterable.id == key.value.id:
        sp = key.span
        return A.Lambda(sp, [A.Arg(sp, "$k")], A.Subscript(sp, A.Name(sp, key.value.id),
                                                          A.Name(sp, "$k")))
    return key


def minmax_key(em, name, node, seq=None):
    """min/max(iterable, key=f, default=d): one pass, the first best item wins (Python's)."""
    from ember.frontend.env import Var
    loc = em.loc(node)
    kw = {k.arg: k.value for k in node.keywords}
    unknown = set(kw) - {"key", "default"}
    if unknown:
        return em.error(f"{name}() got an unexpected keyword argument "
                        f"'{sorted(unknown)[0]}'", node.span)
    if seq is None:
        seq = materialize(em, node.args[0])
    if isinstance(seq.type, ErrorType):
        return seq
    elem = seq.type.elem
    key = None
    if "key" in kw:
        key_node = _own_get(kw["key"], node.args[0] if node.args else None)
        key = key_function(em, key_node, T.FunctionType((elem,), T.I64))
        if isinstance(key.type, ErrorType):
            return key
        if not isinstance(key.type, T.FunctionType) or len(key.type.params) != 1:
            return em.error(f"{name}() key must be a function of one argument", kw["key"].span)
    default = em.value(kw["default"]) if "default" in kw else None
    if default is not None and not isinstance(default.type, ErrorType) and \
            T.join(default.type, elem) != elem:
        from ember.frontend.exprs import mix_hint
        return em.error(f"{name}() default has type {show(default.type)}, but the items are "
                        f"{show(elem)}{mix_hint(default.type, elem)}", kw["default"].span)
    names = {k: hidden_name(k) for k in ("seq", "key", "best", "bk", "x", "k", "i")}
    em.env.set(names["seq"], Var(seq.type, seq, True))
    if key is not None:
        em.env.set(names["key"], Var(key.type, key, True))
    sp = node.span

    def N(k):
        return A.Name(sp, names[k])

    def call_key(arg):
        return A.Call(sp, N("key"), [arg], []) if key is not None else arg

    better = ">" if name == "max" else "<"
    body = [
        A.Assign(sp, [N("x")], A.Subscript(sp, N("seq"), N("i"))),
        A.Assign(sp, [N("k")], call_key(N("x"))),
        A.If(sp, A.Compare(sp, N("k"), [better], [N("bk")]),
             [A.Assign(sp, [N("best")], N("x")), A.Assign(sp, [N("bk")], N("k"))], []),
    ]
    loop = A.For(sp, N("i"), A.Call(sp, A.Name(sp, "range"), [
        A.Constant(sp, 1), A.Call(sp, A.Name(sp, "len"), [N("seq")], [])], []), body, [])
    n = em.b.kernel("list.len", [seq], T.I64, loc)
    empty = em.b.kernel("int.eq", [n, em.b.const(0, T.I64, loc)], T.BOOL, loc)
    then_r, else_r = Region(), Region()
    with em.at(then_r.block):
        if default is None:
            # min/max of the empty list raises the running CPython's own error
            em.b.kernel(f"builtins.{name}_list", [seq], elem, loc)
            em.b.create("unreachable", [], loc=loc)
            em.terminated = True
        else:
            em.b.yield_([em.coerce(default, elem, kw["default"].span)], loc)
    before = em.env
    em.env = before.copy()
    with em.at(else_r.block):
        em.stmt(A.Assign(sp, [N("best")], A.Subscript(sp, N("seq"), A.Constant(sp, 0))))
        em.stmt(A.Assign(sp, [N("bk")], call_key(N("best"))))
        em.stmt(loop)
        best = em.read_var(names["best"], sp)
        em.b.yield_([em.coerce(best, elem, sp)], loc)
    em.env = before
    for k in ("seq", "key"):
        em.env.pop(names[k])
    return em.b.create("if", [empty], [elem], regions=[then_r, else_r], loc=loc).result


def _const_number(v):
    """The value of a number constant (`-0.5` included), else None."""
    op = getattr(v, "op", None)
    if op is None or v.type not in (T.I64, T.F64, T.BOOL):
        return None
    if op.name in ("int.neg", "float.neg"):
        inner = _const_number(op.operands[0])
        return None if inner is None else -inner
    return op.attrs.get("value") if op.name == "const" else None


def _fold_constant_minmax(em, name, args, node):
    """min/max of number constants of mixed types: CPython's result, value and type (the
    argument that wins), known at compile time."""
    vals = [_const_number(a) for a in args]
    if any(v is None for v in vals) or len({a.type for a in args}) == 1:
        return None
    win = (min if name == "min" else max)(vals)
    ty = {bool: T.BOOL, int: T.I64, float: T.F64}[type(win)]
    return em.b.const(win, ty, em.loc(node))


def _fold_minmax(em, name, args, node):
    acc = args[0]
    for a in args[1:]:
        acc = em.call_python_op(f"builtins.{name}", [acc, a], node)
    return acc


def b_print(em, node, expected):
    loc = em.loc(node)
    kw = {k.arg: k.value for k in node.keywords}
    unknown = set(kw) - {"sep", "end"}
    if unknown:
        return em.unsupported(f"print() keyword '{sorted(unknown)[0]}' is not supported",
                              node.span)
    if any(isinstance(a, A.Starred) for a in node.args):
        return _print_starred(em, node, kw)
    sep = em.value(kw["sep"]) if "sep" in kw else em.b.const(" ", T.STR, loc)
    end = em.value(kw["end"]) if "end" in kw else em.b.const("\n", T.STR, loc)
    parts = []
    for i, a in enumerate(node.args):
        if i:
            parts.append(sep)
        parts.append(em.str_of(em.value(a), a))
    parts.append(end)
    line = em.concat(parts, loc)
    em.b.kernel("builtins.print", [line], T.NONE, loc)
    return em.b.const(None, T.NONE, loc)


def _print_starred(em, node, kw):
    """print(a, *xs, sep=s): sep.join of the strs of the arguments, the items of each
    unpacked iterable among them."""
    loc = em.loc(node)
    sp = node.span
    elts = []
    for a in node.args:
        if isinstance(a, A.Starred):
            x = hidden_name("x")
            comp = A.ListComp(a.span, A.Call(a.span, A.Name(a.span, "str"),
                                             [A.Name(a.span, x)], []),
                              [A.Comprehension(a.span, A.Name(a.span, x), a.value, [])])
            elts.append(A.Starred(a.span, comp))
        else:
            elts.append(A.Call(a.span, A.Name(a.span, "str"), [a], []))
    strs = em.value(A.List(sp, elts), T.ListType(T.STR))
    sep = em.value(kw["sep"]) if "sep" in kw else em.b.const(" ", T.STR, loc)
    end = em.value(kw["end"]) if "end" in kw else em.b.const("\n", T.STR, loc)
    body = em.call_python_op("str.join", [sep, strs], node, {}, receiver=True)
    em.b.kernel("builtins.print", [em.concat([body, end], loc)], T.NONE, loc)
    return em.b.const(None, T.NONE, loc)


def b_isinstance(em, node, expected):
    if len(node.args) != 2:
        return em.error("isinstance() takes 2 arguments", node.span)
    v = em.value(node.args[0])
    types = em.isinstance_types(node.args[1], v.type)
    loc = em.loc(node)
    if isinstance(v.type, ErrorType) or not types:
        return em.b.const(False, T.BOOL, loc)
    members = T.members(v.type)
    if all(any(T.is_subtype(m, t) for t in types) for m in members):
        return em.b.const(True, T.BOOL, loc)
    if not any(any(T.is_subtype(m, t) or T.is_subtype(t, m) for t in types) for m in members):
        return em.b.const(False, T.BOOL, loc)
    result = None
    for t in types:
        r = em.b.create("isinstance", [v], [T.BOOL], {"type": t}, loc=loc).result
        result = r if result is None else em.b.kernel("bool.or", [result, r], T.BOOL, loc)
    return result


def isinstance_types(em, node, subject):
    """The types isinstance(x, node) tests, x of static type `subject`. A bare list, dict or
    tuple (or List, Dict, Tuple) means any of them: the members of `subject` of that kind."""
    nodes = node.elts if isinstance(node, A.Tuple) else [node]
    out = []
    for n in nodes:
        if isinstance(n, A.Tuple):  # isinstance(x, (int, (float, str))): nested, as CPython
            out.extend(isinstance_types(em, n, subject))
            continue
        if isinstance(n, A.BinOp) and n.op == "|":  # isinstance(x, int | str): a union
            out.extend(isinstance_types(em, n.left, subject))
            out.extend(isinstance_types(em, n.right, subject))
            continue
        if isinstance(n, A.Subscript):  # isinstance(x, List[int]), torch.jit.isinstance
            out.append(em.ann.resolve(n))
            continue
        m = em.expr(n)
        bare = _BARE.get(m.name) if isinstance(m, (MBuiltin, MTypeName)) else None
        if bare is not None:
            out.extend(t for t in T.members(subject) if isinstance(t, bare) or
                       bare is T.TupleType and _is_namedtuple(em, t))
        elif isinstance(m, MBuiltin) and m.name in ("int", "float", "complex", "bool", "str"):
            out.append({"int": T.I64, "float": T.F64, "complex": T.C128, "bool": T.BOOL,
                        "str": T.STR}[m.name])
        elif isinstance(m, MTypeName) and m.name == "Tensor":
            out.append(T.TENSOR)
        elif isinstance(m, MClass):
            decl = em.c.declare_class(m.info)
            out.append(T.ClassType(decl.name))
            from ember.frontend.inherit import subclass_types
            out.extend(subclass_types(em, m.info, subject))
        elif isinstance(m, MException):
            out.append(T.EXC)
        elif isinstance(m, (MTypeName,)) or (hasattr(m, "type") and False):
            out.append(em.ann.resolve(n))
        elif m is None or (hasattr(m, "value") and m.value is None):
            out.append(T.NONE)
        else:
            em.error("isinstance() needs a type (int, float, str, List[int], a class, ...)",
                     n.span)
    return out


def _is_namedtuple(em, t) -> bool:
    decl = em.c.module.classes.get(t.name) if isinstance(t, T.ClassType) else None
    return decl is not None and decl.kind == "namedtuple"


_BARE = {"list": T.ListType, "dict": T.DictType, "tuple": T.TupleType, "List": T.ListType,
         "Dict": T.DictType, "Tuple": T.TupleType}


# ----------------------------------------------------------------------------- conversions


def b_int(em, node, expected):
    return _convert(em, node, "int", T.I64)


def b_float(em, node, expected):
    return _convert(em, node, "float", T.F64)


def b_complex(em, node, expected):
    """complex(), complex(x), complex(real, imag), complex(str): CPython's constructor. A
    tensor real part converts with __complex__, a tensor imaginary part with __float__, as
    CPython converts them."""
    if not node.args and not node.keywords:
        return em.b.const(0j, T.C128, em.loc(node))
    args = [_complex_part(em, v, i, node) for i, v in enumerate(em.call_args(node))]
    kwargs = {k: (_complex_part(em, v, int(k == "imag"), node), n)
              for k, (v, n) in em.call_kwargs(node).items()}
    if len(args) == 1 and not kwargs and args[0].type == T.C128:
        return args[0]
    return em.call_python_op("builtins.complex", args, node, kwargs)


def _complex_part(em, v, position, node):
    if not isinstance(v.type, T.TensorType):
        return v
    return em.call_python_op("Tensor.__float__" if position else "Tensor.__complex__", [v],
                             node)


def b_bool(em, node, expected):
    if not node.args:
        return em.b.const(False, T.BOOL, em.loc(node))
    v = em.value(node.args[0])
    return em.truth(v, node)


def b_str(em, node, expected):
    if not node.args:
        return em.b.const("", T.STR, em.loc(node))
    return em.str_of(em.value(node.args[0]), node)


def _convert(em, node, name, target):
    loc = em.loc(node)
    if not node.args:
        return em.b.const(target == T.F64 and 0.0 or 0, target, loc)
    v = em.value(node.args[0])
    if v.type == target and len(node.args) == 1:
        return v
    if isinstance(v.type, T.TensorType):
        return em.call_python_op(f"Tensor.__{name}__", [v], node)
    if isinstance(v.type, T.ClassType) and len(node.args) == 1:  # int(obj): obj.__int__()
        from ember.frontend.classes import call_dunder, dunder
        m = dunder(em, v.type, f"__{name}__") or \
            (dunder(em, v.type, "__index__") if name == "int" else None)
        if m is None:
            return em.error(f"{name}() argument must be a number, not '{v.type.name}' "
                            f"(define __{name}__)", node.args[0].span)
        r = call_dunder(em, m, v, [], node)
        return em.coerce(em.as_value(r, node), target, node.span,
                         what=f"the result of __{name}__")
    if v.type == T.C128 and name in _REAL_ONLY:
        return em.error(f"{name}() argument must be {_REAL_ONLY[name]}, not 'complex' (take "
                        ".real, .imag or abs() of a complex number)", node.args[0].span)
    args = [v] + [em.value(a) for a in node.args[1:]]
    return em.call_python_op(f"builtins.{name}", args, node, em.call_kwargs(node))


_REAL_ONLY = {"int": "a string, a bytes-like object or a real number",
              "float": "a string or a real number"}
"""CPython's words for int(z) and float(z) of a complex z (a TypeError)."""


def b_slice(em, node, expected):
    """slice(stop), slice(start, stop[, step]): an MSlice whose bounds are evaluated now,
    into hidden variables."""
    from ember.frontend.env import Var
    from ember.frontend.meta import MSlice
    if node.keywords or not 1 <= len(node.args) <= 3:
        return em.error(f"slice expected 1 to 3 arguments, got {len(node.args)}", node.span)
    args = list(node.args)
    bounds = [None, args[0], None] if len(args) == 1 else (args + [None])[:3]
    parts = []
    for b in bounds:
        if b is None or isinstance(b, A.Constant) and b.value is None:
            parts.append(None)
            continue
        v = em.value(b)
        if isinstance(v.type, ErrorType):
            return v
        if v.type not in (T.I64, T.BOOL, T.NONE, T.OptionalType(T.I64)):
            return em.error(f"slice bounds must be ints or None, not {show(v.type)}", b.span)
        name = hidden_name("slice")
        em.env.set(name, Var(v.type, v, True))
        parts.append(A.Name(b.span, name))
    return MSlice(A.Slice(node.span, *parts))


def b_range(em, node, expected):
    return em.unsupported("range() is only supported as what a for loop or comprehension "
                          "iterates over (also inside zip(), enumerate(), reversed()) and in "
                          "list(range(...)), not as a value", node.span)


def b_list(em, node, expected):
    if not node.args:
        return em.value(A.List(node.span, []), expected)
    arg = node.args[0]
    comp = A.ListComp(node.span, A.Name(arg.span, "_x"),
                      [A.Comprehension(arg.span, A.Name(arg.span, "_x"), arg, [])])
    return em.value(comp, expected)


def b_dict(em, node, expected):
    """dict(), dict(mapping), dict(iterable of pairs), dict(a=1), dict(x, a=1): CPython's
    forms (a copy; a comprehension over the pairs; then the keywords set in order)."""
    if len(node.args) > 1:
        return em.error(f"dict expected at most 1 argument, got {len(node.args)}", node.span)
    if not node.args:
        keys = [A.Constant(k.span, k.arg) for k in node.keywords]
        return em.value(A.Dict(node.span, keys, [k.value for k in node.keywords]), expected)
    base = _dict_of(em, node.args[0], expected, node)
    for k in node.keywords:
        if isinstance(base.type, T.DictType) and base.type.key != T.STR:
            return em.error(f"dict(..., {k.arg}=...) sets a str key in a dict of "
                            f"{show(base.type)}", k.span)
        key = em.b.const(k.arg, T.STR, em.loc(k))
        em.subscript_set(base, key, em.value(k.value, getattr(base.type, "value", None)), k)
    return base


def _dict_of(em, arg, expected, node):
    """The new dict of dict(arg)."""
    from ember.frontend.env import Var
    if isinstance(arg, (A.List, A.Tuple, A.Dict)) and not getattr(arg, "elts", None) and \
            not getattr(arg, "keys", None):
        return em.value(A.Dict(node.span, [], []), expected)  # dict([]), dict(())
    if isinstance(arg, (A.GeneratorExp, A.Call)) and _iter_call(em, arg):
        return _dictcomp_over(em, arg, expected)
    v = em.value(arg)
    if isinstance(v.type, ErrorType):
        return v
    if isinstance(v.type, T.DictType):
        return em.b.kernel("builtins.dict_copy", [v], v.type, em.loc(node))
    name = hidden_name("it")
    em.env.set(name, Var(v.type, v, True))
    try:
        return _dictcomp_over(em, A.Name(arg.span, name), expected)
    finally:
        em.env.pop(name)


def _iter_call(em, node) -> bool:
    if is_lazy_source(em, node):
        return True
    return isinstance(node.func, A.Name) and node.func.id in ("zip", "enumerate") and \
        isinstance(em.global_meta(node.func.id), MBuiltin)


def _dictcomp_over(em, iter_node, expected):
    """{k: v for k, v in iter_node}: CPython's dict(pairs), each item unpacked to two."""
    sp = iter_node.span
    k, v = hidden_name("k"), hidden_name("v")
    target = A.Tuple(sp, [A.Name(sp, k), A.Name(sp, v)])
    comp = A.DictComp(sp, A.Name(sp, k), A.Name(sp, v),
                      [A.Comprehension(sp, target, iter_node, [])])
    return em.value(comp, expected)


def b_set(em, node, expected):
    from ember.frontend.sets import b_set as make_set
    return make_set(em, node, expected)


def b_tuple(em, node, expected):
    """tuple(), tuple(a_tuple) (the same tuple), tuple([a, b]) / tuple("ab") of a display or
    a str constant (a length known at compile time). A tuple of a run-time length (of a
    list variable, a generator) has no ember type."""
    loc = em.loc(node)
    if node.keywords or len(node.args) > 1:
        return em.error(f"tuple expected at most 1 argument, got {len(node.args)}", node.span,
                        TypeCheckError)
    if not node.args:
        return em.b.create("tuple.new", [], [T.TupleType(())], loc=loc).result
    arg = node.args[0]
    if isinstance(arg, (A.List, A.Tuple)) and not any(isinstance(e, A.Starred)
                                                      for e in arg.elts):
        return em.value(A.Tuple(arg.span, list(arg.elts)), expected)
    if isinstance(arg, A.Constant) and isinstance(arg.value, str):
        return em.value(A.Tuple(arg.span, [A.Constant(arg.span, c) for c in arg.value]))
    if is_lazy_iterable(em, arg):
        items = materialize(em, arg)
    else:
        v = em.value(arg)
        if isinstance(v.type, (T.TupleType, T.VarTupleType, ErrorType)):
            return v
        items = materialize(em, arg, v)  # any iterable: a list of its items
    if isinstance(items.type, ErrorType) or not isinstance(items.type, T.ListType):
        return em.unsupported(f"tuple() of a {show(v.type)} is not supported", node.span)
    return em.b.kernel("list.to_tuple", [items], T.VarTupleType(items.type.elem), loc)


def b_zip_star(em, node, expected):
    """zip(*rows) of a list of lists or of tuples of run-time length: the list of its
    columns, each a tuple of run-time length (made when the call runs; CPython's zip
    object would make them as the loop asks)."""
    if not isinstance(em.global_meta("zip"), MBuiltin) or em.env.get("zip") is not None:
        return em.unsupported("f(*xs) of a function named zip that is not the builtin is not "
                              "supported", node.span)
    rows = em.value(node.args[0])
    t = rows.type
    if isinstance(t, ErrorType):
        return rows
    if not (isinstance(t, T.ListType) and isinstance(t.elem, T.ListType)):
        return em.unsupported(f"zip(*rows) of a {show(t)} is not supported (rows must be a "
                              "list of lists or of tuples of run-time length)", node.span)
    return em.b.kernel("list.zip_star", [rows], T.ListType(T.VarTupleType(t.elem.elem)),
                       em.loc(node))


def b_pow(em, node, expected):
    if len(node.args) == 3 and not node.keywords:
        return em.call_python_op("builtins.pow", em.call_args(node), node)
    if len(node.args) != 2 or node.keywords:
        return em.error("pow() takes 2 or 3 positional arguments", node.span)
    a, b = (em.value(x) for x in node.args)
    fake = A.BinOp(node.span, node.args[0], "**", node.args[1])
    return em.binop("**", a, b, fake)


def b_enumerate(em, node, expected):
    from ember.frontend import iterators
    return iterators.b_enumerate(em, node, expected)


def b_zip(em, node, expected):
    from ember.frontend import iterators
    return iterators.b_zip(em, node, expected)


def b_reversed(em, node, expected):
    from ember.frontend import iterators
    return iterators.b_reversed(em, node, expected)


def b_iter(em, node, expected):
    from ember.frontend import iterators
    return iterators.b_iter(em, node, expected)


def b_next(em, node, expected):
    from ember.frontend import iterators
    return iterators.b_next(em, node, expected)


def b_map(em, node, expected):
    from ember.frontend import iterators
    return iterators.b_map(em, node, expected)


def b_filter(em, node, expected):
    from ember.frontend import iterators
    return iterators.b_filter(em, node, expected)


# ----------------------------------------------------------------------------- any / all / sorted


def any_all(em, node, name):
    """any()/all() over a generator, stopping at the first deciding element like Python
    (the generator is inlined into the loop: later elements are never computed)."""
    gen = node.args[0]
    if len(node.args) != 1 or node.keywords:
        return em.error(f"{name}() takes exactly one argument", node.span)
    loc = em.loc(node)
    is_any = name == "any"
    flag = hidden_name("flag")
    item = hidden_name("item")
    from ember.frontend.env import Var
    em.env.set(flag, Var(T.BOOL, em.b.const(not is_any, T.BOOL, loc), True))
    sp = gen.span
    test = A.Name(sp, item) if is_any else A.UnaryOp(sp, "not", A.Name(sp, item))
    setflag = A.Assign(sp, [A.Name(sp, flag)], A.Constant(sp, is_any))
    body = [A.If(sp, test, [setflag, A.Break(sp)], [])]
    em.stmt(A.For(sp, A.Name(sp, item), gen, body, []))
    result = em.env.get(flag).value
    em.env.pop(flag)
    return result


def any_all_of(em, node, name, seq):
    """any()/all() of a list whose elements are not bools: each element's truth, as
    Python tests it (0, 0.0, "", an empty list are false)."""
    from ember.frontend.env import Var
    lst = hidden_name("seq")
    em.env.set(lst, Var(seq.type, seq, True))
    sp = node.span
    call = A.Call(sp, node.func, [A.Name(sp, lst)], [])
    result = any_all(em, call, name)
    em.env.pop(lst)
    return result


def sum_with_start(em, node):
    """sum(iterable, start): start + x0 + x1 + ... from the left, as CPython adds (so
    sum(lists, []) concatenates). The running total keeps start's type."""
    from ember.frontend.env import Var
    seq = materialize(em, node.args[0])
    if isinstance(seq.type, ErrorType):
        return seq
    start_node = node.args[1] if len(node.args) == 2 else node.keywords[0].value
    start = em.value(start_node, getattr(seq.type, "elem", None))
    if isinstance(start.type, ErrorType):
        return start
    if start.type == T.STR:
        return em.error("sum() can't sum strings [use ''.join(seq) instead]", start_node.span)
    acc, item, lst = hidden_name("acc"), hidden_name("x"), hidden_name("seq")
    em.env.set(lst, Var(seq.type, seq, True))
    em.env.set(acc, Var(start.type, start, True))
    sp = node.span
    add = A.BinOp(sp, A.Name(sp, acc), "+", A.Name(sp, item))
    em.stmt(A.For(sp, A.Name(sp, item), A.Name(sp, lst),
                  [A.Assign(sp, [A.Name(sp, acc)], add)], []))
    result = em.env.get(acc).value
    em.env.pop(acc)
    em.env.pop(lst)
    return result


def needs_object_sort(em, t) -> bool:
    """A list of user objects: ordering them must call their __lt__ (a compiled method)."""
    return isinstance(t, T.ListType) and isinstance(t.elem, T.ClassType)


def sort_objects(em, xs, node, in_place):
    """xs.sort() / sorted(xs) for a list of user objects: a compiled stable merge sort
    (ember.frontend.prelude) whose `<` calls the class's __lt__."""
    from ember.frontend.prelude import helper
    from ember.ir import SymbolRef
    loc = em.loc(node)
    elem = xs.type.elem
    kw = {k.arg: k.value for k in node.keywords}
    unknown = set(kw) - {"reverse"}
    if unknown or len(node.args) > (0 if in_place else 1):
        return em.error("sort() of objects takes only reverse=... here (or key=...)",
                        node.span)
    if not em.class_defines(elem, "__lt__"):
        return em.error(f"'<' is not supported between instances of '{elem.name}': define "
                        "__lt__ or pass key=...", node.span)
    rev = em.truth(em.value(kw["reverse"]), kw["reverse"]) if "reverse" in kw else \
        em.b.const(False, T.BOOL, loc)
    target = xs if in_place else em.b.kernel("list.copy", [xs], T.as_list(xs.type), loc)
    info = helper(em, "sort", [xs.type, T.BOOL])
    em.b.create("call", [target, rev], [T.NONE], {"callee": SymbolRef(info.symbol)}, loc=loc)
    return em.b.const(None, T.NONE, loc) if in_place else target


def key_function(em, node, expected):
    """The value of a key= argument. A lambda or function name given here is called only
    before the call returns, so its captured variables may change afterwards."""
    direct = isinstance(node, (A.Lambda, A.Name))
    em.transient_functions += direct
    try:
        return em.value(node, expected)
    finally:
        em.transient_functions -= direct


def sorted_with_key(em, xs, node, in_place):
    loc = em.loc(node)
    kw = {k.arg: k.value for k in node.keywords}
    if not isinstance(xs.type, T.ListType):
        return em.error(f"sorted() needs a list, not {show(xs.type)}", node.span)
    key = key_function(em, kw["key"], T.FunctionType((xs.type.elem,), T.I64))
    rev = em.value(kw["reverse"]) if "reverse" in kw else em.b.const(False, T.BOOL, loc)
    if isinstance(key.type, ErrorType):
        return key
    out = em.b.kernel("builtins.sorted_key", [xs, key, rev], xs.type, loc)
    if in_place:
        em.b.kernel("list.clear", [xs], T.NONE, loc)
        em.b.kernel("list.extend", [xs, out], T.NONE, loc)
        return em.b.const(None, T.NONE, loc)
    return out


# ----------------------------------------------------------------------------- str.format


def str_format(em, recv, node):
    """`"...".format(...)` with a constant format string: Python's exact result."""
    fmt_node = node.func.value
    const = recv.op.attrs.get("value") if getattr(recv, "op", None) is not None and \
        recv.op.name == "const" else None
    if any(isinstance(a, A.Starred) for a in node.args) or \
            any(k.arg is None for k in node.keywords):
        return em.unsupported("str.format(*args / **kwargs) is not supported", node.span)
    args = [em.value(a) for a in node.args]
    kwargs = {k.arg: em.value(k.value) for k in node.keywords}
    if not isinstance(const, str):  # a format string only known at run time
        return _format_at_run_time(em, recv, args, kwargs, node)
    try:
        return _format(em, const, args, kwargs, node, [0])
    except (ValueError, IndexError, KeyError) as e:
        return em.error(f"bad format string: {e}", fmt_node.span)


def _format_at_run_time(em, fmt, args, kwargs, node):
    """fmt.format(...) of a format string computed at run time: CPython's str.format on the
    values (tensors formatted as torch formats them)."""
    loc = em.loc(node)
    pos = em.b.create("tuple.new", args, [T.TupleType(tuple(a.type for a in args))],
                      loc=loc).result
    names = em.b.create("tuple.new", [em.b.const(k, T.STR, loc) for k in kwargs],
                        [T.TupleType((T.STR,) * len(kwargs))], loc=loc).result
    vals = list(kwargs.values())
    kw = em.b.create("tuple.new", vals, [T.TupleType(tuple(v.type for v in vals))],
                     loc=loc).result
    return em.b.kernel("str.format_values", [fmt, pos, names, kw], T.STR, loc)


def _format(em, fmt, args, kwargs, node, counter):
    loc = em.loc(node)
    parts = []
    for literal, field, spec, conv in string.Formatter().parse(fmt):
        if literal:
            parts.append(em.b.const(literal, T.STR, loc))
        if field is None:
            continue
        first, rest = _field_name_split(field)
        if first == "":
            if counter[0] < 0:
                raise ValueError("cannot switch from manual field numbering to automatic")
            v = args[counter[0]]
            counter[0] += 1
        elif first.isdigit():
            v = args[int(first)]
            counter[0] = -1 if counter[0] == 0 else counter[0]
        elif first in kwargs:
            v = kwargs[first]
        else:
            raise KeyError(first)
        for is_attr, key in rest:  # "{0[1]}", "{p.x}": item and attribute lookups
            v = _field_part(em, v, is_attr, key, node)
        if conv in ("r", "s"):
            v = em.str_of(v, node, "repr" if conv == "r" else "str")
        spec_v = _format(em, spec, args, kwargs, node, counter) if spec else \
            em.b.const("", T.STR, loc)
        parts.append(em.format_of(v, spec_v, node))
    return em.concat(parts, loc)


def _field_name_split(field):
    """(first name, [(is_attribute, key), ...]) of a replacement field name, as
    str.format reads "0[1].x" (a key of digits is an int)."""
    import _string
    first, rest = _string.formatter_field_name_split(field)
    return str(first), [(a, k) for a, k in rest]


def _field_part(em, v, is_attr, key, node):
    """v.key or v[key] for a format field, emitted on a hidden variable holding v."""
    from ember.frontend.env import Var
    sp = node.span
    name = hidden_name("field")
    em.env.set(name, Var(v.type, v, True))
    try:
        base = A.Name(sp, name)
        expr = A.Attribute(sp, base, key) if is_attr else \
            A.Subscript(sp, base, A.Constant(sp, key))
        return em.value(expr)
    finally:
        em.env.pop(name)


def is_range_call(em, node) -> bool:
    """Whether node is a call of the builtin range."""
    from ember.frontend.meta import MBuiltin
    return isinstance(node, A.Call) and isinstance(node.func, A.Name) and \
        node.func.id == "range" and isinstance(em.global_meta("range"), MBuiltin)


def b_warn(em, node, expected):
    """`warnings.warn(message, category, stacklevel)`: the message is type-checked and the
    call does nothing. Compiled code issues no warnings (TorchScript's are advice about
    eager-versus-script differences that a deployed model's caller cannot act on)."""
    params = ("message", "category", "stacklevel", "source")
    given = list(zip(params, node.args)) + [(k.arg, k.value) for k in node.keywords]
    if not node.args or len(node.args) > len(params):
        return em.error("warnings.warn() takes a message and an optional category and "
                        "stacklevel", node.span)
    for name, arg in given:
        if name not in params:
            return em.error(f"warnings.warn() got an unexpected keyword argument '{name}'",
                            arg.span)
        if name == "message":
            em.coerce(em.value(arg), T.STR, arg.span, what="the message of warnings.warn()")
        elif name == "stacklevel":
            em.coerce(em.value(arg), T.I64, arg.span, what="warnings.warn()'s stacklevel")
    return em.b.const(None, T.NONE, em.loc(node))


_HANDLERS = {
    "warnings.warn": b_warn,
    "print": b_print, "isinstance": b_isinstance, "int": b_int, "float": b_float,
    "complex": b_complex,
    "bool": b_bool, "str": b_str, "range": b_range, "list": b_list, "dict": b_dict,
    "slice": b_slice,
    "tuple": b_tuple, "$zip_star": b_zip_star, "pow": b_pow, "enumerate": b_enumerate, "zip": b_zip,
    "reversed": b_reversed, "set": b_set, "iter": b_iter, "next": b_next, "map": b_map,
    "filter": b_filter, "hasattr": lambda em, node, expected: _attr().b_hasattr(
        em, node, expected),
    "getattr": lambda em, node, expected: _attr().b_getattr(em, node, expected),
}


def _attr():
    from ember.frontend import attr_builtins
    return attr_builtins


__all__ = ["call_builtin", "isinstance_types", "str_format", "sorted_with_key", "Region"]
