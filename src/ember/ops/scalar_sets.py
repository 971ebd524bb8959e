"""set operators.

A set is CPython's own set at run time, and every kernel is the CPython operation that
the same Python code performs (a literal adds its elements one by one, as BUILD_SET
does; `set(xs)` of a list adds them in order; `a | b` copies a and adds b's; a literal
of three or more constants is built from a frozenset, as CPython's compiler builds it).
So a set holds its elements in CPython's hash table layout for the same history, and
iterating it gives CPython's order (for str elements: the order of this process's
string hashes, as in CPython).
"""

from __future__ import annotations

from ember.ops.registry import OpDef, register

S = "Set[t] self"


def _reg(name, schema, kernel, python=(), **flags):
    register(OpDef(name, f"{name}{schema}", kernel, python_names=python, pure=False,
                   fold=False, **flags))


def _from_list(xs):
    return set(xs)


def _from_constants(xs):
    """A literal of constants: CPython's compiler makes a frozenset of them, then rebuilds
    it from its own order when it merges the code object's constants, and the code
    updates an empty set with that (BUILD_SET 0; SET_UPDATE). (A function loaded from a
    .pyc gets one rebuild more, by marshal: where hashes collide, CPython's own order then
    differs between a module's first run and later ones; ember follows the first.)"""
    frozen = frozenset(tuple(frozenset(xs)))
    if xs and type(xs[0]) is str:  # str constants are their own keys in the compiler's
        frozen = frozenset(tuple(frozen))  # constant cache: one more rebuild (measured:
        # this order is CPython's for 99.7 % of random str literals, the one before it
        # for the rest; 2 rebuilds are exact for ints, floats, bools and tuples)
    s = set()
    s.update(frozen)
    return s


def _to_list(s):
    return list(s)


def _iter_ok(s, n, i):
    if len(s) != n:
        raise RuntimeError("Set changed size during iteration")
    return i < n


def _method(name):
    fn = getattr(set, name)

    def kernel(s, *args):
        return fn(s, *args)
    kernel.__name__ = f"set_{name}"
    return kernel


def _ior(a, b):
    a |= b


def _iand(a, b):
    a &= b


def _isub(a, b):
    a -= b


def _ixor(a, b):
    a ^= b


_reg("set.empty", "() -> Set[t]", set)
_reg("set.from_list", "(List[t] xs) -> Set[t]", _from_list, ("builtins.set",))
_reg("set.from_constants", "(List[t] xs) -> Set[t]", _from_constants)
_reg("set.from_str", "(str s) -> Set[str]", set, ("builtins.set",))
_reg("set.copy", f"({S}) -> Set[t]", set.copy, ("set.copy", "builtins.set"))
_reg("set.to_list", f"({S}) -> List[t]", _to_list)
_reg("set.iter_ok", f"({S}, int n, int i) -> bool", _iter_ok, may_raise=True)
_reg("set.len", f"({S}) -> int", len, ("builtins.len",))
_reg("set.contains", f"({S}, t x) -> bool", set.__contains__, ("set.__contains__",))
_reg("set.add", f"({S}, t x) -> None", _method("add"), ("set.add",))
_reg("set.remove", f"({S}, t x) -> None", _method("remove"), ("set.remove",),
     may_raise=True)
_reg("set.discard", f"({S}, t x) -> None", _method("discard"), ("set.discard",))
_reg("set.pop", f"({S}) -> t", _method("pop"), ("set.pop",), may_raise=True)
_reg("set.clear", f"({S}) -> None", _method("clear"), ("set.clear",))

for _name in ("union", "intersection", "difference", "symmetric_difference"):
    _reg(f"set.{_name}", f"({S}, Set[t] other) -> Set[t]", _method(_name), (f"set.{_name}",))
    _reg(f"set.{_name}_list", f"({S}, List[t] other) -> Set[t]", _method(_name),
         (f"set.{_name}",))
for _name in ("update", "intersection_update", "difference_update",
              "symmetric_difference_update"):
    _reg(f"set.{_name}", f"({S}, Set[t] other) -> None", _method(_name), (f"set.{_name}",))
    _reg(f"set.{_name}_list", f"({S}, List[t] other) -> None", _method(_name),
         (f"set.{_name}",))
for _name in ("issubset", "issuperset", "isdisjoint"):
    _reg(f"set.{_name}", f"({S}, Set[t] other) -> bool", _method(_name), (f"set.{_name}",))
    _reg(f"set.{_name}_list", f"({S}, List[t] other) -> bool", _method(_name),
         (f"set.{_name}",))

for _op, _fn in (("or", set.__or__), ("and", set.__and__), ("sub", set.__sub__),
                 ("xor", set.__xor__)):
    _reg(f"set.{_op}", f"({S}, Set[t] other) -> Set[t]", _fn, (f"set.__{_op}__",))
for _op, _fn in (("ior", _ior), ("iand", _iand), ("isub", _isub), ("ixor", _ixor)):
    _reg(f"set.{_op}", f"({S}, Set[t] other) -> None", _fn, (f"set.__{_op}__",))
for _op, _fn in (("eq", set.__eq__), ("ne", set.__ne__), ("le", set.__le__),
                 ("lt", set.__lt__), ("ge", set.__ge__), ("gt", set.__gt__)):
    _reg(f"set.{_op}", f"({S}, Set[t] other) -> bool", _fn, (f"set.__{_op}__",))
