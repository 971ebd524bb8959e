"""list, dict and tuple operators, and generic comparisons of any value.

Lists, dicts and tuples are Python's own at run time, so every kernel is the
CPython method (same results, same exceptions and messages).
"""

from __future__ import annotations

import operator

import numpy as np

from ember.ops.int64 import check
from ember.ops.registry import OpDef, register


def _reg(name, schema, kernel, python=(), **flags):
    register(OpDef(name, f"{name}{schema}", kernel, python_names=python, **flags))


def _slice(xs, start, stop, step):
    return xs[start:stop:step]


def _setitem(xs, i, v):
    xs[i] = v


def _delitem(xs, i):
    del xs[i]


def _delslice(xs, start, stop, step):
    del xs[start:stop:step]


def _setslice(xs, start, stop, step, ys):
    xs[start:stop:step] = ys


def _index(xs, x):
    return xs.index(x)  # a list's or a run-time-length tuple's (T.VarTupleType)


def _count(xs, x):
    return xs.count(x)


def _imul(xs, n):
    xs *= n


def _sort(xs, reverse):
    try:
        xs.sort(reverse=reverse)
    except ValueError as e:  # a list of many-element tensors: torch's error
        _truth_error(e)


def _truth_error(e):
    """Re-raise numpy's error for the truth of a many-element array (tensors compared by
    sort/min/max) as torch's RuntimeError; any other ValueError as it is."""
    if str(e).startswith("The truth value of an array"):
        raise RuntimeError("Boolean value of Tensor with more than one value is "
                           "ambiguous") from None
    raise e


def _sum_int(xs):
    total = 0
    for x in xs:
        total = check(total + x, "+", total, x)
    return total


def _sum_float(xs):
    return sum(xs, 0.0)  # the running CPython's sum (compensated since 3.12)


# ----------------------------------------------------------------------------- list


def _index(xs, x):
    """xs.index(x); a tensor shows in the message as torch prints it."""
    try:
        return xs.index(x)
    except ValueError:
        if isinstance(x, np.ndarray):
            from ember.ops.tensor_str import tensor_str
            raise ValueError(f"{tensor_str(x)} is not in list") from None
        raise

L = "List[t] self"
_LIST = [
    ("getitem", f"({L}, int i) -> t", operator.getitem, ("list.__getitem__",), True, True),
    ("setitem", f"({L}, int i, t v) -> None", _setitem, ("list.__setitem__",), True, False),
    ("delitem", f"({L}, int i) -> None", _delitem, ("list.__delitem__",), True, False),
    ("len", f"({L}) -> int", len, ("builtins.len",), False, True),
    ("append", f"({L}, t x) -> None", list.append, ("list.append",), False, False),
    ("pop", f"({L}, int i=-1) -> t", list.pop, ("list.pop",), True, False),
    ("insert", f"({L}, int i, t x) -> None", list.insert, ("list.insert",), False, False),
    ("extend", f"({L}, List[t] other) -> None", list.extend, ("list.extend",), False, False),
    ("remove", f"({L}, t x) -> None", list.remove, ("list.remove",), True, False),
    ("index", f"({L}, t x) -> int", _index, ("list.index",), True, True),
    ("index_from", f"({L}, t x, int start, int? end=None) -> int",
     lambda xs, x, start, end=None: xs.index(x, start, len(xs) if end is None else end),
     ("list.index",), True, True),
    ("count", f"({L}, t x) -> int", _count, ("list.count",), False, True),
    ("reverse", f"({L}) -> None", list.reverse, ("list.reverse",), False, False),
    ("sort", f"({L}, bool reverse=False) -> None", _sort, ("list.sort",), True, False),
    ("clear", f"({L}) -> None", list.clear, ("list.clear",), False, False),
    ("copy", f"({L}) -> List[t]", list, ("list.copy",), False, False),
    ("slice", f"({L}, int? start=None, int? stop=None, int? step=None) -> List[t]", _slice,
     (), True, False),
    ("add", "(List[t] a, List[t] b) -> List[t]", operator.add, ("list.__add__",), False, False),
    ("mul", f"({L}, int n) -> List[t]", operator.mul, ("list.__mul__",), False, False),
    ("imul", f"({L}, int n) -> None", _imul, (), False, False),
    ("delslice", f"({L}, int? start=None, int? stop=None, int? step=None) -> None", _delslice,
     (), True, False),
    ("setslice", f"({L}, int? start, int? stop, int? step, List[t] items) -> None",
     _setslice, (), True, False),
    ("contains", f"({L}, t x) -> bool", operator.contains, ("list.__contains__",), False, True),
]
# Lists and dicts are mutable: even their reads are not `pure` (CSE must not merge a read
# across a write). The last column says whether the op only reads.
for _n, _schema, _k, _py, _raises, _pure in _LIST:
    _reg(f"list.{_n}", _schema, _k, _py, may_raise=_raises, pure=False, fold=False)

# ----------------------------------------------------------------------------- dict

D = "Dict[k, v] self"


def _dict_keys(d):
    return list(d)


def _dict_values(d):
    return list(d.values())


def _dict_items(d):
    return list(d.items())


def _dict_pop(d, k):
    return d.pop(k)


def _dict_pop_default(d, k, default):
    return d.pop(k, default)


def _dict_iter_ok(d, n, i):
    if len(d) != n:
        raise RuntimeError("dictionary changed size during iteration")
    return i < n


_DICT = [
    ("getitem", f"({D}, k key) -> v", operator.getitem, ("dict.__getitem__",), True, True),
    ("setitem", f"({D}, k key, v value) -> None", _setitem, ("dict.__setitem__",), False,
     False),
    ("delitem", f"({D}, k key) -> None", _delitem, ("dict.__delitem__",), True, False),
    ("len", f"({D}) -> int", len, ("builtins.len",), False, True),
    ("contains", f"({D}, k key) -> bool", operator.contains, ("dict.__contains__",), False,
     True),
    ("get", f"({D}, k key, v default) -> v", dict.get, ("dict.get",), False, True),
    ("get_opt", f"({D}, k key) -> Optional[v]", dict.get, ("dict.get",), False, True),
    ("keys", f"({D}) -> List[k]", _dict_keys, ("dict.keys",), False, True),
    ("values", f"({D}) -> List[v]", _dict_values, ("dict.values",), False, True),
    ("items", f"({D}) -> List[Tuple[k, v]]", _dict_items, ("dict.items",), False, True),
    ("iter_ok", f"({D}, int n, int i) -> bool", _dict_iter_ok, (), True, True),
    ("pop", f"({D}, k key) -> v", _dict_pop, ("dict.pop",), True, False),
    ("pop_default", f"({D}, k key, v default) -> v", _dict_pop_default, ("dict.pop",), False,
     False),
    ("setdefault", f"({D}, k key, v default) -> v", dict.setdefault, ("dict.setdefault",),
     False, False),
    ("update", f"({D}, Dict[k, v] other) -> None", dict.update, ("dict.update",), False,
     False),
    ("update_pairs", f"({D}, List[Tuple[k, v]] other) -> None", dict.update, ("dict.update",),
     False, False),
    ("popitem", f"({D}) -> Tuple[k, v]", dict.popitem, ("dict.popitem",), True, False),
    ("clear", f"({D}) -> None", dict.clear, ("dict.clear",), False, False),
    ("copy", f"({D}) -> Dict[k, v]", dict.copy, ("dict.copy",), False, False),
    ("or", f"({D}, Dict[k, v] other) -> Dict[k, v]", operator.or_, ("dict.__or__",), False,
     False),
]
for _n, _schema, _k, _py, _raises, _pure in _DICT:
    _reg(f"dict.{_n}", _schema, _k, _py, may_raise=_raises, pure=False, fold=False)
_reg("dict.fromkeys", "(List[k] keys, v value) -> Dict[k, v]", dict.fromkeys,
     ("dict.fromkeys",), pure=False, fold=False, doc="dict.fromkeys(keys, value).")
_reg("dict.fromkeys_str", "(str keys, v value) -> Dict[str, v]", dict.fromkeys,
     ("dict.fromkeys",), pure=False, fold=False, doc="dict.fromkeys(a string's characters, value).")

# ----------------------------------------------------------------------------- any value

# Generic comparisons for values without a dedicated operator (tuples, lists, None, ...):
# both operands have the same type t; the kernel is Python's operator.
def _tensor_truth(fn):
    """fn, with numpy's error for the truth of a many-element array (a list of tensors
    compared elementwise) as torch's RuntimeError."""
    def kernel(*args):
        try:
            return fn(*args)
        except ValueError as e:
            if str(e).startswith("The truth value of an array"):
                raise RuntimeError("Boolean value of Tensor with more than one value is "
                                   "ambiguous") from None
            raise
    kernel.__name__ = fn.__name__
    return kernel


for _n, _k in [("eq", operator.eq), ("ne", operator.ne), ("lt", operator.lt),
               ("le", operator.le), ("gt", operator.gt), ("ge", operator.ge)]:
    _reg(f"any.{_n}", "(t a, t b) -> bool", _k, (), may_raise=_n not in ("eq", "ne"),
         pure=False)
    _reg(f"any.{_n}_tensors", "(t a, t b) -> bool", _tensor_truth(_k), (), may_raise=True,
         pure=False, doc=f"any.{_n} of containers holding tensors (a tensor's truth is "
                         "torch's).")
_reg("obj.is", "(Any a, Any b) -> bool", operator.is_, ())
_reg("obj.isnot", "(Any a, Any b) -> bool", operator.is_not, ())
_reg("any.contains", "(Any container, Any x) -> bool", operator.contains, (), pure=False)
_reg("tuple.len", "(Any t) -> int", len, ())
_reg("tuple.getitem", "(Any t, int i) -> Any", operator.getitem, (), may_raise=True)
_reg("tuple.slice", "(Any t, int? start=None, int? stop=None, int? step=None) -> Any", _slice)
_reg("tuple.index", "(Any t, Any x) -> int", lambda t, x: t.index(x), ("tuple.index",),
     may_raise=True, doc="The position of the first element equal to x (ValueError if none).")
_reg("tuple.count", "(Any t, Any x) -> int", lambda t, x: t.count(x), ("tuple.count",),
     doc="How many elements equal x.")

# ----------------------------------------------------------------------------- builtins on lists


def _min_list(xs):
    try:
        return min(xs)
    except ValueError as e:
        _truth_error(e)


def _max_list(xs):
    try:
        return max(xs)
    except ValueError as e:
        _truth_error(e)


def _sorted(xs, reverse):
    try:
        return sorted(xs, reverse=reverse)
    except ValueError as e:
        _truth_error(e)


def _sorted_key(xs, key, reverse):
    try:
        return sorted(xs, key=key, reverse=reverse)
    except ValueError as e:
        _truth_error(e)


def _all(xs):
    return all(xs)


def _any(xs):
    return any(xs)


_reg("builtins.min2", "(t a, t b) -> t", _tensor_truth(min), ("builtins.min",), may_raise=True)
_reg("builtins.max2", "(t a, t b) -> t", _tensor_truth(max), ("builtins.max",), may_raise=True)
_reg("builtins.min_list", "(List[t] xs) -> t", _min_list, ("builtins.min",), may_raise=True,
     pure=False)
_reg("builtins.max_list", "(List[t] xs) -> t", _max_list, ("builtins.max",), may_raise=True,
     pure=False)
_reg("builtins.sum_int", "(List[int] xs) -> int", _sum_int, ("builtins.sum",), may_raise=True,
     pure=False)
_reg("builtins.sum_float", "(List[float] xs) -> float", _sum_float, ("builtins.sum",),
     pure=False)
_reg("builtins.sum_bool", "(List[bool] xs) -> int", _sum_int, ("builtins.sum",), pure=False,
     doc="sum() of bools: how many are True.")
_reg("builtins.sum_int_start", "(List[int] xs, int start) -> int",
     lambda xs, start: _sum_int([start] + xs), ("builtins.sum",), may_raise=True, pure=False,
     doc="sum(xs, start) of ints.")
_reg("builtins.sum_float_start", "(List[float] xs, float start) -> float",
     lambda xs, start: sum(xs, start), ("builtins.sum",), pure=False,
     doc="sum(xs, start) of floats.")
_reg("builtins.sorted", "(List[t] xs, bool reverse=False) -> List[t]", _sorted,
     ("builtins.sorted",), may_raise=True, fold=False, pure=False)
_reg("builtins.sorted_key", "(List[t] xs, Callable[[t], u] key, bool reverse=False) -> List[t]",
     _sorted_key, ("builtins.sorted",), may_raise=True, fold=False, pure=False)
_reg("builtins.all", "(List[bool] xs) -> bool", _all, ("builtins.all",), pure=False)
_reg("builtins.any", "(List[bool] xs) -> bool", _any, ("builtins.any",), pure=False)
_reg("builtins.list_copy", "(List[t] xs) -> List[t]", list, ("builtins.list",), fold=False,
     pure=False)
_reg("builtins.list_str", "(str s) -> List[str]", list, ("builtins.list",), fold=False)
_reg("builtins.dict_copy", "(Dict[k, v] d) -> Dict[k, v]", dict, ("builtins.dict",),
     fold=False, pure=False)


def _check_unpack(xs, n):
    got = len(xs)
    if got > n:
        raise ValueError(f"too many values to unpack (expected {n})")
    if got < n:
        raise ValueError(f"not enough values to unpack (expected {n}, got {got})")


_reg("list.to_tuple", "(List[t] xs) -> List[t]", tuple, (), pure=False, fold=False,
     doc="tuple(xs): a tuple of the list's items (a T.VarTupleType, of run-time length).")
_reg("list.zip_star", "(List[t] rows) -> List[u]", lambda rows: list(zip(*rows)), (),
     pure=False, fold=False, may_raise=True,
     doc="zip(*rows): the list of the rows' columns, each a tuple.")
_reg("list.check_unpack", "(List[t] xs, int n) -> None", _check_unpack, (), may_raise=True,
     pure=False, fold=False)


def _check_unpack_star(xs, n):
    got = len(xs)
    if got < n:
        raise ValueError(f"not enough values to unpack (expected at least {n}, got {got})")


_reg("list.check_unpack_star", "(List[t] xs, int n) -> None", _check_unpack_star, (),
     may_raise=True, pure=False, fold=False,
     doc="a, *rest, b = xs: xs has at least n (the targets other than the starred) items.")
