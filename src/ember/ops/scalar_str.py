"""str operators and methods: CPython's own str methods, one registered operator each."""

from __future__ import annotations

import operator

from ember.ops.registry import OpDef, register


def _reg(name, schema, kernel, python=(), **flags):
    register(OpDef(name, f"{name}{schema}", kernel, python_names=python, **flags))


def _slice(s, start, stop, step):
    return s[start:stop:step]


def _repeat(s, n):
    return s * n


_reg("str.add", "(str a, str b) -> str", operator.add, ("str.__add__",))
_reg("str.mul", "(str a, int n) -> str", _repeat, ("str.__mul__",))
_reg("str.len", "(str s) -> int", len, ("builtins.len",))
_reg("str.getitem", "(str s, int i) -> str", operator.getitem, ("str.__getitem__",),
     may_raise=True)
_reg("str.slice", "(str s, int? start=None, int? stop=None, int? step=None) -> str", _slice,
     may_raise=True)
_reg("str.contains", "(str s, str sub) -> bool", operator.contains, ("str.__contains__",))

# (name, schema tail, kernel, may_raise)
_METHODS = [
    ("split", "(str self, str? sep=None, int maxsplit=-1) -> List[str]", str.split, True),
    ("rsplit", "(str self, str? sep=None, int maxsplit=-1) -> List[str]", str.rsplit, True),
    ("join", "(str self, List[str] items) -> str", str.join, False),
    ("strip", "(str self, str? chars=None) -> str", str.strip, False),
    ("lstrip", "(str self, str? chars=None) -> str", str.lstrip, False),
    ("rstrip", "(str self, str? chars=None) -> str", str.rstrip, False),
    ("lower", "(str self) -> str", str.lower, False),
    ("upper", "(str self) -> str", str.upper, False),
    ("capitalize", "(str self) -> str", str.capitalize, False),
    ("title", "(str self) -> str", str.title, False),
    ("swapcase", "(str self) -> str", str.swapcase, False),
    ("casefold", "(str self) -> str", str.casefold, False),
    ("replace", "(str self, str old, str new, int count=-1) -> str", str.replace, False),
    ("find", "(str self, str sub, int? start=None, int? end=None) -> int", str.find, False),
    ("rfind", "(str self, str sub, int? start=None, int? end=None) -> int", str.rfind, False),
    ("index", "(str self, str sub, int? start=None, int? end=None) -> int", str.index, True),
    ("rindex", "(str self, str sub, int? start=None, int? end=None) -> int", str.rindex, True),
    ("count", "(str self, str sub, int? start=None, int? end=None) -> int", str.count, False),
    ("startswith", "(str self, str prefix, int? start=None, int? end=None) -> bool",
     str.startswith, False),
    ("endswith", "(str self, str suffix, int? start=None, int? end=None) -> bool",
     str.endswith, False),
    ("isdigit", "(str self) -> bool", str.isdigit, False),
    ("isdecimal", "(str self) -> bool", str.isdecimal, False),
    ("isnumeric", "(str self) -> bool", str.isnumeric, False),
    ("isalpha", "(str self) -> bool", str.isalpha, False),
    ("isalnum", "(str self) -> bool", str.isalnum, False),
    ("isspace", "(str self) -> bool", str.isspace, False),
    ("islower", "(str self) -> bool", str.islower, False),
    ("isupper", "(str self) -> bool", str.isupper, False),
    ("istitle", "(str self) -> bool", str.istitle, False),
    ("isidentifier", "(str self) -> bool", str.isidentifier, False),
    ("isprintable", "(str self) -> bool", str.isprintable, False),
    ("isascii", "(str self) -> bool", str.isascii, False),
    ("zfill", "(str self, int width) -> str", str.zfill, False),
    ("center", "(str self, int width, str fillchar=' ') -> str", str.center, True),
    ("ljust", "(str self, int width, str fillchar=' ') -> str", str.ljust, True),
    ("rjust", "(str self, int width, str fillchar=' ') -> str", str.rjust, True),
    ("splitlines", "(str self, bool keepends=False) -> List[str]", str.splitlines, False),
    ("partition", "(str self, str sep) -> Tuple[str, str, str]", str.partition, True),
    ("rpartition", "(str self, str sep) -> Tuple[str, str, str]", str.rpartition, True),
    ("removeprefix", "(str self, str prefix) -> str", str.removeprefix, False),
    ("removesuffix", "(str self, str suffix) -> str", str.removesuffix, False),
    ("expandtabs", "(str self, int tabsize=8) -> str", str.expandtabs, False),
]


for _n, _schema, _k, _raises in _METHODS:
    _reg(f"str.{_n}", _schema, _k, (f"str.{_n}",), may_raise=_raises)


def _any_of(method):
    def kernel(s, prefixes, start=None, end=None):
        return method(s, tuple(prefixes), start, end)
    kernel.__name__ = f"{method.__name__}_any"
    return kernel


for _n in ("startswith", "endswith"):
    _reg(f"str.{_n}_any", "(str self, str[] prefixes, int? start=None, int? end=None) -> bool",
         _any_of(getattr(str, _n)), (f"str.{_n}",),
         doc=f"s.{_n}((a, b, ...)): any of a tuple of strings.")


def _ord(c):
    return ord(c)


_reg("str.ord", "(str c) -> int", _ord, ("builtins.ord",), may_raise=True)
_reg("int.chr", "(int i) -> str", chr, ("builtins.chr",), may_raise=True)


def _maketrans(x, y):
    return str.maketrans(x, y)


def _translate(s, table):
    return s.translate(table)


_reg("str.maketrans", "(str x, str y) -> Dict[int, int]", _maketrans, ("str.maketrans",),
     may_raise=True, doc="str.maketrans(x, y): the code of each character of x mapped to "
     "the code of y's character at its index (CPython's ValueError for unequal lengths).")
_reg("str.translate", "(str self, Dict[int, int] table) -> str", _translate,
     ("str.translate",), may_raise=True, doc="s.translate(table) of a str.maketrans table.")
_reg("str.translate_str", "(str self, Dict[int, str] table) -> str", _translate,
     ("str.translate",), may_raise=True,
     doc="s.translate(table) of a table mapping codes to strings.")
