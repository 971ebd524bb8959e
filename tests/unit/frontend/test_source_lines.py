"""source_of finds a class's lines without inspect's slow passes, and finds the same lines."""

from __future__ import annotations

import importlib.util
import inspect
import sys

from ember.frontend import source as S

TRICKY = '''
import functools


class Plain:
    x = 1

    def f(self):
        return 2
        # inside, indented like the method body
    # indented like the class body
# at column 0: not part of the class
    # but this one is again


class OneLine: pass
# after a one-liner


class Header(
        object):
    y = 2


class HeaderSameLine(
        object): z = 3


@functools.total_ordering
class Decorated:
    @staticmethod
    def g():
        return 1

    def __lt__(self, o):
        return False


class Outer:
    class Inner:
        a = 1
        # inner comment

    b = 2


def factory():
    class Local:
        c = 3
    return Local


if True:
    class Twice:
        first = 1
else:
    class Twice:
        second = 2

try:
    class InTry:
        d = 4
except ImportError:
    class InTry:
        e = 5


class Docstring:
    """doc"""


class AtEnd:
    last = 1
    # trailing at the end of the file
'''


def _load(tmp_path, name, text):
    path = tmp_path / f"{name}.py"
    path.write_text(text)
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module


def test_class_lines_match_inspect(tmp_path):
    m = _load(tmp_path, "ember_tricky_classes", TRICKY)
    try:
        classes = [v for v in vars(m).values() if isinstance(v, type)]
        classes += [m.Outer.Inner, m.factory()]
        assert len(classes) >= 12
        for cls in classes:
            found = S._class_source_lines(cls)
            assert found is not None, cls
            assert found == inspect.getsourcelines(cls), cls
    finally:
        del sys.modules["ember_tricky_classes"]


def test_library_classes_match_inspect():
    import ember.nn as enn
    for cls in (enn.Linear, enn.Conv2d, enn.BatchNorm2d, enn.LSTM, enn.Sequential):
        assert S._class_source_lines(cls) == inspect.getsourcelines(cls)


def test_changed_file_is_read_again(tmp_path):
    m = _load(tmp_path, "ember_changing_class", "class A:\n    x = 1\n")
    try:
        assert S._class_source_lines(m.A)[0] == ["class A:\n", "    x = 1\n"]
        (tmp_path / "ember_changing_class.py").write_text("\n\nclass A:\n    x = 2\n")
        m = _load(tmp_path, "ember_changing_class", "\n\nclass A:\n    x = 2\n")
        assert S._class_source_lines(m.A) == inspect.getsourcelines(m.A)
        assert S._class_source_lines(m.A)[1] == 3
    finally:
        del sys.modules["ember_changing_class"]


FUNCTIONS = '''
import functools


def plain(x):
    return x
    # indented like the body: inspect counts it in
# at column 0: not part of it


def one_line(x): return x


@functools.lru_cache(maxsize=None)
def cached(x):
    return x


def decorated_by(fn):
    return fn


@decorated_by
@decorated_by
def twice_decorated(
        x,
        y):
    """doc"""
    return x + y


def outer():
    def inner(z):
        return z
        # inner comment
    return inner


class K:
    @staticmethod
    def s(a):
        return a

    def m(self):
        return 1


if True:
    def branch():
        return 1
else:
    def branch():
        return 2


def wrapper(fn):
    @functools.wraps(fn)
    def wrapped(*a):
        return fn(*a)
    return wrapped


@wrapper
def wrapped_fn(q):
    return q


lam = lambda v: v + 1


def at_end(x):
    return x
    # trailing at the end of the file
'''


def test_function_lines_match_inspect(tmp_path):
    m = _load(tmp_path, "ember_tricky_functions", FUNCTIONS)
    try:
        fns = [m.plain, m.one_line, m.decorated_by, m.twice_decorated, m.outer, m.outer(),
               m.K.s, m.K.m, m.branch, m.wrapper, m.at_end]
        for fn in fns:
            found = S._function_source_lines(fn)
            assert found is not None, fn
            assert found == inspect.getsourcelines(fn), fn
        # inspect answers for what the index does not cover: lambdas, wrapped functions
        for fn in (m.lam, m.wrapped_fn, m.cached):
            assert S._function_source_lines(fn) is None, fn
        assert S.source_of(m.lam).text.startswith("lam = lambda")
        assert S.source_of(m.wrapped_fn).text.startswith("@wrapper")
    finally:
        del sys.modules["ember_tricky_functions"]
