"""Python builtins: the ones the frontend handles itself (print, isinstance, conversions,
min/max/sum over generators, str.format, sorted with a key...) and the rest through
their ember.ops overloads ("builtins.len", "builtins.abs", ...).
"""

from __future__ import annotations

import string

from ember import ops
from ember.frontend import ast as A
from ember.frontend.meta import MBuiltin, MClass, MException, MTypeName
from ember.frontend.typing_ import ErrorType, show
from ember.ir import Region
from ember.ir import types as T

_BY_OPS = {"len", "abs", "min", "max", "sum", "sorted", "round", "divmod", "ord", "chr",
           "any", "all", "repr", "format"}
_UNSUPPORTED = {"hash", "id", "iter", "next", "map", "filter", "set", "frozenset", "type",
                "getattr", "setattr", "hasattr", "super", "open", "input", "eval", "exec",
                "compile", "globals", "locals", "vars", "callable", "hex", "oct", "bin",
                "ascii", "bytes", "bytearray", "complex", "object", "slice", "memoryview",
                "property", "staticmethod", "classmethod", "issubclass"}


def call_builtin(em, name, node, expected):
    if name in _UNSUPPORTED:
        return em.unsupported(f"the builtin '{name}' is not supported", node.func.span)
    handler = _HANDLERS.get(name)
    if handler is not None:
        return handler(em, node, expected)
    if name in _BY_OPS:
        if node.args and isinstance(node.args[0], A.GeneratorExp) and name in ("any", "all"):
            return any_all(em, node, name)
        if name in ("sorted",) and any(k.arg == "key" for k in node.keywords):
            return sorted_with_key(em, em.value(node.args[0]), node, in_place=False)
        args = [em.value(a, _expected_arg(name, expected)) for a in node.args]
        if name == "len" and args and isinstance(args[0].type, T.TupleType):
            return em.b.const(len(args[0].type.elems), T.I64, em.loc(node))
        if name in ("min", "max") and len(args) > 2:
            return _fold_minmax(em, name, args, node)
        if args and isinstance(args[0].type, T.TensorType) and \
                ops.by_python_name(f"Tensor.__{name}__"):
            return em.call_python_op(f"Tensor.__{name}__", args, node, em.call_kwargs(node))
        return em.call_python_op(f"builtins.{name}", args, node, em.call_kwargs(node))
    return em.unsupported(f"the builtin '{name}' is not supported here", node.func.span)


def _expected_arg(name, expected):
    return None


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
    sep = em.value(kw["sep"]) if "sep" in kw else em.b.const(" ", T.STR, loc)
    end = em.value(kw["end"]) if "end" in kw else em.b.const("\n", T.STR, loc)
    parts = []
    for i, a in enumerate(node.args):
        if i:
            parts.append(sep)
        v = em.value(a)
        parts.append(v if v.type == T.STR else em.b.kernel("builtins.str", [v], T.STR, loc))
    parts.append(end)
    line = em.concat(parts, loc)
    em.b.kernel("builtins.print", [line], T.NONE, loc)
    return em.b.const(None, T.NONE, loc)


def b_isinstance(em, node, expected):
    if len(node.args) != 2:
        return em.error("isinstance() takes 2 arguments", node.span)
    v = em.value(node.args[0])
    types = em.isinstance_types(node.args[1])
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


def isinstance_types(em, node):
    nodes = node.elts if isinstance(node, A.Tuple) else [node]
    out = []
    for n in nodes:
        m = em.expr(n)
        if isinstance(m, MBuiltin) and m.name in ("int", "float", "bool", "str", "list",
                                                    "dict", "tuple"):
            out.append({"int": T.I64, "float": T.F64, "bool": T.BOOL, "str": T.STR}.get(
                m.name) or _generic_of(m.name))
        elif isinstance(m, MTypeName) and m.name == "Tensor":
            out.append(T.TENSOR)
        elif isinstance(m, MClass):
            decl = em.c.declare_class(m.info)
            out.append(T.ClassType(decl.name))
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


def _generic_of(name):
    return {"list": T.ListType(T.TENSOR), "dict": T.DictType(T.STR, T.TENSOR),
            "tuple": T.TupleType(())}[name]


# ----------------------------------------------------------------------------- conversions


def b_int(em, node, expected):
    return _convert(em, node, "int", T.I64)


def b_float(em, node, expected):
    return _convert(em, node, "float", T.F64)


def b_bool(em, node, expected):
    if not node.args:
        return em.b.const(False, T.BOOL, em.loc(node))
    v = em.value(node.args[0])
    return em.truth(v, node)


def b_str(em, node, expected):
    if not node.args:
        return em.b.const("", T.STR, em.loc(node))
    v = em.value(node.args[0])
    if v.type == T.STR:
        return v
    return em.b.kernel("builtins.str", [v], T.STR, em.loc(node))


def _convert(em, node, name, target):
    loc = em.loc(node)
    if not node.args:
        return em.b.const(target == T.F64 and 0.0 or 0, target, loc)
    v = em.value(node.args[0])
    if v.type == target and len(node.args) == 1:
        return v
    if isinstance(v.type, T.TensorType):
        return em.call_python_op(f"Tensor.__{name}__", [v], node)
    args = [v] + [em.value(a) for a in node.args[1:]]
    return em.call_python_op(f"builtins.{name}", args, node, em.call_kwargs(node))


def b_range(em, node, expected):
    return em.unsupported("range() is only supported in for loops and list(range(...))",
                          node.span)


def b_list(em, node, expected):
    if not node.args:
        return em.value(A.List(node.span, []), expected)
    arg = node.args[0]
    comp = A.ListComp(node.span, A.Name(arg.span, "_x"),
                      [A.Comprehension(arg.span, A.Name(arg.span, "_x"), arg, [])])
    return em.value(comp, expected)


def b_dict(em, node, expected):
    if not node.args and not node.keywords:
        return em.value(A.Dict(node.span, [], []), expected)
    if len(node.args) == 1 and not node.keywords:
        v = em.value(node.args[0])
        if isinstance(v.type, T.DictType):
            return em.b.kernel("builtins.dict_copy", [v], v.type, em.loc(node))
    return em.unsupported("dict() is supported with no argument or a dict to copy", node.span)


def b_tuple(em, node, expected):
    return em.unsupported("tuple() is not supported; write a tuple literal", node.span)


def b_pow(em, node, expected):
    if len(node.args) != 2 or node.keywords:
        return em.unsupported("pow() with a modulus is not supported", node.span)
    a, b = (em.value(x) for x in node.args)
    fake = A.BinOp(node.span, node.args[0], "**", node.args[1])
    return em.binop("**", a, b, fake)


def b_enumerate(em, node, expected):
    return em.unsupported("enumerate()/zip()/reversed() are only supported in for loops and "
                          "comprehensions", node.span)


# ----------------------------------------------------------------------------- any / all / sorted


def any_all(em, node, name):
    """any()/all() over a generator, stopping at the first deciding element like Python."""
    gen = node.args[0]
    loc = em.loc(node)
    is_any = name == "any"
    flag = f"$flag{id(node)}"
    from ember.frontend.env import Var
    em.env.set(flag, Var(T.BOOL, em.b.const(not is_any, T.BOOL, loc), True))
    test = gen.elt if is_any else A.UnaryOp(gen.elt.span, "not", gen.elt)
    setflag = A.Assign(gen.span, [A.Name(gen.span, flag)], A.Constant(gen.span, is_any))
    body = [A.If(gen.span, test, [setflag, A.Break(gen.span)], [])]
    for g in reversed(gen.generators):
        for cond in reversed(g.ifs):
            body = [A.If(cond.span, cond, body, [])]
        body = [A.For(g.span, g.target, g.iter, body, [])]
    if len(gen.generators) > 1:
        return em.unsupported(f"{name}() over a generator with several 'for's is not "
                              "supported", gen.span)
    em.stmt(body[0])
    result = em.env.get(flag).value
    em.env.pop(flag)
    return result


def sorted_with_key(em, xs, node, in_place):
    loc = em.loc(node)
    kw = {k.arg: k.value for k in node.keywords}
    if not isinstance(xs.type, T.ListType):
        return em.error(f"sorted() needs a list, not {show(xs.type)}", node.span)
    key = em.value(kw["key"], T.FunctionType((xs.type.elem,), T.I64))
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
    if not (isinstance(fmt_node, A.Constant) and isinstance(fmt_node.value, str)):
        return em.unsupported("str.format needs a literal format string", node.func.span)
    args = [em.value(a) for a in node.args]
    kwargs = {k.arg: em.value(k.value) for k in node.keywords}
    try:
        return _format(em, fmt_node.value, args, kwargs, node, [0])
    except (ValueError, IndexError, KeyError) as e:
        return em.error(f"bad format string: {e}", fmt_node.span)


def _format(em, fmt, args, kwargs, node, counter):
    loc = em.loc(node)
    parts = []
    for literal, field, spec, conv in string.Formatter().parse(fmt):
        if literal:
            parts.append(em.b.const(literal, T.STR, loc))
        if field is None:
            continue
        if field == "":
            if counter[0] < 0:
                raise ValueError("cannot switch from manual field numbering to automatic")
            v = args[counter[0]]
            counter[0] += 1
        elif field.isdigit():
            v = args[int(field)]
            counter[0] = -1 if counter[0] == 0 else counter[0]
        elif field in kwargs:
            v = kwargs[field]
        else:
            raise KeyError(field)
        if conv in ("r", "s"):
            v = em.b.kernel("builtins.repr" if conv == "r" else "builtins.str", [v], T.STR, loc)
        spec_v = _format(em, spec, args, kwargs, node, counter) if spec else \
            em.b.const("", T.STR, loc)
        parts.append(em.b.kernel("builtins.format", [v, spec_v], T.STR, loc))
    return em.concat(parts, loc)


_HANDLERS = {
    "print": b_print, "isinstance": b_isinstance, "int": b_int, "float": b_float,
    "bool": b_bool, "str": b_str, "range": b_range, "list": b_list, "dict": b_dict,
    "tuple": b_tuple, "pow": b_pow, "enumerate": b_enumerate, "zip": b_enumerate,
    "reversed": b_enumerate,
}


__all__ = ["call_builtin", "isinstance_types", "str_format", "sorted_with_key", "Region"]
