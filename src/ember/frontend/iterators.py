"""Iterators as values: iter(), next(), map(), filter(), and zip() / enumerate() /
reversed() where they are not the iterable of a `for` (which loops over them by index).

`it = iter(xs)`, `m = map(f, xs)`, `z = zip(a, b)` are `Iterator[T]` values: CPython's
own iterator of the same call at run time (ember.ops.scalar_iter), so each element is
made once, when asked for, and sees the containers as they are then. `next(it)` raises
StopIteration at the end (`next(it, default)` gives the default); a `for` loop,
`list()`, `sorted()`, `sum()`, ... consume what is left.
"""

from __future__ import annotations

from ember.frontend import ast as A
from ember.frontend.meta import MBuiltin
from ember.frontend.typing_ import ErrorType, show
from ember.ir import types as T


def elem_type(t):
    """The type of the elements iterating a value of type t gives, or None."""
    if isinstance(t, (T.ListType, T.SetType, T.IterType)):
        return t.elem
    if t == T.STR:
        return T.STR
    if isinstance(t, T.DictType):
        return t.key
    if isinstance(t, T.TupleType) and t.elems and all(e == t.elems[0] for e in t.elems):
        return t.elems[0]
    return None


def _iterable(em, node, what):
    """(value, element type) of an argument that must be iterable; (None, None) after an
    error."""
    from ember.frontend.generators import is_lazy_source
    if is_lazy_source(em, node):
        em.unsupported(f"{what} of a generator is not supported as a value (ember inlines "
                       "generators into the loop that iterates them); iterate it in a for "
                       "loop, or make a list of it first", node.span)
        return None, None
    if isinstance(node, A.Call) and isinstance(node.func, A.Name) and node.func.id == "range":
        from ember.frontend.meta import MBuiltin
        if isinstance(em.global_meta("range"), MBuiltin):
            bounds = em.range_args(node)
            if bounds is None:
                return None, None
            return em.b.kernel("iter.range", bounds, T.IterType(T.I64), em.loc(node)), T.I64
    v = em.value(node)
    if isinstance(v.type, ErrorType):
        return None, None
    e = elem_type(v.type)
    if e is None:
        em.error(f"{what}: {show(v.type)} is not iterable here", node.span)
        return None, None
    return v, e


def _protocol_object(em, node):
    """The value of node when it is an object of a class with __iter__ / __next__ (the
    iterator protocol), else None (node is then not evaluated)."""
    from ember.frontend.generators import is_lazy_source
    if is_lazy_source(em, node) or isinstance(node, (A.List, A.Tuple, A.Dict, A.Set,
                                                     A.ListComp, A.Constant)):
        return None
    if isinstance(node, A.Call) and isinstance(node.func, A.Name) and \
            isinstance(em.global_meta(node.func.id), MBuiltin):
        return None
    return node


def _call_dunder(em, v, name, node):
    from ember.frontend.builtins_ import hidden_name
    from ember.frontend.env import Var
    tmp = hidden_name("obj")
    em.env.set(tmp, Var(v.type, v, True))
    try:
        sp = node.span
        return em.value(A.Call(sp, A.Attribute(sp, A.Name(sp, tmp), name), [], []))
    finally:
        em.env.pop(tmp)


def b_iter(em, node, expected):
    if len(node.args) != 1 or node.keywords:
        return em.error("iter() takes one argument here (iter(callable, sentinel) is not "
                        "supported)", node.span)
    arg = node.args[0]
    if _protocol_object(em, arg) is not None:
        v = em.value(arg)
        if isinstance(v.type, T.ClassType) and em.class_defines(v.type, "__iter__") and \
                not _generator_iter(em, v.type):
            return _call_dunder(em, v, "__iter__", node)  # iter(obj) is obj.__iter__()
        arg = _hold(em, v, arg)
    v, e = _iterable(em, arg, "iter()")
    if v is None:
        return _poison()
    if isinstance(v.type, T.IterType):
        return v  # iter(it) is it
    return em.b.kernel("iter.of", [v], T.IterType(e), em.loc(node))


def next_of_generator(em, node):
    """next(gen(...)) / next((x for x in xs if p), default): the generator, inlined into a
    loop, runs up to its first value and stops there (what follows its first `yield` never
    runs, as in CPython); none: the default, or StopIteration."""
    from ember.frontend.builtins_ import hidden_name
    sp = node.span
    x, r = hidden_name("x"), hidden_name("next")
    first = A.Name(sp, x)
    if len(node.args) == 2 and isinstance(node.args[1], (A.Constant, A.Name)):
        # typed as either (Optional[int] for a None default): [x, default][0]
        first = A.Subscript(sp, A.List(sp, [first, node.args[1]]), A.Constant(sp, 0))
    body = [A.Assign(sp, [A.Name(sp, r)], first), A.Break(sp)]
    if len(node.args) == 2:
        orelse = [A.Assign(sp, [A.Name(sp, r)], node.args[1])]
    else:
        orelse = [A.Raise(sp, A.Call(sp, A.Name(sp, "StopIteration"), [], []), None)]
    forced = em.read_after_loop
    em.read_after_loop = forced | {r}  # r lives in a slot read after the loop
    try:
        em.stmt(A.For(sp, A.Name(sp, x), node.args[0], body, orelse))
    finally:
        em.read_after_loop = forced
    v = em.read_var(r, sp)
    for name in (x, r):
        if em.env.get(name) is not None:
            em.env.pop(name)
    return v


def b_next(em, node, expected):
    if not 1 <= len(node.args) <= 2 or node.keywords:
        return em.error("next() takes an iterator and an optional default", node.span)
    from ember.frontend.generators import is_lazy_source
    if is_lazy_source(em, node.args[0]):
        return next_of_generator(em, node)
    it = em.value(node.args[0])
    if isinstance(it.type, ErrorType):
        return it
    if isinstance(it.type, T.ClassType) and em.class_defines(it.type, "__next__"):
        return _next_protocol(em, it, node)
    if not isinstance(it.type, T.IterType):
        return em.error(f"'{show(it.type)}' object is not an iterator (call iter() on it "
                        "first)", node.args[0].span)
    loc = em.loc(node)
    if len(node.args) == 1:
        return em.b.kernel("iter.next", [it], it.type.elem, loc)
    d = em.coerce(em.value(node.args[1], it.type.elem), it.type.elem, node.args[1].span,
                  what="next()'s default")
    return em.b.kernel("iter.next_default", [it, d], it.type.elem, loc)


def _generator_iter(em, t) -> bool:
    from ember.frontend.classes import dunder
    from ember.frontend.generators import is_generator_def
    m = dunder(em, t, "__iter__")
    return m is not None and is_generator_def(m.node)


def _hold(em, v, node):
    """A name for v (a hidden variable), to give it to code that takes an expression."""
    from ember.frontend.builtins_ import hidden_name
    from ember.frontend.env import Var
    tmp = hidden_name("held")
    em.env.set(tmp, Var(v.type, v, True))
    return A.Name(node.span, tmp)


def _next_protocol(em, it, node):
    """next(obj) / next(obj, default) of an object with __next__: obj.__next__(), and the
    default when it raises StopIteration."""
    if len(node.args) == 1:
        return _call_dunder(em, it, "__next__", node)
    from ember.frontend.builtins_ import hidden_name
    sp = node.span
    r = hidden_name("next")
    obj = _hold(em, it, node.args[0])
    em.stmt(A.Assign(sp, [A.Name(sp, r)], node.args[1]))
    em.stmt(A.Try(sp, [A.Assign(sp, [A.Name(sp, r)],
                                A.Call(sp, A.Attribute(sp, obj, "__next__"), [], []))],
                  [A.ExceptHandler(sp, A.Name(sp, "StopIteration"), None, [A.Pass(sp)])],
                  [], []))
    return em.read_var(r, sp)


def b_map(em, node, expected):
    if len(node.args) < 2 or len(node.args) > 5 or node.keywords:
        return em.error("map() takes a function and one to four iterables here", node.span)
    parts = [_iterable(em, a, "map()") for a in node.args[1:]]
    if any(v is None for v, _ in parts):
        return _poison()
    f = _function(em, node.args[0], [e for _, e in parts])
    if f is None:
        return _poison()
    return em.b.kernel(f"iter.map{len(parts)}", [f] + [v for v, _ in parts],
                       T.IterType(f.type.ret), em.loc(node))


def b_filter(em, node, expected):
    if len(node.args) != 2 or node.keywords:
        return em.error("filter() takes a function (or None) and an iterable", node.span)
    v, e = _iterable(em, node.args[1], "filter()")
    if v is None:
        return _poison()
    loc = em.loc(node)
    if isinstance(node.args[0], A.Constant) and node.args[0].value is None:
        return em.b.kernel("iter.filter_none", [v], T.IterType(e), loc)
    f = _function(em, node.args[0], [e])
    if f is None:
        return _poison()
    return em.b.kernel("iter.filter", [f, v], T.IterType(e), loc)


def b_zip(em, node, expected):
    if not 1 <= len(node.args) <= 4 or node.keywords:
        return em.error("zip() takes one to four iterables here (strict= is not supported)",
                        node.span)
    parts = [_iterable(em, a, "zip()") for a in node.args]
    if any(v is None for v, _ in parts):
        return _poison()
    return em.b.kernel(f"iter.zip{len(parts)}", [v for v, _ in parts],
                       T.IterType(T.TupleType(tuple(e for _, e in parts))), em.loc(node))


def b_enumerate(em, node, expected):
    kw = {k.arg: k.value for k in node.keywords}
    if not 1 <= len(node.args) + len(kw) <= 2 or set(kw) - {"start"} or \
            (len(node.args) == 2 and kw):
        return em.error("enumerate() takes an iterable and an optional start", node.span)
    v, e = _iterable(em, node.args[0], "enumerate()")
    if v is None:
        return _poison()
    start_node = node.args[1] if len(node.args) == 2 else kw.get("start")
    loc = em.loc(node)
    start = em.to_int(em.value(start_node), start_node) if start_node is not None else \
        em.b.const(0, T.I64, loc)
    return em.b.kernel("iter.enumerate", [v, start], T.IterType(T.TupleType((T.I64, e))),
                       loc)


def b_reversed(em, node, expected):
    if len(node.args) != 1 or node.keywords:
        return em.error("reversed() takes one argument", node.span)
    arg = node.args[0]
    loc = em.loc(node)
    if isinstance(arg, A.Call) and isinstance(arg.func, A.Name) and arg.func.id == "range":
        bounds = em.range_args(arg)
        if bounds is None:
            return _poison()
        return em.b.kernel("iter.reversed_range", bounds, T.IterType(T.I64), loc)
    v = em.value(arg)
    if isinstance(v.type, ErrorType):
        return v
    if not (isinstance(v.type, (T.ListType, T.DictType)) or v.type == T.STR):
        return em.error(f"'{show(v.type)}' object is not reversible", arg.span)
    return em.b.kernel("iter.reversed", [v], T.IterType(elem_type(v.type)), loc)


def _function(em, node, params):
    """The function value map()/filter() calls, typed for these parameter types."""
    from ember.frontend.builtins_ import key_function
    from ember.frontend.meta import MBuiltin, MClass, MException, MOpFunc
    if isinstance(node, A.Name) and isinstance(
            em.global_meta(node.id), (MBuiltin, MOpFunc, MClass, MException)):
        # map(str, xs): a builtin, math function or class, called through a lambda
        sp = node.span
        names = [f"$p{i}" for i in range(len(params))]
        node = A.Lambda(sp, [A.Arg(sp, n) for n in names],
                        A.Call(sp, node, [A.Name(sp, n) for n in names], []))
    f = key_function(em, node, T.FunctionType(tuple(params), T.I64))
    if isinstance(f.type, ErrorType):
        return None
    if not isinstance(f.type, T.FunctionType):
        em.error(f"a function is expected here, not {show(f.type)}", node.span)
        return None
    if len(f.type.params) != len(params):
        em.error(f"this function takes {len(f.type.params)} argument(s), but it is called "
                 f"with {len(params)}", node.span)
        return None
    return f


def _poison():
    from ember.frontend.function import Poison
    return Poison()


class IterSeq:
    """A for loop over an iterator: each test advances it one element."""

    kind = "iter"

    def __init__(self, em, it, loc):
        self.it, self.elem, self.loc = it, it.type.elem, loc

    def cond(self, em, i):
        return em.b.kernel("iter.advance", [self.it], T.BOOL, self.loc)

    def item(self, em, i):
        return em.b.kernel("iter.current", [self.it], self.elem, self.loc)


HANDLERS = {"iter": b_iter, "next": b_next, "map": b_map, "filter": b_filter}

__all__ = ["HANDLERS", "IterSeq", "b_zip", "b_enumerate", "b_reversed", "elem_type"]
