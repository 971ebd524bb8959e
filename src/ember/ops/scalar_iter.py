"""Iterator operators: iter(), next(), map(), filter(), zip(), enumerate(), reversed() as
values.

An iterator is a ScriptIterator around CPython's own iterator of the same call (iter(xs),
map(f, xs), zip(a, b), ...), so elements are produced lazily, once, in CPython's order,
and see changes to the underlying containers exactly as CPython's do. A `for` loop over
one advances it a step at a time (advance, then current).
"""

from __future__ import annotations

from ember.ops.registry import OpDef, register


class ScriptIterator:
    """A script's iterator value (also a Python iterator, when returned to Python)."""

    __slots__ = ("it", "cur")

    def __init__(self, it):
        self.it = it
        self.cur = None

    def __iter__(self):
        return self

    def __next__(self):
        return next(self.it)

    def __repr__(self):
        return f"<ember iterator over {type(self.it).__name__}>"


def _reg(name, schema, kernel, python=(), **flags):
    register(OpDef(name, f"{name}{schema}", kernel, python_names=python, pure=False,
                   fold=False, **flags))


def _of(x):
    return x if type(x) is ScriptIterator else ScriptIterator(iter(x))


def _raw(x):
    return x.it if type(x) is ScriptIterator else x


def _next(w):
    return next(w.it)


def _next_default(w, default):
    return next(w.it, default)


def _advance(w):
    for v in w.it:
        w.cur = v
        return True
    w.cur = None
    return False


def _current(w):
    return w.cur


def _map(f, *xs):
    return ScriptIterator(map(f, *(_raw(x) for x in xs)))


def _filter(f, xs):
    return ScriptIterator(filter(f, _raw(xs)))


def _filter_none(xs):
    return ScriptIterator(filter(None, _raw(xs)))


def _zip(*xs):
    return ScriptIterator(zip(*(_raw(x) for x in xs)))


def _enumerate(xs, start):
    return ScriptIterator(enumerate(_raw(xs), start))


def _reversed(xs):
    return ScriptIterator(reversed(xs))


def _reversed_range(start, stop, step):
    return ScriptIterator(reversed(range(start, stop, step)))


def _range(start, stop, step):
    return ScriptIterator(iter(range(start, stop, step)))


def _contains(w, x):
    return x in w.it


def _stop():
    """What next() raises on an exhausted iterator (native code's StopIteration site)."""
    raise StopIteration


_reg("iter.of", "(t xs) -> Iterator[u]", _of, doc="iter(xs) of a list, str, dict, set, "
     "tuple or iterator")
_reg("iter.next", "(Iterator[t] it) -> t", _next, may_raise=True)
_reg("iter.next_default", "(Iterator[t] it, t default) -> t", _next_default, may_raise=True)
_reg("iter.advance", "(Iterator[t] it) -> bool", _advance, may_raise=True)
_reg("iter.current", "(Iterator[t] it) -> t", _current)
_VARS = "abcdefgh"
for _n in range(1, 5):
    _ps = ", ".join(f"{_VARS[i]} x{i}" for i in range(_n))
    _reg(f"iter.map{_n}", f"(t f, {_ps}) -> Iterator[v]", _map, may_raise=True,
         doc=f"map(f, ...) over {_n} iterable(s)")
    _reg(f"iter.zip{_n}", f"({_ps}) -> Iterator[v]", _zip, may_raise=True,
         doc=f"zip(...) of {_n} iterable(s)")
_reg("iter.filter", "(t f, u xs) -> Iterator[v]", _filter, may_raise=True)
_reg("iter.filter_none", "(u xs) -> Iterator[v]", _filter_none, may_raise=True)
_reg("iter.enumerate", "(u xs, int start) -> Iterator[v]", _enumerate, may_raise=True)
_reg("iter.reversed", "(u xs) -> Iterator[v]", _reversed, may_raise=True)
_reg("iter.reversed_range", "(int start, int stop, int step) -> Iterator[int]",
     _reversed_range, may_raise=True)
_reg("iter.range", "(int start, int stop, int step) -> Iterator[int]", _range,
     may_raise=True)
_reg("iter.contains", "(Iterator[t] it, t x) -> bool", _contains, may_raise=True)
_reg("iter.stop", "() -> None", _stop, may_raise=True)
